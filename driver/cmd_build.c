/*
 * cmd_build.c — `clusterc build FILE [-o DIR]`: the whole pipeline, then the artifacts.
 *
 * Artifacts go to a temporary directory beside DIR and replace DIR only when every one of them
 * was written (backends/output.c, lang/outdir.c): a failed build leaves DIR as it was. The
 * summary and the diagnostics are written, and standard output and error flushed and checked,
 * before DIR is replaced: output that cannot be delivered (a full disk behind stdout, a closed
 * stream) fails the build with 74 and DIR untouched. Exit status: 1 when the spec has errors,
 * 2 when it is well formed but its requirements cannot all be met (each unmet one explained
 * with its numbers), 74 when the output cannot be written, 75 when another clusterc is
 * writing DIR. --timings prints each
 * stage's time and memory to standard error and puts the solve time in report.json (which then
 * differs from run to run; without it the output is byte-identical for identical input).
 */
#include "backends.h"
#include "driver.h"
#include "plan.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Where emit's split (--timings) keeps the cable ends' table (emit_write's ms[EMIT_MAX]) and
 * the commit, after the emitters (emit.c: 24). */
enum { EMIT_SPLIT_ENDS = EMIT_MAX, EMIT_SPLIT_COMMIT };

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process's CPU time so far, every thread's, ms: user and system (--timings' `cpu:` line,
 * which bench.py's floor reads: docs/performance.md). */
static void cpu_ms(double *user, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3;
	*sys = (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
}

/* --emit LIST: which artifacts; NULL means the default set (every one, but those written on
 * demand: switch_configs_write), "all" every one named. */
static bool emit_wanted(const char *list, const char *name)
{
	if (!list || strcmp(list, "all") == 0)
		return true;
	size_t n = strlen(name);
	for (const char *s = list; *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		if (len == n && strncmp(s, name, n) == 0)
			return true;
		s += len + (end ? 1 : 0);
	}
	return false;
}

static const char *emit_unknown(const char *list)
{
	static char bad[64];
	if (list && strcmp(list, "all") == 0)
		return NULL;
	for (const char *s = list; s && *s;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		bool known = false;
		for (int i = 0; emit_table[i].name; i++)
			known |= strlen(emit_table[i].name) == len && strncmp(emit_table[i].name, s, len) == 0;
		if (!known) {
			snprintf(bad, sizeof bad, "%.*s", (int)(len < 60 ? len : 60), s);
			return bad;
		}
		s += len + (end ? 1 : 0);
	}
	return NULL;
}

/* Each stage's wall time, the arena's growth in it, and the process's peak resident memory
 * when it ended (a high-water mark: the stage that raised it is the one that needed it). */
static void print_timings(const Timing *t, double emit_ms)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "%-10s %10s %12s %12s\n", "stage", "ms", "arena MiB", "peak MiB");
	double total = 0;
	for (int s = 0; s < STAGE_COUNT; s++) {
		fprintf(stderr, "%-10s %10.3f %12.3f %12.1f\n", pipeline_stage_names[s], t[s].ms,
			(double)t[s].bytes / (1 << 20), t[s].peak_mib);
		total += t[s].ms;
	}
	fprintf(stderr, "%-10s %10.3f %12s %12.1f\n", "emit", emit_ms, "",
		(double)ru.ru_maxrss / 1024);
	fprintf(stderr, "%-10s %10.3f\npeak RSS %.1f MiB\n", "total", total + emit_ms,
		(double)ru.ru_maxrss / 1024);
}

