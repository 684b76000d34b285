/*
 * switch_config.c — switches/NAME/config_db.json (SONiC) and switches/NAME/frr.conf (FRR) for
 * every switch of every Ethernet fabric, from the plan of switch_plan.c. docs/switch-configs.md
 * describes the files; the sources each setting follows are named where it is written.
 *
 * config_db.json is SONiC's configuration database as `config save` writes it (config_db.c).
 *
 * The file describes what clusterc decides for the switch; SONiC takes the platform's own
 * parts (lanes, port indexes, buffer pools and profiles) from the HWSKU. Apply it over a
 * configuration generated for the HWSKU (`sonic-cfggen -H -k HWSKU --preset l3`), e.g. with
 * `config load`.
 *
 * frr.conf is the integrated FRR configuration: eBGP unnumbered (RFC 7938 §5.2), announcing the
 * loopbacks and the hosts' subnets only, through one route-map on the redistribution and on every
 * session, never a link between two switches (RFC 7938 §5.2.3: advertising the fabric's
 * point-to-point links fills every FIB for no benefit). SONiC uses the file as it is when
 * docker_routing_config_mode is "split-unified" (sonic-buildimage
 * dockers/docker-fpm-frr/docker_init.sh: "split" expects separate bgpd.conf and zebra.conf and
 * removes frr.conf; "split-unified" keeps frr.conf; in both, bgpcfgd leaves FRR alone).
 */
