/*
 * passes.h — the middle of the compiler: the program (program.h), the IR (ir.h) and the
 * passes between them, sectioned by defining file; passes/pipeline.c lists the passes in order.
 */
#ifndef CLUSTERC_PASSES_H
#define CLUSTERC_PASSES_H

#include "program.h"
#include "ir.h"


/* ---- design/expand*.c: growing from an earlier build (--from, docs/daytwo.md) ---------------- */

/* expand_names.c: a name and what it names, sorted by name for expand_find (the first of equal
 * names). */
typedef struct ExpandName {
	const char *name;
	int index;
} ExpandName;
void expand_sort_names(ExpandName *v, int n);
int expand_find(const ExpandName *v, int n, const char *name);

/* A device standing in a rack: its name, kind (END_NODE, END_SWITCH, END_EXTRA or
 * EXPAND_END_STORAGE) and index, and where its rack and U are kept. */
enum { EXPAND_END_STORAGE = 9 };
typedef struct ExpandDevice {
	const char *name;
	End e;
	int *rack, *u;
} ExpandDevice;
/* Every device standing in a rack (heap: free() it), *n of them. */
ExpandDevice *expand_devices(const Design *d, int *n);

/* expand.c: the keep stage (compatibility, racks, then each fabric's ports and cables). */
int expand_keep(Design *d);
/* expand_wire.c: fabric fi's endpoint ports back where they were, and its switch-to-switch
 * links with the fewest moved (rewire.c). */
void expand_wire_fabric(Design *d, int fi);
/* expand_plan.c: the change plan against the prior build (Design.expansion). */
int expand_plan(Design *d);

/* ---- opt/rewire.c: the fewest cables moved when a Clos fabric grows (Zhao et al., NSDI 2019) */

/* Links between na lower and nb upper switches: per pair (i·nb + j) the bounds of the new
 * count and the prior build's count; each lower switch's links (row, exactly) and the ports
 * each upper switch has for them (col, at most). */
typedef struct RewireProblem {
	int na, nb;
	const int *lo, *hi, *old;
	const int *row, *col;
} RewireProblem;

typedef struct RewireResult {
	int *x;             /* the new count of each pair (the arena's) */
	int kept, moved, old_total; /* prior links kept, moved (old_total − kept) */
	int variables, constraints;
	const char *status; /* "optimal"; "none" when no program was needed (every count fixed, or
			     * the prior counts a plan); "infeasible" */
} RewireResult;

/* The counts that keep the most prior links (rewire.c gives the integer program). Returns 1
 * when GLPK finds no solution (the new plan is one, so a bug), else 0. */
int rewire_counts(Ctx *c, const RewireProblem *p, RewireResult *r);

/* ---- design/: the design's frame, its parts and model, its instances and their places -------- */

/* design.c: the design's frame (cluster, site, currency; every price in use convertible),
 * racks of its rack type, Violations. */
int design_init(Design *d, Program *p);
/* A rack of the design's type and cooling, its power class and cap set; nothing in it yet. */
void design_rack_init(const Design *d, RackInst *r);
/* The numbers of the violation just added: value, limit, in base units of dim (report.json,
 * --diagnostics=json "quantity"). */
void design_violation_quantity(Design *d, double value, double limit, Dim dim);
/* A mistake in the spec that planning finds (exit 1, code "inconsistent"); silent while
 * choices are explored (Design.quiet), as the final evaluation reports it. Returns the
 * diagnostic for a note, or NULL when silent. */
