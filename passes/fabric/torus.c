/*
 * torus.c — the torus family: endpoints are the vertices of a 2D or 3D torus with wraparound,
 * 2 NIC ports per dimension and position; without blocks there are no switches, so no switch
 * model is checked.
 *
 * Wiring: the n-th node on the fabric (nodes without its NIC are not counted) sits at
 * (n mod X, n / X mod Y, n / XY); in dimension i it uses its rails 2i (towards +1) and 2i+1
 * (towards −1), and each node links to its + neighbour, wrapping around. Nodes fill racks in
 * that order, so a rack holds neighbours along the first dimension.
 *
 * The shapes of TPU pods (Jouppi et al., "TPU v4: An Optically Reconfigurable Supercomputer for
 * Machine Learning with Hardware Support for Embeddings", ISCA 2023, §2): a node may hold
 * several positions (per_node, laid out as node_shape); the torus may be tiled into blocks of
 * one rack each (block), whose faces meet at optical circuit switches when the fabric's switch
 * is an ocs (torus_layout.c has the layout and the closed form); and it may be twisted.
 * Positions then fill a node, the nodes a block, the blocks the torus, each level along x,
 * then y, then z (torus_layout_coord); docs/fabrics.md §4 and §6 give the rules.
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
	double per = field_param_num(topo, PRM_TORUS_PER_NODE);
	f->per_node = shape_count(per);
	double product = 1; /* exact: a product past 2^53 is no node count anyway */
	int largest = 0;
	f->dims[1] = f->dims[2] = 1;
	for (int i = 0; i < f->ndims; i++) {
		product *= dims->items[i]->q.v;
		f->dims[i] = shape_count(dims->items[i]->q.v);
		if (f->dims[i] > largest)
			largest = f->dims[i];
	}
	int rpp = f->rails / f->planes;
	double positions = (double)nodes * f->per_node;
	if (product != positions) {
		const char *dims_fit = shape_suggesting(d, f) && positions <= FABRIC_COUNT_MAX
					       ? torus_dims(d, (int)positions, f->ndims)
					       : NULL;
		const char *what = f->per_node > 1 ? arena_printf(d->c->arena, "%.0f positions (%d nodes x %d)",
								  positions, nodes, f->per_node)
						   : arena_printf(d->c->arena, "%d nodes", nodes);
		design_violation(d, topo->loc, fabs(product / positions - 1), f->decl->name_loc, NULL,
				 "a torus of %.0f positions for %s; the dimensions must multiply to "
				 "the %s: use %s%s%s",
				 product, what, f->per_node > 1 ? "position count" : "node count",
				 product <= FABRIC_COUNT_MAX
					 ? arena_printf(d->c->arena, "%.0f nodes", product / f->per_node)
					 : "smaller dimensions",
				 dims_fit ? ", or dims = " : "", dims_fit ? dims_fit : "");
		return false;
	}
	/* Positions and links within what clusterc wires (a node of many positions multiplies them;
	 * a twisted torus's diameter is searched over every position). */
	if (!shape_wirable(d, f, topo->loc, positions * f->ndims))
		return false;
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
	int want = 2 * f->ndims * f->per_node;
	if (rpp < want) {
		const char *fix =
			f->per_node > 1
				? arena_printf(d->c->arena, "use NICs with %d ports (%d per position), or "
							    "per_node = %d",
					       want, 2 * f->ndims, rpp / (2 * f->ndims) > 0 ? rpp / (2 * f->ndims) : 1)
			: f->ndims == 3 && rpp >= 4 ? "use a 2D torus, or NICs with 6 ports"
			: f->planes > 1 && f->rails >= 2 * f->ndims
				? "use fewer planes"
				: arena_printf(d->c->arena, "use NICs with %d ports", 2 * f->ndims);
		design_violation(d, topo->loc, (double)want / rpp - 1, f->decl->name_loc, NULL,
				 "a %dD torus needs %d ports on every %s (2 per dimension%s); the nodes "
				 "have %d '%s' ports%s on '%s': %s",
				 f->ndims, want, "node",
				 f->per_node > 1 ? arena_printf(d->c->arena, " for each of its %d positions",
								f->per_node)
						 : "",
				 rpp, f->nic->name, f->planes > 1 ? " per plane" : "", f->decl->name, fix);
		return false;
	}
	/* A node with more accelerators and ports than one position uses would be wired as one
	 * chip: a different design from the one declared, so say what expresses it. */
	int accels = d->ngroups ? d->groups[0].type->node.accelerators : 1;
	if (f->per_node == 1 && accels > 1 && rpp >= 2 * f->ndims * accels &&
	    !field_param_value(topo, PRM_TORUS_PER_NODE)) {
		design_violation(d, topo->loc, 1, f->decl->name_loc, NULL,
				 "the nodes have %d accelerators and %d '%s' ports, %d per accelerator: "
				 "a torus position is one node unless the torus says otherwise; set "
				 "per_node = %d to make each accelerator a position, or rails = %d to "
				 "wire the node as one",
				 accels, rpp, f->nic->name, rpp / accels, accels, 2 * f->ndims);
		return false;
	}

	/* Blocks: the positions of one rack; with an OCS as the fabric's switch, faces go optical. */
	const Value *bv = field_param_value(topo, PRM_TORUS_BLOCK);
	bool ocs = f->switch_model && f->switch_model->kind == KIND_OCS;
	for (int i = 0; i < 3; i++)
		f->block[i] = f->dims[i];
	if (bv && bv->kind == VAL_LIST) {
		if (bv->n != f->ndims) {
			design_violation(d, bv->loc, 1, f->decl->name_loc, NULL,
					 "a block of %d dimensions for a torus of %d: give one size per "
					 "dimension",
					 bv->n, f->ndims);
			return false;
		}
		for (int i = 0; i < f->ndims; i++) {
			int b = shape_count(bv->items[i]->q.v);
			if (b < 1 || f->dims[i] % b) {
				design_violation(d, bv->items[i]->loc, 1, f->decl->name_loc, NULL,
						 "a block of %d does not divide the torus dimension of %d: "
						 "blocks tile the torus",
						 b, f->dims[i]);
				return false;
			}
			f->block[i] = b;
		}
	} else if (ocs) {
		design_violation(d, field_value(f->decl, FLD_FABRIC_SWITCH)->loc, 1, f->decl->name_loc,
				 NULL,
				 "optical circuit switch '%s' joins the faces of a torus's blocks, and "
				 "this torus has none: set torus(block = [...]), e.g. [4, 4, 4] as TPU v4",
				 f->switch_model->name);
		return false;
	}
	if (ocs && f->protocol == PROTO_INFINIBAND) {
		const Value *pv = field_value(f->decl, FLD_FABRIC_PROTOCOL);
		design_violation(d, pv ? pv->loc : f->decl->name_loc, 1, f->switch_model->loc,
				 "the ocs is declared here",
				 "an InfiniBand torus through optical circuit switches is not modelled: "
				 "a subnet manager sees no OCS, and the fabric files would show them as "
				 "switches; leave protocol out (the torus's own links, as TPU ICI)");
		return false;
	}
	f->blocks = 1;
	for (int i = 0; i < f->ndims; i++)
		f->blocks *= f->dims[i] / f->block[i];
	int block_positions = f->block[0] * f->block[1] * f->block[2];
	if (bv && block_positions % f->per_node) {
		design_violation(d, bv->loc, 1, f->decl->name_loc, NULL,
				 "a block of %d positions does not hold whole nodes of %d positions",
				 block_positions, f->per_node);
		return false;
	}
	/* A node's positions: a sub-block of the block (node_shape), by default along the first
	 * dimension. */
	const Value *sv = field_param_value(topo, PRM_TORUS_NODE_SHAPE);
	f->node_shape[0] = f->per_node, f->node_shape[1] = f->node_shape[2] = 1;
	if (sv && sv->kind == VAL_LIST) {
		double prod = 1; /* exact: each size is at most FABRIC_COUNT_MAX + 1 */
		for (int i = 0; i < 3; i++)
			f->node_shape[i] = i < sv->n && i < f->ndims ? shape_count(sv->items[i]->q.v) : 1;
		for (int i = 0; i < 3; i++)
			prod *= f->node_shape[i];
		if (sv->n != f->ndims || prod != f->per_node) {
			design_violation(d, sv->loc, 1, f->decl->name_loc, NULL,
					 "node_shape gives one size per dimension of the torus (%d) and "
					 "multiplies to per_node (%d)",
					 f->ndims, f->per_node);
			return false;
		}
	}
	for (int i = 0; i < f->ndims; i++)
		if (f->block[i] % f->node_shape[i]) {
			const Value *pv = sv ? sv->items[i] : field_param_value(topo, PRM_TORUS_PER_NODE);
			design_violation(d, pv ? pv->loc : topo->loc, 1, f->decl->name_loc, NULL,
					 "a node's positions span %d in dimension %d, which does not "
					 "divide the %s's %d there: nodes tile the %s",
					 f->node_shape[i], i + 1, bv ? "block" : "torus", f->block[i],
					 bv ? "block" : "torus");
			return false;
		}
	/* A block is one rack: the racks must hold one block's nodes each. */
	if (bv)
		field_note(d->pack_reads); /* the groups' racks: what packing them read */
	if (bv)
		for (int g = 0; g < d->ngroups; g++) {
			int want_rack = block_positions / f->per_node;
			if (d->groups[g].per_rack == want_rack || d->groups[g].per_rack == 0)
				continue;
			design_violation(d, bv->loc, fabs((double)d->groups[g].per_rack / want_rack - 1),
					 d->groups[g].loc, NULL,
					 "a block of %d positions is %d nodes of '%s' and stands in one "
					 "rack; the racks hold %d: set nodes_per_rack = %d",
					 block_positions, want_rack, d->groups[g].type->name,
					 d->groups[g].per_rack, want_rack);
			return false;
		}
	f->twisted = field_param_num(topo, PRM_TORUS_TWISTED) != 0;
	int small = f->dims[0], shift_ok = 1, doubled = 0;
	for (int i = 1; i < f->ndims; i++)
		if (f->dims[i] < small)
			small = f->dims[i];
	for (int i = 0; i < f->ndims; i++) {
		if (f->dims[i] == 2 * small)
			doubled++;
		else if (f->dims[i] != small)
			shift_ok = 0;
	}
	if (f->twisted && (!shift_ok || !doubled)) {
		design_violation(d, field_param_value(topo, PRM_TORUS_TWISTED)->loc, 1,
				 f->decl->name_loc, NULL,
				 "a twisted torus has dimensions of two sizes, n and 2n (TPU v4: 4 x 4 "
				 "x 8, 4 x 8 x 8); these are not: leave twisted out or change dims");
		return false;
	}
	if (f->twisted && ocs)
		for (int i = 0; i < f->ndims; i++)
			if (f->dims[i] == 2 * small && small % f->block[i]) {
				design_violation(d, field_param_value(topo, PRM_TORUS_TWISTED)->loc, 1,
						 f->decl->name_loc, NULL,
						 "the twist shifts dimension %d by %d, not a whole number of "
						 "blocks of %d: the optical circuit switches could not make "
						 "it; use blocks that divide %d",
						 i + 1, small, f->block[i], small);
				return false;
			}

	f->tiers = 0;
	f->endpoints = (int)positions * f->planes;
	for (int i = 0; i < f->ndims; i++)
		f->shape[i] = (ShapeParam){"dims", f->dims[i]};
	f->nshape = f->ndims;
	f->node_ports = want;
	if (ocs) {
		int nocs, ports, fibres, electrical;
		torus_layout_ocs_counts(f->dims, f->block, f->ndims, &nocs, &ports, &fibres, &electrical);
		int usable = f->switch_model->ocs.ports - f->switch_model->ocs.spare;
		if (ports > usable) {
			design_violation(d, bv->loc, (double)ports / (usable > 0 ? usable : 1) - 1,
					 f->switch_model->loc, "the ocs is declared here",
					 "each optical circuit switch joins one face position of all %d "
					 "blocks, + and − sides: %d ports; '%s' has %d to wire (%d, %d "
					 "spare): use at most %d blocks, or larger ones",
					 f->blocks, ports, f->switch_model->name, usable,
					 f->switch_model->ocs.ports, f->switch_model->ocs.spare, usable / 2);
			return false;
		}
		f->per_plane[ST_OCS] = nocs;
		f->radix = f->switch_model->ocs.ports; /* a fibre port carries a link at any speed */
		f->ocs_ports = ports;
		f->links_per_plane[LT_TORUS] = electrical;
		f->links_per_plane[LT_OCS] = fibres;
	} else {
		f->links_per_plane[LT_TORUS] = (int)positions * f->ndims;
	}
	/* Links between a node's own positions, counted as the wiring lays them (a link leaving a
	 * block's face through an OCS is not one). */
	f->board_links = 0;
	for (int i = 0; f->per_node > 1 && i < (int)positions; i++) {
		int c[3], nc[3];
		torus_layout_coord(f, i, c);
		for (int k = 0; k < f->ndims; k++) {
			if (ocs && c[k] % f->block[k] == f->block[k] - 1)
				continue;
			torus_layout_next(f, c, k, nc);
			f->board_links += torus_layout_pos(f, nc) / f->per_node == i / f->per_node;
		}
	}
	f->board_links *= f->planes;
	int diameter = 0;
	for (int i = 0; i < f->ndims; i++)
		diameter += f->dims[i] / 2;
	f->diameter = f->twisted ? torus_layout_diameter(f, (int)positions) : diameter;
	f->ecmp = 1;
	/* Cut across the largest dimension: 2 wraparound planes of positions/largest links (a
	 * twisted torus has at least as many). */
	f->bisection = 2.0 * positions / largest * f->link_speed * f->planes;
	return true;
}

