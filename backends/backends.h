/*
 * backends.h — the artifact writers: the output directory, written atomically, and the files a
 * costed Design is rendered into (PRODUCT §6, §7). Sectioned by defining file. Backends only
 * read the Design; every file goes through an Output so that a failed build leaves nothing
 * behind and manifest.json lists exactly what was written.
 *
 * Ownership: an Output and everything it hands out (FILE*, Artifact lists) are on the heap and
 * released by output_commit() or output_abort(), whichever ends it; nothing else frees them.
 */
#ifndef CLUSTERC_BACKENDS_H
#define CLUSTERC_BACKENDS_H

#include "passes.h"

#include <stdint.h>

/* ---- output.c: the output directory, atomically ------------------------------------------- */

/* One file written: its path inside DIR ('/'-separated), size and SHA-256 in lower-case hex. */
typedef struct Artifact {
	const char *path;
	uint64_t bytes;
	char sha256[65];
} Artifact;

typedef struct Output Output;

/* Prepares to write DIR: creates ".DIR.tmp-XXXXXX" beside it, where every file goes until
 * output_commit(). Refuses (a diagnostic, NULL) a DIR that exists, is not empty and holds no
 * clusterc manifest, unless force; NULL after a diagnostic as well when the temporary
 * directory cannot be created. Diagnostics name the path and the system's reason (exit 74). */
Output *output_open(Ctx *c, const char *dir, bool force);

/* Opens RELPATH ("bom.csv", "switches/leaf01/frr.conf") for writing inside the temporary
 * directory, creating its sub-directories. RELPATH is relative, without "." or ".." parts, and
 * opened once. NULL after a diagnostic. The FILE belongs to the Output: close it with
 * output_close() (or leave it to output_commit()), never with fclose(). */
FILE *output_file(Output *o, const char *relpath);

/* Closes a file from output_file(), checking every write made to it, and records its size and
 * hash. Returns the number of errors (0 or 1, after a diagnostic). */
int output_close(Output *o, FILE *f);

/* Closes the files still open and sets *list to every file written so far, sorted by path.
 * Returns their count, or -1 after a diagnostic. The list stays valid until the next call to
 * output_file, output_artifacts, output_commit or output_abort. */
int output_artifacts(Output *o, const Artifact **list);

/* Closes everything, writes manifest.json (schema "clusterc.manifest/1": every file but itself,
 * sorted by path, with bytes and sha256) and puts the temporary directory in DIR's place; a
 * previous clusterc output is renamed aside first and removed once the new one is in place.
 * Frees o. Returns the number of errors: on failure the temporary directory is removed and DIR
 * is as it was. */
int output_commit(Output *o);

/* Removes the temporary directory and frees o; DIR is left exactly as it was. NULL is fine. */
void output_abort(Output *o);

/* DIR as given to output_open (trailing slashes removed). */
const char *output_dir(const Output *o);

/* ---- json.c: JSON documents through jansson (the one file that includes it) ---------------- */

/* jansson's json_t, declared here so that no other file needs <jansson.h>. Every constructor
 * returns a new reference; jw_set and jw_push take over the one they are given. */
typedef struct json_t Json;

Json *jw_object(void);
Json *jw_array(void);
void jw_set(Json *object, const char *key, Json *value); /* keys keep insertion order */
void jw_push(Json *array, Json *value);
Json *jw_str(const char *s);      /* NULL gives null; bytes that are not UTF-8 become '?' */
Json *jw_strn(const char *s, size_t n);
Json *jw_int(long long v);
Json *jw_bool(bool v);
Json *jw_null(void);
/* x rounded to `decimals` places, always written as a real (12750.0, 1.1); never -0; null when
 * x is NaN or infinite. Rounding first is what makes the text deterministic. */
Json *jw_real(double x, int decimals);
/* A count: the nearest integer (null when not finite). */
Json *jw_count(double x);

/* Writes root indented by 2, keys in insertion order, and a final newline; releases root.
 * Write errors show when the file is closed (output_close), so nothing is returned. */
void jw_write(FILE *f, Json *root);
void jw_free(Json *j); /* releases a document without writing it */

/* The string value of the top-level "schema" key of the JSON file at path, malloc'ed, or NULL
 * when the file cannot be read, is not JSON or has none. */
char *jw_file_schema(const char *path);

/* ---- text.c: numbers and values as text ---------------------------------------------------- */

/* x rounded to `decimals` places in fixed notation without grouping ("2000000.00", "0.350");
 * never "-0"; empty for NaN or infinity. For CSV files read by programs. */
void text_fixed(Buf *b, double x, int decimals);

/* x for people: rounded to at most `decimals` places, trailing zeros trimmed unless
 * keep_decimals, thousands grouped with ',' ("12,750", "10.2", "2,500,000,000.00").
 * "-" for NaN or infinity. */
void text_number(Buf *b, double x, int decimals, bool keep_decimals);

/* Money for people: whole amounts without decimals, others with two ("73,715,400",
 * "1,234.50"). */
void text_money(Buf *b, double x);

