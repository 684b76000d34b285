/*
 * ends.c — each cable's two ends as text, made once per build for the writers that print a
 * row per cable (cabling.csv, labels.csv, pull sheets, wiring.csv, clusterc.lock, NetBox): the
 * device's name and length, the port's name (ir.c), the rack's "ROW,RACK," cells and the U,
 * and whether device and port are plain CSV cells (text_csv_field copies them as they are).
 * Before, each of those eight writers formatted every end again: 302,752 cables at 100,000
 * GPUs, 600,000 ends, eight times (docs/performance.md). The bytes the writers make are the
 * same; only the work behind them is shared.
 *
 * The table lives as long as the Output (output_ends), so a second build makes its own.
 */
#include "backends.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct EndTable {
	EndText *ends; /* 2 a cable: [2 i] the A end, [2 i + 1] the Z end */
	char *text;    /* the ports' and racks' text, NUL after each */
} EndTable;

static void end_table_free(void *p)
{
	EndTable *t = p;
	if (t) {
		free(t->ends);
		free(t->text);
	}
	free(t);
}

const EndText *cable_ends(Output *o, const Design *d)
{
	EndTable *t = output_ends(o);
	if (t)
		return t->ends;
	t = xmalloc(sizeof *t);
	size_t n = (size_t)d->ncables * 2;
	t->ends = xmalloc(sizeof *t->ends * (n ? n : 1));
	Buf text = {0};
	/* Each rack's "ROW,RACK," once (layout_csv_place's cells): offsets into text, then
	 * pointers once text stops moving. */
	size_t *rack_at = xmalloc(sizeof *rack_at * (size_t)(d->nracks + 1));
	uint32_t *rack_len = xmalloc(sizeof *rack_len * (size_t)(d->nracks + 1));
	for (int r = 0; r < d->nracks; r++) {
		char row[16];
		ir_row_name(d->racks[r].row, row, sizeof row);
		rack_at[r] = text.len;
		buf_puts(&text, row);
		buf_putc(&text, ',');
		text_csv_field(&text, d->racks[r].name);
		buf_putc(&text, ',');
		rack_len[r] = (uint32_t)(text.len - rack_at[r]);
		buf_putc(&text, 0);
	}
	size_t *port_at = xmalloc(sizeof *port_at * (n ? n : 1));
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		for (int side = 0; side < 2; side++) {
			End e = side ? l->z : l->a;
			EndText *x = &t->ends[2 * (size_t)i + (size_t)side];
			x->device = ir_end_device(d, e);
			size_t dlen;
			bool plain = text_csv_plain(x->device, &dlen);
			x->device_len = (uint32_t)dlen;
			port_at[2 * (size_t)i + (size_t)side] = text.len;
			ir_end_port(&text, d, e);
			x->port_len = (uint32_t)(text.len - port_at[2 * (size_t)i + (size_t)side]);
			buf_putc(&text, 0);
			ir_end_place(d, e, &x->rack, &x->u);
			x->place_len = x->rack >= 0 ? rack_len[x->rack] : 0;
			x->plain = plain; /* the port's part below, once text is in place */
		}
	}
	t->text = text.s;
	for (size_t k = 0; k < n; k++) {
		EndText *x = &t->ends[k];
		x->port = text.s + port_at[k];
		size_t plen;
		x->plain = text_csv_plain(x->port, &plen) && x->plain;
		x->place = x->rack >= 0 ? text.s + rack_at[x->rack] : NULL;
	}
	free(port_at);
	free(rack_at);
	free(rack_len);
	output_set_ends(o, t, end_table_free);
	return t->ends;
}

void end_csv_device(Buf *b, const EndText *e)
{
	if (e->plain)
		buf_put(b, e->device, e->device_len);
	else
		text_csv_field(b, e->device);
}

void end_csv_port(Buf *b, const EndText *e)
{
	if (e->plain)
		buf_put(b, e->port, e->port_len);
	else
		text_csv_field(b, e->port);
}

void end_csv_place(Buf *b, const EndText *e)
{
	if (e->place) {
		buf_put(b, e->place, e->place_len);
		layout_int(b, e->u);
		buf_putc(b, ',');
	} else {
		buf_put(b, ",,,", 3);
	}
	end_csv_device(b, e);
	buf_putc(b, ',');
}

void end_pull_text(Buf *b, const Design *d, const EndText *e)
{
	if (e->rack >= 0) {
		buf_puts(b, d->racks[e->rack].name);
		buf_put(b, " U", 2);
		layout_int(b, e->u);
		buf_putc(b, ' ');
	}
	buf_put(b, e->device, e->device_len);
	buf_putc(b, ' ');
	buf_put(b, e->port, e->port_len);
}
