/*
 * parallelism.c — parallelism/, the plan of every workload (plan.c) as files that run it and
 * check it:
 *   WORKLOAD.json           the plan, its prediction (step time and its parts, memory and its
 *                           parts, MFU, time, energy and cost to train), the five alternatives
 *                           and why each lost, the hardware the model read, the placement
 *                           (schema "clusterc.parallelism/1");
 *   WORKLOAD.megatron.args  Megatron-LM's command-line flags, one a line (pretrain_gpt.py
 *                           $(cat FILE)): the plan, the overlap the prediction assumes, and
 *                           every architecture flag the model needs (normalization, position
 *                           embedding, SwiGLU, untied embeddings, biases, GQA, dropout, MoE),
 *                           each a flag of megatron/training/arguments.py (tests/megatron.sh);
 *                           (not under DualPipe, which Megatron-LM cannot run: launch_notes);
 *   WORKLOAD.{hostfile,rankfile,launch.sh,sbatch}  how to start it (launch.c; no sbatch under
 *                           DualPipe);
 *   WORKLOAD.calculon/      the plan as Calculon's inputs (Isaev et al., SC'23,
 *                           github.com/calculon-ai/calculon): app.json (the model: hidden,
 *                           feedforward, seq_size, attn_heads, attn_size, num_blocks), exe.json
 *                           (the execution: parallelism, batch, recompute, sharding, overlap)
 *                           and sys.json (matrix and vector engines per datatype with
 *                           gflops_efficiency curves, mem1/mem2, two networks), for
 *                           `calculon llm app.json exe.json sys.json out.json`.
 * Calculon models neither GQA, SwiGLU, MoE nor CP: app.json gives SwiGLU's three matrices as
 * an equivalent two-matrix FFN (1.5 × ffn), an MoE's active experts as one FFN (top_k + shared
 * experts × expert_ffn), and exe.json folds CP out (num_procs = TP × PP × DP); WORKLOAD.json
 * says so in "calculon_notes".
 */
#include "backends.h"


#include <math.h>
#include <string.h>

static const double GIB = 1073741824.0;
static const double DAY = 86400.0, MWH = 3.6e9;

static Json *num(double x, int decimals)
{
	return jw_real(x, decimals);
}

/* The recomputed modules of a selective plan (a PlanConfig.rc_modules mask), in the order
 * Megatron-Core lists them: the parallelism file and report.json both write it. */
Json *parallelism_modules_json(unsigned modules)
{
	Json *mods = jw_array();
	for (int j = 0; j < RCM_COUNT; j++)
		if (modules & (1u << j))
			jw_push(mods, jw_str(enum_RECOMPUTE_MODULE.words[j]));
	return mods;
}

void parallelism_recompute_json(Json *o, const PlanConfig *c)
{
	jw_set(o, "recompute", jw_str(enum_RECOMPUTE.words[c->recompute]));
	if (c->recompute == RC_FULL && c->rc_layers > 0) {
		jw_set(o, "recompute_layers", jw_int(c->rc_layers));
		jw_set(o, "recompute_method", jw_str(plan_rc_method(c)));
	}
	if (c->recompute == RC_SELECTIVE && c->rc_modules)
		jw_set(o, "recompute_modules", parallelism_modules_json(c->rc_modules));
}

static Json *config_json(const PlanConfig *c, const PlanCost *k)
{
	Json *o = jw_object();
	jw_set(o, "gpus", jw_int(c->gpus));
	jw_set(o, "tp", jw_int(c->tp));
	jw_set(o, "pp", jw_int(c->pp));
	jw_set(o, "dp", jw_int(c->dp));
	jw_set(o, "cp", jw_int(c->cp));
	jw_set(o, "ep", jw_int(c->ep));
	jw_set(o, "micro_batch", jw_int(c->micro));
	jw_set(o, "microbatches", jw_int(k->microbatches));
	jw_set(o, "interleave", jw_int(c->v));
	if (c->dualpipe)
		jw_set(o, "pipeline_schedule", jw_str(enum_PIPELINE_SCHEDULE.words[PPS_DUALPIPE]));
	jw_set(o, "first_stage_layers", jw_int(k->first_stage_layers));
	jw_set(o, "last_stage_layers", jw_int(k->last_stage_layers));
	jw_set(o, "layers_per_virtual_stage", jw_int(k->virtual_stage_layers));
	parallelism_recompute_json(o, c);
	if (c->offload > 0)
		jw_set(o, "offload_layers", jw_int(c->offload));
	jw_set(o, "sequence_parallel", jw_bool(c->sp));
	jw_set(o, "distributed_optimizer", jw_bool(c->dopt));
	jw_set(o, "fsdp", jw_bool(c->fsdp));
	jw_set(o, "shard_gradients", jw_bool(c->zero2));
	jw_set(o, "capacity_factor", c->capacity > 0 ? num(c->capacity, 4) : jw_null());
	if (c->fold)
		jw_set(o, "parallel_folding", jw_bool(true));
	if (c->hybrid_ep)
		jw_set(o, "ep_dispatcher", jw_str(enum_EP_DISPATCHER.words[EPD_HYBRIDEP]));
	jw_set(o, "flash_attention", jw_bool(c->flash));
	if (c->cp > 1)
		jw_set(o, "cp_comm", jw_str(enum_CP_COMM.words[k->cp_type]));
	if (c->grad16)
		jw_set(o, "grad_reduce_bf16", jw_bool(true));
	if (c->opt16)
		jw_set(o, "optimizer_bf16", jw_bool(true));
	if (plan_fp8_params(c))
		jw_set(o, "fp8_params", jw_bool(true));
	if (c->swiglu8)
		jw_set(o, "swiglu_fp8_input", jw_bool(true));
	jw_set(o, "overlap_dp", jw_bool(k->overlap_dp));
	jw_set(o, "overlap_tp", jw_bool(k->overlap_tp));
	jw_set(o, "overlap_pp", jw_bool(k->overlap_pp));
	jw_set(o, "overlap_ep", jw_bool(k->overlap_ep));
	return o;
}

