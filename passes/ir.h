/*
 * ir.h — the IR: the design every pass after the front end builds and every backend renders.
 * Sectioned by the pass that fills each part; passes/pipeline.c lists the passes.
 */
#ifndef CLUSTERC_IR_H
#define CLUSTERC_IR_H

#include "base.h"

#include <assert.h>

/* The spec the IR came from: opaque here (lang.h, program.h), for the passes' way back to it.
 * Backends see these pointers and nothing behind them. */
typedef struct Decl Decl;
typedef struct Field Field;
typedef struct Value Value;
typedef struct Program Program;

/* ---- parts (design/parts.c): the hardware the spec declares, lowered once ------------------ */

/* A model of hardware or plant: one per declaration of the kinds below, whether the design uses
 * it or not (cabling chooses among every cable and optic in scope). Every number is in base
 * units (m, W, bit/s, B, FLOP/s) and prices in the report currency; an optional figure the spec
 * leaves out is NAN, and says so where it is declared. Instances point at their Part; backends
 * read Parts, never declarations. */
typedef struct Part Part;

/* COUNT x PART, as a node lists its accelerators and NICs. */
typedef struct PartCount {
	const Part *part;
	int count;
} PartCount;

/* Where a node's price comes from (Part.node.price_basis; report.json's price_basis). */
enum { NODE_PRICE_BUNDLE, NODE_PRICE_PARTS };

/* Counts in Parts are ints; a count the spec writes past this is kept as PART_COUNT_MAX + 1. */
#define PART_COUNT_MAX (1 << 24)

/* The year of rates and energies (PRODUCT §2: 8,760 h, as lang/units.c's `y`), in hours and in
 * seconds, and the joules of a kWh, which passes and backends convert with: one definition each. */
#define HOURS_PER_YEAR 8760.0
#define SECONDS_PER_YEAR (HOURS_PER_YEAR * 3600)
#define J_PER_KWH 3.6e6

struct Part {
	const struct Decl *decl;  /* the declaration (the passes' way back to the spec) */
	bool complete;            /* every required field set (always, for a part in use) */
	int kind;                 /* KindId: ACCELERATOR, NIC, SWITCH, CABLE, OPTIC, COOLING, POWER,
				   * NODE, STORAGE or RACK */
	const char *name;
	Loc loc;                  /* the declaration's name */
	const char *vendor;       /* NULL when not given */
	const char *description;  /* "" when not given */
	double price;             /* per unit (the fixed part of a cable's) */
	double power;             /* W per unit: a node's declared, else its parts' sum */
	double height;            /* m of rack space (devices) or usable height (rack types) */
	int height_u;             /* the same in whole rack units, at least 1 */
	double weight;            /* kg of one node, switch, OCS, storage appliance or patch panel;
				   * NAN when not given (other kinds: NAN; a rack type's is
				   * rack.weight) */
	double failure_rate;      /* job interruptions per second in service (the schema's
				   * failure_rate; 0 for kinds without one); of a power_stage or
				   * cooling_unit, one unit's failures per second */
	double mttr;              /* s: a power_stage's or cooling_unit's mean time to repair */
	double ccf_beta;          /* a power_stage's or cooling_unit's common-cause share of its
				   * failures (beta factor, 0..1) */
	struct {
		int form_factor;      /* FormFactor */
		double memory, memory_bw; /* B; B/s, NAN when not given */
		double bf16, fp8, fp4;    /* FLOP/s dense; fp8, fp4 NAN when unsupported */
		double tdp;
		double scale_up_bw;       /* bit/s per accelerator, both directions; NAN when absent */
		double matmul_eff;
		double fp8_matmul_eff;    /* the same at the FP8 peak */
		double attention_eff;     /* fused attention's forward, of the BF16 peak */
		double attention_bwd_eff; /* its backward */
		bool fp8_tn_only;         /* FP8 GEMMs K-major only: a transposed weight copy kept */
		int gemm_table;           /* GemmTable: multiply throughput by size (GT_NONE: flat) */
		double scale_up_eff;      /* fraction of scale_up_bw a collective attains */
		bool scale_up_reduction;  /* NVLink SHARP (NVLS) in the domain's switches */
		/* HybridEP's dispatch and combine in the domain, of the per-direction rate (rows
		 * received a second); 0: not given */
		double hep_dispatch_eff, hep_combine_eff;
		double host_bw;           /* B/s to the host's memory, one direction; 0: none */
		double memory_failure_rate; /* per second: its HBM's */
	} accel;
	struct {
		double speed;         /* bit/s of one port */
		int ports;
		int protocol;         /* Protocol */
		int cage;             /* Connector */
		int port_names;       /* PortNaming: plain, mlx5 or bnxt_re */
		double collective_eff; /* fraction of speed a collective attains */
	} nic;
	struct {
		const char *asic;     /* NULL when not given */
		int ports, cages, breakout;
		int chips;            /* switch chips in the box (an NVL72 switch tray: 2) */
		double port_speed;    /* bit/s */
		double latency;       /* s, NAN when not given */
		int cage;             /* Connector */
		int protocol;         /* Protocol */
		bool sharp;           /* in_network_reduction */
		int port_names;       /* PortNaming: plain, sonic, mlnx_os or nvos */
		int port_alias;       /* PortAlias: SONiC's front-panel alias */
		const char *hwsku;    /* SONiC HwSKU; the declaration name when not given */
		int cage_lanes;       /* SerDes lanes of one cage (its type's: osfp 8, qsfp28 4) */
		int port_lanes;       /* of one port at port_speed: a twin-port cage's halves */
		int first_lane, lane_step; /* ASIC lane numbers: cage c starts at first_lane +
					      * c * lane_step ... */
		const int *lane_map;  /* ... or at lane_map[c] (NULL: not given) */
		int nlane_map;
	} sw;
	struct {
		int ports, spare;     /* fibre ports, and those of them never wired */
		double reach;         /* m from a transceiver to the switch, INFINITY when not given */
	} ocs;
	struct {
		int media;            /* Media: dac, acc, aec, aoc or fiber */
		double speed;         /* bit/s, INFINITY when any */
		double reach;         /* m */
		const double *lengths; /* stocked lengths, ascending; NULL: every whole metre */
		int nlengths;
		int fiber;            /* Fiber, or -1 */
		int connector;        /* Connector, or -1 */
		int breakout;         /* ends on the far side: legs of a breakout or splitter */
		int ports;            /* logical ports of the head end (a twin-port end: 2) */
		double price_per_m;
	} cable;
	struct {
		double speed, reach;
		int ports;            /* logical ports carried (a twin-port module has 2) */
		int fiber;            /* Fiber */
		int connector;        /* Connector (optical), or -1 */
		int cage;             /* Connector: the cage it plugs into */
	} optic;
	struct {
		int ports;            /* adapters: links patched */
		int connector;        /* Connector of its adapters */
	} panel;
	struct {
		int type;             /* CoolingType */
		double pue;           /* its partial PUE, NAN when its plant gives it */
		double max_rack_power, liquid_fraction;
		double capex_per_w;   /* per W of IT load, apart from its plant */
		const Part **plant;   /* its cooling units (cooling_unit parts); NULL: none */
		int nplant;
		double supply_temp;   /* deg C of the warmest supply it takes, NAN when not given */
		double approach;      /* K the supply stays above the outdoor wet-bulb (economiser) */
	} cooling;
	struct {
		int unit;             /* CoolingUnit */
		int serves;           /* HeatShare */
		double capacity;      /* W of heat one unit removes, NAN when not given */
		int racks_per_unit;   /* 0: no limit */
		int redundancy;       /* Redundancy */
		int module_count;
		double power_ratio;   /* W electric per W of heat carried */
		double capex_per_w;   /* per W of heat capacity installed */
	} cunit;
	struct {
		int type;             /* PowerType */
		int redundancy;       /* Redundancy */
		int module_count;
		double efficiency;    /* its own (1 by default), apart from its chain's */
		double capex_per_w;   /* per W installed */
		const Part **chain;   /* its stages, utility first (power_stage parts); NULL: none */
		int nchain;
	} power_sys;
	struct {
		int stage;            /* PowerStage */
		int redundancy;       /* Redundancy */
		int module_count;
		double efficiency;
		double unit_capacity; /* W of one unit, NAN when not given */
		double capex_per_w;   /* per W installed */
	} stage;
	struct {
		const PartCount *accels; /* in the order the node lists them */
		int naccels;
		const PartCount *nics;
		int nnics;
		const PartCount *trays;  /* scale_up_switches */
		int ntrays;
		int accelerators;     /* Σ counts */
		int nic_ports;        /* Σ count x ports */
		const char *cpu;      /* NULL when not given */
		int cpus, cpu_cores;  /* 0 when not given */
		const char *cpu_model; /* NULL when not given */
		int scale_up_racks;   /* racks of one domain's nodes (1: the domain stands in one) */
		int scale_up_switch_racks; /* racks of its own for a domain's switches, or 0 */
		double memory, local_storage, weight; /* NAN when not given */
		double base_power;
		bool price_includes_nics;
		/* The price (Part.price) and where it comes from (parts.c, docs/models.md):
		 * NODE_PRICE_BUNDLE the spec's price, plus price_adjust when an override changed
		 * the parts under a price written for others; NODE_PRICE_PARTS chassis_price +
		 * accelerators + NICs (when price_includes_nics) + cpus x cpu_price. */
		int price_basis;
		double bundle_price;  /* as written, NAN on a price from parts */
		double price_adjust;  /* the changed parts' price difference, 0 when none */
		double chassis_price; /* NAN when not given */
		double accel_price, nic_price, cpu_price; /* the parts' share: Σ count x price */
		int scale_up_domain;  /* accelerators per scale-up domain */
		double storage_bw;    /* B/s to the checkpoint storage, NAN when not given */
		double scale_up_bw;   /* bit/s per accelerator: the node's, else its first
				       * accelerator's; NAN when neither says */
	} node;
	struct {
		double capacity, bandwidth; /* B; B/s, NAN when not given */
		double write_bw;      /* B/s, the read bandwidth when not given */
		const PartCount *nics;
		int nnics;
	} storage;
	struct {
		double reserved;      /* m kept for PDUs and patch panels */
		double width, depth;  /* m */
		double max_weight;    /* kg, NAN when not given */
		double weight;        /* kg of the empty rack (0 when not given) */
	} rack;
};

/* ---- the design (elaborate.c, racks.c, model.c): the IR after the front end ----------------- */

/* An open choice of the spec (one_of, a range or auto) and what was chosen for it. */
typedef struct Decision {
	const char *name;     /* the declaration ("rack48") ... */
	const char *field_name; /* ... and what it set: "power_limit", or "topology.tiers" for a
				 * constructor's parameter */
	Decl *decl;
	Field *field;
	const char *param;    /* a constructor parameter of the field, or NULL */
	const Value *choice;  /* the VAL_CHOICE, VAL_RANGE or VAL_AUTO as written */
	const Value *chosen;  /* the option in force */
	const char *chosen_text; /* how it reads: "80 kW", "cold_plate", "1024" (always set once
				  * decided) */
	int chosen_index;     /* the option's position among those written, from 0 */
	bool in_count;        /* the choice is the count of a COUNT x NAME */
	int ncandidates;      /* options considered */
	double next_best;     /* objective of the best design with another option here, or NAN */
	const char *next_best_text;
	Loc loc;              /* the choice as written (decide_report) */
	double chosen_value;  /* the option in force in base units, NAN when not a number */
	const char *chosen_unit; /* those units ("W"), NULL when not a number */
} Decision;

/* A rack zone (zone.c): an area of the hall with its own rack type, cooling and power class,
 * its own rows, and what stands in it. A spec without zone declarations has one implicit zone,
 * "main": the cluster's rack type for the nodes and storage, its network rack for the
 * switches (racks.c), the first generation's design. */
