/*
 * wire.c — every fabric port by port: switch instances, the devices that are not nodes, and
 * each link with the device and port at both ends. The shape comes from fabric.c's sizing;
 * this file only lays it out, deterministically (docs/fabrics.md gives the rules).
 *
 * Fat tree, one plane after the other:
 *  - Node to leaf. Rail-optimized: the n-th node on the fabric (nodes without the fabric's
 *    NIC are not counted) is in scalable unit s = n / S, slot n % S, and its rail r (the r-th
 *    port of the fabric's NIC, within the plane) goes to leaf s·R + r, port n % S. Extra
 *    devices (fabric managers, storage) take the free slots after the last node, rail after
 *    rail. Otherwise endpoints are numbered node-major and fill the leaves' down ports in
 *    order.
 *  - Leaf to spine (2 tiers): up link u of leaf l goes to spine u mod S, on that spine's port
 *    l·(up/S) + u div S; every leaf reaches every spine with up/S links.
 *  - Leaf to pod spine (3 tiers): leaf l of pod p = l / P (P leaves a pod) sends up link u to
 *    pod spine (p, u), port l mod P. Pod spine (p, j) sends its up link v to core v mod C of
 *    core group j, port p·(up₂/C) + v div C.
 * Ports count from 0; a leaf's down ports come first, then its up ports. Switch names are
 * FABRIC[-pPLANE]-TIER-NNN, numbered from 1 in the order above.
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digits(int n)
{
	int w = 3;
	for (int x = 1000; n >= x && w < 9; x *= 10)
		w++;
	return w;
}

/* A new switch of fabric fi in tier t; its name is FABRIC[-pPLANE]-TIER-NNN. */
SwitchInst *add_switch(Design *d, FabricInst *f, int fi, SwitchTier t, int plane, int index)
{
	SwitchInst *s = &d->switches[d->nswitches++];
	int width = digits(f->per_plane[t]);
	const char *tier = switch_tier_names[t];
	s->name = f->planes > 1 ? arena_printf(d->p->c->arena, "%s-p%d-%s-%0*d", f->decl->name,
					       plane + 1, tier, width, index + 1)
				: arena_printf(d->p->c->arena, "%s-%s-%0*d", f->decl->name, tier, width,
					       index + 1);
	s->model = f->switch_model;
	s->fabric = fi;
	s->tier = t;
	s->plane = plane;
	s->index = index;
	s->su = s->rail = s->group = -1;
	s->radix = f->radix;
	s->breakout = f->breakout;
	s->rack = -1;
	return s;
}

void add_link(Design *d, End a, End z, double speed, LinkTier tier, int plane, int rail, int fi)
{
	LinkInst *l = &d->links[d->nlinks++];
	*l = (LinkInst){a, z, speed, (uint8_t)tier, (uint8_t)plane, (int16_t)rail, fi};
	if (a.kind == END_SWITCH)
		d->switches[a.dev].used++;
	if (z.kind == END_SWITCH)
		d->switches[z.dev].used++;
}

static End sw_end(int dev, int port)
{
	return (End){END_SWITCH, dev, port};
}

/* The fabric's NIC ports of node n, in order (its rails): their indices into Design.ports.
 * Fabrics on the same NIC model take its ports in turn, nic_first on; at most f->rails. */
int node_fabric_ports(const Design *d, int n, const FabricInst *f, int *out, int max)
{
	int end = n + 1 < d->nnodes ? d->nodes[n + 1].first_port : d->nports;
	int k = 0, skip = f->nic_first;
	if (max > f->rails)
		max = f->rails;
	for (int i = d->nodes[n].first_port; i < end && k < max; i++)
		if (d->ports[i].nic == f->nic && skip-- <= 0)
			out[k++] = i;
	return k;
}

/* The endpoints of one plane, in the order the layout numbers them. */
int plane_endpoints(Design *d, FabricInst *f, int plane, Endpoint *out)
{
	int rpp = f->rails / f->planes, k = 0;
	int ports[FABRIC_MAX_RAILS];
	for (int n = 0; n < d->nnodes; n++) {
		int np = node_fabric_ports(d, n, f, ports, FABRIC_MAX_RAILS);
		if (np == 0)
			continue;
		for (int r = 0; r < rpp && plane * rpp + r < np; r++)
			out[k++] = (Endpoint){{END_NODE, n, ports[plane * rpp + r]}, r};
	}
	/* Extra devices' ports, dealt round-robin over the planes. */
	int j = 0, in_plane = 0;
	for (int e = f->first_extra; e < f->first_extra + f->nextras; e++)
		for (int p = 0; p < d->extras[e].nports; p++, j++)
			if (j % f->planes == plane)
				out[k++] = (Endpoint){{END_EXTRA, e, p}, in_plane++ % rpp};
	return k;
}

