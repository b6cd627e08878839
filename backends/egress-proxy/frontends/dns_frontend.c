/*
 * dns_frontend.c — the transparent front-end's resolver (backends/egress-proxy/README.md,
 * "Transparent front-end"): a UDP socket on 127.0.0.53:53 inside the
 * sandbox.  A standard query (dns_parse.c) for a name the transparent
 * rules allow gets its synthetic address; any other name NXDOMAIN and a
 * refusal-report line; anything that is not such a query, nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "parse/dns_parse.h"
#include "process/conn.h"
#include "process/refusal_report.h"

#define DNS_TTL 60        /* seconds: the slot of a name never changes during a run */
#define DNS_PER_WAKEUP 64 /* datagrams per call: a flood cannot hold the loop */

static void report_name(struct egress_loop *loop, const char *name, const char *rule)
{
    if (loop->report_fd < 0)
        return;
    char reason[400];
    snprintf(reason, sizeof reason,
             "'%.253s' is not in network.allowedHosts: the sandbox's resolver gives it no address", name);
    struct refusal_event e = {.front_end = "dns", .host = name, .port = 53, .rule = rule, .reason = reason};
    refusal_report_write(loop->report_fd, &e);
}

/* The answer to q, into out (DNS_ANSWER_MAX); its length. */
static size_t answer(struct egress_loop *loop, const struct dns_query *q, unsigned char *out)
{
    struct dest_host host;
    enum host_parse_result r = dest_host_parse(q->name, strlen(q->name), &host);
    bool allowed = r == HOST_OK && !host.is_literal &&
                   host_rules_name(loop->transparent.rules, loop->transparent.count, &host);
    if (!allowed) {
        /* One line per lookup: not for the AAAA a resolver sends beside the A. */
        if (q->qtype != DNS_TYPE_AAAA)
            report_name(loop, q->name, r == HOST_NUMERIC ? "numeric-host-spelling" : "allowedHosts");
        return dns_write_answer(out, q, DNS_NXDOMAIN, NULL, 0);
    }
    /* No synthetic IPv6: an empty answer, and clients use the A record. */
    if (q->qtype != DNS_TYPE_A)
        return dns_write_answer(out, q, DNS_NOERROR, NULL, 0);
    int slot = synth_table_slot(loop->synth, host.name);
    if (slot < 0)
        return dns_write_answer(out, q, DNS_SERVFAIL, NULL, 0); /* the wildcard pool is used up */
    unsigned char addr[4];
    synth_slot_addr((size_t)slot, addr);
    return dns_write_answer(out, q, DNS_NOERROR, addr, DNS_TTL);
}

void dns_frontend_serve(struct egress_loop *loop, int fd)
{
    for (int i = 0; i < DNS_PER_WAKEUP; i++) {
        unsigned char query[DNS_QUERY_MAX];
        struct sockaddr_storage from;
        socklen_t fromlen = sizeof from;
        /* MSG_TRUNC: the datagram's real length, so an oversized one is
         * dropped rather than read as its first bytes. */
        ssize_t n =
            recvfrom(fd, query, sizeof query, MSG_DONTWAIT | MSG_TRUNC, (struct sockaddr *)&from, &fromlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return; /* EAGAIN: all read */
        struct dns_query q;
        if ((size_t)n > sizeof query || fromlen > sizeof from || !dns_parse_query(query, (size_t)n, &q))
            continue; /* not a stub resolver's query: no answer at all */
        unsigned char out[DNS_ANSWER_MAX];
        size_t len = answer(loop, &q, out);
        sendto(fd, out, len, MSG_DONTWAIT, (struct sockaddr *)&from, fromlen);
    }
}
