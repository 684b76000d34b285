/*
 * sched.c — the design as workload schedulers see it: a tree of switches over the nodes and
 * the blocks of nodes that communicate best, shared by slurm.c (topology.conf, the block form,
 * topology.yaml) and k8s.c (node labels, Kueue's Topology). docs/schedulers.md gives the
 * mapping and its sources.
 *
 * The tree describes the first fabric (the compute fabric), plane 1 only: schedulers place
 * jobs by locality, and every plane of a multi-plane fabric has the same shape.
 *  - Fat tree: every switch of the plane, leaves at tier 0, spines at 1, cores at 2; a
 *    switch's children are the switches its up links reach it from. Slurm's tree puts each node
 *    under one leaf, so a node hangs under the leaf of its first port on the fabric (rail 0):
 *    in a rail-optimized tree that is the rail-0 leaf of its scalable unit, and the leaves of
 *    the other rails have no node of their own. Slurm refuses a switch with neither nodes nor
 *    switches ("switch X has neither child switches nor nodes", slurmctld 22.05), so such
 *    switches, and any switch left with no child, are marked omitted with the reason.
 *  - Dragonfly: the routers are the leaves (a node under the router of its first port), one
 *    virtual switch per group above its routers, and one virtual top switch above the groups,
 *    since every group reaches every other by its global links. Slurm's documentation
 *    (topology.html, "Hierarchical Networks") describes dragonflies this way, with
 *    TopologyParam=dragonfly.
 *  - Torus: there is no switch; Slurm's tree cannot describe a torus. Nodes of one rack are
 *    neighbours along the torus' first dimension (nodes fill racks in torus order), so each
 *    rack becomes a virtual leaf and one virtual top switch joins them.
 *  - No fabric: one virtual switch holds every node (what topology/flat would do).
 * Nodes without a port on the fabric go under a virtual leaf of their own with no parent:
 * Slurm then never runs one job across them and the fabric's nodes.
 *
 * Blocks (Slurm's topology/block, Kueue's accelerator level): a node's block is its scale-up
 * domain when its domains span several nodes (an NVL72 rack: 18 nodes), else its scalable unit
 * (rail-optimized trees), its leaf (other trees), its dragonfly group, or its rack (torus, no
 * fabric). Blocks come in the order of their first node.
 *
 * Every array lives in the caller's arena.
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

/* The width of numbers in generated names: 3 digits, more when there are 1,000 or more (as
 * passes/wire.c numbers switches). */
static int name_width(int count)
{
	int w = 3;
	for (int x = 1000; count >= x && w < 9; x *= 10)
		w++;
	return w;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

typedef struct Pair {
	int parent, child;
} Pair;

static int pair_cmp(const void *a, const void *b)
{
	const Pair *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return (x->child > y->child) - (x->child < y->child);
}

/* A new switch of the tree. */
static int tree_add(SchedTree *t, const char *name, int tier, bool virt)
{
	SchedSwitch *s = &t->sw[t->nsw];
	*s = (SchedSwitch){.name = name, .tier = tier, .parent = -1, .virt = virt};
	if (tier + 1 > t->tiers)
		t->tiers = tier + 1;
	return t->nsw++;
}

/* Fills children from the (parent, child) pairs, sorted and without repeats. */
static void tree_link(SchedTree *t, Arena *a, Pair *p, int n)
{
	qsort(p, (size_t)n, sizeof *p, pair_cmp);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!k || p[i].parent != p[k - 1].parent || p[i].child != p[k - 1].child)
			p[k++] = p[i];
	for (int i = 0; i < k; i++)
		t->sw[p[i].parent].nchild++;
	for (int s = 0; s < t->nsw; s++) {
		t->sw[s].child = arena_alloc(a, sizeof(int) * (size_t)(t->sw[s].nchild + 1));
		t->sw[s].nchild = 0;
	}
	for (int i = 0; i < k; i++) {
		SchedSwitch *s = &t->sw[p[i].parent];
		s->child[s->nchild++] = p[i].child;
	}
}

/* Fills each leaf's node list from t->leaf. */
static void tree_nodes(SchedTree *t, Arena *a, int nnodes)
{
	for (int n = 0; n < nnodes; n++)
		if (t->leaf[n] >= 0)
			t->sw[t->leaf[n]].nnode++;
	for (int s = 0; s < t->nsw; s++) {
		t->sw[s].node = arena_alloc(a, sizeof(int) * (size_t)(t->sw[s].nnode + 1));
		t->sw[s].nnode = 0;
	}
	for (int n = 0; n < nnodes; n++)
		if (t->leaf[n] >= 0) {
			SchedSwitch *s = &t->sw[t->leaf[n]];
			s->node[s->nnode++] = n;
		}
}

