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

/* One end: site, row, rack, U, device, port (the ends' table's text), optic (site: the
 * design's, as a CSV cell). */
static void put_end(Buf *b, const Buf *site, const EndText *e, const Part *optic,
		    OpticCell *cell)
{
	buf_put(b, site->s, site->len);
	buf_put(b, e->csv, e->csv_len);
	if (optic) {
		if (!cell->set || cell->part != optic) {
			cell->set = true;
			cell->part = optic;
			cell->text.len = 0;
			text_csv_field(&cell->text, optic->name);
		}
		buf_put(b, cell->text.s, cell->text.len);
	}
	buf_putc(b, ',');
}

/* An end's switch cage and lane in it, from 1; empty for a NIC port or a device without cages. */
static void put_cage(Buf *b, int cage, int lane)
{
	buf_putc(b, ',');
	if (cage >= 0)
		layout_int(b, cage + 1);
	buf_putc(b, ',');
	if (cage >= 0)
		layout_int(b, lane + 1);
}

/* The trunk, panels, adapters and cords of a link through a trunk; empty fields otherwise. */
static void put_trunk(Buf *b, const Design *d, const CableInst *c)
{
	if (c->trunk < 0) {
		buf_puts(b, ",,,,,,,");
		return;
	}
	buf_putc(b, ',');
	ir_trunk_name(b, d, c->trunk);
	buf_putc(b, ',');
	buf_puts(b, d->panels[c->panel_a].name);
	buf_putc(b, ',');
	layout_int(b, c->port_a);
	buf_putc(b, ',');
	buf_puts(b, d->panels[c->panel_z].name);
	buf_putc(b, ',');
	layout_int(b, c->port_z);
	buf_putc(b, ',');
	layout_number(b, c->cord_a, 2);
	buf_putc(b, ',');
	layout_number(b, c->cord_z, 2);
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

int cabling_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "cabling.csv");
	if (!f)
		return 1;
	const EndTable *t = ends_table(o, d);
	const EndText *ends = t->ends;
	Buf b = {0}, label = {0}, site = {0};
	Repeat medium = {0}, fabric = {0};
	OpticCell optic_a = {0}, optic_z = {0};
	text_csv_field(&site, d->site_name);
	buf_putc(&site, ',');
	buf_puts(&b, header);
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		const EndText *a = &ends[2 * (size_t)i], *z = a + 1;
		ir_cable_id(&b, d, i);
		buf_putc(&b, ',');
		/* The label "A-device:port - Z-device:port": a plain cell when its four parts are. */
		Buf *lb = a->plain && z->plain ? &b : &label;
		label.len = 0;
		buf_put(lb, a->device, a->device_len);
		buf_putc(lb, ':');
		buf_put(lb, a->port, a->port_len);
		buf_put(lb, " - ", 3);
		buf_put(lb, z->device, z->device_len);
		buf_putc(lb, ':');
		buf_put(lb, z->port, z->port_len);
		if (lb == &label)
			text_csv_field(&b, label.s);
		buf_putc(&b, ',');
		put_end(&b, &site, a, c->module_a ? c->optic_a : NULL, &optic_a);
		put_end(&b, &site, z, c->module_z ? c->optic_z : NULL, &optic_z);
		if (!repeat_same(&medium, c->cable, c->media, c->fiber)) {
			Buf *m = &medium.text;
			text_csv_field(m, c->media >= 0 ? enum_MEDIA.words[c->media] : "");
			buf_putc(m, ',');
			text_csv_field(m, c->fiber >= 0 ? enum_FIBER.words[c->fiber] : "");
			buf_putc(m, ',');
			text_csv_field(m, c->cable ? c->cable->name : "");
			buf_putc(m, ',');
		}
		buf_put(&b, medium.text.s, medium.text.len);
		layout_number(&b, c->trunk >= 0 ? c->cord_a + d->trunks[c->trunk].length + c->cord_z
					       : c->length, 2);
		buf_putc(&b, ',');
		layout_fixed(&b, c->run, 2);
		buf_putc(&b, ',');
		layout_number(&b, l->speed / 1e9, 3);
		buf_putc(&b, ',');
		if (!repeat_same(&fabric, NULL, l->fabric, l->tier)) {
			Buf *m = &fabric.text;
			text_csv_field(m, l->fabric >= 0 ? d->fabrics[l->fabric].name : "");
			buf_putc(m, ',');
			text_csv_field(m, ir_link_tier_names[l->tier]);
			buf_putc(m, ',');
		}
		buf_put(&b, fabric.text.s, fabric.text.len);
		if (l->rail >= 0)
			layout_int(&b, l->rail + 1);
		buf_putc(&b, ',');
		layout_int(&b, l->plane + 1);
		put_cage(&b, c->cage_a, c->lane_a);
		put_cage(&b, c->cage_z, c->lane_z);
		buf_putc(&b, ',');
		ir_cable_id(&b, d, c->assembly);
		put_trunk(&b, d, c);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	buf_free(&label);
	buf_free(&site);
	buf_free(&medium.text);
	buf_free(&fabric.text);
	buf_free(&optic_a.text);
	buf_free(&optic_z.text);
	return output_close(o, f);
}
