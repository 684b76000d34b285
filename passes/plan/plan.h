/*
 * plan.h — the parallelism planner: the workload's model and the cluster's hardware as the
 * analytical model sees them, a plan (TP, PP, DP, CP, EP, micro-batch, interleaving,
 * recomputation, sequence parallelism, distributed optimizer), what the model predicts for it,
 * and the result kept per workload. Sectioned by defining file: plan_model.c (the formulas,
 * docs/parallelism.md), plan_search.c (the exhaustive search), plan.c (the pass).
 */
#ifndef CLUSTERC_PLAN_H
#define CLUSTERC_PLAN_H

#include "passes.h"

/* ---- plan_model.c: the analytical model --------------------------------------------------- */

enum { PLAN_RC_NONE, PLAN_RC_SELECTIVE, PLAN_RC_FULL, PLAN_RC_COUNT };
extern const char *const plan_recompute_names[PLAN_RC_COUNT];

/* A transformer as the formulas read it. Dense models have experts = 1 and every layer dense;
 * an MoE model has dense_layers leading dense layers and MoE layers after them. */
typedef struct PlanModel {
	double layers, hidden, heads, head_dim, groups, ffn, seq, vocab;
	double mats;         /* FFN weight matrices: 2 (GeLU) or 3 (SwiGLU) */
	double experts, top_k, expert_ffn, shared, dense_layers;
} PlanModel;

/* The hardware a plan runs on, from the design (per accelerator unless said otherwise). */
typedef struct PlanHw {
	const Part *accel;   /* the accelerator model */
	const Part *node;    /* its node type */
	double peak;         /* dense FLOP/s at the workload's precision */
	double peak16;       /* dense BF16 FLOP/s (attention core and output layer stay in BF16) */
	double eff_large;    /* fraction of peak a large matrix multiply attains (matmul_efficiency) */
	double elem_bytes;   /* bytes of a matmul operand: 2 (bf16) or 1 (fp8) */
	double hbm;          /* bytes of HBM */
	double hbm_usable;   /* bytes a plan may fill (HBM less PLAN_HBM_RESERVE) */
	double hbm_bw;       /* bytes/s */
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
	double gpu_power;    /* W: the node's power over its accelerators */
	double pue;
	double price_per_j;  /* report currency per J of facility energy */
} PlanHw;

typedef struct PlanConfig {
	int gpus, tp, pp, dp, cp, ep, micro, v;
	int batch;           /* global batch, sequences */
	int recompute;       /* PLAN_RC_* */
	bool sp, dopt;       /* sequence parallelism, distributed optimizer */
} PlanConfig;

/* What the model predicts for one plan. Times are per step on the slowest pipeline stage and
 * add up: step = compute + recompute + tp + cp + ep + pp + bubble + dp + optimizer. */
typedef struct PlanCost {
	double step;
	double compute, recompute, tp_comm, cp_comm, ep_comm, pp_comm, bubble, dp_comm, optimizer;
	double mem, mem_states, mem_act; /* bytes per GPU: total, weights+grads+optimizer, rest */
	double mem_weights, mem_grads, mem_optim;
	double model_flops;  /* per step, without recomputation (for MFU) */
	double hw_flops;     /* per step, with recomputation */
	double mfu;
	double tokens_per_s;
	double tflops_per_gpu; /* hw_flops per second per GPU / 1e12, as Narayanan et al. count */
	int microbatches;
} PlanCost;

/* Per-layer costs of one micro-batch on one GPU for a (tp, cp, ep, micro, recompute, sp):
 * what the search reuses across pipeline and data-parallel sizes. */
typedef struct PlanLayer {
	double fwd, bwd, re;     /* s of compute: matmuls and memory-bound kernels */
	double tp, cp, ep;       /* s of exposed communication, forward + backward (+ recompute) */
	double act;              /* bytes kept from forward to backward */
	double work;             /* bytes of one layer's full activations (recompute working set) */
	double out_time;         /* s: the output layer and loss, forward + backward (last stage) */
	double out_mem;          /* bytes: its logits (fp32) */
	double pp_bytes;         /* bytes sent to the next stage per micro-batch */
} PlanLayer;