typedef struct ZoneInst {
	const char *name;        /* the declaration's; "main" for the implicit zone */
	Decl *decl;              /* NULL: the implicit zone */
	Loc loc;                 /* its name (the cluster's, for the implicit zone) */
	Decl *rack, *cooling;    /* the rack type and the cooling in force (the zone's own cooling
				  * before its rack type's) */
	const Part *rack_type, *cooling_type;
	double limit, cap;       /* W: power class (INFINITY: none) and the lower of it and what the
				  * cooling removes */
	double usable, node_cap; /* m and W of a rack left for nodes and storage (ToRs taken) */
	int nodes_per_rack;      /* the zone's or its rack type's, 0: as many as fit */
	Loc npr_loc;             /* where that is written */
	bool network;            /* the fabrics' switch racks stand here */
	/* Its floor (place.c): the zone's grid, else the site's pitches and row length. */
	bool own_floor;          /* the zone gives floor = grid(...) */
	int floor_rows, per_row; /* rows its grid has (0: as many as it takes), racks a row */
	double rack_pitch, row_pitch; /* m */
	double floor_loading;    /* kg/m^2: the zone's, else the site's; NAN when neither says */
	double fit_out;          /* report currency */
	/* What stands in it: racks of nodes and storage (racks.c), switch racks
	 * (place_network_racks), IT power at peak of all of them (model.c, before optics). */
	int racks, network_racks;
	int nodes;               /* nodes standing in it (racks.c) */
	double it_power;
	double cooling_capex;    /* its cooling plant: IT kW x the cooling's capex per kW (model.c) */
	/* Placed (place.c): its first row and rows, where its rows start and its extent (m), its
	 * floor area (m^2: rows x per_row positions at its pitches). */
	int first_row, rows;
	double y0, width, depth, area;
	/* Checked (heat.c): its heaviest rack (kg, with its devices; NAN when a mass is unknown)
	 * and the load on the floor under it (kg/m^2), its densest rack (W, optics included). */
	double peak_rack_mass, peak_floor_load, peak_rack_power;
} ZoneInst;

/* One group of identical nodes, as the cluster's nodes field lists them. */
typedef struct NodeGroup {
	const Part *type;    /* its power and height are the node's (parts.c) */
	int count;
	int per_rack;        /* nodes of this group in one rack */
	int racks;
	int domain_nodes;    /* nodes per scale-up domain (1 when the domain is the node) */
	int domain_racks;    /* racks of one domain's nodes: its type's scale_up_racks (1) */
	int switch_racks;    /* racks of its own for one domain's switches (0: with the nodes) */
	int first_node, first_domain; /* its first node and scale-up domain (elaborate.c) */
	/* Hot spare nodes among count (spares.c): added to the spec's count when the domain is the
	 * node; trays reserved inside the domains (domain_spares each) when it spans nodes. */
	int spares, domain_spares;
	int zone;            /* index into Design.zones (racks.c) */
	Loc loc;             /* its entry in cluster.nodes */
} NodeGroup;

typedef struct NodeInst {
	const Part *type;
	const char *hostname;
	int group;
	int rack;            /* index into Design.racks */
	int u;               /* lowest rack unit it occupies, from 1 at the bottom */
	int domain;          /* scale-up domain, from 0: index into Design.domain_names */
	int first_accel, first_port;
	bool spare;          /* a hot spare (spares.c): racked, powered, cabled, in no plan */
} NodeInst;

typedef struct AccelInst {
	const Part *type;
	int node, slot;      /* slot from 0 inside the node */
} AccelInst;

typedef struct PortInst {
	const Part *nic;
	int node, nic_index, port; /* the node's NIC (from 0) and the port on it (from 0) */
	double speed;        /* bit/s */
} PortInst;

typedef struct RackInst {
	const char *name;
	const Part *type;    /* the rack type */
	const Part *cooling;
	double power_limit;  /* W: the rack's power class (INFINITY when it has none) */
	double cap;          /* W it may draw: the lower of its power class and what its cooling
			      * removes (the one place this is decided: elaborate.c, place.c) */
	double power;        /* W at peak of what it holds: its devices, and once cabled (heat.c) the
			      * transceivers and active cable ends plugged into them */
	double optics_power; /* W of those transceivers and active ends (heat.c), part of power */
	/* Its feeds (power_chain.c, when the power system's chain has a rack_feed stage): how
	 * many, one's rating (W) and what one carries at peak when the redundancy has lost the
	 * most it allows (2N: one side carries all). feeds 0: no rack feed stage. */
	int feeds;
	double feed_rating, feed_failure_load;
	int cables;          /* cable ends in the rack (heat.c) */
	double height_used;  /* m */
	int row, pos;        /* place on the floor from 0 (a default grid when the site has none) */
	double x, y;         /* m: centre of its footprint on the floor */
	double median_x, median_y; /* m: where the median rule would stand it (arrange.c), for the
				    * report's comparison of run lengths */
	int first_node, nnodes;
	int storage;         /* storage appliances it holds */
	bool network;        /* a rack of switches (and fabric managers) */
	int zone;            /* index into Design.zones: its type, cooling and limits are the zone's */
	double mass;         /* kg of the rack and what it holds (heat.c); NAN when a mass is unknown */
	int group;           /* the network group it belongs to, or -1 */
	/* A scale-up domain over several racks (elaborate.c): the domain (index into
	 * Design.domain_names) or -1; the rack's share of it: node racks 0 .. domain_racks - 1,
	 * then its switch racks; on the domain's first rack the racks it has in all, else 0. */
	int domain, domain_slot, domain_span;
	bool scale_up_switches; /* a rack of one domain's scale-up switches */
} RackInst;

/* A storage appliance of cluster.storage, in a rack of its own kind. */
typedef struct StorageInst {
	const Part *type;
	const char *name;    /* "DECL-NNN", numbered per model from 1 */
	int rack;            /* index into Design.racks */
	int u;               /* lowest rack unit it occupies, from 1 */
} StorageInst;

enum { CAT_NODES, CAT_NETWORK, CAT_STORAGE, CAT_OTHER, CAT_CABLING, CAT_RACKS, CAT_COOLING,
       CAT_POWER, CAT_SPARES, CAT_COUNT };
extern const char *const ir_category_names[CAT_COUNT];
extern const char *const ir_power_stage_names[PS_COUNT]; /* "utility", "ups", "rack_feed" ... */
extern const char *const ir_redundancy_names[RED_COUNT]; /* "n", "n_plus_1", "two_n", "block" */

enum { SPARE_SWITCHES, SPARE_OPTICS, SPARE_CABLES, SPARE_COUNT };

/* The costed design, in base units (W, J, s) and the report currency. */
typedef struct Totals {
	double accelerators, nodes, racks, switches, cables, storage_units;
	double hot_spares;            /* of the nodes, the hot spares (spares.c) ... */
	double spare_accelerators, spare_compute; /* ... their accelerators and FLOP/s */
	double patch_panels, trunks; /* structured cabling (trunk.c) */
	/* Spare parts on the shelf by kind (SPARE_*): the cluster's rate and the count bought. */
	struct {
		double rate, count;
	} spares[SPARE_COUNT];
	double cpus;                  /* host CPUs the nodes count (cpus); 0 when none does */
	double it_power;              /* W at peak */
	double power_by_cat[CAT_COUNT]; /* W at peak: nodes, network, storage, other */
	double avg_it_power;          /* W: peak x utilization where it applies */
	double pue;                   /* facility / IT */
	double facility_power;        /* W at peak */
	double capex;
	double capex_by_cat[CAT_COUNT];
	double annual_energy;         /* J of facility energy in a year */
	double annual_energy_cost;    /* report currency per year */
	double horizon_years;
	double tco;
	double annual_carbon;         /* kg per year, or NAN when the site gives no intensity */
	double peak_compute;          /* FLOP/s dense BF16 */
	double power_capacity;        /* W of power plant installed (redundancy included) */
	double cabling_power;         /* W of the cables' and transceivers' share of network power */
	double power_efficiency;      /* utility to IT: the power system's, times its chain's */
	double power_losses;          /* W at peak lost in the power chain (0 without one) */
	/* The cooling plant (cooling_plant.c): its power at peak (the design day, chillers on)
	 * and over a year, the partial PUEs they give, the annual PUE (pue is the peak's, of
	 * facility power; annual_energy counts the annual one; both the site's pue when it
	 * gives one), the heat reused a year (J) and its credit (report currency a year, off
	 * annual_energy_cost, which is net of it). */
	double cooling_power, cooling_avg_power;
	double cooling_ppue, cooling_ppue_annual;
	double pue_annual;
	bool pue_from_site;           /* the site's pue stands in for the derived one */
	double free_cooling_share;    /* of the year's hours without chillers: the site's, else the
				       * groups' (derived from the wet-bulb) weighted by their heat */
	double heat_reused, heat_credit;
	double annual_energy_gross_cost; /* the electricity's, before the credit */
} Totals;

/* The financial model of the design as built (finance.c; docs/models.md, "Finance"): report
 * currency, years of 365 days; NAN where it does not apply (no accelerators). */
typedef struct FinanceWorkload {
	const char *name;     /* a workload a plan fits */
	int gpus;             /* the GPUs its plan uses */
	double gpu_hours;     /* gpus x time to train */
	double cost;          /* gpu_hours x cost per GPU-hour: its share of the cluster's cost */
} FinanceWorkload;

/* One input of the tornado (finance.c, finance_sensitivity): the metric with that input at its
 * low and at its high end, every other input as designed. */
typedef enum { SENS_PRICES, SENS_ELECTRICITY, SENS_UTILIZATION, SENS_FAILURES, SENS_COUNT } SensKind;
typedef struct SensFactor {
	SensKind kind;
	double low_input, high_input; /* a multiple of the design's (prices, electricity, failure
				       * rates), or the utilization itself */
	double low, high;             /* the metric at the low and at the high input */
} SensFactor;

/* The tornado: the cost per trained model of `workload`, failures included (its effective time
 * to train), or the cost per GPU-hour when no workload has a plan (workload NULL). */
typedef struct Sensitivity {
	const char *workload;
	double base;                  /* the metric as designed */
	SensFactor f[SENS_COUNT];
	int n;                        /* failure rates only for a workload under failures */
} Sensitivity;

typedef struct Finance {
	bool done;                    /* the pass ran */
	double cost_of_capital;       /* per year */
	int depreciation;             /* DEP_* */
	int depreciation_years;       /* whole years; the schedule's length */
	double *depreciation_by_year; /* [depreciation_years] */
	double book_value_at_horizon; /* capex less what was written off within the horizon */
	double hardware_capex;        /* what support is a share of */
	double annual_energy_cost, annual_support, annual_staff, annual_space, annual_opex;
	double annuity_factor;        /* years: the present value of 1 a year over the horizon */
	double opex_pv;               /* annual_opex x annuity_factor */
	double npv;                   /* net present cost: capex + opex_pv */
	double annual_cost;           /* equivalent annual cost: npv / annuity_factor */
	double utilization;           /* the cluster's */
	double gpu_hours_per_year, pflop_days_per_year; /* delivered, at the utilization */
	double per_gpu_hour, per_pflop_day;
	FinanceWorkload *workloads;
	int nworkloads;
	Sensitivity sens;
} Finance;
extern const char *const finance_sens_names[SENS_COUNT];  /* JSON keys: "prices", ... */
extern const char *const finance_sens_labels[SENS_COUNT]; /* for people: "hardware prices", ... */
/* One stage of the power system's chain as sized for the design (power_chain.c): the load it
 * delivers and draws at peak, its loss, the capacity installed (redundancy included, whole
 * units when the stage gives a unit's rating) and its capex. */
typedef struct PowerStageInst {
	const Part *stage;
	double load;          /* W delivered to the stage below (the racks, for the last) */
	double input;         /* W drawn from the stage above: load / efficiency */
	double loss;          /* W: input - load */
	double installed;     /* W installed */
	double units;         /* units installed, 0 when the stage gives no unit rating */
	double failure_load;  /* W on one unit that survives the failure its redundancy allows */
	double capex;         /* report currency */
} PowerStageInst;

/* One unit of a cooling plant as sized for one cooling group (cooling_plant.c): the heat it
 * carries, the units and capacity installed, its power at peak and over a year, its capex. */
typedef struct CoolingUnitInst {
	const Part *unit;
	double load;          /* W of heat at peak */
	double units;         /* installed, 0 when the unit gives no capacity nor racks per unit */
	double installed;     /* W of heat capacity installed (redundancy included) */
	double power;         /* W electric at peak (the design day: chillers run) */
	double avg_power;     /* W electric over a year (chillers off in free-cooling hours) */
	double capex;         /* report currency */
} CoolingUnitInst;

