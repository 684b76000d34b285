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

#include "ir.h"
#include "json.h"
#include "hash.h"
#include "yamlio.h"

#include <math.h>
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

/* Closes a file from output_file(); its last bytes go to the writer thread, which records its
 * size and hash. Returns the number of errors (0 or 1, after a diagnostic). A failure of the
 * writer (a full disk) shows at output_artifacts() or output_commit(), which then fail. */
int output_close(Output *o, FILE *f);

/* Writes RELPATH (as output_file names it) with the bytes of b, made whole in memory, and takes
 * them: b is left empty. No stdio and no copy: the writer thread writes them in one piece, and
 * they are hashed on whichever thread has time. Returns the number of errors, as output_close. */
int output_write_buf(Output *o, const char *relpath, Buf *b);

/* Hands the bytes of b, the next of f's (a stream of output_file(o, ...), still open), to the
 * writer thread without a copy, after what stdio holds of f; b is left empty, and with `more`
 * given an empty buffer of the same size (one the writer is done with, when it has one). False,
 * b untouched, when f is not such a stream of o or b is empty: then write b yourself.
 * layout_flush's way. */
bool output_put(Output *o, FILE *f, Buf *b, bool more);

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

/* A part of o for a writer on another thread (emit.c): output_file, output_write_buf,
 * output_close, output_memo, output_ends and output_named work on it as on o, from one thread
 * at a time, any thread; its files go to o's writer. It says nothing: its diagnostics are
 * said, and its files added to o's list, by output_join (on o's thread, once the part's writer
 * has returned), which frees it; parts joined in a fixed order give the list, the manifest and
 * the diagnostics of one thread. output_artifacts, output_commit and output_abort are o's
 * alone. output_join returns the errors it found (a path two parts both wrote). */
Output *output_part(Output *o);
int output_join(Output *o, Output *part);

/* One piece of text two artifacts of a build share, made once (the fabric drawing, laid out by
 * Graphviz for topology.svg and report.html): the Output keeps it until it ends. *fresh is true
 * the first time, when the caller makes it and sets **ok to whether it could. */
Buf *output_memo(Output *o, bool **ok, bool *fresh);
/* The cable ends' text table of this output (ends.c), NULL until set, and the arena it is
 * made in: the Output's own (made on the first call, freed with the Output), so that the table
 * can be made on one thread while writers on another allocate in the design's. */
void *output_ends(Output *o);
void output_set_ends(Output *o, void *table);
Arena *output_arena(Output *o);

/* DIR as given to output_open (trailing slashes removed). */
const char *output_dir(const Output *o);

/* Whether the artifacts were named (`build --emit LIST`) rather than left to the default set:
 * a family written on demand only (switch_configs_write beyond SWITCH_FILES_DEFAULT_MAX
 * switches) is written when named. False until output_set_named(o, true). */
void output_set_named(Output *o, bool named);
bool output_named(const Output *o);

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

/* The unit a quantity in base units `base` ("bit/s", "W", "J", "s", "CNY") is shown in
 * ("Tbit/s", "kW", "kWh", "days", "CNY"), with the factor from base and the places; "" for
 * none. text_quantity prints v (base units) so: "51.2 Tbit/s". */
const char *text_display_unit(const char *base, double *scale, int *decimals);
void text_quantity(Buf *b, double v, const char *base_unit);

/* s as the text of a Markdown table cell: '|' escaped, line breaks as spaces; NULL is empty. */
void text_md_cell(Buf *b, const char *s);
/* Whether text_md_cell copies s as it is (nothing escaped or replaced): the unit tests'
 * reference for EndText.pull_md. */
bool text_md_plain(const char *s);

/* The spec's path as given ("" when unknown) and the scenario's name ("default" for none), as
 * the reports title them. */
const char *text_spec_path(const Design *d);
const char *text_scenario(const Design *d);

/* ---- report_json.c: report.json, the machine-readable contract (PRODUCT §7) ----------------- */



/* Writes report.json. It lists every artifact written before it, so it is written last, just
 * before output_commit(). Returns the number of errors. */
int report_json_write(Output *o, const Design *d);

/* ---- report_finance.c: the financial model in report.json and report.md ---------------------- */

/* report.json's "finance" object (docs/reports.md); report.md's "Finance" section. */
Json *report_finance_json(const Design *d);
/* expansion.c: a build grown from an earlier one (--from): its change plan in expansion/, and
 * report.json's `expansion` section. Nothing for other builds. */
int expansion_write(Output *o, const Design *d);
Json *expansion_json(const Design *d);
/* report.json's pieces a comparison's rows carry too: a location as "file", "line", "column"
 * (null without one), the open choices as report.json's "decisions", the unmet requirements
 * of a build that failed (its "unmet" diagnostics) with value, limit and unit. */
void report_json_loc(Json *o, Loc at);
Json *report_decisions_json(const Design *d, const OptimizerReport *opt);
Json *report_violations_json(const Ctx *c);
Json *report_sensitivity_json(const Sensitivity *s);
void report_sensitivity_read(Arena *a, const Json *o, Sensitivity *s);
void report_finance_md(Buf *b, const Design *d);

/* ---- report_facility.c: the facility in report.json, report.md and report.html ------------- */

/* report.json's "facility" object (docs/reports.md); the "Facility" section of report.md and
 * report.html: the PUE and its parts, the power chain, the cooling plant, heat reuse. */
Json *report_facility_json(const Design *d);
Json *parallelism_modules_json(unsigned modules);
/* A plan's recomputation fields (recompute, and recompute_layers and recompute_method or
 * recompute_modules): the parallelism file and report.json both write them. */
void parallelism_recompute_json(Json *o, const PlanConfig *c);
void report_facility_md(Buf *b, const Design *d);
void report_facility_html(Buf *b, const Design *d);

/* ---- report_md.c: report.md, the report for people ----------------------------------------- */

int report_md_write(Output *o, const Design *d);

/* ---- compare.c: comparison.csv, .json and .md, one row per scenario (clusterc compare) -------- */

