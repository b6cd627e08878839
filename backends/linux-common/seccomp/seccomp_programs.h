/* seccomp_programs.h — the workload's seccomp programs, compiled from
 * seccomp_rules.c at build time (seccomp_gen.c writes seccomp_programs.c),
 * one per shape of sandbox. */
#ifndef HAS_LINUX_COMMON_SECCOMP_PROGRAMS_H
#define HAS_LINUX_COMMON_SECCOMP_PROGRAMS_H

#include <linux/filter.h>
#include <stdbool.h>

/* The network around the workload, as far as the filter is concerned. */
enum seccomp_net {
    /* A network of the sandbox's own (linux-ns), or the host's granted
     * whole (egress: true): sockets of AF_UNIX, AF_INET, AF_INET6 and
     * AF_NETLINK, every other family refused (seccomp_rules.c). */
    SECCOMP_NET_OWN,
    /* The host's network, reachable only through TCP to the proxy (the
     * broker checks where each connect() goes): AF_UNIX and TCP sockets
     * only, and no connect hidden in sendto (TCP Fast Open). */
    SECCOMP_NET_TCP_ONLY,
    /* The host's network and none of it: AF_UNIX sockets only. */
    SECCOMP_NET_NONE,
    SECCOMP_NET_COUNT
};

struct seccomp_shape {
    bool local_binding; /* false: bind(2) and listen(2) refused */
    enum seccomp_net net;
    /* truncate(2) by path refused: a Landlock without its TRUNCATE right
     * (ABI < 3) does not mediate it.  (ftruncate needs a descriptor opened
     * for writing, which the ruleset did mediate.) */
    bool refuse_path_truncate;
    /* No namespace around the workload (landlock): it shares the host's
     * files, processes and IPC.  chmod, chown, utimes and xattr calls,
     * which Landlock does not mediate, go to the broker (meta_broker.c);
     * limits, priorities and scheduling of other processes, and SysV and
     * POSIX IPC (the host's), are refused. */
    bool shared_host;
};

struct seccomp_program {
    const struct sock_filter *insns;
    unsigned short len;
};

/* Every shape's program: [local_binding][net][refuse_path_truncate][shared_host]. */
extern const struct seccomp_program seccomp_programs[2][SECCOMP_NET_COUNT][2][2];

static inline const struct seccomp_program *seccomp_program_for(const struct seccomp_shape *s)
{
    return &seccomp_programs[s->local_binding][s->net][s->refuse_path_truncate][s->shared_host];
}

#endif
