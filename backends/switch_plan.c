/*
 * switch_plan.c — the layer-3 plan of an Ethernet fabric, for the switch configurations
 * (switch_config.c, docs/switch-configs.md): which fabrics get one, the addresses, the ASNs and
 * the SONiC names of the ports in use. No I/O; diagnostics at the fabric's fields.
 *
 * Which fabrics: those whose `protocol` is ethernet, or that say nothing and are built of
 * Ethernet switches. InfiniBand fabrics and a torus (no switches) get nothing.
 *
 * Addresses, from the fabric's pools (lang/schema.c gives the defaults):
 *  - switch i of the fabric (wiring order, from 0) has the loopback /32 `loopbacks` + i + 1;
 *  - link k of the fabric (wiring order, from 0) has the /31 `p2p` + 2k: the upper end (the
 *    switch a host or a lower tier attaches to: LinkInst.z) takes the even address, the end
 *    nearer the endpoints (LinkInst.a) the odd one. A host's gateway is thus always .even.
 * A pool too small for the fabric, or the two pools overlapping, is an error at the field.
 *
 * ASNs (RFC 7938 §5.2.1, with the 32-bit private ASNs of RFC 6996 counted up from the fabric's
 * `asn`): every leaf, and every dragonfly router, has an ASN of its own; the spines of one plane
 * share one (in a 3-tier tree, the spines of one pod); the cores of one plane share one. ASNs
 * are handed out in wiring order, a new one at each leaf and at the first spine of a plane or
 * pod and the first core of a plane. Sharing an ASN among a tier is what keeps paths valley
 * free: a route that went up through a spine is never accepted by another spine of that tier.
 *
 * Port names follow SONiC, which names a port after its first SerDes lane: with 8 lanes per
 * cage (OSFP, QSFP-DD) port p is Ethernet(8p) and its halves when split by 2 are Ethernet(8p)
 * and Ethernet(8p+4); QSFP28/56/112 cages have 4 lanes, SFP cages 1. Twin-port cages (more
 * ports than cages) share their lanes. The alias is the front-panel name in NVIDIA's form,
 * etpN, with a letter per breakout lane (etp1a, etp1b): SONiC Configuration Database Manual,
 * PORT table, "2x100G port breakout" (sonic-buildimage src/sonic-yang-models/doc/Configuration.md).
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t PRIVATE16_FIRST = 64512, PRIVATE16_LAST = 65534;
static const uint32_t PRIVATE32_FIRST = 4200000000u, PRIVATE32_LAST = 4294967294u;

static const char *sval(const Decl *d, const char *name)
{
	const Value *v = d ? decl_value(d, name) : NULL;
	return v && (v->kind == VAL_ENUM || v->kind == VAL_STRING) ? v->s : NULL;
}

bool switch_fabric_is_ethernet(const FabricInst *f)
{
	const char *p = sval(f->decl, "protocol");
	if (!p)
		p = sval(f->switch_model, "protocol");
	if (!p)
		p = "ethernet"; /* the switch schema's default */
	return f->sized && strcmp(p, "ethernet") == 0;
}

/* SerDes lanes of one logical port at port_speed (before breakout). */
static int model_lanes(const Decl *model)
{
	static const struct {
		const char *cage;
		int lanes;
	} cages[] = {{"osfp", 8}, {"qsfp_dd", 8}, {"qsfp112", 4}, {"qsfp56", 4}, {"qsfp28", 4},
		     {"sfp56", 1}, {"sfp28", 1}};
	const char *cage = sval(model, "cage");
	int lanes = 8;
	for (size_t i = 0; cage && i < sizeof cages / sizeof cages[0]; i++)
		if (strcmp(cage, cages[i].cage) == 0)
			lanes = cages[i].lanes;
	double ports = decl_number(model, "ports", 1), n = decl_number(model, "cages", ports);
	if (ports > n && n > 0)
		lanes = (int)(lanes * n / ports);
	return lanes < 1 ? 1 : lanes;
}

