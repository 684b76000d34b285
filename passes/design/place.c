/*
 * place.c — where everything stands: racks on the floor, switches and fabric managers in
 * network racks among the node racks they serve (docs/placement.md).
 *
 * Network racks come in groups that never share a rack: the leaves of one scalable unit (a
 * rail-optimized tree; the unit's cables then stay inside its row), a rack's worth of leaves of
 * a plain tree, the routers of one dragonfly group, and the spines and cores of a plane (with
 * the fabric's managers, next to the first plane's). Each group is packed into racks of the
 * cluster's rack type by height and power cap, planned with the sizing so the model counts
 * them, and stands in the middle of the node racks it serves ("middle of row"): the spines and
 * cores in the middle of the whole hall, so no leaf is far from them.
 *
 * The racks then take the floor grid's positions in that order, row after row (without a grid,
 * rows of DEFAULT_PER_ROW at the grid's default pitches). A rack's position gives its
 * coordinates: x = position x rack pitch, y = row x row pitch. Devices stack from U 1; the
 * switch trays of a scale-up domain stand above its nodes, in its rack.
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_PER_ROW = 20 };
static const double RACK_UNIT = 0.04445;

static double usable_height(const Design *d)
{
	return d->rack_type->height - d->rack_type->rack.reserved;
}

static double rack_cap(const Design *d)
{
	return d->rack_cap;
}

/* Racks for `count` units of height h and power p, then the extra devices of a fabric. */
static int pack_count(const Design *d, int count, double h, double p, const FabricInst *f,
		      bool extras, bool *too_big)
{
	double usable = usable_height(d), cap = rack_cap(d);
	int racks = 0;
	double used_h = usable + 1, used_p = 0; /* "full": the first unit opens a rack */
	*too_big = false;
	for (int i = 0; i < count; i++) {
		if (h > usable + 1e-9 || p > cap + 1e-6) {
			*too_big = true;
			return racks;
		}
		if (used_h + h > usable + 1e-9 || used_p + p > cap + 1e-6) {
			racks++;
			used_h = used_p = 0;
		}
		used_h += h;
		used_p += p;
	}
	if (!extras || !f)
		return racks;
	const Value *ev = field_value(f->decl, FLD_FABRIC_ENDPOINTS);
	for (int i = 0; ev && i < (ev->kind == VAL_LIST ? ev->n : 1); i++) {
		const Value *cv = ev->kind == VAL_LIST ? ev->items[i] : ev;
		const Part *dev = parts_of(d, cv->ref);
		double eh = dev->height, ep = dev->power;
		if (dev->kind == KIND_STORAGE && parts_storage_declared(d, dev))
			continue; /* the cluster's storage appliances, in storage racks */
		for (int k = 0; k < (int)cv->count->q.v; k++) {
			if (eh > usable + 1e-9 || ep > cap + 1e-6) {
				*too_big = true;
				return racks;
			}
			if (used_h + eh > usable + 1e-9 || used_p + ep > cap + 1e-6) {
				racks++;
				used_h = used_p = 0;
			}
			used_h += eh;
			used_p += ep;
		}
	}
	return racks;
}

static NetGroup *add_group(Design *d, int fabric, int plane, const RackGroupSpec *g)
{
	NetGroup *n = &d->netgroups[d->nnetgroups++];
	const FabricInst *f = &d->fabrics[fabric];
	int per_plane = 0;
	for (int t = 0; t < ST_COUNT; t++)
		per_plane += f->per_plane[t];
	/* The model of the group's switches: a tree's tiers may each have their own. */
	const Part *m = f->switch_model;
	if (f->family->tree) {
		int t = g->first < f->per_plane[ST_LEAF] ? 0
			: g->first < f->per_plane[ST_LEAF] + f->per_plane[ST_SPINE] ? 1 : 2;
		if (f->tier_model[t])
			m = f->tier_model[t];
	}
	*n = (NetGroup){fabric, plane, plane * per_plane + g->first, g->count, g->extras,
			m->height, m->power, 0, g->serve_lo, g->serve_hi, 0, -1};
	return n;
}

