# shellcheck shell=bash
# tests/lib.sh — shared helpers for the behaviour tests (sourced by bash).
#
# Every behaviour test is a bash script run by `make check` with
#   SUPERVISOR   the binary under test
#   HAS_SRCDIR   the source tree,  HAS_BUILDDIR  the build tree
# It exits 0 when every assertion held, 1 when one failed, 77 to skip (with
# the reason printed).  Tests must pass as root and as an unprivileged user.

set -u

: "${SUPERVISOR:?SUPERVISOR must name the binary under test}"
: "${HAS_SRCDIR:?}" "${HAS_BUILDDIR:?}"

T_FAILED=0
T_PASSED=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/has-test.XXXXXX")
chmod 755 "$T_TMP"
trap 't_cleanup' EXIT

t_cleanup() {
    # Masked or read-only test fixtures may need their mode back first.
    chmod -R u+rwX "$T_TMP" 2>/dev/null
    rm -rf "$T_TMP"
}

ok()   { T_PASSED=$((T_PASSED + 1)); echo "ok - $*"; }
fail() { T_FAILED=$((T_FAILED + 1)); echo "FAIL - $*"; }
skip() { echo "SKIP - $*"; exit 77; }

# sandbox_unavailable REASON: this machine cannot build the sandbox at all
# (e.g. a packager's chroot without user namespaces).  That is a skip for a
# distro build, but tests/run-all sets HAS_REQUIRE_SANDBOX=1 so that CI can
# never turn green by skipping every security test.
sandbox_unavailable() {
    if [ "${HAS_REQUIRE_SANDBOX:-0}" = 1 ]; then
        echo "FAIL - HAS_REQUIRE_SANDBOX=1 and $*"
        exit 1
    fi
    skip "$*"
}

# sandbox_require: the supervisor must be able to build a sandbox here at
# all (a packager's build root may have no user namespaces): otherwise the
# script is skipped with the supervisor's own reason (sandbox_unavailable).
sandbox_require() {
    local why
    why=$("$SUPERVISOR" --policy '{"mode":"read_only","network":{"egress":false,"localBinding":false}}' \
        -- /bin/true 2>&1 </dev/null) ||
        sandbox_unavailable "the sandbox cannot be created on this machine: $why"
}

# have_tool TOOL PACKAGE: whether TOOL is installed.  On a developer's
# machine a missing tool only leaves out the checks that need it (one line
# says so); tests/run-all sets HAS_REQUIRE_TOOLS=1, and there it is a failure,
# so CI can never turn green by leaving checks out (every tool is in
# tests/debian-packages.txt).
have_tool() {
    command -v "$1" >/dev/null && return 0
    if [ "${HAS_REQUIRE_TOOLS:-0}" = 1 ]; then
        fail "HAS_REQUIRE_TOOLS=1 and $1 is not installed (Debian package $2)"
    else
        echo "# not run: the checks that need $1 (Debian package $2)"
    fi
    return 1
}

# require_tool TOOL PACKAGE: the whole script needs TOOL.
require_tool() {
    command -v "$1" >/dev/null && return 0
    [ "${HAS_REQUIRE_TOOLS:-0}" = 1 ] || skip "needs $1 (Debian package $2)"
    have_tool "$1" "$2"
    finish
}

# finish: print the counts and exit with the verdict.
# expect_absent PATH WHAT: the sandbox made nothing at PATH on the host.
# expect_content PATH TEXT WHAT: the host's PATH holds exactly TEXT.
# expect_out_lacks PATTERN WHAT: stdout does not match the ERE.
expect_absent() {
    if [ -e "$1" ] || [ -L "$1" ]; then fail "$2: $1 exists on the host"; else ok "$2: nothing written on the host"; fi
}

expect_content() {
    local got
    got=$(cat "$1" 2>/dev/null)
    if [ "$got" = "$2" ]; then ok "$3"; else fail "$3: $1 holds '$got', wanted '$2'"; fi
}

expect_out_lacks() {
    if printf '%s' "$OUT" | grep -qE -- "$1"; then fail "$2: stdout matches /$1/: $OUT"; else ok "$2"; fi
}

