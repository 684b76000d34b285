/*
 * plan.c — parallelism planning: for every workload, the fastest Megatron-LM plan that fits in
 * HBM on the cluster as designed, its prediction, five alternatives and why each lost, and its
 * place on the nodes (docs/parallelism.md).
 *
 * The planner reads the workload (the model's shape; the knobs it fixes, lists or leaves open)
 * and the design (the accelerator of the largest node group, its HBM, peak and matmul
 * efficiency; the scale-up domain and its bandwidth; the compute fabric's per-GPU bandwidth,
 * scalable units, pods and oversubscription), searches every plan (plan_search.c) and costs
 * each with the analytical model (plan_model.c). Time to train = ⌈tokens / (global batch ×
 * sequence)⌉ steps; energy to train = the GPUs' share of their nodes' power × PUE over that
 * time; its cost at the site's electricity price.
 *
 * A workload no plan fits is a requirement not met (a Violation, exit 2) that says why with
 * the numbers: the least memory any plan needs against the HBM, or the knob whose values
 * Megatron-LM cannot accept. Placement: rank r on GPU r of the group's nodes in order (GPU
 * slot r mod n of node ⌊r/n⌋), which with Megatron's rank order (TP fastest, then CP, EP, DP,
 * PP) keeps each TP group inside a node or NVLink domain, a DP group on one rail across nodes
 * (the same GPU slot), and consecutive pipeline stages on consecutive nodes, inside a scalable
 * unit where one holds them.
 *
 * plan_attribute is the per-candidate form the choice search calls when a requirement or
 * objective reads a workload attribute; results are memoised over the inputs, so candidates
 * that differ only in racks, cooling or cables plan once.
 */
#include "plan.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double GB = 1e9; /* decimal, as vendors state HBM */

/* A model parameter from transformer(...) or a model declaration: the declaration's fields are
 * the constructor's parameters, in the same order (schema.def). */
static const Value *model_param(const Value *mv, ParamId p)
{
	if (mv->kind != VAL_REF)
		return field_param_value(mv, p);
	FieldId f = (FieldId)(FLD_MODEL_LAYERS + (p - PRM_MODEL_LAYERS));
	INVARIANT(!strcmp(field_schemas[f].name, param_schemas[p].name),
		  "model fields and transformer parameters out of step");
	return field_value(mv->ref, f);
}

/* A number of the model: as written, else the schema's literal default, else `computed` (the
 * default the schema documents as following from other parameters). */
static double mparam(const Value *mv, ParamId p, double computed)
{
	const Value *v = model_param(mv, p);
	if (v && v->kind == VAL_QTY)
		return v->q.v;
	if (v && v->kind == VAL_BOOL)
		return v->b_val;
	return param_schemas[p].dflt.literal ? param_schemas[p].dflt.num : computed;
}

/* An enumeration of the model: as written, else the schema's default. */
static int menum(const Value *mv, ParamId p)
{
	const Value *v = model_param(mv, p);
	if (v && v->kind == VAL_ENUM)
		return v->e;
	INVARIANT(param_schemas[p].dflt.literal, "a model enumeration without a literal default");
	return param_schemas[p].dflt.e;
}

static void read_model(const Value *mv, PlanModel *m)
{
	m->layers = mparam(mv, PRM_MODEL_LAYERS, 1);
	m->hidden = mparam(mv, PRM_MODEL_HIDDEN, 1);
	m->heads = mparam(mv, PRM_MODEL_HEADS, 1);
	m->head_dim = mparam(mv, PRM_MODEL_HEAD_DIM, m->hidden / m->heads);
	m->groups = mparam(mv, PRM_MODEL_QUERY_GROUPS, m->heads);
	m->ffn = mparam(mv, PRM_MODEL_FFN, 4 * m->hidden);
	m->seq = mparam(mv, PRM_MODEL_SEQ, 1);
	m->vocab = mparam(mv, PRM_MODEL_VOCAB, 1);
	m->mats = menum(mv, PRM_MODEL_ACTIVATION) == ACT_SWIGLU ? 3 : 2;
	m->experts = mparam(mv, PRM_MODEL_EXPERTS, 1);
	m->top_k = mparam(mv, PRM_MODEL_TOP_K, 1);
	m->expert_ffn = mparam(mv, PRM_MODEL_EXPERT_FFN, m->ffn);
	m->shared = mparam(mv, PRM_MODEL_SHARED_EXPERTS, 0);
	m->dense_layers = m->experts > 1 ? mparam(mv, PRM_MODEL_DENSE_LAYERS, 0) : m->layers;
	m->norm = menum(mv, PRM_MODEL_NORM);
	m->position = menum(mv, PRM_MODEL_POSITION);
	m->rope_base = mparam(mv, PRM_MODEL_ROPE_BASE, 10000);
	m->tied = mparam(mv, PRM_MODEL_TIED_EMBEDDINGS, 1) != 0;
	m->bias = mparam(mv, PRM_MODEL_BIAS, 1) != 0;
	m->dropout = mparam(mv, PRM_MODEL_DROPOUT, 0.1);
	m->route_nodes = mparam(mv, PRM_MODEL_ROUTE_NODES, 0);
	m->kv_lora = mparam(mv, PRM_MODEL_KV_LORA_RANK, 0);
	m->q_lora = mparam(mv, PRM_MODEL_Q_LORA_RANK, 0);
	m->rope_dim = m->kv_lora > 0 ? mparam(mv, PRM_MODEL_ROPE_HEAD_DIM, 64) : 0;
	m->v_dim = mparam(mv, PRM_MODEL_V_HEAD_DIM, m->head_dim);
	m->qk_norm = mparam(mv, PRM_MODEL_QK_NORM, 0) != 0;
	m->mtp = mparam(mv, PRM_MODEL_MTP_LAYERS, 0);
	const Value *mw = model_param(mv, PRM_MODEL_MTP_LOSS_WEIGHT);
	m->mtp_loss = mw && mw->kind == VAL_QTY ? mw->q.v : 0;
	/* MLA up-projects a key and a value for every head: as many key/value heads as heads. */
	if (m->kv_lora > 0)
		m->groups = m->heads;
}

/* What a workload allows for a whole-number knob. */
static PlanSet knob_set(Design *d, const Decl *w, FieldId field)
{
	const Value *v = field_value(w, field);
	PlanSet s = {.any = true};
	if (!v || v->kind == VAL_AUTO)
		return s;
	s.any = false;
	if (v->kind == VAL_RANGE) {
		s.range = true;
		s.lo = v->lo, s.hi = v->hi, s.step = v->step > 0 ? v->step : 1;
		return s;
	}
	int n = v->kind == VAL_CHOICE ? v->n : 1;
	double *vals = arena_alloc(d->p->c->arena, sizeof(double) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		const Value *it = v->kind == VAL_CHOICE ? v->items[i] : v;
		vals[s.n++] = it && it->kind == VAL_QTY ? it->q.v : -1;
	}
	s.vals = vals;
	return s;
}

/* Allowed values of an enum or bool knob as a bit mask over the enum's constants (bools:
 * false, true). */
static unsigned mask_of(const Decl *w, FieldId field, int n)
{
	const Value *v = field_value(w, field);
	if (!v || v->kind == VAL_AUTO)
		return (1u << n) - 1;
	unsigned mask = 0;
	int k = v->kind == VAL_CHOICE ? v->n : 1;
	for (int i = 0; i < k; i++) {
		const Value *it = v->kind == VAL_CHOICE ? v->items[i] : v;
		if (it && it->kind == VAL_BOOL)
			mask |= 1u << (it->b_val ? 1 : 0);
		if (it && it->kind == VAL_ENUM && it->e >= 0 && it->e < n)
			mask |= 1u << it->e;
	}
	return mask ? mask : (1u << n) - 1;
}

/* The node group the workload runs on: the one with the most accelerators (the first on ties),
 * the group that holds the hot spares (spares.c). */
static int plan_group(const Design *d)
{
	return spares_group(d);
}

static bool node_has_nic(const Part *node, const Part *nic)
{
	for (int i = 0; nic && i < node->node.nnics; i++)
		if (node->node.nics[i].part == nic)
			return true;
	return false;
}

static void read_fabric(const Design *d, const NodeGroup *g, PlanHw *hw)
{
	hw->net_bw = 0;
	for (int i = 0; i < d->nfabrics; i++) {
		const FabricInst *f = &d->fabrics[i];
		field_note(f->reads); /* which fabric is read depends on what each one's sizing read */
		if (!f->sized || !f->family || !node_has_nic(g->type, f->nic) || f->rails <= 0)
			continue;
		hw->net_bw = f->link_speed * f->rails / hw->per_node / 8;
		hw->tree = f->family->tree;
		int nodes = g->count - g->spares, rpp = f->rails / (f->planes > 0 ? f->planes : 1);
		hw->leaf_nodes = f->tiers <= 1 ? nodes
				 : f->rail_optimized && f->su_nodes > 0 ? f->su_nodes
				 : (f->down[0] / (rpp > 0 ? rpp : 1) > 0 ? f->down[0] / (rpp > 0 ? rpp : 1) : 1);
		hw->pod_nodes = f->tiers >= 3 && f->pods > 0 ? (nodes + f->pods - 1) / f->pods : nodes;
		hw->oversub[0] = f->tiers > 1 && f->oversub[0] > 0 ? f->oversub[0] : 1;
		hw->oversub[1] = f->tiers > 2 && f->oversub[1] > 0 ? f->oversub[1] : 1;
		double gpus = (double)nodes * hw->per_node;
		hw->cross_bw = gpus > 1 ? f->bisection / 8 / (gpus / 2) : hw->net_bw;
		hw->net_eff = f->nic->nic.collective_eff;
		hw->sharp = f->family->tree && f->switch_model && f->switch_model->sw.sharp;
		hw->fabric_tiers = f->tiers > 0 ? f->tiers : 1;
		return;
	}
}

