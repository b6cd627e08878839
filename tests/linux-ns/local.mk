# tests/linux-ns: rules for this backend's tests.  Behaviour tests attack
# the real binary; ns_attack is the C side of the attacks.
LINUX_NS_TESTS = \
	tests/linux-ns/filesystem.sh \
	tests/linux-ns/mount-attacks.sh \
	tests/linux-ns/denial-rename.sh \
	tests/linux-ns/privileges.sh \
	tests/linux-ns/seccomp.sh \
	tests/linux-ns/network.sh \
	tests/linux-ns/host-ipc.sh \
	tests/linux-ns/process.sh \
	tests/linux-ns/tools.sh \
	tests/linux-ns/race.sh \
	tests/linux-ns/leaks.sh \
	tests/linux-ns/diagnostics.sh \
	tests/linux-ns/root-caller.sh \
	tests/linux-ns/namespaces.sh \
	tests/linux-ns/terminal.sh \
	tests/linux-ns/resources.sh \
	tests/linux-ns/families.sh \
	tests/linux-ns/traceme.sh \
	tests/linux-ns/scratch.sh \
	tests/linux-ns/user-limits.sh \
	tests/linux-ns/uid-scratch-attacks.sh \
	tests/linux-ns/workspace-rename.sh
if HOST_LINUX
check_PROGRAMS += tests/linux-ns/helpers/ns_attack
tests_linux_ns_helpers_ns_attack_SOURCES = tests/linux-ns/helpers/ns_attack.c
tests_linux_ns_helpers_ns_attack_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
check_PROGRAMS += tests/linux-ns/helpers/connect_attack
tests_linux_ns_helpers_connect_attack_SOURCES = tests/linux-ns/helpers/connect_attack.c
tests_linux_ns_helpers_connect_attack_CFLAGS = $(AM_CFLAGS) -pthread
tests_linux_ns_helpers_connect_attack_LDFLAGS = -pthread
check_PROGRAMS += tests/linux-ns/helpers/traceme
tests_linux_ns_helpers_traceme_SOURCES = tests/linux-ns/helpers/traceme.c
tests_linux_ns_helpers_traceme_CFLAGS = $(AM_CFLAGS) -pthread
tests_linux_ns_helpers_traceme_LDFLAGS = -pthread
check_PROGRAMS += tests/linux-ns/helpers/without_syscalls
tests_linux_ns_helpers_without_syscalls_SOURCES = tests/linux-ns/helpers/without_syscalls.c
tests_linux_ns_helpers_without_syscalls_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_linux_ns_helpers_without_syscalls_LDADD = $(SECCOMP_LIBS)

BINARY_TESTS += $(LINUX_NS_TESTS)

endif
EXTRA_DIST += $(LINUX_NS_TESTS) tests/linux-ns/lib-ns.sh \
	tests/linux-ns/tty_session.py tests/linux-ns/sysv_ipc.py \
	tests/linux-ns/sock_server.py tests/linux-ns/sock_client.py tests/linux-ns/families.py tests/linux-ns/bench-launch \
	tests/linux-ns/bench-connect tests/linux-ns/bench-load tests/linux-ns/bench-ab \
	tests/linux-ns/benchlib.py

# Unit tests of the pure path logic (merging lists into mounts, resolving
# without links): linked against the backend's own archive.
if HOST_LINUX
check_PROGRAMS += tests/linux-ns/test_path_helpers
UNIT_TESTS += tests/linux-ns/test_path_helpers
tests_linux_ns_test_path_helpers_SOURCES = tests/linux-ns/test_path_helpers.c core/sandbox_ctx.c
tests_linux_ns_test_path_helpers_CPPFLAGS = $(LINUX_NS_CPPFLAGS) -I$(top_srcdir)/backends/linux-ns
tests_linux_ns_test_path_helpers_CFLAGS = $(LINUX_NS_CFLAGS) $(CUNIT_CFLAGS)
tests_linux_ns_test_path_helpers_LDADD = backends/linux-ns/liblinuxns.a backends/linux-common/liblinuxcommon.a \
	core/libcore.a $(CJSON_LIBS) $(LINUX_COMMON_LIBS) $(CUNIT_LIBS)
endif
