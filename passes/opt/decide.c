/*
 * decide.c — the open choices of a spec (choice.c), decided.
 *
 * The MILP decides (optimize.c) when the requirements and objectives are linear in the
 * design's attributes. Otherwise every combination of the options is a design; each runs
 * through the candidate's passes (pipeline.c) and the best feasible one is kept: objectives compared in the order written
 * (lexicographically), maximize as the negative, ties to the combination met first (options in
 * the order written), so the same spec always gives the same design. The search is exact; its
 * size is the product of the options, bounded by MAX_COMBINATIONS (the MILP optimizer takes
 * over larger spaces). For each choice it also records the best design with another option
 * there: what the choice saved. When no combination meets the requirements, the one that
 * misses them by least is kept and its violations are reported (exit 2).
 */
#include "opt.h"
#include "share.h"

#include <math.h>
#include <string.h>
#include <time.h>

enum { MAX_COMBINATIONS = 200000 };

static double total_excess(const Design *d)
{
	double s = d->spec_errors ? 1e300 : 0;
	for (int i = 0; i < d->violations.n; i++)
		s += ((Violation *)d->violations.v[i])->excess;
	return s;
}

static bool better(const double *a, const double *b, int n)
{
	for (int i = 0; i < n; i++) {
		if (a[i] < b[i] - 1e-9 * fmax(fabs(a[i]), fabs(b[i])))
			return true;
		if (a[i] > b[i] + 1e-9 * fmax(fabs(a[i]), fabs(b[i])))
			return false;
	}
	return false;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Whether the options in force are a design the cable stage rejected (a no-good of
 * decide_cable_nogood: all its options chosen together). */
static bool rejected_at_cabling(const Design *d, const PtrVec *opens)
{
	for (int g = 0; g < d->nnogoods; g++) {
		const CableNogood *ng = &d->nogoods[g];
		bool all = ng->n > 0;
		for (int k = 0; k < ng->n && all; k++)
			all = ng->fam[k] < opens->n &&
			      ((const OpenChoice *)opens->v[ng->fam[k]])->cur == ng->opt[k];
		if (all)
			return true;
	}
	return false;
}

/* Objectives and requirements must be computable by this version: say so once, up front. */
static int check_computable(Design *d)
{
	int errors = 0;
	for (int i = 0; i < d->p->objectives.n; i++) {
		Qty q;
		if (!judge_eval(d, ((Stmt *)d->p->objectives.v[i])->objective.expr, &q, true))
			errors++;
	}
	for (int i = 0; i < d->p->requires.n; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		Qty q;
		if (!judge_eval(d, rq->lhs, &q, true) || !judge_eval(d, rq->rhs, &q, true))
			errors++;
	}
	return errors;
}

int decide_choices(Design *d)
{
	Ctx *c = d->p->c;
	int before = diag_errors(c);
	double t0 = now_ms();
	PtrVec opens = {0};
	choice_collect(d, &opens);
	if (diag_errors(c) > before)
		return diag_errors(c) - before;
	/* The planner's searches by their inputs (lang/share.c), kept for the whole build: when the
	 * cable stage rejects the design kept and the choices are decided again from a fresh parse
	 * (passes/pipeline.c), the second round asks the planner the first round's questions. In a
	 * `clusterc compare` the table is the rows' already. */
	/* Every attribute the requirements and objectives read must be one the model computes. */
	if (opens.n > 0) {
		share_start();
		for (int i = 0; i < opens.n; i++)
			choice_set(opens.v[i], 0);
		d->quiet = true;
		choice_evaluate(d);
		d->quiet = false;
		if (check_computable(d))
			return diag_errors(c) - before;
	}
	/* The MILP decides, unless a requirement or objective is not linear in the design's
	 * attributes; then every combination is evaluated, as below. */
	if (opens.n > 0 && !d->exhaustive) {
		bool fallback;
		int errors = optimize_choices(d, &opens, &fallback);
		if (!fallback) {
			d->solve_ms = now_ms() - t0;
			return errors;
		}
	}
	d->opt.solver = opens.n ? "enumeration" : NULL;
	double combos = 1;
	for (int i = 0; i < opens.n; i++)
		combos *= ((OpenChoice *)opens.v[i])->nopts;
	if (combos > MAX_COMBINATIONS) {
		Diag *dg = diag_error(c, ((OpenChoice *)opens.v[0])->dec->choice->loc,
				      "the open choices of this spec make %.0f designs; clusterc explores "
				      "at most %d: narrow some of them",
				      combos, MAX_COMBINATIONS);
		diag_set_code(dg, "too-many-options");
		for (int i = 0; i < opens.n && i < 6; i++) {
			OpenChoice *o = opens.v[i];
			diag_note(dg, o->dec->choice->loc, "%d options here", o->nopts);
		}
		return diag_errors(c) - before;
	}
	for (int i = 0; i < opens.n; i++)
		choice_set(opens.v[i], 0);

	d->quiet = true;
	choice_evaluate(d);
	d->quiet = false;
	if (check_computable(d))
		return diag_errors(c) - before;

	int nobj = d->p->objectives.n < 8 ? d->p->objectives.n : 8;
	int *best = arena_alloc(c->arena, sizeof(int) * (size_t)(opens.n + 1));
	int *least_bad = arena_alloc(c->arena, sizeof(int) * (size_t)(opens.n + 1));
	double best_obj[8], least_excess = INFINITY;
	bool found = false;
	d->quiet = true;
	for (long k = 0; k < (long)combos; k++) {
		/* Odometer over the options, the last choice fastest. */
		long rest = k;
		for (int i = opens.n - 1; i >= 0; i--) {
			OpenChoice *o = opens.v[i];
			choice_set(o, (int)(rest % o->nopts));
			rest /= o->nopts;
		}
		/* A design the cable stage rejected is no candidate, not even the least bad. */
		if (rejected_at_cabling(d, &opens))
			continue;
		bool ok = choice_evaluate(d);
		d->combinations++;
		if (ok) {
			for (int i = 0; i < opens.n; i++) {
				OpenChoice *o = opens.v[i];
				if (d->objective[0] < o->best_with[o->cur])
					o->best_with[o->cur] = d->objective[0];
			}
			if (!found || better(d->objective, best_obj, nobj)) {
				found = true;
				memcpy(best_obj, d->objective, sizeof best_obj);
				for (int i = 0; i < opens.n; i++)
					best[i] = ((OpenChoice *)opens.v[i])->cur;
			}
		} else if (!found) {
			double ex = total_excess(d);
			if (ex < least_excess) {
				least_excess = ex;
				for (int i = 0; i < opens.n; i++)
					least_bad[i] = ((OpenChoice *)opens.v[i])->cur;
			}
		}
	}
	d->quiet = false;
	for (int i = 0; i < opens.n; i++) {
		OpenChoice *o = opens.v[i];
		int pick = found ? best[i] : least_bad[i];
		choice_set(o, pick);
		o->dec->chosen = o->opts[pick];
		o->dec->chosen_text = o->texts[pick];
		o->dec->chosen_index = pick;
		/* What the choice saved: the best objective with any other option here. */
		double next = INFINITY;
		int next_i = -1;
		for (int q = 0; q < o->nopts; q++)
			if (q != pick && o->best_with[q] < next)
				next = o->best_with[q], next_i = q;
		if (next_i >= 0) {
			o->dec->next_best = d->p->objectives.n &&
						    ((Stmt *)d->p->objectives.v[0])->objective.maximize
					    ? -next
					    : next;
			o->dec->next_best_text = o->texts[next_i];
		}
	}
	choice_evaluate(d);
	d->solve_ms = now_ms() - t0;
	return diag_errors(c) - before;
}

/* The open decision of decl's field f (no constructor parameter; Field.id is 1 + FieldId), or -1. */
static int decision_of(const Design *d, const Decl *decl, FieldId f)
{
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		if (x->decl == decl && x->field && x->field->id == 1 + (int)f && !x->param)
			return i;
	}
	return -1;
}

