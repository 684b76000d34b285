/*
 * sweep.c — `clusterc compare --sweep FILE.yaml`: a grid or a list of overrides, read through
 * lang/yamlio.c, expanded into the scenarios of a comparison (docs/comparison.md).
 *
 *   scenario: h200                  # optional: what every point starts from (default: the base)
 *   grid:                           # every combination, the first key varying slowest
 *     hall_b.electricity: [0.35 CNY/kWh, 0.60 CNY/kWh, 0.90 CNY/kWh]
 *     rack48.cooling: [air, cold_plate]
 *     scenario: [h200, b200]        # a grid key `scenario` ranges over the spec's scenarios
 *   points:                         # and/or points of their own
 *     - name: b200_cheap_power
 *       scenario: b200
 *       set:
 *         hall_b.electricity: 0.35 CNY/kWh
 *
 * Every value is an expression of the language, as --set takes it. Each override keeps its
 * place in the YAML file: it is parsed from a copy of the file blank but for the override
 * (parse_override_masked), so an unknown path or a wrong value is reported at the file's line
 * and column, with the file's line under it. libyaml's own errors (syntax) are reported at the
 * mark it gives.
 */
#include "passes.h"

#include <stdarg.h>
#include <string.h>
#include "yamlio.h"

enum { MAX_POINTS = 10000 };

typedef struct Sweeper {
	Ctx *c;
	Sweep *s;
	Source *src;
	PtrVec points; /* SweepPoint* */
	int errors;
} Sweeper;

/* The byte offset of a libyaml mark: its line and column count characters. */
static uint32_t mark_off(const Source *src, YrMark m)
{
	if (m.line >= (size_t)src->nlines)
		return src->len;
	uint32_t off = src->lines[m.line];
	for (size_t col = 0; col < m.column && off < src->len && src->text[off] != '\n'; col++) {
		off++;
		while (off < src->len && (src->text[off] & 0xC0) == 0x80)
			off++;
	}
	return off;
}

static Loc node_loc(const Sweeper *w, const YrNode *n)
{
	uint32_t a = mark_off(w->src, n->start), b = mark_off(w->src, n->end);
	return (Loc){w->src, a, b > a ? b : a};
}

static Diag *err(Sweeper *w, const YrNode *n, const char *code, const char *fmt, ...)
	PRINTF_LIKE(4, 5);

static Diag *err(Sweeper *w, const YrNode *n, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *msg = arena_vprintf(w->c->arena, fmt, ap);
	va_end(ap);
	Diag *d = diag_error(w->c, n ? node_loc(w, n) : (Loc){w->src, 0, 0}, "%s", msg);
	diag_set_code(d, code);
	w->errors++;
	return d;
}

static const char *scalar(const YrNode *n)
{
	return yr_scalar(n);
}

/* Where a scalar's text sits in the file: [*off, *off + len) holds exactly its value. False for
 * a scalar whose value is not its text (escapes, folding, block scalars). */
static bool scalar_span(const Sweeper *w, const YrNode *n, uint32_t *off)
{
	Loc l = node_loc(w, n);
	size_t len = n->len;
	uint32_t at = l.off;
	if (n->style == YR_QUOTED)
		at++;
	else if (n->style != YR_PLAIN)
		return false;
	if (at + len > w->src->len || memchr(n->text, '\n', len) ||
	    memcmp(w->src->text + at, n->text, len) != 0)
		return false;
	*off = at;
	return true;
}

/* The override key = value, placed in the file when both sit on their text. */
static CliOverride make_override(Sweeper *w, const YrNode *key, const YrNode *val)
{
	Arena *a = w->c->arena;
	CliOverride o = {.text = arena_printf(a, "%s=%s", scalar(key), scalar(val))};
	uint32_t ko, vo;
	size_t kn = key->len, vn = val->len;
	if (!scalar_span(w, key, &ko) || !scalar_span(w, val, &vo) || vo < ko + kn + 1)
		return o; /* reported as a --set would be */
	char *m = arena_alloc(a, w->src->len + 1);
	for (uint32_t i = 0; i < w->src->len; i++)
		m[i] = w->src->text[i] == '\n' && (i < ko || i >= vo) ? '\n' : ' ';
	memcpy(m + ko, w->src->text + ko, kn);
	m[ko + kn] = '=';
	memcpy(m + vo, w->src->text + vo, vn);
	o.origin = w->src->path;
	o.origin_text = w->src->text;
	o.origin_len = w->src->len;
	o.masked = m;
	return o;
}