/* A workload's outcome in one scenario: NAN when no plan fits. */
typedef struct CompareWorkload {
	const char *name;
	double gpus;             /* GPUs its plan uses */
	double time_to_train;    /* s */
	double energy_to_train;  /* J of facility energy */
	double cost_to_train;    /* report currency (its energy) */
	double mfu;
	double goodput;          /* under failures (reliability.c); NAN when unknown */
	double effective_time;   /* s: the expected wall time with failures */
	double cost_per_model;   /* report currency: its GPU-hours at the cost per GPU-hour */
} CompareWorkload;

/* One scenario built (or not). Quantities in base units (W, J, s); money in the report
 * currency. When status is not 0 the numbers are NAN and `why` says what stopped it. */
typedef struct CompareRow {
	const char *scenario;    /* "base" for the design without a scenario */
	const char *sets;        /* the --set overrides of a sweep point, "; "-joined, or "" */
	int status;              /* the exit status `clusterc build` would give: 0, 1, 2 ... */
	const char *why;         /* the first error when status != 0, else "" */
	double accelerators, nodes, racks, switches, cables;
	double it_power, facility_power;       /* W at peak */
	double capex, annual_energy, annual_energy_cost, tco, tco_years;
	/* The financial model (report.json's finance): report currency; FLOP/s */
	double net_present_cost, annual_cost, per_gpu_hour, per_pflop_day, peak_compute;
	double job_mtbf;         /* s: a job on every accelerator (reliability.c); NAN unknown,
				  * INFINITY when nothing fails */
	Sensitivity sens;        /* the tornado of the financial model (finance.c) */
	/* Machine-readable: the requirements it misses (a row not built) and the open choices it
	 * made, each with its numbers, unit and place in the spec (docs/reports.md); JSON arrays
	 * the row owns (compare_row_free), or NULL for none. */
	Json *violations, *decisions_json;
	CompareWorkload *w;      /* nw of them, in the spec's workload order */
	int nw;
	int decisions;           /* the open choices it made ... */
	const char **chosen;     /* ... as "decl.field = value" */
	bool pareto;             /* built, and no other built row is at least as good on every
				  * objective and better on one */
} CompareRow;

/* An objective of the Pareto comparison: a row column (capex, annual_energy_cost, tco,
 * facility_power, ...) or a workload's time_to_train / energy_to_train. */
typedef struct CompareObjective {
	const char *name;        /* as the files title it: "capex", "time_to_train:llama3_70b" */
	const char *label;       /* for people: "Capex (USD)", "Llama3_70b time to train (days)" */
	double scale;            /* multiply a base value by it to show it in label's unit */
	bool maximize;
} CompareObjective;

typedef struct Comparison {
	const char *spec;        /* the spec's path as given */
	const char *sweep;       /* the sweep file, or NULL */
	const char *currency;    /* "USD" */
	CompareRow *rows;        /* base first, then scenarios in spec (or sweep) order */
	int nrows;
	CompareObjective *obj;   /* what pareto is over; obj[0], obj[1] are the scatter's axes */
	int nobj;
} Comparison;

/* Objective `name` (see compare_objective_names) with its label; labels of money name the
 * currency. False when there is no such objective. */
bool compare_objective(Arena *a, const char *name, const char *currency, CompareObjective *out);
const char *compare_objective_names(void); /* for messages: every name an objective can take */

/* A row as JSON (comparison.json's rows[] entries) and back; strings copied into a. */
Json *compare_row_json(const CompareRow *r);
void compare_row_free(CompareRow *r);
void compare_row_read(Arena *a, const Json *o, CompareRow *r);

/* Value of objective k for row r, in base units (NAN when the row did not build). */
double compare_value(const Comparison *cmp, const CompareRow *r, int k);
/* The built row best on objective k (the first of equals), or -1 when none has a value. */
int compare_best(const Comparison *cmp, int k);
/* The workloads of every row, in order of first sight (heap: free() the array), and a row's
 * outcome for one of them (NULL when it has none). */
int compare_workloads(const Comparison *cmp, const char ***out);
const CompareWorkload *compare_workload(const CompareRow *r, const char *name);
/* Sets every row's pareto flag. */
void compare_pareto(Comparison *cmp);
/* comparison.csv, comparison.json (schema "clusterc.comparison/1", docs/comparison.md) and
 * comparison.md. Each returns the number of errors. */
int compare_csv_write(Output *o, const Comparison *cmp);
int compare_json_write(Output *o, const Comparison *cmp);
int compare_md_write(Output *o, const Comparison *cmp);

/* ---- report_html.c: report.html, the self-contained report with inline SVG charts ------------ */

/* For build: the design's capex and power breakdowns, power per rack, the fabric drawing when
 * small enough. For compare: the table and the Pareto scatter (obj[0] against obj[1]). No
 * scripts, no network: one file that reads in any browser. Each returns the number of errors. */
int report_html_write(Output *o, const Design *d);

/* ---- report_reliability.c: the reliability section of report.md and report.html ------------- */

void report_reliability_md(Buf *b, const Design *d);
void report_reliability_html(Buf *b, const Design *d);
int compare_html_write(Output *o, const Comparison *cmp);

/* report_html.c's page and table helpers, for compare_html.c: the page with more style rules
 * (or NULL), a section with its heading, key figures, header and data cells (escaped). */
void report_html_esc(Buf *b, const char *s);
void report_html_page_start(Buf *b, const char *title, const char *more_css);
void report_html_page_end(Buf *b, const char *what);
void report_html_section(Buf *b, const char *id, const char *heading);
void report_html_kpi(Buf *b, const char *label, const char *value, const char *unit);
void report_html_kpi_number(Buf *b, const char *label, double v, int decimals, const char *unit);
void report_html_kpi_money(Buf *b, const char *label, double v, const char *cur);
void report_html_th(Buf *b, const char *s, bool num);
void report_html_td(Buf *b, const char *s);
void report_html_td_number(Buf *b, double v, int decimals);
void report_html_td_money(Buf *b, double v);

/* ---- svgchart.c: charts as inline SVG text (report.html) ------------------------------------ */

/* The CSS the charts' classes need; the page puts it in its one <style> block. */
extern const char chart_css[];

/* s as XML or HTML text and attribute value: & < > " ' escaped, control characters but tab
 * and newline as spaces. NULL is nothing. */
void chart_escape(Buf *b, const char *s);
/* A coordinate: at most one decimal, never "-0"; 0 when not finite. */
void chart_coord(Buf *b, double x);

