/*
 * test_optimize.c — the GLPK layer on models with known optima, and the optimizer on small
 * specs whose best design is worked out by hand; the MILP and the exhaustive search agree.
 */
#include "opt/opt.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void suite_optimize(void);

/* ---- lp.c ----------------------------------------------------------------------------------- */

typedef struct Lp {
	Ctx *c;
	LpModel *m;
} Lp;

static Lp lp_start(void)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	return (Lp){c, lp_new(c)};
}

static LpExpr expr(Lp *l, int n, const int *vars, const double *coefs)
{
	LpExpr e = {0};
	for (int i = 0; i < n; i++)
		lp_term(l->c->arena, &e, vars[i], coefs[i]);
	return e;
}

/* 0-1 knapsack, capacity 10: values 10, 7, 25, 24, weights 2, 1, 6, 5. By hand: {3, 4} weighs
 * 11, too much; every other set fits at most three items, of which {1, 2, 3} (weight 9) is
 * worth 42 and {1, 2, 4} (weight 8) 41: the best is {1, 2, 3}. */
static void test_knapsack(void)
{
	Lp l = lp_start();
	int x[4];
	for (int i = 0; i < 4; i++)
		x[i] = lp_var(l.m, "x", 'B', 0, 1);
	LpExpr w = expr(&l, 4, x, (double[]){2, 1, 6, 5});
	lp_row(l.m, "capacity", &w, 'L', 10);
	LpExpr v = expr(&l, 4, x, (double[]){10, 7, 25, 24});
	lp_objective(l.m, "value", &v, true);
	LpResult r;
	CU_ASSERT_TRUE_FATAL(lp_solve(l.m, 0, &r));
	CU_ASSERT_EQUAL(r.status, LP_OPTIMAL);
	CU_ASSERT_DOUBLE_EQUAL(r.objective, 42, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.bound, 42, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.gap, 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.x[0], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[1], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[2], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[3], 0, 1e-9);
	/* Names are made unique and valid for the LP format. */
	CU_ASSERT_STRING_EQUAL(lp_var_name(l.m, x[0]), "x");
	CU_ASSERT_STRING_EQUAL(lp_var_name(l.m, x[1]), "x_2");
	CU_ASSERT_EQUAL(lp_nvars(l.m), 4);
	ctx_free(l.c);
}

/* General integers: min 3a + 5b with 2a + 4b >= 11. By hand: b = 3, a = 0 costs 15; b = 2,
 * a = 2 costs 16; b = 1, a = 4 costs 17; b = 0, a = 6 costs 18. */
static void test_integers(void)
{
	Lp l = lp_start();
	int a = lp_var(l.m, "a", 'I', 0, INFINITY), b = lp_var(l.m, "b", 'I', 0, INFINITY);
	LpExpr need = expr(&l, 2, (int[]){a, b}, (double[]){2, 4});
	lp_row(l.m, "need", &need, 'G', 11);
	LpExpr cost = expr(&l, 2, (int[]){a, b}, (double[]){3, 5});
	lp_objective(l.m, "cost", &cost, false);
	LpResult r;
	CU_ASSERT_TRUE_FATAL(lp_solve(l.m, 0, &r));
	CU_ASSERT_DOUBLE_EQUAL(r.objective, 15, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[a], 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[b], 3, 1e-9);
	ctx_free(l.c);
}

/* Objectives in order: the second only breaks the first's ties. */
static void test_lexicographic(void)
{
	Lp l = lp_start();
	int x = lp_var(l.m, "x", 'B', 0, 1), y = lp_var(l.m, "y", 'B', 0, 1),
	    z = lp_var(l.m, "z", 'B', 0, 1);
	LpExpr one = expr(&l, 3, (int[]){x, y, z}, (double[]){1, 1, 1});
	lp_row(l.m, "one", &one, 'E', 1);
	LpExpr first = expr(&l, 3, (int[]){x, y, z}, (double[]){5, 5, 9});
	lp_objective(l.m, "first", &first, false);
	LpExpr second = expr(&l, 1, (int[]){x}, (double[]){1}); /* prefer y among x, y */
	lp_objective(l.m, "second", &second, false);
	LpResult r;
	CU_ASSERT_TRUE_FATAL(lp_solve(l.m, 0, &r));
	CU_ASSERT_DOUBLE_EQUAL(r.objective, 5, 1e-9); /* the first objective's value */
	CU_ASSERT_DOUBLE_EQUAL(r.x[y], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.x[x], 0, 1e-9);
	ctx_free(l.c);
}

