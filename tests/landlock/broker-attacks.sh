#!/usr/bin/env bash
# An attacker who has read entry_broker.c: the broker acts outside the
# workload's Landlock domain in the directories on the way to a denial, so
# every way of making it act on the wrong entry is tried here -- a denied
# entry in a directory beyond the anchors the launch pins, symlinks at the
# last component of O_CREAT, hard links and renames to and from outside the
# writable roots, device nodes, descriptors of other directories flipped
# under the call, the pool of directories, and a flood of calls -- each
# checked on the host afterwards.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
OUTSIDE="$T_TMP/outside"
mkdir -p "$WS/.git/hooks" "$WS/src" "$OUTSIDE/dir"
echo '[core]' >"$WS/.git/config"
echo secret >"$WS/.env"
echo victim >"$OUTSIDE/victim"
echo top >"$WS/top.txt"
# More directories on the way to a denial than the launch pins as anchors
# (fs_anchors.c): the broker must still never act on their denied entries.
DEN=""
for i in $(seq -w 0 139); do
    mkdir -p "$WS/p$i/leads/to"
    echo "secret$i" >"$WS/p$i/.env"
    echo "deep$i" >"$WS/p$i/leads/to/.env"
    DEN="$DEN\"$WS/p$i/.env\",\"$WS/p$i/leads/to/.env\","
done
chmod -R a+rwX "$T_TMP"
chmod 755 "$OUTSIDE" "$OUTSIDE/dir" && chmod 644 "$OUTSIDE/victim"
cd "$WS" || exit 2
POL=$(policy workspace_write false false \
    "\"deniedWritePaths\":[\"$WS/.git\"],\"deniedReadPaths\":[\"$WS/.env\",${DEN%,}]")
snapshot() {
    (cd "$T_TMP" && find ws/.git ws/.env ws/p*/.env ws/p*/leads outside -printf '%p %y %m %s %i\n' | sort &&
        cat ws/.env ws/.git/config ws/p*/.env ws/p*/leads/to/.env outside/victim)
}
BEFORE=$(snapshot)
host_unchanged() {
    [ "$(snapshot)" = "$BEFORE" ] && ok "host's denied files and the outside unchanged: $1" ||
        fail "host changed by: $1: $(diff <(echo "$BEFORE") <(snapshot) | head -5 | tr '\n' ' ')"
}
T=(timeout "$(scaled_seconds 20)")

# 1. A denied entry in a directory the launch did not pin (past the cap):
# renamed out into the top level (the broker's side), then on into a
# readable directory; renamed over; exchanged with a new directory.
ll_run "$POL" -- "${T[@]}" /bin/sh -c 'for d in p139 p000; do
    mv $d/.env stolen-$d && mv stolen-$d src/ && cat src/stolen-$d; echo x >n-$d; mv n-$d $d/.env;
    mkdir e-$d; mv -T --exchange e-$d $d/leads 2>/dev/null || python3 -c "
