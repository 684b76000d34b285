/*
 * decide.c — the open choices of a spec, decided.
 *
 * The choices this version models are the rack's power class, cooling and nodes per rack, the
 * cluster's rack type and node counts, and a fabric's switch model, planes, oversubscription and
 * topology parameters (one_of, integer ranges, auto); `auto` tiers, planes and dragonfly groups
 * are left to fabric sizing, which takes the smallest shape that holds the endpoints. Every
 * combination of their options is a design; each is planned and costed (racks.c, model.c), its requirements
 * evaluated, and the best feasible one kept: objectives compared in the order written
 * (lexicographically), maximize as the negative, ties to the combination met first (options in
 * the order written), so the same spec always gives the same design. The search is exact; its
 * size is the product of the options, bounded by MAX_COMBINATIONS (the MILP optimizer takes
 * over larger spaces). For each choice it also records the best design with another option
 * there: what the choice saved. When no combination meets the requirements, the one that
 * misses them by least is kept and its violations are reported (exit 2).
 *
 * Choices in fields this version does not model (workload parameters) stay open for the planner.
 */
#include "passes.h"

#include <math.h>
#include <string.h>
#include <time.h>

enum { MAX_COMBINATIONS = 200000, MAX_OPTIONS = 100000 };

static bool modelled(const Decl *d, const char *field)
{
	if (d->kind == KIND_RACK)
		return !strcmp(field, "power_limit") || !strcmp(field, "cooling") ||
		       !strcmp(field, "nodes_per_rack");
	if (d->kind == KIND_CLUSTER)
		return !strcmp(field, "rack") || !strcmp(field, "nodes");
	if (d->kind == KIND_FABRIC)
		return !strcmp(field, "switch") || !strcmp(field, "planes") ||
		       !strcmp(field, "oversubscription") || !strcmp(field, "topology");
	return false;
}

static const char *source_text(Design *d, Loc loc)
{
	return arena_printf(d->p->c->arena, "%.*s", (int)(loc.end - loc.off), loc.src->text + loc.off);
}

static Value *number(Design *d, double v, Loc loc)
{
	Value *x = arena_alloc(d->p->c->arena, sizeof *x);
	*x = (Value){.kind = VAL_QTY, .loc = loc, .q = {v, DIM_NONE}};
	return x;
}

/* Declarations of a kind, as options of `auto`. */
static int all_of_kind(Design *d, int kind, const Value ***opts, const char ***texts, Loc loc)
{
	Program *p = d->p;
	*opts = arena_alloc(p->c->arena, sizeof(Value *) * (size_t)(p->decls.n + 1));
	*texts = arena_alloc(p->c->arena, sizeof(char *) * (size_t)(p->decls.n + 1));
	int n = 0;
	for (int i = 0; i < p->decls.n; i++) {
		Decl *x = p->decls.v[i];
		if (x->kind != kind)
			continue;
		Value *v = arena_alloc(p->c->arena, sizeof *v);
		*v = (Value){.kind = VAL_REF, .loc = loc, .ref = x};
		(*opts)[n] = v;
		(*texts)[n++] = x->name;
	}
	return n;
}

