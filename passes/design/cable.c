/*
 * cable.c — a cable for every fabric link: its length from where its ends stand, and its
 * medium from the cage choice (cage.c; docs/placement.md).
 *
 * Length. Between racks: up from each device to the cable tray (the rack's height above the
 * device's U, plus the floor grid's tray height), along the tray (the distance between the racks
 * along the row plus across the rows: Manhattan), down to the other device; in one rack, the
 * distance between the two U. Slack: 10 % of the run plus 0.5 m at each end, for the service
 * loop. The length is the run rounded up to a stocked length of the medium (its `lengths`, or
 * every whole metre up to its reach).
 *
 * Media. The catalogue is every cable and optic in scope (the fabric's `media`, else every one
 * declared or imported; a scale-up domain's node's scale_up_media). The media of the links are
 * chosen per switch cage, jointly for the links that share one (cage.c): a cage takes one
 * module or one assembly. No plan that serves a link is a requirement the design does not
 * meet; no medium in scope at all is a warning (the runs are measured, nothing is costed).
 */
#include "cable.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double RACK_UNIT = 0.04445;
static const double END_SLACK = 0.5; /* m per end; the share of the run: cable.h */

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
		/* A trunk joins two panels, never two ports: not a link's medium (trunk.c). */
		if ((x->kind != KIND_CABLE && x->kind != KIND_OPTIC) || !x->complete ||
		    (x->kind == KIND_CABLE && x->cable.media == MEDIA_TRUNK))
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
			m->legs = 1;
		} else {
			m->media = x->cable.media;
			m->fiber = x->cable.fiber;
			m->cage = m->plug = x->cable.connector;
			m->speed = x->cable.speed;
			m->reach = x->cable.reach;
			m->ports = x->cable.ports;
			m->legs = x->cable.breakout;
			m->price_per_m = x->cable.price_per_m;
			m->lengths = x->cable.lengths;
			m->nlengths = x->cable.nlengths;
		}
		m->power = x->power;
		m->price = x->price;
	}
	return c;
}

double cable_switch_cage(const SwitchInst *w, int port, int *cage, int *lane, int *lanes)
{
	/* A cage holds ports / cages physical ports (a twin-port OSFP cage 2), each split into
	 * the switch's lanes at the link speed (ir_switch_port). */
	int phys, l, ways;
	ir_switch_port(w, port, &phys, &l, &ways);
	const Part *m = w->model;
	int per_cage = m->sw.cages > 0 && m->sw.ports != m->sw.cages ? m->sw.ports / m->sw.cages : 1;
	per_cage = per_cage > 0 ? per_cage : 1;
	/* Without a division where the cage holds one port or a power of two of them (every
	 * switch in the library): two per end were most of this function's time in a sweep. */
	if (per_cage == 1) {
		*cage = phys, *lane = l;
	} else if ((per_cage & (per_cage - 1)) == 0 && phys >= 0) {
		int shift = __builtin_ctz((unsigned)per_cage);
		*cage = phys >> shift;
		*lane = (phys & (per_cage - 1)) * ways + l;
	} else {
		*cage = phys / per_cage;
		*lane = (phys % per_cage) * ways + l;
	}
	*lanes = per_cage * ways;
	return per_cage * m->sw.port_speed;
}

/* Written field by field where it is kept: a Spot built on the stack and copied out was read
 * back whole before its narrow stores had landed (a stalled store-to-load forward per end,
 * most of the time measure() took; perf, docs/performance.md). The rack and U, which only
 * the run reads, go to *rack and *u. */
