/*
 * compare.c — `clusterc compare`'s files: comparison.csv, comparison.json and comparison.md,
 * one row per scenario (the base design first), and the Pareto frontier over the objectives.
 *
 * A row travels as JSON twice: from the process that built its scenario to the one that writes
 * the files (compare_row_json, compare_row_read), and into comparison.json. Both use the same
 * names and units as report.json's totals (kW, kWh, money with two decimals) and workloads
 * (days, MWh), so the numbers of a comparison and of the build of the same scenario agree to
 * the digit. Pareto dominance is decided on these rounded values: what the files show.
 */
#include "backends.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { MONEY = 2, KW = 3, KWH = 3, DAYS = 4, MWH = 3, RATIO = 4 };

/* ---- objectives ------------------------------------------------------------------------------ */

/* The row columns an objective can name: base-unit value, label, unit scale, maximized. */
static const struct {
	const char *name, *label;
	double scale;
	bool maximize;
	size_t off;
} columns[] = {
	{"capex", "capex", 1, false, offsetof(CompareRow, capex)},
	{"tco", "TCO", 1, false, offsetof(CompareRow, tco)},
	{"annual_energy_cost", "annual energy cost", 1, false,
	 offsetof(CompareRow, annual_energy_cost)},
	{"net_present_cost", "net present cost", 1, false, offsetof(CompareRow, net_present_cost)},
	{"annual_cost", "equivalent annual cost", 1, false, offsetof(CompareRow, annual_cost)},
	{"cost_per_gpu_hour", "cost per GPU-hour", 1, false, offsetof(CompareRow, per_gpu_hour)},
	{"cost_per_pflop_day", "cost per PFLOP-day", 1, false, offsetof(CompareRow, per_pflop_day)},
	{"annual_energy", "annual energy (MWh)", 1 / 3.6e9, false, offsetof(CompareRow, annual_energy)},
	{"facility_power", "facility power (MW)", 1e-6, false, offsetof(CompareRow, facility_power)},
	{"it_power", "IT power (MW)", 1e-6, false, offsetof(CompareRow, it_power)},
	{"accelerators", "accelerators", 1, true, offsetof(CompareRow, accelerators)},
	{"nodes", "nodes", 1, false, offsetof(CompareRow, nodes)},
	{"racks", "racks", 1, false, offsetof(CompareRow, racks)},
	{"switches", "switches", 1, false, offsetof(CompareRow, switches)},
	{"cables", "cables", 1, false, offsetof(CompareRow, cables)},
	{"job_mtbf", "job MTBF (h)", 1 / 3600.0, true, offsetof(CompareRow, job_mtbf)},
};
enum { NCOLUMNS = sizeof columns / sizeof columns[0], NMONEY = 7 /* the first, in currency */ };

/* Per-workload objectives, written KIND:WORKLOAD. */
static const struct {
	const char *kind, *label;
	double scale;
	bool maximize, money;
} wkinds[] = {
	{"time_to_train", "time to train (days)", 1 / 86400.0, false, false},
	{"energy_to_train", "energy to train (MWh)", 1 / 3.6e9, false, false},
	{"cost_to_train", "energy cost to train", 1, false, true},
	{"mfu", "MFU", 1, true, false},
	{"effective_time_to_train", "effective time to train (days)", 1 / 86400.0, false, false},
	{"goodput", "goodput", 1, true, false},
	{"cost_per_trained_model", "cost per trained model", 1, false, true},
};
enum { NWKINDS = sizeof wkinds / sizeof wkinds[0] };

bool compare_objective(Arena *a, const char *name, const char *currency, CompareObjective *out)
{
	for (int i = 0; i < NCOLUMNS; i++)
		if (!strcmp(name, columns[i].name)) {
			bool money = i < NMONEY;
			*out = (CompareObjective){
				arena_strdup(a, name),
				money ? arena_printf(a, "%s (%s)", columns[i].label, currency)
				      : columns[i].label,
				columns[i].scale, columns[i].maximize};
			return true;
		}
	const char *colon = strchr(name, ':');
	if (!colon || !colon[1])
		return false;
	for (int i = 0; i < NWKINDS; i++)
		if (strlen(wkinds[i].kind) == (size_t)(colon - name) &&
		    !strncmp(name, wkinds[i].kind, (size_t)(colon - name))) {
			const char *label = wkinds[i].money ? arena_printf(a, "%s %s (%s)", colon + 1,
									   wkinds[i].label, currency)
							    : arena_printf(a, "%s %s", colon + 1,
									   wkinds[i].label);
			*out = (CompareObjective){arena_strdup(a, name), label, wkinds[i].scale,
						  wkinds[i].maximize};
			return true;
		}
	return false;
}

