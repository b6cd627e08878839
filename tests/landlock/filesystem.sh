#!/usr/bin/env bash
# The landlock backend enforces the filesystem policy without namespaces,
# on a host where none can be made: writes only beneath writable roots and
# never at a denied path, reads everywhere but the read-denied paths --
# attacked from inside by the paths around a denial (renames, links,
# symlinks, truncate by path, paths created later), each checked on the
# host afterwards.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
HOSTDIR="$T_TMP/outside"
mkdir -p "$WS/.git" "$WS/secrets" "$WS/src" "$HOSTDIR"
echo keep >"$HOSTDIR/host-file"
echo token >"$WS/secrets/token"
echo '[core]' >"$WS/.git/config"
echo code >"$WS/src/main.c"
chmod -R a+rwX "$T_TMP"
cd "$WS" || exit 2
POL=$(policy workspace_write false false \
    "\"deniedReadPaths\":[\"$WS/secrets\",\"$HOSTDIR/not-yet\"],\"deniedWritePaths\":[\"$WS/.git\"]")

ll_run "$POL" -- /bin/sh -c 'echo new >src/new.c && cat src/main.c'
expect_rc 0 "a write in the workspace"
expect_out '^code$' "a read in the workspace"
expect_content "$WS/src/new.c" new "the write landed in the host's workspace"

ll_run "$POL" -- /bin/sh -c "echo x >'$HOSTDIR/made'; echo x >>'$HOSTDIR/host-file'; rm -f '$HOSTDIR/host-file'"
expect_absent "$HOSTDIR/made" "a file created outside the writable roots"
expect_content "$HOSTDIR/host-file" keep "a host file outside the roots: neither appended to nor removed"
expect_err 'Permission denied' "writes outside fail with EACCES, not silently"

ll_run "$POL" -- "$PY" -c "import os; os.truncate('$HOSTDIR/host-file', 0)"
[ "$RC" != 0 ] && ok "truncate(2) by path outside the roots fails" || fail "truncate by path ran"
expect_content "$HOSTDIR/host-file" keep "the host file keeps its content"

ll_run "$POL" -- /bin/cat "$WS/secrets/token"
[ "$RC" != 0 ] && ok "a read-denied file cannot be read" || fail "read-denied file read: $OUT"
expect_out_lacks token "its content never shows"
ll_run "$POL" -- /bin/ls "$WS/secrets"
[ "$RC" != 0 ] && ok "a read-denied directory cannot be listed" || fail "read-denied dir listed: $OUT"

# Around the denial: symlink, hard link, rename, a path made later.
ll_run "$POL" -- /bin/sh -c "ln -s '$WS/secrets/token' src/link; cat src/link"
expect_out_lacks token "through a symlink the workload made"
ll_run "$POL" -- /bin/sh -c "ln '$WS/secrets/token' src/hard"
expect_absent "$WS/src/hard" "a hard link of a read-denied file into the workspace"
ll_run "$POL" -- /bin/sh -c "mv secrets src/moved || mv secrets/token src/moved"
[ -f "$WS/secrets/token" ] && ok "the read-denied directory cannot be moved away" || fail "secrets moved"
expect_absent "$WS/src/moved" "nothing moved out of the denial"
ll_run "$POL" -- /bin/sh -c "mv .git dotgit; echo '[core] fsmonitor=evil' >>.git/config; rm -rf .git"
[ -f "$WS/.git/config" ] && [ "$(cat "$WS/.git/config")" = '[core]' ] && ok "a write-denied .git: not moved, changed or removed" ||
    fail ".git changed: $(ls -a "$WS")"
echo later >"$HOSTDIR/not-yet"
chmod a+r "$HOSTDIR/not-yet"
ll_run "$POL" -- /bin/cat "$HOSTDIR/not-yet"
expect_out_lacks later "a read-denied path created on the host after the policy was written"