bool decide_cable_nogood(Design *d, CableNogood *out)
{
	Arena *a = d->p->c->arena;
	const Violation *v = NULL;
	for (int i = 0; i < d->violations.n; i++) {
		const Violation *w = d->violations.v[i];
		if (w->source != VS_CABLE)
			return false;
		if (!v && w->fabric >= 0 && w->fabric < d->nfabrics)
			v = w;
	}
	if (!v || d->decisions.n == 0)
		return false;
	int fi = v->fabric;
	const FabricInst *f = &d->fabrics[fi];
	/* The ends of the links left without a medium: the fabric's own switch model (its
	 * `switch` field, not a tier's spine_switch or core_switch), a node's NIC. */
	bool sw = false, node = false, other = false;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		if (l->fabric != fi || c->cable || c->optic_a || c->optic_z)
			continue;
		const End ends[2] = {l->a, l->z};
		for (int e = 0; e < 2; e++) {
			if (ends[e].kind == END_SWITCH && d->switches[ends[e].dev].model == f->switch_model)
				sw = true;
			else if (ends[e].kind == END_NODE)
				node = true;
			else if (ends[e].kind != END_SWITCH)
				other = true;
		}
	}
	int *fam = arena_alloc(a, sizeof(int) * (size_t)(d->decisions.n + 1));
	int *opt = arena_alloc(a, sizeof(int) * (size_t)(d->decisions.n + 1));
	int n = 0;
	/* Proven: no length would do, so every design with these ends fails the same way (as far
	 * as the links' lanes meet their cages as here). Otherwise the run was too long for every
	 * medium that fits the ends: a design with the same ends and shorter runs may be cabled,
	 * and excluding the ends over-excludes it (docs/optimization.md). */
	bool proven = !other && !cable_fabric_joins_short(d, fi);
	bool whole = other;
	if (!whole) {
		int ds = sw ? decision_of(d, f->decl, FLD_FABRIC_SWITCH) : -1;
		int dn = node ? decision_of(d, d->cluster, FLD_CLUSTER_NODES) : -1;
		if (ds >= 0)
			fam[n++] = ds;
		if (dn >= 0)
			fam[n++] = dn;
		whole = n == 0; /* the ends are fixed: only the design itself is known bad */
	}
	if (whole) {
		n = 0;
		for (int i = 0; i < d->decisions.n; i++)
			fam[n++] = i;
	}
	Buf b = {0};
	if (whole)
		buf_puts(&b, "the design with ");
	for (int k = 0; k < n; k++) {
		const Decision *x = d->decisions.v[fam[k]];
		opt[k] = x->chosen_index;
		buf_printf(&b, "%s%s.%s = %s", k ? ", " : "", x->name, x->field_name, x->chosen_text);
	}
	/* The cable stage's own words, without its advice. */
	const char *msg = v->msg;
	int len = (int)strlen(msg), advice = (int)strlen(CABLE_NO_MEDIUM_ADVICE);
	if (len >= advice && !strcmp(msg + len - advice, CABLE_NO_MEDIUM_ADVICE))
		len -= advice;
	buf_printf(&b, ": %.*s%s", len, msg,
		   proven ? ", nor would at any length"
			  : whole ? "" : ", beyond the reach of every medium that fits its ends");
	*out = (CableNogood){.n = n, .fam = fam, .opt = opt, .whole = whole,
			     .text = arena_strdup(a, b.s)};
	buf_free(&b);
	return true;
}

