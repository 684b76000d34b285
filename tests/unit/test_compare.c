/*
 * test_compare.c — the comparison's arithmetic (backends/compare.c): objectives by name, the
 * Pareto frontier (ties, maximized objectives, rows not built, workloads no plan fits), and a
 * row's trip through JSON.
 */
#include "backends.h"
#include "passes.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

void suite_compare(void);

static CompareWorkload work(const char *name, double days)
{
	return (CompareWorkload){name, 1024, days * 86400, 1e9, 100, 0.4, 0.95, days * 86400 / 0.95, 1000};
}

static CompareRow row(const char *name, double capex, double energy_cost, CompareWorkload *w)
{
	return (CompareRow){.scenario = name, .sets = "", .why = "", .capex = capex,
			    .annual_energy_cost = energy_cost, .tco = capex + 5 * energy_cost,
			    .w = w, .nw = w ? 1 : 0};
}

static Comparison with(Arena *a, CompareRow *rows, int n, const char *const *names, int nobj)
{
	Comparison c = {.spec = "t.cluster", .currency = "USD", .rows = rows, .nrows = n};
	c.obj = arena_alloc(a, sizeof *c.obj * (size_t)nobj);
	for (int k = 0; k < nobj; k++)
		CU_ASSERT_FATAL(compare_objective(a, names[k], "USD", &c.obj[k]));
	c.nobj = nobj;
	compare_pareto(&c);
	return c;
}

static void test_objectives(void)
{
	Arena *a = arena_new();
	CompareObjective o;
	CU_ASSERT(compare_objective(a, "capex", "CNY", &o));
	CU_ASSERT_STRING_EQUAL(o.label, "capex (CNY)");
	CU_ASSERT(!o.maximize);
	CU_ASSERT(compare_objective(a, "mfu:llama", "CNY", &o));
	CU_ASSERT(o.maximize);
	CU_ASSERT(compare_objective(a, "time_to_train:llama", "CNY", &o));
	CU_ASSERT_DOUBLE_EQUAL(o.scale * 86400, 1, 1e-12);
	CU_ASSERT(compare_objective(a, "accelerators", "CNY", &o) && o.maximize);
	CU_ASSERT(!compare_objective(a, "speed", "CNY", &o));
	CU_ASSERT(!compare_objective(a, "time_to_train:", "CNY", &o));
	CU_ASSERT(!compare_objective(a, "time:llama", "CNY", &o));
	arena_free(a);
}