static Json *prediction_json(const PlanCost *k)
{
	Json *o = jw_object();
	jw_set(o, "step_time_s", num(k->step, 6));
	jw_set(o, "tokens_per_s", num(k->tokens_per_s, 1));
	jw_set(o, "mfu", num(k->mfu, 4));
	jw_set(o, "tflops_per_gpu", num(k->tflops_per_gpu, 3));
	jw_set(o, "model_flops_per_step", num(k->model_flops, 0));
	jw_set(o, "hardware_flops_per_step", num(k->hw_flops, 0));
	jw_set(o, "bubble_fraction", num(k->bubble_fraction, 6));
	jw_set(o, "memory_gib_per_gpu", num(k->mem / GIB, 3));
	jw_set(o, "memory_gb_per_gpu", num(k->mem / 1e9, 3));
	Json *mem = jw_object();
	jw_set(mem, "weights", num(k->mem_weights / GIB, 3));
	jw_set(mem, "gradients", num(k->mem_grads / GIB, 3));
	jw_set(mem, "optimizer", num(k->mem_optim / GIB, 3));
	jw_set(mem, "activations", num(k->mem_act / GIB, 3));
	if (k->mem_host > 0)
		jw_set(mem, "activations_on_host", num(k->mem_host / GIB, 3));
	jw_set(o, "memory_gib", mem);
	Json *t = jw_object();
	jw_set(t, "compute", num(k->compute, 6));
	jw_set(t, "recompute", num(k->recompute, 6));
	jw_set(t, "tensor_parallel", num(k->tp_comm, 6));
	jw_set(t, "context_parallel", num(k->cp_comm, 6));
	jw_set(t, "expert_parallel", num(k->ep_comm, 6));
	jw_set(t, "pipeline_p2p", num(k->pp_comm, 6));
	if (k->mem_host > 0)
		jw_set(t, "offload_exposed", num(k->offload_comm, 6));
	if (k->amax_comm > 0)
		jw_set(t, "fp8_amax_reduction", num(k->amax_comm, 6));
	if (k->moe_sync > 0)
		jw_set(t, "moe_host_sync", num(k->moe_sync, 6));
	jw_set(t, "pipeline_bubble", num(k->bubble, 6));
	jw_set(t, "data_parallel_exposed", num(k->dp_comm, 6));
	jw_set(t, "optimizer", num(k->optimizer, 6));
	jw_set(o, "step_time_parts_s", t);
	return o;
}

static Json *model_json(const WorkloadPlan *wp)
{
	const PlanModel *m = &wp->model;
	Json *o = jw_object();
	jw_set(o, "parameters", num(m->params, 0));
	jw_set(o, "layers", jw_count(m->layers));
	jw_set(o, "hidden", jw_count(m->hidden));
	jw_set(o, "heads", jw_count(m->heads));
	jw_set(o, "head_dim", jw_count(m->head_dim));
	jw_set(o, "query_groups", jw_count(m->groups));
	jw_set(o, "ffn", jw_count(m->ffn));
	jw_set(o, "activation", jw_str(m->mats > 2 ? "swiglu" : "gelu"));
	jw_set(o, "seq", jw_count(m->seq));
	jw_set(o, "vocab", jw_count(m->vocab));
	jw_set(o, "experts", jw_count(m->experts));
	jw_set(o, "top_k", jw_count(m->top_k));
	jw_set(o, "expert_ffn", jw_count(m->expert_ffn));
	jw_set(o, "shared_experts", jw_count(m->shared));
	jw_set(o, "dense_layers", jw_count(m->experts > 1 ? m->dense_layers : m->layers));
	jw_set(o, "norm", jw_str(enum_NORM.words[m->norm]));
	jw_set(o, "position", jw_str(enum_POSITION.words[m->position]));
	jw_set(o, "rope_base", jw_count(m->rope_base));
	jw_set(o, "tied_embeddings", jw_bool(m->tied));
	jw_set(o, "bias", jw_bool(m->bias));
	jw_set(o, "dropout", num(m->dropout, 4));
	jw_set(o, "qk_norm", jw_bool(m->qk_norm));
	if (m->mtp > 0) {
		jw_set(o, "mtp_layers", jw_count(m->mtp));
		if (m->mtp_loss > 0)
			jw_set(o, "mtp_loss_weight", num(m->mtp_loss, 4));
	}
	if (m->kv_lora > 0) {
		Json *mla = jw_object();
		jw_set(mla, "kv_lora_rank", jw_count(m->kv_lora));
		jw_set(mla, "q_lora_rank", jw_count(m->q_lora));
		jw_set(mla, "rope_head_dim", jw_count(m->rope_dim));
		jw_set(mla, "v_head_dim", jw_count(m->v_dim));
		jw_set(o, "mla", mla);
	}
	return o;
}

