/*
 * switch_plan.c — the layer-3 plan of an Ethernet fabric, for the switch configurations
 * (switch_config.c, docs/switch-configs.md): which fabrics get one, the addresses, the ASNs and
 * the SONiC names of the ports in use. A pass (after cabling): a plan that cannot be made is a
 * requirement the design does not meet (exit 2), with diagnostics at the fabric's fields.
 *
 * Which fabrics: those whose `protocol` is ethernet, or that say nothing and are built of
 * Ethernet switches. InfiniBand fabrics and a torus (no switches) get nothing.
 *
 * Addresses, from the fabric's pools (lang/schema.c gives the defaults):
 *  - switch i of the fabric (wiring order, from 0) has the loopback /32 `loopbacks` + i + 1;
 *  - link k of the fabric (wiring order, from 0) has the /31 `p2p` + 2k: the upper end (the
 *    switch a host or a lower tier attaches to: LinkInst.z) takes the even address, the end
 *    nearer the endpoints (LinkInst.a) the odd one. A host's gateway is thus always .even.
 * A fabric with its planes by port (plane_assignment given, more than one plane) gives each
 * plane its own address plan: each pool is cut into equal aligned shares, a power of two of
 * them, and plane q numbers its switches and links from 0 in share q (its switch i at
 * `loopbacks` + q·share + i + 1, its link k at `p2p` + q·share + 2k), so every plane's
 * addresses are one prefix of their own (Qian et al., SIGCOMM 2024: the two planes of HPN are
 * routed apart). Other fabrics keep the one plan above, unchanged.
 * A pool too small for the fabric, or the two pools overlapping, is an error at the field.
 *
 * ASNs (RFC 7938 §5.2.1, with the 32-bit private ASNs of RFC 6996 counted up from the fabric's
 * `asn`): every leaf, and every dragonfly router, has an ASN of its own; the spines of one plane
 * share one (in a 3-tier tree, the spines of one pod); the cores of one plane share one. ASNs
 * are handed out in wiring order, a new one at each leaf and at the first spine of a plane or
 * pod and the first core of a plane. Sharing an ASN among a tier is what keeps paths valley
 * free: a route that went up through a spine is never accepted by another spine of that tier.
 *
 * Port names are the switch model's faceplate names (passes/ir/ir.c, ir_switch_port_name).
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t PRIVATE16_FIRST = 64512, PRIVATE16_LAST = 65534;
static const uint32_t PRIVATE32_FIRST = 4200000000u, PRIVATE32_LAST = 4294967294u;

/* A fabric gets a plan when it is Ethernet and wired. */
static bool is_ethernet(const FabricInst *f)
{
	return f->sized && f->protocol == PROTO_ETHERNET;
}

/* A pool field: its prefix, and where to point a diagnostic (the value, else the fabric). */
static void pool(const FabricInst *f, FieldId field, uint32_t *net, int *len, Loc *loc,
		 const char **text)
{
	const Value *v = field_value(f->decl, field);
	const char *def = field_schemas[field].dflt.s;
	*text = field_str(f->decl, field);
	*loc = v ? v->loc : f->loc;
	if (!check_parse_cidr(*text, net, len)) /* check.c diagnosed it; the default parses */
		check_parse_cidr(def, net, len);
}

/* The longest prefix that holds n addresses starting at offset `first` of the pool. */
static int prefix_for(uint64_t n, uint64_t first)
{
	int len = 32;
	while (len > 0 && ((uint64_t)1 << (32 - len)) < n + first)
		len--;
	return len;
}

/* "the " or "the default " field, as diagnostics name a pool. */
static const char *the(const FabricInst *f, FieldId field)
{
	return field_value(f->decl, field) ? "the " : "the default ";
}

