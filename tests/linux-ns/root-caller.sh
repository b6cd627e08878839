#!/bin/bash
# root-caller.sh — a root caller is an ordinary caller: the workload's uid 0
# (the host's, when root runs the supervisor) changes nothing of the host
# beyond the writable roots.  Kernel interfaces (procfs, sysfs, cgroupfs,
# also mounted inside a writable root, also with "/" granted) stay
# read-only; no file in a writable root can be made setuid, setgid or given
# a file capability.  Runs as root and unprivileged; the host is checked
# after every attack.  Sysctls are only opened for writing, never written.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(make_workspace)
cd "$ws" || exit 1
P=$(policy workspace_write false false)

# Open every kernel-interface file under the given roots for writing (no
# byte is written) and print each one that opened (a /dev/null mask is not
# one: it reaches nothing).
open_all='import os, stat, sys
n = 0
for root in sys.argv[1:]:
    for d, dirs, files in os.walk(root):
        if d == "/proc":
            dirs[:] = [x for x in dirs if not x.isdigit() and x not in ("self", "thread-self")]
        for f in files:
            p = os.path.join(d, f)
            try:
                fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            except OSError:
                continue
            st = os.fstat(fd)
            os.close(fd)
            if not (stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)):
                print("WRITABLE", p); n += 1
print("opened for writing:", n)'
ROOTS=(/proc /sys/kernel /sys/module /sys/power /sys/class/net/lo/ /sys/fs)
core=$(cat /proc/sys/kernel/core_pattern)
if is_root; then
    "$PY" -c "$open_all" /proc/sys/kernel >"$T_TMP/ctl"
    OUT=$(cat "$T_TMP/ctl")
    expect_out WRITABLE "control: root on the host can open sysctls for writing"
fi
for egress in false true; do
    run_sup "$(policy workspace_write $egress false)" -- "$PY" -c "$open_all" "${ROOTS[@]}"
    expect_out '^opened for writing: 0$' "egress $egress: no procfs or sysfs file opens for writing ($(printf '%s' "$OUT" | head -3 | tr '\n' ' '))"
done
# Only the current value is ever written: against a broken sandbox this
# test must show the hole, not open it.
run_sup "$P" -- sh -c "printf '%s\n' '$core' > /proc/sys/kernel/core_pattern"
expect_err 'Read-only file system' "core_pattern write (of its current value) refused with EROFS"
expect_content /proc/sys/kernel/core_pattern "$core" "host: core_pattern unchanged"
if [ -e /proc/sysrq-trigger ]; then
    run_sup "$P" -- "$PY" -c 'import os; os.open("/proc/sysrq-trigger", os.O_WRONLY); print("OPENED")'
    expect_out_lacks OPENED "/proc/sysrq-trigger cannot be opened for writing"
else
    echo "# this kernel has no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ off): not checked"
fi
# Every global procfs file with a write bit (mtrr, sysrq-trigger, ...)
# refuses a write open with EROFS: none may be masked by /dev/null, where
# the write would succeed silently.
writable_bits=$(find /proc -maxdepth 1 -type f -perm /0222 -printf '%p\n')
if [ -n "$writable_bits" ]; then
    run_sup "$P" -- "$PY" -c '
import errno, os, sys
for p in sys.argv[1:]:
    try:
        os.close(os.open(p, os.O_WRONLY)); print("OPENED", p)
    except OSError as e:
        print("EROFS" if e.errno == errno.EROFS else "OTHER", p, e.strerror)' $writable_bits
    expect_out_lacks '^(OPENED|OTHER)' "procfs files with a write bit refuse writing with EROFS ($(echo $writable_bits))"
fi
run_sup "$P" -- sh -c 'wc -c < /proc/timer_list; wc -c < /proc/slabinfo'
expect_out_lacks '^[1-9]' "root-only /proc files (timer_list, slabinfo) show nothing"
# Every global procfs file only its owner may read (and none write) reads
# nothing inside: masked by /dev/null for a root caller; for any other
# caller not masked at all (uid 0 is not mapped, the workload has no
# capability), so the kernel's permission check must refuse it.
owner_only=$(find /proc -maxdepth 1 -type f ! -perm /0266 -printf '%p\n')
if [ -n "$owner_only" ]; then
    run_sup "$P" -- "$PY" -c '
