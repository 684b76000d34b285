/*
 * fuzz_set.c — `--set DECL.FIELD=VALUE` text under a coverage-guided fuzzer (libFuzzer; `make
 * fuzz FUZZ_TARGET=fuzz_set`): each line of the input (up to 8) is one --set, applied to the
 * flagship through the front end (as `clusterc check --set` does) and to the 3D torus through
 * the whole pipeline (a small build). The override text is parsed where it stands and its
 * diagnostics point into it, so they are rendered in both forms. Properties: no crash, leak or
 * sanitizer report, no "internal error" diagnostic.
 */
#include "driver.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 4096)
		return 0;
	static int round;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	CliOverride sets[8];
	int n = 0;
	for (char *line = text; line && n < 8;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		sets[n++] = (CliOverride){.text = line};
		line = nl ? nl + 1 : NULL;
	}
	DiagOptions dopt = {.format = round++ % 2 ? DIAG_JSON : DIAG_TEXT,
			    .error_limit = DEFAULT_ERROR_LIMIT};
	Ctx *c = ctx_new(dopt);
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program p = {.c = c, .sets = sets, .nsets = n, .dump = -1};
	pipeline_front(&p, CLUSTERC_SOURCE_DIR "/examples/wanka.cluster", NULL);
	fuzz_no_internal_error(c);
	diag_render(c, fuzz_sink());
	ctx_free(c);

	c = ctx_new(dopt);
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program q = {.c = c, .sets = sets, .nsets = n, .dump = -1};
	Design d = {.time_limit = 2};
	pipeline_build(&q, &d, CLUSTERC_SOURCE_DIR "/examples/torus-3d.cluster", NULL);
	fuzz_no_internal_error(c);
	if (q.internal_error)
		abort();
	diag_render(c, fuzz_sink());
	ctx_free(c);
	free(text);
	return 0;
}