static Json *hardware_json(const PlanHw *hw)
{
	Json *o = jw_object();
	jw_set(o, "accelerator", jw_str(hw->accel->name));
	jw_set(o, "node", jw_str(hw->node->name));
	jw_set(o, "accelerators", jw_int(hw->gpus));
	jw_set(o, "accelerators_per_node", jw_int(hw->per_node));
	jw_set(o, "scale_up_domain", jw_int(hw->domain));
	jw_set(o, "peak_tflops", num(hw->peak / 1e12, 3));
	jw_set(o, "matmul_efficiency", num(hw->eff_large, 4));
	jw_set(o, "hbm_gib", num(hw->hbm / GIB, 3));
	jw_set(o, "hbm_usable_gib", num(hw->hbm_usable / GIB, 3));
	jw_set(o, "hbm_gb", num(hw->hbm / 1e9, 3));
	jw_set(o, "hbm_usable_gb", num(hw->hbm_usable / 1e9, 3));
	jw_set(o, "hbm_tbps", num(hw->hbm_bw / 1e12, 3));
	jw_set(o, "scale_up_gbytes_per_s", num(hw->su_bw / 1e9, 3));
	jw_set(o, "fabric_gbytes_per_s", num(hw->net_bw / 1e9, 3));
	jw_set(o, "scale_up_efficiency", num(hw->su_eff, 4));
	jw_set(o, "fabric_efficiency", num(hw->net_eff, 4));
	jw_set(o, "scale_up_reduction", jw_bool(hw->nvls));
	jw_set(o, "in_network_reduction", jw_bool(hw->sharp));
	jw_set(o, "leaf_nodes", jw_int(hw->leaf_nodes));
	jw_set(o, "pod_nodes", jw_int(hw->pod_nodes));
	Json *ov = jw_array();
	jw_push(ov, num(hw->oversub[0], 4));
	jw_push(ov, num(hw->oversub[1], 4));
	jw_set(o, "oversubscription", ov);
	jw_set(o, "gpu_power_kw", num(hw->gpu_power / 1e3, 4));
	jw_set(o, "pue", num(hw->pue, 4));
	return o;
}

static const char *host(const Design *d, const WorkloadPlan *wp, int i)
{
	return d->nodes[wp->hosts[i]].hostname;
}