static bool is_path(const char *s)
{
	return s && strchr(s, '.') && !strchr(s, '=');
}

/* A mapping's pairs, in order. */
#define PAIRS(map, p) for (int p = 0; p < (map)->n; p++)
#define ITEMS(seq, it) for (int it = 0; it < (seq)->n; it++)

/* Whether pair pr of mapping n repeats an earlier key (libyaml accepts it; the second would
 * silently win or add): an error at the repeat, a note at the first. */
static bool repeated_key(Sweeper *w, YrNode *n, int pr)
{
	const char *k = scalar(n->keys[pr]);
	if (!k)
		return false;
	PAIRS(n, q) {
		if (q == pr)
			break;
		const char *e = scalar(n->keys[q]);
		if (e && strcmp(e, k) == 0) {
			Diag *d = diag_error(w->c, node_loc(w, n->keys[pr]),
					     "'%s' is given twice in this mapping", k);
			diag_set_code(d, "sweep-structure");
			diag_note(d, node_loc(w, n->keys[q]), "first given here");
			w->errors++;
			return true;
		}
	}
	return false;
}

static const char *const top_keys[] = {"scenario", "grid", "points"};
static const char *const point_keys[] = {"name", "scenario", "set"};

static void unknown_key(Sweeper *w, const YrNode *k, const char *const *keys, int n,
			const char *where)
{
	const char *s = suggest(scalar(k), keys, n);
	Diag *d = s ? diag_error(w->c, node_loc(w, k), "unknown key '%s' %s; did you mean '%s'?",
				 scalar(k), where, s)
		    : diag_error(w->c, node_loc(w, k), "unknown key '%s' %s (the keys are %s, %s and %s)",
				 scalar(k), where, keys[0], keys[1], keys[2]);
	diag_set_code(d, "unknown-sweep-key");
	if (s)
		diag_set_suggestion(d, s);
	w->errors++;
}

/* A row's name on one line: control characters (a block scalar's line breaks) as spaces,
 * none at either end. */
