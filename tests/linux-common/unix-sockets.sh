#!/bin/bash
# unix-sockets.sh — network.allowedUnixSockets, from outside, on both Linux
# backends: a granted host socket outside every writable root connects, its
# sibling in the same directory does not; one at a container engine's usual
# name connects only when granted (a writable-path grant of it is refused
# with 125 under linux-ns, whose mask would win); the grant is the inode
# found at launch: the path replaced by a symbolic link to another socket,
# or by a new socket, reaches nothing, and a host loop renaming two sockets
# into each other's names while the workload connects never lets it reach
# the other one.  Refused with 125: a missing path, one that is no socket,
# a symbolic link, a path beneath a read denial.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require
require_tool python3
PY=python3

ws=$(outside_dir)
socks=$(outside_dir)
chmod 777 "$ws" "$socks"
cd "$ws" || exit 1
pol() { # SOCKETS [EXTRA]: a policy granting those sockets
    printf '{"mode":"workspace_write",%s"network":{"egress":false,"localBinding":false,"allowedUnixSockets":[%s]}}' "${2:+$2,}" "$1"
}
# A server at each path that answers every connection with its own name.
serve() {
    "$PY" - "$@" <<'EOF' &
import os, socket, sys, select
servers = []
for p in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX)
    if os.path.lexists(p):
        os.unlink(p)
    s.bind(p)
    os.chmod(p, 0o777)
    s.listen(64)
    servers.append((s, os.path.basename(p)))
while True:
    ready, _, _ = select.select([s for s, _ in servers], [], [])
    for s, name in servers:
        if s in ready:
            c, _ = s.accept()
            c.sendall(name.encode())
            c.close()
EOF
    SERVER=$!
    local n
    for n in $(seq 50); do [ -S "${!#}" ] && return 0; sleep 0.1; done
}
# The workload connects to each path and prints what answered.
connects='import socket, sys
for p in sys.argv[1:]:
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(p); print(p, "->", s.recv(64).decode())
    except OSError as e:
        print(p, "refused", e.errno)'

serve "$socks/a.sock" "$socks/b.sock"
backends="linux-ns"
"$SUPERVISOR" --sandbox landlock --policy "$(pol '')" -- true 2>/dev/null && backends="$backends landlock"

for b in $backends; do
    run_sup "$(pol "\"$socks/a.sock\"")" --sandbox "$b" -- "$PY" -c "$connects" "$socks/a.sock" "$socks/b.sock"
    expect_rc 0 "$b: a launch granting $socks/a.sock"
    expect_out "^$socks/a.sock -> a.sock$" "$b: the granted socket outside every writable root connects"
    expect_out "^$socks/b.sock refused" "$b: its sibling in the same directory does not"
    run_sup "$(pol "\"$socks/a.sock\"")" --sandbox "$b" --explain --unix-socket "$socks/a.sock" --unix-socket "$socks/b.sock"
    expect_out "^unix-socket $socks/a.sock: allowed: network.allowedUnixSockets" "$b: explain allows the grant"
    expect_out "^unix-socket $socks/b.sock: refused" "$b: explain refuses the sibling, as the launch does"

    refused() { # SOCKETS PATTERN WHAT [EXTRA]
        rm -f "$ws/ran"
        run_sup "$(pol "$1" "${4:-}")" --sandbox "$b" -- /bin/sh -c "echo ran >'$ws/ran'"
        expect_rc 125 "$b: $3: refused"
        expect_err "$2" "$b: $3: the message says why"
        expect_absent "$ws/ran" "$b: $3: nothing ran"
    }
    refused "\"$socks/none.sock\"" "allowedUnixSockets \"$socks/none.sock\": No such file" "a missing socket"
    refused "\"$ws\"" "allowedUnixSockets \"$ws\" is not a socket" "a directory"
    ln -sf "$socks/a.sock" "$socks/link.sock"
    refused "\"$socks/link.sock\"" "allowedUnixSockets \"$socks/link.sock\".*symbolic link" "a symbolic link"
    refused "\"$socks/a.sock\"" "is beneath deniedReadPaths \"$socks\"" "a socket beneath a read denial" \
        "\"deniedReadPaths\":[\"$socks\"]"
done

# A container engine's socket at its usual name: masked (linux-ns) or out
# of reach (landlock) unless granted.
if is_root; then
    engine=/run/docker.sock
else
    engine=$HOME/.docker/run/docker.sock
fi
if [ -e "$engine" ]; then
    ok "an engine socket already exists at $engine: not replaced by the test"
else
    mkdir -p "$(dirname "$engine")"
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null
    serve "$socks/a.sock" "$socks/b.sock" "$engine"
    for b in $backends; do
        run_sup "$(pol '')" --sandbox "$b" -- "$PY" -c "$connects" "$engine"
        expect_out "^$engine refused" "$b: $engine without a grant: refused"
        run_sup "$(pol "\"$engine\"")" --sandbox "$b" -- "$PY" -c "$connects" "$engine"
        expect_out "^$engine -> docker.sock$" "$b: $engine granted: connects"
    done
    run_sup "$(pol '' "\"allowedWritePaths\":[\"$engine\"]")" -- /bin/true
    expect_rc 125 "linux-ns: $engine as a writable path: refused, not masked in silence"
    expect_err "allowedWritePaths \"$engine\" is .*masks.*network.allowedUnixSockets" \
        "linux-ns: the refusal names both and the fix"
    rm -f "$engine"
