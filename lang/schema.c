/*
 * schema.c — what each declaration kind may contain: its fields, their dimension, whether they
 * are required, their default and their meaning; the constructors (fat_tree(...), grid(...),
 * transformer(...)) with their parameters; the read-only attributes later passes derive
 * (capex, facility_power, time_to_train ...) that `require` and `minimize` may read.
 *
 * This table is the single source of truth for checking and for the field tables in
 * docs/language.md (`clusterc schema` prints them; a test keeps the two equal).
 */
#include "lang.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define D_NONE {{0}}
#define D_LENGTH {.e = {[DIM_LENGTH] = 1}}
#define D_MASS {.e = {[DIM_MASS] = 1}}
#define D_TIME {.e = {[DIM_TIME] = 1}}
#define D_RATE {.e = {[DIM_TIME] = -1}}
#define D_ENERGY {.e = {[DIM_ENERGY] = 1}}
#define D_PER_ENERGY {.e = {[DIM_ENERGY] = -1}}
#define D_POWER {.e = {[DIM_ENERGY] = 1, [DIM_TIME] = -1}}
#define D_PER_POWER {.e = {[DIM_ENERGY] = -1, [DIM_TIME] = 1}}
#define D_DATA {.e = {[DIM_DATA] = 1}}
#define D_BANDWIDTH {.e = {[DIM_DATA] = 1, [DIM_TIME] = -1}}
#define D_COMPUTE {.e = {[DIM_FLOP] = 1, [DIM_TIME] = -1}}
#define D_INTENSITY {.e = {[DIM_MASS] = 1, [DIM_ENERGY] = -1}}
#define D_PER_LENGTH {.e = {[DIM_LENGTH] = -1}}
#define D_MASS_RATE {.e = {[DIM_MASS] = 1, [DIM_TIME] = -1}}
#define D_AREAL_MASS {.e = {[DIM_MASS] = 1, [DIM_LENGTH] = -2}}

/* Each helper is the member list of one FieldSchema (schema.def wraps it in braces with its
 * id); dimensions are passed as the D_ names above (single tokens, so the commas inside them
 * never split a macro argument). */
#define COMMON_(N, T, FL, DEF, DOC) .name = N, .type = T, .flags = FL, .def = DEF, .doc = DOC
#define QTY(N, D, FL, DEF, DOC) COMMON_(N, FT_QTY, FL, DEF, DOC), .dim = D
#define MONEY(N, D, FL, DEF, DOC) COMMON_(N, FT_QTY, FL, DEF, DOC), .dim = D, .money_exp = 1
#define QTYLIST(N, D, FL, DEF, DOC) COMMON_(N, FT_QTYLIST, FL, DEF, DOC), .dim = D
#define INTLIST(N, FL, DEF, DOC) COMMON_(N, FT_INTLIST, FL, DEF, DOC)
#define INT(N, FL, DEF, DOC) COMMON_(N, FT_INT, FL, DEF, DOC)
#define REAL(N, FL, DEF, DOC) COMMON_(N, FT_REAL, FL, DEF, DOC)
#define BOOL(N, FL, DEF, DOC) COMMON_(N, FT_BOOL, FL, DEF, DOC)
#define STR(N, FL, DEF, DOC) COMMON_(N, FT_STRING, FL, DEF, DOC)
#define TEMPLATE(N, PH, FL, DEF, DOC) COMMON_(N, FT_TEMPLATE, FL, DEF, DOC), .enums = PH
#define REF(N, K, FL, DEF, DOC) COMMON_(N, FT_REF, FL, DEF, DOC), .kinds = K
#define COUNTED(N, K, FL, DEF, DOC) COMMON_(N, FT_COUNTED, FL, DEF, DOC), .kinds = K
#define REFLIST(N, K, FL, DEF, DOC) COMMON_(N, FT_REFLIST, FL, DEF, DOC), .kinds = K
#define ENUM(N, EN, FAM, FL, DEF, DOC) \
	COMMON_(N, FT_ENUM, FL, DEF, DOC), .enums = EN, .enum_family = &enum_##FAM
#define ENUMLIST(N, EN, FAM, FL, DEF, DOC) \
	COMMON_(N, FT_ENUMLIST, FL, DEF, DOC), .enums = EN, .enum_family = &enum_##FAM
