/*
 * cage.c — the media of every switch cage, chosen once for all the links that share it
 * (docs/placement.md, "Cages, modules and assemblies").
 *
 * A switch cage holds ports / cages physical ports (a QM9700's twin-port OSFP cage: 2), each
 * split into lanes at the link speed (ir_switch_port), and takes exactly one part: a module
 * (transceiver) that carries all its lanes, or the head of one assembly (a twin-port DAC, a
 * 1:2 or 1:4 breakout). Two links in one cage therefore share a choice, and so do the links at
 * the far ends of theirs: the links are grouped by union-find over the cages they meet, and
 * each group gets one plan, the best of
 *  - an assembly: one cable whose head (its `ports` lanes, as many as the cage has) fits one
 *    cage that holds every link of the group, whose `breakout` legs each carry ports/breakout
 *    lanes into a cage of exactly that many lanes, or into a NIC port (one lane; assemblies come
 *    with the NIC end the NIC needs);
 *  - optics over one fibre type: in every cage the best module of that fibre and plug that
 *    fits it, whose ports x speed fit the cage and whose ports divide its lanes (k lanes a
 *    module port); in every NIC port the best single-port module; between them a straight
 *    fibre per link, or, where a module port carries k > 1 lanes to k single-lane ends, one
 *    1:k splitter fibre for those k links (NVIDIA's MFP7E20/MFP7E40 for NDR200 from a twin-port
 *    module). An optical circuit switch end takes the fibre alone, within its reach.
 * Plans are weighed like single media were (what price and power add to the first objective
 * the cables change; ties: the cheaper, then the one drawing less, then the one declared
 * first). Every choice is physically possible by construction; verify_media (verify_media.c)
 * proves it again on the result.
 *
 * Cost: the cages are found through a table of every switch's cages (CageIndex), O(n); a
 * group's plan looks at each catalogue entry once per cage of the group, and the module that
 * serves an end is remembered by what decides it (module_for), so a 100,000-GPU fabric (a few
 * hundred thousand links, a catalogue of about twenty media) is chosen in linear time.
 */
