/*
 * egress_platform.h — what differs by platform in the egress backend's
 * hooks, one file per variant (exactly one is linked, chosen in local.mk):
 *
 *   egress_netns.c     Linux: the front-ends are created inside the
 *                      sandbox's network namespace, on fixed ports, and
 *                      handed to the egress process (enter()).
 *   egress_loopback.c  macOS, and the Linux test build of that path: the
 *                      egress process binds them on the host's 127.0.0.1
 *                      with kernel-chosen ports, before Seatbelt's profile.
 *   egress_none.c      elsewhere: no egress process, nothing enforced.
 *
 * egress_backend.c has the rest (the workload's variables, the secret, the
 * prepare() flow); egress_spawn.c forks the egress process for the first two.
 */
#ifndef HAS_EGRESS_PLATFORM_H
#define HAS_EGRESS_PLATFORM_H

#include "backend.h"
#include "proxy_auth.h"

/* prepare(), once the caller's variables are gone and the secret is made:
 * start the egress process for front-ends `fe` and give the workload its
 * variables (egress_env_set).  The variant keeps its state in
 * *sandbox_state(ctx). */
enum sandbox_result egress_platform_start(struct sandbox_ctx *ctx, const struct proxy_creds *creds,
                                          unsigned fe);

/* enter(): see each variant. */
enum sandbox_result egress_platform_enter(struct sandbox_ctx *ctx);

/* egress_backend.c */
enum sandbox_result egress_prepare(struct sandbox_ctx *ctx);

/* The backend's descriptor, defined by each variant with what it enforces
 * and what it needs from the boundary backend (backend.h, "How backends
 * compose"). */
#define EGRESS_BACKEND_DEFINE(enforcement, needs_all, needs_one)  \
    SANDBOX_BACKEND_DEFINE(egress_proxy_backend) = {       \
        .abi = SANDBOX_BACKEND_ABI,                        \
        .name = "egress-proxy",                            \
        .order = 200,                                      \
        .enforces = (enforcement),                         \
        .needs = (needs_all),                              \
        .needs_one_of = (needs_one),                       \
        .prepare = egress_prepare,                         \
        .enter = egress_platform_enter,                    \
        .harden = sandbox_hook_noop,                       \
    }

#endif