import errno, os, stat, sys
for p in sys.argv[1:]:
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        print("REFUSED" if e.errno == errno.EACCES else "OTHER", p, e.strerror); continue
    st = os.fstat(fd)
    null = stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    try:
        data = b"" if null else os.read(fd, 1)
    except OSError:
        data = b""
    os.close(fd)
    print("MASKED" if null else "READ" if data else "OPENED", p)' $owner_only
    expect_out_lacks '^(READ|OPENED|OTHER) ' "owner-only /proc files ($(echo $owner_only | wc -w)) read nothing"
    if is_root; then
        expect_out_lacks '^REFUSED ' "root caller: each is masked by /dev/null"
    else
        expect_out_lacks '^MASKED ' "unprivileged caller: none is masked, the kernel refuses each (EACCES)"
    fi
fi

# The private procfs is read-only as a whole: per-process files too, by
# every name that reaches them (self, the pid, a thread, PID 1), and no
# remount or new procfs makes it writable.  Reopening a descriptor through
# /proc/self/fd still lands on the file's own mount and works.
run_sup "$P" -- "$PY" -c '
import ctypes, os
for p in ("/proc/self/oom_score_adj", "/proc/%d/oom_score_adj" % os.getpid(),
          "/proc/thread-self/comm", "/proc/self/mem", "/proc/1/oom_score_adj", "/proc/self/coredump_filter"):
    try:
        os.close(os.open(p, os.O_WRONLY)); print("WRITABLE", p)
    except OSError as e:
        print("refused", p, e.strerror)
libc = ctypes.CDLL(None, use_errno=True)
MS_REMOUNT = 32
print("remount", "done" if libc.mount(b"proc", b"/proc", b"proc", MS_REMOUNT, None) == 0 else "refused")
print("new procfs", "done" if libc.mount(b"proc", b"/tmp", b"proc", 0, None) == 0 else "refused")'
expect_out '^refused /proc/self/oom_score_adj Read-only file system$' "/proc/self/oom_score_adj is read-only"
expect_out_lacks 'WRITABLE|done' "no per-process procfs file opens for writing, and no remount or new procfs ($(printf '%s' "$OUT" | grep -E 'WRITABLE|done' | head -2 | tr '\n' ' '))"
run_sup "$P" -- sh -c 'exec 3>fd-reopen; echo through-proc >/proc/self/fd/3; cat fd-reopen; echo to-stdout >>/dev/stdout'
expect_out '^through-proc$' "a workspace file reopened through /proc/self/fd is written"
expect_out '^to-stdout$' "/dev/stdout (through /proc/self/fd/1) is written"

# --- setuid, setgid, file capabilities -------------------------------------
cat >"$T_TMP/setid.py" <<'PY'
import ctypes, os, stat, sys, tarfile
libc = ctypes.CDLL(None, use_errno=True)
def attempt(name, fn):
    try:
        fn(); print(name, "done")
    except OSError as e:
        print(name, "refused:", e.strerror)
open("f", "w").close()
attempt("chmod 4755", lambda: os.chmod("f", 0o4755))
attempt("chmod 2755", lambda: os.chmod("f", 0o2755))
attempt("fchmod", lambda: os.fchmod(os.open("f", os.O_RDONLY), 0o6755))
attempt("fchmodat", lambda: os.chmod("f", 0o4755, dir_fd=os.open(".", os.O_RDONLY)))
attempt("open O_CREAT 4755", lambda: os.open("c", os.O_CREAT | os.O_WRONLY, 0o4755))
attempt("mknod S_IFREG 4755", lambda: os.mknod("n", stat.S_IFREG | 0o4755))
def tmpfile():
    fd = os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o4755)
    os.link("/proc/self/fd/%d" % fd, "t")
attempt("O_TMPFILE 4755", tmpfile)
def openat2():
    how = (ctypes.c_uint64 * 3)(os.O_CREAT | os.O_WRONLY, 0o4755, 0)
    if libc.syscall(437, -100, b"o2", ctypes.byref(how), 24) < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
attempt("openat2 4755", openat2)
def tar():
    tarfile.open(sys.argv[1]).extractall("x")  # a failed chmod is only a warning to tarfile
    if os.stat("x/suid").st_mode & 0o6000:
        return
    raise OSError(1, "extracted without its setuid bit")
