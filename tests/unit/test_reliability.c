/*
 * test_reliability.c — the reliability model (passes/plan/reliability.c, docs/reliability.md):
 * Young's and Daly's intervals and Daly's expected wall time against numbers worked by hand;
 * the Monte Carlo (montecarlo.c) within its confidence interval of the closed form, seeded,
 * deterministic and fast; a spec's checkpoint at the bandwidth its storage and nodes allow;
 * and the seed article's claim from the standard library's rates: 10,000 H100 fail more often
 * than once every 20 h.
 */
#include "plan.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void suite_reliability(void);

#define CLOSE(a, b, rel) CU_ASSERT(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

/* delta = 60 s, M = 3,600 s. Young: sqrt(2 x 60 x 3,600) = sqrt(432,000) = 657.267 s. Daly:
 * delta / 2M = 1/120; sqrt(1/120) = 0.0912871; 1 + 0.0912871/3 + (1/120)/9 = 1.0313550;
 * 657.267 x 1.0313550 - 60 = 617.876 s. delta >= 2M: tau = M. */
static void test_intervals(void)
{
	CLOSE(reliability_young(60, 3600), 657.267, 1e-6);
	CLOSE(reliability_daly(60, 3600), 617.876, 1e-6);
	CU_ASSERT_EQUAL(reliability_daly(8000, 3600), 3600);
	CU_ASSERT(isinf(reliability_daly(60, INFINITY)));
	/* Daly's interval is shorter than Young's by about delta: the checkpoint's own time. */
	CU_ASSERT(reliability_daly(60, 3600) < reliability_young(60, 3600));
}

/* tau = 600 s, delta = 60 s, R = 300 s, M = 3,600 s: T_w / T_s = M e^(R/M) (e^((tau+delta)/M) - 1)
 * / tau = 6 x e^(1/12) x (e^(0.183333) - 1) = 6 x 1.0869040 x 0.2012151 = 1.312207. Without
 * failures only the checkpoints cost: (600 + 60) / 600 = 1.1. The optimum of Daly's interval
 * is a minimum of the wall time: 1 % either side costs more. */
static void test_wall_factor(void)
{
	CLOSE(reliability_wall_factor(600, 60, 300, 3600), 1.312207, 1e-6);
	CLOSE(reliability_wall_factor(600, 60, 300, INFINITY), 1.1, 1e-12);
	double tau = reliability_daly(60, 3600);
	double at = reliability_wall_factor(tau, 60, 300, 3600);
	CU_ASSERT(at < reliability_wall_factor(tau * 0.99, 60, 300, 3600));
	CU_ASSERT(at < reliability_wall_factor(tau * 1.01, 60, 300, 3600));
}

/* 100 segments of 600 s with the figures above: the closed form's 78,732.4 s within 3 standard
 * errors of the simulated mean (the ci95's 1.96 is one standard error x 1.96); the median and
 * 90th percentile bracket it; the same seed gives the same bits, another seed other ones; 2,000
 * trials of a 30-day run with a failure every 2 h (about 390 failures a trial) in well under a
 * second. */
