/*
 * racks_svg.c — racks.svg, rack elevations for people: each floor row a line of racks, each
 * rack a column of its rack units (U 1 at the bottom), each device a box over the units it
 * takes, labelled with its name (and model when it is 2 U or taller) and coloured by kind; the
 * rack type's reserved units at the top greyed; under each rack its power at peak against its
 * cap (the lower of its power class and its cooling's limit), red when over. With rack zones
 * each row's title names its zone, rack type and cooling, and each zone's other content
 * patterns are drawn on lines of their own that name it.
 *
 * Large designs: the first MAX_DRAWN racks in floor order, then one rack of each content
 * pattern (the same devices kinds and models at the same U) not among them, on a line of its
 * own; the drawing says so at the top. Plain SVG 1.1 written as text, every coordinate a whole
 * pixel, so the same design gives the same bytes.
 */
#include "backends.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	MAX_DRAWN = 200, /* racks drawn in floor order: a hall's worth stays readable */
	PER_LINE = 40,   /* racks side by side at most: a longer row wraps */
	U_PX = 10,       /* one rack unit; every y below is a multiple, so the U grid lines up */
	RACK_W = 130,    /* a rack's inner width */
	GAP = 24,        /* between racks */
	MARGIN = 20,
	TOP_H = 60,      /* the title, the note and the legend */
	AXIS_W = 34,     /* the U numbers left of each line */
	HEAD_H = 30,     /* a line's title and the racks' names above them */
	FOOT_H = 40,     /* power text and bar under the racks */
	CHAR_PX = 5,     /* about one character of 8 px sans-serif */
};

static const char *const kind_fill[DEV_COUNT] = {"#a5d6a7", "#90caf9", "#ffcc80", "#bcaaa4",
						 "#ce93d8", "#e0e0e0", "#fff59d"};

/* s escaped for XML; when longer than max characters, its end after an ellipsis (the end of a
 * device name is what tells it from its neighbours: "...nvl0001-sw3"). */
static void put_text(Buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n > max && max > 1) {
		buf_puts(b, "\xe2\x80\xa6"); /* an ellipsis */
		s += n - (max - 1);
		while ((*s & 0xc0) == 0x80) /* not in the middle of a UTF-8 sequence */
			s++;
	}
	chart_escape(b, s);
}

/* What a rack holds, without names: U, height, kind and model of each device. */
static uint64_t pattern(const RackDevice *v, int first, int end)
{
	uint64_t h = 1469598103934665603u;
	for (int i = first; i < end; i++) {
		uintptr_t m = (uintptr_t)v[i].model;
		uint64_t words[4] = {(uint64_t)v[i].u, (uint64_t)v[i].height_u, (uint64_t)v[i].kind, m};
		for (int k = 0; k < 4; k++)
			h = (h ^ words[k]) * 1099511628211u;
	}
	return h ^ (uint64_t)(end - first);
}

static bool same_pattern(const RackDevice *v, int a0, int a1, int b0, int b1)
{
	if (a1 - a0 != b1 - b0)
		return false;
	for (int i = 0; i < a1 - a0; i++) {
		const RackDevice *x = &v[a0 + i], *y = &v[b0 + i];
		if (x->u != y->u || x->height_u != y->height_u || x->kind != y->kind ||
		    x->model != y->model)
			return false;
	}
	return true;
}

typedef struct Elevation {
	const Design *d;
	const RackDevice *v;
	const int *first;   /* first[r] .. first[r + 1]: rack r's devices in v */
	int units, reserved;
	Buf *b;
} Elevation;

