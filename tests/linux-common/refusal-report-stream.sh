#!/bin/bash
# tests/linux-common/refusal-report-stream.sh — the report stays valid JSON
# lines under attack (README "Refusal report"), from real landlock runs:
# a flood of refused abstract addresses over a TCP stream, a Unix
# stream socket and a terminal read slowly (every line parses, none glued to a fragment
# of another, the lines plus their `dropped` count every refusal, and the
# last line is workload-ended); a pipe left unread until the workload has
# ended (the last line still comes); and names the workload chose to break
# the encoder: bytes that are not UTF-8, a multi-byte character where the
# shortening cuts, NULs inside an abstract name.
. "$HAS_SRCDIR/tests/lib.sh"
sandbox_require

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
POL='{"mode":"workspace_write","network":{"egress":false,"localBinding":false}}'
if ! why=$("$SUPERVISOR" --sandbox landlock --policy "$POL" -- /bin/true 2>&1); then
    sandbox_unavailable "landlock cannot start here: $why"
fi
mkdir -p "$T_TMP/work"

# The workload: connect() to each abstract name given (hex), printing the
# errno, after a flood of N refused ones and a pause in which the reader
# catches up, so that the broker's last line counts what it dropped.
cat >"$T_TMP/w.py" <<'PYEOF'
import socket, sys, time
def attempt(name):
    s = socket.socket(socket.AF_UNIX)
    try: s.connect(name); return 0
    except OSError as e: return e.errno
    finally: s.close()
n = int(sys.argv[1])
refused = sum(attempt(b"\0has-flood-%d-%s" % (i, b"x" * 60)) == 111 for i in range(n))
print("flood", refused, flush=True)
time.sleep(float(sys.argv[2]))
for h in sys.argv[3:]:
    print("name", h, attempt(bytes.fromhex(h)), flush=True)
PYEOF

# The harness: runs the supervisor with the report on KIND (tcp, unix,
# pipe), reads it as told, and checks every line; prints "ok LABEL" or
# "FAIL LABEL: why" lines, and the report's lines as "LINE json".
cat >"$T_TMP/h.py" <<'PYEOF'
import json, os, socket, subprocess, sys, threading, time
sup, pol, wpy, cwd, kind, n, pause = sys.argv[1:8]
names = sys.argv[8:]
n = int(n)
if kind == "tcp":
    l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    l.bind(("127.0.0.1", 0)); l.listen(1)
    w = socket.create_connection(l.getsockname()); r, _ = l.accept()
    w.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    wfd, rd = w.fileno(), lambda k: r.recv(k)
elif kind == "unix":
    w, r = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    w.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    wfd, rd = w.fileno(), lambda k: r.recv(k)
elif kind == "pty":  # a terminal takes what fits of a write
    import pty, tty
    mfd, wfd = pty.openpty()
    tty.setraw(wfd)
    def rd(k):
        try: return os.read(mfd, k)
        except OSError: return b""  # EIO: no writer left
else:  # a pipe, filled to the last byte by lines of 64 bytes before the run
    rfd, wfd = os.pipe()
    rd = lambda k: os.read(rfd, k)
    os.set_blocking(wfd, False)
    filler = b'{"event":"filler","x":"' + b"f" * 26 + b'","dropped":0}\n'
    assert len(filler) == 64
    try:
        while True: os.write(wfd, filler)
    except BlockingIOError: pass
    os.set_blocking(wfd, True)