const char *compare_objective_names(void)
{
	return "capex, tco, annual_energy_cost, net_present_cost, annual_cost, cost_per_gpu_hour, "
	       "cost_per_pflop_day, annual_energy, facility_power, it_power, "
	       "accelerators, nodes, racks, switches, cables, job_mtbf, or time_to_train:W, "
	       "energy_to_train:W, cost_to_train:W, mfu:W, effective_time_to_train:W, goodput:W, "
	       "cost_per_trained_model:W for a workload W";
}

const CompareWorkload *compare_workload(const CompareRow *r, const char *name)
{
	for (int i = 0; i < r->nw; i++)
		if (!strcmp(r->w[i].name, name))
			return &r->w[i];
	return NULL;
}

double compare_value(const Comparison *cmp, const CompareRow *r, int k)
{
	const char *name = cmp->obj[k].name;
	if (r->status != 0)
		return NAN;
	for (int i = 0; i < NCOLUMNS; i++)
		if (!strcmp(name, columns[i].name))
			return *(const double *)((const char *)r + columns[i].off);
	const char *colon = strchr(name, ':');
	const CompareWorkload *w = colon ? compare_workload(r, colon + 1) : NULL;
	if (!w)
		return NAN;
	size_t n = (size_t)(colon - name);
	if (!strncmp(name, "time_to_train", n))
		return w->time_to_train;
	if (!strncmp(name, "energy_to_train", n))
		return w->energy_to_train;
	if (!strncmp(name, "cost_to_train", n))
		return w->cost_to_train;
	if (!strncmp(name, "effective_time_to_train", n))
		return w->effective_time;
	if (!strncmp(name, "goodput", n))
		return w->goodput;
	if (!strncmp(name, "cost_per_trained_model", n))
		return w->cost_per_model;
	return w->mfu;
}

/* a dominates b: at least as good on every objective, better on one. A value that is not
 * finite (a workload no plan fits) is worse than any finite one. */
static bool dominates(const Comparison *cmp, const CompareRow *a, const CompareRow *b)
{
	bool better = false;
	for (int k = 0; k < cmp->nobj; k++) {
		double x = compare_value(cmp, a, k), y = compare_value(cmp, b, k);
		if (cmp->obj[k].maximize)
			x = -x, y = -y;
		bool fx = isfinite(x), fy = isfinite(y);
		if (fx && fy) {
			if (x > y)
				return false;
			better |= x < y;
		} else if (!fx && fy) {
			return false;
		} else if (fx && !fy) {
			better = true;
		}
	}
	return better;
}

/* The built row best on objective k (the first of equals), or -1. */
int compare_best(const Comparison *cmp, int k)
{
	int best = -1;
	for (int i = 0; i < cmp->nrows; i++) {
		if (cmp->rows[i].status)
			continue;
		double v = compare_value(cmp, &cmp->rows[i], k);
		if (!isfinite(v))
			continue;
		double bv = best >= 0 ? compare_value(cmp, &cmp->rows[best], k) : NAN;
		if (best < 0 || (cmp->obj[k].maximize ? v > bv : v < bv))
			best = i;
	}
	return best;
}

void compare_pareto(Comparison *cmp)
{
	for (int i = 0; i < cmp->nrows; i++) {
		CompareRow *r = &cmp->rows[i];
		r->pareto = r->status == 0;
		for (int j = 0; r->pareto && j < cmp->nrows; j++)
			if (j != i && cmp->rows[j].status == 0 && dominates(cmp, &cmp->rows[j], r))
				r->pareto = false;
	}
}

/* ---- a row as JSON, both ways ------------------------------------------------------------- */

