/*
 * verify.c — proof that the wiring is what the sizing promised, after every build:
 *  1. every link end names a device that exists; every port (switch port, NIC port, extra
 *     device port) carries at most one link, and every switch port number is within its
 *     radix; a link's switches belong to the link's fabric and plane;
 *  2. every endpoint of a fabric is connected: each node's rails on it (a tree or dragonfly:
 *     once; a torus: its 2 ports per dimension), each extra device's ports;
 *  3. each plane of each fabric is connected: union-find over that plane's links alone, whose
 *     vertices are its switches and the endpoint ports (a node is one vertex only on a torus,
 *     where nodes forward; elsewhere a node's rails do not join the switches they reach), and
 *     every switch of the plane is in that one component;
 *  4. each fabric has as many switches and links as fabric.c counted.
 * 3 proves the common case at once (planes_connected: every plane of a switched fabric in one
 * union-find, once every end passed 1); whatever it does not prove is checked again plane by
 * plane, which says what is apart.
 * A failure is a bug in clusterc, not in the spec: an internal-error diagnostic (exit 70).
 * With --verify, what was proved is printed.
 */
#include "verify_memo.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Verifier {
	Design *d;
	unsigned char *sw_ports;   /* a use count per switch port */
	int *sw_base;              /* offset of each switch's ports in sw_ports */
	unsigned char *nic_used;   /* per NIC port of every node */
	int *extra_base;
	unsigned char *extra_used;
	int *parent;               /* union-find over switches, NIC ports, extra ports, nodes */
	bool clean;                /* every link's ends passed use_end's checks */
	int failures;
} Verifier;

/* cold: the checks' common case, inline in the loop over every end (use_end), keeps its
 * registers and its straight path */
static void fail(Verifier *v, const char *fmt, ...) PRINTF_LIKE(2, 3) __attribute__((cold));
static void fail(Verifier *v, const char *fmt, ...)
{
	if (v->failures++ >= 5)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(v->d->p->c->arena, fmt, ap);
	va_end(ap);
	diag_set_code(diag_error(v->d->p->c, NOLOC, "internal error: %s", msg), "internal");
}

static int find(int *parent, int x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static inline void unite(int *parent, int a, int b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b)
		parent[a < b ? b : a] = a < b ? a : b;
}

/* Union-find index of a link end: switches, then NIC ports, then extra devices' ports, then
 * nodes (a torus end: the node forwards between its ports). */
static inline int vertex(const Verifier *v, End e, bool torus)
{
	const Design *d = v->d;
	switch (e.kind) {
	case END_SWITCH: return e.dev;
	case END_NODE:
		return torus ? d->nswitches + d->nports + v->extra_base[d->nextras] + e.dev
			     : d->nswitches + e.port;
	case END_EXTRA: return d->nswitches + d->nports + v->extra_base[e.dev] + e.port;
	default: return -1;
	}
}

static const char *fabric_name(const Design *d, int fi)
{
	return fi >= 0 && fi < d->nfabrics ? d->fabrics[fi].decl->name : "scale-up";
}

/* The end names a device that exists. */
static bool end_exists(const Design *d, End e)
{
	switch (e.kind) {
	case END_SWITCH: return e.dev >= 0 && e.dev < d->nswitches;
	case END_NODE: return e.dev >= 0 && e.dev < d->nnodes;
	case END_EXTRA: return e.dev >= 0 && e.dev < d->nextras;
	case END_ACCEL: return e.dev >= 0 && e.dev < d->naccels;
	default: return false;
	}
}

/* ... and a port it has (a switch's beyond its radix still counts: that is reported apart). */
static bool end_valid(const Design *d, End e)
{
	if (!end_exists(d, e))
		return false;
	if (e.kind == END_NODE)
		return e.port >= 0 && e.port < d->nports && d->ports[e.port].node == e.dev;
	if (e.kind == END_EXTRA)
		return e.port >= 0 && e.port < d->extras[e.dev].nports;
	return true;
}

/* Link `link` (l)'s end e checked: it names a device that exists, a port it has, used once
 * (counted in v), and a switch's is of the link's fabric and plane and not one of a leaf's
 * backup ports. Says what fails (fail) and returns whether every check passed. Inline in the
 * one loop over every end (verify_fabrics), where it passes: one copy of the checks for the
 * common case and the failures (the eleventh session's fast path copied them, ends_clean). */