/* Checks that the pools hold the fabric and that its loopbacks and links do not meet. */
static int check_pools(const Design *d, SwitchPlan *sp)
{
	const FabricInst *f = sp->f;
	Ctx *c = d->c;
	int errors = 0;
	Loc lo_loc, pp_loc;
	const char *lo, *pp;
	int lo_len, pp_len;
	pool(f, FLD_FABRIC_LOOPBACKS, &sp->loopbacks, &lo_len, &lo_loc, &lo);
	pool(f, FLD_FABRIC_P2P, &sp->p2p, &pp_len, &pp_loc, &pp);
	uint64_t lo_size = (uint64_t)1 << (32 - lo_len), pp_size = (uint64_t)1 << (32 - pp_len);
	uint64_t nsw = (uint64_t)sp->nswitches, nln = (uint64_t)sp->nlinks;
	const char *per = "";
	if (sp->shares > 1) {
		/* Each plane in its share: the span up to the last plane's last address. */
		sp->lo_share = (uint32_t)(lo_size / (uint64_t)sp->shares);
		sp->pp_share = (uint32_t)(pp_size / (uint64_t)sp->shares) & ~1u;
		uint64_t most_sw = 0, most_ln = 0;
		for (int i = 0; i < sp->nswitches; i++)
			most_sw = (uint64_t)sp->slot[i] + 1 > most_sw ? (uint64_t)sp->slot[i] + 1 : most_sw;
		for (int k = 0; k < sp->nlinks; k++)
			most_ln = (uint64_t)sp->link_slot[k] + 1 > most_ln ? (uint64_t)sp->link_slot[k] + 1 : most_ln;
		int last = d->switches[sp->first + sp->nswitches - 1].plane;
		if (most_sw + 1 <= sp->lo_share)
			nsw = (uint64_t)last * sp->lo_share + most_sw;
		else
			nsw = (uint64_t)sp->shares * (most_sw + 1), per = " in planes of their own";
		if (most_ln * 2 <= sp->pp_share)
			nln = ((uint64_t)last * sp->pp_share) / 2 + most_ln;
		else
			nln = (uint64_t)sp->shares * most_ln, per = " in planes of their own";
	}
	if (nsw + 1 > lo_size) {
		Diag *g = diag_error(c, lo_loc,
				     "%sloopback pool %s holds %llu addresses; fabric '%s' has %d "
				     "switches%s (a /%d or larger is needed: the first address is not "
				     "used)",
				     the(f, FLD_FABRIC_LOOPBACKS), lo, (unsigned long long)lo_size - 1,
				     f->name, sp->nswitches, per, prefix_for(nsw, 1));
		diag_set_code(g, "address");
		errors++;
	}
	if (nln * 2 > pp_size) {
		Diag *g = diag_error(c, pp_loc,
				     "%slink pool %s holds %llu /31 subnets; fabric '%s' has %d links%s "
				     "(a /%d or larger is needed)",
				     the(f, FLD_FABRIC_P2P), pp, (unsigned long long)pp_size / 2,
				     f->name, sp->nlinks, per, prefix_for(nln * 2, 0));
		diag_set_code(g, "address");
		errors++;
	}
	/* The addresses used (not the whole pools) must not meet. */
	uint64_t lo_first = (uint64_t)sp->loopbacks + 1, lo_last = sp->loopbacks + nsw;
	uint64_t pp_first = sp->p2p, pp_last = sp->p2p + nln * 2 - 1;
	if (!errors && nsw && nln && lo_first <= pp_last && pp_first <= lo_last) {
		Diag *g = diag_error(c, pp_loc,
				     "%slink pool %s overlaps the loopbacks of fabric '%s' (%s): an "
				     "address would be used twice",
				     the(f, FLD_FABRIC_P2P), pp, f->name, lo);
		diag_note(g, lo_loc, "%sloopback pool", the(f, FLD_FABRIC_LOOPBACKS));
		diag_set_code(g, "address");
		errors++;
	}
	return errors;
}

