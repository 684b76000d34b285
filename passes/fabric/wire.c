/*
 * wire.c — every fabric port by port: the wiring base the families share (switch instances,
 * links, the endpoints of a plane in layout order), the devices that are not nodes, and each
 * fabric wired by its family (fat_tree.c, dragonfly.c, torus.c) and each scale-up domain
 * (scale_up.c). The shape comes from fabric.c's sizing; wiring only lays it out,
 * deterministically (docs/fabrics.md gives the rules). Switch names are
 * FABRIC[-pPLANE]-TIER-NNN, numbered from 1 in wiring order.
 */
#include "fabric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int wire_name_width(int n)
{
	int w = 3;
	for (int x = 1000; n >= x && w < 9; x *= 10)
		w++;
	return w;
}

/* FABRIC[-pPLANE]-TIER-NNN (-pPLANE when `planed`), the digits NNN at least `width`: the
 * text of arena_printf's "%s-p%d-%s-%0*d" and "%s-%s-%0*d" without printf's parsing (1,400
 * instructions a switch under callgrind: 24 M for the dragonfly's 16,416 switches). */
static char *switch_name(Arena *a, const char *fabric, bool planed, int plane, const char *tier,
			 int width, int number)
{
	if (number <= 0 || (planed && plane <= 0) || width > 15)
		return planed ? arena_printf(a, "%s-p%d-%s-%0*d", fabric, plane, tier, width, number)
			      : arena_printf(a, "%s-%s-%0*d", fabric, tier, width, number);
	char pt[16], nt[16]; /* the digits of plane and number > 0 (10 at most), width <= 15 */
	const char *p = planed ? buf_digits_before(pt + 16, (unsigned)plane, 0, '0') : NULL;
	const char *n = buf_digits_before(nt + 16, (unsigned)number, width, '0');
	size_t lf = strlen(fabric), lt = strlen(tier), lp = p ? (size_t)(pt + 16 - p) : 0;
	size_t ln = (size_t)(nt + 16 - n);
	char *s = arena_alloc(a, lf + (p ? 2 + lp : 0) + 1 + lt + 1 + ln + 1), *w = s;
	memcpy(w, fabric, lf), w += lf;
	if (p)
		memcpy(w, "-p", 2), memcpy(w + 2, p, lp), w += 2 + lp;
	*w++ = '-';
	memcpy(w, tier, lt), w += lt;
	*w++ = '-';
	memcpy(w, n, ln); /* the terminator: arena_alloc zeroes */
	return s;
}

/* A new switch of fabric fi in tier t; its name is FABRIC[-pPLANE]-TIER-NNN. */
SwitchInst *wire_add_switch(Design *d, FabricInst *f, int fi, SwitchTier t, int plane, int index)
{
	SwitchInst *s = &d->switches[d->nswitches++];
	int width = wire_name_width(f->per_plane[t]);
	const char *tier = ir_switch_tier_names[t];
	s->name = switch_name(d->c->arena, f->decl->name, f->planes > 1, plane + 1, tier, width,
			      index + 1);
	int ti = t == ST_SPINE ? 1 : t == ST_CORE ? 2 : 0; /* a tree's tier; a dragonfly's routers: 0 */
	bool tiered = f->family->tree && f->tier_model[ti];
	s->model = ir_tier_model(f, t);
	s->fabric = fi;
	s->tier = t;
	s->plane = plane;
	s->index = index;
	s->su = s->rail = s->group = s->pod = -1;
	s->radix = tiered ? f->tier_radix[ti] : f->radix;
	s->breakout = tiered ? f->tier_breakout[ti] : f->breakout;
	/* A leaf or spine with up links at another speed: its up ports at their own lanes. */
	s->split = s->up_breakout = 0;
	if (tiered && ti < 2 && ti < f->tiers - 1 &&
	    fabs(f->tier_speed[ti] - f->tier_speed[ti + 1]) > 1e-9 * f->tier_speed[ti]) {
		s->split = f->down[ti] + (ti == 0 ? f->backup_ports : 0); /* backups at the down lanes */
		s->up_breakout = f->tier_up_breakout[ti];
	}
	s->rack = -1;
	return s;
}


