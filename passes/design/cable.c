/*
 * cable.c — a cable for every fabric link: its length from where its ends stand, and the
 * cheapest medium that reaches (docs/placement.md).
 *
 * Length. Between racks: up from each device to the cable tray (the rack's height above the
 * device's U, plus the floor grid's tray height), along the tray (the distance between the racks
 * along the row plus across the rows: Manhattan), down to the other device; in one rack, the
 * distance between the two U. Slack: 10 % of the run plus 0.5 m at each end, for the service
 * loop. The length is the run rounded up to a stocked length of the medium (its `lengths`, or
 * every whole metre up to its reach).
 *
 * Medium. Every cable and optic in scope (the fabric's `media`, else every one declared or
 * imported) that carries the link speed: a copper or active optical cable (DAC, ACC, AEC, AOC)
 * by itself, whose connector fits the cage of each switch end (assemblies come with whatever
 * NIC end the NIC needs), or a transceiver at each end (one that fits that end's cage, NIC or
 * switch; a twin-port one only in a switch's cage) with a fibre between them of the type both
 * transceivers drive and with the plug their receptacles take (MPO-12, duplex LC) — optic and
 * fibre chosen together. Among those that reach, the one that serves the spec's objective best
 * wins: each medium is weighed by what its price and its power add to the first objective
 * that cables change (objective_weights: capex counts the price, facility power and energy cost
 * the watts through the PUE, the tariff and the horizon), so `minimize tco` may buy a dearer
 * optic that draws less; without such an objective, the cheapest. Ties: the cheaper, then the
 * one drawing less power, then the one declared first. A twin-port transceiver serves two links:
 * a link is charged half of it. No medium that reaches is a requirement the design does not
 * meet; no medium in scope at all is a warning (the runs are measured, nothing is costed).
 */
#include "passes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double RACK_UNIT = 0.04445;
static const double END_SLACK = 0.5, SLACK_SHARE = 0.10; /* m per end; share of the run */

typedef struct Medium {
	const Part *part;
	bool optic;          /* a transceiver (else a cable) */
	int media;           /* cable: Media */
	int fiber;           /* Fiber a transceiver drives or a fibre cable is, or -1 */
	int cage;            /* Connector: the cage a transceiver or cable end fits, or -1 for any */
	int plug;            /* Connector: a transceiver's receptacle, a fibre's plug, or -1 */
	double speed, reach, price, price_per_m, power, ports;
	const double *lengths; /* stocked lengths, ascending */
	int nlengths;
} Medium;

typedef struct Catalogue {
	Medium *m;
	int n;
} Catalogue;

/* Every medium of a fabric: its media list, else every cable and optic declared in scope (a
 * declaration nothing uses may lack required figures: such parts are left out). */
static Catalogue catalogue(Design *d, const Value *list)
{
	Catalogue c = {0};
	Arena *a = d->c->arena;
	bool listed = list && list->kind == VAL_LIST;
	int n = listed ? list->n : d->nparts;
	c.m = arena_alloc(a, sizeof(Medium) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		const Part *x = listed ? parts_of(d, list->items[i]->ref) : &d->parts[i];
		if ((x->kind != KIND_CABLE && x->kind != KIND_OPTIC) || !x->complete)
			continue;
		Medium *m = &c.m[c.n++];
		m->part = x;
		m->optic = x->kind == KIND_OPTIC;
		if (m->optic) {
			m->media = -1;
			m->fiber = x->optic.fiber;
			m->cage = x->optic.cage;
			m->plug = x->optic.connector;
			m->speed = x->optic.speed;
			m->reach = x->optic.reach;
			m->ports = x->optic.ports;
		} else {
			m->media = x->cable.media;
			m->fiber = x->cable.fiber;
			m->cage = m->plug = x->cable.connector;
			m->speed = x->cable.speed;
			m->reach = x->cable.reach;
			m->ports = 1;
			m->price_per_m = x->cable.price_per_m;
			m->lengths = x->cable.lengths;
			m->nlengths = x->cable.nlengths;
		}
		m->power = x->power;
		m->price = x->price;
	}
	return c;
}

