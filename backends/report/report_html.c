/*
 * report_html.c — report.html, the report for people as one self-contained page: no script,
 * no font, image or style sheet fetched from anywhere, every chart an inline SVG
 * (svgchart.c), so that it reads in any browser, offline, and prints.
 *
 * For `clusterc build`: the key totals (the numbers of report.md and report.json, formatted
 * as report.md formats them), capex and power by category as bars, power per rack against
 * each rack's cap (a column per rack up to RACK_COLUMNS racks; beyond, how many racks draw
 * what share of their cap), the workloads' plans, the open choices decided, the fabrics and
 * their drawing (topology.svg's, inline, when small enough to read at the page's width).
 * `clusterc compare`'s page is compare_html.c's, with the helpers of this file (html_*).
 *
 * Deterministic like every artifact: no date, no solve time, no pointer; every number goes
 * through text.c or svgchart.c.
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	RACK_COLUMNS = 96,     /* beyond, a column per rack is thinner than its label */
	/* The fabric drawing is inlined up to these: wider, its labels shrink below a few pixels
	 * at the page's width (about 750 pt); this many bytes hold about 200 devices. */
	INLINE_MAX = 256 << 10,
	INLINE_WIDTH = 2500,   /* pt */
};

/* The page's one style sheet: light, readable, printable; no web font (system ones only). */
static const char page_css[] =
	":root{color-scheme:light}\n"
	"body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,"
	"sans-serif;color:#1f2328;background:#fff;margin:0 auto;max-width:1100px;padding:24px}\n"
	"h1{font-size:22px;margin:0 0 4px}\n"
	"h2{font-size:17px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de}\n"
	"h3{font-size:15px;margin:16px 0 6px}\n"
	"p{margin:6px 0}\n"
	".sub,.note{color:#57606a}\n"
	".kpis{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:8px;"
	"margin:8px 0}\n"
	".kpis div{border:1px solid #d0d7de;border-radius:6px;padding:6px 10px}\n"
	".kpis dt{color:#57606a;font-size:12px}\n"
	".kpis dd{margin:0;font-size:18px;font-weight:600;font-variant-numeric:tabular-nums}\n"
	".kpis .u{font-size:13px;font-weight:normal;color:#57606a}\n"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}\n"
	"th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}\n"
	"th{background:#f6f8fa}\n"
	".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"tr.failed td{color:#8c959f}\n"
	".why,tr.failed td.why{color:#b3262f}\n"
	".star{color:#e15759;font-weight:bold}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"tr.total td{font-weight:600;border-top:2px solid #8c959f}\n"
	".fabric{overflow:auto;border:1px solid #d0d7de;border-radius:6px;padding:8px;margin:8px 0}\n"
	".fabric svg{display:block;margin:auto;max-width:100%;max-height:90vh;width:auto;height:auto}\n"
	"code{font-size:12px;background:#f6f8fa;padding:1px 4px;border-radius:4px}\n"
	"footer{margin-top:32px;color:#57606a;font-size:12px}\n"
	"@media print{body{max-width:none;padding:0}section{break-inside:avoid}"
	"h2{break-after:avoid}.fabric{overflow:visible}}\n";

/* ---- the page ----------------------------------------------------------------------------- */

void report_html_esc(Buf *b, const char *s)
{
	chart_escape(b, s);
}

void report_html_page_start(Buf *b, const char *title, const char *more_css)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>");
	report_html_esc(b, title);
	buf_puts(b, "</title>\n<style>\n");
	buf_puts(b, page_css);
	buf_puts(b, chart_css);
	buf_puts(b, more_css ? more_css : "");
	buf_puts(b, "</style>\n</head>\n<body>\n<header>\n<h1>");
	report_html_esc(b, title);
	buf_puts(b, "</h1>\n");
}

void report_html_page_end(Buf *b, const char *what)
{
	buf_puts(b, "<footer>Written by clusterc. ");
	buf_puts(b, what);
	buf_puts(b, "</footer>\n</body>\n</html>\n");
}

void report_html_section(Buf *b, const char *id, const char *heading)
{
	buf_printf(b, "<section id=\"%s\">\n<h2>", id);
	report_html_esc(b, heading);
	buf_puts(b, "</h2>\n");
}

/* A key figure: label and the value the caller has formatted. */
void report_html_kpi(Buf *b, const char *label, const char *value, const char *unit)
{
	buf_puts(b, "<div><dt>");
	report_html_esc(b, label);
	buf_puts(b, "</dt><dd>");
	report_html_esc(b, value);
	if (unit && *unit) {
		buf_puts(b, " <span class=\"u\">");
		report_html_esc(b, unit);
		buf_puts(b, "</span>");
	}
	buf_puts(b, "</dd></div>\n");
}

void report_html_kpi_number(Buf *b, const char *label, double v, int decimals, const char *unit)
{
	Buf t = {0};
	text_number(&t, v, decimals, false);
	report_html_kpi(b, label, t.s, unit);
	buf_free(&t);
}

void report_html_kpi_money(Buf *b, const char *label, double v, const char *cur)
{
	Buf t = {0};
	text_money(&t, v);
	report_html_kpi(b, label, t.s, cur);
	buf_free(&t);
}

/* Table cells: text, a number (right-aligned), money. */
void report_html_th(Buf *b, const char *s, bool num)
{
	buf_puts(b, num ? "<th class=\"n\">" : "<th>");
	report_html_esc(b, s);
	buf_puts(b, "</th>");
}

void report_html_td(Buf *b, const char *s)
{
	buf_puts(b, "<td>");
	report_html_esc(b, s);
	buf_puts(b, "</td>");
}

void report_html_td_number(Buf *b, double v, int decimals)
{
	buf_puts(b, "<td class=\"n\">");
	text_number(b, v, decimals, false);
	buf_puts(b, "</td>");
}

void report_html_td_money(Buf *b, double v)
{
	buf_puts(b, "<td class=\"n\">");
	text_money(b, v);
	buf_puts(b, "</td>");
}

/* ---- build: summary and breakdowns -------------------------------------------------------- */

static void summary(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	const char *cur = currency_name(d->currency);
	report_html_section(b, "summary", "Summary");
	buf_puts(b, "<dl class=\"kpis\">\n");
	report_html_kpi_number(b, "Accelerators", t->accelerators, 0, NULL);
	report_html_kpi_number(b, "Nodes", t->nodes, 0, NULL);
	report_html_kpi_number(b, "Racks", t->racks, 0, NULL);
	if (t->switches > 0)
		report_html_kpi_number(b, "Switches", t->switches, 0, NULL);
	if (t->cables > 0)
		report_html_kpi_number(b, "Cables", t->cables, 0, NULL);
	if (t->storage_units > 0)
		report_html_kpi_number(b, "Storage units", t->storage_units, 0, NULL);
	report_html_kpi_number(b, "IT power (peak)", t->it_power / 1e3, 3, "kW");
	report_html_kpi_number(b, "Facility power (peak)", t->facility_power / 1e3, 3, "kW");
	report_html_kpi_number(b, "PUE", t->pue, 3, NULL);
	report_html_kpi_money(b, "Capex", t->capex, cur);
	report_html_kpi_number(b, "Energy per year", t->annual_energy / J_PER_KWH, 0, "kWh");
	report_html_kpi_money(b, "Energy cost per year", t->annual_energy_cost, cur);
	Buf label = {0};
	buf_puts(&label, "TCO over ");
	text_number(&label, t->horizon_years, 2, false);
	buf_puts(&label, t->horizon_years == 1 ? " year" : " years");
	report_html_kpi_money(b, label.s, t->tco, cur);
	buf_free(&label);
	if (!isnan(t->annual_carbon))
		report_html_kpi_number(b, "Carbon per year", t->annual_carbon / 1e3, 1, "t CO2e");
	/* report.json's reliability.job_mtbf_h: a job on every accelerator (docs/reliability.md) */
	if (d->reliability.done && isfinite(d->reliability.mtbf))
		report_html_kpi_number(b, "Job MTBF (all accelerators)", d->reliability.mtbf / 3600, 2, "h");
	buf_puts(b, "</dl>\n</section>\n");
}

/* Categories in report.json's order; those at 0 are left out. */
static const struct {
	int cat;
	const char *name;
} capex_cats[] = {
	{CAT_NODES, "nodes"},     {CAT_NETWORK, "network"}, {CAT_CABLING, "cabling"},
	{CAT_RACKS, "racks"},     {CAT_COOLING, "cooling"}, {CAT_POWER, "power"},
	{CAT_STORAGE, "storage"}, {CAT_OTHER, "other"}, {CAT_SPARES, "spares"},
};

static void capex_chart(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	const char *labels[CAT_COUNT];
	double v[CAT_COUNT];
	int n = 0;
	for (size_t i = 0; i < sizeof capex_cats / sizeof capex_cats[0]; i++) {
		double x = t->capex_by_cat[capex_cats[i].cat];
		if (x == 0)
			continue;
		labels[n] = capex_cats[i].name;
		v[n++] = x;
	}
	report_html_section(b, "capex", "Capex by category");
	buf_puts(b, "<p>Total ");
	text_money(b, t->capex);
	buf_printf(b, " %s.</p>\n", currency_name(d->currency));
	ChartPanel p = {NULL, currency_name(d->currency), -1, t->capex};
	ChartBars c = {"Capex by category", labels, n, &p, 1, v, 0, 0};
	if (n)
		chart_hbars(b, &c);
	buf_puts(b, "</section>\n");
}

static void power_chart(Buf *b, const Design *d)
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
	const char *labels[5];
	double v[5];
	int n = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (rows[i].w == 0)
			continue;
		labels[n] = rows[i].name;
		v[n++] = rows[i].w / 1e3;
	}
	report_html_section(b, "power", "Power by category (peak)");
	buf_puts(b, "<p>Facility ");
	text_number(b, t->facility_power / 1e3, 3, false);
	buf_puts(b, " kW, IT ");
	text_number(b, t->it_power / 1e3, 3, false);
	buf_puts(b, " kW, PUE ");
	text_number(b, t->pue, 3, false);
	buf_puts(b, ".</p>\n");
	ChartPanel p = {NULL, "kW", 3, t->facility_power / 1e3};
	ChartBars c = {"Power by category", labels, n, &p, 1, v, 2, 0};
	if (n)
		chart_hbars(b, &c);
	buf_puts(b, "</section>\n");
}