/* The racks that share one cooling, and the plant that cools them (cooling_plant.c): the
 * unit the plant is sized for. Built from the racks once they exist (Design.racks, grouped by
 * RackInst.cooling), before that from the planned node and switch racks. */
typedef struct CoolingGroup {
	int zone;             /* index into Design.zones */
	const Part *cooling;
	int racks;
	double heat;          /* W at peak: what its racks draw (every watt is shed as heat) */
	double avg_heat;      /* W over a year */
	double liquid_heat;   /* W at peak carried by liquid: heat x liquid_fraction */
	CoolingUnitInst *units; /* one per unit of the cooling's plant, in its order */
	int nunits;
	double power, avg_power; /* W of cooling at peak, over a year */
	double capex;         /* its plant's and the cooling's own per-kW capex */
	double free_share;    /* of the year's hours its chillers are off (cooling_free_share) */
	bool linear;          /* sized without whole units: the planned switch racks' group while
			       * the optimizer explores candidates (cooling_plant.c says why) */
} CoolingGroup;

typedef struct BomLine {
	const char *part;    /* node, nic, switch, rack, cooling plant ... */
	const Part *model_part; /* the model; NULL for lines not tied to one */
	const char *model;   /* its name (a cable's with its length: "AOC_400G 10 m") */
	const char *description; /* the model's, or "" */
	double quantity;
	const char *unit;    /* "" for pieces, "kW" for plant sized by power */
	double unit_price;   /* report currency */
	double total;
	double unit_power;   /* W */
	double power;        /* W */
} BomLine;

/* ---- fabrics (fabric.c sizes them, wire_*.c wire them port by port, verify.c proves them) -- */

/* Link tiers, shared by every topology; the name is how reports and drawings say it. */
#define LINK_TIERS(X)                                   \
	X(NODE_LEAF, "node-leaf")     /* endpoint to leaf */   \
	X(LEAF_SPINE, "leaf-spine")                            \
	X(SPINE_CORE, "spine-core")                            \
	X(TERMINAL, "terminal")       /* dragonfly: endpoint to router */ \
	X(LOCAL, "local")             /* dragonfly: inside a group */ \
	X(GLOBAL, "global")           /* dragonfly: between groups */ \
	X(TORUS, "torus")             /* endpoint to endpoint, wraparound */ \
	X(SCALE_UP, "scale-up")       /* accelerator to NVLink switch, backplane */ \
	X(OCS, "ocs")                 /* torus: a block's face to an optical circuit switch */

typedef enum {
#define X(t, s) LT_##t,
	LINK_TIERS(X)
#undef X
	LT_COUNT
} LinkTier;
extern const char *const ir_link_tier_names[LT_COUNT];

/* Switch tiers: the leaf, spine and core of a fat tree, a dragonfly's routers, the switch trays
 * of scale-up domains, the optical circuit switches that join a torus's blocks. */
#define SWITCH_TIERS(X) X(LEAF, "leaf") X(SPINE, "spine") X(CORE, "core") X(ROUTER, "router") \
	X(SCALE_UP, "scale-up") X(OCS, "ocs")

typedef enum {
#define X(t, s) ST_##t,
	SWITCH_TIERS(X)
#undef X
	ST_COUNT
} SwitchTier;
extern const char *const ir_switch_tier_names[ST_COUNT];

/* A device attached to a fabric that is not a cluster node: a fabric manager, storage, a
 * gateway (fabric.endpoints). */
typedef struct ExtraInst {
	const Part *type;
	const char *name;    /* "compute-ufm_appliance-1" */
	int fabric;
	int nports;          /* its NIC ports on the fabric */
	double speed;
	int rack, u;         /* where it stands (place.c) */
	int appliance;       /* index into Design.appliances when it is one of cluster.storage's
			      * (its name and place are the appliance's), else -1 */
} ExtraInst;

typedef struct SwitchInst {
	const Part *model;
	const char *name;    /* "compute-leaf-001", "compute-p2-spine-004", "nvl-dom001-sw3" */
	int fabric;          /* index into Design.fabrics, or -1 for a scale-up tray */
	SwitchTier tier;
	int plane, su, rail;  /* -1 when not in one */
	int pod;             /* the pod of a 3-tier tree's leaf or spine, or -1 */
	int group;           /* a core's group in a 3-tier tree, a dragonfly router's group, a
			      * scale-up tray's domain; else as pod */
	int index;           /* position inside its tier and plane, from 0 */
	int radix;           /* logical ports at the link speed (breakout counted) */
	int breakout;        /* logical ports per physical port */
	int split;           /* 0, or the first up port when the up links have their own lane
			      * count (a tree tier whose up links run at another speed) ... */
	int up_breakout;     /* ... that many logical ports per physical port from there */
	int used;            /* ports wired */
	int rack;            /* the rack it stands in (place.c), -1 before */
	int u;               /* lowest rack unit it occupies, from 1 */
} SwitchInst;

/* One end of a link. Ports count from 0; a switch's logical port p is physical port
 * p / breakout, lane p % breakout. */
typedef enum { END_NODE, END_EXTRA, END_SWITCH, END_ACCEL } EndKind;
typedef struct End {
	uint8_t kind;        /* EndKind */
	int dev;             /* NodeInst, ExtraInst, SwitchInst or AccelInst index */
	int port;            /* END_NODE: index into Design.ports (a NIC port); others: port number */
} End;

typedef struct LinkInst {
	End a, z;            /* a: the end nearer the endpoints */
	double speed;        /* bit/s */
	uint8_t tier;        /* LinkTier */
	uint8_t plane;
	int16_t rail;        /* -1 when not rail-aligned */
	int fabric;          /* -1 for scale-up links */
} LinkInst;

/* The most NIC ports a node brings to one fabric (its rails); fabric.c reports more. */
#define FABRIC_MAX_RAILS 256
/* The largest cluster clusterc designs: 8x the largest anyone plans (PRODUCT §2, 1,000,000
 * accelerators), and within the ints that count instances. */
#define CLUSTER_MAX_NODES (1 << 23)
#define CLUSTER_MAX_ACCELERATORS (1 << 23)

/* Switches of one plane that share network racks (a family's rack_groups): wiring-order
 * switches [first, first + count) of the plane, the fabric's extra devices when `extras`, and
 * the nodes they serve by fabric ordinal, [serve_lo, serve_hi) (serve_hi < 0: every node). */
typedef struct RackGroupSpec {
	int first, count;
	bool extras;
	int serve_lo, serve_hi;
} RackGroupSpec;

/* A parameter of a fabric's shape as report.json gives it (dragonfly p, a, h, g; torus dims). */
typedef struct ShapeParam {
	const char *name;
	int value;
} ShapeParam;

struct FabricInst;
struct Design;
struct SchedTree;

/* A topology family: everything a pass or a backend asks of a topology, so that none compares
 * its name (passes/fabric/family.c holds the table, one row per schema.def TOPOLOGY row; each
 * family's passes live in passes/fabric/NAME.c). */
typedef struct TopologyFamily {
	TopologyKind kind;
	const char *name;        /* "fat_tree": the constructor, and report.json's "topology" */
	bool switched;           /* built of switches (a torus links endpoints to endpoints) */
	bool tree;               /* tiers of switches up from leaves: OpenSM's ftree, Slurm's tree,
				  * the planner's hierarchical bandwidth model */
	const int *switch_tiers; /* the SwitchTiers report.json lists, -1 ended */
	const int *link_tiers;   /* the LinkTiers report.json lists, -1 ended */
	const char *shape_key;   /* report.json's key for FabricInst.shape, or NULL */
	bool shape_list;         /* ... a list of its values (else an object by name) */
	/* The passes: sizing (counts, metrics, a Violation when it cannot be built), wiring port by
	 * port, the network racks' groups (0 groups: the family stands in no network rack). */
	bool (*size)(struct Design *d, struct FabricInst *f, const struct Value *topo, int nodes,
		     int extra_ports);
	void (*wire)(struct Design *d, struct FabricInst *f, int fi);
	int (*rack_groups)(const struct FabricInst *f, int plane, int fit, RackGroupSpec *out);
	/* In words: the sentence report.md opens a fabric with ("Fat tree of 3 tiers,
	 * rail-optimized"), and the name with its tiers as a table cell ("fat_tree, 3 tiers"). */
	void (*describe)(const struct FabricInst *f, Buf *b);
	void (*summary)(const struct FabricInst *f, Buf *b);
	/* What check.c asks beyond the parameters' schema (a torus has 2 or 3 dimensions).
	 * Diagnostics go to c. */
	void (*check)(Ctx *c, const struct Value *topo);
	/* The nodes one rack must hold for the topology's own layout (a torus's block), 0 when it
	 * asks none: racks.c fills racks so, unless the rack type says nodes_per_rack. */
	int (*rack_nodes)(const struct Value *topo);
	/* The scheduler's view of wired fabric fi (sched.c, the pass, says what the tree holds):
	 * its switches (sched_add_switch) and their links, each node's leaf and block unit
	 * (SchedTree.leaf, .unit, .unit_name, .unit_word) and the comment lines saying how the
	 * fabric became the tree (.explain); arrays kept in a. */
	void (*sched)(struct SchedTree *t, const struct Design *d, int fi, Arena *a);
} TopologyFamily;

extern const TopologyFamily topology_families[TOPO_COUNT];

typedef struct FabricInst {
	Decl *decl;
	unsigned long long reads;    /* the open choices its sizing read (field_reads), for the
				      * optimizer's factors; 0 outside the optimizer */
	const char *name;            /* the fabric's declaration */
	Loc loc;                     /* its name in the source */
	int routing;                 /* Routing, or -1 when the spec leaves it to the consumer */
	const TopologyFamily *family; /* NULL until the topology is known (an open choice) */
	ShapeParam shape[6];         /* the family's parameters as report.json gives them */
	int nshape;
	int probe_tiers;             /* sizing a probe with another tier count (0: as asked) */
	bool probing;                /* sizing a probe: no suggestion inside a suggestion */
	bool sized;                  /* the shape holds: wire it (else a Violation explains) */
	const Part *switch_model;
	int protocol;                /* Protocol: the fabric's, else its switch's; ethernet when
				      * neither says (the switch schema's default) */
	const Part *nic;             /* the node NIC on this fabric ... */
	int nic_first;               /* ... from this one of the node's NICs of that model on:
				      * fabrics sharing a model take its ports in fabric order */
	double link_speed;           /* bit/s */
	int radix;                   /* logical switch ports at link_speed */
	int breakout;
	/* Per tier of a tree (0 leaf, 1 spine, 2 core): the switch model, the speed of the links
	 * down from the tier (node-leaf, leaf-spine, spine-core), and the tier's radix and breakout
	 * at that speed. The fabric's switch and link for every tier unless the spec says
	 * otherwise (spine_switch, core_switch, spine_link, core_link); switch_model, link_speed,
	 * radix and breakout above are tier 0's. */
	const Part *tier_model[3];
	double tier_speed[3];
	int tier_radix[3], tier_breakout[3];
	int tier_up_breakout[2];     /* lanes per port of a leaf's (spine's) up links */
	int tier_used[3];            /* the most ports wired on one switch of the tier (wire.c) */
	bool per_tier;               /* the spec uses the per-tier form (a tier's own switch or
				      * link, pod_leaves, ToRs): reports then list every tier */
	double up_per_endpoint[2];   /* bit/s per endpoint port up from the leaves, the spines */
	int pod_endpoints;           /* endpoint ports of a full pod, per plane (3 tiers) */
	bool tor;                    /* leaves stand in the server racks they serve (ToRs) */
	int racks_per_leaf;          /* server racks one ToR serves */
	bool by_port;                /* plane_assignment = by_port: a node's rail r on plane
				      * r mod planes (port j of every NIC on plane j), else rails
				      * q·R/P … (q+1)·R/P − 1 on plane q (docs/fabrics.md §1) */
	int backup_ports;            /* down ports (at the link speed) every leaf keeps unwired */
	int tors_per_rack;           /* ToRs: the ToRs of a server rack (set), one a plane; else 0 */
	bool plane_form;             /* the spec gives plane_assignment or backup_ports_per_tor:
				      * reports then show them (else as before) */
	int *tor_first_leaf;         /* ToRs: each node group's first leaf (per plane), or -1 */
	int tor_rack_nodes;          /* ToRs: the most nodes in one server rack of the fabric */
	int planes, rails, tiers;    /* rails: NIC ports of a node on the fabric, all planes */
	int node_ports;              /* of a node's rails in one plane, those the fabric links (a
				      * torus: 2 per dimension; the others: all) */
	bool rail_optimized;
	int su_nodes, sus;           /* scalable unit size and count (rail-optimized trees) */
	double oversub[3];           /* down:up bandwidth at leaf, spine (and core) */
	int down[3], up[3];          /* ports per switch of each tree tier: down and up */
	int endpoints;               /* endpoint ports over all planes */
	int per_plane[ST_COUNT];     /* switches of each tier in one plane */
	int links_per_plane[LT_COUNT];
	int pods, pod_leaves, core_groups, core_per_group; /* 3-tier shape */
	int spine_links;             /* links from a leaf to each spine (2-tier) */
	int grow_nodes;              /* nodes the tree is sized for: grow_to, else the nodes now */
	int grow_from;               /* the nodes it links now */
	bool grows;                  /* the spec gives grow_to */
	int reserved[3];             /* ports of each spine (1) and core (2) kept free for the
				      * leaves and pods grow_to plans (docs/daytwo.md); 0 without */
	int dims[3], ndims;          /* torus */
	int block[3], blocks;        /* a torus's block (one rack's positions) and how many; the
				      * whole torus, 1, when it has none */
	bool twisted;                /* a twisted torus (torus.c) */
	int per_node;                /* torus positions in one node (1: the node is one) ... */
	int node_shape[3];           /* ... as a sub-block of a block ([per_node, 1, 1] unless said) */
	int ocs_ports;               /* ports wired on each optical circuit switch (2 x blocks) */
	int *node_block;             /* a torus with blocks: node n's block (its rack's), -1 off it;
				      * NULL otherwise */
	int board_links;             /* links between positions of one node, all planes: traces on
				      * its board, no cable (cable.c) */
	int df_p, df_a, df_h, df_g, df_links_per_pair; /* dragonfly */
	int switches, links;         /* totals, all planes */
	int by_tier[ST_COUNT];
	int links_by_tier[LT_COUNT];
	double bisection;            /* bit/s across the worst bisection */
	int diameter;                /* switch-to-switch hops on the longest shortest path */
	double ecmp;                 /* equal-cost paths between two leaves of different units */
	int first_switch, first_link, first_extra, nextras;
	int *position;               /* wire.c: node -> its place among the nodes the fabric links
				      * (in node order), -1 when it links none of its ports */
	int members;                 /* nodes the fabric links */
	int *coord;                  /* a torus: node n's coordinates at coord[3n .. 3n+2] (its first
				      * position's), -1 for a node off it; NULL for the other
				      * families */
} FabricInst;

