/*
 * test_fmt.c — CUnit tests for lang/fmt.c, the canonical formatter.
 *
 * - Goldens: every tests/fmt/NAME.cluster formats to tests/fmt/NAME.fmt byte for byte. With
 *   UPDATE_GOLDEN=1 in the environment (as for run-golden.sh) the .fmt files are rewritten
 *   instead (review the diff).
 * - Self-check, on every golden input and output and on every .cluster file under stdlib/ and
 *   examples/: the input parses; its formatting parses without errors to the same tree (compared
 *   as an S-expression without locations), formats to itself (idempotence), and holds the same
 *   comments (same count, same texts but for trailing whitespace).
 * - Inline cases for the layout rules and for comments in awkward places.
 * unit_main.c calls suite_fmt() to register them; CLUSTERC_SOURCE_DIR is the repository root.
 */
#include "lang.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CLUSTERC_SOURCE_DIR
#error "the build defines CLUSTERC_SOURCE_DIR to the repository root"
#endif

static Ctx *new_ctx(void)
{
	return ctx_new((DiagOptions){.format = DIAG_TEXT, .color = false, .error_limit = 0});
}

/* ---- helpers ------------------------------------------------------------------------------- */

/* The whole file at path, NUL-terminated, in a heap buffer; NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return b.s ? b.s : xstrdup("");
}

static void spit(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(s, 1, n, f);
	fclose(f);
}

/* Parses text in c; diagnostics are printed when there are any, so a failure says why. */
static File *parse_text(Ctx *c, const char *name, const char *text, size_t len)
{
	File *f = parse_file(c, src_from_text(c, name, text, len));
	if (diag_errors(c))
		diag_render(c, stderr);
	return f;
}

/* Formats text; NULL when it does not parse. The caller frees the result. */
static char *fmt_text(const char *text, size_t len, size_t *out_len)
{
	Ctx *c = new_ctx();
	File *f = parse_file(c, src_from_text(c, "test.cluster", text, len));
	char *out = f->parsed_ok ? fmt_file(f, out_len) : NULL;
	ctx_free(c);
	return out;
}

static void dump_expr(Buf *b, const Expr *e)
{
	switch (e->kind) {
	case EXPR_NUMBER:
		buf_printf(b, "%s", e->num.text);
		if (e->num.unit)
			buf_printf(b, "'%s", e->num.unit);
		break;
	case EXPR_STRING:
		buf_printf(b, "\"%s\"", e->str.text);
		break;
	case EXPR_BOOL:
		buf_puts(b, e->boolean ? "#t" : "#f");
		break;
	case EXPR_AUTO:
		buf_puts(b, "#auto");
		break;
	case EXPR_NAME:
		buf_puts(b, e->name);
		break;
	case EXPR_MEMBER:
		buf_puts(b, "(. ");
		dump_expr(b, e->member.base);
		buf_printf(b, " %s)", e->member.field);
		break;
	case EXPR_CALL:
		buf_printf(b, "(call %s", e->call.name);
		for (int i = 0; i < e->call.nargs; i++) {
			buf_printf(b, " (%s ", e->call.args[i].name ? e->call.args[i].name : "_");
			dump_expr(b, e->call.args[i].value);
			buf_putc(b, ')');
		}
		buf_putc(b, ')');
		break;
	case EXPR_LIST:
		buf_puts(b, "(list");
		for (int i = 0; i < e->list.n; i++) {
			buf_putc(b, ' ');
			dump_expr(b, e->list.items[i]);
		}
		buf_putc(b, ')');
		break;
	case EXPR_PAREN:
	case EXPR_NEG:
		buf_printf(b, "(%s ", expr_kind_names[e->kind]);
		dump_expr(b, e->inner);
		buf_putc(b, ')');
		break;
	case EXPR_RANGE:
		buf_puts(b, "(.. ");
		dump_expr(b, e->range.lo);
		buf_putc(b, ' ');
		dump_expr(b, e->range.hi);
		if (e->range.step) {
			buf_putc(b, ' ');
			dump_expr(b, e->range.step);
		}
		buf_putc(b, ')');
		break;
	default:
		buf_printf(b, "(%s ", expr_kind_names[e->kind]);
		if (e->kind != EXPR_ERROR) {
			dump_expr(b, e->bin.l);
			buf_putc(b, ' ');
			dump_expr(b, e->bin.r);
		}
		buf_putc(b, ')');
		break;
	}
}

