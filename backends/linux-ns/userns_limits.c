/*
 * userns_limits.c — the caller keeps its share of the per-user kernel
 * counters.
 *
 * The kernel counts inotify instances and watches, fanotify groups and
 * marks, and namespaces per user, per user namespace, and charges each one
 * at every level of the user-namespace chain: a workload running as the
 * caller's uid would otherwise take what the caller's editors, file
 * watchers and `systemd --user` need (for a root caller: the host's root
 * daemons).  Each limit (/proc/sys/user/max_*) is also per user namespace,
 * and writable by a process with CAP_SYS_RESOURCE in it: the sandbox's init,
 * before it drops its capabilities.  So the sandbox's own namespace gets
 * half of the caller's value, rounded up (the sandbox's own network
 * namespace, made later, fits under a limit of 1), and the caller always
 * keeps the other half; nested user namespaces, which the seccomp filter
 * refuses anyway, get 0.
 *
 * The caller's values are read before the clone (inside, the same files
 * show the new namespace's values).  A file this kernel does not have is
 * skipped; any other failure fails the launch.  What these values cannot
 * see: a caller that is itself in a user namespace (a container) reads its
 * own namespace's limits, not the ones its ancestors charge against.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux_ns.h"

#define USER_SYSCTL_DIR "/proc/sys/user/"

/* Every counter of /proc/sys/user, and the share of the caller's value the
 * sandbox gets (HALF, or NONE). */
enum share { HALF, NONE };
static const struct {
    const char *name;
    enum share share;
} counters[] = {
    {"max_inotify_instances", HALF}, {"max_inotify_watches", HALF}, {"max_fanotify_groups", HALF},
    {"max_fanotify_marks", HALF},    {"max_mnt_namespaces", HALF},  {"max_pid_namespaces", HALF},
    {"max_net_namespaces", HALF},    {"max_ipc_namespaces", HALF},  {"max_uts_namespaces", HALF},
    {"max_cgroup_namespaces", HALF}, {"max_time_namespaces", HALF}, {"max_user_namespaces", NONE},
};
#define N_COUNTERS (sizeof counters / sizeof counters[0])

/* The sandbox's value of each counter; -1: not on this kernel. */
static long sandbox_value[N_COUNTERS];

/* The caller's value of `name`, or -1 if the kernel has no such file. */
static int read_counter(const char *name, long *value, char *err, size_t errlen)
{
    char path[96], text[32];
    snprintf(path, sizeof path, USER_SYSCTL_DIR "%s", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        *value = -1;
        return 0;
    }
    ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (n <= 0) {
        snprintf(err, errlen, "cannot read the caller's limit %s: %s", path, n == 0 ? "empty" : strerror(e));
        return -1;
    }
    text[n] = '\0';
    char *end;
    errno = 0;
    *value = strtol(text, &end, 10);
    if (errno || end == text || (*end && *end != '\n') || *value < 0 || *value > INT_MAX) {
        snprintf(err, errlen, "the caller's limit %s is not a count: '%.20s'", path, text);
        return -1;
    }
    return 0;
}

int userns_limits_read(char *err, size_t errlen)
{
    for (size_t i = 0; i < N_COUNTERS; i++) {
        long caller;
        if (read_counter(counters[i].name, &caller, err, errlen) != 0)
            return -1;
        sandbox_value[i] = caller < 0 ? -1 : counters[i].share == HALF ? (caller + 1) / 2 : 0;
    }
    return 0;
}

int userns_limits_write(char *err, size_t errlen)
{
    for (size_t i = 0; i < N_COUNTERS; i++) {
        if (sandbox_value[i] < 0)
            continue;
        char path[96], text[24];
        snprintf(path, sizeof path, USER_SYSCTL_DIR "%s", counters[i].name);
        int len = snprintf(text, sizeof text, "%ld\n", sandbox_value[i]);
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : write(fd, text, (size_t)len);
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (n != len) {
            /* A container's /proc/sys is read-only (EROFS): the message
             * then says which option lifts that, or which backend needs
             * no namespace. */
            char step[160];
            snprintf(step, sizeof step, "cannot bound user.%s to %ld in the sandbox's user namespace (%s)",
                     counters[i].name, sandbox_value[i], path);
            kernel_diag_userns(step, n < 0 ? e : EIO, err, errlen);
            return -1;
        }
    }
    return 0;
}

enum sandbox_result userns_limits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    char err[SANDBOX_ERROR_MAX];
    if (userns_limits_read(err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    for (size_t i = 0; i < N_COUNTERS; i++) {
        if (sandbox_value[i] < 0)
            continue;
        char subject[48];
        snprintf(subject, sizeof subject, "user.%s", counters[i].name);
        if (counters[i].share == HALF)
            sandbox_explain_add(ctx, out, "shared", subject,
                                "%ld in the sandbox's user namespace, half the caller's (rounded up): the "
                                "kernel counts the sandbox's against the caller's uid",
                                sandbox_value[i]);
        else
            sandbox_explain_add(ctx, out, "shared", subject, "0 in the sandbox's user namespace");
    }
    return SANDBOX_OK;
}
