/*
 * cmd_compare.c — `clusterc compare FILE [--scenarios A,B,...] [--sweep FILE.yaml] [-o DIR]`:
 * the base design and every scenario (or the chosen ones, or the points of a sweep) built, one
 * row each, in comparison.csv, comparison.json, comparison.md and report.html, with the
 * scenarios no other beats on every objective marked as the Pareto frontier.
 *
 * The rows are built by worker processes, as many at once as there are cores (--jobs): a build
 * is single-threaded, and a process keeps one scenario's crash from the others' (a worker that
 * dies takes only the row it was building; another takes the rest). A worker builds row after
 * row, each handed to it when it is free, and sends each back as JSON on a pipe; rows keep the
 * order of the spec (or sweep) whatever order they finish in and whichever worker built them,
 * so the files are byte-identical from run to run and for any --jobs. The workers share
 * results by their inputs (lang/share.c: the planner's searches, the racks' arrangement): a
 * point that asks what an earlier one asked reads the answer instead.
 *
 * Before anything is built the spec is checked, and every override of a sweep once, on its own:
 * an unknown path or a wrong value is an error at the sweep file's line (exit 1, nothing
 * written). A scenario that then fails to build is a row that says why (status and the first
 * error) and its diagnostics go to standard error; the comparison is still written (exit 0).
 * Exit 2 when no row at all could be built, 64 for a bad option, 74 when DIR cannot be written
 * (or the summary and diagnostics cannot be delivered: they go out before DIR is replaced, as
 * for build), 75 when another clusterc is writing DIR.
 */
#include "backends.h"
#include "driver.h"
#include "plan.h"

#include "share.h"
#include "compare_physical.h"
#include "compare_slurm.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

/* A row to build. */
typedef struct Job {
	const char *name;
	const char *scenario;   /* the spec's scenario, or NULL for the base */
	CliOverride *sets;      /* the command line's --set, then the point's */
	int nsets;
	const char *sets_text;
	Buf out;                /* what its worker sent */
	int wstatus;
	/* out read (row_parse): as it came, while the other rows are built, or after */
	bool parsed, ok;
	CompareRow row;         /* when ok: the row, the currency and the diagnostics it sent */
	const char *currency, *diags;
} Job;

/* ---- the child: one build, its row as JSON ------------------------------------------------- */

static void row_from_design(Arena *a, Design *d, CompareRow *r)
{
	const Totals *t = &d->t;
	r->accelerators = t->accelerators;
	r->nodes = t->nodes;
	r->racks = t->racks;
	r->switches = t->switches;
	r->cables = t->cables;
	r->it_power = t->it_power;
	r->facility_power = t->facility_power;
	r->capex = t->capex;
	r->annual_energy = t->annual_energy;
	r->annual_energy_cost = t->annual_energy_cost;
	r->tco = t->tco;
	r->tco_years = t->horizon_years;
	r->net_present_cost = d->fin.done ? d->fin.npv : NAN;
	r->annual_cost = d->fin.done ? d->fin.annual_cost : NAN;
	r->per_gpu_hour = d->fin.done ? d->fin.per_gpu_hour : NAN;
	r->per_pflop_day = d->fin.done ? d->fin.per_pflop_day : NAN;
	r->peak_compute = t->peak_compute;
	r->job_mtbf = d->reliability.done ? d->reliability.mtbf : NAN;
	if (d->fin.done)
		r->sens = d->fin.sens;
	r->nw = d->nplans;
	r->w = arena_alloc(a, sizeof *r->w * (size_t)(d->nplans + 1));
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		r->w[i] = (CompareWorkload){wp->name, wp->r.best.gpus, wp->time_to_train,
					    wp->energy, wp->energy_cost, wp->r.cost.mfu,
					    wp->rel.done ? wp->rel.goodput : NAN,
					    wp->rel.done ? wp->rel.effective_time : NAN,
					    i < d->fin.nworkloads ? d->fin.workloads[i].cost : NAN};
	}
	r->decisions = d->decisions.n;
	r->chosen = arena_alloc(a, sizeof *r->chosen * (size_t)(d->decisions.n + 1));
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		Buf v = {0};
		buf_puts(&v, x->chosen_text ? x->chosen_text : "-");
		r->chosen[i] = arena_printf(a, "%s.%s = %s", x->name, x->field_name,
					    v.s ? v.s : "");
		buf_free(&v);
	}
}

static int build_status(const Program *p, int errors)
{
	if (p->internal_error)
		return EXIT_INTERNAL;
	if (p->io_error)
		return EXIT_IO;
	if (p->usage_error)
		return EXIT_USAGE;
	if (errors > p->unmet)
		return EXIT_SPEC;
	return errors ? EXIT_UNMET : EXIT_OK;
}

/* Standard input, read once by the parent: the children build from its copy. */
static const Source *stdin_source;

/* The spec (and the standard library it imports) is parsed once per `compare`: the first
 * compilation that loads it with keep_parse on is kept (parsed_ctx) with a mark of it as the
 * parse left it (parsed_mark, parsed), and every later load stage in it (load_kept, through
 * Program.load) takes the compilation back to that mark instead of reading and parsing the
 * files again (docs/performance.md, issue 23). The parent's checks of a sweep's overrides make
 * it; the workers, forked after, inherit it (a worker that finds none makes its own on its first
 * row). Resolve, the overrides, check and the later passes write into the program; the rewind
 * takes all of it back, byte for byte, so each row starts from what a parse of its own would
 * have made. Off with CLUSTERC_NO_SHARE (tests/compare.sh: the same files either way). */
