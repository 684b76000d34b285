/*
 * judge.c — what a design is worth and whether it holds: the value of an attribute a require
 * line or objective reads (settable fields read their checked value, derived attributes
 * (capex, facility_power, time_to_train ...) the model's totals and the planner's predictions),
 * the requirements (the site's power budget and every require line) as Violations with the
 * numbers on both sides, and the objectives' values. The same for every candidate design the
 * choice search explores and for the design as built (cables included).
 */
#include "passes.h"
#include "plan.h"

#include <math.h>
#include <string.h>


/* ---- attributes ----------------------------------------------------------------------------- */

static Qty qty(double v, Dim dim)
{
	return (Qty){v, dim};
}

/* The derived attributes of a cluster (and of its fabrics and workloads) from the model's
 * totals, sizing and the planner: the schema's read-only fields, by FieldId. */
static bool derived(Design *d, const Decl *decl, FieldId id, Qty *out, Loc loc, bool report)
{
	const Totals *t = &d->t;
	Dim money = dim_with_money(DIM_NONE, d->currency, 1);
	Dim power = dim_make(0, 0, -1, 1, 0, 0);
	Dim per_time = dim_make(0, 0, -1, 0, 0, 0);
	Dim bandwidth = dim_make(0, 0, -1, 0, 1, 0);
	/* A fabric of the cluster, as sized (fabric.c): the same numbers report.json gives; not a
	 * number when the fabric cannot be made (its violation says why). */
	const FabricInst *f = NULL;
	for (int i = 0; decl->kind == KIND_FABRIC && i < d->nfabrics && !f; i++)
		if (d->fabrics[i].decl == decl)
			f = &d->fabrics[i];
	double na = f && f->sized ? 0 : NAN;
	double v;
	switch (id) {
	case FLD_CLUSTER_CAPEX: *out = qty(t->capex, money); return true;
	case FLD_CLUSTER_ENERGY_COST:
		*out = qty(t->annual_energy_cost / SECONDS_PER_YEAR, dim_mul(money, per_time));
		return true;
	case FLD_CLUSTER_TCO: *out = qty(t->tco, money); return true;
	case FLD_CLUSTER_ANNUAL_ENERGY: *out = qty(t->annual_energy, dim_make(0, 0, 0, 1, 0, 0)); return true;
	case FLD_CLUSTER_IT_POWER: *out = qty(t->it_power, power); return true;
	case FLD_CLUSTER_FACILITY_POWER: *out = qty(t->facility_power, power); return true;
	case FLD_CLUSTER_PEAK_COMPUTE: *out = qty(t->peak_compute, dim_make(0, 0, -1, 0, 0, 1)); return true;
	case FLD_CLUSTER_ACCELERATOR_COUNT: *out = qty(t->accelerators, DIM_NONE); return true;
	case FLD_CLUSTER_NODE_COUNT: *out = qty(t->nodes, DIM_NONE); return true;
	case FLD_CLUSTER_RACK_COUNT: *out = qty(t->racks, DIM_NONE); return true;
	case FLD_CLUSTER_CARBON:
		if (isnan(t->annual_carbon))
			break;
		*out = qty(t->annual_carbon / SECONDS_PER_YEAR, dim_make(0, 1, -1, 0, 0, 0));
		return true;
	case FLD_CLUSTER_SWITCH_COUNT: *out = qty(t->switches, DIM_NONE); return true;
	case FLD_CLUSTER_CABLE_COUNT: *out = qty(t->cables, DIM_NONE); return true;
	case FLD_CLUSTER_BISECTION_BANDWIDTH:
		if (d->nfabrics == 0)
			break;
		*out = qty(d->fabrics[0].sized ? d->fabrics[0].bisection : NAN, bandwidth);
		return true;
	case FLD_FABRIC_BISECTION_BANDWIDTH:
		if (!f)
			break;
		*out = qty(f->bisection + na, bandwidth);
		return true;
	case FLD_FABRIC_SWITCH_COUNT:
		if (!f)
			break;
		*out = qty(f->switches + na, DIM_NONE);
		return true;
	case FLD_FABRIC_LINK_COUNT:
		if (!f)
			break;
		*out = qty(f->links + na, DIM_NONE);
		return true;
	case FLD_FABRIC_DIAMETER:
		if (!f)
			break;
		*out = qty(f->diameter + na, DIM_NONE);
		return true;
	/* Workloads: the planner's prediction for the design in force (plan.c, memoised). */
	case FLD_WORKLOAD_TIME_TO_TRAIN:
	case FLD_WORKLOAD_STEP_TIME:
		if (!plan_attribute(d, decl, id, &v))
			break;
		*out = qty(v, dim_make(0, 0, 1, 0, 0, 0));
		return true;
	case FLD_WORKLOAD_ENERGY_TO_TRAIN:
		if (!plan_attribute(d, decl, id, &v))
			break;
		*out = qty(v, dim_make(0, 0, 0, 1, 0, 0));
		return true;
	case FLD_WORKLOAD_COST_TO_TRAIN:
		if (!plan_attribute(d, decl, id, &v))
			break;
		*out = qty(v, money);
		return true;
	case FLD_WORKLOAD_MFU:
		if (!plan_attribute(d, decl, id, &v))
			break;
		*out = qty(v, DIM_NONE);
		return true;
	/* Reliability (reliability.c): the design in force under failures. */
	case FLD_CLUSTER_JOB_MTBF:
	case FLD_WORKLOAD_JOB_MTBF:
	case FLD_WORKLOAD_EFFECTIVE_TIME_TO_TRAIN:
		if (!reliability_attribute(d, decl, id, &v))
			break;
		*out = qty(v, dim_make(0, 0, 1, 0, 0, 0));
		return true;
	case FLD_WORKLOAD_EFFECTIVE_ENERGY_TO_TRAIN:
		if (!reliability_attribute(d, decl, id, &v))
			break;
		*out = qty(v, dim_make(0, 0, 0, 1, 0, 0));
		return true;
	case FLD_WORKLOAD_GOODPUT:
		if (!reliability_attribute(d, decl, id, &v))
			break;
		*out = qty(v, DIM_NONE);
		return true;
	default:
		break;
	}
	if (report) {
		Diag *dg = diag_error(d->c, loc, "%s.%s cannot be computed yet: this version of "
						 "clusterc does not model it",
				      decl->name, field_schemas[id].name);
		diag_set_code(dg, "not-modelled");
	}
	return false;
}