int place_network_racks(Design *d)
{
	int before = d->violations.n;
	int bound = 1;
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (f->sized)
			bound += f->planes * (f->switches / f->planes + 2) + 1;
	}
	/* The optimizer places thousands of candidates: their groups reuse one array. */
	if (bound > d->netgroups_cap) {
		d->netgroups_cap = bound;
		d->netgroups = arena_alloc(d->c->arena, sizeof(NetGroup) * (size_t)bound);
	}
	d->nnetgroups = 0;
	double usable = usable_height(d), cap = rack_cap(d);
	RackGroupSpec *spec = NULL;
	int spec_cap = 0;
	for (int fi = 0; fi < d->nfabrics; fi++) {
		FabricInst *f = &d->fabrics[fi];
		if (!f->sized || !f->switch_model)
			continue;
		double h = f->switch_model->height, p = f->switch_model->power;
		int fit = (int)fmin(floor(usable / h + 1e-9), p > 0 ? floor(cap / p + 1e-9) : 1e9);
		if (fit < 1)
			fit = 1;
		/* A group per switch at most, and one for the extra devices. */
		if (spec_cap < f->switches / f->planes + 2) {
			spec_cap = f->switches / f->planes + 2;
			spec = xrealloc(spec, sizeof *spec * (size_t)spec_cap);
		}
		for (int pl = 0; pl < f->planes; pl++) {
			int n = f->family->rack_groups(f, pl, fit, spec);
			for (int k = 0; k < n; k++)
				add_group(d, fi, pl, &spec[k]);
		}
	}
	free(spec);
	d->network_racks = 0;
	for (int i = 0; i < d->nnetgroups; i++) {
		NetGroup *g = &d->netgroups[i];
		bool too_big;
		g->racks = pack_count(d, g->count, g->unit_h, g->unit_p, &d->fabrics[g->fabric],
				      g->with_extras, &too_big);
		if (too_big) {
			const FabricInst *f = &d->fabrics[g->fabric];
			d->vsource = VS_FABRIC, d->vfabric = g->fabric;
			design_violation(d, f->decl->name_loc, 1, d->rack->name_loc, "the rack type",
					 "a switch or device of fabric '%s' does not fit rack '%s' (height "
					 "or power)",
					 f->decl->name, d->rack->name);
			return d->violations.n - before;
		}
		d->network_racks += g->racks;
	}
	d->node_racks = (int)d->t.racks;
	d->t.racks += d->network_racks;

	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	if (floor_v && floor_v->kind == VAL_CTOR) {
		double rows = field_param_num(floor_v, PRM_GRID_ROWS);
		double per_row = field_param_num(floor_v, PRM_GRID_RACKS_PER_ROW);
		int cap_racks = (int)(rows * per_row);
		int racks = (int)d->t.racks;
		const char *split = d->network_racks
					    ? arena_printf(d->p->c->arena, " (%d of nodes, %d of switches)",
							   d->node_racks, d->network_racks)
					    : "";
		d->vsource = VS_FLOOR, d->vfabric = -1;
		if (racks > cap_racks)
			design_violation(d, floor_v->loc, (double)racks / cap_racks - 1,
					 d->cluster->name_loc, "cluster built here",
					 "cluster '%s' needs %d racks%s; the floor of '%s' has %d positions "
					 "(%.0f rows of %.0f)",
					 d->cluster->name, racks, split, d->site->name, cap_racks, rows,
					 per_row);
	}
	d->vsource = VS_NODES, d->vfabric = -1;
	return d->violations.n - before;
}

/* ---- placing the racks ------------------------------------------------------------------ */

/* The nodes on fabric f in node order: a node's place in this list is its fabric ordinal (its
 * scalable-unit slot). Made once per fabric, not per group: with a group per scalable unit,
 * per group it was quadratic (4.8 s of a 1,000,000-GPU build, docs/performance.md). */
static int *fabric_nodes(const Design *d, const FabricInst *f, int *count)
{
	int *nodes = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	int k = 0, ports[4];
	for (int n = 0; n < d->nnodes; n++)
		if (wire_node_ports(d, n, f, ports, 1))
			nodes[k++] = n;
	*count = k;
	return nodes;
}

