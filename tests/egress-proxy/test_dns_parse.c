/*
 * test_dns_parse.c — CUnit: the transparent front-end's resolver messages
 * (dns_parse.c): stub resolvers' queries read, everything else dropped,
 * answers built from what was parsed only.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "parse/dns_parse.h"
#include "../cunit_run.h"

/* A query as glibc sends it: id, RD, one question, optionally EDNS's OPT. */
static size_t make_query(unsigned char *m, const char *name, unsigned qtype, bool edns)
{
    static const unsigned char head[12] = {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0};
    memcpy(m, head, 12);
    size_t at = 12;
    while (*name) {
        const char *dot = strchr(name, '.');
        size_t n = dot ? (size_t)(dot - name) : strlen(name);
        m[at++] = (unsigned char)n;
        memcpy(m + at, name, n);
        at += n;
        name += n + (dot ? 1 : 0);
    }
    m[at++] = 0;
    m[at++] = (unsigned char)(qtype >> 8);
    m[at++] = (unsigned char)qtype;
    m[at++] = 0;
    m[at++] = 1;
    if (edns) {
        static const unsigned char opt[11] = {0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0};
        m[11] = 1;
        memcpy(m + at, opt, sizeof opt);
        at += sizeof opt;
    }
    return at;
}

static void test_query(void)
{
    unsigned char m[600];
    struct dns_query q;
    size_t n = make_query(m, "Api.GitHub.com", DNS_TYPE_A, true);
    CU_ASSERT_TRUE(dns_parse_query(m, n, &q));
    CU_ASSERT_EQUAL(q.id, 0x1234);
    CU_ASSERT_TRUE(q.rd);
    CU_ASSERT_EQUAL(q.qtype, DNS_TYPE_A);
    CU_ASSERT_STRING_EQUAL(q.name, "api.github.com");
    /* The question as sent (case kept: 0x20 randomisation), nothing of the OPT. */
    CU_ASSERT_EQUAL(q.question_len, 1 + 3 + 1 + 6 + 1 + 3 + 1 + 4);
    CU_ASSERT_EQUAL(memcmp(q.question, m + 12, q.question_len), 0);
    n = make_query(m, "a_b-c.example", DNS_TYPE_AAAA, false);
    CU_ASSERT_TRUE(dns_parse_query(m, n, &q));
    CU_ASSERT_EQUAL(q.qtype, DNS_TYPE_AAAA);
}

static void test_answer(void)
{
    unsigned char m[600], out[DNS_ANSWER_MAX];
    struct dns_query q;
    size_t n = make_query(m, "Example.COM", DNS_TYPE_A, true);
    CU_ASSERT_TRUE(dns_parse_query(m, n, &q));
    static const unsigned char addr[4] = {127, 64, 0, 3};
    size_t len = dns_write_answer(out, &q, DNS_NOERROR, addr, 60);
    CU_ASSERT_EQUAL(len, 12 + q.question_len + 16);
    CU_ASSERT_EQUAL(out[0], 0x12);
    CU_ASSERT_EQUAL(out[1], 0x34);
    CU_ASSERT_EQUAL(out[2], 0x85); /* QR AA RD */
    CU_ASSERT_EQUAL(out[3], 0x80); /* RA, NOERROR */
    CU_ASSERT_EQUAL(out[7], 1);    /* one answer */
    CU_ASSERT_EQUAL(out[11], 0);   /* no OPT echoed */
    CU_ASSERT_EQUAL(memcmp(out + 12, m + 12, q.question_len), 0);
    CU_ASSERT_EQUAL(memcmp(out + len - 4, addr, 4), 0);
    /* NXDOMAIN and NODATA carry no record, even with an address given. */
    len = dns_write_answer(out, &q, DNS_NXDOMAIN, addr, 60);
    CU_ASSERT_EQUAL(len, 12 + q.question_len);
    CU_ASSERT_EQUAL(out[3] & 0xf, DNS_NXDOMAIN);
    CU_ASSERT_EQUAL(out[7], 0);
    len = dns_write_answer(out, &q, DNS_NOERROR, NULL, 60);
    CU_ASSERT_EQUAL(len, 12 + q.question_len);
    CU_ASSERT_EQUAL(out[7], 0);
}