static void dump_stmt(Buf *b, const Stmt *s)
{
	switch (s->kind) {
	case STMT_IMPORT:
		buf_printf(b, "(import %s%s)", s->import.module ? "" : "\"",
			   s->import.module ? s->import.module : s->import.path);
		break;
	case STMT_DECL:
		buf_printf(b, "(%s %s %s", s->decl->kind_word, s->decl->name,
			   s->decl->parent_name ? s->decl->parent_name : "-");
		for (int i = 0; i < s->decl->nfields; i++) {
			buf_printf(b, " (%s ", s->decl->fields[i]->name);
			dump_expr(b, s->decl->fields[i]->value);
			buf_putc(b, ')');
		}
		buf_putc(b, ')');
		break;
	case STMT_SCENARIO:
		buf_printf(b, "(scenario %s %s", s->scenario->name,
			   s->scenario->parent_name ? s->scenario->parent_name : "-");
		for (int i = 0; i < s->scenario->nitems; i++) {
			buf_putc(b, ' ');
			dump_stmt(b, s->scenario->items[i]);
		}
		buf_putc(b, ')');
		break;
	case STMT_REQUIRE:
		buf_printf(b, "(require %s ", cmp_op_names[s->require.op]);
		dump_expr(b, s->require.lhs);
		buf_putc(b, ' ');
		dump_expr(b, s->require.rhs);
		buf_putc(b, ')');
		break;
	case STMT_OBJECTIVE:
		buf_printf(b, "(%s ", s->objective.maximize ? "maximize" : "minimize");
		dump_expr(b, s->objective.expr);
		buf_putc(b, ')');
		break;
	case STMT_OVERRIDE:
		buf_puts(b, "(set ");
		for (int i = 0; i < s->override.path.n; i++)
			buf_printf(b, "%s%s", i ? "." : "", s->override.path.parts[i]);
		buf_putc(b, ' ');
		dump_expr(b, s->override.value);
		buf_putc(b, ')');
		break;
	}
}

/* The tree as an S-expression, one statement a line, then the comments' texts sorted (each
 * line without its trailing whitespace): equal dumps mean the same meaning and comments. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *dump_file(const File *f)
{
	Buf b = {0};
	for (int i = 0; i < f->nstmts; i++) {
		dump_stmt(&b, f->stmts[i]);
		buf_putc(&b, '\n');
	}
	char **texts = xmalloc(sizeof *texts * (size_t)(f->ncomments + 1));
	for (int i = 0; i < f->ncomments; i++) {
		Buf t = {0};
		const char *s = f->src->text + f->comments[i].loc.off;
		const char *end = f->src->text + f->comments[i].loc.end;
		while (s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			const char *e = nl ? nl : end;
			while (e > s && strchr(" \t\r\f\v", e[-1]))
				e--;
			buf_put(&t, s, (size_t)(e - s));
			buf_putc(&t, '|');
			s = nl ? nl + 1 : end;
		}
		texts[i] = t.s ? t.s : xstrdup("");
	}
	qsort(texts, (size_t)f->ncomments, sizeof *texts, cmp_str);
	buf_printf(&b, "%d comments\n", f->ncomments);
	for (int i = 0; i < f->ncomments; i++) {
		buf_printf(&b, "%s\n", texts[i]);
		free(texts[i]);
	}
	free(texts);
	return b.s ? b.s : xstrdup("");
}

/* The self-check: text parses, and its formatting parses to the same tree and comments and
 * formats to itself. Returns the formatting (the caller frees it), or NULL after a failure. */
