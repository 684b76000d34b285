/*
 * cmd_check.c — `clusterc check FILE...`: the front-end passes over each file, diagnostics
 * only. Each file is a compilation of its own (with its imports). The exit status is the worst
 * of the files: 74 when a file could not be read, 64 for a bad --scenario, 1 for errors.
 */
#include "driver.h"

#include <string.h>

static int check_one(const Options *o, const char *path)
{
	Ctx *c = ctx_new(o->dopt);
	c->stdlib_dir = o->stdlib;
	c->verbose = o->verbose;
	Program p = {.c = c, .scenario = o->scenario, .sets = o->sets, .nsets = o->nsets};
	int errors = pipeline_front(&p, path, NULL);
	int rc = EXIT_OK;
	if (p.io_error)
		rc = EXIT_IO;
	else if (p.usage_error)
		rc = EXIT_USAGE;
	else if (errors)
		rc = EXIT_SPEC;
	diag_render(c, stderr);
	if (rc == EXIT_OK && !o->quiet && o->dopt.format == DIAG_TEXT) {
		int own = 0;
		for (int i = 0; i < p.decls.n; i++)
			own += ((Decl *)p.decls.v[i])->loc.src == p.root->src;
		printf("%s: ok (%d declaration%s, %d scenario%s%s)\n", p.root->src->path, own,
		       own == 1 ? "" : "s", p.scenarios.n, p.scenarios.n == 1 ? "" : "s",
		       p.library ? ", a library" : "");
	}
	ctx_free(c);
	return rc;
}

/* The worst status wins: I/O over usage over spec errors. */
static int worse(int a, int b)
{
	static const int order[] = {EXIT_OK, EXIT_SPEC, EXIT_UNMET, EXIT_USAGE, EXIT_IO, EXIT_INTERNAL};
	int ra = 0, rb = 0;
	for (int i = 0; i < 6; i++) {
		if (order[i] == a)
			ra = i;
		if (order[i] == b)
			rb = i;
	}
	return ra >= rb ? a : b;
}

int cmd_check(const Options *o, const char **files, int nfiles)
{
	int rc = EXIT_OK;
	for (int i = 0; i < nfiles; i++)
		rc = worse(rc, check_one(o, files[i]));
	if (fflush(stdout) != 0)
		rc = worse(rc, EXIT_IO);
	return rc;
}