static inline __attribute__((always_inline)) bool use_end(Verifier *v, End e, int link,
							    const LinkInst *l)
{
	Design *d = v->d;
	/* whether the device exists in each case (end_exists'), one switch on the kind */
	switch (e.kind) {
	case END_SWITCH: {
		if (e.dev < 0 || e.dev >= d->nswitches)
			break;
		const SwitchInst *s = &d->switches[e.dev];
		if (e.port < 0 || e.port >= s->radix) {
			fail(v, "link %d goes to port %d of %s, beyond its radix", link, e.port, s->name);
			return false;
		}
		bool ok = true;
		if (v->sw_ports[v->sw_base[e.dev] + e.port]++) {
			fail(v, "port %d of %s carries two links (link %d)", e.port, s->name, link);
			ok = false;
		}
		/* A leaf's backup ports (backup_ports_per_tor) follow its down ports, unwired. */
		if (s->tier == ST_LEAF && s->fabric >= 0 && s->fabric < d->nfabrics) {
			const FabricInst *sf = &d->fabrics[s->fabric];
			if (sf->family->tree && sf->backup_ports > 0 && sf->tiers > 1 &&
			    e.port >= sf->down[0] && e.port < sf->down[0] + sf->backup_ports) {
				fail(v, "link %d takes port %d of %s, one of its %d backup ports", link,
				     e.port, s->name, sf->backup_ports);
				ok = false;
			}
		}
		if (s->fabric != l->fabric || s->plane != l->plane) {
			fail(v, "link %d (%s, plane %d) goes to %s (%s, plane %d)", link,
			     fabric_name(d, l->fabric), l->plane + 1, s->name, fabric_name(d, s->fabric),
			     s->plane + 1);
			ok = false;
		}
		return ok;
	}
	case END_NODE:
		if (e.dev < 0 || e.dev >= d->nnodes)
			break;
		if (e.port < 0 || e.port >= d->nports || d->ports[e.port].node != e.dev) {
			fail(v, "link %d names NIC port %d of %s, which it does not have", link, e.port,
			     d->nodes[e.dev].hostname);
			return false;
		}
		if (v->nic_used[e.port]++) {
			fail(v, "NIC port %d of %s carries two links (link %d)", e.port,
			     d->nodes[e.dev].hostname, link);
			return false;
		}
		return true;
	case END_EXTRA:
		if (e.dev < 0 || e.dev >= d->nextras)
			break;
		if (e.port < 0 || e.port >= d->extras[e.dev].nports) {
			fail(v, "link %d names port %d of %s, which it does not have", link, e.port,
			     d->extras[e.dev].name);
			return false;
		}
		if (v->extra_used[v->extra_base[e.dev] + e.port]++) {
			fail(v, "port %d of %s carries two links (link %d)", e.port, d->extras[e.dev].name,
			     link);
			return false;
		}
		return true;
	case END_ACCEL:
		if (e.dev < 0 || e.dev >= d->naccels)
			break;
		return true;
	default:
		break;
	}
	fail(v, "link %d names device %d of kind %d, which does not exist", link, e.dev, e.kind);
	return false;
}

/* Whether each plane of fabric fi is connected, all planes in one union-find, the common case:
 * when every end was clean (use_end) and the nodes do not forward, no two links share a
 * vertex but at a switch, whose links are all of its plane, so the planes share no vertex
 * (neither do two such fabrics) and each plane's components are those of its own links alone.
 * v->parent holds every vertex as its own root before the first such fabric (verify_fabrics).
 * True when every plane is one component (its links' ends and its switches); false when not,
 * or for anything out of the ordinary (a plane beyond the fabric's, an end that is no vertex):
 * verify_planes then checks plane by plane and says what is apart. */
static bool planes_connected(Verifier *v, int fi, int last)
{
	const Design *d = v->d;
	const FabricInst *f = &d->fabrics[fi];
	int *parent = v->parent;
	int root[256];
	if (f->planes < 1 || f->planes > (int)(sizeof root / sizeof root[0]))
		return false;
	for (int i = f->first_link; i < last; i++) {
		const LinkInst *l = &d->links[i];
		int a = vertex(v, l->a, false), z = vertex(v, l->z, false);
		if (a < 0 || z < 0 || l->plane >= f->planes)
			return false;
		unite(parent, a, z);
	}
	for (int pl = 0; pl < f->planes; pl++)
		root[pl] = -1;
	for (int i = f->first_link; i < last; i++) {
		int r = find(parent, vertex(v, d->links[i].a, false)), *x = &root[d->links[i].plane];
		if (*x < 0)
			*x = r;
		else if (r != *x)
			return false;
	}
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].fabric == fi) {
			int pl = d->switches[i].plane;
			if (pl < 0 || pl >= f->planes || root[pl] < 0 || find(parent, i) != root[pl])
				return false;
		}
	return true;
}

