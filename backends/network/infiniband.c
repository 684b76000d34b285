/*
 * infiniband.c — the files an InfiniBand fabric is brought up with (PRODUCT §6): for every
 * fabric whose protocol is infiniband (the fabric's, else its switch model's),
 *
 *   infiniband/FABRIC.topo           the subnet as `ibnetdiscover` prints it; ibsim loads it
 *   infiniband/FABRIC.node-name-map  node GUID -> name, for OpenSM and infiniband-diags
 *   infiniband/SUBNET.root_guids     node GUIDs of the top-tier switches (ftree and updn roots)
 *   infiniband/SUBNET.cn_guids       HCA port GUIDs of the cluster's nodes (ftree compute nodes)
 *   infiniband/opensm.conf           the OpenSM settings of the subnet
 *
 * SUBNET is FABRIC, or FABRIC-pN for plane N of a fabric of several planes: planes share no
 * link, so each is a subnet of its own with its own subnet manager and guid files. With more
 * than one subnet in the design each gets SUBNET.opensm.conf instead of one opensm.conf.
 *
 * The .topo format follows what ibsim 0.10 parses (linux-rdma/ibsim ibsim/sim_net.c:
 * parse_netconf, parse_switch, parse_endnode, parse_port, parse_port_connection_data,
 * parse_guidbase; README and net-examples/net: "compatible with ibnetdiscover command
 * output"), laid out as ibnetdiscover(8) of infiniband-diags writes its topology:
 *
 *   switchguid=0x0201000000010000(201000000010000)
 *   Switch	64 "S-0201000000010000"		# "compute-leaf-001" enhanced port 0 lid 0 lmc 0
 *   [1]	"H-0202000000010000"[1](202000000010001)		# "dgx001 mlx5_0" lid 0 4xNDR
 *
 *   caguid=0x0202000000010000
 *   Ca	1 "H-0202000000010000"		# "dgx001 mlx5_0"
 *   [1](202000000010001)	"S-0201000000010000"[1]		# lid 0 lmc 0 "compute-leaf-001" lid 0 4xNDR
 *
 * One stanza per switch and one per HCA (each NIC of a node is one HCA, its ports the NIC's),
 * every link written from both ends, records separated by a blank line (ibsim ends a record on
 * the first line that is not a port line, and consumes it). ibsim takes a node's GUID from the
 * switchguid= / caguid= line before it (else it counts its own) and gives port p of an HCA the
 * GUID node GUID + p, so the port GUIDs written here are the ones OpenSM will see. No LIDs
 * (lid 0): the subnet manager assigns them. The "4xNDR" after the peer's lid is the link
 * width and lane rate ibsim's parser reads; a rate it does not know is only a warning there.
 *
 * GUIDs are locally administered EUI-64s (first byte 0x02: not any vendor's), derived from the
 * device's index so that they are stable across builds:
 *
 *   0x02 KK FF DDDDDD NN PP   KK kind (01 switch, 02 cluster node HCA, 03 other device HCA),
 *                             FF fabric index, DDDDDD device index from 1 (the switch within
 *                             its fabric, the cluster node, the other device), NN the NIC of
 *                             the device from 0, PP the port (00 in a node GUID).
 *
 * OpenSM (opensm(8), "Fat-tree Routing Algorithm"): with a root GUID file the tree need not be
 * pure, only every compute node at the same rank; CA ports not in the compute-node file (fabric
 * managers, storage) are routed after the compute nodes. Node names are NodeDescriptions (64
 * bytes in the IBA) as rdma-ndd sets them on a host, "HOSTNAME mlx5_N": a cluster node's HCA
 * by its first port's name as cabling.csv has it (ir.c), another device's with N the NIC's
 * place in it; characters the formats reserve ('"', '#', '=') become '_'.
 */
#include "backends.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where the files are meant to be installed: Debian's opensm reads /etc/opensm/opensm.conf. */
#define IB_CONF_DIR "/etc/opensm/"

enum {
	IB_SWITCH = 1, IB_NODE_HCA = 2, IB_EXTRA_HCA = 3, /* the GUID's kind byte */
	IB_MAX_PORTS = 254,     /* NumPorts is one byte and port 255 is reserved (IBA) */
	IB_MAX_DEVICES = 0xffffff, /* the GUID's device field */
	IB_DESC = 64,           /* NodeDescription */
	IB_MAX_UNICAST_LIDS = 0xbfff,
};