# Metadata, which Landlock does not mediate: mode, owner, times and
# attributes change beneath a writable root only, by every call that names
# the file (a path, a relative one, a directory descriptor, a descriptor
# of the file opened for reading, a symlink in the workspace).
chmod 640 "$HOSTDIR/host-file"
before=$(stat -c '%a %u %g %Y' "$HOSTDIR/host-file")
cat >"$T_TMP/meta.py" <<'PY'
import ctypes, errno, fcntl, os, sys
host = sys.argv[1]
f = host + "/host-file"
me, grp = os.getuid(), os.getgid()
def attempt(what, fn):
    try:
        fn()
        print("CHANGED", what)
    except OSError as e:
        print("refused", what, errno.errorcode.get(e.errno, e.errno))
attempt("chmod", lambda: os.chmod(f, 0o666))
attempt("chmod relative", lambda: (os.chdir(host), os.chmod("host-file", 0o666)))
os.chdir(os.environ.get("PWD", "/"))
d = os.open(host, os.O_PATH | os.O_DIRECTORY)  # the host dir is on the way to a denial: no listing
attempt("fchmodat dirfd", lambda: os.chmod("host-file", 0o666, dir_fd=d))
r = os.open(f, os.O_RDONLY)
attempt("fchmod of a read-only descriptor", lambda: os.fchmod(r, 0o666))
attempt("fchown", lambda: os.fchown(r, me, grp))
attempt("chown", lambda: os.chown(f, me, grp))
attempt("utime", lambda: os.utime(f, (1, 1)))
attempt("futimens", lambda: os.utime(r, (1, 1)))
attempt("setxattr", lambda: os.setxattr(f, "user.has", b"1"))
attempt("fsetxattr", lambda: os.setxattr(r, "user.has", b"1"))
os.symlink(f, "src/meta-link")
attempt("chmod through a symlink in the workspace", lambda: os.chmod("src/meta-link", 0o666))
attempt("utime through a symlink in the workspace", lambda: os.utime("src/meta-link", (1, 1)))
libc = ctypes.CDLL(None, use_errno=True)
rc = libc.syscall(463, d, b"host-file", 0, b"user.has", None, 0)  # setxattrat
print("setxattrat", "refused ENOSYS" if rc < 0 and ctypes.get_errno() == errno.ENOSYS else "NOT REFUSED")
for nr, name in ((466, "removexattrat"), (467, "open_tree_attr"), (469, "file_setattr"), (999, "a call newer than all")):
    rc = libc.syscall(nr, d, b"host-file", 0, 0, 0)
    print(name, "refused ENOSYS" if rc < 0 and ctypes.get_errno() == errno.ENOSYS else "NOT REFUSED")
flags = ctypes.c_long(0)
rc = libc.ioctl(r, 0x40086602, ctypes.byref(flags))  # FS_IOC_SETFLAGS
print("FS_IOC_SETFLAGS", "refused" if rc < 0 and ctypes.get_errno() == errno.EPERM else "NOT REFUSED")
open("src/mine", "w").close()
os.chmod("src/mine", 0o755); os.utime("src/mine", (7, 7))
if os.environ["LL_USER_XATTRS"] == "1":  # the file system takes user.* attributes (lib-landlock.sh)
    os.setxattr("src/mine", "user.has", b"ok")
    xattr = os.getxattr("src/mine", "user.has")
else:
    xattr = "no user xattrs on this file system"
print("workspace", oct(os.stat("src/mine").st_mode & 0o777), os.stat("src/mine").st_mtime, xattr)
PY
ll_run "$POL" -- "$PY" "$T_TMP/meta.py" "$HOSTDIR"
expect_out "^refused chmod EACCES$" "chmod of a host file: EACCES (the attempts ran)"
expect_out_lacks CHANGED "no metadata call changed the host file"
expect_out_lacks 'NOT REFUSED' "setxattrat and chattr refused"
expect_out "^refused fchmod of a read-only descriptor EACCES" "fchmod of a host file's descriptor: EACCES"
if [ "$LL_USER_XATTRS" = 1 ]; then
    expect_out "^workspace 0o755 7.0 b'ok'$" "in the workspace: chmod, utime, setxattr work"
