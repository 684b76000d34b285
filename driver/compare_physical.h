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
/* How many rows ran the physical passes and how many had them replayed, one line (tests). */
void compare_physical_report(FILE *f);

#endif
