/*
 * expansion.c — the change plan of a build grown from an earlier one (`build --from OLD_DIR`,
 * passes/design/expand_plan.c computes it, docs/daytwo.md describes the files), written only
 * by such a build:
 *
 *   expansion/cables.csv   one row per cable to remove, move or add, in pull order: step (from
 *                          1), action, cable_id, fabric, tier, each end as rack, u, device, port
 *                          (the new cable's; a removed cable's as the earlier build had it),
 *                          the re-plugged end's former place for a move (from_rack, from_u,
 *                          from_device, from_port), media and length_m (a new cable's)
 *   expansion/devices.csv  one row per device to install, relocate or remove, in pull order:
 *                          step, action, device, kind, model, rack, u (new), from_rack, from_u
 *   expansion/plan.md      the same for the crew: step by step, rack by rack
 *
 * and report.json's `expansion` section (expansion_json), counting them.
 */
#include "backends.h"

#include <string.h>

/* rack,u,device,port of a new cable's end. */
static void new_end(Buf *b, const Design *d, End e, Buf *tmp)
{
	int rack, u;
	ir_end_place(d, e, &rack, &u);
	text_csv_field(b, rack >= 0 ? d->racks[rack].name : "");
	buf_putc(b, ',');
	if (rack >= 0)
		layout_int(b, u);
	buf_putc(b, ',');
	text_csv_field(b, ir_end_device(d, e));
	buf_putc(b, ',');
	tmp->len = 0;
	ir_end_port(tmp, d, e);
	text_csv_field(b, tmp->s);
}

/* rack,u,device,port of a prior cable's end (its device dev in Prior.devices, or -1). */
static void prior_end(Buf *b, const Prior *p, int dev, const char *device, const char *port)
{
	const PriorDevice *x = dev >= 0 ? &p->devices[dev] : NULL;
	text_csv_field(b, x ? x->rack : "");
	buf_putc(b, ',');
	if (x)
		layout_int(b, x->u);
	buf_putc(b, ',');
	text_csv_field(b, device);
	buf_putc(b, ',');
	text_csv_field(b, port);
}

static void cable_row(Buf *b, const Design *d, const Change *c, int step, Buf *tmp)
{
	const Prior *p = d->prior;
	const PriorCable *pc = c->prior_cable >= 0 ? &p->cables[c->prior_cable] : NULL;
	layout_int(b, step);
	buf_putc(b, ',');
	buf_puts(b, ir_change_kind_names[c->kind]);
	buf_putc(b, ',');
	if (c->cable >= 0) {
		const CableInst *k = &d->cables[c->cable];
		const LinkInst *l = &d->links[k->link];
		buf_puts(b, d->cable_ids[c->cable]);
		buf_putc(b, ',');
		text_csv_field(b, d->fabrics[l->fabric].name);
		buf_printf(b, ",%s,", ir_link_tier_names[l->tier]);
		new_end(b, d, l->a, tmp);
		buf_putc(b, ',');
		new_end(b, d, l->z, tmp);
		buf_putc(b, ',');
		if (pc) { /* the re-plugged end, where it was */
			bool a = c->moved_a;
			prior_end(b, p, a ? c->prior_a : c->prior_z, a ? pc->a : pc->z,
				  a ? pc->a_port_name : pc->z_port_name);
		} else {
			buf_puts(b, ",,,");
		}
		buf_printf(b, ",%s,", k->media >= 0 ? enum_MEDIA.words[k->media] : "");
		layout_fixed(b, k->length, 1);
	} else {
		text_csv_field(b, pc->id);
		buf_putc(b, ',');
		text_csv_field(b, pc->fabric);
		buf_putc(b, ',');
		text_csv_field(b, pc->tier);
		buf_putc(b, ',');
		prior_end(b, p, c->prior_a, pc->a, pc->a_port_name);
		buf_putc(b, ',');
		prior_end(b, p, c->prior_z, pc->z, pc->z_port_name);
		buf_puts(b, ",,,,,,");
	}
	buf_putc(b, '\n');
}

