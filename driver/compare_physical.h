/*
 * compare_physical.h — a compare worker's physical builds kept and replayed (compare_physical.c).
 */
#ifndef CLUSTERC_COMPARE_PHYSICAL_H
#define CLUSTERC_COMPARE_PHYSICAL_H

#include "driver.h"

/* Design.physical_kept for a worker's rows (pipeline.c calls it before wire, after false; and
 * after verify-media, after true, when the physical passes ran clean): true when it replayed an
 * earlier row's physical build into d, which then skips the passes. Only with the parse kept at
 * fixed addresses (cmd_compare.c's load_kept). */
bool compare_physical_kept(Design *d, bool after);
/* The worker's rows, before its first (the tables stay the caller's): which of them could take
 * which row's physical build is known from their scenarios and overrides alone (the same but
 * for the values of physical_free fields), so a build no row left could take is not kept. */
typedef struct PhysRow {
	const char *scenario;
	const CliOverride *sets;
	int nsets;
} PhysRow;
void compare_physical_rows(const PhysRow *rows, int n);
/* The worker begins row i of those (the next pipeline_build's). */
void compare_physical_row(int i);
/* How many rows ran the physical passes, how many had them replayed and how many builds were
 * kept, one line (tests). */
void compare_physical_report(FILE *f);

#endif
