/*
 * report_json.c — report.json, the machine-readable summary that pipelines rely on (PRODUCT
 * §7, schema "clusterc.report/1"). Keys, nesting and order are the contract's; keys this file
 * adds come after the contract's keys of the same object, or (for "decisions") next to the
 * part of the contract they explain:
 *   totals.carbon_t_per_year       when the site gives a carbon intensity
 *   power_kw_by_category.storage, .other
 *   capex_by_category.power, .storage, .other
 *   decisions                      after "optimizer": what was chosen for each open choice,
 *                                  from how many options, and the runner-up when known
 *
 * Units are the ones the keys name: kW and kWh (3 decimals), money in the report currency
 * (2 decimals), t, days, ms. Counts are integers; every other number is a JSON real, so a
 * consumer sees the same type whatever the value. Numbers that are unknown are null.
 */
#include "backends.h"

#include <math.h>

enum { KW_DECIMALS = 3, KWH_DECIMALS = 3, MONEY_DECIMALS = 2, RATIO_DECIMALS = 4 };

#define REPORT_SCHEMA "clusterc.report/1"

static const double J_PER_KWH = 3.6e6;

static Json *kw(double watts)
{
	return jw_real(watts / 1e3, KW_DECIMALS);
}

static Json *money(double x)
{
	return jw_real(x, MONEY_DECIMALS);
}

static Json *totals_json(const Totals *t)
{
	Json *o = jw_object();
	jw_set(o, "accelerators", jw_count(t->accelerators));
	jw_set(o, "nodes", jw_count(t->nodes));
	jw_set(o, "racks", jw_count(t->racks));
	jw_set(o, "switches", jw_count(t->switches));
	jw_set(o, "cables", jw_count(t->cables));
	jw_set(o, "it_power_kw", kw(t->it_power));
	jw_set(o, "facility_power_kw", kw(t->facility_power));
	jw_set(o, "pue", jw_real(t->pue, RATIO_DECIMALS));
	jw_set(o, "capex", money(t->capex));
	jw_set(o, "annual_energy_kwh", jw_real(t->annual_energy / J_PER_KWH, KWH_DECIMALS));
	jw_set(o, "annual_energy_cost", money(t->annual_energy_cost));
	jw_set(o, "tco", money(t->tco));
	jw_set(o, "tco_years", jw_real(t->horizon_years, 3));
	if (!isnan(t->annual_carbon))
		jw_set(o, "carbon_t_per_year", jw_real(t->annual_carbon / 1e3, 3));
	return o;
}

static Json *power_json(const Totals *t)
{
	Json *o = jw_object();
	jw_set(o, "nodes", kw(t->power_by_cat[CAT_NODES]));
	jw_set(o, "network", kw(t->power_by_cat[CAT_NETWORK]));
	jw_set(o, "cooling", kw(t->facility_power - t->it_power));
	jw_set(o, "storage", kw(t->power_by_cat[CAT_STORAGE]));
	jw_set(o, "other", kw(t->power_by_cat[CAT_OTHER]));
	return o;
}

static Json *capex_json(const Totals *t)
{
	Json *o = jw_object();
	jw_set(o, "nodes", money(t->capex_by_cat[CAT_NODES]));
	jw_set(o, "network", money(t->capex_by_cat[CAT_NETWORK]));
	jw_set(o, "cabling", money(t->capex_by_cat[CAT_CABLING]));
	jw_set(o, "racks", money(t->capex_by_cat[CAT_RACKS]));
	jw_set(o, "cooling", money(t->capex_by_cat[CAT_COOLING]));
	jw_set(o, "power", money(t->capex_by_cat[CAT_POWER]));
	jw_set(o, "storage", money(t->capex_by_cat[CAT_STORAGE]));
	jw_set(o, "other", money(t->capex_by_cat[CAT_OTHER]));
	return o;
}

/* One object per fabric: name, topology, tiers, planes, switch_model, switches_by_tier,
 * links_by_tier, bisection_tbps, oversubscription, diameter_hops. Fabric synthesis does not
 * exist yet, so the array is empty. */