/* The stocked length a run is rounded up to, or -1 when the medium has none that long. */
static double stocked(const Medium *m, double run)
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

/* Where an end of a link stands: its rack and U, and the cage of its port. */
typedef struct Spot {
	const RackInst *rack;
	int u;
	int cage; /* Connector, or -1 for a device whose cage is not modelled */
	bool nic; /* a NIC's port: cables are sold with the NIC end it needs */
	bool ocs; /* an optical circuit switch's port: bare fibre, no transceiver, within reach */
	double reach; /* m an OCS end allows (INFINITY otherwise) */
} Spot;

static Spot spot(const Design *d, End e)
{
	Spot s = {NULL, 1, -1, false, false, INFINITY};
	switch (e.kind) {
	case END_NODE: {
		const NodeInst *n = &d->nodes[e.dev];
		s.rack = &d->racks[n->rack];
		s.u = n->u;
		s.cage = d->ports[e.port].nic->nic.cage;
		s.nic = true;
		break;
	}
	case END_EXTRA: {
		const ExtraInst *x = &d->extras[e.dev];
		s.rack = x->rack >= 0 ? &d->racks[x->rack] : NULL;
		s.u = x->u;
		break;
	}
	case END_SWITCH: {
		const SwitchInst *w = &d->switches[e.dev];
		s.rack = w->rack >= 0 ? &d->racks[w->rack] : NULL;
		s.u = w->u;
		s.ocs = w->model->kind == KIND_OCS;
		s.cage = s.ocs ? CONN_COUNT : w->model->sw.cage; /* no cage: its own memo key */
		s.reach = s.ocs ? w->model->ocs.reach : INFINITY;
		break;
	}
	case END_ACCEL: {
		/* A node's scale-up port: its cage is not modelled (any fits). */
		const NodeInst *n = &d->nodes[d->accels[e.dev].node];
		s.rack = &d->racks[n->rack];
		s.u = n->u;
		break;
	}
	default:
		break;
	}
	return s;
}

/* The run between two ends, slack included (m). */
static double run_between(Spot a, Spot z, double h, double tray)
{
	double run;
	if (!a.rack || !z.rack || a.rack == z.rack) {
		run = fabs((double)(a.u - z.u)) * RACK_UNIT;
	} else {
		double up_a = fmax(h - (a.u - 1) * RACK_UNIT, 0), up_z = fmax(h - (z.u - 1) * RACK_UNIT, 0);
		run = up_a + tray + fabs(a.rack->x - z.rack->x) + fabs(a.rack->y - z.rack->y) + tray + up_z;
	}
	return run * (1 + SLACK_SHARE) + 2 * END_SLACK;
}

static bool fits(const Medium *m, int cage)
{
	return m->cage < 0 || cage < 0 || m->cage == cage;
}

typedef struct Choice {
	const Medium *cable, *optic_a, *optic_z;
	double length, price, power;
} Choice;

/* What a medium adds to the objective: per unit of money and per watt. */
typedef struct Weights {
	double money, watt;
} Weights;

static double weigh(Weights w, double price, double power)
{
	return w.money * price + w.watt * power;
}

static bool better(Weights w, const Choice *x, const Choice *best)
{
	if (!best->cable)
		return true;
	double cx = weigh(w, x->price, x->power), cb = weigh(w, best->price, best->power);
	if (fabs(cx - cb) > 1e-9 * fmax(1e-9, fmax(fabs(cx), fabs(cb))))
		return cx < cb;
	if (fabs(x->price - best->price) > 1e-9 * fmax(1, best->price))
		return x->price < best->price;
	return x->power < best->power - 1e-12;
}