bool plan_inputs(Design *d, const Decl *w, PlanModel *m, PlanHw *hw, PlanSpace *sp)
{
	memset(m, 0, sizeof *m);
	memset(hw, 0, sizeof *hw);
	memset(sp, 0, sizeof *sp);
	const Value *mv = field_value(w, FLD_WORKLOAD_MODEL);
	if (!mv || (mv->kind != VAL_CTOR && mv->kind != VAL_REF))
		return false;
	read_model(mv, m);
	m->params = plan_params(m);
	int gi = plan_group(d);
	if (gi < 0)
		return false;
	const NodeGroup *g = &d->groups[gi];
	if (g->type->node.naccels == 0)
		return false;
	const Part *a = g->type->node.accels[0].part;
	hw->accel = a;
	hw->node = g->type;
	hw->per_node = g->type->node.accelerators;
	/* The hot spares are in no plan: a domain's reserved trays neither (spares.c). */
	hw->gpus = (g->count - g->spares) * hw->per_node;
	hw->domain = (g->domain_nodes - g->domain_spares) * hw->per_node;
	hw->peak16 = a->accel.bf16;
	bool fp8 = field_enum(w, FLD_WORKLOAD_PRECISION) == PREC_FP8;
	hw->peak = fp8 ? (isnan(a->accel.fp8) ? 0 : a->accel.fp8) : hw->peak16;
	hw->elem_bytes = fp8 ? 1 : 2;
	hw->gemm_table = a->accel.gemm_table;
	hw->eff_large = fp8 ? a->accel.fp8_matmul_eff : a->accel.matmul_eff;
	hw->eff16 = a->accel.matmul_eff;
	hw->attn_eff = a->accel.attention_eff;
	hw->attn_bwd_eff = a->accel.attention_bwd_eff;
	hw->fp8_cache = fp8 ? (a->accel.fp8_tn_only ? 2 : 1) : 0;
	hw->fp8_current = fp8 && field_bool(w, FLD_WORKLOAD_FP8_CURRENT_SCALING);
	hw->hbm = a->accel.memory;
	hw->hbm_usable = fmax(0, hw->hbm - PLAN_HBM_RESERVE_BYTES);
	/* Without a declared HBM bandwidth, the A100's ops:byte ratio (312 TFLOPS / 2.04 TB/s). */
	hw->hbm_bw = isnan(a->accel.memory_bw) ? hw->peak16 / 153 : a->accel.memory_bw;
	/* Activation offload (plan_model.c): the link to the host and the accelerator's share of
	 * its node's memory. */
	hw->host_bw = a->accel.host_bw;
	hw->host_mem = isnan(g->type->node.memory) ? 0 : g->type->node.memory / hw->per_node;
	double su = isnan(g->type->node.scale_up_bw) ? 0 : g->type->node.scale_up_bw;
	hw->su_bw = su / 8 / 2; /* quoted for both directions together */
	hw->su_eff = a->accel.scale_up_eff;
	hw->nvls = a->accel.scale_up_reduction;
	hw->hep_dispatch_eff = a->accel.hep_dispatch_eff;
	hw->hep_combine_eff = a->accel.hep_combine_eff;
	if (hw->su_bw <= 0)
		hw->domain = 1;
	read_fabric(d, g, hw);
	if (hw->net_bw <= 0) /* no fabric: one scale-up domain is all a job can use */
		hw->gpus = hw->domain < hw->gpus ? hw->domain : hw->gpus;
	if (!hw->tree && hw->cross_bw <= 0)
		hw->cross_bw = hw->net_bw;
	hw->gpu_power = g->type->power / hw->per_node;
	hw->pue = d->t.pue > 0 ? d->t.pue : 1;
	hw->price_per_j = d->electricity;

	static const FieldId knob_fields[KNOB_COUNT] = {
		FLD_WORKLOAD_GPUS, FLD_WORKLOAD_TP, FLD_WORKLOAD_PP, FLD_WORKLOAD_CP,
		FLD_WORKLOAD_EP, FLD_WORKLOAD_MICRO_BATCH, FLD_WORKLOAD_INTERLEAVE};
	for (int k = 0; k < KNOB_COUNT; k++)
		sp->knob[k] = knob_set(d, w, knob_fields[k]);
	sp->recompute = mask_of(w, FLD_WORKLOAD_RECOMPUTE, RC_COUNT);
	/* recompute_modules: selective recomputation of those submodules (rc_modules_conflict
	 * says where Megatron-Core would refuse them). */
	const Value *rm = field_value(w, FLD_WORKLOAD_RECOMPUTE_MODULES);
	for (int i = 0; rm && rm->kind == VAL_LIST && i < rm->n; i++)
		if (rm->items[i] && rm->items[i]->e >= 0)
			sp->rc_modules |= 1u << rm->items[i]->e;
	if (sp->rc_modules)
		sp->recompute &= 1u << RC_SELECTIVE;
	/* recompute_layers: full recomputation of that many layers (rc_layers_conflict). */
	/* Past the model's layers it is refused (rc_layers_conflict): clamped to layers + 1 before
	 * the cast, which a value past INT_MAX would not survive. */
	double rcl;
	sp->rc_layers = field_num_set(w, FLD_WORKLOAD_RECOMPUTE_LAYERS, &rcl)
				? (int)fmin(fmin(rcl, m->layers + 1), INT_MAX)
				: 0;
	sp->rc_uniform = field_enum(w, FLD_WORKLOAD_RECOMPUTE_METHOD) == RCMETH_UNIFORM;
	if (sp->rc_layers && !sp->rc_modules)
		sp->recompute &= 1u << RC_FULL;
	sp->sp = mask_of(w, FLD_WORKLOAD_SEQUENCE_PARALLEL, 2);
	sp->dopt = mask_of(w, FLD_WORKLOAD_DISTRIBUTED_OPTIMIZER, 2);
	sp->batch = (int)field_num(w, FLD_WORKLOAD_GLOBAL_BATCH);
	sp->min_cp_tokens = 1024;
	sp->flash = field_bool(w, FLD_WORKLOAD_FLASH_ATTENTION);
	sp->fsdp = mask_of(w, FLD_WORKLOAD_FSDP, 2);
	sp->zero2 = mask_of(w, FLD_WORKLOAD_SHARD_GRADIENTS, 2);
	double cf;
	sp->capacity = field_num_set(w, FLD_WORKLOAD_CAPACITY_FACTOR, &cf) ? cf : 0;
	sp->fold = field_bool(w, FLD_WORKLOAD_PARALLEL_FOLDING);
	sp->fp8_dispatch = field_bool(w, FLD_WORKLOAD_FP8_DISPATCH);
	sp->hybrid_ep = field_enum(w, FLD_WORKLOAD_EP_DISPATCHER) == EPD_HYBRIDEP;
	sp->dualpipe = field_enum(w, FLD_WORKLOAD_PIPELINE_SCHEDULE) == PPS_DUALPIPE;
	double off;
	sp->offload = field_num_set(w, FLD_WORKLOAD_OFFLOAD_LAYERS, &off) ? (int)off : -1;
	double fl, ll;
	sp->first_layers = field_num_set(w, FLD_WORKLOAD_PIPELINE_FIRST_LAYERS, &fl) ? (int)fl : 0;
	sp->last_layers = field_num_set(w, FLD_WORKLOAD_PIPELINE_LAST_LAYERS, &ll) ? (int)ll : 0;
	sp->overlap_dp = mask_of(w, FLD_WORKLOAD_OVERLAP_DP, 2);
	sp->overlap_tp = mask_of(w, FLD_WORKLOAD_OVERLAP_TP, 2);
	sp->overlap_pp = mask_of(w, FLD_WORKLOAD_OVERLAP_PP, 2);
	sp->overlap_ep = mask_of(w, FLD_WORKLOAD_OVERLAP_EP, 2);
	sp->cp_comm = mask_of(w, FLD_WORKLOAD_CP_COMM, CPC_COUNT);
	sp->grad16 = field_bool(w, FLD_WORKLOAD_GRAD_REDUCE_BF16);
	sp->opt16 = field_bool(w, FLD_WORKLOAD_OPTIMIZER_BF16);
	sp->fp8p = hw->fp8_cache > 0 && field_bool(w, FLD_WORKLOAD_FP8_PARAMS);
	sp->swiglu8 = field_bool(w, FLD_WORKLOAD_SWIGLU_FP8_INPUT);
	return hw->per_node > 0 && hw->peak > 0;
}

/* ---- the per-candidate form ---------------------------------------------------------------- */

/* Every planner input searched once per build: the optimizer asks about the same workload on
 * the same hardware for many candidates (an open-addressing table keyed by the workload and
 * what the search reads, grown at half full; a fixed ring of 64 evicted and re-searched). */
typedef struct PlanMemoEntry {
	const Decl *w; /* NULL: empty */
	PlanHw hw;
	PlanResult r;
	double steps;
} PlanMemoEntry;

typedef struct PlanMemo {
	PlanMemoEntry *e;
	int cap, n; /* cap a power of 2 */
} PlanMemo;

/* FNV-1a over the workload's address and the key's bytes (memcmp compares the same bytes). */
static unsigned long memo_hash(const Decl *w, const PlanHw *key)
{
	unsigned long h = 1469598103934665603ul;
	const unsigned char *p = (const unsigned char *)&w;
	for (size_t i = 0; i < sizeof w; i++)
		h = (h ^ p[i]) * 1099511628211ul;
	p = (const unsigned char *)key;
	for (size_t i = 0; i < sizeof *key; i++)
		h = (h ^ p[i]) * 1099511628211ul;
	return h;
}

static PlanMemoEntry *memo_slot(PlanMemo *m, const Decl *w, const PlanHw *key)
{
	unsigned long mask = (unsigned long)m->cap - 1;
	for (unsigned long i = memo_hash(w, key) & mask;; i = (i + 1) & mask) {
		PlanMemoEntry *e = &m->e[i];
		if (!e->w || (e->w == w && !memcmp(&e->hw, key, sizeof *key)))
			return e;
	}
}

static void memo_grow(Arena *a, PlanMemo *m)
{
	PlanMemo bigger = {arena_alloc(a, sizeof(PlanMemoEntry) * (size_t)(m->cap ? 2 * m->cap : 64)),
			   m->cap ? 2 * m->cap : 64, m->n};
	for (int i = 0; i < m->cap; i++)
		if (m->e[i].w)
			*memo_slot(&bigger, m->e[i].w, &m->e[i].hw) = m->e[i];
	*m = bigger;
}

void plan_modules_text(Buf *b, unsigned modules, const char *lead, const char *sep)
{
	for (int j = 0, n = 0; j < RCM_COUNT; j++)
		if (modules & (1u << j))
			buf_printf(b, "%s%s", n++ ? sep : lead, enum_RECOMPUTE_MODULE.words[j]);
}

static double train_steps(const Decl *w, const PlanModel *m, const PlanSpace *sp)
{
	return ceil(field_num(w, FLD_WORKLOAD_TOKENS) / ((double)sp->batch * m->seq));
}

/* What Megatron-Core rejects with its flex dispatcher on HybridEP (ep_dispatcher = hybridep):
 * padding experts to capacity ("Flex token dispatcher does not support
 * moe_pad_expert_input_to_capacity", transformer_config.py __post_init__) and an FP8 dispatch
 * ("HybridEP dispatcher does not support fp8 dispatch now", fused_a2a.py at 02ad939). The
 * field that asks for it into *at, or NULL. */
static const char *hybrid_ep_conflict(const Decl *w, const PlanSpace *sp, FieldId *at)
{
	if (!sp->hybrid_ep)
		return NULL;
	if (sp->capacity > 0) {
		*at = FLD_WORKLOAD_CAPACITY_FACTOR;
		return "capacity_factor pads each expert's tokens to capacity, which Megatron-Core's "
		       "flex dispatcher does not support (--moe-pad-expert-input-to-capacity)";
	}
	if (sp->fp8_dispatch && field_enum(w, FLD_WORKLOAD_PRECISION) == PREC_FP8) {
		*at = FLD_WORKLOAD_FP8_DISPATCH;
		return "fp8_dispatch sends the dispatch in FP8, which HybridEP does not support in "
		       "Megatron-Core";
	}
	return NULL;
}

static Loc field_loc(const Decl *w, FieldId field)
{
	const Value *v = field_value(w, field);
	return v ? v->loc : w->name_loc;
}

/* What DualPipe (pipeline_schedule = dualpipe) cannot take: a pipeline that is not even, as
 * its ranks pair up, stage i with p − 1 − i ("assert num_ranks % 2 == 0": deepseek-ai/DualPipe
 * dualpipe/dualpipe.py at bb214e8, DualPipe.step), so no pp = 1 either; interleaving, which it
 * has not (one pair of modules a rank); and what needs pp = 1 in Megatron-LM (offload_layers,
 * fsdp). The field at fault into *at, or NULL. */
