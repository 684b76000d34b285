/*
 * load.c — the first pass: parse the root file and everything it imports.
 *
 * `import std.network` names stdlib/network.cluster in the standard library directory;
 * `import "site.cluster"` names a file relative to the importing file. Files are identified by
 * their real path, so a file imported twice (a diamond) is loaded once. Loading is depth first
 * with an "on the stack" mark per file: meeting a file that is still on the stack is an import
 * cycle, reported at the import that closes it with a note at the import that opened it.
 * Declarations are collected after a file's imports, so a program lists what a file uses
 * before the file itself.
 */
#include "passes.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

typedef struct Loader {
	Program *p;
	NameTable by_path; /* interned real path -> File* */
	Stmt *stack[MAX_IMPORT_DEPTH + 1]; /* the import statements being followed */
	File *stack_files[MAX_IMPORT_DEPTH + 1];
	int depth;
} Loader;

static void load_file(Loader *ld, File *f);

/* Names of the standard library's modules, for "did you mean". */
static int stdlib_modules(Ctx *c, const char ***out)
{
	PtrVec v = {0};
	DIR *dir = c->stdlib_dir ? opendir(c->stdlib_dir) : NULL;
	if (dir) {
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (n > 8 && strcmp(e->d_name + n - 8, ".cluster") == 0)
				vec_push(c->arena, &v, arena_printf(c->arena, "std.%.*s", (int)(n - 8), e->d_name));
		}
		closedir(dir);
	}
	*out = (const char **)v.v;
	return v.n;
}

static const char *module_path(Loader *ld, const Import *im)
{
	Ctx *c = ld->p->c;
	if (strncmp(im->module, "std.", 4) != 0) {
		diag_set_code(diag_error(c, im->target_loc,
					 "unknown module '%s': standard modules start with 'std.'; import "
					 "a file with a string, as in import \"%s.cluster\"",
					 im->module, im->module), "unknown-module");
		return NULL;
	}
	char *rel = arena_strdup(c->arena, im->module + 4);
	for (char *s = rel; *s; s++)
		if (*s == '.')
			*s = '/';
	return arena_printf(c->arena, "%s/%s.cluster", c->stdlib_dir ? c->stdlib_dir : ".", rel);
}

/* A path relative to the importing file, spelled relative to the importing file's own path
 * as given (so it opens from the working directory and reads well in diagnostics). A file read
 * from standard input imports relative to the working directory. */
static const char *relative_path(Loader *ld, const File *from, const char *path)
{
	Ctx *c = ld->p->c;
	if (path[0] == '/')
		return path;
	if (from->src->is_stdlib && c->stdlib_dir) {
		/* Inside the library, relative to the library's directory (its files are shown as
		 * std/NAME.cluster, which is not a path). */
		const char *slash = strrchr(from->src->path, '/');
		const char *sub = slash ? from->src->path + 4 : "";
		int sublen = slash ? (int)(slash - sub) : 0;
		return arena_printf(c->arena, "%s/%.*s%s%s", c->stdlib_dir, sublen, sub,
				    sublen ? "/" : "", path);
	}
	if (!from->src->abspath)
		return path;
	const char *slash = strrchr(from->src->path, '/');
	if (!slash)
		return path;
	return arena_printf(c->arena, "%.*s/%s", (int)(slash - from->src->path), from->src->path, path);
}

static void report_missing_module(Loader *ld, const Import *im)
{
	Ctx *c = ld->p->c;
	const char **mods;
	int n = stdlib_modules(c, &mods);
	const char *s = suggest(im->module, mods, n);
	Diag *d = s ? diag_error(c, im->target_loc,
				 "no module '%s' in the standard library; did you mean '%s'?",
				 im->module, s)
		    : diag_error(c, im->target_loc, "no module '%s' in the standard library (%s)",
				 im->module, c->stdlib_dir ? c->stdlib_dir : "not found");
	diag_set_code(d, "unknown-module");
	if (s)
		diag_set_suggestion(d, s);
}

