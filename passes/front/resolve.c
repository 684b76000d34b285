/*
 * resolve.c — the second pass: names.
 *
 * Every declaration's kind word must name a kind; every declaration name is unique across the
 * program (the standard library included); parents exist, are of the same kind and form no
 * cycle; field names exist in the kind's schema, are settable and are not given twice;
 * scenarios are unique, their parents exist without cycles, and every override path names a
 * declaration, a settable field and, for constructor fields, a parameter. Names inside values
 * are resolved by check.c, which knows from the schema whether a name is a declaration, an
 * enumeration word or a currency.
 */
#include "passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char **decl_names(Program *p, unsigned kinds, int *n)
{
	const char **v = arena_alloc(p->c->arena, sizeof(char *) * (size_t)(p->decls.n + 1));
	int k = 0;
	for (int i = 0; i < p->decls.n; i++) {
		Decl *d = p->decls.v[i];
		if (d->kind >= 0 && (kinds & (1u << d->kind)))
			v[k++] = d->name;
	}
	*n = k;
	return v;
}

/* A declaration by name, with a "did you mean" among declarations of the wanted kinds. */
Decl *resolve_decl_name(Program *p, const char *name, Loc loc, unsigned kinds, const char *what)
{
	Decl *d = table_get(&p->names, name);
	if (d)
		return d;
	const char *module = load_module_declaring(p, name);
	if (module) {
		Diag *dg = diag_error(p->c, loc, "unknown %s '%s': it is declared in %s, which is not "
						 "imported",
				      what, name, module);
		diag_set_code(dg, "missing-import");
		diag_note(dg, NOLOC, "add 'import %s' at the top of the file", module);
		return NULL;
	}
	int n;
	const char **cands = decl_names(p, kinds ? kinds : ~0u, &n);
	const char *s = suggest(name, cands, n);
	/* Misspelt and not imported either: the closest of the standard library's. */
	const char *std_module = NULL;
	const char *std_s = s ? NULL : load_suggest(p, name, kinds ? kinds : ~0u, &std_module);
	if (std_s && std_module) {
		Diag *dg = diag_error(p->c, loc, "unknown %s '%s'; did you mean '%s'? (declared in %s, "
						 "which is not imported)",
				      what, name, std_s, std_module);
		diag_set_code(dg, "unknown-name");
		diag_set_suggestion(dg, std_s);
		diag_note(dg, NOLOC, "add 'import %s' at the top of the file", std_module);
		return NULL;
	}
	Diag *dg = s ? diag_error(p->c, loc, "unknown %s '%s'; did you mean '%s'?", what, name, s)
		     : diag_error(p->c, loc, "unknown %s '%s'", what, name);
	diag_set_code(dg, "unknown-name");
	if (s) {
		diag_set_suggestion(dg, s);
		Decl *sd = table_get(&p->names, intern_cstr(p->c, s));
		if (sd)
			diag_note(dg, sd->name_loc, "'%s' is declared here", s);
	}
	return NULL;
}

static const char **field_names(Program *p, int kind, int *n)
{
	const KindSchema *ks = &kind_schemas[kind];
	const char **v = arena_alloc(p->c->arena, sizeof(char *) * (size_t)ks->nfields);
	int k = 0;
	for (int i = 0; i < ks->nfields; i++)
		if (!(ks->fields[i].flags & F_READONLY))
			v[k++] = ks->fields[i].name;
	*n = k;
	return v;
}

/* A settable field of a kind; diagnoses unknown and derived ones. */
const FieldSchema *resolve_field_name(Program *p, int kind, const char *owner, const char *name,
				      Loc loc)
{
	const FieldSchema *fs = schema_field(kind, name);
	if (fs && !(fs->flags & F_READONLY))
		return fs;
	if (fs) {
		Diag *d = diag_error(p->c, loc, "'%s' of a %s is derived by clusterc and cannot be set",
				     name, decl_kind_name(kind));
		diag_set_code(d, "readonly-field");
		return NULL;
	}
	int n;
	const char **cands = field_names(p, kind, &n);
	const char *s = suggest(name, cands, n);
	Diag *d = s ? diag_error(p->c, loc, "%s '%s' has no field '%s'; did you mean '%s'?",
				 decl_kind_name(kind), owner, name, s)
		    : diag_error(p->c, loc, "%s '%s' has no field '%s'", decl_kind_name(kind), owner, name);
	diag_set_code(d, "unknown-field");
	if (s)
		diag_set_suggestion(d, s);
	return NULL;
}

