# tests/landlock/atk.py — attacks attacks.sh runs inside the landlock
# sandbox.  Usage: atk.py ATTACK [ARG...]
#
# Each attack prints one line per attempt: "refused: WHAT: why" when the
# boundary held, "SUCCEEDED: WHAT" when it did not (attacks.sh fails on any
# SUCCEEDED line, and on a missing "refused" line: an attack that did not
# run proves nothing).  With LL_SIGNAL_SCOPE=0 (lib-landlock.sh: Landlock
# ABI below 6, where the backend's README says an ordinary user's workload
# can signal the user's other processes) the signals are not sent: each
# prints "not attempted: WHAT" instead.
import ctypes
import errno
import os
import signal
import socket
import struct
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def refused(what, e):
    print("refused: %s: %s" % (what, e))


def succeeded(what):
    print("SUCCEEDED: %s" % what)


def attempt(what, fn):
    try:
        fn()
    except OSError as e:
        refused(what, e.strerror)
        return
    succeeded(what)


def may_signal(what):
    """Whether to send the signal of attempt WHAT (only with the signal scope)."""
    if os.environ.get("LL_SIGNAL_SCOPE", "1") == "0":
        print("not attempted: %s: no signal scope below Landlock ABI 6" % what)
        return False
    return True


def raw(nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return r, ctypes.get_errno()


def a_procs():
    """The broker's and the supervisor's /proc entries: they are outside
    the workload's Landlock domain, same uid."""
    broker = os.getppid()
    stat = open("/proc/%d/stat" % broker).read()
    supervisor = int(stat[stat.rindex(")") + 2:].split()[1])
    print("broker %d supervisor %d" % (broker, supervisor))
    for who, pid in (("broker", broker), ("supervisor", supervisor)):
        for leaf in ("root/etc/hostname", "cwd/.", "environ", "mem", "fd/0", "fd/1", "fd/2", "fd/3", "fd/4"):
            attempt("%s /proc/%s/%s" % (who, pid, leaf), lambda: os.close(os.open("/proc/%s/%s" % (pid, leaf), os.O_RDONLY)))
        try:  # the numbers alone (a root caller's /proc/PID/fd is its own): what they are must not show
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            fds = [str(n) for n in range(8)]
        for n in fds:
            attempt("%s readlink /proc/%s/fd/%s" % (who, pid, n), lambda: os.readlink("/proc/%s/fd/%s" % (pid, n)))
        attempt("%s readlink /proc/%s/cwd" % (who, pid), lambda: os.readlink("/proc/%s/cwd" % pid))
        # ptrace(PTRACE_ATTACH), then PTRACE_SEIZE.
        for req in (16, 0x4206):
            r, e = raw(101, req, int(pid), 0, 0)
            if r == 0:
                succeeded("%s ptrace %#x" % (who, req))
                raw(101, 17, int(pid), 0, 0)
            else:
                refused("%s ptrace %#x" % (who, req), os.strerror(e))
        # process_vm_readv of a byte of its stack area: needs ptrace access.
        buf = ctypes.create_string_buffer(8)
        local = (ctypes.c_void_p * 2)(ctypes.cast(buf, ctypes.c_void_p), 8)
        remote = (ctypes.c_void_p * 2)(0x400000, 8)
        r, e = raw(310, int(pid), ctypes.addressof(local), 1, ctypes.addressof(remote), 1, 0)
        if r > 0:
            succeeded("%s process_vm_readv" % who)
        else:
            refused("%s process_vm_readv" % who, os.strerror(e))
        # pidfd_getfd: another process's descriptors.
        pfd, e = raw(434, int(pid), 0)
        if pfd >= 0:
            fd, e = raw(438, pfd, 2, 0)
            if fd >= 0:
                succeeded("%s pidfd_getfd" % who)
            else:
                refused("%s pidfd_getfd" % who, os.strerror(e))
            if may_signal("%s pidfd_send_signal SIGKILL" % who):
                r, e = raw(424, pfd, signal.SIGKILL, 0, 0)
                (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("%s pidfd_send_signal SIGKILL" % who)
            os.close(pfd)
        else:
            refused("%s pidfd_open" % who, os.strerror(e))
        for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):
            if may_signal("%s kill %s" % (who, sig.name)):
                attempt("%s kill %s" % (who, sig.name), lambda: os.kill(int(pid), sig))


def a_reopen(secret, hostfile):
    """O_PATH descriptors and the magic links of /proc/self."""
    fd = os.open(secret, os.O_PATH)
    attempt("read the denied file through /proc/self/fd of an O_PATH fd",
            lambda: os.read(os.open("/proc/self/fd/%d" % fd, os.O_RDONLY), 100))
    attempt("read it through /proc/self/root", lambda: os.read(os.open("/proc/self/root" + secret, os.O_RDONLY), 100))
    attempt("read it through /proc/thread-self/root",
            lambda: os.read(os.open("/proc/thread-self/root" + secret, os.O_RDONLY), 100))
    hfd = os.open(hostfile, os.O_PATH)
    attempt("write a host file through /proc/self/fd of an O_PATH fd",
            lambda: os.write(os.open("/proc/self/fd/%d" % hfd, os.O_WRONLY | os.O_APPEND), b"pwned\n"))
    rfd = os.open(hostfile, os.O_RDONLY)
    attempt("reopen a read-only host fd for writing",
            lambda: os.write(os.open("/proc/self/fd/%d" % rfd, os.O_RDWR | os.O_APPEND), b"pwned\n"))
    attempt("ftruncate a read-only host fd", lambda: os.ftruncate(rfd, 0))
    attempt("fallocate a read-only host fd", lambda: os.posix_fallocate(rfd, 0, 4096))
    # name_to_handle_at / open_by_handle_at (no CAP_DAC_READ_SEARCH, and seccomp).
    r, e = raw(303, -100, ctypes.c_char_p(secret.encode()), ctypes.addressof(ctypes.create_string_buffer(136)),
               ctypes.addressof(ctypes.c_int()), 0)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("name_to_handle_at")
    r, e = raw(304, -100, ctypes.addressof(ctypes.create_string_buffer(136)), 0)
    (succeeded if r >= 0 else lambda w: refused(w, os.strerror(e)))("open_by_handle_at")


def a_links(hostfile, hostdir):
    """Names in the workspace for host files, and host names for workspace files."""
    attempt("hard link of a host file into the workspace", lambda: os.link(hostfile, "src/hl"))
    fd = os.open(hostfile, os.O_RDONLY)
    attempt("linkat(AT_EMPTY_PATH) of a host file's fd into the workspace",
            lambda: os.link("/proc/self/fd/%d" % fd, "src/hl2", follow_symlinks=True))
    r, e = raw(265, fd, ctypes.c_char_p(b""), -100, ctypes.c_char_p(b"src/hl3"), 0x1000)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("linkat AT_EMPTY_PATH")
    open("src/mine", "w").write("mine\n")
    # renameat2(RENAME_EXCHANGE): swap a workspace file with the host file.
    r, e = raw(316, -100, ctypes.c_char_p(b"src/mine"), -100, ctypes.c_char_p(hostfile.encode()), 2)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("RENAME_EXCHANGE with a host file")
    attempt("rename a workspace file over the host file", lambda: os.rename("src/mine", hostfile))
    attempt("hard link of a workspace file into a host directory",
            lambda: os.link("src/mine", os.path.join(hostdir, "planted")))
    # O_TMPFILE in a host directory, then a name for it.
    attempt("O_TMPFILE in a host directory", lambda: os.open(hostdir, os.O_TMPFILE | os.O_WRONLY, 0o600))
    attempt("mkfifo in a host directory", lambda: os.mkfifo(os.path.join(hostdir, "fifo")))
    attempt("symlink in a host directory", lambda: os.symlink("/", os.path.join(hostdir, "sym")))
    attempt("bind a Unix socket in a host directory",
            lambda: socket.socket(socket.AF_UNIX).bind(os.path.join(hostdir, "sock")))


def a_metadata(hostfile):
    """Metadata of a host file outside the writable roots, which Landlock
    (ABI <= 7) does not mediate: the broker refuses what is not beneath a
    writable root, zero capabilities and the seccomp filter the rest."""
    import fcntl
    attempt("chmod 0666", lambda: os.chmod(hostfile, 0o666))
    attempt("utime to 1990", lambda: os.utime(hostfile, (631152000, 631152000)))
    attempt("set a user.* xattr", lambda: os.setxattr(hostfile, "user.evil", b"1"))
    attempt("set an ACL (system.posix_acl_access)", lambda: os.setxattr(
        hostfile, "system.posix_acl_access", struct.pack("<IHHIHHIHHIHHI", 2, 1, 6, 0xffffffff, 4, 4,
                                                         0xffffffff, 16, 6, 0xffffffff, 32, 6, 0xffffffff)[:40]))
    attempt("chown to another user", lambda: os.chown(hostfile, 65534, -1))
    attempt("chgrp to a group not ours", lambda: os.chown(hostfile, -1, 65534))
    attempt("chmod u+s", lambda: os.chmod(hostfile, 0o4755))
    attempt("chmod g+s", lambda: os.chmod(hostfile, 0o2755))
    attempt("set a security.* xattr", lambda: os.setxattr(hostfile, "security.evil", b"1"))
    attempt("set a trusted.* xattr", lambda: os.setxattr(hostfile, "trusted.evil", b"1"))
    attempt("set file capabilities", lambda: os.setxattr(hostfile, "security.capability",
                                                         struct.pack("<IIIII", 0x02000000, 1 << 21, 0, 0, 0)))
    fd = os.open(hostfile, os.O_RDONLY)
    attempt("chattr +i (FS_IOC_SETFLAGS)", lambda: fcntl.ioctl(fd, 0x40086602, struct.pack("l", 0x10)))
    attempt("chattr +a (FS_IOC_SETFLAGS)", lambda: fcntl.ioctl(fd, 0x40086602, struct.pack("l", 0x20)))
    attempt("chattr +A (FS_IOC_SETFLAGS, no capability needed)", lambda: fcntl.ioctl(fd, 0x40086602, struct.pack("l", 0x80)))
    attempt("a read lease (F_SETLEASE): the host's next writer waits", lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK))
    # Ownership and any descriptor are enough for these: a read-only one.
    attempt("FS_IOC_SETVERSION (the inode generation)", lambda: fcntl.ioctl(fd, 0x40087602, struct.pack("l", 7)))
    attempt("FS_IOC32_SETVERSION", lambda: fcntl.ioctl(fd, 0x40047602, struct.pack("i", 7)))
    attempt("EXT4_IOC_SETVERSION", lambda: fcntl.ioctl(fd, 0x40086604, struct.pack("l", 7)))
    attempt("EXT4_IOC32_SETVERSION", lambda: fcntl.ioctl(fd, 0x40046604, struct.pack("i", 7)))
    attempt("FS_IOC_ENABLE_VERITY (read-only for good)",
            lambda: fcntl.ioctl(fd, 0x40806685, struct.pack("<IIIIQIIQ", 1, 1, 12, 0, 0, 0, 0, 0) + bytes(88)))
    dfd = os.open(os.path.dirname(hostfile), os.O_RDONLY)
    attempt("FS_IOC_SET_ENCRYPTION_POLICY on the host directory",
            lambda: fcntl.ioctl(dfd, 0x800c6613, b"\0\1\4\0" + b"A" * 8))
    # btrfs (an ext4 host answers ENOTTY): a subvolume in the host directory.
    attempt("BTRFS_IOC_SUBVOL_CREATE in the host directory",
            lambda: fcntl.ioctl(dfd, 0x5000940e, bytearray(struct.pack("q", -1) + b"planted".ljust(4088, b"\0"))))
    attempt("BTRFS_IOC_SUBVOL_SETFLAGS read-only", lambda: fcntl.ioctl(dfd, 0x4008941a, struct.pack("Q", 1)))


