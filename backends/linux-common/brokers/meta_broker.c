/*
 * meta_broker.c — the broker makes the workload's changes of file metadata
 * (mode, owner, times, extended attributes) after the backend's check
 * (connect_rules.path_writable).  Called by connect_broker.c for every
 * notification that is not a connect().
 *
 * Why: Landlock (ABI <= 7) mediates none of chmod, chown, utimes or
 * setxattr, and with no read-only mount around it (the landlock backend)
 * the workload could chmod, chown, touch or tag every file its uid owns on
 * the host: a root caller's workload could make /etc/shadow world-writable.
 * The filter sends these calls here (seccomp_rules.c, the shared_host
 * shape), and the broker
 *   - resolves the target as the calling thread would (its working
 *     directory, its descriptors: pidfd_getfd; symbolic links followed
 *     unless the call says not to; no magic link), once;
 *   - asks the backend whether that inode may be written (its path,
 *     beneath a writable root and no denial);
 *   - makes the change itself on that very inode (through
 *     /proc/self/fd/N, or the descriptor), never letting the call run on
 *     in the workload, which would look the path up again.
 * It holds the workload's uid and groups and no capability (the backend
 * dropped them), so the kernel still judges ownership as it would have for
 * the workload: nothing here is allowed that the workload's own call would
 * not be, beyond the paths Landlock alone would have refused.
 *
 * Input from the workload: the notification, descriptor numbers, path and
 * name strings (bounded, NUL-terminated), times and an attribute value
 * (bounded), each read once and checked before use.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

#include "backend.h" /* report_write() */
#include "brokers/broker_peek.h"
#include "brokers/meta_broker.h"
#include "linux_common.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#define MAX_PATH 4096
#define MAX_XATTR_NAME 256    /* XATTR_NAME_MAX + NUL */
#define MAX_XATTR_VALUE 65536 /* XATTR_SIZE_MAX */

/* What a call names: a path from a directory, or a descriptor itself. */
struct target_spec {
    int dirfd_arg; /* -1: none (a path from the working directory), else the arg index of a dirfd */
    int path_arg;  /* -1: no path (the descriptor is the target) */
    int fd_arg;    /* the arg index of a descriptor target, or -1 */
    int flags_arg; /* the arg index of AT_* flags, or -1 */
    bool nofollow; /* lchown, lsetxattr, lremovexattr */
};

/* The target of `req` as an O_PATH (or the workload's own) descriptor:
 * 0 or -errno. */
static int open_target(int listener, const struct seccomp_notif *req, const struct target_spec *t, int *out)
{
    const __u64 *a = req->data.args;
    pid_t pid = (pid_t)req->pid;
    int flags = t->flags_arg >= 0 ? (int)a[t->flags_arg] : 0;
    if (t->fd_arg >= 0)
        return broker_fetch_fd(listener, req, (int)a[t->fd_arg], out);
    char path[MAX_PATH];
    bool have_path = a[t->path_arg] != 0;
    int rc = have_path ? broker_read_string(pid, a[t->path_arg], path, sizeof path) : 0;
    if (rc != 0)
        return rc;
    bool at_fd = t->dirfd_arg >= 0 && (int)a[t->dirfd_arg] != AT_FDCWD;
    /* utimensat(fd, NULL, ...) and AT_EMPTY_PATH name the descriptor. */
    if ((!have_path || (path[0] == '\0' && (flags & AT_EMPTY_PATH))) && at_fd)
        return broker_fetch_fd(listener, req, (int)a[t->dirfd_arg], out);
    if (!have_path)
        return -EFAULT;
    if (path[0] == '\0')
        return -ENOENT;
    int base = -1;
    if (at_fd && path[0] != '/' && (rc = broker_fetch_fd(listener, req, (int)a[t->dirfd_arg], &base)) != 0)
        return rc;
    int fd = broker_resolve(pid, base, path, t->nofollow || (flags & AT_SYMLINK_NOFOLLOW));
    if (base >= 0)
        close(base);
    if (fd < 0)
        return fd;
    *out = fd;
    return 0;
}

/* The times of utime/utimes/futimesat/utimensat as timespecs (NULL: now). */
static int read_times(pid_t pid, long nr, uint64_t addr, struct timespec ts[2], struct timespec **out)
{
    *out = NULL;
    if (addr == 0)
        return 0;
    int rc;
    if (nr == SYS_utimensat) {
        rc = broker_read(pid, addr, ts, 2 * sizeof ts[0]);
#ifdef SYS_utime
    } else if (nr == SYS_utime) {
        struct utimbuf u;
        rc = broker_read(pid, addr, &u, sizeof u);
        ts[0] = (struct timespec){u.actime, 0};
        ts[1] = (struct timespec){u.modtime, 0};
#endif
    } else {
        struct timeval tv[2];
        rc = broker_read(pid, addr, tv, sizeof tv);
        for (int i = 0; rc == 0 && i < 2; i++) {
            /* The kernel's range (do_futimesat); beyond it, * 1000 overflows
             * into a valid-looking nanosecond count. */
            if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
                return -EINVAL;
            ts[i] = (struct timespec){tv[i].tv_sec, tv[i].tv_usec * 1000};
        }
    }
    *out = ts;
    return rc;
}

