#!/usr/bin/env bash
# A denial refuses the denied path and nothing else: in a workspace whose
# .git is write-denied and whose .env is read-denied, the top level takes
# new files, directories, symlinks and FIFOs, and its entries are renamed
# and removed (the broker acts there, entry_broker.c); .git, .env and the
# way to them are neither made, renamed, removed nor replaced -- attacked
# by renameat2 flags, links, O_TMPFILE, `..`, symlinks, NAME_MAX names, a
# bind-mounted alias and a thread flipping the path, each checked on the
# host afterwards.  The directories on the way to a read denial list.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
mkdir -p "$WS/.git/hooks" "$WS/src" "$WS/sub/.git"
echo '[core]' >"$WS/.git/config"
echo '[sub]' >"$WS/sub/.git/config"
echo secret >"$WS/.env"
echo code >"$WS/src/a.c"
echo top >"$WS/top.txt"
chmod -R a+rwX "$T_TMP"
cd "$WS" || exit 2
POL=$(policy workspace_write false false \
    "\"deniedWritePaths\":[\"$WS/.git\",\"$WS/sub/.git\"],\"deniedReadPaths\":[\"$WS/.env\"]")
# What must never change on the host: the denied trees, names and contents.
DENIED=".git sub/.git .env"
snapshot() { (cd "$WS" && find $DENIED -printf '%p %y %m %s\n' | sort && find $DENIED -type f -exec cat {} +); }
BEFORE=$(snapshot)
host_unchanged() {
    [ "$(snapshot)" = "$BEFORE" ] && [ ! -e "$WS/.git/hooks/pre-commit" ] && ok "host's .git and .env unchanged: $1" ||
        fail "host's .git or .env changed by: $1"
}

# The table of the issue: each works, the hook write stays refused.
ll_run "$POL" -- /bin/sh -c 'echo new >new.txt && mkdir newdir && mv src src2 && echo y >>src2/a.c &&
    echo z >src2/new.c && ln -s top.txt link && mkfifo fifo && cat new.txt && echo more >>new.txt && cat new.txt'
expect_rc 0 "new file, directory, rename, symlink and FIFO at the top"
expect_content "$WS/new.txt" "new
more" "a new top-level file is written, reopened and appended by name"
[ -d "$WS/newdir" ] && [ -d "$WS/src2" ] && [ ! -e "$WS/src" ] && [ -L "$WS/link" ] && [ -p "$WS/fifo" ] &&
    ok "they are on the host" || fail "top level on the host: $(ls -a "$WS")"
expect_content "$WS/src2/new.c" z "a file in a renamed directory"
ll_run "$POL" -- /bin/sh -c 'echo hook >.git/hooks/pre-commit'
[ "$RC" != 0 ] && ok "the hook write is refused" || fail "hook written"
host_unchanged "the table"

# An editor's save, sed -i: a temporary file renamed over a top-level file,
# its mode kept, the workload's umask applied to new files.
chmod 640 "$WS/top.txt"
ll_run "$POL" -- /bin/sh -c 'sed -i s/top/TOP/ top.txt && umask 027 && echo m >masked && cat top.txt && rm -f link fifo &&
    mv new.txt renamed.txt && rm renamed.txt && rmdir newdir'
expect_rc 0 "sed -i, umask, rm, mv, rmdir at the top"
expect_content "$WS/top.txt" TOP "sed -i rewrote the file"
[ "$(stat -c %a "$WS/top.txt")" = 640 ] && [ "$(stat -c %a "$WS/masked")" = 640 ] && ok "modes kept and masked" ||
    fail "modes: $(stat -c '%n %a' "$WS/top.txt" "$WS/masked")"
[ ! -e "$WS/renamed.txt" ] && [ ! -e "$WS/newdir" ] && [ ! -e "$WS/link" ] && ok "removed on the host" ||
    fail "not removed: $(ls -a "$WS")"

# The directories on the way to a read denial list (the denied name shows,
# as with linux-ns's mask); the denied file stays unreadable.
ll_run "$POL" -- /bin/sh -c 'ls -a / >/dev/null && ls -a . && find . -name a.c && cat .env'
expect_out '\.env' "the workspace lists, the read-denied name among its entries"
expect_out 'src2/a.c' "find walks the workspace"
expect_out_lacks secret "the read-denied file is not read"

# The denied names and the way to them: neither renamed, removed, replaced
# nor made -- directly, through `..`, a symlink, or in a nested anchor.
ll_run "$POL" -- /bin/sh -c 'mv .git gone; rm -rf .git; mv .env e2; rm -f .env; rm -rf src2/../.git;
    mv src2/../.git x; ln -s .git gl; echo h >gl/hooks/pre-commit; mv gl/hooks h2; mkdir h; mv -T h .git/hooks;
    mv sub sub2; rm -rf sub; mv sub/.git sg; touch .git/x; mkdir .git/y; ln .git/config cfg && echo w >>cfg;
    ln -s /etc/passwd .git/z; mkfifo .git/f; rmdir .git/hooks'
