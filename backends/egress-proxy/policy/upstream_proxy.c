/*
 * upstream_proxy.c — see upstream_proxy.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/upstream_proxy.h"

void upstream_proxy_init(struct upstream_proxy *up, const struct proxy_url *url, const char *source)
{
    memset(up, 0, sizeof *up);
    up->set = true;
    up->url = *url;
    snprintf(up->shown, sizeof up->shown, url->host_is_ipv6 ? "http://[%s]:%u" : "http://%s:%u", url->host,
             (unsigned)url->port);
    snprintf(up->source, sizeof up->source, "%s", source);
    up->host_is_literal = ip_literal_parse(url->host, strlen(url->host), &up->literal) == 0;
}

/* "a.b.c.d/n" or "v6/n"; false when `text` is not one. */
static bool parse_cidr(const char *text, size_t len, struct no_proxy_entry *e)
{
    const char *slash = memchr(text, '/', len);
    if (!slash || ip_literal_parse(text, (size_t)(slash - text), &e->addr) != 0)
        return false;
    unsigned max = e->addr.family == AF_INET ? 32 : 128, bits = 0;
    size_t digits = len - (size_t)(slash + 1 - text);
    if (digits == 0 || digits > 3)
        return false;
    for (const char *p = slash + 1; p < text + len; p++) {
        if (*p < '0' || *p > '9')
            return false;
        bits = bits * 10 + (unsigned)(*p - '0');
    }
    e->prefix = bits;
    return bits <= max;
}

/* One entry, without blanks; false when it is none of the forms. */
static bool parse_entry(const char *text, size_t len, struct no_proxy_entry *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->text, sizeof e->text, "%.*s", (int)len, text);
    if (parse_cidr(text, len, e)) {
        e->kind = NO_PROXY_ADDRESS;
        return true;
    }
    /* A port is dropped: "[v6]:port", "host:port" (one colon only, so a
     * bare IPv6 literal keeps its colons). */
    const char *colon = memchr(text, ':', len);
    if (text[0] == '[' && memchr(text, ']', len))
        len = (size_t)((const char *)memchr(text, ']', len) - text) + 1;
    else if (colon && !memchr(colon + 1, ':', len - (size_t)(colon + 1 - text)))
        len = (size_t)(colon - text);
    if (len >= 2 && text[0] == '*' && text[1] == '.') {
        text += 2;
        len -= 2;
    } else if (len >= 1 && text[0] == '.') {
        text++;
        len--;
    }
    struct dest_host host;
    if (len == 0 || dest_host_parse(text, len, &host) != HOST_OK)
        return false;
    if (host.is_literal) {
        e->kind = NO_PROXY_ADDRESS;
        e->addr = host.literal;
        e->prefix = host.literal.family == AF_INET ? 32 : 128;
    } else {
        e->kind = NO_PROXY_NAME;
        snprintf(e->name, sizeof e->name, "%s", host.name);
    }
    return true;
}

const char *upstream_no_proxy_parse(struct upstream_proxy *up, const char *list)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        const char *start = p;
        p += len + (p[len] == ',');
        while (len && (*start == ' ' || *start == '\t')) {
            start++;
            len--;
        }
        while (len && (start[len - 1] == ' ' || start[len - 1] == '\t'))
            len--;
        if (len == 1 && *start == '*') {
            up->all_direct = true;
            continue;
        }
        if (len == 0 || len >= UPSTREAM_ENTRY_MAX)
            continue;
        if (up->no_proxy_count == UPSTREAM_NO_PROXY_MAX)
            return "has more than 64 entries";
        if (parse_entry(start, len, &up->no_proxy[up->no_proxy_count]))
            up->no_proxy_count++;
    }
    return NULL;
}

const char *upstream_bypass(const struct upstream_proxy *up, const struct dest_host *host)
{
    if (up->all_direct)
        return "*";
    for (size_t i = 0; i < up->no_proxy_count; i++) {
        const struct no_proxy_entry *e = &up->no_proxy[i];
        bool hit = e->kind == NO_PROXY_ADDRESS
                       ? host->is_literal && host->literal.family == e->addr.family &&
                             ip_prefix_match(host->literal.b, e->addr.b, e->prefix)
                       : !host->is_literal &&
                             (strcmp(host->name, e->name) == 0 || host_name_beneath(host->name, e->name));
        if (hit)
            return e->text;
    }
    return NULL;
}

size_t upstream_connect_head(const struct upstream_proxy *up, const struct dest_host *host, unsigned port,
                             char *out, size_t cap)
{
    char authority[HOST_NAME_MAX_LEN + 16];
    bool v6 = host->is_literal && host->literal.family == AF_INET6;
    snprintf(authority, sizeof authority, v6 ? "[%s]:%u" : "%s:%u", host->name, port);
    return proxy_connect_request(authority, up->url.has_credentials ? up->url.user : NULL, up->url.password,
                                 out, cap);
}
