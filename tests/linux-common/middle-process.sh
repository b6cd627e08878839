#!/bin/bash
# middle-process.sh — the process between the supervisor and the workload
# (linux-ns's init, landlock's broker).  linux-ns: the workload, of the
# init's uid, tries to lower the init's limits with prlimit(1, ...):
# RLIMIT_CPU 0 would have the kernel kill the init and the sandbox (137
# and nothing said), RLIMIT_NOFILE 0 stall every connect() the init
# brokers; both are refused, its own and its child's limits still change,
# and a brokered connect() still completes.  Both backends: when the middle
# process dies anyway (killed from outside here), the supervisor says so on
# stderr and in the refusal report, not a silent 137.
. "$HAS_SRCDIR/tests/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
NO_USERNS="$HAS_BUILDDIR/tests/landlock/helpers/no_userns"
ws=$(mktemp -d /var/tmp/has-middle.XXXXXX)
chmod 777 "$ws"
trap 'rm -rf "$ws"; t_cleanup' EXIT
cd "$ws" || exit 1

# ---- linux-ns: the workload against its init's limits ----
run_sup "$(policy workspace_write false true)" --sandbox linux-ns -- timeout 20 "$PY" -c '
import os, resource, socket, subprocess
for r, n in ((resource.RLIMIT_CPU, "RLIMIT_CPU"), (resource.RLIMIT_NOFILE, "RLIMIT_NOFILE")):
    try:
        resource.prlimit(1, r, (0, 0))
        print("LOWERED init", n)
    except OSError as e:
        print("init", n, e.strerror)
# The kernel reads the pid as an int: 1 with high bits set is the init too.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 302, "aarch64": 261}[os.uname().machine]
zero = (ctypes.c_ulong * 2)(0, 0)
r = libc.syscall(ctypes.c_long(nr), ctypes.c_long((1 << 32) | 1), ctypes.c_long(resource.RLIMIT_CPU), zero, None)
print("init high bits", "LOWERED" if r == 0 else "refused")
resource.prlimit(0, resource.RLIMIT_CPU, (3600, 3600))
print("own", resource.prlimit(os.getpid(), resource.RLIMIT_CPU)[1])
c = subprocess.Popen(["sleep", "5"])
resource.prlimit(c.pid, resource.RLIMIT_NOFILE, (10, 10))
print("child", resource.prlimit(c.pid, resource.RLIMIT_NOFILE)[1])
c.kill()
s = socket.socket(socket.AF_UNIX)
s.bind("sock")
s.listen(1)
d = socket.socket(socket.AF_UNIX)
d.settimeout(5)
d.connect("sock")
print("connect ok")'
if [ "$RC" = 125 ]; then
    echo "# not run: linux-ns cannot start here: $ERR"
else
    expect_rc 0 "linux-ns: the workload ran to its end (its init alive)"
    expect_out '^init RLIMIT_CPU Operation not permitted$' "linux-ns: prlimit(1, RLIMIT_CPU, 0) is refused"
    expect_out '^init RLIMIT_NOFILE Operation not permitted$' "linux-ns: prlimit(1, RLIMIT_NOFILE, 0) is refused"
    expect_out '^init high bits refused$' "linux-ns: so is pid 1 with high garbage"
    expect_out_lacks 'LOWERED' "linux-ns: no limit of the init lowered"
    expect_out '^own 3600$' "linux-ns: the workload's own limits still change (pid 0, its pid)"
    expect_out '^child 10$' "linux-ns: so do its child's"
    expect_out '^connect ok$' "linux-ns: a brokered connect() completes afterwards"
fi

# ---- both: the middle process killed; the supervisor says so ----
POL=$(policy workspace_write false false)
for b in linux-ns landlock; do
    wrap=()
    [ "$b" = landlock ] && wrap=("$NO_USERNS")
    exec 5>"$T_TMP/report"
    "${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --refusal-report 5 --policy "$POL" -- sleep 37.25 \
        >"$T_TMP/out" 2>"$T_TMP/err" </dev/null &
    sup=$!
    exec 5>&-
    # The workload's parent on the host is the middle process.
    middle=''
    for _ in $(seq 100); do
        w=$(pgrep -u "$(id -u)" -f '^sleep 37\.25$' | head -1)
        [ -n "$w" ] && middle=$(awk '/^PPid:/ { print $2 }' "/proc/$w/status" 2>/dev/null) && [ -n "$middle" ] && break
        sleep 0.05
    done
    if [ -z "$middle" ]; then
        wait "$sup"
        RC=$?
        [ "$RC" = 125 ] && echo "# not run: $b cannot start here: $(cat "$T_TMP/err")" && continue
        fail "$b: no workload seen (rc $RC): $(cat "$T_TMP/err")"
        continue
    fi
    kill -KILL "$middle"
    wait "$sup"
    RC=$? ERR=$(cat "$T_TMP/err")
    role=init
    [ "$b" = landlock ] && role=broker
    expect_rc 137 "$b: the supervisor ends as its middle process did (SIGKILL)"
    expect_err "^happy-agent-supervisor: $b: the sandbox's $role process \\(pid $middle\\) was killed by SIGKILL before it reported how the workload ended" \
        "$b: stderr names the $role and its signal"
    grep -q "^{\"event\":\"sandbox-died\",.*\"process\":\"$role\",\"signal\":\"SIGKILL\"" "$T_TMP/report" &&
        ok "$b: the refusal report has a sandbox-died line" || fail "$b: report: $(cat "$T_TMP/report")"
    # landlock's workload dies of its PDEATHSIG, a moment later.
    for _ in $(seq 100); do pgrep -u "$(id -u)" -f '^sleep 37\.25$' >/dev/null || break; sleep 0.05; done
    pgrep -u "$(id -u)" -f '^sleep 37\.25$' >/dev/null && fail "$b: the workload outlived its middle process" ||
        ok "$b: the workload ended with it"
done
finish
