/*
 * plan_model.c — the analytical model of one training step of a transformer under a
 * Megatron-LM plan: FLOPs, time and memory per GPU (docs/parallelism.md gives every formula with
 * its source; the comments here name them where they are implemented).
 *
 * Notation: L layers, h hidden, a heads, g query groups, d head size, F FFN size, s sequence,
 * V vocabulary, B global batch, b micro-batch, t TP, p PP, c CP, e EP, v interleaving, m
 * micro-batches per step; an MoE layer routes each token to k of E experts of FFN size Fe and
 * through S shared experts.
 *
 * Method: the layer is a list of matrix multiplies (time = FLOPs / (peak × efficiency(size)))
 * plus memory-bound kernels (time = bytes / HBM bandwidth) plus collectives on the level of
 * the hierarchy their group spans (time = latency + volume / bandwidth). A step is the slowest
 * pipeline stage's micro-batches, the pipeline bubble, the exposed data-parallel communication
 * and the optimizer. Pure functions: no Design, no allocation, so the search calls them
 * millions of times.
 */
#include "plan.h"

#include <math.h>


/*
 * Constants of the hardware model, each an assumption stated in docs/parallelism.md:
 * - collective bandwidth as a fraction of the link's per-direction rate is the part's own:
 *   the accelerator's scale_up_efficiency inside the scale-up domain, the fabric NIC's
 *   collective_efficiency on the fabric (std.accelerators and std.network give each its
 *   measurement; the schema's defaults, 0.6 and 0.9, are the NVLink and InfiniBand
 *   efficiencies of Calculon's A100 system description, Isaev et al., SC'23);
 * - latency per collective step: 1 µs in the domain, 2 µs on the fabric (Calculon's), the
 *   steps those of the ring or tree algorithm (plan_collective);
 * - memory-bound kernels stream at 0.8 of the HBM bandwidth (Calculon's A100 memory curve:
 *   0.75 for 10 MB, 0.9 for 100 MB);
 * - the Adam step touches 32 bytes per parameter of the shard a GPU updates (fp32 gradient,
 *   master weight, two moments read and written, the bf16 weight written).
 */
static const double SU_ALPHA = 1e-6, NET_ALPHA = 2e-6;
static const double TREE_BW = 0.9;
/* An all-reduce reduced in the switches (NVLink SHARP in the domain, SHARP on the fabric)
 * moves the buffer once each way at this fraction of the collective bandwidth: on 8 H100 NCCL's
 * NVLS all-reduce peaks at an algorithm bandwidth of about 275 GB/s where its ring moves
 * 370 GB/s on the wire (S. Jeaugey, NVIDIA, NVIDIA/nccl-tests issue 212, 2024-05-06). The
 * fabric's SHARP is taken at the same ratio (no published figure of the same form). */
static const double INNET_EFF = 275.0 / 370.0;
/* Communication overlapped with compute still costs compute: its kernels occupy SMs and HBM
 * bandwidth (NCCL runs on SMs; Transformer Engine's userbuffers overlap takes some of them).
 * Charged as this fraction of the overlapped time (an assumption, docs/parallelism.md), so an
 * overlap knob is on only when it pays. */
static const double OVERLAP_COST = 0.1;
/* At most this share of a collective hides under compute: the first and last chunks of a
 * decomposed collective have nothing to run under, and the kernels contend (an assumption;
 * Wang et al., ASPLOS 2023, measure 1.14-1.38 x on TP-bound layers from such overlap, not the
 * whole communication time). */
static const double OVERLAP_MAX = 0.7;

/* Dropless MoE's device-to-host synchronization (plan_moe_fwd_host). Megatron-Core's dropless
 * layers need the per-expert token counts on the host: the all-to-all dispatcher copies them
 * (and the all-to-all's splits) to the CPU and waits on the copy's event before the
 * all-to-all (MoEAlltoAllTokenDispatcher._maybe_dtoh_and_synchronize, cuda_sync_point
 * "before_ep_alltoall", megatron/core/transformer/moe/token_dispatcher.py at 0014f13), and the
 * grouped experts take them as a Python list whatever the dispatcher ("transformer engine
 * requires this to be a list": TEGroupedMLP.forward's tokens_per_expert.tolist(),
 * megatron/core/transformer/moe/experts.py). Padded to capacity
 * (--moe-pad-expert-input-to-capacity, the planner's capacity_factor) the counts are constants
 * built on the host (preprocess's drop_and_pad branch returns before any copy; no sync point
 * is set), so no synchronization. The wait drains the GPU's queue: the CPU can no longer run
 * ahead of it, and until it has launched the rest of the layer the GPU waits for launches.
 * The host's time to issue a kernel: "Usually, the launch time on the CPU side is between
 * 5-20 microseconds" (Meta's Holistic Trace Analysis, facebookresearch/HolisticTraceAnalysis,
 * docs/source/features/cuda_kernel_launch_stats.rst); the model takes 10 µs, the range's
 * geometric middle (an assumption inside the published range, not fitted to a row). */
static const double HOST_LAUNCH_S = 10e-6;
/* Kernels a dropless MoE layer's forward launches after its synchronization
 * (plan_moe_fwd_host), read from the code above: the tokens' and the probabilities'
 * all-to-all, the fused sort of their chunks by local expert (two), the FP8 padding and
 * unpadding of the experts' rows (Fp8Padding, three), the activation with the probabilities
 * (two), and the combine's chunk sort, all-to-all and fused unpermutation: 12; and per local
 * expert its two GEMMs (Transformer Engine's GroupedLinear runs one cuBLAS GEMM an expert,
 * general_grouped_gemm) and, under FP8 current scaling, each of the expert's two inputs
 * quantized on its own, an amax and a cast (only delayed scaling has the fused multi-tensor
 * cast, NVIDIA/TransformerEngine PR 1525): 2 or 6. The router's kernels (72 unfused, 31
 * fused: TransformerEngine PR 1883, NVIDIA's DeepSeek-V3 GB200 guide §2.1.4) and the
 * attention's run before the synchronization, while the CPU is still ahead. */
static const double MOE_SYNC_KERNELS = 12;
static const double MOE_EXPERT_KERNELS = 2, MOE_EXPERT_CS_KERNELS = 4;

/* What is left of `comm` seconds of communication run under `busy` seconds of compute. */
static double exposed(double comm, double busy, bool on)
{
	if (!on)
		return comm;
	double hidden = fmin(busy, OVERLAP_MAX * comm);
	return comm - hidden + OVERLAP_COST * hidden;
}

/* The faster allowed setting of an overlap knob (bit 0 off, bit 1 on; none: off). */
static bool overlap_on(unsigned allowed, double comm, double busy)
{
	if (!(allowed & 2u))
		return false;
	if (!(allowed & 1u))
		return true;
	return exposed(comm, busy, true) < exposed(comm, busy, false);
}

/* The data-parallel collectives are not one collective but one a layer: FSDP gathers each
 * layer's weights just before that layer needs them and reduce-scatters its gradients as soon
 * as its backward produced them, with the next layer's gather prefetched under the current
 * layer's compute (Zhao et al., "PyTorch FSDP: Experiences on Scaling Fully Sharded Data
 * Parallel", PVLDB 16(12), 2023, figure 5, "Overlap Communication and Computation"; backward
 * and forward prefetch); Megatron-Core's --overlap-grad-reduce launches each bucket's
 * reduce-scatter or all-reduce when the backward has filled it and --overlap-param-gather each
 * bucket's all-gather ahead of the forward that needs it (megatron/core/distributed/
 * param_and_grad_buffer.py: buckets of about 40M parameters, fewer than a layer of these
 * models: one piece a layer is the coarser reading). So only one piece, the first gather or
 * the last reduction, has no compute to run under; the rest hides as long as the compute
 * lasts, still costing OVERLAP_COST of its time in the compute (its kernels' SMs and HBM
 * traffic). This replaces OVERLAP_MAX, whose "first and last chunks" are those of a single
 * collective split for overlap (TP), for these collectives of `pieces` equal parts. */
static double collective(const PlanHw *hw, double span, double n, PlanColl kind, double bytes);

static double exposed_pieces(double comm, double busy, double pieces, bool on)
{
	return plan_exposed_last(comm, busy, comm / fmax(1, pieces), on);
}

/* The same with the piece that has no compute to run under given: `last` seconds of the
 * `comm` (the last reduction or the first gather), the rest hidden while `busy` lasts at
 * OVERLAP_COST. */
double plan_exposed_last(double comm, double busy, double last, bool on)
{
	if (!on)
		return comm;
	double hidden = fmin(busy, fmax(0, comm - last));
	return comm - hidden + OVERLAP_COST * hidden;
}

/* The data-parallel collectives' piece with nothing to run under is the embedding's, where it
 * is larger than a layer's. Megatron-Core fills its gradient buckets in reverse parameter
 * order, "to roughly follow backprop order", and launches a bucket's reduce-scatter or
 * all-reduce "when _all_ params in the bucket group have grads ready"
 * (megatron/core/distributed/param_and_grad_buffer.py at 0e9fcc1, _ParamAndGradBuffer and
 * _ParamAndGradBucketGroup; "the first bucket corresponds to the end of the model, while the
 * last bucket corresponds to the beginning", partition_buckets): the word embedding, the
 * model's first parameter and larger than a bucket (40M parameters or more), is the last
 * bucket's, and its gradient is complete only when the embedding's backward, the pass's last
 * kernel, is done; and with --overlap-param-gather the first bucket the forward needs, the
 * same embedding's, is gathered when the forward starts ("If current bucket's param AG has not
 * been dispatched, dispatch it now (e.g., first AG bucket in first model chunk)",
 * finish_param_sync). So of the collective over the stage that holds the embedding (the
 * first; the only one without a pipeline) that piece is exposed, `vocab × h / t` parameters,
 * not a layer's share; the output layer's weights, gathered last and reduced first, hide. apex's
 * DistributedFusedAdam (NeMo 24.07's optimizer) syncs its gradient buckets in the same
 * backward order. The piece with nothing under it of `comm` seconds of a collective of `per`
 * bytes a parameter over the `dense` parameters of a stage of `stage` layers: the embedding's
 * where it holds more parameters than a layer's share (so most plans of large models skip its
 * collective's cost), else a layer's. */
static double dp_piece(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, double comm,
		       double stage, double dense, double span, double n, PlanColl kind, double per)
{
	double layer = comm / fmax(1, stage), emb = m->vocab * m->hidden / c->tp;
	if (emb * fmax(1, stage) <= dense)
		return layer;
	return fmax(layer, collective(hw, span, n, kind, per * emb));
}

/* The faster allowed setting of an overlap knob whose exposed time is `on` with it and `off`
 * without (overlap_on's rule, the times given). */
static bool knob_on(unsigned allowed, double on, double off)
{
	return (allowed & 2u) && (!(allowed & 1u) || on < off);
}

/* DualPipe's overlap (DeepSeek-AI 2024, §3.2.1, Figure 4): a forward chunk and a backward
 * chunk of two micro-batches run together, the all-to-all and the pipeline sends of each under
 * the other's attention and MLP, "both all-to-all and PP communication can be fully hidden".
 * The communication does not run under its own collective's compute, so OVERLAP_MAX's first
 * and last pieces with nothing under them do not apply: all of it hides while the compute
 * lasts, still costing OVERLAP_COST of what hides (DeepSeek gives it 20 of the H800's SMs,
 * §3.2.2). The faster allowed setting into *on; returns the exposed seconds. */
static double exposed_paired(unsigned allowed, double comm, double busy, bool *on)
{
	double hidden = fmin(busy, comm), with = comm - hidden + OVERLAP_COST * hidden;
	*on = knob_on(allowed, with, comm);
	return *on ? with : comm;
}
static const double HBM_EFF = 0.8;
static const double ADAM_BYTES = 32;

static int n_dense(const PlanModel *m)
{
	return m->experts > 1 ? (int)m->dense_layers : (int)m->layers;
}

/* Multi-token prediction (DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv 2412.19437,
 * §2.2): D = mtp sequential modules, the k-th "a shared embedding layer, a projection matrix,
 * a Transformer block, and a shared output head"; in Megatron-Core each an RMSNorm of the
 * hidden states and one of the next token's embedding (enorm, hnorm), their concatenation
 * projected 2h -> h by a column-parallel linear (eh_proj), one layer built from the decoder's
 * layer spec, a final norm, and the output layer again (MultiTokenPredictionLayer,
 * megatron/core/transformer/multi_token_prediction.py, NVIDIA/Megatron-LM at 00611e6). Its
 * layer is of the model's last kind: an MoE layer in an MoE model (DeepSeek-V3's released
 * layer 61, first_k_dense_replace 3), else dense. */
static double mtp_dense(const PlanModel *m)
{
	return n_dense(m) >= m->layers ? m->mtp : 0;
}

static double mtp_moe(const PlanModel *m)
{
	return m->mtp - mtp_dense(m);
}

/* Megatron-Core's parallel folding (NVIDIA, "Scalable Training of Mixture-of-Experts Models
 * with Megatron Core", arXiv 2603.07685, 2026, §3; --expert-tensor-parallel-size 1): the
 * experts whole on each rank (expert TP 1) and the expert-parallel group laid over the
 * attention's TP × CP × DP ranks, TP innermost; without it, expert TP = TP and EP divides
 * CP × DP. Each rank then routes its own sequence-parallel shard of the tokens, T/t (Megatron
 * requires SP for MoE under TP), where with expert TP = TP the dispatcher gathers the TP
 * group's T tokens and each rank computes its slice of every expert for all of them. */
static double expert_tp(const PlanConfig *c)
{
	return c->fold ? 1 : c->tp;
}

/* The ranks holding the same experts (their data-parallel group): TP × CP × DP / EP folded,
 * CP × DP / EP without. */
static double expert_dp(const PlanConfig *c)
{
	return (double)c->dp * c->cp * (c->fold ? c->tp : 1) / c->ep;
}

/* The ranks of one data-parallel replica holding each stage's parameters: 2 under DualPipe,
 * whose rank i holds stages i and p − 1 − i, the two copies' gradients summed
 * (deepseek-ai/DualPipe examples/example_dualpipe.py at 7cb1e5e: each rank adds its partner's
 * copy's gradients), so a stage's data-parallel group is twice the replicas, the distributed
 * optimizer's shards and the gradient reduction over both; 1 otherwise. */
static double copies(const PlanConfig *c)
{
	return plan_dualpipe(c) ? 2 : 1;
}

/* Tokens a rank routes per micro-batch: T (the TP group's, gathered) or T/t folded. */
static double routed_tokens(const PlanConfig *c, double tokens)
{
	return c->fold ? tokens / c->tp : tokens;
}

/* The capacity factor padding each expert's tokens (capacity_factor; 0, dropless: 1). */
static double capacity_factor(const PlanConfig *c)
{
	return c->capacity > 0 ? c->capacity : 1;
}

/* Rows a rank dispatches per micro-batch: each routed token's k copies, padded by the capacity
 * factor (cf·k·T, T the routed tokens). */
static double dispatched_rows(const PlanModel *m, const PlanConfig *c, double tokens)
{
	return capacity_factor(c) * routed_tokens(c, tokens) * m->top_k;
}

/* Model chunks a pipeline rank holds (the interleaving v; unset: 1). */
static double chunks(const PlanConfig *c)
{
	return c->v > 0 ? c->v : 1;
}

/* ---- FLOPs (Narayanan et al., SC'21, §5.1 and appendix, generalised) ------------------------ */

/* The attention's widths per token: queries q = a·dq, keys k = g·dq, values v = g·dv and the
 * output projection's input o = a·dv, with dq = dv = d (GQA: g key/value heads) or, under
 * Multi-head Latent Attention, dq = d + r (the decoupled rotary part) and dv the value head
 * with g = a (DeepSeek-AI, "DeepSeek-V2", arXiv 2405.04434, §2.1.2-2.1.3). */
typedef struct AttnDims {
	double q, k, v, o, dq, dv;
} AttnDims;

static AttnDims attn_dims(const PlanModel *m)
{
	bool mla = m->kv_lora > 0;
	double dq = m->head_dim + (mla ? m->rope_dim : 0), dv = mla ? m->v_dim : m->head_dim;
	return (AttnDims){m->heads * dq, m->groups * dq, m->groups * dv, m->heads * dv, dq, dv};
}

/* The attention's matrix weights one GPU of a TP group of t holds: the Q, K, V and output
 * projections split by TP; MLA's down-projections to the latents (h × q_lora, h × (kv_lora +
 * r), the rotary key shared by the heads) replicated, as Megatron-Core builds them, and its
 * up-projections (q_lora × q, kv_lora × a·(d + dv)) split. */
static double attn_matrices(const PlanModel *m, double t)
{
	AttnDims x = attn_dims(m);
	double h = m->hidden;
	if (m->kv_lora <= 0)
		return (h * (x.q + x.k + x.v) + x.o * h) / t;
	double ql = m->q_lora, kl = m->kv_lora;
	double down = (ql > 0 ? h * ql : 0) + h * (kl + m->rope_dim);
	double up = (ql > 0 ? ql : h) * x.q + kl * m->heads * (m->head_dim + x.dv);
	return down + (up + x.o * h) / t;
}

/* Forward FLOPs per token of one layer's attention: the projections, and the core (QKᵀ over dq
 * and AV over dv, all s keys, as the paper counts it; causal masking is not credited). MHA with
 * d = h/a gives 8h² + 4sh. */
static double attn_proj(const PlanModel *m)
{
	return 2 * attn_matrices(m, 1);
}

static double attn_core(const PlanModel *m)
{
	AttnDims x = attn_dims(m);
	return 2 * m->seq * (x.q + x.o);
}

/* FFN: mats matrices of h × F (GeLU 2: 16h² for F = 4h; SwiGLU 3); MoE: k routed and S shared
 * experts of size Fe, and the router (h × E). */
static double ffn_dense(const PlanModel *m)
{
	return 2 * m->mats * m->hidden * m->ffn;
}

static double ffn_moe(const PlanModel *m)
{
	return 2 * m->mats * m->hidden * m->expert_ffn * (m->top_k + m->shared) +
	       2 * m->hidden * m->experts;
}

