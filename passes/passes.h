/*
 * passes.h — the middle of the compiler: a program loaded from files, its names resolved,
 * scenarios applied and every value checked against the schemas. Sectioned by defining file;
 * passes/pipeline.c lists the passes in order.
 */
#ifndef CLUSTERC_PASSES_H
#define CLUSTERC_PASSES_H

#include "lang.h"

/* ---- the program ---------------------------------------------------------------------------- */

/* A --set given on the command line, or an override of a sweep file (origin set). */
typedef struct CliOverride {
	const char *text;   /* "wanka.nodes=2000 x dgx_h100" */
	const char *origin; /* a sweep: the file's path ... */
	const char *origin_text; /* ... its text ... */
	size_t origin_len;
	const char *masked; /* ... and the same bytes with the override alone in place
			     * (parse_override_masked); diagnostics then point into the file */
} CliOverride;

typedef struct NameTable {
	const char **keys; /* interned; NULL for an empty slot */
	void **vals;
	int cap, n;
} NameTable;

/* A declaration of the standard library, known by name whether imported or not. */
typedef struct StdlibDecl {
	const char *name; /* interned */
	int kind;         /* KindId, or -1 */
	const char *module; /* "std.NAME" */
} StdlibDecl;

typedef struct Program {
	Ctx *c;
	File *root;
	PtrVec files;      /* File*, the root first, then imports in the order first met */
	PtrVec decls;      /* Decl*, in program order: imports before the file importing them */
	PtrVec scenarios;  /* Scenario* */
	PtrVec requires;   /* Stmt* of kind STMT_REQUIRE, effective for the chosen scenario */
	PtrVec objectives; /* Stmt* of kind STMT_OBJECTIVE, effective for the chosen scenario */
	NameTable names;   /* declaration name -> Decl* */
	NameTable scenario_names; /* scenario name -> Scenario* */
	NameTable stdlib_index;   /* declaration name -> StdlibDecl*, built on demand */
	PtrVec stdlib_decls;      /* the same StdlibDecl*, in module order (for "did you mean") */
	PtrVec override_targets;  /* Decl* named by --set overrides (in use, as scenario targets) */
	bool stdlib_indexed;
	Source *input;        /* when set, the root source (already in memory) instead of a path */
	const char *scenario; /* chosen with --scenario, or NULL for the base design */
	const CliOverride *sets;
	int nsets;
	bool library; /* the root declares no cluster and no workload: check every declaration */
	int unmet;        /* diagnostics of requirements that cannot be met (exit 2) */
	bool internal_error; /* a broken invariant of clusterc itself (exit 70) */
	int dump;         /* a Stage to print the IR after (--dump=PASS), or -1 */
	FILE *dump_out;
	bool io_error;    /* the root file could not be read (exit 74) */
	bool usage_error; /* a command-line value was wrong, e.g. an unknown scenario (exit 64) */
} Program;

void *names_get(const NameTable *t, const char *interned);
void names_put(Ctx *c, NameTable *t, const char *interned, void *val);

/* ---- values (check.c) ----------------------------------------------------------------------- */

typedef enum {
	VAL_QTY,     /* numbers of every kind: q.dim is DIM_NONE for counts and ratios */
	VAL_BOOL,
	VAL_STRING,  /* also templates */
	VAL_ENUM,    /* s is the interned enum word; also currencies */
	VAL_REF,     /* ref */
	VAL_COUNTED, /* count x ref */
	VAL_LIST,    /* items */
	VAL_RATIO,   /* q.v = a / b; a and b kept */
	VAL_CTOR,    /* ctor with items[i] the value of param i, or NULL when absent */
	VAL_CHOICE,  /* one_of: items are the options */
	VAL_RANGE,   /* lo..hi step */
	VAL_AUTO,
} ValueKind;