static bool keep_parse;
static bool keep_physical; /* a worker's physical builds kept (compare_physical.c) */
static Ctx *parsed_ctx;
static CtxMark *parsed_mark;
static Program parsed;

static int load_kept(Program *p, const char *path)
{
	if (!parsed_mark) {
		int errors = load_program(p, path);
		if (errors == 0 && diag_errors(p->c) == 0 && !p->io_error && !p->usage_error &&
		    !p->internal_error) {
			parsed_ctx = p->c;
			parsed_mark = ctx_mark(p->c);
			parsed = *p;
		}
		return errors;
	}
	INVARIANT(p->c == parsed_ctx, "a kept parse loaded into another compilation");
	ctx_rewind(p->c, parsed_mark);
	Program row = *p;
	*p = parsed;
	p->scenario = row.scenario;
	p->sets = row.sets;
	p->nsets = row.nsets;
	p->dump = row.dump;
	p->dump_max = row.dump_max;
	p->dump_out = row.dump_out;
	return 0;
}

/* A compilation for one more load of the spec: the kept one when there is one, else a new one
 * (which load_kept keeps when keep_parse is on). */
static Ctx *parse_ctx(const Options *o, Program *p)
{
	Ctx *c = parsed_ctx;
	if (!c) {
		c = ctx_new(o->dopt);
		c->stdlib_dir = o->stdlib;
	}
	*p = (Program){.c = c, .dump = -1, .load = keep_parse ? load_kept : NULL};
	if (stdin_source && !parsed_ctx)
		p->input = src_from_text(c, stdin_source->path, stdin_source->text, stdin_source->len);
	return c;
}

/* Done with a compilation of parse_ctx: freed unless kept. */
static void parse_done(Ctx *c)
{
	if (c != parsed_ctx)
		ctx_free(c);
}

/* Runs in a worker: builds the job's design and puts {"row", "currency", "diagnostics"} into
 * *res. Everything the build allocated is freed (or, with the parse kept, given back by the next
 * row's rewind): a worker builds many rows. */
static void build_row(const Options *o, const char *path, const Job *job, Buf *res)
{
	Program p;
	Ctx *c = parse_ctx(o, &p);
	p.scenario = job->scenario;
	p.sets = job->sets;
	p.nsets = job->nsets;
	Design d = {.time_limit = o->time_limit, .exhaustive = o->exhaustive, .numbers_only = true,
		    .physical_kept = keep_physical ? compare_physical_kept : NULL};
	int errors = pipeline_build(&p, &d, path, NULL);
	CompareRow r = {.scenario = job->name, .sets = job->sets_text, .why = ""};
	r.status = build_status(&p, errors);
	if (r.status == EXIT_OK) {
		row_from_design(c->arena, &d, &r);
		r.decisions_json = report_decisions_json(&d, d.report.solver ? &d.report : NULL);
	} else {
		r.violations = report_violations_json(c);
		for (int i = 0; i < c->diags.n; i++) {
			const Diag *g = c->diags.v[i];
			if (g->level == DIAG_ERROR) {
				r.why = g->msg;
				break;
			}
		}
		r.accelerators = r.nodes = r.racks = r.switches = r.cables = NAN;
		r.it_power = r.facility_power = r.capex = r.annual_energy = NAN;
		r.annual_energy_cost = r.tco = r.tco_years = NAN;
		r.net_present_cost = r.annual_cost = r.per_gpu_hour = r.per_pflop_day = NAN;
		r.peak_compute = r.job_mtbf = NAN;
	}
	char *diags = NULL;
	size_t ndiags = 0;
	FILE *mem = open_memstream(&diags, &ndiags);
	if (!mem)
		die_oom();
	if (r.status != EXIT_OK)
		diag_render(c, mem);
	fclose(mem);
	Json *root = jw_object();
	jw_set(root, "row", compare_row_json(&r));
	compare_row_free(&r);
	jw_set(root, "currency", jw_str(r.status == EXIT_OK ? currency_name(d.currency) : NULL));
	jw_set(root, "diagnostics", jw_strn(diags, ndiags));
	free(diags);
	char *text = NULL;
	size_t ntext = 0;
	mem = open_memstream(&text, &ntext);
	if (!mem)
		die_oom();
	jw_write(mem, root); /* and frees it */
	if (fclose(mem) != 0)
		die_oom();
	buf_put(res, text, ntext);
	free(text);
	parse_done(c);
}

/* ---- the workers: one process per job slot, many rows each ---------------------------------- */

/* A worker is a process forked once that builds the rows it is handed, one at a time: it reads
 * a row's index (an int) from its command pipe and answers on its result pipe with the row's
 * length (a uint64_t) and text. Forking once per worker rather than once per row spares each
 * row the fork, the exit and the page faults of a fresh heap (docs/performance.md, issue 23);
 * the malloc heap stays mapped and the arena's chunks are kept (arena_keep_chunks) from one row
 * to the next. A worker that dies (a crash, an exit from a broken invariant) takes only the
 * row it was building: that row says why, as a row's own process did, and a new worker takes
 * the rows left.
 *
 * While many rows are left a worker is handed up to QUEUE_AHEAD of them at once: it builds
 * them in the order handed and finds the next index already in its pipe when it answers, so it
 * neither waits for the parent to be scheduled between rows nor gives up its core by sleeping
 * (on a loaded machine each such wait cost a worker a wake-up and a turn in the run queue:
 * 3-47 % of a 201-point sweep's wall time, docs/performance.md, "Sweeps, fifth pass"). Near
 * the end, and for a comparison of a few scenarios, rows go one at a time, so that the rows
 * left are shared as before. Rows are kept by index: the files are the same for any order. */
enum { QUEUE_AHEAD = 3 };

