/*
 * netbox.c — the netbox/ CSV files, the design as NetBox bulk imports (Import in each list
 * view, or POST to the REST API), one file per object type, in the order they must be imported:
 *
 *   sites.csv          name, slug, status
 *   locations.csv      site, name, slug, status               one location per floor row;
 *                      with zones: site, parent, name, slug, status, a location per zone
 *                      ("Zone NAME", zone-slug) and its rows' parent
 *   racks.csv          name, site, location, status, width, u_height, facility_id
 *   manufacturers.csv  name, slug                             the models' vendors
 *   device-roles.csv   name, slug, color
 *   device-types.csv   manufacturer, model, slug, u_height    one per declaration
 *   devices.csv        name, role, device_type, site, location, rack, position, face, status,
 *                      manufacturer
 *   interfaces.csv     device, name, type, speed              every cabled port
 *   rear-ports.csv     device, name, type, positions          patch panels' adapters (backs)
 *   front-ports.csv    device, name, type, rear_port,         their fronts, p1 ... pN; both
 *                      rear_port_position                     only with structured cabling
 *   cables.csv         side_a_device, side_a_type, side_a_name, side_b_device, side_b_type,
 *                      side_b_name, type, status, label, length, length_unit
 *   power-panels.csv,  the power chain's panels and rack feeds (netbox_power.c)
 *   power-feeds.csv
 *
 * Field names are those of NetBox's import forms (netbox/dcim/forms/bulk_import.py:
 * RackImportForm, DeviceImportForm — role, manufacturer and device_type are looked up by name,
 * device_type by its `model` — InterfaceImportForm, CableImportForm — side_X_device,
 * side_X_type, side_X_name, type, status, label, length, length_unit), read in
 * netbox-community/netbox (v4.x). Cable types are CableTypeChoices slugs
 * (netbox/dcim/choices.py): dac-passive for DAC, dac-active for ACC and AEC, aoc, mmf-om3,
 * mmf-om4, mmf-om5, smf-os2 (smf-os1, mmf, smf for other fibre); a cable with no medium gets
 * no type. Cable status: LinkStatusChoices "connected"; length_unit CableLengthUnitChoices "m".
 *
 * Choices: a device type's model and slug are its declaration's name as a slug ("DGX_H100"
 * becomes "dgx-h100"; a second declaration with the same slug gets "-2"). Interfaces are named
 * as cabling.csv names ports, by their model's faceplate names (ir.c: "Ethernet128", "1/17/1",
 * "mlx5_3"), the same strings in interfaces.csv and cables.csv, with the speed in kbit/s. Their
 * type is an InterfaceTypeChoices slug (netbox/dcim/choices.py, read 2026-12): Ethernet by speed
 * and cage ("800gbase-x-osfp", "400gbase-x-osfp" for a 400G half of an 800G OSFP cage,
 * "400gbase-x-qsfp112", "100gbase-x-qsfp28" ...); InfiniBand by generation and width, the
 * generation from the device's full port speed (4X: 200G HDR, 400G NDR, 800G XDR) and 4X or
 * 1X from the link's share of it ("infiniband-ndr-4x", "infiniband-xdr-4x"; the 4X types
 * need a NetBox that has them, 4.x of 2025 on); "other" where NetBox has no type (a 2X split
 * such as NDR200 or HDR100, a 200G port in an OSFP cage, NVLink). A cable's label is its cable_id in cabling.csv (C4F7K2M9XH4, ir.c): NetBox shows both
 * ends already, and the id finds the row with the lengths and optics. Racks are 19" wide,
 * their facility_id "SITE-RACK". A link through a trunk (structured cabling, trunk.c) is three
 * cables: a cord from its A end to the front port of its panel, the trunk's leg between the two
 * panels' rear ports (labelled with the trunk's name, its length the trunk's), and a cord from
 * the Z panel's front port; the cords carry the link's cable_id.
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Device roles: name (= slug) and colour (hex, as NetBox stores it). */
enum { ROLE_NODE, ROLE_LEAF, ROLE_SPINE, ROLE_CORE, ROLE_ROUTER, ROLE_MANAGER, ROLE_NVLINK,
       ROLE_STORAGE, ROLE_OCS, ROLE_PANEL, ROLE_SPARE, ROLE_COUNT };