finish() {
    echo "# $(basename "$0"): $T_PASSED passed, $T_FAILED failed"
    [ "$T_FAILED" -eq 0 ] || exit 1
    [ "$T_PASSED" -gt 0 ] || { echo "no assertion ran"; exit 1; }
    exit 0
}

# policy MODE EGRESS LOCALBIND [EXTRA]: a policy document; EXTRA is more
# top-level JSON members, e.g. '"deniedReadPaths":["/x"]'.
policy() {
    local extra=${4:+,$4}
    printf '{"mode":"%s","network":{"egress":%s,"localBinding":%s}%s}' "$1" "$2" "$3" "$extra"
}

# run_sup POLICY [SUPERVISOR-ARGS...] -- TARGET...: run the supervisor with
# --policy POLICY; sets RC, and OUT / ERR (file contents).
run_sup() {
    local pol=$1
    shift
    "$SUPERVISOR" --policy "$pol" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

# run_raw ARGS...: run the supervisor with exactly these arguments.
run_raw() {
    "$SUPERVISOR" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

expect_rc() {
    local want=$1
    shift
    if [ "$RC" = "$want" ]; then ok "$* (exit $RC)"; else fail "$*: exit $RC, wanted $want; stderr: $ERR"; fi
}

expect_err() {
    local pattern=$1
    shift
    if printf '%s' "$ERR" | grep -qE -- "$pattern"; then ok "$*: stderr matches /$pattern/"
    else fail "$*: stderr does not match /$pattern/: $ERR"; fi
}

expect_out() {
    local pattern=$1
    shift
    if printf '%s' "$OUT" | grep -qE -- "$pattern"; then ok "$*: stdout matches /$pattern/"
    else fail "$*: stdout does not match /$pattern/: $OUT"; fi
}

# expect_one_line_error: supervisor failures are exactly one stderr line.
expect_one_line_error() {
    local lines
    lines=$(printf '%s\n' "$ERR" | grep -c .)
    if [ "$lines" = 1 ]; then ok "$*: one-line error"; else fail "$*: $lines stderr lines: $ERR"; fi
}

# A workspace directory the current user owns.
make_workspace() {
    local ws
    ws=$(mktemp -d "$T_TMP/ws.XXXXXX")
    chmod 755 "$ws"
    printf '%s' "$ws"
}

is_root() { [ "$(id -u)" = 0 ]; }
# uid 0 of the host's user namespace (not root mapped in a namespace of its
# own, as the run without user namespaces is): who opens any device node.
is_host_root() { is_root && awk 'NR == 1 { exit !($1 == 0 && $2 == 0 && $3 == 4294967295) }' /proc/self/uid_map; }
# Whether the running kernel is Linux $1.$2 or later.
kernel_at_least() {
    local have; have=$(uname -r)
    [ "$(printf '%s\n%s\n' "$1.$2" "${have%%-*}" | sort -V | head -n1)" = "$1.$2" ]
}

# scale_factor VALUE: VALUE when it is a positive integer, else 1 (the
# emulation factors tests/kernels/guest-suite sets).
scale_factor() {
    case $1 in '' | *[!0-9]* | 0) echo 1 ;; *) echo "$1" ;; esac
}

# scaled_seconds N: a time limit of N seconds here, times
# HAS_TEST_TIME_SCALE under emulation (scale_factor).
scaled_seconds() {
    echo $(($1 * $(scale_factor "${HAS_TEST_TIME_SCALE:-}")))
}

# launches N FLOOR: how many times to run a loop of N launches that looks
# for a rare event (a leak, a lost signal, a won race).  N here; under
# emulation, where tests/kernels/guest-suite sets HAS_LAUNCH_SCALE=K
# (a TCG guest, 5-10 times slower), N/K but never fewer than FLOOR.  A
# value that is not a positive integer counts as 1: the full count.
launches() {
    local n=$1 floor=$2 m
    m=$((n / $(scale_factor "${HAS_LAUNCH_SCALE:-}")))
    [ "$m" -ge "$floor" ] || m=$floor
    [ "$m" -le "$n" ] || m=$n
    echo "$m"
}
