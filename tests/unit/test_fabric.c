/*
 * test_fabric.c — fabric synthesis end to end through pipeline_build: the DGX H100 SuperPOD
 * table, the closed forms of k-port fat trees, oversubscription, breakout, planes, dragonfly,
 * torus and scale-up domains; the verifier on corrupted wiring; and the metrics FabricInst
 * reports (diameter, ECMP) recomputed by breadth-first search over the wired links.
 */
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void suite_fabric(void);

/* The build pipeline over a spec given as text, or a file when `path` is set, in a scenario
 * when `scenario` is set (unit_build.c). */
static Built *build(const char *text, const char *path, const char *scenario)
{
	return unit_build(text, path, scenario, false);
}

static void done(Built *b)
{
	unit_build_done(b);
}

/* A violation of the design whose message holds every one of the NULL-terminated words. */
static bool violation_says(const Built *b, ...)
{
	for (int i = 0; i < b->d.violations.n; i++) {
		const Violation *v = b->d.violations.v[i];
		va_list ap;
		va_start(ap, b);
		bool all = true;
		for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
			all = all && strstr(v->msg, w) != NULL;
		va_end(ap);
		if (all)
			return true;
	}
	return false;
}

/* Wired links of fabric fi in tier t, counted from the instances. */
static int wired_links(const Design *d, int fi, LinkTier t)
{
	int n = 0;
	for (int i = 0; i < d->nlinks; i++)
		n += d->links[i].fabric == fi && d->links[i].tier == t;
	return n;
}

static int wired_switches(const Design *d, int fi, SwitchTier t)
{
	int n = 0;
	for (int i = 0; i < d->nswitches; i++)
		n += d->switches[i].fabric == fi && d->switches[i].tier == t;
	return n;
}

/* ---- specs as text ------------------------------------------------------------------------- */

/* Accelerators, 400G NICs of 1 and 6 ports, nodes with 1 NIC, 8 NICs and a 6-port NIC, and
 * a frame (cooling, rack, site) large enough for 65,536 nodes. */
static const char *BASE =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"nic n400 { speed = 400 Gbps; power = 20 W; price = 1000 USD }\n"
	"nic ici { speed = 200 Gbps; ports = 6; price = 500 USD }\n"
	"node n1 { accelerators = 1 x g; nics = 1 x n400; base_power = 100 W; height = 1 U\n"
	"  price = 10_000 USD; price_includes_nics = false }\n"
	"node n8 { accelerators = 8 x g; nics = 8 x n400; power = 10.2 kW; height = 8 U\n"
	"  price = 250_000 USD }\n"
	"node t6 { accelerators = 4 x g; nics = 1 x ici; power = 3 kW; height = 2 U\n"
	"  price = 50_000 USD }\n"
	"cooling liquid { type = cold_plate; pue = 1.1; max_rack_power = 100 kW }\n"
	"rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
	"site s { power_budget = 1000 MW; electricity = 0.10 USD/kWh }\n";

/* BASE, a switch, a fabric f and a cluster c of `nodes` (e.g. "64 x n1") on it. */
static Built *build_fabric(const char *sw, const char *fabric, const char *nodes)
{
	size_t n = strlen(BASE) + strlen(sw) + strlen(fabric) + strlen(nodes) + 256;
	char *spec = malloc(n);
	CU_ASSERT_FATAL(spec != NULL);
	snprintf(spec, n, "%s%s\nfabric f { %s }\ncluster c { site = s; nodes = %s; rack = r; "
			  "fabrics = [f] }\n",
		 BASE, sw, fabric, nodes);
	Built *b = build(spec, NULL, NULL);
	free(spec);
	return b;
}

/* A k-port switch at 400G, no breakout. */
static const char *k_switch(int k)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "switch sw { ports = %d; port_speed = 400 Gbps; power = 100 W; "
				  "price = 1000 USD }",
		 k);
	return buf;
}

static const char *QM = "switch qm { ports = 64; port_speed = 400 Gbps; breakout = 2; "
			"power = 750 W; price = 30_000 USD }";
static const char *SN = "switch sn { ports = 64; port_speed = 800 Gbps; breakout = 2; "
			"power = 1 kW; price = 55_000 USD }";

static const char *count_of(int n, const char *node)
{
	static char buf[64];
	snprintf(buf, sizeof buf, "%d x %s", n, node);
	return buf;
}

/* ---- graphs over the wired links ----------------------------------------------------------- */

/* The simple graph of a fabric's switches (parallel links merged), or of the nodes of a torus:
 * n vertices, adj[i * n + j]. */
typedef struct Graph {
	int n;
	unsigned char *adj;
	bool *attached; /* a switch an endpoint hangs from (every node on a torus) */
} Graph;

static Graph switch_graph(const Design *d, int fi)
{
	const FabricInst *f = &d->fabrics[fi];
	Graph g = {f->switches, calloc((size_t)f->switches * f->switches, 1),
		   calloc((size_t)f->switches, sizeof(bool))};
	CU_ASSERT_FATAL(g.adj && g.attached);
	int s0 = f->first_switch;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric != fi)
			continue;
		if (l->a.kind == END_SWITCH && l->z.kind == END_SWITCH) {
			int a = l->a.dev - s0, z = l->z.dev - s0;
			CU_ASSERT_FATAL(a >= 0 && a < g.n && z >= 0 && z < g.n);
			g.adj[a * g.n + z] = g.adj[z * g.n + a] = 1;
		} else if (l->z.kind == END_SWITCH) {
			g.attached[l->z.dev - s0] = true;
		}
	}
	return g;
}

static Graph node_graph(const Design *d, int fi)
{
	Graph g = {d->nnodes, calloc((size_t)d->nnodes * d->nnodes, 1),
		   calloc((size_t)d->nnodes, sizeof(bool))};
	CU_ASSERT_FATAL(g.adj && g.attached);
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric == fi && l->a.kind == END_NODE && l->z.kind == END_NODE)
			g.adj[l->a.dev * g.n + l->z.dev] = g.adj[l->z.dev * g.n + l->a.dev] = 1;
	}
	for (int i = 0; i < g.n; i++)
		g.attached[i] = true;
	return g;
}

static void graph_free(Graph *g)
{
	free(g->adj);
	free(g->attached);
}

/* Breadth-first search from src: hops and the number of shortest paths to every vertex. */
static void bfs(const Graph *g, int src, int *dist, double *paths)
{
	int *queue = malloc(sizeof(int) * (size_t)g->n);
	CU_ASSERT_FATAL(queue != NULL);
	for (int i = 0; i < g->n; i++)
		dist[i] = -1, paths[i] = 0;
	int head = 0, tail = 0;
	dist[src] = 0, paths[src] = 1;
	queue[tail++] = src;
	while (head < tail) {
		int u = queue[head++];
		for (int v = 0; v < g->n; v++) {
			if (!g->adj[u * g->n + v])
				continue;
			if (dist[v] < 0) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
			if (dist[v] == dist[u] + 1)
				paths[v] += paths[u];
		}
	}
	free(queue);
}

/* The longest shortest path between attached vertices, and the fewest and most shortest
 * paths between pairs that far apart. -1 when some pair is not connected. */
static int diameter(const Graph *g, double *min_paths, double *max_paths)
{
	int *dist = malloc(sizeof(int) * (size_t)g->n);
	double *paths = malloc(sizeof(double) * (size_t)g->n);
	CU_ASSERT_FATAL(dist && paths);
	int diam = 0;
	*min_paths = 1e300, *max_paths = 0;
	for (int s = 0; s < g->n && diam >= 0; s++) {
		if (!g->attached[s])
			continue;
		bfs(g, s, dist, paths);
		for (int t = 0; t < g->n; t++) {
			if (!g->attached[t] || t == s)
				continue;
			if (dist[t] < 0) {
				diam = -1;
				break;
			}
			if (dist[t] > diam)
				diam = dist[t], *min_paths = 1e300, *max_paths = 0;
			if (dist[t] == diam) {
				if (paths[t] < *min_paths)
					*min_paths = paths[t];
				if (paths[t] > *max_paths)
					*max_paths = paths[t];
			}
		}
	}
	free(dist);
	free(paths);
	return diam;
}

/* ---- the DGX H100 SuperPOD ---------------------------------------------------------------- */

/* PRODUCT §8 and the RA's Table 4: 1 to 4 scalable units, node-leaf counts with 4 UFM links. */
static void test_superpod(void)
{
	static const struct {
		const char *scenario;
		int nodes, leaf, spine, node_leaf, leaf_spine;
	} rows[] = {
		{"su1", 31, 8, 4, 252, 256},
		{"su2", 63, 16, 8, 508, 512},
		{"su3", 95, 24, 16, 764, 768},
		{"su4", 127, 32, 16, 1020, 1024},
	};
	for (int i = 0; i < 4; i++) {
		Built *b = build(NULL, CLUSTERC_SOURCE_DIR "/examples/dgx-h100-superpod.cluster",
				 rows[i].scenario);
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		const Design *d = &b->d;
		CU_ASSERT_EQUAL_FATAL(d->nfabrics, 1);
		const FabricInst *f = &d->fabrics[0];
		CU_ASSERT_TRUE(f->sized);
		CU_ASSERT_EQUAL(d->nnodes, rows[i].nodes);
		CU_ASSERT_EQUAL(f->tiers, 2);
		CU_ASSERT_TRUE(f->rail_optimized);
		CU_ASSERT_EQUAL(f->sus, i + 1);
		CU_ASSERT_EQUAL(f->su_nodes, 32);
		CU_ASSERT_EQUAL(f->nextras, 4);
		CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], rows[i].leaf);
		CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], rows[i].spine);
		CU_ASSERT_EQUAL(f->by_tier[ST_CORE], 0);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_NODE_LEAF], rows[i].node_leaf);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_LEAF_SPINE], rows[i].leaf_spine);
		CU_ASSERT_EQUAL(f->links, rows[i].node_leaf + rows[i].leaf_spine);
		/* The wiring holds what the sizing counted. */
		CU_ASSERT_EQUAL(wired_switches(d, 0, ST_LEAF), rows[i].leaf);
		CU_ASSERT_EQUAL(wired_switches(d, 0, ST_SPINE), rows[i].spine);
		CU_ASSERT_EQUAL(wired_links(d, 0, LT_NODE_LEAF), rows[i].node_leaf);
		CU_ASSERT_EQUAL(wired_links(d, 0, LT_LEAF_SPINE), rows[i].leaf_spine);
		/* Rail alignment: rail r of every node goes to a leaf of rail r, in its node's unit;
		 * the 4 UFM ports take the free slot 31 of the last unit on rails 0 to 3. */
		int ufm = 0;
		for (int l = 0; l < d->nlinks; l++) {
			const LinkInst *k = &d->links[l];
			if (k->tier == LT_NODE_LEAF && k->a.kind == END_EXTRA) {
				const SwitchInst *leaf = &d->switches[k->z.dev];
				CU_ASSERT_EQUAL(leaf->rail, k->a.dev - f->first_extra);
				CU_ASSERT_EQUAL(leaf->su, i);
				CU_ASSERT_EQUAL(k->z.port, 31);
				ufm++;
			}
			if (k->tier != LT_NODE_LEAF || k->a.kind != END_NODE)
				continue;
			const SwitchInst *leaf = &d->switches[k->z.dev];
			CU_ASSERT_EQUAL(leaf->rail, d->ports[k->a.port].nic_index);
			CU_ASSERT_EQUAL(leaf->su, k->a.dev / 32);
			CU_ASSERT_EQUAL(k->z.port, k->a.dev % 32);
		}
		CU_ASSERT_EQUAL(ufm, 4);
		done(b);
	}
}

