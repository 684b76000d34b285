/*
 * reliability.c — the design under failures (docs/reliability.md): the interruption rate of the
 * cluster and of each workload's job, the checkpoint its plan writes, the interval between
 * checkpoints, the goodput it leaves and the effective time and energy to train.
 *
 * A synchronous job stops when any part it runs on fails: its parts are in series, so its
 * interruption rate is the sum of theirs, linear in the nodes it spans (Kokolis et al.,
 * "Revisiting Reliability in Large-Scale Machine Learning Research Clusters", arXiv
 * 2410.21680, 2024). A part's rate is its annualised failure rate (afr; the stdlib cites
 * each) over a year of 8,760 h. The job's nodes count whole (host, accelerators and their HBM,
 * NICs); the network (switches, cables, optics) in proportion to the accelerators it spans; the
 * power chain's and cooling plants' units where their failure stops racks (a unit under n; two
 * redundant units down within the repair time; a redundant group's common-cause failures, the
 * beta-factor model, each taking the group's racks), at the share of those events that reach
 * the racks the job spans (blast.c's blast_plant_event, blast_plant_hit).
 *
 * The checkpoint is the model state of mixed-precision Adam without the gradients: 2 bytes of
 * 16-bit weights and 12 of fp32 master weights, momentum and variance a parameter
 * (Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
 * Models", SC 2020, §3.1). With the distributed optimizer or FSDP every rank writes its shard,
 * so every node of the job writes; otherwise one data-parallel replica's nodes write and, on a
 * restart, every replica reads the whole state. It is written and read at the smaller of the
 * storage appliances' bandwidth (write_bandwidth, bandwidth) and the writing nodes' own
 * (node.storage_bandwidth); either may be absent, not both.
 */
#include "plan.h"

#include <math.h>
#include <string.h>

const char *const reliability_class_names[REL_COUNT] = {
#define X(id, name) name,
	REL_CLASSES(X)
#undef X
};

/* Young, "A first order approximation to the optimum checkpoint interval", Communications of
 * the ACM 17(9):530-531, 1974: tau = sqrt(2 delta M). */
double reliability_young(double delta, double mtbf)
{
	return sqrt(2 * delta * mtbf);
}

/* Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", Future
 * Generation Computer Systems 22(3):303-312, 2006, eq. 37: for delta < 2M,
 * tau = sqrt(2 delta M) [1 + (1/3) sqrt(delta / 2M) + (1/9) (delta / 2M)] - delta, else M. */
double reliability_daly(double delta, double mtbf)
{
	if (!isfinite(mtbf))
		return INFINITY; /* nothing fails: no checkpoint is needed */
	if (delta >= 2 * mtbf)
		return mtbf;
	double x = delta / (2 * mtbf);
	return sqrt(2 * delta * mtbf) * (1 + sqrt(x) / 3 + x / 9) - delta;
}

/* Daly 2006, eq. 20: with failures a Poisson process of mean time M, T_s of compute cut into
 * segments of tau, each followed by a checkpoint of delta, and a restart of R after each
 * failure (failures may strike during checkpoints and restarts too), the expected wall time is
 * T_w = M e^(R/M) (e^((tau + delta)/M) - 1) T_s / tau. Returns T_w / T_s. */
double reliability_wall_factor(double tau, double delta, double r, double mtbf)
{
	if (!isfinite(mtbf))
		return isfinite(tau) && tau > 0 ? (tau + delta) / tau : 1;
	if (!(tau > 0)) /* a checkpoint that costs nothing, taken continuously (delta = 0) */
		return exp(r / mtbf);
	return mtbf * exp(r / mtbf) * expm1((tau + delta) / mtbf) / tau;
}

/* ---- rates ---------------------------------------------------------------------------------- */

