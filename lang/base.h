/*
 * base.h — what every layer of clusterc uses: memory, sources and locations, diagnostics, one
 * compilation's context, units and quantities, and the vocabulary of the language (declaration
 * kinds, enumeration families, topology families). Sectioned by the file that defines each
 * name, so it reads as a table of contents (after QBE's all.h). The IR (passes/ir.h) and the
 * backends see this header and not the syntax tree (lang.h).
 *
 * Ownership: everything allocated for a compilation lives in the Ctx's arena and is released
 * at once by ctx_free(); nothing here is freed piecemeal.
 */
#ifndef CLUSTERC_BASE_H
#define CLUSTERC_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
	MAX_INHERIT_DEPTH = 256,   /* ancestors of a declaration or scenario: bounds field lookup */
	DEFAULT_ERROR_LIMIT = 50,
};

typedef struct Ctx Ctx;

/* ---- arena.c: memory by lifetime ---------------------------------------------------------- */

typedef struct Arena Arena;

Arena *arena_new(void);           /* pass-through mode when CLUSTERC_ARENA=malloc or ASan build */
void arena_free(Arena *a);        /* frees every block; NULL is fine */
void arena_tune_heap(void);       /* malloc's heap in huge pages, for a large build (arena.c) */
void arena_keep_chunks(bool on);  /* freed chunks kept for the next arena (a compare worker) */
void *arena_alloc(Arena *a, size_t n); /* zeroed, aligned for any type; never NULL */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
size_t arena_bytes(const Arena *a); /* bytes handed out, for --timings */
/* A copy of what the arena holds, and the arena taken back to it: every byte handed out before
 * the mark as it was then, nothing handed out since (arena.c; a compare worker's front end). */
typedef struct ArenaMark ArenaMark;
ArenaMark *arena_mark(const Arena *a);
void arena_rewind(Arena *a, const ArenaMark *m);
void arena_mark_free(ArenaMark *m); /* NULL is fine */
/* What a span of passes did to an arena since a mark, replayed into an arena laid out as the
 * mark found this one (arena.c; a compare worker's physical builds kept, compare_physical.c). */
typedef struct ArenaDelta ArenaDelta;
bool arena_same_layout(const Arena *a, const ArenaMark *m); /* the mark's chunks and top */
/* f on each run of bytes (live, and the mark's copy) where the arena differs from the mark,
 * laid out as it (arena_same_layout); false when f stopped it */
bool arena_diff(const ArenaMark *m,
		bool (*f)(void *, unsigned char *now, const unsigned char *then, size_t n), void *arg);
bool arena_holds(const Arena *a, uintptr_t v); /* v points into one of its chunks */
ArenaDelta *arena_delta(const Arena *a, const ArenaMark *m); /* NULL in pass-through mode */
bool arena_delta_writes(const ArenaDelta *dl, const void *p, size_t n); /* changed any of them */
bool arena_delta_holds(const ArenaDelta *dl, uintptr_t v); /* v points into its chunks */
/* Whether every chunk it added is still kept for reuse, at its address and of its size: until
 * then nothing may be read of them (a chunk the keep lists could not take is unmapped). */
bool arena_delta_ready(const ArenaDelta *dl);
/* false (nothing done) when not arena_delta_ready */
bool arena_delta_apply(Arena *a, const ArenaDelta *dl);
void arena_delta_free(ArenaDelta *dl); /* NULL is fine */

void *xmalloc(size_t n);            /* malloc that exits 70 on exhaustion */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
NORETURN void die_oom(void);
/* All n bytes, resuming after EINTR and short counts (fdio.c); at < 0 moves through the file
 * offset (write/read), else from offset at (pwrite/pread). fdio_write_all gives 0 or an errno
 * (EIO for a write that moved nothing); fdio_read_all gives the bytes read, fewer at end of file
 * or on an error (errno then says which). */
int fdio_write_all(int fd, const void *p, size_t n, long long at);
size_t fdio_read_all(int fd, void *p, size_t n, long long at);
/* A broken invariant of clusterc itself, never a user's mistake: says where and exits 70. On in
 * every build (assert() is off in release builds). */
