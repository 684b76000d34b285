/*
 * lang.h — the clusterc front end: memory, sources, diagnostics, the syntax tree, units and
 * declaration schemas. One header for the layer, sectioned by the file that defines each name,
 * so it reads as a table of contents (after QBE's all.h).
 *
 * Ownership: everything the front end allocates lives in the Ctx's arena and is released at
 * once by ctx_free(); nothing here is freed piecemeal.
 */
#ifndef CLUSTERC_LANG_H
#define CLUSTERC_LANG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLUSTERC_VERSION "0.1.0"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* Exit codes of the command line (PRODUCT §5). */
enum {
	EXIT_OK = 0,
	EXIT_SPEC = 1,       /* the spec has errors */
	EXIT_UNMET = 2,      /* well formed, but its requirements cannot all be met */
	EXIT_USAGE = 64,
	EXIT_INTERNAL = 70,
	EXIT_IO = 74,
	EXIT_BUSY = 75,      /* the output directory is being written by another clusterc */
};

/* Limits. Each guards the compiler against input that would otherwise exhaust memory or the
 * C stack; docs/language.md lists them. */
enum {
	MAX_FILE_BYTES = 64 << 20, /* a spec is text written by people or generators, not data */
	MAX_NESTING = 256,         /* brackets and expression depth: bounds every recursive walk */
	MAX_IDENT = 256,
	MAX_IMPORT_DEPTH = 64,
	DEFAULT_ERROR_LIMIT = 50,
};

typedef struct Ctx Ctx;

/* ---- arena.c: memory by lifetime ---------------------------------------------------------- */

typedef struct Arena Arena;

Arena *arena_new(void);           /* pass-through mode when CLUSTERC_ARENA=malloc or ASan build */
void arena_free(Arena *a);        /* frees every block; NULL is fine */
void arena_tune_heap(void);       /* malloc's heap in huge pages, for a large build (arena.c) */
void *arena_alloc(Arena *a, size_t n); /* zeroed, aligned for any type; never NULL */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
size_t arena_bytes(const Arena *a); /* bytes handed out, for --timings */

void *xmalloc(size_t n);            /* malloc that exits 70 on exhaustion */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
NORETURN void die_oom(void);

/* A growable array of pointers backed by an arena (old storage is abandoned on growth). */
typedef struct PtrVec {
	void **v;
	int n, cap;
} PtrVec;
void vec_push(Arena *a, PtrVec *vec, void *p);