p = subprocess.Popen([sup, "--sandbox", "landlock", "--refusal-report", str(wfd), "--policy", pol, "--",
                      sys.executable, wpy, str(n), pause] + names,
                     cwd=cwd, pass_fds=[wfd], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
os.close(wfd) if kind in ("pipe", "pty") else w.close()
data = bytearray()
said = threading.Event()
def reader():
    if kind == "pipe":  # unread until the workload has ended
        said.wait(60)
        time.sleep(1)
    while True:
        b = rd(128)
        if not b: return
        data.extend(b)
        if kind != "pipe": time.sleep(0.002)  # slowly: the writers meet a full buffer
t = threading.Thread(target=reader); t.start()
out = bytearray()
for l in iter(p.stdout.readline, b""):
    out.extend(l)
    if l.startswith(b"name") or not names: break
said.set()  # the workload's last words: it ends now
out.extend(p.stdout.read()); p.wait(); t.join(60)
print("OUT", out.decode().replace("\n", " | "))
def check(label, cond, why=""):
    print(("ok " if cond else "FAIL ") + label + ("" if cond else ": " + why))
lines, bad = [], []
for raw in bytes(data).split(b"\n")[:-1]:
    try:
        e = json.loads(raw.decode("utf-8"))  # strict: invalid UTF-8 fails
        assert isinstance(e, dict) and raw.startswith(b'{"event":') and "dropped" in e
        if e["event"] != "filler": lines.append(e)
    except Exception as x:
        bad.append(raw[:200])
check(kind + ": every line is one whole JSON object in valid UTF-8", not bad and data.endswith(b"\n"),
      "%d bad, e.g. %r" % (len(bad), bad[:2]))
flood = [e for e in lines if e.get("path", "").startswith("@has-flood-")]
broker = [e for e in lines if e["event"] == "unix-connect-refused"]
refused = int(out.split()[1]) if out.startswith(b"flood ") else -1
check(kind + ": the workload's connect()s were refused", refused == n, out.decode())
got = len(broker) + sum(e["dropped"] for e in broker)
if n and kind != "pipe":
    check(kind + ": lines written plus lines dropped count every refusal (%d written)" % len(flood),
          got == n + len(names), "%d written + %d dropped != %d" % (len(broker), got - len(broker), n + len(names)))
elif n:  # what the broker dropped after its last line written is counted nowhere
    check(kind + ": a full pipe: the broker's lines dropped (%d written)" % len(flood),
          got <= n + len(names), "%d written, %d counted" % (len(flood), got))
check(kind + ": the last line is workload-ended", bool(lines) and lines[-1]["event"] == "workload-ended",
      repr(lines[-1:]))
for e in lines:
    print("LINE", json.dumps(e))
PYEOF

harness() { "$PY" "$T_TMP/h.py" "$SUPERVISOR" "$POL" "$T_TMP/w.py" "$T_TMP/work" "$@" >"$T_TMP/h.out" 2>&1; }
verdicts() {
    while IFS= read -r l; do
        case $l in "ok "*) ok "${l#ok }" ;; "FAIL "*) fail "${l#FAIL }" ;; esac
    done <"$T_TMP/h.out"
    grep -q '^ok .*the last line' "$T_TMP/h.out" || fail "the harness: $(head -c 2000 "$T_TMP/h.out")"
}

# A flood, read slowly, over both kinds of stream socket.
last=$(printf '\0has-last' | od -An -tx1 | tr -d ' \n')
for kind in tcp unix pty; do
    harness "$kind" 3000 2 "$last"
    verdicts
done

# A pipe full to the last byte, unread until the workload has ended: the
# broker's lines are lost, the last line comes once the reader reads.
harness pipe 300 0 "$last"
verdicts

# Names: bytes that are not UTF-8 (escaped "\xNN" as --explain does),
# 41 of them, 4 euro signs (3 bytes each) and 53 more, so long escaped
# that the path is shortened to 50 bytes -- which falls inside the third
# euro sign; and NULs inside an abstract name, which are part of it.
long=$("$PY" -c 'print((b"\0" + b"\xfe" * 41 + "€".encode() * 4 + b"\xff" * 53).hex())')
nuls=$("$PY" -c 'print(b"\0a\0b\0\0c".hex())')
harness unix 0 0 "$long" "$nuls"
verdicts
"$PY" - "$T_TMP/h.out" <<'PYEOF' >"$T_TMP/names"
import json, sys
paths = [json.loads(l[5:])["path"] for l in open(sys.argv[1], encoding="utf-8") if l.startswith("LINE ") and '"path"' in l]
long = [p for p in paths if p.startswith("@\\xfe")]
print("long", long == ["@" + "\\xfe" * 41 + "€€"], repr(long))
print("nuls", "@a\0b\0\0c" in paths, repr(paths))
PYEOF
grep -q '^long True' "$T_TMP/names" &&
    ok "a name of bytes that are not UTF-8 is escaped as \\xNN, shortened at a whole character" ||
    fail "the long name: $(grep '^long' "$T_TMP/names")"
grep -q '^nuls True' "$T_TMP/names" && ok "an abstract name with NULs is given whole (\\u0000)" ||
    fail "the name with NULs: $(grep '^nuls' "$T_TMP/names")"
finish
