/*
 * optimize.c — the open choices of a spec as a mixed-integer linear program, solved by GLPK
 * (docs/optimization.md gives the formulation and the reasoning behind each part).
 *
 * Families and factors. Every open choice is a family of options, exactly one chosen: a binary
 * x(F, i) per option, Σi x(F, i) = 1. The design's totals (capex, facility power, racks, energy
 * ...) are sums of parts, and each part depends on a few families only (a factor):
 *   NODES     the nodes, their racks, cooling and power plant, storage and other loads;
 *   FABRIC f  fabric f's switches, fabric devices, network racks and their share of cooling and
 *             power (the design with it alone, less the NODES part);
 *   WORK      the workloads' predictions (time to train ...), on the planner's inputs alone.
 * A factor's families are the open choices its passes read (factor.c: typed field access
 * records each read of a field holding one), so a part is a function of its families alone.
 * For a factor over several families, a binary w(φ, o) per joint option o with marginal rows
 * Σ{o: o_F = i} w(φ, o) = x(F, i) makes w the indicator of the joint choice — exact, no big-M.
 * Each part's value for each joint option is computed by the same passes a build runs
 * (racks.c, fabric.c, place.c, model.c, plan.c), with the other fabrics left out, so the model
 * is the design's own arithmetic, tabulated: aggregate variables per choice, never per cable.
 *
 * Rows: the floor's rack positions, the site's power budget (unless a require states it), and
 * every require line — each a linear expression of the design's attributes, which are linear
 * in the w and x. Objectives: those written, in order (lexicographically), then "options in the
 * order written", so ties always break the same way. Joint options a part cannot be built with
 * (a node too big for the rack, a fabric its switch cannot make) are fixed to 0.
 *
 * When the requirements cannot all hold, an elastic copy (a slack on every row, the sum of
 * relative slacks minimized) finds the smallest relaxation that would work and the design that
 * needs it; both are reported (exit 2). For each choice, the best design with another option
 * there is solved too: what the choice saved.
 */
#include "optimize.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- atoms ---------------------------------------------------------------------------------- */

static bool same_member(const Expr *a, const Expr *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == EXPR_NAME)
		return a->name == b->name;
	if (a->kind != EXPR_MEMBER)
		return false;
	return a->member.field == b->member.field && same_member(a->member.base, b->member.base);
}

static int atom_of(Opt *o, const Expr *e)
{
	for (int i = 0; i < o->natoms; i++)
		if (same_member(o->atoms[i].e, e))
			return i;
	if (o->natoms == o->cap_atoms) {
		int cap = o->cap_atoms ? o->cap_atoms * 2 : 16;
		Atom *na = arena_alloc(o->a, sizeof(Atom) * (size_t)cap);
		if (o->natoms)
			memcpy(na, o->atoms, sizeof(Atom) * (size_t)o->natoms);
		o->atoms = na;
		o->cap_atoms = cap;
	}
	Atom *at = &o->atoms[o->natoms];
	*at = (Atom){.e = e, .kind = ATOM_CONST, .fabric = -1};
	const Decl *decl;
	const FieldSchema *fs = check_member_field(o->d->p, e, &decl);
	if (fs && (fs->flags & F_READONLY)) {
		at->kind = decl->kind == KIND_WORKLOAD ? ATOM_WORK : ATOM_TOTAL;
		at->flags = fs->flags;
	}
	if (at->kind == ATOM_TOTAL && decl->kind == KIND_CLUSTER &&
	    !strcmp(e->member.field, "bisection_bandwidth"))
		at->kind = ATOM_FABRIC, at->fabric = 0;
	/* The cluster's job_mtbf: its parts' rates add (a job is its parts in series,
	 * docs/reliability.md), its mtbf does not; the factors tabulate the rate. */
	if (at->kind == ATOM_TOTAL && decl->kind == KIND_CLUSTER && !strcmp(e->member.field, "job_mtbf"))
		at->rate = true;
	if (at->kind == ATOM_TOTAL && decl->kind == KIND_FABRIC) {
		const Value *fv = field_value(o->d->cluster, FLD_CLUSTER_FABRICS);
		for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++)
			if (fv->items[i]->kind == VAL_REF && fv->items[i]->ref == decl)
				at->kind = ATOM_FABRIC, at->fabric = i;
	}
	if (at->kind == ATOM_CONST) {
		Qty q = {0, DIM_NONE};
		judge_eval(o->d, e, &q, false);
		at->value = q.v;
	}
	return o->natoms++;
}

/* Whether an expression reads only numbers and attributes that no choice changes (a settable
 * field such as cluster.horizon: ATOM_CONST), so a product with it stays linear. */
static bool constant(Opt *o, const Expr *e)
{
	switch (e->kind) {
	case EXPR_NUMBER: return true;
	case EXPR_MEMBER: {
		const FieldSchema *fs = check_member_field(o->d->p, e, NULL);
		return fs && !(fs->flags & F_CHOOSABLE) && o->atoms[atom_of(o, e)].kind == ATOM_CONST;
	}
	case EXPR_PAREN:
	case EXPR_NEG: return constant(o, e->inner);
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV: return constant(o, e->bin.l) && constant(o, e->bin.r);
	default: return false;
	}
}