static inline void spot_into(const Design *d, End e, CageEnd *sp, const RackInst **rack, int *u)
{
	CageEnd *restrict s = sp;
	*rack = NULL, *u = 1;
	s->cage = -1, s->nic = false, s->ocs = false;
	s->sw = -1, s->cage_no = -1, s->lane = 0, s->lanes = 1, s->room = 0;
	switch (e.kind) {
	case END_NODE: {
		const NodeInst *n = &d->nodes[e.dev];
		*rack = &d->racks[n->rack];
		*u = n->u;
		s->cage = (int16_t)d->ports[e.port].nic->nic.cage;
		s->nic = true;
		s->room = d->ports[e.port].nic->nic.speed;
		break;
	}
	case END_EXTRA: {
		const ExtraInst *x = &d->extras[e.dev];
		*rack = x->rack >= 0 ? &d->racks[x->rack] : NULL;
		*u = x->u;
		break;
	}
	case END_SWITCH: {
		const SwitchInst *w = &d->switches[e.dev];
		*rack = w->rack >= 0 ? &d->racks[w->rack] : NULL;
		*u = w->u;
		s->ocs = w->model->kind == KIND_OCS;
		/* an OCS: no cage, fits nothing else */
		s->cage = (int16_t)(s->ocs ? CONN_COUNT : w->model->sw.cage);
		if (s->ocs) {
			s->reach = w->model->ocs.reach;
			break;
		}
		s->sw = e.dev;
		int cage_no, lane, lanes;
		s->room = cable_switch_cage(w, e.port, &cage_no, &lane, &lanes);
		/* unreachable from a spec: a fabric's switches have at most FABRIC_RADIX_MAX (2,048)
		 * ports at its speed (fabric.c's diagnostic), so fewer cages and lanes than either */
		if (lanes > CAGE_LANES_MAX || cage_no > INT16_MAX)
			die_invariant(__FILE__, __LINE__,
				      "a cage of more lanes than CageEnd's, or beyond CableInst's cages");
		s->cage_no = cage_no, s->lane = (int16_t)lane, s->lanes = (int16_t)lanes;
		break;
	}
	case END_ACCEL: {
		/* A node's scale-up port: its cage is not modelled (any fits). */
		const NodeInst *n = &d->nodes[d->accels[e.dev].node];
		*rack = &d->racks[n->rack];
		*u = n->u;
		break;
	}
	default:
		break;
	}
}

Spot cable_spot(const Design *d, End e)
{
	Spot s;
	spot_into(d, e, &s.end, &s.rack, &s.u);
	return s;
}

/* The run between two ends (rack and U each), slack included (m). */
static inline double run_between(const RackInst *ra, int ua, const RackInst *rz, int uz, double h,
				 double tray)
{
	double run;
	if (!ra || !rz || ra == rz) {
		run = fabs((double)(ua - uz)) * RACK_UNIT;
	} else {
		/* fmax(x, 0) without its call: x is never NaN, and a -0 is added to positive terms */
		double up_a = h - (ua - 1) * RACK_UNIT, up_z = h - (uz - 1) * RACK_UNIT;
		up_a = up_a > 0 ? up_a : 0, up_z = up_z > 0 ? up_z : 0;
		run = up_a + tray + fabs(ra->x - rz->x) + fabs(ra->y - rz->y) + tray + up_z;
	}
	return run * (1 + CABLE_SLACK_SHARE) + 2 * END_SLACK;
}

double cable_run(Spot a, Spot z, double h, double tray)
{
	return run_between(a.rack, a.u, z.rack, z.u, h, tray);
}

/* Every switch's cages, numbered (cage.c's scratch table starts empty), in tables t. */
static CageIndex cage_index(const Design *d, CageTables *t)
{
	CageIndex ix = {cage_tables_get(t, sizeof(int), (size_t)d->nswitches + 1, false), NULL};
	int total = 0;
	for (int i = 0; i < d->nswitches; i++) {
		const SwitchInst *w = &d->switches[i];
		ix.base[i] = total;
		int cage = -1, lane, lanes;
		if (w->model->kind != KIND_OCS && w->radix > 0)
			cable_switch_cage(w, w->radix - 1, &cage, &lane, &lanes);
		total += cage + 1;
	}
	ix.base[d->nswitches] = total;
	ix.slot = cage_tables_get(t, sizeof(int), (size_t)total + 1, false);
	memset(ix.slot, 0xff, sizeof(int) * (size_t)(total + 1));
	return ix;
}

/* A cable for each of the links [first, first + n) of d->links that get one, appended to
 * d->cables with its link alone (measure() does the rest). Returns how many it added. */
static int list_cables(Design *d, int first, int n)
{
	int k = 0;
	for (int li = first; li < first + n; li++) {
		const LinkInst *l = &d->links[li];
		if (l->a.kind == END_NODE && l->z.kind == END_NODE && l->a.dev == l->z.dev)
			continue; /* torus positions of one node: traces on its board */
		d->cables[d->ncables + k++].link = li;
	}
	d->ncables += k;
	return k;
}

/* c, zeroed, made a cable of nothing yet: no medium, fibre, cage, trunk or panel, counting its
 * own part (assembly, its index in d->cables). Its link, run and length are the caller's. The
 * fields that are not zero, stored one by one into the zeroed memory: the whole record built
 * and copied was a stalled store-to-load forward per cable in measure() (perf,
 * docs/performance.md, "Cable stage, fifth pass"). */
static inline void cable_blank(CableInst *restrict c, int assembly)
{
	c->media = c->fiber = c->cage_a = c->cage_z = -1;
	c->assembly = assembly;
	c->trunk = -1;
}

