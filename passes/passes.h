/*
 * passes.h — the middle of the compiler: the program (program.h), the IR (ir.h) and the
 * passes between them, sectioned by defining file; passes/pipeline.c lists the passes in order.
 */
#ifndef CLUSTERC_PASSES_H
#define CLUSTERC_PASSES_H

#include "ir.h"


/* design.c: the design's frame (cluster, site, rack, cooling, power, currency), money, the
 * value of an attribute (wanka.capex, hall_b.power_budget), requirements. */
int design_init(Design *d, Program *p);
/* A money field of x in the report currency (0 when unset; a missing rate was reported by
 * design_init for the declarations in use, and leaves the amount as written). */
double design_money(Design *d, const Decl *x, FieldId f);
/* A rack of the design's type and cooling, its power class and cap set; nothing in it yet. */
void design_rack_init(const Design *d, RackInst *r);
void design_violation(Design *d, Loc loc, double excess, Loc note_loc, const char *note,
		      const char *fmt, ...) PRINTF_LIKE(6, 7);
bool design_eval(Design *d, const Expr *e, Qty *out, bool report);
int evaluate_requirements(Design *d);
int report_violations(Design *d);

/* parts.c: every declaration of hardware or plant as a Part (ir.h). */
int parts_lower(Design *d);
/* The Part of a declaration of a part kind (NULL for NULL). */
const Part *design_part(const Design *d, const Decl *decl);

/* fabric.c: every fabric sized from its declaration (counts per tier, closed forms), with a
 * diagnostic at the fabric when it cannot be built (radix, breakout, endpoints). Cheap: runs
 * for every candidate design. */
int fabric_size(Design *d);
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

/* sched.c: the design as workload schedulers see it (Design.sched): a tree of switches over
 * the nodes, the blocks of nodes that communicate best, the levels of node labels that nest;
 * after wiring, placement and cabling. */
int sched_plan(Design *d);

/* switch_plan.c: the layer-3 plan of every wired Ethernet fabric (addresses from its pools, ASNs,
 * port names); a pool or ASN range too small is a requirement not met (exit 2). */
int switch_plan_fabrics(Design *d);

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

/* racks.c: how many nodes of each group fit a rack (U, power class, cooling limit, scale-up
 * domains kept whole), and so how many racks. Errors when a node fits no rack. */
int plan_racks(Design *d);

/* model.c: the power, cost and energy model over the planned groups (docs/models.md). */
int model_design(Design *d);

/* elaborate.c: every node, accelerator, NIC port and rack as an instance with a stable id, a
 * hostname and a place. */
int elaborate_design(Design *d);

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
	STAGE_SCHED,
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
