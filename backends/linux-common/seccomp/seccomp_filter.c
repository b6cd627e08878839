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
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_common.h"
#include "seccomp/seccomp_programs.h"

/*
 * The shared-host shape's guard: every call numbered from FIRST_UNTABLED on
 * fails with ENOSYS.  Those are newer than this table (setxattrat,
 * removexattrat, open_tree_attr, file_setattr, ... from Linux 6.13 on), and
 * some change what the boundary must keep (attributes by struct, mounts);
 * the libseccomp of a build machine may not know them, so no rule of the
 * table can name them.  Since Linux 5.1 a new call has the same number on
 * every architecture.  A call of another ABI is left to the main filter,
 * which kills it; of two filters the stricter answer wins.
 */
#define FIRST_UNTABLED 463 /* setxattrat */
#if defined(__x86_64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

static int install_newer_call_guard(char *err, size_t errlen)
{
#ifdef THIS_AUDIT_ARCH
    struct sock_filter insns[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, FIRST_UNTABLED, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof insns / sizeof insns[0], .filter = insns};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0)
        return 0;
    snprintf(err, errlen, "cannot install the seccomp guard for calls newer than the table: %s",
             strerror(errno));
    return -1;
#else
    snprintf(err, errlen, "no seccomp guard for this architecture; the shared-host shape needs one");
    return -1;
#endif
}

int seccomp_filter_install(const struct seccomp_shape *shape, int *listener, char *err, size_t errlen)
{
    if (shape->shared_host && install_newer_call_guard(err, errlen) != 0)
        return -1;
    const struct seccomp_program *p = seccomp_program_for(shape);
    /* The kernel copies the program and never writes through .filter. */
    struct sock_fprog prog = {.len = p->len, .filter = (struct sock_filter *)(uintptr_t)p->insns};
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    if (fd < 0) {
        snprintf(err, errlen, "cannot install the seccomp filter: %s%s", strerror(errno),
                 errno == EINVAL || errno == ENOSYS
                     ? "; the kernel lacks seccomp filters with user notification (CONFIG_SECCOMP_FILTER, "
                       "Linux >= 5.0)"
                     : "");
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
    return rc;
}
