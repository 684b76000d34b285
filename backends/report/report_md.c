/*
 * report_md.c — report.md, the design explained to people: a summary, where the money and the
 * power go, the bill of materials, the fabrics (switches and links per tier and their
 * metrics) and scale-up domains, what the optimizer chose for each open choice, each
 * workload's parallelism plan (where its step time goes, the runners-up and why they lost), and
 * the racks. GitHub-flavoured Markdown tables; numbers grouped by thousands ("12,750 kW"), money
 * without cents when whole. Deterministic like every artifact: no dates, no solve times (the
 * wall-clock time of a solve differs between identical runs; report.json carries it).
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void kw(Buf *b, double watts)
{
	text_number(b, watts / 1e3, 3, false);
}

static void percent(Buf *b, double part, double whole)
{
	if (whole == 0 || !isfinite(part / whole)) {
		buf_putc(b, '-');
		return;
	}
	text_number(b, 100 * part / whole, 1, true);
	buf_putc(b, '%');
}

/* A row of the summary table: label, then the value the caller appends, then the unit. */
static void row_start(Buf *b, const char *label)
{
	buf_printf(b, "| %s | ", label);
}

static void row_end(Buf *b, const char *unit)
{
	if (unit && *unit)
		buf_printf(b, " %s", unit);
	buf_puts(b, " |\n");
}

static void summary(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	const char *cur = currency_name(d->currency);
	buf_puts(b, "## Summary\n\n| | |\n| --- | ---: |\n");
	struct {
		const char *label;
		double v;
		bool always;
	} counts[] = {
		{"Accelerators", t->accelerators, true}, {"Nodes", t->nodes, true},
		{"Host CPUs", t->cpus, false},
		{"Racks", t->racks, true},               {"Switches", t->switches, false},
		{"Cables", t->cables, false},            {"Storage units", t->storage_units, false},
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if (!counts[i].always && !(counts[i].v > 0))
			continue;
		row_start(b, counts[i].label);
		text_number(b, counts[i].v, 0, false);
		row_end(b, NULL);
	}
	row_start(b, "IT power (peak)");
	kw(b, t->it_power);
	row_end(b, "kW");
	if (t->avg_it_power < t->it_power) {
		row_start(b, "IT power (average, with utilization)");
		kw(b, t->avg_it_power);
		row_end(b, "kW");
	}
	row_start(b, "Facility power (peak)");
	kw(b, t->facility_power);
	row_end(b, "kW");
	row_start(b, "PUE");
	text_number(b, t->pue, 3, false);
	row_end(b, NULL);
	row_start(b, "Capex");
	text_money(b, t->capex);
	row_end(b, cur);
	row_start(b, "Energy per year");
	text_number(b, t->annual_energy / J_PER_KWH, 0, false);
	row_end(b, "kWh");
	row_start(b, "Energy cost per year");
	text_money(b, t->annual_energy_cost);
	row_end(b, cur);
	Buf label = {0};
	buf_puts(&label, "TCO over ");
	text_number(&label, t->horizon_years, 2, false);
	buf_puts(&label, t->horizon_years == 1 ? " year" : " years");
	row_start(b, label.s);
	buf_free(&label);
	text_money(b, t->tco);
	row_end(b, cur);
	if (!isnan(t->annual_carbon)) {
		row_start(b, "Carbon per year");
		text_number(b, t->annual_carbon / 1e3, 1, false);
		row_end(b, "t CO2e");
	}
	buf_putc(b, '\n');
}

/* Categories in the order of report.json. */
static const struct {
	int cat;
	const char *name;
} capex_cats[] = {
	{CAT_NODES, "nodes"},     {CAT_NETWORK, "network"}, {CAT_CABLING, "cabling"},
	{CAT_RACKS, "racks"},     {CAT_COOLING, "cooling"}, {CAT_POWER, "power"},
	{CAT_STORAGE, "storage"}, {CAT_OTHER, "other"}, {CAT_SPARES, "spares"},
};

