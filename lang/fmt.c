/*
 * fmt.c — canonical formatting (`clusterc fmt`): a parsed file printed back in one layout with
 * every comment kept. Only spaces and line breaks change, so the output means what the input
 * meant, and formatting it again changes nothing. A file with syntax errors is not formatted
 * (fmt_file returns NULL): statements that failed to parse are missing from the tree.
 *
 * The layout:
 * - One statement, field or scenario item a line, in source order (';' splits). Where the source
 *   had blank lines between two things (statements, fields, items, comments) one is kept; none
 *   at the start of the file or of a block, none before a closing bracket. The output ends with
 *   one newline; an empty (or blank) file formats to an empty one.
 * - `KIND NAME : PARENT {`, the brace always on the header line, fields indented 2 spaces, `}`
 *   alone; `KIND NAME {}` when there are no fields and no comments inside. A body written on one
 *   line with at most one field (item) and no comment stays there: `scenario s { a.b = 1 }`.
 * - A run is a sequence of single-line elements with no blank line or comment line between
 *   them. In a declaration or scenario body the '=' of consecutive assignments of a run line up
 *   (names padded; a require or objective between them starts a new group). Trailing
 *   comments of a run start in one column, two spaces after the longest line of the run that has
 *   one (a long line without a comment pushes nothing).
 * - A comment that starts on the line where an element ends trails it (after the comma of a list
 *   item); one on the line of an opening '{', '(' or '[' stays after the bracket. Any other one
 *   gets a line of its own at the indentation of what follows it in its block; those at the end
 *   of a block stay before the closing bracket. One inside an expression (outside the items of
 *   a multi-line list or call) or a header moves before its statement, field or item. The text
 *   is kept byte for byte except for whitespace at the end of a line (a CRLF file's "\r" goes);
 *   the continuation lines of a block comment are not re-indented.
 * - Expressions: `a + b` (also - * /), `8 x H100`, `1:1`, `1..64 step 8`, `-x`, parentheses as
 *   written, `a.b`, numbers, units and strings as written with one space before a unit
 *   (`10.2 kW`), `f(a = 1, b = 2)`, `[a, b]`. A call or list written over several lines keeps
 *   one argument (item) a line, indented 2 more and followed by a comma, the closing bracket
 *   alone at the outer indentation. `import std.network`, `require L <= R`, `minimize E`.
 *
 * Method: the tree gives order and spans; the comments (in source order, with spans) are merged
 * in by byte offset. A block (the file, a body, a multi-line call or list) prints a sequence of
 * elements; each prints the comments before it and those inside it that no nested block owns,
 * then itself, then the comments that start on its last line. Single-line elements wait for the
 * end of their run so that it can be aligned.
 */
#include "lang.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct Fmt {
	const File *f;
	const char *text;
	uint32_t len;
	bool *done; /* done[i]: comment i has been printed */
	int next;   /* no comment before this index is left to print */
} Fmt;

/* One thing a block prints on a line (or several) of its own: a statement or scenario item, or
 * a field, or an item of a multi-line list or call. */
typedef struct Elem {
	uint32_t off, end;
	const Stmt *stmt;  /* the statement, or NULL */
	const char *name;  /* a field's or named argument's name */
	const Expr *value; /* a field's, argument's or list item's value */
	bool comma;        /* an item of a list or call: followed by ',' */
} Elem;

typedef struct Block {
	Elem *elems;
	int n;
	int indent;
	uint32_t open_end;  /* just after the opening bracket (0 for the file) */
	uint32_t close_off; /* at the closing bracket (the length for the file) */
	bool align;         /* align the '=' of runs */
	bool opener;        /* comments may follow an opening bracket on its line */
} Block;

/* A single-line element waiting for the end of its run. */
typedef struct Line {
	char *name, *rest, *comment; /* name NULL when nothing is assigned; comment may be NULL */
	size_t pad;                  /* width the name is padded to */
} Line;