/* The links between the racks of a multi-rack scale-up domain: as many as sizing counted, each
 * from an accelerator of the domain's nodes to one of its switches in another rack. */
static void verify_scale_up(Verifier *v, const ScaleUpInst *s)
{
	Design *d = v->d;
	const NodeGroup *g = &d->groups[s->group];
	for (int i = s->first_link; i < s->first_link + s->cables; i++) {
		const LinkInst *l = &d->links[i];
		if (i >= d->nlinks || l->fabric != -1 || l->tier != LT_SCALE_UP ||
		    l->a.kind != END_ACCEL || l->z.kind != END_SWITCH) {
			fail(v, "scale-up link %d of '%s' is not an accelerator-to-switch link", i,
			     s->node->name);
			return;
		}
		int n = d->accels[l->a.dev].node, dom = (n - g->first_node) / s->domain_nodes;
		const SwitchInst *t = &d->switches[l->z.dev];
		if (n < g->first_node || n >= g->first_node + g->count ||
		    l->z.dev < s->first_switch || l->z.dev >= s->first_switch + s->nswitches ||
		    t->group != dom)
			fail(v, "scale-up link %d joins %s to %s, of another domain", i,
			     d->nodes[n].hostname, t->name);
		else if (t->rack >= 0 && t->rack == d->nodes[n].rack)
			fail(v, "scale-up link %d between %s and %s stays in one rack", i,
			     d->nodes[n].hostname, t->name);
	}
}

/* Each plane of fabric fi connected: union-find over the plane's own links and switches. Each
 * link's two vertices once (-1: an end not valid, the link left out). */
static void verify_planes(Verifier *v, int fi, int last, bool torus)
{
	Design *d = v->d;
	const FabricInst *f = &d->fabrics[fi];
	int *parent = v->parent;
	int nl = last - f->first_link;
	int *vx = xmalloc(sizeof(int) * (size_t)(2 * nl + 2));
	for (int i = f->first_link; i < last; i++) {
		const LinkInst *l = &d->links[i];
		bool ok = end_valid(d, l->a) && end_valid(d, l->z);
		int k = 2 * (i - f->first_link);
		vx[k] = ok ? vertex(v, l->a, torus) : -1;
		vx[k + 1] = ok ? vertex(v, l->z, torus) : -1;
	}
	for (int pl = 0; pl < f->planes; pl++) {
		for (int i = f->first_link; i < last; i++) {
			const int *x = &vx[2 * (i - f->first_link)];
			if (d->links[i].plane != pl || x[0] < 0)
				continue;
			parent[x[0]] = x[0];
			parent[x[1]] = x[1];
		}
		for (int i = 0; i < d->nswitches; i++)
			if (d->switches[i].fabric == fi && d->switches[i].plane == pl)
				parent[i] = i;
		for (int i = f->first_link; i < last; i++) {
			const int *x = &vx[2 * (i - f->first_link)];
			if (d->links[i].plane == pl && x[0] >= 0)
				unite(parent, x[0], x[1]);
		}
		int root = -1;
		const char *cut = NULL;
		for (int i = f->first_link; i < last && !cut; i++) {
			const int *x = &vx[2 * (i - f->first_link)];
			if (d->links[i].plane != pl || x[0] < 0)
				continue;
			int r = find(parent, x[0]);
			if (root < 0)
				root = r;
			else if (r != root)
				cut = arena_printf(d->p->c->arena, "link %d", i);
		}
		for (int i = 0; i < d->nswitches && !cut; i++)
			if (d->switches[i].fabric == fi && d->switches[i].plane == pl &&
			    (root < 0 || find(parent, i) != root))
				cut = d->switches[i].name;
		if (cut)
			fail(v, "plane %d of fabric %s is not connected: %s is apart from the rest", pl + 1,
			     f->decl->name, cut);
	}
	free(vx);
}

