/*
 * cabling_csv.c — cabling.csv, the cable schedule for technicians: one row per cable (one per
 * fabric link, cable.c), in link order. Scale-up links run in the racks' backplanes and are
 * not cables.
 *
 * Columns: cable_id (the stable id of ir.c: "C" and 10 base32 digits of the ends' digest,
 * unchanged by edits elsewhere), label (what the cable tag says: "A-device:port -
 * Z-device:port"), then each end as site, row (letters), rack, U, device, port and optic (the module in that end's cage, named on the cage's first link only, so the
 * optics counted here are the BOM's; empty for copper and AOC), then media (dac, acc, aec,
 * aoc, fiber), fiber_type (om3/om4/om5/os2 for fibre and AOC), cable_model, length_m (the
 * stocked length bought), run_m (the computed run with slack, 2 decimals), speed_gbps,
 * fabric, tier (the link tier: node-leaf, leaf-spine ...), rail and plane (from 1; rail empty
 * when the link is not rail-aligned), then each end's switch cage and lane in it (from 1,
 * empty at a NIC; a cage takes one module or one assembly: cage.c), and assembly, the cable_id
 * of the row that counts the part (its own, or the first leg of the breakout, twin-port cable
 * or splitter fibre the row is a leg of: the BOM counts rows whose assembly is their
 * cable_id). A link through a trunk (structured cabling, trunk.c) then names the trunk, each
 * end's patch panel and adapter (from 1) and its patch cord's stocked length; its cable_model
 * is the cord's, its length_m the channel (cord, trunk, cord); other rows leave these empty.
 * Port names: layout.c. RFC 4180 fields, '\n' line ends.
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

static const char header[] =
	"cable_id,label,a_site,a_row,a_rack,a_u,a_device,a_port,a_optic,z_site,z_row,z_rack,z_u,"
	"z_device,z_port,z_optic,media,fiber_type,cable_model,length_m,run_m,speed_gbps,fabric,"
	"tier,rail,plane,a_cage,a_lane,z_cage,z_lane,assembly,trunk,a_panel,a_panel_port,z_panel,"
	"z_panel_port,a_cord_m,z_cord_m\n";

/* An optic's cell, made once for each run of ends with the same part. */
typedef struct OpticCell {
	const Part *part;
	bool set;
	Buf text;
} OpticCell;

/* An end's optic as a CSV cell (made again only when the part differs from the end's before),
 * or NULL for an end without a module. */
static const Buf *optic_cell(OpticCell *cell, const Part *optic)
{
	if (!optic)
		return NULL;
	if (!cell->set || cell->part != optic) {
		cell->set = true;
		cell->part = optic;
		cell->text.len = 0;
		text_csv_field(&cell->text, optic->name);
	}
	return &cell->text;
}

/* The trunk, panels, adapters and cords of a link through a trunk (c->trunk >= 0). */
static void put_trunk(Buf *b, const Design *d, const CableInst *c)
{
	const CableLeg *g = ir_cable_leg(d, c);
	buf_putc(b, ',');
	ir_trunk_name(b, d, c->trunk);
	buf_putc(b, ',');
	buf_puts(b, d->panels[g->panel_a].name);
	buf_putc(b, ',');
	layout_int(b, g->port_a);
	buf_putc(b, ',');
	buf_puts(b, d->panels[g->panel_z].name);
	buf_putc(b, ',');
	layout_int(b, g->port_z);
	buf_putc(b, ',');
	layout_number(b, g->cord_a, 2);
	buf_putc(b, ',');
	layout_number(b, g->cord_z, 2);
}

/* Cells that repeat from row to row, made once for each run of rows that share them: the
 * medium, fibre type and part ("media,fiber_type,cable_model,"), and the fabric and tier
 * ("fabric,tier,"). */
typedef struct Repeat {
	const void *k1;
	int k2, k3;
	bool set;
	Buf text;
} Repeat;

static bool repeat_same(Repeat *r, const void *k1, int k2, int k3)
{
	if (r->set && r->k1 == k1 && r->k2 == k2 && r->k3 == k3)
		return true;
	r->set = true, r->k1 = k1, r->k2 = k2, r->k3 = k3;
	r->text.len = 0;
	return false;
}

/* The numbers' cells "length_m,run_m,speed_gbps," made once for each distinct three: the
 * length and the speed by their bits, the run by the hundredths its text is made of
 * (layout_fixed_scaled: the runs are computed, so runs that print alike mostly differ in their
 * bits), so the same three always give the same bytes. At 100,000 GPUs 3,723 distinct among
 * 302,752 rows, at k = 64 2,405 among 196,608. Kept in a table of up to NUM_MAX threes found
 * by open addressing (a multiplicative hash, then linear probing, in twice as many slots),
 * none ever evicted: each three is made once while the table has room, and again each time
 * after that. Before, a direct-mapped table of 4,096 slots keyed by the run's bits, where
 * threes that shared a slot evicted each other: 46,867 made at 100,000 GPUs
 * (docs/performance.md, "Emitter, fifteenth pass"). A text longer than an entry holds, or a
 * run that layout_fixed_scaled does not take, is made again each time. */