typedef struct Run {
	Buf *out;
	Line *v;
	int n, cap;
	int indent;
	bool align;
} Run;

static void print_expr(Fmt *p, Buf *b, const Expr *e, int indent);
static void print_block(Fmt *p, Buf *out, const Block *blk);

/* ---- text helpers -------------------------------------------------------------------------- */

static void put_indent(Buf *b, int n)
{
	for (int i = 0; i < n; i++)
		buf_putc(b, ' ');
}

/* Width in characters (code points) of s; every line printed here is a single line. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; s && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static char *take(Buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	*b = (Buf){0};
	return s;
}

/* Whitespace other than a line break. */
static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* No line break in [from, to). */
static bool same_line(const Fmt *p, uint32_t from, uint32_t to)
{
	return from >= to || !memchr(p->text + from, '\n', to - from);
}

/* [from, to) holds an empty line: two line breaks with only blanks between them. */
static bool has_blank(const Fmt *p, uint32_t from, uint32_t to)
{
	bool seen = false;
	for (uint32_t i = from; i < to && i < p->len; i++) {
		char ch = p->text[i];
		if (ch == '\n') {
			if (seen)
				return true;
			seen = true;
		} else if (!is_blank(ch)) {
			seen = false;
		}
	}
	return false;
}

/* ---- comments ------------------------------------------------------------------------------ */

static uint32_t c_off(const Fmt *p, int i)
{
	return p->f->comments[i].loc.off;
}

static uint32_t c_end(const Fmt *p, int i)
{
	return p->f->comments[i].loc.end;
}