def a_meta_broker(hostfile, *denied):
    """The broker's chmod/chown/utimes/xattr: every other way to name a host
    file (descriptors, dirfds, /proc, the broker's own /proc entries, ..),
    hostile arguments, and a path swapped under it by another thread; and
    the denied files of the workspace, by symlink, descriptor and from a
    working directory beside them."""
    import mmap
    import threading
    import time
    hostdir = os.path.dirname(hostfile)
    B = lambda s: ctypes.c_char_p(s.encode())
    def call(what, nr, *args):
        r, e = raw(nr, *args)
        (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))(what)
    hfd = os.open(hostfile, os.O_RDONLY)
    pfd = os.open(hostfile, os.O_PATH)
    dfd = os.open(hostdir, os.O_PATH | os.O_DIRECTORY)
    AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW, AT_FDCWD = 0x1000, 0x100, -100
    for what, fd in (("a read-only host fd", hfd), ("an O_PATH host fd", pfd),
                     ("a host fd with high bits", (1 << 32) | hfd)):
        call("fchmod " + what, 91, fd, 0o666)
        call("fchown -1 -1 " + what, 93, fd, -1, -1)
        call("utimensat(fd, NULL) " + what, 280, fd, 0, 0, 0)
        call("utimensat AT_EMPTY_PATH " + what, 280, fd, B(""), 0, AT_EMPTY_PATH)
        call("futimesat(fd, NULL) " + what, 261, fd, 0, 0)
        call("fchmodat2 AT_EMPTY_PATH " + what, 452, fd, B(""), 0o666, AT_EMPTY_PATH)
        call("fchownat AT_EMPTY_PATH " + what, 260, fd, B(""), -1, -1, AT_EMPTY_PATH)
        call("fsetxattr " + what, 190, fd, B("user.evil"), B("1"), 1, 0)
        call("fremovexattr " + what, 199, fd, B("user.evil"))
    name = os.path.basename(hostfile)
    for what, dirfd, path in (("a host dirfd", dfd, name), ("a host dirfd and ..", dfd, "../" + os.path.basename(hostdir) + "/" + name),
                              ("a relative .. path", AT_FDCWD, "src/../" + os.path.relpath(hostfile)),
                              ("/proc/self/fd (the broker's)", AT_FDCWD, "/proc/self/fd/%d" % hfd),
                              ("/proc/PID/fd", AT_FDCWD, "/proc/%d/fd/%d" % (os.getpid(), hfd)),
                              ("/proc/self/root", AT_FDCWD, "/proc/self/root" + hostfile),
                              ("/proc/thread-self/root", AT_FDCWD, "/proc/thread-self/root" + hostfile),
                              ("the broker's /proc/PID/root", AT_FDCWD, "/proc/%d/root%s" % (os.getppid(), hostfile)),
                              ("the broker's /proc/PID/cwd", AT_FDCWD, "/proc/%d/cwd/%s" % (os.getppid(), os.path.relpath(hostfile)))):
        call("fchmodat through " + what, 268, dirfd, B(path), 0o666)
        call("fchownat -1 -1 through " + what, 260, dirfd, B(path), -1, -1, 0)
        call("utimensat through " + what, 280, dirfd, B(path), 0, 0)
        call("futimesat through " + what, 261, dirfd, B(path), 0)
    for f in ("src/lnk", "src/rf", "src/rf.real", "src/rd", "src/rd.real"):
        if os.path.islink(f) or os.path.isfile(f):
            os.unlink(f)
    os.symlink(hostfile, "src/lnk")
    call("utimensat AT_SYMLINK_NOFOLLOW on a symlink to it", 280, AT_FDCWD, B("src/lnk"), 0, AT_SYMLINK_NOFOLLOW)
    call("fchmodat2 AT_SYMLINK_NOFOLLOW on a symlink to it", 452, AT_FDCWD, B("src/lnk"), 0o666, AT_SYMLINK_NOFOLLOW)
    call("lsetxattr on a symlink to it", 189, B("src/lnk"), B("user.evil"), B("1"), 1, 0)
    call("setxattr through a symlink to it", 188, B("src/lnk"), B("user.evil"), B("1"), 1, 0)
    call("chown -1 -1 through a symlink to it", 92, B("src/lnk"), -1, -1)
    # A set-id mode on a file of the workspace (a root caller's: setuid
    # root), by every mode call, with high bits in the mode too.
    import shutil
    shutil.copy("/bin/true", "src/suid")
    sfd = os.open("src/suid", os.O_RDONLY)
    for mode in (0o4755, 0o2755, 0o6755, (1 << 32) | 0o4755):
        call("chmod %#o of a workspace file" % mode, 90, B("src/suid"), mode)
        call("fchmod %#o" % mode, 91, sfd, mode)
        call("fchmodat %#o" % mode, 268, AT_FDCWD, B("src/suid"), mode)
        call("fchmodat2 %#o" % mode, 452, AT_FDCWD, B("src/suid"), mode, 0)
    # File capabilities and trusted.* on a file of the workspace: the broker
    # holds no capability (CAP_SETFCAP, CAP_SYS_ADMIN) to make them.
    for name, value in (("security.capability", struct.pack("<IIIII", 0x02000000, 1 << 21, 0, 0, 0)),
                        ("trusted.evil", b"1")):
        attempt("setxattr %s on a workspace file" % name, lambda: os.setxattr("src/suid", name, value))
    if os.stat("src/suid").st_mode & 0o6000:
        succeeded("the workspace file has a set-id bit: %#o" % os.stat("src/suid").st_mode)
    for i, d in enumerate(denied):
        link = "src/to-denied-%d" % i
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(d, link)
        attempt("chmod of %s through a symlink in the workspace" % d, lambda: os.chmod(link, 0o666))
        attempt("utime of %s through a symlink" % d, lambda: os.utime(link, (1, 1)))
        fd = os.open(d, os.O_PATH)
        call("fchmodat2 AT_EMPTY_PATH on an O_PATH fd of " + d, 452, fd, B(""), 0o666, AT_EMPTY_PATH)
        call("fchownat -1 -1 AT_EMPTY_PATH on an O_PATH fd of " + d, 260, fd, B(""), -1, -1, AT_EMPTY_PATH)
        os.chdir(os.path.dirname(d))
        attempt("setxattr of %s from its directory" % d, lambda: os.setxattr(os.path.basename(d), "user.evil", b"1"))
        os.chdir(os.environ["WS"])
    # Hostile arguments: the broker answers them and lives on.
    m = mmap.mmap(-1, 4096)
    m.write(b"a" * 4096)
    end = ctypes.addressof(ctypes.c_char.from_buffer(m))
    big = ctypes.create_string_buffer(70000)
    wrap_tv = ctypes.create_string_buffer(struct.pack("<qqqq", 1, (1 << 61) + 8, 1, (1 << 61) + 8), 32)
    neg_tv = ctypes.create_string_buffer(struct.pack("<qqqq", 1, -1, 1, 0), 32)
    for what, nr, args in (("chmod, unterminated path at a page end", 90, (end, 0o666)),
                           ("chmod, unmapped path", 90, (8, 0o666)), ("chmod, kernel address", 90, (-4096, 0o666)),
                           ("fchmodat, negative dirfd", 268, (-5, B("x"), 0o666)),
                           ("setxattr, a value past 64 KiB", 188, (B("src"), B("user.big"), big, 70000, 0)),
                           ("setxattr, size with high bits", 188, (B("src"), B("user.big"), big, (1 << 40) | 4, 0)),
                           ("setxattr, a name past 255 bytes", 188, (B("src"), B("user." + "a" * 300), B("1"), 1, 0)),
                           ("setxattr, unmapped value", 188, (B("src"), B("user.v"), 8, 16, 0)),
                           ("utimensat, unmapped times", 280, (AT_FDCWD, B("src"), 8, 0)),
                           # tv_usec * 1000 wraps to 8000 ns: the kernel says EINVAL
                           ("utimes, tv_usec out of range", 235, (B("src"), ctypes.addressof(wrap_tv))),
                           ("futimesat, negative tv_usec", 261, (AT_FDCWD, B("src"), ctypes.addressof(neg_tv)))):
        call(what, nr, *args)
    # A file and a directory swapped for symbolic links to the host's by
    # another thread while the broker resolves.
    os.makedirs("src/rd", exist_ok=True)
    open("src/rd/" + name, "w").close()
    open("src/rf", "w").close()
    stop = []
    def flip():
        while not stop:
            for a, target in (("src/rf", hostfile), ("src/rd", hostdir)):
                os.rename(a, a + ".real")
                os.symlink(target, a)
                os.unlink(a)
                os.rename(a + ".real", a)
    t = threading.Thread(target=flip)
    t.start()
    done = 0
    end_at = time.time() + 2
    while time.time() < end_at:
        for p in ("src/rf", "src/rd/" + name):
            for fn in (lambda: os.chmod(p, 0o600), lambda: os.utime(p, (1, 1)), lambda: os.chown(p, -1, -1),
                       lambda: os.setxattr(p, "user.race", b"1")):
                try:
                    fn()
                    done += 1
                except OSError:
                    pass
    stop.append(1)
    t.join()
    refused("swaps under the broker", "%d calls made on the workspace's own files" % done)
    # A filter of its own whose USER_NOTIF comes before the broker's (the
    # newest filter's wins), answered CONTINUE by a listener of its own:
    # the kernel allows one listener per filter chain.  Without a listener,
    # its USER_NOTIF is ENOSYS.  In a child: the filter stays.
    pid = os.fork()
    if pid == 0:
        nr_chmod = 90
        insns = [(0x20, 0, 0, 0),                      # ld [nr]
                 (0x15, 0, 1, nr_chmod),               # jeq chmod
                 (0x06, 0, 0, 0x7fc00000),             # ret USER_NOTIF
                 (0x06, 0, 0, 0x7fff0000)]             # ret ALLOW
        filt = b"".join(struct.pack("<HBBI", *i) for i in insns)
        buf = ctypes.create_string_buffer(filt, len(filt))
        prog = struct.pack("<HxxxxxxQ", len(insns), ctypes.addressof(buf))
        pbuf = ctypes.create_string_buffer(prog, len(prog))
        r, e = raw(317, 1, 8, ctypes.addressof(pbuf))  # SECCOMP_SET_MODE_FILTER, NEW_LISTENER
        (succeeded if r >= 0 else lambda w: refused(w, os.strerror(e)))("a seccomp listener of its own")
        if r < 0:
            r, e = raw(317, 1, 0, ctypes.addressof(pbuf))
            print("own USER_NOTIF filter without a listener:", r, os.strerror(e) if r else "")
            attempt("chmod of the host file under it", lambda: os.chmod(hostfile, 0o666))
        sys.stdout.flush()
        os._exit(0)
    os.waitpid(pid, 0)
    # The broker still serves the workload's own files.
    open("src/own", "w").close()
    os.chmod("src/own", 0o640)
    os.utime("src/own", (631152000, 631152000))
    if os.environ.get("LL_USER_XATTRS") != "0":  # the file system takes them (lib-landlock.sh)
        os.setxattr("src/own", "user.mine", b"1")
    st = os.stat("src/own")
    print("broker alive" if (st.st_mode & 0o777, st.st_mtime) == (0o640, 631152000) else "broker broken")


