/*
 * blast.c — what one failure takes down, per failure domain the IR holds (docs/reliability.md):
 * a node (its accelerators, and the scale-up domain it breaks), a rack (the accelerators,
 * scale-up domains and switches standing in it), a switch of each tier of each fabric (the
 * endpoint ports whose only link ends on it, and the bisection left), a plane, and the
 * bisection left after k failures of a fabric's top tier.
 *
 * The bisection of a fabric is carried by its top switch-to-switch links (leaf-spine in two
 * tiers, spine-core in three, global links in a dragonfly); with traffic spread over them
 * (ECMP, adaptive routing) losing a switch removes its share of those links:
 * bisection x (1 - its top links / all top links). A switch below the top keeps the bisection
 * but cuts its endpoints off.
 *
 * Every domain's loss is counted one way (blast_devices): the accelerators of the nodes lost, the
 * scale-up domains they or a lost NVLink tray break, the endpoint ports whose only link ends on a
 * lost switch, and the plans that must restart: a synchronous job stops when one of its nodes
 * is lost or loses a NIC port (Kokolis et al. 2024: a job is its parts in series). A domain that
 * is a set of racks (a rack, a floor row, what a power unit feeds, what a cooling unit cools,
 * a zone) goes through blast_racks. The power chain's stages (power_chain.c): a unit's failure
 * that the stage's redundancy allows for (n_plus_1, two_n, block) takes nothing; under n, a
 * unit takes its share of the racks, ceil(racks / units) (a stage without a unit rating is one
 * path: every rack), placed the worst way, the consecutive racks on the floor holding the most
 * accelerators; a rack feed under n takes its rack. A paralleled N system may drop more (an
 * overloaded bus trips): the share is a lower bound. The cooling plant's units
 * (cooling_plant.c) alike, within their group (a zone's racks of one cooling): under n a unit
 * cools its racks_per_unit racks when it has that limit, else ceil(group racks / units); the
 * racks it leaves without cooling are lost (shut down before they overheat). A zone (of a
 * cluster with several) is lost whole: the one holding the most accelerators.
 *
 * Each domain also says how often it happens (events a year in the report): any node in
 * service, any switch of a tier, and a power stage's or cooling unit's events that lose racks
 * (blast_plant_event: a unit's failure under n, two units down within the repair time under
 * redundancy, and with redundancy a redundant group's common-cause failures, the beta-factor
 * model); reliability.c counts the same events in the jobs' interruption rates.
 */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The plans with a node in `hit` (by node index): out->plans and out->nplans. */
static void loss_plans(const Design *d, const bool *hit, BlastLoss *out)
{
	out->plans = NULL, out->nplans = 0;
	if (d->nplans == 0)
		return;
	out->plans = arena_alloc(d->p->c->arena, sizeof(bool) * (size_t)d->nplans);
	for (int p = 0; p < d->nplans; p++) {
		const WorkloadPlan *wp = &d->plans[p];
		out->plans[p] = false;
		for (int i = 0; wp->hosts && i < wp->nodes; i++)
			if (hit[wp->hosts[i]]) {
				out->plans[p] = true, out->nplans++;
				break;
			}
	}
}

void blast_devices(const Design *d, const bool *node_lost, const bool *switch_lost, BlastLoss *out)
{
	*out = (BlastLoss){0};
	bool *hit = xmalloc(sizeof(bool) * (size_t)(d->nnodes + 1));
	bool *dom = xmalloc(sizeof(bool) * (size_t)(d->ndomains + 1));
	memset(dom, 0, sizeof(bool) * (size_t)(d->ndomains + 1));
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		hit[i] = node_lost[i];
		if (!node_lost[i])
			continue;
		if (n->spare)
			out->spare_nodes++;
		else
			out->gpus += n->type->node.accelerators;
		if (n->domain >= 0 && n->domain < d->ndomains)
			dom[n->domain] = true;
	}
	for (int i = 0; i < d->nswitches; i++)
		out->switches += switch_lost[i];
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->z.kind != END_SWITCH || !switch_lost[l->z.dev])
			continue;
		if (l->a.kind == END_NODE && !node_lost[l->a.dev])
			out->ports_cut++, hit[l->a.dev] = true;
		else if (l->a.kind == END_EXTRA)
			out->ports_cut++;
		else if (l->a.kind == END_ACCEL) { /* a lost NVLink tray breaks its domain */
			int node = d->accels[l->a.dev].node;
			hit[node] = true;
			if (d->nodes[node].domain >= 0 && d->nodes[node].domain < d->ndomains)
				dom[d->nodes[node].domain] = true;
		}
	}
	for (int k = 0; k < d->ndomains; k++)
		out->domains += dom[k];
	loss_plans(d, hit, out);
	free(hit), free(dom);
}

