/*
 * test_backends.c — the artifact writers over a small Design built by hand: the files and
 * their content, manifest.json checked against sizes and SHA-256 computed here, byte-identical
 * reruns, and the output directory's promises (abort leaves DIR as it was, somebody else's DIR
 * is refused without --force, an unwritable place or a failed write is a diagnostic and
 * leaves nothing behind). Then report.json's fabrics over designs built by pipeline_build from
 * the examples (the SuperPOD of one scalable unit; a dragonfly and a torus by --set).
 */
#include "backends.h"
#include "passes.h"
#include "hash.h"
#include "unit_build.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void suite_backends(void);

/* ---- a design by hand ---------------------------------------------------------------------- */

static const char spec_text[] =
	"rack rack48 {\n  power_limit = one_of(40 kW, 80 kW)\n}\n";

typedef struct Fixture {
	Ctx *c;
	Program p;
	File root;
	Design d;
	Decl rack;
	Part node_part, rack_part, cooling_part;
	Field desc, *desc_fields[1], power_limit;
	Value desc_val, chosen;
	Decision decision;
	BomLine bom[3];
	RackInst racks[1];
} Fixture;

static void fixture_init(Fixture *fx)
{
	memset(fx, 0, sizeof *fx);
	fx->c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	Source *src = src_from_text(fx->c, "examples/test.cluster", spec_text, strlen(spec_text));
	fx->root.src = src;
	fx->p = (Program){.c = fx->c, .root = &fx->root};

	fx->desc_val = (Value){.kind = VAL_STRING, .s = "8-GPU server, \"SXM\""};
	fx->desc = (Field){.name = "description", .val = &fx->desc_val};
	fx->desc_fields[0] = &fx->desc;
	fx->node_part = (Part){.name = "dgx_h100", .kind = KIND_NODE,
			       .description = "8-GPU server, \"SXM\""};
	fx->rack = (Decl){.name = "rack48", .kind = KIND_RACK};
	fx->rack_part = (Part){.name = "rack48", .kind = KIND_RACK, .description = ""};
	fx->cooling_part = (Part){.name = "cold_plate", .kind = KIND_COOLING, .description = ""};

	const char *at = strstr(spec_text, "40 kW");
	fx->chosen = (Value){.kind = VAL_QTY,
			     .loc = {src, (uint32_t)(at - spec_text), (uint32_t)(at - spec_text + 5)}};
	fx->power_limit = (Field){.name = "power_limit"};
	fx->decision = (Decision){.decl = &fx->rack, .field = &fx->power_limit,
				  .chosen = &fx->chosen, .chosen_text = "40 kW", .name = "rack48",
				  .field_name = "power_limit", .ncandidates = 2, .next_best = 4.8e6,
				  .next_best_text = "80 kW"};
	vec_push(fx->c->arena, &fx->d.decisions, &fx->decision);

	fx->bom[0] = (BomLine){"node", &fx->node_part, "dgx_h100", fx->node_part.description, 2, "",
			       2e6, 4e6, 10200, 20400};
	fx->bom[1] = (BomLine){"switch", NULL, "SN5600", "", 1, "", 123456.5, 123456.5, 1000, 1000};
	fx->bom[2] = (BomLine){"cooling", NULL, "cold_plate, rear door", "", 23.54, "kW", 0, 0, 0, 0};
	fx->racks[0] = (RackInst){.name = "r001", .type = &fx->rack_part, .cooling = &fx->cooling_part,
				  .power_limit = 40e3, .cap = 40e3, .power = 21400, .nnodes = 2};

	Design *d = &fx->d;
	d->p = &fx->p;
	d->c = fx->c;
	d->spec_path = "examples/test.cluster";
	d->scenario_name = "default";
	d->currency = currency_lookup("CNY");
	d->bom = fx->bom;
	d->nbom = 3;
	d->racks = fx->racks;
	d->nracks = 1;
	Totals *t = &d->t;
	t->accelerators = 16;
	t->nodes = 2;
	t->racks = 1;
	t->it_power = 21400;
	t->power_by_cat[CAT_NODES] = 20400;
	t->power_by_cat[CAT_NETWORK] = 1000;
	t->power_by_cat[CAT_OTHER] = -0.0; /* must never print as -0 */
	t->pue = 1.1;
	t->facility_power = 23540;
	t->capex = 4123456.5;
	t->capex_by_cat[CAT_NODES] = 4e6;
	t->capex_by_cat[CAT_NETWORK] = 123456.5;
	t->annual_energy = 23540.0 * 31536000;
	t->annual_energy_cost = 123726.24;
	t->horizon_years = 5;
	t->tco = 4742087.7;
	t->annual_carbon = NAN;
}

static void fixture_free(Fixture *fx)
{
	ctx_free(fx->c);
}

/* ---- files ----------------------------------------------------------------------------------- */

/* Paths and file contents of the tests live in this arena, released by the suite's cleanup. */
static Arena *scratch;

static int scratch_init(void)
{
	scratch = arena_new();
	return 0;
}

static int scratch_free(void)
{
	arena_free(scratch);
	return 0;
}

static char *path2(const char *a, const char *b)
{
	return arena_printf(scratch, "%s/%s", a, b);
}

static char *keep(Buf *b)
{
	char *s = arena_strndup(scratch, b->s ? b->s : "", b->len);
	buf_free(b);
	return s;
}

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
	if (len)
		*len = b.len;
	return keep(&b);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* Every regular file under dir, as "relpath\n" lines in sorted order, with their contents
 * when with_content (a snapshot to compare). */
