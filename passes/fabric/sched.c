/*
 * sched.c — the pass that makes the design as workload schedulers see it (Design.sched): a
 * tree of switches over the nodes and the blocks of nodes that communicate best, which
 * backends/sched/slurm.c (topology.conf, the block form, topology.yaml) and k8s.c (node labels,
 * Kueue's Topology) only render. docs/schedulers.md gives the mapping and its sources.
 *
 * The tree describes the first fabric (the compute fabric), plane 1 only: schedulers place
 * jobs by locality, and every plane of a multi-plane fabric has the same shape. The fabric's
 * family builds it (TopologyFamily.sched, in its file: fat_tree.c, dragonfly.c, torus.c) with
 * the base below; this pass adds what no family decides:
 *  - No fabric: one virtual switch holds every node (what topology/flat would do).
 *  - Nodes without a port on the fabric go under a virtual leaf of their own with no parent:
 *    Slurm then never runs one job across them and the fabric's nodes.
 *  - Slurm refuses a switch with neither nodes nor switches ("switch X has neither child
 *    switches nor nodes", slurmctld 22.05), so such switches, and any switch left with no
 *    child, are marked omitted with the reason; a kept switch's parent is the lowest-numbered
 *    kept switch that lists it.
 *
 * Blocks (Slurm's topology/block): a node's block is its scale-up domain when its domains span
 * several nodes (an NVL72 rack: 18 nodes), else its family's unit (a scalable unit, a leaf, a
 * dragonfly group, a torus rack), else its rack (no fabric, or a node off it). Blocks come in
 * the order of their first node. Every node is in exactly one block: a block smaller than
 * Slurm's planning base joins a neighbour (join_small_blocks says why and which).
 *
 * Label levels (Kubernetes, Kueue): the fabric tiers from the top and the scale-up domain, each
 * kept as a Kueue level only when it nests with the narrower ones (plan_levels says how).
 *
 * Every array the IR keeps lives in the compilation's arena; scratch is malloc'd and freed.
 */
#include "fabric.h"

#include <stdlib.h>
#include <string.h>

/* ---- the base the families' hooks build with (fabric.h) ------------------------------------ */

int sched_add_switch(SchedTree *t, Arena *a, const char *name, int tier, bool virt)
{
	if (t->nsw == t->cap) {
		/* The families add at most their fabric's switches and a few virtual ones; the first
		 * room (sched_plan) is that, so this rarely runs. */
		int cap = 2 * t->cap + 8;
		SchedSwitch *sw = arena_alloc(a, sizeof(SchedSwitch) * (size_t)cap);
		if (t->nsw)
			memcpy(sw, t->sw, sizeof(SchedSwitch) * (size_t)t->nsw);
		t->sw = sw, t->cap = cap;
	}
	SchedSwitch *s = &t->sw[t->nsw];
	*s = (SchedSwitch){.name = name, .tier = tier, .parent = -1, .virt = virt};
	if (tier + 1 > t->tiers)
		t->tiers = tier + 1;
	return t->nsw++;
}

/* The pairs sorted by (parent, child): two stable counting passes, by child then by parent
 * (both index t->sw, so the keys are dense); the order a sort by that key gives, in linear
 * time (a 100,000-GPU fat tree has half a million pairs). Every index is in [-1, nsw). */
static void sort_pairs(const SchedTree *t, SchedPair *p, int n)
{
	int m = t->nsw + 1;
	int *count = xmalloc(sizeof(int) * (size_t)(m + 1));
	SchedPair *tmp = xmalloc(sizeof(SchedPair) * (size_t)(n + 1));
	for (int pass = 0; pass < 2; pass++) {
		SchedPair *from = pass ? tmp : p, *to = pass ? p : tmp;
		memset(count, 0, sizeof(int) * (size_t)(m + 1));
		for (int i = 0; i < n; i++)
			count[(pass ? from[i].parent : from[i].child) + 2]++;
		for (int k = 1; k <= m; k++)
			count[k] += count[k - 1];
		for (int i = 0; i < n; i++)
			to[count[(pass ? from[i].parent : from[i].child) + 1]++] = from[i];
	}
	free(tmp);
	free(count);
}

