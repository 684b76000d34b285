/*
 * test_schema.c — the declaration schemas: every kind and constructor is well formed, lookups
 * work, and a few end-to-end checks of values against fields through the passes.
 */
#include "passes.h"

#include <CUnit/CUnit.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>

void suite_schema(void);

static void test_tables_well_formed(void)
{
	for (int k = 0; k < KIND_COUNT; k++) {
		const KindSchema *ks = &kind_schemas[k];
		CU_ASSERT_PTR_NOT_NULL(ks->name);
		CU_ASSERT_EQUAL(kind_lookup(ks->name), k);
		CU_ASSERT_TRUE(ks->nfields > 0);
		for (int i = 0; i < ks->nfields; i++) {
			const FieldSchema *f = &ks->fields[i];
			CU_ASSERT_PTR_EQUAL(schema_field(k, f->name), f); /* names are unique */
			CU_ASSERT_PTR_NOT_NULL(f->doc);
			if (f->type == FT_ENUM || f->type == FT_TEMPLATE)
				CU_ASSERT_PTR_NOT_NULL(f->enums);
			if (f->type == FT_REF || f->type == FT_COUNTED || f->type == FT_REFLIST)
				CU_ASSERT_NOT_EQUAL(f->kinds, 0);
			/* A derived attribute is never required nor choosable. */
			if (f->flags & F_READONLY)
				CU_ASSERT_EQUAL(f->flags & (F_REQUIRED | F_CHOOSABLE), 0);
			/* A required field has no default to document. */
			if (f->flags & F_REQUIRED)
				CU_ASSERT_PTR_NULL(f->def);
		}
	}
	for (int i = 0; i < ctor_count; i++) {
		CU_ASSERT_PTR_EQUAL(ctor_lookup(ctor_schemas[i].name), &ctor_schemas[i]);
		CU_ASSERT_NOT_EQUAL(ctor_schemas[i].family, CTOR_NONE);
	}
}

/* Every documented default reads as a literal of the language (what typed access returns), but
 * for these, which a pass computes: a default that fails to parse by mistake (a unit misspelt
 * in schema.def) would otherwise become a computed one without anyone noticing. */
