/*
 * verify_media.c — proof, after cabling, that every medium chosen can be built (cage.c chooses
 * them so by construction; this pass checks the result independently, from the IR alone):
 *  1. a switch cage takes one part: every cable with an end in it names the same module at
 *     that end, counted (module_a/z) on exactly one of them; or all are legs of one assembly
 *     and name no module there; never two kinds of media;
 *  2. a module fits its cage: its ports divide the cage's lanes and its ports x speed fit the
 *     cage's room; a module in a NIC port is single-port;
 *  3. an assembly (a cable counted once for several legs) has at most `ports` legs, all of the
 *     same part and length, with one end of every leg in one cage (its head), and a
 *     multi-lane head only in a cage of exactly that many lanes: no single-port cable in a
 *     twin-port cage, no breakout leg outside the lanes of its assembly's cage;
 *  4. every part reaches: the run fits in the length bought, the length within the cable's
 *     reach and within every module's at its ends;
 *  5. structured cabling (trunk.c): a trunk carries at most its part's legs, exactly the links
 *     that name it, between panels in its two racks; each link's panels stand in the racks of
 *     its ends; no panel adapter takes two links, none past the panel's; trunk, panel and cord
 *     share one connector; a panel stands above its rack's devices, inside the rack (unless
 *     the design already misses a requirement for want of room).
 * A failure is a bug in clusterc, not in the spec: an internal-error diagnostic (exit 70).
 */
#include "verify_memo.h"

#include <stdlib.h>

typedef struct MediaCheck {
	Design *d;
	int failures;
} MediaCheck;

static void media_fail(MediaCheck *v, const CableInst *c, const char *what)
{
	if (v->failures++ >= 5)
		return;
	const LinkInst *l = &v->d->links[c->link];
	Buf b = {0};
	ir_end_port(&b, v->d, l->a);
	diag_set_code(diag_error(v->d->p->c, NOLOC, "internal error: cable of %s:%s (link %d): %s",
				 ir_end_device(v->d, l->a), b.s, c->link, what),
		      "internal");
	buf_free(&b);
}

static End end_of(const Design *d, const CableInst *c, int e)
{
	return e ? d->links[c->link].z : d->links[c->link].a;
}

/* What a cage has taken so far: the first cable with an end in it and that end. */
typedef struct CageSeen {
	int cable, end, counted;
} CageSeen;

/* 1 and 2: cable i's end e in a switch cage, against what the cage took before. */
static void check_cage_end(MediaCheck *v, CageSeen *seen, int i, int e)
{
	const Design *d = v->d;
	const CableInst *c = &d->cables[i];
	const Part *o = e ? c->optic_z : c->optic_a;
	seen->counted += e ? c->module_z : c->module_a;
	if (seen->cable < 0) {
		*seen = (CageSeen){i, e, seen->counted};
		End end = end_of(d, c, e);
		int cage, lane, lanes;
		double room = cable_switch_cage(&d->switches[end.dev], end.port, &cage, &lane, &lanes);
		if (o && (lanes % o->optic.ports || o->optic.ports * o->optic.speed > room * (1 + 1e-9)))
			media_fail(v, c, "a module that does not fit its cage's lanes");
		return;
	}
	const CableInst *c0 = &d->cables[seen->cable];
	if (o != (seen->end ? c0->optic_z : c0->optic_a) || (!o && c->assembly != c0->assembly))
		media_fail(v, c, "two kinds of media in one switch cage");
}

/* 3: the legs of every assembly counted on cable i. */
static void check_assemblies(MediaCheck *v, const int *legs, const int *next)
{
	const Design *d = v->d;
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *head = &d->cables[i];
		if (head->assembly != i || !head->cable || legs[i] <= 1)
			continue;
		const Part *p = head->cable;
		bool optics = head->optic_a || head->optic_z;
		int ports = optics ? p->cable.breakout : p->cable.ports;
		if (legs[i] > ports)
			media_fail(v, head, "more legs than its assembly has");
		/* One end of every leg in one cage: the head. */
		for (int side = 0; side < 2; side++) {
			bool one = true;
			int cage0 = side ? head->cage_z : head->cage_a;
			End e0 = end_of(d, head, side);
			for (int k = i; k >= 0; k = next[k]) {
				const CableInst *c = &d->cables[k];
				End e = end_of(d, c, side);
				one &= cage0 >= 0 && e.kind == e0.kind && e.dev == e0.dev &&
				       (side ? c->cage_z : c->cage_a) == cage0;
				if (c->cable != p || c->length != head->length)
					media_fail(v, c, "legs of one assembly of different parts or lengths");
			}
			if (one)
				goto headed;
		}
		media_fail(v, head, "breakout legs outside the lanes of one cage");
headed:;
	}
}

