/*
 * topology_dot.c — the fabric graph as data (TopologyScene: what topology.dot and topology.svg
 * show, PRODUCT §6), and topology.dot written from it directly, without Graphviz. topology.c
 * builds Graphviz's graph from the same scene when it lays out the SVG.
 *
 * What is drawn (the attributes are declared in backends.h, TOPO_NODE_ATTRS and the rest):
 * one undirected graph named after the cluster, rank direction bottom to top (endpoints at the
 * bottom, the highest switch tier at the top), and a subgraph "cluster_FABRIC" per sized
 * fabric. Every value is a string:
 *  - A fabric of at most DETAIL_MAX devices (switches and endpoints) and DETAIL_LINKS links
 *    is drawn device by device: a node per switch (label = its name; kind=switch, fabric,
 *    tier, plane, rail, su, pod, group, model), per cluster node on the fabric (by hostname;
 *    kind=node, model) and per extra device such as a fabric manager (by name; kind=extra,
 *    model), and an edge per link (fabric, tier, plane, rail, speed "400G", and a_port and
 *    z_port: its ends' faceplate port names as cabling.csv gives them, ir.c). A cluster node
 *    sits in the subgraph of the first fabric it is on; later fabrics reuse it.
 *  - A larger fabric is drawn aggregated, and its subgraph and the graph say aggregated=true
 *    (topology_groups.c forms the groups): a node per group of switches of one tier, plane
 *    and unit (kind=switches: the scalable unit, pod or dragonfly group), a node per group of
 *    endpoints (kind=nodes, or kind=extras by type: "31 nodes, SU 1"; a torus's nodes by
 *    slice), each with its "count"; an edge per connected pair of groups, link tier and
 *    plane, its number of links in "count" and "xlabel" (placed after the layout: a "label"
 *    would slow dot down many times) and a pen width from 1 to 5 in proportion to the
 *    fabric's largest count; the links inside one group (a dragonfly's local links) are a
 *    loop.
 * Plane, rail, scalable unit, pod, group and slice numbers count from 1, as switch names do.
 * Links that would rank a clique or a ring as a chain say constraint=false
 * (topology_link_ranks). A node is found by its name, as Graphviz finds it: a device named as
 * another drawn before is the same node (its attributes set again, and a member of both
 * subgraphs).
 *
 * The DOT text is what Graphviz 2.43's agwrite wrote for this graph until 2026-12 (cgraph's
 * write.c), byte for byte: the graph's defaults (`graph [...]`, `node [...]`, `edge [...]`),
 * each subgraph with its own attributes and its nodes in creation order, then the edges in
 * the order of their tail node's creation and then their own; each object's attributes that
 * differ from their default, sorted by name, one a line; identifiers and values quoted as
 * _agstrcanon quotes them (topology_dot_canon). The unit test checks both against Graphviz
 * (topology_dot_agrees, topology_dot_canon_agrees). Through cgraph, writing the 262,656-GPU
 * dragonfly's 131,328 edges took 0.8–1.6 s; directly, a few tens of ms (docs/performance.md).
 *
 * Deterministic: nodes and edges in Design order (switches, then links); names are the
 * devices' own or built from the fabric, tier and group numbers, never from pointers.
 */
#include "backends.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* DETAIL_MAX, DETAIL_LINKS: beyond a few hundred devices or about 500 links (one 32-node
 * scalable unit of 8 rails) a drawing of every cable is unreadable, a black band across the
 * page, and dot's crossing minimisation grows faster than the edge count (2,000 links took
 * 0.2 s, most of a 1,000-GPU build; docs/performance.md). */
enum { DETAIL_MAX = 400, DETAIL_LINKS = 512 };

#define TOPO_ATTR_ROW(e, name, def) {name, def},
const char *const topology_node_attrs[TOPO_N_ATTRS][2] = {TOPO_NODE_ATTRS(TOPO_ATTR_ROW)};
const char *const topology_edge_attrs[TOPO_E_ATTRS][2] = {TOPO_EDGE_ATTRS(TOPO_ATTR_ROW)};
const char *const topology_graph_attrs[TOPO_G_ATTRS][2] = {TOPO_GRAPH_ATTRS(TOPO_ATTR_ROW)};
#undef TOPO_ATTR_ROW

