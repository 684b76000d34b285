/*
 * csv_read.c — the CSV files clusterc writes (RFC 4180: fields separated by commas, quoted
 * with '"' when they hold a comma, quote or line end, '""' for a quote), read back with the
 * place of every field so that a damaged file is a diagnostic at its line and column. Used by
 * the day-two commands, which read a build directory (docs/daytwo.md).
 */
#include "daytwo.h"

#include <stdlib.h>
#include <string.h>

/* One field from *pos: its text in the arena, its start in *start; *pos past the field and
 * its separator, *end_of_row set when the field ended the row. False on an open quote. */
static bool next_field(Ctx *c, const Source *s, uint32_t *pos, const char **text, uint32_t *start,
		       bool *end_of_row)
{
	uint32_t p = *pos, n = s->len;
	const char *t = s->text;
	*start = p;
	if (p >= n || t[p] != '"') { /* the common case: no quotes, no copy through a Buf */
		while (p < n && t[p] != ',' && t[p] != '\n' && t[p] != '\r')
			p++;
		*text = arena_strndup(c->arena, t + *start, p - *start);
		*end_of_row = p >= n || t[p] != ',';
		if (p < n && t[p] == '\r')
			p++;
		*pos = p < n ? p + 1 : p;
		return true;
	}
	Buf b = {0};
	{
		p++;
		for (;;) {
			if (p >= n) {
				buf_free(&b);
				return false;
			}
			if (t[p] == '"') {
				if (p + 1 < n && t[p + 1] == '"') {
					buf_putc(&b, '"');
					p += 2;
					continue;
				}
				p++;
				break;
			}
			buf_putc(&b, t[p++]);
		}
	}
	while (p < n && t[p] != ',' && t[p] != '\n' && t[p] != '\r')
		buf_putc(&b, t[p++]);
	*end_of_row = p >= n || t[p] != ',';
	if (p < n && t[p] == '\r')
		p++;
	if (p < n)
		p++;
	*pos = p;
	*text = arena_strndup(c->arena, b.s ? b.s : "", b.len);
	buf_free(&b);
	return true;
}

/* Reads one row from *pos; returns its field count, -1 on an open quote (reported). */
static int read_row(Ctx *c, const Source *s, uint32_t *pos, PtrVec *fields, uint32_t **offs,
		    int *cap)
{
	int n = 0;
	fields->n = 0;
	for (bool last = false; !last;) {
		const char *text;
		uint32_t start;
		if (!next_field(c, s, pos, &text, &start, &last)) {
			diag_error(c, (Loc){s, start, start + 1}, "this quoted field is never closed");
			return -1;
		}
		vec_push(c->arena, fields, (void *)text);
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 32;
			*offs = xrealloc(*offs, sizeof **offs * (size_t)*cap);
		}
		(*offs)[n++] = start;
	}
	return n;
}

int csv_read(Ctx *c, const Source *s, CsvTable *t)
{
	*t = (CsvTable){.src = s};
	uint32_t pos = 0, *offs = NULL;
	int cap = 0, errors = 0, line = 1, rcap = 0;
	PtrVec fields = {0};
	int n = read_row(c, s, &pos, &fields, &offs, &cap);
	if (n < 0 || s->len == 0) {
		if (n >= 0)
			diag_error(c, (Loc){s, 0, 0}, "this file is empty: it should start with a header");
		free(offs);
		return 1;
	}
	t->ncols = n;
	t->cols = arena_alloc(c->arena, sizeof(char *) * (size_t)n);
	memcpy(t->cols, fields.v, sizeof(char *) * (size_t)n);
	while (pos < s->len && !diag_limit_reached(c)) {
		line++;
		uint32_t row_start = pos;
		if (s->text[pos] == '\n' || s->text[pos] == '\r') { /* a blank line */
			pos++;
			continue;
		}
		n = read_row(c, s, &pos, &fields, &offs, &cap);
		if (n < 0) {
			errors++;
			break;
		}
		if (n != t->ncols) {
			Diag *dg = diag_error(c, (Loc){s, row_start, pos > row_start ? pos - 1 : pos},
					      "this row has %d fields, the header %d", n, t->ncols);
			diag_set_code(dg, "csv-fields");
			errors++;
			continue;
		}
		if (t->nrows == rcap) {
			rcap = rcap ? 2 * rcap : 256;
			CsvRow *v = arena_alloc(c->arena, sizeof *v * (size_t)rcap);
			if (t->nrows)
				memcpy(v, t->rows, sizeof *v * (size_t)t->nrows);
			t->rows = v;
		}
		CsvRow *r = &t->rows[t->nrows++];
		r->line = line;
		r->field = arena_alloc(c->arena, sizeof(char *) * (size_t)n);
		memcpy(r->field, fields.v, sizeof(char *) * (size_t)n);
		r->off = arena_alloc(c->arena, sizeof(uint32_t) * (size_t)n);
		memcpy(r->off, offs, sizeof(uint32_t) * (size_t)n);
	}
	free(offs);
	return errors;
}

int csv_col(const CsvTable *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return -1;
}

Loc csv_loc(const CsvTable *t, int row, int col)
{
	uint32_t off = t->rows[row].off[col];
	return (Loc){t->src, off, off + (uint32_t)strlen(t->rows[row].field[col])};
}

CsvTable *csv_load(Ctx *c, const char *dir, const char *name, bool *io)
{
	const char *path = arena_printf(c->arena, "%s/%s", dir, name);
	bool io_error = false;
	Source *s = src_load(c, path, NOLOC, &io_error);
	if (!s) {
		*io |= io_error;
		return NULL;
	}
	CsvTable *t = arena_alloc(c->arena, sizeof *t);
	return csv_read(c, s, t) ? NULL : t;
}
