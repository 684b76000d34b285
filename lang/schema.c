/*
 * schema.c — what each declaration kind may contain: its fields, their dimension, whether they
 * are required, their default and their meaning; the constructors (fat_tree(...), grid(...),
 * transformer(...)) with their parameters; the read-only attributes later passes derive
 * (capex, facility_power, time_to_train ...) that `require` and `minimize` may read.
 *
 * This table is the single source of truth for checking and for the field tables in
 * docs/language.md (`clusterc schema` prints them; a test keeps the two equal).
 */
#include "lang.h"

#include <string.h>

#define D_NONE {{0}}
#define D_LENGTH {.e = {[DIM_LENGTH] = 1}}
#define D_MASS {.e = {[DIM_MASS] = 1}}
#define D_TIME {.e = {[DIM_TIME] = 1}}
#define D_RATE {.e = {[DIM_TIME] = -1}}
#define D_ENERGY {.e = {[DIM_ENERGY] = 1}}
#define D_PER_ENERGY {.e = {[DIM_ENERGY] = -1}}
#define D_POWER {.e = {[DIM_ENERGY] = 1, [DIM_TIME] = -1}}
#define D_PER_POWER {.e = {[DIM_ENERGY] = -1, [DIM_TIME] = 1}}
#define D_DATA {.e = {[DIM_DATA] = 1}}
#define D_BANDWIDTH {.e = {[DIM_DATA] = 1, [DIM_TIME] = -1}}
#define D_COMPUTE {.e = {[DIM_FLOP] = 1, [DIM_TIME] = -1}}
#define D_INTENSITY {.e = {[DIM_MASS] = 1, [DIM_ENERGY] = -1}}
#define D_PER_LENGTH {.e = {[DIM_LENGTH] = -1}}
#define D_MASS_RATE {.e = {[DIM_MASS] = 1, [DIM_TIME] = -1}}

/* Each helper is a brace initializer of FieldSchema; dimensions are passed as the D_ names
 * above (single tokens, so the commas inside them never split a macro argument). */
#define QTY(n, d, fl, def, doc) {n, FT_QTY, d, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define MONEY(n, d, fl, def, doc) {n, FT_QTY, d, 1, 0, NULL, CTOR_NONE, fl, def, doc}
#define QTYLIST(n, d, fl, def, doc) {n, FT_QTYLIST, d, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define INTLIST(n, fl, def, doc) {n, FT_INTLIST, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define INT(n, fl, def, doc) {n, FT_INT, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define REAL(n, fl, def, doc) {n, FT_REAL, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define BOOL(n, fl, def, doc) {n, FT_BOOL, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define STR(n, fl, def, doc) {n, FT_STRING, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define TEMPLATE(n, ph, fl, def, doc) {n, FT_TEMPLATE, D_NONE, 0, 0, ph, CTOR_NONE, fl, def, doc}
#define REF(n, k, fl, def, doc) {n, FT_REF, D_NONE, 0, k, NULL, CTOR_NONE, fl, def, doc}
#define COUNTED(n, k, fl, def, doc) {n, FT_COUNTED, D_NONE, 0, k, NULL, CTOR_NONE, fl, def, doc}
#define REFLIST(n, k, fl, def, doc) {n, FT_REFLIST, D_NONE, 0, k, NULL, CTOR_NONE, fl, def, doc}
#define ENUM(n, en, fl, def, doc) {n, FT_ENUM, D_NONE, 0, 0, en, CTOR_NONE, fl, def, doc}
#define CURRENCY(n, fl, def, doc) {n, FT_CURRENCY, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define RATES(n, fl, def, doc) {n, FT_RATES, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define RATIO(n, fl, def, doc) {n, FT_RATIO, D_NONE, 0, 0, NULL, CTOR_NONE, fl, def, doc}
#define CTOR(n, fam, k, fl, def, doc) {n, FT_CTOR, D_NONE, 0, k, NULL, fam, fl, def, doc}

#define DESCRIPTION STR("description", 0, NULL, "free text shown in reports")
#define RO F_READONLY

/* Enumerations. */
static const char *const e_form_factor[] = {"sxm", "oam", "pcie", "superchip", NULL};
static const char *const e_protocol[] = {"infiniband", "ethernet", NULL};
static const char *const e_switch_protocol[] = {"infiniband", "ethernet", "nvlink", NULL};
static const char *const e_nic_protocol[] = {"infiniband", "ethernet", "vpi", NULL};
static const char *const e_cage[] = {"osfp", "qsfp112", "qsfp_dd", "qsfp56", "qsfp28",
				     "sfp56", "sfp28", "backplane", NULL};
