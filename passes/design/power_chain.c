/*
 * power_chain.c — the power system's chain as designers build it: utility -> transformer ->
 * UPS or HVDC -> PDU or busway -> rack feeds A/B, each stage (a power_stage declaration) with
 * its efficiency, unit rating, redundancy and capex per kW installed.
 *
 * Sizing (power_chain_size, run by the model for every candidate): the racks' IT load at peak
 * flows up the chain from the rack feeds; each stage delivers the load of the stage below and
 * draws load / efficiency, so the chain's efficiency is the product of its stages' and its
 * losses are Σ (input - load) (the series model of conversion losses, as in Rasmussen and
 * Spitaels, "A Quantitative Comparison of High Efficiency AC vs. DC Power Distribution for Data
 * Centers", Schneider Electric White Paper 127, 2011). A stage is sized for what it delivers:
 *
 *   redundancy  units of rating u installed       one surviving unit carries
 *   n           k = ceil(L / u)                   L / k        (no failure allowed for)
 *   n_plus_1    k + 1                             L / k        (one unit down)
 *   two_n       2 k (two sides of k)              L / k        (one side carries all)
 *   block       m blocks of ceil(L / (m-1) / u)   L / ((m-1) x units per block): any one
 *               (distributed, "m make m-1")       block down, its load spread on the others
 *
 * and without a unit rating the installed capacity is L times 1, (m+1)/m, 2 or m/(m-1).
 * Rack feeds are per rack: m feeds a side (2N: feeds A and B), each rated at the stage's unit
 * capacity, else at the rack's power class (so the class a rack is given has a cost).
 * Installed kW x capex per kW is the stage's capex (Turner and Seader, "Dollars per kW plus
 * Dollars per Square Foot", Uptime Institute, 2006, as model.c's plant).
 *
 * The failure check (power_chain_feeds, the stage after cost): every rack's feed in the failure
 * its redundancy allows (2N: one side carries the rack) against the feed's rating; an undersized
 * feed is a Violation at the rating (exit 2), with the numbers.
 */
#include "passes.h"

#include <math.h>

double power_chain_factor(int redundancy, int m)
{
	switch (redundancy) {
	case RED_N_PLUS_1: return m > 0 ? (m + 1.0) / m : 2;
	case RED_TWO_N: return 2;
	case RED_BLOCK: return m > 1 ? (double)m / (m - 1) : 2;
	default: return 1;
	}
}

void power_chain_stage(const Part *st, double load, PowerStageInst *out)
{
	double u = st->stage.unit_capacity;
	int m = st->stage.module_count, red = st->stage.redundancy;
	*out = (PowerStageInst){.stage = st, .load = load};
	out->input = st->stage.efficiency > 0 ? load / st->stage.efficiency : load;
	out->loss = out->input - load;
	if (load <= 0)
		return;
	if (!(u > 0)) {
		out->installed = load * power_chain_factor(red, m);
		out->failure_load = NAN;
	} else if (red == RED_BLOCK && m > 1) {
		double per_block = ceil(load / (m - 1) / u - 1e-9);
		out->units = m * per_block;
		out->failure_load = load / ((m - 1) * per_block);
	} else {
		double k = fmax(1, ceil(load / u - 1e-9));
		out->units = red == RED_TWO_N ? 2 * k : red == RED_N_PLUS_1 ? k + 1 : k;
		out->failure_load = load / k;
	}
	if (u > 0)
		out->installed = out->units * u;
	out->capex = out->installed * st->stage.capex_per_w;
}

int power_chain_feeds_of(const Part *st, double *failure_share)
{
	int m = st->stage.module_count;
	switch (st->stage.redundancy) {
	case RED_N_PLUS_1: *failure_share = 1.0 / m; return m + 1;
	case RED_TWO_N: *failure_share = 1.0 / m; return 2 * m;
	case RED_BLOCK: *failure_share = m > 1 ? 1.0 / (m - 1) : 1; return m;
	default: *failure_share = 1.0 / m; return m;
	}
}

/* One feed's rating in a rack of power class `limit` and cap `cap` (W): the stage's unit
 * rating, else the power class, else what the rack may draw; 0 when none is finite. */
