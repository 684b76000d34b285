/*
 * compare_physical.c — a compare worker's physical builds kept: its rows that build the same
 * physical design build it once (docs/performance.md, issue 23, "Fourteenth session").
 *
 * The physical passes (wire, mount, keep, verify, cable, trunk, heat, verify-media) are some 70 %
 * of a row of a sweep (docs/performance.md, issue 23), and the points of a sweep over prices and
 * budgets build the very same racks, fabric and cables again and again. A worker keeps what those
 * passes did in a row (PhysBuild: the state before them, and the arena's delta, the Design's,
 * Program's and Ctx's bytes after them) and a later row whose state before them is the kept
 * one's, but for bytes those passes neither read nor write, gets the same physical build
 * replayed into it instead of running them (compare_physical_kept, the hook pipeline.c calls
 * before wire). Byte for byte, the row is then what running them would have made:
 *
 * - the state compared is every byte the passes can reach: the arena's (the parse rewound to
 *   the same addresses, every allocation since made in the same order: arena_same_layout, the
 *   same chunks and top), the Design, the Program and the Ctx, and the interner's count;
 * - where the two rows differ (Δ) must be the consequence of overrides that no pass from wire to
 *   verify-media reads, nor reads anything an earlier pass computed from them (physical_free,
 *   the declared dependencies below), the open choices decided apart: those must be equal;
 * - Δ holds no pointer into the arena (in either row), so every object the passes reach is at
 *   the same address in both, and the kept passes wrote none of Δ's bytes.
 * Anything else (another scenario, another override, a choice decided otherwise, a layout that
 * moved, a string the passes interned, a pointer they left outside the arena) and the passes
 * run as ever.
 * CLUSTERC_NO_SHARE turns it off with the other shared results (tests/compare.sh compares).
 *
 * The declared dependencies (physical_free): the fields an override of which may differ between
 * rows that share a physical build, and when. Their readers, by the code at 3f718fd:
 * - site.power_budget: decide (choice.c, optimize.c: the choices, the budget's slack) and judge
 *   (judge.c: the requirements, after the physical passes); none of the physical passes, but the
 *   cable stage evaluates the objectives (judge_weights: how much a watt weighs against money
 *   in its choice of media), so not when an objective names a power_budget (objective_reads).
 * - site.electricity: design_init (Design.electricity), read by the cost model (model.c) and the
 *   planner (plan.c); the cable stage's judge_weights reaches the cost model through the
 *   objectives, so only in a program without objectives (then it weighs nothing but money).
 *   examples/wanka.cluster has one (capex and the energy over the horizon): its sweeps over the
 *   electricity price build each price's cables anew (the media choice's own memo, cage.c, then
 *   serves them), and share them between power budgets.
 *   Why not shared there whenever the media come out the same (opt15, read at 7154754): the
 *   price reaches the passes as the weights of judge_weights (judge.c), a finite difference of
 *   each objective (probes of 1e6 money and 1e3 W, four model_design runs) at the design's state
 *   of the moment, and that moment is inside the span: at the cable stage's start
 *   (cable_fabrics, cable.c) and again in trunk's re-choice of a fabric whose channels exceed an
 *   optic's reach (reach_channels -> cable_choose_again -> choose_fabric), after the cables and
 *   their media are made. A kept build holds the state before and after the span, not those,
 *   so a later row's weights there cannot be had without running the passes up to them; nor
 *   follow from the kept row's (a finite difference at another price rounds otherwise, even for
 *   an objective linear in it). The media memo's WattRange (cage.c) says per cage_choose call
 *   at which watt weights its comparisons come out the same, which decides nothing without the
 *   row's own weight at that call. And the Δ check sees writes, not reads: declared free here,
 *   the flagship's sweep of 20 prices (and its base row) replays 19 of them from the first's
 *   build, files equal to those without sharing (tried on this branch and reverted): because
 *   the media choice had margin at those prices, not by anything the replay checked. Exact
 *   would need, in the kept row's run, judge_weights evaluated at each of its calls for the
 *   prices of the rows left (known: compare_physical_rows), and each cage_choose call's
 *   WattRange kept with the build (hooks in judge.c and cage.c); a row replays when at every
 *   call its money weight equals the kept one and its watt weight lies in the call's range
 *   (trunk's re-choice then takes the same branch); plus an argument that the state at each
 *   call differs from the kept row's only by the price and the cost model's outputs, which
 *   model_design rewrites before judge_eval reads them. Left (docs/performance.md, "Fifteenth
 *   session, sweeps").
 * "the kept passes wrote none of Δ's bytes" sees only the bytes whose value they changed: a byte
 * a pass overwrites with the value it already held (heat_racks' per-run peaks, d->vsource) is
 * not seen, and a row that differs there would keep its own value where a real run overwrites
 * it. Nothing such a pass writes derives from these two fields today (the code at 3f718fd);
 * a field added here must be checked for what the passes overwrite from it, not only for what
 * they read (the emit and sweep review of the fourteenth session). */