static void capex_breakdown(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	buf_printf(b, "## Capex by category\n\n| category | %s | share |\n| --- | ---: | ---: |\n",
		   currency_name(d->currency));
	for (size_t i = 0; i < sizeof capex_cats / sizeof capex_cats[0]; i++) {
		double v = t->capex_by_cat[capex_cats[i].cat];
		if (v == 0)
			continue;
		buf_printf(b, "| %s | ", capex_cats[i].name);
		text_money(b, v);
		buf_puts(b, " | ");
		percent(b, v, t->capex);
		buf_puts(b, " |\n");
	}
	buf_puts(b, "| **total** | **");
	text_money(b, t->capex);
	buf_puts(b, "** | |\n\n");
}

static void power_breakdown(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	const struct {
		const char *name;
		double w;
	} rows[] = {
		{"nodes", t->power_by_cat[CAT_NODES]},
		{"network", t->power_by_cat[CAT_NETWORK]},
		{"storage", t->power_by_cat[CAT_STORAGE]},
		{"other", t->power_by_cat[CAT_OTHER]},
		{"cooling and losses (PUE)", t->facility_power - t->it_power},
	};
	buf_puts(b, "## Power by category (peak)\n\n| category | kW | share |\n| --- | ---: | ---: |\n");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (rows[i].w == 0)
			continue;
		buf_printf(b, "| %s | ", rows[i].name);
		kw(b, rows[i].w);
		buf_puts(b, " | ");
		percent(b, rows[i].w, t->facility_power);
		buf_puts(b, " |\n");
	}
	buf_puts(b, "| **facility** | **");
	kw(b, t->facility_power);
	buf_puts(b, "** | |\n\n");
}

static void bom(Buf *b, const Design *d)
{
	const char *cur = currency_name(d->currency);
	buf_puts(b, "## Bill of materials\n\n");
	if (!d->nbom) {
		buf_puts(b, "No items.\n\n");
		return;
	}
	buf_printf(b, "| part | model | description | quantity | unit price (%s) | total (%s) | "
		      "power (kW) |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n",
		   cur, cur);
	double total = 0, power = 0;
	for (int i = 0; i < d->nbom; i++) {
		const BomLine *l = &d->bom[i];
		buf_puts(b, "| ");
		text_md_cell(b, l->part);
		buf_puts(b, " | ");
		text_md_cell(b, l->model);
		buf_puts(b, " | ");
		text_md_cell(b, l->description);
		buf_puts(b, " | ");
		text_number(b, l->quantity, 3, false);
		if (l->unit && *l->unit) {
			buf_putc(b, ' ');
			text_md_cell(b, l->unit);
		}
		buf_puts(b, " | ");
		text_money(b, l->unit_price);
		buf_puts(b, " | ");
		text_money(b, l->total);
		buf_puts(b, " | ");
		kw(b, l->power);
		buf_puts(b, " |\n");
		if (isfinite(l->total))
			total += l->total;
		if (isfinite(l->power))
			power += l->power;
	}
	buf_puts(b, "| **total** | | | | | **");
	text_money(b, total);
	buf_puts(b, "** | **");
	kw(b, power);
	buf_puts(b, "** |\n\n");
}

/* A row of a two-column table whose value is a count. */
static void count_row(Buf *b, const char *label, double v)
{
	row_start(b, label);
	text_number(b, v, 0, false);
	row_end(b, NULL);
}

/* A down:up ratio as people write it: "1:1", "3:1", "1.67:1". */
static void ratio(Buf *b, double x)
{
	text_number(b, x, 2, false);
	buf_puts(b, ":1");
}

static void gbps(Buf *b, double bits)
{
	text_number(b, bits / 1e9, 3, false);
	buf_puts(b, " Gb/s");
}

