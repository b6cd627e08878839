/*
 * egress_explain.c — the egress-proxy backend under --explain (backend.h):
 * the proxy it would start, each allowedHosts rule, and the verdict on a
 * host:port from dest_decide(), the function the egress process decides
 * every request with, and for an allowed name the proxy's own lookup and
 * address check (dest_address_allowed) -- or, for a destination the
 * upstream proxy reaches (upstream_bypass() says it does not go direct),
 * that route, which the egress process takes without a lookup.  Starts
 * nothing and sets no variable.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egress_env.h"
#include "egress_platform.h"
#include "policy/destination.h"
#include "process/resolver.h"

static const char *front_end_names(unsigned fe)
{
    if ((fe & POLICY_FRONT_END_HTTP) && (fe & POLICY_FRONT_END_SOCKS5))
        return "HTTP (HTTP_PROXY, HTTPS_PROXY) and SOCKS5 (ALL_PROXY)";
    return fe & POLICY_FRONT_END_HTTP ? "HTTP (HTTP_PROXY, HTTPS_PROXY)" : "SOCKS5 (ALL_PROXY)";
}

/* An allowed name: looked up now as the egress process would
 * (resolver_lookup), each address judged by dest_address_allowed; the proxy
 * uses the first it allows and refuses the name when it allows none.
 * `d` ends up as the refusal when there is one.  The allowed address as
 * text into used[64] and its class into *cls, or "" with why[] the
 * lookup's failure ("" when it resolved). */
static void judge_lookup(struct dest_decision *d, char used[64], const char **cls, char why[RESOLVER_WHY_MAX])
{
    struct resolve_job job = {.count = 0};
    snprintf(job.host, sizeof job.host, "%s", d->host.name);
    resolver_lookup(&job);
    used[0] = '\0';
    snprintf(why, RESOLVER_WHY_MAX, "%s", job.error ? job.why : "");
    struct dest_decision refused = *d;
    for (size_t k = 0; k < job.count; k++) {
        struct dest_decision each = *d;
        if (dest_address_allowed(&each, &job.addrs[k])) {
            ip_format(&job.addrs[k], used, 64);
            *cls = addr_class_name(addr_classify(&job.addrs[k]));
            return;
        }
        if (refused.verdict != DEST_DENIED)
            refused = each; /* the first refusal, as the proxy reports it */
    }
    if (job.count)
        *d = refused;
}

/* The rule that lets d's host through: an internal one when d is internal. */
static const struct host_rule *deciding_rule(const struct host_policy *hp, const struct dest_decision *d,
                                             unsigned port)
{
    for (size_t i = 0; i < hp->count; i++)
        if (hp->rules[i].internal == d->internal && host_rules_match(&hp->rules[i], 1, &d->host, port))
            return &hp->rules[i];
    return host_rules_match(hp->rules, hp->count, &d->host, port);
}

/* An allowed d reached directly (`route`: how, when an upstream is
 * bypassed): the proxy's lookup now, and its verdict on the addresses. */
static void judge_direct(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i,
                         struct dest_decision *d, const char *entry, const char *route)
{
    char used[64] = "";
    char why[RESOLVER_WHY_MAX] = "";
    const char *cls = "";
    if (d->verdict == DEST_RESOLVE)
        judge_lookup(d, used, &cls, why);
    const char *list = d->internal ? "allowedInternalHosts" : "allowedHosts";
    if (d->verdict == DEST_DENIED)
        sandbox_explain_verdict(ctx, out, i, false, "the proxy refuses it (%s): %s", d->rule, d->reason);
    else if (d->verdict == DEST_CONNECT_LITERAL)
        sandbox_explain_verdict(ctx, out, i, true, "through the proxy: allowedHosts entry \"%s\"%s", entry,
                                route);
    else if (why[0])
        sandbox_explain_verdict(ctx, out, i, true,
                                "through the proxy: %s entry \"%s\"%s; '%s' does not "
                                "resolve here now (%s), the proxy would answer 502",
                                list, entry, route, d->host.name, why);
    else
        sandbox_explain_verdict(ctx, out, i, true,
                                "through the proxy: %s entry \"%s\"%s; '%s' resolves "
                                "here now to %s, a%s %s address (looked up again on each request)",
                                list, entry, route, d->host.name, used,
                                cls[0] && strchr("aeiou", cls[0]) ? "n" : "", cls);
}