void sched_link(SchedTree *t, Arena *a, SchedPair *p, int n)
{
	sort_pairs(t, p, n);
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

void sched_first_ports(const Design *d, int fi, LinkTier tier, int *sw_of)
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

void sched_switch_units(SchedTree *t, Arena *a)
{
	t->nunit = t->nsw;
	t->unit_name = arena_alloc(a, sizeof(char *) * (size_t)(t->nsw + 1));
	for (int s = 0; s < t->nsw; s++)
		t->unit_name[s] = t->sw[s].name;
}

/* ---- the pass ---------------------------------------------------------------------------------- */

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
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

/* Whether some scale-up domain spans several nodes. */
static void find_multi_node_domains(SchedTree *t, const Design *d)
{
	for (int g = 0; g < d->ngroups; g++)
		if (d->groups[g].count > 0 && d->groups[g].domain_nodes > 1)
			t->multi_node_domains = true;
}

/* Slurm's BlockSizes. Slurm plans in base blocks: a job needs ceil(nodes / base) of them and
 * level k joins 2^k neighbouring blocks, so a base far below the usual block makes a job of one
 * block spread over many. The base is therefore the smallest block of at least half the most
 * common size (ties: the larger size). */
static int block_base(const SchedTree *t)
{
	int *size = xmalloc(sizeof(int) * (size_t)(t->nblock + 1));
	for (int b = 0; b < t->nblock; b++)
		size[b] = t->block[b].nnode;
	qsort(size, (size_t)t->nblock, sizeof *size, int_cmp);
	int mode = 0, mode_count = 0;
	for (int b = 0, run = 0; b < t->nblock; b++) {
		run = b && size[b] == size[b - 1] ? run + 1 : 1;
		if (run >= mode_count)
			mode = size[b], mode_count = run;
	}
	free(size);
	int base = mode;
	for (int b = 0; b < t->nblock; b++)
		if (2 * t->block[b].nnode >= mode && t->block[b].nnode < base)
			base = t->block[b].nnode;
	return base;
}

/* A block smaller than the base is fatal in slurmctld ("children count lower than
 * bblock_node_cnt", topology/block's block_record.c), and a node in no block never runs a job
 * under topology/block ("blocks lack access to N nodes"). So every such block (a partial last
 * unit) joins a neighbour: the nearest block at least the base before it of its kind, else
 * after it, else of any kind before or after. Kinds are `kind` (0 domain, 1 unit, 2 rack).
 * Sets each small block's `into`; one pass each way, so linear in the blocks. */
static void join_small_blocks(SchedTree *t, const int *kind)
{
	int n = t->nblock;
	int *prev = xmalloc(sizeof(int) * (size_t)(4 * n + 1)), *next = prev + 2 * n;
	int last[4] = {-1, -1, -1, -1}; /* the last block at least the base: of kind 0..2, any */
	for (int b = 0; b < n; b++) {
		prev[2 * b] = last[kind[b]], prev[2 * b + 1] = last[3];
		if (t->block[b].nnode >= t->block_base)
			last[kind[b]] = last[3] = b;
	}
	for (int k = 0; k < 4; k++)
		last[k] = -1;
	for (int b = n - 1; b >= 0; b--) {
		next[2 * b] = last[kind[b]], next[2 * b + 1] = last[3];
		if (t->block[b].nnode >= t->block_base)
			last[kind[b]] = last[3] = b;
	}
	for (int b = 0; b < n; b++) {
		SchedBlock *k = &t->block[b];
		if (k->nnode >= t->block_base)
			continue;
		int options[4] = {prev[2 * b], next[2 * b], prev[2 * b + 1], next[2 * b + 1]};
		for (int i = 0; i < 4 && k->into < 0; i++)
			k->into = options[i];
		t->blocks_joined += k->into >= 0; /* always: the base is the size of some block */
	}
	free(prev);
}

/* "scale-up domain", or "scale-up domain or a scalable unit": what the kept blocks are, in the
 * order they first come. */
static const char *block_words(const SchedTree *t, Arena *a)
{
	const char *seen[4];
	int n = 0;
	for (int b = 0; b < t->nblock && n < 4; b++) {
		const char *w = t->block[b].what;
		bool again = t->block[b].into >= 0;
		for (int i = 0; i < n && !again; i++)
			again = strcmp(seen[i], w) == 0;
		if (!again)
			seen[n++] = w;
	}
	if (n == 0)
		return "rack";
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? " or a " : "", seen[i]);
	const char *s = arena_strndup(a, b.s, b.len);
	buf_free(&b);
	return s;
}