/* A growable character buffer on the heap (for text being rendered). */
typedef struct Buf {
	char *s;
	size_t len, cap;
} Buf;
void buf_put(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
void buf_free(Buf *b);

/* Interned identifiers: equal names give the same pointer, so names compare with ==. */
const char *intern(Ctx *c, const char *s, size_t n);
const char *intern_cstr(Ctx *c, const char *s);

/* ---- source.c: files and locations -------------------------------------------------------- */

typedef struct Source {
	const char *path;    /* as shown in diagnostics */
	const char *abspath; /* canonical, for import identity; NULL for stdin and --set */
	const char *text;    /* NUL-terminated; len excludes the NUL */
	uint32_t len;
	uint32_t *lines;     /* byte offset of each line start */
	int nlines;
	int id;              /* order of loading, from 0 */
	bool is_stdlib;
} Source;

/* A span of source text: bytes [off, end) of src. Every token, AST node and, later, IR entity
 * carries one. A Loc with src == NULL means "no location" (command line, internal). */
typedef struct Loc {
	const Source *src;
	uint32_t off, end;
} Loc;

/* Loads a file; on failure reports at `from` (or as a command-line error when from.src is
 * NULL), returns NULL and sets *io_error when the failure was the operating system's (missing
 * file, permission) rather than the content's (binary, too large, bad UTF-8). */
Source *src_load(Ctx *c, const char *path, Loc from, bool *io_error);
Source *src_from_text(Ctx *c, const char *name, const char *text, size_t len);
void src_linecol(const Source *s, uint32_t off, int *line, int *col); /* 1-based; col in chars */
const char *src_line(const Source *s, int line, int *len);           /* text of line, no EOL */
Loc loc_span(Loc a, Loc b); /* from a's start to b's end */
extern const Loc NOLOC;

/* ---- diag.c: diagnostics ------------------------------------------------------------------ */

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;
typedef enum { DIAG_TEXT, DIAG_JSON } DiagFormat;

typedef struct DiagNote {
	Loc loc;
	const char *msg;
} DiagNote;

typedef struct Diag {
	DiagLevel level;
	Loc loc;            /* primary span: caret at its start, ~ under the rest */
	const char *msg;
	const char *code;   /* stable kebab-case id, e.g. "unknown-field" (JSON only) */
	const char *suggestion; /* the name a "did you mean" offers, or NULL */
	Loc ranges[4];      /* further spans to underline on the same line */
	int nranges;
	DiagNote notes[8];
	int nnotes;
} Diag;

typedef struct DiagOptions {
	DiagFormat format;
	bool color;
	int error_limit;
} DiagOptions;

Diag *diag_error(Ctx *c, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
Diag *diag_warning(Ctx *c, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_note(Diag *d, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_range(Diag *d, Loc loc);
void diag_set_code(Diag *d, const char *code);
void diag_set_suggestion(Diag *d, const char *name);
int diag_errors(const Ctx *c);
bool diag_limit_reached(const Ctx *c);
void diag_render(Ctx *c, FILE *out); /* prints the collected diagnostics and forgets them */

/* The closest candidate to `word` by edit distance, or NULL when none is close enough. */
const char *suggest(const char *word, const char *const *cands, int n);

/* ---- ctx.c: one compilation ---------------------------------------------------------------- */

struct Ctx {
	Arena *arena;
	DiagOptions dopt;
	PtrVec diags;        /* Diag* in emission order */
	int nerrors, nwarnings;
	bool limit_hit;
	PtrVec sources;      /* Source* in load order */
	const char *stdlib_dir;
	struct Interner *interner;
	bool verbose;
	bool output_busy;    /* outdir_begin found DIR locked by another clusterc (exit 75) */
};

Ctx *ctx_new(DiagOptions dopt);
void ctx_free(Ctx *c);

/* ---- outdir.c: the output directory's protocol (docs/output.md) --------------------------- */

/* The ownership token clusterc keeps in every output directory it makes (not in the manifest). */
#define OUTDIR_TOKEN ".clusterc-output"

typedef struct OutDir OutDir;

/* Starts writing DIR: makes DIR's lock ".DIR.lock" (busy: a diagnostic, c->output_busy),
 * removes what interrupted runs left beside DIR, refuses a DIR that is not empty and not
 * clusterc's (unless force), and creates the temporary directory ".DIR.tmp-XXXXXX" the new
 * output goes into; from then until outdir_end, SIGINT, SIGTERM and SIGHUP remove it before
 * the process dies of them. DIR's parent must exist. NULL after a diagnostic. */
OutDir *outdir_begin(Ctx *c, const char *dir, bool force);
const char *outdir_tmp(const OutDir *od); /* the temporary directory, NULL once committed */
/* Once tmp holds the whole output and its manifest.json: seals it with its token and swaps it
 * with DIR; the previous output is removed. Returns the number of errors (DIR as it was). */
int outdir_commit(OutDir *od, bool force);
/* Removes the temporary directory unless committed, releases the lock, frees od. NULL is fine. */
void outdir_end(OutDir *od);
/* Set once a signal stopped the run: writers create no more files. */
bool outdir_interrupted(void);
/* Whether dir is an output clusterc wrote (token, manifest and files agree). */
bool outdir_owned(const char *dir);

/* ---- units.c: quantities and dimensional analysis ----------------------------------------- */

/* Base dimensions. Energy, data and floating-point operations are bases of their own rather than
 * SI derivations, so messages can say "power" and "bandwidth" instead of "kg·m²·s⁻³". Each
 * currency is a base of its own: CNY and USD never mix without an explicit rate (CNY/USD). */
#define CURRENCIES(X) \
	X(CNY) X(USD) X(EUR) X(GBP) X(JPY) X(KRW) X(INR) X(CHF) X(CAD) X(AUD) X(SGD) X(HKD) \
	X(TWD) X(SAR) X(AED) X(BRL)

enum {
	DIM_LENGTH,
	DIM_MASS,
	DIM_TIME,
	DIM_ENERGY,
	DIM_DATA,
	DIM_FLOP,
#define X(c) DIM_##c,
	CURRENCIES(X)
#undef X
	DIM_COUNT,
	DIM_FIRST_CURRENCY = DIM_CNY,
};

typedef struct Dim {
	int8_t e[DIM_COUNT];
} Dim;

/* A value in coherent base units: m, kg, s, J, bit, FLOP, one unit of each currency. */
typedef struct Qty {
	double v;
	Dim dim;
} Qty;

extern const Dim DIM_NONE;
Dim dim_make(int length, int mass, int time, int energy, int data, int flop);
Dim dim_mul(Dim a, Dim b);
Dim dim_div(Dim a, Dim b);
Dim dim_pow(Dim a, int k);
bool dim_eq(Dim a, Dim b);
bool dim_is_none(Dim a);
int dim_currency(Dim a);       /* the one currency with a nonzero exponent, or -1 (none or several) */
int dim_money_exp(Dim a);      /* that currency's exponent, 0 when none */
Dim dim_with_money(Dim a, int currency, int exp); /* a with money^exp in currency added */
Dim dim_strip_money(Dim a);
const char *currency_name(int currency);  /* "CNY" */
int currency_lookup(const char *s);        /* index or -1 */
extern const char *const currency_names[];
extern const int currency_count;

/* A human name for a dimension: "power", "money (CNY) per energy", "length·time⁻¹". */
const char *dim_name(Dim d, char *buf, size_t n);

/* Parses a unit expression as written after a number ("kW", "CNY/kWh", "GB/s", "W/m^2").
 * On success *out is the factor to base units with its dimension. On failure returns false,
 * sets *err_off and *err_len to the offending symbol inside `text`, and *err to a message;
 * *suggestion to a close known unit when there is one. */
bool unit_parse(const char *text, size_t len, Qty *out, const char **err, size_t *err_off,
		size_t *err_len, const char **suggestion);
extern const char *const unit_names[]; /* every simple unit symbol, for suggestions and docs */
extern const int unit_count;

/* Formats q for people in a unit chosen for its dimension ("12,750 kW", "2.5e9 CNY"). */
const char *qty_format(Qty q, char *buf, size_t n);

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
	bool overridden;   /* set by a scenario or --set rather than written here */
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

#define DECL_KINDS(X)                                                                     \
	X(ACCELERATOR, "accelerator", "an accelerator chip (GPU, NPU) and its module")    \
	X(NIC, "nic", "a network adapter")                                                \
	X(SWITCH, "switch", "a network switch")                                           \
	X(CABLE, "cable", "a cable: copper DAC/ACC/AEC, active optical, or fibre")       \
	X(OPTIC, "optic", "an optical transceiver module")                                \
	X(COOLING, "cooling", "a cooling system")                                         \
	X(POWER, "power", "a power distribution system: UPS or HVDC and its redundancy")  \
	X(NODE, "node", "a server: accelerators, NICs, power, height, price")             \
	X(STORAGE, "storage", "a storage appliance attached to the cluster")              \
	X(RACK, "rack", "a rack type: height, power class, cooling")                      \
	X(SITE, "site", "a data hall: power budget, electricity, floor grid")             \
	X(FABRIC, "fabric", "a network fabric: topology, switch, link speed")            \
	X(CLUSTER, "cluster", "the cluster: what is built, where, on which fabrics")      \
	X(MODEL, "model", "a neural network architecture")                                \
	X(WORKLOAD, "workload", "a training job run on a cluster")

typedef enum {
#define X(k, w, d) KIND_##k,
	DECL_KINDS(X)
#undef X
	KIND_COUNT
} KindId;

#define KINDMASK(k) (1u << (KIND_##k))

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
};

typedef enum { CTOR_NONE, CTOR_TOPOLOGY, CTOR_FLOOR, CTOR_MODEL } CtorFamily;

typedef struct FieldSchema {
	const char *name;
	FieldType type;
	Dim dim;          /* FT_QTY, FT_QTYLIST: the dimension without money */
	int money_exp;    /* FT_QTY, FT_QTYLIST: exponent of money, any one currency */
	unsigned kinds;   /* FT_REF, FT_COUNTED, FT_REFLIST: accepted kinds (KINDMASK) */
	const char *const *enums; /* FT_ENUM, FT_TEMPLATE: NULL-terminated */
	CtorFamily family;        /* FT_CTOR */
	unsigned flags;
	const char *def;  /* the default, as documented ("1", "sum of parts"), or NULL */
	const char *doc;
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
} CtorSchema;

extern const KindSchema kind_schemas[KIND_COUNT];
extern const CtorSchema ctor_schemas[];
extern const int ctor_count;

int kind_lookup(const char *word); /* KindId or -1 */
const FieldSchema *schema_field(int kind, const char *name);
const CtorSchema *ctor_lookup(const char *name);
const FieldSchema *ctor_param(const CtorSchema *cs, const char *name);
const char *ctor_family_name(CtorFamily f);
const char *field_type_name(const FieldSchema *fs, char *buf, size_t n); /* "power", "node" */
void schema_print_markdown(FILE *out); /* the field tables of docs/language.md */

/* Placeholders of name templates and what each means. */
extern const char *const hostname_placeholders[];

/* ---- fmt.c: canonical formatting ---------------------------------------------------------- */

/* Renders a parsed file in canonical layout, keeping every comment. The caller frees *out. */
char *fmt_file(const File *f, size_t *out_len);

#endif
