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

/* Per-layer costs of one micro-batch on one GPU for a (tp, cp, ep, micro, recompute, sp):
 * what the search reuses across pipeline and data-parallel sizes. */
typedef struct PlanLayer {
	double fwd, bwd, re;     /* s of compute: matmuls and memory-bound kernels */
	double wgrad;            /* s of bwd: the weight gradients' multiplies (DualPipe's W) */
	double tp, cp, ep;       /* s of exposed communication, forward + backward (+ recompute) */
	double act;              /* bytes kept from forward to backward */
	double work;             /* bytes of one layer's full activations (recompute working set) */
	double rc_work;          /* bytes the recompute modules bring back at a layer's backward */
	double out_time;         /* s: the output layer and loss, forward + backward (last stage) */
	double out_mem;          /* bytes: its logits (fp32) */
	double pp_bytes;         /* bytes sent to the next stage per micro-batch */
	int cp_type;             /* CPC_x: the fastest CP exchange c->cp_comm allows */
	double fp8_cache;        /* bytes a parameter of the FP8 weight copies kept for the step */
	double sync;             /* s a layer exposed after dropless MoE's sync: host lag or a launch */
	double sync_floor;       /* s a layer: the launch after the sync alone (merged schedules) */
} PlanLayer;

/* HBM a plan may not fill: the CUDA context with the cuBLAS and cuDNN workspaces (about
 * 0.5-1 GB a process) and the NCCL buffers of the TP, CP, EP, DP and PP communicators (4 MiB
 * a channel and peer by default, NCCL_BUFFSIZE; about 1 GB in all). An assumption, stated in
 * docs/parallelism.md. The capacity itself is what the device reports (std.accelerators: the
 * H100's 81,559 MiB as nvidia-smi gives it, 85.5e9 bytes, its "80 GB" being 80 GiB of HBM3
 * less what the driver keeps), not the marketing figure read as decimal. */
#define PLAN_HBM_RESERVE_BYTES 2e9

double plan_params(const PlanModel *m);
double plan_model_flops(const PlanModel *m, double batch);
double plan_model_flops_causal(const PlanModel *m, double batch);
double plan_hw_flops(const PlanModel *m, double batch, int recompute);
double plan_bubble_fraction(int pp, int v, int microbatches);
/* Layers of the stages between the first and the last: (L − first − last)/(p − 2); the first
 * stage's when p < 3. */
double plan_mid_layers(const PlanModel *m, const PlanConfig *c);
/* The ways to split L layers over p stages Megatron-LM accepts that the search tries: the even
 * split when p divides L; otherwise (first, last) of mid − 2 to mid layers each, the middle
 * stages at mid = ⌈L/p⌉ (--decoder-first/last-pipeline-num-layers). Writes up to max pairs
 * (at most PLAN_SPLITS exist), returns how many (0: p cannot take these layers). */
enum { PLAN_SPLITS = 3 };
/* Whether the uneven split of c (first, middle, last) takes v virtual stages a GPU: v divides
 * the middle stages' layers and the first and last keep at least one layer in their first and
 * last chunk (Megatron-LM's --pipeline-model-parallel-layout; plan_stage_layout). */
bool plan_uneven_interleave_ok(const PlanModel *m, const PlanConfig *c, int v);
int plan_stage_splits(const PlanModel *m, int pp, int (*out)[2], int max);
/* The same with the workload's fixed first and last stages (pipeline_first_layers,
 * pipeline_last_layers; 0: not fixed): the one split they give at pp, or none. */
int plan_splits(const PlanModel *m, int pp, int first, int last, int (*out)[2], int max);
double plan_inflight_layers(const PlanModel *m, const PlanConfig *c, int microbatches);
/* The same of the last stage, whose logits come on top (plan_act_memory). */
double plan_last_inflight_layers(const PlanModel *m, const PlanConfig *c, int microbatches);
double plan_layer_activation_bytes(const PlanModel *m, const PlanConfig *c, bool moe);
/* The part of it the QK norms keep (qk_norm: their BF16 inputs and FP32 inverse RMS). */
double plan_qk_norm_bytes(const PlanModel *m, const PlanConfig *c);
/* The part of it FP8 training keeps in one byte rather than two (the FP8 linear layers'
 * inputs, Transformer Engine). */