static const char *dualpipe_conflict(Design *d, const Decl *w, const PlanSpace *sp, FieldId *at)
{
	if (!sp->dualpipe)
		return NULL;
	Arena *ar = d->p->c->arena;
	const PlanSet *pp = &sp->knob[KNOB_PP];
	/* A single fixed value is tested directly (an oversized one is the layer split's error);
	 * otherwise some even size the set allows, up to the sizes a pipeline can take. */
	bool one = !pp->any && !pp->range && pp->n == 1;
	if (one && fmod(pp->vals[0], 2) != 0) {
		*at = FLD_WORKLOAD_PP;
		return arena_printf(ar, "pp = %g: DualPipe pairs the pipeline's ranks, stage i with "
					"stage pp - 1 - i, so pp is even (deepseek-ai/DualPipe, "
					"DualPipe.step)",
				    pp->vals[0]);
	}
	bool even = one;
	for (int p = 2; p <= 4096 && !even; p += 2)
		even = plan_set_allows(pp, p);
	if (!even) {
		*at = field_value(w, FLD_WORKLOAD_PP) ? FLD_WORKLOAD_PP : FLD_WORKLOAD_PIPELINE_SCHEDULE;
		return "no pipeline size pp allows is even: DualPipe pairs the pipeline's ranks, "
		       "stage i with stage pp - 1 - i";
	}
	const PlanSet *v = &sp->knob[KNOB_V];
	if (!v->any && !plan_set_allows(v, 1)) {
		*at = FLD_WORKLOAD_INTERLEAVE;
		return "DualPipe has no interleaving: each rank holds two stages, one of each "
		       "direction (interleave = 1)";
	}
	if (sp->offload > 0) {
		*at = FLD_WORKLOAD_OFFLOAD_LAYERS;
		return "activation offload needs pp = 1, and DualPipe a pipeline";
	}
	if (!(sp->fsdp & 1u)) {
		*at = FLD_WORKLOAD_FSDP;
		return "FSDP runs without a pipeline (--use-torch-fsdp2), and DualPipe needs one";
	}
	return NULL;
}

/* Why a workload's recompute_modules cannot run as listed, the item (or field) at fault into
 * *at; NULL when they can. Megatron-Core's TransformerConfig refuses mla_up_proj without MLA
 * ("mla_up_proj in recompute_modules is only supported with multi_latent_attention"), and
 * moe_act and layernorm under FP8 delayed scaling ("Delayed scaling does not support moe_act
 * and layernorm recompute for fp8"; megatron/core/transformer/transformer_config.py at
 * 002526d, __post_init__); a module the model does not have (moe_act, moe, shared_experts
 * without experts or shared experts, mlp without a dense layer, layernorm where every norm is
 * fused into its linear layer: plan_model.c, "selective recomputation by module") recomputes
 * nothing, which Megatron-Core passes over silently and this refuses as a mistake; the
 * modules are selective recomputation's, so recompute must allow selective. */
static const char *rc_modules_conflict(const Decl *w, const PlanModel *m, const PlanSpace *sp,
				       Loc *at)
{
	const Value *rm = field_value(w, FLD_WORKLOAD_RECOMPUTE_MODULES);
	if (!rm || rm->kind != VAL_LIST)
		return NULL;
	*at = rm->loc;
	if (rm->n == 0)
		return "recompute_modules lists no module: list at least one module; without the "
		       "field selective recomputes core_attn";
	if (!sp->recompute) {
		*at = field_loc(w, FLD_WORKLOAD_RECOMPUTE);
		return "recompute_modules are the submodules of selective recomputation, which "
		       "recompute does not allow here";
	}
	bool delayed = field_enum(w, FLD_WORKLOAD_PRECISION) == PREC_FP8 &&
		       !field_bool(w, FLD_WORKLOAD_FP8_CURRENT_SCALING);
	bool moe = m->experts > 1;
	unsigned seen = 0;
	for (int i = 0; i < rm->n; i++) {
		const Value *it = rm->items[i];
		if (!it || it->e < 0)
			continue;
		*at = it->loc;
		if (seen & (1u << it->e))
			return "this module is listed twice";
		seen |= 1u << it->e;
		switch ((RecomputeModule)it->e) {
		case RCM_MLA_UP_PROJ:
			if (m->kv_lora <= 0)
				return "mla_up_proj recomputes MLA's up-projections, and the model has no "
				       "kv_lora_rank (Megatron-Core: \"only supported with "
				       "multi_latent_attention\")";
			break;
		case RCM_MOE_ACT:
			if (!moe)
				return "moe_act recomputes the routed experts' activation, and the model "
				       "has no experts";
			break;
		case RCM_MOE:
			if (!moe)
				return "moe recomputes the MoE layers, and the model has no experts";
			break;
		case RCM_SHARED_EXPERTS:
			if (!moe || m->shared <= 0)
				return "shared_experts recomputes an MoE layer's shared experts, and the "
				       "model has none";
			break;
		case RCM_MLP:
			if (moe && m->dense_layers <= 0)
				return "mlp recomputes the dense layers' FFN, and every layer of the model "
				       "is an MoE layer (moe or moe_act recompute those)";
			break;
		case RCM_LAYERNORM:
			if (!moe && m->kv_lora <= 0)
				return "layernorm recomputes the norms that are modules of their own (MLA's "
				       "input norm, an MoE layer's pre-MLP norm); this model's norms are "
				       "fused into its linear layers, so it would recompute nothing";
			break;
		default: break;
		}
		if ((it->e == RCM_MOE_ACT || it->e == RCM_LAYERNORM) && delayed)
			return "Megatron-Core recomputes moe_act and layernorm under FP8 only with "
			       "current scaling (\"Delayed scaling does not support moe_act and "
			       "layernorm recompute for fp8\"): set fp8_current_scaling = true";
	}
	return NULL;
}

/* Why a workload's swiglu_fp8_input does nothing, the field into *at; NULL when it does
 * something. Megatron-Core stores the activation's input in FP8 only in its fused SwiGLU
 * (bias_swiglu_impl and weighted_bias_swiglu_impl take activation_func_fp8_input_store,
 * megatron/core/fusions/fused_bias_swiglu.py at 00caa53; the fused GeLU takes no such flag), so
 * on a GeLU model the flag is passed over silently, which this refuses as a mistake. */
static const char *swiglu8_conflict(const Decl *w, const PlanModel *m, Loc *at)
{
	if (!field_bool(w, FLD_WORKLOAD_SWIGLU_FP8_INPUT) || m->mats > 2)
		return NULL;
	*at = field_loc(w, FLD_WORKLOAD_SWIGLU_FP8_INPUT);
	return "swiglu_fp8_input keeps the SwiGLU's input in FP8, and the model's activation is "
	       "not swiglu (Megatron-Core's fused GeLU keeps its input in BF16 whatever the flag)";
}

/* Where Megatron-Core would refuse the workload's recompute_layers or recompute_method (their
 * rules: transformer_config.py at d2c5e8b, __post_init__ and its field notes): the method
 * without a count ("recompute_method must be None" unless full); a count with selective
 * recomputation ("recompute_num_layers must be None") or without full recomputation allowed.
 * And where it would fail or we refuse (plan_rc_layers_ok): a count past the model's layers,
 * or, with the pipeline fixed, past the largest virtual stage of every split the pipeline
 * allows (block: our own bound, Megatron-Core has none), or uniform groups that tile no such
 * split's virtual stages (Megatron-Core's loop runs past the last layer). NULL when none. */
static const char *rc_layers_conflict(const Decl *w, const PlanModel *m, const PlanSpace *sp,
				      Arena *ar, Loc *at)
{
	bool method = field_value(w, FLD_WORKLOAD_RECOMPUTE_METHOD) != NULL;
	if (!sp->rc_layers) {
		*at = field_loc(w, FLD_WORKLOAD_RECOMPUTE_METHOD);
		return method ? "recompute_method chooses the layers recompute_layers counts; "
				"set recompute_layers too (unset, the search recomputes the fewest "
				"layers of each virtual stage that fit, in a block)"
			      : NULL;
	}
	*at = field_loc(w, FLD_WORKLOAD_RECOMPUTE_LAYERS);
	if (sp->rc_modules)
		return "recompute_layers counts layers of full recomputation and recompute_modules "
		       "are selective recomputation's: set one (Megatron-Core: recompute_num_layers "
		       "must be None with selective recomputation)";
	if (!sp->recompute) {
		*at = field_loc(w, FLD_WORKLOAD_RECOMPUTE);
		return "recompute_layers counts layers of full recomputation, which recompute does "
		       "not allow here";
	}
	if (sp->rc_layers > m->layers) /* plan_inputs clamps the count to layers + 1 */
		return arena_printf(ar, "recompute_layers = %.15g is more than the model's %g layers",
				    field_num(w, FLD_WORKLOAD_RECOMPUTE_LAYERS), m->layers);
	const PlanSet *pp = &sp->knob[KNOB_PP], *v = &sp->knob[KNOB_V];
	/* Interleaving unfixed: 1, whose virtual stages every other's tile (uniform) and are the
	 * largest (block). Every pipeline size the set allows, each with every split its fixed
	 * first/last layers allow: the count is an error where none takes it, whatever the
	 * cluster (a pipeline longer than the model has no split). */
	bool one = !pp->any && !pp->range && pp->n == 1;
	int vv = !v->any && !v->range && v->n == 1 ? (int)v->vals[0] : 1, p = 0;
	double n = 0; /* the largest virtual stage of any split */
	int nsplits = 0;
	for (int q = 1; q <= (int)m->layers; q++) {
		if (one ? q != (int)pp->vals[0] : !plan_set_allows(pp, q))
			continue;
		int split[PLAN_SPLITS][2];
		int ns = plan_splits(m, q, sp->first_layers, sp->last_layers, split, PLAN_SPLITS);
		PlanConfig c = {.pp = q, .v = vv, .recompute = RC_FULL, .rc_layers = sp->rc_layers,
				.rc_uniform = sp->rc_uniform};
		for (int i = 0; i < ns; i++) {
			c.first = split[i][0], c.last = split[i][1];
			if (plan_rc_layers_ok(m, &c))
				return NULL;
			n = fmax(n, plan_chunk_layers(m, &c));
		}
		nsplits += ns, p = q;
	}
	if (nsplits == 0) /* the layer split's own error (space_conflict) */
		return NULL;
	if (!one) {
		const char *rule = sp->rc_uniform
					   ? "its uniform groups must tile every virtual stage, the first and "
					     "last included (transformer_block.py's _checkpointed_forward)"
					   : arena_printf(ar, "a block is at most the largest virtual stage's "
							      "layers, %g at most here", n);
		return arena_printf(ar, "recompute_layers = %d: no pipeline size pp allows takes it: %s",
				    sp->rc_layers, rule);
	}
	const char *at_pp = arena_printf(ar, "pp = %d%s", p,
					 vv > 1 ? arena_printf(ar, ", interleave = %d", vv) : "");
	if (!sp->rc_uniform)
		return arena_printf(ar, "recompute_layers = %d is more than the largest virtual "
					"stage's %g layers at %s (a block recomputes at most a "
					"virtual stage)",
				    sp->rc_layers, n, at_pp);
	bool even = sp->first_layers <= 0 && sp->last_layers <= 0 && fmod(m->layers, p) == 0;
	return arena_printf(ar, "uniform groups of %d layers do not tile %s at %s%s "
				"(transformer_block.py's _checkpointed_forward checkpoints whole "
				"groups of each virtual stage's layers)",
			    sp->rc_layers,
			    even ? arena_printf(ar, "a virtual stage's %g layers", m->layers / p / vv)
				 : "every virtual stage",
			    at_pp, even ? "" : ", the first and last stages' included");
}

