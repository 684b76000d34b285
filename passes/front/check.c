/*
 * check.c — the fourth pass: every value against its schema.
 *
 * For each field of each declaration: the value's shape (a quantity, a name, COUNT x NAME, a
 * list, a constructor call...), its dimension (power, money per energy...), the kind of the
 * declarations it names, its range (positive, a fraction, at least 1), and whether it may be
 * left open (one_of, ranges and auto only where the schema says the optimizer decides). The
 * result is a Value stored on the field for the passes after this one.
 *
 * Then: required fields on every declaration in use (reachable from a cluster or workload, or
 * every declaration of a library file), a few consistency rules the schema cannot express
 * (a model's heads divide its hidden size ...), every scenario's overrides against the field they
 * set, and the dimensions of require and objective expressions.
 */
#include "passes.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

typedef struct Checker {
	Program *p;
	Ctx *c;
} Checker;

static bool check_value(Checker *k, const Expr *e, const FieldSchema *fs, Value **out);

static Value *new_value(Checker *k, ValueKind kind, Loc loc)
{
	Value *v = arena_alloc(k->c->arena, sizeof *v);
	v->kind = kind;
	v->loc = loc;
	return v;
}

static Diag *type_error(Checker *k, const Expr *e, const FieldSchema *fs, const char *expected)
{
	Diag *d = diag_error(k->c, e->loc, "'%s' must be %s, not %s", fs->name, expected,
			     eval_describe(e));
	diag_set_code(d, "type");
	return d;
}

/* A unit to show in "add a unit, as in ..." advice. */
static const char *sample_unit(const FieldSchema *fs)
{
	static const struct {
		Dim dim;
		const char *unit;
	} samples[] = {
		{{.e = {[DIM_ENERGY] = 1, [DIM_TIME] = -1}}, "10 kW"},
		{{.e = {[DIM_ENERGY] = 1}}, "100 kWh"},
		{{.e = {[DIM_DATA] = 1, [DIM_TIME] = -1}}, "400 Gbps"},
		{{.e = {[DIM_DATA] = 1}}, "80 GB"},
		{{.e = {[DIM_LENGTH] = 1}}, "3 m"},
		{{.e = {[DIM_TIME] = 1}}, "30 d"},
		{{.e = {[DIM_FLOP] = 1, [DIM_TIME] = -1}}, "989 TFLOPS"},
		{{.e = {[DIM_MASS] = 1}}, "20 kg"},
		{{.e = {[DIM_MASS] = 1, [DIM_ENERGY] = -1}}, "0.5 kg/kWh"},
	};
	if (strcmp(fs->name, "height") == 0 || strcmp(fs->name, "reserved") == 0)
		return "8 U";
	if (fs->money_exp) {
		if (dim_is_none(fs->dim))
			return "25_000 USD";
		if (dim_eq(fs->dim, samples[1].dim) || fs->dim.e[DIM_ENERGY] == -1) {
			if (fs->dim.e[DIM_TIME] == 1)
				return "300 USD/kW";
			return "0.10 USD/kWh";
		}
		if (fs->dim.e[DIM_LENGTH] == -1)
			return "2 USD/m";
		return "1000 USD/y";
	}
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
		if (dim_eq(samples[i].dim, fs->dim))
			return samples[i].unit;
	return NULL;
}

static bool dim_matches(const FieldSchema *fs, Dim d)
{
	if (!fs->money_exp)
		return dim_eq(fs->dim, d);
	return dim_currency(d) >= 0 && dim_money_exp(d) == fs->money_exp &&
	       dim_eq(dim_strip_money(d), fs->dim);
}

static const char *expected_dim_name(const FieldSchema *fs, char *buf, size_t n)
{
	return field_type_name(fs, buf, n);
}

/* Checks the flags that bound a number; `unitless` says it was written without a unit. */
static bool check_bounds(Checker *k, const FieldSchema *fs, double v, Loc loc, bool unitless)
{
	const char *why = NULL;
	if ((fs->flags & F_POSITIVE) && !(v > 0))
		why = "greater than zero";
	else if ((fs->flags & F_NONNEG) && v < 0)
		why = "zero or more";
	else if ((fs->flags & F_FRACTION) && (fs->flags & F_NONNEG) && !(v >= 0 && v <= 1))
		why = "between 0 and 1, or 0 % and 100 %";
	else if ((fs->flags & F_FRACTION) && !(fs->flags & F_NONNEG) && !(v > 0 && v <= 1))
		why = "between 0 (excluded) and 1, or 0 % and 100 %";
	else if ((fs->flags & F_ATLEAST1) && v < 1)
		why = "at least 1";
	if (!why)
		return true;
	Diag *d = diag_error(k->c, loc, "'%s' must be %s", fs->name, why);
	diag_set_code(d, "out-of-range");
	if ((fs->flags & F_FRACTION) && unitless && v > 1 && v <= 100)
		diag_note(d, NOLOC, "a percentage is written with %%, as in %g %%", v);
	return false;
}

static bool whole(double v)
{
	return isfinite(v) && v == floor(v) && fabs(v) < 9.007199254740992e15;
}

/* Memory and storage sizes in bits are almost always bytes misspelt (Gb for GB). */
static void warn_bits(Checker *k, const Expr *e, const FieldSchema *fs)
{
	if (e->kind != EXPR_NUMBER || !e->num.unit || fs->type != FT_QTY ||
	    !dim_eq(fs->dim, dim_make(0, 0, 0, 0, 1, 0)))
		return;
	const char *u = e->num.unit;
	size_t n = strlen(u);
	bool bits = (n >= 1 && u[n - 1] == 'b') || (n >= 3 && strcmp(u + n - 3, "bit") == 0);
	if (!bits)
		return;
	Diag *d = diag_warning(k->c, e->num.unit_loc, "'%s' is in bits ('%s'); sizes of memory and "
						     "storage are usually in bytes (B)",
			       fs->name, u);
	diag_set_code(d, "bits-for-bytes");
}

/* A plain number written with a letter of magnitude: 300B, 2G. */
static void hint_magnitude(Diag *d, const Expr *e)
{
	static const struct {
		const char *unit, *hint;
	} letters[] = {{"B", "B means bytes; write 300e9 for 300 billion"},
		       {"G", "write 2e9 for 2 billion"},
		       {"M", "write 2e6 for 2 million"},
		       {"T", "write 2e12 for 2 trillion"},
		       {"K", "write 2e3 for 2 thousand"},
		       {"k", "write 2e3 for 2 thousand"}};
	if (e->kind != EXPR_NUMBER || !e->num.unit)
		return;
	for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
		if (strcmp(e->num.unit, letters[i].unit) == 0)
			diag_note(d, NOLOC, "%s", letters[i].hint);
}

