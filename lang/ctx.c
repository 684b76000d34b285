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