/* 3 (single legs) and 4: each cable by itself. */
static void check_cable(MediaCheck *v, const CableInst *c)
{
	const Design *d = v->d;
	if (c->run > c->length + 1e-9 || c->length > c->cable->cable.reach + 1e-9)
		media_fail(v, c, "a run longer than the cable bought, or past its reach");
	const Part *o[2] = {c->optic_a, c->optic_z};
	for (int e = 0; e < 2; e++) {
		End end = end_of(d, c, e);
		if (o[e] && o[e]->optic.reach < c->length - 1e-9)
			media_fail(v, c, "a module whose reach is shorter than its fibre");
		if (o[e] && end.kind == END_NODE && o[e]->optic.ports != 1)
			media_fail(v, c, "a multi-port module in a NIC port");
		if (o[e] || end.kind != END_SWITCH || d->switches[end.dev].model->kind == KIND_OCS)
			continue;
		int cage, lane, lanes;
		cable_switch_cage(&d->switches[end.dev], end.port, &cage, &lane, &lanes);
		int head = c->cable->cable.ports, per_leg = head / c->cable->cable.breakout;
		/* Its head here (lanes == ports) or one of its legs (lanes == ports / breakout). */
		if (lanes != head && lanes != per_leg)
			media_fail(v, c, "an assembly end in a cage of another lane count (a single-port "
					 "cable in a twin-port cage)");
	}
}

static void trunk_fail(MediaCheck *v, int t, const char *what)
{
	if (v->failures++ >= 5)
		return;
	Buf b = {0};
	ir_trunk_name(&b, v->d, t);
	diag_set_code(diag_error(v->d->p->c, NOLOC, "internal error: trunk %s: %s", b.s, what),
		      "internal");
	buf_free(&b);
}

/* 5: the trunks, panels and the links through them. */
static void check_trunks(MediaCheck *v)
{
	const Design *d = v->d;
	if (!d->ntrunks && !d->npanels)
		return;
	int *first = xmalloc(sizeof(int) * (size_t)(d->npanels + 1)), total = 0;
	for (int p = 0; p < d->npanels; p++) {
		first[p] = total;
		total += d->panels[p].part->panel.ports;
		const PanelInst *pi = &d->panels[p];
		const RackInst *rk = &d->racks[pi->rack];
		bool room = (pi->u - 1) * 0.04445 >= rk->height_used - 1e-6 &&
			    pi->u + pi->part->height_u - 1 <= rk->type->height_u;
		if (!room && d->violations.n == 0)
			trunk_fail(v, 0, "a patch panel over its rack's devices or past its top");
	}
	bool *taken = calloc((size_t)total + 1, sizeof(bool));
	int *carried = calloc((size_t)d->ntrunks + 1, sizeof(int));
	if (!taken || !carried)
		die_oom();
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		if (c->trunk < 0)
			continue;
		if (c->trunk >= d->ntrunks) {
			media_fail(v, c, "a trunk past the design's");
			continue;
		}
		const TrunkInst *t = &d->trunks[c->trunk];
		carried[c->trunk]++;
		const CableLeg *g = ir_cable_leg(d, c);
		const int panel[2] = {g->panel_a, g->panel_z}, port[2] = {g->port_a, g->port_z};
		for (int e = 0; e < 2; e++) {
			int r, u;
			ir_end_place(d, end_of(d, c, e), &r, &u);
			const PanelInst *p = &d->panels[panel[e]];
			if (p->rack != r || (r != t->rack_a && r != t->rack_z))
				media_fail(v, c, "a patch panel outside the rack of its end or its trunk");
			if (port[e] < 1 || port[e] > p->part->panel.ports) {
				media_fail(v, c, "an adapter past its panel's");
				continue;
			}
			bool *slot = &taken[first[panel[e]] + port[e] - 1];
			if (*slot)
				media_fail(v, c, "a panel adapter that takes two links");
			*slot = true;
		}
		if (!c->cable || c->cable->cable.connector != t->part->cable.connector ||
		    d->panels[g->panel_a].part->panel.connector != t->part->cable.connector)
			media_fail(v, c, "cord, panel and trunk of different connectors");
	}
	for (int t = 0; t < d->ntrunks; t++) {
		const TrunkInst *tr = &d->trunks[t];
		if (carried[t] != tr->legs || tr->legs < 1 || tr->legs > tr->part->cable.ports)
			trunk_fail(v, t, "legs other than the links it carries, or past its part's");
		if (d->panels[tr->panel_a].rack != tr->rack_a || d->panels[tr->panel_z].rack != tr->rack_z)
			trunk_fail(v, t, "a first panel outside its rack");
		if (tr->run > tr->length + 1e-9 && d->violations.n == 0)
			trunk_fail(v, t, "a run longer than the trunk made");
	}
	free(first);
	free(taken);
	free(carried);
}