typedef struct Worker {
	pid_t pid;
	int cmd, res;         /* to it, from it; -1 when closed */
	int q[QUEUE_AHEAD];   /* the rows handed to it, in order: q[0] is the one it builds */
	int nq;
	Buf in;               /* what it sent of q[0] so far (and of the rows after) */
} Worker;

static bool write_all(int fd, const void *p, size_t n)
{
	return fdio_write_all(fd, p, n, -1) == 0;
}

static bool read_all(int fd, void *p, size_t n)
{
	return fdio_read_all(fd, p, n, -1) == n;
}

/* The worker's loop, in the child: rows until its command pipe closes. */
static void worker_main(const Options *o, const char *path, const Job *jobs, int n, int cmd,
			int res)
{
	arena_tune_heap();
	arena_keep_chunks(true);
	cage_memo_keep(!getenv("CLUSTERC_NO_SHARE"));
	verify_memo_keep(!getenv("CLUSTERC_NO_SHARE"));
	keep_physical = keep_parse; /* the replay needs the parse's fixed addresses */
	/* tests/compare.sh: the worker handed row N is killed as it begins it (the rows handed
	 * to it after N must reach another worker) */
	const char *kill_at = getenv("CLUSTERC_TEST_KILL_ROW");
	char *kill_end = NULL;
	long kill_row = kill_at && *kill_at ? strtol(kill_at, &kill_end, 10) : -1;
	if (kill_end && (*kill_end || kill_row < 0))
		kill_row = -1; /* not a whole row number: unset */
	if (keep_physical) { /* which rows could share a physical build: all of them are known */
		PhysRow *rows = xmalloc(sizeof *rows * (size_t)(n + 1));
		for (int k = 0; k < n; k++)
			rows[k] = (PhysRow){jobs[k].scenario, jobs[k].sets, jobs[k].nsets};
		compare_physical_rows(rows, n); /* the worker's until its _exit */
	}
	Buf out = {0};
	int i;
	while (read_all(cmd, &i, sizeof i)) {
		if (i < 0 || i >= n)
			_exit(EXIT_INTERNAL);
		if (i == kill_row)
			raise(SIGKILL);
		if (keep_physical)
			compare_physical_row(i);
		out.len = 0;
		build_row(o, path, &jobs[i], &out);
		uint64_t len = out.len;
		if (!write_all(res, &len, sizeof len) || !write_all(res, out.s, out.len))
			_exit(EXIT_IO);
	}
	if (getenv("CLUSTERC_TEST_PHYSICAL")) /* tests/compare.sh: the replays happen */
		compare_physical_report(stderr);
	_exit(0);
}

static int worker_start(const Options *o, const char *path, const Job *jobs, int n, Worker *w,
			Worker *all, int nall)
{
	int to[2], from[2];
	if (pipe(to) != 0)
		return -1;
	if (pipe(from) != 0) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(to[0]), close(to[1]), close(from[0]), close(from[1]);
		return -1;
	}
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		/* The other workers' pipes are not this one's: held open here, a dead worker's
		 * end would never read as closed. */
		for (int k = 0; k < nall; k++) {
			if (all[k].cmd >= 0)
				close(all[k].cmd);
			if (all[k].res >= 0)
				close(all[k].res);
			buf_free(&all[k].in);
		}
		free(all); /* the parent's table (run_jobs), this worker's copy of it */
		worker_main(o, path, jobs, n, to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	*w = (Worker){.pid = pid, .cmd = to[1], .res = from[0]};
	return 0;
}

/* Hands the worker row `i`; false when it cannot take it (it is gone). */
static bool worker_give(Worker *w, int i)
{
	w->q[w->nq++] = i;
	return write_all(w->cmd, &i, sizeof i);
}

static void row_parse(Ctx *c, Job *j);

/* The rows whole in what the worker sent, each to its job (they come in the order handed), and
 * read into it at once when `c` is given (row_parse: the parent's reading of the rows then
 * overlaps the workers' building rather than following it). */
static int worker_take(Worker *w, Job *jobs, Ctx *c)
{
	int got = 0;
	size_t at = 0;
	uint64_t len;
	while (w->nq > 0 && w->in.len - at >= sizeof len) {
		memcpy(&len, w->in.s + at, sizeof len);
		if (w->in.len - at - sizeof len < len)
			break;
		Job *j = &jobs[w->q[0]];
		buf_put(&j->out, w->in.s + at + sizeof len, (size_t)len);
		j->wstatus = 0; /* as a process that exited 0 */
		if (c)
			row_parse(c, j);
		at += sizeof len + (size_t)len;
		memmove(w->q, w->q + 1, sizeof *w->q * (size_t)--w->nq);
		got++;
	}
	if (at) {
		memmove(w->in.s, w->in.s + at, w->in.len - at);
		w->in.len -= at;
	}
	return got;
}

/* The workers that were sent every row and told to end: their exit (the kernel taking back a
 * worker's tens of MiB, 5-15 ms here) overlaps the parent's writing of the comparison, and
 * reap_workers waits for them before compare returns (so that their CPU time is the command's,
 * as getrusage's RUSAGE_CHILDREN and bench.py count it). */
static pid_t *reaped_later;
static int nreaped_later;

static void reap_workers(void)
{
	for (int k = 0; k < nreaped_later; k++)
		while (waitpid(reaped_later[k], NULL, 0) < 0 && errno == EINTR)
			;
	free(reaped_later);
	reaped_later = NULL, nreaped_later = 0;
}

/* Builds every job, at most `width` at once, and leaves each one's text in jobs[i].out and a
 * status in jobs[i].wstatus (as an exit 0 when the row came, else the worker's end); with `c`,
 * each row that came is read into its job (row_parse, which frees the text) as it comes. Returns -1 when a process
 * cannot be started. */