static double node_rate(const Part *node, double *by_class, double n)
{
	double host = node->failure_rate, accel = 0, memory = 0, nic = 0;
	for (int k = 0; k < node->node.naccels; k++) {
		accel += node->node.accels[k].count * node->node.accels[k].part->failure_rate;
		memory += node->node.accels[k].count * node->node.accels[k].part->accel.memory_failure_rate;
	}
	for (int k = 0; k < node->node.nnics; k++)
		nic += node->node.nics[k].count * node->node.nics[k].part->failure_rate;
	if (by_class) {
		by_class[REL_HOST] += n * host;
		by_class[REL_ACCEL] += n * accel;
		by_class[REL_MEMORY] += n * memory;
		by_class[REL_NIC] += n * nic;
	}
	return host + accel + memory + nic;
}

/* ---- the plant ------------------------------------------------------------------------------ */

/* Accelerators in service (hot spares apart). */
static double in_service(const Design *d)
{
	double n = 0;
	for (int i = 0; i < d->ngroups; i++)
		n += (d->groups[i].count - d->groups[i].spares) * d->groups[i].type->node.accelerators;
	return n;
}

/* The plant's events and the failures of its units (into unit_power and unit_cooling, either
 * may be NULL). */
static void plant_rates(const Design *d, double gpus, double *power, double *cooling,
			double *unit_power, double *unit_cooling)
{
	double pw = 0, cl = 0, upw = 0, ucl = 0;
	int racks = d->nracks > 0 ? d->nracks : (int)lround(d->t.racks);
	double all = in_service(d);
	double share = gpus > 0 && all > 0 ? fmin(1, gpus / all) : 1;
	for (int k = 0; k < d->nstages && racks > 0; k++) {
		const PowerStageInst *s = &d->stages[k];
		const Part *st = s->stage;
		if (!(st->failure_rate > 0) || !(s->load > 0))
			continue;
		bool feed = st->stage.stage == PS_RACK_FEED;
		double fs;
		int units = feed ? power_chain_feeds_of(st, &fs) : (int)lround(s->units);
		PlantEvent e;
		blast_plant_event(st->stage.redundancy, feed, units, st->stage.module_count, 0,
					st->failure_rate, st->mttr, st->ccf_beta, racks, &e);
		pw += e.rate * blast_plant_hit(share * racks, e.racks, racks) +
		      e.ccf_rate * blast_plant_hit(share * racks, e.ccf_racks, racks);
		upw += e.units * st->failure_rate;
	}
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		for (int k = 0; k < g->nunits && g->racks > 0; k++) {
			const CoolingUnitInst *ui = &g->units[k];
			const Part *up = ui->unit;
			if (!(up->failure_rate > 0) || !(ui->load > 0))
				continue;
			PlantEvent e;
			blast_plant_event(up->cunit.redundancy, false, (int)lround(ui->units),
						up->cunit.module_count, up->cunit.racks_per_unit,
						up->failure_rate, up->mttr, up->ccf_beta, g->racks, &e);
			cl += e.rate * blast_plant_hit(share * g->racks, e.racks, g->racks) +
			      e.ccf_rate * blast_plant_hit(share * g->racks, e.ccf_racks, g->racks);
			ucl += e.units * up->failure_rate;
		}
	}
	if (power)
		*power = pw;
	if (cooling)
		*cooling = cl;
	if (unit_power)
		*unit_power = upw;
	if (unit_cooling)
		*unit_cooling = ucl;
}

/* The network in service of a design not yet cabled (a candidate of the choice search): what
 * the fabrics' and the scale-up domains' own sizing holds, read afresh, never d->bom (model.c
 * builds it, and the optimizer's factored evaluations do not all run it: it may be another
 * candidate's). Switches as model.c's "switch" lines count them (each tree tier at its model;
 * an OCS is not a switch line), the scale-up trays of every domain over several nodes, and the
 * links model.c counts as cables (fabric links but board traces, a multi-rack domain's links
 * between racks) at the mean rate of the cable models in scope but trunks: which cable a link
 * takes is the cable pass's. Each fabric's reads are noted (field_note), as plan.c does where
 * it reads a fabric: a rate read here depends on the choices that fabric's sizing read. */