Json *compare_row_json(const CompareRow *r)
{
	Json *o = jw_object();
	jw_set(o, "scenario", jw_str(r->scenario));
	jw_set(o, "sets", jw_str(r->sets));
	jw_set(o, "status", jw_int(r->status));
	jw_set(o, "why", jw_str(r->why));
	jw_set(o, "pareto", jw_bool(r->pareto));
	jw_set(o, "accelerators", jw_count(r->accelerators));
	jw_set(o, "nodes", jw_count(r->nodes));
	jw_set(o, "racks", jw_count(r->racks));
	jw_set(o, "switches", jw_count(r->switches));
	jw_set(o, "cables", jw_count(r->cables));
	jw_set(o, "it_power_kw", jw_real(r->it_power / 1e3, KW));
	jw_set(o, "facility_power_kw", jw_real(r->facility_power / 1e3, KW));
	jw_set(o, "capex", jw_real(r->capex, MONEY));
	jw_set(o, "annual_energy_kwh", jw_real(r->annual_energy / J_PER_KWH, KWH));
	jw_set(o, "annual_energy_cost", jw_real(r->annual_energy_cost, MONEY));
	jw_set(o, "tco", jw_real(r->tco, MONEY));
	jw_set(o, "tco_years", jw_real(r->tco_years, 3));
	Json *ws = jw_array();
	for (int i = 0; i < r->nw; i++) {
		const CompareWorkload *w = &r->w[i];
		Json *x = jw_object();
		jw_set(x, "name", jw_str(w->name));
		jw_set(x, "gpus", jw_count(w->gpus));
		jw_set(x, "time_to_train_days", jw_real(w->time_to_train / 86400, DAYS));
		jw_set(x, "energy_to_train_mwh", jw_real(w->energy_to_train / 3.6e9, MWH));
		jw_set(x, "energy_to_train_cost", jw_real(w->cost_to_train, MONEY));
		jw_set(x, "mfu", jw_real(w->mfu, RATIO));
		jw_set(x, "goodput", jw_real(w->goodput, RATIO));
		jw_set(x, "effective_days", jw_real(w->effective_time / 86400, DAYS));
		jw_set(x, "cost_per_trained_model", jw_real(w->cost_per_model, MONEY));
		jw_push(ws, x);
	}
	jw_set(o, "workloads", ws);
	Json *ch = jw_array();
	for (int i = 0; i < r->decisions; i++)
		jw_push(ch, jw_str(r->chosen[i]));
	jw_set(o, "chosen", ch);
	/* The financial model and the normalised figures (docs/reports.md), after the contract's. */
	jw_set(o, "net_present_cost", jw_real(r->net_present_cost, MONEY));
	jw_set(o, "equivalent_annual_cost", jw_real(r->annual_cost, MONEY));
	jw_set(o, "cost_per_gpu_hour", jw_real(r->per_gpu_hour, RATIO));
	jw_set(o, "cost_per_pflop_day", jw_real(r->per_pflop_day, MONEY));
	jw_set(o, "peak_pflops", jw_real(r->peak_compute / 1e15, 3));
	jw_set(o, "job_mtbf_h", jw_real(r->job_mtbf / 3600, RATIO));
	jw_set(o, "sensitivity", report_sensitivity_json(&r->sens));
	jw_set(o, "violations", r->violations ? jw_copy(r->violations) : jw_array());
	jw_set(o, "decisions", r->decisions_json ? jw_copy(r->decisions_json) : jw_array());
	return o;
}

void compare_row_free(CompareRow *r)
{
	if (r->violations)
		jw_free(r->violations);
	if (r->decisions_json)
		jw_free(r->decisions_json);
	r->violations = r->decisions_json = NULL;
}

static const char *str_copy(Arena *a, const Json *o, const char *key)
{
	const char *s = jw_get_str(o, key);
	return arena_strdup(a, s ? s : "");
}

