/*
 * report_reliability.c — the design under failures as report.md and report.html give it
 * (docs/reliability.md): the cluster's interruption rate by class of part, each workload's
 * job, checkpoint, interval, goodput and the Monte Carlo's spread, the spares, and the blast
 * radius of each failure domain with the plans it stops; report.html adds a goodput chart.
 * Both formats' tables go through one writer (tab_open, tab_row, tab_close). Everything
 * printed is a field of the IR (reliability.c, blast.c).
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>

/* The values of one workload's row, in the order of `heads`. */
enum { COLS = 12 };
static const char *const heads[COLS] = {
	"GPUs", "job MTBF (h)", "interruptions per day", "checkpoint (GB)", "write (s)",
	"restore (s)", "interval (min)", "goodput", "time to train (days)", "effective (days)",
	"p50 (days)", "p90 (days)"};
static const int decimals[COLS] = {0, 2, 2, 1, 1, 1, 1, 4, 2, 2, 2, 2};
static const bool keep[COLS] = {false, true, true, true, true, true, true, true, true, true, true, true};

static void row_values(const WorkloadPlan *wp, double *v)
{
	const WorkloadReliability *r = &wp->rel;
	bool mc = r->mc.trials > 0;
	double vals[COLS] = {wp->r.best.gpus,	r->mtbf / 3600,		   r->per_day,
			     r->ckpt_bytes / 1e9,	r->write_time,		   r->restore_time,
			     r->interval / 60,		r->goodput,		   wp->time_to_train / 86400,
			     r->effective_time / 86400, mc ? r->mc.p50 / 86400 : NAN, mc ? r->mc.p90 / 86400 : NAN};
	for (int k = 0; k < COLS; k++)
		v[k] = vals[k];
}

static void md_cluster(Buf *b, const ClusterReliability *c)
{
	buf_puts(b, "A job on every accelerator is interrupted every ");
	text_number(b, c->mtbf / 3600, 2, true);
	buf_puts(b, " h (");
	text_number(b, c->rate * 86400, 2, true);
	buf_puts(b, " times a day), from the parts' annualised failure rates in series");
	buf_puts(b, c->cabled ? "" : " (the links not yet counted)");
	buf_puts(b, ":\n\n| part | interruptions per day | share |\n| --- | ---: | ---: |\n");
	for (int k = 0; k < REL_COUNT; k++) {
		if (c->by_class[k] <= 0)
			continue;
		buf_printf(b, "| %s | ", reliability_class_names[k]);
		text_number(b, c->by_class[k] * 86400, 3, true);
		buf_puts(b, " | ");
		text_number(b, 100 * c->by_class[k] / c->rate, 1, true);
		buf_puts(b, " % |\n");
	}
	buf_putc(b, '\n');
}

/* ---- tables: one writer for report.md and report.html ------------------------------------ */

typedef enum { TAB_MD, TAB_HTML } TabFormat;

/* A table: a first text column, numeric columns, an optional last text column. */
typedef struct Tab {
	TabFormat fmt;
	const char *first;          /* the first column's head */
	const char *const *heads;   /* the numeric columns' */
	const int *decimals;        /* per numeric column */
	const bool *keep;           /* keep_decimals per numeric column, or NULL */
	int n;
	const char *last;           /* the last text column's head, or NULL */
} Tab;

static void cell_text(Buf *b, TabFormat fmt, const char *s)
{
	if (fmt == TAB_MD)
		text_md_cell(b, s);
	else
		chart_escape(b, s);
}

static void tab_open(Buf *b, const Tab *t)
{
	if (t->fmt == TAB_MD) {
		buf_printf(b, "| %s |", t->first);
		for (int k = 0; k < t->n; k++)
			buf_printf(b, " %s |", t->heads[k]);
		if (t->last)
			buf_printf(b, " %s |", t->last);
		buf_puts(b, "\n| --- |");
		for (int k = 0; k < t->n; k++)
			buf_puts(b, " ---: |");
		buf_puts(b, t->last ? " --- |\n" : "\n");
		return;
	}
	buf_printf(b, "<table>\n<tr><th>%s</th>", t->first);
	for (int k = 0; k < t->n; k++)
		buf_printf(b, "<th class=\"n\">%s</th>", t->heads[k]);
	if (t->last)
		buf_printf(b, "<th>%s</th>", t->last);
	buf_puts(b, "</tr>\n");
}