/* Whether set s allows (plan_set_allows) some whole value x in 1..max that ok takes (max: past
 * it ok takes none). */
static bool set_some(const PlanSet *s, double max, bool (*ok)(const PlanModel *, const PlanSpace *,
							      double),
		     const PlanModel *m, const PlanSpace *sp)
{
	for (double x = 1; x <= max; x++)
		if (plan_set_allows(s, x) && ok(m, sp, x))
			return true;
	return false;
}

/* The rules of the search's candidates (plan_search.c, candidates) that read no hardware: TP
 * divides the heads, query groups, FFN and expert FFN sizes (plan_tp_model_ok); PP
 * splits the layers (plan_splits); CP is 1 or 2 x CP divides the sequence (plan_cp_ok); EP
 * divides the experts; the micro-batch divides the global batch. */
static bool tp_model_ok(const PlanModel *m, const PlanSpace *sp, double t)
{
	(void)sp;
	return plan_tp_model_ok(m, (int)t);
}
static bool pp_splits(const PlanModel *m, const PlanSpace *sp, double p)
{
	int split[PLAN_SPLITS][2];
	return plan_splits(m, (int)p, sp->first_layers, sp->last_layers, split, PLAN_SPLITS) > 0;
}
static bool pp_layout(const PlanModel *m, const PlanSpace *sp, double p)
{
	return p >= 2 && pp_splits(m, sp, p);
}
static bool cp_ok(const PlanModel *m, const PlanSpace *sp, double c)
{
	(void)sp;
	return plan_cp_ok(m, (int)c);
}
static bool ep_ok(const PlanModel *m, const PlanSpace *sp, double e)
{
	(void)sp;
	return fmod(fmax(1, m->experts), e) == 0;
}
static bool micro_ok(const PlanModel *m, const PlanSpace *sp, double b)
{
	(void)m;
	return fmod(sp->batch, b) == 0;
}

/* Whether s is one fixed value (the diagnostics name it). */
static bool one_value(const PlanSet *s)
{
	return !s->any && !s->range && s->n == 1;
}

/* ---- the workload's joint contradictions (space_conflict's last rules) -------------------- */

/* The values of the whole-number knobs the search's candidates take whatever the cluster
 * (plan_search.c, candidates, without the GPU count and the scale-up domain), each filtered by
 * the workload's set and the model: TP dividing the model's sizes, CP with 2 x CP dividing the
 * sequence (at least min_cp_tokens a rank when searched), EP dividing the experts, PP splitting
 * the layers (even under DualPipe) with its splits, DP dividing the global batch. */
typedef struct Knobs {
	int *tp, *cp, *ep, *pp, *dp;
	int ntp, ncp, nep, npp, ndp;
	int (*split)[PLAN_SPLITS][2]; /* by PP index */
	int *nsplit;
} Knobs;

/* The divisors of n that keep(x) takes, into *out (malloc'ed); how many. */
static int divisors_kept(int n, int **out, bool (*keep)(const PlanModel *, const PlanSpace *, int),
			 const PlanModel *m, const PlanSpace *sp)
{
	int nd = plan_divisors(n, out), k = 0;
	for (int i = 0; i < nd; i++)
		if (keep(m, sp, (*out)[i]))
			(*out)[k++] = (*out)[i];
	return k;
}
static bool tp_kept(const PlanModel *m, const PlanSpace *sp, int t)
{
	return plan_tp_model_ok(m, t) && plan_set_allows(&sp->knob[KNOB_TP], t);
}
static bool cp_kept(const PlanModel *m, const PlanSpace *sp, int c)
{
	return plan_cp_ok(m, c) && plan_set_allows(&sp->knob[KNOB_CP], c) &&
	       (!sp->knob[KNOB_CP].any || c == 1 || m->seq / c >= sp->min_cp_tokens);
}
static bool ep_kept(const PlanModel *m, const PlanSpace *sp, int e)
{
	(void)m;
	return plan_set_allows(&sp->knob[KNOB_EP], e);
}
static bool any_kept(const PlanModel *m, const PlanSpace *sp, int x)
{
	(void)m, (void)sp, (void)x;
	return true;
}

/* (By divisors, as the search's candidates: a seq or global_batch in the billions is a few
 * thousand of them.) */
static void knobs_of(const PlanModel *m, const PlanSpace *sp, Knobs *k)
{
	int L = (int)m->layers;
	*k = (Knobs){0};
	k->ntp = divisors_kept((int)m->heads, &k->tp, tp_kept, m, sp);
	k->ncp = divisors_kept((int)m->seq, &k->cp, cp_kept, m, sp);
	k->nep = divisors_kept((int)fmax(1, m->experts), &k->ep, ep_kept, m, sp);
	k->ndp = divisors_kept(sp->batch, &k->dp, any_kept, m, sp);
	k->pp = xmalloc(sizeof(int) * (size_t)(L + 1));
	k->split = xmalloc(sizeof *k->split * (size_t)(L + 1));
	k->nsplit = xmalloc(sizeof(int) * (size_t)(L + 1));
	for (int p = 1; p <= L; p++) {
		if ((sp->dualpipe && p % 2) || !plan_set_allows(&sp->knob[KNOB_PP], p))
			continue;
		int n = plan_splits(m, p, sp->first_layers, sp->last_layers, k->split[k->npp],
				    PLAN_SPLITS);
		if (n > 0)
			k->nsplit[k->npp] = n, k->pp[k->npp++] = p;
	}
}

static void knobs_free(Knobs *k)
{
	free(k->tp);
	free(k->cp);
	free(k->ep);
	free(k->pp);
	free(k->dp);
	free(k->split);
	free(k->nsplit);
}

/* The search's configuration of split i of PP index ip at interleaving v (plan_search: the
 * first and last stages' layers 0 where the split is even). */
static PlanConfig split_config(const PlanModel *m, const PlanSpace *sp, const Knobs *k, int ip,
			       int i, int v)
{
	int L = (int)m->layers, pp = k->pp[ip], *s = k->split[ip][i];
	bool even = pp == 1 || (L % pp == 0 && s[0] == L / pp && s[1] == L / pp);
	return (PlanConfig){.pp = pp, .v = v, .first = even ? 0 : s[0], .last = even ? 0 : s[1],
			    .dualpipe = sp->dualpipe, .rc_layers = sp->rc_layers,
			    .rc_uniform = sp->rc_uniform, .batch = sp->batch};
}

/* Whether the search takes interleaving v on split i of PP index ip by the layers alone: 1, or
 * a pipeline (not DualPipe) whose stages v divides (the middle ones' with an uneven split,
 * plan_uneven_interleave_ok), at most a stage's layers. */
static bool v_layers_ok(const PlanModel *m, const PlanSpace *sp, const Knobs *k, int ip, int i,
			int v)
{
	int L = (int)m->layers, pp = k->pp[ip];
	if (v == 1)
		return true;
	if (pp == 1 || sp->dualpipe || v > (L + pp - 1) / pp)
		return false;
	PlanConfig c = split_config(m, sp, k, ip, i, v);
	return c.first == 0 && c.last == 0 ? (L / pp) % v == 0 : plan_uneven_interleave_ok(m, &c, v);
}

/* Whether some recomputation the workload allows takes the plan c (its pp, split and v):
 * recompute_layers where fixed (plan_rc_layers_ok) and a fixed offload (plan_offload_ok, with
 * a host link: that is the cluster's). */
static bool rc_some(const PlanModel *m, const PlanSpace *sp, PlanConfig c)
{
	PlanHw linked = {.host_bw = 1};
	for (int r = 0; r < RC_COUNT; r++) {
		if (!(sp->recompute & (1u << r)))
			continue;
		c.recompute = r;
		if ((sp->offload <= 0 || plan_offload_ok(m, &linked, &c, sp->offload)) &&
		    plan_rc_layers_ok(m, &c))
			return true;
	}
	return false;
}

/* Whether PP index ip with data parallelism dp has a plan by the rules that read neither TP,
 * CP nor EP: an allowed micro-batch dividing the batch's share, DualPipe's even count of at
 * least 2 x PP micro-batches, and an interleaving some split takes (with the micro-batches a
 * multiple of PP when above 1) with a recomputation. */
static bool pp_dp_ok(const PlanModel *m, const PlanSpace *sp, const Knobs *k, int ip, int dp)
{
	int pp = k->pp[ip], local = sp->batch / dp, vmax = ((int)m->layers + pp - 1) / pp;
	for (int j = 0; j < k->ndp && k->dp[j] <= local; j++) { /* b: a divisor of the batch */
		int b = k->dp[j];
		if (local % b || !plan_set_allows(&sp->knob[KNOB_MICRO], b))
			continue;
		int mb = local / b;
		if (sp->dualpipe && (mb % 2 || mb < 2 * pp))
			continue;
		for (int i = 0; i < k->nsplit[ip]; i++)
			for (int v = 1; v <= vmax; v++)
				if (plan_set_allows(&sp->knob[KNOB_V], v) &&
				    (v == 1 || mb % pp == 0) && v_layers_ok(m, sp, k, ip, i, v) &&
				    rc_some(m, sp, split_config(m, sp, k, ip, i, v)))
					return true;
	}
	return false;
}

/* Whether some exchange of K and V the workload allows works at TP tp and CP cp (plan_model.c,
 * plan_layer_ops: all_to_all needs the TP rank's heads and groups divisible by CP; p2p, the
 * default, and all_gather always work). */
static bool cp_exchange_ok(const PlanModel *m, const PlanSpace *sp, int tp, int cp)
{
	unsigned cpc = sp->cp_comm ? sp->cp_comm : 1u << CPC_P2P;
	if (cp <= 1 || (cpc & ((1u << CPC_P2P) | (1u << CPC_ALL_GATHER))))
		return true;
	double hpr = m->heads / tp, gpr = (m->kv_lora > 0 ? m->heads : m->groups) / tp;
	return (cpc & (1u << CPC_A2A)) && fmod(hpr, cp) == 0 && fmod(gpr, cp) == 0;
}

/* Whether some sequence parallelism and some sharding the workload allows are plans at TP tp,
 * EP ep, PP pp over dc = DP x CP ranks (plan_search's loops over SP and o). */
static bool sp_shard_ok(const PlanSpace *sp, int tp, int ep, int pp, int dc)
{
	bool s_ok = false;
	for (int s = 0; s < 2; s++)
		s_ok |= (sp->sp & (1u << s)) && !(s && tp == 1 && (sp->sp & 1u)) &&
			!(!s && tp > 1 && ep > 1);
	if (!s_ok)
		return false;
	for (int o = 0; o < 4; o++) {
		if (o < 2 && (!(sp->dopt & (1u << o)) || (o && dc == 1 && (sp->dopt & 1u)) ||
			      !(sp->fsdp & 1u) || !(sp->zero2 & 1u)))
			continue;
		if (o == 2 && (!(sp->fsdp & 2u) || pp > 1 || dc == 1 || !(sp->zero2 & 1u)))
			continue;
		/* (The search passes ZeRO-2 over where ZeRO-1 fits: a plan then.) */
		if (o == 3 && (!(sp->zero2 & 2u) || !(sp->dopt & 2u) || !(sp->fsdp & 1u) || dc == 1))
			continue;
		return true;
	}
	return false;
}

