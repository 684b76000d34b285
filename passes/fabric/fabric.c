/*
 * fabric.c — sizing the network fabrics: how many switches of each tier, how many links, which
 * shape, and the metrics that follow from the shape. Port-level wiring is wire.c's; this file
 * only counts, so it runs for every candidate design the choice search explores.
 *
 * Fat tree / folded Clos (docs/fabrics.md; Leiserson 1985, Al-Fares et al., SIGCOMM 2008):
 * switches of radix k (ports at the link speed, breakout counted); a leaf splits its ports into
 * `down` for endpoints and `up` by the leaf oversubscription d:u (down = ⌊k·d/(d+u)⌋ when that
 * comes within 1 % of d:u, else the exact split leaving the fewest ports idle: 2:1 on 64
 * ports is 42:21). In a
 * 2-tier tree every leaf spreads its up links evenly over S spines, S the smallest divisor of
 * `up` with S ≥ ⌈leaves·up/k⌉; at most k leaves, so k²/2 endpoints at 1:1. In a 3-tier tree a
 * pod is `down₂` leaves (whole scalable units when rail-optimized) under `up` pod spines, one
 * link from each leaf to each; pod spine j of every pod connects to core group j of C switches,
 * C the smallest divisor of up₂ with C ≥ ⌈pods·up₂/k⌉: k³/4 endpoints and 5k²/4 switches at
 * full size. Rail-optimized trees (NVIDIA DGX SuperPOD reference architecture) give every
 * scalable unit one leaf per rail: NIC r of every node of the unit goes to leaf r. Multi-plane
 * fabrics split a node's NIC ports over independent planes, each its own tree.
 *
 * Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): groups of a routers, p terminals and h global
 * links per router, a full mesh inside a group, g ≤ a·h + 1 groups; every pair of groups joined
 * by m = ⌊a·h/(g−1)⌋ global links. Torus: endpoints are the vertices of a 2D or 3D torus with
 * wraparound, 2 ports per dimension; it has no switches, so its switch model is not checked.
 *
 * A fabric that cannot be built as declared (switch radix, link speed against port speed,
 * breakout, more endpoints than the shape holds) is a requirement the design does not meet:
 * a Violation at the fabric with the numbers and, where one exists, the smallest change. For
 * the design reported (not while choices are explored) that change is found by sizing the
 * shape again with more planes or a larger radix.
 */
#include "passes.h"

#include <math.h>
#include <string.h>

const char *const link_tier_names[LT_COUNT] = {
#define X(t, s) s,
	LINK_TIERS(X)
#undef X
};
const char *const switch_tier_names[ST_COUNT] = {
#define X(t, s) s,
	SWITCH_TIERS(X)
#undef X
};

/* A count the spec wrote, as an int. check.c lets whole numbers reach 2^53; far past any
 * fabric, they are clamped to COUNT_MAX + 1 so that comparisons still find them too large and
 * the int arithmetic below cannot overflow (messages print the number as written). */
#define COUNT_MAX (1 << 24)
static int count(double v)
{
	return v > COUNT_MAX ? COUNT_MAX + 1 : (int)v;
}

/* The largest switch radix (logical ports) and fabric (links per plane) sized. The biggest
 * switches sold have 512 logical ports (51.2 Tb/s at 100G) and the 100,000-GPU example has
 * 304,064 links; the limits keep every product of the shapes below inside an int or a long. */
#define RADIX_MAX 2048
#define LINKS_MAX (1L << 27)

/* False (after a Violation) when a plane of `links` links is more than LINKS_MAX. */
static bool wirable(Design *d, const FabricInst *f, Loc at, double links)
{
	if (links <= (double)LINKS_MAX)
		return true;
	design_violation(d, at, links / (double)LINKS_MAX - 1, f->decl->name_loc, NULL,
			 "'%s' would have %.0f links per plane; clusterc wires at most %ld: use "
			 "smaller parameters",
			 f->decl->name, links, LINKS_MAX);
	return false;
}

/* A parameter of a constructor value whose default a pass computes: its number, or def when
 * absent or left open (auto). */
static double param(const Value *ctor, ParamId p, double def)
{
	double v;
	return param_num_set(ctor, p, &v) ? v : def;
}

/* The smallest divisor of n that is at least want, or 0 when want > n. */
static int divisor_at_least(int n, int want)
{
	if (want < 1)
		want = 1;
	for (int s = want; s <= n; s++)
		if (n % s == 0)
			return s;
	return 0;
}

static char *gbps(Design *d, double v)
{
	char buf[64];
	qty_format((Qty){v, dim_make(0, 0, -1, 0, 1, 0)}, buf, sizeof buf);
	return arena_strdup(d->p->c->arena, buf);
}

/* The NICs of a node or a storage appliance. */
static const PartCount *nics_of(const Part *dev, int *n)
{
	*n = dev->kind == KIND_NODE ? dev->node.nnics : dev->kind == KIND_STORAGE ? dev->storage.nnics : 0;
	return dev->kind == KIND_NODE ? dev->node.nics : dev->storage.nics;
}

/* NIC ports of one device on this fabric: every NIC of the fabric's model. */
static int node_rails(const Part *dev, const Part *nic)
{
	int k;
	const PartCount *nics = nics_of(dev, &k);
	double n = 0;
	for (int i = 0; i < k; i++)
		if (nics[i].part == nic)
			n += (double)nics[i].count * nic->nic.ports;
	return count(n);
}

static const Part *first_nic(const Part *dev)
{
	if (!dev)
		return NULL;
	int k;
	const PartCount *nics = nics_of(dev, &k);
	return k ? nics[0].part : NULL;
}