void compare_row_read(Arena *a, const Json *o, CompareRow *r)
{
	*r = (CompareRow){0};
	r->scenario = str_copy(a, o, "scenario");
	r->sets = str_copy(a, o, "sets");
	double status = jw_get_real(o, "status");
	/* An exit status, 0 to 255: anything else (1e300 does not fit an int) is not one. */
	r->status = status >= 0 && status <= 255 ? (int)status : EXIT_INTERNAL;
	r->why = str_copy(a, o, "why");
	r->accelerators = jw_get_real(o, "accelerators");
	r->nodes = jw_get_real(o, "nodes");
	r->racks = jw_get_real(o, "racks");
	r->switches = jw_get_real(o, "switches");
	r->cables = jw_get_real(o, "cables");
	r->it_power = jw_get_real(o, "it_power_kw") * 1e3;
	r->facility_power = jw_get_real(o, "facility_power_kw") * 1e3;
	r->capex = jw_get_real(o, "capex");
	r->annual_energy = jw_get_real(o, "annual_energy_kwh") * J_PER_KWH;
	r->annual_energy_cost = jw_get_real(o, "annual_energy_cost");
	r->tco = jw_get_real(o, "tco");
	r->tco_years = jw_get_real(o, "tco_years");
	const Json *ws = jw_get(o, "workloads");
	r->nw = (int)jw_len(ws);
	r->w = arena_alloc(a, sizeof *r->w * (size_t)(r->nw + 1));
	for (int i = 0; i < r->nw; i++) {
		const Json *x = jw_at(ws, (size_t)i);
		r->w[i] = (CompareWorkload){
			str_copy(a, x, "name"), jw_get_real(x, "gpus"),
			jw_get_real(x, "time_to_train_days") * 86400,
			jw_get_real(x, "energy_to_train_mwh") * 3.6e9,
			jw_get_real(x, "energy_to_train_cost"), jw_get_real(x, "mfu"),
			jw_get_real(x, "goodput"), jw_get_real(x, "effective_days") * 86400,
			jw_get_real(x, "cost_per_trained_model")};
	}
	r->net_present_cost = jw_get_real(o, "net_present_cost");
	r->annual_cost = jw_get_real(o, "equivalent_annual_cost");
	r->per_gpu_hour = jw_get_real(o, "cost_per_gpu_hour");
	r->per_pflop_day = jw_get_real(o, "cost_per_pflop_day");
	r->peak_compute = jw_get_real(o, "peak_pflops") * 1e15;
	r->job_mtbf = jw_get_real(o, "job_mtbf_h") * 3600;
	report_sensitivity_read(a, jw_get(o, "sensitivity"), &r->sens);
	const Json *v = jw_get(o, "violations"), *dj = jw_get(o, "decisions");
	r->violations = v && jw_len(v) ? jw_copy(v) : NULL;
	r->decisions_json = dj && jw_len(dj) ? jw_copy(dj) : NULL;
	const Json *ch = jw_get(o, "chosen");
	r->decisions = (int)jw_len(ch);
	r->chosen = arena_alloc(a, sizeof *r->chosen * (size_t)(r->decisions + 1));
	for (int i = 0; i < r->decisions; i++) {
		const char *s = jw_string(jw_at(ch, (size_t)i));
		r->chosen[i] = arena_strdup(a, s ? s : "");
	}
}

/* ---- the workloads of a comparison: the union of the rows', in order of first sight -------- */

int compare_workloads(const Comparison *cmp, const char ***out)
{
	int n = 0, cap = 0;
	for (int i = 0; i < cmp->nrows; i++)
		cap += cmp->rows[i].nw;
	const char **v = xmalloc(sizeof *v * (size_t)(cap + 1));
	for (int i = 0; i < cmp->nrows; i++)
		for (int j = 0; j < cmp->rows[i].nw; j++) {
			const char *name = cmp->rows[i].w[j].name;
			bool seen = false;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(v[k], name);
			if (!seen)
				v[n++] = name;
		}
	*out = v;
	return n;
}

/* ---- comparison.csv ----------------------------------------------------------------------- */

static void csv_num(Buf *b, double x, int decimals)
{
	buf_putc(b, ',');
	if (isfinite(x))
		text_fixed(b, x, decimals);
}

