/*
 * zone.c — rack zones: areas of the hall each with its own rack type, cooling, power class and
 * rows, and what stands in each (docs/placement.md, "Zones").
 *
 * A datacenter designer splits a hall by cooling: cold-plate liquid for the main hall,
 * immersion for the densest rows, air for the network racks (seed article 003, PRODUCT.md
 * section 2). A zone declaration says which rack type its racks are, its cooling and power
 * class when they are not the rack type's (each an open choice the optimizer makes per zone),
 * its own grid of rows, its floor loading and fit-out cost, and what it holds: node and storage
 * models (the cluster's groups of them) and fabrics (their switch racks). A spec without zones
 * has one implicit zone, "main", built from the cluster's rack type and network rack exactly
 * as the first generation did.
 *
 * zone_plan (racks.c calls it first) resolves every zone for the choices in force; zone_of
 * finds the zone of a node or storage model; zone_costs (model.c) gives each zone its IT power
 * (which sizes its cooling plant, cooling_plant.c) and the racks' and fit-out capex, zone by
 * zone.
 */
#include "passes.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Rack type, cooling and limits of z: the zone's own cooling, power class and nodes per rack
 * before its rack type's. */
static void resolve_rack(Design *d, ZoneInst *z, Decl *rack, const Decl *over)
{
	z->rack = rack;
	const Value *cv = over ? field_value(over, FLD_ZONE_COOLING) : NULL;
	z->cooling = cv && cv->kind == VAL_REF ? cv->ref : field_ref(rack, FLD_RACK_COOLING);
	z->rack_type = parts_of(d, rack);
	z->cooling_type = parts_of(d, z->cooling);
	if (!(over && field_num_set(over, FLD_ZONE_POWER_LIMIT, &z->limit)) &&
	    !field_num_set(rack, FLD_RACK_POWER_LIMIT, &z->limit))
		z->limit = INFINITY;
	z->cap = fmin(z->limit, z->cooling_type->cooling.max_rack_power);
	z->usable = z->rack_type->height - z->rack_type->rack.reserved;
	z->node_cap = z->cap;
	const Value *npr = over ? field_value(over, FLD_ZONE_NODES_PER_RACK) : NULL;
	if (!npr)
		npr = field_value(rack, FLD_RACK_NODES_PER_RACK);
	z->nodes_per_rack = npr && npr->kind == VAL_QTY ? (int)npr->q.v : 0;
	z->npr_loc = npr ? npr->loc : NOLOC;
}

/* The floor of z: its own grid, else the site's pitches and row length (per_row 0: place.c's
 * default length); the floor loading its own, else the site's. */
static void resolve_floor(Design *d, ZoneInst *z)
{
	const Value *site_floor = field_value(d->site, FLD_SITE_FLOOR);
	const Value *own = z->decl ? field_value(z->decl, FLD_ZONE_FLOOR) : NULL;
	const Value *fv = own && own->kind == VAL_CTOR ? own : site_floor;
	z->own_floor = own && own->kind == VAL_CTOR;
	z->rack_pitch = field_param_num(fv, PRM_GRID_RACK_PITCH);
	z->row_pitch = field_param_num(fv, PRM_GRID_ROW_PITCH);
	bool grid = fv && fv->kind == VAL_CTOR;
	z->per_row = grid ? (int)field_param_num(fv, PRM_GRID_RACKS_PER_ROW) : 0;
	z->floor_rows = z->own_floor ? (int)field_param_num(fv, PRM_GRID_ROWS) : 0;
	if (!(z->decl && field_num_set(z->decl, FLD_ZONE_FLOOR_LOADING, &z->floor_loading)) &&
	    !field_num_set(d->site, FLD_SITE_FLOOR_LOADING, &z->floor_loading))
		z->floor_loading = NAN;
	z->fit_out = z->decl ? money_field(d, z->decl, FLD_ZONE_FIT_OUT) : 0;
}

/* How many generations up from decl x stands (0: decl itself), or -1 when it is none of its
 * ancestors. */
static int distance(const Decl *x, const Decl *decl)
{
	int k = 0;
	for (const Decl *a = decl; a; a = a->parent, k++)
		if (a == x)
			return k;
	return -1;
}

