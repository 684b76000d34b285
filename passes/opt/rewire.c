/*
 * rewire.c — the fewest cables moved when a Clos fabric grows: how many links each pair of
 * switches of two adjacent tiers has in the new build, chosen to keep as many of the prior
 * build's links as the new topology allows.
 *
 * After Zhao, Singh, Ghorbani, Clark, Govindan, Gupta, Kim, Mogul, Padmanabhan, Vahdat,
 * "Minimal Rewiring: Efficient Live Expansion for Clos Data Center Networks", NSDI 2019
 * (https://www.usenix.org/conference/nsdi19/presentation/zhao): the new topology is given
 * not link by link but as link counts x_ij between lower switch i and upper switch j, free
 * within what keeps the fabric balanced; an integer program picks the counts that keep the
 * most existing links. We apply their block-level formulation at switch granularity, with
 * their balance constraint on the lower switches: each spreads its up links as evenly as the
 * new plan does (⌊u_i / |B_i|⌋ ≤ x_ij ≤ ⌈u_i / |B_i|⌉ over the upper switches B_i it reaches);
 * an upper switch takes at most the ports it has for the tier (col_j: its radix less the
 * ports the other tiers use). With o_ij the prior build's links between the pair (both
 * switches named alike in both builds):
 *
 *     maximise Σ k_ij   subject to   k_ij ≤ x_ij,  k_ij ≤ o_ij,
 *                                     Σ_j x_ij = row_i,  Σ_i x_ij ≤ col_j,  lo_ij ≤ x_ij ≤ hi_ij,
 *
 * x integer, k continuous (at an optimum k_ij = min(x_ij, o_ij)). The cables moved are then
 * Σ o_ij − Σ k_ij: a prior link between a pair whose count shrank keeps its lower end and has
 * its upper end re-plugged. Pairs whose count is fixed (lo = hi) are constants: the model has a
 * variable only where the count is free, none at all when the new plan divides evenly (a
 * SuperPOD's 32 up links over 16 spines: 2 each), and GLPK is not called then; nor when the
 * prior counts are themselves a plan the constraints allow (they keep every link).
 */
#include "opt.h"

#include <math.h>
#include <string.h>

static int lesser(int a, int b)
{
	return a < b ? a : b;
}

/* x = the bounds when they fix it; counts what that keeps. */
static void fixed_counts(const RewireProblem *p, RewireResult *r)
{
	r->kept = r->old_total = 0;
	for (int i = 0; i < p->na * p->nb; i++) {
		r->x[i] = p->lo[i];
		r->old_total += p->old[i];
	}
}

/* Whether the prior counts are themselves a plan the constraints allow: then they keep every
 * prior link, and no program is needed (a build grown from one of the same shape). */
static bool prior_fits(const RewireProblem *p)
{
	for (int i = 0; i < p->na; i++) {
		int s = 0;
		for (int j = 0; j < p->nb; j++) {
			int e = i * p->nb + j;
			if (p->old[e] < p->lo[e] || p->old[e] > p->hi[e])
				return false;
			s += p->old[e];
		}
		if (s != p->row[i])
			return false;
	}
	for (int j = 0; j < p->nb; j++) {
		int s = 0;
		for (int i = 0; i < p->na; i++)
			s += p->old[i * p->nb + j];
		if (s > p->col[j])
			return false;
	}
	return true;
}

int rewire_counts(Ctx *c, const RewireProblem *p, RewireResult *r)
{
	Arena *a = c->arena;
	int n = p->na * p->nb;
	r->x = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	r->variables = r->constraints = 0;
	r->status = "none";
	fixed_counts(p, r);
	if (prior_fits(p)) {
		memcpy(r->x, p->old, sizeof(int) * (size_t)n);
		r->kept = r->old_total, r->moved = 0;
		return 0;
	}
	int *xv = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	int *kv = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	LpModel *m = NULL;
	for (int i = 0; i < p->na; i++)
		for (int j = 0; j < p->nb; j++) {
			int e = i * p->nb + j;
			xv[e] = kv[e] = -1;
			if (p->lo[e] == p->hi[e])
				continue;
			if (!m)
				m = lp_new(c);
			xv[e] = lp_var(m, arena_printf(a, "x_%d_%d", i, j), 'I', p->lo[e], p->hi[e]);
			kv[e] = lp_var(m, arena_printf(a, "k_%d_%d", i, j), 'C', 0,
				       lesser(p->old[e], p->hi[e]));
		}
	if (m) {
		LpExpr obj = {0};
		for (int e = 0; e < n; e++) {
			if (xv[e] < 0)
				continue;
			LpExpr kx = {0};
			lp_term(a, &kx, kv[e], 1);
			lp_term(a, &kx, xv[e], -1);
			lp_row(m, arena_printf(a, "keep_%d", e), &kx, 'L', 0);
			lp_term(a, &obj, kv[e], 1);
		}
		/* Every lower switch's links, and every upper switch's, as the new plan has them. */
		for (int side = 0; side < 2; side++)
			for (int s = 0; s < (side ? p->nb : p->na); s++) {
				LpExpr sum = {0};
				int fixed = 0;
				for (int t = 0; t < (side ? p->na : p->nb); t++) {
					int e = side ? t * p->nb + s : s * p->nb + t;
					if (xv[e] >= 0)
						lp_term(a, &sum, xv[e], 1);
					else
						fixed += p->lo[e];
				}
				if (sum.n)
					lp_row(m, arena_printf(a, "%s_%d", side ? "upper" : "lower", s), &sum,
					       side ? 'L' : 'E', (side ? p->col[s] : p->row[s]) - fixed);
			}
		lp_objective(m, "kept", &obj, true);
		LpResult res;
		bool ok = lp_solve(m, 0, &res);
		r->variables = res.nvars, r->constraints = res.nrows;
		lp_release(m);
		if (!ok || res.status != LP_OPTIMAL) {
			r->status = "infeasible";
			return 1;
		}
		for (int e = 0; e < n; e++)
			if (xv[e] >= 0)
				r->x[e] = (int)lround(res.x[xv[e]]);
		r->status = "optimal";
	}
	for (int e = 0; e < n; e++)
		r->kept += lesser(r->x[e], p->old[e]);
	r->moved = r->old_total - r->kept;
	return 0;
}