def a_memfd(secret):
    """An executable that never was a file: the domain goes with it."""
    fd = os.memfd_create("cat")
    os.write(fd, open("/bin/cat", "rb").read())
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open("/dev/null", os.O_WRONLY), 2)
        os.execv("/proc/self/fd/%d" % fd, ["cat", secret])
    _, st = os.waitpid(pid, 0)
    (refused("cat of the denied file from a memfd", "exit %d" % os.waitstatus_to_exitcode(st)) if st else
     succeeded("cat of the denied file from a memfd"))


def a_sockets():
    """Socket families and types with egress off, with high bits in the arguments."""
    hi = 1 << 32
    for what, dom, typ in (("AF_INET with high bits in the family", hi | 2, 1),
                           ("AF_INET6 with high bits in the family", hi | 10, 1),
                           ("AF_NETLINK", 16, 3), ("AF_PACKET", 17, 3), ("AF_BLUETOOTH", 31, 1),
                           ("AF_ALG", 38, 5), ("AF_VSOCK", 40, 1), ("AF_XDP", 44, 3),
                           ("family 63", 63, 1), ("AF_UNIX SOCK_DGRAM", 1, 2),
                           ("AF_UNIX SOCK_DGRAM, high bits in the family", hi | 1, 2),
                           ("AF_UNIX SOCK_DGRAM|SOCK_CLOEXEC|SOCK_NONBLOCK", 1, 2 | 0o2000000 | 0o4000),
                           ("AF_UNIX SOCK_RAW", 1, 3)):
        r, e = raw(41, dom, typ, 0)
        (succeeded if r >= 0 else lambda w: refused(w, os.strerror(e)))("socket " + what)
    sv = (ctypes.c_int * 2)()
    r, e = raw(53, 1, 2, 0, ctypes.addressof(sv))
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("socketpair AF_UNIX SOCK_DGRAM")