int zone_of(Design *d, const Decl *model, Loc loc)
{
	if (!d->zoned)
		return 0;
	/* The zone holding the model itself, else its nearest ancestor: a zone holding DGX_H100
	 * holds every node inheriting from it that no other zone names more closely. */
	int best = -1, best_k = 0;
	for (int i = 0; i < d->nzones; i++) {
		const Value *hv = field_value(d->zones[i].decl, FLD_ZONE_HOLDS);
		for (int k = 0; hv && hv->kind == VAL_LIST && k < hv->n; k++) {
			int dist = hv->items[k]->kind == VAL_REF ? distance(hv->items[k]->ref, model) : -1;
			if (dist >= 0 && (best < 0 || dist < best_k))
				best = i, best_k = dist;
		}
	}
	if (best >= 0)
		return best;
	design_spec_error(d, loc, "%s '%s' stands in no zone: list it in the holds of one of cluster "
			   "'%s''s zones",
		   decl_kind_name(model->kind), model->name, d->cluster->name);
	return 0;
}

/* Each model and fabric in one zone's holds; the switch racks in the zone that holds the
 * fabrics (one zone for all: place.c stands the network groups in one zone's rows). */
static void check_holds(Design *d)
{
	d->net_zone = -1;
	for (int i = 0; i < d->nzones; i++) {
		const Value *hv = field_value(d->zones[i].decl, FLD_ZONE_HOLDS);
		for (int k = 0; hv && hv->kind == VAL_LIST && k < hv->n; k++) {
			const Value *it = hv->items[k];
			if (it->kind != VAL_REF)
				continue;
			for (int j = 0; j <= i; j++) {
				const Value *hj = field_value(d->zones[j].decl, FLD_ZONE_HOLDS);
				for (int m = 0; m < (j < i ? hj->n : k); m++)
					if (hj->items[m]->kind == VAL_REF && hj->items[m]->ref == it->ref)
						design_spec_error(d, it->loc, "'%s' is held by zone '%s' already: each "
								       "model and fabric stands in one zone",
							   it->ref->name, d->zones[j].name);
			}
			if (it->ref->kind != KIND_FABRIC)
				continue;
			if (d->net_zone >= 0 && d->net_zone != i)
				design_spec_error(d, it->loc, "fabric '%s' in zone '%s' and another in zone '%s': "
						       "every fabric's switch racks stand in one zone",
					   it->ref->name, d->zones[i].name, d->zones[d->net_zone].name);
			else
				d->net_zone = i;
		}
	}
}

void zone_plan(Design *d)
{
	Ctx *c = d->p->c;
	const Value *zv = field_value(d->cluster, FLD_CLUSTER_ZONES);
	int n = zv && zv->kind == VAL_LIST ? zv->n : 0;
	d->zoned = n > 0;
	int want = n > 0 ? n : 1;
	if (!d->zones || d->nzones != want)
		d->zones = arena_alloc(c->arena, sizeof(ZoneInst) * (size_t)want);
	d->nzones = want;
	for (int i = 0; i < want; i++) {
		ZoneInst *z = &d->zones[i];
		Decl *decl = n > 0 ? zv->items[i]->ref : NULL;
		*z = (ZoneInst){.name = decl ? decl->name : "main", .decl = decl,
				.loc = decl ? decl->name_loc : d->cluster->name_loc};
		resolve_rack(d, z, decl ? field_ref(decl, FLD_ZONE_RACK) : field_ref(d->cluster, FLD_CLUSTER_RACK),
			     decl);
		resolve_floor(d, z);
	}
	d->net_zone = 0;
	if (d->zoned)
		check_holds(d);
	if (d->net_zone < 0) /* no zone holds a fabric: their switch racks in the first zone */
		d->net_zone = 0;
	/* The rack type of the first zone stands for the design where one is asked (drawings'
	 * rack height, runs' drops: every zone's rack has that height). */
	const ZoneInst *z0 = &d->zones[0];
	d->rack = z0->rack, d->cooling = z0->cooling;
	d->rack_type = z0->rack_type, d->cooling_type = z0->cooling_type;
	d->rack_limit = z0->limit, d->rack_cap = z0->cap;
	for (int i = 1; i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		if (z->rack_type->height_u != z0->rack_type->height_u)
			design_spec_error(d, field_value(z->decl, FLD_ZONE_RACK)->loc,
				   "zone '%s' has %d U racks ('%s') and zone '%s' %d U ('%s'): give "
				   "every zone's racks one height (cable runs and drawings take one)",
				   z->name, z->rack_type->height_u, z->rack->name, z0->name,
				   z0->rack_type->height_u, z0->rack->name);
	}
}

