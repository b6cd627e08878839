#!/bin/bash
# host-ipc.sh — host pathname sockets (an ssh-agent in /tmp, an engine
# socket under /run, one named by SSH_AUTH_SOCK elsewhere) are unreachable
# with egress off and on, while the workload's own sockets and a private
# /dev/shm work, and /tmp stays read-only.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

agentdir=$(mktemp -d "$T_TMP/ssh-XXXXXX")
chmod 755 "$agentdir"
elsewhere=$(outside_dir)
ws=$(make_workspace)
# Host sockets at paths no list names: /tmp, /var/tmp, $HOME, an ssh
# control master in ~/.ssh, a group-only (0660) one; and one in the
# workspace, which the policy grants.
mkdir -p "$HOME/.ssh" && chmod 700 "$HOME/.ssh"
homesock="$HOME/has-test-$$.sock"
cmsock="$HOME/.ssh/has-cm-$$@host:22"
socks=("$agentdir/agent.42" "$elsewhere/agent.sock" "$homesock" "$cmsock" "$elsewhere/group.sock")
if is_root; then
    runsock=/run/has-test-engine-$$.sock
    socks+=("$runsock")
fi
"$PY" "$NS_PY/sock_server.py" "$T_TMP/ready" "${socks[@]}" "$ws/granted.sock" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "${runsock:-/nonexistent}" "$homesock" "$cmsock"; ns_cleanup' EXIT
for _ in $(seq 100); do [ -s "$T_TMP/ready" ] && break; sleep 0.05; done
[ -s "$T_TMP/ready" ] || { fail "listener did not start"; finish; }
chgrp "$(id -g)" "$elsewhere/group.sock" && chmod 0660 "$elsewhere/group.sock"
CLIENT="$NS_PY/sock_client.py"

for s in "${socks[@]}"; do
    "$PY" "$CLIENT" unix "$s" >/dev/null
    if [ $? = 0 ]; then ok "control: $s reachable on the host"; else fail "control: $s unreachable on the host"; fi
done

cd "$ws" || exit 1
PROXIED='{"mode":"workspace_write","network":{"egress":true,"localBinding":false,"outgoingProxy":{"frontEnds":["http","socks5"]}}}'
for P in "$(policy workspace_write false false)" "$(policy workspace_write true false)" "$PROXIED" \
         "$(policy read_only false false)"; do
    what=$(printf '%s' "$P" | sed 's/.*"mode":"\([a-z_]*\)".*"egress":\([a-z]*\).*/\1, egress \2/')
    case $P in *outgoingProxy*) what="$what, proxy" ;; esac
    for s in "${socks[@]}"; do
        run_sup "$P" -- "$PY" "$CLIENT" unix "$s"
        expect_rc 1 "$what: host socket $s unreachable"
    done
    # The same through a relative path, a symlink in the workspace and ..
    ln -sf "$homesock" "$ws/link.sock"
    run_sup "$P" -- sh -c "cd '$HOME' && '$PY' '$CLIENT' unix 'has-test-$$.sock'; '$PY' '$CLIENT' unix '$ws/link.sock';
                           '$PY' '$CLIENT' unix '$ws/../$(basename "$ws")/link.sock'"
    expect_out_lacks reached "$what: ... nor through a relative path, a symlink in the workspace, or .."
    rm -f "$ws/link.sock"
done
run_sup "$(policy workspace_write false false)" -- "$PY" "$CLIENT" unix "$ws/granted.sock"
expect_rc 0 "a host socket inside the workspace (a writable root the caller granted) is reachable"
run_sup "$(policy read_only false false)" -- "$PY" "$CLIENT" unix "$ws/granted.sock"
expect_rc 1 "... and not when the workspace is not writable (read_only)"
run_sup "$(policy workspace_write false false "\"deniedWritePaths\":[\"$ws/granted.sock\"]")" -- "$PY" "$CLIENT" unix "$ws/granted.sock"
expect_rc 1 "... nor when that socket is write-denied"

# Attacks on the connect() check itself (an independent attack review
# found the first three in an earlier version).  Each checks what the host
# listener received.
RACE="$HAS_BUILDDIR/tests/linux-ns/helpers/connect_attack"
"$PY" -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])
open(sys.argv[2] + ".tmp", "w").close(); import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
with open(sys.argv[3], "ab", buffering=0) as log:
    while True:
        log.write(s.recv(100) + b"\n")' "$elsewhere/d.sock" "$T_TMP/dready" "$T_TMP/dgram.log" &
dserver=$!
for _ in $(seq 100); do [ -e "$T_TMP/dready" ] && break; sleep 0.05; done
for P in "$(policy workspace_write false true)" "$(policy workspace_write true true)"; do
    what=$(printf '%s' "$P" | sed 's/.*"egress":\([a-z]*\).*/egress \1/')
    run_sup "$P" -- "$PY" -c 'import socket, sys
for kind in (socket.SOCK_DGRAM, socket.SOCK_RAW):
    for make in (lambda: socket.socket(socket.AF_UNIX, kind), lambda: socket.socketpair(socket.AF_UNIX, kind)[0]):
        try:
            make().sendto(b"owned", sys.argv[1]); print("SENT", kind)
        except OSError as e:
            print("refused:", e.strerror)' "$elsewhere/d.sock"
    expect_out_lacks SENT "$what: no datagram (SOCK_DGRAM, SOCK_RAW; socket, socketpair) reaches a host socket"
    run_sup "$P" -- "$RACE" own-fdtable "$homesock"
    expect_rc 0 "$what: a thread with its own descriptor table cannot connect an unchecked AF_UNIX socket ($OUT)"
    run_sup "$P" -- "$RACE" dup2-race "$homesock" 3000
    expect_rc 0 "$what: swapping the descriptor with dup2() during connect() reaches no host socket ($OUT)"
