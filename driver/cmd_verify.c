/*
 * cmd_verify.c — `clusterc verify DIR --discovered FILE...`: the fabric as built against the
 * plan in DIR (a build's output directory), cable by cable (docs/daytwo.md).
 *
 * The plan is DIR/wiring.csv (backends/network/wiring_csv.c): every cable with each end's rack,
 * U, device, faceplate port and the name and port number discovery reports for it. The found
 * topology is FILE (discovered.c): ibnetdiscover output, compared with the plan's InfiniBand
 * cables by NodeDescription and port number; or LLDP neighbour tables, compared with its
 * Ethernet cables by system name and port name (or the port's alias, or the port description
 * the neighbour sends).
 *
 * Each planned cable is as planned (its two ends found linked to each other), missing (neither
 * end found linked to anything) or miswired (an end found linked elsewhere; what each end was
 * found linked to is listed). A found link neither of whose ends the plan uses is extra. A
 * cable is compared only when discovery saw the device at one of its ends at least: ibnetdiscover
 * sees one subnet, LLDP the devices that report; the others are counted as not seen. A port's
 * own report beats what its peer says about it (LLDP may disagree from the two ends).
 *
 * Output: one stanza per difference on standard output, in the plan's order, the extra
 * links after them sorted, then a summary line; with --diagnostics=json one JSON document (schema
 * "clusterc.verify/1"). Exit: 0 as planned, 2 differences found, 1 a file that is not what it
 * should be (its file:line:col), 74 a file that cannot be read, 64 usage.
 */
#include "daytwo.h"
#include "driver.h"

#include <stdlib.h>
#include <string.h>

typedef struct PEnd {
	const char *rack, *u, *device, *port, *alias, *node;
	int node_port;
} PEnd;

typedef struct PCable {
	const char *id, *fabric, *tier;
	bool ib;
	PEnd e[2];
	const char *key[2]; /* each end's key (interned): see end_key */
	bool compared;
} PCable;

typedef struct Plan {
	PCable *cables;
	int n;
	NameTable ends;     /* key -> PEnd * */
	NameTable aliases;  /* LLDP: device US alias -> key */
	NameTable nodes;    /* node or device name -> a PEnd on it */
} Plan;

/* A found end: what its key names, and the peer it was found linked to. */
typedef struct Found {
	const char *peer;   /* the peer's key */
	DiscEnd self;
	bool own;           /* the port's own report (not its peer's) */
} Found;

enum { US = 0x1f }; /* joins a key's parts: no name holds it */

static const char *ib_key(Ctx *c, const char *node, int port)
{
	return intern_cstr(c, arena_printf(c->arena, "%s%c%d", node, US, port));
}

static const char *name_key(Ctx *c, const char *device, const char *port)
{
	return intern_cstr(c, arena_printf(c->arena, "%s%c%s", device, US, port));
}

/* Reads DIR/wiring.csv into p; errors are reported at their place. */
static int plan_read(Ctx *c, const char *dir, Plan *p, bool *io)
{
	CsvTable *t = csv_load(c, dir, "wiring.csv", io);
	if (!t)
		return 1;
	static const char *const want[] = {"cable_id", "fabric", "tier", "protocol",
		"a_rack", "a_u", "a_device", "a_port", "a_alias", "a_node", "a_node_port",
		"z_rack", "z_u", "z_device", "z_port", "z_alias", "z_node", "z_node_port"};
	int col[18];
	for (int i = 0; i < 18; i++) {
		if ((col[i] = csv_col(t, want[i])) < 0) {
			Diag *d = diag_error(c, (Loc){t->src, 0, 1}, "the header has no column %s (was "
					     "the plan written by another version?)", want[i]);
			diag_set_code(d, "plan-format");
			return 1;
		}
	}
	p->cables = arena_alloc(c->arena, sizeof *p->cables * (size_t)(t->nrows + 1));
	int errors = 0;
	for (int r = 0; r < t->nrows; r++) {
		const char **f = t->rows[r].field;
		PCable *pc = &p->cables[p->n++];
		*pc = (PCable){.id = f[col[0]], .fabric = f[col[1]], .tier = f[col[2]],
			       .ib = strcmp(f[col[3]], "infiniband") == 0};
		for (int s = 0; s < 2; s++) {
			const int *k = col + 4 + 7 * s;
			char *end;
			long np = strtol(f[k[6]], &end, 10);
			if (*end || np < 1 || end == f[k[6]]) {
				Diag *d = diag_error(c, csv_loc(t, r, k[6]), "a port number from 1, not '%s'",
						     f[k[6]]);
				diag_set_code(d, "plan-format");
				errors++;
				continue;
			}
			pc->e[s] = (PEnd){f[k[0]], f[k[1]], f[k[2]], f[k[3]], f[k[4]], f[k[5]], (int)np};
			PEnd *e = &pc->e[s];
			pc->key[s] = pc->ib ? ib_key(c, e->node, e->node_port) : name_key(c, e->device, e->port);
			table_put(c, &p->ends, pc->key[s], e);
			if (!pc->ib && *e->alias)
				table_put(c, &p->aliases, name_key(c, e->device, e->alias), (void *)pc->key[s]);
			const char *node = intern_cstr(c, pc->ib ? e->node : e->device);
			if (!table_get(&p->nodes, node))
				table_put(c, &p->nodes, node, e);
		}
	}
	return errors;
}

