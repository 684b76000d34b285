/*
 * program.h — the program: files loaded, names resolved, scenarios applied, every value
 * checked against the schemas (passes/front/). Typed access to declarations (field.c) is the
 * one way later passes read the spec; backends never include this header.
 */
#ifndef CLUSTERC_PROGRAM_H
#define CLUSTERC_PROGRAM_H

#include "lang.h"
/* ---- the program ---------------------------------------------------------------------------- */

/* A --set given on the command line, or an override of a sweep file (origin set). */
typedef struct CliOverride {
	const char *text;   /* "wanka.nodes=2000 x dgx_h100" */
	const char *origin; /* a sweep: the file's path ... */
	const char *origin_text; /* ... its text ... */
	size_t origin_len;
	const char *masked; /* ... and the same bytes with the override alone in place
			     * (parse_override_masked); diagnostics then point into the file */
} CliOverride;

/* A declaration of the standard library, known by name whether imported or not. */
typedef struct StdlibDecl {
	const char *name; /* interned */
	int kind;         /* KindId, or -1 */
	const char *module; /* "std.NAME" */
} StdlibDecl;

typedef struct Program {
	Ctx *c;
	File *root;
	PtrVec files;      /* File*, the root first, then imports in the order first met */
	PtrVec decls;      /* Decl*, in program order: imports before the file importing them */
	PtrVec scenarios;  /* Scenario* */
	PtrVec requires;   /* Stmt* of kind STMT_REQUIRE, effective for the chosen scenario */
	PtrVec objectives; /* Stmt* of kind STMT_OBJECTIVE, effective for the chosen scenario */
	NameTable names;   /* declaration name -> Decl* */
	NameTable scenario_names; /* scenario name -> Scenario* */
	NameTable stdlib_index;   /* declaration name -> StdlibDecl*, built on demand */
	PtrVec stdlib_decls;      /* the same StdlibDecl*, in module order (for "did you mean") */
	PtrVec override_targets;  /* Decl* named by --set overrides (in use, as scenario targets) */
	bool stdlib_indexed;
	Source *input;        /* when set, the root source (already in memory) instead of a path */
	const char *scenario; /* chosen with --scenario, or NULL for the base design */
	const CliOverride *sets;
	int nsets;
	bool library; /* the root declares no cluster and no workload: check every declaration */
	int unmet;        /* diagnostics of requirements that cannot be met (exit 2) */
	bool internal_error; /* a broken invariant of clusterc itself (exit 70) */
	int dump;         /* a Stage to print the IR after (--dump=PASS), or -1 */
	long dump_max;    /* entries of each list it prints (--dump-max=N); 0: all */
	FILE *dump_out;
	bool io_error;    /* the root file could not be read (exit 74) */
	bool usage_error; /* a command-line value was wrong, e.g. an unknown scenario (exit 64) */
	/* The load stage when set (else load_program): a compare worker's, which parses the spec
	 * once and then gives each row the program as that parse left it (driver/cmd_compare.c). */
	int (*load)(struct Program *p, const char *path);
} Program;


/* ---- values (check.c) ----------------------------------------------------------------------- */

typedef enum {
	VAL_QTY,     /* numbers of every kind: q.dim is DIM_NONE for counts and ratios */
	VAL_BOOL,
	VAL_STRING,  /* also templates */
	VAL_ENUM,    /* s is the interned enum word; also currencies */
	VAL_REF,     /* ref */
	VAL_COUNTED, /* count x ref */
	VAL_LIST,    /* items */
	VAL_RATIO,   /* q.v = a / b; a and b kept */
	VAL_CTOR,    /* ctor with items[i] the value of param i, or NULL when absent */
	VAL_CHOICE,  /* one_of: items are the options */
	VAL_RANGE,   /* lo..hi step */
	VAL_AUTO,
} ValueKind;

typedef struct Value Value;
struct Value {
	ValueKind kind;
	Loc loc;
	Qty q;
	double a, b;          /* VAL_RATIO */
	double lo, hi, step;  /* VAL_RANGE */
	bool b_val;
	const char *s;
	int e;                /* VAL_ENUM of a field: the word's constant in its family, or -1 */
	Decl *ref;
	Value *count;         /* VAL_COUNTED: a VAL_QTY, VAL_RANGE, VAL_CHOICE or VAL_AUTO */
	Value **items;
	int n;
	const CtorSchema *ctor;
};

/* field.c: typed access (schema.def). A field of d or of its nearest ancestor that sets it; NULL
 * when none does. Asking for a field of another kind than d's, a number of a field that is not
 * one, or (field_num) a default the schema does not write as a literal exits 70. */
Field *field_get(const Decl *d, FieldId f);
const Value *field_value(const Decl *d, FieldId f);
/* While set, every typed read of a field ORs the field's open choices (Field.choices) into it:
 * the optimizer learns which choices a part of the design depends on (passes/opt/optimize.c). */
extern unsigned long long *field_reads;
/* field_value for a caller that reads a constructor's kind but none of its parameters: only
 * an open choice of the whole value counts as read. */
const Value *field_value_shallow(const Decl *d, FieldId f);
/* Adds choices to field_reads, when set: a pass reading a result that depends on them. */
static inline void field_note(unsigned long long choices)
{
	if (field_reads)
		*field_reads |= choices;
}
/* A number in base units (quantities, whole numbers, ratios as a/b, booleans as 0 or 1): the
 * value when set, else the schema's literal default. */
double field_num(const Decl *d, FieldId f);
/* The same, false when the field is unset (or open) and its default is computed by a pass. */
bool field_num_set(const Decl *d, FieldId f, double *out);
bool field_bool(const Decl *d, FieldId f);
/* An enumeration's constant in its family (FormFactor, Protocol, Connector ...), or -1 when unset
 * without a literal default. */
