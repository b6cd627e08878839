#!/bin/bash
# The refusal report (--refusal-report N): one JSON line per refused
# destination, on both front-ends, for every rule; nothing for allowed
# requests; never visible to the workload; never able to stall the proxy.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

[ "$RUNNER" = supervisor ] || skip "the refusal report is an option of the supervisor itself"
start_origin
O="127.0.0.1:$ORIGIN_PORT"
POL=$(proxy_policy '"http","socks5"' "\"127.0.0.1:$ORIGIN_PORT\",\"localhost\"")
REPORT=$T_TMP/report

# report_run TARGET...: run under POL with the report on descriptor 3.
report_run() {
    : >"$REPORT"
    "$SUPERVISOR" --refusal-report 3 --policy "$POL" -- "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null 3>"$REPORT"
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

# expect_report LABEL LINE...: the report is exactly these lines, each
# "frontEnd host port rule address" (address "-" for null), every field
# typed as the README says, then the supervisor's workload-ended line.
expect_report() {
    local label=$1 why
    shift
    why=$("$PY" - "$REPORT" "$@" <<'EOF'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
want = sys.argv[2:]
if not lines or json.loads(lines[-1]).get("event") != "workload-ended":
    sys.exit(f"the last line is not workload-ended: {lines}")
lines = lines[:-1]
if len(lines) != len(want):
    sys.exit(f"{len(lines)} lines, expected {len(want)}: {lines}")
for line, spec in zip(lines, want):
    e = json.loads(line)
    front, host, port, rule, address = spec.split(" ")
    keys = {"event", "time", "frontEnd", "host", "port", "address", "rule", "reason", "dropped"}
    if set(e) != keys:
        sys.exit(f"fields {sorted(e)} are not {sorted(keys)}")
    if e["event"] != "egress-refused" or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["time"]):
        sys.exit(f"event/time: {line}")
    got = (e["frontEnd"], e["host"], e["port"], e["rule"], e["address"])
    # "A|B": either address (localhost is 127.0.0.1 or, where /etc/hosts
    # names it first, as Debian's installer writes it, ::1).
    exp = (front, host, int(port), rule, None if address == "-" else address)
    if got[:4] != exp[:4] or (got[4] != exp[4] and (exp[4] is None or got[4] not in exp[4].split("|"))):
        sys.exit(f"{got} != {exp}")
    if not isinstance(e["reason"], str) or host not in e["reason"] or e["dropped"] != 0:
        sys.exit(f"reason/dropped: {line}")
EOF
)
    if [ $? = 0 ]; then ok "$label"; else fail "$label: $why"; fi
}

# --- every rule, both front-ends ----------------------------------------------
report_run /bin/sh -c "curl -s -o /dev/null http://blocked.example/a
    curl -s -o /dev/null -p http://blocked.example:8443/
    curl -s -o /dev/null http://127.0.0.1:$DIGEST_PORT/
    curl -s -o /dev/null http://localhost:$ORIGIN_PORT/
    curl -s -o /dev/null -x \"\$ALL_PROXY\" http://socks.example:22/
    curl -s -o /dev/null -x \"\$ALL_PROXY\" http://127.0.0.1:$DIGEST_PORT/
    $PY $CLIENTS raw-http 'GET http://2130706433:$ORIGIN_PORT/ HTTP/1.1\\r\\nProxy-Authorization: Basic AUTH\\r\\n\\r\\n' >/dev/null
    curl -sS http://$O/hello"
expect_rc 0 "a run with refusals and one allowed request"
expect_out '^hello from origin$' "the allowed request went through"
expect_report "one line per refusal, in order, with front-end, host, port, rule and address" \
    "http blocked.example 80 allowedHosts -" \
    "http blocked.example 8443 allowedHosts -" \
    "http 127.0.0.1 $DIGEST_PORT allowedHosts -" \
    "http localhost $ORIGIN_PORT address-class 127.0.0.1|::1" \
    "socks5 socks.example 22 allowedHosts -" \
    "socks5 127.0.0.1 $DIGEST_PORT allowedHosts -" \
    "http 2130706433 $ORIGIN_PORT numeric-host-spelling -"