static void tab_row(Buf *b, const Tab *t, const char *first, const double *v, const char *last)
{
	bool md = t->fmt == TAB_MD;
	buf_puts(b, md ? "| " : "<tr><td>");
	cell_text(b, t->fmt, first);
	for (int k = 0; k < t->n; k++) {
		buf_puts(b, md ? " | " : "</td><td class=\"n\">");
		text_number(b, v[k], t->decimals[k], t->keep && t->keep[k]);
	}
	if (t->last) {
		buf_puts(b, md ? " | " : "</td><td>");
		cell_text(b, t->fmt, last);
	}
	buf_puts(b, md ? " |\n" : "</td></tr>\n");
}

static void tab_close(Buf *b, const Tab *t)
{
	buf_puts(b, t->fmt == TAB_MD ? "\n" : "</table>\n");
}

/* ---- blast radius --------------------------------------------------------------------------- */

/* The blast-radius table's rows: a failure domain, what it takes, the bisection left, the
 * plans that must restart. */
typedef struct BlastRow {
	char what[160];
	double v[5];              /* accelerators, ports, domains, bisection (Tb/s), events a
				   * year; NAN: n/a */
	const BlastLoss *loss;    /* its plans, or NULL */
} BlastRow;

/* A year of 365 days, as passes/design/parts.c reads an afr. */

static BlastRow row_of(const char *what, double gpus, double ports, double domains,
		       double bisection, double rate, const BlastLoss *loss)
{
	BlastRow r = {.v = {gpus, ports, domains, bisection / 1e12, rate * SECONDS_PER_YEAR},
		      .loss = loss};
	snprintf(r.what, sizeof r.what, "%s", what);
	return r;
}

/* A loss's plans as a cell: their names, comma separated, "none" when it stops none. */
static void plans_cell(Buf *out, const Design *d, const BlastLoss *l)
{
	int n = 0;
	for (int p = 0; l && l->plans && p < d->nplans; p++)
		if (l->plans[p])
			buf_printf(out, "%s%s", n++ ? ", " : "", d->plans[p].name);
	if (n == 0)
		buf_puts(out, l ? "none" : "-");
}

static int blast_power_rows(const Design *d, BlastRow *rows, int n, int max)
{
	const BlastRadius *b = &d->blast;
	for (int k = 0; k < b->npower && n < max; k++) {
		const BlastPower *p = &b->power[k];
		const Part *st = p->stage;
		char what[160];
		char racks[48];
		snprintf(racks, sizeof racks, ": %d rack%s", p->loss.racks, p->loss.racks == 1 ? "" : "s");
		snprintf(what, sizeof what, "a unit of %s (%s, %s%s)", st->name,
			 ir_power_stage_names[st->stage.stage], ir_redundancy_names[st->stage.redundancy],
			 p->tolerated ? ": carried by the others" : racks);
		rows[n++] = row_of(what, p->loss.gpus, p->loss.ports_cut, p->loss.domains, NAN,
				   p->rate + p->ccf_rate, &p->loss);
	}
	return n;
}

static int blast_cooling_rows(const Design *d, BlastRow *rows, int n, int max)
{
	const BlastRadius *b = &d->blast;
	for (int k = 0; k < b->ncooling && n < max; k++) {
		const BlastCooling *c = &b->cooling[k];
		const CoolingGroup *g = &d->cool_groups[c->group];
		char what[160], racks[48];
		snprintf(racks, sizeof racks, ": %d rack%s", c->loss.racks, c->loss.racks == 1 ? "" : "s");
		snprintf(what, sizeof what, "a unit of %s (%s of %s in %s, %s%s)", c->unit->name,
			 enum_COOLING_UNIT.words[c->unit->cunit.unit], g->cooling->name,
			 d->zones[g->zone].name, ir_redundancy_names[c->unit->cunit.redundancy],
			 c->tolerated ? ": carried by the others" : racks);
		rows[n++] = row_of(what, c->loss.gpus, c->loss.ports_cut, c->loss.domains, NAN,
				   c->rate + c->ccf_rate, &c->loss);
	}
	if (b->zone >= 0 && n < max) {
		char what[160];
		snprintf(what, sizeof what, "the fullest zone (%s, %d racks, %d switches)",
			 d->zones[b->zone].name, b->zone_loss.racks, b->zone_loss.switches);
		rows[n++] = row_of(what, b->zone_loss.gpus, b->zone_loss.ports_cut, b->zone_loss.domains,
				   NAN, NAN, &b->zone_loss);
	}
	return n;
}

