/*
 * lp.c — a small mixed-integer model and its solution through GLPK, the only file that includes
 * glpk.h. The optimizer (optimize.c) states variables, rows and objectives by name; this file
 * loads them into GLPK, solves them with presolve, a time limit and a MIP gap, captures GLPK's
 * terminal output (printed only with -v), and writes the model in CPLEX LP format so that
 * `glpsol --lp model.lp` (or any MILP solver) solves the same problem.
 *
 * Several objectives are solved in order (lexicographically): after each, a row keeps its value
 * at its optimum (within a relative 1e-9) while the next is optimized. The last level the
 * optimizer adds is "options in the order written", which makes ties deterministic and
 * predictable.
 */
#include "opt.h"

#include <glpk.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct LpModel {
	Ctx *c;
	PtrVec vars;  /* LpVar* */
	PtrVec rows;  /* LpRow* */
	PtrVec objs;  /* LpObj* */
	NameTable names;
	int *pos;     /* lp_merge's scratch: a variable's place in the expression + 1, else 0 */
	int npos;
	glp_prob *P;  /* the model loaded, kept for the next solve (lp_solve); NULL when none */
	int P_level;  /* the objective P has */
};

typedef struct LpVar {
	const char *name;
	char kind;
	double lo, hi;
} LpVar;

typedef struct LpRow {
	const char *name;
	LpExpr e;
	char sense;
	double rhs;
} LpRow;

typedef struct LpObj {
	const char *name;
	LpExpr e;
	bool maximize;
} LpObj;

LpModel *lp_new(Ctx *c)
{
	LpModel *m = arena_alloc(c->arena, sizeof *m);
	m->c = c;
	return m;
}

/* CPLEX LP names: letters, digits and _ (others become _), not starting with a digit, unique
 * (a suffix _2, _3 ... when taken), at most 200 characters. */
static const char *lp_name(LpModel *m, const char *want)
{
	char buf[208];
	size_t n = 0;
	for (const char *s = want; *s && n < 200; s++) {
		char ch = *s;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			  ch == '_';
		buf[n++] = ok ? ch : '_';
	}
	buf[n] = 0;
	if (n == 0 || (buf[0] >= '0' && buf[0] <= '9')) {
		memmove(buf + 1, buf, n + 1);
		buf[0] = 'x';
	}
	const char *name = intern_cstr(m->c, buf);
	for (int k = 2; table_get(&m->names, name); k++)
		name = intern_cstr(m->c, arena_printf(m->c->arena, "%s_%d", buf, k));
	table_put(m->c, &m->names, name, (void *)name);
	return name;
}

int lp_var(LpModel *m, const char *name, char kind, double lo, double hi)
{
	LpVar *v = arena_alloc(m->c->arena, sizeof *v);
	*v = (LpVar){lp_name(m, name), kind, lo, hi};
	vec_push(m->c->arena, &m->vars, v);
	lp_release(m);
	return m->vars.n - 1;
}

void lp_get_bounds(const LpModel *m, int var, double *lo, double *hi)
{
	const LpVar *v = m->vars.v[var];
	*lo = v->lo;
	*hi = v->hi;
}

/* A column's bounds, as the model says (a binary's kind set apart). */
static void col_bounds(glp_prob *P, int j, const LpVar *v)
{
	if (v->kind == 'B')
		glp_set_col_bnds(P, j, v->lo == v->hi ? GLP_FX : GLP_DB, v->lo, v->lo == v->hi ? v->lo : v->hi);
	else {
		int type = isinf(v->hi) ? (isinf(v->lo) ? GLP_FR : GLP_LO)
			   : v->lo == v->hi ? GLP_FX
					    : GLP_DB;
		glp_set_col_bnds(P, j, type, isinf(v->lo) ? 0 : v->lo, isinf(v->hi) ? 0 : v->hi);
	}
}

void lp_release(LpModel *m)
{
	if (m->P)
		glp_delete_prob(m->P);
	m->P = NULL;
}