static int run_jobs(const Options *o, const char *path, Job *jobs, int n, int width, Ctx *c)
{
	if (width > n)
		width = n;
	if (width < 1)
		width = 1;
	/* One block for the workers, the poll set and who each entry is: a worker inherits it at
	 * fork and frees it (worker_start), since it ends in _exit() below this frame. */
	size_t nw = (size_t)width, np1 = nw + 1;
	Worker *ws = xmalloc(sizeof *ws * nw + sizeof(struct pollfd) * np1 + sizeof(int) * np1);
	struct pollfd *pf = (struct pollfd *)(ws + nw);
	int *who = (int *)(pf + np1);
	for (int k = 0; k < width; k++)
		ws[k] = (Worker){.pid = -1, .cmd = -1, .res = -1};
	/* The rows to hand out: those a dead worker was handed but had not begun (again), then
	 * each worker slot's own run of consecutive rows (seg), the spec's order cut in `width`
	 * parts: neighbouring points of a sweep mostly build the same physical design, which a
	 * worker replays rather than builds again (compare_physical.c), so each worker keeps to a run
	 * of them. A slot whose run is done takes the second half of the longest run left. */
	int *again = xmalloc(sizeof *again * (size_t)(width * QUEUE_AHEAD + 1));
	int *seg = xmalloc(sizeof *seg * (size_t)(2 * width)); /* slot k: seg[2k] to seg[2k+1] */
	for (int k = 0; k < width; k++)
		seg[2 * k] = (int)((long)n * k / width), seg[2 * k + 1] = (int)((long)n * (k + 1) / width);
	reaped_later = xrealloc(reaped_later, sizeof *reaped_later * (size_t)(nreaped_later + width));
	int nagain = 0, left = n; /* left: rows in the runs */
	int done = 0, rc = 0;
	while (done < n) {
		/* Every worker gets rows up to its depth; a slot without a worker starts one while
		 * rows are left (at first, and after a worker died). */
		for (int k = 0; k < width && (nagain || left); k++) {
			Worker *w = &ws[k];
			if (w->pid < 0) {
				if (rc != 0 || worker_start(o, path, jobs, n, w, ws, width) != 0) {
					rc = -1;
					continue;
				}
			}
			while (w->cmd >= 0 && (nagain || left)) {
				if (w->nq >= (nagain + left >= width * QUEUE_AHEAD ? QUEUE_AHEAD : 1))
					break;
				int *run = seg + 2 * k;
				if (!nagain && run[0] == run[1]) {
					int *longest = seg;
					for (int m = 1; m < width; m++)
						if (seg[2 * m + 1] - seg[2 * m] > longest[1] - longest[0])
							longest = seg + 2 * m;
					run[1] = longest[1];
					run[0] = longest[1] = longest[0] + (longest[1] - longest[0]) / 2;
				}
				int i = nagain ? again[--nagain] : (left--, run[0]++);
				if (!worker_give(w, i))
					close(w->cmd), w->cmd = -1; /* its end will show why */
			}
		}
		if ((nagain || left) && rc != 0) {
			/* wait for those started, start no more: the rows not begun fail */
			for (; nagain; nagain--, done++)
				jobs[again[nagain - 1]].wstatus = EXIT_INTERNAL << 8;
			for (int k = 0; k < width; k++)
				for (; seg[2 * k] < seg[2 * k + 1]; seg[2 * k]++, done++, left--)
					jobs[seg[2 * k]].wstatus = EXIT_INTERNAL << 8;
			if (done >= n)
				break;
		}
		/* No rows left to hand out: the workers are told so (their pipe closes after the
		 * rows in it). */
		for (int k = 0; k < width; k++)
			if (!nagain && !left && ws[k].cmd >= 0)
				close(ws[k].cmd), ws[k].cmd = -1;
		int np = 0;
		for (int k = 0; k < width; k++)
			if (ws[k].res >= 0) {
				pf[np] = (struct pollfd){.fd = ws[k].res, .events = POLLIN};
				who[np++] = k;
			}
		if (np == 0)
			break;
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOMEM)
				die_oom();
			die_invariant(__FILE__, __LINE__, "poll() on the workers' pipes failed");
		}
		for (int q = 0; q < np; q++) {
			if (!(pf[q].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			Worker *w = &ws[who[q]];
			char chunk[65536];
			ssize_t got = read(w->res, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0) {
				buf_put(&w->in, chunk, (size_t)got);
				done += worker_take(w, jobs, c);
				continue;
			}
			/* The worker is gone: after its last row, or while building one. */
			close(w->res);
			w->res = -1;
			if (w->cmd >= 0)
				close(w->cmd), w->cmd = -1;
			int status = 0;
			while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
				;
			if (w->nq > 0) {
				Job *j = &jobs[w->q[0]];
				j->wstatus = WIFEXITED(status) && WEXITSTATUS(status) == 0
						     ? (EXIT_INTERNAL << 8) /* gone without the row */
						     : status;
				done++;
				/* the rows after it were not begun: another worker builds them */
				for (int m = w->nq - 1; m >= 1; m--)
					again[nagain++] = w->q[m];
			}
			w->nq = 0;
			buf_free(&w->in); /* a restarted slot starts a new Worker (worker_start) */
			w->pid = -1;
		}
	}
	for (int k = 0; k < width; k++) {
		if (ws[k].cmd >= 0)
			close(ws[k].cmd);
		if (ws[k].res >= 0) {
			close(ws[k].res);
			reaped_later[nreaped_later++] = ws[k].pid;
		}
		buf_free(&ws[k].in);
	}
	free(ws); /* and pf and who, in its block */
	free(again);
	free(seg);
	return rc;
}

