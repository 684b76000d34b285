/*
 * scale_up.c — scale-up domains (NVLink): inside a node (its NVSwitch chips are part of it), or
 * larger than a node (GB200 NVL72: 18 compute trays and 9 NVLink switch trays per rack), with
 * their switch trays and backplane links.
 *
 * Sizing counts the domains of each node group, the trays of a domain (the node's
 * scale_up_switches) and the links: every accelerator to every tray, ports / accelerators each
 * (the trays' ports must divide evenly). Wiring makes each tray a switch instance; its links sit
 * in the rack's backplane: clusterc counts them rather than listing a million of them, and they
 * are not cables.
 *
 * A domain over several racks (scale_up_racks, scale_up_switch_racks: Huawei CloudMatrix384,
 * Zuo et al. 2025, arXiv 2506.12708 §3) is wired node by node: each node takes ports / nodes
 * of every switch's ports (the switch's ports must divide evenly over the domain's nodes:
 * CloudMatrix's L2 UB switch has 48 ports, one per node), its scale-up port m on accelerator
 * m mod accelerators (the node's own first-tier switch chips are inside it, as NVSwitch chips
 * are inside a DGX). A link whose two ends stand in one rack is backplane and counted; one
 * between racks is a link instance that cable.c gives a cable (copper or optics, by reach).
 */
#include "fabric.h"

#include <math.h>

/* Which share of a multi-rack domain's racks switch k stands in (racks.c, elaborate.c): its
 * switch racks' slots follow the node racks'. */
static int tray_slot(const ScaleUpInst *s, int k)
{
	int over = s->switch_racks ? s->switch_racks : s->node_racks;
	int slot = k / (s->switches_per_domain / over);
	return s->switch_racks ? s->node_racks + slot : slot;
}

/* The links of one multi-rack domain between two of its racks; a switch whose ports do not
 * divide over the domain's nodes is a violation (and wires no cable). */
static int cables_per_domain(Design *d, const ScaleUpInst *s, Loc loc)
{
	const Part *node = s->node;
	int per_rack = s->domain_nodes / s->node_racks, n = 0, k = 0;
	for (int j = 0; j < node->node.ntrays; j++) {
		const Part *t = node->node.trays[j].part;
		if (t->sw.ports % s->domain_nodes) {
			design_violation(d, loc, 1, node->loc, NULL,
					 "the %d ports of scale-up switch '%s' do not divide evenly over "
					 "the %d nodes of a domain over several racks",
					 t->sw.ports, t->name, s->domain_nodes);
			return 0;
		}
		int q = t->sw.ports / s->domain_nodes;
		for (int c = 0; c < node->node.trays[j].count; c++, k++)
			for (int m = 0; m < s->domain_nodes; m++)
				if (m / per_rack != tray_slot(s, k))
					n += q;
	}
	return n;
}

/* Scale-up domains: inside a node (its NVSwitch chips are part of it), or bigger than a node
 * with switch trays and the links to them. */
void scale_up_size(Design *d)
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
		*s = (ScaleUpInst){.node = g->type, .group = i, .domains = g->count / g->domain_nodes,
				   .domain_nodes = g->domain_nodes,
				   .domain_accels = g->domain_nodes * accels,
				   .node_racks = g->domain_racks > 0 ? g->domain_racks : 1,
				   .switch_racks = g->switch_racks};
		s->bandwidth = isnan(g->type->node.scale_up_bw) ? 0 : g->type->node.scale_up_bw;
		if (!sw)
			continue;
		double trays = 0, all = 0;
		for (int j = 0; j < g->type->node.ntrays; j++) {
			const PartCount *t = &g->type->node.trays[j];
			trays += t->count;
			all += (double)t->count * t->part->sw.ports;
		}
		if (all * s->domains > (double)FABRIC_LINKS_MAX || trays * s->domains > FABRIC_COUNT_MAX) {
			design_violation(d, sw->loc, all * s->domains / (double)FABRIC_LINKS_MAX, g->type->loc,
					 NULL,
					 "%.0f scale-up switches with %.0f ports in all per domain, %d "
					 "domains: more than clusterc wires (%ld links)",
					 trays, all, s->domains, FABRIC_LINKS_MAX);
			d->nscaleups--;
			continue;
		}
		s->switches_per_domain = (int)trays;
		for (int j = 0; j < g->type->node.ntrays; j++)
			s->chips_per_domain += g->type->node.trays[j].count *
					       g->type->node.trays[j].part->sw.chips;
		int ports = (int)all;
		s->links_per_accel = s->domain_accels ? ports / s->domain_accels : 0;
		if (s->domain_accels && ports % s->domain_accels)
			design_violation(d, sw->loc, 1, g->type->loc, NULL,
					 "the %d ports of the scale-up switches do not divide evenly over "
					 "%d accelerators",
					 ports, s->domain_accels);
		s->nswitches = s->domains * s->switches_per_domain;
		s->nlinks = s->domains * s->domain_accels * s->links_per_accel;
		if (s->node_racks > 1 || s->switch_racks > 0)
			s->cables = s->domains * cables_per_domain(d, s, sw->loc);
	}
}