double plan_fp8_activation_saving(const PlanModel *m, const PlanConfig *c, bool moe);
/* What swiglu_fp8_input saves of one layer's activations (bytes, one micro-batch, one GPU). */
double plan_swiglu_fp8_saving(const PlanModel *m, const PlanConfig *c, bool moe);
/* HBM bytes one layer's FP8 casts move per micro-batch, forward and backward (plan_model.c). */
void plan_fp8_cast_bytes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, bool moe,
			 double *fwd, double *bwd);
double plan_state_bytes_per_param(bool dopt, double dp_group);
double plan_optimizer_bytes(const PlanConfig *c);
double plan_matmul_efficiency(const PlanHw *hw, double m, double n, double k);
/* Seconds of the backward of one m×k by k×n forward multiply at the workload's precision: the
 * input gradient, m×n by n×k, and the weight gradient, k×m by m×n, each at its own roofline
 * and size factor (plan_model.c, gemm_passes). */
double plan_gemm_backward(const PlanHw *hw, double m, double n, double k);
/* Seconds of one MoE layer's routed-expert multiplies, one micro-batch on one GPU (the local
 * experts' two FFN matrices, each pass at its own shape): the forward's returned, the
 * backward's into *bwd (may be NULL); 0 for a dense model. */
double plan_moe_expert_gemm_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
				 double *bwd);
/* Seconds left exposed of `comm` seconds of collective overlapped (on) with `busy` seconds of
 * compute when `last` of them (its first gather or last reduction) has nothing under it; the
 * hidden part costs the compute a tenth of its time. */
double plan_exposed_last(double comm, double busy, double last, bool on);
double plan_group_bandwidth(const PlanHw *hw, double span_gpus);
typedef enum {
	COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL, COLL_RING_PASS
} PlanColl;
/* Seconds of one collective of n ranks spanning span_gpus consecutive GPUs on bytes a rank. */
double plan_collective(const PlanHw *hw, double span_gpus, double n, PlanColl kind, double bytes);
/* HBM bytes of one forward of an MoE layer's token permutations around the all-to-all that its
 * activation traffic does not count (Megatron-Core's all-to-all dispatcher, or HybridEP's fused
 * permute); 0 for a dense model. */
double plan_moe_permute_bytes(const PlanModel *m, const PlanConfig *c);
/* Ranks of the EP group HybridEP sends a token to (those holding one of its k experts, random
 * routing): e·(1 − C(E − E/e, k)/C(E, k)); 1 without experts or EP. */
double plan_moe_dest_ranks(const PlanModel *m, const PlanConfig *c);
/* HBM bytes of one forward of the FP8 padding and unpadding of an MoE layer's expert tokens
 * (dropless FP8 only; Transformer Engine's Fp8Padding); 0 otherwise. */
double plan_moe_fp8_pad_bytes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c);
/* Seconds the host takes to launch one dropless MoE layer's forward, which Megatron-Core's
 * device-to-host synchronization of the expert counts exposes (plan_model.c); 0 for a dense
 * model or with the experts' input padded to capacity (no synchronization). */
double plan_moe_fwd_host(const PlanModel *m, const PlanHw *hw, const PlanConfig *c);
void plan_layer(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanLayer *out);
/* Full recomputation of k of a virtual stage's n layers (--recompute-method block): the layer
 * costs without recomputation and with full recomputation weighted k/n and 1 − k/n. */
void plan_layer_blend(const PlanLayer *none, const PlanLayer *full, double f, PlanLayer *out);
/* Full recomputation of a fixed count c->rc_layers (the workload's recompute_layers): block's
 * blend of none and full, or uniform's groups (c->rc_uniform), from the layer costs without
 * recomputation and with every layer recomputed one by one, chunk the largest virtual stage's
 * layers (plan_chunk_layers); and whether Megatron-Core takes that count at c's stages. */
