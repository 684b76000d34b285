/*
 * test_diag.c — CUnit tests for the front end's base: diagnostics in text and JSON form,
 * "did you mean" suggestions, sources (line and column, loading and rejecting files), and the
 * arena, vectors, buffers and interner underneath. Rendered text is compared byte for byte, so
 * a change of layout shows here first.
 */
#include "lang.h"

#include <CUnit/CUnit.h>
#if defined(__SANITIZE_ADDRESS__)
#define UNIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNIT_ASAN 1
#endif
#endif
#ifdef UNIT_ASAN
#include <sanitizer/asan_interface.h>
#endif
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static Ctx *new_ctx(DiagFormat format, int limit)
{
	return ctx_new((DiagOptions){.format = format, .color = false, .error_limit = limit});
}

/* Renders c's diagnostics into a string the caller frees. */
static char *render(Ctx *c)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	diag_render(c, f);
	fclose(f);
	return s;
}

/* The span of the first occurrence of `needle` in s, or of its `nth` (from 0). */
static Loc find(const Source *s, const char *needle, int nth)
{
	const char *p = s->text;
	for (;;) {
		p = strstr(p, needle);
		CU_ASSERT_FATAL(p != NULL);
		if (nth-- == 0)
			break;
		p++;
	}
	uint32_t off = (uint32_t)(p - s->text);
	return (Loc){s, off, off + (uint32_t)strlen(needle)};
}

static Source *text_src(Ctx *c, const char *name, const char *text)
{
	return src_from_text(c, name, text, strlen(text));
}

#define ASSERT_RENDER(c, expected)                       \
	do {                                             \
		char *got_ = render(c);                  \
		CU_ASSERT_STRING_EQUAL(got_, expected);  \
		if (strcmp(got_, expected) != 0)         \
			fprintf(stderr, "\n--- got:\n%s--- want:\n%s", got_, expected); \
		free(got_);                              \
	} while (0)

static const char *const SPEC =
	"// 1\n// 2\nnode dgx_h100 {\n// 4\n// 5\n// 6\n// 7\n// 8\n// 9\n// 10\n// 11\n"
	"  power = 10.2 kW + 400 Gbps\n}\n";

static void test_one_line_span_and_note(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "wanka.cluster", SPEC);
	Diag *d = diag_error(c, find(s, "10.2 kW + 400 Gbps", 0),
			     "cannot add power and bandwidth");
	diag_note(d, find(s, "dgx_h100", 0), "in node 'dgx_h100'");
	ASSERT_RENDER(c, "wanka.cluster:12:11: error: cannot add power and bandwidth\n"
			 "   12 |   power = 10.2 kW + 400 Gbps\n"
			 "      |           ^~~~~~~~~~~~~~~~~~\n"
			 "wanka.cluster:3:6: note: in node 'dgx_h100'\n"
			 "    3 | node dgx_h100 {\n"
			 "      |      ^~~~~~~~\n"
			 "1 error generated.\n");
	CU_ASSERT_EQUAL(diag_errors(c), 1);
	/* Printed once: a second render has nothing to say. */
	ASSERT_RENDER(c, "");
	ctx_free(c);
}

static void test_multiline_span_and_ranges(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "m.cluster", "x = [1,\n  2]\ny = a + b + c\n");
	Loc open = find(s, "[", 0), close = find(s, "]", 0);
	diag_error(c, loc_span(open, close), "a list here");
	Diag *d = diag_warning(c, find(s, "+", 0), "odd sum");
	diag_range(d, find(s, "a", 0));
	diag_range(d, find(s, "c", 0));
	diag_note(d, NOLOC, "sums are fine");
	ASSERT_RENDER(c, "m.cluster:1:5: error: a list here\n"
			 "    1 | x = [1,\n"
			 "      |     ^~~\n"
			 "m.cluster:3:7: warning: odd sum\n"
			 "    3 | y = a + b + c\n"
			 "      |     ~ ^     ~\n"
			 "note: sums are fine\n"
			 "1 warning and 1 error generated.\n");
	ctx_free(c);
}

static void test_noloc_and_summary(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	diag_error(c, NOLOC, "no input files");
	diag_error(c, NOLOC, "second");
	diag_warning(c, NOLOC, "w1");
	diag_warning(c, NOLOC, "w2");
	ASSERT_RENDER(c, "clusterc: error: no input files\n"
			 "clusterc: error: second\n"
			 "clusterc: warning: w1\n"
			 "clusterc: warning: w2\n"
			 "2 warnings and 2 errors generated.\n");
	ctx_free(c);

	c = new_ctx(DIAG_TEXT, 0);
	diag_warning(c, NOLOC, "only");
	ASSERT_RENDER(c, "clusterc: warning: only\n1 warning generated.\n");
	ctx_free(c);
}

