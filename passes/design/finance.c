/*
 * finance.c — the financial model of the design as built: what it costs a year, at present
 * value over the horizon, and per unit of work (docs/models.md, "Finance").
 *
 *   hardware capex   = capex of nodes, network, cabling, storage and spares (not racks nor
 *                      the cooling and power plant, which support contracts do not cover)
 *   annual opex      = energy cost + support × hardware capex + staff_cost + space_cost × racks
 *   annuity factor   A = Σ_{t=1..⌈Y⌉} w_t / (1 + r)^t, w_t = 1 but the last year's share of a
 *                      horizon Y that is not whole; r = cost_of_capital (A = Y when r = 0)
 *   net present cost = capex + annual opex × A: costs at the end of each year, discounted at
 *                      the owner's cost of capital (R. Brealey, S. Myers and F. Allen,
 *                      Principles of Corporate Finance, ch. 2 "How to calculate present
 *                      values": PV = C_t / (1 + r)^t, and the annuity formula of ch. 2)
 *   annual cost      = net present cost / A: the equivalent annual cost (Brealey, Myers and
 *                      Allen, ch. 6): the level payment over the horizon worth the same
 *   per GPU-hour     = annual cost / (accelerators in service × 8,760 h × utilization): the
 *                      hot spares deliver none
 *   per PFLOP-day    = annual cost / (dense BF16 peak in service in PFLOP/s × 365 d ×
 *                      utilization)
 *   per trained model (per workload) = its plan's GPUs × time to train × per GPU-hour
 *   depreciation     straight line: capex / L a year over L = depreciation_period whole years;
 *                    declining balance: double declining (2 / L of the book value a year),
 *                    switching to straight line over the years left when that writes off more
 *                    (IRS Publication 946, "How To Depreciate Property", ch. 4: the 200 %
 *                    declining balance method with the switch to straight line)
 *
 * Sensitivity (the tornado of the reports, finance_sensitivity): the metric a buyer compares
 * designs on, the cost per trained model of the first workload a plan fits with failures
 * included (its GPUs x effective time to train x cost per GPU-hour), else the cost per
 * GPU-hour, recomputed with one input moved to each end of its range and every other input as
 * designed: hardware prices (all capex and the support that is a share of it) and the
 * electricity price 0.8x and 1.2x, the utilization 0.15 lower and higher (within 0.05..1:
 * energy follows the nodes' share, model.c), the failure rates 0.5x and 2x (the checkpoint
 * interval re-optimised by Daly's formula unless the workload fixes it, reliability.c). The
 * ranges are the report's convention, not estimates of any market: a spread a quote or an
 * AFR table commonly carries, stated beside every chart. One-at-a-time sensitivity as a
 * tornado diagram: R. T. Clemen, Making Hard Decisions, 2nd ed., Duxbury 1996, ch. 5.
 *
 * The model reads the totals model.c computed and the plans plan.c made; it changes neither:
 * capex, energy and the TCO stay what report.json's contract says they are. Defaults (no cost
 * of capital, support, staff nor space) give a net present cost equal to the TCO.
 */
#include "passes.h"
#include "plan.h"

#include <math.h>

enum { SCHEDULE_YEARS_MAX = 100 }; /* longer schedules are written off in their 100th year */

/* The schedule of capex written off each year (whole years, years[0] the first). */
static void depreciate(double capex, int method, int years, double *out)
{
	double book = capex;
	for (int t = 0; t < years; t++) {
		double left = years - t;
		double straight = book / left;
		double dep = straight;
		if (method == DEP_DECLINING_BALANCE) {
			double declining = book * 2.0 / years;
			dep = declining > straight ? declining : straight;
		}
		if (t == years - 1 || dep > book)
			dep = book;
		out[t] = dep;
		book -= dep;
	}
}

static double annuity(double rate, double years)
{
	double a = 0;
	int whole = (int)ceil(years - 1e-9);
	for (int t = 1; t <= whole; t++) {
		double w = t <= years ? 1 : years - (t - 1);
		a += w / pow(1 + rate, t);
	}
	return a;
}

const char *const finance_sens_names[SENS_COUNT] = {"prices", "electricity", "utilization",
						 "failure_rates"};
const char *const finance_sens_labels[SENS_COUNT] = {"hardware prices", "electricity price",
						  "utilization", "failure rates"};

/* The inputs finance_sensitivity moves, as multiples of the design's (utilization: itself). */
typedef struct SensInputs {
	double prices, electricity, utilization, failures;
} SensInputs;

/* The tornado's metric at the inputs x: see the file's comment. */
static double sens_metric(const Design *d, const WorkloadPlan *wp, SensInputs x)
{
	const Finance *f = &d->fin;
	const Totals *t = &d->t;
	double nodes_power = t->power_by_cat[CAT_NODES];
	double avg = t->avg_it_power + nodes_power * (x.utilization - f->utilization);
	double energy = t->avg_it_power > 0 ? f->annual_energy_cost * x.electricity * avg / t->avg_it_power
					    : f->annual_energy_cost * x.electricity;
	double opex = energy + f->annual_support * x.prices + f->annual_staff + f->annual_space;
	double a = f->annuity_factor;
	double hours = t->accelerators * HOURS_PER_YEAR * x.utilization;
	if (!(a > 0) || !(hours > 0))
		return NAN;
	double per_gpu_hour = (t->capex * x.prices + opex * a) / a / hours;
	if (!wp)
		return per_gpu_hour;
	double time = wp->time_to_train;
	const WorkloadReliability *r = &wp->rel;
	if (r->done && isfinite(r->goodput)) {
		double mtbf = r->mtbf / x.failures;
		double tau = r->interval_set ? r->interval : reliability_daly(r->write_time, mtbf);
		time *= reliability_wall_factor(tau, r->write_time, r->restart, mtbf);
	}
	return wp->r.best.gpus * time / 3600 * per_gpu_hour;
}