/* Switches that share network racks: a contiguous range of one fabric's switches (in wiring
 * order), e.g. the leaves of one scalable unit, or the spines and cores of a plane; the fabric's
 * extra devices (fabric managers) go with its first central group. place.c plans them with the
 * sizing and stands their racks among the node racks they serve. */
typedef struct NetGroup {
	int fabric, plane;
	int first, count;    /* switch indices within the fabric, in wiring order */
	bool with_extras;
	double unit_h, unit_p; /* one switch's height (m) and power (W), optics at their most */
	int unit_cables;     /* cables one switch may end (its ports wired, at most) */
	int tier;            /* a tree's tier of its switches (0 leaf, 1 spine, 2 core), else 0 */
	int pod;             /* a 3-tier tree's pod of its spines, else -1 */
	bool central;        /* serves the whole fabric (spines, cores, managers, OCSes) */
	int racks;           /* racks it takes */
	int serve_lo, serve_hi; /* the nodes it serves, by fabric ordinal (serve_hi < 0: all) */
	double home;         /* where among the node racks (a fractional rack index) */
	int first_rack;      /* its first rack in Design.racks, once placed */
} NetGroup;

/* Scale-up domains (NVLink): inside one node, or larger than a node with NVLink switch trays
 * and backplane links. */
typedef struct ScaleUpInst {
	const Part *node;
	int group;           /* its NodeGroup */
	int domains, domain_nodes, domain_accels; /* domain_nodes 1: the domain is one node */
	double bandwidth;    /* bit/s per accelerator, both directions (node's, else accelerator's) */
	int switches_per_domain, links_per_accel;
	int chips_per_domain;  /* switch chips of its switches (Σ count x chips) */
	int node_racks, switch_racks; /* racks per domain: of nodes, of its switches alone */
	int first_switch, nswitches, first_link, nlinks;
	/* Of the nlinks, those between two racks: cables (wired as links from first_link, cabled
	 * by cable.c); the rest run in a rack's backplane and are only counted. */
	int cables;
} ScaleUpInst;

/* A requirement the design does not meet: a rack limit, the site's power budget, a require
 * line. Collected silently while choices are explored; reported (exit 2) for the design kept. */
typedef struct Violation {
	Loc loc;
	const char *msg;
	Loc note_loc;
	const char *note;
	double excess;     /* how far off, relative (0.1 = 10 % over) */
	bool requirement;  /* the power budget or a require line: re-evaluated with the cables */
	int source;        /* what found it (VS_...), for the optimizer */
	int fabric;        /* the fabric concerned, or -1 */
	int zone;          /* the zone whose racks it is about (racks.c), or -1 */
	bool has_quantity; /* value and limit known (design_violation_quantity) */
	double value, limit; /* what the design has, the limit it misses, in unit */
	const char *unit;  /* base units: "W", "bit/s", "s", "J", "USD", or NULL */
} Violation;

/* Where a Violation comes from: the optimizer keeps a candidate out of its model when its own
 * part (racks of nodes, a fabric, a workload plan) cannot be built; the floor, the budget and
 * the require lines become rows of the model instead. */
enum { VS_NODES, VS_FABRIC, VS_FLOOR, VS_REQUIREMENT, VS_CABLE, VS_PLAN };

/* The floor and its cable runs, as the reports give them: the hall's extent, the runs with
 * slack summed (all, and per link tier) as built and as the median rule would have stood the
 * racks (arrange.c keeps both positions; heat.c sums the cables), the longest run. */
typedef struct PlaceReport {
	bool measured;           /* heat.c ran on cables */
	int rows, per_row;       /* the floor as used */
	double width, depth;     /* m: the extent of the racks on the floor */
	double run, median_run;  /* m: Σ runs, as placed and by the median rule */
	double run_by_tier[LT_COUNT], median_by_tier[LT_COUNT];
	double longest;          /* m: the longest run */
	double peak_rack_power;  /* W: the rack drawing most, optics included */
	int peak_rack_cables;    /* cables of the rack with most */
	int sweeps, moves;       /* the optimiser's passes over the groups, and groups it moved */
} PlaceReport;

/* A fabric link's cable: the medium, its stocked length, what it costs and draws. 80 bytes,
 * written for each of the dragonfly's 648,432 links (52 MB of memory touched for the first
 * time, against 88 MB at 136 bytes): the narrow fields as narrow types, and what only a link
 * through a trunk has in a table of its own (CableLeg; docs/performance.md, "Stages before
 * emit, twelfth session"). */
typedef struct CableInst {
	const Part *cable;   /* the copper or active optical cable, or the fibre between optics */
	const Part *optic_a, *optic_z; /* the transceivers at each end, or NULL */
	double run, length;  /* m: the run with slack, and the stocked length bought */
	double price, power; /* report currency; W: this link's share of the parts it uses (a
			      * module's over the links of its cage, an assembly's over its legs) */
	int link;            /* index into Design.links */
	/* assembly: the index in Design.cables of the cable that counts the part `cable` (itself,
	 * or the first leg of the breakout, twin-port cable or splitter fibre it is a leg of). */
	int assembly;
	/* Structured cabling (trunk.c): the trunk a fibre link between racks of different rows
	 * runs through (its leg, panels, adapters and cords: ir_cable_leg), or -1: a direct cable
	 * of `length`. */
	int trunk;
	/* Cages (cage.c): the switch cage of each end (from 0, -1 for a NIC or no cage; at most
	 * INT16_MAX, cable.c) and the port's lane in it (below CAGE_LANES_MAX). */
	int16_t cage_a, cage_z, lane_a, lane_z;
	int8_t media;        /* Media: dac, acc, aec, aoc or fiber; -1 when nothing reached */
	int8_t fiber;        /* Fiber for fibre and AOC, else -1 */
	/* module_a/z: this cable is the one that counts the module in that end's cage (its first
	 * link), so every module is counted once */
	bool module_a, module_z;
} CableInst;

/* A link through a trunk (trunk.c): it runs from its A end by a patch cord (its cable's part,
 * cord_a m) to adapter port_a of panel_a in its rack, through leg `leg` of its trunk, to
 * adapter port_z of panel_z and by a cord of cord_z m to its Z end. */
typedef struct CableLeg {
	int leg;             /* from 1 */
	int panel_a, panel_z, port_a, port_z; /* indexes into Design.panels; adapters from 1 */
	double cord_a, cord_z;
} CableLeg;

/* A fibre patch panel (trunk.c): at the top of a rack, in its type's reserved space. */
typedef struct PanelInst {
	const char *name;    /* "<rack>-PP<slot>" (ir_panel_name) */
	const Part *part;
	int rack;            /* index into Design.racks */
	int u;               /* lowest unit it occupies, from 1 */
	int slot;            /* its place among its rack's panels, from 1, top down */
	int used;            /* adapters in use */
} PanelInst;

/* A trunk cable between two racks' panels, carrying `legs` links (trunk.c). */
typedef struct TrunkInst {
	const Part *part;
	int fabric;
	int rack_a, rack_z;  /* rack_a < rack_z */
	int seq;             /* 1, 2 ... among the trunks between the two racks */
	int panel_a, panel_z, port_a, port_z; /* the first adapter of each end */
	int legs;
	double run, length;  /* m: the run with slack; the stocked length bought */
} TrunkInst;

/* ---- switch_plan.c: the layer-3 plan of an Ethernet fabric (addresses, ASNs, port names) ---- */

/* A switch port in use: the link on it, the device at the other end, the link's /31. */
typedef struct SwitchPort {
	int port;                  /* the switch's logical port */
	int link;                  /* index into Design.links */
	End peer;
	uint32_t addr, peer_addr;  /* this end's address and the other end's */
} SwitchPort;

/* One Ethernet fabric's plan (switch_plan.c); its arrays in the design's arena. Switch i is
 * Design.switches[first + i]. */
typedef struct SwitchPlan {
	const struct Design *d;
	const FabricInst *f;         /* NULL: the fabric has no plan */
	int fi;
	int first, nswitches;      /* the fabric's switches */
	int first_link, nlinks;    /* the fabric's links */
	uint32_t loopbacks, p2p;   /* the pools' first addresses */
	int shares;                /* 1, or (planes by port) each plane its own share of the
				    * pools: planes rounded up to a power of two */
	uint32_t lo_share, pp_share; /* addresses in one plane's share of each pool */
	int *slot;                 /* shares > 1: switch i's index among its plane's switches */
	int *link_slot;            /* shares > 1: link k's index among its plane's links */
	uint32_t asn0;             /* the first ASN */
	int *asn_index;            /* switch i's ASN is asn0 + asn_index[i] */
	int nasns;
	int *port_start;           /* switch i's ports: ports[port_start[i] .. port_start[i + 1]) */
	SwitchPort *ports;         /* in port order per switch */
	bool ports_later;          /* ports not yet planned: switch_plan_ports plans them */
	int lanes;                 /* SerDes lanes of one port of the switch model */
	int mtu;
	bool lossless;
} SwitchPlan;

/* ---- plan/: each workload's parallelism plan and what the model predicts for it ---------------- */

/* A transformer as the formulas read it. Dense models have experts = 1 and every layer dense;
 * an MoE model has dense_layers leading dense layers and MoE layers after them. */