/* The inputs of the checks above (the memo, verify_memo.c): all they read but the names and
 * places that only a failure prints. Every part they read through a pointer is one of
 * Design.parts (else the key is bad and nothing is kept), so the key holds its index there
 * and, per part, every figure read of it: kind, height in units, the switch's ports, cages and
 * port speed, the cable's reach, connector, breakout and ports, the module's speed, reach and
 * ports, the panel's adapters and connector. Then the counts and whether the design misses a
 * requirement; per switch its model, radix, breakout, split and up breakout (its cages,
 * cable_switch_cage), rack and unit; per cable its link's ends (kind, device, port), its cable
 * and modules, which module it counts, its assembly, cages, run and length. With structured
 * cabling (check_trunks, which reads nothing else) also per cable its trunk, panels and
 * adapters, per node, extra device and accelerator the rack and unit (ir_end_place), per panel
 * its part, rack and unit, per rack its type and height used, per trunk its part, racks, first
 * panels, legs, run and length. */
static inline int32_t part_at(const Design *d, KeySink *s, const Part *p)
{
	if (!p)
		return -1;
	if (p < d->parts || p >= d->parts + d->nparts)
		s->bad = true;
	return (int32_t)(p - d->parts);
}

static void part_ref(const Design *d, KeySink *s, const Part *p)
{
	key_put(s, part_at(d, s, p));
}

static void media_key(const Design *d, KeySink *s)
{
	key_put_ptr(s, d->parts), key_put(s, d->nparts);
	for (int i = 0; i < d->nparts; i++) {
		const Part *p = &d->parts[i];
		key_put(s, p->kind), key_put(s, p->height_u);
		key_put(s, p->sw.ports), key_put(s, p->sw.cages), key_put_double(s, p->sw.port_speed);
		key_put_double(s, p->cable.reach), key_put(s, p->cable.connector);
		key_put(s, p->cable.breakout), key_put(s, p->cable.ports);
		key_put_double(s, p->optic.speed), key_put_double(s, p->optic.reach);
		key_put(s, p->optic.ports), key_put(s, p->panel.ports), key_put(s, p->panel.connector);
	}
	key_put(s, d->nswitches), key_put(s, d->ncables), key_put(s, d->nnodes);
	key_put(s, d->nextras), key_put(s, d->naccels), key_put(s, d->npanels);
	key_put(s, d->nracks), key_put(s, d->ntrunks), key_put(s, d->violations.n > 0);
	for (int i = 0; i < d->nswitches && !s->differs; i++) {
		const SwitchInst *w = &d->switches[i];
		part_ref(d, s, w->model);
		key_put(s, w->radix), key_put(s, w->breakout), key_put(s, w->split);
		key_put(s, w->up_breakout), key_put(s, w->rack), key_put(s, w->u);
	}
	bool trunks = d->ntrunks || d->npanels; /* else check_trunks reads nothing */
	for (int i = 0; i < d->ncables && !s->differs; i++) {
		const CableInst *c = &d->cables[i];
		const LinkInst *l = &d->links[c->link];
		key_room(s, 24);
		key_raw(s, (int32_t)((uint32_t)l->a.kind | (uint32_t)l->z.kind << 8 |
				     (uint32_t)c->module_a << 16 | (uint32_t)c->module_z << 24));
		key_raw(s, l->a.dev), key_raw(s, l->a.port), key_raw(s, l->z.dev);
		key_raw(s, l->z.port), key_raw(s, part_at(d, s, c->cable));
		key_raw(s, part_at(d, s, c->optic_a)), key_raw(s, part_at(d, s, c->optic_z));
		key_raw(s, c->link), key_raw(s, c->assembly), key_raw(s, c->cage_a);
		key_raw(s, c->cage_z), key_raw_double(s, c->run), key_raw_double(s, c->length);
		if (trunks) {
			/* what check_trunks reads: a leg's panels and adapters where it has one */
			const CableLeg *g = c->trunk >= 0 ? ir_cable_leg(d, c) : NULL;
			key_raw(s, c->trunk), key_raw(s, g ? g->panel_a : -1);
			key_raw(s, g ? g->panel_z : -1), key_raw(s, g ? g->port_a : -1);
			key_raw(s, g ? g->port_z : -1);
		}
	}
	if (!trunks)
		return;
	for (int i = 0; i < d->nnodes && !s->differs; i++)
		key_put(s, d->nodes[i].rack), key_put(s, d->nodes[i].u);
	for (int i = 0; i < d->nextras; i++)
		key_put(s, d->extras[i].rack), key_put(s, d->extras[i].u);
	for (int i = 0; i < d->naccels && !s->differs; i++)
		key_put(s, d->accels[i].node);
	for (int i = 0; i < d->npanels; i++) {
		const PanelInst *p = &d->panels[i];
		part_ref(d, s, p->part);
		key_put(s, p->rack), key_put(s, p->u);
	}
	for (int i = 0; i < d->nracks; i++) {
		part_ref(d, s, d->racks[i].type);
		key_put_double(s, d->racks[i].height_used);
	}
	for (int i = 0; i < d->ntrunks; i++) {
		const TrunkInst *t = &d->trunks[i];
		part_ref(d, s, t->part);
		key_put(s, t->rack_a), key_put(s, t->rack_z), key_put(s, t->panel_a);
		key_put(s, t->panel_z), key_put(s, t->legs), key_put_double(s, t->run);
		key_put_double(s, t->length);
	}
}