/* ---- closed forms ------------------------------------------------------------------------- */

/* k-port switches, 1-port nodes, not rail-optimized, 1:1: a 2-tier tree holds k²/2 endpoints
 * on k leaves and k/2 spines, one more needs 3 tiers; a 3-tier tree holds k³/4 on 5k²/4
 * switches (k²/2 leaves, k²/2 spines, k²/4 cores) and k³/4 links per tier. */
static void test_closed_forms(void)
{
	static const int ks[] = {8, 16, 32, 64};
	for (int i = 0; i < 4; i++) {
		int k = ks[i];
		const char *fabric = "topology = fat_tree(); switch = sw";

		Built *b = build_fabric(k_switch(k), fabric, count_of(k * k / 2, "n1"));
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		const FabricInst *f = &b->d.fabrics[0];
		CU_ASSERT_EQUAL(f->radix, k);
		CU_ASSERT_EQUAL(f->tiers, 2);
		CU_ASSERT_EQUAL(f->down[0], k / 2);
		CU_ASSERT_EQUAL(f->up[0], k / 2);
		CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], k);
		CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], k / 2);
		CU_ASSERT_EQUAL(f->switches, 3 * k / 2);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_NODE_LEAF], k * k / 2);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_LEAF_SPINE], k * k / 2);
		/* Every port of every switch in use. */
		for (int s = f->first_switch; s < f->first_switch + f->switches; s++)
			CU_ASSERT_EQUAL(b->d.switches[s].used, k);
		done(b);

		b = build_fabric(k_switch(k), fabric, count_of(k * k / 2 + 1, "n1"));
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		CU_ASSERT_EQUAL(b->d.fabrics[0].tiers, 3);
		done(b);

		int hosts = k * k * k / 4;
		b = build_fabric(k_switch(k), fabric, count_of(hosts, "n1"));
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		f = &b->d.fabrics[0];
		CU_ASSERT_EQUAL(f->tiers, 3);
		CU_ASSERT_EQUAL(f->pods, k);
		CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], k * k / 2);
		CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], k * k / 2);
		CU_ASSERT_EQUAL(f->by_tier[ST_CORE], k * k / 4);
		CU_ASSERT_EQUAL(f->switches, 5 * k * k / 4);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_NODE_LEAF], hosts);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_LEAF_SPINE], hosts);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_SPINE_CORE], hosts);
		CU_ASSERT_EQUAL(f->links, 3 * hosts);
		CU_ASSERT_EQUAL(b->d.nlinks, 3 * hosts);
		CU_ASSERT_EQUAL(wired_links(&b->d, 0, LT_SPINE_CORE), hosts);
		CU_ASSERT_EQUAL(wired_switches(&b->d, 0, ST_CORE), k * k / 4);
		for (int s = f->first_switch; s < f->first_switch + f->switches; s++)
			CU_ASSERT_EQUAL(b->d.switches[s].used, k);
		done(b);

		/* One host more than k³/4: no 3-tier tree of k ports holds it. */
		b = build_fabric(k_switch(k), fabric, count_of(hosts + 1, "n1"));
		CU_ASSERT_EQUAL(b->p.unmet, 1);
		CU_ASSERT_FALSE(b->d.fabrics[0].sized);
		CU_ASSERT_TRUE(violation_says(b, "3-tier fat tree", "a switch with", NULL));
		done(b);
	}
}

/* ---- oversubscription, breakout ------------------------------------------------------------ */

static void test_oversubscription(void)
{
	/* 3:1 on 64 ports: 48 down, 16 up; 12 nodes x 8 = 96 endpoints fill 2 leaves. */
	Built *b = build_fabric(QM, "topology = fat_tree(); switch = qm; oversubscription = 3:1",
				count_of(12, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->down[0], 48);
	CU_ASSERT_EQUAL(f->up[0], 16);
	CU_ASSERT_DOUBLE_EQUAL(f->oversub[0], 3.0, 1e-12);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 2);
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *sw = &b->d.switches[s];
		if (sw->tier != ST_LEAF)
			continue;
		int down = 0, up = 0;
		for (int i = 0; i < b->d.nlinks; i++) {
			const LinkInst *l = &b->d.links[i];
			down += l->tier == LT_NODE_LEAF && l->z.dev == s;
			up += l->tier == LT_LEAF_SPINE && l->a.dev == s;
			/* Down ports first, then up ports. */
			if (l->tier == LT_NODE_LEAF && l->z.dev == s)
				CU_ASSERT_TRUE(l->z.port < 48);
			if (l->tier == LT_LEAF_SPINE && l->a.dev == s)
				CU_ASSERT_TRUE(l->a.port >= 48 && l->a.port < 64);
		}
		CU_ASSERT_EQUAL(down, 48);
		CU_ASSERT_EQUAL(up, 16);
	}
	done(b);

	/* No split of all 64 ports comes within 1 % of 2:1 (42:22, 43:21), 5:1 (53:11, 54:10) or
	 * 5:4 (35:29, 36:28): the exact split that leaves the fewest ports idle. 2:1 at the leaf,
	 * 1:1 above, on 3 tiers: 4,800 endpoints on 115 leaves of 42, pods of 32 leaves. */
	static const struct {
		const char *ratio;
		int down, up, tiers, nodes;
		double oversub;
	} idle[] = {{"[2:1, 1:1]", 42, 21, 3, 600, 2.0},
		    {"5:1", 50, 10, 2, 100, 5.0},
		    {"5:4", 35, 28, 2, 100, 1.25}};
	for (int i = 0; i < 3; i++) {
		char fabric[160];
		snprintf(fabric, sizeof fabric,
			 "topology = fat_tree(tiers = %d); switch = qm; oversubscription = %s",
			 idle[i].tiers, idle[i].ratio);
		b = build_fabric(QM, fabric, count_of(idle[i].nodes, "n8"));
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		f = &b->d.fabrics[0];
		CU_ASSERT_EQUAL(f->down[0], idle[i].down);
		CU_ASSERT_EQUAL(f->up[0], idle[i].up);
		CU_ASSERT_DOUBLE_EQUAL(f->oversub[0], idle[i].oversub, 1e-12);
		int eps = idle[i].nodes * 8;
		CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], (eps + idle[i].down - 1) / idle[i].down);
		CU_ASSERT_EQUAL(f->links_by_tier[LT_LEAF_SPINE], f->by_tier[ST_LEAF] * idle[i].up);
		/* A full leaf: its down ports, then its up ports, the rest idle. */
		const SwitchInst *leaf = &b->d.switches[f->first_switch];
		CU_ASSERT_EQUAL(leaf->used, idle[i].down + idle[i].up);
		for (int l = 0; l < b->d.nlinks; l++) {
			const LinkInst *k = &b->d.links[l];
			if (k->tier == LT_NODE_LEAF && k->z.dev == f->first_switch)
				CU_ASSERT_TRUE(k->z.port < idle[i].down);
			if (k->tier == LT_LEAF_SPINE && k->a.dev == f->first_switch)
				CU_ASSERT_TRUE(k->a.port >= idle[i].down &&
					       k->a.port < idle[i].down + idle[i].up);
		}
		if (idle[i].tiers == 3) {
			/* 115 leaves, 4 pods of 32 under 21 pod spines each; cores: 21 groups of 2. */
			CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 115);
			CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], 84);
			CU_ASSERT_EQUAL(f->by_tier[ST_CORE], 42);
			CU_ASSERT_DOUBLE_EQUAL(f->oversub[1], 1.0, 1e-12);
			CU_ASSERT_DOUBLE_EQUAL(f->bisection, 2415 * 400e9 / 2, 1);
		}
		done(b);
	}

	/* 5:4 on 8 ports: no split of 8 or fewer within 1 %; a 9-port switch has it exactly. */
	b = build_fabric(k_switch(8), "topology = fat_tree(); switch = sw; oversubscription = 5:4",
			 count_of(16, "n1"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_FALSE(b->d.fabrics[0].sized);
	CU_ASSERT_TRUE(violation_says(b, "5:4", "4:4", "5:3", "9 ports", NULL));
	done(b);
}

/* Numbers past any fabric (check.c lets whole numbers reach 2^53) are violations with the
 * number as written, never an overflow, a hang or an internal error; so are more rails on one
 * fabric than the wiring takes. (A scalable unit too large is reported and sizing goes on
 * with the largest one, so that more than one error can be reported.) */
static void test_limits(void)
{
	static const struct {
		const char *fabric, *nodes, *says;
	} cases[] = {
		{"topology = fat_tree(tiers = 4); switch = qm", "64 x n8", "1, 2 or 3 tiers"},
		{"topology = fat_tree(); switch = qm; planes = 10_000_000_000", "64 x n8",
		 "10000000000 planes cannot share 8 NIC ports evenly: use planes = 8"},
		{"topology = fat_tree(rail_optimized = true); switch = qm; "
		 "scalable_unit = 10_000_000_000",
		 "64 x n8", "a scalable unit of 10000000000 nodes"},
		{"topology = dragonfly(a = 10_000_000_000); switch = qm", "64 x n8",
		 "a = 10000000000, h = 5000000000 needs 19999999999 ports"},
		{"topology = dragonfly(a = 1000, p = 1, h = 1000, g = 100_000); switch = big",
		 "64 x n8", "clusterc wires at most"},
		{"topology = torus(dims = [10_000_000_000, 2, 2]); switch = qm", "64 x t6",
		 "a torus of 40000000000 positions for 64 nodes"},
		{"topology = fat_tree(); switch = huge", "64 x n8", "clusterc sizes switches of up to"},
		{"topology = fat_tree(); switch = qm", "4 x n300", "at most 256 rails per node"},
	};
	char sw[512];
	snprintf(sw, sizeof sw,
		 "%s\nswitch big { ports = 2048; port_speed = 400 Gbps; power = 1 kW; price = 1 USD }"
		 "\nswitch huge { ports = 10_000_000_000; port_speed = 400 Gbps; power = 1 kW; "
		 "price = 1 USD }\nnode n300 { accelerators = 8 x g; nics = 300 x n400; "
		 "power = 10.2 kW; height = 8 U; price = 250_000 USD }",
		 QM);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Built *b = build_fabric(sw, cases[i].fabric, cases[i].nodes);
		CU_ASSERT_EQUAL(b->p.unmet, 1);
		CU_ASSERT_FALSE(b->p.internal_error);
		CU_ASSERT_TRUE(violation_says(b, cases[i].says, NULL));
		if (!violation_says(b, cases[i].says, NULL))
			fprintf(stderr, "limits: case %zu does not say '%s'\n", i, cases[i].says);
		done(b);
	}
}