/* A value of the spec as text: its source text when it has one ("80 kW", "cold_plate"),
 * otherwise rendered (names, strings, quantities with qty_format). */
void text_value(Buf *b, const Value *v);

/* What a decision chose, as it reads: Decision.chosen_text when the pass set it (a range's or
 * auto's pick has no source text of its own), else text_value of the chosen option. */
void text_chosen(Buf *b, const Decision *x);

/* The free-text description of a declaration, or "" when it has none. */
const char *text_description(const Decl *d);

/* The spec's path as given ("" when unknown) and the scenario's name ("default" for none), as
 * the reports title them. */
const char *report_spec_path(const Design *d);
const char *report_scenario(const Design *d);

/* ---- report_json.c: report.json, the machine-readable contract (PRODUCT §7) ----------------- */

/* What the optimizer did; the caller fills it (NULL when no optimizer ran). Numbers that do
 * not apply are NAN (written as null). */
typedef struct OptimizerReport {
	const char *solver, *status;
	double objective, bound, gap;
	int variables, constraints;
	double solve_ms;
} OptimizerReport;

/* Writes report.json. It lists every artifact written before it, so it is written last, just
 * before output_commit(). Returns the number of errors. */
int report_json_write(Output *o, const Design *d, const OptimizerReport *opt);

/* ---- report_md.c: report.md, the report for people ----------------------------------------- */

int report_md_write(Output *o, const Design *d, const OptimizerReport *opt);

/* ---- topology.c: topology.dot and topology.svg, the fabric graph (Graphviz) ----------------- */

/* Writes topology.dot when dot, and topology.svg when svg and the drawing is small enough to
 * lay out (large fabrics are drawn aggregated, per tier and scalable unit or pod). Returns the
 * number of errors; a Graphviz that cannot lay out the graph only costs the SVG (a warning). */
int topology_write(Output *o, const Design *d, bool dot, bool svg);

/* ---- topology_groups.c: what the fabric drawing shows (no Graphviz) ------------------------- */

/* Sets pos[n] to cluster node n's place among the nodes fabric f links (in node order), or
 * -1 when f does not link it; pos holds d->nnodes. Returns the fabric's devices: switches,
 * extra devices and those nodes. */
int topology_positions(const Design *d, const FabricInst *f, int *pos);

/* Whether link l orders the ranks of a layered drawing: links up a tree do; links between
 * dragonfly routers do not, nor do a torus's links but the non-wraparound ones of its last
 * dimension (which stack the torus in slices). Constraining them all would rank a clique or
 * a ring of rings as one long chain, slow to lay out and unreadable. pos: topology_positions. */
bool topology_link_ranks(const FabricInst *f, const int *pos, const LinkInst *l);

typedef enum { TOPO_SWITCHES, TOPO_NODES, TOPO_EXTRAS } TopologyGroupKind;
typedef enum { TOPO_UNIT_NONE, TOPO_UNIT_SU, TOPO_UNIT_POD, TOPO_UNIT_GROUP,
	       TOPO_UNIT_SLICE } TopologyUnit;

/* Devices of a fabric drawn as one: switches of one tier, plane and unit, or endpoints. */
typedef struct TopologyGroup {
	int kind;             /* TopologyGroupKind */
	int tier, plane;      /* switches: SwitchTier and plane from 0 */
	int unit_kind, unit;  /* TopologyUnit and the unit from 0, or -1 for none */
	const Decl *model;    /* the switch, node or device model; NULL when they differ */
	int count;            /* devices */
} TopologyGroup;

/* The links of one tier and plane between two groups (a == z: inside one). */
typedef struct TopologyPair {
	int a, z, tier, plane;
	int rail;             /* -1 when the links have none or several */
	double speed;         /* bit/s of the first link */
	int count;
	bool ranks;           /* topology_link_ranks of its first link */
} TopologyPair;

typedef struct TopologyGroups {
	TopologyGroup *groups; /* in order of first sight: switches, then links' endpoints */
	int ngroups;
	TopologyPair *pairs;   /* in order of their first link */
	int npairs;
	int most;              /* the largest pair count */
} TopologyGroups;

/* Groups the devices of fabric f and counts its links per pair of groups (pos:
 * topology_positions). The arrays are on the heap: topology_groups_free releases them. */
void topology_group(const Design *d, const FabricInst *f, const int *pos, TopologyGroups *out);
void topology_groups_free(TopologyGroups *g);

/* ---- bom_csv.c: bom.csv, the bill of materials --------------------------------------------- */

int bom_csv_write(Output *o, const Design *d);

/* RFC 4180: s as one CSV field, quoted when it holds a comma, quote, CR or LF. */
void csv_field(Buf *b, const char *s);


/* ---- emit.c: every artifact, by its --emit name, in writing order ---------------------------- */

typedef struct Emitter {
	const char *name; /* the --emit name: a file ("bom.csv") or a group ("switches") */
	const char *what;
	int (*write)(Output *o, const Design *d, const OptimizerReport *opt); /* error count */
} Emitter;
extern const Emitter emitters[]; /* ends with a NULL name */

#endif
