/*
 * expand_wire.c — one fabric's ports and cables kept from the prior build (expand.c says the
 * rules, docs/daytwo.md the guarantees): endpoint cables back on the switch ports they had,
 * by exchanging places with the new plan's link there; switch-to-switch cables of a fat tree
 * on the link counts rewire.c's integer program chose (Zhao et al., "Minimal Rewiring",
 * NSDI 2019), kept links on their prior ports.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* The fabric's switch ports, each with the link on it (an index into Design.links) or -1. */
typedef struct PortMap {
	int first, n;        /* the fabric's switches: [first, first + n) */
	int *base;           /* switch i's first port in occ */
	int *occ;
	ExpandName *names;   /* the fabric's switches by name (index: into Design.switches) */
} PortMap;

static int *at(PortMap *m, int sw, int port)
{
	return &m->occ[m->base[sw - m->first] + port];
}

static void map_init(Design *d, const FabricInst *f, int fi, PortMap *m)
{
	m->first = f->first_switch;
	m->n = 0;
	while (m->first + m->n < d->nswitches && d->switches[m->first + m->n].fabric == fi)
		m->n++;
	m->base = xmalloc(sizeof(int) * (size_t)(m->n + 1));
	m->names = xmalloc(sizeof(ExpandName) * (size_t)(m->n + 1));
	int total = 0;
	for (int i = 0; i < m->n; i++) {
		m->base[i] = total;
		total += d->switches[m->first + i].radix;
		m->names[i] = (ExpandName){d->switches[m->first + i].name, m->first + i};
	}
	expand_sort_names(m->names, m->n);
	m->occ = xmalloc(sizeof(int) * (size_t)(total + 1));
	for (int i = 0; i < total; i++)
		m->occ[i] = -1;
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->a.kind == END_SWITCH)
			*at(m, k->a.dev, k->a.port) = l;
		if (k->z.kind == END_SWITCH)
			*at(m, k->z.dev, k->z.port) = l;
	}
}

static void map_free(PortMap *m)
{
	free(m->base);
	free(m->occ);
	free(m->names);
}

/* The switch of this fabric named `name`, or -1. */
static int switch_named(const PortMap *m, const char *name)
{
	return expand_find(m->names, m->n, name);
}

/* "device:port" of a link end as the lock numbers ports (lock.c). */
static const char *end_key(const Design *d, End e)
{
	int port = e.kind == END_NODE ? e.port - d->nodes[e.dev].first_port : e.port;
	return arena_printf(d->c->arena, "%s:%d", ir_end_device(d, e), port);
}

static bool endpoint_link(const LinkInst *k)
{
	return (k->tier == LT_NODE_LEAF || k->tier == LT_TERMINAL) &&
	       (k->a.kind == END_NODE || k->a.kind == END_EXTRA) && k->z.kind == END_SWITCH;
}

/* Whether port q of switch s2 may take an endpoint of link k: a port of the same tier, plane
 * and rail whose link is an endpoint's, or a free down port of a tree's leaf. */
static bool endpoint_port_ok(const Design *d, const FabricInst *f, const PortMap *m,
			     const LinkInst *k, int s2, int q)
{
	const SwitchInst *a = &d->switches[k->z.dev], *b = &d->switches[s2];
	if (a->tier != b->tier || a->plane != b->plane || a->rail != b->rail || q >= b->radix)
		return false;
	int o = m->occ[m->base[s2 - m->first] + q];
	if (o >= 0)
		return endpoint_link(&d->links[o]) && d->links[o].tier == k->tier;
	return f->family->tree && q < f->down[0];
}

/* Step 3: every endpoint port back on the switch port the prior build gave it. */
static void keep_endpoints(Design *d, const FabricInst *f, int fi, PortMap *m)
{
	const Prior *p = d->prior;
	Arena *a = d->c->arena;
	ExpandName *by_end = arena_alloc(a, sizeof *by_end * (size_t)(p->ncables + 1));
	int n = 0;
	for (int i = 0; i < p->ncables; i++)
		if (!strcmp(p->cables[i].fabric, f->name))
			by_end[n++] = (ExpandName){arena_printf(a, "%s:%d", p->cables[i].a,
								p->cables[i].a_port), i};
	expand_sort_names(by_end, n);
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		LinkInst *k = &d->links[l];
		if (!endpoint_link(k))
			continue;
		int c = expand_find(by_end, n, end_key(d, k->a));
		if (c < 0 || strcmp(p->cables[c].tier, ir_link_tier_names[k->tier]))
			continue;
		int s2 = switch_named(m, p->cables[c].z), q = p->cables[c].z_port;
		if (s2 < 0 || (s2 == k->z.dev && q == k->z.port) || !endpoint_port_ok(d, f, m, k, s2, q))
			continue;
		End was = k->z;
		int other = *at(m, s2, q);
		k->z = (End){END_SWITCH, s2, q};
		*at(m, s2, q) = l;
		*at(m, was.dev, was.port) = other;
		if (other >= 0)
			d->links[other].z = was;
	}
}

