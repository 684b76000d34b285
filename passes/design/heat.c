/*
 * heat.c — what each rack draws and sheds once the cables are chosen, how many cables end in
 * it, and the cable runs as the reports give them (docs/placement.md §2, §4).
 *
 * Power and heat. A rack's power counted its devices when they were mounted (nodes, storage,
 * switches, fabric managers, NVLink trays); here every cable end adds what is plugged in at
 * that end: a transceiver's whole power at the one link that counts its module (cage.c: a
 * cage's module on its first link, a NIC's on its own, a multi-port module at a device
 * without a modelled cage on every ports-th link), so a module is counted once however many
 * lanes share its cage; or half the link's share of an active cable or assembly (AOC, ACC,
 * AEC, a twin-port or breakout cable: both ends are powered). Every watt drawn
 * in a rack is shed there as heat, so the same total is what the rack's cooling must remove.
 * The sum is checked against the rack's cap (the lower of its power class and its cooling's
 * limit: a switch rack's are the network rack's) and its cables against its rack type's
 * max_cables; either over is a requirement the design does not meet (exit 2), said at the
 * rack's zone. Placement packed switch racks with every port at the most its media could draw
 * (place.c), node and storage racks with every NIC port so (racks.c, and a server-rack ToR's
 * cages), so the check holds by construction unless the spec forced the packing
 * (nodes_per_rack, a torus block); it proves it.
 *
 * Mass. A rack weighs its type's `weight` and every device's in it: nodes, switches, scale-up
 * trays, OCSes, fabric managers, storage, patch panels (NAN when one is unknown: that rack goes
 * unweighed); over its footprint it must stay under its zone's floor loading (the zone's, else
 * the site's) and under its type's max_weight, else a Violation at that limit, its note at the
 * zone (docs/placement.md, "Zones"). Switch and storage racks are checked as node racks are.
 *
 * Runs. Σ of the cables' runs (slack included), all and per link tier, the longest, and the
 * same sum had the racks stood by the median rule: a cable between two racks runs
 * (1 + slack share) × the change of the Manhattan distance between them further or shorter
 * (the drops and the end slack do not move; a cable inside one rack stays so).
 */
#include "cable.h"

#include <math.h>


double heat_end_power(const CableInst *c, bool z_end)
{
	const Part *o = z_end ? c->optic_z : c->optic_a;
	if (o)
		return (z_end ? c->module_z : c->module_a) ? o->power : 0;
	if (!c->cable || c->cable->kind != KIND_CABLE || c->media == MEDIA_FIBER)
		return 0;
	return c->power / 2;
}

/* The rack of a link end and the device's optics field, or -1. */
static inline int end_rack(Design *d, End e, double **optics)
{
	*optics = NULL;
	switch (e.kind) {
	case END_NODE:
		*optics = &d->optics_node[e.dev];
		return d->nodes[e.dev].rack;
	case END_SWITCH:
		*optics = &d->optics_switch[e.dev];
		return d->switches[e.dev].rack;
	case END_EXTRA:
		*optics = &d->optics_extra[e.dev];
		return d->extras[e.dev].rack;
	case END_ACCEL:
		return d->nodes[d->accels[e.dev].node].rack;
	default:
		return -1;
	}
}

/* Every rack's mass: its type's empty weight and that of every device standing in it — nodes,
 * switches (scale-up trays and OCSes among them), fabric managers and other endpoints,
 * storage appliances, patch panels. NAN when one of them gives no weight: that rack goes
 * unweighed. Cables are not weighed (no part gives a cable's mass). */
static void rack_masses(Design *d)
{
	for (int r = 0; r < d->nracks; r++)
		d->racks[r].mass = d->racks[r].type->rack.weight;
	for (int i = 0; i < d->nnodes; i++)
		if (d->nodes[i].rack >= 0)
			d->racks[d->nodes[i].rack].mass += d->nodes[i].type->weight;
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].rack >= 0)
			d->racks[d->switches[i].rack].mass += d->switches[i].model->weight;
	for (int i = 0; i < d->nextras; i++) /* an appliance is weighed below, once */
		if (d->extras[i].rack >= 0 && d->extras[i].appliance < 0)
			d->racks[d->extras[i].rack].mass += d->extras[i].type->weight;
	for (int i = 0; i < d->nappliances; i++)
		if (d->appliances[i].rack >= 0)
			d->racks[d->appliances[i].rack].mass += d->appliances[i].type->weight;
	for (int i = 0; i < d->npanels; i++)
		if (d->panels[i].rack >= 0)
			d->racks[d->panels[i].rack].mass += d->panels[i].part->weight;
}

