/*
 * test_slurm.c — Slurm hostlists and the scheduler's view of a design:
 *  - hostlist_ranged against what Slurm 22.05 itself prints for the same names
 *    (`scontrol show hostlistsorted`, recorded in the table below): zero padding kept, widths
 *    that do not merge (01 and 001), natural order of prefixes, single hosts, an empty prefix;
 *  - the sched pass (Design.sched) over designs built from the examples: the SuperPOD of one
 *    scalable unit (the rail-0 leaf holds every node, the other rails' leaves are left out, the
 *    spines above it),
 *    wanka (3 tiers; the 2-node last scalable unit is below the block base and left out), the
 *    100,000-GPU example (a block per NVL72 domain of 18 nodes), a dragonfly and a torus.
 */
#include "backends.h"
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>


void suite_slurm(void);

/* ---- hostlists --------------------------------------------------------------------------------- */

typedef struct HostlistCase {
	const char *names; /* comma-separated */
	const char *slurm; /* scontrol show hostlistsorted NAMES, Slurm 22.05.8 */
} HostlistCase;

static const HostlistCase hostlist_cases[] = {
	{"n3,n1,n2", "n[1-3]"},
	{"dgx001,dgx002,dgx003,dgx004,dgx007", "dgx[001-004,007]"},
	{"n10,n9,n010,n01,n1,m2,m10,a-1,a,b1c2,b1c1,n001",
	 "a,a-1,b1c[1-2],m[2,10],n[1,9,01,10,001,010]"},
	{"node10,node9,node2,nodeb1,node-1", "node[2,9-10],node-1,nodeb1"},
	{"n98,n99,n100,n101", "n[98-101]"},
	{"n08,n09,n010,n011", "n[08-09,010-011]"},
	{"login1", "login1"},
	{"gpu0001,gpu0002,gpu0004", "gpu[0001-0002,0004]"},
	{"compute-leaf-001,compute-leaf-009,compute-leaf-017", "compute-leaf-[001,009,017]"},
	{"x-1-1,x-1-2,x-2-1", "x-1-[1-2],x-2-1"},
	{"r1n1,r1n2,r2n1,r10n1", "r1n[1-2],r2n1,r10n1"},
	{"a01b,a1b,a2b", "a01b,a1b,a2b"},
	{"h200-001,h200-002,h200-003", "h200-[001-003]"},
	{"123,124,abc", "[123-124],abc"},
};

/* Names that share their heads and differ inside a digit run, leading zeros and all, in the
 * order of the natural compare walked from the first byte (the code at 7154754; hostlist.c's
 * natcmp now starts where they differ): not recorded from Slurm. */
static const HostlistCase hostlist_head_cases[] = {
	{"leaf-p02-1,leaf-p01-2,leaf-p01-1,leaf-p010-1,leaf-p1-1,leaf-p10-1,leaf-p9-1",
	 "leaf-p01-[1-2],leaf-p010-1,leaf-p02-1,leaf-p1-1,leaf-p9-1,leaf-p10-1"},
	{"x0y07,x0y7,x00y7,x0y007,x0y10,x0y9", "x0y[7,9,07,10,007],x00y7"},
	{"a1b2c,a1b10c,a1b02c,a1b2d,a1b,a1b2", "a1b,a1b2,a1b02c,a1b2c,a1b2d,a1b10c"},
	{"sw-12-0003,sw-12-03,sw-12-3,sw-1-3,sw-120-3,sw-12-", "sw-1-3,sw-12-,sw-12-[3,03,0003],sw-120-3"},
	{"p1q,p1q1,p1q01,p10q1,p1r1,p01q1", "p01q1,p1q,p1q[1,01],p1r1,p10q1"},
};

static void check_hostlists(const HostlistCase *cases, size_t n_cases)
{
	for (size_t i = 0; i < n_cases; i++) {
		const HostlistCase *c = &cases[i];
		char copy[256];
		const char *names[32];
		int n = 0;
		snprintf(copy, sizeof copy, "%s", c->names);
		for (char *s = strtok(copy, ","); s && n < 32; s = strtok(NULL, ","))
			names[n++] = s;
		Buf b = {0};
		hostlist_ranged(&b, names, n);
		CU_ASSERT_STRING_EQUAL(b.s ? b.s : "", c->slurm);
		if (!b.s || strcmp(b.s, c->slurm))
			fprintf(stderr, "\nhostlist %s: %s, want %s\n", c->names, b.s ? b.s : "",
				c->slurm);
		buf_free(&b);
	}
}

