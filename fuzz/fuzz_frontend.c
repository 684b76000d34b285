/*
 * fuzz_frontend.c — the front end under a coverage-guided fuzzer (libFuzzer; `make fuzz`).
 *
 * Each input is compiled as a spec through every front-end pass and its diagnostics are
 * rendered in both forms; a spec that parses is also formatted, and the formatter must be
 * idempotent (fmt of fmt's output is the same) and must give a file that parses again. Any
 * crash, sanitizer report, leak or broken property is a finding. The input goes through a
 * file (fuzz.cluster in a private directory: a clusterc source, so diagnostics quote its
 * lines) and src_load, as any file would (binary and bad UTF-8 are rejected there). Imports of
 * the standard library resolve against the source tree.
 */
#include "passes.h"

#include "fuzz.h"

static void check_fmt_idempotent(const File *f)
{
	size_t n1, n2;
	char *once = fmt_file(f, &n1);
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	File *again = parse_file(c, src_from_text(c, "fmt", once, n1));
	if (!again->parsed_ok) {
		fprintf(stderr, "fmt output does not parse:\n%s\n", once);
		abort();
	}
	char *twice = fmt_file(again, &n2);
	if (n1 != n2 || memcmp(once, twice, n1) != 0) {
		fprintf(stderr, "fmt is not idempotent:\n--- once\n%s\n--- twice\n%s\n", once, twice);
		abort();
	}
	free(once);
	free(twice);
	ctx_free(c);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int round;
	DiagOptions dopt = {.format = round++ % 2 ? DIAG_JSON : DIAG_TEXT,
			    .error_limit = DEFAULT_ERROR_LIMIT};
	Ctx *c = ctx_new(dopt);
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	char path[4200];
	snprintf(path, sizeof path, "%s/fuzz.cluster", fuzz_dir());
	fuzz_write(path, data, size);
	Program p = {.c = c};
	pipeline_front(&p, path, NULL);
	fuzz_no_internal_error(c);
	if (p.root && p.root->parsed_ok)
		check_fmt_idempotent(p.root);
	diag_render(c, fuzz_sink());
	ctx_free(c);
	return 0;
}
