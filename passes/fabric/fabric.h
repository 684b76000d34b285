/*
 * fabric.h — what the fabric passes share (passes/fabric/ only): the sizing helpers every
 * topology family uses, the smallest-change suggestions, the wiring base and the base of the
 * scheduler's tree (sched.c). The families themselves are rows of family.c's table (ir.h:
 * TopologyFamily), one file each.
 */
#ifndef CLUSTERC_FABRIC_H
#define CLUSTERC_FABRIC_H

#include "passes.h"

/* A count the spec wrote, as an int. check.c lets whole numbers reach 2^53; far past any
 * fabric, they are clamped to FABRIC_COUNT_MAX + 1 so that comparisons still find them too
 * large and the int arithmetic cannot overflow (messages print the number as written). */
#define FABRIC_COUNT_MAX (1 << 24)
/* The largest switch radix (logical ports) and fabric (links per plane) sized. The biggest
 * switches sold have 512 logical ports (51.2 Tb/s at 100G) and the 100,000-GPU example has
 * 304,064 links; the limits keep every product of the shapes inside an int or a long. */
#define FABRIC_RADIX_MAX 2048
#define FABRIC_LINKS_MAX (1L << 27)

/* ---- shape.c: sizing shared by the families ------------------------------------------------- */

int shape_count(double v);
/* False (after a Violation) when a plane of `links` links is more than FABRIC_LINKS_MAX. */
bool shape_wirable(Design *d, const FabricInst *f, Loc at, double links);
/* A parameter whose default a family computes: its number, or def when absent or open. */
double shape_param(const Value *ctor, ParamId p, double def);
/* The smallest divisor of n that is at least want, or 0 when want > n. */
int shape_divisor_at_least(int n, int want);
/* A bandwidth as messages print it ("400 Gbps"), in the arena. */
char *shape_gbps(Design *d, double v);
/* Whether a message may offer a smallest change: not while choices are explored, and not
 * inside the sizing of a probe (a suggestion inside a suggestion). */
bool shape_suggesting(const Design *d, const FabricInst *f);
/* The split of k ports for a down:up ratio (fabric.c says how); false after a Violation. */
bool shape_split_ports(Design *d, FabricInst *f, Loc at, const char *tier, int k,
			double down_ratio, double up_ratio, int *down, int *up);
/* The down:up ratio a oversubscription value gives tier `tier` (1:1 when it says none). */
void shape_ratio_at(const Value *v, int tier, double *down, double *up);
/* Whether the shape would hold with another plane count, radix or (fat trees) tier count:
 * sized again on a copy, its violations dropped. */
bool shape_fits(Design *d, const FabricInst *f, const Value *topo, int nodes,
		       int extra_ports, int planes, int radix, int tiers);
/* "planes = P": the fewest planes (a divisor of the rails, more than now) that fit; NULL. */
const char *shape_more_planes(Design *d, const FabricInst *f, const Value *topo, int nodes,
			       int extra_ports);
/* "a switch with K ports at SPEED or more" (up to 4 times the radix), or NULL. */
const char *shape_more_ports(Design *d, const FabricInst *f, const Value *topo, int nodes,
			      int extra_ports);
/* "A, or B", "A", "B" or `otherwise`. */
const char *shape_either(Design *d, const char *a, const char *b, const char *otherwise);

/* ---- wire.c: the wiring base ------------------------------------------------------------------ */

typedef struct Endpoint {
	End end;
	int rail; /* within its plane */
} Endpoint;

/* Port `port` of switch `dev`, as a link end. */
static inline End wire_switch_end(int dev, int port)
{
	return (End){END_SWITCH, dev, port};
}

/* The digits of the numbers in generated names among `count`: 3, more from 1,000. */
int wire_name_width(int count);
/* A new switch of fabric fi in tier t; its name is FABRIC[-pPLANE]-TIER-NNN. */
SwitchInst *wire_add_switch(Design *d, FabricInst *f, int fi, SwitchTier t, int plane, int index);
/* A new link of fabric fi (-1: scale-up) between a and z; its switches' ports used counted.
 * Inline: the families add every link through it (the dragonfly's 650,000). */