/* Step 4 for the links of one tier between switches: their counts by rewire_counts, then
 * their upper ends. Returns 1 when the program found no solution. */
typedef struct Tier {
	int *li, n;          /* the tier's links */
	int *lo_of, *up_of;  /* by switch - first: its index among the lower (upper) switches */
	int na, nb;
} Tier;

static void tier_collect(const Design *d, const FabricInst *f, int fi, LinkTier t,
			 const PortMap *m, Tier *x)
{
	x->li = xmalloc(sizeof(int) * (size_t)(f->links + 1));
	x->lo_of = xmalloc(sizeof(int) * (size_t)(m->n + 1));
	x->up_of = xmalloc(sizeof(int) * (size_t)(m->n + 1));
	for (int i = 0; i < m->n; i++)
		x->lo_of[i] = x->up_of[i] = -1;
	x->n = x->na = x->nb = 0;
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		const LinkInst *k = &d->links[l];
		if (k->tier != t || k->a.kind != END_SWITCH || k->z.kind != END_SWITCH)
			continue;
		x->li[x->n++] = l;
		if (x->lo_of[k->a.dev - m->first] < 0)
			x->lo_of[k->a.dev - m->first] = x->na++;
		if (x->up_of[k->z.dev - m->first] < 0)
			x->up_of[k->z.dev - m->first] = x->nb++;
	}
}

static void tier_free(Tier *x)
{
	free(x->li);
	free(x->lo_of);
	free(x->up_of);
}

/* The pair (i, j) of a prior cable of the tier, or false. */
static bool prior_pair(const PortMap *m, const Tier *x, const PriorCable *c, int *i, int *j,
		       int *sa, int *sz)
{
	*sa = switch_named(m, c->a), *sz = switch_named(m, c->z);
	if (*sa < 0 || *sz < 0)
		return false;
	*i = x->lo_of[*sa - m->first], *j = x->up_of[*sz - m->first];
	return *i >= 0 && *j >= 0;
}

/* The problem: the new plan's counts give the rows and each pair's balance bounds, the upper
 * switches' free ports the columns. */
static void tier_problem(Design *d, const FabricInst *f, const PortMap *m, const Tier *x,
			 LinkTier t, RewireProblem *pb)
{
	Arena *a = d->c->arena;
	int n = x->na * x->nb;
	int *cnt = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	int *lo = arena_alloc(a, sizeof(int) * (size_t)(n + 1)), *hi = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	int *old = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	int *row = arena_alloc(a, sizeof(int) * (size_t)(x->na + 1));
	int *col = arena_alloc(a, sizeof(int) * (size_t)(x->nb + 1));
	memset(cnt, 0, sizeof(int) * (size_t)(n + 1));
	memset(old, 0, sizeof(int) * (size_t)(n + 1));
	memset(row, 0, sizeof(int) * (size_t)(x->na + 1));
	memset(col, 0, sizeof(int) * (size_t)(x->nb + 1));
	for (int k = 0; k < x->n; k++) {
		const LinkInst *l = &d->links[x->li[k]];
		int i = x->lo_of[l->a.dev - m->first], j = x->up_of[l->z.dev - m->first];
		cnt[i * x->nb + j]++, row[i]++;
	}
	/* An upper switch's ports for the tier: its radix less what the other tiers use. */
	for (int s = 0; s < m->n; s++) {
		int j = x->up_of[s];
		if (j < 0)
			continue;
		col[j] = d->switches[m->first + s].radix;
		for (int q = 0; q < d->switches[m->first + s].radix; q++) {
			int o = m->occ[m->base[s] + q];
			col[j] -= o >= 0 && d->links[o].tier != t;
		}
	}
	for (int i = 0; i < x->na; i++) {
		int reach = 0;
		for (int j = 0; j < x->nb; j++)
			reach += cnt[i * x->nb + j] > 0;
		for (int j = 0; j < x->nb; j++) {
			int e = i * x->nb + j;
			lo[e] = cnt[e] > 0 ? row[i] / reach : 0;
			hi[e] = cnt[e] > 0 ? (row[i] + reach - 1) / reach : 0;
		}
	}
	const Prior *p = d->prior;
	for (int c = 0; c < p->ncables; c++) {
		int i, j, sa, sz;
		if (!strcmp(p->cables[c].fabric, f->name) &&
		    !strcmp(p->cables[c].tier, ir_link_tier_names[t]) &&
		    prior_pair(m, x, &p->cables[c], &i, &j, &sa, &sz))
			old[i * x->nb + j]++;
	}
	*pb = (RewireProblem){x->na, x->nb, lo, hi, old, row, col};
}

