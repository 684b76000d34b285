/*
 * cmd_diff.c — `clusterc diff OLD_DIR NEW_DIR`: what changed between two builds, by meaning
 * rather than by line (docs/daytwo.md), for the pipeline that reviews a change to a spec.
 *
 * Read from each directory (a build's output; only manifest.json is required, a section is
 * compared when both builds wrote its file):
 *   report.json       money, power and energy: totals.capex, it_power_kw, facility_power_kw,
 *                     annual_energy_cost and tco with their deltas; then every other value of
 *                     the report that changed (fabrics, plans, decisions ...), by its path
 *                     (arrays of named objects by name: workloads.gpt3.tp)
 *   racks.csv         devices, by name: added, removed, changed (rack, U, height, kind, model)
 *   cabling.csv       cables, by their stable id (a digest of the two ends): added, removed,
 *                     moved (a removed and an added cable sharing an end: one end re-plugged),
 *                     changed (media, part, length, optics, the ends' racks and U)
 *   netbox/interfaces.csv  ports, by device and name: added, removed, changed (type, speed)
 *   manifest.json     files (switch configs, plans, every artifact), by path: added, removed,
 *                     changed (their SHA-256)
 * Output: text (a line per change, sections in the order above) or, with --diagnostics=json,
 * one document of schema "clusterc.diff/1". Exit: 0 no difference, 2 differences, 1 a file of
 * either build that is damaged (file:line:col), 74 a directory without manifest.json or a file
 * that cannot be read, 64 usage.
 */
#include "daytwo.h"
#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Side {
	const char *dir;
	Json *report, *manifest;
	CsvTable *racks, *cabling, *ports;
} Side;

typedef struct Diff {
	Ctx *c;
	bool json;
	int changes;
	Json *doc;
} Diff;

/* DIR/NAME as a JSON document: NULL when absent and not required; errors reported. */
static Json *load_json(Ctx *c, const char *dir, const char *name, bool required, bool *io, int *errors)
{
	const char *path = arena_printf(c->arena, "%s/%s", dir, name);
	if (!required && access(path, F_OK) != 0)
		return NULL;
	bool io_error = false;
	Source *s = src_load(c, path, NOLOC, &io_error);
	if (!s) {
		*io |= io_error;
		++*errors;
		return NULL;
	}
	int line, col;
	char why[200];
	Json *j = jw_parse_at(s->text, s->len, &line, &col, why, sizeof why);
	if (!j) {
		uint32_t off = line - 1 < s->nlines ? s->lines[line - 1] + (uint32_t)(col - 1) : 0;
		Diag *d = diag_error(c, (Loc){s, off, off + 1}, "not JSON: %s", why);
		diag_set_code(d, "diff-input");
		++*errors;
	}
	return j;
}

static CsvTable *load_csv(Ctx *c, const char *dir, const char *name, bool *io, int *errors)
{
	if (access(arena_printf(c->arena, "%s/%s", dir, name), F_OK) != 0)
		return NULL;
	CsvTable *t = csv_load(c, dir, name, io);
	*errors += !t;
	return t;
}

static int load_side(Ctx *c, const char *dir, Side *s, bool *io)
{
	int errors = 0;
	*s = (Side){.dir = dir};
	s->manifest = load_json(c, dir, "manifest.json", true, io, &errors);
	s->report = load_json(c, dir, "report.json", false, io, &errors);
	s->racks = load_csv(c, dir, "racks.csv", io, &errors);
	s->cabling = load_csv(c, dir, "cabling.csv", io, &errors);
	s->ports = load_csv(c, dir, "netbox/interfaces.csv", io, &errors);
	return errors;
}

/* ---- keyed tables ------------------------------------------------------------------------ */

typedef struct Keyed {
	const char *name;                /* the section: "devices" */
	const char *const *key;          /* the columns that identify a row */
	int nkey;
	const char *const *fields;       /* the columns compared */
	int nfields;
	const char *const *shown;        /* the columns an added or removed row is shown by */
	int nshown;
} Keyed;