/* ---- strings and nodes, each once --------------------------------------------------------- */

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static bool str_equal(const TopologyScene *sc, int id, const char *s, size_t n)
{
	return sc->str_len[id] == n && memcmp(sc->pool.s + sc->str_off[id], s, n) == 0;
}

/* An open-addressing table of indexes (-1 empty), its size a power of two: doubled (first
 * when empty) and emptied, for the caller to put every entry back with slot_put. */
static void slots_grow(int **slots, size_t *nslots, size_t first)
{
	free(*slots);
	*nslots = *nslots ? 2 * *nslots : first;
	*slots = xmalloc(sizeof **slots * *nslots);
	memset(*slots, 0xff, sizeof **slots * *nslots);
}

/* Puts index i at the first free slot from hash h (linear probing). */
static void slot_put(int *slots, size_t nslots, size_t h, int i)
{
	size_t j = h & (nslots - 1);
	while (slots[j] >= 0)
		j = (j + 1) & (nslots - 1);
	slots[j] = i;
}

static void str_rehash(TopologyScene *sc)
{
	slots_grow(&sc->str_slots, &sc->str_nslots, 1024);
	for (int i = 0; i < sc->nstr; i++)
		slot_put(sc->str_slots, sc->str_nslots,
			 str_hash(topology_scene_str(sc, i), sc->str_len[i]), i);
}

/* The string s[0..n), interned: equal strings, equal indices. */
static int str_n(TopologyScene *sc, const char *s, size_t n)
{
	if (2 * ((size_t)sc->nstr + 1) > sc->str_nslots)
		str_rehash(sc);
	size_t j = str_hash(s, n) & (sc->str_nslots - 1);
	for (; sc->str_slots[j] >= 0; j = (j + 1) & (sc->str_nslots - 1))
		if (str_equal(sc, sc->str_slots[j], s, n))
			return sc->str_slots[j];
	if (sc->nstr == sc->str_cap) {
		sc->str_cap = sc->str_cap ? 2 * sc->str_cap : 1024;
		sc->str_off = xrealloc(sc->str_off, sizeof *sc->str_off * (size_t)sc->str_cap);
		sc->str_len = xrealloc(sc->str_len, sizeof *sc->str_len * (size_t)sc->str_cap);
	}
	sc->str_off[sc->nstr] = (uint32_t)sc->pool.len;
	sc->str_len[sc->nstr] = (uint32_t)n;
	buf_put(&sc->pool, s, n);
	buf_putc(&sc->pool, '\0');
	sc->str_slots[j] = sc->nstr;
	return sc->nstr++;
}

static int str(TopologyScene *sc, const char *s)
{
	return str_n(sc, s, strlen(s));
}

static int str_int(TopologyScene *sc, int n)
{
	char buf[16];
	return str_n(sc, buf, (size_t)snprintf(buf, sizeof buf, "%d", n));
}

/* n + 1: numbers count from 1 in the drawing. */
static void set_number(int *attr, int a, TopologyScene *sc, int n)
{
	if (n >= 0)
		attr[a] = str_int(sc, n + 1);
}

/* "400G": link speeds as switch vendors write them. */
static int str_speed(TopologyScene *sc, double bits)
{
	char buf[32];
	return str_n(sc, buf, (size_t)snprintf(buf, sizeof buf, "%.0fG", bits / 1e9));
}

static void sub_add(TopologySub *s, int node)
{
	if (s->nnodes == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->nodes = xrealloc(s->nodes, sizeof *s->nodes * (size_t)s->cap);
	}
	s->nodes[s->nnodes++] = node;
}

static void node_rehash(TopologyScene *sc)
{
	slots_grow(&sc->node_slots, &sc->node_nslots, 256);
	for (int i = 0; i < sc->nnodes; i++)
		slot_put(sc->node_slots, sc->node_nslots, (size_t)sc->node_name[i] * 0x9E3779B1u, i);
}

/* The node named name in subgraph sub, as Graphviz's agnode(sub, name, 1) gives it: the node
 * of that name if there is one (now in sub as well), else a new one. kind and fabric set. */
