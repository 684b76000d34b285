/*
 * discovered.c — the topology found on a running fabric, from the tools that find it:
 *
 *  - ibnetdiscover(8) (infiniband-diags): node records "Switch 64 "S-GUID" # "DESC" ...",
 *    "Ca 1 "H-GUID" # "DESC"" (and "Rt" routers), each followed by its linked ports,
 *    "[P](PORTGUID) "PEER-ID"[PP](PEERPORTGUID) # ..." (the GUIDs in parentheses optional,
 *    "[P][ext N]" allowed), "KEY=VALUE" lines (vendid, devid, sysimgguid, switchguid, caguid)
 *    and comments. A node is known by its NodeDescription (the DESC in quotes after '#', as
 *    rdma-ndd or the switch sets it, or the name a --node-name-map gave it), else its ID; a
 *    peer by its record's. Every link is printed from both ends; both are kept.
 *  - LLDP neighbour tables as lldpd's `lldpctl -f json` prints them ({"lldp": {"interface":
 *    {IFNAME: {"chassis": {SYSNAME: {...}}, "port": {"id": {"value": PORT}, "descr": ...}}}}},
 *    "interface" an array of such objects when there are several), or `-f json0` (every value
 *    an array, names in "name" members). lldpctl does not say which device it ran on: the
 *    file is one device's, named after the file (leaf01.json), or an object of them by name
 *    ({"leaf01": {"lldp": ...}, ...}).
 *
 *  - SONiC's LLDP table, `show lldp table` (a header "LocalPort RemoteDevice RemotePortID
 *    Capability RemotePortDescr", rows aligned to it, dashed rules, "Total entries"), one
 *    switch's, named after the file as above.
 *
 * Which it is is the content's: a file whose first character that is not a space is '{' is
 * lldpctl's JSON, one with a line starting "LocalPort ... RemoteDevice" SONiC's table. A line the format does not allow is an error at its line and column.
 */
#include "daytwo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void add_link(Ctx *c, Discovered *out, DiscEnd a, DiscEnd z, Loc loc)
{
	if (out->nlinks == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 256;
		DiscLink *v = arena_alloc(c->arena, sizeof *v * (size_t)out->cap);
		if (out->nlinks)
			memcpy(v, out->links, sizeof *v * (size_t)out->nlinks);
		out->links = v;
	}
	out->links[out->nlinks++] = (DiscLink){a, z, loc};
}

/* ---- ibnetdiscover ---------------------------------------------------------------------- */

typedef struct IbNode {
	const char *id, *desc; /* interned */
} IbNode;

/* A pending port line: resolved once every record has been read. */
typedef struct IbPort {
	const char *node_id, *peer_id; /* interned */
	int port, peer_port;
	Loc loc, peer_loc;
} IbPort;

typedef struct Scan {
	const Source *s;
	uint32_t p, end; /* the line [p, end) */
} Scan;

static void skip_space(Scan *sc)
{
	while (sc->p < sc->end && (sc->s->text[sc->p] == ' ' || sc->s->text[sc->p] == '\t'))
		sc->p++;
}

static bool accept(Scan *sc, char ch)
{
	if (sc->p < sc->end && sc->s->text[sc->p] == ch) {
		sc->p++;
		return true;
	}
	return false;
}

/* A decimal number, or -1. */
static long number(Scan *sc)
{
	long v = 0;
	uint32_t start = sc->p;
	while (sc->p < sc->end && isdigit((unsigned char)sc->s->text[sc->p]) && v < 1000000)
		v = v * 10 + (sc->s->text[sc->p++] - '0');
	return sc->p > start ? v : -1;
}

/* A string in double quotes (interned, without them), or NULL. */
static const char *quoted(Ctx *c, Scan *sc)
{
	if (!accept(sc, '"'))
		return NULL;
	uint32_t start = sc->p;
	while (sc->p < sc->end && sc->s->text[sc->p] != '"')
		sc->p++;
	if (sc->p >= sc->end)
		return NULL;
	return intern(c, sc->s->text + start, sc->p++ - start);
}

