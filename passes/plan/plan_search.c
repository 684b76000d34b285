/*
 * plan_search.c — the exhaustive search over Megatron-LM plans for one workload on one cluster.
 *
 * Every combination of TP, CP, EP, PP, DP (and so the GPU count), micro-batch, interleaving,
 * recomputation (none, selective, full), sequence parallelism and distributed optimizer that
 * the workload allows and Megatron-LM accepts is costed with plan_model.c; the fastest plan
 * that fits in HBM wins (ties: fewer GPUs, then the first met), and the best plan of each of
 * the next five distinct shapes (GPUs, TP, PP, CP, EP) is kept as an alternative.
 *
 * Megatron-LM's constraints (megatron/training/arguments.py and megatron/core/parallel_state.py):
 * heads and query groups divisible by TP (and the FFN sizes, which its linear layers split);
 * layers divisible by PP, or uneven first and last stages of up to two layers fewer
 * (--decoder-first/last-pipeline-num-layers; plan_stage_splits), without interleaving; sequence divisible by
 * 2·CP when CP > 1 (load-balanced causal split); experts divisible by EP and EP dividing
 * DP·CP (expert parallelism is carved out of the data-parallel ranks); global batch divisible
 * by micro-batch × DP; interleaving v dividing the layers of a stage, with PP > 1 and the
 * micro-batches a multiple of PP (the interleaved schedule's requirement); sequence parallelism
 * whenever TP and EP are both above 1 (Megatron-Core's MoE layers need it). Under DualPipe
 * (pipeline_schedule = dualpipe; deepseek-ai/DualPipe dualpipe/dualpipe.py at bb214e8,
 * DualPipe.step): an even PP, no interleaving, an even number of micro-batches, at least two a
 * rank, and the memory of a rank's pair of stages (plan_dualpipe_memory). TP stays inside the
 * scale-up domain (Narayanan et al., SC'21, §3.3: tensor parallelism up to the GPUs of a
 * server): it divides the domain size. Bounds that are not constraints, stated so the search
 * stays exhaustive over what is plausible: CP, when searched, keeps at least min_cp_tokens
 * tokens per rank.
 *
 * Speed: the per-layer costs depend only on (TP, CP, EP, micro-batch, recomputation, SP) and
 * are computed once each; the stage parameters once per (TP, PP, EP); each plan is then a
 * few dozen operations for its memory, and its time is computed only when it fits.
 */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const plan_knob_names[KNOB_COUNT] = {"gpus", "tp", "pp", "cp", "ep", "micro_batch",
						 "interleave"};

bool plan_set_allows(const PlanSet *s, double x)
{
	if (s->any)
		return true;
	if (s->range)
		return x >= s->lo - 1e-9 && x <= s->hi + 1e-9 &&
		       fabs(fmod(x - s->lo, s->step)) < 1e-9;
	for (int i = 0; i < s->n; i++)
		if (fabs(s->vals[i] - x) < 1e-9)
			return true;
	return false;
}

int plan_divisors(int n, int **out)
{
	int cap = 64, k = 0;
	int *v = xmalloc(sizeof(int) * (size_t)cap);
	int *hi = xmalloc(sizeof(int) * (size_t)cap);
	int nhi = 0;
	for (int i = 1; n > 0 && (long)i * i <= n; i++) {
		if (n % i)
			continue;
		if (k == cap || nhi == cap) {
			cap *= 2;
			v = xrealloc(v, sizeof(int) * (size_t)cap);
			hi = xrealloc(hi, sizeof(int) * (size_t)cap);
		}
		v[k++] = i;
		if (i != n / i)
			hi[nhi++] = n / i;
	}
	v = xrealloc(v, sizeof(int) * (size_t)(k + nhi + 1));
	while (nhi > 0)
		v[k++] = hi[--nhi];
	free(hi);
	*out = v;
	return k;
}

static bool divides(double a, double b)
{
	return a >= 1 && fmod(b, a) == 0;
}

/* TP values Megatron accepts on this model and hardware (without the workload's own limit). */
bool plan_tp_model_ok(const PlanModel *m, int tp)
{
	return divides(tp, m->heads) && divides(tp, m->groups) && divides(tp, m->ffn) &&
	       (m->experts <= 1 || divides(tp, m->expert_ffn));
}

bool plan_tp_ok(const PlanModel *m, const PlanHw *hw, int tp)
{
	return plan_tp_model_ok(m, tp) && divides(tp, hw->domain) && tp <= hw->gpus;
}

