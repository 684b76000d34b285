/*
 * blast.c — what one failure takes down, per failure domain the IR holds (docs/reliability.md):
 * a node (its accelerators, and the scale-up domain it breaks), a rack (the accelerators,
 * scale-up domains and switches standing in it), a switch of each tier of each fabric (the
 * endpoint ports whose only link ends on it, and the bisection left), a plane, and the
 * bisection left after k failures of a fabric's top tier.
 *
 * The bisection of a fabric is carried by its top switch-to-switch links (leaf-spine in two
 * tiers, spine-core in three, global links in a dragonfly); with traffic spread over them
 * (ECMP, adaptive routing) losing a switch removes its share of those links:
 * bisection x (1 - its top links / all top links). A switch below the top keeps the bisection
 * but cuts its endpoints off. Power and cooling domains (PDU, feed, CDU) are not in the IR yet.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static int cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* Node and rack domains. */
static void blast_nodes(const Design *d, BlastRadius *b)
{
	int *gpus = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *doms = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *last = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	int *sws = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++)
		gpus[r] = doms[r] = sws[r] = 0, last[r] = -1;
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		int per = n->type->node.accelerators;
		if (per > b->node_gpus)
			b->node_gpus = per;
		int dom = d->groups[n->group].domain_nodes > 1 ? d->groups[n->group].domain_nodes * per : per;
		if (dom > b->node_domain_gpus)
			b->node_domain_gpus = dom;
		if (n->rack < 0 || n->rack >= d->nracks)
			continue;
		gpus[n->rack] += per;
		if (last[n->rack] != n->domain) /* nodes of a domain are consecutive */
			doms[n->rack]++, last[n->rack] = n->domain;
	}
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].rack >= 0 && d->switches[i].rack < d->nracks)
			sws[d->switches[i].rack]++;
	int worst = -1;
	for (int r = 0; r < d->nracks; r++)
		if (worst < 0 || gpus[r] > gpus[worst] || (gpus[r] == gpus[worst] && sws[r] > sws[worst]))
			worst = r;
	if (worst >= 0) {
		b->rack = d->racks[worst].name;
		b->rack_gpus = gpus[worst], b->rack_domains = doms[worst], b->rack_switches = sws[worst];
	}
	free(gpus), free(doms), free(last), free(sws);
}

/* The tier of switch-to-switch links highest in the fabric, -1 when it has none. */
static int top_link_tier(const Design *d, int f)
{
	int top = -1;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric == f && l->a.kind == END_SWITCH && l->z.kind == END_SWITCH && l->tier > top)
			top = l->tier;
	}
	return top;
}

static void blast_fabric(const Design *d, int f, BlastRadius *b)
{
	const FabricInst *fi = &d->fabrics[f];
	int n = d->nswitches;
	int *ports = xmalloc(sizeof(int) * (size_t)(n + 1)); /* endpoint links a switch */
	int *top = xmalloc(sizeof(int) * (size_t)(n + 1));   /* top-tier links a switch */
	int *plane_ports = xmalloc(sizeof(int) * (size_t)(fi->planes + 1));
	memset(ports, 0, sizeof(int) * (size_t)(n + 1));
	memset(top, 0, sizeof(int) * (size_t)(n + 1));
	memset(plane_ports, 0, sizeof(int) * (size_t)(fi->planes + 1));
	int tt = top_link_tier(d, f);
	double top_total = 0;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		if (l->fabric != f)
			continue;
		bool endpoint = l->a.kind == END_NODE || l->a.kind == END_EXTRA;
		if (endpoint && l->z.kind == END_SWITCH) {
			ports[l->z.dev]++;
			if (l->plane < fi->planes)
				plane_ports[l->plane]++;
		}
		if ((int)l->tier == tt && l->a.kind == END_SWITCH && l->z.kind == END_SWITCH) {
			top[l->a.dev]++, top[l->z.dev]++;
			top_total++;
		}
	}
	BlastFabric bf = {.fabric = f, .top_tier = -1, .bisection = fi->sized ? fi->bisection : 0,
			  .planes = fi->planes, .worst_tier = -1};
	/* Per switch tier: the worst switch. The top tier: the one whose links carry the
	 * bisection (the higher end of the top links). */
	int worst_ports = -1;
	double worst_left = 0;
	for (int t = 0; t < ST_COUNT; t++) {
		BlastSwitchTier bt = {.fabric = f, .tier = t, .bisection_left = bf.bisection};
		int *shares = xmalloc(sizeof(int) * (size_t)(n + 1));
		int ns = 0;
		for (int i = 0; i < n; i++) {
			const SwitchInst *s = &d->switches[i];
			if (s->fabric != f || (int)s->tier != t)
				continue;
			bt.switches++;
			if (ports[i] > bt.ports_cut)
				bt.ports_cut = ports[i];
			double left = top_total > 0 ? bf.bisection * (1 - top[i] / top_total) : bf.bisection;
			if (left < bt.bisection_left)
				bt.bisection_left = left;
			shares[ns++] = top[i];
		}
		if (bt.switches == 0) {
			free(shares);
			continue;
		}
		/* The top tier is the highest tier with top links. */
		if (top_total > 0) {
			int sum = 0;
			for (int k = 0; k < ns; k++)
				sum += shares[k];
			if (sum > 0 && t > bf.top_tier) {
				qsort(shares, (size_t)ns, sizeof *shares, cmp_desc);
				bf.top_tier = t, bf.top_switches = ns;
				double lost = 0;
				bf.after[0] = bf.bisection;
				for (int k = 1; k <= BLAST_K; k++) {
					lost += k <= ns ? shares[k - 1] : 0;
					bf.after[k] = bf.bisection * (1 - lost / top_total);
					if (bf.after[k] < 0)
						bf.after[k] = 0;
				}
			}
		}
		free(shares);
		if (bt.ports_cut > worst_ports ||
		    (bt.ports_cut == worst_ports && bt.bisection_left < worst_left))
			worst_ports = bt.ports_cut, worst_left = bt.bisection_left, bf.worst_tier = t;
		b->tiers[b->ntiers++] = bt;
	}
	if (bf.top_tier < 0)
		for (int k = 0; k <= BLAST_K; k++)
			bf.after[k] = bf.bisection;
	if (fi->planes > 1) {
		for (int p = 0; p < fi->planes; p++)
			if (plane_ports[p] > bf.plane_ports_cut)
				bf.plane_ports_cut = plane_ports[p];
		bf.plane_bisection_left = bf.bisection * (fi->planes - 1) / fi->planes;
	} else {
		bf.plane_ports_cut = 0;
		for (int p = 0; p < fi->planes; p++)
			bf.plane_ports_cut += plane_ports[p];
		bf.plane_bisection_left = 0;
	}
	b->fabrics[b->nfabrics++] = bf;
	free(ports), free(top), free(plane_ports);
}

void blast_radius(Design *d, BlastRadius *b)
{
	*b = (BlastRadius){.done = true};
	blast_nodes(d, b);
	b->tiers = arena_alloc(d->p->c->arena, sizeof(BlastSwitchTier) * (size_t)(d->nfabrics * ST_COUNT + 1));
	b->fabrics = arena_alloc(d->p->c->arena, sizeof(BlastFabric) * (size_t)(d->nfabrics + 1));
	for (int f = 0; f < d->nfabrics; f++)
		if (d->fabrics[f].switches > 0)
			blast_fabric(d, f, b);
}
