/*
 * report_json.c — report.json, the machine-readable summary that pipelines rely on (PRODUCT
 * §7, schema "clusterc.report/1"). Keys, nesting and order are the contract's; keys this file
 * adds come after the contract's keys of the same object, or (for "decisions") next to the
 * part of the contract they explain:
 *   totals.average_it_power_kw     IT power with the cluster's utilization applied (what
 *                                  annual_energy_kwh counts: × pue × 8,760 h)
 *   totals.power_capacity_kw       power plant installed: IT power × redundancy (2N: × 2)
 *   totals.carbon_t_per_year       when the site gives a carbon intensity
 *   power_kw_by_category.storage, .other
 *   capex_by_category.power, .storage, .other
 *   decisions                      after "optimizer": what was chosen for each open choice,
 *                                  from how many options, the runner-up when known and
 *                                  what the choice saved against it (objective units), where
 *                                  the choice is written and the option in base units
 *   finance                        after "workloads": node prices and the financial model
 *                                  (report_finance.c)
 *   optimizer.cable_estimate_per_link, cable_estimate_w_per_link: the cabling capex and power
 *                                  per link the choices were decided again with, or null
 *   optimizer.rejected_at_cabling  the designs the cable stage rejected, what each round
 *                                  excluded and why ([] when none; docs/optimization.md)
 *   optimizer.design_objective     the first objective on the design as built, cables
 *                                  included (the model's objective leaves them out)
 *   fabrics[].oversubscription_by_tier, ecmp_paths, rails, link_gbps, radix, breakout,
 *             endpoints, scalable_units, switches, links, ports_used_by_tier (per tier:
 *             radix, per_switch_min, per_switch_max, total), torus (dims, positions,
 *             per_node, node_shape, twisted, block, blocks, direct_links (board_links of them between
 *             a node's own positions, without a cable), ocs {model, count, ports,
 *             ports_used_per_ocs, ports_used, fibres, circuits} or null), and dragonfly
 *             {p, a, h, g, links_per_group_pair} or dims (torus)
 *             endpoints, scalable_units, switches, links, and dragonfly {p, a, h, g,
 *             links_per_group_pair} or dims (torus)
 *   fabrics[] of a tree in the per-tier form (spine_switch, core_switch, spine_link,
 *             core_link, pod_leaves, pod_gpus, leaf_placement or racks_per_leaf set): leaf_placement,
 *             racks_per_leaf, pods, pod_leaves, pod_endpoints and per_tier [{tier,
 *             switch_model, switches, link_gbps, radix, ports_used, down_ports, up_ports,
 *             oversubscription, uplink_gbps_per_endpoint}] (absent otherwise, so reports of
 *             the single-model form are as before)
 *   fabrics[] with plane_assignment or backup_ports_per_tor set: plane_assignment (by_nic,
 *             by_port), tors_per_rack (ToRs in a server rack, one a plane; null when the
 *             leaves are in network racks), backup_ports_per_tor (after per_tier)
 *   scale_up                       after "fabrics": one object per kind of scale-up domain
 *                                  (node, domains, domain_accelerators, domain_nodes,
 *                                  bandwidth_gbps_per_accelerator, switches, links, then
 *                                  racks_per_domain = node_racks_per_domain +
 *                                  switch_racks_per_domain, switches_per_domain,
 *                                  switch_chips, switch_chips_per_domain, inter_rack_links
 *                                  (cables) and backplane_links)
 *   totals.cpus                    host CPUs, when the nodes count them (cpus)
 *   placement                      after "scale_up": the floor (rows, racks_per_row,
 *                                  hall_width_m, hall_depth_m), the network racks (count,
 *                                  type, cooling, cap, cable limit, racks the limit added),
 *                                  optics and the peak rack (kW, cables), the runs (km, all
 *                                  and by tier) against the median rule, the longest run and
 *                                  the optimiser's sweeps and moves (docs/reports.md)
 *   reliability                    after "workloads": the design under failures, or null with
 *                                  no nodes (docs/reliability.md, docs/reports.md)
 *   facility                       after "finance": the PUE and its parts, the power chain's
 *                                  stages, the cooling plant, heat reuse, the zones
 *                                  (report_facility.c)
 *
 * Units are the ones the keys name: kW and kWh (3 decimals), money in the report currency
 * (2 decimals), t, days, ms, Tb/s and Gb/s (3 decimals); ratios have 4 decimals. Counts are
 * integers; every other number is a JSON real, so a consumer sees the same type whatever the
 * value. Numbers that are unknown or do not apply are null (a torus has no switch model, radix
 * nor breakout; a tree that is not rail-optimized has no scalable units).
 */
#include "backends.h"

#include <math.h>
#include <string.h>

enum { KW_DECIMALS = 3, KWH_DECIMALS = 3, MONEY_DECIMALS = 2, RATIO_DECIMALS = 4,
       TBPS_DECIMALS = 3, GBPS_DECIMALS = 3 };