/* Axis ticks at a step of 1, 2 or 5 times a power of ten, the smallest that spans hi - lo in
 * at most target steps, from the multiple at or below lo to the one at or above hi (so at most
 * target + 1 intervals, and at most max ticks; no "-0"). A range of one value is widened; one not finite is [0, 1]. Returns the count and
 * sets *step (when not NULL). */
int chart_ticks(double lo, double hi, int target, double *ticks, int max, double *step);
/* Log-axis ticks covering [lo, hi] (both > 0): 1, 2 and 5 times the powers of ten when the
 * range spans at most two decades, else the powers of ten. 0 when lo or hi is not positive. */
int chart_log_ticks(double lo, double hi, double *ticks, int max);
/* A tick's label: v in the unit that magnitude (the axis's largest tick) calls for ("850",
 * "12.5k", "3M", "2.5bn", "1tn") with the decimals its step needs ("0.5", "1.0"). */
void chart_tick_text(Buf *b, double v, double step, double magnitude);

/* A panel of horizontal bars: how its values read. */
typedef struct ChartPanel {
	const char *title;  /* above the panel's bars, or NULL */
	const char *unit;   /* after each value ("kW", "CNY"), or NULL */
	int decimals;       /* values by text_number with at most these places; -1: text_money */
	double total;       /* when > 0, each value's share of it follows ("(68.2%)") */
} ChartPanel;

/* Horizontal bars, a row per label in the order given; with several panels, side by side,
 * each on its own scale from 0. Values not finite read "-" and have no bar. */
typedef struct ChartBars {
	const char *title;          /* the chart's accessible name (its <title>) */
	const char *const *labels;  /* nrows */
	int nrows;
	const ChartPanel *panels;
	int npanels;
	const double *v;            /* v[row * npanels + panel] */
	int color;                  /* palette index of the first panel's bars */
	int width;                  /* px; 0 for the default (1000) */
} ChartBars;
void chart_hbars(Buf *b, const ChartBars *c);

/* A column against an optional limit (a rack's power and its cap). */
typedef struct ChartColumn {
	const char *label;  /* under the column (every few when crowded) and in its tooltip */
	double value;       /* not finite: no column */
	double limit;       /* NAN for none; equal limits are drawn as one dashed line */
	bool alert;         /* drawn in red (over its limit) */
} ChartColumn;

typedef struct ChartColumns {
	const char *title;
	const char *ylabel;   /* above the value axis ("kW") */
	const char *unit;     /* after values in tooltips, or NULL */
	int decimals;         /* of values in tooltips */
	const ChartColumn *c;
	int n;
	int label_every;      /* 0: as often as the labels fit */
	bool values;          /* each value written above its column (a histogram's counts) */
	int width, height;    /* px; 0 for the defaults (1000 x 260) */
} ChartColumns;
void chart_columns(Buf *b, const ChartColumns *c);

/* A labelled point of a scatter. */
typedef struct ChartPoint {
	const char *label;  /* beside the point where it has room (else none) */
	double x, y;        /* not finite: not drawn */
	bool mark;          /* highlighted (Pareto-optimal) */
	bool front;         /* on the step line */
	const char *tip;    /* its tooltip, or NULL for the label */
} ChartPoint;

typedef struct ChartScatter {
	const char *title, *xlabel, *ylabel;
	const ChartPoint *p;
	int n;
	bool xlog, ylog;     /* log axes, when every value is positive */
	bool xmax;           /* x is maximised: the step line turns along y first */
	const char *legend_mark, *legend_other; /* legend of marked and other points, or NULL */
	int width, height;   /* px; 0 for the defaults (1000 x 420) */
} ChartScatter;
void chart_scatter(Buf *b, const ChartScatter *c);

/* A tornado diagram: per input, a bar from the value as designed (a line across) to the value
 * at the input's low end and one to its high end, in the order given (the caller sorts them,
 * widest swing first). */
typedef struct ChartTornado {
	const char *title;             /* the chart's accessible name */
	const char *unit;              /* after each value, or NULL */
	int decimals;                  /* of values (text_number) */
	double base;                   /* the metric as designed */
	const char *const *labels;     /* n: the inputs and their ranges */
	const double *low, *high;      /* n: the metric at each input's low and high end */
	int n;
	const char *low_legend, *high_legend;
	int width;                     /* px; 0 for the default (1000) */
} ChartTornado;
void chart_tornado(Buf *b, const ChartTornado *c);

/* ---- topology.c: topology.dot and topology.svg, the fabric graph (Graphviz) ----------------- */

/* Writes topology.dot when dot, and topology.svg when svg and the drawing is small enough to
 * lay out (large fabrics are drawn aggregated, per tier and scalable unit or pod). Returns the
 * number of errors; a Graphviz that cannot lay out the graph only costs the SVG (a warning). */
int topology_dot_write(Output *o, const Design *d);
int topology_svg_write(Output *o, const Design *d);
/* The drawing topology.svg holds, appended to out (XML prolog included): false, and nothing
 * appended, when there is none (no fabric, too large to lay out, a Graphviz failure). Laid out
 * once per Output: topology.svg and report.html share it. */
bool topology_svg_render(Output *o, const Design *d, Buf *out);

/* ---- topology_dot.c: the fabric graph as data, and topology.dot written from it ------------ */

/* The attributes of the drawing's nodes, edges and graphs: enum constant, name, default. */
#define TOPO_NODE_ATTRS(X) X(TOPO_N_LABEL, "label", "\\N") X(TOPO_N_KIND, "kind", "") \
	X(TOPO_N_FABRIC, "fabric", "") X(TOPO_N_TIER, "tier", "") X(TOPO_N_PLANE, "plane", "") \
	X(TOPO_N_RAIL, "rail", "") X(TOPO_N_SU, "su", "") X(TOPO_N_POD, "pod", "") \
	X(TOPO_N_GROUP, "group", "") X(TOPO_N_SLICE, "slice", "") X(TOPO_N_BLOCK, "block", "") \
	X(TOPO_N_MODEL, "model", "") X(TOPO_N_COUNT, "count", "") X(TOPO_N_SHAPE, "shape", "ellipse")
