/*
 * racks.c — how many nodes go in a rack, and so how many racks.
 *
 * For each group of identical nodes: a rack holds as many as fit its usable height (height
 * less reserved space) and its power cap (the lower of its power class and what its cooling
 * can remove), or exactly nodes_per_rack when the spec says so, else exactly the nodes of one
 * block of a torus with blocks (a TPU v4 cube per rack). A scale-up domain larger than a
 * node (GB200 NVL72: 18 trays and 9 NVLink switch trays) is packed whole: a rack holds whole
 * domains, switch trays included. Storage appliances get racks of their own by the same rule.
 * A node or domain that fits no rack, a nodes_per_rack beyond the limits and more racks than
 * the floor has positions are requirements the design does not meet (Violations, exit 2).
 * With rack zones (zone.c) each group is packed under its zone's rack type, cooling, power
 * class and nodes per rack, and under its floor loading: (loading × footprint − the empty
 * rack's weight) / a node's weight, when both weights are known. A node's power counts the
 * optics its NICs may carry (nic_optics: every port of a NIC a fabric attaches at the most a
 * transceiver or active cable end of that fabric's media draws), and a server-rack ToR its
 * cages so: heat.c's check of each rack with the optics chosen then holds by construction.
 */
#include "passes.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

static char *fmt_qty(Design *d, double v, Dim dim)
{
	char buf[64];
	qty_format((Qty){v, dim}, buf, sizeof buf);
	return arena_strdup(d->p->c->arena, buf);
}

static Dim power_dim(void) { return dim_make(0, 0, -1, 1, 0, 0); }

/* Units per rack of something of height h and power p under the rack's limits. */
static int fits(double usable, double cap, double h, double p)
{
	int by_u = h > 0 ? (int)floor(usable / h + 1e-9) : 1 << 30;
	int by_p = p > 0 ? (int)floor(cap / p + 1e-9) : 1 << 30;
	return by_u < by_p ? by_u : by_p;
}

/* The most one port at `speed` may draw in a transceiver or an active cable end among fabric
 * fd's media (its media list, else every part in scope): a transceiver that plugs into `cage`
 * (-1: any) counted whole, since a NIC's module is counted on its own link (heat.c) — at a NIC
 * (`nic`) only a single-port one, as cage.c's module_search takes there —, or half an active
 * cable (its two ends). Racks are packed with their ports at this bound because the media are
 * chosen once the racks stand (cable.c); heat.c adds what the chosen ones draw. */
static double port_bound(const Design *d, const Decl *fd, double speed, int cage, bool nic)
{
	const Value *list = field_value(fd, FLD_FABRIC_MEDIA);
	bool listed = list && list->kind == VAL_LIST;
	int n = listed ? list->n : d->nparts;
	double most = 0;
	for (int i = 0; i < n; i++) {
		const Part *x = listed ? parts_of(d, list->items[i]->ref) : &d->parts[i];
		if (!x || (x->kind != KIND_CABLE && x->kind != KIND_OPTIC) || !x->complete ||
		    (x->kind == KIND_CABLE && x->cable.media == MEDIA_TRUNK))
			continue;
		bool optic = x->kind == KIND_OPTIC;
		if (optic && ((cage >= 0 && x->optic.cage != cage) || (nic && x->optic.ports != 1)))
			continue;
		double carries = optic ? x->optic.speed : x->cable.speed;
		double end = optic ? x->power : x->power / 2;
		if (carries >= speed * (1 - 1e-9) && end > most)
			most = end;
	}
	return most;
}

/* W of transceivers and active cable ends the NICs of a node (or storage appliance) may carry
 * on the cluster's fabrics: each NIC model a fabric attaches (its `nic`, else the device's
 * first), all its ports at the most that fabric's media draw at its link speed (the largest
 * when several fabrics share the model). NICs no fabric attaches carry none here. */