static const char *const role_names[ROLE_COUNT] = {"gpu-node", "leaf", "spine", "core", "router",
						   "fabric-manager", "nvlink-switch", "storage",
						   "optical-circuit-switch", "patch-panel",
						   "gpu-node-hot-spare"};
static const char *const role_colors[ROLE_COUNT] = {"4caf50", "2196f3", "3f51b5", "673ab7",
						    "00bcd4", "ff9800", "9c27b0", "795548",
						    "e91e63", "9e9e9e", "ffeb3b"};

static int role_of(const Design *d, const RackDevice *x)
{
	switch (x->kind) {
	case DEV_NODE: return ROLE_NODE;
	case DEV_SPARE: return ROLE_SPARE;
	case DEV_TRAY: return ROLE_NVLINK;
	case DEV_STORAGE: return ROLE_STORAGE;
	case DEV_PANEL: return ROLE_PANEL;
	case DEV_EXTRA: return x->model && x->model->kind == KIND_STORAGE ? ROLE_STORAGE : ROLE_MANAGER;
	default:
		switch (d->switches[x->index].tier) {
		case ST_SPINE: return ROLE_SPINE;
		case ST_CORE: return ROLE_CORE;
		case ST_ROUTER: return ROLE_ROUTER;
		case ST_SCALE_UP: return ROLE_NVLINK;
		case ST_OCS: return ROLE_OCS;
		default: return ROLE_LEAF;
		}
	}
}

/* The device types and manufacturers in use, in order of first sight. */
typedef struct Maker {
	char *name, *slug;
} Maker;

typedef struct Type {
	const Part *model;
	char *slug;
	int maker, height_u;
} Type;

typedef struct Catalog {
	Maker *makers;
	int nmakers;
	Type *types;
	int ntypes;
} Catalog;

static char *slug_of(const char *s)
{
	Buf b = {0};
	layout_slug(&b, s);
	return b.s;
}

static int maker_of(Catalog *c, const Part *model)
{
	const char *vendor = model ? model->vendor : NULL;
	char *slug = slug_of(vendor ? vendor : "generic");
	for (int i = 0; i < c->nmakers; i++)
		if (!strcmp(c->makers[i].slug, slug)) {
			free(slug);
			return i;
		}
	c->makers[c->nmakers] = (Maker){xstrdup(vendor ? vendor : "generic"), slug};
	return c->nmakers++;
}

static int type_of(Catalog *c, const RackDevice *x)
{
	for (int i = c->ntypes - 1; i >= 0; i--)
		if (c->types[i].model == x->model)
			return i;
	Type *t = &c->types[c->ntypes];
	Buf b = {0};
	layout_slug(&b, x->model ? x->model->name : "device");
	size_t base = b.len;
	for (int n = 2;; n++) {
		bool taken = false;
		for (int i = 0; i < c->ntypes && !taken; i++)
			taken = !strcmp(c->types[i].slug, b.s);
		if (!taken)
			break;
		b.len = base;
		buf_printf(&b, "-%d", n);
	}
	*t = (Type){x->model, b.s, maker_of(c, x->model), x->height_u};
	return c->ntypes++;
}

static void catalog_free(Catalog *c)
{
	for (int i = 0; i < c->nmakers; i++) {
		free(c->makers[i].name);
		free(c->makers[i].slug);
	}
	for (int i = 0; i < c->ntypes; i++)
		free(c->types[i].slug);
	free(c->makers);
	free(c->types);
}

/* Writes b as relpath inside the output; empties b. */
static int put_file(Output *o, const char *relpath, Buf *b)
{
	FILE *f = output_file(o, relpath);
	if (!f)
		return 1;
	layout_flush(o, f, b, true);
	return output_close(o, f);
}