/* The other end of a port: a device of the subnet and its port, or dev -1. */
typedef struct IbPeer {
	int dev, port, link;
} IbPeer;

typedef struct IbDev {
	int kind;             /* IB_SWITCH, IB_NODE_HCA or IB_EXTRA_HCA */
	uint64_t guid;        /* the node GUID; an HCA's port p is guid + p */
	char id[20];          /* how the .topo names it: "S-GUID" or "H-GUID" */
	char desc[IB_DESC];
	int nports;
	int src;              /* SwitchInst, NodeInst or ExtraInst index */
	IbPeer *peer;         /* [nports + 1]: ports count from 1 */
} IbDev;

typedef struct IbFabric {
	const Design *d;
	const FabricInst *f;
	int fi;
	IbDev *devs;          /* the switches in wiring order, then the HCAs in node order */
	int ndevs;
	int *port_dev;        /* Design.ports index -> its HCA, or -1 */
	int *extra_dev;       /* the fabric's extra devices' ports, in order -> their HCA */
	int *extra_off;       /* each extra device's first entry in extra_dev */
	double port_speed;    /* bit/s of a switch port unsplit, or 0 */
	int nlinks;
} IbFabric;

static uint64_t ib_guid(int kind, int fabric, int dev, int nic)
{
	return (uint64_t)0x02 << 56 | (uint64_t)kind << 48 | (uint64_t)fabric << 40 |
	       (uint64_t)dev << 16 | (uint64_t)nic << 8;
}

/* A NodeDescription, "NAME PORT" (PORT NULL: NAME alone): printable ASCII without the
 * characters the formats reserve. */
static void ib_desc(char *out, const char *name, const char *port)
{
	char buf[IB_DESC + 16];
	if (port)
		snprintf(buf, sizeof buf, "%s %s", name, port);
	else
		snprintf(buf, sizeof buf, "%s", name);
	size_t i = 0;
	for (; buf[i] && i < IB_DESC - 1; i++) {
		unsigned char ch = (unsigned char)buf[i];
		out[i] = ch < 0x20 || ch > 0x7e || ch == '"' || ch == '#' || ch == '=' ? '_' : (char)ch;
	}
	out[i] = 0;
}

static bool ib_fabric_is_infiniband(const FabricInst *f)
{
	return f->protocol == PROTO_INFINIBAND;
}

/* Ports of one NIC of an extra device: those of its first NIC model, as wire.c counts them. */
static int extra_nic_ports(const ExtraInst *x)
{
	const Part *nic = ir_extra_nic(x);
	if (!nic)
		return x->nports > 0 ? x->nports : 1;
	int p = nic->nic.ports;
	return p > 0 ? p : 1;
}

static int new_dev(IbFabric *b, int kind, uint64_t guid, int nports, int src)
{
	IbDev *v = &b->devs[b->ndevs];
	*v = (IbDev){kind, guid, "", "", nports, src, NULL};
	snprintf(v->id, sizeof v->id, "%c-%016" PRIx64, kind == IB_SWITCH ? 'S' : 'H', guid);
	v->peer = xmalloc(sizeof *v->peer * (size_t)(nports + 1));
	for (int p = 0; p <= nports; p++)
		v->peer[p] = (IbPeer){-1, 0, -1};
	return b->ndevs++;
}

/* The device and port (from 1) of a link's end. */
static void end_port(const IbFabric *b, End e, int *dev, int *port)
{
	const Design *d = b->d;
	switch (e.kind) {
	case END_SWITCH:
		*dev = e.dev - b->f->first_switch;
		*port = e.port + 1;
		return;
	case END_NODE:
		*dev = b->port_dev[e.port];
		*port = d->ports[e.port].port + 1;
		return;
	case END_EXTRA: {
		int np = extra_nic_ports(&d->extras[e.dev]);
		*dev = b->extra_dev[b->extra_off[e.dev - b->f->first_extra] + e.port];
		*port = e.port % np + 1;
		return;
	}
	default:
		assert(!"a fabric link ends at an accelerator");
	}
}

static void ib_free(IbFabric *b)
{
	for (int i = 0; i < b->ndevs; i++)
		free(b->devs[i].peer);
	free(b->devs);
	free(b->port_dev);
	free(b->extra_dev);
	free(b->extra_off);
}