attempt("tar -xp of a setuid member", tar)
cap = bytes.fromhex("0100000200200000000000000000000000000000")  # v2, cap_net_raw
attempt("security.capability", lambda: os.setxattr("f", "security.capability", cap))
PY
"$PY" -c 'import io, tarfile, sys
t = tarfile.open(sys.argv[1], "w"); i = tarfile.TarInfo("suid"); i.mode = 0o4755; i.size = 2
t.addfile(i, io.BytesIO(b"#!")); t.close()' "$T_TMP/suid.tar"
for mode in workspace_write auto; do
    rm -rf "${ws:?}"/* 2>/dev/null
    run_sup "$(policy $mode false false)" -- "$PY" "$T_TMP/setid.py" "$T_TMP/suid.tar"
    expect_out_lacks ' done$' "$mode: no way to a setuid/setgid file or a file capability succeeds ($(printf '%s' "$OUT" | grep ' done$' | tr '\n' ' '))"
    expect_out '^security.capability refused' "$mode: the file-capability attempt ran"
    if [ -z "$(find "$ws" -perm /6000)" ]; then ok "host: no setuid/setgid file in the workspace"
    else fail "host: setuid/setgid files left: $(find "$ws" -perm /6000 | tr '\n' ' ')"; fi
    if "$PY" -c 'import os, sys; os.getxattr(sys.argv[1], "security.capability")' "$ws/f" 2>/dev/null; then
        fail "host: $ws/f carries a file capability"
    else
        ok "host: no file capability on the workspace file"
    fi
done
if [ -u /usr/bin/passwd ]; then
    rm -rf "${ws:?}"/*
    run_sup "$P" -- cp -p /usr/bin/passwd ./pw
    if [ -e "$ws/pw" ] && [ ! -u "$ws/pw" ]; then ok "cp -p of a setuid binary leaves no setuid copy"
    else fail "cp -p of /usr/bin/passwd: $(ls -l "$ws/pw" 2>&1)"; fi
fi
run_sup "$P" -- sh -c 'mkdir -m 750 d && touch d/x && chmod 600 d/x && chmod 755 d && echo chmod-ok; chmod g+s d || echo sgid-dir-refused'
expect_out '^chmod-ok$' "ordinary modes are still set (mkdir -m, chmod)"
expect_out '^sgid-dir-refused$' "a setgid directory is refused too (the filter cannot tell a directory; documented)"

# --- kernel filesystems inside a writable root, and "/" granted (root) ----
if is_root; then
    mkdir -p "$ws/chroot/proc" "$ws/chroot/sys"
    mount -t proc proc "$ws/chroot/proc" && mount -t sysfs sysfs "$ws/chroot/sys"
    trap 'umount "$ws/chroot/proc" "$ws/chroot/sys" 2>/dev/null; ns_cleanup' EXIT
    run_sup "$P" -- "$PY" -c "$open_all" "$ws/chroot/proc/sys" "$ws/chroot/sys/kernel"
    expect_out '^opened for writing: 0$' "a procfs and a sysfs mounted in the workspace are read-only inside"
    run_sup "$P" -- sh -c "printf '%s\n' '$core' > $ws/chroot/proc/sys/kernel/core_pattern"
    expect_err 'Read-only file system' "core_pattern (current value) through the workspace's procfs refused"
    umount "$ws/chroot/proc" "$ws/chroot/sys"
    # A writable root that is itself a kernel filesystem, with nothing
    # mounted beneath it: the check that skips the mount table when no
    # writable root can hold one must still see it.
    kfs=$(mktemp -d /var/tmp/has-kfs.XXXXXX)
    mount -t sysfs sysfs "$kfs"
    trap 'umount "$kfs" 2>/dev/null; rmdir "$kfs" 2>/dev/null; ns_cleanup' EXIT
    run_sup "$(policy workspace_write false false "\"allowedWritePaths\":[\"$kfs\"]")" -- \
        "$PY" -c "$open_all" "$kfs/kernel"
    expect_out '^opened for writing: 0$' "a sysfs granted as a writable root (no submount) is read-only inside"
    umount "$kfs" && rmdir "$kfs"
    # The same procfs in a build root that another process keeps renaming
    # (anyone who can write in the writable root: another sandbox on it)
    # while the sandbox is built: the init must reach that very mount to
    # make it read-only, or refuse; never leave it writable for the
    # workload to find once the name is back.
    race=$(mktemp -d /var/tmp/has-race.XXXXXX)
    mkdir -p "$race/root/proc" && mount -t proc proc "$race/root/proc"
    "$PY" -c 'import os, sys, time
os.chdir(sys.argv[1]); end = time.time() + 60
while time.time() < end:
    try: os.rename("root", "moved"); os.rename("moved", "root")
    except OSError: pass' "$race" &
    flipper=$!
    trap 'kill $flipper 2>/dev/null; umount "$race"/*/proc 2>/dev/null; rm -rf "$race"; ns_cleanup' EXIT
    rl=/proc/sys/kernel/printk_ratelimit wrote='' refused=0 n=$(launches 60 20)
    for _ in $(seq "$n"); do
        run_sup "$(policy workspace_write false false "\"allowedWritePaths\":[\"$race\"]")" -- sh -c \
            "for d in root moved; do v=\$(cat $race/\$d$rl 2>/dev/null) && (echo \$v > $race/\$d$rl) 2>/dev/null && echo wrote \$d; done; true"
        case $RC in
            0) [ -n "$OUT" ] && wrote="$OUT" ;;
            125) grep -q 'cannot be reached by its path to make it read-only' "$T_TMP/err" && refused=$((refused + 1)) ||
                     wrote="an unexpected refusal: $ERR" ;;
            *) wrote="exit $RC: $ERR" ;;
        esac
        [ -n "$wrote" ] && break
    done
    kill "$flipper" 2>/dev/null; wait "$flipper" 2>/dev/null
    [ -z "$wrote" ] && ok "a procfs renamed back and forth while $n sandboxes were built: never writable ($refused refused)" ||
        fail "a renamed procfs in a writable root: $wrote"
    umount "$race"/*/proc && rm -rf "$race"
    # Host device nodes: the private /dev's own are the host's inodes (and
    # the /proc masks are clones of its /dev/null), and a chroot in the
    # workspace may hold the host's /dev and /dev/pts.  The workload, the
    # host's uid 0, owns them all: no grant may let it change one, and
    # none but the private /dev's may be opened.
    devbind="$ws/chroot-dev" ptsbind="$ws/chroot-pts"
    mkdir -p "$devbind" "$ptsbind"
    mount --bind /dev "$devbind" && mount --bind /dev/pts "$ptsbind"
    before=$(stat -c '%a %Y' /dev/full /dev/null /dev/pts/ptmx | tr '\n' ' ')
    full_mode=$(stat -c %a /dev/full) null_time=$(stat -c %Y /dev/null) ptmx_mode=$(stat -c %a /dev/pts/ptmx)
    trap 'chmod "$full_mode" /dev/full; chmod "$ptmx_mode" /dev/pts/ptmx; touch -m -d "@$null_time" /dev/null
          rm -f /dev/has-probe; umount "$devbind" "$ptsbind" 2>/dev/null; ns_cleanup' EXIT
    nodes=$(cd /dev && for d in kvm fuse cpu_dma_latency loop-control userfaultfd btrfs-control vga_arbiter; do
        [ -c "$d" ] && printf '%s ' "$d"; done)
    for grant in '' '"/dev"' '"/dev/null"' '"/proc"' '"/proc/timer_list"' '"/"'; do
        cd "$([ "$grant" = '"/"' ] && echo / || echo "$ws")" || exit 1
        run_sup "$(policy workspace_write false false "\"allowedWritePaths\":[$grant]")" -- sh -c "
            for d in $nodes; do (exec 3<>$devbind/\$d) 2>/dev/null && echo opened \$d; done
            chmod 600 /dev/full 2>/dev/null && echo chmod; touch /dev/null 2>/dev/null && echo touch
            [ -c /proc/timer_list ] && chmod 600 /proc/timer_list 2>/dev/null && echo mask-chmod
            chmod 600 $devbind/full 2>/dev/null && echo bound-chmod; (: > $devbind/has-probe) 2>/dev/null && echo created
            chmod 666 $ptsbind/ptmx 2>/dev/null && echo pts-chmod
            echo x > /dev/null && head -c1 /dev/zero | wc -c"
        expect_out '^1$' "grant [${grant:-none}]: /dev/null and /dev/zero still work"
        grep -Eq 'opened|chmod|touch|created' "$T_TMP/out" && fail "grant [${grant:-none}]: $(tr '\n' ' ' < "$T_TMP/out")" ||
            ok "grant [${grant:-none}]: no host device opened (${nodes:-none here}) or changed (/dev's nodes, the /proc masks, a bound /dev and /dev/pts)"
    done
    cd "$ws" || exit 1
    after=$(stat -c '%a %Y' /dev/full /dev/null /dev/pts/ptmx | tr '\n' ' ')
    [ "$after" = "$before" ] && [ ! -e /dev/has-probe ] && ok "host: /dev/full, /dev/null and /dev/pts/ptmx unchanged" ||
        fail "host: /dev changed: $before -> $after $(ls /dev/has-probe 2>/dev/null)"
    umount "$devbind" "$ptsbind" && rmdir "$devbind" "$ptsbind"
    cd / || exit 1
    run_sup "$(policy workspace_write true false)" -- "$PY" -c "$open_all" /proc/sys /sys/kernel /sys/fs
    expect_out '^opened for writing: 0$' "with / granted (cwd /), procfs, sysfs and cgroupfs stay read-only"
    cd "$ws" || exit 1
fi
expect_content /proc/sys/kernel/core_pattern "$core" "host: core_pattern unchanged at the end"
ns_finish_both_mount_paths
