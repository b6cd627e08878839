/*
 * sbpl_unit.c — TEST ONLY: runs the Seatbelt profile generator's unit
 * tests.  Portable: no Darwin header is involved.
 */
#include "config.h"

#include <stdio.h>

#include <CUnit/Basic.h>

#include "suites.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    if (suite_escape() || suite_canon() || suite_rules() || suite_semantics() ||
        suite_hostile() || suite_golden()) {
        fprintf(stderr, "sbpl_unit: cannot register the tests: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
