/*
 * verify.c — proof that the wiring is what the sizing promised, after every build:
 *  1. every port (switch port, NIC port, extra device port) carries at most one link, and
 *     every switch port number is within its radix;
 *  2. every endpoint of a fabric is connected: each node's rails on it (a tree or dragonfly:
 *     once; a torus: its 2 ports per dimension), each extra device's ports;
 *  3. each fabric is connected (union-find over its switches and endpoints);
 *  4. each fabric has as many switches and links as fabric.c counted.
 * A failure is a bug in clusterc, not in the spec: an internal-error diagnostic (exit 70).
 * With --verify, what was proved is printed.
 */
#include "passes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Verifier {
	Design *d;
	unsigned char *sw_ports;   /* a use count per switch port */
	int *sw_base;              /* offset of each switch's ports in sw_ports */
	unsigned char *nic_used;   /* per NIC port of every node */
	int *extra_base;
	unsigned char *extra_used;
	int *parent;               /* union-find over switches, nodes, extras */
	int failures;
} Verifier;

static void fail(Verifier *v, const char *fmt, ...) PRINTF_LIKE(2, 3);
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

static void unite(int *parent, int a, int b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b)
		parent[a < b ? b : a] = a < b ? a : b;
}

/* Union-find index of a link end: switches, then nodes, then extras. */
static int vertex(const Design *d, End e)
{
	switch (e.kind) {
	case END_SWITCH: return e.dev;
	case END_NODE: return d->nswitches + e.dev;
	case END_EXTRA: return d->nswitches + d->nnodes + e.dev;
	default: return -1;
	}
}

static void use_end(Verifier *v, End e, int link)
{
	Design *d = v->d;
	switch (e.kind) {
	case END_SWITCH: {
		const SwitchInst *s = &d->switches[e.dev];
		if (e.port < 0 || e.port >= s->radix) {
			fail(v, "link %d goes to port %d of %s, beyond its radix", link, e.port, s->name);
			return;
		}
		if (v->sw_ports[v->sw_base[e.dev] + e.port]++)
			fail(v, "port %d of %s carries two links (link %d)", e.port, s->name, link);
		break;
	}
	case END_NODE:
		if (e.port < 0 || e.port >= d->nports || d->ports[e.port].node != e.dev) {
			fail(v, "link %d names NIC port %d of %s, which it does not have", link, e.port,
			     d->nodes[e.dev].hostname);
			return;
		}
		if (v->nic_used[e.port]++)
			fail(v, "NIC port %d of %s carries two links (link %d)", e.port,
			     d->nodes[e.dev].hostname, link);
		break;
	case END_EXTRA:
		if (e.port < 0 || e.port >= d->extras[e.dev].nports) {
			fail(v, "link %d names port %d of %s, which it does not have", link, e.port,
			     d->extras[e.dev].name);
			return;
		}
		if (v->extra_used[v->extra_base[e.dev] + e.port]++)
			fail(v, "port %d of %s carries two links (link %d)", e.port, d->extras[e.dev].name,
			     link);
		break;
	default:
		break;
	}
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
	if (nswitches != f->switches || nlinks != f->links)
		fail(v, "fabric %s has %d switches and %d links wired; sizing counted %d and %d",
		     f->decl->name, nswitches, nlinks, f->switches, f->links);

	/* Endpoints: each node's rails on this fabric carry a link (2 per dimension on a torus). */
	int ports[256];
	int missing = 0;
	for (int n = 0; n < d->nnodes; n++) {
		int np = node_fabric_ports(d, n, f->nic, ports, 256);
		int want = !strcmp(f->topology->name, "torus") ? 2 * f->ndims * f->planes : f->rails;
		for (int r = 0; r < np && r < want; r++) {
			int rpp = f->rails / f->planes;
			int k = !strcmp(f->topology->name, "torus") ? (r / (2 * f->ndims)) * rpp + r % (2 * f->ndims) : r;
			if (k < np && !v->nic_used[ports[k]])
				missing++;
		}
	}
	for (int e = f->first_extra; e < f->first_extra + f->nextras; e++)
		for (int p = 0; p < d->extras[e].nports; p++)
			missing += !v->extra_used[v->extra_base[e] + p];
	if (missing)
		fail(v, "fabric %s leaves %d endpoint ports unconnected", f->decl->name, missing);

	/* Connected: one component over its switches and endpoints (per plane for trees). */
	int root = -1, components = 0;
	for (int pl = 0; pl < f->planes; pl++) {
		root = -1;
		for (int i = f->first_link; i < f->first_link + f->links; i++) {
			const LinkInst *l = &d->links[i];
			if (l->plane != pl)
				continue;
			int r = find(v->parent, vertex(d, l->a));
			if (root < 0)
				root = r;
			else if (r != root) {
				components++;
				break;
			}
		}
	}
	if (components)
		fail(v, "a plane of fabric %s is not connected", f->decl->name);
	if (d->verify && !v->failures) {
		int connected = 0;
		for (int n = 0; n < d->nnodes; n++)
			connected += node_fabric_ports(d, n, f->nic, ports, 256) > 0;
		printf("verify: fabric %s (%s, %d plane%s): %d switches, %d links; every port carries "
		       "at most one link, within radix %d; %d nodes x %d rails and %d extra devices "
		       "connected; every plane connected\n",
		       f->decl->name, f->topology->name, f->planes, f->planes == 1 ? "" : "s", f->switches,
		       f->links, f->radix, connected, f->rails, f->nextras);
	}
}

int verify_fabrics(Design *d)
{
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
	v.extra_used = calloc((size_t)extra_total + 1, 1);
	int vertices = d->nswitches + d->nnodes + d->nextras;
	v.parent = xmalloc(sizeof(int) * (size_t)(vertices + 1));
	if (!v.sw_ports || !v.nic_used || !v.extra_used)
		die_oom();
	for (int i = 0; i < vertices; i++)
		v.parent[i] = i;

	for (int i = 0; i < d->nlinks; i++) {
		const LinkInst *l = &d->links[i];
		use_end(&v, l->a, i);
		use_end(&v, l->z, i);
		int a = vertex(d, l->a), z = vertex(d, l->z);
		if (a >= 0 && z >= 0)
			unite(v.parent, a, z);
	}
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].used > d->switches[i].radix)
			fail(&v, "%s has %d links on %d ports", d->switches[i].name, d->switches[i].used,
			     d->switches[i].radix);
	for (int fi = 0; fi < d->nfabrics; fi++)
		if (d->fabrics[fi].sized)
			verify_fabric(&v, fi);
	free(v.sw_base);
	free(v.sw_ports);
	free(v.nic_used);
	free(v.extra_base);
	free(v.extra_used);
	free(v.parent);
	int failures = diag_errors(d->p->c) - before;
	if (failures)
		d->p->internal_error = true;
	return failures;
}
