/*
 * svgchart.c — charts drawn as SVG text, for report.html: horizontal bars (one panel, or
 * several side by side each on its own scale), columns against a limit, and a scatter of
 * labelled points with axes, "nice" ticks and a step line through a frontier. Plain SVG 1.1
 * meant to be inlined in HTML: no script, no external reference, colours and fonts from
 * classes that chart_css defines. Every number is printed with a fixed count of decimals
 * (coordinates with at most one, never "-0"); a value that is not finite is not drawn (and
 * reads "-"), so no "nan" ever reaches the file and the same data gives the same bytes.
 *
 * Ticks: the step is 1, 2 or 5 times a power of ten, the smallest that spans the range in at
 * most `target` steps (the "nice numbers" of Heckbert, Graphics Gems, 1990, in its simplest
 * form); the axis runs from the multiple of the step at or below the lowest value to the one
 * at or above the highest. A log axis ticks at 1, 2 and 5 times the powers of ten when the
 * range spans at most two decades, at the powers of ten only beyond.
 *
 * Text widths are estimated (CHAR_PX per character of 12 px sans-serif): nothing measures
 * fonts, which would make the output depend on the machine.
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	WIDTH = 1000,    /* default chart width, px: the report's column */
	CHAR_PX = 7,     /* about one character of 12 px sans-serif */
	ROW_H = 24,      /* a bar's row */
	BAR_H = 15,
	PAD = 10,
	MAX_TICKS = 24,  /* chart_ticks never makes more for the targets used here */
	PALETTE = 4,
};

const char chart_css[] =
	"svg.chart{display:block;max-width:100%;height:auto;margin:8px 0;"
	"-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	".chart text{font-family:sans-serif;font-size:12px;fill:#1f2328}\n"
	".chart .tick{font-size:11px;fill:#57606a}\n"
	".chart .head{font-weight:bold}\n"
	".chart .grid{stroke:#e5e7eb;stroke-width:1}\n"
	".chart .axis{stroke:#8c959f;stroke-width:1}\n"
	".chart .s0{fill:#4e79a7}.chart .s1{fill:#f28e2b}.chart .s2{fill:#59a14f}"
	".chart .s3{fill:#b07aa1}.chart .alert{fill:#e15759}\n"
	".chart .limit{stroke:#1f2328;stroke-width:2}\n"
	".chart .limitline{stroke:#1f2328;stroke-width:1.5;stroke-dasharray:6 4}\n"
	".chart .front{fill:none;stroke:#e15759;stroke-width:1.5;stroke-dasharray:5 3}\n"
	".chart .pt{fill:#fff;stroke:#4e79a7;stroke-width:2}\n"
	".chart .pt.mark{fill:#e15759;stroke:#b3262f}\n"
	".chart text.mark{font-weight:bold}\n";

/* ---- text and numbers --------------------------------------------------------------------- */

void chart_escape(Buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		default:
			/* XML allows no other control characters than tab and line ends */
			buf_putc(b, (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? ' ' : *s);
			break;
		}
	}
}

void chart_coord(Buf *b, double x)
{
	layout_number(b, isfinite(x) ? x : 0, 1);
}

/* A coordinate pair "x y" or attribute ' name="x"'. */
static void attr(Buf *b, const char *name, double x)
{
	buf_printf(b, " %s=\"", name);
	chart_coord(b, x);
	buf_putc(b, '"');
}

