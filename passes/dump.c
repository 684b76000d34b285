/*
 * dump.c — the IR as text after any pass (`--dump=PASS`), for debugging and for tests that pin
 * what a pass produced. Quantities print in base units with %.17g so a dump shows exactly what
 * the next pass receives.
 */
#include "passes.h"
#include "plan.h"

#include <math.h>
#include <string.h>

static void dump_value(FILE *out, const Value *v)
{
	if (!v) {
		fputs("-", out);
		return;
	}
	char dim[96];
	switch (v->kind) {
	case VAL_QTY:
		fprintf(out, "%.17g", v->q.v);
		if (!dim_is_none(v->q.dim))
			fprintf(out, " [%s]", dim_name(v->q.dim, dim, sizeof dim));
		break;
	case VAL_BOOL: fputs(v->b_val ? "true" : "false", out); break;
	case VAL_STRING: fprintf(out, "\"%s\"", v->s); break;
	case VAL_ENUM: fputs(v->s, out); break;
	case VAL_REF: fprintf(out, "&%s", v->ref->name); break;
	case VAL_COUNTED:
		dump_value(out, v->count);
		fprintf(out, " x &%s", v->ref->name);
		break;
	case VAL_RATIO: fprintf(out, "%.17g:%.17g", v->a, v->b); break;
	case VAL_RANGE: fprintf(out, "range(%.17g, %.17g, step %.17g)", v->lo, v->hi, v->step); break;
	case VAL_AUTO: fputs("auto", out); break;
	case VAL_LIST:
	case VAL_CHOICE:
	case VAL_CTOR:
		fprintf(out, "%s(", v->kind == VAL_LIST ? "" : v->kind == VAL_CHOICE ? "one_of" : v->ctor->name);
		for (int i = 0, first = 1; i < v->n; i++) {
			if (v->kind == VAL_CTOR && !v->items[i])
				continue;
			fputs(first ? "" : ", ", out);
			first = 0;
			if (v->kind == VAL_CTOR)
				fprintf(out, "%s = ", v->ctor->params[i].name);
			dump_value(out, v->items[i]);
		}
		fputs(")", out);
		break;
	}
}

static void dump_program(const Program *p, FILE *out, bool values)
{
	for (int i = 0; i < p->files.n; i++)
		fprintf(out, "file %s\n", ((File *)p->files.v[i])->src->path);
	for (int i = 0; i < p->decls.n; i++) {
		const Decl *d = p->decls.v[i];
		fprintf(out, "%s %s", d->kind_word, d->name);
		if (d->parent_name)
			fprintf(out, " : %s", d->parent_name);
		fprintf(out, "%s\n", d->used ? " (used)" : "");
		for (int j = 0; j < d->nfields; j++) {
			const Field *f = d->fields[j];
			fprintf(out, "  %s = ", f->name);
			if (values) {
				dump_value(out, f->val);
			} else {
				int n = (int)(f->value->loc.end - f->value->loc.off);
				fprintf(out, "%.*s", n, f->value->loc.src->text + f->value->loc.off);
			}
			fprintf(out, "%s\n", f->overridden ? "  (override)" : "");
		}
	}
}

