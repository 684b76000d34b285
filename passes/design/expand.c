/*
 * expand.c — a build that grows from an earlier one (`clusterc build SPEC --from OLD_DIR`,
 * docs/daytwo.md): the `keep` stage, after the devices are mounted and before the cables are
 * made, keeps what the new spec allows of the prior build (driver/lock_read.c read it into
 * Design.prior).
 *
 *  1. Compatibility: the same cluster, and each fabric of both builds of the same family,
 *     rails, planes, scalable unit and leaf switch; else a Violation at the fabric (exit 2)
 *     with a note at the lock's line, and nothing is kept.
 *  2. Racks: each new rack that holds devices of a prior rack (the most of them) stands where
 *     that rack stood and keeps its name; the others take the free places of the floor in
 *     the new arrangement's order. Names, places and, through them, cable runs stay.
 *  3. Endpoint cables (node-leaf, terminal): an endpoint port the prior build wired to a
 *     switch port that the new build also has, on a switch of the same tier, plane and rail,
 *     goes back to it; the new plan's link there (if any) takes the endpoint's planned port in
 *     exchange, so every port still carries one link and every rail its leaf.
 *  4. Cables between switch tiers of a fat tree: the link counts between each pair that keep
 *     the most prior links (rewire.c's integer program, after Zhao et al., "Minimal Rewiring",
 *     NSDI 2019), then ports: a kept link on its prior ports, the rest on the lower switch's
 *     remaining up ports and the upper switch's lowest free ones.
 * A fabric sized with grow_to (fat_tree.c) already has every prior link where the new plan
 * wants it: steps 3 and 4 then move nothing. expand_plan.c lists what changed.
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. compatibility --------------------------------------------------------------------- */

static bool compatible(Design *d)
{
	const Prior *p = d->prior;
	d->vsource = VS_FABRIC, d->vfabric = -1;
	if (strcmp(p->cluster, d->cluster_name)) {
		design_violation(d, d->cluster->name_loc, 1, p->cluster_loc,
				 "the cluster the earlier build made",
				 "cluster '%s' cannot grow from %s, a build of cluster '%s': --from "
				 "needs a build of the same cluster",
				 d->cluster_name, p->dir, p->cluster);
		return false;
	}
	bool ok = true;
	for (int i = 0; i < p->nfabrics; i++) {
		const PriorFabric *x = &p->fabrics[i];
		for (int fi = 0; fi < d->nfabrics; fi++) {
			const FabricInst *f = &d->fabrics[fi];
			if (strcmp(f->name, x->name) || !f->sized || !f->family)
				continue;
			const char *what = NULL;
			if (strcmp(f->family->name, x->family))
				what = arena_printf(d->c->arena, "a %s, not a %s", f->family->name, x->family);
			else if (f->rails != x->rails || f->planes != x->planes)
				what = arena_printf(d->c->arena, "%d rails on %d planes, not %d on %d",
						    f->rails, f->planes, x->rails, x->planes);
			else if ((f->rail_optimized ? f->su_nodes : 0) != x->su_nodes)
				what = arena_printf(d->c->arena, "scalable units of %d nodes, not %d",
						    f->rail_optimized ? f->su_nodes : 0, x->su_nodes);
			else if (strcmp(f->switch_model->name, x->switch_model))
				what = arena_printf(d->c->arena, "leaves of '%s', not '%s'",
						    f->switch_model->name, x->switch_model);
			if (what) {
				d->vfabric = fi;
				design_violation(d, f->loc, 1, x->loc, "the fabric as the earlier build made it",
						 "fabric '%s' cannot grow from %s: it is now %s (--from keeps "
						 "ports and cables, which needs the same fabric shape)",
						 f->name, p->dir, what);
				ok = false;
			}
		}
	}
	return ok;
}

/* ---- 2. racks where they stood ------------------------------------------------------------ */

typedef struct Vote {
	int rack, prior;
} Vote;

static int vote_cmp(const void *a, const void *b)
{
	const Vote *x = a, *y = b;
	return x->rack != y->rack ? (x->rack > y->rack) - (x->rack < y->rack)
				  : (x->prior > y->prior) - (x->prior < y->prior);
}