static void verify_fabric(Verifier *v, int fi)
{
	Design *d = v->d;
	const FabricInst *f = &d->fabrics[fi];
	int nswitches = 0, nlinks = 0;
	for (int i = 0; i < d->nswitches; i++)
		nswitches += d->switches[i].fabric == fi;
	for (int i = f->first_link; i < d->nlinks && d->links[i].fabric == fi; i++)
		nlinks++;
	int last = f->first_link + nlinks; /* what was wired, whatever sizing counted */
	if (nswitches != f->switches || nlinks != f->links)
		fail(v, "fabric %s has %d switches and %d links wired; sizing counted %d and %d",
		     f->decl->name, nswitches, nlinks, f->switches, f->links);

	/* Endpoints: each node's rails on this fabric carry a link (2 per dimension on a torus). */
	int ports[FABRIC_MAX_RAILS];
	int missing = 0;
	for (int n = 0; n < d->nnodes; n++) {
		int np = wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS);
		int want = f->node_ports * f->planes;
		for (int r = 0; r < np && r < want; r++) {
			int rpp = f->rails / f->planes;
			int k = (r / f->node_ports) * rpp + r % f->node_ports;
			if (k < np && !v->nic_used[ports[k]])
				missing++;
		}
	}
	for (int e = f->first_extra; e < f->first_extra + f->nextras; e++)
		for (int p = 0; p < d->extras[e].nports; p++)
			missing += !v->extra_used[v->extra_base[e] + p];
	if (missing)
		fail(v, "fabric %s leaves %d endpoint ports unconnected", f->decl->name, missing);

	/* Connected, plane by plane (nodes forward on a torus: a node is one vertex). */
	bool torus = !f->family->switched;
	if (!v->clean || torus || !planes_connected(v, fi, last))
		verify_planes(v, fi, last, torus);
	if (d->verify && !v->failures) {
		int connected = 0;
		for (int n = 0; n < d->nnodes; n++)
			connected += wire_node_ports(d, n, f, ports, FABRIC_MAX_RAILS) > 0;
		printf("verify: fabric %s (%s, %d plane%s): %d switches, %d links; every port carries "
		       "at most one link%s; %d nodes x %d %s and %d extra devices connected; every "
		       "plane connected\n",
		       f->decl->name, f->family->name, f->planes, f->planes == 1 ? "" : "s", f->switches,
		       f->links,
		       torus ? "" : arena_printf(d->p->c->arena, ", within radix %d", f->radix),
		       connected, f->node_ports * f->planes, torus ? "ports" : "rails",
		       f->nextras);
	}
}

/* The inputs of the checks above (the memo, verify_memo.c): all they read but the names, which
 * only a failure prints. The counts of every array below; per link its ends (kind, device,
 * port), tier, plane and fabric; per switch its radix, fabric, plane, tier, ports used, group
 * and rack; per fabric whether it is sized, its family (a static table: its address is its
 * content), backup ports, tiers, first tier's down ports, first link, switches and links
 * counted, node ports, planes, rails, extra devices, its NIC part and which of the node's NICs
 * it starts from (wire_node_ports compares the ports' NICs with it by address: the address is
 * what is read); per NIC port its node and NIC; per node its first port and rack; per extra
 * device its ports; with scale-up domains, per accelerator its node, per group its first node
 * and count, per domain its group, nodes, switches and links. */