NORETURN void die_invariant(const char *file, int line, const char *what);
#define INVARIANT(cond, what) ((cond) ? (void)0 : die_invariant(__FILE__, __LINE__, what))

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
/* Room for n more bytes and the NUL (for writing at b->s + b->len directly). */
void buf_reserve(Buf *b, size_t n);
/* After buf_reserve: the n bytes of s at p, returning past them; buf_end_at then makes b end at
 * p (its length, the NUL). For writers that put a whole row at a pointer after one check for
 * room rather than a buf_put a piece. */
static inline char *buf_put_at(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
static inline void buf_end_at(Buf *b, char *p)
{
	*p = '\0';
	b->len = (size_t)(p - b->s);
}
/* v in decimal, at least `width` characters with `pad` before the digits (printf's "%0*llu"
 * for '0', "%*llu" for ' '), written backwards so that they end at `end`; returns where they
 * start. The room before end: 20 digits, or width when more. The one writer of the numbers
 * the passes put in names and port names without printf's parsing (ir.c's put_int,
 * elaborate.c's put_padded, wire.c's switch names). */
static inline char *buf_digits_before(char *end, unsigned long long v, int width, char pad)
{
	char *p = end;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (end - p < width)
		*--p = pad;
	return p;
}
/* v in decimal at p (buf_digits_before's digits, no NUL); returns the end: the backends' numbers
 * in text written at a pointer (switch_config.c, configdb.c). */
static inline char *buf_digits_at(char *p, unsigned long long v)
{
	char tmp[20];
	const char *s = buf_digits_before(tmp + sizeof tmp, v, 0, '0');
	size_t n = (size_t)(tmp + sizeof tmp - s);
	memcpy(p, s, n);
	return p + n;
}
void buf_put_grow(Buf *b, const char *s, size_t n);
/* buf_put, buf_puts and buf_putc copy in place when there is room and call out only to grow:
 * the backends put some hundred million small pieces into text at 100,000 GPUs
 * (docs/performance.md). b->s is NUL-terminated once anything was put. */
static inline void buf_put(Buf *b, const char *s, size_t n)
{
	if (b->cap - b->len > n) {
		if (n)
			memcpy(b->s + b->len, s, n);
		b->len += n;
		b->s[b->len] = '\0';
	} else {
		buf_put_grow(b, s, n);
	}
}
static inline void buf_puts(Buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}
static inline void buf_putc(Buf *b, char c)
{
	if (b->cap - b->len > 1) {
		b->s[b->len++] = c;
		b->s[b->len] = '\0';
	} else {
		buf_put_grow(b, &c, 1);
	}
}
/* v in decimal at the end of b (buf_digits_before's digits). */
static inline void buf_put_uint(Buf *b, unsigned long long v)
{
	char tmp[20];
	buf_put(b, tmp, (size_t)(buf_digits_at(tmp, v) - tmp));
}
void buf_printf(Buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
void buf_free(Buf *b);

/* Interned identifiers: equal names give the same pointer, so names compare with ==. */
const char *intern(Ctx *c, const char *s, size_t n);
const char *intern_cstr(Ctx *c, const char *s);

/* ---- table.c: maps keyed by interned names -------------------------------------------------- */

typedef struct NameTable {
	const char **keys; /* interned; NULL for an empty slot */
	void **vals;
	int cap, n;
} NameTable;

void *table_get(const NameTable *t, const char *interned);
void table_put(Ctx *c, NameTable *t, const char *interned, void *val);

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
	bool shown;          /* a clusterc source: diagnostics may quote its lines (source.c) */
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
/* Registers text (in c's arena, len <= MAX_FILE_BYTES) as the next Source (src_load.c). */
Source *src_register(Ctx *c, const char *path, char *text, size_t len);
bool src_is_clusterc_name(const char *path); /* .cluster, .yaml, .yml (source.c: Source.shown) */
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
	/* An unmet requirement's numbers (JSON only: "quantity"): the value the design has and
	 * the limit it misses, in `unit` (base units: "W", "bit/s", "s", a currency). */
	bool has_quantity;
	double value, limit;
	const char *unit;
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
void diag_set_quantity(Diag *d, double value, double limit, const char *unit); /* unit copied */
int diag_errors(const Ctx *c);
bool diag_limit_reached(const Ctx *c);
void diag_render(Ctx *c, FILE *out); /* prints the collected diagnostics and forgets them */

/* The closest candidate to `word` by edit distance, or NULL when none is close enough. */
const char *suggest(const char *word, const char *const *cands, int n);

/* s as it may be echoed to a terminal or a log: control characters (C0, DEL, C1) as \xNN or
 * \uNNNN, so a spec cannot drive the terminal through a message. Every message, note and path
 * is rendered through it; returns s itself when it is clean, else a copy in c's arena. */
const char *diag_printable(Ctx *c, const char *s);

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
/* A compilation as it stands (its arena, interner, diagnostics and sources), and c taken back to
 * it: everything made since forgotten, everything changed since in the arena as it was (ctx.c).
 * Pointers into the arena made before the mark stay valid; later ones do not. */
typedef struct CtxMark CtxMark;
CtxMark *ctx_mark(const Ctx *c);
void ctx_rewind(Ctx *c, const CtxMark *m);
void ctx_mark_free(CtxMark *m); /* NULL is fine */
size_t ctx_interned(const Ctx *c); /* the strings interned so far */

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

/* ---- schema.c: the vocabulary (the rest of the schemas is lang.h's) ------------------------- */

#define DECL_KINDS(X)                                                                     \
	X(ACCELERATOR, "accelerator", "an accelerator chip (GPU, NPU) and its module")    \
	X(NIC, "nic", "a network adapter")                                                \
	X(SWITCH, "switch", "a network switch")                                           \
	X(OCS, "ocs", "an optical circuit switch: fibre ports joined by mirrors, any speed") \
	X(CABLE, "cable", "a cable: copper DAC/ACC/AEC, active optical, or fibre")       \
	X(OPTIC, "optic", "an optical transceiver module")                                \
	X(PANEL, "panel", "a fibre patch panel: the ends of trunk cables in a rack")      \
	X(COOLING, "cooling", "a cooling system")                                         \
	X(COOLING_UNIT, "cooling_unit", "a component of a cooling plant: CDU, pump loop, "  \
	  "chiller, dry cooler, cooling tower or air handler")                            \
	X(POWER, "power", "a power distribution system: UPS or HVDC and its redundancy")  \
	X(POWER_STAGE, "power_stage", "a stage of a power chain: transformer, UPS, HVDC, PDU, " \
	  "busway or rack feed")                                                          \
	X(NODE, "node", "a server: accelerators, NICs, power, height, price")             \
	X(STORAGE, "storage", "a storage appliance attached to the cluster")              \
	X(RACK, "rack", "a rack type: height, power class, cooling")                      \
	X(SITE, "site", "a data hall: power budget, electricity, floor grid")             \
	X(FABRIC, "fabric", "a network fabric: topology, switch, link speed")            \
	X(ZONE, "zone", "a rack zone: an area of the hall with its own rack type, cooling, " \
	  "power class and floor, and what stands in it")                                 \
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

/* Enumeration families: every word an enum field can take, as C constants, so that passes
 * switch on a constant rather than compare a string. A field accepts a subset of its family
 * (FieldSchema.enums, in the order the docs list them); check.c stores the family index in
 * Value.e. */
#define FORM_FACTORS(X) X(SXM, "sxm") X(OAM, "oam") X(PCIE, "pcie") X(SUPERCHIP, "superchip")
#define PROTOCOLS(X) X(INFINIBAND, "infiniband") X(ETHERNET, "ethernet") X(NVLINK, "nvlink") \
	X(VPI, "vpi")
/* Cages first (a port's), then optical connectors (a transceiver's receptacle, a fibre's plug). */
#define CONNECTORS(X) X(OSFP, "osfp") X(QSFP112, "qsfp112") X(QSFP_DD, "qsfp_dd") \
	X(QSFP56, "qsfp56") X(QSFP28, "qsfp28") X(SFP56, "sfp56") X(SFP28, "sfp28")         \
	X(BACKPLANE, "backplane") X(MPO8, "mpo8") X(MPO12, "mpo12") X(MPO16, "mpo16")       \
	X(LC_DUPLEX, "lc_duplex") X(CS, "cs")
#define MEDIA(X) X(DAC, "dac") X(ACC, "acc") X(AEC, "aec") X(AOC, "aoc") X(FIBER, "fiber") \
	X(TRUNK, "trunk")
#define FIBERS(X) X(OM3, "om3") X(OM4, "om4") X(OM5, "om5") X(OS2, "os2")
#define COOLING_TYPES(X) X(AIR, "air") X(REAR_DOOR, "rear_door") X(COLD_PLATE, "cold_plate") \
	X(IMMERSION, "immersion")
#define POWER_TYPES(X) X(AC_UPS, "ac_ups") X(HVDC, "hvdc")
#define REDUNDANCIES(X) X(N, "n") X(N_PLUS_1, "n_plus_1") X(TWO_N, "two_n") X(BLOCK, "block")
/* The stages of a power chain, from the utility to the rack (passes/design/power_chain.c). */
#define POWER_STAGES(X) X(UTILITY, "utility") X(TRANSFORMER, "transformer") X(UPS, "ups") \
	X(HVDC, "hvdc") X(PDU, "pdu") X(BUSWAY, "busway") X(RACK_FEED, "rack_feed")
/* The components of a cooling plant (passes/design/cooling_plant.c) and the heat each carries. */
#define COOLING_UNITS(X) X(CDU, "cdu") X(PUMP, "pump") X(CHILLER, "chiller") \
	X(DRY_COOLER, "dry_cooler") X(COOLING_TOWER, "cooling_tower") X(AIR_HANDLER, "air_handler")
#define HEAT_SHARES(X) X(ALL, "all") X(LIQUID, "liquid") X(AIR, "air")
#define ROUTINGS(X) X(ECMP, "ecmp") X(ADAPTIVE, "adaptive") X(FTREE, "ftree") X(UPDN, "updn") \
	X(MINIMAL, "minimal") X(UGAL, "ugal") X(DOR, "dor")
#define LEAF_PLACEMENTS(X) X(NETWORK_RACK, "network_rack") X(SERVER_RACK, "server_rack")
#define PLANE_ASSIGNMENTS(X) X(BY_NIC, "by_nic") X(BY_PORT, "by_port")
#define PRECISIONS(X) X(BF16, "bf16") X(FP8, "fp8")
#define RECOMPUTES(X) X(NONE, "none") X(SELECTIVE, "selective") X(FULL, "full")
/* The submodules selective recomputation may checkpoint (Megatron-Core's recompute_modules,
 * --recompute-modules: megatron/core/transformer/transformer_config.py at 002526d). */
#define RECOMPUTE_MODULES(X) X(CORE_ATTN, "core_attn") X(MOE_ACT, "moe_act") \
	X(LAYERNORM, "layernorm") X(MLA_UP_PROJ, "mla_up_proj") X(MLP, "mlp") X(MOE, "moe")  \
	X(SHARED_EXPERTS, "shared_experts")
/* How full recomputation of a fixed count of layers chooses them (Megatron-Core's
 * recompute_method; megatron/core/transformer/transformer_block.py at 767a8a8,
 * _checkpointed_forward): the first N layers of each virtual stage one by one (block), or every
 * layer in groups of N, each group recomputed from its input (uniform). */
#define RECOMPUTE_METHODS(X) X(BLOCK, "block") X(UNIFORM, "uniform")
/* How context-parallel ranks exchange K and V (Megatron-LM --cp-comm-type). */
#define CP_COMMS(X) X(P2P, "p2p") X(ALL_GATHER, "all_gather") X(A2A, "a2a")
/* How an MoE layer's tokens reach their experts: Megatron-Core's all-to-all dispatcher
 * (--moe-token-dispatcher-type alltoall) or its flex dispatcher on HybridEP (flex, hybridep). */
#define EP_DISPATCHERS(X) X(ALLTOALL, "alltoall") X(HYBRIDEP, "hybridep")
/* The pipeline schedule a workload runs: Megatron-LM's 1F1B, one_f_one_b (interleaved with interleave > 1),
 * or DeepSeek-V3's DualPipe (DeepSeek-AI 2024, §3.2.1; deepseek-ai/DualPipe). */
#define PIPELINE_SCHEDULES(X) X(ONE_F_ONE_B, "one_f_one_b") X(DUALPIPE, "dualpipe")
#define ACTIVATIONS(X) X(GELU, "gelu") X(SWIGLU, "swiglu")
#define NORMS(X) X(LAYERNORM, "layernorm") X(RMSNORM, "rmsnorm")
#define POSITIONS(X) X(LEARNED, "learned") X(ROPE, "rope")
/* How a switch or NIC model names its ports (passes/ir/ir.c, ir_end_port). */
#define PORT_NAMINGS(X) X(PLAIN, "plain") X(SONIC, "sonic") X(MLNX_OS, "mlnx_os") \
	X(NVOS, "nvos") X(MLX5, "mlx5") X(BNXT_RE, "bnxt_re")
/* The front-panel alias SONiC's PORT table gives a port: NVIDIA's etp1a, Arista's Ethernet1/5. */
#define PORT_ALIASES(X) X(ETP, "etp") X(EOS, "eos")
/* How capex is written off (passes/design/finance.c). */
#define DEPRECIATIONS(X) X(STRAIGHT_LINE, "straight_line") X(DECLINING_BALANCE, "declining_balance")
/* The measured matrix-multiply throughput tables by size an accelerator's multiplies follow
 * (passes/plan/gemm_size.c). */
#define GEMM_TABLES(X) X(NONE, "none") X(SM90, "sm90") X(SM100, "sm100")

/* ENUM_FAMILIES(F): F(FAMILY, words, CONSTANT_PREFIX) for every family above. */
#define ENUM_FAMILIES(F)                                                                      \
	F(FORM_FACTOR, FORM_FACTORS, FF) F(PROTOCOL, PROTOCOLS, PROTO)                        \
	F(CONNECTOR, CONNECTORS, CONN) F(MEDIA, MEDIA, MEDIA) F(FIBER, FIBERS, FIBER)         \
	F(COOLING_TYPE, COOLING_TYPES, COOL) F(POWER_TYPE, POWER_TYPES, PWR)                  \
	F(REDUNDANCY, REDUNDANCIES, RED) F(ROUTING, ROUTINGS, ROUTE)                          \
	F(POWER_STAGE, POWER_STAGES, PS)                                                      \
	F(COOLING_UNIT, COOLING_UNITS, CU) F(HEAT_SHARE, HEAT_SHARES, HS)                     \
	F(LEAF_PLACEMENT, LEAF_PLACEMENTS, LEAF)                                              \
	F(PLANE_ASSIGNMENT, PLANE_ASSIGNMENTS, PLANE)                                         \
	F(PRECISION, PRECISIONS, PREC) F(RECOMPUTE, RECOMPUTES, RC) F(ACTIVATION, ACTIVATIONS, ACT)     \
	F(RECOMPUTE_MODULE, RECOMPUTE_MODULES, RCM)                                           \
	F(RECOMPUTE_METHOD, RECOMPUTE_METHODS, RCMETH)                                        \
	F(CP_COMM, CP_COMMS, CPC) F(EP_DISPATCHER, EP_DISPATCHERS, EPD)                       \
	F(PIPELINE_SCHEDULE, PIPELINE_SCHEDULES, PPS)                                         \
	F(NORM, NORMS, NORM) F(POSITION, POSITIONS, POS)                                      \
	F(PORT_NAMING, PORT_NAMINGS, PN) F(PORT_ALIAS, PORT_ALIASES, PA)                      \
	F(DEPRECIATION, DEPRECIATIONS, DEP) F(GEMM_TABLE, GEMM_TABLES, GT)

/* One C enum per family: FF_SXM ..., PROTO_INFINIBAND ..., CONN_OSFP ..., MEDIA_DAC ... */
#define X(c, w) FF_##c,
typedef enum { FORM_FACTORS(X) FF_COUNT } FormFactor;
#undef X
#define X(c, w) PROTO_##c,
typedef enum { PROTOCOLS(X) PROTO_COUNT } Protocol;
#undef X
#define X(c, w) CONN_##c,
typedef enum { CONNECTORS(X) CONN_COUNT } Connector;
#undef X
#define X(c, w) MEDIA_##c,
typedef enum { MEDIA(X) MEDIA_COUNT } Media;
#undef X
#define X(c, w) FIBER_##c,
typedef enum { FIBERS(X) FIBER_COUNT } Fiber;
#undef X
#define X(c, w) COOL_##c,
typedef enum { COOLING_TYPES(X) COOL_COUNT } CoolingType;
#undef X
#define X(c, w) PWR_##c,
typedef enum { POWER_TYPES(X) PWR_COUNT } PowerType;
#undef X
#define X(c, w) RED_##c,
typedef enum { REDUNDANCIES(X) RED_COUNT } Redundancy;
#undef X
#define X(c, w) PS_##c,
typedef enum { POWER_STAGES(X) PS_COUNT } PowerStage;
#undef X
#define X(c, w) CU_##c,
typedef enum { COOLING_UNITS(X) CU_COUNT } CoolingUnit;
#undef X
#define X(c, w) HS_##c,
typedef enum { HEAT_SHARES(X) HS_COUNT } HeatShare;
#undef X
#define X(c, w) ROUTE_##c,
typedef enum { ROUTINGS(X) ROUTE_COUNT } Routing;
#undef X
#define X(c, w) LEAF_##c,
typedef enum { LEAF_PLACEMENTS(X) LEAF_COUNT } LeafPlacement;
#undef X
#define X(c, w) PLANE_##c,
typedef enum { PLANE_ASSIGNMENTS(X) PLANE_COUNT } PlaneAssignment;
#undef X
#define X(c, w) PREC_##c,
typedef enum { PRECISIONS(X) PREC_COUNT } Precision;
#undef X
#define X(c, w) RC_##c,
typedef enum { RECOMPUTES(X) RC_COUNT } Recompute;
#undef X
#define X(c, w) RCM_##c,
typedef enum { RECOMPUTE_MODULES(X) RCM_COUNT } RecomputeModule;
#undef X
#define X(c, w) RCMETH_##c,
typedef enum { RECOMPUTE_METHODS(X) RCMETH_COUNT } RecomputeMethod;
#undef X
#define X(c, w) CPC_##c,
typedef enum { CP_COMMS(X) CPC_COUNT } CpComm;
#undef X
#define X(c, w) EPD_##c,
typedef enum { EP_DISPATCHERS(X) EPD_COUNT } EpDispatcher;
#undef X
#define X(c, w) PPS_##c,
typedef enum { PIPELINE_SCHEDULES(X) PPS_COUNT } PipelineSchedule;
#undef X
#define X(c, w) ACT_##c,
typedef enum { ACTIVATIONS(X) ACT_COUNT } Activation;
#undef X
#define X(c, w) NORM_##c,
typedef enum { NORMS(X) NORM_COUNT } Norm;
#undef X
#define X(c, w) POS_##c,
typedef enum { POSITIONS(X) POS_COUNT } Position;
#undef X
#define X(c, w) PN_##c,
typedef enum { PORT_NAMINGS(X) PN_COUNT } PortNaming;
#undef X
#define X(c, w) PA_##c,
typedef enum { PORT_ALIASES(X) PA_COUNT } PortAlias;
#undef X
#define X(c, w) DEP_##c,
typedef enum { DEPRECIATIONS(X) DEP_COUNT } Depreciation;
#undef X
#define X(c, w) GT_##c,
typedef enum { GEMM_TABLES(X) GT_COUNT } GemmTable;
#undef X

typedef struct EnumFamily {
	const char *name;          /* "protocol" */
	const char *const *words;  /* every word, in constant order */
	int n;
} EnumFamily;

#define F(fam, words, prefix) extern const EnumFamily enum_##fam;
ENUM_FAMILIES(F)
#undef F
/* The constant of a word in a family, or -1. */
int enum_lookup(const EnumFamily *f, const char *word);

/* The topology families (schema.def's TOPOLOGY rows); passes/fabric/family.c gives each its
 * passes. A topology the table lacks cannot be written: its constructor does not exist. */
typedef enum {
#define TOPOLOGY(id, name, doc) TOPO_##id,
#include "schema.def"
	TOPO_COUNT
} TopologyKind;

#endif
