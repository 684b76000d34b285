/*
 * test_cages.c — media chosen per switch cage (passes/design/cage.c) on hand-made catalogues:
 * a cheap single-port cable never serves a twin-port cage, a 1:2 breakout serves a cage whose
 * two lanes go to two NICs, each module and assembly is counted once, the links' shares add
 * up to the BOM, and verify_media (passes/fabric/verify_media.c) catches a cage with two kinds
 * of media.
 *
 * The spec: 8 nodes of 8 ConnectX-7 (64 NIC ports) on a 2-tier tree of 16-port switches whose
 * 8 cages are twin-port (2 x 400G a cage), 128 links (64 node-leaf, 64 leaf-spine).
 */
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void suite_cages(void);

static const char spec[] =
	"import std.accelerators\n"
	"import std.network\n"
	"import std.cooling\n"
	"import std.racks\n"
	"import std.servers\n"
	"\n"
	"switch TWIN16 {\n"
	"  ports      = 16\n"
	"  port_speed = 400 Gbps\n"
	"  cages      = 8\n"
	"  cage       = osfp\n"
	"  protocol   = infiniband\n"
	"  power      = 100 W\n"
	"  price      = 1000 USD\n"
	"}\n"
	"\n"
	"optic TWIN_MOD {\n"
	"  speed     = 400 Gbps\n"
	"  ports     = 2\n"
	"  reach     = 100 m\n"
	"  fiber     = om4\n"
	"  connector = mpo12\n"
	"  cage      = osfp\n"
	"  power     = 10 W\n"
	"  price     = 100 USD\n"
	"}\n"
	"\n"
	"optic ONE_MOD {\n"
	"  speed     = 400 Gbps\n"
	"  reach     = 100 m\n"
	"  fiber     = om4\n"
	"  connector = mpo12\n"
	"  cage      = osfp\n"
	"  power     = 5 W\n"
	"  price     = 80 USD\n"
	"}\n"
	"\n"
	"cable FIB {\n"
	"  type      = fiber\n"
	"  reach     = 100 m\n"
	"  fiber     = om4\n"
	"  connector = mpo12\n"
	"  price     = 10 USD\n"
	"}\n"
	"\n"
	"cable CHEAP_AOC {\n"
	"  type      = aoc\n"
	"  speed     = 400 Gbps\n"
	"  reach     = 100 m\n"
	"  fiber     = om4\n"
	"  connector = osfp\n"
	"  price     = 1 USD\n"
	"}\n"
	"\n"
	"site dc {\n"
	"  power_budget = 2 MW\n"
	"  electricity  = 0.08 USD/kWh\n"
	"  floor        = grid(rows = 2, racks_per_row = 8)\n"
	"}\n"
	"\n"
	"fabric compute {\n"
	"  topology = fat_tree(tiers = 2, rail_optimized = true)\n"
	"  switch   = TWIN16\n"
	"  media    = [TWIN_MOD, ONE_MOD, FIB, CHEAP_AOC%s]\n"
	"}\n"
	"\n"
	"cluster c {\n"
	"  site    = dc\n"
	"  nodes   = 8 x DGX_H100\n"
	"  rack    = rack48_liquid\n"
	"  fabrics = [compute]\n"
	"}\n"
	"\n";

static Built *build_with(const char *extra_parts, const char *extra_media)
{
	static char text[8192];
	char body[sizeof spec + 64];
	snprintf(body, sizeof body, spec, extra_media);
	snprintf(text, sizeof text, "%s\n%s", body, extra_parts);
	return unit_build(text, NULL, NULL, false);
}

static int count_part(const Design *d, const char *name)
{
	int n = 0;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		n += c->module_a && c->optic_a && strcmp(c->optic_a->name, name) == 0;
		n += c->module_z && c->optic_z && strcmp(c->optic_z->name, name) == 0;
		n += c->assembly == i && c->cable && strcmp(c->cable->name, name) == 0;
	}
	return n;
}

static double cable_shares(const Design *d)
{
	double sum = 0;
	for (int i = 0; i < d->ncables; i++)
		sum += d->cables[i].price;
	return sum;
}

/* The AOC costs 1 USD against 280 USD of optics and fibres per cage, but it is single-port: a
 * twin-port cage takes it nowhere (the link-by-link choice bought it for every link). */
