/*
 * egress_backend.c — the egress-proxy backend's hooks (backends/egress-proxy/README.md).
 *
 * prepare (supervisor, host side): the upstream proxy, read before the
 *   caller's variables go; the workload's proxy variables; for a
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

/* The variants this build has, in order of preference. */
static const struct egress_variant *const variants[] = {
#ifdef EGRESS_VARIANT_NETNS
    &egress_via_netns,
#endif
#ifdef EGRESS_VARIANT_LOOPBACK
    &egress_via_loopback,
#endif
    NULL,
};
#define VARIANT_COUNT (sizeof variants / sizeof variants[0] - 1)

/* The first variant whose need another backend of the set offers (the
 * core checked that one does, see the descriptor below). */
static const struct egress_variant *chosen;

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

const struct egress_variant *egress_variant_for(unsigned others_offer)
{
    for (size_t i = 0; variants[i]; i++)
        if (others_offer & variants[i]->needs)
            return variants[i];
    return NULL;
}

const char *egress_front_ends_problem(const struct egress_variant *v, unsigned fe)
{
    if (fe & POLICY_FRONT_END_TRANSPARENT & ~v->front_ends)
        return "network.outgoingProxy.frontEnds: \"transparent\" needs a network namespace of the sandbox's "
               "own "
               "(the linux-ns backend); use \"http\" or \"socks5\"";
    if (fe & ~v->front_ends)
        return "network.outgoingProxy.frontEnds: a front-end this build cannot serve";
    return NULL;
}

/* prepare() once the upstream is read into secrets (egress_env_upstream). */
static enum sandbox_result start_egress(struct sandbox_ctx *ctx, struct egress_secrets *secrets)
{
    unsigned fe;
    if (egress_env_remove_callers(ctx, &fe) != SANDBOX_OK)
        return SANDBOX_FAIL;
    if (!fe)
        return SANDBOX_OK;
    if (!(chosen = egress_variant_for(ctx->others_offer)))
        return sandbox_fail(ctx, EGRESS_NO_VARIANT);
    const char *problem = egress_front_ends_problem(chosen, fe);
    if (problem)
        return sandbox_fail(ctx, "%s", problem);
    enum sandbox_result r = make_secret(ctx, &secrets->creds);
    return r == SANDBOX_OK ? chosen->start(ctx, secrets, fe) : r;
}

/* The secret and the upstream's credentials exist in this process only in
 * `secrets`, wiped whatever happens. */
static enum sandbox_result egress_prepare(struct sandbox_ctx *ctx)
{
    static struct egress_secrets secrets; /* static: the NO_PROXY table is large for a stack */
    /* Before the caller's proxy variables are removed: "environment" reads them. */
    enum sandbox_result r =
        ctx->policy->network.has_outgoing_proxy ? egress_env_upstream(ctx, &secrets.upstream) : SANDBOX_OK;
    if (r == SANDBOX_OK)
        r = start_egress(ctx, &secrets);
    sandbox_wipe(&secrets, sizeof secrets);
    return r;
}

static enum sandbox_result egress_enter(struct sandbox_ctx *ctx)
{
    return chosen ? chosen->enter(ctx) : SANDBOX_OK;
}

SANDBOX_BACKEND_DEFINE(egress_proxy_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "egress-proxy",
    .order = 200,
    /* Without a variant (other platforms) it enforces nothing, so the core
     * refuses a policy with an outgoing proxy before prepare(). */
    .enforces = VARIANT_COUNT ? SANDBOX_ENFORCES_EGRESS_PROXY : 0,
    /* The egress process ends with the supervisor, which must outlive the
     * workload; the front-ends need a private network or loopback grants. */
    .needs = SANDBOX_OFFER_SUPERVISED,
    .needs_one_of = (0
#ifdef EGRESS_VARIANT_NETNS
                     | SANDBOX_OFFER_PRIVATE_NETWORK
#endif
#ifdef EGRESS_VARIANT_LOOPBACK
                     | SANDBOX_OFFER_LOOPBACK_GRANTS
#endif
                     ),
    /* The front-ends open in the workload (ports below 1024 with the
     * capabilities it still holds), the name views mount onto its view. */
    .enter_needs_view = true,
    .prepare = egress_prepare,
    .enter = egress_enter,
    .harden = sandbox_hook_noop,
    .explain = egress_explain,
};
