/*
 * slurm.c — the scheduler topology files for Slurm (PRODUCT §6): the tree and blocks of the
 * sched pass (passes/fabric/sched.c, Design.sched), rendered; docs/schedulers.md gives the
 * mapping.
 *
 *  - slurm/topology.conf: topology/tree, one line per switch, "SwitchName=NAME Nodes=HOSTLIST"
 *    for leaves and "SwitchName=NAME Switches=HOSTLIST" above them, with "LinkSpeed=N" (Slurm
 *    calls it a relative number in arbitrary units; we write the link speed in Gb/s). Format:
 *    topology.conf(5), section "topology/tree" (https://slurm.schedmd.com/topology.conf.html).
 *    Loads in the slurmctld Debian 12 ships (22.05.8), which tests/slurm.sh checks. A switch
 *    Slurm cannot hold (nothing below it) is written as a comment saying why.
 *  - slurm/topology-block.conf: topology/block, "BlockName=NAME Nodes=HOSTLIST" per block and
 *    "BlockSizes=BASE,2xBASE,..." (topology.conf(5), section "topology/block"; Slurm 24.05 and
 *    later); a block below the base, joined to a neighbour by the pass, is a comment saying
 *    which. Slurm reads it only under the name topology.conf: it is a file of its own so
 *    that the tree stays loadable by older daemons.
 *  - slurm/topology.yaml: both topologies in one file, the tree as the cluster default
 *    (topology.yaml(5), https://slurm.schedmd.com/topology.yaml.html; Slurm 25.05 and later).
 *    Written by hand rather than through libyaml (k8s.c owns that library): every scalar we
 *    write is a name or a hostlist, double-quoted where YAML could read it as something else.
 *
 * Hostlists are compressed as Slurm writes them (hostlist.c). Deterministic: switches in the
 * tree's order (leaves first), blocks in the order of their first node.
 */
#include "backends.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FLUSH_AT = 1 << 20 };

static void flush(FILE *f, Buf *b, bool force)
{
	if (b->len && (force || b->len >= FLUSH_AT)) {
		fwrite(b->s, 1, b->len, f);
		b->len = 0;
	}
}

/* What the lists share: room for the longest list's names (every node, or every switch), and
 * the last list of children made, kept with its text: a pod's spines all have the pod's
 * leaves below them, a plane's cores the same spines, so a list is mostly the one before
 * (k = 64: 3,072 lists a file, each made again, 101 M instructions of slurm's 150 M once
 * host_cmp skipped natcmp; docs/performance.md, "Stages before emit and switch writer,
 * thirteenth session"). */
typedef struct Lists {
	const char **names;
	const int *child; /* the last children's indexes (a SchedSwitch's), or NULL */
	int nchild;
	Buf text;         /* their hostlist */
} Lists;

/* The names of the listed children of s, or its nodes, as a hostlist. */
static void children_list(Buf *b, const SchedTree *t, const SchedSwitch *s, Lists *l)
{
	if (l->child && s->nchild > 0 && l->nchild == s->nchild &&
	    memcmp(l->child, s->child, sizeof *s->child * (size_t)s->nchild) == 0) {
		buf_put(b, l->text.s, l->text.len);
		return;
	}
	int n = 0;
	for (int c = 0; c < s->nchild; c++)
		if (!t->sw[s->child[c]].omitted)
			l->names[n++] = t->sw[s->child[c]].name;
	size_t at = b->len;
	hostlist_ranged(b, l->names, n);
	l->child = s->child;
	l->nchild = s->nchild;
	l->text.len = 0;
	buf_put(&l->text, b->s + at, b->len - at);
}

