/*
 * units.c — quantities and dimensional analysis.
 *
 * A quantity is a double in coherent base units (m, kg, s, J, bit, FLOP, one unit of each
 * currency) and a vector of integer exponents over those bases (Dim). Parsing a unit such as
 * "CNY/kWh" yields the factor that turns the written number into base units, plus its
 * dimension; arithmetic on dimensions is addition of exponents. Energy, data and FLOP are bases
 * of their own (not SI derivations) so that messages can say "power" or "bandwidth", and every
 * currency is a base so that CNY and USD never mix without an explicit CNY/USD rate.
 *
 * Factors are the nearest doubles to their exact definitions; where the definition is an integer
 * or a power of two (kWh = 3.6e6 J, GiB = 2^33 bit, y = 31,536,000 s) the factor is exact, so
 * "1 GB/s == 8 Gbps" and "1 y == 8760 h" hold exactly in double arithmetic.
 *
 * Nothing here allocates or keeps state: the tables are const, and every function writes only
 * into what its caller passes. unit_parse is a single left-to-right scan without recursion and
 * with every index checked against `len`, because it sees raw (and fuzzed) source text.
 */
#include "lang.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* ---- the unit table ------------------------------------------------------------------------ */

/* X(symbol, factor to base units, exponents of length mass time energy data flop).
 * Decimal prefixes of bytes are powers of ten (GB = 8e9 bit), binary ones powers of two written
 * as hex floats so they are visibly exact. A year is 365 days, as in energy bills and PRODUCT.md;
 * the CO2e units are plain mass so that kg/kWh and kgCO2e/kWh are the same carbon intensity. */
#define UNITS(X)                                                                   \
	X("%", 0.01, 0, 0, 0, 0, 0, 0)                                             \
	X("m", 1, 1, 0, 0, 0, 0, 0)                                                \
	X("km", 1e3, 1, 0, 0, 0, 0, 0)                                             \
	X("cm", 1e-2, 1, 0, 0, 0, 0, 0)                                            \
	X("mm", 1e-3, 1, 0, 0, 0, 0, 0)                                            \
	X("U", 0.04445, 1, 0, 0, 0, 0, 0)                                          \
	X("ft", 0.3048, 1, 0, 0, 0, 0, 0)                                          \
	X("in", 0.0254, 1, 0, 0, 0, 0, 0)                                          \
	X("g", 1e-3, 0, 1, 0, 0, 0, 0)                                             \
	X("kg", 1, 0, 1, 0, 0, 0, 0)                                               \
	X("t", 1e3, 0, 1, 0, 0, 0, 0)                                              \
	X("gCO2e", 1e-3, 0, 1, 0, 0, 0, 0)                                         \
	X("kgCO2e", 1, 0, 1, 0, 0, 0, 0)                                           \
	X("tCO2e", 1e3, 0, 1, 0, 0, 0, 0)                                          \
	X("s", 1, 0, 0, 1, 0, 0, 0)                                                \
	X("ms", 1e-3, 0, 0, 1, 0, 0, 0)                                            \
	X("us", 1e-6, 0, 0, 1, 0, 0, 0)                                            \
	X("µs", 1e-6, 0, 0, 1, 0, 0, 0)                                            \
	X("ns", 1e-9, 0, 0, 1, 0, 0, 0)                                            \
	X("min", 60, 0, 0, 1, 0, 0, 0)                                             \
	X("h", 3600, 0, 0, 1, 0, 0, 0)                                             \
	X("d", 86400, 0, 0, 1, 0, 0, 0)                                            \
	X("wk", 604800, 0, 0, 1, 0, 0, 0)                                          \
	X("y", 31536000, 0, 0, 1, 0, 0, 0)                                         \
	X("yr", 31536000, 0, 0, 1, 0, 0, 0)                                        \
	X("J", 1, 0, 0, 0, 1, 0, 0)                                                \
	X("kJ", 1e3, 0, 0, 0, 1, 0, 0)                                             \
	X("MJ", 1e6, 0, 0, 0, 1, 0, 0)                                             \
	X("GJ", 1e9, 0, 0, 0, 1, 0, 0)                                             \
	X("TJ", 1e12, 0, 0, 0, 1, 0, 0)                                            \
	X("PJ", 1e15, 0, 0, 0, 1, 0, 0)                                            \
	X("Wh", 3600, 0, 0, 0, 1, 0, 0)                                            \
	X("kWh", 3.6e6, 0, 0, 0, 1, 0, 0)                                          \
	X("MWh", 3.6e9, 0, 0, 0, 1, 0, 0)                                          \
	X("GWh", 3.6e12, 0, 0, 0, 1, 0, 0)                                         \
	X("TWh", 3.6e15, 0, 0, 0, 1, 0, 0)                                         \
	X("W", 1, 0, 0, -1, 1, 0, 0)                                               \
	X("mW", 1e-3, 0, 0, -1, 1, 0, 0)                                           \
	X("kW", 1e3, 0, 0, -1, 1, 0, 0)                                            \
	X("MW", 1e6, 0, 0, -1, 1, 0, 0)                                            \
	X("GW", 1e9, 0, 0, -1, 1, 0, 0)                                            \
	X("b", 1, 0, 0, 0, 0, 1, 0)                                                \
	X("bit", 1, 0, 0, 0, 0, 1, 0)                                              \
	X("kb", 1e3, 0, 0, 0, 0, 1, 0)                                             \
	X("Mb", 1e6, 0, 0, 0, 0, 1, 0)                                             \
	X("Gb", 1e9, 0, 0, 0, 0, 1, 0)                                             \
	X("Tb", 1e12, 0, 0, 0, 0, 1, 0)                                            \
	X("Pb", 1e15, 0, 0, 0, 0, 1, 0)                                            \
	X("B", 8, 0, 0, 0, 0, 1, 0)                                                \
	X("kB", 8e3, 0, 0, 0, 0, 1, 0)                                             \
	X("MB", 8e6, 0, 0, 0, 0, 1, 0)                                             \
	X("GB", 8e9, 0, 0, 0, 0, 1, 0)                                             \
	X("TB", 8e12, 0, 0, 0, 0, 1, 0)                                            \
	X("PB", 8e15, 0, 0, 0, 0, 1, 0)                                            \
	X("EB", 8e18, 0, 0, 0, 0, 1, 0)                                            \
	X("KiB", 0x1p13, 0, 0, 0, 0, 1, 0)                                         \
	X("MiB", 0x1p23, 0, 0, 0, 0, 1, 0)                                         \
	X("GiB", 0x1p33, 0, 0, 0, 0, 1, 0)                                         \
	X("TiB", 0x1p43, 0, 0, 0, 0, 1, 0)                                         \
	X("PiB", 0x1p53, 0, 0, 0, 0, 1, 0)                                         \
	X("EiB", 0x1p63, 0, 0, 0, 0, 1, 0)                                         \
	X("bps", 1, 0, 0, -1, 0, 1, 0)                                             \
	X("kbps", 1e3, 0, 0, -1, 0, 1, 0)                                          \
	X("Mbps", 1e6, 0, 0, -1, 0, 1, 0)                                          \
	X("Gbps", 1e9, 0, 0, -1, 0, 1, 0)                                          \
	X("Tbps", 1e12, 0, 0, -1, 0, 1, 0)                                         \
	X("Pbps", 1e15, 0, 0, -1, 0, 1, 0)                                         \
	X("FLOP", 1, 0, 0, 0, 0, 0, 1)                                             \
	X("GFLOP", 1e9, 0, 0, 0, 0, 0, 1)                                          \
	X("TFLOP", 1e12, 0, 0, 0, 0, 0, 1)                                         \
	X("PFLOP", 1e15, 0, 0, 0, 0, 0, 1)                                         \
	X("EFLOP", 1e18, 0, 0, 0, 0, 0, 1)                                         \
	X("ZFLOP", 1e21, 0, 0, 0, 0, 0, 1)                                         \
	X("FLOPS", 1, 0, 0, -1, 0, 0, 1)                                           \
	X("GFLOPS", 1e9, 0, 0, -1, 0, 0, 1)                                        \
	X("TFLOPS", 1e12, 0, 0, -1, 0, 0, 1)                                       \
	X("PFLOPS", 1e15, 0, 0, -1, 0, 0, 1)                                       \
	X("EFLOPS", 1e18, 0, 0, -1, 0, 0, 1)                                       \
	X("Hz", 1, 0, 0, -1, 0, 0, 0)                                              \
	X("kHz", 1e3, 0, 0, -1, 0, 0, 0)                                           \
	X("MHz", 1e6, 0, 0, -1, 0, 0, 0)                                           \
	X("GHz", 1e9, 0, 0, -1, 0, 0, 0)

