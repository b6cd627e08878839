/*
 * supervised_fork.c — supervisor → middle process → workload, for linux-ns
 * and landlock (supervised_fork.h).
 *
 * Signals.  SIGTERM & co. from the caller must reach the workload whenever
 * they come.  They are blocked from before the split until each process is
 * ready for them, and a blocked signal stays pending: the supervisor
 * unblocks right after the split (until supervise() forwards them, one of
 * them simply kills it, and the middle with it: PDEATHSIG, or linux-ns's
 * lifeline check); the middle once its forwarding handler is installed and
 * build() is done (a PID-namespace init drops signals it has no handler
 * for, and a handler running earlier would interrupt its setup calls); the
 * workload right after the fork, with the caller's dispositions, which
 * nothing before changed (an ignored SIGHUP under nohup stays ignored).
 *
 * Descriptors.  The status pipe and the socket pair are made before the
 * split, close-on-exec, and each process closes at once the ends it does
 * not use: the supervisor keeps status[0]; the middle status[1] and
 * link[0] (broker_init_run() then closes everything else it inherited);
 * the workload link[1] (its harden() closes everything else).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "limits/sandbox_limits.h"
#include "limits/shared_rlimits.h"
#include "linux_common.h"
#include "process/supervised_fork.h" /* and backend.h: diag_fatal(), the signal forwarding */

/* The two channels of the sequence, ends as pipe2() and socketpair() give them. */
struct channels {
    int status[2]; /* the middle writes the workload's wait status to [1], the supervisor reads [0] */
    int link[2];   /* [0] the middle's end, [1] the workload's */
};

static int open_channels(struct sandbox_ctx *ctx, const struct supervised_fork *sf, struct channels *ch)
{
    if (pipe2(ch->status, O_CLOEXEC) != 0) {
        sandbox_fail(ctx, "cannot create the status pipe: %s", strerror(errno));
        return -1;
    }
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch->link) != 0) {
        sandbox_fail(ctx, "cannot create the %s/workload socket pair: %s", sf->middle, strerror(errno));
        close(ch->status[0]);
        close(ch->status[1]);
        return -1;
    }
    return 0;
}

/* The backend's split, or a plain fork(). */
static pid_t split(const struct supervised_fork *sf, char *err, size_t errlen)
{
    if (sf->split)
        return sf->split(err, errlen);
    pid_t pid = fork();
    if (pid < 0)
        snprintf(err, errlen, "cannot fork the %s process: %s", sf->middle, strerror(errno));
    return pid;
}

/* The supervisor after the split (`pid` < 0: it failed with `err`). */
static enum sandbox_result supervisor_side(struct sandbox_ctx *ctx, const struct supervised_fork *sf,
                                           pid_t pid, const struct channels *ch, const char *err)
{
    close(ch->status[1]);
    close(ch->link[0]);
    close(ch->link[1]);
    if (pid < 0) {
        close(ch->status[0]);
        return sandbox_fail(ctx, "%s", err);
    }
    /* own_session: every setup() gives the middle a session of its own. */
    ctx->monitor = (struct sandbox_monitor){.pid = pid,
                                            .status_fd = ch->status[0],
                                            .own_session = true,
                                            .backend = sf->backend,
                                            .role = sf->middle};
    return SANDBOX_SUPERVISE;
}

/* The middle process once the workload exists; never returns. */
__attribute__((noreturn)) static void middle_main(const struct sandbox_ctx *ctx,
                                                  const struct supervised_fork *sf, pid_t workload,
                                                  const struct channels *ch, const sigset_t *unblocked)
{
    close(ch->link[1]);
    forward_signals_to(workload);
    /* Still blocked: what arrives now stays pending for the handler. */
    if (sf->build)
        sf->build(ctx, ch->link[0]);
    sigprocmask(SIG_SETMASK, unblocked, NULL);
    broker_init_run(workload, ch->status[1], ch->link[0], sf->rules, !sf->pid_namespace, ctx->report_fd,
                    sf->limits);
}

/* The workload right after the fork. */
static void workload_side(const struct supervised_fork *sf, pid_t middle, bool joined,
                          const struct channels *ch, const sigset_t *unblocked)
{
    /* Without a PID namespace nothing kills it when the middle dies. */
    if (!sf->pid_namespace)
        supervised_fork_tie_to_parent(sf->backend, middle, "workload");
    /* Into the group before it can fork anything. */
    char err[SANDBOX_ERROR_MAX];
    if (sf->limits && sandbox_limits_enter(sf->limits, joined, err, sizeof err) != 0)
        diag_fatal("%s: %s", sf->backend, err);
    sigprocmask(SIG_SETMASK, unblocked, NULL);
    close(ch->link[0]);
    close(ch->status[1]);
}

enum sandbox_result supervised_fork(struct sandbox_ctx *ctx, const struct supervised_fork *sf, int *link)
{
    /* Before the split: the middle, the workload and linux-ns's user
     * namespace all get the halves (shared_rlimits.c says why). */
    char err[SANDBOX_ERROR_MAX];
    if (shared_rlimits_apply(err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s: %s", sf->backend, err);
    struct channels ch;
    if (open_channels(ctx, sf, &ch) != 0)
        return SANDBOX_FAIL;
    sigset_t unblocked;
    forwarded_signals_block(&unblocked);
    pid_t supervisor = getpid(), pid = split(sf, err, sizeof err);
    if (pid != 0) {
        sigprocmask(SIG_SETMASK, &unblocked, NULL);
        return supervisor_side(ctx, sf, pid, &ch, err);
    }
    close(ch.status[0]);
    sf->setup(supervisor);
    bool joined = false;
    pid_t middle = getpid(), workload = sf->limits ? sandbox_limits_fork(sf->limits, &joined) : fork();
    if (workload < 0)
        diag_fatal("%s: cannot fork the workload: %s", sf->backend, strerror(errno));
    if (workload > 0)
        middle_main(ctx, sf, workload, &ch, &unblocked);
    workload_side(sf, middle, joined, &ch, &unblocked);
    *link = ch.link[1];
    return SANDBOX_OK;
}

void supervised_fork_tie_to_parent(const char *backend, pid_t parent, const char *who)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
        diag_fatal("%s: cannot tie the %s to its parent (PR_SET_PDEATHSIG): %s", backend, who,
                   strerror(errno));
    if (getppid() != parent)
        _exit(HAS_EXIT_FAILURE); /* the parent died before PDEATHSIG */
}
