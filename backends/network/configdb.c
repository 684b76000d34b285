/*
 * config_db.c — SONiC's configuration database as JSON text (config_db.json): entries
 * collected table by table, then written in the order `config save` writes them. SONiC sorts
 * the tables and the keys of each table naturally (sonic-utilities config/main.py, sort_dict:
 * natsorted, so Ethernet8 comes before Ethernet16); fields here are in natural order too. The
 * text is compact, as json.dumps(separators=(",", ":")) writes it, ASCII escapes included:
 * `config load` and `config reload` read any JSON (json.load), and the indentation of
 * `config save` (indent=4) was 40 % of the bytes of a 100,000-GPU build's largest artifact
 * family (docs/performance.md). Every value is a string, as Redis stores it.
 *
 * configdb_port writes a PORT entry as the switch model's port map has it (sonic-port.yang,
 * revision 2026-04-11: lanes and speed mandatory, speed 1..1,600,000 Mb/s, mtu 68..9216,
 * subport 0..8, fec rs|fc|none|auto).
 *
 * Why not jansson (json.c): it sorts keys by strcmp only, and a 100,000-GPU fabric has
 * thousands of switches whose files must be written in well under a second (PRODUCT.md §8):
 * entries here are strings in one pool, and a table made in key order (most are) is not sorted
 * again.
 */
#include "backends.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ConfigDbEntry {
	int table;
	int n;            /* its fields */
	size_t key_off;   /* the key as given, NUL-terminated */
	size_t body_off, body_len; /* its fields as JSON text: "name":"value",... */
	const char *key;  /* resolved when written */
	const char *text; /* a table given whole (configdb_table_text): its entries' text, the
			   * caller's; the entry has no key and no fields */
} ConfigDbEntry;

/* One config_db.json being built. Keys, and the fields of each entry already as JSON text,
 * live in `pool` (by offset: the pool moves as it grows); an entry's fields follow its key. */
struct ConfigDb {
	const char *const *tables;
	int ntables;
	int *order;             /* the tables in natural order of their names */
	int *rank;              /* table -> its place in that order */
	Buf pool;
	ConfigDbEntry *e, *e2;  /* e2: room for sorting */
	int ne, cape, cape2;
#ifndef NDEBUG
	const char *last_name;  /* the last literal field name, to check the order */
#endif
};

/* Natural order as natsort computes it (the key of a string is its alternating text and
 * integer chunks, compared chunk by chunk; a shorter key first). */
int configdb_natcmp_chunks(const char *a, const char *b)
{
	for (;;) {
		const char *ta = a, *tb = b;
		while (*a && (*a < '0' || *a > '9'))
			a++;
		while (*b && (*b < '0' || *b > '9'))
			b++;
		size_t la = (size_t)(a - ta), lb = (size_t)(b - tb);
		int c = memcmp(ta, tb, la < lb ? la : lb);
		if (c || la != lb)
			return c ? c : la < lb ? -1 : 1;
		if (!*a || !*b)
			return (*a != 0) - (*b != 0);
		const char *na = a, *nb = b;
		while (*na == '0' && na[1] >= '0' && na[1] <= '9')
			na++;
		while (*nb == '0' && nb[1] >= '0' && nb[1] <= '9')
			nb++;
		for (a = na; *a >= '0' && *a <= '9'; a++)
			;
		for (b = nb; *b >= '0' && *b <= '9'; b++)
			;
		if (a - na != b - nb)
			return a - na < b - nb ? -1 : 1;
		c = memcmp(na, nb, (size_t)(a - na));
		if (c)
			return c;
	}
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The same order from where a and b first differ, as the chunks would decide it there: a
 * 100,000-GPU fabric sorts and checks some 3 million keys (docs/performance.md). Within a
 * number the longer is the larger; a number sorts before text, the end of a string before
 * both. Numbers that differ only in leading zeros go to the chunks. */
int configdb_natcmp(const char *a, const char *b)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	if (a[i] == b[i])
		return 0;
	size_t j = i; /* where the number that holds position i starts, if one does */
	while (j > 0 && digit(a[j - 1]))
		j--;
	bool da = digit(a[i]), db = digit(b[i]);
	if (j < i || (da && db)) {
		size_t ea = i, eb = i;
		while (digit(a[ea]))
			ea++;
		while (digit(b[eb]))
			eb++;
		if ((a[j] == '0' || b[j] == '0') && (ea - j > 1 || eb - j > 1))
			return configdb_natcmp_chunks(a, b);
		if (ea != eb)
			return ea < eb ? -1 : 1;
		if (da && db)
			return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
		/* The same number in both: the text after it decides, below. */
	} else if (da || db) {
		if (!a[i] || !b[i])
			return a[i] ? 1 : -1;
		return da ? -1 : 1;
	}
	if (!a[i] || !b[i])
		return a[i] ? 1 : -1;
	return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
}

