# tests/egress-proxy: unit tests (CUnit) for the pure parts of the egress
# backend, behaviour tests against the binary, and a benchmark script.
if HAVE_BACKEND_EGRESS_PROXY
EGRESS_TEST_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(EGRESS_CPPFLAGS)
EGRESS_TEST_LIBS = backends/egress-proxy/libegress_policy.a core/libcore.a $(CUNIT_LIBS)

check_PROGRAMS += tests/egress-proxy/test_addr_host tests/egress-proxy/test_proxy_parsers \
	tests/egress-proxy/test_upstream_proxy
UNIT_TESTS += tests/egress-proxy/test_addr_host tests/egress-proxy/test_proxy_parsers \
	tests/egress-proxy/test_upstream_proxy
tests_egress_proxy_test_upstream_proxy_SOURCES = tests/egress-proxy/test_upstream_proxy.c
tests_egress_proxy_test_upstream_proxy_CFLAGS = $(EGRESS_TEST_CFLAGS)
tests_egress_proxy_test_upstream_proxy_LDADD = $(EGRESS_TEST_LIBS)
tests_egress_proxy_test_addr_host_SOURCES = tests/egress-proxy/test_addr_host.c
tests_egress_proxy_test_addr_host_CFLAGS = $(EGRESS_TEST_CFLAGS)
tests_egress_proxy_test_addr_host_LDADD = $(EGRESS_TEST_LIBS) $(CJSON_LIBS)
tests_egress_proxy_test_proxy_parsers_SOURCES = tests/egress-proxy/test_proxy_parsers.c
tests_egress_proxy_test_proxy_parsers_CFLAGS = $(EGRESS_TEST_CFLAGS)
tests_egress_proxy_test_proxy_parsers_LDADD = $(EGRESS_TEST_LIBS)
check_PROGRAMS += tests/egress-proxy/test_dns_parse
UNIT_TESTS += tests/egress-proxy/test_dns_parse
tests_egress_proxy_test_dns_parse_SOURCES = tests/egress-proxy/test_dns_parse.c
tests_egress_proxy_test_dns_parse_CFLAGS = $(EGRESS_TEST_CFLAGS)
tests_egress_proxy_test_dns_parse_LDADD = $(EGRESS_TEST_LIBS)
check_PROGRAMS += tests/egress-proxy/test_synth_table
UNIT_TESTS += tests/egress-proxy/test_synth_table
tests_egress_proxy_test_synth_table_SOURCES = tests/egress-proxy/test_synth_table.c
tests_egress_proxy_test_synth_table_CFLAGS = $(EGRESS_TEST_CFLAGS)
tests_egress_proxy_test_synth_table_LDADD = $(EGRESS_TEST_LIBS)
check_PROGRAMS += tests/egress-proxy/test_egress_sbpl
UNIT_TESTS += tests/egress-proxy/test_egress_sbpl
tests_egress_proxy_test_egress_sbpl_SOURCES = tests/egress-proxy/test_egress_sbpl.c \
	backends/egress-proxy/process/egress_sbpl.h backends/egress-proxy/process/egress_sbpl.c
tests_egress_proxy_test_egress_sbpl_CFLAGS = $(EGRESS_TEST_CFLAGS) $(EGRESS_BACKEND_CFLAGS)
tests_egress_proxy_test_egress_sbpl_LDADD = $(CUNIT_LIBS)

if HOST_LINUX
BINARY_TESTS += tests/egress-proxy/proxy-basics.sh tests/egress-proxy/proxy-load.sh \
	tests/egress-proxy/proxy-lifecycle.sh tests/egress-proxy/proxy-strict.sh \
	tests/egress-proxy/proxy-report.sh tests/egress-proxy/real-clients.sh \
	tests/egress-proxy/transparent.sh tests/egress-proxy/explain-proxy.sh \
	tests/egress-proxy/dns-names.sh tests/egress-proxy/upstream.sh