typedef struct Value Value;
struct Value {
	ValueKind kind;
	Loc loc;
	Qty q;
	double a, b;          /* VAL_RATIO */
	double lo, hi, step;  /* VAL_RANGE */
	bool b_val;
	const char *s;
	Decl *ref;
	Value *count;         /* VAL_COUNTED: a VAL_QTY, VAL_RANGE, VAL_CHOICE or VAL_AUTO */
	Value **items;
	int n;
	const CtorSchema *ctor;
};

/* The value of a field of d, looking through inheritance; NULL when nobody set it. */
Field *decl_field(const Decl *d, const char *name);
const Value *decl_value(const Decl *d, const char *name);
/* A field's quantity in base units, or def when it is absent, left open or not a quantity;
 * NULL d gives def. */
double decl_number(const Decl *d, const char *name, double def);
const char *kind_name(int kind);

/* ---- load.c --------------------------------------------------------------------------------- */

/* Parses the root file and, depth first, every file it imports; diagnoses missing files and
 * import cycles. Returns the number of errors. */
int load_program(Program *p, const char *path);
/* The same for a source already in memory (fuzzing, tests). */
int load_program_source(Program *p, Source *src);
/* The standard-library module declaring a name ("std.cooling"), or NULL. */
const char *stdlib_module_declaring(Program *p, const char *name);
/* The stdlib declaration of one of `kinds` (a bit per KindId) whose name is closest to a
 * misspelt one, or NULL; *module the module that declares it. */
const char *stdlib_suggest(Program *p, const char *name, unsigned kinds, const char **module);

/* ---- resolve.c ------------------------------------------------------------------------------ */

/* Builds the name tables; checks declaration kinds, duplicate names, parents and their cycles,
 * field names, scenario names, parents and override paths. */
int resolve_program(Program *p);

/* Lookups with "did you mean" diagnostics, shared with scenario.c and check.c. */
Decl *resolve_decl_name(Program *p, const char *name, Loc loc, unsigned kinds, const char *what);
const FieldSchema *resolve_field_name(Program *p, int kind, const char *owner, const char *name,
				      Loc loc);
Decl *resolve_override_path(Program *p, const Path *path, const FieldSchema **field,
			    const FieldSchema **param);

/* ---- scenario.c ----------------------------------------------------------------------------- */

/* Applies the chosen scenario (and its parents) and then every --set, rewriting the fields they
 * name; collects the effective require and objective statements. */
int apply_overrides(Program *p);
const FieldSchema *override_param(Program *p, const Decl *d, const Path *path, const Field *base);
/* "SPEC has no scenario 'NAME'; did you mean ...?" at `at` (NOLOC for the command line), with
 * its code and suggestion: for --scenario, compare's --scenarios and a sweep's scenarios. */
Diag *unknown_scenario(Program *p, Loc at, const char *name);

/* ---- check.c -------------------------------------------------------------------------------- */

/* Checks every field value against its schema (dimensions, kinds, ranges, choices, templates),
 * the required fields of every declaration in use, every override of every scenario, and the
 * dimensions of require and objective expressions. Fills Field.val. */
int check_program(Program *p);

/* eval.c: constant folding of quantities, and shared wording. */
bool eval_qty(Program *p, const Expr *e, Qty *out);
bool eval_unit(Program *p, const Expr *e, Qty *out);
const char *describe_expr(const Expr *e);
const char *dim_phrase(Dim d, char *buf, size_t n);
int cluster_currency(const Decl *cluster);

/* Whether an expression reads an attribute (DECL.FIELD) anywhere in it. */
bool expr_reads_attribute(const Expr *e);

/* An IPv4 prefix "a.b.c.d/len", the address on its network boundary. */
bool parse_cidr(const char *s, uint32_t *net, int *len);

/* Infers the dimension of a require or objective expression; false after a diagnostic. */
bool check_expr_dim(Program *p, const Expr *e, Dim *out);

/* ---- the design (elaborate.c, racks.c, model.c): the IR after the front end ----------------- */