host_unchanged "renames, removals, links and creations at the denied names"
[ ! -e "$WS/cfg" ] && ok "no hard link of .git/config at the top" || fail "hard link of .git/config made"
[ -d "$WS/sub" ] && ok "a directory on the way to a denial is not renamed" || fail "sub moved"

# A denied path made again after its removal would be an escape: a missing
# read-denied name is never made (and .git cannot go away to be made anew).
rm -f "$WS/.env"
DENIED=".git sub/.git"
BEFORE=$(snapshot)
ll_run "$POL" -- /bin/sh -c 'echo planted >.env; mkdir .env; mkfifo .env; ln -s top.txt .env; mv top.txt .env'
[ ! -e "$WS/.env" ] && [ ! -L "$WS/.env" ] && ok "a missing read-denied name is never made" || fail ".env made"
host_unchanged "the attempts to make .env"
echo secret >"$WS/.env"
DENIED=".git sub/.git .env"
BEFORE=$(snapshot)

# A directory made at the top is one of the launch's pool (fs_dir_pool.c):
# everything beneath it can be made, renamed and removed, moved out and
# back it keeps its rights; the pool itself is neither listed, changed nor
# named, and is gone afterwards.
ll_run "$POL" -- /bin/sh -c 'mkdir build && mkdir -p build/a/b && echo deep >build/a/b/f && mv build/a build/a2 &&
    cat build/a2/b/f && umask 022 && mkdir -m 750 modes && stat -c "mode %a" modes && mv build src2/build &&
    echo in-src >src2/build/g && mv src2/build build && echo back >build/h && rm -rf build modes && echo tree-ok
    p=$(ls -a | grep "^\.happy-agent-supervisor-dirs") && echo "pool $p" && ls "$p"; chmod 700 "$p" || echo chmod-refused;
    mv "$p" p2 || echo rename-refused; rmdir "$p" || echo rmdir-refused; mkdir "$p/x" || echo mkdir-in-refused;
    echo f >f1 && mv f1 "$p/f1" || echo move-in-refused'
expect_out '^deep$' "a file beneath a new top-level directory, renamed inside it"
expect_out '^mode 750$' "mkdir -m at the top"
expect_out '^tree-ok$' "the new directory moved out and back keeps its rights, and is removed"
expect_out "^pool \\.happy-agent-supervisor-dirs" "the pool shows in the listing"
expect_out 'chmod-refused' "the pool's mode is not changed"
expect_out 'rename-refused' "the pool is not renamed"
expect_out 'rmdir-refused' "the pool is not removed"
expect_out 'mkdir-in-refused' "nothing is made in the pool"
expect_out 'move-in-refused' "nothing is moved into the pool"
expect_out_lacks '^[0-9a-f]{16}$' "the pool's directories are not listed"
# shellcheck disable=SC2010 # ls -a lists the dot-named pool too; the names matched are fixed and plain
[ -z "$(ls -a "$WS" | grep '^\.happy-agent-supervisor-dirs')" ] && ok "the pool is removed at the end" ||
    fail "pool left: $(ls -a "$WS")"
[ ! -e "$WS/build" ] && [ ! -e "$WS/modes" ] && [ ! -e "$WS/src2/build" ] && ok "the new directories removed on the host" ||
    fail "left: $(ls -a "$WS")"
# The pool used up: mkdir fails with EDQUOT and one line says why.
ll_run "$POL" -- /bin/sh -c 'i=0; while mkdir d$i 2>/dev/null; do i=$((i+1)); done; echo "made $i"; rmdir d*'
expect_out '^made 32$' "a launch makes 32 directories at the top"
expect_err 'directories this launch can make beside a denied path.*used up.*EDQUOT' "then mkdir fails, and says why"
host_unchanged "directories made at the top"

# One environment under both backends (PWD included): linux-ns's where it
# can start on this host, in any order.  `_` is the calling shell's (the
# command it ran).
ll_run "$POL" -- /usr/bin/env
LL_ENV=$(echo "$OUT" | grep -v '^_=' | LC_ALL=C sort)
run_sup "$POL" -- /usr/bin/env
OUT=$(echo "$OUT" | grep -v '^_=' | LC_ALL=C sort)
if [ "$RC" = 0 ]; then
    echo "$OUT" | grep -q '^PATH=' && [ "$OUT" = "$LL_ENV" ] && ok "the environment is linux-ns's" ||
        fail "the environments differ: $(diff <(echo "$OUT") <(echo "$LL_ENV") | tr '\n' ' ')"
else
    echo "# not run: the environment beside linux-ns's (linux-ns cannot start here)"
fi

# The system calls themselves: renameat2's flags, linkat with AT_EMPTY_PATH
# and O_TMPFILE, names at NAME_MAX, and a thread flipping the path buffer.
cat >"$T_TMP/calls.py" <<'PY'
import ctypes, errno, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_EMPTY_PATH = -100, 0x1000
NOREPLACE, EXCHANGE, WHITEOUT = 1, 2, 4
def call(what, fn, *args):
    r = fn(*args)
    e = ctypes.get_errno()
    print(what, "ok" if r >= 0 else errno.errorcode.get(e, e))