static bool check_number(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	Qty q;
	if (!eval_qty(k->p, e, &q))
		return false;
	char want[128], got[96];
	if (fs->type == FT_INT || fs->type == FT_REAL || fs->type == FT_INTLIST) {
		if (!dim_is_none(q.dim)) {
			Diag *d = diag_error(k->c, e->loc, "'%s' must be a plain number, not %s",
					     fs->name, dim_name(q.dim, got, sizeof got));
			diag_set_code(d, "dimension-mismatch");
			hint_magnitude(d, e);
			return false;
		}
		if ((fs->type == FT_INT || fs->type == FT_INTLIST) && !whole(q.v)) {
			/* Past 2^53 a double no longer counts one by one. */
			bool huge = isfinite(q.v) && q.v == floor(q.v);
			Diag *d = huge ? diag_error(k->c, e->loc, "'%s' is too large to count (the limit "
								 "is 2^53, about 9e15)", fs->name)
				       : diag_error(k->c, e->loc, "'%s' must be a whole number", fs->name);
			diag_set_code(d, huge ? "out-of-range" : "not-whole");
			return false;
		}
	} else if (!dim_matches(fs, q.dim)) {
		expected_dim_name(fs, want, sizeof want);
		Diag *d;
		const char *sample = sample_unit(fs);
		if (dim_is_none(q.dim) && sample)
			d = diag_error(k->c, e->loc, "'%s' must be %s: add a unit, as in %s", fs->name,
				       want, sample);
		else
			d = diag_error(k->c, e->loc, "'%s' must be %s, not %s", fs->name, want,
				       dim_name(q.dim, got, sizeof got));
		diag_set_code(d, "dimension-mismatch");
		return false;
	}
	if (!check_bounds(k, fs, q.v, e->loc, e->kind == EXPR_NUMBER && !e->num.unit))
		return false;
	warn_bits(k, e, fs);
	Value *v = new_value(k, VAL_QTY, e->loc);
	v->q = q;
	*out = v;
	return true;
}

/* "a" or "an" before a word, by its first letter. */
static const char *article(const char *w)
{
	return strchr("aeiouAEIOU", w[0]) && w[0] ? "an" : "a";
}

static bool check_ref(Checker *k, const Expr *e, const FieldSchema *fs, unsigned kinds, Value **out)
{
	char want[128];
	FieldSchema tmp = *fs;
	tmp.type = FT_REF;
	tmp.kinds = kinds;
	field_type_name(&tmp, want, sizeof want);
	if (e->kind != EXPR_NAME) {
		char what[160];
		snprintf(what, sizeof what, "the name of %s %s", article(want), want);
		type_error(k, e, fs, what);
		return false;
	}
	Decl *d = resolve_decl_name(k->p, e->name, e->loc, kinds, want);
	if (!d)
		return false;
	if (d->kind < 0 || !(kinds & (1u << d->kind))) {
		Diag *dg = diag_error(k->c, e->loc, "'%s' must be %s %s, but '%s' is %s %s", fs->name,
				      article(want), want, d->name, article(decl_kind_name(d->kind)),
				      decl_kind_name(d->kind));
		diag_set_code(dg, "kind-mismatch");
		diag_note(dg, d->name_loc, "'%s' is declared here", d->name);
		return false;
	}
	Value *v = new_value(k, VAL_REF, e->loc);
	v->ref = d;
	*out = v;
	return true;
}

static bool check_enum(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	int n = 0;
	while (fs->enums[n])
		n++;
	if (e->kind == EXPR_NAME) {
		for (int i = 0; i < n; i++) {
			if (strcmp(fs->enums[i], e->name) == 0) {
				Value *v = new_value(k, VAL_ENUM, e->loc);
				v->s = e->name;
				v->e = enum_lookup(fs->enum_family, e->name);
				*out = v;
				return true;
			}
		}
	}
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", fs->enums[i]);
	const char *s = e->kind == EXPR_NAME ? suggest(e->name, fs->enums, n) : NULL;
	Diag *d;
	if (s)
		d = diag_error(k->c, e->loc, "'%s' is not a valid '%s'; did you mean '%s'?", e->name,
			       fs->name, s);
	else if (e->kind == EXPR_NAME)
		d = diag_error(k->c, e->loc, "'%s' is not a valid '%s': expected %s", e->name,
			       fs->name, b.s);
	else
		d = diag_error(k->c, e->loc, "'%s' must be one of %s, not %s", fs->name, b.s,
			       eval_describe(e));
	buf_free(&b);
	diag_set_code(d, "unknown-enum");
	if (s)
		diag_set_suggestion(d, s);
	return false;
}

static bool check_currency(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	if (e->kind == EXPR_NAME && currency_lookup(e->name) >= 0) {
		Value *v = new_value(k, VAL_ENUM, e->loc);
		v->s = e->name;
		v->e = -1;
		*out = v;
		return true;
	}
	if (e->kind != EXPR_NAME) {
		type_error(k, e, fs, "a currency code such as USD or CNY");
		return false;
	}
	const char *s = suggest(e->name, currency_names, currency_count);
	if (!s && (!strcmp(e->name, "RMB") || !strcmp(e->name, "yuan")))
		s = "CNY";
	Buf list = {0};
	for (int i = 0; i < currency_count; i++)
		buf_printf(&list, "%s%s", i ? ", " : "", currency_names[i]);
	Diag *d = s ? diag_error(k->c, e->loc, "unknown currency '%s'; did you mean '%s'?", e->name, s)
		    : diag_error(k->c, e->loc, "unknown currency '%s'; the currencies are %s", e->name,
				 list.s);
	buf_free(&list);
	diag_set_code(d, "unknown-currency");
	if (s)
		diag_set_suggestion(d, s);
	return false;
}

/* Placeholders: {name} or {name:SPEC} with SPEC one of 0N (zero-padded), N (width), A or a
 * (letters: 1 is A). {{ and }} are literal braces. Hostnames allow letters, digits and '-'. */
