/*
 * unit_build.h — the build pipeline over a spec given as text, and temporary output
 * directories, for the unit tests.
 */
#ifndef CLUSTERC_UNIT_BUILD_H
#define CLUSTERC_UNIT_BUILD_H

#include "passes.h"

typedef struct Built {
	Program p;
	Design d;
	int errors;
} Built;

/* Runs the build pipeline (no artifacts) over `text`, or the file `path` when set, in
 * `scenario` when set; `exhaustive` picks the decide pass's exhaustive search over the MILP.
 * One Built at a time. */
Built *unit_build(const char *text, const char *path, const char *scenario, bool exhaustive);
void unit_build_done(Built *b);
/* Whether an error diagnostic of b's build holds `words`. */
bool unit_error_says(const Built *b, const char *words);

/* A fresh empty directory for a test's output ("/tmp/clusterc-WHAT-XXXXXX"), copied into a; and
 * the removal of a tree (what the test wrote) without following symbolic links. */
char *unit_temp_dir(Arena *a, const char *what);
void unit_remove_tree(const char *path);

/* True in the sanitizer build's run (CLUSTERC_SANITIZED=1, tests/CMakeLists.txt): the tests of
 * what a 100,000-GPU spec's artifacts say are left to the gcc and clang builds there, where they
 * take a second rather than half a minute; the sanitizers see that spec built by `artifacts`. */
bool unit_sanitized(void);

#endif