static void row_location(Buf *b, int row)
{
	char l[16];
	ir_row_name(row, l, sizeof l);
	buf_puts(b, "Row ");
	buf_puts(b, l);
}

/* A zone's NetBox location: "Zone NAME" (valid until the next call). */
static const char *zone_location(const Design *d, int z)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "Zone %s", d->zones[z].name);
	return buf;
}

static int write_sites_racks(Output *o, const Design *d, Buf *b)
{
	const char *site = d->site_name;
	char *site_slug = slug_of(site);
	int errors = 0;
	buf_puts(b, "name,slug,status\n");
	text_csv_field(b, site);
	buf_printf(b, ",%s,active\n", site_slug);
	errors += put_file(o, "netbox/sites.csv", b);

	/* Zones: a location each, the parent of its rows' (NetBox nests locations). */
	buf_puts(b, d->zoned ? "site,parent,name,slug,status\n" : "site,name,slug,status\n");
	for (int z = 0; d->zoned && z < d->nzones; z++) {
		if (d->zones[z].rows == 0)
			continue;
		char *zs = slug_of(d->zones[z].name);
		text_csv_field(b, site);
		buf_puts(b, ",,");
		text_csv_field(b, zone_location(d, z));
		buf_printf(b, ",zone-%s,active\n", zs);
		free(zs);
	}
	for (int r = 0, last = -1; r < d->nracks; r++) {
		if (d->racks[r].row == last)
			continue;
		last = d->racks[r].row;
		char l[16];
		ir_row_name(last, l, sizeof l);
		text_csv_field(b, site);
		if (d->zoned) {
			buf_putc(b, ',');
			text_csv_field(b, zone_location(d, d->racks[r].zone));
		}
		buf_printf(b, ",Row %s,row-", l);
		for (const char *p = l; *p; p++)
			buf_putc(b, (char)(*p - 'A' + 'a'));
		buf_puts(b, ",active\n");
	}
	errors += put_file(o, "netbox/locations.csv", b);

	int units = layout_rack_units(d);
	buf_puts(b, "name,site,location,status,width,u_height,facility_id\n");
	for (int r = 0; r < d->nracks; r++) {
		const RackInst *rk = &d->racks[r];
		text_csv_field(b, rk->name);
		buf_putc(b, ',');
		text_csv_field(b, site);
		buf_putc(b, ',');
		row_location(b, rk->row);
		buf_puts(b, ",active,19,"); /* printf's ",active,19,%d,%s-" without its parsing */
		layout_int(b, units);
		buf_putc(b, ',');
		buf_puts(b, site_slug);
		buf_putc(b, '-');
		text_csv_field(b, rk->name);
		buf_putc(b, '\n');
	}
	free(site_slug);
	return errors + put_file(o, "netbox/racks.csv", b);
}