static void follow_import(Loader *ld, File *from, Stmt *st)
{
	Ctx *c = ld->p->c;
	Import *im = &st->import;
	const char *path = im->module ? module_path(ld, im) : relative_path(ld, from, im->path);
	if (!path)
		return;
	if (ld->depth >= MAX_IMPORT_DEPTH) {
		diag_set_code(diag_error(c, im->target_loc, "imports nested more than %d deep",
					 MAX_IMPORT_DEPTH), "limit");
		return;
	}
	/* A file already loaded is found by its real path without reading it again. */
	char *real = realpath(path, NULL);
	if (real) {
		File *seen = table_get(&ld->by_path, intern_cstr(c, real));
		free(real);
		if (seen) {
			im->file = seen;
			if (!seen->loading)
				return;
			/* The chain from the file met again down to this import, link by link. */
			int j = 0;
			while (j < ld->depth && ld->stack_files[j] != seen)
				j++;
			Buf chain = {0};
			for (int i = j; i < ld->depth; i++)
				buf_printf(&chain, "%s -> ", ld->stack_files[i]->src->path);
			buf_puts(&chain, seen->src->path);
			Diag *d = diag_error(c, im->target_loc, "import cycle: %s", chain.s);
			buf_free(&chain);
			diag_set_code(d, "import-cycle");
			for (int i = j + 1; i < ld->depth; i++)
				diag_note(d, ld->stack[i]->import.target_loc, "%s imports %s here",
					  ld->stack_files[i - 1]->src->path, ld->stack_files[i]->src->path);
			return;
		}
	}
	bool io_error = false;
	Source *src;
	/* Imports read regular files only: a device or a pipe (/dev/stdin) could block forever. */
	struct stat info;
	if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
		Diag *d = diag_error(c, im->target_loc, "cannot import '%s': not a regular file", path);
		diag_set_code(d, "import");
		return;
	}
	/* Only clusterc sources: import "/etc/shadow" must not have its lines quoted by the
	 * parser's diagnostics. The name as written and the file it leads to end in .cluster. */
	char *target = im->module ? NULL : realpath(path, NULL);
	size_t nt = target ? strlen(target) : 0, np = strlen(im->path ? im->path : "");
	bool clusterc = im->module || (np > 8 && !strcmp(im->path + np - 8, ".cluster") &&
				       (!target || (nt > 8 && !strcmp(target + nt - 8, ".cluster"))));
	free(target);
	if (!clusterc) {
		Diag *d = diag_error(c, im->target_loc,
				     "cannot import '%s': only clusterc sources (.cluster files) can be "
				     "imported",
				     im->path);
		diag_set_code(d, "import");
		return;
	}
	if (im->module && !real) {
		FILE *probe = fopen(path, "r");
		if (!probe) {
			report_missing_module(ld, im);
			return;
		}
		fclose(probe);
	}
	src = src_load(c, path, im->target_loc, &io_error);
	if (!src)
		return;
	if (im->module) {
		/* Shown as std/NAME.cluster wherever the library is installed, so diagnostics
		 * do not depend on the machine. */
		src->is_stdlib = true;
		src->path = arena_printf(c->arena, "std/%s.cluster", im->module + 4);
	}
	File *f = parse_file(c, src);
	im->file = f;
	if (src->abspath)
		table_put(c, &ld->by_path, intern_cstr(c, src->abspath), f);
	vec_push(c->arena, &ld->p->files, f);
	ld->stack[ld->depth] = st;
	ld->stack_files[ld->depth] = f;
	ld->depth++;
	load_file(ld, f);
	ld->depth--;
}

