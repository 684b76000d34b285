/*
 * trunk.c — structured cabling: fibre links between rows carried by trunks between patch
 * panels (docs/placement.md, "Structured cabling").
 *
 * A fabric that names a `patch_panel` and a `trunk` runs every straight fibre link (an optic at
 * each end joined by one fibre cord, cage.c) whose two racks stand in different rows as three
 * parts: a patch cord from the A end's optic down (or up) its rack to an adapter of a panel at
 * the top of that rack, one leg of a pre-terminated trunk from that panel along the trays to a
 * panel at the top of the Z end's rack, and a cord from there to the Z end's optic. This is how
 * structured cabling is built (TIA-942-B, "Telecommunications Infrastructure Standard for Data
 * Centers", 2017, §6: horizontal cabling between distribution areas through patch panels, and
 * ANSI/TIA-568.3-D for the pre-terminated multi-fibre trunks): the long runs between rows are
 * pulled once, a trunk per rack pair, tested before the switches arrive, and a miswire or a
 * change is a cord moved at a panel, not a fibre pulled across the hall. Links inside a row,
 * splitter fibres and copper or active cables stay direct.
 *
 * Grouping. The links of a rack pair (in cable order) fill trunks of the trunk's `ports` legs
 * each, numbered 1, 2 ... per pair; each leg takes the next adapter of its rack's newest panel
 * (a new one when it is full, so a trunk's legs may land on two panels), panels stacked from the rack's top
 * unit down: into the space its type reserves (`reserved`, "kept for PDUs and patch panels"),
 * then the units its devices leave free (network racks are packed with a panel share per switch
 * cable for it: place.c). More panels than that space holds, a cord or trunk longer than any stocked length, or
 * a channel (cord + trunk + cord) longer than the optics reach are requirements the design does
 * not meet (exit 2). The names follow the racks (a trunk "T<fabric>-<rack>-<rack>-<seq>", a
 * panel "<rack>-PP<slot>": ir.c), so an edit elsewhere renames neither.
 *
 * Cost: one pass over the cables and one sort of the links that qualify, O(n log n).
 */
#include "cable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double RACK_UNIT = 0.04445;

/* A stocked length of a cable part for a run, or -1 when none is long enough (cage.c's rule). */
static double stocked(const Part *p, double run)
{
	Medium m = {.reach = p->cable.reach, .lengths = p->cable.lengths, .nlengths = p->cable.nlengths};
	return cage_stocked(&m, run);
}

/* A qualifying link: its cable, and its two racks in ascending order (the trunk's ends). */
typedef struct Leg {
	int cable, lo, hi;
	int k;              /* the trunk's place in the fabric's list */
	const Part *trunk;
} Leg;

static int leg_cmp(const void *x, const void *y)
{
	const Leg *a = x, *b = y;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	return (a->cable > b->cable) - (a->cable < b->cable);
}

/* Per rack: its newest panel and the space its panels take (m). */
typedef struct RackPanels {
	int last;
	double height;
} RackPanels;

typedef struct TrunkCtx {
	Design *d;
	const FabricInst *f;
	int fi;
	const Part *panel;
	RackPanels *rp;
	bool *full;   /* racks already reported out of reserved space */
} TrunkCtx;

/* The first of `legs` consecutive adapters on a panel of rack r: the rack's newest panel when
 * it has room, else a new one below it. */
static int adapters(TrunkCtx *t, int r, int legs, int *panel)
{
	Design *d = t->d;
	RackPanels *rp = &t->rp[r];
	if (rp->last >= 0) {
		PanelInst *p = &d->panels[rp->last];
		if (p->part == t->panel && p->used + legs <= p->part->panel.ports) {
			*panel = rp->last;
			p->used += legs;
			return p->used - legs + 1;
		}
	}
	const RackInst *rk = &d->racks[r];
	int slot = rp->last >= 0 ? d->panels[rp->last].slot + 1 : 1;
	rp->height += t->panel->height;
	int top = rk->type->height_u; /* the rack's top unit */
	int u = top - (int)lround(rp->height / RACK_UNIT) + 1;
	d->panels[d->npanels] = (PanelInst){NULL, t->panel, r, u < 1 ? 1 : u, slot, legs};
	Buf name = {0};
	ir_panel_name(&name, d, d->npanels);
	d->panels[d->npanels].name = arena_strndup(d->c->arena, name.s, name.len);
	buf_free(&name);
	rp->last = d->npanels;
	*panel = d->npanels++;
	/* Panels take the top of the rack: its reserved space, then what its devices leave. */
	double room = rk->type->height - rk->height_used;
	if (rp->height > room + 1e-9 && !t->full[r]) {
		t->full[r] = true;
		const Value *v = field_value(rk->type->decl, FLD_RACK_RESERVED);
		d->vsource = VS_CABLE, d->vfabric = t->fi;
		design_violation(d, v ? v->loc : rk->type->loc, rp->height / fmax(room, RACK_UNIT) - 1,
				 t->f->decl->name_loc, "the fabric with these patch panels",
				 "rack %s needs %d U for the patch panels of fabric '%s', but its devices "
				 "leave %d U of rack type '%s' (%d U reserved): reserve more space, or use "
				 "panels with more adapters",
				 rk->name, (int)lround(rp->height / RACK_UNIT), t->f->decl->name,
				 (int)lround(room / RACK_UNIT), rk->type->name,
				 (int)lround(rk->type->rack.reserved / RACK_UNIT));
	}
	return 1;
}