static int write_devices(Output *o, const Design *d, Buf *b)
{
	RackDevice *v;
	int n = layout_devices(d, &v);
	Catalog c = {xmalloc(sizeof(Maker) * (size_t)(n + 1)), 0,
		     xmalloc(sizeof(Type) * (size_t)(n + 1)), 0};
	int *type = xmalloc(sizeof(int) * (size_t)(n + 1));
	bool used[ROLE_COUNT] = {false};
	for (int i = 0; i < n; i++) {
		type[i] = type_of(&c, &v[i]);
		used[role_of(d, &v[i])] = true;
	}
	int errors = 0;
	buf_puts(b, "name,slug\n");
	for (int i = 0; i < c.nmakers; i++) {
		text_csv_field(b, c.makers[i].name);
		buf_printf(b, ",%s\n", c.makers[i].slug);
	}
	errors += put_file(o, "netbox/manufacturers.csv", b);

	buf_puts(b, "name,slug,color\n");
	for (int r = 0; r < ROLE_COUNT; r++)
		if (used[r])
			buf_printf(b, "%s,%s,%s\n", role_names[r], role_names[r], role_colors[r]);
	errors += put_file(o, "netbox/device-roles.csv", b);

	buf_puts(b, "manufacturer,model,slug,u_height\n");
	for (int i = 0; i < c.ntypes; i++) {
		text_csv_field(b, c.makers[c.types[i].maker].name);
		buf_printf(b, ",%s,%s,%d\n", c.types[i].slug, c.types[i].slug, c.types[i].height_u);
	}
	errors += put_file(o, "netbox/device-types.csv", b);

	FILE *f = output_file(o, "netbox/devices.csv");
	if (!f) {
		errors++;
	} else {
		buf_puts(b, "name,role,device_type,site,location,rack,position,face,status,manufacturer\n");
		for (int i = 0; i < n; i++) {
			const RackDevice *x = &v[i];
			const RackInst *rk = &d->racks[x->rack];
			text_csv_field(b, x->name);
			buf_putc(b, ',');
			buf_puts(b, role_names[role_of(d, x)]);
			buf_putc(b, ',');
			buf_puts(b, c.types[type[i]].slug);
			buf_putc(b, ',');
			text_csv_field(b, d->site_name);
			buf_putc(b, ',');
			row_location(b, rk->row);
			buf_putc(b, ',');
			text_csv_field(b, rk->name);
			buf_putc(b, ',');
			layout_int(b, x->u); /* printf's %d: the same digits */
			buf_puts(b, ",front,active,");
			text_csv_field(b, c.makers[c.types[type[i]].maker].name);
			buf_putc(b, '\n');
			layout_flush(o, f, b, false);
		}
		layout_flush(o, f, b, true);
		errors += output_close(o, f);
	}
	catalog_free(&c);
	free(type);
	free(v);
	return errors;
}

/* NetBox's cable type slugs (dcim/choices.py, CableTypeChoices). */
static const char *cable_type(const CableInst *c)
{
	switch (c->media) {
	case MEDIA_DAC: return "dac-passive";
	case MEDIA_ACC:
	case MEDIA_AEC: return "dac-active";
	case MEDIA_AOC: return "aoc";
	case MEDIA_FIBER:
		switch (c->fiber) {
		case FIBER_OM3: return "mmf-om3";
		case FIBER_OM4: return "mmf-om4";
		case FIBER_OM5: return "mmf-om5";
		case FIBER_OS2: return "smf-os2";
		default: return "";
		}
	default: return "";
	}
}

/* NetBox's Ethernet pluggable types (InterfaceTypeChoices, "Pluggable transceivers"): speed in
 * Gb/s, cage, slug. NetBox spells QSFP28 (50GE) "50gbase-x-sfp28". */
static const struct {
	int gbps, cage;
	const char *slug;
} ethernet_types[] = {
	{1600, CONN_OSFP, "1.6tbase-x-osfp1600"}, {800, CONN_OSFP, "800gbase-x-osfp"},
	{800, CONN_QSFP_DD, "800gbase-x-qsfpdd"},  {400, CONN_OSFP, "400gbase-x-osfp"},
	{400, CONN_QSFP_DD, "400gbase-x-qsfpdd"},  {400, CONN_QSFP112, "400gbase-x-qsfp112"},
	{200, CONN_QSFP56, "200gbase-x-qsfp56"},   {200, CONN_QSFP_DD, "200gbase-x-qsfpdd"},
	{100, CONN_QSFP28, "100gbase-x-qsfp28"},   {100, CONN_QSFP_DD, "100gbase-x-qsfpdd"},
	{50, CONN_SFP56, "50gbase-x-sfp56"},       {50, CONN_QSFP28, "50gbase-x-sfp28"},
	{25, CONN_SFP28, "25gbase-x-sfp28"},
};

