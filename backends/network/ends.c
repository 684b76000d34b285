/*
 * ends.c — each cable's two ends as text, made once per build for the writers that print a
 * row per cable (cabling.csv, labels.csv, pull sheets, wiring.csv, clusterc.lock, NetBox): the
 * device's name and length, the port's name (ir.c), the rack and U, whether device and port
 * are plain CSV cells (text_csv_field copies them as they are), Markdown cells and JSON
 * strings (text_plain: one scan of each device, one of each port of a switch's kind, one of
 * each other port; the switches' files quote their peers' names then without scanning them
 * again), and two texts of each end as the writers print it: "ROW,RACK,U,DEVICE,PORT," as CSV
 * cells (cabling.csv and pull-sheets.csv copy it, wiring.csv from the rack on) and "RACK U<n>
 * DEVICE PORT" (the pull sheets and labels.csv), with whether the second is a plain CSV and
 * Markdown cell as it is (its rack's name scanned once). Before, each of those writers
 * formatted every end again: 302,752 cables at 100,000 GPUs, 600,000 ends, six times
 * (docs/performance.md; the two texts since the eleventh pass). The bytes the writers make
 * are the same; only the work behind them is shared. Each cable id's length is kept too (the
 * writers copy the ids by it).
 *
 * What an end's texts share with the device's other ends is made once a device (DevText: its
 * scan, its place, the texts up to the port), a switch port's name once a kind of switch and
 * port (port_text) and a node port's once a node type and place (node_port); an end is then
 * two copies of each (docs/performance.md, "Emitter, fourteenth pass" and "fifteenth pass").
 *
 * The table is in the Output's arena (output_arena: huge pages, as the design's: a fresh 4 KiB
 * page costs a fault, and the table is 48 bytes an end and some 60 of text: about 65 MB at
 * 100,000 GPUs, docs/performance.md), not the design's, so that emit.c can make it on one thread
 * while the writers that allocate in the design's run on another; the Output keeps the
 * pointer (output_ends), so each build makes its own. The port is the pull text's end (which
 * is NUL-terminated), not a copy of its own.
 */
#include "backends.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A device's part of its ends' texts, made on its first end (a switch has up to a few hundred,
 * a node its NICs' ports): its name's text_plain bits and length, its place, and when it is a
 * plain CSV cell and placed, "ROW,RACK,U,DEVICE," and "RACK U<n> DEVICE ", which start the
 * two texts of each of its ends. Before, each end's device was scanned again when the end
 * before it on that side was another device's, and its U's digits made every end. */
typedef struct DevText {
	const char *device;
	const char *csv, *pull; /* NULL: not plain, or not placed */
	uint32_t csv_len, pull_len;
	uint32_t len;
	int rack, u;
	uint8_t kinds; /* text_plain's */
	bool made;
} DevText;

/* The devices' texts by kind: nodes (an accelerator's end is its node's), switches, extras. */
typedef struct DevTexts {
	DevText *node, *sw, *extra;
	DevText other; /* a kind without a device: made again every time */
} DevTexts;

static DevText *dev_text(DevTexts *t, const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: return &t->node[e.dev];
	case END_ACCEL: return &t->node[d->accels[e.dev].node];
	case END_SWITCH: return &t->sw[e.dev];
	case END_EXTRA: return &t->extra[e.dev];
	default: t->other.made = false; return &t->other;
	}
}

/* A node port's name by its node's type and its place among the node's ports, made once a type
 * and place: elaborate.c gives every node of a type the same ports in the same order (its
 * NICs' ports as the type lists them), and ir.c names a node's port by those alone (its NIC,
 * the NIC's number and port, the ports before it on NICs named alike). Before, ir_end_port
 * each node end: 100,000 calls at 100,000 GPUs, 160 instructions each (docs/performance.md,
 * "Emitter, fifteenth pass"). A cell holds the text and its NUL, its text_plain bits in the
 * last byte but one and its length in the last (0: not made); a type past the first
 * NODE_PORT_TYPES, a place past NODE_PORT_MAX or a longer name is made each time. */
enum { NODE_PORT_TYPES = 4, NODE_PORT_MAX = 1024, NODE_PORT_CELL = 24 };
typedef struct NodePorts {
	const Part *type[NODE_PORT_TYPES];
	int cap[NODE_PORT_TYPES];
	char (*cell[NODE_PORT_TYPES])[NODE_PORT_CELL];
} NodePorts;

/* Node end e's port name (valid until text is written again), its length in *len and its
 * text_plain bits in *kinds: kept in c, or made in text. */