/* A binary fixed to 0 stays 0 though the objective wants it (the optimizer fixes the joint
 * options a part cannot be built with this way). */
static void test_fixed_binary(void)
{
	Lp l = lp_start();
	int x = lp_var(l.m, "x", 'B', 0, 0), y = lp_var(l.m, "y", 'B', 0, 1);
	LpExpr one = expr(&l, 2, (int[]){x, y}, (double[]){1, 1});
	lp_row(l.m, "one", &one, 'E', 1);
	LpExpr cost = expr(&l, 2, (int[]){x, y}, (double[]){1, 100});
	lp_objective(l.m, "cost", &cost, false);
	LpResult r;
	CU_ASSERT_TRUE_FATAL(lp_solve(l.m, 0, &r));
	CU_ASSERT_DOUBLE_EQUAL(r.x[x], 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.objective, 100, 1e-9);
	ctx_free(l.c);
}

/* Infeasible rows are told apart from errors; a number that is not finite never reaches GLPK
 * (which would abort). */
static void test_infeasible_and_bad_numbers(void)
{
	Lp l = lp_start();
	int x = lp_var(l.m, "x", 'B', 0, 1), y = lp_var(l.m, "y", 'B', 0, 1);
	LpExpr both = expr(&l, 2, (int[]){x, y}, (double[]){1, 1});
	lp_row(l.m, "three", &both, 'G', 3);
	lp_objective(l.m, "cost", &both, false);
	LpResult r;
	CU_ASSERT_FALSE(lp_solve(l.m, 0, &r));
	CU_ASSERT_EQUAL(r.status, LP_INFEASIBLE);
	ctx_free(l.c);

	l = lp_start();
	x = lp_var(l.m, "x", 'B', 0, 1);
	LpExpr bad = expr(&l, 1, (int[]){x}, (double[]){NAN});
	lp_row(l.m, "bad", &bad, 'L', 1);
	lp_objective(l.m, "cost", &bad, false);
	CU_ASSERT_FALSE(lp_solve(l.m, 0, &r));
	CU_ASSERT_EQUAL(r.status, LP_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.log, "bad"));
	ctx_free(l.c);
}

/* A time limit stops the search: a 60-item knapsack whose weights and values are close
 * together (no item dominates, the relaxation's bound prunes little) is given 0.2 s; it ends
 * on time, either proven or with its best solution and an honest bound. */
static void test_time_limit(void)
{
	Lp l = lp_start();
	enum { N = 60 };
	int x[N];
	double w[N], v[N];
	LpExpr cap = {0}, val = {0};
	for (int i = 0; i < N; i++) {
		x[i] = lp_var(l.m, "x", 'B', 0, 1);
		/* Weights and values close together, no dominance: a hard instance. */
		w[i] = 1000003 + 7919.0 * ((i * 37) % N);
		v[i] = w[i] + 1 + (i % 3);
		lp_term(l.c->arena, &cap, x[i], 2 * w[i]);
		lp_term(l.c->arena, &val, x[i], v[i]);
	}
	double total = 0;
	for (int i = 0; i < N; i++)
		total += 2 * w[i];
	lp_row(l.m, "capacity", &cap, 'L', floor(total / 2) + 1);
	lp_objective(l.m, "value", &val, true);
	LpResult r;
	lp_solve(l.m, 0.2, &r);
	CU_ASSERT_TRUE(r.ms < 2000);
	/* Either proven within 0.2 s or stopped with a solution and an honest bound. */
	CU_ASSERT_TRUE(r.status == LP_OPTIMAL || r.status == LP_FEASIBLE ||
		       r.status == LP_TIME_LIMIT);
	if (r.status == LP_FEASIBLE) {
		CU_ASSERT_TRUE(r.bound >= r.objective - 1e-6);
		CU_ASSERT_TRUE(r.gap >= 0);
	}
	ctx_free(l.c);
}

/* ---- the optimizer on specs ------------------------------------------------------------------ */

static const char *NODES =
	"accelerator g { memory = 80 GB; bf16 = 1000 TFLOPS; tdp = 700 W }\n"
	"node big { accelerators = 8 x g; power = 10 kW; height = 8 U; price = 300_000 USD }\n"
	"node small { accelerators = 4 x g; power = 5 kW; height = 4 U; price = 140_000 USD }\n"
	"cooling air { type = air; pue = 1.5; max_rack_power = 30 kW }\n"
	"cooling liquid { type = cold_plate; pue = 1.1; max_rack_power = 100 kW;\n"
	"  capex_per_kw = 100 USD/kW }\n";