/* A zone's share of the design's IT power at peak: its node groups' (scale-up switch trays
 * with them), its storage's, the network's in the zone of the switch racks, other loads in
 * the first zone. */
static void zone_power(Design *d)
{
	if (d->nzones == 1) {
		d->zones[0].it_power = d->t.it_power;
		return;
	}
	for (int i = 0; i < d->nzones; i++)
		d->zones[i].it_power = 0;
	double groups = 0;
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		double p = (double)g->count * g->type->power;
		if (g->domain_nodes > 1)
			for (int k = 0; k < g->type->node.ntrays; k++)
				p += (double)g->count / g->domain_nodes * g->type->node.trays[k].count *
				     g->type->node.trays[k].part->power;
		d->zones[g->zone].it_power += p;
		groups += p;
	}
	double storage = 0;
	for (int i = 0; i < d->nstorage_kinds; i++) {
		double p = d->storage[i].count * d->storage[i].part->power;
		d->zones[d->storage_zone ? d->storage_zone[i] : 0].it_power += p;
		storage += p;
	}
	/* The rest of the IT power: the network (switches, trays, cabling, fabric devices) to the
	 * switch racks' zone, other loads to the first; what is left after the groups and storage
	 * keeps the sum exactly the total. */
	double rest = d->t.it_power - groups - storage;
	double other = d->t.power_by_cat[CAT_OTHER];
	d->zones[d->net_zone].it_power += rest - other;
	d->zones[0].it_power += other;
}

/* Adds a BOM line for a model, or its quantity to the model's line added already. */
static void add_line(Design *d, PtrVec *lines, int from, const char *part, const Part *model,
		     double qty, const char *unit, double unit_price)
{
	if (qty <= 0)
		return;
	for (int i = from; i < lines->n; i++) {
		BomLine *b = lines->v[i];
		if (b->model_part == model && !strcmp(b->part, part)) {
			b->quantity += qty;
			b->total = b->quantity * b->unit_price;
			return;
		}
	}
	BomLine *b = arena_alloc(d->c->arena, sizeof *b);
	*b = (BomLine){part, model, model->name, model->description, qty, unit, unit_price,
		       qty * unit_price, 0, 0};
	vec_push(d->c->arena, lines, b);
}

void zone_costs(Design *d, PtrVec *lines)
{
	Totals *t = &d->t;
	zone_power(d);
	d->zones[d->net_zone].network_racks = d->network_racks;
	/* Racks by zone and the switch racks of the network rack type (racks.c), a line per
	 * model ... */
	int from = lines->n;
	for (int i = 0; i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		add_line(d, lines, from, "rack", z->rack_type, z->racks, "", z->rack_type->price);
	}
	const Part *net = d->net_rack_type ? d->net_rack_type : d->rack_type;
	add_line(d, lines, from, "rack", net, d->network_racks, "", net->price);
	t->capex_by_cat[CAT_RACKS] = 0;
	for (int i = from; i < lines->n; i++)
		t->capex_by_cat[CAT_RACKS] += ((BomLine *)lines->v[i])->total;
	/* ... fit-out once per zone ... */
	for (int i = 0; i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		if (z->fit_out <= 0)
			continue;
		t->capex_by_cat[CAT_RACKS] += z->fit_out;
		BomLine *b = arena_alloc(d->c->arena, sizeof *b);
		*b = (BomLine){"zone fit-out", NULL, z->name, "", 1, "", z->fit_out, z->fit_out, 0, 0};
		if (z->decl) {
			const Value *dv = field_value(z->decl, FLD_ZONE_DESCRIPTION);
			b->description = dv && dv->kind == VAL_STRING ? dv->s : "";
		}
		vec_push(d->c->arena, lines, b);
	}
}
