/*
 * share.c — results shared between the processes of one `clusterc compare` (docs/performance.md,
 * issue 23). The rows of a comparison, a sweep's points, are built in processes of their own
 * (driver/cmd_compare.c), and most points repeat work an earlier point did on the same inputs
 * (the planner's search of the same workload on the same hardware, the arrangement of the same
 * racks on the same floor). share_begin, called once before the processes start, maps a table
 * and a heap into memory they all share; a pass then looks a result up by the bytes of every
 * input it reads (share_get) and stores what it computed (share_put). The caller's key must
 * hold every input of a pure function: then a result read here is the one it would compute,
 * and every output is byte-identical with or without sharing.
 *
 * The table is open addressing over entries that go empty -> being written -> ready (C11
 * atomics: a writer claims an empty entry, copies key and value into the heap, then publishes
 * it); keys compare whole, not by hash alone. A reader passes over entries being written, so
 * two processes may compute the same result at once and both store it: harmless. Once the
 * table is three quarters full or the heap is spent nothing more is stored. The memory is
 * MAP_NORESERVE: only what is written is backed.
 */
#include "share.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct Entry {
	_Atomic int state; /* 0 empty, 1 being written, 2 ready */
	uint64_t hash;
	size_t key, nkey;  /* offsets into the heap */
	size_t val, nval;
} Entry;

typedef struct Table {
	_Atomic int used;
	_Atomic size_t top; /* the heap's bytes handed out */
	int cap;
	size_t heap;
	Entry e[];          /* then the heap */
} Table;

static Table *table;

bool share_begin(int entries, size_t heap)
{
	if (table || entries <= 0)
		return table != NULL;
	size_t size = sizeof(Table) + sizeof(Entry) * (size_t)entries + heap;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (p == MAP_FAILED)
		return false;
	table = p; /* zero-filled: every entry empty */
	table->cap = entries;
	table->heap = heap;
	return true;
}

bool share_start(void)
{
	if (getenv("CLUSTERC_NO_SHARE"))
		return false;
	return share_begin(1 << 16, (size_t)1 << 30);
}

static unsigned char *heap_at(size_t off)
{
	return (unsigned char *)&table->e[table->cap] + off;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* The key as stored: the space's name and its NUL, then the key's bytes. */
static uint64_t key_hash(const char *space, const void *key, size_t nkey)
{
	return fnv1a(fnv1a(1469598103934665603ull, space, strlen(space) + 1), key, nkey);
}

static bool same_key(const Entry *e, const char *space, const void *key, size_t nkey)
{
	size_t ns = strlen(space) + 1;
	return e->nkey == ns + nkey && !memcmp(heap_at(e->key), space, ns) &&
	       !memcmp(heap_at(e->key) + ns, key, nkey);
}

const void *share_get(const char *space, const void *key, size_t nkey, size_t *n)
{
	if (!table)
		return NULL;
	uint64_t h = key_hash(space, key, nkey);
	int cap = table->cap;
	for (int probe = 0, i = (int)(h % (uint64_t)cap); probe < cap; probe++, i = (i + 1) % cap) {
		Entry *e = &table->e[i];
		int st = atomic_load_explicit(&e->state, memory_order_acquire);
		if (st == 0)
			return NULL;
		if (st == 2 && e->hash == h && same_key(e, space, key, nkey)) {
			*n = e->nval;
			return heap_at(e->val);
		}
	}
	return NULL;
}

void share_put(const char *space, const void *key, size_t nkey, const void *val, size_t nval)
{
	if (!table || 4 * ((size_t)atomic_load(&table->used) + 1) > 3 * (size_t)table->cap)
		return;
	size_t ns = strlen(space) + 1;
	/* The value starts on a 16-byte boundary of the heap, so that readers may take it as the
	 * array of ints or doubles it was (the heap itself starts 8-aligned after the entries). */
	size_t voff = (ns + nkey + 15) & ~(size_t)15;
	size_t need = (voff + nval + 15) & ~(size_t)15;
	size_t off = atomic_fetch_add(&table->top, need);
	if (off + need > table->heap)
		return;
	uint64_t h = key_hash(space, key, nkey);
	int cap = table->cap;
	for (int probe = 0, i = (int)(h % (uint64_t)cap); probe < cap; probe++, i = (i + 1) % cap) {
		Entry *e = &table->e[i];
		int empty = 0;
		if (atomic_compare_exchange_strong(&e->state, &empty, 1)) {
			atomic_fetch_add(&table->used, 1);
			unsigned char *at = heap_at(off);
			memcpy(at, space, ns);
			if (nkey)
				memcpy(at + ns, key, nkey);
			if (nval)
				memcpy(at + voff, val, nval);
			e->hash = h;
			e->key = off;
			e->nkey = ns + nkey;
			e->val = off + voff;
			e->nval = nval;
			atomic_store_explicit(&e->state, 2, memory_order_release);
			return;
		}
	}
}
