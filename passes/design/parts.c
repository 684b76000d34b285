/*
 * parts.c — every declaration of hardware or plant lowered once into a Part (ir.h): typed
 * fields in base units, prices in the report currency, defaults from the schema, the figures
 * that follow from others computed here and nowhere else (a node's power from its parts, its
 * accelerator and NIC-port counts, its scale-up bandwidth).
 *
 * The kinds lowered have no open choices (the schema marks none of their fields choosable), so
 * a Part holds for every candidate design the optimizer explores; scenarios and --set have
 * rewritten the fields before this pass runs. Every declaration of these kinds becomes a Part,
 * used or not: cabling picks among every cable and optic in scope.
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double RACK_UNIT = 0.04445; /* m (EIA-310) */

static bool is_part_kind(int kind)
{
	switch (kind) {
	case KIND_ACCELERATOR:
	case KIND_NIC:
	case KIND_SWITCH:
	case KIND_OCS:
	case KIND_CABLE:
	case KIND_OPTIC:
	case KIND_PANEL:
	case KIND_COOLING:
	case KIND_COOLING_UNIT:
	case KIND_POWER:
	case KIND_POWER_STAGE:
	case KIND_NODE:
	case KIND_STORAGE:
	case KIND_RACK: return true;
	default: return false;
	}
}

const Part *parts_of(const Design *d, const Decl *decl)
{
	if (!decl)
		return NULL;
	INVARIANT(decl->index >= 0 && decl->index < d->nparts_by_decl && d->part_of[decl->index],
		  "a part asked of a declaration that has none");
	return d->part_of[decl->index];
}

/* A field in base units, NAN when unset and without a literal default. */
static double opt_num(const Decl *x, FieldId f)
{
	double v;
	return field_num_set(x, f, &v) ? v : NAN;
}

/* A count the spec wrote, as an int: past COUNT_MAX it stays COUNT_MAX + 1, so comparisons
 * still find it too large (messages print the number as written, from the field). */
static int count_of(double v)
{
	return isnan(v) ? 0 : v > PART_COUNT_MAX ? PART_COUNT_MAX + 1 : (int)v;
}

static int units_of(double height)
{
	int u = (int)lround(height / RACK_UNIT);
	return u < 1 ? 1 : u;
}

static const char *description(const Decl *x, FieldId f)
{
	const char *s = field_str(x, f);
	return s ? s : "";
}

static int storage_endpoints_agree(Design *d);

/* COUNT x NAME (or a list of them) as PartCounts, with Σ count and Σ count x per(part). */
static const PartCount *counted(Design *d, const Decl *x, FieldId f, int *n, int *total)
{
	const Value *v = field_value(x, f);
	*n = 0;
	if (total)
		*total = 0;
	if (!v || (v->kind != VAL_COUNTED && v->kind != VAL_LIST))
		return NULL;
	int items = v->kind == VAL_LIST ? v->n : 1;
	PartCount *pc = arena_alloc(d->c->arena, sizeof(PartCount) * (size_t)(items + 1));
	for (int i = 0; i < items; i++) {
		const Value *cv = v->kind == VAL_LIST ? v->items[i] : v;
		if (!cv || cv->kind != VAL_COUNTED || !cv->count || cv->count->kind != VAL_QTY)
			continue;
		pc[*n] = (PartCount){d->part_of[cv->ref->index], count_of(cv->count->q.v)};
		if (total)
			*total += pc[*n].count;
		(*n)++;
	}
	return pc;
}

/* A list of references (a power system's chain, a cooling's plant) as Parts, in its order;
 * NULL when empty. */
static const Part **part_list(Design *d, const Decl *x, FieldId f, int *n)
{
	const Value *v = field_value(x, f);
	int k = v && v->kind == VAL_LIST ? v->n : 0;
	const Part **list = arena_alloc(d->c->arena, sizeof(Part *) * (size_t)(k + 1));
	for (int j = 0; j < k; j++)
		list[j] = parts_of(d, v->items[j]->ref);
	*n = k;
	return k ? list : NULL;
}

/* The fields every kind has, then its own. Parts a node names are lowered before it
 * (declarations come in program order, imports first, and a part may be declared after the
 * node that names it), so nodes and storage are finished in a second round. */
/* Whether every required field of x is set: check.c demands them of declarations in use only,
 * so a declaration nothing uses may lack some; its Part is marked incomplete and its missing
 * figures are NAN (cabling skips such media). */