typedef struct PlanModel {
	double layers, hidden, heads, head_dim, groups, ffn, seq, vocab;
	double mats;         /* FFN weight matrices: 2 (GeLU) or 3 (SwiGLU) */
	double experts, top_k, expert_ffn, shared, dense_layers;
	int norm;            /* NORM_LAYERNORM, NORM_RMSNORM */
	int position;        /* POS_LEARNED, POS_ROPE */
	double rope_base;
	bool tied;           /* output layer shares the embedding's weights */
	bool bias;           /* biases in the linear layers */
	double dropout;      /* probability; 0: no dropout masks kept */
	double route_nodes;  /* a token's experts on at most this many nodes; 0: any */
	/* Multi-head Latent Attention (DeepSeek-AI, "DeepSeek-V2", arXiv 2405.04434, §2.1): keys
	 * and values from a kv_lora-wide latent, queries from a q_lora-wide one (0: directly),
	 * query/key heads of head_dim + rope_dim, value heads of v_dim. kv_lora 0: standard. */
	double kv_lora, q_lora, rope_dim, v_dim;
	bool qk_norm;        /* an RMSNorm over each query and key head (Qwen3), not with MLA */
	/* Multi-token prediction (DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv 2412.19437,
	 * §2.2): mtp sequential modules on the last stage, each three RMSNorms (its two inputs'
	 * and a final one), a 2h -> h projection, one layer of the model's last kind and the
	 * shared output head again. */
	double mtp;
	double mtp_loss;     /* the MTP loss's weight as declared; 0: not declared */
	double params;       /* parameters in all (plan_params) */
} PlanModel;

/* The hardware a plan runs on, from the design (per accelerator unless said otherwise). */
typedef struct PlanHw {
	const Part *accel;   /* the accelerator model */
	const Part *node;    /* its node type */
	double peak;         /* dense FLOP/s at the workload's precision */
	double peak16;       /* dense BF16 FLOP/s (attention core and output layer stay in BF16) */
	double eff_large;    /* fraction of peak a large matrix multiply attains (matmul_efficiency) */
	double eff16;        /* the same of a BF16 multiply (matmul_efficiency; = eff_large in BF16) */
	double attn_eff;     /* fused attention's forward, of peak16 (attention_efficiency) */
	double attn_bwd_eff; /* its backward (attention_backward_efficiency) */
	double fp8_cache;    /* bytes a weight's FP8 copies take in an FP8 run: 1, 2 when
			      * fp8_tn_only (the transpose too); 0 in BF16 */
	double elem_bytes;   /* bytes of a matmul operand: 2 (bf16) or 1 (fp8) */
	int gemm_table;      /* GemmTable: the accelerator's measured throughput by size */
	bool fp8_current;    /* FP8 with current scaling (fp8_current_scaling): an amax pass a cast */
	double hbm;          /* bytes of HBM */
	double hbm_usable;   /* bytes a plan may fill (HBM less PLAN_HBM_RESERVE_BYTES) */
	double hbm_bw;       /* bytes/s */
	double host_bw;      /* bytes/s to host memory, one direction (0: no offload) */
	double host_mem;     /* bytes of host memory an accelerator's share of its node */
	int gpus;            /* accelerators the cluster has for the workload */
	int per_node;        /* accelerators per node */
	int domain;          /* accelerators per scale-up (NVLink) domain */
	double su_bw;        /* bytes/s per accelerator per direction inside the domain */
	double net_bw;       /* bytes/s per accelerator per direction on the fabric */
	bool tree;           /* the fabric is a fat tree (else dragonfly or torus) */
	int leaf_nodes;      /* nodes whose traffic turns at the leaves (rail-optimized: a unit) */
	int pod_nodes;       /* nodes whose traffic turns below the core (3 tiers), else all */
	double oversub[2];   /* down:up bandwidth at the leaf and at the spine */
	double cross_bw;     /* dragonfly, torus: bytes/s per accelerator across the bisection */
	double su_eff;       /* fraction of su_bw a collective attains (the accelerator's) */
	double hep_dispatch_eff, hep_combine_eff; /* HybridEP's in the domain, of su_bw (the
						   * accelerator's); 0: not given */
	double net_eff;      /* fraction of net_bw a collective attains (the fabric NIC's) */
	bool sharp;          /* the fabric's switches reduce in the network (SHARP) */
	bool nvls;           /* the scale-up domain's switches reduce (NVLink SHARP) */
	int fabric_tiers;    /* switch tiers an all-reduce climbs (SHARP's latency) */
	double gpu_power;    /* W: the node's power over its accelerators */
	double pue;
	double price_per_j;  /* report currency per J of facility energy */
} PlanHw;

typedef struct PlanConfig {
	int gpus, tp, pp, dp, cp, ep, micro, v;
	int first, last;     /* layers of the first and last pipeline stage; the stages between
			      * hold (layers - first - last) / (pp - 2) each (plan_stage_layers) */
	int batch;           /* global batch, sequences */
	int recompute;       /* PLAN_RC_* */
	int rc_layers;       /* full recompute of only this many layers of each virtual stage
			      * (Megatron-LM --recompute-method block), or with rc_uniform of
			      * every layer in groups of this many; 0: every layer, one by one */
	bool rc_uniform;     /* rc_layers is uniform recomputation's group (--recompute-method
			      * uniform) */
	unsigned rc_modules; /* selective: the submodules recomputed, bit RCM_x (Megatron-LM
			      * --recompute-modules); 0: the attention core alone (its default) */
	bool sp, dopt;       /* sequence parallelism, distributed optimizer */
	bool flash;          /* fused causal attention (FlashAttention) */
	bool fsdp;           /* weights, gradients and optimizer sharded over DP (ZeRO-3) */
	bool zero2;          /* gradients sharded with the optimizer state, the weights whole
			      * (ZeRO-2; dopt is set too) */
	bool grad16;         /* gradients accumulated and reduced in BF16 (--grad-reduce-in-bf16) */
	bool opt16;          /* Adam's moments in BF16, the FP32 master weights as 16-bit
			      * remainders of the BF16 weights: 6 bytes a parameter, not 12 */
	bool fp8p;           /* the weights in FP8 only, gathered in FP8 (--fp8-param-gather;
			      * fp8 precision only) */
	bool swiglu8;        /* the SwiGLU's input kept in FP8 for its backward
			      * (--activation-func-fp8-input-store) */
	double capacity;     /* MoE capacity factor, experts' input padded to it; 0: dropless */
	bool fold;           /* MoE parallel folding: expert tensor parallelism 1, the expert-
			      * parallel group across the TP ranks (--expert-tensor-parallel-size 1) */
	bool fp8_dispatch;   /* the MoE dispatch all-to-all in FP8 (fp8 precision only); else BF16 */
	bool hybrid_ep;      /* MoE tokens dispatched by HybridEP (ep_dispatcher = hybridep) */
	int offload;         /* layers whose activations go to host memory (Megatron-LM
			      * --cpu-offloading-num-layers; pp 1, no recomputation); 0: none */
	bool dualpipe;       /* DeepSeek-V3's DualPipe schedule (pipeline_schedule = dualpipe):
			      * each rank two stages, no interleaving; else Megatron-LM's 1F1B */
	/* The overlap knobs the workload allows: bit 0 off, bit 1 on, for the data-parallel
	 * collectives, the tensor-parallel ones (with SP) and the pipeline's sends (interleaved);
	 * plan_time takes the faster allowed setting of each (PlanCost.overlap_*). 0: off. */
	unsigned overlap_dp, overlap_tp, overlap_pp, overlap_ep;
	/* The CP communication types allowed, bit CPC_x (PlanCost.cp_type: the fastest of them,
	 * plan_layer); 0: p2p. */
	unsigned cp_comm;
} PlanConfig;

/* The method word of a fixed recompute_layers (the workload's recompute_method: "uniform"
 * or "block"). */
static inline const char *plan_rc_method(const PlanConfig *c)
{
	return enum_RECOMPUTE_METHOD.words[c->rc_uniform ? RCMETH_UNIFORM : RCMETH_BLOCK];
}
/* The recomputed modules of a PlanConfig.rc_modules mask, in the order Megatron-Core lists
 * them (enum_RECOMPUTE_MODULE), into b: lead before the first, sep between; nothing for an
 * empty mask. */
void plan_modules_text(Buf *b, unsigned modules, const char *lead, const char *sep);
/* A plan's shape as text, into b: "TP 8, PP 16, DP 32, CP 2, micro-batch 1, interleave 6,
 * selective recompute, sequence parallel, distributed optimizer" ("PP 16 (DualPipe, first
 * stage 2 layers, last 3)" under that schedule with an uneven split); report.md's plans and
 * the diagnostic of a workload that does not fit. */
void plan_shape(Buf *b, const PlanConfig *c);

/* The submodules a plan recomputes, bit RCM_x: under selective recomputation the workload's
 * recompute_modules, or the attention core alone (Megatron-Core's default, ["core_attn"]);
 * none otherwise. */
static inline unsigned plan_rc_modules(const PlanConfig *c)
{
	if (c->recompute != RC_SELECTIVE)
		return 0;
	return c->rc_modules ? c->rc_modules : 1u << RCM_CORE_ATTN;
}

/* FP8 parameters in effect: fp8_params (fp8 precision) where Megatron-LM takes
 * --fp8-param-gather, with the distributed optimizer or FSDP (arguments.py's validate_args). */
static inline bool plan_fp8_params(const PlanConfig *c)
{
	return c->fp8p && (c->dopt || c->fsdp);
}

/* What the model predicts for one plan. Times are per step on the slowest pipeline stage and
 * add up: step = compute + recompute + tp + cp + ep + pp + offload + amax + moe_sync + bubble +
 * dp + optimizer. */
typedef struct PlanCost {
	double step;
	double compute, recompute, tp_comm, cp_comm, ep_comm, pp_comm, bubble, dp_comm, optimizer;
	double mem, mem_states, mem_act; /* bytes per GPU: total, weights+grads+optimizer, rest */
	double mem_weights, mem_grads, mem_optim;
	double mem_host;     /* bytes per GPU in host memory: the offloaded activations */
	double offload_comm; /* s per step of offload copies not hidden under compute */
	double amax_comm;    /* s per step of FP8 delayed scaling's amax all-reduces (exposed) */
	double moe_sync;     /* s per step of dropless MoE's host lag after its synchronization */
	double model_flops;  /* per step, without recomputation (for MFU) */
	double hw_flops;     /* per step, with recomputation */
	double mfu;
	double tokens_per_s;
	double tflops_per_gpu; /* hw_flops per second per GPU / 1e12, as Narayanan et al. count */
	int microbatches;
	double bubble_fraction; /* of a step the pipeline idles (plan_bubble_fraction) */
	int virtual_stage_layers; /* layers of one virtual pipeline stage (layers / (pp x v)) */
	int first_stage_layers, mid_stage_layers, last_stage_layers; /* the split of the layers */
	int first_chunk_layers, last_chunk_layers; /* interleaved: the first and last virtual
						    * stages' layers (the others hold
						    * virtual_stage_layers) */
	bool overlap_dp, overlap_tp, overlap_pp, overlap_ep; /* the overlap the plan's time assumes */
	int cp_type;         /* CPC_x: how the CP ranks exchange K and V (p2p without CP) */
} PlanCost;

/* The values a workload allows for one whole-number knob: any (searched), or a list (a fixed
 * value, one_of) or a range. */
typedef struct PlanSet {
	bool any;
	int n;
	const double *vals;
	bool range;
	double lo, hi, step;
} PlanSet;

enum { KNOB_GPUS, KNOB_TP, KNOB_PP, KNOB_CP, KNOB_EP, KNOB_MICRO, KNOB_V, KNOB_COUNT };
extern const char *const plan_knob_names[KNOB_COUNT];

