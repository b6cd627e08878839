/*
 * supervise.h — what the process that stays outside the sandbox does: wait
 * for the child a backend split off, forward termination signals to it, and
 * end exactly as the workload ended (exit N → N, signal S → death by S),
 * after saying so in the caller's report.
 */
#ifndef HAS_SUPERVISE_H
#define HAS_SUPERVISE_H

#include "backend.h"

/* report_fd: the caller's report (backend.h), which gets the
 * workload-ended line once the status is known, or -1. */
void supervise(const struct sandbox_monitor *monitor, int report_fd) __attribute__((noreturn));

/* Terminate this process the way wait status `status` describes. */
void reproduce_status(int status) __attribute__((noreturn));

/* forward_signals_to() and forwarded_signals_block() are declared in
 * backend.h: backends call them too. */

#endif
