/*
 * factor.c — the optimizer's factors tabulated (docs/optimization.md, "Factors"): each part of
 * the design (the nodes', each zone's own choices', each fabric's, the workloads') evaluated by the candidate's passes
 * for every joint option of the open choices it reads, and only those (typed field access
 * records the reads: field_reads). optimize.c builds the model from the tables.
 */
#include "optimize.h"
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void factor_add(Opt *o, const char *name, int fabric)
{
	Factor *f = &o->factors[o->nfactors++];
	*f = (Factor){.name = name, .fabric = fabric};
	f->fams = arena_alloc(o->a, sizeof(int) * (size_t)(o->nfam + 1));
}

/* Sets the factor's joint option j (the last family fastest); other families stay as they are. */
static void set_joint(Opt *o, const Factor *f, int j)
{
	for (int k = f->nfams - 1; k >= 0; k--) {
		OpenChoice *c = o->opens->v[f->fams[k]];
		choice_set(c, j % c->nopts);
		j /= c->nopts;
	}
}

/* The design with only the fabrics in `keep` (a bit per fabric; -1 all): planned, sized, placed,
 * costed. Returns false when it has violations from its own parts. */
static void evaluate_with(Opt *o, unsigned long keep)
{
	Design *d = o->d;
	d->violations.n = 0;
	d->spec_errors = 0;
	d->vsource = VS_NODES, d->vfabric = -1;
	d->fabric_drop = ~keep;
	d->model_candidate(d);
	d->fabric_drop = 0;
	o->evaluations++;
}

/* Whether zone z has a factor of its own (its racks' violations are that factor's). */
static bool zone_factored(const Opt *o, int z)
{
	for (int k = 0; z >= 0 && k < o->nzone_factors; k++)
		if (o->factors[o->first_zone_factor + k].zone == z)
			return true;
	return false;
}

static bool part_ok(const Opt *o, const Factor *f)
{
	const Design *d = o->d;
	if (d->spec_errors)
		return false;
	for (int i = 0; i < d->violations.n; i++) {
		const Violation *v = d->violations.v[i];
		if (f->fabric == -1 && v->source == VS_NODES && !zone_factored(o, v->zone))
			return false;
		if (f->fabric == -3 && v->source == VS_NODES && v->zone == f->zone)
			return false;
		if (f->fabric >= 0 && v->source == VS_FABRIC && v->fabric == f->fabric)
			return false;
		if (f->fabric == -2 && v->source == VS_PLAN)
			return false;
	}
	return true;
}

static double atom_value(Opt *o, int a)
{
	Qty q = {NAN, DIM_NONE};
	if (!judge_eval(o->d, o->atoms[a].e, &q, false))
		return NAN;
	if (o->atoms[a].rate) /* the rate: interruptions a year, 0 when nothing fails */
		return q.v > 0 ? RATE_UNIT / q.v : NAN;
	return q.v;
}

/* A workload atom that reads the power, PUE or price (F_READS_POWER in lang/schema.def:
 * energy_to_train, cost_to_train, and effective_energy_to_train, the energy times the failures'
 * wall factor): its factor needs the whole model, not the planner's inputs alone. */
bool factor_work_needs_model(const Opt *o)
{
	for (int a = 0; a < o->natoms; a++)
		if (o->atoms[a].kind == ATOM_WORK && (o->atoms[a].flags & F_READS_POWER))
			return true;
	return false;
}

/* Takes factor pf's part at its joint option in force (already tabulated) off v and racks,
 * noting its families as read (the part depends on them). */
static void less_part(Opt *o, const Factor *pf, double *v, double *racks)
{
	field_note(pf->mask);
	int j = 0;
	for (int k = 0; k < pf->nfams; k++) {
		const OpenChoice *c = o->opens->v[pf->fams[k]];
		j = j * c->nopts + c->cur;
	}
	for (int a = 0; a < o->natoms; a++)
		if (o->atoms[a].kind == ATOM_TOTAL)
			v[a] -= pf->val[(size_t)j * o->natoms + a];
	*racks -= pf->racks[j];
}

/* The factor's part for the joint option in force, into v (natoms) and its racks; false when
 * the part cannot be built. */
