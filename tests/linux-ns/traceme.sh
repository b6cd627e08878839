#!/bin/bash
# traceme.sh — the status is the workload's own whatever it does with
# ptrace: a workload that makes its parent (the sandbox's init under
# linux-ns, the broker under landlock) its tracer with PTRACE_TRACEME, writes
# a file and then exits, raises a signal, execs or stops itself is reported
# with its real exit status or death signal, never as 125 ("never ran"),
# and never hangs.  Every run is bounded by timeout(1).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
sandbox_require

TRACEME="$HAS_BUILDDIR/tests/linux-ns/helpers/traceme"
POL=$(policy workspace_write false false)
LIMIT=20 # seconds; a hang ends as timeout's 124

# case_rc BACKEND WANT WHAT MODE ARGS...: in a fresh workspace, the
# supervisor's exit status is WANT (128+S: death by signal S, as bash sees
# it) and the workload wrote its file (it ran).
case_rc() {
    local backend=$1 want=$2 what=$3 ws
    shift 3
    ws=$(outside_dir)
    chmod 777 "$ws"
    case $backend in
    linux-ns) (cd "$ws" && timeout "$LIMIT" "$SUPERVISOR" --policy "$POL" -- "$TRACEME" "$@") \
        >"$T_TMP/out" 2>"$T_TMP/err" </dev/null ;;
    landlock) (cd "$ws" && on_blocked_host timeout "$LIMIT" "$SUPERVISOR" --sandbox landlock --policy "$POL" \
        -- "$TRACEME" "$@") >"$T_TMP/out" 2>"$T_TMP/err" </dev/null ;;
    esac
    RC=$? ERR=$(cat "$T_TMP/err")
    expect_rc "$want" "$backend: $what"
    if [ "$1" = orphan ]; then
        [ -e "$ws/orphan-resumed" ] && ok "$backend: $what: the traced orphan went on" ||
            fail "$backend: $what: the traced orphan never went on"
    else
        [ -e "$ws/traced" ] && ok "$backend: $what: the workload ran" || fail "$backend: $what: no trace of the workload"
    fi
}

backends=linux-ns
abi=$("$PY" -c 'import ctypes; print(ctypes.CDLL(None).syscall(444, None, 0, 1))' 2>/dev/null)
if [ "${abi:-0}" -gt 0 ] 2>/dev/null; then backends="$backends landlock"
else echo "# this kernel has no Landlock: the landlock backend not checked"; fi
USR1=$((128 + $(kill -l USR1))) TERM=$((128 + $(kill -l TERM))) TRAP=$((128 + $(kill -l TRAP)))
for b in $backends; do
    case_rc "$b" 7 "TRACEME, exit 7" exit 7
    case_rc "$b" "$USR1" "TRACEME, raise(SIGUSR1): death by SIGUSR1" raise "$(kill -l USR1)"
    case_rc "$b" "$TERM" "TRACEME, kill(getpid(), SIGTERM): death by SIGTERM" kill-self "$(kill -l TERM)"
    case_rc "$b" "$TRAP" "TRACEME, raise(SIGTRAP): death by SIGTRAP (not the exec's trap)" raise "$(kill -l TRAP)"
    case_rc "$b" 0 "TRACEME, execve /bin/true" exec /bin/true
    case_rc "$b" 1 "TRACEME, execve /bin/false" exec /bin/false
    case_rc "$b" 3 "TRACEME, raise(SIGSTOP), exit 3: no hang" stop-exit 3
    case_rc "$b" 4 "TRACEME, a group-stop by another thread, exit 4: no hang" group-stop 4
    case_rc "$b" 0 "an orphan reparented to the init does TRACEME and stops" orphan
    [ -z "$ERR" ] || echo "# stderr: $ERR"
done
finish