static const char *const e_cable_type[] = {"dac", "acc", "aec", "aoc", "fiber", NULL};
static const char *const e_fiber[] = {"om3", "om4", "om5", "os2", NULL};
static const char *const e_optical_connector[] = {"mpo8", "mpo12", "mpo16", "lc_duplex",
						  "cs", NULL};
static const char *const e_connector[] = {"osfp", "qsfp112", "qsfp_dd", "qsfp56", "qsfp28",
					  "sfp56", "sfp28", "mpo8", "mpo12", "mpo16",
					  "lc_duplex", "cs", NULL};
static const char *const e_cooling_type[] = {"air", "rear_door", "cold_plate", "immersion", NULL};
static const char *const e_power_type[] = {"ac_ups", "hvdc", NULL};
static const char *const e_redundancy[] = {"n", "n_plus_1", "two_n", NULL};
static const char *const e_routing[] = {"ecmp", "adaptive", "ftree", "updn", "minimal", "ugal",
					"dor", NULL};
static const char *const e_precision[] = {"bf16", "fp8", NULL};
static const char *const e_recompute[] = {"none", "selective", "full", NULL};
static const char *const e_activation[] = {"gelu", "swiglu", NULL};

const char *const hostname_placeholders[] = {"index", "index0", "rack", "row", "slot", "su",
					     "domain", "cluster", "site", NULL};

/* ---- declaration kinds ---------------------------------------------------------------------- */

static const FieldSchema f_ACCELERATOR[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	ENUM("form_factor", e_form_factor, 0, "sxm", "module form: sxm, oam, pcie, superchip"),
	QTY("memory", D_DATA, F_REQUIRED | F_POSITIVE, NULL, "HBM capacity (GB or GiB)"),
	QTY("memory_bandwidth", D_BANDWIDTH, F_POSITIVE, NULL, "HBM bandwidth (TB/s)"),
	QTY("bf16", D_COMPUTE, F_REQUIRED | F_POSITIVE, NULL, "dense BF16 peak (TFLOPS)"),
	QTY("fp8", D_COMPUTE, F_POSITIVE, NULL, "dense FP8 peak; absent when unsupported"),
	QTY("fp4", D_COMPUTE, F_POSITIVE, NULL, "dense FP4 peak; absent when unsupported"),
	QTY("tdp", D_POWER, F_REQUIRED | F_POSITIVE, NULL, "board power at full load"),
	QTY("scale_up_bandwidth", D_BANDWIDTH, F_POSITIVE, NULL,
	    "scale-up (NVLink, Infinity Fabric, HCCS) bandwidth per accelerator, both directions "
	    "together as vendors quote it"),
	REAL("matmul_efficiency", F_FRACTION, "0.75",
	     "fraction of the dense peak a large matrix multiply attains"),
	MONEY("price", D_NONE, F_NONNEG, "0", "indicative price of one accelerator"),
};

static const FieldSchema f_NIC[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	QTY("speed", D_BANDWIDTH, F_REQUIRED | F_POSITIVE, NULL, "speed of one port"),
	INT("ports", F_POSITIVE, "1", "network ports"),
	ENUM("protocol", e_nic_protocol, 0, "ethernet", "infiniband, ethernet, or vpi (either)"),
	ENUM("cage", e_cage, 0, "osfp", "the port's cage: osfp, qsfp112, ..."),
	QTY("power", D_POWER, F_NONNEG, "0 W", "power drawn"),
	MONEY("price", D_NONE, F_NONNEG, "0", "indicative price"),
};

static const FieldSchema f_SWITCH[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	STR("asic", 0, NULL, "switch chip"),
	INT("ports", F_REQUIRED | F_POSITIVE, NULL, "ports at port_speed"),
	QTY("port_speed", D_BANDWIDTH, F_REQUIRED | F_POSITIVE, NULL,
	    "speed of one port in each direction (400 Gbps for NDR)"),
	INT("cages", F_POSITIVE, "ports", "physical cages (a twin-port OSFP cage carries 2 ports)"),
	ENUM("cage", e_cage, 0, "osfp", "cage type; backplane for NVLink switch trays"),
	INT("breakout", F_POSITIVE, "1",
	    "most lower-speed ports one port can be split into (2: 2 x port_speed/2)"),
	ENUM("protocol", e_switch_protocol, 0, "ethernet", "infiniband, ethernet or nvlink"),
	QTY("power", D_POWER, F_REQUIRED | F_NONNEG, NULL, "typical power, optics excluded"),
	QTY("height", D_LENGTH, F_POSITIVE, "1 U", "rack space"),
	QTY("latency", D_TIME, F_NONNEG, NULL, "port-to-port latency"),
	MONEY("price", D_NONE, F_REQUIRED | F_NONNEG, NULL, "indicative price"),
};