#define CURRENCY(N, FL, DEF, DOC) COMMON_(N, FT_CURRENCY, FL, DEF, DOC)
#define RATES(N, FL, DEF, DOC) COMMON_(N, FT_RATES, FL, DEF, DOC)
#define RATIO(N, FL, DEF, DOC) COMMON_(N, FT_RATIO, FL, DEF, DOC)
#define CTORF(N, FAM, K, FL, DEF, DOC) COMMON_(N, FT_CTOR, FL, DEF, DOC), .family = FAM, .kinds = K

#define DESCRIPTION STR("description", 0, NULL, "free text shown in reports")
#define RO F_READONLY

/* ---- enumerations ------------------------------------------------------------------------------ */

#define X(c, w) w,
#define F(fam, words, prefix)                                                                 \
	static const char *const fam##_words[] = {words(X) NULL};                              \
	const EnumFamily enum_##fam = {#fam, fam##_words,                                     \
				       (int)(sizeof fam##_words / sizeof fam##_words[0]) - 1};
ENUM_FAMILIES(F)
#undef F
#undef X

int enum_lookup(const EnumFamily *f, const char *word)
{
	for (int i = 0; f && i < f->n; i++)
		if (strcmp(f->words[i], word) == 0)
			return i;
	return -1;
}

/* The words each field accepts, in the order the docs list them. */
static const char *const e_form_factor[] = {"sxm", "oam", "pcie", "superchip", NULL};
static const char *const e_gemm_table[] = {"none", "sm90", "sm100", NULL};
static const char *const e_protocol[] = {"infiniband", "ethernet", NULL};
static const char *const e_switch_protocol[] = {"infiniband", "ethernet", "nvlink", NULL};
static const char *const e_nic_protocol[] = {"infiniband", "ethernet", "vpi", NULL};
static const char *const e_cage[] = {"osfp", "qsfp112", "qsfp_dd", "qsfp56", "qsfp28",
				     "sfp56", "sfp28", "backplane", NULL};
static const char *const e_cable_type[] = {"dac", "acc", "aec", "aoc", "fiber", "trunk", NULL};
static const char *const e_fiber[] = {"om3", "om4", "om5", "os2", NULL};
static const char *const e_optical_connector[] = {"mpo8", "mpo12", "mpo16", "lc_duplex",
						  "cs", NULL};
static const char *const e_connector[] = {"osfp", "qsfp112", "qsfp_dd", "qsfp56", "qsfp28",
					  "sfp56", "sfp28", "mpo8", "mpo12", "mpo16",
					  "lc_duplex", "cs", NULL};
static const char *const e_cooling_type[] = {"air", "rear_door", "cold_plate", "immersion", NULL};
static const char *const e_power_type[] = {"ac_ups", "hvdc", NULL};
static const char *const e_redundancy[] = {"n", "n_plus_1", "two_n", "block", NULL};
static const char *const e_cooling_unit[] = {"cdu", "pump", "chiller", "dry_cooler",
					     "cooling_tower", "air_handler", NULL};
static const char *const e_heat_share[] = {"all", "liquid", "air", NULL};
static const char *const e_power_stage[] = {"utility", "transformer", "ups", "hvdc", "pdu",
					    "busway", "rack_feed", NULL};
static const char *const e_routing[] = {"ecmp", "adaptive", "ftree", "updn", "minimal", "ugal",
					"dor", NULL};
static const char *const e_leaf_placement[] = {"network_rack", "server_rack", NULL};
static const char *const e_plane_assignment[] = {"by_nic", "by_port", NULL};
static const char *const e_precision[] = {"bf16", "fp8", NULL};
static const char *const e_recompute[] = {"none", "selective", "full", NULL};
static const char *const e_recompute_modules[] = {"core_attn", "moe_act", "layernorm",
							"mla_up_proj", "mlp", "moe", "shared_experts",
							NULL};
static const char *const e_recompute_method[] = {"block", "uniform", NULL};
static const char *const e_cp_comm[] = {"p2p", "all_gather", "a2a", NULL};
static const char *const e_ep_dispatcher[] = {"alltoall", "hybridep", NULL};
static const char *const e_pipeline_schedule[] = {"one_f_one_b", "dualpipe", NULL};
static const char *const e_activation[] = {"gelu", "swiglu", NULL};
static const char *const e_norm[] = {"layernorm", "rmsnorm", NULL};
static const char *const e_position[] = {"learned", "rope", NULL};
static const char *const e_switch_port_names[] = {"plain", "sonic", "mlnx_os", "nvos", NULL};
static const char *const e_nic_port_names[] = {"plain", "mlx5", "bnxt_re", NULL};
static const char *const e_port_alias[] = {"etp", "eos", NULL};
static const char *const e_depreciation[] = {"straight_line", "declining_balance", NULL};

const char *const hostname_placeholders[] = {"index", "index0", "rack", "row", "slot", "su",
					     "domain", "cluster", "site", NULL};

/* ---- the rows ---------------------------------------------------------------------------------- */

FieldSchema field_schemas[FIELD_COUNT] = {
#define FIELD(K, I, ...) [FLD_##K##_##I] = {__VA_ARGS__, .id = FLD_##K##_##I, .owner = KIND_##K},
#include "schema.def"
};

FieldSchema param_schemas[PARAM_COUNT] = {
#define PARAM(S, I, ...) [PRM_##S##_##I] = {__VA_ARGS__, .id = PRM_##S##_##I, .owner = -1},
#include "schema.def"
};

KindSchema kind_schemas[KIND_COUNT] = {
#define X(k, w, d) [KIND_##k] = {w, d, NULL, 0},
	DECL_KINDS(X)
#undef X
};

/* Each constructor's parameter set, by the name schema.def gives it. */
static const char *const param_set_of[PARAM_COUNT] = {
#define PARAM(set, id, ...) [PRM_##set##_##id] = #set,
#include "schema.def"
};

typedef struct CtorRow {
	const char *set;
	int topology;
} CtorRow;
static const CtorRow ctor_rows[] = {
#define TOPOLOGY(id, name, doc) {#id, TOPO_##id},
#define CTOR(id, name, family, set, doc) {#set, -1},
#include "schema.def"
};

CtorSchema ctor_schemas[] = {
#define TOPOLOGY(id, name, doc) {#name, CTOR_TOPOLOGY, doc, NULL, 0, TOPO_##id},
#define CTOR(id, name, family, set, doc) {name, family, doc, NULL, 0, -1},
#include "schema.def"
};
const int ctor_count = (int)(sizeof ctor_schemas / sizeof ctor_schemas[0]);

/* The default as a literal of the language: a number with an optional unit, true or false, a
 * word of the field's enumeration, or a quoted string; anything else is computed by a pass. */
static FieldDefault read_default(const FieldSchema *fs)
{
	FieldDefault d = {0};
	const char *t = fs->def;
	if (!t)
		return d;
	switch (fs->type) {
	case FT_QTY:
	case FT_INT:
	case FT_REAL:
	case FT_RATIO: {
		char *end;
		double v = strtod(t, &end);
		if (end == t)
			return d;
		if (fs->type == FT_RATIO && *end == ':') {
			char *end2;
			double b = strtod(end + 1, &end2);
			if (end2 == end + 1 || *end2 || b == 0)
				return d;
			d.literal = true, d.num = v / b;
			return d;
		}
		while (*end == ' ')
			end++;
		if (*end) {
			Qty u;
			const char *err, *sugg;
			size_t off, len;
			if (fs->type != FT_QTY || !unit_parse(end, strlen(end), &u, &err, &off, &len, &sugg))
				return d;
			v *= u.v;
		}
		d.literal = true, d.num = v;
		return d;
	}
	case FT_BOOL:
		if (!strcmp(t, "true") || !strcmp(t, "false"))
			d.literal = true, d.num = !strcmp(t, "true");
		return d;
	case FT_ENUM:
		for (int i = 0; fs->enums[i]; i++)
			if (!strcmp(fs->enums[i], t)) {
				d.literal = true;
				d.e = enum_lookup(fs->enum_family, t);
			}
		return d;
	case FT_STRING:
	case FT_TEMPLATE: {
		size_t n = strlen(t);
		if (n >= 2 && t[0] == '"' && t[n - 1] == '"') {
			static char buf[FIELD_COUNT][64];
			int i = fs->id;
			snprintf(buf[i], sizeof buf[i], "%.*s", (int)(n - 2), t + 1);
			d.literal = true, d.s = buf[i];
		}
		return d;
	}
	default:
		return d;
	}
}

void schema_init(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	for (int i = FIELD_COUNT - 1; i >= 0; i--) {
		FieldSchema *fs = &field_schemas[i];
		/* schema.def keeps a kind's rows together, kinds in DECL_KINDS order. */
		assert(i == 0 || field_schemas[i - 1].owner <= fs->owner);
		KindSchema *ks = &kind_schemas[fs->owner];
		ks->fields = fs;
		ks->nfields++;
		fs->dflt = read_default(fs);
	}
	for (int i = 0; i < PARAM_COUNT; i++)
		param_schemas[i].dflt = read_default(&param_schemas[i]);
	for (int c = 0; c < ctor_count; c++) {
		for (int i = PARAM_COUNT - 1; i >= 0; i--)
			if (!strcmp(param_set_of[i], ctor_rows[c].set)) {
				ctor_schemas[c].params = &param_schemas[i];
				ctor_schemas[c].nparams++;
			}
	}
}

/* ---- lookups -------------------------------------------------------------------------------- */

int kind_lookup(const char *word)
{
	schema_init();
	for (int k = 0; k < KIND_COUNT; k++)
		if (strcmp(kind_schemas[k].name, word) == 0)
			return k;
	return -1;
}

const FieldSchema *schema_field(int kind, const char *name)
{
	schema_init();
	const KindSchema *ks = &kind_schemas[kind];
	for (int i = 0; i < ks->nfields; i++)
		if (strcmp(ks->fields[i].name, name) == 0)
			return &ks->fields[i];
	return NULL;
}

const CtorSchema *ctor_lookup(const char *name)
{
	schema_init();
	for (int i = 0; i < ctor_count; i++)
		if (strcmp(ctor_schemas[i].name, name) == 0)
			return &ctor_schemas[i];
	return NULL;
}

const FieldSchema *ctor_param(const CtorSchema *cs, const char *name)
{
	for (int i = 0; i < cs->nparams; i++)
		if (strcmp(cs->params[i].name, name) == 0)
			return &cs->params[i];
	return NULL;
}

const CtorSchema *ctor_of_topology(TopologyKind t)
{
	schema_init();
	for (int i = 0; i < ctor_count; i++)
		if (ctor_schemas[i].topology == (int)t)
			return &ctor_schemas[i];
	return NULL;
}

int ctor_param_index(const CtorSchema *cs, ParamId p)
{
	int i = (int)(&param_schemas[p] - cs->params);
	return i >= 0 && i < cs->nparams ? i : -1;
}

const char *ctor_family_name(CtorFamily f)
{
	switch (f) {
	case CTOR_TOPOLOGY: return "topology";
	case CTOR_FLOOR: return "floor";
	case CTOR_MODEL: return "model";
	default: return "value";
	}
}

static void kinds_text(unsigned mask, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int k = 0; k < KIND_COUNT; k++) {
		if (!(mask & (1u << k)))
			continue;
		int w = snprintf(buf + len, n - len, "%s%s", len ? " or " : "", kind_schemas[k].name);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
}

const char *field_type_name(const FieldSchema *fs, char *buf, size_t n)
{
	char tmp[128];
	switch (fs->type) {
	case FT_QTY:
	case FT_QTYLIST: {
		Dim d = fs->dim;
		if (fs->money_exp) {
			char inner[96];
			if (dim_is_none(d))
				snprintf(tmp, sizeof tmp, "money");
			else
				snprintf(tmp, sizeof tmp, "money per %s",
					 dim_name(dim_pow(d, -1), inner, sizeof inner));
		} else {
			dim_name(d, tmp, sizeof tmp);
		}
		snprintf(buf, n, fs->type == FT_QTYLIST ? "list of %s values" : "%s", tmp);
		break;
	}
	case FT_INT: snprintf(buf, n, "whole number"); break;
	case FT_REAL: snprintf(buf, n, "number"); break;
	case FT_BOOL: snprintf(buf, n, "true or false"); break;
	case FT_STRING: snprintf(buf, n, "string"); break;
	case FT_TEMPLATE: snprintf(buf, n, "name template"); break;
	case FT_REF: kinds_text(fs->kinds, tmp, sizeof tmp); snprintf(buf, n, "%s", tmp); break;
	case FT_COUNTED:
		kinds_text(fs->kinds, tmp, sizeof tmp);
		snprintf(buf, n, "COUNT x %s", tmp);
		break;
	case FT_REFLIST:
		kinds_text(fs->kinds, tmp, sizeof tmp);
		snprintf(buf, n, "list of %s names", tmp);
		break;
	case FT_INTLIST: snprintf(buf, n, "list of whole numbers"); break;
	case FT_ENUM: snprintf(buf, n, "name (listed in the meaning)"); break;
	case FT_ENUMLIST: snprintf(buf, n, "list of names (listed in the meaning)"); break;
	case FT_CURRENCY: snprintf(buf, n, "currency code"); break;
	case FT_RATES: snprintf(buf, n, "list of exchange rates"); break;
	case FT_RATIO: snprintf(buf, n, "ratio A:B"); break;
	case FT_CTOR:
		if (fs->kinds)
			snprintf(buf, n, "%s constructor or name", ctor_family_name(fs->family));
		else
			snprintf(buf, n, "%s constructor", ctor_family_name(fs->family));
		break;
	}
	return buf;
}

/* ---- documentation -------------------------------------------------------------------------- */

static void print_fields(FILE *out, const FieldSchema *fs, int n, bool readonly)
{
	fprintf(out, "| field | value | default | meaning |\n| --- | --- | --- | --- |\n");
	for (int i = 0; i < n; i++) {
		const FieldSchema *f = &fs[i];
		if (!!(f->flags & F_READONLY) != readonly)
			continue;
		char type[160];
		field_type_name(f, type, sizeof type);
		fprintf(out, "| `%s` | %s%s | %s | %s", f->name, type,
			f->flags & F_CHOOSABLE ? " (choosable)" : "",
			f->flags & F_REQUIRED ? "**required**" : f->def ? f->def : "none", f->doc);
		const char *bound = f->flags & F_POSITIVE   ? "; greater than 0"
				    : (f->flags & F_NONNEG) && (f->flags & F_FRACTION) ? "; in [0, 1], e.g. 10 %"
				    : f->flags & F_NONNEG   ? "; 0 or more"
				    : f->flags & F_FRACTION ? "; in (0, 1], e.g. 80 %"
				    : f->flags & F_ATLEAST1 ? "; 1 or more"
							    : "";
		fputs(f->flags & F_READONLY ? "" : bound, out);
		if (f->type == FT_ENUM || f->type == FT_ENUMLIST || f->type == FT_TEMPLATE) {
			fprintf(out, f->type == FT_ENUM	      ? "; one of"
				     : f->type == FT_ENUMLIST ? "; each one of"
							      : "; placeholders");
			for (int j = 0; f->enums[j]; j++)
				fprintf(out, "%s `%s`", j ? "," : "", f->enums[j]);
		}
		fprintf(out, " |\n");
	}
}

void schema_print_markdown(FILE *out)
{
	schema_init();
	for (int k = 0; k < KIND_COUNT; k++) {
		const KindSchema *ks = &kind_schemas[k];
		fprintf(out, "### `%s`\n\n%s.\n\n", kind_schemas[k].name, kind_schemas[k].doc);
		print_fields(out, ks->fields, ks->nfields, false);
		bool any_ro = false;
		for (int i = 0; i < ks->nfields; i++)
			any_ro |= !!(ks->fields[i].flags & F_READONLY);
		if (any_ro) {
			fprintf(out, "\nDerived attributes (read-only, for `require` and objectives):\n\n");
			print_fields(out, ks->fields, ks->nfields, true);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "### Constructors\n\n");
	for (int i = 0; i < ctor_count; i++) {
		const CtorSchema *cs = &ctor_schemas[i];
		fprintf(out, "#### `%s(...)` — %s\n\n%s.\n\n", cs->name,
			ctor_family_name(cs->family), cs->doc);
		print_fields(out, cs->params, cs->nparams, false);
		fprintf(out, "\n");
	}
}
