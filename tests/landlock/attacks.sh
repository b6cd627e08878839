#!/usr/bin/env bash
# The landlock backend attacked by a workload that has read its source:
# the supervisor's and the broker's processes (same uid, outside the
# Landlock domain), other names for denied files and host files (/proc
# magic links, O_PATH, links, RENAME_EXCHANGE, memfd), /dev, other names
# for host Unix sockets and hostile addresses for the broker, socket
# families with odd high bits, the caller's terminals, setuid programs,
# and processes that try to outlive the workload.  Every attack is in
# atk.py; each check looks at the host afterwards where it can.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

ATK="$T_TMP/atk.py"
cp "$HAS_SRCDIR/tests/landlock/atk.py" "$ATK"
WS="$T_TMP/ws"
HOSTDIR="$T_TMP/outside"
mkdir -p "$WS/.git" "$WS/secrets" "$WS/src" "$HOSTDIR"
echo token >"$WS/secrets/token"
echo keep >"$HOSTDIR/host-file"
chmod -R a+rwX "$T_TMP"
export WS
cd "$WS" || exit 2
POL=$(policy workspace_write false false \
    "\"deniedReadPaths\":[\"$WS/secrets\"],\"deniedWritePaths\":[\"$WS/.git\"]")
OPEN=$(policy workspace_write true true "\"deniedWritePaths\":[\"$WS/.git\"]")

# expect_refused WHAT: every attempt refused, and at least one made.
expect_refused() {
    if printf '%s' "$ERR" | grep -q Traceback; then
        fail "$1: the attack broke off: $(printf '%s' "$ERR" | tail -1)"
    elif printf '%s\n' "$OUT" | grep -q '^SUCCEEDED'; then
        fail "$1: $(printf '%s\n' "$OUT" | grep '^SUCCEEDED' | tr '\n' ';')"
    elif printf '%s\n' "$OUT" | grep -q '^refused'; then
        ok "$1 ($(printf '%s\n' "$OUT" | grep -c '^refused') attempts refused)"
    else
        fail "$1: no attempt was made (rc $RC): $OUT $ERR"
    fi
}

# ---- the broker and the supervisor: /proc, ptrace, pidfd, signals ----
ll_run "$POL" -- "$PY" "$ATK" procs
expect_rc 0 "the workload ends normally after attacking its broker and supervisor"
expect_refused "the broker's and the supervisor's /proc entries, memory, descriptors and signals"

# ---- other names for a denied file, writes through other names ----
ll_run "$POL" -- "$PY" "$ATK" reopen "$WS/secrets/token" "$HOSTDIR/host-file"
expect_refused "O_PATH descriptors and /proc magic links to a denied or host file"
expect_out_lacks token "the denied file's content never shows"
expect_content "$HOSTDIR/host-file" keep "the host file is unchanged"

ll_run "$POL" -- "$PY" "$ATK" links "$HOSTDIR/host-file" "$HOSTDIR"
expect_refused "links, renames, RENAME_EXCHANGE, O_TMPFILE, fifos, sockets into and out of the workspace"
expect_content "$HOSTDIR/host-file" keep "the host file is neither swapped nor replaced"
[ "$(ls -A "$HOSTDIR")" = host-file ] && ok "nothing planted in the host directory" ||
    fail "the host directory holds: $(ls -A "$HOSTDIR")"
expect_absent "$WS/src/hl" "no hard link of the host file in the workspace"

HOSTMODE=$(stat -c '%a %Y %Z' "$HOSTDIR/host-file")
sleep 1 # a change of its inode moves its ctime (to the second: stat -c %Z)
ll_run "$POL" -- "$PY" "$ATK" metadata "$HOSTDIR/host-file"
expect_refused "a host file's mode, times, user.* and ACL xattrs, owner, setuid bits, security xattrs, flags, generation"
case $(stat -c '%a %Y %Z' "$HOSTDIR/host-file") in "$HOSTMODE") ok "the host file keeps its mode, times and ctime" ;;
*) fail "the host file's mode or times changed: $(stat -c '%a %Y %Z' "$HOSTDIR/host-file"), was $HOSTMODE" ;; esac
echo cfg >"$WS/.git/config"
chmod 644 "$WS/.git/config" "$WS/secrets/token"
DENIEDMODE=$(stat -c '%a %Y %Z' "$WS/.git/config" "$WS/secrets/token")
sleep 1
ll_run "$POL" -- "$PY" "$ATK" meta-broker "$HOSTDIR/host-file" "$WS/.git/config" "$WS/secrets/token"
expect_refused "the broker's metadata calls: host descriptors, dirfds, /proc links, hostile arguments, swaps"
expect_out '^broker alive$' "the broker still changes the workspace's own files afterwards"
case $(stat -c '%a %Y %Z' "$HOSTDIR/host-file") in "$HOSTMODE") ok "the host file's inode is untouched by the broker" ;;
*) fail "the host file's mode or times changed: $(stat -c '%a %Y %Z' "$HOSTDIR/host-file"), was $HOSTMODE" ;; esac
"$PY" -c 'import os, sys; sys.exit(1 if any(os.listxattr(f) for f in sys.argv[1:]) else 0)' \
    "$HOSTDIR/host-file" "$WS/.git/config" "$WS/secrets/token" &&
    ok "the host file and the denied files have no extended attribute" || fail "an extended attribute was set"
