/*
 * report_reliability.c — the design under failures as report.md and report.html give it
 * (docs/reliability.md): the cluster's interruption rate by class of part, each workload's
 * job, checkpoint, interval, goodput and the Monte Carlo's spread; report.html adds a goodput
 * chart. Everything printed is a field of the IR (reliability.c).
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>

/* An HTML text node: the few characters HTML reserves escaped. */
static void esc(Buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '&': buf_puts(b, "&amp;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		default: buf_putc(b, *s);
		}
	}
}

/* The values of one workload's row, in the order of `heads`. */
enum { COLS = 12 };
static const char *const heads[COLS] = {
	"GPUs", "job MTBF (h)", "interruptions per day", "checkpoint (GB)", "write (s)",
	"restore (s)", "interval (min)", "goodput", "time to train (days)", "effective (days)",
	"p50 (days)", "p90 (days)"};
static const int decimals[COLS] = {0, 2, 2, 1, 1, 1, 1, 4, 2, 2, 2, 2};

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

/* The blast-radius table's rows: a failure domain, what it takes, the bisection left. */
typedef struct BlastRow {
	char what[160];
	double gpus, ports, domains, bisection; /* NAN: does not apply */
} BlastRow;

static int blast_rows(const Design *d, BlastRow *rows, int max)
{
	const BlastRadius *b = &d->blast;
	int n = 0;
	if (!b->done || max < 2)
		return 0;
	rows[n++] = (BlastRow){"a node", b->node_gpus, NAN, 1, NAN};
	if (b->rack) {
		rows[n] = (BlastRow){"", b->rack_gpus, NAN, b->rack_domains, NAN};
		snprintf(rows[n].what, sizeof rows[n].what, "the fullest rack (%s, %d switches)", b->rack,
			 b->rack_switches);
		n++;
	}
	for (int i = 0; i < b->nfabrics && n < max; i++) {
		const BlastFabric *f = &b->fabrics[i];
		const char *fname = d->fabrics[f->fabric].name;
		for (int k = 0; k < b->ntiers && n < max; k++) {
			const BlastSwitchTier *t = &b->tiers[k];
			if (t->fabric != f->fabric)
				continue;
			rows[n] = (BlastRow){"", NAN, t->ports_cut, NAN, t->bisection_left};
			snprintf(rows[n].what, sizeof rows[n].what, "a %s switch of %s%s",
				 ir_switch_tier_names[t->tier], fname,
				 t->tier == f->worst_tier ? " (its worst single failure)" : "");
			n++;
		}
		if (f->planes > 1 && n < max) {
			rows[n] = (BlastRow){"", NAN, f->plane_ports_cut, NAN, f->plane_bisection_left};
			snprintf(rows[n].what, sizeof rows[n].what, "a plane of %s (of %d)", fname, f->planes);
			n++;
		}
		if (f->top_tier >= 0 && n < max) {
			rows[n] = (BlastRow){"", NAN, 0, NAN, f->after[BLAST_K]};
			snprintf(rows[n].what, sizeof rows[n].what, "%d %s switches of %s", BLAST_K,
				 ir_switch_tier_names[f->top_tier], fname);
			n++;
		}
	}
	return n;
}

static const char *const blast_heads[4] = {"accelerators lost", "endpoint ports cut off",
					   "scale-up domains broken", "bisection left (Tb/s)"};