/* --shard I/N: the rows I mod N built and their output written to -o FILE, unparsed. */
static int run_shard(const Options *o, const char *path, Job *jobs, int n, int width)
{
	if (!o->output) {
		fprintf(stderr, "clusterc: --shard needs -o FILE (where its rows go)\n");
		return EXIT_USAGE;
	}
	int m = 0;
	Job *mine = xmalloc(sizeof(Job) * (size_t)(n / o->shard_n + 2));
	int *index = xmalloc(sizeof(int) * (size_t)(n / o->shard_n + 2));
	for (int i = o->shard_i; i < n; i += o->shard_n) {
		index[m] = i;
		mine[m++] = jobs[i];
	}
	int rc = run_jobs(o, path, mine, m, width, NULL) != 0 ? EXIT_INTERNAL : EXIT_OK;
	Buf **outs = xmalloc(sizeof(Buf *) * (size_t)(m + 1));
	for (int k = 0; k < m; k++) {
		outs[k] = &mine[k].out;
		/* a build that crashed sent no row: the merge would report it as a local run does,
		 * but it cannot tell from here; it is this task that fails */
		if (!WIFEXITED(mine[k].wstatus) || WEXITSTATUS(mine[k].wstatus) != 0 || !mine[k].out.len) {
			fprintf(stderr, "clusterc: row %d (%s): its build ended without a result\n",
				index[k], mine[k].name);
			rc = EXIT_INTERNAL;
		}
	}
	if (rc == EXIT_OK && compare_slurm_shard_write(o->output, index, outs, m) != 0)
		rc = EXIT_IO;
	for (int k = 0; k < m; k++)
		buf_free(&mine[k].out);
	free(outs);
	free(index);
	free(mine);
	return rc;
}

/* With --diagnostics=json, the children's diagnostics, each marked with its row's scenario,
 * go into the one document the command prints (json_diags). */
static Json *child_diags;
static long long child_errors, child_warnings;

static void keep_json_diags(const char *text, const char *scenario)
{
	Json *doc = jw_parse(text, strlen(text));
	if (!doc)
		return;
	const Json *list = jw_get(doc, "diagnostics");
	for (size_t i = 0; i < jw_len(list); i++) {
		Json *d = jw_copy(jw_at(list, i));
		jw_set(d, "scenario", jw_str(scenario));
		jw_push(child_diags, d);
	}
	double e = jw_get_real(doc, "errors"), w = jw_get_real(doc, "warnings");
	child_errors += isfinite(e) ? (long long)e : 0;
	child_warnings += isfinite(w) ? (long long)w : 0;
	jw_free(doc);
}

/* The command's diagnostics and its children's as one JSON document on standard error. */
static void json_diags(Ctx *c)
{
	char *text = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&text, &n);
	if (!mem)
		die_oom();
	diag_render(c, mem);
	fclose(mem);
	Json *doc = jw_parse(text, n);
	free(text);
	if (!doc)
		return;
	Json *list = jw_get(doc, "diagnostics");
	for (size_t i = 0; i < jw_len(child_diags); i++)
		jw_push(list, jw_copy(jw_at(child_diags, i)));
	jw_set(doc, "errors", jw_int((long long)jw_get_real(doc, "errors") + child_errors));
	jw_set(doc, "warnings", jw_int((long long)jw_get_real(doc, "warnings") + child_warnings));
	jw_write(stderr, doc);
	/* Printed: a second document (what the commit had to say) holds only what is new. */
	jw_free(child_diags);
	child_diags = jw_array();
	child_errors = child_warnings = 0;
}

/* Reads what job j's worker sent (its JSON) into j: the row, its currency and diagnostics,
 * copied into c's arena; the text is freed. */
static void row_parse(Ctx *c, Job *j)
{
	Json *root = j->out.len ? jw_parse(j->out.s, j->out.len) : NULL;
	j->parsed = true;
	j->ok = root && WIFEXITED(j->wstatus) && WEXITSTATUS(j->wstatus) == 0;
	if (j->ok) {
		compare_row_read(c->arena, jw_get(root, "row"), &j->row);
		const char *cur = jw_get_str(root, "currency");
		j->currency = cur ? arena_strdup(c->arena, cur) : NULL;
		const char *diags = jw_get_str(root, "diagnostics");
		j->diags = diags && *diags ? arena_strdup(c->arena, diags) : NULL;
	}
	if (root)
		jw_free(root);
	buf_free(&j->out);
}

/* Job j's row into *r (the row becomes r's), in the spec's order: what it says on stderr, and
 * why it has no numbers when its worker sent none. */
static void read_row(Ctx *c, const Options *o, Job *j, CompareRow *r, const char **currency,
		     const char *base_currency)
{
	if (!j->parsed)
		row_parse(c, j);
	if (j->ok) {
		*r = j->row;
		j->row = (CompareRow){0};
		*currency = j->currency;
		const char *diags = j->diags;
		if (r->status != EXIT_OK && o->dopt.format == DIAG_TEXT)
			fprintf(stderr, "clusterc: %s: not built (exit %d)\n", diag_printable(c, j->name),
				r->status);
		if (diags && o->dopt.format == DIAG_JSON)
			keep_json_diags(diags, j->name);
		else if (diags)
			fputs(diags, stderr);
		if (r->status == EXIT_OK && base_currency && *currency &&
		    strcmp(base_currency, *currency) != 0) {
			r->status = EXIT_SPEC;
			r->why = arena_printf(c->arena, "reports in %s, the base design in %s: the "
							"money would not compare",
					      *currency, base_currency);
			fprintf(stderr, "clusterc: %s: %s\n", diag_printable(c, j->name),
				diag_printable(c, r->why));
		}
	} else {
		*r = (CompareRow){.scenario = j->name, .sets = j->sets_text, .status = EXIT_INTERNAL};
		r->why = WIFSIGNALED(j->wstatus)
				 ? arena_printf(c->arena, "its build was killed by signal %d (%s)",
						WTERMSIG(j->wstatus), strsignal(WTERMSIG(j->wstatus)))
				 : arena_printf(c->arena, "its build ended without a result (exit %d)",
						WIFEXITED(j->wstatus) ? WEXITSTATUS(j->wstatus) : -1);
		fprintf(stderr, "clusterc: internal error: %s: %s\n", diag_printable(c, j->name),
			diag_printable(c, r->why));
	}
}