#define TOPO_EDGE_ATTRS(X) X(TOPO_E_FABRIC, "fabric", "") X(TOPO_E_TIER, "tier", "") \
	X(TOPO_E_PLANE, "plane", "") X(TOPO_E_RAIL, "rail", "") X(TOPO_E_SPEED, "speed", "") \
	X(TOPO_E_COUNT, "count", "") X(TOPO_E_XLABEL, "xlabel", "") \
	X(TOPO_E_PENWIDTH, "penwidth", "1") X(TOPO_E_CONSTRAINT, "constraint", "true") \
	X(TOPO_E_A_PORT, "a_port", "") X(TOPO_E_Z_PORT, "z_port", "")
#define TOPO_GRAPH_ATTRS(X) X(TOPO_G_LABEL, "label", "") \
	X(TOPO_G_AGGREGATED, "aggregated", "false") X(TOPO_G_RANKDIR, "rankdir", "BT")
#define TOPO_ATTR_ENUM(e, name, def) e,
enum { TOPO_NODE_ATTRS(TOPO_ATTR_ENUM) TOPO_N_ATTRS };
enum { TOPO_EDGE_ATTRS(TOPO_ATTR_ENUM) TOPO_E_ATTRS };
enum { TOPO_GRAPH_ATTRS(TOPO_ATTR_ENUM) TOPO_G_ATTRS };
#undef TOPO_ATTR_ENUM
/* Their names and defaults, in enum order: [i][0] the name, [i][1] the default. */
extern const char *const topology_node_attrs[TOPO_N_ATTRS][2];
extern const char *const topology_edge_attrs[TOPO_E_ATTRS][2];
extern const char *const topology_graph_attrs[TOPO_G_ATTRS][2];

/* A subgraph: one fabric, with the nodes drawn in it (indices, in creation order). */
typedef struct TopologySub {
	int name;                 /* a string of the scene */
	int attr[TOPO_G_ATTRS];   /* its own attributes: strings, or -1 */
	int *nodes, nnodes, cap;
} TopologySub;

/* What topology.dot and topology.svg show, as Graphviz's graph would hold it: the graph named
 * after the cluster, a subgraph per fabric, nodes and edges in creation order, every attribute
 * a string (an index into the scene's strings, each distinct string once; -1: the default).
 * All on the heap, released by topology_scene_free. */
typedef struct TopologyScene {
	Buf pool;               /* the strings' bytes, each NUL-terminated */
	uint32_t *str_off, *str_len;
	int nstr, str_cap;
	int *str_slots;         /* hash of the strings: index or -1 */
	size_t str_nslots;
	int name;               /* the graph's name */
	int graph_attr[TOPO_G_ATTRS]; /* the graph's attributes (label: the name) */
	TopologySub *subs;
	int nsubs;
	int *node_name, *node_sub, *node_attr; /* node_attr: TOPO_N_ATTRS a node */
	int nnodes, node_cap;
	int *node_slots;        /* hash of the node names: index or -1 */
	size_t node_nslots;
	int *edge_ends, *edge_attr; /* edge_ends: tail, head; edge_attr: TOPO_E_ATTRS an edge */
	int nedges, edge_cap;
	int drawn;              /* nodes drawn (one drawn again under its name counts again) */
	int node_def[TOPO_N_ATTRS], edge_def[TOPO_E_ATTRS]; /* the defaults' strings */
} TopologyScene;

/* The scene of d's fabrics. Gives up, returning false (sc still to be freed), once more than
 * max_drawn nodes would be drawn; true otherwise. */
bool topology_scene_build(TopologyScene *sc, const Design *d, int max_drawn);
void topology_scene_free(TopologyScene *sc);
static inline const char *topology_scene_str(const TopologyScene *sc, int s)
{
	return sc->pool.s + sc->str_off[s];
}
/* Appends topology.dot's text to out: byte for byte what Graphviz 2.43's agwrite writes for
 * the same graph (cgraph's write.c: layout, order, quoting). With f, hands out's bytes to f
 * whenever more than a few hundred kB are pending, and at the end. */
void topology_scene_dot(const TopologyScene *sc, Buf *out, FILE *f);
/* s as agwrite quotes an identifier or value (cgraph's _agstrcanon), appended to out. */
void topology_dot_canon(Buf *out, const char *s, size_t n);
/* For the unit tests: whether topology_dot_canon and Graphviz's agcanonStr agree on s, and
 * whether topology.dot of d is agwrite's text (topology.c, which has Graphviz). */
bool topology_dot_canon_agrees(const char *s);
bool topology_dot_agrees(const Design *d);

/* ---- topology_groups.c: what the fabric drawing shows (no Graphviz) ------------------------- */

/* The devices the drawing of fabric f shows: switches, extra devices and the nodes it links. */
int topology_devices(const FabricInst *f);

/* Whether link l orders the ranks of a layered drawing: links up a tree do; links between
 * dragonfly routers do not, nor do a torus's links but the non-wraparound ones of its last
 * dimension (which stack the torus in slices). Constraining them all would rank a clique or
 * a ring of rings as one long chain, slow to lay out and unreadable. */
bool topology_link_ranks(const FabricInst *f, const LinkInst *l);

typedef enum { TOPO_SWITCHES, TOPO_NODES, TOPO_EXTRAS } TopologyGroupKind;
typedef enum { TOPO_UNIT_NONE, TOPO_UNIT_SU, TOPO_UNIT_POD, TOPO_UNIT_GROUP,
	       TOPO_UNIT_SLICE, TOPO_UNIT_BLOCK } TopologyUnit;

