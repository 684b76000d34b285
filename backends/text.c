/*
 * text.c — numbers and values of the spec as text, shared by the backends. Every number is
 * rounded to a fixed count of decimals before it is printed, so the same design always gives
 * the same bytes, and none is ever printed as "-0".
 */
#include "backends.h"

#include <math.h>
#include <string.h>

/* "%.*f" of x, with "-0.00" and the like written without their sign. */
static void put_fixed(char *tmp, size_t n, double x, int decimals)
{
	snprintf(tmp, n, "%.*f", decimals, x);
	if (tmp[0] == '-' && strspn(tmp + 1, "0.") == strlen(tmp + 1))
		memmove(tmp, tmp + 1, strlen(tmp));
}

void text_fixed(Buf *b, double x, int decimals)
{
	char tmp[512]; /* DBL_MAX in %f is 309 digits */
	if (!isfinite(x))
		return;
	put_fixed(tmp, sizeof tmp, x, decimals);
	buf_puts(b, tmp);
}

void text_number(Buf *b, double x, int decimals, bool keep_decimals)
{
	char tmp[512];
	if (!isfinite(x)) {
		buf_putc(b, '-');
		return;
	}
	put_fixed(tmp, sizeof tmp, x, decimals);
	char *digits = tmp[0] == '-' ? tmp + 1 : tmp;
	char *dot = strchr(digits, '.');
	if (dot && !keep_decimals) {
		char *end = dot + strlen(dot);
		while (end > dot + 1 && end[-1] == '0')
			end--;
		if (end == dot + 1)
			end = dot;
		*end = 0;
		if (!*dot)
			dot = NULL;
	}
	if (digits != tmp)
		buf_putc(b, '-');
	size_t intlen = dot ? (size_t)(dot - digits) : strlen(digits);
	for (size_t i = 0; i < intlen; i++) {
		buf_putc(b, digits[i]);
		size_t left = intlen - i - 1;
		if (left && left % 3 == 0)
			buf_putc(b, ',');
	}
	buf_puts(b, digits + intlen);
}

void text_money(Buf *b, double x)
{
	bool whole = isfinite(x) && round(x * 100) == round(x) * 100;
	text_number(b, x, whole ? 0 : 2, true);
}

const char *text_spec_path(const Design *d)
{
	return d->spec_path ? d->spec_path : "";
}

const char *text_scenario(const Design *d)
{
	return d->scenario_name ? d->scenario_name : "default";
}

/* Shown as written: '|', '\\', '`', '[' and ']' backslash-escaped, '<', '>' and '&' as HTML
 * entities, so no markup, link or raw HTML in a spec's text gets through (issue 22); control
 * characters and line breaks as spaces. */
/* The bytes that end text_md_cell's scan of a plain cell: the end, the control characters and
 * DEL (each shown as a space), and what is escaped. */
#define C8(c) [c] = true, [c + 1] = true, [c + 2] = true, [c + 3] = true, [c + 4] = true, \
	      [c + 5] = true, [c + 6] = true, [c + 7] = true
static const bool md_stop[256] = {C8(0), C8(8), C8(16), C8(24), [0x7f] = true, ['|'] = true,
				  ['\\'] = true, ['`'] = true, ['['] = true, [']'] = true,
				  ['<'] = true, ['>'] = true, ['&'] = true};
#undef C8

bool text_md_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (p && !md_stop[*p])
		p++;
	return p && !*p;
}

void text_md_cell(Buf *b, const char *s)
{
	/* Most cells (names, ports) need nothing escaped: one copy (pull sheets write millions),
	 * the scan by table (md_stop). */
	const unsigned char *p = (const unsigned char *)s;
	while (p && !md_stop[*p])
		p++;
	if (p && !*p) {
		buf_put(b, s, (size_t)((const char *)p - s));
		return;
	}
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '|' || c == '\\' || c == '`' || c == '[' || c == ']') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c == '<') {
			buf_puts(b, "&lt;");
		} else if (c == '>') {
			buf_puts(b, "&gt;");
		} else if (c == '&') {
			buf_puts(b, "&amp;");
		} else if (c < 0x20 || c == 0x7f) {
			buf_putc(b, ' ');
		} else {
			buf_putc(b, (char)c);
		}
	}
}

