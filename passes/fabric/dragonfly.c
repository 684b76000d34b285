/*
 * dragonfly.c — the dragonfly family (Kim, Dally, Scott, Abts, "Technology-Driven,
 * Highly-Scalable Dragonfly Topology", ISCA 2008).
 *
 * Sizing: groups of a routers, p terminals and h global links per router, a full mesh inside a
 * group, g ≤ a·h + 1 groups; every pair of groups joined by m = ⌊a·h/(g−1)⌋ global links.
 *
 * Wiring: router i of group x is router x·a + i. Its ports: p terminals first, then a−1 local
 * ports (to the other routers of the group, in index order), then h global ports. Terminal e
 * goes to router e / p, port e mod p. Global links use the "consecutive" arrangement (Camarero,
 * Vallejo, Beivide, ACM TACO 2014): a group's global ports are numbered q = i·h + t; the peer at
 * offset o = (y − x) mod g owns ports (o−1)·m … o·m−1 of group x, and link t of the pair joins
 * port (o−1)·m + t of x with port (g−o−1)·m + t of y, m global links per pair of groups.
 *
 * Network racks: the routers of one group together, among the nodes they serve.
 */
#include "fabric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest balanced dragonfly router (a = 2p = 2h, 4p − 1 ports) a radix allows, when it
 * holds e terminals: "p = 12, a = 24, h = 12 (47 ports)"; or NULL. */
static const char *balanced_router(Design *d, int radix, int e)
{
	int p = (radix + 1) / 4;
	long a = 2L * p, terminals = (a * p + 1) * a * p;
	if (p < 1 || terminals < e)
		return NULL;
	return arena_printf(d->c->arena, "a smaller router such as p = %d, a = %ld, h = %d "
					    "(%ld ports, %ld terminals)",
			    p, a, p, 4L * p - 1, terminals);
}

