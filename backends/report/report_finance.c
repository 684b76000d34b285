/*
 * report_finance.c — the financial model (passes/design/finance.c) and where each node's price
 * comes from (parts.c), as report.json's "finance" object and report.md's "Finance" section.
 * Only prints: every figure is the IR's. Money is in the report currency (report.json's
 * "currency"), rounded to 0.01 as report.json rounds money; other keys name their unit.
 */
#include "backends.h"

#include <math.h>
#include <string.h>

static const char *const basis_names[] = {"bundle", "parts"};
static const char *const depreciation_names[] = {"straight_line", "declining_balance"};

static Json *money(double x)
{
	return jw_real(x, 2);
}

/* The node types the design uses, once each, in the order of its node groups. */
static bool first_use(const Design *d, int g)
{
	for (int i = 0; i < g; i++)
		if (d->groups[i].type == d->groups[g].type)
			return false;
	return true;
}

static Json *node_prices_json(const Design *d)
{
	Json *a = jw_array();
	for (int g = 0; g < d->ngroups; g++) {
		if (!first_use(d, g))
			continue;
		const Part *n = d->groups[g].type;
		Json *o = jw_object();
		jw_set(o, "node", jw_str(n->name));
		jw_set(o, "price_basis", jw_str(basis_names[n->node.price_basis]));
		jw_set(o, "price", money(n->price));
		jw_set(o, "bundle_price", money(n->node.bundle_price));
		jw_set(o, "parts_adjustment", money(n->node.price_adjust));
		jw_set(o, "chassis_price", money(n->node.chassis_price));
		jw_set(o, "accelerators_price", money(n->node.accel_price));
		jw_set(o, "nics_price", money(n->node.nic_price));
		jw_set(o, "cpus_price", money(n->node.cpu_price));
		jw_push(a, o);
	}
	return a;
}

Json *report_finance_json(const Design *d)
{
	const Finance *f = &d->fin;
	Json *o = jw_object();
	jw_set(o, "node_prices", node_prices_json(d));
	if (!f->done)
		return o;
	jw_set(o, "horizon_years", jw_real(d->t.horizon_years, 3));
	jw_set(o, "cost_of_capital_per_year", jw_real(f->cost_of_capital, 4));
	jw_set(o, "depreciation", jw_str(depreciation_names[f->depreciation]));
	jw_set(o, "depreciation_years", jw_int(f->depreciation_years));
	Json *dep = jw_array();
	for (int y = 0; y < f->depreciation_years; y++)
		jw_push(dep, money(f->depreciation_by_year[y]));
	jw_set(o, "depreciation_by_year", dep);
	jw_set(o, "book_value_at_horizon", money(f->book_value_at_horizon));
	jw_set(o, "hardware_capex", money(f->hardware_capex));
	jw_set(o, "energy_cost_per_year", money(f->annual_energy_cost));
	jw_set(o, "support_cost_per_year", money(f->annual_support));
	jw_set(o, "staff_cost_per_year", money(f->annual_staff));
	jw_set(o, "space_cost_per_year", money(f->annual_space));
	jw_set(o, "opex_per_year", money(f->annual_opex));
	jw_set(o, "annuity_factor_years", jw_real(f->annuity_factor, 4));
	jw_set(o, "opex_present_value", money(f->opex_pv));
	jw_set(o, "net_present_cost", money(f->npv));
	jw_set(o, "equivalent_annual_cost", money(f->annual_cost));
	jw_set(o, "utilization_ratio", jw_real(f->utilization, 4));
	jw_set(o, "gpu_hours_per_year", jw_real(f->gpu_hours_per_year, 1));
	jw_set(o, "pflop_days_per_year", jw_real(f->pflop_days_per_year, 3));
	jw_set(o, "cost_per_gpu_hour", jw_real(f->per_gpu_hour, 4));
	jw_set(o, "cost_per_pflop_day", money(f->per_pflop_day));
	Json *w = jw_array();
	for (int i = 0; i < f->nworkloads; i++) {
		Json *x = jw_object();
		jw_set(x, "name", jw_str(f->workloads[i].name));
		jw_set(x, "gpus", jw_int(f->workloads[i].gpus));
		jw_set(x, "gpu_hours", jw_real(f->workloads[i].gpu_hours, 1));
		jw_set(x, "cost_per_trained_model", money(f->workloads[i].cost));
		jw_push(w, x);
	}
	jw_set(o, "workloads", w);
	jw_set(o, "sensitivity", report_sensitivity_json(&f->sens));
	return o;
}

/* The tornado's numbers (docs/reports.md, finance.sensitivity): the metric as designed and at
 * both ends of each input's range, in the report currency. */