static void test_tabs(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "t.cluster", "\tpower =\t10 kW\n");
	diag_error(c, find(s, "10", 0), "tab");
	ASSERT_RENDER(c, "t.cluster:1:10: error: tab\n"
			 "    1 | \tpower =\t10 kW\n"
			 "      | \t       \t^~\n"
			 "1 error generated.\n");
	ctx_free(c);
}

/* The column number counts code points; the caret line counts terminal cells, two for each
 * wide character, so the caret stays under its target after Chinese text. */
static void test_utf8_columns(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "u.cluster", "title = \"万卡集群\" + 5 kW\n");
	diag_error(c, find(s, "5 kW", 0), "wide");
	ASSERT_RENDER(c, "u.cluster:1:18: error: wide\n"
			 "    1 | title = \"万卡集群\" + 5 kW\n"
			 "      |                      ^~~~\n"
			 "1 error generated.\n");
	ctx_free(c);

	/* Under a wide character the caret takes both its cells; narrow non-ASCII takes one. */
	c = new_ctx(DIAG_TEXT, 0);
	s = text_src(c, "w.cluster", "x = \"µ万\" 集\n");
	diag_error(c, find(s, "集", 0), "on a wide character");
	diag_error(c, find(s, "万", 0), "after a narrow one");
	ASSERT_RENDER(c, "w.cluster:1:7: error: after a narrow one\n"
			 "    1 | x = \"µ万\" 集\n"
			 "      |       ^~\n"
			 "w.cluster:1:10: error: on a wide character\n"
			 "    1 | x = \"µ万\" 集\n"
			 "      |           ^~\n"
			 "2 errors generated.\n");
	ctx_free(c);
}

static void test_color(void)
{
	Ctx *c = ctx_new((DiagOptions){DIAG_TEXT, true, 0});
	Source *s = text_src(c, "c.cluster", "a = b\n");
	diag_error(c, find(s, "b", 0), "bad");
	ASSERT_RENDER(c, "\033[1mc.cluster:1:5:\033[0m \033[1;31merror:\033[0m bad\n"
			 "    1 | a = b\n"
			 "      | \033[1;32m    ^\033[0m\n"
			 "1 error generated.\n");
	ctx_free(c);
}

static void test_caret_at_line_end_and_long_line(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "e.cluster", "a = \r\nb");
	diag_error(c, (Loc){s, 4, 4}, "expected a value");
	ASSERT_RENDER(c, "e.cluster:1:5: error: expected a value\n"
			 "    1 | a = \n"
			 "      |     ^\n"
			 "1 error generated.\n");
	ctx_free(c);

	/* A 200,000-column line shows a window of 200 columns around the caret. */
	c = new_ctx(DIAG_TEXT, 0);
	size_t n = 200000;
	char *line = malloc(n + 1);
	memset(line, 'x', n);
	memcpy(line + 100000, "BAD", 3);
	line[n] = '\0';
	s = text_src(c, "l.cluster", line);
	diag_error(c, (Loc){s, 100000, 100003}, "long");
	char *got = render(c);
	char want[1024];
	snprintf(want, sizeof want,
		 "l.cluster:1:100001: error: long\n"
		 "    1 | ...%.60sBAD%.137s...\n"
		 "      |    %60s^~~\n"
		 "1 error generated.\n",
		 line, line, "");
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	free(line);
	ctx_free(c);
}

static void test_error_limit(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 2);
	diag_error(c, NOLOC, "one");
	CU_ASSERT_FALSE(diag_limit_reached(c));
	diag_error(c, NOLOC, "two");
	CU_ASSERT_TRUE(diag_limit_reached(c));
	Diag *d = diag_error(c, NOLOC, "three");
	CU_ASSERT_PTR_NOT_NULL(d);
	diag_note(d, NOLOC, "ignored");
	diag_set_code(d, "ignored");
	diag_warning(c, NOLOC, "dropped too");
	CU_ASSERT_EQUAL(diag_errors(c), 3);
	ASSERT_RENDER(c, "clusterc: error: one\n"
			 "clusterc: error: two\n"
			 "clusterc: fatal: too many errors (limit 2); stopping\n"
			 "3 errors generated.\n");
	ctx_free(c);
}

