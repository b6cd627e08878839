/*
 * upstream_proxy.h — the caller's upstream proxy as the egress process uses
 * it (backends/egress-proxy/README.md, "An upstream proxy"); pure, no I/O.
 * Where it is, what it is told (CONNECT, with its credentials), and which
 * destinations bypass it (the caller's NO_PROXY, under "environment").
 */
#ifndef HAS_EGRESS_UPSTREAM_PROXY_H
#define HAS_EGRESS_UPSTREAM_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/host_match.h"
#include "proxy_client.h"

#define UPSTREAM_NO_PROXY_MAX 64
#define UPSTREAM_ENTRY_MAX (HOST_NAME_MAX_LEN + 8) /* a NO_PROXY entry as written, for messages */

struct no_proxy_entry {
    enum { NO_PROXY_NAME, NO_PROXY_ADDRESS } kind;
    char name[HOST_NAME_MAX_LEN + 2]; /* NO_PROXY_NAME: the name and its subdomains, lower case */
    struct ip_addr addr;              /* NO_PROXY_ADDRESS: addr/prefix */
    unsigned prefix;
    char text[UPSTREAM_ENTRY_MAX];
};

struct upstream_proxy {
    bool set;             /* false: every destination is reached directly */
    struct proxy_url url; /* where, and the credentials (secret) */
    bool host_is_literal; /* url.host is an IP literal: `literal`, no lookup */
    struct ip_addr literal;
    char shown[PROXY_URL_PART_MAX + 16]; /* "http://host:port": what messages show, never the credentials */
    char source[40];                     /* "network.outgoingProxy.upstream", or the variable it came from */
    bool all_direct;                     /* NO_PROXY holds "*" */
    size_t no_proxy_count;
    struct no_proxy_entry no_proxy[UPSTREAM_NO_PROXY_MAX];
};

/* Set up from a parsed URL; `source` names where it came from. */
void upstream_proxy_init(struct upstream_proxy *up, const struct proxy_url *url, const char *source);

/*
 * Add NO_PROXY's entries (comma-separated, blanks around them ignored):
 * "*"; a name, which covers its subdomains ("corp.example",
 * ".corp.example" and "*.corp.example" alike); an IP literal; an
 * address/prefix.  A ":port" is ignored (the entry covers every port), as
 * is an entry that is none of these.  NULL, or why the list is refused.
 */
const char *upstream_no_proxy_parse(struct upstream_proxy *up, const char *list);

/* The NO_PROXY entry that sends `host` directly, or NULL: it goes through
 * the upstream. */
const char *upstream_bypass(const struct upstream_proxy *up, const struct dest_host *host);

/* The CONNECT for host:port with the upstream's credentials: its length,
 * or 0 when it does not fit in cap.  The caller wipes out. */
size_t upstream_connect_head(const struct upstream_proxy *up, const struct dest_host *host, unsigned port,
                             char *out, size_t cap);

#endif