static void device_row(Buf *b, const Design *d, const Change *c, int step)
{
	const Prior *p = d->prior;
	const PriorDevice *x = c->prior_device >= 0 ? &p->devices[c->prior_device] : NULL;
	layout_int(b, step);
	buf_printf(b, ",%s,", ir_change_kind_names[c->kind]);
	text_csv_field(b, c->device ? c->device : x->name);
	buf_putc(b, ',');
	text_csv_field(b, c->device ? c->device_kind : x->kind);
	buf_putc(b, ',');
	text_csv_field(b, c->device ? c->model : x->model);
	buf_putc(b, ',');
	if (c->device) {
		text_csv_field(b, d->racks[c->rack].name);
		buf_putc(b, ',');
		layout_int(b, c->u);
	} else {
		buf_putc(b, ',');
	}
	buf_putc(b, ',');
	if (x) {
		text_csv_field(b, x->rack);
		buf_putc(b, ',');
		layout_int(b, x->u);
	} else {
		buf_putc(b, ',');
	}
	buf_putc(b, '\n');
}

static bool is_cable(const Change *c)
{
	return c->kind == CHANGE_REMOVE_CABLE || c->kind == CHANGE_MOVE_CABLE ||
	       c->kind == CHANGE_ADD_CABLE;
}

static int write_csvs(Output *o, const Design *d)
{
	FILE *fc = output_file(o, "expansion/cables.csv");
	FILE *fd = fc ? output_file(o, "expansion/devices.csv") : NULL;
	if (!fd)
		return fc ? output_close(o, fc) + 1 : 1;
	Buf c = {0}, v = {0}, tmp = {0};
	buf_puts(&c, "step,action,cable_id,fabric,tier,a_rack,a_u,a_device,a_port,z_rack,z_u,z_device,"
		     "z_port,from_rack,from_u,from_device,from_port,media,length_m\n");
	buf_puts(&v, "step,action,device,kind,model,rack,u,from_rack,from_u\n");
	const Expansion *e = &d->expansion;
	for (int i = 0; i < e->nchanges; i++) {
		if (is_cable(&e->changes[i]))
			cable_row(&c, d, &e->changes[i], i + 1, &tmp);
		else
			device_row(&v, d, &e->changes[i], i + 1);
		layout_flush(o, fc, &c, false);
		layout_flush(o, fd, &v, false);
	}
	layout_flush(o, fc, &c, true);
	layout_flush(o, fd, &v, true);
	buf_free(&c);
	buf_free(&v);
	buf_free(&tmp);
	return output_close(o, fc) + output_close(o, fd);
}

/* The rack a change is worked at, as plan.md groups them. */
static const char *change_rack(const Design *d, const Change *c)
{
	if (c->device)
		return d->racks[c->rack].name;
	if (c->cable >= 0) {
		const LinkInst *l = &d->links[d->cables[c->cable].link];
		int rack, u;
		ir_end_place(d, c->prior_cable >= 0 && !c->moved_a ? l->z : l->a, &rack, &u);
		return rack >= 0 ? d->racks[rack].name : "-";
	}
	const Prior *p = d->prior;
	int dev = c->prior_device >= 0 ? c->prior_device : c->prior_a;
	return dev >= 0 ? p->devices[dev].rack : "-";
}

static const char *const step_titles[CHANGE_COUNT] = {
	"Install the new devices (uncabled)", "Remove cables", "Relocate devices",
	("Move cables (one end stays plugged): first unplug the moving end of every cable below, "
	 "then plug each into its new port (a new port may be one another move frees)"),
	"Add cables", "Remove devices"};

/* "DEVICE:PORT" of a new cable's end, as Markdown text. */
static void md_end(Buf *b, const Design *d, End e, Buf *tmp)
{
	text_md_cell(b, ir_end_device(d, e));
	buf_putc(b, ':');
	tmp->len = 0;
	ir_end_port(tmp, d, e);
	text_md_cell(b, tmp->s);
}

static void md_prior_end(Buf *b, const char *device, const char *port)
{
	text_md_cell(b, device);
	buf_putc(b, ':');
	text_md_cell(b, port);
}