void blast_racks(const Design *d, const bool *rack_lost, BlastLoss *out)
{
	bool *node_lost = xmalloc(sizeof(bool) * (size_t)(d->nnodes + 1));
	bool *switch_lost = xmalloc(sizeof(bool) * (size_t)(d->nswitches + 1));
	for (int i = 0; i < d->nnodes; i++)
		node_lost[i] = d->nodes[i].rack >= 0 && rack_lost[d->nodes[i].rack];
	for (int i = 0; i < d->nswitches; i++)
		switch_lost[i] = d->switches[i].rack >= 0 && rack_lost[d->switches[i].rack];
	blast_devices(d, node_lost, switch_lost, out);
	for (int r = 0; r < d->nracks; r++)
		out->racks += rack_lost[r];
	free(node_lost), free(switch_lost);
}

/* One device lost: node i (switch < 0) or switch s. */
static void blast_one(const Design *d, int node, int sw, BlastLoss *out)
{
	bool *nl = xmalloc(sizeof(bool) * (size_t)(d->nnodes + 1));
	bool *sl = xmalloc(sizeof(bool) * (size_t)(d->nswitches + 1));
	memset(nl, 0, sizeof(bool) * (size_t)(d->nnodes + 1));
	memset(sl, 0, sizeof(bool) * (size_t)(d->nswitches + 1));
	if (node >= 0)
		nl[node] = true;
	if (sw >= 0)
		sl[sw] = true;
	blast_devices(d, nl, sl, out);
	free(nl), free(sl);
}

static int cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* Node and rack domains. */
static void blast_nodes(const Design *d, BlastRadius *b)
{
	int *gpus = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *doms = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *last = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *sws = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		gpus[r] = doms[r] = sws[r] = 0, last[r] = -1;
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		int per = n->type->node.accelerators;
		if (per > b->node_gpus)
			b->node_gpus = per;
		int dom = d->groups[n->group].domain_nodes > 1 ? d->groups[n->group].domain_nodes * per : per;
		if (dom > b->node_domain_gpus)
			b->node_domain_gpus = dom;
		if (n->rack < 0 || n->rack >= d->nracks)
			continue;
		gpus[n->rack] += per;
		if (last[n->rack] != n->domain) /* nodes of a domain are consecutive */
			doms[n->rack]++, last[n->rack] = n->domain;
	}
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].rack >= 0 && d->switches[i].rack < d->nracks)
			sws[d->switches[i].rack]++;
	int worst = -1;
	for (int r = 0; r < d->nracks; r++)
		if (worst < 0 || gpus[r] > gpus[worst] || (gpus[r] == gpus[worst] && sws[r] > sws[worst]))
			worst = r;
	if (worst >= 0) {
		b->rack = d->racks[worst].name;
		b->rack_gpus = gpus[worst], b->rack_domains = doms[worst], b->rack_switches = sws[worst];
		bool *lost = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
		for (int r = 0; r < d->nracks; r++)
			lost[r] = r == worst;
		blast_racks(d, lost, &b->rack_loss);
		free(lost);
	}
	free(gpus), free(doms), free(last), free(sws);
	/* The worst node: the one in the most plans (the first on ties). */
	int *in = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	memset(in, 0, sizeof(int) * (size_t)(d->nnodes + 1));
	for (int p = 0; p < d->nplans; p++)
		for (int i = 0; d->plans[p].hosts && i < d->plans[p].nodes; i++)
			in[d->plans[p].hosts[i]]++;
	int node = d->nnodes > 0 ? 0 : -1;
	for (int i = 1; i < d->nnodes; i++)
		if (in[i] > in[node])
			node = i;
	if (node >= 0)
		blast_one(d, node, -1, &b->node_loss);
	free(in);
}

/* Accelerators in service (hot spares apart) per rack. */
static int *rack_gpus(const Design *d)
{
	int *g = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	memset(g, 0, sizeof(int) * (size_t)(d->nracks + 1));
	for (int i = 0; i < d->nnodes; i++)
		if (d->nodes[i].rack >= 0 && !d->nodes[i].spare)
			g[d->nodes[i].rack] += d->nodes[i].type->node.accelerators;
	return g;
}

