/*
 * parse.h — what the scanner (lexer.l), the grammar (parser.y) and the tree builders (ast.c)
 * share, and nobody else needs.
 */
#ifndef CLUSTERC_PARSE_H
#define CLUSTERC_PARSE_H

#include "lang.h"

/* An open bracket the scanner has seen and not yet seen closed. */
typedef struct OpenBracket {
	uint32_t off;
	char ch;
} OpenBracket;

typedef struct LexState {
	Ctx *c;
	Source *src;
	uint32_t off;      /* byte offset of the next character */
	int start_token;   /* emitted once before anything else; 0 afterwards */
	int last_token;    /* decides whether a newline ends a statement */
	OpenBracket parens[MAX_NESTING + 1]; /* ( and [ */
	int nparens;
	OpenBracket braces[MAX_NESTING + 1]; /* { */
	int nbraces;
	bool fatal;        /* the rest of the file is not worth reading */
	Comment *comments;
	int ncomments, capcomments;
} LexState;

typedef struct ParseCtx {
	Ctx *c;
	Source *src;
	LexState *lex;
	void *scanner;
	PtrVec stmts;
	Stmt *override; /* parse_override's result */
	int syntax_errors;
} ParseCtx;

/* Numbers and strings as the scanner hands them over. */
typedef struct NumTok {
	double value;
	const char *text;
} NumTok;

typedef struct StrTok {
	const char *value;
	const char *text;
} StrTok;

/* Builders called from grammar actions (ast.c). Each returns a node owned by the arena. */
Expr *ast_number(ParseCtx *p, NumTok n, Loc loc, const char *unit, Loc unit_loc);
Expr *ast_string(ParseCtx *p, StrTok s, Loc loc);
Expr *ast_name(ParseCtx *p, const char *name, Loc loc);
Expr *ast_member(ParseCtx *p, Expr *base, const char *field, Loc field_loc);
Expr *ast_call(ParseCtx *p, const char *name, Loc name_loc, PtrVec *args, Loc loc);
Expr *ast_list(ParseCtx *p, PtrVec *items, Loc loc);
Expr *ast_range(ParseCtx *p, Expr *lo, Expr *hi, Expr *step, Loc loc);
Expr *ast_bin(ParseCtx *p, ExprKind k, Expr *l, Expr *r, Loc loc);
Expr *ast_un(ParseCtx *p, ExprKind k, Expr *inner, Loc loc);
Expr *ast_leaf(ParseCtx *p, ExprKind k, Loc loc);
Arg *ast_arg(ParseCtx *p, const char *name, Loc name_loc, Expr *value);
Field *ast_field(ParseCtx *p, const char *name, Loc name_loc, Expr *value);
Decl *ast_decl(ParseCtx *p, const char *kind, Loc kind_loc, const char *name, Loc name_loc,
	       const char *parent, Loc parent_loc, PtrVec *fields, Loc body, Loc loc);
Stmt *ast_scenario(ParseCtx *p, const char *name, Loc name_loc, const char *parent,
		   Loc parent_loc, PtrVec *items, Loc body, Loc loc);
Stmt *ast_import_module(ParseCtx *p, const char *module, Loc target, Loc loc);
Stmt *ast_import_path(ParseCtx *p, StrTok path, Loc target, Loc loc);
Stmt *ast_decl_stmt(ParseCtx *p, Decl *d);
Stmt *ast_require(ParseCtx *p, Expr *l, CmpOp op, Loc op_loc, Expr *r, Loc loc);
Stmt *ast_objective(ParseCtx *p, bool maximize, Expr *e, Loc loc);
Stmt *ast_override(ParseCtx *p, Path *path, Expr *value, Loc loc);
PtrVec *ast_vec(ParseCtx *p);
void ast_push(ParseCtx *p, PtrVec *v, void *item);
bool ast_spans_lines(const Source *src, Loc loc);

/* The name of a token kind ("name", "'='", "end of line"). */
const char *parse_token_name(int token);

/* The scanner's entry points (lexer.l). */
void lex_record_comment(LexState *st, uint32_t off, uint32_t end, bool block);

#endif
