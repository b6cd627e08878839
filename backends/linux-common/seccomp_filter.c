/*
 * seccomp_filter.c — load the workload's seccomp program, last step of
 * harden().
 *
 * The programs were compiled from seccomp_rules.c by libseccomp when the
 * binary was built (seccomp_gen.c); the backend's shape picks one.  They
 * are loaded with seccomp(2) and SECCOMP_FILTER_FLAG_NEW_LISTENER: the
 * descriptor that receives the connect() notifications goes to the broker
 * (connect_broker.c), and the workload must not keep it (it could answer
 * its own).  no_new_privs is already set by caps.c.  A program built for another architecture than the
 * running kernel's would kill the workload at its first syscall (the
 * bad-arch action): a misconfigured cross build fails closed.
 */
#include "config.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_common.h"
#include "seccomp_programs.h"

int seccomp_filter_install(const struct seccomp_shape *shape, int *listener, char *err, size_t errlen)
{
    const struct seccomp_program *p = seccomp_program_for(shape);
    /* The kernel copies the program and never writes through .filter. */
    struct sock_fprog prog = {.len = p->len, .filter = (struct sock_filter *)(uintptr_t)p->insns};
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (fd < 0) {
        snprintf(err, errlen, "cannot install the seccomp filter: %s%s", strerror(errno),
                 errno == EINVAL || errno == ENOSYS
                     ? "; the kernel lacks seccomp filters with user notification (CONFIG_SECCOMP_FILTER, "
                       "Linux >= 5.0)" : "");
        return -1;
    }
    *listener = (int)fd;
    return 0;
}

int seccomp_filter_install_brokered(const struct seccomp_shape *shape, int link, char *err, size_t errlen)
{
    int listener = -1;
    int rc = seccomp_filter_install(shape, &listener, err, errlen);
    /* The broker answers connect() from now on; the workload must not hold
     * the listener (it could answer its own calls). */
    if (rc == 0)
        rc = fd_pass_send(link, 's', listener, err, errlen);
    if (listener >= 0)
        close(listener);
    close(link);
    return rc;
}
