/*
 * test_model.c — the design passes: rack planning, the power, cost and energy model, the choice
 * search and elaboration, on the seed article's case and on small hand-checked specs.
 */
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void suite_model(void);

static const double KWH = 3.6e6; /* J */

static Built *build(const char *text, const char *path)
{
	return unit_build(text, path, NULL, false);
}

static void done(Built *b)
{
	unit_build_done(b);
}

/* PRODUCT §2 and issue 3: the seed article's figures, to the unit. */
static void test_seed(void)
{
	Built *b = build(NULL, CLUSTERC_SOURCE_DIR "/examples/seed-wanka-h100.cluster");
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Totals *t = &b->d.t;
	CU_ASSERT_EQUAL(t->nodes, 1250);
	CU_ASSERT_EQUAL(t->accelerators, 10000);
	CU_ASSERT_DOUBLE_EQUAL(t->power_by_cat[CAT_NODES], 12750e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NODES], 2.5e9, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->pue, 1.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy / KWH, 122859000, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy_cost, 73715400, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->facility_power, 14025e3, 1e-3);
	/* 100 kW racks of 48 U hold 6 nodes of 8 U (48 U), 61.2 kW: 209 racks. */
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 6);
	CU_ASSERT_EQUAL(b->d.nracks, 209);
	CU_ASSERT_EQUAL(b->d.nnodes, 1250);
	CU_ASSERT_EQUAL(b->d.naccels, 10000);
	CU_ASSERT_STRING_EQUAL(b->d.nodes[0].hostname, "node0001");
	CU_ASSERT_STRING_EQUAL(b->d.nodes[1249].hostname, "node1250");
	done(b);
}

static const char *BASE =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"nic n400 { speed = 400 Gbps; power = 20 W; price = 1000 USD }\n"
	"node n { accelerators = 8 x g; nics = 8 x n400; base_power = 2 kW; height = 8 U\n"
	"  price = 100_000 USD; price_includes_nics = false }\n"
	"cooling air { type = air; pue = 1.5; max_rack_power = 30 kW; capex_per_kw = 100 USD/kW }\n"
	"cooling liquid { type = cold_plate; pue = 1.1; max_rack_power = 100 kW; capex_per_kw = 400 USD/kW }\n"
	"power ups { redundancy = two_n; capex_per_kw = 200 USD/kW }\n"
	"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh; power = ups\n"
	"  floor = grid(rows = 4, racks_per_row = 10); carbon_intensity = 0.5 kg/kWh }\n";

/* Node power from its parts; NICs priced apart; racks by power; cooling and 2N power capex. */
static void test_parts_and_capex(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = 30 kW; cooling = air; price = 2000 USD }\n"
		 "cluster c { site = s; nodes = 10 x n; rack = r; utilization = 80 %%; horizon = 3 y }\n",
		 BASE);
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Totals *t = &b->d.t;
	double node_w = 8 * 700 + 8 * 20 + 2000; /* 7,760 W */
	CU_ASSERT_DOUBLE_EQUAL(b->d.groups[0].type->power, node_w, 1e-9);
	/* 30 kW / 7.76 kW = 3 per rack (42 U would take 5): 4 racks. */
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 3);
	CU_ASSERT_EQUAL(t->racks, 4);
	CU_ASSERT_DOUBLE_EQUAL(t->it_power, 10 * node_w, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NODES], 1e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NETWORK], 80 * 1000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_RACKS], 8000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_COOLING], 77.6 * 100, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_POWER], 2 * 77.6 * 200, 1e-6);
	/* Energy at 80 % of node power, PUE 1.5, 8,760 h, 0.10 USD/kWh; TCO over 3 years. */
	double kwh = 77.6 * 0.8 * 1.5 * 8760;
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy / KWH, kwh, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy_cost, kwh * 0.10, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->tco, t->capex + 3 * kwh * 0.10, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_carbon, kwh * 0.5, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->peak_compute, 80 * 1e15, 1);
	/* Racks on the grid row by row. */
	CU_ASSERT_STRING_EQUAL(b->d.racks[0].name, "A01");
	CU_ASSERT_STRING_EQUAL(b->d.racks[3].name, "A04");
	CU_ASSERT_EQUAL(b->d.nodes[9].rack, 3);
	CU_ASSERT_EQUAL(b->d.nodes[4].u, 9);
	done(b);
}