static void draw_rack(const Elevation *e, int r, int x, int y)
{
	Buf *b = e->b;
	const RackInst *rk = &e->d->racks[r];
	int h = e->units * U_PX;
	buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"rack\">", x + RACK_W / 2, y - 4);
	put_text(b, rk->name, 24);
	buf_puts(b, "</text>\n");
	buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#units)\" "
		      "stroke=\"#333\"/>\n",
		   x, y, RACK_W, h);
	if (e->reserved > 0)
		buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"reserved\"/>"
			      "<text x=\"%d\" y=\"%d\" class=\"dev\">reserved</text>\n",
			   x + 1, y + 1, RACK_W - 2, e->reserved * U_PX - 1, x + 4, y + 8);
	double power = 0;
	for (int i = e->first[r]; i < e->first[r + 1]; i++) {
		const RackDevice *dv = &e->v[i];
		power += dv->power;
		int top = y + (e->units - (dv->u + dv->height_u - 1)) * U_PX;
		int bh = dv->height_u * U_PX - 1;
		buf_puts(b, "<g><title>");
		put_text(b, dv->name, 200);
		buf_printf(b, ": %s, U%d", layout_device_kind_names[dv->kind], dv->u);
		if (dv->height_u > 1)
			buf_printf(b, "-%d", dv->u + dv->height_u - 1);
		buf_puts(b, "</title>");
		buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
			      "stroke=\"#555\"/>",
			   x + 2, top + 1, RACK_W - 4, bh - 1, kind_fill[dv->kind]);
		buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"dev\">", x + 5, top + 9);
		put_text(b, dv->name, (RACK_W - 10) / CHAR_PX);
		buf_puts(b, "</text>");
		if (dv->height_u >= 2 && dv->model) {
			buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"model\">", x + 5, top + 18);
			put_text(b, dv->model->name, (RACK_W - 10) / CHAR_PX);
			buf_puts(b, "</text>");
		}
		buf_puts(b, "</g>\n");
	}
	double lim = rk->cap;
	bool over = isfinite(lim) && power > lim + 1e-6;
	Buf t = {0};
	layout_number(&t, power / 1e3, 1);
	buf_puts(&t, " / ");
	if (isfinite(lim))
		layout_number(&t, lim / 1e3, 1);
	else
		buf_puts(&t, "-");
	buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"%s\">%s kW</text>\n", x + RACK_W / 2,
		   y + h + 13, over ? "over" : "power", t.s);
	buf_free(&t);
	int bar = isfinite(lim) && lim > 0 ? (int)lround(fmin(power / lim, 1) * (RACK_W - 2)) : 0;
	buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"6\" fill=\"#eee\" "
		      "stroke=\"#999\"/><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"6\" "
		      "fill=\"%s\"/>\n",
		   x, y + h + 18, RACK_W, x + 1, y + h + 18, bar, over ? "#e53935" : "#43a047");
}

/* One line of racks with a title and the U axis; returns its height. */
static int draw_line(const Elevation *e, const char *title, const int *racks, int n, int y)
{
	Buf *b = e->b;
	buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"line\">", MARGIN, y + 12);
	put_text(b, title, 200);
	buf_puts(b, "</text>\n");
	int top = y + HEAD_H;
	for (int u = 1; u <= e->units; u++)
		buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"axis\">%d</text>\n",
			   MARGIN + AXIS_W - 6, top + (e->units - u) * U_PX + 8, u);
	for (int i = 0; i < n; i++)
		draw_rack(e, racks[i], MARGIN + AXIS_W + i * (RACK_W + GAP), top);
	return HEAD_H + e->units * U_PX + FOOT_H;
}

