#!/usr/bin/env bash
# The landlock backend's network and process boundary on a host without
# user namespaces: with egress off no socket of any family but AF_UNIX,
# host Unix sockets (pathname and abstract) out of reach while the
# workspace's own work, the escape list of the seccomp filter, zero
# capabilities, no signal or ptrace to host processes, nothing left running
# after the workload, what it cannot enforce refused with 125 -- and
# linux-ns on the same host naming this backend as the fix.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
mkdir -p "$WS" "$T_TMP/host"
chmod -R a+rwX "$T_TMP"
cd "$WS" || exit 2
OFF=$(policy workspace_write false false)

# linux-ns cannot start here, and says what can.
on_blocked_host "$SUPERVISOR" --policy "$OFF" -- /bin/true >"$T_TMP/out" 2>"$T_TMP/err"
RC=$?
ERR=$(cat "$T_TMP/err")
expect_rc 125 "linux-ns on a host without user namespaces"
expect_err '--sandbox landlock' "its diagnostic names the landlock backend as the fix"

for fam in AF_INET AF_INET6 AF_PACKET AF_NETLINK AF_VSOCK; do
    ll_run "$OFF" -- "$PY" -c "import socket; socket.socket(socket.$fam, socket.SOCK_RAW if '$fam' in ('AF_PACKET','AF_NETLINK') else socket.SOCK_STREAM)"
    expect_err 'Address family not supported' "egress off: no $fam socket"
done

# A host TCP service on loopback and a host Unix socket outside the roots.
"$PY" - "$T_TMP/host/sock" "$T_TMP/host/seen" <<'PY' &
import os, socket, sys, threading
seen = sys.argv[2]
def serve(s):
    while True:
        c, _ = s.accept()
        open(seen, 'a').write('connected\n')
        c.close()
u = socket.socket(socket.AF_UNIX); u.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); u.listen(8)
a = socket.socket(socket.AF_UNIX); a.bind('\0has-landlock-test'); a.listen(8)
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(('127.0.0.1', 0)); t.listen(8)
open(sys.argv[1] + '.port', 'w').write(str(t.getsockname()[1]))
for s in (u, a):
    threading.Thread(target=serve, args=(s,), daemon=True).start()
serve(t)
PY
SERVER=$!
for _ in $(seq 50); do [ -s "$T_TMP/host/sock.port" ] && break; sleep 0.1; done
PORT=$(cat "$T_TMP/host/sock.port")
ll_run "$OFF" -- "$PY" -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('$T_TMP/host/sock')"
expect_err 'Permission denied' "a host Unix socket outside the roots: EACCES"
ll_run "$OFF" -- "$PY" -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('\0has-landlock-test')"
expect_err 'Connection refused' "a host abstract socket: refused"
[ -e "$T_TMP/host/seen" ] && fail "the host's server saw a connection" || ok "the host's servers saw no connection"
OPEN=$(policy workspace_write true true)
ll_run "$OPEN" -- "$PY" -c "
import socket
s = socket.socket(socket.AF_UNIX); s.bind('ws.sock'); s.listen(1)
c = socket.socket(socket.AF_UNIX); c.connect('ws.sock'); print('own socket ok')"
expect_out '^own socket ok$' "localBinding: a socket the workload made in its workspace works"
ll_run "$OPEN" -- "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT)); print('tcp ok')"
expect_out '^tcp ok$' "egress open: the broker lets TCP through"
ll_run "$OPEN" -- "$PY" -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('$T_TMP/host/sock')"
expect_err 'Permission denied' "egress open: host Unix sockets still out of reach"
kill "$SERVER" 2>/dev/null

# The escape list, capabilities, other processes.
for attack in uring-bind tiocsti userns keyctl; do
    ll_run "$OFF" -- "$ATTACK" "$attack"
    expect_rc 0 "seccomp refuses $attack ($OUT)"
done
ll_run "$OFF" -- /bin/sh -c 'grep -E "^(CapEff|CapPrm|CapAmb|NoNewPrivs)" /proc/self/status'
expect_out '^CapEff:[[:space:]]*0+$' "no effective capability"
expect_out '^CapPrm:[[:space:]]*0+$' "no permitted capability"
expect_out '^NoNewPrivs:[[:space:]]*1$' "no_new_privs"
sleep 60 &
HOSTPROC=$!
ll_run "$OFF" -- /bin/sh -c "kill -TERM $HOSTPROC; cat /proc/$HOSTPROC/environ >/dev/null && echo environ-read"
if [ "$LL_SIGNAL_SCOPE" = 1 ]; then
    kill -0 "$HOSTPROC" 2>/dev/null && ok "a host process of the same user cannot be signalled" ||
        fail "the workload killed a host process"
