# tests/core: the parser (unit, CUnit) and the CLI contract (behaviour).
TESTS_CORE_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(CJSON_CFLAGS)
TESTS_CORE_LDADD = core/libcore.a $(CJSON_LIBS) $(CUNIT_LIBS)

check_PROGRAMS += tests/core/test_policy_corpus tests/core/test_policy_unit
tests_core_test_policy_corpus_SOURCES = tests/core/test_policy_corpus.c
tests_core_test_policy_corpus_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_policy_corpus_LDADD = $(TESTS_CORE_LDADD)
tests_core_test_policy_unit_SOURCES = tests/core/test_policy_unit.c
tests_core_test_policy_unit_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_policy_unit_LDADD = $(TESTS_CORE_LDADD)
UNIT_TESTS += tests/core/test_policy_corpus tests/core/test_policy_unit
# The policy path algebra every backend uses.
check_PROGRAMS += tests/core/test_policy_paths
tests_core_test_policy_paths_SOURCES = tests/core/test_policy_paths.c
tests_core_test_policy_paths_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_policy_paths_LDADD = $(TESTS_CORE_LDADD)
UNIT_TESTS += tests/core/test_policy_paths
# The report's encoder (core/event_report.c).
check_PROGRAMS += tests/core/test_event_report
tests_core_test_event_report_SOURCES = tests/core/test_event_report.c
tests_core_test_event_report_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_event_report_LDADD = $(TESTS_CORE_LDADD)
UNIT_TESTS += tests/core/test_event_report
# The descriptor checks both loaders run (core/backend_set.c): every hook,
# explain included, at start-up as at module load.
check_PROGRAMS += tests/core/test_backend_set
tests_core_test_backend_set_SOURCES = tests/core/test_backend_set.c core/backend_set.c
tests_core_test_backend_set_CFLAGS = $(TESTS_CORE_CFLAGS)
tests_core_test_backend_set_LDADD = $(CUNIT_LIBS)
$(tests_core_test_backend_set_OBJECTS): core/backend_abi.h
UNIT_TESTS += tests/core/test_backend_set

EXTRA_DIST += tests/lib.sh tests/lib-workspace-race.sh tests/workspace_race.py tests/cunit_run.h tests/core/policy-corpus

BINARY_TESTS += tests/core/cli.sh tests/core/status.sh tests/core/linkage.sh tests/core/manpage.sh tests/core/no-outside-refs.sh
# The shell scripts stay shellcheck-clean (a skip without shellcheck).
BINARY_TESTS += tests/core/shellcheck.sh
EXTRA_DIST += tests/core/shellcheck.sh
# A benchmark, and the check of this tarball's contents (run by tests/run-all).
EXTRA_DIST += tests/core/bench-builds tests/dist-contents
# The C sources stay as .clang-format formats them (a skip without clang-format 14).
BINARY_TESTS += tests/core/format.sh
EXTRA_DIST += tests/core/format.sh .clang-format
EXTRA_DIST += tests/core/cli.sh tests/core/status.sh tests/core/linkage.sh tests/core/manpage.sh tests/core/no-outside-refs.sh
# README's backend recipe: the same text as the template, which builds and runs.
BINARY_TESTS += tests/core/readme-recipe.sh tests/core/template-backend.sh
EXTRA_DIST += tests/core/readme-recipe.sh tests/core/template-backend.sh
# --explain against real runs of both Linux backends (generated policies).
if HOST_LINUX
BINARY_TESTS += tests/core/explain.sh
endif
EXTRA_DIST += tests/core/explain.sh tests/core/explain_gen.py tests/core/explain-query-corpus

# Example backend modules, built the way a developer outside core/ would
# build one: only the public header, -DHAS_BACKEND_MODULE, a libtool module.
# -rpath makes libtool build a shared object for a check-only library.
if DYNAMIC_BACKENDS
RECORDER_FLAGS = -module -avoid-version -shared -rpath /nowhere
check_LTLIBRARIES += tests/core/backends/recorder_a.la tests/core/backends/recorder_b.la \
	tests/core/backends/recorder_bad_abi.la tests/core/backends/recorder_no_harden.la \
	tests/core/backends/recorder_same_order.la tests/core/backends/recorder_needy.la \
	tests/core/backends/recorder_giver.la tests/core/backends/recorder_old_descriptor.la \
	tests/core/backends/recorder_old_ctx.la tests/core/backends/recorder_second_default.la \
	tests/core/backends/recorder_unknown_enforces.la tests/core/backends/recorder_unknown_offers.la \
	tests/core/backends/recorder_unknown_needs.la tests/core/backends/recorder_unknown_needs_one_of.la \
	tests/core/backends/recorder_viewer.la tests/core/backends/recorder_no_explain.la \
	tests/core/backends/recorder_no_prepare.la