static const char *clean_name(Sweeper *w, const char *s)
{
	char *t = arena_strdup(w->c->arena, s);
	for (char *q = t; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			*q = ' ';
	char *end = t + strlen(t);
	while (end > t && end[-1] == ' ')
		*--end = 0;
	while (*t == ' ')
		t++;
	return t;
}

static SweepPoint *new_point(Sweeper *w)
{
	SweepPoint *p = arena_alloc(w->c->arena, sizeof *p);
	vec_push(w->c->arena, &w->points, p);
	return p;
}

static void point_add(Sweeper *w, SweepPoint *p, CliOverride o, int cap)
{
	if (!p->sets)
		p->sets = arena_alloc(w->c->arena, sizeof *p->sets * (size_t)(cap + 1));
	p->sets[p->nsets++] = o;
}

/* One grid dimension: its key and values (scalar nodes). */
typedef struct GridDim {
	YrNode *key;
	YrNode **vals;
	int n;
	bool scenario;
	CliOverride *ovr;  /* [n]: each value's override, made once for every point it is in */
	bool *made;
} GridDim;

static void read_grid(Sweeper *w, YrNode *g)
{
	if (g->kind != YR_MAPPING) {
		err(w, g, "sweep-structure", "%s", "grid must be a mapping of DECL.FIELD to values");
		return;
	}
	int before = w->errors;
	int nd = g->n;
	GridDim *dims = arena_alloc(w->c->arena, sizeof *dims * (size_t)(nd + 1));
	memset(dims, 0, sizeof *dims * (size_t)(nd + 1));
	nd = 0;
	double points = 1;
	PAIRS(g, pr) {
		if (repeated_key(w, g, pr))
			continue;
		YrNode *k = g->keys[pr], *v = g->values[pr];
		const char *ks = scalar(k);
		GridDim *dm = &dims[nd];
		*dm = (GridDim){.key = k, .scenario = ks && !strcmp(ks, "scenario")};
		if (!dm->scenario && !is_path(ks)) {
			err(w, k, "sweep-structure", "a grid key is DECL.FIELD or scenario, not '%s'",
			    ks ? ks : "a collection");
			continue;
		}
		int n = v->kind == YR_SEQUENCE ? v->n : 1;
		dm->vals = arena_alloc(w->c->arena, sizeof *dm->vals * (size_t)(n + 1));
		dm->ovr = arena_alloc(w->c->arena, sizeof *dm->ovr * (size_t)(n + 1));
		dm->made = arena_alloc(w->c->arena, sizeof *dm->made * (size_t)(n + 1));
		memset(dm->made, 0, sizeof *dm->made * (size_t)(n + 1));
		if (v->kind == YR_SEQUENCE) {
			ITEMS(v, it) {
				YrNode *x = v->values[it];
				if (!scalar(x))
					err(w, x, "sweep-structure", "%s",
					    "a grid value is one value, not a collection");
				else
					dm->vals[dm->n++] = x;
			}
		} else if (scalar(v)) {
			dm->vals[dm->n++] = v;
		} else {
			err(w, v, "sweep-structure", "%s", "grid values are a list or one value");
			continue;
		}
		if (dm->n == 0) {
			err(w, v, "sweep-structure", "grid key '%s' has no values", ks);
			continue;
		}
		points *= dm->n;
		nd++;
	}
	if (w->errors > before)
		return;
	if (points > MAX_POINTS) {
		err(w, g, "sweep-too-large", "the grid has %.0f points; a sweep has at most %d", points,
		    MAX_POINTS);
		return;
	}
	/* Names: the values, each after its field's name (the scenario's alone). */
	int *idx = arena_alloc(w->c->arena, sizeof *idx * (size_t)(nd + 1));
	for (int count = 0; count < (int)points; count++) {
		SweepPoint *p = new_point(w);
		Buf name = {0}, sets = {0};
		for (int j = 0; j < nd; j++) {
			const GridDim *dm = &dims[j];
			YrNode *v = dm->vals[idx[j]];
			if (name.len)
				buf_puts(&name, ", ");
			if (dm->scenario) {
				/* "base": the design without a scenario */
				if (strcmp(scalar(v), "base") != 0)
					p->scenario = arena_strdup(w->c->arena, scalar(v));
				p->scenario_loc = node_loc(w, v);
				buf_puts(&name, scalar(v));
				continue;
			}
			/* Both are scalars: read_grid kept only those. */
			const char *ks = dm->key->text;
			const char *vs = v->text;
			buf_printf(&name, "%s=%s", strrchr(ks, '.') + 1, vs);
			buf_printf(&sets, "%s%s=%s", sets.len ? "; " : "", ks, vs);
			/* One override per value, shared by the points: each holds a masked copy
			 * of the sweep file, and a copy per point grew as points x file size. */
			if (!dm->made[idx[j]]) {
				dm->ovr[idx[j]] = make_override(w, dm->key, v);
				dm->made[idx[j]] = true;
			}
			point_add(w, p, dm->ovr[idx[j]], nd);
		}
		p->name = clean_name(w, name.s ? name.s : "");
		p->sets_text = arena_strdup(w->c->arena, sets.s ? sets.s : "");
		p->loc = node_loc(w, dims[0].key);
		buf_free(&name);
		buf_free(&sets);
		for (int j = nd - 1; j >= 0; j--) {
			if (++idx[j] < dims[j].n)
				break;
			idx[j] = 0;
		}
	}
}

static void read_point(Sweeper *w, YrNode *n, int number)
{
	if (n->kind != YR_MAPPING) {
		err(w, n, "sweep-structure", "%s", "a point is a mapping with name, scenario and set");
		return;
	}
	SweepPoint *p = new_point(w);
	p->loc = node_loc(w, n);
	Buf sets = {0};
	PAIRS(n, pr) {
		if (repeated_key(w, n, pr))
			continue;
		YrNode *k = n->keys[pr], *v = n->values[pr];
		const char *ks = scalar(k);
		if (!ks || !(strcmp(ks, "name") == 0 || strcmp(ks, "scenario") == 0 ||
			     strcmp(ks, "set") == 0)) {
			if (ks)
				unknown_key(w, k, point_keys, 3, "in a point");
			else
				err(w, k, "sweep-structure", "%s", "a point's keys are plain names");
			continue;
		}
		if (strcmp(ks, "set") != 0) {
			if (!scalar(v)) {
				err(w, v, "sweep-structure", "a point's %s is one value", ks);
				continue;
			}
			if (ks[0] == 'n') {
				p->name = clean_name(w, scalar(v));
				p->name_loc = node_loc(w, v);
			} else if (strcmp(scalar(v), "base") != 0) {
				p->scenario = arena_strdup(w->c->arena, scalar(v));
				p->scenario_loc = node_loc(w, v);
			}
			continue;
		}
		if (v->kind != YR_MAPPING) {
			err(w, v, "sweep-structure", "%s", "set is a mapping of DECL.FIELD to a value");
			continue;
		}
		int cap = v->n;
		PAIRS(v, sp) {
			if (repeated_key(w, v, sp))
				continue;
			YrNode *sk = v->keys[sp], *sv = v->values[sp];
			if (!is_path(scalar(sk))) {
				err(w, sk, "sweep-structure", "a key of set is DECL.FIELD, not '%s'",
				    scalar(sk) ? scalar(sk) : "a collection");
				continue;
			}
			if (!scalar(sv)) {
				err(w, sv, "sweep-structure", "%s", "an override's value is one value");
				continue;
			}
			buf_printf(&sets, "%s%s=%s", sets.len ? "; " : "", scalar(sk), scalar(sv));
			point_add(w, p, make_override(w, sk, sv), cap);
		}
	}
	if (p->name && !*p->name) {
		Diag *d = diag_error(w->c, p->name_loc, "a point's name is empty");
		diag_set_code(d, "sweep-structure");
		w->errors++;
	}
	if (!p->name || !*p->name)
		p->name = arena_printf(w->c->arena, "point%d", number);
	p->sets_text = arena_strdup(w->c->arena, sets.s ? sets.s : "");
	buf_free(&sets);
}

int sweep_load(Ctx *c, const char *path, Sweep *s)
{
	*s = (Sweep){.path = path};
	Source *src = src_load(c, path, NOLOC, &s->io_error);
	if (!src)
		return 1;
	return sweep_load_source(c, src, s);
}

int sweep_load_source(Ctx *c, Source *src, Sweep *s)
{
	s->path = src->path;
	Sweeper w = {.c = c, .s = s, .src = src};
	/* libyaml's scanner rechecks every open flow collection at each token: 100,000 nested
	 * '[' took 34 s. No sweep nests deeper than a few levels, so brackets outside quotes and
	 * comments are counted first and more than MAX_NESTING is an error at the one too many. */
	for (uint32_t i = 0, depth = 0; i < src->len; i++) {
		char ch = src->text[i];
		if (ch == '#' && (i == 0 || src->text[i - 1] == ' ' || src->text[i - 1] == '\t' ||
				  src->text[i - 1] == '\n')) {
			while (i + 1 < src->len && src->text[i + 1] != '\n')
				i++;
		} else if (ch == '"' || ch == '\'') {
			while (++i < src->len && src->text[i] != ch)
				i += ch == '"' && src->text[i] == '\\';
		} else if (ch == '[' || ch == '{') {
			if (++depth > MAX_NESTING) {
				Diag *d = diag_error(c, (Loc){src, i, i + 1},
						     "collections nested more than %d deep: not a sweep "
						     "file", MAX_NESTING);
				diag_set_code(d, "sweep-syntax");
				return 1;
			}
		} else if ((ch == ']' || ch == '}') && depth > 0) {
			depth--;
		}
	}
	YrNode *root;
	YrError ye;
	if (!yr_load(c->arena, src->text, src->len, &root, &ye)) {
		uint32_t off = mark_off(src, ye.mark);
		Diag *d = diag_error(c, (Loc){src, off, off < src->len ? off + 1 : off},
				     "%s: not a sweep file", ye.problem ? ye.problem : "bad YAML");
		if (ye.problem && ye.context)
			d->msg = arena_printf(c->arena, "%s %s", ye.problem, ye.context);
		diag_set_code(d, "sweep-syntax");
		return 1;
	}
	if (!root || root->kind != YR_MAPPING) {
		err(&w, root, "sweep-structure", "%s",
		    "a sweep is a mapping with grid and/or points (docs/comparison.md)");
		return w.errors;
	}
	YrNode *grid = NULL, *points = NULL;
	PAIRS(root, pr) {
		if (repeated_key(&w, root, pr))
			continue;
		YrNode *k = root->keys[pr], *v = root->values[pr];
		const char *ks = scalar(k);
		if (ks && !strcmp(ks, "grid")) {
			grid = v;
		} else if (ks && !strcmp(ks, "points")) {
			points = v;
		} else if (ks && !strcmp(ks, "scenario")) {
			if (!scalar(v)) {
				err(&w, v, "sweep-structure", "%s", "scenario is one scenario's name");
				continue;
			}
			if (strcmp(scalar(v), "base") != 0)
				s->scenario = arena_strdup(c->arena, scalar(v));
			s->scenario_loc = node_loc(&w, v);
		} else if (ks) {
			unknown_key(&w, k, top_keys, 3, "at the top of a sweep");
		} else {
			err(&w, k, "sweep-structure", "%s", "the keys of a sweep are plain names");
		}
	}
	if (!grid && !points && !w.errors)
		err(&w, root, "sweep-structure", "%s", "a sweep needs a grid or points");
	if (grid)
		read_grid(&w, grid);
	if (points) {
		if (points->kind != YR_SEQUENCE) {
			err(&w, points, "sweep-structure", "%s", "points is a list of points");
		} else {
			int number = 1;
			ITEMS(points, it)
				read_point(&w, points->values[it], number++);
		}
	}
	/* Names are the rows' keys: no two alike. */
	for (int i = 0; i < w.points.n; i++) {
		SweepPoint *p = w.points.v[i];
		if (!p->scenario && s->scenario)
			p->scenario = s->scenario, p->scenario_loc = s->scenario_loc;
		Loc at = p->name_loc.src ? p->name_loc : p->loc;
		if (strcmp(p->name, "base") == 0) {
			Diag *d = diag_error(c, at, "'base' names the design without a scenario; give "
						    "the point another name");
			diag_set_code(d, "sweep-duplicate");
			w.errors++;
		}
		for (int j = 0; j < i; j++) {
			SweepPoint *q = w.points.v[j];
			if (strcmp(p->name, q->name) != 0)
				continue;
			Diag *d = diag_error(c, at, "two points of the sweep are named '%s'", p->name);
			diag_set_code(d, "sweep-duplicate");
			diag_note(d, q->name_loc.src ? q->name_loc : q->loc, "the other one");
			w.errors++;
			break;
		}
	}
	s->points = (SweepPoint **)w.points.v;
	s->npoints = w.points.n;
	if (s->npoints > MAX_POINTS && !w.errors) {
		diag_error(c, (Loc){src, 0, 0}, "the sweep has %d points; a sweep has at most %d",
			   s->npoints, MAX_POINTS);
		w.errors++;
	}
	return w.errors;
}