static int *new_node(TopologyScene *sc, int sub, const char *name, const char *kind,
		     const FabricInst *f)
{
	int nm = str(sc, name);
	sc->drawn++;
	if (2 * ((size_t)sc->nnodes + 1) > sc->node_nslots)
		node_rehash(sc);
	size_t j = (size_t)nm * 0x9E3779B1u & (sc->node_nslots - 1);
	for (; sc->node_slots[j] >= 0; j = (j + 1) & (sc->node_nslots - 1))
		if (sc->node_name[sc->node_slots[j]] == nm)
			break;
	int n = sc->node_slots[j];
	if (n < 0) {
		if (sc->nnodes == sc->node_cap) {
			sc->node_cap = sc->node_cap ? 2 * sc->node_cap : 256;
			size_t cap = (size_t)sc->node_cap;
			sc->node_name = xrealloc(sc->node_name, sizeof *sc->node_name * cap);
			sc->node_sub = xrealloc(sc->node_sub, sizeof *sc->node_sub * cap);
			sc->node_attr = xrealloc(sc->node_attr,
						 sizeof *sc->node_attr * cap * TOPO_N_ATTRS);
		}
		n = sc->node_slots[j] = sc->nnodes++;
		sc->node_name[n] = nm;
		sc->node_sub[n] = sub;
		memset(&sc->node_attr[(size_t)n * TOPO_N_ATTRS], 0xff,
		       sizeof *sc->node_attr * TOPO_N_ATTRS);
		sub_add(&sc->subs[sub], n);
	} else {
		TopologySub *s = &sc->subs[sub];
		bool member = false;
		for (int i = 0; i < s->nnodes && !member; i++)
			member = s->nodes[i] == n;
		if (!member)
			sub_add(s, n);
	}
	int *attr = &sc->node_attr[(size_t)n * TOPO_N_ATTRS];
	attr[TOPO_N_KIND] = str(sc, kind);
	attr[TOPO_N_FABRIC] = str(sc, f->name);
	return attr;
}

static int *new_edge(TopologyScene *sc, int tail, int head)
{
	if (sc->nedges == sc->edge_cap) {
		sc->edge_cap = sc->edge_cap ? 2 * sc->edge_cap : 1024;
		size_t cap = (size_t)sc->edge_cap;
		sc->edge_ends = xrealloc(sc->edge_ends, sizeof *sc->edge_ends * cap * 2);
		sc->edge_attr = xrealloc(sc->edge_attr, sizeof *sc->edge_attr * cap * TOPO_E_ATTRS);
	}
	int e = sc->nedges++;
	sc->edge_ends[2 * e] = tail;
	sc->edge_ends[2 * e + 1] = head;
	int *attr = &sc->edge_attr[(size_t)e * TOPO_E_ATTRS];
	memset(attr, 0xff, sizeof *attr * TOPO_E_ATTRS);
	return attr;
}

/* ---- device by device -------------------------------------------------------------------- */

static int switch_node(TopologyScene *sc, int sub, const FabricInst *f, const SwitchInst *s)
{
	int *a = new_node(sc, sub, s->name, "switch", f);
	a[TOPO_N_LABEL] = str(sc, s->name);
	a[TOPO_N_TIER] = str(sc, ir_switch_tier_names[s->tier]);
	set_number(a, TOPO_N_PLANE, sc, s->plane);
	set_number(a, TOPO_N_RAIL, sc, s->rail);
	set_number(a, TOPO_N_SU, sc, s->su);
	if (s->pod >= 0)
		set_number(a, TOPO_N_POD, sc, s->pod);
	else
		set_number(a, TOPO_N_GROUP, sc, s->group);
	a[TOPO_N_MODEL] = str(sc, s->model ? s->model->name : "");
	a[TOPO_N_SHAPE] = str(sc, "box");
	return (int)((a - sc->node_attr) / TOPO_N_ATTRS);
}

/* The node of a link's end: switches are drawn first; endpoints on first sight (host: per
 * cluster node, extra: per extra device of f; -1 before). */