/* Cables [base, base + n) measured: their runs, and their ends' cages into a[] and z[] (from 0). */
static void measure(Design *d, int base, int n, double height, double tray, CageEnd *a, CageEnd *z)
{
	for (int k = 0; k < n; k++) {
		CableInst *restrict c = &d->cables[base + k];
		const LinkInst *l = &d->links[c->link];
		const RackInst *ra, *rz;
		int ua, uz;
		spot_into(d, l->a, &a[k], &ra, &ua), spot_into(d, l->z, &z[k], &rz, &uz);
		double run = run_between(ra, ua, rz, uz, height, tray);
		c->run = run, c->length = ceil(run - 1e-9);
		cable_blank(c, base + k);
	}
}

/* The cables of one fabric or scale-up domain: d->cables[base, base + n). */
typedef struct CableRange {
	int base, n;
} CableRange;

/* Media for cables r, measured, from `cat`; the first cable no medium serves, or NULL. */
static const CableInst *cable_links(Design *d, const CageIndex *index, const Catalogue *cat,
				    Weights w, CableRange r, double height, double tray, CageEnd *spots)
{
	measure(d, r.base, r.n, height, tray, spots, spots + r.n);
	if (cat->n == 0 || r.n == 0)
		return NULL;
	int bad = cage_choose(d, index, cat, w, d->cables + r.base, spots, spots + r.n, r.n, r.base);
	return bad >= 0 ? &d->cables[r.base + bad] : NULL;
}

/* The links of a multi-rack scale-up domain between its racks: cables like a fabric's, from
 * the node's scale_up_media (else every medium in scope). */
static void cable_scale_up(Design *d, const CageIndex *index, const ScaleUpInst *s, Weights w,
			   CableRange r, double height, double tray, CageEnd *spots)
{
	if (!s->cables)
		return;
	const Decl *node = s->node->decl;
	Catalogue cat = catalogue(d, field_value(node, FLD_NODE_SCALE_UP_MEDIA));
	const CableInst *bad = cable_links(d, index, &cat, w, r, height, tray, spots);
	if (!bad && cat.n > 0)
		return;
	if (!bad)
		bad = &d->cables[r.base + r.n - 1];
	const LinkInst *l = &d->links[bad->link];
	d->vsource = VS_CABLE, d->vfabric = -1;
	char speed[32];
	qty_format((Qty){l->speed, dim_make(0, 0, -1, 0, 1, 0)}, speed, sizeof speed);
	const Value *mv = field_value(node, FLD_NODE_SCALE_UP_MEDIA);
	design_violation(d, mv ? mv->loc : node->name_loc, 1, NOLOC, NULL,
			 "no cable or optic in scope joins %s to %s, a scale-up link between racks "
			 "(%.1f m at %s)" CABLE_NO_MEDIUM_ADVICE,
			 ir_end_device(d, l->a), ir_end_device(d, l->z), bad->run, speed);
}

/* Media for fabric fi's cables (contiguous in d->cables from *first) chosen again, into the
 * design's cables or, at_shortest, into a copy whose runs are all 0 (each medium then at its
 * shortest stocked length; the design's cables left as they are). Returns the index among the
 * fabric's cables of one no medium serves, -1 when every one is (or there is none). */
static int choose_fabric(Design *d, int fi, bool at_shortest, int *first)
{
	int n = 0;
	*first = -1;
	for (int i = 0; i < d->ncables; i++)
		if (d->links[d->cables[i].link].fabric == fi) {
			if (*first < 0)
				*first = i;
			n++;
		}
	if (n == 0)
		return -1;
	const FabricInst *f = &d->fabrics[fi];
	Catalogue cat = catalogue(d, field_value(f->decl, FLD_FABRIC_MEDIA));
	if (cat.n == 0)
		return -1;
	Weights w;
	judge_weights(d, &w.money, &w.watt);
	CageTables t;
	cage_tables_init(&t, sizeof(CageEnd) * (size_t)(2 * n + 2));
	CageEnd *spots = cage_tables_get(&t, sizeof(CageEnd), 2 * (size_t)n + 2, false);
	CableInst *c = d->cables + *first;
	if (at_shortest) {
		c = xmalloc(sizeof(CableInst) * (size_t)n);
		memset(c, 0, sizeof(CableInst) * (size_t)n); /* runs and lengths 0 */
	}
	for (int k = 0; k < n; k++) {
		int i = *first + k;
		const LinkInst *l = &d->links[d->cables[i].link];
		spots[k] = cable_spot(d, l->a).end, spots[n + k] = cable_spot(d, l->z).end;
		if (at_shortest) {
			c[k].link = d->cables[i].link;
			cable_blank(&c[k], i);
		}
	}
	CageIndex index = cage_index(d, &t);
	int bad = cage_choose(d, &index, &cat, w, c, spots, spots + n, n, *first);
	cage_tables_free(&t);
	if (at_shortest)
		free(c);
	return bad;
}

