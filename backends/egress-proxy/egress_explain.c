/*
 * egress_explain.c — the egress-proxy backend under --explain (backend.h):
 * the proxy it would start, each allowedHosts rule, and the verdict on a
 * host:port from dest_decide(), the function the egress process decides
 * every request with.  Starts nothing and sets no variable.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "destination.h"
#include "egress_env.h"
#include "egress_platform.h"

static const char *front_end_names(unsigned fe)
{
    if ((fe & POLICY_FRONT_END_HTTP) && (fe & POLICY_FRONT_END_SOCKS5))
        return "HTTP (HTTP_PROXY, HTTPS_PROXY) and SOCKS5 (ALL_PROXY)";
    return fe & POLICY_FRONT_END_HTTP ? "HTTP (HTTP_PROXY, HTTPS_PROXY)" : "SOCKS5 (ALL_PROXY)";
}

static void judge(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i, const struct host_policy *hp)
{
    const struct sandbox_query *q = &out->queries[i];
    struct dest_decision d;
    dest_decide(hp, q->host, q->host_len, q->port, &d);
    if (d.verdict == DEST_MALFORMED || d.verdict == DEST_DENIED) {
        sandbox_explain_verdict(ctx, out, i, false, "the proxy refuses it (%s): %s", d.rule, d.reason);
        return;
    }
    const struct host_rule *rule = host_rules_match(hp->rules, hp->count, &d.host, q->port);
    sandbox_explain_verdict(ctx, out, i, true, "through the proxy: allowedHosts entry \"%s\"%s",
                            rule ? rule->entry : "?",
                            d.verdict == DEST_RESOLVE ? " (each address it resolves to must be public)" : "");
}

enum sandbox_result egress_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    const struct policy_network *net = &ctx->policy->network;
    if (!net->has_outgoing_proxy)
        return SANDBOX_OK;
    /* prepare()'s check. */
    if (!egress_variant_for(ctx->others_offer))
        return sandbox_fail(ctx, EGRESS_NO_VARIANT);
    sandbox_explain_add(ctx, out, "network", "", "only through the proxy, front-ends %s, to the hosts of "
                        "network.allowedHosts; anything else is refused with a refusal-report line",
                        front_end_names(net->front_ends));
    struct host_policy hp = {calloc(net->allowed_hosts.count + 1, sizeof *hp.rules), net->allowed_hosts.count};
    if (!hp.rules)
        return sandbox_fail(ctx, "out of memory compiling network.allowedHosts");
    for (size_t i = 0; i < hp.count; i++) {
        egress_compile_entry(net->allowed_hosts.items[i], &hp.rules[i]);
        sandbox_explain_add(ctx, out, "host", net->allowed_hosts.items[i], "%s%s",
                            hp.rules[i].port ? "this port only" : "any port",
                            hp.rules[i].kind == RULE_NEVER ? "; matches nothing" :
                            hp.rules[i].kind == RULE_LITERAL ? "; this address, whatever its class" :
                            "; only public addresses it resolves to");
    }
    for (size_t i = 0; i < out->query_count; i++)
        if (out->queries[i].kind == SANDBOX_QUERY_CONNECT)
            judge(ctx, out, i, &hp);
    free(hp.rules);
    return SANDBOX_OK;
}
