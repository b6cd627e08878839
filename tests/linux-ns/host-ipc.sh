#!/bin/bash
# host-ipc.sh — host pathname sockets (an ssh-agent in /tmp, an engine
# socket under /run, one named by SSH_AUTH_SOCK elsewhere) are unreachable
# with egress off and on, while the workload's own sockets, a writable
# private /tmp and /dev/shm work.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
ns_require

agentdir=$(mktemp -d "$T_TMP/ssh-XXXXXX")
chmod 755 "$agentdir"
elsewhere=$(outside_dir)
socks=("$agentdir/agent.42" "$elsewhere/agent.sock")
if is_root; then
    runsock=/run/has-test-engine-$$.sock
    socks+=("$runsock")
fi
"$PY" "$NS_PY/sock_server.py" "$T_TMP/ready" "${socks[@]}" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "${runsock:-/nonexistent}"; ns_cleanup' EXIT
for _ in $(seq 100); do [ -s "$T_TMP/ready" ] && break; sleep 0.05; done
[ -s "$T_TMP/ready" ] || { fail "listener did not start"; finish; }
CLIENT="$NS_PY/sock_client.py"

for s in "${socks[@]}"; do
    "$PY" "$CLIENT" unix "$s" >/dev/null
    if [ $? = 0 ]; then ok "control: $s reachable on the host"; else fail "control: $s unreachable on the host"; fi
done

ws=$(make_workspace)
cd "$ws" || exit 1
export SSH_AUTH_SOCK="$elsewhere/agent.sock"
for egress in false true; do
    P=$(policy workspace_write $egress false)
    for s in "${socks[@]}"; do
        run_sup "$P" -- "$PY" "$CLIENT" unix "$s"
        expect_rc 1 "egress $egress: host socket $s unreachable"
    done
done
unset SSH_AUTH_SOCK

# The workload's own sockets: in the workspace and in the private /tmp.
P=$(policy workspace_write false true)
own='import os, socket, sys
p = sys.argv[1]
s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(1)
if os.fork() == 0:
    c = socket.socket(socket.AF_UNIX); c.connect(p); c.sendall(b"own"); os._exit(0)
a, _ = s.accept(); print(a.recv(10).decode())'
run_sup "$P" -- "$PY" -c "$own" "$ws/own.sock"
expect_out '^own$' "own unix socket in the workspace works"
run_sup "$P" -- "$PY" -c "$own" /tmp/has-own-$$.sock
expect_out '^own$' "own unix socket in the private /tmp works"
expect_absent /tmp/has-own-$$.sock "the private /tmp socket"

# /tmp and /dev/shm: host content readable, writes private.
echo host-visible > "$T_TMP/visible"
run_sup "$P" -- sh -c "cat '$T_TMP/visible'; echo x > /tmp/has-priv-$$ && echo tmp-ok; echo y > /dev/shm/has-priv-$$ && echo shm-ok"
expect_out host-visible "host /tmp content readable inside"
expect_out tmp-ok "/tmp writable inside"
expect_out shm-ok "/dev/shm writable inside"
expect_absent /tmp/has-priv-$$ "/tmp write"
expect_absent /dev/shm/has-priv-$$ "/dev/shm write"
run_sup "$P" -- "$PY" -c 'import multiprocessing as m; l = m.Lock(); l.acquire(); l.release(); print("sem-ok")'
expect_out sem-ok "POSIX semaphores (python multiprocessing) work"
finish
