/*
 * ast.c — builders of the syntax tree, called from the grammar's actions (SQLite style: the
 * grammar says what, these say how). Every node gets the location it was written at. Each
 * expression records its depth; past MAX_NESTING the subtree is replaced by an error node
 * after one diagnostic, which bounds the recursion of every later walk over the tree.
 */
#include "parse.h"

#include <string.h>

const char *const expr_kind_names[] = {
#define X(k, s) s,
	EXPR_KINDS(X)
#undef X
};

const char *const cmp_op_names[] = {"<=", "<", ">=", ">", "=="};

PtrVec *ast_vec(ParseCtx *p)
{
	return arena_alloc(p->c->arena, sizeof(PtrVec));
}

void ast_push(ParseCtx *p, PtrVec *v, void *item)
{
	if (v && item)
		vec_push(p->c->arena, v, item);
}

bool ast_spans_lines(const Source *src, Loc loc)
{
	return loc.src && memchr(src->text + loc.off, '\n', loc.end - loc.off) != NULL;
}

Expr *ast_expr(Ctx *c, ExprKind k, Loc loc)
{
	Expr *e = arena_alloc(c->arena, sizeof *e);
	e->kind = k;
	e->loc = loc;
	e->depth = 1;
	return e;
}

/* Depth bookkeeping: a node one deeper than its deepest child; too deep becomes an error node. */
static Expr *deepen(ParseCtx *p, Expr *e, int child_depth)
{
	if (child_depth + 1 <= MAX_NESTING) {
		e->depth = (uint16_t)(child_depth + 1);
		return e;
	}
	if (child_depth <= MAX_NESTING)
		diag_set_code(diag_error(p->c, e->loc, "expression nested more than %d deep",
					 MAX_NESTING), "limit");
	Expr *err = ast_expr(p->c, EXPR_ERROR, e->loc);
	err->depth = MAX_NESTING + 1; /* so enclosing nodes stay quiet */
	return err;
}

static int depth_of(const Expr *e)
{
	return e ? e->depth : 0;
}

Expr *ast_leaf(ParseCtx *p, ExprKind k, Loc loc)
{
	return ast_expr(p->c, k, loc);
}

Expr *ast_number(ParseCtx *p, NumTok n, Loc loc, const char *unit, Loc unit_loc)
{
	Expr *e = ast_expr(p->c, EXPR_NUMBER, unit ? loc_span(loc, unit_loc) : loc);
	e->num.value = n.value;
	e->num.text = n.text;
	e->num.unit = unit;
	e->num.unit_loc = unit ? unit_loc : NOLOC;
	return e;
}

Expr *ast_string(ParseCtx *p, StrTok s, Loc loc)
{
	Expr *e = ast_expr(p->c, EXPR_STRING, loc);
	e->str.value = s.value;
	e->str.text = s.text;
	return e;
}

Expr *ast_name(ParseCtx *p, const char *name, Loc loc)
{
	Expr *e = ast_expr(p->c, EXPR_NAME, loc);
	e->name = name;
	return e;
}

Expr *ast_member(ParseCtx *p, Expr *base, const char *field, Loc field_loc)
{
	/* Attributes belong to declarations: "16 .MW" or "(a).b" is a mistake, and formatting it
	 * back as "16.MW" would not even scan. */
	if (base->kind != EXPR_NAME && base->kind != EXPR_MEMBER && base->kind != EXPR_ERROR) {
		Loc at = loc_span(base->loc, field_loc);
		Diag *d = diag_error(p->c, at, "only the name of a declaration takes '.', as in "
					       "wanka.capex");
		diag_set_code(d, "syntax");
		return ast_expr(p->c, EXPR_ERROR, at);
	}
	Expr *e = ast_expr(p->c, EXPR_MEMBER, loc_span(base->loc, field_loc));
	e->member.base = base;
	e->member.field = field;
	e->member.field_loc = field_loc;
	return deepen(p, e, depth_of(base));
}

Arg *ast_arg(ParseCtx *p, const char *name, Loc name_loc, Expr *value)
{
	Arg *a = arena_alloc(p->c->arena, sizeof *a);
	a->name = name;
	a->name_loc = name_loc;
	a->value = value;
	return a;
}

Expr *ast_call(ParseCtx *p, const char *name, Loc name_loc, PtrVec *args, Loc loc)
{
	Expr *e = ast_expr(p->c, EXPR_CALL, loc);
	e->call.name = name;
	e->call.name_loc = name_loc;
	e->call.nargs = args->n;
	e->call.args = arena_alloc(p->c->arena, sizeof(Arg) * (size_t)(args->n ? args->n : 1));
	int d = 0;
	for (int i = 0; i < args->n; i++) {
		e->call.args[i] = *(Arg *)args->v[i];
		if (depth_of(e->call.args[i].value) > d)
			d = depth_of(e->call.args[i].value);
	}
	e->call.multiline = ast_spans_lines(p->src, loc);
	return deepen(p, e, d);
}

Expr *ast_list(ParseCtx *p, PtrVec *items, Loc loc)
{
	Expr *e = ast_expr(p->c, EXPR_LIST, loc);
	e->list.items = (Expr **)items->v;
	e->list.n = items->n;
	e->list.multiline = ast_spans_lines(p->src, loc);
	int d = 0;
	for (int i = 0; i < items->n; i++)
		if (depth_of(e->list.items[i]) > d)
			d = depth_of(e->list.items[i]);
	return deepen(p, e, d);
}

