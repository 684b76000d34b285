/*
 * pipeline.c — the only place that lists the passes, in order, one call per line. Each pass
 * returns its error count; the run stops at the first pass boundary with errors, with one
 * exception: after resolve, the check pass still runs (it skips whatever did not resolve), so a
 * misspelt field and a unit mismatch are reported in the same run. With timings it records
 * each stage's wall time and the arena's growth.
 */
#include "passes.h"

#include <time.h>

const char *const stage_names[STAGE_COUNT] = {"load", "resolve", "overrides", "check"};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Runs one pass, timing it; adds its errors to `errors`. */
#define STAGE(id, call)                                                         \
	do {                                                                    \
		double t0 = now_ms();                                           \
		size_t b0 = arena_bytes(p->c->arena);                           \
		errors += (call);                                               \
		if (timings) {                                                  \
			timings[id].ms = now_ms() - t0;                         \
			timings[id].bytes = arena_bytes(p->c->arena) - b0;      \
		}                                                               \
	} while (0)
#define STOP_IF_ERRORS() do { if (errors || p->usage_error) return errors; } while (0)

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
