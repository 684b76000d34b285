/*
 * arrange.c — where the network racks stand among the node racks: an optimisation of the
 * total cable run over their positions (docs/placement.md §2).
 *
 * The model. The node racks keep their order (each leaf's nodes stay together); each network
 * group (a unit's leaves, a pod's spines, the cores ...) stands as one block just before node
 * rack k, its key (0 ... nracks, k = nracks: after the last; keys inside a multi-rack scale-up
 * domain are not allowed). The sequence then fills the floor row after row, per_row racks a
 * row (on the default floor, odd rows run back: serpentine), so a key gives every rack its
 * (x, y). The cost is Σ over edges of weight × the
 * Manhattan distance between the two ends' racks (a group counts at its middle rack): the
 * horizontal part of every cable run, which is all a rack's position changes (the drops and
 * the slack do not move). The weights are the links between a group and a node rack or
 * another group, from the fabric's shape (place.c builds them).
 *
 * The method: coordinate descent. Group after group, the key that minimises the group's own
 * edges' cost with everything else where it stands is found exactly: the cost is separable,
 * F_x(position in row) + F_y(row), each a sum of weighted absolute deviations computed for
 * every position and row at once from bucketed weights and prefix sums, so every allowed key
 * is weighed in O(1), a group in O(nracks + its edges). The move is kept when the whole cost
 * falls (moving a group shifts the racks between its old and new key by its length, which
 * the group's own estimate leaves out). Sweeps repeat until none moves a group, at most
 * ARRANGE_SWEEPS. Started from the median rule (each group in the middle of the racks it
 * serves), it can only lower the cost. tests/unit/test_model.c measures it against the exact
 * optimum, found by enumerating every assignment of keys on instances small enough to do so.
 */
#include "passes.h"
#include "share.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keys each side of a group's estimated best weighed by the whole cost; and on a large design
 * the whole-cost work allowed (evaluations x their size): about 0.1 s, so that 100,000 GPUs
 * place in well under a second (docs/performance.md). */
enum { WINDOW = 1 };
static const double LARGE_WORK = 2e7;

/* Sequence index of every entity (node racks 0 .. nracks-1, then the groups' middle racks)
 * for the keys given; group g's first rack at first[g]. at (nracks + 2) and fill (nracks + 1)
 * are scratch. */
static void layout_in(const ArrangeProblem *p, const int *key, int *seq, int *first, int *at,
		      int *fill)
{
	int n = p->nracks, G = p->ngroups;
	/* Racks of groups at each key, then groups in key order (ties by index): a counting sort. */
	memset(at, 0, sizeof(int) * (size_t)(n + 2));
	for (int g = 0; g < G; g++)
		at[key[g] + 1] += p->group_racks[g];
	for (int k = 1; k <= n + 1; k++)
		at[k] += at[k - 1]; /* at[k]: racks of groups with key < k */
	for (int j = 0; j < n; j++)
		seq[j] = j + at[j + 1];
	memset(fill, 0, sizeof(int) * (size_t)(n + 1));
	for (int g = 0; g < G; g++) {
		first[g] = key[g] + at[key[g]] + fill[key[g]];
		fill[key[g]] += p->group_racks[g];
		seq[n + g] = first[g] + (p->group_racks[g] - 1) / 2;
	}
}

static void layout(const ArrangeProblem *p, const int *key, int *seq, int *first)
{
	int n = p->nracks;
	int *at = xmalloc(sizeof(int) * (size_t)(2 * n + 3));
	layout_in(p, key, seq, first, at, at + n + 2);
	free(at);
}

/* The position along its row of sequence index s (odd rows run back on a serpentine floor). */
static int column(const ArrangeProblem *p, int s)
{
	int pos = s % p->per_row;
	return p->serpentine && (s / p->per_row) % 2 ? p->per_row - 1 - pos : pos;
}

/* An evaluation's tables, made once per descent: each sequence index's coordinates (the
 * products the cost always used, so every term is the same double), and scratch. */
