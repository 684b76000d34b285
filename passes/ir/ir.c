/*
 * ir.c — the IR's own tables and names: how reports and drawings name its kinds, and the one
 * definition of every name an artifact prints for a place or an end (a row, a device, a port,
 * a cable), so that cabling.csv, the NetBox files, the switch configurations, the drawings and
 * the dump agree.
 *
 * Port names are the faceplate names of the port's model (docs/placement.md, "Port names"),
 * chosen by its `port_names`:
 *  - switches: sonic "Ethernet<N>", N the port's first lane counted cage by cage at the cage's
 *    lanes (SONiC names a port after its first SerDes lane: on an 8-lane OSFP cage, cage 17 is
 *    Ethernet128, its 2 x 400G halves Ethernet128 and Ethernet132; sonic-buildimage
 *    device/mellanox/x86_64-nvidia_sn5600-r0/platform.json, read 2026-12); mlnx_os
 *    "1/<cage>/<port>" on twin-port cages, "1/<port>" on single-port ones, and "/<lane>" after
 *    a split port (NVIDIA MLNX-OS User Manual v3.11, "InfiniBand Interface": Quantum-2 systems
 *    name <Asic/Cage/Port>, "interface ib 1/3/1 and interface ib 1/3/2"; a split port x/y
 *    becomes x/y/z); nvos "sw<cage>p<port>", "s<lane>" after a split port (NVIDIA NVOS User
 *    Manual, "NVLink Interface" and the Quantum-X800 manual: sw<x> the front-panel port,
 *    p<x>s<x> the logical port); plain "p17" from 1, or "p9/2" (physical port / lane) when
 *    the switch breaks its ports out;
 *  - NICs: mlx5 "mlx5_<k>", bnxt_re "bnxt_re<k>" (the RDMA device names the mlx5_ib and
 *    bnxt_re drivers give, one per port; k counts the node's ports of such NICs from 0 in the
 *    order the node lists its NICs); plain "nic3" (the node's third NIC, all NICs counted), or
 *    "nic3/p2" when that NIC has several ports;
 *  - other devices (fabric managers, storage) as their first NIC names its ports, mlx5_0 ...,
 *    else "p1"; a node's scale-up ports "su1".
 * Cable ids are digests of the two ends (below).
 */
#include "ir.h"
#include "hash.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Appends v (>= 0) in decimal: called for every end of every cable. */
static void put_int(Buf *b, long long v)
{
	char tmp[24];
	const char *p = buf_digits_before(tmp + sizeof tmp, (unsigned long long)v, 0, '0');
	buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

void ir_row_name(int row, char *buf, size_t size)
{
	char tmp[16];
	int k = 0, n = row + 1;
	while (n > 0 && k < 15) {
		n--;
		tmp[k++] = (char)('A' + n % 26);
		n /= 26;
	}
	size_t j = 0;
	while (k > 0 && j + 1 < size)
		buf[j++] = tmp[--k];
	buf[j] = 0;
}

const Part *ir_tier_model(const FabricInst *f, SwitchTier t)
{
	int ti = t == ST_SPINE ? 1 : t == ST_CORE ? 2 : 0;
	return f->family && f->family->tree && f->tier_model[ti] ? f->tier_model[ti] : f->switch_model;
}

const char *ir_end_device(const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: return d->nodes[e.dev].hostname;
	case END_EXTRA: return d->extras[e.dev].name;
	case END_SWITCH: return d->switches[e.dev].name;
	case END_ACCEL: return d->nodes[d->accels[e.dev].node].hostname;
	default: return "";
	}
}

/* A NIC port's RDMA device number: the node's ports before it on NICs named the same way. */
static int nic_device_index(const Design *d, int port)
{
	const PortInst *p = &d->ports[port];
	int k = 0;
	for (int i = d->nodes[p->node].first_port; i < port; i++)
		k += d->ports[i].nic->nic.port_names == p->nic->nic.port_names;
	return k;
}

/* The RDMA device name before its number, for a NIC scheme that has one: "mlx5_", "bnxt_re". */
static const char *rdma_prefix(int scheme)
{
	return scheme == PN_MLX5 ? "mlx5_" : scheme == PN_BNXT_RE ? "bnxt_re" : NULL;
}

