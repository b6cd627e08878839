/*
 * destination.c — see destination.h.
 */
#include "config.h"

#include <stdio.h>

#include "policy/destination.h"

/* Does an allowedInternalHosts rule allow `host` on `port`? */
static bool internal_rule_allows(const struct host_policy *policy, const struct dest_host *host,
                                 unsigned port)
{
    for (size_t i = 0; i < policy->count; i++)
        if (policy->rules[i].internal && host_rules_match(&policy->rules[i], 1, host, port))
            return true;
    return false;
}

static size_t internal_rule_count(const struct host_policy *policy)
{
    size_t n = 0;
    for (size_t i = 0; i < policy->count; i++)
        n += policy->rules[i].internal;
    return n;
}

/* The refusal of a host no rule allows on this port. */
static void refuse_unlisted(const struct host_policy *policy, unsigned port, struct dest_decision *out)
{
    const char *lists = internal_rule_count(policy) ? "network.allowedHosts or network.allowedInternalHosts"
                                                    : "network.allowedHosts";
    out->verdict = DEST_DENIED;
    out->rule = "allowedHosts";
    if (host_rules_name(policy->rules, policy->count, &out->host))
        snprintf(out->reason, sizeof out->reason,
                 "port %u of '%s' is not in %s (the host is allowed on other ports only)", port,
                 out->host.name, lists);
    else
        snprintf(out->reason, sizeof out->reason, "'%s' is not in %s (%zu entr%s)", out->host.name, lists,
                 policy->count, policy->count == 1 ? "y" : "ies");
}

void dest_decide(const struct host_policy *policy, const char *host, size_t host_len, unsigned port,
                 struct dest_decision *out)
{
    out->rule = NULL;
    out->reason[0] = '\0';
    out->address[0] = '\0';
    out->internal = false;
    switch (dest_host_parse(host, host_len, &out->host)) {
    case HOST_BAD_SYNTAX:
        out->verdict = DEST_MALFORMED;
        out->rule = "malformed-host";
        snprintf(out->reason, sizeof out->reason,
                 "the requested host is not a valid host name or IP literal");
        return;
    case HOST_NUMERIC:
        out->verdict = DEST_DENIED;
        out->rule = "numeric-host-spelling";
        snprintf(out->reason, sizeof out->reason,
                 "'%s' is a numeric spelling that is not a strict IP literal; name the host, "
                 "or use a dotted quad or an IPv6 literal",
                 out->host.name);
        return;
    default: break;
    }
    if (!host_rules_match(policy->rules, policy->count, &out->host, port)) {
        refuse_unlisted(policy, port, out);
        return;
    }
    out->internal = !out->host.is_literal && internal_rule_allows(policy, &out->host, port);
    out->verdict = out->host.is_literal ? DEST_CONNECT_LITERAL : DEST_RESOLVE;
}

bool dest_address_allowed(struct dest_decision *decision, const struct ip_addr *addr)
{
    /* The exemption is for the literal the client asked for and the policy
     * named (host_rules_match already required equality); a name never
     * earns it, whatever literals the policy also lists. */
    if (decision->host.is_literal && ip_equal(&decision->host.literal, addr))
        return true;
    enum addr_class cls = addr_classify(addr);
    if (cls == ADDR_PUBLIC || (decision->internal && addr_class_internal(cls)))
        return true;
    char text[64] = "?";
    ip_format(addr, text, sizeof text);
    if (!decision->address[0]) /* the first refused, when a name has several */
        snprintf(decision->address, sizeof decision->address, "%s", text);
    decision->verdict = DEST_DENIED;
    decision->rule = "address-class";
    if (decision->internal)
        snprintf(decision->reason, sizeof decision->reason,
                 "'%s' resolved to %s, a %s address, which no name reaches (not even one in "
                 "network.allowedInternalHosts)",
                 decision->host.name, text, addr_class_name(cls));
    else if (addr_class_internal(cls))
        snprintf(decision->reason, sizeof decision->reason,
                 "'%s' resolved to %s, a %s address; only public addresses are reachable by name, unless "
                 "the name is in network.allowedInternalHosts",
                 decision->host.name, text, addr_class_name(cls));
    else
        snprintf(decision->reason, sizeof decision->reason,
                 "'%s' resolved to %s, a %s address; only public addresses are reachable by name",
                 decision->host.name, text, addr_class_name(cls));
    return false;
}