static void load_file(Loader *ld, File *f)
{
	Program *p = ld->p;
	f->loading = true;
	for (int i = 0; i < f->nstmts && !diag_limit_reached(p->c); i++) {
		Stmt *st = f->stmts[i];
		switch (st->kind) {
		case STMT_IMPORT: follow_import(ld, f, st); break;
		case STMT_DECL: vec_push(p->c->arena, &p->decls, st->decl); break;
		case STMT_SCENARIO: vec_push(p->c->arena, &p->scenarios, st->scenario); break;
		case STMT_REQUIRE: vec_push(p->c->arena, &p->requires, st); break;
		case STMT_OBJECTIVE: vec_push(p->c->arena, &p->objectives, st); break;
		case STMT_OVERRIDE: break; /* only inside scenarios */
		}
	}
	f->loading = false;
}

int load_program(Program *p, const char *path)
{
	if (p->input)
		return load_program_source(p, p->input);
	int before = diag_errors(p->c);
	bool io_error = false;
	Source *src = src_load(p->c, path, NOLOC, &io_error);
	if (!src) {
		p->io_error = io_error;
		return diag_errors(p->c) - before;
	}
	return load_program_source(p, src);
}

int load_program_source(Program *p, Source *src)
{
	Ctx *c = p->c;
	int before = diag_errors(c);
	Loader ld = {.p = p};
	File *root = parse_file(c, src);
	p->root = root;
	vec_push(c->arena, &p->files, root);
	if (src->abspath)
		table_put(c, &ld.by_path, intern_cstr(c, src->abspath), root);
	ld.stack[0] = NULL;
	ld.stack_files[0] = root;
	ld.depth = 1;
	load_file(&ld, root);

	p->library = true;
	for (int i = 0; i < root->nstmts; i++) {
		Stmt *st = root->stmts[i];
		if (st->kind == STMT_DECL &&
		    (st->decl->kind == KIND_CLUSTER || st->decl->kind == KIND_WORKLOAD))
			p->library = false;
	}
	return diag_errors(c) - before;
}

/* The standard-library module that declares `name`, for "is an import missing?" advice: every
 * module is parsed once, on the first unknown name, in a scratch context so its diagnostics
 * and sources stay out of the compilation. */
const char *load_module_declaring(Program *p, const char *name)
{
	Ctx *c = p->c;
	if (!p->stdlib_indexed) {
		p->stdlib_indexed = true;
		const char **mods;
		int n = stdlib_modules(c, &mods);
		for (int i = 0; i < n; i++) {
			Ctx *scratch = ctx_new((DiagOptions){.format = DIAG_TEXT});
			bool io;
			const char *path = arena_printf(c->arena, "%s/%s.cluster", c->stdlib_dir, mods[i] + 4);
			Source *src = src_load(scratch, path, NOLOC, &io);
			File *f = src ? parse_file(scratch, src) : NULL;
			for (int j = 0; f && j < f->nstmts; j++) {
				if (f->stmts[j]->kind != STMT_DECL)
					continue;
				const Decl *d = f->stmts[j]->decl;
				StdlibDecl *sd = arena_alloc(c->arena, sizeof *sd);
				*sd = (StdlibDecl){intern_cstr(c, d->name), d->kind, mods[i]};
				table_put(c, &p->stdlib_index, sd->name, sd);
				vec_push(c->arena, &p->stdlib_decls, sd);
			}
			ctx_free(scratch);
		}
	}
	const StdlibDecl *sd = table_get(&p->stdlib_index, name);
	return sd ? sd->module : NULL;
}

const char *load_suggest(Program *p, const char *name, unsigned kinds, const char **module)
{
	load_module_declaring(p, name); /* the index, made once */
	const char **cands = arena_alloc(p->c->arena, sizeof(char *) * (size_t)(p->stdlib_decls.n + 1));
	int n = 0;
	for (int i = 0; i < p->stdlib_decls.n; i++) {
		const StdlibDecl *sd = p->stdlib_decls.v[i];
		if (sd->kind >= 0 && (kinds & (1u << sd->kind)))
			cands[n++] = sd->name;
	}
	const char *s = suggest(name, cands, n);
	*module = s ? load_module_declaring(p, s) : NULL;
	return s;
}
