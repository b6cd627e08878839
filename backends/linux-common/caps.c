/*
 * caps.c — the workload holds no capability at all, in any set, and cannot
 * regain one.
 *
 *  1. securebits, locked: SECBIT_NOROOT (uid 0 — which the caller is inside
 *     the user namespace — gets no capabilities from execve), and
 *     SECBIT_NO_SETUID_FIXUP, SECBIT_KEEP_CAPS off, no ambient raise; each
 *     with its _LOCKED bit so the workload cannot undo them.  Needs
 *     CAP_SETPCAP, so it comes first.
 *  2. the bounding set emptied with PR_CAPBSET_DROP (what libcap-ng would
 *     call, without its three /proc/PID/status reads, ~0.2 ms), then
 *     libcap-ng: clear effective, permitted, inheritable and ambient sets
 *     and apply them (capset, PR_CAP_AMBIENT_CLEAR_ALL); then ask the kernel
 *     directly that all five are empty (capget, PR_CAPBSET_READ and
 *     PR_CAP_AMBIENT_IS_SET for every capability it knows: a few dozen
 *     trivial calls, where a second capng_get_caps_process() would parse
 *     /proc/PID/status twice, ~10 us each).
 *  3. PR_SET_NO_NEW_PRIVS: setuid/setgid bits and file capabilities are
 *     ignored by execve from now on (also required by Landlock and seccomp).
 *
 * A caller without CAP_SETPCAP (an ordinary user, with no namespace around
 * it: the landlock backend) can neither lock securebits nor shrink its
 * bounding set, and has nothing for them to protect: its effective,
 * permitted, inheritable and ambient sets are emptied and checked, and
 * under no_new_privs execve grants nothing from the bounding set (not to
 * uid 0 either: the kernel keeps the new permitted set within the old).
 */
#include "config.h"

#include <cap-ng.h>
#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_common.h"

#ifndef SECBIT_NO_CAP_AMBIENT_RAISE
#define SECBIT_NO_CAP_AMBIENT_RAISE (1 << 6)
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED (1 << 7)
#endif

/* Every capability set of this thread is empty, as the kernel reports it
 * (the bounding set too, if `bounding`).  The PR_*_READ loops stop at the
 * first number the kernel does not know. */
static bool all_sets_empty(bool bounding)
{
    struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &hdr, data) != 0)
        return false;
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
        if (data[i].effective || data[i].permitted || data[i].inheritable)
            return false;
    int cap, r;
    for (cap = 0; (r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0; cap++)
        if (r != 0 && bounding)
            return false;
    if (cap == 0)
        return false; /* PR_CAPBSET_READ itself failed */
    for (int c = 0; c < cap; c++)
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c, 0, 0) != 0)
            return false; /* raised, or unknown (< 4.3: no ambient set, fail closed) */
    return true;
}

/* CAP_SETPCAP in this thread's effective set (capget: no /proc parsing). */
static bool have_setpcap(void)
{
    struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    return syscall(SYS_capget, &hdr, data) == 0 &&
           (data[CAP_TO_INDEX(CAP_SETPCAP)].effective & CAP_TO_MASK(CAP_SETPCAP));
}

/* With CAP_SETPCAP: securebits locked, then all five sets emptied. */
static int drop_with_setpcap(char *err, size_t errlen)
{
    unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                         SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                         SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot lock the securebits (PR_SET_SECUREBITS): %s", strerror(errno));
        return -1;
    }
    /* The bounding set by the kernel call libcap-ng makes for it, one
     * PR_CAPBSET_DROP per capability the kernel knows: capng_apply() with
     * CAPNG_SELECT_BOUNDS first reads /proc/PID/status three times. */
    int cap, r;
    for (cap = 0; (r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0; cap++)
        if (r == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            snprintf(err, errlen, "cannot drop capability %d from the bounding set (PR_CAPBSET_DROP): %s",
                     cap, strerror(errno));
            return -1;
        }
    capng_clear(CAPNG_SELECT_CAPS | CAPNG_SELECT_AMBIENT);
    if (capng_apply(CAPNG_SELECT_CAPS | CAPNG_SELECT_AMBIENT) != 0) {
        snprintf(err, errlen, "cannot drop every capability (libcap-ng capng_apply)");
        return -1;
    }
    return 0;
}

/* Without it: the sets it may empty (the bounding set stays, see above). */
static int drop_without_setpcap(char *err, size_t errlen)
{
    capng_clear(CAPNG_SELECT_CAPS);
    if (capng_apply(CAPNG_SELECT_CAPS) != 0 ||
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) {
        snprintf(err, errlen,
                 "cannot drop every capability (libcap-ng capng_apply, PR_CAP_AMBIENT_CLEAR_ALL)");
        return -1;
    }
    return 0;
}

int caps_drop_all(char *err, size_t errlen)
{
    /* libcap-ng keeps the thread id it first saw and renews it in a
     * pthread_atfork() handler, which a process made by clone(2) or
     * clone3(2) directly (linux-ns's init, a workload born in its cgroup)
     * never ran: capng_apply() would name its parent to capset(2). */
    capng_setpid((int)syscall(SYS_gettid));
    bool setpcap = have_setpcap();
    if ((setpcap ? drop_with_setpcap : drop_without_setpcap)(err, errlen) != 0)
        return -1;
    if (!all_sets_empty(setpcap)) {
        snprintf(err, errlen, "capabilities remain after dropping them all; refusing");
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot set no_new_privs (PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
        return -1;
    }
    return 0;
}