static void judge(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i,
                  const struct host_policy *hp, const struct upstream_proxy *up)
{
    const struct sandbox_query *q = &out->queries[i];
    struct dest_decision d;
    dest_decide(hp, q->host, q->host_len, q->port, &d);
    if (d.verdict == DEST_MALFORMED || d.verdict == DEST_DENIED) {
        sandbox_explain_verdict(ctx, out, i, false, "the proxy refuses it (%s): %s", d.rule, d.reason);
        return;
    }
    const struct host_rule *rule = deciding_rule(hp, &d, q->port);
    const char *entry = rule ? rule->entry : "?";
    const char *bypass = up->set ? upstream_bypass(up, &d.host) : NULL;
    if (up->set && !bypass) {
        sandbox_explain_verdict(ctx, out, i, true,
                                "through the proxy: %s entry \"%s\"; then through the upstream "
                                "proxy %s (from %s), which resolves '%s' itself",
                                d.internal ? "allowedInternalHosts" : "allowedHosts", entry, up->shown,
                                up->source, d.host.name);
        return;
    }
    char route[UPSTREAM_ENTRY_MAX + 40] = "";
    if (bypass)
        snprintf(route, sizeof route, "; directly: NO_PROXY entry \"%s\"", bypass);
    judge_direct(ctx, out, i, &d, entry, route);
}

/* The upstream proxy, without its credentials, and what bypasses it. */
static void explain_upstream(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                             const struct upstream_proxy *up)
{
    const struct policy_network *net = &ctx->policy->network;
    if (!up->set) {
        if (net->upstream_from_environment)
            sandbox_explain_add(ctx, out, "upstream", "",
                                "\"environment\", and the caller sets no proxy variable "
                                "(HTTPS_PROXY, HTTP_PROXY, ALL_PROXY): every destination directly");
        return;
    }
    char direct[600] = "";
    size_t at = 0;
    for (size_t i = 0; i < up->no_proxy_count && at + 1 < sizeof direct; i++) {
        int n = snprintf(direct + at, sizeof direct - at, "%s\"%s\"",
                         i ? ", " : "; directly (NO_PROXY): ", up->no_proxy[i].text);
        at += n > 0 ? (size_t)n : 0;
    }
    sandbox_explain_add(
        ctx, out, "upstream", up->shown,
        "from %s%s: every allowed destination through it "
        "(CONNECT%s), which resolves the names itself, so the address checks apply only to those "
        "reached directly%s",
        up->source, up->url.has_credentials ? ", with credentials" : "",
        up->all_direct ? "; NO_PROXY is \"*\": none" : "", up->all_direct ? "" : direct);
}

enum sandbox_result egress_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    const struct policy_network *net = &ctx->policy->network;
    if (!net->has_outgoing_proxy)
        return SANDBOX_OK;
    /* prepare()'s check. */
    const struct egress_variant *v = egress_variant_for(ctx->others_offer);
    if (!v)
        return sandbox_fail(ctx, EGRESS_NO_VARIANT);
    const char *problem = egress_front_ends_problem(v, net->front_ends);
    if (problem)
        return sandbox_fail(ctx, "%s", problem);
    sandbox_explain_add(ctx, out, "network", "",
                        "only through the proxy, front-ends %s, to the hosts of "
                        "network.allowedHosts; anything else is refused with a refusal-report line",
                        front_end_names(net->front_ends));
    static struct upstream_proxy up; /* static: the NO_PROXY table is large for a stack */
    if (egress_env_upstream(ctx, &up) != SANDBOX_OK)
        return SANDBOX_FAIL;
    explain_upstream(ctx, out, &up);
    struct host_policy hp;
    if (egress_compile_hosts(net, &hp) != 0) {
        sandbox_wipe(&up, sizeof up);
        return sandbox_fail(ctx, "out of memory compiling network.allowedHosts");
    }
    for (size_t i = 0; i < hp.count; i++) {
        const struct host_rule *r = &hp.rules[i];
        sandbox_explain_add(ctx, out, "host", r->entry, "%s%s", r->port ? "this port only" : "any port",
                            r->kind == RULE_NEVER     ? "; matches nothing"
                            : r->kind == RULE_LITERAL ? "; this address, whatever its class"
                            : r->internal ? "; allowedInternalHosts: public and internal (private, CGNAT, "
                                            "benchmarking, documentation) addresses it resolves to"
                                          : "; only public addresses it resolves to");
    }
    for (size_t i = 0; i < out->query_count; i++)
        if (out->queries[i].kind == SANDBOX_QUERY_CONNECT)
            judge(ctx, out, i, &hp, &up);
    free(hp.rules);
    sandbox_wipe(&up, sizeof up);
    return SANDBOX_OK;
}