static double feed_rating(const Part *st, double limit, double cap)
{
	if (st->stage.unit_capacity > 0)
		return st->stage.unit_capacity;
	return isfinite(limit) ? limit : isfinite(cap) ? cap : 0;
}

/* The rack feed stage: installed as feeds x rating over every rack. */
static void size_feeds(Design *d, const Part *st, PowerStageInst *s)
{
	double share;
	int feeds = power_chain_feeds_of(st, &share);
	/* Each zone's racks at its own power class (zone.c): the class chosen per zone is what
	 * that zone's feeds cost. */
	double rated = 0;
	for (int i = 0; i < d->nzones; i++)
		rated += d->zones[i].racks * feed_rating(st, d->zones[i].limit, d->zones[i].cap);
	const Part *net_type = d->net_rack_type ? d->net_rack_type : d->rack_type;
	double net = net_type ? feed_rating(st, d->net_rack_limit, d->net_rack_cap) : 0;
	double installed = feeds * (rated + d->network_racks * net);
	if (installed <= 0) /* no rating anywhere: the load with its redundancy */
		return;
	s->installed = installed;
	s->units = st->stage.unit_capacity > 0 ? feeds * d->t.racks : 0;
	s->failure_load = NAN;
	s->capex = installed * st->stage.capex_per_w;
}

int power_chain_size(Design *d)
{
	const Part *ps = d->power_sys;
	Totals *t = &d->t;
	t->power_efficiency = ps ? ps->power_sys.efficiency : 1;
	t->power_losses = 0;
	int n = ps ? ps->power_sys.nchain : 0;
	if (!n) {
		d->nstages = 0;
		return 0;
	}
	if (!d->stages)
		d->stages = arena_alloc(d->c->arena, sizeof(PowerStageInst) * (size_t)n);
	d->nstages = n;
	double load = t->it_power;
	for (int k = n - 1; k >= 0; k--) {
		const Part *st = ps->power_sys.chain[k];
		PowerStageInst *s = &d->stages[k];
		power_chain_stage(st, load, s);
		if (st->stage.stage == PS_RACK_FEED)
			size_feeds(d, st, s);
		t->power_efficiency *= st->stage.efficiency;
		t->power_losses += s->loss;
		load = s->input;
	}
	return 0;
}

/* The chain's rack feed stage, or NULL. */
static const Part *feed_stage(const Design *d)
{
	for (int k = 0; k < d->nstages; k++)
		if (d->stages[k].stage->stage.stage == PS_RACK_FEED)
			return d->stages[k].stage;
	return NULL;
}

int power_chain_feeds(Design *d)
{
	const Part *st = feed_stage(d);
	if (!st)
		return 0;
	double share;
	int feeds = power_chain_feeds_of(st, &share), reported = 0;
	const Value *uv = field_value(st->decl, FLD_POWER_STAGE_UNIT_CAPACITY);
	d->vsource = VS_NODES, d->vfabric = -1;
	for (int i = 0; i < d->nracks; i++) {
		RackInst *r = &d->racks[i];
		r->feeds = feeds;
		r->feed_rating = feed_rating(st, r->power_limit, r->cap);
		r->feed_failure_load = r->power * share;
		/* A feed rated at the rack's power class is checked with the class (heat.c); a
		 * rating of its own is checked here, the first few racks said. */
		if (!uv || r->feed_failure_load <= r->feed_rating * (1 + 1e-9) || reported++ >= 3)
			continue;
		const char *when = st->stage.redundancy == RED_TWO_N ? "when one side fails (2N: the other carries all)"
				   : st->stage.redundancy == RED_N_PLUS_1 ? "when one feed fails (N+1)"
				   : st->stage.redundancy == RED_BLOCK ? "when one feed fails (block)"
								       : "at peak (N: no failure allowed for)";
		design_violation(d, uv->loc, r->feed_failure_load / r->feed_rating - 1,
				 st->loc, "rack feed stage declared here",
				 "rack %s draws %.1f kW; each of its %d feeds ('%s') carries %.1f kW %s, "
				 "over its %.1f kW rating",
				 r->name, r->power / 1e3, feeds, st->name, r->feed_failure_load / 1e3, when,
				 r->feed_rating / 1e3);
	}
	return 0; /* an undersized feed is a Violation, not an error of the pass */
}