Json *report_sensitivity_json(const Sensitivity *s)
{
	Json *o = jw_object();
	int places = s->workload ? 2 : 4; /* money; a GPU-hour's cost as cost_per_gpu_hour */
	jw_set(o, "metric", jw_str(s->workload ? "cost_per_trained_model" : "cost_per_gpu_hour"));
	jw_set(o, "workload", jw_str(s->workload));
	jw_set(o, "as_designed", jw_real(s->base, places));
	Json *a = jw_array();
	for (int i = 0; i < s->n; i++) {
		const SensFactor *f = &s->f[i];
		Json *x = jw_object();
		jw_set(x, "input", jw_str(finance_sens_names[f->kind]));
		jw_set(x, "input_unit", jw_str(f->kind == SENS_UTILIZATION ? "ratio" : "multiple"));
		jw_set(x, "low_input", jw_real(f->low_input, 4));
		jw_set(x, "high_input", jw_real(f->high_input, 4));
		jw_set(x, "at_low", jw_real(f->low, places));
		jw_set(x, "at_high", jw_real(f->high, places));
		jw_push(a, x);
	}
	jw_set(o, "inputs", a);
	return o;
}

/* report_sensitivity_json read back (a comparison's row): keys it lacks leave s->n 0. */
void report_sensitivity_read(Arena *a, const Json *o, Sensitivity *s)
{
	*s = (Sensitivity){.base = jw_get_real(o, "as_designed")};
	const char *w = jw_get_str(o, "workload");
	s->workload = w ? arena_strdup(a, w) : NULL;
	const Json *in = jw_get(o, "inputs");
	for (size_t i = 0; i < jw_len(in) && s->n < SENS_COUNT; i++) {
		const Json *x = jw_at(in, i);
		const char *name = jw_get_str(x, "input");
		for (int k = 0; k < SENS_COUNT; k++)
			if (name && !strcmp(name, finance_sens_names[k]))
				s->f[s->n++] = (SensFactor){(SensKind)k, jw_get_real(x, "low_input"),
							    jw_get_real(x, "high_input"),
							    jw_get_real(x, "at_low"),
							    jw_get_real(x, "at_high")};
	}
}

static void row(Buf *b, const char *label, double v, const char *unit)
{
	buf_printf(b, "| %s | ", label);
	if (unit && unit[0] != '%')
		text_money(b, v);
	else
		text_number(b, v * 100, 2, false);
	buf_printf(b, " %s |\n", unit ? unit : "");
}

void report_finance_md(Buf *b, const Design *d)
{
	const Finance *f = &d->fin;
	const char *cur = currency_name(d->currency);
	buf_puts(b, "## Finance\n\n");
	buf_puts(b, "| node | price basis | price | of which a change of parts |\n"
		    "| --- | --- | ---: | ---: |\n");
	for (int g = 0; g < d->ngroups; g++) {
		if (!first_use(d, g))
			continue;
		const Part *n = d->groups[g].type;
		buf_printf(b, "| `%s` | %s | ", n->name,
			   n->node.price_basis == NODE_PRICE_PARTS
				   ? "from its parts (chassis, accelerators, NICs, CPUs)"
				   : "bundle price");
		text_money(b, n->price);
		buf_printf(b, " %s | ", cur);
		text_money(b, n->node.price_adjust);
		buf_printf(b, " %s |\n", cur);
	}
	buf_putc(b, '\n');
	if (!f->done)
		return;
	Buf label = {0};
	buf_puts(b, "| | |\n| --- | ---: |\n");
	row(b, "Cost of capital", f->cost_of_capital, "% a year");
	row(b, "Hardware capex (what support covers)", f->hardware_capex, cur);
	row(b, "Energy cost per year", f->annual_energy_cost, cur);
	row(b, "Support and maintenance per year", f->annual_support, cur);
	row(b, "Staff per year", f->annual_staff, cur);
	row(b, "Space per year", f->annual_space, cur);
	row(b, "Running cost per year", f->annual_opex, cur);
	buf_puts(&label, "Net present cost over ");
	text_number(&label, d->t.horizon_years, 2, false);
	buf_puts(&label, d->t.horizon_years == 1 ? " year" : " years");
	row(b, label.s, f->npv, cur);
	buf_free(&label);
	row(b, "Equivalent annual cost", f->annual_cost, cur);
	buf_printf(b, "| Utilization | ");
	text_number(b, f->utilization * 100, 1, false);
	buf_puts(b, " % |\n| Cost per GPU-hour | ");
	text_number(b, f->per_gpu_hour, 4, false);
	buf_printf(b, " %s/GPU-h |\n| Cost per PFLOP-day (dense BF16) | ", cur);
	text_money(b, f->per_pflop_day);
	buf_printf(b, " %s/PFLOP-day |\n", cur);
	for (int i = 0; i < f->nworkloads; i++) {
		buf_printf(b, "| Cost per trained model `%s` (", f->workloads[i].name);
		text_number(b, f->workloads[i].gpus, 0, false);
		buf_puts(b, " GPUs, ");
		text_number(b, f->workloads[i].gpu_hours, 0, false);
		buf_puts(b, " GPU-h) | ");
		text_money(b, f->workloads[i].cost);
		buf_printf(b, " %s |\n", cur);
	}
	buf_printf(b, "| Book value at the horizon (%s, %d years) | ", depreciation_names[f->depreciation],
		   f->depreciation_years);
	text_money(b, f->book_value_at_horizon);
	buf_printf(b, " %s |\n\n", cur);
}
