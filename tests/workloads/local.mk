# tests/workloads: the workload matrix -- the tools agents run, under the
# policy the README recommends, on linux-ns and landlock (one script per
# tool, so make -j runs them side by side).
WORKLOAD_TESTS = tests/workloads/git.sh tests/workloads/c.sh tests/workloads/python.sh \
	tests/workloads/node.sh tests/workloads/java.sh tests/workloads/postgres.sh \
	tests/workloads/chromium.sh
if HOST_LINUX
BINARY_TESTS += $(WORKLOAD_TESTS)
endif
EXTRA_DIST += $(WORKLOAD_TESTS) tests/workloads/lib-workloads.sh tests/workloads/proxy-auth-relay.py
