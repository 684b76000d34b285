/*
 * topology.c — topology.dot and topology.svg, the fabric graph (PRODUCT §6), through Graphviz:
 * cgraph builds and writes the graph, gvc lays it out with dot and renders the SVG. The one
 * file that includes Graphviz's headers; it closes every graph and context it opens.
 *
 * One undirected graph named after the cluster, rank direction bottom to top (endpoints at the
 * bottom, the highest switch tier at the top), and a subgraph "cluster_FABRIC" per sized
 * fabric. Every value is a string attribute:
 *  - A fabric of at most DETAIL_MAX devices (switches and endpoints) and DETAIL_LINKS links
 *    is drawn device by device: a node per switch (label = its name; kind=switch, fabric, tier, plane, rail, su,
 *    pod, group, model), per cluster node on the fabric (by hostname; kind=node, model) and
 *    per extra device such as a fabric manager (by name; kind=extra, model), and an edge per
 *    link (fabric, tier, plane, rail, speed "400G", and a_port and z_port: its ends' faceplate
 *    port names as cabling.csv gives them, ir.c). A cluster node sits in the subgraph of the
 *    first fabric it is on; later fabrics reuse it.
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
 * (topology_link_ranks).
 *
 * Deterministic: nodes and edges are created in Design order (switches, then links) and cgraph
 * writes them in creation order; names are the devices' own or built from the fabric, tier
 * and group numbers, never from pointers. The SVG is rendered only when the whole drawing has
 * at most SVG_MAX nodes, with dot's built-in text metrics rather than the fonts installed
 * (see `plugins`); it holds no date, only the Graphviz version in a comment.
 */
#include "backends.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <graphviz/gvplugin.h>
#include <stdlib.h>
#include <string.h>

/* DETAIL_MAX, DETAIL_LINKS: beyond a few hundred devices or about 500 links (one 32-node
 * scalable unit of 8 rails) a drawing of every cable is unreadable, a black band across the
 * page, and dot's crossing minimisation grows faster than the edge count (2,000 links took
 * 0.2 s, most of a 1,000-GPU build; docs/performance.md); SVG_MAX keeps the layout of the
 * whole drawing within a second or so. */
enum { DETAIL_MAX = 400, DETAIL_LINKS = 512, SVG_MAX = 400 };

/* Attributes, declared once on the root graph with their defaults. */
#define NODE_ATTRS(X) X(N_LABEL, "label", "\\N") X(N_KIND, "kind", "") X(N_FABRIC, "fabric", "") \
	X(N_TIER, "tier", "") X(N_PLANE, "plane", "") X(N_RAIL, "rail", "") X(N_SU, "su", "") \
	X(N_POD, "pod", "") X(N_GROUP, "group", "") X(N_SLICE, "slice", "") \
	X(N_BLOCK, "block", "") \
	X(N_MODEL, "model", "") X(N_COUNT, "count", "") X(N_SHAPE, "shape", "ellipse")
#define EDGE_ATTRS(X) X(E_FABRIC, "fabric", "") X(E_TIER, "tier", "") X(E_PLANE, "plane", "") \
	X(E_RAIL, "rail", "") X(E_SPEED, "speed", "") X(E_COUNT, "count", "") \
	X(E_XLABEL, "xlabel", "") X(E_PENWIDTH, "penwidth", "1") \
	X(E_CONSTRAINT, "constraint", "true") X(E_A_PORT, "a_port", "") X(E_Z_PORT, "z_port", "")
#define GRAPH_ATTRS(X) X(G_LABEL, "label", "") X(G_AGGREGATED, "aggregated", "false") \
	X(G_RANKDIR, "rankdir", "BT")

#define X(e, name, def) e,
enum { NODE_ATTRS(X) N_COUNT_ATTRS };
enum { EDGE_ATTRS(X) E_COUNT_ATTRS };
enum { GRAPH_ATTRS(X) G_COUNT_ATTRS };
#undef X
#define X(e, name, def) {name, def},
static const char *const node_attrs[][2] = {NODE_ATTRS(X)};
static const char *const edge_attrs[][2] = {EDGE_ATTRS(X)};
static const char *const graph_attrs[][2] = {GRAPH_ATTRS(X)};
#undef X

typedef struct Drawing {
	const Design *d;
	Agraph_t *g;
	Agsym_t *na[N_COUNT_ATTRS], *ea[E_COUNT_ATTRS], *ga[G_COUNT_ATTRS];
	Agnode_t **host;  /* per cluster node, once drawn in detail */
	int nodes;        /* graph nodes drawn */
	bool aggregated;
} Drawing;

