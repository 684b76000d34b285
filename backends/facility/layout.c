/*
 * layout.c — the placed design as the placement artifacts name it (cabling.csv, netbox/,
 * racks.csv, racks.svg): every device standing in a rack with its U range and power, the name
 * of every cabled port, the row letters of the floor, slugs and plain numbers.
 *
 * Devices come from the IR: nodes, fabric switches and extra devices (fabric managers) where
 * place.c stood them, scale-up switch trays above their domain's nodes (place.c). Storage
 * appliances have no instances: elaborate.c fills racks of their own with them, entry after
 * entry of the cluster's storage field, stacked from U 1, a new rack for each entry; the same
 * walk over those racks (their order is kept by place_racks) names them DECL-NNN here.
 *
 * Port names (docs/placement.md), the same strings in cabling.csv and the NetBox files:
 * switch ports "p17" from 1, or "p9/2" (physical port / lane) when the switch breaks its ports
 * out; NIC ports "nic3" (the node's third NIC, all NICs counted), or "nic3/p2" when that NIC
 * has several ports; other devices "p1".
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double RACK_UNIT = 0.04445; /* m (EIA-310) */

int layout_units(double height)
{
	int u = (int)lround(height / RACK_UNIT);
	return u < 1 ? 1 : u;
}

int layout_rack_units(const Design *d)
{
	return d->rack_type->height_u;
}

const char *const layout_device_kind_names[DEV_COUNT] = {"node", "switch", "fabric device", "storage",
						   "nvlink tray"};

static int by_place(const void *a, const void *b)
{
	const RackDevice *x = a, *y = b;
	if (x->rack != y->rack)
		return x->rack < y->rack ? -1 : 1;
	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return x->index - y->index;
}

/* Storage appliances, rack by rack as elaborate.c filled them. */
static int add_storage(const Design *d, RackDevice *out, int k)
{
	Arena *a = d->c->arena;
	int entries = d->nstorage_kinds;
	int entry = 0, left = entries ? d->storage[0].count : 0;
	for (int r = 0; r < d->nracks && entry < entries; r++) {
		const RackInst *rk = &d->racks[r];
		if (rk->network || rk->nnodes || !rk->storage)
			continue;
		while (left <= 0 && ++entry < entries)
			left = d->storage[entry].count;
		if (entry >= entries)
			break;
		const PartCount *sv = &d->storage[entry];
		/* Numbered per model, on from earlier entries of the same model. */
		int number = sv->count - left;
		for (int e = 0; e < entry; e++)
			if (d->storage[e].part == sv->part)
				number += d->storage[e].count;
		double h = sv->part->height;
		double used = 0;
		for (int i = 0; i < rk->storage && left > 0; i++, left--, number++) {
			out[k++] = (RackDevice){DEV_STORAGE, number, arena_printf(a, "%s-%03d", sv->part->name,
										  number + 1),
						sv->part, r, 1 + (int)lround(used / RACK_UNIT), layout_units(h),
						sv->part->power};
			used += h;
		}
	}
	return k;
}

int layout_devices(const Design *d, RackDevice **out)
{
	int storage = 0;
	for (int r = 0; r < d->nracks; r++)
		storage += d->racks[r].nnodes ? 0 : d->racks[r].storage;
	RackDevice *v = xmalloc(sizeof(RackDevice) *
				(size_t)(d->nnodes + d->nswitches + d->nextras + storage + 1));
	int k = 0;
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		const NodeGroup *g = &d->groups[n->group];
		v[k++] = (RackDevice){DEV_NODE, i, n->hostname, n->type, n->rack, n->u,
				      g->type->height_u, g->type->power};
	}
	for (int i = 0; i < d->nswitches; i++) {
		const SwitchInst *s = &d->switches[i];
		if (s->rack < 0)
			continue;
		v[k++] = (RackDevice){s->tier == ST_SCALE_UP ? DEV_TRAY : DEV_SWITCH, i, s->name, s->model,
				      s->rack, s->u, s->model->height_u, s->model->power};
	}
	for (int i = 0; i < d->nextras; i++) {
		const ExtraInst *x = &d->extras[i];
		if (x->rack < 0)
			continue;
		v[k++] = (RackDevice){DEV_EXTRA, i, x->name, x->type, x->rack, x->u,
				      x->type->height_u, x->type->power};
	}
	k = add_storage(d, v, k);
	qsort(v, (size_t)k, sizeof *v, by_place);
	*out = v;
	return k;
}