static bool check_template(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	if (e->kind != EXPR_STRING) {
		type_error(k, e, fs, "a string such as \"gpu{index:04}\"");
		return false;
	}
	const char *t = e->str.text;
	uint32_t base = e->loc.off + 1;
	bool ok = true;
	int placeholders = 0;
	for (size_t i = 0; t[i]; i++) {
		char ch = t[i];
		Loc at = {e->loc.src, base + (uint32_t)i, base + (uint32_t)i + 1};
		if ((ch == '{' || ch == '}') && t[i + 1] == ch) {
			if (ok && strcmp(fs->name, "hostname") == 0) {
				Diag *d = diag_error(k->c, at, "a hostname may only contain letters, "
							       "digits, '-' and '.' (RFC 1123)");
				diag_set_code(d, "template");
				ok = false;
			}
			i++;
			continue;
		}
		if (ch == '}') {
			Diag *d = diag_error(k->c, at, "unmatched '}' in template (write '}}' for a brace)");
			diag_set_code(d, "template");
			return false;
		}
		if (ch != '{') {
			bool good = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				    (ch >= '0' && ch <= '9') || ch == '-' || ch == '.';
			if (!good && ok && strcmp(fs->name, "hostname") == 0) {
				Diag *d = diag_error(k->c, at, "a hostname may only contain letters, "
							       "digits, '-' and '.' (RFC 1123)");
				diag_set_code(d, "template");
				ok = false;
			}
			continue;
		}
		const char *close = strchr(t + i, '}');
		if (!close) {
			Diag *d = diag_error(k->c, at, "'{' in template is never closed");
			diag_set_code(d, "template");
			return false;
		}
		const char *name = t + i + 1;
		const char *colon = memchr(name, ':', (size_t)(close - name));
		size_t nlen = (size_t)((colon ? colon : close) - name);
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)(nlen < 63 ? nlen : 63), name);
		Loc wl = {e->loc.src, base + (uint32_t)(name - t), base + (uint32_t)(name - t + (long)nlen)};
		int n = 0;
		bool known = false;
		for (; fs->enums[n]; n++)
			known |= strcmp(fs->enums[n], word) == 0;
		if (!known) {
			const char *s = suggest(word, fs->enums, n);
			Buf b = {0};
			for (int j = 0; j < n; j++)
				buf_printf(&b, "%s%s", j ? ", " : "", fs->enums[j]);
			Diag *d = s ? diag_error(k->c, wl, "unknown placeholder '{%s}'; did you mean '{%s}'?",
						 word, s)
				    : diag_error(k->c, wl, "unknown placeholder '{%s}'; the placeholders are %s",
						 word, b.s);
			buf_free(&b);
			diag_set_code(d, "template");
			if (s)
				diag_set_suggestion(d, s);
			ok = false;
		}
		if (colon) {
			const char *spec = colon + 1;
			size_t slen = (size_t)(close - spec);
			bool good = slen > 0;
			if (slen == 1 && (spec[0] == 'A' || spec[0] == 'a'))
				good = true;
			else
				for (size_t j = 0; j < slen; j++)
					good &= spec[j] >= '0' && spec[j] <= '9' && j < 3;
			if (!good) {
				Loc sl = {e->loc.src, base + (uint32_t)(spec - t), base + (uint32_t)(close - t)};
				Diag *d = diag_error(k->c, sl, "bad format '%.*s': use 04 (zero-padded "
							       "width), 4 (width), A or a (letters)",
						     (int)(slen < 40 ? slen : 40), spec);
				diag_set_code(d, "template");
				ok = false;
			}
		}
		placeholders++;
		i = (size_t)(close - t);
	}
	if (ok && placeholders == 0 && strcmp(fs->name, "hostname") == 0) {
		Diag *d = diag_error(k->c, e->loc, "a hostname template needs a placeholder such as "
						   "{index}, or every node gets the same name");
		diag_set_code(d, "template");
		ok = false;
	}
	if (!ok)
		return false;
	Value *v = new_value(k, VAL_STRING, e->loc);
	v->s = e->str.value;
	*out = v;
	return true;
}

/* COUNT x NAME, NAME (one), or a list of these. The count is fixed unless the field is
 * choosable, when it may be a range, one_of(...) or auto. */
static bool check_counted_one(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	Value *v = new_value(k, VAL_COUNTED, e->loc);
	const Expr *name = e;
	if (e->kind == EXPR_TIMES) {
		name = e->bin.r;
		FieldSchema count = {.name = fs->name, .type = FT_INT, .flags = F_POSITIVE | (fs->flags & F_CHOOSABLE)};
		if (!check_value(k, e->bin.l, &count, &v->count))
			return false;
	} else if (e->kind == EXPR_NAME) {
		v->count = new_value(k, VAL_QTY, e->loc);
		v->count->q = (Qty){1, DIM_NONE};
	} else {
		char want[128], what[160];
		field_type_name(fs, want, sizeof want);
		snprintf(what, sizeof what, "%s", want);
		type_error(k, e, fs, what);
		return false;
	}
	Value *ref;
	if (!check_ref(k, name, fs, fs->kinds, &ref))
		return false;
	v->ref = ref->ref;
	*out = v;
	return true;
}

static bool check_list(Checker *k, const Expr *e, const FieldSchema *fs, const FieldSchema *item,
		       bool (*each)(Checker *, const Expr *, const FieldSchema *, Value **), Value **out)
{
	if (e->kind != EXPR_LIST) {
		char want[128], what[256];
		field_type_name(fs, want, sizeof want);
		if (e->kind == EXPR_NAME || e->kind == EXPR_NUMBER) {
			int n = (int)(e->loc.end - e->loc.off);
			snprintf(what, sizeof what, "a %s in brackets, as in [%.*s]", want, n > 60 ? 60 : n,
				 e->loc.src->text + e->loc.off);
		} else {
			snprintf(what, sizeof what, "a %s in brackets", want);
		}
		type_error(k, e, fs, what);
		return false;
	}
	Value *v = new_value(k, VAL_LIST, e->loc);
	v->n = e->list.n;
	v->items = arena_alloc(k->c->arena, sizeof(Value *) * (size_t)(v->n + 1));
	bool ok = true;
	for (int i = 0; i < e->list.n; i++)
		ok &= each(k, e->list.items[i], item, &v->items[i]);
	*out = v;
	return ok;
}

static bool check_rate(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	Qty q;
	if (!eval_qty(k->p, e, &q))
		return false;
	int plus = -1, minus = -1, others = 0;
	for (int i = 0; i < DIM_COUNT; i++) {
		if (!q.dim.e[i])
			continue;
		if (i >= DIM_FIRST_CURRENCY && q.dim.e[i] == 1 && plus < 0)
			plus = i;
		else if (i >= DIM_FIRST_CURRENCY && q.dim.e[i] == -1 && minus < 0)
			minus = i;
		else
			others++;
	}
	if (plus < 0 || minus < 0 || others) {
		char got[96];
		Diag *d = diag_error(k->c, e->loc, "an exchange rate is money per money, as in "
						   "7.1 CNY/USD, not %s",
				     dim_name(q.dim, got, sizeof got));
		diag_set_code(d, "dimension-mismatch");
		return false;
	}
	if (!check_bounds(k, &(FieldSchema){.name = fs->name, .flags = F_POSITIVE}, q.v, e->loc, false))
		return false;
	Value *v = new_value(k, VAL_QTY, e->loc);
	v->q = q;
	*out = v;
	return true;
}

static bool check_ratio_one(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	FieldSchema num = {.name = fs->name, .type = FT_REAL, .flags = F_POSITIVE};
	Value *a, *b;
	if (e->kind == EXPR_RATIO) {
		bool ok = check_value(k, e->bin.l, &num, &a);
		ok &= check_value(k, e->bin.r, &num, &b);
		if (!ok)
			return false;
	} else if (e->kind == EXPR_NUMBER || e->kind == EXPR_PAREN || e->kind == EXPR_NEG ||
		   (e->kind >= EXPR_ADD && e->kind <= EXPR_DIV)) {
		if (!check_value(k, e, &num, &a))
			return false;
		b = new_value(k, VAL_QTY, e->loc);
		b->q = (Qty){1, DIM_NONE};
	} else {
		type_error(k, e, fs, "a ratio such as 1:1 or 3:1");
		return false;
	}
	Value *v = new_value(k, VAL_RATIO, e->loc);
	v->a = a->q.v;
	v->b = b->q.v;
	v->q = (Qty){a->q.v / b->q.v, DIM_NONE};
	*out = v;
	return true;
}