static void resolve_kind(Program *p, Decl *d)
{
	if (d->kind >= 0)
		return;
	const char *words[KIND_COUNT];
	for (int k = 0; k < KIND_COUNT; k++)
		words[k] = kind_schemas[k].name;
	const char *s = suggest(d->kind_word, words, KIND_COUNT);
	Diag *dg = s ? diag_error(p->c, d->kind_loc,
				  "unknown declaration kind '%s'; did you mean '%s'?", d->kind_word, s)
		     : diag_error(p->c, d->kind_loc,
				  "unknown declaration kind '%s'; the kinds are accelerator, nic, "
				  "switch, cable, optic, cooling, power, node, storage, rack, site, "
				  "fabric, cluster, model and workload",
				  d->kind_word);
	diag_set_code(dg, "unknown-kind");
	if (s)
		diag_set_suggestion(dg, s);
}

static void declare(Program *p, Decl *d)
{
	Decl *prev = table_get(&p->names, d->name);
	if (prev) {
		Diag *dg = diag_error(p->c, d->name_loc, "'%s' is already declared", d->name);
		diag_set_code(dg, "duplicate-name");
		diag_note(dg, prev->name_loc, "the first declaration of '%s' is here", d->name);
		return;
	}
	if (ctor_lookup(d->name) || strcmp(d->name, "one_of") == 0) {
		Diag *dg = diag_error(p->c, d->name_loc, "'%s' is a built-in constructor and cannot "
							 "name a declaration", d->name);
		diag_set_code(dg, "reserved-name");
		return;
	}
	table_put(p->c, &p->names, d->name, d);
}

static void resolve_parent(Program *p, Decl *d)
{
	if (!d->parent_name)
		return;
	Decl *par = resolve_decl_name(p, d->parent_name, d->parent_loc,
				      d->kind >= 0 ? 1u << d->kind : ~0u, "parent");
	d->incomplete = true; /* until the parent is found and of the right kind */
	if (!par)
		return;
	if (par->kind != d->kind && d->kind >= 0 && par->kind >= 0) {
		Diag *dg = diag_error(p->c, d->parent_loc, "%s '%s' cannot inherit from %s '%s'",
				      decl_kind_name(d->kind), d->name, decl_kind_name(par->kind), par->name);
		diag_set_code(dg, "parent-kind");
		diag_note(dg, par->name_loc, "'%s' is declared here", par->name);
		return;
	}
	d->parent = par;
	d->incomplete = false;
}

/* Walks each chain once; a chain that comes back to itself is cut at the declaration that
 * closes it (the first of the cycle in program order), and one more than MAX_INHERIT_DEPTH
 * deep where it gets too deep, so later passes can walk parents without a guard, in bounded
 * steps. Linear in the declarations: depth[i] is declaration i's ancestors + 1 once known,
 * -1 while on the walk (a 100,000-deep chain walked from each link took 23 s). */
static void check_parent_cycles(Program *p)
{
	int n = p->decls.n;
	int *depth = xmalloc(sizeof *depth * (size_t)(n + 1));
	memset(depth, 0, sizeof *depth * (size_t)(n + 1));
	Decl **walk = xmalloc(sizeof *walk * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		int len = 0;
		Decl *a = p->decls.v[i];
		while (a && depth[a->index] == 0) {
			depth[a->index] = -1;
			walk[len++] = a;
			a = a->parent;
		}
		int cut = len - 1;
		if (a && depth[a->index] == -1) {
			int k = 0;
			while (walk[k] != a)
				k++;
			for (int j = k; j < len; j++)
				if (walk[j]->index < walk[cut]->index || cut < k)
					cut = j;
			Decl *d = walk[cut];
			Diag *dg = diag_error(p->c, d->parent_loc,
					      "inheritance cycle: '%s' is its own ancestor", d->name);
			diag_set_code(dg, "inheritance-cycle");
			d->incomplete = true;
			if (d->parent != d)
				diag_note(dg, d->parent->parent_loc, "'%s' inherits from here",
					  d->parent->name);
			d->parent = NULL;
		}
		/* Depths from the top of the chain down: below the cut first, then the rest. */
		for (int pass = 0; pass < 2; pass++)
			for (int j = pass ? len - 1 : cut; j > (pass ? cut : -1); j--) {
				Decl *d = walk[j];
				int up = d->parent ? depth[d->parent->index] : 0;
				if (up > MAX_INHERIT_DEPTH) {
					Diag *dg = diag_error(p->c, d->parent_loc,
							      "'%s' inherits through more than %d "
							      "declarations; the chain is too deep",
							      d->name, MAX_INHERIT_DEPTH);
					diag_set_code(dg, "limit");
					d->incomplete = true;
					d->parent = NULL;
					up = 0;
				}
				depth[d->index] = up + 1;
			}
	}
	free(depth);
	free(walk);
}