typedef struct Eval {
	double *X, *Y;  /* by sequence index */
	int *col, *row; /* by sequence index: its place along its row, its row */
	double *term;   /* each edge's term of the last evaluation */
	int *seq, *first, *at, *fill;
	/* The descent's: who stands at each sequence index (a group's racks all name it), each
	 * entity's edges, a stamp per edge, the entities a trial move shifts. */
	int *occ, *adj_start, *adj, *stamp, *moved, round;
	int *tedge, nt, nmoved, shift, to; /* a trial move's new terms: their edges, values */
	double *tval;
	bool incremental; /* every group has a rack (a group of none holds no place to find) */
} Eval;

static void eval_init(Eval *ev, const ArrangeProblem *p)
{
	int n = p->nracks, G = p->ngroups, racks = 0;
	ev->incremental = !p->whole_cost;
	for (int g = 0; g < G; g++) {
		racks += p->group_racks[g];
		ev->incremental &= p->group_racks[g] > 0;
	}
	int total = n + racks + 1;
	ev->X = xmalloc(sizeof(double) * (size_t)(2 * total + p->nedges + 1));
	ev->Y = ev->X + total;
	ev->term = ev->Y + total;
	ev->col = xmalloc(sizeof(int) * (size_t)(2 * total));
	ev->row = ev->col + total;
	for (int s = 0; s < total; s++) {
		ev->col[s] = column(p, s);
		ev->row[s] = s / p->per_row;
		ev->X[s] = ev->col[s] * p->rack_pitch;
		ev->Y[s] = (double)ev->row[s] * p->row_pitch;
	}
	ev->seq = xmalloc(sizeof(int) * (size_t)(n + G + 1 + G + 1 + n + 2 + n + 1));
	ev->first = ev->seq + n + G + 1;
	ev->at = ev->first + G + 1;
	ev->fill = ev->at + n + 2;
	int ents = n + G;
	ev->occ = xmalloc(sizeof(int) * (size_t)(total + 2 * (ents + 1) + 3 * p->nedges + 1));
	ev->adj_start = ev->occ + total;
	ev->moved = ev->adj_start + ents + 1;
	ev->adj = ev->moved + ents + 1;
	ev->stamp = ev->adj + 2 * p->nedges;
	ev->tedge = xmalloc(sizeof(int) * (size_t)(p->nedges + 1));
	ev->tval = xmalloc(sizeof(double) * (size_t)(p->nedges + 1));
	ev->round = 0;
	for (int i = 0; i <= ents; i++)
		ev->adj_start[i] = 0;
	for (int e = 0; e < p->nedges; e++) {
		ev->stamp[e] = 0;
		if (p->edges[e].a == p->edges[e].b)
			continue;
		ev->adj_start[p->edges[e].a + 1]++;
		ev->adj_start[p->edges[e].b + 1]++;
	}
	for (int i = 1; i <= ents; i++)
		ev->adj_start[i] += ev->adj_start[i - 1];
	int *fill = xmalloc(sizeof(int) * (size_t)(ents + 1));
	memcpy(fill, ev->adj_start, sizeof(int) * (size_t)(ents + 1));
	for (int e = 0; e < p->nedges; e++)
		if (p->edges[e].a != p->edges[e].b) {
			ev->adj[fill[p->edges[e].a]++] = e;
			ev->adj[fill[p->edges[e].b]++] = e;
		}
	free(fill);
}

static void eval_free(Eval *ev)
{
	free(ev->X);
	free(ev->col);
	free(ev->seq);
	free(ev->occ);
	free(ev->tedge);
	free(ev->tval);
}

/* Each edge's term w × (|dx| + |dy|) into ev->term, and their sum in four lanes: close to the
 * cost (|lanes − cost| <= eval_slack), not necessarily the same double. */
