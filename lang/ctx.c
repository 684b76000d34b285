/*
 * ctx.c — one compilation. A Ctx owns the arena that holds everything the front end builds, the
 * interner, the sources loaded and the diagnostics collected; ctx_free() releases it all at once.
 */
#include "lang.h"

#include <stdlib.h>
#include <string.h>

/* Defined in intern.c; only the Ctx creates and frees an interner, so lang.h leaves them out. */
struct Interner *interner_new(void);
void interner_free(struct Interner *in);
void interner_copy(struct Interner *to, const struct Interner *from);
size_t interner_count(const struct Interner *in);

/* The caller owns the Ctx and releases it with ctx_free(). */
Ctx *ctx_new(DiagOptions dopt)
{
	Ctx *c = xmalloc(sizeof *c);
	memset(c, 0, sizeof *c);
	c->arena = arena_new();
	c->interner = interner_new();
	c->dopt = dopt;
	c->stdlib_dir = NULL;
	schema_init();
	return c;
}

void ctx_free(Ctx *c)
{
	if (!c)
		return;
	interner_free(c->interner);
	arena_free(c->arena);
	free(c);
}

/* A compilation as it stood (ctx_mark): its arena's bytes, its interner's table, and the Ctx's
 * own fields (the diagnostics and sources so far, which live in the arena). */
struct CtxMark {
	Ctx c;
	ArenaMark *arena;
	struct Interner *interner;
};

CtxMark *ctx_mark(const Ctx *c)
{
	CtxMark *m = xmalloc(sizeof *m);
	m->c = *c;
	m->arena = arena_mark(c->arena);
	m->interner = interner_new();
	interner_copy(m->interner, c->interner);
	return m;
}

void ctx_rewind(Ctx *c, const CtxMark *m)
{
	INVARIANT(c->arena == m->c.arena && c->interner == m->c.interner,
		  "a compilation rewound to another's mark");
	arena_rewind(c->arena, m->arena);
	interner_copy(c->interner, m->interner);
	*c = m->c;
}

void ctx_mark_free(CtxMark *m)
{
	if (!m)
		return;
	arena_mark_free(m->arena);
	interner_free(m->interner);
	free(m);
}

size_t ctx_interned(const Ctx *c)
{
	return interner_count(c->interner);
}