enum { NPHYS = DIM_FIRST_CURRENCY }; /* the bases before the currencies */

typedef struct UnitDef {
	const char *sym;
	double factor;
	int8_t e[NPHYS];
} UnitDef;

static const UnitDef units[] = {
#define X(s, f, l, m, t, e, d, fl) {s, f, {l, m, t, e, d, fl}},
	UNITS(X)
#undef X
};
enum { NUNITS = sizeof units / sizeof units[0] };

/* Currencies are units too (1 CNY is one unit of DIM_CNY), listed after the physical ones. */
const char *const unit_names[] = {
#define X(s, f, l, m, t, e, d, fl) s,
	UNITS(X)
#undef X
#define X(c) #c,
	CURRENCIES(X)
#undef X
};
const int unit_count = (int)(sizeof unit_names / sizeof unit_names[0]);

const char *const currency_names[] = {
#define X(c) #c,
	CURRENCIES(X)
#undef X
};
const int currency_count = (int)(sizeof currency_names / sizeof currency_names[0]);

/* ---- dimensions ---------------------------------------------------------------------------- */

const Dim DIM_NONE = {{0}};

/* Exponents live in int8_t; real specs stay in single digits, and clamping keeps absurd
 * arithmetic (a fuzzer's m^9 multiplied a hundred times) defined rather than wrapping. */
static int8_t clamp8(int v)
{
	return (int8_t)(v > INT8_MAX ? INT8_MAX : v < INT8_MIN ? INT8_MIN : v);
}

Dim dim_make(int length, int mass, int time, int energy, int data, int flop)
{
	Dim d = DIM_NONE;
	d.e[DIM_LENGTH] = clamp8(length);
	d.e[DIM_MASS] = clamp8(mass);
	d.e[DIM_TIME] = clamp8(time);
	d.e[DIM_ENERGY] = clamp8(energy);
	d.e[DIM_DATA] = clamp8(data);
	d.e[DIM_FLOP] = clamp8(flop);
	return d;
}