/* Devices of a fabric drawn as one: switches of one tier, plane and unit, or endpoints. */
typedef struct TopologyGroup {
	int kind;             /* TopologyGroupKind */
	int tier, plane;      /* switches: SwitchTier and plane from 0 */
	int unit_kind, unit;  /* TopologyUnit and the unit from 0, or -1 for none */
	const Part *model;    /* the switch, node or device model; NULL when they differ */
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

/* Groups the devices of fabric f and counts its links per pair of groups. The arrays are on
 * the heap: topology_groups_free releases them. */
void topology_group(const Design *d, const FabricInst *f, TopologyGroups *out);
/* The same, but it stops once there are more than max_groups groups (before counting the
 * links per pair, the costly part) and returns false then: out holds the groups found so far,
 * and no pairs. */
bool topology_group_within(const Design *d, const FabricInst *f, int max_groups,
			   TopologyGroups *out);
void topology_groups_free(TopologyGroups *g);

/* ---- bom_csv.c: bom.csv, the bill of materials --------------------------------------------- */

int bom_csv_write(Output *o, const Design *d);

/* RFC 4180: s as one CSV field, quoted when it holds a comma, quote, CR or LF. */
void text_csv_field(Buf *b, const char *s);
/* Whether text_csv_field copies s as it is (no quotes, no formula guard); *len its length. */
bool text_csv_plain(const char *s, size_t *len);
/* What s is plain for, in one scan: TEXT_PLAIN_CSV as text_csv_plain, TEXT_PLAIN_MD as
 * text_md_plain, TEXT_PLAIN_JSON when a JSON string of it is s quoted, nothing escaped
 * (printable ASCII but '"' and '\\', configdb_stringn's rule); *len its length. */
enum { TEXT_PLAIN_CSV = 1, TEXT_PLAIN_MD = 2, TEXT_PLAIN_JSON = 4 };
unsigned text_plain(const char *s, size_t *len);
/* buf_reserve(b, n), called only when b has not the room already: the check of a row written
 * at a pointer (buf_put_at), a few million a build. */
static inline void text_room(Buf *b, size_t n)
{
	if (b->cap - b->len <= n)
		buf_reserve(b, n);
}
/* A cell of a text whose cells " | " separates (the pull sheets' Markdown rows, labels.csv's
 * tag) at p, which has room: s (n bytes) and the " | " after it; returns past them. */
static inline char *text_pipe_cell_at(char *p, const char *s, size_t n)
{
	p = buf_put_at(p, s, n);
	return buf_put_at(p, " | ", 3);
}

/* ---- layout.c: the placed design as the placement artifacts name it ------------------------ */

typedef enum { DEV_NODE, DEV_SWITCH, DEV_EXTRA, DEV_STORAGE, DEV_TRAY, DEV_PANEL, DEV_SPARE,
	       DEV_COUNT } DeviceKind; /* DEV_SPARE: a hot spare node (NodeInst.spare) */
extern const char *const layout_device_kind_names[DEV_COUNT]; /* "node", "switch", "fabric device" ... */

/* A device standing in a rack. */
typedef struct RackDevice {
	int kind;            /* DeviceKind */
	int index;           /* NodeInst, SwitchInst or ExtraInst index; storage: number per model */
	const char *name;    /* hostname, switch or device name; storage "DECL-NNN" */
	const Part *model;
	int rack, u, height_u; /* u: lowest rack unit, from 1 */
	double power;        /* W at peak, as the rack's power counts it */
	double optics;       /* W of the transceivers and active cable ends in its ports
			      * (heat.c): the rack's power is Σ power + optics */
} RackDevice;

/* Every device standing in a rack, sorted by rack and U, in *out (heap: free() it). Returns
 * the count. */
int layout_devices(const Design *d, RackDevice **out);
/* A link end's place as CSV fields, each followed by a comma: row letters, rack, U (three empty
 * fields for an end without a rack), device (cabling.csv, pull-sheets.csv). */
void layout_csv_place(Buf *b, const Design *d, End e);
/* s lower-cased, runs of other characters than letters and digits as one '-' ("dgx-h100"). */
void layout_slug(Buf *b, const char *s);
/* x with at most `decimals` places, trailing zeros trimmed, no grouping ("2.5", "400");
 * layout_fixed keeps them ("9.40"); layout_int a whole number. Nothing for NaN or infinity. */
void layout_number(Buf *b, double x, int decimals);
/* layout_number's text of x kept for the next call with the same x and places (the same bits:
 * lengths come in runs of a few stocked values); NumberText starts zeroed, buf_free its text. */
typedef struct NumberText {
	uint64_t bits;
	int decimals;
	bool set;
	Buf text;
} NumberText;
const Buf *layout_number_kept(NumberText *c, double x, int decimals);
void layout_fixed(Buf *b, double x, int decimals);
/* The whole number layout_number's and layout_fixed's text of x is made from, x × 10^decimals
 * rounded half away from zero (llround's), and true, where their text is a function of it and
 * the places (x finite, below 10^12, 0 to 6 places); false elsewhere. A writer keeps texts by
 * it where values that print alike differ in their bits (cabling.csv's run_m). Inline, without
 * llround's call (some 35 instructions under callgrind): y - trunc(y) is exact for any double
 * y, and the scaled values stay below 2^63, where the conversion truncates exactly. */
static inline bool layout_fixed_scaled(double x, int decimals, long long *v)
{
	static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	if (!isfinite(x) || decimals < 0 || decimals > 6 || fabs(x) >= 1e12)
		return false;
	double y = x * scale[decimals];
	long long t = (long long)y;
	double f = y - (double)t;
	*v = t + (f >= 0.5) - (f <= -0.5);
	return true;
}
void layout_int_any(Buf *b, long long v);
/* 0 <= v < 1000 in decimal at p (room for 3 bytes): returns past it. */
static inline char *layout_small_at(char *p, unsigned v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v >= 100) {
		*p++ = (char)('0' + v / 100);
		v %= 100;
	}
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
	return p + 2;
}
/* layout_int: 0..999 (U positions, sequence numbers, lanes, rails and planes, switch ports and
 * a node's) in place here, the rest by layout_int_any. Before, 0..99 only: 350,000 calls out
 * at 100,000 GPUs `--emit all` for the ports of wiring.csv and clusterc.lock and the launch
 * files' ranks (docs/performance.md, "Emitter, fifteenth pass"). */
static inline void layout_int(Buf *b, long long v)
{
	if (v >= 0 && v < 1000 && b->cap - b->len > 3) {
		char *p = layout_small_at(b->s + b->len, (unsigned)v);
		*p = 0;
		b->len = (size_t)(p - b->s);
		return;
	}
	layout_int_any(b, v);
}
/* v as layout_int writes it, at p in b (after buf_reserve with room for 21 bytes at p; b's
 * length is p's when it calls out): returns past it. */
