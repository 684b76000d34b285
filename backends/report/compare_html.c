/*
 * compare_html.c — `clusterc compare`'s report.html: a page a buyer reads in a minute.
 *
 *   At a glance     the best row on each objective and on the normalised figures, and what it
 *                   saves or costs against the base design; the frontier against the base
 *   Scenarios       one row each: GPUs, power, money in millions, normalised per GPU, per
 *                   PFLOP/s of peak and per trained model, each workload's GPUs and days
 *   Pareto front    the first objective against the second; rows that fall on the same point
 *                   (a 1-, 3- and 5-year horizon with the same capex and energy cost) drawn
 *                   once; labels only where they collide with nothing (the tooltip names all)
 *   Sensitivity     tornado charts of the financial model (passes/design/finance.c) for the
 *                   base and the row best on the first objective
 *
 * The table fits a 1,400 px window (tests/compare_html.sh measures it in Chromium): names wrap,
 * the overrides are listed apart (once per row, not beside names that repeat them), money is
 * in millions. A column prints as many decimals as it takes for every two rows that differ in
 * comparison.json to differ on the page (column_decimals): rounding never hides why one row is
 * on the frontier and its neighbour is not. Only renders: every figure is a row's.
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	LABEL_ALL_MAX = 30, /* dominated points are numbered up to this many points drawn */
	BARS_MAX = 40,      /* beyond, the capex bars show the frontier rows only */
};

static const char compare_css[] =
	"body{max-width:1340px}\n"
	"table.cmp{font-size:12px;width:100%}\n"
	".cmp th,.cmp td{padding:2px 5px}\n"
	".cmp th{vertical-align:bottom}\n"
	".cmp th.n{white-space:normal}\n"
	".cmp td.name{overflow-wrap:anywhere;min-width:9em}\n"
	".cmp td.name code{white-space:normal}\n"
	".good{color:#1a7f37}.bad{color:#b3262f}\n";

/* ---- numbers ------------------------------------------------------------------------------ */

typedef double (*RowValue)(const CompareRow *r, const void *arg);

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The fewest decimals, from lo up to hi, at which the built rows' values that differ at hi
 * places print differently. */
static int column_decimals(const Comparison *cmp, RowValue get, const void *arg, int lo, int hi)
{
	double *v = xmalloc(sizeof(double) * (size_t)(cmp->nrows + 1));
	int n = 0;
	for (int i = 0; i < cmp->nrows; i++)
		if (cmp->rows[i].status == 0) {
			double x = get(&cmp->rows[i], arg);
			if (isfinite(x))
				v[n++] = x;
		}
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	int d = lo;
	for (; d < hi; d++) {
		bool apart = true;
		double fine = pow(10, hi), coarse = pow(10, d);
		for (int i = 1; i < n && apart; i++)
			apart = round(v[i] * fine) == round(v[i - 1] * fine) ||
				round(v[i] * coarse) != round(v[i - 1] * coarse);
		if (apart)
			break;
	}
	free(v);
	return d;
}

static void td_fixed(Buf *b, double v, int decimals)
{
	buf_puts(b, "<td class=\"n\">");
	text_number(b, v, decimals, true);
	buf_puts(b, "</td>");
}

/* The row getters of the table's columns: base units scaled to the column's. */
typedef struct Col {
	const char *head;     /* printf format, the currency its argument */
	RowValue get;
	double scale;
	int lo, hi;           /* decimals: at least lo, at most hi (the JSON's precision) */
} Col;

static double v_acc(const CompareRow *r, const void *a) { (void)a; return r->accelerators; }
static double v_mw(const CompareRow *r, const void *a) { (void)a; return r->facility_power / 1e6; }
static double v_capex(const CompareRow *r, const void *a) { (void)a; return r->capex / 1e6; }
static double v_energy(const CompareRow *r, const void *a) { (void)a; return r->annual_energy_cost / 1e6; }
static double v_npc(const CompareRow *r, const void *a) { (void)a; return r->net_present_cost / 1e6; }
static double v_per_gpu(const CompareRow *r, const void *a)
{
	(void)a;
	return r->accelerators > 0 ? r->capex / r->accelerators / 1e3 : NAN;
}
static double v_per_pflops(const CompareRow *r, const void *a)
{
	(void)a;
	return r->peak_compute > 0 ? r->capex / (r->peak_compute / 1e15) / 1e6 : NAN;
}
static double v_gpu_hour(const CompareRow *r, const void *a) { (void)a; return r->per_gpu_hour; }
/* A job on every accelerator (report.json's reliability.job_mtbf_h); NAN when nothing fails. */
static double v_mtbf(const CompareRow *r, const void *a) { (void)a; return r->job_mtbf / 3600; }