/* Set while a shape is sized again to find what would fit: no suggestion inside a suggestion. */
static int probing;

static bool suggesting(const Design *d)
{
	return !probing && !d->quiet;
}

/* A split of n ports whose down:up ratio comes within 1 % of want: *down and *up set. */
static bool split_within(int n, double want, double down_ratio, double up_ratio, int *down, int *up)
{
	int lo = (int)floor(n * down_ratio / (down_ratio + up_ratio) + 1e-9);
	for (int dn = lo; dn <= lo + 1; dn++) {
		if (dn < 1 || dn > n - 1)
			continue;
		if (fabs((double)dn / (n - dn) / want - 1) <= 0.01) {
			*down = dn, *up = n - dn;
			return true;
		}
	}
	return false;
}

/* The split of k ports for a down:up ratio. Every port when a whole split of all k comes within
 * 1 % of the ratio (64 ports at 3:1: 48 down, 16 up); else the split within 1 % that leaves the
 * fewest ports idle (2:1 on 64 ports: 42:21, one port idle; 5:1: 50:10, four idle), as a
 * designer cables it. False (after a Violation) when no split of k ports or fewer comes that
 * close: the nearest splits of all k are offered, and the smallest switch that has the ratio. */
static bool split_ports(Design *d, FabricInst *f, Loc at, const char *tier, int k,
			double down_ratio, double up_ratio, int *down, int *up)
{
	double want = down_ratio / up_ratio;
	for (int n = k; n >= 2; n--)
		if (split_within(n, want, down_ratio, up_ratio, down, up))
			return true;
	int lo = (int)floor(k * down_ratio / (down_ratio + up_ratio) + 1e-9);
	if (lo < 1)
		lo = 1;
	if (lo > k - 1)
		lo = k - 1;
	int hi = lo + 1 < k ? lo + 1 : lo;
	*down = lo, *up = k - lo;
	const char *nearest =
		hi == lo ? arena_printf(d->p->c->arena, "the nearest split is %d:%d (%.3g:1)", lo,
					k - lo, (double)lo / (k - lo))
			 : arena_printf(d->p->c->arena, "the nearest splits are %d:%d (%.3g:1) and "
							"%d:%d (%.3g:1)",
					lo, k - lo, (double)lo / (k - lo), hi, k - hi,
					(double)hi / (k - hi));
	/* The smallest radix that has the ratio, up to 4 times this one. */
	const char *fix = "";
	int dn, u;
	for (int n = k + 1; n <= 4 * k && suggesting(d); n++)
		if (split_within(n, want, down_ratio, up_ratio, &dn, &u)) {
			fix = arena_printf(d->p->c->arena, ": use a switch with %d ports at %s or more "
							   "(%d:%d)",
					   n, gbps(d, f->link_speed), dn, u);
			break;
		}
	design_violation(d, at, fabs((double)lo / (k - lo) / want - 1), f->decl->name_loc, NULL,
			 "%g:%g cannot be had on %d-port %s switches: %s%s", down_ratio, up_ratio, k,
			 tier, nearest, fix);
	return false;
}

static void ratio_at(const Value *v, int tier, double *down, double *up)
{
	*down = 1, *up = 1;
	if (!v)
		return;
	const Value *r = v->kind == VAL_LIST ? (tier < v->n ? v->items[tier] : NULL) : tier == 0 ? v : NULL;
	if (r && r->kind == VAL_RATIO)
		*down = r->a, *up = r->b;
}

/* ---- the smallest change a message offers ---------------------------------------------------- */

static bool size_shape(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports);


/* Whether the shape would hold with another plane count or radix: sized again on a copy, its
 * violations dropped. Only for the design reported (not while choices are explored). */
static bool shape_fits(Design *d, const FabricInst *f, const Value *topo, int nodes,
		       int extra_ports, int planes, int radix)
{
	FabricInst t = *f;
	t.planes = planes;
	t.radix = radix;
	memset(t.per_plane, 0, sizeof t.per_plane);
	memset(t.links_per_plane, 0, sizeof t.links_per_plane);
	int before = d->violations.n;
	probing++;
	bool ok = size_shape(d, &t, topo, nodes, extra_ports) && d->violations.n == before;
	probing--;
	d->violations.n = before;
	return ok;
}

/* "planes = P": the fewest planes (a divisor of the rails, more than now) that fit; or NULL. */
static const char *more_planes(Design *d, const FabricInst *f, const Value *topo, int nodes,
			       int extra_ports)
{
	for (int pl = f->planes + 1; suggesting(d) && pl <= f->rails; pl++)
		if (f->rails % pl == 0 && shape_fits(d, f, topo, nodes, extra_ports, pl, f->radix))
			return arena_printf(d->p->c->arena, "planes = %d", pl);
	return NULL;
}

/* "a switch with K ports at SPEED or more": the smallest radix (up to 4 times this one) that
 * fits with the planes as they are; or NULL. */
static const char *more_ports(Design *d, const FabricInst *f, const Value *topo, int nodes,
			      int extra_ports)
{
	for (int k = f->radix + 1; suggesting(d) && k <= 4 * f->radix; k++)
		if (shape_fits(d, f, topo, nodes, extra_ports, f->planes, k))
			return arena_printf(d->p->c->arena, "a switch with %d ports at %s or more", k,
					    gbps(d, f->link_speed));
	return NULL;
}

/* Set while a fat tree is sized again with another tier count (0: the tiers the spec asks). */
static int probe_tiers;

/* "tiers = N": the fewest tiers, more than `tiers`, that fit with the planes and radix as they
 * are; or NULL. */
