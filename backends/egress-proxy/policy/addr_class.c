/*
 * addr_class.c — see addr_class.h.  The tables follow the IANA IPv4 and IPv6
 * special-purpose address registries: everything a name must never lead the
 * egress process to (its own host, the host's LAN, the cloud metadata
 * service at 169.254.169.254, ...).
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "policy/addr_class.h"

/* A dotted quad as inet_pton(AF_INET) accepts it, re-checked by hand so the
 * rule does not depend on one libc's leniency (leading zeros would read as
 * octal elsewhere). */
static bool strict_dotted_quad(const char *s)
{
    int parts = 0;
    while (1) {
        size_t n = 0;
        while (s[n] >= '0' && s[n] <= '9')
            n++;
        if (n == 0 || n > 3 || (n > 1 && s[0] == '0'))
            return false;
        parts++;
        s += n;
        if (*s == '\0')
            return parts == 4;
        if (*s != '.' || parts == 4)
            return false;
        s++;
    }
}

int ip_literal_parse(const char *text, size_t len, struct ip_addr *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf || memchr(text, '\0', len))
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *s = buf;
    bool bracketed = false;
    if (s[0] == '[') {
        if (buf[len - 1] != ']')
            return -1;
        buf[len - 1] = '\0';
        s++;
        bracketed = true;
    }
    memset(out, 0, sizeof *out);
    if (!bracketed && strict_dotted_quad(s)) {
        out->family = AF_INET;
        return inet_pton(AF_INET, s, out->b) == 1 ? 0 : -1;
    }
    if (!strchr(s, ':'))
        return -1;
    char *zone = strchr(s, '%');
    if (zone) {
        if (zone[1] == '\0')
            return -1;
        *zone = '\0';
    }
    out->family = AF_INET6;
    return inet_pton(AF_INET6, s, out->b) == 1 ? 0 : -1;
}

static bool all_zero(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

static void set_v4(struct ip_addr *out, const unsigned char *four)
{
    memset(out, 0, sizeof *out);
    out->family = AF_INET;
    memcpy(out->b, four, 4);
}

void ip_unwrap(const struct ip_addr *in, struct ip_addr *out)
{
    static const unsigned char nat64[12] = {0x00, 0x64, 0xff, 0x9b};
    const unsigned char *b = in->b;
    *out = *in;
    if (in->family != AF_INET6)
        return;
    if (all_zero(b, 10) && b[10] == 0xff && b[11] == 0xff) /* ::ffff:a.b.c.d */
        set_v4(out, b + 12);
    else if (all_zero(b, 8) && b[8] == 0xff && b[9] == 0xff && !b[10] && !b[11]) /* ::ffff:0:a.b.c.d */
        set_v4(out, b + 12);
    else if (all_zero(b, 12) && !(all_zero(b + 12, 3) && b[15] <= 1)) /* ::a.b.c.d, not :: or ::1 */
        set_v4(out, b + 12);
    else if (memcmp(b, nat64, 12) == 0) /* 64:ff9b::/96 */
        set_v4(out, b + 12);
    else if (b[0] == 0x20 && b[1] == 0x02) /* 2002::/16 6to4 */
        set_v4(out, b + 2);
}

struct range {
    unsigned char prefix[16];
    unsigned bits;
    enum addr_class cls;
};

static const struct range v4_ranges[] = {
    {{0}, 8, ADDR_UNSPECIFIED},
    {{10}, 8, ADDR_PRIVATE},
    {{100, 64}, 10, ADDR_CGNAT},
    {{127}, 8, ADDR_LOOPBACK},
    {{169, 254}, 16, ADDR_LINK_LOCAL},
    {{172, 16}, 12, ADDR_PRIVATE},
    {{192, 0, 0}, 24, ADDR_RESERVED},
    {{192, 0, 2}, 24, ADDR_DOCUMENTATION},
    {{192, 88, 99}, 24, ADDR_RESERVED},
    {{192, 168}, 16, ADDR_PRIVATE},
    {{198, 18}, 15, ADDR_BENCHMARK},
    {{198, 51, 100}, 24, ADDR_DOCUMENTATION},
    {{203, 0, 113}, 24, ADDR_DOCUMENTATION},
    {{224}, 4, ADDR_MULTICAST},
    {{240}, 4, ADDR_RESERVED}, /* includes 255.255.255.255 */
};

static const struct range v6_ranges[] = {
    {{0}, 128, ADDR_UNSPECIFIED},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128, ADDR_LOOPBACK},
    {{0x00, 0x64, 0xff, 0x9b, 0x00, 0x01}, 48, ADDR_PRIVATE}, /* local-use NAT64 */
    {{0}, 8, ADDR_RESERVED},                                  /* the rest of ::/8 */
    {{0x01, 0x00}, 64, ADDR_RESERVED},                        /* discard-only */
    {{0x20, 0x01, 0x00, 0x00}, 32, ADDR_RESERVED},            /* Teredo hides an IPv4 */
    {{0x20, 0x01, 0x00, 0x02, 0x00, 0x00}, 48, ADDR_BENCHMARK},
    {{0x20, 0x01, 0x0d, 0xb8}, 32, ADDR_DOCUMENTATION},
    {{0x3f, 0xff}, 20, ADDR_DOCUMENTATION},
    {{0xfc}, 7, ADDR_PRIVATE}, /* unique local */
    {{0xfe, 0x80}, 10, ADDR_LINK_LOCAL},
    {{0xfe, 0xc0}, 10, ADDR_PRIVATE}, /* site-local (deprecated) */
    {{0xff}, 8, ADDR_MULTICAST},
};

