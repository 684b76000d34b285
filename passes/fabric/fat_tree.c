/*
 * fat_tree.c — the fat tree family: folded Clos of 1 to 3 switch tiers (docs/fabrics.md;
 * Leiserson 1985, Al-Fares et al., SIGCOMM 2008).
 *
 * Sizing. Switches of radix k (ports at the link speed, breakout counted); a leaf splits its
 * ports into `down` for endpoints and `up` by the leaf oversubscription d:u (down = ⌊k·d/(d+u)⌋
 * when that comes within 1 % of d:u, else the exact split leaving the fewest ports idle: 2:1 on
 * 64 ports is 42:21). In a 2-tier tree every leaf spreads its up links evenly over S spines, S
 * the smallest divisor of `up` with S ≥ ⌈leaves·up/k⌉; at most k leaves, so k²/2 endpoints at
 * 1:1. In a 3-tier tree a pod is `down₂` leaves (whole scalable units when rail-optimized) under
 * `up` pod spines, one link from each leaf to each; pod spine j of every pod connects to core
 * group j of C switches, C the fewest with pods·⌈up₂/C⌉ ≤ k (a divisor of up₂ when that is as
 * few; else the cores take ⌈(up₂ − c)/C⌉ links a pod each): k³/4 endpoints and 5k²/4 switches
 * at full size. Rail-optimized trees (NVIDIA DGX SuperPOD reference
 * architecture) give every scalable unit one leaf per rail: NIC r of every node of the unit
 * goes to leaf r. Multi-plane fabrics split a node's NIC ports over independent planes, each
 * its own tree.
 *
 * Per tier (issue 15; docs/fabrics.md §2, "Per-tier hardware"): each tier has its own switch
 * model and the speed of the links down from it, so its own radix; a tier whose up links run
 * at another speed splits its physical ports by the bandwidth ratio. Oversubscription is down
 * bandwidth over up bandwidth (Leiserson 1985; Al-Fares et al. 2008, §2). A pod may be given
 * (pod_leaves, pod_gpus): its spines then have that many down links and the nearest whole
 * number of up links for the spine ratio. ToRs (leaf_placement = server_rack) serve the
 * nodes of racks_per_leaf racks of one node group each; their down ports are those nodes'
 * rails, their up ports the ratio's.
 *
 * Wiring, one plane after the other:
 *  - Node to leaf. ToRs: node i of a group is in rack i / R of it (R nodes a rack) and goes to
 *    its group's leaf i / (R·N), port (i mod R·N)·rails + rail (N racks a ToR).
 *    Rail-optimized: the n-th node on the fabric (nodes without the fabric's
 *    NIC are not counted) is in scalable unit s = n / S, slot n % S, and its rail r (the r-th
 *    port of the fabric's NIC, within the plane) goes to leaf s·R + r, port n % S. Extra
 *    devices (fabric managers, storage) take the free slots after the last node, rail after
 *    rail. Otherwise endpoints are numbered node-major and fill the leaves' down ports in
 *    order.
 *  - Leaf to spine (2 tiers): up link u of leaf l goes to spine u mod S, on that spine's port
 *    l·(up/S) + u div S; every leaf reaches every spine with up/S links.
 *  - Leaf to pod spine (3 tiers): leaf l of pod p = l / P (P leaves a pod) sends up link u to
 *    pod spine (p, u), port l mod P. Pod spine (p, j) sends its up link v to core c = v mod C
 *    of core group j, port p·⌈(up₂ − c)/C⌉ + v div C (p·(up₂/C) + v div C when C divides up₂).
 * Ports count from 0; a leaf's down ports come first, then its backup ports
 * (backup_ports_per_tor, left unwired), then its up ports. A rail is the node's port index
 * on the fabric (wire_plane_rail: by NIC or by port).
 *
 * Network racks: the leaves of one scalable unit together (a rail-optimized tree: the unit's
 * cables then stay inside its row), else a rack's worth of leaves (none for ToRs: place.c
 * stands them in their server racks); the spines and cores of a plane (apart when their models
 * differ; with the fabric's extra devices in the first plane's) in the middle of every node.
 */
#include "fabric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "tiers = N": the fewest tiers, more than `tiers`, that fit with the planes and radix as they
 * are; or NULL. */
static const char *more_tiers(Design *d, const FabricInst *f, const Value *topo, int nodes,
			      int extra_ports, int tiers)
{
	for (int t = tiers + 1; shape_suggesting(d, f) && t <= 3; t++)
		if (shape_fits(d, f, topo, nodes, extra_ports, f->planes, f->radix, t))
			return arena_printf(d->c->arena, "tiers = %d", t);
	return NULL;
}

/* More planes, or a switch with more ports (both when both work), or `otherwise`. Each is
 * sized in turn: the order of a call's arguments is not C's to promise. */
static const char *planes_or_ports(Design *d, const FabricInst *f, const Value *topo, int nodes,
				   int extra_ports, const char *otherwise)
{
	const char *planes = shape_more_planes(d, f, topo, nodes, extra_ports);
	const char *ports = shape_more_ports(d, f, topo, nodes, extra_ports);
	return shape_either(d, planes, ports, otherwise);
}

/* What a tree of `tiers` tiers too small for its endpoints could do instead: more tiers or
 * more planes (both when both work), else a switch with more ports, else a hint. */
static const char *bigger_tree(Design *d, const FabricInst *f, const Value *topo, int nodes,
			       int extra_ports, int tiers)
{
	const char *more = more_tiers(d, f, topo, nodes, extra_ports, tiers);
	const char *planes = shape_more_planes(d, f, topo, nodes, extra_ports);
	const char *fix = shape_either(d, more, planes, NULL);
	if (fix)
		return fix;
	const char *ports = shape_more_ports(d, f, topo, nodes, extra_ports);
	return shape_either(d, ports, NULL, "more planes or a switch with more ports");
}