int compare_csv_write(Output *o, const Comparison *cmp)
{
	FILE *f = output_file(o, "comparison.csv");
	if (!f)
		return 1;
	const char **wn;
	int nw = compare_workloads(cmp, &wn);
	Buf b = {0};
	buf_puts(&b, "scenario,status,pareto,accelerators,nodes,racks,switches,cables,it_power_kw,"
		     "facility_power_kw,capex,annual_energy_kwh,annual_energy_cost,tco,tco_years,"
		     "currency");
	for (int j = 0; j < nw; j++)
		for (int k = 0; k < 6; k++) {
			static const char *const col[] = {"time_to_train_days", "energy_to_train_mwh",
							  "energy_to_train_cost", "mfu", "goodput",
							  "effective_days"};
			Buf h = {0};
			buf_printf(&h, "%s.%s", wn[j], col[k]);
			buf_putc(&b, ',');
			text_csv_field(&b, h.s);
			buf_free(&h);
		}
	buf_puts(&b, ",sets,chosen,why,net_present_cost,equivalent_annual_cost,cost_per_gpu_hour,"
		     "cost_per_pflop_day,peak_pflops,capex_per_gpu,capex_per_pflops");
	for (int j = 0; j < nw; j++)
		for (int k = 0; k < 2; k++) {
			Buf h = {0};
			buf_printf(&h, "%s.%s", wn[j], k ? "cost_per_trained_model" : "gpus");
			buf_putc(&b, ',');
			text_csv_field(&b, h.s);
			buf_free(&h);
		}
	buf_puts(&b, ",job_mtbf_h\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		text_csv_field(&b, r->scenario);
		buf_printf(&b, ",%d,%s", r->status, r->pareto ? "yes" : "no");
		csv_num(&b, r->accelerators, 0);
		csv_num(&b, r->nodes, 0);
		csv_num(&b, r->racks, 0);
		csv_num(&b, r->switches, 0);
		csv_num(&b, r->cables, 0);
		csv_num(&b, r->it_power / 1e3, KW);
		csv_num(&b, r->facility_power / 1e3, KW);
		csv_num(&b, r->capex, MONEY);
		csv_num(&b, r->annual_energy / J_PER_KWH, KWH);
		csv_num(&b, r->annual_energy_cost, MONEY);
		csv_num(&b, r->tco, MONEY);
		csv_num(&b, r->tco_years, 3);
		buf_putc(&b, ',');
		text_csv_field(&b, cmp->currency);
		for (int j = 0; j < nw; j++) {
			const CompareWorkload *w = r->status == 0 ? compare_workload(r, wn[j]) : NULL;
			csv_num(&b, w ? w->time_to_train / 86400 : NAN, DAYS);
			csv_num(&b, w ? w->energy_to_train / 3.6e9 : NAN, MWH);
			csv_num(&b, w ? w->cost_to_train : NAN, MONEY);
			csv_num(&b, w ? w->mfu : NAN, RATIO);
			csv_num(&b, w ? w->goodput : NAN, RATIO);
			csv_num(&b, w ? w->effective_time / 86400 : NAN, DAYS);
		}
		buf_putc(&b, ',');
		text_csv_field(&b, r->sets);
		Buf ch = {0};
		for (int k = 0; k < r->decisions; k++)
			buf_printf(&ch, "%s%s", k ? "; " : "", r->chosen[k]);
		buf_putc(&b, ',');
		text_csv_field(&b, ch.s ? ch.s : "");
		buf_free(&ch);
		buf_putc(&b, ',');
		text_csv_field(&b, r->why);
		/* The financial model and the normalised columns, after the first version's. */
		csv_num(&b, r->net_present_cost, MONEY);
		csv_num(&b, r->annual_cost, MONEY);
		csv_num(&b, r->per_gpu_hour, RATIO);
		csv_num(&b, r->per_pflop_day, MONEY);
		csv_num(&b, r->peak_compute / 1e15, 3);
		csv_num(&b, r->accelerators > 0 ? r->capex / r->accelerators : NAN, MONEY);
		csv_num(&b, r->peak_compute > 0 ? r->capex / (r->peak_compute / 1e15) : NAN, MONEY);
		for (int j = 0; j < nw; j++) {
			const CompareWorkload *w = r->status == 0 ? compare_workload(r, wn[j]) : NULL;
			csv_num(&b, w ? w->gpus : NAN, 0);
			csv_num(&b, w ? w->cost_per_model : NAN, MONEY);
		}
		/* The cluster's job MTBF, after the columns of earlier versions. */
		csv_num(&b, r->job_mtbf / 3600, RATIO);
		buf_putc(&b, '\n');
	}
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	free(wn);
	return output_close(o, f);
}

/* ---- comparison.json ---------------------------------------------------------------------- */