fi

# The grant is the inode found at launch: the path replaced meanwhile by a
# symbolic link to its sibling, then by a new socket, reaches neither.
for b in $backends; do
    rm -f "$ws/ready" "$ws/go"
    run_sup "$(pol "\"$socks/a.sock\"")" --sandbox "$b" -- /bin/sh -c "
        $PY -c '$connects' '$socks/a.sock'; : >'$ws/ready'
        for i in \$(seq 100); do [ -e '$ws/go' ] && break; sleep 0.05; done
        $PY -c '$connects' '$socks/a.sock'" &
    runner=$!
    for _ in $(seq 100); do [ -e "$ws/ready" ] && break; sleep 0.05; done
    mv "$socks/a.sock" "$socks/a.real" && ln -s "$socks/b.sock" "$socks/a.sock" && : >"$ws/go"
    wait "$runner"
    first=$(sed -n 1p "$T_TMP/out") second=$(sed -n 2p "$T_TMP/out")
    [ "$first" = "$socks/a.sock -> a.sock" ] && ok "$b: the grant connects before the swap" ||
        fail "$b: before the swap: $first"
    case $second in
    *"refused"*) ok "$b: the granted path made a symbolic link to its sibling reaches nothing" ;;
    *) fail "$b: the granted path, now a symbolic link, reached: $second" ;;
    esac
    rm -f "$socks/a.sock"
    mv "$socks/a.real" "$socks/a.sock"
done

# The granted socket goes away during the run (its daemon stops); files
# made next in its directory look for its inode number, which ext4 and xfs
# give out again at once when nothing holds the inode: the launch holds it,
# so none gets it, and a new host socket made there is not reached.
reuse_dir=$(outside_dir)
chmod 777 "$reuse_dir"
for b in $backends; do
    rm -f "$reuse_dir"/*
    rm -f "$ws/ready" "$ws/first-done" "$ws/second-ready"
    "$PY" - "$reuse_dir" "$ws" <<'EOF' &
import os, socket, sys, time
d, signals = sys.argv[1], sys.argv[2]
a, b = os.path.join(d, "granted.sock"), os.path.join(d, "other.sock")
sa = socket.socket(socket.AF_UNIX); sa.bind(a); sa.listen(4); os.chmod(a, 0o777)
ino = os.stat(a).st_ino
open(os.path.join(signals, "ready"), "w").close()
while not os.path.exists(os.path.join(signals, "first-done")):
    time.sleep(0.02)
sa.close(); os.unlink(a)
taken = False
for n in range(3000):
    p = os.path.join(d, "f.%d" % n)
    open(p, "w").close()
    if os.stat(p).st_ino == ino:
        taken = True
        os.unlink(p)
        break
sb = socket.socket(socket.AF_UNIX); sb.bind(b); sb.listen(4); os.chmod(b, 0o777)
print("reused" if taken or os.stat(b).st_ino == ino else "not-reused", flush=True)
open(os.path.join(signals, "second-ready"), "w").close()
sb.settimeout(10)
try:
    c, _ = sb.accept(); c.sendall(b"other"); c.close()
except OSError:
    pass
EOF
    host=$!
    for _ in $(seq 100); do [ -e "$ws/ready" ] && break; sleep 0.05; done
    run_sup "$(pol "\"$reuse_dir/granted.sock\"")" --sandbox "$b" -- /bin/sh -c "
        $PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print(\"first connected\")' '$reuse_dir/granted.sock'
        : >'$ws/first-done'
        for i in \$(seq 200); do [ -e '$ws/second-ready' ] && break; sleep 0.05; done
        $PY -c '$connects' '$reuse_dir/other.sock'"
    kill "$host" 2>/dev/null
    wait "$host" 2>/dev/null
    expect_out '^first connected$' "$b: the granted socket connects before its daemon stops"
    expect_out "^$reuse_dir/other.sock refused" "$b: a host socket made after it is not reached"
done
rm -rf "$reuse_dir"

# A host loop renaming the two sockets into each other's names while the
# workload connects to the granted name: whatever answers is a.sock.
"$PY" -c 'import os, sys
a, b, t = (os.path.join(sys.argv[1], n) for n in ("a.sock", "b.sock", "t.sock"))
while True:
    os.rename(a, t); os.rename(b, a); os.rename(t, b)' "$socks" &
swapper=$!
for b in $backends; do
    # Granted: the inode that is a.sock at launch (either server's, by the race).
    run_sup "$(pol "\"$socks/a.sock\"")" --sandbox "$b" -- "$PY" -c 'import socket, sys
seen = {}
for _ in range(300):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); r = s.recv(64).decode()
    except OSError:
        r = "refused"
    seen[r] = seen.get(r, 0) + 1
print(" ".join("%s=%d" % kv for kv in sorted(seen.items())))' "$socks/a.sock"
    reached=$(printf '%s\n' "$OUT" | tr ' ' '\n' | grep -c -v '^refused=')
    [ "$RC" = 125 ] || [ "$reached" -le 1 ] && ok "$b: under a rename race one socket only is reached ($OUT)" ||
        fail "$b: a rename race reached both sockets: $OUT"
done
kill "$swapper"
wait "$swapper" 2>/dev/null
kill "$SERVER"
finish
