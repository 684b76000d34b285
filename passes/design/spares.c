/*
 * spares.c — hot spare nodes as hardware (docs/reliability.md, "Spares"): the nodes
 * cluster.hot_spares installs, racked, powered and cabled like the others and kept out of the
 * workloads' plans, so that a job that loses a node restarts on a spare at its full size.
 *
 * Where a spare stands decides whether it can replace the node that failed:
 *
 *  - a node that is its own scale-up domain (an 8-GPU HGX node): the spares are nodes added to
 *    the largest node group's count, spread evenly over its scalable units (the rail-optimized
 *    fat tree's SU, by the first such fabric's node order), the last nodes of each unit. The
 *    fabric is sized for them as for any node (a hot spare is cabled), and a job that loses a
 *    node of an SU finds its spare under the same leaves, so SU-aligned placements keep their
 *    traffic on their leaves;
 *  - a scale-up domain over several nodes (an NVL72 rack of 18 compute trays): a spare must be
 *    inside the domain, on its NVLink switches, or the domain cannot be whole again. The
 *    switch trays have a port for every accelerator of the domain and no more, so a domain
 *    cannot grow: the spares are trays of each domain reserved (its last ones), the same
 *    number in every domain (the count rounded up to a multiple of the domains, at most all but
 *    one tray of each), as GB200 NVL72 operators run 16 of 18 trays. They add no hardware; the
 *    plans run on the domain's other trays.
 *
 * Their power, racks and capex are the nodes' (racks.c counts the added nodes, model.c prices
 * them as a BOM line of their own); elaborate.c marks which nodes are spares
 * (spares_place), and every artifact says so (racks.csv's kind, NetBox's role).
 */
#include "passes.h"

#include <stdlib.h>

/* The group that takes the spares: the one with the most accelerators (the first on ties), as
 * the planner's (plan.c). -1 when none has any. */
int spares_group(const Design *d)
{
	int best = -1;
	double most = 0;
	for (int i = 0; i < d->ngroups; i++) {
		double n = (double)d->groups[i].count * d->groups[i].type->node.accelerators;
		if (n > most)
			most = n, best = i;
	}
	return best;
}

void spares_size(NodeGroup *g, int want)
{
	g->spares = g->domain_spares = 0;
	if (want <= 0 || g->count <= 0)
		return;
	/* The domain's nodes as racks.c counts them (a domain that is no whole number of nodes
	 * is racks.c's error; its spares are then the node's kind). */
	int accels = g->type->node.accelerators, domain = g->type->node.scale_up_domain;
	int domain_nodes = accels > 0 && domain > accels && domain % accels == 0 ? domain / accels : 1;
	if (domain_nodes <= 1) {
		g->spares = want;
		g->count += want;
		return;
	}
	int domains = g->count / domain_nodes;
	if (domains <= 0)
		return;
	int per = (want + domains - 1) / domains;
	if (per > domain_nodes - 1)
		per = domain_nodes - 1;
	g->domain_spares = per;
	g->spares = per * domains;
}

/* Even spread: unit u of n takes floor((u+1) s / n) - floor(u s / n) of s. */
static int share(int u, int n, int s)
{
	return (int)(((long long)(u + 1) * s) / n - ((long long)u * s) / n);
}

void spares_place(int count, int spares, int unit, int offset, bool *spare)
{
	for (int k = 0; k < count; k++)
		spare[k] = false;
	if (spares <= 0 || count <= 0)
		return;
	if (spares > count)
		spares = count;
	if (unit <= 0)
		unit = count, offset = 0;
	offset %= unit;
	/* Units in the group's node order: the first holds unit - offset nodes, the last what is
	 * left. */
	int units = (offset + count + unit - 1) / unit, carry = 0, placed = 0;
	for (int u = 0; u < units; u++) {
		int lo = u == 0 ? 0 : u * unit - offset;
		int hi = (u + 1) * unit - offset;
		if (hi > count)
			hi = count;
		int want = share(u, units, spares) + carry;
		int take = want < hi - lo ? want : hi - lo;
		carry = want - take;
		for (int k = hi - take; k < hi; k++)
			spare[k] = true;
		placed += take;
	}
	/* A short last unit could not hold its share: the rest from the end, on nodes still free. */
	for (int k = count - 1; k >= 0 && placed < spares; k--)
		if (!spare[k])
			spare[k] = true, placed++;
}

/* The scalable unit of group gi's nodes: the first rail-optimized fabric with units that links
 * the group's nodes, its unit size and where the group starts in its node order. */
static int group_unit(const Design *d, int gi, int *offset)
{
	const Part *node = d->groups[gi].type;
	for (int f = 0; f < d->nfabrics; f++) {
		const FabricInst *fi = &d->fabrics[f];
		if (!fi->sized || fi->su_nodes <= 0 || !fi->nic)
			continue;
		bool linked = false;
		for (int k = 0; k < node->node.nnics; k++)
			linked |= node->node.nics[k].part == fi->nic;
		if (!linked)
			continue;
		int before = 0;
		for (int h = 0; h < gi; h++)
			for (int k = 0; k < d->groups[h].type->node.nnics; k++)
				if (d->groups[h].type->node.nics[k].part == fi->nic) {
					before += d->groups[h].count;
					break;
				}
		*offset = before;
		return fi->su_nodes;
	}
	*offset = 0;
	return 0;
}

void spares_mark(Design *d)
{
	for (int gi = 0; gi < d->ngroups; gi++) {
		const NodeGroup *g = &d->groups[gi];
		if (g->spares <= 0)
			continue;
		int offset = 0;
		int unit = g->domain_nodes > 1 ? g->domain_nodes : group_unit(d, gi, &offset);
		bool *spare = xmalloc(sizeof(bool) * (size_t)(g->count + 1));
		spares_place(g->count, g->spares, unit, offset, spare);
		for (int k = 0; k < g->count; k++)
			d->nodes[g->first_node + k].spare = spare[k];
		free(spare);
	}
}

void spares_check(Design *d)
{
	int gi = spares_group(d);
	if (gi < 0 || d->quiet)
		return;
	const NodeGroup *g = &d->groups[gi];
	int want = (int)field_num(d->cluster, FLD_CLUSTER_HOT_SPARES);
	if (g->domain_nodes <= 1 || want <= 0 || g->spares == want)
		return;
	const Value *v = field_value(d->cluster, FLD_CLUSTER_HOT_SPARES);
	int domains = g->domain_nodes > 0 ? g->count / g->domain_nodes : 0;
	Diag *dg = diag_warning(d->c, v ? v->loc : d->cluster->name_loc,
				"hot_spares = %d installs %d: the spares are trays held inside each of the "
				"%d scale-up domains of %s, the same number in each (%d of its %d trays)%s",
				want, g->spares, domains, g->type->name, g->domain_spares, g->domain_nodes,
				g->spares > want ? ", so the count is rounded up to a multiple of the domains"
						 : ", at most all but one tray of each");
	diag_set_code(dg, "hot-spares-rounded");
}