#define REPORT_SCHEMA "clusterc.report/1"

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
	jw_set(o, "hot_spare_nodes", jw_count(t->hot_spares));
	jw_set(o, "racks", jw_count(t->racks));
	jw_set(o, "switches", jw_count(t->switches));
	jw_set(o, "cables", jw_count(t->cables));
	jw_set(o, "patch_panels", jw_count(t->patch_panels));
	jw_set(o, "trunks", jw_count(t->trunks));
	jw_set(o, "it_power_kw", kw(t->it_power));
	jw_set(o, "facility_power_kw", kw(t->facility_power));
	jw_set(o, "pue", jw_real(t->pue, RATIO_DECIMALS));
	jw_set(o, "capex", money(t->capex));
	jw_set(o, "annual_energy_kwh", jw_real(t->annual_energy / J_PER_KWH, KWH_DECIMALS));
	jw_set(o, "annual_energy_cost", money(t->annual_energy_cost));
	jw_set(o, "tco", money(t->tco));
	jw_set(o, "tco_years", jw_real(t->horizon_years, 3));
	jw_set(o, "average_it_power_kw", kw(t->avg_it_power));
	jw_set(o, "power_capacity_kw", kw(t->power_capacity));
	if (!isnan(t->annual_carbon))
		jw_set(o, "carbon_t_per_year", jw_real(t->annual_carbon / 1e3, 3));
	if (t->cpus > 0)
		jw_set(o, "cpus", jw_count(t->cpus));
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
	jw_set(o, "spares", money(t->capex_by_cat[CAT_SPARES]));
	return o;
}

/* The spare parts bought: per kind the cluster's rate and the count (docs/reports.md). */
static Json *spares_json(const Totals *t)
{
	static const char *const kinds[SPARE_COUNT] = {"switches", "optics", "cables"};
	Json *o = jw_object();
	for (int i = 0; i < SPARE_COUNT; i++) {
		Json *k = jw_object();
		jw_set(k, "rate", jw_real(t->spares[i].rate, RATIO_DECIMALS));
		jw_set(k, "count", jw_int((long long)t->spares[i].count));
		jw_set(o, kinds[i], k);
	}
	jw_set(o, "capex", money(t->capex_by_cat[CAT_SPARES]));
	return o;
}

static Json *by_tier_json(const int *tiers, const char *const *names, const int *counts)
{
	Json *o = jw_object();
	for (int i = 0; tiers[i] >= 0; i++)
		jw_set(o, names[tiers[i]], jw_int(counts[tiers[i]]));
	return o;
}

/* A torus's shape as built: its dimensions, positions (chips) per node, the block one rack holds
 * and how many, and the optical circuit switches that join the blocks' faces (null without). */
static Json *torus_json(const FabricInst *f)
{
	Json *o = jw_object();
	Json *dims = jw_array(), *block = jw_array();
	for (int i = 0; i < f->ndims; i++) {
		jw_push(dims, jw_int(f->dims[i]));
		jw_push(block, jw_int(f->block[i]));
	}
	jw_set(o, "dims", dims);
	jw_set(o, "positions", jw_int(f->endpoints / f->planes));
	jw_set(o, "per_node", jw_int(f->per_node));
	Json *ns = jw_array();
	for (int i = 0; i < f->ndims; i++)
		jw_push(ns, jw_int(f->node_shape[i]));
	jw_set(o, "node_shape", ns);
	jw_set(o, "twisted", jw_bool(f->twisted));
	jw_set(o, "block", block);
	jw_set(o, "blocks", jw_int(f->blocks));
	jw_set(o, "direct_links", jw_int(f->links_by_tier[LT_TORUS]));
	jw_set(o, "board_links", jw_int(f->board_links));
	if (f->by_tier[ST_OCS]) {
		Json *c = jw_object();
		jw_set(c, "model", jw_str(f->switch_model->name));
		jw_set(c, "count", jw_int(f->by_tier[ST_OCS]));
		jw_set(c, "ports", jw_int(f->switch_model->ocs.ports));
		jw_set(c, "ports_used_per_ocs", jw_int(f->ocs_ports));
		jw_set(c, "ports_used", jw_int(f->ocs_ports * f->by_tier[ST_OCS]));
		jw_set(c, "fibres", jw_int(f->links_by_tier[LT_OCS]));
		jw_set(c, "circuits", jw_int(f->links_by_tier[LT_OCS] / 2));
		jw_set(o, "ocs", c);
	} else {
		jw_set(o, "ocs", jw_null());
	}
	return o;
}

/* Ports per switch of each tier of fabric fi as wired: the tier's radix and the fewest, most
 * and all ports in use (a dragonfly's routers, a tree's leaves, a torus's OCSes). */
static Json *ports_used_json(const Design *d, int fi)
{
	const FabricInst *f = &d->fabrics[fi];
	Json *o = jw_object();
	for (int t = 0; t < ST_COUNT; t++) {
		if (!f->by_tier[t])
			continue;
		int lo = -1, hi = 0, radix = 0;
		double total = 0;
		for (int i = f->first_switch; i < d->nswitches && d->switches[i].fabric == fi; i++) {
			const SwitchInst *s = &d->switches[i];
			if ((int)s->tier != t)
				continue;
			lo = lo < 0 || s->used < lo ? s->used : lo;
			hi = s->used > hi ? s->used : hi;
			radix = s->radix;
			total += s->used;
		}
		Json *x = jw_object();
		jw_set(x, "radix", jw_int(radix));
		jw_set(x, "per_switch_min", jw_int(lo < 0 ? 0 : lo));
		jw_set(x, "per_switch_max", jw_int(hi));
		jw_set(x, "total", jw_count(total));
		jw_set(o, ir_switch_tier_names[t], x);
	}
	return o;
}

/* A tree written in the per-tier form (docs/fabrics.md §2): where its leaves stand, its pods,
 * and one object per tier present: the switch model, count, the speed of the links down from
 * it, its radix there, the most ports wired on one of its switches, its down and up ports,
 * its down:up bandwidth and the bandwidth up from it per endpoint port (Gb/s). */
