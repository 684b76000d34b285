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

void text_value(Buf *b, const Value *v)
{
	char tmp[128];
	if (!v) {
		buf_putc(b, '-');
		return;
	}
	if (v->loc.src && v->loc.end > v->loc.off && v->loc.end <= v->loc.src->len) {
		buf_put(b, v->loc.src->text + v->loc.off, v->loc.end - v->loc.off);
		return;
	}
	switch (v->kind) {
	case VAL_QTY:
		buf_puts(b, qty_format(v->q, tmp, sizeof tmp));
		break;
	case VAL_BOOL:
		buf_puts(b, v->b_val ? "true" : "false");
		break;
	case VAL_STRING:
	case VAL_ENUM:
		buf_puts(b, v->s ? v->s : "");
		break;
	case VAL_REF:
		buf_puts(b, v->ref ? v->ref->name : "?");
		break;
	case VAL_COUNTED:
		text_value(b, v->count);
		buf_puts(b, " x ");
		buf_puts(b, v->ref ? v->ref->name : "?");
		break;
	case VAL_RATIO:
		text_number(b, v->a, 3, false);
		buf_putc(b, ':');
		text_number(b, v->b, 3, false);
		break;
	case VAL_AUTO:
		buf_puts(b, "auto");
		break;
	default:
		buf_putc(b, '?');
		break;
	}
}

void text_chosen(Buf *b, const Decision *x)
{
	if (x->chosen_text)
		buf_puts(b, x->chosen_text);
	else
		text_value(b, x->chosen);
}

const char *report_spec_path(const Design *d)
{
	if (d->p && d->p->root && d->p->root->src && d->p->root->src->path)
		return d->p->root->src->path;
	return "";
}

const char *report_scenario(const Design *d)
{
	return d->p && d->p->scenario ? d->p->scenario : "default";
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