static const FieldSchema f_CABLE[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	ENUM("type", e_cable_type, F_REQUIRED, NULL,
	     "dac (passive copper), acc (active copper), aec (active electrical, retimed), aoc "
	     "(active optical), fiber (passive fibre between optics)"),
	QTY("speed", D_BANDWIDTH, F_POSITIVE, "any", "highest speed carried"),
	QTY("reach", D_LENGTH, F_REQUIRED | F_POSITIVE, NULL, "longest length sold or supported"),
	QTYLIST("lengths", D_LENGTH, F_POSITIVE, "every whole metre up to reach",
		"stocked lengths a run is rounded up to"),
	ENUM("fiber", e_fiber, 0, NULL, "fibre type of fiber and aoc cables: om3, om4, om5, os2"),
	ENUM("connector", e_connector, 0, NULL, "connector at each end"),
	INT("breakout", F_POSITIVE, "1", "ends on the far side (2: a 1-to-2 splitter)"),
	QTY("power", D_POWER, F_NONNEG, "0 W", "power of the active ends together"),
	MONEY("price", D_NONE, F_NONNEG, "0", "indicative price of one cable (fixed part)"),
	MONEY("price_per_m", D_PER_LENGTH, F_NONNEG, "0", "indicative price per metre on top"),
};

static const FieldSchema f_OPTIC[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	QTY("speed", D_BANDWIDTH, F_REQUIRED | F_POSITIVE, NULL, "speed of one port"),
	INT("ports", F_POSITIVE, "1", "ports carried (a twin-port 2x400G OSFP module has 2)"),
	QTY("reach", D_LENGTH, F_REQUIRED | F_POSITIVE, NULL, "longest fibre run supported"),
	ENUM("fiber", e_fiber, F_REQUIRED, NULL, "fibre type it drives: om3, om4, om5, os2"),
	ENUM("connector", e_optical_connector, 0, NULL, "optical connector: mpo12, lc_duplex ..."),
	ENUM("cage", e_cage, 0, "osfp", "the cage it plugs into"),
	QTY("power", D_POWER, F_NONNEG, "0 W", "power of one module"),
	MONEY("price", D_NONE, F_NONNEG, "0", "indicative price of one module"),
};

static const FieldSchema f_COOLING[] = {
	DESCRIPTION,
	ENUM("type", e_cooling_type, F_REQUIRED, NULL, "air, rear_door, cold_plate or immersion"),
	REAL("pue", F_REQUIRED | F_ATLEAST1, NULL, "power usage effectiveness of the hall"),
	QTY("max_rack_power", D_POWER, F_REQUIRED | F_POSITIVE, NULL, "densest rack it can cool"),
	REAL("liquid_fraction", F_NONNEG, "0", "share of the heat carried away by liquid"),
	MONEY("capex_per_kw", D_PER_POWER, F_NONNEG, "0",
	      "indicative cooling plant capex per kW of IT load"),
};

static const FieldSchema f_POWER[] = {
	DESCRIPTION,
	ENUM("type", e_power_type, 0, "ac_ups", "ac_ups or hvdc"),
	ENUM("redundancy", e_redundancy, 0, "n", "n, n_plus_1 or two_n (2N)"),
	INT("module_count", F_POSITIVE, "4", "modules sharing the load, for n_plus_1"),
	REAL("efficiency", F_FRACTION, "1",
	     "utility-to-IT conversion efficiency (UPS or HVDC losses); counted in facility power "
	     "unless the site gives its own pue"),
	MONEY("capex_per_kw", D_PER_POWER, F_NONNEG, "0",
	      "indicative capex per kW of installed capacity (before redundancy)"),
};