static const CompareWorkload *wl(const CompareRow *r, const void *name)
{
	return r->status == 0 ? compare_workload(r, name) : NULL;
}
static double v_w_gpus(const CompareRow *r, const void *n)
{
	const CompareWorkload *w = wl(r, n);
	return w ? w->gpus : NAN;
}
static double v_w_days(const CompareRow *r, const void *n)
{
	const CompareWorkload *w = wl(r, n);
	return w ? w->time_to_train / 86400 : NAN;
}
static double v_w_model(const CompareRow *r, const void *n)
{
	const CompareWorkload *w = wl(r, n);
	return w ? w->cost_per_model / 1e3 : NAN;
}

/* Money columns in millions (M) or thousands (k) of the currency, to 0.01 of it at most. */
static const Col row_cols[] = {
	{"GPUs", v_acc, 1, 0, 0},
	{"facility (MW)", v_mw, 1, 2, 6},
	{"capex (M %s)", v_capex, 1, 1, 8},
	{"capex / GPU (k %s)", v_per_gpu, 1, 1, 5},
	{"capex / PFLOP/s (M %s)", v_per_pflops, 1, 2, 8},
	{"energy / year (M %s)", v_energy, 1, 2, 8},
	{"net present cost (M %s)", v_npc, 1, 1, 8},
	{"cost / GPU-hour (%s)", v_gpu_hour, 1, 2, 4},
	{"job MTBF (h)", v_mtbf, 1, 2, 4},
};
enum { NROW_COLS = sizeof row_cols / sizeof row_cols[0] };

static const Col w_cols[] = {
	{"%s GPUs", v_w_gpus, 1, 0, 0},
	{"%s (days)", v_w_days, 1, 1, 4},
	{"%s per trained model (k %s)", v_w_model, 1, 1, 5},
};
enum { NW_COLS = sizeof w_cols / sizeof w_cols[0] };

/* ---- at a glance -------------------------------------------------------------------------- */

static void row_ref(Buf *b, const Comparison *cmp, int i)
{
	buf_printf(b, "#%d <code>", i + 1);
	report_html_esc(b, cmp->rows[i].scenario);
	buf_puts(b, "</code>");
}

/* "saves 12.3 M CNY (−4.1 %)" / "costs ... more" / "the base itself": v against base. */
static void against(Buf *b, double v, double base, double scale, const char *unit, bool maximize,
		    int decimals)
{
	if (!isfinite(v) || !isfinite(base)) {
		buf_puts(b, "-");
		return;
	}
	double diff = (v - base) * scale;
	bool better = maximize ? v > base : v < base;
	if (v == base) {
		buf_puts(b, "same as the base");
		return;
	}
	buf_printf(b, "<span class=\"%s\">%s ", better ? "good" : "bad", diff < 0 ? "&#8722;" : "+");
	text_number(b, fabs(diff), decimals, false);
	buf_printf(b, " %s", unit);
	if (base != 0) {
		buf_puts(b, " (");
		text_number(b, 100 * fabs(v - base) / fabs(base), 1, false);
		buf_printf(b, " %% %s)", better ? "better" : "worse");
	}
	buf_puts(b, "</span>");
}

/* An objective's value in the unit of its label; money in millions. */
static void obj_text(Buf *b, const Comparison *cmp, int k, double v, bool *millions)
{
	double x = v * cmp->obj[k].scale;
	*millions = fabs(x) >= 1e6 && strstr(cmp->obj[k].label, cmp->currency ? cmp->currency : "\x01");
	text_number(b, *millions ? x / 1e6 : x, *millions ? 2 : 4, false);
}

