/*
 * dns_parse.c — see dns_parse.h.  RFC 1035 section 4.1.
 */
#include "config.h"

#include <string.h>

#include "parse/dns_parse.h"

#define CLASS_IN 1

static uint16_t get16(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static bool label_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* The question's name at msg[at..len): labels until the root, no pointers
 * (a pointer's two top bits, and the reserved 01/10, are refused alike).
 * Writes the dotted, lower-cased name; returns the offset after the root
 * label, or 0. */
static size_t parse_name(const unsigned char *msg, size_t len, size_t at, char *name)
{
    size_t out = 0, start = at;
    for (;;) {
        if (at >= len)
            return 0;
        unsigned n = msg[at++];
        if (n == 0)
            break;
        if (n > 63 || at + n > len || at - start + n > 254)
            return 0;
        if (out)
            name[out++] = '.';
        for (unsigned i = 0; i < n; i++) {
            unsigned char c = msg[at + i];
            if (!label_byte(c))
                return 0;
            name[out++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        }
        at += n;
    }
    /* The wire name (root label included) is at most 255 bytes. */
    if (out == 0 || at - start > 255)
        return 0;
    name[out] = '\0';
    return at;
}

bool dns_parse_query(const unsigned char *msg, size_t len, struct dns_query *out)
{
    memset(out, 0, sizeof *out);
    if (len < DNS_HEADER_LEN || len > DNS_QUERY_MAX)
        return false;
    unsigned flags = get16(msg + 2);
    bool qr = flags & 0x8000, tc = flags & 0x0200;
    unsigned opcode = (flags >> 11) & 0xf;
    if (qr || opcode != 0 || tc || get16(msg + 4) != 1 || get16(msg + 6) != 0 || get16(msg + 8) != 0 ||
        get16(msg + 10) > 1)
        return false;
    size_t end = parse_name(msg, len, DNS_HEADER_LEN, out->name);
    if (end == 0 || end + 4 > len || get16(msg + end + 2) != CLASS_IN)
        return false;
    out->id = get16(msg);
    out->rd = flags & 0x0100;
    out->qtype = get16(msg + end);
    out->question_len = end + 4 - DNS_HEADER_LEN;
    memcpy(out->question, msg + DNS_HEADER_LEN, out->question_len);
    return true;
}

size_t dns_write_answer(unsigned char *out, const struct dns_query *q, enum dns_rcode rcode,
                        const unsigned char *addr4, uint32_t ttl)
{
    bool answer = addr4 && rcode == DNS_NOERROR;
    put16(out, q->id);
    /* QR, AA; RD as asked; RA: the clients we serve expect recursion. */
    put16(out + 2, (uint16_t)(0x8000 | 0x0400 | (q->rd ? 0x0100 : 0) | 0x0080 | (unsigned)rcode));
    put16(out + 4, 1);
    put16(out + 6, answer ? 1 : 0);
    put16(out + 8, 0);
    put16(out + 10, 0);
    size_t at = DNS_HEADER_LEN;
    memcpy(out + at, q->question, q->question_len);
    at += q->question_len;
    if (answer) {
        static const unsigned char rr[] = {0xc0, DNS_HEADER_LEN, 0, DNS_TYPE_A, 0, CLASS_IN};
        memcpy(out + at, rr, sizeof rr);
        at += sizeof rr;
        out[at++] = (unsigned char)(ttl >> 24);
        out[at++] = (unsigned char)(ttl >> 16);
        out[at++] = (unsigned char)(ttl >> 8);
        out[at++] = (unsigned char)ttl;
        put16(out + at, 4);
        at += 2;
        memcpy(out + at, addr4, 4);
        at += 4;
    }
    return at;
}
