/*
 * cunit_run.h — the end of every CUnit test program: run the registered
 * suites verbosely (CUnit's summary is what CI reads) and turn any failed
 * assertion, test or suite set-up into exit status 1.
 */
#ifndef HAS_TESTS_CUNIT_RUN_H
#define HAS_TESTS_CUNIT_RUN_H

#include <CUnit/Basic.h>

static inline int cunit_run_registry(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed =
        CU_get_number_of_failures() + CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}

#endif
