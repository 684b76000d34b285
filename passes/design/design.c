/*
 * design.c — the frame of a design and the questions every later pass asks of it.
 *
 * design_init finds the one cluster to build and what it stands on (site, rack type, cooling,
 * power system) and the report currency, and checks once that every price in use converts to
 * that currency through the cluster's explicit exchange rates. design_eval computes the value of
 * a require or objective expression for the design in force: settable fields read their
 * checked value, derived attributes (capex, facility_power ...) read the model's totals.
 * Requirements that fail become Violations, reported at the end as exit-2 diagnostics with the
 * numbers on both sides.
 */
#include "passes.h"
#include "plan.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>




void design_violation(Design *d, Loc loc, double excess, Loc note_loc, const char *note,
		      const char *fmt, ...)
{
	Violation *v = arena_alloc(d->p->c->arena, sizeof *v);
	va_list ap;
	va_start(ap, fmt);
	v->msg = arena_vprintf(d->p->c->arena, fmt, ap);
	va_end(ap);
	v->loc = loc;
	v->excess = excess;
	v->source = d->vsource;
	v->fabric = d->vfabric;
	v->zone = d->vzone - 1;
	v->note_loc = note_loc;
	v->note = note;
	vec_push(d->p->c->arena, &d->violations, v);
}

/* A dimension's base units as text: "W" for power, "bit/s", "J", "s", "CNY", "CNY/s", else
 * the base units with exponents ("m^2", "J/bit"). */
const char *design_base_unit(Arena *a, Dim dim)
{
	static const char *const names[] = {"m", "kg", "s", "J", "bit", "FLOP"};
	if (dim_eq(dim, dim_make(0, 0, -1, 1, 0, 0)))
		return "W";
	Buf num = {0}, den = {0};
	for (int i = 0; i < DIM_COUNT; i++) {
		int e = dim.e[i];
		if (!e)
			continue;
		const char *n = i < DIM_FIRST_CURRENCY ? names[i] : currency_name(i - DIM_FIRST_CURRENCY);
		Buf *b = e > 0 ? &num : &den;
		int k = e > 0 ? e : -e;
		buf_printf(b, "%s%s", b->len ? "*" : "", n);
		if (k > 1)
			buf_printf(b, "^%d", k);
	}
	const char *s = arena_printf(a, "%s%s%s", num.len ? num.s : "1", den.len ? "/" : "",
				     den.len ? den.s : "");
	buf_free(&num);
	buf_free(&den);
	return dim_is_none(dim) ? "" : s;
}

void design_violation_quantity(Design *d, double value, double limit, Dim dim)
{
	if (!d->violations.n)
		return;
	Violation *v = d->violations.v[d->violations.n - 1];
	v->has_quantity = true;
	v->value = value;
	v->limit = limit;
	v->unit = design_base_unit(d->p->c->arena, dim);
}

int design_validate(Design *d)
{
	/* When choices were open, say which design the numbers are of. */
	const char *which = NULL;
	if (d->violations.n && d->decisions.n) {
		Buf b = {0};
		for (int i = 0; i < d->decisions.n; i++) {
			const Decision *x = d->decisions.v[i];
			buf_printf(&b, "%s%s.%s = %s", i ? ", " : "", x->name, x->field_name,
				   x->chosen_text);
		}
		/* The cables are chosen after the decision (docs/optimization.md): a design whose
		 * only violations are links no medium in scope makes met every requirement the
		 * optimizer weighed, and saying none did would mislead. */
		bool cables_only = true;
		for (int i = 0; i < d->violations.n; i++)
			if (((const Violation *)d->violations.v[i])->source != VS_CABLE)
				cables_only = false;
		/* After rounds that excluded designs the cable stage rejected (pipeline.c), the
		 * count says the rounds are spent, or that no other option was left. */
		const char *rounds = d->nnogoods
					     ? arena_printf(d->p->c->arena,
							    " (%d design%s rejected at cabling before "
							    "this one were excluded and the choices "
							    "decided again; --timings lists them)",
							    d->nnogoods, d->nnogoods == 1 ? "" : "s")
					     : "";
		which = cables_only ? arena_printf(d->p->c->arena,
						   "the open choices are decided before the cables, "
						   "which the optimizer does not weigh%s; the design "
						   "kept, of the %d explored, has %s",
						   rounds, d->combinations, b.s)
				    : arena_printf(d->p->c->arena,
						   "no design the open choices allow meets the "
						   "requirements; the closest of the %d explored, "
						   "shown here, has %s",
						   d->combinations, b.s);
		buf_free(&b);
	}
	for (int i = 0; i < d->violations.n; i++) {
		Violation *v = d->violations.v[i];
		Diag *dg = diag_error(d->p->c, v->loc, "%s", v->msg);
		diag_set_code(dg, "unmet");
		if (v->has_quantity)
			diag_set_quantity(dg, v->value, v->limit, v->unit);
		if (v->note)
			diag_note(dg, v->note_loc, "%s", v->note);
		if (which && i == 0)
			diag_note(dg, NOLOC, "%s", which);
		if (d->relaxation && i == 0)
			diag_note(dg, NOLOC, "the smallest change that would let every requirement hold: %s",
				  d->relaxation);
		if (d->relaxation_alternatives && i == 0)
			diag_note(dg, NOLOC, "%s: %s",
				  strstr(d->relaxation_alternatives, "; or ") ? "any one of these alone would do too"
									       : "this alone would do too",
				  d->relaxation_alternatives);
	}
	d->p->unmet += d->violations.n;
	return d->violations.n;
}