static Built *spec(const char *tail, bool exhaustive)
{
	static char text[8192];
	snprintf(text, sizeof text, "%s%s", NODES, tail);
	return unit_build(text, NULL, NULL, exhaustive);
}

static const char *chosen(const Built *b, int i)
{
	return ((const Decision *)b->d.decisions.v[i])->chosen_text;
}

/* The node model: 10 big nodes cost 3,000,000, 20 small ones 2,800,000. */
static void test_node_model(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
			"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = one_of(10 x big, 20 x small); rack = r }\n"
			"minimize c.capex\n",
			false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_STRING_EQUAL(b->d.opt.solver, "glpk");
	CU_ASSERT_STRING_EQUAL(b->d.opt.status, "optimal");
	CU_ASSERT_STRING_EQUAL(chosen(b, 0), "20 x small");
	/* Both draw 100 kW: the same 10,000 USD of cooling plant. */
	CU_ASSERT_DOUBLE_EQUAL(b->d.opt.objective, 2800000 + 10000, 1e-6);
	const Decision *x = b->d.decisions.v[0];
	CU_ASSERT_STRING_EQUAL(x->next_best_text, "10 x big");
	CU_ASSERT_DOUBLE_EQUAL(x->next_best, 3000000 + 10000, 1e-6);
	unit_build_done(b);
}

/* A range of counts: the fewest big nodes that reach 100 PFLOPS (8 PFLOPS each) is 13. */
static void test_count_range(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
			"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = 1..100 x big; rack = r }\n"
			"require c.peak_compute >= 100 PFLOPS\n"
			"minimize c.capex\n",
			false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.t.nodes, 13);
	/* 13 nodes and 130 kW of liquid cooling plant at 100 USD/kW. */
	CU_ASSERT_DOUBLE_EQUAL(b->d.opt.objective, 13 * 300000 + 130 * 100, 1e-6);
	unit_build_done(b);
}

/* A free count under the site's budget: as many big nodes as 1 MW feeds through PUE 1.1
 * (11 kW each: 90), maximizing the peak. */
static void test_free_count_maximize(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
			"site s { power_budget = 1 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = auto x big; rack = r }\n"
			"maximize c.peak_compute\n",
			false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_EQUAL(b->d.t.nodes, 90);
	CU_ASSERT_DOUBLE_EQUAL(b->d.opt.objective, 90 * 8e15, 1);
	CU_ASSERT_TRUE(b->d.t.facility_power <= 1e6);
	unit_build_done(b);
}

/* Objectives in order: facility power first (liquid, PUE 1.1), capex only among equals. */
static void test_objectives_in_order(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = 30 kW; cooling = one_of(air, liquid) }\n"
			"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = 30 x big; rack = r }\n"
			"minimize c.facility_power\n"
			"minimize c.capex\n",
			false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_STRING_EQUAL(chosen(b, 0), "liquid");
	CU_ASSERT_DOUBLE_EQUAL(b->d.opt.objective, 300e3 * 1.1, 1e-6);
	unit_build_done(b);
	/* Capex alone prefers air (no cooling plant price). */
	b = spec("rack r { height = 48 U; power_limit = 30 kW; cooling = one_of(air, liquid) }\n"
		 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
		 "cluster c { site = s; nodes = 30 x big; rack = r }\n"
		 "minimize c.capex\n",
		 false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_STRING_EQUAL(chosen(b, 0), "air");
	unit_build_done(b);
}

/* No design fits: the elastic model names the smallest change. */
static void test_relaxation(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = one_of(30 kW, 60 kW); cooling = liquid }\n"
			"site s { power_budget = 1 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = 100 x big; rack = r }\n"
			"minimize c.capex\n",
			false);
	CU_ASSERT_STRING_EQUAL(b->d.opt.status, "infeasible");
	CU_ASSERT_EQUAL(b->p.unmet, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->d.relaxation);
	/* 100 nodes x 10 kW x 1.1 = 1,100 kW. */
	CU_ASSERT_STRING_EQUAL(b->d.relaxation, "raise s.power_budget to at least 1,100 kW");
	unit_build_done(b);
}

