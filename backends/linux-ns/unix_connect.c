/*
 * unix_connect.c — the sandbox init answers the workload's connect() calls
 * (seccomp user notification: the filter sends every connect() here).
 *
 * Why: connect(2) on an AF_UNIX pathname socket needs no writable mount and
 * Landlock (ABI <= 7) does not mediate it, so a read-only view of the host
 * still reaches every host service listening on a path: an ssh control
 * master in ~/.ssh, gpg-agent, LXD, a container engine, a root-group 0660
 * socket.  The rule, on every kernel the sandbox supports: a pathname
 * socket is reachable only if it lies on a writable mount of the sandbox's
 * view — inside a writable root the caller granted, or made inside the
 * sandbox (which can bind only there).  Read-only mounts (the host, /tmp,
 * /run, $HOME, write-denied paths) refuse with EACCES.
 *
 * How, without a check-then-use race: the workload's socket is fetched with
 * pidfd_getfd(), its family read from the socket itself (it cannot change):
 * anything but AF_UNIX goes on unchanged (SECCOMP_USER_NOTIF_FLAG_CONTINUE;
 * the address in the workload's memory can only be read as that family).
 * For AF_UNIX the init copies the address once, resolves the path in the
 * calling thread's working directory (no magic links: /proc/self would be
 * the init's), checks the inode it holds, and connects the workload's
 * socket itself through /proc/self/fd/N — to exactly that inode.  The
 * workload's connect() returns what that connect() returned.
 *
 * Abstract addresses: reachable when the sandbox has its own network
 * namespace (its own abstract namespace); otherwise they are the host's,
 * and refused — the workload's own too: the init connecting on its behalf
 * is not bound by the workload's Landlock scope, and letting the call
 * through would let it swap the address for a path after the check.
 *
 * What a server sees: the peer credentials (SO_PEERCRED) of the init, with
 * the caller's uid.  A blocking connect() that the kernel makes wait (a full
 * backlog) delays the workload's other connect() calls until it completes.
 *
 * Input from the workload is only: the notification (from the kernel), a
 * descriptor number, an address length and the address bytes, each checked
 * before use; this code runs in PID 1, which holds the user namespace's
 * capabilities, so it stays this small.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "linux_ns.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define HAS_RESOLVE_NO_MAGICLINKS 0x02

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#define HAS_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1ULL

/* The answer "run the call as the workload made it". */
#define LET_THROUGH 1

struct has_open_how {
    unsigned long long flags, mode, resolve;
};

/* A pidfd for thread `tid`'s process (pidfd_open takes only a thread-group
 * leader: EINVAL, or ENOENT since Linux 6.9; descriptors are per process). */
static int pidfd_of(pid_t tid)
{
    int fd = (int)syscall(SYS_pidfd_open, tid, 0);
    if (fd >= 0 || errno == ESRCH)
        return fd;
    char path[48], line[128];
    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    FILE *f = fopen(path, "re");
    int tgid = -1;
    while (f && tgid < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "Tgid: %d", &tgid) != 1)
            tgid = -1;
    if (f)
        fclose(f);
    return tgid > 0 ? (int)syscall(SYS_pidfd_open, tgid, 0) : -1;
}

/* The workload's descriptor args[0] (0 or -errno). */
static int fetch_socket(int listener, const struct seccomp_notif *req, int *sock)
{
    int pidfd = pidfd_of((pid_t)req->pid);
    if (pidfd < 0)
        return -ESRCH;
    /* The thread may have died and its id been reused since the call. */
    __u64 id = req->id;
    int fd = -1, e = ESRCH;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0) {
        fd = (int)syscall(SYS_pidfd_getfd, pidfd, (int)req->data.args[0], 0);
        e = errno;
    }
    close(pidfd);
    if (fd < 0)
        return -e;
    *sock = fd;
    return 0;
}

/* Resolve a socket path as the calling thread would: relative to its
 * working directory, following ordinary symlinks but no magic link.  An
 * O_PATH descriptor, or -errno. */
