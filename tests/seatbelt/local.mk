# tests/seatbelt: rules for this backend's tests.  All run on every
# platform; none needs macOS (what that leaves unproved is listed in
# backends/seatbelt/README.md).

# The profile generator: escaping, canonicalisation, rules, semantics under
# a model of Seatbelt, hostile-path structure, golden profiles.
check_PROGRAMS += tests/seatbelt/sbpl_unit
UNIT_TESTS += tests/seatbelt/sbpl_unit
tests_seatbelt_sbpl_unit_SOURCES = \
	tests/seatbelt/sbpl_unit.c tests/seatbelt/suites.h \
	tests/seatbelt/fixtures.h tests/seatbelt/fixtures.c \
	tests/seatbelt/hostile.h \
	tests/seatbelt/sbpl_reader.h tests/seatbelt/sbpl_reader.c \
	tests/seatbelt/sbpl_eval.h tests/seatbelt/sbpl_eval.c \
	tests/seatbelt/test_escape.c tests/seatbelt/test_canon.c \
	tests/seatbelt/test_rules.c tests/seatbelt/test_semantics.c \
	tests/seatbelt/test_hostile.c tests/seatbelt/test_golden.c
tests_seatbelt_sbpl_unit_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/backends/seatbelt -I$(top_srcdir)/tests/seatbelt \
	-DSEATBELT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/seatbelt/golden"'
tests_seatbelt_sbpl_unit_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_seatbelt_sbpl_unit_LDADD = backends/seatbelt/libsbpl.a core/libcore.a \
	$(CJSON_LIBS) $(CUNIT_LIBS)

# The Darwin glue, compiled on Linux (every warning an error) against a
# shim for the Darwin headers and run against fakes of libsandbox: catches
# typos and wrong paths through the hooks without a Mac.
check_PROGRAMS += tests/seatbelt/seatbelt_glue_unit
UNIT_TESTS += tests/seatbelt/seatbelt_glue_unit
tests_seatbelt_seatbelt_glue_unit_SOURCES = \
	tests/seatbelt/test_glue.c tests/seatbelt/shim/darwin_shim.h \
	tests/seatbelt/fixtures.h tests/seatbelt/fixtures.c \
	tests/seatbelt/sbpl_reader.h tests/seatbelt/sbpl_reader.c \
	tests/seatbelt/sbpl_eval.h tests/seatbelt/sbpl_eval.c \
	$(SEATBELT_DARWIN_SOURCES) core/sandbox_ctx.c
tests_seatbelt_seatbelt_glue_unit_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/backends/seatbelt -I$(top_srcdir)/tests/seatbelt \
	-I$(top_srcdir)/tests/seatbelt/shim -I$(top_srcdir)/backends -DSEATBELT_DARWIN_SHIM
tests_seatbelt_seatbelt_glue_unit_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_seatbelt_seatbelt_glue_unit_LDADD = backends/seatbelt/libsbpl.a core/libcore.a \
	$(CJSON_LIBS) $(CUNIT_LIBS)

EXTRA_DIST += tests/seatbelt/golden

# The developer tool that prints a policy's profile (every platform).
BINARY_TESTS += tests/seatbelt/sbpl-print.sh
EXTRA_DIST += tests/seatbelt/sbpl-print.sh

# The real binary on macOS (written without a Mac: see the README's
# "What is unverified").  Distributed everywhere, run only on Darwin.
if HOST_DARWIN
BINARY_TESTS += tests/seatbelt/darwin.sh
endif
EXTRA_DIST += tests/seatbelt/darwin.sh tests/seatbelt/trust_probe.c

# Every generated profile read by TinyScheme, against our own reader's view
# (tinyscheme.sh; the dump helper writes the profiles and that view).
check_PROGRAMS += tests/seatbelt/sbpl_scheme_dump
tests_seatbelt_sbpl_scheme_dump_SOURCES = tests/seatbelt/sbpl_scheme_dump.c \
	tests/seatbelt/fixtures.h tests/seatbelt/fixtures.c tests/seatbelt/hostile.h \
	tests/seatbelt/sbpl_reader.h tests/seatbelt/sbpl_reader.c
tests_seatbelt_sbpl_scheme_dump_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/backends/seatbelt -I$(top_srcdir)/tests/seatbelt
tests_seatbelt_sbpl_scheme_dump_LDADD = backends/seatbelt/libsbpl.a core/libcore.a $(CJSON_LIBS)
BINARY_TESTS += tests/seatbelt/tinyscheme.sh
EXTRA_DIST += tests/seatbelt/tinyscheme.sh tests/seatbelt/sbpl-recorder.scm