/* A linear form over the atoms: coef[atom] and a constant. False when the expression is not
 * linear in them (a product of two attributes). */
static bool linear(Opt *o, const Expr *e, double *coef, double *k, double scale)
{
	switch (e->kind) {
	case EXPR_NUMBER: {
		Qty q;
		if (!judge_eval(o->d, e, &q, false))
			return false;
		*k += scale * q.v;
		return true;
	}
	case EXPR_MEMBER: {
		int i = atom_of(o, e);
		if (o->atoms[i].rate)
			return false; /* an mtbf is no sum: only rate_form takes it */
		if (o->atoms[i].kind == ATOM_CONST)
			*k += scale * o->atoms[i].value;
		else
			coef[i] += scale;
		return true;
	}
	case EXPR_PAREN:
		return linear(o, e->inner, coef, k, scale);
	case EXPR_NEG:
		return linear(o, e->inner, coef, k, -scale);
	case EXPR_ADD:
	case EXPR_SUB:
		return linear(o, e->bin.l, coef, k, scale) &&
		       linear(o, e->bin.r, coef, k, e->kind == EXPR_ADD ? scale : -scale);
	case EXPR_MUL:
	case EXPR_DIV: {
		/* One side must be a constant: numbers, and fields no choice changes. */
		const Expr *cst = e->kind == EXPR_MUL && constant(o, e->bin.l) ? e->bin.l : e->bin.r;
		const Expr *var = cst == e->bin.l ? e->bin.r : e->bin.l;
		if (!constant(o, cst))
			return false;
		Qty q;
		if (!judge_eval(o->d, cst, &q, false) || (e->kind == EXPR_DIV && q.v == 0))
			return false;
		return linear(o, var, coef, k, e->kind == EXPR_MUL ? scale * q.v : scale / q.v);
	}
	default:
		return false;
	}
}

/* The rate atom an expression is, alone (in parentheses or not), or -1. */
static int rate_atom(Opt *o, const Expr *e)
{
	while (e->kind == EXPR_PAREN)
		e = e->inner;
	if (e->kind != EXPR_MEMBER)
		return -1;
	int a = atom_of(o, e);
	return o->atoms[a].rate ? a : -1;
}

/* A require on cluster.job_mtbf, written as the attribute alone against a positive constant X
 * (either side), as a row on its rate (RATE_UNIT / the mtbf), exactly: mtbf >= X is rate <= 1/X,
 * mtbf <= X is rate >= 1/X (the senses flip), X <= mtbf is rate <= 1/X. Sets coef, k (the row reads
 * coef·atoms + k SENSE 0), the sense and the limit X; false when the require is not of that
 * form (it then reads no rate atom, or is not linear: the exhaustive search decides). */
static bool rate_form(Opt *o, const Require *rq, double *coef, double *k, char *sense,
		      double *limit)
{
	int a = rate_atom(o, rq->lhs);
	bool left = a >= 0;
	if (!left)
		a = rate_atom(o, rq->rhs);
	if (a < 0)
		return false;
	const Expr *other = left ? rq->rhs : rq->lhs;
	Qty q;
	if (!constant(o, other) || !judge_eval(o->d, other, &q, false) || !(q.v > 0) || !isfinite(q.v))
		return false;
	char as_written = rq->op == CMP_LE || rq->op == CMP_LT ? 'L' : rq->op == CMP_EQ ? 'E' : 'G';
	char flipped = as_written == 'L' ? 'G' : as_written == 'G' ? 'L' : 'E';
	/* mtbf on the left: mtbf OP X, rate flip(OP) 1/X; on the right: X OP mtbf, rate OP 1/X */
	*sense = left ? flipped : as_written;
	coef[a] = 1;
	*k = -RATE_UNIT / q.v;
	*limit = q.v;
	return true;
}

/* A require as a linear row over the atoms (coef·atoms + k SENSE 0); *limit is the mtbf limit
 * of a rate row, else NAN. False when it is not linear. */
static bool require_form(Opt *o, const Require *rq, double *coef, double *k, char *sense,
			 double *limit)
{
	*limit = NAN;
	if (rate_atom(o, rq->lhs) >= 0 || rate_atom(o, rq->rhs) >= 0)
		return rate_form(o, rq, coef, k, sense, limit);
	*sense = rq->op == CMP_LE || rq->op == CMP_LT ? 'L' : rq->op == CMP_EQ ? 'E' : 'G';
	return linear(o, rq->lhs, coef, k, 1) && linear(o, rq->rhs, coef, k, -1);
}

/* An objective as a linear form and its direction: `maximize cluster.job_mtbf` (the attribute
 * alone) is the least rate, `minimize` the greatest, the same argmin; *rate says so. */
static bool objective_form(Opt *o, const Objective *ob, double *coef, double *k, bool *maximize,
			   bool *rate)
{
	int a = rate_atom(o, ob->expr);
	*rate = a >= 0;
	*maximize = ob->maximize;
	if (a >= 0) {
		coef[a] = 1;
		*maximize = !ob->maximize;
		return true;
	}
	return linear(o, ob->expr, coef, k, 1);
}

