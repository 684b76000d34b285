/*
 * dump.c — the IR as text after any pass (`--dump=PASS`), for debugging, for tests that pin what
 * a pass produced and for the IR goldens of the examples (tests/ir/). After a front-end pass it
 * prints the program; after a design pass, every part of the IR that exists by then, in
 * pipeline order: the frame, the parts, the design as decided, the racks, nodes, accelerators
 * and ports, the switches, extra devices and links, the cables, the totals and violations, the
 * layer-3 plans, the parallelism plans. Quantities print in base units with %.17g so a dump
 * shows exactly what the next pass receives; instances carry the source line that made them.
 * With a limit (--dump-max=N) each list stops after N entries and says how many it left out.
 */
#include "passes.h"
#include "plan.h"

#include <math.h>
#include <string.h>

typedef struct Dump {
	FILE *out;
	long max; /* entries of a list to print; <= 0: all */
} Dump;

/* Whether entry i of a list of n is printed; after the last one printed, says what was left. */
static bool shown(const Dump *w, const char *what, long i, long n)
{
	if (w->max <= 0 || i < w->max)
		return true;
	if (i == w->max)
		fprintf(w->out, "%s ... %ld more\n", what, n - w->max);
	return false;
}

static void dump_value(FILE *out, const Value *v)
{
	if (!v) {
		fputs("-", out);
		return;
	}
	char dim[96];
	switch (v->kind) {
	case VAL_QTY:
		fprintf(out, "%.17g", v->q.v);
		if (!dim_is_none(v->q.dim))
			fprintf(out, " [%s]", dim_name(v->q.dim, dim, sizeof dim));
		break;
	case VAL_BOOL: fputs(v->b_val ? "true" : "false", out); break;
	case VAL_STRING: fprintf(out, "\"%s\"", v->s); break;
	case VAL_ENUM: fputs(v->s, out); break;
	case VAL_REF: fprintf(out, "&%s", v->ref->name); break;
	case VAL_COUNTED:
		dump_value(out, v->count);
		fprintf(out, " x &%s", v->ref->name);
		break;
	case VAL_RATIO: fprintf(out, "%.17g:%.17g", v->a, v->b); break;
	case VAL_RANGE: fprintf(out, "range(%.17g, %.17g, step %.17g)", v->lo, v->hi, v->step); break;
	case VAL_AUTO: fputs("auto", out); break;
	case VAL_LIST:
	case VAL_CHOICE:
	case VAL_CTOR:
		fprintf(out, "%s(", v->kind == VAL_LIST ? "" : v->kind == VAL_CHOICE ? "one_of" : v->ctor->name);
		for (int i = 0, first = 1; i < v->n; i++) {
			if (v->kind == VAL_CTOR && !v->items[i])
				continue;
			fputs(first ? "" : ", ", out);
			first = 0;
			if (v->kind == VAL_CTOR)
				fprintf(out, "%s = ", v->ctor->params[i].name);
			dump_value(out, v->items[i]);
		}
		fputs(")", out);
		break;
	}
}

static void dump_program(const Program *p, FILE *out, bool values)
{
	for (int i = 0; i < p->files.n; i++)
		fprintf(out, "file %s\n", ((File *)p->files.v[i])->src->path);
	for (int i = 0; i < p->decls.n; i++) {
		const Decl *d = p->decls.v[i];
		fprintf(out, "%s %s", d->kind_word, d->name);
		if (d->parent_name)
			fprintf(out, " : %s", d->parent_name);
		fprintf(out, "%s\n", d->used ? " (used)" : "");
		for (int j = 0; j < d->nfields; j++) {
			const Field *f = d->fields[j];
			fprintf(out, "  %s = ", f->name);
			if (values) {
				dump_value(out, f->val);
			} else {
				int n = (int)(f->value->loc.end - f->value->loc.off);
				fprintf(out, "%.*s", n, f->value->loc.src->text + f->value->loc.off);
			}
			fprintf(out, "%s\n", f->overridden ? "  (override)" : "");
		}
	}
}

/* " at FILE:LINE": the declaration (or the cluster.nodes entry) an instance came from. */
static void dump_loc(FILE *out, Loc loc)
{
	if (!loc.src)
		return;
	int line, col;
	src_linecol(loc.src, loc.off, &line, &col);
	fprintf(out, " at %s:%d", loc.src->path, line);
}

static const char *word(const EnumFamily *f, int e)
{
	return e >= 0 && e < f->n ? f->words[e] : "-";
}

/* ---- the frame and the parts -------------------------------------------------------------------- */

static void dump_frame(const Design *d, FILE *out)
{
	fprintf(out, "spec %s scenario %s\ncluster %s site %s currency %s\n", d->spec_path,
		d->scenario_name, d->cluster_name ? d->cluster_name : "-",
		d->site_name ? d->site_name : "-", currency_name(d->currency));
}

static void dump_counts(FILE *out, const char *what, const PartCount *pc, int n)
{
	fprintf(out, " %s [", what);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%d x %s", i ? ", " : "", pc[i].count, pc[i].part->name);
	fputc(']', out);
}