/* Index of the first comment starting at or after off. */
static int first_at(const Fmt *p, uint32_t off)
{
	int lo = 0, hi = p->f->ncomments;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (c_off(p, mid) < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool comment_inside(const Fmt *p, uint32_t off, uint32_t end)
{
	int i = first_at(p, off);
	return i < p->f->ncomments && c_off(p, i) < end;
}

/* The lowest comment not yet printed, or ncomments. */
static int next_left(Fmt *p)
{
	while (p->next < p->f->ncomments && p->done[p->next])
		p->next++;
	return p->next;
}

/* Appends comment i, each of its lines without trailing whitespace, and marks it printed. */
static void put_comment(Fmt *p, Buf *b, int i)
{
	const char *s = p->text + c_off(p, i), *end = p->text + c_end(p, i);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		while (e > s && is_blank(e[-1]))
			e--;
		buf_put(b, s, (size_t)(e - s));
		if (!nl)
			break;
		buf_putc(b, '\n');
		s = nl + 1;
	}
	p->done[i] = true;
}

/* ---- expressions --------------------------------------------------------------------------- */

/* Where the items of a call or list begin: after the name of a call, after '[' of a list. */
static uint32_t items_open(const Expr *e)
{
	return e->kind == EXPR_CALL ? e->call.name_loc.end : e->loc.off + 1;
}

/* A call or list printed one item a line: written over several lines, and with something in it
 * (an empty "[\n]" prints as "[]"). */
static bool is_multiline(const Fmt *p, const Expr *e)
{
	if (e->kind == EXPR_CALL)
		return e->call.multiline &&
		       (e->call.nargs > 0 || comment_inside(p, items_open(e), e->loc.end - 1));
	if (e->kind == EXPR_LIST)
		return e->list.multiline &&
		       (e->list.n > 0 || comment_inside(p, items_open(e), e->loc.end - 1));
	return false;
}

/* Offset off is inside a multi-line list or call of e, whose block prints comments there. */
static bool in_multiline(const Fmt *p, const Expr *e, uint32_t off)
{
	if (!e || off < e->loc.off || off >= e->loc.end)
		return false;
	if (is_multiline(p, e))
		return true;
	switch (e->kind) {
	case EXPR_MEMBER:
		return in_multiline(p, e->member.base, off);
	case EXPR_CALL:
		for (int i = 0; i < e->call.nargs; i++)
			if (in_multiline(p, e->call.args[i].value, off))
				return true;
		return false;
	case EXPR_LIST:
		for (int i = 0; i < e->list.n; i++)
			if (in_multiline(p, e->list.items[i], off))
				return true;
		return false;
	case EXPR_PAREN:
	case EXPR_NEG:
		return in_multiline(p, e->inner, off);
	case EXPR_ADD: case EXPR_SUB: case EXPR_MUL: case EXPR_DIV: case EXPR_TIMES: case EXPR_RATIO:
		return in_multiline(p, e->bin.l, off) || in_multiline(p, e->bin.r, off);
	case EXPR_RANGE:
		return in_multiline(p, e->range.lo, off) || in_multiline(p, e->range.hi, off) ||
		       in_multiline(p, e->range.step, off);
	default:
		return false;
	}
}

/* The items of a multi-line call or list, one a line, then the closing bracket. */
static void print_items(Fmt *p, Buf *b, const Expr *e, int indent)
{
	bool call = e->kind == EXPR_CALL;
	int n = call ? e->call.nargs : e->list.n;
	Elem *el = xmalloc(sizeof *el * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const Arg *a = call ? &e->call.args[i] : NULL;
		const Expr *v = call ? a->value : e->list.items[i];
		uint32_t off = a && a->name ? a->name_loc.off : v->loc.off;
		el[i] = (Elem){off, v->loc.end, NULL, a ? a->name : NULL, v, true};
	}
	Block blk = {el, n, indent + 2, items_open(e), e->loc.end - 1, false, true};
	print_block(p, b, &blk);
	free(el);
	put_indent(b, indent);
	buf_putc(b, call ? ')' : ']');
}

static void print_expr(Fmt *p, Buf *b, const Expr *e, int indent)
{
	static const char *const ops[] = {
		[EXPR_ADD] = " + ", [EXPR_SUB] = " - ", [EXPR_MUL] = " * ", [EXPR_DIV] = " / ",
		[EXPR_TIMES] = " x ", [EXPR_RATIO] = ":",
	};
	switch (e->kind) {
	case EXPR_ERROR:
		assert(!"fmt: error node in a file that parsed");
		break;
	case EXPR_NUMBER:
		buf_puts(b, e->num.text);
		if (e->num.unit)
			buf_printf(b, " %s", e->num.unit);
		break;
	case EXPR_STRING:
		buf_printf(b, "\"%s\"", e->str.text);
		break;
	case EXPR_BOOL:
		buf_puts(b, e->boolean ? "true" : "false");
		break;
	case EXPR_AUTO:
		buf_puts(b, "auto");
		break;
	case EXPR_NAME:
		buf_puts(b, e->name);
		break;
	case EXPR_MEMBER:
		print_expr(p, b, e->member.base, indent);
		buf_printf(b, ".%s", e->member.field);
		break;
	case EXPR_CALL:
	case EXPR_LIST: {
		bool call = e->kind == EXPR_CALL;
		buf_printf(b, "%s%c", call ? e->call.name : "", call ? '(' : '[');
		if (is_multiline(p, e)) {
			print_items(p, b, e, indent);
			break;
		}
		for (int i = 0; i < (call ? e->call.nargs : e->list.n); i++) {
			const char *name = call ? e->call.args[i].name : NULL;
			buf_printf(b, "%s%s%s", i ? ", " : "", name ? name : "", name ? " = " : "");
			print_expr(p, b, call ? e->call.args[i].value : e->list.items[i], indent);
		}
		buf_putc(b, call ? ')' : ']');
		break;
	}
	case EXPR_PAREN:
		buf_putc(b, '(');
		print_expr(p, b, e->inner, indent);
		buf_putc(b, ')');
		break;
	case EXPR_NEG:
		buf_putc(b, '-');
		print_expr(p, b, e->inner, indent);
		break;
	case EXPR_ADD: case EXPR_SUB: case EXPR_MUL: case EXPR_DIV: case EXPR_TIMES: case EXPR_RATIO:
		print_expr(p, b, e->bin.l, indent);
		buf_puts(b, ops[e->kind]);
		print_expr(p, b, e->bin.r, indent);
		break;
	case EXPR_RANGE:
		print_expr(p, b, e->range.lo, indent);
		buf_puts(b, "..");
		print_expr(p, b, e->range.hi, indent);
		if (e->range.step) {
			buf_puts(b, " step ");
			print_expr(p, b, e->range.step, indent);
		}
		break;
	}
}

/* ---- elements ------------------------------------------------------------------------------ */

/* The comment at off is inside e and printed before it (not by a block nested in e). */
static bool owns(const Fmt *p, const Elem *e, uint32_t off)
{
	const Stmt *s = e->stmt;
	if (!s)
		return !in_multiline(p, e->value, off);
	switch (s->kind) {
	case STMT_DECL:
		return off < s->decl->body.off;
	case STMT_SCENARIO:
		return off < s->scenario->body.off;
	case STMT_REQUIRE:
		return !in_multiline(p, s->require.lhs, off) && !in_multiline(p, s->require.rhs, off);
	case STMT_OBJECTIVE:
		return !in_multiline(p, s->objective.expr, off);
	case STMT_OVERRIDE:
		return !in_multiline(p, s->override.value, off);
	case STMT_IMPORT:
		break;
	}
	return true;
}

static void render(Fmt *p, const Elem *e, int indent, Buf *name, Buf *rest);

static Elem stmt_elem(const Stmt *s)
{
	return (Elem){.off = s->loc.off, .end = s->loc.end, .stmt = s};
}

/* A declaration or scenario: its header, then "{}", "{ ITEM }" or a block of one item a line. */
static void print_decl(Fmt *p, Buf *b, const Stmt *s, int indent)
{
	bool decl = s->kind == STMT_DECL;
	const Decl *d = s->decl;
	const Scenario *sc = s->scenario;
	const char *parent = decl ? d->parent_name : sc->parent_name;
	Loc body = decl ? d->body : sc->body;
	int n = decl ? d->nfields : sc->nitems;
	bool comments = comment_inside(p, body.off, body.end);

	if (decl)
		buf_printf(b, "%s %s", d->kind_word, d->name);
	else
		buf_printf(b, "scenario %s", sc->name);
	if (parent)
		buf_printf(b, " : %s", parent);
	Elem *el = xmalloc(sizeof *el * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		if (decl) {
			const Field *f = d->fields[i];
			el[i] = (Elem){f->loc.off, f->loc.end, NULL, f->name, f->value, false};
		} else {
			el[i] = stmt_elem(sc->items[i]);
		}
	}
	if (n == 0 && !comments) {
		buf_puts(b, " {}");
	} else if ((decl ? d->one_line : sc->one_line) && n == 1 && !comments) {
		Buf name = {0}, rest = {0};
		render(p, &el[0], indent, &name, &rest);
		buf_printf(b, " { %s%s%s }", name.s ? name.s : "", name.s ? " = " : "", rest.s);
		buf_free(&name);
		buf_free(&rest);
	} else {
		Block blk = {el, n, indent + 2, body.off + 1, body.end - 1, true, true};
		buf_puts(b, " {");
		print_block(p, b, &blk);
		put_indent(b, indent);
		buf_putc(b, '}');
	}
	free(el);
}

/* Renders e at indent: the name before an '=' that may be aligned (left empty when there is
 * none) and the rest, which holds line breaks only when e spans several lines. */
static void render(Fmt *p, const Elem *e, int indent, Buf *name, Buf *rest)
{
	const Stmt *s = e->stmt;
	if (!s) {
		if (e->name)
			buf_puts(name, e->name);
		print_expr(p, rest, e->value, indent);
		if (e->comma)
			buf_putc(rest, ',');
		return;
	}
	switch (s->kind) {
	case STMT_IMPORT:
		if (s->import.module)
			buf_printf(rest, "import %s", s->import.module);
		else
			buf_printf(rest, "import %.*s",
				   (int)(s->import.target_loc.end - s->import.target_loc.off),
				   p->text + s->import.target_loc.off);
		break;
	case STMT_DECL:
	case STMT_SCENARIO:
		print_decl(p, rest, s, indent);
		break;
	case STMT_REQUIRE:
		buf_puts(rest, "require ");
		print_expr(p, rest, s->require.lhs, indent);
		buf_printf(rest, " %s ", cmp_op_names[s->require.op]);
		print_expr(p, rest, s->require.rhs, indent);
		break;
	case STMT_OBJECTIVE:
		buf_puts(rest, s->objective.maximize ? "maximize " : "minimize ");
		print_expr(p, rest, s->objective.expr, indent);
		break;
	case STMT_OVERRIDE:
		for (int i = 0; i < s->override.path.n; i++)
			buf_printf(name, "%s%s", i ? "." : "", s->override.path.parts[i]);
		print_expr(p, rest, s->override.value, indent);
		break;
	}
}

/* ---- blocks and runs ----------------------------------------------------------------------- */

/* Prints the held-back lines: the names of consecutive assignments padded to one width when
 * aligning, trailing comments in one column two spaces after the longest line that has one. */
static void run_flush(Run *r)
{
	size_t wcode = 0;
	for (int i = 0, j; i < r->n; i = j > i ? j : i + 1) {
		size_t wname = 0;
		for (j = i; j < r->n && r->v[j].name; j++)
			if (width(r->v[j].name) > wname)
				wname = width(r->v[j].name);
		for (int k = i; k < j; k++)
			r->v[k].pad = r->align ? wname : width(r->v[k].name);
	}
	for (int i = 0; i < r->n; i++) {
		Line *l = &r->v[i];
		size_t w = width(l->rest) + (l->name ? l->pad + 3 : 0);
		if (l->comment && w > wcode)
			wcode = w;
	}
	for (int i = 0; i < r->n; i++) {
		Line *l = &r->v[i];
		put_indent(r->out, r->indent);
		if (l->name) {
			buf_puts(r->out, l->name);
			put_indent(r->out, (int)(l->pad - width(l->name)));
			buf_puts(r->out, " = ");
		}
		buf_puts(r->out, l->rest);
		if (l->comment) {
			put_indent(r->out, (int)(wcode + 2 - width(l->rest) - (l->name ? l->pad + 3 : 0)));
			buf_puts(r->out, l->comment);
		}
		buf_putc(r->out, '\n');
		free(l->name);
		free(l->rest);
		free(l->comment);
	}
	r->n = 0;
}

static void run_add(Run *r, char *name, char *rest, char *comment)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->v = xrealloc(r->v, sizeof *r->v * (size_t)r->cap);
	}
	r->v[r->n++] = (Line){name, rest, comment, 0};
}