const char *layout_end_device(const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: return d->nodes[e.dev].hostname;
	case END_EXTRA: return d->extras[e.dev].name;
	case END_SWITCH: return d->switches[e.dev].name;
	default: return "";
	}
}

void layout_end_port(Buf *b, const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: {
		const PortInst *p = &d->ports[e.port];
		buf_puts(b, "nic");
		layout_int(b, p->nic_index + 1);
		if (p->nic->nic.ports > 1) {
			buf_puts(b, "/p");
			layout_int(b, p->port + 1);
		}
		break;
	}
	case END_SWITCH: {
		int br = d->switches[e.dev].breakout;
		buf_putc(b, 'p');
		layout_int(b, (br > 1 ? e.port / br : e.port) + 1);
		if (br > 1) {
			buf_putc(b, '/');
			layout_int(b, e.port % br + 1);
		}
		break;
	}
	default:
		buf_putc(b, 'p');
		layout_int(b, e.port + 1);
		break;
	}
}

void layout_end_place(const Design *d, End e, int *rack, int *u)
{
	*rack = -1;
	*u = 0;
	switch (e.kind) {
	case END_NODE: *rack = d->nodes[e.dev].rack; *u = d->nodes[e.dev].u; break;
	case END_EXTRA: *rack = d->extras[e.dev].rack; *u = d->extras[e.dev].u; break;
	case END_SWITCH: *rack = d->switches[e.dev].rack; *u = d->switches[e.dev].u; break;
	default: break;
	}
}

void layout_row_name(int row, char *buf, size_t size)
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

void layout_slug(Buf *b, const char *s)
{
	size_t start = b->len;
	bool dash = false;
	for (; s && *s; s++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && b->len > start)
				buf_putc(b, '-');
			dash = false;
			buf_putc(b, c);
		} else {
			dash = true;
		}
	}
	if (b->len == start)
		buf_puts(b, "x");
}

void layout_int(Buf *b, long long v)
{
	char tmp[24];
	int k = sizeof tmp;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do {
		tmp[--k] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--k] = '-';
	buf_put(b, tmp + k, sizeof tmp - (size_t)k);
}

/* x rounded to `decimals` places (at most 6) without printf: these numbers fill millions of
 * CSV cells. Falls back to text_fixed beyond the range where the scaled value is exact. */
static void put_fixed(Buf *b, double x, int decimals, bool trim)
{
	static const long long scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
	if (!isfinite(x))
		return;
	if (decimals < 0 || decimals > 6 || fabs(x) >= 1e12) {
		size_t start = b->len;
		text_fixed(b, x, decimals);
		if (!trim || b->len == start || !memchr(b->s + start, '.', b->len - start))
			return;
		while (b->s[b->len - 1] == '0')
			b->len--;
		if (b->s[b->len - 1] == '.')
			b->len--;
		b->s[b->len] = 0;
		return;
	}
	long long v = llround(x * (double)scale[decimals]);
	if (v < 0) {
		buf_putc(b, '-');
		v = -v;
	}
	layout_int(b, v / scale[decimals]);
	long long frac = v % scale[decimals];
	int places = decimals;
	while (trim && places > 0 && frac % 10 == 0) {
		frac /= 10;
		places--;
	}
	if (places == 0)
		return;
	char tmp[8];
	for (int i = places - 1; i >= 0; i--, frac /= 10)
		tmp[i] = (char)('0' + frac % 10);
	buf_putc(b, '.');
	buf_put(b, tmp, (size_t)places);
}

void layout_cable_id(Buf *b, int i)
{
	buf_putc(b, 'C');
	for (int x = 100000; x > 1 && i + 1 < x; x /= 10)
		buf_putc(b, '0');
	layout_int(b, i + 1);
}

void layout_number(Buf *b, double x, int decimals)
{
	put_fixed(b, x, decimals, true);
}

void layout_fixed(Buf *b, double x, int decimals)
{
	put_fixed(b, x, decimals, false);
}

void layout_flush(FILE *f, Buf *b, bool force)
{
	if (b->len && (force || b->len >= (1u << 20))) {
		fwrite(b->s, 1, b->len, f);
		b->len = 0;
	}
}
