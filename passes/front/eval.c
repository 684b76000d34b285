/*
 * eval.c — constant quantities and the dimensions of expressions.
 *
 * Field values are constants: numbers with units combined by + - * / and parentheses. eval_qty
 * folds them into a Qty in base units, checking dimensions as it goes ("cannot add power and
 * bandwidth"). The expressions of require and objectives also read derived attributes
 * (wanka.capex) whose values only later passes know; eval_expr_dim infers their dimension
 * without a value, so a mismatched requirement is still a compile-time error.
 */
#include "passes.h"

#include <math.h>
#include <string.h>

const char *eval_describe(const Expr *e)
{
	switch (e->kind) {
	case EXPR_NUMBER: return e->num.unit ? "a quantity" : "a number";
	case EXPR_STRING: return "a string";
	case EXPR_BOOL: return e->boolean ? "true" : "false";
	case EXPR_AUTO: return "auto";
	case EXPR_NAME: return "a name";
	case EXPR_MEMBER: return "an attribute";
	case EXPR_CALL: return strcmp(e->call.name, "one_of") == 0 ? "one_of(...)" : "a constructor call";
	case EXPR_LIST: return "a list";
	case EXPR_TIMES: return "a multiplicity (N x NAME)";
	case EXPR_RATIO: return "a ratio";
	case EXPR_RANGE: return "a range";
	default: return "an expression";
	}
}

/* The operator of a binary expression: the first character between its operands that is not
 * a space (so the caret points at it and the operands are underlined). */
static Loc op_loc(const Expr *e)
{
	Loc at = {e->loc.src, e->bin.l->loc.end, e->bin.l->loc.end + 1};
	const char *t = e->loc.src->text;
	while (at.off < e->bin.r->loc.off && (t[at.off] == ' ' || t[at.off] == '\t' || t[at.off] == '\n'))
		at.off++;
	at.end = at.off + 1;
	return at.off < e->bin.r->loc.off ? at : e->loc;
}

/* A dimension in a sentence: "power", or "a number without a unit" for none. */
const char *eval_dim_phrase(Dim d, char *buf, size_t n)
{
	if (dim_is_none(d)) {
		snprintf(buf, n, "a number without a unit");
		return buf;
	}
	return dim_name(d, buf, n);
}

/* Advice for the usual ways two dimensions end up side by side. */
static void mismatch_hint(Diag *d, Dim a, Dim b)
{
	if (dim_currency(a) >= 0 && dim_eq(dim_mul(b, dim_make(0, 0, 1, 0, 0, 0)), a) &&
	    !dim_eq(a, b))
		diag_note(d, NOLOC, "the right side is money per time: multiply it by a period, as in "
				    "5 y * wanka.energy_cost");
	else if (dim_currency(b) >= 0 && dim_eq(dim_mul(a, dim_make(0, 0, 1, 0, 0, 0)), b))
		diag_note(d, NOLOC, "the left side is money per time: multiply it by a period, as in "
				    "5 y * wanka.energy_cost");
	else if (dim_is_none(a) || dim_is_none(b))
		diag_note(d, NOLOC, "give the number a unit");
}

/* "cannot add power and bandwidth"; currencies get their own advice. */
static void mismatch(Program *p, const Expr *e, const char *verb, Dim a, Dim b)
{
	char na[96], nb[96];
	eval_dim_phrase(a, na, sizeof na);
	eval_dim_phrase(b, nb, sizeof nb);
	int ca = dim_currency(a), cb = dim_currency(b);
	Diag *d;
	if (ca >= 0 && cb >= 0 && ca != cb && dim_eq(dim_strip_money(a), dim_strip_money(b)))
		d = diag_error(p->c, op_loc(e),
			       "cannot %s %s and %s: currencies are never converted silently; "
			       "multiply by a rate such as 7.1 %s/%s",
			       verb, na, nb, currency_name(ca), currency_name(cb));
	else
		d = diag_error(p->c, op_loc(e), "cannot %s %s and %s", verb, na, nb);
	diag_set_code(d, "dimension-mismatch");
	diag_range(d, e->bin.l->loc);
	diag_range(d, e->bin.r->loc);
	mismatch_hint(d, a, b);
}

