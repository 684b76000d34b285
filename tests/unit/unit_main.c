/*
 * unit_main.c — runs every CUnit suite. Each test file registers one suite through a
 * suite_NAME() function listed here. Exit status 1 when any assertion failed.
 */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define SUITES(X) X(units) X(diag) X(lexer) X(schema) X(model) X(backends) X(fmt) X(fabric) X(plan) X(k8s) X(slurm) X(optimize) X(html) X(compare) X(ports) X(cages) X(place) X(reliability) X(power) X(zones) X(cooling) X(rewire)

#define X(name) void suite_##name(void);
SUITES(X)
#undef X

int main(int argc, char **argv)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 70;
#define X(name) suite_##name();
	SUITES(X)
#undef X
	CU_basic_set_mode(argc > 1 && strcmp(argv[1], "-v") == 0 ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
	/* --run SUITE TEST: one test (make bench runs the planner's accuracy suite so). */
	if (argc == 4 && strcmp(argv[1], "--run") == 0) {
		CU_pSuite suite = CU_get_suite(argv[2]);
		CU_pTest test = suite ? CU_get_test(suite, argv[3]) : NULL;
		if (!test) {
			fprintf(stderr, "unit_tests: no test '%s' in suite '%s'\n", argv[3], argv[2]);
			CU_cleanup_registry();
			return 64;
		}
		CU_basic_run_test(suite, test);
	} else {
		CU_basic_run_tests();
	}
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
