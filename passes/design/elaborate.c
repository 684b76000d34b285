/*
 * elaborate.c — the design as instances: every rack, node, accelerator and NIC port, each with
 * a stable id (its index, in the order of the cluster's nodes field) and a name.
 *
 * Racks are filled group by group in the order the nodes field lists them, each rack with the
 * per-rack count racks.c planned, nodes stacked from the bottom (U 1 up, above nothing:
 * reserved space is at the top). Storage appliances follow in racks of their own. With a floor
 * grid, racks take positions row by row in that order (placement and cabling, later, move them
 * to shorten cables). Rack names are row letter and position ("A01", "B12", "AA03"), or R0001
 * without a grid. Hostnames come from the cluster's template; two nodes given the same name is
 * an error at the template.
 */
#include "passes.h"

#include <math.h>
#include <string.h>

static const double RACK_UNIT = 0.04445; /* m (EIA-310) */

/* Row letters as spreadsheets write columns: A..Z, AA..AZ, BA... (1 is A). */
static void letters(int n, char *buf, size_t size, bool lower)
{
	char tmp[16];
	int k = 0;
	while (n > 0 && k < 15) {
		n--;
		tmp[k++] = (char)((lower ? 'a' : 'A') + n % 26);
		n /= 26;
	}
	size_t j = 0;
	while (k > 0 && j + 1 < size)
		buf[j++] = tmp[--k];
	buf[j] = 0;
}

/* Expands one placeholder with its format: 04 (zero-padded width), 4 (width), A or a. */
/* v >= 0 in decimal, padded on the left with `pad` to width: printf's "%0*ld" / "%*ld" for
 * such a v, without parsing a format for each of 100,000 names. */
