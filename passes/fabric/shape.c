/*
 * shape.c — what the topology families share to size a shape: counts clamped to int, the
 * links-per-plane limit, parameters whose default a family computes, the split of a switch's
 * ports by a down:up ratio, and the smallest change a message offers (more planes, a larger
 * switch), found by sizing the shape again on a copy.
 */
#include "fabric.h"

#include <math.h>
#include <string.h>

int shape_count(double v)
{
	return v > FABRIC_COUNT_MAX ? FABRIC_COUNT_MAX + 1 : (int)v;
}

/* False (after a Violation) when a plane of `links` links is more than FABRIC_LINKS_MAX. */
bool shape_wirable(Design *d, const FabricInst *f, Loc at, double links)
{
	if (links <= (double)FABRIC_LINKS_MAX)
		return true;
	design_violation(d, at, links / (double)FABRIC_LINKS_MAX - 1, f->decl->name_loc, NULL,
			 "'%s' would have %.0f links per plane; clusterc wires at most %ld: use "
			 "smaller parameters",
			 f->decl->name, links, FABRIC_LINKS_MAX);
	return false;
}

/* A parameter of a constructor value whose default a pass computes: its number, or def when
 * absent or left open (auto). */
double shape_param(const Value *ctor, ParamId p, double def)
{
	double v;
	return field_param_num_set(ctor, p, &v) ? v : def;
}

/* The smallest divisor of n that is at least want, or 0 when want > n. */
int shape_divisor_at_least(int n, int want)
{
	if (want < 1)
		want = 1;
	for (int s = want; s <= n; s++)
		if (n % s == 0)
			return s;
	return 0;
}

char *shape_gbps(Design *d, double v)
{
	char buf[64];
	qty_format((Qty){v, dim_make(0, 0, -1, 0, 1, 0)}, buf, sizeof buf);
	return arena_strdup(d->c->arena, buf);
}

bool shape_suggesting(const Design *d, const FabricInst *f)
{
	return !f->probing && !d->quiet;
}

/* A split of n ports whose down:up ratio comes within 1 % of want: *down and *up set. */
static bool split_within(int n, double want, double down_ratio, double up_ratio, int *down, int *up)
{
	int lo = (int)floor(n * down_ratio / (down_ratio + up_ratio) + 1e-9);
	for (int dn = lo; dn <= lo + 1; dn++) {
		if (dn < 1 || dn > n - 1)
			continue;
		if (fabs((double)dn / (n - dn) / want - 1) <= 0.01) {
			*down = dn, *up = n - dn;
			return true;
		}
	}
	return false;
}

/* The split of k ports for a down:up ratio. Every port when a whole split of all k comes within
 * 1 % of the ratio (64 ports at 3:1: 48 down, 16 up); else the split within 1 % that leaves the
 * fewest ports idle (2:1 on 64 ports: 42:21, one port idle; 5:1: 50:10, four idle), as a
 * designer cables it. False (after a Violation) when no split of k ports or fewer comes that
 * close: the nearest splits of all k are offered, and the smallest switch that has the ratio. */
