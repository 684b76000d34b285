/*
 * layout.c — the placed design as the placement artifacts list it (cabling.csv, netbox/,
 * racks.csv, racks.svg): every device standing in a rack with its U range and power, in rack
 * and U order; slugs and plain numbers. The devices are the IR's: nodes, fabric switches and
 * extra devices (fabric managers), scale-up switch trays, storage appliances, where place.c
 * and elaborate.c stood them; their names, the names of ports and rows are the IR's (ir.c).
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
						   "nvlink tray", "patch panel", "hot spare node"};

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

int layout_devices(const Design *d, RackDevice **out)
{
	RackDevice *v = xmalloc(sizeof(RackDevice) *
				(size_t)(d->nnodes + d->nswitches + d->nextras + d->nappliances +
					 d->npanels + 1));
	int k = 0;
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		const NodeGroup *g = &d->groups[n->group];
		v[k++] = (RackDevice){n->spare ? DEV_SPARE : DEV_NODE, i, n->hostname, n->type, n->rack, n->u,
				      g->type->height_u, g->type->power, d->optics_node ? d->optics_node[i] : 0};
	}
	for (int i = 0; i < d->nswitches; i++) {
		const SwitchInst *s = &d->switches[i];
		if (s->rack < 0)
			continue;
		v[k++] = (RackDevice){s->tier == ST_SCALE_UP ? DEV_TRAY : DEV_SWITCH, i, s->name, s->model,
				      s->rack, s->u, s->model->height_u, s->model->power,
				      d->optics_switch ? d->optics_switch[i] : 0};
	}
	for (int i = 0; i < d->nextras; i++) {
		const ExtraInst *x = &d->extras[i];
		if (x->rack < 0 || x->appliance >= 0) /* an appliance is listed below */
			continue;
		v[k++] = (RackDevice){DEV_EXTRA, i, x->name, x->type, x->rack, x->u,
				      x->type->height_u, x->type->power, d->optics_extra ? d->optics_extra[i] : 0};
	}
	for (int i = 0; i < d->nappliances; i++) {
		const StorageInst *x = &d->appliances[i];
		v[k++] = (RackDevice){DEV_STORAGE, i, x->name, x->type, x->rack, x->u,
				      x->type->height_u, x->type->power, 0};
	}
	for (int i = 0; i < d->npanels; i++) {
		const PanelInst *p = &d->panels[i];
		v[k++] = (RackDevice){DEV_PANEL, i, p->name, p->part, p->rack, p->u, p->part->height_u, 0, 0};
	}
	qsort(v, (size_t)k, sizeof *v, by_place);
	*out = v;
	return k;
}

void layout_csv_place(Buf *b, const Design *d, End e)
{
	int rack, u;
	ir_end_place(d, e, &rack, &u);
	if (rack >= 0) {
		char row[16];
		ir_row_name(d->racks[rack].row, row, sizeof row);
		buf_puts(b, row);
		buf_putc(b, ',');
		text_csv_field(b, d->racks[rack].name);
		buf_putc(b, ',');
		layout_int(b, u);
		buf_putc(b, ',');
	} else {
		buf_puts(b, ",,,");
	}
	text_csv_field(b, ir_end_device(d, e));
	buf_putc(b, ',');
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

void layout_int_any(Buf *b, long long v)
{
	/* buf_digits_at's digits, straight into the buffer (these fill tens of millions of CSV
	 * cells): the one decimal writer of lang/base.h rather than a third. */
	if (b->cap - b->len <= 21) /* a sign, 20 digits and the NUL */
		buf_reserve(b, 21);
	char *p = b->s + b->len;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	if (v < 0)
		*p++ = '-';
	buf_end_at(b, buf_digits_at(p, u));
}

static const long long scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

/* x rounded to `decimals` places (at most 6) without printf: these numbers fill millions of
 * CSV cells. Falls back to text_fixed beyond the range where the scaled value is exact. The
 * text is made from layout_fixed_scaled's whole number alone (and the places). */
static void put_fixed(Buf *b, double x, int decimals, bool trim)
{
	if (!isfinite(x))
		return;
	long long v;
	if (!layout_fixed_scaled(x, decimals, &v)) {
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
	if (v < 0) {
		buf_putc(b, '-');
		v = -v;
	}
	/* the common places by constant divisors (a division by a variable is dear) */
	long long whole, frac;
	if (decimals == 2) {
		whole = v / 100;
		frac = v % 100;
	} else if (decimals == 3) {
		whole = v / 1000;
		frac = v % 1000;
	} else {
		whole = v / scale[decimals];
		frac = v % scale[decimals];
	}
	layout_int(b, whole);
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

void layout_number(Buf *b, double x, int decimals)
{
	put_fixed(b, x, decimals, true);
}

const Buf *layout_number_kept(NumberText *c, double x, int decimals)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	if (!c->set || bits != c->bits || decimals != c->decimals) {
		c->set = true;
		c->bits = bits;
		c->decimals = decimals;
		c->text.len = 0;
		layout_number(&c->text, x, decimals);
	}
	return &c->text;
}

void layout_fixed(Buf *b, double x, int decimals)
{
	put_fixed(b, x, decimals, false);
}

void layout_flush_out(Output *o, FILE *f, Buf *b, bool force)
{
	if (!output_put(o, f, b, !force)) {
		fwrite(b->s, 1, b->len, f);
		b->len = 0;
	}
}
