/*
 * lock.c — clusterc.lock: what a later build needs to grow from this one (`clusterc build SPEC
 * --from DIR`, docs/daytwo.md): the shape of every fabric, the place of every rack and device
 * and both ends of every fabric cable, by name and port number. driver/lock_read.c reads it
 * back; passes/design/expand.c keeps what the new spec allows of it.
 *
 * One RFC 4180 table, a row per record, the columns a record does not use empty:
 *   record,name,kind,model,fabric,tier,rack,row,pos,u,a_device,a_port,a_port_name,z_device,
 *   z_port,z_port_name,detail
 *   lock     the format ("clusterc.lock/1"), first
 *   cluster  the cluster's name; detail: the spec as given
 *   fabric   name, kind (its topology family), model (its leaf switch); detail "rails=R
 *            planes=P tiers=T su=S" (su 0: not rail-optimized)
 *   rack     name, kind (node or network), row and pos on the floor from 0
 *   device   name, kind and model as racks.csv gives them, rack and u
 *   cable    name (its id), fabric, tier, and each end's device, port number (a node's port
 *            among its own from 0, a switch's logical port, an extra device's port) and
 *            port name (the faceplate name every artifact prints: 1/17/1, mlx5_0)
 * Rows come in that order, racks in floor order, devices by rack and U, cables as cabling.csv.
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

static const char header[] =
	"record,name,kind,model,fabric,tier,rack,row,pos,u,a_device,a_port,a_port_name,z_device,z_port,"
	"z_port_name,detail\n";

/* A record's first fields up to `name`, then `empty` empty fields. */
static void put_head(Buf *b, const char *record, const char *name, int empty)
{
	buf_puts(b, record);
	buf_putc(b, ',');
	text_csv_field(b, name);
	for (int i = 0; i < empty; i++)
		buf_putc(b, ',');
}

/* An end's port number (see the top of the file). */
static inline int end_port(const Design *d, End e)
{
	return e.kind == END_NODE ? e.port - d->nodes[e.dev].first_port : e.port;
}

/* An end's device, its port number and name (see the top of the file). */
static void put_end(Buf *b, const Design *d, End e, const EndText *x)
{
	ends_csv_device(b, x);
	buf_putc(b, ',');
	layout_int(b, end_port(d, e));
	buf_putc(b, ',');
	ends_csv_port(b, x);
}

static void put_fabrics(Buf *b, const Design *d)
{
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->sized || !f->family)
			continue;
		put_head(b, "fabric", f->name, 1);
		text_csv_field(b, f->family->name);
		buf_putc(b, ',');
		text_csv_field(b, f->switch_model ? f->switch_model->name : "");
		buf_puts(b, ",,,,,,,,,,,,,");
		buf_printf(b, "rails=%d planes=%d tiers=%d su=%d\n", f->rails, f->planes, f->tiers,
			   f->rail_optimized ? f->su_nodes : 0);
	}
}

static void put_racks(Output *o, Buf *b, const Design *d, FILE *f)
{
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		put_head(b, "rack", r->name, 1);
		buf_puts(b, r->network ? "network" : "node");
		buf_puts(b, ",,,,,"); /* printf's "%d" of row and pos: layout_int's digits */
		layout_int(b, r->row);
		buf_putc(b, ',');
		layout_int(b, r->pos);
		buf_puts(b, ",,,,,,,,\n");
		layout_flush(o, f, b, false);
	}
	RackDevice *v;
	int n = layout_devices(d, &v);
	for (int i = 0; i < n; i++) {
		put_head(b, "device", v[i].name, 1);
		text_csv_field(b, layout_device_kind_names[v[i].kind]);
		buf_putc(b, ',');
		text_csv_field(b, v[i].model ? v[i].model->name : "");
		buf_puts(b, ",,,");
		text_csv_field(b, d->racks[v[i].rack].name);
		buf_puts(b, ",,,");
		layout_int(b, v[i].u); /* printf's "%d": the same digits, without its parsing */
		buf_puts(b, ",,,,,,,\n");
		layout_flush(o, f, b, false);
	}
	free(v);
}

int lock_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "clusterc.lock");
	if (!f)
		return 1;
	Buf b = {0}, tmp = {0};
	buf_puts(&b, header);
	put_head(&b, "lock", "clusterc.lock/1", 15);
	buf_puts(&b, "\n");
	put_head(&b, "cluster", d->cluster_name, 15);
	text_csv_field(&b, d->spec_path);
	buf_putc(&b, '\n');
	put_fabrics(&b, d);
	put_racks(o, &b, d, f);
	const EndTable *et = ends_table(o, d);
	const EndText *ends = et->ends;
	/* ",,,FABRIC,TIER,,,,," made once for each run of cables of one fabric and tier. */
	int tier_fabric = -1, tier = -1;
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		if (l->fabric < 0)
			continue;
		if (l->fabric != tier_fabric || (int)l->tier != tier) {
			tier_fabric = l->fabric;
			tier = (int)l->tier;
			tmp.len = 0;
			buf_puts(&tmp, ",,,");
			text_csv_field(&tmp, d->fabrics[l->fabric].name);
			buf_putc(&tmp, ',');
			text_csv_field(&tmp, ir_link_tier_names[l->tier]);
			buf_puts(&tmp, ",,,,,");
		}
		const EndText *a = &ends[2 * (size_t)i], *z = a + 1;
		const char *id = d->cable_ids[i]; /* ir_cable_id's text */
		size_t id_len = et->id_len[i];
		if (!a->plain || !z->plain) {
			buf_puts(&b, "cable,");
			buf_put(&b, id, id_len);
			buf_put(&b, tmp.s, tmp.len);
			put_end(&b, d, l->a, a);
			buf_putc(&b, ',');
			put_end(&b, d, l->z, z);
			buf_puts(&b, ",\n");
			layout_flush(o, f, &b, false);
			continue;
		}
		/* Plain ends: the row at a pointer after one check for room (each port number
		 * through layout_int, which has room: 21 bytes each). */
		text_room(&b, 6 + id_len + tmp.len + (size_t)a->device_len + a->port_len +
				      z->device_len + z->port_len + 2 * 24 + 8);
		char *p = b.s + b.len;
		p = buf_put_at(p, "cable,", 6);
		p = buf_put_at(p, id, id_len);
		p = buf_put_at(p, tmp.s, tmp.len);
		p = buf_put_at(p, a->device, a->device_len);
		*p++ = ',';
		p = layout_int_at(&b, p, end_port(d, l->a));
		*p++ = ',';
		p = buf_put_at(p, a->port, a->port_len);
		*p++ = ',';
		p = buf_put_at(p, z->device, z->device_len);
		*p++ = ',';
		p = layout_int_at(&b, p, end_port(d, l->z));
		*p++ = ',';
		p = buf_put_at(p, z->port, z->port_len);
		p = buf_put_at(p, ",\n", 2);
		buf_end_at(&b, p);
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	buf_free(&tmp);
	return output_close(o, f);
}