/* A capacity planner's spec: storage and other loads, a 0.7 utilization, 2N power with a
 * conversion efficiency, a grid carbon intensity and a 3-year horizon (docs/models.md). */
static const char *PLANNER =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"nic n400 { speed = 400 Gbps; power = 20 W; price = 1000 USD }\n"
	"node n { accelerators = 8 x g; nics = 8 x n400; power = 10 kW; height = 8 U; price = 200_000 USD }\n"
	"storage fs { capacity = 1 PB; power = 5 kW; height = 4 U; price = 300_000 USD }\n"
	"cooling cp { type = cold_plate; pue = 1.2; max_rack_power = 100 kW; capex_per_kw = 2_000 USD/kW }\n"
	"power ups { redundancy = %s; module_count = 6; capex_per_kw = 500 USD/kW; efficiency = 96 %% }\n"
	"rack r { height = 48 U; power_limit = %s; cooling = cp; price = 10_000 USD }\n"
	"site s { power_budget = 5 MW; electricity = 0.08 USD/kWh; power = ups; %s }\n"
	"cluster c { site = s; nodes = 100 x n; rack = r; storage = 4 x fs\n"
	"  other_power = 50 kW; utilization = 0.7; horizon = 3 y }\n";

/* Every model of docs/models.md on one hand-computed case. */
static void test_loads_pue_energy_carbon(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, PLANNER, "two_n", "50 kW", "carbon_intensity = 0.4 kg/kWh");
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Totals *t = &b->d.t;
	/* IT power by category: 100 x 10 kW (declared: the NICs are inside it), 4 x 5 kW, 50 kW. */
	CU_ASSERT_DOUBLE_EQUAL(t->power_by_cat[CAT_NODES], 1000e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->power_by_cat[CAT_STORAGE], 20e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->power_by_cat[CAT_OTHER], 50e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->it_power, 1070e3, 1e-6);
	CU_ASSERT_EQUAL(t->storage_units, 4);
	/* Utilization applies to the nodes only: 1,000 x 0.7 + 20 + 50 = 770 kW. */
	CU_ASSERT_DOUBLE_EQUAL(t->avg_it_power, 770e3, 1e-6);
	/* PUE of the cooling over the power system's efficiency: 1.2 / 0.96 = 1.25. */
	CU_ASSERT_DOUBLE_EQUAL(t->pue, 1.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->facility_power, 1337.5e3, 1e-6);
	/* Racks: 50 kW / 10 kW = 5 nodes (48 U would take 6): 20 racks; 4 appliances in 1 more. */
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 5);
	CU_ASSERT_EQUAL(t->racks, 21);
	/* 770 kW x 1.25 x 8,760 h = 8,431,500 kWh; x 0.08 USD = 674,520 USD; x 0.4 kg = 3,372.6 t. */
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy / KWH, 8431500, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy_cost, 674520, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_carbon, 3372600, 1e-6);
	/* Capex: NICs inside the node price; cooling per kW of IT; 2N doubles the power plant. */
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NODES], 20e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NETWORK], 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_STORAGE], 1.2e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_RACKS], 210e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_COOLING], 1070 * 2000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->power_capacity, 2 * 1070e3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_POWER], 2 * 1070 * 500.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex, 24.62e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->tco, 24.62e6 + 3 * 674520, 1e-6);
	done(b);

	/* The site's PUE overrides the cooling's (and the efficiency); N+1 over 6 modules installs
	 * 7/6 of the load; no carbon intensity, no carbon figure. */
	snprintf(spec, sizeof spec, PLANNER, "n_plus_1", "50 kW", "pue = 1.3");
	b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	t = &b->d.t;
	CU_ASSERT_DOUBLE_EQUAL(t->pue, 1.3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->facility_power, 1070e3 * 1.3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->annual_energy / KWH, 770 * 1.3 * 8760, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->power_capacity, 1070e3 * 7 / 6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_POWER], 1070 * 7 / 6.0 * 500, 1e-6);
	CU_ASSERT_TRUE(isnan(t->annual_carbon));
	done(b);

	/* N installs the load itself. A 150 kW power class under 100 kW cooling: 48 U hold 6
	 * nodes, the cooling 10, the power class 15: 6 a rack. */
	snprintf(spec, sizeof spec, PLANNER, "n", "150 kW", "pue = 1.3");
	b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_DOUBLE_EQUAL(b->d.t.power_capacity, 1070e3, 1e-6);
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 6);
	done(b);
}