if grep -q "port $DIGEST_PORT of '127.0.0.1'" "$REPORT"; then ok "a port refusal says it is the port"; else fail "port refusal reason: $(cat "$REPORT")"; fi
if [ -z "$ERR" ]; then ok "nothing on the caller's stderr"; else fail "stderr: $ERR"; fi

report_run /bin/sh -c "curl -sS http://$O/hello; curl -sS -p http://$O/hello"
expect_report "allowed requests: no line"
report_run /bin/sh -c "$PY $CLIENTS raw-http 'GET http://$O/ HTTP/1.1\\r\\n\\r\\n'; $PY $CLIENTS raw-http 'GET /x HTTP/1.1\\r\\nProxy-Authorization: Basic AUTH\\r\\n\\r\\n'"
expect_out '^HTTP/1.1 407' "a request without credentials"
expect_out '^HTTP/1.1 400' "a malformed request"
expect_report "no line for a missing credential or a malformed request (no destination was refused)"

# --- the workload never holds the descriptor -------------------------------------
report_run /bin/sh -c 'ls -l /proc/self/fd; echo forged >&3 && echo WROTE'
if printf '%s' "$OUT" | grep -q "$REPORT\|WROTE"; then fail "the workload holds the report: $OUT"
else ok "the workload has no descriptor to the report"; fi
if grep -q forged "$REPORT"; then fail "the workload wrote into the report"; else ok "nothing the workload writes reaches the report"; fi

