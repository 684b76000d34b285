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
	long dump_max;      /* --dump-max=N: entries of each list the dump prints; 0 all */
	const char *emit;   /* --emit LIST */
	double time_limit;  /* --time-limit SECONDS, 0 for none */
	bool exhaustive;    /* --search=exhaustive: every combination rather than the MILP */
	const char *scenarios;  /* compare --scenarios A,B,... */
	const char *sweep;      /* compare --sweep FILE.yaml */
	const char *objectives; /* compare --objectives A,B,... */
	int jobs;               /* compare --jobs N: builds at once, 0 for one per core */
	const char *slurm;      /* compare --slurm DIR: write the Slurm job array there */
	bool submit;            /* compare --submit: and hand it to sbatch */
	int shard_i, shard_n;   /* compare --shard I/N: build rows I mod N into -o FILE */
	const char *merge;      /* compare --merge DIR: the rows from DIR's shards */
	const char **discovered; /* verify --discovered FILE (repeatable) */
	int ndiscovered;
	const char *fabric;     /* verify --fabric NAME: only that fabric's cables */
	const char *from;       /* build --from OLD_DIR: grow from that build (docs/daytwo.md) */
} Options;

/* main.c: standard output and error flushed and free of write errors (see main.c). */
bool driver_streams_ok(void);

/* cmd_check.c */
int cmd_check(const Options *o, const char **files, int nfiles);

/* cmd_build.c */
int cmd_build(const Options *o, const char *file);

/* lock_read.c: OLD_DIR/clusterc.lock as the Prior the passes keep; NULL after a diagnostic,
 * *rc the exit status (74 no such build, 1 a damaged lock). */
const Prior *lock_read(Ctx *c, const char *dir, int *rc);

/* cmd_compare.c */
int cmd_compare(const Options *o, const char *file);

/* cmd_verify.c: clusterc verify DIR --discovered FILE... */
int cmd_verify(const Options *o, const char *dir);

/* cmd_diff.c: clusterc diff OLD_DIR NEW_DIR */
int cmd_diff(const Options *o, const char *old_dir, const char *new_dir);

/* cmd_fmt.c */
int cmd_fmt(const Options *o, const char **files, int nfiles);
int cmd_tokens(const Options *o, const char *file);

#endif