/* Checks that the plan's ASNs stay in the range `asn` starts in. */
static int check_asns(const Design *d, SwitchPlan *sp)
{
	const FabricInst *f = sp->f;
	const Value *av = field_value(f->decl, FLD_FABRIC_ASN);
	double asn0 = field_num(f->decl, FLD_FABRIC_ASN);
	Loc loc = av ? av->loc : f->loc;
	if (asn0 < 1 || asn0 > PRIVATE32_LAST) /* check.c diagnosed it */
		asn0 = PRIVATE32_FIRST;
	sp->asn0 = (uint32_t)asn0;
	bool private16 = sp->asn0 >= PRIVATE16_FIRST && sp->asn0 <= PRIVATE16_LAST;
	bool private32 = sp->asn0 >= PRIVATE32_FIRST;
	uint32_t end = private16 ? PRIVATE16_LAST : PRIVATE32_LAST;
	double last = asn0 + sp->nasns - 1;
	if (sp->nasns > 0 && last > end) {
		Diag *g = diag_error(d->c, loc,
				     "fabric '%s' needs %d ASNs from %u, up to %.0f: beyond %u, the "
				     "last %s (RFC 6996)",
				     f->name, sp->nasns, sp->asn0, last, end,
				     private16 ? "16-bit private ASN" : "ASN there is");
		diag_set_code(g, "asn");
		return 1;
	}
	if (!private16 && !private32) {
		Diag *g = diag_warning(d->c, loc,
				       "ASN %u is not a private ASN (RFC 6996: 64512-65534 or "
				       "4200000000-4294967294); a fabric's BGP should not use public "
				       "ones",
				       sp->asn0);
		diag_set_code(g, "asn");
	}
	return 0;
}

/* ASNs in wiring order (see the top of the file). */
static void plan_asns(SwitchPlan *sp)
{
	const FabricInst *f = sp->f;
	const SwitchInst *sw = &sp->d->switches[sp->first];
	int groups = f->pods > 0 ? f->pods : 1;
	int *spine = xmalloc(sizeof(int) * (size_t)(f->planes * (groups + 1) + 1));
	int *core = xmalloc(sizeof(int) * (size_t)(f->planes + 1));
	for (int i = 0; i < f->planes * (groups + 1); i++)
		spine[i] = -1;
	for (int i = 0; i < f->planes; i++)
		core[i] = -1;
	int next = 0;
	for (int i = 0; i < sp->nswitches; i++) {
		const SwitchInst *s = &sw[i];
		int *slot = NULL;
		int plane = s->plane >= 0 && s->plane < f->planes ? s->plane : 0;
		if (s->tier == ST_SPINE) {
			bool pod = f->tiers == 3 && s->group >= 0 && s->group < groups;
			slot = &spine[plane * (groups + 1) + (pod ? s->group + 1 : 0)];
		} else if (s->tier == ST_CORE) {
			slot = &core[plane];
		}
		if (slot && *slot < 0)
			*slot = next++;
		sp->asn_index[i] = slot ? *slot : next++;
	}
	sp->nasns = next;
	free(spine);
	free(core);
}

static int by_port(const void *a, const void *b)
{
	const SwitchPort *x = a, *y = b;
	return (x->port > y->port) - (x->port < y->port);
}

/* A switch's ports in port order, stably (ports in link order before): most come in order
 * already, so a check first; else an insertion sort while they are few, qsort's merge sort
 * beyond (the same order: both stable). */