static void set(void *obj, Agsym_t *sym, const char *v)
{
	agxset(obj, sym, (char *)v);
}

/* n + 1 as an attribute: numbers count from 1 in the drawing; nothing when n < 0. */
static void set_number(void *obj, Agsym_t *sym, int n)
{
	char buf[16];
	if (n < 0)
		return;
	snprintf(buf, sizeof buf, "%d", n + 1);
	set(obj, sym, buf);
}

static void set_count(void *obj, Agsym_t *sym, int n)
{
	char buf[16];
	snprintf(buf, sizeof buf, "%d", n);
	set(obj, sym, buf);
}

/* "400G": link speeds as switch vendors write them. */
static void set_speed(Agedge_t *e, Agsym_t *sym, double bits)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.0fG", bits / 1e9);
	set(e, sym, buf);
}

static Agnode_t *new_node(Drawing *w, Agraph_t *sub, const char *name, const char *kind,
			  const FabricInst *f)
{
	Agnode_t *n = agnode(sub, (char *)name, 1);
	w->nodes++;
	set(n, w->na[N_KIND], kind);
	set(n, w->na[N_FABRIC], f->name);
	return n;
}

/* ---- device by device -------------------------------------------------------------------- */

static Agnode_t *switch_node(Drawing *w, Agraph_t *sub, const FabricInst *f, const SwitchInst *s)
{
	Agnode_t *n = new_node(w, sub, s->name, "switch", f);
	set(n, w->na[N_LABEL], s->name);
	set(n, w->na[N_TIER], ir_switch_tier_names[s->tier]);
	set_number(n, w->na[N_PLANE], s->plane);
	set_number(n, w->na[N_RAIL], s->rail);
	set_number(n, w->na[N_SU], s->su);
	if (s->pod >= 0)
		set_number(n, w->na[N_POD], s->pod);
	else
		set_number(n, w->na[N_GROUP], s->group);
	set(n, w->na[N_MODEL], s->model ? s->model->name : "");
	set(n, w->na[N_SHAPE], "box");
	return n;
}

/* The graph node of a link's end: switches are drawn first; endpoints on first sight. */
static Agnode_t *end_node(Drawing *w, Agraph_t *sub, const FabricInst *f, Agnode_t **sw,
			  Agnode_t **extra, End e)
{
	const Design *d = w->d;
	if (e.kind == END_SWITCH)
		return sw[e.dev - f->first_switch];
	if (e.kind == END_EXTRA) {
		Agnode_t **slot = &extra[e.dev - f->first_extra];
		if (!*slot) {
			const ExtraInst *x = &d->extras[e.dev];
			*slot = new_node(w, sub, x->name, "extra", f);
			set(*slot, w->na[N_LABEL], x->name);
			set(*slot, w->na[N_MODEL], x->type ? x->type->name : "");
			set(*slot, w->na[N_SHAPE], "box3d");
		}
		return *slot;
	}
	Agnode_t **slot = &w->host[e.dev];
	if (!*slot) {
		const NodeInst *n = &d->nodes[e.dev];
		*slot = new_node(w, sub, n->hostname, "node", f);
		set(*slot, w->na[N_LABEL], n->hostname);
		set(*slot, w->na[N_MODEL], n->type ? n->type->name : "");
	}
	return *slot;
}

static void draw_detailed(Drawing *w, Agraph_t *sub, const FabricInst *f)
{
	const Design *d = w->d;
	Agnode_t **sw = xmalloc(sizeof *sw * (size_t)(f->switches + 1));
	Agnode_t **extra = xmalloc(sizeof *extra * (size_t)(f->nextras + 1));
	memset(extra, 0, sizeof *extra * (size_t)(f->nextras + 1));
	for (int i = 0; i < f->switches; i++)
		sw[i] = switch_node(w, sub, f, &d->switches[f->first_switch + i]);
	Buf port = {0};
	for (int i = f->first_link; i < f->first_link + f->links; i++) {
		const LinkInst *l = &d->links[i];
		Agnode_t *a = end_node(w, sub, f, sw, extra, l->a);
		Agnode_t *z = end_node(w, sub, f, sw, extra, l->z);
		Agedge_t *e = agedge(w->g, a, z, NULL, 1);
		set(e, w->ea[E_FABRIC], f->name);
		set(e, w->ea[E_TIER], ir_link_tier_names[l->tier]);
		set_number(e, w->ea[E_PLANE], l->plane);
		set_number(e, w->ea[E_RAIL], l->rail);
		set_speed(e, w->ea[E_SPEED], l->speed);
		port.len = 0;
		ir_end_port(&port, d, l->a);
		set(e, w->ea[E_A_PORT], port.s);
		port.len = 0;
		ir_end_port(&port, d, l->z);
		set(e, w->ea[E_Z_PORT], port.s);
		if (!topology_link_ranks(f, l))
			set(e, w->ea[E_CONSTRAINT], "false");
	}
	buf_free(&port);
	free(sw);
	free(extra);
}

