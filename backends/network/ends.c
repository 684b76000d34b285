/*
 * ends.c — each cable's two ends as text, made once per build for the writers that print a
 * row per cable (cabling.csv, labels.csv, pull sheets, wiring.csv, clusterc.lock, NetBox): the
 * device's name and length, the port's name (ir.c), the rack and U, whether device and port
 * are plain CSV cells (text_csv_field copies them as they are), Markdown cells and JSON
 * strings (one scan of each port, one of each device a run: text_plain; the switches' files
 * quote their peers' names then without scanning them again), and two texts of each end as
 * the writers print it: "ROW,RACK,U,DEVICE,PORT," as CSV cells (cabling.csv and
 * pull-sheets.csv copy it, wiring.csv from the rack on) and "RACK U<n> DEVICE PORT" (the pull
 * sheets and labels.csv). Before, each of those writers formatted every end again: 302,752
 * cables at 100,000 GPUs, 600,000 ends, six times (docs/performance.md; the two texts since
 * the eleventh pass). The bytes the writers make are the same; only the work behind them is
 * shared.
 *
 * The table is in the Output's arena (output_arena: huge pages, as the design's: a fresh 4 KiB
 * page costs a fault, and the table is 48 bytes an end and some 80 of text: 70 MB at 100,000
 * GPUs, 160 MB on the 262k dragonfly, docs/performance.md), not the
 * design's, so that emit.c can make it on one thread while the writers that allocate in the
 * design's run on another; the Output keeps the pointer (output_ends), so each build makes its
 * own.
 */
#include "backends.h"

#include <stdint.h>
#include <string.h>

/* Writes HEAD, the U's digits, SEP, the device, SEP and the port at p: the part the end's two
 * texts share but for their separator; returns the byte after it. */
static char *end_fields(char *p, const char *head, size_t head_len, const char *ud, size_t ul,
			char sep, const char *device, size_t dl, const char *port, size_t pl)
{
	memcpy(p, head, head_len);
	p += head_len;
	memcpy(p, ud, ul);
	p += ul;
	*p++ = sep;
	memcpy(p, device, dl);
	p += dl;
	*p++ = sep;
	memcpy(p, port, pl);
	return p + pl;
}

/* The texts of an end in a rack, at U u >= 0, whose device and port are plain CSV cells (x->port
 * the port's text for now): written straight into one block of the arena, "PORT\0CSVPULL", the
 * bytes the general way in ends_table makes, without its copies through a Buf. */
static void plain_texts(Arena *a, EndText *x, const char *place, size_t place_len,
			const char *rack_u, size_t rack_u_len, int u)
{
	char digits[12];
	size_t ul = 0;
	unsigned v = (unsigned)u;
	do
		digits[sizeof digits - ++ul] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	const char *ud = digits + sizeof digits - ul;
	size_t dl = x->device_len, pl = x->port_len;
	size_t csv_len = place_len + ul + 1 + dl + 1 + pl + 1;
	size_t pull_len = rack_u_len + ul + 1 + dl + 1 + pl;
	char *all = arena_alloc(a, pl + 1 + csv_len + pull_len);
	memcpy(all, x->port, pl);
	char *p = all + pl + 1;
	x->port = all;
	x->csv = p;
	p = end_fields(p, place, place_len, ud, ul, ',', x->device, dl, all, pl);
	*p++ = ',';
	end_fields(p, rack_u, rack_u_len, ud, ul, ' ', x->device, dl, all, pl);
	x->csv_len = (uint32_t)csv_len;
	x->pull_len = (uint32_t)pull_len;
}

const EndTable *ends_table(Output *o, const Design *d)
{
	EndTable *t = output_ends(o);
	if (t && t->d == d)
		return t;
	Arena *a = output_arena(o);
	t = arena_alloc(a, sizeof *t);
	size_t n = (size_t)d->ncables * 2;
	EndText *ends = arena_alloc(a, sizeof *ends * (n ? n : 1));
	/* Each rack's "ROW,RACK," and "RACK U", which start its ends' two texts. */
	const char **place = arena_alloc(a, sizeof *place * (size_t)(d->nracks + 1));
	uint32_t *place_len = arena_alloc(a, sizeof *place_len * (size_t)(d->nracks + 1));
	const char **rack_u = arena_alloc(a, sizeof *rack_u * (size_t)(d->nracks + 1));
	uint32_t *rack_u_len = arena_alloc(a, sizeof *rack_u_len * (size_t)(d->nracks + 1));
	uint8_t *row_len = arena_alloc(a, (size_t)(d->nracks + 1));
	Buf text = {0}, csv = {0};
	for (int r = 0; r < d->nracks; r++) {
		char row[16];
		ir_row_name(d->racks[r].row, row, sizeof row);
		text.len = 0;
		buf_puts(&text, row);
		buf_putc(&text, ',');
		row_len[r] = (uint8_t)text.len; /* "ROW,": the rack's cell starts past it */
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
			if (!text.s)
				buf_put(&text, "", 0);
			x->port = text.s; /* until the copy below */
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
			if (x->plain && rack >= 0 && u >= 0) {
				x->csv_rack = row_len[rack];
				plain_texts(a, x, place[rack], place_len[rack], rack_u[rack],
					    rack_u_len[rack], u);
				continue;
			}
			csv.len = 0;
			char u_text[24]; /* U's digits, u_len of them */
			size_t u_len = 0;
			if (rack >= 0) {
				buf_put(&csv, place[rack], place_len[rack]);
				x->csv_rack = (uint8_t)row_len[rack];
				layout_int(&csv, u);
				u_len = csv.len - place_len[rack];
				memcpy(u_text, csv.s + place_len[rack], u_len);
				buf_putc(&csv, ',');
			} else {
				buf_put(&csv, ",,,", 3);
				x->csv_rack = 1;
			}
			ends_csv_device(&csv, x);
			buf_putc(&csv, ',');
			ends_csv_port(&csv, x);
			buf_putc(&csv, ',');
			x->csv_len = (uint32_t)csv.len;
			if (rack >= 0) { /* "RACK U<n> " */
				buf_put(&csv, rack_u[rack], rack_u_len[rack]);
				buf_put(&csv, u_text, u_len);
				buf_putc(&csv, ' ');
			}
			buf_put(&csv, x->device, strlen(x->device));
			buf_putc(&csv, ' ');
			buf_put(&csv, text.s, text.len);
			x->pull_len = (uint32_t)(csv.len - x->csv_len);
			/* the port and the two texts in one block: "PORT\0CSVPULL" */
			char *all = arena_alloc(a, text.len + 1 + csv.len);
			memcpy(all, text.s, text.len);
			memcpy(all + text.len + 1, csv.s, csv.len);
			x->port = all;
			x->csv = all + text.len + 1;
		}
	}
	buf_free(&text);
	buf_free(&csv);
	t->d = d;
	t->ends = ends;
	output_set_ends(o, t);
	return t;
}
