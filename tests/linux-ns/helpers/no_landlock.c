/*
 * no_landlock CMD [ARG...] — run CMD as on a kernel without Landlock:
 * landlock_create_ruleset() fails with ENOSYS for it and everything it
 * starts (a seccomp filter, inherited across fork and exec).  Lets the
 * tests show that a protection does not depend on Landlock's scopes
 * (Linux >= 6.12), which most users' kernels do not have.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_landlock CMD [ARG...]\n");
        return 2;
    }
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    int rc = f ? seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_create_ruleset), 0) : -ENOMEM;
    if (rc == 0)
        rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? seccomp_load(f) : -errno;
    if (rc != 0) {
        fprintf(stderr, "no_landlock: cannot install the filter: %s\n", strerror(-rc));
        return 2;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_landlock: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