#include "cable.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The weights per watt at which every choice of one call would come out the same (the memo
 * below): a choice compares two weighs, money * dp + watt * dw against -off, and came out
 * s * (money * dp + watt * dw + off) > 0 (s = 1 also for a >= 0 that held). It comes out the
 * same at any watt' of the sign sigma (u = sigma * watt' >= 0) where that holds by a margin
 * far beyond the rounding of either side: s * (money * dp + watt' * dw + off) > MARGIN *
 * (|money| * P + |watt'| * W + 1 + |off|), P and W the sums of the magnitudes compared; a
 * condition linear in u, so the u kept is an interval (lo, hi). A choice between two weighs
 * of the very same operands is the same at any watt (the same expression, bit for bit) and
 * keeps nothing; a tie that is not that pins the call to its own watt. */
typedef struct WattRange {
	double money;
	int sigma;
	double lo, hi;
	bool pinned;
} WattRange;

/* A cage met by the links of this call: the cables with an end in it, by lane. */
typedef struct CageRec {
	int first, count; /* into CageCtx.byc: (cable << 1 | end) of its links, by lane */
	int group;
	int16_t lanes;    /* at most CAGE_LANES_MAX (CageEnd's) */
	int16_t conn;     /* Connector of the cage */
} CageRec; /* 16 bytes, one for each of the 525,000 cages of the 262k dragonfly; the bit/s it
	    * carries are its ends' (cage_room) */

typedef struct CageCtx {
	const Catalogue *cat;
	Weights w;
	CableInst *c;
	const CageEnd *a, *z;
	int n;
	int *byc;       /* sorted cage keys' members: cable << 1 | end (a cable count is an int) */
	int *cage_of;   /* per cable end (2i + e): its CageRec, or -1 */
	CageRec *cages;
	int ncages;
	int *up;        /* union-find over cables (then each cable's group: cage_choose_now) */
	int *loc;       /* per cable: its place in its group (g->cables[loc[i]] == i), which
			 * indexes the group's EndPick tables */
	const CageIndex *index;
	const Design *d;
	int *seen;      /* per accelerator, then per extra device: links that took a module */
	struct ModuleMemo *memo;
	const Medium **optics, **plans; /* the catalogue's modules; its cables (plans' parts) */
	int noptics, nplans;
	struct GroupMemo **group_slot; /* nslots (a power of two): the signature there, or NULL
					* (best_plan) */
	size_t nslots;
	int ngroups;                /* the signatures remembered */
	struct MemoBlock *blocks;   /* their records (memo_room) */
	unsigned char *written;     /* per cable: 1 once choose_group wrote its medium (the memo) */
	const Medium *st_m;         /* the last stocked length asked (stocked) */
	const struct ModuleMemo *last_module; /* the entry of the last module asked (module_for) */
	double st_run, st_len;
	WattRange *range;           /* the watts per unit weight with the same choices (the memo) */
} CageCtx;

void cage_tables_init(CageTables *t, size_t total)
{
	t->arena = total >= CAGE_TABLES_HUGE ? arena_new() : NULL;
	t->n = 0;
}

void *cage_tables_get(CageTables *t, size_t each, size_t n, bool zero)
{
	if (n && each > (SIZE_MAX - 64) / n)
		die_oom();
	if (t->arena)
		return arena_alloc(t->arena, each * n);
	if (t->n == CAGE_TABLES_MAX)
		die_invariant(__FILE__, __LINE__, "more scratch tables than CAGE_TABLES_MAX");
	size_t bytes = each * n;
	void *p = zero ? calloc(bytes ? bytes : 1, 1) : malloc(bytes ? bytes : 1);
	if (!p)
		die_oom();
	return t->block[t->n++] = p;
}

void cage_tables_free(CageTables *t)
{
	arena_free(t->arena);
	for (int i = 0; i < t->n; i++)
		free(t->block[i]);
	t->arena = NULL, t->n = 0;
}

double cage_stocked(const Medium *m, double run)
{
	if (run > m->reach + 1e-9)
		return -1;
	if (m->nlengths) {
		for (int k = 0; k < m->nlengths; k++)
			if (m->lengths[k] >= run - 1e-9)
				return m->lengths[k];
		return -1;
	}
	double whole = ceil(run - 1e-9);
	return whole <= m->reach + 1e-9 ? whole : m->reach;
}

/* cage_stocked(m, run), the last answer remembered: the cables of a group, and groups after
 * one another, mostly ask the same (1.4 million asks on the 262k dragonfly, each a scan of
 * the stocked lengths). */
static double stocked(CageCtx *x, const Medium *m, double run)
{
	if (m != x->st_m || run != x->st_run)
		x->st_m = m, x->st_run = run, x->st_len = cage_stocked(m, run);
	return x->st_len;
}

static const CageEnd *end_spot(const CageCtx *x, int i, int e)
{
	return e ? &x->z[i] : &x->a[i];
}

/* The bit/s cage r carries: its first end's (every end of a cage has the cage's). */
static double cage_room(const CageCtx *x, const CageRec *r)
{
	int m = x->byc[r->first];
	return end_spot(x, m >> 1, m & 1)->room;
}

static int root(int *up, int v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

static double weigh(Weights w, double price, double power)
{
	return w.money * price + w.watt * power;
}

#define WATT_MARGIN 1e-6

static void range_keep(WattRange *r, double dp, double dw, double P, double W, double off, int s)
{
	if (!r)
		return;
	if (!isfinite(dp) || !isfinite(dw) || !isfinite(P) || !isfinite(W)) {
		r->pinned = true;
		return;
	}
	double A = s * r->sigma * dw - WATT_MARGIN * W;
	double B = WATT_MARGIN * (fabs(r->money) * P + 1 + fabs(off)) - s * (r->money * dp + off);
	if (A > 0)
		r->lo = fmax(r->lo, B / A);
	else if (A < 0)
		r->hi = fmin(r->hi, B / A);
	else if (!(B < 0))
		r->pinned = true;
}

static bool fits(const Medium *m, int cage)
{
	return m->cage < 0 || cage < 0 || m->cage == cage;
}

/* The cages the cables meet (records in the order first met, each one's links by lane), and
 * the cables united through them. A record's `first` is its first cable until its links are
 * sorted, and its `group` (the caller's to set after) where its next link goes while they are:
 * no table of their own (fresh memory, docs/performance.md, "Stages before emit, twelfth
 * session"). */
static void find_cages(CageCtx *x, CageTables *t)
{
	x->cages = cage_tables_get(t, sizeof(CageRec), 2 * (size_t)x->n + 1, false);
	x->ncages = 0;
	int nk = 0;
	for (int i = 0; i < x->n; i++) {
		x->up[i] = i;
		for (int e = 0; e < 2; e++) {
			const CageEnd *s = end_spot(x, i, e);
			x->cage_of[2 * i + e] = -1;
			if (s->sw < 0 || s->cage_no < 0)
				continue;
			int id = x->index->base[s->sw] + s->cage_no;
			assert(id < x->index->base[s->sw + 1]);
			if (x->index->slot[id] < 0) {
				x->index->slot[id] = x->ncages;
				x->cages[x->ncages++] = (CageRec){.first = i, .lanes = s->lanes, .conn = s->cage};
			}
			int r = x->index->slot[id];
			x->cage_of[2 * i + e] = r;
			x->cages[r].count++;
			nk++;
			int ra = root(x->up, x->cages[r].first), rb = root(x->up, i);
			if (ra != rb)
				x->up[rb > ra ? rb : ra] = rb > ra ? ra : rb;
		}
	}
	/* Members by record (counting sort), then by lane inside each (a cage has a few). */
	x->byc = cage_tables_get(t, sizeof(int), (size_t)nk + 1, false);
	for (int r = 0, at = 0; r < x->ncages; r++)
		x->cages[r].group = x->cages[r].first = at, at += x->cages[r].count;
	for (int i = 0; i < x->n; i++)
		for (int e = 0; e < 2; e++) {
			int r = x->cage_of[2 * i + e];
			if (r < 0)
				continue;
			int m = i << 1 | e;
			int j = x->cages[r].group++;
			for (; j > x->cages[r].first; j--) {
				int p = x->byc[j - 1];
				if (end_spot(x, p >> 1, p & 1)->lane <= end_spot(x, i, e)->lane)
					break;
				x->byc[j] = p;
			}
			x->byc[j] = m;
			const CageEnd *sp = end_spot(x, i, e);
			x->index->slot[x->index->base[sp->sw] + sp->cage_no] = -1;
		}
}

/* A plan for one group of cables. */
typedef struct Plan {
	const Medium *assembly;         /* the assembly serving the whole group, or NULL */
	const Medium *fibre, *splitter; /* optics: straight fibre, and the splitter where needed */
	double length;                  /* the assembly's */
	double cost, price, power;
	bool ok;
} Plan;

static bool plan_better(const CageCtx *x, const Plan *p, const Plan *best)
{
	if (!best->ok)
		return true;
	if (fabs(p->cost - best->cost) > 1e-9 * fmax(1e-9, fmax(fabs(p->cost), fabs(best->cost)))) {
		bool r = p->cost < best->cost;
		range_keep(x->range, p->price - best->price, p->power - best->power,
			   fabs(p->price) + fabs(best->price), fabs(p->power) + fabs(best->power), 0,
			   r ? -1 : 1);
		return r;
	}
	if (x->range && (p->price != best->price || p->power != best->power))
		x->range->pinned = true;
	if (fabs(p->price - best->price) > 1e-9 * fmax(1, best->price))
		return p->price < best->price;
	return p->power < best->power - 1e-12;
}

typedef struct Group {
	const int *cables; /* ascending */
	int n;
	const int *cages;
	int ncages;
	double speed, run; /* the fastest link, the longest run */
	bool ocs;          /* an end at an optical circuit switch */
} Group;

/* The one assembly `m` serves group g whole, or false. */
static bool assembly_fits(const CageCtx *x, const Group *g, const Medium *m, double *len)
{
	if (m->optic || m->media == MEDIA_FIBER || g->ocs || m->speed < g->speed * (1 - 1e-9))
		return false;
	if (m->legs < 1 || m->ports % m->legs)
		return false;
	*len = cage_stocked(m, g->run);
	if (*len < 0)
		return false;
	int per_leg = m->ports / m->legs;
	int head = -1;
	for (int k = 0; k < g->ncages; k++)
		if (head < 0 || x->cages[g->cages[k]].count > x->cages[head].count)
			head = g->cages[k];
	if (head < 0) /* a link between two ends without cages */
		return g->n == 1 && m->ports == 1 && m->legs == 1 && fits(m, x->a[g->cables[0]].nic ? -1 : x->a[g->cables[0]].cage) &&
		       fits(m, x->z[g->cables[0]].nic ? -1 : x->z[g->cables[0]].cage);
	const CageRec *h = &x->cages[head];
	if (h->count != g->n || h->lanes != m->ports || !fits(m, h->conn))
		return false;
	/* Every far end: a cage of per_leg lanes holding only this group's links, or a NIC port
	 * (or another end without a cage), one leg each. */
	int legs = 0;
	for (int k = 0; k < g->ncages; k++) {
		const CageRec *r = &x->cages[g->cages[k]];
		if (g->cages[k] == head)
			continue;
		if (r->lanes != per_leg || !fits(m, r->conn))
			return false;
		legs++;
	}
	for (int k = 0; k < g->n; k++) {
		int i = g->cables[k];
		for (int e = 0; e < 2; e++)
			if (x->cage_of[2 * i + e] < 0) {
				if (per_leg != 1 || !fits(m, end_spot(x, i, e)->nic ? -1 : end_spot(x, i, e)->cage))
					return false;
				legs++;
			}
	}
	return legs <= m->legs;
}

/* The best module of fibre plan `f` for an end of `lanes` lanes (a NIC port: 1, single-port
 * modules only) in a cage `conn` carrying `room` bit/s, over links of `speed` whose fibres are
 * `len` m at most; NULL when none fits. */
/* module_for's answers, remembered: a fabric has a few dozen distinct questions (cage kinds,
 * fibre plans, stocked lengths) and hundreds of thousands of ends that ask them. A direct-
 * mapped table: a collision only costs the answer again. */
typedef struct ModuleMemo {
	const Medium *f, *answer;
	int conn, lanes;
	bool nic, used;
	double room, speed, len;
} ModuleMemo;

#define MODULE_MEMO 512

static const Medium *module_search(const CageCtx *x, const Medium *f, int conn, int lanes,
				   double room, bool nic, double speed, double len);

static const Medium *module_for(CageCtx *x, const Medium *f, int conn, int lanes, double room,
				bool nic, double speed, double len)
{
	/* The last question first: the cages of a large group mostly ask it again. */
	const ModuleMemo *l = x->last_module;
	if (l && l->f == f && l->conn == conn && l->lanes == lanes && l->nic == nic &&
	    l->room == room && l->speed == speed && l->len == len)
		return l->answer;
	uint64_t bits[3];
	memcpy(&bits[0], &len, sizeof len);
	memcpy(&bits[1], &speed, sizeof speed);
	memcpy(&bits[2], &room, sizeof room);
	uint64_t h = (uint64_t)(f - x->cat->m) * 0x9e3779b97f4a7c15u;
	h ^= (uint64_t)(conn + 7) * 0xff51afd7ed558ccdu + (uint64_t)lanes * 31 + (uint64_t)nic;
	h ^= bits[0] * 0xc4ceb9fe1a85ec53u ^ bits[1] * 131 ^ bits[2] * 8191;
	h ^= h >> 29;
	ModuleMemo *e = &x->memo[(h ^ h >> 31) % MODULE_MEMO];
	x->last_module = e;
	if (e->used && e->f == f && e->conn == conn && e->lanes == lanes && e->nic == nic &&
	    e->room == room && e->speed == speed && e->len == len)
		return e->answer;
	const Medium *o = module_search(x, f, conn, lanes, room, nic, speed, len);
	*e = (ModuleMemo){f, o, conn, lanes, nic, true, room, speed, len};
	return o;
}

static const Medium *module_search(const CageCtx *x, const Medium *f, int conn, int lanes,
				   double room, bool nic, double speed, double len)
{
	const Medium *best = NULL;
	for (int k = 0; k < x->noptics; k++) {
		const Medium *o = x->optics[k];
		if (!o->optic || o->fiber < 0 || o->fiber != f->fiber || o->reach < len - 1e-9 ||
		    (o->plug >= 0 && f->plug >= 0 && o->plug != f->plug) || !fits(o, conn))
			continue;
		bool free_end = lanes == 0; /* no cage modelled: any module, its ports shared */
		if (nic ? o->ports != 1 || o->speed < speed * (1 - 1e-9)
		    : free_end ? o->speed < speed * (1 - 1e-9)
			       : lanes % o->ports || o->speed < speed * (lanes / o->ports) * (1 - 1e-9) ||
					 (room > 0 && o->ports * o->speed > room * (1 + 1e-9)))
			continue;
		double unit = free_end ? o->ports : 1, best_unit = best && free_end ? best->ports : 1;
		if (!best)
			best = o;
		else if (weigh(x->w, o->price, o->power) / unit <
			 weigh(x->w, best->price, best->power) / best_unit - 1e-9) {
			if (o->price != best->price || o->power != best->power || unit != best_unit)
				range_keep(x->range, o->price / unit - best->price / best_unit,
					   o->power / unit - best->power / best_unit,
					   fabs(o->price / unit) + fabs(best->price / best_unit),
					   fabs(o->power / unit) + fabs(best->power / best_unit), 1e-9, -1);
			best = o;
		} else if (o->price != best->price || o->power != best->power || unit != best_unit) {
			range_keep(x->range, o->price / unit - best->price / best_unit,
				   o->power / unit - best->power / best_unit,
				   fabs(o->price / unit) + fabs(best->price / best_unit),
				   fabs(o->power / unit) + fabs(best->power / best_unit), 1e-9, 1);
		}
	}
	return best;
}

/* The splitter fibre of plan f's fibre type for 1:k, or NULL. */
static const Medium *splitter_for(const CageCtx *x, const Medium *f, int k, double run)
{
	const Medium *best = NULL;
	for (int j = 0; j < x->cat->n; j++) {
		const Medium *s = &x->cat->m[j];
		if (s->optic || s->media != MEDIA_FIBER || s->legs != k || s->fiber != f->fiber ||
		    (s->plug >= 0 && f->plug >= 0 && s->plug != f->plug) || cage_stocked(s, run) < 0)
			continue;
		double len = cage_stocked(s, run);
		if (!best) {
			best = s;
			continue;
		}
		double ps = s->price + s->price_per_m * len;
		double pb = best->price + best->price_per_m * cage_stocked(best, run);
		bool r = weigh(x->w, ps, s->power) < weigh(x->w, pb, best->power);
		if (ps != pb || s->power != best->power)
			range_keep(x->range, ps - pb, s->power - best->power, fabs(ps) + fabs(pb),
				   fabs(s->power) + fabs(best->power), 0, r ? -1 : 1);
		if (r)
			best = s;
	}
	return best;
}

/* Per end of the group's cables: the module chosen under a fibre plan, and lanes per module
 * port there (1 at a NIC; 0 at an OCS end, which takes no module). The tables of them hold one
 * group: cable i's ends at 2 * loc[i] and 2 * loc[i] + 1. */
typedef struct EndPick {
	const Medium *o;
	int k;
} EndPick;

/* The fibre of the cable at place k of its group under plan p: a splitter from a split module
 * port to single-lane ends; else the straight fibre (also between two module ports split
 * alike, whose lanes it carries together). */
static const Medium *fibre_of(const Plan *p, int k, const EndPick *pick)
{
	return (pick[2 * k].k > 1) != (pick[2 * k + 1].k > 1) ? p->splitter : p->fibre;
}

/* The module port of cable i's end e (k lanes a port): the first cable of its lanes (by
 * lane) into *first, how many into *legs. */
static void module_port(const CageCtx *x, int i, int e, int k, int *first, int *legs)
{
	const CageRec *r = &x->cages[x->cage_of[2 * i + e]];
	int port = end_spot(x, i, e)->lane / k;
	*first = -1, *legs = 0;
	for (int j = r->first; j < r->first + r->count; j++) {
		int ii = x->byc[j] >> 1, ee = x->byc[j] & 1;
		if (end_spot(x, ii, ee)->lane / k == port) {
			*first = *first < 0 ? ii : *first;
			(*legs)++;
		}
	}
}

/* Whether every lane of cable i's A-end module port goes to its Z-end module port, split the
 * same way: one straight fibre then carries them all. */
static bool ports_paired(const CageCtx *x, int i, const EndPick *pick)
{
	int ka = pick[2 * x->loc[i]].k, kz = pick[2 * x->loc[i] + 1].k;
	if (ka != kz)
		return false;
	const CageRec *r = &x->cages[x->cage_of[2 * i]];
	int port = x->a[i].lane / ka, far = x->cage_of[2 * i + 1], far_port = x->z[i].lane / kz;
	for (int j = r->first; j < r->first + r->count; j++) {
		int ii = x->byc[j] >> 1, ee = x->byc[j] & 1;
		if (ee != 0 || x->a[ii].lane / ka != port)
			continue;
		if (x->cage_of[2 * ii + 1] != far || x->z[ii].lane / kz != far_port)
			return false;
	}
	return true;
}

/* The head end of the multi-lane fibre of the cable at place k of its group under pick (the
 * split module port's end; A when both are split), or -1 for a fibre of its own. */
static int fibre_head(int k, const EndPick *pick)
{
	return pick[2 * k].k > 1 ? 0 : pick[2 * k + 1].k > 1 ? 1 : -1;
}

/* The longest run of the links of cage r (of the module port of `lane` when k > 0). */
static double cage_run(const CageCtx *x, const CageRec *r, int k, int lane)
{
	double run = 0;
	for (int j = r->first; j < r->first + r->count; j++) {
		int i = x->byc[j] >> 1, e = x->byc[j] & 1;
		if (k == 0 || end_spot(x, i, e)->lane / k == lane / k)
			run = fmax(run, x->c[i].run);
	}
	return run;
}

/* Plan `f` (a straight fibre) for group g: modules into pick[], cost into p; false when some
 * end or link has no part that serves it. */
static bool optics_fit(CageCtx *x, const Group *g, const Medium *f, Plan *p, EndPick *pick)
{
	if (f->optic || f->media != MEDIA_FIBER || f->legs != 1 || f->ports != 1)
		return false;
	*p = (Plan){.fibre = f};
	for (int k = 0; k < g->ncages; k++) {
		const CageRec *r = &x->cages[g->cages[k]];
		double run = cage_run(x, r, 0, 0), len = stocked(x, f, run);
		/* The module whose port count leaves the cheapest fibres (a splitter's reach may
		 * be shorter than the straight fibre's: NVIDIA's single-mode splitters, 50 m). */
		const Medium *o = module_for(x, f, r->conn, r->lanes, cage_room(x, r), false, g->speed,
					     len < 0 ? f->reach : len);
		if (!o || len < 0)
			return false;
		int lanes_per_port = r->lanes / o->ports;
		for (int j = r->first; j < r->first + r->count; j++) {
			int i = x->byc[j] >> 1, e = x->byc[j] & 1;
			pick[2 * x->loc[i] + e] = (EndPick){o, lanes_per_port};
		}
		p->price += o->price, p->power += o->power;
	}
	for (int k = 0; k < g->n; k++) {
		int i = g->cables[k]; /* x->loc[i] == k */
		double flen = 0; /* stocked(x, f, run) once it is asked for */
		bool have = false;
		for (int e = 0; e < 2; e++) {
			const CageEnd *s = end_spot(x, i, e);
			if (x->cage_of[2 * i + e] >= 0)
				continue;
			if (!have)
				flen = stocked(x, f, x->c[i].run), have = true;
			if (s->ocs) {
				if (flen > s->reach + 1e-9)
					return false;
				pick[2 * k + e] = (EndPick){NULL, 0};
				continue;
			}
			const Medium *o = module_for(x, f, s->cage, s->nic ? 1 : 0, s->room, s->nic, g->speed,
						     flen);
			if (!o)
				return false;
			pick[2 * k + e] = (EndPick){o, 1};
			p->price += o->price / o->ports, p->power += o->power / o->ports;
		}
		if (!pick[2 * k].o && !pick[2 * k + 1].o)
			return false; /* fibre between two OCS ports */
		int head = fibre_head(k, pick);
		if (head < 0) {
			double len = have ? flen : stocked(x, f, x->c[i].run);
			if (len < 0)
				return false;
			p->price += f->price + f->price_per_m * len, p->power += f->power;
			continue;
		}
		/* Lanes of a split module port: to single-lane ends through one splitter, or
		 * to a module port split alike through one straight fibre; else nothing joins
		 * them (two split ports to different places). */
		int kh = pick[2 * k + head].k, first, legs;
		bool both = pick[2 * k + 1 - head].k > 1;
		if (both && !ports_paired(x, i, pick))
			return false;
		const CageRec *r = &x->cages[x->cage_of[2 * i + head]];
		double run = cage_run(x, r, kh, end_spot(x, i, head)->lane);
		if (!both && !p->splitter)
			p->splitter = splitter_for(x, f, kh, run);
		const Medium *fib = both ? f : p->splitter;
		if (!fib || (!both && fib->legs != kh) || cage_stocked(fib, run) < 0)
			return false;
		module_port(x, i, head, kh, &first, &legs);
		if (first == i)
			p->price += fib->price + fib->price_per_m * cage_stocked(fib, run), p->power += fib->power;
	}
	p->cost = weigh(x->w, p->price, p->power);
	p->ok = true;
	return true;
}

static End end_of_cable(const CageCtx *x, int i, int e)
{
	const LinkInst *l = &x->d->links[x->c[i].link];
	return e ? l->z : l->a;
}

/* How many links of device end `e` (an accelerator's or an extra device's) took a module
 * before this one. */
static int free_seen(CageCtx *x, End e)
{
	int k = e.kind == END_ACCEL ? e.dev : e.kind == END_EXTRA ? x->d->naccels + e.dev : -1;
	return k >= 0 ? x->seen[k]++ : 0;
}

/* Plans of small groups remembered: a group of a few cages and links (a leaf's twin-port cage
 * and two nodes; two leaves' and two spines' cages) is decided by its cages, its ends and its
 * runs alone, and a large fabric repeats a few thousand of them tens of thousands of times
 * (runs come from rack coordinates and U). The signatures met, in an open-addressed table of
 * slots that index them (linear probing, at most half full, doubled as they come, up to
 * GROUP_SLOTS_MAX slots; past that a new signature is chosen and not kept). A direct-mapped
 * table of 4,096 slots, overwritten on collision, chose a fifth of the k = 64 fat tree's
 * 196,608 groups again (39,327 times for its 14,623 signatures; docs/performance.md, "Stages
 * before emit, tenth session"). */
#define GROUP_SLOTS 4096
#define GROUP_SLOTS_MAX (1 << 18)
#define GROUP_MEMO_MAX 8

/* A signature as words, only those it uses (len): the speed; n and ncages; per cable its run,
 * its ends' room and its ends (group cage + 1) << 20 | lane << 12 | nic << 11 | conn, two to
 * a word; per cage its room and conn << 16 | lanes << 8 | count. Doubles by their bits, so
 * two signatures are equal exactly when their words are. */
enum { GROUP_SIG_WORDS = 2 + 4 * GROUP_MEMO_MAX + 2 * GROUP_MEMO_MAX };
typedef struct GroupSig {
	int len;
	uint64_t w[GROUP_SIG_WORDS];
} GroupSig;

/* A signature remembered, with its plan: one record, its words and then its plan's picks (two
 * a cable) after it, in blocks that never move (memo_room). Records of their own size, one
 * look-up reading one place: with whole signatures and pick tables (740 bytes each) in a table
 * doubled as it grew, the dragonfly's 9,145 came to 12 MB of fresh pages, 5 % of its stages
 * before emit in page clearing (perf, a cold run). */
typedef struct GroupMemo {
	uint64_t hash;
	Plan plan;
	int len, npicks;
	uint64_t w[]; /* len words, then npicks EndPicks */
} GroupMemo;

static const EndPick *memo_picks(const GroupMemo *e)
{
	return (const EndPick *)(e->w + e->len);
}

typedef struct MemoBlock {
	struct MemoBlock *next;
	size_t used, size;
	_Alignas(16) unsigned char mem[];
} MemoBlock;

enum { MEMO_BLOCK = 256 << 10 };

/* n bytes (a multiple of 16) for a record, in the current block or a new one. */
static void *memo_room(CageCtx *x, size_t n)
{
	MemoBlock *b = x->blocks;
	if (!b || b->used + n > b->size) {
		size_t size = n > MEMO_BLOCK ? n : MEMO_BLOCK;
		b = xmalloc(sizeof *b + size);
		*b = (MemoBlock){x->blocks, 0, size};
		x->blocks = b;
	}
	void *p = b->mem + b->used;
	b->used += n;
	return p;
}

static inline uint64_t sig_word(double v)
{
	uint64_t w;
	memcpy(&w, &v, sizeof w);
	return w;
}

/* The signature of group g, or false when it is not one the memo keeps. */
static bool group_sig(const CageCtx *x, const Group *g, GroupSig *sig)
{
	if (g->ncages > GROUP_MEMO_MAX || g->n > GROUP_MEMO_MAX || g->ocs)
		return false;
	uint64_t *w = sig->w;
	*w++ = sig_word(g->speed);
	*w++ = (uint64_t)(uint32_t)g->n << 32 | (uint32_t)g->ncages;
	for (int k = 0; k < g->n; k++) {
		int i = g->cables[k];
		uint32_t end[2];
		*w++ = sig_word(x->c[i].run);
		for (int e = 0; e < 2; e++) {
			const CageEnd *s = end_spot(x, i, e);
			int r = x->cage_of[2 * i + e], local = 0;
			while (r >= 0 && g->cages[local] != r)
				local++;
			end[e] = (uint32_t)((r >= 0 ? local + 1 : 0) << 20 | (s->lane & 255) << 12 |
					    s->nic << 11 | (s->cage + 2));
			*w++ = sig_word(s->room);
		}
		*w++ = (uint64_t)end[0] << 32 | end[1];
	}
	for (int k = 0; k < g->ncages; k++) {
		const CageRec *r = &x->cages[g->cages[k]];
		*w++ = sig_word(cage_room(x, r));
		*w++ = (uint32_t)((r->conn + 2) << 16 | r->lanes << 8 | r->count);
	}
	sig->len = (int)(w - sig->w);
	return true;
}

static uint64_t sig_hash(const GroupSig *sig)
{
	/* Four interleaved chains (so that their multiplications overlap). The hash only
	 * picks where to look (the words decide), so any mixing that spreads them serves. */
	uint64_t h[4] = {1469598103934665603u, 0x9e3779b97f4a7c15u, 0xff51afd7ed558ccdu,
			 0xc4ceb9fe1a85ec53u};
	for (int k = 0; k < sig->len; k++) {
		uint64_t v = (h[k & 3] ^ sig->w[k]) * 1099511628211u;
		h[k & 3] = v ^ v >> 32;
	}
	uint64_t r = (h[0] ^ (h[1] * 31) ^ (h[2] * 1021) ^ (h[3] * 65599)) * 0x9e3779b97f4a7c15u;
	return r ^ r >> 29;
}

/* The slot of signature sig (hash h): the one holding it, or the empty one where it goes. */
static GroupMemo **group_slot(const CageCtx *x, const GroupSig *sig, uint64_t h)
{
	for (size_t k = (size_t)h & (x->nslots - 1);; k = (k + 1) & (x->nslots - 1)) {
		GroupMemo **slot = &x->group_slot[k];
		const GroupMemo *e = *slot;
		if (!e || (e->hash == h && e->len == sig->len &&
			   memcmp(e->w, sig->w, sizeof sig->w[0] * (size_t)sig->len) == 0))
			return slot;
	}
}

/* Room for one more signature, or false when the table is as large as it grows and half full.
 * Doubling moves every record to its slot in the new table. */
static bool group_room(CageCtx *x)
{
	if (2 * ((size_t)x->ngroups + 1) <= x->nslots)
		return true;
	if (2 * x->nslots > GROUP_SLOTS_MAX)
		return false;
	GroupMemo **old = x->group_slot;
	size_t nold = x->nslots;
	x->nslots *= 2;
	x->group_slot = calloc(x->nslots, sizeof *x->group_slot);
	if (!x->group_slot)
		die_oom();
	for (size_t k = 0; k < nold; k++)
		if (old[k]) {
			size_t at = (size_t)old[k]->hash & (x->nslots - 1);
			while (x->group_slot[at])
				at = (at + 1) & (x->nslots - 1);
			x->group_slot[at] = old[k];
		}
	free(old);
	return true;
}

/* The best plan of group g into best and best_pick (by g's cables); false when none. */
static bool best_plan(CageCtx *x, const Group *g, EndPick *pick, EndPick *best_pick, Plan *out)
{
	GroupSig sig;
	uint64_t hash = 0;
	bool memo = group_sig(x, g, &sig);
	if (memo) {
		hash = sig_hash(&sig);
		const GroupMemo *e = *group_slot(x, &sig, hash);
		if (e) {
			memcpy(best_pick, memo_picks(e), sizeof *best_pick * (size_t)e->npicks);
			*out = e->plan;
			return out->ok;
		}
	}
	Plan best = {0};
	for (int j = 0; j < x->nplans; j++) {
		const Medium *m = x->plans[j];
		double len;
		Plan p = {0};
		if (assembly_fits(x, g, m, &len)) {
			double price = m->price + m->price_per_m * len;
			p = (Plan){m, NULL, NULL, len, weigh(x->w, price, m->power), price, m->power, true};
		} else if (!optics_fit(x, g, m, &p, pick)) {
			continue;
		}
		if (plan_better(x, &p, &best)) {
			best = p;
			if (!p.assembly)
				memcpy(best_pick, pick, sizeof *best_pick * 2 * (size_t)g->n);
		}
	}
	if (memo && group_room(x)) {
		size_t nw = sizeof sig.w[0] * (size_t)sig.len;
		size_t np = sizeof *best_pick * 2 * (size_t)g->n;
		GroupMemo *e = memo_room(x, (sizeof *e + nw + np + 15) & ~(size_t)15);
		*e = (GroupMemo){hash, best, sig.len, 2 * g->n};
		memcpy(e->w, sig.w, nw);
		memcpy(e->w + sig.len, best_pick, np); /* memo_picks(e) */
		*group_slot(x, &sig, hash) = e;
		x->ngroups++;
	}
	*out = best;
	return best.ok;
}

/* The group's best plan, written into its cables; false when nothing serves it. */
static bool choose_group(CageCtx *x, const Group *g, int base, EndPick *pick, EndPick *best_pick)
{
	Plan best;
	if (!best_plan(x, g, pick, best_pick, &best))
		return false;
	for (int k = 0; k < g->n; k++) {
		int i = g->cables[k];
		CableInst *c = &x->c[i];
		const CageEnd *sa = &x->a[i], *sz = &x->z[i];
		if (x->written)
			x->written[i] = 1;
		c->cage_a = sa->cage_no, c->lane_a = sa->lane;
		c->cage_z = sz->cage_no, c->lane_z = sz->lane;
		if (best.assembly) {
			const Medium *m = best.assembly;
			c->cable = m->part, c->optic_a = c->optic_z = NULL;
			c->length = best.length;
			c->price = best.price / g->n, c->power = best.power / g->n;
			c->media = m->media, c->fiber = m->fiber;
			c->module_a = c->module_z = false;
			c->assembly = base + g->cables[0];
			continue;
		}
		const Medium *fib = fibre_of(&best, k, best_pick);
		c->cable = fib->part, c->media = fib->media, c->fiber = fib->fiber;
		c->price = c->power = 0;
		c->assembly = base + i;
		for (int e = 0; e < 2; e++) {
			EndPick *pk = &best_pick[2 * k + e];
			int r = x->cage_of[2 * i + e];
			const Part *o = pk->o ? pk->o->part : NULL;
			const CageEnd *sp = end_spot(x, i, e);
			bool free_end = o && r < 0 && !sp->nic;
			int share = r >= 0 ? x->cages[r].count : free_end ? o->optic.ports : 1;
			/* The cage's module is counted on its first link (by lane); at an end without
			 * a cage, a multi-port module on every ports-th link of its device. */
			bool counts = o && (r >= 0 ? x->byc[x->cages[r].first] == (i << 1 | e)
					    : !free_end || free_seen(x, end_of_cable(x, i, e)) % o->optic.ports == 0);
			*(e ? &c->optic_z : &c->optic_a) = o;
			*(e ? &c->module_z : &c->module_a) = counts;
			if (o)
				c->price += o->price / share, c->power += o->power / share;
		}
		int head = fibre_head(k, best_pick);
		if (head >= 0) {
			/* A leg of a multi-lane fibre: counted on the first leg of the module
			 * port's lanes, at the longest leg's length. */
			int kh = best_pick[2 * k + head].k, first, legs;
			module_port(x, i, head, kh, &first, &legs);
			const CageRec *cr = &x->cages[x->cage_of[2 * i + head]];
			c->assembly = base + first;
			c->length = cage_stocked(fib, cage_run(x, cr, kh, end_spot(x, i, head)->lane));
			double cost = fib->price + fib->price_per_m * c->length;
			c->price += cost / legs, c->power += fib->power / legs;
		} else {
			c->length = stocked(x, fib, c->run);
			c->price += fib->price + fib->price_per_m * c->length;
			c->power += fib->power;
		}
	}
	return true;
}

static int cage_choose_now(const Design *d, const CageIndex *index, const Catalogue *cat, Weights w,
			   CableInst *c, const CageEnd *a, const CageEnd *z, int n, int first,
			   unsigned char *written, WattRange *range)
{
	/* Every table of the call (some 170 bytes a cable) in huge pages when they are large
	 * (CageTables, cable.h). */
	CageTables s;
	cage_tables_init(&s, (size_t)n * 170);
	CageCtx x = {.cat = cat, .w = w, .c = c, .a = a, .z = z, .n = n,
		     .cage_of = cage_tables_get(&s, sizeof(int), 2 * (size_t)n + 2, false),
		     .up = cage_tables_get(&s, sizeof(int), (size_t)n + 1, false), .index = index, .d = d,
		     .seen = cage_tables_get(&s, sizeof(int), (size_t)(d->naccels + d->nextras + 1), true),
		     .memo = cage_tables_get(&s, sizeof(ModuleMemo), MODULE_MEMO, true),
		     .group_slot = calloc(GROUP_SLOTS, sizeof(GroupMemo *)), .nslots = GROUP_SLOTS,
		     .written = written, .range = range};
	x.optics = cage_tables_get(&s, sizeof(Medium *), (size_t)cat->n + 1, false);
	x.plans = cage_tables_get(&s, sizeof(Medium *), (size_t)cat->n + 1, false);
	for (int j = 0; j < cat->n; j++) {
		if (cat->m[j].optic)
			x.optics[x.noptics++] = &cat->m[j];
		else
			x.plans[x.nplans++] = &cat->m[j];
	}
	if (!x.group_slot)
		die_oom();
	find_cages(&x, &s);
	/* Groups in the order of their first cable; their cables and cages by counting sort. Each
	 * cable's group in place of its parent in the union-find: a parent is never after its
	 * child (find_cages keeps the lower root), so up[up[i]] holds the group by then. */
	int *gid = x.up, ngroups = 0;
	for (int i = 0; i < n; i++)
		gid[i] = gid[i] == i ? ngroups++ : gid[gid[i]];
	int *start = cage_tables_get(&s, sizeof(int), (size_t)ngroups + 2, true);
	int *cstart = cage_tables_get(&s, sizeof(int), (size_t)ngroups + 2, true);
	int *members = cage_tables_get(&s, sizeof(int), (size_t)n + 1, false);
	int *cmembers = cage_tables_get(&s, sizeof(int), (size_t)x.ncages + 1, false);
	for (int i = 0; i < n; i++)
		start[gid[i] + 1]++;
	for (int r = 0; r < x.ncages; r++) {
		x.cages[r].group = gid[x.byc[x.cages[r].first] >> 1];
		cstart[x.cages[r].group + 1]++;
	}
	for (int gi = 0; gi < ngroups; gi++)
		start[gi + 1] += start[gi], cstart[gi + 1] += cstart[gi];
	for (int i = 0; i < n; i++)
		members[start[gid[i]]++] = i;
	for (int r = 0; r < x.ncages; r++)
		cmembers[cstart[x.cages[r].group]++] = r;
	/* gid's last use is above: it holds each cable's place in its group from here */
	int most = 0;
	x.loc = gid;
	for (int gi = 0, at = 0; gi < ngroups; gi++) {
		for (int k = at; k < start[gi]; k++)
			x.loc[members[k]] = k - at;
		most = start[gi] - at > most ? start[gi] - at : most;
		at = start[gi];
	}
	EndPick *pick = cage_tables_get(&s, sizeof(EndPick), 2 * (size_t)most + 2, false);
	EndPick *best_pick = cage_tables_get(&s, sizeof(EndPick), 2 * (size_t)most + 2, false);
	int bad = -1, from = 0, cfrom = 0;
	for (int gi = 0; gi < ngroups; gi++) {
		Group g = {members + from, start[gi] - from, cmembers + cfrom, cstart[gi] - cfrom, 0, 0, false};
		for (int k = 0; k < g.n; k++) {
			int i = g.cables[k];
			/* fmax's result without its call (neither is ever NaN here) */
			double speed = d->links[c[i].link].speed;
			g.speed = speed > g.speed ? speed : g.speed;
			g.run = c[i].run > g.run ? c[i].run : g.run;
			g.ocs |= a[i].ocs || z[i].ocs;
		}
		if (!choose_group(&x, &g, first, pick, best_pick) && bad < 0)
			bad = g.cables[0];
		from = start[gi], cfrom = cstart[gi];
	}
	for (MemoBlock *b = x.blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(x.group_slot);
	cage_tables_free(&s);
	return bad;
}

/* ---- the memo across designs (a compare worker; docs/performance.md) ------------------------
 *
 * The points of a sweep mostly cable the same fabrics: a worker of `clusterc compare`
 * (cage_memo_keep) remembers each call's result by everything the choice reads, and a later
 * call with the same inputs copies it instead of choosing again. The key holds, word for word:
 * the weight per unit of money, n and first, the cage index, every medium of the catalogue (its
 * part's index, every figure of Medium, its stocked lengths, and the part's optic.ports, price
 * and power that choose_group reads), and per cable its link and run, the link's speed and its
 * ends' kinds and devices (free_seen), and every field of its two CageEnds (the ends' racks
 * and U are not there: only the run, already in the key, came from them). Keys compare
 * whole (a hash of their head only picks the candidates). The weight per watt is not in the key: a result
 * serves the watt it was chosen at and any other at which each of its comparisons comes out
 * the same by a wide margin (WattRange above), and only what the weights decide depends on
 * them (prices, powers and lengths are the parts'). The electricity price of a sweep moves that
 * weight, and the media rarely change with it. The result is the fields choose_group writes,
 * per cable that it wrote, with the parts as indexes into Design.parts, and the cable no medium
 * serves. */

typedef struct KeyCable {
	double run, speed, reach[2], room[2];
	int32_t link, kinds, dev[2], cage[2], sw[2], cage_no[2], lane[2], lanes[2];
} KeyCable; /* no padding: 6 doubles, 14 int32_t */

typedef struct KeyMedium {
	double speed, reach, price, price_per_m, power, part_price, part_power;
	int32_t part, optic, media, fiber, cage, plug, ports, legs, nlengths, optic_ports;
} KeyMedium; /* 7 doubles, 10 int32_t */

typedef struct OutCable {
	double length, price, power;
	int32_t cable, optic_a, optic_z, media, fiber, cage_a, cage_z, lane_a, lane_z, assembly;
	unsigned char module_a, module_z, written;
} OutCable;

typedef struct Key {
	uint64_t hash;
	unsigned char *bytes;
	size_t n;
	int users;
} Key;

typedef struct CageMemo {
	Key *key;        /* NULL: an empty slot */
	double watt;     /* the weight per watt it was chosen at */
	WattRange range; /* and the others it serves */
	OutCable *out;
	int n, bad;
} CageMemo;

/* At most this many results, and this many bytes of keys and results, per process: the
 * oldest goes first. */
enum { CAGE_MEMOS = 64 };
#define CAGE_MEMO_BYTES ((size_t)256 << 20)

static bool memo_on;
static CageMemo memos[CAGE_MEMOS];
static int nmemos, memo_next;
static size_t memo_bytes;
static unsigned char *scratch; /* the key being built, kept from call to call */
static size_t scratch_cap;

void cage_memo_keep(bool on)
{
	memo_on = on;
}

static void *key_room(size_t *len, size_t more)
{
	if (*len + more > scratch_cap) {
		scratch_cap = 2 * (*len + more);
		scratch = xrealloc(scratch, scratch_cap);
	}
	void *at = scratch + *len;
	*len += more;
	return at;
}

/* The index of part p in Design.parts, or -2 when it is not there (then nothing is kept). */
static int32_t part_index(const Design *d, const Part *p)
{
	if (!p)
		return -1;
	return p >= d->parts && p < d->parts + d->nparts ? (int32_t)(p - d->parts) : -2;
}

/* The key's head: everything but the cables' records, which follow it (key_cables), aligned
 * for their doubles (the catalogue's part may end on any 4 bytes), the padding zeroed: the key is
 * compared byte for byte. Returns its length, padding included. */
static size_t memo_key(const Design *d, const CageIndex *index, const Catalogue *cat, Weights w,
		       int n, int first, bool *ok)
{
	size_t len = 0;
	memcpy(key_room(&len, sizeof w.money), &w.money, sizeof w.money);
	int32_t head[6] = {n, first, cat->n, d->nswitches, d->naccels, d->nextras};
	memcpy(key_room(&len, sizeof head), head, sizeof head);
	size_t nb = sizeof(int) * (size_t)(d->nswitches + 1);
	memcpy(key_room(&len, nb), index->base, nb);
	for (int j = 0; j < cat->n; j++) {
		const Medium *m = &cat->m[j];
		KeyMedium k = {m->speed, m->reach, m->price, m->price_per_m, m->power,
			       m->part ? m->part->price : 0, m->part ? m->part->power : 0,
			       part_index(d, m->part), m->optic, m->media, m->fiber, m->cage, m->plug,
			       m->ports, m->legs, m->nlengths,
			       m->optic && m->part ? m->part->optic.ports : 0};
		*ok = *ok && k.part != -2;
		memcpy(key_room(&len, sizeof k), &k, sizeof k);
		if (m->nlengths > 0) {
			size_t nl = sizeof(double) * (size_t)m->nlengths;
			memcpy(key_room(&len, nl), m->lengths, nl);
		}
	}
	size_t pad = (_Alignof(KeyCable) - len % _Alignof(KeyCable)) % _Alignof(KeyCable);
	memset(key_room(&len, pad), 0, pad);
	return len;
}

/* The records of cables [from, to) into k[0 .. to - from). */
static void key_cables(const Design *d, const CableInst *c, const CageEnd *a, const CageEnd *z,
		       int from, int to, KeyCable *k)
{
	for (int i = from; i < to; i++, k++) {
		const LinkInst *l = &d->links[c[i].link];
		const CageEnd *s[2] = {&a[i], &z[i]};
		k->run = c[i].run, k->speed = l->speed, k->link = c[i].link;
		k->kinds = l->a.kind | l->z.kind << 8 | s[0]->nic << 16 | s[0]->ocs << 17 |
			   s[1]->nic << 18 | s[1]->ocs << 19;
		k->dev[0] = l->a.dev, k->dev[1] = l->z.dev;
		for (int e = 0; e < 2; e++) {
			/* as when CageEnd kept both: the reach of an OCS end, else INFINITY */
			k->reach[e] = s[e]->ocs ? s[e]->reach : INFINITY;
			k->room[e] = s[e]->ocs ? 0 : s[e]->room;
			k->cage[e] = s[e]->cage, k->sw[e] = s[e]->sw, k->cage_no[e] = s[e]->cage_no;
			k->lane[e] = s[e]->lane, k->lanes[e] = s[e]->lanes;
		}
	}
}

/* Whether the cables' records equal kept ones (`kept`, n of them), made a batch at a time on
 * the stack and compared there: the 3 MB of the flagship's records are then neither written out
 * nor read back, only the kept copy is read. */
enum { KEY_BATCH = 64 };
static bool cables_equal(const Design *d, const CableInst *c, const CageEnd *a, const CageEnd *z,
			 int n, const unsigned char *kept)
{
	KeyCable batch[KEY_BATCH];
	for (int i = 0; i < n; i += KEY_BATCH) {
		int to = i + KEY_BATCH < n ? i + KEY_BATCH : n;
		key_cables(d, c, a, z, i, to, batch);
		if (memcmp(batch, kept + sizeof(KeyCable) * (size_t)i, sizeof(KeyCable) * (size_t)(to - i)))
			return false;
	}
	return true;
}

/* The hash that picks the candidates: the length and the head of the key (the weights, the
 * cage index and the catalogue, at most 4 kB of them); the comparison decides. Hashing the whole
 * key (3 MB for the flagship's fabric) cost as much as comparing it with the one or two kept. */
static uint64_t memo_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603u ^ n, w;
	size_t end = n < 4096 ? n : 4096, k = 0;
	for (; k + sizeof w <= end; k += sizeof w) {
		memcpy(&w, p + k, sizeof w);
		h = (h ^ w) * 1099511628211u;
		h ^= h >> 32;
	}
	for (; k < end; k++)
		h = (h ^ p[k]) * 1099511628211u;
	return h;
}

static const Part *part_at(const Design *d, int32_t i)
{
	return i >= 0 ? &d->parts[i] : NULL;
}

static bool memo_serves(const CageMemo *m, double watt)
{
	if (watt == m->watt)
		return true;
	double u = m->range.sigma * watt;
	return !m->range.pinned && u >= 0 && m->range.lo < u && u < m->range.hi;
}

static void memo_evict(void)
{
	CageMemo *m = &memos[memo_next];
	memo_bytes -= sizeof(OutCable) * (size_t)m->n;
	if (--m->key->users == 0) {
		memo_bytes -= m->key->n;
		free(m->key->bytes);
		free(m->key);
	}
	free(m->out);
	*m = (CageMemo){0};
	nmemos--;
}

int cage_choose(Design *d, const CageIndex *index, const Catalogue *cat, Weights w, CableInst *c,
		const CageEnd *a, const CageEnd *z, int n, int first)
{
	if (!memo_on)
		return cage_choose_now(d, index, cat, w, c, a, z, n, first, NULL, NULL);
	bool ok = isfinite(w.money) && isfinite(w.watt); /* else chosen, never kept nor served */
	size_t nhead = memo_key(d, index, cat, w, n, first, &ok);
	size_t nkey = nhead + sizeof(KeyCable) * (size_t)n;
	uint64_t hash = memo_hash(scratch, nhead) ^ nkey;
	Key *same = NULL; /* a key equal to this one, kept for an other watt */
	for (int k = 0; ok && k < CAGE_MEMOS; k++) {
		const CageMemo *m = &memos[k];
		if (!m->key || m->key->hash != hash || m->key->n != nkey ||
		    (m->key != same && (memcmp(m->key->bytes, scratch, nhead) ||
					!cables_equal(d, c, a, z, n, m->key->bytes + nhead))))
			continue;
		same = m->key;
		if (!memo_serves(m, w.watt))
			continue;
		for (int i = 0; i < n; i++) {
			const OutCable *o = &m->out[i];
			if (!o->written)
				continue;
			CableInst *ci = &c[i];
			ci->length = o->length, ci->price = o->price, ci->power = o->power;
			ci->cable = part_at(d, o->cable);
			ci->optic_a = part_at(d, o->optic_a), ci->optic_z = part_at(d, o->optic_z);
			ci->media = o->media, ci->fiber = o->fiber;
			ci->cage_a = o->cage_a, ci->cage_z = o->cage_z;
			ci->lane_a = o->lane_a, ci->lane_z = o->lane_z;
			ci->assembly = o->assembly;
			ci->module_a = o->module_a, ci->module_z = o->module_z;
		}
		return m->bad;
	}
	/* Not served: the whole key, as the choice found its inputs, for keeping. */
	size_t len = nhead;
	if (ok)
		key_cables(d, c, a, z, 0, n, key_room(&len, sizeof(KeyCable) * (size_t)n));
	unsigned char *written = calloc((size_t)n + 1, 1);
	if (!written)
		die_oom();
	WattRange range = {w.money, w.watt < 0 ? -1 : 1, -INFINITY, INFINITY, false};
	int bad = cage_choose_now(d, index, cat, w, c, a, z, n, first, written, &range);
	size_t bytes = (same ? 0 : nkey) + sizeof(OutCable) * (size_t)n;
	OutCable *out = ok && bytes <= CAGE_MEMO_BYTES ? xmalloc(sizeof(OutCable) * (size_t)(n + 1)) : NULL;
	for (int i = 0; out && i < n; i++) {
		const CableInst *ci = &c[i];
		out[i] = (OutCable){ci->length, ci->price, ci->power, part_index(d, ci->cable),
				    part_index(d, ci->optic_a), part_index(d, ci->optic_z), ci->media,
				    ci->fiber, ci->cage_a, ci->cage_z, ci->lane_a, ci->lane_z,
				    ci->assembly, ci->module_a, ci->module_z, written[i]};
		if (written[i] && (out[i].cable == -2 || out[i].optic_a == -2 || out[i].optic_z == -2)) {
			free(out);
			out = NULL;
		}
	}
	free(written);
	if (!out)
		return bad;
	if (same)
		same->users++; /* held while the oldest go */
	while (nmemos > 0 && (nmemos == CAGE_MEMOS || memo_bytes + bytes > CAGE_MEMO_BYTES)) {
		while (!memos[memo_next].key)
			memo_next = (memo_next + 1) % CAGE_MEMOS;
		memo_evict();
	}
	while (memos[memo_next].key)
		memo_next = (memo_next + 1) % CAGE_MEMOS;
	Key *key = same;
	if (!key) {
		key = xmalloc(sizeof *key);
		*key = (Key){hash, xmalloc(nkey), nkey, 1};
		memcpy(key->bytes, scratch, nkey);
	}
	memos[memo_next] = (CageMemo){key, w.watt, range, out, n, bad};
	memo_bytes += bytes;
	nmemos++;
	memo_next = (memo_next + 1) % CAGE_MEMOS;
	return bad;
}