/* Characters of UTF-8 text, for width estimates. */
static int text_len(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static double text_px(const char *s)
{
	return (double)text_len(s) * CHAR_PX;
}

/* <text> at (x, y) with a class (or none) and an anchor (NULL: start). */
static void text(Buf *b, double x, double y, const char *cls, const char *anchor, const char *s)
{
	buf_puts(b, "<text");
	attr(b, "x", x);
	attr(b, "y", y);
	if (cls)
		buf_printf(b, " class=\"%s\"", cls);
	if (anchor)
		buf_printf(b, " text-anchor=\"%s\"", anchor);
	buf_putc(b, '>');
	chart_escape(b, s);
	buf_puts(b, "</text>\n");
}

static void line(Buf *b, double x1, double y1, double x2, double y2, const char *cls)
{
	buf_puts(b, "<line");
	attr(b, "x1", x1);
	attr(b, "y1", y1);
	attr(b, "x2", x2);
	attr(b, "y2", y2);
	buf_printf(b, " class=\"%s\"/>\n", cls);
}

static void open_svg(Buf *b, int w, int h, const char *title)
{
	buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		      "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
		   w, h, w, h);
	chart_escape(b, title);
	buf_puts(b, "</title>\n");
}

/* ---- ticks -------------------------------------------------------------------------------- */

int chart_ticks(double lo, double hi, int target, double *ticks, int max, double *step)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo > hi) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (hi == lo) {
		double m = lo == 0 ? 1 : fabs(lo) * 0.1;
		lo = lo == 0 ? 0 : lo - m;
		hi += m;
	}
	target = target < 1 ? 1 : target;
	double raw = (hi - lo) / target;
	double p = pow(10, floor(log10(raw)));
	static const double nice[] = {1, 2, 5, 10};
	double s = 10 * p;
	for (int i = 0; i < 4; i++)
		if (nice[i] * p >= raw * (1 - 1e-9)) {
			s = nice[i] * p;
			break;
		}
	double first = floor(lo / s + 1e-9), last = ceil(hi / s - 1e-9);
	int n = (int)llround(last - first) + 1;
	if (n > max)
		n = max;
	for (int i = 0; i < n; i++) {
		ticks[i] = (first + i) * s;
		if (fabs(ticks[i]) < s * 1e-9)
			ticks[i] = 0; /* never -0 */
	}
	if (step)
		*step = s;
	return n;
}

int chart_log_ticks(double lo, double hi, double *ticks, int max)
{
	if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi))
		return 0;
	if (lo > hi) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	int e0 = (int)floor(log10(lo) + 1e-9), e1 = (int)ceil(log10(hi) - 1e-9);
	if (e1 <= e0)
		e1 = e0 + 1;
	static const double all[] = {1, 2, 5}, tens[] = {1};
	bool dense = e1 - e0 <= 2;
	const double *m = dense ? all : tens;
	int nm = dense ? 3 : 1;
	/* The last tick at or below lo and the first at or above hi, and those between. */
	int n = 0;
	for (int e = e0; e <= e1 && n < max; e++) {
		for (int k = 0; k < nm && n < max; k++) {
			double t = m[k] * pow(10, e);
			if (t > hi * (1 + 1e-9) && n > 0 && ticks[n - 1] >= hi * (1 - 1e-9))
				return n;
			if (t <= lo * (1 + 1e-9))
				n = 0; /* restart: only the last tick at or below lo stays */
			ticks[n++] = t;
		}
	}
	return n;
}

void chart_tick_text(Buf *b, double v, double step, double magnitude)
{
	static const struct {
		double at, div;
		const char *suffix;
	} scales[] = {{1e12, 1e12, "tn"}, {1e9, 1e9, "bn"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}};
	double div = 1;
	const char *suffix = "";
	magnitude = fabs(magnitude);
	for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++)
		if (magnitude >= scales[i].at) {
			div = scales[i].div;
			suffix = scales[i].suffix;
			break;
		}
	double s = fabs(step) / div;
	int decimals = s > 0 && isfinite(s) ? (int)ceil(-log10(s) - 1e-9) : 0;
	decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
	text_number(b, v / div, decimals, true);
	if (isfinite(v) && v != 0)
		buf_puts(b, suffix);
}

/* ---- horizontal bars ---------------------------------------------------------------------- */

/* A value as a bar's text: the number (money, or at most `decimals` places), the unit, and its
 * share of the panel's total. */
