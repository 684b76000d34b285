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
 * Cable ids are "C000001" for the first cable, as many digits as the count needs past six.
 */
#include "ir.h"

/* Appends v (>= 0) in decimal: called for every end of every cable. */
static void put_int(Buf *b, long long v)
{
	char tmp[24];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < 23);
	while (n > 0)
		buf_putc(b, tmp[--n]);
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

void ir_switch_port(const SwitchInst *s, int port, int *phys, int *lane, int *split_ways)
{
	int br = s->breakout > 0 ? s->breakout : 1;
	if (s->split > 0 && port >= s->split) {
		int ub = s->up_breakout > 0 ? s->up_breakout : 1;
		*phys = (s->split + br - 1) / br + (port - s->split) / ub;
		*lane = (port - s->split) % ub;
		*split_ways = ub;
		return;
	}
	*phys = port / br;
	*lane = port % br;
	*split_ways = br;
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

void ir_cable_id(Buf *b, int i)
{
	buf_putc(b, 'C');
	for (int x = 100000; x > 1 && i + 1 < x; x /= 10)
		buf_putc(b, '0');
	put_int(b, i + 1);
}

const char *const ir_link_tier_names[LT_COUNT] = {
#define X(t, s) s,
	LINK_TIERS(X)
#undef X
};
const char *const ir_switch_tier_names[ST_COUNT] = {
#define X(t, s) s,
	SWITCH_TIERS(X)
#undef X
};


const char *const ir_category_names[CAT_COUNT] = {"nodes", "network", "storage", "other",
					       "cabling", "racks", "cooling", "power"};