/* InfiniBand 4X and 1X slugs by the 4X speed of the generation (Gb/s). */
static const struct {
	int gbps;
	const char *x4, *x1;
} infiniband_types[] = {
	{200, "infiniband-hdr-4x", "infiniband-hdr"},
	{400, "infiniband-ndr-4x", "infiniband-ndr"},
	{800, "infiniband-xdr-4x", "infiniband-xdr"},
};

/* The part whose cage and protocol give end e's NetBox type: a switch's model (*sw true) or a
 * NIC; NULL where the type is "other" whatever the link. */
static const Part *end_part(const Design *d, End e, bool *sw)
{
	*sw = e.kind == END_SWITCH && d->switches[e.dev].model;
	if (*sw)
		return d->switches[e.dev].model;
	if (e.kind == END_NODE)
		return d->ports[e.port].nic;
	if (e.kind == END_EXTRA)
		return ir_extra_nic(&d->extras[e.dev]);
	return NULL;
}

/* The NetBox type of an end of link l whose part is m (end_part's; see the top of the file). */
static const char *interface_type(const Design *d, const LinkInst *l, const Part *m, bool sw)
{
	if (!m)
		return "other";
	int cage = sw ? m->sw.cage : m->nic.cage, protocol = sw ? m->sw.protocol : m->nic.protocol;
	double full = sw ? m->sw.port_speed : m->nic.speed;
	if (protocol == PROTO_VPI && l->fabric >= 0)
		protocol = d->fabrics[l->fabric].protocol;
	int gbps = (int)llround(l->speed / 1e9);
	if (protocol == PROTO_INFINIBAND) {
		int lanes = (int)llround(4 * l->speed / full);
		for (size_t i = 0; i < sizeof infiniband_types / sizeof infiniband_types[0]; i++)
			if (llround(full / 1e9) == infiniband_types[i].gbps)
				return lanes == 4 ? infiniband_types[i].x4
				       : lanes == 1 ? infiniband_types[i].x1 : "other";
		return "other";
	}
	if (protocol != PROTO_ETHERNET)
		return "other";
	for (size_t i = 0; i < sizeof ethernet_types / sizeof ethernet_types[0]; i++)
		if (ethernet_types[i].gbps == gbps && ethernet_types[i].cage == cage)
			return ethernet_types[i].slug;
	return "other";
}

/* An interface's "TYPE,SPEED\n", made again only when the end's part, whether it is a switch's,
 * the link's fabric or its speed differ from the last end's on that side. */
typedef struct TypeCell {
	const Part *m;
	bool sw, set;
	int fabric;
	double speed;
	Buf text;
} TypeCell;

static const Buf *type_cell(TypeCell *t, const Design *d, const LinkInst *l, End e)
{
	bool sw;
	const Part *m = end_part(d, e, &sw);
	if (t->set && t->m == m && t->sw == sw && t->fabric == l->fabric && t->speed == l->speed)
		return &t->text;
	t->set = true, t->m = m, t->sw = sw, t->fabric = l->fabric, t->speed = l->speed;
	t->text.len = 0;
	buf_puts(&t->text, interface_type(d, l, m, sw));
	buf_putc(&t->text, ',');
	layout_int(&t->text, llround(l->speed / 1e3));
	buf_putc(&t->text, '\n');
	return &t->text;
}

/* A fibre cable's NetBox type from its fibre (a trunk's legs, a patch cord). */
static const char *fibre_type(int fiber)
{
	CableInst c = {.media = MEDIA_FIBER, .fiber = fiber};
	return cable_type(&c);
}

/* Structured cabling (trunk.c) as NetBox models patch panels: each panel's adapters are front
 * ports p1 ... pN, each backed by a rear port r1 ... rN of one position (RearPortImportForm:
 * device, name, type, positions; FrontPortImportForm: device, name, type, rear_port,
 * rear_port_position), type "mpo" (PortTypeChoices). Written only when there are panels. */