static void print_summary(const Design *d, const char *dir, bool named)
{
	const Totals *t = &d->t;
	char it[64], fac[64];
	qty_format((Qty){t->it_power, dim_make(0, 0, -1, 1, 0, 0)}, it, sizeof it);
	qty_format((Qty){t->facility_power, dim_make(0, 0, -1, 1, 0, 0)}, fac, sizeof fac);
	Buf capex = {0}, energy = {0}, tco = {0};
	text_money(&capex, t->capex);
	text_money(&energy, t->annual_energy_cost);
	text_money(&tco, t->tco);
	printf("%s -> %s/\n", diag_printable(d->p->c, d->p->root->src->path),
	       diag_printable(d->p->c, dir));
	printf("  %.0f accelerators in %.0f nodes and %.0f racks; IT power %s, facility %s (PUE %.3g)\n",
	       t->accelerators, t->nodes, t->racks, it, fac, t->pue);
	const char *cur = currency_name(d->currency);
	printf("  capex %s %s; energy %s %s a year; TCO over %g years %s %s\n", capex.s, cur,
	       energy.s, cur, t->horizon_years, tco.s, cur);
	for (int i = 0; i < d->decisions.n; i++) {
		const Decision *x = d->decisions.v[i];
		printf("  chose %s.%s = %s (of %d)\n", x->name, x->field_name,
		       diag_printable(d->p->c, x->chosen_text), x->ncandidates);
	}
	for (int i = 0; i < d->nplans; i++) {
		const WorkloadPlan *wp = &d->plans[i];
		const PlanConfig *pc = &wp->r.best;
		printf("  plan %s: %d GPUs at TP %d PP %d DP %d", wp->name, pc->gpus, pc->tp,
		       pc->pp, pc->dp);
		if (pc->cp > 1)
			printf(" CP %d", pc->cp);
		if (pc->ep > 1)
			printf(" EP %d", pc->ep);
		printf("; MFU %.1f%%, %.3g days to train\n", 100 * wp->r.cost.mfu,
		       wp->time_to_train / 86400);
	}
	int deferred = named ? 0 : switch_configs_deferred(d);
	if (deferred)
		printf("  switches/: the configurations of %d switches are written on demand "
		       "(--emit switches)\n", deferred);
	buf_free(&capex);
	buf_free(&energy);
	buf_free(&tco);
}

/* Writes the artifacts, then the summary and the diagnostics so far (*rendered), and replaces
 * DIR only once standard output and error took them. */
static int write_artifacts(const Options *o, Design *d, const char *dir, bool *rendered,
			   double *split)
{
	Ctx *c = d->p->c;
	Output *out = output_open(c, dir, o->force);
	if (!out)
		return c->output_busy ? EXIT_BUSY : EXIT_IO;
	output_set_named(out, o->emit != NULL);
	bool wanted[EMIT_MAX] = {false};
	for (int i = 0; emit_table[i].name && i < EMIT_MAX; i++)
		wanted[i] = emit_wanted(o->emit, emit_table[i].name);
	/* The switches' ports, which the address pass left to now (Design.switch_ports_later),
	 * when their files are written. */
	if (emit_wanted(o->emit, "switches") && !switch_configs_on_demand(out, d))
		switch_plan_ports(d);
	int errors = emit_write(out, d, wanted, 0, split); /* on emit_threads() threads */
	if (errors) {
		output_abort(out);
		return EXIT_IO;
	}
	if (!o->quiet && o->dopt.format == DIAG_TEXT)
		print_summary(d, dir, o->emit != NULL);
	diag_render(c, stderr);
	*rendered = true;
	if (!driver_streams_ok()) {
		output_abort(out);
		return EXIT_IO;
	}
	double t0 = now_ms();
	int rc = output_commit(out) ? EXIT_IO : EXIT_OK;
	split[EMIT_SPLIT_COMMIT] = now_ms() - t0;
	return rc;
}