/* The upper ends: kept links on their prior ports, then the rest on the lowest free ports. */
static void tier_ports(Design *d, const FabricInst *f, PortMap *m, const Tier *x, LinkTier t,
		       int *need, int total_ports)
{
	const Prior *p = d->prior;
	bool *claimed = xmalloc(sizeof(bool) * (size_t)(total_ports + 1));
	bool *done = xmalloc(sizeof(bool) * (size_t)(d->nlinks + 1));
	for (int i = 0; i < total_ports; i++)
		claimed[i] = m->occ[i] >= 0 && d->links[m->occ[i]].tier != t;
	for (int k = 0; k < x->n; k++)
		done[x->li[k]] = false;
	for (int c = 0; c < p->ncables; c++) {
		const PriorCable *pc = &p->cables[c];
		int i, j, sa, sz;
		if (strcmp(pc->fabric, f->name) || strcmp(pc->tier, ir_link_tier_names[t]) ||
		    !prior_pair(m, x, pc, &i, &j, &sa, &sz) || need[i * x->nb + j] <= 0 ||
		    pc->a_port >= d->switches[sa].radix || pc->z_port >= d->switches[sz].radix)
			continue;
		int l = *at(m, sa, pc->a_port), q = m->base[sz - m->first] + pc->z_port;
		if (l < 0 || d->links[l].tier != t || d->links[l].a.dev != sa || done[l] || claimed[q])
			continue;
		d->links[l].z = (End){END_SWITCH, sz, pc->z_port};
		done[l] = claimed[q] = true;
		need[i * x->nb + j]--;
	}
	int *upper = xmalloc(sizeof(int) * (size_t)(x->nb + 1));
	for (int s = 0; s < m->n; s++)
		if (x->up_of[s] >= 0)
			upper[x->up_of[s]] = m->first + s;
	for (int k = 0; k < x->n; k++) {
		LinkInst *l = &d->links[x->li[k]];
		if (done[x->li[k]])
			continue;
		int i = x->lo_of[l->a.dev - m->first], j = 0;
		while (j < x->nb && need[i * x->nb + j] <= 0)
			j++;
		INVARIANT(j < x->nb, "the counts give every lower switch its links");
		int sz = upper[j], q = 0;
		while (q < d->switches[sz].radix && claimed[m->base[sz - m->first] + q])
			q++;
		INVARIANT(q < d->switches[sz].radix, "an upper switch has a free port for each link it takes");
		claimed[m->base[sz - m->first] + q] = true;
		need[i * x->nb + j]--;
		l->z = (End){END_SWITCH, sz, q};
	}
	free(upper);
	free(claimed);
	free(done);
}

static void rewire_tier(Design *d, const FabricInst *f, int fi, LinkTier t, PortMap *m,
			int total_ports)
{
	Tier x;
	tier_collect(d, f, fi, t, m, &x);
	/* A tier too large for one matrix (16M pairs: far past any fabric grown in place) keeps
	 * the new plan as it is. */
	if (x.n > 0 && (long)x.na * x.nb <= (1L << 24)) {
		RewireProblem pb;
		tier_problem(d, f, m, &x, t, &pb);
		RewireResult r;
		if (rewire_counts(d->c, &pb, &r))
			diag_set_code(diag_error(d->c, f->loc, "internal error: the minimal rewiring of "
					      "'%s' %s links found no solution", f->name,
					      ir_link_tier_names[t]), "internal");
		else if (r.old_total > 0)
			tier_ports(d, f, m, &x, t, r.x, total_ports);
		Expansion *e = &d->expansion;
		e->rewire_moves += r.moved;
		e->rewire_variables += r.variables;
		e->rewire_constraints += r.constraints;
		if (!strcmp(r.status, "optimal") || strcmp(e->rewire_status, "optimal"))
			e->rewire_status = r.status;
	}
	tier_free(&x);
}

void expand_wire_fabric(Design *d, int fi)
{
	const FabricInst *f = &d->fabrics[fi];
	PortMap m;
	map_init(d, f, fi, &m);
	keep_endpoints(d, f, fi, &m);
	int total = m.n ? m.base[m.n - 1] + d->switches[m.first + m.n - 1].radix : 0;
	if (f->family->tree && f->tiers >= 2) {
		rewire_tier(d, f, fi, LT_LEAF_SPINE, &m, total);
		if (f->tiers == 3) {
			map_free(&m);
			map_init(d, f, fi, &m); /* the leaf-spine links moved */
			rewire_tier(d, f, fi, LT_SPINE_CORE, &m, total);
		}
	}
	map_free(&m);
	/* Ports wired per switch, as the links now are. */
	for (int s = f->first_switch; s < d->nswitches && d->switches[s].fabric == fi; s++)
		d->switches[s].used = 0;
	for (int l = f->first_link; l < d->nlinks && d->links[l].fabric == fi; l++) {
		if (d->links[l].a.kind == END_SWITCH)
			d->switches[d->links[l].a.dev].used++;
		if (d->links[l].z.kind == END_SWITCH)
			d->switches[d->links[l].z.dev].used++;
	}
}