static inline char *layout_int_at(Buf *b, char *p, long long v)
{
	if (v >= 0 && v < 1000)
		return layout_small_at(p, (unsigned)v);
	b->len = (size_t)(p - b->s);
	layout_int_any(b, v);
	return b->s + b->len;
}
/* Writes b to f and empties it once it holds 1 MiB, or whenever force (with output_put when f
 * is a stream of o's: no copy). The check inline, layout_flush_out the rest: the writers of a
 * row per cable call it each row, some 2.5 million calls at 100,000 GPUs `--emit all` that
 * all but a few hundred do nothing (docs/performance.md, "Emitter, fifteenth pass"). */
void layout_flush_out(Output *o, FILE *f, Buf *b, bool force);
static inline void layout_flush(Output *o, FILE *f, Buf *b, bool force)
{
	if (b->len && (force || b->len >= (1u << 20)))
		layout_flush_out(o, f, b, force);
}

int layout_units(double height);          /* a height in whole rack units, at least 1 */
int layout_rack_units(const Design *d);    /* the rack type's height in U */

/* ---- cabling_csv.c, netbox.c, racks_csv.c, racks_svg.c, hostfile.c -------------------------- */

int cabling_csv_write(Output *o, const Design *d);
/* wiring_csv.c: wiring.csv, each cable's ends as discovery names them (clusterc verify). */
int wiring_csv_write(Output *o, const Design *d);
/* lock.c: clusterc.lock, what `build --from` reads back (docs/daytwo.md). */
int lock_write(Output *o, const Design *d);
/* pull_sheets.c: pull-sheets.csv and pull-sheets.md; labels_csv.c: labels.csv. An end as they
 * print it: "RACK U<n> DEVICE PORT" ("A01 U1 gpu0001 nic1"; device and port without a rack). */
int pull_sheets_write(Output *o, const Design *d);
int labels_csv_write(Output *o, const Design *d);
/* trunks_csv.c: trunks.csv, structured cabling's trunks between panels (when there are any). */
int trunks_csv_write(Output *o, const Design *d);
void pull_end_text(Buf *b, const Design *d, End e);

/* ---- ends.c: each cable's ends as text, made once for every writer of a row per cable ---- */

typedef struct EndText {
	const char *device; /* ir_end_device's */
	const char *port;   /* ir_end_port's (the end of the pull text: NUL-terminated) */
	const char *csv;    /* "ROW,RACK,U,DEVICE,PORT," as CSV cells with their commas (",,," in
			     * place of the first three when unplaced), csv_len bytes; then
			     * pull_end_text's "RACK U<n> DEVICE PORT", pull_len bytes */
	uint32_t csv_len, pull_len;
	int rack, u;        /* ir_end_place's */
	uint16_t device_len, port_len; /* when plain */
	uint8_t csv_rack;   /* where the rack's cell starts in csv (past "ROW,") */
	bool plain : 1;     /* device and port are plain CSV cells: text_csv_field copies them */
	bool md_plain : 1;  /* and text_md_cell would copy them as they are */
	bool json_plain : 1; /* and a JSON string of either is it quoted (text_plain) */
	bool pull_csv : 1;  /* the pull text is a plain CSV cell (implied, not implying: it also
			     * asks the device and port not to start as a formula would) */
	bool pull_md : 1;   /* text_md_cell would copy the pull text as it is */
} EndText;

typedef struct EndTable {
	const Design *d;         /* the design it was made of */
	const EndText *ends;     /* 2 a cable, in cable order: [2 i] the A end of d->cables[i],
				  * [2 i + 1] its Z end */
	const uint8_t *id_len;   /* strlen(d->cable_ids[i]) */
} EndTable;

/* Made on the first call for d (in its arena), kept with o. */
const EndTable *ends_table(Output *o, const Design *d);
/* The device, the port as CSV cells (text_csv_field's bytes); and pull_end_text's
 * "RACK U<n> DEVICE PORT". */
static inline void ends_csv_device(Buf *b, const EndText *e)
{
	if (e->plain)
		buf_put(b, e->device, e->device_len);
	else
		text_csv_field(b, e->device);
}
static inline void ends_csv_port(Buf *b, const EndText *e)
{
	if (e->plain)
		buf_put(b, e->port, e->port_len);
	else
		text_csv_field(b, e->port);
}
static inline void ends_pull_text(Buf *b, const EndText *e)
{
	buf_put(b, e->csv + e->csv_len, e->pull_len);
}
/* A plain end's "DEVICE,PORT," (device_len + port_len + 2 bytes): the last two cells of its csv
 * text, which copy both as they are. cabling.csv's label and NetBox's interfaces copy the two
 * from there at once, not each from its own text. */
static inline const char *ends_device_port(const EndText *e)
{
	return e->csv + e->csv_len - 2 - e->device_len - e->port_len;
}
/* ---- port_text.c: a switch port's text, kept per kind of switch and port ---------------- */

/* A switch port's text by port number, its name (ir_switch_port_name) or its alias
 * (ir_switch_port_alias), as `make` says, for the switches of a few kinds at once: the text
 * depends on nothing but the switch's model, breakout, split and up_breakout and the port, so
 * a writer that asks it for every end of every link makes it once a kind and port (a row's two
 * ends are often of two kinds; switch_config.c, wiring_csv.c). Zeroed, with make set, before
 * the first call; port_text_free after the last. */
enum { PORT_TEXT_KINDS = 8, PORT_TEXT_CELL = 24 };
typedef struct PortTextKind {
	const void *model;
	int breakout, split, up, cap;
	/* per port: the text and its NUL, its text_plain bits in the cell's last byte but one, its
	 * length in the last; a length of 0: not made */
	char (*cell)[PORT_TEXT_CELL];
} PortTextKind;
typedef struct PortTextCache {
	void (*make)(Buf *b, const SwitchInst *s, int port);
	PortTextKind kinds[PORT_TEXT_KINDS];
	Buf tmp;
} PortTextCache;
/* The kind of s in c: its slot, a new one when c has none (the last one's again when all are
 * taken, its texts forgotten). */
PortTextKind *port_text_kind(PortTextCache *c, const SwitchInst *s);
/* Port `port` of a switch s of kind k (port_text_kind's for s): the text (NUL-terminated),
 * *len its length, *plain its text_plain bits. Valid until the next call; kept for the next
 * ask when it is not empty, fits a cell and the port is a port (>= 0). Inline the asks it has
 * the answer to, port_text_make the rest. */
