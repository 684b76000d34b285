/*
 * test_k8s.c — the scheduler files reparsed with libyaml's parser (the reader of the library
 * that wrote them): designs built from the examples (the SuperPOD of one scalable unit, the
 * 100,000-GPU example with its NVL72 domains, a dragonfly), written by k8s_write and
 * slurm_write through an Output, then
 *  - k8s/node-labels.yaml: one document per node, each a bare Node (apiVersion, kind,
 *    metadata with only name and labels), its name the hostname, every label value a scalar of
 *    at most 63 characters, quoted whenever YAML would read it as a number or a boolean, its
 *    fabric tier-0 the leaf slurm/topology.conf puts it under, its accelerator domain when
 *    domains span several nodes;
 *  - k8s/kueue-topology.yaml: a kueue.x-k8s.io/v1beta2 Topology whose levels are the fabric's
 *    tiers from the broadest, the accelerator domain (NVL72 only) and kubernetes.io/hostname
 *    last; ResourceFlavors naming it in spec.topologyName and selecting nodes by a label the
 *    nodes carry;
 *  - slurm/topology.yaml: the "tree" topology (the cluster default) with Slurm's listed
 *    switches and the "block" topology with its sizes;
 *  - two writes of the same design are byte-identical;
 *  - node-labels.yaml, written directly, is the text libyaml's emitter makes of the same
 *    events through lang/yamlio.c (as k8s.c wrote it before), and k8s_scalar quotes as
 *    yw_str does (numbers, booleans, nulls, a digit or a dot first).
 */
#include "backends.h"
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

void suite_k8s(void);

/* ---- files ------------------------------------------------------------------------------------- */


static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return b.s ? b.s : calloc(1, 1);
}

/* ---- a design, written --------------------------------------------------------------------------- */

typedef struct Written {
	Program p;
	Design d;
	Arena *a;
	const SchedTree *t;
	const char *base, *out; /* the temporary directory and the output in it */
	bool ok;
} Written;

/* Builds an example and writes its scheduler files into a fresh directory. */
static void write_example(Written *w, const char *example, const char *scenario)
{
	memset(w, 0, sizeof *w);
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	w->p = (Program){.c = c, .dump = -1, .scenario = scenario};
	char path[512];
	snprintf(path, sizeof path, "%s/examples/%s", CLUSTERC_SOURCE_DIR, example);
	w->a = arena_new();
	w->ok = pipeline_build(&w->p, &w->d, path, NULL) == 0;
	CU_ASSERT_TRUE(w->ok);
	if (!w->ok)
		return;
	w->t = w->d.sched;
	CU_ASSERT_PTR_NOT_NULL_FATAL(w->t);
	w->base = unit_temp_dir(w->a, "k8s");
	w->out = arena_printf(w->a, "%s/out", w->base);
	Output *o = output_open(c, w->out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(k8s_write(o, &w->d), 0);
	CU_ASSERT_EQUAL(slurm_write(o, &w->d), 0);
	CU_ASSERT_EQUAL(output_commit(o), 0);
}

static void written_free(Written *w)
{
	if (w->base)
		unit_remove_tree(w->base);
	arena_free(w->a);
	ctx_free(w->p.c);
}

/* ---- reading YAML ------------------------------------------------------------------------------ */

typedef struct Docs {
	yaml_document_t *doc;
	int n, cap;
	bool ok;
} Docs;

/* Every document of a YAML file; ok is false when libyaml rejects it. */
static void load_docs(Docs *ds, const char *dir, const char *rel)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	memset(ds, 0, sizeof *ds);
	FILE *f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	ds->ok = true;
	for (;;) {
		if (ds->n == ds->cap) {
			ds->cap = ds->cap ? 2 * ds->cap : 16;
			ds->doc = realloc(ds->doc, sizeof *ds->doc * (size_t)ds->cap);
		}
		if (!yaml_parser_load(&p, &ds->doc[ds->n])) {
			fprintf(stderr, "\n%s: libyaml: %s at line %zu\n", rel, p.problem,
				p.problem_mark.line + 1);
			ds->ok = false;
			break;
		}
		if (!yaml_document_get_root_node(&ds->doc[ds->n])) {
			yaml_document_delete(&ds->doc[ds->n]);
			break;
		}
		ds->n++;
	}
	yaml_parser_delete(&p);
	fclose(f);
	CU_ASSERT_TRUE(ds->ok);
}

static void docs_free(Docs *ds)
{
	for (int i = 0; i < ds->n; i++)
		yaml_document_delete(&ds->doc[i]);
	free(ds->doc);
}

