/*
 * field.c — typed access to declarations: the one way passes read a field (schema.def).
 *
 * A field is named by its FieldId, so a misspelt name does not compile; asking a declaration for
 * a field of another kind, a number of a field that is not one, or a default the schema does not
 * write as a literal is a broken invariant of clusterc (exit 70), never a silent default. The
 * defaults are the schema's (FieldSchema.dflt, read from the documented text by schema_init):
 * no call site writes one. Fields whose documented default is computed ("sum of parts", "the
 * NIC port speed") are read with the *_set forms, which say whether the spec set them.
 *
 * Lookups follow inheritance (the nearest declaration that sets the field) and match the
 * field's id, cached on the Field at first use, rather than its name.
 */
#include "passes.h"


/* The FieldId of a field written in a declaration of kind `kind`, or -1. */
static int field_id(Field *f, int kind)
{
	if (f->id == 0) {
		const FieldSchema *fs = kind >= 0 ? schema_field(kind, f->name) : NULL;
		f->id = fs ? fs->id + 1 : -1;
	}
	return f->id > 0 ? f->id - 1 : -1;
}

unsigned long long *field_reads;

Field *field_get(const Decl *d, FieldId id)
{
	INVARIANT(id >= 0 && id < FIELD_COUNT, "a field id out of range");
	INVARIANT(!d || d->kind == field_schemas[id].owner,
		  "a field asked of a declaration of another kind");
	for (; d; d = d->parent)
		for (int i = d->nfields - 1; i >= 0; i--)
			if (field_id(d->fields[i], d->kind) == (int)id) {
				if (field_reads)
					*field_reads |= d->fields[i]->choices;
				return d->fields[i];
			}
	return NULL;
}

const Value *field_value(const Decl *d, FieldId id)
{
	Field *f = field_get(d, id);
	return f ? f->val : NULL;
}

const Value *field_value_shallow(const Decl *d, FieldId id)
{
	unsigned long long *sink = field_reads;
	field_reads = NULL;
	Field *f = field_get(d, id);
	field_reads = sink;
	if (f)
		field_note(f->choices & ~f->param_choices);
	return f ? f->val : NULL;
}

static bool value_num(const Value *v, double *out)
{
	if (!v)
		return false;
	switch (v->kind) {
	case VAL_QTY:
	case VAL_RATIO: *out = v->q.v; return true;
	case VAL_BOOL: *out = v->b_val; return true;
	default: return false; /* open (one_of, a range, auto) or not a number */
	}
}

static bool is_number(const FieldSchema *fs)
{
	return fs->type == FT_QTY || fs->type == FT_INT || fs->type == FT_REAL ||
	       fs->type == FT_RATIO || fs->type == FT_BOOL;
}

bool field_num_set(const Decl *d, FieldId id, double *out)
{
	const FieldSchema *fs = &field_schemas[id];
	INVARIANT(is_number(fs), "a number asked of a field that is not one");
	if (value_num(field_value(d, id), out))
		return true;
	if (fs->dflt.literal) {
		*out = fs->dflt.num;
		return true;
	}
	return false;
}

double field_num(const Decl *d, FieldId id)
{
	double v;
	if (!field_num_set(d, id, &v))
		die_invariant(__FILE__, __LINE__,
			      field_schemas[id].flags & F_REQUIRED
				      ? "a required field read before it was set or decided"
				      : "a field without a literal default read with field_num");
	return v;
}

bool field_bool(const Decl *d, FieldId id)
{
	INVARIANT(field_schemas[id].type == FT_BOOL, "a boolean asked of a field that is not one");
	return field_num(d, id) != 0;
}

int field_enum(const Decl *d, FieldId id)
{
	const FieldSchema *fs = &field_schemas[id];
	INVARIANT(fs->type == FT_ENUM, "an enumeration asked of a field that is not one");
	const Value *v = field_value(d, id);
	if (v && v->kind == VAL_ENUM)
		return v->e;
	return fs->dflt.literal ? fs->dflt.e : -1;
}

const char *field_str(const Decl *d, FieldId id)
{
	const FieldSchema *fs = &field_schemas[id];
	INVARIANT(fs->type == FT_STRING || fs->type == FT_TEMPLATE || fs->type == FT_ENUM ||
			  fs->type == FT_CURRENCY,
		  "a string asked of a field that is not one");
	const Value *v = field_value(d, id);
	if (v && (v->kind == VAL_STRING || v->kind == VAL_ENUM))
		return v->s;
	if (fs->type == FT_ENUM)
		return fs->dflt.literal ? fs->enum_family->words[fs->dflt.e] : NULL;
	return fs->dflt.literal ? fs->dflt.s : NULL;
}

Decl *field_ref(const Decl *d, FieldId id)
{
	INVARIANT(field_schemas[id].type == FT_REF, "a reference asked of a field that is not one");
	const Value *v = field_value(d, id);
	return v && v->kind == VAL_REF ? v->ref : NULL;
}

/* ---- constructor parameters ------------------------------------------------------------------ */

const Value *field_param_value(const Value *ctor, ParamId id)
{
	INVARIANT(id >= 0 && id < PARAM_COUNT, "a parameter id out of range");
	if (!ctor || ctor->kind != VAL_CTOR)
		return NULL;
	int i = ctor_param_index(ctor->ctor, id);
	INVARIANT(i >= 0, "a parameter asked of a constructor that has none of that name");
	return ctor->items[i];
}

bool field_param_num_set(const Value *ctor, ParamId id, double *out)
{
	const FieldSchema *ps = &param_schemas[id];
	INVARIANT(is_number(ps), "a number asked of a parameter that is not one");
	if (value_num(field_param_value(ctor, id), out))
		return true;
	if (ps->dflt.literal) {
		*out = ps->dflt.num;
		return true;
	}
	return false;
}

double field_param_num(const Value *ctor, ParamId id)
{
	double v;
	if (!field_param_num_set(ctor, id, &v))
		die_invariant(__FILE__, __LINE__, "a parameter without a literal default read with param_num");
	return v;
}

bool field_param_is_auto(const Value *ctor, ParamId id)
{
	const Value *v = field_param_value(ctor, id);
	return !v || v->kind == VAL_AUTO;
}
