/*
 * cooling_plant.c — the cooling plant as designers build it: for each group of racks that
 * share one cooling, the units of that cooling's plant (cooling_unit declarations: CDUs, pump
 * loops, chillers, dry coolers, cooling towers, air handlers), each sized for the heat it
 * carries, with its power and capex; the partial PUE follows from their power and the site's
 * climate instead of being a constant.
 *
 * The unit of sizing is a CoolingGroup: the racks of one cooling. Once the racks exist they
 * are grouped by RackInst.cooling (every rack states its own, so racks of several coolings —
 * zones — each get their plant); before that, while the optimizer explores candidates, the
 * planned node racks (the rack type's cooling) and switch racks (the network rack's) are two
 * groups, even of one cooling. The switch racks' group is sized linearly (installed = load x
 * the redundancy's factor, as without a capacity): the optimizer tabulates each fabric's part
 * as the design with it less the design without it (passes/opt/factor.c), which adds up only
 * when a fabric's share of the plant is linear in its heat; whole units of one group shared by
 * two fabrics would not. The node racks' group, the same in every such evaluation, keeps whole
 * units. The racks as built are grouped the same way — each zone's switch racks a linear group
 * of their own — so the design as built costs its plant as the optimizer did: a network zone of
 * a few switch racks is charged its heat's share of the plant, not whole chillers of its own
 * (tests/optimize/zones.cluster pins it: the MILP's objective is the built design's capex). Every watt a rack draws is shed there as heat (heat.c); the IT load no rack holds
 * (the cluster's other_power) is cooled with the node racks.
 *
 * A unit carries the group's heat (serves all), its liquid share (liquid: heat x the
 * cooling's liquid_fraction, what the CDUs and warm-water loop take) or the rest (air). It is
 * sized as power_chain.c sizes a stage:
 *
 *   k = ceil(load / capacity), at least ceil(racks / racks_per_unit) when the unit says so
 *   n: k units   n_plus_1: k + 1   two_n: 2 k   block (m blocks, any one down): m ceil(k / (m-1))
 *
 * installed = units x capacity (without a capacity, load x the redundancy's factor), capex =
 * installed kW x capex per kW. Its power is load x power_ratio (kW electric per kW of heat,
 * 1 / COP for a chiller): spare units stand by or share the load at the same total. Over a
 * year the heat is the racks' average (IT power x utilization) and a chiller runs only outside
 * the site's free-cooling hours (its economiser — the dry coolers or towers listed with it —
 * carries the heat then, at their own power, all year): ASHRAE 90.4-2019's annualised
 * mechanical load component counts the hours of economiser operation the same way. The design
 * day (facility power) has no free cooling.
 *
 * Free-cooling hours. The site's free_cooling_hours, when given, hold for every cooling. Else
 * each cooling's follow from the climate: the economiser alone (a cooling tower or adiabatic
 * cooler, then the heat exchangers) delivers wet-bulb + approach, so the chillers can stay off
 * in every hour whose outdoor wet-bulb is at most supply_temperature - approach (ASHRAE TC 9.9,
 * "Thermal Guidelines for Data Processing Environments", 5th ed. 2021, liquid cooling classes
 * W17-W45+: the W class is the warmest facility water supply, and with warm water "chiller-less"
 * operation follows from the site's wet-bulb; The Green Grid, White Paper 46, "Updated Air-Side
 * Free Cooling Maps", 2012, counts the hours below such a threshold). The site gives two
 * figures of its climate (ASHRAE Handbook Fundamentals, ch. 14, climatic design conditions):
 * the annual mean wet-bulb mu and the 0.4 % design wet-bulb (exceeded 35 of the 8,760 hours).
 * Taking the hourly wet-bulb as normal — an approximation; a site with bin hours gives
 * free_cooling_hours instead — its spread is sigma = (design - mu) / z(0.996), z = 2.652,
 * and the share of the year is
 *
 *   free share = Phi((supply - approach - mu) / sigma),  Phi(x) = erfc(-x / sqrt 2) / 2.
 *
 * E.g. mu = 10, design = 23.26 (sigma = 5.0), cold plate at W32 with a 7 K approach: Phi(3) =
 * 0.99865, 8,748 h; an air economiser at 18 C with 4 K: Phi(0.8) = 0.7881, 6,904 h. A cooling
 * without supply_temperature, or a site without both figures, has none (0 h).
 *
 * A cooling without a plant keeps its partial PUE: power = heat x (pue - 1), at peak and over
 * the year alike. The plant's partial PUE is (IT + cooling) / IT (The Green Grid, White Paper
 * 49, 2012); model.c divides it by the power chain's efficiency for the hall's PUE.
 *
 * Heat reuse (site heat_reuse, heat_price): that share of the year's IT heat is sold or used
 * (district heating, as the seed articles mention) and credited off the energy cost; ERE =
 * (facility energy - reused energy) / IT energy (The Green Grid, White Paper 29, 2010).
 */
