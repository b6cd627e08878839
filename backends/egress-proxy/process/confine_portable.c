/*
 * confine_portable.c — egress_confine() where there is no seccomp and no
 * libcap-ng: macOS, and the Linux test build of the host-loopback path.
 *
 * What it does: no core dumps; a descriptor limit fit for the connection
 * cap; no debugger (macOS: PT_DENY_ATTACH again,
 * since a forked child starts with fresh flags; Linux test build:
 * PR_SET_DUMPABLE 0, its nearest equivalent); as root, leave root for
 * nobody, so file permissions bind it; make sure the supervisor is still
 * there (there is no PR_SET_PDEATHSIG on macOS: the loop ends instead when
 * the control socket reports end of stream, which the kernel delivers
 * however the supervisor ends).
 *
 * macOS, last: its own Seatbelt profile (egress_sbpl.c, unverified without
 * a Mac): no exec, no fork, no file writes, no IPC but name resolution;
 * outbound TCP anywhere and accept on its loopback front-ends.
 *
 * What remains either way: it reaches any address the host can -- the
 * destination policy is enforced by its own code.  In the Linux test build
 * no profile applies, so there it could also exec, fork and write files
 * with its uid's rights; that build is never a release.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <sys/ptrace.h>
#elif defined(__linux__)
#include <sys/prctl.h>
#endif

#include "process/confine.h"
#include "process/egress_sbpl.h"

static int failf(char *err, size_t errlen, const char *what, int e)
{
    snprintf(err, errlen, "%s: %s", what, strerror(e));
    return -1;
}

static int deny_debugger(char *err, size_t errlen)
{
#if defined(__APPLE__)
    if (ptrace(PT_DENY_ATTACH, 0, 0, 0) != 0)
        return failf(err, errlen, "ptrace PT_DENY_ATTACH", errno);
#elif defined(__linux__)
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        return failf(err, errlen, "prctl PR_SET_DUMPABLE", errno);
#else
    (void)err;
    (void)errlen;
#endif
    return 0;
}

/* As root, become nobody (looked up, not assumed: -2 on macOS, 65534 on
 * most Linux systems).  Without such an account, or where it is not
 * mapped, the process stays as it is. */
static int leave_root(char *err, size_t errlen)
{
    if (geteuid() != 0)
        return 0;
    struct passwd *pw = getpwnam("nobody");
    if (!pw)
        return 0;
    uid_t uid = pw->pw_uid;
    gid_t gid = pw->pw_gid;
    if (setgroups(0, NULL) != 0 && errno != EPERM)
        return failf(err, errlen, "setgroups", errno);
    /* EINVAL: the account is not mapped here (a Linux user namespace, as in
     * a build root): the same as not having it, as confine.c decides. */
    if (setgid(gid) != 0)
        return errno == EINVAL ? 0 : failf(err, errlen, "setgid(nobody)", errno);
    if (setuid(uid) != 0)
        return errno == EINVAL ? 0 : failf(err, errlen, "setuid(nobody)", errno);
    if (uid != 0 && setuid(0) == 0) /* must be irreversible */
        return failf(err, errlen, "root could be regained after setuid(nobody)", EPERM);
    return 0;
}

/* The connection cap follows the descriptor limit, and macOS starts
 * processes with a soft limit of 256 (32 tunnels).  Raise it towards the
 * hard limit; macOS refuses more than kern.maxfilesperproc, so OPEN_MAX
 * (10240) is tried next.  Failing both only lowers the cap. */
static void raise_descriptor_limit(void)
{
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) != 0)
        return;
    static const rlim_t wanted[] = {65536, 10240};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        rlim_t want = files.rlim_max < wanted[i] ? files.rlim_max : wanted[i];
        if (want <= files.rlim_cur)
            return;
        struct rlimit r = {want, files.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &r) == 0)
            return;
    }
}

int egress_confine(pid_t parent, char *err, size_t errlen)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0)
        return failf(err, errlen, "setrlimit RLIMIT_CORE", errno);
    raise_descriptor_limit();
    if (leave_root(err, errlen) != 0)
        return -1;
    /* After the credential change, which resets Linux's dumpable flag. */
    if (deny_debugger(err, errlen) != 0)
        return -1;
    if (getppid() != parent) {
        snprintf(err, errlen, "the supervisor ended while the egress process started");
        return -1;
    }
    /* Last: the profile forbids what the steps above needed. */
    return egress_sbpl_apply(err, errlen);
}
