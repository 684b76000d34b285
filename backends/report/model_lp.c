/*
 * model_lp.c — model.lp: the optimizer's model in CPLEX LP format (rows and columns named after
 * the spec: rack48_cooling_air, require_line_57), so that `glpsol --lp model.lp` or any MILP
 * solver solves the same problem. GLPK writes it (passes/lp.c); it holds the first objective.
 * Not written when no choice was left open.
 */
#define _GNU_SOURCE /* memfd_create */
#include "backends.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* GLPK writes only to a named file: a memory file's name, so nothing touches the disk twice and
 * no temporary directory need be writable; then its bytes into the Output. */
int model_lp_write(Output *o, const Design *d)
{
	if (!d->lp)
		return 0;
	int fd = memfd_create("model.lp", 0);
	if (fd < 0) {
		diag_set_code(diag_error(d->c, NOLOC, "cannot write model.lp: no memory file"), "io");
		return 1;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int errors = 0;
	FILE *in = NULL;
	if (!lp_write(d->lp, path)) {
		diag_set_code(diag_error(d->c, NOLOC, "GLPK could not write model.lp"), "io");
		errors = 1;
	} else if (lseek(fd, 0, SEEK_SET) != 0 || !(in = fdopen(fd, "r"))) {
		diag_set_code(diag_error(d->c, NOLOC, "cannot read model.lp back"), "io");
		errors = 1;
	} else {
		FILE *out = output_file(o, "model.lp");
		if (!out)
			return fclose(in), 1;
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, n, out);
		errors += output_close(o, out);
	}
	if (in)
		fclose(in); /* and fd with it */
	else
		close(fd);
	return errors;
}