/* The best medium for one link of speed `speed` over `run` metres. */
static Choice choose(const Catalogue *cat, Weights w, double speed, double run, Spot a, Spot z)
{
	int cage_a = a.cage, cage_z = z.cage;
	/* Copper and AOC assemblies come with the NIC end the NIC needs (OSFP to QSFP112 ...): only
	 * a switch end's cage constrains them. */
	int cable_a = a.nic ? -1 : cage_a, cable_z = z.nic ? -1 : cage_z;
	Choice best = {0};
	for (int i = 0; i < cat->n; i++) {
		const Medium *c = &cat->m[i];
		if (c->optic || c->media < 0 || c->speed < speed * (1 - 1e-9))
			continue;
		/* An optical circuit switch mirrors light: only a fibre reaches it, with the
		 * transceiver at the other end, within the switch's loss budget. */
		if ((a.ocs || z.ocs) && (c->media != MEDIA_FIBER || stocked(c, run) > fmin(a.reach, z.reach) + 1e-9))
			continue;
		if (c->media != MEDIA_FIBER) {
			/* A cable by itself: its connectors in the cages at both ends. */
			double len = stocked(c, run);
			if (len < 0 || !fits(c, cable_a) || !fits(c, cable_z))
				continue;
			Choice x = {c, NULL, NULL, len, c->price + c->price_per_m * len, c->power};
			if (better(w, &x, &best))
				best = x;
			continue;
		}
		/* A fibre: the cheapest transceiver that drives it at each end, each in its cage, of
		 * the fibre's type and taking its plug (a DR4's MPO-12 receptacle takes no duplex LC
		 * cord). */
		double len = stocked(c, run);
		if (len < 0)
			continue;
		const Medium *oa = NULL, *oz = NULL;
		for (int k = 0; k < cat->n; k++) {
			const Medium *o = &cat->m[k];
			if (!o->optic || o->speed < speed * (1 - 1e-9) || o->reach < len - 1e-9 ||
			    o->fiber < 0 || c->fiber < 0 || o->fiber != c->fiber ||
			    (o->plug >= 0 && c->plug >= 0 && o->plug != c->plug))
				continue;
			double unit = weigh(w, o->price, o->power) / o->ports;
			/* A twin-port transceiver carries two ports of one switch cage; a NIC's cage
			 * takes a single-port module (ConnectX-7 OSFP cards take flat-top single-port
			 * optics), which would otherwise be charged half of a twin-port one. */
			bool single = o->ports <= 1;
			if (fits(o, cage_a) && (single || !a.nic) &&
			    (!oa || unit < weigh(w, oa->price, oa->power) / oa->ports - 1e-9))
				oa = o;
			if (fits(o, cage_z) && (single || !z.nic) &&
			    (!oz || unit < weigh(w, oz->price, oz->power) / oz->ports - 1e-9))
				oz = o;
		}
		if (a.ocs)
			oa = NULL;
		if (z.ocs)
			oz = NULL;
		if ((!oa && !a.ocs) || (!oz && !z.ocs))
			continue;
		double o_price = (oa ? oa->price / oa->ports : 0) + (oz ? oz->price / oz->ports : 0);
		double o_power = (oa ? oa->power / oa->ports : 0) + (oz ? oz->power / oz->ports : 0);
		Choice x = {c, oa, oz, len, c->price + c->price_per_m * len + o_price, c->power + o_power};
		if (better(w, &x, &best))
			best = x;
	}
	return best;
}

/* The choice is a function of the link's speed, its run and its ends' cages alone, and a
 * fabric of a hundred thousand links has a few thousand distinct ones (runs come from rack
 * coordinates and U): each is chosen once and remembered, in a table with open addressing. */
typedef struct MemoSlot {
	bool used, nic_a, nic_z, ocs_a, ocs_z;
	double speed, run, reach_a, reach_z;
	int cage_a, cage_z;
	Choice ch;
} MemoSlot;

typedef struct Memo {
	MemoSlot *slot;
	size_t cap, n; /* cap a power of two */
} Memo;

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	return h;
}

