/*
 * wiring_csv.c — wiring.csv, the plan as a discovery tool sees it: one row per fabric cable,
 * in cabling.csv's order, each end with the name and port number that `ibnetdiscover` or LLDP
 * reports for it, beside its place and faceplate port. `clusterc verify` reads it (the plan it
 * checks a discovered topology against: docs/daytwo.md); `clusterc diff` and people read
 * cabling.csv.
 *
 * Columns: cable_id, fabric, tier, protocol (infiniband or ethernet), then each end as rack,
 * u, device, port (the faceplate name, as cabling.csv), alias (a switch port's alias, "etp2a";
 * empty elsewhere), node and node_port. node is what discovery calls the device the end is on:
 * on an InfiniBand fabric the NodeDescription (a switch's name; an HCA's "HOSTNAME mlx5_N",
 * named after the NIC's first port as infiniband/FABRIC.topo names it, with the characters
 * that format reserves as '_'); on an Ethernet fabric the device's name (its LLDP system
 * name). node_port is the port's number on that node from 1: a switch's port; an HCA's port
 * (as ibnetdiscover prints it in [brackets]); a server's port over all its NICs (Ethernet). RFC 4180 fields.
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

static const char header[] =
	"cable_id,fabric,tier,protocol,a_rack,a_u,a_device,a_port,a_alias,a_node,a_node_port,"
	"z_rack,z_u,z_device,z_port,z_alias,z_node,z_node_port\n";

enum { WIRING_DESC = 64 }; /* an InfiniBand NodeDescription's bytes (IBA) */

/* The NodeDescription infiniband.c gives: printable ASCII, '"', '#' and '=' as '_', 63 bytes. */
static void put_desc(Buf *b, const char *name, const char *port)
{
	Buf raw = {0};
	buf_puts(&raw, name);
	if (port) {
		buf_putc(&raw, ' ');
		buf_puts(&raw, port);
	}
	char out[WIRING_DESC];
	size_t i = 0;
	for (; i < raw.len && i < WIRING_DESC - 1; i++) {
		unsigned char ch = (unsigned char)raw.s[i];
		out[i] = ch < 0x20 || ch > 0x7e || ch == '"' || ch == '#' || ch == '=' ? '_' : (char)ch;
	}
	out[i] = 0;
	buf_free(&raw);
	text_csv_field(b, out);
}

/* Ports of one NIC of an extra device (as wire.c and infiniband.c count them). */
static int extra_nic_ports(const ExtraInst *x)
{
	const Part *nic = ir_extra_nic(x);
	if (!nic)
		return x->nports > 0 ? x->nports : 1;
	return nic->nic.ports > 0 ? nic->nic.ports : 1;
}

/* An end's port number as discovery counts it by its device: a node's over its NICs, any
 * other's as it is, from 1. */
static int end_number(const Design *d, End e)
{
	return e.kind == END_NODE ? e.port - d->nodes[e.dev].first_port + 1 : e.port + 1;
}

/* node and node_port of an end (see the top of the file). */
static void put_node(Buf *b, const Design *d, End e, const EndText *x, bool ib)
{
	Buf port = {0};
	int number = end_number(d, e);
	if (!ib || e.kind == END_SWITCH) {
		ends_csv_device(b, x);
	} else if (e.kind == END_NODE) {
		const PortInst *p = &d->ports[e.port];
		int first = (int)(p - d->ports);
		while (first > d->nodes[p->node].first_port && d->ports[first - 1].nic_index == p->nic_index)
			first--;
		ir_end_port(&port, d, (End){END_NODE, e.dev, first});
		put_desc(b, d->nodes[e.dev].hostname, port.s);
		number = p->port + 1;
	} else if (e.kind == END_EXTRA) {
		int np = extra_nic_ports(&d->extras[e.dev]);
		buf_printf(&port, "mlx5_%d", e.port / np);
		put_desc(b, d->extras[e.dev].name, port.s);
		number = e.port % np + 1;
	} else {
		ends_csv_device(b, x);
	}
	buf_putc(b, ',');
	layout_int(b, number);
	buf_free(&port);
}

