/*
 * parser.y — the grammar of clusterc (docs/language.md specifies it in prose).
 *
 * A pure, reentrant LALR(1) parser with locations. Actions only call the builders of ast.c.
 * Syntax errors are reported by yyreport_syntax_error below in the house style ("expected '='
 * after 'power', found number 10.2") and recovery resumes at the next end of line or '}', so one
 * run reports several mistakes. The grammar has no conflicts (%expect 0).
 *
 * Two entry points share the grammar: a whole file, and a single override "PATH = EXPR" as
 * given to --set. The scanner hands out a start token that selects which.
 */
%define api.pure full
%define parse.error custom
%define parse.lac full
%define api.location.type {Loc}
%locations
%expect 0
%param {void *scanner}
%parse-param {ParseCtx *pc}

%code requires {
#include "parse.h"
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, void *scanner);
}

%code {
#include <string.h>

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
	do {                                                               \
		if (N) {                                                   \
			(Cur).src = YYRHSLOC(Rhs, 1).src;                  \
			(Cur).off = YYRHSLOC(Rhs, 1).off;                  \
			(Cur).end = YYRHSLOC(Rhs, N).end;                  \
		} else {                                                   \
			(Cur).src = YYRHSLOC(Rhs, 0).src;                  \
			(Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end;      \
		}                                                          \
	} while (0)

/* Bison's own stack limit stands in for a nesting limit the scanner did not catch (a long run
 * of unary minus signs, say). */
#define YYMAXDEPTH 20000

static void yyerror(YYLTYPE *loc, void *scanner, ParseCtx *pc, const char *msg);
static void stop_if_too_many(ParseCtx *pc);
#define CHECK_LIMIT() do { if (diag_limit_reached(pc->c)) YYABORT; } while (0)
}

%union {
	Expr *expr;
	const char *name;
	NumTok num;
	StrTok str;
	PtrVec *vec;
	Field *field;
	Decl *decl;
	Stmt *stmt;
	Arg *arg;
	Path path;
	int op;
}

%token START_FILE START_OVERRIDE
%token <name> IDENT "name"
%token <num> NUMBER "number"
%token <name> UNIT "unit"
%token <str> STRING "string"
%token NEWLINE "end of line"
%token IMPORT "'import'" SCENARIO "'scenario'" REQUIRE "'require'"
%token MINIMIZE "'minimize'" MAXIMIZE "'maximize'"
%token TRUE "'true'" FALSE "'false'" AUTO "'auto'" X "'x'" STEP "'step'"
%token DOTDOT "'..'" LE "'<='" GE "'>='" EQ "'=='"

%type <expr> expr ratio times range sum product unary postfix primary
%type <vec> fields scen_items items opt_items args opt_args
%type <field> field
%type <stmt> stmt decl scenario scen_item require objective
%type <arg> arg
%type <path> path
%type <name> dotted opt_parent
%type <op> cmp

%%

start
	: START_FILE stmts
	| START_OVERRIDE override_line
	;

stmts
	: %empty
	| stmts NEWLINE
	| stmts ';'
	| stmts stmt sep            { ast_push(pc, &pc->stmts, $2); CHECK_LIMIT(); }
	| stmts error sep           { yyerrok; CHECK_LIMIT(); }
	| stmts error '{' fields '}' sep
		{ yyerrok; CHECK_LIMIT(); } /* a broken declaration head: its block is skipped whole */
	;

sep
	: NEWLINE
	| ';'
	;

stmt
	: IMPORT dotted             { $$ = ast_import_module(pc, $2, @2, @$); }
	| IMPORT STRING             { $$ = ast_import_path(pc, $2, @2, @$); }
	| decl
	| scenario
	| require
	| objective
	;

dotted
	: IDENT
	| dotted '.' IDENT          { $$ = intern_cstr(pc->c, arena_printf(pc->c->arena, "%s.%s", $1, $3)); }
	;

decl
	: IDENT IDENT opt_parent opt_newline '{' fields '}'
		{ $$ = ast_decl_stmt(pc, ast_decl(pc, $1, @1, $2, @2, $3, @3, $6, loc_span(@5, @7), @$)); }
	| IDENT IDENT opt_parent opt_newline '{' fields field '}'
		{ ast_push(pc, $6, $7);
		  $$ = ast_decl_stmt(pc, ast_decl(pc, $1, @1, $2, @2, $3, @3, $6, loc_span(@5, @8), @$)); }
	| IDENT IDENT opt_parent opt_newline '{' fields error '}'
		{ yyerrok;
		  $$ = ast_decl_stmt(pc, ast_decl(pc, $1, @1, $2, @2, $3, @3, $6, loc_span(@5, @8), @$)); }
	;

opt_parent
	: %empty                    { $$ = NULL; }
	| ':' IDENT                 { $$ = $2; @$ = @2; }
	;

opt_newline
	: %empty
	| NEWLINE
	;

fields
	: %empty                    { $$ = ast_vec(pc); }
	| fields sep
	| fields field sep          { ast_push(pc, $1, $2); }
	| fields error sep          { yyerrok; CHECK_LIMIT(); }
	;

field
	: IDENT '=' expr            { $$ = ast_field(pc, $1, @1, $3); }
	;

scenario
	: SCENARIO IDENT opt_parent opt_newline '{' scen_items '}'
		{ $$ = ast_scenario(pc, $2, @2, $3, @3, $6, loc_span(@5, @7), @$); }
	| SCENARIO IDENT opt_parent opt_newline '{' scen_items scen_item '}'
		{ ast_push(pc, $6, $7); $$ = ast_scenario(pc, $2, @2, $3, @3, $6, loc_span(@5, @8), @$); }
	| SCENARIO IDENT opt_parent opt_newline '{' scen_items error '}'
		{ yyerrok; $$ = ast_scenario(pc, $2, @2, $3, @3, $6, loc_span(@5, @8), @$); }
	;

scen_items
	: %empty                    { $$ = ast_vec(pc); }
	| scen_items sep
	| scen_items scen_item sep  { ast_push(pc, $1, $2); }
	| scen_items error sep      { yyerrok; CHECK_LIMIT(); }
	;

scen_item
	: path '=' expr             { $$ = ast_override(pc, &$1, $3, @$); }
	| require
	| objective
	;

path
	: IDENT                     { $$ = (Path){.parts = {$1}, .locs = {@1}, .n = 1, .loc = @1}; }
	| path '.' IDENT
		{ $$ = $1;
		  if ($$.n < 4) { $$.parts[$$.n] = $3; $$.locs[$$.n] = @3; $$.n++; }
		  else diag_error(pc->c, @3, "path is longer than 4 names");
		  $$.loc = @$; }
	;

override_line
	: path '=' expr opt_sep     { pc->override = ast_override(pc, &$1, $3, loc_span(@1, @3)); }
	;

opt_sep
	: %empty
	| NEWLINE
	;

require
	: REQUIRE expr cmp expr     { $$ = ast_require(pc, $2, (CmpOp)$3, @3, $4, @$); }
	;

cmp
	: LE                        { $$ = CMP_LE; }
	| '<'                       { $$ = CMP_LT; }
	| GE                        { $$ = CMP_GE; }
	| '>'                       { $$ = CMP_GT; }
	| EQ                        { $$ = CMP_EQ; }
	;

objective
	: MINIMIZE expr             { $$ = ast_objective(pc, false, $2, @$); }
	| MAXIMIZE expr             { $$ = ast_objective(pc, true, $2, @$); }
	;

/* Precedence, loosest first: ratio ':', multiplicity 'x', range '..', '+ -', '* /', unary '-',
 * member access and calls. So "2 * 4 x H100" is (2 * 4) x H100 and "1:1" is a ratio of sums. */
expr
	: ratio
	;

ratio
	: times
	| times ':' times           { $$ = ast_bin(pc, EXPR_RATIO, $1, $3, @$); }
	;

times
	: range
	| range X postfix           { $$ = ast_bin(pc, EXPR_TIMES, $1, $3, @$); }
	;

range
	: sum
	| sum DOTDOT sum            { $$ = ast_range(pc, $1, $3, NULL, @$); }
	| sum DOTDOT sum STEP sum   { $$ = ast_range(pc, $1, $3, $5, @$); }
	;

sum
	: product
	| sum '+' product           { $$ = ast_bin(pc, EXPR_ADD, $1, $3, @$); }
	| sum '-' product           { $$ = ast_bin(pc, EXPR_SUB, $1, $3, @$); }
	;

product
	: unary
	| product '*' unary         { $$ = ast_bin(pc, EXPR_MUL, $1, $3, @$); }
	| product '/' unary         { $$ = ast_bin(pc, EXPR_DIV, $1, $3, @$); }
	;

unary
	: postfix
	| '-' unary                 { $$ = ast_un(pc, EXPR_NEG, $2, @$); }
	;

postfix
	: primary
	| postfix '.' IDENT         { $$ = ast_member(pc, $1, $3, @3); }
	;

primary
	: NUMBER                    { $$ = ast_number(pc, $1, @1, NULL, @1); }
	| NUMBER UNIT               { $$ = ast_number(pc, $1, @1, $2, @2); }
	| STRING                    { $$ = ast_string(pc, $1, @$); }
	| TRUE                      { $$ = ast_leaf(pc, EXPR_BOOL, @$); $$->boolean = true; }
	| FALSE                     { $$ = ast_leaf(pc, EXPR_BOOL, @$); $$->boolean = false; }
	| AUTO                      { $$ = ast_leaf(pc, EXPR_AUTO, @$); }
	| IDENT                     { $$ = ast_name(pc, $1, @$); }
	| IDENT '(' opt_args ')'    { $$ = ast_call(pc, $1, @1, $3, @$); }
	| '(' expr ')'              { $$ = ast_un(pc, EXPR_PAREN, $2, @$); }
	| '[' opt_items ']'         { $$ = ast_list(pc, $2, @$); }
	;

opt_items
	: %empty                    { $$ = ast_vec(pc); }
	| items
	| items ','
	;

items
	: expr                      { $$ = ast_vec(pc); ast_push(pc, $$, $1); }
	| items ',' expr            { ast_push(pc, $1, $3); }
	;

opt_args
	: %empty                    { $$ = ast_vec(pc); }
	| args
	| args ','
	;

args
	: arg                       { $$ = ast_vec(pc); ast_push(pc, $$, $1); }
	| args ',' arg              { ast_push(pc, $1, $3); }
	;

arg
	: expr                      { $$ = ast_arg(pc, NULL, @1, $1); }
	| IDENT '=' expr            { $$ = ast_arg(pc, $1, @1, $3); }
	;

%%

/* How a token is named in a message: its alias, with the text when that helps. */
static const char *describe_token(ParseCtx *pc, yysymbol_kind_t tok, const YYLTYPE *loc)
{
	const Source *s = pc->src;
	int len = (int)(loc->end - loc->off);
	if (len > 40)
		len = 40;
	switch (tok) {
	case YYSYMBOL_IDENT:
		return arena_printf(pc->c->arena, "name '%.*s'", len, s->text + loc->off);
	case YYSYMBOL_NUMBER:
		return arena_printf(pc->c->arena, "number %.*s", len, s->text + loc->off);
	case YYSYMBOL_UNIT:
		return arena_printf(pc->c->arena, "unit '%.*s'", len, s->text + loc->off);
	case YYSYMBOL_STRING:
		return "a string";
	case YYSYMBOL_YYEOF:
		return strcmp(s->path, "--set") == 0 ? "end of the --set value" : "end of file";
	case YYSYMBOL_IMPORT: case YYSYMBOL_SCENARIO: case YYSYMBOL_REQUIRE:
	case YYSYMBOL_MINIMIZE: case YYSYMBOL_MAXIMIZE: case YYSYMBOL_TRUE: case YYSYMBOL_FALSE:
	case YYSYMBOL_AUTO: case YYSYMBOL_X: case YYSYMBOL_STEP:
		return arena_printf(pc->c->arena, "keyword %s", yysymbol_name(tok));
	default:
		return yysymbol_name(tok);
	}
}

static bool has(const yysymbol_kind_t *v, int n, yysymbol_kind_t k)
{
	for (int i = 0; i < n; i++)
		if (v[i] == k)
			return true;
	return false;
}

/* The expected set, said the way a person would: "an expression" rather than eleven tokens. */
static const char *describe_expected(ParseCtx *pc, const yysymbol_kind_t *exp, int n)
{
	if (n <= 0)
		return NULL;
	if (has(exp, n, YYSYMBOL_NUMBER) && has(exp, n, YYSYMBOL_IDENT) && has(exp, n, YYSYMBOL_STRING))
		return "a value";
	if (has(exp, n, YYSYMBOL_LE) && has(exp, n, YYSYMBOL_GE))
		return "a comparison (<=, <, >=, > or ==)";
	/* Where a closing bracket would do, operators that could continue the expression are
	 * noise: say only what ends it. A ';' is the same as an end of line. */
	yysymbol_kind_t keep[24];
	int m = 0;
	bool closer = false;
	for (int i = 0; i < n; i++)
		closer |= exp[i] == YYTRANSLATE(')') || exp[i] == YYTRANSLATE(']');
	for (int i = 0; i < n && m < 24; i++) {
		if (exp[i] == YYSYMBOL_UNIT)
			continue;
		if (exp[i] == YYTRANSLATE(';') && has(exp, n, YYSYMBOL_NEWLINE))
			continue;
		if (closer && exp[i] != YYTRANSLATE(')') && exp[i] != YYTRANSLATE(']') &&
		    exp[i] != YYTRANSLATE(','))
			continue;
		keep[m++] = exp[i];
	}
	exp = keep;
	n = m;
	Buf b = {0};
	for (int i = 0; i < n; i++) {
		const char *name = exp[i] == YYSYMBOL_IDENT    ? "a name"
				   : exp[i] == YYSYMBOL_NUMBER ? "a number"
				   : exp[i] == YYSYMBOL_UNIT   ? "a unit"
				   : exp[i] == YYSYMBOL_STRING ? "a string"
							       : yysymbol_name(exp[i]);
		buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", name);
	}
	const char *r = arena_strdup(pc->c->arena, b.s ? b.s : "");
	buf_free(&b);
	return r;
}

/* The name just before offset `off` on the same line, or NULL: "power" in "power 10 kW". */
static const char *word_before(const Source *s, uint32_t off)
{
	static char word[64];
	uint32_t i = off;
	while (i > 0 && (s->text[i - 1] == ' ' || s->text[i - 1] == '\t'))
		i--;
	uint32_t end = i;
	while (i > 0 && ((s->text[i - 1] >= 'a' && s->text[i - 1] <= 'z') ||
			 (s->text[i - 1] >= 'A' && s->text[i - 1] <= 'Z') ||
			 (s->text[i - 1] >= '0' && s->text[i - 1] <= '9') || s->text[i - 1] == '_'))
		i--;
	if (end == i || end - i >= sizeof word || (s->text[i] >= '0' && s->text[i] <= '9'))
		return NULL;
	memcpy(word, s->text + i, end - i);
	word[end - i] = 0;
	return word;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, ParseCtx *pc)
{
	(void)scanner;
	LexState *lx = pc->lex;
	pc->syntax_errors++;
	if (lx->fatal)
		return 0;
	const YYLTYPE *loc = yypcontext_location(ctx);
	yysymbol_kind_t tok = yypcontext_token(ctx);
	enum { MAXEXP = 24 };
	yysymbol_kind_t exp[MAXEXP];
	int n = yypcontext_expected_tokens(ctx, exp, MAXEXP);
	if (n == 0 && exp[0] == YYSYMBOL_YYEMPTY)
		n = 0;
	const char *found = describe_token(pc, tok, loc);
	const char *want = n > 0 && n < MAXEXP ? describe_expected(pc, exp, n) : NULL;
	const char *before = word_before(pc->src, loc->off);
	const char *text = pc->src->text;
	Diag *d;
	/* A line that starts with a declaration kind or `scenario` (KIND NAME), met inside a
	 * block, usually means the block before it was never closed. */
	bool unclosed_block = false;
	OpenBracket open_brace = {0, 0};
	Loc decl_at = *loc;
	if (lx->nbraces > 0 && tok != YYSYMBOL_YYEOF) {
		int line, col;
		src_linecol(pc->src, loc->off, &line, &col);
		const char *t = pc->src->text + pc->src->lines[line - 1];
		while (*t == ' ' || *t == '\t')
			t++;
		char word[32];
		int wn = 0;
		while (wn < 31 && ((t[wn] >= 'a' && t[wn] <= 'z') || t[wn] == '_'))
			wn++;
		memcpy(word, t, (size_t)wn);
		word[wn] = 0;
		const char *after = t + wn;
		while (*after == ' ' || *after == '\t')
			after++;
		bool starts_decl = after > t + wn && ((*after >= 'a' && *after <= 'z') ||
						      (*after >= 'A' && *after <= 'Z') || *after == '_');
		open_brace = lx->braces[lx->nbraces - 1];
		unclosed_block = wn && starts_decl &&
				 (kind_lookup(word) >= 0 || strcmp(word, "scenario") == 0) &&
				 (uint32_t)(t - pc->src->text) > open_brace.off;
		decl_at = (Loc){pc->src, (uint32_t)(t - pc->src->text), (uint32_t)(t - pc->src->text + wn)};
	}

	if (tok == YYSYMBOL_YYEOF && lx->nparens > 0) {
		OpenBracket ob = lx->parens[lx->nparens - 1];
		d = diag_error(pc->c, *loc, "'%c' expected at end of file (to close '%c')",
			       ob.ch == '(' ? ')' : ']', ob.ch);
		diag_note(d, (Loc){pc->src, ob.off, ob.off + 1}, "'%c' opened here", ob.ch);
	} else if (tok == YYSYMBOL_YYEOF && lx->nbraces > 0) {
		OpenBracket ob = lx->braces[lx->nbraces - 1];
		d = diag_error(pc->c, *loc, "'}' expected at end of file (to close '{')");
		diag_note(d, (Loc){pc->src, ob.off, ob.off + 1}, "'{' opened here");
	} else if (unclosed_block) {
		int line, col;
		src_linecol(pc->src, open_brace.off, &line, &col);
		d = diag_error(pc->c, decl_at, "a new declaration inside a block: the '{' of line %d is "
					       "not closed",
			       line);
		diag_note(d, (Loc){pc->src, open_brace.off, open_brace.off + 1}, "add '}' to close it");
	} else if (tok == YYSYMBOL_NEWLINE && want) {
		d = diag_error(pc->c, *loc, "unexpected end of line; expected %s", want);
	} else if (n == 1 && exp[0] == YYTRANSLATE('=') && before) {
		d = diag_error(pc->c, *loc, "expected '=' after '%s', found %s", before, found);
	} else if (tok == YYTRANSLATE('=') && has(exp, n, YYTRANSLATE(',')) && before) {
		d = diag_error(pc->c, *loc, "unexpected '='; is a ',' missing before '%s'?", before);
	} else if (tok == YYTRANSLATE(',') && loc->off > 0 && text[loc->off - 1] >= '0' &&
		   text[loc->off - 1] <= '9' && text[loc->off + 1] >= '0' && text[loc->off + 1] <= '9') {
		d = diag_error(pc->c, *loc, "unexpected ',' in a number: group digits with '_', as in "
					    "2_000_000");
	} else if (want) {
		d = diag_error(pc->c, *loc, "unexpected %s; expected %s", found, want);
	} else {
		d = diag_error(pc->c, *loc, "unexpected %s", found);
	}
	diag_set_code(d, "syntax");
	/* An expected closing bracket: show where it was opened. */
	if (lx->nparens > 0 && tok != YYSYMBOL_YYEOF &&
	    (has(exp, n, (yysymbol_kind_t)YYTRANSLATE(')')) || has(exp, n, (yysymbol_kind_t)YYTRANSLATE(']')))) {
		OpenBracket ob = lx->parens[lx->nparens - 1];
		diag_note(d, (Loc){pc->src, ob.off, ob.off + 1}, "'%c' opened here is not closed", ob.ch);
	}
	if (tok == YYSYMBOL_YYEOF)
		lx->fatal = true;
	stop_if_too_many(pc);
	return 0;
}

static void yyerror(YYLTYPE *loc, void *scanner, ParseCtx *pc, const char *msg)
{
	(void)scanner;
	pc->syntax_errors++;
	if (strstr(msg, "exhausted"))
		diag_error(pc->c, *loc, "expression nested too deeply");
	else
		diag_error(pc->c, *loc, "%s", msg);
	pc->lex->fatal = true;
}

static void stop_if_too_many(ParseCtx *pc)
{
	if (diag_limit_reached(pc->c))
		pc->lex->fatal = true;
}

/* The name of a token as the scanner returns it, for dumps and tests. */
const char *parse_token_name(int token)
{
	return yysymbol_name(YYTRANSLATE(token));
}