static void sort_ports(SwitchPort *v, int n)
{
	int i = 1;
	while (i < n && v[i - 1].port <= v[i].port)
		i++;
	if (i >= n)
		return;
	if (n > 64) {
		qsort(v, (size_t)n, sizeof *v, by_port);
		return;
	}
	for (; i < n; i++) {
		SwitchPort x = v[i];
		int j = i;
		for (; j > 0 && v[j - 1].port > x.port; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Every switch's ports in use, in port order, with their /31. */
static void plan_ports(Design *d, SwitchPlan *sp)
{
	int n = sp->nswitches;
	sp->port_start = arena_alloc(d->c->arena, sizeof(int) * (size_t)(n + 1));
	memset(sp->port_start, 0, sizeof(int) * (size_t)(n + 1));
	for (int k = 0; k < sp->nlinks; k++) {
		const LinkInst *l = &d->links[sp->first_link + k];
		if (l->a.kind == END_SWITCH)
			sp->port_start[l->a.dev - sp->first + 1]++;
		if (l->z.kind == END_SWITCH)
			sp->port_start[l->z.dev - sp->first + 1]++;
	}
	for (int i = 0; i < n; i++)
		sp->port_start[i + 1] += sp->port_start[i];
	sp->ports = arena_alloc(d->c->arena, sizeof(SwitchPort) * (size_t)(sp->port_start[n] + 1));
	int *fill = xmalloc(sizeof(int) * (size_t)(n + 1));
	memcpy(fill, sp->port_start, sizeof(int) * (size_t)(n + 1));
	for (int k = 0; k < sp->nlinks; k++) {
		const LinkInst *l = &d->links[sp->first_link + k];
		uint32_t net = sp->shares > 1 ? sp->p2p + (uint32_t)l->plane * sp->pp_share +
							2u * (uint32_t)sp->link_slot[k]
					      : sp->p2p + 2u * (uint32_t)k;
		if (l->z.kind == END_SWITCH)
			sp->ports[fill[l->z.dev - sp->first]++] =
				(SwitchPort){l->z.port, sp->first_link + k, l->a, net, net + 1};
		if (l->a.kind == END_SWITCH)
			sp->ports[fill[l->a.dev - sp->first]++] =
				(SwitchPort){l->a.port, sp->first_link + k, l->z, net + 1, net};
	}
	free(fill);
	for (int i = 0; i < n; i++)
		sort_ports(sp->ports + sp->port_start[i], sp->port_start[i + 1] - sp->port_start[i]);
}

static int plan_fabric(Design *d, int fi, SwitchPlan *sp)
{
	const FabricInst *f = &d->fabrics[fi];
	*sp = (SwitchPlan){.d = d, .f = f, .fi = fi, .first = f->first_switch,
			   .first_link = f->first_link};
	while (sp->first + sp->nswitches < d->nswitches &&
	       d->switches[sp->first + sp->nswitches].fabric == fi)
		sp->nswitches++;
	while (sp->first_link + sp->nlinks < d->nlinks &&
	       d->links[sp->first_link + sp->nlinks].fabric == fi)
		sp->nlinks++;
	sp->lanes = f->switch_model ? f->switch_model->sw.port_lanes : 8;
	sp->shares = 1;
	if (f->plane_form && f->planes > 1 && sp->nswitches > 0) {
		while (sp->shares < f->planes)
			sp->shares *= 2;
		int *seen = xmalloc(sizeof(int) * (size_t)(f->planes + 1));
		memset(seen, 0, sizeof(int) * (size_t)(f->planes + 1));
		sp->slot = arena_alloc(d->c->arena, sizeof(int) * (size_t)(sp->nswitches + 1));
		for (int i = 0; i < sp->nswitches; i++)
			sp->slot[i] = seen[d->switches[sp->first + i].plane]++;
		memset(seen, 0, sizeof(int) * (size_t)(f->planes + 1));
		sp->link_slot = arena_alloc(d->c->arena, sizeof(int) * (size_t)(sp->nlinks + 1));
		for (int k = 0; k < sp->nlinks; k++)
			sp->link_slot[k] = seen[d->links[sp->first_link + k].plane]++;
		free(seen);
	}
	sp->asn_index = arena_alloc(d->c->arena, sizeof(int) * (size_t)(sp->nswitches + 1));
	plan_asns(sp);
	int errors = check_pools(d, sp); /* then the ASNs: diagnostics in a fixed order */
	errors += check_asns(d, sp);
	sp->mtu = (int)field_num(f->decl, FLD_FABRIC_MTU);
	sp->lossless = field_bool(f->decl, FLD_FABRIC_LOSSLESS);
	/* The ports (a SwitchPort for each switch end of every link: 29 MB, a tenth of the
	 * 262k dragonfly's memory before emit) only for the switches' files, which a default
	 * build of a large fabric does not write: then planned when they are (switch_plan_ports),
	 * unless this pass's IR is dumped. */
	sp->ports_later = d->switch_ports_later && d->p->dump < STAGE_ADDRESS;
	if (!errors && !sp->ports_later)
		plan_ports(d, sp);
	return errors;
}

/* The addresses a plan uses from the start of each pool: up to the last plane's last one
 * (loopbacks: counted from the pool's first address, which is not used). */
static uint64_t loopback_span(const SwitchPlan *sp)
{
	uint64_t n = (uint64_t)sp->nswitches + 1;
	for (int i = 0; sp->shares > 1 && i < sp->nswitches; i++) {
		uint64_t e = (uint64_t)sp->d->switches[sp->first + i].plane * sp->lo_share + sp->slot[i] + 2;
		n = i == 0 || e > n ? e : n;
	}
	return n;
}

static uint64_t p2p_span(const SwitchPlan *sp)
{
	uint64_t n = (uint64_t)sp->nlinks * 2;
	for (int k = 0; sp->shares > 1 && k < sp->nlinks; k++) {
		uint64_t e = (uint64_t)sp->d->links[sp->first_link + k].plane * sp->pp_share +
			     2 * (uint64_t)sp->link_slot[k] + 2;
		n = k == 0 || e > n ? e : n;
	}
	return n;
}

/* Warns when the addresses of two fabrics overlap (a node on both would route badly). */
static void warn_overlaps(const Design *d)
{
	for (int i = 0; i < d->nfabrics; i++) {
		const SwitchPlan *a = &d->switch_plans[i];
		for (int j = 0; a->f && j < i; j++) {
			const SwitchPlan *b = &d->switch_plans[j];
			if (!b->f)
				continue;
			uint64_t a0 = a->p2p, a1 = a->p2p + p2p_span(a);
			uint64_t b0 = b->p2p, b1 = b->p2p + p2p_span(b);
			uint64_t l0 = a->loopbacks + 1, l1 = a->loopbacks + loopback_span(a);
			uint64_t m0 = b->loopbacks + 1, m1 = b->loopbacks + loopback_span(b);
			if ((a0 < b1 && b0 < a1) || (l0 < m1 && m0 < l1) || (a0 < m1 && m0 < a1) ||
			    (l0 < b1 && b0 < l1)) {
				const Value *v = field_value(a->f->decl, FLD_FABRIC_P2P);
				Loc loc = v ? v->loc : a->f->loc;
				Diag *g = diag_warning(d->c, loc,
						       "the addresses of fabric '%s' overlap those of "
						       "fabric '%s': a node on both would see one subnet "
						       "twice; give each fabric its own 'loopbacks' and "
						       "'p2p' pools",
						       a->f->name, b->f->name);
				diag_note(g, b->f->loc, "fabric '%s'", b->f->name);
				diag_set_code(g, "address");
			}
		}
	}
}

int switch_plan_fabrics(Design *d)
{
	d->switch_plans = arena_alloc(d->c->arena, sizeof(SwitchPlan) * (size_t)(d->nfabrics + 1));
	int errors = 0;
	for (int fi = 0; fi < d->nfabrics; fi++) {
		SwitchPlan *sp = &d->switch_plans[fi];
		if (!is_ethernet(&d->fabrics[fi]))
			continue;
		if (!d->fabrics[fi].family->switched) {
			*sp = (SwitchPlan){0}; /* a torus: its optical circuit switches route no packets */
			continue;
		}
		errors += plan_fabric(d, fi, sp);
		if (d->fabrics[fi].switches == 0)
			*sp = (SwitchPlan){0}; /* a torus: addresses for no switch */
	}
	if (!errors)
		warn_overlaps(d);
	d->p->unmet += errors; /* requirements the design does not meet: exit 2 */
	return errors;
}

void switch_plan_ports(Design *d)
{
	for (int fi = 0; d->switch_plans && fi < d->nfabrics; fi++) {
		SwitchPlan *sp = &d->switch_plans[fi];
		if (sp->f && sp->ports_later) {
			plan_ports(d, sp);
			sp->ports_later = false;
		}
	}
}

uint32_t switch_plan_loopback(const SwitchPlan *sp, int i)
{
	if (sp->shares > 1)
		return sp->loopbacks + (uint32_t)sp->d->switches[sp->first + i].plane * sp->lo_share +
		       (uint32_t)sp->slot[i] + 1;
	return sp->loopbacks + (uint32_t)i + 1;
}

uint32_t switch_plan_asn(const SwitchPlan *sp, int i)
{
	return sp->asn0 + (uint32_t)sp->asn_index[i];
}

void switch_plan_addr(Buf *b, uint32_t a)
{
	buf_printf(b, "%u.%u.%u.%u", a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255);
}