static double nic_optics(const Design *d, const PartCount *nics, int nnics)
{
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	double sum = 0;
	for (int k = 0; k < nnics; k++) {
		const Part *nic = nics[k].part;
		double most = 0;
		for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++) {
			const Decl *fd = fv->items[i]->ref;
			const Value *nv = field_value(fd, FLD_FABRIC_NIC);
			const Part *on = nv && nv->kind == VAL_REF ? parts_of(d, nv->ref) : nics[0].part;
			if (on != nic)
				continue;
			double speed;
			if (!field_num_set(fd, FLD_FABRIC_LINK, &speed))
				speed = nic->nic.speed;
			most = fmax(most, port_bound(d, fd, speed, nic->nic.cage, true));
		}
		sum += nics[k].count * nic->nic.ports * most;
	}
	return sum;
}

/* Where the zone's power class is written: the zone's own, else its rack type's (NULL: none). */
static const Value *limit_value(const ZoneInst *z)
{
	const Value *v = z->decl ? field_value(z->decl, FLD_ZONE_POWER_LIMIT) : NULL;
	return v ? v : field_value(z->rack, FLD_RACK_POWER_LIMIT);
}

/* What of g does not fit a rack of zone z: too high, or drawing more than the zone's racks
 * allow (the note at the limit: its power class, or what its cooling removes). */
static void no_fit(Design *d, const NodeGroup *g, const ZoneInst *z, const char *what, double dom_u,
		   double dom_p, const char *hint)
{
	const Decl *rack = z->rack;
	double usable = z->usable, cap = z->node_cap;
	const char *in = d->zoned ? arena_printf(d->p->c->arena, " in zone '%s'", z->name) : "";
	if (dom_u > usable + 1e-9) {
		design_violation(d, g->loc, dom_u / usable - 1, rack->name_loc, "rack type declared here",
				 "%s is %.0f U high; rack '%s'%s has %.0f U usable%s", what, dom_u / 0.04445,
				 rack->name, in, usable / 0.04445, hint);
		design_violation_quantity(d, dom_u, usable, dim_make(1, 0, 0, 0, 0, 0));
	} else {
		bool cooling_limits = cap < z->limit;
		const Value *cool_v = field_value(z->cooling, FLD_COOLING_MAX_RACK_POWER);
		const Value *limit_v = limit_value(z);
		Loc note = cooling_limits && cool_v ? cool_v->loc : limit_v ? limit_v->loc : rack->name_loc;
		design_violation(d, g->loc, dom_p / cap - 1, note,
				 cooling_limits ? arena_printf(d->p->c->arena, "the most cooling '%s' can "
									       "remove from a rack",
							       z->cooling->name)
						: "the rack's power class",
				 "%s draws %s; rack '%s'%s allows %s%s", what, fmt_qty(d, dom_p, power_dim()),
				 rack->name, in, fmt_qty(d, cap, power_dim()), hint);
		design_violation_quantity(d, dom_p, cap, power_dim());
	}
}

/* Scale-up domains of `per` nodes of `node` a rack of zone z holds under the zone's floor
 * loading: (loading x footprint - the empty rack's weight) / a domain's weight; INT_MAX when
 * the zone gives no loading or a weight is unknown, or for a domain with switch trays (their
 * racks are weighed, trays included, by heat.c's check). */
static int mass_fit(const ZoneInst *z, const Part *node, int per)
{
	double w = node->node.weight;
	if (!isfinite(z->floor_loading) || !isfinite(w) || w <= 0 || (per > 1 && node->node.ntrays))
		return INT_MAX;
	double room = z->floor_loading * z->rack_type->rack.width * z->rack_type->rack.depth -
		      z->rack_type->rack.weight;
	return (int)floor(room / (per * w) + 1e-9);
}

