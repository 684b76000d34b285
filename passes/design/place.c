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
	return d->net_rack_type->height - d->net_rack_type->rack.reserved;
}

static double rack_cap(const Design *d)
{
	return d->net_rack_cap;
}

/* Whether a switch rack holding used_h, used_p and used_c takes one more unit of h, p, c. */
static bool rack_takes(const Design *d, double used_h, double used_p, int used_c, double h,
		       double p, int c)
{
	return used_h + h <= usable_height(d) + 1e-9 && used_p + p <= rack_cap(d) + 1e-6 &&
	       (!d->net_rack_cables || used_c + c <= d->net_rack_cables);
}

/* The patch panel of a fabric that runs structured cabling (trunk.c), or NULL. */
static const Part *panel_of(const Design *d, const FabricInst *f)
{
	const Value *v = f ? field_value(f->decl, FLD_FABRIC_PATCH_PANEL) : NULL;
	const Part *p = v ? parts_of(d, v->ref) : NULL;
	return p && p->kind == KIND_PANEL && p->panel.ports > 0 ? p : NULL;
}

/* Rack space (m) a switch of fabric f keeps for patch panels per cable it ends: its share of a
 * panel's adapters, at most one each; and one panel more a rack (keep), since panels are
 * whole. */
static double panel_share(const Design *d, const FabricInst *f)
{
	const Part *p = panel_of(d, f);
	return p ? p->height / p->panel.ports : 0;
}

static double panel_keep(const Design *d, const FabricInst *f)
{
	const Part *p = panel_of(d, f);
	return p ? p->height : 0;
}

/* Racks for `count` units of height h, power p and c cables, then the extra devices of a
 * fabric; *by_cables counts the racks the cable limit alone opened. */
static int pack_count(const Design *d, int count, double h, double p, int c, const FabricInst *f,
		      bool extras, bool *too_big, int *by_cables)
{
	int racks = 0, used_c = 0;
	double used_h = usable_height(d) + 1, used_p = 0; /* "full": the first unit opens a rack */
	*too_big = false;
	double keep = panel_keep(d, f);
	for (int i = 0; i < count; i++) {
		if (!rack_takes(d, keep, 0, 0, h, p, c)) {
			*too_big = true;
			return racks;
		}
		if (!rack_takes(d, used_h + keep, used_p, used_c, h, p, c)) {
			if (i > 0 && rack_takes(d, used_h + keep, used_p, 0, h, p, 0))
				(*by_cables)++;
			racks++;
			used_h = used_p = 0, used_c = 0;
		}
		used_h += h;
		used_p += p;
		used_c += c;
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
			if (!rack_takes(d, 0, 0, 0, eh, ep, 0)) {
				*too_big = true;
				return racks;
			}
			if (!rack_takes(d, used_h + keep, used_p, used_c, eh, ep, 0)) {
				racks++;
				used_h = used_p = 0, used_c = 0;
			}
			used_h += eh;
			used_p += ep;
		}
	}
	return racks;
}

/* The most a port of fabric f at `speed` may draw in transceivers or an active cable end:
 * among the media in scope that carry the speed, a transceiver's power per port (a twin-port
 * module's half) or half an active cable's (its two ends). Switch racks are packed with every
 * port at this bound, since media are chosen only once the racks stand (cable.c): heat.c then
 * adds what the chosen media draw, which stays within it. */
static double port_optics_bound(const Design *d, const FabricInst *f, double speed)
{
	const Value *list = field_value(f->decl, FLD_FABRIC_MEDIA);
	bool listed = list && list->kind == VAL_LIST;
	int n = listed ? list->n : d->nparts;
	double most = 0;
	for (int i = 0; i < n; i++) {
		const Part *x = listed ? parts_of(d, list->items[i]->ref) : &d->parts[i];
		if ((x->kind != KIND_CABLE && x->kind != KIND_OPTIC) || !x->complete ||
		    (x->kind == KIND_CABLE && x->cable.media == MEDIA_TRUNK))
			continue;
		bool optic = x->kind == KIND_OPTIC;
		double carries = optic ? x->optic.speed : x->cable.speed;
		double per_end = optic ? x->power / (x->optic.ports > 1 ? x->optic.ports : 1) : x->power / 2;
		if (carries >= speed * (1 - 1e-9) && per_end > most)
			most = per_end;
	}
	return most;
}