static void blast_md(Buf *b, const Design *d)
{
	BlastRow rows[64];
	int n = blast_rows(d, rows, 64);
	if (n == 0)
		return;
	buf_puts(b, "### Blast radius\n\nWhat one failure takes down, the worst of each failure "
		    "domain (power and cooling domains are not modelled yet):\n\n| failure |");
	for (int k = 0; k < 4; k++)
		buf_printf(b, " %s |", blast_heads[k]);
	buf_puts(b, "\n| --- | ---: | ---: | ---: | ---: |\n");
	for (int i = 0; i < n; i++) {
		buf_puts(b, "| ");
		text_md_cell(b, rows[i].what);
		double v[4] = {rows[i].gpus, rows[i].ports, rows[i].domains, rows[i].bisection / 1e12};
		for (int k = 0; k < 4; k++) {
			buf_puts(b, " | ");
			text_number(b, v[k], k == 3 ? 1 : 0, false);
		}
		buf_puts(b, " |\n");
	}
	buf_putc(b, '\n');
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
	buf_puts(b, " racks; the cluster buys ");
	text_number(b, sp->shelf_nodes, 0, false);
	buf_puts(b, " spare nodes), and for a ");
	text_number(b, sp->restock / 86400, 0, false);
	buf_puts(b, "-day restock ");
	text_number(b, sp->cold[REL_SWITCH], 0, false);
	buf_puts(b, " switches, ");
	text_number(b, sp->cold[REL_CABLE], 0, false);
	buf_puts(b, " cables and ");
	text_number(b, sp->cold[REL_OPTIC], 0, false);
	buf_puts(b, " optics on the shelf.\n\n");
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
		    "(docs/reliability.md).\n\n| workload |");
	for (int k = 0; k < COLS; k++)
		buf_printf(b, " %s |", heads[k]);
	buf_puts(b, "\n| --- |");
	for (int k = 0; k < COLS; k++)
		buf_puts(b, " ---: |");
	buf_putc(b, '\n');
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		if (!wp->rel.done)
			continue;
		double v[COLS];
		row_values(wp, v);
		buf_puts(b, "| ");
		text_md_cell(b, wp->name);
		buf_puts(b, " |");
		for (int k = 0; k < COLS; k++) {
			buf_putc(b, ' ');
			text_number(b, v[k], decimals[k], k > 0);
			buf_puts(b, " |");
		}
		buf_putc(b, '\n');
	}
	buf_putc(b, '\n');
}

static void blast_html(Buf *b, const Design *d)
{
	BlastRow rows[64];
	int nb = blast_rows(d, rows, 64);
	if (nb > 0) {
		buf_puts(b, "<h3>Blast radius</h3>\n<table>\n<tr><th>failure</th>");
		for (int k = 0; k < 4; k++)
			buf_printf(b, "<th class=\"n\">%s</th>", blast_heads[k]);
		buf_puts(b, "</tr>\n");
		for (int i = 0; i < nb; i++) {
			buf_puts(b, "<tr><td>");
			esc(b, rows[i].what);
			buf_puts(b, "</td>");
			double v[4] = {rows[i].gpus, rows[i].ports, rows[i].domains, rows[i].bisection / 1e12};
			for (int k = 0; k < 4; k++) {
				buf_puts(b, "<td class=\"n\">");
				text_number(b, v[k], k == 3 ? 1 : 0, false);
				buf_puts(b, "</td>");
			}
			buf_puts(b, "</tr>\n");
		}
		buf_puts(b, "</table>\n");
	}
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
	blast_html(b, d);
	if (d->nplans == 0) {
		buf_puts(b, "</section>\n");
		return;
	}
	buf_puts(b, "<table>\n<tr><th>workload</th>");
	for (int k = 0; k < COLS; k++)
		buf_printf(b, "<th class=\"n\">%s</th>", heads[k]);
	buf_puts(b, "</tr>\n");
	int n = 0;
	const char **labels = xmalloc(sizeof(char *) * (size_t)(d->nplans + 1));
	double *bars = xmalloc(sizeof(double) * 2 * (size_t)(d->nplans + 1));
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		if (!wp->rel.done)
			continue;
		double v[COLS];
		row_values(wp, v);
		buf_puts(b, "<tr><td>");
		esc(b, wp->name);
		buf_puts(b, "</td>");
		for (int k = 0; k < COLS; k++) {
			buf_puts(b, "<td class=\"n\">");
			text_number(b, v[k], decimals[k], k > 0);
			buf_puts(b, "</td>");
		}
		buf_puts(b, "</tr>\n");
		labels[n] = wp->name;
		bars[2 * n] = 100 * wp->rel.goodput;
		bars[2 * n + 1] = wp->rel.effective_time / 86400;
		n++;
	}
	buf_puts(b, "</table>\n");
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