bool plan_cp_ok(const PlanModel *m, int cp)
{
	return cp == 1 || (cp > 1 && divides(2.0 * cp, m->seq));
}

typedef struct Top {
	PlanConfig c;
	PlanCost k;
} Top;

static bool same_shape(const PlanConfig *a, const PlanConfig *b)
{
	return a->gpus == b->gpus && a->tp == b->tp && a->pp == b->pp && a->cp == b->cp &&
	       a->ep == b->ep;
}

/* a before b: faster, or as fast on fewer GPUs. */
static bool faster(const Top *a, const Top *b)
{
	double eps = 1e-9 * fmax(a->k.step, b->k.step);
	if (a->k.step < b->k.step - eps)
		return true;
	return a->k.step <= b->k.step + eps && a->c.gpus < b->c.gpus;
}

/* Keeps the best plan of each of the PLAN_ALTERNATIVES + 1 best shapes, sorted. */
static void keep(Top *tops, int *n, const Top *x)
{
	int i = 0;
	while (i < *n && !same_shape(&tops[i].c, &x->c))
		i++;
	if (i < *n) {
		if (!faster(x, &tops[i]))
			return;
	} else if (*n <= PLAN_ALTERNATIVES) {
		i = (*n)++;
	} else {
		i = PLAN_ALTERNATIVES;
		if (!faster(x, &tops[i]))
			return;
	}
	tops[i] = *x;
	while (i > 0 && faster(&tops[i], &tops[i - 1])) {
		Top t = tops[i - 1];
		tops[i - 1] = tops[i];
		tops[i] = t;
		i--;
	}
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The candidate values of the whole-number knobs, filtered by what each allows alone. */
typedef struct Cands {
	int *tp, *cp, *ep, *pp, *dp, *micro, *v;
	int ntp, ncp, nep, npp, ndp, nmicro, nv;
} Cands;

static int filter(int *v, int n, const PlanSet *s)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (plan_set_allows(s, v[i]))
			v[k++] = v[i];
	return k;
}

static void candidates(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, Cands *c)
{
	int *all;
	int n = plan_divisors((int)m->heads, &all);
	c->tp = all;
	c->ntp = 0;
	for (int i = 0; i < n; i++)
		if (plan_tp_ok(m, hw, all[i]) && plan_set_allows(&sp->knob[KNOB_TP], all[i]))
			c->tp[c->ntp++] = all[i];
	n = plan_divisors((int)m->seq, &all);
	c->cp = all;
	c->ncp = 0;
	for (int i = 0; i < n; i++) {
		int cp = all[i];
		bool searched = sp->knob[KNOB_CP].any;
		if (plan_cp_ok(m, cp) && plan_set_allows(&sp->knob[KNOB_CP], cp) &&
		    (!searched || cp == 1 || m->seq / cp >= sp->min_cp_tokens) && cp <= hw->gpus)
			c->cp[c->ncp++] = cp;
	}
	/* plan_divisors() sets the array filter() reads: two statements, as the order in which one
	 * call's arguments are evaluated is unspecified (a clang build read it unset). */
	c->nep = plan_divisors((int)fmax(1, m->experts), &c->ep);
	c->nep = filter(c->ep, c->nep, &sp->knob[KNOB_EP]);
	/* PP: every size some split of the layers allows (plan_stage_splits: p dividing L or L
	 * plus 1 to 4). */
	c->pp = xmalloc(sizeof(int) * (size_t)(m->layers + 1));
	c->npp = 0;
	for (int p = 1; p <= (int)m->layers; p++) {
		int split[PLAN_SPLITS][2];
		/* DualPipe: an even pipeline (its ranks pair up, stage i with p − 1 − i;
		 * deepseek-ai/DualPipe dualpipe/dualpipe.py at bb214e8, DualPipe.step: "assert
		 * num_ranks % 2 == 0"). */
		if (sp->dualpipe && p % 2)
			continue;
		if (plan_splits(m, p, sp->first_layers, sp->last_layers, split, PLAN_SPLITS) > 0)
			c->pp[c->npp++] = p;
	}
	c->npp = filter(c->pp, c->npp, &sp->knob[KNOB_PP]);
	c->ndp = plan_divisors(sp->batch, &c->dp);
	c->nmicro = plan_divisors(sp->batch, &c->micro);
	c->nmicro = filter(c->micro, c->nmicro, &sp->knob[KNOB_MICRO]);
	/* Interleaving divides a stage's layers: the model's with even stages, the middle
	 * stages' ⌈L/p⌉ with uneven ones (Llama 3.1 405B's 126 layers run PP 8 with 8 chunks
	 * of 2), so every count up to L is a candidate; the loop stops past the stage's. */
	c->v = xmalloc(sizeof(int) * (size_t)(m->layers > 1 ? m->layers : 1));
	c->nv = 0;
	for (int v = 1; v <= (int)m->layers; v++)
		c->v[c->nv++] = v;
	c->nv = filter(c->v, c->nv, &sp->knob[KNOB_V]);
}

