/*
 * test_ports.c — faceplate port names and SONiC port maps (passes/ir/ir.c, ir_faceplate) of the
 * stdlib switch models against the vendors' own files, read 2026-12:
 *  - SN5600: sonic-buildimage device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-O128/
 *    port_config.ini: "Ethernet128 128,129,130,131 etp17a 17", "Ethernet132 132,...,135 etp17b 17";
 *  - SN4600C: device/mellanox/x86_64-mlnx_msn4600c-r0/platform.json: Ethernet4 on lanes 8-11,
 *    index 2, breakout names etp2 (1x100G) and etp1a, etp1b (2x50G);
 *  - TH5_64x800G as the Arista 7060X6-64PE: device/arista/x86_64-arista_7060x6_64pe/
 *    Arista-7060X6-64PE-O128S2/port_config.ini: "Ethernet0 17,18,19,20 Ethernet1/1 1",
 *    "Ethernet4 21,22,23,24 Ethernet1/5 1", "Ethernet8 1,2,3,4 Ethernet2/1 2";
 *  - QM9700: NVIDIA MLNX-OS User Manual v3.11, InfiniBand Interface: <ASIC/cage/port>, "1/3/1 and
 *    1/3/2" the two ports of cage 3, a split port x/y becoming x/y/z;
 *  - Q3400: NVIDIA NVOS: sw<cage>p<port>, s<split>.
 */
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <string.h>

void suite_ports(void);

static const Part *part(const Design *d, const char *name)
{
	for (int i = 0; i < d->nparts; i++)
		if (strcmp(d->parts[i].name, name) == 0)
			return &d->parts[i];
	return NULL;
}

/* The name of logical port `port` of a switch of model m split `breakout` ways. */
static const char *name_of(const Part *m, int breakout, int port, Buf *b)
{
	SwitchInst s = {.model = m, .breakout = breakout};
	b->len = 0;
	ir_switch_port_name(b, &s, port);
	return b->s;
}

static const char *alias_of(const Part *m, int breakout, int port, Buf *b)
{
	SwitchInst s = {.model = m, .breakout = breakout};
	b->len = 0;
	ir_switch_port_alias(b, &s, port);
	return b->s;
}

static FaceplatePort at(const Part *m, int breakout, int port)
{
	SwitchInst s = {.model = m, .breakout = breakout};
	return ir_faceplate(&s, port);
}

static void test_stdlib_port_maps(void)
{
	/* Any build that imports std.network lowers all its parts. */
	Built *b = unit_build(NULL, CLUSTERC_SOURCE_DIR "/examples/roce-spectrum4.cluster", NULL,
			      false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	Buf n = {0};
	const Part *sn5600 = part(d, "SN5600"), *sn4600c = part(d, "SN4600C");
	const Part *th5 = part(d, "TH5_64x800G"), *qm = part(d, "QM9700"), *q3400 = part(d, "Q3400");
	CU_ASSERT_FATAL(sn5600 && sn4600c && th5 && qm && q3400);

	/* Each row: model, breakout, logical port; its name, alias, first ASIC lane and lanes (the
	 * files at the top of this one). */
	static const struct {
		const char *model;
		int breakout, port;
		const char *name, *alias;
		int first_lane, nlanes;
	} rows[] = {
		/* SN5600 split 2 x 400G: cage 17 is logical ports 32 and 33; unsplit, port 16. */
		{"SN5600", 2, 32, "Ethernet128", "etp17a", 128, 4},
		{"SN5600", 2, 33, "Ethernet132", "etp17b", 132, 4},
		{"SN5600", 1, 16, "Ethernet128", "etp17", 128, 8},
		/* SN4600C: names 4 a cage, ASIC lanes 8 a cage. */
		{"SN4600C", 1, 1, "Ethernet4", "etp2", 8, 4},
		{"SN4600C", 2, 1, "Ethernet2", "etp1b", 2, 2},
		/* TH5 on the Arista 7060X6-64PE's lane map, split 2 x 400G. */
		{"TH5_64x800G", 2, 0, "Ethernet0", "Ethernet1/1", 17, 4},
		{"TH5_64x800G", 2, 1, "Ethernet4", "Ethernet1/5", 21, 4},
		{"TH5_64x800G", 2, 2, "Ethernet8", "Ethernet2/1", 1, 4},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const Part *m = part(d, rows[i].model);
		int br = rows[i].breakout, port = rows[i].port;
		CU_ASSERT_STRING_EQUAL(name_of(m, br, port, &n), rows[i].name);
		CU_ASSERT_STRING_EQUAL(alias_of(m, br, port, &n), rows[i].alias);
		FaceplatePort f = at(m, br, port);
		CU_ASSERT_EQUAL(f.first_asic_lane, rows[i].first_lane);
		CU_ASSERT_EQUAL(f.nlanes, rows[i].nlanes);
	}
	CU_ASSERT_EQUAL(at(sn5600, 2, 33).cage + 1, 17);
	CU_ASSERT_STRING_EQUAL(sn5600->sw.hwsku, "Mellanox-SN5600-O128");
	CU_ASSERT_STRING_EQUAL(th5->sw.hwsku, "Arista-7060X6-64PE-O128S2");
	CU_ASSERT_STRING_EQUAL(sn4600c->sw.hwsku, "Mellanox-SN4600C-C64");

	/* QM9700: twin-port cages, then a split port. */
	CU_ASSERT_STRING_EQUAL(name_of(qm, 1, 4, &n), "1/3/1");
	CU_ASSERT_STRING_EQUAL(name_of(qm, 1, 5, &n), "1/3/2");
	CU_ASSERT_STRING_EQUAL(name_of(qm, 1, 32, &n), "1/17/1");
	CU_ASSERT_STRING_EQUAL(name_of(qm, 2, 65, &n), "1/17/1/2");
	/* Q3400 (NVOS). */
	CU_ASSERT_STRING_EQUAL(name_of(q3400, 1, 33, &n), "sw17p2");
	CU_ASSERT_STRING_EQUAL(name_of(q3400, 2, 64, &n), "sw17p1s1");
	buf_free(&n);
	unit_build_done(b);
}

void suite_ports(void)
{
	CU_pSuite s = CU_add_suite("ports", NULL, NULL);
	CU_add_test(s, "stdlib port maps", test_stdlib_port_maps);
}