/* The middle of the racks of the nodes with fabric ordinals [lo, hi) (of count): ordinals
 * grow with node order, so the first and last of them are those nodes' first and last. */
static double home_of(const Design *d, const int *nodes, int count, int lo, int hi)
{
	if (lo < 0)
		lo = 0;
	if (hi > count)
		hi = count;
	if (lo >= hi)
		return d->node_racks / 2.0;
	return (d->nodes[nodes[lo]].rack + d->nodes[nodes[hi - 1]].rack + 1) / 2.0;
}


typedef struct Slot {
	double key;  /* home; node racks at their index + 0.5 so a group at home h comes before */
	int order;   /* creation order, for ties */
	int rack;    /* index into the old rack array */
} Slot;

static int by_key(const void *a, const void *b)
{
	const Slot *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order - y->order;
}

int place_racks(Design *d)
{
	Arena *a = d->p->c->arena;
	int total = d->nracks + d->network_racks;
	RackInst *racks = arena_alloc(a, sizeof(RackInst) * (size_t)(total + 1));
	memcpy(racks, d->racks, sizeof(RackInst) * (size_t)d->nracks);
	/* The network racks, group by group, each where its group serves. */
	int k = d->nracks;
	int **fnodes = xmalloc(sizeof(int *) * (size_t)(d->nfabrics + 1));
	int *fcount = xmalloc(sizeof(int) * (size_t)(d->nfabrics + 1));
	for (int fi = 0; fi < d->nfabrics; fi++)
		fnodes[fi] = NULL;
	for (int gi = 0; gi < d->nnetgroups; gi++) {
		NetGroup *g = &d->netgroups[gi];
		const FabricInst *f = &d->fabrics[g->fabric];
		if (!fnodes[g->fabric])
			fnodes[g->fabric] = fabric_nodes(d, f, &fcount[g->fabric]);
		int count = fcount[g->fabric], *ord = fnodes[g->fabric];
		g->home = g->serve_hi < 0 ? home_of(d, ord, count, 0, count)
					  : home_of(d, ord, count, g->serve_lo, g->serve_hi);
		for (int r = 0; r < g->racks; r++) {
			RackInst *rk = &racks[k++];
			*rk = (RackInst){.network = true, .first_node = -1};
			design_rack_init(d, rk);
			rk->group = gi;
		}
	}
	for (int fi = 0; fi < d->nfabrics; fi++)
		free(fnodes[fi]);
	free(fnodes);
	free(fcount);
	/* Order: node racks in their order, each group's racks before the node rack at its home. */
	Slot *slots = xmalloc(sizeof(Slot) * (size_t)(k + 1));
	int n = 0, next = d->nracks;
	for (int i = 0; i < d->nracks; i++)
		slots[n] = (Slot){i + 0.5, n, i}, n++;
	/* A network group never stands among the racks of one scale-up domain: its home moves to
	 * the domain's first rack. */
	int *domain_start = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int i = 0; i < d->nracks; i++)
		domain_start[i] = i > 0 && racks[i].domain >= 0 && racks[i].domain == racks[i - 1].domain
					  ? domain_start[i - 1]
					  : i;
	for (int gi = 0; gi < d->nnetgroups; gi++) {
		double home = floor(d->netgroups[gi].home);
		if (home >= 0 && home < d->nracks)
			home = domain_start[(int)home];
		for (int r = 0; r < d->netgroups[gi].racks; r++)
			slots[n] = (Slot){home, n, next++}, n++;
	}
	free(domain_start);
	qsort(slots, (size_t)n, sizeof(Slot), by_key);
	int *to = xmalloc(sizeof(int) * (size_t)(k + 1));
	d->racks = arena_alloc(a, sizeof(RackInst) * (size_t)(k + 1));
	for (int i = 0; i < n; i++) {
		d->racks[i] = racks[slots[i].rack];
		to[slots[i].rack] = i;
	}
	for (int i = 0; i < d->nnodes; i++)
		d->nodes[i].rack = to[d->nodes[i].rack];
	for (int i = 0; i < d->nappliances; i++)
		d->appliances[i].rack = to[d->appliances[i].rack];
	for (int gi = 0; gi < d->nnetgroups; gi++)
		d->netgroups[gi].first_rack = -1;
	for (int i = n - 1; i >= 0; i--)
		if (d->racks[i].network)
			d->netgroups[d->racks[i].group].first_rack = i;
	d->nracks = n;
	free(slots);
	free(to);

	/* Positions, coordinates and names. */
	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	bool grid = floor_v && floor_v->kind == VAL_CTOR;
	/* Without a floor grid, rows of DEFAULT_PER_ROW at the grid's default pitches. */
	int per_row = grid ? (int)field_param_num(floor_v, PRM_GRID_RACKS_PER_ROW) : DEFAULT_PER_ROW;
	double rack_pitch = field_param_num(floor_v, PRM_GRID_RACK_PITCH);
	double row_pitch = field_param_num(floor_v, PRM_GRID_ROW_PITCH);
	/* The racks of a scale-up domain over several racks stand side by side in one row: when
	 * they would run past the row's end, the domain starts the next row (the positions left
	 * are empty). A domain longer than a row cannot. */
	int longest = 0;
	for (int i = 0; i < n; i++)
		if (d->racks[i].domain_span > longest)
			longest = d->racks[i].domain_span;
	if (!grid && longest > per_row)
		per_row = longest;
	int at = 0;
	bool reported = false;
	for (int i = 0; i < n; i++) {
		RackInst *r = &d->racks[i];
		int span = r->domain_span;
		if (span > 1 && span <= per_row && at % per_row + span > per_row)
			at += per_row - at % per_row;
		if (span > per_row && !reported) {
			reported = true;
			d->vsource = VS_FLOOR, d->vfabric = -1;
			design_violation(d, floor_v->loc, (double)span / per_row - 1, d->cluster->name_loc,
					 "cluster built here",
					 "scale-up domain '%s' stands in %d racks side by side; the rows of "
					 "'%s' hold %d",
					 r->domain >= 0 && r->domain < d->ndomains ? d->domain_names[r->domain]
										    : "?",
					 span, d->site->name, per_row);
		}
		r->row = at / per_row;
		r->pos = at % per_row;
		at++;
		r->x = r->pos * rack_pitch;
		r->y = r->row * row_pitch;
		char l[16];
		ir_row_name(r->row, l, sizeof l);
		r->name = grid ? arena_printf(a, "%s%02d", l, r->pos + 1) : arena_printf(a, "R%04d", i + 1);
	}
	if (grid && at > n) {
		/* Rows the gaps left: the floor must still hold them. */
		int rows = (int)field_param_num(floor_v, PRM_GRID_ROWS);
		int used = (at + per_row - 1) / per_row;
		if (used > rows) {
			d->vsource = VS_FLOOR, d->vfabric = -1;
			design_violation(d, floor_v->loc, (double)used / rows - 1, d->cluster->name_loc,
					 "cluster built here",
					 "cluster '%s' needs %d rows of %d racks to keep each scale-up domain "
					 "in one row; the floor of '%s' has %d",
					 d->cluster->name, used, per_row, d->site->name, rows);
		}
	}
	return 0; /* what the floor cannot hold is a Violation, not an error of the pass */
}