static void nic_port_name(Buf *b, const Design *d, int port)
{
	const PortInst *p = &d->ports[port];
	const char *rdma = rdma_prefix(p->nic->nic.port_names);
	if (rdma) {
		buf_puts(b, rdma);
		put_int(b, nic_device_index(d, port));
		return;
	}
	buf_puts(b, "nic");
	put_int(b, p->nic_index + 1);
	if (p->nic->nic.ports > 1) {
		buf_puts(b, "/p");
		put_int(b, p->port + 1);
	}
}

const Part *ir_extra_nic(const ExtraInst *x)
{
	const Part *t = x->type;
	if (!t || (t->kind != KIND_NODE && t->kind != KIND_STORAGE))
		return NULL;
	const PartCount *nics = t->kind == KIND_NODE ? t->node.nics : t->storage.nics;
	int n = t->kind == KIND_NODE ? t->node.nnics : t->storage.nnics;
	return n > 0 ? nics[0].part : NULL;
}

/* A port of another device (a fabric manager, storage): its NIC's RDMA device, else "p1". */
static void extra_port_name(Buf *b, const ExtraInst *x, int port)
{
	const Part *nic = ir_extra_nic(x);
	const char *rdma = nic ? rdma_prefix(nic->nic.port_names) : NULL;
	buf_puts(b, rdma ? rdma : "p");
	put_int(b, rdma ? port : port + 1);
}

void ir_end_port(Buf *b, const Design *d, End e)
{
	switch (e.kind) {
	case END_NODE: nic_port_name(b, d, e.port); break;
	case END_SWITCH: ir_switch_port_name(b, &d->switches[e.dev], e.port); break;
	case END_EXTRA: extra_port_name(b, &d->extras[e.dev], e.port); break;
	case END_ACCEL:
		/* A node's scale-up port (scale_up.c numbers them over its switches). */
		buf_puts(b, "su");
		put_int(b, e.port + 1);
		break;
	default:
		buf_putc(b, 'p');
		put_int(b, e.port + 1);
		break;
	}
}

FaceplatePort ir_faceplate(const SwitchInst *s, int port)
{
	int phys, lane, ways;
	ir_switch_port(s, port, &phys, &lane, &ways);
	const Part *m = s->model;
	int cages = m && m->sw.cages > 0 ? m->sw.cages : 0;
	int per_cage = cages && m->sw.ports > cages ? m->sw.ports / cages : 1;
	int cage_lanes = m ? m->sw.cage_lanes : 8, port_lanes = m ? m->sw.port_lanes : 8;
	if (port_lanes < ways)
		port_lanes = ways; /* a split finer than the lanes: one lane each */
	FaceplatePort f = {.cage = phys / per_cage, .port_in_cage = phys % per_cage, .lane = lane,
			   .ways = ways, .nlanes = port_lanes / ways};
	f.cage_lane = f.port_in_cage * port_lanes + lane * f.nlanes;
	int start = m ? m->sw.first_lane + f.cage * m->sw.lane_step : f.cage * cage_lanes;
	if (m && f.cage < m->sw.nlane_map)
		start = m->sw.lane_map[f.cage];
	f.first_asic_lane = start + f.cage_lane;
	/* A cage split finer than its lanes numbers as if it had a lane a port. */
	int span = cage_lanes > per_cage * port_lanes ? cage_lanes : per_cage * port_lanes;
	f.name_lane = f.cage * span + f.cage_lane;
	return f;
}

/* HEAD, n, then SEP1 m and SEP2 k for each of m and k that is not 0: "1/17/1/2", "sw17p1". */
static void put_parts(Buf *b, const char *head, int n, char sep1, int m, char sep2, int k)
{
	buf_puts(b, head);
	put_int(b, n);
	if (m) {
		buf_putc(b, sep1);
		put_int(b, m);
	}
	if (k) {
		buf_putc(b, sep2);
		put_int(b, k);
	}
}

void ir_switch_port_name(Buf *b, const SwitchInst *s, int port)
{
	FaceplatePort f = ir_faceplate(s, port);
	int scheme = s->model ? s->model->sw.port_names : PN_PLAIN;
	bool twin = s->model && s->model->sw.ports > s->model->sw.cages;
	int split = f.ways > 1 ? f.lane + 1 : 0;
	switch (scheme) {
	case PN_SONIC:
		buf_puts(b, "Ethernet");
		put_int(b, f.name_lane);
		break;
	case PN_MLNX_OS:
		put_parts(b, "1/", f.cage + 1, '/', twin ? f.port_in_cage + 1 : 0, '/', split);
		break;
	case PN_NVOS: put_parts(b, "sw", f.cage + 1, 'p', f.port_in_cage + 1, 's', split); break;
	default: {
		int phys, lane, ways;
		ir_switch_port(s, port, &phys, &lane, &ways);
		put_parts(b, "p", phys + 1, '/', ways > 1 ? lane + 1 : 0, 0, 0);
		break;
	}
	}
}