/* Marks what Slurm's tree cannot hold (tier by tier, upward) and sets each kept switch's
 * parent: the lowest-numbered kept switch that lists it. */
static void tree_prune(SchedTree *t)
{
	for (int tier = 0; tier < t->tiers; tier++)
		for (int s = 0; s < t->nsw; s++) {
			SchedSwitch *w = &t->sw[s];
			if (w->tier != tier)
				continue;
			int kept = 0;
			for (int c = 0; c < w->nchild; c++)
				kept += !t->sw[w->child[c]].omitted;
			if (w->nnode == 0 && kept == 0)
				w->omitted = tier == 0 ? "no node has its first port on it"
						       : "none of the switches below it is listed";
		}
	for (int s = t->nsw - 1; s >= 0; s--) {
		const SchedSwitch *w = &t->sw[s];
		if (w->omitted)
			continue;
		for (int c = 0; c < w->nchild; c++)
			t->sw[w->child[c]].parent = s;
	}
}

/* The fabric's switch (global index) serving each node's first port (rail 0) in plane 1, by
 * the links of the given tier. */
static void first_ports(const Design *d, int fi, LinkTier tier, int *sw_of)
{
	int *best = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	for (int n = 0; n < d->nnodes; n++)
		best[n] = -1, sw_of[n] = -1;
	const FabricInst *f = &d->fabrics[fi];
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->plane != 0 || k->tier != tier || k->a.kind != END_NODE ||
		    k->z.kind != END_SWITCH)
			continue;
		int n = k->a.dev;
		if (best[n] < 0 || k->a.port < best[n])
			best[n] = k->a.port, sw_of[n] = k->z.dev;
	}
	free(best);
}

static void build_fat_tree(SchedTree *t, const Design *d, int fi, Arena *a)
{
	const FabricInst *f = &d->fabrics[fi];
	int *tree_of = arena_alloc(a, sizeof(int) * (size_t)(d->nswitches + 1));
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *w = &d->switches[s];
		tree_of[s] = -1;
		int tier = w->tier == ST_LEAF ? 0 : w->tier == ST_SPINE ? 1 : -1;
		if (w->tier == ST_CORE)
			tier = 2;
		if (w->plane == 0 && tier >= 0)
			tree_of[s] = tree_add(t, w->name, tier, false);
	}
	int *sw_of = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	first_ports(d, fi, LT_NODE_LEAF, sw_of);
	for (int n = 0; n < d->nnodes; n++) {
		t->leaf[n] = sw_of[n] >= 0 ? tree_of[sw_of[n]] : -1;
		t->unit[n] = -1;
		if (sw_of[n] >= 0 && f->rail_optimized)
			t->unit[n] = d->switches[sw_of[n]].su;
		else if (sw_of[n] >= 0)
			t->unit[n] = t->leaf[n];
	}
	free(sw_of);
	Pair *p = xmalloc(sizeof(Pair) * (size_t)(f->links + 1));
	int np = 0;
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->plane != 0 || (k->tier != LT_LEAF_SPINE && k->tier != LT_SPINE_CORE))
			continue;
		if (k->a.kind == END_SWITCH && k->z.kind == END_SWITCH)
			p[np++] = (Pair){tree_of[k->z.dev], tree_of[k->a.dev]};
	}
	tree_link(t, a, p, np);
	free(p);
}

static void build_dragonfly(SchedTree *t, const Design *d, int fi, Arena *a)
{
	const FabricInst *f = &d->fabrics[fi];
	int *tree_of = arena_alloc(a, sizeof(int) * (size_t)(d->nswitches + 1));
	int routers = 0;
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++) {
		const SwitchInst *w = &d->switches[s];
		bool router = w->plane == 0 && w->tier == ST_ROUTER;
		tree_of[s] = router ? tree_add(t, w->name, 0, false) : -1;
		routers += tree_of[s] >= 0;
	}
	int g0 = t->nsw, width = name_width(f->df_g);
	for (int g = 0; g < f->df_g; g++)
		tree_add(t, arena_printf(a, "%s-group-%0*d", f->name, width, g + 1), 1, true);
	int top = tree_add(t, arena_printf(a, "%s-global", f->name), 2, true);
	int *sw_of = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	first_ports(d, fi, LT_TERMINAL, sw_of);
	for (int n = 0; n < d->nnodes; n++) {
		t->leaf[n] = sw_of[n] >= 0 ? tree_of[sw_of[n]] : -1;
		t->unit[n] = sw_of[n] >= 0 ? g0 + d->switches[sw_of[n]].group : -1;
	}
	free(sw_of);
	Pair *p = xmalloc(sizeof(Pair) * (size_t)(routers + f->df_g + 1));
	int np = 0;
	for (int s = f->first_switch; s < f->first_switch + f->switches; s++)
		if (tree_of[s] >= 0)
			p[np++] = (Pair){g0 + d->switches[s].group, tree_of[s]};
	for (int g = 0; g < f->df_g; g++)
		p[np++] = (Pair){top, g0 + g};
	tree_link(t, a, p, np);
	free(p);
}