static void test_single_port_not_in_twin_cage(void)
{
	Built *b = build_with("", "");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL(d->ncables, 128);
	for (int i = 0; i < d->ncables; i++)
		CU_ASSERT_STRING_EQUAL(d->cables[i].cable->name, "FIB");
	/* 64 NIC ports, one single-port module each; 192 switch ports in 96 full twin cages. */
	CU_ASSERT_EQUAL(count_part(d, "ONE_MOD"), 64);
	CU_ASSERT_EQUAL(count_part(d, "TWIN_MOD"), 96);
	CU_ASSERT_EQUAL(count_part(d, "FIB"), 128);
	CU_ASSERT_EQUAL(count_part(d, "CHEAP_AOC"), 0);
	/* The links' shares are the parts bought: 64 x 80 + 96 x 100 + 128 x 10 USD. */
	CU_ASSERT_DOUBLE_EQUAL(cable_shares(d), 64 * 80 + 96 * 100 + 128 * 10, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(d->t.capex_by_cat[CAT_CABLING], 64 * 80 + 96 * 100 + 128 * 10, 1e-6);
	unit_build_done(b);
}

/* A 1:2 breakout (twin-port head, two single-port legs) at 50 USD beats a twin module, two
 * single-port modules and two fibres (280 USD) for every leaf cage whose two lanes go to two
 * NICs; the leaf-spine cages (two lanes to two twin-port cages) cannot take it. */
static void test_breakout(void)
{
	Built *b = build_with("cable SPLIT {\n  type      = dac\n  speed     = 400 Gbps\n"
			      "  reach     = 100 m\n  connector = osfp\n  ports     = 2\n"
			      "  breakout  = 2\n  price     = 50 USD\n}\n",
			      ", SPLIT");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	int legs = 0, heads = 0;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		if (l->tier != LT_NODE_LEAF) {
			CU_ASSERT_STRING_EQUAL(c->cable->name, "FIB");
			continue;
		}
		CU_ASSERT_STRING_EQUAL(c->cable->name, "SPLIT");
		CU_ASSERT_PTR_NULL(c->optic_a);
		CU_ASSERT_PTR_NULL(c->optic_z);
		legs++;
		heads += c->assembly == i;
		/* Both legs in the lanes of one cage of one switch. */
		const CableInst *h = &d->cables[c->assembly];
		CU_ASSERT_EQUAL(d->links[h->link].z.dev, l->z.dev);
		CU_ASSERT_EQUAL(h->cage_z, c->cage_z);
	}
	CU_ASSERT_EQUAL(legs, 64);
	CU_ASSERT_EQUAL(heads, 32);
	CU_ASSERT_EQUAL(count_part(d, "SPLIT"), 32);
	CU_ASSERT_EQUAL(count_part(d, "ONE_MOD"), 0);
	CU_ASSERT_EQUAL(count_part(d, "TWIN_MOD"), 64); /* the leaf-spine tier's 128 ends */
	CU_ASSERT_DOUBLE_EQUAL(cable_shares(d), 32 * 50 + 64 * 100 + 64 * 10, 1e-6);
	unit_build_done(b);
}

/* verify_media on a design whose cage holds a twin-port module on one lane and a
 * single-port module on the other: a failure (internal error), where the design as built
 * passes. */
static void test_verifier(void)
{
	Built *b = build_with("", "");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	Design *d = &b->d;
	CU_ASSERT_EQUAL(verify_media(d), 0);
	const Part *one = NULL;
	for (int i = 0; i < d->ncables && !one; i++)
		if (d->cables[i].optic_a && d->cables[i].optic_a->optic.ports == 1)
			one = d->cables[i].optic_a;
	CU_ASSERT_PTR_NOT_NULL_FATAL(one);
	/* The second link of some twin cage at its z end. */
	for (int i = 0; i < d->ncables; i++) {
		CableInst *c = &d->cables[i];
		if (c->cage_z >= 0 && c->optic_z && !c->module_z) {
			c->optic_z = one;
			break;
		}
	}
	d->quiet = true;
	CU_ASSERT_TRUE(verify_media(d) > 0);
	b->p.internal_error = false;
	unit_build_done(b);
}

/* A 1:8 breakout: 64 x 100G in 8 cages of 8 lanes (an SN5600-like split of 800G cages), nodes
 * with eight single-port 100G NICs; an 8-lane head with eight legs serves every cage whose
 * lanes all go down to NICs, eight links a part, and beats a module per NIC plus an 8-port
 * module's share and a fibre. The leaf-spine cages take the 8-port module. */
static const char spec8[] =
	"import std.accelerators\n"
	"import std.cooling\n"
	"import std.racks\n"
	"switch OCT64 {\n  ports = 64\n  port_speed = 100 Gbps\n  cages = 8\n  cage = osfp\n"
	"  protocol = infiniband\n  power = 100 W\n  price = 1000 USD\n}\n"
	"nic N100 {\n  speed = 100 Gbps\n  cage = osfp\n  protocol = infiniband\n  price = 100 USD\n}\n"
	"node n8 {\n  accelerators = 8 x H100_SXM\n  nics = 8 x N100\n  power = 10 kW\n"
	"  height = 8 U\n  price = 100_000 USD\n}\n"
	"optic ONE100 {\n  speed = 100 Gbps\n  reach = 100 m\n  fiber = om4\n  connector = mpo12\n"
	"  cage = osfp\n  price = 50 USD\n}\n"
	"optic OCT_MOD {\n  speed = 100 Gbps\n  ports = 8\n  reach = 100 m\n  fiber = om4\n"
	"  connector = mpo12\n  cage = osfp\n  price = 200 USD\n}\n"
	"cable FIB {\n  type = fiber\n  reach = 100 m\n  fiber = om4\n  connector = mpo12\n"
	"  price = 10 USD\n}\n"
	"cable SPLIT8 {\n  type = dac\n  speed = 100 Gbps\n  reach = 100 m\n  connector = osfp\n"
	"  ports = 8\n  breakout = 8\n  price = 80 USD\n}\n"
	"site dc {\n  power_budget = 2 MW\n  electricity = 0.08 USD/kWh\n"
	"  floor = grid(rows = 2, racks_per_row = 8)\n}\n"
	"fabric compute {\n  topology = fat_tree(tiers = 2, rail_optimized = true)\n  switch = OCT64\n"
	"  media = [ONE100, OCT_MOD, FIB, SPLIT8]\n}\n"
	"cluster c {\n  site = dc\n  nodes = 8 x n8\n  rack = rack48_liquid\n  fabrics = [compute]\n}\n";