/* ---- build: power per rack ---------------------------------------------------------------- */

/* Each rack's power as racks.csv and racks.svg count it: the sum of what stands in it. */
static double *rack_powers(const Design *d)
{
	double *w = xmalloc(sizeof(double) * (size_t)(d->nracks + 1));
	memset(w, 0, sizeof(double) * (size_t)(d->nracks + 1));
	RackDevice *v;
	int n = layout_devices(d, &v);
	for (int i = 0; i < n; i++)
		if (v[i].rack >= 0 && v[i].rack < d->nracks && isfinite(v[i].power))
			w[v[i].rack] += v[i].power;
	free(v);
	return w;
}

/* How many racks draw each tenth of their cap (the last bin: over it). */
static void rack_histogram(Buf *b, const Design *d, const double *w)
{
	enum { BINS = 11 };
	static const char *const names[BINS] = {"0-10%",  "10-20%", "20-30%", "30-40%",
						"40-50%", "50-60%", "60-70%", "70-80%",
						"80-90%", "90-100%", "over"};
	int count[BINS] = {0};
	for (int r = 0; r < d->nracks; r++) {
		double lim = d->racks[r].cap;
		double load = w[r] / lim;
		int k = load > 1 + 1e-9 ? BINS - 1 : (int)floor(load * 10 - 1e-9);
		k = k < 0 ? 0 : k > BINS - 2 ? BINS - 2 : k;
		count[k]++;
	}
	ChartColumn c[BINS];
	for (int k = 0; k < BINS; k++)
		c[k] = (ChartColumn){names[k], count[k], NAN, k == BINS - 1};
	ChartColumns cc = {"Racks by share of their power cap", "racks", "racks", 0, c, BINS, 1,
			   true, 0, 220};
	buf_puts(b, "<p>Racks by the share of their power cap they draw at peak.</p>\n");
	chart_columns(b, &cc);
}