static double layers_fwd_per_token(const PlanModel *m)
{
	double nd = n_dense(m), nm = m->layers - nd;
	double attn = attn_proj(m) + attn_core(m);
	return nd * (attn + ffn_dense(m)) + nm * (attn + ffn_moe(m));
}

/* Forward FLOPs per token of the MTP modules (mtp_dense): each its layer, the projection
 * (2·2h·h), its three norms (2·3h) and the logits again (2hV), as Megatron-LM counts them
 * (megatron/training/training.py at 00611e6, num_floating_point_operations: "MTP norms and
 * proj", 3·2·D·(3h + 2h²), the logits' (D + 1), the MTP layers among the layers). */
static double mtp_layers_fwd(const PlanModel *m)
{
	double attn = attn_proj(m) + attn_core(m);
	return mtp_dense(m) * (attn + ffn_dense(m)) + mtp_moe(m) * (attn + ffn_moe(m));
}

static double mtp_fwd_per_token(const PlanModel *m)
{
	if (m->mtp <= 0)
		return 0;
	double h = m->hidden;
	return mtp_layers_fwd(m) + m->mtp * (2 * (3 * h + 2 * h * h) + 2 * h * m->vocab);
}

/* Model FLOPs of one iteration: forward + backward (2 × forward) of every layer and of the
 * logit layer (2hV per token). For GPT (MHA, GeLU, F = 4h) this is Narayanan et al.'s
 * 72·B·s·l·h²·(1 + s/6h + V/12lh). Recomputation is not model FLOPs. */
double plan_model_flops(const PlanModel *m, double batch)
{
	return 3 * batch * m->seq *
	       (layers_fwd_per_token(m) + 2 * m->hidden * m->vocab + mtp_fwd_per_token(m));
}

/* Model FLOPs with the causal mask credited: the attention core's QKᵀ and AV over the s(s+1)/2
 * unmasked scores only, about half (the count of FlashAttention-2, Dao 2024 §4.1, and of
 * Megatron-Bridge's model TFLOP/s; Llama 3's MFU, docs/parallelism.md "Accuracy"). */
double plan_model_flops_causal(const PlanModel *m, double batch)
{
	return plan_model_flops(m, batch) -
	       3 * batch * m->seq * (m->layers + m->mtp) * attn_core(m) / 2;
}

/* Hardware FLOPs: full recomputation repeats every layer's forward (Narayanan et al.'s
 * 96·B·s·l·h²·(1 + s/6h + V/16lh)); selective repeats only the attention core (Korthikanti et
 * al. 2022, §5). */
double plan_hw_flops(const PlanModel *m, double batch, int recompute)
{
	double f = plan_model_flops(m, batch), tokens = batch * m->seq;
	if (recompute == RC_FULL) /* the MTP modules' layers with the others */
		f += tokens * (layers_fwd_per_token(m) + mtp_layers_fwd(m));
	else if (recompute == RC_SELECTIVE)
		f += tokens * (m->layers + m->mtp) * attn_core(m);
	return f;
}

/* Parameters: attention (Q, K, V, output), two layer norms, FFN or experts and router, and
 * the embedding, once when the output layer shares it (GPT-3 175B comes out at 174.6e9),
 * twice when untied (Llama 3.1 405B at 405.9e9). Biases are left out (under 0.01 %). */
double plan_params(const PlanModel *m)
{
	double h = m->hidden;
	/* The matrices, two norms (weight and bias), MLA's latent norms and the QK norms' weights
	 * (one of head_dim for the queries, one for the keys: Qwen3's q_norm and k_norm). */
	double attn = attn_matrices(m, 1) + 4 * h + (m->kv_lora > 0 ? m->q_lora + m->kv_lora : 0) +
		      (m->qk_norm ? 2 * m->head_dim : 0);
	double nd = n_dense(m) + mtp_dense(m), nm = m->layers - n_dense(m) + mtp_moe(m);
	double moe = (m->experts + m->shared) * m->mats * h * m->expert_ffn + h * m->experts;
	/* The MTP modules' layers are among nd and nm; each adds its projection and three norms
	 * (the embedding and output layer are the model's, shared: mtp_dense). */
	return nd * (attn + m->mats * h * m->ffn) + nm * (attn + moe) +
	       m->mtp * (2 * h * h + 3 * h) + (m->tied ? 1 : 2) * m->vocab * h;
}

/* ---- pipeline (Narayanan et al. §2.2; Korthikanti et al. §4.2.3) ---------------------------- */

/* The bubble of 1F1B: (p − 1)/m of the ideal time; interleaving v chunks per GPU divides it
 * by v: (p − 1)/(v·m). */
double plan_bubble_fraction(int pp, int v, int microbatches)
{
	return (double)(pp - 1) / ((double)v * microbatches);
}

/* The first, middle and last stages' layers; first = last = 0 is the even split. */
static void stage_layers(const PlanModel *m, const PlanConfig *c, double *first, double *mid,
			 double *last)
{
	if (c->first <= 0 || c->pp <= 1) {
		*first = *mid = *last = m->layers / (c->pp > 0 ? c->pp : 1);
		return;
	}
	*first = c->first, *last = c->last;
	*mid = c->pp < 3 ? *first : (m->layers - c->first - c->last) / (c->pp - 2);
}

double plan_mid_layers(const PlanModel *m, const PlanConfig *c)
{
	double f, mid, l;
	stage_layers(m, c, &f, &mid, &l);
	return mid;
}

/* Uneven stages (Llama Team 2024, "The Llama 3 Herd of Models", §3.3.2: one layer fewer on
 * the first and the last stage, which also hold the embedding and the output layer and loss,
 * so that 126 layers run at PP 16; DeepSeek-V3's 61 layers at PP 16, DeepSeek-AI 2024 §3.2):
 * the middle stages at mid = ⌈L/p⌉ layers, the first and last sharing the remaining
 * L − (p − 2)·mid with mid − 2 to mid layers each (at least one). So p may divide L, or L plus
 * 1 to 4; the even split is the only one when p divides L. */
int plan_stage_splits(const PlanModel *m, int pp, int (*out)[2], int max)
{
	int L = (int)m->layers, n = 0;
	if (pp < 1 || pp > L || max < 1)
		return 0;
	if (pp == 1 || L % pp == 0) {
		out[0][0] = out[0][1] = L / pp;
		return 1;
	}
	int mid = (L + pp - 1) / pp, rem = L - (pp - 2) * mid;
	for (int last = mid; last >= mid - 2 && last >= 1 && n < max; last--) {
		int first = rem - last;
		if (first >= mid - 2 && first <= mid && first >= 1)
			out[n][0] = first, out[n][1] = last, n++;
	}
	return n;
}

/* A pipeline layout the workload fixes (Megatron-LM --decoder-first-pipeline-num-layers and
 * --decoder-last-pipeline-num-layers, megatron/training/arguments.py: "the remaining layers
 * are evenly distributed" over the other stages): the first and/or last stage's layers given,
 * the middle stages share the rest evenly (at least one layer each), an unset end taking a
 * middle stage's share. DeepSeek-V3's recipes split 61 layers 16 + 16 + 16 + 13 at PP 4
 * (Megatron-Bridge, megatron/bridge/recipes/deepseek/deepseek_v3.py): first 16, last 13,
 * which the searched splits (ends at most two layers short) do not reach. Without fixed
 * values, plan_stage_splits. */
int plan_splits(const PlanModel *m, int pp, int first, int last, int (*out)[2], int max)
{
	if (first <= 0 && last <= 0)
		return plan_stage_splits(m, pp, out, max);
	int L = (int)m->layers;
	if (pp < 2 || max < 1)
		return 0;
	int ends = (first > 0) + (last > 0), rest = L - (first > 0 ? first : 0) - (last > 0 ? last : 0);
	int others = pp - ends; /* the stages sharing the rest */
	if (others == 0) {
		if (rest != 0)
			return 0;
		out[0][0] = first, out[0][1] = last;
		return 1;
	}
	if (rest < others || rest % others)
		return 0;
	int share = rest / others;
	out[0][0] = first > 0 ? first : share;
	out[0][1] = last > 0 ? last : share;
	return 1;
}

/* Interleaving with uneven stages (Llama Team 2024, §3.3.2, runs 126 layers at PP 16 with
 * interleaving): the pp·v virtual stages are the first chunk (first − (v−1)·mid/v layers and
 * the embedding), mid/v layers each, and the last chunk (last − (v−1)·mid/v and the loss), so
 * that every GPU holds the split's layers. The end chunks may hold no layer: the first virtual
 * stage the embedding alone and the last the output layer and loss alone, Llama 3's layout
 * (ibid.: the first and last stages each one layer short, so at interleaving 8 every virtual
 * stage is one item; Megatron-LM's --pipeline-model-parallel-layout takes such stages, as in
 * its DeepSeek-V3 layout "...|L"). */
bool plan_uneven_interleave_ok(const PlanModel *m, const PlanConfig *c, int v)
{
	double first, mid, last;
	stage_layers(m, c, &first, &mid, &last);
	if (v <= 1)
		return true;
	if (c->pp < 3 || fmod(mid, v) != 0)
		return false;
	double chunk = mid / v;
	return first - (v - 1) * chunk >= 0 && last - (v - 1) * chunk >= 0;
}

/* Layer-micro-batches of activations a stage holds at its peak: in 1F1B stage i keeps min(p − i,
 * m) micro-batches of its layers in flight; the first stage min(p, m) of its `first` layers (L in
 * all with an even split), the second min(p − 1, m) of the middle stages' (which matters when
 * the first is shorter); interleaving adds (p − 1)/(p·v) (Korthikanti et al. §4.2.3:
 * L·(1 + (p−1)/(p·v))). Without a pipeline one micro-batch of L layers. */
double plan_inflight_layers(const PlanModel *m, const PlanConfig *c, int microbatches)
{
	int pp = c->pp, v = c->v;
	if (pp <= 1)
		return m->layers + m->mtp;
	double first, mid, last;
	stage_layers(m, c, &first, &mid, &last);
	/* DualPipe: PP + 1 micro-batches of a stage's activations (DeepSeek-AI 2024, Table 2),
	 * a stage being the mean of the rank's two: a middle rank's two middle stages. */
	if (plan_dualpipe(c))
		return (pp + 1) * (pp > 2 ? mid : (first + last) / 2);
	double inflight = microbatches < pp ? microbatches : pp;
	double extra = v > 1 ? 1 + (double)(pp - 1) / ((double)pp * v) : 1;
	double held = first * inflight * extra;
	if (pp > 2) {
		double second = microbatches < pp - 1 ? microbatches : pp - 1;
		held = fmax(held, mid * second * extra);
	}
	return held;
}

/* Layer-micro-batches the last stage holds at its peak: in 1F1B one micro-batch of its `last`
 * layers (stage p − 1 keeps min(p − i, m) = 1 in flight); interleaved, Megatron-LM's warm-up
 * of (v − 1)·p chunks and the one running (megatron/core/pipeline_parallel/schedules.py,
 * get_pp_rank_microbatches: (p − rank − 1)·2 + (v − 1)·p warm-up micro-batch chunks), each of
 * last/v layers. The logits of one micro-batch come on top of it (plan_act_memory). Without a
 * pipeline, the model's layers (plan_inflight_layers). */
double plan_last_inflight_layers(const PlanModel *m, const PlanConfig *c, int microbatches)
{
	int pp = c->pp, v = (int)chunks(c);
	if (pp <= 1)
		return m->layers + m->mtp;
	double first, mid, last;
	stage_layers(m, c, &first, &mid, &last);
	/* DualPipe: the end ranks hold the first and the last stage (plan_stage_params), PP + 1
	 * micro-batches of their mean (plan_inflight_layers), and the logits. */
	if (plan_dualpipe(c))
		return (pp + 1) * (first + last + m->mtp) / 2;
	double chunks = fmin((double)(v - 1) * pp + 1, (double)microbatches * v);
	/* The MTP modules' layers (mtp_dense) are in the last virtual stage, the pipeline's
	 * last, whose forward of a micro-batch is followed by its backward at once: one
	 * micro-batch of them. */
	return last * chunks / v + m->mtp;
}

/* The bytes per token the plan's recompute modules discard (below, "selective recomputation by
 * module"). */
static double rc_module_bytes(const PlanModel *m, const PlanConfig *c, bool moe, double *fp8);

/* ---- memory --------------------------------------------------------------------------------- */

/* Bytes the QK norms of one layer keep for one micro-batch on one GPU (0 without qk_norm or
 * with full recomputation). Megatron-Core's SelfAttention (megatron/core/transformer/
 * attention.py, get_query_key_value_tensors) runs q_layernorm over the query heads and
 * k_layernorm over the key heads after the QKV projection, before RoPE and the core; with
 * Transformer Engine each is TENorm, whose RMSNorm (transformer_engine/pytorch/ops/basic/
 * rmsnorm.py, op_forward, read at 02dc770, 2026-12) saves its input x and the FP32 inverse
 * RMS of each row (rstdevs) for backward. Its output, roped, is the core's Q and K, which
 * plan_layer_activation_bytes already counts. Per token: the BF16 heads 2(a·d + g·d) and 4
 * bytes a head, 4(a + g), split by TP as the heads are. Its time follows from the bytes as
 * every memory-bound kernel's does (layer_times: read and written in forward, twice that in
 * backward). */
double plan_qk_norm_bytes(const PlanModel *m, const PlanConfig *c)
{
	if (!m->qk_norm || c->recompute == RC_FULL)
		return 0;
	AttnDims x = attn_dims(m);
	double tokens = (double)c->micro * m->seq / c->cp;
	return tokens * (2 * (x.q + x.k) + 4 * (m->heads + m->groups)) / c->tp;
}

/* Bytes of activations one layer keeps from forward to backward for one micro-batch on one GPU
 * (Korthikanti et al. 2022, Table 2, generalised). Per token: 10h not split by TP (layer-norm
 * inputs 4h, QKV and FC1 inputs 4h, two dropout masks 2h) unless sequence parallelism splits
 * them; split by TP: Q and K 2(ad + gd), V 2gd, attention output 2ad and the MLP (GeLU: its
 * input and output, 4F; SwiGLU: gate, up and their product, 6F; an MoE layer that per routed
 * and shared expert, and the dispatched token 2h per route); and the attention core 5as
 * (softmax output, dropout mask and output), which selective recomputation drops; a model
 * without dropout keeps 8h and 2as (dropout: a model field, default 0.1 as Megatron). Full
 * recomputation keeps only the layer input, 2h (split by SP). MHA with F = 4h gives the
 * paper's sbh(34 + 5as/h), and sbh(10 + 24/t + 5as/ht) under TP. A model with qk_norm keeps
 * its QK norms' inputs too, split by TP: plan_qk_norm_bytes. */
double plan_layer_activation_bytes(const PlanModel *m, const PlanConfig *c, bool moe)
{
	double h = m->hidden;
	AttnDims x = attn_dims(m);
	double tokens = (double)c->micro * m->seq / c->cp, t = c->tp;
	double r_div = c->sp ? t : 1;
	if (c->recompute == RC_FULL)
		return tokens * 2 * h / r_div;
	double mlp_per = m->mats > 2 ? 6 : 4;
	/* A capacity factor pads each expert's input to cf x its balanced share (Fedus et al.,
	 * "Switch Transformers", JMLR 2022, §2.2): cf x the routed activations. */
	double cf = capacity_factor(c);
	double mlp = moe ? (cf * m->top_k + m->shared) * mlp_per * m->expert_ffn + cf * 2 * h * m->top_k
			 : mlp_per * m->ffn;
	double split = 2 * (x.q + x.k) + 2 * x.v + 2 * x.o + mlp;
	/* MLA keeps its latents (the up-projections' inputs), on every TP rank. */
	double latent = m->kv_lora > 0 ? 2 * (m->q_lora + m->kv_lora + m->rope_dim) : 0;
	/* Without dropout there are no masks (h each after attention and MLP; as in the core)
	 * and the core's AV multiply reads the softmax output itself (no 2as dropout output). */
	bool drop = m->dropout > 0;
	bool core_kept = !(plan_rc_modules(c) & (1u << RCM_CORE_ATTN));
	double core = core_kept ? (drop ? 5 : 2) * m->heads * m->seq : 0;
	/* FlashAttention keeps no s x s tensor: the output (counted above as 2ad) and the softmax
	 * statistics, one fp32 logsumexp a head and token (Dao et al., NeurIPS 2022, §3.1; the
	 * dropout mask is regenerated from the RNG state). Checkpointed (core_attn: Megatron-Core's
	 * Attention.forward runs the core, fused or not, through _checkpointed_attention_forward,
	 * tensor_parallel.checkpoint of its Q, K and V; megatron/core/transformer/attention.py at
	 * f41b4fd), the core keeps nothing of its own: the statistics go (its output is the output
	 * projection's input, kept all the same). Not counted: Transformer Engine's fused core also
	 * keeps that output in BF16 for its own backward where the output projection keeps an FP8
	 * copy (docs/parallelism.md, "Where the model still misses"). */
	if (c->flash)
		core = core_kept ? 4 * m->heads : 0;
	double f8;
	return tokens * ((drop ? 10 : 8) * h / r_div + latent + (split + core) / t -
			 rc_module_bytes(m, c, moe, &f8)) +
	       plan_qk_norm_bytes(m, c);
}

/* What FP8 saves of plan_layer_activation_bytes: Transformer Engine keeps the input of each
 * FP8 linear layer for its weight-gradient GEMM as the FP8 copy it cast for the forward (NVIDIA
 * Transformer Engine, transformer_engine/pytorch/module/linear.py and layernorm_linear.py,
 * which save the casted input when fp8 is on), so the inputs of the QKV and first FFN
 * multiplies (h a token, split by SP), of the output projection (a·d) and of the second FFN
 * multiply (F; per routed and shared expert) take one byte rather than two; and in an MoE
 * layer the routed experts' first multiply's input, the dispatched tokens (cf·k·h a token,
 * counted 2h a route by plan_layer_activation_bytes): the grouped linear layer saves the FP8
 * inputs it quantized (_GroupedLinear.forward saves `*inputmats` after
 * tex.fused_multi_quantize, transformer_engine/pytorch/module/grouped_linear.py at 0069563),
 * and nothing else keeps the BF16 rows (the permutations and the all-to-all need no input for
 * their backward). Nothing with full recomputation, which keeps only the layer's BF16 input. */
