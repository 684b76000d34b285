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

const char *report_spec_path(const Design *d)
{
	return d->spec_path ? d->spec_path : "";
}

const char *report_scenario(const Design *d)
{
	return d->scenario_name ? d->scenario_name : "default";
}

void text_md_cell(Buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			buf_puts(b, "\\|");
		else if (*s == '\n' || *s == '\r')
			buf_putc(b, ' ');
		else
			buf_putc(b, *s);
	}
}
