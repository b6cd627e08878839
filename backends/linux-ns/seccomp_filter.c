/*
 * seccomp_filter.c — THE syscall table of the workload, in one place, each
 * entry with the reason it is there.  Print the generated filter with
 * `happy-agent-supervisor-seccomp-dump` (built in this directory) to audit it.
 *
 * Shape: default ALLOW, a short deny list.  The boundary itself is made of
 * namespaces, mounts and zero capabilities; the filter removes kernel attack
 * surface a coding workload never needs and closes the known escapes that
 * namespaces do not (terminal injection, io_uring carrying socket operations
 * past the filter, nested user namespaces that give capabilities back).
 *
 * Architecture: the filter is built for the native architecture only.
 * libseccomp makes every other AUDIT_ARCH value hit the "bad arch" action,
 * set here to KILL_PROCESS: i386 `int 0x80` on x86_64, compat syscalls on
 * arm64.  x32 shares AUDIT_ARCH_X86_64 and is told apart by bit 0x40000000
 * of the syscall number; libseccomp's x86_64 filter (x32 not added) sends
 * every number with that bit to the bad-arch action as well (checked by the
 * test tests/linux-ns/seccomp.sh, which calls an x32 syscall and expects
 * SIGSYS).
 *
 * Where it is compiled: libseccomp's compilation is the costliest step of
 * harden() (~0.15-0.3 ms).  The namespace init, idle once it has told the
 * workload to go on, compiles the filter while the workload finishes
 * enter() and drops its capabilities, and sends the BPF program
 * (seccomp_export_bpf) through a pipe created before the clone (backend.c;
 * the supervisor compiling it right after clone() competed with the init
 * and the workload for the CPU); the workload reads it in harden() and
 * loads it with seccomp(2)
 * (flags 0 — what seccomp_load() does with libseccomp's default attributes;
 * no_new_privs is already set by caps.c).  The program is exactly what
 * seccomp_load() would have generated from the same table.
 *
 * Errors: EPERM where the operation is refused by policy, ENOSYS where the
 * caller is expected to fall back (io_uring, clone3).
 */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux_ns.h"
#include "seccomp_filter.h"

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

enum rule_when { ALWAYS, NO_LOCAL_BIND };
enum rule_arg {
    ARG_NONE,
    ARG0_HAS_FLAG,   /* (arg0 & value) == value */
    ARG1_LOW32_EQ,   /* (arg1 & 0xffffffff) == value */
};

struct rule {
    const char *name;    /* resolved with seccomp_syscall_resolve_name() */
    int error;           /* errno returned */
    enum rule_arg arg;
    uint64_t value;
    enum rule_when when;
    const char *why;
};