/* Why fabric f cannot be written as an InfiniBand subnet, or NULL. */
static const char *ib_limit(const Design *d, const FabricInst *f, int fi)
{
	Arena *a = d->c->arena;
	if (fi > 0xff)
		return "more than 256 fabrics do not fit the GUID scheme";
	if (f->switches > IB_MAX_DEVICES || d->nnodes > IB_MAX_DEVICES ||
	    d->nextras > IB_MAX_DEVICES)
		return "more than 16,777,215 devices do not fit the GUID scheme";
	for (int i = f->first_switch; i < f->first_switch + f->switches; i++)
		if (d->switches[i].radix > IB_MAX_PORTS)
			return arena_printf(a, "its switches have %d ports at the link speed, more than "
					       "the %d an InfiniBand switch can number",
					    d->switches[i].radix, IB_MAX_PORTS);
	for (int i = 0; i < d->nports; i++)
		if (d->ports[i].nic_index > 0xff || d->ports[i].port >= IB_MAX_PORTS)
			return "a node has more than 256 NICs or a NIC more than 254 ports";
	for (int e = f->first_extra; e < f->first_extra + f->nextras; e++)
		if (d->extras[e].nports / extra_nic_ports(&d->extras[e]) > 0x100 ||
		    extra_nic_ports(&d->extras[e]) > IB_MAX_PORTS)
			return "a device has more than 256 NICs or a NIC more than 254 ports";
	return NULL;
}

/* Every switch and HCA of fabric fi and who is at the other end of each port. */
static void ib_build(IbFabric *b, const Design *d, int fi)
{
	const FabricInst *f = &d->fabrics[fi];
	*b = (IbFabric){.d = d, .f = f, .fi = fi, .nlinks = f->links,
			.port_speed = f->switch_model ? f->switch_model->sw.port_speed : 0};
	b->devs = xmalloc(sizeof *b->devs * (size_t)(f->switches + 2 * f->links + 1));
	for (int i = 0; i < f->switches; i++) {
		const SwitchInst *s = &d->switches[f->first_switch + i];
		int v = new_dev(b, IB_SWITCH, ib_guid(IB_SWITCH, fi, i + 1, 0), s->radix,
				f->first_switch + i);
		ib_desc(b->devs[v].desc, s->name, NULL);
	}
	/* The ports this fabric links: a node's NIC or an extra device's NIC is an HCA if any. */
	char *node_used = xmalloc((size_t)d->nports + 1);
	memset(node_used, 0, (size_t)d->nports + 1);
	b->extra_off = xmalloc(sizeof(int) * (size_t)(f->nextras + 1));
	int nxports = 0;
	for (int e = 0; e < f->nextras; e++) {
		b->extra_off[e] = nxports;
		nxports += d->extras[f->first_extra + e].nports;
	}
	b->extra_dev = xmalloc(sizeof(int) * (size_t)(nxports + 1));
	for (int i = 0; i < nxports; i++)
		b->extra_dev[i] = -2; /* -2 not linked, -1 linked */
	for (int i = f->first_link; i < f->first_link + f->links; i++) {
		const End ends[2] = {d->links[i].a, d->links[i].z};
		for (int k = 0; k < 2; k++) {
			if (ends[k].kind == END_NODE)
				node_used[ends[k].port] = 1;
			else if (ends[k].kind == END_EXTRA)
				b->extra_dev[b->extra_off[ends[k].dev - f->first_extra] + ends[k].port] = -1;
		}
	}
	b->port_dev = xmalloc(sizeof(int) * (size_t)(d->nports + 1));
	for (int i = 0; i < d->nports; i++)
		b->port_dev[i] = -1;
	Buf port = {0};
	for (int n = 0; n < d->nnodes; n++) {
		int end = n + 1 < d->nnodes ? d->nodes[n + 1].first_port : d->nports;
		int dev = -1, nic = -1;
		for (int i = d->nodes[n].first_port; i < end; i++) {
			if (!node_used[i])
				continue;
			const PortInst *pi = &d->ports[i];
			if (dev < 0 || nic != pi->nic_index) {
				nic = pi->nic_index;
				int np = pi->nic->nic.ports;
				dev = new_dev(b, IB_NODE_HCA, ib_guid(IB_NODE_HCA, fi, n + 1, nic & 0xff),
					      np, n);
				/* As its first port is named everywhere else (ir.c). */
				port.len = 0;
				ir_end_port(&port, d, (End){END_NODE, n, i});
				ib_desc(b->devs[dev].desc, d->nodes[n].hostname, port.s);
			}
			b->port_dev[i] = dev;
		}
	}
	buf_free(&port);
	free(node_used);
	for (int e = 0; e < f->nextras; e++) {
		const ExtraInst *x = &d->extras[f->first_extra + e];
		int np = extra_nic_ports(x), dev = -1, nic = -1;
		for (int p = 0; p < x->nports; p++) {
			int *slot = &b->extra_dev[b->extra_off[e] + p];
			if (*slot == -2)
				continue;
			if (dev < 0 || nic != p / np) {
				nic = p / np;
				dev = new_dev(b, IB_EXTRA_HCA,
					      ib_guid(IB_EXTRA_HCA, fi, f->first_extra + e + 1, nic & 0xff),
					      np, f->first_extra + e);
				char mlx5[24]; /* "mlx5_" and any int */
				snprintf(mlx5, sizeof mlx5, "mlx5_%d", nic);
				ib_desc(b->devs[dev].desc, x->name, mlx5);
			}
			*slot = dev;
		}
	}
	for (int i = f->first_link; i < f->first_link + f->links; i++) {
		int da, pa, dz, pz;
		end_port(b, d->links[i].a, &da, &pa);
		end_port(b, d->links[i].z, &dz, &pz);
		assert(da >= 0 && dz >= 0 && pa <= b->devs[da].nports && pz <= b->devs[dz].nports);
		assert(b->devs[da].peer[pa].dev < 0 && b->devs[dz].peer[pz].dev < 0);
		b->devs[da].peer[pa] = (IbPeer){dz, pz, i};
		b->devs[dz].peer[pz] = (IbPeer){da, pa, i};
	}
}