/* ---- devices in racks -------------------------------------------------------------------- */

/* The switch trays of a scale-up domain larger than a node stand in the rack of its nodes,
 * stacked above them in domain order: racks.c kept domains whole and elaborate.c counted the
 * trays' height and power in that rack. */
static void place_scale_up_trays(Design *d)
{
	int *next_u = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		next_u[r] = 0;
	for (int si = 0; si < d->nscaleups; si++) {
		const ScaleUpInst *s = &d->scaleups[si];
		const NodeGroup *g = &d->groups[s->group];
		bool multi = s->node_racks > 1 || s->switch_racks > 0;
		int over = s->switch_racks ? s->switch_racks : s->node_racks;
		for (int i = s->first_switch; i < s->first_switch + s->nswitches; i++) {
			SwitchInst *t = &d->switches[i];
			int n = g->first_node + t->group * s->domain_nodes;
			if (n >= d->nnodes)
				continue;
			int r = d->nodes[n].rack;
			if (multi) {
				/* Its share of the domain's racks (elaborate.c counted it there). */
				int slot = t->index / (s->switches_per_domain / over) +
					   (s->switch_racks ? s->node_racks : 0);
				int dom = d->nodes[n].domain;
				while (r > 0 && d->racks[r - 1].domain == dom)
					r--;
				while (r < d->nracks && d->racks[r].domain == dom &&
				       d->racks[r].domain_slot != slot)
					r++;
				if (r >= d->nracks || d->racks[r].domain != dom)
					continue;
			}
			if (!next_u[r])
				next_u[r] = 1 + (int)lround(d->racks[r].nnodes * g->type->height / RACK_UNIT);
			t->rack = r;
			t->u = next_u[r];
			next_u[r] += (int)lround(t->model->height / RACK_UNIT);
		}
	}
	free(next_u);
}