/* A rate objective's value in the mtbf units the user wrote. */
static double as_mtbf(double rate)
{
	return rate > 0 ? RATE_UNIT / rate : rate == 0 ? INFINITY : NAN;
}

/* ---- the model ------------------------------------------------------------------------------ */

static const char *option_name(Opt *o, int fam, int i)
{
	const OpenChoice *c = o->opens->v[fam];
	return arena_printf(o->a, "%s_%s_%s", c->dec->decl->name, c->dec->field_name,
			    c->texts[i]);
}

static void build_variables(Opt *o)
{
	o->x = arena_alloc(o->a, sizeof(int *) * (size_t)(o->nfam + 1));
	for (int f = 0; f < o->nfam; f++) {
		const OpenChoice *c = o->opens->v[f];
		o->x[f] = arena_alloc(o->a, sizeof(int) * (size_t)c->nopts);
		LpExpr one = {0};
		for (int i = 0; i < c->nopts; i++) {
			o->x[f][i] = lp_var(o->m, option_name(o, f, i), 'B', 0, 1);
			lp_term(o->a, &one, o->x[f][i], 1);
		}
		lp_row(o->m, arena_printf(o->a, "one_%s_%s", c->dec->decl->name, c->dec->field_name),
		       &one, 'E', 1);
	}
	for (int fi = 0; fi < o->nfactors; fi++) {
		Factor *f = &o->factors[fi];
		for (int j = 0; j < f->njoint; j++) {
			if (f->nfams == 1) {
				f->var[j] = o->x[f->fams[0]][j];
				if (!f->ok[j]) {
					LpExpr off = {0};
					lp_term(o->a, &off, f->var[j], 1);
					lp_row(o->m, arena_printf(o->a, "cannot_%s", lp_var_name(o->m, f->var[j])),
					       &off, 'E', 0);
				}
				continue;
			}
			if (f->nfams == 0) {
				f->var[j] = -1; /* constant */
				continue;
			}
			f->var[j] = lp_var(o->m, arena_printf(o->a, "w_%s_%d", f->name, j), 'B', 0,
					   f->ok[j] ? 1 : 0);
		}
		if (f->nfams < 2)
			continue;
		/* Marginals: the joint options with option i of family F sum to x(F, i). */
		for (int k = 0; k < f->nfams; k++) {
			int fam = f->fams[k];
			const OpenChoice *c = o->opens->v[fam];
			int stride = 1;
			for (int q = k + 1; q < f->nfams; q++)
				stride *= ((OpenChoice *)o->opens->v[f->fams[q]])->nopts;
			for (int i = 0; i < c->nopts; i++) {
				LpExpr e = {0};
				/* distinct variables: the joint options', then x(F, i) */
				for (int j = 0; j < f->njoint; j++)
					if ((j / stride) % c->nopts == i)
						lp_push(o->a, &e, f->var[j], 1);
				lp_push(o->a, &e, o->x[fam][i], -1);
				lp_row(o->m, arena_printf(o->a, "marg_%s_%s", f->name, lp_var_name(o->m, o->x[fam][i])),
				       &e, 'E', 0);
			}
		}
	}
}

/* Σ over factors and joint options of coef[atom] × value × var, plus constants. */
static LpExpr expand(Opt *o, const double *coef, double k)
{
	LpExpr e = {.k = k};
	for (int fi = 0; fi < o->nfactors; fi++) {
		const Factor *f = &o->factors[fi];
		for (int j = 0; j < f->njoint; j++) {
			double c = 0;
			for (int a = 0; a < o->natoms; a++)
				c += coef[a] * f->val[(size_t)j * o->natoms + a];
			if (c == 0)
				continue;
			if (f->var[j] < 0)
				e.k += c;
			else
				lp_push(o->a, &e, f->var[j], c);
		}
	}
	lp_merge(o->m, &e); /* factors over one family share its x variables */
	return e;
}

static LpExpr expand_racks(Opt *o)
{
	LpExpr e = {0};
	for (int fi = 0; fi < o->nfactors; fi++) {
		const Factor *f = &o->factors[fi];
		if (f->fabric == -2)
			continue;
		for (int j = 0; j < f->njoint; j++) {
			if (f->var[j] < 0)
				e.k += f->racks[j];
			else
				lp_push(o->a, &e, f->var[j], f->racks[j]);
		}
	}
	lp_merge(o->m, &e);
	return e;
}

/* Divides a row by its largest coefficient, for GLPK's numerics. */
static double normalise(LpExpr *e, double *rhs)
{
	double big = fabs(*rhs);
	for (int i = 0; i < e->n; i++)
		big = fmax(big, fabs(e->t[i].coef));
	big = fmax(big, fabs(e->k));
	if (big == 0)
		return 1;
	for (int i = 0; i < e->n; i++)
		e->t[i].coef /= big;
	e->k /= big;
	*rhs /= big;
	return big;
}

/* A require's or an objective's row name, from what it says rather than where: `what` and the
 * statement's expressions as written, comments left out, operators as words (<= le, >= ge, ==
 * eq, < lt, > gt, + plus, - minus, * times, / per), every other run of signs one _, at most 64
 * characters (lp.c adds _2, _3 ... to a name already taken, in statement order). So a comment
 * or a blank line elsewhere leaves model.lp's names as they were (tests/identity.sh). */