/* An open choice of the spec (one_of, a range or auto) and what was chosen for it. */
typedef struct Decision {
	Decl *decl;
	Field *field;
	const char *param;    /* a constructor parameter of the field, or NULL */
	const Value *choice;  /* the VAL_CHOICE, VAL_RANGE or VAL_AUTO as written */
	const Value *chosen;  /* the option in force */
	const char *chosen_text; /* how it reads: "80 kW", "cold_plate", "1024" */
	bool in_count;        /* the choice is the count of a COUNT x NAME */
	int ncandidates;      /* options considered */
	double next_best;     /* objective of the best design with another option here, or NAN */
	const char *next_best_text;
} Decision;

/* One group of identical nodes, as the cluster's nodes field lists them. */
typedef struct NodeGroup {
	const Decl *type;
	int count;
	int per_rack;        /* nodes of this group in one rack */
	int racks;
	int domain_nodes;    /* nodes per scale-up domain (1 when the domain is the node) */
	double node_power;   /* W at peak: declared, or the sum of parts */
	double node_height;  /* m */
	Loc loc;
} NodeGroup;

typedef struct NodeInst {
	const Decl *type;
	const char *hostname;
	int group;
	int rack;            /* index into Design.racks */
	int u;               /* lowest rack unit it occupies, from 1 at the bottom */
	int domain;          /* scale-up domain, from 0 */
	int first_accel, first_port;
} NodeInst;

typedef struct AccelInst {
	const Decl *type;
	int node, slot;      /* slot from 0 inside the node */
} AccelInst;

typedef struct PortInst {
	const Decl *nic;
	int node, nic_index, port; /* the node's NIC (from 0) and the port on it (from 0) */
	double speed;        /* bit/s */
} PortInst;

typedef struct RackInst {
	const char *name;
	const Decl *type;
	const Decl *cooling;
	double power_limit;  /* W: the rack's power class */
	double power;        /* W at peak of what it holds */
	double height_used;  /* m */
	int row, pos;        /* place on the floor from 0 (a default grid when the site has none) */
	double x, y;         /* m: centre of its footprint on the floor */
	int first_node, nnodes;
	int storage;         /* storage appliances it holds */
	bool network;        /* a rack of switches (and fabric managers) */
	int group;           /* the network group it belongs to, or -1 */
} RackInst;

enum { CAT_NODES, CAT_NETWORK, CAT_STORAGE, CAT_OTHER, CAT_CABLING, CAT_RACKS, CAT_COOLING,
       CAT_POWER, CAT_COUNT };
extern const char *const category_names[CAT_COUNT];

/* The costed design, in base units (W, J, s) and the report currency. */
typedef struct Totals {
	double accelerators, nodes, racks, switches, cables, storage_units;
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
} Totals;

