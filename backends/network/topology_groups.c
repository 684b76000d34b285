/*
 * topology_groups.c — what the fabric drawing shows, without Graphviz: each node's place among
 * a fabric's nodes, which links order the drawing's ranks, and, for a fabric too large to draw
 * device by device, its devices in groups and its links counted per pair of groups
 * (topology.c draws the result).
 *
 * Switches are grouped by tier, plane and unit: the scalable unit of a rail-optimized 2-tier
 * tree's leaves, the pod of a 3-tier tree's leaves and spines (its cores form one group per
 * plane: every pod's spines reach every core group, so groups of cores would multiply the
 * edges without showing more), the group of a dragonfly's routers; other switches one group
 * per tier and plane. Endpoints join the unit of the switch group their first link reaches
 * (plane 1 first, so the same unit in every plane), extra devices by type; a torus's nodes
 * are grouped by their block (one rack) when it has blocks, else by their coordinate in its
 * last dimension. Groups and pairs come in the order of
 * first sight (switches, then links), so the drawing is deterministic.
 */
#include "backends.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int topology_devices(const FabricInst *f)
{
	return f->switches + f->nextras + f->members;
}

/* A torus node's coordinate in dimension dim (the torus family's, torus.c). */
static int torus_coord(const FabricInst *f, int node, int dim)
{
	return f->coord ? f->coord[3 * node + dim] : -1;
}

/* Rails 2i and 2i+1 of a torus node are its dimension i. */
bool topology_link_ranks(const FabricInst *f, const LinkInst *l)
{
	if (l->tier == LT_LOCAL || l->tier == LT_GLOBAL)
		return false;
	if (l->tier != LT_TORUS || l->a.kind != END_NODE || l->rail < 0 || f->ndims < 1)
		return true;
	int dim = l->rail % (f->rails / f->planes) / 2, last = f->ndims - 1;
	return dim == last && torus_coord(f, l->a.dev, last) != f->dims[last] - 1;
}

/* ---- an open-addressing map from 64-bit keys to indices (groups, pairs) ------------------ */

typedef struct Map {
	uint64_t *keys;
	int *vals; /* -1: empty */
	size_t cap, n;
} Map;

static void map_init(Map *m, size_t want)
{
	*m = (Map){.cap = 64};
	while (m->cap < 2 * want)
		m->cap *= 2;
	m->keys = xmalloc(sizeof *m->keys * m->cap);
	m->vals = xmalloc(sizeof *m->vals * m->cap);
	for (size_t i = 0; i < m->cap; i++)
		m->vals[i] = -1;
}

static void map_free(Map *m)
{
	free(m->keys);
	free(m->vals);
}

/* The key mixed (MurmurHash3's fmix64) so that every bit of it moves the slot: a product's
 * middle bits alone ignored the high ones, the first group of a pair, and the 262,656-GPU
 * dragonfly's 131,328 pairs fell into the 513 slots of their second group's, probing runs of
 * hundreds (4 % of its build). */