static bool check_ctor(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	if (e->kind == EXPR_NAME && fs->kinds)
		return check_ref(k, e, fs, fs->kinds, out);
	const char *fam = ctor_family_name(fs->family);
	const char *names[16];
	int nn = 0;
	for (int i = 0; i < ctor_count && nn < 16; i++)
		if (ctor_schemas[i].family == fs->family)
			names[nn++] = ctor_schemas[i].name;
	if (e->kind != EXPR_CALL) {
		Buf b = {0};
		for (int i = 0; i < nn; i++)
			buf_printf(&b, "%s%s(...)", i == 0 ? "" : i == nn - 1 ? " or " : ", ", names[i]);
		char what[256];
		snprintf(what, sizeof what, "%s%s", b.s, fs->kinds ? " or a name" : "");
		buf_free(&b);
		type_error(k, e, fs, what);
		return false;
	}
	const CtorSchema *cs = ctor_lookup(e->call.name);
	if (cs && cs->family != fs->family) {
		Diag *d = diag_error(k->c, e->call.name_loc, "%s(...) is a %s constructor; '%s' takes a %s",
				     cs->name, ctor_family_name(cs->family), fs->name, fam);
		diag_set_code(d, "unknown-ctor");
		return false;
	}
	if (!cs) {
		const char *s = suggest(e->call.name, names, nn);
		Diag *d = s ? diag_error(k->c, e->call.name_loc, "unknown %s '%s'; did you mean '%s'?",
					 fam, e->call.name, s)
			    : diag_error(k->c, e->call.name_loc, "'%s' is not a %s constructor", e->call.name, fam);
		diag_set_code(d, "unknown-ctor");
		if (s)
			diag_set_suggestion(d, s);
		return false;
	}
	Value *v = new_value(k, VAL_CTOR, e->loc);
	v->ctor = cs;
	v->n = cs->nparams;
	v->items = arena_alloc(k->c->arena, sizeof(Value *) * (size_t)cs->nparams);
	bool ok = true;
	const Arg *seen[64] = {0};
	bool unnamed = false;
	for (int i = 0; i < e->call.nargs; i++) {
		const Arg *a = &e->call.args[i];
		if (!a->name) {
			Diag *d = diag_error(k->c, a->value->loc, "name the argument, as in %s = ...",
					     cs->params[i < cs->nparams ? i : 0].name);
			diag_set_code(d, "positional-arg");
			ok = false;
			unnamed = true;
			continue;
		}
		const FieldSchema *ps = ctor_param(cs, a->name);
		if (!ps) {
			const char *pn[32];
			for (int j = 0; j < cs->nparams && j < 32; j++)
				pn[j] = cs->params[j].name;
			const char *s = suggest(a->name, pn, cs->nparams < 32 ? cs->nparams : 32);
			Diag *d = s ? diag_error(k->c, a->name_loc, "%s has no parameter '%s'; did you mean '%s'?",
						 cs->name, a->name, s)
				    : diag_error(k->c, a->name_loc, "%s has no parameter '%s'", cs->name, a->name);
			diag_set_code(d, "unknown-param");
			if (s)
				diag_set_suggestion(d, s);
			ok = false;
			continue;
		}
		int idx = (int)(ps - cs->params);
		if (seen[idx]) {
			Diag *d = diag_error(k->c, a->name_loc, "'%s' is given twice", a->name);
			diag_set_code(d, "duplicate-field");
			diag_note(d, seen[idx]->name_loc, "first given here");
			ok = false;
			continue;
		}
		seen[idx] = a;
		ok &= check_value(k, a->value, ps, &v->items[idx]);
	}
	for (int j = 0; j < cs->nparams && !unnamed; j++) {
		if ((cs->params[j].flags & F_REQUIRED) && !seen[j]) {
			Diag *d = diag_error(k->c, e->loc, "%s needs '%s' (%s)", cs->name,
					     cs->params[j].name, cs->params[j].doc);
			diag_set_code(d, "missing-field");
			ok = false;
		}
	}
	*out = v;
	return ok;
}

static bool is_call(const Expr *e, const char *name)
{
	return e->kind == EXPR_CALL && strcmp(e->call.name, name) == 0;
}

/* one_of(...), a range or auto: only where the schema lets the optimizer decide. */
static bool check_choice(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	if (!(fs->flags & F_CHOOSABLE)) {
		Diag *d = diag_error(k->c, e->loc, "'%s' cannot be left to the optimizer: give one value",
				     fs->name);
		diag_set_code(d, "not-choosable");
		return false;
	}
	FieldSchema fixed = *fs;
	fixed.flags &= ~(unsigned)F_CHOOSABLE;
	if (e->kind == EXPR_AUTO) {
		*out = new_value(k, VAL_AUTO, e->loc);
		return true;
	}
	if (e->kind == EXPR_RANGE) {
		if (fs->type != FT_INT) {
			Diag *d = diag_error(k->c, e->loc, "a range is for whole numbers; use one_of(...) "
							   "for '%s'", fs->name);
			diag_set_code(d, "type");
			return false;
		}
		Value *lo, *hi, *step = NULL;
		bool ok = check_value(k, e->range.lo, &fixed, &lo);
		ok &= check_value(k, e->range.hi, &fixed, &hi);
		FieldSchema sfs = {.name = "step", .type = FT_INT, .flags = F_POSITIVE};
		if (e->range.step)
			ok &= check_value(k, e->range.step, &sfs, &step);
		if (!ok)
			return false;
		if (lo->q.v > hi->q.v) {
			Diag *d = diag_error(k->c, e->loc, "empty range: %g is more than %g", lo->q.v, hi->q.v);
			diag_set_code(d, "out-of-range");
			return false;
		}
		Value *v = new_value(k, VAL_RANGE, e->loc);
		v->lo = lo->q.v;
		v->hi = hi->q.v;
		v->step = step ? step->q.v : 1;
		*out = v;
		return true;
	}
	/* one_of */
	if (e->call.nargs == 0) {
		Diag *d = diag_error(k->c, e->loc, "one_of needs at least one option");
		diag_set_code(d, "empty-choice");
		return false;
	}
	Value *v = new_value(k, VAL_CHOICE, e->loc);
	v->n = e->call.nargs;
	v->items = arena_alloc(k->c->arena, sizeof(Value *) * (size_t)v->n);
	bool ok = true;
	for (int i = 0; i < e->call.nargs; i++) {
		const Arg *a = &e->call.args[i];
		if (a->name) {
			Diag *d = diag_error(k->c, a->name_loc, "the options of one_of have no names");
			diag_set_code(d, "type");
			ok = false;
			continue;
		}
		ok &= check_value(k, a->value, &fixed, &v->items[i]);
	}
	*out = v;
	return ok;
}