/* The unit of a number, with a diagnostic pointing into the unit text when it is unknown. */
bool eval_unit(Program *p, const Expr *e, Qty *out)
{
	const char *err, *sug;
	size_t off, len;
	if (unit_parse(e->num.unit, strlen(e->num.unit), out, &err, &off, &len, &sug))
		return true;
	Loc at = e->num.unit_loc;
	if (off < at.end - at.off) {
		at.off += (uint32_t)off;
		if (len && at.off + len <= e->num.unit_loc.end)
			at.end = at.off + (uint32_t)len;
	}
	/* A declaration's name right after a number is a multiplicity without its 'x'. */
	Decl *named = table_get(&p->names, intern_cstr(p->c, e->num.unit));
	if (named) {
		Diag *d = diag_error(p->c, e->num.unit_loc, "'%s' is not a unit but a declaration: to "
							    "count it, write %s x %s",
				     e->num.unit, e->num.text, e->num.unit);
		diag_set_code(d, "missing-x");
		return false;
	}
	/* unit_parse's messages are fixed strings; name the symbol here. */
	const char *what = err;
	if (strcmp(err, "unknown unit") == 0)
		what = arena_printf(p->c->arena, "unknown unit '%.*s'", (int)(at.end - at.off),
				    at.src->text + at.off);
	Diag *d = sug ? diag_error(p->c, at, "%s; did you mean '%s'?", what, sug)
		      : diag_error(p->c, at, "%s", what);
	diag_set_code(d, "unknown-unit");
	if (sug)
		diag_set_suggestion(d, sug);
	/* `1e` reads as 1 with a unit 'e': an exponent lost its digits. */
	if (!sug && (strcmp(e->num.unit, "e") == 0 || strcmp(e->num.unit, "E") == 0))
		diag_note(d, NOLOC, "an exponent needs digits after '%s', as in %s%s9", e->num.unit,
			  e->num.text, e->num.unit);
	return false;
}

static bool is_unit_name(const char *s)
{
	Qty q;
	const char *err, *sug;
	size_t off, len;
	return unit_parse(s, strlen(s), &q, &err, &off, &len, &sug);
}

static void not_constant(Program *p, const Expr *e)
{
	Diag *d;
	if (e->kind == EXPR_NAME && is_unit_name(e->name)) {
		d = diag_error(p->c, e->loc, "'%s' is a unit: write it right after the number, "
					     "without spaces inside, as in 0.60 CNY/kWh", e->name);
		diag_set_code(d, "unit-spacing");
	} else if (e->kind == EXPR_NAME || e->kind == EXPR_MEMBER) {
		d = diag_error(p->c, e->loc, "a field's value is a constant: %s cannot be used in "
					     "arithmetic here (attributes are read in require and "
					     "objectives)", eval_describe(e));
		diag_set_code(d, "not-constant");
	} else {
		d = diag_error(p->c, e->loc, "expected a number, found %s", eval_describe(e));
		diag_set_code(d, "type");
	}
}

/* A value past the largest double is an error at the expression that made it. */
static bool finite_or_report(Program *p, const Expr *e, double v)
{
	if (isfinite(v))
		return true;
	Diag *d = e->kind == EXPR_NUMBER
			  ? diag_error(p->c, e->loc, "the quantity is too large: in base units "
						     "it passes the largest number, about 1.8e308")
			  : diag_error(p->c, e->loc, "the result is too large");
	diag_set_code(d, "overflow");
	return false;
}

