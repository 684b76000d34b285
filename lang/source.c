/*
 * source.c — sources and locations. A Source is the text of one spec file (or of a --set
 * value); src_load.c reads and checks files into Sources, so that every later stage may assume
 * well-formed UTF-8 text without NUL bytes, no longer than MAX_FILE_BYTES. Locations are byte
 * spans; line and column are computed only when a diagnostic needs them, by binary search over
 * the line starts.
 *
 * Choices:
 * - A leading UTF-8 byte order mark is dropped before anything else, so offset 0 is the first
 *   character people see and columns on line 1 are not shifted by an invisible character.
 *   Offsets therefore count from after the BOM; the NUL-byte message alone reports offsets in
 *   the file as stored, because it is about the file, not about the text.
 * - "\n" ends a line and "\r\n" ends it too (the "\r" belongs to the line ending, not to the
 *   text src_line() returns). A lone "\r" is ordinary text.
 * - Columns count code points, so a caret under Chinese text lands on the right character; a tab
 *   counts as one column.
 * - Every Source, loaded or made from text, is registered in c->sources; its id is its index.
 * - A directory is reported as an input/output error ("cannot read 'd': Is a directory"), like
 *   any other file the operating system cannot hand over as text; so is anything but a regular
 *   file (a FIFO, a device, a socket: reading one could block forever or never end), which is
 *   opened without blocking and refused. Standard input (`-`) may be a pipe or a terminal.
 * - Shown: diagnostics quote lines only of clusterc sources (Source.shown): standard input,
 *   text made in memory (--set values, sweep overrides) and files whose name, as given and
 *   after symbolic links, ends in ".cluster" (specs) or ".yaml" / ".yml" (sweeps). Any other
 *   file (a spec named otherwise, or x.cluster linking to /etc/shadow) still gets
 *   file:line:col, but none of its text is printed. Imports must name .cluster files (load.c).
 */
#include "lang.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

const Loc NOLOC = {NULL, 0, 0};

/* Computes the line starts of s->text into the arena. */
static void index_lines(Ctx *c, Source *s)
{
	int n = 1;
	const char *t = s->text, *end = s->text + s->len;
	for (const char *p = t; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		n++;
	s->lines = arena_alloc(c->arena, (size_t)n * sizeof *s->lines);
	s->lines[0] = 0;
	int i = 1;
	for (const char *p = t; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		s->lines[i++] = (uint32_t)(p - t + 1);
	s->nlines = n;
}

Source *src_register(Ctx *c, const char *path, char *text, size_t len)
{
	assert(len <= INT_MAX); /* callers keep to MAX_FILE_BYTES */
	Source *s = arena_alloc(c->arena, sizeof *s);
	s->path = path;
	s->text = text;
	s->len = (uint32_t)len;
	s->id = c->sources.n;
	index_lines(c, s);
	vec_push(c->arena, &c->sources, s);
	return s;
}

/* The Source and its copy of the text live in c's arena. Bytes are taken as they are (no UTF-8
 * check): --set values come from the command line and tests build odd text on purpose. */
Source *src_from_text(Ctx *c, const char *name, const char *text, size_t len)
{
	char *copy = arena_alloc(c->arena, len + 1);
	if (len)
		memcpy(copy, text, len);
	Source *s = src_register(c, arena_strdup(c->arena, name), copy, len);
	s->shown = true;
	return s;
}

/* The line holding byte `off`: the last line whose start is <= off. 0-based. */
static int line_index(const Source *s, uint32_t off)
{
	int lo = 0, hi = s->nlines - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Offsets past the end are clamped to the end. Columns count code points: one starts at every
 * byte that is not a UTF-8 continuation byte, and at the line's first byte whatever it is, which
 * gives a sane answer on invalid text too (diag.c counts the same way). */
void src_linecol(const Source *s, uint32_t off, int *line, int *col)
{
	if (off > s->len)
		off = s->len;
	int li = line_index(s, off);
	int cp = 0;
	for (uint32_t i = s->lines[li]; i < off; i++)
		cp += i == s->lines[li] || ((unsigned char)s->text[i] & 0xc0) != 0x80;
	*line = li + 1;
	*col = cp + 1;
}

/* Points into s->text (not NUL-terminated at the line's end); "" with *len 0 for a line number
 * out of range. */
const char *src_line(const Source *s, int line, int *len)
{
	if (line < 1 || line > s->nlines) {
		*len = 0;
		return "";
	}
	uint32_t start = s->lines[line - 1];
	uint32_t end = line < s->nlines ? s->lines[line] : s->len;
	if (end > start && s->text[end - 1] == '\n') {
		end--;
		if (end > start && s->text[end - 1] == '\r')
			end--;
	}
	*len = (int)(end - start);
	return s->text + start;
}

/* From a's start to b's end. A missing location yields the other; spans in different files, or
 * b ending before a starts, yield a. */
Loc loc_span(Loc a, Loc b)
{
	if (!a.src)
		return b;
	if (!b.src || a.src != b.src || b.end < a.off)
		return a;
	return (Loc){a.src, a.off, b.end};
}