done
"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_RAW).sendto(b"control", sys.argv[1])' "$elsewhere/d.sock"
sleep 0.2
kill "$dserver" 2>/dev/null
if [ "$(cat "$T_TMP/dgram.log")" = control ]; then
    ok "host: the datagram socket received only the unsandboxed control message"
else
    fail "host: the datagram socket received: $(tr '\n' ' ' <"$T_TMP/dgram.log")"
fi

# Addresses the kernel itself would refuse, of every length up to
# sockaddr_storage: refused, and the init (which copies them) still serves.
run_sup "$(policy workspace_write false true)" -- "$PY" -c 'import ctypes, os, socket
libc = ctypes.CDLL(None, use_errno=True)
s = socket.socket(socket.AF_UNIX)
bad = 0
for n in list(range(0, 4)) + [109, 110, 111, 112, 127, 128, 129, 4096, -1, 0x7fffffff]:
    buf = ctypes.create_string_buffer(b"\x01\x00" + b"A" * 4200)
    if libc.connect(s.fileno(), buf, n) == 0:
        bad += 1
own = socket.socket(socket.AF_UNIX); own.bind("odd.sock"); own.listen(1)
c = socket.socket(socket.AF_UNIX); c.connect("odd.sock")
print("odd lengths connected:", bad, "- a normal connect afterwards: ok")'
expect_out '^odd lengths connected: 0 - a normal connect afterwards: ok$' "odd AF_UNIX address lengths refused; the init still serves"

# The init never waits in connect(): a listener whose backlog is full (a
# blocking connect() waits for it) neither stalls the init's other work nor
# outlives the workload, and is connected once there is room.  (An init
# that waited hung the whole launch: each run is bounded, by SIGKILL.)
bounded() { # bounded POLICY CMD...: run_sup, killed after 60 s
    local pol=$1
    shift
    timeout -s KILL 60 "$SUPERVISOR" --policy "$pol" -- "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
bounded "$(policy workspace_write false true)" "$PY" -c 'import os, socket, threading, time
p = os.getcwd() + "/full.sock"
l = socket.socket(socket.AF_UNIX); l.bind(p); l.listen(0)
held = []
def fill():
    while True:
        c = socket.socket(socket.AF_UNIX); c.connect(p); held.append(c)
threading.Thread(target=fill, daemon=True).start()
time.sleep(0.5)
t = time.time(); s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.socket(); c.connect(s.getsockname())
print("other connect while one waits: %.2fs" % (time.time() - t))
a, _ = l.accept(); time.sleep(0.3)
print("waiting connect done after accept:", len(held) >= 2)'
expect_rc 0 "a blocking connect() to a full backlog: the workload ends normally"
expect_out '^other connect while one waits: 0\.' "... the init serves other connect() calls meanwhile"
expect_out 'waiting connect done after accept: True' "... and the waiting one completes when the listener accepts"
SECONDS=0
bounded "$(policy workspace_write false true)" "$PY" -c 'import os, socket
p = os.getcwd() + "/full2.sock"
if os.fork() == 0:
    l = socket.socket(socket.AF_UNIX); l.bind(p); l.listen(0)
    k = [socket.socket(socket.AF_UNIX) for _ in range(5)]
    [s.connect(p) for s in k]
    os._exit(0)
import time; time.sleep(1)'
expect_rc 0 "a child blocked in connect() does not keep the sandbox alive after the workload exits"
[ "$SECONDS" -lt 15 ] && ok "... the launch ended (${SECONDS}s)" || fail "the launch took ${SECONDS}s"

# SSH_AUTH_SOCK as the caller sets it: a symlink to the agent's socket, and
# given twice (the core keeps the last, which sh and Python use).  The mask
# is a second layer: this agent is inside the writable workspace, where the
# connect() check alone would let it through.
ln -sf "$ws/granted.sock" "$ws/agent-link"
for env in "SSH_AUTH_SOCK=$ws/agent-link" "SSH_AUTH_SOCK=/nonexistent SSH_AUTH_SOCK=$ws/agent-link"; do
    "$PY" -c 'import ctypes, os, sys
env = [k + "=" + v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"] + sys.argv[1].split()
envp = (ctypes.c_char_p * (len(env) + 1))(*[e.encode() for e in env], None)
args = [a.encode() for a in sys.argv[2:]]
argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
ctypes.CDLL(None).execve(args[0], argv, envp)
sys.exit("execve failed")' "$env" "$SUPERVISOR" --policy "$(policy workspace_write false false)" -- \
        sh -c "'$PY' '$CLIENT' unix \"\$SSH_AUTH_SOCK\"; '$PY' '$CLIENT' unix '$ws/granted.sock'; echo \"sock=\$SSH_AUTH_SOCK\"" \
        >"$T_TMP/agent" 2>&1
    OUT=$(cat "$T_TMP/agent")
    if [ "$(printf '%s\n' "$OUT" | grep -c '^unreachable')" = 2 ]; then
        ok "$env: the agent is masked, through the link and at its real path"
    else
        fail "$env: the agent was not refused twice: $OUT"
    fi
    expect_out "^sock=$ws/agent-link\$" "$env: the workload sees one SSH_AUTH_SOCK, the last"
done

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