static int write_json(Output *o, const Design *d, const WorkloadPlan *wp, const char *path)
{
	const PlanResult *r = &wp->r;
	const PlanConfig *c = &r->best;
	Json *root = jw_object();
	jw_set(root, "schema", jw_str("clusterc.parallelism/1"));
	jw_set(root, "workload", jw_str(wp->name));
	jw_set(root, "cluster", jw_str(d->cluster_name));
	jw_set(root, "model", model_json(wp));
	Json *tr = jw_object();
	jw_set(tr, "tokens", num(wp->tokens, 0));
	jw_set(tr, "global_batch", jw_int(c->batch));
	jw_set(tr, "steps", num(wp->steps, 0));
	jw_set(tr, "precision", jw_str(wp->hw.elem_bytes < 2 ? "fp8" : "bf16"));
	jw_set(root, "training", tr);
	jw_set(root, "hardware", hardware_json(&wp->hw));
	jw_set(root, "plan", config_json(c, &r->cost));
	Json *pr = prediction_json(&r->cost);
	jw_set(pr, "time_to_train_days", num(wp->time_to_train / DAY, 4));
	jw_set(pr, "energy_to_train_mwh", num(wp->energy / MWH, 3));
	jw_set(pr, "energy_to_train_cost", num(wp->energy_cost, 2));
	jw_set(pr, "currency", jw_str(currency_name(d->currency)));
	jw_set(root, "prediction", pr);
	Json *alts = jw_array();
	for (int i = 0; i < r->nalt; i++) {
		Json *a = jw_object();
		jw_set(a, "plan", config_json(&r->alt[i], &r->alt_cost[i]));
		jw_set(a, "step_time_s", num(r->alt_cost[i].step, 6));
		jw_set(a, "mfu", num(r->alt_cost[i].mfu, 4));
		jw_set(a, "memory_gib_per_gpu", num(r->alt_cost[i].mem / GIB, 3));
		jw_set(a, "why_not", jw_str(wp->why[i]));
		jw_push(alts, a);
	}
	jw_set(root, "alternatives", alts);
	Json *s = jw_object();
	jw_set(s, "plans_evaluated", jw_count(r->evaluated));
	jw_set(s, "plans_fitting", jw_count(r->fit));
	jw_set(root, "search", s);
	Json *pl = jw_object();
	int replica = c->tp * c->cp * c->pp;
	jw_set(pl, "rank_order", jw_str("tp-cp-ep-dp-pp"));
	jw_set(pl, "nodes", jw_int(wp->nodes));
	jw_set(pl, "first_node", jw_str(host(d, wp, 0)));
	jw_set(pl, "last_node", jw_str(host(d, wp, wp->nodes - 1)));
	jw_set(pl, "gpus_per_model_replica", jw_int(replica));
	jw_set(pl, "nodes_per_model_replica", num((double)replica / wp->hw.per_node, 3));
	jw_set(pl, "nodes_per_pipeline_stage", num((double)c->tp * c->cp * c->dp / wp->hw.per_node, 3));
	jw_set(pl, "ranks_per_node", jw_int(wp->ranks_per_node));
	Json *bind = jw_array();
	for (int k = 0; k < wp->ranks_per_node; k++) {
		Json *b = jw_object();
		jw_set(b, "local_rank", jw_int(k));
		jw_set(b, "gpu", jw_int(wp->bind[k].gpu));
		jw_set(b, "socket", jw_int(wp->bind[k].socket));
		jw_set(b, "first_core", jw_int(wp->bind[k].core_lo));
		jw_set(b, "last_core", jw_int(wp->bind[k].core_hi));
		jw_push(bind, b);
	}
	jw_set(pl, "binding", bind);
	jw_set(pl, "slurm_segment_nodes",
	       replica % wp->hw.per_node == 0 ? jw_int(replica / wp->hw.per_node) : jw_null());
	jw_set(root, "placement", pl);
	Json *notes = jw_array();
	if (wp->model.mats > 2)
		jw_push(notes, jw_str("SwiGLU given to Calculon as a two-matrix FFN of 1.5 x ffn "
				      "(same FLOPs and weights)"));
	if (wp->model.experts > 1)
		jw_push(notes, jw_str("MoE given to Calculon as one dense FFN of the active experts "
				      "(top_k + shared) x expert_ffn; its all-to-all is not modelled there"));
	if (wp->model.kv_lora > 0)
		jw_push(notes, jw_str("multi-head latent attention given to Calculon as multi-head "
				      "attention of head_dim"));
	if (wp->model.groups != wp->model.heads && wp->model.groups != 1)
		jw_push(notes, jw_str("grouped-query attention given to Calculon as multi-head attention"));
	if (wp->model.mtp > 0)
		jw_push(notes, jw_str("Calculon has no multi-token prediction: the model's mtp_layers "
				      "modules are not in its application"));
	if (c->cp > 1)
		jw_push(notes, jw_str("Calculon has no context parallelism: exe.json runs TP x PP x DP "
				      "processes, CP folded out"));
	if (c->offload > 0)
		jw_push(notes, jw_str("Calculon offloads every layer's activations or none: the plan's "
				      "offload of some layers is not in exe.json"));
	if (c->dualpipe)
		jw_push(notes, jw_str("Calculon has no DualPipe: exe.json gives the plan's pipeline "
				      "as 1F1B, one stage a rank"));
	if (c->recompute == RC_SELECTIVE && c->rc_modules)
		jw_push(notes, jw_str("Calculon's selective recomputation is the attention core's: "
				      "exe.json gives it attn_only, not the plan's recompute_modules"));
	jw_set(root, "calculon_notes", notes);
	/* DualPipe: Megatron-LM has no such schedule (its pipelines are 1F1B, interleaved or not:
	 * megatron/core/pipeline_parallel/schedules.py), so no arguments claim one it would not
	 * run; the hostfile, rankfile and wrapper start any trainer. */
	if (c->dualpipe) {
		Json *ln = jw_array();
		jw_push(ln, jw_str("pipeline_schedule = dualpipe: Megatron-LM has no DualPipe schedule, "
				   "so neither WORKLOAD.megatron.args nor WORKLOAD.sbatch is written; "
				   "the hostfile, rankfile and launch.sh start a DualPipe trainer "
				   "(deepseek-ai/DualPipe) with this plan"));
		jw_set(root, "launch_notes", ln);
	}
	FILE *f = output_file(o, path);
	if (!f) {
		jw_free(root);
		return 1;
	}
	jw_write(f, root);
	return output_close(o, f);
}