bool ip_prefix_match(const unsigned char *b, const unsigned char *prefix, unsigned bits)
{
    unsigned full = bits / 8, rest = bits % 8;
    if (memcmp(b, prefix, full) != 0)
        return false;
    if (rest == 0)
        return true;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (b[full] & mask) == (prefix[full] & mask);
}

static bool in_range(const unsigned char *b, const struct range *r)
{
    return ip_prefix_match(b, r->prefix, r->bits);
}

enum addr_class addr_classify(const struct ip_addr *addr)
{
    struct ip_addr a;
    ip_unwrap(addr, &a);
    const struct range *table = a.family == AF_INET ? v4_ranges : v6_ranges;
    size_t n =
        a.family == AF_INET ? sizeof v4_ranges / sizeof v4_ranges[0] : sizeof v6_ranges / sizeof v6_ranges[0];
    if (a.family != AF_INET && a.family != AF_INET6)
        return ADDR_RESERVED;
    /* First match wins: the tables list the more specific ranges first. */
    for (size_t i = 0; i < n; i++)
        if (in_range(a.b, &table[i]))
            return table[i].cls;
    return ADDR_PUBLIC;
}

bool addr_class_internal(enum addr_class cls)
{
    return cls == ADDR_PRIVATE || cls == ADDR_CGNAT || cls == ADDR_BENCHMARK || cls == ADDR_DOCUMENTATION;
}

const char *addr_class_name(enum addr_class cls)
{
    switch (cls) {
    case ADDR_PUBLIC: return "public";
    case ADDR_UNSPECIFIED: return "unspecified";
    case ADDR_LOOPBACK: return "loopback";
    case ADDR_PRIVATE: return "private";
    case ADDR_LINK_LOCAL: return "link-local";
    case ADDR_MULTICAST: return "multicast";
    case ADDR_CGNAT: return "shared (CGNAT)";
    case ADDR_DOCUMENTATION: return "documentation";
    case ADDR_BENCHMARK: return "benchmarking";
    default: return "reserved";
    }
}

bool ip_equal(const struct ip_addr *a, const struct ip_addr *b)
{
    size_t n = a->family == AF_INET ? 4 : 16;
    return a->family == b->family && memcmp(a->b, b->b, n) == 0;
}

int ip_format(const struct ip_addr *addr, char *buf, size_t len)
{
    return inet_ntop(addr->family, addr->b, buf, (socklen_t)len) ? 0 : -1;
}

int ip_from_sockaddr(const struct sockaddr *sa, struct ip_addr *out)
{
    memset(out, 0, sizeof *out);
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        out->family = AF_INET;
        memcpy(out->b, &in->sin_addr, 4);
        return 0;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        out->family = AF_INET6;
        memcpy(out->b, &in6->sin6_addr, 16);
        return 0;
    }
    return -1;
}