static void unmet(TrunkCtx *t, const char *what, double run, const Part *part, double reach)
{
	t->d->vsource = VS_CABLE, t->d->vfabric = t->fi;
	design_violation(t->d, t->f->decl->name_loc, run / fmax(reach, 1) - 1, part->loc, "the part is declared here",
			 "%s of fabric '%s' is %.1f m, beyond what '%s' reaches (%.1f m)", what,
			 t->f->decl->name, run, part->name, reach);
}

/* A cord from a device at unit u to its rack's panel at unit pu. */
static double cord(TrunkCtx *t, const CableInst *c, int u, int pu)
{
	double run = cable_run((Spot){.u = u}, (Spot){.u = pu}, 0, 0); /* in one rack */
	double len = stocked(c->cable, run);
	if (len < 0) {
		unmet(t, "a patch cord to a panel", run, c->cable, c->cable->cable.reach);
		return run;
	}
	return len;
}

/* Whether the design's fabric fi asks for structured cabling: its panel and its trunks (into
 * *trunks, at most `cap`); diagnoses a half-given pair and parts of the wrong kind or connector
 * (errors: the spec is wrong, whatever the design). */
static int fabric_parts(Design *d, const FabricInst *f, const Part **panel, const Part **trunks,
			int cap, int *ntrunks)
{
	const Value *pv = field_value(f->decl, FLD_FABRIC_PATCH_PANEL);
	const Value *tv = field_value(f->decl, FLD_FABRIC_TRUNKS);
	*panel = pv ? parts_of(d, pv->ref) : NULL;
	*ntrunks = 0;
	int listed = tv && tv->kind == VAL_LIST ? tv->n : 0;
	if (!*panel && !listed)
		return 0;
	if (!*panel || !listed) {
		diag_error(d->c, (pv ? pv : tv)->loc,
			   "fabric '%s' names %s but no %s: structured cabling needs both "
			   "(patch_panel and trunks)",
			   f->decl->name, pv ? "a patch_panel" : "trunks", pv ? "trunks" : "patch_panel");
		return 1;
	}
	int errors = 0;
	for (int i = 0; i < listed && *ntrunks < cap; i++) {
		const Value *iv = tv->items[i];
		const Part *t = parts_of(d, iv->ref);
		if (t->cable.media != MEDIA_TRUNK) {
			Diag *dg = diag_error(d->c, iv->loc, "'%s' is a cable of type %s, not a trunk",
					      t->name, enum_MEDIA.words[t->cable.media]);
			diag_note(dg, t->loc, "'%s' is declared here", t->name);
			errors++;
			continue;
		}
		if (t->cable.connector != (*panel)->panel.connector) {
			Diag *dg = diag_error(d->c, iv->loc,
					      "trunk '%s' ends in %s, but panel '%s' has %s adapters",
					      t->name,
					      t->cable.connector >= 0 ? enum_CONNECTOR.words[t->cable.connector]
								      : "no connector",
					      (*panel)->name, enum_CONNECTOR.words[(*panel)->panel.connector]);
			diag_note(dg, pv->loc, "the panel is named here");
			errors++;
			continue;
		}
		trunks[(*ntrunks)++] = t;
	}
	return errors;
}

/* The trunk of the fabric's list a fibre cable would run through: the first of its fibre type
 * and connector, or -1. */
static int trunk_for(const Part *const *trunks, int n, const CableInst *c)
{
	for (int k = 0; k < n; k++)
		if (trunks[k]->cable.fiber == c->fiber &&
		    trunks[k]->cable.connector == c->cable->cable.connector)
			return k;
	return -1;
}

/* The links of fabric fi that go through trunks: straight fibre cords between two optics,
 * whose racks stand in different rows, for which the fabric lists a trunk of their fibre and
 * plug. */