static VerifyMemo memo;

int verify_media(Design *d)
{
	bool memo_on = verify_memo_on(d);
	if (memo_on && verify_memo_clean(&memo, d, media_key))
		return 0;
	int before = diag_errors(d->p->c);
	MediaCheck v = {d, 0};
	/* Every switch's cages as one range of ids. */
	int *base = xmalloc(sizeof(int) * (size_t)(d->nswitches + 1)), total = 0;
	for (int i = 0; i < d->nswitches; i++) {
		const SwitchInst *w = &d->switches[i];
		int cage = -1, lane, lanes;
		if (w->model->kind != KIND_OCS && w->radix > 0)
			cable_switch_cage(w, w->radix - 1, &cage, &lane, &lanes);
		base[i] = total;
		total += cage + 1;
	}
	base[d->nswitches] = total;
	CageSeen *seen = xmalloc(sizeof(CageSeen) * (size_t)(total + 1));
	for (int k = 0; k < total; k++)
		seen[k] = (CageSeen){-1, 0, 0};
	int *legs = calloc((size_t)d->ncables + 1, sizeof(int));
	int *next = xmalloc(sizeof(int) * (size_t)(d->ncables + 1));
	int *last = xmalloc(sizeof(int) * (size_t)(d->ncables + 1));
	if (!legs)
		die_oom();
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		next[i] = -1;
		if (!c->cable)
			continue;
		check_cable(&v, c);
		int a = c->assembly;
		if (a < 0 || a > i || d->cables[a].assembly != a) {
			media_fail(&v, c, "a leg of an assembly counted on no cable");
			continue;
		}
		if (legs[a]++ > 0)
			next[last[a]] = i;
		last[a] = i;
		for (int e = 0; e < 2; e++) {
			int cage = e ? c->cage_z : c->cage_a;
			End end = end_of(d, c, e);
			if (cage < 0 || end.kind != END_SWITCH)
				continue;
			if (base[end.dev] + cage >= base[end.dev + 1])
				media_fail(&v, c, "a cage past its switch's cages");
			else
				check_cage_end(&v, &seen[base[end.dev] + cage], i, e);
		}
	}
	for (int k = 0; k < total; k++)
		if (seen[k].cable >= 0) {
			const CableInst *c0 = &d->cables[seen[k].cable];
			if ((seen[k].end ? c0->optic_z : c0->optic_a) && seen[k].counted != 1)
				media_fail(&v, c0, "a cage's module is not counted exactly once");
		}
	check_assemblies(&v, legs, next);
	check_trunks(&v);
	free(base);
	free(seen);
	free(legs);
	free(next);
	free(last);
	int failures = diag_errors(d->p->c) - before;
	if (failures)
		d->p->internal_error = true;
	else if (memo_on)
		verify_memo_keep_clean(&memo, d, media_key);
	return failures;
}
