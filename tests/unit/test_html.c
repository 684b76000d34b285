/*
 * test_html.c — report.html's pieces: the chart helpers of svgchart.c (escaping, 1-2-5 and
 * log ticks, tick labels, no "nan" nor "-0" whatever the data, the same bytes twice, the
 * Pareto step line), the comparison page over a Comparison built by hand, and the build page
 * over an example built by the pipeline (tests/html.sh reads both in a real browser).
 */
#include "backends.h"
#include "passes.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void suite_html(void);

static char *take(Buf *b)
{
	char *s = b->s ? b->s : calloc(1, 1);
	*b = (Buf){0};
	return s;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* "nan" as a word of its own, not inside one ("finance", "maintenance": a checkout at
 * /work/wt-finance puts it in every page's spec path). */
static const char *nan_word(const char *s)
{
	for (const char *p = s; (p = strstr(p, "nan")); p += 3)
		if ((p == s || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[3]))
			return p;
	return NULL;
}

/* Nothing a browser would show as a broken number. */
static void assert_clean_numbers(const char *s)
{
	CU_ASSERT_PTR_NULL(nan_word(s));
	CU_ASSERT_PTR_NULL(strstr(s, "NaN"));
	CU_ASSERT_PTR_NULL(strstr(s, "inf"));
	CU_ASSERT_PTR_NULL(strstr(s, "\"-0\""));
	CU_ASSERT_PTR_NULL(strstr(s, ">-0<"));
	CU_ASSERT_PTR_NULL(strstr(s, "-0 "));
}

static void test_escape(void)
{
	Buf b = {0};
	chart_escape(&b, "a&b<c>\"d'e\x01" "f\tg");
	char *s = take(&b);
	CU_ASSERT_STRING_EQUAL(s, "a&amp;b&lt;c&gt;&quot;d&#39;e f\tg");
	free(s);
	chart_escape(&b, NULL);
	CU_ASSERT_EQUAL(b.len, 0);
	chart_coord(&b, -0.04);
	chart_coord(&b, NAN);
	buf_putc(&b, ' ');
	chart_coord(&b, 12.25);
	chart_coord(&b, 1e300 * 1e300);
	s = take(&b);
	CU_ASSERT_STRING_EQUAL(s, "00 12.30"); /* -0.04 rounds to 0, NaN and infinity are 0 */
	free(s);
}

/* The step's mantissa is 1, 2 or 5. */
static bool nice_step(double step)
{
	double m = step / pow(10, floor(log10(step) + 1e-12));
	return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
}

static void test_ticks(void)
{
	double t[32], step;
	int n = chart_ticks(0, 97, 5, t, 32, &step);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_DOUBLE_EQUAL(step, 20, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(t[5], 100, 1e-9);

	n = chart_ticks(-0.3, 0.7, 5, t, 32, &step);
	CU_ASSERT_DOUBLE_EQUAL(step, 0.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[0], -0.4, 1e-12);
	bool zero = false;
	for (int i = 0; i < n; i++)
		if (t[i] == 0) {
			zero = true;
			CU_ASSERT(!signbit(t[i])); /* never -0 */
		}
	CU_ASSERT(zero);

	n = chart_ticks(5, 5, 5, t, 32, &step); /* one value: widened around it */
	CU_ASSERT(n >= 2 && t[0] <= 4.5 && t[n - 1] >= 5.5);
	n = chart_ticks(0, 0, 5, t, 32, &step);
	CU_ASSERT(n >= 2 && t[0] == 0 && t[n - 1] >= 1);
	n = chart_ticks(NAN, 3, 5, t, 32, &step);
	CU_ASSERT(n >= 2 && t[0] == 0 && t[n - 1] == 1);
	n = chart_ticks(10, 2, 4, t, 32, &step); /* reversed */
	CU_ASSERT(t[0] <= 2 && t[n - 1] >= 10);

	/* Any range: covered, a nice step, at most target intervals. */
	for (int i = 0; i < 2000; i++) {
		double lo = (i % 37 - 18) * pow(10, i % 13 - 6) * 1.37;
		double hi = lo + (1 + i % 91) * pow(10, i % 11 - 4) * 0.73;
		int target = 2 + i % 9;
		n = chart_ticks(lo, hi, target, t, 32, &step);
		CU_ASSERT(n >= 2 && n <= target + 2); /* aligned ends add at most one interval */
		CU_ASSERT(t[0] <= lo + step * 1e-6 && t[n - 1] >= hi - step * 1e-6);
		CU_ASSERT(nice_step(step));
	}

	n = chart_log_ticks(3, 4000, t, 32);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[4], 1e4, 1e-6);
	n = chart_log_ticks(3, 40, t, 32);
	CU_ASSERT_EQUAL(n, 5); /* 2 5 10 20 50 */
	CU_ASSERT_DOUBLE_EQUAL(t[0], 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t[4], 50, 1e-9);
	CU_ASSERT_EQUAL(chart_log_ticks(0, 10, t, 32), 0);
	CU_ASSERT_EQUAL(chart_log_ticks(-1, 10, t, 32), 0);
}

static void test_tick_text(void)
{
	static const struct {
		double v, step, mag;
		const char *want;
	} cases[] = {
		{2.6e9, 2e8, 3.4e9, "2.6bn"}, {3e9, 2e8, 3.4e9, "3.0bn"}, {4e7, 2e7, 1.4e8, "40M"},
		{0, 2e7, 1.4e8, "0"},         {1500, 500, 2000, "1,500"}, {25000, 5000, 50000, "25k"},
		{0.5, 0.5, 2, "0.5"},         {1, 0.5, 2, "1.0"},         {2e12, 1e12, 5e12, "2tn"},
		{-0.0, 1, 5, "0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Buf b = {0};
		chart_tick_text(&b, cases[i].v, cases[i].step, cases[i].mag);
		CU_ASSERT_STRING_EQUAL(b.s, cases[i].want);
		if (strcmp(b.s, cases[i].want))
			fprintf(stderr, "tick %g: got %s, want %s\n", cases[i].v, b.s, cases[i].want);
		buf_free(&b);
	}
}

static char *bars(void)
{
	static const char *const labels[] = {"nodes", "net<work>", "nothing", "unknown"};
	const double v[] = {2.5e9, 1, 190848000, 2, 0, -0.0, NAN, INFINITY};
	ChartPanel p[2] = {{"capex", "CNY", -1, 2.7e9}, {"power", "kW", 3, 0}};
	ChartBars c = {"Two & more", labels, 4, p, 2, v, 1, 0};
	Buf b = {0};
	chart_hbars(&b, &c);
	return take(&b);
}

static char *columns(void)
{
	ChartColumn k[] = {{"R1", 35.2, 40, false}, {"R2", 41, 40, true}, {"R3", NAN, 40, false},
			   {"R4", 0, NAN, false}, {"R5", -0.0, 20, false}};
	ChartColumns c = {"Power per rack", "kW", "kW", 3, k, 5, 0, true, 0, 0};
	Buf b = {0};
	chart_columns(&b, &c);
	return take(&b);
}

static char *scatter(bool xmax)
{
	ChartPoint p[] = {
		{"b200", 2.69e9, 5.7e7, true, true, NULL},   {"base", 3.09e9, 8.2e7, false, false, NULL},
		{"a<b", 3.09e9, 4.8e7, true, true, NULL},    {"failed", NAN, NAN, false, false, NULL},
		{"dear", 3.09e9, 1.23e8, false, false, NULL}, {"same", 3.09e9, 8.2e7, false, false, NULL},
	};
	ChartScatter c = {"capex against energy", "capex (CNY)", "energy (CNY)", p, 6, false,
			  false, xmax, "Pareto-optimal", "dominated", 0, 0};
	Buf b = {0};
	chart_scatter(&b, &c);
	return take(&b);
}

static void test_charts(void)
{
	char *h = bars(), *k = columns(), *s = scatter(false), *s2 = scatter(true);
	const char *all[] = {h, k, s, s2};
	for (int i = 0; i < 4; i++) {
		assert_clean_numbers(all[i]);
		CU_ASSERT(strncmp(all[i], "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
		CU_ASSERT_EQUAL(count(all[i], "<svg"), 1);
		CU_ASSERT_EQUAL(count(all[i], "</svg>\n"), 1);
		CU_ASSERT_PTR_NULL(strstr(all[i], "<script"));
		CU_ASSERT_PTR_NULL(strstr(all[i], "href"));
	}
	/* bars: escaped labels and title, money and shares, "-" for what is not finite */
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "<title>Two &amp; more</title>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">net&lt;work&gt;<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">2,500,000,000 CNY (92.6%)<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">1 kW<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">-<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, ">capex<"));
	CU_ASSERT_EQUAL(count(h, "<rect"), 4); /* 2.5e9, 1, 190848000 and 2; 0, NaN, inf none */
	/* columns: one over its limit in red, a common limit as one line, values above */
	CU_ASSERT_EQUAL(count(k, "class=\"alert\""), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(k, "<title>R2: 41 kW of 40 kW</title>"));
	CU_ASSERT_EQUAL(count(k, "class=\"limit\""), 4); /* limits differ: a tick per capped column */
	CU_ASSERT_PTR_NOT_NULL(strstr(k, ">35.2<"));
	/* scatter: marked points, escaped labels, the step line along x first (x minimised) */
	CU_ASSERT_EQUAL(count(s, "class=\"pt mark\""), 3); /* two points and the legend */
	CU_ASSERT_EQUAL(count(s, "<circle"), 7);           /* five drawn, two in the legend */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">a&lt;b</text>"));
	CU_ASSERT_PTR_NULL(strstr(s, ">failed<"));
	const char *path = strstr(s, "class=\"front\" d=\"M");
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	const char *h1 = strchr(path, 'H'), *v1 = strchr(path, 'V');
	CU_ASSERT(h1 && v1 && h1 < v1);
	path = strstr(s2, "class=\"front\" d=\"M");
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	h1 = strchr(path, 'H');
	v1 = strchr(path, 'V');
	CU_ASSERT(h1 && v1 && v1 < h1);
	/* the same data, the same bytes */
	char *h2 = bars(), *k2 = columns(), *s3 = scatter(false);
	CU_ASSERT_STRING_EQUAL(h, h2);
	CU_ASSERT_STRING_EQUAL(k, k2);
	CU_ASSERT_STRING_EQUAL(s, s3);
	free(h), free(k), free(s), free(s2), free(h2), free(k2), free(s3);

	/* nothing to draw: still one whole SVG */
	ChartScatter none = {"empty", "x", "y", NULL, 0, true, true, false, NULL, NULL, 0, 0};
	Buf b = {0};
	chart_scatter(&b, &none);
	ChartColumns nocols = {"empty", NULL, NULL, 0, NULL, 0, 0, false, 0, 0};
	chart_columns(&b, &nocols);
	char *e = take(&b);
	assert_clean_numbers(e);
	CU_ASSERT_EQUAL(count(e, "</svg>"), 2);
	free(e);
}

/* ---- the pages ------------------------------------------------------------------------------ */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_put(&b, tmp, n);
	fclose(f);
	return take(&b);
}

/* Writes one page into a fresh directory through an Output; returns report.html's text. */
static char *page(Ctx *c, const Comparison *cmp, const Design *d)
{
	Arena *a = arena_new();
	char *base = unit_temp_dir(a, "html");
	char dir[512], file[600];
	snprintf(dir, sizeof dir, "%s/out", base);
	Output *o = output_open(c, dir, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(cmp ? compare_html_write(o, cmp) : report_html_write(o, d), 0);
	CU_ASSERT_EQUAL(output_commit(o), 0);
	snprintf(file, sizeof file, "%s/report.html", dir);
	char *text = slurp(file);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	unit_remove_tree(base);
	arena_free(a);
	return text;
}

static void assert_self_contained(const char *s)
{
	CU_ASSERT(strncmp(s, "<!DOCTYPE html>\n<html lang=\"en\">\n", 32) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "</html>\n"));
	CU_ASSERT_PTR_NULL(strstr(s, "<script"));
	CU_ASSERT_PTR_NULL(strstr(s, "<?xml"));
	CU_ASSERT_PTR_NULL(strstr(s, "<!DOCTYPE svg"));
	CU_ASSERT_PTR_NULL(strstr(s, "src="));
	CU_ASSERT_PTR_NULL(strstr(s, "href=\"http"));
	CU_ASSERT_PTR_NULL(strstr(s, "url(http"));
	CU_ASSERT_PTR_NULL(strstr(s, "@import"));
	CU_ASSERT_EQUAL(count(s, "<style>"), 1);
	assert_clean_numbers(s);
}

static void test_compare_page(void)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	CompareWorkload w[3] = {{"gpt3", 8192, 1.4 * 86400, 1e12, 237799.3, 0.33, 0.97, 1.45 * 86400, 2e6},
				{"gpt3", 4096, 1.2 * 86400, 9e11, 200000, 0.35, 0.98, 1.23 * 86400, 1.5e6},
				{"gpt3", 8192, 1.41 * 86400, 1e12, 137799.3, 0.33, 0.97, 1.45 * 86400, 2e6}};
	const char *chosen[] = {"rack48.power_limit = 80 kW", "rack48.cooling = cold_plate"};
	CompareRow rows[4] = {
		{.scenario = "base", .sets = "", .why = "", .accelerators = 10000, .nodes = 1250,
		 .racks = 261, .switches = 896, .cables = 30480, .it_power = 13.9e6,
		 .facility_power = 15.58e6, .capex = 3087677074.2, .annual_energy = 4.9e14,
		 .annual_energy_cost = 81878623.95, .tco = 3497070193.94, .tco_years = 5,
		 .w = &w[0], .nw = 1, .decisions = 2, .chosen = chosen},
		{.scenario = "air_only", .sets = "", .status = 2,
		 .why = "requirement not met: facility_power > <budget> & more"},
		{.scenario = "b200", .sets = "", .why = "", .accelerators = 5120, .racks = 186,
		 .facility_power = 10.9e6, .capex = 2690696929.3, .annual_energy_cost = 57299919.67,
		 .tco = 2977196527.64, .w = &w[1], .nw = 1},
		{.scenario = "cheap", .sets = "hall_b.electricity=0.35 CNY/kWh", .why = "",
		 .accelerators = 10000, .racks = 261, .facility_power = 15.58e6,
		 .capex = 3087677074.2, .annual_energy_cost = 47762530.64, .tco = 3326489727.38,
		 .w = &w[2], .nw = 1},
	};
	CompareObjective obj[3] = {{"capex", "capex (CNY)", 1, false},
				   {"annual_energy_cost", "annual energy cost (CNY)", 1, false},
				   {"time_to_train:gpt3", "gpt3 time to train (days)", 1 / 86400.0,
				    false}};
	Comparison cmp = {"examples/wanka.cluster", NULL, "CNY", rows, 4, obj, 3};
	compare_pareto(&cmp);
	CU_ASSERT(!rows[0].pareto && !rows[1].pareto && rows[2].pareto && rows[3].pareto);
	char *s = page(c, &cmp, NULL);
	assert_self_contained(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<h1>clusterc comparison: examples/wanka.cluster</h1>"));
	CU_ASSERT_EQUAL(count(s, "<svg"), 2); /* the scatter and the bars */
	CU_ASSERT_EQUAL(count(s, "&#9733; yes"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "not built (exit 2): requirement not met: facility_power "
					 "&gt; &lt;budget&gt; &amp; more"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<td class=\"n\">3,087.7</td>")); /* M CNY */
	/* 1.4 and 1.41 days: the column keeps the two places that tell them apart */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<td class=\"n\">1.40</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<td class=\"n\">1.41</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<td class=\"n\">1.20</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "hall_b.electricity=0.35 CNY/kWh"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "rack48.cooling = cold_plate"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "class=\"front\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">b200</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ">2.6bn<"));
	char *again = page(c, &cmp, NULL);
	CU_ASSERT_STRING_EQUAL(s, again);
	free(again);
	free(s);

	/* one objective, nothing built */
	rows[0].status = rows[2].status = rows[3].status = 1;
	cmp.nobj = 1;
	compare_pareto(&cmp);
	s = page(c, &cmp, NULL);
	assert_self_contained(s);
	CU_ASSERT_EQUAL(count(s, "<svg"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "One objective only"));
	free(s);
	ctx_free(c);
}

