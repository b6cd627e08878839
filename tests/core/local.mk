# tests/core: the parser (unit, CUnit) and the CLI contract (behaviour).
TESTS_CORE_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(CJSON_CFLAGS)
TESTS_CORE_LDADD = core/libpolicy.a $(CJSON_LIBS) $(CUNIT_LIBS)

check_PROGRAMS += tests/core/test_policy_corpus tests/core/test_policy_unit
tests_core_test_policy_corpus_SOURCES = tests/core/test_policy_corpus.c
tests_core_test_policy_corpus_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_policy_corpus_LDADD = $(TESTS_CORE_LDADD)
tests_core_test_policy_unit_SOURCES = tests/core/test_policy_unit.c
tests_core_test_policy_unit_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_policy_unit_LDADD = $(TESTS_CORE_LDADD)
UNIT_TESTS += tests/core/test_policy_corpus tests/core/test_policy_unit

EXTRA_DIST += tests/lib.sh tests/core/policy-corpus