static const struct rule rules[] = {
    /* ---- policy ---- */
    {"bind", EPERM, ARG_NONE, 0, NO_LOCAL_BIND,
     "localBinding: false: no listening endpoint, on any address family"},
    {"listen", EPERM, ARG_NONE, 0, NO_LOCAL_BIND,
     "localBinding: false (a connected socket cannot listen either)"},

    /* ---- io_uring: carries bind/listen/connect/openat as ring opcodes past
     * any syscall filter (IORING_OP_BIND/LISTEN on Linux >= 6.11); ENOSYS so
     * libuv, liburing and Node fall back to ordinary syscalls ---- */
    {"io_uring_setup", ENOSYS, ARG_NONE, 0, ALWAYS, "io_uring bypasses this filter"},
    {"io_uring_enter", ENOSYS, ARG_NONE, 0, ALWAYS, "io_uring bypasses this filter"},
    {"io_uring_register", ENOSYS, ARG_NONE, 0, ALWAYS, "io_uring bypasses this filter"},

    /* ---- terminal input injection: pushing characters into the caller's
     * terminal runs them as commands outside the sandbox once the workload
     * exits (CVE-2017-5226 and its class).  The kernel reads the request as
     * 32 bits, so only the low 32 bits are compared: a request with high
     * bits set must not slip past (CVE-2019-10063) ---- */
    {"ioctl", EPERM, ARG1_LOW32_EQ, TIOCSTI, ALWAYS, "TIOCSTI: inject terminal input"},
    {"ioctl", EPERM, ARG1_LOW32_EQ, TIOCLINUX, ALWAYS, "TIOCLINUX: console selection paste (injection)"},

    /* ---- namespaces: a nested user namespace hands every capability back
     * (within it) and re-opens mount, netfilter, ... attack surface ---- */
    {"unshare", EPERM, ARG0_HAS_FLAG, CLONE_NEWUSER, ALWAYS, "nested user namespace"},
    {"clone", EPERM, ARG0_HAS_FLAG, CLONE_NEWUSER, ALWAYS, "nested user namespace"},
    {"clone3", ENOSYS, ARG_NONE, 0, ALWAYS,
     "flags live in memory a filter cannot read; ENOSYS makes libc fall back to clone"},
    {"setns", EPERM, ARG_NONE, 0, ALWAYS, "joining another namespace"},

    /* ---- mounts: the workload has no capability to mount; refusing the
     * calls outright also removes their parsers from reach ---- */
    {"mount", EPERM, ARG_NONE, 0, ALWAYS, "remount/umount of the policy mounts"},
    {"umount2", EPERM, ARG_NONE, 0, ALWAYS, "unmounting a mask"},
    {"pivot_root", EPERM, ARG_NONE, 0, ALWAYS, "changing the root"},
    {"open_tree", EPERM, ARG_NONE, 0, ALWAYS, "new mount API"},
    {"move_mount", EPERM, ARG_NONE, 0, ALWAYS, "new mount API"},
    {"fsopen", EPERM, ARG_NONE, 0, ALWAYS, "new mount API (filesystem parsers)"},
    {"fsconfig", EPERM, ARG_NONE, 0, ALWAYS, "new mount API"},
    {"fsmount", EPERM, ARG_NONE, 0, ALWAYS, "new mount API"},
    {"fspick", EPERM, ARG_NONE, 0, ALWAYS, "new mount API (reconfigure a mount)"},
    {"mount_setattr", EPERM, ARG_NONE, 0, ALWAYS, "new mount API (clear read-only)"},

    /* ---- never needed by a coding workload; kernel attack surface ---- */
    {"keyctl", EPERM, ARG_NONE, 0, ALWAYS, "kernel keyrings: the caller's keys"},
    {"add_key", EPERM, ARG_NONE, 0, ALWAYS, "kernel keyrings"},
    {"request_key", EPERM, ARG_NONE, 0, ALWAYS, "kernel keyrings (also upcalls to the host)"},
    {"bpf", EPERM, ARG_NONE, 0, ALWAYS, "eBPF verifier attack surface"},
    {"perf_event_open", EPERM, ARG_NONE, 0, ALWAYS, "perf: attack surface and side channels"},
    {"userfaultfd", EPERM, ARG_NONE, 0, ALWAYS, "widens kernel race windows in exploits"},
    {"kexec_load", EPERM, ARG_NONE, 0, ALWAYS, "replacing the kernel"},
    {"kexec_file_load", EPERM, ARG_NONE, 0, ALWAYS, "replacing the kernel"},
    {"init_module", EPERM, ARG_NONE, 0, ALWAYS, "loading kernel code"},
    {"finit_module", EPERM, ARG_NONE, 0, ALWAYS, "loading kernel code"},
    {"delete_module", EPERM, ARG_NONE, 0, ALWAYS, "unloading kernel code"},
    {"process_vm_writev", EPERM, ARG_NONE, 0, ALWAYS,
     "writing another process's memory (ptrace stays for gdb/strace on the workload's own children)"},
    {"open_by_handle_at", EPERM, ARG_NONE, 0, ALWAYS,
     "opens files by handle, bypassing the mount view (the 'shocker' escape)"},
    {"name_to_handle_at", EPERM, ARG_NONE, 0, ALWAYS, "companion of open_by_handle_at"},
    {"acct", EPERM, ARG_NONE, 0, ALWAYS, "process accounting to a file"},
    {"swapon", EPERM, ARG_NONE, 0, ALWAYS, "swap configuration"},
    {"swapoff", EPERM, ARG_NONE, 0, ALWAYS, "swap configuration"},
    {"reboot", EPERM, ARG_NONE, 0, ALWAYS, "rebooting"},
    {"syslog", EPERM, ARG_NONE, 0, ALWAYS, "kernel log: addresses useful to exploits"},
    {"quotactl", EPERM, ARG_NONE, 0, ALWAYS, "quota configuration"},
};