Dim dim_mul(Dim a, Dim b)
{
	for (int i = 0; i < DIM_COUNT; i++)
		a.e[i] = clamp8(a.e[i] + b.e[i]);
	return a;
}

Dim dim_div(Dim a, Dim b)
{
	for (int i = 0; i < DIM_COUNT; i++)
		a.e[i] = clamp8(a.e[i] - b.e[i]);
	return a;
}

Dim dim_pow(Dim a, int k)
{
	if (k > 1000)
		k = 1000; /* keeps the product below int overflow; clamp8 does the rest */
	if (k < -1000)
		k = -1000;
	for (int i = 0; i < DIM_COUNT; i++)
		a.e[i] = clamp8(a.e[i] * k);
	return a;
}

bool dim_eq(Dim a, Dim b)
{
	return memcmp(a.e, b.e, sizeof a.e) == 0;
}

bool dim_is_none(Dim a)
{
	return dim_eq(a, DIM_NONE);
}

int dim_currency(Dim a)
{
	int found = -1;
	for (int i = 0; i < currency_count; i++) {
		if (a.e[DIM_FIRST_CURRENCY + i] == 0)
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

int dim_money_exp(Dim a)
{
	int c = dim_currency(a);
	return c < 0 ? 0 : a.e[DIM_FIRST_CURRENCY + c];
}

Dim dim_with_money(Dim a, int currency, int exp)
{
	assert(currency >= 0 && currency < currency_count);
	if (currency < 0 || currency >= currency_count)
		return a;
	a.e[DIM_FIRST_CURRENCY + currency] = clamp8(a.e[DIM_FIRST_CURRENCY + currency] + exp);
	return a;
}

Dim dim_strip_money(Dim a)
{
	for (int i = DIM_FIRST_CURRENCY; i < DIM_COUNT; i++)
		a.e[i] = 0;
	return a;
}

const char *currency_name(int currency)
{
	assert(currency >= 0 && currency < currency_count);
	if (currency < 0 || currency >= currency_count)
		return "?";
	return currency_names[currency];
}

int currency_lookup(const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < currency_count; i++)
		if (strcmp(s, currency_names[i]) == 0)
			return i;
	return -1;
}

static bool has_money(Dim d)
{
	return !dim_eq(d, dim_strip_money(d));
}

/* ---- bounded output ------------------------------------------------------------------------ */

/* Appends whole pieces to a caller's buffer; a piece that does not fit is dropped along with
 * everything after it, so truncated output never ends inside a UTF-8 sequence. */
typedef struct Out {
	char *s;
	size_t n, len;
	bool full;
} Out;

static void out_put(Out *o, const char *t, size_t k)
{
	if (o->full || o->len + k >= o->n) {
		o->full = true;
		return;
	}
	memcpy(o->s + o->len, t, k);
	o->len += k;
	o->s[o->len] = 0;
}

static void out_puts(Out *o, const char *t)
{
	out_put(o, t, strlen(t));
}

/* ---- names of dimensions ------------------------------------------------------------------- */

typedef struct NamedDim {
	int8_t e[NPHYS]; /* length mass time energy data flop */
	const char *name;
} NamedDim;

static const NamedDim named_dims[] = {
	{{1, 0, 0, 0, 0, 0}, "length"},
	{{0, 1, 0, 0, 0, 0}, "mass"},
	{{0, 0, 1, 0, 0, 0}, "time"},
	{{0, 0, 0, 1, 0, 0}, "energy"},
	{{0, 0, -1, 1, 0, 0}, "power"},
	{{0, 0, 0, 0, 1, 0}, "data size"},
	{{0, 0, -1, 0, 1, 0}, "bandwidth"},
	{{0, 0, -1, 0, 0, 1}, "compute"},
	{{0, 0, 0, 0, 0, 1}, "operations"},
	{{0, 0, -1, 0, 0, 0}, "frequency"},
	{{0, 1, 0, -1, 0, 0}, "carbon intensity"},
	{{0, 1, -1, 0, 0, 0}, "mass per time"},
	{{2, 0, 0, 0, 0, 0}, "area"},
	{{-2, 0, -1, 1, 0, 0}, "power per area"},
};

/* Words for the bases in generic products such as "length·time⁻¹". */
static const char *const base_words[NPHYS] = {"length", "mass", "time", "energy", "data",
					      "operations"};
/* Symbols for the bases in generic units such as "kg·m/s^2". */
static const char *const base_syms[NPHYS] = {"m", "kg", "s", "J", "bit", "FLOP"};

static const char *named_phys(Dim d)
{
	if (has_money(d))
		return NULL;
	for (size_t i = 0; i < sizeof named_dims / sizeof named_dims[0]; i++)
		if (memcmp(d.e, named_dims[i].e, NPHYS) == 0)
			return named_dims[i].name;
	return NULL;
}

static const char *base_word(int i)
{
	return i < NPHYS ? base_words[i] : currency_names[i - DIM_FIRST_CURRENCY];
}

static const char *base_sym(int i)
{
	return i < NPHYS ? base_syms[i] : currency_names[i - DIM_FIRST_CURRENCY];
}

/* An exponent as UTF-8 superscripts: -12 → "⁻¹²". */
static void put_superscript(Out *o, int e)
{
	static const char *const digits[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
	char dec[16];
	if (e < 0)
		out_puts(o, "⁻");
	snprintf(dec, sizeof dec, "%d", e < 0 ? -e : e);
	for (const char *p = dec; *p; p++)
		out_puts(o, digits[*p - '0']);
}

/* "length·time⁻¹", bases in table order, currencies by code. */
static void put_generic_name(Out *o, Dim d)
{
	bool first = true;
	for (int i = 0; i < DIM_COUNT; i++) {
		if (!d.e[i])
			continue;
		if (!first)
			out_puts(o, "·");
		first = false;
		out_puts(o, base_word(i));
		if (d.e[i] != 1)
			put_superscript(o, d.e[i]);
	}
	if (first)
		out_puts(o, "dimensionless");
}

/* An exchange rate is one currency over another and nothing else (CNY/USD). */
static bool exchange_rate(Dim d, int *num, int *den)
{
	*num = *den = -1;
	for (int i = 0; i < DIM_COUNT; i++) {
		int x = d.e[i];
		if (x == 1 && i >= DIM_FIRST_CURRENCY && *num < 0)
			*num = i - DIM_FIRST_CURRENCY;
		else if (x == -1 && i >= DIM_FIRST_CURRENCY && *den < 0)
			*den = i - DIM_FIRST_CURRENCY;
		else if (x)
			return false;
	}
	return *num >= 0 && *den >= 0;
}

static void put_name(Out *o, Dim d)
{
	const char *name = named_phys(d);
	if (dim_is_none(d)) {
		out_puts(o, "dimensionless");
		return;
	}
	if (name) {
		out_puts(o, name);
		return;
	}
	int c = dim_currency(d), e = dim_money_exp(d);
	Dim phys = dim_strip_money(d);
	if (c >= 0 && e == 1) {
		/* Money of one currency per something: name the something when it has a name, or
		 * when it is a pure denominator (CNY/m^2 reads "money (CNY) per length²"). */
		Dim per = dim_pow(phys, -1);
		bool all_denominator = true;
		for (int i = 0; i < NPHYS; i++)
			all_denominator &= phys.e[i] <= 0;
		if (dim_is_none(phys) || named_phys(per) || all_denominator) {
			out_puts(o, "money (");
			out_puts(o, currency_names[c]);
			out_puts(o, ")");
			if (dim_is_none(phys))
				return;
			out_puts(o, " per ");
			name = named_phys(per);
			if (name)
				out_puts(o, name);
			else
				put_generic_name(o, per);
			return;
		}
	}
	if (c >= 0 && e == -1 && named_phys(phys)) {
		out_puts(o, named_phys(phys));
		out_puts(o, " per money (");
		out_puts(o, currency_names[c]);
		out_puts(o, ")");
		return;
	}
	int num, den;
	if (exchange_rate(d, &num, &den)) {
		out_puts(o, "exchange rate (");
		out_puts(o, currency_names[num]);
		out_puts(o, " per ");
		out_puts(o, currency_names[den]);
		out_puts(o, ")");
		return;
	}
	put_generic_name(o, d);
}

const char *dim_name(Dim d, char *buf, size_t n)
{
	if (!buf || n == 0)
		return buf;
	buf[0] = 0;
	Out o = {buf, n, 0, false};
	put_name(&o, d);
	return buf;
}

/* ---- parsing units ------------------------------------------------------------------------- */

/* Limits on one unit expression. Real units use two or three symbols and exponents up to 3;
 * the limits keep every exponent inside int8_t (8 x 9 < 127) and bound the work per unit. */
enum {
	MAX_UNIT_SYMBOLS = 8,
	MAX_UNIT_EXP = 9,
	MAX_SUGGEST_LEN = 32, /* longer words are not typos of a unit symbol */
};

static const UnitDef *find_phys(const char *s, size_t n)
{
	for (int i = 0; i < NUNITS; i++)
		if (strlen(units[i].sym) == n && memcmp(units[i].sym, s, n) == 0)
			return &units[i];
	return NULL;
}

/* Looks a symbol up; on success sets *factor and *d. The Greek mu (U+03BC) is taken for the
 * micro sign (U+00B5), since keyboards produce either and they look the same. */
static bool lookup_symbol(const char *s, size_t n, double *factor, Dim *d)
{
	const UnitDef *u = find_phys(s, n);
	if (!u && n >= 2 && n < MAX_SUGGEST_LEN && (unsigned char)s[0] == 0xCE &&
	    (unsigned char)s[1] == 0xBC) {
		char tmp[MAX_SUGGEST_LEN];
		memcpy(tmp, "\xC2\xB5", 2);
		memcpy(tmp + 2, s + 2, n - 2);
		u = find_phys(tmp, n);
	}
	*d = DIM_NONE;
	if (u) {
		*factor = u->factor;
		memcpy(d->e, u->e, NPHYS);
		return true;
	}
	for (int i = 0; i < currency_count; i++) {
		if (strlen(currency_names[i]) == n && memcmp(currency_names[i], s, n) == 0) {
			*factor = 1;
			d->e[DIM_FIRST_CURRENCY + i] = 1;
			return true;
		}
	}
	return false;
}

static int fold(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* Optimal string alignment distance (Levenshtein plus adjacent transposition, so "Gbsp" is one
 * edit from "Gbps"). Both strings are at most MAX_SUGGEST_LEN bytes. */
static int edit_distance(const char *a, size_t na, const char *b, size_t nb, bool fold_case)
{
	int d[MAX_SUGGEST_LEN + 1][MAX_SUGGEST_LEN + 1];
	if (na > MAX_SUGGEST_LEN || nb > MAX_SUGGEST_LEN)
		return MAX_SUGGEST_LEN;
	for (size_t i = 0; i <= na; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		for (size_t j = 1; j <= nb; j++) {
			int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
			if (fold_case) {
				ca = fold(ca);
				cb = fold(cb);
			}
			int best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1) {
				int pa = (unsigned char)a[i - 2], pb = (unsigned char)b[j - 2];
				if (fold_case) {
					pa = fold(pa);
					pb = fold(pb);
				}
				if (ca == pb && pa == cb && d[i - 2][j - 2] + 1 < best)
					best = d[i - 2][j - 2] + 1;
			}
			d[i][j] = best;
		}
	}
	return d[na][nb];
}

/* Words people write for a unit that no edit distance would find. */
static const char *const aliases[][2] = {
	{"sec", "s"},    {"secs", "s"},   {"hr", "h"},        {"hrs", "h"},     {"hour", "h"},
	{"hours", "h"},  {"day", "d"},    {"days", "d"},      {"week", "wk"},   {"weeks", "wk"},
	{"year", "y"},   {"years", "y"},  {"byte", "B"},      {"bytes", "B"},   {"kbit", "kb"},
	{"Mbit", "Mb"},  {"Gbit", "Gb"},  {"Tbit", "Tb"},     {"RMB", "CNY"},   {"yuan", "CNY"},
	{"RU", "U"},     {"watt", "W"},   {"watts", "W"},     {"meter", "m"},   {"metre", "m"},
	{"tonne", "t"},  {"ton", "t"},    {"tCO2", "tCO2e"},  {"kgCO2", "kgCO2e"},
	{"gCO2", "gCO2e"},
};

/* The known unit closest to an unknown symbol: an alias, then a match ignoring case (among
 * several, the one agreeing in case at most positions: "KB" → "kB", not "kb"), then the
 * nearest by edit distance, ignoring case, within 1 edit for symbols of 2–3 bytes and 2 for
 * longer ones (one-letter symbols are too short for a guess to mean anything). */
static const char *suggest_unit(const char *s, size_t n)
{
	if (n == 0 || n > MAX_SUGGEST_LEN)
		return NULL;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		const char *a = aliases[i][0];
		if (strlen(a) == n && edit_distance(a, n, s, n, true) == 0)
			return aliases[i][1];
	}
	const char *best = NULL;
	int best_key = 0;
	for (int i = 0; i < unit_count; i++) {
		const char *u = unit_names[i];
		size_t k = strlen(u);
		if (k != n || edit_distance(u, k, s, n, true) != 0)
			continue;
		int agree = 0;
		for (size_t j = 0; j < n; j++)
			agree += u[j] == s[j];
		if (!best || agree > best_key) {
			best = u;
			best_key = agree;
		}
	}
	if (best)
		return best;
	int limit = n <= 1 ? 0 : n <= 3 ? 1 : 2;
	for (int i = 0; i < unit_count; i++) {
		const char *u = unit_names[i];
		size_t k = strlen(u);
		if (k > MAX_SUGGEST_LEN)
			continue;
		int dist = edit_distance(u, k, s, n, true);
		if (dist == 0 || dist > limit)
			continue;
		/* Ties go to the one closer in case, then to table order. */
		int key = dist * 100 + edit_distance(u, k, s, n, false);
		if (!best || key < best_key) {
			best = u;
			best_key = key;
		}
	}
	return best;
}

static bool is_dot(const char *t, size_t len, size_t i)
{
	return i + 1 < len && (unsigned char)t[i] == 0xC2 && (unsigned char)t[i + 1] == 0xB7;
}

/* A superscript two or three (U+00B2, U+00B3) after a symbol: "W/m²". Returns 2, 3 or 0. */
static int superscript_at(const char *t, size_t len, size_t i)
{
	if (i + 1 >= len || (unsigned char)t[i] != 0xC2)
		return 0;
	unsigned char c = (unsigned char)t[i + 1];
	return c == 0xB2 ? 2 : c == 0xB3 ? 3 : 0;
}

static bool is_sep(const char *t, size_t len, size_t i)
{
	return t[i] == '/' || t[i] == '^' || is_dot(t, len, i) || superscript_at(t, len, i);
}

typedef struct ParseError {
	const char *msg;
	size_t off, len;
	const char *suggestion;
} ParseError;

static bool fail(ParseError *pe, const char *msg, size_t off, size_t len)
{
	pe->msg = msg;
	pe->off = off;
	pe->len = len;
	return false;
}

/* The message for a symbol that is not a unit: a stray character when there is one (so "kW h"
 * points at the space), otherwise "unknown unit" over the whole symbol. */
static bool fail_symbol(ParseError *pe, const char *t, size_t start, size_t end)
{
	for (size_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)t[i];
		if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '%' || c == '_')
			continue;
		if (c == '*')
			return fail(pe, "'*' does not join units; write '·' (kW·h) or '/'", i, 1);
		if (c == ' ' || c == '\t')
			return fail(pe, "a unit is written without spaces", i, 1);
		if (c == '(' || c == ')')
			return fail(pe, "a unit cannot contain parentheses; write 'a/b/c' for a/(b·c)",
				    i, 1);
		return fail(pe, "unexpected character in unit", i, 1);
	}
	pe->suggestion = suggest_unit(t + start, end - start);
	return fail(pe, "unknown unit", start, end - start);
}