/* Racks by power, in kW bins, when some rack has no cap. */
static void rack_kw_histogram(Buf *b, const Design *d, const double *w)
{
	double hi = 0;
	for (int r = 0; r < d->nracks; r++)
		hi = fmax(hi, w[r] / 1e3);
	double t[32], step;
	int nt = chart_ticks(0, hi > 0 ? hi : 1, 10, t, 32, &step);
	int nb = nt > 1 ? nt - 1 : 1;
	ChartColumn *c = xmalloc(sizeof(ChartColumn) * (size_t)nb);
	Buf *labels = xmalloc(sizeof(Buf) * (size_t)nb);
	for (int k = 0; k < nb; k++) {
		labels[k] = (Buf){0};
		text_number(&labels[k], t[k], 3, false);
		buf_putc(&labels[k], '-');
		text_number(&labels[k], t[k] + step, 3, false);
		c[k] = (ChartColumn){labels[k].s, 0, NAN, false};
	}
	for (int r = 0; r < d->nracks; r++) {
		int k = (int)floor(w[r] / 1e3 / step);
		c[k < 0 ? 0 : k >= nb ? nb - 1 : k].value++;
	}
	ChartColumns cc = {"Racks by power at peak (kW)", "racks", "racks", 0, c, nb, 0, true, 0,
			   220};
	buf_puts(b, "<p>Racks by power at peak, in kW.</p>\n");
	chart_columns(b, &cc);
	for (int k = 0; k < nb; k++)
		buf_free(&labels[k]);
	free(labels);
	free(c);
}