/* A pool field: its prefix, and where to point a diagnostic (the value, else the fabric). */
static void pool(const FabricInst *f, const char *field, const char *def, uint32_t *net, int *len,
		 Loc *loc, const char **text)
{
	const Value *v = decl_value(f->decl, field);
	*text = v && v->kind == VAL_STRING ? v->s : def;
	*loc = v ? v->loc : f->decl->name_loc;
	if (!parse_cidr(*text, net, len)) /* check.c diagnosed it; the default parses */
		parse_cidr(def, net, len);
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
static const char *the(const FabricInst *f, const char *field)
{
	return decl_value(f->decl, field) ? "the " : "the default ";
}

/* Checks that the pools hold the fabric and that its loopbacks and links do not meet. */
static int check_pools(const Design *d, SwitchPlan *sp)
{
	const FabricInst *f = sp->f;
	Ctx *c = d->p->c;
	int errors = 0;
	Loc lo_loc, pp_loc;
	const char *lo, *pp;
	int lo_len, pp_len;
	pool(f, "loopbacks", "10.0.0.0/16", &sp->loopbacks, &lo_len, &lo_loc, &lo);
	pool(f, "p2p", "10.128.0.0/10", &sp->p2p, &pp_len, &pp_loc, &pp);
	uint64_t lo_size = (uint64_t)1 << (32 - lo_len), pp_size = (uint64_t)1 << (32 - pp_len);
	uint64_t nsw = (uint64_t)sp->nswitches, nln = (uint64_t)sp->nlinks;
	if (nsw + 1 > lo_size) {
		Diag *g = diag_error(c, lo_loc,
				     "%sloopback pool %s holds %llu addresses; fabric '%s' has %d "
				     "switches (a /%d or larger is needed: the first address is not "
				     "used)",
				     the(f, "loopbacks"), lo, (unsigned long long)lo_size - 1,
				     f->decl->name, sp->nswitches, prefix_for(nsw, 1));
		diag_set_code(g, "address");
		errors++;
	}
	if (nln * 2 > pp_size) {
		Diag *g = diag_error(c, pp_loc,
				     "%slink pool %s holds %llu /31 subnets; fabric '%s' has %d links "
				     "(a /%d or larger is needed)",
				     the(f, "p2p"), pp, (unsigned long long)pp_size / 2,
				     f->decl->name, sp->nlinks, prefix_for(nln * 2, 0));
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
				     the(f, "p2p"), pp, f->decl->name, lo);
		diag_note(g, lo_loc, "%sloopback pool", the(f, "loopbacks"));
		diag_set_code(g, "address");
		errors++;
	}
	return errors;
}