/* Grammar: unit = symbol [exp] { ("/" | "·") symbol [exp] }, exp = "^" ["-"] digits | "²" | "³".
 * Reading is left to right like arithmetic: "a/b/c" is (a/b)/c, i.e. a/(b·c), and "a/b·c" is
 * (a/b)·c, so "CNY/kW·h" means CNY·h/kW — write "CNY/kWh" for the price of energy. */
static bool parse(const char *t, size_t len, Qty *out, ParseError *pe)
{
	double factor = 1;
	int exps[DIM_COUNT] = {0};
	int sign = 1, nsyms = 0;
	size_t i = 0;

	if (len == 0)
		return fail(pe, "missing unit", 0, 0);
	for (;;) {
		size_t start = i;
		while (i < len && !is_sep(t, len, i))
			i++;
		if (i == start) {
			if (start == 0)
				return fail(pe, "a unit starts with a unit symbol", 0,
					    t[0] == '/' || t[0] == '^' ? 1 : 2);
			/* start > 0 means a separator came just before: "kW/", "kW//h", "kW/^2". */
			size_t sep = t[start - 1] == '/' ? start - 1 : start - 2;
			return fail(pe, t[start - 1] == '/' ? "missing unit after '/'" : "missing unit after '·'",
				    sep, start - sep);
		}
		if (++nsyms > MAX_UNIT_SYMBOLS)
			return fail(pe, "too many symbols in one unit (at most 8)", start, i - start);
		double f;
		Dim d;
		if (!lookup_symbol(t + start, i - start, &f, &d))
			return fail_symbol(pe, t, start, i);

		int exp = 1;
		if (i < len && t[i] == '^') {
			size_t caret = i++;
			bool neg = i < len && t[i] == '-';
			if (neg)
				i++;
			size_t digits = i;
			exp = 0;
			while (i < len && t[i] >= '0' && t[i] <= '9') {
				if (exp <= MAX_UNIT_EXP)
					exp = exp * 10 + (t[i] - '0');
				i++;
			}
			if (i == digits)
				return fail(pe, "expected a whole-number exponent after '^'", caret,
					    i - caret);
			if (exp == 0)
				return fail(pe, "a zero exponent cancels the unit; leave it out", caret,
					    i - caret);
			if (exp > MAX_UNIT_EXP)
				return fail(pe, "unit exponent too large (at most 9)", caret, i - caret);
			if (neg)
				exp = -exp;
		} else if (i < len && superscript_at(t, len, i)) {
			exp = superscript_at(t, len, i);
			i += 2;
		}

		factor *= pow(f, sign * exp);
		for (int k = 0; k < DIM_COUNT; k++)
			exps[k] += sign * exp * d.e[k];

		if (i == len)
			break;
		if (t[i] == '/') {
			sign = -1;
			i++;
		} else if (is_dot(t, len, i)) {
			sign = 1;
			i += 2;
		} else if (t[i] == '^' || superscript_at(t, len, i)) {
			return fail(pe, "a unit symbol takes one exponent", i, t[i] == '^' ? 1 : 2);
		} else {
			/* Only reachable after an exponent: "m^2x". */
			return fail(pe, "expected '/' or '·' after the exponent", i, 1);
		}
		if (i == len)
			return fail(pe, sign < 0 ? "missing unit after '/'" : "missing unit after '·'",
				    sign < 0 ? i - 1 : i - 2, sign < 0 ? 1 : 2);
	}
	if (!isfinite(factor) || factor == 0)
		return fail(pe, "unit too large or too small to represent", 0, len);
	out->v = factor;
	for (int k = 0; k < DIM_COUNT; k++)
		out->dim.e[k] = (int8_t)exps[k]; /* |exps| <= 8 * 9 by the limits above */
	return true;
}