int field_enum(const Decl *d, FieldId f);
/* A string, template or enum word (the schema's default when unset), or NULL. */
const char *field_str(const Decl *d, FieldId f);
Decl *field_ref(const Decl *d, FieldId f);
/* A constructor value's parameter (ctor NULL or not a constructor: NULL, false). */
const Value *field_param_value(const Value *ctor, ParamId p);
double field_param_num(const Value *ctor, ParamId p);
bool field_param_num_set(const Value *ctor, ParamId p, double *out);
bool field_param_is_auto(const Value *ctor, ParamId p);

/* The value of a field of d, looking through inheritance; NULL when nobody set it. */
Field *decl_field(const Decl *d, const char *name);
const Value *decl_value(const Decl *d, const char *name);
/* A field's quantity in base units, or def when it is absent, left open or not a quantity;
 * NULL d gives def. */
double decl_number(const Decl *d, const char *name, double def);
const char *decl_kind_name(int kind);

/* ---- load.c --------------------------------------------------------------------------------- */

/* Parses the root file and, depth first, every file it imports; diagnoses missing files and
 * import cycles. Returns the number of errors. */
int load_program(Program *p, const char *path);
/* The same for a source already in memory (fuzzing, tests). */
int load_program_source(Program *p, Source *src);
/* The standard-library module declaring a name ("std.cooling"), or NULL. */
const char *load_module_declaring(Program *p, const char *name);
/* The stdlib declaration of one of `kinds` (a bit per KindId) whose name is closest to a
 * misspelt one, or NULL; *module the module that declares it. */
const char *load_suggest(Program *p, const char *name, unsigned kinds, const char **module);

/* ---- resolve.c ------------------------------------------------------------------------------ */

/* Builds the name tables; checks declaration kinds, duplicate names, parents and their cycles,
 * field names, scenario names, parents and override paths. */
int resolve_program(Program *p);

/* Lookups with "did you mean" diagnostics, shared with scenario.c and check.c. */
Decl *resolve_decl_name(Program *p, const char *name, Loc loc, unsigned kinds, const char *what);
const FieldSchema *resolve_field_name(Program *p, int kind, const char *owner, const char *name,
				      Loc loc);
Decl *resolve_override_path(Program *p, const Path *path, const FieldSchema **field,
			    const FieldSchema **param);

/* ---- scenario.c ----------------------------------------------------------------------------- */

/* Applies the chosen scenario (and its parents) and then every --set, rewriting the fields they
 * name; collects the effective require and objective statements. */
int scenario_apply(Program *p);
const FieldSchema *scenario_override_param(Program *p, const Decl *d, const Path *path, const Field *base);
/* "SPEC has no scenario 'NAME'; did you mean ...?" at `at` (NOLOC for the command line), with
 * its code and suggestion: for --scenario, compare's --scenarios and a sweep's scenarios. */
Diag *scenario_unknown(Program *p, Loc at, const char *name);

/* ---- check.c -------------------------------------------------------------------------------- */

/* Checks every field value against its schema (dimensions, kinds, ranges, choices, templates),
 * the required fields of every declaration in use, every override of every scenario, and the
 * dimensions of require and objective expressions. Fills Field.val. */
int check_program(Program *p);

/* eval.c: constant folding of quantities, and shared wording. */
bool eval_qty(Program *p, const Expr *e, Qty *out);
bool eval_unit(Program *p, const Expr *e, Qty *out);
const char *eval_describe(const Expr *e);
const char *eval_dim_phrase(Dim d, char *buf, size_t n);
int eval_currency(const Decl *cluster);

/* Whether an expression reads an attribute (DECL.FIELD) anywhere in it. */
bool check_reads_attribute(const Expr *e);
/* The schema field a member expression `DECL.FIELD` reads, and its declaration into *decl when
 * decl is not NULL; NULL when DECL names no declaration or FIELD is none of its kind's. */
const FieldSchema *check_member_field(const Program *p, const Expr *e, const Decl **decl);
/* Whether a member the expression reads (through parentheses, signs and arithmetic) is one
 * `member` accepts (called with ctx). */
bool check_reads_member(const Expr *e, bool (*member)(const Expr *, const void *), const void *ctx);

/* An IPv4 prefix "a.b.c.d/len", the address on its network boundary. */
bool check_parse_cidr(const char *s, uint32_t *net, int *len);

/* Infers the dimension of a require or objective expression; false after a diagnostic. */
bool eval_expr_dim(Program *p, const Expr *e, Dim *out);

/* ---- sweep.c: a sweep file's points, for `clusterc compare --sweep` (the file says the format) */

typedef struct SweepPoint {
	const char *name;      /* the row's name: given, or the grid's values */
	Loc loc, name_loc;     /* the point (or the grid), its name when given */
	const char *scenario;  /* the spec's scenario it starts from, or NULL for the base */
	Loc scenario_loc;
	CliOverride *sets;     /* its overrides, in the file's order */
	int nsets;
	const char *sets_text; /* "hall_b.electricity=0.35 CNY/kWh; rack48.cooling=air" */
} SweepPoint;

typedef struct Sweep {
	const char *path;
	const char *scenario;  /* the top-level scenario, or NULL */
	Loc scenario_loc;
	SweepPoint **points;
	int npoints;
	bool io_error;         /* the file could not be read */
} Sweep;

/* Reads and expands the sweep at path (diagnostics in c, at the file's lines; strings in c's
 * arena). Returns the number of errors. Override paths and values are checked by the caller,
 * against the spec, when it applies them. */
int sweep_load(Ctx *c, const char *path, Sweep *s);
/* The same for a file already read (the fuzz target's way in). */
int sweep_load_source(Ctx *c, Source *src, Sweep *s);

#endif
