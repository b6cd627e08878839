/*
 * addr_class.h — strict IP literals and the classification of addresses the
 * egress process may connect to (backends/egress-proxy/README.md).  Pure functions, no I/O.
 */
#ifndef HAS_EGRESS_ADDR_CLASS_H
#define HAS_EGRESS_ADDR_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct ip_addr {
    int family;          /* AF_INET or AF_INET6 */
    unsigned char b[16]; /* network order; AF_INET uses b[0..3] */
};

enum addr_class {
    ADDR_PUBLIC = 0,
    ADDR_UNSPECIFIED,
    ADDR_LOOPBACK,
    ADDR_PRIVATE,
    ADDR_LINK_LOCAL,
    ADDR_MULTICAST,
    ADDR_CGNAT,
    ADDR_DOCUMENTATION,
    ADDR_BENCHMARK,
    ADDR_RESERVED,
};

/*
 * Parse a strict IP literal: a dotted quad of four decimal parts without
 * leading zeros (inet_pton), or an IPv6 address, plain or in brackets, with
 * any "%zone" dropped.  Nothing else is an address: "127.1", "2130706433",
 * "0177.0.0.1" and "0x7f.1" return -1 (they are names, and host_match.c
 * refuses them as ambiguous).  Returns 0 and fills *out, or -1.
 */
int ip_literal_parse(const char *text, size_t len, struct ip_addr *out);

/* The IPv4 address embedded in an IPv4-mapped, IPv4-compatible, SIIT,
 * NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 address; otherwise a copy. */
void ip_unwrap(const struct ip_addr *in, struct ip_addr *out);

/* Classify after unwrapping.  Only ADDR_PUBLIC may be reached by a name. */
enum addr_class addr_classify(const struct ip_addr *addr);

/* May a name listed in network.allowedInternalHosts reach this class?
 * Private, CGNAT, benchmarking and documentation: what internal networks
 * number their hosts with.  Never loopback, link-local (the metadata
 * address), multicast, unspecified or reserved. */
bool addr_class_internal(enum addr_class cls);

/* "loopback", "private", ... for messages. */
const char *addr_class_name(enum addr_class cls);

bool ip_equal(const struct ip_addr *a, const struct ip_addr *b);

/* Do the first `bits` bits of the addresses' bytes b and prefix agree? */
bool ip_prefix_match(const unsigned char *b, const unsigned char *prefix, unsigned bits);

/* Canonical text (inet_ntop), no brackets.  Returns 0 or -1. */
int ip_format(const struct ip_addr *addr, char *buf, size_t len);

/* From a sockaddr_in / sockaddr_in6 (scope id ignored).  0 or -1. */
int ip_from_sockaddr(const struct sockaddr *sa, struct ip_addr *out);

#endif