static size_t map_slot(const Map *m, uint64_t key)
{
	uint64_t h = key;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 33;
	size_t i = (size_t)h & (m->cap - 1);
	while (m->vals[i] >= 0 && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void map_put(Map *m, uint64_t key, int val)
{
	size_t i = map_slot(m, key);
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

/* The index stored under key, or next after storing it there. */
static int map_get_or_add(Map *m, uint64_t key, int next)
{
	size_t i = map_slot(m, key);
	if (m->vals[i] >= 0)
		return m->vals[i];
	if (2 * (m->n + 1) > m->cap) {
		Map old = *m;
		map_init(m, old.cap);
		for (size_t j = 0; j < old.cap; j++)
			if (old.vals[j] >= 0)
				map_put(m, old.keys[j], old.vals[j]);
		map_free(&old);
	}
	map_put(m, key, next);
	return next;
}

/* ---- groups --------------------------------------------------------------------------------- */

typedef struct Grouping {
	const Design *d;
	const FabricInst *f;
	TopologyGroups *out;
	Map groups;
	int cap;
	int *sw_group; /* per switch of the fabric */
	int *ep_group; /* per cluster node, then per extra device of the fabric; -1 before */
} Grouping;

static int group_of(Grouping *gr, int kind, int tier, int plane, int unit_kind, int unit,
		    int extra_type, const Part *model)
{
	TopologyGroups *out = gr->out;
	uint64_t key = (uint64_t)kind << 60 | (uint64_t)tier << 52 | (uint64_t)plane << 40 |
		       (uint64_t)extra_type << 24 | (uint64_t)(unit + 1);
	int g = map_get_or_add(&gr->groups, key, out->ngroups);
	if (g == out->ngroups) {
		if (out->ngroups == gr->cap) {
			gr->cap = gr->cap ? 2 * gr->cap : 64;
			out->groups = xrealloc(out->groups, sizeof *out->groups * (size_t)gr->cap);
		}
		out->groups[out->ngroups++] = (TopologyGroup){kind, tier, plane, unit_kind, unit,
							      model, 0};
	}
	TopologyGroup *t = &out->groups[g];
	if (t->model != model)
		t->model = NULL;
	t->count++;
	return g;
}

/* The unit a switch is drawn in: its pod (3-tier trees), its scalable unit, its dragonfly
 * group, or none (cores, spines of 2-tier trees). */
static int switch_unit(const FabricInst *f, const SwitchInst *s, int *unit_kind)
{
	(void)f;
	if (s->pod >= 0) {
		*unit_kind = TOPO_UNIT_POD;
		return s->pod;
	}
	if (s->tier == ST_ROUTER) {
		*unit_kind = TOPO_UNIT_GROUP;
		return s->group;
	}
	if (s->tier == ST_CORE) {
		*unit_kind = TOPO_UNIT_NONE;
		return -1;
	}
	*unit_kind = s->su >= 0 ? TOPO_UNIT_SU : TOPO_UNIT_NONE;
	return s->su;
}

/* The group of a link's end; endpoints join a group on first sight. */
static int end_group(Grouping *gr, End e, End other)
{
	const Design *d = gr->d;
	const FabricInst *f = gr->f;
	if (e.kind == END_SWITCH)
		return gr->sw_group[e.dev - f->first_switch];
	int *slot = &gr->ep_group[e.kind == END_NODE ? e.dev : d->nnodes + e.dev - f->first_extra];
	if (*slot >= 0)
		return *slot;
	int unit_kind = TOPO_UNIT_SLICE, unit, extra_type = 0;
	if (e.kind == END_NODE && f->node_block) {
		/* A torus with blocks: its nodes by block (one rack), whatever their first link
		 * reaches (an optical circuit switch joins every block). */
		unit_kind = TOPO_UNIT_BLOCK;
		unit = f->node_block[e.dev];
	} else if (other.kind == END_SWITCH) {
		int sg = gr->sw_group[other.dev - f->first_switch];
		unit_kind = gr->out->groups[sg].unit_kind;
		unit = gr->out->groups[sg].unit;
	} else {
		bool torus = e.kind == END_NODE && f->ndims > 0;
		unit = torus ? torus_coord(f, e.dev, f->ndims - 1) : -1;
	}
	if (e.kind == END_NODE)
		return *slot = group_of(gr, TOPO_NODES, 0, 0, unit_kind, unit, 0,
					d->nodes[e.dev].type);
	/* Extras of one type together: the type is the first extra of the fabric that has it. */
	const Part *type = d->extras[e.dev].type;
	while (d->extras[f->first_extra + extra_type].type != type)
		extra_type++;
	return *slot = group_of(gr, TOPO_EXTRAS, 0, 0, unit_kind, unit, extra_type, type);
}

bool topology_group_within(const Design *d, const FabricInst *f, int max_groups,
			   TopologyGroups *out)
{
	*out = (TopologyGroups){.most = 1};
	Grouping gr = {.d = d, .f = f, .out = out};
	map_init(&gr.groups, 256);
	gr.sw_group = xmalloc(sizeof(int) * (size_t)(f->switches + 1));
	gr.ep_group = xmalloc(sizeof(int) * (size_t)(d->nnodes + f->nextras + 1));
	for (int i = 0; i < d->nnodes + f->nextras; i++)
		gr.ep_group[i] = -1;
	for (int i = 0; i < f->switches; i++) {
		const SwitchInst *s = &d->switches[f->first_switch + i];
		int unit_kind, unit = switch_unit(f, s, &unit_kind);
		gr.sw_group[i] = group_of(&gr, TOPO_SWITCHES, s->tier, s->plane, unit_kind, unit, 0,
					  s->model);
	}
	/* The endpoints' groups, in the order of the links (a, then z), then the pairs: two
	 * passes, so that a drawing too large to lay out (topology.svg, report.html) is known
	 * before the pairs are counted. */
	bool within = out->ngroups <= max_groups;
	for (int i = f->first_link; within && i < f->first_link + f->links; i++) {
		const LinkInst *l = &d->links[i];
		end_group(&gr, l->a, l->z);
		end_group(&gr, l->z, l->a);
	}
	within = within && out->ngroups <= max_groups;
	Map pairs;
	map_init(&pairs, within ? 256 : 0);
	int cap = 0;
	for (int i = f->first_link; within && i < f->first_link + f->links; i++) {
		const LinkInst *l = &d->links[i];
		int a = end_group(&gr, l->a, l->z), z = end_group(&gr, l->z, l->a);
		uint64_t key = (uint64_t)a << 40 | (uint64_t)z << 16 | (uint64_t)l->plane << 8 |
			       l->tier;
		int p = map_get_or_add(&pairs, key, out->npairs);
		if (p == out->npairs) {
			if (out->npairs == cap) {
				cap = cap ? 2 * cap : 256;
				out->pairs = xrealloc(out->pairs, sizeof *out->pairs * (size_t)cap);
			}
			out->pairs[out->npairs++] = (TopologyPair){
				a, z, l->tier, l->plane, l->rail, l->speed, 0,
				topology_link_ranks(f, l)};
		}
		TopologyPair *q = &out->pairs[p];
		if (q->rail != l->rail)
			q->rail = -1;
		if (++q->count > out->most)
			out->most = q->count;
	}
	map_free(&pairs);
	map_free(&gr.groups);
	free(gr.sw_group);
	free(gr.ep_group);
	return within;
}

void topology_group(const Design *d, const FabricInst *f, TopologyGroups *out)
{
	topology_group_within(d, f, INT_MAX, out);
}

void topology_groups_free(TopologyGroups *g)
{
	free(g->groups);
	free(g->pairs);
	*g = (TopologyGroups){0};
}