static bool complete(const Decl *x)
{
	const KindSchema *ks = &kind_schemas[x->kind];
	for (int i = 0; i < ks->nfields; i++)
		if ((ks->fields[i].flags & F_REQUIRED) && !field_value(x, ks->fields[i].id))
			return false;
	return true;
}

/* A required number: set on every declaration in use; NAN on an incomplete one. */
static double req_num(const Decl *x, FieldId f)
{
	return opt_num(x, f);
}

/* SerDes lanes of one cage of type `cage`: OSFP and QSFP-DD 8, QSFP112/56/28 4, SFP 1. */
static int cage_lanes(int cage)
{
	switch (cage) {
	case CONN_QSFP112:
	case CONN_QSFP56:
	case CONN_QSFP28: return 4;
	case CONN_SFP56:
	case CONN_SFP28:
	case CONN_BACKPLANE: return 1;
	default: return 8; /* osfp, qsfp_dd */
	}
}

/* How a switch names its ports and numbers their lanes (ir.c, ir_faceplate). A twin-port
 * cage's ports share its lanes. */
static void switch_faceplate(Design *d, Part *pt, const Decl *x)
{
	/* The switch configurations are SONiC's: an Ethernet switch names its ports as SONiC does
	 * unless it says otherwise. */
	pt->sw.port_names = field_enum(x, FLD_SWITCH_PORT_NAMES);
	if (pt->sw.port_names < 0)
		pt->sw.port_names = pt->sw.protocol == PROTO_ETHERNET ? PN_SONIC : PN_PLAIN;
	pt->sw.port_alias = field_enum(x, FLD_SWITCH_PORT_ALIAS);
	const char *sku = field_str(x, FLD_SWITCH_HWSKU);
	pt->sw.hwsku = sku ? sku : pt->name;
	pt->sw.cage_lanes = cage_lanes(pt->sw.cage);
	int per_cage = pt->sw.cages > 0 && pt->sw.ports > pt->sw.cages ? pt->sw.ports / pt->sw.cages
								       : 1;
	pt->sw.port_lanes = pt->sw.cage_lanes / per_cage > 0 ? pt->sw.cage_lanes / per_cage : 1;
	pt->sw.first_lane = count_of(field_num(x, FLD_SWITCH_FIRST_LANE));
	double step;
	pt->sw.lane_step = field_num_set(x, FLD_SWITCH_LANE_STEP, &step) ? count_of(step)
									 : pt->sw.cage_lanes;
	/* A map describes the cages it has an entry for: one inherited by a model with another
	 * cage count (a 128-cage variant of a 64-cage box) is not this model's, and is left. */
	const Value *map = field_value(x, FLD_SWITCH_LANE_MAP);
	if (map && map->kind == VAL_LIST && map->n > 0 && map->n == pt->sw.cages) {
		int *v = arena_alloc(d->c->arena, sizeof(int) * (size_t)map->n);
		int n = 0;
		for (int i = 0; i < map->n; i++)
			if (map->items[i] && map->items[i]->kind == VAL_QTY)
				v[n++] = count_of(map->items[i]->q.v);
		pt->sw.lane_map = v;
		pt->sw.nlane_map = n;
	}
}

/* What the reliability model reads (passes/plan/reliability.c): the failure rate of a part in
 * service, per second, from its annualised rate (afr, per year of 8,760 h: PRODUCT §2); an accelerator's HBM apart; a node's storage bandwidth and an
 * appliance's write bandwidth, bytes per second (NAN when not given). */