/* The key of a found end: the plan's end it names, else its own. */
static const char *found_key(Ctx *c, const Plan *p, const DiscEnd *e, bool ib)
{
	if (ib)
		return ib_key(c, e->node, e->port_number);
	const char *k = name_key(c, e->node, e->port);
	if (table_get(&p->ends, k))
		return k;
	const char *a = table_get(&p->aliases, k);
	if (a)
		return a;
	if (e->port_descr) {
		const char *d = name_key(c, e->node, e->port_descr);
		if (table_get(&p->ends, d))
			return d;
		if ((a = table_get(&p->aliases, d)))
			return a;
	}
	return k;
}

/* ---- output -------------------------------------------------------------------------------- */

typedef struct Report {
	Ctx *c;
	const Plan *p;
	NameTable found;   /* key -> Found * */
	bool ib, json;
	Json *diffs;
} Report;

/* An end as text: "A01 U1 dgx001 mlx5_0" (planned), or what discovery said of an end the plan
 * does not have, placed by its device when the plan knows it. */
static void end_text(Buf *b, const Report *r, const char *key)
{
	const PEnd *e = table_get(&r->p->ends, key);
	const Found *f = table_get(&r->found, key);
	if (e) {
		buf_printf(b, "%s U%s %s %s", *e->rack ? e->rack : "-", *e->u ? e->u : "-", e->device, e->port);
		if (r->ib)
			buf_printf(b, " (port %d)", e->node_port);
		return;
	}
	const DiscEnd *d = f ? &f->self : NULL;
	const PEnd *on = d ? table_get(&r->p->nodes, intern_cstr(r->c, d->node)) : NULL;
	if (on)
		buf_printf(b, "%s U%s %s", *on->rack ? on->rack : "-", *on->u ? on->u : "-", on->device);
	else
		buf_printf(b, "(not in the plan) %s", d ? d->node : "?");
	if (d && r->ib)
		buf_printf(b, " port %d", d->port_number);
	else if (d)
		buf_printf(b, " %s", d->port);
}

static Json *end_json(const Report *r, const char *key)
{
	const PEnd *e = table_get(&r->p->ends, key);
	const Found *f = table_get(&r->found, key);
	const DiscEnd *d = f ? &f->self : NULL;
	const PEnd *on = e ? e : d ? table_get(&r->p->nodes, intern_cstr(r->c, d->node)) : NULL;
	Json *j = jw_object();
	jw_set(j, "rack", on && *on->rack ? jw_str(on->rack) : jw_null());
	jw_set(j, "u", on && *on->u ? jw_int(atoll(on->u)) : jw_null());
	jw_set(j, "device", on ? jw_str(on->device) : jw_null());
	jw_set(j, "port", e ? jw_str(e->port) : !r->ib && d ? jw_str(d->port) : jw_null());
	jw_set(j, "node", jw_str(e ? e->node : d ? d->node : NULL));
	if (r->ib)
		jw_set(j, "node_port", jw_int(e ? e->node_port : d ? d->port_number : 0));
	jw_set(j, "planned", jw_bool(e != NULL));
	return j;
}

static Json *link_json(const Report *r, const char *a, const char *z)
{
	Json *j = jw_object();
	jw_set(j, "a", end_json(r, a));
	jw_set(j, "z", end_json(r, z));
	return j;
}

