/*
 * verify_memo.c — the verifiers' memo across designs (a compare worker; docs/performance.md,
 * issue 23). The points of a sweep mostly wire and cable the same fabrics. A worker of
 * `clusterc compare` (verify_memo_keep) remembers the inputs of each verification that found
 * nothing, and a later design whose inputs are the same, word for word, is not verified again:
 * a verifier is a pure function of what its key holds (each key function says what that is,
 * verify.c and verify_media.c), so it would find nothing again. Only clean results are kept,
 * so a hit has nothing to report and writes nothing: a clean verification allocates nothing in
 * the arena and writes nothing but its own scratch. With --verify, which prints what was
 * proved, the memo does not serve. Keys compare whole; a key is made a block at a time and
 * compared as it is made, so a hit writes nothing and reads the kept key once.
 */
#include "verify_memo.h"

#include <stdlib.h>
#include <string.h>

static bool memo_on;
static long hits;
static int32_t *scratch;
static size_t scratch_n, scratch_cap;

void verify_memo_keep(bool on)
{
	memo_on = on;
}

long verify_memo_hits(void)
{
	return hits;
}

bool verify_memo_on(const Design *d)
{
	return memo_on && !d->verify;
}

void verify_memo_flush(KeySink *s)
{
	size_t nb = (size_t)s->nb;
	if (s->cand) {
		if (!s->differs && (s->pos + nb > s->cand->n ||
				    memcmp(s->cand->key + s->pos, s->block, sizeof *s->block * nb)))
			s->differs = true;
	} else {
		if (scratch_n + nb > scratch_cap) {
			scratch_cap = 2 * (scratch_n + nb);
			scratch = xrealloc(scratch, sizeof *scratch * scratch_cap);
		}
		memcpy(scratch + scratch_n, s->block, sizeof *s->block * nb);
		scratch_n += nb;
	}
	s->pos += nb;
	s->nb = 0;
}

bool verify_memo_clean(VerifyMemo *m, const Design *d, VerifyKeyFn fn)
{
	KeySink *s = xmalloc(sizeof *s);
	bool hit = false;
	for (int t = 0; t < VERIFY_MEMOS && !hit; t++) {
		int k = (m->hit + t) % VERIFY_MEMOS; /* the last one that served first */
		if (!m->kept[k].key)
			continue;
		s->cand = &m->kept[k]; /* the block is not zeroed: only what is put is read */
		s->pos = 0, s->nb = 0, s->differs = s->bad = false;
		fn(d, s);
		verify_memo_flush(s);
		if (!s->differs && !s->bad && s->pos == m->kept[k].n) {
			m->hit = k;
			hit = true;
			hits++;
		}
	}
	free(s);
	return hit;
}

void verify_memo_keep_clean(VerifyMemo *m, const Design *d, VerifyKeyFn fn)
{
	KeySink *s = xmalloc(sizeof *s);
	s->cand = NULL;
	s->pos = 0, s->nb = 0, s->differs = s->bad = false;
	scratch_n = 0;
	fn(d, s);
	verify_memo_flush(s);
	if (!s->bad) {
		VerifyKept *k = &m->kept[m->next];
		m->next = (m->next + 1) % VERIFY_MEMOS;
		free(k->key);
		k->key = xmalloc(sizeof *scratch * (scratch_n + 1));
		memcpy(k->key, scratch, sizeof *scratch * scratch_n);
		k->n = scratch_n;
	}
	free(s);
}