void lp_set_bounds(LpModel *m, int var, double lo, double hi)
{
	LpVar *v = m->vars.v[var];
	v->lo = lo;
	v->hi = hi;
	if (m->P) /* the loaded model follows: the next solve starts from its last basis */
		col_bounds(m->P, var + 1, v);
}

const char *lp_var_name(const LpModel *m, int var)
{
	return ((const LpVar *)m->vars.v[var])->name;
}

int lp_nvars(const LpModel *m)
{
	return m->vars.n;
}

void lp_term(Arena *a, LpExpr *e, int var, double coef)
{
	if (coef == 0)
		return;
	for (int i = 0; i < e->n; i++) {
		if (e->t[i].var == var) {
			e->t[i].coef += coef;
			return;
		}
	}
	lp_push(a, e, var, coef);
}

void lp_push(Arena *a, LpExpr *e, int var, double coef)
{
	if (coef == 0)
		return;
	if (e->n == e->cap) {
		int cap = e->cap ? e->cap * 2 : 8;
		LpTerm *t = arena_alloc(a, sizeof(LpTerm) * (size_t)cap);
		if (e->n)
			memcpy(t, e->t, sizeof(LpTerm) * (size_t)e->n);
		e->t = t;
		e->cap = cap;
	}
	e->t[e->n++] = (LpTerm){var, coef};
}

/* In one pass with a position per variable: the terms keep the order of their variables' first
 * appearance and each sums its coefficients in the order pushed, exactly as lp_term would
 * have made them. */
void lp_merge(LpModel *m, LpExpr *e)
{
	if (m->npos < m->vars.n) {
		m->npos = m->vars.n * 2;
		m->pos = arena_alloc(m->c->arena, sizeof(int) * (size_t)m->npos); /* zeroed */
	}
	int n = 0;
	for (int i = 0; i < e->n; i++) {
		int v = e->t[i].var;
		if (m->pos[v])
			e->t[m->pos[v] - 1].coef += e->t[i].coef;
		else
			e->t[n] = e->t[i], m->pos[v] = ++n;
	}
	for (int i = 0; i < n; i++)
		m->pos[e->t[i].var] = 0;
	e->n = n;
}

void lp_add(Arena *a, LpExpr *dst, const LpExpr *src, double scale)
{
	for (int i = 0; i < src->n; i++)
		lp_term(a, dst, src->t[i].var, src->t[i].coef * scale);
	dst->k += src->k * scale;
}

int lp_row(LpModel *m, const char *name, const LpExpr *e, char sense, double rhs)
{
	LpRow *r = arena_alloc(m->c->arena, sizeof *r);
	r->name = lp_name(m, name);
	r->e = *e;
	r->sense = sense;
	r->rhs = rhs - e->k; /* constants move to the right */
	r->e.k = 0;
	vec_push(m->c->arena, &m->rows, r);
	lp_release(m);
	return m->rows.n - 1;
}

void lp_objective(LpModel *m, const char *name, const LpExpr *e, bool maximize)
{
	LpObj *o = arena_alloc(m->c->arena, sizeof *o);
	*o = (LpObj){lp_name(m, name), *e, maximize};
	vec_push(m->c->arena, &m->objs, o);
	lp_release(m);
}

/* GLPK's terminal output goes into a buffer (shown with -v). */
static int capture(void *info, const char *s)
{
	buf_puts(info, s);
	return 1;
}

/* An objective kept as a row is divided by its largest coefficient, for GLPK's numerics. */
static double keep_scale(const LpObj *o)
{
	double big = 0;
	for (int t = 0; t < o->e.n; t++)
		big = fmax(big, fabs(o->e.t[t].coef));
	return big > 0 ? big : 1;
}

/* The objective of a level: its name, direction, constant and coefficients (added to what a
 * column carries already). */