static int write_args(Output *o, const WorkloadPlan *wp, const char *path)
{
	const PlanConfig *c = &wp->r.best;
	const PlanModel *m = &wp->model;
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	/* The plan. */
	fprintf(f, "--tensor-model-parallel-size %d\n--pipeline-model-parallel-size %d\n"
		   "--context-parallel-size %d\n--expert-model-parallel-size %d\n",
		c->tp, c->pp, c->cp, c->ep);
	const PlanCost *k = &wp->r.cost;
	if (c->v > 1 && c->first == 0)
		fprintf(f, "--num-layers-per-virtual-pipeline-stage %d\n", (int)(m->layers / (c->pp * c->v)));
	if (c->first > 0 && c->v == 1)
		fprintf(f, "--decoder-first-pipeline-num-layers %d\n--decoder-last-pipeline-num-layers %d\n",
			c->first, c->last);
	if (c->first > 0 && c->v > 1) {
		/* pp x v virtual stages in order: E (embedding) and the first chunk, the middle
		 * chunks, the last chunk and L (loss); `|` between stages, t a decoder layer. An end
		 * chunk without layers is the embedding or the loss alone (Llama 3's layout). */
		fprintf(f, "--pipeline-model-parallel-layout E");
		if (k->first_chunk_layers > 0)
			fprintf(f, "t*%d", k->first_chunk_layers);
		fprintf(f, "|(t*%d|)*%d", k->virtual_stage_layers, c->pp * c->v - 2);
		if (k->last_chunk_layers > 0)
			fprintf(f, "t*%d", k->last_chunk_layers);
		fprintf(f, "L\n");
	}
	if (c->sp)
		fprintf(f, "--sequence-parallel\n");
	fprintf(f, "--micro-batch-size %d\n--global-batch-size %d\n", c->micro, c->batch);
	if (c->recompute == RC_SELECTIVE) {
		fprintf(f, "--recompute-granularity selective\n");
		/* The workload's recompute_modules: --recompute-modules, nargs='*' (Megatron-LM's
		 * TransformerConfig.recompute_modules, default ["core_attn"]), in the family's
		 * order. */
		if (c->rc_modules) {
			Buf mods = {0};
			plan_modules_text(&mods, c->rc_modules, "--recompute-modules ", " ");
			fprintf(f, "%s\n", mods.s);
			buf_free(&mods);
		}
	}
	else if (c->recompute == RC_FULL && c->rc_layers > 0)
		fprintf(f, "--recompute-granularity full\n--recompute-method %s\n"
			   "--recompute-num-layers %d\n", plan_rc_method(c), c->rc_layers);
	else if (c->recompute == RC_FULL)
		fprintf(f, "--recompute-granularity full\n--recompute-method uniform\n"
			   "--recompute-num-layers 1\n");
	/* Activation offload: Megatron-LM's arguments.py (commit 000c4ac) declares
	 * --cpu-offloading-num-layers alone (the number of layers offloaded; 0 is off). */
	if (c->offload > 0)
		fprintf(f, "--cpu-offloading-num-layers %d\n", c->offload);
	if (c->dopt)
		fprintf(f, "--use-distributed-optimizer\n");
	if (c->grad16)
		fprintf(f, "--grad-reduce-in-bf16\n");
	if (c->opt16)
		fprintf(f, "--use-precision-aware-optimizer\n--exp-avg-dtype bf16\n"
			   "--exp-avg-sq-dtype bf16\n");
	if (plan_fp8_params(c))
		fprintf(f, "--fp8-param-gather\n");
	/* swiglu_fp8_input: Megatron-Core's TransformerConfig.activation_func_fp8_input_store
	 * ("Store the input of MLP activation function in FP8 for backprop to save memory"),
	 * which core_transformer_config_from_args copies from the flag of the same name. */
	if (c->swiglu8)
		fprintf(f, "--activation-func-fp8-input-store\n");
	if (c->cp > 1)
		fprintf(f, "--cp-comm-type %s\n",
			(const char *[]){"p2p", "allgather", "a2a"}[k->cp_type]);
	if (c->fsdp)
		fprintf(f, "--use-torch-fsdp2\n");
	/* ZeRO-2: Megatron-FSDP's optim_grads (NVIDIA/Megatron-LM, docs/discussions/
	 * megatron-fsdp-user-guide: --use-megatron-fsdp with --use-distributed-optimizer, written
	 * above, and its checkpoint format; arguments.py's validate_args asserts fsdp_dtensor). */
	if (c->zero2)
		fprintf(f, "--use-megatron-fsdp\n--data-parallel-sharding-strategy optim_grads\n"
			   "--ckpt-format fsdp_dtensor\n");
	if (k->overlap_dp && c->dopt)
		fprintf(f, "--overlap-param-gather\n");
	if (k->overlap_dp)
		fprintf(f, "--overlap-grad-reduce\n");
	if (k->overlap_tp)
		fprintf(f, "--tp-comm-overlap\n");
	if (k->overlap_pp)
		fprintf(f, "--overlap-p2p-communication\n");
	if (k->overlap_ep)
		fprintf(f, "--overlap-moe-expert-parallel-comm\n");
	/* The architecture: every flag whose default would build another model (Megatron-LM's
	 * defaults are GPT-2's: LayerNorm, learned absolute positions, GeLU, tied embeddings,
	 * biases, multi-head attention, dropout 0.1). */
	fprintf(f, "--num-layers %.0f\n--hidden-size %.0f\n--num-attention-heads %.0f\n"
		   "--ffn-hidden-size %.0f\n--seq-length %.0f\n--max-position-embeddings %.0f\n",
		m->layers, m->hidden, m->heads, m->ffn, m->seq, m->seq);
	if (m->head_dim != m->hidden / m->heads)
		fprintf(f, "--kv-channels %.0f\n", m->head_dim);
	if (m->groups != m->heads)
		fprintf(f, "--group-query-attention\n--num-query-groups %.0f\n", m->groups);
	if (m->kv_lora > 0) {
		fprintf(f, "--multi-latent-attention\n--kv-lora-rank %.0f\n--qk-head-dim %.0f\n"
			   "--qk-pos-emb-head-dim %.0f\n--v-head-dim %.0f\n",
			m->kv_lora, m->head_dim, m->rope_dim, m->v_dim);
		if (m->q_lora > 0)
			fprintf(f, "--q-lora-rank %.0f\n", m->q_lora);
	}
	fprintf(f, "--normalization %s\n", m->norm == NORM_RMSNORM ? "RMSNorm" : "LayerNorm");
	if (m->position == POS_ROPE)
		fprintf(f, "--position-embedding-type rope\n--rotary-base %.0f\n", m->rope_base);
	else
		fprintf(f, "--position-embedding-type learned_absolute\n");
	if (m->mats > 2)
		fprintf(f, "--swiglu\n");
	if (!m->tied)
		fprintf(f, "--untie-embeddings-and-output-weights\n");
	if (!m->bias)
		fprintf(f, "--disable-bias-linear\n");
	/* qk_layernorm (NVIDIA/Megatron-LM megatron/core/models/gpt/gpt_layer_specs.py,
	 * get_gpt_layer_with_transformer_engine_submodules, read at 00611e6, 2026-12): standard
	 * attention normalizes its query and key heads (q_layernorm, k_layernorm: TENorm); MLA
	 * builds its up-projections as LayerNorm linears, the norms of its compressed latents,
	 * which DeepSeek-V2/V3 have ("additional RMSNorm layers after the compressed latent
	 * vectors", DeepSeek-V3 report §4.2) and plan_params counts: without the flag an MLA
	 * model is built without them. */
	if (m->qk_norm || m->kv_lora > 0)
		fprintf(f, "--qk-layernorm\n");
	fprintf(f, "--attention-dropout %g\n--hidden-dropout %g\n", m->dropout, m->dropout);
	/* Multi-token prediction (Megatron-LM --mtp-num-layers; the modules on the last stage,
	 * Megatron-Core's placement without a custom layout), its loss weight where the model
	 * declares one (--mtp-loss-scaling-factor, default 0.1). */
	if (m->mtp > 0) {
		fprintf(f, "--mtp-num-layers %.0f\n", m->mtp);
		if (m->mtp_loss > 0)
			fprintf(f, "--mtp-loss-scaling-factor %g\n", m->mtp_loss);
	}
	if (m->experts > 1) {
		fprintf(f, "--num-experts %.0f\n--moe-router-topk %.0f\n--moe-ffn-hidden-size %.0f\n",
			m->experts, m->top_k, m->expert_ffn);
		if (m->shared > 0)
			fprintf(f, "--moe-shared-expert-intermediate-size %.0f\n", m->shared * m->expert_ffn);
		if (m->dense_layers > 0)
			fprintf(f, "--moe-layer-freq ([0]*%.0f+[1]*%.0f)\n", m->dense_layers,
				m->layers - m->dense_layers);
		/* HybridEP is the flex dispatcher's backend (Megatron-Core TransformerConfig,
		 * moe_token_dispatcher_type "flex", moe_flex_dispatcher_backend "hybridep"). */
		fprintf(f, "--moe-grouped-gemm\n%s",
			c->hybrid_ep ? "--moe-token-dispatcher-type flex\n"
				       "--moe-flex-dispatcher-backend hybridep\n"
				     : "--moe-token-dispatcher-type alltoall\n");
		if (c->capacity > 0)
			fprintf(f, "--moe-expert-capacity-factor %g\n--moe-pad-expert-input-to-capacity\n",
				c->capacity);
		/* Parallel folding: the experts whole, EP across the TP ranks. */
		if (c->fold)
			fprintf(f, "--expert-tensor-parallel-size 1\n");
	}
	fprintf(f, "--attention-backend %s\n", c->flash ? "flash" : "unfused");
	fprintf(f, "--bf16\n");
	if (wp->hw.elem_bytes < 2)
		fprintf(f, "--fp8-format hybrid\n%s", wp->hw.fp8_current ? "--fp8-recipe tensorwise\n" : "");
	fprintf(f, "--train-iters %.0f\n", wp->steps);
	return output_close(o, f);
}