double plan_fp8_activation_saving(const PlanModel *m, const PlanConfig *c, bool moe)
{
	if (c->recompute == RC_FULL)
		return 0;
	double h = m->hidden, ad = attn_dims(m).o;
	double tokens = (double)c->micro * m->seq / c->cp, t = c->tp;
	double cf = capacity_factor(c);
	double fc2 = moe ? (cf * m->top_k + m->shared) * m->expert_ffn : m->ffn;
	double rows = moe ? cf * m->top_k * h : 0;
	double f8; /* what the recompute modules discard of it */
	rc_module_bytes(m, c, moe, &f8);
	return tokens * (2 * h / (c->sp ? t : 1) + (ad + fc2 + rows) / t - f8);
}

/* Bytes per parameter of weights, gradients and Adam state with BF16 weights and FP32 gradient
 * accumulation: 2 + 4 + 12 = 18; the distributed optimizer shards the 12 bytes of FP32 master
 * weights and moments over the data-parallel group: 6 + 12/d (Megatron-LM,
 * docs/source/distrib_optimizer.md). Gradients sharded too (ZeRO-2) are plan_state_memory's. */
double plan_state_bytes_per_param(bool dopt, double dp_group)
{
	return dopt ? 6 + 12 / dp_group : 18;
}

/* Bytes a parameter of the optimizer's own state: FP32 master weights and two FP32 moments, 12;
 * with optimizer_bf16, 6: the moments in BF16 and of each master weight only the 16 bits its
 * BF16 weight does not hold (Megatron-Core OptimizerConfig: use_precision_aware_optimizer,
 * exp_avg_dtype = exp_avg_sq_dtype = bf16, store_param_remainders, which defaults to true;
 * apex DistributedFusedAdam with dtype = bf16 and store_param_remainders, NeMo's
 * `optim.dtype: bf16`). */
double plan_optimizer_bytes(const PlanConfig *c)
{
	return c->opt16 ? 6 : 12;
}

/* The dense and expert parameters of one GPU of a stage of `stage` layers from layer lo with
 * e of embedding or output layer, into *dense and *expert (stage_params). */
static void range_params(const PlanModel *m, const PlanConfig *c, double lo, double stage,
			 double e, double *dense, double *expert)
{
	double h = m->hidden, t = c->tp;
	double attn = attn_matrices(m, t) + 4 * h / t;
	double nd = n_dense(m);
	double shared = m->shared * m->mats * h * m->expert_ffn;
	double routed = m->experts / c->ep * m->mats * h * m->expert_ffn;
	double dl = fmax(0, fmin(lo + stage, nd) - lo), ml = stage - dl;
	*dense = stage * attn + dl * m->mats * h * m->ffn / t + ml * (shared / t + h * m->experts) +
		 e;
	*expert = ml * routed / expert_tp(c);
}

/* The dense and expert parameters of one GPU of the first, the last and a middle stage
 * (plan_stage_params), into sd[3] and se[3] in that order; 0 for a stage the pipeline has not. */
static void stage_params(const PlanModel *m, const PlanConfig *c, double *sd, double *se)
{
	double first, mid, last, emb = m->vocab * m->hidden / c->tp;
	stage_layers(m, c, &first, &mid, &last);
	/* The first stage: layers [0, first) and the embedding; the last: [L − last, L) and the
	 * output layer; a middle one: [first, first + mid) (the first middle stage holds most of
	 * an MoE model's leading dense layers). */
	double lo[3] = {0, m->layers - last, first};
	double n[3] = {first, last, mid};
	for (int which = 0; which < 3; which++) {
		sd[which] = se[which] = 0;
		if (which >= (c->pp > 2 ? 3 : c->pp > 1 ? 2 : 1))
			continue;
		double stage = c->pp == 1 ? m->layers : n[which];
		double e = which == 2 ? 0 : c->pp == 1 ? (m->tied ? emb : 2 * emb) : emb;
		range_params(m, c, lo[which], stage, e, &sd[which], &se[which]);
	}
	/* The MTP modules (mtp_dense) on the last stage: Megatron-Core builds them where
	 * is_pipeline_last_stage holds, in its last virtual stage, without a custom layout
	 * (get_mtp_num_layers_to_build, multi_token_prediction.py at 00611e6), as
	 * Megatron-Bridge's DeepSeek-V3 layouts put "mtp" beside "loss"
	 * (megatron/bridge/recipes/deepseek/deepseek_v3.py at 05d003f). Each its layer, its
	 * projection split by TP and three norms; and with a pipeline, the word embedding the
	 * modules embed the next tokens with, a copy of the first stage's kept in step as a tied
	 * output layer's is (tie_word_embeddings_state_dict: "copy of embedding in pre
	 * processing stage"), unless the output layer is that copy already (tied), or under
	 * DualPipe, whose end rank holds the embedding's stage too: DeepSeek-V3 "deploy[s] the
	 * shallowest layers (including the embedding layer) and deepest layers (including the
	 * output head) of the model on the same PP rank", which "enables the physical sharing of
	 * parameters and gradients, of the shared embedding and output head, between the MTP
	 * module and the main model" (DeepSeek-AI 2024, §3.2.3). */
	if (m->mtp > 0) {
		int at = c->pp > 1 ? 1 : 0;
		double d, x, h = m->hidden;
		/* The modules' layers as a range past the model's MoE layers, or (a dense model's)
		 * ending at its last dense layer, so that none is counted as MoE. */
		range_params(m, c, mtp_moe(m) > 0 ? m->layers : n_dense(m) - m->mtp, m->mtp, 0, &d,
			     &x);
		sd[at] += d + m->mtp * (2 * h * h + 3 * h) / c->tp +
			  (c->pp > 1 && !m->tied && !plan_dualpipe(c) ? emb : 0);
		se[at] += x;
	}
}

/* DualPipe's rank pairs' parameters (plan_dualpipe_params): rank i holds stages i and
 * p − 1 − i (deepseek-ai/DualPipe dualpipe/dualpipe.py at bb214e8), so the end ranks the first
 * and the last stage (sd, se: stage_params'), and a middle rank two middle stages of `mid`
 * layers each, [first + (i − 1)·mid, first + i·mid) and the one p − 1 − i mirrors, which
 * differ where the leading dense layers fall in the first; the largest such pair. Past the
 * dense layers every pair is alike, so the loop stops at the first pair without any. */
static void pair_params(const PlanModel *m, const PlanConfig *c, const double sd[3],
			const double se[3], double end[2], double mid[2])
{
	end[0] = sd[0] + sd[1], end[1] = se[0] + se[1];
	mid[0] = mid[1] = 0;
	if (c->pp <= 2)
		return;
	double first, n, last, nd = n_dense(m);
	stage_layers(m, c, &first, &n, &last);
	for (int i = 1; i < c->pp / 2; i++) {
		double lo = first + (i - 1) * n, d1, e1, d2, e2;
		range_params(m, c, lo, n, 0, &d1, &e1);
		range_params(m, c, first + (c->pp - 2 - i) * n, n, 0, &d2, &e2);
		if (i == 1 || d1 + d2 + e1 + e2 > mid[0] + mid[1])
			mid[0] = d1 + d2, mid[1] = e1 + e2;
		if (lo >= nd)
			break;
	}
}

/* The parameters one GPU holds on the pipeline stage that holds most: the first (its layers
 * and the embedding) or the last (its layers and the output layer: a copy of the embedding
 * when tied, Megatron-LM keeping both in step by an all-reduce), both on one GPU without a
 * pipeline (the embedding once when tied). Attention, dense FFNs, shared experts and norms are split by TP; routed
 * experts by EP and TP (expert tensor parallelism = TP), or by EP alone when folded
 * (expert_tp); routers are replicated. */
void plan_stage_params(const PlanModel *m, const PlanConfig *c, double *dense, double *expert)
{
	double sd[3], se[3], best_d = 0, best_e = 0;
	stage_params(m, c, sd, se);
	for (int which = 0; which < 3; which++)
		if (sd[which] + se[which] > best_d + best_e)
			best_d = sd[which], best_e = se[which];
	/* DualPipe: rank i holds stages i and p − 1 − i (DualPipe takes a pair of modules a rank,
	 * deepseek-ai/DualPipe dualpipe/dualpipe.py at bb214e8), "two copies of the model
	 * parameters" (DeepSeek-AI 2024, §3.2.1; Table 2: parameters 2×): the end ranks the
	 * first and the last stage, the others two middle stages; the larger pair here
	 * (plan_dualpipe_memory weighs each pair with its own activations). */
	if (plan_dualpipe(c)) {
		double end[2], mid[2];
		pair_params(m, c, sd, se, end, mid);
		best_d = end[0], best_e = end[1];
		if (c->pp > 2 && mid[0] + mid[1] > best_d + best_e)
			best_d = mid[0], best_e = mid[1];
	}
	*dense = best_d;
	*expert = best_e;
}

void plan_dualpipe_params(const PlanModel *m, const PlanConfig *c, double end[2], double mid[2])
{
	double sd[3], se[3];
	stage_params(m, c, sd, se);
	pair_params(m, c, sd, se, end, mid);
}

/* DualPipe's memory per GPU (bytes): the larger of an end rank's, the first and the last
 * stage with PP + 1 micro-batches of their mean layers and the logits, and a middle rank's,
 * two middle stages with PP + 1 micro-batches of theirs (DeepSeek-AI 2024, Table 2: parameters
 * 2×, activations PP + 1; plan_inflight_layers), each with the recomputation's working set.
 * Fills o's memory fields with that rank's when o is not NULL. */
double plan_dualpipe_memory(const PlanModel *m, const PlanConfig *c, const PlanLayer *l,
			    PlanCost *o)
{
	double end[2], mid[2], w, g, w2 = 0, g2 = 0;
	plan_dualpipe_params(m, c, end, mid);
	double st = plan_state_memory(m, c, end[0], end[1], l->fp8_cache, &w, &g);
	double st2 = c->pp > 2 ? plan_state_memory(m, c, mid[0], mid[1], l->fp8_cache, &w2, &g2) : 0;
	bool middle;
	/* plan_inflight_layers' DualPipe count takes no micro-batch count */
	double act = plan_dualpipe_act(c, l, st, st2, plan_inflight_layers(m, c, 0),
				       plan_last_inflight_layers(m, c, 0), &middle);
	if (middle)
		st = st2, w = w2, g = g2;
	if (o) {
		o->mem_states = st, o->mem_weights = w, o->mem_grads = g;
		o->mem_optim = st - w - g;
		o->mem_act = act;
		o->mem_host = 0;
		o->mem = st + act;
	}
	return st + act;
}

/* ---- time ----------------------------------------------------------------------------------- */

/* Efficiency of an m×k by k×n matrix multiply: the accelerator's large-matrix efficiency,
 * reduced in proportion where the multiply's arithmetic intensity I = 2mnk / bytes moved is
 * below the ridge point peak·eff/HBM bandwidth (the roofline, Williams, Waterman and Patterson,
 * CACM 2009; NVIDIA, "Matrix Multiplication Background User's Guide": GEMMs below the
 * ops:byte ratio are memory-bound), or, on an accelerator with a measured table of throughput
 * by size (gemm_table; gemm_size.c), by the share of the large-matrix rate a multiply of its
 * size was measured to keep, whichever is less (the measurement includes its memory-bound
 * part). Operands of elem_bytes, a BF16 result. */
static double roofline(const PlanHw *hw, double peak, double eff, double elem, double m, double n,
		       double k)
{
	double bytes = elem * (m * k + k * n) + 2 * m * n;
	double intensity = 2 * m * n * k / bytes;
	double ridge = peak * eff / hw->hbm_bw;
	double r = intensity < ridge ? intensity / ridge : 1;
	if (hw->gemm_table != GT_NONE) {
		double f = gemm_size_factor(hw->gemm_table, elem < 2, m, n, k);
		r = f < r ? f : r;
	}
	return eff * r;
}

double plan_matmul_efficiency(const PlanHw *hw, double m, double n, double k)
{
	return roofline(hw, hw->peak, hw->eff_large, hw->elem_bytes, m, n, k);
}

/* The accelerator's large-matrix efficiency in BF16: in an FP8 run the multiplies Transformer
 * Engine leaves in BF16 (the attention core; the output layer, which Megatron-Core builds as a
 * plain ColumnParallelLinear, megatron/core/models/gpt/gpt_model.py) run at BF16's peak and
 * BF16's efficiency, not FP8's. */
static double eff16(const PlanHw *hw)
{
	return hw->eff16 > 0 ? hw->eff16 : hw->eff_large;
}

/* The fused attention kernel by sequence length: cuDNN's fused attention on H100 SXM5, BF16,
 * head dim 128, batch x sequence 16K, at sequence 512, 1K, 2K, 4K, 8K and 16K, TFLOP/s: the
 * forward with the causal mask and the backward without it, the only backward published
 * (Shah et al., "FlashAttention-3", arXiv 2407.08608, 2024, figures 5 and 6). The
 * accelerators' attention_efficiency and attention_backward_efficiency are the means over 4K,
 * 8K and 16K (std.accelerators); a kernel call at another length runs at the mean times the
 * curve's ratio there, read linearly between the measured lengths in log2 and flat beyond
 * them (it is flat from 4K: 518-539 forward). The H100's curve stands for the other
 * accelerators' (an estimate: no other per-length cuDNN figures were found). */
static const double ATTN_SEQ_FWD[] = {315, 410, 484, 518, 529, 539};
static const double ATTN_SEQ_BWD[] = {305, 408, 465, 499, 518, 516};

static double attn_seq_factor(const double *tflops, double len)
{
	double mean = (tflops[3] + tflops[4] + tflops[5]) / 3;
	double x = log2(len / 512);
	if (!(x > 0))
		return tflops[0] / mean;
	if (x >= 5)
		return tflops[5] / mean;
	int i = (int)x;
	return (tflops[i] + (x - i) * (tflops[i + 1] - tflops[i])) / mean;
}

/* The fused attention kernel's shares of the BF16 peak, forward and backward, at a kernel
 * call's sequence length `len` (the accelerator's attention_efficiency and
 * attention_backward_efficiency by attn_seq_factor; a PlanHw built by hand without them:
 * BF16's large-matrix efficiency, whatever the length). */
static double attn_eff(const PlanHw *hw, double len)
{
	return hw->attn_eff > 0 ? hw->attn_eff * attn_seq_factor(ATTN_SEQ_FWD, len) : eff16(hw);
}

static double attn_bwd_eff(const PlanHw *hw, double len)
{
	return hw->attn_bwd_eff > 0 ? hw->attn_bwd_eff * attn_seq_factor(ATTN_SEQ_BWD, len)
				    : attn_eff(hw, len);
}

/* Seconds of `batch` m×k by k×n multiplies at the workload's precision (FP8 or BF16). */
static double gemm(const PlanHw *hw, double batch, double m, double n, double k)
{
	if (batch <= 0 || m <= 0 || n <= 0 || k <= 0)
		return 0;
	double eff = plan_matmul_efficiency(hw, m, n, k);
	return batch * 2 * m * n * k / (hw->peak * eff);
}

/* The same in BF16 whatever the workload's precision. */
static double gemm16(const PlanHw *hw, double batch, double m, double n, double k)
{
	if (batch <= 0 || m <= 0 || n <= 0 || k <= 0)
		return 0;
	double eff = roofline(hw, hw->peak16, eff16(hw), 2, m, n, k);
	return batch * 2 * m * n * k / (hw->peak16 * eff);
}

/* The three passes of a linear layer's multiply, each at its own shape. Forward Y = X·W, X
 * m×k (m rows: tokens, or a local expert's tokens), W k×n. The backward's two multiplies are
 * not the forward's shape: the input gradient dX = dY·Wᵀ is m×n by n×k (its inner dimension
 * the forward's n) and the weight gradient dW = Xᵀ·dY is k×m by m×n (its inner dimension the
 * forward's m, the rows the layer received: for an expert the few it was routed). Megatron-
 * Core's linear backward (megatron/core/tensor_parallel/layers.py at 000c4ac,
 * LinearWithGradAccumulationAndAsyncCommunication.backward: grad_input =
 * grad_output.matmul(weight), grad_weight = grad_output.t().matmul(total_input)), Transformer
 * Engine's (transformer_engine/pytorch/module/linear.py at 0004dbd: dgrad = gemm(weight,
 * grad_output, layout="NN"), wgrad = gemm(inputmat_total, grad_output, layout="NT")) and its
 * grouped experts' (module/grouped_linear.py at 0069563: general_grouped_gemm of the weights
 * and the output gradients, "NN", and of the inputs and the output gradients, "NT", one
 * multiply an expert over its m_splits rows). Each runs at the roofline and the measured size
 * factor of its own (m, n, k). Returns the forward's seconds and adds the backward's two to
 * *bwd; the pass's precision as gemm's. */
typedef struct {
	double all;   /* s: the backward's two multiplies */
	double wgrad; /* s: the weight gradient's of them (DualPipe's W) */
} BwdTime;

static double gemm_passes(const PlanHw *hw, BwdTime *bwd, double batch, double m, double n,
			  double k)
{
	double wg = gemm(hw, batch, k, n, m);
	bwd->all += gemm(hw, batch, m, k, n) + wg;
	bwd->wgrad += wg;
	return gemm(hw, batch, m, n, k);
}

double plan_gemm_backward(const PlanHw *hw, double m, double n, double k)
{
	BwdTime bwd = {0};
	gemm_passes(hw, &bwd, 1, m, n, k);
	return bwd.all;
}

/* The same in BF16 whatever the workload's precision (gemm16). */
static double gemm16_passes(const PlanHw *hw, BwdTime *bwd, double batch, double m, double n,
			    double k)
{
	double wg = gemm16(hw, batch, k, n, m);
	bwd->all += gemm16(hw, batch, m, k, n) + wg;
	bwd->wgrad += wg;
	return gemm16(hw, batch, m, n, k);
}

