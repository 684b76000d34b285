/*
 * verify_memo.h — the verifiers' memo across designs (verify_memo.c): the inputs of each clean
 * verification kept, so that a later design with the same inputs is not verified again.
 */
#ifndef CLUSTERC_VERIFY_MEMO_H
#define CLUSTERC_VERIFY_MEMO_H

#include "passes.h"

#include <stdint.h>
#include <string.h>

enum { VERIFY_MEMOS = 4, SINK_BLOCK = 2048 };

typedef struct VerifyKept {
	int32_t *key;
	size_t n;
} VerifyKept;

/* One verifier's kept keys: the newest VERIFY_MEMOS of its clean results. */
typedef struct VerifyMemo {
	VerifyKept kept[VERIFY_MEMOS];
	int next, hit;
} VerifyMemo;

/* Where a key goes as it is made, a block at a time: compared with a kept key (cand), so that a
 * hit reads the kept key once and writes nothing, or written whole (to keep it). A key
 * function may stop early once `differs` is set. */
typedef struct KeySink {
	const VerifyKept *cand; /* NULL: written */
	size_t pos;             /* words flushed */
	bool differs, bad;      /* bad: an input the key cannot hold (then nothing is kept) */
	int nb;
	int32_t block[SINK_BLOCK];
} KeySink;

typedef void (*VerifyKeyFn)(const Design *d, KeySink *s);

void verify_memo_flush(KeySink *s);

static inline void key_put(KeySink *s, int32_t x)
{
	s->block[s->nb++] = x;
	if (s->nb == SINK_BLOCK)
		verify_memo_flush(s);
}

/* Room for n more words in the block (n <= SINK_BLOCK), then key_raw for each without a check:
 * the big per-link and per-cable loops. */
static inline void key_room(KeySink *s, int n)
{
	if (s->nb + n > SINK_BLOCK)
		verify_memo_flush(s);
}

static inline void key_raw(KeySink *s, int32_t x)
{
	s->block[s->nb++] = x;
}

static inline void key_raw_double(KeySink *s, double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	s->block[s->nb++] = (int32_t)(uint32_t)u;
	s->block[s->nb++] = (int32_t)(uint32_t)(u >> 32);
}

static inline void key_put_ptr(KeySink *s, const void *p)
{
	uint64_t u = (uint64_t)(uintptr_t)p;
	key_put(s, (int32_t)(uint32_t)u);
	key_put(s, (int32_t)(uint32_t)(u >> 32));
}

static inline void key_put_double(KeySink *s, double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	key_put(s, (int32_t)(uint32_t)u);
	key_put(s, (int32_t)(uint32_t)(u >> 32));
}

/* On (a compare worker) and not printing what is proved: the memo may serve. */
bool verify_memo_on(const Design *d);
/* Whether a kept clean verification has d's key (as `fn` makes it). */
bool verify_memo_clean(VerifyMemo *m, const Design *d, VerifyKeyFn fn);
/* Keeps d's key as a clean verification's (the oldest kept goes). */
void verify_memo_keep_clean(VerifyMemo *m, const Design *d, VerifyKeyFn fn);

#endif
