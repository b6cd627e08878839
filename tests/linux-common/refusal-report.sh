#!/bin/bash
# tests/linux-common/refusal-report.sh — the report's lines besides the
# proxy's (README "Refusal report"), from real runs of both Linux
# backends: a Unix socket the connect() broker refuses, an abstract
# address and a metadata change the landlock broker refuses, and the
# supervisor's last line (exit status, signal, whether the sandbox killed
# what the workload left running); nothing for what is
# allowed; and the workload never holds the report's descriptor (its
# /proc/self/fd), while the broker, which writes to it, does.
. "$HAS_SRCDIR/tests/lib.sh"
sandbox_require

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
POL='{"mode":"workspace_write","network":{"egress":false,"localBinding":false}}'
mkdir -p "$T_TMP/work" "$T_TMP/host"
echo keep >"$T_TMP/host/file"
chmod 600 "$T_TMP/host/file"
"$PY" -c 'import socket,sys,time
for p in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(); globals()[p] = s
time.sleep(120)' "$T_TMP/host/s.sock" "$T_TMP/work/own.sock" &
LISTENER=$!
for _ in $(seq 50); do [ -S "$T_TMP/work/own.sock" ] && break; sleep 0.1; done

# The workload: each operation's outcome on stdout, then exit 3.
cat >"$T_TMP/w.py" <<'PYEOF'
import os, socket, sys
def attempt(label, f):
    try:
        f(); print(label, "ok")
    except OSError as e:
        print(label, e.errno)
def connect(addr):
    s = socket.socket(socket.AF_UNIX)
    try: s.connect(addr)
    finally: s.close()
host, own = sys.argv[1:3]
attempt("host-socket", lambda: connect(host + "/s.sock"))
attempt("own-socket", lambda: connect("own.sock"))
attempt("abstract", lambda: connect("\0has-report-test"))
attempt("chmod-host", lambda: os.chmod(host + "/file", 0o644))
attempt("chmod-own", lambda: os.chmod("own.sock", 0o700))
for fd in os.listdir("/proc/self/fd"):
    try: print("fd", fd, os.readlink("/proc/self/fd/" + fd))
    except OSError: pass
sys.exit(3)
PYEOF

