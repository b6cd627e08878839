/*
 * egress_platform.h — how the egress process gets its front-ends, one file
 * per variant (local.mk links the ones the platform has):
 *
 *   egress_netns.c     Linux: the front-ends are created inside the
 *                      sandbox's network namespace, on fixed ports, and
 *                      handed to the egress process (enter()).  Needs a
 *                      boundary offering SANDBOX_OFFER_PRIVATE_NETWORK.
 *   egress_loopback.c  macOS and Linux: the egress process binds them on
 *                      the host's 127.0.0.1 with kernel-chosen ports before
 *                      the boundary exists, and the ports are granted to a
 *                      boundary offering SANDBOX_OFFER_LOOPBACK_GRANTS.
 * With neither (other platforms) the backend claims no enforcement.
 *
 * egress_backend.c has the rest (the workload's variables, the secret, the
 * prepare() flow, the descriptor) and picks the variant from what the other
 * backends offer; egress_spawn.c forks the egress process.
 */
#ifndef HAS_EGRESS_PLATFORM_H
#define HAS_EGRESS_PLATFORM_H

#include "backend.h"
#include "policy/proxy_auth.h"
#include "policy/upstream_proxy.h"

/* What the egress process is given that the workload must never see: the
 * front-ends' secret and the upstream proxy with its credentials.  Made in
 * prepare(), which wipes it whatever happens. */
struct egress_secrets {
    struct proxy_creds creds;
    struct upstream_proxy upstream;
};

struct egress_variant {
    /* The offer of the boundary this variant needs. */
    unsigned needs;
    /* The front-ends it can serve (POLICY_FRONT_END_*); prepare() refuses
     * a policy naming another. */
    unsigned front_ends;
    /* prepare(), once the upstream is read, the caller's variables are gone
     * and the secret is made: start the egress process for front-ends `fe`
     * and give the workload its variables (egress_env_set).  The variant
     * keeps its state in *sandbox_state(ctx). */
    enum sandbox_result (*start)(struct sandbox_ctx *ctx, const struct egress_secrets *secrets, unsigned fe);
    /* enter(), in the process that becomes the workload: leaves no
     * descriptor of this backend there. */
    enum sandbox_result (*enter)(struct sandbox_ctx *ctx);
};

/* The first variant of the build whose need `others_offer` meets, or
 * NULL (the core's composition check makes that a backend bug). */
const struct egress_variant *egress_variant_for(unsigned others_offer);
#define EGRESS_NO_VARIANT \
    "no boundary backend offers what the proxy's front-ends need (backend bug: the core checks this)"
/* Why variant `v` cannot serve the front-ends `fe` (POLICY_FRONT_END_*
 * bits), or NULL. */
const char *egress_front_ends_problem(const struct egress_variant *v, unsigned fe);

/* egress_explain.c: the hook for --explain (backend.h). */
enum sandbox_result egress_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out);

#ifdef EGRESS_VARIANT_NETNS
extern const struct egress_variant egress_via_netns;
#endif
#ifdef EGRESS_VARIANT_LOOPBACK
extern const struct egress_variant egress_via_loopback;
#endif

#endif