static void list_tree(const char *dir, const char *rel, bool with_content, Buf *out)
{
	const char *full = rel ? path2(dir, rel) : dir;
	struct dirent **names;
	int n = scandir(full, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (strcmp(name, ".") && strcmp(name, "..")) {
			char *sub = rel ? path2(rel, name) : arena_strdup(scratch, name);
			char *subfull = path2(dir, sub);
			struct stat st;
			lstat(subfull, &st);
			if (S_ISDIR(st.st_mode)) {
				list_tree(dir, sub, with_content, out);
			} else {
				buf_printf(out, "%s\n", sub);
				if (with_content) {
					size_t len;
					char *text = slurp(subfull, &len);
					buf_put(out, text ? text : "", text ? len : 0);
				}
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static char *snapshot(const char *dir, bool with_content)
{
	Buf b = {0};
	list_tree(dir, NULL, with_content, &b);
	return keep(&b);
}

static char *make_base(void)
{
	return unit_temp_dir(scratch, "backends");
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static const char *last_message(const Ctx *c)
{
	return c->diags.n ? ((const Diag *)c->diags.v[c->diags.n - 1])->msg : "";
}

static const OptimizerReport opt = {.solver = "glpk", .status = "optimal", .objective = 4.7e6,
				    .bound = 4.7e6, .gap = 0, .variables = 12, .constraints = 7,
				    .design_objective = 4.75e6, .cable_money = NAN, .cable_watts = NAN,
				    .objective_unit = "CNY"};

/* Writes every artifact of fx into dir; returns the error count. */
static int build(Fixture *fx, const char *dir, bool force)
{
	Output *o = output_open(fx->c, dir, force);
	if (!o)
		return 1;
	fx->d.report = opt;
	int errors = bom_csv_write(o, &fx->d);
	errors += report_md_write(o, &fx->d);
	FILE *f = output_file(o, "switches/leaf01/frr.conf");
	if (f) {
		fputs("router bgp 4200000001\n", f);
		errors += output_close(o, f);
	} else {
		errors++;
	}
	errors += report_json_write(o, &fx->d);
	if (errors) {
		output_abort(o);
		return errors;
	}
	return output_commit(o);
}

/* ---- tests ------------------------------------------------------------------------------------ */

static const char expected_bom[] =
	"part,model,description,quantity,unit,unit_price,total,currency,unit_power_kw,power_kw\n"
	"node,dgx_h100,\"8-GPU server, \"\"SXM\"\"\",2,,2000000.00,4000000.00,CNY,10.200,20.400\n"
	"switch,SN5600,,1,,123456.50,123456.50,CNY,1.000,1.000\n"
	"cooling,\"cold_plate, rear door\",,23.540,kW,0.00,0.00,CNY,0.000,0.000\n"
	"total,,,,,,4123456.50,CNY,,21.400\n";

static void test_files(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *out = path2(base, "out");
	CU_ASSERT_EQUAL_FATAL(build(&fx, out, false), 0);

	char *bom_path = path2(out, "bom.csv");
	char *bom = slurp(bom_path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bom);
	CU_ASSERT_STRING_EQUAL(bom, expected_bom);

	char *md_path = path2(out, "report.md");
	char *md = slurp(md_path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(md);
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "# clusterc report: examples/test.cluster (scenario default)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "| Capex | 4,123,456.50 CNY |"));
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "| Energy per year | 206,210 kWh |"));
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "| rack48.power_limit | 40 kW | 2 | 80 kW (4,800,000 CNY) |"));
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "| rack48 | cold_plate | 1 | 2 | 21.4 | 40 |"));

	char *json_path = path2(out, "report.json");
	char *text = slurp(json_path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NULL(strstr(text, "-0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"other\": 0.0"));
	json_error_t err;
	json_t *r = json_loads(text, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	static const char *const keys[] = {
		"schema", "spec", "scenario", "currency", "totals", "power_kw_by_category",
		"capex_by_category", "spares", "fabrics", "scale_up", "placement", "optimizer", "decisions", "workloads",
		"reliability", "finance", "facility", "artifacts", "artifacts_on_demand",
	};
	size_t k = 0;
	for (void *it = json_object_iter(r); it; it = json_object_iter_next(r, it), k++)
		CU_ASSERT(k < sizeof keys / sizeof keys[0] &&
			  strcmp(json_object_iter_key(it), keys[k]) == 0);
	CU_ASSERT_EQUAL(k, sizeof keys / sizeof keys[0]);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r, "schema")), "clusterc.report/1");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r, "spec")), "examples/test.cluster");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r, "scenario")), "default");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(r, "currency")), "CNY");
	json_t *t = json_object_get(r, "totals");
	CU_ASSERT_TRUE(json_is_integer(json_object_get(t, "accelerators")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(t, "accelerators")), 16);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(t, "it_power_kw")), 21.4);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(t, "facility_power_kw")), 23.54);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(t, "capex")), 4123456.5);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(t, "annual_energy_kwh")), 206210.4);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(t, "tco_years")), 5);
	CU_ASSERT_PTR_NULL(json_object_get(t, "carbon_t_per_year"));
	json_t *p = json_object_get(r, "power_kw_by_category");
	CU_ASSERT_EQUAL(json_real_value(json_object_get(p, "cooling")), 2.14);
	json_t *dec = json_array_get(json_object_get(r, "decisions"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(dec, "chosen")), "40 kW");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(dec, "candidates")), 2);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r, "fabrics")), 0);
	CU_ASSERT_STRING_EQUAL(
		json_string_value(json_object_get(json_object_get(r, "optimizer"), "status")), "optimal");
	/* Every other file, sorted; not report.json itself nor the manifest. */
	json_t *arts = json_object_get(r, "artifacts");
	CU_ASSERT_EQUAL(json_array_size(arts), 3);
	static const char *const paths[] = {"bom.csv", "report.md", "switches/leaf01/frr.conf"};
	for (size_t i = 0; i < 3 && i < json_array_size(arts); i++)
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(arts, i), "path")),
				       paths[i]);
	json_decref(r);

	unit_remove_tree(base);
	fixture_free(&fx);
}

static void sha256_hex(const char *data, size_t len, char hex[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)data);
	sha256_digest(&ctx, sizeof digest, digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

static void test_manifest(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *out = path2(base, "out");
	CU_ASSERT_EQUAL_FATAL(build(&fx, out, false), 0);

	char *mpath = path2(out, "manifest.json");
	json_error_t err;
	json_t *m = json_load_file(mpath, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "schema")), "clusterc.manifest/1");
	json_t *files = json_object_get(m, "files");
	Buf listed = {0};
	buf_put(&listed, "", 0);
	for (size_t i = 0; i < json_array_size(files); i++) {
		json_t *e = json_array_get(files, i);
		const char *rel = json_string_value(json_object_get(e, "path"));
		CU_ASSERT_PTR_NOT_NULL_FATAL(rel);
		buf_printf(&listed, "%s\n", rel);
		char *full = path2(out, rel);
		size_t len = 0;
		char *data = slurp(full, &len);
		CU_ASSERT_PTR_NOT_NULL(data);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "bytes")), (json_int_t)len);
		char hex[65];
		sha256_hex(data ? data : "", len, hex);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "sha256")), hex);
	}
	/* The manifest lists every file but itself, report.json included, in sorted order. */
	CU_ASSERT_STRING_EQUAL(listed.s,
			       "bom.csv\nreport.json\nreport.md\nswitches/leaf01/frr.conf\n");
	char *tree = snapshot(out, false);
	CU_ASSERT_STRING_EQUAL(tree, "bom.csv\nmanifest.json\nreport.json\nreport.md\n"
				     "switches/leaf01/frr.conf\n");
	/* The output has mkdir's usual permissions, not mkdtemp's 0700. */
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	CU_ASSERT_EQUAL(stat(out, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0777 & ~mask);
	buf_free(&listed);
	json_decref(m);
	unit_remove_tree(base);
	fixture_free(&fx);
}