static const char *stmt_name(Opt *o, const char *what, Loc from, Loc to)
{
	static const struct {
		const char *op, *word;
	} words[] = {{"<=", "le"}, {">=", "ge"}, {"==", "eq"}, {"<", "lt"}, {">", "gt"},
		     {"+", "plus"}, {"-", "minus"}, {"*", "times"}, {"/", "per"}};
	enum { MAX_NAME = 64 };
	char out[MAX_NAME + 16];
	size_t n = strlen(what);
	memcpy(out, what, n);
	const char *s = from.src->text + from.off, *end = to.src->text + to.end;
	bool gap = true; /* a _ is owed before the next word */
	while (s < end && n < MAX_NAME) {
		if (s[0] == '/' && s + 1 < end && (s[1] == '/' || s[1] == '*')) {
			const char *stop = s[1] == '/' ? "\n" : "*/";
			const char *e = strstr(s + 2, stop);
			s = e && e < end ? e + strlen(stop) : end;
			gap = true;
			continue;
		}
		char ch = *s;
		if (isalnum((unsigned char)ch) || ch == '_' || ch == '.') {
			if (gap)
				out[n++] = '_';
			gap = false;
			out[n++] = ch == '.' ? '_' : ch;
			s++;
			continue;
		}
		size_t k = 0;
		while (k < sizeof words / sizeof words[0] && strncmp(s, words[k].op, strlen(words[k].op)))
			k++;
		if (k < sizeof words / sizeof words[0]) {
			size_t w = strlen(words[k].word);
			if (n + w + 1 > MAX_NAME)
				break;
			out[n++] = '_';
			memcpy(out + n, words[k].word, w);
			n += w;
			s += strlen(words[k].op);
		} else {
			s++;
		}
		gap = true;
	}
	out[n] = 0;
	return arena_printf(o->a, "%s", out);
}

/* A require line as a row (false when it is not linear in the attributes). */
static bool require_row(Opt *o, const Require *rq, int *row, bool elastic, int *slack,
			double *limit)
{
	double *coef = arena_alloc(o->a, sizeof(double) * (size_t)(o->natoms + 64));
	double k = 0;
	char sense;
	if (!require_form(o, rq, coef, &k, &sense, limit))
		return false;
	LpExpr e = expand(o, coef, k);
	double rhs = 0;
	if (!elastic) /* the elastic model keeps the rows in their units: its slacks are read */
		normalise(&e, &rhs);
	if (elastic) {
		/* A slack in the direction that lets the row hold: e - s <= rhs, e + s >= rhs, and
		 * for an equality both, e - s + s' = rhs (the second slack is the next variable). */
		const char *name = stmt_name(o, "require", rq->lhs->loc, rq->rhs->loc);
		*slack = lp_var(o->m, arena_printf(o->a, "slack_%s", name), 'C', 0, INFINITY);
		lp_term(o->a, &e, *slack, sense == 'G' ? 1 : -1);
		if (sense == 'E')
			lp_term(o->a, &e, lp_var(o->m, arena_printf(o->a, "slack_down_%s", name), 'C', 0,
						  INFINITY),
				 1);
	}
	*row = lp_row(o->m, stmt_name(o, "require", rq->lhs->loc, rq->rhs->loc), &e, sense, rhs);
	return true;
}

static bool budget_stated(const Design *d)
{
	for (int i = 0; i < d->p->requires.n; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		const Expr *sides[2] = {rq->lhs, rq->rhs};
		for (int s = 0; s < 2; s++) {
			const Expr *e = sides[s];
			if (e->kind == EXPR_MEMBER && e->member.base->kind == EXPR_NAME &&
			    e->member.base->name == d->site->name && !strcmp(e->member.field, "power_budget"))
				return true;
		}
	}
	return false;
}

typedef struct Slacks {
	int floor, budget;
	int *req; /* per require, -1; an equality's downward slack is the variable after */
	bool *eq;
} Slacks;

/* Which rows an elastic model relaxes: all, or one (a require's index, or the floor or the
 * budget). */
enum { ELASTIC_NONE = -4, ELASTIC_ALL = -3, ELASTIC_FLOOR = -2, ELASTIC_BUDGET = -1 };

static bool relaxed(int elastic, int row)
{
	return elastic == ELASTIC_ALL || elastic == row;
}

/* The whole model: variables, rows, objectives (elastic: slack on every requirement row and the
 * single objective "smallest relative relaxation"). False when a requirement or objective is not
 * linear. */