bool eval_qty(Program *p, const Expr *e, Qty *out)
{
	Qty l, r;
	switch (e->kind) {
	case EXPR_NUMBER:
		if (!e->num.unit) {
			*out = (Qty){e->num.value, DIM_NONE};
			return true;
		}
		if (!eval_unit(p, e, &l))
			return false;
		*out = (Qty){e->num.value * l.v, l.dim};
		return finite_or_report(p, e, out->v); /* 1e308 MW is 1e314 W */
	case EXPR_PAREN:
		return eval_qty(p, e->inner, out);
	case EXPR_NEG:
		if (!eval_qty(p, e->inner, out))
			return false;
		out->v = -out->v;
		return true;
	case EXPR_ADD:
	case EXPR_SUB: {
		bool okl = eval_qty(p, e->bin.l, &l), okr = eval_qty(p, e->bin.r, &r);
		if (!okl || !okr)
			return false;
		if (!dim_eq(l.dim, r.dim)) {
			mismatch(p, e, e->kind == EXPR_ADD ? "add" : "subtract", l.dim, r.dim);
			return false;
		}
		*out = (Qty){e->kind == EXPR_ADD ? l.v + r.v : l.v - r.v, l.dim};
		return finite_or_report(p, e, out->v);
	}
	case EXPR_MUL:
	case EXPR_DIV: {
		bool okl = eval_qty(p, e->bin.l, &l), okr = eval_qty(p, e->bin.r, &r);
		if (!okl || !okr)
			return false;
		if (e->kind == EXPR_DIV && r.v == 0) {
			Diag *d = diag_error(p->c, e->bin.r->loc, "division by zero");
			diag_set_code(d, "division-by-zero");
			return false;
		}
		out->v = e->kind == EXPR_MUL ? l.v * r.v : l.v / r.v;
		out->dim = e->kind == EXPR_MUL ? dim_mul(l.dim, r.dim) : dim_div(l.dim, r.dim);
		return finite_or_report(p, e, out->v);
	}
	case EXPR_ERROR:
		return false;
	default:
		not_constant(p, e);
		return false;
	}
}

/* The report currency of a cluster: its `currency`, else that of its site's electricity
 * price, else USD. */
int eval_currency(const Decl *cluster)
{
	const Value *v = decl_value(cluster, "currency");
	if (v && v->kind == VAL_ENUM)
		return currency_lookup(v->s);
	const Value *site = decl_value(cluster, "site");
	if (site && site->kind == VAL_REF) {
		const Value *e = decl_value(site->ref, "electricity");
		if (e && e->kind == VAL_QTY && dim_currency(e->q.dim) >= 0)
			return dim_currency(e->q.dim);
	}
	return currency_lookup("USD");
}

/* In require and objectives, money reads in the report currency whenever the cluster's
 * exchange rates connect it (the model converts the same way), so a USD price compares with a
 * CNY capex once a CNY/USD rate is declared. */
static Dim in_report_currency(Program *p, Dim d)
{
	int cur = dim_currency(d);
	if (cur < 0)
		return d;
	const Decl *cluster = NULL;
	for (int i = 0; i < p->decls.n && !cluster; i++)
		if (((Decl *)p->decls.v[i])->kind == KIND_CLUSTER)
			cluster = p->decls.v[i];
	if (!cluster)
		return d;
	int rep = eval_currency(cluster);
	bool linked = cur == rep;
	const Value *rates = decl_value(cluster, "exchange_rates");
	for (int i = 0; !linked && rates && rates->kind == VAL_LIST && i < rates->n; i++) {
		if (!rates->items[i])
			continue; /* a rate that did not check */
		Dim r = rates->items[i]->q.dim;
		linked = r.e[DIM_FIRST_CURRENCY + cur] != 0 && r.e[DIM_FIRST_CURRENCY + rep] != 0;
	}
	if (!linked)
		return d;
	int k = d.e[DIM_FIRST_CURRENCY + cur];
	d.e[DIM_FIRST_CURRENCY + cur] = 0;
	d.e[DIM_FIRST_CURRENCY + rep] = (int8_t)k;
	return d;
}