static void test_deterministic(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *out = path2(base, "out");
	char *out2 = path2(base, "out2");
	CU_ASSERT_EQUAL_FATAL(build(&fx, out, false), 0);
	char *first = snapshot(out, true);
	/* Again into the same directory (replacing a clusterc output) and into another one. */
	CU_ASSERT_EQUAL(build(&fx, out, false), 0);
	CU_ASSERT_EQUAL(build(&fx, out2, false), 0);
	char *second = snapshot(out, true);
	char *third = snapshot(out2, true);
	CU_ASSERT_STRING_EQUAL(first, second);
	CU_ASSERT_STRING_EQUAL(first, third);
	/* Nothing left beside them: no temporary nor set-aside directories. */
	CU_ASSERT_EQUAL(count_entries(base), 2);
	CU_ASSERT_EQUAL(fx.c->nerrors, 0);
	CU_ASSERT_EQUAL(fx.c->nwarnings, 0);
	unit_remove_tree(base);
	fixture_free(&fx);
}

static void test_abort(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *out = path2(base, "out");
	CU_ASSERT_EQUAL_FATAL(build(&fx, out, false), 0);
	char *before = snapshot(out, true);

	Output *o = output_open(fx.c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	FILE *f = output_file(o, "bom.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("something else\n", f);
	CU_ASSERT_PTR_NOT_NULL(output_file(o, "sub/dir/new.txt"));
	output_abort(o);
	char *after = snapshot(out, true);
	CU_ASSERT_STRING_EQUAL(before, after);
	CU_ASSERT_EQUAL(count_entries(base), 1);

	/* A failed write (here, the stream's error flag) fails the close, then the commit. */
	o = output_open(fx.c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	f = output_file(o, "bom.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("x\n", f);
	CU_ASSERT_EQUAL(fgetc(f), EOF); /* reading a write-only stream sets its error flag */
	int errors = fx.c->nerrors;
	CU_ASSERT_NOT_EQUAL(output_commit(o), 0);
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(last_message(fx.c), "cannot write '"));
	char *after2 = snapshot(out, true);
	CU_ASSERT_STRING_EQUAL(before, after2);
	CU_ASSERT_EQUAL(count_entries(base), 1);

	/* A backend's bad path is refused. */
	o = output_open(fx.c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_NULL(output_file(o, "../escape"));
	CU_ASSERT_PTR_NULL(output_file(o, "manifest.json"));
	CU_ASSERT_PTR_NOT_NULL(output_file(o, "a.txt"));
	CU_ASSERT_PTR_NULL(output_file(o, "a.txt"));
	output_abort(o);
	CU_ASSERT_EQUAL(count_entries(base), 1);

	unit_remove_tree(base);
	fixture_free(&fx);
}

static void test_foreign(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *out = path2(base, "mine");
	char *precious = path2(out, "precious.txt");
	CU_ASSERT_EQUAL_FATAL(mkdir(out, 0777), 0);
	spit(precious, "keep me\n");

	int errors = fx.c->nerrors;
	CU_ASSERT_PTR_NULL(output_open(fx.c, out, false));
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 1);
	char expected[512];
	snprintf(expected, sizeof expected,
		 "'%s' exists and was not written by clusterc; use --force to replace it", out);
	CU_ASSERT_STRING_EQUAL(last_message(fx.c), expected);
	char *kept = slurp(precious, NULL);
	CU_ASSERT_STRING_EQUAL(kept ? kept : "", "keep me\n");
	CU_ASSERT_EQUAL(count_entries(base), 1);

	/* A manifest of another schema does not make it ours. */
	char *manifest = path2(out, "manifest.json");
	spit(manifest, "{\"schema\": \"other/1\"}\n");
	CU_ASSERT_PTR_NULL(output_open(fx.c, out, false));
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 2);

	/* With force it is replaced. */
	CU_ASSERT_EQUAL(build(&fx, out, true), 0);
	CU_ASSERT_EQUAL(access(precious, F_OK), -1);
	char *tree = snapshot(out, false);
	CU_ASSERT_PTR_NOT_NULL(strstr(tree, "manifest.json\n"));
	CU_ASSERT_EQUAL(count_entries(base), 1);

	/* A regular file in DIR's place too. */
	char *file = path2(base, "file");
	spit(file, "data\n");
	CU_ASSERT_PTR_NULL(output_open(fx.c, file, false));
	CU_ASSERT_EQUAL(build(&fx, file, true), 0);
	struct stat st;
	CU_ASSERT_TRUE(stat(file, &st) == 0 && S_ISDIR(st.st_mode));

	/* An empty directory is fine without force. */
	char *empty = path2(base, "empty/");
	CU_ASSERT_EQUAL_FATAL(mkdir(empty, 0777), 0);
	CU_ASSERT_EQUAL(build(&fx, empty, false), 0);
	CU_ASSERT_EQUAL(count_entries(base), 3);

	unit_remove_tree(base);
	fixture_free(&fx);
}

static void test_unwritable(void)
{
	Fixture fx;
	fixture_init(&fx);
	char *base = make_base();
	char *file = path2(base, "somefile");
	spit(file, "x\n");
	char *out = path2(file, "out");
	int errors = fx.c->nerrors;
	CU_ASSERT_PTR_NULL(output_open(fx.c, out, false));
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(last_message(fx.c), out));
	CU_ASSERT_PTR_NOT_NULL(strstr(last_message(fx.c), "Not a directory"));

	/* Under a file deeper down: the parents cannot be made. */
	char *deeper = path2(file, "a/b/out");
	CU_ASSERT_PTR_NULL(output_open(fx.c, deeper, false));
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(last_message(fx.c), "cannot create the directory"));
	CU_ASSERT_PTR_NOT_NULL(strstr(last_message(fx.c), "Not a directory"));

	/* Missing parents are made, as mkdir -p would; an abort leaves them, empty. */
	char *missing = path2(base, "missing/out");
	Output *o = output_open(fx.c, missing, false);
	CU_ASSERT_PTR_NOT_NULL(o);
	output_abort(o);
	char *made = path2(base, "missing");
	CU_ASSERT_EQUAL(count_entries(made), 0);
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 2);

	CU_ASSERT_PTR_NULL(output_open(fx.c, ".", true));
	CU_ASSERT_PTR_NULL(output_open(fx.c, "/", true));
	CU_ASSERT_EQUAL(fx.c->nerrors, errors + 4);
	CU_ASSERT_EQUAL(count_entries(base), 2);

	unit_remove_tree(base);
	fixture_free(&fx);
}