static void dump_part(const Part *pt, FILE *out)
{
	fprintf(out, "part %s %s price %.17g power %.17g W height %.17g m (%d U)%s", decl_kind_name(pt->kind),
		pt->name, pt->price, pt->power, pt->height, pt->height_u,
		pt->complete ? "" : " (incomplete)");
	switch (pt->kind) {
	case KIND_ACCELERATOR:
		fprintf(out, " memory %.17g B bw %.17g B/s bf16 %.17g fp8 %.17g scale_up %.17g bit/s "
			     "matmul %.17g",
			pt->accel.memory, pt->accel.memory_bw, pt->accel.bf16, pt->accel.fp8,
			pt->accel.scale_up_bw, pt->accel.matmul_eff);
		break;
	case KIND_NIC:
		fprintf(out, " speed %.17g bit/s ports %d protocol %s cage %s", pt->nic.speed,
			pt->nic.ports, word(&enum_PROTOCOL, pt->nic.protocol),
			word(&enum_CONNECTOR, pt->nic.cage));
		break;
	case KIND_SWITCH:
		fprintf(out, " ports %d at %.17g bit/s cages %d %s breakout %d protocol %s",
			pt->sw.ports, pt->sw.port_speed, pt->sw.cages, word(&enum_CONNECTOR, pt->sw.cage),
			pt->sw.breakout, word(&enum_PROTOCOL, pt->sw.protocol));
		break;
	case KIND_OCS:
		fprintf(out, " ports %d spare %d reach %.17g m", pt->ocs.ports, pt->ocs.spare,
			pt->ocs.reach);
		break;
	case KIND_CABLE:
		fprintf(out, " media %s speed %.17g bit/s reach %.17g m fiber %s connector %s lengths %d "
			     "per_m %.17g",
			word(&enum_MEDIA, pt->cable.media), pt->cable.speed, pt->cable.reach,
			word(&enum_FIBER, pt->cable.fiber), word(&enum_CONNECTOR, pt->cable.connector),
			pt->cable.nlengths, pt->cable.price_per_m);
		break;
	case KIND_OPTIC:
		fprintf(out, " speed %.17g bit/s ports %d reach %.17g m fiber %s connector %s cage %s",
			pt->optic.speed, pt->optic.ports, pt->optic.reach, word(&enum_FIBER, pt->optic.fiber),
			word(&enum_CONNECTOR, pt->optic.connector), word(&enum_CONNECTOR, pt->optic.cage));
		break;
	case KIND_PANEL:
		fprintf(out, " ports %d connector %s", pt->panel.ports,
			word(&enum_CONNECTOR, pt->panel.connector));
		break;
	case KIND_COOLING:
		fprintf(out, " type %s pue %.17g max_rack %.17g W capex %.17g /W",
			word(&enum_COOLING_TYPE, pt->cooling.type), pt->cooling.pue,
			pt->cooling.max_rack_power, pt->cooling.capex_per_w);
		for (int k = 0; k < pt->cooling.nplant; k++)
			fprintf(out, "%s%s", k ? " " : " plant ", pt->cooling.plant[k]->name);
		break;
	case KIND_COOLING_UNIT:
		fprintf(out, " unit %s serves %s capacity %.17g W racks %d redundancy %s modules %d "
			     "power_ratio %.17g capex %.17g /W",
			word(&enum_COOLING_UNIT, pt->cunit.unit), word(&enum_HEAT_SHARE, pt->cunit.serves),
			pt->cunit.capacity, pt->cunit.racks_per_unit,
			word(&enum_REDUNDANCY, pt->cunit.redundancy), pt->cunit.module_count,
			pt->cunit.power_ratio, pt->cunit.capex_per_w);
		/* the unit's failure rate (afr / year, passes/design/parts.c) and its repair time */
		fprintf(out, " rate %.17g /s mttr %.17g s beta %.17g", pt->failure_rate, pt->mttr,
			pt->ccf_beta);
		break;
	case KIND_POWER:
		fprintf(out, " type %s redundancy %s modules %d efficiency %.17g capex %.17g /W",
			word(&enum_POWER_TYPE, pt->power_sys.type),
			word(&enum_REDUNDANCY, pt->power_sys.redundancy), pt->power_sys.module_count,
			pt->power_sys.efficiency, pt->power_sys.capex_per_w);
		for (int k = 0; k < pt->power_sys.nchain; k++)
			fprintf(out, "%s%s", k ? " " : " chain ", pt->power_sys.chain[k]->name);
		break;
	case KIND_POWER_STAGE:
		fprintf(out, " stage %s redundancy %s modules %d efficiency %.17g unit %.17g W capex "
			     "%.17g /W",
			word(&enum_POWER_STAGE, pt->stage.stage), word(&enum_REDUNDANCY, pt->stage.redundancy),
			pt->stage.module_count, pt->stage.efficiency, pt->stage.unit_capacity,
			pt->stage.capex_per_w);
		fprintf(out, " rate %.17g /s mttr %.17g s beta %.17g", pt->failure_rate, pt->mttr,
			pt->ccf_beta);
		break;
	case KIND_NODE:
		dump_counts(out, "accelerators", pt->node.accels, pt->node.naccels);
		dump_counts(out, "nics", pt->node.nics, pt->node.nnics);
		if (pt->node.ntrays)
			dump_counts(out, "trays", pt->node.trays, pt->node.ntrays);
		fprintf(out, " domain %d scale_up %.17g bit/s", pt->node.scale_up_domain,
			pt->node.scale_up_bw);
		break;
	case KIND_STORAGE:
		fprintf(out, " capacity %.17g B", pt->storage.capacity);
		dump_counts(out, "nics", pt->storage.nics, pt->storage.nnics);
		break;
	case KIND_RACK:
		fprintf(out, " reserved %.17g m", pt->rack.reserved);
		break;
	default:
		break;
	}
	dump_loc(out, pt->loc);
	fputc('\n', out);
}