static const char *row_key(Ctx *c, const CsvTable *t, int r, const int *kc, int nk)
{
	Buf b = {0};
	for (int i = 0; i < nk; i++) {
		if (i)
			buf_putc(&b, ':');
		buf_puts(&b, kc[i] >= 0 ? t->rows[r].field[kc[i]] : "");
	}
	const char *k = intern(c, b.s ? b.s : "", b.len);
	buf_free(&b);
	return k;
}

static void cols_of(const CsvTable *t, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++)
		out[i] = csv_col(t, names[i]);
}

static const char *field(const CsvTable *t, int r, int col)
{
	return col >= 0 ? t->rows[r].field[col] : "";
}

/* A row shown: "KEY (F1 F2 ...)" in text, an object of the shown columns in JSON. */
static void show_row(Diff *df, Json *list, char op, const char *key, const CsvTable *t, int r,
		     const Keyed *k)
{
	int cols[16];
	cols_of(t, k->shown, k->nshown, cols);
	if (df->json) {
		Json *o = jw_object();
		jw_set(o, "key", jw_str(key));
		for (int i = 0; i < k->nshown; i++)
			jw_set(o, k->shown[i], jw_str(field(t, r, cols[i])));
		jw_push(list, o);
		return;
	}
	Buf b = {0};
	for (int i = 0; i < k->nshown; i++)
		buf_printf(&b, "%s%s=%s", i ? " " : "", k->shown[i], field(t, r, cols[i]));
	printf("  %c %s (%s)\n", op, diag_printable(df->c, key), diag_printable(df->c, b.s ? b.s : ""));
	buf_free(&b);
}

/* What changed in one keyed table. */
typedef struct Section {
	int *added, nadded, *removed, nremoved; /* row indexes of n and o; -1 once paired as a move */
	Buf text;                               /* the changed rows, a line each */
	Json *changed;
	int nchanged;
} Section;

/* The rows of o and n by key: added (n's order), removed (o's), changed (n's order). */
static void keyed_diff(Diff *df, const Keyed *k, const CsvTable *o, const CsvTable *n, Section *s)
{
	Ctx *c = df->c;
	int ko[4], kn[4], fo[16], fn[16];
	cols_of(o, k->key, k->nkey, ko);
	cols_of(n, k->key, k->nkey, kn);
	cols_of(o, k->fields, k->nfields, fo);
	cols_of(n, k->fields, k->nfields, fn);
	NameTable old_rows = {0}, new_rows = {0};
	for (int r = 0; r < o->nrows; r++)
		table_put(c, &old_rows, row_key(c, o, r, ko, k->nkey), (void *)(intptr_t)(r + 1));
	for (int r = 0; r < n->nrows; r++)
		table_put(c, &new_rows, row_key(c, n, r, kn, k->nkey), (void *)(intptr_t)(r + 1));
	*s = (Section){.added = xmalloc(sizeof(int) * (size_t)(n->nrows + 1)),
		       .removed = xmalloc(sizeof(int) * (size_t)(o->nrows + 1)), .changed = jw_array()};
	Buf line = {0};
	for (int r = 0; r < n->nrows; r++) {
		const char *key = row_key(c, n, r, kn, k->nkey);
		intptr_t was = (intptr_t)table_get(&old_rows, key);
		if (!was) {
			s->added[s->nadded++] = r;
			continue;
		}
		Json *fields = jw_object();
		line.len = 0;
		for (int i = 0; i < k->nfields; i++) {
			const char *a = field(o, (int)was - 1, fo[i]), *b = field(n, r, fn[i]);
			if (strcmp(a, b) == 0)
				continue;
			Json *ch = jw_object();
			jw_set(ch, "old", jw_str(a));
			jw_set(ch, "new", jw_str(b));
			jw_set(fields, k->fields[i], ch);
			buf_printf(&line, "%s%s %s -> %s", line.len ? ", " : "", k->fields[i], a, b);
		}
		if (!line.len) {
			jw_free(fields);
			continue;
		}
		s->nchanged++;
		Json *e = jw_object();
		jw_set(e, "key", jw_str(key));
		jw_set(e, "fields", fields);
		jw_push(s->changed, e);
		buf_printf(&s->text, "  ~ %s: %s\n", diag_printable(c, key), diag_printable(c, line.s));
	}
	buf_free(&line);
	for (int r = 0; r < o->nrows; r++)
		if (!table_get(&new_rows, row_key(c, o, r, ko, k->nkey)))
			s->removed[s->nremoved++] = r;
}