static bool check_value(Checker *k, const Expr *e, const FieldSchema *fs, Value **out)
{
	*out = NULL;
	if (e->kind == EXPR_ERROR)
		return false;
	if (e->kind == EXPR_PAREN && fs->type != FT_QTY && fs->type != FT_INT && fs->type != FT_REAL)
		return check_value(k, e->inner, fs, out);
	if (e->kind == EXPR_AUTO || e->kind == EXPR_RANGE || is_call(e, "one_of"))
		return check_choice(k, e, fs, out);
	switch (fs->type) {
	case FT_QTY:
	case FT_INT:
	case FT_REAL:
		return check_number(k, e, fs, out);
	case FT_BOOL:
		if (e->kind != EXPR_BOOL) {
			type_error(k, e, fs, "true or false");
			return false;
		}
		*out = new_value(k, VAL_BOOL, e->loc);
		(*out)->b_val = e->boolean;
		return true;
	case FT_STRING:
		if (e->kind != EXPR_STRING) {
			type_error(k, e, fs, "a string");
			return false;
		}
		*out = new_value(k, VAL_STRING, e->loc);
		(*out)->s = e->str.value;
		return true;
	case FT_TEMPLATE:
		return check_template(k, e, fs, out);
	case FT_REF:
		return check_ref(k, e, fs, fs->kinds, out);
	case FT_COUNTED:
		if (e->kind == EXPR_LIST)
			return check_list(k, e, fs, fs, check_counted_one, out);
		return check_counted_one(k, e, fs, out);
	case FT_REFLIST: {
		FieldSchema item = *fs;
		item.type = FT_REF;
		return check_list(k, e, fs, &item, check_value, out);
	}
	case FT_QTYLIST:
	case FT_INTLIST: {
		FieldSchema item = *fs;
		item.type = fs->type == FT_QTYLIST ? FT_QTY : FT_INT;
		return check_list(k, e, fs, &item, check_value, out);
	}
	case FT_ENUM:
		return check_enum(k, e, fs, out);
	case FT_ENUMLIST: {
		FieldSchema item = *fs;
		item.type = FT_ENUM;
		return check_list(k, e, fs, &item, check_value, out);
	}
	case FT_CURRENCY:
		return check_currency(k, e, fs, out);
	case FT_RATES:
		return check_list(k, e, fs, fs, check_rate, out);
	case FT_RATIO:
		if (e->kind == EXPR_LIST)
			return check_list(k, e, fs, fs, check_ratio_one, out);
		return check_ratio_one(k, e, fs, out);
	case FT_CTOR:
		return check_ctor(k, e, fs, out);
	}
	return false;
}

/* ---- declarations ----------------------------------------------------------------------------- */

static void check_fields(Checker *k, Decl *d)
{
	if (d->kind < 0)
		return;
	for (int i = 0; i < d->nfields; i++) {
		Field *f = d->fields[i];
		const FieldSchema *fs = schema_field(d->kind, f->name);
		if (!fs || (fs->flags & F_READONLY))
			continue; /* reported by resolve */
		check_value(k, f->value, fs, &f->val);
		/* The parts an override replaced in a node with a bundle price: parts.c prices the
		 * difference. A field replaced in this declaration is checked here; an inherited
		 * one was checked with its own declaration. */
		for (Field *r = f->replaced; d->kind == KIND_NODE && r && !r->val; r = r->replaced)
			check_value(k, r->value, fs, &r->val);
		if (diag_limit_reached(k->c))
			return;
	}
}

static void mark_used(Checker *k, Decl *d);

static void mark_value(Checker *k, const Value *v)
{
	if (!v)
		return;
	if (v->ref)
		mark_used(k, v->ref);
	if (v->count)
		mark_value(k, v->count);
	for (int i = 0; i < v->n; i++)
		mark_value(k, v->items[i]);
}

static void mark_used(Checker *k, Decl *d)
{
	if (d->used)
		return;
	d->used = true;
	for (const Decl *a = d; a; a = a->parent)
		for (int i = 0; i < a->nfields; i++)
			mark_value(k, a->fields[i]->val);
}

/* The declarations an expression reads (DECL.ATTRIBUTE), in use. */
static void mark_expr(Checker *k, const Expr *e)
{
	switch (e->kind) {
	case EXPR_MEMBER: {
		const Expr *b = e->member.base;
		while (b->kind == EXPR_MEMBER)
			b = b->member.base;
		Decl *d = b->kind == EXPR_NAME ? table_get(&k->p->names, b->name) : NULL;
		if (d)
			mark_used(k, d);
		break;
	}
	case EXPR_PAREN:
	case EXPR_NEG: mark_expr(k, e->inner); break;
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV:
		mark_expr(k, e->bin.l);
		mark_expr(k, e->bin.r);
		break;
	default: break;
	}
}

static void check_required(Checker *k, Decl *d)
{
	/* After a misspelt field or a missing parent, "needs X" would only repeat that error. */
	for (const Decl *a = d; a; a = a->parent)
		if (a->incomplete)
			return;
	const KindSchema *ks = &kind_schemas[d->kind];
	for (int i = 0; i < ks->nfields; i++) {
		const FieldSchema *fs = &ks->fields[i];
		if (!(fs->flags & F_REQUIRED) || decl_field(d, fs->name))
			continue;
		Diag *dg = diag_error(k->c, d->name_loc, "%s '%s' needs '%s' (%s)", decl_kind_name(d->kind),
				      d->name, fs->name, fs->doc);
		diag_set_code(dg, "missing-field");
		if (d->parent)
			diag_note(dg, d->parent->name_loc, "'%s' inherits from '%s', which does not set it either",
				  d->name, d->parent->name);
	}
	/* A node's price is a bundle (price) or follows its parts from chassis_price: one of the
	 * two, which no single field's flags can say. */
	if (d->kind == KIND_NODE && !decl_field(d, "price") && !decl_field(d, "chassis_price")) {
		Diag *dg = diag_error(k->c, d->name_loc,
				      "node '%s' needs 'price' (the bundle's) or 'chassis_price' (the "
				      "price then follows its accelerators, NICs and CPUs)",
				      d->name);
		diag_set_code(dg, "missing-field");
	}
	/* A cooling's power is its plant's, or its partial PUE when it lists no plant. */
	if (d->kind == KIND_COOLING && !decl_field(d, "pue")) {
		const Value *plant = decl_value(d, "plant");
		if (!plant || plant->kind != VAL_LIST || plant->n == 0) {
			Diag *dg = diag_error(k->c, d->name_loc,
					      "cooling '%s' needs 'plant' (its CDUs, chillers ... whose "
					      "power gives its PUE) or 'pue' (a partial PUE)",
					      d->name);
			diag_set_code(dg, "missing-field");
		}
	}
}

static double int_param(const Value *ctor, const char *name, double def)
{
	const FieldSchema *ps = ctor_param(ctor->ctor, name);
	if (!ps)
		return def;
	const Value *v = ctor->items[ps - ctor->ctor->params];
	return v && v->kind == VAL_QTY ? v->q.v : def;
}

/* Rules across fields that a schema cannot say. */
/* Where a constructor's parameter was written, for a caret on it; `at` when it was not. */
static Loc param_loc(const Value *ctor, const char *name, Loc at)
{
	const FieldSchema *ps = ctor_param(ctor->ctor, name);
	const Value *v = ps ? ctor->items[ps - ctor->ctor->params] : NULL;
	return v ? v->loc : at;
}