static void per_tier_json(Json *o, const FabricInst *f)
{
	static const int st[] = {ST_LEAF, ST_SPINE, ST_CORE};
	jw_set(o, "leaf_placement", jw_str(f->tor ? "server_rack" : "network_rack"));
	jw_set(o, "racks_per_leaf", f->tor ? jw_int(f->racks_per_leaf) : jw_null());
	jw_set(o, "pods", f->tiers == 3 ? jw_int(f->pods) : jw_null());
	jw_set(o, "pod_leaves", f->tiers == 3 ? jw_int(f->pod_leaves) : jw_null());
	jw_set(o, "pod_endpoints", f->tiers == 3 ? jw_int(f->pod_endpoints * f->planes) : jw_null());
	Json *a = jw_array();
	for (int t = 0; t < f->tiers && t < 3; t++) {
		Json *x = jw_object();
		bool top = t == f->tiers - 1;
		jw_set(x, "tier", jw_str(ir_switch_tier_names[st[t]]));
		jw_set(x, "switch_model", jw_str(f->tier_model[t]->name));
		jw_set(x, "switches", jw_int(f->by_tier[st[t]]));
		jw_set(x, "link_gbps", jw_real(f->tier_speed[t] / 1e9, GBPS_DECIMALS));
		jw_set(x, "radix", jw_int(f->tier_radix[t]));
		jw_set(x, "ports_used", jw_int(f->tier_used[t]));
		jw_set(x, "down_ports", top ? jw_int(f->tier_used[t]) : jw_int(f->down[t]));
		jw_set(x, "up_ports", top ? jw_int(0) : jw_int(f->up[t]));
		jw_set(x, "oversubscription", top ? jw_null() : jw_real(f->oversub[t], RATIO_DECIMALS));
		jw_set(x, "uplink_gbps_per_endpoint",
		       top ? jw_null() : jw_real(f->up_per_endpoint[t] / 1e9, GBPS_DECIMALS));
		jw_push(a, x);
	}
	jw_set(o, "per_tier", a);
}

/* One object per sized fabric, in Design order: the contract's keys (name ... diameter_hops),
 * then the added ones (see the top of the file). The oversubscription of the contract is the
 * leaf's down:up ratio as a number; a 1-tier tree (one switch, nothing above it) and the
 * topologies that are not trees report 1.0. */
static Json *fabric_json(const Design *d, int fi)
{
	const FabricInst *f = &d->fabrics[fi];
	const TopologyFamily *fam = f->family;
	int up_tiers = fam->tree && f->tiers > 1 ? f->tiers - 1 : 0; /* tree tiers with up links */
	Json *o = jw_object();
	jw_set(o, "name", jw_str(f->name));
	jw_set(o, "topology", jw_str(fam->name));
	jw_set(o, "tiers", jw_int(f->tiers));
	jw_set(o, "planes", jw_int(f->planes));
	jw_set(o, "switch_model",
	       f->switches > 0 && f->switch_model ? jw_str(f->switch_model->name) : jw_null());
	jw_set(o, "switches_by_tier", by_tier_json(fam->switch_tiers, ir_switch_tier_names, f->by_tier));
	jw_set(o, "links_by_tier", by_tier_json(fam->link_tiers, ir_link_tier_names, f->links_by_tier));
	jw_set(o, "bisection_tbps", jw_real(f->bisection / 1e12, TBPS_DECIMALS));
	jw_set(o, "oversubscription", jw_real(up_tiers ? f->oversub[0] : 1.0, RATIO_DECIMALS));
	jw_set(o, "diameter_hops", jw_int(f->diameter));

	Json *ov = jw_array();
	for (int t = 0; t < up_tiers && t < 3; t++)
		jw_push(ov, jw_real(f->oversub[t], RATIO_DECIMALS));
	jw_set(o, "oversubscription_by_tier", ov);
	jw_set(o, "ecmp_paths", jw_count(f->ecmp));
	jw_set(o, "rails", jw_int(f->rails));
	jw_set(o, "link_gbps", jw_real(f->link_speed / 1e9, GBPS_DECIMALS));
	jw_set(o, "radix", f->switches > 0 ? jw_int(f->radix) : jw_null());
	jw_set(o, "breakout", f->switches > 0 ? jw_int(f->breakout) : jw_null());
	jw_set(o, "endpoints", jw_int(f->endpoints));
	jw_set(o, "scalable_units", fam->tree && f->rail_optimized ? jw_int(f->sus) : jw_null());
	jw_set(o, "switches", jw_int(f->switches));
	jw_set(o, "links", jw_int(f->links));
	jw_set(o, "ports_used_by_tier", ports_used_json(d, fi));
	if (f->grows) { /* grow_to: the size planned and the ports kept for it (docs/daytwo.md) */
		jw_set(o, "grow_to", jw_int(f->grow_nodes));
		Json *r = jw_object();
		jw_set(r, "spine", jw_int(f->reserved[1]));
		jw_set(r, "core", jw_int(f->reserved[2]));
		jw_set(o, "reserved_ports_by_tier", r);
	}
	if (f->ndims)
		jw_set(o, "torus", torus_json(f));
	if (fam->tree && f->per_tier)
		per_tier_json(o, f);
	if (f->plane_form) {
		jw_set(o, "plane_assignment", jw_str(f->by_port ? "by_port" : "by_nic"));
		jw_set(o, "tors_per_rack", f->tor ? jw_int(f->tors_per_rack) : jw_null());
		jw_set(o, "backup_ports_per_tor", jw_int(f->backup_ports));
	}
	/* The family's own parameters (dragonfly p, a, h, g; torus dims). */
	if (fam->shape_key) {
		Json *sh = fam->shape_list ? jw_array() : jw_object();
		for (int i = 0; i < f->nshape; i++) {
			if (fam->shape_list)
				jw_push(sh, jw_int(f->shape[i].value));
			else
				jw_set(sh, f->shape[i].name, jw_int(f->shape[i].value));
		}
		jw_set(o, fam->shape_key, sh);
	}
	return o;
}