static int live(const int *v, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += v[i] >= 0;
	return k;
}

/* Prints (or puts into the document) a section: counts, added, removed, moves, changed. */
static void section_emit(Diff *df, const Keyed *k, const CsvTable *o, const CsvTable *n, Section *s,
			 Json *moves, int nmoves, const Buf *move_text)
{
	int na = live(s->added, s->nadded), nr = live(s->removed, s->nremoved);
	df->changes += na + nr + nmoves + s->nchanged;
	Json *sec = jw_object(), *added = jw_array(), *removed = jw_array();
	if (!df->json) {
		printf("%s: %d added, %d removed", k->name, na, nr);
		if (moves)
			printf(", %d moved", nmoves);
		printf(", %d changed\n", s->nchanged);
	}
	int kn[4], ko[4];
	cols_of(n, k->key, k->nkey, kn);
	cols_of(o, k->key, k->nkey, ko);
	for (int i = 0; i < s->nadded; i++)
		if (s->added[i] >= 0)
			show_row(df, added, '+', row_key(df->c, n, s->added[i], kn, k->nkey), n, s->added[i], k);
	for (int i = 0; i < s->nremoved; i++)
		if (s->removed[i] >= 0)
			show_row(df, removed, '-', row_key(df->c, o, s->removed[i], ko, k->nkey), o,
				 s->removed[i], k);
	if (!df->json) {
		if (move_text && move_text->len)
			fputs(move_text->s, stdout);
		if (s->text.len)
			fputs(s->text.s, stdout);
		jw_free(sec);
		jw_free(added);
		jw_free(removed);
		jw_free(s->changed);
		if (moves)
			jw_free(moves);
	} else {
		jw_set(sec, "added", added);
		jw_set(sec, "removed", removed);
		if (moves)
			jw_set(sec, "moved", moves);
		jw_set(sec, "changed", s->changed);
		jw_set(df->doc, k->name, sec);
	}
	buf_free(&s->text);
	free(s->added);
	free(s->removed);
}

/* ---- the sections -------------------------------------------------------------------------- */

static const char *const device_key[] = {"device"};
static const char *const device_fields[] = {"rack", "u", "height_u", "kind", "model"};
static const Keyed devices = {"devices", device_key, 1, device_fields, 5, device_fields, 5};

static const char *const port_key[] = {"device", "name"};
static const char *const port_fields[] = {"type", "speed"};
static const Keyed ports = {"ports", port_key, 2, port_fields, 2, port_fields, 2};

static const char *const cable_key[] = {"cable_id"};
static const char *const cable_fields[] = {"a_rack", "a_u", "z_rack", "z_u", "media", "fiber_type",
	"cable_model", "length_m", "a_optic", "z_optic", "speed_gbps", "tier"};
static const char *const cable_shown[] = {"label", "a_rack", "a_u", "z_rack", "z_u", "cable_model",
	"length_m"};
static const Keyed cables = {"cables", cable_key, 1, cable_fields, 12, cable_shown, 7};

/* Cables moved: a removed cable and an added one that share an end (its device:port) are one
 * cable with its other end re-plugged. Pairs in the old table's order, each cable once. */
