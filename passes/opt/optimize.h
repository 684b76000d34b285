/*
 * optimize.h — what optimize.c and factor.c share (passes/opt/ only): the attributes the
 * requirements and objectives read, the factors and their tables, the optimizer's state.
 */
#ifndef CLUSTERC_OPTIMIZE_H
#define CLUSTERC_OPTIMIZE_H

#include "opt.h"

enum { MAX_JOINT = 100000 };

/* An attribute a require or objective reads: cluster totals (summed over factors), a workload's
 * prediction (the WORK factor's), or a constant (a settable field). */
typedef enum { ATOM_TOTAL, ATOM_FABRIC, ATOM_WORK, ATOM_CONST } AtomKind;

/* ATOM_FABRIC: an attribute of one fabric (its bisection, switches, diameter; the cluster's
 * bisection_bandwidth is its first fabric's), which is no sum over the parts: all of it is
 * that fabric's factor's, and the design without the fabric has none. */
typedef struct Atom {
	const Expr *e;    /* the MEMBER expression */
	AtomKind kind;
	double value;     /* ATOM_CONST */
	int fabric;       /* ATOM_FABRIC: the cluster's fabric, from 0 */
	unsigned flags;   /* the attribute's schema flags (F_READS_POWER ...), 0 for a constant */
	bool rate;        /* ATOM_TOTAL tabulated as its inverse: cluster.job_mtbf, whose rate
			   * (RATE_UNIT / mtbf) is the sum over the parts (nodes, each fabric), the
			   * mtbf no sum; a require or objective reads it alone against a constant
			   * (optimize.c, rate_form) */
} Atom;

/* A rate atom's unit: interruptions a year, not a second. Per second a cluster's rate is
 * 1e-9..1e-4 and the options' differences smaller still, under GLPK's branch-and-bound
 * tolerance (a node is pruned unless it improves the incumbent by 1e-6 * (1 + |objective|),
 * glpios01.c ios_is_hopeful): `maximize C.job_mtbf` kept a worse design. */
#define RATE_UNIT SECONDS_PER_YEAR

typedef struct Factor {
	const char *name;
	int fabric;       /* -1 NODES, -2 WORK, -3 a ZONE's, else the fabric */
	int zone;         /* a zone's factor: the zone (Design.zones) */
	unsigned long long exclude; /* families whose reads it ignores: held at their first
				     * option, they are other factors' (the zones' own choices) */
	int *fams;
	int nfams;
	int njoint;
	bool *ok;         /* njoint: the part can be built */
	double *val;      /* njoint × natoms: the part's contribution to each atom */
	double *racks;    /* njoint: racks */
	int *var;         /* njoint: w variables, or -1 (one family: its x) */
	int cap;          /* joint options the arrays hold */
	unsigned long long mask; /* its families, a bit each */
} Factor;

typedef struct Opt {
	Design *d;
	Arena *a;
	PtrVec *opens;    /* OpenChoice* */
	int nfam;
	Atom *atoms;
	int natoms, cap_atoms;
	int atom_racks, atom_facility; /* built-in atoms for the floor and the budget */
	Factor *factors;
	int nfactors;
	int first_zone_factor, nzone_factors; /* the zones' factors, after the nodes' */
	int **x;          /* x[F][i]: variable of option i of family F */
	LpModel *m;
	int *row_of_req;  /* require index -> row, or -1 */
	int floor_row, budget_row;
	int evaluations;
	bool work_model;  /* the workloads' factor needs the whole model (work_needs_model) */
	bool obj_rate;    /* the first objective is cluster.job_mtbf, solved as its rate */
	double *req_mtbf; /* per require: the mtbf limit of a rate row (rate_form), else NAN */
} Opt;

/* Family i's bit in the read sets (Field.choices, field_reads): families past the 63rd share
 * the last bit, so a read of one of them counts as a read of them all (more families in a
 * factor than it needs, never fewer). */
static inline unsigned long long factor_bit(int i)
{
	return 1ull << (i < 63 ? i : 63);
}

/* ---- factor.c ------------------------------------------------------------------------------- */

/* Adds factor `name`: the nodes' (fabric -1), fabric `fabric`'s, or the workloads' (-2). */
void factor_add(Opt *o, const char *name, int fabric);
/* A workload attribute read needs the whole model (energy_to_train, cost_to_train). */
bool factor_work_needs_model(const Opt *o);
/* The factor's table over the open choices its evaluations read; false when it would have
 * more than MAX_JOINT joint options. */
bool factor_tabulate(Opt *o, Factor *f);

#endif
