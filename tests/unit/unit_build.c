/*
 * unit_build.c — the build pipeline over a spec given as text, for the unit tests.
 */
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Built *unit_build(const char *text, const char *path, bool exhaustive)
{
	static Built b;
	char tmp[] = "/tmp/clusterc-unit-XXXXXX";
	if (!path) {
		int fd = mkstemp(tmp);
		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
		close(fd);
		path = tmp;
	}
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	b.p = (Program){.c = c, .dump = -1};
	b.d = (Design){.exhaustive = exhaustive};
	b.errors = pipeline_build(&b.p, &b.d, path, NULL);
	if (path == tmp)
		unlink(tmp);
	return &b;
}

void unit_build_done(Built *b)
{
	ctx_free(b->p.c);
}
