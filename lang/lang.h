/*
 * lang.h — the clusterc front end: the syntax tree, the parser, the declaration schemas and the
 * formatter, over base.h. One header for the layer, sectioned by the file that defines each
 * name. Only passes/ (the front-end passes and typed field access) and the driver include it.
 */
#ifndef CLUSTERC_LANG_H
#define CLUSTERC_LANG_H

#include "base.h"

/* ---- ast.c: the syntax tree --------------------------------------------------------------- */

#define EXPR_KINDS(X) \
	X(ERROR, "error")      \
	X(NUMBER, "number")    \
	X(STRING, "string")    \
	X(BOOL, "boolean")     \
	X(AUTO, "auto")        \
	X(NAME, "name")        \
	X(MEMBER, "member")    \
	X(CALL, "call")        \
	X(LIST, "list")        \
	X(PAREN, "parentheses") \
	X(NEG, "negation")     \
	X(ADD, "+")            \
	X(SUB, "-")            \
	X(MUL, "*")            \
	X(DIV, "/")            \
	X(TIMES, "x")          \
	X(RATIO, ":")          \
	X(RANGE, "..")

typedef enum {
#define X(k, s) EXPR_##k,
	EXPR_KINDS(X)
#undef X
} ExprKind;
extern const char *const expr_kind_names[];

typedef struct Expr Expr;

typedef struct Arg {
	const char *name; /* NULL for a positional argument */
	Loc name_loc;
	Expr *value;
} Arg;

struct Expr {
	ExprKind kind;
	uint16_t depth; /* 1 + the depth of the deepest child; capped at MAX_NESTING */
	Loc loc;
	union {
		struct {
			double value;     /* the literal's value, before the unit */
			const char *text; /* as written, underscores kept */
			const char *unit; /* as written, or NULL */
			Loc unit_loc;
		} num;
		struct {
			const char *value; /* unescaped */
			const char *text;  /* as written, quotes excluded */
		} str;
		bool boolean;
		const char *name; /* EXPR_NAME, interned */
		struct {
			Expr *base;
			const char *field; /* interned */
			Loc field_loc;
		} member;
		struct {
			const char *name; /* interned */
			Loc name_loc;
			Arg *args;
			int nargs;
			bool multiline; /* written over several lines: fmt keeps one argument a line */
		} call;
		struct {
			Expr **items;
			int n;
			bool multiline;
		} list;
		Expr *inner; /* PAREN, NEG */
		struct {
			Expr *l, *r;
		} bin; /* ADD SUB MUL DIV TIMES RATIO */
		struct {
			Expr *lo, *hi, *step; /* step may be NULL */
		} range;
	};
};

/* A dotted path `a.b.c` as written on the left of an override. */
typedef struct Path {
	const char *parts[4];
	Loc locs[4];
	int n;
	Loc loc;
} Path;

typedef struct Field {
	const char *name; /* interned */
	Loc name_loc;
	Expr *value;
	Loc loc;          /* name to end of value */
	struct Value *val; /* the checked value, filled by passes/check.c */
	int id;            /* 1 + its FieldId once typed access looked it up; -1: not a field */
	bool overridden;   /* set by a scenario or --set rather than written here */
	unsigned long long choices; /* the optimizer's open choices in this field (a bit each), read
				     * through typed access while field_reads is set (passes/opt) */
	unsigned long long param_choices; /* those of them in a constructor's parameters */
	struct Field *replaced; /* an override's: the field in force before it (written here or
				 * inherited), NULL when the field was unset */
} Field;

typedef struct Decl {
	const char *kind_word; /* as written, interned */
	int kind;              /* KindId, or -1 when the word names no kind */
	Loc kind_loc;
	const char *name;
	Loc name_loc;
	const char *parent_name; /* after ':', or NULL */
	Loc parent_loc;
	Field **fields;
	int nfields;
	Loc loc; /* whole declaration */
	Loc body; /* from '{' to '}' */
	bool one_line; /* the body was written on one line */
	/* Filled by passes/resolve.c */
	struct Decl *parent;
	bool used;
	bool incomplete; /* a field name or the parent did not resolve: required fields unchecked */
	bool resolving; /* cycle detection in inheritance */
	int index;      /* order of declaration in the program */
} Decl;

typedef enum { CMP_LE, CMP_LT, CMP_GE, CMP_GT, CMP_EQ } CmpOp;
extern const char *const cmp_op_names[];

typedef struct Require {
	Expr *lhs, *rhs;
	CmpOp op;
	Loc op_loc;
	Loc loc;
} Require;

