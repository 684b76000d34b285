/*
 * k8s.c — the scheduler topology files for Kubernetes (PRODUCT §6), through the YAML writer
 * of lang/yamlio.c.
 *
 *  - k8s/node-labels.yaml: a stream of Node objects, one per document, each with only
 *    metadata.name (the hostname, lower-cased as the kubelet registers it) and
 *    metadata.labels, for `kubectl apply --server-side --field-manager=clusterc -f`:
 *    server-side apply merges the labels into the existing Nodes and owns only those.
 *    Labels:
 *      topology.kubernetes.io/region  the site
 *      topology.kubernetes.io/zone    the row of racks ("SITE-row-A")
 *        (well-known labels: https://kubernetes.io/docs/reference/labels-annotations-taints/)
 *      node.kubernetes.io/instance-type  the node model (the ResourceFlavors select on it)
 *      fabric.topograph.run/tier-N    the node's switch N tiers up slurm/topology.conf's tree
 *                                     (tier 0: its leaf), by name; not without a fabric
 *      accelerator.topograph.run/domain  its scale-up (NVLink) domain, when domains span
 *                                     several nodes
 *    The fabric and accelerator keys are NVIDIA Topograph's scheme since v1.0.0
 *    (NVIDIA/topograph docs/engines/k8s.md, and CHANGELOG v1.0.0: "Fabric topology now uses
 *    variable, closest-first tiers labeled fabric.topograph.run/tier-N, while accelerator
 *    topology uses accelerator.topograph.run/domain"), which replaced the fixed
 *    network.topology.nvidia.com/{leaf,spine,core,accelerator} keys.
 *  - k8s/kueue-topology.yaml: a Kueue kueue.x-k8s.io/v1beta2 Topology whose levels go from the
 *    broadest tier to the narrowest, then the accelerator domain and kubernetes.io/hostname
 *    (which Kueue allows only last): the levels the sched pass kept because they nest, with a
 *    comment naming each one it dropped and why, and one ResourceFlavor per node model that selects its
 *    nodes by instance type and names the Topology in spec.topologyName (Kueue's
 *    apis/kueue/v1beta2 topology_types.go and resourceflavor_types.go; "Topology Aware
 *    Scheduling" in Kueue's documentation).
 *
 * Deterministic: nodes in node order, labels and levels in a fixed order, flavors in the order
 * of the first node of each model. Scalars are plain when YAML reads them as strings, else
 * double-quoted; no line folding.
 *
 * node-labels.yaml is one document per node (32,832 on the 262k dragonfly), so it is written
 * directly, as the text libyaml's emitter made of the same events through yamlio.c (block
 * style, indent 2, "---" before each document, quoting by yw_plain): its scalars are label
 * values and object names, which hold nothing a double-quoted scalar escapes, and the keys
 * are ours (tests/unit/test_k8s.c compares the two). The few documents of
 * kueue-topology.yaml still go through libyaml.
 */
#include "backends.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define TIER_LABEL "fabric.topograph.run/tier-"
#define DOMAIN_LABEL "accelerator.topograph.run/domain"
#define KUEUE_API "kueue.x-k8s.io/v1beta2"

/* A Kubernetes label value: at most 63 characters of letters, digits, '-', '_' and '.',
 * beginning and ending with a letter or digit; others become '-'. */