/* The k-th switch of one scale-up domain, in the order the node lists them. */
static const Part *tray_at(const Part *node, int k)
{
	for (int i = 0; i < node->node.ntrays; i++) {
		if (k < node->node.trays[i].count)
			return node->node.trays[i].part;
		k -= node->node.trays[i].count;
	}
	return NULL;
}

static int tray_count(const Part *node)
{
	int n = 0;
	for (int i = 0; i < node->node.ntrays; i++)
		n += node->node.trays[i].count;
	return n;
}

/* Height and power of the switches [lo, hi) of one domain. */
static void trays_between(const Part *node, int lo, int hi, double *u, double *p)
{
	*u = *p = 0;
	for (int k = lo; k < hi; k++) {
		const Part *t = tray_at(node, k);
		*u += t->height;
		*p += t->power;
	}
}

/* A scale-up domain over several racks (CloudMatrix384: 48 nodes in 12 racks, its 112 L2
 * switches in 4 racks of their own): its nodes divide evenly over scale_up_racks racks, its
 * switches over scale_up_switch_racks racks of their own or, when there are none, over the
 * node racks. Each rack's share must fit the rack type; a rack holds one domain's share
 * only, so the domain's racks stand together (place.c keeps them in one row). */
static void plan_multi_rack(Design *d, NodeGroup *g, const ZoneInst *z)
{
	double usable = z->usable, cap = z->node_cap;
	Ctx *c = d->p->c;
	const Part *node = g->type;
	int R = node->node.scale_up_racks, S = node->node.scale_up_switch_racks;
	int T = tray_count(node);
	g->domain_racks = R;
	g->switch_racks = S;
	const Value *rv = field_value(node->decl, FLD_NODE_SCALE_UP_RACKS);
	const Value *sv = field_value(node->decl, FLD_NODE_SCALE_UP_SWITCH_RACKS);
	Loc rloc = rv ? rv->loc : node->loc, sloc = sv ? sv->loc : node->loc;
	bool ok = true;
	if (g->domain_nodes % R) {
		design_spec_error(d, rloc, "a scale-up domain of %d '%s' nodes does not divide evenly over "
				    "%d racks",
			   g->domain_nodes, node->name, R);
		ok = false;
	}
	if (S > 0 && T % S) {
		design_spec_error(d, sloc, "the %d scale-up switches of a '%s' domain do not divide evenly "
				    "over %d switch racks",
			   T, node->name, S);
		ok = false;
	} else if (S == 0 && T % R) {
		design_spec_error(d, rloc, "the %d scale-up switches of a '%s' domain do not divide evenly "
				    "over its %d racks; give them racks of their own "
				    "(scale_up_switch_racks)",
			   T, node->name, R);
		ok = false;
	}
	/* Switches of two models in a domain over racks is how a two-tier scale-up network reads
	 * (NVL576: NVLink trays in each rack and a tier of NVLink spines); clusterc wires one tier,
	 * every accelerator to every switch, which would be another design. */
	for (int i = 1; i < node->node.ntrays; i++)
		if (node->node.trays[i].part != node->node.trays[0].part) {
			const Value *tv = field_value(node->decl, FLD_NODE_SCALE_UP_SWITCHES);
			d->spec_errors++;
			if (!d->quiet) {
				Diag *dg = diag_error(c, tv ? tv->loc : node->loc,
						      "'%s' lists scale-up switches of several models over "
						      "several racks, as a two-tier scale-up network would; "
						      "clusterc wires one tier (every accelerator to every "
						      "switch of its domain): two tiers of scale-up switches "
						      "are not supported yet",
						      node->name);
				diag_set_code(dg, "unsupported");
			}
			ok = false;
			break;
		}
	if (S > 0 && T == 0) {
		design_spec_error(d, sloc, "'%s' asks for %d scale-up switch racks but lists no "
				    "scale_up_switches",
			   node->name, S);
		ok = false;
	}
	if (g->count % g->domain_nodes)
		design_spec_error(d, g->loc, "%d '%s' nodes do not fill whole scale-up domains of %d",
			   g->count, node->name, g->domain_nodes);
	int domains = (g->count + g->domain_nodes - 1) / g->domain_nodes;
	if (!ok) { /* a spec error stops the build: plan one domain a rack meanwhile */
		g->domain_racks = 1;
		g->switch_racks = 0;
		g->per_rack = g->domain_nodes;
		g->racks = domains;
		return;
	}
	int per = g->domain_nodes / R;
	g->per_rack = per;
	g->racks = domains * (R + S);
	/* The heaviest share of the nodes' racks, and of the switch racks. */
	double worst_u = 0, worst_p = 0;
	for (int j = 0; j < R; j++) {
		double tu = 0, tp = 0;
		if (S == 0)
			trays_between(node, j * (T / R), (j + 1) * (T / R), &tu, &tp);
		worst_u = fmax(worst_u, per * node->height + tu);
		worst_p = fmax(worst_p, per * node->power + tp);
	}
	if (z->nodes_per_rack > 0 && z->nodes_per_rack != per)
		design_spec_error(d, z->npr_loc, "nodes_per_rack %d; '%s' stands %d nodes in each of a "
					  "scale-up domain's %d racks",
			   z->nodes_per_rack, node->name, per, R);
	if (fits(usable, cap, worst_u, worst_p) < 1) {
		const char *what = arena_printf(c->arena, "one rack's share of a scale-up domain (%d "
							  "'%s' nodes%s)",
						per, node->name,
						S == 0 && T ? " and their switches" : "");
		no_fit(d, g, z, what, worst_u, worst_p, "");
	}
	for (int s = 0; s < S; s++) {
		double tu, tp;
		trays_between(node, s * (T / S), (s + 1) * (T / S), &tu, &tp);
		if (fits(usable, cap, tu, tp) < 1) {
			const char *what = arena_printf(c->arena, "one switch rack of a '%s' scale-up "
								  "domain (%d switches)",
							node->name, T / S);
			no_fit(d, g, z, what, tu, tp, "");
			break;
		}
	}
}