static void test_hostlist(void)
{
	check_hostlists(hostlist_cases, sizeof hostlist_cases / sizeof *hostlist_cases);
	check_hostlists(hostlist_head_cases, sizeof hostlist_head_cases / sizeof *hostlist_head_cases);
	Buf b = {0};
	hostlist_ranged(&b, NULL, 0);
	CU_ASSERT_EQUAL(b.len, 0);
	buf_free(&b);
}

/* ---- the scheduler's view ---------------------------------------------------------------------- */

/* An example built (unit_build.h), its scheduler view asserted made; built_ok says whether. */
static Built *build(const char *example, const char *scenario)
{
	char path[512];
	snprintf(path, sizeof path, "%s/examples/%s", CLUSTERC_SOURCE_DIR, example);
	Built *b = unit_build(NULL, path, scenario, false);
	CU_ASSERT_TRUE(b->errors == 0 && b->d.sched);
	return b;
}

static bool built_ok(const Built *b)
{
	return b->errors == 0 && b->d.sched;
}

/* Switches Slurm's tree lists, and how many of them are at a tier. */
static int listed(const SchedTree *t, int tier)
{
	int n = 0;
	for (int s = 0; s < t->nsw; s++)
		n += !t->sw[s].omitted && (tier < 0 || t->sw[s].tier == tier);
	return n;
}

static int kept_blocks(const SchedTree *t)
{
	return t->nblock - t->blocks_joined;
}