static yaml_node_t *root(yaml_document_t *d)
{
	return yaml_document_get_root_node(d);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int map_size(const yaml_node_t *m)
{
	return m && m->type == YAML_MAPPING_NODE ? (int)(m->data.mapping.pairs.top - m->data.mapping.pairs.start)
						 : -1;
}

static yaml_node_t *get(yaml_document_t *d, const yaml_node_t *m, const char *key)
{
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(d, p->key));
		if (k && !strcmp(k, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *get_str(yaml_document_t *d, const yaml_node_t *m, const char *key)
{
	return scalar(get(d, m, key));
}

static int seq_size(const yaml_node_t *s)
{
	return s && s->type == YAML_SEQUENCE_NODE ? (int)(s->data.sequence.items.top - s->data.sequence.items.start)
						  : -1;
}

static yaml_node_t *item(yaml_document_t *d, const yaml_node_t *s, int i)
{
	return yaml_document_get_node(d, s->data.sequence.items.start[i]);
}

/* A plain scalar YAML 1.1 could read as a number, a boolean or null. */
static bool plain_but_typed(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false",
					    "null", "~", ""};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	return strchr("0123456789+-.", *s) != NULL;
}

/* ---- the checks -------------------------------------------------------------------------------- */

static void check_labels(Written *w)
{
	Docs ds;
	load_docs(&ds, w->out, "k8s/node-labels.yaml");
	CU_ASSERT_EQUAL(ds.n, w->d.nnodes);
	char key[64];
	int bad = 0;
	for (int n = 0; n < ds.n && n < w->d.nnodes && bad < 3; n++) {
		yaml_document_t *d = &ds.doc[n];
		yaml_node_t *r = root(d), *meta = get(d, r, "metadata"), *labels = get(d, meta, "labels");
		bool ok = map_size(r) == 3 && map_size(meta) == 2 && labels &&
			  !strcmp(get_str(d, r, "apiVersion") ? get_str(d, r, "apiVersion") : "", "v1") &&
			  !strcmp(get_str(d, r, "kind") ? get_str(d, r, "kind") : "", "Node");
		const char *name = get_str(d, meta, "name");
		ok = ok && name && !strcasecmp(name, w->d.nodes[n].hostname);
		for (yaml_node_pair_t *p = labels ? labels->data.mapping.pairs.start : NULL;
		     ok && p < labels->data.mapping.pairs.top; p++) {
			yaml_node_t *v = yaml_document_get_node(d, p->value);
			ok = scalar(v) && strlen(scalar(v)) <= 63 && !plain_but_typed(v);
		}
		const char *leaf = get_str(d, labels, "fabric.topograph.run/tier-0");
		ok = ok && leaf && !strcmp(leaf, w->t->sw[w->t->leaf[n]].name);
		for (int k = 1; ok && k < w->t->tiers; k++) {
			snprintf(key, sizeof key, "fabric.topograph.run/tier-%d", k);
			const SchedSwitch *s = sched_ancestor(w->t, n, k);
			const char *v = get_str(d, labels, key);
			ok = s ? v && !strcmp(v, s->name) : !v;
		}
		const char *dom = get_str(d, labels, "accelerator.topograph.run/domain");
		ok = ok && (w->t->multi_node_domains ? dom && !strcmp(dom, w->d.domain_names[w->d.nodes[n].domain]) : !dom);
		ok = ok && get_str(d, labels, "topology.kubernetes.io/region") &&
		     get_str(d, labels, "topology.kubernetes.io/zone") &&
		     get_str(d, labels, "node.kubernetes.io/instance-type");
		if (!ok) {
			fprintf(stderr, "\nnode-labels.yaml: document %d (%s) is not as expected\n", n + 1,
				name ? name : "?");
			bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	docs_free(&ds);
}

static void check_kueue(Written *w)
{
	Docs ds;
	load_docs(&ds, w->out, "k8s/kueue-topology.yaml");
	CU_ASSERT_FATAL(ds.n >= 2);
	yaml_document_t *d = &ds.doc[0];
	yaml_node_t *r = root(d);
	CU_ASSERT_STRING_EQUAL(get_str(d, r, "apiVersion"), "kueue.x-k8s.io/v1beta2");
	CU_ASSERT_STRING_EQUAL(get_str(d, r, "kind"), "Topology");
	const char *topo = get_str(d, get(d, r, "metadata"), "name");
	CU_ASSERT_PTR_NOT_NULL_FATAL(topo);
	yaml_node_t *levels = get(d, get(d, r, "spec"), "levels");
	int nl = seq_size(levels), kept = 0;
	for (int i = 0; i < w->t->nlevel; i++)
		kept += w->t->level[i].kept;
	CU_ASSERT_EQUAL(w->t->nlevel, w->t->tiers + (w->t->multi_node_domains ? 1 : 0));
	CU_ASSERT_EQUAL_FATAL(nl, kept + 1);
	/* The kept levels in order, broadest first, then the hostname. */
	char key[64];
	for (int i = 0, l = 0; i < nl; i++, l++) {
		const char *label = get_str(d, item(d, levels, i), "nodeLabel");
		CU_ASSERT_PTR_NOT_NULL_FATAL(label);
		while (l < w->t->nlevel && !w->t->level[l].kept)
			l++;
		if (l == w->t->nlevel) {
			CU_ASSERT_STRING_EQUAL(label, "kubernetes.io/hostname");
		} else if (w->t->level[l].tier < 0) {
			CU_ASSERT_STRING_EQUAL(label, "accelerator.topograph.run/domain");
		} else {
			snprintf(key, sizeof key, "fabric.topograph.run/tier-%d", w->t->level[l].tier);
			CU_ASSERT_STRING_EQUAL(label, key);
		}
	}
	for (int k = 1; k < ds.n; k++) {
		yaml_document_t *f = &ds.doc[k];
		yaml_node_t *fr = root(f), *spec = get(f, fr, "spec");
		CU_ASSERT_STRING_EQUAL(get_str(f, fr, "kind"), "ResourceFlavor");
		CU_ASSERT_STRING_EQUAL(get_str(f, fr, "apiVersion"), "kueue.x-k8s.io/v1beta2");
		CU_ASSERT_STRING_EQUAL(get_str(f, spec, "topologyName"), topo);
		const char *type = get_str(f, get(f, spec, "nodeLabels"), "node.kubernetes.io/instance-type");
		CU_ASSERT_PTR_NOT_NULL_FATAL(type);
		bool selects = false;
		for (int n = 0; n < w->d.nnodes && !selects; n++)
			selects = !strcmp(w->d.nodes[n].type->name, type);
		CU_ASSERT_TRUE(selects);
	}
	docs_free(&ds);
}

static void check_slurm_yaml(Written *w)
{
	Docs ds;
	load_docs(&ds, w->out, "slurm/topology.yaml");
	CU_ASSERT_EQUAL_FATAL(ds.n, 1);
	yaml_document_t *d = &ds.doc[0];
	yaml_node_t *r = root(d);
	CU_ASSERT_EQUAL_FATAL(seq_size(r), 2);
	yaml_node_t *tree = item(d, r, 0), *block = item(d, r, 1);
	CU_ASSERT_STRING_EQUAL(get_str(d, tree, "topology"), "tree");
	CU_ASSERT_STRING_EQUAL(get_str(d, tree, "cluster_default"), "true");
	CU_ASSERT_STRING_EQUAL(get_str(d, block, "topology"), "block");
	CU_ASSERT_STRING_EQUAL(get_str(d, block, "cluster_default"), "false");
	int listed = 0;
	for (int s = 0; s < w->t->nsw; s++)
		listed += !w->t->sw[s].omitted;
	yaml_node_t *sw = get(d, get(d, tree, "tree"), "switches");
	CU_ASSERT_EQUAL(seq_size(sw), listed);
	yaml_node_t *sizes = get(d, get(d, block, "block"), "block_sizes");
	CU_ASSERT_EQUAL(seq_size(sizes), w->t->block_levels);
	yaml_node_t *blocks = get(d, get(d, block, "block"), "blocks");
	CU_ASSERT_EQUAL(seq_size(blocks), w->t->nblock - w->t->blocks_joined);
	docs_free(&ds);
}

/* The events of node-labels.yaml's documents through libyaml (yamlio.c), with the values
 * read back from the file: the text must be the file's, comments aside. */
static void check_labels_libyaml(Written *w)
{
	char path[256];
	snprintf(path, sizeof path, "%s/k8s/node-labels.yaml", w->out);
	size_t n = 0;
	char *text = slurp(path, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *docs = strstr(text, "\n---\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(docs);
	docs++;
	Docs ds;
	load_docs(&ds, w->out, "k8s/node-labels.yaml");
	char *made = NULL;
	size_t nmade = 0;
	FILE *f = open_memstream(&made, &nmade);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	Yw *y = yw_open(w->p.c, f);
	for (int k = 0; k < ds.n; k++) {
		yaml_document_t *d = &ds.doc[k];
		yaml_node_t *r = root(d);
		yw_doc(y);
		yw_map(y);
		yw_pair(y, "apiVersion", get_str(d, r, "apiVersion"));
		yw_pair(y, "kind", get_str(d, r, "kind"));
		yw_str(y, "metadata");
		yw_map(y);
		yaml_node_t *md = get(d, r, "metadata");
		yw_pair(y, "name", get_str(d, md, "name"));
		yw_str(y, "labels");
		yw_map(y);
		yaml_node_t *labels = get(d, md, "labels");
		for (yaml_node_pair_t *p = labels->data.mapping.pairs.start;
		     p < labels->data.mapping.pairs.top; p++)
			yw_pair(y, (const char *)yaml_document_get_node(d, p->key)->data.scalar.value,
				(const char *)yaml_document_get_node(d, p->value)->data.scalar.value);
		yw_map_end(y);
		yw_map_end(y);
		yw_map_end(y);
		yw_doc_end(y);
	}
	CU_ASSERT_TRUE(yw_close(y));
	fclose(f);
	CU_ASSERT_EQUAL(nmade, (size_t)(text + n - docs));
	CU_ASSERT_TRUE(nmade == (size_t)(text + n - docs) && memcmp(made, docs, nmade) == 0);
	free(made);
	docs_free(&ds);
	free(text);
}

/* k8s_scalar against libyaml, one pair a document. */
static void test_scalar(void)
{
	static const char *const values[] = {
		"gpu0001", "0gpu", "1234", "1e3", "0x1f", "true", "True", "y", "N", "null", "Null",
		"off", "on", "yes", "no", "x", "a.b-c_d", ".hidden", "-lead", "_under", "row-A",
		"compute-leaf-0001", "b.c/d", "inf", ".inf", "nan", "1.5", "A", "tilde", "~"};
	Ctx *c = ctx_new((DiagOptions){0});
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		char *made = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&made, &n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		Yw *y = yw_open(c, f);
		yw_doc(y);
		yw_map(y);
		yw_pair(y, "topology.kubernetes.io/zone", values[i]);
		yw_map_end(y);
		yw_doc_end(y);
		CU_ASSERT_TRUE(yw_close(y));
		fclose(f);
		Buf b = {0};
		buf_puts(&b, "---\n");
		k8s_scalar(&b, "topology.kubernetes.io/zone");
		buf_puts(&b, ": ");
		k8s_scalar(&b, values[i]);
		buf_putc(&b, '\n');
		CU_ASSERT_STRING_EQUAL(b.s, made);
		buf_free(&b);
		free(made);
	}
	ctx_free(c);
}

/* The same design written again gives the same bytes. */
static void check_again(Written *w)
{
	char again[128];
	snprintf(again, sizeof again, "%s/again", w->base);
	Output *o = output_open(w->p.c, again, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(k8s_write(o, &w->d), 0);
	CU_ASSERT_EQUAL(slurm_write(o, &w->d), 0);
	CU_ASSERT_EQUAL(output_commit(o), 0);
	static const char *const files[] = {"k8s/node-labels.yaml", "k8s/kueue-topology.yaml",
					    "slurm/topology.conf", "slurm/topology-block.conf",
					    "slurm/topology.yaml"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char p1[256], p2[256];
		snprintf(p1, sizeof p1, "%s/%s", w->out, files[i]);
		snprintf(p2, sizeof p2, "%s/%s", again, files[i]);
		size_t n1 = 0, n2 = 0;
		char *a = slurp(p1, &n1), *b = slurp(p2, &n2);
		CU_ASSERT_TRUE(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
		free(a);
		free(b);
	}
}

static void check_example(const char *example, const char *scenario, bool multi_node_domains)
{
	Written w;
	write_example(&w, example, scenario);
	if (w.ok) {
		CU_ASSERT_EQUAL(w.t->multi_node_domains, multi_node_domains);
		check_labels(&w);
		check_labels_libyaml(&w);
		check_kueue(&w);
		check_slurm_yaml(&w);
		check_again(&w);
	}
	written_free(&w);
}

static void test_superpod(void)
{
	check_example("dgx-h100-superpod.cluster", "su1", false);
}

static void test_nvl72(void)
{
	if (unit_sanitized())
		return;
	check_example("scale-100k.cluster", NULL, true);
}

static void test_dragonfly(void)
{
	check_example("dragonfly-1k.cluster", NULL, false);
}

void suite_k8s(void)
{
	CU_pSuite s = CU_add_suite("k8s", NULL, NULL);
	CU_add_test(s, "SuperPOD: labels, Kueue, topology.yaml", test_superpod);
	CU_add_test(s, "NVL72: the accelerator domain level", test_nvl72);
	CU_add_test(s, "dragonfly: groups as a tier", test_dragonfly);
	CU_add_test(s, "scalars quoted as libyaml's emitter quotes them", test_scalar);
}