/* "(HEX)", skipped when there. */
static bool skip_guid(Scan *sc)
{
	if (!accept(sc, '('))
		return true;
	while (sc->p < sc->end && isxdigit((unsigned char)sc->s->text[sc->p]))
		sc->p++;
	return accept(sc, ')');
}

static Loc here(const Scan *sc, uint32_t from)
{
	return (Loc){sc->s, from, sc->p > from ? sc->p : from + 1};
}

static int ib_error(Ctx *c, const Scan *sc, const char *what)
{
	Diag *d = diag_error(c, (Loc){sc->s, sc->p, sc->p + 1}, "%s", what);
	diag_set_code(d, "ibnetdiscover-syntax");
	return 1;
}

/* "[P]" or "[P][ext N]": the port number, or -1. */
static long port_number(Scan *sc)
{
	if (!accept(sc, '['))
		return -1;
	long p = number(sc);
	if (p < 0 || !accept(sc, ']'))
		return -1;
	if (sc->p + 4 < sc->end && strncmp(sc->s->text + sc->p, "[ext", 4) == 0) {
		while (sc->p < sc->end && sc->s->text[sc->p] != ']')
			sc->p++;
		if (!accept(sc, ']'))
			return -1;
	}
	return p;
}

static int read_ibnetdiscover(Ctx *c, const Source *s, Discovered *out)
{
	NameTable nodes = {0};
	IbPort *ports = NULL;
	int nports = 0, cap = 0, errors = 0;
	const char *current = NULL;
	for (uint32_t p = 0; p < s->len && !diag_limit_reached(c);) {
		uint32_t end = p;
		while (end < s->len && s->text[end] != '\n')
			end++;
		Scan sc = {s, p, end > p && s->text[end - 1] == '\r' ? end - 1 : end};
		p = end + 1;
		skip_space(&sc);
		if (sc.p >= sc.end || s->text[sc.p] == '#')
			continue;
		const char *t = s->text + sc.p;
		uint32_t start = sc.p;
		if (s->text[sc.p] == '[') {
			if (!current) {
				errors += ib_error(c, &sc, "a port line before any node record "
							   "(Switch, Ca or Rt)");
				continue;
			}
			long port = port_number(&sc);
			if (port < 1 || port > 255 || !skip_guid(&sc)) {
				sc.p = start;
				errors += ib_error(c, &sc, "expected a port line: [PORT](GUID) \"PEER\"[PORT]");
				continue;
			}
			skip_space(&sc);
			uint32_t peer_at = sc.p;
			const char *peer = quoted(c, &sc);
			long peer_port = peer ? port_number(&sc) : -1;
			if (!peer || peer_port < 1 || peer_port > 255) {
				errors += ib_error(c, &sc, "expected the peer: \"ID\"[PORT]");
				continue;
			}
			if (nports == cap) {
				cap = cap ? 2 * cap : 256;
				ports = xrealloc(ports, sizeof *ports * (size_t)cap);
			}
			ports[nports++] = (IbPort){current, peer, (int)port, (int)peer_port,
						   (Loc){s, start, sc.end}, here(&sc, peer_at)};
			continue;
		}
		size_t kw = 0;
		while (sc.p + kw < sc.end && (isalnum((unsigned char)t[kw]) || t[kw] == '_'))
			kw++;
		if (kw && sc.p + kw < sc.end && t[kw] == '=')
			continue; /* vendid=, devid=, sysimgguid=, switchguid=, caguid= ... */
		bool record = (kw == 6 && strncmp(t, "Switch", 6) == 0) || (kw == 2 && strncmp(t, "Ca", 2) == 0) ||
			      (kw == 2 && strncmp(t, "Rt", 2) == 0);
		if (!record) {
			errors += ib_error(c, &sc, "expected a node record (Switch, Ca or Rt), a port "
						   "line ([PORT] ...) or KEY=VALUE");
			current = NULL;
			continue;
		}
		sc.p += (uint32_t)kw;
		skip_space(&sc);
		const char *id = number(&sc) >= 0 ? (skip_space(&sc), quoted(c, &sc)) : NULL;
		if (!id) {
			errors += ib_error(c, &sc, "expected the record's port count and \"ID\"");
			current = NULL;
			continue;
		}
		skip_space(&sc);
		const char *desc = NULL;
		if (accept(&sc, '#')) {
			skip_space(&sc);
			desc = quoted(c, &sc);
		}
		if (table_get(&nodes, id)) {
			sc.p = start;
			errors += ib_error(c, &sc, arena_printf(c->arena, "node %s is described twice", id));
			current = NULL;
			continue;
		}
		IbNode *n = arena_alloc(c->arena, sizeof *n);
		*n = (IbNode){id, desc ? desc : id};
		table_put(c, &nodes, id, n);
		current = id;
		out->nodes++;
	}
	for (int i = 0; i < nports && !errors; i++) {
		const IbNode *a = table_get(&nodes, ports[i].node_id), *z = table_get(&nodes, ports[i].peer_id);
		if (!z) {
			Diag *d = diag_error(c, ports[i].peer_loc, "no record describes node %s",
					     ports[i].peer_id);
			diag_set_code(d, "ibnetdiscover-syntax");
			errors++;
			continue;
		}
		add_link(c, out, (DiscEnd){a->desc, NULL, NULL, ports[i].port},
			 (DiscEnd){z->desc, NULL, NULL, ports[i].peer_port}, ports[i].loc);
	}
	free(ports);
	return errors;
}