static void rack_chart(Buf *b, const Design *d)
{
	report_html_section(b, "racks", "Power per rack");
	if (d->nracks == 0) {
		buf_puts(b, "<p class=\"note\">No rack is placed (the design was costed from its "
			    "node groups only).</p>\n</section>\n");
		return;
	}
	double *w = rack_powers(d);
	int fullest = 0, over = 0;
	bool capped = true;
	for (int r = 0; r < d->nracks; r++) {
		double lim = d->racks[r].cap;
		capped &= isfinite(lim) && lim > 0;
		over += isfinite(lim) && w[r] > lim + 1e-6;
		double load = isfinite(lim) && lim > 0 ? w[r] / lim : w[r];
		double best = isfinite(d->racks[fullest].cap)
			      ? w[fullest] / d->racks[fullest].cap : w[fullest];
		if (load > best)
			fullest = r;
	}
	const RackInst *f = &d->racks[fullest];
	double flim = f->cap;
	buf_printf(b, "<p>%d rack%s (%d of nodes, %d of network). The fullest, <code>", d->nracks,
		   d->nracks == 1 ? "" : "s", d->node_racks, d->network_racks);
	report_html_esc(b, f->name);
	buf_puts(b, "</code>, draws ");
	text_number(b, w[fullest] / 1e3, 3, false);
	buf_puts(b, " kW");
	if (isfinite(flim)) {
		buf_puts(b, " of its ");
		text_number(b, flim / 1e3, 3, false);
		buf_puts(b, " kW cap");
	}
	buf_puts(b, "; ");
	if (over)
		buf_printf(b, "<span class=\"why\">%d over their cap</span>.</p>\n", over);
	else
		buf_puts(b, "none is over its cap.</p>\n");
	if (d->nracks <= RACK_COLUMNS) {
		ChartColumn *c = xmalloc(sizeof(ChartColumn) * (size_t)d->nracks);
		for (int r = 0; r < d->nracks; r++) {
			double lim = d->racks[r].cap;
			c[r] = (ChartColumn){d->racks[r].name, w[r] / 1e3,
					     isfinite(lim) ? lim / 1e3 : NAN,
					     isfinite(lim) && w[r] > lim + 1e-6};
		}
		ChartColumns cc = {"Power per rack at peak against its cap (kW)", "kW", "kW", 3, c,
				   d->nracks, 0, false, 0, 0};
		chart_columns(b, &cc);
		free(c);
	} else if (capped) {
		rack_histogram(b, d, w);
	} else {
		rack_kw_histogram(b, d, w);
	}
	free(w);
	buf_puts(b, "</section>\n");
}