static void test_text(void)
{
	Buf b = {0};
	text_number(&b, 1234567.891, 2, false);
	buf_putc(&b, ' ');
	text_number(&b, -0.0001, 2, false);
	buf_putc(&b, ' ');
	text_number(&b, -1234.5, 2, true);
	buf_putc(&b, ' ');
	text_number(&b, 12750, 3, false);
	buf_putc(&b, ' ');
	text_fixed(&b, -0.0, 2);
	buf_putc(&b, ' ');
	text_money(&b, 73715400);
	buf_putc(&b, ' ');
	text_money(&b, 0.35);
	buf_putc(&b, ' ');
	text_csv_field(&b, "a,\"b\"");
	buf_putc(&b, ' ');
	text_csv_field(&b, "plain");
	CU_ASSERT_STRING_EQUAL(b.s, "1,234,567.89 0 -1,234.50 12,750 0.00 73,715,400 0.35 "
				    "\"a,\"\"b\"\"\" plain");
	buf_free(&b);

	/* OWASP's CSV injection rule: text cells that a spreadsheet would take for a formula. */
	const char *cells[][2] = {
		{"=1+1", "\"'=1+1\""},   {"+cmd", "\"'+cmd\""}, {"-2+3", "\"'-2+3\""},
		{"@SUM(A1)", "\"'@SUM(A1)\""}, {"\tx", "\"'\tx\""}, {"\rx", "\"'\rx\""},
		{"=\"a\",b", "\"'=\"\"a\"\",b\""}, {"a=1", "a=1"}, {"", ""}, {"x-1", "x-1"},
	};
	for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
		Buf c = {0};
		text_csv_field(&c, cells[i][0]);
		CU_ASSERT_STRING_EQUAL(c.s ? c.s : "", cells[i][1]);
		/* text_csv_plain (ends.c's shortcut) says yes exactly when the cell is copied. */
		size_t len;
		bool plain = text_csv_plain(cells[i][0], &len);
		CU_ASSERT_EQUAL(plain, !strcmp(cells[i][0], cells[i][1]));
		if (plain)
			CU_ASSERT_EQUAL(len, strlen(cells[i][0]));
		buf_free(&c);
	}
	const char *more[] = {"a\nb", "a\"b", "a,b", "a\rb", "gpu0001", "Ethernet256", "-x", "x"};
	for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
		Buf c = {0};
		text_csv_field(&c, more[i]);
		size_t len;
		CU_ASSERT_EQUAL(text_csv_plain(more[i], &len), !strcmp(c.s ? c.s : "", more[i]));
		buf_free(&c);
	}
	/* layout_int writes in place two digits a step: every length, the signs, the extremes. */
	const long long ints[] = {0, 7, 10, 99, 100, 101, 999, 1000, 65535, 1234567890123LL, -1, -10,
				  -100, LLONG_MAX, LLONG_MIN};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		Buf c = {0};
		char want[32];
		snprintf(want, sizeof want, "%lld", ints[i]);
		buf_puts(&c, "x");
		layout_int(&c, ints[i]);
		CU_ASSERT_STRING_EQUAL(c.s + 1, want);
		CU_ASSERT_EQUAL(c.len, 1 + strlen(want));
		buf_free(&c);
	}
	/* Every number from -5 to 1,100, where the digits made in place (0..999) end and the call
	 * out begins, by layout_int and layout_int_at alike. */
	int off = 0;
	for (long long v = -5; v <= 1100; v++) {
		Buf c = {0};
		char want[32];
		snprintf(want, sizeof want, "%lld", v);
		buf_puts(&c, "x");
		layout_int(&c, v);
		off += strcmp(c.s + 1, want) != 0 || c.len != 1 + strlen(want);
		c.len = 0;
		buf_reserve(&c, 22);
		char *p = layout_int_at(&c, c.s, v);
		buf_end_at(&c, p);
		off += strcmp(c.s, want) != 0;
		buf_free(&c);
	}
	CU_ASSERT_EQUAL(off, 0);
	/* Numbers stay numbers: they are never written through text_csv_field. */
	Buf n = {0};
	text_fixed(&n, -3.5, 2);
	CU_ASSERT_STRING_EQUAL(n.s, "-3.50");
	buf_free(&n);

	/* Markdown: no markup, link or raw HTML gets through a cell or a code span. */
	Buf m = {0};
	text_md_cell(&m, "<script>a|b</script> [x](javascript:y) \\ `c` & \033[1m");
	CU_ASSERT_STRING_EQUAL(m.s, "&lt;script&gt;a\\|b&lt;/script&gt; \\[x\\](javascript:y) \\\\ "
				    "\\`c\\` &amp;  \\[1m");
	m.len = 0;
	text_md_code(&m, "a = 1");
	buf_puts(&m, " ");
	text_md_code(&m, "x`y``z");
	CU_ASSERT_STRING_EQUAL(m.s, "`a = 1` ``` x`y``z ```");
	buf_free(&m);
}

/* ---- fabrics, through the whole pipeline --------------------------------------------------- */

typedef struct Reported {
	Program p;
	Design d;
	json_t *report;
} Reported;

/* Builds an example in a scenario with --set overrides, writes report.json into a fresh
 * directory and parses it; b->report is NULL when the build failed. */
static void build_example(Reported *b, const char *example, const char *scenario, const char *set1,
			  const char *set2)
{
	static CliOverride sets[2];
	sets[0].text = set1;
	sets[1].text = set2;
	memset(b, 0, sizeof *b);
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	b->p = (Program){.c = c, .dump = -1, .scenario = scenario, .sets = sets,
			 .nsets = set2 ? 2 : set1 ? 1 : 0};
	char *path = arena_printf(scratch, "%s/examples/%s", CLUSTERC_SOURCE_DIR, example);
	int errors = pipeline_build(&b->p, &b->d, path, NULL);
	CU_ASSERT_EQUAL(errors, 0);
	if (errors)
		return;
	char *base = make_base(), *out = path2(base, "out");
	Output *o = output_open(c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(report_json_write(o, &b->d), 0);
	CU_ASSERT_EQUAL(output_commit(o), 0);
	json_error_t err;
	b->report = json_load_file(path2(out, "report.json"), 0, &err);
	CU_ASSERT_PTR_NOT_NULL(b->report);
	unit_remove_tree(base);
}

/* The ends' table (ends.c) against the functions each end's texts stand for, over the SuperPOD
 * of one SU with one rack's name made hostile ('|' for Markdown, ',' for CSV): the CSV cells
 * (layout_csv_place and the port), the printed end (pull_end_text), the port (ir_end_port),
 * whether the printed end is a plain CSV or Markdown cell as it is, and each cable id's length. */
static void test_ends_table(void)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program p = {.c = c, .dump = -1, .scenario = "su1"};
	Design d;
	memset(&d, 0, sizeof d);
	char *path = arena_printf(scratch, "%s/examples/dgx-h100-superpod.cluster",
				  CLUSTERC_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(pipeline_build(&p, &d, path, NULL), 0);
	CU_ASSERT_FATAL(d.ncables > 0);
	int rack, u;
	ir_end_place(&d, d.links[d.cables[0].link].a, &rack, &u);
	CU_ASSERT_FATAL(rack >= 0);
	d.racks[rack].name = "R|1,x";
	char *base = make_base(), *out = path2(base, "out");
	Output *o = output_open(c, out, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	const EndTable *t = ends_table(o, &d);
	CU_ASSERT_PTR_EQUAL(ends_table(o, &d), t); /* made once */
	Buf want = {0}, port = {0};
	int hostile = 0, wrong = 0;
	for (int i = 0; i < d.ncables; i++) {
		wrong += t->id_len[i] != strlen(d.cable_ids[i]);
		const LinkInst *l = &d.links[d.cables[i].link];
		for (int side = 0; side < 2; side++) {
			End e = side ? l->z : l->a;
			const EndText *x = &t->ends[2 * (size_t)i + (size_t)side];
			port.len = 0;
			ir_end_port(&port, &d, e);
			wrong += strcmp(x->port, port.s) != 0;
			wrong += strcmp(x->device, ir_end_device(&d, e)) != 0;
			want.len = 0;
			layout_csv_place(&want, &d, e);
			text_csv_field(&want, port.s);
			buf_putc(&want, ',');
			wrong += x->csv_len != want.len || memcmp(x->csv, want.s, want.len) != 0;
			if (x->plain) { /* its "DEVICE,PORT," */
				want.len = 0;
				buf_printf(&want, "%s,%s,", x->device, port.s);
				wrong += memcmp(ends_device_port(x), want.s, want.len) != 0;
			}
			want.len = 0;
			pull_end_text(&want, &d, e);
			wrong += x->pull_len != want.len ||
				 memcmp(x->csv + x->csv_len, want.s, want.len) != 0;
			size_t n;
			wrong += x->pull_csv > text_csv_plain(want.s, &n); /* implies it */
			wrong += x->pull_md != text_md_plain(want.s);
			hostile += x->rack == rack;
		}
	}
	CU_ASSERT_EQUAL(wrong, 0);
	CU_ASSERT(hostile > 0);
	buf_free(&want);
	buf_free(&port);
	output_abort(o);
	unit_remove_tree(base);
	ctx_free(c);
}

static void built_free(Reported *b)
{
	json_decref(b->report);
	ctx_free(b->p.c);
}

/* The keys of a JSON object, in order, as "a,b,c". */
static const char *key_list(json_t *o)
{
	Buf b = {0};
	buf_put(&b, "", 0);
	for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it))
		buf_printf(&b, "%s%s", b.len ? "," : "", json_object_iter_key(it));
	return keep(&b);
}