static double eval_terms(Eval *ev, const ArrangeProblem *p, const int *key)
{
	layout_in(p, key, ev->seq, ev->first, ev->at, ev->fill);
	const int *seq = ev->seq;
	const double *X = ev->X, *Y = ev->Y;
	double s[4] = {0, 0, 0, 0};
	int e = 0, m = p->nedges;
	for (; e < m; e++) {
		int a = seq[p->edges[e].a], b = seq[p->edges[e].b];
		double t = p->edges[e].w * (fabs(X[a] - X[b]) + fabs(Y[a] - Y[b]));
		ev->term[e] = t;
		s[e & 3] += t;
	}
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* The cost exactly as the whole sum in edge order makes it (arrange_cost's double). */
static double eval_sum(const Eval *ev, const ArrangeProblem *p)
{
	double cost = 0;
	for (int e = 0; e < p->nedges; e++)
		cost += ev->term[e];
	return cost;
}

/* A bound on |lanes − exact| for nonnegative terms: each of the two sums is within
 * (m − 1)·u of the real one (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 * §4.2, recursive summation), u = DBL_EPSILON / 2; four times that, and a floor for tiny
 * costs. */
static double eval_slack(const ArrangeProblem *p, double lanes)
{
	return 4.0 * (p->nedges + 8) * DBL_EPSILON * lanes + 1e-300;
}

double arrange_cost(const ArrangeProblem *p, const int *key)
{
	Eval ev;
	eval_init(&ev, p);
	eval_terms(&ev, p, key);
	double cost = eval_sum(&ev, p);
	eval_free(&ev);
	return cost;
}

/* F[i] = Σ_b w[b] |i − b| × pitch for i in [0, m): two prefix sweeps. */
static void deviations(const double *w, int m, double pitch, double *F)
{
	double left_w = 0, left_cost = 0;
	for (int i = 0; i < m; i++) {
		F[i] = left_cost;
		left_w += w[i];
		left_cost += left_w;
	}
	double right_w = 0, right_cost = 0;
	for (int i = m - 1; i >= 0; i--) {
		F[i] = (F[i] + right_cost) * pitch;
		right_w += w[i];
		right_cost += right_w;
	}
}

/* Group g's best key with everything else where it stands, by its own edges. */
static int best_key(const ArrangeProblem *p, const Eval *ev, const int *key, int g, double *wx,
		    double *wy, double *Fx, double *Fy)
{
	int n = p->nracks, rows = (n + p->total_group_racks) / p->per_row + 2;
	const int *seq = ev->seq, *col = ev->col, *row = ev->row;
	for (int i = 0; i < p->per_row; i++)
		wx[i] = 0;
	for (int r = 0; r < rows; r++)
		wy[r] = 0;
	int me = n + g;
	for (int e = p->adj_start[g]; e < p->adj_start[g + 1]; e++) {
		const ArrangeEdge *x = &p->edges[p->adj[e]];
		int other = x->a == me ? x->b : x->a;
		if (other == me)
			continue;
		wx[col[seq[other]]] += x->w;
		wy[row[seq[other]]] += x->w;
	}
	deviations(wx, p->per_row, p->rack_pitch, Fx);
	deviations(wy, rows, p->row_pitch, Fy);
	/* Where g's middle rack lands at key k: k node racks and the other groups before it
	 * (the evaluation's scratch). */
	int *before = ev->at, *ties = ev->fill;
	for (int k = 0; k <= n + 1; k++)
		before[k] = 0;
	for (int k = 0; k <= n; k++)
		ties[k] = 0;
	for (int h = 0; h < p->ngroups; h++) {
		if (h == g)
			continue;
		before[key[h] + 1] += p->group_racks[h];
		if (h < g) /* groups at the same key stand in index order */
			ties[key[h]] += p->group_racks[h];
	}
	for (int k = 1; k <= n + 1; k++)
		before[k] += before[k - 1];
	int best = key[g], mid = (p->group_racks[g] - 1) / 2;
	double best_cost = INFINITY;
	for (int k = 0; k <= n; k++) {
		if (!p->allowed[k])
			continue;
		int s = k + before[k] + ties[k] + mid;
		double c = Fx[col[s]] + (row[s] < rows ? Fy[row[s]] : INFINITY);
		if (c < best_cost - 1e-9 || (fabs(c - best_cost) <= 1e-9 && abs(k - key[g]) < abs(best - key[g]))) {
			best_cost = c;
			best = k;
		}
	}
	return best;
}

static double work_left; /* a large design's descent: steps left (an evaluation of the whole
			   * cost is nodes + groups + edges, a group's estimate nodes + groups) */
static double eval_work;

/* The cost of key if it is below thr (the test the descent makes), else INFINITY: the four
 * lanes decide when they are clear of thr by more than their slack, the exact sum otherwise,
 * so the answer is always the one the exact cost gives. */
static double cost_below(const ArrangeProblem *p, Eval *ev, const int *key, double thr)
{
	double lanes = eval_terms(ev, p, key);
	if (lanes - eval_slack(p, lanes) >= thr)
		return INFINITY;
	double c = eval_sum(ev, p);
	return c < thr ? c : INFINITY;
}

/* Who stands where, from the layout of the last evaluation. */
static void eval_occ(Eval *ev, const ArrangeProblem *p)
{
	int n = p->nracks;
	for (int j = 0; j < n; j++)
		ev->occ[ev->seq[j]] = j;
	for (int g = 0; g < p->ngroups; g++)
		for (int r = 0; r < p->group_racks[g]; r++)
			ev->occ[ev->first[g] + r] = n + g;
}

/* The descent's state for key: the layout, every term, who stands where. */
static void eval_sync(Eval *ev, const ArrangeProblem *p, const int *key)
{
	eval_terms(ev, p, key);
	eval_occ(ev, p);
}

/* A trial move of group g to key k, on ev's state (the layout, terms and occupants of key,
 * whose cost is `cost`). The move takes g's block out of the sequence and puts it back where
 * key k puts it, so only what stands between the two places shifts (by g's length): those
 * entities (ev->moved, g last) and the new terms of their edges (ev->tedge, ev->tval: the
 * same products as a whole evaluation's) are kept, and the cost they make when the others'
 * terms stand, in *next. False when the sequence stays the same (the same cost). */
static bool move_trial(const ArrangeProblem *p, Eval *ev, const int *key, int g, int k,
		       double cost, double *next)
{
	int n = p->nracks, r = p->group_racks[g], from = ev->first[g], to = k;
	for (int h = 0; h < p->ngroups; h++)
		if (h != g && (key[h] < k || (key[h] == k && h < g)))
			to += p->group_racks[h];
	if (to == from)
		return false;
	int lo = to < from ? to : from + r, hi = to < from ? from : to + r;
	int shift = to < from ? r : -r, nmoved = 0;
	int *seq = ev->seq;
	for (int s = lo; s < hi; s++) {
		int who = ev->occ[s];
		if (who >= n && ev->first[who - n] != s)
			continue; /* a group's block: once */
		seq[who] += shift;
		ev->moved[nmoved++] = who;
	}
	int mid = (r - 1) / 2;
	seq[n + g] = to + mid;
	ev->moved[nmoved++] = n + g;
	if (++ev->round == 0) {
		for (int e = 0; e < p->nedges; e++)
			ev->stamp[e] = 0;
		ev->round = 1;
	}
	const double *X = ev->X, *Y = ev->Y;
	double delta = 0;
	int nt = 0;
	for (int i = 0; i < nmoved; i++) {
		int who = ev->moved[i];
		for (int j = ev->adj_start[who]; j < ev->adj_start[who + 1]; j++) {
			int e = ev->adj[j];
			if (ev->stamp[e] == ev->round)
				continue;
			ev->stamp[e] = ev->round;
			int a = seq[p->edges[e].a], b = seq[p->edges[e].b];
			double t = p->edges[e].w * (fabs(X[a] - X[b]) + fabs(Y[a] - Y[b]));
			delta += t - ev->term[e];
			ev->tedge[nt] = e, ev->tval[nt++] = t;
		}
	}
	for (int i = 0; i < nmoved - 1; i++)
		seq[ev->moved[i]] -= shift;
	seq[n + g] = from + mid;
	ev->nmoved = nmoved, ev->nt = nt, ev->shift = shift, ev->to = to;
	*next = cost + delta;
	return true;
}

/* Swaps the trial's terms with the state's (twice: back). */
static void swap_terms(Eval *ev)
{
	for (int i = 0; i < ev->nt; i++) {
		double t = ev->term[ev->tedge[i]];
		ev->term[ev->tedge[i]] = ev->tval[i];
		ev->tval[i] = t;
	}
}

/* Makes the trial move of g (its terms already in place) the state's. */
static void move_apply(const ArrangeProblem *p, Eval *ev, int g)
{
	int n = p->nracks;
	for (int i = 0; i < ev->nmoved - 1; i++) {
		int who = ev->moved[i];
		ev->seq[who] += ev->shift;
		if (who >= n)
			ev->first[who - n] += ev->shift;
	}
	ev->first[g] = ev->to;
	ev->seq[n + g] = ev->to + (p->group_racks[g] - 1) / 2;
	for (int i = 0; i < ev->nmoved; i++) {
		int who = ev->moved[i];
		if (who < n)
			ev->occ[ev->seq[who]] = who;
		else
			for (int r = 0; r < p->group_racks[who - n]; r++)
				ev->occ[ev->first[who - n] + r] = who;
	}
}

/* Moves group g to key k when that lowers the whole cost; the cost in force in *cost. With
 * every group a rack or more, from the trial move: when its cost is above the test by more
 * than the slack of the two sums (both sums' rounding, Higham §4.2, as eval_slack), the exact
 * cost is too; else the exact sum in edge order of the terms with the trial's in place
 * decides, the one a whole evaluation makes. */
static bool try_key(const ArrangeProblem *p, Eval *ev, int *key, int g, int k, double *cost)
{
	if (k == key[g] || !p->allowed[k] || work_left <= 0)
		return false;
	work_left -= eval_work;
	double thr = *cost - 1e-9 * fmax(1, *cost);
	if (ev->incremental) {
		double next;
		if (!move_trial(p, ev, key, g, k, *cost, &next))
			return false; /* the same sequence: the same cost, not below it */
		double slack = 8.0 * (p->nedges + 8) * DBL_EPSILON * (fabs(*cost) + fabs(next)) + 1e-300;
		if (next - slack >= thr)
			return false;
		swap_terms(ev);
		double c = eval_sum(ev, p);
		if (!(c < thr)) {
			swap_terms(ev);
			return false;
		}
		move_apply(p, ev, g);
		key[g] = k;
		*cost = c;
		return true;
	}
	int old = key[g];
	key[g] = k;
	double c = cost_below(p, ev, key, thr);
	if (c < INFINITY) {
		*cost = c;
		eval_occ(ev, p); /* the layout and terms are key's already */
		return true;
	}
	key[g] = old;
	eval_sync(ev, p, key);
	return false;
}

/* Small instances: every key of group g weighed by the whole cost (exact for one group). */
static bool scan_keys(const ArrangeProblem *p, Eval *ev, int *key, int g, double *cost)
{
	bool moved = false;
	for (int k = 0; k <= p->nracks; k++)
		moved |= try_key(p, ev, key, g, k, cost);
	return moved;
}

/* Small instances: every pair of keys of two linked groups by the whole cost. */
static bool scan_pair(const ArrangeProblem *p, Eval *ev, int *key, int a, int b, double *cost)
{
	int best_a = key[a], best_b = key[b];
	bool moved = false;
	for (int ka = 0; ka <= p->nracks; ka++)
		for (int kb = 0; kb <= p->nracks; kb++) {
			if (!p->allowed[ka] || !p->allowed[kb])
				continue;
			key[a] = ka, key[b] = kb;
			double c = cost_below(p, ev, key, *cost - 1e-9 * fmax(1, *cost));
			if (c < INFINITY)
				*cost = c, best_a = ka, best_b = kb, moved = true;
		}
	key[a] = best_a, key[b] = best_b;
	return moved;
}

static int optimise(ArrangeProblem *p, int *key, int max_sweeps, int *sweeps)
{
	int n = p->nracks, G = p->ngroups, moves = 0;
	p->total_group_racks = 0;
	for (int g = 0; g < G; g++)
		p->total_group_racks += p->group_racks[g];
	/* Each group's edges. */
	p->adj_start = xmalloc(sizeof(int) * (size_t)(G + 2));
	p->adj = xmalloc(sizeof(int) * (size_t)(2 * p->nedges + 1));
	for (int g = 0; g <= G + 1; g++)
		p->adj_start[g] = 0;
	for (int e = 0; e < p->nedges; e++) {
		if (p->edges[e].a >= n)
			p->adj_start[p->edges[e].a - n + 1]++;
		if (p->edges[e].b >= n && p->edges[e].b != p->edges[e].a)
			p->adj_start[p->edges[e].b - n + 1]++;
	}
	for (int g = 1; g <= G; g++)
		p->adj_start[g] += p->adj_start[g - 1];
	int *fill = xmalloc(sizeof(int) * (size_t)(G + 1));
	memcpy(fill, p->adj_start, sizeof(int) * (size_t)(G + 1));
	for (int e = 0; e < p->nedges; e++) {
		if (p->edges[e].a >= n)
			p->adj[fill[p->edges[e].a - n]++] = e;
		if (p->edges[e].b >= n && p->edges[e].b != p->edges[e].a)
			p->adj[fill[p->edges[e].b - n]++] = e;
	}
	free(fill);
	int rows = (n + p->total_group_racks) / p->per_row + 2;
	double *wx = xmalloc(sizeof(double) * (size_t)(p->per_row + rows) * 2);
	double *wy = wx + p->per_row, *Fx = wy + rows, *Fy = Fx + p->per_row;
	Eval ev;
	eval_init(&ev, p);
	/* Whole-cost scans where they are cheap: (keys) x (one evaluation) under SCAN_BUDGET. */
	double budget = p->scan_budget ? p->scan_budget : ARRANGE_SCAN_BUDGET;
	double eval = (double)(n + G + p->nedges);
	bool scan = (n + 1) * eval <= budget;
	bool pairs = scan && (double)(n + 1) * (n + 1) * eval * p->nedges <= 10 * budget;
	work_left = scan ? INFINITY : LARGE_WORK;
	eval_work = eval;
	eval_sync(&ev, p, key);
	double cost = eval_sum(&ev, p);
	*sweeps = 0;
	for (int sweep = 0; sweep < max_sweeps; sweep++) {
		int moved = 0;
		(*sweeps)++;
		for (int g = 0; g < G; g++) {
			if (scan) {
				moved += scan_keys(p, &ev, key, g, &cost);
				continue;
			}
			/* The others where they stand without g. */
			if (work_left <= 0)
				break;
			work_left -= 2.0 * (n + G) + p->adj_start[g + 1] - p->adj_start[g];
			int k = best_key(p, &ev, key, g, wx, wy, Fx, Fy);
			/* The estimate leaves out the shift a move makes: its neighbours too, by the
			 * whole cost. */
			for (int dk = -WINDOW; dk <= WINDOW; dk++)
				if (k + dk >= 0 && k + dk <= n)
					moved += try_key(p, &ev, key, g, k + dk, &cost);
		}
		/* Joint moves: a group beside a group it is linked to (a move of one alone may not
		 * pay where moving both does). */
		for (int e = 0; e < p->nedges; e++) {
			int a = p->edges[e].a - n, b = p->edges[e].b - n;
			if (a < 0 || b < 0 || a == b)
				continue;
			if (pairs) {
				moved += scan_pair(p, &ev, key, a, b, &cost);
				eval_sync(&ev, p, key);
			}
			else if (try_key(p, &ev, key, b, key[a], &cost) || try_key(p, &ev, key, a, key[b], &cost))
				moved++;
		}
		moves += moved;
		if (!moved || work_left <= 0)
			break;
	}
	eval_free(&ev);
	free(wx);
	free(p->adj_start);
	free(p->adj);
	p->adj_start = p->adj = NULL;
	return moves;
}

/* The exact optimum by enumeration (every allowed key for every group): for tests, on
 * instances of a few groups and racks. */
static size_t put(unsigned char *k, size_t at, const void *v, size_t n)
{
	if (n)
		memcpy(k + at, v, n);
	return at + n;
}

/* The descent is a pure function of the problem and the starting keys: the processes of a
 * comparison share it by those (lang/share.c), so the points of a sweep that leave the racks
 * and the floor alone arrange them once. The same keys, moves and sweeps either way. */
int arrange_optimise(ArrangeProblem *p, int *key, int max_sweeps, int *sweeps)
{
	int n = p->nracks, G = p->ngroups;
	double shape[4] = {p->rack_pitch, p->row_pitch, p->scan_budget, 0};
	int dims[5] = {n, G, p->per_row, p->serpentine, max_sweeps};
	size_t size = sizeof dims + sizeof shape + sizeof(int) * (size_t)(2 * G) +
		      sizeof(bool) * (size_t)(n + 1) + sizeof(ArrangeEdge) * (size_t)p->nedges;
	unsigned char *k = xmalloc(size);
	size_t at = put(k, 0, dims, sizeof dims);
	at = put(k, at, shape, sizeof shape);
	at = put(k, at, p->group_racks, sizeof(int) * (size_t)G);
	at = put(k, at, p->allowed, sizeof(bool) * (size_t)(n + 1));
	at = put(k, at, p->edges, sizeof(ArrangeEdge) * (size_t)p->nedges);
	at = put(k, at, key, sizeof(int) * (size_t)G);
	size_t got = 0;
	const int *v = share_get("arrange", k, at, &got);
	int moves;
	if (v && got == sizeof(int) * (size_t)(G + 2)) {
		memcpy(key, v, sizeof(int) * (size_t)G);
		moves = v[G];
		*sweeps = v[G + 1];
		p->total_group_racks = 0;
		for (int g = 0; g < G; g++)
			p->total_group_racks += p->group_racks[g];
	} else {
		moves = optimise(p, key, max_sweeps, sweeps);
		int *out = xmalloc(sizeof(int) * (size_t)(G + 2));
		memcpy(out, key, sizeof(int) * (size_t)G);
		out[G] = moves;
		out[G + 1] = *sweeps;
		share_put("arrange", k, at, out, sizeof(int) * (size_t)(G + 2));
		free(out);
	}
	free(k);
	return moves;
}

double arrange_exact(const ArrangeProblem *p, int *key)
{
	int G = p->ngroups, n = p->nracks;
	int *k = xmalloc(sizeof(int) * (size_t)(G + 1));
	for (int g = 0; g < G; g++)
		k[g] = 0;
	double best = INFINITY;
	for (;;) {
		bool ok = true;
		for (int g = 0; g < G && ok; g++)
			ok = p->allowed[k[g]];
		if (ok) {
			double c = arrange_cost(p, k);
			if (c < best - 1e-9) {
				best = c;
				memcpy(key, k, sizeof(int) * (size_t)G);
			}
		}
		int g = 0;
		while (g < G && ++k[g] > n)
			k[g++] = 0;
		if (g == G)
			break;
	}
	free(k);
	return best;
}

void arrange_positions(const ArrangeProblem *p, const int *key, int *order)
{
	int n = p->nracks, G = p->ngroups;
	int *seq = xmalloc(sizeof(int) * (size_t)(n + G + 1));
	int *first = xmalloc(sizeof(int) * (size_t)(G + 1));
	layout(p, key, seq, first);
	for (int j = 0; j < n; j++)
		order[j] = seq[j];
	for (int g = 0; g < G; g++)
		order[n + g] = first[g];
	free(seq);
	free(first);
}
