/*
 * test_cooling.c — the cooling plant (passes/design/cooling_plant.c): one unit sized by hand
 * for each redundancy and for racks per unit; a build whose PUE, energy, heat reuse credit and
 * ERE are worked by hand from its plant and its climate; the standard library's plants against
 * published PUEs; racks of two coolings sized as two groups; the optimizer with cooling as a
 * choice.
 */
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void suite_cooling(void);

static Part unit(int kind, int serves, double capacity, int red, int m, double ratio, double capex)
{
	Part p = {.kind = KIND_COOLING_UNIT, .name = "u"};
	p.cunit.unit = kind;
	p.cunit.serves = serves;
	p.cunit.capacity = capacity;
	p.cunit.redundancy = red;
	p.cunit.module_count = m;
	p.cunit.power_ratio = ratio;
	p.cunit.capex_per_w = capex;
	return p;
}

/* 2,000 kW of heat, by hand. */
static void test_unit_sizing(void)
{
	CoolingUnitInst u;
	/* 600 kW units: ceil(2000 / 600) = 4; N: 4, N+1: 5, 2N: 8, block of 3 (any one down):
	 * 3 x ceil(4 / 2) = 6. */
	Part p = unit(CU_CDU, HS_ALL, 600e3, RED_N, 1, 0.02, 0.2);
	cooling_plant_unit(&p, 2000e3, 1500e3, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.installed, 2400e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(u.power, 40e3, 1e-6);       /* 2 % of 2,000 kW */
	CU_ASSERT_DOUBLE_EQUAL(u.avg_power, 30e3, 1e-6);   /* 2 % of 1,500 kW */
	CU_ASSERT_DOUBLE_EQUAL(u.capex, 2400e3 * 0.2, 1e-6);
	p.cunit.redundancy = RED_N_PLUS_1;
	cooling_plant_unit(&p, 2000e3, 2000e3, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 5, 0);
	p.cunit.redundancy = RED_TWO_N;
	cooling_plant_unit(&p, 2000e3, 2000e3, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.installed, 4800e3, 1e-6);
	p.cunit.redundancy = RED_BLOCK, p.cunit.module_count = 3;
	cooling_plant_unit(&p, 2000e3, 2000e3, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 6, 0);
	/* A CDU per row of 10 racks: 55 racks need 6, more than the 4 the heat needs. */
	p.cunit.redundancy = RED_N, p.cunit.racks_per_unit = 10;
	cooling_plant_unit(&p, 2000e3, 2000e3, 55, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 6, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.installed, 3600e3, 1e-6);
	/* Sized linearly (the switch racks' share while choices are explored): the load times
	 * the redundancy's factor, N+1 of 4: 5/4, whatever the capacity. */
	p = unit(CU_CDU, HS_ALL, 600e3, RED_N_PLUS_1, 4, 0.02, 0.2);
	cooling_plant_unit(&p, 2000e3, 2000e3, 55, false, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.installed, 2500e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(u.capex, 2500e3 * 0.2, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(u.power, 40e3, 1e-6);
	/* Without a capacity: the load times the redundancy's factor (2N: twice). */
	p = unit(CU_DRY_COOLER, HS_ALL, NAN, RED_TWO_N, 1, 0.03, 0);
	cooling_plant_unit(&p, 2000e3, 2000e3, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.installed, 4000e3, 1e-6);
	/* A chiller stops in the free-cooling hours: a quarter of the year free, 3/4 of its
	 * power over the year; the dry cooler above runs all year. */
	p = unit(CU_CHILLER, HS_ALL, 1000e3, RED_N_PLUS_1, 1, 0.2, 0);
	cooling_plant_unit(&p, 2000e3, 2000e3, 10, true, 0.25, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.power, 400e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(u.avg_power, 300e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 3, 0);
	/* Nothing to carry: nothing installed. */
	cooling_plant_unit(&p, 0, 0, 10, true, 0, &u);
	CU_ASSERT_DOUBLE_EQUAL(u.units, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(u.power, 0, 0);
	/* The heat a unit carries: a cooling with 75 % of it in liquid. */
	Part cool = {.kind = KIND_COOLING};
	cool.cooling.liquid_fraction = 0.75;
	p.cunit.serves = HS_LIQUID;
	CU_ASSERT_DOUBLE_EQUAL(cooling_plant_load(&p, &cool, 1000e3), 750e3, 1e-6);
	p.cunit.serves = HS_AIR;
	CU_ASSERT_DOUBLE_EQUAL(cooling_plant_load(&p, &cool, 1000e3), 250e3, 1e-6);
	p.cunit.serves = HS_ALL;
	CU_ASSERT_DOUBLE_EQUAL(cooling_plant_load(&p, &cool, 1000e3), 1000e3, 1e-6);
}

static const char *PLANT =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"node n { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
	"cooling_unit cdu { unit = cdu; serves = liquid; capacity = 500 kW; redundancy = n_plus_1\n"
	"  power_ratio = 0.02; capex_per_kw = 200 USD/kW }\n"
	"cooling_unit dry { unit = dry_cooler; serves = liquid; redundancy = two_n; power_ratio = 0.03 }\n"
	"cooling_unit crah { unit = air_handler; serves = air; capacity = 100 kW; power_ratio = 0.08 }\n"
	"cooling_unit chiller { unit = chiller; serves = air; capacity = 1 MW; redundancy = n_plus_1\n"
	"  power_ratio = 0.2 }\n"
	"cooling liquid { type = cold_plate; liquid_fraction = 0.75; max_rack_power = 100 kW\n"
	"  capex_per_kw = 1_000 USD/kW; plant = [cdu, dry, crah, chiller] }\n"
	"rack r { height = 48 U; power_limit = 50 kW; cooling = liquid }\n"
	"site s { power_budget = 2 MW; electricity = 0.10 USD/kWh\n"
	"  free_cooling_hours = 4380; heat_reuse = 0.2; heat_price = 0.05 USD/kWh }\n"
	"cluster c { site = s; nodes = 100 x n; rack = r }\n";

/* 100 nodes of 10 kW, 1,000 kW of heat: 750 kW in liquid, 250 kW in air; half the year free.
 *   cdu      ceil(750 / 500) = 2, +1 = 3 units, 1,500 kW; 2 % of 750 = 15 kW
 *   dry      2N without a size: 1,500 kW installed; 3 % of 750 = 22.5 kW
 *   crah     ceil(250 / 100) = 3 units, 300 kW; 8 % of 250 = 20 kW
 *   chiller  1 + 1 = 2 units, 2,000 kW; 20 % of 250 = 50 kW at peak, 25 kW over the year
 * cooling 107.5 kW at peak (pPUE 1.1075), 82.5 kW over the year (1.0825); no power chain.
 * Energy 1,000 kW x 1.0825 x 8,760 h = 9,482,700 kWh, 948,270 USD; heat reused 20 % of
 * 8,760,000 kWh = 1,752,000 kWh, a credit of 87,600 USD; ERE (9,482,700 - 1,752,000) /
 * 8,760,000 = 0.8825. */
static void test_plant_by_hand(void)
{
	Built *b = unit_build(PLANT, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const Totals *t = &d->t;
	CU_ASSERT_DOUBLE_EQUAL(t->it_power, 1000e3, 1e-6);
	CU_ASSERT_EQUAL_FATAL(d->ncool_groups, 1);
	const CoolingGroup *g = &d->cool_groups[0];
	CU_ASSERT_EQUAL(g->racks, 20);
	CU_ASSERT_DOUBLE_EQUAL(g->heat, 1000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->liquid_heat, 750e3, 1e-6);
	CU_ASSERT_EQUAL_FATAL(g->nunits, 4);
	CU_ASSERT_DOUBLE_EQUAL(g->units[0].units, 3, 0);
	CU_ASSERT_DOUBLE_EQUAL(g->units[0].installed, 1500e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[0].power, 15e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[0].capex, 1500 * 200, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[1].installed, 1500e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[1].power, 22.5e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[2].units, 3, 0);
	CU_ASSERT_DOUBLE_EQUAL(g->units[2].power, 20e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[3].units, 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(g->units[3].power, 50e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(g->units[3].avg_power, 25e3, 1e-6);
	/* capex: the cooling's 1,000 USD per kW of heat and the CDUs' 300,000 USD */
	CU_ASSERT_DOUBLE_EQUAL(g->capex, 1000 * 1000 + 300000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_COOLING], 1300000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->cooling_power, 107.5e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->cooling_avg_power, 82.5e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->pue, 1.1075, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->pue_annual, 1.0825, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->facility_power, 1107.5e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy / 3.6e6, 9482700, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy_gross_cost, 948270, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->heat_reused / 3.6e6, 1752000, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->heat_credit, 87600, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy_cost, 948270 - 87600, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->tco, t->capex + 5 * (948270 - 87600), 1e-3);
	unit_build_done(b);
}

/* The standard library's plants (std.cooling) with its HVDC and AC UPS chains (std.power),
 * against published PUEs:
 *   - the seed articles: liquid cooling gets "PUE below 1.1" (PRODUCT.md section 2):
 *     immersion with an HVDC 2N chain, no free cooling, 1.04 / 0.952 = 1.092;
 *   - Google's fleet, trailing twelve months to 2021 Q2: 1.10 (CNBC, "Google data center
 *     goal: 100 % green energy by 2030", 2022-04-13, quoting Google's efficiency page), air
 *     cooled with economisers all year: air with 8,760 h of free cooling and HVDC, 1.11 /
 *     0.952 = 1.166, within 0.1 of it;
 *   - Uptime Institute's 2021 survey average of large data centers, 1.57 (same article): a new
 *     air-cooled hall without free cooling on AC UPS 2N, 1.28 / 0.922 = 1.388, below the
 *     average of the installed base. */
static const char *STD =
	"import std.accelerators\nimport std.cooling\nimport std.power\n"
	"node n { accelerators = 8 x H100_SXM; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
	"rack r { height = 48 U; power_limit = 50 kW; cooling = %s }\n"
	"site s { power_budget = 20 MW; electricity = 0.10 USD/kWh; power = %s\n"
	"  free_cooling_hours = %d }\n"
	"cluster c { site = s; nodes = 100 x n; rack = r }\n";

static double std_pue(const char *cooling, const char *power, int hours, double *annual)
{
	char spec[2048];
	snprintf(spec, sizeof spec, STD, cooling, power, hours);
	Built *b = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL(b->errors, 0);
	double pue = b->errors ? NAN : b->d.t.pue;
	*annual = b->errors ? NAN : b->d.t.pue_annual;
	unit_build_done(b);
	return pue;
}

static void test_published_pue(void)
{
	double annual;
	double imm = std_pue("immersion", "hvdc_2n", 0, &annual);
	CU_ASSERT(imm < 1.1);
	CU_ASSERT_DOUBLE_EQUAL(imm, 1.04 / (0.999 * 0.99 * 0.97 * 0.996 * 0.996), 1e-9);
	double air_peak = std_pue("air", "hvdc_2n", 8760, &annual);
	CU_ASSERT(fabs(annual - 1.10) < 0.1);
	CU_ASSERT(air_peak > annual); /* the design day has no free cooling */
	double air = std_pue("air", "ac_ups_2n", 0, &annual);
	CU_ASSERT(air < 1.57);
	CU_ASSERT(air > 1.3);
	CU_ASSERT_DOUBLE_EQUAL(annual, air, 1e-12); /* no free cooling: the same all year */
	/* Cold plate sits between immersion and air, and free cooling lowers it. */
	double cp0 = std_pue("cold_plate", "hvdc_2n", 0, &annual);
	double cp1 = std_pue("cold_plate", "hvdc_2n", 8760, &annual);
	CU_ASSERT(cp0 > imm && cp0 < air_peak);
	CU_ASSERT(annual < cp0);
	CU_ASSERT_DOUBLE_EQUAL(cp1, cp0, 1e-12);
}

/* Switch racks of another cooling than the node racks: two groups, each sized for its own
 * racks' heat, which add up to the IT load. */
static const char *TWO =
	"import std.accelerators\nimport std.network\nimport std.cooling\nimport std.power\n"
	"import std.racks\n"
	"node n { accelerators = 8 x H100_SXM; nics = 8 x CX7_400G; power = 10 kW; height = 8 U\n"
	"  price = 100_000 USD }\n"
	"rack r { height = 48 U; power_limit = 50 kW; cooling = %s }\n"
	"site s { power_budget = 20 MW; electricity = 0.10 USD/kWh; power = hvdc_2n }\n"
	"fabric f { topology = fat_tree(tiers = 2); switch = QM9700; link = 400 Gbps }\n"
	"cluster c { site = s; nodes = 64 x n; rack = r; fabrics = [f] }\n";

static void test_two_groups(void)
{
	char spec[2048];
	snprintf(spec, sizeof spec, TWO, "cold_plate");
	Built *b = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	CU_ASSERT_EQUAL_FATAL(d->ncool_groups, 2);
	CU_ASSERT_PTR_EQUAL(d->cool_groups[0].cooling, d->cooling_type);
	CU_ASSERT_PTR_EQUAL(d->cool_groups[1].cooling, d->net_cooling_type);
	double heat = 0, power = 0;
	int racks = 0;
	for (int i = 0; i < d->ncool_groups; i++)
		heat += d->cool_groups[i].heat, power += d->cool_groups[i].power,
			racks += d->cool_groups[i].racks;
	CU_ASSERT_EQUAL(racks, d->nracks);
	CU_ASSERT_EQUAL(d->cool_groups[1].racks, d->network_racks);
	CU_ASSERT_DOUBLE_EQUAL(heat, d->t.it_power, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(power, d->t.cooling_power, 1e-6);
	unit_build_done(b);
}

/* Cooling as an open choice: the optimizer's pick is the exhaustive search's, and with the
 * same electricity the liquid plant's lower power wins over a horizon long enough. */
static void test_cooling_choice(void)
{
	char spec[2048];
	snprintf(spec, sizeof spec,
		 "%s" "minimize c.capex + 10 y * c.energy_cost\n",
		 "import std.accelerators\nimport std.cooling\nimport std.power\n"
		 "node n { accelerators = 8 x H100_SXM; power = 10 kW; height = 8 U; price = 100_000 USD }\n"
		 "rack r { height = 48 U; power_limit = 40 kW; cooling = one_of(air, cold_plate, immersion) }\n"
		 "site s { power_budget = 20 MW; electricity = 0.30 USD/kWh; power = hvdc_2n }\n"
		 "cluster c { site = s; nodes = 100 x n; rack = r }\n");
	Built *b = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	/* By name: each build has parts of its own (under the sanitizers at other addresses). */
	char milp[64];
	snprintf(milp, sizeof milp, "%s", b->d.cooling_type->name);
	double objective = b->d.objective[0];
	unit_build_done(b);
	b = unit_build(spec, NULL, NULL, true);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_STRING_EQUAL(b->d.cooling_type->name, milp);
	CU_ASSERT_DOUBLE_EQUAL(b->d.objective[0], objective, 1e-6 * objective);
	CU_ASSERT_STRING_NOT_EQUAL(b->d.cooling_type->name, "air");
	unit_build_done(b);
}

/* Free-cooling hours from the climate, by hand (docs/models.md): mean wet-bulb 10 C, 0.4 %
 * design 23.26 C, so sigma = 13.26 / 2.652 = 5.0.
 *   warm  W32, 7 K approach:  z = (32 - 7 - 10) / 5 = 3.0,  Phi = 0.998650, 8,748.2 h
 *   cool  18 C, 4 K:          z = (18 - 4 - 10) / 5 = 0.8,  Phi = 0.788145, 6,904.1 h
 *   cold  12 C, 4 K:          z = (12 - 4 - 10) / 5 = -0.4, Phi = 0.344578, 3,018.5 h
 *   none  no supply_temperature: 0
 * A site's free_cooling_hours holds for every cooling instead. */
#define CLIMATE(SITE)                                                                        \
	("accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"                     \
	 "node n { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 100_000 USD }\n"    \
	 "cooling warm { type = cold_plate; pue = 1.1; max_rack_power = 100 kW\n"                 \
	 "  supply_temperature = 32; approach = 7 }\n"                                             \
	 "cooling cool { type = air; pue = 1.3; max_rack_power = 40 kW; supply_temperature = 18\n" \
	 "  approach = 4 }\n"                                                                       \
	 "cooling cold { type = air; pue = 1.3; max_rack_power = 40 kW; supply_temperature = 12\n" \
	 "  approach = 4 }\n"                                                                       \
	 "cooling none { type = air; pue = 1.3; max_rack_power = 40 kW }\n"                       \
	 "rack r { height = 48 U; power_limit = 40 kW; cooling = warm }\n"                        \
	 "site s { power_budget = 2 MW; electricity = 0.10 USD/kWh; " SITE " }\n"                 \
	 "cluster c { site = s; nodes = 8 x n; rack = r }\n")

static void test_wet_bulb(void)
{
	Built *b = unit_build(CLIMATE("wet_bulb_mean = 10; wet_bulb_design = 23.26"), NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Design *d = &b->d;
	const char *names[] = {"warm", "cool", "cold", "none"};
	const double share[] = {0.998650, 0.788145, 0.344578, 0};
	for (int k = 0; k < 4; k++) {
		const Part *c = NULL;
		for (int i = 0; i < d->nparts; i++)
			if (d->parts[i].kind == KIND_COOLING && !strcmp(d->parts[i].name, names[k]))
				c = &d->parts[i];
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_DOUBLE_EQUAL(cooling_free_share(d->site, c), share[k], 1e-6);
	}
	CU_ASSERT_DOUBLE_EQUAL(d->t.free_cooling_share, 0.998650, 1e-6); /* every rack is warm */
	unit_build_done(b);
	/* The site's hours stand in for the wet-bulb's. */
	b = unit_build(CLIMATE("free_cooling_hours = 2190; wet_bulb_mean = 10; wet_bulb_design = 23.26"),
		       NULL, NULL, false);
	CU_ASSERT_EQUAL(b->errors, 0);
	CU_ASSERT_DOUBLE_EQUAL(b->d.t.free_cooling_share, 0.25, 1e-12);
	unit_build_done(b);
}

void suite_cooling(void)
{
	CU_pSuite s = CU_add_suite("cooling", NULL, NULL);
	CU_add_test(s, "one unit sized by hand", test_unit_sizing);
	CU_add_test(s, "a plant and its PUE by hand", test_plant_by_hand);
	CU_add_test(s, "std.cooling against published PUEs", test_published_pue);
	CU_add_test(s, "switch racks of their own cooling", test_two_groups);
	CU_add_test(s, "cooling as a choice", test_cooling_choice);
	CU_add_test(s, "free-cooling hours from the wet-bulb by hand", test_wet_bulb);
}