/* ToRs (leaf_placement = server_rack) stand in the server rack of the first node they serve,
 * above what the rack holds; racks.c kept their space and power free in every rack. */
static void place_tors(Design *d)
{
	for (int fi = 0; fi < d->nfabrics; fi++) {
		const FabricInst *f = &d->fabrics[fi];
		if (!f->sized || !f->tor)
			continue;
		for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
			const LinkInst *k = &d->links[l];
			if (k->tier != LT_NODE_LEAF || k->a.kind != END_NODE || k->z.kind != END_SWITCH)
				continue;
			SwitchInst *s = &d->switches[k->z.dev];
			if (s->rack >= 0)
				continue;
			RackInst *rk = &d->racks[d->nodes[k->a.dev].rack];
			s->rack = (int)(rk - d->racks);
			s->u = 1 + (int)lround(rk->height_used / RACK_UNIT);
			rk->height_used += s->model->height;
			rk->power += s->model->power;
		}
	}
}

int place_devices(Design *d)
{
	double usable = usable_height(d), cap = rack_cap(d);
	for (int gi = 0; gi < d->nnetgroups; gi++) {
		const NetGroup *g = &d->netgroups[gi];
		const FabricInst *f = &d->fabrics[g->fabric];
		int r = g->first_rack;
		if (r < 0)
			continue;
		RackInst *rk = &d->racks[r];
#define NEXT_IF_FULL(h, p)                                                                   \
	do {                                                                                 \
		if (rk->height_used + (h) > usable + 1e-9 || rk->power + (p) > cap + 1e-6) {  \
			while (++r < d->nracks && !(d->racks[r].network && d->racks[r].group == gi)) \
				;                                                            \
			rk = &d->racks[r < d->nracks ? r : g->first_rack];                   \
		}                                                                            \
	} while (0)
		for (int i = 0; i < g->count; i++) {
			SwitchInst *s = &d->switches[f->first_switch + g->first + i];
			NEXT_IF_FULL(g->unit_h, g->unit_p);
			s->rack = (int)(rk - d->racks);
			s->u = 1 + (int)lround(rk->height_used / RACK_UNIT);
			rk->height_used += g->unit_h;
			rk->power += g->unit_p;
		}
		for (int e = f->first_extra; g->with_extras && e < f->first_extra + f->nextras; e++) {
			ExtraInst *x = &d->extras[e];
			if (x->appliance >= 0) { /* it stands in its storage rack */
				x->rack = d->appliances[x->appliance].rack;
				x->u = d->appliances[x->appliance].u;
				continue;
			}
			double eh = x->type->height, ep = x->type->power;
			NEXT_IF_FULL(eh, ep);
			x->rack = (int)(rk - d->racks);
			x->u = 1 + (int)lround(rk->height_used / RACK_UNIT);
			rk->height_used += eh;
			rk->power += ep;
		}
#undef NEXT_IF_FULL
	}
	place_scale_up_trays(d);
	place_tors(d);
	return 0;
}