static int write_panel_ports(Output *o, const Design *d, Buf *b)
{
	if (d->npanels == 0)
		return 0;
	int errors = 0;
	for (int front = 0; front < 2; front++) {
		FILE *f = output_file(o, front ? "netbox/front-ports.csv" : "netbox/rear-ports.csv");
		if (!f)
			return errors + 1;
		buf_puts(b, front ? "device,name,type,rear_port,rear_port_position\n"
				  : "device,name,type,positions\n");
		for (int p = 0; p < d->npanels; p++) {
			const PanelInst *x = &d->panels[p];
			for (int k = 1; k <= x->part->panel.ports; k++) {
				text_csv_field(b, x->name);
				if (front)
					buf_printf(b, ",p%d,mpo,r%d,1\n", k, k);
				else
					buf_printf(b, ",r%d,mpo,1\n", k);
			}
			layout_flush(o, f, b, false);
		}
		layout_flush(o, f, b, true);
		errors += output_close(o, f);
	}
	return errors;
}

/* A link through a trunk as NetBox's three cables: the A end's cord to its panel's front port,
 * the trunk's leg between the two panels' rear ports (labelled with the trunk's name), the Z
 * panel's front port to the Z end by its cord. The cords carry the link's cable_id. */
static void put_trunked(Buf *b, const Design *d, int i, const EndText *pa, const EndText *pz)
{
	const CableInst *c = &d->cables[i];
	const LinkInst *l = &d->links[c->link];
	const TrunkInst *t = &d->trunks[c->trunk];
	const CableLeg *g = ir_cable_leg(d, c);
	const char *panel_a = d->panels[g->panel_a].name, *panel_z = d->panels[g->panel_z].name;
	/* cord A */
	text_csv_field(b, ir_end_device(d, l->a));
	buf_puts(b, ",dcim.interface,");
	ends_csv_port(b, pa);
	buf_putc(b, ',');
	text_csv_field(b, panel_a);
	buf_printf(b, ",dcim.frontport,p%d,%s,connected,", g->port_a, fibre_type(c->fiber));
	ir_cable_id(b, d, i);
	buf_putc(b, ',');
	layout_number(b, g->cord_a, 2);
	buf_puts(b, ",m\n");
	/* the trunk's leg */
	text_csv_field(b, panel_a);
	buf_printf(b, ",dcim.rearport,r%d,", g->port_a);
	text_csv_field(b, panel_z);
	buf_printf(b, ",dcim.rearport,r%d,%s,connected,", g->port_z,
		   fibre_type(t->part->cable.fiber));
	ir_trunk_name(b, d, c->trunk);
	buf_putc(b, ',');
	layout_number(b, t->length, 2);
	buf_puts(b, ",m\n");
	/* cord Z */
	text_csv_field(b, panel_z);
	buf_printf(b, ",dcim.frontport,p%d,", g->port_z);
	text_csv_field(b, ir_end_device(d, l->z));
	buf_puts(b, ",dcim.interface,");
	ends_csv_port(b, pz);
	buf_printf(b, ",%s,connected,", fibre_type(c->fiber));
	ir_cable_id(b, d, i);
	buf_putc(b, ',');
	layout_number(b, g->cord_z, 2);
	buf_puts(b, ",m\n");
}

