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

/* Install handlers that forward SIGHUP, SIGINT, SIGQUIT and SIGTERM (sent
 * with kill(2)) to `pid`; shared with namespace inits that forward to their
 * own child.  With pid 0 they are held instead, and the last one held goes
 * to the process a later call names: for a process that will have a target
 * only later and must not lose what comes meanwhile (a PID-namespace init
 * without a handler silently drops such signals). */
void forward_signals_to(pid_t pid);

/* Block those signals (*old: the previous mask, to restore with
 * sigprocmask): around a clone()/fork() whose child must install its own
 * handling first, so that what arrives in between stays pending. */
void forwarded_signals_block(sigset_t *old);

/* Put back the dispositions this process had before it first forwarded (in
 * a child that must not forward: the workload forked by an init). */
void forwarded_signals_restore(void);

#endif