/* Calculon's efficiency curve of a matrix engine: [GFLOP of one operation, efficiency], the
 * largest first (the planner's, plan.c). */
static Json *matrix_curve(const WorkloadPlan *wp)
{
	Json *a = jw_array();
	for (int i = 0; i < 6; i++) {
		Json *p = jw_array();
		jw_push(p, num(wp->matmul_curve[i][0], 3));
		jw_push(p, num(wp->matmul_curve[i][1], 4));
		jw_push(a, p);
	}
	return a;
}

/* A list of [threshold, efficiency] pairs. */
static Json *pairs(const double *v, int n)
{
	Json *a = jw_array();
	for (int i = 0; i < n; i += 2) {
		Json *p = jw_array();
		jw_push(p, num(v[i], 3));
		jw_push(p, num(v[i + 1], 3));
		jw_push(a, p);
	}
	return a;
}

/* Calculon's A100 vector-engine and memory curves (systems/a100_80g.json). */
static const double VECTOR_CURVE[] = {16, 0.95, 1, 0.5, 0, 0.1};
static const double HBM_CURVE[] = {100, 0.9, 10, 0.75, 1, 0.6, 0, 0.3};
static const double HOST_CURVE[] = {100, 0.95, 10, 0.9, 1, 0.7, 0, 0.3};