static void lower_reliability(Part *pt, const Decl *x)
{
	static const struct {
		int kind;
		FieldId rate;
	} rates[] = {{KIND_ACCELERATOR, FLD_ACCELERATOR_AFR}, {KIND_NIC, FLD_NIC_AFR},
		     {KIND_SWITCH, FLD_SWITCH_AFR},           {KIND_CABLE, FLD_CABLE_AFR},
		     {KIND_OPTIC, FLD_OPTIC_AFR},             {KIND_NODE, FLD_NODE_AFR},
		     {KIND_POWER_STAGE, FLD_POWER_STAGE_AFR}, {KIND_COOLING_UNIT, FLD_COOLING_UNIT_AFR}};
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
		if (rates[i].kind == x->kind)
			pt->failure_rate = field_num(x, rates[i].rate) / SECONDS_PER_YEAR;
	if (x->kind == KIND_POWER_STAGE) {
		pt->mttr = field_num(x, FLD_POWER_STAGE_MTTR);
		pt->ccf_beta = field_num(x, FLD_POWER_STAGE_CCF_BETA);
	}
	if (x->kind == KIND_COOLING_UNIT) {
		pt->mttr = field_num(x, FLD_COOLING_UNIT_MTTR);
		pt->ccf_beta = field_num(x, FLD_COOLING_UNIT_CCF_BETA);
	}
	if (x->kind == KIND_ACCELERATOR)
		pt->accel.memory_failure_rate = field_num(x, FLD_ACCELERATOR_MEMORY_AFR) / SECONDS_PER_YEAR;
	if (x->kind == KIND_NODE)
		pt->node.storage_bw = opt_num(x, FLD_NODE_STORAGE_BANDWIDTH) / 8;
	if (x->kind == KIND_STORAGE) {
		double w;
		pt->storage.write_bw = field_num_set(x, FLD_STORAGE_WRITE_BANDWIDTH, &w)
					       ? w / 8
					       : pt->storage.bandwidth;
	}
}