static json_int_t int_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	CU_ASSERT_TRUE(json_is_integer(v));
	return json_integer_value(v);
}

static const char fabric_keys[] =
	"name,topology,tiers,planes,switch_model,switches_by_tier,links_by_tier,bisection_tbps,"
	"oversubscription,diameter_hops,oversubscription_by_tier,ecmp_paths,rails,link_gbps,radix,"
	"breakout,endpoints,scalable_units,switches,links,ports_used_by_tier";

static void test_fabrics_superpod(void)
{
	Reported b;
	build_example(&b, "dgx-h100-superpod.cluster", "su1", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.report);
	json_t *fabrics = json_object_get(b.report, "fabrics");
	CU_ASSERT_EQUAL_FATAL(json_array_size(fabrics), 1);
	json_t *f = json_array_get(fabrics, 0);
	CU_ASSERT_STRING_EQUAL(key_list(f), fabric_keys);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "name")), "compute");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "topology")), "fat_tree");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "switch_model")), "QM9700");
	CU_ASSERT_EQUAL(int_at(f, "tiers"), 2);
	CU_ASSERT_EQUAL(int_at(f, "planes"), 1);
	json_t *sw = json_object_get(f, "switches_by_tier");
	CU_ASSERT_STRING_EQUAL(key_list(sw), "leaf,spine,core");
	CU_ASSERT_EQUAL(int_at(sw, "leaf"), 8);
	CU_ASSERT_EQUAL(int_at(sw, "spine"), 4);
	CU_ASSERT_EQUAL(int_at(sw, "core"), 0);
	json_t *links = json_object_get(f, "links_by_tier");
	CU_ASSERT_STRING_EQUAL(key_list(links), "node-leaf,leaf-spine,spine-core");
	CU_ASSERT_EQUAL(int_at(links, "node-leaf"), 252);
	CU_ASSERT_EQUAL(int_at(links, "leaf-spine"), 256);
	CU_ASSERT_EQUAL(int_at(links, "spine-core"), 0);
	/* 252 endpoints of 400 Gb/s under 256 up links: half of 252 x 400 Gb/s. */
	CU_ASSERT_EQUAL(json_real_value(json_object_get(f, "bisection_tbps")), 50.4);
	CU_ASSERT_TRUE(json_is_real(json_object_get(f, "oversubscription")));
	CU_ASSERT_EQUAL(json_real_value(json_object_get(f, "oversubscription")), 1.0);
	CU_ASSERT_EQUAL(int_at(f, "diameter_hops"), 2);
	json_t *ov = json_object_get(f, "oversubscription_by_tier");
	CU_ASSERT_EQUAL(json_array_size(ov), 1);
	CU_ASSERT_EQUAL(int_at(f, "ecmp_paths"), 4);
	CU_ASSERT_EQUAL(int_at(f, "rails"), 8);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(f, "link_gbps")), 400.0);
	CU_ASSERT_EQUAL(int_at(f, "radix"), 64);
	CU_ASSERT_EQUAL(int_at(f, "scalable_units"), 1);
	CU_ASSERT_EQUAL(int_at(f, "switches"), 12);
	CU_ASSERT_EQUAL(int_at(f, "links"), 508);
	/* One scale-up domain kind: the 8 GPUs of each DGX H100, wired inside the node. */
	json_t *su = json_object_get(b.report, "scale_up");
	CU_ASSERT_EQUAL(json_array_size(su), 1);
	CU_ASSERT_EQUAL(int_at(json_array_get(su, 0), "domain_accelerators"), 8);
	CU_ASSERT_EQUAL(int_at(json_array_get(su, 0), "domain_nodes"), 1);
	CU_ASSERT_EQUAL(int_at(json_array_get(su, 0), "switches"), 0);
	/* The totals count what was wired: fabric switches (no scale-up trays here) and links. */
	json_t *t = json_object_get(b.report, "totals");
	CU_ASSERT_EQUAL(int_at(t, "switches"), b.d.nswitches);
	CU_ASSERT_EQUAL(int_at(t, "cables"), b.d.nlinks);
	built_free(&b);
}

/* The TPU v4 pod of examples/tpu-v4-pod.cluster against Jouppi et al., "TPU v4: An Optically
 * Reconfigurable Supercomputer for Machine Learning with Hardware Support for Embeddings",
 * ISCA 2023, §2: 4,096 chips in 64 cubes of 4 x 4 x 4, 48 OCSes of 136 ports with 128 used,
 * 6 faces x 16 links = 96 optical links per cube, 64 x 96 = 6,144 = 48 x 128. */