const char *port_text_make(PortTextCache *c, PortTextKind *k, const SwitchInst *s, int port,
			   size_t *len, unsigned *plain);
static inline const char *port_text_of(PortTextCache *c, PortTextKind *k, const SwitchInst *s,
				       int port, size_t *len, unsigned *plain)
{
	if (port < 0 || port >= k->cap || !k->cell[port][PORT_TEXT_CELL - 1])
		return port_text_make(c, k, s, port, len, plain);
	*len = (unsigned char)k->cell[port][PORT_TEXT_CELL - 1];
	*plain = (unsigned char)k->cell[port][PORT_TEXT_CELL - 2];
	return k->cell[port];
}
/* The same, the kind found first (a writer that asks for ends of switches of several kinds). */
static inline const char *port_text(PortTextCache *c, const SwitchInst *s, int port,
				    size_t *len, unsigned *plain)
{
	for (int i = 0; i < PORT_TEXT_KINDS && c->kinds[i].model; i++) {
		PortTextKind *k = &c->kinds[i];
		if (k->model == s->model && k->breakout == s->breakout && k->split == s->split &&
		    k->up == s->up_breakout)
			return port_text_of(c, k, s, port, len, plain);
	}
	return port_text_of(c, port_text_kind(c, s), s, port, len, plain);
}
void port_text_free(PortTextCache *c);

int netbox_write(Output *o, const Design *d);
/* netbox_power.c: netbox/power-panels.csv and power-feeds.csv (netbox_write calls it); the
 * amperage of a feed rated `rating` W at `volts`, three-phase or not, at 80 % utilization. */
int netbox_power_write(Output *o, const Design *d);
int netbox_power_amperage(double rating, double volts, bool three_phase);
/* one_line.c: facility/one-line.svg, the power chain from the utility to the racks. */
int one_line_write(Output *o, const Design *d);
int racks_csv_write(Output *o, const Design *d);
int racks_svg_write(Output *o, const Design *d);
int hostfile_write(Output *o, const Design *d);


/* ---- config_db.c: SONiC config_db.json text, tables and keys in SONiC's natural order ---------- */

/* A document being built; on the heap (configdb_free). Table ids index the names given to
 * configdb_new, which stay valid as long as the document. */
typedef struct ConfigDb ConfigDb;
ConfigDb *configdb_new(const char *const *tables, int ntables);
void configdb_free(ConfigDb *db);
/* A new entry of table `table` with key key[0..n) (copied); then its fields, in natural order
 * of their names: configdb_field takes a literal name, configdb_field_copy copies it. */
void configdb_entry(ConfigDb *db, int table, const char *key, size_t n);
void configdb_entry_s(ConfigDb *db, int table, const char *key);
void configdb_field(ConfigDb *db, const char *name, const char *value, size_t n);
void configdb_field_s(ConfigDb *db, const char *name, const char *value);
void configdb_field_copy(ConfigDb *db, const char *name, size_t nn, const char *value, size_t nv);
/* Appends the document to out as `config save` writes it, with a final newline, and empties
 * it for the next one. */
void configdb_render(ConfigDb *db, Buf *out);
/* Tables the same in many documents, rendered once: configdb_render_tables appends each
 * table's entries ("key":{...} pairs, comma-separated, no braces around them), span[t] the
 * offset and length of table t's in out (0, 0: none; span has room for every table), and
 * empties the document; configdb_table_text puts such text into another document as the
 * whole of table `table` (no entries of its own there), text[0..n) the caller's until that
 * document is rendered. The bytes are those of the entries made one by one. */
void configdb_render_tables(ConfigDb *db, Buf *out, size_t (*span)[2]);
void configdb_table_text(ConfigDb *db, int table, const char *text, size_t n);
/* SONiC's PORT entry of logical port `port` of switch s, named `name`, as the model's port
 * map has it (lanes, index, alias: ir_faceplate), with the link's speed (bit/s), the MTU and
 * a description; scratch is the caller's. */
typedef struct ConfigDbPort {
	const SwitchInst *s;
	int port, mtu;
	const char *name, *description;
	double speed;
} ConfigDbPort;
void configdb_port(ConfigDb *db, int table, const ConfigDbPort *p, Buf *scratch);
/* The same in parts, for ports whose fields but the description are those of many switches:
 * configdb_port_text appends the fields before the description and those after it as JSON
 * text (p->description unused), configdb_port_entry makes the entry from them. */
void configdb_port_text(const ConfigDbPort *p, Buf *scratch, Buf *before, Buf *after);
void configdb_port_entry(ConfigDb *db, int table, const char *name, const char *before,
			 size_t nb, const char *description, size_t nd, const char *after,
			 size_t na);
/* Fields of the last entry already as JSON text ("a":"b","c":"d"), in natural order with the
 * others. */
void configdb_fields_text(ConfigDb *db, const char *text, size_t n);
/* natsort's order: text and integer chunks compared in turn (Ethernet8 < Ethernet16). */
int configdb_natcmp(const char *a, const char *b);
int configdb_natcmp_chunks(const char *a, const char *b); /* the same, chunk by chunk */
/* s as a JSON string the way Python's json.dump writes it (ASCII; other characters as \u and
 * four hex digits). */
void configdb_string(Buf *b, const char *s);
void configdb_stringn(Buf *b, const char *s, size_t n);
/* n bytes that need no escaping (configdb_stringn found them plain, or their maker vouches for
 * them: a port name, an address) as a JSON string, in place when there is room: config_db.json's
 * writers put millions of them at 100,000 GPUs. */
static inline void configdb_quoted(Buf *b, const char *s, size_t n)
{
	if (b->cap - b->len > n + 2) {
		char *at = b->s + b->len;
		at[0] = '"';
		memcpy(at + 1, s, n);
		at[n + 1] = '"';
		at[n + 2] = 0;
		b->len += n + 2;
	} else {
		buf_putc(b, '"');
		buf_put(b, s, n);
		buf_putc(b, '"');
	}
}

/* ---- switch_config.c: switches/NAME/config_db.json (SONiC) and frr.conf (FRR) ----------------- */