static void set_objective(glp_prob *P, const LpObj *o)
{
	glp_set_obj_name(P, o->name);
	glp_set_obj_dir(P, o->maximize ? GLP_MAX : GLP_MIN);
	glp_set_obj_coef(P, 0, o->e.k);
	for (int t = 0; t < o->e.n; t++)
		glp_set_obj_coef(P, o->e.t[t].var + 1, glp_get_obj_coef(P, o->e.t[t].var + 1) + o->e.t[t].coef);
}

/* Loads the variables, the rows and the `level`-th objective; earlier objectives become rows
 * holding their optimum values. */
static glp_prob *load(const LpModel *m, int level, const double *fixed)
{
	glp_prob *P = glp_create_prob();
	glp_set_prob_name(P, "clusterc");
	int nv = m->vars.n;
	if (nv)
		glp_add_cols(P, nv);
	for (int j = 0; j < nv; j++) {
		const LpVar *v = m->vars.v[j];
		glp_set_col_name(P, j + 1, v->name);
		glp_set_col_kind(P, j + 1, v->kind == 'B' ? GLP_BV : v->kind == 'I' ? GLP_IV : GLP_CV);
		col_bounds(P, j + 1, v); /* a binary fixed: its bounds say so */
	}
	int nrows = m->rows.n + level;
	if (nrows)
		glp_add_rows(P, nrows);
	int nz = 0;
	for (int i = 0; i < m->rows.n; i++)
		nz += ((LpRow *)m->rows.v[i])->e.n;
	for (int l = 0; l < level; l++)
		nz += ((LpObj *)m->objs.v[l])->e.n;
	int *ia = xmalloc(sizeof(int) * (size_t)(nz + 1));
	int *ja = xmalloc(sizeof(int) * (size_t)(nz + 1));
	double *ar = xmalloc(sizeof(double) * (size_t)(nz + 1));
	int k = 0;
	for (int i = 0; i < nrows; i++) {
		const LpExpr *e;
		if (i < m->rows.n) {
			const LpRow *r = m->rows.v[i];
			glp_set_row_name(P, i + 1, r->name);
			int type = r->sense == 'L' ? GLP_UP : r->sense == 'G' ? GLP_LO : GLP_FX;
			glp_set_row_bnds(P, i + 1, type, r->rhs, r->rhs);
			e = &r->e;
		} else {
			/* An earlier objective kept at its optimum. */
			const LpObj *o = m->objs.v[i - m->rows.n];
			double v = fixed[i - m->rows.n] - o->e.k;
			double slack = 1e-9 * fmax(1, fabs(v));
			double sc = keep_scale(o);
			glp_set_row_name(P, i + 1, arena_printf(m->c->arena, "keep_%s", o->name));
			glp_set_row_bnds(P, i + 1, o->maximize ? GLP_LO : GLP_UP,
					 (o->maximize ? v - slack : v + slack) / sc,
					 (o->maximize ? v - slack : v + slack) / sc);
			e = &o->e;
			for (int t = 0; t < e->n; t++) {
				k++;
				ia[k] = i + 1;
				ja[k] = e->t[t].var + 1;
				ar[k] = e->t[t].coef / sc;
			}
			continue;
		}
		for (int t = 0; t < e->n; t++) {
			k++;
			ia[k] = i + 1;
			ja[k] = e->t[t].var + 1;
			ar[k] = e->t[t].coef;
		}
	}
	if (k)
		glp_load_matrix(P, k, ia, ja, ar);
	free(ia);
	free(ja);
	free(ar);
	set_objective(P, m->objs.v[level]);
	return P;
}

/* Every number the solver gets is finite (GLPK aborts on anything else). */
static const char *first_non_finite(const LpModel *m)
{
	for (int i = 0; i < m->rows.n; i++) {
		const LpRow *r = m->rows.v[i];
		bool bad = !isfinite(r->rhs);
		for (int t = 0; t < r->e.n; t++)
			bad |= !isfinite(r->e.t[t].coef);
		if (bad)
			return r->name;
	}
	for (int i = 0; i < m->objs.n; i++) {
		const LpObj *o = m->objs.v[i];
		bool bad = !isfinite(o->e.k);
		for (int t = 0; t < o->e.n; t++)
			bad |= !isfinite(o->e.t[t].coef);
		if (bad)
			return o->name;
	}
	return NULL;
}