static void print_link(const Report *r, const char *what, const char *a, const char *z)
{
	Buf b = {0};
	end_text(&b, r, a);
	buf_puts(&b, "  <->  ");
	end_text(&b, r, z);
	printf("  %-8s %s\n", what, diag_printable(r->c, b.s));
	buf_free(&b);
}

/* One difference: kind, the planned cable (NULL for an extra link), the links found. */
static void difference(Report *r, const char *kind, const PCable *pc, const char **found, int nfound)
{
	if (r->json) {
		Json *j = jw_object();
		jw_set(j, "kind", jw_str(kind));
		jw_set(j, "cable_id", pc ? jw_str(pc->id) : jw_null());
		jw_set(j, "fabric", pc ? jw_str(pc->fabric) : jw_null());
		jw_set(j, "tier", pc ? jw_str(pc->tier) : jw_null());
		jw_set(j, "planned", pc ? link_json(r, pc->key[0], pc->key[1]) : jw_null());
		Json *fl = jw_array();
		for (int i = 0; i < nfound; i++)
			jw_push(fl, link_json(r, found[2 * i], found[2 * i + 1]));
		jw_set(j, "found", fl);
		jw_push(r->diffs, j);
		return;
	}
	if (pc)
		printf("%s %s (%s %s)\n", kind, pc->id, pc->fabric, pc->tier);
	else
		printf("%s\n", kind);
	if (pc)
		print_link(r, "planned", pc->key[0], pc->key[1]);
	for (int i = 0; i < nfound; i++)
		print_link(r, "found", found[2 * i], found[2 * i + 1]);
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* ---- the comparison ------------------------------------------------------------------------ */

/* Records what discovery found: each port's own report first, then what its peer said of it. */
static void fill_found(Report *r, const Discovered *dv, NameTable *seen)
{
	Ctx *c = r->c;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < dv->nlinks; i++) {
			const DiscLink *l = &dv->links[i];
			const char *ka = found_key(c, r->p, &l->a, r->ib), *kz = found_key(c, r->p, &l->z, r->ib);
			const char *self = pass ? kz : ka, *peer = pass ? ka : kz;
			if (!pass) {
				table_put(c, seen, intern_cstr(c, l->a.node), (void *)l);
				table_put(c, seen, intern_cstr(c, l->z.node), (void *)l);
			}
			if (table_get(&r->found, self))
				continue;
			Found *f = arena_alloc(c->arena, sizeof *f);
			*f = (Found){peer, pass ? l->z : l->a, !pass};
			table_put(c, &r->found, self, f);
		}
	}
}

static const char *peer_of(const Report *r, const char *key)
{
	const Found *f = table_get(&r->found, key);
	return f ? f->peer : NULL;
}

/* Whether discovery saw a device of one cable at least that the comparison takes; else an
 * error (nothing could be verified: another subnet, another fabric, an empty file). */
static bool nothing_seen(Ctx *c, const Options *o, const Plan *p, const NameTable *seen, bool ib)
{
	int candidates = 0;
	for (int i = 0; i < p->n; i++) {
		const PCable *pc = &p->cables[i];
		if (pc->ib != ib || (o->fabric && strcmp(o->fabric, pc->fabric) != 0))
			continue;
		candidates++;
		for (int s = 0; s < 2; s++)
			if (table_get(seen, intern_cstr(c, ib ? pc->e[s].node : pc->e[s].device)))
				return true;
	}
	Diag *d = diag_error(c, NOLOC, "%s: no device of the plan's %d %s cables%s%s was discovered",
			     o->discovered[0], candidates, ib ? "InfiniBand" : "Ethernet",
			     o->fabric ? " of fabric " : "", o->fabric ? o->fabric : "");
	diag_set_code(d, "verify-nothing-seen");
	return false;
}

