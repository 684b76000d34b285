/*
 * parse.c — runs the scanner and the grammar over one Source and hands back the tree.
 */
#include "parse.h"
#include "parser.h"
#include "lexer.h"

/* Scans text (src->len bytes; src->text unless given) with locations in src. */
static void run(Ctx *c, Source *src, const char *text, int start, ParseCtx *pc, LexState *lx)
{
	*lx = (LexState){.c = c, .src = src, .start_token = start};
	*pc = (ParseCtx){.c = c, .src = src, .lex = lx};
	yyscan_t scanner;
	if (yylex_init_extra(lx, &scanner))
		die_oom();
	pc->scanner = scanner;
	YY_BUFFER_STATE buf = yy_scan_bytes(text ? text : src->text, (int)src->len, scanner);
	yyparse(scanner, pc);
	yy_delete_buffer(buf, scanner);
	yylex_destroy(scanner);
}

File *parse_file(Ctx *c, Source *src)
{
	ParseCtx pc;
	LexState lx;
	int before = diag_errors(c);
	run(c, src, NULL, START_FILE, &pc, &lx);
	File *f = arena_alloc(c->arena, sizeof *f);
	f->src = src;
	f->stmts = (Stmt **)pc.stmts.v;
	f->nstmts = pc.stmts.n;
	f->comments = lx.comments;
	f->ncomments = lx.ncomments;
	f->parsed_ok = diag_errors(c) == before;
	return f;
}

Stmt *parse_override(Ctx *c, Source *src)
{
	ParseCtx pc;
	LexState lx;
	int before = diag_errors(c);
	run(c, src, NULL, START_OVERRIDE, &pc, &lx);
	return diag_errors(c) == before ? pc.override : NULL;
}

Stmt *parse_override_masked(Ctx *c, Source *src, const char *text)
{
	ParseCtx pc;
	LexState lx;
	int before = diag_errors(c);
	run(c, src, text, START_OVERRIDE, &pc, &lx);
	return diag_errors(c) == before ? pc.override : NULL;
}

/* One token a line: its symbol name and its text, for tests and `clusterc tokens`. */
void lex_dump(Ctx *c, Source *src, Buf *out)
{
	LexState lx = {.c = c, .src = src};
	yyscan_t scanner;
	if (yylex_init_extra(&lx, &scanner))
		die_oom();
	YY_BUFFER_STATE buf = yy_scan_bytes(src->text, (int)src->len, scanner);
	YYSTYPE val;
	YYLTYPE loc;
	int t;
	while ((t = yylex(&val, &loc, scanner)) != 0) {
		buf_puts(out, parse_token_name(t));
		if (t != NEWLINE)
			buf_printf(out, " %.*s", (int)(loc.end - loc.off), src->text + loc.off);
		buf_putc(out, '\n');
	}
	yy_delete_buffer(buf, scanner);
	yylex_destroy(scanner);
}
