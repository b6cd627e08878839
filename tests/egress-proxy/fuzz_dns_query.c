/*
 * fuzz_dns_query.c — libFuzzer target for the transparent front-end's
 * resolver: every datagram the workload can send it.  A query that is
 * accepted must be a standard query whose answer stays within
 * DNS_ANSWER_MAX and carries nothing but the question it parsed.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/dns_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dns_query q;
    if (!dns_parse_query(data, size, &q))
        return 0;
    if (size < DNS_HEADER_LEN || (data[2] & 0xfa) != 0 || q.question_len > size - DNS_HEADER_LEN ||
        q.question_len > DNS_QUESTION_MAX || strlen(q.name) > 253 ||
        memcmp(q.question, data + DNS_HEADER_LEN, q.question_len) != 0)
        abort();
    unsigned char out[DNS_ANSWER_MAX];
    static const unsigned char addr[4] = {127, 64, 0, 1};
    size_t n = dns_write_answer(out, &q, DNS_NOERROR, addr, 60);
    if (n > sizeof out || memcmp(out + DNS_HEADER_LEN, q.question, q.question_len) != 0)
        abort();
    return 0;
}
