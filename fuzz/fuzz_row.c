/*
 * fuzz_row.c — the comparison's rows under a coverage-guided fuzzer (libFuzzer; `make fuzz
 * FUZZ_TARGET=fuzz_row`). `clusterc compare` builds each row in a child process, which sends
 * it back as JSON (compare_row_json) for the parent to read (compare_row_read). Each input is
 * JSON: a row, or an array of up to 16. Properties: a row read and written again is stable
 * (JSON -> row -> JSON -> row -> JSON gives the same text the second time as the first); the
 * rows then make a comparison whose files (comparison.csv, .json, .md, report.html) are
 * written and committed, with no formula in a CSV cell, no raw '<' in the Markdown and no
 * script in the HTML (fuzz.h).
 */
#define _GNU_SOURCE /* open_memstream */
#include "backends.h"

#include "fuzz.h"

#include <math.h>

static char *row_text(const CompareRow *r, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);
	if (!f)
		abort();
	jw_write(f, compare_row_json(r));
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 65536)
		return 0;
	Json *doc = jw_parse((const char *)data, size);
	if (!doc)
		return 0;
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT, .error_limit = DEFAULT_ERROR_LIMIT});
	size_t nrows = jw_len(doc) ? jw_len(doc) : 1;
	if (nrows > 16)
		nrows = 16;
	CompareRow *rows = arena_alloc(c->arena, sizeof *rows * nrows);
	int n = 0;
	for (size_t i = 0; i < nrows; i++) {
		const Json *o = jw_len(doc) ? jw_at(doc, i) : doc;
		CompareRow first, again;
		compare_row_read(c->arena, o, &first);
		size_t n1, n2;
		char *t1 = row_text(&first, &n1);
		Json *back = jw_parse(t1, n1);
		if (!back)
			abort();
		compare_row_read(c->arena, back, &again);
		char *t2 = row_text(&again, &n2);
		Json *back2 = jw_parse(t2, n2);
		CompareRow third;
		compare_row_read(c->arena, back2, &third);
		size_t n3;
		char *t3 = row_text(&third, &n3);
		if (n2 != n3 || memcmp(t2, t3, n2) != 0) {
			fprintf(stderr, "a row is not stable:\n%s\n---\n%s\n", t2, t3);
			abort();
		}
		compare_row_free(&first);
		compare_row_free(&again);
		jw_free(back);
		jw_free(back2);
		free(t1);
		free(t2);
		free(t3);
		if (!third.scenario)
			third.scenario = "row";
		if (!third.sets)
			third.sets = "";
		if (!third.why)
			third.why = "";
		rows[n++] = third;
	}
	jw_free(doc);
	Comparison cmp = {.spec = "fuzz.cluster", .currency = "USD", .rows = rows, .nrows = n};
	CompareObjective obj[2];
	if (!compare_objective(c->arena, "capex", "USD", &obj[0]) ||
	    !compare_objective(c->arena, "annual_energy_cost", "USD", &obj[1]))
		abort();
	cmp.obj = obj;
	cmp.nobj = 2;
	compare_pareto(&cmp);
	char out[4200];
	snprintf(out, sizeof out, "%s/out", fuzz_dir());
	Output *o = output_open(c, out, true);
	if (!o)
		abort();
	int werr = compare_csv_write(o, &cmp);
	werr += compare_json_write(o, &cmp);
	werr += compare_md_write(o, &cmp);
	werr += compare_html_write(o, &cmp);
	if (werr || output_commit(o)) {
		fprintf(stderr, "the comparison's files could not be written\n");
		abort();
	}
	fuzz_check_output(out, 1);
	for (int i = 0; i < n; i++)
		compare_row_free(&rows[i]);
	diag_render(c, fuzz_sink());
	ctx_free(c);
	return 0;
}