int compare_json_write(Output *o, const Comparison *cmp)
{
	FILE *f = output_file(o, "comparison.json");
	if (!f)
		return 1;
	Json *root = jw_object();
	jw_set(root, "schema", jw_str("clusterc.comparison/1"));
	jw_set(root, "spec", jw_str(cmp->spec));
	jw_set(root, "sweep", jw_str(cmp->sweep));
	jw_set(root, "currency", jw_str(cmp->currency));
	Json *objs = jw_array();
	for (int k = 0; k < cmp->nobj; k++) {
		Json *x = jw_object();
		jw_set(x, "name", jw_str(cmp->obj[k].name));
		jw_set(x, "sense", jw_str(cmp->obj[k].maximize ? "maximize" : "minimize"));
		jw_push(objs, x);
	}
	jw_set(root, "objectives", objs);
	Json *rows = jw_array();
	for (int i = 0; i < cmp->nrows; i++)
		jw_push(rows, compare_row_json(&cmp->rows[i]));
	jw_set(root, "rows", rows);
	Json *front = jw_array();
	for (int i = 0; i < cmp->nrows; i++)
		if (cmp->rows[i].pareto)
			jw_push(front, jw_str(cmp->rows[i].scenario));
	jw_set(root, "pareto", front);
	jw_write(f, root);
	return output_close(o, f);
}

/* ---- comparison.md ------------------------------------------------------------------------ */

static void md_num(Buf *b, double x, int decimals)
{
	buf_puts(b, " | ");
	text_number(b, x, decimals, false);
}

static void md_money(Buf *b, double x)
{
	buf_puts(b, " | ");
	if (isfinite(x))
		text_money(b, round(x));
	else
		buf_putc(b, '-');
}

/* The best row on each objective and how far it is from the base design (row 1). */
static void md_glance(Buf *b, const Comparison *cmp)
{
	buf_puts(b, "\n## At a glance\n\n| objective | best scenario | its value | against the base |\n"
		    "|---|---|--:|--:|\n");
	const CompareRow *base = cmp->rows[0].status == 0 ? &cmp->rows[0] : NULL;
	for (int k = 0; k < cmp->nobj; k++) {
		int i = compare_best(cmp, k);
		buf_puts(b, "| ");
		text_md_cell(b, cmp->obj[k].label);
		buf_puts(b, cmp->obj[k].maximize ? " (higher is better) | " : " (lower is better) | ");
		if (i < 0) {
			buf_puts(b, "none built | | |\n");
			continue;
		}
		double v = compare_value(cmp, &cmp->rows[i], k) * cmp->obj[k].scale;
		buf_printf(b, "#%d ", i + 1);
		text_md_cell(b, cmp->rows[i].scenario);
		buf_puts(b, " | ");
		text_number(b, v, 4, false);
		buf_puts(b, " | ");
		double bv = base ? compare_value(cmp, base, k) * cmp->obj[k].scale : NAN;
		if (isfinite(bv) && isfinite(v)) {
			buf_puts(b, v >= bv ? "+" : "-");
			text_number(b, fabs(v - bv), 4, false);
			if (bv != 0) {
				buf_puts(b, " (");
				text_number(b, 100 * fabs(v - bv) / fabs(bv), 1, false);
				buf_puts(b, " %)");
			}
		} else {
			buf_putc(b, '-');
		}
		buf_puts(b, " |\n");
	}
}

