/*
 * daytwo.h — what the day-two commands (verify, diff) share: reading the CSV files a build
 * wrote (csv_read.c), the plan of a build directory as discovery sees it (plan_read.c), and
 * the topologies discovered on a running fabric (discovered.c). docs/daytwo.md describes the
 * commands. Everything lives in the Ctx's arena.
 */
#ifndef CLUSTERC_DAYTWO_H
#define CLUSTERC_DAYTWO_H

#include "base.h"
#include "json.h"

/* ---- csv_read.c: RFC 4180 tables with the place of every field -------------------------- */

typedef struct CsvRow {
	const char **field;   /* ncols fields, unquoted */
	uint32_t *off;        /* each field's byte offset in the source */
	int line;             /* from 1 */
} CsvRow;

typedef struct CsvTable {
	const Source *src;
	const char **cols;    /* the header's names */
	int ncols;
	CsvRow *rows;
	int nrows;
} CsvTable;

/* Reads the table in src (a header, then rows of as many fields); a malformed row (an open
 * quote, another count of fields) is an error at its place. Returns the errors reported. */
int csv_read(Ctx *c, const Source *src, CsvTable *t);
/* The column called name, or -1. */
int csv_col(const CsvTable *t, const char *name);
/* Reads DIR/NAME: NULL with a diagnostic when it is missing (*io set) or malformed. */
CsvTable *csv_load(Ctx *c, const char *dir, const char *name, bool *io);
/* A field's place, for a diagnostic. */
Loc csv_loc(const CsvTable *t, int row, int col);

/* ---- discovered.c: topologies found on a running fabric ------------------------------------ */

typedef enum { DISC_IBNETDISCOVER, DISC_LLDP } DiscFormat;

/* One port seen linked: the device (an InfiniBand NodeDescription or an LLDP system name) and
 * its port (an InfiniBand port number in port_number, port NULL; or an LLDP port name in port
 * and its description in port_descr), and the same of its peer. */
typedef struct DiscEnd {
	const char *node;
	const char *port, *port_descr; /* LLDP */
	int port_number;               /* InfiniBand, from 1; 0 for LLDP */
} DiscEnd;

typedef struct DiscLink {
	DiscEnd a, z;
	Loc loc;              /* the line that reported it */
} DiscLink;

typedef struct Discovered {
	DiscFormat format;
	DiscLink *links;
	int nlinks, cap;
	int nodes;            /* devices described (InfiniBand) or reporting (LLDP) */
} Discovered;

/* Reads one discovered file into *out (appending): ibnetdiscover(8) output, or LLDP neighbour
 * tables as `lldpctl -f json` (or json0) prints them, either one device's (the device named
 * after the file: DEVICE.json) or an object of them by device name. The format is the
 * content's. Returns the errors reported (each at its file:line:col). */
int discovered_read(Ctx *c, const Source *src, Discovered *out);

#endif