/* Where a zone's racks are said to stand, for a diagnostic's note. */
static const char *zone_note(const Design *d, const ZoneInst *z)
{
	return d->zoned ? arena_printf(d->c->arena, "zone '%s' declared here: its racks stand there",
				       z->name)
			: "cluster built here";
}

/* The rack's mass over its footprint against the floor loading of its zone (its own, else the
 * site's): a Violation at that loading, the note at the zone. Also the rack type's static load
 * rating. */
static void check_floor(Design *d, const RackInst *r, const ZoneInst *z)
{
	if (!isfinite(r->mass))
		return;
	double area = r->type->rack.width * r->type->rack.depth;
	double load = r->mass / area;
	if (isfinite(z->floor_loading) && load > z->floor_loading * (1 + 1e-9)) {
		const Value *v = z->decl ? field_value(z->decl, FLD_ZONE_FLOOR_LOADING) : NULL;
		if (!v)
			v = field_value(d->site, FLD_SITE_FLOOR_LOADING);
		design_violation(d, v->loc, load / z->floor_loading - 1, z->loc, zone_note(d, z),
				 "rack %s weighs %.0f kg on its %.2f m^2 footprint (%.0f kg/m^2); the floor "
				 "%s carries %.0f kg/m^2",
				 r->name, r->mass, area, load,
				 d->zoned ? arena_printf(d->c->arena, "of zone '%s'", z->name)
					  : arena_printf(d->c->arena, "of '%s'", d->site->name),
				 z->floor_loading);
		design_violation_quantity(d, load, z->floor_loading, dim_make(-2, 1, 0, 0, 0, 0));
	}
	double rating = r->type->rack.max_weight;
	if (isfinite(rating) && r->mass > rating * (1 + 1e-9)) {
		const Value *v = field_value(r->type->decl, FLD_RACK_MAX_WEIGHT);
		design_violation(d, v->loc, r->mass / rating - 1, z->loc, zone_note(d, z),
				 "rack %s weighs %.0f kg with what it holds; rack '%s' is rated for %.0f kg",
				 r->name, r->mass, r->type->name, rating);
		design_violation_quantity(d, r->mass, rating, dim_make(0, 1, 0, 0, 0, 0));
	}
}

static void check_rack(Design *d, const RackInst *r)
{
	const ZoneInst *z = &d->zones[r->zone];
	const Decl *type = r->network ? d->net_rack : z->rack;
	int max_cables = r->network ? d->net_rack_cables : d->rack_cables;
	/* In a zoned design the zone says where the limit is set (its power class, its cooling);
	 * without zones, the rack type. */
	Loc at = d->zoned ? z->loc : type->name_loc;
	const char *in = d->zoned ? arena_printf(d->c->arena, " in zone '%s'", z->name) : "";
	d->vsource = VS_NODES, d->vfabric = -1;
	if (r->power > r->cap * (1 + 1e-9)) {
		design_violation(d, at, r->power / r->cap - 1, z->loc, zone_note(d, z),
				 "rack %s draws %.1f kW with its optics (%.1f kW of them); rack '%s'%s "
				 "allows %.1f kW",
				 r->name, r->power / 1e3, r->optics_power / 1e3, type->name, in, r->cap / 1e3);
		design_violation_quantity(d, r->power, r->cap, dim_make(0, 0, -1, 1, 0, 0));
	}
	if (max_cables && r->cables > max_cables) {
		const Value *v = field_value(type, FLD_RACK_MAX_CABLES);
		design_violation(d, v ? v->loc : type->name_loc, (double)r->cables / max_cables - 1,
				 d->cluster->name_loc, "cluster built here",
				 "rack %s ends %d cables; rack '%s' holds %d", r->name, r->cables,
				 type->name, max_cables);
		design_violation_quantity(d, r->cables, max_cables, DIM_NONE);
	}
	check_floor(d, r, z);
}