static int end_node(TopologyScene *sc, int sub, const Design *d, const FabricInst *f,
		    const int *sw, int *extra, int *host, End e)
{
	if (e.kind == END_SWITCH)
		return sw[e.dev - f->first_switch];
	int *slot = e.kind == END_EXTRA ? &extra[e.dev - f->first_extra] : &host[e.dev];
	if (*slot >= 0)
		return *slot;
	int *a;
	if (e.kind == END_EXTRA) {
		const ExtraInst *x = &d->extras[e.dev];
		a = new_node(sc, sub, x->name, "extra", f);
		a[TOPO_N_LABEL] = str(sc, x->name);
		a[TOPO_N_MODEL] = str(sc, x->type ? x->type->name : "");
		a[TOPO_N_SHAPE] = str(sc, "box3d");
	} else {
		const NodeInst *n = &d->nodes[e.dev];
		a = new_node(sc, sub, n->hostname, "node", f);
		a[TOPO_N_LABEL] = str(sc, n->hostname);
		a[TOPO_N_MODEL] = str(sc, n->type ? n->type->name : "");
	}
	return *slot = (int)((a - sc->node_attr) / TOPO_N_ATTRS);
}

static void draw_detailed(TopologyScene *sc, int sub, const Design *d, const FabricInst *f,
			  int *host)
{
	int *sw = xmalloc(sizeof *sw * (size_t)(f->switches + 1));
	int *extra = xmalloc(sizeof *extra * (size_t)(f->nextras + 1));
	memset(extra, 0xff, sizeof *extra * (size_t)(f->nextras + 1));
	for (int i = 0; i < f->switches; i++)
		sw[i] = switch_node(sc, sub, f, &d->switches[f->first_switch + i]);
	Buf port = {0};
	for (int i = f->first_link; i < f->first_link + f->links; i++) {
		const LinkInst *l = &d->links[i];
		int a = end_node(sc, sub, d, f, sw, extra, host, l->a);
		int z = end_node(sc, sub, d, f, sw, extra, host, l->z);
		int *e = new_edge(sc, a, z);
		e[TOPO_E_FABRIC] = str(sc, f->name);
		e[TOPO_E_TIER] = str(sc, ir_link_tier_names[l->tier]);
		set_number(e, TOPO_E_PLANE, sc, l->plane);
		set_number(e, TOPO_E_RAIL, sc, l->rail);
		e[TOPO_E_SPEED] = str_speed(sc, l->speed);
		port.len = 0;
		ir_end_port(&port, d, l->a);
		e[TOPO_E_A_PORT] = str_n(sc, port.s ? port.s : "", port.len);
		port.len = 0;
		ir_end_port(&port, d, l->z);
		e[TOPO_E_Z_PORT] = str_n(sc, port.s ? port.s : "", port.len);
		if (!topology_link_ranks(f, l))
			e[TOPO_E_CONSTRAINT] = str(sc, "false");
	}
	buf_free(&port);
	free(sw);
	free(extra);
}

/* ---- aggregated --------------------------------------------------------------------------- */

static const char *const unit_words[] = {"", "SU", "pod", "group", "slice", "block"};
static const char *const unit_slugs[] = {"", "su", "pod", "group", "slice", "block"};

/* A group's node: "compute/p2/leaf/su3", labelled "8 leaf switches\nplane 2, SU 3". */
static int group_node(TopologyScene *sc, int sub, const FabricInst *f, const TopologyGroup *g,
		      Buf *name, Buf *label)
{
	bool planes = g->kind == TOPO_SWITCHES && f->planes > 1;
	name->len = label->len = 0;
	buf_puts(name, f->name);
	if (planes)
		buf_printf(name, "/p%d", g->plane + 1);
	const char *what = g->kind == TOPO_SWITCHES ? ir_switch_tier_names[g->tier]
			   : g->kind == TOPO_NODES ? "nodes"
			   : g->model ? g->model->name : "devices";
	buf_printf(name, "/%s", what);
	if (g->unit >= 0)
		buf_printf(name, "/%s%d", unit_slugs[g->unit_kind], g->unit + 1);

	if (g->kind == TOPO_SWITCHES)
		buf_printf(label, "%d %s switch%s", g->count, what, g->count == 1 ? "" : "es");
	else if (g->kind == TOPO_NODES)
		buf_printf(label, "%d node%s", g->count, g->count == 1 ? "" : "s");
	else
		buf_printf(label, "%d x %s", g->count, what);
	if (planes)
		buf_printf(label, "\\nplane %d", g->plane + 1);
	if (g->unit >= 0)
		buf_printf(label, "%s%s %d", planes ? ", " : "\\n", unit_words[g->unit_kind],
			   g->unit + 1);

	static const char *const kinds[] = {"switches", "nodes", "extras"};
	int *a = new_node(sc, sub, name->s, kinds[g->kind], f);
	a[TOPO_N_LABEL] = str_n(sc, label->s, label->len);
	a[TOPO_N_COUNT] = str_int(sc, g->count);
	if (g->kind == TOPO_SWITCHES) {
		a[TOPO_N_TIER] = str(sc, ir_switch_tier_names[g->tier]);
		set_number(a, TOPO_N_PLANE, sc, g->plane);
		a[TOPO_N_SHAPE] = str(sc, "box3d");
	} else {
		a[TOPO_N_SHAPE] = str(sc, g->kind == TOPO_NODES ? "ellipse" : "box");
	}
	static const int unit_attr[] = {-1, TOPO_N_SU, TOPO_N_POD, TOPO_N_GROUP, TOPO_N_SLICE,
					TOPO_N_BLOCK};
	if (g->unit >= 0 && unit_attr[g->unit_kind] >= 0)
		set_number(a, unit_attr[g->unit_kind], sc, g->unit);
	if (g->model)
		a[TOPO_N_MODEL] = str(sc, g->model->name);
	return (int)((a - sc->node_attr) / TOPO_N_ATTRS);
}