static void test_dropped(void)
{
    unsigned char m[5000];
    struct dns_query q;
    size_t n = make_query(m, "example.com", DNS_TYPE_A, false);
    /* Truncated anywhere: dropped. */
    for (size_t cut = 0; cut < n; cut++)
        CU_ASSERT_FALSE(dns_parse_query(m, cut, &q));
    struct {
        size_t at;
        unsigned char v;
    } edits[] = {
        {2, 0x81},  /* QR: a response */
        {2, 0x09},  /* OPCODE 1 (inverse query) */
        {2, 0x29},  /* OPCODE 5 (update) */
        {2, 0x03},  /* TC */
        {5, 2},     /* two questions */
        {5, 0},     /* none */
        {7, 1},     /* an answer record */
        {9, 1},     /* an authority record */
        {11, 2},    /* two additional records */
        {n - 1, 3}, /* class CH */
        {12, 0xc0}, /* a compression pointer as the name */
        {12, 0x40}, /* reserved label type */
        {13, '.'},  /* a dot inside a label */
        {13, 0},    /* a NUL inside a label */
        {13, ' '},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        unsigned char c[600];
        memcpy(c, m, n);
        c[edits[i].at] = edits[i].v;
        CU_ASSERT_FALSE(dns_parse_query(c, n, &q));
    }
    /* The root name alone. */
    static const unsigned char root[17] = {0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1};
    CU_ASSERT_FALSE(dns_parse_query(root, sizeof root, &q));
    /* A compression loop: a pointer to itself. */
    unsigned char loop[18] = {0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1};
    CU_ASSERT_FALSE(dns_parse_query(loop, sizeof loop, &q));
    /* A label of 64 bytes; a name of 256 wire bytes; 253 text bytes pass. */
    char name[400];
    memset(name, 'a', 64);
    name[64] = '\0';
    n = make_query(m, name, DNS_TYPE_A, false);
    CU_ASSERT_FALSE(dns_parse_query(m, n, &q));
    for (int i = 0; i < 4; i++) {
        memset(name + i * 64, 'b', 63);
        name[i * 64 + 63] = '.';
    }
    name[4 * 64 - 1] = '\0'; /* 4 x 63 + 3 dots = 255 text bytes */
    n = make_query(m, name, DNS_TYPE_A, false);
    CU_ASSERT_FALSE(dns_parse_query(m, n, &q));
    name[253] = '\0'; /* 253: the longest name */
    n = make_query(m, name, DNS_TYPE_A, false);
    CU_ASSERT_TRUE(dns_parse_query(m, n, &q));
    CU_ASSERT_EQUAL(strlen(q.name), 253);
    name[253] = 'b'; /* 254 */
    name[254] = '\0';
    n = make_query(m, name, DNS_TYPE_A, false);
    CU_ASSERT_FALSE(dns_parse_query(m, n, &q));
    /* Huge: beyond DNS_QUERY_MAX, even if the start is a good query. */
    n = make_query(m, "example.com", DNS_TYPE_A, true);
    CU_ASSERT_FALSE(dns_parse_query(m, DNS_QUERY_MAX + 1, &q));
}

/* Random and mutated datagrams: never accepted beyond the rules, never
 * out of bounds (the sanitizer build turns a slip into a crash). */
static void test_mutations(void)
{
    unsigned char base[600], m[600];
    struct dns_query q;
    size_t n = make_query(base, "www.example.org", DNS_TYPE_A, true);
    srand(26);
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        size_t len = (size_t)rand() % (n + 8);
        memcpy(m, base, n);
        for (int k = rand() % 4; k >= 0; k--)
            m[(size_t)rand() % (n + 8)] = (unsigned char)rand();
        if (dns_parse_query(m, len, &q))
            bad += (m[2] & 0xfa) != 0x00 || q.question_len > len - 12 || strlen(q.name) > 253 ||
                   memcmp(q.question, m + 12, q.question_len) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("transparent resolver messages", NULL, NULL);
    CU_add_test(s, "standard queries read", test_query);
    CU_add_test(s, "answers", test_answer);
    CU_add_test(s, "everything else dropped", test_dropped);
    CU_add_test(s, "mutated datagrams stay in bounds", test_mutations);
    return cunit_run_registry();
}
