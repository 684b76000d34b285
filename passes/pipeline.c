/*
 * pipeline.c — the only place that lists the passes, in order, one call per line. Each pass
 * returns its error count; the run stops at the first pass boundary with errors, with one
 * exception: after resolve, the check pass still runs (it skips whatever did not resolve), so a
 * misspelt field and a unit mismatch are reported in the same run. With timings it records
 * each stage's wall time and the arena's growth.
 */
#include "passes.h"

#include <time.h>

const char *const stage_names[STAGE_COUNT] = {
	"load", "resolve", "overrides", "check", "design", "decide", "elaborate", "wire", "verify",
	"cable", "plan", "validate"};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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
		}                                                               \
		if (p->dump == (int)(id) && p->dump_out)                        \
			dump_stage(p, DESIGN, id, p->dump_out);                 \
	} while (0)
#define STOP_IF_ERRORS() do { if (errors || p->usage_error) return errors; } while (0)

#define DESIGN NULL
int pipeline_front(Program *p, const char *path, Timing timings[STAGE_COUNT])
{
	int errors = 0;
	STAGE(STAGE_LOAD, load_program(p, path));
	STOP_IF_ERRORS();
	STAGE(STAGE_RESOLVE, resolve_program(p));
	STAGE(STAGE_OVERRIDES, apply_overrides(p));
	if (p->usage_error)
		return errors;
	STAGE(STAGE_CHECK, check_program(p));
	return errors;
}

/* The whole pipeline up to the artifacts: the front end, then the design's frame, the open
 * choices decided (each candidate planned, costed and checked), the instances, and the
 * requirements the kept design does not meet (exit 2). */
#undef DESIGN
#define DESIGN d
int pipeline_build(Program *p, Design *d, const char *path, Timing timings[STAGE_COUNT])
{
	int errors = pipeline_front(p, path, timings);
	if (errors || p->usage_error)
		return errors;
	STAGE(STAGE_DESIGN, design_init(d, p));
	STOP_IF_ERRORS();
	STAGE(STAGE_DECIDE, decide_choices(d));
	STOP_IF_ERRORS();
	STAGE(STAGE_ELABORATE, elaborate_design(d));
	STOP_IF_ERRORS();
	/* A design that misses its requirements is not wired: its violations say why. */
	if (d->violations.n == 0) {
		STAGE(STAGE_WIRE, wire_fabrics(d) + place_devices(d));
		STAGE(STAGE_VERIFY, verify_fabrics(d));
		STOP_IF_ERRORS();
		STAGE(STAGE_CABLE, cable_fabrics(d) + cost_cables(d));
	}
	STAGE(STAGE_PLAN, plan_workloads(d));
	STAGE(STAGE_VALIDATE, report_violations(d));
	return errors;
}