static void glance(Buf *b, const Comparison *cmp)
{
	report_html_section(b, "glance", "At a glance");
	const CompareRow *base = cmp->rows[0].status == 0 ? &cmp->rows[0] : NULL;
	buf_puts(b, "<table class=\"cmp\">\n<tr>");
	report_html_th(b, "objective", false);
	report_html_th(b, "best scenario", false);
	report_html_th(b, "its value", true);
	report_html_th(b, "against the base design", false);
	buf_puts(b, "</tr>\n");
	for (int k = 0; k < cmp->nobj; k++) {
		int i = compare_best(cmp, k);
		buf_puts(b, "<tr><td>");
		report_html_esc(b, cmp->obj[k].label);
		buf_puts(b, cmp->obj[k].maximize ? " (higher is better)" : " (lower is better)");
		buf_puts(b, "</td><td class=\"name\">");
		if (i < 0) {
			buf_puts(b, "none built</td><td></td><td></td></tr>\n");
			continue;
		}
		row_ref(b, cmp, i);
		buf_puts(b, "</td><td class=\"n\">");
		double v = compare_value(cmp, &cmp->rows[i], k);
		bool m;
		obj_text(b, cmp, k, v, &m);
		if (m)
			buf_puts(b, " M");
		buf_puts(b, "</td><td>");
		if (base) {
			double bv = compare_value(cmp, base, k);
			double s = cmp->obj[k].scale / (m ? 1e6 : 1);
			against(b, v, bv, s, m ? "M" : "", cmp->obj[k].maximize, m ? 2 : 4);
		} else {
			buf_puts(b, "the base was not built");
		}
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</table>\n<p class=\"note\">Units as the objective names them; M: millions. "
		    "The base design is row #1.</p>\n");
}

/* What each frontier row costs or saves against the base, on the money and the time. */
static void frontier_deltas(Buf *b, const Comparison *cmp, const char **wn, int nw)
{
	const CompareRow *base = cmp->rows[0].status == 0 ? &cmp->rows[0] : NULL;
	if (!base)
		return;
	const char *cur = cmp->currency ? cmp->currency : "";
	buf_puts(b, "<h3>The frontier against the base design</h3>\n<table class=\"cmp\">\n<tr>");
	report_html_th(b, "scenario", false);
	Buf h = {0};
	buf_printf(&h, "capex (M %s)", cur);
	report_html_th(b, h.s, false);
	h.len = 0;
	buf_printf(&h, "energy / year (M %s)", cur);
	report_html_th(b, h.s, false);
	h.len = 0;
	buf_printf(&h, "net present cost (M %s)", cur);
	report_html_th(b, h.s, false);
	h.len = 0;
	buf_printf(&h, "cost / GPU-hour (%s)", cur);
	report_html_th(b, h.s, false);
	for (int j = 0; j < nw; j++) {
		h.len = 0;
		buf_printf(&h, "%s time to train (days)", wn[j]);
		report_html_th(b, h.s, false);
	}
	buf_free(&h);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		if (!r->pareto)
			continue;
		buf_puts(b, "<tr><td class=\"name\">");
		row_ref(b, cmp, i);
		buf_puts(b, "</td><td>");
		against(b, r->capex, base->capex, 1e-6, "M", false, 2);
		buf_puts(b, "</td><td>");
		against(b, r->annual_energy_cost, base->annual_energy_cost, 1e-6, "M", false, 2);
		buf_puts(b, "</td><td>");
		against(b, r->net_present_cost, base->net_present_cost, 1e-6, "M", false, 2);
		buf_puts(b, "</td><td>");
		against(b, r->per_gpu_hour, base->per_gpu_hour, 1, cur, false, 4);
		for (int j = 0; j < nw; j++) {
			const CompareWorkload *w = compare_workload(r, wn[j]), *bw = compare_workload(base, wn[j]);
			buf_puts(b, "</td><td>");
			against(b, w ? w->time_to_train : NAN, bw ? bw->time_to_train : NAN, 1 / 86400.0,
				"days", false, 4);
		}
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</table>\n</section>\n");
}

/* ---- the table ---------------------------------------------------------------------------- */

