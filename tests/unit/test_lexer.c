/*
 * test_lexer.c — the scanner: tokens, units after numbers, statement ends, comments, bad input.
 */
#include "lang.h"

#include <CUnit/CUnit.h>
#include <string.h>

void suite_lexer(void);

/* The token dump of `text`, and the number of errors it caused. */
static char *tokens(const char *text, int *errors)
{
	static char out[8192];
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	Source *src = src_from_text(c, "t", text, strlen(text));
	Buf b = {0};
	lex_dump(c, src, &b);
	snprintf(out, sizeof out, "%s", b.s ? b.s : "");
	buf_free(&b);
	if (errors)
		*errors = diag_errors(c);
	ctx_free(c);
	return out;
}

static void test_units_follow_numbers(void)
{
	CU_ASSERT_STRING_EQUAL(tokens("p = 10.2 kW", NULL),
			       "name p\n'=' =\nnumber 10.2\nunit kW\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("p = 10kW", NULL),
			       "name p\n'=' =\nnumber 10\nunit kW\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("e = 0.60 CNY/kWh", NULL),
			       "name e\n'=' =\nnumber 0.60\nunit CNY/kWh\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("c = 5 y * w.energy_cost", NULL),
			       "name c\n'=' =\nnumber 5\nunit y\n'*' *\nname w\n'.' .\n"
			       "name energy_cost\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("f = 2 %", NULL), "name f\n'=' =\nnumber 2\nunit %\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("a = 1 W/m^2", NULL),
			       "name a\n'=' =\nnumber 1\nunit W/m^2\nend of line\n");
}

static void test_keywords_after_numbers(void)
{
	CU_ASSERT_STRING_EQUAL(tokens("n = 8 x H100_SXM", NULL),
			       "name n\n'=' =\nnumber 8\n'x' x\nname H100_SXM\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("r = 1..64 step 8", NULL),
			       "name r\n'=' =\nnumber 1\n'..' ..\nnumber 64\n'step' step\nnumber 8\n"
			       "end of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("o = 7:1", NULL),
			       "name o\n'=' =\nnumber 7\n':' :\nnumber 1\nend of line\n");
}

static void test_statement_ends(void)
{
	/* A newline inside brackets is a space; after an operator it continues the line. */
	CU_ASSERT_STRING_EQUAL(tokens("l = [1,\n 2]\n", NULL),
			       "name l\n'=' =\n'[' [\nnumber 1\n',' ,\nnumber 2\n']' ]\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("a = 1 +\n 2\n", NULL),
			       "name a\n'=' =\nnumber 1\n'+' +\nnumber 2\nend of line\n");
	/* A number at the end of a line takes no unit from the next line. */
	CU_ASSERT_STRING_EQUAL(tokens("a = 1\nkW = 2", NULL),
			       "name a\n'=' =\nnumber 1\nend of line\nname kW\n'=' =\nnumber 2\n"
			       "end of line\n");
	/* '=' at the end of a line ends it, so a missing value is reported there. */
	CU_ASSERT_STRING_EQUAL(tokens("a =\n", NULL), "name a\n'=' =\nend of line\n");
	CU_ASSERT_STRING_EQUAL(tokens("node a {\n}\n", NULL),
			       "name node\nname a\n'{' {\n'}' }\nend of line\n");
}

static void test_comments(void)
{
	CU_ASSERT_STRING_EQUAL(tokens("a = 1 // one\n/* two\n*/ b = 2", NULL),
			       "name a\n'=' =\nnumber 1\nend of line\nname b\n'=' =\nnumber 2\n"
			       "end of line\n");
	int errors;
	tokens("a = 1 /* never closed", &errors);
	CU_ASSERT_EQUAL(errors, 1);
}

static void test_numbers_and_strings(void)
{
	int errors;
	CU_ASSERT_STRING_EQUAL(tokens("p = 2_000_000 CNY", &errors),
			       "name p\n'=' =\nnumber 2_000_000\nunit CNY\nend of line\n");
	CU_ASSERT_EQUAL(errors, 0);
	tokens("p = 2__000", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	tokens("p = 2_", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	tokens("p = .5", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	tokens("p = 1e999", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	CU_ASSERT_STRING_EQUAL(tokens("h = \"gpu{index:04}\"", &errors),
			       "name h\n'=' =\nstring \"gpu{index:04}\"\nend of line\n");
	CU_ASSERT_EQUAL(errors, 0);
	tokens("h = \"open", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	tokens("h = \"bad \\q escape\"", &errors);
	CU_ASSERT_EQUAL(errors, 1);
}

static void test_bad_characters(void)
{
	int errors;
	tokens("a = @", &errors);
	CU_ASSERT_EQUAL(errors, 1);
	tokens("a = \xc3\xa9", &errors); /* é outside a string */
	CU_ASSERT_EQUAL(errors, 1);
	tokens("a = \"\xe4\xb8\x87\xe5\x8d\xa1\" // \xe4\xb8\x87\xe5\x8d\xa1", &errors); /* 万卡 */
	CU_ASSERT_EQUAL(errors, 0);
}

static void test_nesting_limit(void)
{
	char deep[2 * MAX_NESTING + 16];
	int n = 0;
	deep[n++] = 'a', deep[n++] = '=';
	for (int i = 0; i < MAX_NESTING + 1; i++)
		deep[n++] = '(';
	deep[n] = 0;
	int errors;
	tokens(deep, &errors);
	CU_ASSERT_EQUAL(errors, 1);
}

void suite_lexer(void)
{
	CU_pSuite s = CU_add_suite("lexer", NULL, NULL);
	CU_add_test(s, "units follow numbers", test_units_follow_numbers);
	CU_add_test(s, "keywords after numbers", test_keywords_after_numbers);
	CU_add_test(s, "statement ends", test_statement_ends);
	CU_add_test(s, "comments", test_comments);
	CU_add_test(s, "numbers and strings", test_numbers_and_strings);
	CU_add_test(s, "bad characters", test_bad_characters);
	CU_add_test(s, "nesting limit", test_nesting_limit);
}