static bool attribute(Design *d, const Expr *e, Qty *out, bool report)
{
	const Expr *base = e->member.base;
	const char *name = e->member.field;
	if (base->kind == EXPR_MEMBER) {
		/* DECL.FIELD.PARAM: a constructor's parameter. */
		const Expr *decl_e = base->member.base;
		Decl *decl = decl_e->kind == EXPR_NAME ? table_get(&d->p->names, decl_e->name) : NULL;
		const Value *v = decl ? decl_value(decl, base->member.field) : NULL;
		const FieldSchema *ps = v && v->kind == VAL_CTOR ? ctor_param(v->ctor, name) : NULL;
		const Value *pv = ps ? v->items[ps - v->ctor->params] : NULL;
		if (pv && pv->kind == VAL_QTY) {
			*out = pv->q;
			return true;
		}
		if (report) {
			Diag *dg = diag_error(d->p->c, e->loc, "this parameter is not set to a number");
			diag_set_code(dg, "unset");
		}
		return false;
	}
	Decl *decl = base->kind == EXPR_NAME ? table_get(&d->p->names, base->name) : NULL;
	if (!decl || decl->kind < 0)
		return false;
	const FieldSchema *fs = schema_field(decl->kind, name);
	if (!fs)
		return false;
	if (fs->flags & F_READONLY)
		return derived(d, decl, fs->id, out, e->loc, report);
	const Value *v = decl_value(decl, name);
	if (v && v->kind == VAL_QTY) {
		*out = v->q;
		if (dim_currency(v->q.dim) >= 0) {
			/* Money reads in the report currency, so sums of prices compare. */
			double conv;
			money_convert(d, v->q.v, v->q.dim, e->loc, false, &conv);
			int cur = dim_currency(v->q.dim);
			out->dim.e[DIM_FIRST_CURRENCY + d->currency] = v->q.dim.e[DIM_FIRST_CURRENCY + cur];
			if (cur != d->currency)
				out->dim.e[DIM_FIRST_CURRENCY + cur] = 0;
			out->v = conv;
		}
		return true;
	}
	if (v && v->kind == VAL_RATIO) {
		*out = qty(v->q.v, DIM_NONE);
		return true;
	}
	/* An unset field reads its schema default when that is a figure without money
	 * (cluster.horizon's 5 y): `capex + wanka.horizon * energy_cost` follows a sweep's horizon
	 * whether or not the spec wrote one. */
	if (!v && fs->dflt.literal && !fs->money_exp &&
	    (fs->type == FT_QTY || fs->type == FT_REAL || fs->type == FT_INT)) {
		*out = qty(fs->dflt.num, fs->type == FT_QTY ? fs->dim : DIM_NONE);
		return true;
	}
	if (report) {
		Diag *dg = diag_error(d->p->c, e->loc, "%s.%s is not set", decl->name, name);
		diag_set_code(dg, "unset");
	}
	return false;
}