static void value_text(Buf *b, const ChartPanel *p, double v)
{
	if (!isfinite(v)) {
		buf_putc(b, '-');
		return;
	}
	if (p->decimals < 0)
		text_money(b, v);
	else
		text_number(b, v, p->decimals, false);
	if (p->unit && *p->unit)
		buf_printf(b, " %s", p->unit);
	if (p->total > 0) {
		buf_puts(b, " (");
		text_number(b, 100 * v / p->total, 1, true);
		buf_puts(b, "%)");
	}
}

void chart_hbars(Buf *b, const ChartBars *c)
{
	int np = c->npanels > 0 ? c->npanels : 1;
	int width = c->width > 0 ? c->width : WIDTH;
	bool heads = false;
	for (int p = 0; p < c->npanels; p++)
		heads |= c->panels[p].title && *c->panels[p].title;
	double label_w = 0;
	for (int r = 0; r < c->nrows; r++)
		label_w = fmax(label_w, text_px(c->labels[r]));
	label_w = fmin(label_w, 240) + 2 * PAD;
	double panel_w = (width - label_w - PAD) / np;
	/* Each panel's values as text: the bars leave room for the longest. */
	Buf *notes = xmalloc(sizeof(Buf) * (size_t)(c->nrows * np + 1));
	memset(notes, 0, sizeof(Buf) * (size_t)(c->nrows * np + 1));
	double *note_w = xmalloc(sizeof(double) * (size_t)np), *top = xmalloc(sizeof(double) * (size_t)np);
	for (int p = 0; p < np; p++) {
		note_w[p] = 0;
		top[p] = 0;
		for (int r = 0; r < c->nrows; r++) {
			double v = c->v[r * np + p];
			value_text(&notes[r * np + p], &c->panels[p], v);
			note_w[p] = fmax(note_w[p], text_px(notes[r * np + p].s));
			if (isfinite(v))
				top[p] = fmax(top[p], v);
		}
		note_w[p] = fmin(note_w[p] + PAD, panel_w * 0.6);
	}
	int head_h = heads ? 22 : 4;
	int height = head_h + c->nrows * ROW_H + 6;
	open_svg(b, width, height, c->title);
	for (int p = 0; p < np; p++) {
		double x0 = label_w + p * panel_w;
		double room = panel_w - note_w[p] - PAD;
		if (heads && c->panels[p].title)
			text(b, x0, 15, "head", NULL, c->panels[p].title);
		line(b, x0, head_h, x0, head_h + c->nrows * ROW_H, "axis");
		for (int r = 0; r < c->nrows; r++) {
			double v = c->v[r * np + p];
			double y = head_h + r * ROW_H;
			double w = isfinite(v) && v > 0 && top[p] > 0 ? room * v / top[p] : 0;
			if (w > 0) {
				buf_puts(b, "<rect");
				attr(b, "x", x0);
				attr(b, "y", y + (ROW_H - BAR_H) / 2.0);
				attr(b, "width", fmax(w, 1));
				attr(b, "height", BAR_H);
				buf_printf(b, " class=\"s%d\"/>\n", (p + c->color) % PALETTE);
			}
			text(b, x0 + w + 5, y + ROW_H / 2.0 + 4, NULL, NULL, notes[r * np + p].s);
		}
	}
	for (int r = 0; r < c->nrows; r++)
		text(b, label_w - PAD, head_h + r * ROW_H + ROW_H / 2.0 + 4, NULL, "end", c->labels[r]);
	buf_puts(b, "</svg>\n");
	for (int i = 0; i < c->nrows * np; i++)
		buf_free(&notes[i]);
	free(notes);
	free(note_w);
	free(top);
}

/* ---- columns ------------------------------------------------------------------------------ */

/* The left axis of a plot from y0 (bottom) to y1 (top) over ticks t[0..n): grid lines across
 * [x0, x1] and labels. */