static void put_padded(Buf *b, long v, int width, char pad)
{
	char tmp[64]; /* width <= 32: put_number */
	const char *p = buf_digits_before(tmp + sizeof tmp, (unsigned long)v, width, pad);
	buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

static void put_number(Buf *b, long v, const char *spec, size_t slen)
{
	if (slen == 1 && (spec[0] == 'A' || spec[0] == 'a')) {
		char l[16];
		letters((int)v, l, sizeof l, spec[0] == 'a');
		buf_puts(b, l);
		return;
	}
	int width = 0;
	bool zero = slen > 0 && spec[0] == '0';
	for (size_t i = 0; i < slen; i++)
		width = width * 10 + (spec[i] - '0');
	if (v < 0 || width > 32) {
		buf_printf(b, zero ? "%0*ld" : "%*ld", width, v);
		return;
	}
	put_padded(b, v, width, zero ? '0' : ' ');
}

typedef struct Subst {
	long index0, rack_row, slot, su, domain;
	const char *rack, *cluster, *site;
} Subst;

static void expand(Buf *b, const char *t, const Subst *s)
{
	for (size_t i = 0; t[i]; i++) {
		if ((t[i] == '{' || t[i] == '}') && t[i + 1] == t[i]) {
			buf_putc(b, t[i++]);
			continue;
		}
		if (t[i] != '{') {
			buf_putc(b, t[i]);
			continue;
		}
		const char *close = strchr(t + i, '}');
		const char *name = t + i + 1;
		const char *colon = memchr(name, ':', (size_t)(close - name));
		size_t nlen = (size_t)((colon ? colon : close) - name);
		const char *spec = colon ? colon + 1 : close;
		size_t slen = (size_t)(close - spec);
#define IS(w) (nlen == strlen(w) && memcmp(name, w, nlen) == 0)
		if (IS("index")) put_number(b, s->index0 + 1, spec, slen);
		else if (IS("index0")) put_number(b, s->index0, spec, slen);
		else if (IS("row")) put_number(b, s->rack_row, spec, slen);
		else if (IS("slot")) put_number(b, s->slot, spec, slen);
		else if (IS("su")) put_number(b, s->su, spec, slen);
		else if (IS("domain")) put_number(b, s->domain, spec, slen);
		else if (IS("rack")) buf_puts(b, s->rack);
		else if (IS("cluster")) buf_puts(b, s->cluster);
		else if (IS("site")) buf_puts(b, s->site);
#undef IS
		i = (size_t)(close - t);
	}
}

/* A node or storage rack of a zone; place.c gives it its place and name. */
static RackInst *new_rack(Design *d, int *nracks, int zone)
{
	RackInst *r = &d->racks[(*nracks)++];
	r->zone = zone;
	design_rack_init(d, r);
	r->row = r->pos = -1;
	return r;
}

/* Distinct names: an open-addressing set of the hostnames given so far. */
typedef struct NameSet {
	const char **slots;
	int *owner;
	unsigned cap;
} NameSet;

static int name_claim(NameSet *s, const char *name, int node)
{
	unsigned h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (unsigned i = h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (!s->slots[i]) {
			s->slots[i] = name;
			s->owner[i] = node;
			return -1;
		}
		if (strcmp(s->slots[i], name) == 0)
			return s->owner[i];
	}
}

/* RFC 1123: labels of letters, digits and '-', not starting or ending with '-', at most 63
 * characters, 253 in all. */
static bool valid_hostname(const char *s)
{
	size_t n = strlen(s), label = 0;
	if (n == 0 || n > 253)
		return false;
	for (size_t i = 0; i <= n; i++) {
		char ch = s[i];
		if (ch == '.' || ch == 0) {
			if (label == 0 || s[i - 1] == '-')
				return false;
			label = 0;
			continue;
		}
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || (ch == '-' && label > 0);
		if (!ok || ++label > 63)
			return false;
	}
	return true;
}

/* The scale-up domains' names (ir.h: Design.domain_names): numbered from 1 within the node
 * type in node order, so that a type in two groups has one series (and its switch trays one
 * set of names); 4 digits from 1,000 domains of the type. Group g's domains are
 * [g.first_domain, + its count / domain_nodes). */
static void name_domains(Design *d, int ndomains)
{
	Arena *a = d->c->arena;
	d->ndomains = ndomains;
	d->domain_names = arena_alloc(a, sizeof(char *) * (size_t)(ndomains + 1));
	for (int i = 0; i < ndomains; i++)
		d->domain_names[i] = ""; /* a group of no node still takes an index */
	for (int gi = 0; gi < d->ngroups; gi++) {
		const NodeGroup *g = &d->groups[gi];
		int before = 0, total = 0;
		for (int h = 0; h < d->ngroups; h++) {
			const NodeGroup *o = &d->groups[h];
			int n = (o->count + o->domain_nodes - 1) / o->domain_nodes;
			if (o->type == g->type)
				total += n, before += h < gi ? n : 0;
		}
		int width = total >= 1000 ? 4 : 3;
		Buf nb = {0};
		for (int k = 0; k < (g->count + g->domain_nodes - 1) / g->domain_nodes; k++) {
			/* "%s-nvl%0*d" */
			nb.len = 0;
			buf_puts(&nb, g->type->name);
			buf_puts(&nb, "-nvl");
			put_padded(&nb, before + k + 1, width, '0');
			d->domain_names[g->first_domain + k] = arena_strndup(a, nb.s, nb.len);
		}
		buf_free(&nb);
	}
}

int elaborate_design(Design *d)
{
	Ctx *c = d->p->c;
	Arena *a = c->arena;
	int before = diag_errors(c);
	int nodes = 0, accels = 0, ports = 0;
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		nodes += g->count;
		accels += g->count * g->type->node.accelerators;
		ports += g->count * g->type->node.nic_ports;
	}
	d->nodes = arena_alloc(a, sizeof(NodeInst) * (size_t)(nodes + 1));
	d->accels = arena_alloc(a, sizeof(AccelInst) * (size_t)(accels + 1));
	d->ports = arena_alloc(a, sizeof(PortInst) * (size_t)(ports + 1));
	d->racks = arena_alloc(a, sizeof(RackInst) * (size_t)(d->node_racks + 1));

	int nracks = 0, n = 0, domain = 0;
	for (int gi = 0; gi < d->ngroups; gi++) {
		NodeGroup *g = &d->groups[gi];
		g->first_node = n;
		g->first_domain = domain;
		RackInst *r = NULL;
		bool multi = g->domain_racks > 1 || g->switch_racks > 0;
		for (int k = 0; k < g->count; k++, n++) {
			if (k % g->domain_nodes == 0 && k > 0)
				domain++;
			if (k % g->per_rack == 0) {
				int share = (k % g->domain_nodes) / g->per_rack;
				/* A domain over several racks: its switch racks in the middle of its
				 * node racks, so no link runs further than half the domain. */
				if (multi && share == g->domain_racks / 2)
					for (int s = 0; s < g->switch_racks; s++) {
						RackInst *sr = new_rack(d, &nracks, g->zone);
						sr->first_node = -1;
						sr->scale_up_switches = true;
						sr->domain = domain;
						sr->domain_slot = g->domain_racks + s;
						if (share == 0 && s == 0)
							sr->domain_span = g->domain_racks + g->switch_racks;
					}
				r = new_rack(d, &nracks, g->zone);
				r->first_node = n;
				if (multi) {
					r->domain = domain;
					r->domain_slot = share;
					if (share == 0 && g->domain_racks / 2 > 0)
						r->domain_span = g->domain_racks + g->switch_racks;
				}
			}
			NodeInst *ni = &d->nodes[n];
			ni->type = g->type;
			ni->group = gi;
			ni->rack = nracks - 1;
			ni->u = 1 + (int)lround(r->height_used / RACK_UNIT);
			ni->domain = domain;
			r->height_used += g->type->height;
			r->power += g->type->power;
			r->nnodes++;
			/* Accelerators and NIC ports, in the order the node lists them. */
			ni->first_accel = d->naccels;
			ni->first_port = d->nports;
			const Part *type = g->type;
			for (int j = 0, slot = 0; j < type->node.naccels; j++)
				for (int q = 0; q < type->node.accels[j].count; q++)
					d->accels[d->naccels++] =
						(AccelInst){type->node.accels[j].part, n, slot++};
			for (int j = 0, nic = 0; j < type->node.nnics; j++) {
				const Part *np = type->node.nics[j].part;
				for (int q = 0; q < type->node.nics[j].count; q++, nic++)
					for (int port = 0; port < np->nic.ports; port++)
						d->ports[d->nports++] =
							(PortInst){np, n, nic, port, np->nic.speed};
			}
		}
		/* Scale-up switch trays sit with their domain: count their power and space. In a
		 * domain over several racks, switch k stands in share k / (T / racks) of the
		 * domain's switch racks or, without them, of its node racks (racks.c). */
		if (multi) {
			int T = 0;
			for (int j = 0; j < g->type->node.ntrays; j++)
				T += g->type->node.trays[j].count;
			int over = g->switch_racks ? g->switch_racks : g->domain_racks;
			for (int ri = 0; ri < nracks && T; ri++) {
				RackInst *rk = &d->racks[ri];
				if (rk->domain < g->first_domain || rk->domain > domain)
					continue;
				int slot = g->switch_racks ? rk->domain_slot - g->domain_racks
							   : rk->domain_slot;
				if (slot < 0 || (g->switch_racks && !rk->scale_up_switches))
					continue;
				int k = 0;
				for (int j = 0; j < g->type->node.ntrays; j++) {
					const PartCount *t = &g->type->node.trays[j];
					for (int q = 0; q < t->count; q++, k++)
						if (k / (T / over) == slot) {
							rk->power += t->part->power;
							rk->height_used += t->part->height;
						}
				}
			}
		} else if (g->domain_nodes > 1) {
			double sw_p = 0, sw_h = 0;
			for (int j = 0; j < g->type->node.ntrays; j++) {
				const PartCount *t = &g->type->node.trays[j];
				sw_p += t->count * t->part->power;
				sw_h += t->count * t->part->height;
			}
			for (int ri = 0; ri < nracks; ri++) {
				RackInst *rk = &d->racks[ri];
				if (d->nodes[rk->first_node].group != gi)
					continue;
				int doms = rk->nnodes / g->domain_nodes;
				rk->power += doms * sw_p;
				rk->height_used += doms * sw_h;
			}
		}
		domain++;
	}
	/* Storage racks: each entry of cluster.storage in racks of its own, appliances stacked from
	 * U 1 and named after their model, numbered per model across entries. */
	int nappliances = 0;
	for (int i = 0; i < d->nstorage_kinds; i++)
		nappliances += d->storage[i].count;
	d->appliances = arena_alloc(a, sizeof(StorageInst) * (size_t)(nappliances + 1));
	d->nappliances = 0;
	for (int i = 0; i < d->nstorage_kinds; i++) {
		const Part *unit = d->storage[i].part;
		double h = unit->height, p = unit->power;
		const ZoneInst *z = &d->zones[d->storage_zone[i]];
		double usable = z->rack_type->height - z->rack_type->rack.reserved;
		int number = 0; /* this model's appliances in earlier entries */
		for (int e = 0; e < i; e++)
			if (d->storage[e].part == unit)
				number += d->storage[e].count;
		RackInst *r = NULL;
		for (int k = 0; k < d->storage[i].count; k++) {
			if (!r || r->height_used + h > usable + 1e-9 || r->power + p > r->cap + 1e-6) {
				if (nracks >= d->node_racks)
					break;
				r = new_rack(d, &nracks, d->storage_zone[i]);
				r->first_node = n;
			}
			StorageInst *x = &d->appliances[d->nappliances++];
			*x = (StorageInst){unit, arena_printf(a, "%s-%03d", unit->name, number + k + 1),
					   nracks - 1, 1 + (int)lround(r->height_used / RACK_UNIT)};
			r->height_used += h;
			r->power += p;
			r->storage++;
		}
	}
	d->nnodes = n;
	d->nracks = nracks;
	name_domains(d, domain);
	spares_mark(d);
	d->elaborated = true;
	return diag_errors(c) - before;
}