/* What a call carries beyond its target, read from the workload before
 * the last check that the call is still pending: once the thread is gone
 * its id may name another process, whose memory this must not copy into a
 * file the workload can read. */
struct meta_input {
    struct timespec ts[2], *times;
    char name[MAX_XATTR_NAME];
    char *value;
    size_t size;
};

static bool is_setxattr(long nr)
{
    return nr == SYS_setxattr || nr == SYS_lsetxattr || nr == SYS_fsetxattr;
}

static bool is_times(long nr)
{
    switch (nr) {
#ifdef SYS_utime
    case SYS_utime:
#endif
#ifdef SYS_utimes
    case SYS_utimes:
#endif
#ifdef SYS_futimesat
    case SYS_futimesat:
#endif
    case SYS_utimensat: return true;
    default: return false;
    }
}

static bool is_xattr(long nr)
{
    return is_setxattr(nr) || nr == SYS_removexattr || nr == SYS_lremovexattr || nr == SYS_fremovexattr;
}

/* Read the times, or the attribute's name and value: 0 or -errno. */
static int read_input(const struct seccomp_notif *req, struct meta_input *in)
{
    const __u64 *a = req->data.args;
    long nr = req->data.nr;
    pid_t pid = (pid_t)req->pid;
    int rc;
    in->times = NULL;
    in->value = NULL;
    in->size = 0;
    if (is_times(nr)) {
        int arg = nr == SYS_utimensat ? 2 : 1; /* (dirfd, path, times) or (path, times) */
#ifdef SYS_futimesat
        if (nr == SYS_futimesat)
            arg = 2;
#endif
        return read_times(pid, nr, a[arg], in->ts, &in->times);
    }
    if (!is_xattr(nr))
        return 0;
    if ((rc = broker_read_string(pid, a[1], in->name, sizeof in->name)) != 0)
        return rc == -ENAMETOOLONG ? -ERANGE : rc;
    if (!is_setxattr(nr))
        return 0;
    in->size = (size_t)a[3];
    if (in->size > MAX_XATTR_VALUE)
        return -E2BIG;
    if (!(in->value = malloc(in->size ? in->size : 1)))
        return -ENOMEM;
    return broker_read(pid, a[2], in->value, in->size);
}

/* Make the change on `fd` (O_PATH unless fd_arg named it): 0 or -errno. */
static int apply(const struct seccomp_notif *req, int fd, const struct stat *st, const struct meta_input *in)
{
    const __u64 *a = req->data.args;
    long nr = req->data.nr;
    switch (nr) {
#ifdef SYS_chmod
    case SYS_chmod:
#endif
    case SYS_fchmod:
    case SYS_fchmodat:
    case SYS_fchmodat2: {
        mode_t mode = (mode_t)a[nr == SYS_fchmodat || nr == SYS_fchmodat2 ? 2 : 1];
        if (mode & (S_ISUID | S_ISGID))
            return -EPERM; /* the filter refuses these already (seccomp_rules.c): never made here */
        if (S_ISLNK(st->st_mode))
            return -EOPNOTSUPP; /* Linux has no mode on a symbolic link */
        return fchmodat(AT_FDCWD, fd_path(fd).s, mode, 0) == 0 ? 0 : -errno;
    }
#ifdef SYS_chown
    case SYS_chown:
    case SYS_lchown:
#endif
    case SYS_fchown:
    case SYS_fchownat: {
        int at = nr == SYS_fchownat;
        return fchownat(fd, "", (uid_t)a[1 + at], (gid_t)a[2 + at], AT_EMPTY_PATH) == 0 ? 0 : -errno;
    }
    default: break;
    }
    if (is_times(nr)) {
        if (S_ISLNK(st->st_mode))
            return -EOPNOTSUPP; /* not brokered: rare, and fails closed */
        return utimensat(AT_FDCWD, fd_path(fd).s, in->times, 0) == 0 ? 0 : -errno;
    }
    /* The extended attributes. */
    bool by_fd = nr == SYS_fsetxattr || nr == SYS_fremovexattr;
    if (S_ISLNK(st->st_mode))
        return -EPERM; /* user.* attributes exist on files and directories only */
    if (is_setxattr(nr))
        return (by_fd ? fsetxattr(fd, in->name, in->value, in->size, (int)a[4])
                      : setxattr(fd_path(fd).s, in->name, in->value, in->size, (int)a[4])) == 0
                   ? 0
                   : -errno;
    return (by_fd ? fremovexattr(fd, in->name) : removexattr(fd_path(fd).s, in->name)) == 0 ? 0 : -errno;
}