/* The split of tier t's ports (0 leaf, 1 spine) into `down` at the tier's link speed and `up`
 * at the speed of the tier above, for the bandwidth ratio od:ou. At one speed the logical
 * ports are split (shape.c's rule); at two, the physical ports are, every port then at its
 * side's lanes: the bandwidths down and up are then pd·port_speed and pu·port_speed, so the
 * ratio of the physical split is the ratio of bandwidths. The tier's switches then number
 * their logical ports up to ports × the larger lane count. */
static bool tier_split(Design *d, FabricInst *f, Loc at, const char *word, int t, double od,
		       double ou, int *down, int *up)
{
	/* A leaf's backup ports (backup_ports_per_tor) are not split: the rest of its ports are. */
	int backup = t == 0 ? f->backup_ports : 0;
	if (fabs(f->tier_speed[t] - f->tier_speed[t + 1]) <= 1e-9 * f->tier_speed[t])
		return shape_split_ports(d, f, at, word, f->tier_radix[t] - backup, od, ou, down, up);
	const Part *m = f->tier_model[t];
	int pd, pu, bd = f->tier_breakout[t], bu = f->tier_up_breakout[t];
	if (!shape_split_ports(d, f, at, word, m->sw.ports - (backup + bd - 1) / bd, od, ou, &pd, &pu))
		return false;
	*down = pd * bd, *up = pu * bu;
	f->tier_radix[t] = m->sw.ports * (bd > bu ? bd : bu);
	return true;
}

/* Down over up bandwidth of a tier-t switch with `down` and `up` links (down/up at one speed). */
static double bandwidth_ratio(const FabricInst *f, int t, int down, int up)
{
	if (fabs(f->tier_speed[t] - f->tier_speed[t + 1]) <= 1e-9 * f->tier_speed[t])
		return (double)down / up;
	return down * f->tier_speed[t] / (up * f->tier_speed[t + 1]);
}

/* A tier whose up links run at another speed numbers its logical ports up to its ports × the
 * larger lane count (down ports first, then up ports at their own lanes: ir_switch_port). */
static void widen_radix(FabricInst *f, int t)
{
	if (fabs(f->tier_speed[t] - f->tier_speed[t + 1]) <= 1e-9 * f->tier_speed[t])
		return;
	int bd = f->tier_breakout[t], bu = f->tier_up_breakout[t];
	f->tier_radix[t] = f->tier_model[t]->sw.ports * (bd > bu ? bd : bu);
}

/* Physical ports of tier t's switch that `down` links at its speed and `up` at the speed of
 * the tier above take. */
static int ports_taken(const FabricInst *f, int t, int down, int up)
{
	int bd = f->tier_breakout[t], bu = t < 2 ? f->tier_up_breakout[t] : 1;
	if (t == 0)
		down += f->backup_ports; /* a leaf's backups sit beside its down links */
	return (down + bd - 1) / bd + (up + bu - 1) / bu;
}

/* Up ports for `down` down ports at d:u bandwidth: the nearest whole number (at least 1) of
 * links of the tier above's speed. Oversubscription is down bandwidth over up bandwidth
 * (Leiserson 1985; Al-Fares et al. 2008 §2): down·s_down / (up·s_up) = d/u. */
static int up_for(const FabricInst *f, int t, int down, double od, double ou)
{
	double want = down * f->tier_speed[t] * ou / (od * f->tier_speed[t + 1]);
	int up = (int)floor(want + 0.5);
	return up < 1 ? 1 : up;
}

/* Scalable units of su nodes for `nodes` nodes, the extra ports (extra_pp a plane) taking the
 * free slots of the last units, spread over the rpp rails. */
static int su_count(int nodes, int su, int extra_pp, int rpp)
{
	int sus = (nodes + su - 1) / su;
	if (sus < 1)
		sus = 1;
	while ((extra_pp + rpp - 1) / rpp > sus * su - nodes)
		sus++;
	return sus;
}

/* Leaves a plane of the tree has at its planned final size (grow_to nodes, docs/daytwo.md):
 * the spines and cores are sized and wired for them, so that the leaves still to come find
 * their ports free. `leaves` when the fabric plans no growth; -1 after a Violation. */
static int grown_leaves(Design *d, FabricInst *f, int nodes, int extra_pp, int leaves)
{
	const Decl *fd = f->decl;
	double g;
	f->grow_nodes = f->grow_from = nodes;
	f->grows = false;
	if (!field_num_set(fd, FLD_FABRIC_GROW_TO, &g))
		return leaves;
	Loc at = field_value(fd, FLD_FABRIC_GROW_TO)->loc;
	int grow = shape_count(g), rpp = f->rails / f->planes;
	if (grow < nodes) {
		design_violation(d, at, (double)nodes / grow - 1, fd->name_loc, NULL,
				 "grow_to = %d is less than the %d nodes '%s' links now: use grow_to "
				 "= %d or more, or drop it",
				 grow, nodes, fd->name, nodes);
		return -1;
	}
	if (f->tor) {
		design_violation(d, at, 1, field_value(fd, FLD_FABRIC_LEAF_PLACEMENT)->loc,
				 "the leaves are in the server racks",
				 "grow_to is not modelled for ToRs in the server racks yet: use "
				 "leaf_placement = network_rack, or drop grow_to");
		return -1;
	}
	f->grow_nodes = grow;
	f->grows = true;
	if (f->rail_optimized)
		return su_count(grow, f->su_nodes, extra_pp, rpp) * rpp;
	return (grow * rpp + extra_pp + f->down[0] - 1) / f->down[0];
}