bool unit_parse(const char *text, size_t len, Qty *out, const char **err, size_t *err_off,
		size_t *err_len, const char **suggestion)
{
	ParseError pe = {NULL, 0, 0, NULL};
	Qty q = {1, DIM_NONE};
	bool ok = parse(text ? text : "", text ? len : 0, &q, &pe);
	if (!ok)
		q = (Qty){1, DIM_NONE};
	if (out)
		*out = q;
	if (err)
		*err = pe.msg;
	if (err_off)
		*err_off = pe.off;
	if (err_len)
		*err_len = pe.len;
	if (suggestion)
		*suggestion = pe.suggestion;
	return ok;
}

/* ---- formatting quantities ----------------------------------------------------------------- */

/* How a number is written. SIG keeps every digit of the integer part (a diagnostic comparing
 * 123,456 kW with 123,400 kW must show the difference) and otherwise at most 4 significant
 * digits: 12,750 / 10.2 / 0.6 / 0.001234. MONEY keeps every integer digit and at most two
 * decimals: 2,500,000,000 / 0.35. Both group thousands with ',' and trim trailing zeros.
 * Magnitudes from 1e15 up, and below 1e-4 (money: 0.01), are written as 1.235e15. */
typedef enum { NUM_SIG, NUM_MONEY } NumStyle;