void plan_layer_rc_layers(const PlanConfig *c, double chunk, const PlanLayer *none,
			  const PlanLayer *full, PlanLayer *out);
bool plan_rc_layers_ok(const PlanModel *m, const PlanConfig *c);
/* Layers of one virtual stage of the middle stages (the chunk block recomputation counts in). */
double plan_chunk_layers(const PlanModel *m, const PlanConfig *c);
/* Parameters one GPU of the biggest pipeline stage holds: dense (replicated over DP and CP)
 * and expert (replicated over DP·CP/EP). */
void plan_stage_params(const PlanModel *m, const PlanConfig *c, double *dense, double *expert);
/* DualPipe's parameters per GPU of a rank pair's two stages (dense, expert as
 * plan_stage_params'): an end rank's, the first and the last stage, into end[2], and a middle
 * rank's into mid[2] (0 with pp = 2, which has no middle rank). */
void plan_dualpipe_params(const PlanModel *m, const PlanConfig *c, double end[2], double mid[2]);
/* DualPipe's memory per GPU (bytes): the larger of an end rank's and a middle rank's, each its
 * pair of stages' state and its own activations; o's memory fields filled (o may be NULL). */
double plan_dualpipe_memory(const PlanModel *m, const PlanConfig *c, const PlanLayer *l,
			    PlanCost *o);
/* The whole model for one plan (the search inlines the same arithmetic over cached layers). */
void plan_evaluate(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanCost *out);
/* The cost of a plan from its cached layer costs and stage parameters: memory (returns the
 * bytes per GPU) and time separately, so the search times only the plans that fit. */
double plan_memory(const PlanModel *m, const PlanConfig *c, const PlanLayer *l, double dense,
		   double expert, PlanCost *o);
void plan_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *o);
/* plan_memory's two parts: the stage's state (weights, gradients and their FP8 copies into
 * *weights and *grads) and the activations with `inflight` layer-micro-batches in flight on
 * the first stages and `inflight_last` on the last (which holds the logits). */
double plan_state_memory(const PlanModel *m, const PlanConfig *c, double dense, double expert,
			 double fp8_cache, double *weights, double *grads);
/* Activations per GPU (bytes) of the stage that holds most: `inflight` layer-micro-batches
 * on the first stages (plan_inflight_layers), or `inflight_last` on the last with the FP32
 * logits of the micro-batch in its output layer (plan_last_inflight_layers; without a
 * pipeline both are the model's layers, so the logits add). Full recomputation's working
 * layer on either, and selective recomputation's by module its modules' tensors of one layer
 * (l->rc_work): Megatron-Core runs each module under tensor_parallel.checkpoint or
 * CheckpointWithoutOutput (megatron/core/tensor_parallel/random.py), which frees the module's
 * tensors after its forward and recomputes them at the start of that layer's backward, so
 * they exist again, for one layer at a time, while its backward runs. Inline: the search's
 * innermost loop calls it for every plan. */
/* Whether c runs DualPipe (pipeline_schedule = dualpipe over a pipeline: the search makes no
 * DualPipe plan at pp = 1, dualpipe_conflict refusing a workload that allows no even pp). */
static inline bool plan_dualpipe(const PlanConfig *c)
{
	return c->dualpipe && c->pp > 1;
}
static inline double plan_rc_work(const PlanConfig *c, const PlanLayer *l)
{
	return c->recompute == RC_FULL ? l->work : l->rc_work;
}
static inline double plan_act_memory(const PlanConfig *c, const PlanLayer *l, double inflight,
				     double inflight_last)
{
	double first = l->act * inflight, last = l->act * inflight_last + l->out_mem;
	/* Offloaded layers' activations leave HBM but for one layer's double buffer (the copy
	 * being written out, or the next layer's prefetched back; plan_offload). */
	double off = c->offload > 1 ? (c->offload - 1) * l->act : 0;
	return (first > last ? first : last) - off + plan_rc_work(c, l);
}
/* DualPipe's activations per GPU (bytes) of the rank pair whose whole memory is larger: an
 * end rank's, state st_end, `inflight_last` layer-micro-batches (plan_last_inflight_layers)
 * and the logits, or a middle rank's (pp > 2), state st_mid, `inflight`
 * (plan_inflight_layers); each with the recomputation's working set (plan_act_memory).
 * *middle: whether the middle rank's. Inline: the search calls it for every DualPipe plan. */