static void inconsistent(Checker *k, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void inconsistent(Checker *k, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(k->c->arena, fmt, ap);
	va_end(ap);
	diag_set_code(diag_error(k->c, loc, "%s", msg), "inconsistent");
}

static void check_model(Checker *k, const Value *m, Loc at)
{
	double hidden = int_param(m, "hidden", 0), heads = int_param(m, "heads", 0);
	double groups = int_param(m, "query_groups", heads), experts = int_param(m, "experts", 1);
	double top_k = int_param(m, "top_k", 1);
	bool head_dim = int_param(m, "head_dim", 0) > 0;
	if (!head_dim && hidden > 0 && heads > 0 && fmod(hidden, heads) != 0)
		inconsistent(k, param_loc(m, "heads", at),
			     "hidden size %g is not divisible by %g heads (or give head_dim)", hidden, heads);
	if (heads > 0 && groups > 0 && fmod(heads, groups) != 0)
		inconsistent(k, param_loc(m, "query_groups", at),
			     "%g heads cannot be split into %g query groups", heads, groups);
	if (top_k > experts)
		inconsistent(k, param_loc(m, "top_k", at), "top_k %g is more than the %g experts",
			     top_k, experts);
	double layers = int_param(m, "layers", 0), dense = int_param(m, "dense_layers", 0);
	if (dense >= layers && layers > 0 && experts > 1)
		inconsistent(k, param_loc(m, "dense_layers", at),
			     "all %g layers are dense: dense_layers must be fewer than layers", layers);
	if (strcmp(m->ctor->name, "moe") == 0 && experts < 2)
		inconsistent(k, param_loc(m, "experts", at),
			     "moe(...) needs experts of 2 or more; use transformer(...) for a dense model");
	/* Under --multi-latent-attention, Megatron-Core's --qk-layernorm gives MLA's latents their
	 * norms (gpt_layer_specs.py builds the up-projections as LayerNorm linears when
	 * qk_layernorm; NVIDIA/Megatron-LM at 00611e6, 2026-12), not a norm of each head: an MLA
	 * model has them always (parallelism.c writes the flag), and no QK norms. */
	const FieldSchema *qs = ctor_param(m->ctor, "qk_norm");
	const Value *qk = qs ? m->items[qs - m->ctor->params] : NULL;
	if (qk && qk->kind == VAL_BOOL && qk->b_val && int_param(m, "kv_lora_rank", 0) > 0)
		inconsistent(k, qk->loc, "qk_norm is a norm of standard attention's heads; a model "
					 "with kv_lora_rank (MLA) normalizes its latents instead");
	/* The MTP loss's weight scales the loss of modules the model must have (Megatron-LM's
	 * --mtp-loss-scaling-factor is read only with --mtp-num-layers). */
	const FieldSchema *ws = ctor_param(m->ctor, "mtp_loss_weight");
	const Value *mw = ws ? m->items[ws - m->ctor->params] : NULL;
	if (mw && int_param(m, "mtp_layers", 0) <= 0)
		inconsistent(k, mw->loc, "mtp_loss_weight weighs the multi-token prediction loss; "
					 "the model has no mtp_layers");
	/* The planner counts these in int (its divisors and candidates, passes/plan/plan_search.c):
	 * past INT_MAX a count would wrap and the search read a wrong value. */
	static const char *const counted[] = {"seq", "heads", "experts"};
	for (int i = 0; i < 3; i++) {
		double v = int_param(m, counted[i], 0);
		if (v > INT_MAX)
			diag_set_code(diag_error(k->c, param_loc(m, counted[i], at),
						 "'%s' of %g is more than the planner counts (the limit "
						 "is %d)", counted[i], v, INT_MAX),
				      "out-of-range");
	}
	/* Megatron-LM refuses MTP modules with learned absolute positions: its argument checks
	 * assert a position_embedding_type of rope or none with --mtp-num-layers ("Multi-Token
	 * Prediction (MTP) is not supported with ... position embedding type", validate_args in
	 * megatron/training/arguments.py, NVIDIA/Megatron-LM, 2025-2026). */
	const FieldSchema *ps = ctor_param(m->ctor, "position");
	const Value *pos = ps ? m->items[ps - m->ctor->params] : NULL;
	if (int_param(m, "mtp_layers", 0) > 0 &&
	    !(pos && pos->kind == VAL_ENUM && pos->s && strcmp(pos->s, "rope") == 0))
		inconsistent(k, param_loc(m, "mtp_layers", at),
			     "multi-token prediction modules need rotary positions (position = rope): "
			     "Megatron-LM refuses them with learned positions%s",
			     pos ? "" : ", the default");
}

/* "a.b.c.d/len", each part in range and the address on its network boundary. */
bool check_parse_cidr(const char *s, uint32_t *net, int *len)
{
	unsigned a[4], l;
	char tail;
	if (sscanf(s, "%u.%u.%u.%u/%u%c", &a[0], &a[1], &a[2], &a[3], &l, &tail) != 5)
		return false;
	if (a[0] > 255 || a[1] > 255 || a[2] > 255 || a[3] > 255 || l > 32)
		return false;
	uint32_t addr = a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];
	uint32_t mask = l ? ~0u << (32 - l) : 0;
	if (addr & ~mask)
		return false;
	*net = addr;
	*len = (int)l;
	return true;
}