static void test_build_page(void)
{
	Built *b = unit_build(NULL, CLUSTERC_SOURCE_DIR "/examples/torus-3d.cluster", NULL, false);
	CU_ASSERT_EQUAL_FATAL(b->errors, 0);
	char *s = page(b->p.c, NULL, &b->d);
	assert_self_contained(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<h2>Capex by category</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<h2>Power per rack</h2>"));
	/* capex, power, a column per rack (12 racks), and the torus drawn inline */
	CU_ASSERT_EQUAL(count(s, "<svg"), 4);
	CU_ASSERT_EQUAL(count(s, "class=\"fabric\""), 1);
	Buf capex = {0};
	text_money(&capex, b->d.t.capex);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, capex.s));
	buf_free(&capex);
	char *again = page(b->p.c, NULL, &b->d);
	CU_ASSERT_STRING_EQUAL(s, again);
	free(again);
	free(s);
	unit_build_done(b);
}

void suite_html(void)
{
	CU_pSuite s = CU_add_suite("html", NULL, NULL);
	CU_add_test(s, "escaping and coordinates", test_escape);
	CU_add_test(s, "ticks: 1-2-5 steps, log axes", test_ticks);
	CU_add_test(s, "tick labels", test_tick_text);
	CU_add_test(s, "charts: no NaN, no -0, the same bytes", test_charts);
	CU_add_test(s, "comparison page", test_compare_page);
	CU_add_test(s, "build page", test_build_page);
}