static void resolve_fields(Program *p, Decl *d)
{
	if (d->kind < 0)
		return;
	for (int i = 0; i < d->nfields; i++) {
		Field *f = d->fields[i];
		if (!resolve_field_name(p, d->kind, d->name, f->name, f->name_loc)) {
			d->incomplete = true;
			continue;
		}
		for (int j = 0; j < i; j++) {
			if (d->fields[j]->name == f->name) {
				Diag *dg = diag_error(p->c, f->name_loc, "field '%s' is set twice in '%s'",
						      f->name, d->name);
				diag_set_code(dg, "duplicate-field");
				diag_note(dg, d->fields[j]->name_loc, "first set here");
				break;
			}
		}
	}
}

/* An override path: DECL.FIELD or DECL.FIELD.PARAM (a constructor's parameter). Returns the
 * declaration, or NULL after a diagnostic. */
Decl *resolve_override_path(Program *p, const Path *path, const FieldSchema **field,
			    const FieldSchema **param)
{
	*field = NULL;
	*param = NULL;
	if (path->n < 2) {
		Diag *d = diag_error(p->c, path->loc, "an override names a declaration and a field, "
						       "as in dgx_h100.power");
		diag_set_code(d, "override-path");
		return NULL;
	}
	Decl *d = resolve_decl_name(p, path->parts[0], path->locs[0], ~0u, "declaration");
	if (!d || d->kind < 0)
		return NULL;
	const FieldSchema *fs = resolve_field_name(p, d->kind, d->name, path->parts[1], path->locs[1]);
	if (!fs)
		return NULL;
	*field = fs;
	if (path->n == 2)
		return d;
	if (fs->type != FT_CTOR || path->n > 3) {
		Diag *dg = diag_error(p->c, path->locs[2], "'%s.%s' has no parts to set",
				      d->name, fs->name);
		diag_set_code(dg, "override-path");
		return NULL;
	}
	/* The parameter must exist in some constructor of the field's family; check.c checks it
	 * against the constructor actually used. */
	for (int i = 0; i < ctor_count; i++) {
		if (ctor_schemas[i].family != fs->family)
			continue;
		const FieldSchema *ps = ctor_param(&ctor_schemas[i], path->parts[2]);
		if (ps) {
			*param = ps;
			return d;
		}
	}
	Diag *dg = diag_error(p->c, path->locs[2], "no %s constructor has a parameter '%s'",
			      ctor_family_name(fs->family), path->parts[2]);
	diag_set_code(dg, "unknown-param");
	return NULL;
}