static int qualifying(const Design *d, int fi, const Part *const *trunks, int ntrunks, Leg *out)
{
	int n = 0;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		if (l->fabric != fi || c->media != MEDIA_FIBER || !c->cable || c->assembly != i ||
		    c->cable->cable.breakout != 1)
			continue;
		int k = trunk_for(trunks, ntrunks, c);
		if (k < 0)
			continue;
		Spot a = cable_spot(d, l->a), z = cable_spot(d, l->z);
		if (!a.rack || !z.rack || a.rack->row == z.rack->row)
			continue;
		int ra = (int)(a.rack - d->racks), rz = (int)(z.rack - d->racks);
		out[n++] = (Leg){i, ra < rz ? ra : rz, ra < rz ? rz : ra, k, trunks[k]};
	}
	return n;
}

/* Trunks for the legs [0, n) of one fabric, sorted by rack pair. */
static void lay(TrunkCtx *t, const Leg *legs, int n, double height, double tray)
{
	Design *d = t->d;
	for (int i = 0, seq = 0; i < n;) {
		const Part *trunk = legs[i].trunk;
		int per = trunk->cable.ports > 0 ? trunk->cable.ports : 1;
		if (i > 0 && (legs[i].lo != legs[i - 1].lo || legs[i].hi != legs[i - 1].hi))
			seq = 0;
		int end = i;
		while (end < n && end - i < per && legs[end].lo == legs[i].lo && legs[end].hi == legs[i].hi &&
		       legs[end].k == legs[i].k)
			end++;
		int k = end - i;
		TrunkInst *tr = &d->trunks[d->ntrunks];
		*tr = (TrunkInst){trunk, t->fi, legs[i].lo, legs[i].hi, ++seq, -1, -1, 0, 0, k, 0, 0};
		/* The legs take the next adapters of each rack's panels, a leg an adapter (a trunk's
		 * legs are single MPO plugs: they may land on two panels). */
		int *pa_of = xmalloc(sizeof(int) * (size_t)(2 * k)), *po_of = pa_of + k;
		int *pz_of = xmalloc(sizeof(int) * (size_t)(2 * k)), *pzo_of = pz_of + k;
		for (int j = 0; j < k; j++) {
			po_of[j] = adapters(t, tr->rack_a, 1, &pa_of[j]);
			pzo_of[j] = adapters(t, tr->rack_z, 1, &pz_of[j]);
		}
		tr->panel_a = pa_of[0], tr->port_a = po_of[0];
		tr->panel_z = pz_of[0], tr->port_z = pzo_of[0];
		const PanelInst *pa = &d->panels[tr->panel_a], *pz = &d->panels[tr->panel_z];
		Spot sa = {.rack = &d->racks[tr->rack_a], .u = pa->u}, sz = {.rack = &d->racks[tr->rack_z], .u = pz->u};
		tr->run = cable_run(sa, sz, height, tray);
		tr->length = stocked(trunk, tr->run);
		if (tr->length < 0) {
			unmet(t, "a trunk between panels", tr->run, trunk, trunk->cable.reach);
			tr->length = tr->run;
		}
		for (int j = i; j < end; j++) {
			CableInst *c = &d->cables[legs[j].cable];
			CableLeg *g = &d->cable_legs[legs[j].cable];
			const LinkInst *l = &d->links[c->link];
			Spot a = cable_spot(d, l->a), z = cable_spot(d, l->z);
			bool a_lo = (int)(a.rack - d->racks) == tr->rack_a;
			c->trunk = d->ntrunks;
			g->leg = j - i + 1;
			int q = j - i;
			g->panel_a = a_lo ? pa_of[q] : pz_of[q];
			g->panel_z = a_lo ? pz_of[q] : pa_of[q];
			g->port_a = a_lo ? po_of[q] : pzo_of[q];
			g->port_z = a_lo ? pzo_of[q] : po_of[q];
			g->cord_a = cord(t, c, a.u, d->panels[g->panel_a].u);
			g->cord_z = cord(t, c, z.u, d->panels[g->panel_z].u);
			/* The channel the optics drive: both cords and the trunk. */
			double channel = g->cord_a + tr->length + g->cord_z;
			double reach = fmin(c->optic_a ? c->optic_a->optic.reach : INFINITY,
					    c->optic_z ? c->optic_z->optic.reach : INFINITY);
			if (channel > reach + 1e-9)
				unmet(t, "a channel through a trunk", channel,
				      c->optic_a ? c->optic_a : c->optic_z, reach);
			/* The link's share: two cords instead of one, a leg of the trunk. */
			double per_m = c->cable->cable.price_per_m;
			c->price += per_m * (g->cord_a + g->cord_z - c->length) + c->cable->price +
				    (trunk->price + trunk->cable.price_per_m * tr->length) / k +
				    2 * t->panel->price / t->panel->panel.ports;
		}
		free(pa_of);
		free(pz_of);
		d->ntrunks++;
		i = end;
	}
}

/* The channel a link through a trunk would have, at most: a cord from its device to the top
 * of each rack and a trunk between the two tops, each rounded up as bought. */
