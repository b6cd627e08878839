# tests/linux-common: the shared Linux mechanisms' own tests (their
# behaviour is tested from outside through each backend's suite).
if HOST_LINUX
# The report's lines from the brokers and the supervisor, both backends.
BINARY_TESTS += tests/linux-common/refusal-report.sh tests/linux-common/refusal-report-stream.sh
check_PROGRAMS += tests/linux-common/test_seccomp_programs
UNIT_TESTS += tests/linux-common/test_seccomp_programs
tests_linux_common_test_seccomp_programs_SOURCES = tests/linux-common/test_seccomp_programs.c $(SECCOMP_RULES_SOURCES)
tests_linux_common_test_seccomp_programs_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
tests_linux_common_test_seccomp_programs_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS) $(CUNIT_CFLAGS)
tests_linux_common_test_seccomp_programs_LDADD = backends/linux-common/liblinuxcommon.a $(CUNIT_LIBS) $(SECCOMP_LIBS)
endif
# libFuzzer target for the address the broker copies from the workload on
# every connect() (configure --enable-fuzzers CC=clang).
if FUZZERS
noinst_PROGRAMS += tests/linux-common/fuzz_connect_address
tests_linux_common_fuzz_connect_address_SOURCES = tests/linux-common/fuzz_connect_address.c \
	backends/linux-common/brokers/connect_broker.c backends/linux-common/brokers/broker_peek.c \
	backends/linux-common/brokers/meta_broker.c backends/linux-common/brokers/entry_broker.c \
	backends/linux-common/fd_path.c core/event_report.c core/text_escape.c
tests_linux_common_fuzz_connect_address_CPPFLAGS = $(AM_CPPFLAGS) $(LINUX_COMMON_CPPFLAGS)
tests_linux_common_fuzz_connect_address_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_linux_common_fuzz_connect_address_LDFLAGS = -fsanitize=fuzzer,address,undefined
FUZZERS_LIST += tests/linux-common/fuzz_connect_address:tests/linux-common/fuzz-connect-seeds
endif
EXTRA_DIST += tests/linux-common/fuzz-connect-seeds tests/linux-common/refusal-report.sh tests/linux-common/refusal-report-stream.sh
# The policy's limits, from outside, on both Linux backends.
if HOST_LINUX
BINARY_TESTS += tests/linux-common/limits.sh tests/linux-common/limits-attacks.sh tests/linux-common/devices.sh tests/linux-common/unix-sockets.sh
endif
EXTRA_DIST += tests/linux-common/limits.sh tests/linux-common/limits-attacks.sh tests/linux-common/devices.sh tests/linux-common/unix-sockets.sh
# What the sandbox shares with its caller (per-user kernel counts), both
# Linux backends; shared_hog takes them inside and probes them outside.
if HOST_LINUX
BINARY_TESTS += tests/linux-common/shared-limits.sh tests/linux-common/middle-process.sh
check_PROGRAMS += tests/linux-common/helpers/shared_hog
tests_linux_common_helpers_shared_hog_SOURCES = tests/linux-common/helpers/shared_hog.c
tests_linux_common_helpers_shared_hog_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
# mq_* and timer_create: in libc from glibc 2.34, in librt before.
tests_linux_common_helpers_shared_hog_LDADD = -lrt
endif
EXTRA_DIST += tests/linux-common/shared-limits.sh tests/linux-common/middle-process.sh