/* Whether the search would count some plan of the workload valid on some cluster: every rule
 * of plan_search that reads neither the GPU count, the scale-up domain nor the host link (a
 * cluster can have any of them), the product TP x PP x CP x DP among the GPU counts the
 * workload allows and EP dividing CP x DP (TP x CP x DP with parallel_folding) included. */
static bool some_plan(const PlanModel *m, const PlanSpace *sp)
{
	Knobs k;
	knobs_of(m, sp, &k);
	unsigned char *memo = xmalloc((size_t)(k.npp * k.ndp + 1)); /* pp_dp_ok: 0 unknown */
	memset(memo, 0, (size_t)(k.npp * k.ndp + 1));
	bool found = false;
	for (int a = 0; a < k.ntp && !found; a++)
	for (int b = 0; b < k.ncp && !found; b++) {
		int tp = k.tp[a], cp = k.cp[b];
		if (!cp_exchange_ok(m, sp, tp, cp))
			continue;
		for (int e = 0; e < k.nep && !found; e++)
		for (int p = 0; p < k.npp && !found; p++)
		for (int d = 0; d < k.ndp && !found; d++) {
			int ep = k.ep[e], pp = k.pp[p], dp = k.dp[d];
			if (fmod((double)dp * cp * (sp->fold ? tp : 1), ep) != 0 ||
			    !plan_set_allows(&sp->knob[KNOB_GPUS], (double)tp * cp * pp * dp) ||
			    !sp_shard_ok(sp, tp, ep, pp, dp * cp))
				continue;
			unsigned char *s = &memo[p * k.ndp + d];
			if (!*s)
				*s = pp_dp_ok(m, sp, &k, p, dp) ? 1 : 2;
			found = *s == 1;
		}
	}
	free(memo);
	knobs_free(&k);
	return found;
}

/* The values v[0..n) as text: all of them up to 12, else the first 10 and how many more. */
static const char *int_list(Arena *ar, const int *v, int n)
{
	Buf b = {0};
	for (int i = 0; i < n && (n <= 12 || i < 10); i++)
		buf_printf(&b, "%s%d", i ? ", " : "", v[i]);
	if (n > 12)
		buf_printf(&b, " and %d more", n - 10);
	const char *s = arena_printf(ar, "%s", b.s ? b.s : "none");
	buf_free(&b);
	return s;
}

/* The DP sizes of k at which some micro-batch the workload allows divides the batch's share,
 * into dp; how many. */
static int dp_with_micro(const PlanSpace *sp, const Knobs *k, int *dp)
{
	int n = 0;
	for (int i = 0; i < k->ndp; i++)
		for (int j = 0; j < k->ndp && k->dp[j] <= sp->batch / k->dp[i]; j++)
			if ((sp->batch / k->dp[i]) % k->dp[j] == 0 &&
			    plan_set_allows(&sp->knob[KNOB_MICRO], k->dp[j])) {
				dp[n++] = k->dp[i];
				break;
			}
	return n;
}

/* Megatron-LM's rules a plan of the workload's values meets (some_plan's), for the diagnostics
 * of the joint contradictions: those of every plan, and those the workload's fields bring. */
static const char *rules_text(Arena *ar, const PlanModel *m, const PlanSpace *sp)
{
	Buf b = {0};
	buf_printf(&b, "TP x PP x CP x DP GPUs, the global batch of %d divisible by micro-batch x "
		       "DP, interleaving dividing the layers of a stage and needing micro-batches in "
		       "multiples of PP",
		   sp->batch);
	if (m->experts > 1)
		buf_printf(&b, ", EP dividing %s, sequence parallelism where TP and EP are both "
			       "above 1",
			   sp->fold ? "TP x CP x DP (parallel_folding)" : "CP x DP");
	if (sp->dualpipe)
		buf_puts(&b, ", DualPipe: an even PP, no interleaving, an even number of "
			     "micro-batches, at least 2 x PP");
	if (sp->first_layers > 0 || sp->last_layers > 0)
		buf_puts(&b, ", pipeline_first_layers and pipeline_last_layers: a pipeline");
	if (sp->offload > 0)
		buf_puts(&b, ", offload_layers: no pipeline, no recomputation");
	if (sp->rc_layers > 0)
		buf_puts(&b, ", recompute_layers: taken by a virtual stage");
	if (sp->fsdp == 2u)
		buf_puts(&b, ", FSDP: no pipeline, DP x CP above 1");
	if (sp->zero2 == 2u)
		buf_puts(&b, ", shard_gradients: DP x CP above 1");
	if (sp->cp_comm == 1u << CPC_A2A)
		buf_puts(&b, ", cp_comm = a2a: the TP rank's heads and query groups divisible by CP");
	const char *t = arena_printf(ar, "%s", b.s);
	buf_free(&b);
	return t;
}

/* The subject of a diagnostic on knob NAME (set s): "NAME = V VERB_ONE" for one value, else
 * "no value NAME allows (the values vals[0..n) the model leaves it) VERB_ANY". */
static const char *knob_says(Arena *ar, const PlanSet *s, const char *name, const int *vals,
			     int n, const char *verb_one, const char *verb_any)
{
	if (one_value(s))
		return arena_printf(ar, "%s = %g %s", name, s->vals[0], verb_one);
	return arena_printf(ar, "no value %s allows%s %s", name,
			    vals ? arena_printf(ar, " (%s)", int_list(ar, vals, n)) : "", verb_any);
}

/* The joint contradictions of the workload's knobs (issue 20): where the search's rules that
 * read no cluster (some_plan) leave no plan, the field at fault into *at and why; NULL when
 * some plan is left. In order: EP dividing no CP x DP (TP x CP x DP folded) of the allowed
 * values; an interleaving no allowed pipeline and split takes, by the layers, then by the
 * micro-batches; a GPU count no product TP x PP x CP x DP of the allowed values makes; then
 * the first of gpus, interleave and ep whose values, left open, would leave a plan; else the
 * workload as a whole. */
/* A two-valued knob's setting as the workload wrote it (PlanSpace's bits: 1 false allowed, 2 true
 * allowed, 3 open): `yes` or `no`, NULL when left open. */
static const char *bool_subject(unsigned set, const char *yes, const char *no)
{
	return set != 3u ? (set & 2u ? yes : no) : NULL;
}

