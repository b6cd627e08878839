# shellcheck shell=bash
# tests/landlock/lib-landlock.sh — helpers shared by the landlock tests
# (sourced after tests/lib.sh).
#
# Every sandboxed run happens on a simulated host without user namespaces:
#   blocked  a seccomp filter refusing CLONE_NEWUSER, like Docker's default
#            profile (helpers/no_userns), around the supervisor -- for the
#            caller as it is, root or not;
#   nouserns a user namespace of its own whose user.max_user_namespaces is
#            0 (nothing inside can create another), the caller mapped to
#            root in it;
#   container the host as it is: a container whose runtime already
#            refuses namespaces (tests/landlock/container-check).
# LL_HOST picks one (default: blocked).

NO_USERNS="$HAS_BUILDDIR/tests/landlock/helpers/no_userns"
# shellcheck disable=SC2034 # read by the test scripts that source this file
ATTACK="$HAS_BUILDDIR/tests/linux-ns/helpers/ns_attack"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
LL_HOST=${LL_HOST:-blocked}

# ll_require: what this kernel's Landlock (ABI in LL_ABI) lets the script
# check.  Without Landlock, or for a caller the supervisor sees as root
# (LL_HOST=nouserns maps the caller to root) below ABI 6 (no signal
# scope), the backend refuses every launch with 125 naming what the kernel
# lacks (backends/landlock/README.md, "Per kernel"): then that refusal is
# what the script checks, and it ends there.  HAS_REQUIRE_LANDLOCK_ABI=N
# (tests/run-all: 6) makes a kernel below N a failure instead, so a host
# meant to run everything cannot pass by checking only refusals.
ll_require() {
    local abi
    abi=$("$PY" -c 'import ctypes; print(ctypes.CDLL(None).syscall(444, None, 0, 1))' 2>/dev/null)
    [ "${abi:-0}" -gt 0 ] 2>/dev/null || abi=0
    # shellcheck disable=SC2034 # read by the test scripts that source this file (tests/landlock/network.sh)
    LL_ABI=$abi
    # Read by atk.py in the sandbox (the workload gets the caller's environment).
    LL_SIGNAL_SCOPE=0
    [ "$abi" -lt 6 ] || LL_SIGNAL_SCOPE=1
    # Whether the test's file system takes user.* attributes (tmpfs does
    # from Linux 6.6 only: a guest's root is one), probed out here.
    LL_USER_XATTRS=1
    "$PY" -c 'import os, sys; open(sys.argv[1], "w").close(); os.setxattr(sys.argv[1], "user.probe", b"1")' \
        "$T_TMP/xattr-probe" 2>/dev/null || LL_USER_XATTRS=0
    export LL_SIGNAL_SCOPE LL_USER_XATTRS
    if [ "$abi" -lt "${HAS_REQUIRE_LANDLOCK_ABI:-0}" ]; then
        fail "HAS_REQUIRE_LANDLOCK_ABI=$HAS_REQUIRE_LANDLOCK_ABI and this kernel's Landlock ABI is $abi"
        finish
    fi
    if [ "$abi" = 0 ]; then
        ll_expect_refused "a kernel without Landlock" 'Landlock is not available on this kernel'
    elif [ "$abi" -lt 6 ] && { is_root || [ "$LL_HOST" = nouserns ]; }; then
        ll_expect_refused "a root caller on Landlock ABI $abi" \
            "a root caller needs Landlock's signal scope \\(ABI 6.*this kernel has ABI $abi"
    fi
}

# ll_expect_refused WHAT PATTERN: a landlock launch is refused before its
# target runs: 125, one line matching PATTERN; then finish.
ll_expect_refused() {
    ll_run "$(policy workspace_write false false)" -- /bin/sh -c "echo ran >'$T_TMP/ran'"
    expect_rc 125 "$1: refused"
    expect_err "$2" "$1: the refusal names what the kernel lacks"
    expect_one_line_error "$1"
    expect_absent "$T_TMP/ran" "$1: the target never ran"
    finish
}

# on_blocked_host CMD...: CMD where no user namespace can be made.
on_blocked_host() {
    case $LL_HOST in
    blocked) "$NO_USERNS" "$@" ;;
    nouserns) unshare --user --map-root-user sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh "$@" ;;
    container) "$@" ;;
    esac
}

# ll_run POLICY [ARGS...] -- TARGET...: run_sup with --sandbox landlock on
# the blocked host; sets RC, OUT, ERR.
# shellcheck disable=SC2034 # ll_run sets RC, OUT, ERR for the calling test script
ll_run() {
    local pol=$1
    shift
    on_blocked_host "$SUPERVISOR" --sandbox landlock --policy "$pol" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