/* The dimension of DECL.FIELD (or DECL.FIELD.PARAM) in a require or objective. */
static bool member_dim(Program *p, const Expr *e, Dim *out)
{
	const Expr *chain[3];
	int n = 0;
	const Expr *x = e;
	while (x->kind == EXPR_MEMBER && n < 3) {
		chain[n++] = x;
		x = x->member.base;
	}
	if (x->kind != EXPR_NAME || n > 2) {
		Diag *d = diag_error(p->c, e->loc, "expected DECLARATION.ATTRIBUTE, as in wanka.capex");
		diag_set_code(d, "attribute-path");
		return false;
	}
	Decl *d = resolve_decl_name(p, x->name, x->loc, ~0u, "name");
	if (!d || d->kind < 0)
		return false;
	const Expr *m = chain[n - 1];
	const FieldSchema *fs = schema_field(d->kind, m->member.field);
	if (!fs) {
		int nf = kind_schemas[d->kind].nfields;
		const char **cands = arena_alloc(p->c->arena, sizeof(char *) * (size_t)nf);
		for (int i = 0; i < nf; i++)
			cands[i] = kind_schemas[d->kind].fields[i].name;
		const char *s = suggest(m->member.field, cands, nf);
		Diag *dg = s ? diag_error(p->c, m->member.field_loc,
					  "%s '%s' has no attribute '%s'; did you mean '%s'?",
					  decl_kind_name(d->kind), d->name, m->member.field, s)
			     : diag_error(p->c, m->member.field_loc, "%s '%s' has no attribute '%s'",
					  decl_kind_name(d->kind), d->name, m->member.field);
		diag_set_code(dg, "unknown-field");
		if (s)
			diag_set_suggestion(dg, s);
		return false;
	}
	if (n == 2) {
		const Value *v = decl_value(d, fs->name);
		const FieldSchema *ps = v && v->kind == VAL_CTOR ? ctor_param(v->ctor, chain[0]->member.field) : NULL;
		if (v && v->kind == VAL_REF) {
			Diag *dg = diag_error(p->c, e->loc, "'%s.%s' names %s '%s': write %s.%s",
					      d->name, fs->name, decl_kind_name(v->ref->kind), v->ref->name,
					      v->ref->name, chain[0]->member.field);
			diag_set_code(dg, "attribute-path");
			return false;
		}
		if (!ps) {
			Diag *dg = diag_error(p->c, chain[0]->member.field_loc, "'%s.%s' has no parameter '%s'",
					      d->name, fs->name, chain[0]->member.field);
			diag_set_code(dg, "unknown-param");
			return false;
		}
		fs = ps;
	}
	if (fs->type == FT_INT || fs->type == FT_REAL || fs->type == FT_RATIO) {
		*out = DIM_NONE;
		return true;
	}
	if (fs->type != FT_QTY) {
		Diag *dg = diag_error(p->c, e->loc, "'%s' of %s '%s' is not a quantity", fs->name,
				      decl_kind_name(d->kind), d->name);
		diag_set_code(dg, "type");
		return false;
	}
	*out = fs->dim;
	if (!fs->money_exp)
		return true;
	int cur = -1;
	if (fs->flags & F_READONLY) {
		const Decl *cl = d;
		if (d->kind == KIND_WORKLOAD) {
			const Value *cv = decl_value(d, "cluster");
			cl = cv && cv->kind == VAL_REF ? cv->ref : NULL;
		}
		cur = cl ? eval_currency(cl) : currency_lookup("USD");
	} else {
		const Value *v = decl_value(d, fs->name);
		if (!v || v->kind != VAL_QTY) {
			Diag *dg = diag_error(p->c, e->loc, "'%s.%s' is not set", d->name, fs->name);
			diag_set_code(dg, "unset");
			return false;
		}
		cur = dim_currency(v->q.dim);
	}
	*out = dim_with_money(fs->dim, cur, fs->money_exp);
	return true;
}