static bool build(Opt *o, int elastic_rows, Slacks *sl)
{
	Design *d = o->d;
	bool elastic = elastic_rows != ELASTIC_NONE;
	o->m = lp_new(d->p->c);
	build_variables(o);
	int nreq = d->p->requires.n;
	sl->req = arena_alloc(o->a, sizeof(int) * (size_t)(nreq + 1));
	sl->eq = arena_alloc(o->a, sizeof(bool) * (size_t)(nreq + 1));
	o->req_mtbf = arena_alloc(o->a, sizeof(double) * (size_t)(nreq + 1));
	sl->floor = sl->budget = -1;
	LpExpr slack_sum = {0};

	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	if (floor_v && floor_v->kind == VAL_CTOR) {
		double positions = floor_v->items[0]->q.v * floor_v->items[1]->q.v;
		LpExpr e = expand_racks(o);
		double rhs = positions;
		if (relaxed(elastic_rows, ELASTIC_FLOOR)) {
			sl->floor = lp_var(o->m, "slack_floor", 'C', 0, INFINITY);
			lp_term(o->a, &e, sl->floor, -1);
			lp_term(o->a, &slack_sum, sl->floor, 1 / positions);
		}
		lp_row(o->m, arena_printf(o->a, "floor_%s", d->site->name), &e, 'L', rhs);
	}
	if (!budget_stated(d)) {
		double *coef = arena_alloc(o->a, sizeof(double) * (size_t)(o->natoms + 1));
		coef[o->atom_facility] = 1;
		LpExpr e = expand(o, coef, 0);
		double budget = field_value(d->site, FLD_SITE_POWER_BUDGET)->q.v;
		if (relaxed(elastic_rows, ELASTIC_BUDGET)) {
			sl->budget = lp_var(o->m, "slack_power_budget", 'C', 0, INFINITY);
			lp_term(o->a, &e, sl->budget, -1);
			lp_term(o->a, &slack_sum, sl->budget, 1 / budget);
		}
		double rhs = budget;
		if (!elastic)
			normalise(&e, &rhs);
		lp_row(o->m, arena_printf(o->a, "budget_%s", d->site->name), &e, 'L', rhs);
	}
	for (int i = 0; i < nreq; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		int row, slack = -1;
		if (!require_row(o, rq, &row, relaxed(elastic_rows, i), &slack, &o->req_mtbf[i]))
			return false;
		sl->req[i] = slack;
		sl->eq[i] = rq->op == CMP_EQ;
		if (slack >= 0) {
			/* Relative: the slack over the limit, the side that reads no attribute of the
			 * design; when both do, over the larger side on the design in force. */
			Qty l = {0}, r = {0};
			judge_eval(d, rq->lhs, &l, false);
			judge_eval(d, rq->rhs, &r, false);
			double size = fmax(fmax(fabs(l.v), fabs(r.v)), 1e-12);
			if (!isnan(o->req_mtbf[i]))
				size = RATE_UNIT / o->req_mtbf[i]; /* a rate row: its slack is a rate */
			else if (!check_reads_attribute(rq->rhs) && fabs(r.v) > 0)
				size = fabs(r.v);
			else if (!check_reads_attribute(rq->lhs) && fabs(l.v) > 0)
				size = fabs(l.v);
			lp_term(o->a, &slack_sum, slack, 1 / size);
			if (sl->eq[i])
				lp_term(o->a, &slack_sum, slack + 1, 1 / size);
		}
	}
	if (elastic)
		lp_objective(o->m, "least_relaxation", &slack_sum, false);
	for (int i = 0; i < d->p->objectives.n && !elastic; i++) {
		const Objective *ob = &((Stmt *)d->p->objectives.v[i])->objective;
		double *coef = arena_alloc(o->a, sizeof(double) * (size_t)(o->natoms + 64));
		double k = 0;
		bool max, rate;
		if (!objective_form(o, ob, coef, &k, &max, &rate))
			return false;
		if (i == 0)
			o->obj_rate = rate;
		LpExpr e = expand(o, coef, k);
		lp_objective(o->m, stmt_name(o, ob->maximize ? "maximize" : "minimize", ob->expr->loc, ob->expr->loc), &e,
			     max);
	}
	/* The designs the cable stage rejected (decide_cable_nogood): not all of a no-good's
	 * options again, Σ x(F, i) over its k options <= k - 1. Never relaxed. */
	for (int g = 0; g < d->nnogoods; g++) {
		const CableNogood *ng = &d->nogoods[g];
		LpExpr e = {0};
		bool valid = ng->n > 0;
		for (int k = 0; k < ng->n && valid; k++) {
			valid = ng->fam[k] < o->nfam &&
				ng->opt[k] < ((const OpenChoice *)o->opens->v[ng->fam[k]])->nopts;
			if (valid)
				lp_term(o->a, &e, o->x[ng->fam[k]][ng->opt[k]], 1);
		}
		if (valid)
			lp_row(o->m, arena_printf(o->a, "rejected_at_cabling_%d", g + 1), &e, 'L',
			       ng->n - 1);
	}
	/* Ties: options in the order written. */
	LpExpr order = {0};
	for (int f = 0; f < o->nfam; f++) {
		const OpenChoice *c = o->opens->v[f];
		for (int i = 1; i < c->nopts; i++)
			lp_term(o->a, &order, o->x[f][i], i);
	}
	lp_objective(o->m, "options_in_order", &order, false);
	return true;
}

/* The option each family takes in a solution. */
static void chosen(const Opt *o, const LpResult *r, int *pick)
{
	for (int f = 0; f < o->nfam; f++) {
		const OpenChoice *c = o->opens->v[f];
		pick[f] = 0;
		for (int i = 0; i < c->nopts; i++)
			if (r->x[o->x[f][i]] > 0.5)
				pick[f] = i;
	}
}