ConfigDb *configdb_new(const char *const *tables, int ntables)
{
	ConfigDb *db = xmalloc(sizeof *db);
	*db = (ConfigDb){.tables = tables, .ntables = ntables};
	db->order = xmalloc(sizeof(int) * (size_t)(ntables + 1));
	db->rank = xmalloc(sizeof(int) * (size_t)(ntables + 1));
	/* The tables by name (a few dozen: insertion, which needs no state shared with a
	 * comparison function, as switch_config.c makes documents on several threads). */
	for (int t = 0; t < ntables; t++) {
		int k = t;
		for (; k > 0 && configdb_natcmp(tables[db->order[k - 1]], tables[t]) > 0; k--)
			db->order[k] = db->order[k - 1];
		db->order[k] = t;
	}
	for (int r = 0; r < ntables; r++)
		db->rank[db->order[r]] = r;
	return db;
}

void configdb_entry(ConfigDb *db, int table, const char *key, size_t n)
{
	if (db->ne == db->cape) {
		db->cape = db->cape ? 2 * db->cape : 256;
		db->e = xrealloc(db->e, sizeof *db->e * (size_t)db->cape);
	}
	size_t off = db->pool.len;
	buf_put(&db->pool, key, n);
	buf_put(&db->pool, "", 1);
	db->e[db->ne++] = (ConfigDbEntry){table, 0, off, db->pool.len, 0, NULL, NULL};
#ifndef NDEBUG
	db->last_name = NULL;
#endif
}

void configdb_table_text(ConfigDb *db, int table, const char *text, size_t n)
{
	configdb_entry(db, table, "", 0);
	db->e[db->ne - 1].text = text;
	db->e[db->ne - 1].body_len = n;
}

void configdb_entry_s(ConfigDb *db, int table, const char *key)
{
	configdb_entry(db, table, key, strlen(key));
}

/* The bytes json.dump writes as they are: printable ASCII but the quote and the backslash. */
static const bool plain_byte[256] = {
#define P(c) [c] = (c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\'
#define P8(c) P(c), P(c + 1), P(c + 2), P(c + 3), P(c + 4), P(c + 5), P(c + 6), P(c + 7)
	P8(0x20), P8(0x28), P8(0x30), P8(0x38), P8(0x40), P8(0x48), P8(0x50), P8(0x58),
	P8(0x60), P8(0x68), P8(0x70), P8(0x78),
#undef P8
#undef P
};

/* literal: the name is one of ours, plain ASCII with nothing to escape. */
static void add_field(ConfigDb *db, bool literal, const char *name, size_t nn, const char *value,
		      size_t nv)
{
	assert(db->ne > 0);
	ConfigDbEntry *e = &db->e[db->ne - 1];
	if (e->n++)
		buf_put(&db->pool, ",", 1);
	if (literal) {
		buf_put(&db->pool, "\"", 1);
		buf_put(&db->pool, name, nn);
		buf_put(&db->pool, "\"", 1);
	} else {
		configdb_stringn(&db->pool, name, nn);
	}
	buf_put(&db->pool, ":", 1);
	configdb_stringn(&db->pool, value, nv);
	e->body_len = db->pool.len - e->body_off;
}

/* A field of the last entry; name a literal. Fields go in natural order. */
void configdb_field(ConfigDb *db, const char *name, const char *value, size_t n)
{
#ifndef NDEBUG
	assert(!db->last_name || configdb_natcmp(db->last_name, name) < 0);
	db->last_name = name;
	for (const char *c = name; *c; c++)
		assert(plain_byte[(unsigned char)*c]);
#endif
	add_field(db, true, name, strlen(name), value, n);
}

void configdb_field_s(ConfigDb *db, const char *name, const char *value)
{
	configdb_field(db, name, value, strlen(value));
}

void configdb_fields_text(ConfigDb *db, const char *text, size_t n)
{
	assert(db->ne > 0 && n > 0);
	ConfigDbEntry *e = &db->e[db->ne - 1];
	if (e->n++)
		buf_put(&db->pool, ",", 1);
	buf_put(&db->pool, text, n);
	e->body_len = db->pool.len - e->body_off;
#ifndef NDEBUG
	db->last_name = NULL;
#endif
}