static void lower_common(Design *d, Part *pt, const Decl *x)
{
	pt->complete = complete(x);
	pt->decl = x;
	pt->kind = x->kind;
	pt->weight = NAN;
	pt->name = x->name;
	pt->loc = x->name_loc;
	switch (x->kind) {
	case KIND_ACCELERATOR:
		pt->vendor = field_str(x, FLD_ACCELERATOR_VENDOR);
		pt->description = description(x, FLD_ACCELERATOR_DESCRIPTION);
		pt->price = money_field(d, x, FLD_ACCELERATOR_PRICE);
		pt->power = req_num(x, FLD_ACCELERATOR_TDP);
		pt->accel.form_factor = field_enum(x, FLD_ACCELERATOR_FORM_FACTOR);
		pt->accel.memory = req_num(x, FLD_ACCELERATOR_MEMORY) / 8;
		pt->accel.memory_bw = opt_num(x, FLD_ACCELERATOR_MEMORY_BANDWIDTH) / 8;
		pt->accel.bf16 = req_num(x, FLD_ACCELERATOR_BF16);
		pt->accel.fp8 = opt_num(x, FLD_ACCELERATOR_FP8);
		pt->accel.fp4 = opt_num(x, FLD_ACCELERATOR_FP4);
		pt->accel.tdp = pt->power;
		pt->accel.scale_up_bw = opt_num(x, FLD_ACCELERATOR_SCALE_UP_BANDWIDTH);
		pt->accel.matmul_eff = field_num(x, FLD_ACCELERATOR_MATMUL_EFFICIENCY);
		double fp8_eff;
		pt->accel.fp8_matmul_eff =
			field_num_set(x, FLD_ACCELERATOR_FP8_MATMUL_EFFICIENCY, &fp8_eff)
				? fp8_eff
				: pt->accel.matmul_eff;
		double att;
		pt->accel.attention_eff =
			field_num_set(x, FLD_ACCELERATOR_ATTENTION_EFFICIENCY, &att) ? att
										 : pt->accel.matmul_eff;
		pt->accel.attention_bwd_eff =
			field_num_set(x, FLD_ACCELERATOR_ATTENTION_BACKWARD_EFFICIENCY, &att)
				? att
				: pt->accel.attention_eff;
		pt->accel.fp8_tn_only = field_bool(x, FLD_ACCELERATOR_FP8_TN_ONLY);
		pt->accel.gemm_table = field_enum(x, FLD_ACCELERATOR_GEMM_TABLE);
		pt->accel.scale_up_eff = field_num(x, FLD_ACCELERATOR_SCALE_UP_EFFICIENCY);
		pt->accel.scale_up_reduction = field_bool(x, FLD_ACCELERATOR_SCALE_UP_REDUCTION);
		double hep;
		pt->accel.hep_dispatch_eff =
			field_num_set(x, FLD_ACCELERATOR_HYBRID_EP_DISPATCH_EFFICIENCY, &hep) ? hep : 0;
		pt->accel.hep_combine_eff =
			field_num_set(x, FLD_ACCELERATOR_HYBRID_EP_COMBINE_EFFICIENCY, &hep) ? hep : 0;
		pt->accel.host_bw = opt_num(x, FLD_ACCELERATOR_HOST_BANDWIDTH) / 8;
		if (isnan(pt->accel.host_bw))
			pt->accel.host_bw = 0;
		break;
	case KIND_NIC:
		pt->vendor = field_str(x, FLD_NIC_VENDOR);
		pt->description = description(x, FLD_NIC_DESCRIPTION);
		pt->price = money_field(d, x, FLD_NIC_PRICE);
		pt->power = field_num(x, FLD_NIC_POWER);
		pt->nic.speed = req_num(x, FLD_NIC_SPEED);
		pt->nic.ports = count_of(field_num(x, FLD_NIC_PORTS));
		pt->nic.protocol = field_enum(x, FLD_NIC_PROTOCOL);
		pt->nic.cage = field_enum(x, FLD_NIC_CAGE);
		pt->nic.port_names = field_enum(x, FLD_NIC_PORT_NAMES);
		pt->nic.collective_eff = field_num(x, FLD_NIC_COLLECTIVE_EFFICIENCY);
		break;
	case KIND_SWITCH: {
		pt->vendor = field_str(x, FLD_SWITCH_VENDOR);
		pt->description = description(x, FLD_SWITCH_DESCRIPTION);
		pt->price = money_field(d, x, FLD_SWITCH_PRICE);
		pt->power = req_num(x, FLD_SWITCH_POWER);
		pt->height = field_num(x, FLD_SWITCH_HEIGHT);
		pt->weight = opt_num(x, FLD_SWITCH_WEIGHT);
		pt->sw.asic = field_str(x, FLD_SWITCH_ASIC);
		pt->sw.ports = count_of(req_num(x, FLD_SWITCH_PORTS));
		double cages;
		pt->sw.cages = field_num_set(x, FLD_SWITCH_CAGES, &cages) ? count_of(cages)
									  : pt->sw.ports;
		pt->sw.breakout = count_of(field_num(x, FLD_SWITCH_BREAKOUT));
		pt->sw.chips = count_of(field_num(x, FLD_SWITCH_CHIPS));
		pt->sw.port_speed = req_num(x, FLD_SWITCH_PORT_SPEED);
		pt->sw.latency = opt_num(x, FLD_SWITCH_LATENCY);
		pt->sw.cage = field_enum(x, FLD_SWITCH_CAGE);
		pt->sw.protocol = field_enum(x, FLD_SWITCH_PROTOCOL);
		pt->sw.sharp = field_bool(x, FLD_SWITCH_IN_NETWORK_REDUCTION);
		switch_faceplate(d, pt, x);
		break;
	}
	case KIND_OCS: {
		pt->vendor = field_str(x, FLD_OCS_VENDOR);
		pt->description = description(x, FLD_OCS_DESCRIPTION);
		pt->price = money_field(d, x, FLD_OCS_PRICE);
		pt->power = req_num(x, FLD_OCS_POWER);
		pt->height = field_num(x, FLD_OCS_HEIGHT);
		pt->weight = opt_num(x, FLD_OCS_WEIGHT);
		pt->ocs.ports = count_of(req_num(x, FLD_OCS_PORTS));
		pt->ocs.spare = count_of(field_num(x, FLD_OCS_SPARE_PORTS));
		double reach;
		pt->ocs.reach = field_num_set(x, FLD_OCS_REACH, &reach) ? reach : INFINITY;
		break;
	}
	case KIND_CABLE: {
		pt->vendor = field_str(x, FLD_CABLE_VENDOR);
		pt->description = description(x, FLD_CABLE_DESCRIPTION);
		pt->price = money_field(d, x, FLD_CABLE_PRICE);
		pt->power = field_num(x, FLD_CABLE_POWER);
		pt->cable.media = field_enum(x, FLD_CABLE_TYPE);
		double speed;
		pt->cable.speed = field_num_set(x, FLD_CABLE_SPEED, &speed) ? speed : INFINITY;
		pt->cable.reach = req_num(x, FLD_CABLE_REACH);
		pt->cable.fiber = field_enum(x, FLD_CABLE_FIBER);
		pt->cable.connector = field_enum(x, FLD_CABLE_CONNECTOR);
		pt->cable.breakout = count_of(field_num(x, FLD_CABLE_BREAKOUT));
		pt->cable.ports = count_of(field_num(x, FLD_CABLE_PORTS));
		pt->cable.price_per_m = money_field(d, x, FLD_CABLE_PRICE_PER_M);
		const Value *lens = field_value(x, FLD_CABLE_LENGTHS);
		if (lens && lens->kind == VAL_LIST && lens->n > 0) {
			double *v = arena_alloc(d->c->arena, sizeof(double) * (size_t)lens->n);
			int n = 0;
			for (int i = 0; i < lens->n; i++)
				if (lens->items[i] && lens->items[i]->kind == VAL_QTY)
					v[n++] = lens->items[i]->q.v;
			/* Ascending: a run takes the first stocked length that covers it. */
			for (int i = 1; i < n; i++)
				for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
					double t = v[j];
					v[j] = v[j - 1];
					v[j - 1] = t;
				}
			pt->cable.lengths = v;
			pt->cable.nlengths = n;
		}
		break;
	}
	case KIND_OPTIC:
		pt->vendor = field_str(x, FLD_OPTIC_VENDOR);
		pt->description = description(x, FLD_OPTIC_DESCRIPTION);
		pt->price = money_field(d, x, FLD_OPTIC_PRICE);
		pt->power = field_num(x, FLD_OPTIC_POWER);
		pt->optic.speed = req_num(x, FLD_OPTIC_SPEED);
		pt->optic.reach = req_num(x, FLD_OPTIC_REACH);
		pt->optic.ports = count_of(field_num(x, FLD_OPTIC_PORTS));
		pt->optic.fiber = field_enum(x, FLD_OPTIC_FIBER);
		pt->optic.connector = field_enum(x, FLD_OPTIC_CONNECTOR);
		pt->optic.cage = field_enum(x, FLD_OPTIC_CAGE);
		break;
	case KIND_PANEL:
		pt->vendor = field_str(x, FLD_PANEL_VENDOR);
		pt->description = description(x, FLD_PANEL_DESCRIPTION);
		pt->price = money_field(d, x, FLD_PANEL_PRICE);
		pt->height = field_num(x, FLD_PANEL_HEIGHT);
		pt->weight = opt_num(x, FLD_PANEL_WEIGHT);
		pt->panel.ports = count_of(req_num(x, FLD_PANEL_PORTS));
		pt->panel.connector = field_enum(x, FLD_PANEL_CONNECTOR);
		break;
	case KIND_COOLING:
		pt->description = description(x, FLD_COOLING_DESCRIPTION);
		pt->cooling.type = field_enum(x, FLD_COOLING_TYPE);
		pt->cooling.pue = opt_num(x, FLD_COOLING_PUE);
		pt->cooling.max_rack_power = req_num(x, FLD_COOLING_MAX_RACK_POWER);
		pt->cooling.liquid_fraction = field_num(x, FLD_COOLING_LIQUID_FRACTION);
		pt->cooling.capex_per_w = money_field(d, x, FLD_COOLING_CAPEX_PER_KW);
		pt->cooling.supply_temp = opt_num(x, FLD_COOLING_SUPPLY_TEMPERATURE);
		pt->cooling.approach = field_num(x, FLD_COOLING_APPROACH);
		break;
	case KIND_COOLING_UNIT:
		pt->description = description(x, FLD_COOLING_UNIT_DESCRIPTION);
		pt->cunit.unit = field_enum(x, FLD_COOLING_UNIT_UNIT);
		pt->cunit.serves = field_enum(x, FLD_COOLING_UNIT_SERVES);
		pt->cunit.capacity = opt_num(x, FLD_COOLING_UNIT_CAPACITY);
		pt->cunit.racks_per_unit = count_of(opt_num(x, FLD_COOLING_UNIT_RACKS_PER_UNIT));
		pt->cunit.redundancy = field_enum(x, FLD_COOLING_UNIT_REDUNDANCY);
		pt->cunit.module_count = count_of(field_num(x, FLD_COOLING_UNIT_MODULE_COUNT));
		pt->cunit.power_ratio = field_num(x, FLD_COOLING_UNIT_POWER_RATIO);
		pt->cunit.capex_per_w = money_field(d, x, FLD_COOLING_UNIT_CAPEX_PER_KW);
		break;
	case KIND_POWER:
		pt->description = description(x, FLD_POWER_DESCRIPTION);
		pt->power_sys.type = field_enum(x, FLD_POWER_TYPE);
		pt->power_sys.redundancy = field_enum(x, FLD_POWER_REDUNDANCY);
		pt->power_sys.module_count = count_of(field_num(x, FLD_POWER_MODULE_COUNT));
		pt->power_sys.efficiency = field_num(x, FLD_POWER_EFFICIENCY);
		pt->power_sys.capex_per_w = money_field(d, x, FLD_POWER_CAPEX_PER_KW);
		break;
	case KIND_POWER_STAGE:
		pt->description = description(x, FLD_POWER_STAGE_DESCRIPTION);
		pt->stage.stage = field_enum(x, FLD_POWER_STAGE_STAGE);
		pt->stage.redundancy = field_enum(x, FLD_POWER_STAGE_REDUNDANCY);
		pt->stage.module_count = count_of(field_num(x, FLD_POWER_STAGE_MODULE_COUNT));
		pt->stage.efficiency = field_num(x, FLD_POWER_STAGE_EFFICIENCY);
		pt->stage.unit_capacity = opt_num(x, FLD_POWER_STAGE_UNIT_CAPACITY);
		pt->stage.capex_per_w = money_field(d, x, FLD_POWER_STAGE_CAPEX_PER_KW);
		break;
	case KIND_RACK:
		pt->description = description(x, FLD_RACK_DESCRIPTION);
		pt->price = money_field(d, x, FLD_RACK_PRICE);
		pt->height = req_num(x, FLD_RACK_HEIGHT);
		pt->rack.reserved = field_num(x, FLD_RACK_RESERVED);
		pt->rack.width = field_num(x, FLD_RACK_WIDTH);
		pt->rack.depth = field_num(x, FLD_RACK_DEPTH);
		pt->rack.max_weight = opt_num(x, FLD_RACK_MAX_WEIGHT);
		pt->rack.weight = field_num(x, FLD_RACK_WEIGHT);
		break;
	case KIND_NODE:
		pt->vendor = field_str(x, FLD_NODE_VENDOR);
		pt->description = description(x, FLD_NODE_DESCRIPTION);
		pt->height = req_num(x, FLD_NODE_HEIGHT); /* price: lower_node, from its parts */
		break;
	case KIND_STORAGE:
		pt->vendor = field_str(x, FLD_STORAGE_VENDOR);
		pt->description = description(x, FLD_STORAGE_DESCRIPTION);
		pt->price = money_field(d, x, FLD_STORAGE_PRICE);
		pt->power = req_num(x, FLD_STORAGE_POWER);
		pt->height = req_num(x, FLD_STORAGE_HEIGHT);
		pt->weight = opt_num(x, FLD_STORAGE_WEIGHT);
		pt->storage.capacity = req_num(x, FLD_STORAGE_CAPACITY) / 8;
		pt->storage.bandwidth = opt_num(x, FLD_STORAGE_BANDWIDTH) / 8;
		break;
	}
	pt->height_u = pt->height > 0 ? units_of(pt->height) : 1;
	lower_reliability(pt, x);
}

