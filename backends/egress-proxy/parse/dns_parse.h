/*
 * dns_parse.h — the transparent front-end's resolver (backends/egress-proxy/README.md,
 * "Transparent front-end"): the one DNS message it reads, a stub
 * resolver's standard query, and the answers it writes.  Pure.
 */
#ifndef HAS_EGRESS_DNS_PARSE_H
#define HAS_EGRESS_DNS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DNS_HEADER_LEN 12
/* A question: a name of at most 255 bytes on the wire, then type and class. */
#define DNS_QUESTION_MAX (255 + 4)
/* The longest answer: header, question, one A record (name pointer, type,
 * class, TTL, length, address). */
#define DNS_ANSWER_MAX (DNS_HEADER_LEN + DNS_QUESTION_MAX + 16)
/* The longest query read: EDNS lets clients send up to 4096, and only the
 * header and the question are used. */
#define DNS_QUERY_MAX 4096

#define DNS_TYPE_A 1
#define DNS_TYPE_AAAA 28

enum dns_rcode { DNS_NOERROR = 0, DNS_SERVFAIL = 2, DNS_NXDOMAIN = 3 };

struct dns_query {
    uint16_t id;
    bool rd; /* recursion desired, echoed */
    uint16_t qtype;
    char name[254];                           /* dotted, lower case, no trailing dot */
    unsigned char question[DNS_QUESTION_MAX]; /* the question as sent, echoed in the answer */
    size_t question_len;
};

/*
 * Read a standard query: QR 0, OPCODE 0, TC 0, one question of class IN,
 * no answer or authority records, at most one additional record (EDNS's
 * OPT, not read), a name of uncompressed labels of [A-Za-z0-9_-], 1..63
 * bytes each, not empty.  Anything else is not answered: false.
 */
bool dns_parse_query(const unsigned char *msg, size_t len, struct dns_query *out);

/*
 * Write the answer to q into out (DNS_ANSWER_MAX bytes): rcode, and with
 * addr4 (4 bytes, NOERROR only) one A record with `ttl`.  Returns its
 * length.  The question is q's, as sent; nothing else of the query is
 * copied.
 */
size_t dns_write_answer(unsigned char *out, const struct dns_query *q, enum dns_rcode rcode,
                        const unsigned char *addr4, uint32_t ttl);

#endif