static const char *node_port(NodePorts *c, const Design *d, End e, Buf *text, size_t *len,
			     unsigned *kinds)
{
	const NodeInst *n = &d->nodes[e.dev];
	int at = e.port - n->first_port, k = 0;
	while (k < NODE_PORT_TYPES && c->type[k] && c->type[k] != n->type)
		k++;
	char *cell = NULL;
	if (k < NODE_PORT_TYPES && at >= 0 && at < NODE_PORT_MAX) {
		if (!c->type[k])
			c->type[k] = n->type;
		if (at >= c->cap[k]) {
			int cap = c->cap[k] ? 2 * c->cap[k] : 16;
			while (cap <= at)
				cap *= 2;
			c->cell[k] = xrealloc(c->cell[k], sizeof *c->cell[k] * (size_t)cap);
			memset(c->cell[k] + c->cap[k], 0, sizeof *c->cell[k] * (size_t)(cap - c->cap[k]));
			c->cap[k] = cap;
		}
		cell = c->cell[k][at];
		if (cell[NODE_PORT_CELL - 1]) {
			*len = (unsigned char)cell[NODE_PORT_CELL - 1];
			*kinds = (unsigned char)cell[NODE_PORT_CELL - 2];
			return cell;
		}
	}
	text->len = 0;
	ir_end_port(text, d, e);
	const char *port = text->s ? text->s : "";
	*kinds = text_plain(port, len);
	if (cell && *len > 0 && *len <= NODE_PORT_CELL - 3) {
		memcpy(cell, port, *len + 1);
		cell[NODE_PORT_CELL - 2] = (char)*kinds;
		cell[NODE_PORT_CELL - 1] = (char)*len;
	}
	return port;
}

/* A rack's texts that start its ends' two: "ROW,RACK," (row_len bytes of "ROW,") and "RACK U",
 * and its name's text_plain bits. */
typedef struct RackText {
	const char *place, *rack_u;
	uint32_t place_len, rack_u_len;
	uint8_t row_len, kinds;
} RackText;

/* "ROW,RACK,U,DEVICE," (",,,DEVICE," unplaced), the device as a CSV cell (as it is when plain,
 * dlen bytes). */
static inline void dev_csv(Buf *b, const RackText *racks, int rack, int u, const char *device,
			   size_t dlen, bool plain)
{
	if (rack >= 0) {
		buf_put(b, racks[rack].place, racks[rack].place_len);
		layout_int(b, u);
		buf_putc(b, ',');
	} else {
		buf_put(b, ",,,", 3);
	}
	if (plain)
		buf_put(b, device, dlen);
	else
		text_csv_field(b, device);
	buf_putc(b, ',');
}

/* "RACK U<n> DEVICE " ("DEVICE " unplaced), the device as it is (dlen bytes). */
static inline void dev_pull(Buf *b, const RackText *racks, int rack, int u, const char *device,
			    size_t dlen)
{
	if (rack >= 0) {
		buf_put(b, racks[rack].rack_u, racks[rack].rack_u_len);
		layout_int(b, u);
		buf_putc(b, ' ');
	}
	buf_put(b, device, dlen);
	buf_putc(b, ' ');
}