static void test_breakout8(void)
{
	Built *b = unit_build(spec8, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	int legs = 0, heads = 0, down = 0;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		if (l->tier != LT_NODE_LEAF)
			continue;
		down++;
		if (!c->cable || strcmp(c->cable->name, "SPLIT8") != 0)
			continue;
		legs++;
		heads += c->assembly == i;
		const CableInst *h = &d->cables[c->assembly];
		CU_ASSERT_EQUAL(d->links[h->link].z.dev, l->z.dev);
		CU_ASSERT_EQUAL(h->cage_z, c->cage_z);
	}
	CU_ASSERT_EQUAL(down, 64);
	CU_ASSERT_EQUAL(legs, 64);
	CU_ASSERT_EQUAL(heads, 8);
	CU_ASSERT_EQUAL(verify_media((Design *)d), 0);
	unit_build_done(b);
}

/* verify_media on structured cabling (passes/design/trunk.c): the SuperPOD unit of
 * tests/trunks passes as built; a panel adapter given to two links, a trunk that claims a
 * leg more than the links naming it, and a link whose panel stands in another rack each fail. */
static void test_trunk_verifier(void)
{
	Built *b = unit_build(NULL, CLUSTERC_SOURCE_DIR "/tests/trunks/superpod-trunks.cluster", NULL,
			      false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	Design *d = &b->d;
	CU_ASSERT_TRUE_FATAL(d->ntrunks > 0 && d->npanels > 0);
	CU_ASSERT_EQUAL(verify_media(d), 0);
	int first = -1, second = -1;
	for (int i = 0; i < d->ncables && second < 0; i++)
		if (d->cables[i].trunk >= 0 && first < 0)
			first = i;
		else if (d->cables[i].trunk >= 0)
			second = i;
	CU_ASSERT_TRUE_FATAL(second >= 0);
	CableInst *x = &d->cables[first];
	CableLeg *xg = &d->cable_legs[first], *yg = &d->cable_legs[second];
	d->quiet = true;
	/* Two links on one adapter. */
	int panel = yg->panel_a, port = yg->port_a;
	yg->panel_a = xg->panel_a, yg->port_a = xg->port_a;
	CU_ASSERT_TRUE(verify_media(d) > 0);
	yg->panel_a = panel, yg->port_a = port;
	b->p.internal_error = false;
	CU_ASSERT_EQUAL(verify_media(d), 0);
	/* A trunk that says it carries one leg more. */
	d->trunks[x->trunk].legs++;
	CU_ASSERT_TRUE(verify_media(d) > 0);
	d->trunks[x->trunk].legs--;
	b->p.internal_error = false;
	/* A link's panel in a rack that is not its end's. */
	int other = -1;
	for (int p = 0; p < d->npanels && other < 0; p++)
		if (d->panels[p].rack != d->panels[xg->panel_a].rack &&
		    d->panels[p].rack != d->panels[xg->panel_z].rack)
			other = p;
	CU_ASSERT_TRUE_FATAL(other >= 0);
	panel = xg->panel_a;
	xg->panel_a = other;
	CU_ASSERT_TRUE(verify_media(d) > 0);
	xg->panel_a = panel;
	b->p.internal_error = false;
	unit_build_done(b);
}

/* The two above with the memo of a compare worker on (passes/fabric/verify_memo.c): a design
 * proved clean is proved again from the memo, and every change still fails, so the memo's key
 * holds what each changes. */
static void test_verifier_memo(void)
{
	verify_memo_keep(true);
	long hits = verify_memo_hits();
	test_verifier();
	test_trunk_verifier();
	CU_ASSERT_TRUE(verify_memo_hits() > hits);
	verify_memo_keep(false);
}

void suite_cages(void)
{
	CU_pSuite s = CU_add_suite("cages", NULL, NULL);
	CU_add_test(s, "single-port cable never in a twin-port cage", test_single_port_not_in_twin_cage);
	CU_add_test(s, "breakout legs in one cage", test_breakout);
	CU_add_test(s, "1:8 breakout: eight legs in one cage", test_breakout8);
	CU_add_test(s, "verifier catches two kinds of media", test_verifier);
	CU_add_test(s, "verifier catches trunk and panel faults", test_trunk_verifier);
	CU_add_test(s, "the verifiers' memo keys what they read", test_verifier_memo);
}