static uint64_t memo_hash(double speed, double run, Spot a, Spot z)
{
	uint64_t s, r;
	memcpy(&s, &speed, sizeof s);
	memcpy(&r, &run, sizeof r);
	uint64_t h = mix(mix(s, r), (uint64_t)(a.cage + 1));
	h = mix(h, (uint64_t)(z.cage + 1));
	h = mix(h, (uint64_t)(a.nic | z.nic << 1));
	return h ^ h >> 29;
}

static MemoSlot *memo_find(const Memo *m, double speed, double run, Spot a, Spot z)
{
	size_t i = (size_t)memo_hash(speed, run, a, z) & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		MemoSlot *e = &m->slot[i];
		if (!e->used || (e->speed == speed && e->run == run && e->cage_a == a.cage &&
				 e->cage_z == z.cage && e->nic_a == a.nic && e->nic_z == z.nic &&
				 e->ocs_a == a.ocs && e->ocs_z == z.ocs && e->reach_a == a.reach &&
				 e->reach_z == z.reach))
			return e;
	}
}

/* The chosen medium, optics, length, price and power written into the link's cable. */
static void cable_take(CableInst *c, const Choice *ch)
{
	c->cable = ch->cable->part;
	c->optic_a = ch->optic_a ? ch->optic_a->part : NULL;
	c->optic_z = ch->optic_z ? ch->optic_z->part : NULL;
	c->length = ch->length;
	c->price = ch->price;
	c->power = ch->power;
	c->media = ch->cable->media;
	c->fiber = ch->cable->fiber;
}

static Choice choose_once(Memo *m, const Catalogue *cat, Weights w, double speed, double run,
			  Spot a, Spot z)
{
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		Memo bigger = {xmalloc(sizeof(MemoSlot) * cap), cap, m->n};
		memset(bigger.slot, 0, sizeof(MemoSlot) * cap);
		for (size_t i = 0; i < m->cap; i++)
			if (m->slot[i].used) {
				const MemoSlot *e = &m->slot[i];
				Spot ea = {.cage = e->cage_a, .nic = e->nic_a, .ocs = e->ocs_a, .reach = e->reach_a},
				     ez = {.cage = e->cage_z, .nic = e->nic_z, .ocs = e->ocs_z, .reach = e->reach_z};
				*memo_find(&bigger, e->speed, e->run, ea, ez) = *e;
			}
		free(m->slot);
		*m = bigger;
	}
	MemoSlot *e = memo_find(m, speed, run, a, z);
	if (!e->used) {
		*e = (MemoSlot){true, a.nic, z.nic, a.ocs, z.ocs, speed, run, a.reach, z.reach,
				a.cage, z.cage, choose(cat, w, speed, run, a, z)};
		m->n++;
	}
	return e->ch;
}

static const char *end_name(const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: return d->nodes[e.dev].hostname;
	case END_EXTRA: return d->extras[e.dev].name;
	case END_SWITCH: return d->switches[e.dev].name;
	case END_ACCEL: return d->nodes[d->accels[e.dev].node].hostname;
	default: return "?";
	}
}

/* The links of a multi-rack scale-up domain between its racks: cables like a fabric's, from
 * the node's scale_up_media (else every medium in scope). */