static int blast_rows(const Design *d, BlastRow *rows, int max)
{
	const BlastRadius *b = &d->blast;
	int n = 0;
	if (!b->done || max < 3)
		return 0;
	rows[n++] = row_of("a node", b->node_gpus, NAN, 1, NAN, b->node_rate, &b->node_loss);
	if (b->rack) {
		char what[160];
		snprintf(what, sizeof what, "the fullest rack (%s, %d switches)", b->rack, b->rack_switches);
		rows[n++] = row_of(what, b->rack_gpus, NAN, b->rack_domains, NAN, NAN, &b->rack_loss);
	}
	if (b->row >= 0) {
		char name[16], what[160];
		ir_row_name(b->row, name, sizeof name);
		snprintf(what, sizeof what, "the fullest row (%s, %d racks, %d switches)", name,
			 b->row_loss.racks, b->row_loss.switches);
		rows[n++] = row_of(what, b->row_loss.gpus, b->row_loss.ports_cut, b->row_loss.domains,
				   NAN, NAN, &b->row_loss);
	}
	for (int i = 0; i < b->nfabrics && n < max; i++) {
		const BlastFabric *f = &b->fabrics[i];
		const char *fname = d->fabrics[f->fabric].name;
		char what[160];
		for (int k = 0; k < b->ntiers && n < max; k++) {
			const BlastSwitchTier *t = &b->tiers[k];
			if (t->fabric != f->fabric)
				continue;
			snprintf(what, sizeof what, "a %s switch of %s%s", ir_switch_tier_names[t->tier], fname,
				 t->tier == f->worst_tier ? " (its worst single failure)" : "");
			rows[n++] = row_of(what, NAN, t->ports_cut, NAN, t->bisection_left, t->rate, &t->loss);
		}
		if (f->planes > 1 && n < max) {
			snprintf(what, sizeof what, "a plane of %s (of %d)", fname, f->planes);
			rows[n++] = row_of(what, NAN, f->plane_ports_cut, NAN, f->plane_bisection_left, NAN,
					   &f->plane_loss);
		}
		/* The degraded bisection after 1 .. BLAST_K of the top tier's switches fail, the
		 * worst first (report.json's bisection_tbps_after_top_failures). */
		for (int k = 1; f->top_tier >= 0 && k <= BLAST_K && n < max; k++) {
			snprintf(what, sizeof what, "%d %s switch%s of %s down (the worst first)", k,
				 ir_switch_tier_names[f->top_tier], k == 1 ? "" : "es", fname);
			rows[n++] = row_of(what, NAN, 0, NAN, f->after[k], NAN, NULL);
		}
	}
	n = blast_power_rows(d, rows, n, max);
	return blast_cooling_rows(d, rows, n, max);
}

static const char *const blast_heads[5] = {"accelerators lost", "endpoint ports cut off",
					   "scale-up domains broken", "bisection left (Tb/s)",
					   "events a year"};
static const int blast_decimals[5] = {0, 0, 0, 1, 6};

static void blast_table(Buf *b, const Design *d, TabFormat fmt)
{
	BlastRow rows[128];
	int n = blast_rows(d, rows, 128);
	if (n == 0)
		return;
	Tab t = {fmt, "failure", blast_heads, blast_decimals, NULL, 5, "plans that must restart"};
	tab_open(b, &t);
	Buf plans = {0};
	for (int i = 0; i < n; i++) {
		plans.len = 0;
		plans_cell(&plans, d, rows[i].loss);
		tab_row(b, &t, rows[i].what, rows[i].v, plans.s);
	}
	buf_free(&plans);
	tab_close(b, &t);
}

static void blast_md(Buf *b, const Design *d)
{
	if (!d->blast.done)
		return;
	buf_puts(b, "### Blast radius\n\nWhat one failure takes down, the worst of each failure "
		    "domain, and the plans it stops (a power or cooling unit: what its redundancy "
		    "leaves), and how often it happens: events a year of any node, any switch of the "
		    "tier, a unit of a stage or plant under n, two of its units down at once within "
		    "the repair time under redundancy (docs/reliability.md):\n\n");
	blast_table(b, d, TAB_MD);
}