/* ---- rows, objectives ------------------------------------------------------------------------ */

/* The scenarios named by --scenarios, checked against the spec (64 for an unknown one). */
static int pick_scenarios(Ctx *c, Program *p, const char *list, PtrVec *names)
{
	if (!list) {
		for (int i = 0; i < p->scenarios.n; i++)
			vec_push(c->arena, names, (void *)((Scenario *)p->scenarios.v[i])->name);
		return 0;
	}
	for (const char *s = list; *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		char *name = arena_alloc(c->arena, len + 1);
		memcpy(name, s, len);
		s += len + (end ? 1 : 0);
		if (len == 0 || strcmp(name, "base") == 0)
			continue;
		if (!table_get(&p->scenario_names, intern_cstr(c, name))) {
			scenario_unknown(p, NOLOC, name);
			return EXIT_USAGE;
		}
		for (int i = 0; i < names->n; i++)
			if (!strcmp(names->v[i], name))
				goto dup;
		vec_push(c->arena, names, name);
dup:;
	}
	return 0;
}

/* --objectives, or capex, annual energy cost and each workload's time to train. */
static int pick_objectives(Ctx *c, const Options *o, const Program *p, const char *currency,
			   PtrVec *out)
{
	PtrVec names = {0};
	if (o->objectives) {
		for (const char *s = o->objectives; *s;) {
			const char *end = strchr(s, ',');
			size_t len = end ? (size_t)(end - s) : strlen(s);
			char *name = arena_alloc(c->arena, len + 1);
			memcpy(name, s, len);
			s += len + (end ? 1 : 0);
			if (len)
				vec_push(c->arena, &names, name);
		}
	} else {
		vec_push(c->arena, &names, "capex");
		vec_push(c->arena, &names, "annual_energy_cost");
		for (int i = 0; i < p->decls.n; i++) {
			const Decl *d = p->decls.v[i];
			if (d->used && d->kind == KIND_WORKLOAD)
				vec_push(c->arena, &names, arena_printf(c->arena, "time_to_train:%s",
									 d->name));
		}
	}
	if (names.n < 2) {
		fprintf(stderr, "clusterc: --objectives needs at least two (the scatter's axes); "
				"objectives are %s\n", compare_objective_names());
		return EXIT_USAGE;
	}
	for (int i = 0; i < names.n; i++) {
		CompareObjective *x = arena_alloc(c->arena, sizeof *x);
		const char *name = names.v[i];
		const char *colon = strchr(name, ':');
		bool workload_known = !colon;
		for (int k = 0; colon && k < p->decls.n && !workload_known; k++) {
			const Decl *d = p->decls.v[k];
			workload_known = d->kind == KIND_WORKLOAD && !strcmp(d->name, colon + 1);
		}
		if (!compare_objective(c->arena, name, currency, x) || !workload_known) {
			fprintf(stderr, "clusterc: --objectives: no objective '%s'%s; objectives are %s\n",
				name, workload_known ? "" : " (no such workload)", compare_objective_names());
			return EXIT_USAGE;
		}
		vec_push(c->arena, out, x);
	}
	return 0;
}

static CliOverride *with_sets(Ctx *c, const Options *o, const CliOverride *more, int nmore)
{
	CliOverride *v = arena_alloc(c->arena, sizeof *v * (size_t)(o->nsets + nmore + 1));
	for (int i = 0; i < o->nsets; i++)
		v[i] = o->sets[i];
	for (int i = 0; i < nmore; i++)
		v[o->nsets + i] = more[i];
	return v;
}

/* Each distinct override of the sweep applied alone to the base design and checked, so that a
 * mistake is reported once, at its line, before anything is built. Returns the errors. */