/* ---- build: workloads, decisions, fabrics ------------------------------------------------- */

/* The bill of materials: bom.csv's lines (model.c), whole amounts, and its total. */
static void bill(Buf *b, const Design *d)
{
	if (!d->nbom)
		return;
	report_html_section(b, "bom", "Bill of materials");
	buf_puts(b, "<div class=\"scroll\"><table>\n<tr>");
	report_html_th(b, "part", false);
	report_html_th(b, "model", false);
	report_html_th(b, "quantity", true);
	Buf h = {0};
	buf_printf(&h, "unit price (%s)", currency_name(d->currency));
	report_html_th(b, h.s, true);
	h.len = 0;
	buf_printf(&h, "total (%s)", currency_name(d->currency));
	report_html_th(b, h.s, true);
	buf_free(&h);
	report_html_th(b, "power (kW)", true);
	buf_puts(b, "</tr>\n");
	double total = 0, power = 0;
	for (int i = 0; i < d->nbom; i++) {
		const BomLine *l = &d->bom[i];
		buf_puts(b, "<tr>");
		report_html_td(b, l->part);
		report_html_td(b, l->model);
		buf_puts(b, "<td class=\"n\">");
		text_number(b, l->quantity, 3, false);
		if (l->unit && *l->unit) {
			buf_putc(b, ' ');
			report_html_esc(b, l->unit);
		}
		buf_puts(b, "</td>");
		report_html_td_money(b, l->unit_price);
		report_html_td_money(b, l->total);
		report_html_td_number(b, l->power / 1e3, 3);
		buf_puts(b, "</tr>\n");
		total += l->total;
		power += l->power;
	}
	buf_puts(b, "<tr class=\"total\"><td>total</td><td></td><td></td><td></td>");
	report_html_td_money(b, total);
	report_html_td_number(b, power / 1e3, 3);
	buf_puts(b, "</tr>\n</table></div>\n<p class=\"note\">Prices are indicative: the "
		    "standard library's and the spec's. The same lines are in <code>bom.csv</code>."
		    "</p>\n</section>\n");
}

static void workloads(Buf *b, const Design *d)
{
	if (!d->nplans)
		return;
	report_html_section(b, "workloads", "Workloads");
	buf_puts(b, "<table>\n<tr>");
	static const char *const head[] = {"workload", "GPUs", "TP", "PP", "DP", "CP", "EP",
					   "micro-batch", "step (s)", "MFU", "time to train (days)",
					   "energy (MWh)"};
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		report_html_th(b, head[i], i > 0);
	Buf cost = {0};
	buf_printf(&cost, "energy cost (%s)", currency_name(d->currency));
	report_html_th(b, cost.s, true);
	buf_free(&cost);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanConfig *c = &wp->r.best;
		buf_puts(b, "<tr>");
		report_html_td(b, wp->name);
		report_html_td_number(b, c->gpus, 0);
		report_html_td_number(b, c->tp, 0);
		report_html_td_number(b, c->pp, 0);
		report_html_td_number(b, c->dp, 0);
		report_html_td_number(b, c->cp, 0);
		report_html_td_number(b, c->ep, 0);
		report_html_td_number(b, c->micro, 0);
		report_html_td_number(b, wp->r.cost.step, 3);
		buf_puts(b, "<td class=\"n\">");
		text_number(b, 100 * wp->r.cost.mfu, 1, true);
		buf_puts(b, "%</td>");
		report_html_td_number(b, wp->time_to_train / 86400, 2);
		report_html_td_number(b, wp->energy / 3.6e9, 1);
		report_html_td_money(b, wp->energy_cost);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</table>\n<p class=\"note\">The plans in full, their alternatives and the "
		    "launch files are in <code>parallelism/</code>.</p>\n</section>\n");
}