static const FieldSchema f_NODE[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	COUNTED("accelerators", KINDMASK(ACCELERATOR), 0, "none", "e.g. 8 x H100_SXM"),
	COUNTED("nics", KINDMASK(NIC), 0, "none",
		"e.g. 8 x CX7_400G; compute-fabric NICs first, one per rail"),
	STR("cpu", 0, NULL, "processors, as text"),
	QTY("memory", D_DATA, F_POSITIVE, NULL, "host memory"),
	QTY("local_storage", D_DATA, F_POSITIVE, NULL, "local NVMe capacity"),
	QTY("power", D_POWER, F_POSITIVE, "sum of parts",
	    "maximum input power, scale_up_switches excluded; when absent, accelerator TDPs + NIC "
	    "power + base_power"),
	QTY("base_power", D_POWER, F_NONNEG, "0 W", "CPUs, memory, fans and losses"),
	QTY("height", D_LENGTH, F_REQUIRED | F_POSITIVE, NULL, "rack space (U)"),
	QTY("weight", D_MASS, F_POSITIVE, NULL, "mass"),
	MONEY("price", D_NONE, F_REQUIRED | F_NONNEG, NULL, "indicative price of one node"),
	BOOL("price_includes_nics", 0, "true", "whether price already covers the NICs"),
	INT("scale_up_domain", F_POSITIVE, "accelerators per node",
	    "accelerators in one scale-up (NVLink) domain; larger than a node means consecutive "
	    "nodes form a domain kept whole in one rack (GB200 NVL72: 72)"),
	QTY("scale_up_bandwidth", D_BANDWIDTH, F_POSITIVE, "the accelerator's",
	    "scale-up bandwidth per accelerator"),
	COUNTED("scale_up_switches", KINDMASK(SWITCH), 0, "none",
		"switches of one scale-up domain (NVL72: 9 x NVLink switch trays)"),
};

static const FieldSchema f_STORAGE[] = {
	DESCRIPTION,
	STR("vendor", 0, NULL, "maker"),
	QTY("capacity", D_DATA, F_REQUIRED | F_POSITIVE, NULL, "usable capacity"),
	QTY("bandwidth", D_BANDWIDTH, F_POSITIVE, NULL, "read throughput"),
	COUNTED("nics", KINDMASK(NIC), 0, "none", "network adapters"),
	QTY("power", D_POWER, F_REQUIRED | F_POSITIVE, NULL, "maximum power"),
	QTY("height", D_LENGTH, F_REQUIRED | F_POSITIVE, NULL, "rack space (U)"),
	MONEY("price", D_NONE, F_REQUIRED | F_NONNEG, NULL, "indicative price"),
};

static const FieldSchema f_RACK[] = {
	DESCRIPTION,
	QTY("height", D_LENGTH, F_REQUIRED | F_POSITIVE, NULL, "usable height (U)"),
	QTY("reserved", D_LENGTH, F_NONNEG, "0 U", "space kept for PDUs and patch panels"),
	QTY("power_limit", D_POWER, F_REQUIRED | F_POSITIVE | F_CHOOSABLE, NULL,
	    "power class: the most a rack may draw"),
	REF("cooling", KINDMASK(COOLING), F_REQUIRED | F_CHOOSABLE, NULL, "how the rack is cooled"),
	INT("nodes_per_rack", F_POSITIVE | F_CHOOSABLE, "as many as fit",
	    "nodes in one rack; the optimizer may choose"),
	QTY("width", D_LENGTH, F_POSITIVE, "600 mm", "footprint width"),
	QTY("depth", D_LENGTH, F_POSITIVE, "1200 mm", "footprint depth"),
	QTY("max_weight", D_MASS, F_POSITIVE, NULL, "static load rating"),
	MONEY("price", D_NONE, F_NONNEG, "0", "indicative price of the empty rack with PDUs"),
};

static const FieldSchema f_SITE[] = {
	DESCRIPTION,
	STR("location", 0, NULL, "where the hall is"),
	QTY("power_budget", D_POWER, F_REQUIRED | F_POSITIVE, NULL, "facility power available"),
	MONEY("electricity", D_PER_ENERGY, F_REQUIRED | F_NONNEG, NULL, "price of energy"),
	REAL("pue", F_ATLEAST1, "the cooling's",
	     "power usage effectiveness; overrides the cooling systems' figures"),
	CTOR("floor", CTOR_FLOOR, 0, 0, NULL, "floor grid, e.g. grid(rows = 30, racks_per_row = 24)"),
	REF("power", KINDMASK(POWER), 0, NULL, "power distribution system"),
	QTY("carbon_intensity", D_INTENSITY, F_NONNEG, NULL, "grid emissions per energy (kg/kWh)"),
};