/* A limit rounded away from the design to 4 significant digits: a relaxation to say. */
static double round_out(double v, bool up)
{
	if (v == 0 || !isfinite(v))
		return v;
	double scale = pow(10, floor(log10(fabs(v))) - 3);
	return (up ? ceil(v / scale - 1e-9) : floor(v / scale + 1e-9)) * scale;
}

/* What an elastic solution relaxed, in words ("raise s.power_budget to at least 14,025 kW and
 * relax the require at f.cluster:26 to 25 d"), or NULL when it relaxed nothing. */
static const char *explain(Opt *o, const LpResult *r, const Slacks *sl)
{
	Design *d = o->d;
	Buf b = {0};
	char q[64];
	Dim power = dim_make(0, 0, -1, 1, 0, 0);
	if (sl->budget >= 0 && r->x[sl->budget] > 1e-6) {
		const Value *budget = field_value(d->site, FLD_SITE_POWER_BUDGET);
		qty_format((Qty){round_out(budget->q.v + r->x[sl->budget], true), power}, q, sizeof q);
		buf_printf(&b, "raise %s.power_budget to at least %s", d->site->name, q);
	}
	if (sl->floor >= 0 && r->x[sl->floor] > 1e-6)
		buf_printf(&b, "%sgive the floor of %s %.0f more rack positions", b.len ? " and " : "",
			   d->site->name, ceil(r->x[sl->floor] - 1e-6));
	for (int i = 0; i < d->p->requires.n; i++) {
		if (sl->req[i] < 0)
			continue;
		double up_by = r->x[sl->req[i]], down_by = sl->eq[i] ? r->x[sl->req[i] + 1] : 0;
		if (up_by <= 1e-9 && down_by <= 1e-9)
			continue;
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		Qty rhs = {0};
		judge_eval(d, rq->rhs, &rhs, false);
		int line, col;
		src_linecol(rq->loc.src, rq->loc.off, &line, &col);
		if (!isnan(o->req_mtbf[i])) {
			/* A rate row (rate_form): its slack moves the rate's limit 1/X, so the mtbf's
			 * limit becomes 1 / (1/X + s) where the rate must stay below it (mtbf >= X),
			 * 1 / (1/X - s) where above (mtbf <= X). */
			double x = o->req_mtbf[i] / RATE_UNIT, lim = 1 / x;
			Qty side = {0};
			judge_eval(d, rate_atom(o, rq->lhs) >= 0 ? rq->rhs : rq->lhs, &side, false);
			bool lower = (rate_atom(o, rq->lhs) >= 0) == (rq->op == CMP_GE || rq->op == CMP_GT);
			if (rq->op == CMP_EQ)
				lower = up_by > 1e-9;
			double s = lower ? up_by : (rq->op == CMP_EQ ? down_by : up_by);
			double to = lower ? 1 / (lim + s) : lim - s > 0 ? 1 / (lim - s) : INFINITY;
			to *= RATE_UNIT;
			qty_format((Qty){round_out(to, !lower), side.dim}, q, sizeof q);
			buf_printf(&b, "%srelax the require at %s:%d to %s", b.len ? " and " : "",
				   rq->loc.src->path, line, q);
			continue;
		}
		/* The slack moves the left side's limit: up for <= (and an equality's upward slack),
		 * down for >=. */
		bool up = rq->op == CMP_LE || rq->op == CMP_LT || (rq->op == CMP_EQ && up_by > 1e-9);
		double by = rq->op == CMP_EQ ? (up ? up_by : down_by) : up_by;
		qty_format((Qty){round_out(rhs.v + (up ? by : -by), up), rhs.dim}, q, sizeof q);
		const Expr *re = rq->rhs;
		if (re->kind == EXPR_MEMBER)
			buf_printf(&b, "%s%s %s to %s (the require at %s:%d)", b.len ? " and " : "",
				   up ? "raise" : "lower",
				   arena_printf(o->a, "%.*s", (int)(re->loc.end - re->loc.off),
						re->loc.src->text + re->loc.off),
				   arena_printf(o->a, "%s %s", up ? "at least" : "at most", q),
				   rq->loc.src->path, line);
		else
			buf_printf(&b, "%srelax the require at %s:%d to %s", b.len ? " and " : "",
				   rq->loc.src->path, line, q);
	}
	const char *text = b.len ? arena_strdup(o->a, b.s) : NULL;
	buf_free(&b);
	return text;
}

/* An infeasible model explained: the smallest relaxation of all the rows together (relative
 * slack summed), and each single row whose relaxation alone would do. Picks the design the
 * smallest relaxation needs. */