static void spares_md(Buf *b, const Design *d)
{
	const SpareSizing *sp = &d->spare_sizing;
	buf_puts(b, "Spares for a ");
	text_number(b, 100 * sp->target, 2, false);
	buf_puts(b, " % target: ");
	text_number(b, sp->hot_nodes, 0, false);
	buf_puts(b, " hot spare nodes (");
	text_number(b, sp->nodes_down, 2, true);
	buf_puts(b, " out at once on average over a ");
	text_number(b, sp->node_repair / 86400, 1, false);
	buf_puts(b, "-day repair; ");
	text_number(b, sp->hot_power / 1e3, 1, false);
	buf_puts(b, " kW, ");
	text_number(b, sp->hot_racks, 1, false);
	buf_puts(b, " racks; the design installs ");
	text_number(b, sp->installed, 0, false);
	buf_puts(b, ", which cover the nodes out with probability ");
	text_number(b, 100 * sp->coverage, 2, false);
	buf_puts(b, " %; the cluster buys ");
	text_number(b, sp->shelf_nodes, 0, false);
	buf_puts(b, " spare nodes for the shelf), and for a ");
	text_number(b, sp->restock / 86400, 0, false);
	buf_puts(b, "-day restock ");
	text_number(b, sp->cold[REL_SWITCH], 0, false);
	buf_puts(b, " switches, ");
	text_number(b, sp->cold[REL_CABLE], 0, false);
	buf_puts(b, " cables and ");
	text_number(b, sp->cold[REL_OPTIC], 0, false);
	buf_puts(b, " optics on the shelf");
	if (sp->cold[REL_POWER] > 0 || sp->cold[REL_COOLING] > 0) {
		buf_puts(b, ", with ");
		text_number(b, sp->cold[REL_POWER], 0, false);
		buf_puts(b, " units of the power chain and ");
		text_number(b, sp->cold[REL_COOLING], 0, false);
		buf_puts(b, " of the cooling plant (UPS modules, PDUs, CDUs, pumps ...)");
	}
	buf_puts(b, ".\n\n");
}

/* Each workload's job under failures, a row each; returns the rows. */
static int workload_table(Buf *b, const Design *d, TabFormat fmt)
{
	Tab t = {fmt, "workload", heads, decimals, keep, COLS, NULL};
	tab_open(b, &t);
	int n = 0;
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		if (!wp->rel.done)
			continue;
		double v[COLS];
		row_values(wp, v);
		tab_row(b, &t, wp->name, v, NULL);
		n++;
	}
	tab_close(b, &t);
	return n;
}

void report_reliability_md(Buf *b, const Design *d)
{
	const ClusterReliability *c = &d->reliability;
	if (!c->done)
		return;
	buf_puts(b, "## Reliability\n\n");
	md_cluster(b, c);
	spares_md(b, d);
	blast_md(b, d);
	if (d->nplans == 0)
		return;
	buf_puts(b, "Each workload's job under failures: its checkpoint (14 bytes a parameter), "
		    "the interval between checkpoints (Daly 2006, unless the workload sets it), the "
		    "goodput and the effective time to train (Daly's expected wall time, restarts "
		    "included), and the spread of a seeded Monte Carlo of the run "
		    "(docs/reliability.md).\n\n");
	workload_table(b, d, TAB_MD);
}

void report_reliability_html(Buf *b, const Design *d)
{
	const ClusterReliability *c = &d->reliability;
	if (!c->done)
		return;
	buf_puts(b, "<section id=\"reliability\">\n<h2>Reliability</h2>\n<p>A job on every "
		    "accelerator is interrupted every ");
	text_number(b, c->mtbf / 3600, 2, true);
	buf_puts(b, " h (");
	text_number(b, c->rate * 86400, 2, true);
	buf_puts(b, " times a day).</p>\n");
	if (d->blast.done) {
		buf_puts(b, "<h3>Blast radius</h3>\n");
		blast_table(b, d, TAB_HTML);
	}
	if (d->nplans == 0) {
		buf_puts(b, "</section>\n");
		return;
	}
	workload_table(b, d, TAB_HTML);
	int n = 0;
	const char **labels = xmalloc(sizeof(char *) * (size_t)(d->nplans + 1));
	double *bars = xmalloc(sizeof(double) * 2 * (size_t)(d->nplans + 1));
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		if (!wp->rel.done)
			continue;
		labels[n] = wp->name;
		bars[2 * n] = 100 * wp->rel.goodput;
		bars[2 * n + 1] = wp->rel.effective_time / 86400;
		n++;
	}
	static const ChartPanel panels[2] = {{"goodput", "%", 1, 0}, {"effective time to train", "days", 2, 0}};
	ChartBars chart = {"Goodput and effective time to train by workload", labels, n, panels, 2,
			   bars, 2, 0};
	if (n > 0)
		chart_hbars(b, &chart);
	free(labels);
	free(bars);
	buf_puts(b, "<p class=\"note\">Failure rates from the standard library (Dubey et al. 2024, "
		    "table 5); the interval after Daly (2006); the model in "
		    "<code>docs/reliability.md</code>.</p>\n</section>\n");
}
