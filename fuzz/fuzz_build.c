/*
 * fuzz_build.c — the whole build under a coverage-guided fuzzer (libFuzzer; `make fuzz
 * FUZZ_TARGET=fuzz_build`): each input is a spec, written to a file and built as `clusterc
 * build` does (the pipeline, every artifact writer, the output
 * directory's commit into the same DIR each time, so its ownership check and swap run too).
 * Properties (a broken one aborts): no "internal error" diagnostic; a build without errors
 * commits its output; every CSV cell that could start a formula is a number, no Markdown has a
 * raw '<', no HTML a script (fuzz.h). Inputs past 16 KiB, or whose counts ask for more than
 * 4,096 of anything (a design of millions of nodes is allowed, and slow), go through the front
 * end only.
 */
#include "backends.h"
#include "driver.h"

#include "fuzz.h"

#include <math.h>

/* Whether v, or a value inside it, counts more than most of something: n x T, ranges, choices
 * among counts, and a constructor's plain numbers (grid rows, torus sides, dragonfly sizes). */
static int big_count(const Value *v, double most, int in_ctor)
{
	if (!v)
		return 0;
	switch (v->kind) {
	case VAL_COUNTED:
		return big_count(v->count, most, 1);
	case VAL_RANGE:
		return v->hi > most;
	case VAL_QTY:
		return in_ctor && dim_eq(v->q.dim, DIM_NONE) && v->q.v > most;
	case VAL_LIST:
	case VAL_CHOICE:
	case VAL_CTOR:
		for (int i = 0; i < v->n; i++)
			if (big_count(v->items[i], most, in_ctor || v->kind == VAL_CTOR))
				return 1;
		return 0;
	default:
		return 0;
	}
}

static int small_design(const Program *p)
{
	for (int i = 0; i < p->decls.n; i++) {
		const Decl *d = p->decls.v[i];
		for (int k = 0; k < d->nfields; k++)
			if (big_count(d->fields[k]->val, 4096, 0))
				return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int round;
	char spec[4200], out[4200];
	snprintf(spec, sizeof spec, "%s/spec.cluster", fuzz_dir());
	snprintf(out, sizeof out, "%s/out", fuzz_dir());
	fuzz_write(spec, data, size);
	DiagOptions dopt = {.format = round++ % 2 ? DIAG_JSON : DIAG_TEXT,
			    .error_limit = DEFAULT_ERROR_LIMIT};

	Ctx *front = ctx_new(dopt);
	front->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program fp = {.c = front, .dump = -1};
	int errors = pipeline_front(&fp, spec, NULL);
	fuzz_no_internal_error(front);
	int buildable = !errors && !fp.usage_error && size <= 16384 && small_design(&fp);
	diag_render(front, fuzz_sink());
	ctx_free(front);
	if (!buildable)
		return 0;

	Ctx *c = ctx_new(dopt);
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program p = {.c = c, .dump = -1};
	Design d = {.time_limit = 2};
	errors = pipeline_build(&p, &d, spec, NULL);
	fuzz_no_internal_error(c);
	if (p.internal_error) {
		fprintf(stderr, "internal error\n");
		abort();
	}
	if (!errors) {
		Output *o = output_open(c, out, true);
		if (!o) {
			fprintf(stderr, "output_open failed\n");
			abort();
		}
		int werr = 0;
		for (int i = 0; emit_table[i].name; i++)
			werr += emit_table[i].write(o, &d);
		fuzz_no_internal_error(c);
		if (werr) {
			output_abort(o);
		} else {
			if (output_commit(o)) {
				fuzz_no_internal_error(c);
				fprintf(stderr, "output_commit failed\n");
				abort();
			}
			fuzz_check_output(out, 1);
		}
	}
	diag_render(c, fuzz_sink());
	ctx_free(c);
	return 0;
}