static const FieldSchema f_FABRIC[] = {
	DESCRIPTION,
	CTOR("topology", CTOR_TOPOLOGY, 0, F_REQUIRED, NULL,
	     "fat_tree(...), dragonfly(...) or torus(...)"),
	REF("switch", KINDMASK(SWITCH), F_CHOOSABLE, NULL,
	    "switch model; required by fat_tree and dragonfly, unused by torus"),
	QTY("link", D_BANDWIDTH, F_POSITIVE, "the NIC port speed", "speed of an endpoint link"),
	RATIO("oversubscription", F_CHOOSABLE, "1:1",
	      "downlink to uplink bandwidth at the leaves, or a list, one ratio per tier"),
	INT("planes", F_POSITIVE | F_CHOOSABLE, "1", "independent parallel fabrics the NIC ports split over"),
	ENUM("protocol", e_protocol, 0, "the switch's", "infiniband or ethernet"),
	REF("nic", KINDMASK(NIC), 0, "the node's first NIC",
	    "which NIC of each node attaches; fabrics naming the same NIC take its ports in turn"),
	INT("rails", F_POSITIVE, "the NIC's ports earlier fabrics leave", "NIC ports of a node on this fabric"),
	INT("scalable_unit", F_POSITIVE, NULL, "nodes per scalable unit (SuperPOD: 32)"),
	COUNTED("endpoints", KINDMASK(NODE) | KINDMASK(STORAGE), 0, "none",
		"attached devices other than the cluster's nodes: fabric managers, storage, gateways"),
	REFLIST("media", KINDMASK(CABLE) | KINDMASK(OPTIC), 0, "every cable and optic in scope",
		"cables and optics the design may use"),
	ENUM("routing", e_routing, 0, NULL, "routing: ecmp, adaptive, ftree, updn, minimal, ugal, dor"),
	STR("loopbacks", 0, "\"10.0.0.0/16\"", "IPv4 pool of the switches' /32 loopbacks (Ethernet)"),
	STR("p2p", 0, "\"10.128.0.0/10\"", "IPv4 pool of the /31 of every link (Ethernet)"),
	INT("asn", F_POSITIVE, "4200000000",
	    "first private ASN of the BGP plan (RFC 6996 32-bit private range)"),
	INT("mtu", F_POSITIVE, "9216", "MTU of switch ports (Ethernet)"),
	BOOL("lossless", 0, "true", "RoCE lossless class: PFC on priority 3 and ECN marking"),
	QTY("bisection_bandwidth", D_BANDWIDTH, RO, NULL, "bandwidth across the worst bisection"),
	INT("switch_count", RO, NULL, "switches"),
	INT("link_count", RO, NULL, "links"),
	INT("diameter", RO, NULL, "longest shortest path between endpoints, in switch hops"),
};

static const FieldSchema f_CLUSTER[] = {
	DESCRIPTION,
	REF("site", KINDMASK(SITE), F_REQUIRED, NULL, "where it is built"),
	COUNTED("nodes", KINDMASK(NODE), F_REQUIRED | F_CHOOSABLE, NULL,
		"e.g. 1250 x dgx_h100; the count may be a range or auto"),
	REF("rack", KINDMASK(RACK), F_REQUIRED | F_CHOOSABLE, NULL, "rack type"),
	REFLIST("fabrics", KINDMASK(FABRIC), 0, "[]", "network fabrics"),
	COUNTED("storage", KINDMASK(STORAGE), 0, "none", "storage appliances"),
	TEMPLATE("hostname", hostname_placeholders, 0, "\"node{index:04}\"",
		 "name template of the nodes"),
	CURRENCY("currency", 0, "the electricity price's", "currency of the report"),
	RATES("exchange_rates", 0, "[]", "explicit rates, e.g. [7.1 CNY/USD]"),
	REAL("utilization", F_FRACTION, "1", "average draw as a share of peak"),
	QTY("other_power", D_POWER, F_NONNEG, "0 W", "other IT load: management, storage not declared"),
	REAL("spares", F_NONNEG, "0",
	     "spare nodes bought and kept on the shelf, as a share of nodes (e.g. 2 %): capex only"),
	QTY("horizon", D_TIME, F_POSITIVE, "5 y", "period of the total cost of ownership"),
	MONEY("capex", D_NONE, RO, NULL, "capital expenditure"),
	MONEY("energy_cost", D_RATE, RO, NULL, "cost of energy per year"),
	MONEY("tco", D_NONE, RO, NULL, "capex + energy cost over the horizon"),
	QTY("annual_energy", D_ENERGY, RO, NULL, "facility energy per year"),
	QTY("it_power", D_POWER, RO, NULL, "IT power"),
	QTY("facility_power", D_POWER, RO, NULL, "IT power through the PUE"),
	QTY("carbon", D_MASS_RATE, RO, NULL, "emissions per year"),
	QTY("peak_compute", D_COMPUTE, RO, NULL, "dense BF16 peak of all accelerators"),
	QTY("bisection_bandwidth", D_BANDWIDTH, RO, NULL, "of the compute fabric"),
	INT("accelerator_count", RO, NULL, "accelerators"),
	INT("node_count", RO, NULL, "nodes"),
	INT("rack_count", RO, NULL, "racks"),
	INT("switch_count", RO, NULL, "switches"),
	INT("cable_count", RO, NULL, "cables"),
};