/* One engine: TF32 at half the BF16 peak and FP16 at the BF16 peak (NVIDIA's datasheets give
 * both ratios for A100 and H100), FP8 at its own. The vector engine at a quarter of the
 * matrix peak (the A100's 78 of 312 TFLOPS; its kernels are memory-bound anyway). */
static Json *engine_json(const WorkloadPlan *wp, bool matrix)
{
	const PlanHw *hw = &wp->hw;
	Json *o = jw_object();
	static const char *const types[] = {"float32", "float16", "bfloat16", "float8"};
	bool fp8 = hw->elem_bytes < 2;
	for (int i = 0; i < (fp8 ? 4 : 3); i++) {
		double tf = (i == 0 ? hw->peak16 / 2 : i == 3 ? hw->peak : hw->peak16) / 1e12;
		Json *t = jw_object();
		jw_set(t, "tflops", num(matrix ? tf : tf / 4, 3));
		jw_set(t, "gflops_efficiency", matrix ? matrix_curve(wp) : pairs(VECTOR_CURVE, 6));
		jw_set(o, types[i], t);
	}
	return o;
}

static Json *memory_json(double gib, double gbps, const double *curve, int n)
{
	Json *o = jw_object();
	jw_set(o, "GiB", num(gib, 3));
	jw_set(o, "GBps", num(gbps, 3));
	jw_set(o, "MB_efficiency", pairs(curve, n));
	return o;
}

/* A Calculon network: bandwidth in GB/s per direction, ops as [scalar, offset] (ring
 * all-reduce 2(n−1)/n: scalar 2, offset −1). Efficiencies and latencies as plan_model.c. */
static Json *network_json(double gbps, double eff, int size, double latency, double usage)
{
	Json *o = jw_object();
	jw_set(o, "bandwidth", num(gbps, 3));
	jw_set(o, "efficiency", num(eff, 3));
	jw_set(o, "size", jw_int(size));
	jw_set(o, "latency", num(latency, 9));
	Json *ops = jw_object();
	static const char *const names[] = {"p2p", "reduce_scatter", "all_gather", "all_reduce"};
	for (int i = 0; i < 4; i++) {
		Json *op = jw_array();
		jw_push(op, num(i == 3 ? 2 : 1, 1));
		jw_push(op, i == 0 ? jw_null() : jw_int(-1));
		jw_set(ops, names[i], op);
	}
	jw_set(o, "ops", ops);
	jw_set(o, "must_be_filled", jw_bool(false));
	jw_set(o, "processor_usage", num(usage, 3));
	return o;
}

static int put_json(Output *o, const char *path, Json *root)
{
	FILE *f = output_file(o, path);
	if (!f) {
		jw_free(root);
		return 1;
	}
	jw_write(f, root);
	return output_close(o, f);
}