/* Each new rack's prior rack (the one most of its devices stood in, the first on a tie), or
 * -1; each prior rack given to one new rack at most, in the new racks' order. */
static int *rack_votes(const Design *d, const ExpandDevice *dev, int ndev)
{
	const Prior *p = d->prior;
	Arena *a = d->c->arena;
	ExpandName *pd = arena_alloc(a, sizeof *pd * (size_t)(p->ndevices + 1));
	ExpandName *pr = arena_alloc(a, sizeof *pr * (size_t)(p->nracks + 1));
	for (int i = 0; i < p->ndevices; i++)
		pd[i] = (ExpandName){p->devices[i].name, i};
	for (int i = 0; i < p->nracks; i++)
		pr[i] = (ExpandName){p->racks[i].name, i};
	expand_sort_names(pd, p->ndevices);
	expand_sort_names(pr, p->nracks);
	Vote *v = xmalloc(sizeof *v * (size_t)(ndev + 1));
	int nv = 0;
	for (int i = 0; i < ndev; i++) {
		int k = expand_find(pd, p->ndevices, dev[i].name);
		int r = k < 0 ? -1 : expand_find(pr, p->nracks, p->devices[k].rack);
		if (r >= 0 && *dev[i].rack >= 0)
			v[nv++] = (Vote){*dev[i].rack, r};
	}
	qsort(v, (size_t)nv, sizeof *v, vote_cmp);
	int *of = arena_alloc(a, sizeof(int) * (size_t)(d->nracks + 1));
	int *best = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		of[r] = -1, best[r] = 0;
	for (int i = 0; i < nv;) {
		int j = i;
		while (j < nv && v[j].rack == v[i].rack && v[j].prior == v[i].prior)
			j++;
		if (j - i > best[v[i].rack])
			best[v[i].rack] = j - i, of[v[i].rack] = v[i].prior;
		i = j;
	}
	bool *taken = xmalloc(sizeof(bool) * (size_t)(p->nracks + 1));
	memset(taken, 0, sizeof(bool) * (size_t)(p->nracks + 1));
	for (int r = 0; r < d->nracks; r++) {
		if (of[r] >= 0 && taken[of[r]])
			of[r] = -1;
		if (of[r] >= 0)
			taken[of[r]] = true;
	}
	free(taken);
	free(best);
	free(v);
	return of;
}

/* A floor place as a slot of the standing order (stand() in place.c: odd rows run back when
 * the floor has no grid). */
static int slot_of(int row, int pos, int per_row, bool serpentine)
{
	return row * per_row + (serpentine && row % 2 ? per_row - 1 - pos : pos);
}

/* Every index into the racks renumbered after they are put in slot order. */
static void renumber_racks(Design *d, const int *to)
{
	for (int i = 0; i < d->nnodes; i++)
		d->nodes[i].rack = to[d->nodes[i].rack];
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].rack >= 0)
			d->switches[i].rack = to[d->switches[i].rack];
	for (int i = 0; i < d->nextras; i++)
		if (d->extras[i].rack >= 0)
			d->extras[i].rack = to[d->extras[i].rack];
	for (int i = 0; i < d->nappliances; i++)
		d->appliances[i].rack = to[d->appliances[i].rack];
	for (int g = 0; g < d->nnetgroups; g++)
		if (d->netgroups[g].first_rack >= 0)
			d->netgroups[g].first_rack = to[d->netgroups[g].first_rack];
}

static int slot_cmp_key(const int *slot, int a, int b)
{
	return (slot[a] > slot[b]) - (slot[a] < slot[b]);
}

static const int *sort_slots; /* qsort's context: the slot of each rack */

static int by_slot(const void *a, const void *b)
{
	return slot_cmp_key(sort_slots, *(const int *)a, *(const int *)b);
}

