/*
 * egress_backend.c — the egress-proxy backend's hooks (backends/egress-proxy/README.md).
 *
 * prepare (supervisor, host side): the workload's proxy variables; for a
 *   policy with an outgoing proxy, the per-invocation secret and the
 *   platform's start (egress_platform.h): the egress process, confined and
 *   ready before we go on.  On the host-loopback variant it has bound the
 *   front-ends and reported their ports by then, and they are granted to
 *   the boundary (ctx->loopback_grants).
 * enter: the platform's (Linux: hand the listeners over from inside the
 *   sandbox's network namespace; host loopback: drop the control socket).
 *   Either way it leaves no descriptor of its own in the workload process.
 * harden: nothing.
 * What it needs from the boundary backend is in its descriptor
 * (egress_platform.h), checked by the core.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "egress_env.h"
#include "egress_platform.h"

/* 32 bytes from the kernel's CSPRNG: getentropy(2), which Linux (glibc,
 * musl) and macOS all have. */
static enum sandbox_result make_secret(struct sandbox_ctx *ctx, struct proxy_creds *creds)
{
    unsigned char raw[PROXY_SECRET_BYTES];
    if (getentropy(raw, sizeof raw) != 0)
        return sandbox_fail(ctx, "cannot generate the proxy secret (getentropy): %s", strerror(errno));
    snprintf(creds->user, sizeof creds->user, "%s", PROXY_USER);
    hex_encode(raw, sizeof raw, creds->secret);
    sandbox_wipe(raw, sizeof raw);
    return SANDBOX_OK;
}

/* The per-invocation secret exists in this process only in `creds`, wiped
 * whatever happens. */
enum sandbox_result egress_prepare(struct sandbox_ctx *ctx)
{
    unsigned fe = egress_env_remove_callers(ctx);
    if (!fe)
        return SANDBOX_OK;
    struct proxy_creds creds;
    enum sandbox_result r = make_secret(ctx, &creds);
    r = r == SANDBOX_OK ? egress_platform_start(ctx, &creds, fe) : r;
    sandbox_wipe(&creds, sizeof creds);
    return r;
}