/* The routed experts' multiplies of one MoE layer and micro-batch of `tokens` tokens on the
 * rank: each of its E/e local experts receives tokens·k·e/E rows when routing balances (cf x
 * that padded to capacity, dispatched_rows), multiplied by its first FFN matrix, h by
 * (mats − 1)·Fe/ETP, and its second, Fe/ETP by h, each pass at its own shape (gemm_passes;
 * Transformer Engine's GroupedLinear runs one multiply an expert, module/grouped_linear.py at
 * 0069563). Returns the forward's seconds and adds the backward's to *bwd. */
static double expert_passes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
			    double tokens, BwdTime *bwd)
{
	double fe = m->expert_ffn, h = m->hidden, local = m->experts / c->ep, et = expert_tp(c);
	double te = dispatched_rows(m, c, tokens) * c->ep / m->experts;
	return gemm_passes(hw, bwd, local, te, (m->mats - 1) * fe / et, h) +
	       gemm_passes(hw, bwd, local, te, h, fe / et);
}

double plan_moe_expert_gemm_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
				 double *bwd)
{
	BwdTime b = {0};
	double fwd = 0;
	if (m->experts > 1 && c->ep >= 1)
		fwd = expert_passes(m, hw, c, (double)c->micro * m->seq / c->cp, &b);
	if (bwd)
		*bwd = b.all;
	return fwd;
}

/* Per-direction bandwidth (bytes/s, collective efficiency applied) of a group of `span`
 * consecutive GPUs from a domain boundary: the scale-up domain when it holds them; else the
 * fabric's per-GPU bandwidth (link speed × rails ÷ accelerators per node), divided by the
 * leaf's oversubscription once the group's nodes pass a leaf (a scalable unit when
 * rail-optimized) and by the spine's once they pass a pod (Leiserson 1985: a fat tree's
 * bandwidth at a level is its up-links'). Dragonfly and torus: the per-GPU share of the
 * bisection once the group leaves a node. */
double plan_group_bandwidth(const PlanHw *hw, double span)
{
	if (span <= hw->domain)
		return hw->su_bw * hw->su_eff;
	double nodes = ceil(span / hw->per_node), bw = hw->net_bw;
	if (!hw->tree)
		return fmin(bw, hw->cross_bw) * hw->net_eff;
	if (nodes > hw->leaf_nodes)
		bw /= hw->oversub[0];
	if (nodes > hw->pod_nodes)
		bw /= hw->oversub[1];
	return bw * hw->net_eff;
}

/* A collective of n ranks over `span` GPUs on `bytes` per rank, latency and bandwidth terms
 * (the α-β model; Thakur, Rabenseifner and Gropp, IJHPCA 2005, §2 and Table 1):
 * - ring all-reduce: 2(n−1) steps of α and 2(n−1)/n of the buffer; NCCL's double binary tree
 *   (Sanders, Speck and Träff, Parallel Computing 2009; NCCL 2.4): 2⌈log₂n⌉ steps at the same
 *   volume, taken at 0.9 of the ring's bandwidth (an assumption: NCCL picks the tree for small
 *   messages and the ring for large ones, which this minimum reproduces);
 * - reduce-scatter, all-gather and all-to-all: n − 1 steps and (n−1)/n of the buffer;
 * - a ring pass (context parallelism's K,V chunks): n − 1 steps of α plus the whole chunk.
 * A reduction or gather whose group leaves the domain with r > 1 of its ranks in each domain
 * crosses the fabric on every NIC of those r ranks: NCCL lays one ring (channel) through each
 * of them, chained inside the domain over NVLink, so every rank's share of the buffer leaves
 * the domain 1/r of the time and the collective runs at the lesser of the domain's bandwidth
 * and r times the fabric's per-GPU one. S. Jeaugey (NVIDIA), NVIDIA/nccl-tests issue 119
 * (2022-11-17): 24 A100 on 3 servers of 8 GPUs and 4 HDR NICs reach an all-reduce bus
 * bandwidth of 96 GB/s, "24GB/s ... per 200G NIC ..., so in your case 96GB/s is the target",
 * the node's four NICs together where each GPU's share is 12 GB/s. An all-to-all or a ring
 * pass sends each rank's own data over its own NIC: the per-GPU bandwidth. */
double plan_collective(const PlanHw *hw, double span, double n, PlanColl kind, double bytes)
{
	if (n <= 1 || bytes <= 0)
		return 0;
	double alpha = span <= hw->domain ? SU_ALPHA : NET_ALPHA;
	double bw = plan_group_bandwidth(hw, span);
	double r = span > hw->domain ? fmin(n, n * hw->domain / span) : 1;
	if (r > 1 && kind != COLL_ALL_TO_ALL && kind != COLL_RING_PASS)
		bw = fmin(hw->su_bw * hw->su_eff, r * bw);
	switch (kind) {
	case COLL_ALL_REDUCE: {
		double vol = 2 * (n - 1) / n * bytes / bw;
		double ring = 2 * (n - 1) * alpha + vol;
		double tree = 2 * ceil(log2(n)) * alpha + vol / TREE_BW;
		double best = fmin(ring, tree);
		/* In-network reduction (NVIDIA SHARP; Graham et al., "Scalable Hierarchical
		 * Aggregation Protocol", COMHPC 2016; NVLink SHARP inside the domain, NCCL's NVLS
		 * algorithm): each rank sends its buffer into the switches once and receives the
		 * result once, the latency of a climb and descent (the fabric's tiers; one switch
		 * in the domain). NCCL takes it where it is enabled and faster. */
		bool inside = span <= hw->domain;
		if (inside ? hw->nvls : hw->sharp)
			best = fmin(best, 2 * (inside ? 1 : hw->fabric_tiers) * alpha +
						  bytes / (bw * INNET_EFF));
		return best;
	}
	case COLL_RING_PASS: return (n - 1) * (alpha + bytes / bw);
	default: return (n - 1) * alpha + (n - 1) / n * bytes / bw;
	}
}

static double collective(const PlanHw *hw, double span, double n, PlanColl kind, double bytes)
{
	return plan_collective(hw, span, n, kind, bytes);
}

/* One collective over a stage's parameters at `per` bytes each: the dense ones over the n
 * ranks that hold them, the experts' over the ne of their expert-parallel group. */
static double params_collective(const PlanHw *hw, double span, double n, double ne, PlanColl kind,
				double per, double dense, double expert)
{
	return collective(hw, span, n, kind, per * dense) + collective(hw, span, ne, kind, per * expert);
}

/* ---- HybridEP (ep_dispatcher = hybridep) ------------------------------------------------------ */

/* Ranks of the EP group a token is sent to under HybridEP: each rank holding at least one of its
 * k experts, once (HybridEP's dispatch sends a token once to each such rank and the rank's
 * permute copies it to its local experts: "no redundant communication during data
 * distribution", deep_ep docs/README_Hybrid-EP.md; its test, tests/test_hybrid_ep.py at
 * 098da2a, counts dispatched_hidden's rows, a token once a rank, its local experts in
 * local_expert_routing_map), where the all-to-all dispatcher sends each of the k routed copies.
 * With the k experts uniformly random among the E, as the benchmarked runs route
 * (Megatron-Core's moe_router_force_load_balancing draws random logits, moe_utils.py
 * apply_random_logits; the README's benchmarks, "Router: Random Uniform"), a rank's E/e
 * experts are all missed with probability C(E − E/e, k)/C(E, k), so a token goes to
 * e·(1 − C(E − E/e, k)/C(E, k)) ranks: 7.36 for Qwen3 235B at EP 32 (128 experts, top-8) and
 * 7.68 for DeepSeek-V3 at EP 64 (256, top-8) where the all-to-all sends 8. (DeepSeek-V3's
 * group-limited routing, 4 of 8 groups, would make it 7.36, its experts within 32 ranks: not
 * modelled, an overestimate of 4 %.) Under expert TP each of the t slices of an expert receives the token from the TP rank
 * holding it (the flex dispatcher's TP x EP group), the same rows a rank. */
double plan_moe_dest_ranks(const PlanModel *m, const PlanConfig *c)
{
	double E = m->experts, e = c->ep, miss = 1;
	if (E <= 1 || e <= 1)
		return 1;
	for (int i = 0; i < (int)m->top_k; i++)
		miss *= fmax(0, (E - E / e - i) / (E - i));
	return e * (1 - miss);
}

/* Seconds of one forward's HybridEP dispatch and combine of `rows` rows of h in BF16 (HybridEP
 * sends BF16 only: Megatron-Core's init_hybrid_ep_buffer asserts "HybridEP dispatcher does not
 * support fp8 dispatch now", fused_a2a.py at 02ad939). Inside the scale-up domain at the
 * accelerator's measured HybridEP rates (hybrid_ep_dispatch_efficiency and
 * hybrid_ep_combine_efficiency of the per-direction rate; std.accelerators gives the
 * measurement: the README's algorithm bandwidths, rows received over time, at the SMs
 * Megatron-Core gives it, TransformerConfig.moe_hybridep_num_sms = 16), each direction at its
 * own where only one is set; elsewhere, or in a direction without one, the all-to-all
 * collective on those rows (HybridEP's RDMA path sends a token once a
 * node: counted as node-limited routing's where the model routes to M nodes, layer_times;
 * otherwise not modelled, an overestimate across nodes). */
static double hybrid_ep_time(const PlanHw *hw, double span, double n, double rows, double h)
{
	double bytes = rows * h * 2;
	bool in = span <= hw->domain;
	double a2a = in && hw->hep_dispatch_eff > 0 && hw->hep_combine_eff > 0
			     ? 0
			     : collective(hw, span, n, COLL_ALL_TO_ALL, bytes);
	return (in && hw->hep_dispatch_eff > 0 ? bytes / (hw->su_bw * hw->hep_dispatch_eff) : a2a) +
	       (in && hw->hep_combine_eff > 0 ? bytes / (hw->su_bw * hw->hep_combine_eff) : a2a);
}

/* HBM bytes one forward of an MoE layer's token permutations moves beyond what the layer's
 * activation traffic counts (2 x plan_layer_activation_bytes: each tensor written once and read
 * once, the dispatched tokens' cf·k rows a token among them). Megatron-Core's all-to-all
 * dispatcher, which the Megatron arguments select (--moe-token-dispatcher-type alltoall;
 * megatron/core/transformer/moe/token_dispatcher.py, MoEAlltoAllTokenDispatcher, with
 * moe_utils.py's permute, unpermute and sort_chunks_by_idxs), per layer and micro-batch:
 * - permutation 1 (dispatch_preprocess) gathers each token's k routed copies (cf·k rows of h a
 *   token with a capacity factor) into expert order before the all-to-all: it reads the
 *   layer's tokens (counted here, T·h) and writes the copies (the dispatched tokens, which the
 *   activation traffic counts);
 * - permutation 2 (dispatch_postprocess, when a rank holds more than one expert) sorts the
 *   all-to-all's output from (source rank, expert) to (expert, source rank) order
 *   (sort_chunks_by_idxs; padded to capacity, a transpose and contiguous copy): it reads and
 *   writes the cf·k·T rows;
 * - unpermutation 2 (combine_preprocess), the inverse sort of the experts' output: the same;
 * - unpermutation 1 (combine_postprocess) reads the combined cf·k·T rows (the experts' output,
 *   which the activation traffic counts) and writes their weighted sum, T·h.
 * In all 2·T·h + (local experts > 1 ? 4·cf·k·T·h : 0) elements of BF16 (the dispatcher
 * permutes the hidden states; Transformer Engine casts to FP8 inside the grouped linear
 * layers). Backward runs the inverse kernels on the gradients: the same bytes, once
 * (plan_layer). T: the micro-batch's tokens on the rank (b·s/cp), as the all-to-all counts. */
double plan_moe_permute_bytes(const PlanModel *m, const PlanConfig *c)
{
	if (m->experts <= 1)
		return 0;
	double raw = (double)c->micro * m->seq / c->cp;
	double tokens = routed_tokens(c, raw), h = m->hidden;
	/* HybridEP (ep_dispatcher = hybridep): the dispatch kernel reads the tokens and the combine
	 * kernel writes their sums itself (no permutation 1), and Megatron-Core calls it with the
	 * permute fused (HybridEPDispatch: dispatch_with_permute, combine_with_unpermute,
	 * fused_a2a.py at 02ad939), which copies the D·T rows a rank received out of HybridEP's
	 * buffer into the local experts' order (the experts' rows it writes are the activation
	 * traffic's) and the unpermute their sums back into it: "an extra D2D copy ... about
	 * 10%-20% of the communication time", fused with the permute (NVIDIA, "Optimizing
	 * DeepSeek-V3 Training Performance on NVIDIA GB200 NVL72", Megatron-LM docs/discussions,
	 * 2025, §2.5). 2·D·T·h elements of BF16, D = plan_moe_dest_ranks. */
	if (c->hybrid_ep)
		return 2 * 2 * plan_moe_dest_ranks(m, c) * tokens * h;
	double local = m->experts / c->ep;
	return 2 * h * (2 * tokens + (local > 1 ? 4 * dispatched_rows(m, c, raw) : 0));
}

/* HBM bytes one forward of an MoE layer's FP8 padding of the experts' tokens moves (0 in BF16,
 * padded to capacity or for a dense model). FP8 GEMMs need each expert's rows in multiples of
 * 16 (32 for MXFP8), so Megatron-Core's grouped experts under FP8 pad the dispatched tokens
 * before the first grouped linear layer and unpad the second one's output
 * (megatron/core/transformer/moe/experts.py, TEGroupedMLP.forward: self.fp8_padding before
 * linear_fc1, self.fp8_unpadding after linear_fc2, unless moe_router_padding_for_fp8, which
 * Megatron-Core defaults to False and the Megatron-Bridge recipes leave so). Transformer
 * Engine's Fp8Padding returns its input unchanged only when every expert's count is already a
 * multiple ("no padding needed": transformer_engine/pytorch/module/fp8_padding.py at 001b2b1);
 * dropless, the counts are whatever the routing gives (a multiple for all E/e local experts
 * only by chance), so each copy runs: fused_multi_row_padding reads the k·T dispatched rows of
 * h and writes them with at most 15 rows an expert more, and the unpadding does the same to
 * the output (Fp8Unpadding, fused_multi_row_unpadding): 2 · 2 · k·T·h elements of BF16 (the
 * dispatcher's hidden states). Backward runs the inverse copies on the gradients: the same
 * bytes, once (plan_layer, as the permutations). Padded to capacity (capacity_factor), every
 * expert receives the same ⌈k·T·cf/E⌉ rows from each source rank (Megatron-Core's
 * get_capacity; 256 for the suite's Qwen3 and 128 for DeepSeek-V3 at 4,096 tokens), so
 * nothing is copied when that is a multiple of 16, and the cf·k·T padded rows are when it is
 * not. With fp8_dispatch (DeepSeek-V3's own
 * FP8 dispatch, not Megatron-Core's) the dispatch kernel writes each local expert's tokens
 * aligned itself (DeepEP's Buffer.dispatch, expert_alignment: "align the number of tokens
 * received by each local expert to this variable", deep_ep/buffer.py at dcfd954), and the
 * combine reads them so: no copy either. Under HybridEP the padding is the fused permute's
 * (HybridEPDispatch's pad_multiple, fused_a2a.py at 02ad939; "This padding task is also
 * essentially a D2D copy, and we also fuse it into the permute process", NVIDIA's DeepSeek-V3
 * GB200 guide, §2.5): no copy of its own. */
double plan_moe_fp8_pad_bytes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c)
{
	if (m->experts <= 1 || hw->elem_bytes >= 2 || c->fp8_dispatch || c->hybrid_ep)
		return 0;
	double rows = dispatched_rows(m, c, (double)c->micro * m->seq / c->cp);
	if (c->capacity > 0 && fmod(ceil(rows / m->experts), 16) == 0)
		return 0;
	return 2 * 2 * 2 * rows * m->hidden;
}

/* HBM bytes Transformer Engine moves casting one layer's FP8 GEMM operands to FP8, per
 * micro-batch, forward into *fwd and backward into *bwd (0 in BF16). Every FP8 operand that
 * is not already FP8 is cast: the BF16 tensor read (2 bytes an element) and its FP8 copy
 * written, 1 byte, 2 where the FP8 GEMMs take K-major operands only (fp8_tn_only, Hopper: the
 * transposed copy the backward needs is written with it, TE's cast-transpose; hw->fp8_cache
 * is that count). The operands (Megatron-Core's Transformer Engine layers, TELayerNorm-
 * ColumnParallelLinear, TERowParallelLinear, TEGroupedLinear): forward the inputs of the QKV
 * and first FFN multiplies (h a token, split by SP), of the output projection (a·d/t) and of
 * the second FFN multiply (F/t); backward the gradient of each multiply's output ((q+k+v)/t,
 * h, (mats−1)·F/t, h). Routed experts: their tokens per local expert (cf·k·T·e/E), each
 * expert's split cast on its own (TE's GroupedLinear; one cast kernel an expert under current
 * scaling, NVIDIA/TransformerEngine PR 1525); shared experts and MLA's projections likewise.
 * By the recipe (transformer_engine/pytorch/csrc/quantizer.cpp and extensions/
 * normalization.cpp, read 2026-12):
 * - delayed scaling (Megatron-LM's default --fp8-recipe delayed; NeMo's fp8_hybrid): the
 *   scale comes from earlier steps' amax, so the LayerNorm kernel writes its output in FP8
 *   directly (normalization.cpp: a Float8Quantizer takes the FULLY_FUSED norm; its write is
 *   in the activation traffic) and the QKV and first FFN inputs of a dense layer cost
 *   nothing more; every other operand is one cast (2 + fp8_cache bytes an element);
 * - current scaling (fp8_current_scaling; Megatron-LM --fp8-recipe tensorwise, Megatron-
 *   Bridge's "fp8_cs", TE's Float8CurrentScaling): the scale needs the tensor's own amax
 *   first, so Float8CurrentScalingQuantizer::quantize_impl runs nvte_compute_amax (the BF16
 *   tensor read once more, 2 bytes an element) and then the cast; after a LayerNorm the norm
 *   computes the amax as it writes its BF16 output (FUSED_NORM_AMAX_FP8) and the cast follows
 *   (2 + fp8_cache). An MoE layer's expert inputs come from the dispatcher, not a norm.
 * Weights are cast once a step (or are FP8 already: fp8_params), not counted here. */
