/*
 * scenario.c — the third pass: apply the chosen scenario, then every --set.
 *
 * A scenario is a list of overrides (DECL.FIELD = EXPR, or DECL.FIELD.PARAM = EXPR for one
 * parameter of a constructor), plus require and objective statements. A scenario with a parent
 * applies the parent's first. Overrides replace the field in the declaration they name (or add
 * it there when the field was inherited or defaulted), so declarations inheriting from it see
 * the new value too. A scenario's require statements add to the base ones; its objectives,
 * when it has any, replace the inherited objectives. --set uses the same grammar and is applied
 * last, in command-line order. Check (the next pass) then sees the effective spec.
 */
#include "passes.h"

#include <string.h>

static void replace_field(Program *p, Decl *d, Field *nf)
{
	nf->replaced = decl_field(d, nf->name); /* a bundle price follows its parts (parts.c) */
	for (int i = 0; i < d->nfields; i++) {
		if (d->fields[i]->name == nf->name) {
			d->fields[i] = nf;
			return;
		}
	}
	Field **v = arena_alloc(p->c->arena, sizeof(Field *) * (size_t)(d->nfields + 1));
	if (d->nfields)
		memcpy(v, d->fields, sizeof(Field *) * (size_t)d->nfields);
	v[d->nfields++] = nf;
	d->fields = v;
}

/* A copy of a constructor call with one named argument replaced or added. */
static Expr *with_arg(Program *p, const Expr *call, const char *name, Loc name_loc, Expr *value)
{
	Expr *e = ast_expr(p->c, EXPR_CALL, call->loc);
	e->call = call->call;
	e->depth = call->depth > value->depth + 1 ? call->depth : (uint16_t)(value->depth + 1);
	e->call.args = arena_alloc(p->c->arena, sizeof(Arg) * (size_t)(call->call.nargs + 1));
	memcpy(e->call.args, call->call.args, sizeof(Arg) * (size_t)call->call.nargs);
	for (int i = 0; i < e->call.nargs; i++) {
		if (e->call.args[i].name == name) {
			e->call.args[i].value = value;
			return e;
		}
	}
	e->call.args[e->call.nargs++] = (Arg){name, name_loc, value};
	return e;
}

/* Scenario overrides were resolved (and their mistakes reported) by resolve.c; --set ones are
 * resolved here. */
/* The constructor call an override of DECL.FIELD.PARAM lands in, and the parameter's schema;
 * NULL after a diagnostic when the field is not a call or its constructor has no such
 * parameter. `base` is the field as it stands when the override applies. */
const FieldSchema *scenario_override_param(Program *p, const Decl *d, const Path *path, const Field *base)
{
	const char *field = path->parts[1], *param = path->parts[2];
	if (!base || base->value->kind != EXPR_CALL) {
		Diag *dg = diag_error(p->c, path->locs[2],
				      "'%s.%s' is not set with a constructor call, so it has no '%s' to "
				      "override; set the whole field instead",
				      d->name, field, param);
		diag_set_code(dg, "override-path");
		if (base)
			diag_note(dg, base->loc, "'%s.%s' is set here", d->name, field);
		return NULL;
	}
	const CtorSchema *cs = ctor_lookup(base->value->call.name);
	if (!cs)
		return NULL; /* check reports the unknown constructor itself */
	const FieldSchema *ps = ctor_param(cs, param);
	if (!ps) {
		Diag *dg = diag_error(p->c, path->locs[2], "'%s.%s' is %s(...), which has no parameter "
							   "'%s'",
				      d->name, field, cs->name, param);
		diag_set_code(dg, "unknown-param");
		diag_note(dg, base->value->loc, "'%s.%s' is set here", d->name, field);
	}
	return ps;
}

static void apply_one(Program *p, Override *o, bool from_cli)
{
	const Path *path = &o->path;
	if (path->n == 1 && strcmp(path->parts[0], "description") == 0 && !from_cli)
		return; /* the scenario's own; check.c checks it */
	if (!o->resolved) {
		o->decl = resolve_override_path(p, path, &o->field, &o->param);
		o->resolved = true;
	}
	Decl *d = o->decl;
	if (!d)
		return;
	if (from_cli)
		vec_push(p->c->arena, &p->override_targets, d);
	Field *nf = arena_alloc(p->c->arena, sizeof *nf);
	nf->name = path->parts[1];
	nf->name_loc = path->locs[1];
	nf->value = o->value;
	nf->loc = o->loc;
	nf->overridden = true;
	if (path->n == 3) {
		Field *base = decl_field(d, nf->name);
		if (!scenario_override_param(p, d, path, base))
			return;
		nf->value = with_arg(p, base->value, path->parts[2], path->locs[2], o->value);
	}
	replace_field(p, d, nf);
}

static void apply_scenario(Program *p, Scenario *sc, int depth)
{
	if (sc->parent && depth < p->scenarios.n)
		apply_scenario(p, sc->parent, depth + 1);
	bool has_objective = false;
	for (int i = 0; i < sc->nitems; i++)
		has_objective |= sc->items[i]->kind == STMT_OBJECTIVE;
	if (has_objective)
		p->objectives = (PtrVec){0};
	for (int i = 0; i < sc->nitems; i++) {
		Stmt *it = sc->items[i];
		switch (it->kind) {
		case STMT_OVERRIDE: apply_one(p, &it->override, false); break;
		case STMT_REQUIRE: vec_push(p->c->arena, &p->requires, it); break;
		case STMT_OBJECTIVE: vec_push(p->c->arena, &p->objectives, it); break;
		default: break;
		}
	}
}

Diag *scenario_unknown(Program *p, Loc at, const char *name)
{
	Ctx *c = p->c;
	const char **cands = arena_alloc(c->arena, sizeof(char *) * (size_t)(p->scenarios.n + 1));
	for (int i = 0; i < p->scenarios.n; i++)
		cands[i] = ((Scenario *)p->scenarios.v[i])->name;
	const char *s = suggest(name, cands, p->scenarios.n);
	Diag *d = s ? diag_error(c, at, "%s has no scenario '%s'; did you mean '%s'?",
				 p->root->src->path, name, s)
		    : diag_error(c, at, "%s has no scenario '%s'", p->root->src->path, name);
	diag_set_code(d, "unknown-scenario");
	if (s)
		diag_set_suggestion(d, s);
	return d;
}

int scenario_apply(Program *p)
{
	Ctx *c = p->c;
	int before = diag_errors(c);
	if (p->scenario) {
		Scenario *sc = table_get(&p->scenario_names, intern_cstr(c, p->scenario));
		if (!sc) {
			scenario_unknown(p, NOLOC, p->scenario);
			p->usage_error = true;
			return diag_errors(c) - before;
		}
		apply_scenario(p, sc, 0);
	}
	for (int i = 0; i < p->nsets; i++) {
		const CliOverride *o = &p->sets[i];
		Stmt *st;
		if (o->origin) {
			Source *src = src_from_text(c, o->origin, o->origin_text, o->origin_len);
			st = parse_override_masked(c, src, o->masked);
		} else {
			Source *src = src_from_text(c, "--set", o->text, strlen(o->text));
			st = parse_override(c, src);
		}
		if (st)
			apply_one(p, &st->override, true);
	}
	return diag_errors(c) - before;
}
