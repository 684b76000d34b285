/*
 * test_units.c — CUnit tests for lang/units.c: exact unit factors, compound units, dimension
 * arithmetic and names, parse errors with their spans and suggestions, and the formatting of
 * quantities for diagnostics. unit_main.c calls suite_units() to register them.
 */
#include "lang.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The factor of a unit that must parse; a failed parse fails the test and yields NaN. */
static Qty unit(const char *u)
{
	Qty q;
	const char *err = NULL, *sugg = NULL;
	size_t off = 0, len = 0;
	bool ok = unit_parse(u, strlen(u), &q, &err, &off, &len, &sugg);
	CU_ASSERT_TRUE(ok);
	if (!ok) {
		fprintf(stderr, "\nunit '%s' failed: %s\n", u, err ? err : "(no message)");
		q.v = NAN;
	}
	return q;
}

static double factor(const char *u)
{
	return unit(u).v;
}

static Dim dim_of(const char *u)
{
	return unit(u).dim;
}

static Dim money(int currency, Dim per)
{
	return dim_with_money(per, currency, 1);
}

static const char *name_of(Dim d)
{
	static char buf[128]; /* tests only: one name at a time */
	return dim_name(d, buf, sizeof buf);
}

static const Dim D_POWER = {{[DIM_ENERGY] = 1, [DIM_TIME] = -1}};
static const Dim D_BANDWIDTH = {{[DIM_DATA] = 1, [DIM_TIME] = -1}};

/* ---- exact conversions --------------------------------------------------------------------- */

static void test_exact_factors(void)
{
	CU_ASSERT(factor("GB/s") == 8 * factor("Gbps"));
	CU_ASSERT(factor("GB/s") == 8e9);
	CU_ASSERT(factor("kWh") == 3.6e6);
	CU_ASSERT(factor("kWh") == factor("kW") * factor("h"));
	CU_ASSERT(factor("y") == 8760 * factor("h"));
	CU_ASSERT(factor("y") == 31536000);
	CU_ASSERT(factor("yr") == factor("y"));
	CU_ASSERT(factor("wk") == 7 * factor("d"));
	CU_ASSERT(factor("B") == 8 * factor("bit"));
	CU_ASSERT(factor("GiB") == 8.0 * 1024 * 1024 * 1024);
	CU_ASSERT(factor("GiB") == 1.073741824 * factor("GB"));
	CU_ASSERT(factor("EiB") == 8.0 * 1024 * 1024 * 1024 * 1024 * 1024 * 1024);
	CU_ASSERT(factor("%") == 0.01);
	CU_ASSERT(factor("ft") == 0.3048);
	CU_ASSERT(factor("in") == 0.0254);
	CU_ASSERT(factor("t") == 1000);
	CU_ASSERT(factor("tCO2e") == factor("t"));
	CU_ASSERT(factor("U") == 0.04445);
	CU_ASSERT(factor("µs") == factor("us"));
	CU_ASSERT(factor("TFLOPS") == 1e12);
	CU_ASSERT(factor("CNY") == 1);
}

static void test_exact_sums(void)
{
	/* 12.75 MW for 8760 h is 111,690 MWh = 1.1169e8 kWh = 1.1169e11 Wh; every step is an
	 * integer below 2^53, so the products agree exactly. */
	double e = 12.75 * factor("MW") * 8760 * factor("h");
	CU_ASSERT(e == 1.1169e8 * factor("kWh"));
	CU_ASSERT(e == 1.1169e11 * factor("Wh"));
	CU_ASSERT(e == 4.02084e14);
	/* 400 Gbps = 50 GB/s. */
	CU_ASSERT(400 * factor("Gbps") == 50 * factor("GB/s"));
	CU_ASSERT(factor("Gb/s") == factor("Gbps"));
	/* 0.04445 has no exact binary form, so 48 U and 2.1336 m differ in the last bit at most. */
	double rack = 48 * factor("U");
	CU_ASSERT(fabs(rack - 2.1336 * factor("m")) <= 2.1336 * 0x1p-52);
	CU_ASSERT(dim_eq(dim_of("U"), dim_of("m")));
}

/* ---- compound units ------------------------------------------------------------------------ */