#include "compare_physical.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum { FREE_ALWAYS, FREE_WITHOUT_OBJECTIVES } FreeWhen;

static const struct {
	int kind;
	const char *field;
	FreeWhen when;
} physical_free[] = {
	{KIND_SITE, "power_budget", FREE_ALWAYS},
	{KIND_SITE, "electricity", FREE_WITHOUT_OBJECTIVES},
};

/* Whether an expression may read a member named `field`: any form other than numbers, names,
 * members and arithmetic counts as reading it. */
static bool expr_may_read(const Expr *e, const char *field)
{
	switch (e->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_BOOL:
	case EXPR_NAME: return false;
	case EXPR_MEMBER: return !strcmp(e->member.field, field) || expr_may_read(e->member.base, field);
	case EXPR_PAREN:
	case EXPR_NEG: return expr_may_read(e->inner, field);
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV: return expr_may_read(e->bin.l, field) || expr_may_read(e->bin.r, field);
	default: return true;
	}
}

/* Whether an objective of the program may read `field` (judge_weights evaluates them all). */
static bool objective_reads(const Program *p, const char *field)
{
	for (int i = 0; i < p->objectives.n; i++)
		if (expr_may_read(((const Stmt *)p->objectives.v[i])->objective.expr, field))
			return true;
	return false;
}

enum { PHYS_KEPT = 4 };
/* The structures are compared a word at a time (phys_struct_ok): each holds pointers, so its size
 * is a whole number of them. */
_Static_assert(sizeof(Design) % 8 == 0 && sizeof(Program) % 8 == 0 && sizeof(Ctx) % 8 == 0,
	       "Design, Program and Ctx compared by words");

typedef struct PhysBuild {
	ArenaMark *pre;       /* the arena before wire */
	ArenaDelta *delta;    /* what the physical passes did to it */
	Design d_pre, d_post;
	Program p_pre, p_post;
	Ctx c_pre, c_post;
	size_t interned;
	char *scenario;       /* the row's scenario (NULL: the base) and overrides, as written */
	char **sets;
	int nsets;
	int *chosen;          /* each open choice's option (Decision.chosen_index) */
	int nchosen;
	unsigned long stamp;  /* last used: the oldest goes first */
	int cls;              /* the row's class (row_class), -1 when the rows are not known */
} PhysBuild;

static PhysBuild phys[PHYS_KEPT];
static int nphys;
static unsigned long phys_clock;
static PhysBuild phys_next; /* the state before wire of the row whose passes run now */
static int phys_reused, phys_built, phys_kept; /* for the tests (CLUSTERC_TEST_PHYSICAL) */

static void phys_free(PhysBuild *b)
{
	arena_mark_free(b->pre);
	arena_delta_free(b->delta);
	free(b->scenario);
	for (int i = 0; i < b->nsets; i++)
		free(b->sets[i]);
	free(b->sets);
	free(b->chosen);
	*b = (PhysBuild){0};
}