/* The name of a brokered call, for the report. */
static const char *call_name(long nr)
{
    switch (nr) {
#ifdef SYS_chmod
    case SYS_chmod: return "chmod";
    case SYS_chown: return "chown";
#endif
#ifdef SYS_utime
    case SYS_utime: return "utime";
#endif
#ifdef SYS_utimes
    case SYS_utimes: return "utimes";
#endif
#ifdef SYS_lchown
    case SYS_lchown: return "lchown";
#endif
#ifdef SYS_futimesat
    case SYS_futimesat: return "futimesat";
#endif
    case SYS_setxattr: return "setxattr";
    case SYS_removexattr: return "removexattr";
    case SYS_lsetxattr: return "lsetxattr";
    case SYS_lremovexattr: return "lremovexattr";
    case SYS_fchmod: return "fchmod";
    case SYS_fchown: return "fchown";
    case SYS_fsetxattr: return "fsetxattr";
    case SYS_fremovexattr: return "fremovexattr";
    case SYS_fchmodat: return "fchmodat";
    case SYS_fchmodat2: return "fchmodat2";
    case SYS_fchownat: return "fchownat";
    case SYS_utimensat: return "utimensat";
    default: return "?";
    }
}

/* A change the rules refused, in the caller's report. */
struct meta_refusal {
    const char *call;
    const char *path; /* the kernel's name of the inode, or NULL */
    const char *reason;
};

static void meta_refusal_fields(struct report_line *l, const void *arg)
{
    const struct meta_refusal *r = arg;
    report_field_string(l, "call", r->call, 16);
    report_field_text(l, "path", r->path);
    report_field_text(l, "reason", r->reason);
}

static void report_refusal(int report_fd, long nr, int fd, const struct connect_rules *rules)
{
    if (report_fd < 0)
        return;
    char path[MAX_PATH];
    ssize_t n = readlink(fd_path(fd).s, path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    struct meta_refusal r = {call_name(nr), n > 0 ? path : NULL,
                             rules->meta_refused ? rules->meta_refused : "not writable in the sandbox"};
    report_write(report_fd, "metadata-refused", meta_refusal_fields, &r);
}

/* How each brokered call names its target. */
static bool spec_for(long nr, struct target_spec *t)
{
    static const struct target_spec path = {-1, 0, -1, -1, false}, lpath = {-1, 0, -1, -1, true},
                                    fd0 = {-1, -1, 0, -1, false};
    switch (nr) {
#ifdef SYS_chmod
    case SYS_chmod:
    case SYS_chown:
#endif
#ifdef SYS_utime
    case SYS_utime:
#endif
#ifdef SYS_utimes
    case SYS_utimes:
#endif
    case SYS_setxattr:
    case SYS_removexattr: *t = path; return true;
#ifdef SYS_lchown
    case SYS_lchown:
#endif
    case SYS_lsetxattr:
    case SYS_lremovexattr: *t = lpath; return true;
    case SYS_fchmod:
    case SYS_fchown:
    case SYS_fsetxattr:
    case SYS_fremovexattr: *t = fd0; return true;
    case SYS_fchmodat: *t = (struct target_spec){0, 1, -1, -1, false}; return true;
    case SYS_fchmodat2: *t = (struct target_spec){0, 1, -1, 3, false}; return true;
    case SYS_fchownat: *t = (struct target_spec){0, 1, -1, 4, false}; return true;
#ifdef SYS_futimesat
    case SYS_futimesat: *t = (struct target_spec){0, 1, -1, -1, false}; return true;
#endif
    case SYS_utimensat: *t = (struct target_spec){0, 1, -1, 3, false}; return true;
    default: return false;
    }
}

bool meta_broker_serve(int listener, const struct seccomp_notif *req, const struct connect_rules *rules,
                       int report_fd)
{
    struct target_spec t;
    if (!rules->path_writable || !spec_for(req->data.nr, &t))
        return false;
    int fd = -1, rc = open_target(listener, req, &t, &fd);
    struct stat st;
    if (rc == 0 && fstat(fd, &st) != 0)
        rc = -errno;
    if (rc == 0 && (rc = rules->path_writable(fd, &st, rules->arg)) != 0)
        report_refusal(report_fd, (long)req->data.nr, fd, rules);
    struct meta_input in = {0};
    if (rc == 0)
        rc = read_input(req, &in);
    /* The thread may have died and its id been reused meanwhile: then
     * nothing read since the last check is used. */
    if (rc == 0 && !broker_id_valid(listener, req->id))
        rc = -EINTR;
    if (rc == 0)
        rc = apply(req, fd, &st, &in);
    free(in.value);
    if (fd >= 0)
        close(fd);
    broker_respond(listener, req->id, rc);
    return true;
}
