/*
 * names.c — how reports and drawings name the IR's kinds (ir.h's tables).
 */
#include "ir.h"

const char *const ir_link_tier_names[LT_COUNT] = {
#define X(t, s) s,
	LINK_TIERS(X)
#undef X
};
const char *const ir_switch_tier_names[ST_COUNT] = {
#define X(t, s) s,
	SWITCH_TIERS(X)
#undef X
};


const char *const ir_category_names[CAT_COUNT] = {"nodes", "network", "storage", "other",
					       "cabling", "racks", "cooling", "power"};
