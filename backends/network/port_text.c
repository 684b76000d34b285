/*
 * port_text.c — a switch port's text (its name or its alias) kept per kind of switch and port
 * for the writers that ask it for every end of every link (backends.h, PortTextCache: wiring.csv's
 * aliases, the switches' files' port names).
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

PortTextKind *port_text_kind(PortTextCache *c, const SwitchInst *s)
{
	int i = 0;
	for (; i < PORT_TEXT_KINDS && c->kinds[i].model; i++)
		if (c->kinds[i].model == s->model && c->kinds[i].breakout == s->breakout &&
		    c->kinds[i].split == s->split && c->kinds[i].up == s->up_breakout)
			return &c->kinds[i];
	PortTextKind *k = &c->kinds[i < PORT_TEXT_KINDS ? i : PORT_TEXT_KINDS - 1];
	free(k->cell);
	*k = (PortTextKind){s->model, s->breakout, s->split, s->up_breakout, 0, NULL};
	return k;
}

const char *port_text_make(PortTextCache *c, PortTextKind *k, const SwitchInst *s, int port,
			   size_t *len, unsigned *plain)
{
	if (port >= 0 && port >= k->cap) {
		int cap = k->cap ? k->cap : 64;
		while (cap <= port)
			cap *= 2;
		k->cell = xrealloc(k->cell, sizeof *k->cell * (size_t)cap);
		memset(k->cell + k->cap, 0, sizeof *k->cell * (size_t)(cap - k->cap));
		k->cap = cap;
	}
	char *cell = port >= 0 ? k->cell[port] : NULL;
	c->tmp.len = 0;
	c->make(&c->tmp, s, port);
	const char *text = c->tmp.len ? c->tmp.s : "";
	size_t n;
	*plain = text_plain(text, &n);
	*len = c->tmp.len;
	if (cell && *len > 0 && *len <= PORT_TEXT_CELL - 3) {
		memcpy(cell, text, *len + 1);
		cell[PORT_TEXT_CELL - 2] = (char)*plain;
		cell[PORT_TEXT_CELL - 1] = (char)*len;
	}
	return text;
}

void port_text_free(PortTextCache *c)
{
	for (int i = 0; i < PORT_TEXT_KINDS; i++)
		free(c->kinds[i].cell);
	buf_free(&c->tmp);
}