enum { PLAN_HBM_RESERVE_PCT = 10 }; /* % of HBM left to the CUDA context, NCCL and fragmentation */

double plan_params(const PlanModel *m);
double plan_model_flops(const PlanModel *m, double batch);
double plan_hw_flops(const PlanModel *m, double batch, int recompute);
double plan_bubble_fraction(int pp, int v, int microbatches);
double plan_inflight_layers(const PlanModel *m, int pp, int v, int microbatches);
double plan_layer_activation_bytes(const PlanModel *m, const PlanConfig *c, bool moe);
double plan_state_bytes_per_param(bool dopt, double dp_group);
double plan_matmul_efficiency(const PlanHw *hw, double m, double n, double k);
double plan_group_bandwidth(const PlanHw *hw, double span_gpus);
void plan_layer(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanLayer *out);
/* Parameters one GPU of the biggest pipeline stage holds: dense (replicated over DP and CP)
 * and expert (replicated over DP·CP/EP). */
void plan_stage_params(const PlanModel *m, const PlanConfig *c, double *dense, double *expert);
/* The whole model for one plan (the search inlines the same arithmetic over cached layers). */
void plan_evaluate(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanCost *out);
/* The cost of a plan from its cached layer costs and stage parameters: memory (returns the
 * bytes per GPU) and time separately, so the search times only the plans that fit. */
double plan_memory(const PlanModel *m, const PlanConfig *c, const PlanLayer *l, double dense,
		   double expert, PlanCost *o);
void plan_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *o);
void plan_cost(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *out);

/* ---- plan_search.c: the exhaustive search --------------------------------------------------- */

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
	unsigned sp, dopt;   /* bit 0: false allowed, bit 1: true allowed */
	int batch;           /* global batch, sequences */
	int min_cp_tokens;   /* CP is searched down to this many tokens per rank (when not fixed) */
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

bool plan_set_allows(const PlanSet *s, double x);
/* Megatron-LM's constraints on TP (heads, query groups, FFN sizes; inside the scale-up domain)
 * and CP (sequence divisible by 2·CP). */
bool plan_tp_ok(const PlanModel *m, const PlanHw *hw, int tp);
bool plan_cp_ok(const PlanModel *m, int cp);
void plan_search(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, PlanResult *out);

/* ---- plan.c: the pass ----------------------------------------------------------------------- */

/* A workload's plan, placed on the elaborated design. */
typedef struct WorkloadPlan {
	const Decl *workload;
	PlanModel model;
	PlanHw hw;
	PlanSpace space;
	PlanResult r;
	double tokens, steps;
	double time_to_train;   /* s */
	double energy;          /* J of facility energy */
	double energy_cost;     /* report currency */
	const char *why[PLAN_ALTERNATIVES]; /* why each alternative lost */
	int first_node;         /* the first node of the placement */
	int nodes;              /* nodes used */
} WorkloadPlan;

/* Reads a workload's model and knobs and the design's hardware: false (after a spec error
 * when report) when the cluster has no accelerators to plan on. */
bool plan_inputs(Design *d, const Decl *w, PlanModel *m, PlanHw *hw, PlanSpace *sp);
/* A derived attribute of a workload (time_to_train, step_time, energy_to_train,
 * cost_to_train, mfu) for the design in force, memoised over the inputs: the form the choice
 * search calls for every candidate. A workload no plan fits reads PLAN_UNRUNNABLE time, energy
 * and cost (finite, so requirements compare and the search ranks it last) and zero MFU. False
 * when the attribute is not one of these. */
#define PLAN_UNRUNNABLE 1e300
bool plan_attribute(Design *d, const Decl *w, const char *name, double *out);

#endif