/* Blocks: scale-up domains of more than one node, else the unit of t->unit, else the rack. */
static void form_blocks(SchedTree *t, const Design *d, Arena *a)
{
	/* A node's block key: its kind (0 its domain, 1 its unit, 2 its rack) and index. */
	int *kind = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	int *idx = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	for (int n = 0; n < d->nnodes; n++) {
		const NodeInst *ni = &d->nodes[n];
		if (d->groups[ni->group].domain_nodes > 1)
			kind[n] = 0, idx[n] = ni->domain;
		else if (t->unit[n] >= 0 && t->unit[n] < t->nunit)
			kind[n] = 1, idx[n] = t->unit[n];
		else
			kind[n] = 2, idx[n] = ni->rack;
	}
	t->block_of = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	t->block = arena_alloc(a, sizeof(SchedBlock) * (size_t)(d->nnodes + 1));
	int *block_kind = xmalloc(sizeof(int) * (size_t)(d->nnodes + 1));
	t->nblock = 0;
	/* Keys are dense within each kind: a table per kind finds a node's block. */
	int cap[3] = {d->ndomains, t->nunit, d->nracks};
	const char *what[3] = {"scale-up domain", t->unit_word ? t->unit_word : "rack", "rack"};
	int *seen[3];
	for (int k = 0; k < 3; k++) {
		seen[k] = xmalloc(sizeof(int) * (size_t)(cap[k] + 1));
		for (int i = 0; i < cap[k]; i++)
			seen[k][i] = -1;
	}
	for (int n = 0; n < d->nnodes; n++) {
		int b = seen[kind[n]][idx[n]];
		if (b < 0) {
			b = seen[kind[n]][idx[n]] = t->nblock++;
			SchedBlock *k = &t->block[b];
			k->name = kind[n] == 0	 ? d->domain_names[idx[n]]
				  : kind[n] == 1 ? t->unit_name[idx[n]]
						 : d->racks[idx[n]].name;
			k->what = what[kind[n]];
			k->first = n;
			k->into = -1;
			block_kind[b] = kind[n];
		}
		t->block_of[n] = b;
		t->block[b].nnode++;
	}
	for (int k = 0; k < 3; k++)
		free(seen[k]);
	free(kind);
	free(idx);
	t->block_base = block_base(t);
	join_small_blocks(t, block_kind);
	free(block_kind);
	/* Each kept block's nodes, its own and its joined blocks', in node order. */
	for (int b = 0; b < t->nblock; b++)
		t->block[b].own = t->block[b].nnode;
	for (int b = 0; b < t->nblock; b++)
		if (t->block[b].into >= 0)
			t->block[t->block[b].into].nnode += t->block[b].own;
	for (int b = 0; b < t->nblock; b++) {
		SchedBlock *k = &t->block[b];
		k->node = arena_alloc(a, sizeof(int) * (size_t)((k->into < 0 ? k->nnode : k->own) + 1));
		k->nnode = 0;
	}
	for (int n = 0; n < d->nnodes; n++) {
		SchedBlock *own = &t->block[t->block_of[n]];
		own->node[own->nnode++] = n; /* a joined block keeps the list of its own nodes */
		if (own->into >= 0) {
			t->block_of[n] = own->into;
			SchedBlock *k = &t->block[own->into];
			k->node[k->nnode++] = n;
		}
	}
	/* Level k = 2^k blocks, while there are that many kept blocks (Slurm allows levels 0 to
	 * 15). */
	int kept = t->nblock - t->blocks_joined;
	t->block_levels = 0;
	for (long long m = 1; m <= kept && t->block_levels < 16; m *= 2)
		t->block_levels++;
	t->block_unit = block_words(t, a);
}

/* ---- label levels that nest (Kueue) ---------------------------------------------------------- */

/* The value node n carries at level l: its switch at that tier (nsw when it has none: nodes
 * without the label share a value of their own) or its scale-up domain; and the range. */
static int level_value(const SchedTree *t, const Design *d, const SchedLevel *l, int n)
{
	if (l->tier < 0)
		return d->nodes[n].domain;
	const SchedSwitch *s = sched_ancestor(t, n, l->tier);
	return s ? (int)(s - t->sw) : t->nsw;
}

static int level_range(const SchedTree *t, const Design *d, const SchedLevel *l)
{
	return l->tier < 0 ? d->ndomains : t->nsw + 1;
}

/* How many values of level `in` (of *of that occur) hold nodes of several values of `out`. */
static int level_splits(const SchedTree *t, const Design *d, const SchedLevel *in,
			const SchedLevel *out, int *of)
{
	enum { UNSEEN = -2, SPLIT = -1 };
	int range = level_range(t, d, in), split = 0;
	int *outer = xmalloc(sizeof(int) * (size_t)(range + 1));
	for (int v = 0; v < range; v++)
		outer[v] = UNSEEN;
	*of = 0;
	for (int n = 0; n < d->nnodes; n++) {
		int v = level_value(t, d, in, n), w = level_value(t, d, out, n);
		if (outer[v] == UNSEEN)
			outer[v] = w, ++*of;
		else if (outer[v] != SPLIT && outer[v] != w)
			outer[v] = SPLIT, split++;
	}
	free(outer);
	return split;
}