int cmd_verify(const Options *o, const char *dir)
{
	Ctx *c = ctx_new(o->dopt);
	Plan p = {0};
	bool io = false;
	Discovered dv = {0};
	int errors = plan_read(c, dir, &p, &io);
	for (int i = 0; i < o->ndiscovered && !io; i++) {
		bool io_error = false;
		Source *s = src_load(c, o->discovered[i], NOLOC, &io_error);
		io |= io_error;
		if (!s) {
			errors++;
			continue;
		}
		s->shown = true; /* a text of lines: quote them under their diagnostics */
		errors += discovered_read(c, s, &dv);
	}
	if (errors || io || diag_errors(c)) {
		diag_render(c, stderr);
		ctx_free(c);
		return io ? EXIT_IO : EXIT_SPEC;
	}
	Report r = {c, &p, {0}, dv.format == DISC_IBNETDISCOVER, o->dopt.format == DIAG_JSON, jw_array()};
	NameTable seen = {0};
	fill_found(&r, &dv, &seen);
	if (!nothing_seen(c, o, &p, &seen, r.ib)) {
		diag_render(c, stderr);
		jw_free(r.diffs);
		ctx_free(c);
		return EXIT_SPEC;
	}
	int counts[4] = {0}, planned = 0, unseen = 0; /* as planned, miswired, missing, extra */
	for (int i = 0; i < p.n; i++) {
		PCable *pc = &p.cables[i];
		if (pc->ib != r.ib || (o->fabric && strcmp(o->fabric, pc->fabric) != 0))
			continue;
		const char *na = pc->ib ? pc->e[0].node : pc->e[0].device;
		const char *nz = pc->ib ? pc->e[1].node : pc->e[1].device;
		if (!table_get(&seen, intern_cstr(c, na)) && !table_get(&seen, intern_cstr(c, nz))) {
			unseen++;
			continue;
		}
		planned++;
		pc->compared = true;
		const char *fa = peer_of(&r, pc->key[0]), *fz = peer_of(&r, pc->key[1]);
		if (!fa && !fz) {
			counts[2]++;
			difference(&r, "missing", pc, NULL, 0);
		} else if ((!fa || fa == pc->key[1]) && (!fz || fz == pc->key[0])) {
			counts[0]++;
		} else {
			const char *links[4];
			int n = 0;
			if (fa) {
				links[2 * n] = pc->key[0];
				links[2 * n++ + 1] = fa;
			}
			if (fz && !(fa == pc->key[1] && fz == pc->key[0])) {
				links[2 * n] = pc->key[1];
				links[2 * n++ + 1] = fz;
			}
			counts[1]++;
			difference(&r, "miswired", pc, links, n);
		}
	}
	/* Extra: found links between ports the plan does not use, each once, sorted. */
	const char **extra = xmalloc(sizeof(char *) * (size_t)(r.found.cap + 1));
	int nextra = 0;
	for (int i = 0; i < r.found.cap; i++) {
		const char *k = r.found.keys[i];
		if (!k)
			continue;
		const char *peer = ((const Found *)r.found.vals[i])->peer;
		if (table_get(&p.ends, k) || table_get(&p.ends, peer))
			continue;
		if (strcmp(k, peer) < 0 || peer_of(&r, peer) != k)
			extra[nextra++] = k;
	}
	qsort(extra, (size_t)nextra, sizeof *extra, key_cmp);
	for (int i = 0; i < nextra; i++) {
		const char *link[2] = {extra[i], peer_of(&r, extra[i])};
		difference(&r, "extra", NULL, link, 1);
	}
	counts[3] = nextra;
	free(extra);
	const char *format = r.ib ? "ibnetdiscover" : "lldp";
	if (r.json) {
		Json *j = jw_object();
		jw_set(j, "schema", jw_str("clusterc.verify/1"));
		jw_set(j, "plan", jw_str(arena_printf(c->arena, "%s/wiring.csv", dir)));
		jw_set(j, "format", jw_str(format));
		jw_set(j, "cables_compared", jw_int(planned));
		jw_set(j, "cables_not_seen", jw_int(unseen));
		jw_set(j, "links_found", jw_int(dv.nlinks));
		jw_set(j, "as_planned", jw_int(counts[0]));
		jw_set(j, "miswired", jw_int(counts[1]));
		jw_set(j, "missing", jw_int(counts[2]));
		jw_set(j, "extra", jw_int(counts[3]));
		jw_set(j, "differences", r.diffs);
		jw_write(stdout, j);
	} else {
		jw_free(r.diffs);
		if (!o->quiet || counts[1] + counts[2] + counts[3])
			printf("%s/wiring.csv against %s (%s): %d cables compared, %d as planned, %d "
			       "miswired, %d missing, %d extra; %d not seen\n",
			       diag_printable(c, dir), diag_printable(c, o->discovered[0]), format, planned,
			       counts[0], counts[1], counts[2], counts[3], unseen);
	}
	diag_render(c, stderr);
	ctx_free(c);
	if (!driver_streams_ok())
		return EXIT_IO;
	return counts[1] + counts[2] + counts[3] ? EXIT_UNMET : EXIT_OK;
}