static void nodes_list(Buf *b, const Design *d, const int *node, int nnode, Lists *l)
{
	for (int i = 0; i < nnode; i++)
		l->names[i] = d->nodes[node[i]].hostname;
	hostlist_ranged(b, l->names, nnode);
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* Comment lines: how the fabric became the tree (the pass's words), what it left out. */
static void explain_tree(Buf *b, const SchedTree *t)
{
	const char *fab = t->fabric ? t->fabric->name : "";
	int omitted = t->nomitted;
	buf_puts(b, t->explain);
	if (omitted)
		buf_printf(b, "# %d switch%s with nothing below %s left out as comments: slurmctld "
			      "rejects a switch\n# with neither nodes nor switches.\n",
			   omitted, omitted == 1 ? "" : "es", omitted == 1 ? "it is" : "them are");
	if (t->off_fabric) {
		int n = t->off_fabric;
		buf_printf(b, "# %d node%s without a port on %s hang%s under %s, a virtual "
			      "switch\n", n, plural(n), fab, n == 1 ? "s" : "",
			   t->sw[t->off_leaf].name);
		buf_puts(b, "# with no parent: Slurm never runs one job across them and the "
			    "fabric.\n");
	}
}

static int write_tree_conf(Output *o, const Design *d, const SchedTree *t, Lists *lists)
{
	FILE *f = output_file(o, "slurm/topology.conf");
	if (!f)
		return 1;
	Buf b = {0};
	buf_printf(&b, "# slurm/topology.conf: Slurm topology/tree for cluster %s, written by "
		       "clusterc.\n", d->cluster_name);
	buf_puts(&b, "# Slurm 22.05 and later, with TopologyPlugin=topology/tree in slurm.conf. "
		     "Format:\n# topology.conf(5), \"topology/tree\" "
		     "(https://slurm.schedmd.com/topology.conf.html).\n");
	explain_tree(&b, t);
	if (t->fabric)
		buf_puts(&b, "# LinkSpeed: the fabric's link speed in Gb/s (Slurm reads a relative "
			     "number).\n");
	Buf speed = {0}; /* " LinkSpeed=N", the same on every line: formatted once */
	if (t->fabric)
		buf_printf(&speed, " LinkSpeed=%.0f", t->gbps);
	for (int i = 0; i < t->nsw; i++) {
		const SchedSwitch *s = &t->sw[i];
		if (s->omitted) {
			buf_printf(&b, "# SwitchName=%s: left out, %s\n", s->name, s->omitted);
			continue;
		}
		buf_puts(&b, "SwitchName=");
		buf_puts(&b, s->name);
		if (s->nnode) {
			buf_puts(&b, " Nodes=");
			nodes_list(&b, d, s->node, s->nnode, lists);
		}
		if (s->nchild) {
			buf_puts(&b, " Switches=");
			children_list(&b, t, s, lists);
		}
		if (t->fabric)
			buf_put(&b, speed.s, speed.len);
		buf_putc(&b, '\n');
		flush(f, &b, false);
	}
	flush(f, &b, true);
	buf_free(&b);
	buf_free(&speed);
	return output_close(o, f);
}

static void explain_blocks(Buf *b, const SchedTree *t)
{
	int kept = t->nblock - t->blocks_joined;
	buf_printf(b, "# A block is a %s: %d block%s.\n", t->block_unit, kept, plural(kept));
	buf_printf(b, "# BlockSizes: the planning base is %d node%s, the smallest block of at "
		      "least half the\n", t->block_base, plural(t->block_base));
	buf_puts(b, "# most common size; each further size joins twice as many neighbouring "
		    "blocks, while there\n# are that many.\n");
	if (t->blocks_joined) {
		int n = t->blocks_joined;
		const char *what = NULL; /* what the joined blocks are, when they are alike */
		for (int i = 0; i < t->nblock; i++)
			if (t->block[i].into >= 0)
				what = !what || !strcmp(what, t->block[i].what) ? t->block[i].what : "";
		buf_printf(b, "# %d smaller block%s (%s%s) %s joined to a neighbour, so that every node "
			      "is\n", n, plural(n), *what ? "a partial " : "partial units", what,
			   n == 1 ? "is" : "are");
		buf_puts(b, "# in one block: slurmctld rejects a block with fewer nodes than the base, "
			    "a node in no\n# block never runs a job, and a smaller base would spread "
			    "every job over many blocks.\n");
	}
}

static int write_block_conf(Output *o, const Design *d, const SchedTree *t, Lists *lists)
{
	FILE *f = output_file(o, "slurm/topology-block.conf");
	if (!f)
		return 1;
	Buf b = {0};
	buf_printf(&b, "# slurm/topology-block.conf: Slurm topology/block for cluster %s, "
		       "written by clusterc.\n", d->cluster_name);
	buf_puts(&b, "# Slurm 24.05 and later: install it as topology.conf with "
		     "TopologyPlugin=topology/block in\n# slurm.conf. Format: topology.conf(5), "
		     "\"topology/block\"\n# (https://slurm.schedmd.com/topology.conf.html).\n");
	explain_blocks(&b, t);
	for (int i = 0; i < t->nblock; i++) {
		const SchedBlock *k = &t->block[i];
		if (k->into >= 0) {
			buf_printf(&b, "# %s is in %s: %d node%s of a %s, below the base (", k->name,
				   t->block[k->into].name, k->nnode, plural(k->nnode), k->what);
			nodes_list(&b, d, k->node, k->nnode, lists);
			buf_puts(&b, ")\n");
			continue;
		}
		buf_printf(&b, "BlockName=%s Nodes=", k->name);
		nodes_list(&b, d, k->node, k->nnode, lists);
		buf_putc(&b, '\n');
		flush(f, &b, false);
	}
	if (t->nblock) {
		buf_puts(&b, "BlockSizes=");
		for (int l = 0; l < t->block_levels; l++)
			buf_printf(&b, "%s%lld", l ? "," : "", (long long)t->block_base << l);
		buf_putc(&b, '\n');
	}
	flush(f, &b, true);
	buf_free(&b);
	return output_close(o, f);
}

/* A YAML scalar: plain when it is a name YAML reads as a string, else double-quoted. Our
 * names and hostlists hold letters, digits, '-', '_', '.', '[', ']' and ',' only. */
static void yaml_scalar(Buf *b, const char *s)
{
	bool plain = isalpha((unsigned char)*s);
	for (const char *p = s; plain && *p; p++)
		plain = isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.';
	static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false",
					    "null"};
	for (size_t i = 0; plain && i < sizeof words / sizeof *words; i++)
		plain = strcasecmp(s, words[i]) != 0;
	if (plain) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

static int write_yaml(Output *o, const Design *d, const SchedTree *t, Lists *lists)
{
	FILE *f = output_file(o, "slurm/topology.yaml");
	if (!f)
		return 1;
	Buf b = {0}, list = {0};
	buf_printf(&b, "# slurm/topology.yaml: Slurm topologies for cluster %s, written by "
		       "clusterc.\n", d->cluster_name);
	buf_puts(&b, "# Slurm 25.05 and later: in slurm.conf's directory it replaces "
		     "topology.conf. Format:\n"
		     "# topology.yaml(5) (https://slurm.schedmd.com/topology.yaml.html). Two "
		     "topologies: \"tree\"\n"
		     "# (topology/tree, the cluster default, as in topology.conf) and \"block\" "
		     "(topology/block,\n"
		     "# as in topology-block.conf); a partition picks one with Topology=NAME.\n");
	explain_tree(&b, t);
	explain_blocks(&b, t);
	buf_puts(&b, "- topology: tree\n  cluster_default: true\n  tree:\n    switches:\n");
	for (int i = 0; i < t->nsw; i++) {
		const SchedSwitch *s = &t->sw[i];
		if (s->omitted)
			continue;
		buf_puts(&b, "      - switch: ");
		yaml_scalar(&b, s->name);
		list.len = 0;
		if (s->nnode) {
			nodes_list(&list, d, s->node, s->nnode, lists);
			buf_puts(&b, "\n        nodes: ");
		} else {
			children_list(&list, t, s, lists);
			buf_puts(&b, "\n        children: ");
		}
		yaml_scalar(&b, list.s ? list.s : "");
		buf_putc(&b, '\n');
		flush(f, &b, false);
	}
	buf_puts(&b, "- topology: block\n  cluster_default: false\n  block:\n    block_sizes:\n");
	for (int l = 0; l < t->block_levels; l++)
		buf_printf(&b, "      - %lld\n", (long long)t->block_base << l);
	buf_puts(&b, "    blocks:\n");
	for (int i = 0; i < t->nblock; i++) {
		const SchedBlock *k = &t->block[i];
		if (k->into >= 0)
			continue;
		buf_puts(&b, "      - block: ");
		yaml_scalar(&b, k->name);
		list.len = 0;
		nodes_list(&list, d, k->node, k->nnode, lists);
		buf_puts(&b, "\n        nodes: ");
		yaml_scalar(&b, list.s ? list.s : "");
		buf_putc(&b, '\n');
		flush(f, &b, false);
	}
	flush(f, &b, true);
	buf_free(&b);
	buf_free(&list);
	return output_close(o, f);
}

int slurm_write(Output *o, const Design *d)
{
	const SchedTree *t = d->sched;
	if (!d->elaborated || d->nnodes == 0 || !t)
		return 0;
	Lists l = {xmalloc(sizeof(char *) * (size_t)(d->nnodes + t->nsw + 1)), NULL, 0, {0}};
	int errors = write_tree_conf(o, d, t, &l);
	errors += write_block_conf(o, d, t, &l);
	errors += write_yaml(o, d, t, &l);
	free(l.names);
	buf_free(&l.text);
	return errors;
}