/* Where a block has got to: the end of what was printed last, and whether anything was. */
typedef struct Pos {
	uint32_t prev_end;
	bool first;
} Pos;

/* Prints comment i on a line of its own, after a blank line when the source had one. */
static void comment_line(Fmt *p, Run *r, Pos *pos, int i)
{
	run_flush(r);
	if (!pos->first && has_blank(p, pos->prev_end, c_off(p, i)))
		buf_putc(r->out, '\n');
	put_indent(r->out, r->indent);
	put_comment(p, r->out, i);
	buf_putc(r->out, '\n');
	pos->prev_end = c_end(p, i);
	pos->first = false;
}

/* Prints the elements of blk, one a line (or several) ending in a line break, with the comments
 * among them. With blk->opener the output continues the line of the opening bracket; the caller
 * prints the closing one. */
static void print_block(Fmt *p, Buf *out, const Block *blk)
{
	int nc = p->f->ncomments;
	Run run = {out, NULL, 0, 0, blk->indent, blk->align};
	Pos pos = {blk->open_end, true};

	if (blk->opener) {
		uint32_t lim = blk->n ? blk->elems[0].off : blk->close_off;
		const char *sep = "  ";
		for (int i = first_at(p, blk->open_end); i < nc && c_off(p, i) < lim; i++) {
			if (p->done[i] || !same_line(p, blk->open_end, c_off(p, i)))
				break;
			buf_puts(out, sep);
			put_comment(p, out, i);
			pos.prev_end = c_end(p, i);
			sep = " ";
		}
		buf_putc(out, '\n');
	}
	for (int k = 0; k < blk->n; k++) {
		const Elem *e = &blk->elems[k];
		int i;
		while ((i = next_left(p)) < nc && c_off(p, i) < e->off)
			comment_line(p, &run, &pos, i);
		for (i = first_at(p, e->off); i < nc && c_off(p, i) < e->end; i++)
			if (!p->done[i] && owns(p, e, c_off(p, i)))
				comment_line(p, &run, &pos, i);
		if (!pos.first && has_blank(p, pos.prev_end, e->off)) {
			run_flush(&run);
			buf_putc(out, '\n');
		}

		Buf name = {0}, rest = {0}, com = {0};
		render(p, e, blk->indent, &name, &rest);
		uint32_t lim = k + 1 < blk->n ? blk->elems[k + 1].off : blk->close_off;
		pos.prev_end = e->end;
		pos.first = false;
		for (i = first_at(p, e->end); i < nc && c_off(p, i) < lim; i++) {
			if (p->done[i] || !same_line(p, e->end, c_off(p, i)))
				break;
			if (com.len)
				buf_putc(&com, ' ');
			put_comment(p, &com, i);
			pos.prev_end = c_end(p, i);
		}

		if (!rest.s || !memchr(rest.s, '\n', rest.len)) {
			bool ends_run = com.s && memchr(com.s, '\n', com.len);
			run_add(&run, name.s, take(&rest), com.s);
			if (ends_run)
				run_flush(&run);
			continue;
		}
		run_flush(&run);
		put_indent(out, blk->indent);
		if (name.s)
			buf_printf(out, "%s = ", name.s);
		buf_puts(out, rest.s);
		if (com.s)
			buf_printf(out, "  %s", com.s);
		buf_putc(out, '\n');
		buf_free(&name);
		buf_free(&rest);
		buf_free(&com);
	}
	int i;
	while ((i = next_left(p)) < nc && c_off(p, i) < blk->close_off)
		comment_line(p, &run, &pos, i);
	run_flush(&run);
	free(run.v);
}

/* ---- the file ------------------------------------------------------------------------------ */

char *fmt_file(const File *f, size_t *out_len)
{
	if (!f->parsed_ok)
		return NULL;
	Fmt p = {f, f->src->text, f->src->len, NULL, 0};
	p.done = xmalloc(sizeof *p.done * (size_t)(f->ncomments ? f->ncomments : 1));
	memset(p.done, 0, sizeof *p.done * (size_t)(f->ncomments ? f->ncomments : 1));
	Elem *el = xmalloc(sizeof *el * (size_t)(f->nstmts ? f->nstmts : 1));
	for (int i = 0; i < f->nstmts; i++)
		el[i] = stmt_elem(f->stmts[i]);
	Block blk = {el, f->nstmts, 0, 0, f->src->len, false, false};
	Buf out = {0};
	print_block(&p, &out, &blk);
	assert(next_left(&p) == f->ncomments);
	free(el);
	free(p.done);
	if (out_len)
		*out_len = out.len;
	return take(&out);
}