/* False, and nothing drawn, when the groups would take the drawing past max_drawn nodes. */
static bool draw_aggregated(TopologyScene *sc, int sub, const Design *d, const FabricInst *f,
			    int max_drawn)
{
	TopologyGroups tg;
	if (!topology_group_within(d, f, max_drawn - sc->drawn, &tg)) {
		topology_groups_free(&tg);
		return false;
	}
	int *nodes = xmalloc(sizeof *nodes * (size_t)(tg.ngroups + 1));
	Buf name = {0}, label = {0};
	for (int g = 0; g < tg.ngroups; g++)
		nodes[g] = group_node(sc, sub, f, &tg.groups[g], &name, &label);
	buf_free(&name);
	buf_free(&label);
	int fabric = str(sc, f->name), last_count = -1, pen = -1;
	for (int p = 0; p < tg.npairs; p++) {
		const TopologyPair *q = &tg.pairs[p];
		int *e = new_edge(sc, nodes[q->a], nodes[q->z]);
		if (q->count != last_count) {
			char buf[32];
			pen = str_n(sc, buf, (size_t)snprintf(buf, sizeof buf, "%.2f",
							      1 + 4.0 * q->count / tg.most));
			last_count = q->count;
		}
		e[TOPO_E_FABRIC] = fabric;
		e[TOPO_E_TIER] = str(sc, ir_link_tier_names[q->tier]);
		set_number(e, TOPO_E_PLANE, sc, q->plane);
		set_number(e, TOPO_E_RAIL, sc, q->rail);
		e[TOPO_E_SPEED] = str_speed(sc, q->speed);
		e[TOPO_E_COUNT] = e[TOPO_E_XLABEL] = str_int(sc, q->count);
		if (!q->ranks)
			e[TOPO_E_CONSTRAINT] = str(sc, "false");
		e[TOPO_E_PENWIDTH] = pen;
	}
	free(nodes);
	topology_groups_free(&tg);
	return true;
}

/* ---- the scene ---------------------------------------------------------------------------- */