static void test_fabrics_tpu_v4(void)
{
	Reported b;
	build_example(&b, "tpu-v4-pod.cluster", NULL, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.report);
	json_t *f = json_array_get(json_object_get(b.report, "fabrics"), 0);
	json_t *torus = json_object_get(f, "torus");
	CU_ASSERT_PTR_NOT_NULL_FATAL(torus);
	CU_ASSERT_EQUAL(int_at(torus, "positions"), 4096);
	CU_ASSERT_EQUAL(int_at(torus, "per_node"), 4);
	CU_ASSERT_EQUAL(int_at(torus, "blocks"), 64);
	json_t *ocs = json_object_get(torus, "ocs");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ocs);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(ocs, "model")), "Palomar_OCS");
	CU_ASSERT_EQUAL(int_at(ocs, "count"), 48);
	CU_ASSERT_EQUAL(int_at(ocs, "ports"), 136);
	CU_ASSERT_EQUAL(int_at(ocs, "ports_used_per_ocs"), 128);
	CU_ASSERT_EQUAL(int_at(ocs, "ports_used"), 64 * 6 * 16);
	CU_ASSERT_EQUAL(int_at(ocs, "fibres"), 6144);
	CU_ASSERT_EQUAL(int_at(ocs, "circuits"), 3072);
	/* 4,096 x 3 torus links: 3,072 across faces through the OCSes, 9,216 inside the cubes, of
	 * which 4,096 join the 2 x 2 chips of a host (1,024 hosts x 4) on its board. */
	CU_ASSERT_EQUAL(int_at(torus, "direct_links"), 9216);
	CU_ASSERT_EQUAL(int_at(torus, "board_links"), 4096);
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "links_by_tier"), "ocs"), 6144);
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "switches_by_tier"), "ocs"), 48);
	CU_ASSERT_EQUAL(int_at(f, "diameter_hops"), 24);
	json_t *used = json_object_get(json_object_get(f, "ports_used_by_tier"), "ocs");
	CU_ASSERT_EQUAL(int_at(used, "per_switch_min"), 128);
	CU_ASSERT_EQUAL(int_at(used, "per_switch_max"), 128);
	/* Cables: every link but the board traces; the OCSes in the BOM, racks and totals. */
	json_t *t = json_object_get(b.report, "totals");
	CU_ASSERT_EQUAL(int_at(t, "cables"), 5120 + 6144);
	CU_ASSERT_EQUAL(int_at(t, "switches"), 48);
	CU_ASSERT_EQUAL(b.d.ncables, 5120 + 6144);
	int ocs_racks = 0, fibre_to_ocs = 0;
	for (int r = 0; r < b.d.nracks; r++)
		ocs_racks += b.d.racks[r].network;
	for (int i = 0; i < b.d.ncables; i++) {
		const CableInst *c = &b.d.cables[i];
		const LinkInst *l = &b.d.links[c->link];
		if (l->tier == LT_OCS) {
			fibre_to_ocs += c->media == MEDIA_FIBER && c->optic_a && !c->optic_z;
		}
	}
	CU_ASSERT_EQUAL(fibre_to_ocs, 6144);
	CU_ASSERT_EQUAL(int_at(t, "racks"), 64 + ocs_racks);
	CU_ASSERT_TRUE(ocs_racks >= 1);
	built_free(&b);
}

static void test_fabrics_direct(void)
{
	Reported b;
	build_example(&b, "roce-spectrum4.cluster", NULL, "compute.topology=dragonfly(a = 16)",
		      "hall_e.power_budget=20 MW");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.report);
	json_t *f = json_array_get(json_object_get(b.report, "fabrics"), 0);
	CU_ASSERT_STRING_EQUAL(key_list(f), arena_printf(scratch, "%s,dragonfly", fabric_keys));
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "switches_by_tier")), "router");
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "links_by_tier")),
			       "terminal,local,global");
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "dragonfly")),
			       "p,a,h,g,links_per_group_pair");
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "dragonfly"), "a"), 16);
	/* Ports used per router, as wired (every router's terminals, a − 1 local links and its
	 * global links), within the radix. */
	json_t *used = json_object_get(json_object_get(f, "ports_used_by_tier"), "router");
	CU_ASSERT_PTR_NOT_NULL_FATAL(used);
	int used_max = 0, used_total = 0;
	for (int i = 0; i < b.d.nswitches; i++) {
		used_max = b.d.switches[i].used > used_max ? b.d.switches[i].used : used_max;
		used_total += b.d.switches[i].used;
	}
	CU_ASSERT_EQUAL(int_at(used, "per_switch_max"), used_max);
	CU_ASSERT_EQUAL(int_at(used, "total"), used_total);
	CU_ASSERT_TRUE(int_at(used, "per_switch_max") <= int_at(used, "radix"));
	CU_ASSERT_TRUE(int_at(used, "per_switch_min") >= 8 + 15); /* p + a − 1 at least */
	CU_ASSERT_EQUAL(json_real_value(json_object_get(f, "oversubscription")), 1.0);
	CU_ASSERT_TRUE(json_is_null(json_object_get(f, "scalable_units")));
	built_free(&b);

	build_example(&b, "roce-spectrum4.cluster", NULL,
		      "compute.topology=torus(dims = [8, 8, 8])", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.report);
	f = json_array_get(json_object_get(b.report, "fabrics"), 0);
	CU_ASSERT_STRING_EQUAL(key_list(f), arena_printf(scratch, "%s,torus,dims", fabric_keys));
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "switches_by_tier")), "ocs");
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "switches_by_tier"), "ocs"), 0);
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "links_by_tier")), "torus,ocs");
	CU_ASSERT_STRING_EQUAL(key_list(json_object_get(f, "ports_used_by_tier")), "");
	CU_ASSERT_TRUE(json_is_null(json_object_get(json_object_get(f, "torus"), "ocs")));
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "torus"), "blocks"), 1);
	CU_ASSERT_EQUAL(int_at(json_object_get(f, "links_by_tier"), "torus"), 512 * 3);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(f, "dims")), 3);
	CU_ASSERT_TRUE(json_is_null(json_object_get(f, "switch_model")));
	built_free(&b);
}