void plan_fp8_cast_bytes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, bool moe,
			 double *fwd, double *bwd)
{
	*fwd = *bwd = 0;
	if (hw->elem_bytes >= 2 || hw->fp8_cache <= 0)
		return;
	double cast = 2 + hw->fp8_cache, amax = hw->fp8_current ? 2 : 0;
	double normed = hw->fp8_current ? cast : 0; /* an input a LayerNorm writes */
	double h = m->hidden, t = c->tp, hs = h / (c->sp ? t : 1), mats = m->mats;
	double tokens = (double)c->micro * m->seq / c->cp;
	AttnDims x = attn_dims(m);
	/* Attention: the QKV input after the LayerNorm (MLA: below), the output projection's
	 * input; backward the gradients of their outputs. */
	double in_norm = hs, in_other = x.o / t, grad = (x.q + x.k + x.v) / t + hs;
	if (m->kv_lora > 0) {
		double ql = m->q_lora, kl = m->kv_lora;
		/* Megatron-Core's MLA: the up-projections after their LayerNorms
		 * (TELayerNormColumnParallelLinear), the down-projections plain TELinear layers,
		 * each casting the normed input on its own. */
		in_norm = kl + (ql > 0 ? ql : 0);
		in_other += hs * (ql > 0 ? 2 : 1);
		grad = (ql > 0 ? ql + x.q / t : x.q / t) + kl + m->rope_dim +
		       m->heads * (m->head_dim + x.dv) / t + hs;
	}
	double f = 0, fg = 0; /* the FFN's: other inputs and output gradients, elements a token */
	if (!moe) {
		in_norm += hs;
		f = m->ffn / t;
		fg = (mats - 1) * m->ffn / t + hs;
	} else {
		double fe = m->expert_ffn, et = expert_tp(c);
		double routed = dispatched_rows(m, c, tokens) / tokens; /* rows a token */
		f = routed * (h + fe / et) + (m->shared > 0 ? hs + m->shared * fe / t : 0);
		fg = routed * ((mats - 1) * fe / et + h) +
		     (m->shared > 0 ? m->shared * (mats - 1) * fe / t + hs : 0);
	}
	*fwd = tokens * (in_norm * normed + (in_other + f) * (cast + amax));
	*bwd = tokens * (grad + fg) * (cast + amax);
	if (hw->fp8_cache < 2)
		return;
	/* Per-tensor FP8 where the GEMMs take K-major operands only (fp8_tn_only, Hopper): the
	 * transposed copy of an input that sequence parallelism all-gathers is not cast with it.
	 * Transformer Engine gathers FP8 row-wise data only ("All-gather is not supported with FP8
	 * column-wise data", transformer_engine/pytorch/module/layernorm_linear.py, and base.py's
	 * grad_output_preprocess, "FP8 case with gather: unfused bgrad, cast, transpose for
	 * efficient gather"): the shard is cast row-wise (2 + 1 bytes an element, with the amax
	 * pass under current scaling) and the gathered tensor, h a token, transposed after the
	 * gather (tex.fp8_transpose: 1 byte read, 1 written), in the backward, where the weight
	 * gradient needs it. So: the QKV and first FFN inputs after their LayerNorm (not MLA's
	 * latents: their layers are not gathered) and the gradients of the row-parallel outputs
	 * (the output projection's, the second FFN multiply's, a shared expert's). Under delayed
	 * scaling without that gather, the LayerNorm kernel writes the FP8 input row-wise and the
	 * backward transposes it all the same (layernorm_linear.py of Transformer Engine 1.x,
	 * the NeMo 24.07 and 24.09 containers: ln_out_total_t = tex.fp8_transpose(ln_out_total)). */
	double ng = (m->kv_lora > 0 ? 0 : 1) + (moe ? 0 : 1); /* normed inputs, hs a token each */
	double rg = 1 + (moe ? (m->shared > 0 ? 1 : 0) : 1);  /* row-parallel output gradients */
	double transpose = 2;
	if (c->sp && t > 1) {
		*fwd -= tokens * ng * (hw->fp8_current ? hw->fp8_cache - 1 : 0) * hs;
		*bwd += tokens * ((ng + rg) * transpose * h - rg * (hw->fp8_cache - 1) * hs);
	} else if (!hw->fp8_current) {
		*bwd += tokens * ng * transpose * h;
	}
}

/* ---- selective recomputation by module (Megatron-Core's recompute_modules) ------------------ */

/* Megatron-Core's selective recomputation checkpoints the submodules the workload lists
 * (recompute_modules, --recompute-modules; megatron/core/transformer/transformer_config.py at
 * 002526d: core_attn, moe_act, layernorm, mla_up_proj, mlp, moe, shared_experts). "moe_act",
 * "layernorm" and "mla_up_proj" use output-discarding checkpointing (CheckpointWithoutOutput:
 * the module's output storage is freed once the next module has consumed it and recomputed by
 * a backward hook), "core_attn", "mlp", "moe" and "shared_experts" normal checkpointing (the
 * module's input kept, what it computes from it dropped and recomputed in the backward). What
 * each discards and repeats, per token of one layer (plan_layer_activation_bytes' sizes):
 * - core_attn: the attention core's s x s tensors (Korthikanti et al.'s selective
 *   recomputation; nothing under FlashAttention: plan_layer_activation_bytes);
 * - layernorm: the output of each norm that is a module of its own, 2h split by SP, and its
 *   recomputation (a read and a write of 2h): with Transformer Engine the dense layers' norms
 *   are fused into the QKV and first FFN linear layers (TELayerNormColumnParallelLinear; the
 *   layer's input_layernorm and pre_mlp_layernorm are IdentityOp), so only MLA's input norm
 *   (its down-projections are plain TELinear layers) and an MoE layer's pre-MLP norm (the
 *   router's and experts' input) are modules (gpt_layer_specs.py's MLA and MoE specs, TENorm);
 * - mla_up_proj: Q, K and V as the up-projections and RoPE write them, 2(q + k + v) split by TP,
 *   the core's inputs; recomputed from the latents the checkpoint keeps (their multiplies and
 *   the write of Q, K, V);
 * - moe_act: each routed row's activation output (the second grouped multiply's input, 2Fe),
 *   recomputed from the first multiply's output (read (mats − 1)·Fe, written Fe, in BF16);
 * - shared_experts: the shared experts' activations (as the MLP's, per shared expert),
 *   recomputed from their input: their two multiplies and memory-bound kernels;
 * - mlp: a dense layer's FFN with its fused norm: the FFN's input after the norm (2h split by
 *   SP) and its activations, recomputed whole: the norm, the two or three multiplies, the
 *   memory-bound kernels and the FFN's share of the TP collectives; MoE layers' MoELayer is
 *   not an MLP (TransformerLayer sets recompute_mlp only `if not isinstance(self.mlp,
 *   MoELayer)`);
 * - moe: the whole MoE block but its input (the norm's output): the routed and shared experts'
 *   activations and the dispatched tokens, recomputed whole: router, permutations, the
 *   dispatch and combine all-to-alls, the experts, and the FFN's share of the TP collectives.
 * Under FP8 the linear layers' inputs the model keeps in one byte (plan_fp8_activation_saving)
 * go with them: Megatron-Core has the next linear layer save its original input for the
 * discarded norm or activation output (set_save_original_input) and recomputes it; the FP8
 * casts the recomputed multiplies' inputs need again are rc_module_cast_bytes'. */
static bool rc_has(unsigned mods, RecomputeModule k)
{
	return (mods >> k) & 1u;
}

/* The norms of a layer that are modules of their own (layernorm): MLA's input norm, an MoE
 * layer's pre-MLP norm. */
static double rc_norms(const PlanModel *m, bool moe)
{
	return (m->kv_lora > 0 ? 1 : 0) + (moe ? 1 : 0);
}

/* Bytes per token of one layer's activations the plan's modules other than the core discard,
 * with the part of plan_fp8_activation_saving they carry into *fp8 (bytes per token). */
static double rc_module_bytes(const PlanModel *m, const PlanConfig *c, bool moe, double *fp8)
{
	unsigned mods = plan_rc_modules(c);
	double drop = 0, f8 = 0;
	double h = m->hidden, t = c->tp, r = c->sp ? t : 1, fe = m->expert_ffn;
	double mlp_per = m->mats > 2 ? 6 : 4, routed = capacity_factor(c) * m->top_k;
	if (rc_has(mods, RCM_LAYERNORM)) {
		drop += rc_norms(m, moe) * 2 * h / r;
		f8 += rc_norms(m, moe) * h / r;
	}
	if (m->kv_lora > 0 && rc_has(mods, RCM_MLA_UP_PROJ)) {
		AttnDims x = attn_dims(m);
		drop += 2 * (x.q + x.k + x.v) / t;
	}
	if (moe && rc_has(mods, RCM_MOE)) {
		drop += ((routed + m->shared) * mlp_per * fe + routed * 2 * h) / t;
		f8 += ((routed + m->shared) * fe + routed * h) / t;
	} else if (moe) {
		if (rc_has(mods, RCM_MOE_ACT))
			drop += routed * 2 * fe / t, f8 += routed * fe / t;
		if (rc_has(mods, RCM_SHARED_EXPERTS))
			drop += m->shared * mlp_per * fe / t, f8 += m->shared * fe / t;
	}
	if (!moe && rc_has(mods, RCM_MLP)) {
		drop += 2 * h / r + mlp_per * m->ffn / t;
		f8 += h / r + m->ffn / t;
	}
	*fp8 = f8;
	return drop;
}

/* What swiglu_fp8_input saves of one layer's activations for one micro-batch on one GPU
 * (bytes; 0 without it, for a GeLU model or under full recomputation). Megatron-Core's fused
 * SwiGLU with activation_func_fp8_input_store saves its input, the first FFN multiply's output
 * of (mats − 1)·F elements a row, as `input.to(torch.float8_e4m3fn)` and casts it back before
 * its backward (SwiGLUFunction and WeightedSwiGLUFunction, megatron/core/fusions/
 * fused_bias_swiglu.py at 00caa53): one byte an element rather than two, in BF16 and FP8 runs
 * alike. Used by the dense MLP and the shared experts (MLP.forward's bias_swiglu_impl) and the
 * routed experts (TEGroupedMLP's weighted_bias_swiglu_impl), each unless its module is
 * recomputed whole (mlp, shared_experts, moe: their activations are not kept at all); and not
 * for the routed experts under moe_act, whose CheckpointWithoutOutput saves the activation's
 * BF16 input itself (megatron/core/tensor_parallel/random.py, CheckpointWithoutOutputFunction:
 * the function runs under no_grad and ctx.save_for_backward(*args)), so the FP8 copy exists
 * only during the recomputation. DeepSeek-V3's own framework keeps the FP8 input and recomputes
 * the output (DeepSeek-AI 2024, §3.3.3, "Inputs of the SwiGLU operator in MoE"), which neither
 * Megatron-Core setting is: without moe_act the second multiply keeps its FP8 copy of the
 * output, F a row more (docs/parallelism.md, Accuracy). */
double plan_swiglu_fp8_saving(const PlanModel *m, const PlanConfig *c, bool moe)
{
	if (!c->swiglu8 || m->mats <= 2 || c->recompute == RC_FULL)
		return 0;
	unsigned mods = plan_rc_modules(c);
	double tokens = (double)c->micro * m->seq / c->cp, rows = 0, f = m->expert_ffn;
	if (moe && !rc_has(mods, RCM_MOE)) {
		if (!rc_has(mods, RCM_MOE_ACT))
			rows += capacity_factor(c) * m->top_k * f;
		if (!rc_has(mods, RCM_SHARED_EXPERTS))
			rows += m->shared * f;
	} else if (!moe && !rc_has(mods, RCM_MLP)) {
		rows = m->ffn;
	}
	return tokens * (m->mats - 1) * rows / c->tp;
}

/* The seconds of one micro-batch's TP collectives of a layer's FFN block forward (the FFN's
 * share of layer_times' TP time: one reduce-scatter and all-gather with SP, one all-reduce
 * without; none folded in an MoE layer, whose experts are whole). */
static double rc_ffn_tp(const PlanHw *hw, const PlanConfig *c, bool moe, double tokens, double h)
{
	double t = c->tp, bytes = tokens * h * 2;
	if (t <= 1 || (moe && c->fold))
		return 0;
	if (!c->sp)
		return collective(hw, t, t, COLL_ALL_REDUCE, bytes);
	double ag = moe || hw->elem_bytes >= 2 ? bytes : bytes / 2;
	return collective(hw, t, t, COLL_REDUCE_SCATTER, bytes) +
	       collective(hw, t, t, COLL_ALL_GATHER, ag);
}

/* HBM bytes per token of the FP8 casts one layer's recomputed modules other than the core
 * repeat (0 in BF16; the core runs in BF16). A recomputed FP8 linear layer quantizes its input
 * again as its forward did (plan_fp8_cast_bytes' bytes an element: the read, the FP8 copy or
 * copies, the amax pass under current scaling); its weight is not cast again: Megatron-Core's
 * Transformer Engine layers pass is_first_microbatch only on a step's first forward and False
 * after it (TELinear.forward sets self.is_first_microbatch = False; megatron/core/extensions/
 * transformer_engine.py at d086a2e), so the recomputation, like every later micro-batch, takes
 * the cached FP8 weight. By module: mlp the FFN's inputs (the normed one as the norm writes it,
 * the second multiply's), shared_experts the shared experts', moe every expert input of the
 * block (routed rows after the dispatch, and the shared experts'), mla_up_proj the
 * up-projections' normed latents; and the output-discarding modules, whose next linear layer
 * saved the BF16 original (set_save_original_input) and quantizes it again for its weight
 * gradient: moe_act the second grouped multiply's input, layernorm the FP8 copies of the norms'
 * outputs (MLA's down-projections, the shared experts). */
static double rc_module_cast_bytes(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
				   bool moe)
{
	unsigned mods = plan_rc_modules(c) & ~(1u << RCM_CORE_ATTN);
	if (!mods || hw->elem_bytes >= 2 || hw->fp8_cache <= 0)
		return 0;
	double cast = 2 + hw->fp8_cache + (hw->fp8_current ? 2 : 0); /* with the amax pass */
	double normed = hw->fp8_current ? 2 + hw->fp8_cache : 0; /* a LayerNorm's output */
	double h = m->hidden, t = c->tp, hs = h / (c->sp ? t : 1), fe = m->expert_ffn;
	/* Current scaling with SP casts the normed shard row-wise only (plan_fp8_cast_bytes). */
	if (hw->fp8_current && c->sp && t > 1 && hw->fp8_cache >= 2)
		normed -= hw->fp8_cache - 1;
	double tokens = (double)c->micro * m->seq / c->cp;
	double routed = moe ? dispatched_rows(m, c, tokens) / tokens : 0; /* rows a token */
	double shared = m->shared > 0 ? hs + m->shared * fe / t : 0;
	double b = 0;
	if (rc_has(mods, RCM_LAYERNORM))
		b += ((m->kv_lora > 0 ? (m->q_lora > 0 ? 2 : 1) : 0) +
		      (moe && m->shared > 0 ? 1 : 0)) * hs * cast;
	if (m->kv_lora > 0 && rc_has(mods, RCM_MLA_UP_PROJ))
		b += (m->kv_lora + (m->q_lora > 0 ? m->q_lora : 0)) * normed;
	if (moe && rc_has(mods, RCM_MOE)) {
		b += (routed * (h + fe / expert_tp(c)) + shared) * cast;
	} else if (moe) {
		if (rc_has(mods, RCM_MOE_ACT))
			b += routed * fe / expert_tp(c) * cast;
		if (rc_has(mods, RCM_SHARED_EXPERTS))
			b += shared * cast;
	}
	if (!moe && rc_has(mods, RCM_MLP))
		b += hs * normed + m->ffn / t * cast;
	return b;
}

/* Seconds of one micro-batch's recomputation of one layer's modules other than the core (the
 * core's is layer_times' own), given the layer's forward EP and permutation times (ep, perm),
 * with their FP8 casts (rc_module_cast_bytes). */
static double rc_module_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, bool moe,
			     double ep, double perm)
{
	unsigned mods = plan_rc_modules(c) & ~(1u << RCM_CORE_ATTN);
	if (!mods)
		return 0;
	double h = m->hidden, t = c->tp, r = c->sp ? t : 1, fe = m->expert_ffn, mats = m->mats;
	double tokens = (double)c->micro * m->seq / c->cp, bw = hw->hbm_bw * HBM_EFF;
	double mlp_per = mats > 2 ? 6 : 4, sec = 0;
	if (rc_has(mods, RCM_LAYERNORM))
		sec += tokens * rc_norms(m, moe) * 4 * h / r / bw;
	if (m->kv_lora > 0 && rc_has(mods, RCM_MLA_UP_PROJ)) {
		AttnDims x = attn_dims(m);
		double ql = m->q_lora, kl = m->kv_lora;
		sec += gemm(hw, 1, tokens, m->heads * (m->head_dim + x.dv) / t, kl) +
		       gemm(hw, 1, tokens, x.q / t, ql > 0 ? ql : h) +
		       tokens * 2 * (x.q + x.k + x.v) / t / bw;
	}
	double shared = gemm(hw, m->shared, tokens, (mats - 1) * fe / t, h) +
			gemm(hw, m->shared, tokens, h, fe / t) +
			2 * tokens * m->shared * mlp_per * fe / t / bw;
	if (moe && rc_has(mods, RCM_MOE)) {
		double local = m->experts / c->ep, et = expert_tp(c);
		double te = dispatched_rows(m, c, tokens) * c->ep / m->experts;
		double rows = dispatched_rows(m, c, tokens);
		sec += gemm(hw, local, te, (mats - 1) * fe / et, h) + gemm(hw, local, te, h, fe / et) +
		       gemm16(hw, 1, tokens, m->experts, h) + shared + perm + ep +
		       2 * rows * (mlp_per * fe / et + 2 * h) / bw + rc_ffn_tp(hw, c, true, tokens, h);
	} else if (moe) {
		if (rc_has(mods, RCM_MOE_ACT))
			sec += dispatched_rows(m, c, tokens) * 2 * mats * fe / expert_tp(c) / bw;
		if (rc_has(mods, RCM_SHARED_EXPERTS))
			sec += shared;
	}
	if (!moe && rc_has(mods, RCM_MLP))
		sec += gemm(hw, 1, tokens, (mats - 1) * m->ffn / t, h) +
		       gemm(hw, 1, tokens, h, m->ffn / t) +
		       tokens * (4 * h / r + 2 * mlp_per * m->ffn / t) / bw +
		       rc_ffn_tp(hw, c, false, tokens, h);
	return sec + tokens * rc_module_cast_bytes(m, hw, c, moe) / bw;
}