/* The sentence under a fabric's heading: its shape (in its family's words) and its switch. */
static void fabric_shape(Buf *b, const FabricInst *f)
{
	f->family->describe(f, b);
	if (f->switches > 0 && f->switch_model && f->switch_model->kind == KIND_OCS) {
		buf_printf(b, "; `%s` optical circuit switches of %d fibre ports, %d wired; links of ",
			   f->switch_model->name, f->radix, f->ocs_ports);
		gbps(b, f->link_speed);
	} else if (f->switches > 0 && f->switch_model) {
		buf_printf(b, "; `%s` switches, %d ports of ", f->switch_model->name, f->radix);
		gbps(b, f->link_speed);
		if (f->breakout > 1)
			buf_printf(b, " (each physical port split %d ways)", f->breakout);
	} else {
		buf_puts(b, "; links of ");
		gbps(b, f->link_speed);
	}
	buf_puts(b, ".\n\n");
}

/* A tree in the per-tier form: a row per tier with its switch, the speed of the links down
 * from it, the most ports wired on one switch of the tier (of its radix there), its ports down
 * and up, and its oversubscription and bandwidth up per endpoint port. */
static void tier_table(Buf *b, const FabricInst *f)
{
	static const int st[] = {ST_LEAF, ST_SPINE, ST_CORE};
	buf_puts(b, "| tier | switch | switches | links down | ports used | down | up | "
		    "oversubscription | up per endpoint |\n"
		    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (int t = 0; t < f->tiers && t < 3; t++) {
		bool top = t == f->tiers - 1;
		buf_printf(b, "| %s | `", ir_switch_tier_names[st[t]]);
		text_md_cell(b, f->tier_model[t]->name);
		buf_puts(b, "` | ");
		text_number(b, f->by_tier[st[t]], 0, false);
		buf_puts(b, " | ");
		gbps(b, f->tier_speed[t]);
		buf_printf(b, " | %d of %d | %d | %d | ", f->tier_used[t], f->tier_radix[t],
			   top ? f->tier_used[t] : f->down[t], top ? 0 : f->up[t]);
		if (top) {
			buf_puts(b, "- | - |\n");
			continue;
		}
		ratio(b, f->oversub[t]);
		buf_puts(b, " | ");
		gbps(b, f->up_per_endpoint[t]);
		buf_puts(b, " |\n");
	}
	buf_putc(b, '\n');
}

/* One fabric: its shape, then switches and links per tier and the metrics (PRODUCT §4). */
static void fabric(Buf *b, const FabricInst *f)
{
	bool tree = f->family->tree;
	buf_puts(b, "### Fabric `");
	text_md_cell(b, f->name);
	buf_puts(b, "`\n\n");
	fabric_shape(b, f);
	buf_puts(b, "| | |\n| --- | ---: |\n");
	Buf label = {0};
	int tiers = 0;
	for (int t = 0; t < ST_COUNT; t++) {
		if (f->by_tier[t] == 0)
			continue;
		label.len = 0;
		buf_printf(&label, "%s switches", ir_switch_tier_names[t]);
		count_row(b, label.s, f->by_tier[t]);
		tiers++;
	}
	if (tiers > 1)
		count_row(b, "switches", f->switches);
	tiers = 0;
	for (int t = 0; t < LT_COUNT; t++) {
		if (f->links_by_tier[t] == 0)
			continue;
		label.len = 0;
		buf_printf(&label, "%s links", ir_link_tier_names[t]);
		count_row(b, label.s, f->links_by_tier[t]);
		tiers++;
	}
	buf_free(&label);
	if (tiers > 1)
		count_row(b, "links", f->links);
	count_row(b, "endpoint ports", f->endpoints);
	row_start(b, "bisection");
	text_number(b, f->bisection / 1e12, 3, false);
	row_end(b, "Tb/s");
	row_start(b, "oversubscription");
	if (tree && f->tiers > 1) {
		static const char *const at[] = {"leaf", "spine"};
		for (int t = 0; t < f->tiers - 1 && t < 2; t++) {
			buf_puts(b, t ? ", " : "");
			ratio(b, f->oversub[t]);
			buf_printf(b, " at the %s", at[t]);
		}
	} else {
		ratio(b, 1);
	}
	row_end(b, NULL);
	if (tree && f->per_tier) {
		if (f->tiers == 3) {
			row_start(b, "pods");
			text_number(b, f->pods, 0, false);
			buf_puts(b, " of ");
			text_number(b, f->pod_leaves, 0, false);
			buf_puts(b, " leaves, ");
			text_number(b, (double)f->pod_endpoints * f->planes, 0, false);
			buf_puts(b, " endpoint ports each");
			row_end(b, NULL);
		}
		row_start(b, "leaves");
		if (f->tor)
			buf_printf(b, f->racks_per_leaf == 1 ? "ToRs in the server racks, one per rack"
							     : "ToRs in the server racks, one per %d racks",
				   f->racks_per_leaf);
		else
			buf_puts(b, "in network racks");
		row_end(b, NULL);
	}
	row_start(b, "diameter");
	buf_printf(b, "%d %s hop%s", f->diameter, f->switches > 0 ? "switch" : "link",
		   f->diameter == 1 ? "" : "s");
	row_end(b, NULL);
	count_row(b, "ECMP paths", f->ecmp);
	count_row(b, "rails", f->rails);
	count_row(b, "planes", f->planes);
	if (f->plane_form) {
		row_start(b, "plane assignment");
		if (f->by_port && f->planes > 1) {
			buf_puts(b, "by port: port j of every NIC on plane j");
			if (f->tor && f->racks_per_leaf > 1)
				buf_printf(b, ", %d ToRs per %d racks", f->tors_per_rack, f->racks_per_leaf);
			else if (f->tor)
				buf_printf(b, ", %d ToRs a rack", f->tors_per_rack);
		} else {
			buf_puts(b, f->by_port ? "by port" : "by NIC");
		}
		row_end(b, NULL);
		count_row(b, "backup ports per ToR", f->backup_ports);
	}
	row_start(b, "scalable units");
	if (tree && f->rail_optimized)
		buf_printf(b, "%d of %d nodes", f->sus, f->su_nodes);
	else
		buf_putc(b, '-');
	row_end(b, NULL);
	buf_putc(b, '\n');
	if (tree && f->per_tier)
		tier_table(b, f);
}

static void scale_up(Buf *b, const Design *d)
{
	buf_puts(b, "### Scale-up domains\n\n| node | domains | accelerators per domain | "
		    "racks per domain | switch trays | switch chips | links | between racks |\n"
		    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (int i = 0; i < d->nscaleups; i++) {
		const ScaleUpInst *s = &d->scaleups[i];
		buf_puts(b, "| ");
		text_md_cell(b, s->node ? s->node->name : "-");
		buf_puts(b, " | ");
		text_number(b, s->domains, 0, false);
		buf_puts(b, " | ");
		text_number(b, s->domain_accels, 0, false);
		buf_puts(b, " | ");
		text_number(b, s->node_racks + s->switch_racks, 0, false);
		buf_puts(b, " | ");
		text_number(b, s->nswitches, 0, false);
		buf_puts(b, " | ");
		text_number(b, (double)s->domains * s->chips_per_domain, 0, false);
		buf_puts(b, " | ");
		text_number(b, s->nlinks, 0, false);
		buf_puts(b, " | ");
		text_number(b, s->cables, 0, false);
		buf_puts(b, " |\n");
	}
	buf_puts(b, "\nA domain of one node is wired by its own NVSwitch chips; larger domains connect "
		    "through switch trays whose links run in the racks' backplanes. A domain over "
		    "several racks also has links between its racks: those are cables, in "
		    "cabling.csv.\n\n");
}

/* Every sized fabric, then the scale-up domains. The drawing is not embedded: it is in
 * topology.dot and, when small enough to lay out, topology.svg. */
static void fabrics(Buf *b, const Design *d)
{
	buf_puts(b, "## Fabrics\n\n");
	int n = 0;
	for (int i = 0; i < d->nfabrics; i++)
		if (d->fabrics[i].sized && d->fabrics[i].family) {
			fabric(b, &d->fabrics[i]);
			n++;
		}
	if (n == 0)
		buf_puts(b, "No fabric.\n\n");
	else
		buf_puts(b, "The fabric graph is drawn in topology.dot (and topology.svg when "
			    "it is small enough to lay out).\n\n");
	if (d->nscaleups)
		scale_up(b, d);
}

static void decisions(Buf *b, const Design *d, const OptimizerReport *opt)
{
	buf_puts(b, "## Decisions\n\n");
	if (opt) {
		buf_printf(b, "Solver %s: %s", opt->solver ? opt->solver : "none",
			   opt->status ? opt->status : "unknown");
		if (isfinite(opt->objective)) {
			buf_puts(b, ", objective ");
			text_quantity(b, opt->objective, opt->objective_unit);
		}
		if (isfinite(opt->bound)) {
			buf_puts(b, ", bound ");
			text_quantity(b, opt->bound, opt->objective_unit);
		}
		if (isfinite(opt->gap)) {
			buf_puts(b, ", gap ");
			text_number(b, 100 * opt->gap, 2, false);
			buf_putc(b, '%');
		}
		buf_printf(b, "; %d variable%s, %d constraint%s.", opt->variables,
			   opt->variables == 1 ? "" : "s", opt->constraints,
			   opt->constraints == 1 ? "" : "s");
		if (isfinite(opt->objective) && isfinite(opt->design_objective)) {
			/* The choices are made before the cables exist (docs/optimization.md). */
			buf_puts(b, " The objective leaves out the cables, which are chosen after "
				    "placement");
			/* A reliability attribute's candidates go without the plant. */
			if (opt->plant_left_out)
				buf_puts(b, ", and the failures of the power and cooling plant, "
					    "which depend on the whole design; the design as "
					    "built, both included, comes to ");
			else
				buf_puts(b, "; the design as built, cables included, comes to ");
			text_quantity(b, opt->design_objective, opt->objective_unit);
			buf_putc(b, '.');
		}
		if (isfinite(opt->cable_money)) {
			buf_puts(b, " The first decision, made without the cables, broke a requirement "
				    "once they were laid; the choices were decided again with every link "
				    "counted at ");
			text_number(b, opt->cable_money, 2, false);
			buf_printf(b, " %s and ", currency_name(d->currency));
			text_number(b, opt->cable_watts, 2, false);
			buf_puts(b, " W of cabling, the first design's own.");
		}
		/* Designs the cable stage rejected, each excluded before deciding again. */
		if (opt->rejected > 0) {
			buf_printf(b, " %d design%s rejected at cabling:", opt->rejected,
				   opt->rejected == 1 ? "" : "s");
			for (int i = 0; i < opt->rejected; i++) {
				buf_puts(b, i ? "; " : " ");
				buf_puts(b, opt->rejected_text[i]);
			}
			buf_puts(b, ".");
		}
		buf_puts(b, "\n\n");
	}
	if (!d->decisions.n) {
		buf_puts(b, "The spec leaves no choice open.\n\n");
		return;
	}
	buf_puts(b, "| choice | chosen | options considered | next best (objective) | saved |\n"
		    "| --- | --- | ---: | --- | ---: |\n");
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		Buf v = {0};
		buf_puts(b, "| ");
		text_md_cell(b, x->name ? x->name : "?");
		buf_putc(b, '.');
		text_md_cell(b, x->field_name ? x->field_name : "?");
		if (x->in_count)
			buf_puts(b, " (count)");
		buf_puts(b, " | ");
		buf_puts(&v, x->chosen_text ? x->chosen_text : "-");
		text_md_cell(b, v.s);
		buf_free(&v);
		buf_printf(b, " | %d | ", x->ncandidates);
		if (x->next_best_text)
			text_md_cell(b, x->next_best_text);
		if (isfinite(x->next_best)) {
			buf_puts(b, x->next_best_text ? " (" : "(");
			text_quantity(b, x->next_best, opt ? opt->objective_unit : NULL);
			buf_putc(b, ')');
		} else if (!x->next_best_text) {
			buf_putc(b, '-');
		}
		buf_puts(b, " | ");
		if (opt && isfinite(x->next_best) && isfinite(opt->objective))
			text_quantity(b, opt->maximize ? opt->objective - x->next_best
						       : x->next_best - opt->objective,
				      opt->objective_unit);
		else
			buf_putc(b, '-');
		buf_puts(b, " |\n");
	}
	buf_putc(b, '\n');
}

static void ms_cell(Buf *b, double s, double step)
{
	buf_putc(b, ' ');
	text_number(b, s * 1e3, 1, false);
	buf_puts(b, " ms (");
	percent(b, s, step);
	buf_puts(b, ") |");
}

/* Each workload's plan (plan.c): the shape, the prediction, where a step's time goes, and the
 * runners-up. parallelism/WORKLOAD.json has every number. */
static void workloads(Buf *b, const Design *d)
{
	if (d->nplans == 0)
		return;
	buf_puts(b, "## Workloads\n\n");
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanConfig *c = &wp->r.best;
		const PlanCost *k = &wp->r.cost;
		buf_puts(b, "### ");
		text_md_cell(b, wp->name);
		buf_puts(b, "\n\n");
		buf_printf(b, "The fastest plan that fits in HBM, of ");
		text_number(b, wp->r.evaluated, 0, false);
		buf_puts(b, " evaluated: ");
		text_number(b, c->gpus, 0, false);
		buf_puts(b, " GPUs on ");
		text_number(b, wp->nodes, 0, false);
		buf_puts(b, " nodes, ");
		plan_shape(b, c);
		buf_puts(b, ".\n\n| prediction | value |\n| --- | ---: |\n");
		buf_puts(b, "| step time | ");
		text_number(b, k->step, 3, true);
		buf_puts(b, " s |\n| tokens per second | ");
		text_number(b, k->tokens_per_s, 0, false);
		buf_puts(b, " |\n| MFU | ");
		percent(b, k->mfu, 1);
		buf_puts(b, " |\n| TFLOP/s per GPU | ");
		text_number(b, k->tflops_per_gpu, 1, true);
		buf_puts(b, " |\n| memory per GPU | ");
		text_number(b, k->mem / 1073741824.0, 1, true);
		buf_puts(b, " GiB of ");
		text_number(b, wp->hw.hbm / 1073741824.0, 1, true);
		buf_puts(b, " GiB |\n| steps | ");
		text_number(b, wp->steps, 0, false);
		buf_puts(b, " |\n| time to train | ");
		text_number(b, wp->time_to_train / 86400, 2, true);
		buf_puts(b, " days |\n| energy to train | ");
		text_number(b, wp->energy / 3.6e9, 1, true);
		buf_puts(b, " MWh |\n| energy cost to train | ");
		text_money(b, round(wp->energy_cost));
		buf_printf(b, " %s |\n\n", currency_name(d->currency));
		buf_puts(b, "Where a step's time goes (the slowest pipeline stage; exposed "
			    "communication only):\n\n| compute | recompute | TP | CP | EP | PP | "
			    "bubble | DP | optimizer |\n| ---: | ---: | ---: | ---: | ---: | ---: | "
			    "---: | ---: | ---: |\n");
		const double parts[] = {k->compute, k->recompute, k->tp_comm, k->cp_comm, k->ep_comm,
					k->pp_comm, k->bubble, k->dp_comm, k->optimizer};
		buf_putc(b, '|');
		for (size_t j = 0; j < sizeof parts / sizeof parts[0]; j++)
			ms_cell(b, parts[j], k->step);
		buf_puts(b, "\n\n");
		if (k->mem_host > 0) {
			buf_printf(b, "The activations of %d layers go to host memory (", c->offload);
			text_number(b, k->mem_host / 1073741824.0, 1, true);
			buf_puts(b, " GiB a GPU); their copies add ");
			text_number(b, k->offload_comm * 1e3, 1, true);
			buf_puts(b, " ms a step not hidden under compute.\n\n");
		}
		if (k->amax_comm > 0) {
			buf_puts(b, "FP8 delayed scaling's amax all-reduces add ");
			text_number(b, k->amax_comm * 1e3, 1, true);
			buf_puts(b, " ms a step.\n\n");
		}
		if (k->moe_sync > 0) {
			buf_puts(b, "Dropless MoE's device-to-host synchronization exposes ");
			text_number(b, k->moe_sync * 1e3, 1, true);
			buf_puts(b, " ms a step of host launches.\n\n");
		}
		if (wp->r.nalt == 0)
			continue;
		buf_puts(b, "| runner-up | step time | why it lost |\n| --- | ---: | --- |\n");
		for (int j = 0; j < wp->r.nalt; j++) {
			buf_puts(b, "| ");
			plan_shape(b, &wp->r.alt[j]);
			buf_puts(b, " | ");
			text_number(b, wp->r.alt_cost[j].step, 3, true);
			buf_puts(b, " s | ");
			text_md_cell(b, wp->why[j] ? wp->why[j] : "");
			buf_puts(b, " |\n");
		}
		buf_putc(b, '\n');
	}
}

