#!/bin/bash
# limits.sh — the policy's limits, from outside, on both Linux backends.
# Where this host lets the caller make a cgroup v2 group with the memory
# and pids controllers (the kernel-matrix guests, as root), the limits are
# enforced through it; where it does not (a cgroup v1 host, a caller
# without delegation) each limit is either enforced another way
# (openFiles: RLIMIT_NOFILE; processes under linux-ns for a non-root
# caller: RLIMIT_NPROC in the sandbox's user namespace) or refused with
# 125 and the fix.  Every branch checks something; none is skipped.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require
require_tool python3
PY=python3

ws=$(outside_dir)
chmod 777 "$ws"
cd "$ws" || exit 1
lim() { printf '{"mode":"workspace_write","network":{"egress":false,"localBinding":false},"limits":%s}' "$1"; }

# Can this caller make a group with controller $1 (as the supervisor would)?
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
can_group() {
    # The group's kill switch, cgroup.kill, is Linux 5.14's.
    kernel_at_least 5 14 && [ -n "$mnt" ] && [ -n "$own" ] || return 1
    local d
    for d in "$mnt${own%/}" "$mnt$(dirname "$own")"; do
        [ -w "$d/cgroup.procs" ] && grep -qw "$1" "$d/cgroup.subtree_control" 2>/dev/null && return 0
    done
    return 1
}
backends="linux-ns"
"$SUPERVISOR" --sandbox landlock --policy "$(lim '{}')" -- true 2>/dev/null && backends="$backends landlock"

for b in $backends; do
    # openFiles: RLIMIT_NOFILE, any host.
    run_sup "$(lim '{"openFiles":64}')" --sandbox "$b" -- "$PY" -c '
import resource, errno
print("soft", resource.getrlimit(resource.RLIMIT_NOFILE)[0])
fds = []
try:
    for i in range(200): fds.append(open("/dev/null"))
except OSError as e: print("stopped", errno.errorcode[e.errno])'
    expect_out '^soft 64$' "$b: openFiles 64 is the workload's RLIMIT_NOFILE"
    expect_out '^stopped EMFILE$' "$b: opening beyond it fails with EMFILE"

    # memoryBytes: a group with the memory controller, or 125.
    if can_group memory; then
        sleep 60 & beside=$!
        exec 5>"$T_TMP/report"
        "$SUPERVISOR" --sandbox "$b" --refusal-report 5 --policy "$(lim '{"memoryBytes":67108864}')" -- timeout 30 "$PY" -c '
chunks = []
for i in range(100): chunks.append(bytearray(8 << 20))
print("not killed")' >"$T_TMP/out" 2>"$T_TMP/err"
        RC=$?; exec 5>&-
        [ "$RC" = 137 ] && ok "$b: a memory hog over memoryBytes is killed (137)" || fail "$b: memory hog: rc $RC, $(cat "$T_TMP/err")"
        grep -q 'reached limits.memoryBytes (67108864 bytes)' "$T_TMP/err" && ok "$b: stderr names limits.memoryBytes" ||
            fail "$b: stderr: $(cat "$T_TMP/err")"
        grep -q '"event":"limit-reached".*"limit":"memoryBytes"' "$T_TMP/report" && ok "$b: the report names memoryBytes" ||
            fail "$b: report: $(cat "$T_TMP/report")"
        kill -0 "$beside" 2>/dev/null && ok "$b: a host process beside it lives" || fail "$b: the host process beside died"
        kill "$beside"; wait "$beside" 2>/dev/null
    else
        run_sup "$(lim '{"memoryBytes":67108864}')" --sandbox "$b" -- true
        expect_rc 125 "$b: memoryBytes without a cgroup v2 memory controller is refused"
        expect_err 'limits.memoryBytes needs a cgroup v2 group.*systemd-run --user --scope -p Delegate=yes' \
            "$b: the refusal names the cause and the fix"
        kernel_at_least 5 14 || expect_err 'cgroup.kill, needs Linux >= 5.14' "$b: before Linux 5.14 the cause is cgroup.kill's absence"
    fi

    # processes: pids.max, RLIMIT_NPROC in linux-ns's user namespace, or 125.
    # RLIMIT_NPROC counts the user namespace alone from Linux 5.14.
    if can_group pids || { [ "$b" = linux-ns ] && ! is_root && kernel_at_least 5 14; }; then
        marker="has-limits-bomb-$$-$b"
        exec 5>"$T_TMP/report"
        timeout 40 "$SUPERVISOR" --sandbox "$b" --refusal-report 5 --policy "$(lim '{"processes":20}')" -- "$PY" -c '
