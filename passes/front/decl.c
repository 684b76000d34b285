/*
 * decl.c — small services over a loaded program: field lookup by name through inheritance
 * (for the front end, which maps written names to the schema; later passes use field.c).
 */
#include "passes.h"

#include <stdint.h>
#include <string.h>

/* Inheritance chains are short and acyclic once resolve_program has run (it cuts cycles). */
Field *decl_field(const Decl *d, const char *name)
{
	for (; d; d = d->parent)
		for (int i = d->nfields - 1; i >= 0; i--)
			if (strcmp(d->fields[i]->name, name) == 0)
				return d->fields[i];
	return NULL;
}

const Value *decl_value(const Decl *d, const char *name)
{
	Field *f = decl_field(d, name);
	return f ? f->val : NULL;
}

double decl_number(const Decl *d, const char *name, double def)
{
	const Value *v = decl_value(d, name);
	return v && v->kind == VAL_QTY ? v->q.v : def;
}

const char *decl_kind_name(int kind)
{
	return kind >= 0 && kind < KIND_COUNT ? kind_schemas[kind].name : "declaration";
}
