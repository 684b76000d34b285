/*
 * fuzz_sweep.c — sweep files (`clusterc compare --sweep`, passes/sweep.c) under a coverage-
 * guided fuzzer (libFuzzer; `make fuzz FUZZ_TARGET=fuzz_sweep`).
 *
 * Each input is read as a sweep; every override it yields is parsed in place (the masked copy
 * of the file must have the file's length and keep its line breaks where the override is not),
 * and the first point's overrides are applied to the flagship through the front end, the way
 * compare checks them. Any crash, sanitizer report, leak or broken property is a finding.
 */
#include "passes.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 1 << 20)
		return 0;
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT, .error_limit = DEFAULT_ERROR_LIMIT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Source *src = src_from_text(c, "fuzz.yaml", (const char *)data, size);
	Sweep s;
	if (sweep_load_source(c, src, &s) == 0) {
		for (int i = 0; i < s.npoints; i++) {
			const SweepPoint *p = s.points[i];
			if (!p->name || !*p->name)
				abort();
			for (int k = 0; k < p->nsets; k++) {
				const CliOverride *o = &p->sets[k];
				if (!o->origin)
					continue;
				if (o->origin_len != size || strlen(o->masked) != size)
					abort();
				Source *at = src_from_text(c, o->origin, o->origin_text, o->origin_len);
				parse_override_masked(c, at, o->masked);
			}
		}
		if (s.npoints > 0) {
			Ctx *pc = ctx_new((DiagOptions){.format = DIAG_TEXT});
			pc->stdlib_dir = c->stdlib_dir;
			Program p = {.c = pc, .sets = s.points[0]->sets, .nsets = s.points[0]->nsets,
				     .dump = -1};
			pipeline_front(&p, CLUSTERC_SOURCE_DIR "/examples/wanka.cluster", NULL);
			diag_render(pc, fuzz_sink());
			ctx_free(pc);
		}
	}
	diag_render(c, fuzz_sink());
	ctx_free(c);
	return 0;
}