/* "6" or "6–8". */
static void span(Buf *b, double lo, double hi, int decimals)
{
	text_number(b, lo, decimals, false);
	if (hi != lo) {
		buf_puts(b, "–");
		text_number(b, hi, decimals, false);
	}
}

/* Racks of the same type, cooling and power class, in order of first appearance. */
static void rack_types(Buf *b, const Design *d)
{
	buf_puts(b, "| rack type | cooling | racks | nodes per rack | power per rack (kW) | "
		    "limit (kW) |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
	bool *done = xmalloc((size_t)d->nracks);
	memset(done, 0, (size_t)d->nracks);
	for (int i = 0; i < d->nracks; i++) {
		if (done[i])
			continue;
		const RackInst *r = &d->racks[i];
		int count = 0, nlo = r->nnodes, nhi = r->nnodes;
		double plo = r->power, phi = r->power;
		for (int j = i; j < d->nracks; j++) {
			const RackInst *s = &d->racks[j];
			if (done[j] || s->type != r->type || s->cooling != r->cooling ||
			    s->cap != r->cap)
				continue;
			done[j] = true;
			count++;
			nlo = s->nnodes < nlo ? s->nnodes : nlo;
			nhi = s->nnodes > nhi ? s->nnodes : nhi;
			plo = s->power < plo ? s->power : plo;
			phi = s->power > phi ? s->power : phi;
		}
		buf_puts(b, "| ");
		text_md_cell(b, r->type ? r->type->name : "-");
		buf_puts(b, " | ");
		text_md_cell(b, r->cooling ? r->cooling->name : "-");
		buf_printf(b, " | %d | ", count);
		span(b, nlo, nhi, 0);
		buf_puts(b, " | ");
		span(b, plo / 1e3, phi / 1e3, 3);
		buf_puts(b, " | ");
		kw(b, r->cap);
		buf_puts(b, " |\n");
	}
	free(done);
}

/* Without rack instances (the aggregate model only), the node groups as planned. */
static void node_groups(Buf *b, const Design *d)
{
	buf_puts(b, "| node type | nodes | nodes per rack | racks | power per rack (kW) |\n"
		    "| --- | ---: | ---: | ---: | ---: |\n");
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		buf_puts(b, "| ");
		text_md_cell(b, g->type ? g->type->name : "-");
		buf_printf(b, " | %d | %d | %d | ", g->count, g->per_rack, g->racks);
		kw(b, g->per_rack * g->type->power);
		buf_puts(b, " |\n");
	}
}

