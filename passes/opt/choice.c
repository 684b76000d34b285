/*
 * choice.c — the open choices of a spec: every one_of, integer range and auto in a field this
 * version decides, its options, and the design with an option in force.
 *
 * The choices modelled are the rack's power class, cooling and nodes per rack (a zone's own
 * rack type, power class, cooling and nodes per rack too), the cluster's
 * rack type and node counts, and a fabric's switch model, planes, oversubscription and
 * topology parameters; `auto` tiers, planes and dragonfly groups are left to fabric sizing,
 * which takes the smallest shape that holds the endpoints. Choices in fields this version
 * does not model (workload parameters) stay open for the planner.
 *
 * An option is put in force by writing it into the program's value slot: every pass reads the
 * design through typed field access, so the candidate is the spec with that option written.
 */
#include "opt.h"

#include <math.h>
#include <string.h>

enum { MAX_OPTIONS = 100000 }; /* of one range: more would not be explored either */

/* The fields whose open choices this version decides. */
static bool modelled(FieldId f)
{
	switch (f) {
	case FLD_RACK_POWER_LIMIT:
	case FLD_RACK_COOLING:
	case FLD_RACK_NODES_PER_RACK:
	case FLD_ZONE_RACK:
	case FLD_ZONE_COOLING:
	case FLD_ZONE_POWER_LIMIT:
	case FLD_ZONE_NODES_PER_RACK:
	case FLD_CLUSTER_RACK:
	case FLD_CLUSTER_NODES:
	case FLD_FABRIC_SWITCH:
	case FLD_FABRIC_PLANES:
	case FLD_FABRIC_OVERSUBSCRIPTION:
	case FLD_FABRIC_LEAF_PLACEMENT:
	case FLD_FABRIC_TOPOLOGY: return true;
	default: return false;
	}
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
			double each = parts_of(d, o->counted)->power;
			lo = 1, step = 1;
			hi = budget && each > 0 ? floor(budget->q.v / each) : 1;
		} else if (fs && fs->id == FLD_RACK_NODES_PER_RACK) {
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

void choice_set(OpenChoice *o, int i)
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
int choice_collect(Design *d, PtrVec *opens)
{
	int errors = 0;
	for (int i = 0; i < d->p->decls.n; i++) {
		Decl *decl = d->p->decls.v[i];
		if (!decl->used || decl->kind < 0)
			continue;
		for (int j = 0; j < decl->nfields; j++) {
			Field *f = decl->fields[j];
			Value *v = f->val;
			const FieldSchema *fs = schema_field(decl->kind, f->name);
			if (!v || !fs || !modelled(fs->id))
				continue;
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
bool choice_evaluate(Design *d)
{
	d->violations.n = 0;
	d->spec_errors = 0;
	d->vsource = VS_NODES, d->vfabric = -1;
	d->model_candidate(d);
	d->judge_candidate(d);
	return d->violations.n == 0 && d->spec_errors == 0;
}

