/*
 * expand_plan.c — the change plan of a build grown from an earlier one (`build --from`,
 * docs/daytwo.md): every cable and device of both builds matched by name and port, as the lock
 * numbers ports (backends/network/lock.c).
 *
 * A cable of the new build whose two ends a prior cable had is kept. One that shares only one
 * end with a prior cable not kept is that cable moved: the shared end stays plugged, the other
 * is re-plugged from where it was. Any other new cable is added, any prior cable left over
 * removed. A device of the new build the prior had not is installed; one it had elsewhere
 * (another rack or U) relocated; a prior device the new build has not is removed.
 *
 * Pull order (Design.expansion.changes): install the new devices, uncabled; remove the cables
 * to go; relocate devices; move cables; add cables; remove the devices no longer planned.
 * Within a step, rack by rack in floor order (a cable at the rack of the end worked on: the
 * re-plugged end of a move, the A end otherwise), then by U and name.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct Sorted {
	Change c;
	int row, pos, u;
	const char *name;
} Sorted;

static int sorted_cmp(const void *a, const void *b)
{
	const Sorted *x = a, *y = b;
	if (x->c.kind != y->c.kind)
		return (x->c.kind > y->c.kind) - (x->c.kind < y->c.kind);
	if (x->row != y->row)
		return (x->row > y->row) - (x->row < y->row);
	if (x->pos != y->pos)
		return (x->pos > y->pos) - (x->pos < y->pos);
	if (x->u != y->u)
		return (x->u > y->u) - (x->u < y->u);
	return strcmp(x->name, y->name);
}

typedef struct Plan {
	Design *d;
	Sorted *v;
	int n, cap;
	ExpandName *prior_dev, *prior_rack, *prior_end;
	int nend;
	bool *prior_matched;
} Plan;

static Sorted *add(Plan *p, ChangeKind kind, const char *name)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->v = realloc(p->v, sizeof *p->v * (size_t)p->cap);
		if (!p->v)
			die_oom();
	}
	Sorted *s = &p->v[p->n++];
	*s = (Sorted){.c = {.kind = (uint8_t)kind, .cable = -1, .prior_cable = -1, .prior_device = -1,
			    .prior_a = -1, .prior_z = -1, .rack = -1},
		      .name = name};
	return s;
}

/* The place of a new rack, or of a prior device's rack, for the order. */
static void new_place(Sorted *s, const Design *d, int rack, int u)
{
	s->row = rack >= 0 ? d->racks[rack].row : -1;
	s->pos = rack >= 0 ? d->racks[rack].pos : -1;
	s->u = u;
}

static void prior_place(Sorted *s, const Plan *p, const char *device)
{
	const Prior *pr = p->d->prior;
	int k = expand_find(p->prior_dev, pr->ndevices, device);
	int r = k < 0 ? -1 : expand_find(p->prior_rack, pr->nracks, pr->devices[k].rack);
	s->row = r < 0 ? -1 : pr->racks[r].row;
	s->pos = r < 0 ? -1 : pr->racks[r].pos;
	s->u = k < 0 ? 0 : pr->devices[k].u;
}

/* A prior cable's ends' devices, for the files that print where they were. */
static void prior_ends(Sorted *s, const Plan *p, int c)
{
	const Prior *pr = p->d->prior;
	s->c.prior_cable = c;
	s->c.prior_a = expand_find(p->prior_dev, pr->ndevices, pr->cables[c].a);
	s->c.prior_z = expand_find(p->prior_dev, pr->ndevices, pr->cables[c].z);
}

/* ---- devices ----------------------------------------------------------------------------------- */