bool judge_eval(Design *d, const Expr *e, Qty *out, bool report)
{
	Qty l, r;
	switch (e->kind) {
	case EXPR_NUMBER:
		if (!eval_qty(d->p, e, out))
			return false;
		if (dim_currency(out->dim) >= 0 && dim_currency(out->dim) != d->currency) {
			/* Money reads in the report currency (check.c typed it so). */
			int cur = dim_currency(out->dim);
			double conv;
			money_convert(d, out->v, out->dim, e->loc, false, &conv);
			out->dim.e[DIM_FIRST_CURRENCY + d->currency] = out->dim.e[DIM_FIRST_CURRENCY + cur];
			out->dim.e[DIM_FIRST_CURRENCY + cur] = 0;
			out->v = conv;
		}
		return true;
	case EXPR_MEMBER:
		return attribute(d, e, out, report);
	case EXPR_PAREN:
		return judge_eval(d, e->inner, out, report);
	case EXPR_NEG:
		if (!judge_eval(d, e->inner, out, report))
			return false;
		out->v = -out->v;
		return true;
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV:
		if (!judge_eval(d, e->bin.l, &l, report) || !judge_eval(d, e->bin.r, &r, report))
			return false;
		switch (e->kind) {
		case EXPR_ADD: *out = qty(l.v + r.v, l.dim); break;
		case EXPR_SUB: *out = qty(l.v - r.v, l.dim); break;
		case EXPR_MUL: *out = qty(l.v * r.v, dim_mul(l.dim, r.dim)); break;
		default: *out = qty(r.v == 0 ? NAN : l.v / r.v, dim_div(l.dim, r.dim)); break;
		}
		return true;
	default:
		return false; /* check.c rejected everything else */
	}
}

static bool holds(double l, CmpOp op, double r)
{
	double tol = 1e-9 * fmax(fabs(l), fabs(r));
	switch (op) {
	case CMP_LE: return l <= r + tol;
	case CMP_LT: return l < r - tol;
	case CMP_GE: return l >= r - tol;
	case CMP_GT: return l > r + tol;
	case CMP_EQ: return fabs(l - r) <= tol;
	}
	return false;
}