/* ---- aggregated --------------------------------------------------------------------------- */

static const char *const unit_words[] = {"", "SU", "pod", "group", "slice", "block"};
static const char *const unit_slugs[] = {"", "su", "pod", "group", "slice", "block"};

/* A group's node: "compute/p2/leaf/su3", labelled "8 leaf switches\nplane 2, SU 3". */
static Agnode_t *group_node(Drawing *w, Agraph_t *sub, const FabricInst *f,
			    const TopologyGroup *g)
{
	Buf name = {0}, label = {0};
	bool planes = g->kind == TOPO_SWITCHES && f->planes > 1;
	buf_puts(&name, f->name);
	if (planes)
		buf_printf(&name, "/p%d", g->plane + 1);
	const char *what = g->kind == TOPO_SWITCHES ? ir_switch_tier_names[g->tier]
			   : g->kind == TOPO_NODES ? "nodes"
			   : g->model ? g->model->name : "devices";
	buf_printf(&name, "/%s", what);
	if (g->unit >= 0)
		buf_printf(&name, "/%s%d", unit_slugs[g->unit_kind], g->unit + 1);

	if (g->kind == TOPO_SWITCHES)
		buf_printf(&label, "%d %s switch%s", g->count, what, g->count == 1 ? "" : "es");
	else if (g->kind == TOPO_NODES)
		buf_printf(&label, "%d node%s", g->count, g->count == 1 ? "" : "s");
	else
		buf_printf(&label, "%d x %s", g->count, what);
	if (planes)
		buf_printf(&label, "\\nplane %d", g->plane + 1);
	if (g->unit >= 0)
		buf_printf(&label, "%s%s %d", planes ? ", " : "\\n", unit_words[g->unit_kind],
			   g->unit + 1);

	static const char *const kinds[] = {"switches", "nodes", "extras"};
	Agnode_t *n = new_node(w, sub, name.s, kinds[g->kind], f);
	set(n, w->na[N_LABEL], label.s);
	set_count(n, w->na[N_COUNT], g->count);
	if (g->kind == TOPO_SWITCHES) {
		set(n, w->na[N_TIER], ir_switch_tier_names[g->tier]);
		set_number(n, w->na[N_PLANE], g->plane);
		set(n, w->na[N_SHAPE], "box3d");
	} else {
		set(n, w->na[N_SHAPE], g->kind == TOPO_NODES ? "ellipse" : "box");
	}
	static const int unit_attr[] = {-1, N_SU, N_POD, N_GROUP, N_SLICE, N_BLOCK};
	if (g->unit >= 0 && unit_attr[g->unit_kind] >= 0)
		set_number(n, w->na[unit_attr[g->unit_kind]], g->unit);
	if (g->model)
		set(n, w->na[N_MODEL], g->model->name);
	buf_free(&name);
	buf_free(&label);
	return n;
}

static void draw_aggregated(Drawing *w, Agraph_t *sub, const FabricInst *f)
{
	TopologyGroups tg;
	topology_group(w->d, f, &tg);
	Agnode_t **nodes = xmalloc(sizeof *nodes * (size_t)(tg.ngroups + 1));
	for (int g = 0; g < tg.ngroups; g++)
		nodes[g] = group_node(w, sub, f, &tg.groups[g]);
	for (int p = 0; p < tg.npairs; p++) {
		const TopologyPair *q = &tg.pairs[p];
		Agedge_t *e = agedge(w->g, nodes[q->a], nodes[q->z], NULL, 1);
		char pen[32];
		snprintf(pen, sizeof pen, "%.2f", 1 + 4.0 * q->count / tg.most);
		set(e, w->ea[E_FABRIC], f->name);
		set(e, w->ea[E_TIER], ir_link_tier_names[q->tier]);
		set_number(e, w->ea[E_PLANE], q->plane);
		set_number(e, w->ea[E_RAIL], q->rail);
		set_speed(e, w->ea[E_SPEED], q->speed);
		set_count(e, w->ea[E_COUNT], q->count);
		set_count(e, w->ea[E_XLABEL], q->count);
		if (!q->ranks)
			set(e, w->ea[E_CONSTRAINT], "false");
		set(e, w->ea[E_PENWIDTH], pen);
	}
	free(nodes);
	topology_groups_free(&tg);
}