case $(stat -c %a "$WS/src/suid" 2>/dev/null) in [2-7]???) fail "a workspace file got a set-id bit: $(stat -c %a "$WS/src/suid")" ;;
'') fail "the set-id attack made no file" ;; *) ok "no set-id bit on a workspace file through the broker's calls" ;; esac
[ "$(stat -c '%a %Y %Z' "$WS/.git/config" "$WS/secrets/token")" = "$DENIEDMODE" ] &&
    ok "the write- and read-denied files keep their mode and times" ||
    fail "a denied file's mode or times changed: $(stat -c '%n %a %Y %Z' "$WS/.git/config" "$WS/secrets/token")"
st=$(stat -c '%u:%g' "$HOSTDIR/host-file")
[ "$st" = "$(id -u):$(id -g)" ] && ok "the host file keeps its owner ($st)" || fail "the host file's owner changed: $st"
case $(stat -c %a "$HOSTDIR/host-file") in [4-7]???) fail "the host file got a setuid/setgid bit" ;; *) ok "no setuid/setgid bit" ;; esac
lsattr "$HOSTDIR/host-file" 2>/dev/null | grep -q '^[^ ]*[ia]' && fail "the host file became immutable or append-only" ||
    ok "the host file is not immutable or append-only"

ll_run "$POL" -- "$PY" "$ATK" memfd "$WS/secrets/token"
expect_refused "a program run from a memfd stays in the domain"
expect_out_lacks token "the denied file never shows"

# A denied path that does not exist yet, made by the workload.
mkdir -p "$WS/gen"
chmod a+rwx "$WS/gen"
ll_run "$(policy workspace_write false false "\"deniedWritePaths\":[\"$WS/gen/later\"],\"deniedReadPaths\":[\"$WS/gen/hidden\"]")" \
    -- /bin/sh -c 'mkdir gen/later; echo x >gen/later/f; echo x >gen/hidden; mkdir -p gen/hidden; ln -s /etc gen/later'
expect_absent "$WS/gen/later" "a write-denied path that did not exist: the workload cannot make it"
expect_absent "$WS/gen/hidden" "nor a read-denied one"

# Denials win over grants: a writable root (the workspace itself, or an
# allowedWritePaths entry) beneath a denied path is not writable.
mkdir -p "$T_TMP/home/proj"
chmod -R a+rwX "$T_TMP/home"
for field in deniedWritePaths deniedReadPaths; do
    for pol in "$(policy workspace_write false false "\"$field\":[\"$T_TMP/home\"]")" \
        "$(policy read_only false false "\"$field\":[\"$T_TMP/home\"],\"allowedWritePaths\":[\"$T_TMP/home/proj\"]")"; do
        (cd "$T_TMP/home/proj" && ll_run "$pol" -- /bin/sh -c 'echo x >made; mkdir dir')
        expect_absent "$T_TMP/home/proj/made" "$field above the writable root ($(printf '%s' "$pol" | cut -d'"' -f4)): no write beneath it"
        expect_absent "$T_TMP/home/proj/dir" "$field above the writable root: no directory made"
    done
done

# ---- the escape list (ns_attack: 0 refused, death by SIGSYS for other ABIs) ----
for attack in fds tioclinux ptrace1 mem1 keyctl userns uring-bind; do
    ll_run "$POL" -- "$ATTACK" "$attack"
    expect_rc 0 "$attack is refused (${OUT//$'\n'/; })"
done
if [ "$(uname -m)" = x86_64 ]; then
    for attack in i386 x32; do
        ll_run "$POL" -- "$ATTACK" "$attack"
        expect_rc 159 "$attack syscalls kill the workload (SIGSYS)"
    done
fi

# ---- sockets with egress off ----
ll_run "$POL" -- "$PY" "$ATK" sockets
expect_refused "every family but AF_UNIX, AF_UNIX datagrams, high bits in the arguments"