static void dump_parts(const Design *d, FILE *out)
{
	for (int i = 0; i < d->nparts; i++)
		dump_part(&d->parts[i], out);
}

/* ---- the design as decided -------------------------------------------------------------------- */

static void dump_totals(const Design *d, FILE *out)
{
	const Totals *t = &d->t;
	fprintf(out, "accelerators %.17g\nnodes %.17g\nracks %.17g\n", t->accelerators, t->nodes, t->racks);
	fprintf(out, "it_power %.17g W\navg_it_power %.17g W\npue %.17g\nfacility_power %.17g W\n",
		t->it_power, t->avg_it_power, t->pue, t->facility_power);
	for (int k = 0; k < CAT_COUNT; k++)
		fprintf(out, "power.%s %.17g W\n", ir_category_names[k], t->power_by_cat[k]);
	for (int k = 0; k < CAT_COUNT; k++)
		fprintf(out, "capex.%s %.17g\n", ir_category_names[k], t->capex_by_cat[k]);
	fprintf(out, "capex %.17g\nannual_energy %.17g J\nannual_energy_cost %.17g\ntco %.17g\n",
		t->capex, t->annual_energy, t->annual_energy_cost, t->tco);
	if (!isnan(t->annual_carbon))
		fprintf(out, "annual_carbon %.17g kg\n", t->annual_carbon);
	for (int i = 0; i < d->nobjectives; i++)
		fprintf(out, "objective %d %.17g\n", i, d->objective[i]);
	if (d->nstages)
		fprintf(out, "power_efficiency %.17g\npower_losses %.17g W\n", t->power_efficiency,
			t->power_losses);
	for (int k = 0; k < d->nstages; k++) {
		const PowerStageInst *s = &d->stages[k];
		fprintf(out, "stage %s load %.17g W input %.17g W installed %.17g W units %.17g "
			     "failure %.17g W capex %.17g",
			s->stage->name, s->load, s->input, s->installed, s->units, s->failure_load,
			s->capex);
		dump_loc(out, s->stage->loc);
		fputc('\n', out);
	}
	if (d->ncool_groups)
		fprintf(out, "cooling_power %.17g W avg %.17g W ppue %.17g annual %.17g pue_annual %.17g "
			     "free_share %.17g heat_reused %.17g J credit %.17g\n",
			t->cooling_power, t->cooling_avg_power, t->cooling_ppue, t->cooling_ppue_annual,
			t->pue_annual, t->free_cooling_share, t->heat_reused, t->heat_credit);
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		fprintf(out, "cooling_group %s racks %d heat %.17g W avg %.17g W liquid %.17g W power "
			     "%.17g W avg %.17g W capex %.17g\n",
			g->cooling->name, g->racks, g->heat, g->avg_heat, g->liquid_heat, g->power,
			g->avg_power, g->capex);
		for (int k = 0; k < g->nunits; k++) {
			const CoolingUnitInst *u = &g->units[k];
			fprintf(out, "  unit %s load %.17g W units %.17g installed %.17g W power %.17g W avg "
				     "%.17g W capex %.17g",
				u->unit->name, u->load, u->units, u->installed, u->power, u->avg_power,
				u->capex);
			dump_loc(out, u->unit->loc);
			fputc('\n', out);
		}
	}
}

