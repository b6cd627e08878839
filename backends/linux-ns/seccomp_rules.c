/*
 * seccomp_rules.c — THE syscall table of the workload, in one place, each
 * entry with the reason it is there, and its compilation by libseccomp.
 * Print the filter with `happy-agent-supervisor-seccomp-dump` (built in this
 * directory) to audit it.
 *
 * Shape: default ALLOW, a short deny list.  The boundary itself is made of
 * namespaces, mounts and zero capabilities; the filter removes kernel attack
 * surface a coding workload never needs and closes the known escapes that
 * namespaces do not (terminal injection, io_uring carrying socket operations
 * past the filter, nested user namespaces that give capabilities back).
 *
 * Architecture: the filter names one architecture, the one the supervisor is
 * built for.  libseccomp makes every other AUDIT_ARCH value hit the "bad
 * arch" action, set here to KILL_PROCESS: i386 `int 0x80` on x86_64, compat
 * syscalls on arm64.  x32 shares AUDIT_ARCH_X86_64 and is told apart by bit
 * 0x40000000 of the syscall number; libseccomp's x86_64 filter (x32 not
 * added) sends every number with that bit to the bad-arch action as well
 * (checked by tests/linux-ns/seccomp.sh, which calls an x32 syscall and
 * expects SIGSYS).
 *
 * When it is compiled: at build time (seccomp_gen.c writes the programs into
 * the binary; seccomp_filter.c loads them).  The table depends on one policy
 * bit (localBinding), so there are two programs, and compiling them in every
 * launch cost 0.2-0.3 ms of CPU under musl's allocator for a result that
 * never changes.  The values below (TIOCSTI, CLONE_NEWUSER) are taken from
 * the headers of the compiler that builds the generator; they are the same
 * on every architecture the build supports (configure.ac).
 *
 * Errors: EPERM where the operation is refused by policy, ENOSYS where the
 * caller is expected to fall back (io_uring, clone3).
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "seccomp_rules.h"

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

/* A filter that names `arch` only: libseccomp starts from the architecture
 * it was built for, which a cross build's generator does not run on. */
static int select_arch(scmp_filter_ctx f, uint32_t arch, char *err, size_t errlen)
{
    if (arch == SCMP_ARCH_NATIVE || arch == seccomp_arch_native())
        return 0;
    int rc = seccomp_arch_add(f, arch);
    if (rc == 0)
        rc = seccomp_arch_remove(f, SCMP_ARCH_NATIVE);
    if (rc != 0)
        snprintf(err, errlen, "seccomp: cannot build the filter for architecture 0x%x: %s", arch, strerror(-rc));
    return rc;
}

/* libseccomp's API level 3: SCMP_ACT_KILL_PROCESS (Linux >= 4.14; the
 * sandbox needs >= 5.11 anyway).  Pinned rather than probed: the program is
 * built once, on a build machine whose kernel (a container's, qemu-user's)
 * may answer the probes differently from the kernels the binary will meet. */
#define SECCOMP_RULES_API_LEVEL 3

scmp_filter_ctx seccomp_rules_build(bool local_binding, uint32_t arch, char *err, size_t errlen)
{
    int rc = seccomp_api_set(SECCOMP_RULES_API_LEVEL);
    if (rc != 0) {
        snprintf(err, errlen, "seccomp: cannot select libseccomp API level %d: %s", SECCOMP_RULES_API_LEVEL,
                 strerror(-rc));
        return NULL;
    }
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f) {
        snprintf(err, errlen, "cannot create the seccomp filter (seccomp_init)");
        return NULL;
    }
    rc = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set the seccomp bad-architecture action: %s", strerror(-rc));
        goto fail;
    }
    if (select_arch(f, arch, err, errlen) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct rule *r = &rules[i];
        if (r->when == NO_LOCAL_BIND && local_binding)
            continue;
        /* Resolved for the generator's own architecture: libseccomp
         * translates the number to `arch` by name when it adds the rule. */
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

int seccomp_rules_export(scmp_filter_ctx f, unsigned char **prog, size_t *len, char *err, size_t errlen)
{
    /* libseccomp 2.5 exports to a descriptor only. */
    FILE *tmp = tmpfile();
    if (!tmp) {
        snprintf(err, errlen, "seccomp: cannot create a temporary file for the program: %s", strerror(errno));
        return -1;
    }
    int rc = seccomp_export_bpf(f, fileno(tmp));
    /* It wrote through the descriptor: the FILE's position knows nothing. */
    long size = rc == 0 && fseek(tmp, 0, SEEK_END) == 0 ? ftell(tmp) : -1;
    if (rc != 0 || size <= 0) {
        snprintf(err, errlen, "seccomp: cannot export the program: %s", strerror(rc ? -rc : EIO));
        fclose(tmp);
        return -1;
    }
    *prog = malloc((size_t)size);
    rewind(tmp);
    if (!*prog || fread(*prog, 1, (size_t)size, tmp) != (size_t)size) {
        snprintf(err, errlen, "seccomp: cannot read the exported program back");
        free(*prog);
        *prog = NULL;
        fclose(tmp);
        return -1;
    }
    fclose(tmp);
    *len = (size_t)size;
    return 0;
}