static void test_json(void)
{
	Ctx *c = new_ctx(DIAG_JSON, 0);
	Source *s = text_src(c, "j.cluster", "node n {\n  pwer = 10 kW\n}\n");
	Diag *d = diag_error(c, find(s, "pwer", 0), "unknown field 'pwer'; did you mean 'power'?");
	diag_set_code(d, "unknown-field");
	diag_set_suggestion(d, "power");
	diag_range(d, find(s, "10 kW", 0));
	diag_note(d, find(s, "n", 1), "in node 'n'");
	diag_note(d, NOLOC, "fields are listed in docs/language.md");
	diag_warning(c, NOLOC, "nothing");

	char *out = render(c);
	CU_ASSERT_EQUAL(out[strlen(out) - 1], '\n');
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\n  \"diagnostics\": [\n    {\n      \"severity\""));
	json_error_t err;
	json_t *root = json_loads(out, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	/* Keys in the documented order. */
	const char *order[] = {"severity", "code", "message", "file", "line", "column", "end_line",
			       "end_column", "offset", "length", "source_line", "suggestion",
			       "ranges", "notes"};
	const char *prev = out;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		char key[32];
		snprintf(key, sizeof key, "\"%s\"", order[i]);
		const char *at = strstr(prev, key);
		CU_ASSERT_PTR_NOT_NULL_FATAL(at);
		prev = at;
	}
	json_t *list = json_object_get(root, "diagnostics");
	CU_ASSERT_EQUAL(json_array_size(list), 2);
	/* Sorted by place: the warning without a location comes first. */
	json_t *e = json_array_get(list, 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "severity")), "error");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "code")), "unknown-field");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "message")),
			       "unknown field 'pwer'; did you mean 'power'?");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "file")), "j.cluster");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "line")), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "column")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "end_line")), 2);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "end_column")), 7);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "offset")), 11);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "length")), 4);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "source_line")),
			       "  pwer = 10 kW");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "suggestion")), "power");
	json_t *r = json_array_get(json_object_get(e, "ranges"), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "column")), 10);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "end_column")), 15);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "length")), 5);
	json_t *notes = json_object_get(e, "notes");
	CU_ASSERT_EQUAL(json_array_size(notes), 2);
	json_t *n0 = json_array_get(notes, 0), *n1 = json_array_get(notes, 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(n0, "message")), "in node 'n'");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(n0, "line")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(n0, "column")), 6);
	CU_ASSERT_EQUAL(json_object_size(n0), 6);
	CU_ASSERT_EQUAL(json_object_size(n1), 1);
	json_t *w = json_array_get(list, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "severity")), "warning");
	CU_ASSERT_TRUE(json_is_null(json_object_get(w, "code")));
	CU_ASSERT_TRUE(json_is_null(json_object_get(w, "file")));
	CU_ASSERT_TRUE(json_is_null(json_object_get(w, "line")));
	CU_ASSERT_TRUE(json_is_null(json_object_get(w, "suggestion")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "errors")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "warnings")), 1);
	CU_ASSERT_TRUE(json_is_false(json_object_get(root, "limit_reached")));
	json_decref(root);
	free(out);

	/* Deterministic, and the list is forgotten once printed. */
	out = render(c);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"diagnostics\": []"));
	free(out);
	ctx_free(c);
}

static void test_suggest(void)
{
	const char *units[] = {"W", "kB", "kWh", "kW", "MW"};
	CU_ASSERT_STRING_EQUAL(suggest("kw", units, 5), "kW");
	CU_ASSERT_STRING_EQUAL(suggest("KW", units, 5), "kW");
	const char *fields[] = {"price", "power", "height", "accelerators"};
	CU_ASSERT_STRING_EQUAL(suggest("pwer", fields, 4), "power");
	CU_ASSERT_STRING_EQUAL(suggest("powre", fields, 4), "power");
	CU_ASSERT_STRING_EQUAL(suggest("acclerators", fields, 4), "accelerators");
	CU_ASSERT_STRING_EQUAL(suggest("HEIGHT", fields, 4), "height");
	CU_ASSERT_PTR_NULL(suggest("bandwidth", fields, 4));
	CU_ASSERT_PTR_NULL(suggest("xyz", fields, 4));
	CU_ASSERT_PTR_NULL(suggest("", fields, 4));
	/* Ties go to the earliest candidate. */
	const char *ties[] = {"cat", "bat"};
	CU_ASSERT_STRING_EQUAL(suggest("hat", ties, 2), "cat");
	/* Long words are refused quickly rather than compared. */
	char *big = malloc(100001);
	memset(big, 'a', 100000);
	big[100000] = '\0';
	const char *bigs[] = {big, "a"};
	CU_ASSERT_PTR_NULL(suggest(big, bigs, 2));
	free(big);
}