/* The levels a Kueue Topology may list and which of them nest. Kueue tells the domains of a
 * level apart by the values of every level above, so a level that splits a narrower one makes
 * two domains of one (an NVL72 rack of 18 nodes across two rail-0 leaves of 64 is two "racks"
 * to Kueue, and a job asking for one rack never gets those). The narrow levels are what jobs
 * ask for (the scale-up domain above all: tensor parallelism lives in it), so they are kept
 * and a broader level that splits them is dropped: from the domain up, each tier is kept when
 * the broadest level kept so far nests in it (which, levels below nesting in that one, is
 * enough). A tree's tiers nest in each other (each switch has one parent): only a domain
 * straddling switches drops a tier. */
static void plan_levels(SchedTree *t, const Design *d, Arena *a)
{
	t->nlevel = t->label_tiers + (t->multi_node_domains ? 1 : 0);
	t->level = arena_alloc(a, sizeof(SchedLevel) * (size_t)(t->nlevel + 1));
	for (int i = 0; i < t->label_tiers; i++)
		t->level[i] = (SchedLevel){.tier = t->label_tiers - 1 - i, .narrower = -1};
	int last = -1; /* the broadest level kept so far; -1: the hostname, inside every level */
	if (t->multi_node_domains) {
		last = t->nlevel - 1;
		t->level[last] = (SchedLevel){.tier = -1, .kept = true, .narrower = -1};
	}
	for (int i = t->label_tiers - 1; i >= 0; i--) {
		SchedLevel *l = &t->level[i];
		int of = 0, split = last < 0 ? 0 : level_splits(t, d, &t->level[last], l, &of);
		l->kept = split == 0;
		if (l->kept)
			last = i;
		else
			l->narrower = last, l->split = split, l->of = of;
	}
}

int sched_plan(Design *d)
{
	Arena *a = d->c->arena;
	SchedTree *t = arena_alloc(a, sizeof *t);
	*t = (SchedTree){.off_leaf = -1};
	d->sched = t;
	const FabricInst *f = d->nfabrics > 0 && d->fabrics[0].sized ? &d->fabrics[0] : NULL;
	t->fabric = f;
	t->gbps = f ? f->link_speed / 1e9 : 0;
	/* Room for every switch of the fabric, a leaf per rack, the leaf of nodes off the fabric
	 * and a top (sched_add_switch makes more when a family needs it). */
	t->cap = (f ? f->switches : 0) + d->nracks + 4;
	t->sw = arena_alloc(a, sizeof(SchedSwitch) * (size_t)t->cap);
	t->leaf = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	t->unit = arena_alloc(a, sizeof(int) * (size_t)(d->nnodes + 1));
	for (int n = 0; n < d->nnodes; n++)
		t->leaf[n] = t->unit[n] = -1;
	if (f) {
		f->family->sched(t, d, 0, a);
	} else {
		int all = sched_add_switch(t, a, arena_printf(a, "%s-all", d->cluster_name), 0, true);
		for (int n = 0; n < d->nnodes; n++)
			t->leaf[n] = all;
		t->explain = arena_printf(a, "# The spec declares no fabric: one virtual switch, %s, "
					     "holds every node.\n", t->sw[all].name);
	}
	t->label_tiers = f ? t->tiers : 0;
	/* Nodes the fabric does not reach: a leaf of their own. */
	for (int n = 0; n < d->nnodes; n++)
		if (t->leaf[n] < 0) {
			if (t->off_leaf < 0) {
				const char *name = arena_printf(a, "%s-no-%s", d->cluster_name,
								f ? f->name : "fabric");
				t->off_leaf = sched_add_switch(t, a, name, 0, true);
			}
			t->leaf[n] = t->off_leaf;
			t->off_fabric++;
		}
	for (int s = 0; s < t->nsw; s++)
		if (!t->sw[s].child)
			t->sw[s].child = arena_alloc(a, sizeof(int));
	tree_nodes(t, a, d->nnodes);
	tree_prune(t);
	for (int s = 0; s < t->nsw; s++)
		t->nomitted += t->sw[s].omitted != NULL;
	find_multi_node_domains(t, d);
	form_blocks(t, d, a);
	plan_levels(t, d, a);
	return 0;
}

const SchedSwitch *sched_ancestor(const SchedTree *t, int node, int tier)
{
	int s = t->leaf[node];
	while (s >= 0 && t->sw[s].tier < tier)
		s = t->sw[s].parent;
	return s >= 0 && t->sw[s].tier == tier ? &t->sw[s] : NULL;
}