static int check_sweep(const Options *o, const char *path, Ctx *c, Program *base, const Sweep *s,
		       PtrVec *checks)
{
	int errors = 0;
	for (int i = 0; i < s->npoints; i++) {
		const SweepPoint *pt = s->points[i];
		bool reported = false; /* a grid's value names the scenario of many points */
		for (int k = 0; k < i && !reported; k++)
			reported = s->points[k]->scenario_loc.off == pt->scenario_loc.off &&
				   s->points[k]->scenario_loc.src == pt->scenario_loc.src;
		if (pt->scenario && !reported &&
		    !table_get(&base->scenario_names, intern_cstr(c, pt->scenario))) {
			scenario_unknown(base, pt->scenario_loc, pt->scenario);
			errors++;
		}
	}
	if (errors)
		return errors;
	PtrVec seen = {0};
	for (int i = 0; i < s->npoints; i++)
		for (int k = 0; k < s->points[i]->nsets; k++) {
			const CliOverride *x = &s->points[i]->sets[k];
			bool dup = false;
			for (int m = 0; m < seen.n && !dup; m++)
				dup = !strcmp(seen.v[m], x->text);
			if (dup)
				continue;
			vec_push(c->arena, &seen, (void *)x->text);
			Program p;
			Ctx *vc = parse_ctx(o, &p);
			p.sets = with_sets(c, o, x, 1); /* not in vc's arena: its load rewinds it */
			p.nsets = o->nsets + 1;
			/* A context that found nothing is freed at once (or kept for the next check,
			 * load_kept): kept, the checks of a 10,000-point sweep held a parse of the
			 * spec each (gigabytes). One that found something is kept with its
			 * diagnostics: a fresh one when the parse is kept, which the next check
			 * rewinds. */
			if (pipeline_front(&p, path, NULL) == 0) {
				parse_done(vc);
				continue;
			}
			if (vc == parsed_ctx) {
				vc = ctx_new(o->dopt);
				vc->stdlib_dir = o->stdlib;
				p = (Program){.c = vc, .sets = with_sets(vc, o, x, 1),
					      .nsets = o->nsets + 1, .dump = -1};
				if (stdin_source)
					p.input = src_from_text(vc, stdin_source->path,
								stdin_source->text, stdin_source->len);
				pipeline_front(&p, path, NULL);
			}
			vec_push(c->arena, checks, vc);
			/* Its errors join the others, once each: a path's mistake shows in every
			 * override of that path. */
			for (int m = 0; m < vc->diags.n; m++) {
				Diag *g = vc->diags.v[m];
				if (g->level != DIAG_ERROR)
					continue;
				bool again = false;
				for (int q = 0; q < c->diags.n && !again; q++) {
					const Diag *h = c->diags.v[q];
					again = h->loc.off == g->loc.off && !strcmp(h->msg, g->msg) &&
						(h->loc.src && g->loc.src
							 ? !strcmp(h->loc.src->path, g->loc.src->path)
							 : h->loc.src == g->loc.src);
				}
				if (!again) {
					vec_push(c->arena, &c->diags, g);
					c->nerrors++;
					errors++;
				}
			}
		}
	return errors;
}