static void test_compound(void)
{
	int cny = currency_lookup("CNY"), usd = currency_lookup("USD");
	Qty q = unit("CNY/kWh");
	CU_ASSERT(dim_eq(q.dim, money(cny, dim_make(0, 0, 0, -1, 0, 0))));
	CU_ASSERT_DOUBLE_EQUAL(0.6 * q.v * 3.6e6, 0.6, 1e-15);
	q = unit("USD/kW");
	CU_ASSERT(dim_eq(q.dim, money(usd, dim_make(0, 0, 1, -1, 0, 0))));
	CU_ASSERT(q.v == 1e-3);
	CU_ASSERT(dim_eq(dim_of("GB/s"), D_BANDWIDTH));
	q = unit("W/m^2");
	CU_ASSERT(dim_eq(q.dim, dim_make(-2, 0, -1, 1, 0, 0)));
	CU_ASSERT(q.v == 1);
	CU_ASSERT(factor("kW/m^2") == 1000);
	CU_ASSERT(dim_eq(dim_of("W/m²"), dim_of("W/m^2")));
	q = unit("kg/kWh");
	CU_ASSERT(dim_eq(q.dim, dim_make(0, 1, 0, -1, 0, 0)));
	CU_ASSERT(dim_eq(dim_of("kgCO2e/kWh"), q.dim));
	CU_ASSERT(dim_eq(dim_of("FLOP/s"), dim_of("FLOPS")));
	CU_ASSERT(factor("FLOP/s") == factor("FLOPS"));
	CU_ASSERT(factor("PFLOP/s") == factor("PFLOPS"));
	CU_ASSERT(dim_eq(dim_of("Hz"), dim_make(0, 0, -1, 0, 0, 0)));
	CU_ASSERT(dim_eq(dim_of("kW·h"), dim_of("kWh")));
	CU_ASSERT(factor("kW·h") == factor("kWh"));
	CU_ASSERT(dim_eq(dim_of("m·s^-2"), dim_make(1, 0, -2, 0, 0, 0)));
	/* Left to right: a/b/c is (a/b)/c. */
	CU_ASSERT(dim_eq(dim_of("CNY/kW/h"), dim_of("CNY/kWh")));
	CU_ASSERT(factor("CNY/kW/h") == factor("CNY/kWh"));
	CU_ASSERT(dim_eq(dim_of("J/s·s"), dim_of("J")));
	CU_ASSERT(factor("μs") == factor("µs")); /* Greek mu and micro sign */
}

static void test_every_unit_parses(void)
{
	CU_ASSERT(unit_count > 90);
	for (int i = 0; i < unit_count; i++) {
		Qty q = unit(unit_names[i]);
		CU_ASSERT(q.v > 0 && isfinite(q.v));
		for (int j = 0; j < i; j++)
			CU_ASSERT(strcmp(unit_names[i], unit_names[j]) != 0);
	}
	for (int i = 0; i < currency_count; i++) {
		Qty q = unit(currency_names[i]);
		CU_ASSERT(q.v == 1);
		CU_ASSERT(dim_currency(q.dim) == i);
	}
}

/* ---- currencies ---------------------------------------------------------------------------- */

static void test_currencies(void)
{
	int cny = currency_lookup("CNY"), usd = currency_lookup("USD");
	CU_ASSERT_EQUAL(cny, 0);
	CU_ASSERT(usd > 0);
	CU_ASSERT_EQUAL(currency_lookup("XXX"), -1);
	CU_ASSERT_EQUAL(currency_lookup("cny"), -1);
	CU_ASSERT_EQUAL(currency_lookup(NULL), -1);
	CU_ASSERT_STRING_EQUAL(currency_name(usd), "USD");
	CU_ASSERT_EQUAL(currency_count, DIM_COUNT - DIM_FIRST_CURRENCY);

	Dim c = dim_of("CNY"), u = dim_of("USD");
	CU_ASSERT_FALSE(dim_eq(c, u));
	CU_ASSERT_EQUAL(dim_currency(c), cny);
	CU_ASSERT_EQUAL(dim_money_exp(c), 1);
	CU_ASSERT_EQUAL(dim_money_exp(dim_of("kWh/USD")), -1);
	CU_ASSERT_EQUAL(dim_currency(DIM_NONE), -1);
	CU_ASSERT_EQUAL(dim_money_exp(DIM_NONE), 0);

	Dim rate = dim_of("CNY/USD");
	CU_ASSERT_EQUAL(dim_currency(rate), -1); /* two currencies */
	CU_ASSERT_EQUAL(dim_money_exp(rate), 0);
	CU_ASSERT_STRING_EQUAL(name_of(rate), "exchange rate (CNY per USD)");
	/* 7.1 CNY/USD times a USD price gives CNY. */
	CU_ASSERT(dim_eq(dim_mul(rate, u), c));

	Dim p = dim_of("CNY/kWh");
	CU_ASSERT(dim_eq(dim_strip_money(p), dim_make(0, 0, 0, -1, 0, 0)));
	CU_ASSERT(dim_eq(dim_with_money(dim_strip_money(p), cny, 1), p));
	CU_ASSERT(dim_eq(dim_with_money(c, cny, -1), DIM_NONE));
	CU_ASSERT(dim_eq(dim_strip_money(rate), DIM_NONE));
}