#include "passes.h"

#include <math.h>
#include <string.h>

double cooling_free_share(const Decl *site, const Part *cooling)
{
	double hours, mu, design;
	if (field_num_set(site, FLD_SITE_FREE_COOLING_HOURS, &hours))
		return fmin(1, fmax(0, hours / HOURS_PER_YEAR));
	if (!field_num_set(site, FLD_SITE_WET_BULB_MEAN, &mu) ||
	    !field_num_set(site, FLD_SITE_WET_BULB_DESIGN, &design) || !cooling ||
	    isnan(cooling->cooling.supply_temp))
		return 0;
	double limit = cooling->cooling.supply_temp - cooling->cooling.approach;
	double sigma = (design - mu) / 2.652; /* z of the 99.6th percentile */
	if (!(sigma > 0))
		return limit >= mu ? 1 : 0;
	return 0.5 * erfc(-(limit - mu) / (sigma * sqrt(2.0)));
}

/* Units installed for k units' worth of load under a redundancy of m modules. */
static double redundant_units(int redundancy, int m, double k)
{
	switch (redundancy) {
	case RED_N_PLUS_1: return k + 1;
	case RED_TWO_N: return 2 * k;
	case RED_BLOCK: return m > 1 ? m * ceil(k / (m - 1) - 1e-9) : 2 * k;
	default: return k;
	}
}

double cooling_plant_load(const Part *unit, const Part *cooling, double heat)
{
	double lf = fmin(1, fmax(0, cooling->cooling.liquid_fraction));
	switch (unit->cunit.serves) {
	case HS_LIQUID: return heat * lf;
	case HS_AIR: return heat * (1 - lf);
	default: return heat;
	}
}

void cooling_plant_unit(const Part *unit, double load, double avg_load, int racks, bool whole,
			double free_share, CoolingUnitInst *out)
{
	*out = (CoolingUnitInst){.unit = unit, .load = load};
	if (load <= 0)
		return;
	double cap = unit->cunit.capacity;
	int per = unit->cunit.racks_per_unit;
	double k = cap > 0 && whole ? fmax(1, ceil(load / cap - 1e-9)) : 0;
	if (per > 0 && whole)
		k = fmax(k, ceil((double)racks / per - 1e-9));
	if (k > 0) {
		out->units = redundant_units(unit->cunit.redundancy, unit->cunit.module_count, k);
		out->installed = cap > 0 ? out->units * cap : load * out->units / k;
	} else {
		out->installed = load * power_chain_factor(unit->cunit.redundancy, unit->cunit.module_count);
	}
	out->capex = out->installed * unit->cunit.capex_per_w;
	out->power = load * unit->cunit.power_ratio;
	double runs = unit->cunit.unit == CU_CHILLER ? 1 - free_share : 1;
	out->avg_power = avg_load * unit->cunit.power_ratio * runs;
}

/* Size group g's plant for its heat. */
static void size_group(Design *d, CoolingGroup *g)
{
	double free_share = g->free_share;
	const Part *c = g->cooling;
	g->liquid_heat = g->heat * fmin(1, fmax(0, c->cooling.liquid_fraction));
	g->power = g->avg_power = 0;
	g->capex = g->heat * c->cooling.capex_per_w;
	g->nunits = c->cooling.nplant;
	g->units = g->nunits ? arena_alloc(d->c->arena, sizeof(CoolingUnitInst) * (size_t)g->nunits) : NULL;
	if (!g->nunits) { /* its partial PUE, as declared */
		double extra = isnan(c->cooling.pue) ? 0 : c->cooling.pue - 1;
		g->power = g->heat * extra;
		g->avg_power = g->avg_heat * extra;
		return;
	}
	for (int k = 0; k < g->nunits; k++) {
		const Part *u = c->cooling.plant[k];
		CoolingUnitInst *ui = &g->units[k];
		cooling_plant_unit(u, cooling_plant_load(u, c, g->heat), cooling_plant_load(u, c, g->avg_heat),
				   g->racks, !g->linear, free_share, ui);
		g->power += ui->power;
		g->avg_power += ui->avg_power;
		g->capex += ui->capex;
	}
}

