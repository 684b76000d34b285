/*
 * family.c — the topology families: one row per TOPOLOGY row of lang/schema.def, so a topology
 * the language accepts always has its passes (a family without its file does not link) and
 * every place that needs to know what a topology is asks this table, never its name. Adding a
 * family: its row in schema.def (constructor and parameters), its file passes/fabric/NAME.c
 * with NAME_size, NAME_wire, NAME_rack_groups, NAME_describe, NAME_summary, NAME_check,
 * NAME_sched and NAME_rack_nodes, its row's data below, and its tests.
 */
#include "fabric.h"

/* The tiers report.json lists for each family, in report order: a fat tree always lists leaf,
 * spine and core (0 for absent tiers, as the contract shows); a dragonfly its routers; a torus
 * its optical circuit switches and the fibres to them (0 when its blocks are cabled directly). */
static const int fat_tree_switch_tiers[] = {ST_LEAF, ST_SPINE, ST_CORE, -1};
static const int fat_tree_link_tiers[] = {LT_NODE_LEAF, LT_LEAF_SPINE, LT_SPINE_CORE, -1};
static const int dragonfly_switch_tiers[] = {ST_ROUTER, -1};
static const int dragonfly_link_tiers[] = {LT_TERMINAL, LT_LOCAL, LT_GLOBAL, -1};
static const int torus_switch_tiers[] = {ST_OCS, -1};
static const int torus_link_tiers[] = {LT_TORUS, LT_OCS, -1};

/* What each family is, beside its passes (TopologyFamily's fields). */
#define fat_tree_DATA .switched = true, .tree = true
#define dragonfly_DATA .switched = true, .shape_key = "dragonfly"
#define torus_DATA .switched = false, .shape_key = "dims", .shape_list = true

const TopologyFamily topology_families[TOPO_COUNT] = {
#define TOPOLOGY(id, ident, doc)                                                               \
	[TOPO_##id] = {.kind = TOPO_##id, .name = #ident, ident##_DATA,                          \
		       .switch_tiers = ident##_switch_tiers, .link_tiers = ident##_link_tiers,   \
		       .size = ident##_size, .wire = ident##_wire,                              \
		       .rack_groups = ident##_rack_groups, .describe = ident##_describe,        \
		       .summary = ident##_summary, .check = ident##_check,                      \
		       .rack_nodes = ident##_rack_nodes,                                        \
		       .sched = ident##_sched},
#include "schema.def"
};