/* ToRs in the server racks (leaf_placement = server_rack): one leaf per `racks_per_leaf`
 * racks of each node group on the fabric, serving exactly the nodes of those racks; a leaf's
 * down ports are the rails of the most nodes one serves. Leaves per plane, or -1 after a
 * Violation. */
static int tor_leaves(Design *d, FabricInst *f, int extra_pp)
{
	const Decl *fd = f->decl;
	Loc at = field_value(fd, FLD_FABRIC_LEAF_PLACEMENT)->loc;
	if (f->rail_optimized) {
		design_violation(d, at, 1, fd->name_loc, NULL,
				 "leaves in server racks and rail-optimized leaves are not modelled "
				 "together yet (a rail-optimized scalable unit has one leaf per rail "
				 "across its racks): use leaf_placement = network_rack, or "
				 "rail_optimized = false");
		return -1;
	}
	if (extra_pp) {
		design_violation(d, field_value(fd, FLD_FABRIC_ENDPOINTS)->loc, 1, at,
				 "the leaves are in the server racks",
				 "extra endpoints on ToRs in server racks are not modelled yet: attach "
				 "them to another fabric, or use leaf_placement = network_rack");
		return -1;
	}
	double npl = field_num(fd, FLD_FABRIC_RACKS_PER_LEAF);
	int per = shape_count(npl), most_racks = 1;
	field_note(d->pack_reads); /* the groups' racks: what packing them read */
	for (int g = 0; g < d->ngroups; g++) {
		int per_rack = d->groups[g].per_rack > 0 ? d->groups[g].per_rack : 1;
		int racks = (d->groups[g].count + per_rack - 1) / per_rack;
		most_racks = racks > most_racks ? racks : most_racks;
	}
	if (per > most_racks)
		per = most_racks; /* a ToR for more racks than a group has serves them all */
	f->tor = true;
	f->racks_per_leaf = per;
	f->tor_first_leaf = arena_alloc(d->c->arena, sizeof(int) * (size_t)(d->ngroups + 1));
	int leaves = 0, most = 0;
	for (int g = 0; g < d->ngroups; g++) {
		const NodeGroup *ng = &d->groups[g];
		f->tor_first_leaf[g] = -1;
		if (!wire_group_on(d, f, g))
			continue;
		int per_rack = ng->per_rack > 0 ? ng->per_rack : 1;
		int racks = (ng->count + per_rack - 1) / per_rack;
		f->tor_first_leaf[g] = leaves;
		leaves += (racks + per - 1) / per;
		int serve = per_rack * per;
		if (serve > ng->count)
			serve = ng->count;
		if (serve > most)
			most = serve;
	}
	f->tor_rack_nodes = most;
	return leaves;
}

/* pod_gpus: the pod as leaves. A leaf serves `down / rails` nodes of a plane (a ToR its racks'
 * nodes; a rail-optimized unit of R leaves its S nodes), so a pod of G accelerators is G / (that
 * × accelerators per node) leaves, which must be whole (whole units when rail-optimized);
 * false after a Violation. Both pod_leaves and pod_gpus is an error too. */
static bool pod_leaves_of_gpus(Design *d, FabricInst *f, int down, double *leaves, bool *set)
{
	const Decl *fd = f->decl;
	const Value *gv = field_value(fd, FLD_FABRIC_POD_GPUS);
	if (*set) {
		design_violation(d, gv->loc, 1, field_value(fd, FLD_FABRIC_POD_LEAVES)->loc,
				 "pod_leaves is given here",
				 "a pod is given twice: pod_gpus or pod_leaves, not both");
		return false;
	}
	int accels = 0;
	for (int g = 0; g < d->ngroups && !accels; g++)
		if (wire_group_on(d, f, g))
			accels = d->groups[g].type->node.accelerators;
	int rpp = f->rails / f->planes;
	/* Accelerators under one leaf (rail-optimized: under one unit of rpp leaves). */
	double unit = f->rail_optimized ? (double)f->su_nodes * accels
		      : f->tor ? (double)f->tor_rack_nodes * accels : (double)down / rpp * accels;
	int per = f->rail_optimized ? rpp : 1;
	double n = gv->q.v / unit;
	if (unit <= 0 || fabs(n - floor(n + 0.5)) > 1e-9 || floor(n + 0.5) < 1) {
		double lo = floor(n) * unit, hi = (floor(n) + 1) * unit;
		design_violation(d, gv->loc, 1, fd->name_loc, NULL,
				 "a pod of %.0f accelerators is not a whole number of %s of %.0f: use "
				 "pod_gpus = %.0f%s",
				 gv->q.v, f->rail_optimized ? "scalable units" : "leaves", unit,
				 lo >= unit ? lo : hi,
				 lo >= unit ? arena_printf(d->c->arena, " or %.0f", hi) : "");
		return false;
	}
	*leaves = floor(n + 0.5) * per;
	*set = true;
	return true;
}