static void test_pareto(void)
{
	Arena *a = arena_new();
	CompareWorkload w[5] = {work("llm", 10), work("llm", 12), work("llm", 8), work("llm", 10),
				work("llm", 30)};
	CompareRow rows[6] = {
		row("base", 100, 10, &w[0]),   /* dominated by cheap (same time, cheaper) */
		row("cheap", 90, 10, &w[3]),   /* frontier */
		row("slow", 80, 12, &w[1]),    /* frontier: cheapest capex */
		row("fast", 120, 15, &w[2]),   /* frontier: fastest */
		row("broken", 1, 1, NULL),     /* not built: never on it */
		row("worse", 200, 20, &w[4]),  /* dominated by all */
	};
	rows[4].status = 2;
	static const char *const names[] = {"capex", "annual_energy_cost", "time_to_train:llm"};
	Comparison c = with(a, rows, 6, names, 3);
	bool want[6] = {false, true, true, true, false, false};
	for (int i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(rows[i].pareto, want[i]);
	CU_ASSERT(isnan(compare_value(&c, &rows[4], 0)));
	CU_ASSERT_DOUBLE_EQUAL(compare_value(&c, &rows[3], 2), 8 * 86400, 1e-6);

	/* Equal rows do not dominate each other: both stay. */
	CompareRow twins[2] = {row("a", 1, 1, NULL), row("b", 1, 1, NULL)};
	static const char *const two[] = {"capex", "annual_energy_cost"};
	with(a, twins, 2, two, 2);
	CU_ASSERT(twins[0].pareto && twins[1].pareto);

	/* Maximized: higher MFU is better. */
	CompareWorkload m[2] = {work("llm", 1), work("llm", 1)};
	m[0].mfu = 0.5, m[1].mfu = 0.3;
	CompareRow mr[2] = {row("hi", 10, 1, &m[0]), row("lo", 10, 1, &m[1])};
	static const char *const mfu[] = {"capex", "mfu:llm"};
	with(a, mr, 2, mfu, 2);
	CU_ASSERT(mr[0].pareto);
	CU_ASSERT(!mr[1].pareto);

	/* A workload no plan fits is worse than any time. */
	CompareRow nf[2] = {row("fits", 10, 1, &w[0]), row("unfit", 10, 1, NULL)};
	static const char *const ttt[] = {"capex", "time_to_train:llm"};
	with(a, nf, 2, ttt, 2);
	CU_ASSERT(nf[0].pareto);
	CU_ASSERT(!nf[1].pareto);
	arena_free(a);
}

static void test_row_json(void)
{
	Arena *a = arena_new();
	CompareWorkload w = work("llm", 12.5);
	const char *chosen[] = {"rack.cooling = air"};
	CompareRow r = row("x", 1234567.891, 42.5, &w);
	r.it_power = 1.5e6, r.facility_power = 1.8e6, r.annual_energy = 3.6e12, r.tco_years = 5;
	r.accelerators = 8, r.nodes = 1, r.racks = 1, r.switches = 0, r.cables = 0;
	r.chosen = chosen, r.decisions = 1, r.sets = "a.b=1";
	Json *j = compare_row_json(&r);
	CompareRow back;
	compare_row_read(a, j, &back);
	jw_free(j);
	CU_ASSERT_STRING_EQUAL(back.scenario, "x");
	CU_ASSERT_STRING_EQUAL(back.sets, "a.b=1");
	CU_ASSERT_DOUBLE_EQUAL(back.capex, 1234567.89, 1e-6); /* money to the cent */
	CU_ASSERT_DOUBLE_EQUAL(back.it_power, 1.5e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(back.annual_energy, 3.6e12, 1);
	CU_ASSERT_EQUAL(back.nw, 1);
	CU_ASSERT_DOUBLE_EQUAL(back.w[0].time_to_train, 12.5 * 86400, 1e-3);
	CU_ASSERT_EQUAL(back.decisions, 1);
	CU_ASSERT_STRING_EQUAL(back.chosen[0], "rack.cooling = air");
	/* A row not built: its numbers are null and read back as NaN; its unmet requirements
	 * travel with their numbers, unit and place. */
	CompareRow bad = {.scenario = "y", .sets = "", .why = "no", .status = 2, .capex = NAN};
	bad.violations = jw_array();
	Json *v = jw_object();
	jw_set(v, "message", jw_str("over budget"));
	jw_set(v, "value", jw_real(1.9e7, 6));
	jw_set(v, "limit", jw_real(1.6e7, 6));
	jw_set(v, "unit", jw_str("W"));
	jw_set(v, "line", jw_int(103));
	jw_push(bad.violations, v);
	j = compare_row_json(&bad);
	compare_row_free(&bad);
	compare_row_read(a, j, &back);
	jw_free(j);
	CU_ASSERT_EQUAL(jw_len(back.violations), 1);
	CU_ASSERT_DOUBLE_EQUAL(jw_get_real(jw_at(back.violations, 0), "limit"), 1.6e7, 1e-6);
	CU_ASSERT_STRING_EQUAL(jw_get_str(jw_at(back.violations, 0), "unit"), "W");
	CU_ASSERT_PTR_NULL(back.decisions_json);
	compare_row_free(&back);
	CU_ASSERT_EQUAL(back.status, 2);
	CU_ASSERT(isnan(back.capex));
	CU_ASSERT_STRING_EQUAL(back.why, "no");
	arena_free(a);
}

void suite_compare(void)
{
	CU_pSuite s = CU_add_suite("compare", NULL, NULL);
	CU_add_test(s, "objectives by name", test_objectives);
	CU_add_test(s, "Pareto frontier", test_pareto);
	CU_add_test(s, "a row through JSON", test_row_json);
}