/* ---- LLDP (lldpctl -f json, json0) ---------------------------------------------------------- */

/* The place of the first occurrence of "key" in the file at or after *from (jansson keeps no
 * places): where a diagnostic about that member points. */
static Loc key_loc(const Source *s, const char *key, uint32_t *from)
{
	size_t n = strlen(key);
	for (uint32_t p = *from; p + n + 2 <= s->len; p++) {
		if (s->text[p] == '"' && strncmp(s->text + p + 1, key, n) == 0 && s->text[p + 1 + n] == '"') {
			*from = p;
			return (Loc){s, p, p + (uint32_t)n + 2};
		}
	}
	return (Loc){s, *from, *from + 1};
}

/* json0 wraps every value in an array of one: the first element. */
static const Json *unwrap(const Json *v)
{
	return jw_is_array(v) ? jw_at(v, 0) : v;
}

/* A name: a string, or {"value": string}, through json0's arrays. */
static const char *text_of(const Json *v)
{
	v = unwrap(v);
	const char *s = jw_string(v);
	return s ? s : jw_string(unwrap(jw_get(v, "value")));
}

/* A neighbour's system name: json's {"SYSNAME": {"id": ...}}, json0's {"name": [...]}, else its
 * chassis id. */
static const char *chassis_name(const Json *chassis)
{
	chassis = unwrap(chassis);
	const char *name = text_of(jw_get(chassis, "name"));
	if (name)
		return name;
	Json *inner;
	const char *key = jw_object_key(chassis, 0, &inner);
	if (key && jw_object_size(chassis) == 1 && jw_is_object(inner) && strcmp(key, "id") != 0)
		return key;
	return text_of(jw_get(chassis, "id"));
}

static int lldp_error(Ctx *c, Loc loc, const char *msg)
{
	Diag *d = diag_error(c, loc, "%s", msg);
	diag_set_code(d, "lldp-format");
	return 1;
}

