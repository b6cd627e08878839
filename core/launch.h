/*
 * launch.h — the sequence of backend.h: coverage check, prepare, enter,
 * harden, exec.
 */
#ifndef HAS_LAUNCH_H
#define HAS_LAUNCH_H

#include <stddef.h>

#include "backend_set.h"
#include "policy.h"

/* Never returns: the target is exec'd, the workload's status reproduced, or
 * the run stops with 125.  report_fd: --refusal-report's descriptor, or -1. */
void launch(const struct policy *policy, const struct backend_set *backends,
            char *const *argv, char **env, size_t env_count, int report_fd) __attribute__((noreturn));

/* The enforcement bits `policy` needs (enum sandbox_enforcement). */
unsigned policy_required_enforcement(const struct policy *policy);

#endif