static void dump_design(const Design *d, const Dump *w)
{
	FILE *out = w->out;
	fprintf(out, "rack_type %s cooling %s power %s cap %.17g W\n",
		d->rack_type ? d->rack_type->name : "-", d->cooling_type ? d->cooling_type->name : "-",
		d->power_sys ? d->power_sys->name : "-", d->rack_cap);
	/* Zones (zone.c), when the cluster declares them: the implicit zone is the line above. */
	for (int i = 0; d->zoned && i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		fprintf(out, "zone %s rack %s cooling %s limit %.17g W cap %.17g W racks %d nodes %d "
			     "network %d",
			z->name, z->rack_type->name, z->cooling_type->name, z->limit, z->cap, z->racks,
			z->nodes, i == d->net_zone);
		dump_loc(out, z->loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		fprintf(out, "group %s count %d per_rack %d racks %d domain_nodes %d power %.17g W "
			     "height %.17g m",
			g->type->name, g->count, g->per_rack, g->racks, g->domain_nodes, g->type->power,
			g->type->height);
		if (g->spares > 0)
			fprintf(out, " hot_spares %d domain_spares %d", g->spares, g->domain_spares);
		if (d->zoned)
			fprintf(out, " zone %s", d->zones[g->zone].name);
		dump_loc(out, g->loc);
		fputc('\n', out);
	}
	dump_totals(d, out);
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->family)
			continue;
		fprintf(out, "fabric %s %s switch %s radix %d breakout %d tiers %d planes %d rails %d "
			     "sus %d endpoints %d protocol %s\n",
			f->name, f->family->name, f->switch_model ? f->switch_model->name : "-", f->radix,
			f->breakout, f->tiers, f->planes, f->rails, f->sus, f->endpoints,
			word(&enum_PROTOCOL, f->protocol));
		fprintf(out, "  switches %d", f->switches);
		for (int k = 0; k < ST_COUNT; k++)
			if (f->by_tier[k])
				fprintf(out, " %s %d", ir_switch_tier_names[k], f->by_tier[k]);
		fprintf(out, "\n  links %d", f->links);
		for (int k = 0; k < LT_COUNT; k++)
			if (f->links_by_tier[k])
				fprintf(out, " %s %d", ir_link_tier_names[k], f->links_by_tier[k]);
		fprintf(out, "\n  bisection %.17g bit/s diameter %d ecmp %.17g\n", f->bisection,
			f->diameter, f->ecmp);
		for (int k = 0; k < f->nshape; k++)
			fprintf(out, "%s%s %d%s", k ? " " : "  shape ", f->shape[k].name, f->shape[k].value,
				k == f->nshape - 1 ? "\n" : "");
		if (f->ndims && (f->blocks > 1 || f->per_node > 1 || f->twisted))
			fprintf(out, "  torus block %dx%dx%d blocks %d per_node %d node_shape %dx%dx%d "
				     "twisted %d ocs_ports %d board_links %d\n",
				f->block[0], f->block[1], f->block[2], f->blocks, f->per_node,
				f->node_shape[0], f->node_shape[1], f->node_shape[2], f->twisted,
				f->ocs_ports, f->board_links);
		if (f->plane_form)
			fprintf(out, "  plane_assignment %s tors_per_rack %d backup_ports_per_tor %d\n",
				f->by_port ? "by_port" : "by_nic", f->tors_per_rack, f->backup_ports);
		/* A tree in the per-tier form: each tier's hardware and shape (tier_used once wired). */
		if (f->family->tree && f->per_tier) {
			fprintf(out, "  leaves %s racks_per_leaf %d pods %d pod_leaves %d pod_endpoints %d\n",
				f->tor ? "server_rack" : "network_rack", f->tor ? f->racks_per_leaf : 0,
				f->pods, f->pod_leaves, f->pod_endpoints);
			for (int t = 0; t < f->tiers && t < 3; t++)
				fprintf(out, "  tier %d model %s speed %.17g bit/s radix %d used %d down %d up %d "
					     "oversub %.17g up_per_endpoint %.17g bit/s\n",
					t, f->tier_model[t]->name, f->tier_speed[t], f->tier_radix[t],
					f->tier_used[t], t < f->tiers - 1 ? f->down[t] : f->tier_used[t],
					t < f->tiers - 1 ? f->up[t] : 0, t < f->tiers - 1 ? f->oversub[t] : 0,
					t < 2 ? f->up_per_endpoint[t] : 0);
		}
	}
	for (int i = 0; i < d->nscaleups; i++) {
		const ScaleUpInst *s = &d->scaleups[i];
		fprintf(out, "scale-up %s domains %d accelerators %d switches %d links %d",
			s->node->name, s->domains, s->domain_accels, s->nswitches, s->nlinks);
		if (s->node_racks > 1 || s->switch_racks > 0)
			fprintf(out, " racks %d+%d chips %d between-racks %d", s->node_racks,
				s->switch_racks, s->chips_per_domain, s->cables);
		fputc('\n', out);
	}
	for (int i = 0; i < d->nnetgroups && shown(w, "netgroup", i, d->nnetgroups); i++) {
		const NetGroup *g = &d->netgroups[i];
		fprintf(out, "netgroup %d fabric %s plane %d switches %d+%d%s racks %d serves %d..%d\n", i,
			d->fabrics[g->fabric].name, g->plane, g->first, g->count,
			g->with_extras ? " extras" : "", g->racks, g->serve_lo, g->serve_hi);
	}
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		fprintf(out, "decision %s.%s%s = %s of %d", x->name, x->field_name,
			x->in_count ? " (count)" : "", x->chosen_text ? x->chosen_text : "-",
			x->ncandidates);
		if (!isnan(x->next_best))
			fprintf(out, " (next best %s: %.17g)", x->next_best_text, x->next_best);
		fputc('\n', out);
	}
}