# Host services: a stream socket outside the roots, its hard link in the
# workspace, one in the write-denied .git, a datagram socket, an abstract one.
"$PY" - "$HOSTDIR" "$WS/.git/s.sock" "$T_TMP/seen" <<'PY' &
import os, socket, sys, threading
d, denied, seen = sys.argv[1:]
def log(what):
    with open(seen, 'a') as f:
        f.write(what + '\n')
def serve(s, what):
    while True:
        c, _ = s.accept()
        log(what)
        c.close()
socks = []
for path, what in ((d + '/h.sock', 'host'), (denied, 'denied'), ('\0has-landlock-attack', 'abstract')):
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    if path[0] != '\0':
        os.chmod(path, 0o777)
    s.listen(8)
    threading.Thread(target=serve, args=(s, what), daemon=True).start()
g = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
g.bind(d + '/d.sock')
os.chmod(d + '/d.sock', 0o777)
os.link(d + '/h.sock', sys.argv[2].rsplit('/.git/', 1)[0] + '/src/hard.sock')
open(d + '/ready', 'w').close()
while True:
    log('datagram ' + g.recv(100).decode(errors='replace'))
PY
SERVER=$!
for _ in $(seq 50); do [ -e "$HOSTDIR/ready" ] && break; sleep 0.1; done
[ -e "$HOSTDIR/ready" ] || fail "the host's socket server did not start"
ll_run "$POL" -- "$PY" "$ATK" connect "$HOSTDIR/h.sock" src/sym.sock "$WS/src/hard.sock" "$WS/.git/s.sock"
expect_refused "every other name for a host Unix socket"
ll_run "$POL" -- "$PY" "$ATK" dgram "$HOSTDIR/d.sock"
expect_refused "a host datagram socket, without a datagram socket"
ll_run "$OPEN" -- "$PY" "$ATK" connect "$HOSTDIR/h.sock" src/sym.sock "$WS/src/hard.sock" "$WS/.git/s.sock"
expect_refused "egress open: host Unix sockets still out of reach"
for race in own-fdtable "dup2-race"; do
    ll_run "$OPEN" -- "$HAS_BUILDDIR/tests/linux-ns/helpers/connect_attack" $race "$HOSTDIR/h.sock" 2000
    expect_rc 0 "connect() race against the broker's check: $race"
done
ll_run "$OPEN" -- "$PY" "$ATK" hostile
expect_refused "hostile connect() arguments"
expect_out '^broker alive$' "the broker still connects the workload's own socket afterwards"
[ -e "$T_TMP/seen" ] && fail "a host service was reached: $(tr '\n' ' ' <"$T_TMP/seen")" ||
    ok "no host service saw a connection or a datagram"
kill "$SERVER" 2>/dev/null
wait "$SERVER" 2>/dev/null

# ---- /dev: the caller's other terminals, and devices it could read ----
"$PY" - "$T_TMP/pty" <<'PY' &
import os, pty, sys, time
m, s = pty.openpty()
os.write(m, b'hunter2\n')  # typed at another terminal: queued for its reader
open(sys.argv[1], 'w').write(os.ttyname(s))
m2, s2 = pty.openpty()
os.write(m2, b'hello\n')
open(sys.argv[1] + '2', 'w').write(os.ttyname(s2))
time.sleep(60)
PY
PTYS=$!
for _ in $(seq 50); do [ -s "$T_TMP/pty2" ] && break; sleep 0.1; done
ll_run "$POL" -- "$PY" "$ATK" pts "$(cat "$T_TMP/pty")"
expect_refused "another terminal of the caller's cannot be opened"
expect_out_lacks hunter2 "its input never shows"
# The caller's own terminal as stdin: usable by name, nothing more.
on_blocked_host "$SUPERVISOR" --sandbox landlock --policy "$POL" -- "$PY" "$ATK" tty \
    <"$(cat "$T_TMP/pty2")" >"$T_TMP/out" 2>"$T_TMP/err"
RC=$?
OUT=$(cat "$T_TMP/out")
expect_refused "stdin a terminal: no /dev/tty, no TIOCSTI"
expect_out "own terminal by name: 'hello" "the caller's own terminal stays readable as /dev/stdin"
kill "$PTYS" 2>/dev/null
SHM=/dev/shm/has-landlock-attack-$$
echo shmsecret >"$SHM"
chmod 644 "$SHM"
readable=()
for d in /dev/vcs /dev/vcsa /dev/tty1 /dev/console /dev/kmsg /dev/loop0 /dev/zram0 /dev/hwrng /dev/kvm /dev/vda \
    /dev/sda /dev/nvme0n1 /dev/input/event0 /dev/video0 /dev/snd/pcmC0D0c "$SHM"; do
    "$PY" -c "import os,sys; os.open(sys.argv[1], os.O_RDONLY|os.O_NONBLOCK|os.O_NOCTTY)" "$d" 2>/dev/null &&
        readable+=("$d")
