/*
 * torus.c — the torus family: endpoints are the vertices of a 2D or 3D torus with wraparound,
 * 2 NIC ports per dimension; there are no switches, so no switch model is checked.
 *
 * Wiring: the n-th node on the fabric (nodes without its NIC are not counted) sits at
 * (n mod X, n / X mod Y, n / XY); in dimension i it uses its rails 2i (towards +1) and 2i+1
 * (towards −1), and each node links to its + neighbour, wrapping around. Nodes fill racks in
 * that order, so a rack holds neighbours along the first dimension.
 */
#include "fabric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		return arena_printf(d->c->arena, "[%d, %d]", best[0], best[1]);
	return arena_printf(d->c->arena, "[%d, %d, %d]", best[0], best[1], best[2]);
}

bool torus_size(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports)
{
	const Value *dims = topo->items[0];
	f->ndims = dims ? (dims->n < 3 ? dims->n : 3) : 0; /* check.c: 2 or 3 */
	double product = 1; /* exact: a product past 2^53 is no node count anyway */
	int largest = 0;
	for (int i = 0; i < f->ndims; i++) {
		product *= dims->items[i]->q.v;
		f->dims[i] = shape_count(dims->items[i]->q.v);
		if (f->dims[i] > largest)
			largest = f->dims[i];
	}
	int rpp = f->rails / f->planes;
	if (product != nodes) {
		const char *dims_fit = shape_suggesting(d, f) ? torus_dims(d, nodes, f->ndims) : NULL;
		design_violation(d, topo->loc, fabs(product / nodes - 1), f->decl->name_loc, NULL,
				 "a torus of %.0f positions for %d nodes; the dimensions must multiply to "
				 "the node count: use %s%s%s",
				 product, nodes,
				 product <= FABRIC_COUNT_MAX ? arena_printf(d->c->arena, "%.0f nodes", product)
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
					 : arena_printf(d->c->arena, "use NICs with %d ports", 2 * f->ndims));
		return false;
	}
	f->tiers = 0;
	f->endpoints = nodes * f->planes;
	for (int i = 0; i < f->ndims; i++)
		f->shape[i] = (ShapeParam){"dims", f->dims[i]};
	f->nshape = f->ndims;
	f->node_ports = 2 * f->ndims;
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

void torus_wire(Design *d, FabricInst *f, int fi)
{
	int rpp = f->rails / f->planes;
	int X = f->dims[0], Y = f->ndims > 1 ? f->dims[1] : 1, Z = f->ndims > 2 ? f->dims[2] : 1;
	int ports[FABRIC_MAX_RAILS], mp[FABRIC_MAX_RAILS];
	/* Positions count only the nodes on this fabric (a cluster may list nodes without its
	 * NIC): at[i] is the node at position i. */
	int *at = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1)), count = 0;
	for (int n = 0; n < d->nnodes; n++)
		if (wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS) >= f->rails)
			at[count++] = n;
	/* Every node's coordinates: the i-th node on the fabric at (i mod X, i / X mod Y, i / XY). */
	f->coord = arena_alloc(d->c->arena, sizeof(int) * 3 * (size_t)(d->nnodes + 1));
	for (int n = 0; n < 3 * d->nnodes; n++)
		f->coord[n] = -1;
	for (int i = 0; i < count && i < X * Y * Z; i++) {
		f->coord[3 * at[i]] = i % X;
		f->coord[3 * at[i] + 1] = i / X % Y;
		f->coord[3 * at[i] + 2] = i / (X * Y);
	}
	for (int pl = 0; pl < f->planes; pl++) {
		for (int i = 0; i < count && i < X * Y * Z; i++) {
			int n = at[i];
			int c[3] = {i % X, i / X % Y, i / (X * Y)};
			int size[3] = {X, Y, Z};
			wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS);
			for (int k = 0; k < f->ndims; k++) {
				int nc[3] = {c[0], c[1], c[2]};
				nc[k] = (c[k] + 1) % size[k];
				int pos = nc[0] + nc[1] * X + nc[2] * X * Y;
				if (pos >= count)
					continue; /* sizing makes X·Y·Z the node count; the verifier would say */
				int m = at[pos];
				wire_node_ports(d, m, f, mp, FABRIC_MAX_RAILS);
				wire_add_link(d, (End){END_NODE, n, ports[pl * rpp + 2 * k]},
					 (End){END_NODE, m, mp[pl * rpp + 2 * k + 1]}, f->link_speed, LT_TORUS,
					 pl, pl * rpp + 2 * k, fi);
			}
		}
	}
	free(at);
}

