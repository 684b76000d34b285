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

/* A row of ends whose pull texts are plain cells (EndText.pull_csv: every row of the specs
 * measured) at a pointer after one check for room: id, ends, length, "cable_model,fabric," and
 * the tag "ID | A END | Z END | LENGTH m" (plain too: it starts with the id, never a formula). */
static void plain_row(Buf *b, const char *id, size_t id_len, const EndText *ea,
		      const EndText *ez, const Buf *len, const Buf *cells)
{
	const char *a = ea->csv + ea->csv_len, *z = ez->csv + ez->csv_len;
	size_t na = ea->pull_len, nz = ez->pull_len;
	text_room(b, 2 * (id_len + na + nz + len->len) + cells->len + 16);
	char *p = b->s + b->len;
	p = buf_put_at(p, id, id_len);
	*p++ = ',';
	p = buf_put_at(p, a, na);
	*p++ = ',';
	p = buf_put_at(p, z, nz);
	*p++ = ',';
	p = buf_put_at(p, len->s, len->len);
	*p++ = ',';
	p = buf_put_at(p, cells->s, cells->len);
	p = buf_put_at(p, id, id_len);
	p = buf_put_at(p, " | ", 3);
	p = buf_put_at(p, a, na);
	p = buf_put_at(p, " | ", 3);
	p = buf_put_at(p, z, nz);
	p = buf_put_at(p, " | ", 3);
	p = buf_put_at(p, len->s, len->len);
	p = buf_put_at(p, " m\n", 3);
	buf_end_at(b, p);
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
		if (ea->pull_csv && ez->pull_csv) {
			plain_row(&b, id, id_len, ea, ez, lt, &cells);
			layout_flush(o, f, &b, false);
			continue;
		}
		/* An end that may need quotes: scanned (a plain cell is copied as it is), and the
		 * tag is plain when neither end holds a byte CSV quotes. */
		a.len = z.len = 0;
		ends_pull_text(&a, ea);
		ends_pull_text(&z, ez);
		size_t na = a.len, nz = z.len;
		bool pa = ea->pull_csv || text_csv_plain(a.s, &na);
		bool pz = ez->pull_csv || text_csv_plain(z.s, &nz);
		buf_put(&b, id, id_len);
		buf_putc(&b, ',');
		if (pa)
			buf_put(&b, a.s, a.len);
		else
			text_csv_field(&b, a.s);
		buf_putc(&b, ',');
		if (pz)
			buf_put(&b, z.s, z.len);
		else
			text_csv_field(&b, z.s);
		buf_putc(&b, ',');
		buf_put(&b, lt->s, lt->len);
		buf_putc(&b, ',');
		buf_put(&b, cells.s, cells.len);
		Buf *t = na == a.len && nz == z.len ? &b : &tag;
		tag.len = 0;
		buf_put(t, id, id_len);
		buf_put(t, " | ", 3);
		buf_put(t, a.s, a.len);
		buf_put(t, " | ", 3);
		buf_put(t, z.s, z.len);
		buf_put(t, " | ", 3);
		buf_put(t, lt->s, lt->len);
		buf_put(t, " m", 2);
		if (t == &tag)
			text_csv_field(&b, tag.s);
		buf_putc(&b, '\n');
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