static void verify_key(const Design *d, KeySink *s)
{
	key_put(s, d->nswitches), key_put(s, d->nports), key_put(s, d->nextras);
	key_put(s, d->naccels), key_put(s, d->nnodes), key_put(s, d->nlinks);
	key_put(s, d->nfabrics), key_put(s, d->nscaleups), key_put(s, d->ngroups);
	for (int i = 0; i < d->nlinks && !s->differs; i++) {
		const LinkInst *l = &d->links[i];
		key_room(s, 6);
		key_raw(s, (int32_t)((uint32_t)l->a.kind | (uint32_t)l->z.kind << 8 |
				     (uint32_t)l->tier << 16 | (uint32_t)l->plane << 24));
		key_raw(s, l->a.dev), key_raw(s, l->a.port), key_raw(s, l->z.dev);
		key_raw(s, l->z.port), key_raw(s, l->fabric);
	}
	for (int i = 0; i < d->nswitches && !s->differs; i++) {
		const SwitchInst *w = &d->switches[i];
		key_put(s, w->radix), key_put(s, w->fabric), key_put(s, w->plane);
		key_put(s, (int32_t)w->tier), key_put(s, w->used), key_put(s, w->group);
		key_put(s, w->rack);
	}
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		key_put(s, f->sized), key_put_ptr(s, f->family), key_put(s, f->backup_ports);
		key_put(s, f->tiers), key_put(s, f->down[0]), key_put(s, f->first_link);
		key_put(s, f->switches), key_put(s, f->links), key_put(s, f->node_ports);
		key_put(s, f->planes), key_put(s, f->rails), key_put(s, f->first_extra);
		key_put(s, f->nextras), key_put_ptr(s, f->nic), key_put(s, f->nic_first);
	}
	for (int i = 0; i < d->nports && !s->differs; i++)
		key_put(s, d->ports[i].node), key_put_ptr(s, d->ports[i].nic);
	for (int i = 0; i < d->nnodes && !s->differs; i++)
		key_put(s, d->nodes[i].first_port), key_put(s, d->nodes[i].rack);
	for (int i = 0; i < d->nextras; i++)
		key_put(s, d->extras[i].nports);
	if (d->nscaleups > 0) {
		for (int i = 0; i < d->naccels && !s->differs; i++)
			key_put(s, d->accels[i].node);
		for (int i = 0; i < d->ngroups; i++)
			key_put(s, d->groups[i].first_node), key_put(s, d->groups[i].count);
		for (int i = 0; i < d->nscaleups; i++) {
			const ScaleUpInst *u = &d->scaleups[i];
			key_put(s, u->group), key_put(s, u->first_link), key_put(s, u->cables);
			key_put(s, u->domain_nodes), key_put(s, u->first_switch);
			key_put(s, u->nswitches);
		}
	}
}

static VerifyMemo memo;

int verify_fabrics(Design *d)
{
	bool memo_on = verify_memo_on(d);
	if (memo_on && verify_memo_clean(&memo, d, verify_key))
		return 0;
	int before = diag_errors(d->p->c);
	Verifier v = {.d = d};
	v.sw_base = xmalloc(sizeof(int) * (size_t)(d->nswitches + 1));
	long total = 0;
	for (int i = 0; i < d->nswitches; i++) {
		v.sw_base[i] = (int)total;
		total += d->switches[i].radix;
	}
	v.sw_ports = calloc((size_t)total + 1, 1);
	v.nic_used = calloc((size_t)d->nports + 1, 1);
	v.extra_base = xmalloc(sizeof(int) * (size_t)(d->nextras + 1));
	long extra_total = 0;
	for (int i = 0; i < d->nextras; i++) {
		v.extra_base[i] = (int)extra_total;
		extra_total += d->extras[i].nports;
	}
	v.extra_base[d->nextras] = (int)extra_total;
	v.extra_used = calloc((size_t)extra_total + 1, 1);
	long vertices = d->nswitches + d->nports + extra_total + d->nnodes;
	v.parent = xmalloc(sizeof(int) * (size_t)(vertices + 1));
	if (!v.sw_ports || !v.nic_used || !v.extra_used)
		die_oom();
	v.clean = true;
	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		/* both ends, whatever the first says */
		bool a = use_end(&v, l->a, i, l), z = use_end(&v, l->z, i, l);
		v.clean = v.clean && a && z;
	}
	for (long i = 0; v.clean && i < vertices; i++)
		v.parent[i] = (int)i; /* planes_connected's start */
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].used > d->switches[i].radix)
			fail(&v, "%s has %d links on %d ports", d->switches[i].name, d->switches[i].used,
			     d->switches[i].radix);
	for (int fi = 0; fi < d->nfabrics; fi++)
		if (d->fabrics[fi].sized)
			verify_fabric(&v, fi);
	for (int si = 0; si < d->nscaleups; si++)
		verify_scale_up(&v, &d->scaleups[si]);
	free(v.sw_base);
	free(v.sw_ports);
	free(v.nic_used);
	free(v.extra_base);
	free(v.extra_used);
	free(v.parent);
	int failures = diag_errors(d->p->c) - before;
	if (failures)
		d->p->internal_error = true;
	else if (memo_on)
		verify_memo_keep_clean(&memo, d, verify_key);
	return failures;
}