/* ---- dimension arithmetic ------------------------------------------------------------------ */

static void test_dim_arithmetic(void)
{
	Dim time = dim_make(0, 0, 1, 0, 0, 0);
	CU_ASSERT(dim_eq(dim_mul(D_POWER, time), dim_of("J")));
	CU_ASSERT(dim_eq(dim_mul(D_BANDWIDTH, time), dim_of("GB")));
	CU_ASSERT(dim_eq(dim_div(dim_of("kWh"), time), D_POWER));
	CU_ASSERT(dim_eq(dim_pow(dim_of("m"), 2), dim_of("m^2")));
	CU_ASSERT(dim_eq(dim_pow(dim_of("s"), -1), dim_of("Hz")));
	CU_ASSERT(dim_eq(dim_pow(D_POWER, 0), DIM_NONE));
	CU_ASSERT(dim_is_none(dim_div(D_POWER, D_POWER)));
	CU_ASSERT(dim_is_none(dim_of("%")));
	CU_ASSERT_FALSE(dim_is_none(dim_of("CNY")));
	CU_ASSERT_FALSE(dim_eq(D_POWER, D_BANDWIDTH));
	/* Money per energy times energy is money of the same currency. */
	CU_ASSERT(dim_eq(dim_mul(dim_of("CNY/kWh"), dim_of("MWh")), dim_of("CNY")));
	/* Absurd exponents clamp instead of wrapping. */
	CU_ASSERT_EQUAL(dim_pow(dim_of("m"), 1000).e[DIM_LENGTH], INT8_MAX);
	CU_ASSERT_EQUAL(dim_pow(dim_of("m"), -1000000).e[DIM_LENGTH], INT8_MIN);
}

/* ---- names of dimensions ------------------------------------------------------------------- */

static void expect_name(const char *u, const char *name)
{
	const char *got = name_of(dim_of(u));
	CU_ASSERT_STRING_EQUAL(got, name);
	if (strcmp(got, name) != 0)
		fprintf(stderr, "\ndim_name(%s) = \"%s\", want \"%s\"\n", u, got, name);
}

static void test_dim_names(void)
{
	expect_name("%", "dimensionless");
	expect_name("m", "length");
	expect_name("kg", "mass");
	expect_name("s", "time");
	expect_name("kWh", "energy");
	expect_name("kW", "power");
	expect_name("GB", "data size");
	expect_name("Gbps", "bandwidth");
	expect_name("GB/s", "bandwidth");
	expect_name("TFLOPS", "compute");
	expect_name("FLOP", "operations");
	expect_name("GHz", "frequency");
	expect_name("CNY", "money (CNY)");
	expect_name("CNY/kWh", "money (CNY) per energy");
	expect_name("USD/kW", "money (USD) per power");
	expect_name("CNY/y", "money (CNY) per time");
	expect_name("USD/m", "money (USD) per length");
	expect_name("EUR/GB", "money (EUR) per data size");
	expect_name("kg/kWh", "carbon intensity");
	expect_name("tCO2e/y", "mass per time");
	expect_name("CNY/USD", "exchange rate (CNY per USD)");
	expect_name("m/s", "length·time⁻¹");
	expect_name("kWh^2", "energy²");
	expect_name("m^-3", "length⁻³");
	expect_name("CNY/m^3", "money (CNY) per length³");
	expect_name("CNY^2", "CNY²");
	expect_name("kWh/CNY", "energy per money (CNY)");

	/* Always NUL-terminated, never past n, never cut inside a UTF-8 sequence. */
	char small[8];
	memset(small, 'x', sizeof small);
	dim_name(dim_of("CNY/kWh"), small, sizeof small);
	CU_ASSERT(strlen(small) < sizeof small);
	char one[1] = {'x'};
	CU_ASSERT_PTR_EQUAL(dim_name(D_POWER, one, 1), one);
	CU_ASSERT_EQUAL(one[0], 0);
	char sup[11]; /* "length⁻¹" needs 12 bytes with its NUL: the "¹" must drop whole */
	dim_name(dim_of("m^-1"), sup, sizeof sup);
	CU_ASSERT_STRING_EQUAL(sup, "length⁻");
	CU_ASSERT_PTR_NULL(dim_name(D_POWER, NULL, 0));
}

