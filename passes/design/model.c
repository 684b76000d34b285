/*
 * model.c — power, cost and energy of a planned design (docs/models.md gives each formula).
 *
 * IT power at peak, by category:
 *   nodes    Σ count × node power (declared, or accelerator TDPs + NICs + base_power)
 *   network  fabric switches, fabric endpoints that are not nodes, scale-up switch trays,
 *            active cables and transceivers
 *   storage  Σ count × appliance power
 *   other    the cluster's other_power
 * Average IT power = nodes × utilization + the rest (network, storage and other loads run
 * flat; utilization is the cluster's, 1 by default: the seed article's peak draw).
 * Facility power = IT power × PUE, where PUE is the site's when it gives one, else the cooling
 * plant's partial PUE at peak (cooling_plant.c: each group of racks with one cooling, its
 * units' power on the design day) divided by the power system's efficiency (UPS or HVDC
 * losses): its own times its chain's stages' (power_chain.c, which sizes and costs each stage).
 * Annual energy = average IT power × annual PUE (the plant's power over a year: chillers off in
 * the site's free-cooling hours) × 8,760 h; its cost at the site's electricity price, less the
 * credit for heat reused; carbon at the site's grid intensity.
 * Capex by category: nodes (prices, spares on the shelf included), network (switches, NICs
 * priced apart from their nodes, scale-up switch trays), cabling (cables and whole
 * transceivers), storage, racks (count × price), cooling (each cooling plant's units per kW
 * installed and the cooling's own capex per kW of the heat it cools), power
 * (capex per kW of installed capacity: IT load × 2 for 2N, × (m+1)/m for N+1) — plant per kW
 * after Turner and Seader, "Dollars per kW plus Dollars per Square Foot" (Uptime Institute,
 * 2006).
 * TCO = capex + annual energy cost × horizon (years of 365 days), undiscounted (Koomey et al.,
 * "A Simple Model for Determining True TCO for Data Centers", Uptime Institute, 2008).
 * Carbon = energy × grid intensity, the location-based method of the GHG Protocol Scope 2
 * Guidance (WRI/WBCSD, 2015).
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The BOM's lines while they are made: malloc'd scratch, copied into the arena once at the end
 * (the optimizer runs model_design for every candidate, tens of thousands at times: in the
 * arena, each candidate's lines and their growing list stayed until the end of the build;
 * docs/performance.md). */
typedef struct Lines {
	BomLine *v;
	int n, cap;
} Lines;

static BomLine *push_line(Lines *lines)
{
	if (lines->n == lines->cap) {
		lines->cap = lines->cap ? 2 * lines->cap : 64;
		lines->v = xrealloc(lines->v, sizeof *lines->v * (size_t)lines->cap);
	}
	return &lines->v[lines->n++];
}

static void bom(Design *d, Lines *lines, const char *part, const Part *model, double qty,
		const char *unit, double unit_price, double unit_power)
{
	(void)d;
	if (qty <= 0)
		return;
	*push_line(lines) = (BomLine){part, model, model ? model->name : part,
				       model ? model->description : "", qty, unit, unit_price,
				       qty * unit_price, unit_power, qty * unit_power};
}

/* A node's counted CPUs (cpus, cpu_model): a BOM line for procurement's count, priced and
 * powered inside the node. */
static void cpu_line(Design *d, Lines *lines, const Part *node, double n)
{
	if (node->node.cpus <= 0 || n <= 0)
		return;
	const char *model = node->node.cpu_model ? node->node.cpu_model : "CPU";
	const char *desc = node->node.cpu_cores > 0
				   ? arena_printf(d->c->arena, "%d cores; in node '%s' (price and power)",
						  node->node.cpu_cores, node->name)
				   : arena_printf(d->c->arena, "in node '%s' (price and power)",
						  node->name);
	*push_line(lines) = (BomLine){"cpu", NULL, model, desc, n * node->node.cpus, "", 0, 0, 0, 0};
}

/* Redundancy multiplies the power plant installed for the IT load (power_chain.c). */
static double redundancy_factor(const Part *power)
{
	return power ? power_chain_factor(power->power_sys.redundancy, power->power_sys.module_count)
		     : 1;
}

/* Each counted part (COUNT x NAME, or a list) times a multiplier, into the BOM and totals. */
static void counted_parts(Design *d, Lines *lines, const PartCount *pc, int n, double times,
			  const char *part, int cat_power, int cat_capex, bool priced)
{
	for (int i = 0; i < n; i++) {
		double qty = pc[i].count * times;
		double unit_price = priced ? pc[i].part->price : 0;
		double unit_power = pc[i].part->power;
		if (cat_power >= 0)
			d->t.power_by_cat[cat_power] += qty * unit_power;
		d->t.capex_by_cat[cat_capex] += qty * unit_price;
		if (priced)
			bom(d, lines, part, pc[i].part, qty, "", unit_price, cat_power >= 0 ? unit_power : 0);
	}
}