static Json *fabrics_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->nfabrics; i++)
		if (d->fabrics[i].sized && d->fabrics[i].family)
			jw_push(a, fabric_json(d, i));
	return a;
}

/* Scale-up domains: inside a node (8-GPU NVLink boards) or larger (NVL72 racks with their switch
 * trays and backplane links). */
static Json *scale_up_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->nscaleups; i++) {
		const ScaleUpInst *s = &d->scaleups[i];
		Json *o = jw_object();
		jw_set(o, "node", jw_str(s->node ? s->node->name : NULL));
		jw_set(o, "domains", jw_int(s->domains));
		jw_set(o, "domain_accelerators", jw_int(s->domain_accels));
		jw_set(o, "domain_nodes", jw_int(s->domain_nodes));
		jw_set(o, "bandwidth_gbps_per_accelerator", jw_real(s->bandwidth / 1e9, 3));
		jw_set(o, "switches", jw_int(s->nswitches));
		jw_set(o, "links", jw_int(s->nlinks));
		jw_set(o, "racks_per_domain", jw_int(s->node_racks + s->switch_racks));
		jw_set(o, "node_racks_per_domain", jw_int(s->node_racks));
		jw_set(o, "switch_racks_per_domain", jw_int(s->switch_racks));
		jw_set(o, "switches_per_domain", jw_int(s->switches_per_domain));
		jw_set(o, "switch_chips", jw_int(s->domains * s->chips_per_domain));
		jw_set(o, "switch_chips_per_domain", jw_int(s->chips_per_domain));
		jw_set(o, "inter_rack_links", jw_int(s->cables));
		jw_set(o, "backplane_links", jw_int(s->nlinks - s->cables));
		jw_push(a, o);
	}
	return a;
}

/* One object per workload plan (plan.c): the contract's name, gpus, tp, pp, dp, cp, ep,
 * micro_batch, step_time_s, mfu, time_to_train_days, energy_to_train_mwh and
 * energy_to_train_cost, then interleave, recompute, sequence_parallel, distributed_optimizer,
 * nodes, tokens_per_s, tflops_per_gpu, memory_gib_per_gpu, hbm_gib, hbm_gb, steps and plans_evaluated
 * (parallelism/WORKLOAD.json has the rest). */
static Json *workloads_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanConfig *c = &wp->r.best;
		const PlanCost *k = &wp->r.cost;
		Json *o = jw_object();
		jw_set(o, "name", jw_str(wp->name));
		jw_set(o, "gpus", jw_int(c->gpus));
		jw_set(o, "tp", jw_int(c->tp));
		jw_set(o, "pp", jw_int(c->pp));
		jw_set(o, "dp", jw_int(c->dp));
		jw_set(o, "cp", jw_int(c->cp));
		jw_set(o, "ep", jw_int(c->ep));
		jw_set(o, "micro_batch", jw_int(c->micro));
		jw_set(o, "step_time_s", jw_real(k->step, 6));
		jw_set(o, "mfu", jw_real(k->mfu, RATIO_DECIMALS));
		jw_set(o, "time_to_train_days", jw_real(wp->time_to_train / 86400, 4));
		jw_set(o, "energy_to_train_mwh", jw_real(wp->energy / 3.6e9, 3));
		jw_set(o, "energy_to_train_cost", money(wp->energy_cost));
		jw_set(o, "interleave", jw_int(c->v));
		if (c->dualpipe)
			jw_set(o, "pipeline_schedule", jw_str(enum_PIPELINE_SCHEDULE.words[PPS_DUALPIPE]));
		parallelism_recompute_json(o, c);
		if (c->offload > 0)
			jw_set(o, "offload_layers", jw_int(c->offload));
		jw_set(o, "sequence_parallel", jw_bool(c->sp));
		jw_set(o, "distributed_optimizer", jw_bool(c->dopt));
		jw_set(o, "nodes", jw_int(wp->nodes));
		jw_set(o, "tokens_per_s", jw_real(k->tokens_per_s, 1));
		jw_set(o, "tflops_per_gpu", jw_real(k->tflops_per_gpu, 3));
		jw_set(o, "memory_gib_per_gpu", jw_real(k->mem / 1073741824.0, 3));
		jw_set(o, "hbm_gib", jw_real(wp->hw.hbm / 1073741824.0, 3));
		jw_set(o, "hbm_gb", jw_real(wp->hw.hbm / 1e9, 3));
		jw_set(o, "steps", jw_count(wp->steps));
		jw_set(o, "plans_evaluated", jw_count(wp->r.evaluated));
		jw_push(a, o);
	}
	return a;
}