/* Forward FLOPs per token of the modules other than the core that selective recomputation
 * repeats, over all layers (hardware FLOPs; plan_time). */
static double rc_module_flops(const PlanModel *m, const PlanConfig *c)
{
	unsigned mods = plan_rc_modules(c);
	/* The MTP modules' layers (mtp_dense) recompute as the others. */
	double nd = n_dense(m) + mtp_dense(m), nm = m->layers - n_dense(m) + mtp_moe(m), f = 0;
	double h = m->hidden, layers = m->layers + m->mtp;
	if (m->kv_lora > 0 && rc_has(mods, RCM_MLA_UP_PROJ)) {
		AttnDims x = attn_dims(m);
		double ql = m->q_lora;
		f += layers * 2 * ((ql > 0 ? ql : h) * x.q + m->kv_lora * m->heads * (m->head_dim + x.dv));
	}
	if (rc_has(mods, RCM_MLP))
		f += nd * ffn_dense(m);
	if (rc_has(mods, RCM_MOE))
		f += nm * ffn_moe(m);
	else if (rc_has(mods, RCM_SHARED_EXPERTS))
		f += nm * 2 * m->mats * h * m->expert_ffn * m->shared;
	if (rc_has(mods, RCM_CORE_ATTN))
		f += layers * attn_core(m);
	return f;
}

/* Seconds the host takes to launch what a dropless MoE layer's forward runs after its
 * synchronization (HOST_LAUNCH_S a kernel; MOE_SYNC_KERNELS and the local experts' GEMMs and
 * casts); 0 for a dense model or padded to capacity, where no synchronization stops the CPU
 * running ahead. */
double plan_moe_fwd_host(const PlanModel *m, const PlanHw *hw, const PlanConfig *c)
{
	if (m->experts <= 1 || c->capacity > 0)
		return 0;
	double local = m->experts / c->ep;
	double per = MOE_EXPERT_KERNELS +
		     (hw->elem_bytes < 2 && hw->fp8_current ? MOE_EXPERT_CS_KERNELS : 0);
	return (MOE_SYNC_KERNELS + local * per) * HOST_LAUNCH_S;
}

typedef struct LayerTimes {
	double fwd, core, core_mem, core_bwd_extra, tp, ep, act, work;
	double perm; /* s of the MoE token permutations, in fwd and once in backward */
	double rc_mod; /* s of the selective recomputation of modules other than the core */
	double cast_f, cast_b; /* s of the FP8 casts (plan_fp8_cast_bytes), cast_f in fwd */
	double mm_bwd_extra;   /* s: the backward's multiplies at their shapes less 2 x fwd's */
	double wgrad;          /* s: the weight gradients' share of them (DualPipe's W) */
	double host;           /* s: a dropless MoE layer's launches after its sync (plan_moe_fwd_host) */
	double after;          /* s: the experts' forward multiplies and the permutations (GPU) */
	double cp_f[CPC_COUNT], cp_b[CPC_COUNT]; /* by CP exchange; INFINITY: not allowed */
} LayerTimes;

/* One layer (dense or MoE) of one micro-batch on one GPU. */
static void layer_times(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, bool moe,
			LayerTimes *o)
{
	double h = m->hidden, a = m->heads, t = c->tp;
	double s = m->seq, sl = s / c->cp, b = c->micro, tokens = b * sl;
	AttnDims x = attn_dims(m);
	/* Matmuls: QKV, the core (per head, BF16), the output projection, the FFN or experts. */
	double mm = 0;
	BwdTime bt = {0}, *mb = &bt; /* the backward's (gemm_passes) */
	if (m->kv_lora > 0) {
		/* MLA: the down-projections (replicated), then the up-projections (split). */
		double ql = m->q_lora, kl = m->kv_lora;
		mm = gemm_passes(hw, mb, 1, tokens, kl + m->rope_dim, h) +
		     gemm_passes(hw, mb, 1, tokens, a * (m->head_dim + x.dv) / t, kl) +
		     (ql > 0 ? gemm_passes(hw, mb, 1, tokens, ql, h) +
				       gemm_passes(hw, mb, 1, tokens, x.q / t, ql)
			     : gemm_passes(hw, mb, 1, tokens, x.q / t, h)) +
		     gemm_passes(hw, mb, 1, tokens, h, x.o / t);
	} else {
		mm = gemm_passes(hw, mb, 1, tokens, (x.q + x.k + x.v) / t, h) +
		     gemm_passes(hw, mb, 1, tokens, h, x.o / t);
	}
	double core = gemm16(hw, b * a / t, sl, s, x.dq) + gemm16(hw, b * a / t, sl, x.dv, s);
	/* FlashAttention with the causal mask skips the blocks above the diagonal: half the
	 * core's multiplies (Dao, "FlashAttention-2", ICLR 2024, §3.1.1 and §4.1, which counts
	 * causal attention at half the FLOPs). Model FLOPs (MFU) still count all s keys, as
	 * Narayanan et al. and Korthikanti et al. do, so MFU stays comparable with theirs.
	 * Fused, the core keeps its s x s scores in on-chip SRAM and reads Q, K, V and writes O
	 * once (Dao et al., NeurIPS 2022, §3.2, Theorem 2), so it is compute-bound: its two
	 * multiplies at BF16's large-matrix efficiency, not at the roofline of multiplies that
	 * write an s x s result to HBM. It runs at the accelerator's own attention_efficiency,
	 * the fused kernel's measured share of the BF16 peak (the FLOPs counted as here, the
	 * causal mask's half: Shah et al., "FlashAttention-3", arXiv 2407.08608, §4.1; on Hopper
	 * and later Transformer Engine runs cuDNN's fused attention, TE's get_attention_backend
	 * "give FusedAttention preference on Hopper+"); unset, BF16's matmul_efficiency.
	 * The kernel's sequence is the rank's queries, s/c with context parallelism (the
	 * ring's blocks are s/c by s/c; the all-gather's s/c queries meet up to s keys, taken at
	 * s/c too: a lower bound); attn_seq_factor. */
	if (c->flash)
		core = 2 * b * a / t * sl * s * (x.dq + x.dv) / (hw->peak16 * attn_eff(hw, sl)) / 2;
	if (!moe) {
		mm += gemm_passes(hw, mb, 1, tokens, (m->mats - 1) * m->ffn / t, h) +
		      gemm_passes(hw, mb, 1, tokens, h, m->ffn / t);
	} else {
		double fe = m->expert_ffn;
		double experts = expert_passes(m, hw, c, tokens, mb);
		mm += experts;
		mm += gemm_passes(hw, mb, m->shared, tokens, (m->mats - 1) * fe / t, h) +
		      gemm_passes(hw, mb, m->shared, tokens, h, fe / t);
		/* The router's multiply at BF16 whatever the precision: Megatron-Core's Router.gating
		 * runs it through router_gating_linear in the input's dtype (BF16) or
		 * moe_router_dtype's (fp32/fp64) (megatron/core/transformer/moe/router.py at
		 * 005742f), a torch.mm or Transformer Engine's general_gemm on the unquantized
		 * tensors (RouterGatingLinearFunction, moe_utils.py at 00611e6), not a TE linear
		 * layer, so FP8 autocast leaves it alone. FP32 would be slower still: BF16 is a
		 * lower bound. */
		mm += gemm16_passes(hw, mb, 1, tokens, m->experts, h);
		o->perm = (plan_moe_permute_bytes(m, c) + plan_moe_fp8_pad_bytes(m, hw, c)) /
			  (hw->hbm_bw * HBM_EFF);
		o->host = plan_moe_fwd_host(m, hw, c);
		o->after = experts + o->perm;
	}
	/* Memory-bound kernels (norms, activations, softmax, dropout, residuals): each tensor the
	 * layer produces is written by one kernel and read by the next, so forward moves twice the
	 * activation bytes (Korthikanti et al.'s sizes, unsplit by recomputation) and backward,
	 * which also writes and reads their gradients, twice that. */
	PlanConfig none = *c;
	none.recompute = RC_NONE;
	o->work = plan_layer_activation_bytes(m, &none, moe);
	double sw8 = plan_swiglu_fp8_saving(m, c, moe);
	o->act = plan_layer_activation_bytes(m, c, moe) -
		 (hw->elem_bytes < 2 ? plan_fp8_activation_saving(m, c, moe) : 0) - sw8;
	/* FlashAttention fuses the softmax (and its dropout) into the core: no s x s tensor goes
	 * through HBM. */
	double core_bytes = c->flash ? 0 : tokens * (m->dropout > 0 ? 5 : 2) * a * s / t;
	double cf_bytes, cb_bytes;
	plan_fp8_cast_bytes(m, hw, c, moe, &cf_bytes, &cb_bytes);
	/* swiglu_fp8_input's casts (plan_swiglu_fp8_saving, an element a byte saved): forward the
	 * BF16 input read and its FP8 copy written, backward the copy read and cast back to BF16
	 * written, 3 bytes an element each (`.to()` kernels of their own). */
	cf_bytes += 3 * sw8;
	cb_bytes += 3 * sw8;
	o->cast_f = cf_bytes / (hw->hbm_bw * HBM_EFF);
	o->cast_b = cb_bytes / (hw->hbm_bw * HBM_EFF);
	o->fwd = mm + core + 2 * o->work / (hw->hbm_bw * HBM_EFF) + o->perm + o->cast_f;
	o->mm_bwd_extra = bt.all - 2 * mm;
	/* The weight gradients dW = Xᵀ·dY, each at its own shape's efficiency (gemm_passes: for
	 * an expert k×m by m×n, m its few routed rows): DualPipe's W, the part of a backward chunk
	 * zero-bubble schedules defer (plan_time). */
	o->wgrad = bt.wgrad;
	o->core = core;
	o->core_mem = 2 * core_bytes / (hw->hbm_bw * HBM_EFF);
	/* Its backward recomputes QKᵀ and the softmax from the statistics: 5 multiplies where
	 * the forward has 2, 2.5 x the forward's FLOPs rather than 2 x (Dao 2024, §3.1.2), at the
	 * backward kernel's own efficiency: 2.5·core·(forward eff / backward eff) in all, of
	 * which the 2·core every layer's backward already counts (plan_layer) is not repeated. */
	o->core_bwd_extra =
		c->flash ? core * (2.5 * attn_eff(hw, sl) / attn_bwd_eff(hw, sl) - 2) : 0;
	/* TP: two all-reduces of the layer's output per pass (or, with SP, two reduce-scatters and
	 * two all-gathers: the same volume; Korthikanti et al. §4.2.2). Under FP8 the all-gathers
	 * carry FP8: Transformer Engine casts the shard before the gather (the LayerNorm's output
	 * forward, the row-parallel layers' output gradients backward; layernorm_linear.py,
	 * gather_along_first_dim of the FP8 ln_out, and base.py's grad_output_preprocess, "FP8
	 * case with gather"), 1 byte an element, where the reduce-scatters of the GEMM outputs stay
	 * BF16. An MoE layer's dispatcher gathers the BF16 hidden states itself (the EP row). */
	double act_bytes = tokens * h * 2;
	double ag_attn = act_bytes * hw->elem_bytes / 2, ag_ffn = moe ? act_bytes : ag_attn;
	double rs = t > 1 && c->sp ? collective(hw, t, t, COLL_REDUCE_SCATTER, act_bytes) : 0;
	/* Folded, the MoE block has no TP collectives (the experts are whole and the tokens stay
	 * in their SP shard): of the layer's two reduce-scatter/all-gather pairs only the
	 * attention's is left. */
	if (t <= 1)
		o->tp = 0;
	else if (moe && c->fold)
		o->tp = c->sp ? rs + collective(hw, t, t, COLL_ALL_GATHER, ag_attn)
			      : collective(hw, t, t, COLL_ALL_REDUCE, act_bytes);
	else
		o->tp = c->sp ? 2 * rs + collective(hw, t, t, COLL_ALL_GATHER, ag_attn) +
					collective(hw, t, t, COLL_ALL_GATHER, ag_ffn)
			      : 2 * collective(hw, t, t, COLL_ALL_REDUCE, act_bytes);
	/* CP: the exchange of K and V between the cp ranks of a sequence, each of the types
	 * Megatron-LM offers (--cp-comm-type) that the plan allows (none but p2p without CP). */
	for (int k = 0; k < CPC_COUNT; k++)
		o->cp_f[k] = o->cp_b[k] = INFINITY;
	unsigned cpc = c->cp_comm ? c->cp_comm : 1u << CPC_P2P;
	double kv = tokens * (x.k + x.v) * 2 / t, span_cp = (double)t * c->cp;
	if (c->cp <= 1) {
		o->cp_f[CPC_P2P] = o->cp_b[CPC_P2P] = 0;
	} else {
		/* p2p (ring attention; Liu, Zaharia and Abbeel, arXiv 2310.01889): each rank passes
		 * its K and V chunk around the ring, cp − 1 steps; backward passes K, V and their
		 * gradients. Overlapped with the core (Megatron-Core), as the other overlaps: at
		 * most OVERLAP_MAX of it hidden, at OVERLAP_COST. */
		if (cpc & (1u << CPC_P2P)) {
			double ring = collective(hw, span_cp, c->cp, COLL_RING_PASS, kv);
			o->cp_f[CPC_P2P] = exposed(ring, core, true);
			o->cp_b[CPC_P2P] = exposed(2 * ring, 2 * core, true);
		}
		/* all_gather (Llama Team 2024, §3.3.2): K and V of the whole sequence all-gathered
		 * before the local queries' attention, the gather exposed on the critical path (GQA
		 * keeps it small); backward gathers them again and reduce-scatters their gradients
		 * (Transformer Engine's AttnFuncWithCPAndKVAllGather keeps only the local chunk). */
		if (cpc & (1u << CPC_ALL_GATHER)) {
			double ag = collective(hw, span_cp, c->cp, COLL_ALL_GATHER, kv * c->cp);
			o->cp_f[CPC_ALL_GATHER] = ag;
			o->cp_b[CPC_ALL_GATHER] =
				ag + collective(hw, span_cp, c->cp, COLL_REDUCE_SCATTER, kv * c->cp);
		}
		/* a2a (DeepSpeed-Ulysses; Jacobs et al., arXiv 2309.14509, §3.1): Q, K and V
		 * all-to-all'ed from sequence to head shards before the attention and its output
		 * back after, as many in backward; exposed. Each rank needs whole query and
		 * key/value heads: the TP rank's heads and groups divisible by cp. */
		double hpr = m->heads / t, gpr = (m->kv_lora > 0 ? m->heads : m->groups) / t;
		if ((cpc & (1u << CPC_A2A)) && fmod(hpr, c->cp) == 0 && fmod(gpr, c->cp) == 0) {
			double qkvo = tokens * (x.q + x.k + x.v + x.o) * 2 / t;
			o->cp_f[CPC_A2A] = o->cp_b[CPC_A2A] =
				collective(hw, span_cp, c->cp, COLL_ALL_TO_ALL, qkvo);
		}
	}
	/* EP: dispatch and combine all-to-all of the routed tokens, per pass, in BF16: Megatron-Core
	 * dispatches the hidden states as they are and Transformer Engine casts them to FP8 inside
	 * the grouped linear layers (megatron/core/transformer/moe/token_dispatcher.py; its DeepEP
	 * path passes them to buffer.dispatch unchanged and its HybridEP path asserts "HybridEP
	 * dispatcher does not support fp8 dispatch now", megatron/core/transformer/moe/
	 * fused_a2a.py at 02ad939). With fp8_dispatch (fp8 precision) the dispatch goes in FP8 and
	 * the combine in BF16, as DeepSeek-V3's own (DeepSeek-AI 2024, §3.3.4). */
	double db = c->fp8_dispatch ? hw->elem_bytes : 2; /* bytes of a dispatched element */
	/* Padded to capacity, the all-to-all carries cf x the routed tokens. */
	double routed = dispatched_rows(m, c, tokens) * h;
	/* Folded, the EP group is ep consecutive GPUs (TP innermost, then EP). */
	double span_ep = c->fold ? (double)c->ep : (double)t * c->cp * c->ep;
	/* Node-limited routing (DeepSeek-AI 2024, §3.2.2): a token's experts on at most M nodes,
	 * so the fabric carries min(k, M) copies of it (one a node) and NVLink forwards them to
	 * the experts inside each node. */
	double M = m->route_nodes;
	if (!moe || c->ep <= 1) {
		o->ep = 0;
	} else if (c->hybrid_ep && !(M > 0 && M < m->top_k && span_ep > hw->domain)) {
		/* HybridEP: each token once to each rank holding one of its experts. Past the
		 * scale-up domain under node-limited routing, the branch below: HybridEP's RDMA
		 * path sends a token once to each of its (at most M) nodes and NVLink forwards it
		 * inside, as node-limited routing's all-to-all does (README_Hybrid-EP.md). */
		o->ep = hybrid_ep_time(hw, span_ep, c->ep,
				       routed_tokens(c, tokens) * plan_moe_dest_ranks(m, c), h);
	} else if (M > 0 && M < m->top_k && span_ep > hw->domain) {
		double across = routed_tokens(c, tokens) * M * h;
		double inside = c->fold ? (double)hw->domain : (double)hw->domain / t;
		o->ep = collective(hw, span_ep, c->ep, COLL_ALL_TO_ALL, across * db) +
			collective(hw, span_ep, c->ep, COLL_ALL_TO_ALL, across * 2) +
			collective(hw, hw->domain, inside, COLL_ALL_TO_ALL, routed * db) +
			collective(hw, hw->domain, inside, COLL_ALL_TO_ALL, routed * 2);
	} else {
		o->ep = collective(hw, span_ep, c->ep, COLL_ALL_TO_ALL, routed * db) +
			collective(hw, span_ep, c->ep, COLL_ALL_TO_ALL, routed * 2);
	}
	o->rc_mod = rc_module_time(m, hw, c, moe, o->ep, o->perm);
}

