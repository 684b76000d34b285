/*
 * driver.h — the commands of the command line, one file each, and the options they share.
 */
#ifndef CLUSTERC_DRIVER_H
#define CLUSTERC_DRIVER_H

#include "passes.h"

typedef struct Options {
	const char *command;
	DiagOptions dopt;
	int error_limit;
	bool quiet, verbose;
	bool fmt_check;
	const char *stdlib;
	const char *scenario;
	const CliOverride *sets;
	int nsets;
} Options;

/* cmd_check.c */
int cmd_check(const Options *o, const char **files, int nfiles);

/* cmd_fmt.c */
int cmd_fmt(const Options *o, const char **files, int nfiles);
int cmd_tokens(const Options *o, const char *file);

#endif
