/*
 * egress_env.c — see egress_env.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "egress_env.h"
#include "policy.h"
#include "proxy_client.h"
#include "policy/host_match.h"
#include "proxy_env.h"

static const char *const http_vars[] = PROXY_ENV_HTTP_VARS;
static const char *const socks_vars[] = PROXY_ENV_SOCKS_VARS;
static const char *const node_vars[] = PROXY_ENV_NODE_VARS;
static const char *const no_proxy_vars[] = PROXY_ENV_NO_PROXY_VARS;
static const char *const upstream_vars[] = PROXY_ENV_UPSTREAM_VARS;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int set_all(struct sandbox_ctx *ctx, const char *const *names, size_t n, const char *value)
{
    for (size_t i = 0; i < n; i++) {
        /* sandbox_env_set replaces the first copy only; a hand-built
         * environment may hold more, and some runtimes (Python's
         * os.environ) let the last one win. */
        sandbox_env_unset(ctx, names[i]);
        if (sandbox_env_set(ctx, names[i], value) != 0)
            return -1;
    }
    return 0;
}

void egress_compile_entry(const char *entry, struct host_rule *rule)
{
    size_t host_len;
    unsigned port;
    if (policy_host_entry_split(entry, &host_len, &port) != NULL)
        host_len = 0; /* cannot happen for a parsed policy; matches nothing */
    host_rule_compile(entry, host_len, port, rule);
}

int egress_compile_hosts(const struct policy_network *net, struct host_policy *out)
{
    const struct string_list *lists[] = {&net->allowed_hosts, &net->allowed_internal_hosts};
    size_t n = lists[0]->count + lists[1]->count;
    out->count = 0;
    out->rules = calloc(n ? n : 1, sizeof *out->rules);
    if (!out->rules)
        return -1;
    for (size_t l = 0; l < COUNT(lists); l++)
        for (size_t i = 0; i < lists[l]->count; i++) {
            struct host_rule *r = &out->rules[out->count++];
            egress_compile_entry(lists[l]->items[i], r);
            r->internal = l == 1;
        }
    return 0;
}

/*
 * NO_PROXY: the loopback spellings, so a workload reaches its own loopback
 * (a dev server under localBinding: true) directly rather than through a
 * proxy that would refuse it -- except those the policy names in
 * allowedHosts: naming "127.0.0.1" or "localhost" asks for the host's
 * loopback, which only the proxy can reach.  False when none is left (the
 * variable is then unset).
 */
static bool no_proxy_value(const struct policy *policy, char *out, size_t len)
{
    static const char *const loopback[] = {"localhost", "127.0.0.1", "::1"};
    const struct string_list *hosts = &policy->network.allowed_hosts;
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < COUNT(loopback); i++) {
        /* "Named" exactly as the egress process will judge it, so
         * "LOCALHOST.", "[::1]" or "0:0::1" count too. */
        struct dest_host host;
        bool named = false;
        dest_host_parse(loopback[i], strlen(loopback[i]), &host);
        for (size_t j = 0; j < hosts->count && !named; j++) {
            struct host_rule rule;
            egress_compile_entry(hosts->items[j], &rule);
            named = host_rules_name(&rule, 1, &host) != NULL; /* on any port */
        }
        if (named)
            continue;
        int n = snprintf(out + at, len - at, "%s%s", at ? "," : "", loopback[i]);
        if (n > 0 && (size_t)n < len - at)
            at += (size_t)n;
    }
    return at > 0;
}

enum sandbox_result egress_env_set(struct sandbox_ctx *ctx, const struct proxy_creds *creds,
                                   unsigned front_ends, unsigned short http_port, unsigned short socks_port)
{
    char url[160];
    int bad = 0;
    if (front_ends & POLICY_FRONT_END_HTTP) {
        snprintf(url, sizeof url, PROXY_ENV_HTTP_SCHEME "%s:%s@127.0.0.1:%u", creds->user, creds->secret,
                 (unsigned)http_port);
        bad |= set_all(ctx, http_vars, COUNT(http_vars), url);
        bad |= set_all(ctx, node_vars, COUNT(node_vars), "1");
    }
    if (front_ends & POLICY_FRONT_END_SOCKS5) {
        snprintf(url, sizeof url, PROXY_ENV_SOCKS_SCHEME "%s:%s@127.0.0.1:%u", creds->user, creds->secret,
                 (unsigned)socks_port);
        bad |= set_all(ctx, socks_vars, COUNT(socks_vars), url);
    }
    char no_proxy[64];
    /* Only beside a proxy variable: the transparent front-end has none. */
    if ((front_ends & (POLICY_FRONT_END_HTTP | POLICY_FRONT_END_SOCKS5)) &&
        no_proxy_value(ctx->policy, no_proxy, sizeof no_proxy))
        bad |= set_all(ctx, no_proxy_vars, COUNT(no_proxy_vars), no_proxy);
    sandbox_wipe(url, sizeof url);
    return bad ? sandbox_fail(ctx, "out of memory setting the proxy variables") : SANDBOX_OK;
}