static void device_words(const Design *d, End e, const char **kind, const char **model)
{
	switch (e.kind) {
	case END_NODE: *kind = "node", *model = d->nodes[e.dev].type->name; break;
	case END_SWITCH:
		*kind = d->switches[e.dev].fabric < 0 ? "nvlink tray" : "switch";
		*model = d->switches[e.dev].model->name;
		break;
	case END_EXTRA: *kind = "fabric device", *model = d->extras[e.dev].type->name; break;
	default: *kind = "storage", *model = d->appliances[e.dev].type->name; break;
	}
}

static void plan_devices(Plan *p)
{
	Design *d = p->d;
	const Prior *pr = d->prior;
	int n;
	ExpandDevice *v = expand_devices(d, &n);
	bool *seen = xmalloc(sizeof(bool) * (size_t)(pr->ndevices + 1));
	memset(seen, 0, sizeof(bool) * (size_t)(pr->ndevices + 1));
	for (int i = 0; i < n; i++) {
		int k = expand_find(p->prior_dev, pr->ndevices, v[i].name);
		int rack = *v[i].rack, u = *v[i].u;
		if (k >= 0) {
			seen[k] = true;
			if (!strcmp(pr->devices[k].rack, d->racks[rack].name) && pr->devices[k].u == u) {
				d->expansion.kept_devices++;
				continue;
			}
		}
		Sorted *s = add(p, k >= 0 ? CHANGE_RELOCATE : CHANGE_INSTALL, v[i].name);
		s->c.prior_device = k;
		s->c.device = v[i].name;
		device_words(d, v[i].e, &s->c.device_kind, &s->c.model);
		s->c.rack = rack, s->c.u = u;
		new_place(s, d, rack, u);
	}
	for (int k = 0; k < pr->ndevices; k++)
		if (!seen[k] && !(k > 0 && !strcmp(pr->devices[k].name, pr->devices[k - 1].name))) {
			Sorted *s = add(p, CHANGE_REMOVE_DEVICE, pr->devices[k].name);
			s->c.prior_device = k;
			prior_place(s, p, pr->devices[k].name);
		}
	free(seen);
	free(v);
}

/* ---- cables ------------------------------------------------------------------------------------ */

/* "FABRIC|DEVICE:PORT" of a link end, ports as the lock numbers them. */
static const char *end_key(const Design *d, int fabric, End e)
{
	int port = e.kind == END_NODE ? e.port - d->nodes[e.dev].first_port : e.port;
	return arena_printf(d->c->arena, "%s|%s:%d", d->fabrics[fabric].name, ir_end_device(d, e), port);
}

/* The prior cable with an end at key, not matched yet (its side in *side), or -1. */
static int prior_at(const Plan *p, const char *key, int *side)
{
	int k = expand_find(p->prior_end, p->nend, key);
	if (k < 0 || p->prior_matched[k / 2])
		return -1;
	*side = k % 2;
	return k / 2;
}