static void resolve_scenarios(Program *p)
{
	for (int i = 0; i < p->scenarios.n; i++) {
		Scenario *sc = p->scenarios.v[i];
		Scenario *prev = table_get(&p->scenario_names, sc->name);
		if (prev) {
			Diag *d = diag_error(p->c, sc->name_loc, "scenario '%s' is already declared",
					     sc->name);
			diag_set_code(d, "duplicate-name");
			diag_note(d, prev->name_loc, "the first one is here");
			continue;
		}
		table_put(p->c, &p->scenario_names, sc->name, sc);
	}
	for (int i = 0; i < p->scenarios.n; i++) {
		Scenario *sc = p->scenarios.v[i];
		if (sc->parent_name) {
			sc->parent = table_get(&p->scenario_names, sc->parent_name);
			if (!sc->parent) {
				const char **cands = arena_alloc(p->c->arena, sizeof(char *) * (size_t)(p->scenarios.n + 1));
				for (int j = 0; j < p->scenarios.n; j++)
					cands[j] = ((Scenario *)p->scenarios.v[j])->name;
				const char *s = suggest(sc->parent_name, cands, p->scenarios.n);
				Diag *d = s ? diag_error(p->c, sc->parent_loc,
							 "unknown scenario '%s'; did you mean '%s'?",
							 sc->parent_name, s)
					    : diag_error(p->c, sc->parent_loc, "unknown scenario '%s'",
							 sc->parent_name);
				diag_set_code(d, "unknown-name");
				if (s) {
					diag_set_suggestion(d, s);
					Scenario *other = table_get(&p->scenario_names, intern_cstr(p->c, s));
					if (other)
						diag_note(d, other->name_loc, "scenario '%s' is declared here", s);
				}
			}
		}
		for (int j = 0; j < sc->nitems; j++) {
			Stmt *it = sc->items[j];
			if (it->kind != STMT_OVERRIDE)
				continue;
			const Path *path = &it->override.path;
			if (path->n == 1 && strcmp(path->parts[0], "description") == 0)
				continue;
			Override *o = &it->override;
			o->decl = resolve_override_path(p, path, &o->field, &o->param);
			o->resolved = true;
		}
	}
	/* Cycles and depth as for declarations, each chain followed once: a scenario's mark is
	 * its place on the walk + 1 while on it, and its depth, negated, once known. */
	int ns = p->scenarios.n;
	NameTable mark = {0};
	for (int i = 0; i < ns; i++)
		table_put(p->c, &mark, ((Scenario *)p->scenarios.v[i])->name, (void *)(intptr_t)0);
	Scenario **walk = xmalloc(sizeof *walk * (size_t)(ns + 1));
	for (int i = 0; i < ns; i++) {
		int len = 0;
		Scenario *a = p->scenarios.v[i];
		while (a && (intptr_t)table_get(&mark, a->name) == 0) {
			table_put(p->c, &mark, a->name, (void *)(intptr_t)(len + 1));
			walk[len++] = a;
			a = a->parent;
		}
		intptr_t at = a ? (intptr_t)table_get(&mark, a->name) : 0;
		int cut = len - 1;
		if (at > 0) {
			/* Back on the walk: the cycle is walk[at - 1 ..]; cut where it was entered. */
			cut = (int)at - 1;
			Scenario *sc = walk[cut];
			Diag *d = diag_error(p->c, sc->parent_loc, "scenario cycle: '%s' is its own ancestor",
					     sc->name);
			diag_set_code(d, "inheritance-cycle");
			if (sc->parent && sc->parent != sc)
				diag_note(d, sc->parent->parent_loc, "'%s' builds on '%s' here",
					  sc->parent->name, sc->parent->parent_name);
			sc->parent = NULL;
		}
		/* Depths from the top of the chain down: below the cut first, then the rest. */
		for (int pass = 0; pass < 2; pass++)
			for (int j = pass ? len - 1 : cut; j > (pass ? cut : -1); j--) {
				Scenario *sc = walk[j];
				intptr_t up = sc->parent ? -(intptr_t)table_get(&mark, sc->parent->name) : 0;
				if (up > MAX_INHERIT_DEPTH) {
					Diag *d = diag_error(p->c, sc->parent_loc,
							     "scenario '%s' builds on more than %d "
							     "scenarios; the chain is too deep",
							     sc->name, MAX_INHERIT_DEPTH);
					diag_set_code(d, "limit");
					sc->parent = NULL;
					up = 0;
				}
				table_put(p->c, &mark, sc->name, (void *)(intptr_t)-(up + 1));
			}
	}
	free(walk);
}

int resolve_program(Program *p)
{
	int before = diag_errors(p->c);
	for (int i = 0; i < p->decls.n; i++) {
		Decl *d = p->decls.v[i];
		d->index = i;
		resolve_kind(p, d);
		declare(p, d);
	}
	for (int i = 0; i < p->decls.n; i++)
		resolve_parent(p, p->decls.v[i]);
	check_parent_cycles(p);
	for (int i = 0; i < p->decls.n; i++)
		resolve_fields(p, p->decls.v[i]);
	resolve_scenarios(p);
	return diag_errors(p->c) - before;
}