/* The fabric's NIC ports of node n, in order (its rails): their indices into Design.ports.
 * Fabrics on the same NIC model take its ports in turn, nic_first on; at most f->rails. */
int wire_node_ports(const Design *d, int n, const FabricInst *f, int *out, int max)
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

bool wire_group_on(const Design *d, const FabricInst *f, int g)
{
	const Part *node = d->groups[g].type;
	for (int i = 0; f->nic && node->kind == KIND_NODE && i < node->node.nnics; i++)
		if (node->node.nics[i].part == f->nic && node->node.nics[i].count > 0 && f->nic->nic.ports > 0)
			return true;
	return false;
}

/* A node's rail (its index among the fabric's ports of the node) that is rail r of plane
 * `plane`: by NIC, the plane's share in order; by port, every P-th from the plane's (port j of
 * every NIC on plane j when the NICs have P ports). */
int wire_plane_rail(const FabricInst *f, int plane, int r)
{
	return f->by_port ? r * f->planes + plane : plane * (f->rails / f->planes) + r;
}

/* The endpoints of one plane, in the order the layout numbers them. */
int wire_plane_endpoints(Design *d, FabricInst *f, int plane, Endpoint *out)
{
	int rpp = f->rails / f->planes, k = 0;
	int ports[FABRIC_MAX_RAILS];
	for (int n = 0; n < d->nnodes; n++) {
		int np = wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS);
		if (np == 0)
			continue;
		for (int r = 0; r < rpp; r++) {
			int at = wire_plane_rail(f, plane, r);
			if (at < np)
				out[k++] = (Endpoint){{END_NODE, n, ports[at]}, r};
		}
	}
	/* Extra devices' ports, dealt round-robin over the planes. */
	int j = 0, in_plane = 0;
	for (int e = f->first_extra; e < f->first_extra + f->nextras; e++)
		for (int p = 0; p < d->extras[e].nports; p++, j++)
			if (j % f->planes == plane)
				out[k++] = (Endpoint){{END_EXTRA, e, p}, in_plane++ % rpp};
	return k;
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
			const Part *dev = parts_of(d, cv->ref);
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
			/* Storage the cluster declares too: its appliances, in order (parts.c). */
			int shared = dev->kind == KIND_STORAGE ? parts_storage_declared(d, dev) : 0;
			int next = 0;
			for (int u = 0; u < (int)cv->count->q.v; u++) {
				ExtraInst *x = &d->extras[d->nextras++];
				*x = (ExtraInst){dev, NULL, fi, ports, speed, -1, 0, -1};
				while (shared && next < d->nappliances && d->appliances[next].type != dev)
					next++;
				if (shared && next < d->nappliances) {
					x->appliance = next;
					x->name = d->appliances[next++].name;
				} else {
					x->name = arena_printf(d->c->arena, "%s-%s-%d", f->decl->name, dev->name,
							       u + 1);
				}
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
	for (int i = 0; i < d->nscaleups; i++) {
		switches += d->scaleups[i].nswitches;
		links += d->scaleups[i].cables;
	}
	Arena *a = d->c->arena;
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
		f->family->wire(d, f, i);
		/* Each node's place among the nodes the fabric's links reach. */
		f->position = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
		for (int n = 0; n < d->nnodes; n++)
			f->position[n] = -1;
		for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == i; l++) {
			if (d->links[l].a.kind == END_NODE)
				f->position[d->links[l].a.dev] = 0;
			if (d->links[l].z.kind == END_NODE)
				f->position[d->links[l].z.dev] = 0;
		}
		f->members = 0;
		for (int n = 0; n < d->nnodes; n++)
			if (f->position[n] >= 0)
				f->position[n] = f->members++;
	}
	for (int i = 0; i < d->nscaleups; i++)
		scale_up_wire(d, &d->scaleups[i]);
	return 0;
}