/* The group of zone z's racks of cooling c (linear: the planned switch racks'), added when new. */
static CoolingGroup *group_of(Design *d, int z, const Part *c, bool linear, int *cap)
{
	for (int i = 0; i < d->ncool_groups; i++) {
		CoolingGroup *g = &d->cool_groups[i];
		if (g->zone == z && g->cooling == c && g->linear == linear)
			return g;
	}
	if (d->ncool_groups == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		CoolingGroup *ng = arena_alloc(d->c->arena, sizeof(CoolingGroup) * (size_t)*cap);
		if (d->ncool_groups)
			memcpy(ng, d->cool_groups, sizeof(CoolingGroup) * (size_t)d->ncool_groups);
		d->cool_groups = ng;
	}
	CoolingGroup *g = &d->cool_groups[d->ncool_groups++];
	*g = (CoolingGroup){.zone = z, .cooling = c, .linear = linear};
	return g;
}

/* The groups and their heat at peak: from the racks once they exist, else from the plan, zone
 * by zone (zone.c gives each zone its IT power, the network's to the switch racks' zone). */
static void fill_groups(Design *d)
{
	int cap = 0;
	d->ncool_groups = 0;
	d->cool_groups = NULL;
	double in_racks = 0;
	if (d->elaborated && d->nracks) {
		for (int i = 0; i < d->nracks; i++) {
			const RackInst *r = &d->racks[i];
			/* Switch racks as planned: linear, so the design as built costs what the
			 * optimizer's factors did. */
			CoolingGroup *g = group_of(d, r->zone, r->cooling, r->network, &cap);
			g->racks++;
			g->heat += r->power;
			in_racks += r->power;
		}
		/* What no rack holds is cooled with the first zone's racks; the watts judge_weights
		 * probes the network with, with the switch racks (linear): a watt's marginal cost is
		 * then their plant's rate, not a whole unit's step. */
		double probe = d->probe_watts;
		group_of(d, 0, d->zones[0].cooling_type, false, &cap)->heat +=
			fmax(0, d->t.it_power - in_racks - probe);
		if (probe > 0) {
			const ZoneInst *nz = &d->zones[d->net_zone];
			const Part *net = d->net_cooling_type ? d->net_cooling_type : nz->cooling_type;
			group_of(d, d->net_zone, net, true, &cap)->heat += probe;
		}
		return;
	}
	for (int i = 0; i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		double heat = z->it_power;
		if (i == d->net_zone && d->network_racks > 0) {
			const Part *net = d->net_cooling_type ? d->net_cooling_type : z->cooling_type;
			CoolingGroup *n = group_of(d, i, net, true, &cap);
			n->racks += d->network_racks;
			n->heat += d->t.power_by_cat[CAT_NETWORK];
			heat -= d->t.power_by_cat[CAT_NETWORK];
		}
		CoolingGroup *g = group_of(d, i, z->cooling_type, false, &cap);
		g->racks += z->racks;
		g->heat += fmax(0, heat);
	}
}

int cooling_plant_size(Design *d)
{
	Totals *t = &d->t;
	fill_groups(d);
	double avg_share = t->it_power > 0 ? t->avg_it_power / t->it_power : 0;
	t->cooling_power = t->cooling_avg_power = 0;
	double heat = 0, free_heat = 0;
	for (int i = 0; i < d->ncool_groups; i++) {
		CoolingGroup *g = &d->cool_groups[i];
		g->avg_heat = g->heat * avg_share;
		g->free_share = cooling_free_share(d->site, g->cooling);
		heat += g->heat, free_heat += g->heat * g->free_share;
		size_group(d, g);
		t->cooling_power += g->power;
		t->cooling_avg_power += g->avg_power;
	}
	t->free_cooling_share = heat > 0 ? free_heat / heat
				 : cooling_free_share(d->site, d->zones[0].cooling_type);
	t->cooling_ppue = t->it_power > 0 ? 1 + t->cooling_power / t->it_power : 1;
	t->cooling_ppue_annual = t->avg_it_power > 0 ? 1 + t->cooling_avg_power / t->avg_it_power : 1;
	return 0;
}

/* s of a year of 365 days, as model.c counts energy. */

void cooling_plant_reuse(Design *d)
{
	Totals *t = &d->t;
	double share = fmin(1, field_num(d->site, FLD_SITE_HEAT_REUSE));
	double price = money_field(d, d->site, FLD_SITE_HEAT_PRICE);
	t->heat_reused = share * t->avg_it_power * SECONDS_PER_YEAR;
	t->heat_credit = t->heat_reused * price;
}