else
    expect_out "^workspace 0o755 7.0 no user xattrs" "in the workspace: chmod and utime work (this file system takes no user.* attributes)"
fi
after=$(stat -c '%a %u %g %Y' "$HOSTDIR/host-file")
[ "$before" = "$after" ] && ok "the host file's mode, owner and times are unchanged ($after)" ||
    fail "the host file changed: $before -> $after"
getfattr_out=$("$PY" -c "import os,sys; print(os.listxattr(sys.argv[1]))" "$HOSTDIR/host-file" 2>&1)
[ "$getfattr_out" = "[]" ] && ok "no attribute was set on the host file" || fail "host file attributes: $getfattr_out"
rm -f "$WS/src/meta-link" "$WS/src/mine"

# Names that share a prefix with a denied one are siblings, not beneath it.
mkdir -p "$WS/p/b" "$WS/p/b-c" "$WS/p/b.d" "$WS/p/bb"
for d in b b-c b.d bb; do echo "in-$d" >"$WS/p/$d/f"; done
chmod -R a+rwX "$WS/p"
ll_run "$(policy read_only false false "\"deniedReadPaths\":[\"$WS/p/b\",\"$WS/p/b.d/f\"]")" -- \
    /bin/sh -c "cat '$WS/p/b/f' '$WS/p/b-c/f' '$WS/p/b.d/f' '$WS/p/bb/f'"
printf '%s\n' "$OUT" | grep -qxE 'in-b|in-b\.d' && fail "p/b or p/b.d/f was read: $OUT" || ok "p/b and p/b.d/f are denied"
expect_out '^in-b-c$' "p/b-c, a sibling sharing the prefix, is readable"
expect_out '^in-bb$' "p/bb too"

# What the walk refuses up front.
ln -s "$WS/secrets" "$T_TMP/link-to-secrets"
ll_run "$(policy workspace_write false false "\"deniedReadPaths\":[\"$T_TMP/link-to-secrets/token\"]")" -- /bin/true
expect_rc 125 "a denied path through a symlink is refused"
expect_err 'symbolic link' "the refusal names the symlink"
ln "$HOSTDIR/host-file" "$HOSTDIR/second-name"
ll_run "$(policy workspace_write false false "\"deniedReadPaths\":[\"$HOSTDIR/host-file\"]")" -- /bin/true
expect_rc 125 "a denied file with another hard link is refused"
expect_err 'hard links' "the refusal says why"

ln -s "$HOSTDIR/host-file" "$WS/src/link-to-host"
ll_run "$(policy workspace_write false false "\"deniedReadPaths\":[\"$WS/src/link-to-host\"]")" -- /bin/true
expect_rc 125 "a denied path that is itself a symlink is refused (its target would stay readable)"
expect_err 'symbolic link' "the refusal says so"
"$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" openat2 "$NO_USERNS" "$SUPERVISOR" --sandbox landlock \
    --policy "$(policy workspace_write false false "\"deniedReadPaths\":[\"$WS/src/link-to-host\"]")" -- /bin/true \
    >"$T_TMP/out" 2>"$T_TMP/err"
RC=$? ERR=$(cat "$T_TMP/err")
expect_rc 125 "without openat2 (a filter older than it around us): the same refusal, component by component"
rm -f "$WS/src/link-to-host"
ll_run "$(policy workspace_write false false "\"deniedWritePaths\":[\"$WS/src/not-there\"]")" -- /bin/true
expect_rc 125 "a write-denied path that does not exist is refused, as with linux-ns"
expect_err "deniedWritePaths: $WS/src/not-there: does not exist" "the refusal names the field and the path"
mkdir -p "$WS/locked/inner"
chmod -R a+rwX "$WS/locked"
ll_run "$(policy read_only false false "\"allowedWritePaths\":[\"$WS/locked/inner\"],\"deniedWritePaths\":[\"$WS/locked\"]")" -- \
    /bin/sh -c "echo x >'$WS/locked/inner/f'"