/* The cooling's rack limit caps a rack below its power class. */
static void test_cooling_limit(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, "%s"
		 "node big { accelerators = 8 x g; power = 12 kW; height = 4 U; price = 1 USD }\n"
		 "rack r { height = 42 U; power_limit = 80 kW; cooling = air }\n"
		 "cluster c { site = s; nodes = 10 x big; rack = r }\n",
		 BASE);
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	/* air cools 30 kW a rack: 2 nodes of 12 kW (80 kW would take 6; 42 U, 10). */
	CU_ASSERT_EQUAL(b->d.groups[0].per_rack, 2);
	CU_ASSERT_EQUAL(b->d.t.racks, 5);
	done(b);
}

/* Spares: whole nodes (and their NICs when bought apart) on the shelf, capex only. */
static void test_spares(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = 30 kW; cooling = air }\n"
		 "cluster c { site = s; nodes = 10 x n; rack = r; spares = 25 %% }\n",
		 BASE);
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Totals *t = &b->d.t;
	/* ⌈10 x 25 %⌉ = 3 spares: 13 nodes and 13 x 8 NICs bought; 10 racked and powered. */
	CU_ASSERT_EQUAL(t->nodes, 10);
	CU_ASSERT_EQUAL(t->racks, 4);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NODES], 13 * 100000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->capex_by_cat[CAT_NETWORK], 13 * 8 * 1000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(t->it_power, 10 * 7760.0, 1e-6);
	done(b);
}

/* The choice search keeps the cheapest feasible design and records what it saved. */
static void test_choices(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = one_of(30 kW, 60 kW); cooling = one_of(air, liquid) }\n"
		 "cluster c { site = s; nodes = 100 x n; rack = r; horizon = 5 y }\n"
		 "require c.facility_power <= s.power_budget\n"
		 "minimize c.capex + 5 y * c.energy_cost\n",
		 BASE);
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.decisions.n, 2);
	CU_ASSERT_EQUAL(b->d.combinations, 4);
	/* Air at 60 kW cannot be cooled (30 kW max): it would hold the same 3 nodes as 30 kW.
	 * Liquid: PUE 1.1 saves more energy over 5 years than its extra capex costs. */
	const Decision *cool = b->d.decisions.v[1];
	CU_ASSERT_STRING_EQUAL(cool->chosen_text, "liquid");
	CU_ASSERT_FALSE(isnan(cool->next_best));
	done(b);

	/* Infeasible everywhere: the power budget. Exit 2 with the numbers. */
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = 30 kW; cooling = air }\n"
		 "cluster c { site = s; nodes = 1000 x n; rack = r }\n",
		 BASE);
	b = build(spec, NULL);
	CU_ASSERT_EQUAL(b->p.unmet, 2); /* the budget and the floor (334 racks, 40 places) */
	done(b);
}

