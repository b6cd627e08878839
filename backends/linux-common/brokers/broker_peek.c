/*
 * broker_peek.c — see broker_peek.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "brokers/broker_peek.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

bool broker_peek_supported(void)
{
    return !(syscall(SYS_pidfd_getfd, -1, 0, 0) != 0 && errno == ENOSYS);
}
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define HAS_RESOLVE_NO_MAGICLINKS 0x02

struct has_open_how {
    unsigned long long flags, mode, resolve;
};

bool broker_id_valid(int listener, __u64 id)
{
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

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

int broker_fetch_fd(int listener, const struct seccomp_notif *req, int fd, int *out)
{
    int pidfd = pidfd_of((pid_t)req->pid);
    if (pidfd < 0)
        return -ESRCH;
    /* The thread may have died and its id been reused since the call. */
    int got = -1, e = ESRCH;
    if (broker_id_valid(listener, req->id)) {
        got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
        e = errno;
    }
    close(pidfd);
    if (got < 0)
        return -e;
    *out = got;
    return 0;
}

int broker_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
    struct iovec local = {.iov_base = buf, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
    return len == 0 || process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

int broker_read_string(pid_t pid, uint64_t addr, char *buf, size_t size)
{
    /* Page by page: a string may end just before an unmapped page. */
    const size_t page = 4096;
    size_t got = 0;
    while (got < size) {
        size_t chunk = page - (size_t)((addr + got) % page);
        if (chunk > size - got)
            chunk = size - got;
        if (broker_read(pid, addr + got, buf + got, chunk) != 0)
            return -EFAULT;
        if (memchr(buf + got, '\0', chunk))
            return 0;
        got += chunk;
    }
    return -ENAMETOOLONG;
}

int broker_resolve(pid_t tid, int base, const char *path, bool nofollow)
{
    int dir = base;
    if (base < 0 && path[0] != '/') {
        char cwd[48];
        snprintf(cwd, sizeof cwd, "/proc/%d/cwd", (int)tid);
        if ((dir = open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            return -errno;
    }
    struct has_open_how how = {.flags = O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0),
                               .resolve = HAS_RESOLVE_NO_MAGICLINKS};
    /* An absolute path: from our root, which is the workload's. */
    int fd = (int)syscall(SYS_openat2, dir < 0 ? AT_FDCWD : dir, path, &how, sizeof how);
    int e = errno;
    if (dir >= 0 && dir != base)
        close(dir);
    return fd >= 0 ? fd : -e;
}

void broker_respond(int listener, __u64 id, int error)
{
    struct seccomp_notif_resp resp = {.id = id, .error = error};
    (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: the caller is gone */
}