/* Fat tree: leaves, then the smallest number of tiers (or the declared one) that holds them. */
bool fat_tree_size(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	const Decl *fd = f->decl;
	Loc at = topo->loc;
	int k = f->radix - f->backup_ports, rpp = f->rails / f->planes; /* one tier: no backups wired */
	const Value *ov = field_value(fd, FLD_FABRIC_OVERSUBSCRIPTION);
	Loc ov_at = ov ? ov->loc : fd->name_loc;
	double od, ou;
	shape_ratio_at(ov, 0, &od, &ou);
	f->rail_optimized = field_param_num(topo, PRM_FAT_TREE_RAIL_OPTIMIZED) != 0;
	/* Backups at the link speed: the leaf's ports at that speed, less at least one down and
	 * one up port (a lone tier has no up ports, but keeps one down port). */
	int lanes = f->tier_breakout[0] > 0 ? f->tier_breakout[0] : 1;
	int at_speed = f->tier_model[0] ? f->tier_model[0]->sw.ports * lanes : f->radix;
	if (f->backup_ports > 0 && f->backup_ports > at_speed - 2) {
		design_violation(d, field_value(fd, FLD_FABRIC_BACKUP_PORTS_PER_TOR)->loc, 1,
				 f->switch_model->loc, "the switch is declared here",
				 "%d backup ports leave no port of '%s' for links (%d ports of %s): use "
				 "backup_ports_per_tor = %d or fewer",
				 f->backup_ports, f->switch_model->name, at_speed,
				 shape_gbps(d, f->tier_speed[0]), at_speed - 2 > 0 ? at_speed - 2 : 0);
		return false;
	}
	/* Endpoints of one plane: every node's rails of the plane, then the extra devices. */
	int extra_pp = (extra_ports + f->planes - 1) / f->planes;
	int leaves = 0;
	f->tor = false;
	f->reserved[0] = f->reserved[1] = f->reserved[2] = 0;
	const Value *rpl = field_value(fd, FLD_FABRIC_RACKS_PER_LEAF);
	if (rpl && field_enum(fd, FLD_FABRIC_LEAF_PLACEMENT) != LEAF_SERVER_RACK) {
		design_violation(d, rpl->loc, 1, fd->name_loc, NULL,
				 "racks_per_leaf is for ToRs in the server racks; '%s' has its leaves in "
				 "network racks: add leaf_placement = server_rack, or drop racks_per_leaf",
				 fd->name);
		return false;
	}
	if (field_enum(fd, FLD_FABRIC_LEAF_PLACEMENT) == LEAF_SERVER_RACK) {
		/* A ToR's down ports are its racks' node ports; its up ports follow from the ratio. */
		leaves = tor_leaves(d, f, extra_pp);
		if (leaves < 0)
			return false;
		f->down[0] = f->tor_rack_nodes * rpp;
		f->up[0] = up_for(f, 0, f->down[0], od, ou);
		int need = ports_taken(f, 0, f->down[0], f->up[0]);
		if (need > f->switch_model->sw.ports) {
			/* The most racks a ToR of this model serves, for the suggestion. */
			int per_rack = f->tor_rack_nodes / f->racks_per_leaf, fits = 0;
			for (int n = f->racks_per_leaf - 1; n >= 1 && !fits; n--) {
				int dn = n * per_rack * rpp;
				if (ports_taken(f, 0, dn, up_for(f, 0, dn, od, ou)) <= f->switch_model->sw.ports)
					fits = n;
			}
			const char *fix = fits ? arena_printf(d->c->arena, "racks_per_leaf = %d, or ", fits) : "";
			design_violation(d, field_value(fd, FLD_FABRIC_LEAF_PLACEMENT)->loc,
					 (double)need / f->switch_model->sw.ports - 1, f->switch_model->loc,
					 "the switch is declared here",
					 "a ToR for %d racks of %d nodes needs %d down links of %s and %d up "
					 "links of %s at %g:%g%s, %d ports; '%s' has %d: use %sa leaf switch "
					 "with %d ports",
					 f->racks_per_leaf, f->tor_rack_nodes / f->racks_per_leaf, f->down[0],
					 shape_gbps(d, f->tier_speed[0]), f->up[0],
					 shape_gbps(d, f->tier_speed[1]), od, ou,
					 f->backup_ports ? arena_printf(d->c->arena, " and %d backup ports",
									f->backup_ports)
							 : "",
					 need, f->switch_model->name,
					 f->switch_model->sw.ports, fix, need);
			return false;
		}
		widen_radix(f, 0);
	} else if (!tier_split(d, f, ov_at, "leaf", 0, od, ou, &f->down[0], &f->up[0])) {
		return false;
	}
	f->oversub[0] = bandwidth_ratio(f, 0, f->down[0], f->up[0]);
	int down = f->down[0], up = f->up[0];

	if (f->tor) {
		/* the leaves are the ToRs, counted above */
	} else if (f->rail_optimized) {
		double su_asked;
		if (!field_num_set(fd, FLD_FABRIC_SCALABLE_UNIT, &su_asked))
			su_asked = down; /* as many nodes as a leaf has down ports */
		int su = shape_count(su_asked);
		if (su > down) {
			design_violation(d, field_value(fd, FLD_FABRIC_SCALABLE_UNIT)->loc, su_asked / down - 1,
					 fd->name_loc, NULL,
					 "a scalable unit of %.0f nodes needs %.0f down ports on each leaf; "
					 "'%s' leaves have %d at %g:%g: use scalable_unit = %d or less",
					 su_asked, su_asked, f->switch_model->name, down, od, ou, down);
			su = down;
		}
		f->su_nodes = su;
		f->sus = su_count(nodes, su, extra_pp, rpp);
		leaves = f->sus * rpp;
	} else {
		int e = nodes * rpp + extra_pp;
		leaves = (e + down - 1) / down;
	}
	int grown = grown_leaves(d, f, nodes, extra_pp, leaves);
	if (grown < 0)
		return false;
	f->endpoints = (nodes * rpp + extra_pp) * f->planes;
	f->links_per_plane[LT_NODE_LEAF] = nodes * rpp + extra_pp;

	static const FieldId per_tier_fields[] = {FLD_FABRIC_SPINE_SWITCH, FLD_FABRIC_CORE_SWITCH,
						  FLD_FABRIC_SPINE_LINK, FLD_FABRIC_CORE_LINK,
						  FLD_FABRIC_POD_LEAVES, FLD_FABRIC_POD_GPUS,
						  FLD_FABRIC_LEAF_PLACEMENT,
						  FLD_FABRIC_RACKS_PER_LEAF};
	f->per_tier = false;
	for (size_t i = 0; i < sizeof per_tier_fields / sizeof *per_tier_fields; i++)
		if (field_value(fd, per_tier_fields[i]))
			f->per_tier = true;
	f->up_per_endpoint[0] = f->up_per_endpoint[1] = 0;
	f->pod_endpoints = 0;
	int want = !field_param_is_auto(topo, PRM_FAT_TREE_TIERS) ? shape_count(shape_param(topo, PRM_FAT_TREE_TIERS, 0)) : 0;
	if (f->probe_tiers)
		want = f->probe_tiers;
	if (want > 3) {
		design_violation(d, at, want / 3.0 - 1, fd->name_loc, NULL,
				 "a fat tree has 1, 2 or 3 tiers; '%s' asks for %.0f: use tiers = 3 (with "
				 "more planes or a larger switch if 3 do not hold the endpoints)",
				 fd->name, shape_param(topo, PRM_FAT_TREE_TIERS, 0));
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
	/* Two tiers: spines that every leaf reaches evenly. A tree of more leaves than the pods
	 * the spec asks for (pod_leaves) has pods, so three tiers. */
	int k1 = f->tier_radix[1];
	const Part *spine_model = f->tier_model[1];
	int spines = shape_divisor_at_least(up, (int)(((long)grown * up + k1 - 1) / k1));
	double pod_asked;
	bool pod_set = field_num_set(fd, FLD_FABRIC_POD_LEAVES, &pod_asked);
	if (field_value(fd, FLD_FABRIC_POD_GPUS) && !pod_leaves_of_gpus(d, f, down, &pod_asked, &pod_set))
		return false;
	bool pods_wanted = pod_set && leaves > shape_count(pod_asked);
	if (want == 2 && pods_wanted) {
		const Value *pv = field_value(fd, FLD_FABRIC_POD_LEAVES);
		design_violation(d, pv ? pv->loc : field_value(fd, FLD_FABRIC_POD_GPUS)->loc, 1, at,
				 "tiers = 2",
				 "pods of %.0f leaves need a third tier: '%s' has %d leaves, and a 2-tier "
				 "tree is one pod: use tiers = 3, or pod_leaves = %d",
				 pod_asked, fd->name, leaves, leaves);
		return false;
	}
	if (want == 2 || (want == 0 && spines > 0 && !pods_wanted)) {
		if (spines == 0) {
			/* At most k leaves: k / rails scalable units, or k leaves of `down` endpoints. */
			int max_ep = f->rail_optimized ? (k1 / rpp) * f->su_nodes : k1 * down;
			design_violation(d, at, (double)leaves / k1 - 1, fd->name_loc, NULL,
					 "a 2-tier fat tree of '%s' (%d ports at %s) holds at most %d "
					 "leaves (%d %s per plane); '%s' needs %d leaves for %d %s: use %s",
					 spine_model->name, k1, shape_gbps(d, f->tier_speed[1]), k1, max_ep,
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
		f->reserved[1] = (grown - leaves) * up / spines; /* kept for the leaves to come */
		f->diameter = leaves > 1 ? 2 : 0;
		f->ecmp = spines;
		f->up_per_endpoint[0] = (double)leaves * up * f->tier_speed[1] / per_plane_endpoints;
		double cap = fmin(per_plane_endpoints * f->tier_speed[0],
				  (double)leaves * up * f->tier_speed[1]);
		f->bisection = cap / 2 * f->planes;
		return true;
	}
	/* Three tiers: pods of leaves under pod spines, pod spines under core groups. A pod is
	 * pod_leaves leaves when the spec says so (each pod spine then has pod_leaves down links
	 * and as many up as the spine ratio asks), else as many as a spine's down ports. */
	double sd, su_r;
	shape_ratio_at(ov, 1, &sd, &su_r);
	int pod_leaves;
	if (pod_set) {
		const Value *pv = field_value(fd, FLD_FABRIC_POD_LEAVES);
		if (!pv)
			pv = field_value(fd, FLD_FABRIC_POD_GPUS);
		pod_leaves = shape_count(pod_asked);
		if (f->rail_optimized && pod_leaves % rpp) {
			design_violation(d, pv->loc, 1, fd->name_loc, NULL,
					 "a pod of %d leaves is not whole scalable units of %d rails (one "
					 "leaf per rail): use pod_leaves = %d",
					 pod_leaves, rpp, pod_leaves / rpp > 0 ? pod_leaves / rpp * rpp : rpp);
			return false;
		}
		f->down[1] = pod_leaves;
		f->up[1] = up_for(f, 1, pod_leaves, sd, su_r);
		int need = ports_taken(f, 1, f->down[1], f->up[1]);
		if (need > spine_model->sw.ports) {
			/* The largest pod the spine holds at this ratio. */
			int most = 0;
			int from = pod_leaves - 1 < f->tier_radix[1] ? pod_leaves - 1 : f->tier_radix[1];
			for (int p = from; p >= 1 && !most; p--)
				if (ports_taken(f, 1, p, up_for(f, 1, p, sd, su_r)) <= spine_model->sw.ports)
					most = p;
			design_violation(d, pv->loc, (double)need / spine_model->sw.ports - 1,
					 spine_model->loc, "the spine switch is declared here",
					 "a pod of %d leaves at %g:%g needs %d down links of %s and %d up "
					 "links of %s on each spine, %d ports; '%s' has %d: use pod_leaves = "
					 "%d, or a spine switch with %d ports",
					 pod_leaves, sd, su_r, f->down[1], shape_gbps(d, f->tier_speed[1]),
					 f->up[1], shape_gbps(d, f->tier_speed[2]), need, spine_model->name,
					 spine_model->sw.ports, most > 0 ? most : 1, need);
			return false;
		}
		widen_radix(f, 1);
	} else {
		if (!tier_split(d, f, ov_at, "spine", 1, sd, su_r, &f->down[1], &f->up[1]))
			return false;
		pod_leaves = f->down[1];
		if (f->rail_optimized)
			pod_leaves = f->down[1] / rpp * rpp; /* whole scalable units */
	}
	f->oversub[1] = bandwidth_ratio(f, 1, f->down[1], f->up[1]);
	int down2 = f->down[1], up2 = f->up[1];
	if (pod_leaves < 1) {
		design_violation(d, at, 1, fd->name_loc, NULL,
				 "a pod of '%s' spines (%d down ports) cannot hold one scalable unit of "
				 "%d rails (one leaf per rail): use %s",
				 spine_model->name, down2, rpp,
				 planes_or_ports(d, f, topo, nodes, extra_ports, "rail_optimized = false"));
		return false;
	}
	int pods = (leaves + pod_leaves - 1) / pod_leaves;
	int grown_pods = (grown + pod_leaves - 1) / pod_leaves; /* the cores' share: grow_to's */
	/* Cores per group: the fewest whose ports take every pod spine's up links, spread round
	 * robin (up link v to core v mod C), so core c takes ⌈(up₂ − c)/C⌉ links from each pod
	 * and the busiest pods·⌈up₂/C⌉. A divisor of up₂ gives every core the same share; a
	 * smaller count that is not one leaves fewer core ports idle (5 pods of 32 up links on
	 * 64-port cores: 3 cores of 55 ports used, where the divisor 4 leaves 24 idle). */
	int k2 = f->tier_radix[2];
	const Part *core_model = f->tier_model[2];
	int per_group = 0;
	for (int c = 1; grown_pods <= k2 && c <= up2 && !per_group; c++)
		if ((long)grown_pods * ((up2 + c - 1) / c) <= k2)
			per_group = c;
	if (per_group == 0) {
		/* At most k pods: k·P leaves, so k·P·down endpoints (k·P/R units of S nodes). */
		long max_leaves = (long)k2 * pod_leaves;
		long max_ep = f->rail_optimized ? max_leaves / rpp * f->su_nodes : max_leaves * down;
		design_violation(d, at, (double)grown_pods / k2 - 1, fd->name_loc, NULL,
				 "a 3-tier fat tree of '%s' (%d ports at %s) holds at most %ld leaves "
				 "(%ld %s per plane); '%s' needs %d leaves for %d %s: use %s",
				 core_model->name, k2, shape_gbps(d, f->tier_speed[2]), max_leaves, max_ep,
				 f->rail_optimized ? "nodes" : "endpoints", fd->name, leaves,
				 f->rail_optimized ? nodes : per_plane_endpoints,
				 f->rail_optimized ? "nodes" : "endpoints",
				 planes_or_ports(d, f, topo, nodes, extra_ports, "more planes or a switch with more ports"));
		return false;
	}
	if (!shape_wirable(d, f, at, (double)pods * up * up2))
		return false;
	f->tiers = 3;
	f->pods = pods;
	/* A core's ports of the pods to come (grow_to): the busiest core's share of each. */
	f->reserved[2] = (grown_pods - pods) * ((up2 + per_group - 1) / per_group);
	f->reserved[1] = 0;
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
	/* Bandwidth up from each tier per endpoint: the leaves' up links, then the pod spines'
	 * (across pods); oversubscription is the ratio of what comes in below to what goes up. */
	f->up_per_endpoint[0] = (double)leaves * up * f->tier_speed[1] / per_plane_endpoints;
	f->up_per_endpoint[1] = (double)pods * up * up2 * f->tier_speed[2] / per_plane_endpoints;
	f->pod_endpoints = f->tor ? pod_leaves * f->tor_rack_nodes * rpp
			   : f->rail_optimized ? pod_leaves / rpp * f->su_nodes * rpp : pod_leaves * down;
	/* Bisection: the smallest of the endpoint, leaf-up and spine-up capacities (docs/fabrics.md
	 * §8), each at its tier's link speed. */
	double cap = fmin(fmin(per_plane_endpoints * f->tier_speed[0], (double)leaves * up * f->tier_speed[1]),
			  (double)pods * up * up2 * f->tier_speed[2]);
	f->bisection = cap / 2 * f->planes;
	return true;
}

void fat_tree_wire(Design *d, FabricInst *f, int fi)
{
	int rpp = f->rails / f->planes;
	Endpoint *eps = xmalloc(sizeof(Endpoint) * (size_t)(f->endpoints / f->planes + 1));
	int first = d->nswitches;
	memset(f->tier_used, 0, sizeof f->tier_used);
	for (int pl = 0; pl < f->planes; pl++) {
		int n_eps = wire_plane_endpoints(d, f, pl, eps);
		int leaf0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_LEAF]; i++) {
			SwitchInst *s = wire_add_switch(d, f, fi, ST_LEAF, pl, i);
			if (f->rail_optimized) {
				s->su = i / rpp;
				s->rail = wire_plane_rail(f, pl, i % rpp);
			}
			if (f->tiers == 3)
				s->group = s->pod = i / f->pod_leaves;
		}
		int spine0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_SPINE]; i++)
			wire_add_switch(d, f, fi, ST_SPINE, pl, i);
		int core0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_CORE]; i++) {
			SwitchInst *s = wire_add_switch(d, f, fi, ST_CORE, pl, i);
			s->group = i / f->core_per_group;
		}

		/* Endpoints to leaves. A node's slot counts only the nodes on this fabric (a cluster
		 * may list nodes without its NIC); the extras, after every node, follow them. */
		int extra_seen = 0, slot = -1, last_node = -1;
		for (int e = 0; e < n_eps; e++) {
			const Endpoint *ep = &eps[e];
			int leaf, port;
			if (ep->end.kind == END_NODE && ep->end.dev != last_node)
				slot++, last_node = ep->end.dev;
			if (f->tiers == 1) {
				leaf = 0, port = e;
			} else if (f->tor) {
				/* The ToR of the node's racks: its group's leaves, rack by rack. */
				const NodeInst *nd = &d->nodes[ep->end.dev];
				const NodeGroup *g = &d->groups[nd->group];
				int i = ep->end.dev - g->first_node, per_rack = g->per_rack > 0 ? g->per_rack : 1;
				int serve = per_rack * f->racks_per_leaf;
				leaf = f->tor_first_leaf[nd->group] + i / serve;
				port = i % serve * rpp + ep->rail;
			} else if (f->rail_optimized) {
				/* Nodes in their unit's slot; extras in the free slots after them. */
				int pos = ep->end.kind == END_NODE ? slot : slot + 1 + extra_seen++ / rpp;
				leaf = pos / f->su_nodes * rpp + ep->rail;
				port = pos % f->su_nodes;
			} else {
				leaf = e / f->down[0], port = e % f->down[0];
			}
			int rail = f->rail_optimized || f->tiers == 1 ? wire_plane_rail(f, pl, ep->rail) : -1;
			wire_add_link(d, ep->end, wire_switch_end(leaf0 + leaf, port), f->tier_speed[0], LT_NODE_LEAF, pl, rail, fi);
		}
		if (f->tiers == 2) {
			int per = f->spine_links, S = f->per_plane[ST_SPINE];
			for (int l = 0; l < f->per_plane[ST_LEAF]; l++) {
				int rail = f->rail_optimized ? d->switches[leaf0 + l].rail : -1;
				for (int u = 0; u < f->up[0]; u++)
					wire_add_link(d, wire_switch_end(leaf0 + l, f->down[0] + f->backup_ports + u),
					     wire_switch_end(spine0 + u % S, l * per + u / S), f->tier_speed[1],
					     LT_LEAF_SPINE, pl, rail, fi);
			}
		} else if (f->tiers == 3) {
			int P = f->pod_leaves, up = f->up[0], C = f->core_per_group;
			for (int l = 0; l < f->per_plane[ST_LEAF]; l++) {
				int pod = l / P, rail = f->rail_optimized ? d->switches[leaf0 + l].rail : -1;
				for (int u = 0; u < up; u++)
					wire_add_link(d, wire_switch_end(leaf0 + l, f->down[0] + f->backup_ports + u), wire_switch_end(spine0 + pod * up + u, l % P),
					     f->tier_speed[1], LT_LEAF_SPINE, pl, rail, fi);
			}
			/* Core c of a group takes ⌈(up₂ − c)/C⌉ links from each pod (all alike when C
			 * divides up₂): pod o's on ports o·that + v div C. */
			for (int pod = 0; pod < f->pods; pod++)
				for (int j = 0; j < up; j++)
					for (int v = 0; v < f->up[1]; v++) {
						int c = v % C, per_core = (f->up[1] - c + C - 1) / C;
						wire_add_link(d, wire_switch_end(spine0 + pod * up + j, f->down[1] + v),
						     wire_switch_end(core0 + j * C + c, pod * per_core + v / C),
						     f->tier_speed[2], LT_SPINE_CORE, pl, -1, fi);
					}
			for (int i = 0; i < f->per_plane[ST_SPINE]; i++)
				d->switches[spine0 + i].group = d->switches[spine0 + i].pod = i / up;
		}
	}
	free(eps);
	/* The most ports wired on one switch of each tier (report.json's ports_used_by_tier). */
	for (int i = first; i < d->nswitches; i++) {
		const SwitchInst *s = &d->switches[i];
		int t = s->tier == ST_SPINE ? 1 : s->tier == ST_CORE ? 2 : 0;
		if (s->used > f->tier_used[t])
			f->tier_used[t] = s->used;
	}
}

