/*
 * passes.h — the middle of the compiler: a program loaded from files, its names resolved,
 * scenarios applied and every value checked against the schemas. Sectioned by defining file;
 * passes/pipeline.c lists the passes in order.
 */
#ifndef CLUSTERC_PASSES_H
#define CLUSTERC_PASSES_H

#include "lang.h"

/* ---- the program ---------------------------------------------------------------------------- */

/* A --set given on the command line. */
typedef struct CliOverride {
	const char *text; /* "wanka.nodes=2000 x dgx_h100" */
} CliOverride;

typedef struct NameTable {
	const char **keys; /* interned; NULL for an empty slot */
	void **vals;
	int cap, n;
} NameTable;

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
	const char *scenario; /* chosen with --scenario, or NULL for the base design */
	const CliOverride *sets;
	int nsets;
	bool library; /* the root declares no cluster and no workload: check every declaration */
	bool io_error;    /* the root file could not be read (exit 74) */
	bool usage_error; /* a command-line value was wrong, e.g. an unknown scenario (exit 64) */
} Program;

void *names_get(const NameTable *t, const char *interned);
void names_put(Ctx *c, NameTable *t, const char *interned, void *val);

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
	Decl *ref;
	Value *count;         /* VAL_COUNTED: a VAL_QTY, VAL_RANGE, VAL_CHOICE or VAL_AUTO */
	Value **items;
	int n;
	const CtorSchema *ctor;
};

/* The value of a field of d, looking through inheritance; NULL when nobody set it. */
Field *decl_field(const Decl *d, const char *name);
const Value *decl_value(const Decl *d, const char *name);
const char *kind_name(int kind);

/* ---- load.c --------------------------------------------------------------------------------- */

/* Parses the root file and, depth first, every file it imports; diagnoses missing files and
 * import cycles. Returns the number of errors. */
int load_program(Program *p, const char *path);

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
int apply_overrides(Program *p);

/* ---- check.c -------------------------------------------------------------------------------- */

/* Checks every field value against its schema (dimensions, kinds, ranges, choices, templates),
 * the required fields of every declaration in use, every override of every scenario, and the
 * dimensions of require and objective expressions. Fills Field.val. */
int check_program(Program *p);

/* eval.c: constant folding of quantities, and shared wording. */
bool eval_qty(Program *p, const Expr *e, Qty *out);
bool eval_unit(Program *p, const Expr *e, Qty *out);
const char *describe_expr(const Expr *e);
int cluster_currency(const Decl *cluster);

/* Infers the dimension of a require or objective expression; false after a diagnostic. */
bool check_expr_dim(Program *p, const Expr *e, Dim *out);

/* ---- pipeline.c ----------------------------------------------------------------------------- */

typedef enum { STAGE_LOAD, STAGE_RESOLVE, STAGE_OVERRIDES, STAGE_CHECK, STAGE_COUNT } Stage;

typedef struct Timing {
	double ms;
	size_t bytes;
} Timing;

/* Runs the front-end passes in order, stopping at the first pass boundary with errors.
 * Returns the error count. */
int pipeline_front(Program *p, const char *path, Timing timings[STAGE_COUNT]);
extern const char *const stage_names[STAGE_COUNT];

#endif
