/*
 * confine.c — what the egress process gives up before it touches a client.
 *
 * It needs: read-only opens (resolv.conf and hosts, which c-ares reads:
 * resolver_ares.c), Internet sockets, connect, threads, epoll, splice.
 * It never needs: exec, a new process, ptrace, mounts or namespaces,
 * writes to the filesystem, bind/listen (its listeners arrive ready-made
 * over the socketpair), Unix or netlink sockets, keys, BPF, io_uring,
 * module loading.  The seccomp filter is a deny-list for those (an
 * allow-list would have to track every syscall the libc and c-ares might
 * make, and a wrong guess would break resolution on some distribution);
 * writes to the filesystem are denied by refusing any open with a write,
 * create or truncate flag.
 */
#include "config.h"

#include <cap-ng.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "process/confine.h"

#define NOBODY_ID 65534

static int failf(char *err, size_t errlen, const char *what, int e)
{
    snprintf(err, errlen, "%s: %s", what, strerror(e));
    return -1;
}

/* As root, become nobody: file permissions then restrict the process too.
 * Where 65534 is not mapped (some user namespaces) EINVAL means "no such
 * id" and the process stays as it is, confined by the rest. */
static int leave_root(char *err, size_t errlen)
{
    if (geteuid() != 0)
        return 0;
    /* The bounding set can only be emptied while CAP_SETPCAP is held. */
    capng_clear(CAPNG_SELECT_BOUNDS);
    if (capng_apply(CAPNG_SELECT_BOUNDS) != 0)
        return failf(err, errlen, "cannot empty the capability bounding set (capng_apply)", EPERM);
    if (setgroups(0, NULL) != 0 && errno != EPERM)
        return failf(err, errlen, "setgroups", errno);
    if (setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) != 0 && errno != EINVAL)
        return failf(err, errlen, "setresgid(nobody)", errno);
    if (setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID) != 0 && errno != EINVAL)
        return failf(err, errlen, "setresuid(nobody)", errno);
    return 0;
}

static int drop_capabilities(char *err, size_t errlen)
{
    capng_clear(CAPNG_SELECT_CAPS);
    if (capng_apply(CAPNG_SELECT_CAPS) != 0)
        return failf(err, errlen, "cannot drop capabilities (capng_apply)", EPERM);
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return failf(err, errlen, "cannot clear ambient capabilities", errno);
    capng_get_caps_process();
    if (capng_have_capabilities(CAPNG_SELECT_CAPS) != CAPNG_NONE)
        return failf(err, errlen, "capabilities remain after dropping them", EPERM);
    return 0;
}

static const char *const denied_syscalls[] = {
    "execve",
    "execveat",
    "fork",
    "vfork",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "kcmp",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "bind",
    "listen",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_by_handle_at",
    "name_to_handle_at",
    "mknod",
    "mknodat",
    "unlink",
    "unlinkat",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "rmdir",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "ftruncate",
    "creat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "acct",
    "swapon",
    "swapoff",
    "reboot",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "setuid",
    "setgid",
    "setreuid",
    "setregid",
    "setresuid",
    "setresgid",
    "setfsuid",
    "setfsgid",
    "setgroups",
    "capset",
    "personality",
    "quotactl",
    "fanotify_init",
    "syslog",
    "vhangup",
    "iopl",
    "ioperm",
    "modify_ldt",
    "memfd_create",
    "memfd_secret",
    "landlock_create_ruleset",
    "seccomp",
};

static int deny(scmp_filter_ctx ctx, const char *name, int err, unsigned nargs,
                const struct scmp_arg_cmp *args)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
        return 0; /* not a syscall on this architecture */
    int r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(err), nr, nargs, args);
    return (r == 0 || nr < 0) ? 0 : r;
}

/* Spelt out rather than SCMP_A0()..: those macros leave fields to
 * -Wmissing-field-initializers when seccomp.h is not a system header (the
 * static musl build). */
static struct scmp_arg_cmp arg_cmp(unsigned arg, enum scmp_compare op, scmp_datum_t a, scmp_datum_t b)
{
    struct scmp_arg_cmp c = {.arg = arg, .op = op, .datum_a = a, .datum_b = b};
    return c;
}

/* Threads yes (pthread_create sets CLONE_THREAD), new processes no.
 * clone3 passes its flags in memory seccomp cannot read: ENOSYS makes
 * libc fall back to clone. */
static int deny_new_processes(scmp_filter_ctx ctx)
{
    struct scmp_arg_cmp no_thread = arg_cmp(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    int r = deny(ctx, "clone", EPERM, 1, &no_thread);
    return r ? r : deny(ctx, "clone3", ENOSYS, 0, NULL);
}

/* No open that writes or creates.  openat2's flags are in memory too. */
static int deny_write_opens(scmp_filter_ctx ctx)
{
    static const int write_flags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND};
    int r = deny(ctx, "openat2", ENOSYS, 0, NULL);
    for (size_t i = 0; !r && i < sizeof write_flags / sizeof write_flags[0]; i++) {
        struct scmp_arg_cmp a2 =
            arg_cmp(2, SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_flags[i], (scmp_datum_t)write_flags[i]);
        struct scmp_arg_cmp a1 =
            arg_cmp(1, SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_flags[i], (scmp_datum_t)write_flags[i]);
        r = deny(ctx, "openat", EACCES, 1, &a2);
        r = r ? r : deny(ctx, "open", EACCES, 1, &a1);
    }
    return r;
}

