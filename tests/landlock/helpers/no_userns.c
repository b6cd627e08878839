/*
 * no_userns CMD [ARG...] — run CMD as on a host whose container runtime
 * refuses user namespaces, the way Docker's default seccomp profile does:
 * unshare(2) and clone(2) with CLONE_NEWUSER fail with EPERM, clone3(2)
 * with ENOSYS (its flags are out of a filter's reach, so libc falls back to
 * clone).  Inherited by everything CMD starts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_userns CMD [ARG...]\n");
        return 2;
    }
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    /* As Docker's profile: the 32-bit ABIs stay usable (the supervisor's
     * own filter is what must refuse them). */
#if defined(__x86_64__)
    if (f && (seccomp_arch_add(f, SCMP_ARCH_X86) != 0 || seccomp_arch_add(f, SCMP_ARCH_X32) != 0)) {
        fprintf(stderr, "no_userns: cannot add the 32-bit ABIs\n");
        return 2;
    }
#elif defined(__aarch64__)
    if (f && seccomp_arch_add(f, SCMP_ARCH_ARM) != 0) {
        fprintf(stderr, "no_userns: cannot add the 32-bit ABI\n");
        return 2;
    }
#endif
    struct scmp_arg_cmp newuser = {
        .arg = 0, .op = SCMP_CMP_MASKED_EQ, .datum_a = CLONE_NEWUSER, .datum_b = CLONE_NEWUSER};
    int rc = f ? 0 : -ENOMEM;
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1, newuser);
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, newuser);
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0)
        rc = seccomp_load(f); /* sets no_new_privs itself for an ordinary user */
    if (rc != 0) {
        fprintf(stderr, "no_userns: cannot install the filter: %s\n", strerror(-rc));
        return 2;
    }
    seccomp_release(f);
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_userns: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