static inline void wire_add_link(Design *d, End a, End z, double speed, LinkTier tier, int plane,
				 int rail, int fi)
{
	LinkInst *l = &d->links[d->nlinks++];
	*l = (LinkInst){a, z, speed, (uint8_t)tier, (uint8_t)plane, (int16_t)rail, fi};
	if (a.kind == END_SWITCH)
		d->switches[a.dev].used++;
	if (z.kind == END_SWITCH)
		d->switches[z.dev].used++;
}
/* The fabric's NIC ports of node n, in order (its rails): indices into Design.ports. */
int wire_node_ports(const Design *d, int n, const FabricInst *f, int *out, int max);
/* Whether node group g has ports on fabric f: a NIC of the fabric's model (fabric.c counts
 * its rails the same way). */
bool wire_group_on(const Design *d, const FabricInst *f, int g);
/* The endpoints of one plane, in the order the layout numbers them. */
int wire_plane_endpoints(Design *d, FabricInst *f, int plane, Endpoint *out);
int wire_plane_rail(const FabricInst *f, int plane, int r);

/* ---- sched.c: the scheduler's tree, as the families' sched hooks build it ---------------------- */

/* A link of the tree: switch `child` below switch `parent` (indices into SchedTree.sw). */
typedef struct SchedPair {
	int parent, child;
} SchedPair;

/* A new switch of the tree (its index); tier 0 are leaves. */
int sched_add_switch(SchedTree *t, Arena *a, const char *name, int tier, bool virt);
/* Each switch's children from the (parent, child) pairs, sorted and without repeats (p is
 * sorted in place); once, after every switch is added. */
void sched_link(SchedTree *t, Arena *a, SchedPair *p, int n);
/* The fabric's switch (index into Design.switches) serving each node's first port (rail 0)
 * in plane 1 by a link of the given tier, or -1. */
void sched_first_ports(const Design *d, int fi, LinkTier tier, int *sw_of);
/* The units of blocks are the tree's switches so far (a leaf, a rack): unit i is switch i. */
void sched_switch_units(SchedTree *t, Arena *a);

/* ---- torus_layout.c: a torus's positions (torus.c) ------------------------------------------- */

/* Position i's coordinates, and back; the block of coordinates c, in block order. */
void torus_layout_coord(const FabricInst *f, int i, int c[3]);
int torus_layout_pos(const FabricInst *f, const int c[3]);
int torus_layout_block(const FabricInst *f, const int c[3]);
/* Links of a block's face in dimension k (Π_{j≠k} B_j). */
int torus_layout_face_links(const FabricInst *f, int k);
/* The + neighbour of c in dimension k (twisted or not). */
void torus_layout_next(const FabricInst *f, const int c[3], int k, int nc[3]);
/* The longest shortest path between the torus's positions, by breadth-first search. */
int torus_layout_diameter(const FabricInst *f, int positions);

/* ---- the families (family.c's table) ---------------------------------------------------------- */

/* Each family's passes, in passes/fabric/NAME.c (NAME as schema.def's TOPOLOGY row writes it):
 * a family without its file does not link. */
#define TOPOLOGY(id, name, doc)                                                                 \
	bool name##_size(Design *d, FabricInst *f, const Value *topo, int nodes, int extra_ports); \
	void name##_wire(Design *d, FabricInst *f, int fi);                                       \
	int name##_rack_groups(const FabricInst *f, int plane, int fit, RackGroupSpec *out);      \
	void name##_describe(const FabricInst *f, Buf *b);                                        \
	void name##_summary(const FabricInst *f, Buf *b);                                       \
	void name##_check(Ctx *c, const Value *topo);                                             \
	void name##_sched(SchedTree *t, const Design *d, int fi, Arena *a);                      \
	int name##_rack_nodes(const Value *topo);
#include "schema.def"

#endif