static void test_breakout(void)
{
	/* 64 x 800G split in 2 at 400G: radix 128. */
	Built *b = build_fabric(SN, "topology = fat_tree(); switch = sn; link = 400 Gbps",
				count_of(32, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->breakout, 2);
	CU_ASSERT_EQUAL(f->radix, 128);
	CU_ASSERT_EQUAL(f->down[0], 64);
	/* 256 endpoints (more than one switch of 128 holds) on 64 down ports a leaf: 4 leaves
	 * and 2 spines of 128 ports. */
	CU_ASSERT_EQUAL(f->tiers, 2);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 4);
	CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], 2);
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		CU_ASSERT_EQUAL(b->d.switches[s].radix, 128);
		CU_ASSERT_EQUAL(b->d.switches[s].breakout, 2);
	}
	done(b);

	/* 300 Gbps is no whole fraction of 800G. */
	b = build_fabric(SN, "topology = fat_tree(); switch = sn; link = 300 Gbps",
			 count_of(16, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "not a whole fraction", "800 Gbps or 400 Gbps", NULL));
	done(b);

	/* 800 Gbps links on 400G NICs. */
	b = build_fabric(SN, "topology = fat_tree(); switch = sn; link = 800 Gbps",
			 count_of(16, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "faster than the 'n400' ports", "link = 400 Gbps", NULL));
	done(b);
}

/* ---- planes --------------------------------------------------------------------------------- */

static void test_planes(void)
{
	/* 8 rails over 2 planes, rail-optimized units of 32: two trees of 4 leaves and 2 spines. */
	Built *b = build_fabric(QM, "topology = fat_tree(tiers = 2, rail_optimized = true); "
				    "switch = qm; planes = 2; scalable_unit = 32",
				count_of(32, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_EQUAL(f->planes, 2);
	CU_ASSERT_EQUAL(f->per_plane[ST_LEAF], 4);
	CU_ASSERT_EQUAL(f->per_plane[ST_SPINE], 2);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 8);
	CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], 4);
	CU_ASSERT_EQUAL(f->links_by_tier[LT_NODE_LEAF], 256);
	int in_plane[2] = {0, 0};
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *sw = &d->switches[s];
		char tag[16];
		snprintf(tag, sizeof tag, "-p%d-", sw->plane + 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(sw->name, tag));
		CU_ASSERT_PTR_NULL(strstr(sw->name, sw->plane ? "-p1-" : "-p2-"));
		CU_ASSERT_TRUE(sw->plane == 0 || sw->plane == 1);
		in_plane[sw->plane]++;
		if (sw->tier == ST_LEAF)
			CU_ASSERT_EQUAL(sw->rail / 4, sw->plane);
	}
	CU_ASSERT_EQUAL(in_plane[0], 6);
	CU_ASSERT_EQUAL(in_plane[1], 6);
	CU_ASSERT_STRING_EQUAL(d->switches[f->first_switch].name, "f-p1-leaf-001");
	/* Independent trees: a link's switches are of its plane; NIC k goes to plane k / 4. */
	int links_in[2] = {0, 0};
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		links_in[l->plane]++;
		if (l->a.kind == END_SWITCH)
			CU_ASSERT_EQUAL(d->switches[l->a.dev].plane, l->plane);
		if (l->a.kind == END_NODE)
			CU_ASSERT_EQUAL(d->ports[l->a.port].nic_index / 4, l->plane);
		CU_ASSERT_EQUAL(d->switches[l->z.dev].plane, l->plane);
	}
	CU_ASSERT_EQUAL(links_in[0], f->links / 2);
	CU_ASSERT_EQUAL(links_in[1], f->links / 2);
	done(b);

	/* planes = auto: 300 nodes x 8 = 2,400 endpoints exceed a 2-tier plane of 64 ports
	 * (2,048); two planes of 1,200 fit. 200 nodes fit one. */
	b = build_fabric(QM, "topology = fat_tree(tiers = 2); switch = qm; planes = auto",
			 count_of(300, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].planes, 2);
	CU_ASSERT_EQUAL(b->d.fabrics[0].tiers, 2);
	CU_ASSERT_EQUAL(b->d.fabrics[0].per_plane[ST_LEAF], 38);
	done(b);
	b = build_fabric(QM, "topology = fat_tree(tiers = 2); switch = qm; planes = auto",
			 count_of(200, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].planes, 1);
	done(b);

	/* Planes must divide the rails. */
	b = build_fabric(QM, "topology = fat_tree(); switch = qm; planes = 3", count_of(16, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "3 planes cannot share 8", "planes = 2 or 4", NULL));
	done(b);
}

/* Planes by NIC port (docs/fabrics.md §1): 8 dual-port NICs over 2 planes, port j of every
 * NIC on plane j; and a leaf's backup ports off its split (§2). */