def a_dgram(path):
    """A host datagram socket (syslog-like) with no datagram socket to send from."""
    for typ, name in ((socket.SOCK_SEQPACKET, "SOCK_SEQPACKET"), (socket.SOCK_STREAM, "SOCK_STREAM")):
        s = socket.socket(socket.AF_UNIX, typ)
        attempt("sendto a host datagram socket from " + name, lambda: s.sendto(b"injected", path))


def a_connect(host_sock, ws_link, hard_link, denied_sock):
    """Every other name for a host pathname socket."""
    def conn(addr):
        return lambda: socket.socket(socket.AF_UNIX).connect(addr)
    for mine in ("src/sym.sock", "src/symdir"):
        if os.path.lexists(mine):
            os.unlink(mine)
    attempt("connect to the host socket", conn(host_sock))
    attempt("through a symlink the workload made", (os.symlink(host_sock, "src/sym.sock"), conn("src/sym.sock"))[1])
    attempt("through a symlink to its directory",
            (os.symlink(os.path.dirname(host_sock), "src/symdir"), conn("src/symdir/" + os.path.basename(host_sock)))[1])
    attempt("through .. out of the workspace", conn("src/../" + os.path.relpath(host_sock)))
    fd = os.open(host_sock, os.O_PATH)
    attempt("through /proc/self/fd of an O_PATH fd", conn("/proc/self/fd/%d" % fd))
    attempt("through /proc/self/root", conn("/proc/self/root" + host_sock))
    attempt("through /proc/self/cwd after chdir", (os.chdir(os.path.dirname(host_sock)), conn("/proc/self/cwd/" + os.path.basename(host_sock)))[1])
    attempt("by a relative name from the host directory", conn(os.path.basename(host_sock)))
    os.chdir(os.environ["WS"])
    attempt("through a hard link the host made in the workspace", conn(hard_link))
    attempt("a socket in a write-denied directory of the workspace", conn(denied_sock))
    attempt("an abstract address", conn("\0has-landlock-attack"))
    attempt("an abstract address, autobind-like empty", conn("\0"))