typedef struct BomLine {
	const char *part;    /* node, nic, switch, rack, cooling plant ... */
	const Decl *decl;    /* the model; NULL for lines not tied to one declaration */
	const char *model;
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
	X(SCALE_UP, "scale-up")       /* accelerator to NVLink switch, backplane */

typedef enum {
#define X(t, s) LT_##t,
	LINK_TIERS(X)
#undef X
	LT_COUNT
} LinkTier;
extern const char *const link_tier_names[LT_COUNT];

/* Switch tiers: the leaf, spine and core of a fat tree, a dragonfly's routers, the switch trays
 * of scale-up domains. */
#define SWITCH_TIERS(X) X(LEAF, "leaf") X(SPINE, "spine") X(CORE, "core") X(ROUTER, "router") \
	X(SCALE_UP, "scale-up")

typedef enum {
#define X(t, s) ST_##t,
	SWITCH_TIERS(X)
#undef X
	ST_COUNT
} SwitchTier;
extern const char *const switch_tier_names[ST_COUNT];

/* A device attached to a fabric that is not a cluster node: a fabric manager, storage, a
 * gateway (fabric.endpoints). */
typedef struct ExtraInst {
	const Decl *type;
	const char *name;    /* "compute-ufm_appliance-1" */
	int fabric;
	int nports;          /* its NIC ports on the fabric */
	double speed;
	int rack, u;         /* where it stands (place.c) */
} ExtraInst;

typedef struct SwitchInst {
	const Decl *model;
	const char *name;    /* "compute-leaf-001", "compute-p2-spine-004", "nvl-dom001-sw3" */
	int fabric;          /* index into Design.fabrics, or -1 for a scale-up tray */
	SwitchTier tier;
	int plane, su, rail, group; /* group: pod of a 3-tier tree, dragonfly group, scale-up domain */
	int index;           /* position inside its tier and plane, from 0 */
	int radix;           /* logical ports at the link speed (breakout counted) */
	int breakout;        /* logical ports per physical port */
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

typedef struct FabricInst {
	Decl *decl;
	const CtorSchema *topology;  /* fat_tree, dragonfly or torus */
	bool sized;                  /* the shape holds: wire it (else a Violation explains) */
	const Decl *switch_model;
	const Decl *nic;             /* the node NIC on this fabric ... */
	int nic_first;               /* ... from this one of the node's NICs of that model on:
				      * fabrics sharing a model take its ports in fabric order */
	double link_speed;           /* bit/s */
	int radix;                   /* logical switch ports at link_speed */
	int breakout;
	int planes, rails, tiers;    /* rails: NIC ports of a node on the fabric, all planes */
	bool rail_optimized;
	int su_nodes, sus;           /* scalable unit size and count (rail-optimized trees) */
	double oversub[3];           /* down:up bandwidth at leaf, spine (and core) */
	int down[3], up[3];          /* ports per switch of each tree tier: down and up */
	int endpoints;               /* endpoint ports over all planes */
	int per_plane[ST_COUNT];     /* switches of each tier in one plane */
	int links_per_plane[LT_COUNT];
	int pods, pod_leaves, core_groups, core_per_group; /* 3-tier shape */
	int spine_links;             /* links from a leaf to each spine (2-tier) */
	int dims[3], ndims;          /* torus */
	int df_p, df_a, df_h, df_g, df_links_per_pair; /* dragonfly */
	int switches, links;         /* totals, all planes */
	int by_tier[ST_COUNT];
	int links_by_tier[LT_COUNT];
	double bisection;            /* bit/s across the worst bisection */
	int diameter;                /* switch-to-switch hops on the longest shortest path */
	double ecmp;                 /* equal-cost paths between two leaves of different units */
	int first_switch, first_link, first_extra, nextras;
} FabricInst;

/* Switches that share network racks: a contiguous range of one fabric's switches (in wiring
 * order), e.g. the leaves of one scalable unit, or the spines and cores of a plane; the fabric's
 * extra devices (fabric managers) go with its first central group. place.c plans them with the
 * sizing and stands their racks among the node racks they serve. */
typedef struct NetGroup {
	int fabric, plane;
	int first, count;    /* switch indices within the fabric, in wiring order */
	bool with_extras;
	double unit_h, unit_p; /* one switch's height (m) and power (W) */
	int racks;           /* racks it takes */
	double home;         /* where among the node racks (a fractional rack index) */
	int first_rack;      /* its first rack in Design.racks, once placed */
} NetGroup;

/* Scale-up domains (NVLink): inside one node, or larger than a node with NVLink switch trays
 * and backplane links. */
typedef struct ScaleUpInst {
	const Decl *node;
	int domains, domain_nodes, domain_accels; /* domain_nodes 1: the domain is one node */
	double bandwidth;    /* bit/s per accelerator, both directions (node's, else accelerator's) */
	int switches_per_domain, links_per_accel;
	int first_switch, nswitches, first_link, nlinks;
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
} Violation;

/* Where a Violation comes from: the optimizer keeps a candidate out of its model when its own
 * part (racks of nodes, a fabric, a workload plan) cannot be built; the floor, the budget and
 * the require lines become rows of the model instead. */
enum { VS_NODES, VS_FABRIC, VS_FLOOR, VS_REQUIREMENT, VS_CABLE, VS_PLAN };

/* A fabric link's cable: the medium, its stocked length, what it costs and draws. */
typedef struct CableInst {
	int link;            /* index into Design.links */
	const Decl *cable;   /* the copper or active optical cable, or the fibre between optics */
	const Decl *optic_a, *optic_z; /* the transceivers at each end, or NULL */
	const char *media;   /* dac, acc, aec, aoc or fiber; NULL when nothing reached */
	const char *fiber;   /* om3, om4, om5, os2 for fibre and AOC, else NULL */
	double run, length;  /* m: the run with slack, and the stocked length bought */
	double price, power; /* report currency; W (a twin-port transceiver counts half a link) */
} CableInst;

typedef struct Design {
	Program *p;
	Decl *cluster, *site, *rack, *cooling, *power;
	int currency;            /* report currency (index into currency_names) */
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
	Totals t;
	double probe_money, probe_watts; /* added to the network's capex and power (objective_weights) */
	/* Before the cables exist, each fabric link is counted at this cabling capex and power: the
	 * design's own per-link figures once built (pipeline.c decides again with them when the
	 * cables broke a requirement the decision met; docs/optimization.md). 0: not counted. */
	double cable_hint_money, cable_hint_watts;
	BomLine *bom;
	int nbom;
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
	int node_racks, network_racks; /* racks of nodes and storage; racks of switches */
	struct CableInst *cables; /* one per fabric link (cable.c) */
	int ncables;
	bool verify;             /* --verify: print what the verifier proved */
	PtrVec violations;       /* Violation*, of the evaluation in force */
	double objective[8];     /* the objectives' values, in the order written */
	int nobjectives;
	const char *objective_unit; /* how the first objective prints */
	int combinations;        /* designs the choice search evaluated */
	bool quiet;              /* exploring choices: record, do not report */
	int vsource, vfabric;    /* what the violations made now come from (VS_..., fabric) */
	struct LpModel *lp;      /* the optimizer's model, for model.lp; NULL when none ran */
	double time_limit;       /* s for the optimizer, 0 for none (--time-limit) */
	bool exhaustive;         /* decide by exhaustive search, not the MILP (tests, cross-checks) */
	const char *relaxation;  /* when infeasible: the smallest change that would work */
	const char *relaxation_alternatives; /* and single changes that would work too */
	struct {
		const char *solver, *status;
		double objective, bound, gap, ms;
		int variables, constraints;
	} opt;                   /* what the optimizer did (solver NULL: it did not run) */
	double built_objective;  /* the first objective on the design as built, cables included */
	int spec_errors;         /* mistakes in the spec found while planning (exit 1) */
	double solve_ms;
	struct WorkloadPlan *plans; /* one per workload that a plan fits (plan.c, plan.h) */
	int nplans;
	struct PlanMemo *plan_memo; /* plan_attribute's searches, by inputs */
} Design;

/* design.c: the design's frame (cluster, site, rack, cooling, power, currency), money, the
 * value of an attribute (wanka.capex, hall_b.power_budget), requirements. */
int design_init(Design *d, Program *p);
/* What a decision set: "power_limit", or "topology.tiers" for a constructor's parameter. */
const char *decision_field(const Design *d, const Decision *x);
void design_violation(Design *d, Loc loc, double excess, Loc note_loc, const char *note,
		      const char *fmt, ...) PRINTF_LIKE(6, 7);
bool design_eval(Design *d, const Expr *e, Qty *out, bool report);
int evaluate_requirements(Design *d);
int report_violations(Design *d);

/* fabric.c: every fabric sized from its declaration (counts per tier, closed forms), with a
 * diagnostic at the fabric when it cannot be built (radix, breakout, endpoints). Cheap: runs
 * for every candidate design. */
int size_fabrics(Design *d);

/* wire.c and wire_direct.c: every link, port by port (after elaboration). */
int wire_fabrics(Design *d);
typedef struct Endpoint {
	End end;
	int rail; /* within its plane */
} Endpoint;
SwitchInst *add_switch(Design *d, FabricInst *f, int fi, SwitchTier t, int plane, int index);
void add_link(Design *d, End a, End z, double speed, LinkTier tier, int plane, int rail, int fi);
int node_fabric_ports(const Design *d, int n, const FabricInst *f, int *out, int max);
int plane_endpoints(Design *d, FabricInst *f, int plane, Endpoint *out);
void wire_fat_tree(Design *d, FabricInst *f, int fi);
void wire_dragonfly(Design *d, FabricInst *f, int fi);
void wire_torus(Design *d, FabricInst *f, int fi);
void wire_scale_up(Design *d, ScaleUpInst *s);

/* verify.c: each port used at most once, every switch within its radix, every endpoint
 * connected, every fabric connected (the metrics are sizing's, fabric.c). A failure is a bug
 * in clusterc (exit 70). */
int verify_fabrics(Design *d);

/* place.c: network racks planned with the sizing (so the model counts them), placed among the
 * node racks they serve, every rack on the floor grid; then every switch and extra device at a
 * rack unit, scale-up switch trays above their domain's nodes. */
int plan_network_racks(Design *d);
void place_racks(Design *d);
int place_devices(Design *d);

/* cable.c: the length and medium of every fabric link. */
int cable_fabrics(Design *d);
/* Re-costs the design with its cables and re-checks the power budget and require lines. */
int cost_cables(Design *d);

/* plan.c: every workload's parallelism plan, its prediction and placement (plan.h); a
 * workload no plan fits is a Violation. */
int plan_workloads(Design *d);

/* lp.c: a mixed-integer model by name, solved by GLPK (the only file including glpk.h). */
typedef struct LinTerm {
	int var;
	double coef;
} LinTerm;

/* A linear expression: Σ coef × var + k. Storage comes from an arena. */
typedef struct LinExpr {
	LinTerm *t;
	int n, cap;
	double k;
} LinExpr;

typedef struct LpModel LpModel;
enum { LP_OPTIMAL, LP_FEASIBLE, LP_INFEASIBLE, LP_TIME_LIMIT, LP_ERROR };

typedef struct LpResult {
	int status;
	double objective, bound, gap; /* of the first objective */
	double *x;                    /* variable values */
	double ms;
	int nvars, nrows;
	const char *log;              /* GLPK's output */
} LpResult;

LpModel *lp_new(Ctx *c);
/* kind 'B' binary, 'I' integer, 'C' continuous; returns the variable's index. */
int lp_var(LpModel *m, const char *name, char kind, double lo, double hi);
const char *lp_var_name(const LpModel *m, int var);
int lp_nvars(const LpModel *m);
void lin_term(Arena *a, LinExpr *e, int var, double coef);
void lin_add(Arena *a, LinExpr *dst, const LinExpr *src, double scale);
/* sense 'L' (<=), 'G' (>=) or 'E' (=). */
int lp_row(LpModel *m, const char *name, const LinExpr *e, char sense, double rhs);
/* Objectives are solved in the order added (lexicographically). */
void lp_objective(LpModel *m, const char *name, const LinExpr *e, bool maximize);
bool lp_solve(LpModel *m, double time_limit_s, LpResult *r);
/* The model with its first objective in CPLEX LP format. */
bool lp_write(const LpModel *m, const char *path);

/* decide.c: every open choice (one_of, ranges, auto) decided by evaluating the designs they
 * allow and keeping the best feasible one under the objectives. */
int decide_choices(Design *d);

/* One open choice and its options (decide.c collects them; optimize.c uses them too). */
typedef struct OpenChoice {
	Decision *dec;
	Value **slot;          /* where the option in force goes */
	const Decl *counted;   /* the node type of an open count (auto counts), or NULL */
	const Value **opts;
	const char **texts;
	int nopts;
	int cur;
	double *best_with;     /* best objective with each option, or INFINITY */
} OpenChoice;
int collect_choices(Design *d, PtrVec *opens);
void set_choice(OpenChoice *o, int i);
/* Plans, sizes, costs and checks the design in force; true when it meets everything. */
bool evaluate_design(Design *d);
/* What one unit of money and one watt of network power add to the first objective they change
 * (exact: the model is linear in them); 1 and 0 without one. */
void objective_weights(Design *d, double *per_money, double *per_watt);

/* optimize.c: the open choices as a MILP solved by GLPK (docs/optimization.md). Sets
 * *fallback when the requirements or objectives are not linear in the design's attributes (the
 * exhaustive search then decides). */
int optimize_choices(Design *d, PtrVec *opens, bool *fallback);

/* Converts an amount of money in `from_dim`'s currency into the design's currency through the
 * cluster's exchange rates. False (after a diagnostic at `loc` when report) when no rate
 * connects them. */
bool money_convert(Design *d, double amount, Dim from_dim, Loc loc, bool report, double *out);

/* racks.c: a node's power at peak (declared, or the sum of its parts) and accelerators. */
double node_power(const Decl *node);
int node_accelerators(const Decl *node);

/* racks.c: how many nodes of each group fit a rack (U, power class, cooling limit, scale-up
 * domains kept whole), and so how many racks. Errors when a node fits no rack. */
int plan_racks(Design *d);

/* model.c: the power, cost and energy model over the planned groups (docs/models.md). */
int model_design(Design *d);

/* elaborate.c: every node, accelerator, NIC port and rack as an instance with a stable id, a
 * hostname and a place. */
int elaborate_design(Design *d);

/* ---- sweep.c: a sweep file's points, for `clusterc compare --sweep` (the file says the format) */

typedef struct SweepPoint {
	const char *name;      /* the row's name: given, or the grid's values */
	Loc loc, name_loc;     /* the point (or the grid), its name when given */
	const char *scenario;  /* the spec's scenario it starts from, or NULL for the base */
	Loc scenario_loc;
	CliOverride *sets;     /* its overrides, in the file's order */
	int nsets;
	const char *sets_text; /* "hall_b.electricity=0.35 CNY/kWh; rack48.cooling=air" */
} SweepPoint;

typedef struct Sweep {
	const char *path;
	const char *scenario;  /* the top-level scenario, or NULL */
	Loc scenario_loc;
	SweepPoint **points;
	int npoints;
	bool io_error;         /* the file could not be read */
} Sweep;

/* Reads and expands the sweep at path (diagnostics in c, at the file's lines; strings in c's
 * arena). Returns the number of errors. Override paths and values are checked by the caller,
 * against the spec, when it applies them. */
int sweep_load(Ctx *c, const char *path, Sweep *s);
/* The same for a file already read (the fuzz target's way in). */
int sweep_load_source(Ctx *c, Source *src, Sweep *s);

/* ---- pipeline.c ----------------------------------------------------------------------------- */

typedef enum {
	STAGE_LOAD,
	STAGE_RESOLVE,
	STAGE_OVERRIDES,
	STAGE_CHECK,
	STAGE_DESIGN,
	STAGE_DECIDE,
	STAGE_ELABORATE,
	STAGE_WIRE,
	STAGE_VERIFY,
	STAGE_CABLE,
	STAGE_PLAN,
	STAGE_VALIDATE,
	STAGE_COUNT
} Stage;

typedef struct Timing {
	double ms;
	size_t bytes;     /* the arena's growth during the stage */
	double peak_mib;  /* the process's peak resident memory when the stage ended (getrusage) */
} Timing;

/* Runs the front-end passes in order, stopping at the first pass boundary with errors.
 * Returns the error count. */
int pipeline_front(Program *p, const char *path, Timing timings[STAGE_COUNT]);
/* dump.c: the IR after a stage, as text; a stage by name, or -1. */
void dump_stage(const Program *p, const Design *d, Stage s, FILE *out);
int stage_lookup(const char *name);

/* The front end and then the design passes; errors include unmet requirements (p->unmet). */
int pipeline_build(Program *p, Design *d, const char *path, Timing timings[STAGE_COUNT]);
extern const char *const stage_names[STAGE_COUNT];

#endif