check_PROGRAMS += tests/egress-proxy/test_confine
UNIT_TESTS += tests/egress-proxy/test_confine
tests_egress_proxy_test_confine_SOURCES = tests/egress-proxy/test_confine.c \
	backends/egress-proxy/process/confine.h backends/egress-proxy/process/confine.c \
	backends/egress-proxy/process/resolver_ares.c backends/egress-proxy/policy/addr_class.c
tests_egress_proxy_test_confine_CFLAGS = $(EGRESS_TEST_CFLAGS) $(SECCOMP_CFLAGS) $(CAPNG_CFLAGS) $(CARES_CFLAGS) -pthread
tests_egress_proxy_test_confine_LDADD = $(CUNIT_LIBS) $(SECCOMP_LIBS) $(CAPNG_LIBS) $(CARES_LIBS) -lpthread
# A stand-in for linux-ns (user + network namespace, lo up) that drives the
# backend's hooks directly; used when the build has no linux-ns backend.
check_PROGRAMS += tests/egress-proxy/egress_harness
tests_egress_proxy_egress_harness_SOURCES = tests/egress-proxy/egress_harness.c \
	core/sandbox_ctx.c core/supervise.c core/signal_name.c core/diag.c \
	$(EGRESS_POLICY_SOURCES) $(EGRESS_BACKEND_SOURCES)
tests_egress_proxy_egress_harness_CPPFLAGS = $(AM_CPPFLAGS) $(EGRESS_CPPFLAGS)
tests_egress_proxy_egress_harness_CFLAGS = $(EGRESS_BACKEND_CFLAGS)
tests_egress_proxy_egress_harness_LDADD = core/libcore.a $(CJSON_LIBS) $(EGRESS_BACKEND_LIBS)
# The host-loopback path of macOS (poll, copy relay, portable confinement,
# front-ends bound on host 127.0.0.1), built here with -DEGRESS_PORTABLE so
# the same code runs end to end on Linux.  Test programs only: no release
# binary or module is ever compiled with that define.
EGRESS_PORTABLE_CPPFLAGS = $(AM_CPPFLAGS) -DEGRESS_PORTABLE -DEGRESS_VARIANT_LOOPBACK $(EGRESS_CPPFLAGS)
check_PROGRAMS += tests/egress-proxy/egress_harness_portable
tests_egress_proxy_egress_harness_portable_SOURCES = tests/egress-proxy/egress_harness.c \
	core/sandbox_ctx.c core/supervise.c core/signal_name.c core/diag.c \
	$(EGRESS_POLICY_SOURCES) backends/egress-proxy/egress_backend.c \
	backends/egress-proxy/egress_env.h backends/egress-proxy/egress_env.c \
	backends/egress-proxy/egress_explain.c \
	$(EGRESS_PROCESS_SOURCES) $(EGRESS_PORTABLE_SOURCES)
tests_egress_proxy_egress_harness_portable_CPPFLAGS = $(EGRESS_PORTABLE_CPPFLAGS)
tests_egress_proxy_egress_harness_portable_CFLAGS = $(AM_CFLAGS) -pthread
tests_egress_proxy_egress_harness_portable_LDADD = core/libcore.a $(CJSON_LIBS) -lpthread
BINARY_TESTS += tests/egress-proxy/portable-basics.sh tests/egress-proxy/portable-load.sh \
	tests/egress-proxy/portable-lifecycle.sh tests/egress-proxy/portable-strict.sh
# The relay and event layer as a unit, both implementations from one source:
# epoll + splice (release) and poll + copy (macOS's).
# The loop runs in a thread of the test; egress_process.c (fork, confinement)
# is not part of it.
EGRESS_RELAY_TEST_SOURCES = tests/egress-proxy/test_relay.c $(EGRESS_POLICY_SOURCES) $(EGRESS_LOOP_SOURCES)
check_PROGRAMS += tests/egress-proxy/test_relay tests/egress-proxy/test_relay_portable
UNIT_TESTS += tests/egress-proxy/test_relay tests/egress-proxy/test_relay_portable
tests_egress_proxy_test_relay_SOURCES = $(EGRESS_RELAY_TEST_SOURCES) \
	backends/egress-proxy/process/evpoll_epoll.c backends/egress-proxy/relay/relay_splice.c \
	backends/egress-proxy/process/resolver_ares.c
