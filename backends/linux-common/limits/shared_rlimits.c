/*
 * shared_rlimits.c — the caller keeps half of its queued signals, POSIX
 * message-queue bytes and locked shared memory (shared_rlimits.h).
 *
 * The kernel counts these per uid and charges each at every level of the
 * user-namespace chain (ucounts; before Linux 5.14 on the uid's one
 * user_struct), each level against a task's own soft limit: queued signals
 * against the receiver's RLIMIT_SIGPENDING, message-queue bytes and
 * SHM_LOCK'ed memory against the creator's RLIMIT_MSGQUEUE and
 * RLIMIT_MEMLOCK.  A workload with the caller's limits could take them all
 * (an RT signal queued to itself until EAGAIN; message queues in its own
 * IPC namespace, linux-ns): the caller's sigqueue() and signalling
 * timer_create() then fail with EAGAIN, its mq_open() with EMFILE.
 *
 * So the sandbox gets half of each of the caller's soft values, rounded
 * down (the caller keeps at least the other half), as soft and hard limit:
 * lowering a hard limit is always allowed, raising it back needs
 * CAP_SYS_RESOURCE in the host's user namespace, which nothing in the
 * sandbox has.  Set in the supervisor before the split, so the middle
 * process (a receiver the workload could queue to) has them too, and
 * linux-ns's user namespace takes them as its ceiling for the levels above
 * (the kernel copies the creator's limits into it).  An unlimited value
 * stays unlimited: the caller has no bound there to be starved of.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "limits/shared_rlimits.h"

static const struct {
    int resource;
    const char *name, *what;
} shared[] = {
    {RLIMIT_SIGPENDING, "RLIMIT_SIGPENDING", "queued signals (sigqueue, signalling timers)"},
    {RLIMIT_MSGQUEUE, "RLIMIT_MSGQUEUE", "bytes of POSIX message queues"},
    {RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK", "bytes of locked memory (SHM_LOCK; also each process's mlock)"},
};
#define N_SHARED (sizeof shared / sizeof shared[0])

/* The sandbox's share of the caller's soft limit `cur`: half, rounded
 * down, because the kernel checks one total for the uid (the sandbox's and
 * the caller's together) against it, and the caller keeps the rest. */
static rlim_t share_of(rlim_t cur)
{
    return cur == RLIM_INFINITY ? RLIM_INFINITY : cur / 2;
}

int shared_rlimits_apply(char *err, size_t errlen)
{
    for (size_t i = 0; i < N_SHARED; i++) {
        struct rlimit r;
        if (getrlimit(shared[i].resource, &r) != 0) {
            snprintf(err, errlen, "cannot read the caller's %s: %s", shared[i].name, strerror(errno));
            return -1;
        }
        r.rlim_cur = r.rlim_max = share_of(r.rlim_cur);
        if (setrlimit(shared[i].resource, &r) != 0) {
            snprintf(err, errlen, "cannot lower %s to half the caller's (%llu) for the sandbox: %s",
                     shared[i].name, (unsigned long long)r.rlim_cur, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* /proc/sys/fs/pipe-user-pages-soft, or -1. */
static long pipe_pages_soft(void)
{
    char text[32];
    int fd = open("/proc/sys/fs/pipe-user-pages-soft", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    long v = -1;
    return sscanf(text, "%ld", &v) == 1 ? v : -1;
}

void shared_rlimits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out, bool own_userns)
{
    for (size_t i = 0; i < N_SHARED; i++) {
        struct rlimit r;
        if (getrlimit(shared[i].resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
            sandbox_explain_add(ctx, out, "shared", shared[i].name,
                                "%s: unlimited for the caller, and the sandbox", shared[i].what);
        else
            sandbox_explain_add(ctx, out, "shared", shared[i].name,
                                "%s: %llu for the sandbox (soft = hard), half the caller's %llu: the kernel "
                                "counts the sandbox's against the caller's uid",
                                shared[i].what, (unsigned long long)share_of(r.rlim_cur),
                                (unsigned long long)r.rlim_cur);
    }
    if (!own_userns)
        sandbox_explain_add(ctx, out, "shared", "user.max_*",
                            "inotify instances and watches, fanotify groups and marks: the caller's own (no "
                            "user namespace of its own to bound them): the workload can take them all");
    /* Counted on the uid's one user_struct, against a global sysctl:
     * nothing per namespace can bound it. */
    long pages = pipe_pages_soft();
    char past[48] = "the sysctl's";
    if (pages >= 0)
        snprintf(past, sizeof past, "%ld", pages);
    sandbox_explain_add(
        ctx, out, "shared", "fs.pipe-user-pages-soft",
        "pipe buffers: not bounded: past %s pages of the caller's uid (the sandbox's included) "
        "the caller's new pipes get a minimal buffer",
        past);
}