/* The largest virtual stage's layers: of the middle stages' mid/v each and the first and last
 * stages' end chunks (plan_time's first_chunk_layers and last_chunk_layers), the last too, as
 * at pp = 2, where the middle is the first stage, or where pipeline_last_layers is the most. */
double plan_chunk_layers(const PlanModel *m, const PlanConfig *c)
{
	double first, mid, last, v = chunks(c);
	stage_layers(m, c, &first, &mid, &last);
	double vs = mid / v;
	return fmax(vs, fmax(first - (v - 1) * vs, last - (v - 1) * vs));
}

/* Block recomputation (Megatron-LM, --recompute-method block --recompute-num-layers k:
 * megatron/core/transformer/transformer_block.py, _checkpointed_forward, recomputes the first
 * k layers of each virtual stage and keeps the others' activations): a fraction f = k/n of the
 * layers costs as under full recomputation, the rest as without. The working set of one
 * recomputed layer stays (plan_memory). */
void plan_layer_blend(const PlanLayer *none, const PlanLayer *full, double f, PlanLayer *out)
{
	PlanLayer o = *full;
	o.re = f * full->re;
	o.tp = f * full->tp + (1 - f) * none->tp;
	o.cp = f * full->cp + (1 - f) * none->cp;
	o.ep = f * full->ep + (1 - f) * none->ep;
	o.act = f * full->act + (1 - f) * none->act;
	o.sync = f * full->sync + (1 - f) * none->sync;
	o.sync_floor = f * full->sync_floor + (1 - f) * none->sync_floor;
	*out = o;
}

/* Uniform recomputation (--recompute-method uniform --recompute-num-layers k: the same
 * _checkpointed_forward checkpoints each group of k consecutive layers of a virtual stage as one,
 * keeping only the group's input, and recomputes the whole group's forward before its backward):
 * every layer's forward repeated, as full recomputation's; one layer input kept a group, 1/k of
 * a layer's; and the k layers' activations together while the group's backward runs. */
void plan_layer_rc_layers(const PlanConfig *c, double n, const PlanLayer *none,
			  const PlanLayer *full, PlanLayer *out)
{
	double k = c->rc_layers;
	if (c->rc_uniform) {
		*out = *full;
		out->act = full->act / k;
		out->work = full->work * k;
	} else if (k < n) {
		plan_layer_blend(none, full, k / n, out);
	} else {
		*out = *full;
	}
}

/* The fixed counts we plan (c->rc_layers). Megatron-Core checks no range: transformer_config.py
 * at d2c5e8b raises "recompute_num_layers must be between 1 and num_layers_per_pipeline_rank"
 * only when full recomputation has no count at all. Uniform's loop (transformer_block.py at
 * 767a8a8, _checkpointed_forward: `while l < num_layers_per_pipeline_rank` runs custom(l, l + k),
 * whose range(start, end) indexes the block's own layers unclamped) fails on a last group past
 * the block's end, so k divides the layers of every virtual stage: the first and last chunks
 * (which may hold none) and the middle ones (plan_time's first_chunk_layers,
 * virtual_stage_layers, last_chunk_layers). Block's loop recomputes the first min(k, n) layers
 * and takes any count; at most the largest virtual stage is our own bound, as a larger count
 * means the same thing. */
bool plan_rc_layers_ok(const PlanModel *m, const PlanConfig *c)
{
	if (c->recompute != RC_FULL || c->rc_layers <= 0)
		return true;
	if (!c->rc_uniform)
		return c->rc_layers <= plan_chunk_layers(m, c) + 1e-9;
	double first, mid, last, v = chunks(c), k = c->rc_layers;
	stage_layers(m, c, &first, &mid, &last);
	double vs = mid / v;
	return fmod(vs, k) == 0 && fmod(first - (v - 1) * vs, k) == 0 &&
	       fmod(last - (v - 1) * vs, k) == 0;
}

/* Per-layer costs, averaged over the dense and MoE layers by their counts. */
void plan_layer(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanLayer *out)
{
	bool fixed = c->recompute == RC_FULL && c->rc_layers > 0;
	double chunk = fixed ? plan_chunk_layers(m, c) : 0;
	if (fixed && (c->rc_uniform ? c->rc_layers > 1 : c->rc_layers < chunk)) {
		PlanConfig one = *c;
		PlanLayer none, full;
		one.rc_layers = 0, one.rc_uniform = false;
		plan_layer(m, hw, &one, &full);
		one.recompute = RC_NONE;
		plan_layer(m, hw, &one, &none);
		plan_layer_rc_layers(c, chunk, &none, &full, out);
		return;
	}
	double nd = n_dense(m), nm = m->layers - nd;
	LayerTimes dl = {0}, ml = {0};
	if (nd > 0)
		layer_times(m, hw, c, false, &dl);
	if (nm > 0)
		layer_times(m, hw, c, true, &ml);
	double wd = nd / m->layers, wm = nm / m->layers;
	double fwd = wd * dl.fwd + wm * ml.fwd;
	double tp = wd * dl.tp + wm * ml.tp, ep = wd * dl.ep + wm * ml.ep;
	double core = wd * (dl.core + dl.core_mem) + wm * (ml.core + ml.core_mem);
	*out = (PlanLayer){0};
	out->fwd = fwd;
	/* The permutations' backward runs the same copies on the gradients once (the inverse
	 * kernels: plan_moe_permute_bytes), not twice as the layer's other memory-bound work. */
	out->bwd = 2 * fwd + wd * dl.core_bwd_extra + wm * ml.core_bwd_extra - wm * ml.perm;
	/* The FP8 casts' backward is its own (the output gradients), not twice the forward's. */
	out->bwd += wd * (dl.cast_b - 2 * dl.cast_f) + wm * (ml.cast_b - 2 * ml.cast_f);
	/* The backward's multiplies at their own shapes (gemm_passes), not twice the forward's. */
	out->bwd += wd * dl.mm_bwd_extra + wm * ml.mm_bwd_extra;
	out->wgrad = wd * dl.wgrad + wm * ml.wgrad;
	/* Selective recomputation: the core where it is among the modules (the default), fused or
	 * not: Megatron-Core checkpoints whatever core_attention the layer has
	 * (_checkpointed_attention_forward, attention.py at f41b4fd), so a FlashAttention core
	 * runs its causal forward again at the kernel's efficiency (core; core_mem is 0 fused);
	 * and the other modules the workload lists (rc_mod; 0 without them). */
	bool re_core = plan_rc_modules(c) & (1u << RCM_CORE_ATTN);
	out->re = c->recompute == RC_FULL ? fwd
					  : (re_core ? core : 0) + wd * dl.rc_mod + wm * ml.rc_mod;
	/* Full recomputation repeats the forward's collectives too. */
	double passes = c->recompute == RC_FULL ? 3 : 2;
	out->tp = passes * tp;
	out->ep = passes * ep;
	/* The fastest CP exchange allowed (full recomputation repeats its forward, and so does the
	 * recomputed core: Transformer Engine's context-parallel attention exchanges K and V inside
	 * the core's forward). */
	out->cp = INFINITY;
	out->cp_type = CPC_P2P;
	for (int k = 0; k < CPC_COUNT; k++) {
		double f = (nd > 0 ? wd * dl.cp_f[k] : 0) + (nm > 0 ? wm * ml.cp_f[k] : 0);
		double b = (nd > 0 ? wd * dl.cp_b[k] : 0) + (nm > 0 ? wm * ml.cp_b[k] : 0);
		double cp = f + b + (c->recompute == RC_FULL || re_core ? f : 0);
		if (cp < out->cp)
			out->cp = cp, out->cp_type = k;
	}
	/* Dropless MoE's synchronization (plan_moe_fwd_host): after it the GPU's queue is empty
	 * and it runs the rest of the layer (the all-to-alls, the experts, the permutations) only
	 * as fast as the host launches it: max(host, GPU), the lag host − GPU exposed, and at
	 * least the first launch; at each forward, the recomputation's too. Without a lag the
	 * host is ahead again by the layer's end. */
	if (nm > 0 && ml.host > 0) {
		double passes_f = c->recompute == RC_FULL ? 2 : 1;
		out->sync = wm * passes_f * fmax(HOST_LAUNCH_S, ml.host - (ml.ep + ml.after));
		out->sync_floor = wm * passes_f * HOST_LAUNCH_S;
	}
	out->act = wd * dl.act + wm * ml.act;
	out->work = fmax(dl.work, ml.work);
	/* Selective recomputation by module: the larger layer's discarded tensors, back for its
	 * backward (plan_act_memory), as many bytes as they saved (net of FP8's one-byte copies). */
	double tokens = (double)c->micro * m->seq / c->cp, rc_d = 0, rc_m = 0, rc_core = 0, f8;
	bool fp8 = hw->elem_bytes < 2;
	if (nd > 0)
		rc_d = rc_module_bytes(m, c, false, &f8) - (fp8 ? f8 : 0);
	if (nm > 0)
		rc_m = rc_module_bytes(m, c, true, &f8) - (fp8 ? f8 : 0);
	/* The recomputed core's at its backward, one layer's: what its checkpoint dropped (the
	 * s x s tensors unfused, the statistics fused) and the output it computes again beside
	 * the kept one, 2ad (the same for dense and MoE layers). */
	if (re_core) {
		double a = m->heads, t = c->tp;
		rc_core = (c->flash ? 4 * a : (m->dropout > 0 ? 5 : 2) * a * m->seq) / t +
			  2 * attn_dims(m).o / t;
	}
	out->rc_work = tokens * (fmax(rc_d, rc_m) + rc_core);
	/* The output layer and the loss on the last stage: its matmul forward and backward (BF16)
	 * and the FP32 logits it keeps (4·tokens·V/t bytes, written and read twice). */
	double logits = 4 * tokens * m->vocab / c->tp;
	BwdTime out_b = {0};
	out->out_time = gemm16_passes(hw, &out_b, 1, tokens, m->vocab / c->tp, m->hidden) + out_b.all +
			4 * logits / (hw->hbm_bw * HBM_EFF);
	out->out_mem = logits;
	/* The MTP modules (mtp_dense) on the last stage: each the output layer and loss again,
	 * whose logits it keeps for the backward as the main one does (process_mtp_loss,
	 * multi_token_prediction.py at 00611e6), and its projection of the concatenated 2h to h
	 * (eh_proj, column-parallel), with its input and the two norms' (BF16, 8h bytes a token
	 * over the TP group). Their layers run on the last stage too (plan_time). */
	if (m->mtp > 0) {
		BwdTime pb = {0};
		double proj = gemm_passes(hw, &pb, 1, tokens, m->hidden / c->tp, 2 * m->hidden) + pb.all;
		out->out_time += m->mtp * (out->out_time + proj);
		out->out_mem += m->mtp * (logits + tokens * 8 * m->hidden / c->tp);
	}
	/* What a stage sends the next per micro-batch: its output, split over the TP group (the
	 * scatter-gather of Narayanan et al. §4.1, or the SP shard). */
	out->pp_bytes = tokens * m->hidden * 2 / c->tp;
	/* FP8: Transformer Engine casts each linear layer's weight to FP8 at the step's first
	 * micro-batch and keeps the cast for the others (Megatron-Core's TELinear passes
	 * is_first_microbatch unless --disable-parameter-transpose-cache; NVIDIA Transformer
	 * Engine, transformer_engine/pytorch/module/linear.py, the weight workspace): a byte a
	 * parameter more, two where the FP8 GEMMs take K-major operands only and the backward
	 * needs the transpose too (Hopper; TE's is_non_tn_fp8_gemm_supported() is false before
	 * Blackwell). */
	out->fp8_cache = hw->fp8_cache;
}

/* The stage's weights, gradients and optimizer state per GPU (bytes; plan_memory), its weights
 * and gradients into *weights and *grads; fp8_cache is PlanLayer.fp8_cache. */
double plan_state_memory(const PlanModel *m, const PlanConfig *c, double dense, double expert,
			 double fp8_cache, double *weights, double *grads)
{
	double n = (double)c->dp * c->cp * copies(c), ne = expert_dp(c) * copies(c);
	/* Gradients accumulated and reduced in FP32, or in BF16 (grad_reduce_bf16: Megatron-LM
	 * --grad-reduce-in-bf16, Megatron-Core's DDP grad_reduce_in_fp32 = False: the gradient
	 * buffer takes the parameters' BF16), 2 bytes a parameter fewer. */
	double gb = c->grad16 ? 2 : 4;
	double w = 2 * (dense + expert), g = gb * (dense + expert);
	double ob = plan_optimizer_bytes(c);
	double states = dense * plan_state_bytes_per_param(c->dopt, n) +
			expert * plan_state_bytes_per_param(c->dopt, ne) - (4 - gb) * (dense + expert) -
			(12 - ob) * (c->dopt ? dense / n + expert / ne : dense + expert);
	if (c->fsdp) {
		/* ZeRO-3 (Rajbhandari et al., SC'20, §5.3): every byte of state sharded, 18/n a
		 * parameter, plus the gathered layers: BF16 weights of the layer running and the
		 * one prefetched, and the FP32 gradients of the one in backward. */
		double layer = (dense + expert) / m->layers;
		w = 2 * (dense / n + expert / ne) + 2 * 2 * layer;
		g = gb * (dense / n + expert / ne) + gb * layer;
		states = (2 + ob + gb) * (dense / n + expert / ne) + (4 + gb) * layer;
	} else if (c->zero2) {
		/* ZeRO-2 (Rajbhandari et al., SC'20, §5.2: P_os+g): the BF16 weights whole, the
		 * gradients and the optimizer state sharded, 2 + (gb + 12)/n a parameter, plus the
		 * full gradients of the layer whose backward is running and of the one being
		 * reduce-scattered (2 · gb a parameter of one of the stage's layers). Llama 3's data
		 * parallelism (Llama Team 2024, §3.3.2: FSDP sharding optimizer states and
		 * gradients, the weights not resharded after the forward). */
		double layer = (dense + expert) / fmax(1, copies(c) * m->layers / c->pp);
		w = 2 * (dense + expert);
		g = gb * (dense / n + expert / ne) + 2 * gb * layer;
		states = w + g + ob * (dense / n + expert / ne);
	}
	/* The FP8 weight copies (PlanLayer.fp8_cache) of the stage's layers, or of the gathered
	 * ones under FSDP; the embedding's share, which stays BF16, is counted too (an
	 * overestimate of at most V·h/t on an end stage). */
	double cached = fp8_cache * (c->fsdp ? 2 * (dense + expert) / m->layers : dense + expert);
	if (plan_fp8_params(c) && fp8_cache > 0) {
		/* FP8 parameters (fp8_params: Megatron-LM --fp8-param-gather, Transformer Engine's
		 * fp8_model_init; NeMo's fp8_params, which NVIDIA's DGX Cloud FP8 recipes set): the
		 * weight is its FP8 copy (with its transpose on Hopper), so the BF16 weight's 2 bytes
		 * a parameter go; under FSDP the shards are FP8 too (1 byte) and the gathered layers
		 * are the copies counted above. The master weights stay FP32 in the optimizer. (The
		 * embedding and output layer stay BF16: under by at most V·h/t bytes where the copy
		 * is one byte.) */
		if (c->fsdp) {
			double layer = (dense + expert) / m->layers, shard = dense / n + expert / ne;
			states -= shard + 2 * 2 * layer;
			w -= shard + 2 * 2 * layer;
		} else {
			states -= w;
			w = 0;
		}
	}
	*weights = w + cached;
	*grads = g;
	return states + cached;
}

/* Memory per GPU (bytes): weights, gradients and optimizer state of the stage's parameters,
 * activations of the micro-batches in flight, the full-recompute working layer and the
 * logits. Fills the memory fields of o and returns the total. The search adds the same two
 * parts itself (plan_state_memory once per sharding, plan_inflight_layers once per
 * interleaving), the same sum bit for bit. */
double plan_memory(const PlanModel *m, const PlanConfig *c, const PlanLayer *l, double dense,
		   double expert, PlanCost *o)
{
	if (plan_dualpipe(c))
		return plan_dualpipe_memory(m, c, l, o);
	int mb = c->batch / (c->dp * c->micro);
	o->mem_states = plan_state_memory(m, c, dense, expert, l->fp8_cache, &o->mem_weights,
					  &o->mem_grads);
	o->mem_optim = o->mem_states - o->mem_weights - o->mem_grads;
	o->mem_act = plan_act_memory(c, l, plan_inflight_layers(m, c, mb),
				     plan_last_inflight_layers(m, c, mb));
	o->mem_host = c->offload > 0 ? c->offload * l->act : 0;
	o->mem = o->mem_states + o->mem_act;
	return o->mem;
}

/* ---- activation offload (Megatron-LM --cpu-offloading-num-layers) ---------------------------- */

/* Transformer Engine's offload (transformer_engine/pytorch/cpu_offload.py,
 * AsyncDoubleBufferGroupOffloadHandler, which Megatron-Core's get_cpu_offload_context builds):
 * the k offloaded layers are spread evenly over the L (layer_window_map: layer i's copy must be
 * done by layer (L div k)·(i + 1) − 1), each layer's saved activations copied to pinned host
 * memory on a side stream while the next layers compute, and reloaded in the backward one
 * layer ahead into a prefetch buffer: "D2h and h2d copying are completely hidden behind
 * computation if computation time of a layer is longer than host-device communication time"
 * (its docstring). So each copy of a layer's activations, act / host_bw, runs under the
 * L div k layers of its window, forward going out and backward coming back; only what exceeds
 * them is exposed. The copy engines use no SMs; the HBM bandwidth they take is not charged
 * (a copy at 450 GB/s is under 6 % of the B200's HBM). */