static void put_number(Out *o, double x, NumStyle style)
{
	char tmp[64];
	if (isnan(x)) {
		out_puts(o, "nan");
		return;
	}
	if (isinf(x)) {
		out_puts(o, x < 0 ? "-inf" : "inf");
		return;
	}
	double a = fabs(x);
	if (a == 0) {
		out_puts(o, "0");
		return;
	}
	if (a >= 1e15 || a < (style == NUM_MONEY ? 0.01 : 1e-4)) {
		/* "1.235e+15" → "1.235e15", "1e-05" → "1e-5": the form a spec would use. */
		snprintf(tmp, sizeof tmp, "%.4g", x);
		char *e = strchr(tmp, 'e');
		if (e) {
			char *w = e + 1, *r = e + 1;
			if (*r == '+')
				r++;
			else if (*r == '-')
				*w++ = *r++;
			while (*r == '0' && r[1])
				r++;
			memmove(w, r, strlen(r) + 1);
		}
		out_puts(o, tmp);
		return;
	}
	int dec;
	if (style == NUM_MONEY)
		dec = 2;
	else if (a >= 1000)
		dec = 0;
	else if (a >= 100)
		dec = 1;
	else if (a >= 10)
		dec = 2;
	else if (a >= 1)
		dec = 3;
	else {
		dec = 4; /* 0.1234, then one more decimal per leading zero: 0.01234 */
		for (double p = 0.1; a < p && dec < 12; p /= 10)
			dec++;
	}
	snprintf(tmp, sizeof tmp, "%.*f", dec, a);
	char *dot = strchr(tmp, '.');
	if (dot) {
		char *end = tmp + strlen(tmp);
		while (end > dot + 1 && end[-1] == '0')
			end--;
		if (end == dot + 1)
			end = dot;
		*end = 0;
	}
	if (x < 0 && strcmp(tmp, "0") != 0)
		out_puts(o, "-");
	size_t intlen = dot ? (size_t)(dot - tmp) : strlen(tmp);
	for (size_t i = 0; i < intlen; i++) {
		out_put(o, tmp + i, 1);
		size_t left = intlen - i - 1;
		if (left && left % 3 == 0)
			out_puts(o, ",");
	}
	out_puts(o, tmp + intlen);
}

