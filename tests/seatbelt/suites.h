/*
 * suites.h — TEST ONLY: the CUnit suites of sbpl_unit, one per file; each
 * returns 0, or -1 if registering failed.
 */
#ifndef HAS_SEATBELT_SUITES_H
#define HAS_SEATBELT_SUITES_H

int suite_escape(void);
int suite_canon(void);
int suite_rules(void);
int suite_semantics(void);
int suite_hostile(void);
int suite_golden(void);

#endif