static void network_sized(const Design *d, double *by_class)
{
	double links = 0;
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		field_note(f->reads);
		links += f->links - f->board_links;
		if (!f->switch_model || f->switches == 0)
			continue;
		for (int st = 0; st < ST_COUNT; st++) {
			const Part *m = ir_tier_model(f, (SwitchTier)st);
			if (f->by_tier[st] && m->kind != KIND_OCS)
				by_class[REL_SWITCH] += f->by_tier[st] * m->failure_rate;
		}
	}
	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		const Part *node = g->type;
		for (int k = 0; g->domain_nodes > 1 && k < node->node.ntrays; k++)
			by_class[REL_SWITCH] += node->node.trays[k].count * ((double)g->count / g->domain_nodes) *
						node->node.trays[k].part->failure_rate;
	}
	for (int i = 0; i < d->nscaleups; i++)
		links += d->scaleups[i].cables;
	double sum = 0;
	int n = 0;
	for (int i = 0; i < d->nparts; i++) /* a trunk carries links between panels: no link's cable */
		if (d->parts[i].kind == KIND_CABLE && d->parts[i].cable.media != MEDIA_TRUNK)
			sum += d->parts[i].failure_rate, n++;
	by_class[REL_CABLE] = n ? links * sum / n : 0;
}

/* The cluster's rates: the nodes in service and the network, and the plant's events when
 * `plant` (the design as built; a candidate's value goes without them, docs/reliability.md). */
static void cluster_rates(const Design *d, bool plant, ClusterReliability *out)
{
	*out = (ClusterReliability){.done = true, .cabled = d->ncables > 0};
	/* The nodes in service: a hot spare's failure interrupts no job. */
	for (int i = 0; i < d->ngroups; i++) {
		double n = d->groups[i].count - d->groups[i].spares;
		node_rate(d->groups[i].type, out->by_class, n);
		out->accelerators += n * d->groups[i].type->node.accelerators;
	}
	if (out->cabled) {
		/* The network in service as built: the BOM's lines of switches, scale-up trays,
		 * cables and optics (not the spares on the shelf, whose lines are named "spare
		 * ..."). */
		static const struct {
			const char *line;
			RelClass cls;
		} lines[] = {{"switch", REL_SWITCH}, {"scale-up switch", REL_SWITCH}, {"cable", REL_CABLE},
			     {"optic", REL_OPTIC}};
		for (int i = 0; i < d->nbom; i++) {
			const BomLine *b = &d->bom[i];
			for (size_t k = 0; b->model_part && k < sizeof lines / sizeof lines[0]; k++)
				if (!strcmp(b->part, lines[k].line))
					out->by_class[lines[k].cls] += b->quantity * b->model_part->failure_rate;
		}
	} else {
		network_sized(d, out->by_class);
	}
	out->network_rate = out->by_class[REL_SWITCH] + out->by_class[REL_CABLE] + out->by_class[REL_OPTIC];
	/* The power chain and the cooling plants: what a job on every accelerator meets. */
	if (plant)
		plant_rates(d, 0, &out->by_class[REL_POWER], &out->by_class[REL_COOLING],
			    &out->unit_failures[REL_POWER], &out->unit_failures[REL_COOLING]);
	for (int k = 0; k < REL_COUNT; k++)
		out->rate += out->by_class[k];
	out->mtbf = out->rate > 0 ? 1 / out->rate : INFINITY;
}

void reliability_cluster(const Design *d, ClusterReliability *out)
{
	cluster_rates(d, true, out);
}

void reliability_plant(const Design *d, double gpus, double *power, double *cooling)
{
	plant_rates(d, gpus, power, cooling, NULL, NULL);
}

double reliability_job_rate(const ClusterReliability *c, const Part *node, double gpus)
{
	int per_node = node->node.accelerators > 0 ? node->node.accelerators : 1;
	double nodes = ceil(gpus / per_node);
	double share = c->accelerators > 0 ? fmin(1, gpus / c->accelerators) : 0;
	return nodes * node_rate(node, NULL, 0) + c->network_rate * share;
}

