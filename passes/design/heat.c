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
 * max_cables; either over in a switch rack is a requirement the design does not meet (exit 2).
 * Placement packed switch racks with every port at the most its media could draw (place.c),
 * so the check holds for them by construction; it proves it. Node racks are packed by their
 * devices' power alone (racks.c): one over its cap with its NICs' optics is a warning
 * (`rack-power`), not yet a refusal.
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
static int end_rack(Design *d, End e, double **optics)
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

static void check_rack(Design *d, const RackInst *r)
{
	const Decl *type = r->network ? d->net_rack : d->rack;
	int max_cables = r->network ? d->net_rack_cables : d->rack_cables;
	d->vsource = VS_NODES, d->vfabric = -1;
	if (r->power > r->cap * (1 + 1e-9) && r->network) {
		design_violation(d, type->name_loc, r->power / r->cap - 1, d->cluster->name_loc,
				 "cluster built here",
				 "rack %s draws %.1f kW with its optics (%.1f kW of them); rack '%s' "
				 "allows %.1f kW",
				 r->name, r->power / 1e3, r->optics_power / 1e3, type->name, r->cap / 1e3);
		design_violation_quantity(d, r->power, r->cap, dim_make(0, 0, -1, 1, 0, 0));
	} else if (r->power > r->cap * (1 + 1e-9) && !d->quiet) {
		/* Node racks are packed by their devices' power (racks.c): the optics in their NICs
		 * and scale-up ports are not planned for yet, so this is said, not refused. */
		Diag *dg = diag_warning(d->c, type->name_loc,
					"rack %s draws %.1f kW with the optics in its nodes (%.1f kW of "
					"them); rack '%s' allows %.1f kW",
					r->name, r->power / 1e3, r->optics_power / 1e3, type->name,
					r->cap / 1e3);
		diag_set_code(dg, "rack-power");
	}
	if (max_cables && r->cables > max_cables) {
		const Value *v = field_value(type, FLD_RACK_MAX_CABLES);
		design_violation(d, v ? v->loc : type->name_loc, (double)r->cables / max_cables - 1,
				 d->cluster->name_loc, "cluster built here",
				 "rack %s ends %d cables; rack '%s' holds %d", r->name, r->cables,
				 type->name, max_cables);
		design_violation_quantity(d, r->cables, max_cables, DIM_NONE);
	}
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
		pr->run += c->run, pr->median_run += median;
		if ((unsigned)l->tier < LT_COUNT)
			pr->run_by_tier[l->tier] += c->run, pr->median_by_tier[l->tier] += median;
		pr->longest = fmax(pr->longest, c->run);
	}
	int before = d->violations.n, warned = 0;
	pr->peak_rack_power = 0, pr->peak_rack_cables = 0;
	for (int r = 0; r < d->nracks; r++) {
		const RackInst *rk = &d->racks[r];
		pr->peak_rack_power = fmax(pr->peak_rack_power, rk->power);
		if (rk->cables > pr->peak_rack_cables)
			pr->peak_rack_cables = rk->cables;
		if (d->violations.n - before < 3 && warned < 3) /* the first few say enough */
			check_rack(d, rk);
		warned += !rk->network && rk->power > rk->cap * (1 + 1e-9);
	}
	pr->measured = d->ncables > 0;
	return 0; /* what a rack cannot hold is a Violation, not an error of the pass */
}