static void test_superpod(void)
{
	Built *b = build("dgx-h100-superpod.cluster", "su1");
	if (!built_ok(b)) {
		unit_build_done(b);
		return;
	}
	const SchedTree *t = b->d.sched;
	CU_ASSERT_EQUAL(t->fabric->family->kind, TOPO_FAT_TREE);
	CU_ASSERT_EQUAL(t->tiers, 2);
	CU_ASSERT_EQUAL(t->nsw, 12);          /* 8 leaves (one per rail) and 4 spines */
	CU_ASSERT_EQUAL(listed(t, 0), 1);     /* the rail-0 leaf */
	CU_ASSERT_EQUAL(listed(t, 1), 4);
	CU_ASSERT_STRING_EQUAL(t->sw[0].name, "compute-leaf-001");
	CU_ASSERT_EQUAL(t->sw[0].nnode, 31);
	CU_ASSERT_PTR_NOT_NULL(t->sw[1].omitted);
	CU_ASSERT_EQUAL(t->off_fabric, 0);
	CU_ASSERT_EQUAL(t->gbps, 400);
	for (int n = 0; n < b->d.nnodes; n++) {
		CU_ASSERT_EQUAL(t->leaf[n], 0);
		const SchedSwitch *up = sched_ancestor(t, n, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(up);
		CU_ASSERT_STRING_EQUAL(up->name, "compute-spine-001");
	}
	CU_ASSERT_FALSE(t->multi_node_domains);
	CU_ASSERT_EQUAL(t->nblock, 1);
	CU_ASSERT_STRING_EQUAL(t->block[0].name, "compute-su001");
	CU_ASSERT_EQUAL(t->block_base, 31);
	CU_ASSERT_EQUAL(t->block_levels, 1);
	unit_build_done(b);
}

static void test_three_tiers(void)
{
	Built *b = build("wanka.cluster", NULL);
	if (!built_ok(b)) {
		unit_build_done(b);
		return;
	}
	const SchedTree *t = b->d.sched;
	CU_ASSERT_EQUAL(t->tiers, 3);
	CU_ASSERT_EQUAL(listed(t, 0), 40);    /* a rail-0 leaf per scalable unit */
	CU_ASSERT_EQUAL(listed(t, 1), 320);
	CU_ASSERT_EQUAL(listed(t, 2), 192); /* 32 core groups of 6 (docs/fabrics.md §2) */
	/* Every node reaches a core through its leaf and a spine. */
	for (int n = 0; n < b->d.nnodes; n++)
		CU_ASSERT_PTR_NOT_NULL(sched_ancestor(t, n, 2));
	/* 39 units of 32 nodes and one of 2: the base is 32, the small unit joins the unit before
	 * it (its neighbour of the same kind), which then holds 34 nodes. */
	CU_ASSERT_EQUAL(t->nblock, 40);
	CU_ASSERT_EQUAL(t->blocks_joined, 1);
	CU_ASSERT_EQUAL(t->block[39].into, 38);
	CU_ASSERT_EQUAL(t->block[39].nnode, 2);
	CU_ASSERT_EQUAL(t->block[38].own, 32);
	CU_ASSERT_EQUAL(t->block[38].nnode, 34);
	CU_ASSERT_EQUAL(t->block[38].node[33], b->d.nnodes - 1);
	CU_ASSERT_EQUAL(t->block_of[b->d.nnodes - 1], 38);
	CU_ASSERT_STRING_EQUAL(t->block_unit, "scalable unit");
	CU_ASSERT_EQUAL(t->block_base, 32);
	CU_ASSERT_EQUAL(t->block_levels, 6); /* 1, 2 ... 32 of 39 blocks */
	unit_build_done(b);
}

static void test_scale_up_blocks(void)
{
	if (unit_sanitized())
		return;
	Built *b = build("scale-100k.cluster", NULL);
	if (!built_ok(b)) {
		unit_build_done(b);
		return;
	}
	const SchedTree *t = b->d.sched;
	CU_ASSERT_TRUE(t->multi_node_domains);
	CU_ASSERT_STRING_EQUAL(t->block_unit, "scale-up domain");
	CU_ASSERT_EQUAL(t->nblock, 1400);
	CU_ASSERT_EQUAL(kept_blocks(t), 1400);
	CU_ASSERT_EQUAL(t->block_base, 18);
	CU_ASSERT_EQUAL(t->block_levels, 11); /* 1 ... 1024 blocks */
	for (int k = 0; k < t->nblock; k++)
		CU_ASSERT_EQUAL(t->block[k].nnode, 18);
	/* Kueue's levels nest: the NVL72 racks straddle rail-0 leaves (a leaf serves 64 nodes, a
	 * rack holds 18) and pods, so tiers 0 and 1 are no levels; every rack lies under core 1. */
	CU_ASSERT_EQUAL_FATAL(t->nlevel, 4);
	CU_ASSERT_TRUE(t->level[0].tier == 2 && t->level[0].kept);
	CU_ASSERT_TRUE(t->level[1].tier == 1 && !t->level[1].kept);
	CU_ASSERT_TRUE(t->level[2].tier == 0 && !t->level[2].kept);
	CU_ASSERT_TRUE(t->level[3].tier == -1 && t->level[3].kept);
	CU_ASSERT_EQUAL(t->level[1].narrower, 3);
	CU_ASSERT_EQUAL(t->level[1].split, 22);
	CU_ASSERT_EQUAL(t->level[2].split, 350);
	CU_ASSERT_EQUAL(t->level[2].of, 1400);
	CU_ASSERT_STRING_EQUAL(b->d.domain_names[b->d.nodes[0].domain], "gb200_nvl72_tray-nvl0001");
	CU_ASSERT_STRING_EQUAL(b->d.domain_names[b->d.nodes[18].domain], "gb200_nvl72_tray-nvl0002");
	unit_build_done(b);
}

static void test_direct(void)
{
	Built *b = build("dragonfly-1k.cluster", NULL);
	if (built_ok(b)) {
		const SchedTree *t = b->d.sched;
		CU_ASSERT_EQUAL(t->fabric->family->kind, TOPO_DRAGONFLY);
		CU_ASSERT_EQUAL(t->tiers, 3); /* routers, groups, the top */
		CU_ASSERT_EQUAL(listed(t, 2), 1);
		CU_ASSERT_EQUAL(listed(t, 1), b->d.fabrics[0].df_g);
		CU_ASSERT_STRING_EQUAL(t->block_unit, "dragonfly group");
		for (int n = 0; n < b->d.nnodes; n++)
			CU_ASSERT_PTR_NOT_NULL(sched_ancestor(t, n, 2));
	}
	unit_build_done(b);
	b = build("torus-3d.cluster", NULL);
	if (built_ok(b)) {
		const SchedTree *t = b->d.sched;
		CU_ASSERT_EQUAL(t->fabric->family->kind, TOPO_TORUS);
		CU_ASSERT_EQUAL(t->tiers, 2); /* racks, the top */
		int racks = 0;
		for (int r = 0; r < b->d.nracks; r++)
			racks += b->d.racks[r].nnodes > 0;
		CU_ASSERT_EQUAL(listed(t, 0), racks);
		CU_ASSERT_EQUAL(listed(t, 1), 1);
		int nodes = 0;
		for (int s = 0; s < t->nsw; s++)
			nodes += t->sw[s].nnode;
		CU_ASSERT_EQUAL(nodes, b->d.nnodes);
	}
	unit_build_done(b);
}

/* Every node in exactly one kept block, no kept block below the base, in every example (and
 * tests/sched/nvl72-100k-mixed.cluster, whose last scalable unit of single-tray domains is
 * below the base: it joins the unit before it, not an NVL72 domain). */
static void check_blocks(const Design *d)
{
	const SchedTree *t = d->sched;
	int *count = calloc((size_t)d->nnodes + 1, sizeof(int));
	CU_ASSERT_PTR_NOT_NULL_FATAL(count);
	int kept = 0;
	for (int b = 0; b < t->nblock; b++) {
		const SchedBlock *k = &t->block[b];
		if (k->into >= 0) {
			CU_ASSERT(k->nnode < t->block_base);
			CU_ASSERT_EQUAL(t->block[k->into].into, -1);
			continue;
		}
		kept++;
		CU_ASSERT(k->nnode >= t->block_base);
		for (int i = 0; i < k->nnode; i++) {
			count[k->node[i]]++;
			CU_ASSERT_EQUAL(t->block_of[k->node[i]], b);
			if (i)
				CU_ASSERT(k->node[i - 1] < k->node[i]);
		}
	}
	CU_ASSERT_EQUAL(kept, t->nblock - t->blocks_joined);
	int bad = 0;
	for (int n = 0; n < d->nnodes; n++)
		bad += count[n] != 1;
	CU_ASSERT_EQUAL(bad, 0);
	free(count);
}

/* Every kept level nests in every broader kept one: the values of each level, by node, lie
 * inside one value of the other (sched.c's rule, checked here pair by pair). */
static void check_levels(const Design *d)
{
	const SchedTree *t = d->sched;
	int *outer = malloc(sizeof(int) * (size_t)(d->nnodes + t->nsw + d->ndomains + 2));
	CU_ASSERT_PTR_NOT_NULL_FATAL(outer);
	for (int i = 0; i < t->nlevel; i++)
		for (int j = i + 1; j < t->nlevel; j++) {
			const SchedLevel *hi = &t->level[i], *lo = &t->level[j];
			if (!hi->kept || !lo->kept)
				continue;
			int range = lo->tier < 0 ? d->ndomains : t->nsw + 1, bad = 0;
			for (int v = 0; v < range; v++)
				outer[v] = -1;
			for (int n = 0; n < d->nnodes; n++) {
				const SchedSwitch *a = hi->tier < 0 ? NULL : sched_ancestor(t, n, hi->tier);
				const SchedSwitch *b = lo->tier < 0 ? NULL : sched_ancestor(t, n, lo->tier);
				int w = hi->tier < 0 ? d->nodes[n].domain : a ? (int)(a - t->sw) : t->nsw;
				int v = lo->tier < 0 ? d->nodes[n].domain : b ? (int)(b - t->sw) : t->nsw;
				if (outer[v] < 0)
					outer[v] = w;
				bad += outer[v] != w;
			}
			CU_ASSERT_EQUAL(bad, 0);
		}
	free(outer);
}

static void test_every_node_in_one_block(void)
{
	const char *examples[] = {"capacity-planning.cluster", "dgx-h100-superpod.cluster",
				  "dragonfly-1k.cluster", "roce-spectrum4.cluster",
				  "seed-wanka-h100.cluster", "torus-3d.cluster", "wanka.cluster",
				  "../tests/sched/nvl72-100k-mixed.cluster"};
	/* The last, 100,000 GPUs, not in the sanitizer build (unit_sanitized). */
	size_t n = sizeof examples / sizeof *examples - (unit_sanitized() ? 1 : 0);
	for (size_t i = 0; i < n; i++) {
		Built *b = build(examples[i], NULL);
		if (built_ok(b))
			check_blocks(&b->d), check_levels(&b->d);
		if (built_ok(b) && i + 1 == sizeof examples / sizeof *examples) {
			const SchedTree *t = b->d.sched;
			const SchedBlock *last = &t->block[t->nblock - 1];
			CU_ASSERT_EQUAL(last->nnode, 4);
			CU_ASSERT_STRING_EQUAL(last->what, "scalable unit");
			CU_ASSERT_STRING_EQUAL(t->block[last->into].what, "scalable unit");
			CU_ASSERT_STRING_EQUAL(t->block_unit, "scale-up domain or a scalable unit");
		}
		unit_build_done(b);
	}
}

/* topology.conf's "Switches=" lists: slurm.c keeps the last list of children with its text
 * and copies it for a switch with the same children (a unit's spines, a core group's cores);
 * each list must still be the hostlist of the switch's own listed children. On wanka (3 tiers,
 * the other rails' leaves left out) both kinds occur: lists the same as the one before and
 * lists that differ from it. */
static void test_children_lists(void)
{
	Built *b = build("wanka.cluster", NULL);
	if (!built_ok(b)) {
		unit_build_done(b);
		return;
	}
	const SchedTree *t = b->d.sched;
	Arena *a = arena_new();
	const char *base = unit_temp_dir(a, "slurm");
	const char *out = arena_printf(a, "%s/out", base);
	Output *o = output_open(b->p.c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(slurm_write(o, &b->d), 0);
	CU_ASSERT_EQUAL(output_commit(o), 0);
	FILE *f = fopen(arena_printf(a, "%s/slurm/topology.conf", out), "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	Buf text = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&text, chunk, n);
	fclose(f);
	const char **names = malloc(sizeof *names * (size_t)(t->nsw + 1));
	const SchedSwitch *last = NULL;
	int same = 0, differ = 0, checked = 0;
	for (int i = 0; i < t->nsw && text.s; i++) {
		const SchedSwitch *s = &t->sw[i];
		if (s->omitted || !s->nchild)
			continue;
		int k = 0;
		for (int c = 0; c < s->nchild; c++)
			if (!t->sw[s->child[c]].omitted)
				names[k++] = t->sw[s->child[c]].name;
		Buf want = {0};
		buf_puts(&want, arena_printf(a, "\nSwitchName=%s Switches=", s->name));
		hostlist_ranged(&want, names, k);
		buf_putc(&want, ' ');
		CU_ASSERT_PTR_NOT_NULL(strstr(text.s, want.s));
		checked++;
		if (last && last->nchild == s->nchild &&
		    !memcmp(last->child, s->child, sizeof *s->child * (size_t)s->nchild))
			same++;
		else if (last)
			differ++;
		last = s;
		buf_free(&want);
	}
	CU_ASSERT_EQUAL(checked, 320 + 192); /* the spines and the cores */
	CU_ASSERT_TRUE(same > 0 && differ > 0);
	free(names);
	buf_free(&text);
	unit_remove_tree(base);
	arena_free(a);
	unit_build_done(b);
}

void suite_slurm(void)
{
	CU_pSuite s = CU_add_suite("slurm", NULL, NULL);
	CU_add_test(s, "hostlists as Slurm writes them", test_hostlist);
	CU_add_test(s, "SuperPOD: the rail-0 leaf and the spines", test_superpod);
	CU_add_test(s, "3-tier tree and a partial unit", test_three_tiers);
	CU_add_test(s, "a block per NVL72 domain", test_scale_up_blocks);
	CU_add_test(s, "dragonfly and torus as trees", test_direct);
	CU_add_test(s, "every node in one block, levels that nest", test_every_node_in_one_block);
	CU_add_test(s, "Switches= lists, kept from the switch before or made", test_children_lists);
}