/* ---- FABRIC.topo ---------------------------------------------------------------------------- */

/* " 4xNDR": the link's width and lane rate, after a space. A switch port at its full speed is
 * 4x; a breakout of it narrower (a QM9700 400G port split in two is 2xNDR, 200G). Lane rates
 * as the IBTA names them, by their data rate (4xEDR is 100G, 4xNDR 400G); "" for a rate IB
 * lacks. Links of a fabric mostly share a speed: the last answer is kept in *cache. */
typedef struct RateCache {
	double speed, port_speed;
	char text[16];
} RateCache;

/* The unsplit port speed a link's width is counted against: the slower switch end's (a tree's
 * tiers may each have their own model), else the fabric's switch. */
static double link_port_speed(const IbFabric *b, const LinkInst *l)
{
	double ps = 0;
	const End ends[2] = {l->a, l->z};
	for (int i = 0; i < 2; i++) {
		if (ends[i].kind != END_SWITCH)
			continue;
		const Part *m = b->d->switches[ends[i].dev].model;
		double p = m ? m->sw.port_speed : 0;
		if (p > 0 && (ps == 0 || p < ps))
			ps = p;
	}
	return ps > 0 ? ps : b->port_speed;
}

static const char *ib_rate(const IbFabric *b, const LinkInst *l, RateCache *cache)
{
	double speed = l->speed, port_speed = link_port_speed(b, l);
	static const struct {
		double gbps;
		const char *name;
	} rates[] = {{2.5, "SDR"}, {5, "DDR"}, {10, "QDR"}, {14, "FDR"}, {25, "EDR"},
		     {50, "HDR"}, {100, "NDR"}, {200, "XDR"}};
	if (speed == cache->speed && port_speed == cache->port_speed)
		return cache->text;
	int width = 4;
	if (port_speed > 0 && speed > 0 && speed < port_speed)
		width = (int)lround(4 * speed / port_speed);
	if (width != 1 && width != 2 && width != 4)
		width = 4;
	double lane = speed / 1e9 / width;
	cache->speed = speed;
	cache->port_speed = port_speed;
	cache->text[0] = 0;
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
		if (fabs(lane - rates[i].gbps) <= 0.05 * rates[i].gbps)
			snprintf(cache->text, sizeof cache->text, " %dx%s", width, rates[i].name);
	return cache->text;
}