static void cable_moves(Diff *df, const CsvTable *o, const CsvTable *n, Section *s, Json **moves,
			int *nmoves, Buf *text)
{
	Ctx *c = df->c;
	const char *const ends[2][2] = {{"a_device", "a_port"}, {"z_device", "z_port"}};
	int on[2][2], nn[2][2], oid = csv_col(o, "cable_id"), nid = csv_col(n, "cable_id");
	for (int e = 0; e < 2; e++) {
		cols_of(o, ends[e], 2, on[e]);
		cols_of(n, ends[e], 2, nn[e]);
	}
	NameTable by_end = {0}; /* an added cable's end "device:port" -> its index in s->added + 1 */
	for (int i = 0; i < s->nadded; i++)
		for (int e = 0; e < 2; e++)
			table_put(c, &by_end, row_key(c, n, s->added[i], nn[e], 2), (void *)(intptr_t)(i + 1));
	*moves = jw_array();
	*nmoves = 0;
	for (int i = 0; i < s->nremoved; i++) {
		int r = s->removed[i];
		for (int e = 0; e < 2; e++) {
			const char *kept = row_key(c, o, r, on[e], 2);
			intptr_t j = (intptr_t)table_get(&by_end, kept);
			if (!j || s->added[j - 1] < 0)
				continue;
			int a = s->added[j - 1];
			/* the end that moved: the other one of the old cable, and of the new */
			int ne = strcmp(row_key(c, n, a, nn[0], 2), kept) == 0 ? 1 : 0;
			const char *from = row_key(c, o, r, on[1 - e], 2), *to = row_key(c, n, a, nn[ne], 2);
			Json *m = jw_object();
			jw_set(m, "old", jw_str(field(o, r, oid)));
			jw_set(m, "new", jw_str(field(n, a, nid)));
			jw_set(m, "kept", jw_str(kept));
			jw_set(m, "from", jw_str(from));
			jw_set(m, "to", jw_str(to));
			jw_push(*moves, m);
			buf_printf(text, "  > %s -> %s: %s stays, %s -> %s\n", field(o, r, oid), field(n, a, nid),
				   diag_printable(c, kept), diag_printable(c, from), diag_printable(c, to));
			s->added[j - 1] = -1;
			s->removed[i] = -1;
			++*nmoves;
			break;
		}
	}
}

static void table_section(Diff *df, const Keyed *k, const CsvTable *o, const CsvTable *n)
{
	if (!o || !n) {
		if (!df->json)
			printf("%s: not compared (a build without its file)\n", k->name);
		return;
	}
	Section s;
	keyed_diff(df, k, o, n, &s);
	Json *moves = NULL;
	int nmoves = 0;
	Buf text = {0};
	if (k == &cables)
		cable_moves(df, o, n, &s, &moves, &nmoves, &text);
	section_emit(df, k, o, n, &s, moves, nmoves, &text);
	buf_free(&text);
}

/* ---- files (manifest.json) ------------------------------------------------------------------ */

static void files_section(Diff *df, const Json *om, const Json *nm)
{
	Ctx *c = df->c;
	const Json *of = jw_get(om, "files"), *nf = jw_get(nm, "files");
	NameTable old_sum = {0}, new_sum = {0};
	for (size_t i = 0; i < jw_len(of); i++) {
		const char *path = jw_get_str(jw_at(of, i), "path"), *sum = jw_get_str(jw_at(of, i), "sha256");
		if (path && sum)
			table_put(c, &old_sum, intern_cstr(c, path), (void *)sum);
	}
	for (size_t i = 0; i < jw_len(nf); i++) {
		const char *path = jw_get_str(jw_at(nf, i), "path"), *sum = jw_get_str(jw_at(nf, i), "sha256");
		if (path && sum)
			table_put(c, &new_sum, intern_cstr(c, path), (void *)sum);
	}
	Json *lists[3] = {jw_array(), jw_array(), jw_array()}; /* added, removed, changed */
	Buf text = {0};
	int count[3] = {0};
	for (int pass = 0; pass < 2; pass++) {
		const Json *f = pass ? of : nf;
		for (size_t i = 0; i < jw_len(f); i++) {
			const char *path = jw_get_str(jw_at(f, i), "path");
			if (!path)
				continue;
			const char *k = intern_cstr(c, path);
			const char *was = table_get(&old_sum, k), *now = table_get(&new_sum, k);
			int kind = pass ? (now ? -1 : 1) : !was ? 0 : strcmp(was, now) ? 2 : -1;
			if (kind < 0)
				continue;
			count[kind]++;
			jw_push(lists[kind], jw_str(path));
			buf_printf(&text, "  %c %s\n", "+-~"[kind], diag_printable(c, path));
		}
	}
	df->changes += count[0] + count[1] + count[2];
	if (df->json) {
		Json *sec = jw_object();
		jw_set(sec, "added", lists[0]);
		jw_set(sec, "removed", lists[1]);
		jw_set(sec, "changed", lists[2]);
		jw_set(df->doc, "files", sec);
	} else {
		printf("files: %d added, %d removed, %d changed\n%s", count[0], count[1], count[2],
		       text.s ? text.s : "");
		for (int i = 0; i < 3; i++)
			jw_free(lists[i]);
	}
	buf_free(&text);
}