static void cable_scale_up(Design *d, const ScaleUpInst *s, Weights w, double height, double tray)
{
	if (!s->cables)
		return;
	const Decl *node = s->node->decl;
	Catalogue cat = catalogue(d, field_value(node, FLD_NODE_SCALE_UP_MEDIA));
	Memo memo = {0};
	bool reported = false;
	for (int li = s->first_link; li < s->first_link + s->cables; li++) {
		const LinkInst *l = &d->links[li];
		Spot a = spot(d, l->a), z = spot(d, l->z);
		double run = run_between(a, z, height, tray);
		Choice ch = choose_once(&memo, &cat, w, l->speed, run, a, z);
		CableInst *c = &d->cables[d->ncables++];
		*c = (CableInst){.link = li, .run = run, .length = ceil(run - 1e-9), .media = -1,
				 .fiber = -1};
		if (!ch.cable) {
			if (!reported) {
				reported = true;
				d->vsource = VS_CABLE, d->vfabric = -1;
				char speed[32];
				qty_format((Qty){l->speed, dim_make(0, 0, -1, 0, 1, 0)}, speed, sizeof speed);
				const Value *mv = field_value(node, FLD_NODE_SCALE_UP_MEDIA);
				design_violation(d, mv ? mv->loc : node->name_loc, 1, NOLOC, NULL,
						 "no cable or optic in scope joins %s to %s, a scale-up link "
						 "between racks (%.1f m at %s): declare or import one that "
						 "reaches",
						 end_name(d, l->a), end_name(d, l->z), run, speed);
			}
			continue;
		}
		cable_take(c, &ch);
	}
	free(memo.slot);
}

int cable_fabrics(Design *d)
{
	d->cables = arena_alloc(d->c->arena, sizeof(CableInst) * (size_t)(d->nlinks + 1));
	d->ncables = 0;
	double tray = field_param_num(field_value(d->site, FLD_SITE_FLOOR), PRM_GRID_TRAY_HEIGHT);
	double height = d->rack_type->height;
	Weights w;
	judge_weights(d, &w.money, &w.watt);
	for (int fi = 0; fi < d->nfabrics; fi++) {
		const FabricInst *f = &d->fabrics[fi];
		if (!f->sized)
			continue;
		Catalogue cat = catalogue(d, field_value(f->decl, FLD_FABRIC_MEDIA));
		bool reported = false;
		Memo memo = {0};
		if (cat.n == 0 && !d->quiet) {
			/* Nothing to choose from: the runs are still measured, at no cost. */
			Diag *dg = diag_warning(d->c, f->decl->name_loc,
						"no cable or optic is in scope for fabric '%s': its %d links "
						"are measured but get no medium and no cost (import std.network "
						"or declare cables)",
						f->decl->name, f->links);
			diag_set_code(dg, "no-media");
		}
		for (int li = f->first_link; li < f->first_link + f->links; li++) {
			const LinkInst *l = &d->links[li];
			if (l->a.kind == END_NODE && l->z.kind == END_NODE && l->a.dev == l->z.dev)
				continue; /* torus positions of one node: traces on its board */
			Spot a = spot(d, l->a), z = spot(d, l->z);
			double run = run_between(a, z, height, tray);
			Choice ch = choose_once(&memo, &cat, w, l->speed, run, a, z);
			CableInst *c = &d->cables[d->ncables++];
			*c = (CableInst){.link = li, .run = run, .length = ceil(run - 1e-9), .media = -1,
					 .fiber = -1};
			if (!ch.cable && cat.n == 0)
				continue;
			if (!ch.cable) {
				if (!reported) {
					reported = true;
					d->vsource = VS_CABLE, d->vfabric = fi;
					char speed[32];
					qty_format((Qty){l->speed, dim_make(0, 0, -1, 0, 1, 0)}, speed, sizeof speed);
					design_violation(d, f->decl->name_loc, 1, NOLOC, NULL,
							 "no cable or optic in scope joins %s to %s (%.1f m at %s, "
							 "cages %s and %s): declare or import one that reaches",
							 end_name(d, l->a), end_name(d, l->z), run, speed,
							 a.cage >= 0 ? enum_CONNECTOR.words[a.cage] : "any",
							 z.cage >= 0 ? enum_CONNECTOR.words[z.cage] : "any");
				}
				continue;
			}
			cable_take(c, &ch);
		}
		free(memo.slot);
	}
	for (int si = 0; si < d->nscaleups; si++)
		cable_scale_up(d, &d->scaleups[si], w, height, tray);
	/* A link no medium reaches is a Violation, which validate reports (exit 2): not an error
	 * of this pass, which would make it exit 1. */
	return 0;
}
