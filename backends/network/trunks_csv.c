/*
 * trunks_csv.c — trunks.csv, the structured cabling's trunks (passes/design/trunk.c): one row
 * per trunk between two racks' patch panels, in the order they were laid (by fabric, then rack
 * pair). Written only when a fabric runs structured cabling.
 *
 * Columns: trunk (its name, "T<fabric>-<rack>-<rack>-<seq>": ir.c), fabric, then each end as
 * site, row, rack, panel (the panel of its first leg, "<rack>-PP<slot>"), U (that panel's) and
 * first_port (the adapter of the first leg, from 1; the legs follow on consecutive adapters,
 * into the next panel when one is full), then legs (links carried), trunk_model, fiber_type,
 * length_m (the length made) and run_m (the run with slack, 2 decimals). cabling.csv names the
 * trunk, panel and adapter of every link through one. RFC 4180 fields, '\n' line ends.
 */
#include "backends.h"

static const char header[] =
	"trunk,fabric,a_site,a_row,a_rack,a_panel,a_u,a_first_port,z_site,z_row,z_rack,z_panel,z_u,"
	"z_first_port,legs,trunk_model,fiber_type,length_m,run_m\n";

static void put_end(Buf *b, const Design *d, int rack, int panel, int port)
{
	char row[16];
	ir_row_name(d->racks[rack].row, row, sizeof row);
	text_csv_field(b, d->site_name);
	buf_putc(b, ',');
	buf_puts(b, row);
	buf_putc(b, ',');
	text_csv_field(b, d->racks[rack].name);
	buf_putc(b, ',');
	buf_puts(b, d->panels[panel].name);
	buf_putc(b, ',');
	layout_int(b, d->panels[panel].u);
	buf_putc(b, ',');
	layout_int(b, port);
	buf_putc(b, ',');
}

int trunks_csv_write(Output *o, const Design *d)
{
	if (d->ntrunks == 0)
		return 0;
	FILE *f = output_file(o, "trunks.csv");
	if (!f)
		return 1;
	Buf b = {0};
	buf_puts(&b, header);
	for (int i = 0; i < d->ntrunks; i++) {
		const TrunkInst *t = &d->trunks[i];
		ir_trunk_name(&b, d, i);
		buf_putc(&b, ',');
		text_csv_field(&b, d->fabrics[t->fabric].name);
		buf_putc(&b, ',');
		put_end(&b, d, t->rack_a, t->panel_a, t->port_a);
		put_end(&b, d, t->rack_z, t->panel_z, t->port_z);
		layout_int(&b, t->legs);
		buf_putc(&b, ',');
		text_csv_field(&b, t->part->name);
		buf_putc(&b, ',');
		text_csv_field(&b, t->part->cable.fiber >= 0 ? enum_FIBER.words[t->part->cable.fiber] : "");
		buf_putc(&b, ',');
		layout_number(&b, t->length, 2);
		buf_putc(&b, ',');
		layout_fixed(&b, t->run, 2);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	return output_close(o, f);
}
