/*
 * model_lp.c — model.lp: the optimizer's model in CPLEX LP format (rows and columns named after
 * the spec: rack48_cooling_air, require_line_57), so that `glpsol --lp model.lp` or any MILP
 * solver solves the same problem. GLPK writes it (passes/lp.c); it holds the first objective.
 * Not written when no choice was left open.
 */
#include "backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int model_lp_write(Output *o, const Design *d)
{
	if (!d->lp)
		return 0;
	char path[] = "/tmp/clusterc-model-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		diag_set_code(diag_error(d->p->c, NOLOC, "cannot write model.lp: no temporary file"), "io");
		return 1;
	}
	close(fd);
	int errors = 0;
	if (!lp_write(d->lp, path)) {
		diag_set_code(diag_error(d->p->c, NOLOC, "GLPK could not write model.lp"), "io");
		errors = 1;
	} else {
		FILE *in = fopen(path, "r");
		FILE *out = output_file(o, "model.lp");
		if (!in || !out) {
			errors = 1;
		} else {
			char buf[65536];
			size_t n;
			while ((n = fread(buf, 1, sizeof buf, in)) > 0)
				fwrite(buf, 1, n, out);
			errors += output_close(o, out);
		}
		if (in)
			fclose(in);
	}
	unlink(path);
	return errors;
}