enum { NUM_BITS = 13, NUM_MAX = 1 << (NUM_BITS - 1), NUM_TEXT = 52 };
typedef struct NumEntry {
	uint64_t k[3];
	uint32_t len;
	char text[NUM_TEXT];
} NumEntry;
typedef struct Numbers {
	uint16_t *slot; /* 1 << NUM_BITS: an entry's index + 1, or 0 */
	NumEntry *entry; /* NUM_MAX, the first n in use */
	int n;
} Numbers;

static void numbers_text(Buf *b, double length, double run, double speed)
{
	layout_number(b, length, 2);
	buf_putc(b, ',');
	layout_fixed(b, run, 2);
	buf_putc(b, ',');
	layout_number(b, speed, 3);
	buf_putc(b, ',');
}

/* The cells' text for the three, an entry's or else made in scratch; its length in *n. */
static const char *numbers(Numbers *t, Buf *scratch, double length, double run, double speed,
			   size_t *n)
{
	uint64_t k[3];
	long long hundredths;
	if (!layout_fixed_scaled(run, 2, &hundredths)) {
		scratch->len = 0;
		numbers_text(scratch, length, run, speed);
		*n = scratch->len;
		return scratch->s;
	}
	memcpy(&k[0], &length, sizeof k[0]);
	k[1] = (uint64_t)hundredths;
	memcpy(&k[2], &speed, sizeof k[2]);
	uint64_t h = k[0] * 0x9E3779B97F4A7C15u ^ k[1] * 0xC2B2AE3D27D4EB4Fu ^
		     k[2] * 0x165667B19E3779F9u;
	unsigned at = (unsigned)((h ^ h >> 29) >> (64 - NUM_BITS));
	for (; t->slot[at]; at = (at + 1) & ((1u << NUM_BITS) - 1)) {
		const NumEntry *e = &t->entry[t->slot[at] - 1];
		if (e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2]) {
			*n = e->len;
			return e->text;
		}
	}
	scratch->len = 0;
	numbers_text(scratch, length, run, speed);
	*n = scratch->len;
	if (scratch->len > NUM_TEXT || t->n == NUM_MAX)
		return scratch->s;
	NumEntry *e = &t->entry[t->n++];
	memcpy(e->k, k, sizeof k);
	memcpy(e->text, scratch->s, scratch->len);
	e->len = (uint32_t)scratch->len;
	t->slot[at] = (uint16_t)t->n;
	return e->text;
}