static const char *more_tiers(Design *d, const FabricInst *f, const Value *topo, int nodes,
			      int extra_ports, int tiers)
{
	for (int t = tiers + 1; suggesting(d) && t <= 3; t++) {
		probe_tiers = t;
		bool ok = shape_fits(d, f, topo, nodes, extra_ports, f->planes, f->radix);
		probe_tiers = 0;
		if (ok)
			return arena_printf(d->p->c->arena, "tiers = %d", t);
	}
	return NULL;
}

/* "A, or B", "A", "B" or `otherwise`. */
static const char *either(Design *d, const char *a, const char *b, const char *otherwise)
{
	if (a && b)
		return arena_printf(d->p->c->arena, "%s, or %s", a, b);
	return a ? a : b ? b : otherwise;
}

/* What a tree of `tiers` tiers too small for its endpoints could do instead: more tiers or
 * more planes (both when both work), else a switch with more ports, else a hint. */
static const char *bigger_tree(Design *d, const FabricInst *f, const Value *topo, int nodes,
			       int extra_ports, int tiers)
{
	const char *fix = either(d, more_tiers(d, f, topo, nodes, extra_ports, tiers),
				 more_planes(d, f, topo, nodes, extra_ports), NULL);
	return fix ? fix : either(d, more_ports(d, f, topo, nodes, extra_ports), NULL,
				  "more planes or a switch with more ports");
}