/* A field whose name is not a literal (a port of CABLE_LENGTH, a DSCP of a map). */
void configdb_field_copy(ConfigDb *db, const char *name, size_t nn, const char *value, size_t nv)
{
	add_field(db, false, name, nn, value, nv);
}

/* s as a JSON string as Python's json.dump writes it (ensure_ascii: \u and four hex digits
 * beyond ASCII). */
void configdb_stringn(Buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t plain = 0;
	while (plain < n && plain_byte[p[plain]])
		plain++;
	if (plain == n) {
		configdb_quoted(b, s, n);
		return;
	}
	buf_putc(b, '"');
	for (; p < end; p++) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c == '\n') {
			buf_puts(b, "\\n");
		} else if (c == '\t') {
			buf_puts(b, "\\t");
		} else if (c == '\r') {
			buf_puts(b, "\\r");
		} else if (c == '\b') {
			buf_puts(b, "\\b");
		} else if (c == '\f') {
			buf_puts(b, "\\f");
		} else if (c < 0x20 || c == 0x7f) {
			buf_printf(b, "\\u%04x", c);
		} else if (c < 0x80) {
			buf_putc(b, (char)c);
		} else {
			/* UTF-8 (the front end accepts no other) to UTF-16 escapes. */
			int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
			unsigned cp = c & (0x3fu >> extra);
			for (int i = 0; i < extra && p + 1 < end && (p[1] & 0xc0) == 0x80; i++)
				cp = cp << 6 | (*++p & 0x3f);
			if (cp >= 0x10000) {
				cp -= 0x10000;
				unsigned hi = 0xd800 + (cp >> 10), lo = 0xdc00 + (cp & 0x3ff);
				buf_printf(b, "\\u%04x\\u%04x", hi, lo);
			} else {
				buf_printf(b, "\\u%04x", cp);
			}
		}
	}
	buf_putc(b, '"');
}

void configdb_string(Buf *b, const char *s)
{
	configdb_stringn(b, s, strlen(s));
}

static int by_key(const void *x, const void *y)
{
	return configdb_natcmp(((const ConfigDbEntry *)x)->key, ((const ConfigDbEntry *)y)->key);
}

/* Entries grouped by table (stably: most tables are made in key order already), then each
 * table sorted by key when it is not. */
static void sort_entries(ConfigDb *db)
{
	int nt = db->ntables;
	int *start = xmalloc(sizeof(int) * (size_t)(2 * nt + 2)), *fill = start + nt + 1;
	memset(start, 0, sizeof(int) * (size_t)(nt + 1));
	for (int i = 0; i < db->ne; i++) {
		db->e[i].key = db->pool.s + db->e[i].key_off;
		start[db->rank[db->e[i].table] + 1]++;
	}
	for (int r = 0; r < nt; r++)
		start[r + 1] += start[r];
	if (db->ne > db->cape2) {
		db->cape2 = db->cape;
		db->e2 = xrealloc(db->e2, sizeof *db->e2 * (size_t)db->cape2);
	}
	memcpy(fill, start, sizeof(int) * (size_t)(nt + 1));
	for (int i = 0; i < db->ne; i++)
		db->e2[fill[db->rank[db->e[i].table]]++] = db->e[i];
	ConfigDbEntry *tmp = db->e;
	db->e = db->e2;
	db->e2 = tmp;
	int c = db->cape;
	db->cape = db->cape2;
	db->cape2 = c;
	for (int r = 0; r < nt; r++) {
		ConfigDbEntry *v = db->e + start[r];
		int n = start[r + 1] - start[r];
		for (int i = 1; i < n; i++) {
			if (configdb_natcmp(v[i - 1].key, v[i].key) >= 0) {
				qsort(v, (size_t)n, sizeof *v, by_key);
				break;
			}
		}
	}
	free(start);
}

/* The entries, sorted: each "key":{fields}, comma-separated, a table given whole as its text.
 * With the tables' names and braces around each table's; or, span not NULL, each table's
 * entries alone, one after the other, span[t] their offset and length in out (0, 0 for a
 * table without entries). */