/* ---- errors -------------------------------------------------------------------------------- */

typedef struct Failure {
	const char *err;
	size_t off, len;
	const char *sugg;
} Failure;

static Failure parse_fail(const char *u)
{
	Failure f = {NULL, 99, 99, NULL};
	Qty q;
	bool ok = unit_parse(u, strlen(u), &q, &f.err, &f.off, &f.len, &f.sugg);
	CU_ASSERT_FALSE(ok);
	CU_ASSERT_PTR_NOT_NULL(f.err);
	if (!f.err)
		f.err = "";
	CU_ASSERT(f.off <= strlen(u) && f.off + f.len <= strlen(u));
	return f;
}

static void expect_suggestion(const char *u, const char *want)
{
	Failure f = parse_fail(u);
	CU_ASSERT_STRING_EQUAL(f.err, "unknown unit");
	CU_ASSERT_PTR_NOT_NULL(f.sugg);
	if (f.sugg)
		CU_ASSERT_STRING_EQUAL(f.sugg, want);
}

static void test_errors(void)
{
	Failure f = parse_fail("kwh");
	CU_ASSERT_STRING_EQUAL(f.err, "unknown unit");
	CU_ASSERT_EQUAL(f.off, 0);
	CU_ASSERT_EQUAL(f.len, 3);
	expect_suggestion("kwh", "kWh");
	expect_suggestion("KW", "kW");
	expect_suggestion("gbps", "Gbps");
	expect_suggestion("Gbsp", "Gbps");
	expect_suggestion("KB", "kB");
	expect_suggestion("kib", "KiB");
	expect_suggestion("usd", "USD");
	expect_suggestion("TFLOPs", "TFLOPS");
	expect_suggestion("hrs", "h");
	expect_suggestion("RMB", "CNY");

	/* The span is the unknown symbol, wherever it is. */
	f = parse_fail("CNY/kwh");
	CU_ASSERT_EQUAL(f.off, 4);
	CU_ASSERT_EQUAL(f.len, 3);
	CU_ASSERT_STRING_EQUAL(f.sugg ? f.sugg : "", "kWh");
	f = parse_fail("USD·zz^2");
	CU_ASSERT_EQUAL(f.off, 5);
	CU_ASSERT_EQUAL(f.len, 2);

	/* Nothing close enough: no guess. */
	f = parse_fail("x");
	CU_ASSERT_PTR_NULL(f.sugg);
	f = parse_fail("banana");
	CU_ASSERT_PTR_NULL(f.sugg);

	/* Malformed text. */
	f = parse_fail("kW/");
	CU_ASSERT_STRING_EQUAL(f.err, "missing unit after '/'");
	CU_ASSERT_EQUAL(f.off, 2);
	CU_ASSERT_EQUAL(f.len, 1);
	f = parse_fail("");
	CU_ASSERT_STRING_EQUAL(f.err, "missing unit");
	CU_ASSERT_EQUAL(f.off, 0);
	CU_ASSERT_EQUAL(f.len, 0);
	f = parse_fail("kW//h");
	CU_ASSERT_STRING_EQUAL(f.err, "missing unit after '/'");
	CU_ASSERT_EQUAL(f.off, 2);
	f = parse_fail("kW·");
	CU_ASSERT_STRING_EQUAL(f.err, "missing unit after '·'");
	CU_ASSERT_EQUAL(f.off, 2);
	CU_ASSERT_EQUAL(f.len, 2);
	f = parse_fail("/s");
	CU_ASSERT_EQUAL(f.off, 0);
	f = parse_fail("m^");
	CU_ASSERT_STRING_EQUAL(f.err, "expected a whole-number exponent after '^'");
	CU_ASSERT_EQUAL(f.off, 1);
	f = parse_fail("m^-x");
	CU_ASSERT_STRING_EQUAL(f.err, "expected a whole-number exponent after '^'");
	f = parse_fail("m^0");
	CU_ASSERT_EQUAL(f.off, 1);
	f = parse_fail("m^12");
	CU_ASSERT_EQUAL(f.off, 1);
	CU_ASSERT_EQUAL(f.len, 3);
	f = parse_fail("m^2^2");
	CU_ASSERT_EQUAL(f.off, 3);
	f = parse_fail("m^2x");
	CU_ASSERT_EQUAL(f.off, 3);
	f = parse_fail("kW*h");
	CU_ASSERT_EQUAL(f.off, 2);
	CU_ASSERT_EQUAL(f.len, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.err, "'*'"));
	f = parse_fail("kW h");
	CU_ASSERT_EQUAL(f.off, 2);
	f = parse_fail("m·m·m·m·m·m·m·m·m");
	CU_ASSERT_PTR_NOT_NULL(strstr(f.err, "at most 8"));

	/* A NULL text is empty; NULL out-pointers are allowed; a failed parse leaves 1, none. */
	Qty q = {42, D_POWER};
	CU_ASSERT_FALSE(unit_parse(NULL, 5, &q, NULL, NULL, NULL, NULL));
	CU_ASSERT(q.v == 1 && dim_is_none(q.dim));
	CU_ASSERT_TRUE(unit_parse("kW", 2, NULL, NULL, NULL, NULL, NULL));
	/* Only len bytes count: "kWh" cut to two is kW. */
	CU_ASSERT_TRUE(unit_parse("kWh", 2, &q, NULL, NULL, NULL, NULL));
	CU_ASSERT(q.v == 1000);
}

