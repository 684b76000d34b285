/*
 * test_zones.c — rack zones (passes/design/zone.c, racks.c, place.c): two node models in two
 * zones sized and costed by hand (racks per zone, IT power, cooling capex per kW, the partial
 * PUE weighted by each zone's load, rack feeds rated at each zone's power class, zones in rows
 * of their own), and the optimizer choosing a different cooling in each zone, by the MILP and
 * by exhaustive search alike.
 */
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

void suite_zones(void);

/* Zone a: air racks of 40 kW holding 10 kW nodes of 8 U, 4 a rack (the class), 24 nodes in 6
 * racks. Zone b: cold-plate racks of 100 kW holding 12 kW nodes of 8 U, 6 a rack (the height
 * of 48 U), 18 nodes in 3 racks, on its own grid of 2 m rack pitch. Rack feeds A and B at the
 * class, 25 USD per kW installed. */
static const char *SPEC =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"node n1 { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
	"node n2 { accelerators = 8 x g; power = 12 kW; height = 8 U; price = 120_000 USD }\n"
	"cooling air { type = air; pue = 1.3; max_rack_power = 40 kW; capex_per_kw = 1_000 USD/kW }\n"
	"cooling cp { type = cold_plate; pue = 1.05; max_rack_power = 140 kW; capex_per_kw = 2_000 USD/kW }\n"
	"rack ra { height = 48 U; power_limit = 40 kW; cooling = air; price = 4_000 USD }\n"
	"rack rb { height = 48 U; power_limit = 100 kW; cooling = cp; price = 15_000 USD }\n"
	"power_stage feed { stage = rack_feed; redundancy = two_n; capex_per_kw = 25 USD/kW }\n"
	"power p { chain = [feed] }\n"
	"site s { power_budget = 2 MW; electricity = 0.10 USD/kWh; power = p\n"
	"  floor = grid(rows = 10, racks_per_row = 4) }\n"
	"zone a { rack = ra; holds = [n1]; fit_out = 50_000 USD }\n"
	"zone b { rack = rb; holds = [n2]\n"
	"  floor = grid(rows = 2, racks_per_row = 2, rack_pitch = 2 m, row_pitch = 3 m) }\n"
	"cluster c { site = s; nodes = [24 x n1, 18 x n2]; zones = [a, b] }\n";