static void col_head(Buf *b, const Col *c, const char *name, const char *cur)
{
	Buf t = {0};
	if (name)
		buf_printf(&t, c->head, name, cur);
	else
		buf_printf(&t, c->head, cur);
	report_html_th(b, t.s, true);
	buf_free(&t);
}

static void compare_table(Buf *b, const Comparison *cmp, const char **wn, int nw)
{
	const char *cur = cmp->currency ? cmp->currency : "";
	int dec[NROW_COLS], *wdec = xmalloc(sizeof(int) * (size_t)(nw * NW_COLS + 1));
	for (int c = 0; c < NROW_COLS; c++)
		dec[c] = column_decimals(cmp, row_cols[c].get, NULL, row_cols[c].lo, row_cols[c].hi);
	for (int j = 0; j < nw; j++)
		for (int c = 0; c < NW_COLS; c++)
			wdec[j * NW_COLS + c] = column_decimals(cmp, w_cols[c].get, wn[j], w_cols[c].lo,
								w_cols[c].hi);
	report_html_section(b, "table", "Scenarios");
	buf_puts(b, "<table class=\"cmp\">\n<tr>");
	report_html_th(b, "#", true);
	report_html_th(b, "scenario", false);
	for (int c = 0; c < NROW_COLS; c++)
		col_head(b, &row_cols[c], NULL, cur);
	for (int j = 0; j < nw; j++)
		for (int c = 0; c < NW_COLS; c++)
			col_head(b, &w_cols[c], wn[j], cur);
	report_html_th(b, "Pareto", false);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		buf_puts(b, r->status ? "<tr class=\"failed\">" : "<tr>");
		buf_printf(b, "<td class=\"n\">%d</td><td class=\"name\"><code>", i + 1);
		report_html_esc(b, r->scenario);
		buf_puts(b, "</code></td>");
		if (r->status) {
			buf_printf(b, "<td colspan=\"%d\" class=\"why\">not built (exit %d): ",
				   NROW_COLS + NW_COLS * nw + 1, r->status);
			report_html_esc(b, r->why);
			buf_puts(b, "</td></tr>\n");
			continue;
		}
		for (int c = 0; c < NROW_COLS; c++)
			td_fixed(b, row_cols[c].get(r, NULL), dec[c]);
		for (int j = 0; j < nw; j++)
			for (int c = 0; c < NW_COLS; c++)
				td_fixed(b, w_cols[c].get(r, wn[j]), wdec[j * NW_COLS + c]);
		buf_puts(b, r->pareto ? "<td class=\"star\">&#9733; yes</td>" : "<td></td>");
		buf_puts(b, "</tr>\n");
	}
	free(wdec);
	buf_puts(b, "</table>\n<p class=\"note\">Pareto: no other scenario is at least as good on "
		    "every one of ");
	for (int k = 0; k < cmp->nobj; k++) {
		buf_puts(b, k == 0 ? "" : k == cmp->nobj - 1 ? " and " : ", ");
		report_html_esc(b, cmp->obj[k].label);
		buf_puts(b, cmp->obj[k].maximize ? " (higher is better)" : " (lower is better)");
	}
	buf_printf(b, " and better on one. M and k: millions and thousands of %s. Each column "
		      "prints the decimals that tell apart every two rows comparison.json tells "
		      "apart. GPUs per workload: those its plan uses (batch divisibility may leave "
		      "some idle).</p>\n", cur);
	bool any_sets = false;
	for (int i = 0; i < cmp->nrows; i++)
		any_sets |= cmp->rows[i].sets && cmp->rows[i].sets[0];
	if (any_sets) {
		buf_puts(b, "<details><summary>Overrides of each row</summary>\n<table class=\"cmp\">\n");
		for (int i = 0; i < cmp->nrows; i++) {
			if (!cmp->rows[i].sets || !cmp->rows[i].sets[0])
				continue;
			buf_printf(b, "<tr><td class=\"n\">%d</td><td class=\"name\"><code>", i + 1);
			report_html_esc(b, cmp->rows[i].sets);
			buf_puts(b, "</code></td></tr>\n");
		}
		buf_puts(b, "</table></details>\n");
	}
	buf_puts(b, "</section>\n");
}

/* ---- the Pareto scatter ------------------------------------------------------------------- */