static Json *optimizer_json(const OptimizerReport *opt)
{
	static const OptimizerReport none = {.solver = "none", .status = "not_run",
					     .objective = NAN, .bound = NAN, .gap = NAN,
					     .design_objective = NAN, .cable_money = NAN,
					     .cable_watts = NAN};
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
	jw_set(o, "design_objective", jw_real(opt->design_objective, 6));
	jw_set(o, "cable_estimate_per_link", jw_real(opt->cable_money, 2));
	jw_set(o, "cable_estimate_w_per_link", jw_real(opt->cable_watts, 3));
	Json *rej = jw_array();
	for (int i = 0; i < opt->rejected; i++)
		jw_push(rej, jw_str(opt->rejected_text[i]));
	jw_set(o, "rejected_at_cabling", rej);
	/* The objective's units: base ("bit/s"), and as report.md shows it ("Tbit/s"). */
	double scale;
	int places;
	const char *shown = text_display_unit(opt->objective_unit, &scale, &places);
	jw_set(o, "objective_unit", jw_str(opt->objective_unit));
	jw_set(o, "objective_shown", jw_real(opt->objective * scale, places));
	jw_set(o, "objective_shown_unit", opt->objective_unit ? jw_str(shown) : jw_null());
	return o;
}

/* What a choice saved against the next best option: positive when the choice is better. */
static double saved(const Decision *x, const OptimizerReport *opt)
{
	if (!opt || !isfinite(x->next_best) || !isfinite(opt->objective))
		return NAN;
	return opt->maximize ? opt->objective - x->next_best : x->next_best - opt->objective;
}

void report_json_loc(Json *o, Loc at)
{
	int line = 0, col = 0;
	if (at.src)
		src_linecol(at.src, at.off, &line, &col);
	jw_set(o, "file", at.src ? jw_str(at.src->path) : jw_null());
	jw_set(o, "line", at.src ? jw_int(line) : jw_null());
	jw_set(o, "column", at.src ? jw_int(col) : jw_null());
}

/* The requirements a design misses, from its diagnostics (code "unmet"): the message, the
 * value the design has and the limit it misses in base units, where the requirement is. */
Json *report_violations_json(const Ctx *c)
{
	Json *a = jw_array();
	for (int i = 0; i < c->diags.n; i++) {
		const Diag *g = c->diags.v[i];
		if (g->level != DIAG_ERROR || !g->code || strcmp(g->code, "unmet") != 0)
			continue;
		Json *o = jw_object();
		jw_set(o, "message", jw_str(g->msg));
		jw_set(o, "value", g->has_quantity ? jw_real(g->value, 6) : jw_null());
		jw_set(o, "limit", g->has_quantity ? jw_real(g->limit, 6) : jw_null());
		jw_set(o, "unit", g->has_quantity ? jw_str(g->unit) : jw_null());
		report_json_loc(o, g->loc);
		jw_push(a, o);
	}
	return a;
}

