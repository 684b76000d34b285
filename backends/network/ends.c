/*
 * ends.c — each cable's two ends as text, made once per build for the writers that print a
 * row per cable (cabling.csv, labels.csv, pull sheets, wiring.csv, clusterc.lock, NetBox): the
 * device's name and length, the port's name (ir.c), the rack and U, whether device and port
 * are plain CSV cells (text_csv_field copies them as they are), Markdown cells and JSON
 * strings (one scan of each port, one of each device a run: text_plain; the switches' files
 * quote their peers' names then without scanning them again), and each rack's "ROW,RACK,"
 * cells. Before, each of those writers formatted every end again: 302,752 cables at 100,000
 * GPUs, 600,000 ends, six times (docs/performance.md). The bytes the writers make are the
 * same; only the work behind them is shared.
 *
 * The table is in the Output's arena (output_arena: huge pages, as the design's: a fresh 4 KiB
 * page costs a fault, and the table is 32 bytes an end, 60 MB on the 262k dragonfly), not the
 * design's, so that emit.c can make it on one thread while the writers that allocate in the
 * design's run on another; the Output keeps the pointer (output_ends), so each build makes its
 * own.
 */
#include "backends.h"

#include <stdint.h>
#include <string.h>

const EndTable *ends_table(Output *o, const Design *d)
{
	EndTable *t = output_ends(o);
	if (t && t->d == d)
		return t;
	Arena *a = output_arena(o);
	t = arena_alloc(a, sizeof *t);
	size_t n = (size_t)d->ncables * 2;
	EndText *ends = arena_alloc(a, sizeof *ends * (n ? n : 1));
	const char **place = arena_alloc(a, sizeof *place * (size_t)(d->nracks + 1));
	uint32_t *place_len = arena_alloc(a, sizeof *place_len * (size_t)(d->nracks + 1));
	const char **rack_u = arena_alloc(a, sizeof *rack_u * (size_t)(d->nracks + 1));
	uint32_t *rack_u_len = arena_alloc(a, sizeof *rack_u_len * (size_t)(d->nracks + 1));
	Buf text = {0};
	for (int r = 0; r < d->nracks; r++) {
		char row[16];
		ir_row_name(d->racks[r].row, row, sizeof row);
		text.len = 0;
		buf_puts(&text, row);
		buf_putc(&text, ',');
		text_csv_field(&text, d->racks[r].name);
		buf_putc(&text, ',');
		place[r] = arena_strndup(a, text.s, text.len);
		place_len[r] = (uint32_t)text.len;
		text.len = 0;
		buf_puts(&text, d->racks[r].name);
		buf_put(&text, " U", 2);
		rack_u[r] = arena_strndup(a, text.s, text.len);
		rack_u_len[r] = (uint32_t)text.len;
	}
	/* A device has many ports in a row: its name is scanned once a run. */
	const char *last_dev[2] = {NULL, NULL};
	unsigned last_kinds[2] = {0, 0};
	size_t last_len[2] = {0, 0};
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		for (int side = 0; side < 2; side++) {
			End e = side ? l->z : l->a;
			EndText *x = &ends[2 * (size_t)i + (size_t)side];
			text.len = 0;
			ir_end_port(&text, d, e);
			x->port = arena_strndup(a, text.s ? text.s : "", text.len);
			x->device = ir_end_device(d, e);
			if (x->device != last_dev[side] || !x->device) {
				last_dev[side] = x->device;
				last_kinds[side] = text_plain(x->device, &last_len[side]);
			}
			size_t dlen = last_len[side], plen;
			unsigned kinds = last_kinds[side] & text_plain(x->port, &plen);
			x->plain = (kinds & TEXT_PLAIN_CSV) && dlen < UINT16_MAX && plen < UINT16_MAX;
			x->md_plain = (kinds & TEXT_PLAIN_MD) != 0;
			x->json_plain = (kinds & TEXT_PLAIN_JSON) != 0;
			x->device_len = (uint16_t)(x->plain ? dlen : 0);
			x->port_len = (uint16_t)(x->plain ? plen : 0);
			int rack, u;
			ir_end_place(d, e, &rack, &u);
			x->rack = rack;
			x->u = u;
		}
	}
	buf_free(&text);
	t->d = d;
	t->ends = ends;
	t->place = place;
	t->place_len = place_len;
	t->rack_u = rack_u;
	t->rack_u_len = rack_u_len;
	output_set_ends(o, t);
	return t;
}

void ends_csv_place(Buf *b, const EndTable *t, const EndText *e)
{
	if (e->rack >= 0) {
		buf_put(b, t->place[e->rack], t->place_len[e->rack]);
		layout_int(b, e->u);
		buf_putc(b, ',');
	} else {
		buf_put(b, ",,,", 3);
	}
	ends_csv_device(b, e);
	buf_putc(b, ',');
}

void ends_pull_text(Buf *b, const EndTable *t, const EndText *e)
{
	if (e->rack >= 0) {
		buf_put(b, t->rack_u[e->rack], t->rack_u_len[e->rack]);
		layout_int(b, e->u);
		buf_putc(b, ' ');
	}
	if (e->plain) {
		buf_put(b, e->device, e->device_len);
		buf_putc(b, ' ');
		buf_put(b, e->port, e->port_len);
	} else {
		buf_puts(b, e->device);
		buf_putc(b, ' ');
		buf_puts(b, e->port);
	}
}