static void render_entries(ConfigDb *db, Buf *out, size_t (*span)[2])
{
	sort_entries(db);
	if (span)
		memset(span, 0, sizeof *span * (size_t)db->ntables);
	for (int i = 0; i < db->ne; i++) {
		const ConfigDbEntry *e = &db->e[i];
		if (i == 0 || e->table != e[-1].table) {
			if (span) {
				if (i)
					span[e[-1].table][1] = out->len - span[e[-1].table][0];
				span[e->table][0] = out->len;
			} else {
				if (i)
					buf_put(out, "},", 2);
				configdb_string(out, db->tables[e->table]);
				buf_put(out, ":{", 2);
			}
		} else {
			buf_put(out, ",", 1);
		}
		if (e->text) {
			assert(i + 1 == db->ne || e[1].table != e->table);
			buf_put(out, e->text, e->body_len);
			continue;
		}
		configdb_stringn(out, e->key, e->body_off - e->key_off - 1);
		buf_put(out, ":{", 2);
		buf_put(out, db->pool.s + e->body_off, e->body_len);
		buf_put(out, "}", 1);
	}
	if (span && db->ne)
		span[db->e[db->ne - 1].table][1] = out->len - span[db->e[db->ne - 1].table][0];
	db->ne = 0;
	db->pool.len = 0;
}

/* The document, compact (json.dumps(separators=(",", ":"))), and a final newline. */
void configdb_render(ConfigDb *db, Buf *out)
{
	bool any = db->ne > 0;
	buf_putc(out, '{');
	render_entries(db, out, NULL);
	buf_put(out, any ? "}}\n" : "}\n", any ? 3 : 2);
}

void configdb_render_tables(ConfigDb *db, Buf *out, size_t (*span)[2])
{
	render_entries(db, out, span);
}

void configdb_free(ConfigDb *db)
{
	if (!db)
		return;
	free(db->order);
	free(db->rank);
	buf_free(&db->pool);
	free(db->e);
	free(db->e2);
	free(db);
}

/* ---- PORT ------------------------------------------------------------------------------------ */

/* FEC: RS(544,514) is mandatory on 200G and 400G PAM4 lanes (IEEE 802.3bs) and beyond, RS(528,514)
 * on 100GBASE-CR4/SR4 (IEEE 802.3bj/bm clause 91); slower ports keep the platform's default. */
static const char *port_fec(double speed)
{
	return speed >= 100e9 ? "rs" : NULL;
}

/* "name":"value" (both plain: ours) after a comma unless b is empty from `start`. */
static void port_field(Buf *b, size_t start, const char *name, const char *value, size_t n)
{
	if (b->len > start)
		buf_put(b, ",", 1);
	buf_put(b, "\"", 1);
	buf_put(b, name, strlen(name));
	buf_put(b, "\":", 2);
	configdb_stringn(b, value, n);
}

void configdb_port_text(const ConfigDbPort *p, Buf *scratch, Buf *before, Buf *after)
{
	FaceplatePort f = ir_faceplate(p->s, p->port);
	char buf[24], lanes[16 * 12];
	size_t b0 = before->len, a0 = after->len;
	port_field(before, b0, "admin_status", "up", 2);
	scratch->len = 0;
	ir_switch_port_alias(scratch, p->s, p->port);
	port_field(before, b0, "alias", scratch->s, scratch->len);
	const char *fec = port_fec(p->speed);
	if (fec)
		port_field(after, a0, "fec", fec, strlen(fec));
	char *e = buf_digits_at(buf, (unsigned)(f.cage + 1));
	port_field(after, a0, "index", buf, (size_t)(e - buf));
	char *at = lanes;
	for (int i = 0; i < f.nlanes && i < 16; i++) {
		if (i)
			*at++ = ',';
		at = buf_digits_at(at, (unsigned)(f.first_asic_lane + i));
	}
	port_field(after, a0, "lanes", lanes, (size_t)(at - lanes));
	e = buf_digits_at(buf, (unsigned)p->mtu);
	port_field(after, a0, "mtu", buf, (size_t)(e - buf));
	e = buf_digits_at(buf, (unsigned long long)llround(p->speed / 1e6));
	port_field(after, a0, "speed", buf, (size_t)(e - buf));
	if (f.ways > 1) {
		e = buf_digits_at(buf, (unsigned)(f.lane + 1));
		port_field(after, a0, "subport", buf, (size_t)(e - buf));
	}
}

void configdb_port_entry(ConfigDb *db, int table, const char *name, const char *before,
			 size_t nb, const char *description, size_t nd, const char *after,
			 size_t na)
{
	configdb_entry_s(db, table, name);
	configdb_fields_text(db, before, nb);
	configdb_field(db, "description", description, nd);
	configdb_fields_text(db, after, na);
}

void configdb_port(ConfigDb *db, int table, const ConfigDbPort *p, Buf *scratch)
{
	Buf before = {0}, after = {0};
	configdb_port_text(p, scratch, &before, &after);
	configdb_port_entry(db, table, p->name, before.s, before.len, p->description,
			    strlen(p->description), after.s, after.len);
	buf_free(&before);
	buf_free(&after);
}
