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
	const char *output; /* build -o DIR */
	bool force;         /* replace a DIR clusterc did not write */
	bool timings;
	bool verify;        /* --verify: print what the fabric verifier proved */
	const char *dump;   /* --dump=PASS */
	const char *emit;   /* --emit LIST */
	double time_limit;  /* --time-limit SECONDS, 0 for none */
	bool exhaustive;    /* --search=exhaustive: every combination rather than the MILP */
	const char *scenarios;  /* compare --scenarios A,B,... */
	const char *sweep;      /* compare --sweep FILE.yaml */
	const char *objectives; /* compare --objectives A,B,... */
	int jobs;               /* compare --jobs N: builds at once, 0 for one per core */
} Options;

/* cmd_check.c */
int cmd_check(const Options *o, const char **files, int nfiles);

/* cmd_build.c */
int cmd_build(const Options *o, const char *file);

/* cmd_compare.c */
int cmd_compare(const Options *o, const char *file);

/* sweep.c: a sweep file's points (driver/sweep.c says the format) */
typedef struct SweepPoint {
	const char *name;      /* the row's name: given, or the grid's values */
	Loc loc, name_loc;     /* the point (or the grid), its name when given */
	const char *scenario;  /* the spec's scenario it starts from, or NULL for the base */
	Loc scenario_loc;
	CliOverride *sets;     /* its overrides, in the file's order */
	int nsets;
	const char *sets_text; /* "hall_b.electricity=0.35 CNY/kWh; rack48.cooling=air" */
} SweepPoint;

typedef struct Sweep {
	const char *path;
	const char *scenario;  /* the top-level scenario, or NULL */
	Loc scenario_loc;
	SweepPoint **points;
	int npoints;
	bool io_error;         /* the file could not be read */
} Sweep;

/* Reads and expands the sweep at path (diagnostics in c, at the file's lines; strings in c's
 * arena). Returns the number of errors. Override paths and values are checked by the caller,
 * against the spec, when it applies them. */
int sweep_load(Ctx *c, const char *path, Sweep *s);

/* cmd_fmt.c */
int cmd_fmt(const Options *o, const char **files, int nfiles);
int cmd_tokens(const Options *o, const char *file);

#endif