/* Devices on a fabric that are not nodes: fabric managers and gateways in network power and
 * capex; storage appliances in storage's, and none that cluster.storage already buys (the
 * fabric's endpoints are those appliances, parts.c). */
static void fabric_extras(Design *d, Lines *lines)
{
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		const Value *ev = f->sized ? field_value(f->decl, FLD_FABRIC_ENDPOINTS) : NULL;
		for (int k = 0; ev && k < (ev->kind == VAL_LIST ? ev->n : 1); k++) {
			const Value *cv = ev->kind == VAL_LIST ? ev->items[k] : ev;
			const Part *dev = parts_of(d, cv->ref);
			bool storage = dev->kind == KIND_STORAGE;
			if (storage && parts_storage_declared(d, dev))
				continue;
			int cat = storage ? CAT_STORAGE : CAT_NETWORK;
			double n = cv->count->q.v, unit_power = dev->power;
			d->t.power_by_cat[cat] += n * unit_power;
			d->t.capex_by_cat[cat] += n * dev->price;
			bom(d, lines, storage ? "storage" : "fabric device", dev, n, "", dev->price,
			    unit_power);
		}
	}
}

/* Spares of a BOM line of qty parts at the cluster's rate (field f), rounded up: their own
 * line, capex category spares, no power (they stay on the shelf). model_name: the line's model
 * text when it is not the part's name (a cable's length). */
static void spare_line(Design *d, Lines *lines, const char *what, const Part *part,
		       const char *model_name, double qty, int kind, double unit_price)
{
	static const FieldId rates[SPARE_COUNT] = {FLD_CLUSTER_SPARE_SWITCHES, FLD_CLUSTER_SPARE_OPTICS,
						   FLD_CLUSTER_SPARE_CABLES};
	double rate = field_num(d->cluster, rates[kind]);
	double n = ceil(qty * rate - 1e-9);
	if (n <= 0)
		return;
	d->t.capex_by_cat[CAT_SPARES] += n * unit_price;
	d->t.spares[kind].count += n;
	bom(d, lines, what, part, n, "", unit_price, 0);
	if (model_name) {
		BomLine *b = &lines->v[lines->n - 1];
		b->model = model_name;
	}
}

typedef struct CableKey {
	const Part *part;
	double length; /* 0 for transceivers */
	double count, price, power;
} CableKey;

/* The key's index (added when new), by a scan: key_index's when its hint misses. */
static int key_scan(CableKey *keys, int *n, const Part *part, double length, int *hint)
{
	for (int i = 0; i < *n; i++)
		if (keys[i].part == part && keys[i].length == length)
			return *hint = i;
	keys[*n] = (CableKey){part, length, 0, 0, 0};
	return *hint = (*n)++;
}

/* The key's index (added when new). *hint: where the last lookup of this call site found its
 * key, tried first (keys are unique, so the same answer as the scan; cables come in runs):
 * inline, a hit is a few instructions (the dragonfly's 1.4 million lookups: 36 M under
 * callgrind as a call). */
static inline int key_index(CableKey *keys, int *n, const Part *part, double length, int *hint)
{
	if (*hint < *n && keys[*hint].part == part && keys[*hint].length == length)
		return *hint;
	return key_scan(keys, n, part, length, hint);
}

/* Cables by model and length, transceivers by model, each part once (cage.c marks the cable
 * that counts a cage's module or a multi-leg assembly), into cabling capex, network power and
 * the BOM. */