/* The options of one open choice; 0 after a diagnostic. */
static int options(Design *d, OpenChoice *o, const Value *choice, const FieldSchema *fs)
{
	Ctx *c = d->p->c;
	if (choice->kind == VAL_CHOICE) {
		o->opts = arena_alloc(c->arena, sizeof(Value *) * (size_t)choice->n);
		o->texts = arena_alloc(c->arena, sizeof(char *) * (size_t)choice->n);
		for (int i = 0; i < choice->n; i++) {
			o->opts[i] = choice->items[i];
			o->texts[i] = source_text(d, choice->items[i]->loc);
		}
		return choice->n;
	}
	double lo = choice->lo, hi = choice->hi, step = choice->step;
	if (choice->kind == VAL_AUTO) {
		if (fs && fs->type == FT_REF) {
			int kind = 0;
			while (!(fs->kinds & (1u << kind)))
				kind++;
			return all_of_kind(d, kind, &o->opts, &o->texts, choice->loc);
		}
		if (o->counted) {
			/* A free count: from 1 to as many as the site's power budget could feed. */
			const Value *budget = field_value(d->site, FLD_SITE_POWER_BUDGET);
			double each = design_part(d, o->counted)->power;
			lo = 1, step = 1;
			hi = budget && each > 0 ? floor(budget->q.v / each) : 1;
		} else if (fs && !strcmp(fs->name, "nodes_per_rack")) {
			o->opts = arena_alloc(c->arena, sizeof(Value *));
			o->texts = arena_alloc(c->arena, sizeof(char *));
			o->opts[0] = NULL; /* unset: as many as fit */
			o->texts[0] = "as many as fit";
			return 1;
		} else {
			Diag *dg = diag_error(c, choice->loc, "auto is not supported for '%s' yet: list the "
							      "options with one_of(...)",
					      fs ? fs->name : "this field");
			diag_set_code(dg, "not-modelled");
			return 0;
		}
	}
	double count = floor((hi - lo) / step) + 1;
	if (count > MAX_OPTIONS) {
		Diag *dg = diag_error(c, choice->loc, "this range has %.0f options; clusterc explores at "
						      "most %d: narrow it or add a step",
				      count, MAX_OPTIONS);
		diag_set_code(dg, "too-many-options");
		return 0;
	}
	int n = (int)count;
	o->opts = arena_alloc(c->arena, sizeof(Value *) * (size_t)n);
	o->texts = arena_alloc(c->arena, sizeof(char *) * (size_t)n);
	for (int i = 0; i < n; i++) {
		o->opts[i] = number(d, lo + i * step, choice->loc);
		o->texts[i] = arena_printf(c->arena, "%.0f", lo + i * step);
	}
	return n;
}

void set_choice(OpenChoice *o, int i)
{
	o->cur = i;
	*o->slot = (Value *)o->opts[i];
}

static int add_open(Design *d, PtrVec *opens, Decl *decl, Field *f, const char *param,
		    Value **slot, const Decl *counted, const FieldSchema *fs)
{
	Ctx *c = d->p->c;
	const Value *choice = *slot;
	OpenChoice *o = arena_alloc(c->arena, sizeof *o);
	Decision *dec = arena_alloc(c->arena, sizeof *dec);
	*dec = (Decision){.decl = decl, .field = f, .param = param, .choice = choice,
			  .in_count = counted != NULL, .next_best = NAN, .name = decl->name};
	dec->field_name = param ? arena_printf(c->arena, "%s.%s", f->name, param) : f->name;
	o->dec = dec;
	o->slot = slot;
	o->counted = counted;
	o->nopts = options(d, o, choice, fs);
	if (o->nopts == 0)
		return 1;
	o->best_with = arena_alloc(c->arena, sizeof(double) * (size_t)o->nopts);
	for (int q = 0; q < o->nopts; q++)
		o->best_with[q] = INFINITY;
	dec->ncandidates = o->nopts;
	vec_push(c->arena, opens, o);
	vec_push(c->arena, &d->decisions, dec);
	return 0;
}

static bool is_open(const Value *v)
{
	return v && (v->kind == VAL_CHOICE || v->kind == VAL_RANGE || v->kind == VAL_AUTO);
}

/* Every open choice in a modelled field: the field itself, the counts of COUNT x NAME items,
 * and the parameters of a constructor (except auto ones: sizing picks the smallest shape). */
