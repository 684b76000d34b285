/*
 * share.h — results shared between the processes of one `clusterc compare` (share.c).
 */
#ifndef CLUSTERC_SHARE_H
#define CLUSTERC_SHARE_H

#include <stdbool.h>
#include <stddef.h>

/* Maps a table of up to `entries` results and `heap` bytes of keys and values into memory that
 * the processes forked after it share. False when it cannot (then nothing is shared). */
bool share_begin(int entries, size_t heap);

/* share_begin at the size its callers use (a `clusterc compare`'s rows; a build's rounds of
 * decisions, passes/opt/decide.c): 65,536 results in a heap of 1 GiB, mapped without reserve and
 * backed only as written (a planner result is about 3 kB, an arrangement some kB to MB). Nothing
 * is shared when the environment sets CLUSTERC_NO_SHARE (tests compare the outputs without). */
bool share_start(void);

/* The value stored under the key's bytes (in `space`, a name of what is stored: keys of two
 * spaces never match): a pointer into the shared memory, its size in *n; NULL when none is. */
const void *share_get(const char *space, const void *key, size_t nkey, size_t *n);

/* Stores the value under the key (nothing when there is no table or it is full). */
void share_put(const char *space, const void *key, size_t nkey, const void *val, size_t nval);

#endif
