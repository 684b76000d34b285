/*
 * racks_csv.c — racks.csv, the rack elevations as a table: one row per device standing in a
 * rack, rack after rack in floor order, from the bottom U up (layout.c lists them).
 *
 * Columns: rack, row (letters), position (in the row, from 1), u (the lowest U the device
 * takes, from 1 at the bottom), height_u, device, kind (node, switch, fabric device, storage,
 * nvlink tray), model (its declaration), power_kw (at peak, as the rack's power counts it),
 * cooling (the rack's cooling system), and limit_kw: the rack's power cap (the lower of its
 * power class and what its cooling removes), repeated on each of its rows so that a rack's
 * power_kw sum can be checked against it; x_m and y_m, the centre of the rack's footprint on
 * the floor (along the row and across the rows, metres), from which cable runs are measured
 * (passes/cable.c); optics_kw, what the transceivers and active cable ends in the device's
 * ports draw (heat.c): a rack's power is the sum of power_kw and optics_kw over its rows, so
 * its heat too; zone, the rack zone it stands in ("main" for a cluster without zones:
 * passes/design/zone.c). RFC 4180 fields, '\n' line ends.
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>

static const char header[] =
	"rack,row,position,u,height_u,device,kind,model,power_kw,cooling,limit_kw,x_m,y_m,optics_kw,"
	"zone\n";

int racks_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "racks.csv");
	if (!f)
		return 1;
	RackDevice *v;
	int n = layout_devices(d, &v);
	Buf b = {0};
	buf_puts(&b, header);
	for (int i = 0; i < n; i++) {
		const RackDevice *x = &v[i];
		const RackInst *r = &d->racks[x->rack];
		char row[16];
		ir_row_name(r->row, row, sizeof row);
		text_csv_field(&b, r->name);
		buf_printf(&b, ",%s,%d,%d,%d,", row, r->pos + 1, x->u, x->height_u);
		text_csv_field(&b, x->name);
		buf_putc(&b, ',');
		text_csv_field(&b, layout_device_kind_names[x->kind]);
		buf_putc(&b, ',');
		text_csv_field(&b, x->model ? x->model->name : "");
		buf_putc(&b, ',');
		layout_fixed(&b, x->power / 1e3, 3);
		buf_putc(&b, ',');
		text_csv_field(&b, r->cooling ? r->cooling->name : "");
		buf_putc(&b, ',');
		double lim = r->cap;
		if (isfinite(lim))
			layout_fixed(&b, lim / 1e3, 3);
		buf_putc(&b, ',');
		layout_fixed(&b, r->x, 3);
		buf_putc(&b, ',');
		layout_fixed(&b, r->y, 3);
		buf_putc(&b, ',');
		layout_fixed(&b, x->optics / 1e3, 3);
		buf_putc(&b, ',');
		text_csv_field(&b, d->zones[r->zone].name);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	free(v);
	return output_close(o, f);
}
