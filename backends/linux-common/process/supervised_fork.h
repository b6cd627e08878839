/*
 * supervised_fork.h — the one process sequence of both Linux backends:
 *
 *   supervisor ──split──► middle process ──fork──► workload
 *
 * The supervisor stays outside and waits (SANDBOX_SUPERVISE); the middle
 * process (linux-ns's PID-namespace init, landlock's broker process) sets
 * itself up, forks the workload, and lives as broker_init_run() until the
 * workload ends; the workload returns SANDBOX_OK from enter() towards the
 * other backends and harden().  What differs between the backends is in
 * `struct supervised_fork`; the order, the signal blocking, the status
 * pipe, the socket pair and which process closes which descriptor are
 * here, once.
 */
#ifndef HAS_SUPERVISED_FORK_H
#define HAS_SUPERVISED_FORK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backend.h"

struct connect_rules;
struct sandbox_limits;

struct supervised_fork {
    /* The backend's name, the prefix of what the children print (the
     * core adds it to the supervisor's own messages). */
    const char *backend;
    /* What messages call the middle process ("init", "broker"). */
    const char *middle;
    /*
     * The middle process is the init of a PID namespace: when it exits the
     * kernel kills the workload and all it left.  Otherwise (false) the
     * workload dies with it (PR_SET_PDEATHSIG), and it kills what the
     * workload left before it reports (it must have made itself the
     * subreaper in setup()).
     */
    bool pid_namespace;
    /* Split the supervisor with fork(2) semantics: the child's pid, 0 in
     * the child, or -1 with err set.  NULL: a plain fork(). */
    pid_t (*split)(char *err, size_t errlen);
    /* The middle process before the workload exists, what both inherit:
     * die with `supervisor`, a session of its own (the monitor says
     * own_session), a fresh keyring.  Prints and exits 125 on failure. */
    void (*setup)(pid_t supervisor);
    /* The middle once the workload exists, the forwarded signals still
     * blocked: finish the sandbox over `link`.  NULL: nothing to finish. */
    void (*build)(const struct sandbox_ctx *ctx, int link);
    /* What the middle lets the workload connect() to; must outlive it. */
    const struct connect_rules *rules;
    /* The policy's limits as prepare() set them up (sandbox_limits.h): the
     * workload enters them right after its fork, the middle reports and
     * ends them.  NULL: none. */
    const struct sandbox_limits *limits;
};

/*
 * Run the sequence from enter().  In the supervisor: SANDBOX_SUPERVISE with
 * ctx->monitor filled, or SANDBOX_FAIL with ctx's error set.  In the
 * workload: SANDBOX_OK with the forwarded signals as the caller had them
 * and *link its end of the socket pair to the middle process (for the
 * seccomp listener, tag 's').  The middle process never returns.
 */
enum sandbox_result supervised_fork(struct sandbox_ctx *ctx, const struct supervised_fork *sf, int *link);

/* Die with `parent` (SIGKILL), which must still be the one we were forked
 * by; `who` names this process in the message. */
void supervised_fork_tie_to_parent(const char *backend, pid_t parent, const char *who);

#endif