static void cable_lines(Design *d, Lines *lines)
{
	int cap = 64, n = 0;
	CableKey *keys = xmalloc(sizeof(CableKey) * (size_t)cap);
	int hint[6] = {0}; /* each call site's (key_index) */
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		if (!c->cable)
			continue;
		if (n + 3 > cap) {
			cap *= 2;
			keys = xrealloc(keys, sizeof(CableKey) * (size_t)cap);
		}
		/* Each part once: an assembly on its first leg, a cage's module on its first link;
		 * a link through a trunk (trunk.c) buys two cords, the trunk is counted below. */
		if (c->trunk >= 0) {
			const CableLeg *g = ir_cable_leg(d, c);
			keys[key_index(keys, &n, c->cable, g->cord_a, &hint[0])].count++;
			if (n + 3 > cap) {
				cap *= 2;
				keys = xrealloc(keys, sizeof(CableKey) * (size_t)cap);
			}
			keys[key_index(keys, &n, c->cable, g->cord_z, &hint[1])].count++;
		} else if (c->assembly == i) {
			keys[key_index(keys, &n, c->cable, c->length, &hint[2])].count++;
		}
		const Part *ends[2] = {c->module_a ? c->optic_a : NULL, c->module_z ? c->optic_z : NULL};
		for (int e = 0; e < 2; e++)
			if (ends[e])
				keys[key_index(keys, &n, ends[e], 0, &hint[3 + e])].count++;
	}
	for (int i = 0; i < d->ntrunks; i++) {
		if (n + 1 > cap) {
			cap *= 2;
			keys = xrealloc(keys, sizeof(CableKey) * (size_t)cap);
		}
		keys[key_index(keys, &n, d->trunks[i].part, d->trunks[i].length, &hint[5])].count++;
	}
	for (int i = 0; i < n; i++) {
		CableKey *k = &keys[i];
		double unit_power = k->part->power;
		double unit_price = k->part->price;
		/* The BOM buys whole modules and whole cables; capex and power follow it. */
		double qty = k->count;
		if (k->part->kind == KIND_OPTIC) {
			bom(d, lines, "optic", k->part, qty, "", unit_price, unit_power);
			spare_line(d, lines, "spare optic", k->part, NULL, qty, SPARE_OPTICS,
				   unit_price);
		} else {
			unit_price += k->part->cable.price_per_m * k->length;
			bom(d, lines, "cable", k->part, qty, "", unit_price, unit_power);
			BomLine *b = &lines->v[lines->n - 1];
			b->model = arena_printf(d->c->arena, "%s %g m", k->part->name, k->length);
			spare_line(d, lines, "spare cable", k->part, b->model, qty, SPARE_CABLES,
				   unit_price);
		}
		d->t.capex_by_cat[CAT_CABLING] += qty * unit_price;
		d->t.power_by_cat[CAT_NETWORK] += qty * unit_power;
		d->t.cabling_power += qty * unit_power;
	}
	free(keys);
	d->t.patch_panels = d->npanels;
	d->t.trunks = d->ntrunks;
	/* Patch panels by model (a fabric has one), in cabling (trunk.c). */
	const Part **models = xmalloc(sizeof(Part *) * (size_t)(d->nfabrics + 1));
	int *counts = xmalloc(sizeof(int) * (size_t)(d->nfabrics + 1)), nm = 0;
	for (int i = 0; i < d->npanels; i++) {
		int k = 0;
		while (k < nm && models[k] != d->panels[i].part)
			k++;
		if (k == nm)
			models[nm] = d->panels[i].part, counts[nm++] = 0;
		counts[k]++;
	}
	for (int k = 0; k < nm; k++) {
		bom(d, lines, "patch panel", models[k], counts[k], "", models[k]->price, 0);
		d->t.capex_by_cat[CAT_CABLING] += counts[k] * models[k]->price;
	}
	free(models);
	free(counts);
}

/* The cooling plant of each group (cooling_plant.c) into cooling capex and the BOM: the
 * cooling's own per kW of the heat it cools, then each unit (whole units when it has a size,
 * else kW installed). */
static void cooling_lines(Design *d, Lines *lines)
{
	d->t.capex_by_cat[CAT_COOLING] = 0;
	for (int i = 0; i < d->nzones; i++)
		d->zones[i].cooling_capex = 0;
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		double kw = g->heat / 1e3, per_kw = g->cooling->cooling.capex_per_w * 1e3;
		d->t.capex_by_cat[CAT_COOLING] += g->capex;
		d->zones[g->zone].cooling_capex += g->capex;
		bom(d, lines, "cooling plant", g->cooling, per_kw > 0 ? kw : 0, "kW", per_kw, 0);
		for (int k = 0; k < g->nunits; k++) {
			const CoolingUnitInst *u = &g->units[k];
			if (u->units > 0)
				bom(d, lines, "cooling unit", u->unit, u->units, "", u->capex / u->units, 0);
			else
				bom(d, lines, "cooling unit", u->unit, u->installed / 1e3, "kW",
				    u->unit->cunit.capex_per_w * 1e3, 0);
		}
	}
}

