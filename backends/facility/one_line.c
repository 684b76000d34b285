/*
 * one_line.c — facility/one-line.svg, the power one-line diagram: the power system's chain from
 * the utility to the racks (utility -> transformer -> UPS or HVDC -> PDU or busway -> rack
 * feeds A/B -> racks), one row per stage, top to bottom. A stage with 2N redundancy is drawn as
 * its two sides, A and B, each with half its units and capacity; the others as one box. Each
 * box gives the stage's name and kind, its units (count x rating) when it has a unit rating,
 * the kW installed and the kW it carries at peak (power_chain.c); the last row, the racks: how
 * many, their feeds on each side, the IT load. Lines join each box to the boxes of the next
 * stage on its side. Without a chain, a single box says so.
 *
 * Plain SVG 1.1 written as text, every coordinate a whole pixel, so the same design gives the
 * same bytes (xmllint and rsvg-convert read it: tests/artifacts.sh).
 */
#include "backends.h"

#include <math.h>

enum {
	W = 760,        /* the drawing's width */
	MARGIN = 20,
	TOP = 60,       /* the title and the note */
	ROW_H = 96,     /* a stage's row: its box and the gap to the next */
	BOX_H = 64,
	SIDE_W = 340,   /* one side's box; a single box spans both */
	GAP = 40,       /* between sides */
};

/* b emptied, its memory kept. */
static void reset(Buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

static void text_line(Buf *b, int x, int y, int size, const char *weight, const char *s)
{
	buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s%s%s>", x, y, size,
		   weight ? " font-weight=\"" : "", weight ? weight : "", weight ? "\"" : "");
	chart_escape(b, s);
	buf_puts(b, "</text>\n");
}

/* One box at (x, y) of width w: up to three lines of text. */
static void box(Buf *b, int x, int y, int w, const char *fill, const char *l1, const char *l2,
		const char *l3)
{
	buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"%s\" "
		      "stroke=\"#37474f\"/>\n",
		   x, y, w, BOX_H, fill);
	text_line(b, x + 8, y + 18, 13, "bold", l1);
	text_line(b, x + 8, y + 36, 11, NULL, l2);
	text_line(b, x + 8, y + 54, 11, NULL, l3);
}

/* kW for people: "31,500 kW". */
static void kw_text(Buf *b, double w)
{
	text_number(b, w / 1e3, 1, false);
	buf_puts(b, " kW");
}

/* The boxes of stage k (sides: 1 or 2) at row y, and the lines up to the row above. */
static void stage_row(Buf *b, const PowerStageInst *s, int y, int sides, int above)
{
	const Part *st = s->stage;
	Buf l1 = {0}, l2 = {0}, l3 = {0};
	for (int side = 0; side < sides; side++) {
		int w = sides == 2 ? SIDE_W : 2 * SIDE_W + GAP, x = MARGIN + side * (SIDE_W + GAP);
		buf_printf(&l1, "%s%s", st->name, sides == 2 ? (side ? " (B)" : " (A)") : "");
		buf_printf(&l2, "%s, %s, efficiency ", enum_POWER_STAGE.words[st->stage.stage],
			   enum_REDUNDANCY.words[st->stage.redundancy]);
		text_number(&l2, st->stage.efficiency, 4, false);
		if (s->units > 0) {
			text_number(&l3, s->units / sides, 0, false);
			buf_puts(&l3, " x ");
			kw_text(&l3, st->stage.unit_capacity);
			buf_puts(&l3, ", ");
		}
		buf_puts(&l3, "installed ");
		kw_text(&l3, s->installed / sides);
		buf_puts(&l3, ", used ");
		kw_text(&l3, s->load / sides);
		box(b, x, y, w, "#e3f2fd", l1.s, l2.s, l3.s);
		reset(&l1), reset(&l2), reset(&l3);
		/* up to the box above on this side, or the single one */
		for (int a = 0; above && a < above; a++) {
			if (above == 2 && sides == 2 && a != side)
				continue;
			int ax = above == 2 ? MARGIN + a * (SIDE_W + GAP) + SIDE_W / 2 : W / 2;
			int bx = sides == 2 ? x + SIDE_W / 2 : (above == 2 ? ax : W / 2);
			buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#37474f\" "
				      "stroke-width=\"2\"/>\n",
				   ax, y - (ROW_H - BOX_H), bx, y);
		}
	}
	buf_free(&l1), buf_free(&l2), buf_free(&l3);
}

/* The racks' row: how many, their feeds per side, the IT load. */
static void racks_row(Buf *b, const Design *d, int y, int above)
{
	int fed = 0, feeds = 0;
	for (int i = 0; i < d->nracks; i++)
		if (d->racks[i].feeds)
			fed++, feeds = d->racks[i].feeds;
	Buf l1 = {0}, l2 = {0}, l3 = {0};
	buf_printf(&l1, "%d racks", d->nracks);
	if (fed && above == 2)
		buf_printf(&l2, "%d racks with feeds A and B (%d feeds each)", fed, feeds);
	else if (fed)
		buf_printf(&l2, "%d racks with %d feed%s each", fed, feeds, feeds == 1 ? "" : "s");
	else
		buf_puts(&l2, "no rack feed stage");
	buf_puts(&l3, "IT load at peak ");
	kw_text(&l3, d->t.it_power);
	buf_puts(&l3, ", facility ");
	kw_text(&l3, d->t.facility_power);
	box(b, MARGIN, y, 2 * SIDE_W + GAP, "#e8f5e9", l1.s, l2.s, l3.s);
	for (int a = 0; a < above; a++) {
		int ax = above == 2 ? MARGIN + a * (SIDE_W + GAP) + SIDE_W / 2 : W / 2;
		buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#37474f\" "
			      "stroke-width=\"2\"%s/>\n",
			   ax, y - (ROW_H - BOX_H), ax, y, a ? " stroke-dasharray=\"6 3\"" : "");
	}
	buf_free(&l1), buf_free(&l2), buf_free(&l3);
}

int one_line_write(Output *o, const Design *d)
{
	int rows = d->nstages + 1;
	int h = TOP + rows * ROW_H + MARGIN;
	Buf b = {0};
	buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		       "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		       "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		   W, h, W, h, W, h);
	Buf title = {0};
	buf_printf(&title, "Power one-line: %s", d->power_sys ? d->power_sys->name : "no power system");
	text_line(&b, MARGIN, 26, 16, "bold", title.s);
	reset(&title);
	buf_puts(&title, "cluster ");
	buf_puts(&title, d->cluster_name);
	buf_puts(&title, ", chain efficiency ");
	text_number(&title, d->t.power_efficiency, 4, false);
	buf_puts(&title, "; each 2N stage drawn as sides A and B");
	text_line(&b, MARGIN, 46, 11, NULL, title.s);
	buf_free(&title);
	int above = 0;
	for (int k = 0; k < d->nstages; k++) {
		int sides = d->stages[k].stage->stage.redundancy == RED_TWO_N ? 2 : 1;
		stage_row(&b, &d->stages[k], TOP + k * ROW_H, sides, above);
		above = sides;
	}
	racks_row(&b, d, TOP + d->nstages * ROW_H, above);
	buf_puts(&b, "</svg>\n");
	FILE *f = output_file(o, "facility/one-line.svg");
	if (!f) {
		buf_free(&b);
		return 1;
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	return output_close(o, f);
}
