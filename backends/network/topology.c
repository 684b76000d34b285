/*
 * topology.c — topology.svg, the fabric drawing, and topology.dot (PRODUCT §6): the scene
 * (topology_dot.c: what is drawn, and the DOT text written from it) laid out by Graphviz.
 * cgraph holds the scene's graph, gvc lays it out with dot and renders the SVG. The one file
 * that includes Graphviz's headers; it closes every graph and context it opens.
 *
 * The graph is made from the scene in its order (subgraphs, nodes, edges), so it is the graph
 * topology.dot describes, and the unit test checks that agwrite writes topology.dot's bytes
 * (topology_dot_agrees). The SVG is rendered only when the whole drawing has at most SVG_MAX
 * nodes, with dot's built-in text metrics rather than the fonts installed (see `plugins`); it
 * holds no date, only the Graphviz version in a comment. A larger drawing is not made at all:
 * the scene stops counting there (the 262,656-GPU dragonfly's groups took 0.4 s a drawing to
 * be found too large, for topology.svg and report.html each).
 */
#include "backends.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <graphviz/gvplugin.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SVG_MAX keeps the layout of the whole drawing within a second or so. */
enum { SVG_MAX = 400 };

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

static void set(void *obj, Agsym_t *sym, const TopologyScene *sc, int v)
{
	if (v >= 0)
		agxset(obj, sym, (char *)topology_scene_str(sc, v));
}

/* Graphviz's graph of the scene: subgraphs, nodes and edges created in the scene's order. */
static Agraph_t *graph_of(const TopologyScene *sc)
{
	static Agiddisc_t ids;
	static Agdisc_t disc;
	ids = AgIdDisc;
	ids.map = graph_id_map;
	ids.print = graph_id_print;
	disc = (Agdisc_t){&AgMemDisc, &ids, &AgIoDisc};
	Agraph_t *g = agopen((char *)topology_scene_str(sc, sc->name), Agundirected, &disc);
	Agsym_t *na[TOPO_N_ATTRS], *ea[TOPO_E_ATTRS], *ga[TOPO_G_ATTRS];
	for (int i = 0; i < TOPO_N_ATTRS; i++)
		na[i] = agattr(g, AGNODE, (char *)topology_node_attrs[i][0],
			       (char *)topology_node_attrs[i][1]);
	for (int i = 0; i < TOPO_E_ATTRS; i++)
		ea[i] = agattr(g, AGEDGE, (char *)topology_edge_attrs[i][0],
			       (char *)topology_edge_attrs[i][1]);
	for (int i = 0; i < TOPO_G_ATTRS; i++)
		ga[i] = agattr(g, AGRAPH, (char *)topology_graph_attrs[i][0],
			       (char *)topology_graph_attrs[i][1]);
	for (int i = 0; i < TOPO_G_ATTRS; i++)
		set(g, ga[i], sc, sc->graph_attr[i]);
	Agraph_t **subs = xmalloc(sizeof *subs * (size_t)(sc->nsubs + 1));
	for (int i = 0; i < sc->nsubs; i++) {
		subs[i] = agsubg(g, (char *)topology_scene_str(sc, sc->subs[i].name), 1);
		for (int k = 0; k < TOPO_G_ATTRS; k++)
			set(subs[i], ga[k], sc, sc->subs[i].attr[k]);
	}
	Agnode_t **nodes = xmalloc(sizeof *nodes * (size_t)(sc->nnodes + 1));
	for (int i = 0; i < sc->nnodes; i++) {
		nodes[i] = agnode(subs[sc->node_sub[i]],
				  (char *)topology_scene_str(sc, sc->node_name[i]), 1);
		for (int k = 0; k < TOPO_N_ATTRS; k++)
			set(nodes[i], na[k], sc, sc->node_attr[(size_t)i * TOPO_N_ATTRS + k]);
	}
	for (int i = 0; i < sc->nsubs; i++) /* nodes drawn again in a later subgraph */
		for (int k = 0; k < sc->subs[i].nnodes; k++)
			if (sc->node_sub[sc->subs[i].nodes[k]] != i)
				agsubnode(subs[i], nodes[sc->subs[i].nodes[k]], 1);
	for (int e = 0; e < sc->nedges; e++) {
		Agedge_t *x = agedge(g, nodes[sc->edge_ends[2 * e]], nodes[sc->edge_ends[2 * e + 1]],
				     NULL, 1);
		for (int k = 0; k < TOPO_E_ATTRS; k++)
			set(x, ea[k], sc, sc->edge_attr[(size_t)e * TOPO_E_ATTRS + k]);
	}
	free(nodes);
	free(subs);
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

/* The drawing of the scene laid out, once per Output (output_memo). */
static bool svg_of(Output *o, const TopologyScene *sc, Buf *out)
{
	bool *ok, fresh;
	Buf *memo = output_memo(o, &ok, &fresh);
	if (fresh) {
		Agraph_t *g = graph_of(sc);
		*ok = render_svg(g, memo);
		close_graph(g);
	}
	if (*ok)
		buf_put(out, memo->s, memo->len);
	return *ok;
}

bool topology_svg_render(Output *o, const Design *d, Buf *out)
{
	TopologyScene sc;
	bool small = topology_scene_build(&sc, d, SVG_MAX);
	bool rendered = small && sc.drawn > 0 && svg_of(o, &sc, out);
	topology_scene_free(&sc);
	return rendered;
}

/* Writes topology.svg when the drawing is small enough. A layout that fails gives a warning
 * and no SVG, not a failed build: the DOT file is the artifact that matters. Returns the
 * number of errors. */
int topology_svg_write(Output *o, const Design *d)
{
	TopologyScene sc;
	bool small = topology_scene_build(&sc, d, SVG_MAX);
	Buf svg = {0};
	int errors = 0;
	if (!small) {
		/* too large to lay out: no SVG */
	} else if (svg_of(o, &sc, &svg)) {
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
	topology_scene_free(&sc);
	return errors;
}

int topology_dot_write(Output *o, const Design *d)
{
	TopologyScene sc;
	topology_scene_build(&sc, d, INT_MAX);
	FILE *f = output_file(o, "topology.dot");
	int errors = 0;
	if (f) {
		Buf text = {0};
		topology_scene_dot(&sc, &text, f);
		buf_free(&text);
		errors += output_close(o, f);
	} else {
		errors++;
	}
	topology_scene_free(&sc);
	return errors;
}

/* ---- the unit test's checks against Graphviz ----------------------------------------------- */

bool topology_dot_canon_agrees(const char *s)
{
	Buf b = {0};
	topology_dot_canon(&b, s, strlen(s));
	bool same = strcmp(b.s, agcanonStr((char *)s)) == 0;
	buf_free(&b);
	return same;
}

bool topology_dot_agrees(const Design *d)
{
	TopologyScene sc;
	topology_scene_build(&sc, d, INT_MAX);
	Buf ours = {0};
	topology_scene_dot(&sc, &ours, NULL);
	char *theirs = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&theirs, &len);
	bool same = false;
	if (f) {
		Agraph_t *g = graph_of(&sc);
		agwrite(g, f);
		close_graph(g);
		fclose(f);
		same = len == ours.len && memcmp(theirs, ours.s, len) == 0;
	}
	free(theirs);
	buf_free(&ours);
	topology_scene_free(&sc);
	return same;
}