/* ---- a workload ----------------------------------------------------------------------------- */

/* The smaller of two bandwidths, either NAN (not limiting); NAN when both are. */
static double bw_min(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmin(a, b);
}

/* A workload's job, the plant's events counted when `plant` (the design as built). */
static void workload_rates(Design *d, const ClusterReliability *c, bool plant, const Decl *w,
			   const PlanModel *m, const PlanHw *hw, const PlanConfig *best, double time,
			   double energy, WorkloadReliability *out)
{
	*out = (WorkloadReliability){.done = true};
	double power = 0, cooling = 0;
	if (plant)
		reliability_plant(d, best->gpus, &power, &cooling);
	out->rate = reliability_job_rate(c, hw->node, best->gpus) + power + cooling;
	out->mtbf = out->rate > 0 ? 1 / out->rate : INFINITY;
	out->per_day = out->rate * 86400;

	int per_node = hw->per_node > 0 ? hw->per_node : 1;
	int nodes = (best->gpus + per_node - 1) / per_node;
	bool sharded = best->dopt || best->fsdp;
	int dp = best->dp > 0 ? best->dp : 1;
	int writers = sharded ? best->gpus : best->gpus / dp;
	out->writer_nodes = (writers + per_node - 1) / per_node;
	out->bytes_per_param = RELIABILITY_STATE_BYTES;
	out->ckpt_bytes = plan_params(m) * RELIABILITY_STATE_BYTES;
	out->restore_bytes = sharded ? out->ckpt_bytes : out->ckpt_bytes * dp;

	double store_w = NAN, store_r = NAN;
	for (int i = 0; i < d->nstorage_kinds; i++) {
		const Part *s = d->storage[i].part;
		if (!isnan(s->storage.write_bw))
			store_w = (isnan(store_w) ? 0 : store_w) + d->storage[i].count * s->storage.write_bw;
		if (!isnan(s->storage.bandwidth))
			store_r = (isnan(store_r) ? 0 : store_r) + d->storage[i].count * s->storage.bandwidth;
	}
	double node_bw = hw->node->node.storage_bw;
	out->write_bw = bw_min(store_w, out->writer_nodes * node_bw);
	out->read_bw = bw_min(store_r, nodes * node_bw);
	out->write_time = out->ckpt_bytes / out->write_bw;
	out->restore_time = out->restore_bytes / out->read_bw;
	out->relaunch_time = field_num(w, FLD_WORKLOAD_RESTART_TIME);
	out->restart = out->relaunch_time + out->restore_time;

	double tau;
	out->interval_set = field_num_set(w, FLD_WORKLOAD_CHECKPOINT_INTERVAL, &tau);
	out->young = reliability_young(out->write_time, out->mtbf);
	out->interval = out->interval_set ? tau : reliability_daly(out->write_time, out->mtbf);
	double factor = reliability_wall_factor(out->interval, out->write_time, out->restart, out->mtbf);
	out->goodput = 1 / factor;
	out->effective_time = time * factor;
	out->effective_energy = energy * factor;
}

void reliability_workload(Design *d, const ClusterReliability *c, const Decl *w, const PlanModel *m,
			  const PlanHw *hw, const PlanConfig *best, double time, double energy,
			  WorkloadReliability *out)
{
	workload_rates(d, c, true, w, m, hw, best, time, energy, out);
}

/* The design in force may be an optimizer's candidate, whose d->reliability (set by the pass,
 * after plan) is not its own: its rates are computed afresh. A candidate (not yet cabled) counts
 * what its own passes computed, the nodes and the network as sized, and not the plant: the
 * power chain's and cooling plants' units follow the whole design's power, which no factor of
 * the optimizer holds (docs/optimization.md, "Factors"), so the choice search weighs nodes and
 * network, and every require is judged again on the design as built, plant included. */