/* The MILP and the exhaustive search agree on decisions and objective. */
static void agree(const char *text, const char *path)
{
	char d_milp[8][128], d_ex[8][128];
	double o_milp, o_ex;
	int n_milp, n_ex;
	Built *b = text ? spec(text, false) : unit_build(NULL, path, NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	CU_ASSERT_STRING_EQUAL(b->d.opt.solver, "glpk");
	n_milp = b->d.decisions.n < 8 ? b->d.decisions.n : 8;
	for (int i = 0; i < n_milp; i++)
		snprintf(d_milp[i], sizeof d_milp[i], "%s", chosen(b, i));
	o_milp = b->d.opt.objective;
	unit_build_done(b);
	b = text ? spec(text, true) : unit_build(NULL, path, NULL, true);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	n_ex = b->d.decisions.n < 8 ? b->d.decisions.n : 8;
	for (int i = 0; i < n_ex; i++)
		snprintf(d_ex[i], sizeof d_ex[i], "%s", chosen(b, i));
	bool max = ((Stmt *)b->p.objectives.v[0])->objective.maximize;
	o_ex = max ? -b->d.objective[0] : b->d.objective[0];
	unit_build_done(b);
	CU_ASSERT_EQUAL_FATAL(n_milp, n_ex);
	for (int i = 0; i < n_milp; i++)
		CU_ASSERT_STRING_EQUAL(d_milp[i], d_ex[i]);
	CU_ASSERT_DOUBLE_EQUAL(o_milp, o_ex, 1e-9 * fabs(o_ex));
}

static void test_agreement(void)
{
	agree("rack r { height = 48 U; power_limit = one_of(30 kW, 60 kW, 100 kW);\n"
	      "  cooling = one_of(air, liquid); nodes_per_rack = auto }\n"
	      "site s { power_budget = 5 MW; electricity = 0.10 USD/kWh;\n"
	      "  floor = grid(rows = 4, racks_per_row = 20) }\n"
	      "cluster c { site = s; nodes = one_of(300 x big, 600 x small); rack = r; horizon = 5 y }\n"
	      "require c.facility_power <= 3.6 MW\n"
	      "minimize c.capex + 5 y * c.energy_cost\n",
	      NULL);
	agree(NULL, CLUSTERC_SOURCE_DIR "/examples/wanka.cluster");
}

/* What a unit of money and a watt of network power add to the objective: minimize tco over 5
 * years at PUE 1.1 and 0.10 USD/kWh is 1 per unit of money and 1.1 x 8,760 h x 5 x 0.10 / 1000
 * per watt. */
static void test_objective_weights(void)
{
	Built *b = spec("rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
			"site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
			"cluster c { site = s; nodes = 10 x big; rack = r; horizon = 5 y }\n"
			"minimize c.tco\n",
			false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	double money, watt;
	judge_weights(&b->d, &money, &watt);
	/* The cooling plant is priced per kW of IT power: 0.1 per watt of capex too. */
	CU_ASSERT_DOUBLE_EQUAL(money, 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(watt, 1.1 * 8760 * 5 * 0.10 / 1000 + 0.1, 1e-9);
	unit_build_done(b);
	b = spec("rack r { height = 48 U; power_limit = 100 kW; cooling = liquid }\n"
		 "site s { power_budget = 10 MW; electricity = 0.10 USD/kWh }\n"
		 "cluster c { site = s; nodes = 10 x big; rack = r }\n"
		 "maximize c.peak_compute\n"
		 "minimize c.facility_power\n",
		 false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	judge_weights(&b->d, &money, &watt); /* the first objective cables change */
	CU_ASSERT_DOUBLE_EQUAL(money, 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(watt, 1.1, 1e-9);
	unit_build_done(b);
}

void suite_optimize(void)
{
	CU_pSuite s = CU_add_suite("optimize", NULL, NULL);
	CU_add_test(s, "knapsack", test_knapsack);
	CU_add_test(s, "integers", test_integers);
	CU_add_test(s, "lexicographic", test_lexicographic);
	CU_add_test(s, "fixed binary", test_fixed_binary);
	CU_add_test(s, "infeasible and bad numbers", test_infeasible_and_bad_numbers);
	CU_add_test(s, "time limit", test_time_limit);
	CU_add_test(s, "node model", test_node_model);
	CU_add_test(s, "count range", test_count_range);
	CU_add_test(s, "free count maximized", test_free_count_maximize);
	CU_add_test(s, "objectives in order", test_objectives_in_order);
	CU_add_test(s, "relaxation", test_relaxation);
	CU_add_test(s, "milp and exhaustive agree", test_agreement);
	CU_add_test(s, "objective weights", test_objective_weights);
}