typedef struct Objective {
	bool maximize;
	Expr *expr;
	Loc loc;
} Objective;

typedef struct Override {
	Path path;
	Expr *value;
	Loc loc;
	/* Filled by passes/resolve.c (scenarios) or passes/scenario.c (--set) */
	struct Decl *decl; /* NULL when the path did not resolve */
	const struct FieldSchema *field, *param;
	bool resolved;
} Override;

typedef enum { STMT_IMPORT, STMT_DECL, STMT_SCENARIO, STMT_REQUIRE, STMT_OBJECTIVE, STMT_OVERRIDE } StmtKind;

typedef struct Stmt Stmt;

typedef struct Scenario {
	const char *name;
	Loc name_loc;
	const char *parent_name;
	Loc parent_loc;
	Stmt **items; /* STMT_OVERRIDE, STMT_REQUIRE, STMT_OBJECTIVE */
	int nitems;
	Loc loc;
	Loc body;
	bool one_line;
	struct Scenario *parent; /* resolved */
	bool resolving;
} Scenario;

typedef struct Import {
	const char *module; /* "std.accelerators", or NULL for a path import */
	const char *path;   /* the relative path of a string import, or NULL */
	Loc target_loc;
	struct File *file;  /* resolved by passes/load.c */
} Import;

struct Stmt {
	StmtKind kind;
	Loc loc;
	union {
		Import import;
		Decl *decl;
		Scenario *scenario;
		Require require;
		Objective objective;
		Override override;
	};
};

typedef struct Comment {
	Loc loc;
	bool block; /* slash-star rather than slash-slash */
} Comment;

typedef struct File {
	Source *src;
	Stmt **stmts;
	int nstmts;
	Comment *comments; /* in source order */
	int ncomments;
	bool loading; /* import cycle detection */
	bool parsed_ok;
} File;

Expr *ast_expr(Ctx *c, ExprKind k, Loc loc);
Expr *ast_binary(Ctx *c, ExprKind k, Expr *l, Expr *r);
Expr *ast_unary(Ctx *c, ExprKind k, Expr *inner, Loc loc);
bool expr_is_name(const Expr *e, const char *name);

/* ---- lexer.l, parser.y: the parser -------------------------------------------------------- */

/* Parses one source file. Diagnostics go to c; the result is never NULL (statements that failed
 * to parse are left out) and f->parsed_ok tells whether there were syntax errors. */
File *parse_file(Ctx *c, Source *src);
/* Parses "PATH = EXPR" (a --set override); NULL after a diagnostic. */
Stmt *parse_override(Ctx *c, Source *src);
/* An override written inside another file (a sweep's YAML): text has src->len bytes, the
 * override at its place and blanks elsewhere, so locations, lines and carets are the file's. */
Stmt *parse_override_masked(Ctx *c, Source *src, const char *text);
/* The tokens of a source, one a line with its text ("name dgx_h100"), for tests and
 * `clusterc tokens`. */
void lex_dump(Ctx *c, Source *src, Buf *out);

/* ---- schema.c: declaration kinds, their fields and constructors ---------------------------- */


/* Every field of every kind and every constructor parameter has a constant (schema.def): typed
 * access names a field by it (passes/front/field.c), so a misspelt field is a compile error and
 * a field asked of the wrong kind an assert. */
typedef enum {
#define FIELD(kind, id, ...) FLD_##kind##_##id,
#include "schema.def"
	FIELD_COUNT
} FieldId;

typedef enum {
#define PARAM(set, id, ...) PRM_##set##_##id,
#include "schema.def"
	PARAM_COUNT
} ParamId;

/* The shape of a value a field accepts. */
typedef enum {
	FT_QTY,      /* a quantity of dimension `dim` (money of any currency when money_exp) */
	FT_INT,      /* a dimensionless whole number */
	FT_REAL,     /* a dimensionless number */
	FT_BOOL,
	FT_STRING,
	FT_TEMPLATE, /* a string with {placeholders} from `enums` */
	FT_REF,      /* the name of a declaration of a kind in `kinds` */
	FT_COUNTED,  /* COUNT x NAME, NAME meaning 1 x NAME, or a list of these */
	FT_REFLIST,  /* [NAME, ...] */
	FT_QTYLIST,  /* [QTY, ...] of dimension `dim` */
	FT_INTLIST,  /* [N, ...] of whole numbers */
	FT_ENUM,     /* one of the identifiers in `enums` */
	FT_ENUMLIST, /* [NAME, ...] of the identifiers in `enums` */
	FT_CURRENCY, /* a currency code: CNY, USD ... */
	FT_RATES,    /* exchange rates: [7.1 CNY/USD, ...] */
	FT_RATIO,    /* A:B, or a plain number meaning A:1 */
	FT_CTOR,     /* a constructor call from the family `ctor_family` */
} FieldType;

