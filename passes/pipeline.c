/*
 * pipeline.c — the only place that lists the passes, in order, one call per line. Each pass
 * returns its error count; the run stops at the first pass boundary with errors, with one
 * exception: after resolve, the check pass still runs (it skips whatever did not resolve), so a
 * misspelt field and a unit mismatch are reported in the same run. With timings it records
 * each stage's wall time, the arena's growth and the process's peak memory at its end.
 */
#include "passes.h"

#include <string.h>
#include <sys/resource.h>
#include <time.h>

const char *const pipeline_stage_names[STAGE_COUNT] = {
#define X(id, name) name,
	STAGES(X)
#undef X
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process's peak resident set so far, MiB (Linux reports ru_maxrss in KiB). */
static double peak_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024;
}

/* Runs one pass, timing it; adds its errors to `errors`; prints the IR when asked. */
#define STAGE(id, call)                                                         \
	do {                                                                    \
		double t0 = now_ms();                                           \
		size_t b0 = arena_bytes(p->c->arena);                           \
		errors += (call);                                               \
		if (timings) {                                                  \
			timings[id].ms = now_ms() - t0;                         \
			timings[id].bytes = arena_bytes(p->c->arena) - b0;      \
			timings[id].peak_mib = peak_mib();                      \
		}                                                               \
		if (p->dump == (int)(id) && p->dump_out)                        \
			dump_stage(p, DESIGN, id, p->dump_out, p->dump_max);    \
	} while (0)
#define STOP_IF_ERRORS() do { if (errors || p->usage_error) return errors; } while (0)

#define DESIGN NULL
int pipeline_front(Program *p, const char *path, Timing timings[STAGE_COUNT])
{
	int errors = 0;
	STAGE(STAGE_LOAD, p->load ? p->load(p, path) : load_program(p, path));
	STOP_IF_ERRORS();
	STAGE(STAGE_RESOLVE, resolve_program(p));
	STAGE(STAGE_OVERRIDES, scenario_apply(p));
	if (p->usage_error)
		return errors;
	STAGE(STAGE_CHECK, check_program(p));
	return errors;
}

/* The passes of one candidate design while the open choices are explored: its racks, its
 * fabrics sized, its network racks, its model; then its requirements and objectives. Quiet:
 * what they find is recorded, not reported (decide.c keeps the best candidate and evaluates it
 * again for the record). */
static void model_candidate(Design *d)
{
	racks_plan(d);
	fabric_size(d);
	place_network_racks(d);
	model_design(d);
}

static void judge_candidate(Design *d)
{
	judge_require(d);
	judge_objectives(d);
}

/* The whole pipeline up to the artifacts: the front end, then the design's frame and parts,
 * the open choices decided (each candidate through the passes above), the instances, and the
 * requirements the kept design does not meet (exit 2). */
#undef DESIGN
#define DESIGN d
static int build_once(Program *p, Design *d, const char *path, Timing timings[STAGE_COUNT])
{
	int errors = pipeline_front(p, path, timings);
	if (errors || p->usage_error)
		return errors;
	STAGE(STAGE_DESIGN, design_init(d, p));
	STOP_IF_ERRORS();
	STAGE(STAGE_PARTS, parts_lower(d));
	d->model_candidate = model_candidate;
	d->judge_candidate = judge_candidate;
	STAGE(STAGE_DECIDE, decide_choices(d));
	STOP_IF_ERRORS();
	STAGE(STAGE_ELABORATE, elaborate_design(d));
	STAGE(STAGE_PLACE, place_racks(d));
	STAGE(STAGE_NAMES, elaborate_names(d));
	STOP_IF_ERRORS();
	/* A design that misses its requirements is not wired: its violations say why. */
	if (d->violations.n == 0) {
		/* The physical passes, or what they did in an earlier row of a compare worker */
		if (!d->physical_kept || !d->physical_kept(d, false)) {
			STAGE(STAGE_WIRE, wire_fabrics(d));
			STAGE(STAGE_MOUNT, place_devices(d));
			STAGE(STAGE_KEEP, expand_keep(d));
			STAGE(STAGE_VERIFY, verify_fabrics(d));
			STOP_IF_ERRORS();
			STAGE(STAGE_CABLE, cable_fabrics(d));
			STAGE(STAGE_TRUNK, trunk_fabrics(d));
			STAGE(STAGE_HEAT, heat_racks(d));
			STAGE(STAGE_VERIFY_MEDIA, verify_media(d));
			STOP_IF_ERRORS();
			if (d->physical_kept)
				d->physical_kept(d, true);
		}
		/* The cables' ids and the schedulers' tree feed the artifacts, the dump and a
		 * build --from's changes only, and say nothing: a row of `compare` goes without. */
		if (ir_cables_named(d))
			STAGE(STAGE_IDS, ir_name_cables(d));
		STAGE(STAGE_CHANGES, expand_plan(d));
		STAGE(STAGE_COST, model_design(d));
		STAGE(STAGE_FEEDS, power_chain_feeds(d));
		STAGE(STAGE_JUDGE, judge_design(d));
		STAGE(STAGE_ADDRESS, switch_plan_fabrics(d));
		if (!d->numbers_only)
			STAGE(STAGE_SCHED, sched_plan(d));
		STAGE(STAGE_REPORT, decide_report(d));
	}
	STAGE(STAGE_PLAN, plan_workloads(d));
	STAGE(STAGE_RELIABILITY, reliability_plan(d));
	STAGE(STAGE_FINANCE, finance_model(d));
	STAGE(STAGE_VALIDATE, design_validate(d));
	if (errors == p->unmet) /* overflow is judged on a design with no other spec errors */
		STAGE(STAGE_OVERFLOW, overflow_check(d));
	return errors;
}