#include "backends.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The tables written. */
enum {
	T_BUFFER_PG,
	T_CABLE_LENGTH,
	T_DEVICE_METADATA,
	T_DEVICE_NEIGHBOR,
	T_DEVICE_NEIGHBOR_METADATA,
	T_DSCP_TO_TC_MAP,
	T_INTERFACE,
	T_LOOPBACK_INTERFACE,
	T_MAP_PFC_PRIORITY_TO_QUEUE,
	T_PORT,
	T_PORT_QOS_MAP,
	T_QUEUE,
	T_TC_TO_PRIORITY_GROUP_MAP,
	T_TC_TO_QUEUE_MAP,
	T_WRED_PROFILE,
	T_COUNT
};
static const char *const table_names[T_COUNT] = {
	"BUFFER_PG", "CABLE_LENGTH", "DEVICE_METADATA", "DEVICE_NEIGHBOR",
	"DEVICE_NEIGHBOR_METADATA", "DSCP_TO_TC_MAP",
	"INTERFACE", "LOOPBACK_INTERFACE", "MAP_PFC_PRIORITY_TO_QUEUE", "PORT", "PORT_QOS_MAP",
	"QUEUE", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP", "WRED_PROFILE"};

/* ---- one switch ------------------------------------------------------------------------------ */

/* The decimal digits of 0..255, for put_addr (a 100,000-GPU build writes some 800,000
 * addresses). */
static const char octets[256][4] = {
	"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
	"17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
	"32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46",
	"47", "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61",
	"62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76",
	"77", "78", "79", "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91",
	"92", "93", "94", "95", "96", "97", "98", "99", "100", "101", "102", "103", "104", "105",
	"106", "107", "108", "109", "110", "111", "112", "113", "114", "115", "116", "117", "118",
	"119", "120", "121", "122", "123", "124", "125", "126", "127", "128", "129", "130", "131",
	"132", "133", "134", "135", "136", "137", "138", "139", "140", "141", "142", "143", "144",
	"145", "146", "147", "148", "149", "150", "151", "152", "153", "154", "155", "156", "157",
	"158", "159", "160", "161", "162", "163", "164", "165", "166", "167", "168", "169", "170",
	"171", "172", "173", "174", "175", "176", "177", "178", "179", "180", "181", "182", "183",
	"184", "185", "186", "187", "188", "189", "190", "191", "192", "193", "194", "195", "196",
	"197", "198", "199", "200", "201", "202", "203", "204", "205", "206", "207", "208", "209",
	"210", "211", "212", "213", "214", "215", "216", "217", "218", "219", "220", "221", "222",
	"223", "224", "225", "226", "227", "228", "229", "230", "231", "232", "233", "234", "235",
	"236", "237", "238", "239", "240", "241", "242", "243", "244", "245", "246", "247", "248",
	"249", "250", "251", "252", "253", "254", "255"};
/* The number of digits of octets[o]. */
static int octet_len(uint32_t o)
{
	return 1 + (o >= 10) + (o >= 100);
}

/* "a.b.c" of a into p, without the last octet; returns the end. */
static char *put_addr_head(char *p, uint32_t a)
{
	for (int i = 3; i >= 1; i--) {
		uint32_t o = a >> (8 * i) & 255;
		memcpy(p, octets[o], 4);
		p += octet_len(o);
		*p++ = '.';
	}
	return p;
}

/* "a.b.c.d" (or with "/len") into p; returns the end, NUL-terminated. */
static char *put_addr(char *p, uint32_t a, int len)
{
	p = put_addr_head(p, a);
	memcpy(p, octets[a & 255], 4);
	p += octet_len(a & 255);
	if (len >= 0) {
		*p++ = '/';
		p = buf_digits_at(p, (unsigned)len);
	}
	*p = 0;
	return p;
}

typedef struct PortText {
	char name[24];    /* Ethernet256 */
	size_t len;       /* of name */
	int peer_switch;  /* the peer's switch index in the fabric, or -1 */
	/* The peer's device and port as cabling.csv names them (peer_fill), found once a port for
	 * the three writers that want them (DEVICE_NEIGHBOR, PORT's description, frr.conf). */
	const char *dev, *port;
	size_t ndev, nport;
	size_t port_at;   /* a formatted port's offset in Writer.peer (peer_fill) */
	bool json;        /* both plain JSON strings (peer_fill) */
} PortText;

/* The fixed text around one port's varying fields in the tables port_table writes, made with
 * the template (port_template; offsets and lengths in Writer.tline):
 *   PORT:             "NAME":{BEFORE,"description":  DESCRIPTION  ,AFTER}
 *   DEVICE_NEIGHBOR:  "NAME":{"local_port":"NAME","name":  DEVICE  ,"port":  PORT  }
 *   INTERFACE:        "NAME":{},"NAME|  ADDRESS/31  ":{}
 *   CABLE_LENGTH:     "NAME":"  LENGTH  m"
 * and frr.conf's (frr_conf), the name as it is:
 *   the interface:    interface NAME\n description   DEVICE PORT  FRR_INTERFACE_TAIL
 *   the session:      " neighbor NAME interface peer-group FABRIC\n" */
enum {
	TL_PORT_HEAD, TL_PORT_TAIL, TL_NEIGHBOR_HEAD, TL_INTERFACE_HEAD, TL_CABLE_HEAD,
	TL_FRR_INTERFACE, TL_FRR_NEIGHBOR, TL_COUNT
};
static const char frr_interface_tail[] =
	"\n ipv6 nd ra-interval 10\n no ipv6 nd suppress-ra\nexit\n!\n";

/* CABLE_LENGTH's texts by the length's bits, in slots: a fabric has a few stocked lengths and a
 * switch's ports alternate between them, so the one kept text of labels.csv and the pull sheets
 * (NumberText, layout_number_kept: their rows come in runs of a length) would be made again
 * most ports; cabling.csv's NumSlot keeps its three numbers' cells together the same way. */
enum { LENGTH_SLOTS = 64 };
typedef struct LengthText {
	uint64_t bits;
	bool set;
	unsigned char n;
	char text[14];    /* "5" (the "m" is the template's) */
} LengthText;

/* What a switch's template depends on (port_template): the switch's kind, the fabric's, and
 * each port's number and speed. A port's name follows from its number and the kind
 * (ir_switch_port_name reads the model, breakout, split and up breakout alone, as the names'
 * PortTextCache relies on): not compared. */
typedef struct TemplateKey {
	const void *model;
	int breakout, split, up_breakout, mtu, lossless, np;
} TemplateKey;
typedef struct TemplatePort {
	int port;
	double speed;
} TemplatePort;

/* What switches of one kind share, made once for them (port_template): its key, the RoCE
 * tables' text (span[t]: where table t's is in text), each port's PORT fields before and after
 * its description (port[k]: offset and length in before, after), and the fixed text around
 * each port's fields (line[k][i], TL_*: offset and length in lines). */
typedef struct Template {
	TemplateKey key;
	TemplatePort *kports; /* key's ports */
	int kcap;
	Buf text, before, after;
	size_t span[T_COUNT][2];
	size_t (*port)[4];
	int pcap;
	bool set;
	bool sorted;      /* the ports' names are in natural order (port_names_ordered) */
	Buf lines;
	size_t (*line)[TL_COUNT][2];
	int lcap;
	unsigned long used; /* when last used (Writer.tclock): the least recent is made over */
} Template;

/* Templates kept: a fabric's switches of several kinds come interleaved (a pod's leaves, then
 * its spines, ...); with the last one only, 132 of 4,000 switches at 100,000 GPUs made theirs
 * again (docs/performance.md, "Emitter, twelfth pass"). */
enum { TEMPLATES = 8 };

/* What writing a switch needs beyond the plan, kept between switches. */
typedef struct Writer {
	Output *o;
	const Design *d;
	const SwitchPlan *sp;
	ConfigDb *db;
	Buf text, scratch, peer;
	const EndTable *ends; /* the cable ends' table, when made (ends.c), or NULL */
	Buf small;        /* config_db_direct's: the small tables ConfigDb renders */
	size_t dspan[T_COUNT][2];
	bool tables_ordered; /* tables_ordered() */
	size_t tname_len[T_COUNT]; /* strlen(table_names[t]) */
	int *rank;        /* peer_ranks': the fabric's switches' order by name */
	int rank_state;   /* 0: not made for this fabric, 1: made, -1: names tie */
	uint64_t *peers;  /* metadata_table's */
	int npeers_cap;
	Buf meta;
	size_t (*meta_at)[4];
	PortText *pt;
	int cap;
	int *cable_of;    /* Design.links index -> Design.cables index, or -1 */
	int *count;       /* per fabric switch, zeroed: links to it (maximum-paths), or whether
			   * its DEVICE_NEIGHBOR_METADATA is written (config_db) */
	Buf policy;       /* the fabric's prefix lists and route-map (fabric_policy) */
	size_t last, last_frr; /* the size of the last config_db.json and frr.conf written */
	/* What switches of one kind share (port_template): the last TEMPLATES kinds' texts, t
	 * the current switch's; tdb renders them. */
	ConfigDb *tdb;
	Template tpl[TEMPLATES];
	Template *t;
	unsigned long tclock; /* Template.used's clock */
	PortTextCache names; /* the ports' names, made once a kind of switch and port */
	PortTextCache peer_names; /* the same of the peers' ports (peer_fill) */
	/* per fabric switch, as a peer: its name's length and text_plain bits, once known
	 * (peer_fill; a dragonfly's router is the peer of some 60 ports) */
	struct PeerName {
		size_t len;
		unsigned char plain;
		bool set;
	} *peer_name;
	LengthText lengths[LENGTH_SLOTS];
	uint32_t addr_hi; /* the last INTERFACE address's first three octets, as text in */
	char addr_head[16];
	size_t addr_head_len; /* 0: none yet */
	char lo[20];      /* the switch's loopback address, "10.0.0.1" (write_switch) */
	size_t lo_len;
} Writer;

static const char *const type_names[ST_COUNT] = {
	[ST_LEAF] = "LeafRouter", [ST_SPINE] = "SpineRouter", [ST_CORE] = "SpineRouter",
	[ST_ROUTER] = "LeafRouter", [ST_SCALE_UP] = "LeafRouter"};
/* Tiers from the endpoints up; a dragonfly's routers are all one tier. */
static const int tier_rank[ST_COUNT] = {[ST_LEAF] = 0, [ST_SPINE] = 1, [ST_CORE] = 2,
					[ST_ROUTER] = 0, [ST_SCALE_UP] = 0};

static bool same_end(End a, End b)
{
	return a.kind == b.kind && a.dev == b.dev && a.port == b.port;
}

/* The peer's device and port as cabling.csv names them (ir.c), into pt: taken from the cable
 * ends' table when the writers of a row per cable made it (ends.c; with every artifact), else
 * formatted (a switch's port by w->peer_names). pt->json: both are JSON strings as they are,
 * quoted (the table's text_plain bits, else text_plain's of the text formatted: `--emit
 * switches` alone then writes each port's entries at a pointer too, not through
 * configdb_stringn and describe_peer). A port formatted is appended, NUL-terminated, to w->peer at
 * pt->port_at, and pt->port left NULL until write_switch points it there (w->peer may move as
 * it grows). Once a port for the three writers that want them. */
static void peer_fill(Writer *w, const SwitchPort *p, PortText *pt)
{
	pt->json = false;
	int c = w->ends && p->link >= 0 ? w->cable_of[p->link] : -1;
	if (c >= 0) {
		const LinkInst *l = &w->d->links[p->link];
		int side = same_end(l->z, p->peer) ? 1 : same_end(l->a, p->peer) ? 0 : -1;
		if (side >= 0) {
			const EndText *x = &w->ends->ends[2 * (size_t)c + (size_t)side];
			pt->dev = x->device;
			pt->port = x->port;
			pt->ndev = x->plain ? x->device_len : strlen(x->device);
			pt->nport = x->plain ? x->port_len : strlen(x->port);
			pt->json = x->json_plain;
			return;
		}
	}
	pt->dev = ir_end_device(w->d, p->peer);
	unsigned plain;
	if (pt->peer_switch >= 0 && pt->peer_switch < w->sp->nswitches) {
		struct PeerName *x = &w->peer_name[pt->peer_switch];
		if (!x->set) {
			x->plain = (unsigned char)text_plain(pt->dev, &x->len);
			x->set = true;
		}
		plain = x->plain;
		pt->ndev = x->len;
	} else {
		plain = text_plain(pt->dev, &pt->ndev);
	}
	pt->port_at = w->peer.len;
	pt->port = NULL;
	if (p->peer.kind == END_SWITCH) { /* ir_end_port's text, kept a kind of switch and port */
		size_t n;
		unsigned port_plain;
		const char *port = port_text(&w->peer_names, &w->d->switches[p->peer.dev],
					     p->peer.port, &n, &port_plain);
		buf_put(&w->peer, port, n);
		plain &= port_plain;
	} else {
		ir_end_port(&w->peer, w->d, p->peer);
		size_t n;
		plain &= text_plain(w->peer.s + pt->port_at, &n);
	}
	pt->nport = w->peer.len - pt->port_at;
	buf_putc(&w->peer, 0);
	/* both plain JSON strings, as the ends' table says of its own (text_plain) */
	pt->json = (plain & TEXT_PLAIN_JSON) != 0;
}

/* The peer as a port description, its device and port as cabling.csv names them (ir.c):
 * "compute-spine-01 Ethernet8", "h200-001 mlx5_3" (pt's, peer_fill). */
static void describe_peer(Writer *w, const PortText *pt)
{
	Buf *b = &w->scratch;
	b->len = 0;
	buf_put(b, pt->dev, pt->ndev);
	buf_put(b, " ", 1);
	buf_put(b, pt->port, pt->nport);
}

/* Lossless RoCE on priority 3 with ECN (sources in docs/switch-configs.md):
 *  - maps, PORT_QOS_MAP, QUEUE and WRED_PROFILE as sonic-buildimage
 *    files/build_templates/qos_config.j2 writes them for its lossless queues (its AZURE maps
 *    and AZURE_LOSSLESS profile, with ecn "ecn_all"), for priority 3 alone;
 *  - DSCP 26 (RoCE) to traffic class 3 and DSCP 48 (congestion notifications) to class 6, ECN
 *    marking from 150 KB to 1,500 KB of queue: NVIDIA's RoCE defaults (Cumulus Linux "RDMA
 *    over Converged Ethernet - RoCE", default lossless mode); scheduling is left to the
 *    platform's;
 *  - BUFFER_PG profile "NULL" for the lossless group: SONiC's dynamic buffer model sizes its
 *    headroom from the port's speed, cable length (CABLE_LENGTH, from the cable plan) and MTU
 *    (Configuration.md, BUFFER_PG; the model is DEVICE_METADATA buffer_model "dynamic"). */
static void roce_tables(ConfigDb *db)
{
	static const char *const digits[64] = {
		"0",  "1",  "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10", "11", "12",
		"13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25",
		"26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38",
		"39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51",
		"52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63"};
	configdb_entry_s(db, T_DSCP_TO_TC_MAP, "ROCE");
	for (int i = 0; i < 64; i++) {
		const char *tc = i == 26 ? "3" : i == 48 ? "6" : "0";
		configdb_field_copy(db, digits[i], strlen(digits[i]), tc, 1);
	}
	configdb_entry_s(db, T_TC_TO_QUEUE_MAP, "ROCE");
	for (int i = 0; i < 8; i++)
		configdb_field_copy(db, digits[i], 1, digits[i], 1);
	configdb_entry_s(db, T_MAP_PFC_PRIORITY_TO_QUEUE, "ROCE");
	for (int i = 0; i < 8; i++)
		configdb_field_copy(db, digits[i], 1, digits[i], 1);
	configdb_entry_s(db, T_TC_TO_PRIORITY_GROUP_MAP, "ROCE");
	for (int i = 0; i < 8; i++)
		configdb_field_copy(db, digits[i], 1, i == 3 ? "3" : "0", 1);
	configdb_entry_s(db, T_PORT_QOS_MAP, "global");
	configdb_field_s(db, "dscp_to_tc_map", "ROCE");
	configdb_entry_s(db, T_WRED_PROFILE, "ROCE_LOSSLESS");
	static const char *const wred[][2] = {
		{"ecn", "ecn_all"},
		{"green_drop_probability", "5"},   {"green_max_threshold", "1500000"},
		{"green_min_threshold", "150000"}, {"red_drop_probability", "5"},
		{"red_max_threshold", "1500000"},  {"red_min_threshold", "150000"},
		{"wred_green_enable", "true"},     {"wred_red_enable", "true"},
		{"wred_yellow_enable", "true"},    {"yellow_drop_probability", "5"},
		{"yellow_max_threshold", "1500000"}, {"yellow_min_threshold", "150000"}};
	for (size_t i = 0; i < sizeof wred / sizeof wred[0]; i++)
		configdb_field_s(db, wred[i][0], wred[i][1]);
}

/* The per-port RoCE entries: PORT_QOS_MAP, QUEUE 3 and BUFFER_PG 3. */
static void roce_port(ConfigDb *db, const char *name)
{
	char key[40];
	size_t n = strlen(name);
	configdb_entry(db, T_PORT_QOS_MAP, name, n);
	configdb_field_s(db, "dscp_to_tc_map", "ROCE");
	configdb_field_s(db, "pfc_enable", "3");
	configdb_field_s(db, "pfc_to_queue_map", "ROCE");
	configdb_field_s(db, "pfcwd_sw_enable", "3");
	configdb_field_s(db, "tc_to_pg_map", "ROCE");
	configdb_field_s(db, "tc_to_queue_map", "ROCE");
	memcpy(key, name, n);
	key[n] = '|';
	key[n + 2] = 0;
	key[n + 1] = '3';
	configdb_entry(db, T_QUEUE, key, n + 2);
	configdb_field_s(db, "wred_profile", "ROCE_LOSSLESS");
	configdb_entry(db, T_BUFFER_PG, key, n + 2);
	configdb_field_s(db, "profile", "NULL");
}

/* Whether the ports' names are letters and a number (no leading zero), the same letters in all
 * and the numbers rising ("Ethernet0", "Ethernet8" ...): then their natural order is the
 * ports' order, and so is that of "NAME" and "NAME|ADDRESS" keys (INTERFACE), as the number
 * decides between two ports and a key's end comes before more text (configdb_natcmp). */
static bool port_names_ordered(const PortText *pt, int np)
{
	size_t letters = 0;
	unsigned long long last = 0;
	for (int k = 0; k < np; k++) {
		const char *n = pt[k].name;
		size_t a = 0;
		while ((n[a] >= 'A' && n[a] <= 'Z') || (n[a] >= 'a' && n[a] <= 'z'))
			a++;
		if (a == 0 || (k && (a != letters || memcmp(n, pt[0].name, a) != 0)))
			return false;
		letters = a;
		size_t e = a;
		unsigned long long v = 0;
		while (n[e] >= '0' && n[e] <= '9' && e - a < 18)
			v = v * 10 + (unsigned)(n[e++] - '0');
		if (e == a || n[e] || (n[a] == '0' && e - a > 1) || (k && v <= last))
			return false;
		last = v;
	}
	return true;
}

/* The fixed text of each port's entries in the tables port_table writes and in frr.conf
 * (TL_*, Writer.tline), from the template's PORT fields; the JSON texts are used only when the
 * names are in order (tsorted), which vouches for them as plain JSON strings too. */
static void port_lines(Writer *w, int np)
{
	if (np > w->t->lcap) {
		w->t->lcap = np;
		w->t->line = xrealloc(w->t->line, sizeof *w->t->line * (size_t)np);
	}
	Buf *b = &w->t->lines;
	b->len = 0;
	for (int k = 0; k < np; k++) {
		const char *name = w->pt[k].name;
		size_t nn = w->pt[k].len, at[TL_COUNT];
		const size_t *tp = w->t->port[k];
		at[TL_PORT_HEAD] = b->len;
		configdb_quoted(b, name, nn);
		buf_put(b, ":{", 2);
		buf_put(b, w->t->before.s + tp[0], tp[1]);
		buf_put(b, ",\"description\":", 15);
		at[TL_PORT_TAIL] = b->len;
		buf_put(b, ",", 1);
		buf_put(b, w->t->after.s + tp[2], tp[3]);
		buf_put(b, "}", 1);
		at[TL_NEIGHBOR_HEAD] = b->len;
		configdb_quoted(b, name, nn);
		buf_put(b, ":{\"local_port\":", 15);
		configdb_quoted(b, name, nn);
		buf_put(b, ",\"name\":", 8);
		at[TL_INTERFACE_HEAD] = b->len;
		configdb_quoted(b, name, nn);
		buf_put(b, ":{},\"", 5);
		buf_put(b, name, nn);
		buf_put(b, "|", 1);
		at[TL_CABLE_HEAD] = b->len;
		configdb_quoted(b, name, nn);
		buf_put(b, ":\"", 2);
		at[TL_FRR_INTERFACE] = b->len;
		buf_put(b, "interface ", 10);
		buf_put(b, name, nn);
		buf_put(b, "\n description ", 14);
		at[TL_FRR_NEIGHBOR] = b->len;
		buf_put(b, " neighbor ", 10);
		buf_put(b, name, nn);
		buf_puts(b, " interface peer-group FABRIC\n");
		for (int i = 0; i < TL_COUNT; i++) {
			w->t->line[k][i][0] = at[i];
			w->t->line[k][i][1] = (i + 1 < TL_COUNT ? at[i + 1] : b->len) - at[i];
		}
	}
}

/* Whether template x (x->key, x->kports) is the one for key and these ports: compared field
 * by field, the speeds' bits too (the ports' names follow, TemplateKey). */
static bool template_same(const Writer *w, const Template *x, const TemplateKey *key,
			  const SwitchPort *ports)
{
	const TemplateKey *t = &x->key;
	if (t->model != key->model || t->breakout != key->breakout || t->split != key->split ||
	    t->up_breakout != key->up_breakout || t->mtu != key->mtu ||
	    t->lossless != key->lossless || t->np != key->np)
		return false;
	for (int k = 0; k < key->np; k++) {
		const TemplatePort *tp = &x->kports[k];
		double speed = w->d->links[ports[k].link].speed;
		if (tp->port != ports[k].port || memcmp(&tp->speed, &speed, sizeof speed) != 0)
			return false;
	}
	return true;
}

/* What the config_db.json of switches of one kind share (a fabric's switches of one role):
 * the tables of roce_tables and roce_port, and the fields of each PORT entry but its
 * description. They depend on the switch's model, breakout and split, the fabric's MTU and
 * whether it is lossless, and each port's number, name and speed: with all of those the same
 * as the last switch's, the text made for it serves again; the bytes are those made entry by
 * entry (docs/performance.md, "Emitter, fourth pass"). */
static void port_template(Writer *w, const SwitchInst *s, int np, const SwitchPort *ports)
{
	const SwitchPlan *sp = w->sp;
	TemplateKey key = {s->model, s->breakout, s->split, s->up_breakout, sp->mtu, sp->lossless, np};
	if (w->t && template_same(w, w->t, &key, ports)) {
		w->t->used = ++w->tclock;
		return;
	}
	Template *t = &w->tpl[0]; /* to make over: one not made yet, else the least recent */
	for (int i = 0; i < TEMPLATES; i++) {
		Template *x = &w->tpl[i];
		if (x->set && x != w->t && template_same(w, x, &key, ports)) {
			w->t = x;
			x->used = ++w->tclock;
			return;
		}
		if (t->set && (!x->set || x->used < t->used))
			t = x;
	}
	w->t = t;
	t->used = ++w->tclock;
	w->t->key = key;
	if (np > w->t->kcap) {
		w->t->kcap = np;
		w->t->kports = xrealloc(w->t->kports, sizeof *w->t->kports * (size_t)np);
	}
	for (int k = 0; k < np; k++) {
		TemplatePort *tp = &w->t->kports[k];
		tp->port = ports[k].port;
		tp->speed = w->d->links[ports[k].link].speed;
	}
	if (!w->tdb)
		w->tdb = configdb_new(table_names, T_COUNT);
	w->t->text.len = 0;
	memset(w->t->span, 0, sizeof w->t->span);
	if (sp->lossless) {
		roce_tables(w->tdb);
		for (int k = 0; k < np; k++)
			roce_port(w->tdb, w->pt[k].name);
		configdb_render_tables(w->tdb, &w->t->text, w->t->span);
	}
	if (np > w->t->pcap) {
		w->t->pcap = np;
		w->t->port = xrealloc(w->t->port, sizeof *w->t->port * (size_t)np);
	}
	w->t->before.len = w->t->after.len = 0;
	for (int k = 0; k < np; k++) {
		ConfigDbPort cp = {s, ports[k].port, sp->mtu, w->pt[k].name, "",
				   w->d->links[ports[k].link].speed};
		size_t b0 = w->t->before.len, a0 = w->t->after.len;
		Buf one_b = {0}, one_a = {0};
		configdb_port_text(&cp, &w->scratch, &one_b, &one_a);
		buf_put(&w->t->before, one_b.s, one_b.len);
		buf_put(&w->t->after, one_a.s, one_a.len);
		buf_free(&one_b);
		buf_free(&one_a);
		w->t->port[k][0] = b0;
		w->t->port[k][1] = w->t->before.len - b0;
		w->t->port[k][2] = a0;
		w->t->port[k][3] = w->t->after.len - a0;
	}
	w->t->sorted = port_names_ordered(w->pt, np);
	w->t->set = true;
	port_lines(w, np);
}

/* The cable's length in metres as a number: the stocked length, else the run. */
static double cable_metres(Writer *w, int link)
{
	int c = w->cable_of[link];
	double m = 5; /* SONiC's usual default when nothing is known */
	if (c >= 0) {
		const CableInst *ci = &w->d->cables[c];
		m = ci->length > 0 ? ci->length : ci->run;
	}
	return m;
}

/* The whole metres of m as CABLE_LENGTH writes them, without the "m", at out; returns the end. */
static char *metres_text(double m, char *out)
{
	if (!isfinite(m) || m < 1)
		m = 1;
	return buf_digits_at(out, (uint32_t)ceil(m - 1e-9));
}

/* The cable's stocked length in whole metres, as CABLE_LENGTH writes it ("5m"). */
static void cable_length(Writer *w, int link, char *out)
{
	char *p = metres_text(cable_metres(w, link), out);
	p[0] = 'm';
	p[1] = 0;
}

/* cable_length's digits (no "m"), kept by the length's bits in w->lengths; returns them,
 * their count in *n. */
static const char *cable_digits(Writer *w, int link, size_t *n)
{
	double m = cable_metres(w, link);
	uint64_t bits;
	memcpy(&bits, &m, sizeof bits);
	LengthText *t = &w->lengths[(bits ^ bits >> 29 ^ bits >> 47) % LENGTH_SLOTS];
	if (!t->set || t->bits != bits) {
		t->bits = bits;
		t->set = true;
		t->n = (unsigned char)(metres_text(m, t->text) - t->text);
	}
	*n = t->n;
	return t->text;
}

/* DEVICE_NEIGHBOR: who is at the other end of a port, named as cabling.csv names it. */
static void neighbor(Writer *w, const PortText *t)
{
	ConfigDb *db = w->db;
	configdb_entry_s(db, T_DEVICE_NEIGHBOR, t->name);
	configdb_field_s(db, "local_port", t->name);
	configdb_field(db, "name", t->dev, t->ndev);
	configdb_field(db, "port", t->port, t->nport);
}

/* DEVICE_NEIGHBOR_METADATA of a peer switch (switch j of the fabric). There are no
 * BGP_NEIGHBOR entries: the sessions are eBGP unnumbered, in frr.conf alone (docs/switch-configs.md,
 * "One BGP mode"), so this table cannot turn into numbered sessions beside them. */
/* Peer j's DEVICE_NEIGHBOR_METADATA entry, which depends on the peer alone, made once a
 * fabric (a peer is the neighbour of many switches): the whole entry, "NAME":{FIELDS}, at
 * meta_at[j][2] in meta, meta_at[j][3] bytes; its FIELDS (at[0], at[1]) inside it. */
static size_t *metadata_fields(Writer *w, int sw, int j)
{
	const SwitchInst *peer = &w->d->switches[sw];
	size_t *at = w->meta_at[j];
	if (!at[1]) {
		/* The fields as ConfigDb renders an entry's (add_field: in natural order, each
		 * "NAME":VALUE, the value by configdb_stringn), written here: through a ConfigDb of
		 * its own, an entry, its sort and rendering, 3,300 instructions a peer
		 * (docs/performance.md, "Stages before emit and switch writer, thirteenth
		 * session"). */
		char lo[20];
		put_addr(lo, switch_plan_loopback(w->sp, j), 32);
		Buf *m = &w->meta;
		at[2] = m->len;
		configdb_string(m, peer->name);
		buf_put(m, ":{", 2);
		at[0] = m->len;
		buf_puts(m, "\"hwsku\":");
		configdb_string(m, peer->model->sw.hwsku);
		buf_puts(m, ",\"lo_addr\":");
		configdb_string(m, lo);
		buf_puts(m, ",\"type\":");
		configdb_string(m, type_names[peer->tier]);
		at[1] = m->len - at[0];
		buf_put(m, "}", 1);
		at[3] = m->len - at[2];
	}
	return at;
}

static void neighbor_metadata(Writer *w, int sw, int j)
{
	configdb_entry_s(w->db, T_DEVICE_NEIGHBOR_METADATA, w->d->switches[sw].name);
	size_t *at = metadata_fields(w, sw, j);
	configdb_fields_text(w->db, w->meta.s + at[0], at[1]);
}

/* Room for n more bytes in out (and the NUL); returns where they go. */
static char *room(Buf *out, size_t n)
{
	if (out->cap - out->len <= n)
		buf_reserve(out, n);
	return out->s + out->len;
}

static char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* The INTERFACE key's address, "a.b.c.d/31", at p; returns the end. The first three octets'
 * text is kept from the port before (a switch's links are numbered from a few pools). */
static char *interface_addr(Writer *w, char *p, uint32_t a)
{
	if (!w->addr_head_len || w->addr_hi != a >> 8) {
		w->addr_hi = a >> 8;
		w->addr_head_len = (size_t)(put_addr_head(w->addr_head, a) - w->addr_head);
	}
	memcpy(p, w->addr_head, sizeof w->addr_head);
	p += w->addr_head_len;
	memcpy(p, octets[a & 255], 4);
	p += octet_len(a & 255);
	memcpy(p, "/31", 4);
	return p + 3;
}

/* A table with an entry per port and nothing else (PORT, DEVICE_NEIGHBOR, INTERFACE, and
 * CABLE_LENGTH's one entry with a field a port) into out, entry after entry in the ports'
 * order, which port_template found to be their keys' natural order: the text ConfigDb makes
 * of the same entries (configdb_render), without collecting, sorting and copying them
 * (docs/performance.md, "Emitter, seventh pass"). Each entry is the template's fixed text
 * around its varying fields (port_lines), written at a pointer after one check for room a
 * port ("Emitter, twelfth pass"). */
static void port_table(Writer *w, int t, Buf *out, int np, const SwitchPort *ports)
{
	const char *tl = w->t->lines.s;
	if (t == T_CABLE_LENGTH) {
		buf_put(out, "\"AZURE\":{", 9);
		for (int k = 0; k < np; k++) {
			const size_t *h = w->t->line[k][TL_CABLE_HEAD];
			size_t nd;
			const char *digits = cable_digits(w, ports[k].link, &nd);
			char *p = room(out, h[1] + nd + 4), *p0 = p;
			if (k)
				*p++ = ',';
			p = put(p, tl + h[0], h[1]);
			p = put(p, digits, nd);
			p[0] = 'm';
			p[1] = '"';
			p[2] = 0;
			out->len += (size_t)(p + 2 - p0);
		}
		buf_put(out, "}", 1);
		return;
	}
	for (int k = 0; k < np; k++) {
		const PortText *pt = &w->pt[k];
		size_t (*l)[2] = w->t->line[k];
		char *p, *p0;
		if (t == T_INTERFACE) { /* the port, then its address */
			const size_t *h = l[TL_INTERFACE_HEAD];
			p0 = p = room(out, h[1] + 40);
			if (k)
				*p++ = ',';
			p = put(p, tl + h[0], h[1]);
			p = interface_addr(w, p, ports[k].addr);
			memcpy(p, "\":{}", 5);
			out->len += (size_t)(p + 4 - p0);
			continue;
		}
		if (t == T_DEVICE_NEIGHBOR) {
			const size_t *h = l[TL_NEIGHBOR_HEAD];
			if (!pt->json) {
				if (k)
					buf_put(out, ",", 1);
				buf_put(out, tl + h[0], h[1]);
				configdb_stringn(out, pt->dev, pt->ndev);
				buf_put(out, ",\"port\":", 8);
				configdb_stringn(out, pt->port, pt->nport);
				buf_put(out, "}", 1);
				continue;
			}
			p0 = p = room(out, h[1] + pt->ndev + pt->nport + 16);
			if (k)
				*p++ = ',';
			p = put(p, tl + h[0], h[1]);
			*p++ = '"';
			p = put(p, pt->dev, pt->ndev);
			memcpy(p, "\",\"port\":\"", 10);
			p = put(p + 10, pt->port, pt->nport);
			memcpy(p, "\"}", 3);
			out->len += (size_t)(p + 2 - p0);
			continue;
		}
		/* PORT: the template's fields before and after the description */
		const size_t *h = l[TL_PORT_HEAD], *e = l[TL_PORT_TAIL];
		if (!pt->json) {
			if (k)
				buf_put(out, ",", 1);
			buf_put(out, tl + h[0], h[1]);
			describe_peer(w, pt);
			configdb_stringn(out, w->scratch.s, w->scratch.len);
			buf_put(out, tl + e[0], e[1]);
			continue;
		}
		/* "DEVICE PORT", nothing to escape */
		p0 = p = room(out, h[1] + e[1] + pt->ndev + pt->nport + 8);
		if (k)
			*p++ = ',';
		p = put(p, tl + h[0], h[1]);
		*p++ = '"';
		p = put(p, pt->dev, pt->ndev);
		*p++ = ' ';
		p = put(p, pt->port, pt->nport);
		*p++ = '"';
		p = put(p, tl + e[0], e[1]);
		*p = 0;
		out->len += (size_t)(p - p0);
	}
}

static void per_port(Writer *w, int np, const SwitchPort *ports, char *buf);

typedef struct Named {
	const char *name;
	int j;
} Named;

static int by_name(const void *x, const void *y)
{
	return configdb_natcmp(((const Named *)x)->name, ((const Named *)y)->name);
}

/* The fabric's switches ranked by the natural order of their names (w->rank[j]), made once a
 * fabric; false when two names are equal in that order (then ConfigDb's sort decides, as it
 * would between them). A fabric's switches are made in their names' order as a rule
 * ("compute-router-00001", "-00002" ...): checked first, n - 1 comparisons, and ranked as they
 * are when it holds; the sort, 66 M instructions for the dragonfly's 16,416 names, only when it
 * does not (docs/performance.md, "Stages before emit and switch writer, thirteenth
 * session"). */
static bool peer_ranks(Writer *w)
{
	const SwitchPlan *sp = w->sp;
	if (w->rank_state)
		return w->rank_state > 0;
	int n = sp->nswitches;
	const SwitchInst *sw = w->d->switches + sp->first;
	int k = 1;
	while (k < n && configdb_natcmp(sw[k - 1].name, sw[k].name) < 0)
		k++;
	if (k >= n) {
		for (int j = 0; j < n; j++)
			w->rank[j] = j;
		w->rank_state = 1;
		return true;
	}
	Named *v = xmalloc(sizeof *v * (size_t)(n + 1));
	for (int j = 0; j < n; j++)
		v[j] = (Named){w->d->switches[sp->first + j].name, j};
	qsort(v, (size_t)n, sizeof *v, by_name);
	w->rank_state = 1;
	for (int r = 0; r < n; r++) {
		w->rank[v[r].j] = r;
		if (r && configdb_natcmp(v[r - 1].name, v[r].name) >= 0)
			w->rank_state = -1;
	}
	free(v);
	return w->rank_state > 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts v's n words ascending: by insertion up to INSERTION_MAX (a switch's peers, a few
 * dozen and mostly in order already: the ports go up tier by tier), else qsort. Before, qsort
 * for every switch: about 20,000 instructions a switch at 100,000 GPUs, most of them calls
 * through cmp_u64 (docs/performance.md, "Emitter, eleventh pass"). */
static void sort_u64(uint64_t *v, int n)
{
	enum { INSERTION_MAX = 256 };
	if (n > INSERTION_MAX) {
		qsort(v, (size_t)n, sizeof *v, cmp_u64);
		return;
	}
	for (int i = 1; i < n; i++) {
		uint64_t x = v[i];
		int j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* DEVICE_NEIGHBOR_METADATA: an entry for each peer switch, in the natural order of their names
 * (peer_ranks), into out; the same bytes as neighbor_metadata's entries after ConfigDb's sort. */
static void metadata_table(Writer *w, Buf *out, int np)
{
	const SwitchPlan *sp = w->sp;
	if (np > w->npeers_cap) {
		w->npeers_cap = np;
		w->peers = xrealloc(w->peers, sizeof *w->peers * (size_t)np);
	}
	int n = 0;
	for (int k = 0; k < np; k++) {
		int j = w->pt[k].peer_switch;
		if (j >= 0 && !w->count[j]++)
			w->peers[n++] = (uint64_t)w->rank[j] << 32 | (uint32_t)j;
	}
	sort_u64(w->peers, n);
	for (int i = 0; i < n; i++) {
		int j = (int)(uint32_t)w->peers[i];
		size_t *at = metadata_fields(w, sp->first + j, j);
		if (i)
			buf_put(out, ",", 1);
		buf_put(out, w->meta.s + at[2], at[3]);
	}
}

/* Whether the tables' enum order is their names' natural order, the order config_db.json
 * has them in (checked once: it is, and the direct rendering below relies on it). */
static bool tables_ordered(void)
{
	/* CLUSTERC_CONFIGDB_ENTRIES=1 takes the entry-by-entry path for every switch:
	 * tests/switch_configs.sh requires the same bytes from both. */
	const char *entries = getenv("CLUSTERC_CONFIGDB_ENTRIES");
	if (entries && *entries && strcmp(entries, "0") != 0)
		return false;
	for (int t = 1; t < T_COUNT; t++)
		if (configdb_natcmp(table_names[t - 1], table_names[t]) >= 0)
			return false;
	return true;
}

/* config_db.json written table after table into w->text, for switches whose port names
 * port_template vouched for and whose peers peer_ranks could order: the tables of one entry
 * or two (DEVICE_METADATA, LOOPBACK_INTERFACE) from small_tables, the RoCE tables from
 * the template, the rest by port_table and metadata_table. The bytes of configdb_render of
 * the same entries. */
static void config_db_direct(Writer *w, int np, const SwitchPort *ports)
{
	const SwitchPlan *sp = w->sp;
	Buf *out = &w->text;
	out->len = 0;
	buf_reserve(out, w->last); /* the text before went to the writer (write_file) */
	buf_put(out, "{", 1);
	bool any = false;
	for (int t = 0; t < T_COUNT; t++) {
		size_t before = out->len;
		if (any)
			buf_put(out, ",", 1);
		configdb_quoted(out, table_names[t], w->tname_len[t]); /* plain: ours */
		buf_put(out, ":{", 2);
		size_t body = out->len;
		switch (t) {
		case T_CABLE_LENGTH:
			if (sp->lossless)
				port_table(w, t, out, np, ports);
			break;
		case T_DEVICE_NEIGHBOR:
		case T_INTERFACE:
		case T_PORT:
			port_table(w, t, out, np, ports);
			break;
		case T_DEVICE_NEIGHBOR_METADATA:
			metadata_table(w, out, np);
			break;
		default:
			if (w->dspan[t][1])
				buf_put(out, w->small.s + w->dspan[t][0], w->dspan[t][1]);
			else if (sp->lossless && w->t->span[t][1])
				buf_put(out, w->t->text.s + w->t->span[t][0], w->t->span[t][1]);
		}
		if (out->len == body) { /* no entries: no table */
			out->len = before;
			out->s[before] = 0;
			continue;
		}
		buf_put(out, "}", 1);
		any = true;
	}
	buf_put(out, "}\n", 2);
}

/* LOOPBACK_INTERFACE's address key, "Loopback0|10.0.0.1/32", at buf (room for 29 bytes: a
 * dotted quad is at most 15);
 * returns its length. */
static size_t loopback_key(const Writer *w, char *buf)
{
	memcpy(buf, "Loopback0|", 10);
	memcpy(buf + 10, w->lo, w->lo_len);
	memcpy(buf + 10 + w->lo_len, "/32", 4);
	return 13 + w->lo_len;
}

/* DEVICE_METADATA's and LOOPBACK_INTERFACE's entries for config_db_direct into w->small,
 * w->dspan[t] their places: the bytes configdb_render_tables makes of the entries config_db
 * adds otherwise (fields in natural order, "Loopback0" before "Loopback0|ADDRESS"), without
 * collecting and sorting them (docs/performance.md, "Emitter, twelfth pass"). */
static void small_tables(Writer *w, int i, const SwitchInst *s)
{
	const SwitchPlan *sp = w->sp;
	Buf *b = &w->small;
	char buf[64];
	b->len = 0;
	memset(w->dspan, 0, sizeof w->dspan);
	buf_puts(b, "\"localhost\":{\"bgp_asn\":");
	buf_digits_at(buf, switch_plan_asn(sp, i))[0] = 0;
	configdb_string(b, buf);
	if (sp->lossless)
		buf_puts(b, ",\"buffer_model\":\"dynamic\"");
	buf_puts(b, ",\"docker_routing_config_mode\":\"split-unified\",\"hostname\":");
	configdb_string(b, s->name);
	buf_puts(b, ",\"hwsku\":");
	configdb_string(b, s->model->sw.hwsku);
	buf_puts(b, ",\"type\":");
	configdb_string(b, type_names[s->tier]);
	buf_put(b, "}", 1);
	w->dspan[T_DEVICE_METADATA][1] = b->len;
	w->dspan[T_LOOPBACK_INTERFACE][0] = b->len;
	buf_puts(b, "\"Loopback0\":{},");
	configdb_quoted(b, buf, loopback_key(w, buf));
	buf_put(b, ":{}", 3);
	w->dspan[T_LOOPBACK_INTERFACE][1] = b->len - w->dspan[T_LOOPBACK_INTERFACE][0];
}

/* config_db.json entry by entry, rendered by ConfigDb (the switches config_db_direct cannot
 * write). */
static void config_db_entries(Writer *w, int i, const SwitchInst *s, int np,
			      const SwitchPort *ports)
{
	const SwitchPlan *sp = w->sp;
	ConfigDb *db = w->db;
	char buf[64];
	configdb_entry_s(db, T_DEVICE_METADATA, "localhost");
	buf_digits_at(buf, switch_plan_asn(sp, i))[0] = 0;
	configdb_field_s(db, "bgp_asn", buf);
	if (sp->lossless)
		configdb_field_s(db, "buffer_model", "dynamic");
	configdb_field_s(db, "docker_routing_config_mode", "split-unified");
	configdb_field_s(db, "hostname", s->name);
	configdb_field_s(db, "hwsku", s->model->sw.hwsku);
	configdb_field_s(db, "type", type_names[s->tier]);

	configdb_entry_s(db, T_LOOPBACK_INTERFACE, "Loopback0");
	configdb_entry(db, T_LOOPBACK_INTERFACE, buf, loopback_key(w, buf));

	per_port(w, np, ports, buf);
	w->text.len = 0;
	buf_reserve(&w->text, w->last); /* the text before went to the writer */
	configdb_render(db, &w->text);
}

static void config_db(Writer *w, int i, const SwitchInst *s, int np, const SwitchPort *ports)
{
	port_template(w, s, np, ports);
	if (w->t->sorted && np > 0 && w->tables_ordered && peer_ranks(w)) {
		small_tables(w, i, s);
		config_db_direct(w, np, ports);
	} else {
		config_db_entries(w, i, s, np, ports);
	}
	for (int k = 0; k < np; k++)
		if (w->pt[k].peer_switch >= 0)
			w->count[w->pt[k].peer_switch] = 0;
}

/* The entries of every port, one by one, for ConfigDb to sort (port names port_template could
 * not vouch for the order of). */
static void per_port(Writer *w, int np, const SwitchPort *ports, char *buf)
{
	const SwitchPlan *sp = w->sp;
	ConfigDb *db = w->db;
	if (sp->lossless) {
		for (int t = 0; t < T_COUNT; t++)
			if (w->t->span[t][1])
				configdb_table_text(db, t, w->t->text.s + w->t->span[t][0], w->t->span[t][1]);
		configdb_entry_s(db, T_CABLE_LENGTH, "AZURE");
		for (int k = 0; k < np; k++) {
			cable_length(w, ports[k].link, buf);
			const char *port = w->pt[k].name;
			configdb_field_copy(db, port, strlen(port), buf, strlen(buf));
		}
	}

	for (int k = 0; k < np; k++) {
		const SwitchPort *p = &ports[k];
		const PortText *t = &w->pt[k];
		size_t nn = strlen(t->name);
		describe_peer(w, t);
		const size_t *tp = w->t->port[k];
		configdb_port_entry(db, T_PORT, t->name, w->t->before.s + tp[0], tp[1], w->scratch.s,
				    w->scratch.len, w->t->after.s + tp[2], tp[3]);
		neighbor(w, t);

		configdb_entry(db, T_INTERFACE, t->name, nn);
		memcpy(buf, t->name, nn);
		buf[nn] = '|';
		char *e = put_addr(buf + nn + 1, p->addr, 31);
		configdb_entry(db, T_INTERFACE, buf, (size_t)(e - buf));

		if (t->peer_switch >= 0 && !w->count[t->peer_switch]++)
			neighbor_metadata(w, sp->first + t->peer_switch, t->peer_switch);
	}
}

/* ECMP width: the links up to higher tiers (all switch links of a dragonfly router); at the
 * top of a tree, the most parallel links to one switch below. At most 64. */
static int max_paths(Writer *w, const SwitchInst *s, int np)
{
	const SwitchPlan *sp = w->sp;
	int up = 0, most = 0;
	for (int k = 0; k < np; k++) {
		int j = w->pt[k].peer_switch;
		if (j < 0)
			continue;
		const SwitchInst *peer = &w->d->switches[sp->first + j];
		if (s->tier == ST_ROUTER || tier_rank[peer->tier] > tier_rank[s->tier])
			up++;
		else if (++w->count[j] > most)
			most = w->count[j];
	}
	for (int k = 0; k < np; k++)
		if (w->pt[k].peer_switch >= 0)
			w->count[w->pt[k].peer_switch] = 0;
	int paths = up ? up : most;
	return paths < 1 ? 1 : paths > 64 ? 64 : paths;
}

/* ---- frr.conf ------------------------------------------------------------------------------ */

/* The length of the longest prefix that holds both a and b. */
static int common_prefix(uint32_t a, uint32_t b)
{
	int len = 0;
	while (len < 32 && ((a ^ b) >> (31 - len) & 1) == 0)
		len++;
	return len;
}

/* Sorts v's n words ascending: an LSD radix sort, 11 bits a pass, a pass skipped when all its
 * digits are equal (the fabric's host /31s, some hundred thousand at 100,000 GPUs: qsort
 * through a comparison function cost about 140 instructions a word, docs/performance.md,
 * "Emitter, twelfth pass"). */
static void sort_u32(uint32_t *v, int n)
{
	enum { BITS = 11, DIGITS = 1 << BITS };
	if (n < 2)
		return;
	uint32_t *tmp = xmalloc(sizeof *tmp * (size_t)n), *from = v, *to = tmp;
	size_t *count = xmalloc(sizeof *count * (DIGITS + 1));
	for (int shift = 0; shift < 32; shift += BITS) {
		memset(count, 0, sizeof *count * (DIGITS + 1));
		for (int i = 0; i < n; i++)
			count[(from[i] >> shift & (DIGITS - 1)) + 1]++;
		if (count[(from[0] >> shift & (DIGITS - 1)) + 1] == (size_t)n)
			continue; /* one digit: the order stays */
		for (int d = 0; d < DIGITS; d++)
			count[d + 1] += count[d];
		for (int i = 0; i < n; i++)
			to[count[from[i] >> shift & (DIGITS - 1)]++] = from[i];
		uint32_t *t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, sizeof *v * (size_t)n);
	free(count);
	free(tmp);
}

/* One prefix-list line per aligned block of the run of /31s [first, end) (numbered addr / 2),
 * from the left, each the largest aligned block that fits: a run of n /31s takes at most
 * 2 log2 n lines. A block of one /31 is that /31; a larger one matches its /31s only (ge 31
 * le 31), never itself. */
static void host_blocks(Buf *b, uint64_t first, uint64_t end, int *seq)
{
	while (first < end) {
		uint64_t size = 1;
		int len = 31;
		while (len > 0 && first % (size * 2) == 0 && first + size * 2 <= end) {
			size *= 2;
			len--;
		}
		char a[20];
		put_addr(a, (uint32_t)(first * 2), len);
		*seq += 10;
		buf_printf(b, "ip prefix-list HOSTS seq %d permit %s%s\n", *seq, a,
			   len < 31 ? " ge 31 le 31" : "");
		first += size;
	}
}

/* What the fabric announces, the same lines in each of its switches' frr.conf: the prefix list
 * LOOPBACKS (the shortest prefix of the loopback pool that holds every switch's loopback, its
 * /32s only), HOSTS (exactly the /31s of the links to hosts: the blocks of the sorted set, which
 * at the pools' layout, host links numbered first, are a few lines), and the route-map
 * ANNOUNCE that lets those through and nothing else. A link between two switches matches
 * neither: its /31 is never announced (RFC 7938 §5.2.3), though the pools may overlap. */
static void fabric_policy(Writer *w)
{
	const SwitchPlan *sp = w->sp;
	Buf *b = &w->policy;
	b->len = 0;
	uint32_t lo_min = UINT32_MAX, lo_max = 0;
	for (int i = 0; i < sp->nswitches; i++) {
		uint32_t a = switch_plan_loopback(sp, i);
		lo_min = a < lo_min ? a : lo_min;
		lo_max = a > lo_max ? a : lo_max;
	}
	int len = common_prefix(lo_min, lo_max);
	char a[20];
	put_addr(a, len ? lo_min & UINT32_MAX << (32 - len) : 0, len);
	buf_printf(b,
		   "! Announced: the loopbacks and the hosts' subnets, never a fabric link "
		   "(docs/switch-configs.md)\n"
		   "ip prefix-list LOOPBACKS seq 10 permit %s%s\n",
		   a, len < 32 ? " ge 32" : "");

	int nports = sp->port_start[sp->nswitches], n = 0;
	uint32_t *hosts = xmalloc(sizeof(uint32_t) * (size_t)(nports + 1));
	for (int k = 0; k < nports; k++)
		if (sp->ports[k].peer.kind != END_SWITCH)
			hosts[n++] = sp->ports[k].addr >> 1;
	sort_u32(hosts, n);
	int seq = 0;
	for (int k = 0; k < n;) {
		int j = k + 1;
		while (j < n && hosts[j] <= hosts[j - 1] + 1)
			j++;
		host_blocks(b, hosts[k], (uint64_t)hosts[j - 1] + 1, &seq);
		k = j;
	}
	free(hosts);
	buf_puts(b, "!\n"
		    "route-map ANNOUNCE permit 10\n"
		    " match ip address prefix-list LOOPBACKS\n"
		    "exit\n"
		    "!\n");
	if (seq)
		buf_puts(b, "route-map ANNOUNCE permit 20\n"
			    " match ip address prefix-list HOSTS\n"
			    "exit\n"
			    "!\n");
	buf_puts(b, "route-map ANNOUNCE deny 30\n"
		    "exit\n"
		    "!\n");
}

/* frr.conf: eBGP unnumbered (RFC 7938 §5.2; FRR "neighbor PEER interface") in one peer group,
 * hosts not peered; the loopback and the connected host subnets announced through ANNOUNCE,
 * which every session's announcements pass too (fabric_policy). */
static void frr_conf(Writer *w, int i, const SwitchInst *s, int np)
{
	const SwitchPlan *sp = w->sp;
	Buf *b = &w->text;
	const char *lo = w->lo;
	int peers = 0;
	for (int k = 0; k < np; k++)
		peers += w->pt[k].peer_switch >= 0;
	b->len = 0;
	buf_reserve(b, w->last_frr);
	/* The fixed lines by buf_puts and the numbers by buf_put_uint, not buf_printf: three calls
	 * through vsnprintf a switch were 110 M instructions of the dragonfly's 1.6 G
	 * (docs/performance.md, "Stages before emit and switch writer, thirteenth session"). */
	size_t nname = strlen(s->name);
	buf_puts(b, "! ");
	buf_put(b, s->name, nname);
	buf_puts(b, ": FRR configuration written by clusterc (docs/switch-configs.md)\n"
		    "! eBGP unnumbered per RFC 7938 section 5.2: ");
	buf_put_uint(b, (uint32_t)peers);
	buf_puts(b, " fabric sessions, ");
	buf_put_uint(b, (uint32_t)(np - peers));
	buf_puts(b, " host ports (not peered)\n"
		    "frr defaults datacenter\n"
		    "hostname ");
	buf_put(b, s->name, nname);
	buf_puts(b, "\nlog syslog informational\n"
		    "!\n");
	/* Unnumbered sessions find the peer's IPv6 link-local address through its router
	 * advertisements: bgpd turns them on for interface peers, the stanza says so. */
	const char *tl = w->t->lines.s;
	for (int k = 0; k < np; k++) { /* "interface NAME", "description DEVICE PORT" ... */
		const PortText *pt = &w->pt[k];
		if (pt->peer_switch < 0)
			continue;
		const size_t *h = w->t->line[k][TL_FRR_INTERFACE];
		char *p = room(b, h[1] + pt->ndev + pt->nport + sizeof frr_interface_tail), *p0 = p;
		p = put(p, tl + h[0], h[1]);
		p = put(p, pt->dev, pt->ndev);
		*p++ = ' ';
		p = put(p, pt->port, pt->nport);
		memcpy(p, frr_interface_tail, sizeof frr_interface_tail);
		b->len += (size_t)(p - p0) + sizeof frr_interface_tail - 1;
	}
	buf_put(b, w->policy.s, w->policy.len);
	buf_puts(b, "router bgp ");
	buf_put_uint(b, switch_plan_asn(sp, i));
	buf_puts(b, "\n bgp router-id ");
	buf_put(b, lo, w->lo_len);
	buf_puts(b, "\n bgp bestpath as-path multipath-relax\n"
		    " no bgp ebgp-requires-policy\n"
		    " neighbor FABRIC peer-group\n"
		    " neighbor FABRIC remote-as external\n");
	for (int k = 0; k < np; k++)
		if (w->pt[k].peer_switch >= 0) {
			const size_t *h = w->t->line[k][TL_FRR_NEIGHBOR];
			buf_put(b, tl + h[0], h[1]);
		}
	buf_puts(b, " !\n"
		    " address-family ipv4 unicast\n"
		    "  network ");
	buf_put(b, lo, w->lo_len);
	buf_puts(b, "/32\n"
		    "  redistribute connected route-map ANNOUNCE\n"
		    "  neighbor FABRIC route-map ANNOUNCE out\n"
		    "  maximum-paths ");
	buf_put_uint(b, (uint32_t)max_paths(w, s, np));
	buf_puts(b, "\n exit-address-family\n"
		    "exit\n"
		    "!\n"
		    "end\n");
}

static int write_file(Writer *w, const char *name, const char *file)
{
	w->scratch.len = 0;
	buf_puts(&w->scratch, "switches/");
	buf_puts(&w->scratch, name);
	buf_putc(&w->scratch, '/');
	buf_puts(&w->scratch, file);
	return output_write_buf(w->o, w->scratch.s, &w->text);
}

static int write_switch(Writer *w, int i)
{
	const SwitchPlan *sp = w->sp;
	const SwitchInst *s = &w->d->switches[sp->first + i];
	int np = sp->port_start[i + 1] - sp->port_start[i];
	const SwitchPort *ports = sp->ports + sp->port_start[i];
	if (np > w->cap) {
		w->cap = np;
		w->pt = xrealloc(w->pt, sizeof *w->pt * (size_t)np);
	}
	w->lo_len = (size_t)(put_addr(w->lo, switch_plan_loopback(sp, i), -1) - w->lo);
	PortTextKind *kind = port_text_kind(&w->names, s);
	for (int k = 0; k < np; k++) {
		PortText *t = &w->pt[k];
		size_t n;
		unsigned plain;
		const char *name = port_text_of(&w->names, kind, s, ports[k].port, &n, &plain);
		n = n < sizeof t->name - 1 ? n : sizeof t->name - 1;
		memcpy(t->name, name, n);
		t->name[n] = 0;
		t->len = n;
		bool to_switch = ports[k].peer.kind == END_SWITCH;
		t->peer_switch = to_switch ? ports[k].peer.dev - sp->first : -1;
	}
	w->peer.len = 0;
	for (int k = 0; k < np; k++)
		peer_fill(w, &ports[k], &w->pt[k]);
	for (int k = 0; k < np; k++)
		if (!w->pt[k].port)
			w->pt[k].port = w->peer.s + w->pt[k].port_at;
	config_db(w, i, s, np, ports);
	w->last = w->text.len;
	int errors = write_file(w, s->name, "config_db.json");
	frr_conf(w, i, s, np);
	w->last_frr = w->text.len;
	return errors + write_file(w, s->name, "frr.conf");
}

/* On demand beyond SWITCH_FILES_DEFAULT_MAX switches: there the two files per switch are
 * nearly all of a build's bytes and time (a 100,000-GPU fabric of 4,000 switches: 570 of 800 MB;
 * a 262,656-GPU dragonfly: 1.7 GB in 32,832 files), and a build for the plan, the report or the
 * bill of materials need not wait for them (docs/performance.md, "Emitter"). */
int switch_configs_deferred(const Design *d)
{
	int n = 0;
	for (int fi = 0; d->switch_plans && fi < d->nfabrics; fi++)
		if (d->switch_plans[fi].f)
			n += d->switch_plans[fi].nswitches;
	return n > SWITCH_FILES_DEFAULT_MAX ? n : 0;
}

int switch_configs_on_demand(const Output *o, const Design *d)
{
	return output_named(o) ? 0 : switch_configs_deferred(d);
}

int switch_configs_write(Output *o, const Design *d)
{
	return switch_configs_write_share(o, d, 0, 1);
}

int switch_configs_write_share(Output *o, const Design *d, int share, int nshares)
{
	int errors = 0;
	bool any = false;
	if (switch_configs_on_demand(o, d))
		return 0;
	long total = 0; /* the switches of every fabric, numbered in writing order */
	for (int fi = 0; d->switch_plans && fi < d->nfabrics; fi++)
		if (d->switch_plans[fi].f)
			total += d->switch_plans[fi].nswitches;
	long lo = total * share / nshares, hi = total * (share + 1) / nshares, first = 0;
	any = hi > lo;
	Writer w = {.o = o, .d = d, .db = configdb_new(table_names, T_COUNT),
		    .tables_ordered = tables_ordered(), .names = {.make = ir_switch_port_name},
		    .peer_names = {.make = ir_switch_port_name}};
	for (int t = 0; t < T_COUNT; t++)
		w.tname_len[t] = strlen(table_names[t]);
	const EndTable *ends = output_ends(o);
	w.ends = ends && ends->d == d ? ends : NULL;
	if (any) {
		w.cable_of = xmalloc(sizeof(int) * (size_t)(d->nlinks + 1));
		for (int i = 0; i < d->nlinks; i++)
			w.cable_of[i] = -1;
		for (int i = 0; i < d->ncables; i++)
			if (d->cables[i].link >= 0 && d->cables[i].link < d->nlinks)
				w.cable_of[d->cables[i].link] = i;
	}
	for (int fi = 0; any && fi < d->nfabrics && !errors; fi++) {
		const SwitchPlan *sp = &d->switch_plans[fi];
		if (!sp->f)
			continue;
		/* this fabric's switches [first, first + nswitches) of the share's [lo, hi) */
		int from = (int)(lo > first ? lo - first : 0);
		int to = (int)(hi - first < sp->nswitches ? hi - first : sp->nswitches);
		first += sp->nswitches;
		if (from >= to)
			continue;
		w.sp = sp;
		w.count = xmalloc(sizeof(int) * (size_t)(sp->nswitches + 1));
		memset(w.count, 0, sizeof(int) * (size_t)(sp->nswitches + 1));
		w.meta_at = xmalloc(sizeof *w.meta_at * (size_t)(sp->nswitches + 1));
		memset(w.meta_at, 0, sizeof *w.meta_at * (size_t)(sp->nswitches + 1));
		w.peer_name = xmalloc(sizeof *w.peer_name * (size_t)(sp->nswitches + 1));
		memset(w.peer_name, 0, sizeof *w.peer_name * (size_t)(sp->nswitches + 1));
		w.meta.len = 0;
		w.rank = xmalloc(sizeof *w.rank * (size_t)(sp->nswitches + 1));
		w.rank_state = 0;
		fabric_policy(&w);
		for (int i = from; i < to && !errors; i++)
			errors += write_switch(&w, i);
		free(w.count);
		free(w.meta_at);
		free(w.peer_name);
		free(w.rank);
	}
	configdb_free(w.db);
	configdb_free(w.tdb);
	for (int i = 0; i < TEMPLATES; i++) {
		Template *t = &w.tpl[i];
		free(t->kports);
		buf_free(&t->text);
		buf_free(&t->before);
		buf_free(&t->after);
		free(t->port);
		buf_free(&t->lines);
		free(t->line);
	}
	port_text_free(&w.names);
	port_text_free(&w.peer_names);
	buf_free(&w.text);
	buf_free(&w.scratch);
	buf_free(&w.peer);

	buf_free(&w.small);
	free(w.peers);
	buf_free(&w.meta);
	buf_free(&w.policy);
	free(w.pt);
	free(w.cable_of);
	return errors;
}