static void dump_violations(const Design *d, FILE *out)
{
	for (int i = 0; i < d->violations.n; i++)
		fprintf(out, "violation %s\n", ((Violation *)d->violations.v[i])->msg);
}

/* ---- instances ---------------------------------------------------------------------------------- */

/* Every instance with its stable index and the source line that produced it: racks (their
 * type), nodes (their entry in cluster.nodes), accelerators and NIC ports (their declaration);
 * and the scale-up domains' names. */
static void dump_instances(const Design *d, const Dump *w)
{
	FILE *out = w->out;
	for (int i = 0; i < d->nracks && shown(w, "rack", i, d->nracks); i++) {
		const RackInst *r = &d->racks[i];
		fprintf(out, "rack %s type %s row %d pos %d nodes %d storage %d power %.17g W limit %.17g W "
			     "cap %.17g W height %.17g m",
			r->name ? r->name : "-", r->type->name, r->row, r->pos, r->nnodes, r->storage,
			r->power, r->power_limit, r->cap, r->height_used);
		if (r->network)
			fprintf(out, " network %d", r->group);
		if (r->feeds)
			fprintf(out, " feeds %d rating %.17g W failure %.17g W", r->feeds, r->feed_rating,
				r->feed_failure_load);
		if (r->domain >= 0)
			fprintf(out, " domain %s share %d%s", d->domain_names[r->domain], r->domain_slot,
				r->scale_up_switches ? " switches" : "");
		dump_loc(out, r->type->loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->nnodes && shown(w, "node", i, d->nnodes); i++) {
		const NodeInst *n = &d->nodes[i];
		const RackInst *r = &d->racks[n->rack];
		fprintf(out, "node %d %s type %s rack %s u %d domain %d accels %d ports %d", i,
			n->hostname ? n->hostname : "-", n->type->name, r->name ? r->name : "-", n->u,
			n->domain, n->first_accel, n->first_port);
		if (n->spare)
			fputs(" hot_spare", out);
		dump_loc(out, d->groups[n->group].loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->ndomains && shown(w, "domain", i, d->ndomains); i++)
		fprintf(out, "domain %d %s\n", i, d->domain_names[i]);
	for (int i = 0; i < d->naccels && shown(w, "accel", i, d->naccels); i++) {
		const AccelInst *a = &d->accels[i];
		const char *host = d->nodes[a->node].hostname;
		fprintf(out, "accel %d %s slot %d type %s", i, host ? host : "-", a->slot, a->type->name);
		dump_loc(out, a->type->loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->nports && shown(w, "port", i, d->nports); i++) {
		const PortInst *pt = &d->ports[i];
		const char *host = d->nodes[pt->node].hostname;
		fprintf(out, "port %d %s nic %d port %d type %s speed %.17g bit/s", i, host ? host : "-",
			pt->nic_index, pt->port, pt->nic->name, pt->speed);
		dump_loc(out, pt->nic->loc);
		fputc('\n', out);
	}
	fprintf(out, "racks %d\nnodes %d\naccelerators %d\nports %d\n", d->nracks, d->nnodes,
		d->naccels, d->nports);
}

/* One end of a link as the cabling plan names it (ir.c): "gpu0001:mlx5_2", "leaf-001:Ethernet8". */
static void dump_end(const Design *d, const End *e, FILE *out)
{
	if (e->kind == END_ACCEL) {
		fprintf(out, "%s:gpu%d/p%d", d->nodes[d->accels[e->dev].node].hostname,
			d->accels[e->dev].slot, e->port);
		return;
	}
	Buf port = {0};
	ir_end_port(&port, d, *e);
	fprintf(out, "%s:%s", ir_end_device(d, *e), port.s);
	buf_free(&port);
}

/* Every switch and extra device with its place, then every link port to port. */
static void dump_wiring(const Design *d, const Dump *w)
{
	FILE *out = w->out;
	for (int i = 0; i < d->nswitches && shown(w, "switch", i, d->nswitches); i++) {
		const SwitchInst *s = &d->switches[i];
		fprintf(out, "switch %d %s model %s fabric %s tier %s plane %d radix %d used %d rack %s u %d",
			i, s->name, s->model ? s->model->name : "-",
			s->fabric >= 0 ? d->fabrics[s->fabric].name : "-",
			ir_switch_tier_names[s->tier], s->plane, s->radix, s->used,
			s->rack >= 0 ? d->racks[s->rack].name : "-", s->u);
		if (s->model)
			dump_loc(out, s->model->loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->nextras && shown(w, "extra", i, d->nextras); i++) {
		const ExtraInst *x = &d->extras[i];
		fprintf(out, "extra %d %s type %s fabric %s ports %d rack %s u %d", i, x->name,
			x->type->name, d->fabrics[x->fabric].name, x->nports,
			x->rack >= 0 ? d->racks[x->rack].name : "-", x->u);
		dump_loc(out, x->type->loc);
		fputc('\n', out);
	}
	for (int i = 0; i < d->nlinks && shown(w, "link", i, d->nlinks); i++) {
		const LinkInst *l = &d->links[i];
		fprintf(out, "link %d ", i);
		dump_end(d, &l->a, out);
		fputs(" -- ", out);
		dump_end(d, &l->z, out);
		fprintf(out, " tier %s plane %d rail %d speed %.17g bit/s\n", ir_link_tier_names[l->tier],
			l->plane, l->rail, l->speed);
	}
	fprintf(out, "switches %d\nextras %d\nlinks %d\n", d->nswitches, d->nextras, d->nlinks);
}

/* Each link's medium, stocked length, transceivers, price and power. */
static void dump_cables(const Design *d, const Dump *w)
{
	for (int i = 0; i < d->ncables && shown(w, "cable", i, d->ncables); i++) {
		const CableInst *c = &d->cables[i];
		fprintf(w->out, "cable %d link %d media %s fiber %s model %s optics %s %s run %.17g m "
				"length %.17g m price %.17g power %.17g W\n",
			i, c->link, word(&enum_MEDIA, c->media), word(&enum_FIBER, c->fiber),
			c->cable ? c->cable->name : "-", c->optic_a ? c->optic_a->name : "-",
			c->optic_z ? c->optic_z->name : "-", c->run, c->length, c->price, c->power);
		if (c->trunk >= 0) {
			const CableLeg *g = ir_cable_leg(d, c);
			fprintf(w->out, "  trunk %d leg %d panel %d:%d %d:%d cords %.17g %.17g m\n",
				c->trunk, g->leg, g->panel_a, g->port_a, g->panel_z, g->port_z,
				g->cord_a, g->cord_z);
		}
	}
	fprintf(w->out, "cables %d\n", d->ncables);
	/* Structured cabling (trunk.c), when a fabric asks for it. */
	for (int i = 0; i < d->npanels && shown(w, "panel", i, d->npanels); i++) {
		const PanelInst *p = &d->panels[i];
		fprintf(w->out, "panel %d %s rack %s u %d slot %d used %d of %d\n", i, p->part->name,
			d->racks[p->rack].name, p->u, p->slot, p->used, p->part->panel.ports);
	}
	for (int i = 0; i < d->ntrunks && shown(w, "trunk", i, d->ntrunks); i++) {
		const TrunkInst *t = &d->trunks[i];
		fprintf(w->out, "trunk %d %s fabric %d racks %s %s seq %d panels %d:%d %d:%d legs %d "
				"run %.17g m length %.17g m\n",
			i, t->part->name, t->fabric, d->racks[t->rack_a].name, d->racks[t->rack_z].name,
			t->seq, t->panel_a, t->port_a, t->panel_z, t->port_z, t->legs, t->run, t->length);
	}
	if (d->npanels || d->ntrunks)
		fprintf(w->out, "panels %d\ntrunks %d\n", d->npanels, d->ntrunks);
}

/* Each Ethernet fabric's layer-3 plan: its pools, ASNs and ports in use. */
static void dump_switch_plans(const Design *d, FILE *out)
{
	for (int i = 0; d->switch_plans && i < d->nfabrics; i++) {
		const SwitchPlan *sp = &d->switch_plans[i];
		if (!sp->f)
			continue;
		Buf lo = {0}, pp = {0};
		switch_plan_addr(&lo, sp->loopbacks);
		switch_plan_addr(&pp, sp->p2p);
		fprintf(out, "switch-plan %s switches %d links %d loopbacks %s p2p %s asn %u asns %d "
			     "lanes %d mtu %d lossless %d ports %d\n",
			sp->f->name, sp->nswitches, sp->nlinks, lo.s, pp.s, sp->asn0, sp->nasns, sp->lanes,
			sp->mtu, sp->lossless, sp->port_start ? sp->port_start[sp->nswitches] : 0);
		if (sp->shares > 1) /* each plane its own share of the pools */
			fprintf(out, "  plane shares %d loopbacks %u addresses p2p %u addresses\n", sp->shares,
				sp->lo_share, sp->pp_share);
		buf_free(&lo);
		buf_free(&pp);
	}
}

/* After the sched pass: the scheduler's tree switch by switch (tier, parent, children, nodes
 * below, why Slurm leaves it out), each block and its size (and the block a small one joins),
 * the planning base and levels; the label levels, kept or dropped. */
static void dump_sched(const Design *d, const Dump *w)
{
	FILE *out = w->out;
	const SchedTree *t = d->sched;
	if (!t) {
		fputs("sched none\n", out); /* the design was not wired (its violations say why) */
		return;
	}
	fprintf(out, "sched fabric %s tiers %d label_tiers %d gbps %.17g off_fabric %d\n",
		t->fabric ? t->fabric->name : "-", t->tiers, t->label_tiers, t->gbps, t->off_fabric);
	for (int i = 0; i < t->nsw && shown(w, "sched switch", i, t->nsw); i++) {
		const SchedSwitch *s = &t->sw[i];
		fprintf(out, "sched switch %d %s tier %d parent %s children %d nodes %d%s", i, s->name,
			s->tier, s->parent >= 0 ? t->sw[s->parent].name : "-", s->nchild, s->nnode,
			s->virt ? " virtual" : "");
		if (s->omitted)
			fprintf(out, " omitted \"%s\"", s->omitted);
		fputc('\n', out);
	}
	for (int i = 0; i < t->nblock && shown(w, "sched block", i, t->nblock); i++) {
		const SchedBlock *k = &t->block[i];
		fprintf(out, "sched block %d %s %s nodes %d own %d first %s", i, k->name, k->what,
			k->nnode, k->own, d->nodes[k->first].hostname);
		if (k->into >= 0)
			fprintf(out, " into %s", t->block[k->into].name);
		fputc('\n', out);
	}
	fprintf(out, "sched blocks %d of a %s base %d levels %d joined %d\n", t->nblock,
		t->block_unit ? t->block_unit : "-", t->block_base, t->block_levels, t->blocks_joined);
	for (int i = 0; i < t->nlevel; i++) {
		const SchedLevel *l = &t->level[i];
		if (l->tier >= 0)
			fprintf(out, "sched level tier-%d", l->tier);
		else
			fputs("sched level domain", out);
		if (l->kept)
			fputs(" kept\n", out);
		else
			fprintf(out, " dropped: %d of %d values of level %d span several of its values\n",
				l->split, l->of, l->narrower);
	}
	fprintf(out, "sched switches %d omitted %d\n", t->nsw, t->nomitted);
}

/* Each workload's plan and alternatives with the model's step time and memory. */
static void dump_plans(const Design *d, FILE *out)
{
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanResult *r = &wp->r;
		for (int k = -1; k < r->nalt; k++) {
			const PlanConfig *c = k < 0 ? &r->best : &r->alt[k];
			const PlanCost *o = k < 0 ? &r->cost : &r->alt_cost[k];
			fprintf(out, "%s %s gpus %d tp %d pp %d dp %d cp %d ep %d micro %d v %d rc %s sp %d "
				     "dopt %d",
				k < 0 ? "plan" : "  alt", wp->name, c->gpus, c->tp, c->pp, c->dp,
				c->cp, c->ep, c->micro, c->v, enum_RECOMPUTE.words[c->recompute], c->sp,
				c->dopt);
			if (c->first > 0)
				fprintf(out, " stages %d+%d", c->first, c->last);
			if (c->dualpipe)
				fprintf(out, " dualpipe");
			if (c->zero2)
				fprintf(out, " zero2");
			if (c->fsdp)
				fprintf(out, " fsdp");
			if (c->recompute == RC_FULL && c->rc_layers > 0)
				fprintf(out, " %s %d", plan_rc_method(c), c->rc_layers);
			if (c->recompute == RC_SELECTIVE && c->rc_modules) {
				Buf mods = {0};
				plan_modules_text(&mods, c->rc_modules, " modules ", ",");
				fputs(mods.s, out);
				buf_free(&mods);
			}
			if (c->offload > 0)
				fprintf(out, " offload %d", c->offload);
			if (c->swiglu8)
				fprintf(out, " swiglu8");
			fprintf(out, " step %.17g s mem %.17g B mfu %.17g\n", o->step, o->mem, o->mfu);
		}
	}
	fprintf(out, "plans %d\n", d->nplans);
}

/* The cluster's interruption rate by class of part, and each plan's job under failures. */
/* A loss of blast.c: its counts and the plans it stops, by index. */
static void dump_loss(FILE *out, const Design *d, const char *what, const BlastLoss *l)
{
	fprintf(out, "blast loss %s racks %d gpus %d spares %d domains %d switches %d ports_cut %d plans",
		what, l->racks, l->gpus, l->spare_nodes, l->domains, l->switches, l->ports_cut);
	for (int p = 0; l->plans && p < d->nplans; p++)
		if (l->plans[p])
			fprintf(out, " %d", p);
	fputc('\n', out);
}

static void dump_reliability(const Design *d, FILE *out)
{
	const ClusterReliability *c = &d->reliability;
	if (!c->done)
		return;
	fprintf(out, "reliability rate %.17g /s mtbf %.17g s cabled %d", c->rate, c->mtbf, c->cabled);
	for (int k = 0; k < REL_COUNT; k++)
		fprintf(out, " %s %.17g", reliability_class_names[k], c->by_class[k]);
	fputc('\n', out);
	const SpareSizing *sp = &d->spare_sizing;
	fprintf(out, "spares target %.17g nodes_down %.17g hot %d power %.17g W racks %.17g shelf %d "
		     "cold switch %d cable %d optic %d\n",
		sp->target, sp->nodes_down, sp->hot_nodes, sp->hot_power, sp->hot_racks, sp->shelf_nodes,
		sp->cold[REL_SWITCH], sp->cold[REL_CABLE], sp->cold[REL_OPTIC]);
	fprintf(out, "spares installed %d coverage %.17g\n", sp->installed, sp->coverage);
	const BlastRadius *b = &d->blast;
	if (b->done) {
		fprintf(out, "blast node %d domain %d rack %s gpus %d domains %d switches %d\n",
			b->node_gpus, b->node_domain_gpus, b->rack ? b->rack : "-", b->rack_gpus,
			b->rack_domains, b->rack_switches);
		for (int i = 0; i < b->ntiers; i++)
			fprintf(out, "blast fabric %d %s switches %d ports_cut %d bisection_left %.17g\n",
				b->tiers[i].fabric, ir_switch_tier_names[b->tiers[i].tier],
				b->tiers[i].switches, b->tiers[i].ports_cut, b->tiers[i].bisection_left);
		for (int i = 0; i < b->nfabrics; i++) {
			const BlastFabric *f = &b->fabrics[i];
			fprintf(out, "blast fabric %d top %s", f->fabric,
				f->top_tier >= 0 ? ir_switch_tier_names[f->top_tier] : "-");
			for (int k = 0; k <= BLAST_K; k++)
				fprintf(out, " %.17g", f->after[k]);
			fprintf(out, " plane_left %.17g plane_ports %d\n", f->plane_bisection_left,
				f->plane_ports_cut);
		}
		if (b->row >= 0)
			dump_loss(out, d, "row", &b->row_loss);
		for (int k = 0; k < b->npower; k++) {
			fprintf(out, "blast power %s units %d tolerated %d share %d\n", b->power[k].stage->name,
				b->power[k].units, b->power[k].tolerated, b->power[k].share);
			dump_loss(out, d, b->power[k].stage->name, &b->power[k].loss);
		}
	}
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadReliability *r = &d->plans[i].rel;
		if (!r->done)
			continue;
		fprintf(out, "reliability %s rate %.17g /s ckpt %.17g B write %.17g s restore %.17g s "
			     "restart %.17g s interval %.17g s goodput %.17g effective %.17g s mc %d "
			     "p50 %.17g p90 %.17g\n",
			d->plans[i].name, r->rate, r->ckpt_bytes, r->write_time, r->restore_time,
			r->restart, r->interval, r->goodput, r->effective_time, r->mc.trials, r->mc.p50,
			r->mc.p90);
	}
}

static void dump_finance(const Design *d, FILE *out)
{
	const Finance *f = &d->fin;
	if (!f->done)
		return;
	fprintf(out, "finance npv %.17g annual_opex %.17g annuity %.17g annual_cost %.17g\n", f->npv,
		f->annual_opex, f->annuity_factor, f->annual_cost);
	fprintf(out, " per_gpu_hour %.17g per_pflop_day %.17g book_value %.17g\n", f->per_gpu_hour,
		f->per_pflop_day, f->book_value_at_horizon);
	for (int i = 0; i < f->nworkloads; i++)
		fprintf(out, " workload %s gpus %d gpu_hours %.17g cost %.17g\n", f->workloads[i].name,
			f->workloads[i].gpus, f->workloads[i].gpu_hours, f->workloads[i].cost);
}

/* A build grown with --from: what the keep stage kept and rewired, then the change plan. */
static void dump_expansion(const Design *d, const Dump *w)
{
	const Expansion *e = &d->expansion;
	if (!e->done)
		return;
	fprintf(w->out, "expansion from %s racks_kept %d racks_new %d rewire %s moves %d variables %d\n",
		d->prior->dir, e->racks_kept, e->racks_new, e->rewire_status, e->rewire_moves,
		e->rewire_variables);
	if (!e->changes)
		return;
	fprintf(w->out, " kept cables %d devices %d\n", e->kept_cables, e->kept_devices);
	for (int i = 0; i < e->nchanges && (w->max <= 0 || i < w->max); i++) {
		const Change *c = &e->changes[i];
		fprintf(w->out, " %s %s\n", ir_change_kind_names[c->kind],
			c->device ? c->device
			: c->cable >= 0 ? d->cable_ids[c->cable]
			: c->prior_cable >= 0 ? d->prior->cables[c->prior_cable].id
					       : d->prior->devices[c->prior_device].name);
	}
}

void dump_stage(const Program *p, const Design *d, Stage s, FILE *out, long max)
{
	if (s <= STAGE_CHECK || !d) {
		dump_program(p, out, s >= STAGE_CHECK);
		return;
	}
	Dump w = {out, max};
	dump_frame(d, out);
	if (s >= STAGE_PARTS)
		dump_parts(d, out);
	if (s >= STAGE_DECIDE)
		dump_design(d, &w);
	if (s >= STAGE_ELABORATE && d->elaborated)
		dump_instances(d, &w);
	if (s >= STAGE_WIRE && d->links)
		dump_wiring(d, &w);
	if (s >= STAGE_CABLE && d->cables)
		dump_cables(d, &w);
	if (s >= STAGE_KEEP)
		dump_expansion(d, &w);
	if (s >= STAGE_ADDRESS)
		dump_switch_plans(d, out);
	if (s >= STAGE_SCHED && d->sched)
		dump_sched(d, &w);
	if (s >= STAGE_PLAN)
		dump_plans(d, out);
	if (s >= STAGE_RELIABILITY)
		dump_reliability(d, out);
	if (s >= STAGE_FINANCE)
		dump_finance(d, out);
	dump_violations(d, out);
}