int compare_md_write(Output *o, const Comparison *cmp)
{
	FILE *f = output_file(o, "comparison.md");
	if (!f)
		return 1;
	const char **wn;
	int nw = compare_workloads(cmp, &wn);
	Buf b = {0};
	int built = 0;
	for (int i = 0; i < cmp->nrows; i++)
		built += cmp->rows[i].status == 0;
	/* Text from the spec, the sweep or the command line as cells and code spans (text.c). */
	buf_puts(&b, "# Comparison: ");
	text_md_cell(&b, cmp->spec);
	buf_printf(&b, "\n\n%d scenario%s%s", cmp->nrows, cmp->nrows == 1 ? "" : "s",
		   cmp->sweep ? " from the sweep " : "");
	text_md_cell(&b, cmp->sweep ? cmp->sweep : "");
	buf_printf(&b, ", %d built. Money in %s (indicative prices); power at peak; "
		       "energy per year at the site's utilization.\n\n",
		   built, cmp->currency);
	const char *cur = cmp->currency;
	buf_printf(&b, "| scenario | accelerators | racks | switches | facility MW | capex (%s) | "
		       "energy cost / year (%s) | TCO (%s) | capex / GPU (%s) | cost / GPU-h (%s) | "
		       "job MTBF (h)",
		   cur, cur, cur, cur, cur);
	for (int j = 0; j < nw; j++) {
		buf_puts(&b, " | ");
		text_md_cell(&b, wn[j]);
		buf_puts(&b, " days | ");
		text_md_cell(&b, wn[j]);
		buf_puts(&b, " GPUs | ");
		text_md_cell(&b, wn[j]);
		buf_printf(&b, " cost / model (%s)", cur);
	}
	buf_puts(&b, " | Pareto |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:");
	for (int j = 0; j < nw; j++)
		buf_puts(&b, "|--:|--:|--:");
	buf_puts(&b, "|:-:|\n");
	for (int i = 0; i < cmp->nrows; i++) {
		const CompareRow *r = &cmp->rows[i];
		buf_puts(&b, "| ");
		text_md_cell(&b, r->scenario);
		if (r->status != 0) {
			buf_printf(&b, " | not built (exit %d)", r->status);
			for (int j = 0; j < 10 + 3 * nw; j++)
				buf_puts(&b, " |");
			buf_puts(&b, " |\n");
			continue;
		}
		md_num(&b, r->accelerators, 0);
		md_num(&b, r->racks, 0);
		md_num(&b, r->switches, 0);
		md_num(&b, r->facility_power / 1e6, 2);
		md_money(&b, r->capex);
		md_money(&b, r->annual_energy_cost);
		md_money(&b, r->tco);
		md_money(&b, r->accelerators > 0 ? r->capex / r->accelerators : NAN);
		md_num(&b, r->per_gpu_hour, 2);
		/* a job on every accelerator; "-" when nothing fails (the JSON's null) */
		md_num(&b, r->job_mtbf / 3600, 2);
		for (int j = 0; j < nw; j++) {
			const CompareWorkload *w = compare_workload(r, wn[j]);
			/* enough places that two rows the frontier tells apart print apart */
			md_num(&b, w ? w->time_to_train / 86400 : NAN, DAYS);
			md_num(&b, w ? w->gpus : NAN, 0);
			md_money(&b, w ? w->cost_per_model : NAN);
		}
		buf_printf(&b, " | %s |\n", r->pareto ? "yes" : "");
	}
	md_glance(&b, cmp);
	buf_puts(&b, "\nPareto: no other scenario is at least as good on every one of ");
	for (int k = 0; k < cmp->nobj; k++)
		buf_printf(&b, "%s%s (%s)", k == 0 ? "" : k == cmp->nobj - 1 ? " and " : ", ",
			   cmp->obj[k].name, cmp->obj[k].maximize ? "higher is better" : "lower is better");
	buf_puts(&b, " and better on one.\n");
	bool any_sets = false, any_failed = false, any_chosen = false;
	for (int i = 0; i < cmp->nrows; i++) {
		any_sets |= cmp->rows[i].sets[0] != 0;
		any_failed |= cmp->rows[i].status != 0;
		any_chosen |= cmp->rows[i].decisions > 0;
	}
	if (any_sets) {
		buf_puts(&b, "\n## Overrides\n\n");
		for (int i = 0; i < cmp->nrows; i++)
			if (cmp->rows[i].sets[0]) {
				buf_puts(&b, "- ");
				text_md_cell(&b, cmp->rows[i].scenario);
				buf_puts(&b, ": ");
				text_md_code(&b, cmp->rows[i].sets);
				buf_putc(&b, '\n');
			}
	}
	if (any_chosen) {
		buf_puts(&b, "\n## Choices made\n\n");
		for (int i = 0; i < cmp->nrows; i++) {
			const CompareRow *r = &cmp->rows[i];
			if (!r->decisions)
				continue;
			buf_puts(&b, "- ");
			text_md_cell(&b, r->scenario);
			buf_putc(&b, ':');
			for (int k = 0; k < r->decisions; k++) {
				buf_puts(&b, k ? ", " : " ");
				text_md_code(&b, r->chosen[k]);
			}
			buf_putc(&b, '\n');
		}
	}
	if (any_failed) {
		buf_puts(&b, "\n## Not built\n\n");
		for (int i = 0; i < cmp->nrows; i++)
			if (cmp->rows[i].status != 0) {
				buf_puts(&b, "- ");
				text_md_cell(&b, cmp->rows[i].scenario);
				buf_printf(&b, " (exit %d): ", cmp->rows[i].status);
				text_md_cell(&b, cmp->rows[i].why);
				buf_putc(&b, '\n');
			}
	}
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	free(wn);
	return output_close(o, f);
}
