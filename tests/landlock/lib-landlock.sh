# tests/landlock/lib-landlock.sh — helpers shared by the landlock tests
# (sourced after tests/lib.sh).
#
# Every sandboxed run happens on a simulated host without user namespaces:
#   blocked  a seccomp filter refusing CLONE_NEWUSER, like Docker's default
#            profile (helpers/no_userns), around the supervisor -- for the
#            caller as it is, root or not;
#   nouserns a user namespace of its own whose user.max_user_namespaces is
#            0 (nothing inside can create another), the caller mapped to
#            root in it.
# LL_HOST picks one (default: blocked).

NO_USERNS="$HAS_BUILDDIR/tests/landlock/helpers/no_userns"
ATTACK="$HAS_BUILDDIR/tests/linux-ns/helpers/ns_attack"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
LL_HOST=${LL_HOST:-blocked}

# The host must have Landlock, or nothing here can run.
ll_require() {
    local abi
    abi=$("$PY" -c 'import ctypes; print(ctypes.CDLL(None).syscall(444, None, 0, 1))' 2>/dev/null)
    if [ "${abi:-0}" -le 0 ] 2>/dev/null; then
        sandbox_unavailable "this kernel has no Landlock (ABI ${abi:-?})"
    fi
    LL_ABI=$abi
}

# on_blocked_host CMD...: CMD where no user namespace can be made.
on_blocked_host() {
    case $LL_HOST in
    blocked) "$NO_USERNS" "$@" ;;
    nouserns) unshare --user --map-root-user sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh "$@" ;;
    esac
}

# ll_run POLICY [ARGS...] -- TARGET...: run_sup with --sandbox landlock on
# the blocked host; sets RC, OUT, ERR.
ll_run() {
    local pol=$1
    shift
    on_blocked_host "$SUPERVISOR" --sandbox landlock --policy "$pol" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