enum {
	F_REQUIRED = 1 << 0,   /* must be given (directly or inherited) on a used declaration */
	F_CHOOSABLE = 1 << 1,  /* may be one_of(...), a range, or auto */
	F_POSITIVE = 1 << 2,   /* > 0 */
	F_NONNEG = 1 << 3,     /* >= 0 */
	F_FRACTION = 1 << 4,   /* in (0, 1] */
	F_ATLEAST1 = 1 << 5,   /* >= 1 (PUE) */
	F_READONLY = 1 << 6,   /* a derived attribute: readable in require/minimize, not settable */
	F_RELIABILITY = 1 << 7, /* an attribute of failures, checkpoints and restarts (the
				 * optimizer's candidates weigh it without the plant's events) */
	F_READS_POWER = 1 << 8, /* an attribute that reads the facility's power, PUE or price (a
				 * workload's: its factor needs the whole model) */
};

typedef enum { CTOR_NONE, CTOR_TOPOLOGY, CTOR_FLOOR, CTOR_MODEL } CtorFamily;

/* The default a field takes when unset, when the schema writes it as a literal. */
typedef struct FieldDefault {
	bool literal;      /* false: the default is computed by a pass (FieldSchema.def says how) */
	double num;        /* numbers (base units), ratios (a/b), booleans (0 or 1) */
	int e;             /* enums: the family constant */
	const char *s;     /* strings: the unquoted text */
} FieldDefault;

typedef struct FieldSchema {
	const char *name;
	FieldType type;
	Dim dim;          /* FT_QTY, FT_QTYLIST: the dimension without money */
	int money_exp;    /* FT_QTY, FT_QTYLIST: exponent of money, any one currency */
	unsigned kinds;   /* FT_REF, FT_COUNTED, FT_REFLIST: accepted kinds (KINDMASK) */
	const char *const *enums; /* FT_ENUM, FT_TEMPLATE: NULL-terminated */
	const EnumFamily *enum_family; /* FT_ENUM: the family its words come from */
	CtorFamily family;        /* FT_CTOR */
	unsigned flags;
	const char *def;  /* the default, as documented ("1", "sum of parts"), or NULL */
	const char *doc;
	int id;           /* FieldId or ParamId */
	int owner;        /* fields: the KindId; parameters: -1 */
	FieldDefault dflt; /* def read as a literal (schema_init) */
} FieldSchema;

typedef struct KindSchema {
	const char *name;
	const char *doc;
	const FieldSchema *fields; /* settable fields, then read-only derived attributes */
	int nfields;
} KindSchema;

typedef struct CtorSchema {
	const char *name;
	CtorFamily family;
	const char *doc;
	const FieldSchema *params;
	int nparams;
	int topology;     /* TopologyKind for CTOR_TOPOLOGY, else -1 */
} CtorSchema;

/* Filled by schema_init (ctx_new calls it; it is idempotent): every kind's fields and every
 * constructor's parameters point into the rows of schema.def. */
extern KindSchema kind_schemas[KIND_COUNT];
extern CtorSchema ctor_schemas[];
extern const int ctor_count;
extern FieldSchema field_schemas[FIELD_COUNT]; /* by FieldId */
extern FieldSchema param_schemas[PARAM_COUNT]; /* by ParamId */
void schema_init(void);

int kind_lookup(const char *word); /* KindId or -1 */
const FieldSchema *schema_field(int kind, const char *name);
const CtorSchema *ctor_lookup(const char *name);
const CtorSchema *ctor_of_topology(TopologyKind t);
const FieldSchema *ctor_param(const CtorSchema *cs, const char *name);
/* The index of parameter p among cs's parameters, or -1 when cs has no such parameter. */
int ctor_param_index(const CtorSchema *cs, ParamId p);
const char *ctor_family_name(CtorFamily f);
const char *field_type_name(const FieldSchema *fs, char *buf, size_t n); /* "power", "node" */
void schema_print_markdown(FILE *out); /* the field tables of docs/language.md */

/* Placeholders of name templates and what each means. */
extern const char *const hostname_placeholders[];

/* ---- fmt.c: canonical formatting ---------------------------------------------------------- */

/* Renders a parsed file in canonical layout, keeping every comment. The caller frees *out. */
char *fmt_file(const File *f, size_t *out_len);

#endif