static char *check_round_trip(const char *name, const char *text, size_t len, size_t *out_len)
{
	Ctx *c = new_ctx();
	File *f = parse_text(c, name, text, len);
	CU_ASSERT_TRUE(f->parsed_ok);
	if (!f->parsed_ok) {
		fprintf(stderr, "\n%s: does not parse\n", name);
		ctx_free(c);
		return NULL;
	}
	size_t n1 = 0, n2 = 0;
	char *once = fmt_file(f, &n1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(once);
	CU_ASSERT_EQUAL(strlen(once), n1);
	char *before = dump_file(f);

	Ctx *c2 = new_ctx();
	File *g = parse_text(c2, name, once, n1);
	CU_ASSERT_TRUE(g->parsed_ok);
	char *after = dump_file(g);
	CU_ASSERT_STRING_EQUAL(after, before);
	if (strcmp(after, before) != 0)
		fprintf(stderr, "\n%s: the formatting changed the tree or the comments\n--- before:\n"
				"%s--- after:\n%s", name, before, after);
	char *twice = g->parsed_ok ? fmt_file(g, &n2) : NULL;
	CU_ASSERT_PTR_NOT_NULL(twice);
	if (twice) {
		CU_ASSERT_EQUAL(n2, n1);
		CU_ASSERT_STRING_EQUAL(twice, once);
		if (strcmp(twice, once) != 0)
			fprintf(stderr, "\n%s: not idempotent\n--- once:\n%s--- twice:\n%s", name, once,
				twice);
	}
	free(twice);
	free(before);
	free(after);
	ctx_free(c2);
	ctx_free(c);
	*out_len = n1;
	return once;
}

/* Calls fn on each *.cluster file under dir (recursively), in name order. */
static int each_cluster(const char *dir, void (*fn)(const char *path))
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), count = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, nm);
		size_t l = strlen(nm);
		if (nm[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				count += each_cluster(path, fn);
			else if (l > 8 && strcmp(nm + l - 8, ".cluster") == 0) {
				fn(path);
				count++;
			}
		}
		free(names[i]);
	}
	free(n >= 0 ? names : NULL);
	return count;
}

/* ---- goldens ------------------------------------------------------------------------------- */

