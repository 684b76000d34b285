/*
 * emit.c — the artifacts `clusterc build` can write, in the order it writes them: one entry
 * per --emit name, each a writer of one signature (backends.h). report.json stays last: it
 * lists every file written before it. To add a backend, add its entry here (and its file to
 * CMakeLists.txt), with the flags that say how it may run beside the others.
 *
 * The writers only read the finished Design, so emit_write runs them on several threads
 * (docs/performance.md, "Emitter, on both cores"): each writer renders into its own part of
 * the Output (output_part), on whichever thread takes it, and the parts are joined in table
 * order once every writer has returned, so the files, manifest.json and the diagnostics are
 * those of one thread. What the writers share is made first (the cable ends' table, ends.c:
 * the first piece of work, which another thread takes while this one runs the EMIT_MAIN
 * writers, and the writers that read it wait for it) or kept on the calling thread (EMIT_MAIN:
 * Graphviz's cgraph, GLPK, the diagnostics and the design's arena, none of them made for
 * threads). report.json comes last, alone. CLUSTERC_THREADS=1 runs them one after another on
 * the caller's thread, as before, but for the ends' table: made on a thread beside it while it
 * runs the writers that do not read the table.
 */
#include "backends.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

const Emitter emit_table[] = {
	{"bom.csv", "bill of materials", bom_csv_write, 0},
	{"cabling.csv", "one row per cable: ids, labels, both ends, media, lengths",
	 cabling_csv_write, EMIT_ENDS},
	{"pull-sheets", "pull-sheets.csv and .md: what to pull, from where to where, in which order, "
			"per row and per rack", pull_sheets_write, EMIT_ENDS},
	{"wiring.csv", "each cable's ends as ibnetdiscover or LLDP names them: the plan clusterc verify "
		       "checks", wiring_csv_write, EMIT_ENDS},
	{"clusterc.lock", "every fabric's shape, rack, device and cable by name and port: what "
			  "`build --from` grows from", lock_write, EMIT_ENDS},
	{"expansion", "a build grown with --from: the change plan in expansion/ (cables to add, move "
		      "and remove, devices to install, in pull order)", expansion_write, 0},
	{"labels.csv", "cable tags for a label printer: id, both ends, length", labels_csv_write,
	 EMIT_ENDS},
	{"trunks.csv", "structured cabling: trunks between patch panels, when a fabric has them",
	 trunks_csv_write, 0},
	{"netbox", "NetBox bulk-import CSVs in netbox/", netbox_write, EMIT_ENDS},
	{"one-line", "the power one-line diagram: facility/one-line.svg", one_line_write, 0},
	{"racks.csv", "rack elevations as a table: every device, its U and power", racks_csv_write, 0},
	{"racks.svg", "rack elevations drawn", racks_svg_write, 0},
	{"hostfile", "MPI hostfile: one node a line with its accelerators as slots", hostfile_write, 0},
	{"slurm", "Slurm topology/tree, topology/block and topology.yaml in slurm/", slurm_write, 0},
	/* libyaml's emitter reports through the Ctx (yamlio.c) */
	{"k8s", "Kubernetes node topology labels and a Kueue Topology in k8s/", k8s_write, EMIT_MAIN},
	/* names in the design's arena, warnings */
	{"infiniband", "InfiniBand fabrics: ibnetdiscover/ibsim topology, node-name map, OpenSM "
		       "fat-tree settings in infiniband/", infiniband_write, EMIT_MAIN},
	{"parallelism", "each workload's plan, Megatron-LM flags, rankfile, hostfile and Calculon "
			"inputs in parallelism/", parallelism_write, 0},
	{"report.md", "the report for people", report_md_write, 0},
	/* the fabric drawing, laid out by Graphviz (topology.c) */
	{"report.html", "the report for people as one page with charts (no script, no network)",
	 report_html_write, EMIT_MAIN},
	{"topology.dot", "the fabric graph", topology_dot_write, EMIT_MAIN},
	{"topology.svg", "the fabric drawing, when small enough", topology_svg_write, EMIT_MAIN},
	{"switches", ("SONiC config_db.json and FRR frr.conf of every Ethernet switch (beyond 1,024 "
		      "switches only when named)"), switch_configs_write, EMIT_FIRST | EMIT_ENDS_READ},
	/* GLPK */
	{"model.lp", "the optimizer's model in CPLEX LP format, when choices were open",
	 model_lp_write, EMIT_MAIN},
	{"report.json", "the machine-readable report (written last)", report_json_write, EMIT_LAST},
	{NULL, NULL, NULL, 0},
};

enum { THREADS_MAX = 64 };