Diag *design_spec_error(Design *d, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* A dimension's base units as text: "W", "bit/s", "J", "s", "CNY", "J/bit"; "" for none. */
const char *design_base_unit(Arena *a, Dim dim);
void design_violation(Design *d, Loc loc, double excess, Loc note_loc, const char *note,
		      const char *fmt, ...) PRINTF_LIKE(6, 7);
/* Every Violation of the design kept as an exit-2 diagnostic. */
int design_validate(Design *d);

/* money.c: converts an amount of money in `from_dim`'s currency into the design's currency
 * through the cluster's exchange rates. False (after a diagnostic at `loc` when report) when no
 * rate connects them. */
bool money_convert(Design *d, double amount, Dim from_dim, Loc loc, bool report, double *out);
/* A money field of x in the report currency (0 when unset; a missing rate was reported by
 * design_init for the declarations in use, and leaves the amount as written). */
double money_field(Design *d, const Decl *x, FieldId f);

/* judge.c: the value of an attribute (wanka.capex, hall_b.power_budget, gpt3.time_to_train)
 * for the design in force. */
bool judge_eval(Design *d, const Expr *e, Qty *out, bool report);
/* The site's power budget and every require line, as Violations (requirement ones found
 * before dropped). */
int judge_require(Design *d);
/* The objectives' values for the design in force (d->objective: maximized ones negated, so
 * that less is better). */
void judge_objectives(Design *d);
/* The requirements of the design as built (cables included), and its first objective as
 * written (built_objective): the pass after cabling. Its Violations are reported by
 * design_validate (exit 2); the pass itself has no errors. */
int judge_design(Design *d);
/* What one unit of money and one watt of network power add to the first objective they change
 * (exact: the model is linear in them); 1 and 0 without one. */
void judge_weights(Design *d, double *per_money, double *per_watt);

/* parts.c: every declaration of hardware or plant as a Part (ir.h). */
int parts_lower(Design *d);
/* The Part of a declaration of a part kind (NULL for NULL). */
const Part *parts_of(const Design *d, const Decl *decl);
/* How many appliances of `part` cluster.storage declares (0: none): a fabric endpoint of such a
 * part is one of them, bought once, under storage (docs/reports.md). */
int parts_storage_declared(const Design *d, const Part *part);

/* racks.c: how many nodes of each group fit a rack (U, power class, cooling limit, scale-up
 * domains kept whole), and so how many racks. Errors when a node fits no rack. */
int racks_plan(Design *d);

/* spares.c: hot spare nodes (cluster.hot_spares). spares_group: the group that takes them
 * (the most accelerators), -1 for none; spares_size: a group's spares for `want` asked (added
 * to its count when its domain is the node); spares_place: which of `count` nodes in order are the `spares`, spread
 * evenly over units of `unit` nodes (0: one unit), the group starting `offset` nodes into its
 * first unit, the last nodes of each unit; spares_mark: NodeInst.spare for every node. */
int spares_group(const Design *d);
void spares_size(NodeGroup *g, int want);
void spares_place(int count, int spares, int unit, int offset, bool *spare);
void spares_mark(Design *d);
/* A warning at cluster.hot_spares when the spares held inside multi-node scale-up domains are
 * not the count asked (rounded up to a multiple of the domains, or capped at all but one tray
 * of each). */
void spares_check(Design *d);
/* zone.c: the rack zones for the choices in force (Design.zones; the implicit one without zone
 * declarations), the first zone's rack type and cooling as the design's; the zone holding a
 * node or storage model (a spec error at loc when none does); the zones' IT power, the racks'
 * and fit-out capex into the totals and BOM lines (their cooling plant: cooling_plant.c). */
void zone_plan(Design *d);
int zone_of(Design *d, const Decl *model, Loc loc);
void zone_costs(Design *d, PtrVec *lines);

/* model.c: the power, cost and energy model over the planned groups (docs/models.md). */
int model_design(Design *d);
/* power_chain.c: the power system's chain sized for the load at peak (model_design calls it
 * for every candidate: Design.stages, Totals.power_efficiency and power_losses), and every
 * rack's feeds in their failure case (the stage after cost; an undersized feed is a
 * Violation). power_chain_factor: installed capacity over load for a Redundancy with m
 * modules; power_chain_stage: one stage sized for the load it delivers; power_chain_feeds_of:
 * feeds a rack has under a rack feed stage, and the share of the rack one carries in the
 * failure its redundancy allows. */
int power_chain_size(Design *d);
int power_chain_feeds(Design *d);
double power_chain_factor(int redundancy, int m);
void power_chain_stage(const Part *st, double load, PowerStageInst *out);
int power_chain_feeds_of(const Part *st, double *failure_share);
/* cooling_plant.c: the cooling plant of each group of racks with one cooling, sized for its
 * heat (model_design calls it for every candidate: Design.cool_groups, Totals.cooling_power,
 * cooling_avg_power and the partial PUEs), and the heat reused and its credit
 * (cooling_plant_reuse, after the energy). cooling_plant_load: the heat a unit carries of a
 * group's `heat` under cooling; cooling_plant_unit: one unit sized for its load at peak and
 * over a year, for `racks` racks, chillers off for free_share of the year; whole: in whole
 * units (else linearly: installed = load x the redundancy's factor). */
int cooling_plant_size(Design *d);
void cooling_plant_reuse(Design *d);
/* The share of the year a cooling's chillers are off at `site`: its free_cooling_hours, else
 * derived from its wet-bulb figures and the cooling's supply_temperature and approach. */
double cooling_free_share(const Decl *site, const Part *cooling);
double cooling_plant_load(const Part *unit, const Part *cooling, double heat);
void cooling_plant_unit(const Part *unit, double load, double avg_load, int racks, bool whole,
			double free_share, CoolingUnitInst *out);

/* finance.c: the financial model of the design as built: depreciation, net present cost,
 * running costs, cost per GPU-hour, per PFLOP-day and per trained model (docs/models.md). */
int finance_model(Design *d);

/* elaborate.c: every node, accelerator, NIC port and rack as an instance with a stable id;
 * then (once the racks have their places) every node's hostname. */
int elaborate_design(Design *d);
int elaborate_names(Design *d);

/* place.c: network racks planned with the sizing (so the model counts them), placed among the
 * node racks they serve, every rack on the floor grid; then every switch and extra device at a
 * rack unit, scale-up switch trays above their domain's nodes. */
int place_network_racks(Design *d);
int place_racks(Design *d);
int place_devices(Design *d);

/* ---- arrange.c: the network racks' positions, optimised (docs/placement.md §2) ---- */

/* An edge of weight w (links) between entities a and b: node racks 0 .. nracks-1, then the
 * network groups nracks .. nracks + ngroups - 1. */
typedef struct ArrangeEdge {
	int a, b;
	double w;
} ArrangeEdge;

typedef struct ArrangeProblem {
	int nracks, ngroups;
	const int *group_racks;    /* racks of each group */
	const bool *allowed;       /* [0, nracks]: keys a group may take */
	int per_row;
	bool serpentine;           /* odd rows run back (the default floor, place.c) */
	double rack_pitch, row_pitch; /* m */
	const ArrangeEdge *edges;
	int nedges;
	double scan_budget;        /* whole-cost scans when (keys) x (an evaluation) is under it;
				    * 0: ARRANGE_SCAN_BUDGET, negative: never (arrange.c) */
	bool whole_cost;           /* every trial move weighed by a whole evaluation, not by the
				    * terms it changes: the reference the tests hold the descent to */
	/* arrange_optimise's own */
	int total_group_racks, *adj_start, *adj;
} ArrangeProblem;

enum { ARRANGE_SWEEPS = 6, ARRANGE_SCAN_BUDGET = 200000 };

/* The cost (Σ w × Manhattan distance, m) of the keys: group g before node rack key[g]. */
double arrange_cost(const ArrangeProblem *p, const int *key);
/* Improves key in place by coordinate descent; returns the groups moved, *sweeps the sweeps. */
int arrange_optimise(ArrangeProblem *p, int *key, int max_sweeps, int *sweeps);
/* The exact optimum by enumeration, keys into key; its cost. Small instances only. */
double arrange_exact(const ArrangeProblem *p, int *key);
/* Sequence positions: order[j] of node rack j, order[nracks + g] of group g's first rack. */
void arrange_positions(const ArrangeProblem *p, const int *key, int *order);

/* ---- heat.c: rack power and heat with the optics, cable density, the runs (after cable.c) -- */

/* What the transceiver or active cable end at one end of cable c draws (W): the one place
 * that reads a cable's media for the racks' power. */
double heat_end_power(const CableInst *c, bool z_end);
int heat_racks(Design *d);

/* cable.c: the length and medium of every fabric link. */
int cable_fabrics(Design *d);
/* cable.c: whether fabric fi's cables (as cable_fabrics left them) could all be served were
 * every run as short as a stocked length allows: the same ends, cages, lanes and speeds. False:
 * no length would do, the failure is the ends' (decide.c's no-good after a cable failure). */
bool cable_fabric_joins_short(Design *d, int fi);
/* The advice that ends the cable stage's violation for a link no medium joins: decide.c quotes
 * the violation without it. */
#define CABLE_NO_MEDIUM_ADVICE ": declare or import one that reaches"
/* cage.c: remember the media chosen for a fabric, by everything the choice reads, for the next
 * design built in this process with the same inputs (a compare worker, many rows each). */
void cage_memo_keep(bool on);
/* trunk.c: structured cabling: fibre links between rows through trunks and patch panels. */
int trunk_fabrics(Design *d);
/* Switch w's logical port as its cage (from 0), its lane in the cage and the cage's lanes at
 * the switch's split; returns the bit/s the cage carries. Not for optical circuit switches. */
double cable_switch_cage(const SwitchInst *w, int port, int *cage, int *lane, int *lanes);
/* verify_media.c: every cable physically possible: one module or one assembly a cage, every
 * assembly's legs in one cage it fits, every part within its reach (exit 70 otherwise). */
int verify_media(Design *d);

/* ---- fabric/: the fabrics, sized, wired and proved ---------------------------------------------- */

/* fabric.c: every fabric sized from its declaration by its family (counts per tier, closed
 * forms), with a Violation at the fabric when it cannot be built (radix, breakout, endpoints);
 * the scale-up domains. Cheap: runs for every candidate design. */
int fabric_size(Design *d);
/* torus_layout.c: the closed form of a torus whose blocks meet at optical circuit switches (TPU v4):
 * OCSes, ports wired on each, chip-to-OCS fibres and direct links inside the blocks. */
void torus_layout_ocs_counts(const int dims[3], const int block[3], int ndims, int *ocs, int *ports,
		      int *fibres, int *electrical);
/* scale_up.c: the scale-up domains of every node group (part of fabric_size); their trays as
 * switch instances (part of wire_fabrics). */
void scale_up_size(Design *d);
void scale_up_wire(Design *d, ScaleUpInst *s);

/* wire.c: every link, port by port (after elaboration), each fabric by its family. */
int wire_fabrics(Design *d);
/* The fabric's NIC ports of node n, in order (its rails): indices into Design.ports. Fabrics
 * on the same NIC model take its ports in turn, nic_first on; at most f->rails. */
int wire_node_ports(const Design *d, int n, const FabricInst *f, int *out, int max);

/* verify.c: each port used at most once, every switch within its radix, every endpoint
 * connected, every fabric connected (the metrics are sizing's, fabric.c). A failure is a bug
 * in clusterc (exit 70). */
int verify_fabrics(Design *d);
/* verify_memo.c: remember the inputs of each clean verification (verify_fabrics, verify_media)
 * for the next design built in this process (a compare worker, many rows each): the same inputs
 * are not verified again. */
void verify_memo_keep(bool on);
/* How many verifications the memo has spared this process (for the tests). */
long verify_memo_hits(void);

/* sched.c: the design as workload schedulers see it (Design.sched): a tree of switches over
 * the nodes, the blocks of nodes that communicate best, the levels of node labels that nest;
 * after wiring, placement and cabling. */
int sched_plan(Design *d);

/* switch_plan.c: the layer-3 plan of every wired Ethernet fabric (addresses from its pools, ASNs,
 * port names); a pool or ASN range too small is a requirement not met (exit 2). */
int switch_plan_fabrics(Design *d);
/* The ports of every plan that the address pass left (Design.switch_ports_later): before the
 * switches' files are written. */
void switch_plan_ports(Design *d);

/* ---- opt/: the open choices decided (opt.h has the optimizer's own types) ---------------------- */

/* decide.c: every open choice (one_of, ranges, auto) decided: by the MILP (optimize.c) when
 * the requirements and objectives are linear in the design's attributes, else by evaluating
 * every design the choices allow; the best feasible one under the objectives is kept. */
int decide_choices(Design *d);
/* What the optimizer did, as the reports give it (Design.report): after the design is judged
 * as built. */
int decide_report(Design *d);
/* decide.c: the kept design's cable stage found links of a fabric no medium in scope joins (its
 * only violations): what to exclude when deciding again (*out); false when it cannot say. The
 * options that make the links' ends when no length would do (cable_fabric_joins_short), else the
 * whole design (docs/optimization.md). */
bool decide_cable_nogood(Design *d, CableNogood *out);

/* ---- plan/: parallelism ---------------------------------------------------------------------- */

/* plan.c: every workload's parallelism plan, its prediction and placement (plan.h); a
 * workload no plan fits is a Violation. */
int plan_workloads(Design *d);
/* reliability.c: the cluster's and every plan's interruption rate, checkpoint, interval and
 * goodput, with a Monte Carlo of each run (docs/reliability.md). */
int reliability_plan(Design *d);

/* ---- design/overflow.c ---------------------------------------------------------------------- */

/* Every figure of the model (BOM lines, capex, power, energy cost, TCO, a workload's time and
 * energy) that is not finite although its inputs were: an error (exit 1) at the field that made
 * it overflow. */
int overflow_check(Design *d);

/* ---- pipeline.c ----------------------------------------------------------------------------- */

/* The stages, one pass each, in pipeline order; their names are --dump's. */
#define STAGES(X)                                                                              \
	X(LOAD, "load")           /* load.c: the files */                                    \
	X(RESOLVE, "resolve")     /* resolve.c: names */                                     \
	X(OVERRIDES, "overrides") /* scenario.c: scenarios and --set */                      \
	X(CHECK, "check")         /* check.c: values against the schemas */                  \
	X(DESIGN, "design")       /* design.c: the frame */                                  \
	X(PARTS, "parts")         /* parts.c: the hardware as Parts */                       \
	X(DECIDE, "decide")       /* decide.c: the open choices */                           \
	X(ELABORATE, "elaborate") /* elaborate.c: nodes, accelerators, ports, racks */       \
	X(PLACE, "place")         /* place.c: racks on the floor */                          \
	X(NAMES, "names")         /* elaborate.c: hostnames */                               \
	X(WIRE, "wire")           /* wire.c: every link */                                   \
	X(MOUNT, "mount")         /* place.c: devices at their rack units */                 \
	X(KEEP, "keep")           /* expand.c: what --from's build allows kept, kept */      \
	X(VERIFY, "verify")       /* verify.c: the wiring proved */                          \
	X(CABLE, "cable")         /* cable.c: every cable */                                 \
	X(TRUNK, "trunk")         /* trunk.c: structured cabling between rows */             \
	X(HEAT, "heat")           /* heat.c: rack power with the optics, cables per rack */  \
	X(VERIFY_MEDIA, "verify-media") /* verify_media.c: the media proved */               \
	X(IDS, "ids")             /* ir.c: the cables' stable ids */                         \
	X(CHANGES, "changes")     /* expand_plan.c: the change plan against --from's build */ \
	X(COST, "cost")           /* model.c: the model with the cables */                   \
	X(FEEDS, "feeds")         /* power_chain.c: each rack's feeds in their failure case */ \
	X(JUDGE, "judge")         /* design.c: requirements and objectives with the cables */ \
	X(ADDRESS, "address")     /* switch_plan.c: layer-3 plans */                         \
	X(SCHED, "sched")         /* sched.c: the design as schedulers see it */             \
	X(REPORT, "report")       /* decide.c: the optimizer's result as reports give it */  \
	X(PLAN, "plan")           /* plan.c: parallelism plans */                            \
	X(RELIABILITY, "reliability") /* reliability.c: failures, checkpoints, goodput */    \
	X(FINANCE, "finance")     /* finance.c: the financial model */                       \
	X(VALIDATE, "validate")   /* design.c: what the design misses, reported */         \
	X(OVERFLOW, "overflow")   /* overflow.c: figures past the largest double */

typedef enum {
#define X(id, name) STAGE_##id,
	STAGES(X)
#undef X
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
/* dump.c: the IR after a stage, as text (design NULL: the program); at most max entries of
 * each list when max > 0. */
void dump_stage(const Program *p, const Design *d, Stage s, FILE *out, long max);
/* A stage by name, or -1. */
int pipeline_stage_lookup(const char *name);

/* The front end and then the design passes; errors include unmet requirements (p->unmet). */
int pipeline_build(Program *p, Design *d, const char *path, Timing timings[STAGE_COUNT]);
extern const char *const pipeline_stage_names[STAGE_COUNT];

#endif