/* Checks that the plan's ASNs stay in the range `asn` starts in. */
static int check_asns(const Design *d, SwitchPlan *sp)
{
	const FabricInst *f = sp->f;
	const Value *av = decl_value(f->decl, "asn");
	double asn0 = av && av->kind == VAL_QTY ? av->q.v : (double)PRIVATE32_FIRST;
	Loc loc = av ? av->loc : f->decl->name_loc;
	if (asn0 < 1 || asn0 > PRIVATE32_LAST) /* check.c diagnosed it */
		asn0 = PRIVATE32_FIRST;
	sp->asn0 = (uint32_t)asn0;
	bool private16 = sp->asn0 >= PRIVATE16_FIRST && sp->asn0 <= PRIVATE16_LAST;
	bool private32 = sp->asn0 >= PRIVATE32_FIRST;
	uint32_t end = private16 ? PRIVATE16_LAST : PRIVATE32_LAST;
	double last = asn0 + sp->nasns - 1;
	if (sp->nasns > 0 && last > end) {
		Diag *g = diag_error(d->p->c, loc,
				     "fabric '%s' needs %d ASNs from %u, up to %.0f: beyond %u, the "
				     "last %s (RFC 6996)",
				     f->decl->name, sp->nasns, sp->asn0, last, end,
				     private16 ? "16-bit private ASN" : "ASN there is");
		diag_set_code(g, "asn");
		return 1;
	}
	if (!private16 && !private32) {
		Diag *g = diag_warning(d->p->c, loc,
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

/* Every switch's ports in use, in port order, with their /31. */
static void plan_ports(SwitchPlan *sp)
{
	const Design *d = sp->d;
	int n = sp->nswitches;
	sp->port_start = xmalloc(sizeof(int) * (size_t)(n + 1));
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
	sp->ports = xmalloc(sizeof(SwitchPort) * (size_t)(sp->port_start[n] + 1));
	int *fill = xmalloc(sizeof(int) * (size_t)(n + 1));
	memcpy(fill, sp->port_start, sizeof(int) * (size_t)(n + 1));
	for (int k = 0; k < sp->nlinks; k++) {
		const LinkInst *l = &d->links[sp->first_link + k];
		uint32_t net = sp->p2p + 2u * (uint32_t)k;
		if (l->z.kind == END_SWITCH)
			sp->ports[fill[l->z.dev - sp->first]++] =
				(SwitchPort){l->z.port, sp->first_link + k, l->a, net, net + 1};
		if (l->a.kind == END_SWITCH)
			sp->ports[fill[l->a.dev - sp->first]++] =
				(SwitchPort){l->a.port, sp->first_link + k, l->z, net + 1, net};
	}
	free(fill);
	for (int i = 0; i < n; i++) {
		size_t n_i = (size_t)(sp->port_start[i + 1] - sp->port_start[i]);
		qsort(sp->ports + sp->port_start[i], n_i, sizeof(SwitchPort), by_port);
	}
}

int switch_plan_make(const Design *d, int fi, SwitchPlan *sp)
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
	sp->lanes = model_lanes(f->switch_model);
	sp->asn_index = xmalloc(sizeof(int) * (size_t)(sp->nswitches + 1));
	plan_asns(sp);
	int errors = check_pools(d, sp); /* then the ASNs: diagnostics in a fixed order */
	errors += check_asns(d, sp);
	sp->mtu = (int)decl_number(f->decl, "mtu", 9216);
	const Value *lv = decl_value(f->decl, "lossless");
	sp->lossless = lv && lv->kind == VAL_BOOL ? lv->b_val : true;
	if (!errors)
		plan_ports(sp);
	return errors;
}

void switch_plan_free(SwitchPlan *sp)
{
	free(sp->asn_index);
	free(sp->port_start);
	free(sp->ports);
	*sp = (SwitchPlan){0};
}

void switch_plan_overlaps(const Design *d, const SwitchPlan *plans, int n)
{
	for (int i = 0; i < n; i++) {
		const SwitchPlan *a = &plans[i];
		for (int j = 0; j < i; j++) {
			const SwitchPlan *b = &plans[j];
			uint64_t a0 = a->p2p, a1 = a->p2p + (uint64_t)a->nlinks * 2;
			uint64_t b0 = b->p2p, b1 = b->p2p + (uint64_t)b->nlinks * 2;
			uint64_t l0 = a->loopbacks + 1, l1 = l0 + (uint64_t)a->nswitches;
			uint64_t m0 = b->loopbacks + 1, m1 = m0 + (uint64_t)b->nswitches;
			if ((a0 < b1 && b0 < a1) || (l0 < m1 && m0 < l1) || (a0 < m1 && m0 < a1) ||
			    (l0 < b1 && b0 < l1)) {
				const Value *v = decl_value(a->f->decl, "p2p");
				Loc loc = v ? v->loc : a->f->decl->name_loc;
				Diag *g = diag_warning(d->p->c, loc,
						       "the addresses of fabric '%s' overlap those of "
						       "fabric '%s': a node on both would see one subnet "
						       "twice; give each fabric its own 'loopbacks' and "
						       "'p2p' pools",
						       a->f->decl->name, b->f->decl->name);
				diag_note(g, b->f->decl->name_loc, "fabric '%s'", b->f->decl->name);
				diag_set_code(g, "address");
			}
		}
	}
}

uint32_t switch_loopback(const SwitchPlan *sp, int i)
{
	return sp->loopbacks + (uint32_t)i + 1;
}

uint32_t switch_asn(const SwitchPlan *sp, int i)
{
	return sp->asn0 + (uint32_t)sp->asn_index[i];
}

void switch_port_name(Buf *b, const SwitchPlan *sp, const SwitchInst *s, int port)
{
	int br = s->breakout > 0 ? s->breakout : 1;
	int lanes = sp->lanes < br ? br : sp->lanes;
	buf_printf(b, "Ethernet%d", port / br * lanes + port % br * (lanes / br));
}

void switch_port_alias(Buf *b, const SwitchInst *s, int port)
{
	int br = s->breakout > 0 ? s->breakout : 1;
	if (br > 1)
		buf_printf(b, "etp%d%c", port / br + 1, 'a' + port % br % 26);
	else
		buf_printf(b, "etp%d", port + 1);
}

void switch_addr(Buf *b, uint32_t a)
{
	buf_printf(b, "%u.%u.%u.%u", a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255);
}
