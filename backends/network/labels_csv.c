/*
 * labels_csv.c — labels.csv, the cable tags for a label printer's database import (Brady
 * Workstation, P-touch Editor and the like read one CSV row per label): one row per cable, in
 * cabling.csv's order, the same tag wrapped on both ends.
 *
 * Columns: cable_id (the stable id, passes/ir/ir.c), a_end and z_end (each "RACK U<n> DEVICE
 * PORT", as the pull sheets print them: "A01 U1 gpu0001 nic1"), length_m (stocked length),
 * cable_model, fabric, and tag: the one-line text for a single-line printer, "ID | A END |
 * Z END | LENGTH m". RFC 4180 fields, '\n' line ends (docs/output.md).
 */
#include "backends.h"

static const char header[] = "cable_id,a_end,z_end,length_m,cable_model,fabric,tag\n";

int labels_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "labels.csv");
	if (!f)
		return 1;
	Buf b = {0}, a = {0}, z = {0}, tag = {0};
	buf_puts(&b, header);
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		a.len = z.len = tag.len = 0;
		pull_end_text(&a, d, l->a);
		pull_end_text(&z, d, l->z);
		ir_cable_id(&tag, d, i);
		buf_puts(&tag, " | ");
		buf_put(&tag, a.s, a.len);
		buf_puts(&tag, " | ");
		buf_put(&tag, z.s, z.len);
		buf_puts(&tag, " | ");
		layout_number(&tag, c->length, 2);
		buf_puts(&tag, " m");
		ir_cable_id(&b, d, i);
		buf_putc(&b, ',');
		text_csv_field(&b, a.s);
		buf_putc(&b, ',');
		text_csv_field(&b, z.s);
		buf_putc(&b, ',');
		layout_number(&b, c->length, 2);
		buf_putc(&b, ',');
		text_csv_field(&b, c->cable ? c->cable->name : "");
		buf_putc(&b, ',');
		text_csv_field(&b, l->fabric >= 0 ? d->fabrics[l->fabric].name : "");
		buf_putc(&b, ',');
		text_csv_field(&b, tag.s);
		buf_putc(&b, '\n');
		layout_flush(f, &b, false);
	}
	layout_flush(f, &b, true);
	buf_free(&b);
	buf_free(&a);
	buf_free(&z);
	buf_free(&tag);
	return output_close(o, f);
}