int cmd_build(const Options *o, const char *path)
{
	arena_tune_heap();
	const char *bad = emit_unknown(o->emit);
	if (o->emit && !*o->emit) { /* nothing to write is a mistake, not a manifest alone */
		fprintf(stderr, "clusterc: --emit needs at least one artifact (the artifacts are");
		for (int i = 0; emit_table[i].name; i++)
			fprintf(stderr, "%s %s", i ? "," : "", emit_table[i].name);
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	if (bad) {
		fprintf(stderr, "clusterc: --emit: unknown artifact '%s' (the artifacts are", bad);
		for (int i = 0; emit_table[i].name; i++)
			fprintf(stderr, "%s %s", i ? "," : "", emit_table[i].name);
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	int dump = -1;
	if (o->dump && (dump = pipeline_stage_lookup(o->dump)) < 0) {
		fprintf(stderr, "clusterc: --dump: unknown pass '%s' (the passes are", o->dump);
		for (int s = 0; s < STAGE_COUNT; s++)
			fprintf(stderr, "%s %s", s ? "," : "", pipeline_stage_names[s]);
		fprintf(stderr, ")\n");
		return EXIT_USAGE;
	}
	Ctx *c = ctx_new(o->dopt);
	c->stdlib_dir = o->stdlib;
	c->verbose = o->verbose;
	Program p = {.c = c, .scenario = o->scenario, .sets = o->sets, .nsets = o->nsets,
		     .dump = dump, .dump_max = o->dump_max, .dump_out = stdout};
	Design d = {.verify = o->verify, .time_limit = o->time_limit, .exhaustive = o->exhaustive,
		    .timings = o->timings, .switch_ports_later = true};
	if (o->from) {
		int from_rc;
		d.prior = lock_read(c, o->from, &from_rc);
		if (!d.prior) {
			diag_render(c, stderr);
			ctx_free(c);
			return from_rc;
		}
	}
	Timing timings[STAGE_COUNT] = {{0}};
	int errors = pipeline_build(&p, &d, path, timings);
	int rc;
	if (p.internal_error)
		rc = EXIT_INTERNAL;
	else if (p.io_error)
		rc = EXIT_IO;
	else if (p.usage_error)
		rc = EXIT_USAGE;
	else if (errors > p.unmet)
		rc = EXIT_SPEC;
	else if (errors)
		rc = EXIT_UNMET;
	else
		rc = EXIT_OK;
	double emit_ms = 0, split[EMIT_SPLIT_COMMIT + 1] = {0};
	double user0, sys0;
	cpu_ms(&user0, &sys0);
	double user1 = user0, sys1 = sys0;
	bool rendered = false;
	if (rc == EXIT_OK) {
		const char *dir = o->output ? o->output : "out";
		double t0 = now_ms();
		rc = write_artifacts(o, &d, dir, &rendered, split);
		emit_ms = now_ms() - t0;
		cpu_ms(&user1, &sys1);
	}
	/* What replacing DIR had to say (rare: the JSON form then has a second document). */
	if (!rendered || c->diags.n)
		diag_render(c, stderr);
	if (o->timings) {
		print_timings(timings, emit_ms);
		/* CPU, every thread's: before emit (the stages and the ids' thread), and emit's
		 * user time (making the text, hashing it) and system time (creating and writing
		 * the files). */
		fprintf(stderr, "cpu: before emit user %.1f ms, system %.1f ms; emit user %.1f ms, "
			"system %.1f ms\n", user0, sys0, user1 - user0, sys1 - sys0);
		/* emit's split: each backend's time on the thread that ran it (making its text,
		 * and waiting when the writer's queue is full; with several threads, the times
		 * overlap and add up to more than emit's), the cable ends' table's (on its own
		 * thread, beside the writers that do not read it), then the commit (the writer's
		 * last files and hashes, the manifest, the swap). */
		for (int i = 0; i <= EMIT_SPLIT_COMMIT; i++)
			if (split[i] > 0)
				fprintf(stderr, "emit: %-14s %10.3f ms\n",
					i < EMIT_SPLIT_ENDS    ? emit_table[i].name
					: i == EMIT_SPLIT_ENDS ? "(ends' table)"
							       : "(commit)",
					split[i]);
		/* decide's split: the candidates' passes tabulated, the model built, solved and
		 * solved again for what each choice saved; the planner's searches within. */
		if (d.opt.solver && !strcmp(d.opt.solver, "glpk"))
			fprintf(stderr, "decide: passes %.1f ms (%d evaluations), model build %.1f ms "
					"(%d x %d), solve %.1f ms, re-solves %.1f ms (%d)\n",
				d.opt.ms_passes, d.opt.evaluations, d.opt.ms_build, d.opt.variables,
				d.opt.constraints, d.opt.ms_solve, d.opt.ms_resolve, d.opt.resolves);
		for (int i = 0; i < d.nnogoods; i++)
			fprintf(stderr, "decide: round %d rejected at cabling in %.1f ms: %s\n", i + 1,
				d.nogoods[i].ms, d.nogoods[i].text);
		if (d.opt.searches > 0 || d.opt.shared > 0)
			fprintf(stderr, "decide: planner %.0f searches, %.0f plans in %.1f ms, %.3g plans/s"
					"; %.0f read from an earlier round or row\n",
				d.opt.searches, d.opt.plans, d.opt.plan_ms,
				d.opt.plan_ms > 0 ? d.opt.plans / (d.opt.plan_ms / 1e3) : 0, d.opt.shared);
		/* The planner's search per workload: plans costed, its time, plans per second. */
		for (int i = 0; i < d.nplans; i++) {
			const PlanResult *r = &d.plans[i].r;
			fprintf(stderr, "plan %s: %.0f plans in %.3f ms, %.3g plans/s\n",
				d.plans[i].name, r->evaluated, r->ms,
				r->ms > 0 ? r->evaluated / (r->ms / 1e3) : 0);
		}
	}
	ctx_free(c);
	if (!driver_streams_ok() && rc == EXIT_OK)
		rc = EXIT_IO;
	return rc;
}
