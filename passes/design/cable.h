/*
 * cable.h — what cable.c (runs, the catalogue, the ends of a link) hands cage.c (the media of
 * every cage, chosen jointly for the links that share it). Private to passes/design.
 */
#ifndef CLUSTERC_CABLE_H
#define CLUSTERC_CABLE_H

#include "passes.h"

/* The share of a run added as slack (cable.c; heat.c moves runs by it). */
#define CABLE_SLACK_SHARE 0.10

/* A cable or an optic of the catalogue, with the figures the choice reads. */
typedef struct Medium {
	const Part *part;
	bool optic;          /* a transceiver (else a cable) */
	int media;           /* cable: Media */
	int fiber;           /* Fiber a transceiver drives or a fibre cable is, or -1 */
	int cage;            /* Connector: the cage a transceiver or cable end fits, or -1 for any */
	int plug;            /* Connector: a transceiver's receptacle, a fibre's plug, or -1 */
	double speed, reach, price, price_per_m, power;
	int ports;           /* logical ports of a module, or of an assembly's head end */
	int legs;            /* an assembly's ends on the far side (its breakout), 1 for a module */
	const double *lengths; /* stocked lengths, ascending */
	int nlengths;
} Medium;

typedef struct Catalogue {
	Medium *m;
	int n;
} Catalogue;

/* The cage of a link's end, what the choice of media reads (cage.c): 24 bytes, kept for both
 * ends of every link of a fabric at once (the dragonfly's 1.3 million ends: 31 MB; 42 MB with
 * a reach of its own beside the room, 52 with ints for the narrow fields). */
typedef struct CageEnd {
	union {
		double room;  /* bit/s the cage carries (its physical ports at port speed), 0
			       * unknown: any end but an OCS's */
		double reach; /* m an OCS end (ocs) allows: it has no cage and no room */
	};
	int sw;        /* the switch, or -1 */
	int cage_no;   /* the switch's cage (from 0) the port is in, or -1 */
	int16_t cage;  /* Connector, or -1 for a device whose cage is not modelled */
	int16_t lane;  /* the port's lane in that cage (from 0) */
	int16_t lanes; /* logical ports of that cage at the link speed (at most CAGE_LANES_MAX);
			* 1 for a NIC port */
	bool nic;      /* a NIC's port: cables are sold with the NIC end it needs */
	bool ocs;      /* an optical circuit switch's port: bare fibre, no module, within reach */
} CageEnd;
#define CAGE_LANES_MAX INT16_MAX

/* Where an end of a link stands: its rack and U, and the cage of its port. */
typedef struct Spot {
	const RackInst *rack;
	int u;
	CageEnd end;
} Spot;

/* The scratch tables of one call of the cable stage (cage.c): from an arena of their own when
 * they come to CAGE_TABLES_HUGE bytes or more together (huge pages, zeroed, freed or kept by
 * arena_free: the dragonfly's 650,000 links faulted in some 40,000 pages of 4 KiB through
 * malloc), else from malloc, whose heap a compare worker keeps from row to row (an arena's kept
 * chunks would be zeroed again for every row). docs/performance.md, "Cable stage, fifth pass". */
#define CAGE_TABLES_HUGE ((size_t)8 << 20)
enum { CAGE_TABLES_MAX = 24 };
typedef struct CageTables {
	Arena *arena; /* or NULL: malloc */
	void *block[CAGE_TABLES_MAX];
	int n;
} CageTables;

/* CageTables for a call that will ask for about `total` bytes. */
void cage_tables_init(CageTables *t, size_t total);
/* n records of `each` bytes, zeroed when `zero` (always, from the arena). */
void *cage_tables_get(CageTables *t, size_t each, size_t n, bool zero);
void cage_tables_free(CageTables *t);

/* Where an end of a link stands (cable.c). */
Spot cable_spot(const Design *d, End e);

/* The run between two ends (m), slack included: up to the tray over each rack (h: the rack's
 * height; tray: the tray above it), along the floor, down; in one rack the distance between
 * the two units (cable.c). */
double cable_run(Spot a, Spot z, double h, double tray);

/* The media of fabric fi's cables chosen again for the runs they now hold (trunk.c: a link
 * through a trunk must reach across its cords and trunk). Returns the index into Design.cables
 * of a cable no medium serves, or -1. */
int cable_choose_again(Design *d, int fi);

/* What a medium adds to the objective: per unit of money and per watt. */
typedef struct Weights {
	double money, watt;
} Weights;

/* The stocked length a run is rounded up to, or -1 when the medium has none that long. */
double cage_stocked(const Medium *m, double run);

/* Every switch's cages as one range of ids: switch i's cage k is base[i] + k; slot[id] is -1
 * between calls of cage_choose (which uses it as scratch). */
typedef struct CageIndex {
	int *base; /* nswitches + 1 */
	int *slot;
} CageIndex;

/* Media for the n cables `c` of one fabric (or scale-up domain), whose links' ends are a[i] and
 * z[i]; c[i] holds its link and run, and `first` is the index of c[0] in Design.cables. The
 * links that share a switch cage are chosen together (cage.c). Returns the index into c of a
 * cable that no medium in the catalogue serves, or -1 when every one is served. */
int cage_choose(Design *d, const CageIndex *index, const Catalogue *cat, Weights w, CableInst *c,
		const CageEnd *a, const CageEnd *z, int n, int first);

#endif