static const char *joint_conflict(const Decl *w, const PlanModel *m, const PlanSpace *sp,
				  Arena *ar, Loc *at)
{
	if (some_plan(m, sp))
		return NULL;
	Knobs k;
	knobs_of(m, sp, &k);
	int *dp = xmalloc(sizeof(int) * (size_t)(k.ndp + 1));
	int ndp = dp_with_micro(sp, &k, dp);
	const char *why = NULL;
	const PlanSet *ep = &sp->knob[KNOB_EP], *v = &sp->knob[KNOB_V], *g = &sp->knob[KNOB_GPUS];
	const char *dps = ndp <= 12 ? int_list(ar, dp, ndp)
				    : arena_printf(ar, "dividing the global batch of %d sequences",
						   sp->batch);
	/* EP: Megatron-Core carves the expert-parallel groups out of TP x CP x DP (EP x ETP
	 * divides it; ETP = TP unless parallel_folding, ETP = 1 with it:
	 * megatron/core/parallel_state.py, initialize_model_parallel's expert decomposition). */
	bool ep_ok = false;
	for (int e = 0; e < k.nep && !ep_ok; e++)
		for (int a = 0; a < k.ntp && !ep_ok; a++)
			for (int b = 0; b < k.ncp && !ep_ok; b++)
				for (int d = 0; d < ndp && !ep_ok; d++)
					ep_ok = fmod((double)dp[d] * k.cp[b] * (sp->fold ? k.tp[a] : 1),
						     k.ep[e]) == 0;
	if (!ep_ok) {
		*at = field_loc(w, FLD_WORKLOAD_EP);
		why = arena_printf(
			ar, "%s %s the workload allows: %sCP %s, DP %s (Megatron-Core: EP x ETP divides "
			    "TP x CP x DP, %s)",
			knob_says(ar, ep, "ep", k.ep, k.nep, "divides no", "divides any"),
			sp->fold ? "TP x CP x DP" : "CP x DP",
			sp->fold ? arena_printf(ar, "TP %s, ", int_list(ar, k.tp, k.ntp)) : "",
			int_list(ar, k.cp, k.ncp), dps,
			sp->fold ? "ETP = 1 with parallel_folding"
				 : "ETP = TP without parallel_folding, so EP divides CP x DP");
		goto out;
	}
	/* Interleaving: some pipeline and split whose stages it divides (v_layers_ok), then the
	 * micro-batches a multiple of that PP at an allowed micro-batch (DP 1 gives the most). */
	if (!plan_set_allows(v, 1)) {
		int *pps = xmalloc(sizeof(int) * (size_t)(k.npp + 1)), npps = 0;
		bool micro = false;
		for (int p = 0; p < k.npp; p++) {
			bool layers = false;
			int vmax = ((int)m->layers + k.pp[p] - 1) / k.pp[p];
			for (int i = 0; i < k.nsplit[p] && !layers; i++)
				for (int x = 2; x <= vmax && !layers; x++)
					layers = plan_set_allows(v, x) && v_layers_ok(m, sp, &k, p, i, x);
			if (!layers)
				continue;
			pps[npps++] = k.pp[p];
			for (int j = 0; j < k.ndp && !micro; j++) /* a micro-batch divides the batch */
				micro = plan_set_allows(&sp->knob[KNOB_MICRO], k.dp[j]) &&
					(sp->batch / k.dp[j]) % k.pp[p] == 0;
		}
		const char *vt = one_value(v) ? arena_printf(ar, "interleave = %g", v->vals[0])
					      : "interleaving above 1 (all interleave allows)";
		if (!npps)
			why = arena_printf(
				ar, "%s the layers of %s pipeline stage at the sizes pp allows "
				    "(%s) of the model's %g layers: interleaving needs pp > 1 and "
				    "splits a stage's layers into that many virtual stages, an uneven "
				    "split's middle stages' with its first and last stages holding at "
				    "least the others' chunks (Megatron-LM "
				    "--num-layers-per-virtual-pipeline-stage)",
				knob_says(ar, v, "interleave", NULL, 0, "divides", "divides"),
				one_value(v) ? "no" : "any", int_list(ar, k.pp, k.npp), m->layers);
		else if (!micro)
			why = arena_printf(
				ar, "%s needs the micro-batches a multiple of pp (Megatron-LM's "
				    "interleaved schedule), and no micro-batch micro_batch allows splits "
				    "the global batch of %d sequences into a multiple of the pp where it "
				    "divides a stage's layers (%s)",
				vt, sp->batch, int_list(ar, pps, npps));
		free(pps);
		if (why) {
			*at = field_loc(w, FLD_WORKLOAD_INTERLEAVE);
			goto out;
		}
	}
	/* The GPU count: some product of the values the knobs allow. */
	if (!g->any) {
		bool made = false;
		for (int a = 0; a < k.ntp && !made; a++)
			for (int p = 0; p < k.npp && !made; p++)
				for (int b = 0; b < k.ncp && !made; b++)
					for (int d = 0; d < ndp && !made; d++)
						made = plan_set_allows(
							g, (double)k.tp[a] * k.pp[p] * k.cp[b] * dp[d]);
		if (!made) {
			*at = field_loc(w, FLD_WORKLOAD_GPUS);
			why = arena_printf(
				ar, "%s product TP x PP x CP x DP of the values the workload allows: "
				    "TP %s (dividing the model's heads, query groups and FFN sizes), PP "
				    "%s (splitting its %g layers), CP %s, DP %s",
				knob_says(ar, g, "gpus", NULL, 0, "is no", "is a"),
				int_list(ar, k.tp, k.ntp), int_list(ar, k.pp, k.npp), m->layers,
				int_list(ar, k.cp, k.ncp), dps);
			goto out;
		}
	}
	/* Jointly: the first field the workload sets whose values, left open, leave a plan: the
	 * GPU count, interleaving and EP first (issue 20), then the others some_plan reads. */
	static const FieldId open[] = {
		FLD_WORKLOAD_GPUS,		    FLD_WORKLOAD_INTERLEAVE,
		FLD_WORKLOAD_EP,		    FLD_WORKLOAD_FSDP,
		FLD_WORKLOAD_OFFLOAD_LAYERS,	    FLD_WORKLOAD_SEQUENCE_PARALLEL,
		FLD_WORKLOAD_SHARD_GRADIENTS,	    FLD_WORKLOAD_DISTRIBUTED_OPTIMIZER,
		FLD_WORKLOAD_CP_COMM,		    FLD_WORKLOAD_PIPELINE_FIRST_LAYERS,
		FLD_WORKLOAD_PIPELINE_LAST_LAYERS, FLD_WORKLOAD_PP,
		FLD_WORKLOAD_TP,		    FLD_WORKLOAD_CP,
		FLD_WORKLOAD_MICRO_BATCH};
	for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
		PlanSpace o = *sp;
		const char *name = field_schemas[open[i]].name, *subj = NULL;
		int knob = -1;
		switch (open[i]) {
		case FLD_WORKLOAD_GPUS: knob = KNOB_GPUS; break;
		case FLD_WORKLOAD_INTERLEAVE: knob = KNOB_V; break;
		case FLD_WORKLOAD_EP: knob = KNOB_EP; break;
		case FLD_WORKLOAD_PP: knob = KNOB_PP; break;
		case FLD_WORKLOAD_TP: knob = KNOB_TP; break;
		case FLD_WORKLOAD_CP: knob = KNOB_CP; break;
		case FLD_WORKLOAD_MICRO_BATCH: knob = KNOB_MICRO; break;
		/* The others: each left open where the workload narrows it (subj: the field
		 * as set, NULL where it does not). */
		case FLD_WORKLOAD_FSDP:
			o.fsdp = 3u;
			subj = bool_subject(sp->fsdp, "fsdp = true", "fsdp = false");
			break;
		case FLD_WORKLOAD_SEQUENCE_PARALLEL:
			o.sp = 3u;
			subj = bool_subject(sp->sp, "sequence_parallel = true", "sequence_parallel = false");
			break;
		case FLD_WORKLOAD_SHARD_GRADIENTS:
			o.zero2 = 3u;
			subj = bool_subject(sp->zero2, "shard_gradients = true", "shard_gradients = false");
			break;
		case FLD_WORKLOAD_DISTRIBUTED_OPTIMIZER:
			o.dopt = 3u;
			subj = bool_subject(sp->dopt, "distributed_optimizer = true",
					    "distributed_optimizer = false");
			break;
		case FLD_WORKLOAD_CP_COMM:
			o.cp_comm = (1u << CPC_COUNT) - 1;
			subj = sp->cp_comm && sp->cp_comm != o.cp_comm ? "cp_comm as set" : NULL;
			break;
		case FLD_WORKLOAD_OFFLOAD_LAYERS:
			o.offload = -1;
			subj = sp->offload > 0 ? arena_printf(ar, "offload_layers = %d", sp->offload)
					       : NULL;
			break;
		case FLD_WORKLOAD_PIPELINE_FIRST_LAYERS:
			o.first_layers = 0;
			subj = sp->first_layers > 0
				       ? arena_printf(ar, "%s = %d", name, sp->first_layers)
				       : NULL;
			break;
		case FLD_WORKLOAD_PIPELINE_LAST_LAYERS:
			o.last_layers = 0;
			subj = sp->last_layers > 0 ? arena_printf(ar, "%s = %d", name, sp->last_layers)
						   : NULL;
			break;
		default: break;
		}
		if (knob >= 0) {
			if (sp->knob[knob].any)
				continue;
			o.knob[knob] = (PlanSet){.any = true};
			subj = knob_says(ar, &sp->knob[knob], name, NULL, 0, "fits no", "fits any");
		} else if (!subj) {
			continue;
		} else {
			subj = arena_printf(ar, "%s fits no", subj);
		}
		if (!some_plan(m, &o))
			continue;
		*at = field_loc(w, open[i]);
		why = arena_printf(ar, "%s plan of the values the workload's other fields allow "
				       "(Megatron-LM's rules: %s)",
				   subj, rules_text(ar, m, sp));
		goto out;
	}
	*at = w->name_loc;
	why = arena_printf(ar, "no plan of the values its fields allow meets Megatron-LM's rules "
			       "(%s)",
			   rules_text(ar, m, sp));
out:
	free(dp);
	knobs_free(&k);
	return why;
}

/* Where the workload's own knobs leave the search no plan on any cluster (explain_invalid's
 * rules that read neither the GPUs, their memory nor the scale-up domain): TP dividing no model
 * size, a pipeline layout or size that splits no layers, CP, EP or the micro-batch dividing
 * nothing they must, an activation offload Megatron-Core refuses whatever the accelerator
 * (plan_offload_why before its host link). NULL when none. */
static const char *space_conflict(const Decl *w, const PlanModel *m, const PlanSpace *sp,
				  Arena *ar, Loc *at)
{
	const PlanSet *tp = &sp->knob[KNOB_TP];
	if (!set_some(tp, m->heads, tp_model_ok, m, sp)) {
		*at = field_loc(w, FLD_WORKLOAD_TP);
		double t = one_value(tp) ? tp->vals[0] : 0;
		Buf b = {0};
		static const char *const what[] = {"heads", "query groups", "FFN size",
						   "expert FFN size"};
		double sizes[] = {m->heads, m->groups, m->ffn, m->expert_ffn};
		for (int i = 0; i < (m->experts > 1 ? 4 : 3); i++)
			if (!t || fmod(sizes[i], t) != 0)
				buf_printf(&b, "%s%s %g", b.len ? ", " : "", what[i], sizes[i]);
		const char *s = arena_printf(
			ar, "%s the model's %s (Megatron-LM splits each over TP)",
			t ? arena_printf(ar, "tp = %g does not divide", t)
			  : "no value tp allows divides all of",
			b.s ? b.s : "");
		buf_free(&b);
		return s;
	}
	const PlanSet *pp = &sp->knob[KNOB_PP];
	/* A fixed pipeline layout: some pipeline size the workload allows must take it, the
	 * other stages sharing the rest evenly (plan_splits). */
	if ((sp->first_layers > 0 || sp->last_layers > 0) &&
	    !set_some(pp, m->layers, pp_layout, m, sp)) {
		bool f = sp->first_layers > 0, l = sp->last_layers > 0;
		*at = field_loc(w, f ? FLD_WORKLOAD_PIPELINE_FIRST_LAYERS
				     : FLD_WORKLOAD_PIPELINE_LAST_LAYERS);
		return arena_printf(
			ar, "%s%s%s: no pipeline size the workload allows takes %s: the other stages "
			    "share the model's remaining layers evenly, at least one each "
			    "(Megatron-LM --decoder-first/last-pipeline-num-layers)",
			f ? arena_printf(ar, "pipeline_first_layers = %d", sp->first_layers) : "",
			f && l ? ", " : "",
			l ? arena_printf(ar, "pipeline_last_layers = %d", sp->last_layers) : "",
			f && l ? "them" : "it");
	}
	if (!set_some(pp, m->layers, pp_splits, m, sp)) {
		*at = field_loc(w, FLD_WORKLOAD_PP);
		return arena_printf(ar, "%s the model's %g layers: PP divides the layers, or the "
					"layers plus 1 to 4 (the first and last stages up to two "
					"layers fewer than the others)",
				    one_value(pp) ? arena_printf(ar, "pp = %g cannot split", pp->vals[0])
						  : "no pipeline size pp allows splits",
				    m->layers);
	}
	const PlanSet *cp = &sp->knob[KNOB_CP];
	if (!set_some(cp, m->seq, cp_ok, m, sp)) {
		*at = field_loc(w, FLD_WORKLOAD_CP);
		const char *why = "(Megatron-LM's load-balanced context parallelism)";
		return one_value(cp) ? arena_printf(ar, "cp = %g: the sequence of %g tokens is not "
							"divisible by 2 x cp %s",
						    cp->vals[0], m->seq, why)
				     : arena_printf(ar, "no value cp allows is 1 or has 2 x cp dividing "
							"the sequence of %g tokens %s",
						    m->seq, why);
	}
	const PlanSet *ep = &sp->knob[KNOB_EP];
	if (!set_some(ep, fmax(1, m->experts), ep_ok, m, sp)) {
		*at = field_loc(w, FLD_WORKLOAD_EP);
		const char *e = one_value(ep) ? arena_printf(ar, "ep = %g", ep->vals[0])
					      : "no value ep allows";
		return m->experts <= 1
			       ? arena_printf(ar, "%s: the model has no experts for expert "
						  "parallelism to split (ep = 1)",
					      e)
			       : arena_printf(ar, "%s does not divide the model's %g experts", e,
					      m->experts);
	}
	/* A fixed activation offload: the rules before the host link (plan_offload_why) over the
	 * plans the workload allows (does its PP allow 1, its recomputation none). */
	if (sp->offload > 0) {
		PlanHw linked = {.host_bw = 1};
		OffloadWhy why = plan_offload_why(m, &linked, sp->offload, plan_set_allows(pp, 1),
						  sp->recompute & (1u << RC_NONE));
		if (why != OFFLOAD_OK) {
			*at = field_loc(w, FLD_WORKLOAD_OFFLOAD_LAYERS);
			const char *cfg = " (megatron/core/transformer/transformer_config.py)";
			return arena_printf(
				ar, "offload_layers = %d %s", sp->offload,
				why == OFFLOAD_TOO_MANY
					? arena_printf(ar, "is not fewer than the model's %g layers%s",
						       m->layers, cfg)
				: why == OFFLOAD_PIPELINE
					? arena_printf(ar, "needs pp = 1: Megatron-Core has no CPU "
							   "offloading with a pipeline%s", cfg)
					: arena_printf(ar, "needs recompute = none: Megatron-Core's CPU "
							   "offloading does not work with "
							   "recomputation%s", cfg));
		}
	}
	const PlanSet *mb = &sp->knob[KNOB_MICRO];
	if (!set_some(mb, sp->batch, micro_ok, m, sp)) {
		*at = field_loc(w, FLD_WORKLOAD_MICRO_BATCH);
		return arena_printf(ar, "the global batch of %d sequences is not divisible by %s",
				    sp->batch,
				    one_value(mb) ? arena_printf(ar, "micro_batch = %g", mb->vals[0])
						  : "any micro-batch micro_batch allows");
	}
	/* DualPipe's micro-batches, global batch / (micro-batch x DP), even and at least 2 x PP
	 * (plan_search's rule; deepseek-ai/DualPipe at bb214e8, DualPipe.step: "num_chunks % 2 ==
	 * 0 and num_chunks >= num_ranks * 2"): most at DP 1, and odd at every DP where batch /
	 * micro-batch is, so no allowed micro-batch reaching an even 2 x the least even PP the
	 * workload allows leaves no plan on any cluster. */
	if (sp->dualpipe) {
		int pmin = 0;
		for (int p = 2; p <= (int)m->layers && !pmin; p += 2)
			if (plan_set_allows(pp, p) && pp_splits(m, sp, p))
				pmin = p;
		int most = 0; /* the most micro-batches an allowed micro-batch gives, even */
		for (int b = 1; b <= sp->batch; b++)
			if (sp->batch % b == 0 && (sp->batch / b) % 2 == 0 && plan_set_allows(mb, b) &&
			    sp->batch / b > most)
				most = sp->batch / b;
		if (pmin && most < 2 * pmin) {
			*at = field_loc(w, FLD_WORKLOAD_GLOBAL_BATCH);
			return arena_printf(ar, "DualPipe runs an even number of micro-batches, at least "
						"2 x pp (deepseek-ai/DualPipe, DualPipe.step), and the "
						"global batch of %d gives %s at the micro-batches "
						"micro_batch allows, where the least even pp the workload "
						"allows is %d",
					    sp->batch,
					    most ? arena_printf(ar, "at most %d", most) : "no even count",
					    pmin);
		}
	}
	return joint_conflict(w, m, sp, ar, at);
}