/* ---- report.json ---------------------------------------------------------------------------- */

/* Every scalar of a report by path ("totals.capex", "workloads.gpt3.tp"): arrays of objects
 * with a "name" by name, other arrays by index; the artifact list is the files section's. */
static void flatten(Ctx *c, const Json *v, const char *path, NameTable *t, PtrVec *order)
{
	if (jw_is_object(v)) {
		Json *m;
		const char *key;
		for (size_t i = 0; (key = jw_object_key(v, i, &m)); i++) {
			if (!*path && (strcmp(key, "artifacts") == 0 || strcmp(key, "schema") == 0))
				continue;
			flatten(c, m, *path ? arena_printf(c->arena, "%s.%s", path, key) : key, t, order);
		}
		return;
	}
	if (jw_is_array(v)) {
		for (size_t i = 0; i < jw_len(v); i++) {
			const char *name = jw_get_str(jw_at(v, i), "name");
			flatten(c, jw_at(v, i), name ? arena_printf(c->arena, "%s.%s", path, name)
						     : arena_printf(c->arena, "%s.%zu", path, i), t, order);
		}
		return;
	}
	const char *k = intern_cstr(c, path);
	if (!table_get(t, k))
		vec_push(c->arena, order, (void *)k);
	table_put(c, t, k, (void *)v);
}

/* A scalar as text: numbers as %.10g, strings as they are. */
static const char *scalar_text(Ctx *c, const Json *v)
{
	double x;
	int b;
	if (!v)
		return "(none)";
	if (jw_number(v, &x))
		return arena_printf(c->arena, "%.10g", x);
	if ((b = jw_bool_value(v)) >= 0)
		return b ? "true" : "false";
	const char *s = jw_string(v);
	return s ? s : "null";
}

static Json *value_json(const Json *v)
{
	return v ? jw_copy(v) : jw_null();
}

/* The headline figures, always shown when both reports have them. */
static const char *const headline[] = {"totals.capex", "totals.it_power_kw", "totals.facility_power_kw",
	"totals.annual_energy_cost", "totals.tco"};

