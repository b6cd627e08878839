/*
 * keyring.c — a fresh session keyring, so that the caller's session keys
 * (Kerberos tickets, ecryptfs, ...) are no longer possessed by the sandbox.
 * The keyctl family is also refused by the seccomp filter; this keeps the
 * keys out of reach of anything that runs before it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_common.h"

#define HAS_KEYCTL_JOIN_SESSION_KEYRING 1

int keyring_join_fresh_session(char *err, size_t errlen)
{
    /* ENOSYS: no keyrings.  EPERM: a filter around the supervisor refuses
     * keyctl (Docker's default profile), and the workload, under the same
     * filter, can reach no key either. */
    if (syscall(SYS_keyctl, HAS_KEYCTL_JOIN_SESSION_KEYRING, NULL) >= 0 || errno == ENOSYS || errno == EPERM)
        return 0;
    snprintf(err, errlen, "cannot join a fresh session keyring (keyctl JOIN_SESSION_KEYRING): %s%s",
             strerror(errno), errno == EDQUOT ? "; the key quota is exhausted (kernel.keys.maxkeys)" : "");
    return -1;
}