int cable_choose_again(Design *d, int fi)
{
	int first, bad = choose_fabric(d, fi, false, &first);
	return bad < 0 ? -1 : first + bad;
}

bool cable_fabric_joins_short(Design *d, int fi)
{
	int first;
	return choose_fabric(d, fi, true, &first) < 0;
}

int cable_fabrics(Design *d)
{
	/* zeroed (arena_alloc): measure() stores only the fields that are not zero */
	d->cables = arena_alloc(d->c->arena, sizeof(CableInst) * (size_t)(d->nlinks + 1));
	d->ncables = 0;
	double tray = field_param_num(field_value(d->site, FLD_SITE_FLOOR), PRM_GRID_TRAY_HEIGHT);
	double height = d->rack_type->height;
	Weights w;
	judge_weights(d, &w.money, &w.watt);
	/* The ends' cages (31 MB on the dragonfly) in huge pages when they are large (CageTables). */
	CageTables t;
	cage_tables_init(&t, sizeof(CageEnd) * (size_t)(2 * d->nlinks + 2));
	CageEnd *spots = cage_tables_get(&t, sizeof(CageEnd), 2 * (size_t)d->nlinks + 2, false);
	CageIndex index = cage_index(d, &t);
	/* Every cable's link first: the cables' ids are then made on a thread of their own while
	 * the media are chosen (ir_cable_leads_start). */
	CableRange *range = xmalloc(sizeof *range * (size_t)(d->nfabrics + d->nscaleups + 1));
	for (int fi = 0; fi < d->nfabrics; fi++) {
		const FabricInst *f = &d->fabrics[fi];
		range[fi].base = d->ncables;
		range[fi].n = f->sized ? list_cables(d, f->first_link, f->links) : 0;
	}
	for (int si = 0; si < d->nscaleups; si++) {
		const ScaleUpInst *s = &d->scaleups[si];
		CableRange *r = &range[d->nfabrics + si];
		r->base = d->ncables;
		r->n = s->cables ? list_cables(d, s->first_link, s->cables) : 0;
	}
	ir_cable_leads_start(d);
	for (int fi = 0; fi < d->nfabrics; fi++) {
		const FabricInst *f = &d->fabrics[fi];
		if (!f->sized)
			continue;
		Catalogue cat = catalogue(d, field_value(f->decl, FLD_FABRIC_MEDIA));
		if (cat.n == 0 && !d->quiet) {
			/* Nothing to choose from: the runs are still measured, at no cost. */
			Diag *dg = diag_warning(d->c, f->decl->name_loc,
						"no cable or optic is in scope for fabric '%s': its %d links "
						"are measured but get no medium and no cost (import std.network "
						"or declare cables)",
						f->decl->name, f->links);
			diag_set_code(dg, "no-media");
		}
		const CableInst *bad = cable_links(d, &index, &cat, w, range[fi], height, tray, spots);
		if (!bad)
			continue;
		const LinkInst *l = &d->links[bad->link];
		Spot a = cable_spot(d, l->a), z = cable_spot(d, l->z);
		d->vsource = VS_CABLE, d->vfabric = fi;
		char speed[32];
		qty_format((Qty){l->speed, dim_make(0, 0, -1, 0, 1, 0)}, speed, sizeof speed);
		design_violation(d, f->decl->name_loc, 1, NOLOC, NULL,
				 "no cable or optic in scope joins %s to %s (%.1f m at %s, cages %s "
				 "and %s)" CABLE_NO_MEDIUM_ADVICE,
				 ir_end_device(d, l->a), ir_end_device(d, l->z), bad->run, speed,
				 a.end.cage >= 0 ? enum_CONNECTOR.words[a.end.cage] : "any",
				 z.end.cage >= 0 ? enum_CONNECTOR.words[z.end.cage] : "any");
	}
	for (int si = 0; si < d->nscaleups; si++)
		cable_scale_up(d, &index, &d->scaleups[si], w, range[d->nfabrics + si], height, tray,
			       spots);
	free(range);
	cage_tables_free(&t);
	/* A link no medium reaches is a Violation, which validate reports (exit 2): not an error
	 * of this pass, which would make it exit 1. */
	return 0;
}