static int write_calculon(Output *o, const Design *d, const WorkloadPlan *wp, const char *dir)
{
	(void)d;
	const PlanModel *m = &wp->model;
	const PlanHw *hw = &wp->hw;
	const PlanConfig *c = &wp->r.best;
	double ffn = m->experts > 1 ? (m->top_k + m->shared) * m->expert_ffn : m->ffn;
	Json *app = jw_object();
	jw_set(app, "hidden", jw_count(m->hidden));
	jw_set(app, "feedforward", jw_count(m->mats > 2 ? 1.5 * ffn : ffn));
	jw_set(app, "seq_size", jw_count(m->seq));
	jw_set(app, "attn_heads", jw_count(m->heads));
	jw_set(app, "attn_size", jw_count(m->head_dim));
	jw_set(app, "num_blocks", jw_count(m->layers));
	Buf path = {0};
	buf_printf(&path, "%s/app.json", dir);
	int errors = put_json(o, path.s, app);

	int procs = c->tp * c->pp * c->dp;
	Json *exe = jw_object();
	jw_set(exe, "num_procs", jw_int(procs));
	jw_set(exe, "tensor_par", jw_int(c->tp));
	jw_set(exe, "pipeline_par", jw_int(c->pp));
	jw_set(exe, "data_par", jw_int(c->dp));
	jw_set(exe, "tensor_par_net", jw_int(c->tp <= hw->domain ? 0 : 1));
	jw_set(exe, "pipeline_par_net", jw_int(c->tp * c->pp <= hw->domain ? 0 : 1));
	jw_set(exe, "data_par_net", jw_int(procs <= hw->domain ? 0 : 1));
	jw_set(exe, "batch_size", jw_int(c->batch));
	jw_set(exe, "microbatch_size", jw_int(c->micro));
	jw_set(exe, "datatype", jw_str(hw->elem_bytes < 2 ? "float8" : "bfloat16"));
	jw_set(exe, "fused_activation", jw_bool(true));
	jw_set(exe, "attention_type", jw_str(m->groups == 1 ? "multiquery" : "multihead"));
	static const char *const rc[] = {"none", "attn_only", "full"};
	jw_set(exe, "activation_recompute", jw_str(rc[c->recompute]));
	jw_set(exe, "pipeline_interleaving", jw_int(c->v));
	jw_set(exe, "optimizer_sharding", jw_bool(c->dopt && c->dp > 1));
	jw_set(exe, "tensor_par_comm_type", jw_str(c->sp ? "rs_ag" : "ar"));
	jw_set(exe, "tensor_par_overlap", jw_str("none"));
	jw_set(exe, "seq_par_ag_redo", jw_bool(false));
	jw_set(exe, "data_par_overlap", jw_bool(c->dp > 1));
	jw_set(exe, "weight_offload", jw_bool(false));
	/* Calculon offloads every layer's activations or none, to a second memory (mem2) its
	 * system would need: a plan's offload of k layers is not given to it (calculon_notes). */
	jw_set(exe, "activations_offload", jw_bool(false));
	jw_set(exe, "optimizer_offload", jw_bool(false));
	jw_set(exe, "training", jw_bool(true));
	path.len = 0;
	buf_printf(&path, "%s/exe.json", dir);
	errors += put_json(o, path.s, exe);

	Json *sys = jw_object();
	jw_set(sys, "matrix", engine_json(wp, true));
	jw_set(sys, "vector", engine_json(wp, false));
	jw_set(sys, "mem1", memory_json(hw->hbm / GIB, hw->hbm_bw / 1e9, HBM_CURVE, 8));
	jw_set(sys, "mem2", memory_json(512, 32, HOST_CURVE, 8));
	jw_set(sys, "processing_mode", jw_str("no_overlap"));
	Json *nets = jw_array();
	jw_push(nets, network_json(hw->su_bw / 1e9, 0.6, hw->domain, 1e-6, 0.15));
	jw_push(nets, network_json(hw->net_bw / 1e9, 0.9, hw->gpus, 2e-6, 0.02));
	jw_set(sys, "networks", nets);
	path.len = 0;
	buf_printf(&path, "%s/sys.json", dir);
	errors += put_json(o, path.s, sys);
	buf_free(&path);
	return errors;
}

int parallelism_write(Output *o, const Design *d)
{
	int errors = 0;
	Buf p = {0};
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const char *w = wp->name;
		p.len = 0;
		buf_printf(&p, "parallelism/%s.json", w);
		errors += write_json(o, d, wp, p.s);
		/* No Megatron-LM arguments for a schedule Megatron-LM cannot run (launch_notes). */
		if (!wp->r.best.dualpipe) {
			p.len = 0;
			buf_printf(&p, "parallelism/%s.megatron.args", w);
			errors += write_args(o, wp, p.s);
		}
		errors += launch_write(o, d, wp);
		p.len = 0;
		buf_printf(&p, "parallelism/%s.calculon", w);
		errors += write_calculon(o, d, wp, p.s);
	}
	buf_free(&p);
	return errors;
}
