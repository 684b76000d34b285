/*
 * intern.c — interned identifiers. Equal names give the same pointer, so later passes compare
 * names with == and use them as keys without hashing them again.
 *
 * Method: open addressing with linear probing over a power-of-two table of (pointer, hash,
 * length) slots, grown by doubling at 3/4 load. The hash is 64-bit FNV-1a followed by the
 * MurmurHash3 finaliser: FNV alone leaves the low bits of generated names such as "gpu0001",
 * "gpu0002" correlated, and linear probing needs them spread. A lookup touches one or two cache
 * lines and compares bytes only on a full hash match, which keeps millions of names cheap.
 *
 * The strings live in the compilation's arena; the table itself is on the heap because it is
 * rebuilt as it grows (old tables would otherwise pile up in the arena). ctx.c creates and frees
 * the interner with interner_new() and interner_free(), which only it uses.
 */
#include "lang.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct Slot {
	const char *s; /* NULL when empty */
	uint32_t hash; /* low 32 bits of the full hash: a cheap first comparison */
	uint32_t len;
} Slot;

struct Interner {
	Slot *slots;
	size_t cap; /* a power of two */
	size_t count;
};

struct Interner *interner_new(void);
void interner_free(struct Interner *in);
void interner_copy(struct Interner *to, const struct Interner *from);
size_t interner_count(const struct Interner *in);

enum { INITIAL_SLOTS = 1024 };

/* calloc, not malloc and memset: a big table then comes as fresh zero pages for free. */
static Slot *zeroed_slots(size_t n)
{
	Slot *s = calloc(n, sizeof *s);
	if (!s)
		die_oom();
	return s;
}

struct Interner *interner_new(void)
{
	struct Interner *in = xmalloc(sizeof *in);
	in->cap = INITIAL_SLOTS;
	in->count = 0;
	in->slots = zeroed_slots(in->cap);
	return in;
}

void interner_free(struct Interner *in)
{
	if (!in)
		return;
	free(in->slots);
	free(in);
}

/* `to` made what `from` is, slot for slot (ctx_mark, ctx_rewind); to from interner_new. */
void interner_copy(struct Interner *to, const struct Interner *from)
{
	if (to->cap != from->cap) {
		free(to->slots);
		to->slots = zeroed_slots(from->cap);
		to->cap = from->cap;
	}
	memcpy(to->slots, from->slots, sizeof *to->slots * from->cap);
	to->count = from->count;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3u;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 33;
	return h;
}

static void grow(struct Interner *in)
{
	size_t cap = in->cap * 2;
	Slot *slots = zeroed_slots(cap);
	for (size_t i = 0; i < in->cap; i++) {
		Slot *old = &in->slots[i];
		if (!old->s)
			continue;
		/* Rehashing needs the full hash's low bits, which the stored 32 bits are. */
		size_t j = old->hash & (cap - 1);
		while (slots[j].s)
			j = (j + 1) & (cap - 1);
		slots[j] = *old;
	}
	free(in->slots);
	in->slots = slots;
	in->cap = cap;
}

/* The returned string is NUL-terminated and lives as long as c's arena. */
const char *intern(Ctx *c, const char *s, size_t n)
{
	struct Interner *in = c->interner;
	/* No name can be this long: sources are limited to MAX_FILE_BYTES. */
	assert(n < UINT32_MAX);
	uint32_t h = (uint32_t)hash_bytes(s, n);
	size_t mask = in->cap - 1;
	size_t i = h & mask;
	for (; in->slots[i].s; i = (i + 1) & mask) {
		const Slot *sl = &in->slots[i];
		if (sl->hash == h && sl->len == n && memcmp(sl->s, s, n) == 0)
			return sl->s;
	}
	char *copy = arena_alloc(c->arena, n + 1);
	memcpy(copy, s, n);
	in->slots[i] = (Slot){copy, h, (uint32_t)n};
	if (++in->count > in->cap / 4 * 3)
		grow(in);
	return copy;
}

const char *intern_cstr(Ctx *c, const char *s)
{
	return intern(c, s, strlen(s));
}

size_t interner_count(const struct Interner *in)
{
	return in->count;
}