static void check_consistency(Checker *k, Decl *d)
{
	if (d->kind == KIND_RACK) {
		const Value *h = decl_value(d, "height"), *r = decl_value(d, "reserved");
		if (h && r && h->kind == VAL_QTY && r->kind == VAL_QTY && r->q.v >= h->q.v) {
			Diag *dg = diag_error(k->c, r->loc, "the reserved space leaves no room in a rack of "
							    "this height");
			diag_set_code(dg, "inconsistent");
		}
	}
	if (d->kind == KIND_SITE) {
		/* A year has 8,760 hours; a share of the heat is at most all of it. */
		static const char *const bounded[] = {"free_cooling_hours", "heat_reuse"};
		/* The 0.4 % design wet-bulb is above the annual mean. */
		const Value *mean = decl_value(d, "wet_bulb_mean"), *design = decl_value(d, "wet_bulb_design");
		if (mean && design && mean->kind == VAL_QTY && design->kind == VAL_QTY &&
		    design->q.v <= mean->q.v) {
			Diag *dg = diag_error(k->c, design->loc, "the design wet-bulb (exceeded 35 hours a "
								 "year) must be above the annual mean %g",
					      mean->q.v);
			diag_set_code(dg, "inconsistent");
		} else if (!mean != !design) {
			const Value *v = mean ? mean : design;
			Diag *dg = diag_error(k->c, v->loc, "'%s' needs '%s' too: the free-cooling hours "
							    "follow from both",
					      mean ? "wet_bulb_mean" : "wet_bulb_design",
					      mean ? "wet_bulb_design" : "wet_bulb_mean");
			diag_set_code(dg, "missing-field");
		}
		static const double most[] = {8760, 1};
		for (int i = 0; i < 2; i++) {
			const Value *v = decl_value(d, bounded[i]);
			if (v && v->kind == VAL_QTY && v->q.v > most[i]) {
				Diag *dg = diag_error(k->c, v->loc, "'%s' is at most %g", bounded[i], most[i]);
				diag_set_code(dg, "out-of-range");
			}
		}
	}
	if (d->kind == KIND_NODE && !decl_value(d, "cpus")) {
		/* The model and cores of CPUs nobody counted would reach no BOM line. */
		static const char *const of_cpus[] = {"cpu_model", "cpu_cores"};
		for (int i = 0; i < 2; i++) {
			const Value *v = decl_value(d, of_cpus[i]);
			if (v) {
				Diag *dg = diag_error(k->c, v->loc, "'%s' describes the node's CPUs but "
								    "'cpus' does not count them",
						      of_cpus[i]);
				diag_set_code(dg, "missing-field");
			}
		}
	}
	/* A cluster without zones stands its nodes in racks of `rack`; with zones, each zone
	 * names its own (a zone's rack is required by the schema). */
	if (d->kind == KIND_CLUSTER && !decl_field(d, "rack") && !decl_field(d, "zones")) {
		Diag *dg = diag_error(k->c, d->name_loc, "cluster '%s' needs 'rack' (the rack type) "
							 "or 'zones' (rack zones, each with its own)",
				      d->name);
		diag_set_code(dg, "missing-field");
	}
	/* Block redundancy ("m make m-1") needs two blocks at least: with one, a failure leaves
	 * nothing to carry the load (power_chain.c would size it as 2N by accident). */
	const Value *red = d->kind == KIND_POWER_STAGE ? decl_value(d, "redundancy") : NULL;
	if (red && red->kind == VAL_ENUM && red->s && !strcmp(red->s, "block")) {
		const Value *m = decl_value(d, "module_count");
		if (!m || (m->kind == VAL_QTY && m->q.v < 2)) {
			Diag *dg = diag_error(k->c, m ? m->loc : red->loc,
					      "block redundancy needs module_count of 2 or more (blocks, any "
					      "one of which may fail); '%s' has %s",
					      d->name, m ? "1" : "the default 1");
			diag_set_code(dg, "out-of-range");
		}
	}
	if (d->kind == KIND_WORKLOAD) {
		const Field *f = decl_field(d, "model");
		if (f && f->val && f->val->kind == VAL_CTOR)
			check_model(k, f->val, f->value->loc);
		/* Counted in int by the planner, as the model's counts (check_model). */
		const Field *gb = decl_field(d, "global_batch");
		if (gb && gb->val && gb->val->kind == VAL_QTY && gb->val->q.v > INT_MAX)
			diag_set_code(diag_error(k->c, gb->val->loc,
						 "'global_batch' of %g is more than the planner counts "
						 "(the limit is %d)", gb->val->q.v, INT_MAX),
				      "out-of-range");
	}
	if (d->kind == KIND_FABRIC) {
		static const char *const pools[] = {"loopbacks", "p2p"};
		for (int i = 0; i < 2; i++) {
			const Value *v = decl_value(d, pools[i]);
			uint32_t net;
			int len;
			if (v && v->kind == VAL_STRING && !check_parse_cidr(v->s, &net, &len)) {
				Diag *dg = diag_error(k->c, v->loc, "'%s' is not an IPv4 prefix such as "
								    "\"10.0.0.0/16\" (address on its network "
								    "boundary)",
						      v->s);
				diag_set_code(dg, "address");
			}
		}
		const Value *asn = decl_value(d, "asn");
		if (asn && asn->kind == VAL_QTY && asn->q.v > 4294967294.0) {
			Diag *dg = diag_error(k->c, asn->loc, "an ASN is at most 4294967294");
			diag_set_code(dg, "out-of-range");
		}
		const Field *f = field_get(d, FLD_FABRIC_TOPOLOGY);
		const TopologyFamily *fam = f && f->val && f->val->kind == VAL_CTOR &&
						    f->val->ctor->topology >= 0
					    ? &topology_families[f->val->ctor->topology]
					    : NULL;
		if (fam && fam->switched && !field_get(d, FLD_FABRIC_SWITCH)) {
			Diag *dg = diag_error(k->c, d->name_loc, "fabric '%s' needs 'switch': a %s is built "
								 "of switches",
					      d->name, f->val->ctor->name);
			diag_set_code(dg, "missing-field");
		}
		if (fam)
			fam->check(k->c, f->val);
	}
	if (d->kind == KIND_MODEL) {
		/* A model declaration checks like transformer(...) with its fields as arguments. */
		static const CtorSchema *transformer;
		if (!transformer)
			transformer = ctor_lookup("transformer");
		Value m = {.kind = VAL_CTOR, .ctor = transformer, .n = transformer->nparams};
		Value *items[64] = {0};
		m.items = items;
		for (int i = 0; i < transformer->nparams && i < 64; i++)
			items[i] = (Value *)decl_value(d, transformer->params[i].name);
		check_model(k, &m, d->name_loc);
	}
}

const FieldSchema *check_member_field(const Program *p, const Expr *e, const Decl **decl)
{
	const Expr *base = e->member.base;
	const Decl *dc = base->kind == EXPR_NAME ? table_get(&p->names, base->name) : NULL;
	if (decl)
		*decl = dc;
	return dc && dc->kind >= 0 ? schema_field(dc->kind, e->member.field) : NULL;
}

bool check_reads_member(const Expr *e, bool (*member)(const Expr *, const void *), const void *ctx)
{
	switch (e->kind) {
	case EXPR_MEMBER: return member(e, ctx);
	case EXPR_PAREN:
	case EXPR_NEG: return check_reads_member(e->inner, member, ctx);
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV:
		return check_reads_member(e->bin.l, member, ctx) ||
		       check_reads_member(e->bin.r, member, ctx);
	default: return false;
	}
}

static bool any_member(const Expr *e, const void *ctx)
{
	(void)e, (void)ctx;
	return true;
}

bool check_reads_attribute(const Expr *e)
{
	return check_reads_member(e, any_member, NULL);
}

/* A fixed duration multiplying an attribute (`5 y * wanka.energy_cost`) while the cluster's
 * horizon is another (a sweep or scenario set it): the sum keeps its 5 y. A warning, with the
 * expression that follows the horizon. */
static void check_horizon(Checker *k, const Expr *e)
{
	switch (e->kind) {
	case EXPR_PAREN:
	case EXPR_NEG: check_horizon(k, e->inner); return;
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_DIV: check_horizon(k, e->bin.l), check_horizon(k, e->bin.r); return;
	case EXPR_MUL: break;
	default: return;
	}
	const Expr *lit = e->bin.l->kind == EXPR_NUMBER ? e->bin.l : e->bin.r;
	const Expr *other = lit == e->bin.l ? e->bin.r : e->bin.l;
	Qty q;
	const Decl *cl = NULL;
	for (int i = 0; i < k->p->decls.n && !cl; i++)
		if (((const Decl *)k->p->decls.v[i])->kind == KIND_CLUSTER)
			cl = k->p->decls.v[i];
	if (lit->kind != EXPR_NUMBER || !check_reads_attribute(other) || !cl ||
	    !eval_qty(k->p, lit, &q) || !dim_eq(q.dim, dim_make(0, 0, 1, 0, 0, 0))) {
		check_horizon(k, e->bin.l), check_horizon(k, e->bin.r);
		return;
	}
	const Value *h = decl_value(cl, "horizon");
	const FieldSchema *fs = schema_field(KIND_CLUSTER, "horizon");
	double horizon = h && h->kind == VAL_QTY ? h->q.v : fs->dflt.num;
	if (fabs(q.v - horizon) <= 1e-9 * horizon)
		return;
	Diag *d = diag_warning(k->c, lit->loc,
			       "a fixed %g y here, but %s.horizon is %g y: write %s.horizon to follow it",
			       q.v / SECONDS_PER_YEAR, cl->name, horizon / SECONDS_PER_YEAR, cl->name);
	diag_set_code(d, "fixed-horizon");
	diag_set_suggestion(d, arena_printf(k->c->arena, "%s.horizon", cl->name));
}