/* Whether row a is at least as good as row b on objectives 0 and 1 and better on one. */
static bool dominates2(const Comparison *cmp, const double *x, const double *y, int a, int b)
{
	double ax = cmp->obj[0].maximize ? -x[a] : x[a], bx = cmp->obj[0].maximize ? -x[b] : x[b];
	double ay = cmp->obj[1].maximize ? -y[a] : y[a], by = cmp->obj[1].maximize ? -y[b] : y[b];
	return ax <= bx && ay <= by && (ax < bx || ay < by);
}

/* A log axis when the values span more than two decades. */
static bool wants_log(const double *v, int n)
{
	double lo = INFINITY, hi = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	return lo > 0 && isfinite(lo) && hi / lo > 100;
}

static void compare_scatter(Buf *b, const Comparison *cmp)
{
	report_html_section(b, "pareto", "Pareto front");
	if (cmp->nobj < 2) {
		buf_puts(b, "<p class=\"note\">One objective only: nothing to plot against it.</p>\n"
			    "</section>\n");
		return;
	}
	int n = cmp->nrows;
	double *x = xmalloc(sizeof(double) * (size_t)(n + 1)),
	       *y = xmalloc(sizeof(double) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		x[i] = compare_value(cmp, &cmp->rows[i], 0) * cmp->obj[0].scale;
		y[i] = compare_value(cmp, &cmp->rows[i], 1) * cmp->obj[1].scale;
	}
	/* One point per place: a row on the place of an earlier one joins it. */
	ChartPoint *p = xmalloc(sizeof(ChartPoint) * (size_t)(n + 1));
	int *at = xmalloc(sizeof(int) * (size_t)(n + 1)); /* the row that draws each point */
	Buf *tips = xmalloc(sizeof(Buf) * (size_t)(n + 1));
	int *rows_at = xmalloc(sizeof(int) * (size_t)(n + 1));
	int np = 0, merged = 0;
	for (int i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			continue;
		int k = 0;
		while (k < np && !(x[at[k]] == x[i] && y[at[k]] == y[i]))
			k++;
		if (k == np) {
			at[np] = i;
			tips[np] = (Buf){0};
			rows_at[np] = 0;
			p[np++] = (ChartPoint){.x = x[i], .y = y[i]};
		} else {
			merged++;
		}
		buf_printf(&tips[k], "%s#%d %s", rows_at[k] ? "\n" : "", i + 1, cmp->rows[i].scenario);
		rows_at[k]++;
		p[k].mark |= cmp->rows[i].pareto;
	}
	/* The step line: the points no other beats on both axes (with more than two objectives a
	 * Pareto point can be beaten on these two). */
	for (int k = 0; k < np; k++) {
		p[k].front = true;
		for (int j = 0; j < np && p[k].front; j++)
			if (j != k && dominates2(cmp, x, y, at[j], at[k]))
				p[k].front = false;
	}
	char (*labels)[32] = xmalloc(sizeof *labels * (size_t)(np + 1));
	for (int k = 0; k < np; k++) {
		if (rows_at[k] > 1)
			snprintf(labels[k], sizeof labels[k], "#%d +%d", at[k] + 1, rows_at[k] - 1);
		else
			snprintf(labels[k], sizeof labels[k], "#%d", at[k] + 1);
		bool named = p[k].mark && rows_at[k] == 1 && strlen(cmp->rows[at[k]].scenario) <= 18;
		p[k].label = named ? cmp->rows[at[k]].scenario
			     : p[k].mark || np <= LABEL_ALL_MAX ? labels[k] : NULL;
		p[k].tip = tips[k].s;
	}
	Buf title = {0};
	buf_puts(&title, cmp->obj[1].label);
	buf_puts(&title, " against ");
	buf_puts(&title, cmp->obj[0].label);
	buf_puts(b, "<p>Each built scenario at its ");
	report_html_esc(b, cmp->obj[0].label);
	buf_puts(b, " (across) and ");
	report_html_esc(b, cmp->obj[1].label);
	buf_printf(b, " (up); filled: Pareto-optimal%s, labelled by name or by its number in the "
		      "table where the label has room%s. The dashed line is the frontier of these "
		      "two objectives.",
		   cmp->nobj > 2 ? " over all the objectives" : "",
		   np > LABEL_ALL_MAX ? " (the others unlabelled)" : "");
	if (merged)
		buf_printf(b, " %d row%s on the place of another (the same two values) %s drawn "
			      "once: \"#3 +2\" is row 3 and two more, which its tooltip names.",
			   merged, merged == 1 ? "" : "s", merged == 1 ? "is" : "are");
	buf_puts(b, "</p>\n");
	ChartScatter c = {title.s, cmp->obj[0].label, cmp->obj[1].label, p, np,
			  wants_log(x, n), wants_log(y, n), cmp->obj[0].maximize,
			  "Pareto-optimal", "dominated", 1240, 520};
	if (np)
		chart_scatter(b, &c);
	else
		buf_puts(b, "<p class=\"note\">No scenario built: nothing to plot.</p>\n");
	buf_free(&title);
	for (int k = 0; k < np; k++)
		buf_free(&tips[k]);
	free(tips);
	free(rows_at);
	free(labels);
	free(at);
	free(p);
	free(x);
	free(y);
	buf_puts(b, "</section>\n");
}