bool topology_scene_build(TopologyScene *sc, const Design *d, int max_drawn)
{
	*sc = (TopologyScene){0};
	for (int i = 0; i < TOPO_N_ATTRS; i++)
		sc->node_def[i] = str(sc, topology_node_attrs[i][1]);
	for (int i = 0; i < TOPO_E_ATTRS; i++)
		sc->edge_def[i] = str(sc, topology_edge_attrs[i][1]);
	sc->name = str(sc, d->cluster_name ? d->cluster_name : "cluster");
	for (int i = 0; i < TOPO_G_ATTRS; i++)
		sc->graph_attr[i] = str(sc, topology_graph_attrs[i][1]);
	sc->graph_attr[TOPO_G_LABEL] = sc->name;
	sc->subs = xmalloc(sizeof *sc->subs * (size_t)(d->nfabrics + 1));
	int *host = xmalloc(sizeof *host * (size_t)(d->nnodes + 1));
	memset(host, 0xff, sizeof *host * (size_t)(d->nnodes + 1));
	bool within = true;
	Buf b = {0};
	for (int i = 0; i < d->nfabrics && within; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->sized || !f->family || (f->links > 0 && !d->links))
			continue;
		int sub = sc->nsubs++;
		TopologySub *s = &sc->subs[sub];
		*s = (TopologySub){0};
		b.len = 0;
		buf_printf(&b, "cluster_%s", f->name);
		s->name = str_n(sc, b.s, b.len);
		s->attr[TOPO_G_AGGREGATED] = s->attr[TOPO_G_RANKDIR] = -1;
		b.len = 0;
		buf_printf(&b, "fabric %s: %s", f->name, f->family->name);
		if (f->switches > 0 && f->switch_model)
			buf_printf(&b, ", %s", f->switch_model->name);
		s->attr[TOPO_G_LABEL] = str_n(sc, b.s, b.len);
		if (topology_devices(f) > DETAIL_MAX || f->links > DETAIL_LINKS) {
			s->attr[TOPO_G_AGGREGATED] = sc->graph_attr[TOPO_G_AGGREGATED] =
				str(sc, "true");
			within = draw_aggregated(sc, sub, d, f, max_drawn);
		} else {
			draw_detailed(sc, sub, d, f, host);
		}
		within = within && sc->drawn <= max_drawn;
	}
	buf_free(&b);
	free(host);
	return within;
}

void topology_scene_free(TopologyScene *sc)
{
	for (int i = 0; i < sc->nsubs; i++)
		free(sc->subs[i].nodes);
	free(sc->subs);
	buf_free(&sc->pool);
	free(sc->str_off);
	free(sc->str_len);
	free(sc->str_slots);
	free(sc->node_name);
	free(sc->node_sub);
	free(sc->node_attr);
	free(sc->node_slots);
	free(sc->edge_ends);
	free(sc->edge_attr);
	*sc = (TopologyScene){0};
}

/* ---- topology.dot ------------------------------------------------------------------------- */

/* cgraph's write.c: characters of an unquoted identifier (ISALNUM), and those a long string
 * may be broken before (is_id_char); ASCII only, as in the C locale. */
static bool dot_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_' ||
	       c >= 0x80;
}

static bool dot_id_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '.' ||
	       c == '-' || c >= 0x80;
}

static bool dot_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* agwrite breaks a string at about this many characters (MAX_OUTPUTLINE). */
enum { DOT_LINE = 128 };

void topology_dot_canon(Buf *out, const char *s, size_t n)
{
	if (n == 0) {
		buf_put(out, "\"\"", 2);
		return;
	}
	/* The quoted form first (at most 3 bytes a character, a break after every one), then
	 * the bare string instead when it needs no quotes (_agstrcanon). */
	buf_reserve(out, 3 * n + 2);
	size_t start = out->len;
	char *p = out->s + out->len;
	*p++ = '"';
	int cnt = 0, dots = 0;
	bool quote = false, pending = false;
	unsigned char uc = (unsigned char)s[0];
	bool maybe_num = dot_digit(uc) || uc == '.' || uc == '-';
	for (size_t i = 0; i < n;) {
		if (uc == '"') {
			*p++ = '\\';
			quote = true;
		} else if (maybe_num) {
			if (uc == '-') {
				if (cnt) {
					maybe_num = false;
					quote = true;
				}
			} else if (uc == '.') {
				if (dots++) {
					maybe_num = false;
					quote = true;
				}
			} else if (!dot_digit(uc)) {
				maybe_num = false;
				quote = true;
			}
		} else if (!dot_alnum(uc)) {
			quote = true;
		}
		*p++ = (char)uc;
		uc = ++i < n ? (unsigned char)s[i] : 0;
		cnt++;
		unsigned char last = (unsigned char)p[-1];
		bool breakable = !(dot_id_char(last) || last == '\\') && dot_id_char(uc);
		if (uc && pending && breakable) {
			*p++ = '\\';
			*p++ = '\n';
			quote = true;
			pending = false;
			cnt = 0;
		} else if (uc && cnt >= DOT_LINE) {
			if (breakable) {
				*p++ = '\\';
				*p++ = '\n';
				quote = true;
				cnt = 0;
			} else {
				pending = true;
			}
		}
	}
	*p++ = '"';
	static const char *const tokens[] = {"node", "edge", "strict", "graph", "digraph",
					     "subgraph"};
	bool token = false;
	for (size_t t = 0; t < sizeof tokens / sizeof *tokens && !quote; t++)
		token = token || (strlen(tokens[t]) == n && strncasecmp(tokens[t], s, n) == 0);
	if (quote || token || (cnt == 1 && (s[0] == '.' || s[0] == '-'))) {
		out->len = (size_t)(p - out->s);
	} else {
		memcpy(out->s + start, s, n);
		out->len = start + n;
	}
	out->s[out->len] = '\0';
}