typedef struct PlanSpace {
	PlanSet knob[KNOB_COUNT];
	unsigned recompute;  /* bit PLAN_RC_x allowed */
	unsigned rc_modules; /* the workload's recompute_modules, bit RCM_x; 0: not set */
	int rc_layers;       /* the workload's recompute_layers; 0: searched (block, the fewest
			      * that fit) */
	bool rc_uniform;     /* the workload's recompute_method is uniform */
	unsigned sp, dopt;   /* bit 0: false allowed, bit 1: true allowed */
	int batch;           /* global batch, sequences */
	int min_cp_tokens;   /* CP is searched down to this many tokens per rank (when not fixed) */
	bool flash;          /* the workload's flash_attention */
	unsigned fsdp;       /* bit 0: off allowed, bit 1: on allowed */
	unsigned zero2;      /* shard_gradients: bit 0 off allowed, bit 1 on allowed */
	double capacity;     /* the workload's capacity_factor; 0: dropless */
	bool fold;           /* the workload's parallel_folding */
	bool fp8_dispatch;   /* the workload's fp8_dispatch */
	bool hybrid_ep;      /* the workload's ep_dispatcher is hybridep */
	bool dualpipe;       /* the workload's pipeline_schedule is dualpipe */
	int offload;         /* the workload's offload_layers; -1: searched */
	int first_layers;    /* the workload's pipeline_first_layers; 0: searched */
	int last_layers;     /* the workload's pipeline_last_layers; 0: searched */
	unsigned overlap_dp, overlap_tp, overlap_pp, overlap_ep; /* bit 0: off, bit 1: on allowed */
	unsigned cp_comm;    /* bit CPC_x allowed */
	bool grad16;         /* the workload's grad_reduce_bf16 */
	bool opt16;          /* the workload's optimizer_bf16 */
	bool fp8p;           /* the workload's fp8_params, under precision = fp8 */
	bool swiglu8;        /* the workload's swiglu_fp8_input */
} PlanSpace;

enum { PLAN_ALTERNATIVES = 5 };

typedef struct PlanResult {
	bool found;                     /* some plan fits */
	PlanConfig best;
	PlanCost cost;
	PlanConfig alt[PLAN_ALTERNATIVES]; /* the best plan of each of the next distinct shapes */
	PlanCost alt_cost[PLAN_ALTERNATIVES];
	int nalt;
	bool any_valid;                 /* some plan meets Megatron's constraints */
	PlanConfig least;               /* the valid plan needing the least memory */
	PlanCost least_cost;
	double evaluated;               /* plans costed */
	double valid;                   /* plans meeting the constraints */
	double fit;                     /* plans that fit in HBM */
	double ms;                      /* search time */
} PlanResult;

/* Where one local rank of a node runs (plan.c, plan_bind). */
typedef struct PlanBind {
	int gpu, socket, core_lo, core_hi;
} PlanBind;

/* ---- reliability.c: interruptions, checkpoints, goodput (docs/reliability.md) ------------- */

/* The classes of parts whose failures interrupt a job, as reports list them. */
#define REL_CLASSES(X)                                    \
	X(ACCEL, "accelerator")   /* accelerator.afr */     \
	X(MEMORY, "memory")       /* accelerator.memory_afr */ \
	X(HOST, "host")           /* node.afr */            \
	X(NIC, "nic")             /* nic.afr */             \
	X(SWITCH, "switch")       /* switch.afr: fabric switches and scale-up trays */ \
	X(CABLE, "cable")         /* cable.afr */           \
	X(OPTIC, "optic")         /* optic.afr */           \
	X(POWER, "power")         /* power_stage.afr: the racks a stage loses */ \
	X(COOLING, "cooling")     /* cooling_unit.afr: the racks a plant loses */
typedef enum {
#define X(id, name) REL_##id,
	REL_CLASSES(X)
#undef X
	REL_COUNT
} RelClass;
extern const char *const reliability_class_names[REL_COUNT];

/* The cluster's interruption rate: every part in service in series (Kokolis et al. 2024). */
typedef struct ClusterReliability {
	bool done;                /* the pass ran on a design with nodes */
	double rate;              /* interruptions per second of a job on every accelerator */
	double mtbf;              /* s: 1 / rate; INFINITY when nothing fails */
	double by_class[REL_COUNT]; /* per second */
	double network_rate;      /* per second: switches, cables and optics */
	double unit_failures[REL_COUNT]; /* per second, power and cooling: failures of the plant's
				   * units, redundant or not (what cold spares cover) */
	double accelerators;      /* in service */
	bool cabled;              /* cables and optics counted (after the cable pass) */
} ClusterReliability;

/* What losing a set of devices takes (blast.c, blast_racks and blast_devices): the racks, the
 * accelerators standing in them (hot spares apart), the hot spare nodes, the scale-up domains a
 * lost node breaks, the switches lost, the endpoint ports elsewhere whose only link ends on a
 * lost switch, and the plans that must restart: those with a node lost or cut off (a NIC port
 * down stops a synchronous job as a node does). */
typedef struct BlastLoss {
	int racks;
	int gpus;
	int spare_nodes;
	int domains;
	int switches;
	int ports_cut;
	bool *plans;              /* [Design.nplans]: the plan loses GPUs; NULL when none does */
	int nplans;               /* plans that must restart */
} BlastLoss;

/* What one failure takes down (blast.c): the worst instance of each failure domain. */
typedef struct BlastSwitchTier {
	int fabric;               /* index into Design.fabrics */
	int tier;                 /* SwitchTier */
	int switches;             /* of the tier in the fabric */
	int ports_cut;            /* endpoint ports cut off by its worst switch (their only link) */
	double bisection_left;    /* bit/s of the fabric's bisection after that switch fails */
	int worst;                /* that switch (index into Design.switches) ... */
	BlastLoss loss;           /* ... and what it takes */
	double rate;              /* per second: failures of the tier's switches */
} BlastSwitchTier;

/* A power stage's unit failing (blast.c): with redundancy that allows for it (n_plus_1, two_n,
 * block) nothing; under n, the racks it feeds. */
typedef struct BlastPower {
	const Part *stage;        /* the power_stage */
	int units;                /* units installed (rack feeds: per rack), 0: one path */
	bool tolerated;           /* the redundancy carries the load without it */
	int share;                /* racks one unit feeds, the worst consecutive ones on the floor */
	BlastLoss loss;
	double rate;              /* per second: events that lose racks (blast_plant_event), the
				   * independent failures' */
	int event_racks;          /* racks one such event takes */
	double ccf_rate;          /* per second: common-cause events (beta factor) of its redundant
				   * groups */
	int ccf_racks;            /* racks one such event takes */
} BlastPower;

/* A cooling unit failing (blast.c): a unit of a zone's cooling plant (a CDU, a pump, a chiller
 * ...); with redundancy that allows for it nothing, under n its share of the group's racks. */
typedef struct BlastCooling {
	int group;                /* index into Design.cool_groups */
	const Part *unit;         /* the cooling_unit */
	int units;                /* installed in the group, 0: one path */
	bool tolerated;
	int share;                /* racks one unit cools, the worst consecutive ones of its group */
	BlastLoss loss;
	double rate;              /* per second: events that lose racks (blast_plant_event), the
				   * independent failures' */
	int event_racks;          /* racks one such event takes */
	double ccf_rate;          /* per second: common-cause events (beta factor) of its redundant
				   * groups */
	int ccf_racks;            /* racks one such event takes */
} BlastCooling;

enum { BLAST_K = 4 };         /* degraded bisection after 1 .. BLAST_K top-tier failures */
typedef struct BlastFabric {
	int fabric;
	int top_tier;             /* SwitchTier whose links carry the bisection, or -1 */
	int top_switches;
	double bisection;         /* bit/s as built */
	double after[BLAST_K + 1]; /* after k of its top-tier switches fail, the worst first */
	int planes;
	double plane_bisection_left; /* after one plane fails (the fabric's share it carried) */
	int plane_ports_cut;      /* endpoint ports on that plane */
	BlastLoss plane_loss;     /* the plans the plane's loss stops (its first plane's) */
	int worst_tier;           /* the tier whose single failure cuts the most ports (then the
				   * most bisection): the fabric's worst single failure */
} BlastFabric;

typedef struct BlastRadius {
	bool done;
	int node_gpus;            /* a node's accelerators */
	int node_domain_gpus;     /* the scale-up domain one node's failure breaks (itself when the
				   * domain is the node) */
	const char *rack;         /* the rack whose failure takes most accelerators, or NULL */
	int rack_gpus, rack_domains, rack_switches; /* what stands in it */
	BlastLoss node_loss, rack_loss; /* the worst node's (in the most plans) and that rack's */
	double node_rate;         /* per second: interruptions by the nodes in service, any one */
	int row;                  /* the floor row whose loss takes most accelerators, or -1 */
	BlastLoss row_loss;
	BlastPower *power;        /* the power chain's stages, utility first */
	int npower;
	BlastCooling *cooling;    /* each cooling group's units, in the groups' and plants' order */
	int ncooling;
	int zone;                 /* of a zoned cluster, the zone whose loss takes most, or -1 */
	BlastLoss zone_loss;
	BlastSwitchTier *tiers;
	int ntiers;
	BlastFabric *fabrics;
	int nfabrics;
} BlastRadius;

/* Spares sized to a target (reliability.c): the count whose Poisson tail holds. */
typedef struct SpareSizing {
	double target;            /* the probability a job keeps its size / a part is on the shelf */
	double node_repair;       /* s */
	double nodes_down;        /* mean nodes out at once: rate x repair (M/G/inf, Palm) */
	int hot_nodes;            /* hot spare nodes the target asks (in a design whose domains
				   * span nodes, per domain: its quantile x the domains) */
	double hot_power;         /* W at peak of them, racked and powered */
	double hot_racks;         /* racks they fill at the node racks' density */
	int installed;            /* hot spares the design has (cluster.hot_spares, spares.c) */
	double coverage;          /* the probability they cover the nodes out (per domain when
				   * the domains span nodes) */
	int shelf_nodes;          /* the spare nodes the cluster buys (cluster.spares) */
	double restock;           /* s: the lead time cold spares cover */
	int cold[REL_COUNT];      /* cold spares of switches, cables, optics (others 0) */
	double cold_mean[REL_COUNT]; /* failures expected within the lead time */
} SpareSizing;

/* A Monte Carlo of one training run under the closed form's assumptions (montecarlo.c). */
typedef struct MonteCarlo {
	int trials;
	unsigned long long seed;
	double mean, sd, ci95;    /* s of wall time; ci95: half-width of the mean's 95 % interval */
	double p50, p90;          /* s */
} MonteCarlo;

/* A workload's job under failures: its rate, its checkpoint, the interval and the goodput. */
typedef struct WorkloadReliability {
	bool done;
	double rate, mtbf;        /* per second; s (INFINITY when nothing fails) */
	double per_day;           /* expected interruptions per day */
	double ckpt_bytes;        /* the model state a checkpoint writes */
	double bytes_per_param;   /* of that state */
	int writer_nodes;         /* nodes that write a shard */
	double write_bw, read_bw; /* B/s the checkpoint is written and read at; NAN: unknown */
	double restore_bytes;     /* what a restart reads: the state once, or once per DP replica */
	double write_time;        /* s: δ of Young and Daly */
	double restore_time;      /* s */
	double relaunch_time;     /* s: the workload's restart_time */
	double restart;           /* s: R = relaunch + restore */
	double interval;          /* s of compute between checkpoints: τ */
	bool interval_set;        /* the workload's checkpoint_interval, else the optimum */
	double young;             /* s: Young's first-order optimum, for reference */
	double goodput;           /* failure-free time over the expected wall time; NAN: unknown */
	double effective_time;    /* s */
	double effective_energy;  /* J */
	MonteCarlo mc;
} WorkloadReliability;

/* A workload's plan, placed on the elaborated design. */
typedef struct WorkloadPlan {
	const Decl *workload;
	const char *name;       /* the workload's declaration */
	Loc loc;
	PlanModel model;
	PlanHw hw;
	PlanSpace space;
	PlanResult r;
	double tokens, steps;
	double time_to_train;   /* s */
	double energy;          /* J of facility energy */
	double energy_cost;     /* report currency */
	const char *why[PLAN_ALTERNATIVES]; /* why each alternative lost */
	double matmul_curve[6][2]; /* Calculon's efficiency curve of the matrix engine: [GFLOP of
				    * one multiply, efficiency], largest first */
	int first_node;         /* the first node of the placement */
	int nodes;              /* nodes used ... */
	int *hosts;             /* ... these, by index into Design.nodes, in rank order: the
				 * group's first nodes that are no hot spare */
	int ranks_per_node;     /* ranks on a full node (the last may hold fewer) */
	/* The binding of local rank k (k < ranks_per_node): the GPU it drives (the only one in
	 * its CUDA_VISIBLE_DEVICES), the socket and the physical cores [core_lo, core_hi] of that
	 * socket it is pinned to. */
	PlanBind *bind;
	const char *first_host; /* MASTER_ADDR: rank 0's node */
	WorkloadReliability rel; /* reliability.c */
} WorkloadPlan;