/* layout.c: the numbers, slugs and row letters of the placement files. */
static void test_layout(void)
{
	static const struct {
		double x;
		int decimals;
		const char *trimmed, *fixed;
	} nums[] = {{2.5, 2, "2.5", "2.50"},   {400, 3, "400", "400.000"}, {9.425, 2, "9.43", "9.43"},
		    {0.004, 2, "0", "0.00"},   {-0.001, 2, "0", "0.00"},   {-1.25, 1, "-1.3", "-1.3"},
		    {1e13, 2, "10000000000000", "10000000000000.00"}};
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		Buf b = {0};
		layout_number(&b, nums[i].x, nums[i].decimals);
		CU_ASSERT_STRING_EQUAL(b.s, nums[i].trimmed);
		b.len = 0;
		layout_fixed(&b, nums[i].x, nums[i].decimals);
		CU_ASSERT_STRING_EQUAL(b.s, nums[i].fixed);
		buf_free(&b);
	}
	/* layout_fixed_scaled is llround's x * 10^decimals without its call: the same whole number
	 * at the halves and either side of them, where the sum x * 10^d + 0.5 would round up
	 * 0.49999999999999994, near 2^52 and 10^12, and at values spread over the range. */
	static const double edges[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994,
				       -0.49999999999999994, 4503599627370495.5, 4503599627370497.0,
				       999999999999.995, -999999999999.995, 14.045, 9.425, 1e-300};
	static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	for (int dec = 0; dec <= 6; dec++) {
		for (size_t i = 0; i < 2 * sizeof edges / sizeof edges[0]; i++) {
			double e = edges[i / 2], x = i % 2 ? e / scale[dec] : e;
			double near[3] = {x, nextafter(x, INFINITY), nextafter(x, -INFINITY)};
			for (int k = 0; k < 3 && fabs(x) < 1e12; k++) {
				long long v = -7;
				CU_ASSERT_TRUE(layout_fixed_scaled(near[k], dec, &v));
				CU_ASSERT_EQUAL(v, llround(near[k] * scale[dec]));
			}
		}
		uint64_t r = 88172645463325252u; /* xorshift64 (Marsaglia 2003), a fixed seed */
		for (int i = 0; i < 20000; i++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			double x = (double)(r >> 11) / 9007199254740992.0 * 2e6 - 1e6; /* -1e6 .. 1e6 */
			if (i % 2)
				x = (double)(int64_t)(x * 1000) / 2000; /* halves of thousandths */
			long long v = -7;
			CU_ASSERT_TRUE(layout_fixed_scaled(x, dec, &v));
			CU_ASSERT_EQUAL(v, llround(x * scale[dec]));
		}
	}
	long long unused;
	CU_ASSERT_FALSE(layout_fixed_scaled(NAN, 2, &unused));
	CU_ASSERT_FALSE(layout_fixed_scaled(INFINITY, 2, &unused));
	CU_ASSERT_FALSE(layout_fixed_scaled(1e12, 2, &unused));
	CU_ASSERT_FALSE(layout_fixed_scaled(-1e12, 0, &unused));
	CU_ASSERT_FALSE(layout_fixed_scaled(1.0, 7, &unused));
	CU_ASSERT_FALSE(layout_fixed_scaled(1.0, -1, &unused));
	Buf b = {0};
	layout_slug(&b, "DGX_H100");
	buf_putc(&b, ' ');
	layout_slug(&b, "generic (Broadcom Tomahawk 5 ODM)");
	CU_ASSERT_STRING_EQUAL(b.s, "dgx-h100 generic-broadcom-tomahawk-5-odm");
	buf_free(&b);
	/* A cable id is "C" and the Crockford base32 digits of a digest's leading bits: SHA-256 of
	 * "abc" (FIPS 180-4 appendix B.1) is ba7816bf 8f01cfea ..., whose first 50 bits
	 * 10111 01001 11100 00001 01101 01111 11100 01111 00000 00111 are Q9W1DFWF07. */
	unsigned char dg[HASH_BYTES];
	char id[64];
	hash_bytes("abc", 3, dg);
	ir_digest_id(dg, 10, id);
	CU_ASSERT_STRING_EQUAL(id, "CQ9W1DFWF07");
	ir_digest_id(dg, 12, id);
	CU_ASSERT_STRING_EQUAL(id, "CQ9W1DFWF077Y");
	/* A run of ids that share their 10 digits (docs/output.md, "Cable ids"): A = 0...; B
	 * differs from A at bit 50 (digit 11, G); C shares 60 bits (12 digits) with B and differs at
	 * bit 60. A keeps 10 digits, B and C need 13 to differ, so take 14 each. */
	unsigned char run[3][HASH_BYTES] = {{0}};
	run[1][6] = run[2][6] = 0x20; /* bit 50 */
	run[2][7] = 0x08;             /* bit 60 */
	int chars[3];
	ir_run_id_chars((const unsigned char(*)[HASH_BYTES])run, 3, chars);
	CU_ASSERT(chars[0] == 10 && chars[1] == 14 && chars[2] == 14);
	char ids[3][64];
	for (int i = 0; i < 3; i++)
		ir_digest_id(run[i], chars[i], ids[i]);
	CU_ASSERT_STRING_EQUAL(ids[0], "C0000000000");
	CU_ASSERT_STRING_EQUAL(ids[1], "C0000000000G000");
	CU_ASSERT_STRING_EQUAL(ids[2], "C0000000000G0G0");
	char row[16];
	ir_row_name(0, row, sizeof row);
	CU_ASSERT_STRING_EQUAL(row, "A");
	ir_row_name(25, row, sizeof row);
	CU_ASSERT_STRING_EQUAL(row, "Z");
	ir_row_name(26, row, sizeof row);
	CU_ASSERT_STRING_EQUAL(row, "AA");
	ir_row_name(27 * 26, row, sizeof row);
	CU_ASSERT_STRING_EQUAL(row, "AAA");
}

/* config_db.c: natsort's order, and the compact layout (json.dumps(separators=(",", ":"))). */
static void test_configdb(void)
{
	static const char *const sorted[] = {"", "10.0.0.2", "10.0.0.10", "10.0.1.0", "Ethernet",
					     "Ethernet1|3", "Ethernet4", "Ethernet4|3", "Ethernet8",
					     "Ethernet8|10.0.0.0/31", "Ethernet16", "Ethernet100"};
	int n = (int)(sizeof sorted / sizeof sorted[0]);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int c = configdb_natcmp(sorted[i], sorted[j]);
			CU_ASSERT(i < j ? c < 0 : i > j ? c > 0 : c == 0);
		}
	/* The fast comparison against natsort's chunks, on random keys from a small alphabet
	 * (digits, leading zeros, text, the end) and on every pair of the list above. */
	static const char alphabet[] = "0019|aE.";
	unsigned seed = 12345;
	for (int t = 0; t < 200000; t++) {
		char x[8], y[8];
		char *keys[2] = {x, y};
		for (int k = 0; k < 2; k++) {
			seed = seed * 1103515245u + 12345u;
			int len = (int)(seed >> 16) % 7;
			for (int c = 0; c < len; c++) {
				seed = seed * 1103515245u + 12345u;
				keys[k][c] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
			}
			keys[k][len] = 0;
		}
		if (t % 3 == 0) /* a common prefix, as keys of one table have */
			memcpy(y, x, strlen(x) / 2);
		int fast = configdb_natcmp(x, y), slow = configdb_natcmp_chunks(x, y);
		if ((fast > 0) - (fast < 0) != (slow > 0) - (slow < 0)) {
			CU_FAIL("configdb_natcmp disagrees with natsort's chunks");
			fprintf(stderr, "natcmp('%s', '%s') = %d, chunks %d\n", x, y, fast, slow);
			break;
		}
	}
	static const char *const tables[] = {"PORT", "DEVICE_METADATA", "INTERFACE"};
	ConfigDb *db = configdb_new(tables, 3);
	configdb_entry_s(db, 2, "Ethernet8");
	configdb_entry_s(db, 0, "Ethernet16");
	configdb_field_s(db, "mtu", "9216");
	configdb_entry_s(db, 0, "Ethernet8");
	configdb_field_s(db, "alias", "etp2");
	configdb_field_s(db, "description", "h\"1\xc3\xa9");
	configdb_entry_s(db, 1, "localhost");
	configdb_field_s(db, "hostname", "leaf-1");
	Buf b = {0};
	configdb_render(db, &b);
	CU_ASSERT_STRING_EQUAL(b.s, "{\"DEVICE_METADATA\":{\"localhost\":{\"hostname\":\"leaf-1\"}},"
				    "\"INTERFACE\":{\"Ethernet8\":{}},"
				    "\"PORT\":{\"Ethernet8\":{\"alias\":\"etp2\","
				    "\"description\":\"h\\\"1\\u00e9\"},"
				    "\"Ethernet16\":{\"mtu\":\"9216\"}}}\n");
	b.len = 0;
	configdb_render(db, &b); /* emptied by the first */
	CU_ASSERT_STRING_EQUAL(b.s, "{}\n");
	buf_free(&b);
	configdb_free(db);
}

