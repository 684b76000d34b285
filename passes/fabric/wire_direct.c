/*
 * wire_direct.c — the layouts that are not trees: dragonfly, torus, and the trays of scale-up
 * domains (docs/fabrics.md).
 *
 * Dragonfly (Kim, Dally, Scott, Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology",
 * ISCA 2008): router i of group x is router x·a + i. Its ports: p terminals first, then a−1
 * local ports (to the other routers of the group, in index order), then h global ports.
 * Terminal e goes to router e / p, port e mod p. Global links use the "consecutive"
 * arrangement (Camarero, Vallejo, Beivide, ACM TACO 2014): a group's global ports are numbered
 * q = i·h + t; the peer at offset o = (y − x) mod g owns ports (o−1)·m … o·m−1 of group x, and
 * link t of the pair joins port (o−1)·m + t of x with port (g−o−1)·m + t of y, m global links
 * per pair of groups.
 *
 * Torus: the n-th node on the fabric (nodes without its NIC are not counted) sits at
 * (n mod X, n / X mod Y, n / XY); in dimension i it uses its rails 2i (towards +1) and 2i+1
 * (towards −1), and each node links to its + neighbour, wrapping around.
 *
 * Scale-up domains (GB200 NVL72): each domain's switch trays become switch instances. Their
 * links sit in the rack's backplane: clusterc counts them (every accelerator to every tray,
 * ports/accelerators each) rather than listing a million of them; they are not cables.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

void wire_dragonfly(Design *d, FabricInst *f, int fi)
{
	int p = f->df_p, a = f->df_a, h = f->df_h, g = f->df_g, m = f->df_links_per_pair;
	Endpoint *eps = xmalloc(sizeof(Endpoint) * (size_t)(f->endpoints / f->planes + 1));
	for (int pl = 0; pl < f->planes; pl++) {
		int r0 = d->nswitches;
		for (int r = 0; r < a * g; r++) {
			SwitchInst *s = add_switch(d, f, fi, ST_ROUTER, pl, r);
			s->group = r / a;
		}
		int n = plane_endpoints(d, f, pl, eps);
		for (int e = 0; e < n; e++)
			add_link(d, eps[e].end, (End){END_SWITCH, r0 + e / p, e % p}, f->link_speed,
				 LT_TERMINAL, pl, -1, fi);
		/* Local: a full mesh in each group. */
		for (int x = 0; x < g; x++)
			for (int i = 0; i < a; i++)
				for (int j = i + 1; j < a; j++)
					add_link(d, (End){END_SWITCH, r0 + x * a + i, p + j - 1},
						 (End){END_SWITCH, r0 + x * a + j, p + i}, f->link_speed,
						 LT_LOCAL, pl, -1, fi);
		/* Global: m links between every pair of groups, consecutive arrangement. */
		for (int x = 0; x < g; x++)
			for (int y = x + 1; y < g; y++) {
				int ox = y - x, oy = g - ox;
				for (int t = 0; t < m; t++) {
					int qx = (ox - 1) * m + t, qy = (oy - 1) * m + t;
					add_link(d, (End){END_SWITCH, r0 + x * a + qx / h, p + a - 1 + qx % h},
						 (End){END_SWITCH, r0 + y * a + qy / h, p + a - 1 + qy % h},
						 f->link_speed, LT_GLOBAL, pl, -1, fi);
				}
			}
	}
	free(eps);
}

void wire_torus(Design *d, FabricInst *f, int fi)
{
	int rpp = f->rails / f->planes;
	int X = f->dims[0], Y = f->ndims > 1 ? f->dims[1] : 1, Z = f->ndims > 2 ? f->dims[2] : 1;
	int ports[FABRIC_MAX_RAILS], mp[FABRIC_MAX_RAILS];
	/* Positions count only the nodes on this fabric (a cluster may list nodes without its
	 * NIC): at[i] is the node at position i. */
	int *at = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1)), count = 0;
	for (int n = 0; n < d->nnodes; n++)
		if (node_fabric_ports(d, n, f, ports, FABRIC_MAX_RAILS) >= f->rails)
			at[count++] = n;
	for (int pl = 0; pl < f->planes; pl++) {
		for (int i = 0; i < count && i < X * Y * Z; i++) {
			int n = at[i];
			int c[3] = {i % X, i / X % Y, i / (X * Y)};
			int size[3] = {X, Y, Z};
			node_fabric_ports(d, n, f, ports, FABRIC_MAX_RAILS);
			for (int k = 0; k < f->ndims; k++) {
				int nc[3] = {c[0], c[1], c[2]};
				nc[k] = (c[k] + 1) % size[k];
				int pos = nc[0] + nc[1] * X + nc[2] * X * Y;
				if (pos >= count)
					continue; /* sizing makes X·Y·Z the node count; the verifier would say */
				int m = at[pos];
				node_fabric_ports(d, m, f, mp, FABRIC_MAX_RAILS);
				add_link(d, (End){END_NODE, n, ports[pl * rpp + 2 * k]},
					 (End){END_NODE, m, mp[pl * rpp + 2 * k + 1]}, f->link_speed, LT_TORUS,
					 pl, pl * rpp + 2 * k, fi);
			}
		}
	}
	free(at);
}

void wire_scale_up(Design *d, ScaleUpInst *s)
{
	s->first_switch = d->nswitches;
	const Part *node = s->node;
	int width = s->domains >= 1000 ? 4 : 3;
	for (int dom = 0; dom < s->domains; dom++) {
		int k = 0;
		for (int j = 0; j < node->node.ntrays; j++) {
			const PartCount *tc = &node->node.trays[j];
			for (int u = 0; u < tc->count; u++, k++) {
				SwitchInst *t = &d->switches[d->nswitches++];
				*t = (SwitchInst){.model = tc->part, .fabric = -1, .tier = ST_SCALE_UP,
						  .plane = 0, .su = -1, .rail = -1, .group = dom, .index = k,
						  .breakout = 1, .rack = -1};
				t->name = arena_printf(d->c->arena, "%s-nvl%0*d-sw%d", node->name, width,
						       dom + 1, k + 1);
				t->radix = tc->part->sw.ports;
				t->used = t->radix; /* every port to an accelerator of the domain */
			}
		}
	}
	s->nswitches = d->nswitches - s->first_switch;
}