/* Socket families: Internet only.  Not Unix: in the host's namespaces
 * a new Unix socket reaches every abstract name and socket file there
 * (c-ares needs neither nscd nor systemd-resolved's socket); not
 * netlink, raw, packet, AF_ALG, vsock... */
static int deny_socket_families(scmp_filter_ctx ctx)
{
    int r = 0;
    for (int fam = 0; !r && fam <= AF_MAX; fam++) {
        if (fam == AF_INET || fam == AF_INET6)
            continue;
        struct scmp_arg_cmp a0 = arg_cmp(0, SCMP_CMP_EQ, (scmp_datum_t)fam, 0);
        r = deny(ctx, "socket", EAFNOSUPPORT, 1, &a0);
    }
    struct scmp_arg_cmp above = arg_cmp(0, SCMP_CMP_GT, (scmp_datum_t)AF_MAX, 0);
    return r ? r : deny(ctx, "socket", EAFNOSUPPORT, 1, &above);
}

/* Signals only to itself (raise, abort, libc's thread signals): a
 * subverted egress process cannot signal the caller's other processes. */
static int deny_foreign_signals(scmp_filter_ctx ctx)
{
    struct scmp_arg_cmp not_self = arg_cmp(0, SCMP_CMP_NE, (scmp_datum_t)getpid(), 0);
    static const char *const signalling[] = {"kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"};
    int r = 0;
    for (size_t i = 0; !r && i < sizeof signalling / sizeof signalling[0]; i++)
        r = deny(ctx, signalling[i], EPERM, 1, &not_self);
    r = r ? r : deny(ctx, "tkill", EPERM, 0, NULL);
    r = r ? r : deny(ctx, "pidfd_open", EPERM, 0, NULL);
    return r ? r : deny(ctx, "pidfd_send_signal", EPERM, 0, NULL);
}

/* No typing into, or driving, the caller's terminal. */
static int deny_tty_injection(scmp_filter_ctx ctx)
{
    struct scmp_arg_cmp sti = arg_cmp(1, SCMP_CMP_EQ, (scmp_datum_t)TIOCSTI, 0);
    struct scmp_arg_cmp linux_ioctl = arg_cmp(1, SCMP_CMP_EQ, (scmp_datum_t)TIOCLINUX, 0);
    int r = deny(ctx, "ioctl", EPERM, 1, &sti);
    return r ? r : deny(ctx, "ioctl", EPERM, 1, &linux_ioctl);
}

static int add_rules(scmp_filter_ctx ctx)
{
    int r = 0;
    for (size_t i = 0; !r && i < sizeof denied_syscalls / sizeof denied_syscalls[0]; i++)
        r = deny(ctx, denied_syscalls[i], EPERM, 0, NULL);
    r = r ? r : deny_new_processes(ctx);
    r = r ? r : deny_write_opens(ctx);
    r = r ? r : deny_socket_families(ctx);
    r = r ? r : deny_foreign_signals(ctx);
    return r ? r : deny_tty_injection(ctx);
}

/* Only the native ABI is in the filter; libseccomp kills a process that
 * enters through another one (SCMP_FLTATR_ACT_BADARCH), x32 included. */
static int install_seccomp(char *err, size_t errlen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return failf(err, errlen, "seccomp_init", ENOMEM);
    int r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    r = r ? r : add_rules(ctx);
    r = r ? r : seccomp_load(ctx);
    seccomp_release(ctx);
    if (r)
        return failf(err, errlen, "cannot install the egress process's seccomp filter", -r);
    return 0;
}

static int die_with_parent(pid_t parent, char *err, size_t errlen)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
        return failf(err, errlen, "prctl PR_SET_PDEATHSIG", errno);
    if (getppid() != parent) { /* it died before the line above */
        snprintf(err, errlen, "the supervisor ended while the egress process started");
        return -1;
    }
    return 0;
}

int egress_confine(pid_t parent, char *err, size_t errlen)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0)
        return failf(err, errlen, "setrlimit RLIMIT_CORE", errno);
    /* Descriptors: up to four per tunnel (two sockets, two pipe ends per
     * active direction); the loop sizes its connection cap from this. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max < 65536 ? files.rlim_max : 65536;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    if (leave_root(err, errlen) != 0 || drop_capabilities(err, errlen) != 0)
        return -1;
    /* A credential change resets both of these, so they come after it. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        return failf(err, errlen, "prctl PR_SET_DUMPABLE", errno);
    if (die_with_parent(parent, err, errlen) != 0)
        return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return failf(err, errlen, "prctl PR_SET_NO_NEW_PRIVS", errno);
    return install_seccomp(err, errlen);
}