int cmd_compare(const Options *o, const char *path)
{
	Ctx *c = ctx_new(o->dopt);
	c->stdlib_dir = o->stdlib;
	child_diags = jw_array();
	Program p = {.c = c, .sets = o->sets, .nsets = o->nsets, .dump = -1};
	PtrVec checks = {0}; /* the contexts of check_sweep: their diagnostics are rendered with c's */
	int rc = EXIT_OK;
	bool rendered = false; /* the diagnostics so far went out before the commit */
	CompareRow *cmp_rows = NULL; /* the rows read, for their JSON (compare_row_free) */
	int cmp_nrows = 0;
	int errors = pipeline_front(&p, path, NULL);
	if (errors || p.usage_error) {
		rc = p.io_error ? EXIT_IO : p.usage_error ? EXIT_USAGE : EXIT_SPEC;
		goto out;
	}
	if (strcmp(path, "-") == 0)
		stdin_source = p.root->src;
	Sweep sweep = {0};
	if (o->sweep && sweep_load(c, o->sweep, &sweep)) {
		rc = sweep.io_error ? EXIT_IO : EXIT_SPEC;
		goto out;
	}
	PtrVec names = {0};
	if ((!o->sweep || o->scenarios) &&
	    (rc = pick_scenarios(c, &p, o->scenarios, &names)) != 0)
		goto out;
	PtrVec objs = {0};
	if ((rc = pick_objectives(c, o, &p, "?", &objs)) != 0)
		goto out;
	objs = (PtrVec){0};
	keep_parse = !getenv("CLUSTERC_NO_SHARE");
	if (o->sweep && check_sweep(o, path, c, &p, &sweep, &checks)) {
		rc = EXIT_SPEC;
		goto out;
	}
	/* The jobs: the base, the scenarios, the sweep's points. */
	int n = 1 + names.n + sweep.npoints;
	Job *jobs = arena_alloc(c->arena, sizeof *jobs * (size_t)n);
	jobs[0] = (Job){.name = "base", .sets = with_sets(c, o, NULL, 0), .nsets = o->nsets};
	for (int i = 0; i < names.n; i++)
		jobs[1 + i] = (Job){.name = names.v[i], .scenario = names.v[i],
				    .sets = jobs[0].sets, .nsets = o->nsets};
	for (int i = 0; i < sweep.npoints; i++) {
		const SweepPoint *pt = sweep.points[i];
		for (int k = 0; k <= names.n; k++)
			if (!strcmp(pt->name, jobs[k].name)) {
				Diag *d = diag_error(c, pt->name_loc.src ? pt->name_loc : pt->loc,
						     "the sweep's point '%s' has the name of a scenario "
						     "compared",
						     pt->name);
				diag_set_code(d, "sweep-duplicate");
				rc = EXIT_SPEC;
			}
		jobs[1 + names.n + i] = (Job){.name = pt->name, .scenario = pt->scenario,
					      .sets = with_sets(c, o, pt->sets, pt->nsets),
					      .nsets = o->nsets + pt->nsets, .sets_text = pt->sets_text};
	}
	if (rc)
		goto out;
	for (int i = 0; i < n; i++) {
		if (!jobs[i].sets_text)
			jobs[i].sets_text = "";
	}
	if ((o->submit && !o->slurm) || (!!o->slurm + !!o->shard_n + !!o->merge) > 1) {
		fprintf(stderr, "clusterc: --submit goes with --slurm; --slurm, --shard and --merge "
				"one at a time\n");
		rc = EXIT_USAGE;
		goto out;
	}
	if (o->slurm || o->shard_n || o->merge) {
		if (strcmp(path, "-") == 0) {
			fprintf(stderr, "clusterc: --slurm, --shard and --merge read the spec from a "
					"file, not standard input\n");
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (o->slurm) {
		int tasks = 0;
		if (compare_slurm_write(o, path, n, o->slurm, &tasks) != 0) {
			rc = EXIT_IO;
			goto out;
		}
		if (!o->quiet)
			printf("%s/compare.sbatch: %d rows in %d tasks; %s/merge.sbatch: the comparison "
			       "into %s/\n", o->slurm, n, tasks, o->slurm, o->output ? o->output : "compare");
		if (o->submit && compare_slurm_submit(o->slurm, o->quiet) != 0)
			rc = EXIT_INTERNAL;
		goto out;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int width = o->jobs > 0 ? o->jobs : cores > 0 ? (int)cores : 1;
	/* Results shared by the rows' processes, looked up by every input (lang/share.c): the
	 * points of a sweep mostly ask the planner, and the arrangement of the racks, the same
	 * questions. Every row is the same as without. */
	share_start(); /* tests/compare.sh: the same rows without (CLUSTERC_NO_SHARE) */
	if (o->shard_n) {
		rc = run_shard(o, path, jobs, n, width);
		goto out;
	}
	if (o->merge) {
		Buf *outs = xmalloc(sizeof(Buf) * (size_t)n);
		memset(outs, 0, sizeof(Buf) * (size_t)n);
		if (compare_slurm_shard_read(o->merge, outs, n) != 0) {
			for (int i = 0; i < n; i++)
				buf_free(&outs[i]);
			free(outs);
			rc = EXIT_IO;
			goto out;
		}
		for (int i = 0; i < n; i++)
			jobs[i].out = outs[i], jobs[i].wstatus = 0; /* as a build that exited 0 */
		free(outs);
	} else if (run_jobs(o, path, jobs, n, width, c) != 0) {
		fprintf(stderr, "clusterc: cannot start a build: %s\n", strerror(errno));
		for (int i = 0; i < n; i++)
			compare_row_free(&jobs[i].row); /* the rows read as they came */
		rc = EXIT_INTERNAL;
		goto out;
	}
	Comparison cmp = {.spec = p.root->src->path, .sweep = o->sweep, .nrows = n};
	cmp.rows = arena_alloc(c->arena, sizeof *cmp.rows * (size_t)n);
	cmp_rows = cmp.rows;
	cmp_nrows = n;
	int built = 0;
	for (int i = 0; i < n; i++) {
		const char *cur = NULL;
		read_row(c, o, &jobs[i], &cmp.rows[i], &cur, cmp.currency);
		if (i == 0 || !cmp.currency)
			cmp.currency = cur;
		built += cmp.rows[i].status == EXIT_OK;
		buf_free(&jobs[i].out);
	}
	if (!cmp.currency)
		cmp.currency = "USD";
	if ((rc = pick_objectives(c, o, &p, cmp.currency, &objs)) != 0)
		goto out;
	cmp.obj = arena_alloc(c->arena, sizeof *cmp.obj * (size_t)objs.n);
	for (int i = 0; i < objs.n; i++)
		cmp.obj[i] = *(CompareObjective *)objs.v[i];
	cmp.nobj = objs.n;
	if (built == 0) {
		fprintf(stderr, "clusterc: no scenario could be built; nothing written\n");
		rc = EXIT_UNMET;
		goto out;
	}
	compare_pareto(&cmp);
	const char *dir = o->output ? o->output : "compare";
	Output *out = output_open(c, dir, o->force);
	if (!out) {
		rc = c->output_busy ? EXIT_BUSY : EXIT_IO;
		goto out;
	}
	/* One statement each: the files are opened, and any diagnostics given, in this order. */
	int werr = compare_csv_write(out, &cmp);
	werr += compare_json_write(out, &cmp);
	werr += compare_md_write(out, &cmp);
	werr += compare_html_write(out, &cmp);
	if (werr) {
		output_abort(out);
		rc = EXIT_IO;
		goto out;
	}
	if (!o->quiet && o->dopt.format == DIAG_TEXT) {
		printf("%s -> %s/: %d of %d built; Pareto:", diag_printable(c, cmp.spec),
		       diag_printable(c, dir), built, n);
		const char *sep = " ";
		for (int i = 0; i < n; i++)
			if (cmp.rows[i].pareto) {
				printf("%s%s", sep, diag_printable(c, cmp.rows[i].scenario));
				sep = "; ";
			}
		printf("\n");
	}
	/* The summary and the diagnostics delivered before DIR is replaced. */
	if (o->dopt.format == DIAG_JSON)
		json_diags(c);
	else
		diag_render(c, stderr);
	rendered = true;
	if (!driver_streams_ok()) {
		output_abort(out);
		rc = EXIT_IO;
		goto out;
	}
	if (output_commit(out)) {
		rc = EXIT_IO;
		goto out;
	}
out:
	reap_workers();
	for (int i = 0; cmp_rows && i < cmp_nrows; i++)
		compare_row_free(&cmp_rows[i]);
	if (rendered && c->diags.n == 0)
		; /* nothing new since */
	else if (o->dopt.format == DIAG_JSON)
		json_diags(c);
	else
		diag_render(c, stderr);
	jw_free(child_diags);
	for (int i = 0; i < checks.n; i++)
		ctx_free(checks.v[i]);
	ctx_mark_free(parsed_mark);
	ctx_free(parsed_ctx);
	parsed_mark = NULL, parsed_ctx = NULL;
	ctx_free(c);
	if (!driver_streams_ok() && rc == EXIT_OK)
		rc = EXIT_IO;
	return rc;
}