static void test_defaults(void)
{
	static const char *const computed[] = {
		"switch.cages", "switch.port_names", "switch.lane_step", "switch.lane_map", "cable.speed", "cable.lengths", "node.accelerators", "node.nics",
		"node.power", "node.scale_up_domain", "node.scale_up_bandwidth",
		"node.scale_up_switches", "node.scale_up_media", "storage.nics", "rack.nodes_per_rack", "site.pue",
		"fabric.link", "fabric.spine_switch", "fabric.core_switch",
		"fabric.spine_link", "fabric.core_link", "fabric.protocol", "fabric.nic", "fabric.rails", "fabric.endpoints",
		"fabric.media", "cluster.fabrics", "cluster.storage", "cluster.currency",
		"cluster.exchange_rates", "model.head_dim", "model.query_groups", "model.ffn",
		"model.v_head_dim",
		"model.expert_ffn", "workload.gpus", "workload.tp", "workload.pp", "workload.cp",
		"workload.ep", "workload.micro_batch", "workload.interleave", "workload.recompute",
		"workload.recompute_modules", "workload.recompute_layers",
		"workload.sequence_parallel", "workload.distributed_optimizer", "workload.fsdp", "workload.shard_gradients", "workload.offload_layers", "workload.capacity_factor", "workload.overlap_dp",
		"workload.overlap_tp", "workload.overlap_pp", "workload.overlap_ep", "workload.cp_comm", "rack.max_cables",
		"cluster.network_rack", "fabric.patch_panel", "fabric.trunks", "storage.write_bandwidth",
		"workload.checkpoint_interval", "node.price", "accelerator.fp8_matmul_efficiency", "accelerator.attention_efficiency",
		"accelerator.attention_backward_efficiency", "workload.pipeline_first_layers",
		"workload.pipeline_last_layers", "cluster.depreciation_period", "power.chain", "cooling.pue", "cooling.plant",
		"cooling_unit.racks_per_unit", "zone.cooling", "zone.power_limit", "zone.nodes_per_rack", "zone.floor", "zone.floor_loading",
		"cluster.rack", "cluster.zones", "site.free_cooling_hours", NULL};
	schema_init();
	int found = 0;
	for (int i = 0; i < FIELD_COUNT; i++) {
		const FieldSchema *f = &field_schemas[i];
		if (!f->def || f->dflt.literal)
			continue;
		char name[128];
		snprintf(name, sizeof name, "%s.%s", kind_schemas[f->owner].name, f->name);
		bool listed = false;
		for (int k = 0; computed[k] && !listed; k++)
			listed = strcmp(computed[k], name) == 0;
		if (!listed)
			fprintf(stderr, "  %s = %s is neither a literal nor listed as computed\n", name,
				f->def);
		CU_ASSERT(listed);
		found++;
	}
	CU_ASSERT_EQUAL(found, 81);
	/* Literal defaults come back in base units and constants. */
	CU_ASSERT_DOUBLE_EQUAL(field_schemas[FLD_SWITCH_HEIGHT].dflt.num, 0.04445, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(field_schemas[FLD_RACK_WIDTH].dflt.num, 0.6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(field_schemas[FLD_CLUSTER_HORIZON].dflt.num, 5 * 365 * 86400.0, 1);
	CU_ASSERT_DOUBLE_EQUAL(field_schemas[FLD_FABRIC_OVERSUBSCRIPTION].dflt.num, 1, 0);
	CU_ASSERT_EQUAL(field_schemas[FLD_NIC_PROTOCOL].dflt.e, PROTO_ETHERNET);
	CU_ASSERT_EQUAL(field_schemas[FLD_POWER_REDUNDANCY].dflt.e, RED_N);
	CU_ASSERT_STRING_EQUAL(field_schemas[FLD_FABRIC_P2P].dflt.s, "10.128.0.0/10");
	CU_ASSERT(field_schemas[FLD_FABRIC_LOSSLESS].dflt.literal && field_schemas[FLD_FABRIC_LOSSLESS].dflt.num == 1);
	CU_ASSERT_DOUBLE_EQUAL(param_schemas[PRM_GRID_ROW_PITCH].dflt.num, 2.4, 1e-12);
}

/* Each row's id is its own constant and names its kind's field by that name. */
static void test_field_ids(void)
{
	schema_init();
	for (int i = 0; i < FIELD_COUNT; i++) {
		CU_ASSERT_EQUAL(field_schemas[i].id, i);
		CU_ASSERT_PTR_EQUAL(schema_field(field_schemas[i].owner, field_schemas[i].name),
				    &field_schemas[i]);
	}
	CU_ASSERT_STRING_EQUAL(field_schemas[FLD_NODE_POWER].name, "power");
	CU_ASSERT_EQUAL(field_schemas[FLD_NODE_POWER].owner, KIND_NODE);
	for (int t = 0; t < TOPO_COUNT; t++)
		CU_ASSERT_PTR_NOT_NULL(ctor_of_topology((TopologyKind)t));
	const CtorSchema *torus = ctor_lookup("torus");
	CU_ASSERT_EQUAL(ctor_param_index(torus, PRM_TORUS_DIMS), 0);
	CU_ASSERT_EQUAL(ctor_param_index(torus, PRM_FAT_TREE_TIERS), -1);
}

/* Typed access: a field asked of a declaration of another kind, or a default the schema does not
 * write as a literal, is a broken invariant (exit 70), never a silent default; an unset field
 * with a literal default reads it. */
static int exit_of(void (*f)(const Decl *), const Decl *d)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		f(d);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
static void read_switch_ports(const Decl *d) { (void)field_num(d, FLD_SWITCH_PORTS); }
static void read_node_power(const Decl *d) { (void)field_num(d, FLD_NODE_POWER); }
static void read_node_height(const Decl *d) { (void)field_num(d, FLD_NODE_HEIGHT); }

static void test_typed_access(void)
{
	Decl node = {.kind = KIND_NODE, .name = "n"};
	CU_ASSERT_EQUAL(exit_of(read_switch_ports, &node), EXIT_INTERNAL); /* another kind's field */
	CU_ASSERT_EQUAL(exit_of(read_node_power, &node), EXIT_INTERNAL);   /* computed default */
	CU_ASSERT_EQUAL(exit_of(read_node_height, &node), EXIT_INTERNAL);  /* required, unset */
	double v = -1;
	CU_ASSERT_FALSE(field_num_set(&node, FLD_NODE_POWER, &v));
	CU_ASSERT_DOUBLE_EQUAL(field_num(&node, FLD_NODE_BASE_POWER), 0, 0); /* "0 W" */
	CU_ASSERT_TRUE(field_bool(&node, FLD_NODE_PRICE_INCLUDES_NICS));     /* "true" */
	Decl sw = {.kind = KIND_SWITCH, .name = "s"};
	CU_ASSERT_DOUBLE_EQUAL(field_num(&sw, FLD_SWITCH_HEIGHT), 0.04445, 1e-12); /* "1 U" */
	CU_ASSERT_EQUAL(field_enum(&sw, FLD_SWITCH_PROTOCOL), PROTO_ETHERNET);
	CU_ASSERT_EQUAL(field_enum(&sw, FLD_SWITCH_CAGE), CONN_OSFP);
}

static void test_lookups(void)
{
	CU_ASSERT_EQUAL(kind_lookup("node"), KIND_NODE);
	CU_ASSERT_EQUAL(kind_lookup("nod"), -1);
	const FieldSchema *p = schema_field(KIND_NODE, "power");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->type, FT_QTY);
	CU_ASSERT_TRUE(dim_eq(p->dim, dim_make(0, 0, -1, 1, 0, 0)));
	const FieldSchema *e = schema_field(KIND_SITE, "electricity");
	CU_ASSERT_EQUAL(e->money_exp, 1);
	CU_ASSERT_TRUE(dim_eq(e->dim, dim_make(0, 0, 0, -1, 0, 0)));
	CU_ASSERT_PTR_NULL(schema_field(KIND_NODE, "pwer"));
	const CtorSchema *ft = ctor_lookup("fat_tree");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ft);
	CU_ASSERT_PTR_NOT_NULL(ctor_param(ft, "tiers"));
	char buf[128];
	CU_ASSERT_STRING_EQUAL(field_type_name(e, buf, sizeof buf), "money per energy");
	CU_ASSERT_STRING_EQUAL(field_type_name(schema_field(KIND_CLUSTER, "nodes"), buf, sizeof buf),
			       "COUNT x node");
}

