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
void launch(const struct policy *policy, const struct backend_set *backends, char *const *argv, char **env,
            size_t env_count, int report_fd) __attribute__((noreturn));

/* The launch's first check: every restriction the policy asks for is
 * enforced by a backend of the set, whose needs are met.  0, or -1 with
 * the launch's message in err. */
int launch_check_coverage(const struct policy *policy, const struct backend_set *set, char *err,
                          size_t errlen);

/* The working directory held by descriptor, and its name, before anything
 * else (main() calls it before reading the policy; launch_ctx_init() does
 * if nothing did).  Exits 125 when it cannot be opened or named. */
void launch_hold_working_directory(void);

/* The context of a launch (or of --explain, argv NULL, report_fd -1):
 * the working directory into cwd[cwd_size] (or exit 125 naming why), the
 * environment, no monitor yet, the set's other boundaries. */
struct sandbox_ctx;
void launch_ctx_init(struct sandbox_ctx *ctx, const struct policy *policy, const struct backend_set *backends,
                     char *const *argv, char *cwd, size_t cwd_size, char **env, size_t env_count,
                     int report_fd);

/* The set's other boundaries as ctx->alternatives spells them. */
void launch_other_boundaries(const struct backend_set *set, char *out, size_t size);

/* The enforcement bits `policy` needs (enum sandbox_enforcement). */
unsigned policy_required_enforcement(const struct policy *policy);

#endif