/* Override i's path ("hall_b.power_budget"), its length into *n. */
static const char *set_path(const char *text, size_t *n)
{
	const char *eq = strchr(text, '=');
	*n = eq ? (size_t)(eq - text) : strlen(text);
	while (*n && (text[*n - 1] == ' ' || text[*n - 1] == '\t'))
		(*n)--;
	return text;
}

/* Whether the override's path is DECL.FIELD with FIELD one the physical passes do not read
 * (physical_free) in this program. */
static bool set_physical_free(const Program *p, const char *text)
{
	size_t n;
	const char *path = set_path(text, &n);
	const char *dot = memchr(path, '.', n);
	if (!dot || memchr(dot + 1, '.', n - (size_t)(dot + 1 - path)))
		return false;
	size_t nd = (size_t)(dot - path), nf = n - nd - 1;
	for (size_t k = 0; k < sizeof physical_free / sizeof *physical_free; k++) {
		const char *field = physical_free[k].field;
		if (strlen(field) != nf || memcmp(field, dot + 1, nf))
			continue;
		if (physical_free[k].when == FREE_WITHOUT_OBJECTIVES ? p->objectives.n > 0
								       : objective_reads(p, field))
			return false;
		for (int i = 0; i < p->decls.n; i++) {
			const Decl *d = p->decls.v[i];
			if (d->kind == physical_free[k].kind && strlen(d->name) == nd &&
			    !memcmp(d->name, path, nd))
				return true;
		}
	}
	return false;
}

/* ---- the one form of "the same but for physical_free values" ------------------------------
 *
 * A row's class key: its scenario, and each override as written, or 'f' and its path alone
 * where its value is free (set_physical_free). Each part ends in a NUL, which no scenario or
 * override holds, so two keys are equal just where the scenarios are and the overrides are, one
 * by one, the same text or the same path of a free field. That is phys_same_sets' old predicate
 * (texts equal, or paths equal and free): set_physical_free reads only the path, so equal texts
 * give equal parts, and unequal texts equal parts only as 'f' and one path. Both the classes
 * (row_key) and the replay's check (phys_same_sets) are this key. */
static void key_scenario(Buf *key, const char *scenario)
{
	buf_putc(key, scenario ? 's' : 'b');
	if (scenario)
		buf_put(key, scenario, strlen(scenario) + 1);
}
static void key_set(const Program *p, const char *t, Buf *key)
{
	size_t n;
	set_path(t, &n);
	if (set_physical_free(p, t)) {
		buf_putc(key, 'f');
		buf_put(key, t, n);
	} else {
		buf_putc(key, 'w');
		buf_puts(key, t);
	}
	buf_put(key, "", 1);
}