/* eval_expr_dim, and in *cv the expression's value in base units while it is made only of
 * numbers (NAN once it reads an attribute): a constant divisor of zero and an overflow are
 * caught where they occur, each sub-expression evaluated once. */
static bool expr_dim(Program *p, const Expr *e, Dim *out, double *cv)
{
	Dim l, r;
	double lv, rv;
	*cv = NAN;
	switch (e->kind) {
	case EXPR_NUMBER: {
		Qty q;
		if (!eval_qty(p, e, &q))
			return false;
		*out = in_report_currency(p, q.dim);
		*cv = q.v;
		return true;
	}
	case EXPR_MEMBER:
		if (!member_dim(p, e, out))
			return false;
		*out = in_report_currency(p, *out);
		return true;
	case EXPR_PAREN:
	case EXPR_NEG:
		if (!expr_dim(p, e->inner, out, cv))
			return false;
		*cv = e->kind == EXPR_NEG ? -*cv : *cv;
		return true;
	case EXPR_ADD:
	case EXPR_SUB: {
		bool okl = expr_dim(p, e->bin.l, &l, &lv), okr = expr_dim(p, e->bin.r, &r, &rv);
		if (!okl || !okr)
			return false;
		if (!dim_eq(l, r)) {
			mismatch(p, e, e->kind == EXPR_ADD ? "add" : "subtract", l, r);
			return false;
		}
		*out = l;
		*cv = e->kind == EXPR_ADD ? lv + rv : lv - rv;
		return isnan(*cv) || finite_or_report(p, e, *cv);
	}
	case EXPR_MUL:
	case EXPR_DIV: {
		bool okl = expr_dim(p, e->bin.l, &l, &lv), okr = expr_dim(p, e->bin.r, &r, &rv);
		if (!okl || !okr)
			return false;
		if (e->kind == EXPR_DIV && rv == 0) {
			Diag *d = diag_error(p->c, e->bin.r->loc, "division by zero");
			diag_set_code(d, "division-by-zero");
			return false;
		}
		*out = e->kind == EXPR_MUL ? dim_mul(l, r) : dim_div(l, r);
		*cv = e->kind == EXPR_MUL ? lv * rv : lv / rv;
		return isnan(*cv) || finite_or_report(p, e, *cv);
	}
	case EXPR_NAME: {
		if (!table_get(&p->names, e->name) && is_unit_name(e->name)) {
			not_constant(p, e);
			return false;
		}
		Decl *d = resolve_decl_name(p, e->name, e->loc, ~0u, "name");
		if (!d || d->kind < 0)
			return false;
		/* Offer the kind's first derived attribute, else its first number. */
		const KindSchema *ks = &kind_schemas[d->kind];
		const char *example = NULL;
		for (int i = 0; i < ks->nfields && !example; i++)
			if (ks->fields[i].flags & F_READONLY)
				example = ks->fields[i].name;
		for (int i = 0; i < ks->nfields && !example; i++)
			if (ks->fields[i].type == FT_QTY || ks->fields[i].type == FT_INT)
				example = ks->fields[i].name;
		Diag *dg = diag_error(p->c, e->loc, "'%s' is a %s, not a quantity; read one of its "
						    "attributes, as in %s.%s",
				      e->name, decl_kind_name(d->kind), e->name, example ? example : "name");
		diag_set_code(dg, "type");
		return false;
	}
	case EXPR_ERROR:
		return false;
	default: {
		Diag *d = diag_error(p->c, e->loc, "expected a quantity, found %s", eval_describe(e));
		diag_set_code(d, "type");
		return false;
	}
	}
}

bool eval_expr_dim(Program *p, const Expr *e, Dim *out)
{
	double cv;
	return expr_dim(p, e, out, &cv);
}