static void plan_cables(Plan *p)
{
	Design *d = p->d;
	const Prior *pr = d->prior;
	Arena *a = d->c->arena;
	const char **ka = arena_alloc(a, sizeof(char *) * (size_t)(d->ncables + 1));
	const char **kz = arena_alloc(a, sizeof(char *) * (size_t)(d->ncables + 1));
	bool *matched = xmalloc(sizeof(bool) * (size_t)(d->ncables + 1));
	for (int i = 0; i < d->ncables; i++) {
		const LinkInst *l = &d->links[d->cables[i].link];
		matched[i] = l->fabric < 0; /* scale-up links are the node's, not the plan's */
		if (l->fabric < 0)
			continue;
		ka[i] = end_key(d, l->fabric, l->a), kz[i] = end_key(d, l->fabric, l->z);
		/* Kept: a prior cable with both ends. */
		int side, c = prior_at(p, ka[i], &side);
		const PriorCable *pc = c >= 0 ? &pr->cables[c] : NULL;
		const char *other = pc ? arena_printf(a, "%s|%s:%d", pc->fabric, side ? pc->a : pc->z,
						      side ? pc->a_port : pc->z_port)
				       : NULL;
		if (pc && !strcmp(other, kz[i])) {
			p->prior_matched[c] = matched[i] = true;
			d->expansion.kept_cables++;
		}
	}
	for (int i = 0; i < d->ncables; i++) {
		if (matched[i])
			continue;
		const LinkInst *l = &d->links[d->cables[i].link];
		int side, c = prior_at(p, ka[i], &side);
		bool moved_a = false;
		if (c < 0 && (c = prior_at(p, kz[i], &side)) >= 0)
			moved_a = true; /* the Z end stays: the A end is re-plugged */
		Sorted *s = add(p, c >= 0 ? CHANGE_MOVE_CABLE : CHANGE_ADD_CABLE, d->cable_ids[i]);
		s->c.cable = i, s->c.moved_a = moved_a;
		if (c >= 0) {
			prior_ends(s, p, c);
			p->prior_matched[c] = true;
		}
		End worked = moved_a || c < 0 ? l->a : l->z;
		int rack, u;
		ir_end_place(d, worked, &rack, &u);
		new_place(s, d, rack, u);
	}
	for (int c = 0; c < pr->ncables; c++)
		if (!p->prior_matched[c]) {
			Sorted *s = add(p, CHANGE_REMOVE_CABLE, pr->cables[c].id);
			prior_ends(s, p, c);
			prior_place(s, p, pr->cables[c].a);
		}
	free(matched);
}

static ExpandName *names_of_prior(Arena *a, const Prior *pr, int *nend)
{
	ExpandName *v = arena_alloc(a, sizeof *v * (size_t)(2 * pr->ncables + 1));
	for (int c = 0; c < pr->ncables; c++) {
		const PriorCable *pc = &pr->cables[c];
		v[2 * c] = (ExpandName){arena_printf(a, "%s|%s:%d", pc->fabric, pc->a, pc->a_port), 2 * c};
		v[2 * c + 1] = (ExpandName){arena_printf(a, "%s|%s:%d", pc->fabric, pc->z, pc->z_port),
					    2 * c + 1};
	}
	*nend = 2 * pr->ncables;
	expand_sort_names(v, *nend);
	return v;
}

int expand_plan(Design *d)
{
	if (!d->expansion.done)
		return 0;
	const Prior *pr = d->prior;
	Arena *a = d->c->arena;
	Plan p = {d, NULL, 0, 0, NULL, NULL, NULL, 0, NULL};
	p.prior_dev = arena_alloc(a, sizeof(ExpandName) * (size_t)(pr->ndevices + 1));
	p.prior_rack = arena_alloc(a, sizeof(ExpandName) * (size_t)(pr->nracks + 1));
	for (int i = 0; i < pr->ndevices; i++)
		p.prior_dev[i] = (ExpandName){pr->devices[i].name, i};
	for (int i = 0; i < pr->nracks; i++)
		p.prior_rack[i] = (ExpandName){pr->racks[i].name, i};
	expand_sort_names(p.prior_dev, pr->ndevices);
	expand_sort_names(p.prior_rack, pr->nracks);
	p.prior_end = names_of_prior(a, pr, &p.nend);
	p.prior_matched = arena_alloc(a, sizeof(bool) * (size_t)(pr->ncables + 1));
	memset(p.prior_matched, 0, sizeof(bool) * (size_t)(pr->ncables + 1));
	plan_devices(&p);
	plan_cables(&p);
	if (p.n > 0) /* qsort of no elements may not be given p.v = NULL */
		qsort(p.v, (size_t)p.n, sizeof *p.v, sorted_cmp);
	Expansion *e = &d->expansion;
	e->changes = arena_alloc(a, sizeof(Change) * (size_t)(p.n + 1));
	for (int i = 0; i < p.n; i++) {
		e->changes[i] = p.v[i].c;
		e->count[p.v[i].c.kind]++;
	}
	e->nchanges = p.n;
	free(p.v);
	return 0;
}