static void check_require(Checker *k, const Require *rq)
{
	check_horizon(k, rq->lhs);
	check_horizon(k, rq->rhs);
	Dim l, r;
	bool okl = eval_expr_dim(k->p, rq->lhs, &l);
	bool okr = eval_expr_dim(k->p, rq->rhs, &r);
	if (okl && okr && !check_reads_attribute(rq->lhs) && !check_reads_attribute(rq->rhs)) {
		Diag *d = diag_warning(k->c, rq->loc, "this requirement reads no attribute of the "
						      "design: it is always true or always false");
		diag_set_code(d, "constant-require");
	}
	if (!okl || !okr || dim_eq(l, r))
		return;
	char nl[96], nr[96];
	Diag *d = diag_error(k->c, rq->op_loc, "cannot compare %s with %s", eval_dim_phrase(l, nl, sizeof nl),
			     eval_dim_phrase(r, nr, sizeof nr));
	diag_set_code(d, "dimension-mismatch");
	diag_range(d, rq->lhs->loc);
	diag_range(d, rq->rhs->loc);
	int cl = dim_currency(l), cr = dim_currency(r);
	if (cl >= 0 && cr >= 0 && cl != cr)
		diag_note(d, NOLOC, "currencies are never converted silently: declare exchange_rates = "
				    "[RATE %s/%s] on the cluster",
			  currency_name(cl), currency_name(cr));
	else if (dim_is_none(l) || dim_is_none(r))
		diag_note(d, NOLOC, "give the number a unit");
}

static void check_objective(Checker *k, const Objective *ob)
{
	check_horizon(k, ob->expr);
	Dim d;
	if (!eval_expr_dim(k->p, ob->expr, &d))
		return;
	if (!check_reads_attribute(ob->expr)) {
		Diag *dg = diag_error(k->c, ob->expr->loc, "an objective must read an attribute of the "
							   "design, as in wanka.capex");
		diag_set_code(dg, "constant-objective");
	}
}

/* The overrides of scenarios that were not applied are checked against their fields here, so
 * `check` finds a mistake in any scenario. */
static void check_scenario_overrides(Checker *k, Scenario *sc)
{
	for (int i = 0; i < sc->nitems; i++) {
		Stmt *it = sc->items[i];
		if (it->kind == STMT_OVERRIDE) {
			const Path *path = &it->override.path;
			if (path->n == 1 && strcmp(path->parts[0], "description") == 0) {
				FieldSchema desc = {.name = "description", .type = FT_STRING};
				Value *v;
				check_value(k, it->override.value, &desc, &v);
				continue;
			}
			const Override *o = &it->override;
			if (!o->decl)
				continue; /* reported by resolve */
			const FieldSchema *fs = o->param ? o->param : o->field;
			if (path->n == 3) {
				/* The call this parameter lands in: the scenario's own override of the
				 * field when it has one, else the declaration's. */
				const Field *base = decl_field(o->decl, path->parts[1]);
				Field tmp;
				for (int j = 0; j < i; j++) {
					const Override *prev = &sc->items[j]->override;
					if (sc->items[j]->kind == STMT_OVERRIDE && prev->decl == o->decl &&
					    prev->path.n == 2 && prev->path.parts[1] == path->parts[1]) {
						tmp = (Field){.name = path->parts[1], .value = prev->value,
							      .loc = prev->loc};
						base = &tmp;
					}
				}
				fs = scenario_override_param(k->p, o->decl, path, base);
				if (!fs)
					continue;
			}
			Value *v;
			if (check_value(k, it->override.value, fs, &v))
				mark_value(k, v);
		} else if (it->kind == STMT_REQUIRE) {
			check_require(k, &it->require);
		} else if (it->kind == STMT_OBJECTIVE) {
			check_objective(k, &it->objective);
		}
	}
}

static bool in_applied_chain(const Program *p, const Scenario *sc)
{
	if (!p->scenario)
		return false;
	const Scenario *chosen = NULL;
	for (int i = 0; i < p->scenarios.n; i++) {
		const Scenario *s = p->scenarios.v[i];
		if (strcmp(s->name, p->scenario) == 0)
			chosen = s;
	}
	int steps = 0;
	for (const Scenario *a = chosen; a && steps <= p->scenarios.n; a = a->parent, steps++)
		if (a == sc)
			return true;
	return false;
}

int check_program(Program *p)
{
	Checker k = {p, p->c};
	int before = diag_errors(p->c);
	for (int i = 0; i < p->decls.n && !diag_limit_reached(p->c); i++)
		check_fields(&k, p->decls.v[i]);

	const Decl *first_cluster = NULL;
	for (int i = 0; i < p->decls.n; i++) {
		Decl *d = p->decls.v[i];
		bool root = d->kind == KIND_CLUSTER || d->kind == KIND_WORKLOAD;
		bool in_root_file = d->loc.src == p->root->src;
		if (root || (p->library && in_root_file))
			mark_used(&k, d);
		if (d->kind == KIND_CLUSTER && first_cluster) {
			Diag *dg = diag_error(p->c, d->name_loc, "a spec describes one cluster; '%s' is a "
								 "second one",
					      d->name);
			diag_set_code(dg, "two-clusters");
			diag_note(dg, first_cluster->name_loc, "the first is '%s'", first_cluster->name);
		} else if (d->kind == KIND_CLUSTER) {
			first_cluster = d;
		}
	}
	/* What overrides, requirements and objectives name is in use too. */
	for (int i = 0; i < p->override_targets.n; i++)
		mark_used(&k, p->override_targets.v[i]);
	for (int i = 0; i < p->scenarios.n; i++) {
		const Scenario *sc = p->scenarios.v[i];
		for (int j = 0; j < sc->nitems; j++) {
			const Stmt *it = sc->items[j];
			if (it->kind == STMT_OVERRIDE && it->override.decl)
				mark_used(&k, it->override.decl);
			else if (it->kind == STMT_REQUIRE)
				mark_expr(&k, it->require.lhs), mark_expr(&k, it->require.rhs);
			else if (it->kind == STMT_OBJECTIVE)
				mark_expr(&k, it->objective.expr);
		}
	}
	for (int i = 0; i < p->requires.n; i++) {
		const Require *rq = &((Stmt *)p->requires.v[i])->require;
		mark_expr(&k, rq->lhs);
		mark_expr(&k, rq->rhs);
	}
	for (int i = 0; i < p->objectives.n; i++)
		mark_expr(&k, ((Stmt *)p->objectives.v[i])->objective.expr);
	for (int i = 0; i < p->scenarios.n; i++)
		if (!in_applied_chain(p, p->scenarios.v[i]))
			check_scenario_overrides(&k, p->scenarios.v[i]);
	for (int i = 0; i < p->requires.n; i++)
		check_require(&k, &((Stmt *)p->requires.v[i])->require);
	for (int i = 0; i < p->objectives.n; i++)
		check_objective(&k, &((Stmt *)p->objectives.v[i])->objective);
	for (int i = 0; i < p->decls.n && !diag_limit_reached(p->c); i++) {
		Decl *d = p->decls.v[i];
		if (d->kind < 0 || !d->used)
			continue;
		check_required(&k, d);
		check_consistency(&k, d);
	}
	return diag_errors(p->c) - before;
}
