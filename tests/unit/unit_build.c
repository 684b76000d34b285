/*
 * unit_build.c — the build pipeline over a spec given as text, for the unit tests.
 */
#include "unit_build.h"

#include <string.h>

Built *unit_build(const char *text, const char *path, const char *scenario, bool exhaustive)
{
	static Built b;
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	b.p = (Program){.c = c, .dump = -1, .scenario = scenario};
	/* Text is compiled from memory, as standard input is: no file to write and remove. */
	if (!path)
		b.p.input = src_from_text(c, "unit.cluster", text, strlen(text));
	b.d = (Design){.exhaustive = exhaustive};
	b.errors = pipeline_build(&b.p, &b.d, path ? path : "unit.cluster", NULL);
	return &b;
}

void unit_build_done(Built *b)
{
	ctx_free(b->p.c);
}
