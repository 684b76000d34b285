/*
 * test_rewire.c — the minimal rewiring (passes/opt/rewire.c, after Zhao et al., NSDI 2019):
 * a case by hand, and 200 random small cases whose kept links the integer program must match
 * to a brute force over every count matrix the constraints allow (tests/expand.sh grows whole
 * builds).
 */
#include "passes.h"

#include <CUnit/CUnit.h>
#include <string.h>

void suite_rewire(void);

enum { MAXA = 4, MAXB = 3 };

/* The most links any count matrix within the bounds keeps: a depth-first search over pairs. */
static int best;

static void search(const RewireProblem *p, int e, int *x, int *rowleft, int *colleft, int kept)
{
	if (e == p->na * p->nb) {
		for (int i = 0; i < p->na; i++)
			if (rowleft[i])
				return;
		if (kept > best)
			best = kept;
		return;
	}
	int i = e / p->nb, j = e % p->nb;
	for (int v = p->lo[e]; v <= p->hi[e]; v++) {
		if (v > rowleft[i] || v > colleft[j])
			break;
		x[e] = v, rowleft[i] -= v, colleft[j] -= v;
		search(p, e + 1, x, rowleft, colleft, kept + (v < p->old[e] ? v : p->old[e]));
		rowleft[i] += v, colleft[j] += v;
	}
}

static int brute_force(const RewireProblem *p)
{
	int x[MAXA * MAXB], rowleft[MAXA], colleft[MAXB];
	memcpy(rowleft, p->row, sizeof(int) * (size_t)p->na);
	memcpy(colleft, p->col, sizeof(int) * (size_t)p->nb);
	best = -1;
	search(p, 0, x, rowleft, colleft, 0);
	return best;
}

/* 2 leaves of 3 up links over 2 spines (1 or 2 a pair, 3 a spine); the prior build had
 * leaf 0 with 3 links to spine 0, leaf 1 with 3 to spine 1: 2 of each kept, 2 moved. */
static void test_by_hand(void)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	int lo[] = {1, 1, 1, 1}, hi[] = {2, 2, 2, 2}, old[] = {3, 0, 0, 3}, row[] = {3, 3}, col[] = {3, 3};
	RewireProblem p = {2, 2, lo, hi, old, row, col};
	RewireResult r;
	CU_ASSERT_EQUAL(rewire_counts(c, &p, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.status, "optimal");
	CU_ASSERT_EQUAL(r.kept, 4);
	CU_ASSERT_EQUAL(r.moved, 2);
	CU_ASSERT_EQUAL(r.x[0], 2);
	CU_ASSERT_EQUAL(r.x[3], 2);
	/* Room on the upper switches decides: spine 1 can take 4, so both leaves keep all 3. */
	int roomy[] = {6, 6};
	p.col = roomy;
	CU_ASSERT_EQUAL(rewire_counts(c, &p, &r), 0);
	CU_ASSERT_EQUAL(r.kept, 4); /* the bounds still cap a pair at 2 */
	/* Prior counts that are a plan already: kept whole, no program. */
	int fits[] = {2, 1, 1, 2};
	p.old = fits;
	CU_ASSERT_EQUAL(rewire_counts(c, &p, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.status, "none");
	CU_ASSERT_EQUAL(r.kept, 6);
	CU_ASSERT_EQUAL(r.moved, 0);
	CU_ASSERT_EQUAL(r.x[1], 1);
	/* Counts the bounds fix: no program at all. */
	int flo[] = {2, 2}, fold[] = {4, 0}, frow[] = {4}, fcol[] = {2, 2};
	RewireProblem q = {1, 2, flo, flo, fold, frow, fcol};
	CU_ASSERT_EQUAL(rewire_counts(c, &q, &r), 0);
	CU_ASSERT_STRING_EQUAL(r.status, "none");
	CU_ASSERT_EQUAL(r.moved, 2);
	ctx_free(c);
}

static unsigned lcg(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/* Random Clos tiers: na leaves of u up links spread over nb spines as a round robin does
 * (the new plan: leaf i's link k to spine (i + k) mod nb), random prior counts. */
static void test_brute_force(void)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	unsigned seed = 19;
	int checked = 0, moved_some = 0;
	for (int t = 0; t < 200; t++) {
		int na = 1 + (int)(lcg(&seed) % MAXA), nb = 2 + (int)(lcg(&seed) % (MAXB - 1));
		int u = 1 + (int)(lcg(&seed) % 5);
		int lo[MAXA * MAXB], hi[MAXA * MAXB], old[MAXA * MAXB], row[MAXA], col[MAXB] = {0};
		int slack = (int)(lcg(&seed) % 3); /* free ports an upper switch has beyond the plan */
		for (int i = 0; i < na; i++) {
			row[i] = u;
			for (int k = 0; k < u; k++)
				col[(i + k) % nb]++;
			for (int j = 0; j < nb; j++) {
				int reach = u < nb ? u : nb;
				bool on = u >= nb || (j - i % nb + nb) % nb < u;
				lo[i * nb + j] = on ? u / reach : 0;
				hi[i * nb + j] = on ? (u + reach - 1) / reach : 0;
				old[i * nb + j] = (int)(lcg(&seed) % 4);
			}
		}
		for (int j = 0; j < nb; j++)
			col[j] += slack;
		RewireProblem p = {na, nb, lo, hi, old, row, col};
		RewireResult r;
		CU_ASSERT_EQUAL_FATAL(rewire_counts(c, &p, &r), 0);
		int want = brute_force(&p);
		CU_ASSERT_EQUAL(r.kept, want);
		/* The counts it returns are a plan: rows, columns and bounds hold. */
		for (int i = 0; i < na; i++) {
			int s = 0;
			for (int j = 0; j < nb; j++) {
				s += r.x[i * nb + j];
				CU_ASSERT(r.x[i * nb + j] >= lo[i * nb + j] && r.x[i * nb + j] <= hi[i * nb + j]);
			}
			CU_ASSERT_EQUAL(s, row[i]);
		}
		for (int j = 0; j < nb; j++) {
			int s = 0;
			for (int i = 0; i < na; i++)
				s += r.x[i * nb + j];
			CU_ASSERT(s <= col[j]);
		}
		checked++;
		moved_some += r.moved > 0;
	}
	CU_ASSERT_EQUAL(checked, 200);
	CU_ASSERT(moved_some > 50); /* the cases exercise moves, not only keeps */
	ctx_free(c);
}

void suite_rewire(void)
{
	CU_pSuite s = CU_add_suite("rewire", NULL, NULL);
	CU_add_test(s, "a case by hand", test_by_hand);
	CU_add_test(s, "against brute force", test_brute_force);
}