/* The tier of a tree's switch `first` (wiring order in a plane: leaves, spines, cores). */
static int tier_of(const FabricInst *f, int first)
{
	if (!f->family->tree)
		return 0;
	return first < f->per_plane[ST_LEAF] ? 0 : first < f->per_plane[ST_LEAF] + f->per_plane[ST_SPINE] ? 1 : 2;
}

/* Cables one switch of tier t may end: its ports down and up (a tree), else its radix. */
static int switch_cables(const FabricInst *f, int t)
{
	if (f->family->tree && f->down[t] + f->up[t] > 0)
		return f->down[t] + f->up[t] + (t == 0 ? f->backup_ports : 0);
	return f->tier_radix[t] > 0 ? f->tier_radix[t] : f->radix;
}

static NetGroup *add_group(Design *d, int fabric, int plane, const RackGroupSpec *g, int pod)
{
	NetGroup *n = &d->netgroups[d->nnetgroups++];
	const FabricInst *f = &d->fabrics[fabric];
	int per_plane = 0;
	for (int t = 0; t < ST_COUNT; t++)
		per_plane += f->per_plane[t];
	/* The model of the group's switches: a tree's tiers may each have their own. */
	const Part *m = f->switch_model;
	int t = tier_of(f, g->first);
	if (f->family->tree && f->tier_model[t])
		m = f->tier_model[t];
	int cables = switch_cables(f, t);
	double speed = f->tier_speed[t] > 0 ? f->tier_speed[t] : f->link_speed;
	double optics = cables * port_optics_bound(d, f, speed);
	*n = (NetGroup){fabric, plane, plane * per_plane + g->first, g->count, g->extras,
			m->height + cables * panel_share(d, f), m->power + optics, cables, t, pod, g->serve_hi < 0, 0, g->serve_lo,
			g->serve_hi, 0, -1};
	return n;
}

/* The nodes under leaves [lo, hi) of a plane, by fabric ordinal: those the plane's leaf
 * groups among `spec` give for them, else (ToRs: no leaf groups) the same share of nodes. */
static void nodes_under(const FabricInst *f, const RackGroupSpec *spec, int n, int lo, int hi,
			int *serve_lo, int *serve_hi)
{
	*serve_lo = -1, *serve_hi = -1;
	for (int k = 0; k < n; k++) {
		const RackGroupSpec *g = &spec[k];
		if (g->serve_hi < 0 || g->first >= f->per_plane[ST_LEAF] || g->first < lo || g->first >= hi)
			continue;
		if (*serve_lo < 0 || g->serve_lo < *serve_lo)
			*serve_lo = g->serve_lo;
		if (g->serve_hi > *serve_hi)
			*serve_hi = g->serve_hi;
	}
	if (*serve_lo < 0) {
		int leaves = f->per_plane[ST_LEAF] > 0 ? f->per_plane[ST_LEAF] : 1;
		long long nodes = f->rails > 0 ? f->endpoints / f->rails : 0; /* sized, not wired yet */
		*serve_lo = (int)(nodes * lo / leaves);
		*serve_hi = (int)(nodes * hi / leaves);
	}
}

/* A 3-tier tree's central group (its spines, perhaps with its cores) as one group of spines
 * per pod, serving the pod's nodes, then the cores (with the managers) serving all: pod
 * spines stand with their pod (docs/placement.md). Other groups as they are. */