/* A rack of its zone's rack type and cooling (a switch rack: the network rack's, racks.c):
 * its power class, and its cap, the lower of that and what its cooling can remove. Every
 * rack's cap is decided here. */
void design_rack_init(const Design *d, RackInst *r)
{
	if (r->network)
		r->zone = d->net_zone;
	const ZoneInst *z = &d->zones[r->zone];
	r->type = r->network ? d->net_rack_type : z->rack_type;
	r->cooling = r->network ? d->net_cooling_type : z->cooling_type;
	r->power_limit = r->network ? d->net_rack_limit : z->limit;
	r->cap = r->network ? d->net_rack_cap : z->cap;
	r->mass = NAN;
	r->group = -1;
	r->domain = -1;
}

/* Every money value of every declaration in use must convert. */
static int check_currencies(Design *d)
{
	Program *p = d->p;
	int errors = 0;
	for (int i = 0; i < p->decls.n; i++) {
		Decl *decl = p->decls.v[i];
		if (!decl->used || decl->kind < 0)
			continue;
		for (int j = 0; j < decl->nfields; j++) {
			Field *f = decl->fields[j];
			const Value *v = f->val;
			if (!v || v->kind != VAL_QTY || dim_currency(v->q.dim) < 0)
				continue;
			if (f->name == intern_cstr(p->c, "exchange_rates"))
				continue;
			double out;
			if (!money_convert(d, 1, v->q.dim, v->loc, true, &out))
				errors++;
		}
	}
	return errors;
}

int design_init(Design *d, Program *p)
{
	Ctx *c = p->c;
	*d = (Design){.p = p, .c = p->c,
		      .spec_path = p->root && p->root->src && p->root->src->path ? p->root->src->path : "",
		      .scenario_name = p->scenario ? p->scenario : "default", .verify = d->verify, .time_limit = d->time_limit,
		      .exhaustive = d->exhaustive, .timings = d->timings, .built_objective = NAN,
		      .cable_hint_money = d->cable_hint_money, .cable_hint_watts = d->cable_hint_watts,
		      .nogoods = d->nogoods, .nnogoods = d->nnogoods,
		      .prior = d->prior, .numbers_only = d->numbers_only,
		      .switch_ports_later = d->switch_ports_later, .physical_kept = d->physical_kept};
	int before = diag_errors(c);
	/* check.c allows one cluster per spec. */
	for (int i = 0; i < p->decls.n && !d->cluster; i++)
		if (((Decl *)p->decls.v[i])->kind == KIND_CLUSTER)
			d->cluster = p->decls.v[i];
	if (!d->cluster) {
		Diag *dg = diag_error(c, NOLOC, "%s declares no cluster: there is nothing to build",
				      p->root->src->path);
		diag_set_code(dg, "no-cluster");
		return diag_errors(c) - before;
	}
	d->site = field_ref(d->cluster, FLD_CLUSTER_SITE);
	d->cluster_name = d->cluster->name;
	d->cluster_loc = d->cluster->name_loc;
	d->site_name = d->site->name;
	d->currency = eval_currency(d->cluster);
	const Value *pw = field_value(d->site, FLD_SITE_POWER);
	d->power = pw && pw->kind == VAL_REF ? pw->ref : NULL;
	const Value *h = field_value(d->cluster, FLD_CLUSTER_HORIZON);
	d->t.horizon_years = h && h->kind == VAL_QTY ? h->q.v / SECONDS_PER_YEAR : 5;
	check_currencies(d);
	d->electricity = money_field(d, d->site, FLD_SITE_ELECTRICITY);
	return diag_errors(c) - before;
}

/* A mistake in the spec that planning finds (exit 1); silent while choices are explored, as
 * the final evaluation of the design kept reports it. */
Diag *design_spec_error(Design *d, Loc loc, const char *fmt, ...)
{
	d->spec_errors++;
	if (d->quiet)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(d->p->c->arena, fmt, ap);
	va_end(ap);
	Diag *dg = diag_error(d->p->c, loc, "%s", msg);
	diag_set_code(dg, "inconsistent");
	return dg;
}
