/*
 * test_power.c — the power chain (passes/design/power_chain.c): one stage sized by hand for
 * each redundancy, and two builds that differ only in their chain (HVDC against AC UPS), whose
 * facility power differs by the chains' efficiencies and nothing else.
 */
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>

void suite_power(void);

static Part stage(int red, int m, double eff, double unit, double capex_per_w)
{
	Part p = {.kind = KIND_POWER_STAGE, .name = "s"};
	p.stage.stage = PS_UPS;
	p.stage.redundancy = red;
	p.stage.module_count = m;
	p.stage.efficiency = eff;
	p.stage.unit_capacity = unit;
	p.stage.capex_per_w = capex_per_w;
	return p;
}

/* 1,000 kW delivered, by hand. */
static void test_stage_sizing(void)
{
	PowerStageInst s;
	/* 2N of 500 kW units: 2 a side, 4 in all; one side carries 500 kW a unit. */
	Part p = stage(RED_TWO_N, 1, 0.96, 500e3, 0.1);
	power_chain_stage(&p, 1000e3, &s);
	CU_ASSERT_DOUBLE_EQUAL(s.units, 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.installed, 2000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.failure_load, 500e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.input, 1000e3 / 0.96, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.loss, 1000e3 / 0.96 - 1000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.capex, 2000e3 * 0.1, 1e-6);
	/* N+1 of 300 kW: ceil(1000/300) = 4, plus one: 5 units, 1,500 kW; 250 kW a unit with one
	 * down. */
	p = stage(RED_N_PLUS_1, 1, 1, 300e3, 0);
	power_chain_stage(&p, 1000e3, &s);
	CU_ASSERT_DOUBLE_EQUAL(s.units, 5, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.installed, 1500e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.failure_load, 250e3, 1e-6);
	/* Block, 4 make 3, units of 250 kW: each block carries 1000/3 kW -> 2 units; 8 units,
	 * 2,000 kW; one block down leaves 6 units of 166.7 kW each. */
	p = stage(RED_BLOCK, 4, 1, 250e3, 0);
	power_chain_stage(&p, 1000e3, &s);
	CU_ASSERT_DOUBLE_EQUAL(s.units, 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.installed, 2000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.failure_load, 1000e3 / 6, 1e-6);
	/* Without a unit rating: the load times (m+1)/m, 4/3 for block of 4, 2 for 2N. */
	p = stage(RED_N_PLUS_1, 6, 1, NAN, 0);
	power_chain_stage(&p, 1000e3, &s);
	CU_ASSERT_DOUBLE_EQUAL(s.installed, 1000e3 * 7 / 6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.units, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(power_chain_factor(RED_BLOCK, 4), 4.0 / 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(power_chain_factor(RED_TWO_N, 3), 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(power_chain_factor(RED_N, 3), 1, 0);
	/* Rack feeds: A/B of one feed a side, one carries all; block of 3 feeds, a half each. */
	double share;
	p = stage(RED_TWO_N, 1, 1, 30e3, 0);
	CU_ASSERT_EQUAL(power_chain_feeds_of(&p, &share), 2);
	CU_ASSERT_DOUBLE_EQUAL(share, 1, 0);
	p = stage(RED_BLOCK, 3, 1, 30e3, 0);
	CU_ASSERT_EQUAL(power_chain_feeds_of(&p, &share), 3);
	CU_ASSERT_DOUBLE_EQUAL(share, 0.5, 0);
}

static const char *SPEC =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"node n { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
	"cooling liquid { type = cold_plate; pue = 1.05; max_rack_power = 100 kW }\n"
	"rack r { height = 48 U; power_limit = 50 kW; cooling = liquid }\n"
	"power_stage xf { stage = transformer; efficiency = 0.99; redundancy = two_n\n"
	"  unit_capacity = 2 MW; capex_per_kw = 40 USD/kW }\n"
	"power_stage ups { stage = ups; efficiency = 0.955; redundancy = two_n; capex_per_kw = 200 USD/kW }\n"
	"power_stage dc { stage = hvdc; efficiency = 0.97; redundancy = two_n; capex_per_kw = 160 USD/kW }\n"
	"power_stage pdu { stage = pdu; efficiency = 0.98; redundancy = two_n }\n"
	"power_stage bus { stage = busway; efficiency = 0.996; redundancy = two_n }\n"
	"power_stage feed { stage = rack_feed; efficiency = 0.996; redundancy = two_n; capex_per_kw = 25 USD/kW }\n"
	"power %s\n"
	"site s { power_budget = 2 MW; electricity = 0.10 USD/kWh; power = p }\n"
	"cluster c { site = s; nodes = 100 x n; rack = r }\n";

/* Facility power is IT x cooling pPUE / the chain's efficiency: HVDC over AC UPS by the ratio
 * of the two chains' efficiencies, the IT load the same. */
static void test_hvdc_against_ac_ups(void)
{
	char spec[4096];
	double ea = 0.99 * 0.955 * 0.98 * 0.996, eh = 0.99 * 0.97 * 0.996 * 0.996;
	/* One Built at a time (unit_build.h): the HVDC design's totals first. */
	snprintf(spec, sizeof spec, SPEC, "p { type = hvdc; redundancy = two_n; chain = [xf, dc, bus, feed] }");
	Built *dc = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(dc->errors, 0);
	Totals h = dc->d.t;
	unit_build_done(dc);
	snprintf(spec, sizeof spec, SPEC, "p { type = ac_ups; redundancy = two_n; chain = [xf, ups, pdu, feed] }");
	Built *ac = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(ac->errors, 0);
	const Totals *a = &ac->d.t;
	CU_ASSERT_DOUBLE_EQUAL(a->it_power, 1000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(h.it_power, a->it_power, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(a->power_efficiency, ea, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(h.power_efficiency, eh, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a->facility_power, 1000e3 * 1.05 / ea, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(h.facility_power, 1000e3 * 1.05 / eh, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(a->facility_power / h.facility_power, eh / ea, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a->power_losses, 1000e3 / ea - 1000e3, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(h.annual_energy / a->annual_energy, ea / eh, 1e-12);
	/* Stages by hand: the feed delivers the IT load; the transformer 2 x ceil(load / 2 MW)
	 * units of 2 MW; the UPS (no unit rating) 2N of its load. */
	CU_ASSERT_EQUAL_FATAL(ac->d.nstages, 4);
	const PowerStageInst *s = ac->d.stages;
	CU_ASSERT_DOUBLE_EQUAL(s[3].load, 1000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s[2].load, 1000e3 / 0.996, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s[1].installed, 2 * 1000e3 / 0.996 / 0.98, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s[0].units, 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(s[0].installed, 4e6, 1e-6);
	/* 20 racks of 5 nodes (50 kW class), feeds A and B each rated at the class. */
	CU_ASSERT_EQUAL(ac->d.nracks, 20);
	CU_ASSERT_DOUBLE_EQUAL(s[3].installed, 20 * 2 * 50e3, 1e-6);
	CU_ASSERT_EQUAL(ac->d.racks[0].feeds, 2);
	CU_ASSERT_DOUBLE_EQUAL(ac->d.racks[0].feed_failure_load, 50e3, 1e-6);
	unit_build_done(ac);
}

void suite_power(void)
{
	CU_pSuite s = CU_add_suite("power", NULL, NULL);
	CU_add_test(s, "one stage sized by hand", test_stage_sizing);
	CU_add_test(s, "HVDC against AC UPS", test_hvdc_against_ac_ups);
}