static int write_topo(Output *o, const IbFabric *b)
{
	const Design *d = b->d;
	const FabricInst *f = b->f;
	FILE *out = output_file(o, arena_printf(d->c->arena, "infiniband/%s.topo", f->name));
	if (!out)
		return 1;
	int nports = 0; /* as ibsim counts them: a switch's port 0 and every port of an HCA */
	for (int i = 0; i < b->ndevs; i++)
		nports += b->devs[i].nports + (b->devs[i].kind == IB_SWITCH);
	fprintf(out,
		"#\n# Topology file: fabric %s of cluster %s, as ibnetdiscover(8) writes a subnet\n"
		"# before its subnet manager has run (no LIDs yet). Written by clusterc.\n#\n"
		"# %d switches, %d HCAs, %d links. Load it into ibsim (ibsim-utils) with\n"
		"#   ibsim -s -N %d -S %d -P %d %s.topo\n"
		"# (-N, -S and -P size ibsim's node, switch and port tables; it needs at least\n"
		"# these).\n#\n\n",
		f->name, d->cluster_name, f->switches, b->ndevs - f->switches, b->nlinks,
		b->ndevs, f->switches, nports, f->name);
	RateCache cache = {-1, -1, ""};
	for (int i = 0; i < b->ndevs; i++) {
		const IbDev *v = &b->devs[i];
		bool sw = v->kind == IB_SWITCH;
		if (sw)
			fprintf(out, "switchguid=0x%016" PRIx64 "(%" PRIx64 ")\nSwitch\t%d \"%s\"\t\t"
				     "# \"%s\" enhanced port 0 lid 0 lmc 0\n",
				v->guid, v->guid, v->nports, v->id, v->desc);
		else
			fprintf(out, "caguid=0x%016" PRIx64 "\nCa\t%d \"%s\"\t\t# \"%s\"\n", v->guid,
				v->nports, v->id, v->desc);
		for (int p = 1; p <= v->nports; p++) {
			const IbPeer *q = &v->peer[p];
			if (q->dev < 0)
				continue;
			const IbDev *r = &b->devs[q->dev];
			const char *rate = ib_rate(b, &d->links[q->link], &cache);
			/* As ibnetdiscover: an HCA's own port GUID after its port, a switch's peer
			 * HCA's after the peer's port. */
			if (!sw)
				fprintf(out, "[%d](%" PRIx64 ")\t\"%s\"[%d]\t\t# lid 0 lmc 0 \"%s\" lid 0%s\n",
					p, v->guid + (uint64_t)p, r->id, q->port, r->desc, rate);
			else if (r->kind != IB_SWITCH)
				fprintf(out, "[%d]\t\"%s\"[%d](%" PRIx64 ")\t\t# \"%s\" lid 0%s\n", p, r->id,
					q->port, r->guid + (uint64_t)q->port, r->desc, rate);
			else
				fprintf(out, "[%d]\t\"%s\"[%d]\t\t# \"%s\" lid 0%s\n", p, r->id, q->port,
					r->desc, rate);
		}
		fputc('\n', out);
	}
	return output_close(o, out);
}

/* ---- FABRIC.node-name-map ------------------------------------------------------------------- */

static int write_name_map(Output *o, const IbFabric *b)
{
	const FabricInst *f = b->f;
	FILE *out = output_file(o, arena_printf(b->d->c->arena, "infiniband/%s.node-name-map",
						f->name));
	if (!out)
		return 1;
	fprintf(out, "# Node GUID to name for fabric %s (node_name_map_name of OpenSM,\n"
		     "# --node-name-map of ibnetdiscover and the other infiniband-diags).\n",
		f->name);
	for (int i = 0; i < b->ndevs; i++)
		fprintf(out, "0x%016" PRIx64 " \"%s\"\n", b->devs[i].guid, b->devs[i].desc);
	return output_close(o, out);
}

/* ---- per subnet: guid files and opensm.conf ------------------------------------------------- */

/* What a subnet (a fabric, or one plane of it) is called in file names. */
static const char *subnet_name(const IbFabric *b, int plane)
{
	Arena *a = b->d->c->arena;
	return b->f->planes > 1 ? arena_printf(a, "%s-p%d", b->f->name, plane + 1)
				: b->f->name;
}

static bool is_fat_tree(const FabricInst *f)
{
	return f->family->tree;
}

/* The top tier of a fat tree: core for three tiers, spine for two, leaf for one. */
static int top_tier(const IbFabric *b)
{
	int top = ST_LEAF;
	for (int i = 0; i < b->f->switches; i++)
		if ((int)b->d->switches[b->devs[i].src].tier > top)
			top = b->d->switches[b->devs[i].src].tier;
	return top;
}