bool reliability_attribute(Design *d, const Decl *decl, FieldId id, double *out)
{
	bool built = d->ncables > 0;
	if (id == FLD_CLUSTER_JOB_MTBF) {
		ClusterReliability c;
		cluster_rates(d, built, &c);
		*out = c.mtbf;
		return true;
	}
	if (id != FLD_WORKLOAD_JOB_MTBF && id != FLD_WORKLOAD_GOODPUT &&
	    id != FLD_WORKLOAD_EFFECTIVE_TIME_TO_TRAIN && id != FLD_WORKLOAD_EFFECTIVE_ENERGY_TO_TRAIN)
		return false;
	PlanModel m;
	PlanHw hw;
	PlanConfig best;
	double time, energy;
	if (!plan_best(d, decl, &m, &hw, &best, &time, &energy)) {
		/* No plan fits: the values of plan_attribute's unrunnable workload. */
		*out = id == FLD_WORKLOAD_GOODPUT ? 0 : id == FLD_WORKLOAD_JOB_MTBF ? 0 : PLAN_UNRUNNABLE;
		return true;
	}
	ClusterReliability c;
	cluster_rates(d, built, &c);
	WorkloadReliability r;
	workload_rates(d, &c, built, decl, &m, &hw, &best, time, energy, &r);
	*out = id == FLD_WORKLOAD_JOB_MTBF		 ? r.mtbf
	       : id == FLD_WORKLOAD_GOODPUT		 ? r.goodput
	       : id == FLD_WORKLOAD_EFFECTIVE_TIME_TO_TRAIN ? r.effective_time
							 : r.effective_energy;
	return true;
}

/* ---- spares --------------------------------------------------------------------------------- */

/* P(N <= k) for N Poisson of the mean, summed in log space. */
double reliability_poisson_cdf(double mean, int k)
{
	if (!(mean > 0))
		return 1;
	double cdf = 0, lm = log(mean);
	for (int j = 0; j <= k; j++)
		cdf += exp(-mean + j * lm - lgamma(j + 1.0));
	return fmin(1, cdf);
}

/* Summing the Poisson probabilities in log space, so a large mean does not underflow. */
int reliability_poisson_quantile(double mean, double target)
{
	if (!(mean > 0))
		return 0;
	double cdf = 0, lm = log(mean);
	int limit = (int)(mean + 40 * sqrt(mean) + 40);
	for (int k = 0; k <= limit; k++) {
		cdf += exp(-mean + k * lm - lgamma(k + 1.0));
		if (cdf >= target)
			return k;
	}
	return limit;
}

/* Hot spare nodes: failed nodes are out for the repair time, so the number out at once is
 * Poisson with mean rate x repair time whatever the repair time's distribution (the M/G/inf
 * queue, Palm's theorem: C. Palm, "Intensitätsschwankungen im Fernsprechverkehr", Ericsson
 * Technics 44, 1943); enough spares that it exceeds them with at most 1 - target keep a job on
 * every node at its full size. Every interruption counts as a node out (an upper bound: many
 * are restarts). A spare inside a scale-up domain over several nodes replaces only that
 * domain's trays (spares.c): there the count is per domain, each domain's quantile, and the
 * target holds per domain. Cold spares of switches, cables and optics: the failures within the
 * restock time, Poisson with mean rate x restock, at the same target. */
