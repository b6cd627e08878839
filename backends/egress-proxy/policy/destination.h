/*
 * destination.h — the egress process's decision for one request (pure):
 * is the requested host allowed, and which resolved addresses may be used.
 */
#ifndef HAS_EGRESS_DESTINATION_H
#define HAS_EGRESS_DESTINATION_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/host_match.h"

/* allowedHosts' rules, then allowedInternalHosts' (host_rule.internal). */
struct host_policy {
    struct host_rule *rules;
    size_t count;
};

enum dest_verdict {
    DEST_MALFORMED,       /* not a host at all: 400 / SOCKS 0x01 */
    DEST_DENIED,          /* refused by the policy: 403 / SOCKS 0x02 */
    DEST_CONNECT_LITERAL, /* allowed literal: connect to it, no lookup */
    DEST_RESOLVE,         /* allowed name: resolve, then check each address */
};

struct dest_decision {
    enum dest_verdict verdict;
    struct dest_host host;
    /* For DEST_DENIED: the rule that refused, as a short token for the
     * response header, and a sentence for the body. */
    const char *rule;
    char reason[400];
    char address[64]; /* for "address-class": the address refused, else "" */
    bool internal;    /* an allowedInternalHosts rule allows host and port */
};

/* Decide on a requested host (bytes as sent) and port. */
void dest_decide(const struct host_policy *policy, const char *host, size_t host_len, unsigned port,
                 struct dest_decision *out);

/*
 * May a connection go to `addr`, which `decision->host` resolved to (or is,
 * for a literal)?  A literal the policy named exactly may be anything; every
 * other address must be public, or for an internal name of an internal class
 * (addr_class_internal).  On refusal, fills decision->rule/reason.
 */
bool dest_address_allowed(struct dest_decision *decision, const struct ip_addr *addr);

#endif
