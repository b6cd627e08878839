#!/bin/bash
# diagnostics.sh — when the kernel refuses to make the sandbox, the run stops
# with 125 and one line naming the cause and the fix, and the target never
# runs.  Reproduced for real: user.max_user_namespaces is per user namespace,
# so setting it to 0 inside a namespace of our own disables nested user
# namespaces for the supervisor started there, without touching the host.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require
require_tool unshare util-linux

P=$(policy read_only false false)
# launch_in_own_userns UNSHARE-FLAGS SETUP MARK: as root of a user
# namespace of our own (unshare FLAGS), SETUP, then a launch whose target
# would touch MARK; RC (99: SETUP failed) and ERR are the launch's.
launch_in_own_userns() {
    unshare "$1" bash -c "$2"' || exit 99
    "$1" --policy "$2" -- /bin/sh -c "touch \"$3\""' _ "$SUPERVISOR" "$P" "$3" >"$T_TMP/out" 2>"$T_TMP/err"
    RC=$?
    ERR=$(cat "$T_TMP/err")
}

MARK="$T_TMP/marker"
launch_in_own_userns -Ur 'echo 0 >/proc/sys/user/max_user_namespaces' "$MARK"
[ "$RC" = 99 ] && skip "cannot set user.max_user_namespaces inside a user namespace here"
expect_rc 125 "user namespaces disabled"
expect_err "user namespaces are disabled \(user\.max_user_namespaces = 0\)" "the cause is named"
expect_err "fix: sysctl -w user\.max_user_namespaces=" "the fix is named"
expect_one_line_error "user namespaces disabled"
[ -e "$MARK" ] && fail "the target ran without a sandbox" || ok "the target did not run"

# A container runtime's /proc/sys is read-only: the sandbox's own per-user
# counters cannot be bounded there.  Reproduced with a read-only bind of
# /proc/sys in a user and mount namespace of our own.
MARK="$T_TMP/marker-rosys"
launch_in_own_userns -Urm 'mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys' "$MARK"
if [ "$RC" = 99 ]; then
    ok "no read-only bind of /proc/sys in a user namespace here: the read-only /proc/sys case is not reproduced"
else
    expect_rc 125 "read-only /proc/sys"
    expect_err "cannot bound user\.max_inotify_instances .*Read-only file system: /proc/sys is read-only here" "the cause is named"
    expect_err "fix: run the container with --security-opt systempaths=unconfined; or, without namespaces: --sandbox landlock" \
        "the fix and the backend without namespaces are named"
    expect_one_line_error "read-only /proc/sys"
    [ -e "$MARK" ] && fail "the target ran with /proc/sys read-only" || ok "the target did not run"
fi

# A kernel without what the connect() check needs (Linux < 5.6): refused,
# never run with host sockets left open.  Without openat2 (a filter around
# the supervisor) every AF_UNIX connect is refused instead.
# shellcheck disable=SC2043 # a list of one syscall, kept a loop for adding more
for missing in pidfd_getfd; do
    "$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" "$missing" "$SUPERVISOR" --policy "$P" -- \
        /bin/sh -c "touch '$MARK-$missing'" >"$T_TMP/out" 2>"$T_TMP/err"
    RC=$?
    ERR=$(cat "$T_TMP/err")
    expect_rc 125 "no $missing"
    expect_err "lacks $missing \(Linux >= 5.6\).*host Unix sockets" "the missing call and why are named"
    expect_one_line_error "no $missing"
    expect_absent "$MARK-$missing" "no $missing: the target did not run"
done
"$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" pidfd_getfd "$SUPERVISOR" \
    --policy "$(policy full_access true true)" -- /bin/true
RC=$?
expect_rc 0 "full_access needs no connect() check"
cd "$(make_workspace)" || exit 1
"$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" openat2 "$SUPERVISOR" --policy "$(policy workspace_write false true)" -- \
    "$PY" -c 'import os, socket
s = socket.socket(socket.AF_UNIX); s.bind("own.sock"); s.listen(1)
c = socket.socket(socket.AF_UNIX)
try:
    c.connect("own.sock"); print("CONNECTED")
except OSError as e:
    print("refused:", e.strerror)' >"$T_TMP/out" 2>&1
OUT=$(cat "$T_TMP/out")
expect_out '^refused: Function not implemented$' "no openat2: every AF_UNIX connect is refused (closed, not open)"

finish