static void y_axis(Buf *b, const double *t, int n, double step, double x0, double x1, double y0,
		   double y1, bool log_scale)
{
	double lo = log_scale ? log10(t[0]) : t[0], hi = log_scale ? log10(t[n - 1]) : t[n - 1];
	for (int i = 0; i < n; i++) {
		double v = log_scale ? log10(t[i]) : t[i];
		double y = y0 - (y0 - y1) * (v - lo) / (hi - lo);
		line(b, x0, y, x1, y, i ? "grid" : "axis");
		Buf s = {0};
		chart_tick_text(&s, t[i], log_scale ? t[i] : step, log_scale ? t[i] : t[n - 1]);
		text(b, x0 - 5, y + 4, "tick", "end", s.s);
		buf_free(&s);
	}
}

void chart_columns(Buf *b, const ChartColumns *c)
{
	int width = c->width > 0 ? c->width : WIDTH, height = c->height > 0 ? c->height : 260;
	double left = 64, right = width - PAD, top = 24, bottom = height - 28;
	double hi = 0, common = NAN;
	bool same_limit = true, any_limit = false;
	for (int i = 0; i < c->n; i++) {
		if (isfinite(c->c[i].value))
			hi = fmax(hi, c->c[i].value);
		if (isfinite(c->c[i].limit)) {
			hi = fmax(hi, c->c[i].limit);
			if (any_limit && c->c[i].limit != common)
				same_limit = false;
			common = c->c[i].limit;
			any_limit = true;
		} else {
			same_limit = false;
		}
	}
	double t[MAX_TICKS], step;
	int nt = chart_ticks(0, hi > 0 ? hi : 1, 5, t, MAX_TICKS, &step);
	double ymax = t[nt - 1];
	open_svg(b, width, height, c->title);
	if (c->ylabel)
		text(b, 4, 14, "tick", NULL, c->ylabel);
	y_axis(b, t, nt, step, left, right, bottom, top, false);
	double cw = c->n > 0 ? (right - left) / c->n : 0;
	double gap = cw > 4 ? cw * 0.2 : 0;
	/* labels every k-th column so that they do not overlap */
	double label_w = 0;
	for (int i = 0; i < c->n; i++)
		label_w = fmax(label_w, text_px(c->c[i].label));
	int every = c->label_every > 0 ? c->label_every
		    : cw > 0 ? (int)ceil((label_w + PAD) / cw) : 1;
	every = every < 1 ? 1 : every;
	for (int i = 0; i < c->n; i++) {
		const ChartColumn *k = &c->c[i];
		double x = left + i * cw + gap / 2;
		if (isfinite(k->value) && k->value > 0) {
			double h = (bottom - top) * k->value / ymax;
			buf_puts(b, "<rect");
			attr(b, "x", x);
			attr(b, "y", bottom - h);
			attr(b, "width", fmax(cw - gap, 0.5));
			attr(b, "height", h);
			buf_printf(b, " class=\"%s\"><title>", k->alert ? "alert" : "s0");
			chart_escape(b, k->label);
			buf_puts(b, ": ");
			text_number(b, k->value, c->decimals, false);
			if (c->unit)
				buf_printf(b, " %s", c->unit);
			if (isfinite(k->limit)) {
				buf_puts(b, " of ");
				text_number(b, k->limit, c->decimals, false);
				if (c->unit)
					buf_printf(b, " %s", c->unit);
			}
			buf_puts(b, "</title></rect>\n");
			if (c->values) {
				Buf s = {0};
				text_number(&s, k->value, c->decimals, false);
				text(b, x + (cw - gap) / 2, bottom - h - 4, "tick", "middle", s.s);
				buf_free(&s);
			}
		}
		if (!same_limit && isfinite(k->limit)) {
			double y = bottom - (bottom - top) * k->limit / ymax;
			line(b, x - gap / 4, y, x + cw - gap + gap / 4, y, "limit");
		}
		if (i % every == 0)
			text(b, left + (i + 0.5) * cw, bottom + 16, "tick", "middle", k->label);
	}
	if (same_limit && any_limit) {
		double y = bottom - (bottom - top) * common / ymax;
		line(b, left, y, right, y, "limitline");
		Buf s = {0};
		buf_puts(&s, "limit ");
		text_number(&s, common, c->decimals, false);
		if (c->unit)
			buf_printf(&s, " %s", c->unit);
		text(b, right, y - 5, NULL, "end", s.s);
		buf_free(&s);
	}
	buf_puts(b, "</svg>\n");
}

