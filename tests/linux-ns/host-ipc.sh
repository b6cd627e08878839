#!/bin/bash
# host-ipc.sh — host pathname sockets (an ssh-agent in /tmp, an engine
# socket under /run, one named by SSH_AUTH_SOCK elsewhere) are unreachable
# with egress off and on, while the workload's own sockets and a private
# /dev/shm work, and /tmp stays read-only.
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

# The workload's own sockets: in the workspace; none can be made in /tmp.
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
expect_err 'Read-only file system' "no socket can be bound in the read-only /tmp"
expect_absent /tmp/has-own-$$.sock "the /tmp socket"

# /tmp: host content readable, read-only; /dev/shm: private and writable.
echo host-visible > "$T_TMP/visible"
run_sup "$P" -- sh -c "cat '$T_TMP/visible'; echo x > /tmp/has-priv-$$ && echo tmp-ok; echo y > /dev/shm/has-priv-$$ && echo shm-ok"
expect_out host-visible "host /tmp content readable inside"
expect_out_lacks tmp-ok "/tmp is read-only inside"
expect_out shm-ok "/dev/shm writable inside"
expect_absent /tmp/has-priv-$$ "/tmp write"
expect_absent /dev/shm/has-priv-$$ "/dev/shm write"
run_sup "$P" -- "$PY" -c 'import multiprocessing as m; l = m.Lock(); l.acquire(); l.release(); print("sem-ok")'
expect_out sem-ok "POSIX semaphores (python multiprocessing) work"

# The /tmp overlay keeps its metadata in user.overlay.* xattrs (userxattr).
# Those a host user sets on their own files in /tmp (the lower layer) hide
# and redirect nothing.
case "$T_TMP" in
/tmp/*)
    mkdir -p "$T_TMP/ovl/sub" "$T_TMP/ovl/other" && echo lower-file >"$T_TMP/ovl/sub/f" &&
        echo redirected >"$T_TMP/ovl/other/marker"
    if "$PY" -c 'import os, sys
os.setxattr(sys.argv[1], "user.overlay.opaque", b"y")
os.setxattr(sys.argv[1] + "/sub", "user.overlay.redirect", sys.argv[1][len("/tmp"):].encode() + b"/other")' \
        "$T_TMP/ovl" 2>/dev/null; then
        run_sup "$P" -- sh -c "cat '$T_TMP/ovl/sub/f'; ls '$T_TMP/ovl/sub'"
        expect_out '^lower-file$' "host-set user.overlay xattrs: the directory's own files still seen"
        expect_out_lacks marker "host-set user.overlay.redirect is not followed"
    else
        echo "# the host /tmp has no user xattrs: host-set overlay xattrs not checked"
    fi ;;
*) echo "# T_TMP is not under /tmp: host-set overlay xattrs not checked" ;;
esac

# A launch writes nothing to the kernel log: without userxattr each overlay
# mount in a user namespace logged four lines (eight per launch).  Read from
# /dev/kmsg (root only), from its end before the launch.
if is_root && [ -r /dev/kmsg ]; then
    "$PY" - "$SUPERVISOR" "$P" >"$T_TMP/kmsg" 2>&1 <<'PY'
import os, subprocess, sys
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
os.lseek(fd, 0, os.SEEK_END)
subprocess.run([sys.argv[1], "--policy", sys.argv[2], "--", "true"], check=True)
while True:
    try:
        record = os.read(fd, 8192).decode(errors="replace")
    except BlockingIOError:
        break
    except OSError:  # EPIPE: records overwritten meanwhile; read on
        continue
    if "overlayfs" in record:
        print(record.split(";", 1)[-1].strip())
PY
    OUT=$(cat "$T_TMP/kmsg")
    if [ -z "$OUT" ]; then ok "a launch adds no overlayfs line to the kernel log"
    else fail "kernel log after a launch: $OUT"; fi
fi

# /dev: another terminal of the same user (a host pty) must not be
# reachable — reading it would steal the keystrokes typed there.
"$PY" -c 'import os, sys, time
m, s = os.openpty()
open(sys.argv[1] + ".tmp", "w").write(os.ttyname(s)); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)' "$T_TMP/pts" &
holder=$!
for _ in $(seq 100); do [ -s "$T_TMP/pts" ] && break; sleep 0.05; done
pts=$(cat "$T_TMP/pts")
if "$PY" -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY))' "$pts"; then
    ok "control: the host pty $pts can be opened outside"
else
    fail "control: cannot open $pts outside"
fi
run_sup "$P" -- "$PY" -c 'import os, sys; os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY); print("OPENED")' "$pts"
expect_out_lacks OPENED "the host pty $pts cannot be opened inside"
kill "$holder" 2>/dev/null
run_sup "$P" -- sh -c 'ls /dev/pts; ls /dev | tr "\n" " "'
expect_out '^ptmx$' "/dev/pts is a new instance (only ptmx)"
expect_out_lacks 'sd[a-z]|nvme|kvm|mem |kmsg' "no host block, memory or kvm device in /dev"
run_sup "$P" -- sh -c 'echo x > /dev/null && head -c 3 /dev/zero | wc -c && touch /dev/new'
expect_out '^3$' "/dev/null and /dev/zero work"
expect_err 'Read-only file system' "/dev itself is read-only"
run_sup "$P" -- "$PY" -c 'import os; m, s = os.openpty(); os.write(s, b"pty-ok\n"); print(os.read(m, 10).decode().strip())'
expect_out 'pty-ok' "a new pty inside works"
finish