def a_hostile():
    """Addresses the broker must survive: then it must still connect."""
    s = socket.socket(socket.AF_UNIX)
    addr = ctypes.create_string_buffer(b"\x01\x00" + b"/" * 200, 256)
    for what, fd, ptr, ln in (("length past sockaddr_un", s.fileno(), ctypes.addressof(addr), 200),
                              ("length past sockaddr_storage", s.fileno(), ctypes.addressof(addr), 4096),
                              ("negative length", s.fileno(), ctypes.addressof(addr), -1),
                              ("length with high bits", s.fileno(), ctypes.addressof(addr), (1 << 32) | 20),
                              ("unmapped address", s.fileno(), 8, 20),
                              ("kernel address", s.fileno(), -4096, 20),
                              ("not a socket", 0, ctypes.addressof(addr), 20),
                              ("closed descriptor", 999, ctypes.addressof(addr), 20),
                              ("negative descriptor", -1, ctypes.addressof(addr), 20),
                              ("descriptor with high bits", (1 << 32) | s.fileno(), ctypes.addressof(addr), 20)):
        r, e = raw(42, fd, ptr, ln)
        (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("connect, " + what)
    srv = socket.socket(socket.AF_UNIX)
    srv.bind("src/own.sock")
    srv.listen(1)
    c = socket.socket(socket.AF_UNIX)
    c.connect("src/own.sock")
    print("broker alive")


def a_pts(slave):
    """Another terminal of the caller's: its keystrokes, and its settings."""
    try:
        fd = os.open(slave, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as e:
        refused("open another terminal of the caller", e.strerror)
        return
    try:
        data = os.read(fd, 100)
        succeeded("read another terminal's input: %r" % data)
    except OSError as e:
        succeeded("open another terminal of the caller (read: %s)" % e.strerror)


def a_devices(*devices):
    for d in devices:
        attempt("open %s for reading" % d, lambda: os.close(os.open(d, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)))


def a_tty():
    """Run with stdin the caller's terminal: it stays usable, and stays
    the workload's only way to it."""
    attempt("open /dev/tty (no controlling terminal in the broker's session)", lambda: os.open("/dev/tty", os.O_RDWR))
    c = ctypes.c_char(b"x")
    for what, req in (("TIOCSTI on stdin", 0x5412), ("TIOCSTI on stdin, high bits in the request", (1 << 32) | 0x5412)):
        r, e = raw(16, 0, req, ctypes.addressof(c))
        (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))(what)
    print("own terminal by name: %r" % open("/dev/stdin").readline())


def a_orphans(marker):
    """Everything that might outlive the workload."""
    sleeper = ["/bin/sleep", marker]
    # Double fork with setsid.
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sleeper[0], sleeper)
        os._exit(0)
    # A subreaper of its own, whose child outlives it.
    if os.fork() == 0:
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        if os.fork() == 0:
            if os.fork() == 0:
                os.execv(sleeper[0], sleeper)
            os._exit(0)
        os.execv(sleeper[0], sleeper)
    # A chain that keeps forking: each generation starts the next and
    # exits, so that the process to kill is never the same one.
    if os.fork() == 0:
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        import time
        if os.fork() == 0:
            os.execv(sleeper[0], sleeper)
        while True:
            if os.fork() != 0:
                os._exit(0)
            time.sleep(0.005)
    # A stopped process.
    pid = os.fork()
    if pid == 0:
        os.execv(sleeper[0], sleeper)
    os.kill(pid, signal.SIGSTOP)
    import time
    time.sleep(0.3)
    print("leaving")