bool shape_split_ports(Design *d, FabricInst *f, Loc at, const char *tier, int k,
			double down_ratio, double up_ratio, int *down, int *up)
{
	double want = down_ratio / up_ratio;
	for (int n = k; n >= 2; n--)
		if (split_within(n, want, down_ratio, up_ratio, down, up))
			return true;
	int lo = (int)floor(k * down_ratio / (down_ratio + up_ratio) + 1e-9);
	if (lo < 1)
		lo = 1;
	if (lo > k - 1)
		lo = k - 1;
	int hi = lo + 1 < k ? lo + 1 : lo;
	*down = lo, *up = k - lo;
	const char *nearest =
		hi == lo ? arena_printf(d->c->arena, "the nearest split is %d:%d (%.3g:1)", lo,
					k - lo, (double)lo / (k - lo))
			 : arena_printf(d->c->arena, "the nearest splits are %d:%d (%.3g:1) and "
							"%d:%d (%.3g:1)",
					lo, k - lo, (double)lo / (k - lo), hi, k - hi,
					(double)hi / (k - hi));
	/* The smallest radix that has the ratio, up to 4 times this one. */
	const char *fix = "";
	int dn, u;
	for (int n = k + 1; n <= 4 * k && shape_suggesting(d, f); n++)
		if (split_within(n, want, down_ratio, up_ratio, &dn, &u)) {
			fix = arena_printf(d->c->arena, ": use a switch with %d ports at %s or more "
							   "(%d:%d)",
					   n, shape_gbps(d, f->link_speed), dn, u);
			break;
		}
	design_violation(d, at, fabs((double)lo / (k - lo) / want - 1), f->decl->name_loc, NULL,
			 "%g:%g cannot be had on %d-port %s switches: %s%s", down_ratio, up_ratio, k,
			 tier, nearest, fix);
	return false;
}

void shape_ratio_at(const Value *v, int tier, double *down, double *up)
{
	*down = 1, *up = 1;
	if (!v)
		return;
	const Value *r = v->kind == VAL_LIST ? (tier < v->n ? v->items[tier] : NULL) : tier == 0 ? v : NULL;
	if (r && r->kind == VAL_RATIO)
		*down = r->a, *up = r->b;
}

/* ---- the smallest change a message offers ---------------------------------------------------- */

/* Whether the shape would hold with another plane count, radix or tier count: sized again on
 * a copy, its violations dropped. Only for the design reported (not while choices are
 * explored). */
bool shape_fits(Design *d, const FabricInst *f, const Value *topo, int nodes,
		       int extra_ports, int planes, int radix, int tiers)
{
	FabricInst t = *f;
	t.planes = planes;
	t.radix = radix;
	/* A larger switch for the tiers that have the fabric's (the others keep theirs). */
	for (int i = 0; i < 3; i++)
		if (t.tier_radix[i] == f->radix)
			t.tier_radix[i] = radix;
	t.probing = true;
	t.probe_tiers = tiers;
	memset(t.per_plane, 0, sizeof t.per_plane);
	memset(t.links_per_plane, 0, sizeof t.links_per_plane);
	int before = d->violations.n;
	bool ok = f->family->size(d, &t, topo, nodes, extra_ports) && d->violations.n == before;
	d->violations.n = before;
	return ok;
}

/* "planes = P": the fewest planes (a divisor of the rails, more than now) that fit; or NULL. */
const char *shape_more_planes(Design *d, const FabricInst *f, const Value *topo, int nodes,
			       int extra_ports)
{
	for (int pl = f->planes + 1; shape_suggesting(d, f) && pl <= f->rails; pl++)
		if (f->rails % pl == 0 && shape_fits(d, f, topo, nodes, extra_ports, pl, f->radix, 0))
			return arena_printf(d->c->arena, "planes = %d", pl);
	return NULL;
}

/* "a switch with K ports at SPEED or more": the smallest radix (up to 4 times this one) that
 * fits with the planes as they are; or NULL. */
const char *shape_more_ports(Design *d, const FabricInst *f, const Value *topo, int nodes,
			      int extra_ports)
{
	for (int k = f->radix + 1; shape_suggesting(d, f) && k <= 4 * f->radix; k++)
		if (shape_fits(d, f, topo, nodes, extra_ports, f->planes, k, 0))
			return arena_printf(d->c->arena, "a switch with %d ports at %s or more", k,
					    shape_gbps(d, f->link_speed));
	return NULL;
}

/* "A, or B", "A", "B" or `otherwise`. */
const char *shape_either(Design *d, const char *a, const char *b, const char *otherwise)
{
	if (a && b)
		return arena_printf(d->c->arena, "%s, or %s", a, b);
	return a ? a : b ? b : otherwise;
}