static void keep_racks(Design *d)
{
	const Prior *p = d->prior;
	int ndev;
	ExpandDevice *dev = expand_devices(d, &ndev);
	int *of = rack_votes(d, dev, ndev);
	free(dev);
	const Value *floor_v = field_value(d->site, FLD_SITE_FLOOR);
	bool grid = floor_v && floor_v->kind == VAL_CTOR;
	double rack_pitch = field_param_num(floor_v, PRM_GRID_RACK_PITCH);
	double row_pitch = field_param_num(floor_v, PRM_GRID_ROW_PITCH);
	int per_row = d->place.per_row > 0 ? d->place.per_row : 1, n = d->nracks;
	int *slot = xmalloc(sizeof(int) * (size_t)(n + 1));
	int top = 0;
	for (int r = 0; r < n; r++) {
		slot[r] = of[r] >= 0 ? slot_of(p->racks[of[r]].row, p->racks[of[r]].pos, per_row, !grid) : -1;
		top = slot[r] + 1 > top ? slot[r] + 1 : top;
	}
	bool *used = xmalloc(sizeof(bool) * (size_t)(top + n + 1));
	memset(used, 0, sizeof(bool) * (size_t)(top + n + 1));
	for (int r = 0; r < n; r++)
		if (slot[r] >= 0)
			used[slot[r]] = true;
	/* The new racks in the new arrangement's order, on the free places from the front. */
	int next = 0;
	for (int r = 0; r < n; r++) {
		if (slot[r] >= 0)
			continue;
		while (used[next])
			next++;
		slot[r] = next;
		used[next] = true;
	}
	int *order = xmalloc(sizeof(int) * (size_t)(n + 1)), *to = xmalloc(sizeof(int) * (size_t)(n + 1));
	for (int r = 0; r < n; r++)
		order[r] = r;
	sort_slots = slot;
	qsort(order, (size_t)n, sizeof(int), by_slot);
	RackInst *racks = arena_alloc(d->c->arena, sizeof(RackInst) * (size_t)(n + 1));
	int last = 0;
	double width = 0, depth = 0;
	for (int i = 0; i < n; i++) {
		int r = order[i];
		RackInst *k = &racks[i];
		*k = d->racks[r];
		to[r] = i;
		k->row = slot[r] / per_row;
		k->pos = !grid && k->row % 2 ? per_row - 1 - slot[r] % per_row : slot[r] % per_row;
		k->x = k->pos * rack_pitch, k->y = k->row * row_pitch;
		char l[16];
		ir_row_name(k->row, l, sizeof l);
		k->name = of[r] >= 0 ? p->racks[of[r]].name
			  : grid ? arena_printf(d->c->arena, "%s%02d", l, k->pos + 1)
				 : arena_printf(d->c->arena, "R%04d", slot[r] + 1);
		d->expansion.racks_kept += of[r] >= 0;
		last = slot[r] > last ? slot[r] : last;
		width = fmax(width, k->x + rack_pitch), depth = fmax(depth, k->y + row_pitch);
	}
	d->expansion.racks_new = n - d->expansion.racks_kept;
	d->racks = racks;
	renumber_racks(d, to);
	d->place.rows = last / per_row + 1;
	d->place.width = width, d->place.depth = depth;
	int rows = grid ? (int)field_param_num(floor_v, PRM_GRID_ROWS) : 0;
	if (grid && d->place.rows > rows) {
		d->vsource = VS_FLOOR, d->vfabric = -1;
		design_violation(d, floor_v->loc, (double)d->place.rows / rows - 1, d->cluster->name_loc,
				 "cluster built here",
				 "growing from %s, with its racks where they stand, cluster '%s' needs "
				 "%d rows of %d racks; the floor of '%s' has %d",
				 p->dir, d->cluster_name, d->place.rows, per_row, d->site->name, rows);
	}
	free(slot);
	free(used);
	free(order);
	free(to);
}

/* ---- 3 and 4. ports and cables ---------------------------------------------------------------- */

int expand_keep(Design *d)
{
	if (!d->prior)
		return 0;
	d->expansion.rewire_status = "none";
	if (!compatible(d))
		return 0;
	d->expansion.done = true;
	keep_racks(d);
	for (int fi = 0; fi < d->nfabrics; fi++)
		if (d->fabrics[fi].sized)
			expand_wire_fabric(d, fi);
	return 0;
}