def rename2(a, b, flags):
    call("renameat2 %s %s %d" % (a, b, flags), libc.renameat2, AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), flags)
os.mkdir("xdir")
rename2("xdir", ".git", EXCHANGE)
rename2(".git", "xdir", EXCHANGE)
rename2("xdir", "sub", EXCHANGE)
rename2("top.txt", "t2", WHITEOUT)
rename2("xdir", ".git", NOREPLACE)
rename2("xdir", "ydir", NOREPLACE)
rename2("src2", "ydir", EXCHANGE)
fd = os.open(".git/config", os.O_RDONLY)
call("linkat empty .git/config", libc.linkat, fd, b"", AT_FDCWD, b"cfg", AT_EMPTY_PATH)
call("linkat fd .git/config", libc.linkat, AT_FDCWD, ("/proc/self/fd/%d" % fd).encode(), AT_FDCWD, b"cfg2", 0x400)
try:
    t = os.open("ydir", os.O_TMPFILE | os.O_RDWR, 0o600)
    os.write(t, b"#!/bin/sh\necho pwned\n")
    call("linkat tmpfile .git", libc.linkat, t, b"", AT_FDCWD, b".git/hooks/pre-commit", AT_EMPTY_PATH)
    call("linkat tmpfile proc .git", libc.linkat, AT_FDCWD, ("/proc/self/fd/%d" % t).encode(), AT_FDCWD,
         b".git/hooks/pre-commit", 0x400)
except OSError as e:
    print("tmpfile", errno.errorcode.get(e.errno))
for n in (255, 256):
    name = "n" * n
    try:
        with open(name, "w") as f:
            f.write("x")
        os.rename(name, name[:-1] + "m")
        os.unlink(name[:-1] + "m")
        print("name", n, "ok")
    except OSError as e:
        print("name", n, errno.errorcode.get(e.errno))
# Another thread flips the path between a harmless name and the denied one
# while this one renames, removes and creates by it.
buf = ctypes.create_string_buffer(b"flip\0\0\0\0", 16)
stop = False
def flipper():
    while not stop:
        ctypes.memmove(buf, b".git\0", 5)
        ctypes.memmove(buf, b"flip\0", 5)
th = threading.Thread(target=flipper)
th.start()
for i in range(3000):
    libc.mkdir(buf, 0o755)
    libc.renameat2(AT_FDCWD, buf, AT_FDCWD, b"flipped", 0)
    libc.renameat2(AT_FDCWD, b"flipped", AT_FDCWD, buf, 0)
    libc.rmdir(buf)
    libc.unlink(buf)
stop = True
th.join()
print("flips done")
PY
ll_run "$POL" -- "$PY" "$T_TMP/calls.py"
expect_out '^renameat2 xdir \.git 2 EACCES$' "RENAME_EXCHANGE of a new directory with .git"
expect_out '^renameat2 \.git xdir 2 EACCES$' "RENAME_EXCHANGE of .git with a new directory"
expect_out '^renameat2 xdir sub 2 EACCES$' "RENAME_EXCHANGE with a directory on the way to a denial"
expect_out '^renameat2 top.txt t2 4 EPERM$' "RENAME_WHITEOUT"
expect_out '^renameat2 xdir \.git 1 EACCES$' "RENAME_NOREPLACE onto .git"
expect_out '^renameat2 xdir ydir 1 ok$' "RENAME_NOREPLACE at the top"
expect_out '^renameat2 src2 ydir 2 ok$' "RENAME_EXCHANGE of two top-level directories"
expect_out '^linkat empty \.git/config E' "linkat(AT_EMPTY_PATH) of .git/config to the top"
expect_out '^linkat fd \.git/config E' "linkat through /proc/self/fd of .git/config"
expect_out '^linkat tmpfile .*E' "an O_TMPFILE linked into .git"
expect_out '^name 255 ok$' "a name at NAME_MAX is made, renamed and removed"
expect_out '^name 256 ENAMETOOLONG$' "a name past NAME_MAX"
expect_out '^flips done$' "the flipping thread ran"
[ ! -e "$WS/cfg" ] && [ ! -e "$WS/cfg2" ] && ok "no link of .git/config made" || fail ".git/config linked out"
host_unchanged "renameat2 flags, linkat, O_TMPFILE, NAME_MAX, the flipping thread"

# A bind-mounted alias of the workspace (made by the host, root only):
# the same directory, the same kept names.
if [ "$(id -u)" = 0 ] && mkdir -p "$T_TMP/alias" && mount --bind "$WS" "$T_TMP/alias" 2>/dev/null; then
    ll_run "$POL" -- /bin/sh -c "mv '$T_TMP/alias/.git' '$T_TMP/alias/g'; rm -rf '$T_TMP/alias/.git';
        echo h >'$T_TMP/alias/.git/hooks/pre-commit'; echo a >'$T_TMP/alias/via-alias'"
    umount "$T_TMP/alias"
    host_unchanged "a bind-mounted alias of the workspace"
else
    echo "# not run: the bind-mounted alias (needs root)"
fi
finish