/* What the optimizer did, as the reports give it (decide.c, decide_report). Numbers that do
 * not apply are NAN (written as null). */
typedef struct OptimizerReport {
	const char *solver, *status;
	double objective, bound, gap;
	int variables, constraints;
	double solve_ms;
	double design_objective; /* the first objective on the design as built (cables included) */
	bool maximize;           /* the first objective is maximized */
	bool plant_left_out;     /* the first objective reads a reliability attribute, which a
				  * candidate computes without the plant (docs/reliability.md) */
	double cable_money, cable_watts; /* per link, when the choices were decided again with the
					  * cables counted (pipeline.c); NAN otherwise */
	const char *objective_unit; /* the first objective's base units ("CNY", "bit/s"), or NULL */
	int rejected;            /* designs the cable stage rejected, decided again without them */
	const char *const *rejected_text; /* what each excluded and why (CableNogood.text) */
} OptimizerReport;

/* A design the cable stage rejected, as the decision excludes it: the options (by family, the
 * open choices in the order choice_collect finds them, and option index) that may not all be
 * chosen together again (decide.c). */
typedef struct CableNogood {
	int n;
	const int *fam, *opt;
	bool whole;        /* every choice of the design (its runs were too long); else the options
			    * that make the failing link's ends, whatever the runs */
	const char *text;  /* what is excluded and why, for the reports */
	double ms;         /* the round's build, up to the cable stage's verdict (--timings) */
} CableNogood;

/* The optimizer's model (passes/opt/lp.c). */
typedef struct LpModel LpModel;
typedef struct CableLeads CableLeads; /* ir.c: the cables' ids in the making (Design.leads) */
/* The model with its first objective in CPLEX LP format, at path. */
bool lp_write(const LpModel *m, const char *path);

/* ---- sched.c: the design as workload schedulers see it (Slurm, Kubernetes) ------------------- */

/* A switch of the scheduler's tree: a device of the first fabric's first plane, or a virtual
 * one (a dragonfly group, a rack of a torus, a top switch). */
typedef struct SchedSwitch {
	const char *name;
	int tier;            /* 0: the leaves, with nodes below; higher tiers above */
	int parent;          /* the lowest-numbered listed switch above it, or -1 */
	int *child, nchild;  /* switches below, by index into SchedTree.sw */
	int *node, nnode;    /* nodes below (leaves), in node order */
	const char *omitted; /* why Slurm's tree cannot list it (nothing below), or NULL */
	bool virt;           /* not a device */
} SchedSwitch;

/* A block of nodes: a scale-up domain, a scalable unit, a leaf, a dragonfly group or a rack. */
typedef struct SchedBlock {
	const char *name;
	const char *what;    /* "scale-up domain", "scalable unit", "leaf", "dragonfly group", "rack" */
	int first;           /* its first node */
	int *node, nnode;    /* in node order: its own and those of the blocks joined to it */
	int own;             /* nodes of its own (nnode less the joined blocks') */
	int into;            /* -1, or the block that holds its nodes: it has fewer than the
			      * planning base, which Slurm refuses (sched.c) */
} SchedBlock;

/* A level of node labels a Kueue Topology may list, broadest first: a fabric tier (the node's
 * switch that many tiers up the tree) or the scale-up domain; kubernetes.io/hostname, always
 * the last level, is not among them. A level is kept when each value of every narrower kept
 * level lies inside one of its values (levels nest: Kueue's levels must); else it is dropped,
 * and says which narrower level it splits and how much. */
typedef struct SchedLevel {
	int tier;            /* the fabric tier (fabric.topograph.run/tier-N), or -1: the domain */
	bool kept;
	int narrower;        /* dropped: the narrowest kept level above it ... (index into level) */
	int split, of;       /* ... and how many of that level's values span several of its own */
} SchedLevel;

typedef struct SchedTree {
	const FabricInst *fabric; /* the fabric described (the first), or NULL */
	double gbps;         /* its link speed, Gb/s */
	SchedSwitch *sw;     /* switches, leaves first */
	int nsw, tiers;
	int cap;             /* room in sw (sched_add_switch grows it) */
	int label_tiers;     /* the fabric tiers that label nodes: every tier, 0 without a fabric */
	int nomitted;        /* switches Slurm's tree leaves out */
	int *leaf;           /* node -> the leaf it hangs under */
	int *unit;           /* node -> its block unit (index into unit_name), or -1 */
	const char **unit_name; /* each unit's block name: "compute-su001", a leaf, a group */
	int nunit;
	const char *unit_word; /* what a unit is: "scalable unit", "leaf", "dragonfly group" ... */
	const char *explain; /* comment lines, "# " each: how the fabric became the tree */
	int off_fabric;      /* nodes without a port on the fabric ... */
	int off_leaf;        /* ... and the leaf of their own they hang under, or -1 */
	bool multi_node_domains; /* some scale-up domain spans several nodes */
	int *block_of;       /* node -> the block that holds it (never a joined one) */
	SchedBlock *block;   /* in the order of their first node */
	int nblock;
	int block_base, block_levels; /* Slurm's BlockSizes: base x 1, 2, 4 ... (levels values) */
	int blocks_joined;            /* blocks smaller than the base, joined to a neighbour */
	SchedLevel *level;            /* label levels, broadest first: tiers down, then the domain */
	int nlevel;
	const char *block_unit;       /* what the blocks are: "scalable unit", "scale-up domain or
				       * a scalable unit" ... */
} SchedTree;

/* The switch above node's leaf at the given tier (0: the leaf), following parents; NULL when
 * its leaf has none that high. */
const SchedSwitch *sched_ancestor(const SchedTree *t, int node, int tier);

/* ---- day two: the build a new one grows from (`build --from OLD_DIR`, docs/daytwo.md) ------- */

/* What OLD_DIR/clusterc.lock says (driver/lock_read.c reads it; passes/design/expand.c keeps
 * it): the fabrics' shapes, the racks' places, every device's place and every cable's two
 * ends by device name and port number (a node's port among its own from 0, a switch's logical
 * port, an extra device's port). Each entry keeps the place of its line for diagnostics. */
typedef struct PriorFabric {
	const char *name, *family, *switch_model;
	int rails, planes, tiers, su_nodes;
	Loc loc;
} PriorFabric;

typedef struct PriorRack {
	const char *name;
	int row, pos;
} PriorRack;

typedef struct PriorDevice {
	const char *name, *kind, *model, *rack;
	int u;
} PriorDevice;

typedef struct PriorCable {
	const char *id, *fabric, *tier;
	const char *a, *z;   /* device names */
	int a_port, z_port;
	const char *a_port_name, *z_port_name; /* faceplate names (1/17/1, mlx5_0) */
} PriorCable;

typedef struct Prior {
	const char *dir;     /* OLD_DIR as given */
	const char *cluster;
	Loc cluster_loc;     /* the lock's cluster line */
	PriorFabric *fabrics;
	int nfabrics;
	PriorRack *racks;
	int nracks;
	PriorDevice *devices;
	int ndevices;
	PriorCable *cables;
	int ncables;
} Prior;

/* The change plan against the prior build (expand.c): each step a device to install, remove or
 * relocate, or a cable to add, move (one end re-plugged: from the old place of that end) or
 * remove. Cables to remove and move carry the prior's ends; added and moved ones a new cable. */
#define CHANGE_KINDS(X)                                                                  \
	X(INSTALL, "install")             /* a new device into its rack, uncabled */      \
	X(REMOVE_CABLE, "remove-cable")   /* a cable the new build has not */             \
	X(RELOCATE, "relocate")           /* a device to its new rack or U */             \
	X(MOVE_CABLE, "move-cable")       /* one end re-plugged, the other kept */        \
	X(ADD_CABLE, "add-cable")                                                        \
	X(REMOVE_DEVICE, "remove-device") /* a device the new build has not, uncabled by then */

typedef enum {
#define X(id, s) CHANGE_##id,
	CHANGE_KINDS(X)
#undef X
	CHANGE_COUNT
} ChangeKind;
extern const char *const ir_change_kind_names[CHANGE_COUNT];

typedef struct Change {
	uint8_t kind;        /* ChangeKind */
	int cable;           /* index into Design.cables (add, move), or -1 */
	int prior_cable;     /* index into Prior.cables (remove, move), or -1 */
	int prior_device;    /* index into Prior.devices (relocate, remove device), or -1 */
	int prior_a, prior_z; /* a prior cable's (remove, move) ends' devices in Prior.devices, or
			       * -1 (a device the prior build did not rack) */
	const char *device;  /* install, relocate: the device's name, kind and model (racks.csv's
			      * words) and its new rack (index) and U */
	const char *device_kind, *model;
	int rack, u;
	bool moved_a;        /* a move: the A end is the one re-plugged (else Z) */
} Change;

typedef struct Expansion {
	bool done;           /* the build grew from a prior one */
	Change *changes;     /* in pull order: the steps in ChangeKind's order, then by rack (floor
			      * order), U and name */
	int nchanges;
	int count[CHANGE_COUNT];
	int kept_cables, kept_devices;
	int racks_kept, racks_new;
	/* The minimal rewiring (passes/opt/rewire.c): cables between switches the prior build had
	 * that the new topology cannot keep, as the ILP found it, and its size */
	int rewire_moves, rewire_variables, rewire_constraints;
	const char *rewire_status; /* "optimal", or "none" when no count was free to choose */
} Expansion;