int fat_tree_rack_groups(const FabricInst *f, int plane, int fit, RackGroupSpec *out)
{
	int n = 0, per_plane = 0;
	for (int t = 0; t < ST_COUNT; t++)
		per_plane += f->per_plane[t];
	int leaves = f->per_plane[ST_LEAF], rpp = f->rails / f->planes;
	if (f->tor) {
		/* ToRs stand in the server racks (place.c): no network rack of leaves. */
	} else if (f->rail_optimized && f->tiers >= 2) {
		for (int s = 0; s < f->sus; s++)
			out[n++] = (RackGroupSpec){s * rpp, rpp, false, s * f->su_nodes,
						   (s + 1) * f->su_nodes};
	} else {
		for (int c = 0; c < leaves; c += fit) {
			int count = leaves - c < fit ? leaves - c : fit;
			/* The nodes whose ports the leaves' down ports take (a 1-tier tree: all). */
			out[n++] = f->tiers >= 2 ? (RackGroupSpec){c, count, false, c * f->down[0] / rpp,
								  (c + count) * f->down[0] / rpp}
						 : (RackGroupSpec){c, count, false, 0, -1};
		}
	}
	int central = per_plane - leaves;
	/* Spines and cores together, unless their models differ: a group's racks are packed
	 * with one switch model's height and power. */
	const Part *sm = f->tier_model[1], *cm = f->tier_model[2];
	int spines = f->per_plane[ST_SPINE], cores = f->per_plane[ST_CORE];
	if (spines > 0 && cores > 0 && sm && cm && sm != cm) {
		out[n++] = (RackGroupSpec){leaves, spines, plane == 0, 0, -1};
		out[n++] = (RackGroupSpec){leaves + spines, cores, false, 0, -1};
	} else if (central > 0 || (plane == 0 && f->nextras)) {
		out[n++] = (RackGroupSpec){leaves, central, plane == 0, 0, -1};
	}
	return n;
}