void text_md_code(Buf *b, const char *s)
{
	int longest = 0, run = 0;
	for (const char *p = s; p && *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	bool pad = longest > 0; /* CommonMark strips one space on each side */
	for (int i = 0; i <= longest; i++)
		buf_putc(b, '`');
	if (pad)
		buf_putc(b, ' ');
	for (const char *p = s; p && *p; p++)
		buf_putc(b, (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
	if (pad)
		buf_putc(b, ' ');
	for (int i = 0; i <= longest; i++)
		buf_putc(b, '`');
}

/* The bytes that end a plain CSV cell's scan: the end, and what must be quoted. */
static const bool csv_stop[256] = {[0] = true, [','] = true, ['"'] = true, ['\r'] = true,
				   ['\n'] = true};

/* OWASP's CSV injection rule: a text cell that starts with = + - @, a tab or a carriage return
 * is a formula to a spreadsheet (text_csv_field guards it). */
static bool csv_formula(const unsigned char *p)
{
	return *p == '=' || *p == '+' || *p == '-' || *p == '@' || *p == '\t' || *p == '\r';
}

bool text_csv_plain(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;
	while (!csv_stop[p[n]])
		n++;
	*len = n;
	return !p[n] && !csv_formula(p);
}

/* The bytes that end text_plain's first scan: any that one of the three kinds stops at (the
 * end, md_stop's, csv_stop's, and for JSON the quote, the backslash and all above 0x7e). */
#define C8(c) [c] = true, [c + 1] = true, [c + 2] = true, [c + 3] = true, [c + 4] = true, \
	      [c + 5] = true, [c + 6] = true, [c + 7] = true
static const bool any_stop[256] = {
	C8(0), C8(8), C8(16), C8(24), [0x7f] = true, ['|'] = true, ['\\'] = true, ['`'] = true,
	['['] = true, [']'] = true, ['<'] = true, ['>'] = true, ['&'] = true, [','] = true,
	['"'] = true, C8(0x80), C8(0x88), C8(0x90), C8(0x98), C8(0xa0), C8(0xa8), C8(0xb0),
	C8(0xb8), C8(0xc0), C8(0xc8), C8(0xd0), C8(0xd8), C8(0xe0), C8(0xe8), C8(0xf0), C8(0xf8)};
#undef C8

unsigned text_plain(const char *s, size_t *len)
{
	if (!s) {
		*len = 0;
		return TEXT_PLAIN_CSV | TEXT_PLAIN_JSON; /* as text_csv_plain and "" */
	}
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	while (!any_stop[p[n]]) /* names: plain for all three, one table look-up a byte */
		n++;
	unsigned stop = 0;
	for (unsigned c; (c = p[n]) != 0; n++)
		stop |= (unsigned)csv_stop[c] | (unsigned)md_stop[c] << 1 |
			(unsigned)(c < 0x20 || c >= 0x7f || c == '"' || c == '\\') << 2;
	*len = n;
	return (stop & 1 || csv_formula(p) ? 0 : TEXT_PLAIN_CSV) | (stop & 2 ? 0 : TEXT_PLAIN_MD) |
	       (stop & 4 ? 0 : TEXT_PLAIN_JSON);
}

void text_csv_field(Buf *b, const char *s)
{
	if (!s)
		return;
	/* A formula (csv_formula) gets a leading ' inside quotes, which shows it as text.
	 * Numbers are never written through here (text_fixed, layout_number). One pass over
	 * the plain cell, the common case (a 100,000-GPU build writes millions). */
	const unsigned char *p = (const unsigned char *)s;
	bool formula = csv_formula(p);
	size_t n = 0;
	while (!csv_stop[p[n]])
		n++;
	if (!formula && !p[n]) {
		buf_put(b, s, n);
		return;
	}
	buf_putc(b, '"');
	if (formula)
		buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '"')
			buf_putc(b, '"');
		buf_putc(b, *s);
	}
	buf_putc(b, '"');
}

/* A quantity in base units as people read it: bandwidth in Tbit/s, power in kW, energy in kWh,
 * time in days, money (a currency's code) with two places, else the base units. */
const char *text_display_unit(const char *base, double *scale, int *decimals)
{
	static const struct {
		const char *base, *shown;
		double scale;
		int decimals;
	} units[] = {{"bit/s", "Tbit/s", 1e-12, 3}, {"W", "kW", 1e-3, 3}, {"J", "kWh", 1 / 3.6e6, 3},
		     {"s", "days", 1 / 86400.0, 4}, {"B", "TB", 1e-12, 3}, {"FLOP/s", "PFLOP/s", 1e-15, 3}};
	*scale = 1;
	*decimals = 2;
	if (!base)
		return "";
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(base, units[i].base)) {
			*scale = units[i].scale;
			*decimals = units[i].decimals;
			return units[i].shown;
		}
	return base;
}

void text_quantity(Buf *b, double v, const char *base_unit)
{
	double scale;
	int decimals;
	const char *u = text_display_unit(base_unit, &scale, &decimals);
	text_number(b, v * scale, decimals, false);
	if (*u)
		buf_printf(b, " %s", u);
}