static void decisions(Buf *b, const Design *d, const OptimizerReport *opt)
{
	report_html_section(b, "decisions", "Decisions");
	if (opt) {
		buf_puts(b, "<p>Solver ");
		report_html_esc(b, opt->solver ? opt->solver : "none");
		buf_puts(b, ": ");
		report_html_esc(b, opt->status ? opt->status : "unknown");
		if (isfinite(opt->objective)) {
			buf_puts(b, ", objective ");
			text_number(b, opt->objective, 2, false);
		}
		if (isfinite(opt->gap)) {
			buf_puts(b, ", gap ");
			text_number(b, 100 * opt->gap, 2, false);
			buf_putc(b, '%');
		}
		buf_printf(b, "; %d variables, %d constraints.</p>\n", opt->variables,
			   opt->constraints);
	}
	if (!d->decisions.n) {
		buf_puts(b, "<p>The spec leaves no choice open.</p>\n</section>\n");
		return;
	}
	buf_puts(b, "<table>\n<tr>");
	report_html_th(b, "choice", false);
	report_html_th(b, "chosen", false);
	report_html_th(b, "options considered", true);
	report_html_th(b, "next best (objective)", false);
	report_html_th(b, "saved", true);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		Buf t = {0};
		buf_puts(&t, x->name ? x->name : "?");
		buf_putc(&t, '.');
		buf_puts(&t, x->field_name ? x->field_name : "?");
		if (x->in_count)
			buf_puts(&t, " (count)");
		buf_puts(b, "<tr><td><code>");
		report_html_esc(b, t.s);
		buf_puts(b, "</code></td>");
		t.len = 0;
		buf_puts(&t, x->chosen_text ? x->chosen_text : "-");
		report_html_td(b, t.s ? t.s : "");
		buf_free(&t);
		buf_printf(b, "<td class=\"n\">%d</td><td>", x->ncandidates);
		if (x->next_best_text)
			report_html_esc(b, x->next_best_text);
		if (isfinite(x->next_best)) {
			buf_puts(b, x->next_best_text ? " (" : "(");
			text_number(b, x->next_best, 2, false);
			buf_putc(b, ')');
		} else if (!x->next_best_text) {
			buf_putc(b, '-');
		}
		buf_puts(b, "</td><td class=\"n\">");
		if (opt && isfinite(x->next_best) && isfinite(opt->objective))
			text_number(b, opt->maximize ? opt->objective - x->next_best
						     : x->next_best - opt->objective,
				    2, false);
		else
			buf_putc(b, '-');
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</table>\n</section>\n");
}

/* The width of Graphviz's drawing in points, from its <svg width="..pt">; 0 when unknown. */
static double drawing_width(const char *svg)
{
	const char *w = strstr(svg, "<svg width=\"");
	return w ? strtod(w + strlen("<svg width=\""), NULL) : 0;
}

/* The drawing of topology.svg, inline from its <svg> tag on (no XML prolog, no doctype), when
 * it is small enough to read at the page's width. */
static void drawing(Buf *b, Output *o, const Design *d)
{
	Buf svg = {0};
	bool drawn = topology_svg_render(o, d, &svg);
	const char *start = drawn ? strstr(svg.s, "<svg") : NULL;
	double width = start ? drawing_width(start) : 0;
	if (start && svg.len <= INLINE_MAX && width > 0 && width <= INLINE_WIDTH) {
		buf_puts(b, "<div class=\"fabric\">\n");
		buf_put(b, start, svg.len - (size_t)(start - svg.s));
		buf_puts(b, "</div>\n");
	} else if (start) {
		buf_puts(b, "<p class=\"note\">The fabric drawing is too large to read at the width "
			    "of this page: it is in <code>topology.svg</code> (and the graph in "
			    "<code>topology.dot</code>).</p>\n");
	} else {
		buf_puts(b, "<p class=\"note\">The fabric graph is too large to lay out: it is in "
			    "<code>topology.dot</code>.</p>\n");
	}
	buf_free(&svg);
}