/* Fat tree: leaves, then the smallest number of tiers (or the declared one) that holds them. */
static bool size_fat_tree(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	const Decl *fd = f->decl;
	Loc at = topo->loc;
	int k = f->radix, rpp = f->rails / f->planes;
	const Value *ov = field_value(fd, FLD_FABRIC_OVERSUBSCRIPTION);
	Loc ov_at = ov ? ov->loc : fd->name_loc;
	double od, ou;
	ratio_at(ov, 0, &od, &ou);
	if (!split_ports(d, f, ov_at, "leaf", k, od, ou, &f->down[0], &f->up[0]))
		return false;
	f->oversub[0] = (double)f->down[0] / f->up[0];
	int down = f->down[0], up = f->up[0];
	f->rail_optimized = param_num(topo, PRM_FAT_TREE_RAIL_OPTIMIZED) != 0;

	/* Endpoints of one plane: every node's rails of the plane, then the extra devices. */
	int extra_pp = (extra_ports + f->planes - 1) / f->planes;
	int leaves;
	if (f->rail_optimized) {
		double su_asked;
		if (!field_num_set(fd, FLD_FABRIC_SCALABLE_UNIT, &su_asked))
			su_asked = down; /* as many nodes as a leaf has down ports */
		int su = count(su_asked);
		if (su > down) {
			design_violation(d, field_value(fd, FLD_FABRIC_SCALABLE_UNIT)->loc, su_asked / down - 1,
					 fd->name_loc, NULL,
					 "a scalable unit of %.0f nodes needs %.0f down ports on each leaf; "
					 "'%s' leaves have %d at %g:%g: use scalable_unit = %d or less",
					 su_asked, su_asked, f->switch_model->name, down, od, ou, down);
			su = down;
		}
		f->su_nodes = su;
		/* Extra ports take the free slots of the last units, spread over the rails. */
		int sus = (nodes + su - 1) / su;
		if (sus < 1)
			sus = 1;
		for (;;) {
			int free_per_rail = sus * su - nodes;
			int need_per_rail = (extra_pp + rpp - 1) / rpp;
			if (need_per_rail <= free_per_rail)
				break;
			sus++;
		}
		f->sus = sus;
		leaves = sus * rpp;
	} else {
		int e = nodes * rpp + extra_pp;
		leaves = (e + down - 1) / down;
	}
	f->endpoints = (nodes * rpp + extra_pp) * f->planes;
	f->links_per_plane[LT_NODE_LEAF] = nodes * rpp + extra_pp;

	int want = !param_is_auto(topo, PRM_FAT_TREE_TIERS) ? count(param(topo, PRM_FAT_TREE_TIERS, 0)) : 0;
	if (probe_tiers)
		want = probe_tiers;
	if (want > 3) {
		design_violation(d, at, want / 3.0 - 1, fd->name_loc, NULL,
				 "a fat tree has 1, 2 or 3 tiers; '%s' asks for %.0f: use tiers = 3 (with "
				 "more planes or a larger switch if 3 do not hold the endpoints)",
				 fd->name, param(topo, PRM_FAT_TREE_TIERS, 0));
		return false;
	}
	int per_plane_endpoints = nodes * rpp + extra_pp;
	/* One tier: a single switch holds every endpoint of the plane. */
	if (want == 1 || (want == 0 && per_plane_endpoints <= k && !f->rail_optimized)) {
		if (per_plane_endpoints > k) {
			design_violation(d, at, (double)per_plane_endpoints / k - 1, fd->name_loc, NULL,
					 "a 1-tier fabric is one switch of %d ports; '%s' has %d endpoints "
					 "per plane: use %s",
					 k, fd->name, per_plane_endpoints,
					 bigger_tree(d, f, topo, nodes, extra_ports, 1));
			return false;
		}
		f->tiers = 1;
		f->per_plane[ST_LEAF] = 1;
		f->diameter = 0;
		f->ecmp = 1;
		f->bisection = per_plane_endpoints * f->link_speed / 2 * f->planes;
		return true;
	}
	/* Two tiers: spines that every leaf reaches evenly. */
	int spines = divisor_at_least(up, (int)(((long)leaves * up + k - 1) / k));
	if (want == 2 || (want == 0 && spines > 0)) {
		if (spines == 0) {
			/* At most k leaves: k / rails scalable units, or k leaves of `down` endpoints. */
			int max_ep = f->rail_optimized ? (k / rpp) * f->su_nodes : k * down;
			design_violation(d, at, (double)leaves / k - 1, fd->name_loc, NULL,
					 "a 2-tier fat tree of '%s' (%d ports at %s) holds at most %d "
					 "leaves (%d %s per plane); '%s' needs %d leaves for %d %s: use %s",
					 f->switch_model->name, k, gbps(d, f->link_speed), k, max_ep,
					 f->rail_optimized ? "nodes" : "endpoints", fd->name, leaves,
					 f->rail_optimized ? nodes : per_plane_endpoints,
					 f->rail_optimized ? "nodes" : "endpoints",
					 bigger_tree(d, f, topo, nodes, extra_ports, 2));
			return false;
		}
		f->tiers = 2;
		f->per_plane[ST_LEAF] = leaves;
		f->per_plane[ST_SPINE] = spines;
		f->spine_links = up / spines;
		f->links_per_plane[LT_LEAF_SPINE] = leaves * up;
		f->down[1] = leaves * up / spines; /* spine ports used */
		f->diameter = leaves > 1 ? 2 : 0;
		f->ecmp = spines;
		double cap = fmin(per_plane_endpoints, (double)leaves * up) * f->link_speed;
		f->bisection = cap / 2 * f->planes;
		return true;
	}
	/* Three tiers: pods of leaves under pod spines, pod spines under core groups. */
	double sd, su_r;
	ratio_at(ov, 1, &sd, &su_r);
	if (!split_ports(d, f, ov_at, "spine", k, sd, su_r, &f->down[1], &f->up[1]))
		return false;
	f->oversub[1] = (double)f->down[1] / f->up[1];
	int down2 = f->down[1], up2 = f->up[1];
	int pod_leaves = down2;
	if (f->rail_optimized)
		pod_leaves = down2 / rpp * rpp; /* whole scalable units */
	if (pod_leaves < 1) {
		design_violation(d, at, 1, fd->name_loc, NULL,
				 "a pod of '%s' spines (%d down ports) cannot hold one scalable unit of "
				 "%d rails (one leaf per rail): use %s",
				 f->switch_model->name, down2, rpp,
				 either(d, more_planes(d, f, topo, nodes, extra_ports),
					more_ports(d, f, topo, nodes, extra_ports),
					"rail_optimized = false"));
		return false;
	}
	int pods = (leaves + pod_leaves - 1) / pod_leaves;
	int per_group = pods > k ? 0 : divisor_at_least(up2, (pods * up2 + k - 1) / k);
	if (per_group == 0) {
		/* At most k pods: k·P leaves, so k·P·down endpoints (k·P/R units of S nodes). */
		long max_leaves = (long)k * pod_leaves;
		long max_ep = f->rail_optimized ? max_leaves / rpp * f->su_nodes : max_leaves * down;
		design_violation(d, at, (double)pods / k - 1, fd->name_loc, NULL,
				 "a 3-tier fat tree of '%s' (%d ports at %s) holds at most %ld leaves "
				 "(%ld %s per plane); '%s' needs %d leaves for %d %s: use %s",
				 f->switch_model->name, k, gbps(d, f->link_speed), max_leaves, max_ep,
				 f->rail_optimized ? "nodes" : "endpoints", fd->name, leaves,
				 f->rail_optimized ? nodes : per_plane_endpoints,
				 f->rail_optimized ? "nodes" : "endpoints",
				 either(d, more_planes(d, f, topo, nodes, extra_ports),
					more_ports(d, f, topo, nodes, extra_ports),
					"more planes or a switch with more ports"));
		return false;
	}
	if (!wirable(d, f, at, (double)pods * up * up2))
		return false;
	f->tiers = 3;
	f->pods = pods;
	f->pod_leaves = pod_leaves;
	f->core_groups = up;
	f->core_per_group = per_group;
	f->per_plane[ST_LEAF] = leaves;
	f->per_plane[ST_SPINE] = pods * up;
	f->per_plane[ST_CORE] = up * per_group;
	f->links_per_plane[LT_LEAF_SPINE] = leaves * up;
	f->links_per_plane[LT_SPINE_CORE] = pods * up * up2;
	f->diameter = pods > 1 ? 4 : leaves > 1 ? 2 : 0;
	f->ecmp = pods > 1 ? (double)up * per_group : up;
	double cap = fmin(fmin(per_plane_endpoints, (double)leaves * up), (double)pods * up * up2);
	f->bisection = cap * f->link_speed / 2 * f->planes;
	return true;
}

/* The largest balanced dragonfly router (a = 2p = 2h, 4p − 1 ports) a radix allows, when it
 * holds e terminals: "p = 12, a = 24, h = 12 (47 ports)"; or NULL. */
static const char *balanced_router(Design *d, int radix, int e)
{
	int p = (radix + 1) / 4;
	long a = 2L * p, terminals = (a * p + 1) * a * p;
	if (p < 1 || terminals < e)
		return NULL;
	return arena_printf(d->p->c->arena, "a smaller router such as p = %d, a = %ld, h = %d "
					    "(%ld ports, %ld terminals)",
			    p, a, p, 4L * p - 1, terminals);
}