# --- a reader that is not reading never stalls the proxy --------------------------
out=$("$PY" - "$SUPERVISOR" "$POL" "$O" <<'EOF'
import fcntl, os, select, subprocess, sys, time
sup, pol, origin = sys.argv[1:]
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
try:
    while True:
        os.write(w, b"x" * 4096)          # fill the pipe: no line fits
except BlockingIOError:
    pass
fcntl.fcntl(w, fcntl.F_SETFL, 0)
# The workload says READY on stdout once its first four requests are done,
# then waits for a line on stdin before its last refusal.
script = ("for i in 1 2 3; do curl -s -o /dev/null http://full$i.example/; done; "
          f"curl -sS http://{origin}/hello; echo READY; read go; curl -s -o /dev/null http://after.example/")
t0 = time.monotonic()
p = subprocess.Popen([sup, "--refusal-report", str(w), "--policy", pol, "--", "/bin/sh", "-c", script],
                     pass_fds=[w], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
os.close(w)
got = b""
while not got.endswith(b"READY\n"):
    ready, _, _ = select.select([p.stdout], [], [], 30)
    if not ready:
        p.kill()
        sys.exit(f"STALLED after {got}")
    chunk = os.read(p.stdout.fileno(), 4096)   # not readline: select sees the fd, not Python's buffer
    if not chunk:
        sys.exit(f"ENDED early: {got} rc {p.wait()}")
    got += chunk
print("STALL-FREE %.1f s" % (time.monotonic() - t0))
print("OUT", got.decode().splitlines()[0])
fcntl.fcntl(r, fcntl.F_SETFL, os.O_NONBLOCK)
try:
    while os.read(r, 65536):
        pass
except BlockingIOError:
    pass
p.stdin.write(b"go\n")
p.stdin.close()
print("RC", p.wait(timeout=30))
fcntl.fcntl(r, fcntl.F_SETFL, 0)
print("LINES", os.read(r, 65536).decode())
EOF
)
if printf '%s' "$out" | grep -q '^STALL-FREE' && printf '%s' "$out" | grep -q '^OUT hello from origin$' &&
   printf '%s' "$out" | grep -q '^RC 0$'; then
    ok "a full report pipe: refusals and the allowed request still served at once"
else fail "a full report pipe: $out"; fi
if printf '%s' "$out" | grep -q '"host":"after.example".*"dropped":3'; then ok "the next line counts the 3 lines dropped meanwhile"
else fail "the dropped count: $out"; fi

# --- the report shares a description with the workload's stdout ------------------
# "3>&1" (report and output in one pipe): the egress process must not set
# O_NONBLOCK on that shared description -- the workload's stdout would get
# EAGAIN (and so would the caller's shell after the run) -- yet still never
# wait for the reader.
"$SUPERVISOR" --refusal-report 3 --policy "$POL" -- /bin/sh -c \
    'sleep 0.5; grep "^flags" /proc/self/fdinfo/1 >&2; head -c 3000000 /dev/zero; echo "head rc $?" >&2' \
    3>&1 2>"$T_TMP/err" </dev/null | { sleep 1; wc -c >"$T_TMP/out"; }
if grep -q 'head rc 0' "$T_TMP/err" && [ "$(cat "$T_TMP/out")" -ge 3000000 ]; then
    ok "3>&1: the workload's stdout stays blocking, its output arrives whole"
else fail "3>&1: $(cat "$T_TMP/err") / $(cat "$T_TMP/out") bytes"; fi
if grep -q '^flags:.*[0-7]4[0-7][0-7][0-7]$' "$T_TMP/err"; then fail "3>&1: O_NONBLOCK on the workload's stdout: $(cat "$T_TMP/err")"
else ok "3>&1: no O_NONBLOCK on the workload's stdout"; fi
# ... and a refusal while that shared pipe is full is dropped, not waited for.
"$SUPERVISOR" --refusal-report 3 --policy "$POL" -- /bin/sh -c \
    "head -c 300000 /dev/zero & sleep 0.5; t0=\$(date +%s); $PY $CLIENTS raw-http 'GET http://127.0.0.1:9/ HTTP/1.1\\r\\nProxy-Authorization: Basic AUTH\\r\\n\\r\\n' >&2; echo took \$((\$(date +%s) - t0)) >&2" \
    3>&1 2>"$T_TMP/err" </dev/null | { sleep 4; cat >/dev/null; }
if grep -q '^HTTP/1.1 403' "$T_TMP/err" && grep -Eq '^took [0-2]$' "$T_TMP/err"; then
    ok "3>&1 with the pipe full: the refusal is answered at once"
else fail "3>&1 with the pipe full: $(cat "$T_TMP/err")"; fi

# --- the option itself -----------------------------------------------------------
bad_report() {
    local label=$1 want=$2
    shift 2
    "$@" >"$T_TMP/out" 2>"$T_TMP/err"
    RC=$?
    ERR=$(cat "$T_TMP/err")
    expect_rc 125 "$label"
    expect_one_line_error "$label"
    expect_err "$want" "$label: the message names the cause"
}
bad_report "--refusal-report 1" 'descriptor 1 is stdin, stdout or stderr' \
    "$SUPERVISOR" --refusal-report 1 --policy "$POL" -- /bin/true
bad_report "--refusal-report on a closed descriptor" 'descriptor 7 is not open' \
    "$SUPERVISOR" --refusal-report 7 --policy "$POL" -- /bin/true
bad_report "--refusal-report on a read-only descriptor" 'open for reading only' \
    "$SUPERVISOR" --refusal-report 3 --policy "$POL" -- /bin/true 3</dev/null
bad_report "--refusal-report x" "'x' is not a descriptor number" \
    "$SUPERVISOR" --refusal-report x --policy "$POL" -- /bin/true
bad_report "--refusal-report twice" 'given twice' \
    "$SUPERVISOR" --refusal-report 3 --refusal-report 3 --policy "$POL" -- /bin/true 3>/dev/null
bad_report "--refusal-report and --policy-fd on one descriptor" 'name the same descriptor 3' \
    "$SUPERVISOR" --refusal-report 3 --policy-fd 3 -- /bin/true 3<>/dev/null
"$SUPERVISOR" --refusal-report 3 --policy "$(policy read_only false false)" -- /bin/echo fine >"$T_TMP/out" 3>"$REPORT" 2>&1
if [ "$(cat "$T_TMP/out")" = fine ] && [ "$(grep -c . "$REPORT")" = 1 ] &&
   grep -q '^{"event":"workload-ended",.*"status":0,' "$REPORT"; then
    ok "a policy without a proxy: only the workload-ended line"
else fail "without a proxy: $(cat "$T_TMP/out") / $(cat "$REPORT")"; fi

finish
