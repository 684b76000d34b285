/*
 * labels_csv.c — labels.csv, the cable tags for a label printer's database import (Brady
 * Workstation, P-touch Editor and the like read one CSV row per label): one row per cable, in
 * cabling.csv's order, the same tag wrapped on both ends.
 *
 * Columns: cable_id (the stable id, passes/ir/ir.c), a_end and z_end (each "RACK U<n> DEVICE
 * PORT", as the pull sheets print them: "A01 U1 gpu0001 nic1"), length_m (stocked length),
 * cable_model, fabric, and tag: the one-line text for a single-line printer, "ID | A END |
 * Z END | LENGTH m". A link through a trunk gives its channel's length (cords and trunk); the
 * trunks themselves follow the cables, their ends "RACK U<n> PANEL p<first adapter>+" (trunk.c).
 * RFC 4180 fields, '\n' line ends (docs/output.md).
 */
#include "backends.h"

#include <stdint.h>
#include <string.h>

static const char header[] = "cable_id,a_end,z_end,length_m,cable_model,fabric,tag\n";

/* An end in a row: its pull text "RACK U<n> DEVICE PORT" (the tag's) and its cell (the same
 * bytes when they are a plain CSV cell, else quoted). */
typedef struct LabelEnd {
	const char *text, *cell;
	size_t len, cell_len;
} LabelEnd;

/* An end's pull text, its cell the same bytes. */
static LabelEnd label_end(const EndText *x)
{
	const char *text = x->csv + x->csv_len;
	return (LabelEnd){text, text, x->pull_len, x->pull_len};
}

/* An end whose text may need quotes: scanned (a plain cell is copied as it is), else its
 * cell quoted in q. Whether the tag can hold the text as it is (no byte CSV quotes). */
static bool label_quote(LabelEnd *y, const EndText *x, Buf *q)
{
	size_t n;
	if (x->pull_csv || text_csv_plain(y->text, &n))
		return true;
	q->len = 0;
	text_csv_field(q, y->text);
	y->cell = q->s;
	y->cell_len = q->len;
	return n == y->len;
}

/* A cable's row at a pointer after one check for room: id, ends, length, "cable_model,fabric,"
 * and the tag "ID | A END | Z END | LENGTH m", made of the ends' texts as they are (it starts
 * with the id, never a formula, and is a plain cell when neither end's text holds a byte CSV
 * quotes). Returns where the tag starts in b. */
static size_t label_row(Buf *b, const char *id, size_t id_len, const LabelEnd *a,
			const LabelEnd *z, const Buf *len, const Buf *cells)
{
	text_room(b, 2 * (id_len + len->len) + a->cell_len + z->cell_len + a->len + z->len +
			     cells->len + 20);
	char *p = b->s + b->len;
	p = buf_put_at(p, id, id_len);
	*p++ = ',';
	p = buf_put_at(p, a->cell, a->cell_len);
	*p++ = ',';
	p = buf_put_at(p, z->cell, z->cell_len);
	*p++ = ',';
	p = buf_put_at(p, len->s, len->len);
	*p++ = ',';
	p = buf_put_at(p, cells->s, cells->len);
	size_t tag = (size_t)(p - b->s);
	p = text_pipe_cell_at(p, id, id_len);
	p = text_pipe_cell_at(p, a->text, a->len);
	p = text_pipe_cell_at(p, z->text, z->len);
	p = buf_put_at(p, len->s, len->len);
	p = buf_put_at(p, " m\n", 3);
	buf_end_at(b, p);
	return tag;
}

int labels_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "labels.csv");
	if (!f)
		return 1;
	const EndTable *et = ends_table(o, d);
	const EndText *cends = et->ends;
	Buf b = {0}, a = {0}, z = {0}, tag = {0}, cells = {0};
	NumberText len = {0}; /* "length_m", 2 places */
	const Part *cells_part = NULL;
	int cells_fabric = -1;
	bool cells_set = false;
	buf_puts(&b, header);
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		/* A link through a trunk: its channel (two cords and the trunk's leg). */
		double length = ir_cable_channel(d, c);
		const Buf *lt = layout_number_kept(&len, length, 2);
		if (!cells_set || c->cable != cells_part || l->fabric != cells_fabric) {
			cells_set = true; /* "cable_model,fabric," once a run of rows */
			cells_part = c->cable;
			cells_fabric = l->fabric;
			cells.len = 0;
			text_csv_field(&cells, c->cable ? c->cable->name : "");
			buf_putc(&cells, ',');
			text_csv_field(&cells, l->fabric >= 0 ? d->fabrics[l->fabric].name : "");
			buf_putc(&cells, ',');
		}
		const EndText *ea = &cends[2 * (size_t)i], *ez = ea + 1;
		const char *id = d->cable_ids[i];
		size_t id_len = et->id_len[i];
		LabelEnd ends[2] = {label_end(ea), label_end(ez)};
		bool tag_plain = true;
		if (!ea->pull_csv || !ez->pull_csv) { /* pull_csv: every end of the specs measured */
			bool pa = label_quote(&ends[0], ea, &a), pz = label_quote(&ends[1], ez, &z);
			tag_plain = pa && pz;
		}
		size_t at = label_row(&b, id, id_len, &ends[0], &ends[1], lt, &cells);
		if (!tag_plain) { /* the tag quoted in place of the plain one */
			tag.len = 0;
			buf_put(&tag, b.s + at, b.len - 1 - at);
			b.len = at;
			text_csv_field(&b, tag.s);
			buf_putc(&b, '\n');
		}
		layout_flush(o, f, &b, false);
	}
	/* Structured cabling's trunks (trunk.c): a tag at each end, "RACK U<n> PANEL p<first>+". */
	for (int i = 0; i < d->ntrunks; i++) {
		const TrunkInst *t = &d->trunks[i];
		a.len = z.len = tag.len = 0;
		const int ends[2][3] = {{t->rack_a, t->panel_a, t->port_a}, {t->rack_z, t->panel_z, t->port_z}};
		for (int e = 0; e < 2; e++) {
			Buf *x = e ? &z : &a;
			buf_printf(x, "%s U%d ", d->racks[ends[e][0]].name, d->panels[ends[e][1]].u);
			buf_puts(x, d->panels[ends[e][1]].name);
			buf_printf(x, " p%d+", ends[e][2]);
		}
		ir_trunk_name(&tag, d, i);
		buf_printf(&tag, " | %s | %s | ", a.s, z.s);
		layout_number(&tag, t->length, 2);
		buf_puts(&tag, " m");
		ir_trunk_name(&b, d, i);
		buf_putc(&b, ',');
		text_csv_field(&b, a.s);
		buf_putc(&b, ',');
		text_csv_field(&b, z.s);
		buf_putc(&b, ',');
		layout_number(&b, t->length, 2);
		buf_putc(&b, ',');
		text_csv_field(&b, t->part->name);
		buf_putc(&b, ',');
		text_csv_field(&b, d->fabrics[t->fabric].name);
		buf_putc(&b, ',');
		text_csv_field(&b, tag.s);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	buf_free(&a);
	buf_free(&z);
	buf_free(&tag);
	buf_free(&len.text);
	buf_free(&cells);
	return output_close(o, f);
}