static inline double plan_dualpipe_act(const PlanConfig *c, const PlanLayer *l, double st_end,
				       double st_mid, double inflight, double inflight_last,
				       bool *middle)
{
	double rc = plan_rc_work(c, l);
	double end = l->act * inflight_last + l->out_mem + rc, mid = l->act * inflight + rc;
	*middle = c->pp > 2 && st_mid + mid > st_end + end;
	return *middle ? mid : end;
}
void plan_cost(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *out);
/* Activation offload to host memory (Megatron-LM --cpu-offloading-num-layers): whether c may
 * offload k layers. Megatron-Core's TransformerConfig refuses CPU offloading with a pipeline
 * ("Currently there is no support for Pipeline parallelism with CPU offloading") and with
 * recomputation ("CPU offloading does not work when activation recomputation is enabled"), and
 * takes 0 to num_layers − 1 layers (megatron/core/transformer/transformer_config.py,
 * __post_init__); the accelerator needs a host link. Inline: the search asks it of every plan
 * that does not fit. */
typedef enum {
	OFFLOAD_OK,
	OFFLOAD_TOO_MANY,  /* k not fewer than the model's layers */
	OFFLOAD_PIPELINE,  /* a pipeline (or interleaving) */
	OFFLOAD_RECOMPUTE, /* recomputation */
	OFFLOAD_NO_LINK,   /* the accelerator has no host link */
} OffloadWhy;
/* The first of those rules k > 0 offloaded layers break, for a plan without a pipeline (pp1)
 * and without recomputation (none) or not: the one statement of them, which the search asks
 * through plan_offload_ok and the diagnostic of a fixed offload_layers names. */
static inline OffloadWhy plan_offload_why(const PlanModel *m, const PlanHw *hw, int k, bool pp1,
					  bool none)
{
	return k >= (int)m->layers ? OFFLOAD_TOO_MANY
	       : !pp1		   ? OFFLOAD_PIPELINE
	       : !none		   ? OFFLOAD_RECOMPUTE
	       : hw->host_bw <= 0  ? OFFLOAD_NO_LINK
				   : OFFLOAD_OK;
}
static inline bool plan_offload_ok(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
				   int k)
{
	return k == 0 || (k > 0 && plan_offload_why(m, hw, k, c->pp == 1 && c->v == 1,
						    c->recompute == RC_NONE) == OFFLOAD_OK);
}
/* Whether k offloaded layers' activations exceed the host's memory (the accelerator's share
 * of its node's). */
static inline bool plan_offload_over_host(const PlanHw *hw, const PlanLayer *l, double k)
{
	return k * l->act > hw->host_mem;
}
/* The seconds of one micro-batch's copies out (forward) and back (backward) not hidden under
 * the compute (0 for k = 0). */
double plan_offload_exposed(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
			    const PlanLayer *l);

/* ---- gemm_size.c: measured multiply throughput by size -------------------------------------- */

/* The share of its large-matrix efficiency an m × k by k × n multiply keeps on an accelerator
 * with measured table `table` (GemmTable; GT_NONE: 1), in FP8 or BF16. */
double gemm_size_factor(int table, bool fp8, double m, double n, double k);

/* ---- plan_search.c: the exhaustive search --------------------------------------------------- */

bool plan_set_allows(const PlanSet *s, double x);
/* Megatron-LM's constraints on TP (heads, query groups, FFN sizes; inside the scale-up domain)
 * and CP (sequence divisible by 2·CP). */