/* ---- tornado ------------------------------------------------------------------------------ */

void chart_tornado(Buf *b, const ChartTornado *c)
{
	int width = c->width > 0 ? c->width : WIDTH;
	double label_w = 0;
	for (int i = 0; i < c->n; i++)
		label_w = fmax(label_w, text_px(c->labels[i]));
	label_w = fmin(label_w, 300) + 2 * PAD;
	const double room = 96; /* a value's text beside its bar's end */
	double left = label_w + room, right = width - room;
	double lo = c->base, hi = c->base;
	for (int i = 0; i < c->n; i++) {
		if (isfinite(c->low[i]))
			lo = fmin(lo, c->low[i]), hi = fmax(hi, c->low[i]);
		if (isfinite(c->high[i]))
			lo = fmin(lo, c->high[i]), hi = fmax(hi, c->high[i]);
	}
	if (!(hi > lo))
		hi = lo + 1;
	int head_h = 22, height = head_h + c->n * ROW_H + 24;
	open_svg(b, width, height, c->title);
	double bx = left + (right - left) * (c->base - lo) / (hi - lo);
	for (int i = 0; i < c->n; i++) {
		double y = head_h + i * ROW_H;
		for (int end = 0; end < 2; end++) {
			double v = end ? c->high[i] : c->low[i];
			if (!isfinite(v))
				continue;
			double x = left + (right - left) * (v - lo) / (hi - lo);
			buf_puts(b, "<rect");
			attr(b, "x", fmin(x, bx));
			attr(b, "y", y + (ROW_H - BAR_H) / 2.0);
			attr(b, "width", fmax(fabs(x - bx), 1));
			attr(b, "height", BAR_H);
			buf_printf(b, " class=\"s%d\"><title>", end);
			chart_escape(b, end ? c->high_legend : c->low_legend);
			buf_puts(b, "</title></rect>\n");
			Buf t = {0};
			text_number(&t, v, c->decimals, false);
			if (c->unit)
				buf_printf(&t, " %s", c->unit);
			/* beyond the bar's far end; a bar that ends at the line has its text on the
			 * side its other bar leaves free */
			bool after = v > c->base || (v == c->base && end);
			text(b, after ? x + 5 : x - 5, y + ROW_H / 2.0 + 4, "tick", after ? NULL : "end", t.s);
			buf_free(&t);
		}
		text(b, label_w - PAD, y + ROW_H / 2.0 + 4, NULL, "end", c->labels[i]);
	}
	line(b, bx, head_h - 4, bx, head_h + c->n * ROW_H + 4, "limitline");
	Buf t = {0};
	buf_puts(&t, "as designed: ");
	text_number(&t, c->base, c->decimals, false);
	if (c->unit)
		buf_printf(&t, " %s", c->unit);
	text(b, bx, head_h + c->n * ROW_H + 18, NULL, "middle", t.s);
	buf_free(&t);
	/* the legend: which colour is which end */
	double x = PAD;
	for (int end = 0; end < 2; end++) {
		const char *s = end ? c->high_legend : c->low_legend;
		buf_puts(b, "<rect");
		attr(b, "x", x);
		attr(b, "y", 5);
		buf_printf(b, " width=\"12\" height=\"12\" class=\"s%d\"/>\n", end);
		text(b, x + 16, 15, NULL, NULL, s);
		x += 40 + text_px(s);
	}
	buf_puts(b, "</svg>\n");
}