/* The nodes a rack must hold for a fabric's own layout (a torus's block: topology.c's
 * rack_nodes), the first fabric of the cluster that asks; 0 when none does. *loc is the
 * topology that asks. */
static int topology_rack_nodes(const Design *d, Loc *loc)
{
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++) {
		if (fv->items[i]->kind != VAL_REF)
			continue;
		/* rack_nodes reads no parameter that can be an open choice (a torus's dims and
		 * block cannot be): the optimizer sees only the topology's kind read */
		const Value *topo = field_value_shallow(fv->items[i]->ref, FLD_FABRIC_TOPOLOGY);
		if (!topo || topo->kind != VAL_CTOR || topo->ctor->topology < 0)
			continue;
		int n = topology_families[topo->ctor->topology].rack_nodes(topo);
		if (n > 0) {
			*loc = topo->loc;
			return n;
		}
	}
	return 0;
}

static void plan_group(Design *d, NodeGroup *g, const ZoneInst *z)
{
	double usable = z->usable, cap = z->node_cap;
	Ctx *c = d->p->c;
	const Part *node = g->type;
	int accels = node->node.accelerators;
	int domain = node->node.scale_up_domain;
	g->domain_nodes = 1;
	if (accels > 0 && domain > accels) {
		if (domain % accels) {
			design_spec_error(d, field_value(node->decl, FLD_NODE_SCALE_UP_DOMAIN)->loc,
				   "a scale-up domain of %d accelerators is not a whole number of '%s' "
				   "nodes (%d accelerators each)",
				   domain, node->name, accels);
		} else {
			g->domain_nodes = domain / accels;
		}
	}
	g->domain_racks = 1;
	g->switch_racks = 0;
	if (node->node.scale_up_racks > 1 || node->node.scale_up_switch_racks > 0) {
		if (g->domain_nodes > 1) {
			plan_multi_rack(d, g, z);
			return;
		}
		const Value *v = field_value(node->decl, node->node.scale_up_racks > 1
								 ? FLD_NODE_SCALE_UP_RACKS
								 : FLD_NODE_SCALE_UP_SWITCH_RACKS);
		design_spec_error(d, v->loc, "'%s' spreads a scale-up domain over racks, but its domain is "
				      "the node itself: set scale_up_domain to more accelerators than "
				      "the node's %d",
			   node->name, accels);
	}
	double sw_u = 0, sw_p = 0;
	for (int i = 0; g->domain_nodes > 1 && i < node->node.ntrays; i++) {
		sw_u += node->node.trays[i].count * node->node.trays[i].part->height;
		sw_p += node->node.trays[i].count * node->node.trays[i].part->power;
	}
	double dom_u = g->domain_nodes * node->height + sw_u;
	double optics = nic_optics(d, node->node.nics, node->node.nnics);
	double dom_p = g->domain_nodes * (node->power + optics) + sw_p;
	int domains = fits(usable, cap, dom_u, dom_p);
	Loc want_loc = z->npr_loc;
	int want = z->nodes_per_rack > 0 ? z->nodes_per_rack : topology_rack_nodes(d, &want_loc);
	if (want > 0) {
		const char *what = z->nodes_per_rack > 0
					   ? arena_printf(c->arena, "nodes_per_rack %d", want)
					   : arena_printf(c->arena, "a torus block of %d nodes", want);
		if (want % g->domain_nodes) {
			design_spec_error(d, want_loc, "%s does not hold whole scale-up domains of %d '%s' nodes",
				   what, g->domain_nodes, node->name);
		} else if (want / g->domain_nodes > domains && domains > 0) {
			double need_p = want / g->domain_nodes * dom_p, need_u = want / g->domain_nodes * dom_u;
			bool by_u = need_u > usable + 1e-9;
			design_violation(d, want_loc, by_u ? need_u / usable - 1 : need_p / cap - 1,
					 z->rack->name_loc, "rack type declared here",
					 "%d '%s' nodes in a rack need %s; rack '%s' allows %s", want,
					 node->name,
					 by_u ? arena_printf(c->arena, "%.0f U", need_u / 0.04445)
					 : optics > 0
						 ? arena_printf(c->arena, "%s with the optics their NICs may carry (%s a node)",
								fmt_qty(d, need_p, power_dim()),
								fmt_qty(d, optics, power_dim()))
						 : fmt_qty(d, need_p, power_dim()),
					 z->rack->name,
					 by_u ? arena_printf(c->arena, "%.0f U", usable / 0.04445)
					      : fmt_qty(d, cap, power_dim()));
		} else {
			domains = want / g->domain_nodes;
		}
	}
	/* Under the zone's floor loading too, when the node and rack weights are known (the
	 * racks of a forced nodes_per_rack are weighed by heat.c instead: a rack over the floor's
	 * rating is then a Violation at the zone). */
	int by_mass = mass_fit(z, node, g->domain_nodes);
	if (want <= 0 && by_mass >= 1 && by_mass < domains)
		domains = by_mass;
	if (domains <= 0) {
		const char *what =
			g->domain_nodes > 1
				? arena_printf(c->arena, "one scale-up domain of %d '%s' nodes",
					       g->domain_nodes, node->name)
				: arena_printf(c->arena, "each '%s' node", node->name);
		no_fit(d, g, z, what, dom_u, dom_p,
		       g->domain_nodes > 1 ? " (scale_up_racks spreads a domain over racks)" : "");
		domains = 1;
	}
	g->per_rack = domains * g->domain_nodes;
	if (g->count % g->domain_nodes)
		design_spec_error(d, g->loc, "%d '%s' nodes do not fill whole scale-up domains of %d",
			   g->count, node->name, g->domain_nodes);
	g->racks = (g->count + g->per_rack - 1) / g->per_rack;
}