void wire_fat_tree(Design *d, FabricInst *f, int fi)
{
	int rpp = f->rails / f->planes;
	Endpoint *eps = xmalloc(sizeof(Endpoint) * (size_t)(f->endpoints / f->planes + 1));
	for (int pl = 0; pl < f->planes; pl++) {
		int n_eps = plane_endpoints(d, f, pl, eps);
		int leaf0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_LEAF]; i++) {
			SwitchInst *s = add_switch(d, f, fi, ST_LEAF, pl, i);
			if (f->rail_optimized) {
				s->su = i / rpp;
				s->rail = pl * rpp + i % rpp;
			}
			if (f->tiers == 3)
				s->group = i / f->pod_leaves;
		}
		int spine0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_SPINE]; i++)
			add_switch(d, f, fi, ST_SPINE, pl, i);
		int core0 = d->nswitches;
		for (int i = 0; i < f->per_plane[ST_CORE]; i++) {
			SwitchInst *s = add_switch(d, f, fi, ST_CORE, pl, i);
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
			} else if (f->rail_optimized) {
				/* Nodes in their unit's slot; extras in the free slots after them. */
				int pos = ep->end.kind == END_NODE ? slot : slot + 1 + extra_seen++ / rpp;
				leaf = pos / f->su_nodes * rpp + ep->rail;
				port = pos % f->su_nodes;
			} else {
				leaf = e / f->down[0], port = e % f->down[0];
			}
			int rail = f->rail_optimized || f->tiers == 1 ? pl * rpp + ep->rail : -1;
			add_link(d, ep->end, sw_end(leaf0 + leaf, port), f->link_speed, LT_NODE_LEAF, pl, rail, fi);
		}
		if (f->tiers == 2) {
			int per = f->spine_links, S = f->per_plane[ST_SPINE];
			for (int l = 0; l < f->per_plane[ST_LEAF]; l++) {
				int rail = f->rail_optimized ? d->switches[leaf0 + l].rail : -1;
				for (int u = 0; u < f->up[0]; u++)
					add_link(d, sw_end(leaf0 + l, f->down[0] + u),
					     sw_end(spine0 + u % S, l * per + u / S), f->link_speed,
					     LT_LEAF_SPINE, pl, rail, fi);
			}
		} else if (f->tiers == 3) {
			int P = f->pod_leaves, up = f->up[0], C = f->core_per_group;
			for (int l = 0; l < f->per_plane[ST_LEAF]; l++) {
				int pod = l / P, rail = f->rail_optimized ? d->switches[leaf0 + l].rail : -1;
				for (int u = 0; u < up; u++)
					add_link(d, sw_end(leaf0 + l, f->down[0] + u), sw_end(spine0 + pod * up + u, l % P),
					     f->link_speed, LT_LEAF_SPINE, pl, rail, fi);
			}
			int per_core = f->up[1] / C;
			for (int pod = 0; pod < f->pods; pod++)
				for (int j = 0; j < up; j++)
					for (int v = 0; v < f->up[1]; v++)
						add_link(d, sw_end(spine0 + pod * up + j, f->down[1] + v),
						     sw_end(core0 + j * C + v % C, pod * per_core + v / C),
						     f->link_speed, LT_SPINE_CORE, pl, -1, fi);
			for (int i = 0; i < f->per_plane[ST_SPINE]; i++)
				d->switches[spine0 + i].group = i / up;
		}
	}
	free(eps);
}

/* Extra devices of every fabric (fabric.endpoints): one instance per unit. */
static void add_extras(Design *d)
{
	for (int fi = 0; fi < d->nfabrics; fi++) {
		FabricInst *f = &d->fabrics[fi];
		f->first_extra = d->nextras;
		const Value *ev = field_value(f->decl, FLD_FABRIC_ENDPOINTS);
		for (int i = 0; ev && i < (ev->kind == VAL_LIST ? ev->n : 1); i++) {
			const Value *cv = ev->kind == VAL_LIST ? ev->items[i] : ev;
			const Part *dev = design_part(d, cv->ref);
			int n = dev->kind == KIND_NODE ? dev->node.nnics : dev->storage.nnics;
			const PartCount *nics = dev->kind == KIND_NODE ? dev->node.nics : dev->storage.nics;
			double speed = f->link_speed;
			/* The ports of its first NIC model, as sizing counts them (fabric.c). */
			int ports = 0;
			for (int k = 0; k < n; k++)
				if (nics[k].part == nics[0].part)
					ports += nics[k].count * nics[k].part->nic.ports;
			if (ports == 0)
				ports = 1;
			for (int u = 0; u < (int)cv->count->q.v; u++) {
				ExtraInst *x = &d->extras[d->nextras++];
				*x = (ExtraInst){dev, arena_printf(d->c->arena, "%s-%s-%d", f->decl->name,
								   dev->name, u + 1),
						 fi, ports, speed, -1, 0};
			}
		}
		f->nextras = d->nextras - f->first_extra;
	}
}

int wire_fabrics(Design *d)
{
	int switches = 0, links = 0, extras = 0;
	for (int i = 0; i < d->nfabrics; i++) {
		switches += d->fabrics[i].switches;
		links += d->fabrics[i].links;
		const Value *ev = field_value(d->fabrics[i].decl, FLD_FABRIC_ENDPOINTS);
		for (int k = 0; ev && k < (ev->kind == VAL_LIST ? ev->n : 1); k++)
			extras += (int)(ev->kind == VAL_LIST ? ev->items[k] : ev)->count->q.v;
	}
	for (int i = 0; i < d->nscaleups; i++)
		switches += d->scaleups[i].nswitches;
	Arena *a = d->p->c->arena;
	d->switches = arena_alloc(a, sizeof(SwitchInst) * (size_t)(switches + 1));
	d->links = arena_alloc(a, sizeof(LinkInst) * (size_t)(links + 1));
	d->extras = arena_alloc(a, sizeof(ExtraInst) * (size_t)(extras + 1));
	d->nswitches = d->nlinks = d->nextras = 0;
	add_extras(d);
	for (int i = 0; i < d->nfabrics; i++) {
		FabricInst *f = &d->fabrics[i];
		if (!f->sized)
			continue;
		f->first_switch = d->nswitches;
		f->first_link = d->nlinks;
		if (!strcmp(f->topology->name, "fat_tree"))
			wire_fat_tree(d, f, i);
		else if (!strcmp(f->topology->name, "dragonfly"))
			wire_dragonfly(d, f, i);
		else
			wire_torus(d, f, i);
	}
	for (int i = 0; i < d->nscaleups; i++)
		wire_scale_up(d, &d->scaleups[i]);
	return 0;
}