/* One step of plan.md, after its number. */
static void md_step(Buf *b, const Design *d, const Change *c, Buf *tmp)
{
	const Prior *p = d->prior;
	if (!is_cable(c)) {
		const PriorDevice *x = c->prior_device >= 0 ? &p->devices[c->prior_device] : NULL;
		text_md_cell(b, c->device ? c->device : x->name);
		if (c->device) {
			buf_puts(b, " (");
			text_md_cell(b, c->model);
			buf_printf(b, ") at U%d", c->u);
		}
		if (x && c->kind == CHANGE_RELOCATE) {
			buf_puts(b, ", from ");
			text_md_cell(b, x->rack);
			buf_printf(b, " U%d", x->u);
		}
		return;
	}
	const PriorCable *pc = c->prior_cable >= 0 ? &p->cables[c->prior_cable] : NULL;
	if (c->cable < 0) {
		text_md_cell(b, pc->id);
		buf_putc(b, ' ');
		md_prior_end(b, pc->a, pc->a_port_name);
		buf_puts(b, " - ");
		md_prior_end(b, pc->z, pc->z_port_name);
		return;
	}
	const LinkInst *l = &d->links[d->cables[c->cable].link];
	buf_printf(b, "%s ", d->cable_ids[c->cable]);
	md_end(b, d, l->a, tmp);
	buf_puts(b, " - ");
	md_end(b, d, l->z, tmp);
	if (pc) {
		buf_puts(b, " (was ");
		text_md_cell(b, pc->id);
		buf_puts(b, ", from ");
		md_prior_end(b, c->moved_a ? pc->a : pc->z, c->moved_a ? pc->a_port_name : pc->z_port_name);
		buf_putc(b, ')');
	}
}

static int write_md(Output *o, const Design *d)
{
	FILE *f = output_file(o, "expansion/plan.md");
	if (!f)
		return 1;
	const Expansion *e = &d->expansion;
	Buf b = {0}, tmp = {0};
	buf_puts(&b, "# Expansion from ");
	text_md_cell(&b, d->prior->dir);
	buf_printf(&b, "\n\n%d devices to install, %d to relocate, %d to remove; %d cables to add, %d "
		       "to move, %d to remove; %d cables and %d devices stay as they are.\n",
		   e->count[CHANGE_INSTALL], e->count[CHANGE_RELOCATE], e->count[CHANGE_REMOVE_DEVICE],
		   e->count[CHANGE_ADD_CABLE], e->count[CHANGE_MOVE_CABLE], e->count[CHANGE_REMOVE_CABLE],
		   e->kept_cables, e->kept_devices);
	int kind = -1;
	const char *rack = NULL;
	for (int i = 0; i < e->nchanges; i++) {
		const Change *c = &e->changes[i];
		const char *r = change_rack(d, c);
		if (c->kind != kind) {
			kind = c->kind;
			rack = NULL;
			buf_printf(&b, "\n## %d. %s (%d)\n", kind + 1, step_titles[kind], e->count[kind]);
		}
		if (!rack || strcmp(rack, r)) {
			rack = r;
			buf_puts(&b, "\n### Rack ");
			text_md_cell(&b, r);
			buf_puts(&b, "\n\n");
		}
		buf_printf(&b, "%d. ", i + 1);
		md_step(&b, d, c, &tmp);
		buf_putc(&b, '\n');
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	buf_free(&tmp);
	return output_close(o, f);
}

int expansion_write(Output *o, const Design *d)
{
	if (!d->expansion.done)
		return 0;
	int errors = write_csvs(o, d);
	return errors ? errors : write_md(o, d);
}

Json *expansion_json(const Design *d)
{
	const Expansion *e = &d->expansion;
	Json *x = jw_object();
	jw_set(x, "from", jw_str(d->prior->dir));
	Json *dev = jw_object();
	jw_set(dev, "install", jw_int(e->count[CHANGE_INSTALL]));
	jw_set(dev, "relocate", jw_int(e->count[CHANGE_RELOCATE]));
	jw_set(dev, "remove", jw_int(e->count[CHANGE_REMOVE_DEVICE]));
	jw_set(dev, "kept", jw_int(e->kept_devices));
	jw_set(x, "devices", dev);
	Json *cab = jw_object();
	jw_set(cab, "add", jw_int(e->count[CHANGE_ADD_CABLE]));
	jw_set(cab, "move", jw_int(e->count[CHANGE_MOVE_CABLE]));
	jw_set(cab, "remove", jw_int(e->count[CHANGE_REMOVE_CABLE]));
	jw_set(cab, "kept", jw_int(e->kept_cables));
	jw_set(x, "cables", cab);
	Json *racks = jw_object();
	jw_set(racks, "kept", jw_int(e->racks_kept));
	jw_set(racks, "new", jw_int(e->racks_new));
	jw_set(x, "racks", racks);
	Json *rw = jw_object();
	jw_set(rw, "solver", jw_str("glpk"));
	jw_set(rw, "status", jw_str(e->rewire_status));
	jw_set(rw, "minimal_moves", jw_int(e->rewire_moves));
	jw_set(rw, "variables", jw_int(e->rewire_variables));
	jw_set(rw, "constraints", jw_int(e->rewire_constraints));
	jw_set(x, "rewiring", rw);
	jw_set(x, "steps", jw_int(e->nchanges));
	return x;
}