static void add_groups(Design *d, int fi, int pl, const RackGroupSpec *spec, int n)
{
	const FabricInst *f = &d->fabrics[fi];
	int leaves = f->per_plane[ST_LEAF], spines = f->per_plane[ST_SPINE];
	int up = f->up[0];
	for (int k = 0; k < n; k++) {
		const RackGroupSpec *g = &spec[k];
		bool central_spines = f->family->tree && f->tiers == 3 && f->pods > 1 && up > 0 &&
				      spines == f->pods * up && g->serve_hi < 0 && g->first == leaves &&
				      g->count >= spines;
		if (!central_spines) {
			add_group(d, fi, pl, g, -1);
			continue;
		}
		for (int p = 0; p < f->pods; p++) {
			RackGroupSpec s = {leaves + p * up, up, false, 0, 0};
			nodes_under(f, spec, n, p * f->pod_leaves, (p + 1) * f->pod_leaves, &s.serve_lo,
				    &s.serve_hi);
			add_group(d, fi, pl, &s, p);
		}
		if (g->count > spines || g->extras) {
			RackGroupSpec c = {leaves + spines, g->count - spines, g->extras, 0, -1};
			add_group(d, fi, pl, &c, -1);
		}
	}
}

int place_network_racks(Design *d)
{
	int before = d->violations.n;
	int bound = 1;
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (f->sized)
			bound += f->planes * (f->switches / f->planes + 2 + f->pods) + 1;
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
		int c = switch_cables(f, 0);
		double h = f->switch_model->height + c * panel_share(d, f),
		       p = f->switch_model->power + c * port_optics_bound(d, f, f->link_speed);
		int fit = (int)fmin(floor(usable / h + 1e-9), p > 0 ? floor(cap / p + 1e-9) : 1e9);
		if (d->net_rack_cables && c > 0 && d->net_rack_cables / c < fit)
			fit = d->net_rack_cables / c;
		if (fit < 1)
			fit = 1;
		/* A group per switch at most, and one for the extra devices. */
		if (spec_cap < f->switches / f->planes + 2) {
			spec_cap = f->switches / f->planes + 2;
			spec = xrealloc(spec, sizeof *spec * (size_t)spec_cap);
		}
		for (int pl = 0; pl < f->planes; pl++) {
			int n = f->family->rack_groups(f, pl, fit, spec);
			add_groups(d, fi, pl, spec, n);
		}
	}
	free(spec);
	d->node_racks = (int)d->t.racks;
	d->network_racks = 0;
	d->racks_for_cables = 0;
	int said = -1; /* the fabric last said not to fit */
	for (int i = 0; i < d->nnetgroups; i++) {
		NetGroup *g = &d->netgroups[i];
		bool too_big;
		g->racks = pack_count(d, g->count, g->unit_h, g->unit_p, g->unit_cables,
				      &d->fabrics[g->fabric], g->with_extras, &too_big,
				      &d->racks_for_cables);
		/* Said once a fabric; the groups' counts stay whole (elaborate and place_racks size
		 * their racks by them even when the design is not wired). */
		if (too_big && g->fabric != said) {
			const FabricInst *f = &d->fabrics[said = g->fabric];
			d->vsource = VS_FABRIC, d->vfabric = g->fabric;
			design_violation(d, f->decl->name_loc, 1, d->net_rack->name_loc, "the network rack type",
					 "a switch or device of fabric '%s' does not fit network rack '%s' "
					 "(height, power with its optics, or cables)",
					 f->decl->name, d->net_rack->name);
		}
		d->network_racks += g->racks;
	}
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
		if (racks > cap_racks)
			design_violation_quantity(d, racks, cap_racks, DIM_NONE);
	}
	/* A zone with its own grid holds its racks (the switch racks in theirs). */
	d->zones[d->net_zone].network_racks = d->network_racks;
	for (int i = 0; d->zoned && i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		int racks = z->racks + z->network_racks, cap_racks = z->floor_rows * z->per_row;
		if (!z->own_floor || racks <= cap_racks)
			continue;
		d->vsource = VS_FLOOR, d->vfabric = -1;
		design_violation(d, field_value(z->decl, FLD_ZONE_FLOOR)->loc,
				 (double)racks / cap_racks - 1, d->cluster->name_loc, "cluster built here",
				 "zone '%s' needs %d racks; its floor has %d positions (%d rows of %d)",
				 z->name, racks, cap_racks, z->floor_rows, z->per_row);
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


/* The links between the groups and the node racks, as arrange.c weighs them (its header):
 * a group serving nodes (a unit's leaves, a dragonfly group's routers, a pod's spines under
 * ToRs) to those nodes' racks, by the node's ports on the plane; a tree's leaf group to the
 * spines its leaves reach (a 3-tier tree: its pod's), up links each; a spine group to the
 * cores, its up links; a central group with nothing else to the fabric's node racks. A
 * dragonfly's global links reach every group alike and are left out. */
typedef struct Edges {
	ArrangeEdge *e;
	int n, cap;
} Edges;

static void edge(Edges *x, int a, int b, double w)
{
	if (w <= 0)
		return;
	if (x->n && x->e[x->n - 1].a == a && x->e[x->n - 1].b == b) {
		x->e[x->n - 1].w += w; /* consecutive nodes of one rack */
		return;
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 256;
		x->e = xrealloc(x->e, sizeof(ArrangeEdge) * (size_t)x->cap);
	}
	x->e[x->n++] = (ArrangeEdge){a, b, w};
}

static void node_edges(const Design *d, Edges *x, int me, const int *ord, int count, int lo, int hi,
		       double w)
{
	for (int i = lo < 0 ? 0 : lo; i < (hi > count ? count : hi); i++)
		edge(x, d->nodes[ord[i]].rack, me, w);
}

static void group_edges(const Design *d, Edges *x, int gi, int *const *fnodes, const int *fcount)
{
	const NetGroup *g = &d->netgroups[gi];
	const FabricInst *f = &d->fabrics[g->fabric];
	int me = d->nracks + gi, per_plane = 0, count = fcount[g->fabric];
	for (int t = 0; t < ST_COUNT; t++)
		per_plane += f->per_plane[t];
	double rpp = f->planes > 0 ? (double)f->rails / f->planes : 1;
	int first = g->first - g->plane * per_plane, leaves = f->per_plane[ST_LEAF];
	bool linked = false;
	if (!g->central && g->serve_hi >= 0 && (g->tier == 0 || !f->family->tree || f->tor)) {
		node_edges(d, x, me, fnodes[g->fabric], count, g->serve_lo, g->serve_hi, rpp);
		linked = true;
	}
	for (int hi = 0; f->family->tree && hi < d->nnetgroups; hi++) {
		const NetGroup *h = &d->netgroups[hi];
		if (hi == gi || h->fabric != g->fabric || h->plane != g->plane)
			continue;
		int hfirst = h->first - h->plane * per_plane;
		double w = 0;
		if (g->tier == 0 && h->tier == 1 && f->tiers == 2 && f->per_plane[ST_SPINE] > 0) {
			w = (double)g->count * f->up[0] * h->count / f->per_plane[ST_SPINE];
		} else if (g->tier == 0 && h->tier == 1 && f->tiers == 3 && h->pod >= 0 && f->pod_leaves > 0) {
			int lo = h->pod * f->pod_leaves, hi2 = lo + f->pod_leaves;
			int a = first > lo ? first : lo, b = first + g->count < hi2 ? first + g->count : hi2;
			w = b > a ? (double)(b - a) * h->count : 0;
		} else if (g->tier == 1 && h->tier == 2) {
			w = (double)g->count * f->up[1] * (hfirst >= leaves ? 1 : 0);
		}
		if (w > 0) {
			edge(x, me, d->nracks + hi, w);
			linked = true;
		}
		if ((g->tier == 2 && h->tier == 1) || (g->tier == 1 && h->tier == 0))
			linked = true; /* the other end made the edge */
	}
	if (!linked)
		node_edges(d, x, me, fnodes[g->fabric], count, 0, count, 1);
}

/* Whether a group may stand before node rack k: not inside a multi-rack scale-up domain. */
static bool *allowed_keys(const Design *d, const RackInst *racks)
{
	bool *ok = xmalloc(sizeof(bool) * (size_t)(d->nracks + 1));
	/* Zones: the switch racks stand in their zone's rows, among its node racks when it has
	 * some, else where the cluster lists the zone (node racks are in zone order: zone_order). */
	int lo = 0, hi = d->nracks;
	if (d->zoned) {
		lo = 0;
		while (lo < d->nracks && racks[lo].zone < d->net_zone)
			lo++;
		hi = lo;
		while (hi < d->nracks && racks[hi].zone == d->net_zone)
			hi++;
	}
	for (int k = 0; k <= d->nracks; k++)
		ok[k] = k >= lo && k <= hi &&
			(k == 0 || k == d->nracks || racks[k].domain < 0 || racks[k].domain != racks[k - 1].domain);
	if (!ok[lo] && !ok[hi])
		ok[lo] = true; /* a zone inside one multi-rack domain cannot be: keep a key */
	return ok;
}

/* Zones: the node and storage racks in the order of their zones (stable: each group's racks
 * stay together), every index into them renumbered. */
static void zone_order(Design *d)
{
	int n = d->nracks, *to = xmalloc(sizeof(int) * (size_t)(n + 1));
	RackInst *sorted = arena_alloc(d->p->c->arena, sizeof(RackInst) * (size_t)(n + 1));
	int k = 0;
	for (int z = 0; z < d->nzones; z++)
		for (int i = 0; i < n; i++)
			if (d->racks[i].zone == z)
				to[i] = k, sorted[k++] = d->racks[i];
	for (int i = 0; i < d->nnodes; i++)
		d->nodes[i].rack = to[d->nodes[i].rack];
	for (int i = 0; i < d->nappliances; i++)
		d->appliances[i].rack = to[d->appliances[i].rack];
	d->racks = sorted;
	free(to);
}

/* The key of a home (a fractional node-rack index): the node rack it falls before, moved to
 * the start of a scale-up domain it would fall inside. */
static int key_of(const Design *d, const bool *ok, double home)
{
	int k = (int)floor(home);
	k = k < 0 ? 0 : k > d->nracks ? d->nracks : k;
	int j = k;
	while (j >= 0 && !ok[j])
		j--;
	while (j < 0 && !ok[++k]) /* before a zone's first allowed key: its first */
		;
	return j >= 0 ? j : k;
}

/* Without a floor grid: rows of DEFAULT_PER_ROW, odd rows running back (serpentine, so racks
 * next in order always stand side by side, also across a row's end), or for a larger hall as
 * many racks a row as keep it near square — rows × row_pitch ≈ per_row × rack_pitch, so per_row = √(n × row_pitch
 * / rack_pitch) — so that a hundred thousand GPUs do not stand in a hall hundreds of metres
 * deep (issue 16). */
static int default_per_row(int n, double rack_pitch, double row_pitch)
{
	int square = (int)ceil(sqrt((double)n * row_pitch / rack_pitch) - 1e-9);
	return square > DEFAULT_PER_ROW ? square : DEFAULT_PER_ROW;
}

/* Rows and positions of the racks in sequence order; the gaps multi-rack domains leave. On
 * `report`, what the floor cannot hold is a Violation. Returns the positions taken. */
static int stand(Design *d, RackInst **seq, int n, int per_row, bool serpentine,
		 double rack_pitch, double row_pitch, bool report)
{
	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	int at = 0;
	bool reported = false;
	for (int i = 0; i < n; i++) {
		RackInst *r = seq[i];
		int span = r->domain_span;
		if (span > 1 && span <= per_row && at % per_row + span > per_row)
			at += per_row - at % per_row;
		if (span > per_row && report && !reported) {
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
		r->pos = serpentine && r->row % 2 ? per_row - 1 - at % per_row : at % per_row;
		at++;
		r->x = r->pos * rack_pitch;
		r->y = r->row * row_pitch;
	}
	return at;
}

/* Zones (docs/placement.md, "Zones"): each zone's racks in rows of their own, at its own
 * row length and pitches (its grid, else the hall's), the zones one after another across the
 * hall in sequence order; a row's centre lies a row pitch from the last (half of each zone's
 * pitch between two zones). A rack's x and y are where its cables start, so runs between zones
 * come out at their real length (cable.c). A zone's rows beyond its grid's were refused with
 * its racks (place_network_racks). Returns the rows taken. */
static int stand_zoned(Design *d, RackInst **seq, int n, int hall_per_row, bool serpentine,
		       double hall_pitch, double hall_row_pitch)
{
	for (int z = 0; z < d->nzones; z++)
		d->zones[z].rows = 0, d->zones[z].first_row = -1, d->zones[z].width = 0;
	int row = -1, col = 0, per_row = hall_per_row, zone = -1;
	double y = 0, pitch = hall_row_pitch;
	for (int i = 0; i < n; i++) {
		RackInst *r = seq[i];
		ZoneInst *z = &d->zones[r->zone];
		int zr = z->per_row > 0 ? z->per_row : hall_per_row;
		int span = r->domain_span;
		bool new_row = r->zone != zone || col >= per_row ||
			       (span > 1 && span <= zr && col + span > zr);
		if (new_row) {
			double next = z->row_pitch > 0 ? z->row_pitch : hall_row_pitch;
			y += row < 0 ? 0 : r->zone != zone ? (pitch + next) / 2 : next;
			pitch = next;
			row++, col = 0;
			if (r->zone != zone && z->first_row < 0)
				z->first_row = row, z->y0 = y;
			z->rows++;
			zone = r->zone, per_row = zr;
		}
		double rp = z->rack_pitch > 0 ? z->rack_pitch : hall_pitch;
		r->row = row;
		r->pos = serpentine && !z->own_floor && row % 2 ? per_row - 1 - col : col;
		r->x = r->pos * rp;
		r->y = y;
		col++;
		z->width = fmax(z->width, (per_row)*rp);
		z->depth = y + pitch - z->y0;
	}
	for (int z = 0; z < d->nzones; z++) {
		ZoneInst *zi = &d->zones[z];
		int zr = zi->per_row > 0 ? zi->per_row : hall_per_row;
		double rp = zi->rack_pitch > 0 ? zi->rack_pitch : hall_pitch;
		double rw = zi->row_pitch > 0 ? zi->row_pitch : hall_row_pitch;
		zi->area = zi->rows * zr * rp * rw;
	}
	return row + 1;
}

/* The order of the racks: node racks in their order, each network group's racks as a block
 * before the node rack of its key. The keys of the median rule (each group in the middle of
 * the racks of the nodes it serves, spines and cores in the middle of all) are kept for the
 * report's comparison (median_x, median_y); the racks stand at the keys arrange.c finds,
 * started from the same rule with a pod's spines in the middle of their pod. */
int place_racks(Design *d)
{
	Arena *a = d->p->c->arena;
	if (d->zoned)
		zone_order(d);
	int total = d->nracks + d->network_racks;
	RackInst *racks = arena_alloc(a, sizeof(RackInst) * (size_t)(total + 1));
	memcpy(racks, d->racks, sizeof(RackInst) * (size_t)d->nracks);
	int k = d->nracks;
	int **fnodes = xmalloc(sizeof(int *) * (size_t)(d->nfabrics + 1));
	int *fcount = xmalloc(sizeof(int) * (size_t)(d->nfabrics + 1));
	for (int fi = 0; fi < d->nfabrics; fi++)
		fnodes[fi] = NULL;
	int G = d->nnetgroups;
	int *median = xmalloc(sizeof(int) * (size_t)(G + 1)), *key = xmalloc(sizeof(int) * (size_t)(G + 1));
	int *group_racks = xmalloc(sizeof(int) * (size_t)(G + 1));
	bool *ok = allowed_keys(d, racks);
	for (int gi = 0; gi < G; gi++) {
		NetGroup *g = &d->netgroups[gi];
		const FabricInst *f = &d->fabrics[g->fabric];
		if (!fnodes[g->fabric])
			fnodes[g->fabric] = fabric_nodes(d, f, &fcount[g->fabric]);
		int count = fcount[g->fabric], *ord = fnodes[g->fabric];
		double all = home_of(d, ord, count, 0, count);
		g->home = g->serve_hi < 0 ? all : home_of(d, ord, count, g->serve_lo, g->serve_hi);
		median[gi] = key_of(d, ok, g->pod >= 0 ? all : g->home);
		key[gi] = key_of(d, ok, g->home);
		group_racks[gi] = g->racks;
		for (int r = 0; r < g->racks; r++) {
			RackInst *rk = &racks[k++];
			*rk = (RackInst){.network = true, .first_node = -1};
			design_rack_init(d, rk);
			rk->group = gi;
		}
	}
	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	bool grid = floor_v && floor_v->kind == VAL_CTOR;
	double rack_pitch = field_param_num(floor_v, PRM_GRID_RACK_PITCH);
	double row_pitch = field_param_num(floor_v, PRM_GRID_ROW_PITCH);
	int per_row = grid ? (int)field_param_num(floor_v, PRM_GRID_RACKS_PER_ROW)
			   : default_per_row(k, rack_pitch, row_pitch);
	/* The racks of a scale-up domain over several racks stand side by side in one row. */
	int longest = 0;
	for (int i = 0; i < k; i++)
		if (racks[i].domain_span > longest)
			longest = racks[i].domain_span;
	if (!grid && longest > per_row)
		per_row = longest;

	Edges ex = {0};
	for (int gi = 0; gi < G; gi++)
		group_edges(d, &ex, gi, fnodes, fcount);
	for (int fi = 0; fi < d->nfabrics; fi++)
		free(fnodes[fi]);
	free(fnodes);
	free(fcount);
	ArrangeProblem pb = {d->nracks, G, group_racks, ok, per_row, !grid, rack_pitch, row_pitch,
			     ex.e, ex.n, 0, false, 0, NULL, NULL};
	d->place = (PlaceReport){.per_row = per_row};
	if (G > 0)
		d->place.moves = arrange_optimise(&pb, key, ARRANGE_SWEEPS, &d->place.sweeps);
	free(ex.e);

	/* The median rule's positions, then the racks' own. */
	/* arrange_positions writes each rack's position, then each group's first: a group of no
	 * rack (a switch too big for its rack) still takes one */
	int *at = xmalloc(sizeof(int) * (size_t)(k + G + 1));
	RackInst **seq = xmalloc(sizeof(RackInst *) * (size_t)(k + 1));
	int *to = xmalloc(sizeof(int) * (size_t)(k + 1));
	for (int pass = 0; pass < 2; pass++) {
		arrange_positions(&pb, pass ? key : median, at);
		int next = d->nracks;
		for (int j = 0; j < d->nracks; j++)
			seq[at[j]] = &racks[j], to[j] = at[j];
		for (int gi = 0; gi < G; gi++)
			for (int r = 0; r < group_racks[gi]; r++)
				seq[at[d->nracks + gi] + r] = &racks[next], to[next++] = at[d->nracks + gi] + r;
		if (d->zoned) {
			d->place.rows = stand_zoned(d, seq, k, per_row, !grid, rack_pitch, row_pitch);
			for (int i = 0; i < k && !pass; i++)
				racks[i].median_x = racks[i].x, racks[i].median_y = racks[i].y;
			continue;
		}
		int used = stand(d, seq, k, per_row, !grid, rack_pitch, row_pitch, pass == 1);
		for (int i = 0; i < k && !pass; i++)
			racks[i].median_x = racks[i].x, racks[i].median_y = racks[i].y;
		if (pass && grid && used > k) {
			/* Rows the gaps left: the floor must still hold them. */
			int rows = (int)field_param_num(floor_v, PRM_GRID_ROWS);
			int need = (used + per_row - 1) / per_row;
			if (need > rows) {
				d->vsource = VS_FLOOR, d->vfabric = -1;
				design_violation(d, floor_v->loc, (double)need / rows - 1, d->cluster->name_loc,
						 "cluster built here",
						 "cluster '%s' needs %d rows of %d racks to keep each scale-up "
						 "domain in one row; the floor of '%s' has %d",
						 d->cluster->name, need, per_row, d->site->name, rows);
			}
		}
		d->place.rows = (used + per_row - 1) / per_row;
	}
	free(median);
	free(key);
	free(group_racks);
	free(ok);
	free(at);

	/* The racks in their order, and every index into them renumbered. */
	d->racks = arena_alloc(a, sizeof(RackInst) * (size_t)(k + 1));
	for (int i = 0; i < k; i++)
		d->racks[i] = *seq[i];
	for (int i = 0; i < d->nnodes; i++)
		d->nodes[i].rack = to[d->nodes[i].rack];
	for (int i = 0; i < d->nappliances; i++)
		d->appliances[i].rack = to[d->appliances[i].rack];
	for (int gi = 0; gi < G; gi++)
		d->netgroups[gi].first_rack = -1;
	for (int i = k - 1; i >= 0; i--)
		if (d->racks[i].network)
			d->netgroups[d->racks[i].group].first_rack = i;
	d->nracks = k;
	free(seq);
	free(to);
	double width = 0, depth = 0;
	for (int i = 0; i < k; i++) {
		RackInst *r = &d->racks[i];
		char l[16];
		ir_row_name(r->row, l, sizeof l);
		bool letters = grid || (d->zoned && d->zones[r->zone].own_floor);
		r->name = letters ? arena_printf(a, "%s%02d", l, r->pos + 1) : arena_printf(a, "R%04d", i + 1);
		const ZoneInst *z = &d->zones[r->zone];
		double rp = d->zoned && z->rack_pitch > 0 ? z->rack_pitch : rack_pitch;
		double rw = d->zoned && z->row_pitch > 0 ? z->row_pitch : row_pitch;
		width = fmax(width, r->x + rp), depth = fmax(depth, r->y + rw);
	}
	d->place.width = width, d->place.depth = depth;
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

/* The next rack of group gi after rack r (back to its first when none: pack_count planned
 * enough racks, so that does not happen). */
static int next_group_rack(const Design *d, int gi, int r)
{
	while (++r < d->nracks && !(d->racks[r].network && d->racks[r].group == gi))
		;
	return r < d->nracks ? r : d->netgroups[gi].first_rack;
}

/* Switches and the fabric's devices into their group's racks, in wiring order, by the same
 * rule pack_count planned them with: height, power with the optics at their bound, cables.
 * A rack's power counts the devices; heat.c adds the optics chosen. */
int place_devices(Design *d)
{
	for (int gi = 0; gi < d->nnetgroups; gi++) {
		const NetGroup *g = &d->netgroups[gi];
		const FabricInst *f = &d->fabrics[g->fabric];
		int r = g->first_rack;
		if (r < 0)
			continue;
		double used_p = 0, used_share = 0; /* the panel space its switches keep (trunk.c) */
		double keep = panel_keep(d, f), share_per_cable = panel_share(d, f);
		int used_c = 0;
		for (int i = 0, e = f->first_extra; i < g->count + (g->with_extras ? f->nextras : 0); i++) {
			bool sw = i < g->count;
			SwitchInst *s = sw ? &d->switches[f->first_switch + g->first + i] : NULL;
			ExtraInst *x = sw ? NULL : &d->extras[e++];
			if (x && x->appliance >= 0) { /* it stands in its storage rack */
				x->rack = d->appliances[x->appliance].rack;
				x->u = d->appliances[x->appliance].u;
				continue;
			}
			double h = sw ? g->unit_h : x->type->height, p = sw ? g->unit_p : x->type->power;
			int c = sw ? g->unit_cables : 0;
			RackInst *rk = &d->racks[r];
			if (!rack_takes(d, rk->height_used + used_share + keep, used_p, used_c, h, p, c)) {
				r = next_group_rack(d, gi, r);
				rk = &d->racks[r];
				used_p = 0, used_c = 0, used_share = 0;
			}
			/* A switch mounts at its own height; its share of the panels stays free above. */
			double share = sw ? c * share_per_cable : 0;
			used_share += share;
			h -= share;
			int u = 1 + (int)lround(rk->height_used / RACK_UNIT);
			if (sw)
				s->rack = r, s->u = u;
			else
				x->rack = r, x->u = u;
			rk->height_used += h;
			rk->power += sw ? s->model->power : p;
			used_p += p;
			used_c += c;
		}
	}
	place_scale_up_trays(d);
	place_tors(d);
	return 0;
}