double plan_offload_exposed(const PlanModel *m, const PlanHw *hw, const PlanConfig *c,
			    const PlanLayer *l)
{
	if (c->offload <= 0 || hw->host_bw <= 0)
		return 0;
	double copy = l->act / hw->host_bw;
	double window = floor(m->layers / c->offload);
	return c->offload * (fmax(0, copy - window * l->fwd) + fmax(0, copy - window * l->bwd));
}

/* FP8 delayed scaling's amax reduction (Transformer Engine's DelayedScaling, reduce_amax on
 * by default; not under current scaling, whose amaxes are the tensor's own): each FP8 module
 * adds its amaxes to a buffer keyed by the autocast's recipe and group
 * (FP8GlobalStateManager.add_fp8_tensors_to_global_buffer), and reduce_and_update_fp8_tensors
 * concatenates the buffer and all-reduces it with MAX over the fp8_group, async_op=False, so
 * the compute stream waits on it, then updates the scales: forward at the outermost
 * fp8_autocast's exit (fp8_autocast_exit), backward once the region's backward is done
 * (hook_for_bwd_amax_reduction, a multi-grad hook; NVIDIA/TransformerEngine
 * transformer_engine/pytorch/fp8.py at 0004dbd, 1.x of 2024; later versions call it from the
 * backward of the region's first FP8 module, ctx.reduce_and_update_bwd_fp8_tensors).
 * Megatron-Core opens one fp8_autocast around each TransformerBlock's forward, a model chunk,
 * with fp8_group = get_amax_reduction_group(with_context_parallel=True), the TP x DP x CP
 * ranks of a stage (megatron/core/transformer/transformer_block.py and parallel_state.py,
 * Megatron-Core of 2024, as NeMo 24.x carries it). So each micro-batch all-reduces 2v times
 * over that group: the buffer holds the amaxes of the rank's FP8 GEMMs, 4 a layer, 3 a GEMM
 * forward (input, weight, output) and 2 backward (gradients in and out), FP32: a few hundred
 * bytes, so its latency is the cost (plan_collective). Exposed: it blocks the stream it is
 * issued on. */
static double amax_reduction(const PlanHw *hw, const PlanConfig *c, double stage)
{
	if (hw->elem_bytes != 1 || hw->fp8_current)
		return 0;
	double n = (double)c->tp * c->dp * c->cp;
	double fwd = plan_collective(hw, n, n, COLL_ALL_REDUCE, stage * 4 * 3 * 4);
	double bwd = plan_collective(hw, n, n, COLL_ALL_REDUCE, stage * 4 * 2 * 4);
	return chunks(c) * (fwd + bwd);
}

/* Time per step and what follows from it (MFU, tokens/s, FLOP/s per GPU). */
void plan_time(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *o)
{
	int mb = c->batch / (c->dp * c->micro);
	double span = (double)c->tp * c->cp * c->dp; /* one pipeline stage of every replica */
	double gb = c->grad16 ? 2 : 4;               /* bytes of a reduced gradient (plan_memory) */
	/* Bytes of a gathered weight: BF16, or FP8 with fp8_params (--fp8-param-gather: "perform
	 * the param all-gather in fp8", Megatron-LM arguments.py). */
	double wb = plan_fp8_params(c) && l->fp8_cache > 0 ? 1 : 2;
	/* Point-to-point to the next stage: forward activations and backward gradients of each
	 * of the v chunks; not overlapped (Megatron's 1F1B sends between its computations). */
	double pp_t = c->pp > 1 ? 2 * c->v * (NET_ALPHA + l->pp_bytes / plan_group_bandwidth(hw, 2 * span)) : 0;
	double first, mid, last;
	stage_layers(m, c, &first, &mid, &last);
	/* Overlap: TP's all-gathers and reduce-scatters under the layer's GEMMs (Megatron-LM
	 * --tp-comm-overlap, Transformer Engine userbuffers; with SP only); the pipeline's sends
	 * under the next chunk's forward and backward (--overlap-p2p-communication; interleaved
	 * schedule only). */
	double busy = l->fwd + l->bwd;
	unsigned otp = c->sp && c->tp > 1 ? c->overlap_tp : 1u;
	o->overlap_tp = overlap_on(otp, l->tp, busy);
	double tp = exposed(l->tp, busy, o->overlap_tp);
	/* DualPipe overlaps a forward and a backward chunk, the pipeline's sends of one under the
	 * other's compute ("both all-to-all and PP communication can be fully hidden", DeepSeek-AI
	 * 2024, §3.2.1): the same overlap as interleaving's. */
	unsigned opp = (c->v > 1 && c->pp > 1) || plan_dualpipe(c) ? c->overlap_pp : 1u;
	double chunk = fmax(mid, first) / c->v * busy;
	if (plan_dualpipe(c)) {
		pp_t = exposed_paired(opp, pp_t, chunk, &o->overlap_pp);
	} else {
		o->overlap_pp = overlap_on(opp, pp_t, chunk);
		pp_t = exposed(pp_t, chunk, o->overlap_pp);
	}
	/* The pipeline runs at its slowest stage (Narayanan et al. §2.2: every stage processes
	 * each micro-batch in turn): the last with its layers and the output layer and loss, a
	 * middle one, or the first. `stage` is the slowest stage's layers. */
	/* EP overlap: the all-to-all of one micro-batch under another's compute (DeepSeek-V3's
	 * DualPipe, DeepSeek-AI 2024 §3.2.1, Figure 4; Megatron-Core's overlapped MoE dispatch).
	 * Under DualPipe its own (the forward and backward chunks it overlaps). Under 1F1B, not
	 * where Megatron-Core rejects --overlap-moe-expert-parallel-comm
	 * (TransformerConfig.__post_init__, megatron/core/transformer/transformer_config.py at
	 * 002526d): without expert parallelism ("only supported with expert model parallelism"),
	 * with a pipeline but no virtual stages ("virtual_pipeline_model_parallel_size must be
	 * specified when pipeline_model_parallel_size > 1"), with `moe` among the recomputed
	 * modules ("disable moe in recompute_modules when enabling
	 * overlap_moe_expert_parallel_comm"), and with full recomputation with a
	 * --recompute-method, which write_args always gives ("recompute_method must be None with
	 * overlap_moe_expert_parallel_comm full recompute"). Its other rules the arguments never
	 * break: the dispatcher alltoall or flex, --bf16, no --moe-shared-expert-overlap, no MTP
	 * layers, no CUDA graphs (write_args writes none of those). */
	bool ep_ok = l->ep > 0 && c->ep > 1 &&
		     (plan_dualpipe(c) || (c->recompute != RC_FULL &&
				      !(plan_rc_modules(c) & (1u << RCM_MOE)) &&
				      (c->pp == 1 || c->v > 1)));
	unsigned oep = ep_ok ? c->overlap_ep : 1u;
	double ep;
	if (plan_dualpipe(c)) {
		ep = exposed_paired(oep, l->ep, busy, &o->overlap_ep);
	} else {
		o->overlap_ep = overlap_on(oep, l->ep, busy);
		ep = exposed(l->ep, busy, o->overlap_ep);
	}
	double per_layer = l->fwd + l->bwd + l->re + tp + l->cp + ep;
	/* The last stage: its layers and the MTP modules' (mtp_dense), each at the mean layer's
	 * time (DeepSeek-V3's MoE layer: 9 experts of 2,048, the FLOPs of its dense layers'
	 * 18,432), and the output layer with the modules' own and their projections (out_time). */
	double stage = last + m->mtp, tail = l->out_time;
	if (plan_dualpipe(c)) {
		/* DualPipe: each rank runs half the micro-batches through each of its two stages
		 * (plan_stage_params), so a micro-batch costs the mean of the two: the end ranks'
		 * first and last with half the output layer, a middle rank's two middle ones. */
		stage = (first + last + m->mtp) / 2, tail = l->out_time / 2;
		if (c->pp > 2 && mid * per_layer > stage * per_layer + tail)
			stage = mid, tail = 0;
	} else if (c->pp > 1 && fmax(mid, first) * per_layer > stage * per_layer + tail) {
		stage = fmax(mid, first), tail = 0;
	}
	double per_mb = stage * per_layer + tail + pp_t;
	double off_t = plan_offload_exposed(m, hw, c, l);
	per_mb += off_t;
	double amax_t = amax_reduction(hw, c, stage);
	per_mb += amax_t;
	/* Dropless MoE's synchronization (plan_layer's sync) at every MoE layer of the stage. Under
	 * the all-to-all overlap (--overlap-moe-expert-parallel-comm) and DualPipe a micro-batch's
	 * forward layers run merged with another's backward, whose kernels the GPU has queued
	 * behind the launches: only the first launch is exposed (sync_floor). */
	bool merged = plan_dualpipe(c) || o->overlap_ep;
	double sync_t = stage * (merged ? l->sync_floor : l->sync);
	per_mb += sync_t;
	/* FSDP gathers each layer's weights before its forward and again before its backward and
	 * reduce-scatters its gradients after, every micro-batch (ZeRO-3: 1.5 x the data-parallel
	 * volume per pass; Rajbhandari et al. §7.2.2), the next layer's under the current one's
	 * compute when overlap_dp is on (layer by layer: exposed_pieces). */
	double n = (double)c->dp * c->cp * copies(c), ne = expert_dp(c) * copies(c);
	/* DualPipe's stage copies are pipeline ranks apart: their group spans the job. */
	double dspan = copies(c) > 1 ? (double)c->gpus : span;
	double fsdp_t = 0;
	if (c->fsdp) {
		double ag = params_collective(hw, dspan, n, ne, COLL_ALL_GATHER, wb, dense, expert);
		double rs = params_collective(hw, dspan, n, ne, COLL_REDUCE_SCATTER, gb, dense, expert);
		double f = m->layers * l->fwd, bk = m->layers * l->bwd, k = m->layers;
		double on = exposed_pieces(ag, f, k, true) + exposed_pieces(ag + rs, bk, k, true);
		unsigned ofs = n > 1 ? c->overlap_dp : 1u;
		o->overlap_dp = knob_on(ofs, on, 2 * ag + rs);
		fsdp_t = o->overlap_dp ? on : 2 * ag + rs;
		per_mb += fsdp_t;
	}
	/* ZeRO-2: with the gradients sharded there is no whole gradient to accumulate into, so
	 * each micro-batch's gradients are reduce-scattered as its backward produces them
	 * (Rajbhandari et al. §5.2; DeepSpeed's stage 2 reduces every micro-step; Megatron-FSDP's
	 * optim_grads forces --overlap-grad-reduce), under the micro-batch's backward when
	 * overlap_dp is on, layer by layer (exposed_pieces), and under the forward of the
	 * micro-batch that follows it (1F1B alternates them; without a pipeline the next
	 * micro-batch's forward): the reduce-scatters queue on their stream while the compute
	 * goes on. The last micro-batch's has only its own backward, as ZeRO-1's one
	 * reduce-scatter (below; the difference is added once, z2_last). The updated BF16 weights
	 * are all-gathered once a step, as with the distributed optimizer (below). So a plan is
	 * never faster with ZeRO-2 than with ZeRO-1 (the same last reduce-scatter, and m - 1 more
	 * before it), which the search uses. */
	double z2_t = 0, z2_last = 0;
	if (c->zero2) {
		double rs = params_collective(hw, dspan, n, ne, COLL_REDUCE_SCATTER, gb, dense, expert);
		double bk = stage * l->bwd, next = stage * l->fwd;
		/* The last micro-batch's last piece is the embedding's (dp_piece); the others'
		 * run under the next micro-batch's forward. */
		double lastp = dp_piece(m, hw, c, rs, stage, dense, dspan, n, COLL_REDUCE_SCATTER, gb);
		o->overlap_dp = knob_on(n > 1 ? c->overlap_dp : 1u,
					plan_exposed_last(rs, bk, lastp, true), rs);
		z2_t = exposed_pieces(rs, bk + next, stage, o->overlap_dp);
		z2_last = plan_exposed_last(rs, bk, lastp, o->overlap_dp) - z2_t;
		per_mb += z2_t;
	}
	o->microbatches = mb;
	o->cp_type = l->cp_type;
	o->virtual_stage_layers = c->first > 0 ? (int)(mid / c->v) : (int)(m->layers / (c->pp * c->v));
	o->first_stage_layers = (int)first, o->mid_stage_layers = (int)mid;
	o->last_stage_layers = (int)last;
	o->first_chunk_layers = (int)(first - (c->v - 1) * (double)o->virtual_stage_layers);
	o->last_chunk_layers = (int)(last - (c->v - 1) * (double)o->virtual_stage_layers);
	o->compute = mb * (stage * (l->fwd + l->bwd) + tail);
	o->recompute = mb * stage * l->re;
	o->tp_comm = mb * stage * tp;
	o->cp_comm = mb * stage * l->cp;
	o->ep_comm = mb * stage * ep;
	o->pp_comm = mb * pp_t;
	o->offload_comm = mb * off_t;
	o->amax_comm = mb * amax_t;
	o->moe_sync = mb * sync_t;
	o->bubble_fraction = plan_bubble_fraction(c->pp, c->v, mb);
	o->bubble = o->bubble_fraction * mb * per_mb;
	if (plan_dualpipe(c)) {
		/* DualPipe's bubble (DeepSeek-AI 2024, Table 2): (PP/2 − 1)(F&B + B − 3W), F&B a
		 * forward and a backward chunk overlapped (a micro-batch's time, per_mb), B a
		 * backward chunk (with its recomputation), W its weight gradients. */
		double bchunk = stage * (l->bwd + l->re), w = stage * l->wgrad;
		o->bubble = fmax(0, (c->pp / 2 - 1) * (per_mb + bchunk - 3 * w));
		o->bubble_fraction = o->bubble / (mb * per_mb);
	}
	/* Data parallelism over the DP × CP group (CP ranks hold the same weights), experts over
	 * DP × CP / EP: gradients (FP32) reduced, or reduce-scattered and the BF16 weights
	 * all-gathered with the distributed optimizer. Overlapped with the backward (reduce) and
	 * forward (gather) of one micro-batch on the stage (Megatron-Core's overlap-grad-reduce
	 * and overlap-param-gather), bucket by bucket (exposed_pieces); what is left is exposed. */
	double bwd = stage * l->bwd, fwd = stage * l->fwd, dp = 0, dp_added = 0;
	unsigned odp = n > 1 ? c->overlap_dp : 1u;
	if (c->fsdp) {
		dp = mb * fsdp_t; /* in the micro-batches' time already: reported, not added */
	} else if (c->zero2) {
		double ag = params_collective(hw, dspan, n, ne, COLL_ALL_GATHER, wb, dense, expert);
		double firstp = dp_piece(m, hw, c, ag, stage, dense, dspan, n, COLL_ALL_GATHER, wb);
		dp_added = plan_exposed_last(ag, fwd, firstp, o->overlap_dp) + z2_last;
		dp = mb * z2_t + dp_added; /* the reduce-scatters are in the micro-batches' time */
	} else if (c->dopt) {
		double rs = params_collective(hw, dspan, n, ne, COLL_REDUCE_SCATTER, gb, dense, expert);
		double ag = params_collective(hw, dspan, n, ne, COLL_ALL_GATHER, wb, dense, expert);
		double lastp = dp_piece(m, hw, c, rs, stage, dense, dspan, n, COLL_REDUCE_SCATTER, gb);
		double firstp = dp_piece(m, hw, c, ag, stage, dense, dspan, n, COLL_ALL_GATHER, wb);
		double on = plan_exposed_last(rs, bwd, lastp, true) +
			    plan_exposed_last(ag, fwd, firstp, true);
		o->overlap_dp = knob_on(odp, on, rs + ag);
		dp = o->overlap_dp ? on : rs + ag;
	} else {
		double ar = params_collective(hw, dspan, n, ne, COLL_ALL_REDUCE, gb, dense, expert);
		double lastp = dp_piece(m, hw, c, ar, stage, dense, dspan, n, COLL_ALL_REDUCE, gb);
		o->overlap_dp = knob_on(odp, plan_exposed_last(ar, bwd, lastp, true), ar);
		dp = plan_exposed_last(ar, bwd, lastp, o->overlap_dp);
	}
	if (!c->fsdp && !c->zero2)
		dp_added = dp;
	o->dp_comm = dp;
	double shard = c->dopt || c->fsdp ? dense / n + expert / ne : dense + expert;
	o->optimizer = ADAM_BYTES * shard / (hw->hbm_bw * HBM_EFF);
	o->step = mb * per_mb + o->bubble + dp_added + o->optimizer;

	o->model_flops = plan_model_flops(m, c->batch);
	o->hw_flops = plan_hw_flops(m, c->batch, c->recompute);
	if (c->recompute == RC_SELECTIVE && c->rc_modules) /* the modules recomputed */
		o->hw_flops = o->model_flops + (double)c->batch * m->seq * rc_module_flops(m, c);
	if (c->recompute == RC_FULL && c->rc_layers > 0 && !c->rc_uniform) /* block: k of n */
		o->hw_flops = o->model_flops + fmin(1, c->rc_layers / plan_chunk_layers(m, c)) *
						       (o->hw_flops - o->model_flops);
	o->mfu = o->model_flops / (o->step * c->gpus * hw->peak);
	o->tokens_per_s = c->batch * m->seq / o->step;
	o->tflops_per_gpu = o->hw_flops / (o->step * c->gpus) / 1e12;
}

void plan_cost(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, const PlanLayer *l,
	       double dense, double expert, PlanCost *o)
{
	*o = (PlanCost){0};
	plan_memory(m, c, l, dense, expert, o);
	plan_time(m, hw, c, l, dense, expert, o);
}

void plan_evaluate(const PlanModel *m, const PlanHw *hw, const PlanConfig *c, PlanCost *out)
{
	PlanLayer l;
	double dense, expert;
	plan_layer(m, hw, c, &l);
	plan_stage_params(m, c, &dense, &expert);
	plan_cost(m, hw, c, &l, dense, expert, out);
}
