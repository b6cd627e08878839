#!/usr/bin/env bash
# Device nodes outside /dev (backends/landlock/README.md, "Design"): the
# ruleset fences the path /dev, the launch's cgroup device program the
# numbers.  As root, nodes the test makes for a character device (vcs,
# 7:0) and a block device (loop0, 7:0) open on the host, and in the
# sandbox neither opens -- in the workspace, outside it, by a hard link, by
# a rename, reopened through /proc/self/fd from an O_PATH descriptor, or
# through the broker's O_CREAT in a directory on the way to a denial --
# while /dev/null and the other granted devices still do.  As an ordinary
# user the caller's own permission decides (explain says so).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
OUTSIDE="$T_TMP/outside"
mkdir -p "$WS/.git" "$OUTSIDE"
chmod -R a+rwX "$T_TMP"
cd "$WS" || exit 2
POL=$(policy workspace_write false false "\"deniedWritePaths\":[\"$WS/.git\"]")

ll_run "$POL" --explain
expect_rc 0 "explain"
if ! is_host_root; then
    printf '%s\n' "$OUT" | grep -q '^devices: .*an ordinary caller: a node outside /dev opens only where its mode' &&
        ok "explain: an ordinary caller's nodes open as their mode lets it" || fail "explain: no devices item: $OUT"
    finish
fi
printf '%s\n' "$OUT" | grep -q '^devices: .*cgroup device program on the launch.s group' &&
    ok "explain: a device program on the launch's group" || fail "explain: no device program item: $OUT"

mknod "$WS/vcs" c 7 0 && mknod "$WS/loop" b 7 0 && mknod "$OUTSIDE/vcs" c 7 0 && mknod "$OUTSIDE/loop" b 7 0 &&
    ln "$WS/vcs" "$WS/vcs-link" || { fail "cannot make the test's nodes"; finish; }
# The control: the same nodes open on the host.
"$PY" -c 'import os, sys; [os.close(os.open(p, os.O_RDWR | os.O_NONBLOCK)) for p in sys.argv[1:]]' "$WS/vcs" "$WS/loop" && ok "host: the test's nodes open" ||
    fail "host: the test's nodes do not open, so the sandbox's refusal would show nothing"

cat >"$T_TMP/attempts.py" <<'EOF'
import os, sys
ws, outside = sys.argv[1:3]
def attempt(what, path, flags=os.O_RDONLY):
    try:
        fd = os.open(path, flags | os.O_NONBLOCK)
        os.close(fd)
        print("OPENED", what)
    except OSError as e:
        print("refused", what, e.errno)
for node in ("vcs", "loop"):
    attempt(node + " in the workspace", ws + "/" + node)
    attempt(node + " outside it", outside + "/" + node)
    attempt(node + " for writing", ws + "/" + node, os.O_WRONLY)
    attempt(node + " by O_CREAT at the top (the broker)", ws + "/" + node, os.O_RDWR | os.O_CREAT)
attempt("vcs by its hard link", ws + "/vcs-link")
os.rename(ws + "/vcs", ws + "/renamed")
attempt("vcs renamed", ws + "/renamed")
os.rename(ws + "/renamed", ws + "/vcs")
try:
    p = os.open(ws + "/loop", os.O_PATH)
    attempt("loop through /proc/self/fd of an O_PATH descriptor", "/proc/self/fd/%d" % p)
except OSError as e:
    print("refused O_PATH", e.errno)
for dev in ("null", "zero", "full", "random", "urandom"):
    try:
        os.close(os.open("/dev/" + dev, os.O_RDWR))
        print("granted", dev)
    except OSError as e:
        print("LOST", dev, e.errno)
try:
    os.mknod(ws + "/made", 0o600 | 0o060000, os.makedev(7, 0))
    print("MADE a node")
except OSError as e:
    print("refused mknod", e.errno)
EOF
ll_run "$POL" -- "$PY" "$T_TMP/attempts.py" "$WS" "$OUTSIDE"
expect_rc 0 "the attempts ran"
printf '%s\n' "$OUT" | grep -q '^OPENED' && fail "a device node outside /dev opened: $(printf '%s\n' "$OUT" | grep '^OPENED')" ||
    ok "no node outside /dev opened ($(printf '%s\n' "$OUT" | grep -c '^refused') attempts refused)"
# EPERM: the device controller's answer (devcgroup_inode_permission).
[ "$(printf '%s\n' "$OUT" | grep -c '^refused.* 1$')" -ge 12 ] && ok "every attempt was made and refused with EPERM" ||
    fail "fewer attempts than expected: $OUT"
[ "$(printf '%s\n' "$OUT" | grep -c '^granted')" = 5 ] && ok "the granted devices still open" ||
    fail "a granted device was lost: $OUT"
printf '%s\n' "$OUT" | grep -q '^MADE' && fail "the workload made a device node" || ok "the workload makes no node"
[ ! -e "$WS/made" ] && [ -c "$WS/vcs" ] && [ -b "$WS/loop" ] && ok "host: no node made, the test's nodes in place" ||
    fail "host: the workspace's nodes changed"
finish