/* The floor, the optics and cables in the racks, and the runs against the median rule. */
static void placement(Buf *b, const Design *d)
{
	const PlaceReport *p = &d->place;
	double optics = 0;
	for (int i = 0; i < d->nracks; i++)
		optics += d->racks[i].optics_power;
	buf_puts(b, "\nA rack's power (and heat) counts every device in it and the transceivers and "
		    "active cable ends in their ports: ");
	kw(b, optics);
	buf_printf(b, " kW of optics in all; the rack drawing most draws ");
	kw(b, p->peak_rack_power);
	buf_printf(b, " kW. The rack with most cables ends %d", p->peak_rack_cables);
	if (d->net_rack_cables)
		buf_printf(b, "; a switch rack holds at most %d, which took %d more switch rack%s",
			   d->net_rack_cables, d->racks_for_cables, d->racks_for_cables == 1 ? "" : "s");
	buf_printf(b, ".\n\nFloor: %d rows of %d racks, ", p->rows, p->per_row);
	text_number(b, p->width, 1, false);
	buf_puts(b, " m × ");
	text_number(b, p->depth, 1, false);
	buf_puts(b, " m.");
	if (!p->measured) {
		buf_putc(b, '\n');
		return;
	}
	buf_puts(b, " Cable runs: ");
	text_number(b, p->run / 1e3, 1, true);
	buf_puts(b, " km in all, ");
	double saving = p->median_run > 0 ? 1 - p->run / p->median_run : 0;
	text_number(b, fabs(saving) * 100, 1, false);
	buf_printf(b, " %% %s than the median rule (", saving >= 0 ? "shorter" : "longer");
	text_number(b, p->median_run / 1e3, 1, true);
	buf_puts(b, " km); longest ");
	text_number(b, p->longest, 1, false);
	buf_puts(b, " m.\n\n| link tier | run (km) | median rule (km) |\n| --- | ---: | ---: |\n");
	for (int t = 0; t < LT_COUNT; t++) {
		if (p->run_by_tier[t] <= 0)
			continue;
		buf_printf(b, "| %s | ", ir_link_tier_names[t]);
		text_number(b, p->run_by_tier[t] / 1e3, 3, true);
		buf_puts(b, " | ");
		text_number(b, p->median_by_tier[t] / 1e3, 3, true);
		buf_puts(b, " |\n");
	}
}