/* Hostnames from the cluster's template, now that racks have their names and places: a name
 * that is not a valid hostname, or one given to two nodes, is an error at the template. */
int elaborate_names(Design *d)
{
	Ctx *c = d->c;
	Arena *a = c->arena;
	int before = diag_errors(c);
	const Value *tmpl_v = field_value(d->cluster, FLD_CLUSTER_HOSTNAME);
	const char *tmpl = field_str(d->cluster, FLD_CLUSTER_HOSTNAME);
	NameSet names = {0};
	names.cap = 64;
	while (names.cap < (unsigned)d->nnodes * 2)
		names.cap <<= 1;
	names.slots = arena_alloc(a, sizeof(char *) * names.cap);
	names.owner = arena_alloc(a, sizeof(int) * names.cap);
	bool bad_name = false, dup_reported = false;
	int n;
	/* Hostnames, now that racks have their names and places. */
	int su_nodes = 0;
	for (int i = 0; i < d->nfabrics; i++)
		if (d->fabrics[i].sized && d->fabrics[i].rail_optimized && !su_nodes)
			su_nodes = d->fabrics[i].su_nodes;
	Buf b = {0};
	for (n = 0; n < d->nnodes; n++) {
		NodeInst *ni = &d->nodes[n];
		const RackInst *r = &d->racks[ni->rack];
		Subst s = {.index0 = n, .rack_row = r->row + 1, .slot = n - r->first_node + 1,
			   .su = su_nodes ? n / su_nodes + 1 : 1, .domain = ni->domain + 1,
			   .rack = r->name, .cluster = d->cluster->name, .site = d->site->name};
		b.len = 0;
		expand(&b, tmpl, &s);
		ni->hostname = arena_strndup(a, b.s ? b.s : "", b.len);
		if (!bad_name && !valid_hostname(ni->hostname)) {
			/* {cluster} and {site} bring names that may hold '_'. */
			bad_name = true;
			Diag *dg = diag_error(c, tmpl_v ? tmpl_v->loc : d->cluster->name_loc,
					      "the hostname template gives '%s', which is not a valid "
					      "hostname: letters, digits and '-', labels of at most 63 "
					      "characters (RFC 1123)",
					      ni->hostname);
			diag_set_code(dg, "template");
		}
		int other = name_claim(&names, ni->hostname, n);
		if (other >= 0 && !dup_reported) {
			dup_reported = true;
			Diag *dg = diag_error(c, tmpl_v ? tmpl_v->loc : d->cluster->name_loc,
					      "the hostname template gives '%s' to node %d and to node %d; "
					      "add {index} to it",
					      ni->hostname, other + 1, n + 1);
			diag_set_code(dg, "duplicate-hostname");
		}
	}
	buf_free(&b);
	return diag_errors(c) - before;
}