static int write_cables(Output *o, const Design *d, Buf *b)
{
	int errors = 0;
	FILE *f = output_file(o, "netbox/interfaces.csv");
	if (!f)
		return 1;
	const EndTable *et = ends_table(o, d);
	const EndText *ends = et->ends;
	TypeCell types[2] = {{0}, {0}};
	buf_puts(b, "device,name,type,speed\n");
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		for (int side = 0; side < 2; side++) {
			const EndText *x = &ends[2 * (size_t)i + (size_t)side];
			const Buf *cell = type_cell(&types[side], d, l, side ? l->z : l->a);
			if (!x->plain) {
				ends_csv_device(b, x);
				buf_putc(b, ',');
				ends_csv_port(b, x);
				buf_putc(b, ',');
				buf_put(b, cell->s, cell->len);
				continue;
			}
			/* device,port,TYPE,SPEED at a pointer after one check for room, "device,port,"
			 * the end of the end's csv text */
			size_t n = (size_t)x->device_len + x->port_len + 2;
			text_room(b, n + cell->len);
			char *p = b->s + b->len;
			p = buf_put_at(p, ends_device_port(x), n);
			p = buf_put_at(p, cell->s, cell->len);
			buf_end_at(b, p);
		}
		layout_flush(o, f, b, false);
	}
	buf_free(&types[0].text);
	buf_free(&types[1].text);
	layout_flush(o, f, b, true);
	errors += output_close(o, f);

	f = output_file(o, "netbox/cables.csv");
	if (!f)
		return errors + 1;
	buf_puts(b, "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,"
		    "type,status,label,length,length_unit\n");
	/* ",TYPE,connected," kept for the last medium and fibre; ",LENGTH,m\n" for the last
	 * length (by its bits: the same bits, the same text). */
	Buf kind = {0}, length = {0};
	int kind_media = -2, kind_fiber = -2;
	uint64_t length_bits = 0;
	bool length_set = false;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const EndText *pa = &ends[2 * (size_t)i], *pz = pa + 1;
		if (c->trunk >= 0) {
			put_trunked(b, d, i, pa, pz);
			layout_flush(o, f, b, false);
			continue;
		}
		if (c->media != kind_media || c->fiber != kind_fiber) {
			kind_media = c->media, kind_fiber = c->fiber;
			kind.len = 0;
			buf_putc(&kind, ',');
			buf_puts(&kind, cable_type(c));
			buf_puts(&kind, ",connected,");
		}
		uint64_t bits;
		memcpy(&bits, &c->length, sizeof bits);
		if (!length_set || bits != length_bits) {
			length_set = true, length_bits = bits;
			length.len = 0;
			buf_putc(&length, ',');
			layout_number(&length, c->length, 2);
			buf_puts(&length, ",m\n");
		}
		const char *id = d->cable_ids[i]; /* ir_cable_id's text */
		size_t id_len = et->id_len[i];
		if (!pa->plain || !pz->plain) {
			ends_csv_device(b, pa);
			buf_puts(b, ",dcim.interface,");
			ends_csv_port(b, pa);
			buf_putc(b, ',');
			ends_csv_device(b, pz);
			buf_puts(b, ",dcim.interface,");
			ends_csv_port(b, pz);
			buf_put(b, kind.s, kind.len);
			buf_put(b, id, id_len);
			buf_put(b, length.s, length.len);
			layout_flush(o, f, b, false);
			continue;
		}
		static const char iface[] = ",dcim.interface,";
		enum { IFACE = sizeof iface - 1 };
		text_room(b, (size_t)pa->device_len + pa->port_len + pz->device_len + pz->port_len +
				     2 * IFACE + 1 + kind.len + id_len + length.len);
		char *p = b->s + b->len;
		p = buf_put_at(p, pa->device, pa->device_len);
		p = buf_put_at(p, iface, IFACE);
		p = buf_put_at(p, pa->port, pa->port_len);
		*p++ = ',';
		p = buf_put_at(p, pz->device, pz->device_len);
		p = buf_put_at(p, iface, IFACE);
		p = buf_put_at(p, pz->port, pz->port_len);
		p = buf_put_at(p, kind.s, kind.len);
		p = buf_put_at(p, id, id_len);
		p = buf_put_at(p, length.s, length.len);
		buf_end_at(b, p);
		layout_flush(o, f, b, false);
	}
	buf_free(&kind);
	buf_free(&length);
	layout_flush(o, f, b, true);
	return errors + output_close(o, f);
}

int netbox_write(Output *o, const Design *d)
{
	Buf b = {0};
	int errors = write_sites_racks(o, d, &b);
	errors += write_devices(o, d, &b);
	errors += write_panel_ports(o, d, &b);
	errors += write_cables(o, d, &b);
	errors += netbox_power_write(o, d);
	buf_free(&b);
	return errors;
}
