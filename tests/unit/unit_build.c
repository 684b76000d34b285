/*
 * unit_build.c — the build pipeline over a spec given as text, and temporary output
 * directories, for the unit tests.
 */
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

Built *unit_build(const char *text, const char *path, const char *scenario, bool exhaustive)
{
	static Built b;
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	/* $CLUSTERC_STDLIB as the driver reads it (scripts/fit-efficiency.sh runs the suites on
	 * an edited copy); else the source tree's. */
	const char *env = getenv("CLUSTERC_STDLIB");
	c->stdlib_dir = env && *env ? env : CLUSTERC_SOURCE_DIR "/stdlib";
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

char *unit_temp_dir(Arena *a, const char *what)
{
	char *tmpl = arena_printf(a, "/tmp/clusterc-%s-XXXXXX", what);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpl));
	return tmpl;
}

void unit_remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t n = strlen(path) + strlen(e->d_name) + 2;
		char *sub = xmalloc(n);
		snprintf(sub, n, "%s/%s", path, e->d_name);
		unit_remove_tree(sub);
		free(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

bool unit_sanitized(void)
{
	const char *v = getenv("CLUSTERC_SANITIZED");
	return v && strcmp(v, "1") == 0;
}

bool unit_error_says(const Built *b, const char *words)
{
	for (int i = 0; i < b->p.c->diags.n; i++) {
		const Diag *dg = b->p.c->diags.v[i];
		if (dg->level == DIAG_ERROR && strstr(dg->msg, words))
			return true;
	}
	return false;
}