static const char *label_value(Arena *a, const char *s)
{
	size_t n = strlen(s);
	char *v = arena_strndup(a, s, n > 63 ? 63 : n);
	for (char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.", *p))
			*p = '-';
	while (*v && !isalnum((unsigned char)*v))
		v++;
	for (size_t k = strlen(v); k > 0 && !isalnum((unsigned char)v[k - 1]); k--)
		v[k - 1] = 0;
	return *v ? v : "x";
}

/* An object name (DNS subdomain): lower case letters, digits, '-' and '.'. */
static const char *object_name(Arena *a, const char *s)
{
	char *v = arena_strdup(a, s);
	for (char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		*p = isalnum(c) || c == '.' ? (char)tolower(c) : '-';
	}
	while (*v == '-' || *v == '.')
		v++;
	for (size_t k = strlen(v); k > 0 && (v[k - 1] == '-' || v[k - 1] == '.'); k--)
		v[k - 1] = 0;
	return *v ? v : "x";
}

/* A scalar as yw_str writes it: plain, or double-quoted (s holds no '"', '\\' or control
 * character: label values and object names, our keys). */
void k8s_scalar(Buf *b, const char *s)
{
	if (yw_plain(s)) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	buf_puts(b, s);
	buf_putc(b, '"');
}

/* The text "BEFORE" k8s_scalar(s) "AFTER", kept in a: a label value written for a run of nodes
 * (nothing around it), or "INDENTkey: " of a line "INDENTkey: value\n", a key written on every
 * node. */
static const char *kept_text(Arena *a, const char *before, const char *s, const char *after)
{
	Buf b = {0};
	buf_puts(&b, before);
	k8s_scalar(&b, s);
	buf_puts(&b, after);
	const char *v = arena_strndup(a, b.s, b.len);
	buf_free(&b);
	return v;
}

static const char *scalar_text(Arena *a, const char *s)
{
	return kept_text(a, "", s, "");
}

static const char *key_text(Arena *a, const char *indent, const char *key)
{
	return kept_text(a, indent, key, ": ");
}

/* "INDENTkey: value\n" from the kept texts of its key and value (key_text, scalar_text): the
 * keys and most values are the same node after node, and two plain_ok scans a line were most
 * of node-labels.yaml's 98 M instructions at k = 64 (docs/performance.md, "Stages before emit
 * and switch writer, thirteenth session"). */
static void kept_pair(Buf *b, const char *key, const char *value)
{
	buf_puts(b, key);
	buf_puts(b, value);
	buf_putc(b, '\n');
}

static int write_labels(Output *o, const Design *d, const SchedTree *t, Arena *a)
{
	FILE *f = output_file(o, "k8s/node-labels.yaml");
	if (!f)
		return 1;
	fprintf(f, "# k8s/node-labels.yaml: topology labels of every node of cluster %s, written "
		   "by clusterc.\n", d->cluster_name);
	fputs("# One Node object per document, with only metadata.name and metadata.labels; "
	      "apply with\n"
	      "#   kubectl apply --server-side --field-manager=clusterc -f node-labels.yaml\n"
	      "# which merges these labels into the Nodes and owns only them.\n"
	      "# topology.kubernetes.io/region: the site; topology.kubernetes.io/zone: the row of "
	      "racks;\n"
	      "# node.kubernetes.io/instance-type: the node model\n"
	      "# (https://kubernetes.io/docs/reference/labels-annotations-taints/).\n", f);
	if (t->label_tiers)
		fputs("# " TIER_LABEL "N: the node's switch N tiers up the tree of "
		      "slurm/topology.conf (0: its\n"
		      "# leaf), in NVIDIA Topograph's label scheme since v1.0.0\n"
		      "# (https://github.com/NVIDIA/topograph, docs/engines/k8s.md).\n", f);
	if (t->multi_node_domains)
		fputs("# " DOMAIN_LABEL ": the node's scale-up (NVLink) domain.\n", f);
	char row[16];
	const char *region = scalar_text(a, label_value(a, d->site_name));
	const char *k_name = key_text(a, "  ", "name");
	const char *k_region = key_text(a, "    ", "topology.kubernetes.io/region");
	const char *k_zone = key_text(a, "    ", "topology.kubernetes.io/zone");
	const char *k_type = key_text(a, "    ", "node.kubernetes.io/instance-type");
	const char *k_domain = key_text(a, "    ", DOMAIN_LABEL);
	/* Neighbouring nodes share their row, model and switches: their label values are made
	 * once for each run of them. */
	int last_row = -1;
	const Part *last_type = NULL;
	const char *zone = NULL, *type = NULL;
	const SchedSwitch **last_sw = xmalloc(sizeof *last_sw * (size_t)(t->label_tiers + 1));
	const char **sw_value = xmalloc(sizeof *sw_value * (size_t)(t->label_tiers + 1));
	const char **tier = xmalloc(sizeof *tier * (size_t)(t->label_tiers + 1));
	for (int k = 0; k < t->label_tiers; k++)
		last_sw[k] = NULL, sw_value[k] = NULL,
		tier[k] = key_text(a, "    ", arena_printf(a, TIER_LABEL "%d", k));
	Buf b = {0};
	for (int n = 0; n < d->nnodes; n++) {
		const NodeInst *ni = &d->nodes[n];
		buf_puts(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n");
		buf_puts(&b, k_name);
		k8s_scalar(&b, object_name(a, ni->hostname));
		buf_putc(&b, '\n');
		buf_puts(&b, "  labels:\n");
		kept_pair(&b, k_region, region);
		int r = d->racks[ni->rack].row;
		if (r != last_row || !zone) {
			ir_row_name(r, row, sizeof row);
			zone = scalar_text(a, label_value(a, arena_printf(a, "%s-row-%s",
									  d->site_name, row)));
			last_row = r;
		}
		kept_pair(&b, k_zone, zone);
		if (ni->type != last_type || !type) {
			type = scalar_text(a, label_value(a, ni->type->name));
			last_type = ni->type;
		}
		kept_pair(&b, k_type, type);
		for (int k = 0; k < t->label_tiers; k++) {
			const SchedSwitch *s = sched_ancestor(t, n, k);
			if (!s)
				continue;
			if (s != last_sw[k] || !sw_value[k]) {
				sw_value[k] = scalar_text(a, label_value(a, s->name));
				last_sw[k] = s;
			}
			kept_pair(&b, tier[k], sw_value[k]);
		}
		if (t->multi_node_domains) {
			buf_puts(&b, k_domain);
			k8s_scalar(&b, label_value(a, d->domain_names[ni->domain]));
			buf_putc(&b, '\n');
		}
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	free(last_sw);
	free(sw_value);
	free(tier);
	return output_close(o, f);
}

/* The node label of a level: fabric.topograph.run/tier-N or the accelerator domain. */
static const char *level_label(const SchedLevel *l, Arena *a)
{
	return l->tier < 0 ? DOMAIN_LABEL : arena_printf(a, TIER_LABEL "%d", l->tier);
}

static int write_kueue(Output *o, const Design *d, const SchedTree *t, Arena *a)
{
	FILE *f = output_file(o, "k8s/kueue-topology.yaml");
	if (!f)
		return 1;
	const char *topo = object_name(a, d->cluster_name);
	fprintf(f, "# k8s/kueue-topology.yaml: Kueue Topology Aware Scheduling for cluster %s,\n"
		   "# written by clusterc.\n", d->cluster_name);
	fputs("# A " KUEUE_API " Topology, its levels from the broadest to the narrowest over the "
	      "labels\n"
	      "# of node-labels.yaml, and a ResourceFlavor per node model naming it in "
	      "spec.topologyName\n"
	      "# (https://kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling/). Needs Kueue "
	      "serving\n# " KUEUE_API ".\n", f);
	bool dropped = false;
	for (int i = 0; i < t->nlevel; i++)
		if (!t->level[i].kept) {
			if (!dropped)
				fputs("# Not levels, for Kueue's levels must nest (every value of a level "
				      "inside one value of\n# each broader level); their labels stay on "
				      "the nodes:\n", f);
			dropped = true;
			const SchedLevel *l = &t->level[i];
			fprintf(f, "#   %s splits %d of the %d %s values\n", level_label(l, a), l->split,
				l->of, level_label(&t->level[l->narrower], a));
		}
	Yw *y = yw_open(d->c, f);
	yw_doc(y);
	yw_map(y);
	yw_pair(y, "apiVersion", KUEUE_API);
	yw_pair(y, "kind", "Topology");
	yw_str(y, "metadata");
	yw_map(y);
	yw_pair(y, "name", topo);
	yw_map_end(y);
	yw_str(y, "spec");
	yw_map(y);
	yw_str(y, "levels");
	yw_seq(y);
	for (int i = 0; i < t->nlevel; i++) {
		if (!t->level[i].kept)
			continue;
		yw_map(y);
		yw_pair(y, "nodeLabel", level_label(&t->level[i], a));
		yw_map_end(y);
	}
	yw_map(y);
	yw_pair(y, "nodeLabel", "kubernetes.io/hostname");
	yw_map_end(y);
	yw_seq_end(y);
	yw_map_end(y);
	yw_map_end(y);
	yw_doc_end(y);
	/* A flavor per node model, in the order of their first node (groups are in node order). */
	for (int g = 0; g < d->ngroups && yw_ok(y); g++) {
		const Part *type = d->groups[g].type;
		bool first = d->groups[g].count > 0;
		for (int h = 0; h < g && first; h++)
			first = d->groups[h].count == 0 || d->groups[h].type != type;
		if (!first)
			continue;
		yw_doc(y);
		yw_map(y);
		yw_pair(y, "apiVersion", KUEUE_API);
		yw_pair(y, "kind", "ResourceFlavor");
		yw_str(y, "metadata");
		yw_map(y);
		const char *flavor = arena_printf(a, "%s-%s", d->cluster_name, type->name);
		yw_pair(y, "name", object_name(a, flavor));
		yw_map_end(y);
		yw_str(y, "spec");
		yw_map(y);
		yw_str(y, "nodeLabels");
		yw_map(y);
		yw_pair(y, "node.kubernetes.io/instance-type", label_value(a, type->name));
		yw_map_end(y);
		yw_pair(y, "topologyName", topo);
		yw_map_end(y);
		yw_map_end(y);
		yw_doc_end(y);
	}
	int errors = !yw_close(y);
	return errors + output_close(o, f);
}

int k8s_write(Output *o, const Design *d)
{
	const SchedTree *t = d->sched;
	if (!d->elaborated || d->nnodes == 0 || !t)
		return 0;
	Arena *a = arena_new(); /* label values and names while writing */
	int errors = write_labels(o, d, t, a);
	errors += write_kueue(o, d, t, a);
	arena_free(a);
	return errors;
}
