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
 */
#include "fabric.h"

#include <math.h>

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
}