/* Random and truncated inputs: must never crash or read past len (run under ASan). */
static void test_fuzz(void)
{
	static const char alphabet[] = "kWhGBps/^-0123456789mCNYU%*\xC2\xB7\xB5\xB2\xCE\xBC xi";
	static const char *const seeds[] = {"CNY/kWh", "W/m^2", "µs", "kW·h", "m^-2", "W/m²"};
	uint32_t state = 12345;
	char text[24];
	Qty q;
	const char *err, *sugg;
	size_t off, len;
	for (int iter = 0; iter < 20000; iter++) {
		size_t n = (state >> 8) % sizeof text;
		for (size_t i = 0; i < n; i++) {
			state = state * 1103515245u + 12345u;
			text[i] = alphabet[(state >> 16) % (sizeof alphabet - 1)];
		}
		state = state * 1103515245u + 12345u;
		char *heap = malloc(n ? n : 1); /* exact size, so ASan sees any overread */
		memcpy(heap, text, n);
		if (!unit_parse(heap, n, &q, &err, &off, &len, &sugg))
			CU_ASSERT(err && off <= n && off + len <= n);
		free(heap);
	}
	for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++)
		for (size_t n = 0; n <= strlen(seeds[s]); n++) {
			char *heap = malloc(n ? n : 1);
			memcpy(heap, seeds[s], n);
			if (!unit_parse(heap, n, &q, &err, &off, &len, &sugg))
				CU_ASSERT(err && off <= n && off + len <= n);
			free(heap);
		}
}

/* ---- formatting ---------------------------------------------------------------------------- */

static void expect_format(double v, const char *u, const char *want)
{
	char buf[96];
	Qty q = unit(u);
	q.v *= v;
	qty_format(q, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, want);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "\nqty_format(%g %s) = \"%s\", want \"%s\"\n", v, u, buf, want);
}