static double channel_bound(Design *d, const CableInst *c, const Part *trunk, double height,
			    double tray)
{
	const LinkInst *l = &d->links[c->link];
	Spot a = cable_spot(d, l->a), z = cable_spot(d, l->z);
	Spot ta = {.rack = a.rack, .u = a.rack->type->height_u}, tz = {.rack = z.rack, .u = z.rack->type->height_u};
	double sum = 0;
	const Spot *ends[2][2] = {{&a, &ta}, {&z, &tz}};
	for (int e = 0; e < 2; e++) {
		double run = cable_run((Spot){.u = ends[e][0]->u}, (Spot){.u = ends[e][1]->u}, 0, 0);
		double len = stocked(c->cable, run);
		sum += len < 0 ? run : len;
	}
	double run = cable_run(ta, tz, height, tray), len = stocked(trunk, run);
	return sum + (len < 0 ? run : len);
}

/* Media chosen for the direct runs may not reach across a channel of cords and a trunk (the
 * excess of each stocked length is fibre in the path too): the links whose channel would pass
 * their optics' reach get their media chosen again for the channel (cage.c; the optics reaching
 * further, single-mode where multimode falls short), their runs kept as measured. When nothing
 * serves the channel, the first choice stands and lay() reports the link (exit 2). Returns
 * whether the media were chosen again. */
static bool reach_channels(Design *d, int fi, const Leg *legs, int n, double height, double tray)
{
	int over = 0;
	double *saved = NULL;
	int *which = NULL;
	for (int k = 0; k < n; k++) {
		CableInst *c = &d->cables[legs[k].cable];
		double reach = fmin(c->optic_a ? c->optic_a->optic.reach : INFINITY,
				    c->optic_z ? c->optic_z->optic.reach : INFINITY);
		double channel = channel_bound(d, c, legs[k].trunk, height, tray);
		if (channel <= reach + 1e-9)
			continue;
		if (!saved) {
			saved = xmalloc(sizeof(double) * (size_t)n);
			which = xmalloc(sizeof(int) * (size_t)n);
		}
		saved[over] = c->run, which[over++] = legs[k].cable;
		c->run = channel;
	}
	if (!over)
		return false;
	bool served = cable_choose_again(d, fi) < 0;
	for (int k = 0; k < over; k++)
		d->cables[which[k]].run = saved[k];
	if (!served)
		cable_choose_again(d, fi);
	free(saved);
	free(which);
	return true;
}

int trunk_fabrics(Design *d)
{
	d->npanels = d->ntrunks = 0;
	d->cable_legs = NULL;
	if (d->ncables == 0)
		return 0;
	int errors = 0;
	Leg *legs = NULL;
	RackPanels *rp = NULL;
	bool *full = NULL;
	double tray = field_param_num(field_value(d->site, FLD_SITE_FLOOR), PRM_GRID_TRAY_HEIGHT);
	double height = d->rack_type->height;
	for (int fi = 0; fi < d->nfabrics; fi++) {
		const FabricInst *f = &d->fabrics[fi];
		const Part *panel;
		int ntrunks;
		if (!f->sized)
			continue;
		const Value *tv = field_value(f->decl, FLD_FABRIC_TRUNKS);
		int cap = tv && tv->kind == VAL_LIST ? tv->n : 0;
		const Part **trunks = arena_alloc(d->c->arena, sizeof(Part *) * (size_t)(cap + 1));
		int e = fabric_parts(d, f, &panel, trunks, cap, &ntrunks);
		errors += e;
		if (e || !panel)
			continue;
		if (!legs) {
			legs = xmalloc(sizeof(Leg) * (size_t)d->ncables);
			rp = xmalloc(sizeof(RackPanels) * (size_t)d->nracks);
			full = xmalloc(sizeof(bool) * (size_t)d->nracks);
			for (int r = 0; r < d->nracks; r++)
				rp[r] = (RackPanels){-1, 0}, full[r] = false;
			/* At most a trunk and two panels per link. */
			d->trunks = arena_alloc(d->c->arena, sizeof(TrunkInst) * (size_t)d->ncables);
			d->panels = arena_alloc(d->c->arena, sizeof(PanelInst) * (size_t)(2 * d->ncables));
			/* by cable (ir_cable_leg): read only where a cable's trunk >= 0 */
			d->cable_legs = arena_alloc(d->c->arena, sizeof(CableLeg) * (size_t)d->ncables);
		}
		int n = qualifying(d, fi, trunks, ntrunks, legs);
		if (reach_channels(d, fi, legs, n, height, tray))
			n = qualifying(d, fi, trunks, ntrunks, legs); /* media chosen again */
		qsort(legs, (size_t)n, sizeof(Leg), leg_cmp);
		TrunkCtx t = {d, f, fi, panel, rp, full};
		lay(&t, legs, n, height, tray);
	}
	free(legs);
	free(rp);
	free(full);
	return errors;
}
