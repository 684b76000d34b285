/*
 * k8s.c — the scheduler topology files for Kubernetes (PRODUCT §6), through libyaml's emitter:
 * the one file that includes <yaml.h>; it deletes every emitter and event it creates.
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
 */
#include "backends.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#define TIER_LABEL "fabric.topograph.run/tier-"
#define DOMAIN_LABEL "accelerator.topograph.run/domain"
#define KUEUE_API "kueue.x-k8s.io/v1beta2"

typedef struct Yaml {
	yaml_emitter_t e;
	const Design *d;
	bool ok;
} Yaml;

static void y_event(Yaml *y, yaml_event_t *ev, int made)
{
	if (!made) {
		if (y->ok)
			diag_error(y->d->c, NOLOC, "internal error: libyaml: no event");
		y->ok = false;
		return;
	}
	if (!y->ok) {
		yaml_event_delete(ev);
		return;
	}
	/* The emitter takes the event, and deletes it even when it fails. */
	if (!yaml_emitter_emit(&y->e, ev)) {
		y->ok = false;
		diag_error(y->d->c, NOLOC, "internal error: libyaml: %s",
			   y->e.problem ? y->e.problem : "cannot emit");
	}
}

/* Plain when YAML 1.1 and 1.2 read it as a string: a letter first, then letters, digits and
 * '-', '_', '.', '/', and no boolean or null word. */
static bool plain_ok(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_./", *p))
			return false;
	static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false",
					    "null"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcasecmp(s, words[i]))
			return false;
	return true;
}

static void y_str(Yaml *y, const char *s)
{
	yaml_event_t ev;
	yaml_scalar_style_t style = plain_ok(s) ? YAML_PLAIN_SCALAR_STYLE
						: YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	int made = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
						1, 1, style);
	y_event(y, &ev, made);
}

static void y_map(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev,
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

static void y_map_end(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

static void y_seq(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							      YAML_BLOCK_SEQUENCE_STYLE));
}

static void y_seq_end(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void y_doc(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
}

static void y_doc_end(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_document_end_event_initialize(&ev, 1));
}

static void y_pair(Yaml *y, const char *key, const char *value)
{
	y_str(y, key);
	y_str(y, value);
}

/* Starts a stream on f, after the comment lines already written to it. */
static void y_open(Yaml *y, const Design *d, FILE *f)
{
	y->d = d;
	y->ok = yaml_emitter_initialize(&y->e) != 0;
	if (!y->ok)
		return;
	yaml_emitter_set_output_file(&y->e, f);
	yaml_emitter_set_indent(&y->e, 2);
	yaml_emitter_set_width(&y->e, -1); /* never fold a line */
	yaml_emitter_set_break(&y->e, YAML_LN_BREAK);
	yaml_event_t ev;
	y_event(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
}

/* Ends the stream and deletes the emitter; false after a diagnostic. */
static bool y_close(Yaml *y)
{
	yaml_event_t ev;
	y_event(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (y->ok && !yaml_emitter_flush(&y->e))
		y->ok = false;
	yaml_emitter_delete(&y->e);
	return y->ok;
}

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
	Yaml y;
	y_open(&y, d, f);
	char tier[sizeof TIER_LABEL + 12], row[16];
	const char *region = label_value(a, d->site_name);
	for (int n = 0; n < d->nnodes && y.ok; n++) {
		const NodeInst *ni = &d->nodes[n];
		y_doc(&y);
		y_map(&y);
		y_pair(&y, "apiVersion", "v1");
		y_pair(&y, "kind", "Node");
		y_str(&y, "metadata");
		y_map(&y);
		y_pair(&y, "name", object_name(a, ni->hostname));
		y_str(&y, "labels");
		y_map(&y);
		y_pair(&y, "topology.kubernetes.io/region", region);
		ir_row_name(d->racks[ni->rack].row, row, sizeof row);
		y_pair(&y, "topology.kubernetes.io/zone",
		       label_value(a, arena_printf(a, "%s-row-%s", d->site_name, row)));
		y_pair(&y, "node.kubernetes.io/instance-type", label_value(a, ni->type->name));
		for (int k = 0; k < t->label_tiers; k++) {
			const SchedSwitch *s = sched_ancestor(t, n, k);
			if (!s)
				continue;
			snprintf(tier, sizeof tier, TIER_LABEL "%d", k);
			y_pair(&y, tier, label_value(a, s->name));
		}
		if (t->multi_node_domains)
			y_pair(&y, DOMAIN_LABEL, label_value(a, d->domain_names[ni->domain]));
		y_map_end(&y);
		y_map_end(&y);
		y_map_end(&y);
		y_doc_end(&y);
	}
	int errors = !y_close(&y);
	return errors + output_close(o, f);
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
	Yaml y;
	y_open(&y, d, f);
	y_doc(&y);
	y_map(&y);
	y_pair(&y, "apiVersion", KUEUE_API);
	y_pair(&y, "kind", "Topology");
	y_str(&y, "metadata");
	y_map(&y);
	y_pair(&y, "name", topo);
	y_map_end(&y);
	y_str(&y, "spec");
	y_map(&y);
	y_str(&y, "levels");
	y_seq(&y);
	for (int i = 0; i < t->nlevel; i++) {
		if (!t->level[i].kept)
			continue;
		y_map(&y);
		y_pair(&y, "nodeLabel", level_label(&t->level[i], a));
		y_map_end(&y);
	}
	y_map(&y);
	y_pair(&y, "nodeLabel", "kubernetes.io/hostname");
	y_map_end(&y);
	y_seq_end(&y);
	y_map_end(&y);
	y_map_end(&y);
	y_doc_end(&y);
	/* A flavor per node model, in the order of their first node (groups are in node order). */
	for (int g = 0; g < d->ngroups && y.ok; g++) {
		const Part *type = d->groups[g].type;
		bool first = d->groups[g].count > 0;
		for (int h = 0; h < g && first; h++)
			first = d->groups[h].count == 0 || d->groups[h].type != type;
		if (!first)
			continue;
		y_doc(&y);
		y_map(&y);
		y_pair(&y, "apiVersion", KUEUE_API);
		y_pair(&y, "kind", "ResourceFlavor");
		y_str(&y, "metadata");
		y_map(&y);
		const char *flavor = arena_printf(a, "%s-%s", d->cluster_name, type->name);
		y_pair(&y, "name", object_name(a, flavor));
		y_map_end(&y);
		y_str(&y, "spec");
		y_map(&y);
		y_str(&y, "nodeLabels");
		y_map(&y);
		y_pair(&y, "node.kubernetes.io/instance-type", label_value(a, type->name));
		y_map_end(&y);
		y_pair(&y, "topologyName", topo);
		y_map_end(&y);
		y_map_end(&y);
		y_doc_end(&y);
	}
	int errors = !y_close(&y);
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