/* The links of multi-rack domains between racks: node m of a domain on ports [m q, (m + 1) q)
 * of each switch (q = ports / nodes), its scale-up port p (numbered over the switches in
 * order) on accelerator p mod accelerators. */
static void wire_between_racks(Design *d, const ScaleUpInst *s)
{
	const Part *node = s->node;
	const NodeGroup *g = &d->groups[s->group];
	int per_rack = s->domain_nodes / s->node_racks;
	int accels = node->node.accelerators;
	for (int dom = 0; dom < s->domains; dom++) {
		int sw = s->first_switch + dom * s->switches_per_domain;
		for (int m = 0; m < s->domain_nodes; m++) {
			int n = g->first_node + dom * s->domain_nodes + m;
			int port = 0, k = 0;
			for (int j = 0; j < node->node.ntrays; j++) {
				const Part *t = node->node.trays[j].part;
				int q = t->sw.ports / s->domain_nodes;
				for (int c = 0; c < node->node.trays[j].count; c++, k++, port += q) {
					if (m / per_rack == tray_slot(s, k))
						continue;
					for (int r = 0; r < q; r++) {
						int p = port + r;
						LinkInst *l = &d->links[d->nlinks++];
						*l = (LinkInst){
							.a = {END_ACCEL, d->nodes[n].first_accel + p % accels, p},
							.z = {END_SWITCH, sw + k, m * q + r},
							.speed = t->sw.port_speed, .tier = LT_SCALE_UP,
							.plane = 0, .rail = -1, .fabric = -1};
					}
				}
			}
		}
	}
}

void scale_up_wire(Design *d, ScaleUpInst *s)
{
	s->first_switch = d->nswitches;
	/* A domain of one node has no trays, though its node lists some (a type derived from
	 * an NVL72 tray with scale_up_domain = its own accelerators): sizing counted none. */
	if (s->switches_per_domain == 0) {
		s->nswitches = 0;
		return;
	}
	const Part *node = s->node;
	int first_domain = d->groups[s->group].first_domain;
	for (int dom = 0; dom < s->domains; dom++) {
		int k = 0;
		for (int j = 0; j < node->node.ntrays; j++) {
			const PartCount *tc = &node->node.trays[j];
			for (int u = 0; u < tc->count; u++, k++) {
				SwitchInst *t = &d->switches[d->nswitches++];
				*t = (SwitchInst){.model = tc->part, .fabric = -1, .tier = ST_SCALE_UP,
						  .plane = 0, .su = -1, .rail = -1, .group = dom, .index = k,
						  .breakout = 1, .rack = -1};
				t->name = arena_printf(d->c->arena, "%s-sw%d",
						       d->domain_names[first_domain + dom], k + 1);
				t->radix = tc->part->sw.ports;
				t->used = t->radix; /* every port to an accelerator of the domain */
			}
		}
	}
	s->nswitches = d->nswitches - s->first_switch;
	s->first_link = d->nlinks;
	if (s->cables)
		wire_between_racks(d, s);
}