tests_core_backends_recorder_a_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_a_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"a"' -DRECORDER_ORDER=20
tests_core_backends_recorder_a_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_b_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_b_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"b"' -DRECORDER_ORDER=10
tests_core_backends_recorder_b_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_bad_abi_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_bad_abi_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"bad-abi"' -DRECORDER_SIGNATURE=999
tests_core_backends_recorder_bad_abi_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_no_harden_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_no_harden_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"no-harden"' -DRECORDER_NO_HARDEN
tests_core_backends_recorder_no_harden_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_no_prepare_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_no_prepare_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"no-prepare"' -DRECORDER_NO_PREPARE
tests_core_backends_recorder_no_prepare_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_no_explain_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_no_explain_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"no-explain"' -DRECORDER_NO_EXPLAIN
tests_core_backends_recorder_no_explain_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_same_order_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_same_order_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"same-order"' -DRECORDER_ORDER=20
tests_core_backends_recorder_same_order_la_LDFLAGS = $(RECORDER_FLAGS)
# A boundary stand-in that needs what only a backend like "giver" offers.
tests_core_backends_recorder_needy_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_needy_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"needy"' -DRECORDER_ORDER=30 -DRECORDER_ENFORCES=SANDBOX_ENFORCES_FILESYSTEM \
	-DRECORDER_NEEDS=SANDBOX_OFFER_SUPERVISED \
	-DRECORDER_NEEDS_ONE_OF='(SANDBOX_OFFER_PRIVATE_NETWORK|SANDBOX_OFFER_LOOPBACK_GRANTS)'
tests_core_backends_recorder_needy_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_giver_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_giver_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"giver"' -DRECORDER_ORDER=40 \
	-DRECORDER_OFFERS='(SANDBOX_OFFER_LOOPBACK_GRANTS|SANDBOX_OFFER_SUPERVISED)'
tests_core_backends_recorder_giver_la_LDFLAGS = $(RECORDER_FLAGS)
# A companion whose enter() needs the finished view (like egress-proxy's).
tests_core_backends_recorder_viewer_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_viewer_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"viewer"' -DRECORDER_ORDER=50 -DRECORDER_ENFORCES=SANDBOX_ENFORCES_NO_LOCAL_BIND \
	-DRECORDER_ENTER_NEEDS_VIEW=true
tests_core_backends_recorder_viewer_la_LDFLAGS = $(RECORDER_FLAGS)
# Built wrong on purpose, each refused before any hook runs.
tests_core_backends_recorder_old_descriptor_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_old_descriptor_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"old-descriptor"' -DRECORDER_OLD_DESCRIPTOR
tests_core_backends_recorder_old_descriptor_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_old_ctx_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_old_ctx_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"old-ctx"' -DRECORDER_CTX_SIZE='(sizeof(struct sandbox_ctx) - 128)'
tests_core_backends_recorder_old_ctx_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_second_default_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_second_default_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"second-default"' -DRECORDER_ORDER=50 -DRECORDER_ENFORCES=SANDBOX_ENFORCES_FILESYSTEM
tests_core_backends_recorder_second_default_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_unknown_enforces_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_unknown_enforces_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"unknown-enforces"' -DRECORDER_ENFORCES='(SANDBOX_ENFORCES_ALL + 1u)'
tests_core_backends_recorder_unknown_enforces_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_unknown_offers_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_unknown_offers_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"unknown-offers"' -DRECORDER_OFFERS='(SANDBOX_OFFERS_ALL + 1u)'
tests_core_backends_recorder_unknown_offers_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_unknown_needs_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_unknown_needs_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"unknown-needs"' -DRECORDER_NEEDS='(SANDBOX_OFFERS_ALL + 1u)'
tests_core_backends_recorder_unknown_needs_la_LDFLAGS = $(RECORDER_FLAGS)
tests_core_backends_recorder_unknown_needs_one_of_la_SOURCES = tests/core/backends/recorder.c
tests_core_backends_recorder_unknown_needs_one_of_la_CPPFLAGS = $(AM_CPPFLAGS) -DHAS_BACKEND_MODULE \
	-DRECORDER_NAME='"unknown-needs-one-of"' -DRECORDER_NEEDS_ONE_OF='(SANDBOX_OFFERS_ALL + 1u)'
tests_core_backends_recorder_unknown_needs_one_of_la_LDFLAGS = $(RECORDER_FLAGS)
BINARY_TESTS += tests/core/dynamic-backends.sh
endif
EXTRA_DIST += tests/core/dynamic-backends.sh

# libFuzzer target for the parser (configure --enable-fuzzers CC=clang);
# `make fuzz` runs each fuzzer for FUZZ_SECONDS from the corpus seeds.
if FUZZERS
noinst_PROGRAMS += tests/core/fuzz_policy
tests_core_fuzz_policy_SOURCES = tests/core/fuzz_policy.c
tests_core_fuzz_policy_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_core_fuzz_policy_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_core_fuzz_policy_LDADD = core/libcore.a $(CJSON_LIBS)
FUZZERS_LIST += tests/core/fuzz_policy:tests/core/policy-corpus
noinst_PROGRAMS += tests/core/fuzz_explain_query
tests_core_fuzz_explain_query_SOURCES = tests/core/fuzz_explain_query.c
tests_core_fuzz_explain_query_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_core_fuzz_explain_query_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_core_fuzz_explain_query_LDADD = core/libcore.a $(CJSON_LIBS)
FUZZERS_LIST += tests/core/fuzz_explain_query:tests/core/explain-query-corpus
endif