static void explain_infeasible(Opt *o, int *pick)
{
	Design *d = o->d;
	Slacks sl;
	build(o, ELASTIC_ALL, &sl);
	LpResult r;
	bool solved = lp_solve(o->m, d->time_limit, &r);
	lp_release(o->m); /* each elastic model is solved once */
	if (!solved)
		return;
	chosen(o, &r, pick);
	d->relaxation = explain(o, &r, &sl);
	Buf alt = {0};
	bool has_floor = field_value(d->site, FLD_SITE_FLOOR) && field_value(d->site, FLD_SITE_FLOOR)->kind == VAL_CTOR;
	for (int row = ELASTIC_FLOOR; row < d->p->requires.n; row++) {
		if ((row == ELASTIC_FLOOR && !has_floor) || (row == ELASTIC_BUDGET && budget_stated(d)))
			continue;
		build(o, row, &sl);
		solved = lp_solve(o->m, d->time_limit, &r);
		lp_release(o->m);
		if (!solved)
			continue; /* this row alone cannot make it */
		const char *one = explain(o, &r, &sl);
		if (one && (!d->relaxation || strcmp(one, d->relaxation) != 0))
			buf_printf(&alt, "%s%s", alt.len ? "; or " : "", one);
	}
	d->relaxation_alternatives = alt.len ? arena_strdup(o->a, alt.s) : NULL;
	buf_free(&alt);
}

/* The objective of the first level for a design in force (as evaluate_design computed it). */
static double evaluated_objective(const Design *d)
{
	if (!d->nobjectives)
		return NAN;
	bool max = ((Stmt *)d->p->objectives.v[0])->objective.maximize;
	return max ? -d->objective[0] : d->objective[0];
}

/* A factor per zone with choices of its own (zone.cooling, power_limit, nodes_per_rack,
 * rack): the zone's part of the design is a function of its own choices (zone.c: each zone's
 * racks, feeds and cooling plant, its load through its own partial PUE), so the nodes' factor
 * holds every zone at its first option and each zone's factor tabulates its options alone
 * (docs/optimization.md, "Factors"). Only with at most 63 families, each with a bit of its
 * own (factor_bit). */
static void add_zone_factors(Opt *o)
{
	Design *d = o->d;
	o->first_zone_factor = o->nfactors;
	o->nzone_factors = 0;
	if (!d->zoned || o->nfam > 63)
		return;
	unsigned long long all = 0;
	for (int z = 0; z < d->nzones; z++) {
		unsigned long long own = 0;
		for (int i = 0; i < o->nfam; i++)
			if (((OpenChoice *)o->opens->v[i])->dec->decl == d->zones[z].decl)
				own |= factor_bit(i);
		if (!own)
			continue;
		factor_add(o, arena_printf(o->a, "zone_%s", d->zones[z].name), -3);
		Factor *f = &o->factors[o->nfactors - 1];
		f->zone = z;
		f->exclude = own; /* for now its own: turned into the others' below */
		all |= own;
		o->nzone_factors++;
	}
	o->factors[0].exclude = all;
	for (int k = 0; k < o->nzone_factors; k++) {
		Factor *f = &o->factors[o->first_zone_factor + k];
		f->exclude = all & ~f->exclude;
	}
}