/* Σ count x price of the parts a COUNT x PART value (or a list of them) names. */
static double value_parts_price(const Design *d, const Value *v)
{
	double sum = 0;
	int items = v && v->kind == VAL_LIST ? v->n : v && v->kind == VAL_COUNTED ? 1 : 0;
	for (int i = 0; i < items; i++) {
		const Value *cv = v->kind == VAL_LIST ? v->items[i] : v;
		if (cv && cv->kind == VAL_COUNTED && cv->ref && cv->count && cv->count->kind == VAL_QTY)
			sum += cv->count->q.v * d->part_of[cv->ref->index]->price;
	}
	return sum;
}

/* The field an override replaced, back to the one the spec wrote (NULL: unset there). */
static const Field *written(const Field *f)
{
	while (f && f->overridden)
		f = f->replaced;
	return f;
}

/* A node's price (docs/models.md, "Node prices"): from its parts (chassis_price + Σ
 * accelerators + Σ NICs when price_includes_nics + cpus x cpu_price) unless the spec gives a
 * bundle price; a bundle price written for other parts than those an override put in force
 * (a scenario's `dgx.accelerators = 8 x H200_SXM` under a price written for 8 x H100) follows
 * them: the new parts' price less the replaced ones' is added. */
static void node_price(Design *d, Part *pt, const Decl *x)
{
	double accel = 0, nic = 0;
	for (int i = 0; i < pt->node.naccels; i++)
		accel += pt->node.accels[i].count * pt->node.accels[i].part->price;
	for (int i = 0; i < pt->node.nnics; i++)
		nic += pt->node.nics[i].count * pt->node.nics[i].part->price;
	double cpu_each = money_field(d, x, FLD_NODE_CPU_PRICE);
	pt->node.accel_price = accel;
	pt->node.nic_price = pt->node.price_includes_nics ? nic : 0;
	pt->node.cpu_price = pt->node.cpus * cpu_each;
	pt->node.chassis_price = field_value(x, FLD_NODE_CHASSIS_PRICE)
					 ? money_field(d, x, FLD_NODE_CHASSIS_PRICE)
					 : NAN;
	pt->node.price_adjust = 0;
	const Field *price = field_get(x, FLD_NODE_PRICE);
	if (!price) {
		pt->node.price_basis = NODE_PRICE_PARTS;
		pt->node.bundle_price = NAN;
		double chassis = isnan(pt->node.chassis_price) ? 0 : pt->node.chassis_price;
		pt->price = chassis + accel + pt->node.nic_price + pt->node.cpu_price;
		return;
	}
	pt->node.price_basis = NODE_PRICE_BUNDLE;
	pt->node.bundle_price = money_field(d, x, FLD_NODE_PRICE);
	if (!price->overridden) {
		const Field *a = field_get(x, FLD_NODE_ACCELERATORS);
		if (a && a->overridden) {
			const Field *w = written(a);
			pt->node.price_adjust += accel - value_parts_price(d, w ? w->val : NULL);
		}
		const Field *n = field_get(x, FLD_NODE_NICS);
		if (n && n->overridden && pt->node.price_includes_nics) {
			const Field *w = written(n);
			pt->node.price_adjust += nic - value_parts_price(d, w ? w->val : NULL);
		}
		const Field *c = field_get(x, FLD_NODE_CPUS);
		if (c && c->overridden) {
			const Field *w = written(c);
			double was = w && w->val && w->val->kind == VAL_QTY ? w->val->q.v : 0;
			pt->node.price_adjust += (pt->node.cpus - was) * cpu_each;
		}
	}
	pt->price = pt->node.bundle_price + pt->node.price_adjust;
}