/* Writes both files for every switch of every Ethernet fabric. Returns the errors (pools or
 * ASN ranges too small for a fabric: diagnostics at the spec's fields, nothing written).
 * On demand beyond SWITCH_FILES_DEFAULT_MAX switches: a build with the default artifacts
 * writes none of them then, `--emit switches` (output_named) all (docs/output.md). */
enum { SWITCH_FILES_DEFAULT_MAX = 1024 };
int switch_configs_write(Output *o, const Design *d);
/* The same files, a share of them: of the switches in writing order (fabric by fabric), share
 * k of n writes the k-th n-th, so shares 0 to n - 1 one after another write what
 * switch_configs_write does (emit.c runs them on several threads). */
int switch_configs_write_share(Output *o, const Design *d, int share, int nshares);

/* The switches whose files switch_configs_write leaves out of a default build: their count
 * when there are more than SWITCH_FILES_DEFAULT_MAX, else 0. */
int switch_configs_deferred(const Design *d);
/* The switches whose files this Output leaves to be named: switch_configs_deferred's count in a
 * default build, 0 when the artifacts were named (--emit). switch_configs_write writes the
 * files exactly when this is 0, so the switches' ports (Design.switch_ports_later) need
 * planning before emit exactly then. */
int switch_configs_on_demand(const Output *o, const Design *d);

/* ---- infiniband.c: infiniband/, the subnets of InfiniBand fabrics -------------------------- */

/* For every InfiniBand fabric: FABRIC.topo (ibnetdiscover's format, which ibsim loads),
 * FABRIC.node-name-map, and per subnet (the fabric, or each of its planes) the ftree root and
 * compute-node GUID files and opensm.conf (docs/infiniband.md). Returns the number of errors;
 * a fabric that cannot be an InfiniBand subnet only costs its files (a warning). */
int infiniband_write(Output *o, const Design *d);

/* ---- hostlist.c: Slurm hostlist expressions --------------------------------------------------- */

/* Appends the n names as one Slurm hostlist expression, sorted and compressed as Slurm writes
 * it (`scontrol show hostlistsorted`): "dgx[001-004,007],login1". Nothing for n = 0. */
void hostlist_ranged(Buf *b, const char *const *names, int n);

/* ---- slurm.c, k8s.c: scheduler topology files --------------------------------------------- */

/* slurm/topology.conf (topology/tree), slurm/topology-block.conf (topology/block) and
 * slurm/topology.yaml. Returns the number of errors. */
int slurm_write(Output *o, const Design *d);
/* k8s/node-labels.yaml and k8s/kueue-topology.yaml, through libyaml (the one file that
 * includes it). Returns the number of errors. */
int k8s_write(Output *o, const Design *d);
/* A YAML scalar as lang/yamlio.c's yw_str has libyaml write it, for text without '"', '\\' or
 * control characters (k8s.c writes node-labels.yaml directly). */
void k8s_scalar(Buf *b, const char *s);

/* ---- parallelism.c: parallelism/WORKLOAD.{json,megatron.args,rankfile,hostfile,calculon/} -- */

int parallelism_write(Output *o, const Design *d);

/* ---- launch.c: parallelism/WORKLOAD.{hostfile,rankfile,launch.sh,sbatch} ------------------- */

/* The files that start one workload's plan: Open MPI's hostfile and rankfile (socket:cores),
 * the per-rank wrapper that gives each rank its GPU, a Slurm batch script. */
int launch_write(Output *o, const Design *d, const WorkloadPlan *wp);

/* ---- model_lp.c: the optimizer's model ----------------------------------------------------- */

int model_lp_write(Output *o, const Design *d);

/* ---- emit.c: every artifact, by its --emit name, in writing order ---------------------------- */

/* Every writer has one signature: it renders the IR into files of o and returns its errors
 * (I/O; a design the IR holds is always renderable: anything that can fail the build is a
 * pass's). */
typedef int (*ArtifactWriter)(Output *o, const Design *d);

/* What emit_write needs to know of a writer to run it beside others (emit.c):
 * EMIT_MAIN: on the calling thread, one after another in table order: it uses Graphviz's
 *   cgraph or GLPK (not known to be thread-safe), says diagnostics or allocates in the
 *   design's arena (the Ctx is one thread's);
 * EMIT_ENDS: reads the cable ends' table (ends.c), made first, on a thread of its own while
 *   the EMIT_MAIN writers run;
 * EMIT_ENDS_READ: reads the table when an EMIT_ENDS writer had it made, but does not need it
 *   (the switches' files take their peers' names from it), so waits for it like them;
 * EMIT_FIRST: among the largest, so started first (the others fill the other threads);
 * EMIT_LAST: after every other writer, alone (report.json lists what they wrote). */
enum { EMIT_MAIN = 1, EMIT_ENDS = 2, EMIT_FIRST = 4, EMIT_LAST = 8, EMIT_ENDS_READ = 16 };

typedef struct Emitter {
	const char *name; /* the --emit name: a file ("bom.csv") or a group ("switches") */
	const char *what;
	ArtifactWriter write;
	unsigned flags;   /* EMIT_* */
} Emitter;
extern const Emitter emit_table[]; /* ends with a NULL name */
enum { EMIT_MAX = 32 };            /* at least the entries of emit_table */

/* Runs the writers of emit_table whose wanted[i] is true into o: on `threads` threads
 * (emit_threads() when 0; 1: one after another on the caller's thread, the cable ends' table
 * on one more while the writers that do not read it run), the output the same whatever their
 * number (after a failed write, which file its error names follows the run order). Sets ms[i] to writer i's time (on its thread) and
 * ms[EMIT_MAX] to the cable ends' table's when it was made apart from the writers (on its
 * thread; 0 when a writer made it, within that writer's time), and returns the errors. */
int emit_write(Output *o, const Design *d, const bool *wanted, int threads, double *ms);
/* The threads emit_write uses by default: $CLUSTERC_THREADS when set (1 to 64), else 1. */
int emit_threads(void);

/* text.c: s as a Markdown code span, literal whatever it holds (a fence longer than any run of
 * backticks in it; control characters as spaces): "`s`" for most text. */
void text_md_code(Buf *b, const char *s);

#endif
