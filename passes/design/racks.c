/*
 * racks.c — how many nodes go in a rack, and so how many racks.
 *
 * For each group of identical nodes: a rack holds as many as fit its usable height (height
 * less reserved space) and its power cap (the lower of its power class and what its cooling
 * can remove), or exactly nodes_per_rack when the spec says so. A scale-up domain larger than a
 * node (GB200 NVL72: 18 trays and 9 NVLink switch trays) is packed whole: a rack holds whole
 * domains, switch trays included. Storage appliances get racks of their own by the same rule.
 * A node or domain that fits no rack, a nodes_per_rack beyond the limits and more racks than
 * the floor has positions are requirements the design does not meet (Violations, exit 2).
 */
#include "passes.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* A mistake in the spec that planning finds (exit 1); silent while choices are explored, as
 * the final evaluation of the design kept reports it. */
static void spec_error(Design *d, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void spec_error(Design *d, Loc loc, const char *fmt, ...)
{
	d->spec_errors++;
	if (d->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(d->p->c->arena, fmt, ap);
	va_end(ap);
	Diag *dg = diag_error(d->p->c, loc, "%s", msg);
	diag_set_code(dg, "inconsistent");
}

static char *fmt_qty(Design *d, double v, Dim dim)
{
	char buf[64];
	qty_format((Qty){v, dim}, buf, sizeof buf);
	return arena_strdup(d->p->c->arena, buf);
}

static Dim power_dim(void) { return dim_make(0, 0, -1, 1, 0, 0); }

/* Units per rack of something of height h and power p under the rack's limits. */
static int fits(double usable, double cap, double h, double p)
{
	int by_u = h > 0 ? (int)floor(usable / h + 1e-9) : 1 << 30;
	int by_p = p > 0 ? (int)floor(cap / p + 1e-9) : 1 << 30;
	return by_u < by_p ? by_u : by_p;
}

static void no_fit(Design *d, const NodeGroup *g, int domain_nodes, double dom_u, double dom_p,
		   double usable, double cap, double limit_p, const Value *limit_v)
{
	const Decl *rack = d->rack;
	const char *what = domain_nodes > 1
				   ? arena_printf(d->p->c->arena, "one scale-up domain of %d '%s' nodes",
						  domain_nodes, g->type->name)
				   : arena_printf(d->p->c->arena, "each '%s' node", g->type->name);
	if (dom_u > usable + 1e-9) {
		design_violation(d, g->loc, dom_u / usable - 1, rack->name_loc, "rack type declared here",
				 "%s is %.0f U high; rack '%s' has %.0f U usable", what, dom_u / 0.04445,
				 rack->name, usable / 0.04445);
	} else {
		bool cooling_limits = cap < limit_p;
		const Value *cool_v = field_value(d->cooling, FLD_COOLING_MAX_RACK_POWER);
		Loc note = cooling_limits && cool_v ? cool_v->loc : limit_v ? limit_v->loc : rack->name_loc;
		design_violation(d, g->loc, dom_p / cap - 1, note,
				 cooling_limits ? arena_printf(d->p->c->arena, "the most cooling '%s' can "
									       "remove from a rack",
							       d->cooling->name)
						: "the rack's power class",
				 "%s draws %s; rack '%s' allows %s", what, fmt_qty(d, dom_p, power_dim()),
				 rack->name, fmt_qty(d, cap, power_dim()));
	}
}

static void plan_group(Design *d, NodeGroup *g, double usable, double cap, double limit_p)
{
	Ctx *c = d->p->c;
	const Part *node = g->type;
	int accels = node->node.accelerators;
	int domain = node->node.scale_up_domain;
	g->domain_nodes = 1;
	if (accels > 0 && domain > accels) {
		if (domain % accels) {
			spec_error(d, field_value(node->decl, FLD_NODE_SCALE_UP_DOMAIN)->loc,
				   "a scale-up domain of %d accelerators is not a whole number of '%s' "
				   "nodes (%d accelerators each)",
				   domain, node->name, accels);
		} else {
			g->domain_nodes = domain / accels;
		}
	}
	double sw_u = 0, sw_p = 0;
	for (int i = 0; g->domain_nodes > 1 && i < node->node.ntrays; i++) {
		sw_u += node->node.trays[i].count * node->node.trays[i].part->height;
		sw_p += node->node.trays[i].count * node->node.trays[i].part->power;
	}
	double dom_u = g->domain_nodes * node->height + sw_u;
	double dom_p = g->domain_nodes * node->power + sw_p;
	int domains = fits(usable, cap, dom_u, dom_p);
	const Value *npr = field_value(d->rack, FLD_RACK_NODES_PER_RACK);
	if (npr && npr->kind == VAL_QTY) {
		int want = (int)npr->q.v;
		if (want % g->domain_nodes) {
			spec_error(d, npr->loc, "nodes_per_rack %d does not hold whole scale-up domains "
						"of %d '%s' nodes",
				   want, g->domain_nodes, node->name);
		} else if (want / g->domain_nodes > domains && domains > 0) {
			double need_p = want / g->domain_nodes * dom_p, need_u = want / g->domain_nodes * dom_u;
			bool by_u = need_u > usable + 1e-9;
			design_violation(d, npr->loc, by_u ? need_u / usable - 1 : need_p / cap - 1,
					 d->rack->name_loc, "rack type declared here",
					 "%d '%s' nodes in a rack need %s; rack '%s' allows %s", want,
					 node->name,
					 by_u ? arena_printf(c->arena, "%.0f U", need_u / 0.04445)
					      : fmt_qty(d, need_p, power_dim()),
					 d->rack->name,
					 by_u ? arena_printf(c->arena, "%.0f U", usable / 0.04445)
					      : fmt_qty(d, cap, power_dim()));
		} else {
			domains = want / g->domain_nodes;
		}
	}
	if (domains <= 0) {
		no_fit(d, g, g->domain_nodes, dom_u, dom_p, usable, cap, limit_p,
		       field_value(d->rack, FLD_RACK_POWER_LIMIT));
		domains = 1;
	}
	g->per_rack = domains * g->domain_nodes;
	if (g->count % g->domain_nodes)
		spec_error(d, g->loc, "%d '%s' nodes do not fill whole scale-up domains of %d",
			   g->count, node->name, g->domain_nodes);
	g->racks = (g->count + g->per_rack - 1) / g->per_rack;
}

int racks_plan(Design *d)
{
	Ctx *c = d->p->c;
	int before = d->spec_errors;
	d->rack = field_ref(d->cluster, FLD_CLUSTER_RACK);
	d->cooling = field_ref(d->rack, FLD_RACK_COOLING);
	d->rack_type = parts_of(d, d->rack);
	d->cooling_type = parts_of(d, d->cooling);
	double usable = d->rack_type->height - d->rack_type->rack.reserved;
	double limit_p;
	if (!field_num_set(d->rack, FLD_RACK_POWER_LIMIT, &limit_p))
		limit_p = INFINITY;
	double cap = fmin(limit_p, d->cooling_type->cooling.max_rack_power);
	d->rack_limit = limit_p;
	d->rack_cap = cap;
	/* ToRs in server racks (a fabric's leaf_placement = server_rack) take their U space and
	 * power from every server rack, one per plane: a rack of a ToR serving several racks
	 * keeps the room free too, so that racks of a group are alike. */
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++) {
		const Decl *fd = fv->items[i]->ref;
		const Value *sw = field_value(fd, FLD_FABRIC_SWITCH);
		const Value *pl = field_value(fd, FLD_FABRIC_PLANES);
		if (field_enum(fd, FLD_FABRIC_LEAF_PLACEMENT) != LEAF_SERVER_RACK || !sw || sw->kind != VAL_REF)
			continue;
		const Part *tor = parts_of(d, sw->ref);
		double planes = pl && pl->kind == VAL_QTY ? pl->q.v : 1;
		usable -= planes * tor->height;
		cap -= planes * tor->power;
		if (usable <= 1e-9 || cap <= 1e-6) {
			const Value *lp = field_value(fd, FLD_FABRIC_LEAF_PLACEMENT);
			design_violation(d, lp ? lp->loc : fd->name_loc, 1, d->rack->name_loc,
					 "rack type declared here",
					 "%.0f ToR%s of '%s' (%.0f U, %s each) leave%s no room for nodes in "
					 "rack '%s': use leaf_placement = network_rack, or a larger rack",
					 planes, planes == 1 ? "" : "s", tor->name, tor->height / 0.04445,
					 fmt_qty(d, tor->power, power_dim()), planes == 1 ? "s" : "",
					 d->rack->name);
			usable = usable > 1e-9 ? usable : 1e-9;
			cap = cap > 1e-6 ? cap : 1e-6;
		}
	}

	const Value *nodes = field_value(d->cluster, FLD_CLUSTER_NODES);
	int n = nodes->kind == VAL_LIST ? nodes->n : 1;
	if (!d->groups || d->ngroups != n)
		d->groups = arena_alloc(c->arena, sizeof(NodeGroup) * (size_t)n);
	d->ngroups = n;
	/* Every node, accelerator and port is an instance: past the limits the design would not
	 * fit in memory (1,000,000 GPUs take some 600 MiB, docs/performance.md), and the counts
	 * are ints. */
	double all_nodes = 0, all_accel = 0;
	for (int i = 0; i < n; i++) {
		const Value *cv = nodes->kind == VAL_LIST ? nodes->items[i] : nodes;
		all_nodes += cv->count->q.v;
		all_accel += cv->count->q.v * parts_of(d, cv->ref)->node.accelerators;
		if (all_nodes > CLUSTER_MAX_NODES || all_accel > CLUSTER_MAX_ACCELERATORS) {
			spec_error(d, cv->loc, "cluster '%s' has %.0f nodes with %.0f accelerators; "
					       "clusterc designs clusters of up to %d nodes and %d "
					       "accelerators",
				   d->cluster->name, all_nodes, all_accel, CLUSTER_MAX_NODES,
				   CLUSTER_MAX_ACCELERATORS);
			d->ngroups = 0; /* nothing to plan: later passes see no nodes */
			return d->spec_errors - before;
		}
	}
	int racks = 0;
	for (int i = 0; i < n; i++) {
		const Value *cv = nodes->kind == VAL_LIST ? nodes->items[i] : nodes;
		NodeGroup *g = &d->groups[i];
		*g = (NodeGroup){.type = parts_of(d, cv->ref), .count = (int)cv->count->q.v,
				 .loc = cv->loc};
		plan_group(d, g, usable, cap, limit_p);
		racks += g->racks;
	}
	const Value *st = field_value(d->cluster, FLD_CLUSTER_STORAGE);
	for (int i = 0; st && i < (st->kind == VAL_LIST ? st->n : 1); i++) {
		const Value *sv = st->kind == VAL_LIST ? st->items[i] : st;
		if (sv->count->q.v > CLUSTER_MAX_NODES) {
			spec_error(d, sv->loc, "cluster '%s' has %.0f '%s' storage units; clusterc "
					       "designs up to %d of each",
				   d->cluster->name, sv->count->q.v, sv->ref->name, CLUSTER_MAX_NODES);
			return d->spec_errors - before;
		}
		const Part *unit = parts_of(d, sv->ref);
		int per = fits(usable, cap, unit->height, unit->power);
		if (per <= 0) {
			design_violation(d, sv->loc, 1, d->rack->name_loc, "rack type declared here",
					 "storage '%s' does not fit rack '%s'", sv->ref->name, d->rack->name);
			per = 1;
		}
		racks += ((int)sv->count->q.v + per - 1) / per;
	}
	d->t.racks = racks;

	return d->spec_errors - before;
}