else
    # What backends/landlock/README.md says of ABI < 6 ("Per kernel").
    kill -0 "$HOSTPROC" 2>/dev/null &&
        fail "ABI $LL_ABI: the host process survived: the README's per-kernel table is out of date" ||
        ok "ABI $LL_ABI, no signal scope: the workload can signal the user's processes, as the README says"
fi
expect_out_lacks environ-read "nor its environment read (Landlock's ptrace rule)"
kill "$HOSTPROC" 2>/dev/null

# Nothing survives the workload.
ll_run "$OFF" -- /bin/sh -c "setsid sleep 300 >/dev/null 2>&1 & echo \$! >'$WS/orphan.pid'"
sleep 0.3
pid=$(cat "$WS/orphan.pid" 2>/dev/null)
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok "a background process is killed when the workload ends" ||
    { fail "process $pid outlived the workload"; kill "$pid" 2>/dev/null; }
ll_run "$OFF" -- /bin/sh -c 'exit 7'
expect_rc 7 "the workload's exit status"
ll_run "$OFF" -- /bin/sh -c 'kill -TERM $$'
expect_rc 143 "death by signal is reproduced"

# What it cannot enforce.
"$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" landlock_create_ruleset "$NO_USERNS" "$SUPERVISOR" \
    --sandbox landlock --policy "$OFF" -- /bin/true >"$T_TMP/out" 2>"$T_TMP/err"
RC=$? ERR=$(cat "$T_TMP/err")
expect_rc 125 "a kernel without Landlock"
expect_err 'Landlock is not available on this kernel .*use the linux-ns backend' "the refusal names the kernel feature and the way out"
ll_run "$(policy workspace_write false true)" -- /bin/true
expect_rc 125 "localBinding: true without a network of its own"
expect_err 'localBinding' "the refusal names localBinding"

# With an outgoing proxy: its front-ends on the host's loopback are the
# only TCP the workload reaches (the broker's rule, and Landlock's TCP
# rules where the kernel has them).
# origin NAME: an HTTP server on 127.0.0.1 at a port of the kernel's
# choice (in $T_TMP/NAME.port), its request log in $T_TMP/NAME.log.
origin() {
    "$PY" -c 'import http.server, sys
s = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
open(sys.argv[1] + ".port", "w").write(str(s.server_port))
s.serve_forever()' "$T_TMP/$1" 2>"$T_TMP/$1.log" &
    for _ in $(seq 50); do [ -s "$T_TMP/$1.port" ] && break; sleep 0.1; done
}
origin allowed
ORIGIN=$!
origin other
OTHER=$!
OPORT=$(cat "$T_TMP/allowed.port")
XPORT=$(cat "$T_TMP/other.port")
PROXY="{\"mode\":\"workspace_write\",\"network\":{\"egress\":true,\"localBinding\":false,\"allowedHosts\":[\"127.0.0.1:$OPORT\"],\"outgoingProxy\":{\"frontEnds\":[\"http\",\"socks5\"]}}}"
ll_run "$PROXY" -- curl -sS -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$OPORT/"
expect_out '^200$' "proxy: the allowed origin through the http front-end"
ll_run "$PROXY" -- sh -c 'curl -sS -o /dev/null -w "%{http_code}\n" --proxy "$ALL_PROXY" "http://127.0.0.1:'"$OPORT"'/"'
expect_out '^200$' "proxy: the allowed origin through the socks5 front-end"
ll_run "$PROXY" -- curl -sS -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$XPORT/"
expect_out '^403$' "proxy: a host the policy does not allow is refused by the proxy"
ll_run "$PROXY" -- "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $OPORT))"
expect_err 'Permission denied' "proxy: a direct TCP connection around the proxy is refused"
ll_run "$PROXY" -- "$PY" -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)"
expect_err 'Operation not permitted' "proxy: no UDP socket (DNS or anything else around the proxy)"
ll_run "$PROXY" -- "$PY" -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 132)"
expect_err 'Protocol not supported' "proxy: no SCTP stream socket (Landlock's TCP rules do not see it)"
ll_run "$PROXY" -- "$PY" -c "import socket; s=socket.socket(); s.sendto(b'x', socket.MSG_FASTOPEN, ('127.0.0.1', $OPORT))"
expect_err 'Operation not permitted' "proxy: no TCP Fast Open (a connect the broker never sees)"
grep -q 'GET / ' "$T_TMP/allowed.log" && ok "the allowed origin saw the requests" || fail "no request reached the allowed origin"
grep -q 'GET / ' "$T_TMP/other.log" && fail "the refused origin was reached" || ok "the refused origin saw no request"
kill "$ORIGIN" "$OTHER" 2>/dev/null
finish