/* Each string's quoted form, made on first use. */
typedef struct DotWriter {
	const TopologyScene *sc;
	Buf *out;
	FILE *f;
	Buf canon;
	uint32_t *off, *len; /* in canon; len UINT32_MAX before use */
} DotWriter;

static void put_str(DotWriter *w, int s)
{
	if (w->len[s] == UINT32_MAX) {
		size_t at = w->canon.len;
		topology_dot_canon(&w->canon, topology_scene_str(w->sc, s), w->sc->str_len[s]);
		w->off[s] = (uint32_t)at;
		w->len[s] = (uint32_t)(w->canon.len - at);
	}
	buf_put(w->out, w->canon.s + w->off[s], w->len[s]);
}

/* The literal text of a name of ours (attributes, keywords: never quoted). */
static void put(DotWriter *w, const char *s)
{
	buf_puts(w->out, s);
}

static void indent(DotWriter *w, int level)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t";
	buf_put(w->out, tabs, (size_t)level);
}

static void flush(DotWriter *w, bool all)
{
	if (w->f && (all || w->out->len > (256u << 10))) {
		fwrite(w->out->s, 1, w->out->len, w->f);
		w->out->len = 0;
	}
}

/* The order of n attribute names (strcmp: cgraph's dictionaries of attributes). */
static void sort_attrs(const char *const (*attrs)[2], int n, int *order)
{
	for (int i = 0; i < n; i++) {
		int j = i;
		for (; j > 0 && strcmp(attrs[order[j - 1]][0], attrs[i][0]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/* The attributes of one list that are set (def NULL: those not empty; else those that differ
 * from def), after the opening: `name [` indented, or a tab and `[` when name is NULL.
 * Returns how many were written. */
static int put_list(DotWriter *w, int level, const char *name, const char *const (*attrs)[2],
		    const int *order, const int *value, const int *def, int n)
{
	int cnt = 0;
	for (int k = 0; k < n; k++) {
		int a = order[k];
		if (value[a] < 0 || (def ? value[a] == def[a] : w->sc->str_len[value[a]] == 0))
			continue;
		if (cnt++ > 0) {
			put(w, ",\n");
			indent(w, level + 1);
		} else if (name) {
			indent(w, level);
			put(w, name);
			put(w, " [");
		} else {
			put(w, "\t[");
		}
		put(w, attrs[a][0]);
		put(w, "=");
		put_str(w, value[a]);
	}
	return cnt;
}

/* A dictionary line (write_dict): `NAME [a=x,` ... `];` at level, for the n values given
 * (strings, -1 to skip) in the order given. */
static void put_dict(DotWriter *w, int level, const char *name, const char *const (*attrs)[2],
		     const int *order, const int *value, int n)
{
	int cnt = put_list(w, level, name, attrs, order, value, NULL, n);
	if (cnt > 1) {
		put(w, "\n");
		indent(w, level);
	}
	if (cnt > 0)
		put(w, "];\n");
}

/* An object's attributes that differ from their defaults (write_nondefault_attrs). */
static void put_attrs(DotWriter *w, int level, const char *const (*attrs)[2], const int *order,
		      const int *value, const int *def, int n)
{
	if (put_list(w, level, NULL, attrs, order, value, def, n) > 0)
		put(w, "]");
}

void topology_scene_dot(const TopologyScene *sc, Buf *out, FILE *f)
{
	DotWriter w = {sc, out, f, {0}, NULL, NULL};
	w.off = xmalloc(sizeof *w.off * (size_t)(sc->nstr + 1));
	w.len = xmalloc(sizeof *w.len * (size_t)(sc->nstr + 1));
	memset(w.len, 0xff, sizeof *w.len * (size_t)(sc->nstr + 1));
	int norder[TOPO_N_ATTRS], eorder[TOPO_E_ATTRS], gorder[TOPO_G_ATTRS];
	sort_attrs(topology_node_attrs, TOPO_N_ATTRS, norder);
	sort_attrs(topology_edge_attrs, TOPO_E_ATTRS, eorder);
	sort_attrs(topology_graph_attrs, TOPO_G_ATTRS, gorder);
	put(&w, "graph ");
	put_str(&w, sc->name);
	put(&w, " {\n");
	/* The root's dictionaries: its own attributes (cgraph makes a root graph's values its
	 * defaults), then every node and edge attribute whose default is not empty. */
	put_dict(&w, 1, "graph", topology_graph_attrs, gorder, sc->graph_attr, TOPO_G_ATTRS);
	put_dict(&w, 1, "node", topology_node_attrs, norder, sc->node_def, TOPO_N_ATTRS);
	put_dict(&w, 1, "edge", topology_edge_attrs, eorder, sc->edge_def, TOPO_E_ATTRS);

	/* The subgraphs, each with its nodes; a node once with its attributes (a node in two
	 * subgraphs is named again in the second). */
	bool *written = xmalloc(sizeof *written * (size_t)(sc->nnodes + 1));
	memset(written, 0, sizeof *written * (size_t)(sc->nnodes + 1));
	int *members = xmalloc(sizeof *members * (size_t)(sc->nnodes + 1));
	for (int i = 0; i < sc->nsubs; i++) {
		const TopologySub *s = &sc->subs[i];
		indent(&w, 1);
		put(&w, "subgraph ");
		put_str(&w, s->name);
		put(&w, " {\n");
		put_dict(&w, 2, "graph", topology_graph_attrs, gorder, s->attr, TOPO_G_ATTRS);
		/* Members in creation order (a node drawn again joins a subgraph late). */
		memcpy(members, s->nodes, sizeof *members * (size_t)s->nnodes);
		for (int a = 1; a < s->nnodes; a++) {
			int v = members[a], b = a;
			for (; b > 0 && members[b - 1] > v; b--)
				members[b] = members[b - 1];
			members[b] = v;
		}
		for (int k = 0; k < s->nnodes; k++) {
			int n = members[k];
			indent(&w, 2);
			put_str(&w, sc->node_name[n]);
			if (!written[n])
				put_attrs(&w, 2, topology_node_attrs, norder,
					  &sc->node_attr[(size_t)n * TOPO_N_ATTRS], sc->node_def,
					  TOPO_N_ATTRS);
			written[n] = true;
			put(&w, ";\n");
			flush(&w, false);
		}
		indent(&w, 1);
		put(&w, "}\n");
	}
	free(members);
	free(written);

	/* The edges: by their tail node, then their head node, then their own creation (cgraph
	 * keeps a node's out-edges in that order: agedgeseqcmpf), by two stable counting sorts. */
	int *first = xmalloc(sizeof *first * (size_t)(sc->nnodes + 1));
	int *by_head = xmalloc(sizeof *by_head * (size_t)(sc->nedges + 1));
	int *order = xmalloc(sizeof *order * (size_t)(sc->nedges + 1));
	for (int end = 1; end >= 0; end--) {
		memset(first, 0, sizeof *first * (size_t)(sc->nnodes + 1));
		for (int e = 0; e < sc->nedges; e++)
			first[sc->edge_ends[2 * e + end] + 1]++;
		for (int n = 0; n < sc->nnodes; n++)
			first[n + 1] += first[n];
		int *to = end ? by_head : order;
		for (int k = 0; k < sc->nedges; k++) {
			int e = end ? k : by_head[k];
			to[first[sc->edge_ends[2 * e + end]]++] = e;
		}
	}
	free(by_head);
	for (int k = 0; k < sc->nedges; k++) {
		int e = order[k];
		indent(&w, 1);
		put_str(&w, sc->node_name[sc->edge_ends[2 * e]]);
		put(&w, " -- ");
		put_str(&w, sc->node_name[sc->edge_ends[2 * e + 1]]);
		put_attrs(&w, 1, topology_edge_attrs, eorder, &sc->edge_attr[(size_t)e * TOPO_E_ATTRS],
			  sc->edge_def, TOPO_E_ATTRS);
		put(&w, ";\n");
		flush(&w, false);
	}
	free(order);
	free(first);
	put(&w, "}\n");
	flush(&w, true);
	buf_free(&w.canon);
	free(w.off);
	free(w.len);
}
