/*
 * diag.c — the one diagnostics module. Passes report mistakes in the spec here; nothing is
 * printed until diag_render(), so a run reports many errors, sorted by file and position, in
 * either form the command line asks for:
 *
 *   text (after clang):  path:12:11: error: MESSAGE
 *                           12 |   power = 10.2 kW + 400 Gbps
 *                              |           ^~~~~~~~~~~~~~~~~~
 *                        N errors generated.
 *   json: one document {"diagnostics": [...], "errors": N, "warnings": N, "limit_reached": b}
 *
 * The gutter is a space, the line number right-aligned in max(4, digits) columns, and " | ".
 *
 * Choices:
 * - Columns, carets and underlines count code points; a tab in the source is copied into the
 *   caret line so the caret stays under its character on any tab width. Other control
 *   characters are shown as spaces so a stray ESC or CR in a spec cannot garble the terminal;
 *   in messages, notes and paths (which quote names, strings and --set values) they are
 *   written as \xNN (\t, \n) or, for C1 controls, \uNNNN, in both forms (diag_printable).
 * - Source lines are quoted only from clusterc sources (Source.shown, source.c): a file that
 *   is not one gets its location and no excerpt, and JSON's "source_line" is null.
 *   A wide character (CJK, fullwidth forms, emoji: two terminal cells) gets two cells in the
 *   caret line, so a caret after Chinese text in a string or comment stays under its target.
 * - A line longer than SNIPPET_COLUMNS code points is shown as a window of that many columns
 *   starting SNIPPET_BEFORE columns before the caret, with "..." on each side that was cut.
 *   JSON's "source_line" is that same shown text, so its size stays bounded on a one-line file.
 * - JSON positions: "end_line"/"end_column" are where the span ends, exclusive; "offset" and
 *   "length" are bytes. A diagnostic without a location has those keys set to null; a note
 *   without one leaves them out.
 * - The error limit is reached when the count of errors gets to it: diag_limit_reached() says
 *   so from then on, so callers stop before reporting more. Errors past it are counted but not
 *   kept, warnings neither; the Diag then returned is a shared sink that ignores notes, ranges,
 *   codes and suggestions.
 * - Only eight notes and four ranges fit a Diag; further ones are dropped.
 * - Each diag_render() that prints anything ends with the running totals; the driver is
 *   expected to render once, after the last pass (JSON always prints its one document).
 */
#include "lang.h"
#include "json.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum {
	SNIPPET_COLUMNS = 200, /* wider than lines people write; bounds generated ones */
	SNIPPET_BEFORE = 60,   /* context kept left of the caret in a cut line */
};

#define SGR_RESET "\033[0m"
#define SGR_BOLD "\033[1m"
#define SGR_ERROR "\033[1;31m"
#define SGR_WARNING "\033[1;35m"
#define SGR_NOTE "\033[1;36m"
#define SGR_CARET "\033[1;32m"

/* A Diag with what diag_note() needs to allocate; Diag comes first so the two convert. */
typedef struct DiagBox {
	Diag d;
	Arena *arena; /* NULL for the sink */
} DiagBox;

static DiagBox sink; /* handed out for diagnostics dropped past the error limit */

static Diag *diag_add(Ctx *c, DiagLevel level, Loc loc, const char *fmt, va_list ap)
{
	DiagBox *box = arena_alloc(c->arena, sizeof *box);
	box->arena = c->arena;
	box->d.level = level;
	box->d.loc = loc;
	box->d.msg = arena_vprintf(c->arena, fmt, ap);
	vec_push(c->arena, &c->diags, box);
	return &box->d;
}