/* The branch-and-bound's best bound, while it runs (a time limit may stop it). */
static void bound_hook(glp_tree *T, void *info)
{
	double *bound = info;
	int r = glp_ios_reason(T);
	if (r != GLP_ISELECT && r != GLP_IBINGO && r != GLP_IROWGEN)
		return;
	int p = glp_ios_best_node(T);
	if (p)
		*bound = glp_ios_node_bound(T, p);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* An objective's value at a solution, integer variables at their integers: the model's own
 * arithmetic, whatever the scaling GLPK solved with. */
static double objective_of(const LpObj *o, const double *x, const LpModel *m)
{
	double v = o->e.k;
	for (int t = 0; t < o->e.n; t++) {
		const LpVar *var = m->vars.v[o->e.t[t].var];
		double xv = x[o->e.t[t].var];
		v += o->e.t[t].coef * (var->kind == 'C' ? xv : round(xv));
	}
	return v;
}

/* Puts objective `level` on the loaded model: its coefficients for the last one's, the rows of
 * the earlier objectives held at their optima, the later ones' free. */
static void set_level(LpModel *m, int level, const double *fixed)
{
	glp_prob *P = m->P;
	const LpObj *was = m->objs.v[m->P_level];
	for (int t = 0; t < was->e.n; t++)
		glp_set_obj_coef(P, was->e.t[t].var + 1, 0);
	for (int l = 0; l + 1 < m->objs.n; l++) {
		int row = m->rows.n + l + 1;
		if (l >= level) {
			glp_set_row_bnds(P, row, GLP_FR, 0, 0);
			continue;
		}
		const LpObj *o = m->objs.v[l];
		double v = fixed[l] - o->e.k;
		double slack = 1e-9 * fmax(1, fabs(v));
		double b = (o->maximize ? v - slack : v + slack) / keep_scale(o);
		glp_set_row_bnds(P, row, o->maximize ? GLP_LO : GLP_UP, b, b);
	}
	set_objective(P, m->objs.v[level]);
	m->P_level = level;
}

/* The model is loaded once, with a row for every objective but the last (free until its
 * level is solved), and kept: each level, and each later solve after lp_set_bounds, starts
 * the simplex from the last optimal basis and branches from that LP solution (GLPK's MIP
 * presolve would copy and reduce the whole problem each time, the most of a solve). */
bool lp_solve(LpModel *m, double time_limit_s, LpResult *r)
{
	*r = (LpResult){.status = LP_ERROR, .objective = NAN, .bound = NAN, .gap = NAN,
			.nvars = m->vars.n, .nrows = m->rows.n};
	if (m->objs.n == 0)
		return false;
	const char *bad = first_non_finite(m);
	if (bad) {
		r->log = arena_printf(m->c->arena, "row or objective %s has a coefficient that is not "
						   "a finite number\n", bad);
		return false;
	}
	Buf log = {0};
	glp_term_hook(capture, &log);
	double t0 = now_ms();
	double *fixed = xmalloc(sizeof(double) * (size_t)m->objs.n);
	r->x = arena_alloc(m->c->arena, sizeof(double) * (size_t)(m->vars.n + 1));
	for (int l = 0; l < m->objs.n; l++)
		fixed[l] = 0;
	bool fresh = false; /* the warm start failed: this solve loads afresh, with presolve */
	for (int level = 0; level < m->objs.n; level++) {
		glp_prob *P = NULL;
		if (!fresh) {
			if (!m->P) {
				m->P = load(m, m->objs.n - 1, fixed);
				m->P_level = m->objs.n - 1;
				glp_scale_prob(m->P, GLP_SF_AUTO);
			}
			P = m->P;
			set_level(m, level, fixed);
			glp_smcp sp;
			glp_init_smcp(&sp);
			sp.msg_lev = GLP_MSG_OFF;
			if (time_limit_s > 0) {
				double left = time_limit_s * 1e3 - (now_ms() - t0);
				sp.tm_lim = left > 1 ? (int)left : 1;
			}
			int src = glp_simplex(P, &sp);
			int lst = glp_get_status(P);
			if (src == 0 && (lst == GLP_NOFEAS || glp_get_prim_stat(P) == GLP_NOFEAS)) {
				r->status = LP_INFEASIBLE;
				break;
			}
			if (src == GLP_ETMLIM) {
				r->status = LP_TIME_LIMIT;
				break;
			}
			if (src != 0 || lst != GLP_OPT) {
				/* Numerics (a singular basis): this level and the rest load afresh. */
				fresh = true;
				lp_release(m);
			}
		}
		if (fresh)
			P = load(m, level, fixed);
		glp_iocp parm;
		glp_init_iocp(&parm);
		parm.presolve = fresh ? GLP_ON : GLP_OFF;
		parm.mip_gap = 0;
		parm.msg_lev = GLP_MSG_ON;
		double bound = NAN;
		parm.cb_func = bound_hook;
		parm.cb_info = &bound;
		if (time_limit_s > 0) {
			double left = time_limit_s * 1e3 - (now_ms() - t0);
			parm.tm_lim = left > 1 ? (int)left : 1;
		}
		int rc = glp_intopt(P, &parm);
		int st = glp_mip_status(P);
		bool timed_out = rc == GLP_ETMLIM || rc == GLP_EMIPGAP;
		if (st == GLP_NOFEAS || rc == GLP_ENOPFS || rc == GLP_ENODFS)
			r->status = LP_INFEASIBLE;
		else if (st != GLP_OPT && st != GLP_FEAS)
			r->status = timed_out ? LP_TIME_LIMIT : LP_ERROR;
		else {
			for (int j = 0; j < m->vars.n; j++)
				r->x[j] = glp_mip_col_val(P, j + 1);
			fixed[level] = objective_of(m->objs.v[level], r->x, m);
			if (level == 0) {
				r->objective = fixed[0];
				/* The best bound: the relaxation's when stopped early, the objective
				 * when proven. */
				r->bound = st == GLP_OPT && !timed_out ? fixed[0] : bound;
			}
			r->status = st == GLP_OPT && !timed_out ? LP_OPTIMAL : LP_FEASIBLE;
		}
		if (fresh)
			glp_delete_prob(P);
		if (r->status != LP_OPTIMAL)
			break;
	}
	/* The next solve starts from scratch when this one did not end at an optimum. */
	if (r->status != LP_OPTIMAL)
		lp_release(m);
	/* The relative gap as GLPK measures it: |objective - bound| / (|objective| + DBL_EPSILON). */
	if (r->status == LP_OPTIMAL || r->status == LP_FEASIBLE)
		r->gap = isnan(r->bound) ? NAN
					 : fabs(r->objective - r->bound) / (fabs(r->objective) + DBL_EPSILON);
	r->ms = now_ms() - t0;
	glp_term_hook(NULL, NULL);
	r->log = arena_strdup(m->c->arena, log.s ? log.s : "");
	buf_free(&log);
	free(fixed);
	return r->status == LP_OPTIMAL || r->status == LP_FEASIBLE;
}

bool lp_write(const LpModel *m, const char *path)
{
	if (m->objs.n == 0)
		return false;
	Buf log = {0};
	glp_term_hook(capture, &log);
	glp_prob *P = load(m, 0, NULL);
	int rc = glp_write_lp(P, NULL, path);
	glp_delete_prob(P);
	glp_term_hook(NULL, NULL);
	buf_free(&log);
	return rc == 0;
}