int heat_racks(Design *d)
{
	PlaceReport *pr = &d->place;
	for (int i = 0; i < LT_COUNT; i++)
		pr->run_by_tier[i] = pr->median_by_tier[i] = 0;
	pr->run = pr->median_run = pr->longest = 0;
	Arena *ar = d->c->arena;
	d->optics_node = arena_alloc(ar, sizeof(double) * (size_t)(d->nnodes + 1));
	d->optics_switch = arena_alloc(ar, sizeof(double) * (size_t)(d->nswitches + 1));
	d->optics_extra = arena_alloc(ar, sizeof(double) * (size_t)(d->nextras + 1));
	for (int i = 0; i < d->nnodes; i++)
		d->optics_node[i] = 0;
	for (int i = 0; i < d->nswitches; i++)
		d->optics_switch[i] = 0;
	for (int i = 0; i < d->nextras; i++)
		d->optics_extra[i] = 0;
	/* The sums in locals (the same additions in the same order): through pr each one was
	 * read back after every store to a rack or a device, which may alias it for all the
	 * compiler knows. */
	double run = 0, median_run = 0, longest = 0;
	double by_tier[LT_COUNT] = {0}, median_by_tier[LT_COUNT] = {0};
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		double *oa, *oz;
		int ra = end_rack(d, l->a, &oa), rz = end_rack(d, l->z, &oz);
		double wa = heat_end_power(c, false), wz = heat_end_power(c, true);
		if (ra >= 0) {
			d->racks[ra].power += wa, d->racks[ra].optics_power += wa, d->racks[ra].cables++;
			if (oa)
				*oa += wa;
		}
		if (rz >= 0) {
			d->racks[rz].power += wz, d->racks[rz].optics_power += wz;
			d->racks[rz].cables += rz != ra;
			if (oz)
				*oz += wz;
		}
		double median = c->run;
		if (ra >= 0 && rz >= 0 && ra != rz) {
			const RackInst *a = &d->racks[ra], *z = &d->racks[rz];
			double now = fabs(a->x - z->x) + fabs(a->y - z->y);
			double then = fabs(a->median_x - z->median_x) + fabs(a->median_y - z->median_y);
			median += (1 + CABLE_SLACK_SHARE) * (then - now);
		}
		run += c->run, median_run += median;
		if ((unsigned)l->tier < LT_COUNT)
			by_tier[l->tier] += c->run, median_by_tier[l->tier] += median;
		if (c->run > longest) /* fmax's result without its call (longest is never NaN) */
			longest = c->run;
	}
	pr->run = run, pr->median_run = median_run, pr->longest = longest;
	for (int i = 0; i < LT_COUNT; i++)
		pr->run_by_tier[i] = by_tier[i], pr->median_by_tier[i] = median_by_tier[i];
	int before = d->violations.n;
	pr->peak_rack_power = 0, pr->peak_rack_cables = 0;
	for (int z = 0; z < d->nzones; z++)
		d->zones[z].peak_rack_power = 0, d->zones[z].peak_rack_mass = NAN,
		d->zones[z].peak_floor_load = NAN;
	rack_masses(d);
	for (int r = 0; r < d->nracks; r++) {
		RackInst *rk = &d->racks[r];
		ZoneInst *z = &d->zones[rk->zone];
		z->peak_rack_power = fmax(z->peak_rack_power, rk->power);
		if (isfinite(rk->mass) && !(rk->mass <= z->peak_rack_mass)) {
			z->peak_rack_mass = rk->mass;
			z->peak_floor_load = rk->mass / (rk->type->rack.width * rk->type->rack.depth);
		}
		pr->peak_rack_power = fmax(pr->peak_rack_power, rk->power);
		if (rk->cables > pr->peak_rack_cables)
			pr->peak_rack_cables = rk->cables;
		if (d->violations.n - before < 3) /* the first few say enough */
			check_rack(d, rk);
	}
	pr->measured = d->ncables > 0;
	return 0; /* what a rack cannot hold is a Violation, not an error of the pass */
}