int optimize_choices(Design *d, PtrVec *opens, bool *fallback)
{
	Ctx *c = d->p->c;
	int before = diag_errors(c);
	Opt o = {.d = d, .a = c->arena, .opens = opens, .nfam = opens->n};
	*fallback = false;

	/* The attributes read, and whether everything is linear in them. */
	Expr *cl = ast_expr(c, EXPR_NAME, d->cluster->name_loc);
	cl->name = d->cluster->name;
	Expr *fac = ast_expr(c, EXPR_MEMBER, d->cluster->name_loc);
	fac->member.base = cl;
	fac->member.field = intern_cstr(c, "facility_power");
	o.atom_facility = atom_of(&o, fac);
	for (int i = 0; i < opens->n; i++)
		choice_set(opens->v[i], 0);
	choice_evaluate(d); /* sizes the fabrics, so their count is known */
	double *scratch = arena_alloc(o.a, sizeof(double) * 1024);
	double k;
	for (int i = 0; i < d->p->requires.n && !*fallback; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		memset(scratch, 0, sizeof(double) * 1024);
		k = 0;
		char sense;
		double limit;
		*fallback = !require_form(&o, rq, scratch, &k, &sense, &limit);
	}
	for (int i = 0; i < d->p->objectives.n && !*fallback; i++) {
		memset(scratch, 0, sizeof(double) * 1024);
		k = 0;
		bool max, rate;
		*fallback = !objective_form(&o, &((Stmt *)d->p->objectives.v[i])->objective, scratch, &k,
					    &max, &rate);
	}
	if (*fallback || o.natoms > 1000 || d->nfabrics > 60)
		return *fallback = true, 0;

	bool work = false;
	for (int a = 0; a < o.natoms; a++)
		work |= o.atoms[a].kind == ATOM_WORK;
	o.factors = arena_alloc(o.a, sizeof(Factor) * (size_t)(d->nfabrics + d->nzones + 2));
	factor_add(&o, "nodes", -1);
	add_zone_factors(&o);
	for (int f = 0; f < d->nfabrics; f++)
		factor_add(&o, arena_printf(o.a, "fabric_%s", d->fabrics[f].decl->name), f);
	if (work)
		factor_add(&o, "workloads", -2);
	o.work_model = factor_work_needs_model(&o);
	/* Each family's bit in the read sets (factor_bit); no field keeps one from an earlier
	 * decision of the same program. */
	for (int i = 0; i < d->p->decls.n; i++) {
		Decl *decl = d->p->decls.v[i];
		for (int j = 0; j < decl->nfields; j++)
			decl->fields[j]->choices = decl->fields[j]->param_choices = 0;
	}
	for (int i = 0; i < o.nfam; i++) {
		const Decision *dec = ((OpenChoice *)opens->v[i])->dec;
		dec->field->choices |= factor_bit(i);
		if (dec->param)
			dec->field->param_choices |= factor_bit(i);
	}
	double t0 = now_ms();
	d->quiet = true;
	for (int f = 0; f < o.nfactors; f++) {
		if (!factor_tabulate(&o, &o.factors[f])) {
			d->quiet = false;
			return *fallback = true, 0;
		}
	}
	d->quiet = false;

	double t1 = now_ms();
	d->opt.ms_passes = t1 - t0;
	d->opt.evaluations = o.evaluations;
	Slacks sl;
	if (!build(&o, ELASTIC_NONE, &sl))
		return *fallback = true, 0;
	LpModel *main_model = o.m;
	double t2 = now_ms();
	d->opt.ms_build = t2 - t1;
	LpResult r;
	lp_solve(o.m, d->time_limit, &r);
	double t3 = now_ms();
	d->opt.ms_solve = t3 - t2;
	d->opt.solver = "glpk";
	d->opt.variables = r.nvars;
	d->opt.constraints = r.nrows;
	d->opt.ms = r.ms;
	d->lp = main_model;
	if (c->verbose)
		fputs(r.log, stderr);
	int *pick = arena_alloc(o.a, sizeof(int) * (size_t)(o.nfam + 1));
	if (r.status == LP_OPTIMAL || r.status == LP_FEASIBLE) {
		d->opt.status = r.status == LP_OPTIMAL ? "optimal" : "feasible";
		d->opt.objective = r.objective;
		d->opt.bound = r.bound;
		d->opt.gap = r.gap;
		if (o.obj_rate) {
			/* solved on the rate: reported as the mtbf the objective names */
			d->opt.objective = as_mtbf(r.objective);
			d->opt.bound = as_mtbf(r.bound);
			d->opt.gap = fabs(d->opt.objective - d->opt.bound) / (fabs(d->opt.objective) + DBL_EPSILON);
		}
		chosen(&o, &r, pick);
	} else if (r.status == LP_INFEASIBLE) {
		/* The smallest relaxation that would work, and the design that needs it. */
		d->opt.status = "infeasible";
		d->opt.objective = d->opt.bound = d->opt.gap = NAN;
		explain_infeasible(&o, pick);
		o.m = main_model;
	} else {
		d->opt.status = r.status == LP_TIME_LIMIT ? "time_limit" : "error";
		Diag *dg;
		if (r.status == LP_TIME_LIMIT) {
			dg = diag_error(c, NOLOC, "the optimizer found no design within the time limit "
						  "(%.0f ms): raise --time-limit",
					r.ms);
			diag_set_code(dg, "time-limit");
		} else {
			dg = diag_error(c, NOLOC, "internal error: the solver failed: %s", r.log);
			diag_set_code(dg, "internal");
			d->p->internal_error = true;
		}
		lp_release(main_model);
		return diag_errors(c) - before;
	}

	/* What each choice saved: the best design with another option there. */
	for (int f = 0; f < o.nfam && r.status == LP_OPTIMAL && d->p->objectives.n; f++) {
		OpenChoice *oc = opens->v[f];
		if (oc->nopts < 2)
			continue;
		/* The model built once: the chosen option's x fixed at 0 for this solve. */
		int ban = o.x[f][pick[f]];
		double lo, hi;
		lp_get_bounds(o.m, ban, &lo, &hi);
		lp_set_bounds(o.m, ban, 0, 0);
		LpResult nr;
		d->opt.resolves++;
		if (lp_solve(o.m, d->time_limit, &nr)) {
			int *alt = arena_alloc(o.a, sizeof(int) * (size_t)(o.nfam + 1));
			chosen(&o, &nr, alt);
			oc->dec->next_best = o.obj_rate ? as_mtbf(nr.objective) : nr.objective;
			oc->dec->next_best_text = oc->texts[alt[f]];
		}
		lp_set_bounds(o.m, ban, lo, hi);
	}

	d->opt.ms_resolve = now_ms() - t3;
	lp_release(main_model); /* no solve after these */
	for (int f = 0; f < o.nfam; f++) {
		OpenChoice *oc = opens->v[f];
		choice_set(oc, pick[f]);
		oc->dec->chosen = oc->opts[pick[f]];
		oc->dec->chosen_text = oc->texts[pick[f]];
		oc->dec->chosen_index = pick[f];
		oc->dec->ncandidates = oc->nopts;
	}
	choice_evaluate(d);
	d->combinations = o.evaluations;
	/* The model is the design's own arithmetic: its objective is the design's. */
	double got = evaluated_objective(d);
	if (r.status == LP_OPTIMAL && d->nobjectives &&
	    fabs(got - d->opt.objective) > 1e-6 * fmax(1, fabs(got))) {
		Diag *dg = diag_error(c, NOLOC, "internal error: the optimizer's objective %.17g is not "
						"the design's %.17g",
				      d->opt.objective, got);
		diag_set_code(dg, "internal");
		d->p->internal_error = true;
	}
	return diag_errors(c) - before;
}