def a_hostproc(pid):
    if may_signal("kill a host process of the caller's"):
        attempt("kill a host process of the caller's", lambda: os.kill(int(pid), signal.SIGKILL))
    attempt("read its environment", lambda: open("/proc/%s/environ" % pid, "rb").read())
    attempt("readlink its cwd", lambda: os.readlink("/proc/%s/cwd" % pid))
    r, e = raw(101, 16, int(pid), 0, 0)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("ptrace it")
    if may_signal("F_SETOWN a pipe to it (SIGIO)"):
        attempt("F_SETOWN a pipe to it (SIGIO)", lambda: sigio(int(pid)))
    import resource
    # The kernel lets a process of the same uid lower another's limits:
    # RLIMIT_CPU 0 is a SIGKILL the signal scope never sees.
    for lim in ("RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_AS"):
        attempt("prlimit(%s) on it" % lim, lambda: resource.prlimit(int(pid), getattr(resource, lim), (0, 0)))
    r, e = raw(302, (1 << 32) | int(pid), 0, ctypes.addressof(ctypes.create_string_buffer(16)), 0)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("prlimit64 with high bits in the pid")
    # Scheduling: the kernel lets a process of the same uid change these.
    attempt("setpriority(PRIO_PROCESS) on it", lambda: os.setpriority(os.PRIO_PROCESS, int(pid), 19))
    attempt("setpriority(PRIO_USER): every process of the uid", lambda: os.setpriority(os.PRIO_USER, os.getuid(), 19))
    attempt("setpriority(PRIO_PGRP)", lambda: os.setpriority(os.PRIO_PGRP, os.getpgid(int(pid)), 19))
    r, e = raw(251, 1, int(pid), (3 << 13))  # ioprio_set(WHO_PROCESS, pid, IOPRIO_CLASS_IDLE)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("ioprio_set on it")
    r, e = raw(251, 3, os.getuid(), (3 << 13))  # ioprio_set(WHO_USER)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("ioprio_set on every process of the uid")
    attempt("sched_setaffinity on it", lambda: os.sched_setaffinity(int(pid), {0}))
    attempt("sched_setscheduler on it", lambda: os.sched_setscheduler(int(pid), os.SCHED_IDLE, os.sched_param(0)))
    # Its own process group is the broker's (the broker's session): 0 means
    # that group, and every member of it would be reniced.
    broker = os.getppid()
    before = os.getpriority(os.PRIO_PROCESS, broker)
    attempt("setpriority(PRIO_PGRP, 0): its own group, the broker's", lambda: os.setpriority(os.PRIO_PGRP, 0, 19))
    r, e = raw(251, 2, 0, (3 << 13))  # ioprio_set(WHO_PGRP, 0)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("ioprio_set on its own group, the broker's")
    (succeeded if os.getpriority(os.PRIO_PROCESS, broker) != before else
     lambda w: refused(w, "unchanged"))("the broker's priority")
    attr = ctypes.create_string_buffer(struct.pack("<IIQiIQQQ", 56, 5, 0, 0, 0, 0, 0, 0), 56)
    r, e = raw(314, int(pid), ctypes.addressof(attr), 0)
    (succeeded if r == 0 else lambda w: refused(w, os.strerror(e)))("sched_setattr(SCHED_IDLE) on it")
    r, e = raw(256, int(pid), 64, ctypes.addressof(ctypes.c_ulong(1)), ctypes.addressof(ctypes.c_ulong(1)))
    (succeeded if r >= 0 else lambda w: refused(w, os.strerror(e)))("migrate_pages of it")
    # Signals to its own process group reach the broker's process too: the
    # signal scope must keep them from it (the broker still answers below).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        os.kill(0, sig)
    import time
    time.sleep(0.2)
    open("src/after-signals", "w").close()
    os.chmod("src/after-signals", 0o600)  # the broker's work
    print("broker alive after signals to its group:", oct(os.stat("src/after-signals").st_mode & 0o777))
    # Its own: allowed.  One step up from where it started (the suite may
    # run under `nice`; going down would need CAP_SYS_NICE).
    start = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, min(start + 1, 19))
    after = os.getpriority(os.PRIO_PROCESS, 0)
    print("own priority", "set" if after == min(start + 1, 19) else "unchanged: %d -> %d" % (start, after))