/* ---- topology.dot: written directly, agwrite's bytes ---------------------------------------- */

/* topology_dot_canon against Graphviz's own quoting: the words agwrite quotes (keywords, signs,
 * numbers, escapes, non-ASCII) and random strings of the characters that matter, long enough
 * to be broken across lines (agwrite breaks strings of 128 characters and more). */
static void test_dot_canon(void)
{
	static const char *const words[] = {
		"", "a", "node", "NODE", "Edge", "graph", "subgraph", "strict", "digraph", "nodes",
		"1", "-1", "-", ".", "1.5", "1.5.2", ".5", "-.5", "5.", "1-2", "400G", "5.00",
		"\\N", "a\"b", "\"", "x_y", "x-y", "x.y", "compute/nodes/group1", "1/17/1",
		"32 router switches\\ngroup 1", "leaf-spine", "caf\xc3\xa9", "\xc3\xa9t\xc3\xa9",
		"a b", "_", "0", "00", "-0", "--1", "1e5"};
	int failed = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!topology_dot_canon_agrees(words[i])) {
			failed++;
			CU_FAIL(words[i]);
		}
	static const char alphabet[] = "aZ09_-.\"\\/ :\xc3\xa9";
	unsigned seed = 12345;
	char s[400];
	for (int k = 0; k < 3000 && failed < 3; k++) {
		seed = seed * 1103515245u + 12345u;
		size_t n = 1 + (seed >> 8) % (k % 3 ? 20 : 390);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		s[n] = '\0';
		if (!topology_dot_canon_agrees(s)) {
			failed++;
			CU_FAIL(s);
		}
	}
	CU_ASSERT_EQUAL(failed, 0);
}

/* The same spec as tests/placement/two-fabrics-one-nic.cluster, with hostnames that are the
 * compute fabric's leaf switches' names: Graphviz makes one node of a name, so the drawing
 * has the hosts compute-leaf-001 to -008 as those switches, in both subgraphs. */
static const char clash_spec[] =
	"import std.accelerators\nimport std.network\nimport std.cooling\nimport std.racks\n"
	"import std.servers\n"
	"node gpu_box : DGX_H100 {\n  nics = 10 x CX7_400G\n}\n"
	"site dc {\n  power_budget = 2 MW\n  electricity = 0.08 USD/kWh\n"
	"  floor = grid(rows = 4, racks_per_row = 12)\n}\n"
	"fabric compute {\n  topology = fat_tree(tiers = 2, rail_optimized = true)\n"
	"  switch = QM9700\n  rails = 8\n}\n"
	"fabric storage {\n  topology = fat_tree(tiers = 2)\n  switch = SN5600\n}\n"
	"cluster c {\n  site = dc\n  nodes = 32 x gpu_box\n  rack = rack48_air\n"
	"  fabrics = [compute, storage]\n  hostname = \"compute-leaf-{index:03}\"\n}\n";

/* topology.dot as written is what agwrite writes of Graphviz's graph of the same scene:
 * device by device (one fabric, two sharing hosts, names that clash) and aggregated (fat
 * trees, a torus with loops, OCS blocks, a dragonfly). */
static void test_dot_agwrite(void)
{
	static const struct {
		const char *path, *scenario;
	} specs[] = {
		{"examples/dgx-h100-superpod.cluster", "su1"},
		{"examples/dgx-h100-superpod.cluster", "su2"},
		{"tests/placement/two-fabrics-one-nic.cluster", NULL},
		{"examples/torus-3d.cluster", NULL},
		{"examples/tpu-v4-pod.cluster", NULL},
		{"examples/dragonfly-1k.cluster", NULL},
		{"examples/roce-spectrum4.cluster", NULL},
		{NULL, NULL},
	};
	for (int i = 0; i < (int)(sizeof specs / sizeof *specs); i++) {
		char path[512];
		if (specs[i].path)
			snprintf(path, sizeof path, "%s/%s", CLUSTERC_SOURCE_DIR, specs[i].path);
		Built *b = unit_build(specs[i].path ? NULL : clash_spec, specs[i].path ? path : NULL,
				      specs[i].scenario, false);
		CU_ASSERT_EQUAL(b->errors, 0);
		if (!topology_dot_agrees(&b->d))
			CU_FAIL(specs[i].path ? specs[i].path : "the clashing names");
		if (!specs[i].path) {
			/* The clash is real: a host and a switch of one name. */
			CU_ASSERT_STRING_EQUAL(b->d.nodes[0].hostname, "compute-leaf-001");
			TopologyScene sc;
			CU_ASSERT_TRUE(topology_scene_build(&sc, &b->d, 100000));
			CU_ASSERT_TRUE(sc.drawn > sc.nnodes);
			topology_scene_free(&sc);
		}
		unit_build_done(b);
	}
}

void suite_backends(void)
{
	CU_pSuite s = CU_add_suite("backends", scratch_init, scratch_free);
	CU_add_test(s, "text and CSV fields", test_text);
	CU_add_test(s, "placement files: numbers, slugs, rows", test_layout);
	CU_add_test(s, "config_db.json: natural order, compact json.dumps layout", test_configdb);
	CU_add_test(s, "topology.dot: quoting as Graphviz quotes", test_dot_canon);
	CU_add_test(s, "topology.dot: agwrite's bytes", test_dot_agwrite);
	CU_add_test(s, "files and report.json", test_files);
	CU_add_test(s, "manifest sizes and hashes", test_manifest);
	CU_add_test(s, "identical runs, identical bytes", test_deterministic);
	CU_add_test(s, "abort and failed writes leave DIR as it was", test_abort);
	CU_add_test(s, "a foreign DIR needs --force", test_foreign);
	CU_add_test(s, "unwritable places", test_unwritable);
	CU_add_test(s, "report.json fabrics: the SuperPOD of one SU", test_fabrics_superpod);
	CU_add_test(s, "report.json fabrics: dragonfly and torus", test_fabrics_direct);
	CU_add_test(s, "report.json fabrics: the TPU v4 pod (ISCA 2023)", test_fabrics_tpu_v4);
	CU_add_test(s, "the ends' table: texts, plain cells, id lengths", test_ends_table);
}