import os, sys, time, errno
kids, err = [], None
for i in range(70):
    try: pid = os.fork()
    except OSError as e: err = e.errno; break
    if pid == 0:
        time.sleep(8); os._exit(0)
    kids.append(pid)
print(len(kids), errno.errorcode.get(err, err), flush=True)
time.sleep(3)' "$marker" >"$T_TMP/out" 2>"$T_TMP/err" &
        bomb=$!
        sleep 1.5
        sib=$("$PY" -c '
import os
n = 0
for i in range(30):
    pid = os.fork()
    if pid == 0: os._exit(0)
    os.waitpid(pid, 0); n += 1
print(n)')
        wait "$bomb"; RC=$?; exec 5>&-
        OUT=$(cat "$T_TMP/out")
        expect_out '^19 EAGAIN$' "$b: a fork bomb under processes 20 gets EAGAIN at the limit"
        if can_group pids; then
            "$PY" - "$T_TMP/report" <<'PYEOF' && ok "$b: the report has limit-reached (processes, 20, a count), then workload-ended with the leftovers killed" || fail "$b: report: $(cat "$T_TMP/report")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
reached = [e for e in lines if e["event"] == "limit-reached"]
assert reached and reached[0]["limit"] == "processes" and reached[0]["value"] == 20 and reached[0]["count"] >= 1, lines
assert lines[-1]["event"] == "workload-ended" and lines[-1]["killedBySupervisor"] is True, lines
PYEOF
        fi
        [ "$sib" = 30 ] && ok "$b: a sibling process of the caller forks meanwhile" || fail "$b: the sibling forked $sib of 30"
        sleep 0.5
        left=$(pgrep -f "$marker" | wc -l)
        [ "$left" = 0 ] && ok "$b: no process of the bomb is left on the host" || fail "$b: $left left"
        if can_group pids; then
            grep -q 'reached limits.processes (20)' "$T_TMP/err" && ok "$b: stderr names limits.processes" ||
                fail "$b: stderr: $(cat "$T_TMP/err")"
        fi
    else
        run_sup "$(lim '{"processes":20}')" --sandbox "$b" -- true
        expect_rc 125 "$b: processes without a pids controller (or RLIMIT_NPROC in a user namespace) is refused"
        expect_err 'limits.processes needs a cgroup v2 group' "$b: the refusal names the cause and the fix"
        [ "$b" = linux-ns ] && ! is_root && ! kernel_at_least 5 14 &&
            expect_err 'RLIMIT_NPROC, the other way, counts the sandbox alone from Linux 5.14' "$b: before 5.14 RLIMIT_NPROC is said not to count the sandbox alone"
    fi
done

# The kernel-release checks, on this host too: under the UNAME26
# personality uname(2) names a 2.6 release, older than 5.14.
if kernel_at_least 5 14 && setarch --uname-2.6 true 2>/dev/null; then
    OUT=$(setarch --uname-2.6 "$SUPERVISOR" --sandbox linux-ns --policy "$(lim '{"memoryBytes":67108864}')" -- true 2>&1)
    RC=$?
    [ "$RC" = 125 ] && ok "an older release: memoryBytes is refused (125)" || fail "an older release: memoryBytes: rc $RC: $OUT"
    expect_out 'cgroup.kill, needs Linux >= 5.14' "an older release: the refusal names cgroup.kill's absence"
    OUT=$(setarch --uname-2.6 "$SUPERVISOR" --sandbox linux-ns --policy "$(lim '{"processes":20}')" -- true 2>&1)
    RC=$?
    [ "$RC" = 125 ] && ok "an older release: processes is refused (125)" || fail "an older release: processes: rc $RC: $OUT"
    is_root || expect_out 'RLIMIT_NPROC, the other way, counts the sandbox alone from Linux 5.14' \
        "an older release: RLIMIT_NPROC is said not to count the sandbox alone"
fi

# Landlock's orphans: with a group (any cgroup v2 hierarchy the caller may
# write, controllers or not), nothing survives SIGKILL of the supervisor.
case " $backends " in *" landlock "*)
    marker="has-limits-orphan-$$"
    if kernel_at_least 5 14 && [ -n "$mnt" ] && { [ -w "$mnt${own%/}/cgroup.procs" ] || [ -w "$mnt$(dirname "$own")/cgroup.procs" ]; }; then
        "$SUPERVISOR" --sandbox landlock --policy "$(lim '{}')" -- setsid "$PY" -c 'import time; time.sleep(300)' "$marker" 2>/dev/null &
        sup=$!
        for _ in $(seq 50); do pgrep -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker" >/dev/null && break; sleep 0.1; done
        pgrep -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker" >/dev/null && ok "landlock: the orphan in a new session runs" || fail "landlock: no orphan started"
        kill -9 "$sup"; wait "$sup" 2>/dev/null
        for _ in $(seq 50); do pgrep -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker" >/dev/null || break; sleep 0.1; done
        pgrep -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker" >/dev/null && fail "landlock: the orphan survived SIGKILL of the supervisor" ||
            ok "landlock: the group's kill switch ended the orphan after SIGKILL of the supervisor"
        pkill -9 -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker" 2>/dev/null
        # The keeper removes the group once the kernel says it is empty
        # (cgroup.events populated 0), which comes after the last process
        # has left /proc: wait for it, a bounded while.
        for _ in $(seq 50); do [ -z "$(find "$mnt" -maxdepth 3 -name "has-$sup-*" 2>/dev/null)" ] && break; sleep 0.1; done
        [ -z "$(find "$mnt" -maxdepth 3 -name "has-$sup-*" 2>/dev/null)" ] && ok "landlock: the group was removed" ||
            fail "landlock: the group has-$sup-* is left"
        # Every time, under load: twelve supervisors at once, two busy
        # loops at nice 19 beside them, SIGKILLed once their workloads have
        # run a while; each group is gone within 2 s (keepers slept through
        # cgroup.events' notice for 10 s: cgroup.c, CGROUP_END_RECHECK_MS).
        busy="" sups=""
        for _ in 1 2; do nice -n 19 sh -c 'while :; do :; done' & busy="$busy $!"; done
        for i in $(seq 12); do
            "$SUPERVISOR" --sandbox landlock --policy "$(lim '{}')" -- setsid "$PY" -c 'import time; time.sleep(300)' "$marker-$i" 2>/dev/null &
            sups="$sups $!"
        done
        for _ in $(seq 100); do
            [ "$(pgrep -f "^[^ ]*python[0-9.]* -c import time; time.sleep.300. $marker-[0-9]*\$" | wc -l)" = 12 ] && break
            sleep 0.1
        done
        sleep 2
        # shellcheck disable=SC2086 # pids, one word each
        kill -9 $sups; wait $sups 2>/dev/null
        sleep 2
        left=""
        for s in $sups; do [ -n "$(find "$mnt" -maxdepth 3 -name "has-$s-*" 2>/dev/null)" ] && left="$left has-$s"; done
        # shellcheck disable=SC2086 # pids, one word each
        kill $busy; wait $busy 2>/dev/null
        [ -z "$left" ] && ok "landlock: twelve supervisors SIGKILLed at once under load: every group removed within 2 s" ||
            fail "landlock: groups left 2 s after SIGKILL of their supervisors under load:$left"
        # A group the workload could write is no group: with the cgroup
        # file system among the writable paths the workload would raise its
        # limits or leave the group through the common ancestor's
        # cgroup.procs, so the supervisor makes none.
        wpol='{"mode":"workspace_write","allowedWritePaths":["'"$mnt"'"],"network":{"egress":false,"localBinding":false}}'
        run_sup '{"mode":"workspace_write","network":{"egress":false,"localBinding":false}}' --sandbox landlock -- cat /proc/self/cgroup
        expect_out '^0::.*/has-[0-9]+-[0-9a-f]+$' "landlock: the workload runs in a group of its own"
        # Born in the group by clone3(CLONE_INTO_CGROUP); where a
        # container's seccomp profile answers clone3 with ENOSYS, forked and
        # moved in before it runs anything: in the group all the same.
        OUT=$("$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" clone3 "$SUPERVISOR" --sandbox landlock \
            --policy '{"mode":"workspace_write","network":{"egress":false,"localBinding":false}}' -- cat /proc/self/cgroup 2>&1)
        expect_out '^0::.*/has-[0-9]+-[0-9a-f]+$' "landlock: without clone3 the workload joins the group all the same"
        run_sup "$wpol" --sandbox landlock -- cat /proc/self/cgroup
        if is_host_root; then
            # No group, so no device program for a root caller's device
            # nodes: refused (tests/landlock/device-nodes.sh).
            expect_rc 125 "landlock: the cgroup mount writable, as root: refused"
            expect_err 'could open device nodes outside /dev.*a writable root reaches' \
                "landlock: the cgroup mount writable, as root: the refusal names the device nodes"
        else
            expect_rc 0 "landlock: the cgroup mount writable: the launch goes on"
        fi
        grep -q '^0::.*/has-' "$T_TMP/out" && fail "landlock: the workload is in a group it may write: $(grep '^0::' "$T_TMP/out")" ||
            ok "landlock: the cgroup mount writable: no group the workload could rewrite"
    else
        ok "landlock: no writable cgroup v2 hierarchy here: orphans are not ended (README, The landlock backend)"
    fi
;; esac

finish