/* The floor row whose racks hold the most accelerators (the first on ties). */
static void blast_row(const Design *d, BlastRadius *b)
{
	int rows = 0;
	for (int r = 0; r < d->nracks; r++)
		if (d->racks[r].row + 1 > rows)
			rows = d->racks[r].row + 1;
	b->row = -1;
	if (rows <= 0)
		return;
	int *g = rack_gpus(d);
	long *sum = xmalloc(sizeof(long) * (size_t)rows);
	memset(sum, 0, sizeof(long) * (size_t)rows);
	for (int r = 0; r < d->nracks; r++)
		if (d->racks[r].row >= 0)
			sum[d->racks[r].row] += g[r];
	int worst = 0;
	for (int k = 1; k < rows; k++)
		if (sum[k] > sum[worst])
			worst = k;
	bool *lost = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		lost[r] = d->racks[r].row == worst;
	b->row = worst;
	blast_racks(d, lost, &b->row_loss);
	free(g), free(sum), free(lost);
}

typedef struct FloorKey {
	long key;
	int rack;
} FloorKey;

/* Floor order, racks in index order on ties (racks of different zones may share a row and
 * position). */
static int by_floor(const void *a, const void *b)
{
	const FloorKey *x = a, *y = b;
	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->rack > y->rack) - (x->rack < y->rack);
}

/* Every rack in floor order and the accelerators in service in each, computed once for all the
 * power and cooling units' windows. */
typedef struct Floor {
	FloorKey *order;          /* [nracks] */
	int *gpus;                /* [nracks], by rack index */
} Floor;

static void floor_init(const Design *d, Floor *f)
{
	f->order = xmalloc(sizeof(FloorKey) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		f->order[r] = (FloorKey){(long)d->racks[r].row * 1000000L + d->racks[r].pos, r};
	qsort(f->order, (size_t)d->nracks, sizeof *f->order, by_floor);
	f->gpus = rack_gpus(d);
}

static void floor_free(Floor *f)
{
	free(f->order), free(f->gpus);
}

int blast_window(const int *gpus, int n, int share)
{
	if (share <= 0 || n <= 0)
		return -1;
	if (share >= n)
		return 0;
	long sum = 0, best = -1;
	int at = 0;
	for (int i = 0; i < n; i++) {
		sum += gpus[i];
		if (i >= share)
			sum -= gpus[i - share];
		if (i >= share - 1 && sum > best)
			best = sum, at = i - share + 1;
	}
	return at;
}

/* The racks `share` consecutive in floor order among those `in` (NULL: all) that hold the most
 * accelerators, lost. */
static void lose_window(const Design *d, const Floor *f, const bool *in, int share, BlastLoss *out)
{
	int n = 0;
	int *racks = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *in_order = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int k = 0; k < d->nracks; k++) {
		int r = f->order[k].rack;
		if (!in || in[r])
			racks[n] = r, in_order[n++] = f->gpus[r];
	}
	int at = blast_window(in_order, n, share);
	bool *lost = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
	memset(lost, 0, sizeof(bool) * (size_t)(d->nracks + 1));
	for (int k = at; at >= 0 && k < n && k < at + share; k++)
		lost[racks[k]] = true;
	blast_racks(d, lost, out);
	free(racks), free(in_order), free(lost);
}

/* ---- the plant's events (docs/reliability.md "The plant") -------------------------------- */

/* Two repairable units in parallel, each failing at lambda and repaired in r, fail together at
 * lambda1 lambda2 (r1 + r2) / (1 + lambda1 r1 + lambda2 r2) (R. Billinton and R. N. Allan,
 * "Reliability Evaluation of Engineering Systems", 2nd ed., Plenum 1992, ch. 9, the parallel
 * reduction of repairable components; IEEE Std 493-2007 ch. 2 uses the same): for identical
 * units 2 lambda^2 r / (1 + 2 lambda r), about 2 lambda^2 r when lambda r << 1. */
static double pair_rate(double lambda, double r)
{
	return 2 * lambda * lambda * r / (1 + 2 * lambda * r);
}

static int ceil_div(int a, int b)
{
	return b > 0 ? (a + b - 1) / b : a;
}