static Json *fabrics_json(const Design *d)
{
	(void)d;
	return jw_array();
}

/* One object per workload plan: name, gpus, tp, pp, dp, cp, ep, micro_batch, step_time_s,
 * mfu, time_to_train_days, energy_to_train_mwh, energy_to_train_cost. Parallelism planning
 * does not exist yet, so the array is empty. */
static Json *workloads_json(const Design *d)
{
	(void)d;
	return jw_array();
}

static Json *optimizer_json(const OptimizerReport *opt)
{
	static const OptimizerReport none = {"none", "not_run", NAN, NAN, NAN, 0, 0, 0};
	if (!opt)
		opt = &none;
	Json *o = jw_object();
	jw_set(o, "solver", jw_str(opt->solver ? opt->solver : "none"));
	jw_set(o, "status", jw_str(opt->status ? opt->status : "unknown"));
	jw_set(o, "objective", jw_real(opt->objective, 6));
	jw_set(o, "bound", jw_real(opt->bound, 6));
	jw_set(o, "gap", jw_real(opt->gap, 6));
	jw_set(o, "variables", jw_int(opt->variables));
	jw_set(o, "constraints", jw_int(opt->constraints));
	jw_set(o, "solve_ms", jw_real(opt->solve_ms, 3));
	return o;
}

static Json *chosen_json(const Decision *x)
{
	Buf b = {0};
	text_chosen(&b, x);
	Json *j = jw_strn(b.s ? b.s : "", b.len);
	buf_free(&b);
	return j;
}

static Json *decisions_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		Json *o = jw_object();
		jw_set(o, "declaration", jw_str(x->decl ? x->decl->name : NULL));
		jw_set(o, "field", jw_str(x->field ? decision_field(d, x) : NULL));
		jw_set(o, "chosen", x->chosen || x->chosen_text ? chosen_json(x) : jw_null());
		jw_set(o, "candidates", jw_int(x->ncandidates));
		jw_set(o, "next_best_objective", jw_real(x->next_best, 6));
		jw_set(o, "next_best", jw_str(x->next_best_text));
		jw_push(a, o);
	}
	return a;
}

static Json *artifacts_json(const Artifact *list, int n)
{
	Json *a = jw_array();
	for (int i = 0; i < n; i++) {
		Json *o = jw_object();
		jw_set(o, "path", jw_str(list[i].path));
		jw_set(o, "bytes", jw_int((long long)list[i].bytes));
		jw_set(o, "sha256", jw_str(list[i].sha256));
		jw_push(a, o);
	}
	return a;
}

static Json *report_json(const Design *d, const OptimizerReport *opt, const Artifact *list, int n)
{
	Json *r = jw_object();
	jw_set(r, "schema", jw_str(REPORT_SCHEMA));
	jw_set(r, "spec", jw_str(report_spec_path(d)));
	jw_set(r, "scenario", jw_str(report_scenario(d)));
	jw_set(r, "currency", jw_str(currency_name(d->currency)));
	jw_set(r, "totals", totals_json(&d->t));
	jw_set(r, "power_kw_by_category", power_json(&d->t));
	jw_set(r, "capex_by_category", capex_json(&d->t));
	jw_set(r, "fabrics", fabrics_json(d));
	jw_set(r, "optimizer", optimizer_json(opt));
	jw_set(r, "decisions", decisions_json(d));
	jw_set(r, "workloads", workloads_json(d));
	jw_set(r, "artifacts", artifacts_json(list, n));
	return r;
}

int report_json_write(Output *o, const Design *d, const OptimizerReport *opt)
{
	const Artifact *list;
	int n = output_artifacts(o, &list);
	if (n < 0)
		return 1;
	Json *root = report_json(d, opt, list, n);
	FILE *f = output_file(o, "report.json");
	if (!f) {
		jw_free(root);
		return 1;
	}
	jw_write(f, root);
	return output_close(o, f);
}