bool dragonfly_size(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	Loc at = topo->loc;
	/* As written (the counts below are clamped, see shape_count()). */
	double a_w = shape_param(topo, PRM_DRAGONFLY_A, 0);
	double half = floor(a_w / 2) > 0 ? floor(a_w / 2) : 1; /* the documented a / 2 */
	double p_w = shape_param(topo, PRM_DRAGONFLY_P, half), h_w = shape_param(topo, PRM_DRAGONFLY_H, half);
	double need = p_w + (a_w - 1) + h_w;
	int rpp = f->rails / f->planes;
	int e = nodes * rpp + (extra_ports + f->planes - 1) / f->planes;
	if (need > f->radix) {
		const char *smaller = shape_suggesting(d, f) ? balanced_router(d, f->radix, e) : NULL;
		design_violation(d, at, need / f->radix - 1, f->decl->name_loc, NULL,
				 "a dragonfly router with p = %.0f, a = %.0f, h = %.0f needs %.0f ports "
				 "(p + a - 1 + h); '%s' has %d at %s: use a switch with %.0f ports or "
				 "more%s%s",
				 p_w, a_w, h_w, need, f->switch_model->name, f->radix,
				 shape_gbps(d, f->link_speed), need, smaller ? ", or " : "", smaller ? smaller : "");
		return false;
	}
	/* Now p + a - 1 + h <= FABRIC_RADIX_MAX: a·h and a·p fit an int. */
	int a = (int)a_w, p = (int)p_w, h = (int)h_w;
	int g_max = a * h + 1;
	int g_need = (e + p * a - 1) / (p * a);
	bool g_auto = field_param_is_auto(topo, PRM_DRAGONFLY_G);
	int g = g_auto ? g_need : shape_count(shape_param(topo, PRM_DRAGONFLY_G, 1));
	if (g < 1)
		g = 1;
	if (g > g_max || g_need > g_max) {
		/* The smallest h, or else a, whose a·h + 1 groups hold the endpoints (or the g asked);
		 * or more planes, when the endpoints are too many. */
		const char *planes = g_need > g_max ? shape_more_planes(d, f, topo, nodes, extra_ports) : NULL;
		int want = g > g_need ? g : g_need;
		int h2 = (want - 1 + a - 1) / a;
		int a2 = a + 1;
		while (((long)a2 * h + 1) * a2 * p < e || (!g_auto && (long)a2 * h + 1 < g))
			a2++;
		const char *fix = arena_printf(d->c->arena, "h = %d gives %d groups", h2, a * h2 + 1);
		if (p + a - 1 + h2 > f->radix)
			fix = arena_printf(d->c->arena, "h = %d would need %d router ports", h2,
					   p + a - 1 + h2);
		const char *fix_a = arena_printf(d->c->arena, "a = %d gives %d groups of %d terminals",
						 a2, a2 * h + 1, a2 * p);
		if (p + a2 - 1 + h > f->radix)
			fix_a = arena_printf(d->c->arena, "a = %d would need %d router ports", a2,
					     p + a2 - 1 + h);
		design_violation(d, at, (double)want / g_max - 1, f->decl->name_loc, NULL,
				 "a dragonfly with p = %d, a = %d, h = %d connects at most %d groups "
				 "(a x h + 1) of %d terminals, %ld in all; '%s' %s %d %s: raise a or h "
				 "(%s; %s)%s%s",
				 p, a, h, g_max, p * a, (long)g_max * p * a, f->decl->name,
				 g > g_need ? "asks for" : "has", g > g_need ? g : e,
				 g > g_need ? "groups" : "endpoints per plane", fix, fix_a,
				 planes ? ", or use " : "", planes ? planes : "");
		return false;
	}
	if (g < g_need) {
		design_violation(d, at, (double)e / ((double)g * p * a) - 1, f->decl->name_loc, NULL,
				 "%d dragonfly groups of %d terminals (p = %d, a = %d) hold %ld; '%s' has "
				 "%d endpoints per plane: raise g to %d",
				 g, p * a, p, a, (long)g * p * a, f->decl->name, e, g_need);
		return false;
	}
	long pairs_links = g > 1 ? (long)(a * h / (g - 1)) * g * (g - 1) / 2 : 0;
	if (!shape_wirable(d, f, at, (double)g * a * (a - 1) / 2 + (double)pairs_links + e))
		return false;
	f->df_p = p, f->df_a = a, f->df_h = h, f->df_g = g;
	f->df_links_per_pair = g > 1 ? a * h / (g - 1) : 0;
	f->shape[0] = (ShapeParam){"p", p};
	f->shape[1] = (ShapeParam){"a", a};
	f->shape[2] = (ShapeParam){"h", h};
	f->shape[3] = (ShapeParam){"g", g};
	f->shape[4] = (ShapeParam){"links_per_group_pair", f->df_links_per_pair};
	f->nshape = 5;
	f->tiers = 1;
	f->endpoints = e * f->planes;
	f->per_plane[ST_ROUTER] = a * g;
	f->links_per_plane[LT_TERMINAL] = e;
	f->links_per_plane[LT_LOCAL] = g * a * (a - 1) / 2;
	f->links_per_plane[LT_GLOBAL] = f->df_links_per_pair * g * (g - 1) / 2;
	/* Router to router: local, global, local. A router of a single-router group holds all its
	 * group's global links (1 hop); with two groups every router has a link to the other
	 * group (2 hops); otherwise some router pair of different groups has neither (3 hops). */
	if (g == 1)
		f->diameter = a > 1 ? 1 : 0;
	else
		f->diameter = a == 1 ? 1 : g == 2 ? 2 : 3;
	f->ecmp = g > 1 ? f->df_links_per_pair : 1;
	/* Global links across a cut of the groups in halves. */
	f->bisection = (double)f->df_links_per_pair * (g / 2) * (g - g / 2) * f->link_speed * f->planes;
	if (g == 1)
		f->bisection = (double)(a / 2) * (a - a / 2) * f->link_speed * f->planes;
	return true;
}

void dragonfly_wire(Design *d, FabricInst *f, int fi)
{
	int p = f->df_p, a = f->df_a, h = f->df_h, g = f->df_g, m = f->df_links_per_pair;
	Endpoint *eps = xmalloc(sizeof(Endpoint) * (size_t)(f->endpoints / f->planes + 1));
	for (int pl = 0; pl < f->planes; pl++) {
		int r0 = d->nswitches;
		for (int r = 0; r < a * g; r++) {
			SwitchInst *s = wire_add_switch(d, f, fi, ST_ROUTER, pl, r);
			s->group = r / a;
		}
		int n = wire_plane_endpoints(d, f, pl, eps);
		for (int e = 0; e < n; e++)
			wire_add_link(d, eps[e].end, (End){END_SWITCH, r0 + e / p, e % p}, f->link_speed,
				 LT_TERMINAL, pl, -1, fi);
		/* Local: a full mesh in each group. */
		for (int x = 0; x < g; x++)
			for (int i = 0; i < a; i++)
				for (int j = i + 1; j < a; j++)
					wire_add_link(d, (End){END_SWITCH, r0 + x * a + i, p + j - 1},
						 (End){END_SWITCH, r0 + x * a + j, p + i}, f->link_speed,
						 LT_LOCAL, pl, -1, fi);
		/* Global: m links between every pair of groups, consecutive arrangement. */
		for (int x = 0; x < g; x++)
			for (int y = x + 1; y < g; y++) {
				int ox = y - x, oy = g - ox;
				for (int t = 0; t < m; t++) {
					int qx = (ox - 1) * m + t, qy = (oy - 1) * m + t;
					wire_add_link(d, (End){END_SWITCH, r0 + x * a + qx / h, p + a - 1 + qx % h},
						 (End){END_SWITCH, r0 + y * a + qy / h, p + a - 1 + qy % h},
						 f->link_speed, LT_GLOBAL, pl, -1, fi);
				}
			}
	}
	free(eps);
}