static bool evaluate_part(Opt *o, const Factor *f, double *v, double *racks)
{
	Design *d = o->d;
	bool ok;
	if (f->fabric == -1 || f->fabric == -3) {
		evaluate_with(o, 0);
		ok = part_ok(o, f);
		for (int a = 0; a < o->natoms; a++)
			v[a] = o->atoms[a].kind == ATOM_TOTAL ? atom_value(o, a) : 0;
		*racks = d->t.racks;
		/* A zone's part: the design with its options, less the nodes' part (every zone at
		 * its first option there). */
		if (f->fabric == -3)
			less_part(o, &o->factors[0], v, racks);
	} else if (f->fabric >= 0) {
		/* The fabric's part: the design with it, less the design without it; and the
		 * fabric's own attributes whole. */
		evaluate_with(o, 1ul << f->fabric);
		ok = part_ok(o, f);
		for (int a = 0; a < o->natoms; a++) {
			const Atom *at = &o->atoms[a];
			bool own = at->kind == ATOM_FABRIC && at->fabric == f->fabric;
			v[a] = at->kind == ATOM_TOTAL || own ? atom_value(o, a) : 0;
		}
		*racks = d->t.racks;
		/* The design without it is the nodes' part, tabulated already: its families
		 * are read (the part depends on them), its evaluation is not repeated. Where
		 * the nodes' part cannot be built its numbers are 0, and no design takes it. */
		less_part(o, &o->factors[0], v, racks);
		for (int k = 0; k < o->nzone_factors; k++)
			less_part(o, &o->factors[o->first_zone_factor + k], v, racks);
	} else {
		if (o->work_model) {
			evaluate_with(o, ~0ul);
		} else {
			/* The planner's inputs alone: the node groups and the fabrics sized; what
			 * packing the racks read counts only where sizing reads its results, and a
			 * fabric's reads only where the planner reads the fabric (plan.c). */
			d->violations.n = 0;
			d->spec_errors = 0;
			d->vsource = VS_NODES, d->vfabric = -1;
			d->plan_only = true;
			racks_plan(d);
			fabric_size(d);
			d->plan_only = false;
			o->evaluations++;
		}
		for (int a = 0; a < o->natoms; a++)
			v[a] = o->atoms[a].kind == ATOM_WORK ? atom_value(o, a) : 0;
		/* Only the planner's violations are this part's: the racks' and the fabrics' are
		 * their factors' (every design has them there too). */
		ok = true;
		for (int i = 0; i < d->violations.n; i++)
			if (((const Violation *)d->violations.v[i])->source == VS_PLAN)
				ok = false;
		for (int a = 0; a < o->natoms; a++)
			if (o->atoms[a].kind == ATOM_WORK && (!isfinite(v[a]) || v[a] >= PLAN_UNRUNNABLE))
				ok = false; /* no plan fits */
		*racks = 0;
	}
	/* A part whose value cannot be computed (no plan, a division by nothing) cannot be
	 * chosen: the solver gets finite numbers only. */
	for (int a = 0; a < o->natoms; a++)
		if (!isfinite(v[a])) {
			if (o->atoms[a].kind != ATOM_CONST)
				ok = false;
			v[a] = 0;
		}
	if (!ok) /* fixed to 0: its numbers never reach the solver */
		for (int a = 0; a < o->natoms; a++)
			v[a] = 0;
	return ok;
}

/* The factor's families are the open choices its passes read (field_reads): every other one
 * stays at its first option while the factor is tabulated, so a family the evaluations never
 * read cannot change them. Starting from none, the joint options of the families read so far
 * are evaluated; a read of another family adds it and starts again. When none is added, every
 * evaluation read only the factor's families, so the part is a function of them alone. */
bool factor_tabulate(Opt *o, Factor *f)
{
	unsigned long long mask = 0, reads;
	int base_ok = -1; /* the first option of every family, once evaluated */
	double base_racks = 0, *base_val = arena_alloc(o->a, sizeof(double) * (size_t)(o->natoms + 1));
	for (int i = 0; i < o->nfam; i++)
		choice_set(o->opens->v[i], 0);
	for (;;) {
		f->nfams = 0;
		double n = 1;
		for (int i = 0; i < o->nfam; i++)
			if (mask & factor_bit(i)) {
				f->fams[f->nfams++] = i;
				n *= ((OpenChoice *)o->opens->v[i])->nopts;
			}
		if (n > MAX_JOINT)
			return false;
		if ((int)n > f->cap) {
			f->cap = (int)n;
			f->ok = arena_alloc(o->a, sizeof(bool) * (size_t)f->cap);
			f->val = arena_alloc(o->a, sizeof(double) * (size_t)f->cap * (size_t)(o->natoms ? o->natoms : 1));
			f->racks = arena_alloc(o->a, sizeof(double) * (size_t)f->cap);
			f->var = arena_alloc(o->a, sizeof(int) * (size_t)f->cap);
		}
		f->njoint = (int)n;
		bool grown = false;
		for (int j = 0; j < f->njoint && !grown; j++) {
			set_joint(o, f, j);
			if (j == 0 && base_ok >= 0) {
				/* every family at its first option: evaluated in the last round */
				f->ok[0] = base_ok;
				memcpy(f->val, base_val, sizeof(double) * (size_t)o->natoms);
				f->racks[0] = base_racks;
				continue;
			}
			reads = 0;
			field_reads = &reads;
			f->ok[j] = evaluate_part(o, f, &f->val[(size_t)j * o->natoms], &f->racks[j]);
			field_reads = NULL;
			reads &= ~f->exclude; /* held at their first option: other factors' */
			if (reads & ~mask) {
				mask |= reads;
				grown = true;
				if (j == 0) {
					base_ok = f->ok[0];
					memcpy(base_val, f->val, sizeof(double) * (size_t)o->natoms);
					base_racks = f->racks[0];
				}
				for (int i = 0; i < o->nfam; i++)
					choice_set(o->opens->v[i], 0);
			}
		}
		if (!grown) {
			f->mask = mask;
			if (o->d->p->c->verbose)
				fprintf(stderr, "optimizer: factor %s: %d families, %d joint options\n",
					f->name, f->nfams, f->njoint);
			return true;
		}
	}
}