Expr *ast_range(ParseCtx *p, Expr *lo, Expr *hi, Expr *step, Loc loc)
{
	Expr *e = ast_expr(p->c, EXPR_RANGE, loc);
	e->range.lo = lo;
	e->range.hi = hi;
	e->range.step = step;
	int d = depth_of(lo);
	if (depth_of(hi) > d)
		d = depth_of(hi);
	if (depth_of(step) > d)
		d = depth_of(step);
	return deepen(p, e, d);
}

Expr *ast_bin(ParseCtx *p, ExprKind k, Expr *l, Expr *r, Loc loc)
{
	Expr *e = ast_expr(p->c, k, loc);
	e->bin.l = l;
	e->bin.r = r;
	int d = depth_of(l) > depth_of(r) ? depth_of(l) : depth_of(r);
	return deepen(p, e, d);
}

Expr *ast_un(ParseCtx *p, ExprKind k, Expr *inner, Loc loc)
{
	Expr *e = ast_expr(p->c, k, loc);
	e->inner = inner;
	return deepen(p, e, depth_of(inner));
}

Expr *ast_binary(Ctx *c, ExprKind k, Expr *l, Expr *r)
{
	Expr *e = ast_expr(c, k, loc_span(l->loc, r->loc));
	e->bin.l = l;
	e->bin.r = r;
	e->depth = (uint16_t)((l->depth > r->depth ? l->depth : r->depth) + 1);
	return e;
}

Expr *ast_unary(Ctx *c, ExprKind k, Expr *inner, Loc loc)
{
	Expr *e = ast_expr(c, k, loc);
	e->inner = inner;
	e->depth = (uint16_t)(inner->depth + 1);
	return e;
}

bool expr_is_name(const Expr *e, const char *name)
{
	return e && e->kind == EXPR_NAME && strcmp(e->name, name) == 0;
}

Field *ast_field(ParseCtx *p, const char *name, Loc name_loc, Expr *value)
{
	Field *f = arena_alloc(p->c->arena, sizeof *f);
	f->name = name;
	f->name_loc = name_loc;
	f->value = value;
	f->loc = loc_span(name_loc, value->loc);
	return f;
}

Decl *ast_decl(ParseCtx *p, const char *kind, Loc kind_loc, const char *name, Loc name_loc,
	       const char *parent, Loc parent_loc, PtrVec *fields, Loc body, Loc loc)
{
	Decl *d = arena_alloc(p->c->arena, sizeof *d);
	d->kind_word = kind;
	d->kind = kind_lookup(kind);
	d->kind_loc = kind_loc;
	d->name = name;
	d->name_loc = name_loc;
	d->parent_name = parent;
	d->parent_loc = parent ? parent_loc : NOLOC;
	d->fields = (Field **)fields->v;
	d->nfields = fields->n;
	d->loc = loc;
	d->body = body;
	d->one_line = !ast_spans_lines(p->src, body);
	d->index = -1;
	return d;
}

static Stmt *new_stmt(ParseCtx *p, StmtKind k, Loc loc)
{
	Stmt *s = arena_alloc(p->c->arena, sizeof *s);
	s->kind = k;
	s->loc = loc;
	return s;
}

Stmt *ast_decl_stmt(ParseCtx *p, Decl *d)
{
	Stmt *s = new_stmt(p, STMT_DECL, d->loc);
	s->decl = d;
	return s;
}

Stmt *ast_scenario(ParseCtx *p, const char *name, Loc name_loc, const char *parent,
		   Loc parent_loc, PtrVec *items, Loc body, Loc loc)
{
	Scenario *sc = arena_alloc(p->c->arena, sizeof *sc);
	sc->name = name;
	sc->name_loc = name_loc;
	sc->parent_name = parent;
	sc->parent_loc = parent ? parent_loc : NOLOC;
	sc->items = (Stmt **)items->v;
	sc->nitems = items->n;
	sc->loc = loc;
	sc->body = body;
	sc->one_line = !ast_spans_lines(p->src, body);
	Stmt *s = new_stmt(p, STMT_SCENARIO, loc);
	s->scenario = sc;
	return s;
}

Stmt *ast_import_module(ParseCtx *p, const char *module, Loc target, Loc loc)
{
	Stmt *s = new_stmt(p, STMT_IMPORT, loc);
	s->import.module = module;
	s->import.target_loc = target;
	return s;
}

Stmt *ast_import_path(ParseCtx *p, StrTok path, Loc target, Loc loc)
{
	Stmt *s = new_stmt(p, STMT_IMPORT, loc);
	s->import.path = path.value;
	s->import.target_loc = target;
	return s;
}

Stmt *ast_require(ParseCtx *p, Expr *l, CmpOp op, Loc op_loc, Expr *r, Loc loc)
{
	Stmt *s = new_stmt(p, STMT_REQUIRE, loc);
	s->require.lhs = l;
	s->require.rhs = r;
	s->require.op = op;
	s->require.op_loc = op_loc;
	s->require.loc = loc;
	return s;
}

Stmt *ast_objective(ParseCtx *p, bool maximize, Expr *e, Loc loc)
{
	Stmt *s = new_stmt(p, STMT_OBJECTIVE, loc);
	s->objective.maximize = maximize;
	s->objective.expr = e;
	s->objective.loc = loc;
	return s;
}

Stmt *ast_override(ParseCtx *p, Path *path, Expr *value, Loc loc)
{
	Stmt *s = new_stmt(p, STMT_OVERRIDE, loc);
	s->override.path = *path;
	s->override.value = value;
	s->override.loc = loc;
	return s;
}
