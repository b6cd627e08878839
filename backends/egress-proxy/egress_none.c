/*
 * egress_none.c — the variant for platforms without an egress process
 * (egress_platform.h).  The backend still removes the proxy variables a
 * caller set, but claims no enforcement, so the core refuses a policy with
 * an outgoing proxy (before prepare()) instead of running it unfiltered.
 */
#include "config.h"

#include "egress_platform.h"

enum sandbox_result egress_platform_start(struct sandbox_ctx *ctx, const struct proxy_creds *creds,
                                          unsigned fe)
{
    (void)creds;
    (void)fe;
    return sandbox_fail(ctx, "no egress proxy on this platform");
}

enum sandbox_result egress_platform_enter(struct sandbox_ctx *ctx)
{
    (void)ctx;
    return SANDBOX_OK;
}

EGRESS_BACKEND_DEFINE(0, 0, 0);