done
ll_run "$POL" -- "$PY" "$ATK" devices "${readable[@]}"
expect_refused "devices the caller can read on the host (${readable[*]}) are not the workload's"
expect_out_lacks shmsecret "the host's /dev/shm is not readable"
rm -f "$SHM"
# A writable root in /dev is readable, unless a read-denial above it wins.
SHMDIR=/dev/shm/has-landlock-attack-dir-$$
mkdir -p "$SHMDIR/sub"
echo mine >"$SHMDIR/sub/f"
chmod -R a+rwX "$SHMDIR"
ll_run "$(policy read_only false false "\"allowedWritePaths\":[\"$SHMDIR\"]")" -- /bin/sh -c "cat '$SHMDIR/sub/f'; echo new >'$SHMDIR/sub/g'"
expect_out '^mine$' "a writable root in /dev/shm is readable"
expect_content "$SHMDIR/sub/g" new "and writable"
ll_run "$(policy read_only false false "\"deniedReadPaths\":[\"$SHMDIR\"],\"allowedWritePaths\":[\"$SHMDIR/sub\"]")" \
    -- /bin/sh -c "cat '$SHMDIR/sub/f'; echo x >'$SHMDIR/sub/h'"
expect_out_lacks mine "beneath a read-denied directory: not readable"
expect_absent "$SHMDIR/sub/h" "nor writable"
rm -rf "$SHMDIR"
ll_run "$POL" -- /bin/sh -c 'head -c 4 /dev/urandom | wc -c; echo x >/dev/null; head -c 1 /dev/zero | wc -c'
expect_out '^4$' "/dev/urandom still reads"
expect_rc 0 "/dev/null, /dev/zero still work"

# ---- other processes of the caller's; setuid programs ----
sleep 60 &
HOSTPROC=$!
# The priority it starts with: the suite may itself run under `nice`.
HOSTNICE=$(ps -o ni= -p "$HOSTPROC" | tr -d ' ')
ll_run "$POL" -- "$PY" "$ATK" hostproc "$HOSTPROC"
expect_refused "a host process of the caller's: signal, SIGIO, environ, cwd, ptrace, limits, priority, scheduling"
expect_out '^own priority set$' "the workload's own priority can still be changed"
expect_out '^broker alive after signals to its group: 0o600$' "signals to the workload's process group (the broker's) leave the broker alone"
[ "$(ps -o ni= -p "$HOSTPROC" | tr -d ' ')" = "$HOSTNICE" ] && ok "the host process keeps its priority ($HOSTNICE)" ||
    fail "the host process was reniced: $(ps -o ni= -p "$HOSTPROC"), from $HOSTNICE"
kill -0 "$HOSTPROC" 2>/dev/null && ok "the host process is alive" || fail "the workload killed a host process"
grep -E '^Max (cpu time|open files|address space)' "/proc/$HOSTPROC/limits" | grep -qE '[[:space:]]0[[:space:]]+0[[:space:]]' &&
    fail "the host process's limits were lowered: $(grep -E '^Max (cpu|open|address)' "/proc/$HOSTPROC/limits" | tr -s ' ')" ||
    ok "the host process keeps its limits"
kill "$HOSTPROC" 2>/dev/null
ll_run "$POL" -- "$PY" "$ATK" setuid /usr/bin/su /usr/bin/sudo /bin/su
expect_refused "setuid programs do not change the uid"

# ---- the host's SysV shared memory ----
SHMID=$("$PY" -c 'import ctypes; l = ctypes.CDLL(None); print(l.shmget(0, 4096, 0o1600))')
ll_run "$POL" -- "$PY" "$ATK" ipc "$SHMID"
expect_refused "SysV shared memory (no IPC namespace)"
"$PY" -c "import ctypes; ctypes.CDLL(None).shmctl($SHMID, 0, None)"  # IPC_RMID

# ---- nothing outlives the workload ----
MARK="7$$.25"
ll_run "$POL" -- "$PY" "$ATK" orphans "$MARK"
expect_out '^leaving$' "the orphan attack ran"
sleep 0.5
left=$(pgrep -f "^/bin/sleep $MARK" | tr '\n' ' ')
[ -z "$left" ] && ok "double fork + setsid, a subreaper of its own, a forking chain, a stopped process: all killed" ||
    { fail "processes outlived the workload: $left"; kill -9 $left 2>/dev/null; }
finish