void torus_check(Ctx *c, const Value *topo)
{
	const Value *dims = field_param_value(topo, PRM_TORUS_DIMS);
	if (dims && (dims->n < 2 || dims->n > 3)) {
		Diag *dg = diag_error(c, dims->loc, "a torus has 2 or 3 dimensions, not %d", dims->n);
		diag_set_code(dg, "inconsistent");
	}
}

int torus_rack_groups(const FabricInst *f, int plane, int fit, RackGroupSpec *out)
{
	(void)f, (void)plane, (void)fit, (void)out;
	return 0; /* no switches: nothing stands in a network rack */
}

void torus_describe(const FabricInst *f, Buf *b)
{
	buf_puts(b, "Torus ");
	for (int i = 0; i < f->ndims && i < 3; i++)
		buf_printf(b, "%s%d", i ? " x " : "", f->dims[i]);
	buf_puts(b, ", node to node");
}

void torus_summary(const FabricInst *f, Buf *b)
{
	buf_puts(b, f->family->name);
}

/* The scheduler's tree (sched.c): there is no switch, and Slurm's tree cannot describe a
 * torus. Nodes fill racks in torus order (the n-th node on the fabric at position n), so the
 * nodes of one rack are neighbours along the first dimension: each rack becomes a virtual leaf
 * holding its nodes on the fabric, in rack order of first node, and one virtual top switch
 * joins them. A block unit is such a rack. */
void torus_sched(SchedTree *t, const Design *d, int fi, Arena *a)
{
	const FabricInst *f = &d->fabrics[fi];
	bool *on = xmalloc(sizeof(bool) * (size_t)(d->nnodes + 1));
	memset(on, 0, sizeof(bool) * (size_t)(d->nnodes + 1));
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->plane != 0)
			continue;
		if (k->a.kind == END_NODE)
			on[k->a.dev] = true;
		if (k->z.kind == END_NODE)
			on[k->z.dev] = true;
	}
	int *rack_leaf = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		rack_leaf[r] = -1;
	for (int n = 0; n < d->nnodes; n++) {
		if (!on[n])
			continue;
		int r = d->nodes[n].rack;
		if (rack_leaf[r] < 0) {
			const char *name = arena_printf(a, "%s-%s", f->name, d->racks[r].name);
			rack_leaf[r] = sched_add_switch(t, a, name, 0, true);
		}
		t->leaf[n] = t->unit[n] = rack_leaf[r];
	}
	free(rack_leaf);
	free(on);
	sched_switch_units(t, a);
	t->unit_word = "rack";
	int leaves = t->nsw;
	int top = sched_add_switch(t, a, arena_printf(a, "%s-torus", f->name), 1, true);
	SchedPair *p = xmalloc(sizeof(SchedPair) * (size_t)(leaves + 1));
	for (int s = 0; s < leaves; s++)
		p[s] = (SchedPair){top, s};
	sched_link(t, a, p, leaves);
	free(p);
	t->explain = arena_printf(
		a,
		"# Fabric %s: a torus of %d dimensions. Slurm's topology/tree describes switch\n"
		"# hierarchies, not a torus: each rack is a virtual leaf switch holding its nodes\n"
		"# (consecutive torus positions along the first dimension) and %s-torus a virtual "
		"top\n# switch above them.\n",
		f->name, f->ndims, f->name);
}