static void test_format(void)
{
	expect_format(12750000, "W", "12,750 kW");
	expect_format(10.2, "kW", "10.2 kW");
	expect_format(16, "MW", "16,000 kW");
	expect_format(150, "MW", "150 MW");
	expect_format(15, "W", "15 W");
	expect_format(8e9, "bps", "8 Gbps");
	expect_format(400, "Gbps", "400 Gbps");
	expect_format(1600, "Gbps", "1.6 Tbps");
	expect_format(100, "Mbps", "100 Mbps");
	expect_format(900, "GB/s", "7.2 Tbps");
	expect_format(80, "GiB", "85.9 GB");
	expect_format(2000, "TB", "2 PB");
	expect_format(1, "kWh", "1 kWh");
	expect_format(111690, "MWh", "111.7 GWh");
	expect_format(90, "s", "1.5 min");
	expect_format(36, "h", "1.5 d");
	expect_format(5, "y", "5 y");
	expect_format(0, "y", "0 s");
	expect_format(0.6, "m", "600 mm");
	expect_format(2.4, "m", "2.4 m");
	expect_format(2500000000, "CNY", "2,500,000,000 CNY");
	expect_format(1234.5678, "USD", "1,234.57 USD");
	expect_format(0.6, "CNY/kWh", "0.6 CNY/kWh");
	expect_format(300, "USD/kW", "300 USD/kW");
	expect_format(7.1, "CNY/USD", "7.1 CNY/USD");
	expect_format(989, "TFLOPS", "989 TFLOPS");
	expect_format(1979, "TFLOPS", "1.979 PFLOPS");
	expect_format(3.14e23, "FLOP", "314 ZFLOP");
	expect_format(0.5, "kg/kWh", "0.5 kg/kWh");
	expect_format(2, "%", "0.02");
	expect_format(1, "m/s", "1 m/s");
	expect_format(3, "J/bit", "3 J/bit");
	expect_format(1, "m·kg/s^2", "1 m·kg/s^2");
	expect_format(-1234.5678, "%", "-12.35");

	char buf[64];
	Qty q = {0.001234, DIM_NONE};
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "0.001234");
	q.v = 1e20;
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "1e20");
	q.v = 3e-7;
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "3e-7");
	q.v = 999999.6;
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "1,000,000");
	q.v = NAN;
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "nan");
	q.v = -INFINITY;
	CU_ASSERT_STRING_EQUAL(qty_format(q, buf, sizeof buf), "-inf");
	q = (Qty){12750000, D_POWER};
	char small[6];
	qty_format(q, small, sizeof small);
	CU_ASSERT(strlen(small) < sizeof small);
}

/* Every formatted unit reads back through unit_parse to the same dimension and value. */
static void test_format_round_trip(void)
{
	static const char *const samples[] = {
		"3 kW",     "5 MWh",     "2 PB",   "3 Tbps", "7 EFLOPS", "2 GHz",   "4 t",
		"9 CNY/y",  "2 USD/m",   "1 m^2",  "4 W/m^2", "6 EUR/GB", "3 m/s",  "2 kWh/CNY",
		"8 CNY^2",  "1 s^-1·m^-2", "5 tCO2e/y", "3 CNY/m^3",
	};
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
		const char *sp = strchr(samples[i], ' ');
		Qty q = unit(sp + 1);
		q.v *= strtod(samples[i], NULL);
		char buf[96];
		qty_format(q, buf, sizeof buf);
		char *u = strchr(buf, ' ');
		CU_ASSERT_PTR_NOT_NULL(u);
		if (!u)
			continue;
		*u = 0;
		Qty back = unit(u + 1);
		char digits[96], *w = digits;
		for (const char *r = buf; *r; r++)
			if (*r != ',')
				*w++ = *r;
		*w = 0;
		CU_ASSERT(dim_eq(back.dim, q.dim));
		CU_ASSERT_DOUBLE_EQUAL(strtod(digits, NULL) * back.v / q.v, 1, 1e-3);
	}
}

void suite_units(void);
void suite_units(void)
{
	CU_pSuite s = CU_add_suite("units", NULL, NULL);
	if (!s)
		return;
	CU_add_test(s, "exact factors", test_exact_factors);
	CU_add_test(s, "exact sums", test_exact_sums);
	CU_add_test(s, "compound units", test_compound);
	CU_add_test(s, "every unit parses", test_every_unit_parses);
	CU_add_test(s, "currencies stay separate", test_currencies);
	CU_add_test(s, "dimension arithmetic", test_dim_arithmetic);
	CU_add_test(s, "dimension names", test_dim_names);
	CU_add_test(s, "parse errors", test_errors);
	CU_add_test(s, "fuzzed input", test_fuzz);
	CU_add_test(s, "formatting", test_format);
	CU_add_test(s, "formatting round trip", test_format_round_trip);
}