/* The switch racks' type: the cluster's network_rack, else std.racks' rack48_network when the
 * spec has it in scope, else the rack type (the first generation's behaviour, for specs that
 * import no rack library). Its cap is the lower of its power class and what its own cooling
 * removes; its max_cables bounds the cables of a switch rack (place.c packs under it). A
 * network rack's power class and cooling must be fixed: the optimizer chooses only the node
 * racks'. */
static void plan_network_rack(Design *d)
{
	if (d->zoned) {
		/* The zone holding the fabrics gives the switch racks their type, cooling and
		 * class: chosen like any zone's. */
		const ZoneInst *z = &d->zones[d->net_zone];
		const Value *nv = field_value(d->cluster, FLD_CLUSTER_NETWORK_RACK);
		if (nv)
			design_spec_error(d, nv->loc, "network_rack is for a cluster without zones: with zones, "
					       "the switch racks are the racks of the zone that holds the "
					       "fabrics");
		d->net_rack = z->rack, d->net_cooling = z->cooling;
		d->net_rack_type = z->rack_type, d->net_cooling_type = z->cooling_type;
		d->net_rack_limit = z->limit, d->net_rack_cap = z->cap;
		double cables;
		d->net_rack_cables = field_num_set(d->net_rack, FLD_RACK_MAX_CABLES, &cables) ? (int)cables : 0;
		d->rack_cables = field_num_set(d->rack, FLD_RACK_MAX_CABLES, &cables) ? (int)cables : 0;
		return;
	}
	Decl *nr = field_value(d->cluster, FLD_CLUSTER_NETWORK_RACK) ? field_ref(d->cluster, FLD_CLUSTER_NETWORK_RACK)
								       : NULL;
	for (int i = 0; !nr && i < d->p->decls.n; i++) {
		Decl *x = d->p->decls.v[i];
		if (x->kind == KIND_RACK && strcmp(x->name, "rack48_network") == 0)
			nr = x;
	}
	const Value *cool = nr ? field_value(nr, FLD_RACK_COOLING) : NULL;
	double limit;
	if (nr && nr != d->rack && (!cool || cool->kind != VAL_REF || (field_value(nr, FLD_RACK_POWER_LIMIT) &&
									 !field_num_set(nr, FLD_RACK_POWER_LIMIT, &limit)))) {
		design_spec_error(d, nr->name_loc, "network rack '%s' needs a fixed power_limit and cooling "
					    "(the optimizer chooses only the node racks')",
			   nr->name);
		nr = NULL;
	}
	if (!nr || nr == d->rack) {
		d->net_rack = d->rack, d->net_cooling = d->cooling;
		d->net_rack_type = d->rack_type, d->net_cooling_type = d->cooling_type;
		d->net_rack_limit = d->rack_limit, d->net_rack_cap = d->rack_cap;
	} else {
		d->net_rack = nr;
		d->net_cooling = cool->ref;
		d->net_rack_type = parts_of(d, nr);
		d->net_cooling_type = parts_of(d, cool->ref);
		if (!field_num_set(nr, FLD_RACK_POWER_LIMIT, &d->net_rack_limit))
			d->net_rack_limit = INFINITY;
		d->net_rack_cap = fmin(d->net_rack_limit, d->net_cooling_type->cooling.max_rack_power);
	}
	if (d->net_rack_type->height_u != d->rack_type->height_u) {
		/* Runs (cable.c) and drawings take one rack height. */
		design_spec_error(d, d->net_rack->name_loc, "network rack '%s' is %d U and rack '%s' %d U: "
						     "give them one height",
			   d->net_rack->name, d->net_rack_type->height_u, d->rack->name,
			   d->rack_type->height_u);
	}
	double cables;
	d->net_rack_cables = field_num_set(d->net_rack, FLD_RACK_MAX_CABLES, &cables) ? (int)cables : 0;
	d->rack_cables = field_num_set(d->rack, FLD_RACK_MAX_CABLES, &cables) ? (int)cables : 0;
}