static void dev_make(Arena *a, DevText *x, const Design *d, End e, const RackText *racks, Buf *tmp)
{
	x->made = true;
	x->device = ir_end_device(d, e);
	ir_end_place(d, e, &x->rack, &x->u);
	size_t len;
	x->kinds = (uint8_t)text_plain(x->device, &len);
	x->len = (uint32_t)len;
	x->csv = x->pull = NULL;
	if (!(x->kinds & TEXT_PLAIN_CSV) || len >= UINT16_MAX || x->rack < 0 || x->u < 0)
		return;
	tmp->len = 0;
	dev_csv(tmp, racks, x->rack, x->u, x->device, len, true);
	x->csv_len = (uint32_t)tmp->len;
	dev_pull(tmp, racks, x->rack, x->u, x->device, len);
	x->pull_len = (uint32_t)(tmp->len - x->csv_len);
	char *both = arena_strndup(a, tmp->s, tmp->len);
	x->csv = both;
	x->pull = both + x->csv_len;
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
	uint8_t *id_len = arena_alloc(a, (size_t)d->ncables + 1);
	for (int i = 0; i < d->ncables; i++) {
		size_t len = strlen(d->cable_ids[i]); /* 11 to 51 bytes: ir.c */
		INVARIANT(len <= UINT8_MAX, "a cable id longer than EndTable.id_len holds");
		id_len[i] = (uint8_t)len;
	}
	/* Each rack's "ROW,RACK," and "RACK U", which start its ends' two texts, and its name's
	 * text_plain bits. */
	RackText *racks = arena_alloc(a, sizeof *racks * (size_t)(d->nracks + 1));
	Buf text = {0}, csv = {0};
	for (int r = 0; r < d->nracks; r++) {
		char row[16];
		ir_row_name(d->racks[r].row, row, sizeof row);
		text.len = 0;
		buf_puts(&text, row);
		buf_putc(&text, ',');
		RackText *x = &racks[r];
		x->row_len = (uint8_t)text.len; /* "ROW,": the rack's cell starts past it */
		text_csv_field(&text, d->racks[r].name);
		buf_putc(&text, ',');
		x->place = arena_strndup(a, text.s, text.len);
		x->place_len = (uint32_t)text.len;
		text.len = 0;
		buf_puts(&text, d->racks[r].name);
		buf_put(&text, " U", 2);
		x->rack_u = arena_strndup(a, text.s, text.len);
		x->rack_u_len = (uint32_t)text.len;
		size_t len;
		x->kinds = (uint8_t)text_plain(d->racks[r].name, &len);
	}
	DevTexts dev = {
		.node = calloc((size_t)d->nnodes + 1, sizeof *dev.node),
		.sw = calloc((size_t)d->nswitches + 1, sizeof *dev.sw),
		.extra = calloc((size_t)d->nextras + 1, sizeof *dev.extra),
	};
	if (!dev.node || !dev.sw || !dev.extra)
		die_oom();
	/* A switch port's name depends on its kind and number only: made once a kind and port. */
	PortTextCache names = {.make = ir_switch_port_name};
	NodePorts node_ports = {0};
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		for (int side = 0; side < 2; side++) {
			End e = side ? l->z : l->a;
			EndText *x = &ends[2 * (size_t)i + (size_t)side];
			DevText *r = dev_text(&dev, d, e);
			if (!r->made)
				dev_make(a, r, d, e, racks, &csv);
			const char *device = r->device;
			int rack = r->rack, u = r->u;
			const char *port;
			size_t plen;
			unsigned port_kinds;
			if (e.kind == END_SWITCH) {
				port = port_text(&names, &d->switches[e.dev], e.port, &plen,
						 &port_kinds);
			} else if (e.kind == END_NODE) {
				port = node_port(&node_ports, d, e, &text, &plen, &port_kinds);
			} else {
				text.len = 0;
				ir_end_port(&text, d, e);
				port = text.s ? text.s : "";
				port_kinds = text_plain(port, &plen);
			}
			unsigned kinds = r->kinds & port_kinds;
			size_t dlen = r->len;
			bool plain = (kinds & TEXT_PLAIN_CSV) && dlen < UINT16_MAX &&
				     plen < UINT16_MAX;
			/* the pull text's rack too: "RACK U<n> DEVICE PORT" as it is, a cell */
			unsigned rack_kinds =
				rack >= 0 ? racks[rack].kinds : TEXT_PLAIN_CSV | TEXT_PLAIN_MD;
			*x = (EndText){.device = device,
				       .rack = rack,
				       .u = u,
				       .device_len = (uint16_t)(plain ? dlen : 0),
				       .port_len = (uint16_t)(plain ? plen : 0),
				       .plain = plain,
				       .md_plain = (kinds & TEXT_PLAIN_MD) != 0,
				       .json_plain = (kinds & TEXT_PLAIN_JSON) != 0,
				       .pull_csv = plain && (rack_kinds & TEXT_PLAIN_CSV),
				       .pull_md = (kinds & rack_kinds & TEXT_PLAIN_MD) != 0};
			if (x->plain && r->csv) {
				/* "ROW,RACK,U,DEVICE,PORT," "RACK U<n> DEVICE PORT\0": the device's
				 * texts and the port, the port read at the second's end */
				size_t cl = r->csv_len, pl = r->pull_len;
				char *all = arena_alloc(a, cl + plen + 1 + pl + plen + 1);
				memcpy(all, r->csv, cl);
				memcpy(all + cl, port, plen);
				all[cl + plen] = ',';
				char *p = all + cl + plen + 1;
				memcpy(p, r->pull, pl);
				memcpy(p + pl, port, plen);
				p[pl + plen] = '\0';
				x->csv = all;
				x->port = p + pl;
				x->csv_len = (uint32_t)(cl + plen + 1);
				x->pull_len = (uint32_t)(pl + plen);
				x->csv_rack = racks[rack].row_len;
				continue;
			}
			if (port != text.s) { /* a switch's or node's port from the names kept */
				text.len = 0;
				buf_put(&text, port, plen);
			}
			x->port = text.s; /* until the copy below */
			x->csv_rack = rack >= 0 ? racks[rack].row_len : 1;
			/* the device's texts as its other ends have them (r->csv, r->pull: a plain
			 * device, placed, whose port is not plain), else made here */
			csv.len = 0;
			if (r->csv)
				buf_put(&csv, r->csv, r->csv_len);
			else
				dev_csv(&csv, racks, rack, u, device, dlen, x->plain);
			ends_csv_port(&csv, x);
			buf_putc(&csv, ',');
			x->csv_len = (uint32_t)csv.len;
			if (r->pull)
				buf_put(&csv, r->pull, r->pull_len);
			else
				dev_pull(&csv, racks, rack, u, device, strlen(device));
			buf_put(&csv, text.s, text.len);
			x->pull_len = (uint32_t)(csv.len - x->csv_len);
			/* the two texts and a NUL in one block, the port read at the second's
			 * end */
			char *all = arena_alloc(a, csv.len + 1);
			memcpy(all, csv.s, csv.len);
			all[csv.len] = '\0';
			x->csv = all;
			x->port = all + csv.len - text.len;
		}
	}
	buf_free(&text);
	buf_free(&csv);
	free(dev.node);
	free(dev.sw);
	free(dev.extra);
	port_text_free(&names);
	for (int k = 0; k < NODE_PORT_TYPES; k++)
		free(node_ports.cell[k]);
	t->d = d;
	t->ends = ends;
	t->id_len = id_len;
	output_set_ends(o, t);
	return t;
}