static void test_source_lines(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	Source *s = text_src(c, "<set>", "ab\r\ncd\nef");
	CU_ASSERT_EQUAL(s->nlines, 3);
	CU_ASSERT_EQUAL(s->id, 0);
	CU_ASSERT_PTR_NULL(s->abspath);
	int line, col, len;
	src_linecol(s, 0, &line, &col);
	CU_ASSERT(line == 1 && col == 1);
	src_linecol(s, 5, &line, &col);
	CU_ASSERT(line == 2 && col == 2);
	src_linecol(s, 8, &line, &col);
	CU_ASSERT(line == 3 && col == 2);
	src_linecol(s, 1000, &line, &col);
	CU_ASSERT(line == 3 && col == 3);
	const char *t = src_line(s, 1, &len);
	CU_ASSERT(len == 2 && strncmp(t, "ab", 2) == 0);
	t = src_line(s, 3, &len);
	CU_ASSERT(len == 2 && strncmp(t, "ef", 2) == 0);
	src_line(s, 4, &len);
	CU_ASSERT_EQUAL(len, 0);
	Source *u = text_src(c, "<u>", "名字 = 1");
	CU_ASSERT_EQUAL(u->id, 1);
	src_linecol(u, 7, &line, &col); /* after two 3-byte characters and a space */
	CU_ASSERT(line == 1 && col == 4);
	Loc a = {s, 1, 2}, b = {s, 5, 6};
	Loc ab = loc_span(a, b);
	CU_ASSERT(ab.src == s && ab.off == 1 && ab.end == 6);
	CU_ASSERT(loc_span(NOLOC, b).off == 5);
	ctx_free(c);
}

/* Writes bytes to a new temporary file; the caller unlinks and frees the returned path. */
static char *temp_file(const void *data, size_t n, off_t size)
{
	char *path = strdup("/tmp/clusterc_test_XXXXXX");
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, data, n) == (ssize_t)n);
	if (size)
		CU_ASSERT_FATAL(ftruncate(fd, size) == 0);
	close(fd);
	return path;
}

/* Loads `path` with no location and checks the one message it gives. */
static void expect_load_error(const char *path, const char *msg, bool io)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	bool io_error = !io;
	CU_ASSERT_PTR_NULL(src_load(c, path, NOLOC, &io_error));
	CU_ASSERT_EQUAL(io_error, io);
	char want[512];
	snprintf(want, sizeof want, "clusterc: error: %s\n1 error generated.\n", msg);
	ASSERT_RENDER(c, want);
	ctx_free(c);
}