Json *report_decisions_json(const Design *d, const OptimizerReport *opt)
{
	Json *a = jw_array();
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		Json *o = jw_object();
		jw_set(o, "declaration", jw_str(x->name));
		jw_set(o, "field", jw_str(x->field_name));
		jw_set(o, "chosen", x->chosen_text ? jw_str(x->chosen_text) : jw_null());
		jw_set(o, "candidates", jw_int(x->ncandidates));
		jw_set(o, "next_best_objective", jw_real(x->next_best, 6));
		jw_set(o, "next_best", jw_str(x->next_best_text));
		jw_set(o, "saved", jw_real(saved(x, opt), 6));
		/* Where the choice is written (docs/reports.md), and the option as a number in
		 * base units when it is one. */
		report_json_loc(o, x->loc);
		jw_set(o, "chosen_value", jw_real(x->chosen_value, 6));
		jw_set(o, "chosen_unit", jw_str(x->chosen_unit));
		/* the units of next_best_objective and saved: the first objective's */
		jw_set(o, "objective_unit", jw_str(opt ? opt->objective_unit : NULL));
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

static Json *km(double m)
{
	return jw_real(m / 1e3, KW_DECIMALS);
}

/* Runs per link tier (km), the tiers that have cables. */
static Json *run_tiers_json(const double *by_tier)
{
	Json *o = jw_object();
	for (int t = 0; t < LT_COUNT; t++)
		if (by_tier[t] > 0)
			jw_set(o, ir_link_tier_names[t], km(by_tier[t]));
	return o;
}

/* The floor, the racks' power with their optics, and the cable runs against the median rule
 * (docs/reports.md "placement"). */
static Json *placement_json(const Design *d)
{
	const PlaceReport *p = &d->place;
	Json *o = jw_object();
	jw_set(o, "rows", jw_int(p->rows));
	jw_set(o, "racks_per_row", jw_int(p->per_row));
	jw_set(o, "hall_width_m", jw_real(p->width, KW_DECIMALS));
	jw_set(o, "hall_depth_m", jw_real(p->depth, KW_DECIMALS));
	jw_set(o, "network_racks", jw_int(d->network_racks));
	jw_set(o, "network_rack", d->net_rack_type ? jw_str(d->net_rack_type->name) : jw_null());
	jw_set(o, "network_rack_cooling", d->net_cooling_type ? jw_str(d->net_cooling_type->name) : jw_null());
	jw_set(o, "network_rack_cap_kw", isfinite(d->net_rack_cap) ? kw(d->net_rack_cap) : jw_null());
	jw_set(o, "max_cables_per_network_rack", d->net_rack_cables ? jw_int(d->net_rack_cables) : jw_null());
	jw_set(o, "racks_added_for_cables", jw_int(d->racks_for_cables));
	double optics = 0;
	for (int r = 0; r < d->nracks; r++)
		optics += d->racks[r].optics_power;
	jw_set(o, "optics_in_racks_kw", kw(optics));
	jw_set(o, "peak_rack_kw", kw(p->peak_rack_power));
	jw_set(o, "peak_rack_cables", jw_int(p->peak_rack_cables));
	jw_set(o, "total_run_km", p->measured ? km(p->run) : jw_null());
	jw_set(o, "median_rule_run_km", p->measured ? km(p->median_run) : jw_null());
	jw_set(o, "run_saving", p->measured && p->median_run > 0
					? jw_real(1 - p->run / p->median_run, RATIO_DECIMALS)
					: jw_null());
	jw_set(o, "run_km_by_tier", run_tiers_json(p->run_by_tier));
	jw_set(o, "median_rule_run_km_by_tier", run_tiers_json(p->median_by_tier));
	jw_set(o, "longest_run_m", p->measured ? jw_real(p->longest, KW_DECIMALS) : jw_null());
	jw_set(o, "optimizer_sweeps", jw_int(p->sweeps));
	jw_set(o, "groups_moved", jw_int(p->moves));
	return o;
}

static Json *hours(double s)
{
	return jw_real(s / 3600, RATIO_DECIMALS);
}

static Json *days(double s)
{
	return jw_real(s / 86400, RATIO_DECIMALS);
}

/* The plans a loss stops, by name in plan order. */
static Json *plans_json(const Design *d, const BlastLoss *l)
{
	Json *a = jw_array();
	for (int p = 0; l->plans && p < d->nplans; p++)
		if (l->plans[p])
			jw_push(a, jw_str(d->plans[p].name));
	return a;
}

/* A year of 365 days, as passes/design/parts.c reads an afr. */
enum { EVENT_DECIMALS = 6 }; /* a redundant stage fails once in 10^4 to 10^6 years */

/* A set of racks lost (blast_racks): what it takes. */
static void loss_json(Json *o, const Design *d, const BlastLoss *l)
{
	jw_set(o, "racks_lost", jw_int(l->racks));
	jw_set(o, "accelerators_lost", jw_int(l->gpus));
	jw_set(o, "hot_spare_nodes_lost", jw_int(l->spare_nodes));
	jw_set(o, "scale_up_domains_broken", jw_int(l->domains));
	jw_set(o, "switches_lost", jw_int(l->switches));
	jw_set(o, "endpoint_ports_cut", jw_int(l->ports_cut));
	jw_set(o, "plans_restarting", plans_json(d, l));
}

/* The power chain's stages (blast.c): what one unit's failure takes. */
static Json *blast_power_json(const Design *d)
{
	const BlastRadius *b = &d->blast;
	Json *a = jw_array();
	for (int k = 0; k < b->npower; k++) {
		const BlastPower *p = &b->power[k];
		Json *x = jw_object();
		jw_set(x, "stage", jw_str(p->stage->name));
		jw_set(x, "kind", jw_str(ir_power_stage_names[p->stage->stage.stage]));
		jw_set(x, "redundancy", jw_str(ir_redundancy_names[p->stage->stage.redundancy]));
		jw_set(x, "units", jw_int(p->units));
		jw_set(x, "tolerated", jw_bool(p->tolerated));
		loss_json(x, d, &p->loss);
		jw_set(x, "events_per_year",
		       jw_real((p->rate + p->ccf_rate) * SECONDS_PER_YEAR, EVENT_DECIMALS));
		jw_set(x, "racks_per_event", jw_int(p->event_racks));
		jw_set(x, "common_cause_events_per_year",
		       jw_real(p->ccf_rate * SECONDS_PER_YEAR, EVENT_DECIMALS));
		jw_set(x, "racks_per_common_cause_event", jw_int(p->ccf_racks));
		jw_push(a, x);
	}
	return a;
}

/* The cooling plant's units (blast.c): what one unit's failure takes, per zone and cooling. */
static Json *blast_cooling_json(const Design *d)
{
	const BlastRadius *b = &d->blast;
	Json *a = jw_array();
	for (int k = 0; k < b->ncooling; k++) {
		const BlastCooling *c = &b->cooling[k];
		const CoolingGroup *g = &d->cool_groups[c->group];
		Json *x = jw_object();
		jw_set(x, "zone", jw_str(d->zones[g->zone].name));
		jw_set(x, "cooling", jw_str(g->cooling->name));
		jw_set(x, "unit", jw_str(c->unit->name));
		jw_set(x, "kind", jw_str(enum_COOLING_UNIT.words[c->unit->cunit.unit]));
		jw_set(x, "redundancy", jw_str(ir_redundancy_names[c->unit->cunit.redundancy]));
		jw_set(x, "units", jw_int(c->units));
		jw_set(x, "tolerated", jw_bool(c->tolerated));
		loss_json(x, d, &c->loss);
		jw_set(x, "events_per_year",
		       jw_real((c->rate + c->ccf_rate) * SECONDS_PER_YEAR, EVENT_DECIMALS));
		jw_set(x, "racks_per_event", jw_int(c->event_racks));
		jw_set(x, "common_cause_events_per_year",
		       jw_real(c->ccf_rate * SECONDS_PER_YEAR, EVENT_DECIMALS));
		jw_set(x, "racks_per_common_cause_event", jw_int(c->ccf_racks));
		jw_push(a, x);
	}
	return a;
}

/* What one failure takes down (blast.c): a node, the worst rack, a switch of each tier of each
 * fabric, a plane, k top-tier switches, the worst floor row, a unit of each power stage and
 * of each cooling plant, the worst zone. */
static Json *blast_json(const Design *d)
{
	const BlastRadius *b = &d->blast;
	if (!b->done)
		return jw_null();
	Json *o = jw_object();
	Json *n = jw_object();
	jw_set(n, "accelerators", jw_int(b->node_gpus));
	jw_set(n, "scale_up_accelerators", jw_int(b->node_domain_gpus));
	jw_set(n, "plans_restarting", plans_json(d, &b->node_loss));
	jw_set(n, "events_per_year", jw_real(b->node_rate * SECONDS_PER_YEAR, EVENT_DECIMALS));
	jw_set(o, "node", n);
	Json *r = jw_object();
	jw_set(r, "name", b->rack ? jw_str(b->rack) : jw_null());
	jw_set(r, "accelerators", jw_int(b->rack_gpus));
	jw_set(r, "scale_up_domains", jw_int(b->rack_domains));
	jw_set(r, "switches", jw_int(b->rack_switches));
	jw_set(r, "plans_restarting", plans_json(d, &b->rack_loss));
	jw_set(o, "rack", r);
	Json *row = jw_null();
	if (b->row >= 0) {
		char name[16];
		ir_row_name(b->row, name, sizeof name);
		row = jw_object();
		jw_set(row, "name", jw_str(name));
		loss_json(row, d, &b->row_loss);
	}
	jw_set(o, "row", row);
	jw_set(o, "power", blast_power_json(d));
	jw_set(o, "cooling", blast_cooling_json(d));
	Json *zone = jw_null();
	if (b->zone >= 0) {
		zone = jw_object();
		jw_set(zone, "name", jw_str(d->zones[b->zone].name));
		loss_json(zone, d, &b->zone_loss);
	}
	jw_set(o, "zone", zone);
	Json *fa = jw_array();
	for (int i = 0; i < b->nfabrics; i++) {
		const BlastFabric *f = &b->fabrics[i];
		Json *x = jw_object();
		jw_set(x, "fabric", jw_str(d->fabrics[f->fabric].name));
		jw_set(x, "bisection_tbps", jw_real(f->bisection / 1e12, KW_DECIMALS));
		Json *tiers = jw_array();
		for (int k = 0; k < b->ntiers; k++) {
			const BlastSwitchTier *t = &b->tiers[k];
			if (t->fabric != f->fabric)
				continue;
			Json *y = jw_object();
			jw_set(y, "tier", jw_str(ir_switch_tier_names[t->tier]));
			jw_set(y, "switches", jw_int(t->switches));
			jw_set(y, "endpoint_ports_cut", jw_int(t->ports_cut));
			jw_set(y, "bisection_left_tbps", jw_real(t->bisection_left / 1e12, KW_DECIMALS));
			jw_set(y, "plans_restarting", plans_json(d, &t->loss));
			jw_set(y, "events_per_year", jw_real(t->rate * SECONDS_PER_YEAR, EVENT_DECIMALS));
			jw_push(tiers, y);
		}
		jw_set(x, "switch", tiers);
		jw_set(x, "worst_single_failure",
		       f->worst_tier >= 0 ? jw_str(ir_switch_tier_names[f->worst_tier]) : jw_null());
		jw_set(x, "top_tier", f->top_tier >= 0 ? jw_str(ir_switch_tier_names[f->top_tier]) : jw_null());
		Json *after = jw_array();
		for (int k = 1; k <= BLAST_K; k++)
			jw_push(after, jw_real(f->after[k] / 1e12, KW_DECIMALS));
		jw_set(x, "bisection_tbps_after_top_failures", after);
		jw_set(x, "planes", jw_int(f->planes));
		jw_set(x, "plane_bisection_left_tbps", jw_real(f->plane_bisection_left / 1e12, KW_DECIMALS));
		jw_set(x, "plane_endpoint_ports_cut", jw_int(f->plane_ports_cut));
		jw_set(x, "plane_plans_restarting", plans_json(d, &f->plane_loss));
		jw_push(fa, x);
	}
	jw_set(o, "fabrics", fa);
	return o;
}

/* The design under failures (reliability.c, docs/reliability.md): the cluster's interruption
 * rate by class of part, and each plan's job, checkpoint, interval, goodput, Monte Carlo. */
static Json *reliability_json(const Design *d)
{
	const ClusterReliability *c = &d->reliability;
	if (!c->done)
		return jw_null();
	Json *o = jw_object();
	jw_set(o, "job_mtbf_h", hours(c->mtbf));
	jw_set(o, "interruptions_per_day", jw_real(c->rate * 86400, RATIO_DECIMALS));
	Json *by = jw_object();
	for (int k = 0; k < REL_COUNT; k++)
		jw_set(by, reliability_class_names[k], jw_real(c->by_class[k] * 86400, RATIO_DECIMALS));
	jw_set(o, "interruptions_per_day_by_part", by);
	jw_set(o, "links_counted", jw_bool(c->cabled));
	Json *a = jw_array();
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const WorkloadReliability *r = &wp->rel;
		if (!r->done)
			continue;
		Json *w = jw_object();
		jw_set(w, "name", jw_str(wp->name));
		jw_set(w, "gpus", jw_int(wp->r.best.gpus));
		jw_set(w, "job_mtbf_h", hours(r->mtbf));
		jw_set(w, "interruptions_per_day", jw_real(r->per_day, RATIO_DECIMALS));
		jw_set(w, "checkpoint_gb", jw_real(r->ckpt_bytes / 1e9, KW_DECIMALS));
		jw_set(w, "checkpoint_bytes_per_parameter", jw_real(r->bytes_per_param, RATIO_DECIMALS));
		jw_set(w, "checkpoint_writer_nodes", jw_int(r->writer_nodes));
		jw_set(w, "checkpoint_write_gb_per_s", jw_real(r->write_bw / 1e9, KW_DECIMALS));
		jw_set(w, "checkpoint_read_gb_per_s", jw_real(r->read_bw / 1e9, KW_DECIMALS));
		jw_set(w, "checkpoint_write_s", jw_real(r->write_time, KW_DECIMALS));
		jw_set(w, "restore_s", jw_real(r->restore_time, KW_DECIMALS));
		jw_set(w, "restart_s", jw_real(r->restart, KW_DECIMALS));
		jw_set(w, "checkpoint_interval_min", jw_real(r->interval / 60, KW_DECIMALS));
		jw_set(w, "checkpoint_interval_set", jw_bool(r->interval_set));
		jw_set(w, "young_interval_min", jw_real(r->young / 60, KW_DECIMALS));
		jw_set(w, "goodput", jw_real(r->goodput, RATIO_DECIMALS));
		jw_set(w, "time_to_train_days", days(wp->time_to_train));
		jw_set(w, "effective_days", days(r->effective_time));
		jw_set(w, "effective_energy_mwh", jw_real(r->effective_energy / 3.6e9, KWH_DECIMALS));
		Json *mc = jw_object();
		jw_set(mc, "trials", jw_int(r->mc.trials));
		char seed[24];
		snprintf(seed, sizeof seed, "%016llx", r->mc.seed);
		jw_set(mc, "seed", jw_str(seed));
		jw_set(mc, "mean_days", r->mc.trials ? days(r->mc.mean) : jw_null());
		jw_set(mc, "ci95_days", r->mc.trials ? days(r->mc.ci95) : jw_null());
		jw_set(mc, "p50_days", r->mc.trials ? days(r->mc.p50) : jw_null());
		jw_set(mc, "p90_days", r->mc.trials ? days(r->mc.p90) : jw_null());
		jw_set(w, "monte_carlo", mc);
		jw_push(a, w);
	}
	jw_set(o, "workloads", a);
	const SpareSizing *sp = &d->spare_sizing;
	Json *s = jw_object();
	jw_set(s, "target", jw_real(sp->target, RATIO_DECIMALS));
	jw_set(s, "node_repair_days", days(sp->node_repair));
	jw_set(s, "nodes_down_mean", jw_real(sp->nodes_down, RATIO_DECIMALS));
	jw_set(s, "hot_spare_nodes", jw_int(sp->hot_nodes));
	jw_set(s, "hot_spare_power_kw", kw(sp->hot_power));
	jw_set(s, "hot_spare_racks", jw_real(sp->hot_racks, RATIO_DECIMALS));
	jw_set(s, "hot_spare_nodes_installed", jw_int(sp->installed));
	jw_set(s, "hot_spare_coverage", jw_real(sp->coverage, RATIO_DECIMALS));
	jw_set(s, "shelf_spare_nodes", jw_int(sp->shelf_nodes));
	jw_set(s, "restock_days", days(sp->restock));
	Json *cold = jw_object();
	for (int k = REL_SWITCH; k < REL_COUNT; k++) /* switch, cable, optic, power, cooling */
		jw_set(cold, reliability_class_names[k], jw_int(sp->cold[k]));
	jw_set(s, "cold_spares", cold);
	jw_set(o, "spares", s);
	jw_set(o, "blast_radius", blast_json(d));
	return o;
}

