/*
 * program.c — small services over a loaded program: the name tables (open addressing keyed by
 * interned pointers) and field lookup through inheritance.
 */
#include "passes.h"

#include <stdint.h>
#include <string.h>

static unsigned slot_of(const char *key, int cap)
{
	uintptr_t h = (uintptr_t)key;
	h ^= h >> 17;
	h *= 0x9E3779B97F4A7C15ull;
	return (unsigned)(h >> 7) & (unsigned)(cap - 1);
}

void *names_get(const NameTable *t, const char *key)
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

void names_put(Ctx *c, NameTable *t, const char *key, void *val)
{
	if ((t->n + 1) * 2 > t->cap) {
		NameTable bigger = {0};
		bigger.cap = t->cap ? t->cap * 2 : 64;
		bigger.keys = arena_alloc(c->arena, sizeof(char *) * (size_t)bigger.cap);
		bigger.vals = arena_alloc(c->arena, sizeof(void *) * (size_t)bigger.cap);
		for (int i = 0; i < t->cap; i++)
			if (t->keys[i])
				names_put(c, &bigger, t->keys[i], t->vals[i]);
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

/* Inheritance chains are short and acyclic once resolve_program has run (it cuts cycles). */
Field *decl_field(const Decl *d, const char *name)
{
	for (; d; d = d->parent)
		for (int i = d->nfields - 1; i >= 0; i--)
			if (strcmp(d->fields[i]->name, name) == 0)
				return d->fields[i];
	return NULL;
}

const Value *decl_value(const Decl *d, const char *name)
{
	Field *f = decl_field(d, name);
	return f ? f->val : NULL;
}

double decl_number(const Decl *d, const char *name, double def)
{
	const Value *v = decl_value(d, name);
	return v && v->kind == VAL_QTY ? v->q.v : def;
}

const char *kind_name(int kind)
{
	return kind >= 0 && kind < KIND_COUNT ? kind_schemas[kind].name : "declaration";
}