/* TP divides the model's heads, query groups, FFN and expert FFN sizes (Megatron-LM splits each). */
bool plan_tp_model_ok(const PlanModel *m, int tp);
bool plan_tp_ok(const PlanModel *m, const PlanHw *hw, int tp);
bool plan_cp_ok(const PlanModel *m, int cp);
/* The divisors of n in increasing order, into a malloc'ed array; how many (none for n < 1). */
int plan_divisors(int n, int **out);
void plan_search(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, PlanResult *out);

/* ---- plan_share.c: searches shared between rows and rounds ---------------------------------- */

/* plan_search, looked up first by every input it reads among the results shared by the processes
 * of a comparison or the rounds of a build's decisions (lang/share.c), and stored there after;
 * plan_search itself when nothing is shared. The result is the same either way; true when it was
 * read, not searched. */
bool plan_search_shared(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, PlanResult *out);

/* ---- plan.c: the pass ----------------------------------------------------------------------- */

/* Reads a workload's model and knobs and the design's hardware: false (after a spec error
 * when report) when the cluster has no accelerators to plan on. */
bool plan_inputs(Design *d, const Decl *w, PlanModel *m, PlanHw *hw, PlanSpace *sp);
/* A derived attribute of a workload (time_to_train, step_time, energy_to_train,
 * cost_to_train, mfu) for the design in force, memoised over the inputs: the form the choice
 * search calls for every candidate. A workload no plan fits reads PLAN_UNRUNNABLE time, energy
 * and cost (finite, so requirements compare and the search ranks it last) and zero MFU. False
 * when the attribute is not one of these. */
#define PLAN_UNRUNNABLE 1e300
bool plan_attribute(Design *d, const Decl *w, FieldId attribute, double *out);
/* The best plan of a workload on the design in force (memoised with plan_attribute): its
 * inputs, the plan, its failure-free time to train (s) and facility energy (J); false when no
 * plan fits. */
bool plan_best(Design *d, const Decl *w, PlanModel *m, PlanHw *hw, PlanConfig *best, double *time,
	       double *energy);

/* ---- reliability.c: interruptions, checkpoints, goodput (docs/reliability.md) --------------- */

/* The closed forms, each citing its source where defined. */
double reliability_young(double delta, double mtbf);
double reliability_daly(double delta, double mtbf);
/* Expected wall time over failure-free time for checkpoints every tau s of compute, each
 * taking delta s, restarts taking r s, failures at rate 1/mtbf (Daly 2006, eq. 20). */
double reliability_wall_factor(double tau, double delta, double r, double mtbf);
/* The checkpoint's bytes per parameter: mixed-precision Adam without gradients. */
#define RELIABILITY_STATE_BYTES 14.0
/* The cluster's rates (d->reliability) from its parts in service. */
void reliability_cluster(const Design *d, ClusterReliability *out);
/* Interruptions per second of a job on gpus accelerators of nodes of type node. */
double reliability_job_rate(const ClusterReliability *c, const Part *node, double gpus);
/* A workload's job on its plan: rate, checkpoint, interval, goodput (no Monte Carlo); c: the
 * cluster's rates (reliability_cluster) of this same design. */
void reliability_workload(Design *d, const ClusterReliability *c, const Decl *w, const PlanModel *m,
			  const PlanHw *hw, const PlanConfig *best, double time, double energy,
			  WorkloadReliability *out);
/* A derived attribute (job_mtbf, goodput, effective_time_to_train, effective_energy_to_train
 * of a workload; job_mtbf of a cluster) for the design in force; false when not one. */
bool reliability_attribute(Design *d, const Decl *decl, FieldId id, double *out);

/* The smallest s with P(Poisson(mean) <= s) >= target. */
int reliability_poisson_quantile(double mean, double target);
double reliability_poisson_cdf(double mean, int k); /* P(N <= k), N Poisson of the mean */
/* Interruptions per second of a job on `gpus` of the design's accelerators by its power chain
 * and cooling plants (into power and cooling, either may be NULL); gpus <= 0: every one. */