int pipeline_stage_lookup(const char *name)
{
	for (int s = 0; s < STAGE_COUNT; s++)
		if (strcmp(pipeline_stage_names[s], name) == 0)
			return s;
	return -1;
}

/* The choices are made before the cables exist (docs/optimization.md). When the cables of the
 * design kept break a requirement the decision met, decide again with every link counted at
 * the design's own cabling capex and power per link: once, from a fresh parse (deciding wrote
 * the choices into the program), the first attempt's diagnostics dropped. */
static bool decide_again(const Program *p, const Design *d, int errors)
{
	if (errors != p->unmet || !errors || d->decisions.n == 0 || d->ncables == 0 ||
	    d->cable_hint_money > 0 || d->cable_hint_watts > 0 || d->t.cables <= 0)
		return false;
	if (d->opt.status && !strcmp(d->opt.status, "infeasible"))
		return false;
	for (int i = 0; i < d->violations.n; i++)
		if (!((const Violation *)d->violations.v[i])->requirement)
			return false;
	return true;
}

/* The choices do not weigh which media reach (docs/optimization.md). When the only violations
 * of the kept design are links no medium in scope joins, the options responsible are excluded
 * (decide_cable_nogood) and the choices decided again, from a fresh parse: at most
 * MAX_CABLE_ROUNDS times. Not when the exclusion would leave a family no option: the design
 * stands, its violation reported. */
enum { MAX_CABLE_ROUNDS = 4 };

static bool leaves_an_option(const Design *d, const CableNogood *ng)
{
	if (ng->n != 1)
		return true;
	const Decision *x = d->decisions.v[ng->fam[0]];
	int banned = 1;
	for (int g = 0; g < d->nnogoods; g++)
		banned += d->nogoods[g].n == 1 && d->nogoods[g].fam[0] == ng->fam[0];
	return banned < x->ncandidates;
}

static bool reject_at_cabling(const Program *p, Design *d, int errors, CableNogood *ng)
{
	if (errors != p->unmet || !errors || d->decisions.n == 0 || d->nnogoods >= MAX_CABLE_ROUNDS)
		return false;
	if (d->opt.status && !strcmp(d->opt.status, "infeasible"))
		return false;
	return decide_cable_nogood(d, ng) && leaves_an_option(d, ng);
}

int pipeline_build(Program *p, Design *d, const char *path, Timing timings[STAGE_COUNT])
{
	Ctx *c = p->c;
	int ndiags = c->diags.n, nerrors = c->nerrors, nwarnings = c->nwarnings;
	Program first = *p;
	Design fresh = *d;
	CableNogood *nogoods = NULL;
	int nnogoods = 0;
	for (;;) {
		double t0 = now_ms();
		int errors = build_once(p, d, path, timings);
		ir_cable_leads_end(d); /* a build that stopped before the ids stage */
		CableNogood ng;
		bool reject = reject_at_cabling(p, d, errors, &ng);
		bool again = !reject && decide_again(p, d, errors);
		if (!reject && !again)
			return errors;
		double money = again ? d->t.capex_by_cat[CAT_CABLING] / d->t.cables : 0;
		double watts = again ? d->t.cabling_power / d->t.cables : 0;
		double hint_money = d->cable_hint_money, hint_watts = d->cable_hint_watts;
		if (reject) {
			ng.ms = now_ms() - t0;
			CableNogood *grown = arena_alloc(c->arena, sizeof *grown * (size_t)(nnogoods + 1));
			if (nnogoods)
				memcpy(grown, nogoods, sizeof *grown * (size_t)nnogoods);
			grown[nnogoods++] = ng;
			nogoods = grown;
		}
		c->diags.n = ndiags, c->nerrors = nerrors, c->nwarnings = nwarnings;
		*p = first;
		p->dump = -1; /* printed by the first attempt */
		*d = fresh;
		d->nogoods = nogoods, d->nnogoods = nnogoods;
		d->cable_hint_money = again ? (money > 0 ? money : 0) : hint_money;
		d->cable_hint_watts = again ? (watts > 0 ? watts : 0) : hint_watts;
	}
}