import ctypes; l = ctypes.CDLL(None, use_errno=True)
print(\"exchange\", l.renameat2(-100, b\"e-$d\", -100, b\"$d/leads\", 2))"
    cat e-$d/to/.env; done; true'
expect_out_lacks 'secret|deep' "no read-denied file read through the broker's renames"
host_unchanged "renames of denied entries beyond the pinned directories"

# 2. A symbolic link at the last component of O_CREAT: the broker must not
# create or open through it; a dangling one must not make its target.
ll_run "$POL" -- "${T[@]}" /bin/sh -c "ln -s '$OUTSIDE/victim' l1; ln -s '$OUTSIDE/new' l2; ln -s .git/hooks/pre-commit l3;
    echo pwn >l1; echo pwn >>l1; echo pwn >l2; echo pwn >l3; python3 -c '
import os
for n in (\"l1\", \"l2\", \"l3\"):
    for fl in (os.O_CREAT | os.O_WRONLY, os.O_CREAT | os.O_EXCL | os.O_WRONLY, os.O_CREAT | os.O_TRUNC | os.O_RDWR):
        try:
            os.write(os.open(n, fl, 0o644), b\"pwn\")
            print(\"opened\", n, fl)
        except OSError:
            pass
'; true"
expect_out_lacks opened "no O_CREAT open through a symlink at the top"
expect_absent "$OUTSIDE/new" "a dangling symlink's target"
expect_absent "$WS/.git/hooks/pre-commit" "a symlink into .git"
host_unchanged "O_CREAT through symlinks at the top"

# 3. Device nodes at the top, hard links and renames across the writable
# root's edge, the workload's descriptor of a directory outside.
cat >"$T_TMP/edge.py" <<'PY'
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_EMPTY_PATH, AT_SYMLINK_FOLLOW = -100, 0x1000, 0x400
out = sys.argv[1]
def call(what, r):
    e = ctypes.get_errno()
    print(what, "ok" if r >= 0 else errno.errorcode.get(e, e))
call("mknod char", libc.mknod(b"null2", 0o20666, os.makedev(1, 3)))
call("mknod block", libc.mknod(b"blk", 0o60666, os.makedev(7, 0)))
call("mknod setuid file", libc.mknod(b"suid", 0o104755, 0))
call("open setuid", libc.open(b"suid2", os.O_CREAT | os.O_WRONLY, 0o4755))
v = (out + "/victim").encode()
call("link outside in", libc.link(v, b"hl1"))
call("linkat follow symlink", libc.symlink(v, b"sl") or libc.linkat(AT_FDCWD, b"sl", AT_FDCWD, b"hl2", AT_SYMLINK_FOLLOW))
fd = os.open(out + "/victim", os.O_RDONLY)
call("linkat empty path", libc.linkat(fd, b"", AT_FDCWD, b"hl3", AT_EMPTY_PATH))
call("linkat proc fd", libc.linkat(AT_FDCWD, ("/proc/self/fd/%d" % fd).encode(), AT_FDCWD, b"hl4", AT_SYMLINK_FOLLOW))
call("rename top to outside", libc.rename(b"top.txt", (out + "/top").encode()))
call("rename outside to top", libc.rename(v, b"v"))
call("exchange outside", libc.renameat2(AT_FDCWD, b"top.txt", AT_FDCWD, v, 2))
d = os.open(out + "/dir", os.O_RDONLY | os.O_DIRECTORY)
call("openat outside dirfd", libc.openat(d, b"made", os.O_CREAT | os.O_WRONLY, 0o644))
call("mkdirat outside dirfd", libc.mkdirat(d, b"made2", 0o755))
call("symlinkat outside dirfd", libc.symlinkat(b"x", d, b"made3"))
call("renameat to outside dirfd", libc.renameat(AT_FDCWD, b"top.txt", d, b"made4"))
call("unlinkat outside dirfd", libc.unlinkat(os.open(out, os.O_RDONLY | os.O_DIRECTORY), b"victim", 0))
call("proc cwd .git", libc.open(b"/proc/self/cwd/.git/hooks/pre-commit", os.O_CREAT | os.O_WRONLY, 0o755))
call("dotdot .git", libc.open(b"src/../.git/hooks/pre-commit", os.O_CREAT | os.O_WRONLY, 0o755))
call("rename .git via dotdot", libc.rename(b"src/../.git", b"g2"))
# openat2 is not brokered: with O_CREAT it is Landlock's alone.
how = (ctypes.c_uint64 * 3)(os.O_CREAT | os.O_WRONLY, 0o755, 0)
call("openat2 .git", libc.syscall(437, AT_FDCWD, b".git/hooks/pre-commit", how, 24))
call("openat2 outside", libc.syscall(437, AT_FDCWD, (out + "/dir/o2").encode(), how, 24))
PY
ll_run "$POL" -- "${T[@]}" "$PY" "$T_TMP/edge.py" "$OUTSIDE"
for what in "mknod char" "mknod block" "mknod setuid file" "open setuid" "link outside in" "linkat follow symlink" \
    "linkat empty path" "linkat proc fd" "rename top to outside" "rename outside to top" "exchange outside" \
    "openat outside dirfd" "mkdirat outside dirfd" "symlinkat outside dirfd" "renameat to outside dirfd" \
    "unlinkat outside dirfd" "proc cwd .git" "dotdot .git" "rename .git via dotdot" "openat2 .git" \
    "openat2 outside"; do
    expect_out "^$what E" "refused: $what"
done
[ -z "$(ls "$OUTSIDE/dir")" ] && [ "$(ls "$OUTSIDE")" = "$(printf 'dir\nvictim')" ] && ok "nothing made outside" ||
    fail "outside: $(ls -R "$OUTSIDE")"
for f in null2 blk suid suid2 hl1 hl2 hl3 hl4 v; do expect_absent "$WS/$f" "$f at the top"; done
expect_content "$WS/top.txt" top "the top-level file stayed"
host_unchanged "device nodes, links and renames across the edge"

# 4. A thread flips the descriptor number the call names between the top
# level and .git while mkdirat/openat/symlinkat run on it.
cat >"$T_TMP/fdflip.py" <<'PY'
import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
top = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
git = os.open(".git/hooks", os.O_RDONLY | os.O_DIRECTORY)
slot = 100
os.dup2(top, slot)
stop = False
def flip():
    while not stop:
        os.dup2(git, slot)
        os.dup2(top, slot)
th = threading.Thread(target=flip)
th.start()
for i in range(int(os.environ["FLIPS"])):
    libc.mkdirat(slot, b"pre-commit", 0o755)
    fd = libc.openat(slot, b"pre-commit", os.O_CREAT | os.O_WRONLY, 0o755)
    if fd >= 0:
        os.close(fd)
    libc.symlinkat(b"/bin/sh", slot, b"pre-commit")
    libc.unlinkat(slot, b"pre-commit", 0)
    libc.unlinkat(slot, b"pre-commit", 0x200)
stop = True
th.join()
print("flipped")
PY
# (Under emulation fewer rounds: launches in tests/lib.sh.)
ll_run "$POL" -- "${T[@]}" env FLIPS="$(launches 1500 150)" "$PY" "$T_TMP/fdflip.py"
expect_out '^flipped$' "the descriptor-flipping thread ran"
expect_absent "$WS/.git/hooks/pre-commit" "a hook made through a flipped descriptor"
host_unchanged "a descriptor flipped under the call"

# 5. The pool of directories: listed, watched, entered, its mode changed
# through a descriptor, reached through /proc.
ll_run "$POL" -- "${T[@]}" /bin/sh -c 'p=$(ls -a | grep "^\.happy-agent-supervisor-dirs" | head -1); python3 - "$p" <<PY
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
p = sys.argv[1].encode()
def call(what, r):
    e = ctypes.get_errno()
    print(what, "ok" if r >= 0 else errno.errorcode.get(e, e))
call("pool open dir", libc.open(p, os.O_RDONLY | os.O_DIRECTORY))
i = libc.inotify_init1(0)
call("pool inotify", libc.inotify_add_watch(i, p, 0xfff))
fd = os.open(p, os.O_PATH)
call("pool chmod proc fd", libc.chmod(("/proc/self/fd/%d" % fd).encode(), 0o700))
call("pool fchmodat", libc.fchmodat(fd, b"", 0o700, 0x1000))
call("pool chmod", libc.chmod(p, 0o700))
call("pool rename", libc.rename(p, b"pp"))
call("pool mkdir in", libc.mkdir(p + b"/x", 0o755))
call("pool link in", libc.link(b"top.txt", p + b"/x"))
print("mode", oct(os.stat(p).st_mode & 0o7777))
PY'
expect_out '^mode 0o300$' "the pool keeps its mode"
for what in "pool open dir" "pool inotify" "pool chmod proc fd" "pool chmod" "pool rename" "pool mkdir in" \
    "pool link in"; do
    expect_out "^$what E" "refused: $what"
done

# 6. A flood: many threads calling the broker at once; the run still ends
# in time and the next launch works.
cat >"$T_TMP/flood.py" <<'PY'
import os, sys, threading
def work(n):
    for i in range(int(sys.argv[1])):
        name = "f%d" % n
        try:
            os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o644))
            os.rename(name, name + "x")
            os.unlink(name + "x")
        except OSError:
            pass
ts = [threading.Thread(target=work, args=(n,)) for n in range(32)]
[t.start() for t in ts]
[t.join() for t in ts]
print("flood done")
PY
ll_run "$POL" -- "${T[@]}" "$PY" "$T_TMP/flood.py" "$(launches 300 30)"
expect_out '^flood done$' "32 threads of brokered calls finish"
ll_run "$POL" -- /bin/true
expect_rc 0 "a launch after the flood"
host_unchanged "the flood"
# shellcheck disable=SC2010 # ls -a lists the dot-named pool too; the names matched are fixed and plain
[ -z "$(ls -a "$WS" | grep -E '^(f[0-9]|\.happy-agent-supervisor-dirs)')" ] && ok "nothing left at the top" ||
    fail "left at the top: $(ls -a "$WS" | grep -E '^(f[0-9]|\.happy)')"

# 7. At the workload's openFiles limit the broker makes the file, then
# cannot give its descriptor (ADDFD: EMFILE): the call fails, and leaves
# no file behind -- past the pool of files too (plain O_CREAT), with
# O_EXCL, and with a name another call then makes for real.
cat >"$T_TMP/emfile.py" <<'PY'
import errno, os
held = []
try:
    while True: held.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print("filled", errno.errorcode[e.errno])
got = set()
for i in range(int(os.environ["N"])):
    for fl in (os.O_CREAT | os.O_WRONLY, os.O_CREAT | os.O_EXCL | os.O_RDWR):
        try: os.close(os.open("stray-%d-%d" % (i, fl & os.O_EXCL), fl, 0o644)); got.add("opened")
        except OSError as e: got.add(errno.errorcode[e.errno])
print("creates", " ".join(sorted(got)))
os.close(held.pop())
fd = os.open("stray-0-0", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
print("after", os.write(fd, b"kept"))
PY
EPOL=$(policy workspace_write false false \
    "\"deniedWritePaths\":[\"$WS/.git\"],\"deniedReadPaths\":[\"$WS/.env\",${DEN%,}],\"limits\":{\"openFiles\":40}")
ll_run "$EPOL" -- "${T[@]}" env N=40 "$PY" "$T_TMP/emfile.py"
expect_out '^filled EMFILE$' "the workload filled its descriptor table"
expect_out '^creates EMFILE$' "each create at the top fails with EMFILE there"
expect_out '^after 4$' "one descriptor freed: the same name is made for real (O_EXCL)"
# shellcheck disable=SC2010 # the names matched are fixed and plain
left=$(ls -a "$WS" | grep '^stray-' | tr '\n' ' ')
[ "$left" = "stray-0-0 " ] && [ "$(cat "$WS/stray-0-0")" = kept ] &&
    ok "no file left by the failed creates (only the one made after)" || fail "left at the top: $left"
rm -f "$WS"/stray-*
host_unchanged "creates at the openFiles limit"
finish