/* A virtual leaf per rack holding nodes of torus fabric fi, in rack order, then the top. */
static void build_racks(SchedTree *t, const Design *d, int fi, Arena *a)
{
	bool *on = arena_alloc(a, sizeof(bool) * (size_t)(d->nnodes + 1));
	const FabricInst *f = &d->fabrics[fi];
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->plane != 0)
			continue;
		if (k->a.kind == END_NODE)
			on[k->a.dev] = true;
		if (k->z.kind == END_NODE)
			on[k->z.dev] = true;
	}
	int *rack_leaf = arena_alloc(a, sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		rack_leaf[r] = -1;
	const char *prefix = f->name;
	for (int n = 0; n < d->nnodes; n++) {
		t->leaf[n] = t->unit[n] = -1;
		if (!on[n])
			continue;
		int r = d->nodes[n].rack;
		if (rack_leaf[r] < 0) {
			const char *name = arena_printf(a, "%s-%s", prefix, d->racks[r].name);
			rack_leaf[r] = tree_add(t, name, 0, true);
		}
		t->leaf[n] = t->unit[n] = rack_leaf[r];
	}
	int leaves = t->nsw;
	int top = tree_add(t, arena_printf(a, "%s-torus", prefix), 1, true);
	Pair *p = xmalloc(sizeof(Pair) * (size_t)(leaves + 1));
	for (int s = 0; s < leaves; s++)
		p[s] = (Pair){top, s};
	tree_link(t, a, p, leaves);
	free(p);
}

/* Whether some scale-up domain spans several nodes. */
static void find_multi_node_domains(SchedTree *t, const Design *d)
{
	for (int g = 0; g < d->ngroups; g++)
		if (d->groups[g].count > 0 && d->groups[g].domain_nodes > 1)
			t->multi_node_domains = true;
}

/* Blocks: scale-up domains of more than one node, else the unit of t->unit. */
static void form_blocks(SchedTree *t, const Design *d, Arena *a, const FabricInst *f)
{
	/* A block key per node: its domain (kind 0), its unit (kind 1), its rack (kind 2). */
	long long *key = xmalloc(sizeof(long long) * (size_t)(d->nnodes + 1));
	int *order = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	for (int n = 0; n < d->nnodes; n++) {
		const NodeInst *ni = &d->nodes[n];
		if (d->groups[ni->group].domain_nodes > 1)
			key[n] = ni->domain;
		else if (t->unit[n] >= 0)
			key[n] = (1LL << 32) + t->unit[n];
		else
			key[n] = (2LL << 32) + ni->rack;
	}
	t->block_of = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	t->block = arena_alloc(a, sizeof(SchedBlock) * (size_t)(d->nnodes + 1));
	t->nblock = 0;
	/* Keys are dense within each kind: a table per kind finds a node's block. */
	int cap = d->nnodes + d->nracks + t->nsw + 1;
	int *seen[3];
	for (int k = 0; k < 3; k++) {
		seen[k] = xmalloc(sizeof(int) * (size_t)cap);
		for (int i = 0; i < cap; i++)
			seen[k][i] = -1;
	}
	int width = f ? name_width(f->sus) : 3;
	bool fat_tree = f && f->family->kind == TOPO_FAT_TREE;
	bool by_su = fat_tree && f->rail_optimized;
	for (int n = 0; n < d->nnodes; n++) {
		int kind = (int)(key[n] >> 32), idx = (int)(key[n] & 0xffffffff);
		if (idx >= cap) /* cannot happen: units, domains and racks are fewer than cap */
			idx = cap - 1;
		int b = seen[kind][idx];
		if (b < 0) {
			b = seen[kind][idx] = t->nblock++;
			SchedBlock *k = &t->block[b];
			if (kind == 0)
				k->name = d->domain_names[d->nodes[n].domain];
			else if (kind == 1 && by_su)
				k->name = arena_printf(a, "%s-su%0*d", f->name, width,
						       idx + 1);
			else if (kind == 1)
				k->name = t->sw[idx].name;
			else
				k->name = d->racks[idx].name;
			k->first = n;
		}
		t->block_of[n] = b;
		t->block[b].nnode++;
		order[n] = b;
	}
	for (int k = 0; k < 3; k++)
		free(seen[k]);
	/* Each block's nodes, in node order. */
	for (int b = 0; b < t->nblock; b++) {
		t->block[b].node = arena_alloc(a, sizeof(int) * (size_t)t->block[b].nnode);
		t->block[b].nnode = 0;
	}
	for (int n = 0; n < d->nnodes; n++) {
		SchedBlock *k = &t->block[order[n]];
		k->node[k->nnode++] = n;
	}
	free(order);
	free(key);
	/* Slurm's BlockSizes. Slurm plans in base blocks: a job needs ceil(nodes / base) of them
	 * and level k joins 2^k neighbouring blocks, so a base far below the usual block makes a
	 * job of one block spread over many; and a block smaller than the base is fatal
	 * ("children count lower than bblock_node_cnt", topology/block's block_record.c). The
	 * base is therefore the smallest block of at least half the most common size, and the
	 * smaller blocks (a partial last unit) are left out. Level k = 2^k blocks, while there
	 * are that many kept blocks (Slurm allows levels 0 to 15). */
	int *size = xmalloc(sizeof(int) * (size_t)(t->nblock + 1));
	for (int b = 0; b < t->nblock; b++)
		size[b] = t->block[b].nnode;
	qsort(size, (size_t)t->nblock, sizeof *size, int_cmp);
	int mode = 0, mode_count = 0;
	for (int b = 0, run = 0; b < t->nblock; b++) {
		run = b && size[b] == size[b - 1] ? run + 1 : 1;
		if (run >= mode_count) /* ties: the larger size */
			mode = size[b], mode_count = run;
	}
	free(size);
	t->block_base = mode;
	for (int b = 0; b < t->nblock; b++)
		if (2 * t->block[b].nnode >= mode && t->block[b].nnode < t->block_base)
			t->block_base = t->block[b].nnode;
	t->blocks_omitted = 0;
	for (int b = 0; b < t->nblock; b++)
		if (t->block[b].nnode < t->block_base) {
			t->block[b].omitted = "smaller than the planning base";
			t->blocks_omitted++;
		}
	int kept = t->nblock - t->blocks_omitted;
	t->block_levels = 0;
	for (long long m = 1; m <= kept && t->block_levels < 16; m *= 2)
		t->block_levels++;
	if (t->multi_node_domains)
		t->block_unit = "scale-up domain";
	else if (fat_tree)
		t->block_unit = by_su ? "scalable unit" : "leaf";
	else if (f && f->family->kind == TOPO_DRAGONFLY)
		t->block_unit = "dragonfly group";
	else
		t->block_unit = "rack";
}