static int add_rule(scmp_filter_ctx f, const struct rule *r, int nr)
{
    uint32_t action = SCMP_ACT_ERRNO((uint32_t)r->error);
    /* Comparisons spelt out in full (not SCMP_A0()/SCMP_A1(), whose
     * expansion leaves fields implicit): (arg & datum_a) == datum_b. */
    struct scmp_arg_cmp cmp = {.op = SCMP_CMP_MASKED_EQ};
    switch (r->arg) {
    case ARG0_HAS_FLAG:
        cmp.arg = 0;
        cmp.datum_a = r->value;
        cmp.datum_b = r->value;
        return seccomp_rule_add_array(f, action, nr, 1, &cmp);
    case ARG1_LOW32_EQ:
        cmp.arg = 1;
        cmp.datum_a = 0xffffffffULL;
        cmp.datum_b = r->value;
        return seccomp_rule_add_array(f, action, nr, 1, &cmp);
    default:
        return seccomp_rule_add_array(f, action, nr, 0, NULL);
    }
}

scmp_filter_ctx seccomp_filter_build(const struct policy *policy, char *err, size_t errlen)
{
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f) {
        snprintf(err, errlen, "cannot create the seccomp filter (seccomp_init)");
        return NULL;
    }
    int rc = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set the seccomp bad-architecture action: %s", strerror(-rc));
        goto fail;
    }
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct rule *r = &rules[i];
        if (r->when == NO_LOCAL_BIND && policy->network.local_binding)
            continue;
        int nr = seccomp_syscall_resolve_name(r->name);
        if (nr == __NR_SCMP_ERROR) {
            snprintf(err, errlen, "seccomp: libseccomp does not know the syscall '%s'; "
                     "rebuild against libseccomp >= 2.5", r->name);
            goto fail;
        }
        if ((rc = add_rule(f, r, nr)) != 0) {
            snprintf(err, errlen, "seccomp: cannot add the rule for %s (%s): %s", r->name, r->why, strerror(-rc));
            goto fail;
        }
    }
    return f;
fail:
    seccomp_release(f);
    return NULL;
}

int seccomp_filter_send(const struct policy *policy, int fd, char *err, size_t errlen)
{
    scmp_filter_ctx f = seccomp_filter_build(policy, err, errlen);
    if (!f)
        return -1;
    int rc = seccomp_export_bpf(f, fd);
    seccomp_release(f);
    if (rc != 0) {
        snprintf(err, errlen, "cannot export the seccomp filter to the sandbox: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

int seccomp_filter_receive(int fd, char *err, size_t errlen)
{
    static struct sock_filter insns[BPF_MAXINSNS];
    size_t got = 0;
    for (;;) {
        ssize_t n = read(fd, (char *)insns + got, sizeof insns - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, errlen, "cannot read the seccomp filter from the supervisor: %s", strerror(errno));
            return -1;
        }
        if (n == 0)
            break;
        got += (size_t)n;
        if (got == sizeof insns)
            break;
    }
    close(fd);
    if (got == 0 || got % sizeof insns[0] != 0 || got == sizeof insns) {
        snprintf(err, errlen, "the supervisor sent no valid seccomp filter (%zu bytes); refusing to run "
                 "the workload unfiltered", got);
        return -1;
    }
    struct sock_fprog prog = {.len = (unsigned short)(got / sizeof insns[0]), .filter = insns};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        snprintf(err, errlen, "cannot install the seccomp filter: %s%s", strerror(errno),
                 errno == EINVAL || errno == ENOSYS
                     ? "; the kernel lacks seccomp filters (CONFIG_SECCOMP_FILTER)" : "");
        return -1;
    }
    return 0;
}