/* The units diagnostics use, per dimension. A ladder's rungs are tried from the top: the value
 * is shown in the largest unit whose threshold (in base units) it reaches, so bandwidth reads
 * 800 Gbps or 1.6 Tbps and time 90 s, 1.5 min, 2 d or 5 y. Zero, infinities and NaN use the
 * home rung. Choices: power in W below 1 kW (optics and NICs), kW below 100 MW (nodes to
 * halls, as in power budgets), MW above; energy in kWh/MWh/GWh; data in decimal GB/TB/PB;
 * compute in TFLOPS/PFLOPS/EFLOPS; length in m, mm below 1 m; mass in kg, t from 1000 kg. */
typedef struct Rung {
	const char *unit;
	double from;
} Rung;

typedef struct Ladder {
	int8_t e[NPHYS]; /* length mass time energy data flop */
	int home;
	Rung rungs[8];
} Ladder;

static const Ladder ladders[] = {
	{{1, 0, 0, 0, 0, 0}, 1, {{"mm", 0}, {"m", 1}}},
	{{0, 1, 0, 0, 0, 0}, 0, {{"kg", 0}, {"t", 1e3}}},
	{{0, 0, 1, 0, 0, 0},
	 2,
	 {{"µs", 0}, {"ms", 1e-3}, {"s", 1}, {"min", 60}, {"h", 3600}, {"d", 86400},
	  {"y", 31536000}}},
	{{0, 0, 0, 1, 0, 0}, 0, {{"kWh", 0}, {"MWh", 3.6e9}, {"GWh", 3.6e12}}},
	{{0, 0, -1, 1, 0, 0}, 1, {{"W", 0}, {"kW", 1e3}, {"MW", 1e8}}},
	{{0, 0, 0, 0, 1, 0}, 0, {{"GB", 0}, {"TB", 8e12}, {"PB", 8e15}}},
	{{0, 0, -1, 0, 1, 0}, 1, {{"Mbps", 0}, {"Gbps", 1e9}, {"Tbps", 1e12}}},
	{{0, 0, -1, 0, 0, 1}, 0, {{"TFLOPS", 0}, {"PFLOPS", 1e15}, {"EFLOPS", 1e18}}},
	{{0, 0, 0, 0, 0, 1},
	 0,
	 {{"FLOP", 0}, {"GFLOP", 1e9}, {"TFLOP", 1e12}, {"PFLOP", 1e15}, {"EFLOP", 1e18},
	  {"ZFLOP", 1e21}}},
	{{0, 0, -1, 0, 0, 0}, 0, {{"Hz", 0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}}},
	{{0, 1, 0, -1, 0, 0}, 0, {{"kg/kWh", 0}}},
	{{0, 1, -1, 0, 0, 0}, 0, {{"t/y", 0}}},
	{{2, 0, 0, 0, 0, 0}, 0, {{"m^2", 0}}},
	{{-2, 0, -1, 1, 0, 0}, 0, {{"W/m^2", 0}}},
};