void blast_plant_event(int redundancy, bool rack_feed, int units, int module_count, int per,
			     double lambda, double mttr, double beta, int racks, PlantEvent *out)
{
	*out = (PlantEvent){0};
	if (racks <= 0)
		return;
	int m = module_count > 0 ? module_count : 1;
	int u = units;
	if (u <= 0) /* no unit rating: one path (per side) */
		u = redundancy == RED_TWO_N ? 2 : redundancy == RED_N_PLUS_1 ? m + 1
		    : redundancy == RED_BLOCK ? m : 1;
	out->units = rack_feed ? (double)u * racks : u;
	if (redundancy == RED_N) {
		out->racks = rack_feed ? 1 : per > 0 ? (per < racks ? per : racks) : ceil_div(racks, u);
		out->rate = out->units * lambda;
		return;
	}
	/* The beta-factor model (IEC 61508-6:2010 annex D; A. Mosleh, D. M. Rasmuson and F. M.
	 * Marshall, "Guidelines on modeling common-cause failures in probabilistic risk
	 * assessment", NUREG/CR-5485, 1998): a share beta of each unit's failures is common to
	 * its redundant group and takes the group whole, at beta lambda for the group; the rest,
	 * (1 - beta) lambda a unit, are independent. The groups: a two_n stage's pairs side by
	 * side (units / 2), a rack's feeds A and B (one a rack), every unit of an n_plus_1 or
	 * block stage (one group). */
	double b = beta > 0 ? fmin(beta, 1) : 0;
	double li = (1 - b) * lambda;
	/* Pairs that cannot both be down: a two_n stage's units side by side, any two of the
	 * others. */
	double pairs = redundancy == RED_TWO_N ? u / 2.0 : u * (u - 1) / 2.0;
	/* The redundant groups: a two_n stage's pairs, else all its units. */
	double groups = redundancy == RED_TWO_N ? u / 2.0 : 1;
	if (rack_feed) {
		out->racks = 1;
		out->rate = racks * pairs * pair_rate(li, mttr);
		out->ccf_racks = 1;
		out->ccf_rate = racks * groups * b * lambda;
		return;
	}
	out->ccf_rate = groups * b * lambda;
	out->ccf_racks = redundancy == RED_TWO_N ? ceil_div(racks, u / 2) /* a pair's share */
						 : racks;
	if (out->ccf_racks > racks)
		out->ccf_racks = racks;
	int share = redundancy == RED_TWO_N    ? ceil_div(racks, u / 2)
		    : redundancy == RED_N_PLUS_1 ? ceil_div(racks, u - 1)
						 : ceil_div(racks, m);
	if (per > 0 && per < share)
		share = per;
	out->racks = share < racks ? share : racks;
	out->rate = pairs * pair_rate(li, mttr);
}

double blast_plant_hit(double job_racks, int event_racks, int racks)
{
	if (racks <= 0 || event_racks <= 0)
		return 0;
	double r = job_racks < 1 ? 1 : job_racks;
	return fmin(1, (r + event_racks - 1) / racks);
}

int blast_power_share(int redundancy, bool rack_feed, int units, int racks)
{
	if (redundancy != RED_N || racks <= 0)
		return 0;
	if (rack_feed)
		return 1;
	return units > 0 ? (racks + units - 1) / units : racks;
}

/* Each stage of the power chain: what one unit's failure takes, and how often the stage loses
 * racks (blast_plant_event). */
static void blast_power(const Design *d, const Floor *f, BlastRadius *b)
{
	b->npower = d->nstages;
	b->power = arena_alloc(d->p->c->arena, sizeof(BlastPower) * (size_t)(d->nstages + 1));
	for (int k = 0; k < d->nstages; k++) {
		const PowerStageInst *s = &d->stages[k];
		const Part *st = s->stage;
		bool feed = st->stage.stage == PS_RACK_FEED;
		double share_of_rack;
		BlastPower *p = &b->power[k];
		*p = (BlastPower){.stage = st, .tolerated = st->stage.redundancy != RED_N};
		p->units = feed ? power_chain_feeds_of(st, &share_of_rack) : (int)lround(s->units);
		p->share = blast_power_share(st->stage.redundancy, feed, p->units, d->nracks);
		if (p->share > 0)
			lose_window(d, f, NULL, p->share, &p->loss);
		PlantEvent e;
		blast_plant_event(st->stage.redundancy, feed, p->units, st->stage.module_count, 0,
					st->failure_rate, st->mttr, st->ccf_beta, s->load > 0 ? d->nracks : 0,
					&e);
		p->rate = e.rate, p->event_racks = e.racks;
		p->ccf_rate = e.ccf_rate, p->ccf_racks = e.ccf_racks;
	}
}

