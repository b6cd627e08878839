/*
 * sandbox_limits.h — the policy's limits on Linux, for both backends
 * (sandbox_limits.c; the top-level README.md, "Limits").
 *
 *   processes    pids.max of the sandbox's cgroup v2 group; without one,
 *                RLIMIT_NPROC counted in the sandbox's own user namespace
 *                (linux-ns, a caller other than root: the kernel exempts
 *                uid 0 of the host; Linux >= 5.14: before, it counts the
 *                caller's every process);
 *   memoryBytes  memory.max of the group (memory.swap.max 0, memory.oom.group 1);
 *   openFiles    RLIMIT_NOFILE of the workload, on any host.
 *
 * A limit none of these can bound here is refused (125) with the cause and
 * the fix.  The group, when there is one, is also the kill switch that ends
 * the whole tree (cgroup.h).
 */
#ifndef HAS_SANDBOX_LIMITS_H
#define HAS_SANDBOX_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "limits/cgroup.h"

struct sandbox_limits {
    struct policy_limits want; /* the policy's */
    bool grouped;              /* `group` was made */
    struct cgroup_group group;
    unsigned long long nproc; /* RLIMIT_NPROC for the workload, 0: none */
    int report_fd;            /* the caller's --refusal-report, or -1 */
};

/* How each limit will be bounded (sandbox_limits_decide): made nothing. */
struct limits_plan {
    struct policy_limits want; /* the policy's */
    bool grouped;              /* a group will be made, in group_dir */
    unsigned controllers;      /* enum cgroup_controller bits it needs */
    char group_dir[PATH_MAX];
    unsigned long long nproc; /* RLIMIT_NPROC for the workload, 0: none */
};

/*
 * prepare()'s decision, and --explain's: the same checks (the hard limit of
 * open files, where a group could be made, a writable root over it), making
 * nothing.  0, or -1 with the launch's refusal in err.
 */
int sandbox_limits_decide(const struct sandbox_ctx *ctx, bool own_userns, bool kill_switch,
                          struct limits_plan *out, char *err, size_t errlen);

/* --explain: one "limit" item per limit, saying how it will be bounded, or
 * the launch's refusal (sandbox_fail). */
enum sandbox_result sandbox_limits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                                           bool own_userns, bool kill_switch);

/*
 * In prepare(): choose how each limit is bounded and make the group.
 * `own_userns`: the workload runs in a user namespace of its own (linux-ns).
 * `kill_switch`: make a group even when no limit needs one, where one can
 * be made (landlock, which has no PID namespace to end its tree).
 * 0, or -1 with err: a limit this host cannot bound.
 */
int sandbox_limits_prepare(struct sandbox_limits *l, const struct sandbox_ctx *ctx, bool own_userns,
                           bool kill_switch, char *err, size_t errlen);

/* The middle process: fork the workload, into the group where there is
 * one (*joined: born in it). */
pid_t sandbox_limits_fork(const struct sandbox_limits *l, bool *joined);

/* The workload, right after its fork: into the group unless `joined`
 * already, the rlimits.  -1 with err. */
int sandbox_limits_enter(const struct sandbox_limits *l, bool joined, char *err, size_t errlen);

/* The group's descriptors the middle process keeps for sandbox_limits_end()
 * (at most CGROUP_KEPT_FDS; the report is kept by broker_init_run itself). */
size_t sandbox_limits_fds(const struct sandbox_limits *l, int *fds);

/* The middle process, once the workload ended: tell the caller which limit
 * the tree reached (stderr, the refusal report's limit-reached), end the
 * tree (the keeper removes the group).  True when the group still held a
 * process, which this kill ended. */
bool sandbox_limits_end(const struct sandbox_limits *l);

#endif