static void report_section(Diff *df, const Json *or, const Json *nr)
{
	Ctx *c = df->c;
	if (!or || !nr) {
		if (!df->json)
			printf("report: not compared (a build without report.json)\n");
		return;
	}
	NameTable ot = {0}, nt = {0};
	PtrVec order = {0};
	flatten(c, or, "", &ot, &order);
	int nold = order.n;
	flatten(c, nr, "", &nt, &order);
	const char *cur = jw_get_str(nr, "currency");
	Json *heads = jw_object(), *values = jw_array();
	for (int i = 0; i < 5; i++) {
		const char *k = intern_cstr(c, headline[i]);
		double a, b;
		if (!jw_number(table_get(&ot, k), &a) || !jw_number(table_get(&nt, k), &b))
			continue;
		double pct = a != 0 ? 100 * (b - a) / fabs(a) : 0;
		if (df->json) {
			Json *h = jw_object();
			jw_set(h, "old", jw_real(a, 3));
			jw_set(h, "new", jw_real(b, 3));
			jw_set(h, "delta", jw_real(b - a, 3));
			jw_set(h, "percent", a != 0 ? jw_real(pct, 2) : jw_null());
			jw_set(heads, headline[i] + 7, h);
		} else {
			printf("%-19s %.10g -> %.10g %s (%+.10g, %+.2f%%)\n", headline[i] + 7, a, b,
			       strstr(headline[i], "kw") ? "kW" : cur ? cur : "", b - a, pct);
		}
	}
	int changed = 0;
	Buf text = {0};
	/* new's paths in its order after old's: each path once, old's order first */
	NameTable done = {0};
	for (int i = 0; i < order.n; i++) {
		const char *k = order.v[i];
		if (table_get(&done, k))
			continue;
		table_put(c, &done, k, (void *)k);
		const Json *a = table_get(&ot, k), *b = table_get(&nt, k);
		const char *ta = a ? scalar_text(c, a) : NULL, *tb = b ? scalar_text(c, b) : NULL;
		if (ta && tb && strcmp(ta, tb) == 0)
			continue;
		bool headline_path = false;
		for (int h = 0; h < 5; h++)
			headline_path |= strcmp(k, headline[h]) == 0;
		if (strstr(k, "solve_ms") || headline_path)
			continue; /* timing differs run to run; the headline is above */
		changed++;
		double x, y;
		Json *e = jw_object();
		jw_set(e, "path", jw_str(k));
		jw_set(e, "old", value_json(a));
		jw_set(e, "new", value_json(b));
		if (jw_number(a, &x) && jw_number(b, &y)) {
			jw_set(e, "delta", jw_real(y - x, 6));
			buf_printf(&text, "  ~ %s: %s -> %s (%+.10g)\n", k, ta, tb, y - x);
		} else {
			buf_printf(&text, "  ~ %s: %s -> %s\n", k, ta ? diag_printable(c, ta) : "(none)",
				   tb ? diag_printable(c, tb) : "(none)");
		}
		jw_push(values, e);
	}
	(void)nold;
	df->changes += changed;
	if (df->json) {
		jw_set(df->doc, "totals", heads);
		jw_set(df->doc, "report", values);
	} else {
		printf("report: %d values changed\n%s", changed, text.s ? text.s : "");
		jw_free(heads);
		jw_free(values);
	}
	buf_free(&text);
}

/* The JSON documents a side holds (its CSV tables live in the context's arena). */
static void side_free(Side *s)
{
	jw_free(s->report);
	jw_free(s->manifest);
	s->report = s->manifest = NULL;
}

int cmd_diff(const Options *o, const char *old_dir, const char *new_dir)
{
	Ctx *c = ctx_new(o->dopt);
	bool io = false;
	Side a, b;
	int errors = load_side(c, old_dir, &a, &io);
	errors += load_side(c, new_dir, &b, &io);
	if (errors || diag_errors(c)) {
		/* What either side loaded before the other failed. */
		side_free(&a);
		side_free(&b);
		diag_render(c, stderr);
		ctx_free(c);
		return io ? EXIT_IO : EXIT_SPEC;
	}
	Diff df = {c, o->dopt.format == DIAG_JSON, 0, jw_object()};
	if (df.json) {
		jw_set(df.doc, "schema", jw_str("clusterc.diff/1"));
		jw_set(df.doc, "old", jw_str(old_dir));
		jw_set(df.doc, "new", jw_str(new_dir));
		jw_set(df.doc, "currency", jw_str(jw_get_str(b.report, "currency")));
	} else {
		printf("clusterc diff %s %s\n", diag_printable(c, old_dir), diag_printable(c, new_dir));
	}
	report_section(&df, a.report, b.report);
	table_section(&df, &devices, a.racks, b.racks);
	table_section(&df, &cables, a.cabling, b.cabling);
	table_section(&df, &ports, a.ports, b.ports);
	files_section(&df, a.manifest, b.manifest);
	if (df.json) {
		jw_set(df.doc, "changes", jw_int(df.changes));
		jw_write(stdout, df.doc);
	} else {
		jw_free(df.doc);
		printf("%d change%s\n", df.changes, df.changes == 1 ? "" : "s");
	}
	side_free(&a);
	side_free(&b);
	diag_render(c, stderr);
	ctx_free(c);
	if (!driver_streams_ok())
		return EXIT_IO;
	return df.changes ? EXIT_UNMET : EXIT_OK;
}