/* A reliability attribute (F_RELIABILITY in lang/schema.def: job_mtbf, goodput, effective_*) of
 * program ctx: the optimizer's candidates weigh it without the power and cooling plant's events. */
static bool reliability_member(const Expr *e, const void *ctx)
{
	const FieldSchema *fs = check_member_field(ctx, e, NULL);
	return fs && (fs->flags & F_RELIABILITY);
}

/* What the optimizer did, as the reports give it: the MILP's result, or the exhaustive search's
 * (its bound proven, no gap), with the design as built and the cable estimate of a second
 * decision. The solve time only with --timings: every other byte of a build is the same from
 * run to run. */
int decide_report(Design *d)
{
	bool timings = d->timings;
	/* Each decision's place in the spec and its number, for report.json. */
	for (int i = 0; i < d->decisions.n; i++) {
		Decision *x = d->decisions.v[i];
		x->loc = x->choice ? x->choice->loc : NOLOC;
		bool num = x->chosen && x->chosen->kind == VAL_QTY;
		x->chosen_value = num ? x->chosen->q.v : NAN;
		x->chosen_unit = num ? design_base_unit(d->c->arena, x->chosen->q.dim) : NULL;
	}
	OptimizerReport r = {.solver = "enumeration", .status = "optimal", .objective = NAN,
			     .bound = NAN, .gap = NAN, .cable_money = NAN, .cable_watts = NAN};
	if (d->decisions.n == 0)
		r.solver = "none", r.status = "fixed";
	r.design_objective = d->built_objective;
	r.objective_unit = d->objective_unit;
	bool hinted = d->cable_hint_money > 0 || d->cable_hint_watts > 0;
	r.cable_money = hinted ? d->cable_hint_money : NAN;
	r.cable_watts = hinted ? d->cable_hint_watts : NAN;
	r.maximize = d->p->objectives.n && ((Stmt *)d->p->objectives.v[0])->objective.maximize;
	if (d->nnogoods) {
		const char **t = arena_alloc(d->c->arena, sizeof(char *) * (size_t)d->nnogoods);
		for (int i = 0; i < d->nnogoods; i++)
			t[i] = d->nogoods[i].text;
		r.rejected = d->nnogoods;
		r.rejected_text = t;
	}
	r.plant_left_out = d->p->objectives.n &&
			   check_reads_member(((Stmt *)d->p->objectives.v[0])->objective.expr,
					      reliability_member, d->p);
	if (d->opt.solver && !strcmp(d->opt.solver, "glpk")) {
		r.solver = "glpk";
		r.status = d->opt.status;
		r.objective = d->opt.objective;
		r.bound = d->opt.bound;
		r.gap = d->opt.gap;
		r.variables = d->opt.variables;
		r.constraints = d->opt.constraints;
		r.solve_ms = timings ? d->solve_ms : 0;
		d->report = r;
		return 0;
	}
	if (d->nobjectives > 0) {
		bool max = ((Stmt *)d->p->objectives.v[0])->objective.maximize;
		r.objective = max ? -d->objective[0] : d->objective[0];
		r.bound = r.objective; /* the search is exhaustive: the bound is proven */
		r.gap = 0;
	}
	r.variables = d->decisions.n;
	r.constraints = d->p->requires.n + 1; /* and the site's power budget */
	r.solve_ms = timings ? d->solve_ms : 0;
	d->report = r;
	return 0;
}