/* The returned Diag lives in c's arena (or is the sink); add notes to it right away. */
Diag *diag_error(Ctx *c, Loc loc, const char *fmt, ...)
{
	c->nerrors++;
	int limit = c->dopt.error_limit;
	if (limit > 0 && c->nerrors > limit)
		return &sink.d;
	if (limit > 0 && c->nerrors == limit)
		c->limit_hit = true;
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_add(c, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	return d;
}

Diag *diag_warning(Ctx *c, Loc loc, const char *fmt, ...)
{
	if (c->limit_hit)
		return &sink.d;
	c->nwarnings++;
	va_list ap;
	va_start(ap, fmt);
	Diag *d = diag_add(c, DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
	return d;
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
	DiagBox *box = (DiagBox *)d;
	if (!d || !box->arena || d->nnotes >= (int)(sizeof d->notes / sizeof d->notes[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	d->notes[d->nnotes].loc = loc;
	d->notes[d->nnotes].msg = arena_vprintf(box->arena, fmt, ap);
	d->nnotes++;
	va_end(ap);
}

void diag_range(Diag *d, Loc loc)
{
	DiagBox *box = (DiagBox *)d;
	if (!d || !box->arena || d->nranges >= (int)(sizeof d->ranges / sizeof d->ranges[0]))
		return;
	d->ranges[d->nranges++] = loc;
}

/* The code and suggestion are copied, so callers may pass any string. */
void diag_set_code(Diag *d, const char *code)
{
	DiagBox *box = (DiagBox *)d;
	if (d && box->arena)
		d->code = code ? arena_strdup(box->arena, code) : NULL;
}

void diag_set_quantity(Diag *d, double value, double limit, const char *unit)
{
	DiagBox *box = (DiagBox *)d;
	if (!d || !box->arena)
		return;
	d->has_quantity = true;
	d->value = value;
	d->limit = limit;
	d->unit = unit ? arena_strdup(box->arena, unit) : NULL;
}

void diag_set_suggestion(Diag *d, const char *name)
{
	DiagBox *box = (DiagBox *)d;
	if (d && box->arena)
		d->suggestion = name ? arena_strdup(box->arena, name) : NULL;
}

int diag_errors(const Ctx *c)
{
	return c->nerrors;
}

bool diag_limit_reached(const Ctx *c)
{
	return c->limit_hit;
}

/* ---- the shown line and its caret line ---- */

static bool is_cont(char b)
{
	return ((unsigned char)b & 0xc0) == 0x80;
}

/* Code points in t[0, n): one starts at every byte that is not a UTF-8 continuation byte, and at
 * t[0] whatever it is, which keeps invalid text (--set values) countable. */
static long count_cps(const char *t, size_t n)
{
	long k = 0;
	for (size_t i = 0; i < n; i++)
		k += i == 0 || !is_cont(t[i]);
	return k;
}

/* Terminal cells of the UTF-8 code point t[0, k): 2 for the East Asian Wide and Fullwidth
 * blocks (Unicode UAX #11, the ranges glibc's wcwidth gives 2 for, rounded to whole blocks),
 * else 1. Invalid bytes count 1. */
static int cp_cells(const char *t, int k)
{
	const unsigned char *u = (const unsigned char *)t;
	uint32_t c;
	if (k == 3 && (u[0] & 0xf0) == 0xe0)
		c = (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	else if (k == 4 && (u[0] & 0xf8) == 0xf0)
		c = (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3f) << 12 |
		    (uint32_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
	else
		return 1;
	static const uint32_t wide[][2] = {
		{0x1100, 0x115f},   {0x2e80, 0x303e},   {0x3041, 0x33ff},   {0x3400, 0x4dbf},
		{0x4e00, 0x9fff},   {0xa000, 0xa4cf},   {0xac00, 0xd7a3},   {0xf900, 0xfaff},
		{0xfe30, 0xfe4f},   {0xff00, 0xff60},   {0xffe0, 0xffe6},   {0x1f300, 0x1f64f},
		{0x1f900, 0x1f9ff}, {0x20000, 0x3fffd},
	};
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	return 1;
}

typedef struct Snippet {
	int line;      /* 1-based */
	Buf text;      /* the line as shown */
	Buf marks;     /* the caret line, trailing blanks trimmed */
} Snippet;

static uint32_t clamp_off(const Source *s, uint32_t off)
{
	return off > s->len ? s->len : off;
}

/* Builds the shown line of loc and its caret line; the caller frees both Bufs. */
static void snippet_make(Loc loc, const Loc *ranges, int nranges, Snippet *sn)
{
	const Source *s = loc.src;
	uint32_t off = clamp_off(s, loc.off);
	uint32_t end = loc.end < off ? off : clamp_off(s, loc.end);
	int col, llen;
	src_linecol(s, off, &sn->line, &col);
	const char *lt = src_line(s, sn->line, &llen);
	uint32_t lstart = (uint32_t)(lt - s->text), lend = lstart + (uint32_t)llen;

	long ncp = count_cps(lt, (size_t)llen);
	long caret = off <= lend ? count_cps(lt, off - lstart) : ncp;
	long span_end = end <= lend ? count_cps(lt, end - lstart) : ncp;
	long rs[4], re[4];
	int nr = 0;
	for (int i = 0; i < nranges && nr < 4; i++) {
		const Loc *r = &ranges[i];
		if (r->src != s || clamp_off(s, r->off) < lstart || clamp_off(s, r->off) > lend)
			continue;
		uint32_t roff = clamp_off(s, r->off), rend = clamp_off(s, r->end);
		rs[nr] = count_cps(lt, roff - lstart);
		re[nr] = rend <= lend && rend >= roff ? count_cps(lt, rend - lstart) : ncp;
		if (re[nr] <= rs[nr])
			re[nr] = rs[nr] + 1;
		nr++;
	}

	/* Positions run one past the line's end when the caret points at the line ending. */
	long npos = ncp > caret + 1 ? ncp : caret + 1;
	long ws = 0, we = npos;
	if (npos > SNIPPET_COLUMNS) {
		ws = caret > SNIPPET_BEFORE ? caret - SNIPPET_BEFORE : 0;
		we = ws + SNIPPET_COLUMNS;
		if (we > npos) {
			we = npos;
			ws = npos - SNIPPET_COLUMNS;
		}
	}
	if (ws > 0) {
		buf_puts(&sn->text, "...");
		buf_puts(&sn->marks, "   ");
	}
	int j = 0;
	for (long i = 0; i < we; i++) {
		int k = 0;
		if (j < llen)
			for (k = 1; j + k < llen && is_cont(lt[j + k]); k++)
				;
		if (i >= ws) {
			unsigned char b = k ? (unsigned char)lt[j] : ' ';
			bool tab = k && b == '\t';
			if (k && (b < 0x20 || b == 0x7f))
				buf_putc(&sn->text, tab ? '\t' : ' ');
			else if (k)
				buf_put(&sn->text, lt + j, (size_t)k);
			char m = tab ? '\t' : ' ';
			if (i == caret)
				m = '^';
			else if (i > caret && i < span_end)
				m = '~';
			for (int r = 0; r < nr && m != '~'; r++)
				if (i >= rs[r] && i < re[r] && i != caret)
					m = '~';
			buf_putc(&sn->marks, m);
			if (k > 1 && cp_cells(lt + j, k) == 2)
				buf_putc(&sn->marks, m == '^' ? '~' : m);
		}
		j += k;
	}
	if (we < ncp)
		buf_puts(&sn->text, "...");
	if (!sn->text.s)
		buf_put(&sn->text, "", 0);
	while (sn->marks.len && (sn->marks.s[sn->marks.len - 1] == ' ' ||
				 sn->marks.s[sn->marks.len - 1] == '\t'))
		sn->marks.s[--sn->marks.len] = '\0';
}

/* ---- control characters ---- */

/* The length of the control character at s (C0, DEL, or a C1 control's two UTF-8 bytes), 0
 * when s does not start with one. */
static int control_len(const unsigned char *s)
{
	if (s[0] < 0x20 || s[0] == 0x7f)
		return 1;
	return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f ? 2 : 0;
}

/* Appends s with its control characters escaped. */
static void put_printable(Buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p;) {
		int k = control_len(p);
		if (k == 0) {
			buf_putc(b, (char)*p++);
		} else if (k == 2) {
			buf_printf(b, "\\u%04x", p[1]);
			p += 2;
		} else {
			if (*p == '\t')
				buf_puts(b, "\\t");
			else if (*p == '\n')
				buf_puts(b, "\\n");
			else
				buf_printf(b, "\\x%02x", *p);
			p++;
		}
	}
}

static bool has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (control_len(p))
			return true;
	return false;
}

const char *diag_printable(Ctx *c, const char *s)
{
	if (!has_control(s))
		return s;
	Buf b = {0};
	put_printable(&b, s);
	char *copy = arena_strdup(c->arena, b.s);
	buf_free(&b);
	return copy;
}

/* ---- text ---- */

static void put_sgr(Buf *b, bool color, const char *sgr)
{
	if (color)
		buf_puts(b, sgr);
}

static void render_header(Buf *b, bool color, DiagLevel level, Loc loc, const char *msg)
{
	static const char *const words[] = {"error:", "warning:", "note:"};
	static const char *const sgrs[] = {SGR_ERROR, SGR_WARNING, SGR_NOTE};
	if (loc.src) {
		int line, col;
		src_linecol(loc.src, loc.off, &line, &col);
		put_sgr(b, color, SGR_BOLD);
		put_printable(b, loc.src->path);
		buf_printf(b, ":%d:%d:", line, col);
		put_sgr(b, color, SGR_RESET);
		buf_putc(b, ' ');
	} else if (level != DIAG_NOTE) {
		put_sgr(b, color, SGR_BOLD);
		buf_puts(b, "clusterc:");
		put_sgr(b, color, SGR_RESET);
		buf_putc(b, ' ');
	}
	put_sgr(b, color, sgrs[level]);
	buf_puts(b, words[level]);
	put_sgr(b, color, SGR_RESET);
	buf_putc(b, ' ');
	put_printable(b, msg);
	buf_putc(b, '\n');
}

static void render_snippet(Buf *b, bool color, Loc loc, const Loc *ranges, int nranges)
{
	Snippet sn = {0};
	snippet_make(loc, ranges, nranges, &sn);
	int width = snprintf(NULL, 0, "%d", sn.line);
	if (width < 4)
		width = 4;
	buf_printf(b, " %*d | %s\n", width, sn.line, sn.text.s);
	buf_printf(b, " %*s | ", width, "");
	put_sgr(b, color, SGR_CARET);
	buf_put(b, sn.marks.s ? sn.marks.s : "", sn.marks.len);
	put_sgr(b, color, SGR_RESET);
	buf_putc(b, '\n');
	buf_free(&sn.text);
	buf_free(&sn.marks);
}

static void render_text(const Diag *d, Buf *b, bool color)
{
	render_header(b, color, d->level, d->loc, d->msg);
	if (d->loc.src && d->loc.src->shown)
		render_snippet(b, color, d->loc, d->ranges, d->nranges);
	for (int i = 0; i < d->nnotes; i++) {
		render_header(b, color, DIAG_NOTE, d->notes[i].loc, d->notes[i].msg);
		if (d->notes[i].loc.src && d->notes[i].loc.src->shown)
			render_snippet(b, color, d->notes[i].loc, NULL, 0);
	}
}

static void render_summary(Buf *b, int nwarnings, int nerrors)
{
	if (nwarnings)
		buf_printf(b, "%d warning%s", nwarnings, nwarnings == 1 ? "" : "s");
	if (nwarnings && nerrors)
		buf_puts(b, " and ");
	if (nerrors)
		buf_printf(b, "%d error%s", nerrors, nerrors == 1 ? "" : "s");
	if (nwarnings || nerrors)
		buf_puts(b, " generated.\n");
}

/* ---- json ---- */

/* A message or path as JSON, its control characters escaped as in the text form. */
static Json *jprintable(const char *s)
{
	if (!has_control(s))
		return jw_str(s);
	Buf b = {0};
	put_printable(&b, s);
	Json *j = jw_strn(b.s, b.len);
	buf_free(&b);
	return j;
}

/* Adds file, line, column, end_line, end_column and, when `bytes`, offset and length. */
static void json_span(Json *o, Loc loc, bool bytes)
{
	if (!loc.src) {
		const char *keys[] = {"file", "line", "column", "end_line", "end_column", "offset",
				      "length"};
		for (int i = 0; i < (bytes ? 7 : 5); i++)
			jw_set(o, keys[i], jw_null());
		return;
	}
	uint32_t off = clamp_off(loc.src, loc.off);
	uint32_t end = loc.end < off ? off : clamp_off(loc.src, loc.end);
	int line, col, eline, ecol;
	src_linecol(loc.src, off, &line, &col);
	src_linecol(loc.src, end, &eline, &ecol);
	jw_set(o, "file", jprintable(loc.src->path));
	jw_set(o, "line", jw_int(line));
	jw_set(o, "column", jw_int(col));
	jw_set(o, "end_line", jw_int(eline));
	jw_set(o, "end_column", jw_int(ecol));
	if (bytes) {
		jw_set(o, "offset", jw_int(off));
		jw_set(o, "length", jw_int(end - off));
	}
}

static Json *json_diag(const Diag *d)
{
	static const char *const severities[] = {"error", "warning", "note"};
	Json *o = jw_object();
	jw_set(o, "severity", jw_str(severities[d->level]));
	jw_set(o, "code", jw_str(d->code));
	jw_set(o, "message", jprintable(d->msg));
	json_span(o, d->loc, true);
	if (d->loc.src && d->loc.src->shown) {
		Snippet sn = {0};
		snippet_make(d->loc, NULL, 0, &sn);
		jw_set(o, "source_line", jw_strn(sn.text.s, sn.text.len));
		buf_free(&sn.text);
		buf_free(&sn.marks);
	} else {
		jw_set(o, "source_line", jw_null());
	}
	jw_set(o, "suggestion", jw_str(d->suggestion));
	Json *ranges = jw_array();
	for (int i = 0; i < d->nranges; i++) {
		Json *r = jw_object();
		json_span(r, d->ranges[i], true);
		jw_push(ranges, r);
	}
	jw_set(o, "ranges", ranges);
	Json *notes = jw_array();
	for (int i = 0; i < d->nnotes; i++) {
		Json *n = jw_object();
		jw_set(n, "message", jprintable(d->notes[i].msg));
		if (d->notes[i].loc.src)
			json_span(n, d->notes[i].loc, false);
		jw_push(notes, n);
	}
	jw_set(o, "notes", notes);
	if (d->has_quantity) { /* only on the diagnostics that carry numbers: unmet requirements */
		Json *q = jw_object();
		jw_set(q, "value", jw_real(d->value, 6));
		jw_set(q, "limit", jw_real(d->limit, 6));
		jw_set(q, "unit", jw_str(d->unit));
		jw_set(o, "quantity", q);
	}
	return o;
}

static void render_json(Ctx *c, FILE *out)
{
	Json *root = jw_object();
	Json *list = jw_array();
	for (int i = 0; i < c->diags.n; i++)
		jw_push(list, json_diag(c->diags.v[i]));
	jw_set(root, "diagnostics", list);
	jw_set(root, "errors", jw_int(c->nerrors));
	jw_set(root, "warnings", jw_int(c->nwarnings));
	jw_set(root, "limit_reached", jw_bool(c->limit_hit));
	jw_write(out, root);
}

/* Source order: by file (in load order), then by position; diagnostics without a location
 * first. Passes find mistakes in their own order, but people read a file top to bottom. */
static bool diag_before(const Diag *a, const Diag *b)
{
	int fa = a->loc.src ? a->loc.src->id : -1, fb = b->loc.src ? b->loc.src->id : -1;
	if (fa != fb)
		return fa < fb;
	return a->loc.off < b->loc.off;
}

/* A stable merge sort, so diagnostics at the same place keep the order they were made in. */
static void sort_diags(void **v, void **tmp, int n)
{
	if (n < 2)
		return;
	int h = n / 2;
	sort_diags(v, tmp, h);
	sort_diags(v + h, tmp, n - h);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = diag_before(v[j], v[i]) ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, sizeof(void *) * (size_t)n);
}

void diag_render(Ctx *c, FILE *out)
{
	if (c->diags.n > 1) {
		void **tmp = xmalloc(sizeof(void *) * (size_t)c->diags.n);
		sort_diags(c->diags.v, tmp, c->diags.n);
		free(tmp);
	}
	if (c->dopt.format == DIAG_JSON) {
		render_json(c, out);
	} else if (c->diags.n > 0) {
		bool color = c->dopt.color;
		Buf b = {0};
		for (int i = 0; i < c->diags.n; i++)
			render_text(c->diags.v[i], &b, color);
		if (c->limit_hit) {
			buf_puts(&b, "clusterc: ");
			put_sgr(&b, color, SGR_ERROR);
			buf_puts(&b, "fatal:");
			put_sgr(&b, color, SGR_RESET);
			buf_printf(&b, " too many errors (limit %d); stopping\n",
				   c->dopt.error_limit);
		}
		render_summary(&b, c->nwarnings, c->nerrors);
		fwrite(b.s, 1, b.len, out);
		buf_free(&b);
	}
	c->diags.n = 0;
}

/* ---- suggestions ---- */

static char ascii_lower(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* Optimal-string-alignment distance in half units: insertion, deletion, substitution and the
 * transposition of neighbours cost 2; a substitution that only changes case costs 1, so "kw" is
 * nearer "kW" than "kB". Stops early, returning more than `limit`, once no alignment can stay
 * within it. Both lengths are at most MAX_IDENT. */
static int osa_distance(const char *a, int na, const char *b, int nb, int limit)
{
	int rows[3][MAX_IDENT + 1];
	int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (int j = 0; j <= nb; j++)
		prev[j] = 2 * j;
	for (int i = 1; i <= na; i++) {
		cur[0] = 2 * i;
		int row_min = cur[0];
		for (int j = 1; j <= nb; j++) {
			int sub = a[i - 1] == b[j - 1] ? 0 :
				  ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 1 : 2;
			int v = prev[j - 1] + sub;
			if (prev[j] + 2 < v)
				v = prev[j] + 2;
			if (cur[j - 1] + 2 < v)
				v = cur[j - 1] + 2;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 2 < v)
				v = prev2[j - 2] + 2;
			cur[j] = v;
			if (v < row_min)
				row_min = v;
		}
		if (row_min > limit)
			return limit + 1;
		int *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb];
}

/* Returns one of cands (not a copy), or NULL. Words and candidates longer than MAX_IDENT are
 * never matched, which bounds the work at n * MAX_IDENT². */
const char *suggest(const char *word, const char *const *cands, int n)
{
	int wl = (int)strnlen(word, MAX_IDENT + 1);
	if (wl == 0 || wl > MAX_IDENT)
		return NULL;
	int threshold = wl / 3 > 1 ? wl / 3 : 1;
	const char *best = NULL;
	int best_d = INT_MAX;
	for (int i = 0; i < n; i++) {
		const char *cand = cands[i];
		if (!cand)
			continue;
		int cl = (int)strnlen(cand, MAX_IDENT + 1);
		if (cl > MAX_IDENT)
			continue;
		int d;
		bool same_letters = cl == wl;
		for (int k = 0; same_letters && k < wl; k++)
			same_letters = ascii_lower(word[k]) == ascii_lower(cand[k]);
		if (same_letters) {
			d = 0;
			for (int k = 0; k < wl; k++)
				d += word[k] != cand[k];
		} else {
			/* Each character of length difference costs a whole unit at least. */
			if (abs(cl - wl) > threshold)
				continue;
			d = osa_distance(word, wl, cand, cl, 2 * threshold);
			if (d > 2 * threshold)
				continue;
		}
		if (d < best_d) {
			best = cand;
			best_d = d;
		}
	}
	if (best || wl < 3)
		return best;
	/* An abbreviation: every letter of the word in order in exactly one candidate, at most
	 * twice as long ("idx" for "index"). */
	for (int i = 0; i < n; i++) {
		const char *cand = cands[i];
		int cl = cand ? (int)strnlen(cand, MAX_IDENT + 1) : 0;
		if (!cand || cl > 2 * wl || cl <= wl || ascii_lower(cand[0]) != ascii_lower(word[0]))
			continue;
		int k = 0;
		for (int j = 0; j < cl && k < wl; j++)
			k += ascii_lower(cand[j]) == ascii_lower(word[k]);
		if (k < wl)
			continue;
		if (best)
			return NULL; /* two candidates: no guess */
		best = cand;
	}
	return best;
}