# run BACKEND: the workload with the report on a pipe; the report's lines
# in $REPORT, the workload's stdout in $OUT, the pipe's inode in $PIPE.
run() {
    "$PY" - "$SUPERVISOR" "$1" "$POL" "$T_TMP" >"$T_TMP/run" <<'PYEOF'
import os, subprocess, sys
sup, backend, pol, tmp = sys.argv[1:]
r, w = os.pipe()
p = subprocess.Popen([sup, "--sandbox", backend, "--refusal-report", str(w), "--policy", pol, "--",
                      sys.executable, tmp + "/w.py", tmp + "/host", tmp + "/work"],
                     cwd=tmp + "/work", pass_fds=[w], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
ino = os.fstat(w).st_ino
os.close(w)
out = p.stdout.read().decode()
rc = p.wait()
report = os.read(r, 65536).decode()
print(f"PIPE pipe:[{ino}]\nRC {rc}\n{out}\nREPORT\n{report}", end="")
PYEOF
    RC=$(sed -n 's/^RC //p' "$T_TMP/run")
    PIPE=$(sed -n 's/^PIPE //p' "$T_TMP/run")
    OUT=$(sed -n '/^RC /,/^REPORT$/p' "$T_TMP/run")
    REPORT=$(sed -n '/^REPORT$/,$p' "$T_TMP/run" | tail -n +2)
}

# report_count PYTHON-CONDITION-ON-e: how many lines it holds for.
report_count() {
    printf '%s\n' "$REPORT" | "$PY" -c 'import json,sys
n = 0
for line in sys.stdin:
    if not line.strip(): continue
    e = json.loads(line)
    assert e["dropped"] == 0 and e["time"].endswith("Z"), line
    n += bool(eval(sys.argv[1]))
print(n)' "$1" 2>&1
}
# report_has / report_lacks LABEL CONDITION: exactly one line / none.
report_has() {
    local n; n=$(report_count "$2")
    if [ "$n" = 1 ]; then ok "$1"; else fail "$1 ($n lines): $REPORT"; fi
}
report_lacks() {
    local n; n=$(report_count "$2")
    if [ "$n" = 0 ]; then ok "$1"; else fail "$1 ($n lines): $REPORT"; fi
}

ran=0
for backend in linux-ns landlock; do
    if ! why=$("$SUPERVISOR" --sandbox "$backend" --policy "$POL" -- /bin/true 2>&1); then
        echo "# $backend cannot start here: $why"
        continue
    fi
    ran=1
    run "$backend"
    [ "$RC" = 3 ] && ok "$backend: the workload's status" || fail "$backend: rc $RC: $OUT"
    printf '%s\n' "$OUT" | grep -q '^host-socket 13$' && printf '%s\n' "$OUT" | grep -q '^own-socket ok$' &&
        ok "$backend: the host socket refused (EACCES), the workspace's reached" ||
        fail "$backend: sockets: $OUT"
    report_has "$backend: the refused socket is reported with its path and the rule" \
        'e["event"] == "unix-connect-refused" and e["path"].endswith("/host/s.sock") and "host socket" in e["reason"]'
    report_lacks "$backend: the reached socket is not" 'e.get("path", "").endswith("own.sock")'
    report_lacks "$backend: the chmod of a workspace file is not" 'e["event"] == "metadata-refused" and e["path"].endswith("own.sock")'
    if [ "$backend" = landlock ]; then
        report_has "landlock: the host's abstract address is reported" \
            'e["event"] == "unix-connect-refused" and e["path"] == "@has-report-test"'
        printf '%s\n' "$OUT" | grep -q '^chmod-host 13$' && printf '%s\n' "$OUT" | grep -q '^chmod-own ok$' &&
            ok "landlock: chmod of a host file refused, of a workspace file made" || fail "landlock: chmod: $OUT"
        report_has "landlock: the refused chmod is reported with the call, the path and the rule" \
            'e["event"] == "metadata-refused" and e["call"] in ("chmod", "fchmodat", "fchmodat2") and e["path"].endswith("/host/file") and "writable root" in e["reason"]'
        [ "$(stat -c %a "$T_TMP/host/file")" = 600 ] && ok "landlock: the host file kept its mode" ||
            fail "landlock: the host file's mode changed"
    else
        # Its own network namespace: the abstract address is the sandbox's.
        report_lacks "linux-ns: no line for an abstract address (the sandbox's own)" 'e.get("path") == "@has-report-test"'
    fi
    report_has "$backend: the last line says the workload exited 3" \
        'e["event"] == "workload-ended" and e["status"] == 3 and e["killedBySupervisor"] is False'
    last=$(printf '%s\n' "$REPORT" | tail -n 1)
    case $last in '{"event":"workload-ended",'*) ok "$backend: workload-ended is the last line" ;;
        *) fail "$backend: last line: $last" ;; esac
    if printf '%s\n' "$OUT" | grep -q "^fd .* $PIPE\$"; then fail "$backend: the workload holds the report: $OUT"
    else ok "$backend: no descriptor of the workload is the report's pipe"; fi
    printf '%s\n' "$OUT" | grep -q '^fd ' && ok "$backend: the workload listed its descriptors" ||
        fail "$backend: no descriptor list: $OUT"

    # Death by a signal: named, and the supervisor dies of it too.
    "$SUPERVISOR" --sandbox "$backend" --refusal-report 3 --policy "$POL" -- /bin/sh -c 'kill -TERM $$' \
        3>"$T_TMP/report" 2>/dev/null
    rc=$?
    if [ $rc = 143 ] && grep -q '^{"event":"workload-ended","time":"[^"]*","signal":"SIGTERM","killedBySupervisor":false,"dropped":0}$' \
            "$T_TMP/report"; then ok "$backend: a death by SIGTERM is reported by name"
    else fail "$backend: SIGTERM: rc $rc, $(cat "$T_TMP/report")"; fi

    # A process the workload left running is killed by the sandbox, and the
    # last line says so; one that had already exited is not counted.
    "$SUPERVISOR" --sandbox "$backend" --refusal-report 3 --policy "$POL" -- /bin/sh -c 'sleep 60 & exit 4' \
        3>"$T_TMP/report" 2>/dev/null
    rc=$?
    if [ $rc = 4 ] && grep -q '^{"event":"workload-ended","time":"[^"]*","status":4,"killedBySupervisor":true,"dropped":0}$' \
            "$T_TMP/report"; then ok "$backend: a leftover process killed is reported (killedBySupervisor true)"
    else fail "$backend: leftover: rc $rc, $(cat "$T_TMP/report")"; fi
    "$SUPERVISOR" --sandbox "$backend" --refusal-report 3 --policy "$POL" -- /bin/sh -c '/bin/true & wait; exit 5' \
        3>"$T_TMP/report" 2>/dev/null
    rc=$?
    if [ $rc = 5 ] && grep -q '"status":5,"killedBySupervisor":false' "$T_TMP/report"; then
        ok "$backend: a child that ended on its own is not counted as killed"
    else fail "$backend: no leftover: rc $rc, $(cat "$T_TMP/report")"; fi
done

# landlock with a proxy: an IP destination other than the proxy's ports.
PROXY_POL='{"mode":"workspace_write","network":{"egress":true,"allowedHosts":["example.com"],"localBinding":false,"outgoingProxy":{"frontEnds":["http"]}}}'
if "$SUPERVISOR" --sandbox landlock --policy "$PROXY_POL" -- /bin/true 2>/dev/null; then
    out=$(cd "$T_TMP/work" && "$SUPERVISOR" --sandbox landlock --refusal-report 3 --policy "$PROXY_POL" -- "$PY" -c '
import socket
s = socket.socket()
try: s.connect(("192.0.2.7", 443)); print("connected")
except OSError as e: print("errno", e.errno)' 3>"$T_TMP/report")
    REPORT=$(cat "$T_TMP/report")
    [ "$out" = "errno 13" ] && ok "landlock: a TCP connect() past the proxy refused" || fail "landlock: TCP: $out"
    report_has "landlock: it is reported with the address, the port and the rule" \
        'e["event"] == "ip-connect-refused" and e["address"] == "192.0.2.7" and e["port"] == 443 and "proxy" in e["reason"]'
fi
kill "$LISTENER" 2>/dev/null
wait "$LISTENER" 2>/dev/null
[ $ran = 1 ] || sandbox_unavailable "neither Linux backend can start here"
finish