/* A node: its parts, and the power (declared, else accelerator TDPs + NIC power + base power),
 * counts and scale-up figures that follow from them. */
static void lower_node(Design *d, Part *pt, const Decl *x)
{
	int n;
	pt->node.accels = counted(d, x, FLD_NODE_ACCELERATORS, &pt->node.naccels, &pt->node.accelerators);
	pt->node.nics = counted(d, x, FLD_NODE_NICS, &pt->node.nnics, &n);
	pt->node.trays = counted(d, x, FLD_NODE_SCALE_UP_SWITCHES, &pt->node.ntrays, &n);
	pt->node.nic_ports = 0;
	double parts_power = 0;
	for (int i = 0; i < pt->node.naccels; i++)
		parts_power += pt->node.accels[i].count * pt->node.accels[i].part->accel.tdp;
	for (int i = 0; i < pt->node.nnics; i++) {
		pt->node.nic_ports += pt->node.nics[i].count * pt->node.nics[i].part->nic.ports;
		parts_power += pt->node.nics[i].count * pt->node.nics[i].part->power;
	}
	pt->node.base_power = field_num(x, FLD_NODE_BASE_POWER);
	double declared;
	pt->power = field_num_set(x, FLD_NODE_POWER, &declared) ? declared
								  : parts_power + pt->node.base_power;
	pt->node.cpu = field_str(x, FLD_NODE_CPU);
	double cpus;
	pt->node.cpus = field_num_set(x, FLD_NODE_CPUS, &cpus) ? count_of(cpus) : 0;
	pt->node.cpu_model = field_str(x, FLD_NODE_CPU_MODEL);
	double cores;
	pt->node.cpu_cores = field_num_set(x, FLD_NODE_CPU_CORES, &cores) ? count_of(cores) : 0;
	pt->node.scale_up_racks = count_of(field_num(x, FLD_NODE_SCALE_UP_RACKS));
	pt->node.scale_up_switch_racks = count_of(field_num(x, FLD_NODE_SCALE_UP_SWITCH_RACKS));
	pt->node.memory = opt_num(x, FLD_NODE_MEMORY) / 8;
	pt->node.local_storage = opt_num(x, FLD_NODE_LOCAL_STORAGE) / 8;
	pt->node.weight = pt->weight = opt_num(x, FLD_NODE_WEIGHT);
	pt->node.price_includes_nics = field_bool(x, FLD_NODE_PRICE_INCLUDES_NICS);
	node_price(d, pt, x);
	double dom;
	pt->node.scale_up_domain = field_num_set(x, FLD_NODE_SCALE_UP_DOMAIN, &dom)
					   ? count_of(dom)
					   : pt->node.accelerators;
	const Part *first = pt->node.naccels ? pt->node.accels[0].part : NULL;
	double bw;
	pt->node.scale_up_bw = field_num_set(x, FLD_NODE_SCALE_UP_BANDWIDTH, &bw) ? bw
			       : first ? first->accel.scale_up_bw
				       : NAN;
}