static void dump_totals(const Design *d, FILE *out)
{
	const Totals *t = &d->t;
	fprintf(out, "currency %s\n", currency_name(d->currency));
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		fprintf(out, "group %s count %d per_rack %d racks %d domain_nodes %d power %.17g W "
			     "height %.17g m\n",
			g->type->name, g->count, g->per_rack, g->racks, g->domain_nodes, g->node_power,
			g->node_height);
	}
	fprintf(out, "accelerators %.17g\nnodes %.17g\nracks %.17g\n", t->accelerators, t->nodes, t->racks);
	fprintf(out, "it_power %.17g W\navg_it_power %.17g W\npue %.17g\nfacility_power %.17g W\n",
		t->it_power, t->avg_it_power, t->pue, t->facility_power);
	for (int k = 0; k < CAT_COUNT; k++)
		fprintf(out, "power.%s %.17g W\n", category_names[k], t->power_by_cat[k]);
	for (int k = 0; k < CAT_COUNT; k++)
		fprintf(out, "capex.%s %.17g\n", category_names[k], t->capex_by_cat[k]);
	fprintf(out, "capex %.17g\nannual_energy %.17g J\nannual_energy_cost %.17g\ntco %.17g\n",
		t->capex, t->annual_energy, t->annual_energy_cost, t->tco);
	if (!isnan(t->annual_carbon))
		fprintf(out, "annual_carbon %.17g kg\n", t->annual_carbon);
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->topology)
			continue;
		fprintf(out, "fabric %s %s switch %s radix %d breakout %d tiers %d planes %d rails %d "
			     "sus %d endpoints %d\n",
			f->decl->name, f->topology->name, f->switch_model->name, f->radix, f->breakout,
			f->tiers, f->planes, f->rails, f->sus, f->endpoints);
		fprintf(out, "  switches %d", f->switches);
		for (int k = 0; k < ST_COUNT; k++)
			if (f->by_tier[k])
				fprintf(out, " %s %d", switch_tier_names[k], f->by_tier[k]);
		fprintf(out, "\n  links %d", f->links);
		for (int k = 0; k < LT_COUNT; k++)
			if (f->links_by_tier[k])
				fprintf(out, " %s %d", link_tier_names[k], f->links_by_tier[k]);
		fprintf(out, "\n  bisection %.17g bit/s diameter %d ecmp %.17g\n", f->bisection,
			f->diameter, f->ecmp);
	}
	for (int i = 0; i < d->nscaleups; i++) {
		const ScaleUpInst *s = &d->scaleups[i];
		fprintf(out, "scale-up %s domains %d accelerators %d switches %d links %d\n",
			s->node->name, s->domains, s->domain_accels, s->nswitches, s->nlinks);
	}
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		fprintf(out, "decision %s.%s%s = %s of %d", x->decl->name, decision_field(d, x),
			x->in_count ? " (count)" : "", x->chosen_text ? x->chosen_text : "-",
			x->ncandidates);
		if (!isnan(x->next_best))
			fprintf(out, " (next best %s: %.17g)", x->next_best_text, x->next_best);
		fputc('\n', out);
	}
	for (int i = 0; i < d->violations.n; i++)
		fprintf(out, "violation %s\n", ((Violation *)d->violations.v[i])->msg);
}

static void dump_instances(const Design *d, FILE *out)
{
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		fprintf(out, "rack %s type %s row %d pos %d nodes %d storage %d power %.17g W limit %.17g W "
			     "height %.17g m\n",
			r->name, r->type->name, r->row, r->pos, r->nnodes, r->storage, r->power,
			r->power_limit, r->height_used);
	}
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		fprintf(out, "node %d %s type %s rack %s u %d domain %d accels %d ports %d\n", i,
			n->hostname, n->type->name, d->racks[n->rack].name, n->u, n->domain,
			n->first_accel, n->first_port);
	}
	fprintf(out, "accelerators %d\nports %d\n", d->naccels, d->nports);
}

/* Each workload's plan and alternatives with the model's step time and memory. */
static void dump_plans(const Design *d, FILE *out)
{
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanResult *r = &wp->r;
		for (int k = -1; k < r->nalt; k++) {
			const PlanConfig *c = k < 0 ? &r->best : &r->alt[k];
			const PlanCost *o = k < 0 ? &r->cost : &r->alt_cost[k];
			fprintf(out, "%s %s gpus %d tp %d pp %d dp %d cp %d ep %d micro %d v %d rc %s sp %d "
				     "dopt %d step %.17g s mem %.17g B mfu %.17g\n",
				k < 0 ? "plan" : "  alt", wp->workload->name, c->gpus, c->tp, c->pp, c->dp,
				c->cp, c->ep, c->micro, c->v, plan_recompute_names[c->recompute], c->sp,
				c->dopt, o->step, o->mem, o->mfu);
		}
	}
}

void dump_stage(const Program *p, const Design *d, Stage s, FILE *out)
{
	switch (s) {
	case STAGE_LOAD:
	case STAGE_RESOLVE:
	case STAGE_OVERRIDES:
		dump_program(p, out, false);
		break;
	case STAGE_CHECK:
		dump_program(p, out, true);
		break;
	case STAGE_DESIGN:
	case STAGE_DECIDE:
		dump_totals(d, out);
		break;
	case STAGE_ELABORATE:
	case STAGE_VALIDATE:
		dump_instances(d, out);
		break;
	case STAGE_PLAN:
		dump_plans(d, out);
		break;
	default:
		break;
	}
}

int stage_lookup(const char *name)
{
	for (int s = 0; s < STAGE_COUNT; s++)
		if (strcmp(stage_names[s], name) == 0)
			return s;
	return -1;
}
