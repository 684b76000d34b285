/*
 * ir.c — the IR's own tables and names: how reports and drawings name its kinds, and the one
 * definition of every name an artifact prints for a place or an end (a row, a device, a port,
 * a cable), so that cabling.csv, the NetBox files, the switch configurations and the dump agree.
 *
 * Port names (docs/placement.md): switch ports "p17" from 1, or "p9/2" (physical port / lane)
 * when the switch breaks its ports out; NIC ports "nic3" (the node's third NIC, all NICs
 * counted), or "nic3/p2" when that NIC has several ports; other devices "p1". Cable ids are
 * "C000001" for the first cable, as many digits as the count needs past six.
 */
#include "ir.h"

/* Appends v (>= 0) in decimal: called for every end of every cable. */
static void put_int(Buf *b, long long v)
{
	char tmp[24];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < 23);
	while (n > 0)
		buf_putc(b, tmp[--n]);
}

void ir_row_name(int row, char *buf, size_t size)
{
	char tmp[16];
	int k = 0, n = row + 1;
	while (n > 0 && k < 15) {
		n--;
		tmp[k++] = (char)('A' + n % 26);
		n /= 26;
	}
	size_t j = 0;
	while (k > 0 && j + 1 < size)
		buf[j++] = tmp[--k];
	buf[j] = 0;
}

const char *ir_end_device(const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: return d->nodes[e.dev].hostname;
	case END_EXTRA: return d->extras[e.dev].name;
	case END_SWITCH: return d->switches[e.dev].name;
	case END_ACCEL: return d->nodes[d->accels[e.dev].node].hostname;
	default: return "";
	}
}

void ir_end_port(Buf *b, const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: {
		const PortInst *p = &d->ports[e.port];
		buf_puts(b, "nic");
		put_int(b, p->nic_index + 1);
		if (p->nic->nic.ports > 1) {
			buf_puts(b, "/p");
			put_int(b, p->port + 1);
		}
		break;
	}
	case END_SWITCH: {
		int phys, lane, br;
		ir_switch_port(&d->switches[e.dev], e.port, &phys, &lane, &br);
		buf_putc(b, 'p');
		put_int(b, phys + 1);
		if (br > 1) {
			buf_putc(b, '/');
			put_int(b, lane + 1);
		}
		break;
	}
	case END_ACCEL:
		/* A node's scale-up port (scale_up.c numbers them over its switches). */
		buf_puts(b, "su");
		put_int(b, e.port + 1);
		break;
	default:
		buf_putc(b, 'p');
		put_int(b, e.port + 1);
		break;
	}
}

void ir_switch_port(const SwitchInst *s, int port, int *phys, int *lane, int *split_ways)
{
	int br = s->breakout > 0 ? s->breakout : 1;
	if (s->split > 0 && port >= s->split) {
		int ub = s->up_breakout > 0 ? s->up_breakout : 1;
		*phys = (s->split + br - 1) / br + (port - s->split) / ub;
		*lane = (port - s->split) % ub;
		*split_ways = ub;
		return;
	}
	*phys = port / br;
	*lane = port % br;
	*split_ways = br;
}

void ir_end_place(const Design *d, End e, int *rack, int *u)
{
	*rack = -1;
	*u = 0;
	switch (e.kind) {
	case END_NODE: *rack = d->nodes[e.dev].rack; *u = d->nodes[e.dev].u; break;
	case END_EXTRA: *rack = d->extras[e.dev].rack; *u = d->extras[e.dev].u; break;
	case END_SWITCH: *rack = d->switches[e.dev].rack; *u = d->switches[e.dev].u; break;
	case END_ACCEL: {
		const NodeInst *n = &d->nodes[d->accels[e.dev].node];
		*rack = n->rack;
		*u = n->u;
		break;
	}
	default: break;
	}
}

void ir_cable_id(Buf *b, int i)
{
	buf_putc(b, 'C');
	for (int x = 100000; x > 1 && i + 1 < x; x /= 10)
		buf_putc(b, '0');
	put_int(b, i + 1);
}

const char *const ir_link_tier_names[LT_COUNT] = {
#define X(t, s) s,
	LINK_TIERS(X)
#undef X
};
const char *const ir_switch_tier_names[ST_COUNT] = {
#define X(t, s) s,
	SWITCH_TIERS(X)
#undef X
};


const char *const ir_category_names[CAT_COUNT] = {"nodes", "network", "storage", "other",
					       "cabling", "racks", "cooling", "power"};