/* NAME=VALUE whose NAME ends in PROXY_ENV_SUFFIX, in any case. */
static bool is_proxy_variable(const char *entry)
{
    size_t suffix = strlen(PROXY_ENV_SUFFIX), n = strcspn(entry, "=");
    return n >= suffix && strncasecmp(entry + n - suffix, PROXY_ENV_SUFFIX, suffix) == 0;
}

/* Until none is left; -1 when one could not be removed (out of memory). */
static int unset_proxy_variables(struct sandbox_ctx *ctx)
{
    for (size_t i = 0; i < ctx->env_count;) {
        if (!is_proxy_variable(ctx->env[i])) {
            i++;
            continue;
        }
        char *name = strndup(ctx->env[i], strcspn(ctx->env[i], "="));
        if (!name)
            return -1;
        size_t before = ctx->env_count;
        sandbox_env_unset(ctx, name); /* this entry: ctx->env[i] is the next one now */
        free(name);
        if (ctx->env_count == before)
            return -1; /* cannot happen (one entry per name); never loop on it */
    }
    return 0;
}

/*
 * backends/egress-proxy/README.md: a proxy variable the caller set but the policy did not configure
 * arrives unset, with or without a proxy.  Returns the front-ends to start.
 */
enum sandbox_result egress_env_remove_callers(struct sandbox_ctx *ctx, unsigned *front_ends)
{
    const struct policy_network *net = &ctx->policy->network;
    *front_ends = net->has_outgoing_proxy ? net->front_ends : 0;
    /* The ones a front-end sets are set again by egress_env_set. */
    if (unset_proxy_variables(ctx) != 0)
        return sandbox_fail(ctx, "out of memory removing the caller's proxy variables");
    return SANDBOX_OK;
}

/* The first of `names` the caller set to a non-empty value, or NULL. */
static const char *first_set(const struct sandbox_ctx *ctx, const char *const *names, size_t n,
                             const char **which)
{
    for (size_t i = 0; i < n; i++) {
        const char *v = sandbox_env_get(ctx, names[i]);
        if (v && *v) {
            *which = names[i];
            return v;
        }
    }
    return NULL;
}

/* An upstream's URL (from `source`) into *out: NULL, or why it is not one. */
static const char *upstream_from_text(struct upstream_proxy *out, const char *text, bool scheme_optional,
                                      const char *source)
{
    struct proxy_url url;
    const char *why = proxy_upstream_url_parse(text, scheme_optional, &url);
    if (!why)
        upstream_proxy_init(out, &url, source);
    sandbox_wipe(&url, sizeof url);
    return why;
}

static enum sandbox_result upstream_from_environment(struct sandbox_ctx *ctx, struct upstream_proxy *out)
{
    const char *var = NULL, *no_var = NULL;
    const char *value = first_set(ctx, upstream_vars, COUNT(upstream_vars), &var);
    if (!value)
        return SANDBOX_OK; /* no proxy in the caller's environment: direct, as its own tools would go */
    const char *why = upstream_from_text(out, value, true, var);
    if (why)
        return sandbox_fail(ctx, "network.outgoingProxy.upstream is \"environment\", and the caller's %s %s",
                            var, why);
    const char *no_proxy = first_set(ctx, no_proxy_vars, COUNT(no_proxy_vars), &no_var);
    if (no_proxy && (why = upstream_no_proxy_parse(out, no_proxy)) != NULL)
        return sandbox_fail(ctx, "the caller's %s %s (network.outgoingProxy.upstream is \"environment\")",
                            no_var, why);
    return SANDBOX_OK;
}

enum sandbox_result egress_env_upstream(struct sandbox_ctx *ctx, struct upstream_proxy *out)
{
    const struct policy_network *net = &ctx->policy->network;
    memset(out, 0, sizeof *out);
    if (net->upstream_from_environment)
        return upstream_from_environment(ctx, out);
    if (!net->upstream_url)
        return SANDBOX_OK;
    const char *why = upstream_from_text(out, net->upstream_url, false, "network.outgoingProxy.upstream");
    /* The parser checked the same grammar: only a bug gets here. */
    return why ? sandbox_fail(ctx, "network.outgoingProxy.upstream %s", why) : SANDBOX_OK;
}