/* The families a default build leaves to be named (--emit): an automation pipeline learns here,
 * not only from the summary on stdout, that switches/ was not written and how to get it. */
static Json *on_demand_json(const Output *o, const Design *d)
{
	Json *a = jw_array();
	int deferred = switch_configs_on_demand(o, d);
	if (deferred) {
		Json *e = jw_object();
		jw_set(e, "name", jw_str("switches"));
		jw_set(e, "switches", jw_int(deferred));
		jw_set(e, "emit", jw_str("--emit switches"));
		jw_push(a, e);
	}
	return a;
}

static Json *report_json(const Output *o, const Design *d, const OptimizerReport *opt,
			 const Artifact *list, int n)
{
	Json *r = jw_object();
	jw_set(r, "schema", jw_str(REPORT_SCHEMA));
	jw_set(r, "spec", jw_str(text_spec_path(d)));
	jw_set(r, "scenario", jw_str(text_scenario(d)));
	jw_set(r, "currency", jw_str(currency_name(d->currency)));
	jw_set(r, "totals", totals_json(&d->t));
	jw_set(r, "power_kw_by_category", power_json(&d->t));
	jw_set(r, "capex_by_category", capex_json(&d->t));
	jw_set(r, "spares", spares_json(&d->t));
	jw_set(r, "fabrics", fabrics_json(d));
	jw_set(r, "scale_up", scale_up_json(d));
	jw_set(r, "placement", placement_json(d));
	jw_set(r, "optimizer", optimizer_json(opt));
	jw_set(r, "decisions", report_decisions_json(d, opt));
	jw_set(r, "workloads", workloads_json(d));
	jw_set(r, "reliability", reliability_json(d));
	jw_set(r, "finance", report_finance_json(d));
	jw_set(r, "facility", report_facility_json(d));
	if (d->expansion.done)
		jw_set(r, "expansion", expansion_json(d));
	jw_set(r, "artifacts", artifacts_json(list, n));
	jw_set(r, "artifacts_on_demand", on_demand_json(o, d));
	return r;
}

int report_json_write(Output *o, const Design *d)
{
	const OptimizerReport *opt = d->report.solver ? &d->report : NULL; /* NULL: none ran */
	const Artifact *list;
	int n = output_artifacts(o, &list);
	if (n < 0)
		return 1;
	Json *root = report_json(o, d, opt, list, n);
	FILE *f = output_file(o, "report.json");
	if (!f) {
		jw_free(root);
		return 1;
	}
	jw_write(f, root);
	return output_close(o, f);
}
