/*
 * plan_share.c — the planner's searches shared between the builds of one `clusterc compare`
 * (lang/share.c; docs/performance.md, issue 23). A sweep's points mostly ask the planner the
 * same question: the same workload on the same hardware (a sweep of electricity prices or
 * power budgets changes neither). plan_search_shared looks each search up by its inputs and
 * searches only what no build of the comparison has searched before.
 *
 * The key holds every input plan_search reads: PlanModel; PlanHw without the accelerator and
 * node pointers (the search reads neither; their numbers are in the key) and without the
 * power, PUE and price (they only scale energy and cost, computed outside the search); and
 * PlanSpace with each knob's list of values in place of its pointer. plan_search is a pure
 * function of those, so a result found here is the result the search would give. A PlanResult
 * holds no pointer; its `ms` is the first search's.
 */
#include "plan.h"
#include "share.h"

#include <stdlib.h>
#include <string.h>

static size_t put(unsigned char *k, size_t at, const void *v, size_t n)
{
	memcpy(k + at, v, n);
	return at + n;
}

bool plan_search_shared(const PlanModel *m, const PlanHw *hw, const PlanSpace *sp, PlanResult *out)
{
	size_t size = sizeof *m + sizeof *hw + sizeof *sp;
	for (int i = 0; i < KNOB_COUNT; i++)
		size += sizeof(double) * (size_t)(sp->knob[i].n > 0 ? sp->knob[i].n : 0);
	unsigned char *key = xmalloc(size);
	PlanHw h;
	memcpy(&h, hw, sizeof h); /* the padding too: plan_inputs zeroes the whole structs */
	h.accel = h.node = NULL;
	h.gpu_power = h.pue = h.price_per_j = 0;
	PlanSpace s;
	memcpy(&s, sp, sizeof s);
	for (int i = 0; i < KNOB_COUNT; i++)
		s.knob[i].vals = NULL;
	size_t n = put(key, 0, m, sizeof *m);
	n = put(key, n, &h, sizeof h);
	n = put(key, n, &s, sizeof s);
	for (int i = 0; i < KNOB_COUNT; i++)
		if (sp->knob[i].n > 0 && sp->knob[i].vals)
			n = put(key, n, sp->knob[i].vals, sizeof(double) * (size_t)sp->knob[i].n);
	size_t got = 0;
	const void *r = share_get("plan", key, n, &got);
	bool read = r && got == sizeof *out;
	if (read) {
		memcpy(out, r, sizeof *out);
	} else {
		plan_search(m, hw, sp, out);
		share_put("plan", key, n, out, sizeof *out);
	}
	free(key);
	return read;
}