static void racks(Buf *b, const Design *d)
{
	buf_puts(b, "## Racks\n\n");
	if (d->nracks) {
		rack_types(b, d);
		placement(b, d);
	}
	else if (d->ngroups)
		node_groups(b, d);
	else
		buf_puts(b, "No racks.\n");
}

int report_md_write(Output *o, const Design *d)
{
	const OptimizerReport *opt = d->report.solver ? &d->report : NULL; /* NULL: none ran */
	FILE *f = output_file(o, "report.md");
	if (!f)
		return 1;
	Buf b = {0};
	buf_puts(&b, "# clusterc report: ");
	text_md_cell(&b, text_spec_path(d));
	buf_puts(&b, " (scenario ");
	text_md_cell(&b, text_scenario(d));
	buf_puts(&b, ")\n\n");
	if (d->cluster_name) {
		buf_printf(&b, "Cluster `%s`", d->cluster_name);
		if (d->site_name)
			buf_printf(&b, " at site `%s`", d->site_name);
		buf_printf(&b, "; amounts in %s.\n\n", currency_name(d->currency));
	}
	summary(&b, d);
	capex_breakdown(&b, d);
	power_breakdown(&b, d);
	bom(&b, d);
	fabrics(&b, d);
	decisions(&b, d, opt);
	workloads(&b, d);
	report_reliability_md(&b, d);
	report_finance_md(&b, d);
	report_facility_md(&b, d);
	racks(&b, d);
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	return output_close(o, f);
}