/* A switch port's alias cell: the alias, made once a kind of switch and port (port_text). */
static void put_alias(Buf *b, const SwitchInst *s, int port, PortTextCache *aliases)
{
	size_t n;
	unsigned plain;
	const char *text = port_text(aliases, s, port, &n, &plain);
	if (plain & TEXT_PLAIN_CSV)
		buf_put(b, text, n);
	else
		text_csv_field(b, text);
}

static void put_end(Buf *b, const Design *d, End e, const EndText *x,
		    bool ib, PortTextCache *aliases)
{
	/* An end discovery names by its device (every end of an Ethernet fabric, a switch's or
	 * an accelerator's of an InfiniBand one) whose device and alias are plain cells: at a
	 * pointer after one check for room, "RACK,U,DEVICE,PORT,ALIAS,DEVICE,NUMBER" (the
	 * number layout_int's digits). */
	if (x->plain && (!ib || (e.kind != END_NODE && e.kind != END_EXTRA))) {
		size_t n = 0;
		unsigned plain = TEXT_PLAIN_CSV;
		const char *alias = e.kind == END_SWITCH ? port_text(aliases, &d->switches[e.dev],
								     e.port, &n, &plain)
							 : NULL;
		if (plain & TEXT_PLAIN_CSV) {
			int number = end_number(d, e);
			size_t rack_on = x->csv_len - x->csv_rack;
			text_room(b, rack_on + n + x->device_len + 2 + 21);
			char *p = b->s + b->len;
			p = buf_put_at(p, x->csv + x->csv_rack, rack_on);
			if (n)
				p = buf_put_at(p, alias, n);
			*p++ = ',';
			p = buf_put_at(p, x->device, x->device_len);
			*p++ = ',';
			p = layout_int_at(b, p, number);
			buf_end_at(b, p);
			return;
		}
	}
	/* rack, U, device, port: the ends' table's text past the row */
	buf_put(b, x->csv + x->csv_rack, x->csv_len - x->csv_rack);
	if (e.kind == END_SWITCH)
		put_alias(b, &d->switches[e.dev], e.port, aliases);
	buf_putc(b, ',');
	put_node(b, d, e, x, ib);
}

int wiring_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "wiring.csv");
	if (!f)
		return 1;
	const EndTable *t = ends_table(o, d);
	const EndText *ends = t->ends;
	Buf b = {0}, cells = {0};
	PortTextCache aliases = {.make = ir_switch_port_alias};
	int cells_fabric = -1, cells_tier = -1; /* what cells holds: "fabric,tier,protocol," */
	buf_puts(&b, header);
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		if (l->fabric < 0)
			continue;
		const FabricInst *fab = &d->fabrics[l->fabric];
		bool ib = fab->protocol == PROTO_INFINIBAND;
		buf_put(&b, d->cable_ids[i], t->id_len[i]);
		buf_putc(&b, ',');
		if (l->fabric != cells_fabric || l->tier != cells_tier) { /* once a run of rows */
			cells_fabric = l->fabric;
			cells_tier = l->tier;
			cells.len = 0;
			text_csv_field(&cells, fab->name);
			buf_putc(&cells, ',');
			text_csv_field(&cells, ir_link_tier_names[l->tier]);
			buf_puts(&cells, ib ? ",infiniband," : ",ethernet,");
		}
		buf_put(&b, cells.s, cells.len);
		put_end(&b, d, l->a, &ends[2 * (size_t)i], ib, &aliases);
		buf_putc(&b, ',');
		put_end(&b, d, l->z, &ends[2 * (size_t)i + 1], ib, &aliases);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	buf_free(&cells);
	port_text_free(&aliases);
	return output_close(o, f);
}
