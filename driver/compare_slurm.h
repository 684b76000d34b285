/*
 * compare_slurm.h — compare's rows as shards and a Slurm job array (compare_slurm.c).
 */
#ifndef CLUSTERC_COMPARE_SLURM_H
#define CLUSTERC_COMPARE_SLURM_H

#include "driver.h"

/* The builds' output of rows index[0..n) into the shard file at path (written whole, then
 * renamed into place). 0, or -1 with a message on standard error. */
int compare_slurm_shard_write(const char *path, const int *index, Buf *const *out, int n);
/* Every DIR/NAME.rows into out[0..n) by row index: -1 (said why) when a row is missing or twice. */
int compare_slurm_shard_read(const char *dir, Buf *out, int n);
/* DIR/compare.sbatch and DIR/merge.sbatch for nrows rows; *tasks: the array's tasks. */
int compare_slurm_write(const Options *o, const char *spec, int nrows, const char *dir, int *tasks);
/* Both scripts to sbatch, the merge after the array. */
int compare_slurm_submit(const char *dir, bool quiet);

#endif