static void cands_free(Cands *c)
{
	free(c->tp);
	free(c->cp);
	free(c->ep);
	free(c->pp);
	free(c->dp);
	free(c->micro);
	free(c->v);
}

/* A fully recomputed plan that fits, tried with only the first k of each virtual stage's n
 * layers recomputed (Megatron-LM --recompute-method block; plan_layer_blend), k the fewest
 * that fit: memory is linear in k, from the plan without recomputation (k = 0, with the
 * recomputed layer's working set) to this one (k = n). Nothing when no recomputation fits
 * (that plan is searched itself) or only k = n does. */
static void block_recompute(const PlanModel *m, const PlanHw *hw, const PlanConfig *full,
			    double dense, double expert, double usable, const PlanLayer *lf,
			    double mem_full, double mem_none, const PlanLayer *none, Top *tops,
			    int *ntops, PlanResult *out)
{
	double n = round(plan_chunk_layers(m, full));
	/* k = 0: the plan without recomputation and the recomputed layer's working set. */
	double a = mem_none + lf->work, b = mem_full;
	if (n < 2 || a <= usable || a <= b)
		return;
	PlanLayer bl;
	for (int k = (int)fmax(1, ceil((a - usable) / (a - b) * n - 1e-9)); k < n; k++) {
		Top t = {.c = *full};
		t.c.rc_layers = k;
		plan_layer_blend(none, lf, k / n, &bl);
		out->valid++;
		if (plan_memory(m, &t.c, &bl, dense, expert, &t.k) > usable)
			continue;
		plan_time(m, hw, &t.c, &bl, dense, expert, &t.k);
		out->fit++;
		keep(tops, ntops, &t);
		return;
	}
}

/* A plan without recomputation or pipeline that does not fit, tried with the fewest layers'
 * activations offloaded to host memory that make it fit (plan_offload_ok): HBM falls by one
 * layer's activations a layer offloaded past the first (plan_act_memory) and the exposed copies
 * only grow with the layers offloaded (plan_offload_exposed), so the fewest is the fastest.
 * Nothing when that many would not leave a layer on the GPU or do not fit in the host's
 * memory. */
static void offload_fit(const PlanModel *m, const PlanHw *hw, const PlanConfig *none,
			double dense, double expert, double usable, const PlanLayer *l, double mem,
			Top *tops, int *ntops, PlanResult *out)
{
	if (!(l->act > 0))
		return;
	double k = 1 + ceil((mem - usable) / l->act - 1e-9);
	if (k < 2)
		k = 2;
	if (k >= m->layers || plan_offload_over_host(hw, l, k))
		return;
	Top t = {.c = *none};
	t.c.offload = (int)k;
	if (!plan_offload_ok(m, hw, &t.c, t.c.offload))
		return;
	out->valid++;
	if (plan_memory(m, &t.c, l, dense, expert, &t.k) > usable)
		return;
	plan_time(m, hw, &t.c, l, dense, expert, &t.k);
	out->fit++;
	keep(tops, ntops, &t);
}

/* The search's cache of layer costs (plan_search's layers): the slot of micro-batch index i_b,
 * recomputation rc and sequence parallelism s. */
static size_t layer_index(int i_b, int rc, int s)
{
	return ((size_t)i_b * RC_COUNT + (size_t)rc) * 2 + (size_t)s;
}