/* SONiC's alias: etpN with a letter per split lane (sonic-buildimage
 * device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-O128/port_config.ini: Ethernet4 is
 * etp1b), or Arista's EthernetN/L, L the port's first lane in the cage from 1
 * (device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-O128S2/port_config.ini:
 * Ethernet4 is Ethernet1/5); both read 2026-12. */
void ir_switch_port_alias(Buf *b, const SwitchInst *s, int port)
{
	FaceplatePort f = ir_faceplate(s, port);
	if (s->model && s->model->sw.port_alias == PA_EOS) {
		buf_puts(b, "Ethernet");
		put_int(b, f.cage + 1);
		buf_putc(b, '/');
		put_int(b, f.cage_lane + 1);
		return;
	}
	buf_puts(b, "etp");
	put_int(b, f.cage + 1);
	int sub = f.port_in_cage * f.ways + f.lane, subs = f.ways;
	if (s->model && s->model->sw.ports > s->model->sw.cages)
		subs *= s->model->sw.ports / s->model->sw.cages;
	if (subs > 1)
		buf_putc(b, (char)('a' + sub % 26));
}

void ir_end_place(const Design *d, End e, int *rack, int *u)
{
	*rack = -1;
	*u = 0;
	switch (e.kind) {
	case END_NODE: *rack = d->nodes[e.dev].rack; *u = d->nodes[e.dev].u; break;
	case END_EXTRA: *rack = d->extras[e.dev].rack; *u = d->extras[e.dev].u; break;
	case END_SWITCH: *rack = d->switches[e.dev].rack; *u = d->switches[e.dev].u; break;
	case END_ACCEL: {
		const NodeInst *n = &d->nodes[d->accels[e.dev].node];
		*rack = n->rack;
		*u = n->u;
		break;
	}
	default: break;
	}
}

/* ---- Cable ids ----
 *
 * A cable's id is a digest of what it connects, so that an edit elsewhere in the design (nodes
 * dropped or added, a comment, a switch rack moved) leaves every other cable's id as it was:
 * the key is its two ends' "device:port" texts (ir_end_device, ir_end_port), the smaller
 * first, joined by one space; the id is "C" and the first 10 Crockford base32 digits (50 bits)
 * of the key's SHA-256. At 300,000 cables two ids share their 50 bits with probability about
 * n^2 / 2^51 = 4 %; then the cable whose full digest is the smaller keeps the 10 digits and
 * each other one takes 2 more digits at a time until it differs from its neighbours in digest
 * order. Only cables that collide can get a longer id, and only those whose ends collide with
 * a cable that appears, so a tag stays right unless its own 50 bits are met (docs/output.md). */

enum { ID_CHARS = 10, ID_MAX_CHARS = 50 }; /* 50 digits use 250 of the digest's 256 bits */

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static uint64_t digest_lead(const unsigned char *dg)
{
	uint64_t lead = 0;
	for (int k = 0; k < 8; k++)
		lead = lead << 8 | dg[k];
	return lead;
}

/* "C" and the first `chars` (at most 12) digits of the 64 leading bits. */
static void lead_id(uint64_t lead, int chars, char *out)
{
	out[0] = 'C';
	for (int j = 0; j < chars; j++)
		out[1 + j] = crockford[lead >> (59 - 5 * j) & 31];
	out[1 + chars] = 0;
}

/* lead_id of ID_CHARS digits, every cable's id, written out digit by digit: a shift and a load
 * each, where the loop's variable shift cost some 90 instructions an id (62 → 32 M on the
 * dragonfly; docs/performance.md, "Stages before emit and switch writer, thirteenth
 * session"). */
static void lead_id10(uint64_t lead, char *out)
{
	static_assert(ID_CHARS == 10, "lead_id10 writes ID_CHARS digits");
	out[0] = 'C';
	out[1] = crockford[lead >> 59 & 31];
	out[2] = crockford[lead >> 54 & 31];
	out[3] = crockford[lead >> 49 & 31];
	out[4] = crockford[lead >> 44 & 31];
	out[5] = crockford[lead >> 39 & 31];
	out[6] = crockford[lead >> 34 & 31];
	out[7] = crockford[lead >> 29 & 31];
	out[8] = crockford[lead >> 24 & 31];
	out[9] = crockford[lead >> 19 & 31];
	out[10] = crockford[lead >> 14 & 31];
	out[11] = 0;
}