typedef struct Design {
	Program *p;
	Ctx *c;
	const char *spec_path;   /* the spec as given ("" when from memory) */
	const char *scenario_name; /* "default" for the base design */
	const char *cluster_name, *site_name;
	Loc cluster_loc;
	Part *parts;             /* parts.c: every declaration of hardware or plant, in program order */
	int nparts;
	Part **part_of;          /* by Decl.index: its Part, or NULL for other kinds */
	int nparts_by_decl;
	Decl *cluster, *site, *rack, *cooling, *power;
	const Part *rack_type, *cooling_type, *power_sys; /* the Parts of rack, cooling, power */
	const PartCount *storage; /* cluster.storage: appliances and their counts */
	int nstorage_kinds;
	int *storage_zone;       /* by cluster.storage entry: its zone (racks.c) */
	double electricity;      /* report currency per J */
	double rack_limit, rack_cap; /* W: the rack type's power class (INFINITY for none) and the
				      * lower of it and its cooling's limit, for the choices in force
				      * (racks.c; design_rack_init gives them to every rack) */
	int currency;            /* report currency (index into currency_names) */
	ZoneInst *zones;         /* the rack zones (zone.c), in the cluster's order; at least one */
	int nzones;
	int net_zone;            /* the zone of the switch racks */
	bool zoned;              /* the cluster declares zones (else the implicit one) */
	PtrVec decisions;        /* Decision* */
	NodeGroup *groups;
	int ngroups;
	NodeInst *nodes;
	int nnodes;
	AccelInst *accels;
	int naccels;
	PortInst *ports;
	int nports;
	RackInst *racks;
	int nracks;
	StorageInst *appliances; /* cluster.storage, appliance by appliance (elaborate.c) */
	int nappliances;
	/* Each scale-up domain's name, by NodeInst.domain (elaborate.c): "<node type>-nvlNNN",
	 * numbered from 1 within the node type in node order, 4 digits from 1,000 domains of the
	 * type. Its switch trays are NAME-swK; schedulers label and block nodes by it. */
	const char **domain_names;
	int ndomains;
	Totals t;
	Finance fin;             /* the financial model (finance.c); fin.done false before */
	double probe_money, probe_watts; /* added to the network's capex and power (objective_weights) */
	/* Before the cables exist, each fabric link is counted at this cabling capex and power: the
	 * design's own per-link figures once built (pipeline.c decides again with them when the
	 * cables broke a requirement the decision met; docs/optimization.md). 0: not counted. */
	double cable_hint_money, cable_hint_watts;
	/* The kept designs the cable stage rejected, a link no medium in scope joins: each a
	 * no-good the decision then excludes (pipeline.c, decide.c; docs/optimization.md). They
	 * survive the fresh parse of each round. */
	const CableNogood *nogoods;
	int nnogoods;
	BomLine *bom;
	int nbom;
	int bom_cap;             /* lines allocated; the optimizer's candidates reuse them (model.c) */
	PowerStageInst *stages;  /* the power system's chain as sized (power_chain.c), utility first */
	int nstages;
	CoolingGroup *cool_groups; /* the cooling plant by group of racks with one cooling
				    * (cooling_plant.c), in the order the racks first name them */
	int ncool_groups;
	bool elaborated;         /* instances exist (not only the aggregate model) */
	FabricInst *fabrics;     /* one per cluster.fabrics entry, sized by fabric.c */
	int nfabrics;
	ScaleUpInst *scaleups;
	int nscaleups;
	SwitchInst *switches;    /* wired instances, fabric after fabric, then scale-up trays */
	int nswitches;
	LinkInst *links;
	int nlinks;
	ExtraInst *extras;
	int nextras;
	NetGroup *netgroups;
	int nnetgroups;
	int netgroups_cap;    /* allocated; candidates reuse it (place_network_racks) */
	int node_racks, network_racks; /* racks of nodes and storage; racks of switches */
	/* The switch racks' type (racks.c): the cluster's network_rack, else std.racks'
	 * rack48_network when in scope, else the rack type; its cooling, power class and cap (W)
	 * and the cables its managers hold (0: no limit), and the node racks' (rack type's). */
	Decl *net_rack, *net_cooling;
	const Part *net_rack_type, *net_cooling_type;
	double net_rack_limit, net_rack_cap;
	int net_rack_cables, rack_cables;
	int racks_for_cables;    /* switch racks the cable limit added (place.c) */
	PlaceReport place;       /* the floor and the runs as reports give them (arrange.c, heat.c) */
	/* W of the transceivers and active cable ends in each node's NICs, switch's and extra
	 * device's ports, by index (heat.c; NULL before) */
	double *optics_node, *optics_switch, *optics_extra;
	struct CableInst *cables; /* one per fabric link (cable.c) */
	int ncables;
	const char **cable_ids;   /* by cable: its stable id (ir_name_cables); NULL before */
	CableLeads *leads;        /* ir.c: the ids' digests in the making on a thread of their own,
				   * from the cable stage until the ids stage or pipeline_build ends
				   * them (ir_cable_leads_start, _end); NULL else */
	PanelInst *panels;        /* structured cabling (trunk.c) */
	int npanels;
	TrunkInst *trunks;
	int ntrunks;
	CableLeg *cable_legs;     /* by cable, read where its trunk >= 0 (ir_cable_leg); NULL
				   * when no fabric has structured cabling */
	bool verify;             /* --verify: print what the verifier proved */
	PtrVec violations;       /* Violation*, of the evaluation in force */
	double objective[8];     /* the objectives' values, in the order written */
	int nobjectives;
	const char *objective_unit; /* how the first objective prints */
	int combinations;        /* designs the choice search evaluated */
	bool quiet;              /* exploring choices: record, do not report */
	int vsource, vfabric;    /* what the violations made now come from (VS_..., fabric) */
	int vzone;               /* ... and 1 + the zone whose racks are planned, 0 for none */
	LpModel *lp;             /* the optimizer's model, for model.lp; NULL when none ran */
	double time_limit;       /* s for the optimizer, 0 for none (--time-limit) */
	bool exhaustive;         /* decide by exhaustive search, not the MILP (tests, cross-checks) */
	bool numbers_only;       /* no artifact will be written (a row of `compare`): the passes that
				  * only feed artifacts (the cables' ids, the schedulers' tree) are
				  * skipped */
	bool switch_ports_later; /* the address pass leaves the switches' ports (SwitchPlan.ports,
				  * which only the switches' files read) to switch_plan_ports, which
				  * the driver calls when it writes those files (cmd_build): by
				  * default, beyond 1,024 switches, written on demand only */
	const char *relaxation;  /* when infeasible: the smallest change that would work */
	const char *relaxation_alternatives; /* and single changes that would work too */
	struct {
		const char *solver, *status;
		double objective, bound, gap, ms;
		int variables, constraints;
		/* --timings: decide's split, ms (the passes tabulated, the model built, its solve,
		 * the re-solves of what each choice saved), the candidate evaluations and planner
		 * searches behind them */
		double ms_passes, ms_build, ms_solve, ms_resolve;
		int evaluations, resolves;
		double searches, plans, plan_ms; /* the planner's searches while deciding */
		double shared;   /* and those read instead from an earlier round's or row's (share.c) */
	} opt;                   /* what the optimizer did (solver NULL: it did not run) */
	double built_objective;  /* the first objective on the design as built, cables included */
	OptimizerReport report;  /* decide_report: what the optimizer did, as reports give it */
	bool timings;            /* --timings: the solve time is reported (else 0, for bytes that
				  * do not change from run to run) */
	/* The passes of one candidate design while the open choices are explored (pipeline.c
	 * owns the list; decide.c and optimize.c run it): its model, then its requirements and
	 * objectives. fabric_drop: fabrics (a bit each) left out of the model, for the optimizer's
	 * per-fabric factors; 0 in every other use. */
	void (*model_candidate)(struct Design *d);
	void (*judge_candidate)(struct Design *d);
	unsigned long fabric_drop;
	/* A compare worker's physical builds kept (driver/compare_physical.c), NULL elsewhere: called
	 * before wire (after false), true when it put into d what the physical passes (wire to
	 * verify-media) did in an earlier row whose inputs to them were d's, and they are skipped;
	 * called again (after true) when they ran and found nothing wrong. */
	bool (*physical_kept)(struct Design *d, bool after);
	/* The optimizer's dependency tracking (field_reads, passes/opt/optimize.c): pack_reads, the
	 * open choices racks_plan's packing (per_rack, racks, the rack limits) read; plan_only: a
	 * candidate evaluated for the planner's inputs alone (racks_plan's packing reads kept in
	 * pack_reads, noted only where a pass reads its results; each fabric's in its reads,
	 * noted where plan.c reads the fabric). */
	unsigned long long pack_reads;
	bool plan_only;
	int spec_errors;         /* mistakes in the spec found while planning (exit 1) */
	double solve_ms;
	WorkloadPlan *plans;     /* one per workload that a plan fits (plan.c) */
	int nplans;
	struct PlanMemo *plan_memo; /* plan_attribute's searches, by inputs */
	SwitchPlan *switch_plans; /* by fabric: the plan of each Ethernet fabric with switches
				   * (SwitchPlan.f NULL for the others); NULL before the pass */
	SchedTree *sched;        /* the scheduler's view (sched.c); NULL before the pass */
	ClusterReliability reliability; /* reliability.c */
	BlastRadius blast;       /* blast.c */
	SpareSizing spare_sizing; /* reliability.c */
	const Prior *prior;      /* build --from OLD_DIR: the build this one grows from, or NULL */
	Expansion expansion;     /* expand.c: what keeping it took and the change plan */
} Design;

/* ir.c: the names artifacts print (ir.c says how): a floor row's letters as rack names use
 * them (0 is "A", 26 "AA"); a link end's device, port (its model's faceplate name:
 * "Ethernet128", "1/17/1", "sw17p1", "mlx5_3", or "p17", "p9/2", "nic3", "nic3/p2") and
 * place; cable i's stable id ("C4F7K2M9XH4", from its two ends: ir_name_cables names them
 * all, resolving digest collisions, and returns 0). */
void ir_row_name(int row, char *buf, size_t size);
const char *ir_end_device(const Design *d, End e);
void ir_end_port(Buf *b, const Design *d, End e);
const Part *ir_extra_nic(const ExtraInst *x); /* its first NIC model, or NULL */
/* The switch model of fabric f's tier t: a tree's tier its own model where the spec gives one
 * (FabricInst.tier_model: leaf 0, spine 1, core 2), else the fabric's switch; a dragonfly's
 * routers the fabric's switch. */
const Part *ir_tier_model(const FabricInst *f, SwitchTier t);
void ir_end_place(const Design *d, End e, int *rack, int *u);
int ir_name_cables(Design *d);
/* Whether the build names its cables (the ids stage runs): not a row of `compare`, unless it
 * has a prior design to compare with. */
bool ir_cables_named(const Design *d);
/* The cables' digests begun on a thread of their own, for ir_name_cables, once d->cables holds
 * every cable's link (cable.c, before the media are chosen); nothing for a small design. The
 * passes until the ids stage must leave the design's names, ports, links and cables' links as
 * they are. ir_cable_leads_end waits for that thread and drops its work (a build that stops
 * before the ids stage); ir_name_cables ends it too. */
void ir_cable_leads_start(Design *d);
void ir_cable_leads_end(Design *d);
void ir_cable_id(Buf *b, const Design *d, int i);
/* Panel i's name ("B07-PP1") and trunk i's ("T1-B07-D02-1"): trunk.c's instances. */
void ir_panel_name(Buf *b, const Design *d, int i);
void ir_trunk_name(Buf *b, const Design *d, int i);
/* The leg, panels, adapters and cords of cable c, one of d->cables whose trunk >= 0. */
static inline const CableLeg *ir_cable_leg(const Design *d, const CableInst *c)
{
	assert(d->cable_legs && c->trunk >= 0 && c >= d->cables && c < d->cables + d->ncables);
	return &d->cable_legs[c - d->cables];
}
/* The length a cable's optics drive: through a trunk its channel, both cords and the trunk's
 * leg; else the cable's own. */
static inline double ir_cable_channel(const Design *d, const CableInst *c)
{
	if (c->trunk < 0)
		return c->length;
	const CableLeg *g = ir_cable_leg(d, c);
	return g->cord_a + d->trunks[c->trunk].length + g->cord_z;
}
/* The canonical text of cable i's two ends that its id digests: "device:port" of each end,
 * the smaller first, joined by a space (replaces b's contents). */
void ir_cable_key(Buf *b, const Design *d, int i);
/* The id of a digest: "C" and `chars` Crockford base32 digits of its leading bits. */
void ir_digest_id(const unsigned char digest[32], int chars, char *out);
/* The digits of each id of a run of n digests, sorted, that share their first 10 digits: the
 * first keeps 10, each later one 2 more at a time until it differs from both neighbours. */
void ir_run_id_chars(const unsigned char (*dg)[32], int n, int *chars);
/* Logical port `port` of switch s as its physical port (from 0), lane (from 0) and the lanes
 * that port is split into: port / breakout, port % breakout, breakout; from s->split on, the
 * up ports at their own lane count, after the down ports' physical ports. */
static inline void ir_switch_port(const SwitchInst *s, int port, int *phys, int *lane,
				  int *split_ways)
{
	/* Here, not in ir.c, so that it inlines where it is asked for every end of every cable
	 * (the cable stage, verify-media, the cables' ids, the cabling files). */
	int br = s->breakout > 0 ? s->breakout : 1;
	if (s->split > 0 && port >= s->split) {
		int ub = s->up_breakout > 0 ? s->up_breakout : 1;
		*phys = (s->split + br - 1) / br + (port - s->split) / ub;
		*lane = (port - s->split) % ub;
		*split_ways = ub;
		return;
	}
	*phys = port / br;
	*lane = port % br;
	*split_ways = br;
}
/* Where logical port `port` of switch s sits on its model's faceplate: its cage (from 0), the
 * port in that cage (from 0), and the lanes: the first ASIC SerDes lane and how many (SONiC's
 * PORT lanes), and the offset of its first lane in the cage (which names a SONiC port). */
typedef struct FaceplatePort {
	int cage, port_in_cage, lane, ways; /* lane: the split lane (from 0) of `ways` */
	int first_asic_lane, nlanes, cage_lane;
	int name_lane;                      /* SONiC's Ethernet number: cage * its lanes + cage_lane */
} FaceplatePort;
FaceplatePort ir_faceplate(const SwitchInst *s, int port);
void ir_switch_port_name(Buf *b, const SwitchInst *s, int port);  /* Ethernet8, 1/3/2 */
void ir_switch_port_alias(Buf *b, const SwitchInst *s, int port); /* etp2a, Ethernet2/5 */

/* switch_plan.c: the names and numbers the switch configurations use. */
uint32_t switch_plan_loopback(const SwitchPlan *sp, int i);
uint32_t switch_plan_asn(const SwitchPlan *sp, int i);
void switch_plan_addr(Buf *b, uint32_t a);                                               /* 10.0.0.1 */

#endif