#define MODEL_PARAMS(REQ)                                                                    \
	INT("layers", REQ | F_POSITIVE, NULL, "transformer layers"),                          \
	INT("hidden", REQ | F_POSITIVE, NULL, "hidden size"),                                 \
	INT("heads", REQ | F_POSITIVE, NULL, "attention heads"),                              \
	INT("head_dim", F_POSITIVE, "hidden / heads", "size of one attention head"),          \
	INT("query_groups", F_POSITIVE, "heads", "key/value heads (GQA); heads means MHA"),   \
	INT("ffn", F_POSITIVE, "4 x hidden", "feed-forward size"),                            \
	INT("seq", REQ | F_POSITIVE, NULL, "sequence length"),                                \
	INT("vocab", REQ | F_POSITIVE, NULL, "vocabulary size"),                              \
	ENUM("activation", e_activation, 0, "gelu", "gelu (2 FFN matrices) or swiglu (3)"),  \
	INT("experts", F_POSITIVE, "1", "experts per MoE layer; 1 is dense"),                 \
	INT("top_k", F_POSITIVE, "1", "experts each token is routed to"),                     \
	INT("expert_ffn", F_POSITIVE, "ffn", "feed-forward size of one expert"),              \
	INT("shared_experts", F_NONNEG, "0", "experts every token passes through"),           \
	INT("dense_layers", F_NONNEG, "0", "leading layers with a dense FFN in an MoE model")

static const FieldSchema f_MODEL[] = {
	DESCRIPTION,
	MODEL_PARAMS(F_REQUIRED),
};

static const FieldSchema f_WORKLOAD[] = {
	DESCRIPTION,
	REF("cluster", KINDMASK(CLUSTER), F_REQUIRED, NULL, "where it runs"),
	CTOR("model", CTOR_MODEL, KINDMASK(MODEL), F_REQUIRED, NULL,
	     "transformer(...), moe(...) or the name of a model"),
	REAL("tokens", F_REQUIRED | F_POSITIVE, NULL, "tokens to train on"),
	INT("global_batch", F_REQUIRED | F_POSITIVE, NULL, "sequences per step"),
	ENUM("precision", e_precision, 0, "bf16", "bf16 or fp8"),
	INT("gpus", F_POSITIVE | F_CHOOSABLE, "chosen by the planner", "accelerators used"),
	INT("tp", F_POSITIVE | F_CHOOSABLE, "chosen", "tensor-parallel size"),
	INT("pp", F_POSITIVE | F_CHOOSABLE, "chosen", "pipeline-parallel size"),
	INT("cp", F_POSITIVE | F_CHOOSABLE, "chosen", "context-parallel size"),
	INT("ep", F_POSITIVE | F_CHOOSABLE, "chosen", "expert-parallel size"),
	INT("micro_batch", F_POSITIVE | F_CHOOSABLE, "chosen", "sequences per micro-batch"),
	INT("interleave", F_POSITIVE | F_CHOOSABLE, "chosen", "virtual pipeline stages per GPU"),
	ENUM("recompute", e_recompute, F_CHOOSABLE, "chosen", "none, selective or full"),
	BOOL("sequence_parallel", F_CHOOSABLE, "chosen", "Megatron sequence parallelism"),
	BOOL("distributed_optimizer", F_CHOOSABLE, "chosen", "shard optimizer state over DP"),
	QTY("time_to_train", D_TIME, RO, NULL, "predicted wall time"),
	QTY("step_time", D_TIME, RO, NULL, "predicted time of one step"),
	QTY("energy_to_train", D_ENERGY, RO, NULL, "facility energy of the GPUs used"),
	MONEY("cost_to_train", D_NONE, RO, NULL, "energy cost of the run"),
	REAL("mfu", RO, NULL, "model FLOPs utilization"),
};

/* Each kind's field table is f_ followed by its KindId name. */
const KindSchema kind_schemas[KIND_COUNT] = {
#define X(k, w, d) [KIND_##k] = {w, d, f_##k, (int)(sizeof f_##k / sizeof f_##k[0])},
	DECL_KINDS(X)
#undef X
};

