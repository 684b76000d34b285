/*
 * overflow.c — numbers of the design that overflow (docs/language.md, "Limits"); the stage
 * `overflow`, the last of the pipeline.
 *
 * Every number in a spec is checked where it is written (a literal past about 1.8e308, or past
 * it once in base units, is an error at the literal), but the model multiplies and sums them:
 * `price = 1e308 USD` on 1,250 nodes gave a capex of infinity, written as null, and exit 0.
 * Once the design is whole and has no other spec errors, this looks at what the model computed and, for each figure that is not
 * finite although every input was, reports an error (exit 1) at the spec's field that made it
 * overflow: a BOM line's price or power times its quantity, the running sum of the capex or of
 * the power at the line where it overflowed, the energy cost at the site's electricity price,
 * the TCO at the horizon, a workload's time and energy at its token count.
 */
#include "passes.h"
#include "plan.h"

#include <math.h>

/* The field of decl named first in names that it has (through inheritance), or decl's name. */
static Loc field_loc(const Decl *decl, const char *const *names)
{
	for (int i = 0; decl && names[i]; i++) {
		const Value *v = decl_value(decl, names[i]);
		if (v)
			return v->loc;
	}
	return decl ? decl->name_loc : NOLOC;
}

static const char *const price_fields[] = {"price", "price_per_m", "capex_per_kw", NULL};
static const char *const power_fields[] = {"power", "tdp", "base_power", "max_power", NULL};

static int overflow(Design *d, Loc at, const char *what)
{
	Diag *g = diag_error(d->p->c, at,
			     "%s overflows: it passes about 1.8e308, the largest number clusterc "
			     "computes with",
			     what);
	diag_set_code(g, "overflow");
	return 1;
}

int overflow_check(Design *d)
{
	const Totals *t = &d->t;
	Ctx *c = d->p->c;
	int errors = 0;
	double capex = 0, power = 0;
	bool capex_said = false, power_said = false;
	for (int i = 0; i < d->nbom; i++) {
		const BomLine *l = &d->bom[i];
		const Decl *decl = l->model_part ? l->model_part->decl : NULL;
		const char *name = l->model_part ? l->model_part->name : l->part;
		if (!isfinite(l->total) && isfinite(l->quantity)) {
			errors += overflow(d, field_loc(decl, price_fields),
					   arena_printf(c->arena, "the cost of %g x '%s'", l->quantity,
							name));
			capex_said = true;
		} else if (isfinite(capex) && !isfinite(capex + l->total) && !capex_said) {
			errors += overflow(d, field_loc(decl, price_fields),
					   arena_printf(c->arena, "the capex, once %g x '%s' are added,",
							l->quantity, name));
			capex_said = true;
		}
		if (!isfinite(l->power) && isfinite(l->quantity)) {
			errors += overflow(d, field_loc(decl, power_fields),
					   arena_printf(c->arena, "the power of %g x '%s'", l->quantity,
							name));
			power_said = true;
		} else if (isfinite(power) && !isfinite(power + l->power) && !power_said) {
			errors += overflow(d, field_loc(decl, power_fields),
					   arena_printf(c->arena, "the power, once %g x '%s' are added,",
							l->quantity, name));
			power_said = true;
		}
		if (isfinite(l->total))
			capex += l->total;
		if (isfinite(l->power))
			power += l->power;
	}
	if (!errors && d->nbom > 0 && (!isfinite(t->capex) || !isfinite(t->it_power) ||
				       !isfinite(t->facility_power)))
		errors += overflow(d, d->cluster ? d->cluster->name_loc : NOLOC,
				   !isfinite(t->capex) ? "the capex" : "the power");
	if (errors)
		return errors;
	if (d->site && isfinite(t->facility_power) &&
	    (!isfinite(t->annual_energy) || !isfinite(t->annual_energy_cost)))
		errors += overflow(d, field_loc(d->site, (const char *const[]){"electricity", NULL}),
				   "the energy cost per year");
	else if (isfinite(t->capex) && isfinite(t->annual_energy_cost) && !isfinite(t->tco))
		errors += overflow(d, t->annual_energy_cost * t->horizon_years > t->capex
					      ? field_loc(d->site, (const char *const[]){"electricity", NULL})
					      : field_loc(d->cluster, (const char *const[]){"horizon", NULL}),
				   arena_printf(c->arena, "the total cost of ownership (capex and %g years "
							  "of energy at this price)",
						t->horizon_years));
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		if (!wp->r.found)
			continue;
		const char *const tokens[] = {"tokens", NULL};
		if (!isfinite(wp->time_to_train) || !isfinite(wp->energy))
			errors += overflow(d, field_loc(wp->workload, tokens),
					   arena_printf(c->arena, "the time or energy to train %s",
							wp->workload->name));
		else if (!isfinite(wp->energy_cost))
			errors += overflow(d, field_loc(d->site, (const char *const[]){"electricity", NULL}),
					   arena_printf(c->arena, "the energy cost of training %s",
							wp->workload->name));
	}
	return errors;
}