/* ---- the graph --------------------------------------------------------------------------- */

/* cgraph keeps subgraphs ordered by their IDs, and its default ID of a named object is the
 * address of its interned name: with two fabrics, the order of the subgraphs in topology.dot
 * (and so the layout of topology.svg and report.html) followed the heap, and changed from run
 * to run. Graphs and subgraphs get IDs of ours instead, in creation order: odd, as cgraph's
 * anonymous IDs are (so it frees no string for them), and above any it hands out; `print`
 * gives their names back (interned in the graph: the writer reads flags before a string).
 * (Declining to map a name would make cgraph number it in its internal map, whose entries
 * agclose never frees.) Reset by close_graph. */
#define GRAPH_ID(i) (((IDTYPE)1 << 62) + 2 * (IDTYPE)(i) + 1)
static struct {
	char **names;
	int n, cap;
} graph_names;

static long graph_id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	if (objtype != AGRAPH || !str)
		return AgIdDisc.map(state, objtype, str, id, createflag);
	for (int i = 0; i < graph_names.n; i++)
		if (strcmp(graph_names.names[i], str) == 0) {
			*id = GRAPH_ID(i);
			return 1;
		}
	if (!createflag)
		return 0;
	if (graph_names.n == graph_names.cap) {
		graph_names.cap = graph_names.cap ? 2 * graph_names.cap : 8;
		graph_names.names = xrealloc(graph_names.names,
					     sizeof *graph_names.names * (size_t)graph_names.cap);
	}
	graph_names.names[graph_names.n] = agstrdup(state, str); /* a refstr, as the writer wants */
	*id = GRAPH_ID(graph_names.n++);
	return 1;
}

static char *graph_id_print(void *state, int objtype, IDTYPE id)
{
	if (objtype == AGRAPH && id >= GRAPH_ID(0) && (id - GRAPH_ID(0)) / 2 < (IDTYPE)graph_names.n)
		return graph_names.names[(id - GRAPH_ID(0)) / 2];
	return AgIdDisc.print(state, objtype, id);
}

static void close_graph(Agraph_t *g)
{
	agclose(g); /* and with it the strings of graph_names */
	free(graph_names.names);
	graph_names.names = NULL;
	graph_names.n = graph_names.cap = 0;
}

static Agraph_t *draw(Drawing *w)
{
	const Design *d = w->d;
	const char *name = d->cluster_name ? d->cluster_name : "cluster";
	static Agiddisc_t ids;
	static Agdisc_t disc;
	ids = AgIdDisc;
	ids.map = graph_id_map;
	ids.print = graph_id_print;
	disc = (Agdisc_t){&AgMemDisc, &ids, &AgIoDisc};
	Agraph_t *g = w->g = agopen((char *)name, Agundirected, &disc);
	for (int i = 0; i < N_COUNT_ATTRS; i++)
		w->na[i] = agattr(g, AGNODE, (char *)node_attrs[i][0], (char *)node_attrs[i][1]);
	for (int i = 0; i < E_COUNT_ATTRS; i++)
		w->ea[i] = agattr(g, AGEDGE, (char *)edge_attrs[i][0], (char *)edge_attrs[i][1]);
	for (int i = 0; i < G_COUNT_ATTRS; i++)
		w->ga[i] = agattr(g, AGRAPH, (char *)graph_attrs[i][0], (char *)graph_attrs[i][1]);
	set(g, w->ga[G_LABEL], name);
	w->host = xmalloc(sizeof *w->host * (size_t)(d->nnodes + 1));
	memset(w->host, 0, sizeof *w->host * (size_t)(d->nnodes + 1));
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->sized || !f->family || (f->links > 0 && !d->links))
			continue;
		Buf b = {0};
		buf_printf(&b, "cluster_%s", f->name);
		Agraph_t *sub = agsubg(g, b.s, 1);
		b.len = 0;
		buf_printf(&b, "fabric %s: %s", f->name, f->family->name);
		if (f->switches > 0 && f->switch_model)
			buf_printf(&b, ", %s", f->switch_model->name);
		set(sub, w->ga[G_LABEL], b.s);
		buf_free(&b);
		if (topology_devices(f) > DETAIL_MAX || f->links > DETAIL_LINKS) {
			set(sub, w->ga[G_AGGREGATED], "true");
			w->aggregated = true;
			draw_aggregated(w, sub, f);
		} else {
			draw_detailed(w, sub, f);
		}
	}
	free(w->host);
	w->host = NULL;
	if (w->aggregated)
		set(g, w->ga[G_AGGREGATED], "true");
	return g;
}