expect_absent "$WS/locked/inner/f" "a writable root beneath a write-denied path: the denial wins"

# Kernel interfaces beneath a writable root stay unwritable: a root caller
# could otherwise rewrite core_pattern (written here with its own value).
mkdir -p "$WS/chroot/proc"
if [ "$LL_HOST" = blocked ] && mount -t proc proc "$WS/chroot/proc" 2>/dev/null; then
    cur=$(cat /proc/sys/kernel/core_pattern)
    ll_run "$(policy workspace_write false false)" -- /bin/sh -c \
        "printf '%s\n' '$cur' >'$WS/chroot/proc/sys/kernel/core_pattern' && echo WROTE"
    expect_out_lacks WROTE "a procfs mounted in the workspace: core_pattern not writable"
    cd / && ll_run "$(policy workspace_write false false)" -- /bin/sh -c \
        "printf '%s\n' '$cur' >/proc/sys/kernel/core_pattern && echo WROTE; echo ran"
    cd "$WS" || exit 2
    # No group can be made in a writable root, so a root caller's device
    # nodes have no device program: refused (device-nodes.sh).
    if is_host_root; then
        expect_rc 125 "with / as the workspace, as root: refused"
        expect_err 'could open device nodes outside /dev.*a writable root reaches' \
            "with / as the workspace, as root: the refusal names the device nodes and the writable root"
    else
        expect_out '^ran$' "with / as the workspace: the workload ran"
    fi
    expect_out_lacks WROTE "with / as the workspace: /proc/sys not writable"
    [ "$(cat /proc/sys/kernel/core_pattern)" = "$cur" ] && ok "core_pattern unchanged on the host" || fail "core_pattern changed"
    umount "$WS/chroot/proc"
    # A writable root inside a kernel interface (no mount at or beneath it,
    # but every file beneath it the kernel's): opened for writing, not
    # written.
    for root in /proc/sys/kernel /sys/kernel/mm /dev/pts; do
        ll_run "$(policy read_only false false "\"allowedWritePaths\":[\"$root\"]")" -- "$PY" -c '
import os
for p in ("/proc/sys/kernel/core_pattern", "/sys/kernel/mm/transparent_hugepage/enabled", "/dev/pts/ptmx"):
    try:
        os.close(os.open(p, os.O_WRONLY))
        print("OPENED", p)
    except OSError:
        pass
print("ran")'
        expect_out '^ran$' "allowedWritePaths $root: the workload ran"
        expect_out_lacks OPENED "allowedWritePaths $root, inside a kernel interface: not writable"
    done
    [ "$(cat /proc/sys/kernel/core_pattern)" = "$cur" ] && ok "core_pattern unchanged on the host" || fail "core_pattern changed"
fi

# Devices a program writes to; read_only mode writes nowhere else.
ll_run "$(policy read_only false false)" -- /bin/sh -c 'echo x >/dev/null && echo devnull-ok; (echo y >./ro) 2>/dev/null; echo ws=$?'
expect_out '^devnull-ok$' "/dev/null takes writes"
expect_out '^ws=[1-9]' "read_only: the workspace is not writable"
expect_absent "$WS/ro" "read_only: nothing written"
# scratch is linux-ns's: refused, naming the backend that makes one.
ll_run "$(policy workspace_write false false '"scratch":{}')" -- /bin/true
expect_rc 125 "scratch under landlock: refused"
expect_err 'the chosen sandbox .landlock. does not enforce "scratch".*--sandbox linux-ns, which does' \
    "scratch under landlock: the refusal names the chosen backend and the one that makes it"
finish