/* Each unit of each cooling group's plant: what one unit's failure takes. */
static void blast_cooling(const Design *d, const Floor *f, BlastRadius *b)
{
	int n = 0;
	for (int i = 0; i < d->ncool_groups; i++)
		n += d->cool_groups[i].nunits;
	b->cooling = arena_alloc(d->p->c->arena, sizeof(BlastCooling) * (size_t)(n + 1));
	bool *in = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		for (int r = 0; r < d->nracks; r++)
			in[r] = d->racks[r].zone == g->zone && d->racks[r].cooling == g->cooling;
		for (int k = 0; k < g->nunits; k++) {
			const CoolingUnitInst *u = &g->units[k];
			const Part *up = u->unit;
			BlastCooling *c = &b->cooling[b->ncooling++];
			*c = (BlastCooling){.group = i, .unit = up, .units = (int)lround(u->units),
					    .tolerated = up->cunit.redundancy != RED_N};
			c->share = c->tolerated || g->racks <= 0 ? 0
				   : up->cunit.racks_per_unit > 0 ? up->cunit.racks_per_unit
				   : blast_power_share(RED_N, false, c->units, g->racks);
			if (c->share > 0)
				lose_window(d, f, in, c->share, &c->loss);
			PlantEvent e;
			blast_plant_event(up->cunit.redundancy, false, c->units, up->cunit.module_count,
						up->cunit.racks_per_unit, up->failure_rate, up->mttr,
						up->ccf_beta, u->load > 0 ? g->racks : 0, &e);
			c->rate = e.rate, c->event_racks = e.racks;
			c->ccf_rate = e.ccf_rate, c->ccf_racks = e.ccf_racks;
		}
	}
	free(in);
}

/* Of a cluster with several zones, the zone whose racks hold the most accelerators, lost. */
static void blast_zone(const Design *d, BlastRadius *b)
{
	b->zone = -1;
	if (d->nzones < 2)
		return;
	int *g = rack_gpus(d);
	long best = -1;
	for (int z = 0; z < d->nzones; z++) {
		long sum = 0;
		for (int r = 0; r < d->nracks; r++)
			if (d->racks[r].zone == z)
				sum += g[r];
		if (sum > best)
			best = sum, b->zone = z;
	}
	bool *lost = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		lost[r] = d->racks[r].zone == b->zone;
	blast_racks(d, lost, &b->zone_loss);
	free(g), free(lost);
}

/* The tier of switch-to-switch links highest in the fabric, -1 when it has none. */
static int top_link_tier(const Design *d, int f)
{
	int top = -1;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric == f && l->a.kind == END_SWITCH && l->z.kind == END_SWITCH && l->tier > top)
			top = l->tier;
	}
	return top;
}