int parts_lower(Design *d)
{
	Program *p = d->p;
	d->nparts_by_decl = p->decls.n;
	d->part_of = arena_alloc(d->c->arena, sizeof(Part *) * (size_t)(p->decls.n + 1));
	int n = 0;
	for (int i = 0; i < p->decls.n; i++)
		n += is_part_kind(((Decl *)p->decls.v[i])->kind);
	d->parts = arena_alloc(d->c->arena, sizeof(Part) * (size_t)(n + 1));
	d->nparts = 0;
	for (int i = 0; i < p->decls.n; i++) {
		const Decl *x = p->decls.v[i];
		if (!is_part_kind(x->kind))
			continue;
		INVARIANT(x->index == i, "declarations out of program order");
		Part *pt = &d->parts[d->nparts++];
		d->part_of[i] = pt;
		lower_common(d, pt, x);
	}
	for (int i = 0; i < d->nparts; i++) {
		Part *pt = &d->parts[i];
		if (pt->kind == KIND_NODE)
			lower_node(d, pt, pt->decl);
		else if (pt->kind == KIND_POWER)
			pt->power_sys.chain = part_list(d, pt->decl, FLD_POWER_CHAIN, &pt->power_sys.nchain);
		else if (pt->kind == KIND_COOLING)
			pt->cooling.plant = part_list(d, pt->decl, FLD_COOLING_PLANT, &pt->cooling.nplant); else if (pt->kind == KIND_STORAGE) {
			int total;
			pt->storage.nics = counted(d, pt->decl, FLD_STORAGE_NICS, &pt->storage.nnics, &total);
		}
	}
	/* The parts of the design's frame that hold for every candidate: its power system and
	 * storage (the rack type and cooling are open choices: racks.c). */
	d->power_sys = parts_of(d, d->power);
	int nst;
	d->storage = counted(d, d->cluster, FLD_CLUSTER_STORAGE, &nst, NULL);
	d->nstorage_kinds = nst;
	return storage_endpoints_agree(d);
}