static bool keys_equal(const Buf *a, const Buf *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* The row's scenario and overrides against the kept build's: the same class key. */
static bool phys_same_sets(const PhysBuild *b, const Program *p)
{
	if (b->nsets != p->nsets)
		return false;
	Buf kb = {0}, kp = {0};
	key_scenario(&kb, b->scenario);
	key_scenario(&kp, p->scenario);
	for (int i = 0; i < p->nsets; i++) {
		key_set(p, b->sets[i], &kb);
		key_set(p, p->sets[i].text, &kp);
	}
	bool same = keys_equal(&kb, &kp);
	buf_free(&kb);
	buf_free(&kp);
	return same;
}

/* ---- which rows could take a row's build --------------------------------------------------
 *
 * A build is replayed only into a row of the same scenario and the same overrides but for the
 * values of physical_free fields (phys_same_sets), which the worker knows of all its rows before
 * the first (compare_physical_rows): rows alike in that way are a class. A build is kept only
 * while a row of its class is left that the worker has not begun, and dropped once none is:
 * a sweep whose points share nothing keeps nothing (a scale-100k sweep of 6 `row_pitch` points
 * on one worker kept a copy of its 100,000-GPU arena for each row: 801 MiB at its peak, 582
 * without, docs/performance.md, "Fifteenth session, sweeps"). Rows handed to other workers count as
 * left (the worker does not know which it will be handed): keeping is conservative, and
 * whether a build is kept never changes a row (each replay checks all of phys_replay). The
 * classes come from the program of the worker's first row that reaches the hook: the parse, and
 * so the declarations and objectives set_physical_free reads, is the same in every row (the
 * overrides and scenarios rewrite values, not those). */
static const PhysRow *rows;
static int nrows, row_now = -1;
static bool *row_begun;  /* by this worker */
static int *row_class;   /* each row's class (phys_classify) */
static int *class_left;  /* each class's rows the worker has not begun */

void compare_physical_rows(const PhysRow *r, int n)
{
	rows = r, nrows = n;
	row_begun = xmalloc(sizeof *row_begun * (size_t)(n + 1));
	memset(row_begun, 0, sizeof *row_begun * (size_t)(n + 1));
}

void compare_physical_row(int i)
{
	row_now = i >= 0 && i < nrows ? i : -1;
	if (row_now < 0 || row_begun[i])
		return;
	row_begun[i] = true;
	if (row_class)
		class_left[row_class[i]]--;
}

/* A row's class key (key_scenario, key_set). */
static void row_key(const Program *p, const PhysRow *r, Buf *key)
{
	key_scenario(key, r->scenario);
	for (int i = 0; i < r->nsets; i++)
		key_set(p, r->sets[i].text, key);
}

static const Buf *sort_keys; /* phys_classify's, for key_order */

static int key_order(const void *x, const void *y)
{
	int i = *(const int *)x, j = *(const int *)y;
	const Buf *a = &sort_keys[i], *b = &sort_keys[j];
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	int c = memcmp(a->s, b->s, a->len);
	return c ? c : (i > j) - (i < j);
}

/* The rows' classes: their keys sorted, equal keys one class (n log n: sweeps of thousands). */
static void phys_classify(const Program *p)
{
	Buf *keys = xmalloc(sizeof *keys * (size_t)(nrows + 1));
	int *order = xmalloc(sizeof *order * (size_t)(nrows + 1));
	for (int i = 0; i < nrows; i++) {
		keys[i] = (Buf){0};
		row_key(p, &rows[i], &keys[i]);
		order[i] = i;
	}
	sort_keys = keys;
	qsort(order, (size_t)nrows, sizeof *order, key_order);
	row_class = xmalloc(sizeof *row_class * (size_t)(nrows + 1));
	class_left = xmalloc(sizeof *class_left * (size_t)(nrows + 1));
	int cls = -1;
	for (int k = 0; k < nrows; k++) {
		if (k == 0 || !keys_equal(&keys[order[k - 1]], &keys[order[k]]))
			class_left[++cls] = 0;
		row_class[order[k]] = cls;
		class_left[cls] += !row_begun[order[k]];
	}
	for (int i = 0; i < nrows; i++)
		buf_free(&keys[i]);
	free(keys);
	free(order);
}

/* Drops the kept builds no row left can take, but the current row (of class cls). */
static void phys_drop_spent(int cls)
{
	for (int i = 0; i < nphys;) {
		if (phys[i].cls >= 0 && phys[i].cls != cls && class_left[phys[i].cls] == 0) {
			phys_free(&phys[i]);
			phys[i] = phys[--nphys];
			phys[nphys] = (PhysBuild){0};
		} else {
			i++;
		}
	}
}

typedef struct PhysCheck {
	const PhysBuild *b;
	const Arena *a;
	bool ok;
} PhysCheck;

/* A word of Δ that could be a pointer (as either row has it): into the arena, or anywhere a
 * pointer of this process could be (x86-64 Linux puts the heap and the mappings between 2^44
 * and 2^47; a number's bits rarely fall there, and when they do the passes just run). */
static bool pointer_like(const PhysCheck *k, uintptr_t v)
{
	return (v >= (uintptr_t)1 << 44 && v < (uintptr_t)1 << 47) || arena_holds(k->a, v) ||
	       arena_delta_holds(k->b->delta, v);
}

static bool phys_pointer(const PhysCheck *k, const unsigned char *now, const unsigned char *then,
			 size_t at, size_t n)
{
	for (size_t w = at & ~(size_t)7; w < at + n; w += 8) {
		uintptr_t x, y;
		memcpy(&x, now + w, sizeof x);
		memcpy(&y, then + w, sizeof y);
		if (pointer_like(k, x) || pointer_like(k, y))
			return true;
	}
	return false;
}

/* arena_diff's callback: a run of the arena's Δ; the words round it are read whole. */
static bool phys_arena_run(void *arg, unsigned char *now, const unsigned char *then, size_t n)
{
	PhysCheck *k = arg;
	uintptr_t lo = (uintptr_t)now & ~(uintptr_t)7;
	size_t skew = (size_t)((uintptr_t)now - lo);
	if (phys_pointer(k, now - skew, then - skew, skew, n) ||
	    arena_delta_writes(k->b->delta, now, n))
		k->ok = false;
	return k->ok;
}

/* Δ of a structure outside the arena (the Design, Program, Ctx: their sizes are whole words):
 * no pointer in it, and none of its bytes written by the kept passes (before and after equal). */
static bool phys_struct_ok(const PhysCheck *k, const void *now, const void *pre, const void *post,
			   size_t size)
{
	const unsigned char *x = now, *y = pre, *z = post;
	for (size_t w = 0; w + 8 <= size; w += 8)
		if (memcmp(x + w, y + w, 8) && (memcmp(y + w, z + w, 8) || phys_pointer(k, x, y, w, 8)))
			return false;
	return true;
}

/* after: the bytes of `post` with the bytes where `now` differs from `pre` kept from `now`. */
static void phys_struct_apply(void *now, const void *pre, const void *post, size_t size)
{
	unsigned char *x = now;
	const unsigned char *y = pre, *z = post;
	for (size_t i = 0; i < size; i++)
		if (x[i] == y[i])
			x[i] = z[i];
}

/* The open choices decided as the kept row decided them (each option's position). */
static bool phys_same_choices(const PhysBuild *b, const Design *d)
{
	if (d->decisions.n != b->nchosen)
		return false;
	for (int i = 0; i < d->decisions.n; i++)
		if (((const Decision *)d->decisions.v[i])->chosen_index != b->chosen[i])
			return false;
	return true;
}

/* Replays build b into the row (true), or leaves it as it is (false). */
static bool phys_replay(PhysBuild *b, Design *d)
{
	Program *p = d->p;
	Ctx *c = d->c;
	/* the chunks the kept build added still kept, before anything asks the delta of them */
	if (!phys_same_sets(b, p) || ctx_interned(c) != b->interned ||
	    !arena_same_layout(c->arena, b->pre) || !phys_same_choices(b, d) ||
	    !arena_delta_ready(b->delta))
		return false;
	PhysCheck k = {b, c->arena, true};
	Program pn;
	memcpy(&pn, p, sizeof pn); /* every byte, padding too: compared as bytes */
	pn.sets = b->p_pre.sets; /* compared above, as written */
	pn.scenario = b->p_pre.scenario;
	if (!phys_struct_ok(&k, d, &b->d_pre, &b->d_post, sizeof *d) ||
	    !phys_struct_ok(&k, &pn, &b->p_pre, &b->p_post, sizeof pn) ||
	    !phys_struct_ok(&k, c, &b->c_pre, &b->c_post, sizeof *c) ||
	    !arena_diff(b->pre, phys_arena_run, &k) || !k.ok)
		return false;
	if (!arena_delta_apply(c->arena, b->delta))
		return false;
	phys_struct_apply(d, &b->d_pre, &b->d_post, sizeof *d);
	const CliOverride *sets = p->sets;
	const char *scenario = p->scenario;
	p->sets = b->p_pre.sets, p->scenario = b->p_pre.scenario;
	phys_struct_apply(p, &b->p_pre, &b->p_post, sizeof *p);
	p->sets = sets, p->scenario = scenario;
	phys_struct_apply(c, &b->c_pre, &b->c_post, sizeof *c);
	b->stamp = ++phys_clock;
	return true;
}

/* Whether every word of a structure the passes changed that could be a pointer points into the
 * arena: one to memory of their own (malloc's) would not be theirs to replay. */
static bool arena_only(const Arena *a, const ArenaDelta *dl, const void *now, const void *pre,
		       size_t size)
{
	const unsigned char *x = now, *y = pre;
	for (size_t w = 0; w + 8 <= size; w += 8) {
		uintptr_t v;
		memcpy(&v, x + w, sizeof v);
		if (memcmp(x + w, y + w, 8) && v >= (uintptr_t)1 << 44 && v < (uintptr_t)1 << 47 &&
		    !arena_holds(a, v) && !arena_delta_holds(dl, v))
			return false;
	}
	return true;
}

bool compare_physical_kept(Design *d, bool after)
{
	Ctx *c = d->c;
	Program *p = d->p;
	if (!after) {
		if (rows && !row_class)
			phys_classify(p);
		int cls = row_class && row_now >= 0 ? row_class[row_now] : -1;
		if (row_class)
			phys_drop_spent(cls);
		for (int i = 0; i < nphys; i++)
			if (phys_replay(&phys[i], d)) {
				phys_reused++;
				return true;
			}
		phys_built++;
		phys_free(&phys_next);
		if (cls >= 0 && class_left[cls] == 0)
			return false; /* no row left could take it: not kept */
		phys_next.cls = cls;
		phys_next.pre = arena_mark(c->arena);
		memcpy(&phys_next.d_pre, d, sizeof *d); /* as bytes, padding too */
		memcpy(&phys_next.p_pre, p, sizeof *p);
		memcpy(&phys_next.c_pre, c, sizeof *c);
		phys_next.interned = ctx_interned(c);
		return false;
	}
	if (!phys_next.pre || ctx_interned(c) != phys_next.interned) {
		phys_free(&phys_next);
		return false;
	}
	phys_next.delta = arena_delta(c->arena, phys_next.pre);
	if (!phys_next.delta || !arena_only(c->arena, phys_next.delta, d, &phys_next.d_pre, sizeof *d) ||
	    !arena_only(c->arena, phys_next.delta, p, &phys_next.p_pre, sizeof *p) ||
	    !arena_only(c->arena, phys_next.delta, c, &phys_next.c_pre, sizeof *c)) {
		phys_free(&phys_next);
		return false;
	}
	memcpy(&phys_next.d_post, d, sizeof *d);
	memcpy(&phys_next.p_post, p, sizeof *p);
	memcpy(&phys_next.c_post, c, sizeof *c);
	phys_next.scenario = p->scenario ? xstrdup(p->scenario) : NULL;
	phys_next.nsets = p->nsets;
	phys_next.sets = xmalloc(sizeof *phys_next.sets * (size_t)(p->nsets + 1));
	for (int i = 0; i < p->nsets; i++)
		phys_next.sets[i] = xstrdup(p->sets[i].text);
	phys_next.nchosen = d->decisions.n;
	phys_next.chosen = xmalloc(sizeof *phys_next.chosen * (size_t)(d->decisions.n + 1));
	for (int i = 0; i < d->decisions.n; i++)
		phys_next.chosen[i] = ((const Decision *)d->decisions.v[i])->chosen_index;
	phys_next.stamp = ++phys_clock;
	int slot = nphys;
	if (nphys == PHYS_KEPT) {
		slot = 0;
		for (int i = 1; i < nphys; i++)
			if (phys[i].stamp < phys[slot].stamp)
				slot = i;
		phys_free(&phys[slot]);
	} else {
		nphys++;
	}
	phys[slot] = phys_next;
	phys_next = (PhysBuild){0};
	phys_kept++;
	return false;
}

void compare_physical_report(FILE *f)
{
	fprintf(f, "clusterc: a worker: physical passes run %d, replayed %d, kept %d\n", phys_built,
		phys_reused, phys_kept);
}