void fat_tree_check(Ctx *c, const Value *topo)
{
	(void)c, (void)topo; /* the parameters' schema says all there is to check */
}

/* ", 2 planes by NIC port" (dual-ToR when the leaves are ToRs), only for planes by port. */
static void by_port_words(const FabricInst *f, Buf *b)
{
	if (f->by_port && f->planes > 1)
		buf_printf(b, ", %d planes by NIC port%s", f->planes,
			   f->tor && f->planes == 2 ? " (dual-ToR)" : "");
}

void fat_tree_describe(const FabricInst *f, Buf *b)
{
	buf_printf(b, "Fat tree of %d tier%s%s", f->tiers, f->tiers == 1 ? "" : "s",
		   f->rail_optimized ? ", rail-optimized" : "");
	by_port_words(f, b);
}

void fat_tree_summary(const FabricInst *f, Buf *b)
{
	buf_printf(b, "%s, %d tier%s%s", f->family->name, f->tiers, f->tiers == 1 ? "" : "s",
		   f->rail_optimized ? ", rail-optimized" : "");
	by_port_words(f, b);
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* The scheduler's tree (sched.c): every switch of plane 1, leaves at tier 0, spines at 1,
 * cores at 2; a switch's children are the switches its up links reach it from. Slurm's tree
 * puts each node under one leaf, so a node hangs under the leaf of its first port on the
 * fabric (rail 0): in a rail-optimized tree the rail-0 leaf of its scalable unit, and the
 * leaves of the other rails have no node of their own (the pass leaves them out). A block
 * unit is a scalable unit (rail-optimized) or a leaf. */
void fat_tree_sched(SchedTree *t, const Design *d, int fi, Arena *a)
{
	const FabricInst *f = &d->fabrics[fi];
	int *tree_of = xmalloc(sizeof(int) * (size_t)(d->nswitches + 1));
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *w = &d->switches[s];
		int tier = w->tier == ST_LEAF ? 0 : w->tier == ST_SPINE ? 1 : w->tier == ST_CORE ? 2 : -1;
		tree_of[s] = w->plane == 0 && tier >= 0 ? sched_add_switch(t, a, w->name, tier, false)
							: -1;
	}
	if (f->rail_optimized) {
		t->nunit = f->sus;
		t->unit_name = arena_alloc(a, sizeof(char *) * (size_t)(f->sus + 1));
		int width = wire_name_width(f->sus);
		for (int u = 0; u < f->sus; u++)
			t->unit_name[u] = arena_printf(a, "%s-su%0*d", f->name, width, u + 1);
		t->unit_word = "scalable unit";
	} else {
		sched_switch_units(t, a);
		t->unit_word = "leaf";
	}
	int *sw_of = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	sched_first_ports(d, fi, LT_NODE_LEAF, sw_of);
	for (int n = 0; n < d->nnodes; n++) {
		if (sw_of[n] < 0)
			continue;
		t->leaf[n] = tree_of[sw_of[n]];
		t->unit[n] = f->rail_optimized ? d->switches[sw_of[n]].su : t->leaf[n];
	}
	free(sw_of);
	SchedPair *p = xmalloc(sizeof(SchedPair) * (size_t)(f->links + 1));
	int np = 0;
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->plane != 0 || (k->tier != LT_LEAF_SPINE && k->tier != LT_SPINE_CORE))
			continue;
		if (k->a.kind == END_SWITCH && k->z.kind == END_SWITCH)
			p[np++] = (SchedPair){tree_of[k->z.dev], tree_of[k->a.dev]};
	}
	sched_link(t, a, p, np);
	free(p);
	free(tree_of);
	Buf b = {0};
	int rpp = f->rails / f->planes;
	buf_printf(&b, "# Fabric %s: fat tree of %d tier%s", f->name, f->tiers, plural(f->tiers));
	if (f->rail_optimized)
		buf_printf(&b, ", rail-optimized with %d rail%s per plane", rpp, plural(rpp));
	if (f->planes > 1)
		buf_printf(&b, ", %d planes alike: plane 1 is described", f->planes);
	buf_puts(&b, ".\n");
	if (f->planes > 1 && f->by_port)
		buf_printf(&b, "# Planes by NIC port: port j of every NIC is on plane j (of %d)%s; every node is "
			       "on each plane.\n",
			   f->planes,
			   !f->tor ? ""
			   : f->racks_per_leaf > 1 ? arena_printf(a, ", %d ToRs per %d racks", f->tors_per_rack,
								  f->racks_per_leaf)
						   : arena_printf(a, ", %d ToRs a rack", f->tors_per_rack));
	if (f->backup_ports > 0)
		buf_printf(&b, "# Each leaf keeps %d backup port%s unwired.\n", f->backup_ports,
			   plural(f->backup_ports));
	if (rpp > 1)
		buf_puts(&b, "# Slurm's tree wants each node under one leaf switch: a node is listed "
			     "under the leaf\n# of its first (rail-0) port.\n");
	if (rpp > 1 && f->rail_optimized)
		buf_puts(&b, "# That is the rail-0 leaf of its scalable unit; the other rails' leaves "
			     "serve the same nodes.\n");
	t->explain = arena_strndup(a, b.s, b.len);
	buf_free(&b);
}

/* A fat tree asks nothing of how many nodes a rack holds. */
int fat_tree_rack_nodes(const Value *topo)
{
	(void)topo;
	return 0;
}