/* Writes SUBNET.root_guids and SUBNET.cn_guids; *roots and *cns get their counts. */
static int write_guid_files(Output *o, const IbFabric *b, int plane, int *roots, int *cns)
{
	const Design *d = b->d;
	Arena *a = d->c->arena;
	const char *sn = subnet_name(b, plane);
	FILE *out = output_file(o, arena_printf(a, "infiniband/%s.root_guids", sn));
	if (!out)
		return 1;
	int top = top_tier(b);
	fprintf(out, "# Root switches of subnet %s for OpenSM's ftree and updn engines\n"
		     "# (root_guid_file): node GUIDs of its %s switches.\n",
		sn, ir_switch_tier_names[top]);
	*roots = 0;
	for (int i = 0; i < b->f->switches; i++) {
		const SwitchInst *s = &d->switches[b->devs[i].src];
		if ((int)s->tier == top && s->plane == plane) {
			fprintf(out, "0x%016" PRIx64 " # %s\n", b->devs[i].guid, b->devs[i].desc);
			++*roots;
		}
	}
	int errors = output_close(o, out);
	out = output_file(o, arena_printf(a, "infiniband/%s.cn_guids", sn));
	if (!out)
		return errors + 1;
	fprintf(out, "# Compute nodes of subnet %s for OpenSM's ftree engine (cn_guid_file):\n"
		     "# port GUIDs of the cluster nodes' HCA ports.\n",
		sn);
	*cns = 0;
	for (int i = b->f->switches; i < b->ndevs; i++) {
		const IbDev *v = &b->devs[i];
		if (v->kind != IB_NODE_HCA)
			continue;
		for (int p = 1; p <= v->nports; p++)
			if (v->peer[p].dev >= 0 && d->links[v->peer[p].link].plane == plane) {
				fprintf(out, "0x%016" PRIx64 " # %s port %d\n", v->guid + (uint64_t)p,
					v->desc, p);
				++*cns;
			}
	}
	return errors + output_close(o, out);
}

/* OpenSM's routing engine for the fabric's routing field and topology; *why says what it
 * is, as comment lines. */
static const char *routing_engine(const FabricInst *f, const char **why)
{
	if (f->routing == ROUTE_UPDN) {
		*why = "# Routing engine: up/down (routing = updn), ranked from the root switches.\n";
		return "updn";
	}
	if (f->routing == ROUTE_MINIMAL) {
		*why = "# Routing engine: min hop (routing = minimal).\n";
		return "minhop";
	}
	if (f->routing == ROUTE_DOR) {
		*why = "# Routing engine: dimension-order routing (routing = dor).\n";
		return "dor";
	}
	if (is_fat_tree(f)) {
		*why = "# Routing engine: the fat-tree engine (ftree), up*/down* paths free of credit\n"
		       "# loops, the routes to the destinations balanced over the up ports so that\n"
		       "# shift patterns do not collide (opensm(8), \"Fat-tree Routing Algorithm\").\n"
		       "# A topology ftree does not accept as a fat tree (a miscabled or failed\n"
		       "# link can do it) makes OpenSM log \"falling back to default routing\"\n"
		       "# and route with minhop; \"ftree,no_fallback\" refuses instead.\n";
		return "ftree";
	}
	*why = "# Routing engine: deadlock-free single-source shortest paths (dfsssp), for a\n"
	       "# topology that is not a tree.\n";
	return "dfsssp";
}