int model_design(Design *d)
{
	Totals *t = &d->t;
	double horizon = t->horizon_years, racks = t->racks;
	*t = (Totals){.horizon_years = horizon, .racks = racks};
	t->spares[SPARE_SWITCHES].rate = field_num(d->cluster, FLD_CLUSTER_SPARE_SWITCHES);
	t->spares[SPARE_OPTICS].rate = field_num(d->cluster, FLD_CLUSTER_SPARE_OPTICS);
	t->spares[SPARE_CABLES].rate = field_num(d->cluster, FLD_CLUSTER_SPARE_CABLES);
	Lines lines = {0};

	for (int i = 0; i < d->ngroups; i++) {
		const NodeGroup *g = &d->groups[i];
		const Part *node = g->type;
		double n = g->count;
		t->nodes += n;
		t->accelerators += n * node->node.accelerators;
		t->power_by_cat[CAT_NODES] += n * node->power;
		double unit_price = node->price;
		t->capex_by_cat[CAT_NODES] += n * unit_price;
		/* Hot spares (spares.c) are nodes racked, powered and cabled: counted above, a BOM
		 * line of their own. */
		t->hot_spares += g->spares;
		bom(d, &lines, "node", node, n - g->spares, "", unit_price, node->power);
		if (g->spares > 0)
			bom(d, &lines, "hot spare node", node, g->spares, "", unit_price, node->power);
		cpu_line(d, &lines, node, n);
		t->cpus += n * node->node.cpus;
		/* Spares (cluster.spares, a share of the nodes): whole nodes bought and kept on the
		 * shelf, neither racked, wired nor powered. The epsilon keeps 1,250 x 2 % at 25. */
		double spares = ceil((n - g->spares) * field_num(d->cluster, FLD_CLUSTER_SPARES) - 1e-9);
		if (spares > 0) {
			t->capex_by_cat[CAT_NODES] += spares * unit_price;
			bom(d, &lines, "spare node", node, spares, "", unit_price, 0);
		}

		t->spare_accelerators += g->spares * node->node.accelerators;
		for (int k = 0; k < node->node.naccels; k++) {
			double flops = node->node.accels[k].count * node->node.accels[k].part->accel.bf16;
			t->peak_compute += n * flops;
			t->spare_compute += g->spares * flops;
		}
		bool nics_apart = !node->node.price_includes_nics;
		/* NIC power is part of the node's; their price only when bought apart. */
		counted_parts(d, &lines, node->node.nics, node->node.nnics, n, "nic", -1, CAT_NETWORK,
			      nics_apart);
		if (spares > 0)
			counted_parts(d, &lines, node->node.nics, node->node.nnics, spares, "spare nic", -1,
				      CAT_NETWORK, nics_apart);
		if (g->domain_nodes > 1)
			counted_parts(d, &lines, node->node.trays, node->node.ntrays, n / g->domain_nodes,
				      "scale-up switch", CAT_NETWORK, CAT_NETWORK, true);
	}
	/* Fabric switches: power and price of each, by fabric. */
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		/* every fabric link is a cable but the traces between a node's torus positions;
		 * scale-up links are not */
		t->cables += f->links - f->board_links;
		if (!f->switch_model || f->switches == 0)
			continue;
		t->switches += f->switches;
		/* One BOM line per switch model: a tree's tiers may each have their own (the
		 * fabric's switch for all of them unless the spec says otherwise). */
		const Part *models[ST_COUNT];
		int counts[ST_COUNT], nm = 0;
		for (int st = 0; st < ST_COUNT; st++) {
			if (!f->by_tier[st])
				continue;
			const Part *m = ir_tier_model(f, (SwitchTier)st);
			int k = 0;
			while (k < nm && models[k] != m)
				k++;
			if (k == nm)
				models[nm] = m, counts[nm++] = 0;
			counts[k] += f->by_tier[st];
		}
		for (int k = 0; k < nm; k++) {
			double unit_power = models[k]->power;
			double unit_price = models[k]->price;
			t->power_by_cat[CAT_NETWORK] += counts[k] * unit_power;
			t->capex_by_cat[CAT_NETWORK] += counts[k] * unit_price;
			bom(d, &lines, models[k]->kind == KIND_OCS ? "ocs" : "switch", models[k], counts[k],
			    "", unit_price, unit_power);
			spare_line(d, &lines, "spare switch", models[k], NULL, counts[k],
				   SPARE_SWITCHES, unit_price);
		}
	}
	for (int i = 0; i < d->nscaleups; i++) {
		t->switches += d->scaleups[i].nswitches;
		t->cables += d->scaleups[i].cables; /* a multi-rack domain's links between racks */
	}
	fabric_extras(d, &lines);
	if (d->ncables) {
		cable_lines(d, &lines);
	} else if (d->cable_hint_money > 0 || d->cable_hint_watts > 0) {
		/* No cables yet: every link at the per-link figures of a design already cabled. */
		t->capex_by_cat[CAT_CABLING] += t->cables * d->cable_hint_money;
		t->power_by_cat[CAT_NETWORK] += t->cables * d->cable_hint_watts;
		t->cabling_power = t->cables * d->cable_hint_watts;
	}
	counted_parts(d, &lines, d->storage, d->nstorage_kinds, 1, "storage", CAT_STORAGE, CAT_STORAGE,
		      true);
	for (int i = 0; i < d->nstorage_kinds; i++)
		t->storage_units += d->storage[i].count;
	t->power_by_cat[CAT_OTHER] = field_num(d->cluster, FLD_CLUSTER_OTHER_POWER);
	t->capex_by_cat[CAT_NETWORK] += d->probe_money;
	t->power_by_cat[CAT_NETWORK] += d->probe_watts;

	t->it_power = 0;
	for (int k = 0; k < CAT_COUNT; k++)
		t->it_power += t->power_by_cat[k];
	double utilization = field_num(d->cluster, FLD_CLUSTER_UTILIZATION);
	t->avg_it_power = t->it_power - t->power_by_cat[CAT_NODES] * (1 - utilization);

	/* The power system's efficiency times its chain's, each stage sized (power_chain.c); the
	 * cooling plant of each group of racks with one cooling (cooling_plant.c). */
	power_chain_size(d);
	/* Racks and fit-out zone by zone, each zone's IT power (zone.c); the cooling plant of each
	 * zone's groups of racks with one cooling (cooling_plant.c), its capex into the zones. */
	PtrVec zone_lines = {0}; /* zone.c's, a few, from the line they start (it merges only those) */
	zone_costs(d, &zone_lines);
	for (int i = 0; i < zone_lines.n; i++)
		*push_line(&lines) = *(BomLine *)zone_lines.v[i];
	cooling_plant_size(d);
	t->pue_from_site = field_num_set(d->site, FLD_SITE_PUE, &t->pue);
	if (t->pue_from_site) {
		t->pue_annual = t->pue;
	} else {
		t->pue = t->cooling_ppue / t->power_efficiency;
		t->pue_annual = t->cooling_ppue_annual / t->power_efficiency;
	}
	t->facility_power = t->it_power * t->pue;
	cooling_lines(d, &lines);

	t->power_capacity = t->it_power * redundancy_factor(d->power_sys);
	if (d->power_sys) {
		double power_per_kw = d->power_sys->power_sys.capex_per_w * 1e3;
		t->capex_by_cat[CAT_POWER] = t->power_capacity / 1e3 * power_per_kw;
		bom(d, &lines, "power plant", d->power_sys, power_per_kw > 0 ? t->power_capacity / 1e3 : 0,
		    "kW", power_per_kw, 0);
	}
	for (int k = 0; k < d->nstages; k++) {
		const PowerStageInst *s = &d->stages[k];
		double per_kw = s->stage->stage.capex_per_w * 1e3;
		t->capex_by_cat[CAT_POWER] += s->capex;
		bom(d, &lines, "power plant", s->stage, per_kw > 0 ? s->installed / 1e3 : 0, "kW", per_kw,
		    0);
	}

	t->capex = 0;
	for (int k = 0; k < CAT_COUNT; k++)
		t->capex += t->capex_by_cat[k];

	t->annual_energy = t->avg_it_power * t->pue_annual * SECONDS_PER_YEAR;
	t->annual_energy_gross_cost = t->annual_energy * d->electricity;
	cooling_plant_reuse(d);
	t->annual_energy_cost = t->annual_energy_gross_cost - t->heat_credit;
	t->tco = t->capex + t->annual_energy_cost * t->horizon_years;
	double ci;
	t->annual_carbon = field_num_set(d->site, FLD_SITE_CARBON_INTENSITY, &ci) ? t->annual_energy * ci : NAN;

	/* The array of the last call is reused when it has room: nothing keeps it once it is
	 * replaced, and the optimizer models a design per candidate. */
	if (!d->bom || d->bom_cap < lines.n + 1) {
		d->bom_cap = lines.n + 16;
		d->bom = (BomLine *)arena_alloc(d->c->arena, sizeof(BomLine) * (size_t)d->bom_cap);
	} else {
		memset(d->bom, 0, sizeof(BomLine) * (size_t)d->bom_cap);
	}
	if (lines.n)
		memcpy(d->bom, lines.v, sizeof(BomLine) * (size_t)lines.n);
	d->nbom = lines.n;
	free(lines.v);
	return 0;
}