/* ---- scatter ------------------------------------------------------------------------------ */

typedef struct Axis {
	double t[MAX_TICKS], step;
	int n;
	bool log;
	double lo, hi; /* the ends, log10 of them on a log axis */
} Axis;

static void axis_make(Axis *a, const ChartPoint *p, int n, bool y, bool want_log)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < n; i++) {
		double v = y ? p[i].y : p[i].x;
		if (isfinite(p[i].x) && isfinite(p[i].y)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	a->log = want_log && lo > 0 && isfinite(lo);
	if (a->log) {
		a->n = chart_log_ticks(lo, hi, a->t, MAX_TICKS);
		a->step = 0;
		a->lo = log10(a->t[0]);
		a->hi = log10(a->t[a->n - 1]);
		return;
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	/* A little room around the points: none of them on the frame. */
	double pad = (hi - lo) * 0.05;
	a->n = chart_ticks(lo - pad, hi + pad, 5, a->t, MAX_TICKS, &a->step);
	a->lo = a->t[0];
	a->hi = a->t[a->n - 1];
}

static double axis_pos(const Axis *a, double v, double from, double to)
{
	double u = a->log ? log10(v) : v;
	return from + (to - from) * (u - a->lo) / (a->hi - a->lo);
}

/* A label's box, to keep labels from covering each other. */
typedef struct Box {
	double x0, y0, x1, y1;
} Box;

static bool overlaps(const Box *a, const Box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

void chart_scatter(Buf *b, const ChartScatter *c)
{
	int width = c->width > 0 ? c->width : WIDTH, height = c->height > 0 ? c->height : 420;
	double left = 78, right = width - 16, top = 30, bottom = height - 48;
	Axis ax, ay;
	axis_make(&ax, c->p, c->n, false, c->xlog);
	axis_make(&ay, c->p, c->n, true, c->ylog);
	open_svg(b, width, height, c->title);
	y_axis(b, ay.t, ay.n, ay.step, left, right, bottom, top, ay.log);
	for (int i = 0; i < ax.n; i++) {
		double x = axis_pos(&ax, ax.t[i], left, right);
		line(b, x, top, x, bottom, i ? "grid" : "axis");
		Buf s = {0};
		chart_tick_text(&s, ax.t[i], ax.log ? ax.t[i] : ax.step,
				ax.log ? ax.t[i] : ax.t[ax.n - 1]);
		text(b, x, bottom + 16, "tick", "middle", s.s);
		buf_free(&s);
	}
	if (c->xlabel)
		text(b, (left + right) / 2, height - 10, "head", "middle", c->xlabel);
	if (c->ylabel) {
		buf_puts(b, "<text class=\"head\" text-anchor=\"middle\" transform=\"translate(14 ");
		chart_coord(b, (top + bottom) / 2);
		buf_puts(b, ") rotate(-90)\">");
		chart_escape(b, c->ylabel);
		buf_puts(b, "</text>\n");
	}
	/* The step line through the frontier, in order of x (then y). */
	int *order = xmalloc(sizeof(int) * (size_t)(c->n + 1));
	int nf = 0;
	for (int i = 0; i < c->n; i++) {
		if (!c->p[i].front || !isfinite(c->p[i].x) || !isfinite(c->p[i].y))
			continue;
		int k = nf++;
		while (k > 0 && (c->p[order[k - 1]].x > c->p[i].x ||
				 (c->p[order[k - 1]].x == c->p[i].x && c->p[order[k - 1]].y > c->p[i].y))) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	if (nf > 1) {
		buf_puts(b, "<path class=\"front\" d=\"M");
		for (int k = 0; k < nf; k++) {
			double x = axis_pos(&ax, c->p[order[k]].x, left, right);
			double y = axis_pos(&ay, c->p[order[k]].y, bottom, top);
			if (k) {
				/* x minimised: along x first (the corner is dominated by the point before);
				 * x maximised: along y first. */
				buf_puts(b, c->xmax ? "V" : "H");
				chart_coord(b, c->xmax ? y : x);
				buf_puts(b, c->xmax ? "H" : "V");
				chart_coord(b, c->xmax ? x : y);
			} else {
				chart_coord(b, x);
				buf_putc(b, ' ');
				chart_coord(b, y);
			}
		}
		buf_puts(b, "\"/>\n");
	}
	free(order);
	/* Points, unmarked first so that marked ones are drawn on top; then labels. */
	Box *boxes = xmalloc(sizeof(Box) * (size_t)(2 * c->n + 1)); /* points, then labels */
	int nb = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->n; i++) {
			const ChartPoint *p = &c->p[i];
			if (p->mark != (pass == 1) || !isfinite(p->x) || !isfinite(p->y))
				continue;
			double x = axis_pos(&ax, p->x, left, right), y = axis_pos(&ay, p->y, bottom, top);
			buf_puts(b, "<circle");
			attr(b, "cx", x);
			attr(b, "cy", y);
			buf_printf(b, " r=\"5\" class=\"pt%s\"><title>", p->mark ? " mark" : "");
			chart_escape(b, p->tip ? p->tip : p->label);
			buf_puts(b, "</title></circle>\n");
			boxes[nb++] = (Box){x - 5, y - 5, x + 5, y + 5};
		}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->n; i++) {
			const ChartPoint *p = &c->p[i];
			if (p->mark != (pass == 0) || !isfinite(p->x) || !isfinite(p->y) || !p->label)
				continue;
			double x = axis_pos(&ax, p->x, left, right), y = axis_pos(&ay, p->y, bottom, top);
			double w = text_px(p->label);
			/* Right, left, above, below, then the diagonals: the first place inside the
			 * plot that covers no point and no label placed before. Where none is free
			 * the point goes unlabelled (its tooltip names it): labels never collide. */
			static const double dx[] = {8, -8, 0, 0, 8, -8, 8, -8},
					    dy[] = {4, 4, -9, 19, -7, -7, 16, 16};
			Box box = {0};
			bool placed = false;
			for (int k = 0; k < 8 && !placed; k++) {
				double x0 = k >= 2 && k < 4 ? x - w / 2 : dx[k] > 0 ? x + dx[k] : x + dx[k] - w;
				Box t = {x0, y + dy[k] - 12, x0 + w, y + dy[k] + 2};
				if (t.x0 < left || t.x1 > right + 12 || t.y0 < 0 || t.y1 > bottom)
					continue;
				placed = true;
				for (int j = 0; j < nb && placed; j++)
					placed = !overlaps(&t, &boxes[j]);
				if (placed)
					box = t;
			}
			if (!placed)
				continue;
			boxes[nb++] = box;
			text(b, box.x0, box.y1 - 2, p->mark ? "mark" : NULL, NULL, p->label);
		}
	free(boxes);
	if (c->legend_mark || c->legend_other) {
		double x = left, y = 16;
		if (c->legend_mark) {
			buf_puts(b, "<circle");
			attr(b, "cx", x);
			attr(b, "cy", y - 4);
			buf_puts(b, " r=\"5\" class=\"pt mark\"/>\n");
			text(b, x + 10, y, NULL, NULL, c->legend_mark);
			x += 30 + text_px(c->legend_mark);
		}
		if (c->legend_other) {
			buf_puts(b, "<circle");
			attr(b, "cx", x);
			attr(b, "cy", y - 4);
			buf_puts(b, " r=\"5\" class=\"pt\"/>\n");
			text(b, x + 10, y, NULL, NULL, c->legend_other);
		}
	}
	buf_puts(b, "</svg>\n");
}