/* A node that fits no rack, and a hostname template that repeats itself. */
static void test_violations(void)
{
	char spec[4096];
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = 5 kW; cooling = air }\n"
		 "cluster c { site = s; nodes = 2 x n; rack = r }\n",
		 BASE);
	Built *b = build(spec, NULL);
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	done(b);
	snprintf(spec, sizeof spec, "%s"
		 "rack r { height = 42 U; power_limit = 30 kW; cooling = air }\n"
		 "cluster c { site = s; nodes = 4 x n; rack = r; hostname = \"gpu{slot}\" }\n",
		 BASE);
	b = build(spec, NULL);
	CU_ASSERT_TRUE(b->errors > 0);
	CU_ASSERT_EQUAL(b->p.unmet, 0);
	done(b);
}


/* A node's price from its parts, a bundle price, and a bundle under an override of its
 * accelerators (docs/models.md, "Node prices"). */
static const char *PRICED =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W; price = 20_000 USD }\n"
	"accelerator g2 { memory = 141 GB; bf16 = 1000 TFLOPS; tdp = 700 W; price = 26_000 USD }\n"
	"nic n400 { speed = 400 Gbps; power = 20 W; price = 1000 USD }\n"
	"node n { accelerators = 8 x g; nics = 8 x n400; base_power = 2 kW; height = 8 U; %s }\n"
	"cooling air { type = air; pue = 1.5; max_rack_power = 100 kW }\n"
	"rack r { height = 48 U; power_limit = 100 kW; cooling = air }\n"
	"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
	"cluster c { site = s; nodes = 10 x n; rack = r; %s }\n"
	"scenario big { n.accelerators = 8 x g2 }\n"
	"scenario priced { n.accelerators = 8 x g2; n.price = 300_000 USD }\n";

static double node_price(const char *node, const char *cluster, const char *scenario, int *basis)
{
	char spec[4096];
	snprintf(spec, sizeof spec, PRICED, node, cluster);
	Built *b = unit_build(spec, NULL, scenario, false);
	CU_ASSERT_EQUAL(b->errors, 0);
	double price = b->errors ? NAN : b->d.groups[0].type->price;
	*basis = b->errors ? -1 : b->d.groups[0].type->node.price_basis;
	done(b);
	return price;
}

static void test_node_prices(void)
{
	int basis;
	/* From parts: 30,000 + 8 x 20,000 + 8 x 1,000 + 2 x 5,000. */
	CU_ASSERT_DOUBLE_EQUAL(node_price("chassis_price = 30_000 USD; cpus = 2; cpu_price = 5_000 USD",
					  "", NULL, &basis), 208000, 1e-6);
	CU_ASSERT_EQUAL(basis, NODE_PRICE_PARTS);
	/* A bundle as written, and under 8 x g2: + 8 x 6,000. */
	CU_ASSERT_DOUBLE_EQUAL(node_price("price = 250_000 USD", "", NULL, &basis), 250000, 1e-6);
	CU_ASSERT_EQUAL(basis, NODE_PRICE_BUNDLE);
	CU_ASSERT_DOUBLE_EQUAL(node_price("price = 250_000 USD", "", "big", &basis), 298000, 1e-6);
	/* An override of the price itself is taken as written. */
	CU_ASSERT_DOUBLE_EQUAL(node_price("price = 250_000 USD", "", "priced", &basis), 300000, 1e-6);
	/* From parts, a scenario's parts are simply the parts: 8 x 26,000 + 8,000. */
	CU_ASSERT_DOUBLE_EQUAL(node_price("chassis_price = 0 USD", "", "big", &basis), 216000, 1e-6);
}

/* The financial model on a hand-computed case: capex 2,500,000 (10 nodes of 250,000), energy
 * 10 x 7.6 kW x 1.5 x 8,760 h x 0.10 USD, a 3-year horizon at 10 %. */