/* ---- constructors --------------------------------------------------------------------------- */

static const FieldSchema p_fat_tree[] = {
	INT("tiers", F_POSITIVE | F_CHOOSABLE, "the fewest that fit", "switch tiers: 1, 2 or 3"),
	BOOL("rail_optimized", 0, "false", "NIC k of every node in a unit goes to leaf k"),
};
static const FieldSchema p_dragonfly[] = {
	INT("p", F_POSITIVE, "a / 2", "terminals per router (Kim et al. 2008)"),
	INT("a", F_REQUIRED | F_POSITIVE, NULL, "routers per group"),
	INT("h", F_POSITIVE, "a / 2", "global links per router"),
	INT("g", F_POSITIVE | F_CHOOSABLE, "as many as needed, at most a x h + 1", "groups"),
};
static const FieldSchema p_torus[] = {
	INTLIST("dims", F_REQUIRED | F_POSITIVE, NULL, "size of each dimension: [8, 8] or [8, 8, 8]"),
};
static const FieldSchema p_grid[] = {
	INT("rows", F_REQUIRED | F_POSITIVE, NULL, "rows of racks"),
	INT("racks_per_row", F_REQUIRED | F_POSITIVE, NULL, "rack positions in a row"),
	QTY("rack_pitch", D_LENGTH, F_POSITIVE, "0.6 m", "distance between rack centres in a row"),
	QTY("row_pitch", D_LENGTH, F_POSITIVE, "2.4 m", "distance between row centres"),
	QTY("tray_height", D_LENGTH, F_NONNEG, "0.5 m", "cable tray height above the racks"),
};
static const FieldSchema p_model[] = {MODEL_PARAMS(F_REQUIRED)};

const CtorSchema ctor_schemas[] = {
	{"fat_tree", CTOR_TOPOLOGY, "folded CLOS with 1 to 3 switch tiers", p_fat_tree, 2},
	{"dragonfly", CTOR_TOPOLOGY, "groups of routers with global links (Kim et al., ISCA 2008)",
	 p_dragonfly, 4},
	{"torus", CTOR_TOPOLOGY, "2D or 3D direct-connect torus with wraparound links", p_torus, 1},
	{"grid", CTOR_FLOOR, "rows of rack positions", p_grid, 5},
	{"transformer", CTOR_MODEL, "a dense or mixture-of-experts transformer", p_model,
	 (int)(sizeof p_model / sizeof p_model[0])},
	{"moe", CTOR_MODEL, "a mixture-of-experts transformer (experts > 1)", p_model,
	 (int)(sizeof p_model / sizeof p_model[0])},
};
const int ctor_count = (int)(sizeof ctor_schemas / sizeof ctor_schemas[0]);

/* ---- lookups -------------------------------------------------------------------------------- */

int kind_lookup(const char *word)
{
	for (int k = 0; k < KIND_COUNT; k++)
		if (strcmp(kind_schemas[k].name, word) == 0)
			return k;
	return -1;
}

const FieldSchema *schema_field(int kind, const char *name)
{
	const KindSchema *ks = &kind_schemas[kind];
	for (int i = 0; i < ks->nfields; i++)
		if (strcmp(ks->fields[i].name, name) == 0)
			return &ks->fields[i];
	return NULL;
}

const CtorSchema *ctor_lookup(const char *name)
{
	for (int i = 0; i < ctor_count; i++)
		if (strcmp(ctor_schemas[i].name, name) == 0)
			return &ctor_schemas[i];
	return NULL;
}

const FieldSchema *ctor_param(const CtorSchema *cs, const char *name)
{
	for (int i = 0; i < cs->nparams; i++)
		if (strcmp(cs->params[i].name, name) == 0)
			return &cs->params[i];
	return NULL;
}

const char *ctor_family_name(CtorFamily f)
{
	switch (f) {
	case CTOR_TOPOLOGY: return "topology";
	case CTOR_FLOOR: return "floor";
	case CTOR_MODEL: return "model";
	default: return "value";
	}
}

static void kinds_text(unsigned mask, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int k = 0; k < KIND_COUNT; k++) {
		if (!(mask & (1u << k)))
			continue;
		int w = snprintf(buf + len, n - len, "%s%s", len ? " or " : "", kind_schemas[k].name);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
}