static void test_planes_by_port(void)
{
	static const char *DUAL =
		"switch qm { ports = 64; port_speed = 400 Gbps; breakout = 2; power = 750 W; "
		"price = 30_000 USD }\n"
		"nic d2 { speed = 200 Gbps; ports = 2; price = 1000 USD }\n"
		"node nd { accelerators = 8 x g; nics = 8 x d2; power = 10.2 kW; height = 8 U\n"
		"  price = 250_000 USD }";
	Built *b = build_fabric(DUAL, "topology = fat_tree(tiers = 2, rail_optimized = true); "
				      "switch = qm; planes = 2; plane_assignment = by_port; "
				      "scalable_unit = 32",
				count_of(32, "nd"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_TRUE(f->by_port);
	CU_ASSERT_EQUAL(f->per_plane[ST_LEAF], 8); /* 8 rails a plane: one NIC port each */
	int node_links = 0;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->a.kind != END_NODE)
			continue;
		node_links++;
		const PortInst *pt = &d->ports[l->a.port];
		CU_ASSERT_EQUAL(pt->port, l->plane);              /* port j on plane j */
		CU_ASSERT_EQUAL(l->rail, 2 * pt->nic_index + pt->port); /* the node's port index */
		CU_ASSERT_EQUAL(d->switches[l->z.dev].rail, l->rail);
	}
	CU_ASSERT_EQUAL(node_links, 32 * 16);
	done(b);

	/* by_nic on the same nodes: plane 1 takes NICs 1-4, both ports. */
	b = build_fabric(DUAL, "topology = fat_tree(tiers = 2, rail_optimized = true); "
			       "switch = qm; planes = 2; scalable_unit = 32",
			 count_of(32, "nd"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	for (int i = 0; i < b->d.nlinks; i++)
		if (b->d.links[i].a.kind == END_NODE)
			CU_ASSERT_EQUAL(b->d.ports[b->d.links[i].a.port].nic_index / 4, b->d.links[i].plane);
	done(b);

	/* Backups come off the leaf before the split: 64 - 4 ports at 1:1 are 30 down, 30 up, and
	 * the up ports start after the backups. */
	b = build_fabric(QM, "topology = fat_tree(tiers = 2); switch = qm; backup_ports_per_tor = 4",
			 count_of(16, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].down[0], 30);
	CU_ASSERT_EQUAL(b->d.fabrics[0].up[0], 30);
	for (int i = 0; i < b->d.nlinks; i++) {
		const LinkInst *l = &b->d.links[i];
		if (l->tier == LT_LEAF_SPINE)
			CU_ASSERT_TRUE(l->a.port >= 34);
		if (l->tier == LT_NODE_LEAF)
			CU_ASSERT_TRUE(l->z.port < 30);
	}
	done(b);

	/* Single-port NICs cannot be dealt by port. */
	b = build_fabric(QM, "topology = fat_tree(); switch = qm; planes = 2; plane_assignment = by_port",
			 count_of(16, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "plane_assignment = by_port", "'n400' has 1 port", NULL));
	done(b);
}

/* ---- dragonfly ------------------------------------------------------------------------------ */

static void test_dragonfly(void)
{
	/* Balanced a = 2p = 2h: p = 2, a = 4, h = 2, so g = a·h + 1 = 9 groups of 8 terminals. */
	int p = 2, a = 4, h = 2, g = 9;
	Built *b = build_fabric(QM, "topology = dragonfly(p = 2, a = 4, h = 2); switch = qm",
				count_of(9, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_EQUAL(f->df_g, g);
	CU_ASSERT_EQUAL(f->df_links_per_pair, 1);
	CU_ASSERT_EQUAL(f->by_tier[ST_ROUTER], a * g);
	CU_ASSERT_EQUAL(f->links_by_tier[LT_TERMINAL], 72);
	CU_ASSERT_EQUAL(f->links_by_tier[LT_LOCAL], g * a * (a - 1) / 2);
	CU_ASSERT_EQUAL(f->links_by_tier[LT_GLOBAL], g * (g - 1) / 2);
	CU_ASSERT_EQUAL(wired_links(d, 0, LT_LOCAL), 54);
	CU_ASSERT_EQUAL(wired_links(d, 0, LT_GLOBAL), 36);
	/* Every router uses p + a − 1 + h ports: terminals, then local, then global ones. */
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++)
		CU_ASSERT_EQUAL(d->switches[s].used, p + a - 1 + h);
	int pair[9][9] = {{0}};
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		const SwitchInst *z = &d->switches[l->z.dev];
		if (l->tier == LT_TERMINAL) {
			CU_ASSERT_TRUE(l->z.port < p);
			continue;
		}
		const SwitchInst *x = &d->switches[l->a.dev];
		if (l->tier == LT_LOCAL) {
			CU_ASSERT_EQUAL(x->group, z->group);
			CU_ASSERT_TRUE(l->a.port >= p && l->a.port < p + a - 1);
			CU_ASSERT_TRUE(l->z.port >= p && l->z.port < p + a - 1);
		} else {
			CU_ASSERT_EQUAL(l->tier, LT_GLOBAL);
			CU_ASSERT_NOT_EQUAL(x->group, z->group);
			CU_ASSERT_TRUE(l->a.port >= p + a - 1 && l->a.port < p + a - 1 + h);
			CU_ASSERT_TRUE(l->z.port >= p + a - 1 && l->z.port < p + a - 1 + h);
			pair[x->group][z->group]++;
			pair[z->group][x->group]++;
		}
	}
	for (int x = 0; x < g; x++)
		for (int y = 0; y < g; y++)
			CU_ASSERT_EQUAL(pair[x][y], x == y ? 0 : 1);
	done(b);

	/* 80 terminals: more than (a·h + 1)·a·p = 72. */
	b = build_fabric(QM, "topology = dragonfly(p = 2, a = 4, h = 2); switch = qm",
			 count_of(10, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "at most 9 groups", "72 in all", "raise a or h",
				      "h = 3 gives 13 groups", NULL));
	done(b);

	/* A router needs p + a − 1 + h = 7 ports; this switch has 6. */
	b = build_fabric(k_switch(6), "topology = dragonfly(p = 2, a = 4, h = 2); switch = sw",
			 count_of(9, "n8"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "needs 7 ports", "has 6", NULL));
	done(b);
}

/* ---- torus ---------------------------------------------------------------------------------- */

/* The torus position of node n in an X x Y x Z torus. */
static void coords(int n, int X, int Y, int c[3])
{
	c[0] = n % X, c[1] = n / X % Y, c[2] = n / (X * Y);
}

static void test_torus(void)
{
	Built *b = build_fabric(QM, "topology = torus(dims = [4, 4, 4]); switch = qm",
				count_of(64, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_EQUAL(f->switches, 0);
	CU_ASSERT_EQUAL(f->links, 192);
	CU_ASSERT_EQUAL(d->nlinks, 192);
	int degree[64] = {0};
	/* seen[n][k]: node n has a link to its neighbour k (dimension k / 2, + when k is even). */
	bool seen[64][6] = {{false}};
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		CU_ASSERT_EQUAL_FATAL(l->a.kind, END_NODE);
		CU_ASSERT_EQUAL_FATAL(l->z.kind, END_NODE);
		degree[l->a.dev]++, degree[l->z.dev]++;
		int ca[3], cz[3], dims = 0, dim = -1;
		coords(l->a.dev, 4, 4, ca);
		coords(l->z.dev, 4, 4, cz);
		for (int k = 0; k < 3; k++)
			if (ca[k] != cz[k])
				dims++, dim = k;
		CU_ASSERT_EQUAL_FATAL(dims, 1);
		/* z is a's + neighbour with wraparound, on rails 2·dim (a) and 2·dim + 1 (z). */
		CU_ASSERT_EQUAL(cz[dim], (ca[dim] + 1) % 4);
		CU_ASSERT_EQUAL(d->ports[l->a.port].port, 2 * dim);
		CU_ASSERT_EQUAL(d->ports[l->z.port].port, 2 * dim + 1);
		seen[l->a.dev][2 * dim] = true;
		seen[l->z.dev][2 * dim + 1] = true;
	}
	for (int n = 0; n < 64; n++) {
		CU_ASSERT_EQUAL(degree[n], 6);
		for (int k = 0; k < 6; k++)
			CU_ASSERT_TRUE(seen[n][k]);
	}
	done(b);

	/* 60 nodes on 64 positions. */
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 4]); switch = qm", count_of(60, "t6"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "64 positions for 60 nodes", "dims = [3, 4, 5]", NULL));
	done(b);

	/* One port per node: too few for a 3D torus (6). */
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 4]); switch = qm", count_of(64, "n1"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "needs 6 ports", "have 1", NULL));
	done(b);

	/* A dimension of 1 would link nodes to themselves. */
	b = build_fabric(QM, "topology = torus(dims = [8, 8, 1]); switch = qm", count_of(64, "t6"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "dimension of 1", NULL));
	done(b);

	/* Other devices have no place on a torus: a violation, not an unconnected port. */
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 4]); switch = qm; nic = ici; "
			     "endpoints = 2 x n1",
			 count_of(64, "t6"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_FALSE(b->p.internal_error);
	CU_ASSERT_TRUE(violation_says(b, "no port for the 2 ports of other devices", NULL));
	done(b);

	/* A torus has no switches: the switch's port speed does not bind its 200G links. */
	b = build_fabric(SN, "topology = torus(dims = [8, 8]); switch = sn", count_of(64, "t6"));
	CU_ASSERT_EQUAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].links, 128);
	done(b);
}

/* Nodes without the fabric's NIC take no place on it: the n-th node on the fabric has the
 * n-th slot (a rail-optimized unit, a torus position), whatever nodes are listed first. */
static void test_nodes_off_fabric(void)
{
	const char *cpu = "nic eth { speed = 100 Gbps; price = 100 USD }\n"
			  "node cpu { nics = 1 x eth; power = 500 W; height = 1 U; price = 5000 USD }\n";
	char sw[512];
	snprintf(sw, sizeof sw, "%s%s", cpu, QM);
	Built *b = build_fabric(sw, "topology = fat_tree(tiers = 2, rail_optimized = true); "
				    "switch = qm; nic = n400; scalable_unit = 4",
				"[5 x cpu, 8 x n8]");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_FALSE(b->p.internal_error);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->sus, 2);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 16);
	for (int i = 0; i < b->d.nlinks; i++) {
		const LinkInst *l = &b->d.links[i];
		if (l->tier != LT_NODE_LEAF)
			continue;
		int slot = l->a.dev - 5; /* the GPU nodes follow the 5 CPU nodes */
		CU_ASSERT_EQUAL(b->d.switches[l->z.dev].su, slot / 4);
		CU_ASSERT_EQUAL(l->z.port, slot % 4);
	}
	done(b);

	snprintf(sw, sizeof sw, "%s%s", cpu, QM);
	b = build_fabric(sw, "topology = torus(dims = [4, 4]); switch = qm; nic = ici",
			 "[3 x cpu, 16 x t6]");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_FALSE(b->p.internal_error);
	CU_ASSERT_EQUAL(b->d.nlinks, 32);
	for (int i = 0; i < b->d.nlinks; i++) {
		CU_ASSERT_TRUE(b->d.links[i].a.dev >= 3);
		CU_ASSERT_TRUE(b->d.links[i].z.dev >= 3);
	}
	done(b);
}