static void blast_fabric(const Design *d, int f, BlastRadius *b)
{
	const FabricInst *fi = &d->fabrics[f];
	int n = d->nswitches;
	int *ports = xmalloc(sizeof(int) * (size_t)(n + 1)); /* endpoint links a switch */
	int *top = xmalloc(sizeof(int) * (size_t)(n + 1));   /* top-tier links a switch */
	int *plane_ports = xmalloc(sizeof(int) * (size_t)(fi->planes + 1));
	memset(ports, 0, sizeof(int) * (size_t)(n + 1));
	memset(top, 0, sizeof(int) * (size_t)(n + 1));
	memset(plane_ports, 0, sizeof(int) * (size_t)(fi->planes + 1));
	int tt = top_link_tier(d, f);
	double top_total = 0;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric != f)
			continue;
		bool endpoint = l->a.kind == END_NODE || l->a.kind == END_EXTRA;
		if (endpoint && l->z.kind == END_SWITCH) {
			ports[l->z.dev]++;
			if (l->plane < fi->planes)
				plane_ports[l->plane]++;
		}
		if ((int)l->tier == tt && l->a.kind == END_SWITCH && l->z.kind == END_SWITCH) {
			top[l->a.dev]++, top[l->z.dev]++;
			top_total++;
		}
	}
	BlastFabric bf = {.fabric = f, .top_tier = -1, .bisection = fi->sized ? fi->bisection : 0,
			  .planes = fi->planes, .worst_tier = -1};
	/* Per switch tier: the worst switch. The top tier: the one whose links carry the
	 * bisection (the higher end of the top links). */
	int worst_ports = -1;
	double worst_left = 0;
	for (int t = 0; t < ST_COUNT; t++) {
		BlastSwitchTier bt = {.fabric = f, .tier = t, .bisection_left = bf.bisection, .worst = -1};
		int *shares = xmalloc(sizeof(int) * (size_t)(n + 1));
		int ns = 0;
		for (int i = 0; i < n; i++) {
			const SwitchInst *s = &d->switches[i];
			if (s->fabric != f || (int)s->tier != t)
				continue;
			bt.switches++;
			bt.rate += s->model ? s->model->failure_rate : 0;
			if (ports[i] > bt.ports_cut || bt.worst < 0)
				bt.ports_cut = ports[i], bt.worst = i;
			double left = top_total > 0 ? bf.bisection * (1 - top[i] / top_total) : bf.bisection;
			if (left < bt.bisection_left)
				bt.bisection_left = left;
			shares[ns++] = top[i];
		}
		if (bt.switches == 0) {
			free(shares);
			continue;
		}
		/* The top tier is the highest tier with top links. */
		if (top_total > 0) {
			int sum = 0;
			for (int k = 0; k < ns; k++)
				sum += shares[k];
			if (sum > 0 && t > bf.top_tier) {
				qsort(shares, (size_t)ns, sizeof *shares, cmp_desc);
				bf.top_tier = t, bf.top_switches = ns;
				double lost = 0;
				bf.after[0] = bf.bisection;
				for (int k = 1; k <= BLAST_K; k++) {
					lost += k <= ns ? shares[k - 1] : 0;
					bf.after[k] = bf.bisection * (1 - lost / top_total);
					if (bf.after[k] < 0)
						bf.after[k] = 0;
				}
			}
		}
		free(shares);
		if (bt.ports_cut > worst_ports ||
		    (bt.ports_cut == worst_ports && bt.bisection_left < worst_left))
			worst_ports = bt.ports_cut, worst_left = bt.bisection_left, bf.worst_tier = t;
		blast_one(d, -1, bt.worst, &bt.loss);
		b->tiers[b->ntiers++] = bt;
	}
	if (bf.top_tier < 0)
		for (int k = 0; k <= BLAST_K; k++)
			bf.after[k] = bf.bisection;
	if (fi->planes > 1) {
		for (int p = 0; p < fi->planes; p++)
			if (plane_ports[p] > bf.plane_ports_cut)
				bf.plane_ports_cut = plane_ports[p];
		bf.plane_bisection_left = bf.bisection * (fi->planes - 1) / fi->planes;
		bool *nl = xmalloc(sizeof(bool) * (size_t)(d->nnodes + 1));
		bool *sl = xmalloc(sizeof(bool) * (size_t)(n + 1));
		memset(nl, 0, sizeof(bool) * (size_t)(d->nnodes + 1));
		for (int i = 0; i < n; i++)
			sl[i] = d->switches[i].fabric == f && d->switches[i].plane == 0;
		blast_devices(d, nl, sl, &bf.plane_loss);
		free(nl), free(sl);
	} else {
		bf.plane_ports_cut = 0;
		for (int p = 0; p < fi->planes; p++)
			bf.plane_ports_cut += plane_ports[p];
		bf.plane_bisection_left = 0;
	}
	b->fabrics[b->nfabrics++] = bf;
	free(ports), free(top), free(plane_ports);
}

void blast_radius(Design *d, BlastRadius *b)
{
	*b = (BlastRadius){.done = true};
	blast_nodes(d, b);
	b->tiers = arena_alloc(d->p->c->arena, sizeof(BlastSwitchTier) * (size_t)(d->nfabrics * ST_COUNT + 1));
	b->fabrics = arena_alloc(d->p->c->arena, sizeof(BlastFabric) * (size_t)(d->nfabrics + 1));
	for (int f = 0; f < d->nfabrics; f++)
		if (d->fabrics[f].switches > 0)
			blast_fabric(d, f, b);
	blast_row(d, b);
	Floor f;
	floor_init(d, &f);
	blast_power(d, &f, b);
	blast_cooling(d, &f, b);
	floor_free(&f);
	blast_zone(d, b);
}