const char *field_type_name(const FieldSchema *fs, char *buf, size_t n)
{
	char tmp[128];
	switch (fs->type) {
	case FT_QTY:
	case FT_QTYLIST: {
		Dim d = fs->dim;
		if (fs->money_exp) {
			char inner[96];
			if (dim_is_none(d))
				snprintf(tmp, sizeof tmp, "money");
			else
				snprintf(tmp, sizeof tmp, "money per %s",
					 dim_name(dim_pow(d, -1), inner, sizeof inner));
		} else {
			dim_name(d, tmp, sizeof tmp);
		}
		snprintf(buf, n, fs->type == FT_QTYLIST ? "list of %s values" : "%s", tmp);
		break;
	}
	case FT_INT: snprintf(buf, n, "whole number"); break;
	case FT_REAL: snprintf(buf, n, "number"); break;
	case FT_BOOL: snprintf(buf, n, "true or false"); break;
	case FT_STRING: snprintf(buf, n, "string"); break;
	case FT_TEMPLATE: snprintf(buf, n, "name template"); break;
	case FT_REF: kinds_text(fs->kinds, tmp, sizeof tmp); snprintf(buf, n, "%s", tmp); break;
	case FT_COUNTED:
		kinds_text(fs->kinds, tmp, sizeof tmp);
		snprintf(buf, n, "COUNT x %s", tmp);
		break;
	case FT_REFLIST:
		kinds_text(fs->kinds, tmp, sizeof tmp);
		snprintf(buf, n, "list of %s names", tmp);
		break;
	case FT_INTLIST: snprintf(buf, n, "list of whole numbers"); break;
	case FT_ENUM: snprintf(buf, n, "name (listed in the meaning)"); break;
	case FT_CURRENCY: snprintf(buf, n, "currency code"); break;
	case FT_RATES: snprintf(buf, n, "list of exchange rates"); break;
	case FT_RATIO: snprintf(buf, n, "ratio A:B"); break;
	case FT_CTOR:
		if (fs->kinds)
			snprintf(buf, n, "%s constructor or name", ctor_family_name(fs->family));
		else
			snprintf(buf, n, "%s constructor", ctor_family_name(fs->family));
		break;
	}
	return buf;
}

/* ---- documentation -------------------------------------------------------------------------- */

static void print_fields(FILE *out, const FieldSchema *fs, int n, bool readonly)
{
	fprintf(out, "| field | value | default | meaning |\n| --- | --- | --- | --- |\n");
	for (int i = 0; i < n; i++) {
		const FieldSchema *f = &fs[i];
		if (!!(f->flags & F_READONLY) != readonly)
			continue;
		char type[160];
		field_type_name(f, type, sizeof type);
		fprintf(out, "| `%s` | %s%s | %s | %s", f->name, type,
			f->flags & F_CHOOSABLE ? " (choosable)" : "",
			f->flags & F_REQUIRED ? "**required**" : f->def ? f->def : "none", f->doc);
		const char *bound = f->flags & F_POSITIVE   ? "; greater than 0"
				    : f->flags & F_NONNEG   ? "; 0 or more"
				    : f->flags & F_FRACTION ? "; in (0, 1], e.g. 80 %"
				    : f->flags & F_ATLEAST1 ? "; 1 or more"
							    : "";
		fputs(f->flags & F_READONLY ? "" : bound, out);
		if (f->type == FT_ENUM || f->type == FT_TEMPLATE) {
			fprintf(out, f->type == FT_ENUM ? "; one of" : "; placeholders");
			for (int j = 0; f->enums[j]; j++)
				fprintf(out, "%s `%s`", j ? "," : "", f->enums[j]);
		}
		fprintf(out, " |\n");
	}
}

void schema_print_markdown(FILE *out)
{
	for (int k = 0; k < KIND_COUNT; k++) {
		const KindSchema *ks = &kind_schemas[k];
		fprintf(out, "### `%s`\n\n%s.\n\n", kind_schemas[k].name, kind_schemas[k].doc);
		print_fields(out, ks->fields, ks->nfields, false);
		bool any_ro = false;
		for (int i = 0; i < ks->nfields; i++)
			any_ro |= !!(ks->fields[i].flags & F_READONLY);
		if (any_ro) {
			fprintf(out, "\nDerived attributes (read-only, for `require` and objectives):\n\n");
			print_fields(out, ks->fields, ks->nfields, true);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "### Constructors\n\n");
	for (int i = 0; i < ctor_count; i++) {
		const CtorSchema *cs = &ctor_schemas[i];
		fprintf(out, "#### `%s(...)` — %s\n\n%s.\n\n", cs->name,
			ctor_family_name(cs->family), cs->doc);
		print_fields(out, cs->params, cs->nparams, false);
		fprintf(out, "\n");
	}
}