/* Extra devices bring the ports of their first NIC model, in sizing and in wiring alike. */
static void test_extra_endpoints(void)
{
	char sw[512];
	snprintf(sw, sizeof sw, "nic eth { speed = 100 Gbps; price = 100 USD }\n"
				"node mgr { nics = [1 x n400, 2 x eth]; power = 500 W; height = 1 U; "
				"price = 5000 USD }\n%s",
		 QM);
	Built *b = build_fabric(sw, "topology = fat_tree(tiers = 2); switch = qm; endpoints = 2 x mgr",
				count_of(8, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->nextras, 2);
	CU_ASSERT_EQUAL(f->endpoints, 66);
	CU_ASSERT_EQUAL(b->d.extras[f->first_extra].nports, 1);
	CU_ASSERT_STRING_EQUAL(b->d.extras[f->first_extra + 1].name, "f-mgr-2");
	CU_ASSERT_EQUAL(wired_links(&b->d, 0, LT_NODE_LEAF), 66);
	CU_ASSERT_FALSE(b->p.internal_error);
	done(b);
}

/* Extra ports dealt over planes that do not divide them: 3 devices of 1 port on 4 planes, so
 * planes 1-3 hold one each and plane 4 none. Every plane is shaped for one, but only 3 links
 * are counted and wired (a tree, then a dragonfly); before, sizing counted 4 and the verifier
 * stopped the build with an internal error. */
static void test_extras_over_planes(void)
{
	static const char *fabrics[] = {
		"topology = fat_tree(); switch = qm; planes = 4; endpoints = 3 x n1",
		"topology = dragonfly(a = 4); switch = qm; planes = 4; endpoints = 3 x n1",
	};
	for (int i = 0; i < 2; i++) {
		Built *b = build_fabric(QM, fabrics[i], count_of(8, "n8"));
		CU_ASSERT_EQUAL_FATAL(b->errors, 0);
		CU_ASSERT_FALSE(b->p.internal_error);
		const FabricInst *f = &b->d.fabrics[0];
		LinkTier edge = i == 0 ? LT_NODE_LEAF : LT_TERMINAL;
		CU_ASSERT_EQUAL(f->endpoints, 64 + 3);
		CU_ASSERT_EQUAL(f->links_by_tier[edge], 64 + 3);
		CU_ASSERT_EQUAL(wired_links(&b->d, 0, edge), 64 + 3);
		CU_ASSERT_EQUAL(b->d.nlinks, f->links);
		CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
		done(b);
	}
}

/* The change a message offers works: more tiers only when they hold the endpoints, more
 * planes or a larger switch for a pod too small for a scalable unit. */
static void test_suggestions(void)
{
	static const struct {
		int k;
		const char *fabric, *nodes, *says;
	} cases[] = {
		/* 16 endpoints on one 8-port switch: 2 tiers of 8 ports hold 32. */
		{8, "topology = fat_tree(tiers = 1); switch = sw", "16 x n1", "use tiers = 2"},
		/* 800 on one 16-port switch: 2 tiers hold 128, 3 tiers 1,024. */
		{16, "topology = fat_tree(tiers = 1); switch = sw", "100 x n8", "use tiers = 3"},
		/* 8 rails on 8-port spines (4 down): 4 planes of 2 rails, or 16-port switches. */
		{8, "topology = fat_tree(tiers = 3, rail_optimized = true); switch = sw", "33 x n8",
		 "use planes = 4, or a switch with 16 ports"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Built *b = build_fabric(k_switch(cases[i].k), cases[i].fabric, cases[i].nodes);
		CU_ASSERT_EQUAL(b->p.unmet, 1);
		CU_ASSERT_TRUE(violation_says(b, cases[i].says, NULL));
		done(b);
	}
}

/* ---- the verifier ---------------------------------------------------------------------------- */

/* Runs the verifier again over wiring changed by hand: true when it reported an internal
 * error whose message holds `words`. */
static bool verifier_rejects(Built *b, const char *words)
{
	int before = b->p.c->diags.n;
	b->p.internal_error = false;
	int failures = verify_fabrics(&b->d);
	bool found = false;
	for (int i = before; i < b->p.c->diags.n; i++) {
		const Diag *dg = b->p.c->diags.v[i];
		CU_ASSERT_STRING_EQUAL(dg->code, "internal");
		CU_ASSERT_PTR_NOT_NULL(strstr(dg->msg, "internal error: "));
		found = found || strstr(dg->msg, words) != NULL;
	}
	return failures > 0 && b->p.internal_error && found;
}

/* Removes link i as if the wiring had never made it. */
static void drop_link(Design *d, int i)
{
	const LinkInst *l = &d->links[i];
	if (l->a.kind == END_SWITCH)
		d->switches[l->a.dev].used--;
	if (l->z.kind == END_SWITCH)
		d->switches[l->z.dev].used--;
	memmove(&d->links[i], &d->links[i + 1], sizeof(LinkInst) * (size_t)(d->nlinks - i - 1));
	d->nlinks--;
}

static void test_verifier(void)
{
	Built *b = build(NULL, CLUSTERC_SOURCE_DIR "/examples/dgx-h100-superpod.cluster", "su1");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	Design *d = &b->d;
	/* Untouched, it proves the design again. */
	CU_ASSERT_EQUAL(verify_fabrics(d), 0);
	CU_ASSERT_FALSE(b->p.internal_error);

	/* Two links on one switch port. */
	CU_ASSERT_EQUAL_FATAL(d->links[0].z.kind, END_SWITCH);
	End saved = d->links[1].z;
	d->links[1].z = d->links[0].z;
	CU_ASSERT_TRUE(verifier_rejects(b, "carries two links"));
	d->links[1].z = saved;
	CU_ASSERT_EQUAL(verify_fabrics(d), 0);

	/* A link beyond the switch's radix, and one to a switch that does not exist. */
	saved = d->links[2].z;
	d->links[2].z.port = 64;
	CU_ASSERT_TRUE(verifier_rejects(b, "beyond its radix"));
	d->links[2].z = (End){END_SWITCH, d->nswitches + 7, 0};
	CU_ASSERT_TRUE(verifier_rejects(b, "does not exist"));
	d->links[2].z = saved;

	/* A dropped link: a NIC port left unconnected, one link fewer than counted. */
	drop_link(d, 0);
	CU_ASSERT_TRUE(verifier_rejects(b, "1 endpoint ports unconnected"));
	CU_ASSERT_TRUE(unit_error_says(b, "507 links wired; sizing counted 12 and 508"));
	done(b);

	/* A tree without its leaf-spine links (and a sizing that agrees) is not connected, even
	 * though every node reaches a leaf of every rail: nodes do not forward. */
	b = build(NULL, CLUSTERC_SOURCE_DIR "/examples/dgx-h100-superpod.cluster", "su1");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	d = &b->d;
	for (int i = d->nlinks - 1; i >= 0; i--)
		if (d->links[i].tier == LT_LEAF_SPINE)
			drop_link(d, i);
	d->fabrics[0].links = d->nlinks;
	CU_ASSERT_TRUE(verifier_rejects(b, "is not connected"));
	done(b);

	/* A leaf of plane 1 wired to a spine of plane 2 (ports swapped, so no port is shared). */
	b = build_fabric(QM, "topology = fat_tree(tiers = 2, rail_optimized = true); "
			     "switch = qm; planes = 2; scalable_unit = 32",
			 count_of(32, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	d = &b->d;
	int in[2] = {-1, -1};
	for (int i = 0; i < d->nlinks; i++)
		if (d->links[i].tier == LT_LEAF_SPINE && in[d->links[i].plane] < 0)
			in[d->links[i].plane] = i;
	CU_ASSERT_FATAL(in[0] >= 0 && in[1] >= 0);
	End z0 = d->links[in[0]].z;
	d->links[in[0]].z = d->links[in[1]].z;
	d->links[in[1]].z = z0;
	CU_ASSERT_TRUE(verifier_rejects(b, "plane 1) goes to f-p2-spine"));
	done(b);

	/* Two planes proved at once (verify.c, planes_connected), and plane 2 without its
	 * leaf-spine links apart while plane 1 stays whole: named plane by plane. */
	b = build_fabric(QM, "topology = fat_tree(tiers = 2, rail_optimized = true); "
			     "switch = qm; planes = 2; scalable_unit = 32",
			 count_of(32, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	d = &b->d;
	CU_ASSERT_EQUAL(verify_fabrics(d), 0);
	for (int i = d->nlinks - 1; i >= 0; i--)
		if (d->links[i].tier == LT_LEAF_SPINE && d->links[i].plane == 1)
			drop_link(d, i);
	d->fabrics[0].links = d->nlinks;
	CU_ASSERT_TRUE(verifier_rejects(b, "plane 2 of fabric f is not connected"));
	CU_ASSERT_FALSE(unit_error_says(b, "plane 1 of fabric f is not connected"));
	done(b);
}

/* The same with the memo of a compare worker on (passes/fabric/verify_memo.c): the untouched
 * design is proved again from the memo, and every change above still fails, so the memo's key
 * holds what each changes (the links' ends, the counts, the fabric's links counted). */
static void test_verifier_memo(void)
{
	verify_memo_keep(true);
	long hits = verify_memo_hits();
	test_verifier();
	CU_ASSERT_TRUE(verify_memo_hits() > hits);
	verify_memo_keep(false);
}

/* ---- metrics against the wired graph ---------------------------------------------------- */

/* Diameter (switch hops between the switches endpoints hang from) and, for trees, the
 * distinct shortest switch paths between leaves that far apart, by BFS over the links. */
static void check_metrics(Built *b, bool tree)
{
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	bool torus = f->switches == 0;
	Graph g = torus ? node_graph(&b->d, 0) : switch_graph(&b->d, 0);
	double lo, hi;
	int diam = diameter(&g, &lo, &hi);
	CU_ASSERT_EQUAL(diam, f->diameter);
	if (tree) {
		CU_ASSERT_DOUBLE_EQUAL(lo, f->ecmp, 0);
		CU_ASSERT_DOUBLE_EQUAL(hi, f->ecmp, 0);
	}
	graph_free(&g);
}

static void test_metrics(void)
{
	/* SuperPOD, one unit: leaf-spine-leaf, 4 spines. */
	Built *b = build(NULL, CLUSTERC_SOURCE_DIR "/examples/dgx-h100-superpod.cluster", "su1");
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 2);
	CU_ASSERT_DOUBLE_EQUAL(b->d.fabrics[0].ecmp, 4, 0);
	check_metrics(b, true);
	done(b);

	/* A full 3-tier tree of 8 ports: 4 hops between pods over k/2 · k/2 = 16 paths. */
	b = build_fabric(k_switch(8), "topology = fat_tree(); switch = sw", count_of(128, "n1"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 4);
	CU_ASSERT_DOUBLE_EQUAL(b->d.fabrics[0].ecmp, 16, 0);
	check_metrics(b, true);
	done(b);

	/* A 3-tier tree that is not full (3 pods, 2 cores per group). */
	b = build_fabric(k_switch(8), "topology = fat_tree(); switch = sw", count_of(33, "n1"));
	check_metrics(b, true);
	done(b);

	/* The balanced dragonfly: local, global, local. */
	b = build_fabric(QM, "topology = dragonfly(p = 2, a = 4, h = 2); switch = qm",
			 count_of(9, "n8"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 3);
	check_metrics(b, false);
	done(b);

	/* Two groups: every router has global links to the other group, so 2 hops. */
	b = build_fabric(QM, "topology = dragonfly(p = 2, a = 4, h = 2); switch = qm",
			 count_of(2, "n8"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].df_g, 2);
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 2);
	check_metrics(b, false);
	done(b);

	/* One group: a full mesh. */
	b = build_fabric(QM, "topology = dragonfly(p = 2, a = 4, h = 2); switch = qm",
			 count_of(1, "n8"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 1);
	check_metrics(b, false);
	done(b);

	/* 4 x 4 x 4 torus: 2 + 2 + 2 node hops. */
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 4]); switch = qm", count_of(64, "t6"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 6);
	check_metrics(b, false);
	done(b);

	/* 5 x 3 2D torus: 2 + 1. */
	b = build_fabric(QM, "topology = torus(dims = [5, 3]); switch = qm", count_of(15, "t6"));
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 3);
	check_metrics(b, false);
	done(b);
}

/* A torus dimension of 2: the + neighbour and, wrapping around, the - neighbour are the same
 * node, so each pair is joined by two parallel links (each on its own ports); the diameter
 * counts 1 hop for that dimension, the bisection cuts across the largest one. */
static void test_torus_of_two(void)
{
	Built *b = build_fabric(QM, "topology = torus(dims = [2, 4, 2]); switch = qm",
				count_of(16, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_EQUAL(f->links, 48);
	CU_ASSERT_EQUAL(f->diameter, 1 + 2 + 1);
	CU_ASSERT_DOUBLE_EQUAL(f->bisection, 2.0 * 16 / 4 * 200e9, 1);
	int between01 = 0, degree[16] = {0};
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		degree[l->a.dev]++, degree[l->z.dev]++;
		between01 += (l->a.dev == 0 && l->z.dev == 1) || (l->a.dev == 1 && l->z.dev == 0);
	}
	CU_ASSERT_EQUAL(between01, 2);
	for (int n = 0; n < 16; n++)
		CU_ASSERT_EQUAL(degree[n], 6);
	CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
	check_metrics(b, false);
	done(b);
}

/* ---- tori of blocks, optical circuit switches, twisted tori, positions per node --------------- */

/* The closed form of blocks joined at OCSes (torus.c), TPU v4's figures first: Jouppi et al.,
 * "TPU v4: An Optically Reconfigurable Supercomputer ...", ISCA 2023, §2: 64 cubes of 4 x 4 x 4,
 * 48 OCSes with 128 ports used each, 6 faces x 16 links = 96 optical links per cube. */
static void test_torus_ocs_closed_form(void)
{
	int ocs, ports, fibres, electrical;
	torus_layout_ocs_counts((int[3]){16, 16, 16}, (int[3]){4, 4, 4}, 3, &ocs, &ports, &fibres, &electrical);
	CU_ASSERT_EQUAL(ocs, 48);
	CU_ASSERT_EQUAL(ports, 128);
	CU_ASSERT_EQUAL(fibres, 64 * 96);
	CU_ASSERT_EQUAL(fibres, 48 * 128);
	/* every torus link is inside a cube or one circuit (two fibres) through an OCS */
	CU_ASSERT_EQUAL(electrical + fibres / 2, 4096 * 3);
	/* a slab of 4 x 4 x 2 on 8 x 8 x 8: faces of 8, 8 and 16 links, 16 blocks */
	torus_layout_ocs_counts((int[3]){8, 8, 8}, (int[3]){4, 4, 2}, 3, &ocs, &ports, &fibres, &electrical);
	CU_ASSERT_EQUAL(ocs, 8 + 8 + 16);
	CU_ASSERT_EQUAL(ports, 32);
	CU_ASSERT_EQUAL(fibres, 2 * 16 * 32);
	CU_ASSERT_EQUAL(electrical, 16 * (3 * 8 + 3 * 8 + 1 * 16));
	CU_ASSERT_EQUAL(electrical + fibres / 2, 512 * 3);
	/* 2D: 4 x 4 blocks on 8 x 12 */
	torus_layout_ocs_counts((int[3]){8, 12, 1}, (int[3]){4, 4, 1}, 2, &ocs, &ports, &fibres, &electrical);
	CU_ASSERT_EQUAL(ocs, 8);
	CU_ASSERT_EQUAL(electrical + fibres / 2, 96 * 2);
}

/* An OCS of 20 ports, 4 spare: 8 blocks of 24 (2 x 3 x 4) need 16 on each; a rack holds one
 * block of 24 t6 (48 U). */
static const char *OCS20 = "ocs o { ports = 20; spare_ports = 4; power = 100 W; height = 2 U; "
			   "price = 10_000 USD }";

static void test_torus_ocs(void)
{
	Built *b = build_fabric(OCS20, "topology = torus(dims = [4, 6, 8], block = [2, 3, 4]); switch = o",
				count_of(192, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const FabricInst *f = &d->fabrics[0];
	CU_ASSERT_EQUAL(f->blocks, 8);
	CU_ASSERT_EQUAL(f->by_tier[ST_OCS], 3 * 4 + 2 * 4 + 2 * 3);
	CU_ASSERT_EQUAL(wired_switches(d, 0, ST_OCS), 26);
	CU_ASSERT_EQUAL(wired_links(d, 0, LT_OCS), 2 * 8 * 26);
	CU_ASSERT_EQUAL(wired_links(d, 0, LT_TORUS), 8 * (1 * 12 + 2 * 8 + 3 * 6));
	CU_ASSERT_EQUAL(wired_links(d, 0, LT_TORUS) + wired_links(d, 0, LT_OCS) / 2, 192 * 3);
	for (int i = 0; i < d->nswitches; i++)
		CU_ASSERT_EQUAL(d->switches[i].used, 16);
	/* Each OCS's port 2b is block b's + face, 2b + 1 its − face; a fibre's chip and block agree. */
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->tier != LT_OCS)
			continue;
		CU_ASSERT_EQUAL(l->a.kind, END_NODE);
		CU_ASSERT_EQUAL(l->z.kind, END_SWITCH);
		CU_ASSERT_EQUAL(f->node_block[l->a.dev], l->z.port / 2);
	}
	/* One rack per block, the OCSes in racks of their own; every cable to an OCS a fibre with
	 * one transceiver (at the chip). */
	for (int n = 0; n < d->nnodes; n++) {
		CU_ASSERT_EQUAL(f->node_block[n], n / 24);
		CU_ASSERT_EQUAL(d->nodes[n].rack, d->nodes[n / 24 * 24].rack);
		CU_ASSERT_TRUE(n < 24 || d->nodes[n].rack != d->nodes[n - 24].rack);
	}
	for (int i = 0; i < d->nswitches; i++)
		CU_ASSERT_TRUE(d->racks[d->switches[i].rack].network);
	CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
	CU_ASSERT_EQUAL(f->diameter, 2 + 3 + 4);
	done(b);

	/* 14 usable ports for 8 blocks of 2 faces: too few, with the largest count that fits. */
	b = build_fabric("ocs o { ports = 18; spare_ports = 4; power = 100 W; price = 1 USD }",
			 "topology = torus(dims = [4, 6, 8], block = [2, 3, 4]); switch = o",
			 count_of(192, "t6"));
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_TRUE(violation_says(b, "all 8 blocks", "16 ports", "has 14 to wire",
				      "at most 7 blocks", NULL));
	done(b);

	/* An OCS without blocks, a block that does not tile, racks that do not hold a block. */
	b = build_fabric(OCS20, "topology = torus(dims = [4, 6, 8]); switch = o", count_of(192, "t6"));
	CU_ASSERT_TRUE(violation_says(b, "joins the faces", "set torus(block = [...])", NULL));
	done(b);
	b = build_fabric(OCS20, "topology = torus(dims = [4, 6, 8], block = [3, 3, 4]); switch = o",
			 count_of(192, "t6"));
	CU_ASSERT_TRUE(violation_says(b, "block of 3 does not divide", NULL));
	done(b);
	/* A block of 16 nodes, cabled directly: the racks hold 16 (one block each), though 24
	 * would fit. */
	b = build_fabric(QM, "topology = torus(dims = [4, 6, 8], block = [2, 2, 4]); switch = qm",
			 count_of(192, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 16);
	CU_ASSERT_EQUAL(b->d.groups[0].racks, 12);
	done(b);
	/* A block larger than a rack holds. */
	b = build_fabric(OCS20, "topology = torus(dims = [4, 6, 8], block = [4, 6, 4]); switch = o",
			 count_of(192, "t6"));
	CU_ASSERT_TRUE(violation_says(b, "96 't6' nodes in a rack need 192 U", NULL));
	done(b);
	/* An OCS forwards no packets: not the switch of a fat tree. */
	b = build_fabric(OCS20, "topology = fat_tree(); switch = o", count_of(16, "n1"));
	CU_ASSERT_TRUE(violation_says(b, "optical circuit switch", "needs a packet switch", NULL));
	done(b);
}

/* The twisted torus of TPU v4 (4 x 4 x 8): the wiring's BFS diameter is the one sized, and
 * less than the plain torus's 2 + 2 + 4. */
static void test_torus_twisted(void)
{
	Built *b = build_fabric(QM, "topology = torus(dims = [4, 4, 8], twisted = true); switch = qm",
				count_of(128, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_TRUE(b->d.fabrics[0].twisted);
	CU_ASSERT_TRUE(b->d.fabrics[0].diameter < 8);
	CU_ASSERT_EQUAL(b->d.fabrics[0].links, 128 * 3);
	CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
	check_metrics(b, false);
	done(b);
	/* 2D, k x 2k: the twisted torus's diameter is k (Camarero et al., IEEE TPDS 2015). */
	b = build_fabric(QM, "topology = torus(dims = [4, 8], twisted = true); switch = qm",
			 count_of(32, "t6"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].diameter, 4);
	check_metrics(b, false);
	done(b);
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 6], twisted = true); switch = qm",
			 count_of(96, "t6"));
	CU_ASSERT_TRUE(violation_says(b, "two sizes, n and 2n", NULL));
	done(b);
}

/* Chips inside a node: per_node positions, each with 6 ports of its own; the links between a
 * node's own positions are board traces without a cable. */
static void test_torus_per_node(void)
{
	char sw[256];
	snprintf(sw, sizeof sw, "%s\nnode t12 { accelerators = 2 x g; nics = 2 x ici; power = 1 kW; "
				"height = 1 U; price = 1 USD }",
		 QM);
	Built *b = build_fabric(sw, "topology = torus(dims = [4, 4, 4], per_node = 2); switch = qm",
				count_of(32, "t12"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->links, 64 * 3);
	CU_ASSERT_EQUAL(f->board_links, 32);
	CU_ASSERT_EQUAL(f->endpoints, 64);
	int inside = 0;
	for (int i = 0; i < b->d.nlinks; i++)
		inside += b->d.links[i].a.dev == b->d.links[i].z.dev;
	CU_ASSERT_EQUAL(inside, 32);
	CU_ASSERT_EQUAL(b->d.ncables, 64 * 3 - 32);
	CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
	done(b);
	/* Hosts of 2 x 2 chips (TPU v4's v4-8): 4 board links each, and still every port wired. */
	char sw4[256];
	snprintf(sw4, sizeof sw4, "%s\nnode t24 { accelerators = 4 x g; nics = 4 x ici; power = 1 kW; "
				  "height = 1 U; price = 1 USD }",
		 QM);
	Built *b4 = build_fabric(sw4, "topology = torus(dims = [4, 4, 4], per_node = 4, "
				      "node_shape = [2, 2, 1]); switch = qm",
				 count_of(16, "t24"));
	CU_ASSERT_EQUAL_FATAL(b4->errors, 0);
	CU_ASSERT_EQUAL(b4->d.fabrics[0].board_links, 16 * 4);
	int inside4 = 0;
	for (int i = 0; i < b4->d.nlinks; i++)
		inside4 += b4->d.links[i].a.dev == b4->d.links[i].z.dev;
	CU_ASSERT_EQUAL(inside4, 64);
	CU_ASSERT_EQUAL(b4->d.ncables, 192 - 64);
	CU_ASSERT_EQUAL(verify_fabrics(&b4->d), 0);
	done(b4);
	b4 = build_fabric(sw4, "topology = torus(dims = [4, 4, 4], per_node = 4, node_shape = [2, 2]); "
			       "switch = qm",
			  count_of(16, "t24"));
	CU_ASSERT_TRUE(violation_says(b4, "node_shape gives one size per dimension", NULL));
	done(b4);
	b4 = build_fabric(sw4, "topology = torus(dims = [6, 4, 4], block = [3, 4, 4], per_node = 4, "
			       "node_shape = [2, 2, 1]); switch = qm",
			  count_of(24, "t24"));
	CU_ASSERT_TRUE(violation_says(b4, "span 2 in dimension 1", "block's 3", NULL));
	done(b4);
	/* The same nodes without per_node would be wired as one chip: said, not done. */
	b = build_fabric(sw, "topology = torus(dims = [4, 4, 2]); switch = qm", count_of(32, "t12"));
	CU_ASSERT_TRUE(violation_says(b, "2 accelerators and 12", "per_node = 2", NULL));
	done(b);
	/* per_node = 2 on 6-port nodes: too few ports. */
	b = build_fabric(QM, "topology = torus(dims = [4, 4, 4], per_node = 2); switch = qm",
			 count_of(32, "t6"));
	CU_ASSERT_TRUE(violation_says(b, "needs 12 ports", NULL));
	done(b);
}

/* ---- scale-up domains --------------------------------------------------------------------- */

/* GB200 NVL72 trays of std.servers: 18 trays and 9 NVLink switch trays per 72-GPU domain,
 * 9 x 144 ports over 72 GPUs = 18 links per GPU. */
static void test_scale_up(void)
{
	Built *b = build("import std.servers\n"
			 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			 "cluster c { site = s; nodes = 36 x gb200_nvl72_tray; rack = gb200_nvl72_rack }\n",
			 NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->nscaleups, 1);
	const ScaleUpInst *s = &d->scaleups[0];
	CU_ASSERT_EQUAL(s->domains, 2);
	CU_ASSERT_EQUAL(s->domain_nodes, 18);
	CU_ASSERT_EQUAL(s->domain_accels, 72);
	CU_ASSERT_EQUAL(s->switches_per_domain, 9);
	CU_ASSERT_EQUAL(s->links_per_accel, 18);
	CU_ASSERT_EQUAL(s->nswitches, 18);
	CU_ASSERT_EQUAL(s->nlinks, 2 * 72 * 18);
	CU_ASSERT_EQUAL(wired_switches(d, -1, ST_SCALE_UP), 18);
	CU_ASSERT_STRING_EQUAL(d->switches[s->first_switch].name, "gb200_nvl72_tray-nvl001-sw1");
	CU_ASSERT_STRING_EQUAL(d->switches[s->first_switch + 17].name, "gb200_nvl72_tray-nvl002-sw9");
	for (int i = s->first_switch; i < s->first_switch + s->nswitches; i++) {
		CU_ASSERT_EQUAL(d->switches[i].radix, 144);
		CU_ASSERT_EQUAL(d->switches[i].used, 144);
		CU_ASSERT_EQUAL(d->switches[i].group, (i - s->first_switch) / 9);
	}
	done(b);
}

/* A node type derived from an NVL72 tray whose domain is the tray itself keeps the switch trays
 * it inherits in its declaration, but its domains have none: sizing counts none and wiring
 * makes none (it wrote 9 a domain past the switches sized). */
static void test_scale_up_without_trays(void)
{
	Built *b = build("import std.servers\n"
			 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			 "node solo : gb200_nvl72_tray { scale_up_domain = 4 }\n"
			 "cluster c { site = s; nodes = [36 x gb200_nvl72_tray, 40 x solo]; "
			 "rack = gb200_nvl72_rack }\n",
			 NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->nscaleups, 2);
	CU_ASSERT_EQUAL(d->scaleups[0].nswitches, 18);
	CU_ASSERT_EQUAL(d->scaleups[1].domains, 40);
	CU_ASSERT_EQUAL(d->scaleups[1].domain_nodes, 1);
	CU_ASSERT_EQUAL(d->scaleups[1].nswitches, 0);
	CU_ASSERT_EQUAL(wired_switches(d, -1, ST_SCALE_UP), 18);
	CU_ASSERT_EQUAL(d->nswitches, 18);
	done(b);
}

/* Two CloudMatrix384 supernodes (std.servers' CM384_NODE: 48 nodes in 12 racks, 112 UB
 * switches of 48 ports in 4 racks of their own, Zuo et al., arXiv 2506.12708, 2025): each
 * domain's 16 racks side by side, its switch racks after its first 6 node racks, 112 links
 * per node (14 per NPU), every one between racks and wired from an accelerator of the domain
 * to a switch of the domain. */
static void test_scale_up_over_racks(void)
{
	Built *b = build("import std.servers\nimport std.racks\n"
			 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh; "
			 "floor = grid(rows = 2, racks_per_row = 20) }\n"
			 "cluster c { site = s; nodes = 96 x CM384_NODE; rack = rack48_liquid }\n",
			 NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->nscaleups, 1);
	const ScaleUpInst *s = &d->scaleups[0];
	CU_ASSERT_EQUAL(s->domains, 2);
	CU_ASSERT_EQUAL(s->domain_accels, 384);
	CU_ASSERT_EQUAL(s->node_racks, 12);
	CU_ASSERT_EQUAL(s->switch_racks, 4);
	CU_ASSERT_EQUAL(s->links_per_accel, 14);
	CU_ASSERT_EQUAL(s->nlinks, 2 * 5376);
	CU_ASSERT_EQUAL(s->cables, 2 * 5376);
	CU_ASSERT_EQUAL(d->nracks, 32);
	/* 16 racks a domain: the second starts the second row (16 + 16 > 20). */
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		int dom = i / 16, slot = i % 16;
		CU_ASSERT_EQUAL(r->row, dom);
		CU_ASSERT_EQUAL(r->pos, slot);
		CU_ASSERT_EQUAL(r->domain, dom);
		CU_ASSERT_EQUAL(r->scale_up_switches, slot >= 6 && slot < 10);
		CU_ASSERT_EQUAL(r->nnodes, r->scale_up_switches ? 0 : 4);
	}
	int per_rack[32] = {0};
	for (int i = s->first_switch; i < s->first_switch + s->nswitches; i++) {
		const SwitchInst *t = &d->switches[i];
		CU_ASSERT_FATAL(t->rack >= 0 && t->rack < 32);
		CU_ASSERT(d->racks[t->rack].scale_up_switches);
		CU_ASSERT_EQUAL(d->racks[t->rack].domain, t->group);
		per_rack[t->rack]++;
	}
	for (int i = 0; i < 32; i++)
		CU_ASSERT_EQUAL(per_rack[i], d->racks[i].scale_up_switches ? 28 : 0);
	int per_node[96] = {0};
	for (int i = s->first_link; i < s->first_link + s->cables; i++) {
		const LinkInst *l = &d->links[i];
		CU_ASSERT_EQUAL_FATAL(l->a.kind, END_ACCEL);
		int n = d->accels[l->a.dev].node;
		per_node[n]++;
		CU_ASSERT_EQUAL(d->switches[l->z.dev].group, n / 48);
		CU_ASSERT_NOT_EQUAL(d->switches[l->z.dev].rack, d->nodes[n].rack);
		CU_ASSERT_DOUBLE_EQUAL(l->speed, 224e9, 1);
	}
	for (int n = 0; n < 96; n++)
		CU_ASSERT_EQUAL(per_node[n], 112);
	CU_ASSERT_EQUAL(d->ncables, 2 * 5376);
	CU_ASSERT_EQUAL(verify_fabrics(&b->d), 0);
	done(b);
}

/* A node type in two groups: one series of domain names over both, in node order, and its
 * switch trays named after their domain (each group numbered its trays from nvl001). */
static void test_scale_up_names(void)
{
	Built *b = build("import std.servers\n"
			 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			 "node solo : gb200_nvl72_tray { scale_up_domain = 4 }\n"
			 "cluster c { site = s; nodes = [36 x gb200_nvl72_tray, 2 x solo, "
			 "18 x gb200_nvl72_tray]; rack = gb200_nvl72_rack }\n",
			 NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->ndomains, 5);
	const char *want[] = {"gb200_nvl72_tray-nvl001", "gb200_nvl72_tray-nvl002", "solo-nvl001",
			      "solo-nvl002", "gb200_nvl72_tray-nvl003"};
	for (int i = 0; i < 5; i++)
		CU_ASSERT_STRING_EQUAL(d->domain_names[i], want[i]);
	CU_ASSERT_EQUAL(d->nodes[37].domain, 3);
	CU_ASSERT_EQUAL(d->nodes[38].domain, 4);
	CU_ASSERT_EQUAL_FATAL(d->nscaleups, 3);
	const ScaleUpInst *s = &d->scaleups[2];
	CU_ASSERT_EQUAL(s->group, 2);
	CU_ASSERT_EQUAL_FATAL(s->nswitches, 9);
	CU_ASSERT_STRING_EQUAL(d->switches[s->first_switch].name, "gb200_nvl72_tray-nvl003-sw1");
	/* Trays stand in their domain's rack. */
	CU_ASSERT_EQUAL(d->switches[s->first_switch].rack, d->nodes[38].rack);
	for (int i = 0; i < d->nswitches; i++)
		for (int j = i + 1; j < d->nswitches; j++)
			CU_ASSERT_NOT_EQUAL(strcmp(d->switches[i].name, d->switches[j].name), 0);
	done(b);
}

/* Cores per group (docs/fabrics.md §2): the fewest whose ports take every pod spine's up
 * links. 5,000 single-port nodes on 64-port switches at 1:1: 157 leaves, 5 pods of 32, 32 up
 * links per pod spine; 3 cores a group take 5 · ⌈32/3⌉ = 55 links each at most (the divisor
 * rule took 4, 40 each). Wired, verified, and the metrics recomputed from the links. */
static void test_core_groups(void)
{
	Built *b = build_fabric(k_switch(64), "topology = fat_tree(tiers = 3); switch = sw",
				count_of(5000, "n1"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->pods, 5);
	CU_ASSERT_EQUAL(f->core_per_group, 3);
	CU_ASSERT_EQUAL(f->by_tier[ST_CORE], 32 * 3);
	CU_ASSERT_EQUAL(f->links_by_tier[LT_SPINE_CORE], 5 * 32 * 32);
	CU_ASSERT_EQUAL(f->tier_used[2], 55);
	int most = 0, least = 1 << 30;
	for (int i = f->first_switch; i < f->first_switch + f->switches; i++) {
		const SwitchInst *s = &b->d.switches[i];
		if (s->tier != ST_CORE)
			continue;
		CU_ASSERT_TRUE(s->used <= s->radix);
		most = s->used > most ? s->used : most;
		least = s->used < least ? s->used : least;
	}
	CU_ASSERT_EQUAL(most, 55);  /* 11 links from each of 5 pods */
	CU_ASSERT_EQUAL(least, 50); /* 10 from each */
	check_metrics(b, true);
	done(b);
}

/* Per-tier hardware: 32-port leaves under 64-port spines. One model would hold 32 leaves in 2
 * tiers; 64-port spines hold 64 leaves of 16 down ports: 1,024 endpoints, 16 spines of 64
 * ports used, each switch its tier's model and radix. */
static void test_per_tier(void)
{
	const char *sw = "switch sw { ports = 32; port_speed = 400 Gbps; power = 100 W; price = 1000 USD }\n"
			 "switch big { ports = 64; port_speed = 400 Gbps; power = 300 W; price = 5000 USD }";
	Built *b = build_fabric(sw, "topology = fat_tree(); switch = sw; spine_switch = big",
				count_of(1024, "n1"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->tiers, 2);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 64);
	CU_ASSERT_EQUAL(f->by_tier[ST_SPINE], 16);
	CU_ASSERT_EQUAL(f->tier_used[0], 32);
	CU_ASSERT_EQUAL(f->tier_used[1], 64);
	CU_ASSERT_TRUE(f->per_tier);
	for (int i = f->first_switch; i < f->first_switch + f->switches; i++) {
		const SwitchInst *s = &b->d.switches[i];
		CU_ASSERT_STRING_EQUAL(s->model->name, s->tier == ST_LEAF ? "sw" : "big");
		CU_ASSERT_EQUAL(s->radix, s->tier == ST_LEAF ? 32 : 64);
	}
	check_metrics(b, true);
	done(b);

	/* The same with the single model: three tiers (one switch model cannot hold 64 leaves in
	 * two). */
	b = build_fabric(sw, "topology = fat_tree(); switch = sw", count_of(1024, "n1"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.fabrics[0].tiers, 3);
	CU_ASSERT_FALSE(b->d.fabrics[0].per_tier);
	done(b);

	/* Leaf-spine links at 800G on 800G spines, 400G to the nodes on 800G leaves split 2 ways:
	 * the leaf's 64 physical ports split 1:1 by bandwidth, 32 x 2 x 400G down, 32 x 800G up. */
	b = build_fabric(SN, "topology = fat_tree(tiers = 2); switch = sn; spine_link = 800 Gbps",
			 count_of(128, "n1"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->down[0], 64);
	CU_ASSERT_EQUAL(f->up[0], 32);
	CU_ASSERT_DOUBLE_EQUAL(f->oversub[0], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f->up_per_endpoint[0], 400e9, 1);
	/* Ports as the artifacts name them: down port 63 is physical port 31 lane 1 of 2; up port
	 * 64 (the first) physical port 32, unsplit; the last, 95, physical port 63. */
	const SwitchInst *leaf = &b->d.switches[f->first_switch];
	int phys, lane, ways;
	ir_switch_port(leaf, 63, &phys, &lane, &ways);
	CU_ASSERT(phys == 31 && lane == 1 && ways == 2);
	ir_switch_port(leaf, 64, &phys, &lane, &ways);
	CU_ASSERT(phys == 32 && lane == 0 && ways == 1);
	ir_switch_port(leaf, 95, &phys, &lane, &ways);
	CU_ASSERT(phys == 63 && lane == 0 && ways == 1);
	check_metrics(b, true);
	done(b);
}

/* Explicit pods: pod_gpus = 128 on 8-GPU nodes under 64-port leaves at 1:1 (32 down, 4 nodes,
 * 32 GPUs a leaf) is pod_leaves = 4: the same tree, 4 pod spines a pod with 4 down links and
 * 4 up; a pod of 100 GPUs is no whole number of leaves. */
static void test_pods(void)
{
	/* unit_build holds one build at a time: the first's counts are kept, then compared. */
	Built *b = build_fabric(k_switch(64), "topology = fat_tree(); switch = sw; pod_leaves = 4",
				count_of(64, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	int by_tier[ST_COUNT], links = b->d.fabrics[0].links;
	memcpy(by_tier, b->d.fabrics[0].by_tier, sizeof by_tier);
	done(b);
	b = build_fabric(k_switch(64), "topology = fat_tree(); switch = sw; pod_gpus = 128",
			 count_of(64, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_EQUAL(f->tiers, 3);
	CU_ASSERT_EQUAL(f->pods, 4);
	CU_ASSERT_EQUAL(f->pod_leaves, 4);
	CU_ASSERT_EQUAL(f->pod_endpoints, 128);
	CU_ASSERT_EQUAL(f->down[1], 4);
	CU_ASSERT_EQUAL(f->up[1], 4);
	for (int t = 0; t < ST_COUNT; t++)
		CU_ASSERT_EQUAL(f->by_tier[t], by_tier[t]);
	CU_ASSERT_EQUAL(f->links, links);
	check_metrics(b, true);
	done(b);
	b = build_fabric(k_switch(64), "topology = fat_tree(); switch = sw; pod_gpus = 100",
			 count_of(64, "n8"));
	CU_ASSERT_FALSE(b->d.fabrics[0].sized);
	CU_ASSERT_TRUE(violation_says(b, "100 accelerators", "pod_gpus = 96 or 128", NULL));
	done(b);
}

/* ToRs in the server racks: 5 nodes of 8 rails a 48 U rack (its ToR takes 1 U: 47 / 8 = 5),
 * 40 down and 40 up links on 128-port ToRs; each node cabled to the ToR of its rack, which
 * stands above its nodes. Two racks a ToR need 160 ports: a violation naming racks_per_leaf. */
static void test_tor(void)
{
	Built *b = build_fabric(k_switch(128),
				"topology = fat_tree(tiers = 2); switch = sw; leaf_placement = server_rack",
				count_of(20, "n8"));
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const FabricInst *f = &b->d.fabrics[0];
	CU_ASSERT_TRUE(f->tor);
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 5);
	CU_ASSERT_EQUAL(f->by_tier[ST_LEAF], 4);
	CU_ASSERT_EQUAL(f->down[0], 40);
	CU_ASSERT_EQUAL(f->up[0], 40);
	for (int l = 0; l < b->d.nlinks; l++) {
		const LinkInst *k = &b->d.links[l];
		if (k->tier != LT_NODE_LEAF)
			continue;
		const SwitchInst *s = &b->d.switches[k->z.dev];
		CU_ASSERT_EQUAL(s->rack, b->d.nodes[k->a.dev].rack);
		CU_ASSERT_EQUAL(s->u, 41); /* above 5 nodes of 8 U */
	}
	for (int r = 0; r < b->d.nracks; r++)
		CU_ASSERT_FALSE(b->d.racks[r].network && b->d.racks[r].first_node >= 0 &&
				b->d.racks[r].nnodes > 0);
	check_metrics(b, true);
	done(b);

	b = build_fabric(k_switch(128),
			 "topology = fat_tree(tiers = 2); switch = sw; leaf_placement = server_rack; "
			 "racks_per_leaf = 2",
			 count_of(20, "n8"));
	CU_ASSERT_FALSE(b->d.fabrics[0].sized);
	CU_ASSERT_TRUE(violation_says(b, "a ToR for 2 racks of 5 nodes", "160 ports", "racks_per_leaf = 1", NULL));
	done(b);
}

void suite_fabric(void)
{
	CU_pSuite s = CU_add_suite("fabric", NULL, NULL);
	CU_add_test(s, "DGX H100 SuperPOD", test_superpod);
	CU_add_test(s, "closed forms", test_closed_forms);
	CU_add_test(s, "oversubscription", test_oversubscription);
	CU_add_test(s, "limits", test_limits);
	CU_add_test(s, "breakout", test_breakout);
	CU_add_test(s, "planes", test_planes);
	CU_add_test(s, "planes by port", test_planes_by_port);
	CU_add_test(s, "dragonfly", test_dragonfly);
	CU_add_test(s, "torus", test_torus);
	CU_add_test(s, "torus of 2", test_torus_of_two);
	CU_add_test(s, "torus: OCS closed form (TPU v4)", test_torus_ocs_closed_form);
	CU_add_test(s, "torus: blocks through OCSes", test_torus_ocs);
	CU_add_test(s, "torus: twisted", test_torus_twisted);
	CU_add_test(s, "torus: positions per node", test_torus_per_node);
	CU_add_test(s, "nodes off the fabric", test_nodes_off_fabric);
	CU_add_test(s, "extra endpoints", test_extra_endpoints);
	CU_add_test(s, "extra endpoints over planes", test_extras_over_planes);
	CU_add_test(s, "suggestions", test_suggestions);
	CU_add_test(s, "verifier", test_verifier);
	CU_add_test(s, "verifier, with the memo", test_verifier_memo);
	CU_add_test(s, "metrics", test_metrics);
	CU_add_test(s, "core groups", test_core_groups);
	CU_add_test(s, "per-tier hardware", test_per_tier);
	CU_add_test(s, "ToRs in server racks", test_tor);
	CU_add_test(s, "explicit pods", test_pods);
	CU_add_test(s, "scale-up domains", test_scale_up);
	CU_add_test(s, "scale-up domains without trays", test_scale_up_without_trays);
	CU_add_test(s, "scale-up domain names", test_scale_up_names);
	CU_add_test(s, "scale-up domains over racks", test_scale_up_over_racks);
}