void ir_digest_id(const unsigned char digest[32], int chars, char *out)
{
	if (chars <= 12) {
		lead_id(digest_lead(digest), chars, out);
		return;
	}
	out[0] = 'C';
	for (int j = 0; j < chars; j++) {
		int bit = 5 * j, v = 0;
		for (int k = 0; k < 5; k++, bit++)
			v = v << 1 | (digest[bit / 8] >> (7 - bit % 8) & 1);
		out[1 + j] = crockford[v];
	}
	out[1 + chars] = 0;
}

static void put_end_text(Buf *b, const Design *d, End e)
{
	buf_puts(b, ir_end_device(d, e));
	buf_putc(b, ':');
	ir_end_port(b, d, e);
}

void ir_cable_key(Buf *b, const Design *d, int i)
{
	const LinkInst *l = &d->links[d->cables[i].link];
	b->len = 0;
	put_end_text(b, d, l->a);
	size_t split = b->len;
	buf_putc(b, ' ');
	put_end_text(b, d, l->z);
	/* The smaller end first: a cable wired the other way round is the same cable. */
	size_t zlen = b->len - split - 1;
	size_t n = split < zlen ? split : zlen;
	int cmp = memcmp(b->s, b->s + split + 1, n);
	if (cmp > 0 || (cmp == 0 && split > zlen)) {
		char small[256];
		char *tmp = b->len <= sizeof small ? small : xmalloc(b->len);
		memcpy(tmp, b->s + split + 1, zlen);
		tmp[zlen] = ' ';
		memcpy(tmp + zlen + 1, b->s, split);
		memcpy(b->s, tmp, b->len);
		if (tmp != small)
			free(tmp);
	}
}

static void cable_digest(const Design *d, int i, Buf *key, unsigned char dg[HASH_BYTES])
{
	ir_cable_key(key, d, i);
	hash_bytes(key->s, key->len, dg);
}

/* A cable by its digest's 64 leading bits. */
typedef struct CableLead {
	uint64_t lead;
	int cable;
} CableLead;

typedef struct Colliding {
	unsigned char dg[HASH_BYTES];
	int cable;
} Colliding;

static int colliding_cmp(const void *x, const void *y)
{
	return memcmp(((const Colliding *)x)->dg, ((const Colliding *)y)->dg, HASH_BYTES);
}

/* Leading base32 digits that a and b share. */
static int common_digits(const unsigned char *a, const unsigned char *b)
{
	char x[ID_MAX_CHARS + 2], y[ID_MAX_CHARS + 2];
	ir_digest_id(a, ID_MAX_CHARS, x);
	ir_digest_id(b, ID_MAX_CHARS, y);
	int n = 0;
	while (n < ID_MAX_CHARS && x[1 + n] == y[1 + n])
		n++;
	return n;
}

void ir_run_id_chars(const unsigned char (*dg)[HASH_BYTES], int n, int *chars)
{
	for (int i = 0; i < n; i++) {
		chars[i] = ID_CHARS;
		if (i == 0)
			continue;
		int prev = common_digits(dg[i - 1], dg[i]);
		int next = i + 1 < n ? common_digits(dg[i], dg[i + 1]) : 0;
		int need = (prev > next ? prev : next) + 1;
		while (chars[i] < need)
			chars[i] += 2;
		assert(chars[i] <= ID_MAX_CHARS); /* two ends are one key: the ends are unique */
	}
}

/* Cables whose ids share their 10 digits: sorted by digest, their lengths from ir_run_id_chars. */
static void name_colliding(Design *d, const CableLead *run, int n, Buf *key)
{
	Colliding *c = xmalloc(sizeof *c * (size_t)n);
	unsigned char(*dg)[HASH_BYTES] = xmalloc(sizeof *dg * (size_t)n);
	int *chars = xmalloc(sizeof *chars * (size_t)n);
	for (int i = 0; i < n; i++) {
		c[i].cable = run[i].cable;
		cable_digest(d, c[i].cable, key, c[i].dg);
	}
	qsort(c, (size_t)n, sizeof *c, colliding_cmp);
	for (int i = 0; i < n; i++)
		memcpy(dg[i], c[i].dg, HASH_BYTES);
	ir_run_id_chars((const unsigned char(*)[HASH_BYTES])dg, n, chars);
	for (int i = 0; i < n; i++) {
		char *id = arena_alloc(d->c->arena, (size_t)chars[i] + 2);
		ir_digest_id(c[i].dg, chars[i], id);
		d->cable_ids[c[i].cable] = id;
	}
	free(chars);
	free(dg);
	free(c);
}