static void test_montecarlo(void)
{
	double work = 100 * 600.0;
	double expect = work * reliability_wall_factor(600, 60, 300, 3600);
	CLOSE(expect, 78732.4, 1e-6);
	MonteCarlo a, b, c;
	montecarlo_run(work, 600, 60, 300, 3600, 4000, 42, &a);
	CU_ASSERT_EQUAL(a.trials, 4000);
	CU_ASSERT(a.ci95 > 0);
	CU_ASSERT(fabs(a.mean - expect) <= 3 * a.ci95 / 1.96);
	CU_ASSERT(a.p50 < a.p90);
	CU_ASSERT(a.p50 > work && a.p90 > expect);
	montecarlo_run(work, 600, 60, 300, 3600, 4000, 42, &b);
	CU_ASSERT(memcmp(&a, &b, sizeof a) == 0);
	montecarlo_run(work, 600, 60, 300, 3600, 4000, 43, &c);
	CU_ASSERT(a.mean != c.mean);
	/* A last segment shorter than tau: 100.5 segments. */
	montecarlo_run(work + 300, 600, 60, 300, 3600, 4000, 7, &c);
	CU_ASSERT(fabs(c.mean - (work + 300) * reliability_wall_factor(600, 60, 300, 3600)) <=
		  0.01 * c.mean);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double month = 30 * 86400.0, tau = reliability_daly(120, 7200);
	montecarlo_run(month, tau, 120, 600, 7200, 2000, 1, &a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	fprintf(stderr, "\n  Monte Carlo: 2,000 trials of a 30-day run, M = 2 h, in %.3f s; "
			"mean %.4f d (closed form %.4f d), p50 %.4f d, p90 %.4f d\n",
		s, a.mean / 86400, month * reliability_wall_factor(tau, 120, 600, 7200) / 86400,
		a.p50 / 86400, a.p90 / 86400);
	CU_ASSERT(s < 1);
	CU_ASSERT(fabs(a.mean - month * reliability_wall_factor(tau, 120, 600, 7200)) <=
		  3 * a.ci95 / 1.96);
}

/* 16 DGX H100 (128 GPUs) with two appliances that write 40 GB/s and read 80 GB/s each. */
static const char *const SPEC =
	"import std.servers\n"
	"import std.racks\n"
	"import std.network\n"
	"storage fs {\n"
	"  capacity        = 1 PB\n"
	"  bandwidth       = 640 Gbps\n"
	"  write_bandwidth = 320 Gbps\n"
	"  power           = 5 kW\n"
	"  height          = 4 U\n"
	"  price           = 300_000 USD  // test figure\n"
	"}\n"
	"site s {\n"
	"  power_budget = 5 MW\n"
	"  electricity  = 0.08 USD/kWh  // test figure\n"
	"}\n"
	"fabric compute {\n"
	"  topology         = fat_tree(tiers = 2, rail_optimized = true)\n"
	"  switch           = QM9700\n"
	"  link             = 400 Gbps\n"
	"  oversubscription = 1:1\n"
	"}\n"
	"cluster c {\n"
	"  site    = s\n"
	"  nodes   = 16 x DGX_H100\n"
	"  rack    = rack48_liquid\n"
	"  fabrics = [compute]\n"
	"  storage = 2 x fs\n"
	"  %s\n"
	"}\n"
	"workload w {\n"
	"  cluster      = c\n"
	"  model        = transformer(layers = 32, hidden = 4096, heads = 32, seq = 2048, vocab = "
	"32000)\n"
	"  tokens       = 20e9\n"
	"  global_batch = 512\n"
	"  gpus         = 128\n"
	"  %s\n"
	"}\n";

static Built *build_spec2(const char *cluster_knobs, const char *knobs)
{
	char text[2048];
	snprintf(text, sizeof text, SPEC, cluster_knobs, knobs);
	return unit_build(text, NULL, NULL, false);
}

static Built *build_spec(const char *knobs)
{
	return build_spec2("", knobs);
}

static void test_checkpoint(void)
{
	Built *b = build_spec("distributed_optimizer = true");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL_FATAL(b->d.nplans, 1);
	const WorkloadPlan *wp = &b->d.plans[0];
	const WorkloadReliability *r = &wp->rel;
	CU_ASSERT(r->done);
	/* 14 bytes a parameter (ZeRO, §3.1: 2 + 4 + 4 + 4, no gradients). */
	CLOSE(r->ckpt_bytes, 14 * plan_params(&wp->model), 1e-12);
	/* Sharded: all 16 nodes write, at min(2 x 40 GB/s, 16 x 50 GB/s) = 80 GB/s; a restart
	 * reads the state once, at min(2 x 80, 16 x 50) = 160 GB/s. */
	CU_ASSERT_EQUAL(r->writer_nodes, 16);
	CLOSE(r->write_bw, 80e9, 1e-12);
	CLOSE(r->read_bw, 160e9, 1e-12);
	CLOSE(r->write_time, r->ckpt_bytes / 80e9, 1e-12);
	CLOSE(r->restore_time, r->ckpt_bytes / 160e9, 1e-12);
	/* The job's rate: 16 nodes x (15.2 % + 8 x (8.09 + 2.97 + 0.29) %) a year, plus the
	 * whole cluster's network (it spans every accelerator). */
	double year = 365.0 * 86400;
	double nodes = 16 * (0.152 + 8 * (0.0809 + 0.0297 + 0.0029)) / year;
	const ClusterReliability *cr = &b->d.reliability;
	CLOSE(r->rate, nodes + cr->network_rate + cr->by_class[REL_POWER] + cr->by_class[REL_COOLING],
	      1e-9);
	CLOSE(b->d.reliability.rate, r->rate, 1e-9);
	/* Goodput from the closed form with the default restart of 5 min plus the restore. */
	CLOSE(r->restart, 300 + r->restore_time, 1e-12);
	CLOSE(r->interval, reliability_daly(r->write_time, 1 / r->rate), 1e-12);
	CLOSE(r->goodput,
	      1 / reliability_wall_factor(r->interval, r->write_time, r->restart, 1 / r->rate), 1e-12);
	CLOSE(r->effective_time, wp->time_to_train / r->goodput, 1e-12);
	CU_ASSERT(r->goodput > 0.5 && r->goodput < 1);
	CU_ASSERT(fabs(r->mc.mean - r->effective_time) <= 3 * r->mc.ci95 / 1.96 + 1e-9);
	unit_build_done(b);

	/* Not sharded: one data-parallel replica's nodes write, every replica reads. */
	b = build_spec("distributed_optimizer = false\n  fsdp = false\n  checkpoint_interval = 1 h");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL_FATAL(b->d.nplans, 1);
	wp = &b->d.plans[0];
	r = &wp->rel;
	int dp = wp->r.best.dp;
	CU_ASSERT_EQUAL(r->writer_nodes, (wp->r.best.gpus / dp + 7) / 8);
	CLOSE(r->write_bw, fmin(80e9, r->writer_nodes * 50e9), 1e-12);
	CLOSE(r->restore_bytes, r->ckpt_bytes * dp, 1e-12);
	CU_ASSERT(r->interval_set);
	CLOSE(r->interval, 3600, 1e-12);
	unit_build_done(b);
}

/* The seed article (seed 003): at ten thousand cards the cluster's mean time between failures
 * is under 20 hours. examples/wanka.cluster is 1,250 DGX H100 (10,000 H100) on an NDR fabric:
 * from the standard library's rates (Dubey et al. 2024, table 5) its nodes alone fail
 * 1,250 x (15.2 % + 8 x 11.35 %) = 1,325 times a year, once every 6.6 h; with its links about
 * every 5.7 h. */
static void test_seed_claim(void)
{
	Built *b = unit_build(NULL, CLUSTERC_SOURCE_DIR "/examples/wanka.cluster", NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const ClusterReliability *c = &b->d.reliability;
	CU_ASSERT(c->done && c->cabled);
	CU_ASSERT_EQUAL(c->accelerators, 10000);
	double year = 365.0 * 86400;
	double nodes = c->by_class[REL_ACCEL] + c->by_class[REL_MEMORY] + c->by_class[REL_HOST] +
		       c->by_class[REL_NIC];
	CLOSE(nodes * year, 1250 * (0.152 + 8 * (0.0809 + 0.0297 + 0.0029)), 1e-9);
	CU_ASSERT(c->by_class[REL_CABLE] > 0);
	fprintf(stderr, "\n  10,000 H100 (wanka): MTBF %.2f h (nodes alone %.2f h)\n", c->mtbf / 3600,
		1 / nodes / 3600);
	CU_ASSERT(c->mtbf < 20 * 3600);
	CU_ASSERT(c->mtbf > 4 * 3600);

	/* Hot spares: 1,325 node interruptions a year over a 3-day repair leave 10.89 nodes out
	 * on average; the 99 % quantile of Poisson(10.89) is 19 (P(<= 18) = 0.9838, P(<= 19) =
	 * 0.9916). */
	const SpareSizing *sp = &b->d.spare_sizing;
	CLOSE(sp->nodes_down, 1250 * (0.152 + 8 * (0.0809 + 0.0297 + 0.0029)) * 3 / 365, 1e-9);
	CU_ASSERT_EQUAL(sp->hot_nodes, 19);
	CLOSE(sp->hot_power, 19 * 10.2e3, 1e-12);

	/* Blast radius of its three-tier rail-optimized tree: a leaf serves 32 nodes one rail
	 * each; a spine carries 1/320 of the spine-core links that hold the bisection. */
	const BlastRadius *br = &b->d.blast;
	CU_ASSERT(br->done);
	CU_ASSERT_EQUAL(br->node_gpus, 8);
	CU_ASSERT_EQUAL_FATAL(br->nfabrics, 1);
	const BlastFabric *f = &br->fabrics[0];
	CU_ASSERT_EQUAL(f->top_tier, ST_CORE);
	CU_ASSERT_EQUAL(f->worst_tier, ST_LEAF);
	for (int i = 0; i < br->ntiers; i++) {
		const BlastSwitchTier *t = &br->tiers[i];
		if (t->tier == ST_LEAF) {
			CU_ASSERT_EQUAL(t->ports_cut, 32);
			CLOSE(t->bisection_left, f->bisection, 1e-12);
		}
		if (t->tier == ST_SPINE)
			CLOSE(t->bisection_left, f->bisection * (1 - 1.0 / 320), 1e-12);
	}
	for (int k = 1; k <= BLAST_K; k++)
		CU_ASSERT(f->after[k] < f->after[k - 1]);

	/* The same design as a candidate of the choice search (not cabled): the nodes, the sized
	 * fabric's 832 QM9700 (5 % each) and its 30,480 links at the cable models' 0.51 % (every
	 * cable of std.network but the trunks), no optics, no plant: 1,250 x (15.2 % + 8 x 11.35 %)
	 * + 832 x 5 % + 30,480 x 0.51 % = 1,325.0 + 41.6 + 155.448 = 1,522.048 a year. As built the
	 * BOM's cables and the plant's 0.0126 events a year (wanka's N+1 and 2N plants) add to it,
	 * more than half of them the chillers' pairs: std.cooling's chiller_1500 at 92 % a year and
	 * 12 h (OREDA-2009 as a plant availability calculation quotes it, std.cooling's header); the
	 * hall's cold plates' air share has 3 of them (chiller_1500_air), 3 pairs of
	 * 2 x 0.92^2 x (12 / 8,760) / (1 + 2 x 0.92 x 12 / 8,760) = 2.313074e-3: 6.93922e-3 a year. */
	CU_ASSERT_EQUAL(b->d.fabrics[0].switches, 832);
	CU_ASSERT_EQUAL(b->d.fabrics[0].links - b->d.fabrics[0].board_links, 30480);
	int ncables = b->d.ncables;
	b->d.ncables = 0;
	double mtbf;
	CU_ASSERT(reliability_attribute(&b->d, b->d.cluster, FLD_CLUSTER_JOB_MTBF, &mtbf));
	b->d.ncables = ncables;
	CLOSE(year / mtbf,
	      1250 * (0.152 + 8 * (0.0809 + 0.0297 + 0.0029)) + 832 * 0.05 + 30480 * 0.0051, 1e-9);
	double built;
	CU_ASSERT(reliability_attribute(&b->d, b->d.cluster, FLD_CLUSTER_JOB_MTBF, &built));
	CLOSE(built, c->mtbf, 1e-12);
	double plant = (c->by_class[REL_POWER] + c->by_class[REL_COOLING]) * year;
	CU_ASSERT(plant > 0.17 && plant < 0.19);
	double rows = 0;
	for (int k = 0; k < b->d.blast.npower; k++)
		rows += b->d.blast.power[k].rate + b->d.blast.power[k].ccf_rate;
	for (int k = 0; k < b->d.blast.ncooling; k++)
		rows += b->d.blast.cooling[k].rate + b->d.blast.cooling[k].ccf_rate;
	CLOSE(plant, rows * year, 1e-9);
	/* A check, not a fit: the cooling plants' common causes stop a group of racks at the
	 * order of J. Dean's "~0.5 overheating (power down most machines in <5 mins ...)" a year
	 * in a ~1,800-machine Google cluster's first year (slide 8 of "Handling Large Datasets at
	 * Google", 2008; docs/reliability.md "A check against a fleet"): within a factor of 10. */
	double cooling_ccf = 0;
	for (int k = 0; k < b->d.blast.ncooling; k++)
		cooling_ccf += b->d.blast.cooling[k].ccf_rate * year;
	CU_ASSERT(cooling_ccf > 0.5 / 10 && cooling_ccf < 0.5 * 10);
	int chillers = 0;
	for (int k = 0; k < b->d.blast.ncooling; k++) {
		const BlastCooling *bc = &b->d.blast.cooling[k];
		if (strcmp(bc->unit->name, "chiller_1500_air") != 0)
			continue;
		chillers++;
		CU_ASSERT_EQUAL(bc->units, 3);
		CLOSE(bc->unit->failure_rate * year, 0.92, 1e-12);
		CLOSE(bc->unit->mttr, 12 * 3600.0, 1e-9);
		CLOSE(bc->rate * year, 6.263435e-3, 1e-6);
		CLOSE(bc->ccf_rate * year, 0.046, 1e-12);
	}
	CU_ASSERT_EQUAL(chillers, 1);
	fprintf(stderr, "  as a candidate %.6f h, as built %.6f h (the plant %.2g of the rate)\n",
		mtbf / 3600, built / 3600, plant / (year / built));
	unit_build_done(b);
}

/* Which nodes are hot spares (spares.c), worked by hand. */
static int count_true(const bool *v, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += v[i];
	return k;
}

static void test_spares_place(void)
{
	/* wanka with 19 spares: 1,269 nodes in 40 scalable units of 32; unit u takes
	 * floor((u+1) 19 / 40) - floor(u 19 / 40): units 2, 4, 6 ... its last node (95, 159 ...),
	 * never two in one unit. */
	static bool s[1300];
	spares_place(1269, 19, 32, 0, s);
	CU_ASSERT_EQUAL(count_true(s, 1269), 19);
	CU_ASSERT(!s[31] && !s[63] && s[95] && s[159] && !s[94]);
	for (int u = 0; u < 40; u++)
		CU_ASSERT(count_true(s + 32 * u, u == 39 ? 1269 - 32 * 39 : 32) <= 1);
	/* 10 nodes, 4 spares, units of 4 (4, 4, 2): shares 1, 1, 2 -> nodes 3, 7, 8, 9. */
	spares_place(10, 4, 4, 0, s);
	CU_ASSERT(s[3] && s[7] && s[8] && s[9] && count_true(s, 10) == 4);
	/* 9 nodes, 5 spares (4, 4, 1): shares 1, 2, 2; the last unit holds 1, the other from the
	 * end on a free node: 3, 6, 7, 8 and 5. */
	spares_place(9, 5, 4, 0, s);
	CU_ASSERT(s[3] && s[5] && s[6] && s[7] && s[8] && count_true(s, 9) == 5);
	/* A group starting 2 nodes into a unit of 4: units [0, 2), [2, 6), [6, 8); shares 0, 1,
	 * 1 -> nodes 5 and 7. */
	spares_place(8, 2, 4, 2, s);
	CU_ASSERT(s[5] && s[7] && count_true(s, 8) == 2);
	/* No unit: the group's last nodes. */
	spares_place(6, 2, 0, 0, s);
	CU_ASSERT(s[4] && s[5] && count_true(s, 6) == 2);

	/* The count: HGX nodes add to the group; NVL72 trays (4 GPUs, domains of 72 = 18 trays)
	 * are reserved in every domain, rounded up, at most 17 a domain. */
	Part hgx = {.name = "hgx"}, nvl = {.name = "nvl"};
	hgx.node.accelerators = 8, hgx.node.scale_up_domain = 8;
	nvl.node.accelerators = 4, nvl.node.scale_up_domain = 72;
	NodeGroup g = {.type = &hgx, .count = 1250};
	spares_size(&g, 19);
	CU_ASSERT(g.spares == 19 && g.count == 1269 && g.domain_spares == 0);
	g = (NodeGroup){.type = &nvl, .count = 180};
	spares_size(&g, 15);
	CU_ASSERT(g.spares == 20 && g.domain_spares == 2 && g.count == 180);
	spares_size(&g, 500);
	CU_ASSERT(g.spares == 170 && g.domain_spares == 17);
	spares_size(&g, 0);
	CU_ASSERT(g.spares == 0 && g.domain_spares == 0);
}

/* A spec's hot spares: 16 DGX H100 and 3 hot spares are 19 nodes racked, powered and priced,
 * a BOM line of their own; the plan of 128 GPUs runs on the 16 others, and the cluster's rate
 * counts those 16 only. */
static void test_spares_design(void)
{
	Built *b = build_spec2("hot_spares = 3", "distributed_optimizer = true");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL(d->nnodes, 19);
	CU_ASSERT_EQUAL(d->t.nodes, 19);
	CU_ASSERT_EQUAL(d->t.hot_spares, 3);
	int spare = 0;
	for (int i = 0; i < d->nnodes; i++)
		spare += d->nodes[i].spare;
	CU_ASSERT_EQUAL(spare, 3);
	double node_w = d->groups[0].type->power;
	CLOSE(d->t.power_by_cat[CAT_NODES], 19 * node_w, 1e-12);
	double hot = 0, plain = 0;
	for (int i = 0; i < d->nbom; i++) {
		if (!strcmp(d->bom[i].part, "hot spare node"))
			hot += d->bom[i].quantity;
		if (!strcmp(d->bom[i].part, "node"))
			plain += d->bom[i].quantity;
	}
	CU_ASSERT(hot == 3 && plain == 16);
	CU_ASSERT_EQUAL_FATAL(d->nplans, 1);
	const WorkloadPlan *wp = &d->plans[0];
	CU_ASSERT_EQUAL(wp->nodes, 16);
	for (int i = 0; i < wp->nodes; i++)
		CU_ASSERT(!d->nodes[wp->hosts[i]].spare);
	CU_ASSERT_EQUAL(d->reliability.accelerators, 128);
	CU_ASSERT_EQUAL(d->spare_sizing.installed, 3);
	CLOSE(d->spare_sizing.coverage, reliability_poisson_cdf(d->spare_sizing.nodes_down, 3), 1e-12);
	unit_build_done(b);
}

/* The power chain's blast: a unit under 2N, N+1 or block takes nothing; under N its share of
 * the racks, ceil(264 / 29) = 10 (wanka on ac_ups_n: 29 UPS modules of 500 kW); a stage
 * without a unit rating is one path, every rack; a rack feed under N its own rack. The worst
 * window of racks: the consecutive ones with the most accelerators, the first on ties. */
static void test_power_blast(void)
{
	CU_ASSERT_EQUAL(blast_power_share(RED_TWO_N, false, 4, 264), 0);
	CU_ASSERT_EQUAL(blast_power_share(RED_N_PLUS_1, false, 7, 264), 0);
	CU_ASSERT_EQUAL(blast_power_share(RED_BLOCK, false, 4, 264), 0);
	CU_ASSERT_EQUAL(blast_power_share(RED_N, false, 29, 264), 10);
	CU_ASSERT_EQUAL(blast_power_share(RED_N, false, 0, 264), 264);
	CU_ASSERT_EQUAL(blast_power_share(RED_N, true, 2, 264), 1);
	CU_ASSERT_EQUAL(blast_power_share(RED_TWO_N, true, 2, 264), 0);
	const int gpus[6] = {8, 0, 16, 16, 0, 8};
	CU_ASSERT_EQUAL(blast_window(gpus, 6, 2), 2);
	CU_ASSERT_EQUAL(blast_window(gpus, 6, 3), 1);
	CU_ASSERT_EQUAL(blast_window(gpus, 6, 1), 2);
	CU_ASSERT_EQUAL(blast_window(gpus, 6, 6), 0);
	CU_ASSERT_EQUAL(blast_window(gpus, 6, 0), -1);

	/* A design's racks lost: the accelerators are the nodes' standing in them, every plan on
	 * one of them restarts; no rack lost, nothing. */
	Built *b = build_spec("distributed_optimizer = true");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	bool lost[64] = {false};
	CU_ASSERT_FATAL(d->nracks < 64);
	BlastLoss l;
	blast_racks(d, lost, &l);
	CU_ASSERT(l.racks == 0 && l.gpus == 0 && l.nplans == 0 && l.switches == 0);
	int r0 = d->nodes[0].rack, in_r0 = 0;
	for (int i = 0; i < d->nnodes; i++)
		in_r0 += d->nodes[i].rack == r0;
	lost[r0] = true;
	blast_racks(d, lost, &l);
	CU_ASSERT_EQUAL(l.racks, 1);
	CU_ASSERT_EQUAL(l.gpus, 8 * in_r0);
	CU_ASSERT_EQUAL(l.nplans, 1);
	CU_ASSERT(l.plans && l.plans[0]);
	unit_build_done(b);

	/* The same cluster on std.power's ac_ups_n: its UPS stage (500 kW modules, n) sized for
	 * the load in whole modules; one module takes ceil(racks / modules) racks, the worst ones,
	 * and the plan restarts; the 2N stages take nothing. */
	char text[4096], spliced[4200];
	snprintf(text, sizeof text, SPEC, "", "distributed_optimizer = true");
	const char *at = strstr(text, "site s {\n");
	CU_ASSERT_FATAL(at != NULL);
	at += strlen("site s {\n");
	snprintf(spliced, sizeof spliced, "import std.power\n%.*s  power = ac_ups_n\n%s",
		 (int)(at - text), text, at);
	b = unit_build(spliced, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	d = &b->d;
	CU_ASSERT_FATAL(d->blast.npower == d->nstages && d->nstages == 5);
	int n_stages = 0;
	for (int k = 0; k < d->blast.npower; k++) {
		const BlastPower *p = &d->blast.power[k];
		if (p->tolerated) {
			CU_ASSERT(p->loss.racks == 0 && p->loss.gpus == 0 && p->loss.nplans == 0);
			continue;
		}
		n_stages++;
		CU_ASSERT_EQUAL(p->stage->stage.stage, PS_UPS);
		CU_ASSERT_EQUAL(p->units, (int)d->stages[k].units);
		CU_ASSERT_EQUAL(p->share, (d->nracks + p->units - 1) / p->units);
		CU_ASSERT_EQUAL(p->loss.racks, p->share);
		CU_ASSERT(p->loss.gpus > 0 && p->loss.nplans == 1);
	}
	CU_ASSERT_EQUAL(n_stages, 1);
	unit_build_done(b);
}

/* The cooling plant's blast: the same cluster on a cold-plate cooling whose CDU (one per two
 * racks, no redundant unit) is its only unit: one CDU takes its two racks, the worst pair on the
 * floor, and the plan restarts; on std.cooling's cold_plate (every unit n_plus_1) nothing. A
 * cluster of one zone has no zone row. */
static void test_cooling_blast(void)
{
	char text[4096], spliced[4800];
	snprintf(text, sizeof text, SPEC, "", "distributed_optimizer = true");
	const char *at = strstr(text, "  rack    = rack48_liquid\n");
	CU_ASSERT_FATAL(at != NULL);
	snprintf(spliced, sizeof spliced,
		 "import std.cooling\n"
		 "cooling_unit cdu_pair {\n  unit = cdu\n  serves = liquid\n  capacity = 1000 kW\n"
		 "  racks_per_unit = 2\n  redundancy = n\n  power_ratio = 0.015\n"
		 "  capex_per_kw = 250 USD/kW  // test figure\n}\n"
		 "cooling cp_n : cold_plate {\n  plant = [cdu_pair]\n}\n"
		 "rack r_n : rack48_liquid {\n  cooling = cp_n\n}\n"
		 "%.*s  rack    = r_n\n%s",
		 (int)(at - text), text, at + strlen("  rack    = rack48_liquid\n"));
	Built *b = unit_build(spliced, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL(d->blast.zone, -1);
	int cdus = 0;
	for (int k = 0; k < d->blast.ncooling; k++) {
		const BlastCooling *c = &d->blast.cooling[k];
		if (c->unit->cunit.unit != CU_CDU)
			continue;
		cdus++;
		const CoolingGroup *g = &d->cool_groups[c->group];
		CU_ASSERT_STRING_EQUAL(g->cooling->name, "cp_n");
		CU_ASSERT(!c->tolerated);
		CU_ASSERT_EQUAL(c->share, 2);
		CU_ASSERT_EQUAL(c->units, (g->racks + 1) / 2);
		CU_ASSERT_EQUAL(c->loss.racks, 2);
		CU_ASSERT(c->loss.gpus >= 8 && c->loss.nplans == 1);
	}
	CU_ASSERT_EQUAL(cdus, 1);
	unit_build_done(b);

	b = build_spec("distributed_optimizer = true");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	d = &b->d;
	CU_ASSERT(d->blast.ncooling > 0);
	for (int k = 0; k < d->blast.ncooling; k++)
		CU_ASSERT(d->blast.cooling[k].tolerated && d->blast.cooling[k].loss.racks == 0);
	unit_build_done(b);
}

/* The plant's events (blast_plant_event), worked by hand with a year of 8,760 h:
 *  - n, 29 UPS modules at 3 % a year on 264 racks: 29 x 0.03 = 0.87 events a year, each
 *    ceil(264 / 29) = 10 racks; a stage without a unit rating under n is one path: its afr,
 *    every rack;
 *  - two_n, 4 modules (2 pairs side by side) at 3 %, repaired in 8 h = 9.1324e-4 y: a pair
 *    fails at 2 lambda^2 r / (1 + 2 lambda r) = 1.64384e-6 / 1.0000548 = 1.64375e-6, two pairs
 *    3.28749e-6 a year, each taking one pair's ceil(264 / 2) = 132 racks;
 *  - n_plus_1, 7 units at 10 %, 24 h = 2.73973e-3 y: 21 pairs of 5.47945e-5 / 1.000548 =
 *    5.47645e-5: 1.150055e-3 a year, each ceil(264 / 6) = 44 racks (what 5 cannot carry);
 *    with racks_per_unit 2, 2 racks;
 *  - block, 8 units in 4 blocks at 5 %, 24 h: 28 pairs of 1.36986e-5 / 1.000274 = 1.36949e-5:
 *    3.83457e-4 a year, a block's ceil(264 / 4) = 66 racks;
 *  - rack feeds A and B (two_n, 2 a rack) at 1 %, 4 h = 4.56621e-4 y: 264 racks x 9.13242e-8 /
 *    1.0000091 = 2.41094e-5 a year, a rack each; under n, 2 feeds a rack: 264 x 2 x 0.01.
 * The share a job meets: on 100 of 264 racks, events of 10 racks: (100 + 10 - 1) / 264 =
 * 0.412879; on every rack, all; on half a rack, its rack's 1 / 264.
 * With a common-cause share beta (the beta-factor model, IEC 61508-6:2010 annex D), the
 * independent failures are (1 - beta) lambda and each redundant group fails whole at
 * beta lambda:
 *  - two_n, the 4 modules above, beta 2 %: (1 - 0.02) x 3 % = 2.94 %: a pair 2 x 0.0294^2 x
 *    9.1324e-4 / (1 + 2 x 0.0294 x 9.1324e-4) = 1.57873e-6 / 1.0000537 = 1.57865e-6, two
 *    3.15731e-6 a year; common cause: 2 pairs x 0.02 x 0.03 = 1.2e-3 a year, a pair's 132
 *    racks each;
 *  - n_plus_1, the 7 units above, beta 5 %: 21 pairs at 9.5 %: 21 x 2 x 0.095^2 x 2.73973e-3
 *    / (1 + 2 x 0.095 x 2.73973e-3) = 1.037953e-3 a year; common cause: 0.05 x 0.1 = 5e-3 a
 *    year, all 264 racks (the whole group down);
 *  - block, the 8 units above, beta 5 %: common cause 0.05 x 0.05 = 2.5e-3 a year, 264 racks;
 *  - rack feeds A and B, beta 2 %: 264 racks x 2 x 0.0098^2 x 4.56621e-4 / (1 + 2 x 0.0098 x
 *    4.56621e-4) = 2.31546e-5 a year; common cause: 264 x 0.02 x 0.01 = 0.0528 a year, a rack
 *    each;
 *  - three rack feeds a rack, n_plus_1, beta 2 %: 264 racks x 3 pairs x 8.77070e-8 =
 *    6.94639e-5 a year; common cause: one group a rack (all three), 264 x 0.02 x 0.01 =
 *    0.0528 a year, a rack each;
 *  - under n, beta changes nothing: 29 x 0.03 = 0.87 a year, no common-cause events. */
static void test_plant_events(void)
{
	const double year = 365.0 * 86400, h = 3600;
	/* Each case: the stage, its failures a year and repair hours, and the events a year (NAN:
	 * not checked) within a tolerance, with the racks each stops. */
	static const struct {
		int redundancy;
		bool rack_feed;
		int units, modules, per;
		double afr, mttr_h, rate, tol;
		int racks;
	} cases[] = {
		{RED_N, false, 29, 1, 0, 0.03, 8, 0.87, 1e-12, 10},
		{RED_N, false, 0, 1, 0, 0.03, 8, 0.03, 1e-12, 264},
		{RED_TWO_N, false, 4, 1, 0, 0.03, 8, 3.28749e-6, 1e-5, 132},
		{RED_N_PLUS_1, false, 7, 6, 0, 0.1, 24, 1.150055e-3, 1e-5, 44},
		{RED_N_PLUS_1, false, 7, 6, 2, 0.1, 24, NAN, 0, 2},
		{RED_BLOCK, false, 8, 4, 0, 0.05, 24, 3.83457e-4, 1e-5, 66},
		{RED_TWO_N, true, 2, 1, 0, 0.01, 4, 2.41094e-5, 1e-5, 1},
		{RED_N, true, 2, 1, 0, 0.01, 4, 264 * 2 * 0.01, 1e-12, 1},
	};
	PlantEvent e;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		blast_plant_event(cases[k].redundancy, cases[k].rack_feed, cases[k].units,
				  cases[k].modules, cases[k].per, cases[k].afr / year, cases[k].mttr_h * h,
				  0, 264, &e);
		if (!isnan(cases[k].rate))
			CLOSE(e.rate * year, cases[k].rate, cases[k].tol);
		CU_ASSERT_EQUAL(e.racks, cases[k].racks);
		CU_ASSERT_EQUAL(e.ccf_rate, 0);
	}
	/* The same with a common-cause share: the independent events, the common-cause ones and
	 * the racks each takes. */
	static const struct {
		int redundancy;
		bool rack_feed;
		int units, modules;
		double afr, mttr_h, beta, rate, ccf;
		int racks, ccf_racks;
	} ccf[] = {
		{RED_TWO_N, false, 4, 1, 0.03, 8, 0.02, 3.15731e-6, 1.2e-3, 132, 132},
		{RED_N_PLUS_1, false, 7, 6, 0.1, 24, 0.05, 1.037953e-3, 5e-3, 44, 264},
		{RED_BLOCK, false, 8, 4, 0.05, 24, 0.05, NAN, 2.5e-3, 66, 264},
		{RED_TWO_N, true, 2, 1, 0.01, 4, 0.02, 2.31546e-5, 0.0528, 1, 1},
		{RED_N_PLUS_1, true, 3, 2, 0.01, 4, 0.02, 6.94639e-5, 0.0528, 1, 1},
		{RED_N, false, 29, 1, 0.03, 8, 0.05, 0.87, 0, 10, 0},
	};
	for (size_t k = 0; k < sizeof ccf / sizeof ccf[0]; k++) {
		blast_plant_event(ccf[k].redundancy, ccf[k].rack_feed, ccf[k].units, ccf[k].modules, 0,
				  ccf[k].afr / year, ccf[k].mttr_h * h, ccf[k].beta, 264, &e);
		if (!isnan(ccf[k].rate))
			CLOSE(e.rate * year, ccf[k].rate, 1e-5);
		CLOSE(e.ccf_rate * year, ccf[k].ccf, 1e-12);
		CU_ASSERT_EQUAL(e.racks, ccf[k].racks);
		CU_ASSERT_EQUAL(e.ccf_racks, ccf[k].ccf_racks);
	}
	/* Redundant units are rarer than the single ones by orders of magnitude; no racks, none. */
	blast_plant_event(RED_N, false, 29, 1, 0, 0.03 / year, 8 * h, 0.05, 0, &e);
	CU_ASSERT(e.rate == 0 && e.racks == 0 && e.ccf_rate == 0);
	CLOSE(blast_plant_hit(100, 10, 264), 109.0 / 264, 1e-12);
	CU_ASSERT_EQUAL(blast_plant_hit(264, 10, 264), 1);
	CLOSE(blast_plant_hit(0.5, 1, 264), 1.0 / 264, 1e-12);
	CU_ASSERT_EQUAL(blast_plant_hit(100, 0, 264), 0);
}

/* A spec on std.power's ac_ups_n: the UPS stage's modules (n) count in the cluster's rate at
 * modules x its afr (1 % a year: PREP's UPS row, std.power's header), the blast table's row
 * gives the same events, a job on part of the cluster meets
 * its share of them; the cold spares cover every unit's failures over the restock time. */
static void test_plant_rates(void)
{
	char text[4096], spliced[4200];
	snprintf(text, sizeof text, SPEC, "", "distributed_optimizer = true");
	const char *at = strstr(text, "site s {\n");
	CU_ASSERT_FATAL(at != NULL);
	at += strlen("site s {\n");
	snprintf(spliced, sizeof spliced, "import std.power\n%.*s  power = ac_ups_n\n%s",
		 (int)(at - text), text, at);
	Built *b = unit_build(spliced, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const double year = 365.0 * 86400;
	const BlastPower *ups = NULL, *pdu = NULL;
	double redundant = 0;
	for (int k = 0; k < d->blast.npower; k++) {
		if (d->blast.power[k].stage->stage.stage == PS_UPS)
			ups = &d->blast.power[k];
		else
			redundant += d->blast.power[k].rate + d->blast.power[k].ccf_rate;
		if (d->blast.power[k].stage->stage.stage == PS_PDU)
			pdu = &d->blast.power[k];
	}
	CU_ASSERT_FATAL(ups != NULL);
	CU_ASSERT(ups->units >= 1);
	CLOSE(ups->stage->failure_rate * year, 0.01, 1e-12);
	CLOSE(ups->stage->mttr, 2 * 3600.0, 1e-9);
	CLOSE(ups->rate * year, ups->units * 0.01, 1e-9);
	CU_ASSERT_EQUAL(ups->event_racks, ups->share);
	/* The cluster's rate: the UPS modules (n: beta changes nothing) and the 2N stages' overlaps
	 * and common causes. The floor PDUs (pdu_ac, 450 kW units: one a side for this floor's
	 * load, one pair) at 40 % a year and 6 h (J. Dean, Google, 2008, as std.power's header cites it), beta 2 %:
	 * independently at 0.98 x 0.4 = 0.392 a year, 2 x 0.392^2 x (6 / 8,760) /
	 * (1 + 2 x 0.392 x 6 / 8,760) = 2.104986e-4 / 1.000537 = 2.103857e-4 a year; both at once
	 * from a common cause 0.02 x 0.4 = 8e-3 a year, every rack (one pair). The other 2N stages'
	 * overlaps are orders of magnitude rarer; their common causes (the transformers', the
	 * rack feeds') are not. */
	CU_ASSERT_FATAL(pdu != NULL);
	CLOSE(pdu->stage->failure_rate * year, 0.4, 1e-12);
	CLOSE(pdu->stage->mttr, 6 * 3600.0, 1e-9);
	CU_ASSERT_EQUAL(pdu->units, 2);
	CLOSE(pdu->rate * year, 2.103857e-4, 1e-6);
	CLOSE(pdu->ccf_rate * year, 8e-3, 1e-12);
	CU_ASSERT_EQUAL(pdu->ccf_racks, d->nracks);
	CLOSE(d->reliability.by_class[REL_POWER], ups->rate + redundant, 1e-9);
	CU_ASSERT(ups->ccf_rate == 0);
	/* A job on 64 of the 128 GPUs spans half the racks: each stage's events at the share
	 * blast_plant_hit gives, less than the whole cluster's. */
	double power, expect = 0;
	reliability_plant(d, 64, &power, NULL);
	for (int k = 0; k < d->blast.npower; k++)
		expect += d->blast.power[k].rate *
				  blast_plant_hit(d->nracks * 0.5, d->blast.power[k].event_racks, d->nracks) +
			  d->blast.power[k].ccf_rate *
				  blast_plant_hit(d->nracks * 0.5, d->blast.power[k].ccf_racks, d->nracks);
	CLOSE(power, expect, 1e-12);
	CU_ASSERT(power < d->reliability.by_class[REL_POWER]);
	/* Cold spares: every unit's failures, the UPS modules' included, over 30 days. */
	const SpareSizing *sp = &d->spare_sizing;
	CU_ASSERT(d->reliability.unit_failures[REL_POWER] >= ups->units * 0.01 / year);
	CLOSE(sp->cold_mean[REL_POWER], d->reliability.unit_failures[REL_POWER] * 30 * 86400, 1e-12);
	unit_build_done(b);
}

/* Poisson quantiles worked by hand: mean 2, P(<= 5) = 0.9834, P(<= 6) = 0.9955. */
static void test_poisson(void)
{
	CU_ASSERT_EQUAL(reliability_poisson_quantile(2, 0.99), 6);
	CU_ASSERT_EQUAL(reliability_poisson_quantile(2, 0.98), 5);
	CU_ASSERT_EQUAL(reliability_poisson_quantile(0, 0.99), 0);
	/* A large mean does not underflow: about mean + 2.33 sqrt(mean). */
	int q = reliability_poisson_quantile(10000, 0.99);
	CU_ASSERT(q > 10200 && q < 10260);
}

void suite_reliability(void)
{
	CU_pSuite s = CU_add_suite("reliability", NULL, NULL);
	CU_add_test(s, "Young and Daly against hand-worked numbers", test_intervals);
	CU_add_test(s, "Daly's wall time against hand-worked numbers", test_wall_factor);
	CU_add_test(s, "Monte Carlo within its interval of the closed form", test_montecarlo);
	CU_add_test(s, "checkpoint size, bandwidth and goodput of a spec", test_checkpoint);
	CU_add_test(s, "10,000 H100 fail more often than every 20 h", test_seed_claim);
	CU_add_test(s, "Poisson quantiles of the spares", test_poisson);
	CU_add_test(s, "plant events against hand-worked numbers", test_plant_events);
	CU_add_test(s, "plant rates of a spec: cluster, job, blast row, cold spares", test_plant_rates);
	CU_add_test(s, "hot spares placed per unit and per domain", test_spares_place);
	CU_add_test(s, "a spec's hot spares: counted, racked, out of the plans", test_spares_design);
	CU_add_test(s, "power blast: shares of racks by redundancy, the worst window", test_power_blast);
	CU_add_test(s, "cooling blast: a CDU without redundancy takes its racks", test_cooling_blast);
}
