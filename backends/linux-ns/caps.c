/*
 * caps.c — the workload holds no capability at all, in any set, and cannot
 * regain one.
 *
 *  1. securebits, locked: SECBIT_NOROOT (uid 0 — which the caller is inside
 *     the user namespace — gets no capabilities from execve), and
 *     SECBIT_NO_SETUID_FIXUP, SECBIT_KEEP_CAPS off, no ambient raise; each
 *     with its _LOCKED bit so the workload cannot undo them.  Needs
 *     CAP_SETPCAP, so it comes first.
 *  2. libcap-ng: clear effective, permitted, inheritable, bounding and
 *     ambient sets and apply them all (CAPNG_SELECT_ALL).
 *  3. PR_SET_NO_NEW_PRIVS: setuid/setgid bits and file capabilities are
 *     ignored by execve from now on (also required by Landlock and seccomp).
 */
#include "config.h"

#include <cap-ng.h>
#include <errno.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "linux_ns.h"

#ifndef SECBIT_NO_CAP_AMBIENT_RAISE
#define SECBIT_NO_CAP_AMBIENT_RAISE (1 << 6)
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED (1 << 7)
#endif

int caps_drop_all(char *err, size_t errlen)
{
    unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
                         SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                         SECBIT_KEEP_CAPS_LOCKED |
                         SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot lock the securebits (PR_SET_SECUREBITS): %s", strerror(errno));
        return -1;
    }
    capng_clear(CAPNG_SELECT_ALL);
    if (capng_apply(CAPNG_SELECT_ALL) != 0) {
        snprintf(err, errlen, "cannot drop every capability (libcap-ng capng_apply)");
        return -1;
    }
    capng_get_caps_process();
    if (capng_have_capabilities(CAPNG_SELECT_CAPS) != CAPNG_NONE) {
        snprintf(err, errlen, "capabilities remain after dropping them all; refusing");
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot set no_new_privs (PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
        return -1;
    }
    return 0;
}