static int write_opensm_conf(Output *o, const IbFabric *b, int plane, bool alone, int roots,
			     int cns)
{
	const Design *d = b->d;
	Arena *a = d->c->arena;
	const char *sn = subnet_name(b, plane);
	const char *base = alone ? "opensm.conf" : arena_printf(a, "%s.opensm.conf", sn);
	FILE *out = output_file(o, arena_printf(a, "infiniband/%s", base));
	if (!out)
		return 1;
	const char *why;
	const char *engine = routing_engine(b->f, &why);
	bool ftree = strcmp(engine, "ftree") == 0;
	int others = 0;
	for (int i = b->f->switches; i < b->ndevs; i++)
		for (int p = 1; p <= b->devs[i].nports; p++)
			others += b->devs[i].kind == IB_EXTRA_HCA && b->devs[i].peer[p].dev >= 0 &&
				  d->links[b->devs[i].peer[p].link].plane == plane;
	fprintf(out,
		"# OpenSM settings for InfiniBand subnet %s (fabric %s of cluster %s),\n"
		"# written by clusterc. The paths expect the files of infiniband/ in\n"
		"# " IB_CONF_DIR ", where Debian's opensm reads " IB_CONF_DIR "opensm.conf;\n"
		"# elsewhere change them and run `opensm -F %s`. Settings not named here\n"
		"# keep OpenSM's defaults (`opensm -c FILE` writes them all).\n\n",
		sn, b->f->name, d->cluster_name, base);
	fprintf(out, "%srouting_engine %s\n\n", why, engine);
	if (is_fat_tree(b->f) && (ftree || strcmp(engine, "updn") == 0))
		fprintf(out, "# The root switches the engine ranks the tree from: node GUIDs of the\n"
			     "# %d %s switches.\n"
			     "root_guid_file " IB_CONF_DIR "%s.root_guids\n\n",
			roots, ir_switch_tier_names[top_tier(b)], sn);
	if (ftree) {
		fprintf(out, "# The compute nodes: port GUIDs of the %d HCA ports of cluster nodes, all\n"
			     "# on leaf switches.",
			cns);
		if (others)
			fprintf(out, " The %d other CA ports (fabric managers, storage) are\n"
				     "# routed after them as non-compute nodes.",
				others);
		fprintf(out, "\ncn_guid_file " IB_CONF_DIR "%s.cn_guids\n\n", sn);
		fprintf(out, "# The fat-tree engine supports LMC 0 only (one LID per port).\n"
			     "lmc 0\n\n");
	}
	fprintf(out, "# Names for the GUIDs in OpenSM's log and dump files.\n"
		     "node_name_map_name " IB_CONF_DIR "%s.node-name-map\n",
		b->f->name);
	return output_close(o, out);
}

/* Warns when a subnet needs more unicast LIDs than InfiniBand has (0x0001-0xBFFF): one per
 * switch and, at LMC 0, one per CA port. */
static void check_lids(const IbFabric *b, int plane)
{
	const Design *d = b->d;
	long lids = 0;
	for (int i = 0; i < b->ndevs; i++) {
		const IbDev *v = &b->devs[i];
		if (v->kind == IB_SWITCH) {
			lids += d->switches[v->src].plane == plane;
			continue;
		}
		for (int p = 1; p <= v->nports; p++)
			lids += v->peer[p].dev >= 0 && d->links[v->peer[p].link].plane == plane;
	}
	if (lids > IB_MAX_UNICAST_LIDS)
		diag_warning(d->c, b->f->loc,
			     "InfiniBand subnet %s needs %ld LIDs (switches and CA ports), more than "
			     "the %d unicast LIDs of a subnet; split it into more planes",
			     subnet_name(b, plane), lids, IB_MAX_UNICAST_LIDS);
}

/* ---- the backend ---------------------------------------------------------------------------- */

/* Whether fabric fi gets InfiniBand files; a warning when it is InfiniBand but cannot. */
static bool ib_wanted(const Design *d, int fi, bool warn)
{
	const FabricInst *f = &d->fabrics[fi];
	if (!d->elaborated || !f->sized || !ib_fabric_is_infiniband(f) || f->links == 0)
		return false;
	const char *why = ib_limit(d, f, fi);
	if (why && warn)
		diag_warning(d->c, f->loc,
			     "infiniband/%s.topo not written: fabric '%s' cannot be an InfiniBand "
			     "subnet: %s",
			     f->name, f->name, why);
	return !why;
}

int infiniband_write(Output *o, const Design *d)
{
	int subnets = 0, errors = 0;
	for (int fi = 0; fi < d->nfabrics; fi++)
		if (ib_wanted(d, fi, false))
			subnets += d->fabrics[fi].planes;
	for (int fi = 0; fi < d->nfabrics; fi++) {
		if (!ib_wanted(d, fi, true))
			continue;
		IbFabric b;
		ib_build(&b, d, fi);
		errors += write_topo(o, &b);
		errors += write_name_map(o, &b);
		for (int pl = 0; pl < b.f->planes; pl++) {
			int roots = 0, cns = 0;
			check_lids(&b, pl);
			if (is_fat_tree(b.f))
				errors += write_guid_files(o, &b, pl, &roots, &cns);
			errors += write_opensm_conf(o, &b, pl, subnets == 1, roots, cns);
		}
		ib_free(&b);
	}
	return errors;
}
