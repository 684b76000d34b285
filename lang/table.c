/*
 * table.c — a map from interned names to pointers: open addressing keyed by the interned
 * pointer itself (equal names are one pointer), grown by doubling in the compilation's arena.
 */
#include "base.h"

#include <stdint.h>

static unsigned slot_of(const char *key, int cap)
{
	uintptr_t h = (uintptr_t)key;
	h ^= h >> 17;
	h *= 0x9E3779B97F4A7C15ull;
	return (unsigned)(h >> 7) & (unsigned)(cap - 1);
}

void *table_get(const NameTable *t, const char *key)
{
	if (!t->cap)
		return NULL;
	for (unsigned i = slot_of(key, t->cap);; i = (i + 1) & (unsigned)(t->cap - 1)) {
		if (!t->keys[i])
			return NULL;
		if (t->keys[i] == key)
			return t->vals[i];
	}
}

void table_put(Ctx *c, NameTable *t, const char *key, void *val)
{
	if ((t->n + 1) * 2 > t->cap) {
		NameTable bigger = {0};
		bigger.cap = t->cap ? t->cap * 2 : 64;
		bigger.keys = arena_alloc(c->arena, sizeof(char *) * (size_t)bigger.cap);
		bigger.vals = arena_alloc(c->arena, sizeof(void *) * (size_t)bigger.cap);
		for (int i = 0; i < t->cap; i++)
			if (t->keys[i])
				table_put(c, &bigger, t->keys[i], t->vals[i]);
		*t = bigger;
	}
	unsigned i = slot_of(key, t->cap);
	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & (unsigned)(t->cap - 1);
	if (!t->keys[i])
		t->n++;
	t->keys[i] = key;
	t->vals[i] = val;
}