int emit_threads(void)
{
	const char *e = getenv("CLUSTERC_THREADS");
	if (e && *e) {
		char *end;
		long n = strtol(e, &end, 10);
		if (!*end && n >= 1)
			return n > THREADS_MAX ? THREADS_MAX : (int)n;
	}
	/* One by default: on the 2-core reference machine a second renderer cost the default
	 * artifacts of 100,000 GPUs 6 % of wall time (836 -> 886 ms) and gained a tenth only with
	 * --emit all (docs/performance.md, "Emitter, on both cores"); with the writes on any
	 * thread it was no faster with --emit all and took 180-240 ms more system time, its
	 * thread's fresh memory ("Emitter, ninth pass"); measured again in the twelfth session it
	 * lost 100,000 GPUs --emit all in two alternated sets at load 5-12 (best wall 141-369 ms
	 * more) and won no shape in both ("Emitter, the kernel's share"). */
	return 1;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Writers that can also write a share of their files (share k of n, the shares in order
 * writing what the whole does): the largest, run as several pieces so that they fill every
 * thread rather than one. */
typedef int (*ShareWriter)(Output *o, const Design *d, int share, int nshares);
static const struct {
	ArtifactWriter whole;
	ShareWriter share;
} shares[] = {{switch_configs_write, switch_configs_write_share}};

static ShareWriter share_writer(ArtifactWriter w)
{
	for (size_t i = 0; i < sizeof shares / sizeof *shares; i++)
		if (shares[i].whole == w)
			return shares[i].share;
	return NULL;
}

/* One piece of work: a writer, or a share of one, into its own part of the Output; or, emitter
 * -1, the cable ends' table. */
typedef struct Piece {
	int emitter;
	int share, nshares; /* nshares 0: the whole writer */
	Output *part;
	int errors;
	double ms;
} Piece;

enum { SHARES_PER_THREAD = 2, PIECES_MAX = EMIT_MAX * 4 };

/* What the threads share: the pieces in table order and the queue of those any thread may run
 * (the ends' table, the writers that do not read it, the EMIT_FIRST ones, then table order). */
typedef struct Run {
	Output *o;
	const Design *d;
	pthread_mutex_t mu;
	pthread_cond_t made;
	bool ends_made;     /* the ends' table is made (under mu) */
	Piece piece[PIECES_MAX + 1]; /* and the table's */
	int npieces;
	int queue[PIECES_MAX + 1], nqueue, next; /* next: the first not taken (under mu) */
} Run;

/* Whether piece p reads the ends' table: EMIT_ENDS or EMIT_ENDS_READ. */
static bool reads_ends(const Piece *p)
{
	if (p->emitter < 0)
		return false;
	const Emitter *e = &emit_table[p->emitter];
	return (e->flags & (EMIT_ENDS | EMIT_ENDS_READ)) != 0;
}

static void run_piece(Run *r, Piece *p)
{
	if (p->emitter < 0) {
		double t0 = now_ms();
		ends_table(r->o, r->d);
		p->ms = now_ms() - t0;
		pthread_mutex_lock(&r->mu);
		r->ends_made = true;
		pthread_cond_broadcast(&r->made);
		pthread_mutex_unlock(&r->mu);
		return;
	}
	if (reads_ends(p)) {
		pthread_mutex_lock(&r->mu);
		while (!r->ends_made)
			pthread_cond_wait(&r->made, &r->mu);
		pthread_mutex_unlock(&r->mu);
	}
	double t0 = now_ms();
	const Emitter *e = &emit_table[p->emitter];
	p->errors = p->nshares ? share_writer(e->write)(p->part, r->d, p->share, p->nshares)
			       : e->write(p->part, r->d);
	p->ms = now_ms() - t0;
}

/* Takes pieces off the queue until it is empty. */
static void drain(Run *r)
{
	for (;;) {
		pthread_mutex_lock(&r->mu);
		int k = r->next < r->nqueue ? r->queue[r->next++] : -1;
		pthread_mutex_unlock(&r->mu);
		if (k < 0)
			return;
		run_piece(r, &r->piece[k]);
	}
}

static void *worker(void *arg)
{
	drain(arg);
	return NULL;
}

/* Whether a writer of wanted that runs in pieces (not EMIT_LAST) reads the cable ends' table
 * (EMIT_ENDS): then the table is made first, a piece of its own. */
static bool ends_wanted(const bool *wanted)
{
	for (int i = 0; emit_table[i].name; i++)
		if (wanted[i] && (emit_table[i].flags & EMIT_ENDS) && !(emit_table[i].flags & EMIT_LAST))
			return true;
	return false;
}

int emit_write(Output *o, const Design *d, const bool *wanted, int threads, double *ms)
{
	if (threads <= 0)
		threads = emit_threads();
	int errors = 0;
	ms[EMIT_MAX] = 0; /* the ends' table, when made apart (below) */
	/* One renderer and the table beside it: the writers on this thread, the cable ends'
	 * table on one more, made while this one runs the writers that do not read it (the
	 * drawings, the reports, Slurm, k8s ...), then those that do, each in table order and
	 * into a part (joined in table order: the files and manifest of the serial path; a failed
	 * write stops the files after it in this run order, so the file its error names may differ
	 * from the serial path's, and so may the order of the writers' diagnostics). Before, cabling.csv, the second writer, made the table on this thread while
	 * the writer thread had nothing to write (docs/performance.md, "Emitter, sixteenth
	 * pass"). */
	bool ends = ends_wanted(wanted);
	bool beside = threads == 1 && ends;
	if (threads == 1 && !beside) {
		for (int i = 0; emit_table[i].name; i++)
			if (wanted[i]) {
				double t0 = now_ms();
				errors += emit_table[i].write(o, d);
				ms[i] = now_ms() - t0;
			}
		return errors;
	}
	Run *r = xmalloc(sizeof *r);
	*r = (Run){.o = o, .d = d, .ends_made = true};
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->made, NULL);
	int n = 0;
	int nshares = threads * SHARES_PER_THREAD;
	if (nshares > PIECES_MAX - EMIT_MAX)
		nshares = PIECES_MAX - EMIT_MAX;
	for (int i = 0; emit_table[i].name; i++, n++) {
		assert(i < EMIT_MAX);
		const Emitter *e = &emit_table[i];
		if (!wanted[i] || (e->flags & EMIT_LAST))
			continue;
		ms[i] = 0;
		bool split = !beside && !(e->flags & EMIT_MAIN) && share_writer(e->write);
		for (int k = 0; k < (split ? nshares : 1); k++)
			r->piece[r->npieces++] = (Piece){.emitter = i, .share = k,
							  .nshares = split ? nshares : 0,
							  .part = output_part(o)};
	}
	if (ends) { /* the table the writers of a row per cable share, first */
		r->ends_made = false;
		r->piece[r->npieces] = (Piece){.emitter = -1};
		r->queue[r->nqueue++] = r->npieces;
	}
	/* The writers that do not wait for the table (small: what the thread that is done with
	 * the EMIT_MAIN ones can do while the table is made), the EMIT_FIRST ones, the others. */
	for (int pass = 0; pass < 3 && !beside; pass++)
		for (int k = 0; k < r->npieces; k++) {
			unsigned flags = emit_table[r->piece[k].emitter].flags;
			int which = !reads_ends(&r->piece[k]) ? 0 : (flags & EMIT_FIRST) ? 1 : 2;
			if (!(flags & EMIT_MAIN) && which == pass)
				r->queue[r->nqueue++] = k;
		}
	/* threads - 1 more threads (fewer when there is less to share out); should one not start,
	 * the others and this one take its share. */
	pthread_t tid[THREADS_MAX];
	int started = 0;
	while (started < (beside ? 1 : threads - 1) && started < r->nqueue &&
	       pthread_create(&tid[started], NULL, worker, r) == 0)
		started++;
	if (beside) {
		if (!started)
			drain(r); /* the table first, here */
		/* The writers that do not wait for the table, then those that do, in table order. */
		for (int pass = 0; pass < 2; pass++)
			for (int k = 0; k < r->npieces; k++)
				if (reads_ends(&r->piece[k]) == pass)
					run_piece(r, &r->piece[k]);
	} else {
		for (int k = 0; k < r->npieces; k++) /* this thread's own, in table order */
			if (emit_table[r->piece[k].emitter].flags & EMIT_MAIN)
				run_piece(r, &r->piece[k]);
		drain(r);
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->made);
	/* In table order: the files, and anything said, as one thread would have them. */
	for (int k = 0; k < r->npieces; k++) {
		Piece *p = &r->piece[k];
		errors += p->errors + output_join(o, p->part);
		ms[p->emitter] += p->ms; /* a writer in shares: the time of all of them */
	}
	if (ends)
		ms[EMIT_MAX] = r->piece[r->npieces].ms;
	free(r);
	for (int i = 0; i < n; i++) /* report.json: what the others wrote, so after them */
		if (wanted[i] && (emit_table[i].flags & EMIT_LAST)) {
			double t0 = now_ms();
			errors += emit_table[i].write(o, d);
			ms[i] = now_ms() - t0;
		}
	return errors;
}