static const char *expr_text(const Expr *e)
{
	static char buf[4][256];
	static int k;
	char *b = buf[k++ % 4];
	int n = (int)(e->loc.end - e->loc.off);
	snprintf(b, 256, "%.*s", n > 200 ? 200 : n, e->loc.src->text + e->loc.off);
	return b;
}

static int evaluate_requirements_into(Design *d);

static bool reads_budget(const Expr *e, const Decl *site)
{
	switch (e->kind) {
	case EXPR_MEMBER:
		return e->member.base->kind == EXPR_NAME && e->member.base->name == site->name &&
		       strcmp(e->member.field, "power_budget") == 0;
	case EXPR_PAREN:
	case EXPR_NEG: return reads_budget(e->inner, site);
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV: return reads_budget(e->bin.l, site) || reads_budget(e->bin.r, site);
	default: return false;
	}
}

/* The site's power budget always holds (unless a require line already states it, which then
 * reports it); then every require line. Requirement violations found before are dropped first:
 * the cables change what the design costs. */
int judge_require(Design *d)
{
	int k = 0;
	for (int i = 0; i < d->violations.n; i++)
		if (!((Violation *)d->violations.v[i])->requirement)
			d->violations.v[k++] = d->violations.v[i];
	d->violations.n = k;
	int before = d->violations.n;
	evaluate_requirements_into(d);
	for (int i = before; i < d->violations.n; i++)
		((Violation *)d->violations.v[i])->requirement = true;
	return d->violations.n - before;
}

void judge_objectives(Design *d)
{
	d->nobjectives = 0;
	for (int i = 0; i < d->p->objectives.n && i < 8; i++) {
		const Objective *ob = &((Stmt *)d->p->objectives.v[i])->objective;
		Qty q = {NAN, DIM_NONE};
		judge_eval(d, ob->expr, &q, false);
		if (i == 0)
			d->objective_unit = design_base_unit(d->p->c->arena, q.dim);
		d->objective[d->nobjectives++] = ob->maximize ? -q.v : q.v;
	}
}

int judge_design(Design *d)
{
	judge_require(d); /* Violations: reported by design_validate, not errors of the pass */
	d->built_objective = NAN;
	if (d->p->objectives.n) {
		Qty q = {NAN, DIM_NONE};
		if (judge_eval(d, ((Stmt *)d->p->objectives.v[0])->objective.expr, &q, false))
			d->built_objective = q.v;
	}
	return 0;
}

/* A fabric that plans growth (grow_to, docs/daytwo.md) keeps the site's headroom for it: the
 * nodes still to come, at the cluster's mean node power (with its scale-up trays' share) and
 * the facility's PUE, must fit the power budget too, or the planned final size could not be
 * powered without a new site. */
static void growth_headroom(Design *d, const Value *budget)
{
	const Totals *t = &d->t;
	if (t->nodes <= 0)
		return;
	double per_node = (t->it_power - t->power_by_cat[CAT_NETWORK] - t->power_by_cat[CAT_STORAGE] -
			   t->power_by_cat[CAT_OTHER]) / t->nodes;
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->sized || !f->grows || f->grow_nodes <= f->grow_from)
			continue;
		double final = t->facility_power + (f->grow_nodes - f->grow_from) * per_node * t->pue;
		if (final <= budget->q.v * (1 + 1e-9))
			continue;
		char need[64], have[64];
		qty_format((Qty){final, budget->q.dim}, need, sizeof need);
		qty_format(budget->q, have, sizeof have);
		design_violation(d, field_value(f->decl, FLD_FABRIC_GROW_TO)->loc, final / budget->q.v - 1,
				 budget->loc, "the site's budget",
				 "grown to %d nodes (fabric '%s''s grow_to), cluster '%s' would need %s "
				 "of facility power at peak; site '%s' allows %s",
				 f->grow_nodes, f->name, d->cluster->name, need, d->site->name, have);
		design_violation_quantity(d, final, budget->q.v, budget->q.dim);
	}
}

