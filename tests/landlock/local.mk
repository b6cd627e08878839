# tests/landlock: the landlock backend, attacked from inside on a host
# where no user namespace can be made (lib-landlock.sh).
LANDLOCK_TESTS = tests/landlock/filesystem.sh tests/landlock/network.sh tests/landlock/attacks.sh \
	tests/landlock/max-userns-0.sh
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