static void golden_one(const char *path)
{
	size_t len = 0, want_len = 0, got_len = 0;
	char *text = slurp(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *got = check_round_trip(path, text, len, &got_len);
	char fmt_path[4096];
	snprintf(fmt_path, sizeof fmt_path, "%.*s.fmt", (int)(strlen(path) - 8), path);
	if (got && getenv("UPDATE_GOLDEN")) {
		spit(fmt_path, got, got_len);
	} else if (got) {
		char *want = slurp(fmt_path, &want_len);
		CU_ASSERT_PTR_NOT_NULL(want);
		if (want) {
			CU_ASSERT_STRING_EQUAL(got, want);
			if (strcmp(got, want) != 0)
				fprintf(stderr, "\n%s: formatting differs from %s\n--- got:\n%s--- want:\n%s",
					path, fmt_path, got, want);
			/* The expected output is canonical itself. */
			size_t again_len = 0;
			char *again = check_round_trip(fmt_path, want, want_len, &again_len);
			CU_ASSERT_PTR_NOT_NULL(again);
			if (again)
				CU_ASSERT_STRING_EQUAL(again, want);
			free(again);
		}
		free(want);
	}
	free(got);
	free(text);
}

static void test_goldens(void)
{
	int n = each_cluster(CLUSTERC_SOURCE_DIR "/tests/fmt", golden_one);
	CU_ASSERT(n >= 12);
}

static void corpus_one(const char *path)
{
	size_t len = 0, out_len = 0;
	char *text = slurp(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	free(check_round_trip(path, text, len, &out_len));
	free(text);
}

static void test_stdlib_and_examples(void)
{
	CU_ASSERT(each_cluster(CLUSTERC_SOURCE_DIR "/stdlib", corpus_one) > 0);
	each_cluster(CLUSTERC_SOURCE_DIR "/examples", corpus_one);
}

/* ---- inline cases -------------------------------------------------------------------------- */

#define ASSERT_FMT(in, want)                                                               \
	do {                                                                               \
		size_t n_ = 0;                                                             \
		char *got_ = check_round_trip("inline", in, strlen(in), &n_);              \
		CU_ASSERT_PTR_NOT_NULL(got_);                                              \
		if (got_) {                                                                \
			CU_ASSERT_STRING_EQUAL(got_, want);                                \
			if (strcmp(got_, want) != 0)                                       \
				fprintf(stderr, "\n--- got:\n%s--- want:\n%s", got_, want); \
		}                                                                          \
		free(got_);                                                                \
	} while (0)

static void test_empty(void)
{
	size_t n = 99;
	char *s = fmt_text("", 0, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	ASSERT_FMT("\n\n \t\n", "");
	ASSERT_FMT("\r\n", "");
	ASSERT_FMT("// c", "// c\n");
	ASSERT_FMT("\n\n// c   \n\n\n", "// c\n");
}

static void test_layout(void)
{
	ASSERT_FMT("node a{f=1;longer=2 // x\n g = [1,2,] }\n",
		   "node a {\n  f      = 1\n  longer = 2  // x\n  g      = [1, 2]\n}\n");
	ASSERT_FMT("scenario s{a.b=1}\nscenario t{ a.b = 1; c.d = 2 }\n",
		   "scenario s { a.b = 1 }\nscenario t {\n  a.b = 1\n  c.d = 2\n}\n");
	ASSERT_FMT("node a\n{\n}\nnode b : a\n{ f = 1 }\n", "node a {}\nnode b : a { f = 1 }\n");
	ASSERT_FMT("import std . network;import \"a b.cluster\"\n",
		   "import std.network\nimport \"a b.cluster\"\n");
	ASSERT_FMT("require a.b<=-c\nmaximize (a+b)*c\n", "require a.b <= -c\nmaximize (a + b) * c\n");
	ASSERT_FMT("node y { r = 1..8 step 2; q = 1 : 1; m = 8x H; u = 10.2kW; v = one_of(auto, 2) }\n",
		   "node y {\n  r = 1..8 step 2\n  q = 1:1\n  m = 8 x H\n  u = 10.2 kW\n"
		   "  v = one_of(auto, 2)\n}\n");
	ASSERT_FMT("node a {\n  l = [1,\n  2]\n  e = [\n  ]\n}\n",
		   "node a {\n  l = [\n    1,\n    2,\n  ]\n  e = []\n}\n");
	ASSERT_FMT("node a {\n\n\n  f = 1\n\n\n\n  g = 2\n\n}\n\n\n\nnode b {}\n\n",
		   "node a {\n  f = 1\n\n  g = 2\n}\n\nnode b {}\n");
	ASSERT_FMT("node a {\r\n  f = 1 // c \r\n}\r\n", "node a {\n  f = 1  // c\n}\n");
}

static void test_comments(void)
{
	/* Trailing comments share a column within a run; lines without one do not move it. */
	ASSERT_FMT("node a {\n  f = 1 // one\n  long_name = \"a long value\"\n  g = 22 // two\n}\n",
		   "node a {\n  f         = 1   // one\n  long_name = \"a long value\"\n"
		   "  g         = 22  // two\n}\n");
	/* A comment inside an expression or a header moves before its statement. */
	ASSERT_FMT("node /* h */ a { f = 1 + /* e */ 2 }\n",
		   "/* h */\nnode a {\n  /* e */\n  f = 1 + 2\n}\n");
	ASSERT_FMT("require a /* l */ <= b\n", "/* l */\nrequire a <= b\n");
	/* After an opening bracket, after an item's comma, before a closing bracket. */
	ASSERT_FMT("node a { // o\n  f = g( // p\n    x1 = 1 // q\n    , y = 2\n    // r\n"
		   "  ) // s\n  // t\n}\n",
		   "node a {  // o\n  f = g(  // p\n    x1 = 1,  // q\n    y = 2,\n    // r\n  )  // s\n"
		   "  // t\n}\n");
}

/* Comments in every awkward place the grammar allows: none is lost, none is duplicated. */
static void test_comment_counts(void)
{
	static const char *const cases[] = {
		"/* a */ import /* b */ std /* c */ . /* d */ network // e\n",
		"node /* a */ n /* b */ : /* c */ p /* d */ { /* e */ f /* f */ = /* g */ 1 /* h */ }"
		" // i\n",
		"node n // a\n// b\n{ // c\n// d\n}\n",
		"scenario s { a /* a */ . /* b */ b = /* c */ [ /* d */\n 1 /* e */ , // f\n"
		" /* g */ 2 ] /* h */ }\n",
		"node n { f = g( /* a */ ) }\nnode m { f = g(\n /* a */ ) }\nnode k { f = [\n // a\n] }\n",
		"node n { f = [\n [ // a\n 1, /* b */ 2 ], // c\n f( /* d */\n x1 = 1 ) ] }\n",
		"require /* a */ - /* b */ ( /* c */ a /* d */ ) /* e */ <= /* f */ 1 /* g */ .. /* h */ 2\n",
		"minimize a /* a */ . /* b */ b /* c */ x /* d */ c // e\n",
		"node n { f = 1 /* a\n b */ ; g = 2 /* c */ /* d */ // e\n}\n",
		"node n { f = (1 +\n // a\n 2) }\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = 0;
		Ctx *c = new_ctx();
		File *f = parse_text(c, "case", cases[i], strlen(cases[i]));
		CU_ASSERT_TRUE(f->parsed_ok);
		int before = f->ncomments;
		char *out = check_round_trip("case", cases[i], strlen(cases[i]), &n);
		CU_ASSERT_PTR_NOT_NULL(out);
		if (out) {
			Ctx *c2 = new_ctx();
			File *g = parse_text(c2, "out", out, n);
			CU_ASSERT_EQUAL(g->ncomments, before);
			if (g->ncomments != before)
				fprintf(stderr, "\ncase %zu: %d comments became %d:\n%s", i, before,
					g->ncomments, out);
			ctx_free(c2);
		}
		free(out);
		ctx_free(c);
	}
}

static void test_syntax_error(void)
{
	/* A file with syntax errors is not formatted: statements that failed to parse are not in
	 * the tree, and printing it would delete them. */
	Ctx *c = new_ctx();
	const char *text = "node a {\n  f = = 1\n}\n";
	File *f = parse_file(c, src_from_text(c, "bad", text, strlen(text)));
	CU_ASSERT_FALSE(f->parsed_ok);
	size_t n = 7;
	CU_ASSERT_PTR_NULL(fmt_file(f, &n));
	ctx_free(c);
}

void suite_fmt(void); /* the one entry point, for unit_main.c */

void suite_fmt(void)
{
	CU_pSuite s = CU_add_suite("fmt", NULL, NULL);
	if (!s)
		return;
	CU_add_test(s, "goldens (tests/fmt), idempotent, same tree", test_goldens);
	CU_add_test(s, "stdlib and examples: idempotent, same tree", test_stdlib_and_examples);
	CU_add_test(s, "empty and blank files", test_empty);
	CU_add_test(s, "layout rules", test_layout);
	CU_add_test(s, "comment placement", test_comments);
	CU_add_test(s, "comment counts", test_comment_counts);
	CU_add_test(s, "syntax errors are not formatted", test_syntax_error);
}