int cabling_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "cabling.csv");
	if (!f)
		return 1;
	const EndTable *t = ends_table(o, d);
	const EndText *ends = t->ends;
	Numbers nums_kept = {xmalloc(sizeof *nums_kept.slot << NUM_BITS),
			     xmalloc(sizeof *nums_kept.entry * NUM_MAX), 0};
	memset(nums_kept.slot, 0, sizeof *nums_kept.slot << NUM_BITS);
	Buf b = {0}, label = {0}, site = {0}, scratch = {0};
	Repeat medium = {0}, fabric = {0};
	OpticCell optic_a = {0}, optic_z = {0};
	text_csv_field(&site, d->site_name);
	buf_putc(&site, ',');
	buf_puts(&b, header);
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		const EndText *a = &ends[2 * (size_t)i], *z = a + 1;
		/* The cells that repeat, made (or found) first; then the row up to the rail's
		 * cell written at a pointer after one check for room. */
		const Buf *oa = optic_cell(&optic_a, c->module_a ? c->optic_a : NULL);
		const Buf *oz = optic_cell(&optic_z, c->module_z ? c->optic_z : NULL);
		if (!repeat_same(&medium, c->cable, c->media, c->fiber)) {
			Buf *m = &medium.text;
			text_csv_field(m, c->media >= 0 ? enum_MEDIA.words[c->media] : "");
			buf_putc(m, ',');
			text_csv_field(m, c->fiber >= 0 ? enum_FIBER.words[c->fiber] : "");
			buf_putc(m, ',');
			text_csv_field(m, c->cable ? c->cable->name : "");
			buf_putc(m, ',');
		}
		if (!repeat_same(&fabric, NULL, l->fabric, l->tier)) {
			Buf *m = &fabric.text;
			text_csv_field(m, l->fabric >= 0 ? d->fabrics[l->fabric].name : "");
			buf_putc(m, ',');
			text_csv_field(m, ir_link_tier_names[l->tier]);
			buf_putc(m, ',');
		}
		size_t nums_len;
		const char *nums = numbers(&nums_kept, &scratch, ir_cable_channel(d, c), c->run,
					   l->speed / 1e9, &nums_len);
		/* The label "A-device:port - Z-device:port": a plain cell when its four parts are. */
		bool plain = a->plain && z->plain;
		if (!plain) { /* the lengths are the plain ends' only (EndText) */
			label.len = 0;
			buf_puts(&label, a->device);
			buf_putc(&label, ':');
			buf_puts(&label, a->port);
			buf_put(&label, " - ", 3);
			buf_puts(&label, z->device);
			buf_putc(&label, ':');
			buf_puts(&label, z->port);
			scratch.len = 0;
			text_csv_field(&scratch, label.s);
		}
		const char *id = d->cable_ids[i]; /* ir_cable_id's text */
		size_t id_len = t->id_len[i];
		size_t label_len = plain ? (size_t)a->device_len + a->port_len + z->device_len +
						   z->port_len + 5
					 : scratch.len;
		text_room(&b, id_len + 1 + label_len + 1 + 2 * site.len + a->csv_len + z->csv_len +
				      (oa ? oa->len : 0) + (oz ? oz->len : 0) + 2 +
				      medium.text.len + nums_len + fabric.text.len);
		char *p = b.s + b.len;
		p = buf_put_at(p, id, id_len);
		*p++ = ',';
		if (plain) { /* "DEVICE,PORT" of each end's csv text, the comma made a colon */
			size_t na = (size_t)a->device_len + 1 + a->port_len;
			size_t nz = (size_t)z->device_len + 1 + z->port_len;
			buf_put_at(p, ends_device_port(a), na);
			p[a->device_len] = ':';
			p = buf_put_at(p + na, " - ", 3);
			buf_put_at(p, ends_device_port(z), nz);
			p[z->device_len] = ':';
			p += nz;
		} else {
			p = buf_put_at(p, scratch.s, scratch.len);
		}
		*p++ = ',';
		p = buf_put_at(p, site.s, site.len);
		p = buf_put_at(p, a->csv, a->csv_len);
		if (oa && oa->len)
			p = buf_put_at(p, oa->s, oa->len);
		*p++ = ',';
		p = buf_put_at(p, site.s, site.len);
		p = buf_put_at(p, z->csv, z->csv_len);
		if (oz && oz->len)
			p = buf_put_at(p, oz->s, oz->len);
		*p++ = ',';
		p = buf_put_at(p, medium.text.s, medium.text.len);
		p = buf_put_at(p, nums, nums_len);
		p = buf_put_at(p, fabric.text.s, fabric.text.len);
		/* rail, plane, each end's cage and lane, assembly (the row's own id, mostly), the
		 * trunk's cells empty, again at a pointer after one check for room (21 bytes an
		 * integer: layout_int_any's most, so it never moves the buffer) */
		const char *as = c->assembly == i ? id : d->cable_ids[c->assembly];
		size_t as_len = c->assembly == i ? id_len : t->id_len[c->assembly];
		b.len = (size_t)(p - b.s);
		text_room(&b, 6 * 22 + 6 + as_len + 9);
		p = b.s + b.len;
		if (l->rail >= 0)
			p = layout_int_at(&b, p, l->rail + 1);
		*p++ = ',';
		p = layout_int_at(&b, p, l->plane + 1);
		*p++ = ',';
		if (c->cage_a >= 0)
			p = layout_int_at(&b, p, c->cage_a + 1);
		*p++ = ',';
		if (c->cage_a >= 0)
			p = layout_int_at(&b, p, c->lane_a + 1);
		*p++ = ',';
		if (c->cage_z >= 0)
			p = layout_int_at(&b, p, c->cage_z + 1);
		*p++ = ',';
		if (c->cage_z >= 0)
			p = layout_int_at(&b, p, c->lane_z + 1);
		*p++ = ',';
		p = buf_put_at(p, as, as_len);
		if (c->trunk < 0) {
			p = buf_put_at(p, ",,,,,,,\n", 8);
			buf_end_at(&b, p);
		} else {
			buf_end_at(&b, p);
			put_trunk(&b, d, c);
			buf_putc(&b, '\n');
		}
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	free(nums_kept.slot);
	free(nums_kept.entry);
	buf_free(&b);
	buf_free(&label);
	buf_free(&site);
	buf_free(&scratch);
	buf_free(&medium.text);
	buf_free(&fabric.text);
	buf_free(&optic_a.text);
	buf_free(&optic_z.text);
	return output_close(o, f);
}