int racks_svg_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "racks.svg");
	if (!f)
		return 1;
	RackDevice *v;
	int n = layout_devices(d, &v);
	int *first = xmalloc(sizeof(int) * (size_t)(d->nracks + 2));
	for (int r = 0, i = 0; r <= d->nracks; r++) {
		while (i < n && v[i].rack < r)
			i++;
		first[r] = i;
	}
	/* The racks drawn: the first MAX_DRAWN, then one of each pattern not seen among them. */
	int *drawn = xmalloc(sizeof(int) * (size_t)(d->nracks + 1));
	uint64_t *sig = xmalloc(sizeof(uint64_t) * (size_t)(d->nracks + 1));
	int ndrawn = 0, nfirst = d->nracks < MAX_DRAWN ? d->nracks : MAX_DRAWN;
	for (int r = 0; r < d->nracks; r++) {
		uint64_t s = pattern(v, first[r], first[r + 1]);
		bool seen = false;
		/* with zones, a pattern is drawn once in each zone that has it */
		for (int k = 0; r >= nfirst && k < ndrawn && !seen; k++)
			seen = sig[k] == s &&
			       (!d->zoned || d->racks[drawn[k]].zone == d->racks[r].zone) &&
			       same_pattern(v, first[drawn[k]], first[drawn[k] + 1], first[r],
					    first[r + 1]);
		if (r < nfirst || !seen) {
			sig[ndrawn] = s;
			drawn[ndrawn++] = r;
		}
	}
	/* Lines: the floor rows of the first racks, then the other patterns, PER_LINE at most. */
	int *line = xmalloc(sizeof(int) * (size_t)(ndrawn + 2));
	int lines = 0, per_line = 1;
	for (int i = 0; i < ndrawn; i++) {
		int run = lines ? i - line[lines - 1] : 0;
		if (i == 0 || i == nfirst || run == PER_LINE ||
		    (i < nfirst && d->racks[drawn[i]].row != d->racks[drawn[i - 1]].row) ||
		    (i > nfirst && d->zoned && d->racks[drawn[i]].zone != d->racks[drawn[i - 1]].zone))
			line[lines++] = i;
		run = i - line[lines - 1] + 1;
		per_line = run > per_line ? run : per_line;
	}
	line[lines] = ndrawn;
	Elevation e = {d, v, first, layout_rack_units(d), 0, NULL};
	double usable = d->rack_type->height - d->rack_type->rack.reserved;
	e.reserved = e.units - (int)floor(usable / 0.04445 + 1e-6);
	e.reserved = e.reserved < 0 ? 0 : e.reserved;
	int line_h = HEAD_H + e.units * U_PX + FOOT_H;
	/* The legend: the kinds the design has, 90 px each. */
	bool used[DEV_COUNT] = {false};
	int nused = 0;
	for (int i = 0; i < n; i++)
		used[v[i].kind] = true;
	for (int k = 0; k < DEV_COUNT; k++)
		nused += used[k];
	int width = 2 * MARGIN + AXIS_W + per_line * (RACK_W + GAP);
	if (width < 2 * MARGIN + nused * 90)
		width = 2 * MARGIN + nused * 90;
	int height = 2 * MARGIN + TOP_H + lines * line_h;

	Buf b = {0};
	e.b = &b;
	buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		       "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		   width, height, width, height);
	buf_printf(&b, "<style>text{font-family:sans-serif;font-size:8px}.title{font-size:14px;"
		       "font-weight:bold}.line{font-size:12px;font-weight:bold}.rack{text-anchor:"
		       "middle;font-size:10px;font-weight:bold}.axis{text-anchor:end;font-size:7px;"
		       "fill:#777}.model{fill:#444}.power{text-anchor:middle;font-size:9px}.over{"
		       "text-anchor:middle;font-size:9px;fill:#e53935;font-weight:bold}.reserved{"
		       "fill:#ddd}</style>\n"
		       "<defs><pattern id=\"units\" width=\"%d\" height=\"%d\" patternUnits="
		       "\"userSpaceOnUse\"><rect width=\"%d\" height=\"%d\" fill=\"#fafafa\"/>"
		       "<path d=\"M0 %d.5H%d\" stroke=\"#ddd\" stroke-width=\"1\"/></pattern></defs>\n"
		       "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		   U_PX, U_PX, U_PX, U_PX, U_PX - 1, U_PX);
	buf_printf(&b, "<text x=\"%d\" y=\"%d\" class=\"title\">Rack elevations: ", MARGIN,
		   MARGIN + 10);
	put_text(&b, d->cluster_name, 100);
	buf_printf(&b, " (%d racks, %d U, front view)</text>\n", d->nracks, e.units);
	buf_printf(&b, "<text x=\"%d\" y=\"%d\">", MARGIN, MARGIN + 26);
	if (ndrawn < d->nracks)
		buf_printf(&b, "Drawn: the first %d racks in floor order, then one rack of each of the "
			       "%d other content patterns; racks.csv lists all %d.",
			   nfirst, ndrawn - nfirst, d->nracks);
	else
		buf_puts(&b, "Every rack, in floor order.");
	buf_puts(&b, "</text>\n");
	for (int k = 0, at = 0; k < DEV_COUNT; k++)
		if (used[k]) {
			buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" "
				       "stroke=\"#555\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
				   MARGIN + at * 90, MARGIN + 34, kind_fill[k], MARGIN + at * 90 + 14,
				   MARGIN + 42, layout_device_kind_names[k]);
			at++;
		}
	int y = MARGIN + TOP_H;
	for (int k = 0; k < lines; k++) {
		int i = line[k];
		char title[192], row[16];
		const RackInst *r0 = &d->racks[drawn[i]];
		const ZoneInst *z = &d->zones[r0->zone];
		ir_row_name(r0->row, row, sizeof row);
		if (i < nfirst && d->zoned)
			/* the zone's rack type and cooling as its node racks have them (a switch
			 * rack's are the network rack's: the zone's too, with zones) */
			snprintf(title, sizeof title, "Row %s \xc2\xb7 zone %s: %s, %s", row, z->name,
				 r0->type->name, r0->cooling ? r0->cooling->name : "-");
		else if (i < nfirst)
			snprintf(title, sizeof title, "Row %s", row);
		else if (d->zoned)
			snprintf(title, sizeof title,
				 "Zone %s: other content patterns (one rack of each): %s, %s", z->name,
				 r0->type->name, r0->cooling ? r0->cooling->name : "-");
		else
			snprintf(title, sizeof title, "Other content patterns (one rack of each)");
		y += draw_line(&e, title, drawn + i, line[k + 1] - i, y);
		layout_flush(o, f, &b, false);
	}
	buf_puts(&b, "</svg>\n");
	layout_flush(o, f, &b, true);
	buf_free(&b);
	free(line);
	free(drawn);
	free(sig);
	free(first);
	free(v);
	return output_close(o, f);
}
