/*
 * host_match.h — the allowedHosts rule (backends/egress-proxy/README.md): what a requested host is
 * (a name or a strict IP literal), and whether the policy allows it.  Pure.
 */
#ifndef HAS_EGRESS_HOST_MATCH_H
#define HAS_EGRESS_HOST_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/addr_class.h"

#define HOST_NAME_MAX_LEN 253

/* A requested destination host, normalised. */
struct dest_host {
    bool is_literal;
    struct ip_addr literal;           /* when is_literal */
    char name[HOST_NAME_MAX_LEN + 2]; /* lower case, no trailing dot; or the literal's canonical text */
};

enum host_parse_result {
    HOST_OK = 0,
    HOST_BAD_SYNTAX, /* not a host name or IP literal at all: malformed request */
    HOST_NUMERIC,    /* "127.1", "2130706433", "0x7f.1": refused as ambiguous */
};

/*
 * Parse a requested host (bytes as sent, brackets allowed around IPv6).
 * Names: labels of [A-Za-z0-9_-], 1..63 bytes, 253 in all, one trailing dot
 * allowed; lower-cased.  A name whose last label is numeric (decimal or
 * 0x-hex) is what inet_aton() would read as an address: HOST_NUMERIC.
 */
enum host_parse_result dest_host_parse(const char *text, size_t len, struct dest_host *out);

/* One allowedHosts entry, compiled. */
struct host_rule {
    enum { RULE_EXACT, RULE_SUFFIX, RULE_LITERAL, RULE_NEVER } kind;
    struct ip_addr literal;
    char text[HOST_NAME_MAX_LEN + 2]; /* normalised name or suffix (without "*.") */
    unsigned short port;              /* 0: any port */
    const char *entry;                /* the entry as written, for messages */
    bool internal;                    /* from allowedInternalHosts */
};

/*
 * Compile an entry whose first host_len bytes are the host and whose port
 * is `port` (0 for any), as policy_host_entry_split() splits it.  An entry
 * that can match nothing (e.g. "[example.com]") compiles to RULE_NEVER.
 */
void host_rule_compile(const char *entry, size_t host_len, unsigned port, struct host_rule *out);

/* The first rule that allows `host` on `port`, or NULL. */
const struct host_rule *host_rules_match(const struct host_rule *rules, size_t count,
                                         const struct dest_host *host, unsigned port);

/* Is `name` a subdomain of `suffix` (both normalised names)?  Not `suffix`
 * itself: "*.example.com" rules and NO_PROXY entries share this. */
bool host_name_beneath(const char *name, const char *suffix);

/* The first rule that names `host`, on whatever port, or NULL. */
const struct host_rule *host_rules_name(const struct host_rule *rules, size_t count,
                                        const struct dest_host *host);

#endif