int dragonfly_rack_groups(const FabricInst *f, int plane, int fit, RackGroupSpec *out)
{
	(void)fit;
	int n = 0, rpp = f->rails / f->planes, per_group = f->df_a * f->df_p;
	for (int x = 0; x < f->df_g; x++)
		out[n++] = (RackGroupSpec){x * f->df_a, f->df_a, false, x * per_group / rpp,
					   (x + 1) * per_group / rpp};
	if (plane == 0 && f->nextras)
		out[n++] = (RackGroupSpec){0, 0, true, 0, -1};
	return n;
}

void dragonfly_check(Ctx *c, const Value *topo)
{
	(void)c, (void)topo; /* the parameters' schema says all there is to check */
}

void dragonfly_describe(const FabricInst *f, Buf *b)
{
	buf_printf(b, "Dragonfly of %d group%s of %d routers (%d terminals and %d global links per "
		      "router, %d global links between each pair of groups)",
		   f->df_g, f->df_g == 1 ? "" : "s", f->df_a, f->df_p, f->df_h, f->df_links_per_pair);
}

void dragonfly_summary(const FabricInst *f, Buf *b)
{
	buf_puts(b, f->family->name);
}

/* The scheduler's tree (sched.c): the routers are the leaves (a node under the router of its
 * first port), one virtual switch per group above its routers, and one virtual top switch
 * above the groups, since every group reaches every other by its global links. Slurm's
 * documentation (topology.html, "Hierarchical Networks") describes dragonflies this way, with
 * TopologyParam=dragonfly. A block unit is a group. */
void dragonfly_sched(SchedTree *t, const Design *d, int fi, Arena *a)
{
	const FabricInst *f = &d->fabrics[fi];
	int *tree_of = xmalloc(sizeof(int) * (size_t)(d->nswitches + 1));
	int routers = 0;
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *w = &d->switches[s];
		bool router = w->plane == 0 && w->tier == ST_ROUTER;
		tree_of[s] = router ? sched_add_switch(t, a, w->name, 0, false) : -1;
		routers += tree_of[s] >= 0;
	}
	int g0 = t->nsw, width = wire_name_width(f->df_g);
	t->nunit = f->df_g;
	t->unit_name = arena_alloc(a, sizeof(char *) * (size_t)(f->df_g + 1));
	for (int g = 0; g < f->df_g; g++) {
		const char *name = arena_printf(a, "%s-group-%0*d", f->name, width, g + 1);
		sched_add_switch(t, a, name, 1, true);
		t->unit_name[g] = name;
	}
	t->unit_word = "dragonfly group";
	int top = sched_add_switch(t, a, arena_printf(a, "%s-global", f->name), 2, true);
	int *sw_of = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	sched_first_ports(d, fi, LT_TERMINAL, sw_of);
	for (int n = 0; n < d->nnodes; n++)
		if (sw_of[n] >= 0) {
			t->leaf[n] = tree_of[sw_of[n]];
			t->unit[n] = d->switches[sw_of[n]].group;
		}
	free(sw_of);
	SchedPair *p = xmalloc(sizeof(SchedPair) * (size_t)(routers + f->df_g + 1));
	int np = 0;
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++)
		if (tree_of[s] >= 0)
			p[np++] = (SchedPair){g0 + d->switches[s].group, tree_of[s]};
	for (int g = 0; g < f->df_g; g++)
		p[np++] = (SchedPair){top, g0 + g};
	sched_link(t, a, p, np);
	free(p);
	free(tree_of);
	t->explain = arena_printf(
		a,
		"# Fabric %s: dragonfly of %d groups of %d routers. The routers are the leaf "
		"switches,\n"
		"# a node under the router of its first port; %s-group-NNN are virtual switches, one "
		"per\n"
		"# group above its routers, and %s-global a virtual top switch above the groups "
		"(global\n"
		"# links join every pair of groups). Set TopologyParam=dragonfly in slurm.conf "
		"(Slurm's\n# topology guide, https://slurm.schedmd.com/topology.html).\n",
		f->name, f->df_g, f->df_a, f->name, f->name);
}

/* A dragonfly asks nothing of how many nodes a rack holds. */
int dragonfly_rack_nodes(const Value *topo)
{
	(void)topo;
	return 0;
}
