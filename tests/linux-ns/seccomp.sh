#!/bin/bash
# seccomp.sh — the filter: bind/listen, io_uring, other ABIs, nested user
# namespaces, terminal injection, and the dump tool.  Each attack also runs
# outside the sandbox as a control, where it must succeed (or the kernel does
# not support it and the check is skipped).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
NOBIND=$(policy workspace_write false false)
BIND=$(policy workspace_write false true)

run_sup "$NOBIND" -- "$ATTACK" bind
expect_rc 0 "localBinding false: bind -> EPERM"
run_sup "$NOBIND" -- "$ATTACK" listen
expect_rc 0 "localBinding false: listen -> EPERM"
run_sup "$(policy workspace_write true false)" -- "$ATTACK" bind
expect_rc 0 "localBinding false, egress true: bind -> EPERM"
run_sup "$BIND" -- "$ATTACK" bind-ok
expect_rc 0 "localBinding true: bind, listen and connect on lo"

# io_uring: control first — on this kernel it carries bind+listen.
"$ATTACK" uring-bind >"$T_TMP/ctl" 2>&1
ctl=$?
run_sup "$NOBIND" -- "$ATTACK" uring-bind
expect_rc 0 "io_uring refused (ENOSYS)"
run_sup "$BIND" -- "$ATTACK" uring-bind
expect_rc 0 "io_uring refused even with localBinding true"
if [ "$ctl" = 1 ]; then ok "control: io_uring bind+listen works outside the sandbox"
else echo "# control: io_uring bind outside gave $ctl: $(cat "$T_TMP/ctl")"; fi

# Other syscall ABIs are killed (x86_64 only).
if [ "$(uname -m)" = x86_64 ]; then
    run_sup "$NOBIND" -- "$ATTACK" i386
    expect_rc 159 "i386 int 0x80 killed by SIGSYS"
    run_sup "$NOBIND" -- "$ATTACK" x32
    expect_rc 159 "x32 syscall killed by SIGSYS"
    "$ATTACK" i386 >/dev/null 2>&1
    rc=$?
    if [ "$rc" = 1 ]; then ok "control: i386 syscall returns outside"; else fail "control i386: $rc"; fi
    "$ATTACK" x32 >/dev/null 2>&1
    rc=$?
    if [ "$rc" = 1 ]; then ok "control: x32 syscall returns outside"; else fail "control x32: $rc"; fi
fi

run_sup "$NOBIND" -- "$ATTACK" userns
expect_rc 0 "unshare/clone CLONE_NEWUSER -> EPERM, clone3 -> ENOSYS"
run_sup "$NOBIND" -- sh -c 'echo forked-ok | cat'
expect_out forked-ok "fork/exec still work without clone3"

# TIOCSTI / TIOCLINUX with a real pty as the controlling terminal.
"$PY" "$NS_PY/tty_session.py" "$SUPERVISOR" --policy "$NOBIND" -- "$ATTACK" tiocsti >"$T_TMP/pty" 2>&1
RC=$?; OUT=$(cat "$T_TMP/pty"); ERR=$OUT
expect_rc 0 "TIOCSTI (plain and with high bits) -> EPERM on the controlling pty"
expect_out 'refused: TIOCSTI \| 1<<32: Operation not permitted' "high-bit TIOCSTI caught"
"$PY" "$NS_PY/tty_session.py" "$SUPERVISOR" --policy "$NOBIND" -- "$ATTACK" tioclinux >"$T_TMP/pty" 2>&1
RC=$?; ERR=$(cat "$T_TMP/pty")
expect_rc 0 "TIOCLINUX -> EPERM"
"$PY" "$NS_PY/tty_session.py" "$ATTACK" tiocsti >"$T_TMP/pty" 2>&1
rc=$?
if [ "$rc" = 1 ]; then ok "control: TIOCSTI injects outside the sandbox"
else echo "# control: TIOCSTI outside gave $rc (dev.tty.legacy_tiocsti=0?): $(cat "$T_TMP/pty")"; fi

# The audit tool prints the table.
DUMP="$HAS_BUILDDIR/backends/linux-common/happy-agent-supervisor-seccomp-dump"
if [ -x "$DUMP" ]; then
    OUT=$("$DUMP" "$NOBIND" 2>&1)
    for sc in bind listen io_uring_setup ioctl clone3 keyctl mount_setattr; do
        expect_out "$sc" "seccomp-dump lists $sc"
    done
    OUT=$("$DUMP" "$BIND" 2>&1)
    expect_out_lacks '# filter for syscall "(bind|listen)"' "localBinding true: bind/listen not filtered"
fi
finish