/* Whether cable lead x's 50 leading bits (what the ids' 10 digits spell) order before y's; the
 * cable's index breaks ties (only the runs of equal ones matter, not their order). */
static bool lead_before(const CableLead *x, const CableLead *y)
{
	uint64_t a = x->lead >> 14, b = y->lead >> 14;
	return a < b || (a == b && x->cable < y->cable);
}

/* Every run of cables whose leads share their 50 leading bits (n >= 2 of them) named by
 * name_colliding. The leads go into buckets by their top bits (a counting pass and one
 * scatter: a bucket holds a few leads, SHA-256's bits being uniform), and each bucket is sorted
 * by insertion, where the runs are found. Four 13-bit radix passes over every lead and the ids
 * then written in lead order, to and fro across the tables, took 7 % of the dragonfly's stages
 * before emit in cache misses (perf, docs/performance.md, "Stages before emit, tenth session");
 * the ids are now written in cable order and only runs are looked for. */
static void name_runs(Design *d, const CableLead *all, size_t n, Buf *key)
{
	int bits = 8;
	while (bits < 20 && ((size_t)1 << bits) < n / 4)
		bits++;
	size_t nb = (size_t)1 << bits;
	uint32_t *start = xmalloc(sizeof *start * (nb + 1));
	memset(start, 0, sizeof *start * (nb + 1));
	for (size_t i = 0; i < n; i++)
		start[(all[i].lead >> (64 - bits)) + 1]++;
	for (size_t b = 0; b < nb; b++)
		start[b + 1] += start[b];
	CableLead *v = xmalloc(sizeof *v * (n + 1));
	for (size_t i = 0; i < n; i++)
		v[start[all[i].lead >> (64 - bits)]++] = all[i];
	/* start[b] is now bucket b's end, and bucket b begins where b - 1 ends */
	for (size_t b = 0, from = 0; b < nb; from = start[b++]) {
		size_t to = start[b];
		for (size_t i = from + 1; i < to; i++) {
			CableLead x = v[i];
			size_t j = i;
			for (; j > from && lead_before(&x, &v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		for (size_t i = from, end; i < to; i = end) {
			for (end = i + 1; end < to && (v[end].lead ^ v[i].lead) >> 14 == 0; end++)
				;
			if (end - i > 1)
				name_colliding(d, v + i, (int)(end - i), key);
		}
	}
	free(v);
	free(start);
}

/* The digests' leads, made in batches of LEADS_BATCH cables by whichever thread takes the next
 * batch: from the cable stage on, a thread of its own (ir_cable_leads_start: the cables' links
 * are known once their runs are measured, before their media are chosen), then the ids stage's
 * too, which waits for the last batch. A SHA-256 of each cable's key is most of this pass
 * (650,000 of them on the 262k dragonfly), and the cable stage leaves the second core idle.
 * Read-only on the design, whose names, ports and links no pass between changes; each cable's
 * lead is its own, so the result does not depend on who made it. The work in progress is the
 * design's (Design.leads), from the cable stage until the ids stage or pipeline_build ends it. */
enum { LEADS_BATCH = 4096 };
/* From this many cables a thread is worth its start. */
enum { LEADS_THREADED = 1 << 17 };

struct CableLeads {
	const Design *d;
	CableLead *all;     /* by cable */
	size_t n;
	atomic_size_t next; /* the first cable of the next batch */
	pthread_t thread;
	bool running;
};

static void *leads_work(void *arg)
{
	CableLeads *w = arg;
	Buf key = {0};
	for (size_t from; (from = atomic_fetch_add(&w->next, LEADS_BATCH)) < w->n;) {
		size_t to = from + LEADS_BATCH < w->n ? from + LEADS_BATCH : w->n;
		for (size_t i = from; i < to; i++) {
			unsigned char dg[HASH_BYTES];
			cable_digest(w->d, (int)i, &key, dg);
			w->all[i] = (CableLead){digest_lead(dg), (int)i};
		}
	}
	buf_free(&key);
	return NULL;
}

bool ir_cables_named(const Design *d)
{
	return !d->numbers_only || d->prior;
}

/* The leads of d's cables begun (d->leads): on a thread of its own when there are enough. */
static void leads_begin(Design *d)
{
	ir_cable_leads_end(d);
	CableLeads *w = xmalloc(sizeof *w);
	*w = (CableLeads){.d = d, .n = (size_t)d->ncables};
	w->all = xmalloc(sizeof *w->all * (w->n + 1));
	atomic_init(&w->next, 0);
	if (w->n >= LEADS_THREADED)
		w->running = pthread_create(&w->thread, NULL, leads_work, w) == 0;
	d->leads = w;
}

/* Joins w's thread, if it runs, and frees w; its leads are returned (the caller's to free). */
static CableLead *leads_join(CableLeads *w)
{
	if (w->running)
		pthread_join(w->thread, NULL);
	CableLead *all = w->all;
	free(w);
	return all;
}

void ir_cable_leads_start(Design *d)
{
	if (ir_cables_named(d) && d->ncables >= LEADS_THREADED)
		leads_begin(d);
}

void ir_cable_leads_end(Design *d)
{
	CableLeads *w = d->leads;
	if (!w)
		return;
	d->leads = NULL;
	atomic_store(&w->next, w->n); /* no batch left to start */
	free(leads_join(w));
}

/* Every cable's lead, by cable: made with the thread begun for this design and these cables
 * (its batches shared, then joined), else begun here. The caller frees it. */
static CableLead *cable_leads(Design *d)
{
	if (!d->leads || d->leads->n != (size_t)d->ncables)
		leads_begin(d);
	CableLeads *w = d->leads;
	d->leads = NULL;
	leads_work(w);
	return leads_join(w);
}

int ir_name_cables(Design *d)
{
	size_t n = (size_t)d->ncables;
	d->cable_ids = arena_alloc(d->c->arena, sizeof(char *) * (n + 1));
	CableLead *all = cable_leads(d);
	/* Every cable's 10 digits at its index (the backends read them in cable order), then
	 * the few that share theirs with another named again. */
	char *ids = arena_alloc(d->c->arena, (ID_CHARS + 2) * (n + 1));
	for (size_t i = 0; i < n; i++) {
		char *id = ids + (ID_CHARS + 2) * i;
		lead_id10(all[i].lead, id);
		d->cable_ids[i] = id;
	}
	Buf key = {0};
	name_runs(d, all, n, &key);
	buf_free(&key);
	free(all);
	return 0;
}

void ir_cable_id(Buf *b, const Design *d, int i)
{
	buf_puts(b, d->cable_ids[i]);
}

/* Structured cabling's names (trunk.c) follow the racks, so edits elsewhere keep them: a
 * panel "<rack>-PP<slot>" (slot 1 the top one), a trunk "T<fabric>-<rack>-<rack>-<seq>" (the
 * fabric's ordinal from 1, so two fabrics' trunks between the same racks differ). */
void ir_panel_name(Buf *b, const Design *d, int i)
{
	const PanelInst *p = &d->panels[i];
	buf_printf(b, "%s-PP%d", d->racks[p->rack].name, p->slot);
}

void ir_trunk_name(Buf *b, const Design *d, int i)
{
	const TrunkInst *t = &d->trunks[i];
	buf_printf(b, "T%d-%s-%s-%d", t->fabric + 1, d->racks[t->rack_a].name,
		   d->racks[t->rack_z].name, t->seq);
}

const char *const ir_link_tier_names[LT_COUNT] = {
#define X(t, s) s,
	LINK_TIERS(X)
#undef X
};
const char *const ir_change_kind_names[CHANGE_COUNT] = {
#define X(t, s) s,
	CHANGE_KINDS(X)
#undef X
};
const char *const ir_switch_tier_names[ST_COUNT] = {
#define X(t, s) s,
	SWITCH_TIERS(X)
#undef X
};


const char *const ir_power_stage_names[PS_COUNT] = {
#define X(c, w) w,
	POWER_STAGES(X)
#undef X
};

const char *const ir_redundancy_names[RED_COUNT] = {
#define X(c, w) w,
	REDUNDANCIES(X)
#undef X
};

const char *const ir_category_names[CAT_COUNT] = {"nodes", "network", "storage", "other",
					       "cabling", "racks", "cooling", "power", "spares"};
