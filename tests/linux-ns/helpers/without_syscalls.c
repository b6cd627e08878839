/*
 * without_syscalls NAME[,NAME...] CMD [ARG...] — run CMD as on a kernel
 * that lacks the named system calls: each fails with ENOSYS for CMD and
 * everything it starts (a seccomp filter, inherited across fork and exec).
 * Lets the tests show what the supervisor does on older kernels: that a
 * protection does not depend on Landlock's scopes (Linux >= 6.12), and
 * that a missing mechanism is refused, not skipped.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: without_syscalls NAME[,NAME...] CMD [ARG...]\n");
        return 2;
    }
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    int rc = f ? 0 : -ENOMEM;
    for (char *save = NULL, *name = strtok_r(argv[1], ",", &save); rc == 0 && name;
         name = strtok_r(NULL, ",", &save)) {
        int nr = seccomp_syscall_resolve_name(name);
        rc = nr == __NR_SCMP_ERROR ? -EINVAL : seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
        if (rc != 0)
            fprintf(stderr, "without_syscalls: %s: %s\n", name, strerror(-rc));
    }
    if (rc == 0)
        rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? seccomp_load(f) : -errno;
    if (rc != 0) {
        fprintf(stderr, "without_syscalls: cannot install the filter: %s\n", strerror(-rc));
        return 2;
    }
    execvp(argv[2], argv + 2);
    fprintf(stderr, "without_syscalls: %s: %s\n", argv[2], strerror(errno));
    return 127;
}