int parts_storage_declared(const Design *d, const Part *part)
{
	int n = 0;
	for (int i = 0; i < d->nstorage_kinds; i++)
		if (d->storage[i].part == part)
			n += d->storage[i].count;
	return n;
}

/* Storage that a fabric lists among its endpoints and cluster.storage also declares is one set
 * of appliances (wire.c gives the fabric's endpoints the appliances' names and places; model.c
 * buys them once): a fabric that attaches more of them than the cluster has contradicts it. */
static int storage_endpoints_agree(Design *d)
{
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	int errors = 0;
	for (int i = 0; fv && fv->kind == VAL_LIST && i < fv->n; i++) {
		const Decl *fd = fv->items[i]->ref;
		const Value *ev = field_value(fd, FLD_FABRIC_ENDPOINTS);
		for (int k = 0; ev && k < (ev->kind == VAL_LIST ? ev->n : 1); k++) {
			const Value *cv = ev->kind == VAL_LIST ? ev->items[k] : ev;
			const Part *dev = cv && cv->kind == VAL_COUNTED ? parts_of(d, cv->ref) : NULL;
			if (!dev || dev->kind != KIND_STORAGE)
				continue;
			int have = parts_storage_declared(d, dev), want = (int)cv->count->q.v;
			if (have == 0 || want <= have)
				continue;
			Diag *dg = diag_error(d->p->c, cv->loc,
					      "fabric '%s' attaches %d x %s, but cluster '%s' has %d of them "
					      "in its storage: the fabric's endpoints are those appliances, "
					      "so it can attach at most %d (or declare more in the cluster)",
					      fd->name, want, dev->name, d->cluster->name, have, have);
			diag_set_code(dg, "storage-endpoints");
			diag_note(dg, field_value(d->cluster, FLD_CLUSTER_STORAGE)->loc,
				  "cluster '%s' declares its storage here", d->cluster->name);
			errors++;
		}
	}
	return errors;
}
