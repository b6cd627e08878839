/*
 * supervise.h — what the process that stays outside the sandbox does: wait
 * for the child a backend split off, forward termination signals to it, and
 * end exactly as the workload ended (exit N → N, signal S → death by S).
 */
#ifndef HAS_SUPERVISE_H
#define HAS_SUPERVISE_H

#include <signal.h>

#include "backend.h"

void supervise(const struct sandbox_monitor *monitor) __attribute__((noreturn));

/* Terminate this process the way wait status `status` describes. */
void reproduce_status(int status) __attribute__((noreturn));

/* Install handlers that forward SIGHUP, SIGINT, SIGQUIT, SIGTERM and
 * SIGWINCH (sent with kill(2); in supervise(), also the terminal's when the
 * child has its own session) to `pid` (> 0); shared with namespace inits
 * that forward to their own child. */
void forward_signals_to(pid_t pid);

/* Block those signals (*old: the previous mask, to restore with
 * sigprocmask).  The kernel keeps a blocked signal pending even for a
 * process that would drop it (a PID-namespace init without a handler), so a
 * process that gets its handling only later blocks them until then: what
 * arrives meanwhile is delivered, not lost. */
void forwarded_signals_block(sigset_t *old);

#endif
