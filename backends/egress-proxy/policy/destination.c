/*
 * destination.c — see destination.h.
 */
#include "config.h"

#include <stdio.h>

#include "policy/destination.h"

void dest_decide(const struct host_policy *policy, const char *host, size_t host_len, unsigned port,
                 struct dest_decision *out)
{
    out->rule = NULL;
    out->reason[0] = '\0';
    out->address[0] = '\0';
    switch (dest_host_parse(host, host_len, &out->host)) {
    case HOST_BAD_SYNTAX:
        out->verdict = DEST_MALFORMED;
        out->rule = "malformed-host";
        snprintf(out->reason, sizeof out->reason, "the requested host is not a valid host name or IP literal");
        return;
    case HOST_NUMERIC:
        out->verdict = DEST_DENIED;
        out->rule = "numeric-host-spelling";
        snprintf(out->reason, sizeof out->reason,
                 "'%s' is a numeric spelling that is not a strict IP literal; name the host, "
                 "or use a dotted quad or an IPv6 literal", out->host.name);
        return;
    default:
        break;
    }
    if (!host_rules_match(policy->rules, policy->count, &out->host, port)) {
        out->verdict = DEST_DENIED;
        out->rule = "allowedHosts";
        if (host_rules_name(policy->rules, policy->count, &out->host))
            snprintf(out->reason, sizeof out->reason,
                     "port %u of '%s' is not in network.allowedHosts (the host is allowed on other "
                     "ports only)", port, out->host.name);
        else
            snprintf(out->reason, sizeof out->reason,
                     "'%s' is not in network.allowedHosts (%zu entr%s)", out->host.name,
                     policy->count, policy->count == 1 ? "y" : "ies");
        return;
    }
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
    if (cls == ADDR_PUBLIC)
        return true;
    char text[64] = "?";
    ip_format(addr, text, sizeof text);
    if (!decision->address[0])   /* the first refused, when a name has several */
        snprintf(decision->address, sizeof decision->address, "%s", text);
    decision->verdict = DEST_DENIED;
    decision->rule = "address-class";
    snprintf(decision->reason, sizeof decision->reason,
             "'%s' resolved to %s, a %s address; only public addresses are reachable by name",
             decision->host.name, text, addr_class_name(cls));
    return false;
}