void torus_wire(Design *d, FabricInst *f, int fi)
{
	int per = f->per_node, pp = 2 * f->ndims;
	int total = f->dims[0] * f->dims[1] * f->dims[2];
	int ports[FABRIC_MAX_RAILS], mp[FABRIC_MAX_RAILS];
	bool ocs = f->per_plane[ST_OCS] > 0;
	/* Positions count only the nodes on this fabric (a cluster may list nodes without its
	 * NIC): at[j] is the j-th node on it, holding positions j·per .. j·per + per − 1. */
	int *at = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1)), count = 0;
	for (int n = 0; n < d->nnodes; n++)
		if (wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS) >= f->rails)
			at[count++] = n;
	int held = count * per < total ? count * per : total;
	/* Every node's coordinates: those of its first position. */
	f->coord = arena_alloc(d->c->arena, sizeof(int) * 3 * (size_t)(d->nnodes + 1));
	for (int n = 0; n < 3 * d->nnodes; n++)
		f->coord[n] = -1;
	f->node_block = f->blocks > 1 ? arena_alloc(d->c->arena, sizeof(int) * (size_t)(d->nnodes + 1))
				      : NULL;
	for (int n = 0; f->node_block && n < d->nnodes; n++)
		f->node_block[n] = -1;
	for (int i = 0; i < held; i += per) {
		int c[3];
		torus_layout_coord(f, i, c);
		for (int k = 0; k < 3; k++)
			f->coord[3 * at[i / per] + k] = c[k];
		if (f->node_block)
			f->node_block[at[i / per]] = torus_layout_block(f, c);
	}
	int face_first[3] = {0, 0, 0};
	for (int k = 1; k < f->ndims; k++)
		face_first[k] = face_first[k - 1] + torus_layout_face_links(f, k - 1);
	for (int pl = 0; pl < f->planes; pl++) {
		int first_ocs = d->nswitches;
		for (int o = 0; ocs && o < f->per_plane[ST_OCS]; o++) {
			SwitchInst *s = wire_add_switch(d, f, fi, ST_OCS, pl, o);
			s->radix = f->switch_model->ocs.ports;
			s->breakout = 1;
		}
		for (int i = 0; i < held; i++) {
			int n = at[i / per], q = i % per;
			int c[3];
			torus_layout_coord(f, i, c);
			wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS);
			for (int k = 0; k < f->ndims; k++) {
				int nc[3];
				torus_layout_next(f, c, k, nc);
				int pos = torus_layout_pos(f, nc);
				if (pos >= held)
					continue; /* sizing makes X·Y·Z the position count; the verifier would say */
				int m = at[pos / per], mq = pos % per;
				wire_node_ports(d, m, f, mp, FABRIC_MAX_RAILS);
				int ra = wire_plane_rail(f, pl, q * pp + 2 * k);
				int rz = wire_plane_rail(f, pl, mq * pp + 2 * k + 1);
				if (!ocs || c[k] % f->block[k] != f->block[k] - 1) {
					wire_add_link(d, (End){END_NODE, n, ports[ra]}, (End){END_NODE, m, mp[rz]},
						      f->link_speed, LT_TORUS, pl, ra, fi);
					continue;
				}
				/* Across a face: to the OCS of this dimension and face position, port 2b
				 * for block b's + face and 2b' + 1 for block b''s − face. */
				int face = 0, scale = 1;
				for (int j = 0; j < f->ndims; j++)
					if (j != k) {
						face += c[j] % f->block[j] * scale;
						scale *= f->block[j];
					}
				int sw = first_ocs + face_first[k] + face;
				wire_add_link(d, (End){END_NODE, n, ports[ra]},
					      (End){END_SWITCH, sw, 2 * torus_layout_block(f, c)}, f->link_speed,
					      LT_OCS, pl, ra, fi);
				wire_add_link(d, (End){END_NODE, m, mp[rz]},
					      (End){END_SWITCH, sw, 2 * torus_layout_block(f, nc) + 1},
					      f->link_speed, LT_OCS, pl, rz, fi);
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

/* The optical circuit switches of a plane stand together in network racks among the blocks'
 * racks (every block reaches every OCS); a torus without them has nothing to stand there. */
int torus_rack_groups(const FabricInst *f, int plane, int fit, RackGroupSpec *out)
{
	(void)plane, (void)fit;
	if (!f->per_plane[ST_OCS])
		return 0;
	out[0] = (RackGroupSpec){0, f->per_plane[ST_OCS], false, 0, -1};
	return 1;
}

void torus_describe(const FabricInst *f, Buf *b)
{
	buf_puts(b, f->twisted ? "Twisted torus " : "Torus ");
	for (int i = 0; i < f->ndims && i < 3; i++)
		buf_printf(b, "%s%d", i ? " x " : "", f->dims[i]);
	if (f->per_node > 1)
		buf_printf(b, ", %d positions per node", f->per_node);
	if (f->per_node > 1 && f->node_shape[0] != f->per_node)
		buf_printf(b, " (%d x %d x %d)", f->node_shape[0], f->node_shape[1], f->node_shape[2]);
	if (f->per_plane[ST_OCS]) {
		buf_printf(b, ", %d blocks of ", f->blocks);
		for (int i = 0; i < f->ndims && i < 3; i++)
			buf_printf(b, "%s%d", i ? " x " : "", f->block[i]);
		buf_printf(b, " cabled directly inside, faces joined by %d optical circuit switches",
			   f->per_plane[ST_OCS] * f->planes);
	} else {
		buf_puts(b, ", node to node");
	}
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
	if (f->blocks > 1)
		t->explain = arena_printf(
			a,
			"# Fabric %s: a torus of %d dimensions in %d blocks of %d x %d x %d positions, one\n"
			"# rack each%s.\n"
			"# Slurm's topology/tree describes switch hierarchies, not a torus: each rack (a\n"
			"# block) is a virtual leaf switch holding its nodes and %s-torus a virtual top\n"
			"# switch above them.\n",
			f->name, f->ndims, f->blocks, f->block[0], f->block[1], f->block[2],
			f->per_plane[ST_OCS] ? ", joined through optical circuit switches" : "", f->name);
	else
		t->explain = arena_printf(
			a,
			"# Fabric %s: a torus of %d dimensions. Slurm's topology/tree describes switch\n"
			"# hierarchies, not a torus: each rack is a virtual leaf switch holding its nodes\n"
			"# (consecutive torus positions along the first dimension) and %s-torus a virtual "
			"top\n# switch above them.\n",
			f->name, f->ndims, f->name);
}

/* A torus with blocks stands one block in each rack: its positions over the node's (per_node);
 * 0 without a block, or when they are not whole nodes (sizing says so). */
int torus_rack_nodes(const Value *topo)
{
	const Value *bv = field_param_value(topo, PRM_TORUS_BLOCK);
	if (!bv || bv->kind != VAL_LIST)
		return 0;
	double positions = 1;
	for (int i = 0; i < bv->n; i++)
		positions *= bv->items[i]->q.v;
	double per = field_param_num(topo, PRM_TORUS_PER_NODE);
	if (per < 1 || positions > FABRIC_COUNT_MAX || fmod(positions, per) != 0)
		return 0;
	return (int)(positions / per);
}