static int evaluate_requirements_into(Design *d)
{
	int before = d->violations.n;
	d->vsource = VS_REQUIREMENT, d->vfabric = -1;
	const Value *budget = field_value(d->site, FLD_SITE_POWER_BUDGET);
	bool stated = false;
	for (int i = 0; i < d->p->requires.n; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		stated |= reads_budget(rq->lhs, d->site) || reads_budget(rq->rhs, d->site);
	}
	if (budget && !stated && d->t.facility_power > budget->q.v * (1 + 1e-9)) {
		char need[64], have[64];
		qty_format((Qty){d->t.facility_power, budget->q.dim}, need, sizeof need);
		qty_format(budget->q, have, sizeof have);
		design_violation(d, budget->loc, d->t.facility_power / budget->q.v - 1,
				 d->cluster->name_loc, "cluster built here",
				 "cluster '%s' needs %s of facility power at peak; site '%s' allows %s",
				 d->cluster->name, need, d->site->name, have);
		design_violation_quantity(d, d->t.facility_power, budget->q.v, budget->q.dim);
	}
	if (budget && !stated)
		growth_headroom(d, budget);
	for (int i = 0; i < d->p->requires.n; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		Qty l, r;
		if (!judge_eval(d, rq->lhs, &l, false) || !judge_eval(d, rq->rhs, &r, false))
			continue;
		if (holds(l.v, rq->op, r.v))
			continue;
		char ls[64], rs[64];
		qty_format(l, ls, sizeof ls);
		qty_format(r, rs, sizeof rs);
		if (l.v >= PLAN_UNRUNNABLE) /* a workload attribute when no plan fits (plan.c) */
			snprintf(ls, sizeof ls, "unknown: no plan fits");
		double excess = fabs(l.v - r.v) / fmax(fmax(fabs(l.v), fabs(r.v)), 1e-300);
		const char *rel = rq->op == CMP_LE ? "more than"
				  : rq->op == CMP_LT ? "not less than"
				  : rq->op == CMP_GE ? "less than"
				  : rq->op == CMP_GT ? "not more than"
						     : "not equal to";
		/* A literal on the right is shown once, as a value. */
		const char *right = rq->rhs->kind == EXPR_NUMBER
					    ? rs
					    : arena_printf(d->p->c->arena, "%s (%s)", expr_text(rq->rhs), rs);
		design_violation(d, rq->loc, excess, NOLOC, NULL, "requirement not met: %s is %s, %s %s",
				 expr_text(rq->lhs), ls, rel, right);
		design_violation_quantity(d, l.v >= PLAN_UNRUNNABLE ? NAN : l.v, r.v, r.dim);
	}
	return d->violations.n - before;
}

/* ---- objectives ---------------------------------------------------------------------------- */

/* The first objective's value on the design as modelled now (NAN if it cannot be computed). */
static double first_objective(Design *d, const Objective *ob)
{
	model_design(d);
	Qty q = {NAN, DIM_NONE};
	if (!judge_eval(d, ob->expr, &q, false))
		return NAN;
	return ob->maximize ? -q.v : q.v;
}

void judge_weights(Design *d, double *per_money, double *per_watt)
{
	*per_money = 1, *per_watt = 0;
	const double MONEY = 1e6, WATTS = 1e3;
	for (int i = 0; i < d->p->objectives.n; i++) {
		const Objective *ob = &((Stmt *)d->p->objectives.v[i])->objective;
		double base = first_objective(d, ob);
		d->probe_money = MONEY;
		double m = (first_objective(d, ob) - base) / MONEY;
		d->probe_money = 0, d->probe_watts = WATTS;
		double w = (first_objective(d, ob) - base) / WATTS;
		d->probe_watts = 0;
		model_design(d);
		if (!isfinite(m) || !isfinite(w))
			continue;
		if (fabs(m) > 1e-12 || fabs(w) > 1e-12) {
			*per_money = m, *per_watt = w;
			return;
		}
	}
}

