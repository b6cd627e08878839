# tests/landlock: the landlock backend, attacked from inside on a host
# where no user namespace can be made (lib-landlock.sh).
LANDLOCK_TESTS = tests/landlock/filesystem.sh tests/landlock/network.sh tests/landlock/attacks.sh \
	tests/landlock/top-level.sh tests/landlock/real-work.sh tests/landlock/broker-attacks.sh \
	tests/landlock/max-userns-0.sh tests/landlock/device-nodes.sh tests/landlock/workspace-rename.sh
if HOST_LINUX
check_PROGRAMS += tests/landlock/helpers/no_userns
tests_landlock_helpers_no_userns_SOURCES = tests/landlock/helpers/no_userns.c
tests_landlock_helpers_no_userns_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
tests_landlock_helpers_no_userns_LDADD = $(SECCOMP_LIBS)
BINARY_TESTS += $(LANDLOCK_TESTS)
if DYNAMIC_BACKENDS
BINARY_TESTS += tests/landlock/layered.sh
endif
endif
EXTRA_DIST += $(LANDLOCK_TESTS) tests/landlock/layered.sh tests/landlock/lib-landlock.sh tests/landlock/atk.py tests/landlock/bench-launch \
	tests/landlock/container-check tests/steps.sh

# Unit tests of the pure path logic (which denials a walk leaves out, the
# checks before any rule).  The backend's archive exists only in release
# builds, so its two files are compiled in.
if HOST_LINUX
check_PROGRAMS += tests/landlock/test_fs_paths
UNIT_TESTS += tests/landlock/test_fs_paths
tests_landlock_test_fs_paths_SOURCES = tests/landlock/test_fs_paths.c \
	backends/landlock/fs_lists.c backends/landlock/fs_ruleset.c backends/landlock/fs_anchors.c
tests_landlock_test_fs_paths_CPPFLAGS = $(LANDLOCK_CPPFLAGS) -I$(top_srcdir)/backends/landlock
tests_landlock_test_fs_paths_CFLAGS = $(LANDLOCK_CFLAGS) $(CUNIT_CFLAGS)
tests_landlock_test_fs_paths_LDADD = backends/linux-common/liblinuxcommon.a core/libcore.a \
	$(CJSON_LIBS) $(LINUX_COMMON_LIBS) $(CUNIT_LIBS)
endif