tests_egress_proxy_test_relay_CPPFLAGS = $(AM_CPPFLAGS) $(EGRESS_CPPFLAGS)
tests_egress_proxy_test_relay_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(CARES_CFLAGS) -pthread
tests_egress_proxy_test_relay_LDADD = core/libcore.a $(CUNIT_LIBS) $(CARES_LIBS) -lpthread
tests_egress_proxy_test_relay_portable_SOURCES = $(EGRESS_RELAY_TEST_SOURCES) \
	backends/egress-proxy/process/evpoll_poll.c backends/egress-proxy/relay/relay_copy.c \
	backends/egress-proxy/process/resolver_libc.c
tests_egress_proxy_test_relay_portable_CPPFLAGS = $(EGRESS_PORTABLE_CPPFLAGS)
tests_egress_proxy_test_relay_portable_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -pthread
tests_egress_proxy_test_relay_portable_LDADD = core/libcore.a $(CUNIT_LIBS) -lpthread
endif
endif

EXTRA_DIST += tests/egress-proxy/proxy-basics.sh tests/egress-proxy/proxy-load.sh \
	tests/egress-proxy/proxy-lifecycle.sh tests/egress-proxy/egress-lib.sh \
	tests/egress-proxy/real-clients.sh tests/egress-proxy/local_servers.py \
	tests/egress-proxy/portable-basics.sh tests/egress-proxy/portable-load.sh \
	tests/egress-proxy/portable-lifecycle.sh tests/egress-proxy/proxy-strict.sh \
	tests/egress-proxy/portable-strict.sh tests/egress-proxy/proxy-report.sh \
	tests/egress-proxy/origin.py tests/egress-proxy/clients.py \
	tests/egress-proxy/bench-proxy tests/egress-proxy/bench.py \
	tests/egress-proxy/transparent.sh tests/egress-proxy/lab_origin.py tests/egress-proxy/lab_clients.py \
	tests/egress-proxy/explain-proxy.sh tests/egress-proxy/netlab.sh \
	tests/egress-proxy/dns-names.sh tests/egress-proxy/lab_dns.py \
	tests/egress-proxy/upstream.sh tests/egress-proxy/lab_upstream.py

# libFuzzer target over the client-facing parsers (configure --enable-fuzzers).
if FUZZERS
if HAVE_BACKEND_EGRESS_PROXY
noinst_PROGRAMS += tests/egress-proxy/fuzz_proxy_input
tests_egress_proxy_fuzz_proxy_input_SOURCES = tests/egress-proxy/fuzz_proxy_input.c
tests_egress_proxy_fuzz_proxy_input_CFLAGS = $(AM_CFLAGS) $(EGRESS_CPPFLAGS) \
	-fsanitize=fuzzer,address,undefined
tests_egress_proxy_fuzz_proxy_input_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_egress_proxy_fuzz_proxy_input_LDADD = backends/egress-proxy/libegress_policy.a core/libcore.a
FUZZERS_LIST += tests/egress-proxy/fuzz_proxy_input:tests/egress-proxy/fuzz-seeds
noinst_PROGRAMS += tests/egress-proxy/fuzz_dns_query
tests_egress_proxy_fuzz_dns_query_SOURCES = tests/egress-proxy/fuzz_dns_query.c
tests_egress_proxy_fuzz_dns_query_CFLAGS = $(AM_CFLAGS) $(EGRESS_CPPFLAGS) \
	-fsanitize=fuzzer,address,undefined
tests_egress_proxy_fuzz_dns_query_LDFLAGS = -fsanitize=fuzzer,address,undefined
tests_egress_proxy_fuzz_dns_query_LDADD = backends/egress-proxy/libegress_policy.a
FUZZERS_LIST += tests/egress-proxy/fuzz_dns_query:tests/egress-proxy/fuzz-seeds-dns
endif
endif
EXTRA_DIST += tests/egress-proxy/fuzz-seeds tests/egress-proxy/fuzz-seeds-dns