static void finance_sensitivity(Design *d)
{
	Finance *f = &d->fin;
	const WorkloadPlan *wp = NULL;
	for (int i = 0; i < d->nplans && !wp; i++)
		if (d->plans[i].r.best.gpus > 0 && isfinite(d->plans[i].time_to_train))
			wp = &d->plans[i];
	Sensitivity *sv = &f->sens;
	sv->workload = wp ? wp->name : NULL;
	const SensInputs as_designed = {1, 1, f->utilization, 1};
	sv->base = sens_metric(d, wp, as_designed);
	sv->n = 0;
	if (!isfinite(sv->base))
		return;
	bool failures = wp && wp->rel.done && isfinite(wp->rel.goodput) && isfinite(wp->rel.mtbf);
	for (int k = 0; k < SENS_COUNT; k++) {
		if (k == SENS_FAILURES && !failures)
			continue;
		SensFactor *s = &sv->f[sv->n++];
		*s = (SensFactor){.kind = (SensKind)k};
		SensInputs lo = as_designed, hi = as_designed;
		switch (k) {
		case SENS_PRICES:
			s->low_input = lo.prices = 0.8, s->high_input = hi.prices = 1.2;
			break;
		case SENS_ELECTRICITY:
			s->low_input = lo.electricity = 0.8, s->high_input = hi.electricity = 1.2;
			break;
		case SENS_UTILIZATION:
			s->low_input = lo.utilization = fmax(0.05, f->utilization - 0.15);
			s->high_input = hi.utilization = fmin(1, f->utilization + 0.15);
			break;
		default:
			s->low_input = lo.failures = 0.5, s->high_input = hi.failures = 2;
			break;
		}
		s->low = sens_metric(d, wp, lo);
		s->high = sens_metric(d, wp, hi);
	}
}

int finance_model(Design *d)
{
	Finance *f = &d->fin;
	const Totals *t = &d->t;
	*f = (Finance){.done = true};
	double years = t->horizon_years;
	f->cost_of_capital = field_num(d->cluster, FLD_CLUSTER_COST_OF_CAPITAL);
	f->depreciation = field_enum(d->cluster, FLD_CLUSTER_DEPRECIATION);
	double period;
	if (!field_num_set(d->cluster, FLD_CLUSTER_DEPRECIATION_PERIOD, &period))
		period = years * SECONDS_PER_YEAR;
	int dy = (int)ceil(period / SECONDS_PER_YEAR - 1e-9);
	f->depreciation_years = dy < 1 ? 1 : dy > SCHEDULE_YEARS_MAX ? SCHEDULE_YEARS_MAX : dy;
	f->depreciation_by_year = arena_alloc(d->c->arena, sizeof(double) * (size_t)f->depreciation_years);
	depreciate(t->capex, f->depreciation, f->depreciation_years, f->depreciation_by_year);
	f->book_value_at_horizon = t->capex;
	for (int y = 0; y < f->depreciation_years && y < years - 1e-9; y++) {
		double share = years - y >= 1 ? 1 : years - y;
		f->book_value_at_horizon -= share * f->depreciation_by_year[y];
	}

	static const int hardware[] = {CAT_NODES, CAT_NETWORK, CAT_CABLING, CAT_STORAGE, CAT_SPARES};
	for (size_t i = 0; i < sizeof hardware / sizeof hardware[0]; i++)
		f->hardware_capex += t->capex_by_cat[hardware[i]];
	f->annual_energy_cost = t->annual_energy_cost;
	f->annual_support = field_num(d->cluster, FLD_CLUSTER_SUPPORT) * f->hardware_capex;
	f->annual_staff = money_field(d, d->cluster, FLD_CLUSTER_STAFF_COST) * SECONDS_PER_YEAR;
	f->annual_space = money_field(d, d->cluster, FLD_CLUSTER_SPACE_COST) * SECONDS_PER_YEAR * t->racks;
	f->annual_opex = f->annual_energy_cost + f->annual_support + f->annual_staff + f->annual_space;
	f->annuity_factor = annuity(f->cost_of_capital, years);
	f->opex_pv = f->annual_opex * f->annuity_factor;
	f->npv = t->capex + f->opex_pv;
	f->annual_cost = f->annuity_factor > 0 ? f->npv / f->annuity_factor : NAN;

	f->utilization = field_num(d->cluster, FLD_CLUSTER_UTILIZATION);
	/* Hot spares deliver no GPU-hours: the accelerators in service do. */
	f->gpu_hours_per_year = (t->accelerators - t->spare_accelerators) * HOURS_PER_YEAR * f->utilization;
	f->pflop_days_per_year = (t->peak_compute - t->spare_compute) / 1e15 * 365 * f->utilization;
	f->per_gpu_hour = f->gpu_hours_per_year > 0 ? f->annual_cost / f->gpu_hours_per_year : NAN;
	f->per_pflop_day = f->pflop_days_per_year > 0 ? f->annual_cost / f->pflop_days_per_year : NAN;

	f->workloads = arena_alloc(d->c->arena, sizeof(FinanceWorkload) * (size_t)(d->nplans + 1));
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		FinanceWorkload *w = &f->workloads[f->nworkloads++];
		w->name = wp->name;
		w->gpus = wp->r.best.gpus;
		w->gpu_hours = w->gpus * wp->time_to_train / 3600;
		w->cost = w->gpu_hours * f->per_gpu_hour;
	}
	finance_sensitivity(d);
	return 0;
}
