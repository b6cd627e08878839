#!/bin/bash
# terminal.sh — the workload cannot signal the caller's process group or
# take its terminal, on any kernel (Landlock's signal scope, Linux >= 6.12,
# switched off for the attack), while a command started from a real
# terminal still reads it, gets ^C and window changes.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(make_workspace)
cd "$ws" || exit 1
P=$(policy workspace_write false false)
TTY="$NS_PY/tty_session.py"
NO_LANDLOCK=("$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" landlock_create_ruleset)

# --- kill(0, sig) and kill(-1, sig): the caller's process group survives ----
# Run in a process group of its own (setsid), so that a successful attack
# kills the scenario, not this test.  The scenario prints "caller-alive"
# only if it and its sibling job survived.
scenario() {
    setsid bash -c 'sleep 30 & sib=$!
        "$@"
        sleep 0.2
        kill -0 $sib 2>/dev/null && echo caller-alive
        kill $sib 2>/dev/null' scenario "$@" >"$T_TMP/scenario" 2>&1
    OUT=$(cat "$T_TMP/scenario")
}
scenario sh -c 'kill -TERM 0'
expect_out_lacks caller-alive "control: kill(0) from an unsandboxed command kills its caller's process group"
for egress in false true; do
    for landlock in on off; do
        wrap=()
        [ $landlock = off ] && wrap=("${NO_LANDLOCK[@]}")
        scenario "${wrap[@]}" "$SUPERVISOR" --policy "$(policy workspace_write $egress false)" -- \
            sh -c 'kill -TERM 0; kill -HUP -1; kill -KILL -1'
        expect_out caller-alive "egress $egress, Landlock $landlock: kill(0) and kill(-1) inside leave the caller and its sibling job alive"
    done
done

# --- the terminal: no controlling terminal inside, so no TIOCSPGRP --------
take='import os
try:
    os.tcsetpgrp(0, os.getpgrp()); print("TAKEN")
except OSError as e:
    print("refused:", e.strerror)
try:
    os.close(os.open("/dev/tty", os.O_RDWR)); print("CTTY")
except OSError as e:
    print("no-ctty:", e.strerror)
print("READY")'
"$PY" "$TTY" -- "$PY" -c "$take" >"$T_TMP/t" 2>&1
OUT=$(cat "$T_TMP/t")
expect_out TAKEN "control: a process on the terminal can set its foreground group"
for landlock in on off; do
    wrap=()
    [ $landlock = off ] && wrap=("${NO_LANDLOCK[@]}")
    "$PY" "$TTY" -- "${wrap[@]}" "$SUPERVISOR" --policy "$P" -- "$PY" -c "$take" >"$T_TMP/t" 2>&1
    OUT=$(cat "$T_TMP/t")
    expect_out 'refused: ' "Landlock $landlock: TIOCSPGRP (tcsetpgrp) from inside is refused"
    expect_out_lacks 'TAKEN|CTTY' "Landlock $landlock: the caller's terminal is not the workload's controlling terminal"
done
# After the run the caller's shell still owns the terminal.
"$PY" "$TTY" -- sh -c "'$SUPERVISOR' --policy '$P' -- $PY -c 'import os; os.setpgid(0, 0)'
    $PY -c 'import os; print(\"fg-ok\" if os.tcgetpgrp(0) == os.getpgrp() else \"fg-LOST\")'" >"$T_TMP/t" 2>&1
OUT=$(cat "$T_TMP/t")
expect_out fg-ok "the caller's process group is the terminal's foreground group after the run"

# The terminal's settings come back as they were: a workload that turns
# echo off (or raw mode) and ends leaves the caller's shell usable.
"$PY" "$TTY" -- sh -c "'$SUPERVISOR' --policy '$P' -- stty -echo raw; stty -a" >"$T_TMP/t" 2>&1
OUT=$(cat "$T_TMP/t")
expect_out '(^| )echo( |$)' "echo is on again after a workload turned it off"
expect_out_lacks '(^| )-icanon( |$)' "and the terminal is no longer raw"

# --- but an interactive command works as the user expects ----------------
"$PY" "$TTY" --after READY 'type:hello\n' -- "$SUPERVISOR" --policy "$P" -- sh -c 'echo READY; read x; echo "got:$x"' >"$T_TMP/t" 2>&1
OUT=$(cat "$T_TMP/t")
expect_out '^got:hello' "the workload reads what is typed on the terminal"
"$PY" "$TTY" --after READY 'type:\x03' -- "$SUPERVISOR" --policy "$P" -- \
    sh -c 'trap "echo INT-caught; exit 7" INT; echo READY; sleep 10 & wait' >"$T_TMP/t" 2>&1
RC=$?
OUT=$(cat "$T_TMP/t")
expect_out INT-caught "^C on the terminal reaches the workload"
expect_rc 7 "and its exit status is the workload's"
"$PY" "$TTY" --after READY 'type:\x03' -- "$SUPERVISOR" --policy "$P" -- sh -c 'echo READY; sleep 10' >"$T_TMP/t" 2>&1
RC=$?
expect_rc 130 "^C ends a workload that does not catch it, as SIGINT"
"$PY" "$TTY" --after READY resize -- "$SUPERVISOR" --policy "$P" -- \
    sh -c 'trap "echo WINCH; exit 0" WINCH; echo READY; sleep 10 & wait' >"$T_TMP/t" 2>&1
OUT=$(cat "$T_TMP/t")
expect_out '^WINCH' "a window size change reaches the workload (SIGWINCH)"
finish