/* The workload's settings the build rejects before any search, in the order plan_workloads
 * reports them: the dispatcher (hybrid_ep_conflict), DualPipe (dualpipe_conflict) and the
 * recomputation's modules and layers (rc_modules_conflict, rc_layers_conflict), the SwiGLU's
 * FP8 input (swiglu8_conflict), the knobs that leave no plan on any cluster (space_conflict). */
typedef enum {
	WC_NONE,
	WC_HYBRID_EP,
	WC_DUALPIPE,
	WC_RC_MODULES,
	WC_RC_LAYERS,
	WC_SWIGLU8,
	WC_SPACE
} WorkloadConflict;

/* The first conflict of workload w (its space sp, model m): the reason into *why and the place
 * at fault into *at. */
static WorkloadConflict workload_conflict(Design *d, const Decl *w, const PlanModel *m,
					  const PlanSpace *sp, const char **why, Loc *at)
{
	FieldId bad;
	if ((*why = hybrid_ep_conflict(w, sp, &bad))) {
		*at = field_loc(w, bad);
		return WC_HYBRID_EP;
	}
	if ((*why = dualpipe_conflict(d, w, sp, &bad))) {
		*at = field_loc(w, bad);
		return WC_DUALPIPE;
	}
	if ((*why = rc_modules_conflict(w, m, sp, at)))
		return WC_RC_MODULES;
	if ((*why = rc_layers_conflict(w, m, sp, d->p->c->arena, at)))
		return WC_RC_LAYERS;
	if ((*why = swiglu8_conflict(w, m, at)))
		return WC_SWIGLU8;
	if ((*why = space_conflict(w, m, sp, d->p->c->arena, at)))
		return WC_SPACE;
	return WC_NONE;
}

/* The memoised search of workload w on the design in force (m, hw: its inputs). No plan where
 * the build rejects the workload (workload_conflict), as plan_workloads does; the conflicts are
 * looked for once, when the entry is made. */
static const PlanMemoEntry *memo_lookup(Design *d, const Decl *w, PlanModel *m, PlanHw *hw)
{
	PlanSpace sp;
	bool ok = plan_inputs(d, w, m, hw, &sp);
	if (!d->plan_memo)
		d->plan_memo = arena_alloc(d->p->c->arena, sizeof(PlanMemo));
	PlanMemo *memo = d->plan_memo;
	/* The key: what the search reads (power, PUE and price only scale energy and cost). */
	PlanHw key = *hw;
	key.gpu_power = key.pue = key.price_per_j = 0;
	if (2 * (memo->n + 1) > memo->cap)
		memo_grow(d->p->c->arena, memo);
	PlanMemoEntry *e = memo_slot(memo, w, &key);
	if (!e->w) {
		memo->n++;
		*e = (PlanMemoEntry){.w = w, .hw = key};
		const char *why;
		Loc at;
		if (ok && workload_conflict(d, w, m, &sp, &why, &at) == WC_NONE) {
			if (plan_search_shared(m, hw, &sp, &e->r)) {
				d->opt.shared++;
			} else {
				d->opt.searches++;
				d->opt.plans += e->r.evaluated;
				d->opt.plan_ms += e->r.ms;
			}
		}
		e->steps = train_steps(w, m, &sp);
	}
	return e;
}

bool plan_attribute(Design *d, const Decl *w, FieldId id, double *out)
{
	static const FieldId ids[] = {FLD_WORKLOAD_TIME_TO_TRAIN, FLD_WORKLOAD_STEP_TIME,
				      FLD_WORKLOAD_ENERGY_TO_TRAIN, FLD_WORKLOAD_COST_TO_TRAIN,
				      FLD_WORKLOAD_MFU};
	int which = -1;
	for (int i = 0; i < 5; i++)
		if (ids[i] == id)
			which = i;
	if (which < 0)
		return false;
	PlanModel m;
	PlanHw hw;
	const PlanMemoEntry *e = memo_lookup(d, w, &m, &hw);
	const PlanResult *r = &e->r;
	if (!r->found) {
		*out = which == 4 ? 0 : PLAN_UNRUNNABLE;
		return true;
	}
	double time = e->steps * r->cost.step;
	double energy = r->best.gpus * hw.gpu_power * hw.pue * time;
	double values[5] = {time, r->cost.step, energy, energy * hw.price_per_j, r->cost.mfu};
	*out = values[which];
	return true;
}

bool plan_best(Design *d, const Decl *w, PlanModel *m, PlanHw *hw, PlanConfig *best, double *time,
	       double *energy)
{
	const PlanMemoEntry *e = memo_lookup(d, w, m, hw);
	if (!e->r.found)
		return false;
	*best = e->r.best;
	*time = e->steps * e->r.cost.step;
	*energy = e->r.best.gpus * hw->gpu_power * hw->pue * *time;
	return true;
}

/* ---- diagnostics ---------------------------------------------------------------------------- */

void plan_shape(Buf *b, const PlanConfig *c)
{
	buf_printf(b, "TP %d, PP %d", c->tp, c->pp);
	if (c->dualpipe || c->first > 0) {
		buf_puts(b, c->dualpipe ? " (DualPipe" : " (");
		if (c->first > 0)
			buf_printf(b, "%sfirst stage %d layer%s, last %d", c->dualpipe ? ", " : "",
				   c->first, c->first == 1 ? "" : "s", c->last);
		buf_puts(b, ")");
	}
	buf_printf(b, ", DP %d", c->dp);
	if (c->cp > 1)
		buf_printf(b, ", CP %d", c->cp);
	if (c->ep > 1)
		buf_printf(b, ", EP %d", c->ep);
	buf_printf(b, ", micro-batch %d", c->micro);
	if (c->v > 1)
		buf_printf(b, ", interleave %d", c->v);
	if (c->recompute == RC_FULL && c->rc_layers > 0 && c->rc_uniform)
		buf_printf(b, ", full recompute in groups of %d layer%s", c->rc_layers,
			   c->rc_layers > 1 ? "s" : "");
	else if (c->recompute == RC_FULL && c->rc_layers > 0)
		/* DualPipe has no interleaving: its stages are the pipeline's own. */
		buf_printf(b, ", full recompute of %d layer%s a %sstage", c->rc_layers,
			   c->rc_layers > 1 ? "s" : "", c->dualpipe ? "" : "virtual ");
	else if (c->recompute != RC_NONE)
		buf_printf(b, ", %s recompute", enum_RECOMPUTE.words[c->recompute]);
	if (c->recompute == RC_SELECTIVE)
		plan_modules_text(b, c->rc_modules, " of ", " + ");
	if (c->offload > 0)
		buf_printf(b, ", %d layers' activations offloaded to host memory", c->offload);
	if (c->sp)
		buf_puts(b, ", sequence parallel");
	if (c->fsdp)
		buf_puts(b, ", FSDP (weights, gradients and optimizer sharded)");
	else if (c->zero2)
		buf_puts(b, ", distributed optimizer and gradients (ZeRO-2)");
	else if (c->dopt)
		buf_puts(b, ", distributed optimizer");
}

/* plan_shape's text in d's arena (for a diagnostic). */
static const char *plan_text(Design *d, const PlanConfig *c)
{
	Buf b = {0};
	plan_shape(&b, c);
	const char *s = arena_printf(d->p->c->arena, "%s", b.s);
	buf_free(&b);
	return s;
}

/* Why no plan meets Megatron-LM's constraints on this cluster, the workload's own knobs leaving
 * some (space_conflict passed): the first knob whose allowed values all fail. */
static const char *explain_invalid(Design *d, const Decl *w, const PlanModel *m, const PlanHw *hw,
				   const PlanSpace *sp, Loc *at)
{
	Arena *ar = d->p->c->arena;
	const PlanSet *tp = &sp->knob[KNOB_TP];
	*at = w->name_loc;
	if (!tp->any && !tp->range && tp->n > 0) {
		/* Some value divides the model (space_conflict): the first, which the scale-up
		 * domain (or the GPUs) refuses. */
		bool some = false;
		double t = 0;
		for (int i = 0; i < tp->n; i++) {
			some |= plan_tp_ok(m, hw, (int)tp->vals[i]);
			if (!t && tp->vals[i] >= 1 && tp_model_ok(m, sp, tp->vals[i]))
				t = tp->vals[i];
		}
		if (!some && t && fmod(hw->domain, t) != 0) {
			*at = field_loc(w, FLD_WORKLOAD_TP);
			return arena_printf(ar, "tp = %g does not fit the %d-accelerator scale-up domain "
						"of node '%s': tensor parallelism stays inside it "
						"(Narayanan et al., SC'21)",
					    t, hw->domain, hw->node->name);
		}
	}
	/* A fixed activation offload the workload's knobs allow (space_conflict): the host link
	 * (plan_offload_why). */
	if (sp->offload > 0 && hw->host_bw <= 0) {
		*at = field_loc(w, FLD_WORKLOAD_OFFLOAD_LAYERS);
		return arena_printf(ar, "offload_layers = %d needs a link to host memory: accelerator "
					"'%s' has no host_bandwidth",
				    sp->offload, hw->accel->name);
	}
	const PlanSet *g = &sp->knob[KNOB_GPUS];
	if (!g->any && !g->range && g->n > 0 && g->vals[0] > hw->gpus) {
		*at = field_loc(w, FLD_WORKLOAD_GPUS);
		return arena_printf(ar, "gpus = %g, but the cluster has %d '%s' accelerators to run it on",
				    g->vals[0], hw->gpus, hw->accel->name);
	}
	return arena_printf(ar, "no combination of the values the workload allows meets Megatron-LM's "
				"constraints on %d '%s' accelerators: TP x PP x CP x DP GPUs, the global "
				"batch of %d divisible by micro-batch x DP, interleaving dividing the "
				"layers of a stage and needing micro-batches in multiples of PP%s%s",
			    hw->gpus, hw->accel->name, sp->batch,
			    m->experts <= 1 ? ""
			    : sp->fold	    ? ", EP dividing TP x CP x DP (parallel_folding)"
					    : ", EP dividing CP x DP (TP x CP x DP with parallel_folding)",
			    sp->dualpipe ? "; DualPipe: an even PP, no interleaving, an even number "
					   "of micro-batches, at least 2 x PP"
					 : "");
}