/* The racks of the design in force; the open choices read go to `pack` (racks_plan), but for
 * the node groups' models and counts, which go to `groups`. */
static int plan_racks(Design *d, unsigned long long *groups, unsigned long long *pack)
{
	Ctx *c = d->p->c;
	int before = d->spec_errors;
	field_reads = pack;
	zone_plan(d);
	plan_network_rack(d);
	/* ToRs in server racks (a fabric's leaf_placement = server_rack) take their U space and
	 * power from every server rack, one per plane: a rack of a ToR serving several racks
	 * keeps the room free too, so that racks of a group are alike. */
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++) {
		const Decl *fd = fv->items[i]->ref;
		/* the placement first: a fabric's switch and planes matter here only with ToRs */
		if (field_enum(fd, FLD_FABRIC_LEAF_PLACEMENT) != LEAF_SERVER_RACK)
			continue;
		const Value *sw = field_value(fd, FLD_FABRIC_SWITCH);
		const Value *pl = field_value(fd, FLD_FABRIC_PLANES);
		if (!sw || sw->kind != VAL_REF)
			continue;
		const Part *tor = parts_of(d, sw->ref);
		double planes = pl && pl->kind == VAL_QTY ? pl->q.v : 1;
		for (int zi = 0; zi < d->nzones; zi++) {
			ZoneInst *z = &d->zones[zi];
			/* the ToR's cages at the most a transceiver in them draws, as for nodes */
			double tor_optics = tor->kind == KIND_SWITCH
						    ? tor->sw.cages * port_bound(d, fd, 0, tor->sw.cage, false)
						    : 0;
			z->usable -= planes * tor->height;
			z->node_cap -= planes * (tor->power + tor_optics);
			if (z->usable > 1e-9 && z->node_cap > 1e-6)
				continue;
			const Value *lp = field_value(fd, FLD_FABRIC_LEAF_PLACEMENT);
			design_violation(d, lp ? lp->loc : fd->name_loc, 1, z->rack->name_loc,
					 "rack type declared here",
					 "%.0f ToR%s of '%s' (%.0f U, %s each) leave%s no room for nodes in "
					 "rack '%s': use leaf_placement = network_rack, or a larger rack",
					 planes, planes == 1 ? "" : "s", tor->name, tor->height / 0.04445,
					 fmt_qty(d, tor->power, power_dim()), planes == 1 ? "s" : "",
					 z->rack->name);
			z->usable = z->usable > 1e-9 ? z->usable : 1e-9;
			z->node_cap = z->node_cap > 1e-6 ? z->node_cap : 1e-6;
		}
	}

	field_reads = groups;
	const Value *nodes = field_value(d->cluster, FLD_CLUSTER_NODES);
	field_reads = pack;
	int n = nodes->kind == VAL_LIST ? nodes->n : 1;
	if (!d->groups || d->ngroups != n)
		d->groups = arena_alloc(c->arena, sizeof(NodeGroup) * (size_t)n);
	d->ngroups = n;
	/* Every node, accelerator and port is an instance: past the limits the design would not
	 * fit in memory (1,000,000 GPUs take some 600 MiB, docs/performance.md), and the counts
	 * are ints. */
	double all_nodes = 0, all_accel = 0;
	for (int i = 0; i < n; i++) {
		const Value *cv = nodes->kind == VAL_LIST ? nodes->items[i] : nodes;
		all_nodes += cv->count->q.v;
		all_accel += cv->count->q.v * parts_of(d, cv->ref)->node.accelerators;
		if (all_nodes > CLUSTER_MAX_NODES || all_accel > CLUSTER_MAX_ACCELERATORS) {
			design_spec_error(d, cv->loc, "cluster '%s' has %.0f nodes with %.0f accelerators; "
					       "clusterc designs clusters of up to %d nodes and %d "
					       "accelerators",
				   d->cluster->name, all_nodes, all_accel, CLUSTER_MAX_NODES,
				   CLUSTER_MAX_ACCELERATORS);
			d->ngroups = 0; /* nothing to plan: later passes see no nodes */
			return d->spec_errors - before;
		}
	}
	int racks = 0;
	for (int i = 0; i < n; i++) {
		const Value *cv = nodes->kind == VAL_LIST ? nodes->items[i] : nodes;
		NodeGroup *g = &d->groups[i];
		*g = (NodeGroup){.type = parts_of(d, cv->ref), .count = (int)cv->count->q.v,
				 .zone = zone_of(d, cv->ref, cv->loc), .loc = cv->loc};
	}
	/* Hot spares (spares.c): nodes added to the largest group when its domain is the node,
	 * trays reserved inside its domains when a domain spans nodes. */
	int sg = spares_group(d);
	for (int i = 0; i < n; i++) {
		NodeGroup *g = &d->groups[i];
		if (i == sg)
			spares_size(g, (int)field_num(d->cluster, FLD_CLUSTER_HOT_SPARES));
		d->vzone = g->zone + 1;
		plan_group(d, g, &d->zones[g->zone]);
		d->vzone = 0;
		racks += g->racks;
		d->zones[g->zone].racks += g->racks;
		d->zones[g->zone].nodes += g->count;
	}
	const Value *st = field_value(d->cluster, FLD_CLUSTER_STORAGE);
	int nst = st ? (st->kind == VAL_LIST ? st->n : 1) : 0;
	if (!d->storage_zone)
		d->storage_zone = arena_alloc(c->arena, sizeof(int) * (size_t)(d->nstorage_kinds + nst + 1));
	memset(d->storage_zone, 0, sizeof(int) * (size_t)(nst + 1));
	for (int i = 0; i < nst; i++) {
		const Value *sv = st->kind == VAL_LIST ? st->items[i] : st;
		if (sv->count->q.v > CLUSTER_MAX_NODES) {
			design_spec_error(d, sv->loc, "cluster '%s' has %.0f '%s' storage units; clusterc "
					       "designs up to %d of each",
				   d->cluster->name, sv->count->q.v, sv->ref->name, CLUSTER_MAX_NODES);
			return d->spec_errors - before;
		}
		const Part *unit = parts_of(d, sv->ref);
		ZoneInst *z = &d->zones[d->storage_zone[i] = zone_of(d, sv->ref, sv->loc)];
		int per = fits(z->usable, z->node_cap, unit->height,
			       unit->power + nic_optics(d, unit->storage.nics, unit->storage.nnics));
		if (per <= 0) {
			design_violation(d, sv->loc, 1, z->rack->name_loc, "rack type declared here",
					 "storage '%s' does not fit rack '%s'", sv->ref->name, z->rack->name);
			per = 1;
		}
		int sr = ((int)sv->count->q.v + per - 1) / per;
		racks += sr;
		z->racks += sr;
	}
	d->t.racks = racks;

	return d->spec_errors - before;
}

/* With the optimizer's tracking on (field_reads), what the groups' models and counts read goes
 * to the caller's set; what the packing reads (rack type, power, cooling, nodes per rack, ToRs)
 * to Design.pack_reads, and to the caller's set too unless the candidate is evaluated for the
 * planner's inputs alone (plan_only), whose passes note it where they read a packing result. */
int racks_plan(Design *d)
{
	unsigned long long *sink = field_reads, pack = 0;
	int errors = plan_racks(d, sink, sink ? &pack : NULL);
	field_reads = sink;
	d->pack_reads = pack;
	if (!d->plan_only)
		field_note(pack);
	return errors;
}