def a_ipc(shmid):
    """The host's SysV shared memory of the caller's uid (no IPC namespace)."""
    r, e = raw(30, int(shmid), 0, 0)  # shmat
    (succeeded if r not in (-1,) and r != 0xffffffffffffffff and r > 0 else lambda w: refused(w, os.strerror(e)))(
        "shmat a host segment")
    r, e = raw(29, 0, 4096, 0o1666)  # shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0666)
    (succeeded if r >= 0 else lambda w: refused(w, os.strerror(e)))("shmget")



def sigio(pid):
    import fcntl
    r, w = os.pipe()
    fcntl.fcntl(r, fcntl.F_SETOWN, pid)
    fcntl.fcntl(r, fcntl.F_SETSIG, signal.SIGKILL)
    fl = fcntl.fcntl(r, fcntl.F_GETFL)
    fcntl.fcntl(r, fcntl.F_SETFL, fl | os.O_ASYNC)
    os.write(w, b"x")
    import time
    time.sleep(0.2)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return  # the SIGIO killed it
    except PermissionError:
        pass
    raise OSError(errno.EPERM, "not delivered (the host checks the process)")


def a_setuid(*progs):
    for p in progs:
        if not os.path.exists(p):
            continue
        pid = os.fork()
        if pid == 0:
            null = os.open("/dev/null", os.O_RDWR)
            for n in (0, 1, 2):
                os.dup2(null, n)
            os.execv(p, [p, "-c", "id -u >src/setuid-ran"] if p.endswith("su") else [p, "-n", "/usr/bin/id"])
        _, st = os.waitpid(pid, 0)
        print("ran %s: %s" % (p, st))
    ran = os.path.exists("src/setuid-ran") and open("src/setuid-ran").read().strip()
    if ran and ran != str(os.getuid()):
        succeeded("a setuid program changed the uid to %s" % ran)
    else:
        refused("setuid programs", "no uid change (no_new_privs)")


if __name__ == "__main__":
    globals()["a_" + sys.argv[1].replace("-", "_")](*sys.argv[2:])