/* One neighbour seen on local port ifname of device. */
static int lldp_neighbour(Ctx *c, const Source *s, const char *device, const char *ifname,
			  const Json *nb, uint32_t *at, Discovered *out)
{
	Loc loc = key_loc(s, ifname, at);
	const char *sys = chassis_name(jw_get(nb, "chassis"));
	const Json *port = unwrap(jw_get(nb, "port"));
	const char *pid = text_of(jw_get(port, "id"));
	const char *pdescr = text_of(jw_get(port, "descr"));
	if (!sys || !pid)
		return lldp_error(c, loc, arena_printf(c->arena, "the neighbour on %s has no %s", ifname,
						       sys ? "port id" : "chassis"));
	add_link(c, out, (DiscEnd){intern_cstr(c, device), intern_cstr(c, ifname), NULL, 0},
		 (DiscEnd){intern_cstr(c, sys), intern_cstr(c, pid),
			   pdescr ? intern_cstr(c, pdescr) : NULL, 0},
		 loc);
	return 0;
}

/* One device's lldpctl document ({"lldp": ...}). */
static int lldp_device(Ctx *c, const Source *s, const char *device, const Json *doc, uint32_t *at,
		       Discovered *out)
{
	const Json *lldp = unwrap(jw_get(doc, "lldp"));
	if (!lldp)
		return lldp_error(c, key_loc(s, device, at),
				  arena_printf(c->arena, "%s: expected lldpctl's {\"lldp\": ...}", device));
	out->nodes++;
	const Json *ifs = jw_get(lldp, "interface");
	int errors = 0;
	if (!ifs)
		return 0; /* no neighbour */
	/* json: {IF: {...}} or [{IF: {...}}, ...]; json0: [{"name": IF, ...}, ...] */
	size_t n = jw_is_array(ifs) ? jw_len(ifs) : 1;
	for (size_t i = 0; i < n; i++) {
		const Json *one = jw_is_array(ifs) ? jw_at(ifs, i) : ifs;
		const char *name = text_of(jw_get(one, "name"));
		if (name && jw_get(one, "chassis")) {
			errors += lldp_neighbour(c, s, device, name, one, at, out);
			continue;
		}
		Json *nb;
		const char *key;
		for (size_t k = 0; (key = jw_object_key(one, k, &nb)); k++)
			errors += lldp_neighbour(c, s, device, key, nb, at, out);
	}
	return errors;
}