int collect_choices(Design *d, PtrVec *opens)
{
	int errors = 0;
	for (int i = 0; i < d->p->decls.n; i++) {
		Decl *decl = d->p->decls.v[i];
		if (!decl->used || decl->kind < 0)
			continue;
		for (int j = 0; j < decl->nfields; j++) {
			Field *f = decl->fields[j];
			Value *v = f->val;
			if (!v || !modelled(decl, f->name))
				continue;
			const FieldSchema *fs = schema_field(decl->kind, f->name);
			if (is_open(v)) {
				/* auto planes: fabric sizing takes the fewest that fit. */
				if (!(v->kind == VAL_AUTO && decl->kind == KIND_FABRIC))
					errors += add_open(d, opens, decl, f, NULL, &f->val, NULL, fs);
				continue;
			}
			if (v->kind == VAL_COUNTED && is_open(v->count))
				errors += add_open(d, opens, decl, f, NULL, &v->count, v->ref, NULL);
			for (int k = 0; v->kind == VAL_LIST && k < v->n; k++)
				if (v->items[k] && v->items[k]->kind == VAL_COUNTED && is_open(v->items[k]->count))
					errors += add_open(d, opens, decl, f, NULL, &v->items[k]->count,
							   v->items[k]->ref, NULL);
			for (int k = 0; v->kind == VAL_CTOR && k < v->n; k++)
				if (is_open(v->items[k]) && v->items[k]->kind != VAL_AUTO)
					errors += add_open(d, opens, decl, f, v->ctor->params[k].name,
							   &v->items[k], NULL, &v->ctor->params[k]);
		}
	}
	return errors;
}

/* Plans, costs and checks the design in force. Returns true when it meets everything. */
bool evaluate_design(Design *d)
{
	d->violations.n = 0;
	d->spec_errors = 0;
	d->vsource = VS_NODES, d->vfabric = -1;
	plan_racks(d);
	fabric_size(d);
	plan_network_racks(d);
	model_design(d);
	evaluate_requirements(d);
	d->nobjectives = 0;
	for (int i = 0; i < d->p->objectives.n && i < 8; i++) {
		const Objective *ob = &((Stmt *)d->p->objectives.v[i])->objective;
		Qty q = {NAN, DIM_NONE};
		design_eval(d, ob->expr, &q, false);
		d->objective[d->nobjectives++] = ob->maximize ? -q.v : q.v;
	}
	return d->violations.n == 0 && d->spec_errors == 0;
}

/* The first objective's value on the design as modelled now (NAN if it cannot be computed). */
static double first_objective(Design *d, const Objective *ob)
{
	model_design(d);
	Qty q = {NAN, DIM_NONE};
	if (!design_eval(d, ob->expr, &q, false))
		return NAN;
	return ob->maximize ? -q.v : q.v;
}

void objective_weights(Design *d, double *per_money, double *per_watt)
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

/* Objectives and requirements must be computable by this version: say so once, up front. */
static int check_computable(Design *d)
{
	int errors = 0;
	for (int i = 0; i < d->p->objectives.n; i++) {
		Qty q;
		if (!design_eval(d, ((Stmt *)d->p->objectives.v[i])->objective.expr, &q, true))
			errors++;
	}
	for (int i = 0; i < d->p->requires.n; i++) {
		const Require *rq = &((Stmt *)d->p->requires.v[i])->require;
		Qty q;
		if (!design_eval(d, rq->lhs, &q, true) || !design_eval(d, rq->rhs, &q, true))
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
	collect_choices(d, &opens);
	if (diag_errors(c) > before)
		return diag_errors(c) - before;
	/* Every attribute the requirements and objectives read must be one the model computes. */
	if (opens.n > 0) {
		for (int i = 0; i < opens.n; i++)
			set_choice(opens.v[i], 0);
		d->quiet = true;
		evaluate_design(d);
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
		set_choice(opens.v[i], 0);

	d->quiet = true;
	evaluate_design(d);
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
			set_choice(o, (int)(rest % o->nopts));
			rest /= o->nopts;
		}
		bool ok = evaluate_design(d);
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
		set_choice(o, pick);
		o->dec->chosen = o->opts[pick];
		o->dec->chosen_text = o->texts[pick];
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
	evaluate_design(d);
	d->solve_ms = now_ms() - t0;
	return diag_errors(c) - before;
}