/* Compiles `text` through the front-end passes; returns the number of errors. */
static int compile(const char *text, Program *out)
{
	Ctx *c = ctx_new((DiagOptions){.format = DIAG_TEXT});
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	/* From memory, as unit_build() compiles: no file to write and remove. */
	*out = (Program){.c = c, .input = src_from_text(c, "unit.cluster", text, strlen(text))};
	return pipeline_front(out, "unit.cluster", NULL);
}

static void test_values(void)
{
	Program p;
	int errors = compile("accelerator g { memory = 80 GiB\n bf16 = 989 TFLOPS\n tdp = 700 W }\n"
			     "node n { accelerators = 8 x g\n height = 8 U\n price = 2_000_000 CNY\n"
			     "  power = 10.2 kW }\n",
			     &p);
	CU_ASSERT_EQUAL(errors, 0);
	Decl *n = table_get(&p.names, intern_cstr(p.c, "n"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	const Value *power = decl_value(n, "power");
	CU_ASSERT_PTR_NOT_NULL_FATAL(power);
	CU_ASSERT_DOUBLE_EQUAL(power->q.v, 10200.0, 1e-9);
	const Value *acc = decl_value(n, "accelerators");
	CU_ASSERT_EQUAL(acc->kind, VAL_COUNTED);
	CU_ASSERT_DOUBLE_EQUAL(acc->count->q.v, 8, 0);
	CU_ASSERT_STRING_EQUAL(acc->ref->name, "g");
	const Value *price = decl_value(n, "price");
	CU_ASSERT_EQUAL(dim_currency(price->q.dim), currency_lookup("CNY"));
	const Value *height = decl_value(n, "height");
	CU_ASSERT_DOUBLE_EQUAL(height->q.v, 8 * 0.04445, 1e-12);
	ctx_free(p.c);

	/* Inheritance: the child sees the parent's fields and overrides its own. */
	errors = compile("accelerator g { memory = 80 GB; bf16 = 1 TFLOPS; tdp = 700 W }\n"
			 "accelerator h : g { memory = 141 GB }\n",
			 &p);
	CU_ASSERT_EQUAL(errors, 0);
	Decl *h = table_get(&p.names, intern_cstr(p.c, "h"));
	CU_ASSERT_DOUBLE_EQUAL(decl_value(h, "memory")->q.v, 141e9 * 8, 1);
	CU_ASSERT_DOUBLE_EQUAL(decl_value(h, "tdp")->q.v, 700, 0);
	ctx_free(p.c);

	/* Mistakes are counted, several per run. */
	CU_ASSERT_EQUAL(compile("accelerator g { memory = 80 kW; bf16 = 1 TFLOPS; tdp = 700 W; pwer = 1 }\n", &p), 2);
	ctx_free(p.c);
}

void suite_schema(void)
{
	CU_pSuite s = CU_add_suite("schema", NULL, NULL);
	CU_add_test(s, "tables are well formed", test_tables_well_formed);
	CU_add_test(s, "defaults are literals or computed on purpose", test_defaults);
	CU_add_test(s, "field ids match the rows", test_field_ids);
	CU_add_test(s, "typed access asserts, defaults from the schema", test_typed_access);
	CU_add_test(s, "lookups", test_lookups);
	CU_add_test(s, "values through the passes", test_values);
}