static int resolve_path(pid_t tid, const char *path)
{
    int base = AT_FDCWD; /* the init's root is the workload's; its cwd is / */
    if (path[0] != '/') {
        char cwd[48];
        snprintf(cwd, sizeof cwd, "/proc/%d/cwd", (int)tid);
        if ((base = open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            return -errno;
    }
    struct has_open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = HAS_RESOLVE_NO_MAGICLINKS};
    int fd = (int)syscall(SYS_openat2, base, path, &how, sizeof how);
    int e = errno;
    if (base != AT_FDCWD)
        close(base);
    return fd >= 0 ? fd : -e;
}

/* connect(sock) to the pathname socket `path`, if it may be reached. */
static int connect_path(int sock, pid_t tid, const char *path)
{
    int target = resolve_path(tid, path);
    if (target < 0)
        return target;
    struct stat st;
    struct statvfs sv;
    int rc;
    if (fstat(target, &st) != 0 || fstatvfs(target, &sv) != 0)
        rc = -errno;
    else if (!S_ISSOCK(st.st_mode))
        rc = -ECONNREFUSED; /* what the kernel says for a non-socket */
    else if (sv.f_flag & ST_RDONLY)
        rc = -EACCES; /* a host socket: not in a writable root, not made inside */
    else {
        struct sockaddr_un via = {.sun_family = AF_UNIX};
        int n = snprintf(via.sun_path, sizeof via.sun_path, "/proc/self/fd/%d", target);
        rc = connect(sock, (struct sockaddr *)&via, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1))
                 ? -errno : 0;
    }
    close(target);
    return rc;
}

/* 0 or -errno for the workload's connect(), or LET_THROUGH. */
static int answer(int listener, const struct seccomp_notif *req, const struct unix_connect_rules *rules)
{
    int sock = -1, rc = fetch_socket(listener, req, &sock);
    if (rc != 0)
        return rc;
    int domain;
    socklen_t dlen = sizeof domain;
    if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) != 0)
        rc = -errno; /* ENOTSOCK */
    else if (domain != AF_UNIX)
        rc = LET_THROUGH; /* its address can only be read as this family */
    else {
        /* The kernel's own limits: move_addr_to_kernel(), unix_mkname_bsd(). */
        struct sockaddr_un sa;
        int len = (int)req->data.args[2];
        struct iovec local = {.iov_base = &sa, .iov_len = (size_t)len};
        struct iovec remote = {.iov_base = (void *)(uintptr_t)req->data.args[1], .iov_len = (size_t)len};
        if (len < 0 || (size_t)len > sizeof sa)
            rc = -EINVAL;
        else if (process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0) != len)
            rc = -EFAULT;
        else if ((size_t)len <= offsetof(struct sockaddr_un, sun_path) || sa.sun_family != AF_UNIX ||
                 (sa.sun_path[0] == '\0' && rules->abstract_ok))
            /* unnamed, another family (EINVAL, or AF_UNSPEC), or an allowed
             * abstract name: the kernel judges our copy */
            rc = connect(sock, (struct sockaddr *)&sa, (socklen_t)len) ? -errno : 0;
        else if (sa.sun_path[0] == '\0')
            rc = -ECONNREFUSED; /* the host's abstract namespace */
        else {
            char path[sizeof sa.sun_path + 1];
            size_t plen = (size_t)len - offsetof(struct sockaddr_un, sun_path);
            memcpy(path, sa.sun_path, plen);
            path[plen] = '\0';
            rc = connect_path(sock, (pid_t)req->pid, path);
        }
    }
    close(sock);
    return rc;
}

void unix_connect_listener_setup(int listener)
{
    /* Linux >= 6.7: the kernel switches straight to the init and back on a
     * notification instead of waking it on another CPU; a connect() costs a
     * round trip less.  Older kernels refuse the flag and work as before. */
    __u64 flags = HAS_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
    (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, flags);
}

int unix_connect_serve(int listener, const struct unix_connect_rules *rules)
{
    struct seccomp_notif req;
    memset(&req, 0, sizeof req); /* the kernel refuses a dirty buffer */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0)
        return errno == EINTR || errno == ENOENT ? 0 : -1; /* ENOENT: the caller died */
    struct seccomp_notif_resp resp = {.id = req.id};
    int rc = req.data.nr == SYS_connect ? answer(listener, &req, rules) : -ENOSYS;
    if (rc == LET_THROUGH)
        resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    else
        resp.error = rc;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) != 0 && errno != ENOENT)
        return -1;
    return 0;
}