static void fabrics(Buf *b, Output *o, const Design *d)
{
	int n = 0;
	for (int i = 0; i < d->nfabrics; i++)
		n += d->fabrics[i].sized && d->fabrics[i].family;
	if (!n)
		return;
	report_html_section(b, "fabrics", "Fabrics");
	buf_puts(b, "<table>\n<tr>");
	static const char *const head[] = {"fabric", "topology", "switch", "switches", "links",
					   "endpoint ports", "bisection (Tb/s)", "oversubscription",
					   "diameter (hops)"};
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		report_html_th(b, head[i], i > 2);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		if (!f->sized || !f->family)
			continue;
		buf_puts(b, "<tr><td><code>");
		report_html_esc(b, f->name);
		buf_puts(b, "</code></td><td>");
		Buf shape = {0};
		f->family->summary(f, &shape);
		report_html_esc(b, shape.s ? shape.s : "");
		buf_free(&shape);
		buf_puts(b, "</td>");
		bool tiers = f->family->tree && f->per_tier; /* every tier's switch and ratio */
		if (tiers) {
			buf_puts(b, "<td>");
			for (int t = 0; t < f->tiers && t < 3; t++) {
				buf_puts(b, t ? " / " : "");
				report_html_esc(b, f->tier_model[t]->name);
			}
			buf_puts(b, "</td>");
		} else {
			report_html_td(b, f->switches > 0 && f->switch_model ? f->switch_model->name : "-");
		}
		report_html_td_number(b, f->switches, 0);
		report_html_td_number(b, f->links, 0);
		report_html_td_number(b, f->endpoints, 0);
		report_html_td_number(b, f->bisection / 1e12, 3);
		buf_puts(b, "<td class=\"n\">");
		if (tiers && f->tiers > 1) {
			for (int t = 0; t < f->tiers - 1 && t < 2; t++) {
				buf_puts(b, t ? ", " : "");
				text_number(b, f->oversub[t], 2, false);
				buf_puts(b, ":1");
			}
			buf_puts(b, "</td>");
		} else {
			text_number(b, f->family->tree && f->tiers > 1 ? f->oversub[0] : 1, 2, false);
			buf_puts(b, ":1</td>");
		}
		report_html_td_number(b, f->diameter, 0);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</table>\n");
	drawing(b, o, d);
	buf_puts(b, "</section>\n");
}

int report_html_write(Output *o, const Design *d)
{
	const OptimizerReport *opt = d->report.solver ? &d->report : NULL; /* NULL: none ran */
	FILE *f = output_file(o, "report.html");
	if (!f)
		return 1;
	Buf b = {0}, title = {0};
	buf_puts(&title, "clusterc report: ");
	buf_puts(&title, text_spec_path(d));
	buf_puts(&title, " (scenario ");
	buf_puts(&title, text_scenario(d));
	buf_puts(&title, ")");
	report_html_page_start(&b, title.s, NULL);
	buf_free(&title);
	if (d->cluster_name) {
		buf_puts(&b, "<p class=\"sub\">Cluster <code>");
		report_html_esc(&b, d->cluster_name);
		buf_puts(&b, "</code>");
		if (d->site_name) {
			buf_puts(&b, " at site <code>");
			report_html_esc(&b, d->site_name);
			buf_puts(&b, "</code>");
		}
		buf_printf(&b, "; amounts in %s, power at peak.</p>\n", currency_name(d->currency));
	}
	buf_puts(&b, "</header>\n");
	summary(&b, d);
	capex_chart(&b, d);
	power_chart(&b, d);
	rack_chart(&b, d);
	workloads(&b, d);
	report_reliability_html(&b, d);
	report_facility_html(&b, d);
	decisions(&b, d, opt);
	bill(&b, d);
	fabrics(&b, o, d);
	report_html_page_end(&b, "The same numbers are in report.json (for programs) and report.md, the bill "
		     "of materials in bom.csv, every rack's devices in racks.csv.");
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	return output_close(o, f);
}