void plan_search(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, PlanResult *out)
{
	double t0 = now_ms();
	*out = (PlanResult){0};
	Cands cd = {0};
	candidates(m, hw, sp, &cd);
	int nrc = 0, rcs[RC_COUNT];
	for (int r = 0; r < RC_COUNT; r++)
		if (sp->recompute & (1u << r))
			rcs[nrc++] = r;
	/* Layer costs by (micro-batch index, recompute index, sp); refilled per (tp, cp, ep). */
	size_t nl = (size_t)cd.nmicro * RC_COUNT * 2;
	PlanLayer *layers = xmalloc(sizeof(PlanLayer) * (nl ? nl : 1));
	bool *have = xmalloc(nl ? nl : 1);
	/* With a fixed recompute_layers, by interleaving (i_v), per split: the largest virtual
	 * stage's layers, or -1 where Megatron-Core does not take the count (plan_rc_layers_ok). */
	double *rc_chunk = xmalloc(sizeof(double) * (cd.nv ? (size_t)cd.nv : 1));
	Top tops[PLAN_ALTERNATIVES + 1];
	int ntops = 0;
	double least = INFINITY;
	const double usable = hw->hbm_usable;
	/* The workload's recompute_layers (plan_inputs fixes recompute = full with it): every
	 * fully recomputed plan's count. */
	const bool fixed_rc = sp->rc_layers > 0;
	const int L = (int)m->layers, B = sp->batch;
	const bool dual = sp->dualpipe; /* a local: the loops below write through out */

	for (int i_tp = 0; i_tp < cd.ntp; i_tp++)
	for (int i_cp = 0; i_cp < cd.ncp; i_cp++)
	for (int i_ep = 0; i_ep < cd.nep; i_ep++) {
		int tp = cd.tp[i_tp], cp = cd.cp[i_cp], ep = cd.ep[i_ep];
		if ((long)tp * cp > hw->gpus)
			continue;
		memset(have, 0, nl);
		for (int i_pp = 0; i_pp < cd.npp; i_pp++) {
			int pp = cd.pp[i_pp];
			long model_gpus = (long)tp * cp * pp;
			if (model_gpus > hw->gpus)
				continue;
			int splits[PLAN_SPLITS][2];
			int nsplit = plan_splits(m, pp, sp->first_layers, sp->last_layers, splits,
						 PLAN_SPLITS);
			for (int i_sp = 0; i_sp < nsplit; i_sp++) {
			bool even = pp == 1 || (L % pp == 0 && splits[i_sp][0] == L / pp &&
						splits[i_sp][1] == L / pp);
			PlanConfig c = {.tp = tp, .cp = cp, .ep = ep, .pp = pp, .batch = B,
					.first = even ? 0 : splits[i_sp][0], .last = even ? 0 : splits[i_sp][1],
					.flash = sp->flash, .overlap_dp = sp->overlap_dp,
					.overlap_tp = sp->overlap_tp, .overlap_pp = sp->overlap_pp,
					.overlap_ep = sp->overlap_ep, .capacity = sp->capacity,
					.fold = sp->fold, .fp8_dispatch = sp->fp8_dispatch,
					.hybrid_ep = sp->hybrid_ep, .dualpipe = dual,
					.cp_comm = sp->cp_comm, .grad16 = sp->grad16,
					.opt16 = sp->opt16, .fp8p = sp->fp8p,
					.swiglu8 = sp->swiglu8,
					.offload = sp->offload > 0 ? sp->offload : 0,
					.rc_modules = sp->rc_modules, .rc_layers = sp->rc_layers,
					.rc_uniform = sp->rc_uniform};
			double dense, expert, dp_end[2], dp_mid[2];
			plan_stage_params(m, &c, &dense, &expert);
			if (dual) /* its rank pairs' parameters, the same for every plan of the split */
				plan_dualpipe_params(m, &c, dp_end, dp_mid);
			for (int i_v = 0; fixed_rc && i_v < cd.nv; i_v++) {
				PlanConfig t = c;
				t.v = cd.v[i_v], t.recompute = RC_FULL;
				rc_chunk[i_v] = plan_rc_layers_ok(m, &t) ? plan_chunk_layers(m, &t) : -1;
			}
			/* The layers of the stage plan_time runs at (at least): a lower bound on a
			 * step, with the layer's compute. */
			double mid = plan_mid_layers(m, &c);
			double stage_lb = pp > 1 ? fmax(mid, even ? (double)L / pp : c.first) : (double)L;
			if (dual) /* the mean of a rank's two stages (plan_time) */
				stage_lb = even ? (double)L / pp
				       : pp > 2 ? fmax(mid, (c.first + c.last) / 2.0)
						: (c.first + c.last) / 2.0;
			for (int i_dp = 0; i_dp < cd.ndp; i_dp++) {
				int dp = cd.dp[i_dp];
				long gpus = model_gpus * dp;
				if (gpus > hw->gpus)
					break;
				if (!plan_set_allows(&sp->knob[KNOB_GPUS], (double)gpus) ||
				    ((long)dp * cp * (sp->fold ? tp : 1)) % ep)
					continue;
				c.dp = dp;
				c.gpus = (int)gpus;
				/* The stage's state memory by sharding (o below), the same for every
				 * micro-batch, interleaving and recomputation; under DualPipe each rank
				 * pair's (plan_dualpipe_memory). */
				double states[4], st_end[4], st_mid[4];
				for (int o = 0; o < 4; o++) {
					double w, g;
					c.dopt = o == 1 || o == 3;
					c.fsdp = o == 2;
					c.zero2 = o == 3;
					states[o] = plan_state_memory(m, &c, dense, expert, hw->fp8_cache, &w, &g);
					if (dual) {
						st_end[o] = plan_state_memory(m, &c, dp_end[0], dp_end[1],
									      hw->fp8_cache, &w, &g);
						st_mid[o] = pp > 2 ? plan_state_memory(m, &c, dp_mid[0], dp_mid[1],
										       hw->fp8_cache, &w, &g)
								   : 0;
					}
				}
				int local = B / dp;
				for (int i_b = 0; i_b < cd.nmicro; i_b++) {
					int b = cd.micro[i_b];
					if (b > local)
						break;
					if (local % b)
						continue;
					int mb = local / b;
					/* DualPipe feeds half the micro-batches from each end, at least
					 * two a rank (DualPipe.step: "num_chunks % 2 == 0 and num_chunks
					 * >= num_ranks * 2"). */
					if (dual && (mb % 2 || mb < 2 * pp))
						continue;
					c.micro = b;
					for (int i_v = 0; i_v < cd.nv; i_v++) {
						int v = cd.v[i_v];
						if (v > (L + pp - 1) / pp || (v > 1 && (pp == 1 || mb % pp || dual)))
							break;
						if (even ? (L / pp) % v != 0 : !plan_uneven_interleave_ok(m, &c, v))
							continue;
						c.v = v;
						double inflight = plan_inflight_layers(m, &c, mb);
						double inflight_last = plan_last_inflight_layers(m, &c, mb);
						/* The memory of each (SP, sharding) plan without recomputation, which
						 * the recompute loop meets first (RECOMPUTES' order): block
						 * recomputation is tried where it did not fit. 0: not searched. */
						double none_mem[2][4] = {{0}};
						for (int i_rc = 0; i_rc < nrc; i_rc++)
						for (int s = 0; s < 2; s++) {
							if (!(sp->sp & (1u << s)) || (s && tp == 1 && (sp->sp & 1u)) ||
							    (!s && tp > 1 && ep > 1))
								continue;
							size_t li = layer_index(i_b, rcs[i_rc], s);
							c.recompute = rcs[i_rc];
							c.sp = s;
							/* A pinned offload: only where Megatron-Core takes it. */
							if (c.offload && !plan_offload_ok(m, hw, &c, c.offload))
								continue;
							if (!have[li]) {
								PlanConfig one = c; /* each layer alone */
								one.rc_layers = 0, one.rc_uniform = false;
								plan_layer(m, hw, &one, &layers[li]);
								have[li] = true;
							}
							/* The workload's recompute_layers (c.rc_layers): from the
							 * cached layers without recomputation and fully
							 * recomputed, by this plan's virtual stages (which the
							 * cache does not key). */
							const PlanLayer *pl = &layers[li];
							PlanLayer fixed;
							if (fixed_rc && c.recompute == RC_FULL) {
								if (rc_chunk[i_v] < 0)
									continue;
								size_t ni = layer_index(i_b, RC_NONE, s);
								if (!have[ni]) {
									PlanConfig cn = c;
									cn.recompute = RC_NONE, cn.rc_layers = 0;
									cn.rc_uniform = false;
									plan_layer(m, hw, &cn, &layers[ni]);
									have[ni] = true;
								}
								plan_layer_rc_layers(&c, rc_chunk[i_v], &layers[ni],
										     &layers[li], &fixed);
								pl = &fixed;
							}
							/* No CP exchange the plan allows works (a2a alone, heads
							 * not divisible by cp). */
							if (!(pl->cp < INFINITY))
								continue;
							/* o: 0 no sharding, 1 the distributed optimizer (ZeRO-1), 2 FSDP
							 * (ZeRO-3: no pipeline, some data parallelism), 3 the gradients
							 * sharded too (ZeRO-2, some data parallelism). */
							/* The distributed optimizer's memory of this plan: ZeRO-2 is
							 * never faster (plan_time), so it is costed only where ZeRO-1
							 * does not fit, or where the workload asks for it. */
							double dopt_mem = INFINITY;
							/* The activations' memory, the same for every sharding; each
							 * sharding's whole memory (under DualPipe per rank pair), worked
							 * out before the loop so that it tests no schedule. */
							const double act_mem = plan_act_memory(&c, pl, inflight, inflight_last);
							double mems[4];
							for (int o = 0; o < 4; o++)
								mems[o] = states[o] + act_mem;
							if (dual)
								for (int o = 0; o < 4; o++) {
									bool mid_rank;
									double a = plan_dualpipe_act(&c, pl, st_end[o], st_mid[o],
												     inflight, inflight_last,
												     &mid_rank);
									mems[o] = (mid_rank ? st_mid[o] : st_end[o]) + a;
								}
							for (int o = 0; o < 4; o++) {
								if (o < 2 && (!(sp->dopt & (1u << o)) ||
									      (o && dp * cp == 1 && (sp->dopt & 1u)) ||
									      (!(sp->fsdp & 1u)) || !(sp->zero2 & 1u)))
									continue;
								if (o == 2 && (!(sp->fsdp & 2u) || pp > 1 || dp * cp == 1 ||
									       !(sp->zero2 & 1u)))
									continue;
								if (o == 3 && (!(sp->zero2 & 2u) || !(sp->dopt & 2u) ||
									       !(sp->fsdp & 1u) || dp * cp == 1 ||
									       ((sp->zero2 & 1u) && dopt_mem <= usable)))
									continue;
								c.dopt = o == 1 || o == 3;
								c.fsdp = o == 2;
								c.zero2 = o == 3;
								/* plan_memory's sum from its two parts (the same bits);
								 * the whole cost, zeroed first, only for the plans that
								 * fit (zeroing every plan's was half the search's time). */
								double mem = mems[o];
								out->valid++;
								if (c.recompute == RC_NONE)
									none_mem[s][o] = mem;
								if (o == 1)
									dopt_mem = mem;
								if (mem < least) {
									least = mem;
									out->least = c; /* its cost: plan_evaluate below */
								}
								if (mem > usable) {
									/* The search's offload: where nothing else fits
									 * without recomputation and pipeline. */
									if (sp->offload < 0 && plan_offload_ok(m, hw, &c, 2))
										offload_fit(m, hw, &c, dense, expert, usable,
											    pl, mem, tops, &ntops, out);
									continue;
								}
								if (c.offload && plan_offload_over_host(hw, pl, c.offload))
									continue;
								out->fit++;
								/* Timed only when it could be kept: every step is at least
								 * its micro-batches' compute on its longest stage, and a
								 * plan slower than the last kept cannot enter (keep). */
								if (ntops <= PLAN_ALTERNATIVES ||
								    mb * stage_lb * (pl->fwd + pl->bwd) <=
									    tops[PLAN_ALTERNATIVES].k.step * (1 + 1e-6)) {
									Top t = {.c = c};
									plan_memory(m, &c, pl, dense, expert, &t.k);
									plan_time(m, hw, &c, pl, dense, expert, &t.k);
									keep(tops, &ntops, &t);
								}
								if (c.recompute == RC_FULL && !fixed_rc &&
								    none_mem[s][o] > usable)
									block_recompute(m, hw, &c, dense, expert, usable, &layers[li],
											mem, none_mem[s][o],
											&layers[layer_index(i_b, RC_NONE, s)],
											tops, &ntops, out);
							}
						}
					}
				}
			}
			}
		}
	}
	out->evaluated = out->valid;
	out->any_valid = out->valid > 0;
	if (out->any_valid)
		plan_evaluate(m, hw, &out->least, &out->least_cost);
	if (ntops > 0) {
		out->found = true;
		out->best = tops[0].c;
		out->cost = tops[0].k;
		for (int i = 1; i < ntops; i++) {
			out->alt[out->nalt] = tops[i].c;
			out->alt_cost[out->nalt++] = tops[i].k;
		}
	}
	free(layers);
	free(have);
	free(rc_chunk);
	cands_free(&cd);
	out->ms = now_ms() - t0;
}
