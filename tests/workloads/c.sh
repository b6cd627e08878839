#!/usr/bin/env bash
# Workload matrix: C under the recommended policy: make with cc builds a
# program from two files and a test binary, and the test runs (ctest-style:
# exit 0 is a pass).
. "$HAS_SRCDIR/tests/lib.sh"
require_tool cc build-essential
require_tool make make
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"

entry() {
    wl_workspace "c-$1"
    printf 'int add(int a, int b) { return a + b; }\n' >add.c
    printf 'int add(int, int);\nint main(void) { return add(2, 3) == 5 ? 0 : 1; }\n' >test_add.c
    printf 'test_add: test_add.o add.o\n\t$(CC) -o $@ test_add.o add.o\ncheck: test_add\n\t./test_add && echo test-passed\n' >Makefile
    wl_run "$1" "$(wl_policy "$1")" 'make -s CC=cc check'
    wl_expect_ok "$1: make with cc, two files" && expect_out '^test-passed$' "$1: the built test binary returned 0"
    [ -x "$WS/test_add" ] && ok "$1: the binary is in the workspace" || fail "$1: no test_add on the host"
}
wl_matrix c entry
finish