static void test_finance(void)
{
	int basis;
	(void)basis;
	char spec[4096];
	snprintf(spec, sizeof spec, PRICED, "price = 250_000 USD",
		 "horizon = 3 y; cost_of_capital = 10 %; support = 8 %; staff_cost = 100_000 USD/y\n"
		 "  space_cost = 5_000 USD/y; depreciation = declining_balance; depreciation_period = 4 y\n"
		 "  utilization = 50 %");
	Built *b = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	const Finance *f = &b->d.fin;
	const Totals *t = &b->d.t;
	CU_ASSERT_TRUE(f->done);
	CU_ASSERT_DOUBLE_EQUAL(t->capex, 2500000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->hardware_capex, 2500000, 1e-6);
	/* annuity factor at 10 % over 3 years: 1/1.1 + 1/1.21 + 1/1.331 = 2.48685... */
	CU_ASSERT_DOUBLE_EQUAL(f->annuity_factor, 1 / 1.1 + 1 / 1.21 + 1 / 1.331, 1e-12);
	double opex = t->annual_energy_cost + 0.08 * 2500000 + 100000 + 5000 * t->racks;
	CU_ASSERT_DOUBLE_EQUAL(f->annual_opex, opex, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->npv, 2500000 + opex * f->annuity_factor, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->annual_cost * f->annuity_factor, f->npv, 1e-6);
	/* 80 GPUs x 8,760 h x 50 %; 80 PFLOP/s... 8 PFLOP/s x 365 d x 50 %. */
	CU_ASSERT_DOUBLE_EQUAL(f->gpu_hours_per_year, 80 * 8760 * 0.5, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->per_gpu_hour, f->annual_cost / (80 * 8760 * 0.5), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(f->per_pflop_day, f->annual_cost / (80 * 365 * 0.5), 1e-9);
	/* Double declining over 4 years: 1,250,000, 625,000, then straight line 312,500 twice. */
	CU_ASSERT_EQUAL_FATAL(f->depreciation_years, 4);
	CU_ASSERT_DOUBLE_EQUAL(f->depreciation_by_year[0], 1250000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->depreciation_by_year[1], 625000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->depreciation_by_year[2], 312500, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->depreciation_by_year[3], 312500, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(f->book_value_at_horizon, 312500, 1e-6);
	done(b);
	/* The defaults: the net present cost is the TCO. */
	snprintf(spec, sizeof spec, PRICED, "price = 250_000 USD", "horizon = 2.5 y");
	b = unit_build(spec, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_DOUBLE_EQUAL(b->d.fin.npv, b->d.t.tco, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(b->d.fin.annuity_factor, 2.5, 1e-12);
	done(b);
	/* An unmet requirement carries its numbers: value, limit and unit. */
	char req[4200];
	snprintf(req, sizeof req, PRICED, "price = 250_000 USD", "");
	strcat(req, "require c.capex <= 1_000_000 USD\n");
	b = unit_build(req, NULL, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->d.violations.n, 1);
	const Violation *v = b->d.violations.v[0];
	CU_ASSERT_TRUE(v->has_quantity);
	CU_ASSERT_DOUBLE_EQUAL(v->value, 2500000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(v->limit, 1000000, 1e-6);
	CU_ASSERT_STRING_EQUAL(v->unit, "USD");
	done(b);
}

void suite_model(void)
{
	CU_pSuite s = CU_add_suite("model", NULL, NULL);
	CU_add_test(s, "seed article", test_seed);
	CU_add_test(s, "parts and capex", test_parts_and_capex);
	CU_add_test(s, "loads, PUE, energy, carbon, redundancy", test_loads_pue_energy_carbon);
	CU_add_test(s, "cooling limit per rack", test_cooling_limit);
	CU_add_test(s, "spares", test_spares);
	CU_add_test(s, "choices", test_choices);
	CU_add_test(s, "violations", test_violations);
	CU_add_test(s, "node prices follow their parts", test_node_prices);
	CU_add_test(s, "finance", test_finance);
}