void reliability_plant(const Design *d, double gpus, double *power, double *cooling);

/* The spares a target asks (d->spare_sizing), after reliability_cluster. */
void reliability_spares(const Design *d, SpareSizing *out);

/* ---- blast.c: what one failure takes down --------------------------------------------------- */

void blast_radius(Design *d, BlastRadius *out);
/* What losing these nodes and switches takes (node_lost[nnodes], switch_lost[nswitches]), and
 * losing these racks (rack_lost[nracks]: the nodes and switches standing in them): every
 * failure domain that is a set of racks (a rack, a row, a power unit's racks, a CDU's, a
 * zone's) goes through blast_racks. out->plans is in the design's arena. */
void blast_devices(const Design *d, const bool *node_lost, const bool *switch_lost, BlastLoss *out);
void blast_racks(const Design *d, const bool *rack_lost, BlastLoss *out);
/* The racks a unit of a power stage takes when it fails: 0 when its redundancy allows for the
 * failure, 1 for a rack feed under n, else ceil(racks / units) (units 0: one path, every
 * rack). */
int blast_power_share(int redundancy, bool rack_feed, int units, int racks);
/* The first of the `share` consecutive entries of gpus[n] with the largest sum (the first on
 * ties), -1 when share or n is 0. */
int blast_window(const int *gpus, int n, int share);

/* A unit of the power or cooling plant (docs/reliability.md "The plant"): how often its stage
 * loses racks, and how many one such event takes. Under n every unit's failure does (rate
 * units x lambda, its share of the racks: ceil(racks / units), a rack feed its rack, `per`
 * racks when the unit serves at most that many); with redundancy only a second failure
 * while the first is repaired: each pair that cannot both be down fails at
 * 2 lambda^2 r / (1 + 2 lambda r) (two repairable units in parallel), the pairs being a
 * two_n stage's units side by side (units / 2, a rack feed's per rack) and any two units of
 * an n_plus_1 or block stage; the racks lost are then one pair's share (two_n), what the
 * N surviving units cannot carry, ceil(racks / (units - 1)) (n_plus_1), or one block's,
 * ceil(racks / module_count) (block). units 0: no unit rating, one path (two_n: two, n_plus_1:
 * module_count + 1, block: module_count). lambda per second, mttr s; rate per second. */
typedef struct PlantEvent {
	double rate;              /* per second: the independent failures' events */
	int racks;                /* racks one event takes */
	double units;             /* units counted */
	double ccf_rate;          /* per second: common-cause events (with redundancy only) */
	int ccf_racks;            /* racks one common-cause event takes */
} PlantEvent;
/* beta is the common-cause share of a unit's failures (the beta-factor model: IEC 61508-6:2010
 * annex D; NUREG/CR-5485, 1998): with redundancy the independent failures are (1 - beta)
 * lambda a unit, and each redundant group (a two_n stage's pair side by side, a rack's feeds A
 * and B, all the units of an n_plus_1 or block stage) fails whole at beta lambda, taking every
 * rack the group serves (a pair's share, a rack, all the racks). Under n beta changes nothing
 * (a unit's failure stops its racks either way). */
void blast_plant_event(int redundancy, bool rack_feed, int units, int module_count, int per,
		       double lambda, double mttr, double beta, int racks, PlantEvent *out);
/* The share of a stage's events a job on `job_racks` consecutive racks of `racks` meets, each
 * event taking `event_racks` consecutive racks: min(1, (job_racks + event_racks - 1) / racks)
 * (job_racks at least 1). */
double blast_plant_hit(double job_racks, int event_racks, int racks);
/* ---- montecarlo.c: the training run simulated ---------------------------------------------- */

/* trials runs of `work` s of compute under reliability_wall_factor's assumptions, seeded. */
void montecarlo_run(double work, double tau, double delta, double r, double mtbf, int trials,
		    unsigned long long seed, MonteCarlo *out);

#endif