void reliability_spares(const Design *d, SpareSizing *out)
{
	const ClusterReliability *c = &d->reliability;
	*out = (SpareSizing){.target = field_num(d->cluster, FLD_CLUSTER_SPARE_TARGET),
			     .node_repair = field_num(d->cluster, FLD_CLUSTER_REPAIR_TIME),
			     .restock = field_num(d->cluster, FLD_CLUSTER_RESTOCK_TIME)};
	double nodes_rate = c->by_class[REL_ACCEL] + c->by_class[REL_MEMORY] + c->by_class[REL_HOST] +
			   c->by_class[REL_NIC];
	out->nodes_down = nodes_rate * out->node_repair;
	out->hot_nodes = reliability_poisson_quantile(out->nodes_down, out->target);
	for (int i = 0; i < d->ngroups; i++)
		out->installed += d->groups[i].spares;
	out->coverage = reliability_poisson_cdf(out->nodes_down, out->installed);
	/* Racked and powered like the group that holds the spares. */
	int gi = spares_group(d);
	if (gi >= 0) {
		const NodeGroup *g = &d->groups[gi];
		if (g->domain_nodes > 1) {
			int domains = g->count / g->domain_nodes;
			double per_domain = node_rate(g->type, NULL, 0) * (g->domain_nodes - g->domain_spares) *
					    out->node_repair;
			out->hot_nodes = domains * reliability_poisson_quantile(per_domain, out->target);
			out->coverage = reliability_poisson_cdf(per_domain, g->domain_spares);
		}
		out->hot_power = out->hot_nodes * g->type->power;
		out->hot_racks = g->per_rack > 0 ? (double)out->hot_nodes / g->per_rack : 0;
	}
	for (int i = 0; i < d->nbom; i++)
		if (!strcmp(d->bom[i].part, "spare node"))
			out->shelf_nodes += (int)d->bom[i].quantity;
	/* The plant's cold spares (UPS modules, rectifiers, CDUs ...): every unit's failure, the
	 * redundant ones too (a spare restores the redundancy). */
	static const RelClass cold[] = {REL_SWITCH, REL_CABLE, REL_OPTIC, REL_POWER, REL_COOLING};
	for (size_t k = 0; k < sizeof cold / sizeof cold[0]; k++) {
		RelClass cls = cold[k];
		double rate = cls == REL_POWER || cls == REL_COOLING ? c->unit_failures[cls] : c->by_class[cls];
		out->cold_mean[cls] = rate * out->restock;
		out->cold[cls] = reliability_poisson_quantile(out->cold_mean[cls], out->target);
	}
}

/* ---- the pass ------------------------------------------------------------------------------- */

/* Trials of the Monte Carlo: enough for its mean to be within a fraction of a percent, at most
 * about 2e7 simulated failures in all, so a 100,000-GPU build stays fast. */
static int mc_trials(double events)
{
	const double BUDGET = 2e7;
	int trials = 2000;
	if (events * trials > BUDGET)
		trials = (int)fmax(200, BUDGET / events);
	return trials;
}

int reliability_plan(Design *d)
{
	if (d->ngroups == 0)
		return 0;
	reliability_cluster(d, &d->reliability);
	reliability_spares(d, &d->spare_sizing);
	if (d->elaborated) {
		spares_check(d);
		/* What one failure takes down, and (below) the training run simulated, are read by
		 * the reports and the dump only: a row of `compare` (numbers_only) goes without. */
		if (!d->numbers_only) {
			blast_radius(d, &d->blast);
			/* Any node in service failing: the cluster's rate of its nodes' classes. */
			const double *c = d->reliability.by_class;
			d->blast.node_rate = c[REL_ACCEL] + c[REL_MEMORY] + c[REL_HOST] + c[REL_NIC];
		}
	}
	for (int i = 0; i < d->nplans; i++) {
		WorkloadPlan *wp = &d->plans[i];
		WorkloadReliability *r = &wp->rel;
		/* d->reliability was set above from this very design: every workload reuses it. */
		reliability_workload(d, &d->reliability, wp->workload, &wp->model, &wp->hw,
				     &wp->r.best, wp->time_to_train, wp->energy, r);
		if (d->numbers_only || !isfinite(r->goodput) || !isfinite(r->mtbf) || !(r->interval > 0))
			continue;
		double events = wp->time_to_train / r->goodput / r->mtbf;
		unsigned long long seed = 0x9e3779b97f4a7c15ull;
		for (const char *s = wp->name; *s; s++)
			seed = (seed ^ (unsigned char)*s) * 1099511628211ull;
		montecarlo_run(wp->time_to_train, r->interval, r->write_time, r->restart, r->mtbf,
			       mc_trials(events), seed, &r->mc);
	}
	return 0;
}