/* ---- sensitivity -------------------------------------------------------------------------- */

static void tornado(Buf *b, const Comparison *cmp, int i)
{
	const CompareRow *r = &cmp->rows[i];
	const Sensitivity *s = &r->sens;
	if (r->status || s->n == 0)
		return;
	int order[SENS_COUNT];
	for (int k = 0; k < s->n; k++) {
		int m = k;
		double swing = fabs(s->f[k].high - s->f[k].low);
		while (m > 0 && fabs(s->f[order[m - 1]].high - s->f[order[m - 1]].low) < swing) {
			order[m] = order[m - 1];
			m--;
		}
		order[m] = k;
	}
	char text[SENS_COUNT][96];
	const char *labels[SENS_COUNT];
	double lo[SENS_COUNT], hi[SENS_COUNT];
	for (int k = 0; k < s->n; k++) {
		const SensFactor *f = &s->f[order[k]];
		if (f->kind == SENS_UTILIZATION)
			snprintf(text[k], sizeof text[k], "%s %.2f to %.2f", finance_sens_labels[f->kind],
				 f->low_input, f->high_input);
		else
			snprintf(text[k], sizeof text[k], "%s x%g to x%g", finance_sens_labels[f->kind],
				 f->low_input, f->high_input);
		labels[k] = text[k];
		lo[k] = f->low;
		hi[k] = f->high;
	}
	Buf t = {0};
	if (s->workload)
		buf_printf(&t, "cost per trained model of %s, failures included", s->workload);
	else
		buf_puts(&t, "cost per GPU-hour");
	buf_puts(b, "<h3>");
	row_ref(b, cmp, i);
	buf_puts(b, ": ");
	report_html_esc(b, t.s);
	buf_printf(b, " (%s)</h3>\n", cmp->currency ? cmp->currency : "");
	ChartTornado c = {t.s, cmp->currency, s->workload ? 0 : 4, s->base, labels, lo, hi, s->n,
			  "at the low end of the input", "at the high end", 1240};
	chart_tornado(b, &c);
	buf_free(&t);
}

static void sensitivity(Buf *b, const Comparison *cmp)
{
	int best = compare_best(cmp, 0);
	bool any = (cmp->rows[0].status == 0 && cmp->rows[0].sens.n) ||
		   (best >= 0 && cmp->rows[best].sens.n);
	if (!any)
		return;
	report_html_section(b, "sensitivity", "Sensitivity");
	buf_puts(b, "<p>How the cost moves when one input moves and every other stays as designed: "
		    "hardware prices and electricity 20 % down and up, utilization 0.15 down and up, "
		    "failure rates halved and doubled (docs/models.md, \"Sensitivity\"). The widest "
		    "bar is the input the decision depends on most.</p>\n");
	tornado(b, cmp, 0);
	if (best > 0)
		tornado(b, cmp, best);
	buf_puts(b, "</section>\n");
}

/* "#3 electricity=0.35 CNY/kWh, cool…": a bar's label, short enough for the chart's margin
 * (at most 30 characters, cut at a UTF-8 boundary); malloc'ed. */