/* The plugins the SVG needs, linked in rather than loaded from Graphviz's configuration:
 * gvContext() would also load the pango text layout, which measures labels with the fonts
 * installed (so the SVG would change from machine to machine), starts threads and leaves
 * fontconfig's caches behind. Without it dot estimates text widths from built-in metrics. */
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
static const lt_symlist_t plugins[] = {
	{"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
	{"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
	{NULL, NULL},
};

/* Graphviz 2.43's dot leaks the virtual nodes and edges of the skeletons it builds for
 * cluster subgraphs (mincross.c, merge2; Graphviz issue #65), a few hundred bytes a layout.
 * Under AddressSanitizer, leaks of Graphviz's own allocations are not ours to report: those
 * made in dot's layout plugin and, since the default fast unwinder stops in Graphviz's
 * allocator (built without frame pointers), those made through it. Unwound in full
 * (ASAN_OPTIONS=fast_unwind_on_malloc=0), the first pattern alone leaves nothing to report. */
#if defined(__SANITIZE_ADDRESS__)
#define TOPOLOGY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOPOLOGY_ASAN 1
#endif
#endif
#ifdef TOPOLOGY_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvplugin_dot_layout.so\nleak:libgvc.so\n";
}
#endif

/* Graphviz's messages would interleave with clusterc's diagnostics; failures show in the
 * return codes instead. */
static int quiet(char *msg)
{
	(void)msg;
	return 0;
}

/* Lays g out with dot and appends the SVG to out. False when Graphviz cannot. */
static bool render_svg(Agraph_t *g, Buf *out)
{
	agusererrf old = agseterrf(quiet);
	GVC_t *gvc = gvContextPlugins(plugins, 0);
	char *data = NULL;
	unsigned int len = 0;
	bool laid = gvc && gvLayout(gvc, g, "dot") == 0;
	bool rendered = laid && gvRenderData(gvc, g, "svg", &data, &len) == 0 && data;
	if (rendered)
		buf_put(out, data, len);
	if (data)
		gvFreeRenderData(data);
	if (laid)
		gvFreeLayout(gvc, g);
	if (gvc)
		gvFreeContext(gvc);
	agseterrf(old);
	return rendered;
}

/* The drawing of g laid out, once per Output (output_memo). */
static bool svg_of(Output *o, Agraph_t *g, Buf *out)
{
	bool *ok, fresh;
	Buf *memo = output_memo(o, &ok, &fresh);
	if (fresh)
		*ok = render_svg(g, memo);
	if (*ok)
		buf_put(out, memo->s, memo->len);
	return *ok;
}

/* Writes topology.svg. A layout that fails gives a warning and no SVG, not a failed build:
 * the DOT file is the artifact that matters. Returns the number of errors. */
static int write_svg(Output *o, const Design *d, Agraph_t *g)
{
	Buf svg = {0};
	int errors = 0;
	if (svg_of(o, g, &svg)) {
		FILE *f = output_file(o, "topology.svg");
		if (f) {
			fwrite(svg.s, 1, svg.len, f);
			errors += output_close(o, f);
		} else {
			errors++;
		}
	} else {
		diag_warning(d->c, NOLOC, "topology.svg not written: Graphviz could not lay out "
					     "the fabric graph with dot");
	}
	buf_free(&svg);
	return errors;
}

bool topology_svg_render(Output *o, const Design *d, Buf *out)
{
	Drawing w = {.d = d};
	Agraph_t *g = draw(&w);
	bool rendered = w.nodes > 0 && w.nodes <= SVG_MAX && svg_of(o, g, out);
	close_graph(g);
	return rendered;
}

static int write_drawing(Output *o, const Design *d, bool dot, bool svg)
{
	if (!dot && !svg)
		return 0;
	Drawing w = {.d = d};
	Agraph_t *g = draw(&w);
	int errors = 0;
	if (dot) {
		FILE *f = output_file(o, "topology.dot");
		if (f) {
			agwrite(g, f);
			errors += output_close(o, f);
		} else {
			errors++;
		}
	}
	if (svg && !errors && w.nodes <= SVG_MAX)
		errors += write_svg(o, d, g);
	close_graph(g);
	return errors;
}

int topology_dot_write(Output *o, const Design *d)
{
	return write_drawing(o, d, true, false);
}

int topology_svg_write(Output *o, const Design *d)
{
	return write_drawing(o, d, false, true);
}