static void test_source_load(void)
{
	char msg[512];
	char *nul = calloc(1, 2000);
	memset(nul, 'a', 1234);
	char *p = temp_file(nul, 2000, 0);
	snprintf(msg, sizeof msg,
		 "'%s' is a binary file (NUL byte at offset 1234), not a clusterc spec", p);
	expect_load_error(p, msg, false);
	unlink(p);
	free(p);
	free(nul);

	p = temp_file("ok\nab\xff", 6, 0);
	snprintf(msg, sizeof msg, "'%s': invalid UTF-8 at line 2, column 3 (byte 0xff)", p);
	expect_load_error(p, msg, false);
	unlink(p);
	free(p);

	p = temp_file("\xed\xa0\x80", 3, 0); /* an encoded surrogate */
	snprintf(msg, sizeof msg, "'%s': invalid UTF-8 at line 1, column 1 (byte 0xed)", p);
	expect_load_error(p, msg, false);
	unlink(p);
	free(p);

	p = temp_file("x", 1, (off_t)80 << 20); /* sparse: no 80 MiB written */
	snprintf(msg, sizeof msg, "'%s' is too large (80.0 MiB; the limit is 64 MiB)", p);
	expect_load_error(p, msg, false);
	unlink(p);
	free(p);

	expect_load_error("/tmp/clusterc_no_such_dir/x.cluster",
			  "cannot open '/tmp/clusterc_no_such_dir/x.cluster': "
			  "No such file or directory",
			  true);
	expect_load_error("/tmp", "cannot read '/tmp': Is a directory", true);

	/* A good file: BOM dropped, canonical path, registered in load order. */
	p = temp_file("\xef\xbb\xbfnode a {}\n", 13, 0);
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	text_src(c, "<first>", "");
	bool io_error = true;
	Source *s = src_load(c, p, NOLOC, &io_error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_FALSE(io_error);
	CU_ASSERT_EQUAL(s->len, 10);
	CU_ASSERT_STRING_EQUAL(s->text, "node a {}\n");
	CU_ASSERT_STRING_EQUAL(s->path, p);
	CU_ASSERT_STRING_EQUAL(s->abspath, p);
	CU_ASSERT_EQUAL(s->id, 1);
	CU_ASSERT_EQUAL(c->sources.n, 2);
	CU_ASSERT_PTR_EQUAL(c->sources.v[1], s);
	CU_ASSERT_EQUAL(diag_errors(c), 0);
	ctx_free(c);
	unlink(p);
	free(p);

	/* An error at an import's location. */
	c = new_ctx(DIAG_TEXT, 0);
	Source *imp = text_src(c, "main.cluster", "import \"gone.cluster\"\n");
	src_load(c, "/tmp/clusterc_no_such_dir/gone.cluster", find(imp, "\"gone.cluster\"", 0),
		 &io_error);
	CU_ASSERT_TRUE(io_error);
	ASSERT_RENDER(c, "main.cluster:1:8: error: "
			 "cannot open '/tmp/clusterc_no_such_dir/gone.cluster': "
			 "No such file or directory\n"
			 "    1 | import \"gone.cluster\"\n"
			 "      |        ^~~~~~~~~~~~~~\n"
			 "1 error generated.\n");
	ctx_free(c);
}

static void test_arena_intern(void)
{
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	size_t before = arena_bytes(c->arena);
	for (int i = 1; i < 100; i++) {
		unsigned char *p = arena_alloc(c->arena, (size_t)i);
		CU_ASSERT_EQUAL((uintptr_t)p % 16, 0);
		CU_ASSERT_EQUAL(p[i - 1], 0);
		memset(p, 0xaa, (size_t)i);
	}
	unsigned char *big = arena_alloc(c->arena, 3 << 20);
	CU_ASSERT_EQUAL(big[(3 << 20) - 1], 0);
	CU_ASSERT(arena_bytes(c->arena) >= before + (3u << 20));
	CU_ASSERT_STRING_EQUAL(arena_printf(c->arena, "%s-%04d", "gpu", 7), "gpu-0007");
	CU_ASSERT_STRING_EQUAL(arena_strndup(c->arena, "abcdef", 3), "abc");
	/* Printed in place (arena.c): strings of 4,000 bytes past several chunks' ends, each
	 * aligned where an allocation would stand, and the memory handed out after them zeroed;
	 * then every byte of the chunks kept and handed out again zeroed too (a string that did
	 * not fit a chunk's rest was printed there first, then zeroed again: a kept chunk is
	 * zeroed only as far as it was used). */
	arena_keep_chunks(true);
	bool same = true, zero = true;
	Arena *a = arena_new();
	for (int i = 0; i < 1500; i++) {
		char *t = arena_printf(a, "%04000d", i);
		same &= strlen(t) == 4000 && atoi(t) == i && (uintptr_t)t % 16 == 0;
		const unsigned char *after = arena_alloc(a, 8192 + 16 * (size_t)(i % 7));
		for (int k = 0; k < 8192; k++)
			zero &= after[k] == 0;
	}
	arena_free(a);
	a = arena_new();
	for (int i = 0; i < 24 * 16384; i++) { /* 24 MiB, to every chunk's end: every one kept */
		const unsigned char *p = arena_alloc(a, 64);
		for (int k = 0; k < 64; k++)
			zero &= p[k] == 0;
	}
	arena_free(a);
	arena_keep_chunks(false);
	CU_ASSERT(same);
	CU_ASSERT(zero);

	PtrVec v = {0};
	for (intptr_t i = 0; i < 1000; i++)
		vec_push(c->arena, &v, (void *)i);
	CU_ASSERT(v.n == 1000 && v.cap >= 1000 && v.v[999] == (void *)999);

	Buf b = {0};
	buf_puts(&b, "a");
	buf_putc(&b, 'b');
	for (int i = 0; i < 100; i++)
		buf_printf(&b, "%0300d", i);
	CU_ASSERT_EQUAL(b.len, 2 + 100 * 300);
	CU_ASSERT_EQUAL(strncmp(b.s, "ab000", 5), 0);
	CU_ASSERT_EQUAL(b.s[b.len], '\0');
	buf_free(&b);

	const char *x = intern_cstr(c, "power");
	char tmp[] = "power_limit";
	CU_ASSERT_PTR_EQUAL(intern(c, tmp, 5), x);
	CU_ASSERT_PTR_NOT_EQUAL(intern_cstr(c, "power_limit"), x);
	CU_ASSERT_PTR_EQUAL(intern_cstr(c, ""), intern(c, "", 0));
	/* Enough names to grow the table several times; all stay distinct and stable. */
	const char **names = malloc(50000 * sizeof *names);
	for (int i = 0; i < 50000; i++) {
		char name[32];
		snprintf(name, sizeof name, "gpu%05d", i);
		names[i] = intern_cstr(c, name);
	}
	int ok = 1;
	for (int i = 0; i < 50000; i++) {
		char name[32];
		snprintf(name, sizeof name, "gpu%05d", i);
		ok &= intern_cstr(c, name) == names[i] && strcmp(names[i], name) == 0;
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_PTR_EQUAL(intern_cstr(c, "power"), x);
	free(names);
	ctx_free(c);
}

/* ctx_mark and ctx_rewind (a compare worker's kept parse): after a rewind every byte handed out
 * before the mark is as it was then, whatever was written into it since; what was handed out
 * since is gone and comes back zeroed; the interner and the diagnostics are as at the mark. With
 * the chunks kept for reuse (a worker's arenas) and without, twice over. */
static void test_ctx_mark(void)
{
	for (int keep = 0; keep < 2; keep++) {
		arena_keep_chunks(keep);
		Ctx *c = new_ctx(DIAG_TEXT, 0);
		char *word = arena_strdup(c->arena, "before the mark");
		unsigned char *block = arena_alloc(c->arena, 4000);
		memset(block, 0x5a, 4000);
		unsigned char *early_big = arena_alloc(c->arena, 1 << 20); /* a chunk of its own */
		early_big[(1 << 20) - 1] = 7;
		const char *alpha = intern_cstr(c, "alpha");
		size_t bytes = arena_bytes(c->arena);
		CtxMark *m = ctx_mark(c);
		for (int round = 0; round < 2; round++) {
			/* What a row does: writes into the program, allocates chunks, big blocks,
			 * names (the interner's table grows), diagnostics. */
			strcpy(word, "AFTER THE MARK!");
			memset(block, 0xee, 4000);
			early_big[(1 << 20) - 1] = 9;
			for (int i = 0; i < 5000; i++)
				memset(arena_alloc(c->arena, 1000), 0xaa, 1000);
			memset(arena_alloc(c->arena, 3 << 20), 0xbb, 3 << 20);
			for (int i = 0; i < 20000; i++) {
				char name[32];
				snprintf(name, sizeof name, "row%05d", i);
				intern_cstr(c, name);
			}
			diag_error(c, NOLOC, "a row's mistake");
			CU_ASSERT_EQUAL(c->nerrors, 1);

			ctx_rewind(c, m);
			CU_ASSERT_STRING_EQUAL(word, "before the mark");
			int same = 1;
			for (int i = 0; i < 4000; i++)
				same &= block[i] == 0x5a;
			CU_ASSERT_TRUE(same);
			CU_ASSERT_EQUAL(early_big[(1 << 20) - 1], 7);
			CU_ASSERT_EQUAL(arena_bytes(c->arena), bytes);
			CU_ASSERT_EQUAL(c->nerrors, 0);
			CU_ASSERT_EQUAL(c->diags.n, 0);
			CU_ASSERT_PTR_EQUAL(intern_cstr(c, "alpha"), alpha);
			const char *fresh = intern_cstr(c, "row00042"); /* forgotten: made again */
			CU_ASSERT_STRING_EQUAL(fresh, "row00042");
			int zero = 1;
			for (int i = 0; i < 3000; i++) {
				unsigned char *p = arena_alloc(c->arena, 1000);
				for (int k = 0; k < 1000; k++)
					zero &= p[k] == 0;
			}
			unsigned char *big = arena_alloc(c->arena, 3 << 20);
			for (int k = 0; k < (3 << 20); k += 4093)
				zero &= big[k] == 0;
			CU_ASSERT_TRUE(zero);
		}
		ctx_mark_free(m);
		ctx_free(c);
	}
	arena_keep_chunks(false);
}


static bool count_run(void *arg, unsigned char *now, const unsigned char *then, size_t n)
{
	(void)now, (void)then, (void)n;
	++*(int *)arg;
	return true;
}

/* A span's delta (arena_delta) replayed into a later run laid out as the first (a compare
 * worker's physical builds kept, driver/compare_physical.c): what the span changed and allocated,
 * small, big from calloc and big mapped, lands at the same addresses; a byte the runs differ in
 * that the span did not write stays the later run's; another layout or a chunk no longer kept
 * replays nothing. */
typedef struct SpanState {
	double x;         /* differs between runs; the span neither reads nor writes it */
	double y;         /* the span writes it */
	char *small;      /* the span's allocations */
	unsigned char *calloced, *mapped;
} SpanState;

static void span_run(Arena *a, SpanState *st)
{
	st->y = 42;
	st->small = arena_strdup(a, "made by the span");
	st->calloced = arena_alloc(a, 1200 << 10);
	memset(st->calloced, 0x3c, 1200 << 10);
	st->mapped = arena_alloc(a, 3 << 20);
	st->mapped[(3 << 20) - 1] = 0x77;
}

static void test_arena_delta(void)
{
	for (int keep = 0; keep < 2; keep++) {
		arena_keep_chunks(keep);
		Ctx *c = new_ctx(DIAG_TEXT, 0);
		arena_strdup(c->arena, "the parse");
		CtxMark *parse = ctx_mark(c);
		SpanState *st = arena_alloc(c->arena, sizeof *st);
		st->x = 1;
		ArenaMark *before = arena_mark(c->arena);
		span_run(c->arena, st);
		ArenaDelta *dl = arena_delta(c->arena, before);
		SpanState first = *st;
		size_t bytes = arena_bytes(c->arena);
		if (!dl) { /* pass-through mode: nothing to replay */
			CU_ASSERT_FALSE(arena_same_layout(c->arena, before));
			arena_mark_free(before);
			ctx_mark_free(parse);
			ctx_free(c);
			continue;
		}
		CU_ASSERT_TRUE(arena_delta_writes(dl, &st->y, sizeof st->y));
		CU_ASSERT_FALSE(arena_delta_writes(dl, &st->x, sizeof st->x));
		/* a run in between writes over the span's chunks (kept for reuse, then kept again) */
		ctx_rewind(c, parse);
		arena_alloc(c->arena, sizeof *st);
		memset(arena_alloc(c->arena, 1200 << 10), 0x11, 1200 << 10);
		memset(arena_alloc(c->arena, 3 << 20), 0x11, 3 << 20);
		/* the next run: the same allocations before the span, another x */
		ctx_rewind(c, parse);
		SpanState *again = arena_alloc(c->arena, sizeof *again);
		CU_ASSERT_PTR_EQUAL(again, st);
		again->x = 2;
		CU_ASSERT_TRUE(arena_same_layout(c->arena, before));
		int runs = 0;
		CU_ASSERT_TRUE(arena_diff(before, count_run, &runs));
		CU_ASSERT_TRUE(runs >= 1);
		CU_ASSERT_EQUAL(arena_delta_apply(c->arena, dl), keep == 1);
		if (keep) {
			CU_ASSERT_EQUAL(again->x, 2);
			CU_ASSERT_EQUAL(again->y, 42);
			CU_ASSERT_PTR_EQUAL(again->small, first.small);
			CU_ASSERT_STRING_EQUAL(again->small, "made by the span");
			CU_ASSERT_PTR_EQUAL(again->calloced, first.calloced);
			CU_ASSERT_PTR_EQUAL(again->mapped, first.mapped);
			int same = 1;
			for (int k = 0; k < (1200 << 10); k += 997)
				same &= again->calloced[k] == 0x3c;
			CU_ASSERT_TRUE(same);
			CU_ASSERT_EQUAL(again->mapped[(3 << 20) - 1], 0x77);
			CU_ASSERT_EQUAL(arena_bytes(c->arena), bytes);
			unsigned char *after = arena_alloc(c->arena, 64); /* past the span's, zeroed */
			int zero = 1;
			for (int k = 0; k < 64; k++)
				zero &= after[k] == 0;
			CU_ASSERT_TRUE(zero);
			CU_ASSERT_TRUE((char *)after > again->small);
		}
		/* another layout before the span: not the mark's */
		ctx_rewind(c, parse);
		arena_alloc(c->arena, 2 * sizeof(SpanState));
		CU_ASSERT_FALSE(arena_same_layout(c->arena, before));
		arena_delta_free(dl);
		arena_mark_free(before);
		ctx_mark_free(parse);
		ctx_free(c);
	}
	arena_keep_chunks(false);
}

/* The same on the arena's chunks in every build (CLUSTERC_ARENA=chunks: the sanitizer build's
 * arena is otherwise in pass-through mode, where nothing is replayed); under AddressSanitizer,
 * what the arena does not hand out is poisoned: a chunk's free space past the last allocation,
 * after a string printed in place too, and a chunk kept for reuse once its arena is freed. */
static void test_arena_delta_chunks(void)
{
	const char *was = getenv("CLUSTERC_ARENA");
	char *saved = was ? strdup(was) : NULL;
	setenv("CLUSTERC_ARENA", "chunks", 1);
	test_arena_delta();
	Arena *a = arena_new();
	char *p = arena_alloc(a, 40);
	char *s = arena_printf(a, "%s", "printed in place");
	CU_ASSERT_PTR_EQUAL(s, p + 48); /* 40 rounded to 16 bytes, then the string where it stood */
#ifdef UNIT_ASAN
	CU_ASSERT_FALSE(__asan_address_is_poisoned(p + 47));
	CU_ASSERT_FALSE(__asan_address_is_poisoned(s + 31));
	CU_ASSERT_TRUE(__asan_address_is_poisoned(s + 32));
	arena_keep_chunks(true);
	arena_free(a);
	arena_keep_chunks(false);
	CU_ASSERT_TRUE(__asan_address_is_poisoned(p));
#else
	arena_free(a);
#endif
	if (saved)
		setenv("CLUSTERC_ARENA", saved, 1);
	else
		unsetenv("CLUSTERC_ARENA");
	free(saved);
}

/* A delta whose added chunks the keep lists could not take when its row ended (more than they
 * hold: CLUSTERC_TEST_KEEP_MIB=0 here, 512 MiB each in a worker): they are unmapped or freed, and
 * the delta answers from what it recorded without reading them (a compare worker asks
 * arena_delta_holds and arena_delta_writes of a kept physical build before replaying it; the
 * fifteenth session's review found them reading the chunks' headers, a SIGSEGV). */
static void test_arena_delta_released(void)
{
	const char *was = getenv("CLUSTERC_TEST_KEEP_MIB");
	char *saved = was ? strdup(was) : NULL;
	setenv("CLUSTERC_TEST_KEEP_MIB", "0", 1);
	arena_keep_chunks(true);
	Ctx *c = new_ctx(DIAG_TEXT, 0);
	arena_strdup(c->arena, "the parse");
	CtxMark *parse = ctx_mark(c);
	arena_alloc(c->arena, 64);
	ArenaMark *before = arena_mark(c->arena);
	/* the span: a big chunk mapped, one from calloc */
	unsigned char *mapped = arena_alloc(c->arena, 9 << 20);
	mapped[(9 << 20) - 1] = 0x77;
	unsigned char *calloced = arena_alloc(c->arena, 1200 << 10);
	calloced[0] = 0x3c;
	ArenaDelta *dl = arena_delta(c->arena, before);
	if (dl) { /* not in pass-through mode */
		ctx_rewind(c, parse); /* the span's chunks released: none kept, unmapped or freed */
		arena_alloc(c->arena, 64);
		CU_ASSERT_TRUE(arena_same_layout(c->arena, before));
		CU_ASSERT_FALSE(arena_delta_ready(dl));
		CU_ASSERT_TRUE(arena_delta_holds(dl, (uintptr_t)mapped));
		CU_ASSERT_TRUE(arena_delta_holds(dl, (uintptr_t)mapped + (9 << 20) - 1));
		CU_ASSERT_TRUE(arena_delta_writes(dl, calloced + 1000, 8));
		CU_ASSERT_FALSE(arena_delta_apply(c->arena, dl));
	}
	arena_delta_free(dl);
	arena_mark_free(before);
	ctx_mark_free(parse);
	ctx_free(c);
	arena_keep_chunks(false);
	if (saved)
		setenv("CLUSTERC_TEST_KEEP_MIB", saved, 1);
	else
		unsetenv("CLUSTERC_TEST_KEEP_MIB");
	free(saved);
}

void suite_diag(void); /* called by the unit test runner */

void suite_diag(void)
{
	CU_pSuite s = CU_add_suite("diag", NULL, NULL);
	CU_add_test(s, "one-line span and note", test_one_line_span_and_note);
	CU_add_test(s, "multi-line span and ranges", test_multiline_span_and_ranges);
	CU_add_test(s, "no location and summary", test_noloc_and_summary);
	CU_add_test(s, "tabs", test_tabs);
	CU_add_test(s, "UTF-8 columns", test_utf8_columns);
	CU_add_test(s, "colour", test_color);
	CU_add_test(s, "caret at line end, long line", test_caret_at_line_end_and_long_line);
	CU_add_test(s, "error limit", test_error_limit);
	CU_add_test(s, "JSON", test_json);
	CU_add_test(s, "suggest", test_suggest);
	CU_add_test(s, "source lines", test_source_lines);
	CU_add_test(s, "source loading", test_source_load);
	CU_add_test(s, "arena and interner", test_arena_intern);
	CU_add_test(s, "compilation marked and rewound", test_ctx_mark);
	CU_add_test(s, "arena delta replayed", test_arena_delta);
	CU_add_test(s, "arena delta replayed on chunks, poisoned under ASan", test_arena_delta_chunks);
	CU_add_test(s, "arena delta of released chunks", test_arena_delta_released);
}