static void report_unplanned(Design *d, const Decl *w, WorkloadPlan *wp)
{
	const PlanModel *m = &wp->model;
	const PlanHw *hw = &wp->hw;
	const PlanResult *r = &wp->r;
	const char *name = w->name;
	if (!r->any_valid) {
		Loc at;
		const char *why = explain_invalid(d, w, m, hw, &wp->space, &at);
		design_violation(d, at, 1, d->cluster->name_loc, "the cluster it runs on",
				 "workload '%s' cannot run on cluster '%s': %s", name, d->cluster->name,
				 why);
		return;
	}
	const PlanCost *k = &r->least_cost;
	design_violation(d, w->name_loc, k->mem / hw->hbm_usable - 1, hw->accel->loc,
			 arena_printf(d->p->c->arena, "'%s' has %.1f GB of HBM, %.1f GB usable after "
						     "the %.0f GB kept for the CUDA context and NCCL",
				      hw->accel->name, hw->hbm / GB, hw->hbm_usable / GB,
				      PLAN_HBM_RESERVE_BYTES / GB),
			 "workload '%s' does not fit: its %.1fB-parameter model needs %.1f GB per GPU "
			 "even with the plan needing least memory (%s): %.1f GB of weights, gradients "
			 "and optimizer state and %.1f GB of activations; '%s' has %.1f GB",
			 name, plan_params(m) / 1e9, k->mem / GB, plan_text(d, &r->least),
			 k->mem_states / GB, k->mem_act / GB, hw->accel->name, hw->hbm / GB);
}

/* Why an alternative lost to the best: fewer GPUs, or the part of the step that grew most. */
static const char *why_lost(Design *d, const PlanConfig *bc, const PlanCost *b, const PlanConfig *ac,
			    const PlanCost *a)
{
	static const char *const parts[] = {"compute", "recomputation", "tensor-parallel communication",
					    "context-parallel communication", "expert all-to-all",
					    "pipeline point-to-point", "pipeline bubble",
					    "exposed data-parallel communication", "optimizer step"};
	double av[] = {a->compute, a->recompute, a->tp_comm, a->cp_comm, a->ep_comm, a->pp_comm,
		       a->bubble, a->dp_comm, a->optimizer};
	double bv[] = {b->compute, b->recompute, b->tp_comm, b->cp_comm, b->ep_comm, b->pp_comm,
		       b->bubble, b->dp_comm, b->optimizer};
	int worst = 0;
	for (int i = 1; i < 9; i++)
		if (av[i] - bv[i] > av[worst] - bv[worst])
			worst = i;
	double slower = 100 * (a->step / b->step - 1);
	Arena *ar = d->p->c->arena;
	if (ac->gpus < bc->gpus)
		return arena_printf(ar, "%.1f %% slower per step: it uses %d GPUs, not %d (%s %.3f s "
					"against %.3f s)",
				    slower, ac->gpus, bc->gpus, parts[worst], av[worst], bv[worst]);
	return arena_printf(ar, "%.1f %% slower per step: %s %.3f s against %.3f s", slower,
			    parts[worst], av[worst], bv[worst]);
}

/* ---- placement ------------------------------------------------------------------------------ */

/* The binding of each local rank of a node: local rank k drives GPU k (Megatron's rank order
 * puts TP fastest, so a TP group is consecutive local ranks) and is pinned to the socket GPU k
 * hangs off, the GPUs splitting evenly over the sockets in order (GPUs 0-3 on socket 0 and
 * 4-7 on socket 1 of a DGX H100; NVIDIA, DGX H100 User Guide, "system topology"), with an
 * equal share of that socket's physical cores. Open MPI's rankfile names them socket:cores
 * (Open MPI, mpirun(1), "Rankfiles"); `slot=K` alone would be core K. */
static PlanBind *plan_bind(Arena *ar, const Part *node, int ranks)
{
	PlanBind *b = arena_alloc(ar, sizeof(PlanBind) * (size_t)(ranks > 0 ? ranks : 1));
	/* The node's counted host CPUs (cpus, cpu_cores); unset, 2 sockets of 16 cores: a lower
	 * bound every current dual-socket server meets. */
	int sockets = node->node.cpus > 0 ? node->node.cpus : 2;
	int gpus = node->node.accelerators > 0 ? node->node.accelerators : 1;
	int per_socket = (gpus + sockets - 1) / sockets;
	int cores = node->node.cpu_cores > 0 ? node->node.cpu_cores : 16;
	int share = cores / per_socket > 0 ? cores / per_socket : 1;
	for (int k = 0; k < ranks; k++) {
		int socket = k / per_socket, slot = k % per_socket;
		if (socket >= sockets)
			socket = sockets - 1;
		int lo = (slot * share) % cores;
		b[k] = (PlanBind){.gpu = k, .socket = socket, .core_lo = lo,
				  .core_hi = lo + share - 1 < cores ? lo + share - 1 : cores - 1};
	}
	return b;
}

/* ---- the pass ------------------------------------------------------------------------------- */

/* The nodes a plan of `nodes` runs on, in order: group g's first that are no hot spare
 * (spares.c), in the design's arena. */
static int *plan_hosts(Design *d, const NodeGroup *g, int nodes)
{
	int *hosts = arena_alloc(d->c->arena, sizeof(int) * (size_t)(nodes + 1));
	int n = 0;
	for (int k = 0; k < g->count && n < nodes; k++)
		if (!d->nodes[g->first_node + k].spare)
			hosts[n++] = g->first_node + k;
	assert(n == nodes);
	return hosts;
}

int plan_workloads(Design *d)
{
	Ctx *c = d->p->c;
	int before = diag_errors(c);
	/* A design that cannot be built (a rack, a fabric) is not planned; one that misses only
	 * require lines is, so a workload no plan fits says why. */
	for (int i = 0; i < d->violations.n; i++)
		if (!((const Violation *)d->violations.v[i])->requirement)
			return 0;
	d->vsource = VS_PLAN, d->vfabric = -1;
	int n = 0;
	for (int i = 0; i < d->p->decls.n; i++) {
		const Decl *w = d->p->decls.v[i];
		n += w->kind == KIND_WORKLOAD && w->used;
	}
	d->plans = arena_alloc(c->arena, sizeof(WorkloadPlan) * (size_t)(n + 1));
	d->nplans = 0;
	for (int i = 0; i < d->p->decls.n; i++) {
		const Decl *w = d->p->decls.v[i];
		if (w->kind != KIND_WORKLOAD || !w->used)
			continue;
		WorkloadPlan *wp = &d->plans[d->nplans];
		*wp = (WorkloadPlan){.workload = w, .name = w->name, .loc = w->name_loc};
		if (!plan_inputs(d, w, &wp->model, &wp->hw, &wp->space)) {
			if (!wp->hw.accel) {
				design_violation(d, w->name_loc, 1, d->cluster->name_loc, NULL,
						 "workload '%s' cannot run: cluster '%s' has no accelerators",
						 w->name, d->cluster->name);
			} else {
				design_violation(d, field_loc(w, FLD_WORKLOAD_PRECISION), 1, wp->hw.accel->loc,
						 "the accelerator declares no fp8 peak",
						 "workload '%s' asks for fp8, which '%s' does not support",
						 w->name, wp->hw.accel->name);
			}
			continue;
		}
		/* Each a contradiction among the workload's own fields, which no cluster could
		 * satisfy: a spec error at the field (exit 1); what depends on the cluster (its
		 * GPUs, memory, scale-up domain) is a design violation (exit 2, below). */
		const char *why;
		Loc at;
		Diag *dg;
		switch (workload_conflict(d, w, &wp->model, &wp->space, &why, &at)) {
		case WC_NONE:
			break;
		case WC_HYBRID_EP:
			dg = design_spec_error(d, at, "workload '%s' cannot dispatch on HybridEP: %s",
					       w->name, why);
			if (dg)
				diag_note(dg, field_loc(w, FLD_WORKLOAD_EP_DISPATCHER),
					  "HybridEP chosen here");
			continue;
		case WC_DUALPIPE:
			dg = design_spec_error(d, at, "workload '%s' cannot run DualPipe: %s", w->name,
					       why);
			if (dg)
				diag_note(dg, field_loc(w, FLD_WORKLOAD_PIPELINE_SCHEDULE),
					  "DualPipe chosen here");
			continue;
		case WC_RC_MODULES:
			design_spec_error(d, at, "workload '%s' cannot recompute these modules: %s",
					  w->name, why);
			continue;
		case WC_RC_LAYERS:
			design_spec_error(d, at, "workload '%s' cannot recompute these layers: %s",
					  w->name, why);
			continue;
		case WC_SWIGLU8:
			design_spec_error(d, at, "workload '%s': %s", w->name, why);
			continue;
		case WC_SPACE:
			design_spec_error(d, at, "workload '%s' cannot run on any cluster: %s", w->name,
					  why);
			continue;
		}
		plan_search_shared(&wp->model, &wp->hw, &wp->space, &wp->r);
		if (!wp->r.found) {
			report_unplanned(d, w, wp);
			continue;
		}
		const PlanResult *r = &wp->r;
		wp->tokens = field_num(w, FLD_WORKLOAD_TOKENS);
		wp->steps = train_steps(w, &wp->model, &wp->space);
		wp->time_to_train = wp->steps * r->cost.step;
		wp->energy = r->best.gpus * wp->hw.gpu_power * wp->hw.pue * wp->time_to_train;
		wp->energy_cost = wp->energy * wp->hw.price_per_j;
		for (int k = 0; k < r->nalt; k++)
			wp->why[k] = why_lost(d, &r->best, &r->cost, &r->alt[k], &r->alt_cost[k]);
		/* The matrix engine's efficiency at a square multiply of each size (Calculon's
		 * curve), from the model's own efficiency function. */
		static const double gflops[6] = {128, 16, 2, 0.25, 0.03, 0};
		for (int k = 0; k < 6; k++) {
			double side = cbrt(fmax(gflops[k], 0.004) * 1e9 / 2);
			wp->matmul_curve[k][0] = gflops[k];
			wp->matmul_curve[k][1] =
				fmax(0.01, plan_matmul_efficiency(&wp->hw, side, side, side));
		}
		int gi = plan_group(d);
		wp->first_node = d->groups[gi].first_node;
		wp->nodes = (r->best.gpus + wp->hw.per_node - 1) / wp->hw.per_node;
		wp->hosts = plan_hosts(d, &d->groups[gi], wp->nodes);
		wp->first_node = wp->hosts[0];
		wp->ranks_per_node = r->best.gpus < wp->hw.per_node ? r->best.gpus : wp->hw.per_node;
		wp->bind = plan_bind(c->arena, wp->hw.node, wp->ranks_per_node);
		wp->first_host = d->nodes[wp->hosts[0]].hostname;
		d->nplans++;
	}
	return diag_errors(c) - before;
}