void sched_tree(const Design *d, Arena *a, SchedTree *t)
{
	*t = (SchedTree){0};
	const FabricInst *f = d->nfabrics > 0 && d->fabrics[0].sized ? &d->fabrics[0] : NULL;
	t->fabric = f;
	t->gbps = f ? f->link_speed / 1e9 : 0;
	/* At most every switch of the fabric, its dragonfly groups, a leaf per rack, the leaf of
	 * nodes off the fabric and a top. */
	int cap = (f ? f->switches + f->df_g : 0) + d->nracks + 3;
	t->sw = arena_alloc(a, sizeof(SchedSwitch) * (size_t)cap);
	t->leaf = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	t->unit = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	int topo = f ? (int)f->family->kind : -1;
	if (topo == TOPO_FAT_TREE) {
		t->kind = SCHED_FAT_TREE;
		build_fat_tree(t, d, 0, a);
	} else if (topo == TOPO_DRAGONFLY) {
		t->kind = SCHED_DRAGONFLY;
		build_dragonfly(t, d, 0, a);
	} else if (f) {
		t->kind = SCHED_TORUS;
		build_racks(t, d, 0, a);
	} else {
		t->kind = SCHED_NONE;
		int all = tree_add(t, arena_printf(a, "%s-all", d->cluster_name), 0, true);
		for (int n = 0; n < d->nnodes; n++)
			t->leaf[n] = all, t->unit[n] = -1;
	}
	/* Nodes the fabric does not reach: a leaf of their own. */
	t->off_leaf = -1;
	for (int n = 0; n < d->nnodes; n++)
		if (t->leaf[n] < 0) {
			if (t->off_leaf < 0) {
				const char *name = arena_printf(a, "%s-no-%s", d->cluster_name,
								f ? f->name : "fabric");
				t->off_leaf = tree_add(t, name, 0, true);
			}
			t->leaf[n] = t->off_leaf;
			t->off_fabric++;
		}
	for (int s = 0; s < t->nsw; s++)
		if (!t->sw[s].child)
			t->sw[s].child = arena_alloc(a, sizeof(int));
	tree_nodes(t, a, d->nnodes);
	tree_prune(t);
	find_multi_node_domains(t, d);
	form_blocks(t, d, a, f);
}

const SchedSwitch *sched_ancestor(const SchedTree *t, int node, int tier)
{
	int s = t->leaf[node];
	while (s >= 0 && t->sw[s].tier < tier)
		s = t->sw[s].parent;
	return s >= 0 && t->sw[s].tier == tier ? &t->sw[s] : NULL;
}