/* The device a file is about: its base name without the extension. */
static const char *file_device(Ctx *c, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	return intern(c, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
}

static int read_lldp(Ctx *c, const Source *s, Discovered *out)
{
	int line, col;
	char why[200];
	Json *doc = jw_parse_at(s->text, s->len, &line, &col, why, sizeof why);
	if (!doc) {
		uint32_t off = line - 1 < s->nlines ? s->lines[line - 1] : 0;
		Loc loc = {s, off + (uint32_t)(col > 1 ? col - 1 : 0), 0};
		loc.end = loc.off + 1;
		Diag *d = diag_error(c, loc, "not JSON: %s", why);
		diag_set_code(d, "lldp-format");
		return 1;
	}
	uint32_t at = 0;
	int errors;
	if (jw_get(doc, "lldp")) {
		errors = lldp_device(c, s, file_device(c, s->path), doc, &at, out);
	} else if (jw_is_object(doc) && jw_object_size(doc) > 0) {
		errors = 0;
		Json *v;
		const char *key;
		for (size_t k = 0; (key = jw_object_key(doc, k, &v)); k++)
			errors += lldp_device(c, s, intern_cstr(c, key), v, &at, out);
	} else {
		errors = lldp_error(c, (Loc){s, 0, 1}, "expected lldpctl -f json output ({\"lldp\": "
						      "...}) or an object of it by device name");
	}
	jw_free(doc);
	return errors;
}

/* ---- SONiC's `show lldp table` ------------------------------------------------------------ */

/* The header line of SONiC's table, or NULL: "LocalPort  RemoteDevice  RemotePortID ...". */
static const char *sonic_header(const Source *s)
{
	for (const char *t = s->text; t && t < s->text + s->len; t = strchr(t, '\n'), t = t ? t + 1 : t)
		if (strncmp(t, "LocalPort", 9) == 0 && strstr(t, "RemoteDevice"))
			return t;
	return NULL;
}

/* Columns at the header's offsets (the table is aligned to them); a field is the text from its
 * column's start to the next's, trimmed. */
static const char *column(Ctx *c, const char *line, size_t len, size_t from, size_t to)
{
	if (from >= len)
		return "";
	if (to > len)
		to = len;
	while (from < to && line[from] == ' ')
		from++;
	while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\r'))
		to--;
	return intern(c, line + from, to - from);
}

static int read_sonic(Ctx *c, const Source *s, const char *header, Discovered *out)
{
	static const char *const names[] = {"LocalPort", "RemoteDevice", "RemotePortID", "Capability",
					    "RemotePortDescr"};
	size_t at[6];
	const char *eol = strchr(header, '\n');
	size_t hlen = eol ? (size_t)(eol - header) : strlen(header);
	for (int i = 0; i < 5; i++) {
		const char *f = strstr(header, names[i]);
		if (!f || (size_t)(f - header) >= hlen) {
			uint32_t off = (uint32_t)(header - s->text);
			Diag *d = diag_error(c, (Loc){s, off, off + (uint32_t)hlen},
					     "SONiC's LLDP table header lacks %s", names[i]);
			diag_set_code(d, "lldp-format");
			return 1;
		}
		at[i] = (size_t)(f - header);
	}
	at[5] = (size_t)-1;
	const char *device = file_device(c, s->path);
	out->nodes++;
	int errors = 0;
	for (const char *t = eol ? eol + 1 : NULL; t && t < s->text + s->len;) {
		const char *e = strchr(t, '\n');
		size_t len = e ? (size_t)(e - t) : strlen(t);
		uint32_t off = (uint32_t)(t - s->text);
		const char *next = e ? e + 1 : NULL;
		if (len && t[0] != '-' && strncmp(t, "Total entries", 13) != 0 && t[0] != '\r') {
			const char *lp = column(c, t, len, at[0], at[1]), *dev = column(c, t, len, at[1], at[2]);
			const char *rp = column(c, t, len, at[2], at[3]), *descr = column(c, t, len, at[4], at[5]);
			if (!*lp || !*dev || !*rp) {
				Diag *d = diag_error(c, (Loc){s, off, off + (uint32_t)len},
						     "expected LocalPort, RemoteDevice and RemotePortID in "
						     "the header's columns");
				diag_set_code(d, "lldp-format");
				errors++;
			} else {
				add_link(c, out, (DiscEnd){device, lp, NULL, 0},
					 (DiscEnd){dev, rp, *descr ? descr : NULL, 0}, (Loc){s, off, off + (uint32_t)len});
			}
		}
		t = next;
	}
	return errors;
}

int discovered_read(Ctx *c, const Source *s, Discovered *out)
{
	uint32_t p = 0;
	while (p < s->len && isspace((unsigned char)s->text[p]))
		p++;
	const char *sonic = p < s->len && s->text[p] != '{' ? sonic_header(s) : NULL;
	bool json = (p < s->len && s->text[p] == '{') || sonic;
	DiscFormat f = json ? DISC_LLDP : DISC_IBNETDISCOVER;
	if (out->nlinks && out->format != f) {
		Diag *d = diag_error(c, (Loc){s, p, p + 1}, "this file is %s; the files before it were %s",
				     json ? "LLDP" : "ibnetdiscover output",
				     json ? "ibnetdiscover output" : "LLDP");
		diag_set_code(d, "discovered-mixed");
		return 1;
	}
	out->format = f;
	return sonic ? read_sonic(c, s, sonic, out) : json ? read_lldp(c, s, out)
						      : read_ibnetdiscover(c, s, out);
}