static void test_two_models_two_zones(void)
{
	Built *b = unit_build(SPEC, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->nzones, 2);
	CU_ASSERT(d->zoned);
	const ZoneInst *za = &d->zones[0], *zb = &d->zones[1];
	CU_ASSERT_STRING_EQUAL(za->name, "a");
	CU_ASSERT_STRING_EQUAL(zb->cooling_type->name, "cp");
	CU_ASSERT_EQUAL(d->groups[0].zone, 0);
	CU_ASSERT_EQUAL(d->groups[1].zone, 1);
	CU_ASSERT_EQUAL(d->groups[0].per_rack, 4);
	CU_ASSERT_EQUAL(d->groups[1].per_rack, 6);
	CU_ASSERT_EQUAL(za->racks, 6);
	CU_ASSERT_EQUAL(zb->racks, 3);
	CU_ASSERT_EQUAL(d->nracks, 9);
	/* IT power by zone; cooling capex per kW of each; the partial PUE by load. */
	CU_ASSERT_DOUBLE_EQUAL(za->it_power, 240e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(zb->it_power, 216e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(za->cooling_capex, 240 * 1000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(zb->cooling_capex, 216 * 2000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(d->t.capex_by_cat[CAT_COOLING], 240 * 1000.0 + 216 * 2000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(d->t.pue, (240 * 1.3 + 216 * 1.05) / 456, 1e-12);
	/* Racks at each zone's price, and zone a's fit-out. */
	CU_ASSERT_DOUBLE_EQUAL(d->t.capex_by_cat[CAT_RACKS], 6 * 4000.0 + 3 * 15000.0 + 50000, 1e-6);
	/* Feeds A and B rated at each zone's class: 2 x (6 x 40 + 3 x 100) kW at 25 USD/kW. */
	CU_ASSERT_EQUAL_FATAL(d->nstages, 1);
	CU_ASSERT_DOUBLE_EQUAL(d->stages[0].installed, 2 * (6 * 40e3 + 3 * 100e3), 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(d->stages[0].capex, 2 * (6 * 40 + 3 * 100) * 25.0, 1e-6);
	/* Every rack carries its nodes' zone, its zone's type and cap; zones in rows of their
	 * own, b's behind a's at its own pitch. */
	int rows_a = 0;
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		if (r->first_node >= 0 && r->nnodes)
			CU_ASSERT_EQUAL(r->zone, d->groups[d->nodes[r->first_node].group].zone);
		CU_ASSERT_PTR_EQUAL(r->type, d->zones[r->zone].rack_type);
		CU_ASSERT_DOUBLE_EQUAL(r->cap, d->zones[r->zone].cap, 0);
		if (r->zone == 0 && r->row + 1 > rows_a)
			rows_a = r->row + 1;
	}
	CU_ASSERT_EQUAL(za->rows, 2);
	CU_ASSERT_EQUAL(zb->rows, 2);
	CU_ASSERT_EQUAL(zb->first_row, rows_a);
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		if (r->zone != 1)
			continue;
		CU_ASSERT(r->row >= rows_a);
		/* a's last row at 2.4 m, b's first half a pitch of each further: 2.4 + 2.7 */
		CU_ASSERT_DOUBLE_EQUAL(r->y, r->row == rows_a ? 5.1 : 8.1, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r->x, r->pos * 2.0, 1e-9);
	}
	CU_ASSERT_DOUBLE_EQUAL(zb->area, 2 * 2 * 2.0 * 3.0, 1e-9);
	unit_build_done(b);
}

/* Each zone's cooling an open choice, capex minimized: the light nodes' zone takes air (half
 * the cold plate's capex per kW), the 50 kW chassis' zone cold plate (air cools 40 kW a rack
 * at most). The MILP and the exhaustive search agree. */
static const char *CHOICE =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"node light { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
	"node dense { accelerators = 32 x g; power = 50 kW; height = 16 U; price = 400_000 USD }\n"
	"cooling air { type = air; pue = 1.3; max_rack_power = 40 kW; capex_per_kw = 1_000 USD/kW }\n"
	"cooling cp { type = cold_plate; pue = 1.05; max_rack_power = 140 kW; capex_per_kw = 2_000 USD/kW }\n"
	"rack r { height = 48 U; power_limit = 140 kW; cooling = air; price = 4_000 USD }\n"
	"site s { power_budget = 5 MW; electricity = 0.10 USD/kWh }\n"
	"zone hall { rack = r; cooling = one_of(air, cp); holds = [light] }\n"
	"zone dense_row { rack = r; cooling = one_of(air, cp); holds = [dense] }\n"
	"cluster c { site = s; nodes = [20 x light, 8 x dense]; zones = [hall, dense_row] }\n"
	"minimize c.capex\n";

static void chosen(bool exhaustive)
{
	Built *b = unit_build(CHOICE, NULL, NULL, exhaustive);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_STRING_EQUAL(d->zones[0].cooling_type->name, "air");
	CU_ASSERT_STRING_EQUAL(d->zones[1].cooling_type->name, "cp");
	CU_ASSERT_EQUAL(d->decisions.n, 2);
	/* hall: 4 light nodes a rack (air's 40 kW); dense_row: 2 chassis a rack (96 ... 100 kW,
	 * 2 x 16 U of 48) */
	CU_ASSERT_EQUAL(d->groups[0].per_rack, 4);
	CU_ASSERT_EQUAL(d->groups[1].per_rack, 2);
	CU_ASSERT_DOUBLE_EQUAL(d->t.capex_by_cat[CAT_COOLING], 200 * 1000.0 + 400 * 2000.0, 1e-6);
	unit_build_done(b);
}

static void test_cooling_per_zone(void)
{
	chosen(false);
	chosen(true);
}

void suite_zones(void)
{
	CU_pSuite s = CU_add_suite("zones", NULL, NULL);
	CU_add_test(s, "two models in two zones, sized and costed", test_two_models_two_zones);
	CU_add_test(s, "the optimizer cools each zone its own way", test_cooling_per_zone);
}