static bool size_dragonfly(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	Loc at = topo->loc;
	/* As written (the counts below are clamped, see count()). */
	double a_w = param(topo, PRM_DRAGONFLY_A, 0);
	double half = floor(a_w / 2) > 0 ? floor(a_w / 2) : 1; /* the documented a / 2 */
	double p_w = param(topo, PRM_DRAGONFLY_P, half), h_w = param(topo, PRM_DRAGONFLY_H, half);
	double need = p_w + (a_w - 1) + h_w;
	int rpp = f->rails / f->planes;
	int e = nodes * rpp + (extra_ports + f->planes - 1) / f->planes;
	if (need > f->radix) {
		const char *smaller = suggesting(d) ? balanced_router(d, f->radix, e) : NULL;
		design_violation(d, at, need / f->radix - 1, f->decl->name_loc, NULL,
				 "a dragonfly router with p = %.0f, a = %.0f, h = %.0f needs %.0f ports "
				 "(p + a - 1 + h); '%s' has %d at %s: use a switch with %.0f ports or "
				 "more%s%s",
				 p_w, a_w, h_w, need, f->switch_model->name, f->radix,
				 gbps(d, f->link_speed), need, smaller ? ", or " : "", smaller ? smaller : "");
		return false;
	}
	/* Now p + a - 1 + h <= RADIX_MAX: a·h and a·p fit an int. */
	int a = (int)a_w, p = (int)p_w, h = (int)h_w;
	int g_max = a * h + 1;
	int g_need = (e + p * a - 1) / (p * a);
	bool g_auto = param_is_auto(topo, PRM_DRAGONFLY_G);
	int g = g_auto ? g_need : count(param(topo, PRM_DRAGONFLY_G, 1));
	if (g < 1)
		g = 1;
	if (g > g_max || g_need > g_max) {
		/* The smallest h, or else a, whose a·h + 1 groups hold the endpoints (or the g asked);
		 * or more planes, when the endpoints are too many. */
		const char *planes = g_need > g_max ? more_planes(d, f, topo, nodes, extra_ports) : NULL;
		int want = g > g_need ? g : g_need;
		int h2 = (want - 1 + a - 1) / a;
		int a2 = a + 1;
		while (((long)a2 * h + 1) * a2 * p < e || (!g_auto && (long)a2 * h + 1 < g))
			a2++;
		const char *fix = arena_printf(d->p->c->arena, "h = %d gives %d groups", h2, a * h2 + 1);
		if (p + a - 1 + h2 > f->radix)
			fix = arena_printf(d->p->c->arena, "h = %d would need %d router ports", h2,
					   p + a - 1 + h2);
		const char *fix_a = arena_printf(d->p->c->arena, "a = %d gives %d groups of %d terminals",
						 a2, a2 * h + 1, a2 * p);
		if (p + a2 - 1 + h > f->radix)
			fix_a = arena_printf(d->p->c->arena, "a = %d would need %d router ports", a2,
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
	if (!wirable(d, f, at, (double)g * a * (a - 1) / 2 + (double)pairs_links + e))
		return false;
	f->df_p = p, f->df_a = a, f->df_h = h, f->df_g = g;
	f->df_links_per_pair = g > 1 ? a * h / (g - 1) : 0;
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

/* The most even dimensions, each 2 or more, that multiply to n: "[5, 10, 10]"; or NULL. */
static const char *torus_dims(Design *d, int n, int ndims)
{
	int best[3] = {0}, best_max = 0;
	for (int x = 2; (long)x * x <= n; x++) {
		if (n % x)
			continue;
		int rest = n / x;
		if (ndims == 2) {
			if (rest >= x && (!best_max || rest < best_max))
				best[0] = x, best[1] = rest, best_max = rest;
			continue;
		}
		for (int y = x; (long)y * y <= rest; y++)
			if (rest % y == 0 && (!best_max || rest / y < best_max))
				best[0] = x, best[1] = y, best[2] = rest / y, best_max = rest / y;
	}
	if (!best_max)
		return NULL;
	if (ndims == 2)
		return arena_printf(d->p->c->arena, "[%d, %d]", best[0], best[1]);
	return arena_printf(d->p->c->arena, "[%d, %d, %d]", best[0], best[1], best[2]);
}

static bool size_torus(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	const Value *dims = topo->items[0];
	f->ndims = dims ? (dims->n < 3 ? dims->n : 3) : 0; /* check.c: 2 or 3 */
	double product = 1; /* exact: a product past 2^53 is no node count anyway */
	int largest = 0;
	for (int i = 0; i < f->ndims; i++) {
		product *= dims->items[i]->q.v;
		f->dims[i] = count(dims->items[i]->q.v);
		if (f->dims[i] > largest)
			largest = f->dims[i];
	}
	int rpp = f->rails / f->planes;
	if (product != nodes) {
		const char *dims_fit = suggesting(d) ? torus_dims(d, nodes, f->ndims) : NULL;
		design_violation(d, topo->loc, fabs(product / nodes - 1), f->decl->name_loc, NULL,
				 "a torus of %.0f positions for %d nodes; the dimensions must multiply to "
				 "the node count: use %s%s%s",
				 product, nodes,
				 product <= COUNT_MAX ? arena_printf(d->p->c->arena, "%.0f nodes", product)
						      : "smaller dimensions",
				 dims_fit ? ", or dims = " : "", dims_fit ? dims_fit : "");
		return false;
	}
	if (extra_ports) {
		const Value *ev = field_value(f->decl, FLD_FABRIC_ENDPOINTS);
		design_violation(d, ev ? ev->loc : topo->loc, 1, f->decl->name_loc, NULL,
				 "a torus links nodes to nodes and has no port for the %d ports of "
				 "other devices: attach them through a switched fabric",
				 extra_ports);
		return false;
	}
	for (int i = 0; i < f->ndims; i++)
		if (f->dims[i] < 2) {
			design_violation(d, dims->items[i]->loc, 1, f->decl->name_loc, NULL,
					 "a torus dimension of %d would link every node to itself: leave "
					 "it out",
					 f->dims[i]);
			return false;
		}
	if (rpp < 2 * f->ndims) {
		design_violation(d, topo->loc, (double)(2 * f->ndims) / rpp - 1, f->decl->name_loc, NULL,
				 "a %dD torus needs %d ports on every node (2 per dimension); the nodes "
				 "have %d '%s' ports%s on '%s': %s",
				 f->ndims, 2 * f->ndims, rpp, f->nic->name, f->planes > 1 ? " per plane" : "",
				 f->decl->name,
				 f->ndims == 3 && rpp >= 4 ? "use a 2D torus, or NICs with 6 ports"
				 : f->planes > 1 && f->rails >= 2 * f->ndims
					 ? "use fewer planes"
					 : arena_printf(d->p->c->arena, "use NICs with %d ports", 2 * f->ndims));
		return false;
	}
	f->tiers = 0;
	f->endpoints = nodes * f->planes;
	f->links_per_plane[LT_TORUS] = nodes * f->ndims;
	int diameter = 0;
	for (int i = 0; i < f->ndims; i++)
		diameter += f->dims[i] / 2;
	f->diameter = diameter;
	f->ecmp = 1;
	/* Cut across the largest dimension: 2 wraparound planes of nodes/largest links. */
	f->bisection = 2.0 * nodes / largest * f->link_speed * f->planes;
	return true;
}

/* The shape of one plane, by topology. */
static bool size_shape(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	if (!strcmp(f->topology->name, "fat_tree"))
		return size_fat_tree(d, f, topo, nodes, extra_ports);
	if (!strcmp(f->topology->name, "dragonfly"))
		return size_dragonfly(d, f, topo, nodes, extra_ports);
	return size_torus(d, f, topo, nodes, extra_ports);
}

/* One fabric: its switch at the link speed, its NIC ports, then its shape. */
static void size_one(Design *d, FabricInst *f)
{
	const Decl *fd = f->decl;
	const Value *topo = field_value(fd, FLD_FABRIC_TOPOLOGY);
	const Value *sw = field_value(fd, FLD_FABRIC_SWITCH);
	bool direct = topo && topo->kind == VAL_CTOR && strcmp(topo->ctor->name, "torus") == 0;
	if (!topo || topo->kind != VAL_CTOR || (!direct && (!sw || sw->kind != VAL_REF)))
		return; /* an open choice check.c reported, or one decide.c has not set */
	f->topology = topo->ctor;
	f->switch_model = sw && sw->kind == VAL_REF ? design_part(d, sw->ref) : NULL; /* none for a torus */
	f->protocol = field_enum(fd, FLD_FABRIC_PROTOCOL);
	if (f->protocol < 0)
		f->protocol = f->switch_model ? f->switch_model->sw.protocol : PROTO_ETHERNET;
	const Value *nic_v = field_value(fd, FLD_FABRIC_NIC);
	f->nic = nic_v && nic_v->kind == VAL_REF ? design_part(d, nic_v->ref) : first_nic(d->ngroups ? d->groups[0].type : NULL);
	double nic_speed = f->nic ? f->nic->nic.speed : 0;
	if (!field_num_set(fd, FLD_FABRIC_LINK, &f->link_speed))
		f->link_speed = nic_speed; /* the NIC port speed */
	const Value *pv = field_value(fd, FLD_FABRIC_PLANES);
	f->planes = pv && pv->kind == VAL_QTY ? count(pv->q.v) : 1;
	bool auto_planes = pv && pv->kind == VAL_AUTO;

	/* Rails: the fabric NIC's ports on every node (the first group's count; every group must
	 * agree). */
	int nodes = 0;
	f->rails = 0;
	for (int i = 0; i < d->ngroups; i++) {
		int r = f->nic ? node_rails(d->groups[i].type, f->nic) : 0;
		if (r == 0)
			continue;
		if (f->rails && r != f->rails) {
			design_violation(d, d->groups[i].loc, 1, fd->name_loc, NULL,
					 "'%s' nodes have %d '%s' ports and others %d: every node on fabric "
					 "'%s' needs the same",
					 d->groups[i].type->name, r, f->nic->name, f->rails, fd->name);
			return;
		}
		f->rails = r;
		nodes += d->groups[i].count;
	}
	/* Fabrics on the same NIC model share its ports, in fabric order: this one starts after
	 * the rails of the earlier ones. */
	const FabricInst *earlier = NULL;
	f->nic_first = 0;
	for (const FabricInst *g = d->fabrics; g < f; g++)
		if (g->nic == f->nic && g->rails > 0) {
			f->nic_first += g->rails;
			earlier = g;
		}
	int nic_ports = f->rails;
	if (f->rails > 0 && f->nic_first >= nic_ports) {
		design_violation(d, fd->name_loc, 1, earlier->decl->name_loc, "the fabric before it",
				 "fabric '%s' has no '%s' port left: the fabrics before it take all %d "
				 "of every node's; give them fewer (rails = N) or this fabric a NIC "
				 "of its own (nic = ...)",
				 fd->name, f->nic->name, nic_ports);
		return;
	}
	f->rails -= f->nic_first;
	const Value *rails_v = field_value(fd, FLD_FABRIC_RAILS);
	if (rails_v && rails_v->kind == VAL_QTY && f->rails > 0) {
		if (rails_v->q.v > f->rails) {
			const char *nic = f->nic ? f->nic->name : "NIC";
			if (f->nic_first)
				design_violation(d, rails_v->loc, rails_v->q.v / fmax(f->rails, 1) - 1,
						 earlier->decl->name_loc, "the fabric before it",
						 "%g rails asked; the nodes have %d '%s' ports left (of %d: the "
						 "fabrics before it take %d): use rails = %d",
						 rails_v->q.v, f->rails, nic, nic_ports, f->nic_first, f->rails);
			else
				design_violation(d, rails_v->loc, rails_v->q.v / fmax(f->rails, 1) - 1,
						 fd->name_loc, NULL,
						 "%g rails asked; the nodes have %d '%s' ports: use rails = %d",
						 rails_v->q.v, f->rails, nic, f->rails);
			return;
		}
		f->rails = (int)rails_v->q.v;
	}
	if (f->rails > FABRIC_MAX_RAILS) {
		design_violation(d, rails_v && rails_v->kind == VAL_QTY ? rails_v->loc : fd->name_loc,
				 (double)f->rails / FABRIC_MAX_RAILS - 1, fd->name_loc, NULL,
				 "the nodes have %d '%s' ports for fabric '%s'; clusterc wires at most %d "
				 "rails per node: use rails = %d, and another fabric for the other ports",
				 f->rails, f->nic->name, fd->name, FABRIC_MAX_RAILS, FABRIC_MAX_RAILS);
		return;
	}
	if (f->rails == 0 || !f->nic) {
		/* The NIC the nodes do have, when the fabric names another. */
		const Part *have = first_nic(d->ngroups ? d->groups[0].type : NULL);
		const char *fix = have && have != f->nic
					  ? arena_printf(d->p->c->arena, ": its nodes have '%s' (nic = %s)",
							 have->name, have->name)
				  : !have ? ": give the nodes nics" : "";
		design_violation(d, nic_v ? nic_v->loc : fd->name_loc, 1, d->cluster->name_loc, NULL,
				 "no node of cluster '%s' has a '%s' port for fabric '%s'%s",
				 d->cluster->name, f->nic ? f->nic->name : "NIC", fd->name, fix);
		return;
	}
	if (f->rails % f->planes) {
		int below = f->planes < f->rails ? f->planes : f->rails, above = below;
		while (f->rails % below)
			below--;
		while (above < f->rails && f->rails % above)
			above++;
		design_violation(d, pv ? pv->loc : fd->name_loc, 1, fd->name_loc, NULL,
				 "%.0f planes cannot share %d NIC ports evenly: use planes = %d%s",
				 pv->q.v, f->rails, below,
				 above > f->rails || above == below
					 ? ""
					 : arena_printf(d->p->c->arena, " or %d", above));
		return;
	}
	if (f->link_speed > nic_speed * (1 + 1e-9)) {
		design_violation(d, field_value(fd, FLD_FABRIC_LINK)->loc, f->link_speed / nic_speed - 1,
				 fd->name_loc, NULL,
				 "links of %s are faster than the '%s' ports (%s): use link = %s",
				 gbps(d, f->link_speed), f->nic->name, gbps(d, nic_speed),
				 gbps(d, nic_speed));
		return;
	}
	/* The switch at the link speed: ports split by breakout. A torus has no switches. */
	const Part *m = f->switch_model;
	double port_speed = m ? m->sw.port_speed : 0;
	int ports = m ? m->sw.ports : 0, max_breakout = m ? m->sw.breakout : 1;
	double ratio = port_speed / f->link_speed;
	int b = (int)llround(ratio);
	bool switched = strcmp(f->topology->name, "torus") != 0;
	if (switched &&
	    (f->link_speed > port_speed * (1 + 1e-9) || fabs(ratio - b) > 1e-9 || b > max_breakout)) {
		const char *why = f->link_speed > port_speed ? "faster than its ports"
				  : fabs(ratio - b) > 1e-9 ? "not a whole fraction of a port"
							    : "more lanes than its breakout allows";
		/* The speeds a port can be split into: port_speed / 1 .. port_speed / breakout. */
		Buf can = {0};
		for (int i = 1; i <= max_breakout; i++)
			buf_printf(&can, "%s%s", i == 1 ? "" : i == max_breakout ? " or " : ", ",
				   gbps(d, port_speed / i));
		const Value *lv = field_value(fd, FLD_FABRIC_LINK);
		design_violation(d, lv ? lv->loc : fd->name_loc, 1, m->loc,
				 "the switch is declared here",
				 "'%s' ports are %s and split at most %d ways, so links can be %s; links "
				 "of %s are %s",
				 m->name, gbps(d, port_speed), max_breakout, can.s, gbps(d, f->link_speed),
				 why);
		buf_free(&can);
		return;
	}
	if (switched && (double)ports * b > RADIX_MAX) {
		design_violation(d, m->loc, (double)ports * b / RADIX_MAX - 1, fd->name_loc,
				 "the fabric is declared here",
				 "'%s' would have %.0f ports at %s; clusterc sizes switches of up to %d",
				 m->name, field_num(m->decl, FLD_SWITCH_PORTS) * b, gbps(d, f->link_speed),
				 RADIX_MAX);
		return;
	}
	f->breakout = switched ? b : 1;
	f->radix = switched ? ports * b : 0;

	double extra = 0;
	const Value *ev = field_value(fd, FLD_FABRIC_ENDPOINTS);
	for (int i = 0; ev && i < (ev->kind == VAL_LIST ? ev->n : 1); i++) {
		const Value *cv = ev->kind == VAL_LIST ? ev->items[i] : ev;
		const Part *dev = design_part(d, cv->ref);
		const Part *nic = first_nic(dev);
		int per = nic ? node_rails(dev, nic) : 1;
		extra += cv->count->q.v * (per > 0 ? per : 1);
	}
	double all = (double)nodes * f->rails + extra;
	if (all > COUNT_MAX) {
		design_violation(d, ev ? ev->loc : fd->name_loc, all / COUNT_MAX - 1, fd->name_loc, NULL,
				 "fabric '%s' would have %.0f endpoint ports; clusterc sizes fabrics of up "
				 "to %d",
				 fd->name, all, COUNT_MAX);
		return;
	}
	int extra_ports = (int)extra;

	/* planes = auto: the fewest planes (a divisor of the rails) whose shape fits. */
	bool ok = false;
	for (int planes = auto_planes ? 1 : f->planes; planes <= f->rails; planes++) {
		if (f->rails % planes)
			continue;
		f->planes = planes;
		int before = d->violations.n;
		memset(f->per_plane, 0, sizeof f->per_plane);
		memset(f->links_per_plane, 0, sizeof f->links_per_plane);
		ok = size_shape(d, f, topo, nodes, extra_ports);
		if (ok || !auto_planes || planes == f->rails)
			break;
		d->violations.n = before; /* try more planes */
	}
	if (!ok)
		return;
	f->sized = true;
	f->switches = f->links = 0;
	for (int t = 0; t < ST_COUNT; t++) {
		f->by_tier[t] = f->per_plane[t] * f->planes;
		f->switches += f->by_tier[t];
	}
	for (int t = 0; t < LT_COUNT; t++) {
		f->links_by_tier[t] = f->links_per_plane[t] * f->planes;
		f->links += f->links_by_tier[t];
	}
	/* Extra ports are dealt round-robin over the planes: each plane is shaped for the most
	 * any holds, ⌈extra / P⌉, but the last planes hold one fewer when P does not divide them. */
	int fewer = (extra_ports + f->planes - 1) / f->planes * f->planes - extra_ports;
	if (fewer && strcmp(f->topology->name, "torus") != 0) {
		LinkTier edge = f->links_per_plane[LT_TERMINAL] ? LT_TERMINAL : LT_NODE_LEAF;
		f->links_by_tier[edge] -= fewer;
		f->links -= fewer;
		f->endpoints -= fewer;
	}
}

/* Scale-up domains: inside a node (its NVSwitch chips are part of it), or bigger than a node
 * with switch trays and the links to them. */
static void size_scale_up(Design *d)
{
	d->nscaleups = 0;
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		int accels = g->type->node.accelerators;
		if (accels < 2 && g->domain_nodes <= 1)
			continue;
		const Value *sw = g->domain_nodes > 1 && g->type->node.ntrays
					  ? field_value(g->type->decl, FLD_NODE_SCALE_UP_SWITCHES)
					  : NULL;
		ScaleUpInst *s = &d->scaleups[d->nscaleups++];
		*s = (ScaleUpInst){.node = g->type, .domains = g->count / g->domain_nodes,
				   .domain_nodes = g->domain_nodes,
				   .domain_accels = g->domain_nodes * accels};
		s->bandwidth = isnan(g->type->node.scale_up_bw) ? 0 : g->type->node.scale_up_bw;
		if (!sw)
			continue;
		double trays = 0, all = 0;
		for (int j = 0; j < g->type->node.ntrays; j++) {
			const PartCount *t = &g->type->node.trays[j];
			trays += t->count;
			all += (double)t->count * t->part->sw.ports;
		}
		if (all * s->domains > (double)LINKS_MAX || trays * s->domains > COUNT_MAX) {
			design_violation(d, sw->loc, all * s->domains / (double)LINKS_MAX, g->type->loc,
					 NULL,
					 "%.0f scale-up switches with %.0f ports in all per domain, %d "
					 "domains: more than clusterc wires (%ld links)",
					 trays, all, s->domains, LINKS_MAX);
			d->nscaleups--;
			continue;
		}
		s->switches_per_domain = (int)trays;
		int ports = (int)all;
		s->links_per_accel = s->domain_accels ? ports / s->domain_accels : 0;
		if (s->domain_accels && ports % s->domain_accels)
			design_violation(d, sw->loc, 1, g->type->loc, NULL,
					 "the %d ports of the scale-up switches do not divide evenly over "
					 "%d accelerators",
					 ports, s->domain_accels);
		s->nswitches = s->domains * s->switches_per_domain;
		s->nlinks = s->domains * s->domain_accels * s->links_per_accel;
	}
}

int size_fabrics(Design *d)
{
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	int n = fv && fv->kind == VAL_LIST ? fv->n : 0;
	if (!d->fabrics || d->nfabrics != n) {
		d->fabrics = arena_alloc(d->p->c->arena, sizeof(FabricInst) * (size_t)(n + 1));
		d->scaleups = arena_alloc(d->p->c->arena, sizeof(ScaleUpInst) * (size_t)(d->ngroups + 1));
	}
	d->nfabrics = n;
	int before = d->violations.n;
	for (int i = 0; i < n; i++) {
		Decl *fd = fv->items[i]->ref;
		d->fabrics[i] = (FabricInst){.decl = fd, .name = fd->name, .loc = fd->name_loc,
					     .routing = field_enum(fd, FLD_FABRIC_ROUTING)};
		d->vsource = VS_FABRIC, d->vfabric = i;
		size_one(d, &d->fabrics[i]);
	}
	d->vsource = VS_NODES, d->vfabric = -1;
	size_scale_up(d);
	return d->violations.n - before;
}