/* Money of one currency per a physical dimension: prices as they are quoted. Money per time is
 * per year because running costs are (energy_cost is money per year). */
static const struct {
	int8_t e[NPHYS]; /* the dimension after '/' */
	const char *unit;
} money_per[] = {
	{{0, 0, 0, 1, 0, 0}, "kWh"},   {{0, 0, -1, 1, 0, 0}, "kW"},    {{0, 0, 1, 0, 0, 0}, "y"},
	{{1, 0, 0, 0, 0, 0}, "m"},     {{0, 1, 0, 0, 0, 0}, "t"},      {{0, 0, 0, 0, 1, 0}, "GB"},
	{{0, 0, -1, 0, 1, 0}, "Gbps"}, {{0, 0, -1, 0, 0, 1}, "TFLOPS"}, {{2, 0, 0, 0, 0, 0}, "m^2"},
};

/* The base-unit spelling of any dimension, readable back by unit_parse: numerator symbols
 * joined by '·', each denominator symbol after its own '/' (left to right, "kg·m/s^2"), or
 * negative exponents when there is no numerator ("s^-1·m^-2"). */
static void put_base_unit(Out *o, Dim d)
{
	char ex[16];
	bool first = true;
	for (int i = 0; i < DIM_COUNT; i++) {
		if (d.e[i] <= 0)
			continue;
		if (!first)
			out_puts(o, "·");
		first = false;
		out_puts(o, base_sym(i));
		if (d.e[i] != 1) {
			snprintf(ex, sizeof ex, "^%d", d.e[i]);
			out_puts(o, ex);
		}
	}
	bool numerator = !first;
	for (int i = 0; i < DIM_COUNT; i++) {
		if (d.e[i] >= 0)
			continue;
		if (numerator)
			out_puts(o, "/");
		else if (!first)
			out_puts(o, "·");
		first = false;
		out_puts(o, base_sym(i));
		int shown = numerator ? -d.e[i] : d.e[i];
		if (shown != 1) {
			snprintf(ex, sizeof ex, "^%d", shown);
			out_puts(o, ex);
		}
	}
}

static bool phys_is(Dim d, const int8_t e[NPHYS])
{
	return memcmp(d.e, e, NPHYS) == 0;
}

/* The factor of a unit from the tables above. Going through unit_parse keeps the factor
 * identical to what a spec writing the same unit gets (0.6 CNY/kWh shows as 0.6 again). */
static double display_factor(const char *unit, Dim d)
{
	Qty f;
	bool ok = unit_parse(unit, strlen(unit), &f, NULL, NULL, NULL, NULL);
	assert(ok && dim_eq(f.dim, d));
	(void)d;
	return ok ? f.v : 1;
}

/* Picks the display unit for q: writes its spelling into unit (empty for a plain number) and
 * returns the base-unit size of one of it. */
static double choose_unit(Qty q, char *unit, size_t n, NumStyle *style)
{
	Dim d = q.dim;
	Out u = {unit, n, 0, false};
	unit[0] = 0;
	*style = NUM_SIG;
	if (dim_is_none(d))
		return 1;
	if (!has_money(d)) {
		for (size_t i = 0; i < sizeof ladders / sizeof ladders[0]; i++) {
			const Ladder *l = &ladders[i];
			if (!phys_is(d, l->e))
				continue;
			int r = l->home;
			if (q.v != 0 && isfinite(q.v)) {
				r = 0;
				for (int k = 1; k < 8 && l->rungs[k].unit; k++)
					if (fabs(q.v) >= l->rungs[k].from)
						r = k;
			}
			out_puts(&u, l->rungs[r].unit);
			return display_factor(unit, d);
		}
	}
	int c = dim_currency(d), num, den;
	Dim phys = dim_strip_money(d);
	if (c >= 0 && dim_money_exp(d) == 1) {
		if (dim_is_none(phys)) {
			/* Money is shown unscaled: a budget of 2,500,000,000 CNY is read digit by
			 * digit against a quote, never as "2.5 G". */
			*style = NUM_MONEY;
			out_puts(&u, currency_names[c]);
			return 1;
		}
		Dim per = dim_pow(phys, -1);
		for (size_t i = 0; i < sizeof money_per / sizeof money_per[0]; i++) {
			if (!phys_is(per, money_per[i].e))
				continue;
			out_puts(&u, currency_names[c]);
			out_puts(&u, "/");
			out_puts(&u, money_per[i].unit);
			return display_factor(unit, d);
		}
	}
	if (exchange_rate(d, &num, &den)) {
		out_puts(&u, currency_names[num]);
		out_puts(&u, "/");
		out_puts(&u, currency_names[den]);
		return 1;
	}
	put_base_unit(&u, d);
	return 1;
}

const char *qty_format(Qty q, char *buf, size_t n)
{
	char unit[64];
	NumStyle style;
	if (!buf || n == 0)
		return buf;
	buf[0] = 0;
	Out o = {buf, n, 0, false};
	double factor = choose_unit(q, unit, sizeof unit, &style);
	put_number(&o, q.v / factor, style);
	if (unit[0]) {
		out_puts(&o, " ");
		out_puts(&o, unit);
	}
	return buf;
}
