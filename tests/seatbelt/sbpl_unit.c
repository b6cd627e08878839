/*
 * sbpl_unit.c — TEST ONLY: runs the Seatbelt profile generator's unit
 * tests.  Portable: no Darwin header is involved.
 */
#include "config.h"

#include <stdio.h>

#include <CUnit/Basic.h>

#include "suites.h"
#include "../cunit_run.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    if (suite_escape() || suite_canon() || suite_rules() || suite_semantics() || suite_hostile() ||
        suite_golden()) {
        fprintf(stderr, "sbpl_unit: cannot register the tests: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    return cunit_run_registry();
}
