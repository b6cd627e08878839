/*
 * fd_hygiene.c — the workload starts with descriptors 0, 1 and 2 only.
 *
 * Anything else inherited from the caller (a directory descriptor, a socket
 * to a host service, the policy descriptor) would be a way around the
 * boundary: a directory descriptor opened on the host refers to a writable
 * host mount, and openat() through it writes where the read-only view forbids
 * it.  Descriptors opened by the supervisor are O_CLOEXEC, but those of the
 * caller may not be, so every descriptor above 2 is closed here, in harden(),
 * after every backend's enter() has finished with its own.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_common.h"

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* close_range(lo, hi), or one close() at a time on Linux < 5.9. */
static int close_between(unsigned lo, unsigned hi, char *err, size_t errlen)
{
    if (lo > hi || syscall(SYS_close_range, lo, hi, 0U) == 0)
        return 0;
    if (errno != ENOSYS) {
        snprintf(err, errlen, "cannot close inherited descriptors (close_range): %s", strerror(errno));
        return -1;
    }
    /* up to the hard limit of open descriptors */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (1u << 20))
        rl.rlim_max = 1u << 20;
    for (rlim_t fd = lo; fd <= hi && fd < rl.rlim_max; fd++)
        close((int)fd);
    return 0;
}

int fd_close_except(const int *keep, size_t n, char *err, size_t errlen)
{
    unsigned lo = 3;
    for (size_t i = 0; i < n; i++) { /* keep[] ascending, each >= 3 */
        if (close_between(lo, (unsigned)keep[i] - 1, err, errlen) != 0)
            return -1;
        lo = (unsigned)keep[i] + 1;
    }
    return close_between(lo, ~0U, err, errlen);
}

int fd_close_except_unsorted(int *keep, size_t n, char *err, size_t errlen)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) /* insertion sort, dropping -1 */
        if (keep[i] >= 3) {
            int v = keep[i];
            size_t j = m++;
            for (; j > 0 && keep[j - 1] > v; j--)
                keep[j] = keep[j - 1];
            keep[j] = v;
        }
    return fd_close_except(keep, m, err, errlen);
}