static char *short_label(int i, const char *name)
{
	Buf t = {0};
	buf_printf(&t, "#%d %s", i + 1, name);
	if (t.len > 30) {
		size_t cut = 29;
		while (cut > 0 && (t.s[cut] & 0xC0) == 0x80)
			cut--;
		t.len = cut;
		buf_puts(&t, "\xe2\x80\xa6");
	}
	return t.s;
}

static void compare_bars(Buf *b, const Comparison *cmp)
{
	const char **labels = xmalloc(sizeof(char *) * (size_t)(cmp->nrows + 1));
	double *v = xmalloc(sizeof(double) * (size_t)(2 * cmp->nrows + 1));
	int n = 0;
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		if (r->status)
			continue;
		labels[n] = short_label(i, r->scenario);
		v[2 * n] = r->capex;
		v[2 * n + 1] = r->annual_energy_cost;
		n++;
	}
	report_html_section(b, "money", "Capex and energy cost");
	if (n) {
		ChartPanel p[2] = {{"capex", cmp->currency, -1, 0},
				   {"energy cost per year", cmp->currency, -1, 0}};
		ChartBars c = {"Capex and annual energy cost per scenario", labels, n, p, 2, v, 0, 0};
		chart_hbars(b, &c);
	} else {
		buf_puts(b, "<p class=\"note\">No scenario built.</p>\n");
	}
	buf_puts(b, "</section>\n");
	for (int i = 0; i < n; i++)
		free((char *)labels[i]);
	free(labels);
	free(v);
}

static void compare_choices(Buf *b, const Comparison *cmp)
{
	bool any = false;
	for (int i = 0; i < cmp->nrows; i++)
		any |= cmp->rows[i].status == 0 && cmp->rows[i].decisions > 0;
	if (!any)
		return;
	report_html_section(b, "choices", "Choices made");
	buf_puts(b, "<table>\n<tr>");
	report_html_th(b, "scenario", false);
	report_html_th(b, "open choices decided", false);
	buf_puts(b, "</tr>\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		if (r->status || !r->decisions)
			continue;
		buf_puts(b, "<tr><td><code>");
		report_html_esc(b, r->scenario);
		buf_puts(b, "</code></td><td>");
		for (int k = 0; k < r->decisions; k++) {
			buf_puts(b, k ? ", <code>" : "<code>");
			report_html_esc(b, r->chosen[k]);
			buf_puts(b, "</code>");
		}
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</table>\n</section>\n");
}

int compare_html_write(Output *o, const Comparison *cmp)
{
	FILE *f = output_file(o, "report.html");
	if (!f)
		return 1;
	Buf b = {0}, title = {0};
	buf_puts(&title, "clusterc comparison: ");
	buf_puts(&title, cmp->spec ? cmp->spec : "");
	report_html_page_start(&b, title.s, compare_css);
	buf_free(&title);
	int built = 0;
	for (int i = 0; i < cmp->nrows; i++)
		built += cmp->rows[i].status == 0;
	buf_printf(&b, "<p class=\"sub\">%d scenario%s", cmp->nrows, cmp->nrows == 1 ? "" : "s");
	if (cmp->sweep) {
		buf_puts(&b, " from the sweep <code>");
		report_html_esc(&b, cmp->sweep);
		buf_puts(&b, "</code>");
	}
	buf_printf(&b, ", %d built. Money in ", built);
	report_html_esc(&b, cmp->currency ? cmp->currency : "");
	buf_puts(&b, " (indicative prices); power at peak; energy per year at the site's "
		     "utilization.</p>\n</header>\n");
	const char **wn;
	int nw = compare_workloads(cmp, &wn);
	glance(&b, cmp);
	frontier_deltas(&b, cmp, wn, nw);
	compare_table(&b, cmp, wn, nw);
	compare_scatter(&b, cmp);
	sensitivity(&b, cmp);
	compare_bars(&b, cmp);
	compare_choices(&b, cmp);
	free(wn);
	report_html_page_end(&b, "The same numbers are in comparison.json (for programs), comparison.csv and "
			  "comparison.md.");
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	return output_close(o, f);
}
