/*
 * test_proxy_parsers.c — CUnit: the HTTP request parser (CONNECT,
 * absolute-URI rewriting, credentials, limits, hostile heads), the SOCKS5
 * parsers (RFC 1928 / RFC 1929), base64 and the credential check.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/http_parse.h"
#include "parse/socks5_parse.h"
#include "policy/proxy_auth.h"
#include "process/refusal_report.h"
#include "../cunit_run.h"

/* "sandbox:s3cret" */
#define AUTH "Proxy-Authorization: Basic c2FuZGJveDpzM2NyZXQ=\r\n"

static char rewritten[HTTP_REWRITE_MAX];
static size_t rewritten_len;

static enum http_parse_result parse(const char *text, struct http_request *req)
{
    rewritten_len = 0;
    return http_parse_request(text, strlen(text), req, rewritten, &rewritten_len);
}

static void test_http_connect(void)
{
    struct http_request r;
    CU_ASSERT_EQUAL(parse("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n" AUTH "\r\n", &r),
                    HTTP_PARSED);
    CU_ASSERT_TRUE(r.is_connect);
    CU_ASSERT_EQUAL(r.host_len, 11);
    CU_ASSERT_EQUAL(strncmp(r.host, "example.com", 11), 0);
    CU_ASSERT_EQUAL(r.port, 443);
    CU_ASSERT_TRUE(r.has_credentials);
    CU_ASSERT_STRING_EQUAL(r.user, "sandbox");
    CU_ASSERT_STRING_EQUAL(r.pass, "s3cret");

    const char *with_body = "CONNECT [::1]:8443 HTTP/1.1\r\n\r\nEARLY";
    CU_ASSERT_EQUAL(http_parse_request(with_body, strlen(with_body), &r, rewritten, &rewritten_len),
                    HTTP_PARSED);
    CU_ASSERT_EQUAL(r.head_len, strlen(with_body) - 5);
    CU_ASSERT_EQUAL(strncmp(r.host, "::1", r.host_len), 0);
    CU_ASSERT_EQUAL(r.port, 8443);
    CU_ASSERT_FALSE(r.has_credentials);
}

/* The wire's port syntax, not the policy's: leading zeros are the same
 * port (RFC 3986), and a port is still 1..65535 in at most 5 digits. */
static void test_http_port(void)
{
    struct http_request r;
    CU_ASSERT_EQUAL(parse("CONNECT example.com:0443 HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    CU_ASSERT_EQUAL(r.port, 443);
    CU_ASSERT_EQUAL(parse("CONNECT example.com:65535 HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    CU_ASSERT_EQUAL(r.port, 65535);
    static const char *const refused[] = {"0", "00000", "65536", "000443", "", "+443", "44a"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char head[128];
        snprintf(head, sizeof head, "CONNECT example.com:%s HTTP/1.1\r\n\r\n", refused[i]);
        CU_ASSERT_EQUAL(parse(head, &r), HTTP_MALFORMED);
    }
}

static void test_http_absolute(void)
{
    struct http_request r;
    const char *req = "POST http://Example.com:8080/a/b?c=d HTTP/1.1\r\n"
                      "Host: attacker.invalid\r\n" AUTH
                      "Proxy-Connection: keep-alive\r\nConnection: keep-alive, X-Secret\r\n"
                      "X-Secret: drop-me\r\nKeep-Alive: 5\r\nContent-Length: 3\r\nUser-Agent: t\r\n\r\nabc";
    CU_ASSERT_EQUAL(parse(req, &r), HTTP_PARSED);
    CU_ASSERT_FALSE(r.is_connect);
    CU_ASSERT_EQUAL(r.port, 8080);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_EQUAL(strncmp(rewritten, "POST /a/b?c=d HTTP/1.1\r\nHost: Example.com:8080\r\n", 48), 0);
    CU_ASSERT_PTR_NULL(strstr(rewritten, "Proxy-Authorization"));
    CU_ASSERT_PTR_NULL(strstr(rewritten, "attacker"));
    CU_ASSERT_PTR_NULL(strstr(rewritten, "X-Secret"));
    CU_ASSERT_PTR_NULL(strstr(rewritten, "Keep-Alive"));
    CU_ASSERT_PTR_NULL(strstr(rewritten, "keep-alive"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "Content-Length: 3\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "User-Agent: t\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "Connection: close\r\n\r\n"));
    CU_ASSERT_EQUAL(r.head_len, strlen(req) - 3);

    /* Connection naming a framing field would strip it from the rewrite. */
    CU_ASSERT_EQUAL(parse("POST http://h/ HTTP/1.1\r\nConnection: Content-Length\r\n"
                          "Content-Length: 3\r\n\r\nabc",
                          &r),
                    HTTP_MALFORMED);
    CU_ASSERT_EQUAL(parse("POST http://h/ HTTP/1.1\r\nConnection: close,content-length\r\n"
                          "Content-Length: 3\r\n\r\nabc",
                          &r),
                    HTTP_MALFORMED);
    CU_ASSERT_EQUAL(parse("GET http://h/ HTTP/1.1\r\nConnection: Content-Length\r\n\r\n", &r),
                    HTTP_MALFORMED);

    CU_ASSERT_EQUAL(parse("GET http://h HTTP/1.0\r\n\r\n", &r), HTTP_PARSED);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_EQUAL(r.port, 80);
    CU_ASSERT_EQUAL(strncmp(rewritten, "GET / HTTP/1.0\r\nHost: h\r\n", 25), 0);

    CU_ASSERT_EQUAL(parse("GET http://h?q=1 HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_EQUAL(strncmp(rewritten, "GET /?q=1 HTTP/1.1\r\n", 20), 0);

    CU_ASSERT_EQUAL(parse("GET http://[::1]:81/ HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "Host: [::1]:81\r\n"));
}

static void test_http_body_length(void)
{
    struct http_request r;
    CU_ASSERT_EQUAL(parse("POST http://h/ HTTP/1.1\r\nContent-Length: 123456789012345\r\n\r\n", &r),
                    HTTP_PARSED);
    CU_ASSERT_EQUAL(r.body_len, 123456789012345ULL);
    CU_ASSERT_EQUAL(parse("POST http://h/ HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &r), HTTP_PARSED);
    CU_ASSERT_EQUAL(r.body_len, 0);
    /* The length goes on as the number counted, not as spelt. */
    CU_ASSERT_EQUAL(parse("POST http://h/ HTTP/1.1\r\nContent-Length: 005\r\n\r\n", &r), HTTP_PARSED);
    CU_ASSERT_EQUAL(r.body_len, 5);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "\r\nContent-Length: 5\r\n"));
    /* A fragment is not sent to the origin. */
    CU_ASSERT_EQUAL(parse("GET http://h/a?q#frag HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(rewritten, "GET /a?q HTTP/1.1\r\n"));
    CU_ASSERT_PTR_NULL(strchr(rewritten, '#'));
    CU_ASSERT_EQUAL(parse("GET http://h/ HTTP/1.1\r\n\r\nGET http://h/2 HTTP/1.1\r\n\r\n", &r), HTTP_PARSED);
    CU_ASSERT_EQUAL(r.body_len, 0); /* no body: the second request is not part of this one */
    rewritten[rewritten_len] = '\0';
    CU_ASSERT_PTR_NULL(strstr(rewritten, "/2"));
}

static void test_refusal_line(void)
{
    char line[REFUSAL_LINE_MAX];
    struct refusal_event e = {.time = "2026-12-01T10:00:00.000Z",
                              .front_end = "socks5",
                              .host = "a.example",
                              .port = 22,
                              .address = NULL,
                              .rule = "allowedHosts",
                              .reason = "say \"no\"\\ \x01\n",
                              .dropped = 2};
    size_t n = refusal_report_format(line, sizeof line, &e);
    CU_ASSERT_TRUE_FATAL(n > 0 && n < sizeof line);
    line[n] = '\0';
    CU_ASSERT_STRING_EQUAL(
        line, "{\"event\":\"egress-refused\",\"time\":\"2026-12-01T10:00:00.000Z\",\"frontEnd\":\"socks5\","
              "\"host\":\"a.example\",\"port\":22,\"address\":null,\"rule\":\"allowedHosts\","
              "\"reason\":\"say \\\"no\\\"\\\\ \\u0001\\u000a\",\"dropped\":2}\n");
    /* A host of 253 bytes and a long reason still fit one atomic line:
     * the reason is shortened, the line never cut. */
    char host[254], reason[400];
    memset(host, 'h', 253);
    host[253] = '\0';
    memset(reason, '"', 399);
    reason[399] = '\0';
    e.host = host;
    e.reason = reason;
    e.address = "2001:db8::1";
    n = refusal_report_format(line, sizeof line, &e);
    CU_ASSERT_TRUE_FATAL(n > 0 && n <= sizeof line);
    CU_ASSERT_EQUAL(line[n - 1], '\n');
    CU_ASSERT_EQUAL(line[n - 2], '}');
    CU_ASSERT_EQUAL(memchr(line, '\n', n - 1), NULL);
    /* Too small for even the fixed part: nothing, not a fragment. */
    CU_ASSERT_EQUAL(refusal_report_format(line, 40, &e), 0);
}

static void test_http_hostile(void)
{
    static const struct {
        const char *text;
        enum http_parse_result want;
    } cases[] = {
        {"GET http://h/ HTTP/1.1\r\n", HTTP_NEED_MORE},
        {"GET http://h/ HTTP/1.1\r\nA: b\r\n", HTTP_NEED_MORE},
        {"GET http://h/ HTTP/1.1\n\n", HTTP_MALFORMED}, /* bare LF */
        {"GET http://h/ HTTP/1.1\r\nA: b\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1\r\nA: b\rc\r\n\r\n", HTTP_MALFORMED},    /* bare CR */
        {"GET http://h/ HTTP/1.1\r\nA: b\r\n c\r\n\r\n", HTTP_MALFORMED}, /* obs-fold */
        {"GET http://h/ HTTP/1.1\r\nA b: c\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1\r\nA : c\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1\r\n: c\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1\r\nnocolon\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1\r\nA: \x01\r\n\r\n", HTTP_MALFORMED},
        {"GET /path HTTP/1.1\r\n\r\n", HTTP_MALFORMED}, /* origin-form */
        {"GET https://h/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET ftp://h/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://user:pw@h/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http:/// HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h:0/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h:65536/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h:+80/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/#frag HTTP/1.1\r\n\r\n", HTTP_PARSED},
        {"GET http://h#frag HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/2.0\r\n\r\n", HTTP_MALFORMED},
        {"GET http://h/ HTTP/1.1 extra\r\n\r\n", HTTP_MALFORMED},
        {"GET  http://h/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"G(T http://h/ HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT h HTTP/1.1\r\n\r\n", HTTP_MALFORMED}, /* no port */
        {"CONNECT h: HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT [::1 HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT [::1]x:1 HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT :443 HTTP/1.1\r\n\r\n", HTTP_MALFORMED},
        {"connect h:443 HTTP/1.1\r\n\r\n", HTTP_MALFORMED}, /* methods are case-sensitive */
        {"CONNECT h:443 HTTP/1.1\r\nProxy-Authorization: Basic !!!!\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT h:443 HTTP/1.1\r\nProxy-Authorization: Bearer abc\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT h:443 HTTP/1.1\r\nProxy-Authorization: Basic bm9jb2xvbg==\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT h:443 HTTP/1.1\r\n" AUTH AUTH "\r\n", HTTP_MALFORMED},
        /* Body framing two parsers could read two ways (smuggling). */
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n",
         HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n",
         HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 4\r\ncontent-length: 5\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 4, 4\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: +4\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length:\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 1234567890123456\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nContent-Length: 4\r\n x\r\n\r\n", HTTP_MALFORMED},
        {"POST http://h/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", HTTP_NEEDS_LENGTH},
        {"POST http://h/ HTTP/1.1\r\ntransfer-encoding: gzip, chunked\r\n\r\n", HTTP_NEEDS_LENGTH},
        {"POST http://h/ HTTP/1.0\r\nTransfer-Encoding: identity\r\n\r\n", HTTP_NEEDS_LENGTH},
        {"CONNECT h:443 HTTP/1.1\r\nContent-Length: 4\r\n\r\n", HTTP_MALFORMED},
        {"CONNECT h:443 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", HTTP_MALFORMED},
        {"\r\n\r\n", HTTP_MALFORMED},
        {"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", HTTP_MALFORMED}, /* a TLS ClientHello */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct http_request r;
        enum http_parse_result got = parse(cases[i].text, &r);
        if (got != cases[i].want)
            fprintf(stderr, "\n  case %zu: got %d want %d\n", i, got, cases[i].want);
        CU_ASSERT_EQUAL(got, cases[i].want);
        if (got == HTTP_MALFORMED)
            CU_ASSERT_PTR_NOT_NULL(r.why);
    }
}

static void test_http_limits(void)
{
    struct http_request r;
    char *big = malloc(HTTP_HEAD_MAX + 100);
    /* No end of head within the limit: too large, not "need more". */
    strcpy(big, "GET http://h/ HTTP/1.1\r\nX: ");
    size_t at = strlen(big);
    memset(big + at, 'a', HTTP_HEAD_MAX + 50 - at);
    big[HTTP_HEAD_MAX + 50] = '\0';
    CU_ASSERT_EQUAL(parse(big, &r), HTTP_TOO_LARGE);
    /* Just under: fine once complete. */
    memset(big + at, 'a', HTTP_HEAD_MAX - at - 4);
    memcpy(big + HTTP_HEAD_MAX - 4, "\r\n\r\n", 5);
    CU_ASSERT_EQUAL(parse(big, &r), HTTP_PARSED);
    /* Field count. */
    strcpy(big, "GET http://h/ HTTP/1.1\r\n");
    for (int i = 0; i < HTTP_FIELDS_MAX + 1; i++)
        strcat(big, "A: b\r\n");
    strcat(big, "\r\n");
    CU_ASSERT_EQUAL(parse(big, &r), HTTP_TOO_LARGE);
    free(big);
}

static void test_socks5(void)
{
    size_t used = 0;
    static const unsigned char g_ok[] = {5, 2, 0, 2}, g_none[] = {5, 1, 0}, g_v4[] = {4, 1, 0},
                               g_zero[] = {5, 0};
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_ok, 1, &used), SOCKS5_NEED_MORE);
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_ok, 3, &used), SOCKS5_NEED_MORE);
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_ok, 4, &used), SOCKS5_OK);
    CU_ASSERT_EQUAL(used, 4);
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_none, 3, &used), SOCKS5_NO_METHOD);
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_v4, 3, &used), SOCKS5_BAD);
    CU_ASSERT_EQUAL(socks5_parse_greeting(g_zero, 2, &used), SOCKS5_BAD);

    struct socks5_auth a;
    static const unsigned char auth[] = {1, 3, 'a', 'b', 'c', 2, 'x', 'y'};
    for (size_t n = 0; n < sizeof auth; n++)
        CU_ASSERT_EQUAL(socks5_parse_auth(auth, n, &used, &a), SOCKS5_NEED_MORE);
    CU_ASSERT_EQUAL(socks5_parse_auth(auth, sizeof auth, &used, &a), SOCKS5_OK);
    CU_ASSERT_EQUAL(used, sizeof auth);
    CU_ASSERT_STRING_EQUAL(a.user, "abc");
    CU_ASSERT_STRING_EQUAL(a.pass, "xy");
    static const unsigned char auth_bad[] = {5, 1, 'a', 1, 'b'}, auth_empty[] = {1, 0, 1, 'x'};
    CU_ASSERT_EQUAL(socks5_parse_auth(auth_bad, sizeof auth_bad, &used, &a), SOCKS5_BAD);
    CU_ASSERT_EQUAL(socks5_parse_auth(auth_empty, sizeof auth_empty, &used, &a), SOCKS5_BAD);

    struct socks5_request r;
    static const unsigned char dom[] = {5,   1,   0,   3,   11,  'e', 'x', 'a', 'm',
                                        'p', 'l', 'e', '.', 'c', 'o', 'm', 1,   187};
    for (size_t n = 0; n < sizeof dom; n++)
        CU_ASSERT_EQUAL(socks5_parse_request(dom, n, &used, &r), SOCKS5_NEED_MORE);
    CU_ASSERT_EQUAL(socks5_parse_request(dom, sizeof dom, &used, &r), SOCKS5_OK);
    CU_ASSERT_STRING_EQUAL(r.host, "example.com");
    CU_ASSERT_EQUAL(r.port, 443);
    static const unsigned char v4[] = {5, 1, 0, 1, 127, 0, 0, 1, 0x1f, 0x90};
    CU_ASSERT_EQUAL(socks5_parse_request(v4, sizeof v4, &used, &r), SOCKS5_OK);
    CU_ASSERT_STRING_EQUAL(r.host, "127.0.0.1");
    CU_ASSERT_EQUAL(r.port, 8080);
    static const unsigned char v6[] = {5, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 80};
    CU_ASSERT_EQUAL(socks5_parse_request(v6, sizeof v6, &used, &r), SOCKS5_OK);
    CU_ASSERT_STRING_EQUAL(r.host, "::1");

    static const struct {
        unsigned char msg[12];
        size_t len;
        enum socks5_result res;
        unsigned char code;
    } bad[] = {
        {{5, 2, 0, 1, 1, 2, 3, 4, 0, 80}, 10, SOCKS5_UNSUPPORTED, SOCKS5_COMMAND_NOT_SUPPORTED}, /* BIND */
        {{5, 3, 0, 1, 1, 2, 3, 4, 0, 80}, 10, SOCKS5_UNSUPPORTED, SOCKS5_COMMAND_NOT_SUPPORTED}, /* UDP */
        {{5, 9, 0, 9}, 4, SOCKS5_UNSUPPORTED, SOCKS5_COMMAND_NOT_SUPPORTED},
        {{5, 1, 0, 2, 1, 2, 3, 4, 0, 80}, 10, SOCKS5_UNSUPPORTED, SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED},
        {{5, 1, 1, 1, 1, 2, 3, 4, 0, 80}, 10, SOCKS5_UNSUPPORTED, SOCKS5_GENERAL_FAILURE}, /* RSV */
        {{5, 1, 0, 3, 0, 0, 80}, 7, SOCKS5_UNSUPPORTED, SOCKS5_GENERAL_FAILURE},           /* empty name */
        {{5, 1, 0, 1, 1, 2, 3, 4, 0, 0}, 10, SOCKS5_UNSUPPORTED, SOCKS5_GENERAL_FAILURE},  /* port 0 */
        {{4, 1, 0, 80, 1, 2, 3, 4, 0}, 9, SOCKS5_BAD, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(socks5_parse_request(bad[i].msg, bad[i].len, &used, &r), bad[i].res);
        if (bad[i].res == SOCKS5_UNSUPPORTED)
            CU_ASSERT_EQUAL(r.code, bad[i].code);
    }
    unsigned char reply[10];
    socks5_reply(SOCKS5_NOT_ALLOWED, reply);
    CU_ASSERT_EQUAL(reply[0], 5);
    CU_ASSERT_EQUAL(reply[1], 2);
    CU_ASSERT_EQUAL(reply[3], 1);
}

static void test_base64_and_creds(void)
{
    unsigned char out[64];
    CU_ASSERT_EQUAL(base64_decode("c2FuZGJveDpzM2NyZXQ=", 20, out, sizeof out), 14);
    CU_ASSERT_EQUAL(memcmp(out, "sandbox:s3cret", 14), 0);
    CU_ASSERT_EQUAL(base64_decode("YQ==", 4, out, sizeof out), 1);
    CU_ASSERT_EQUAL(base64_decode("YWI=", 4, out, sizeof out), 2);
    CU_ASSERT_EQUAL(base64_decode("YWJj", 4, out, sizeof out), 3);
    static const char *const bad[] = {"", "Y", "YQ=", "Y===", "YQ==YQ==", "Y Q==", "YQ=a", "====", "YW\nI="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_EQUAL(base64_decode(bad[i], strlen(bad[i]), out, sizeof out), -1);
    CU_ASSERT_EQUAL(base64_decode("YWJjZGVm", 8, out, 5), -1); /* over capacity */

    struct proxy_creds c = {.user = "sandbox", .secret = "abcdef"};
    CU_ASSERT_TRUE(proxy_creds_check(&c, "sandbox", 7, "abcdef", 6));
    CU_ASSERT_FALSE(proxy_creds_check(&c, "sandbox", 7, "abcdeg", 6));
    CU_ASSERT_FALSE(proxy_creds_check(&c, "sandbox", 7, "abcde", 5));
    CU_ASSERT_FALSE(proxy_creds_check(&c, "sandbox", 7, "abcdef0", 7));
    CU_ASSERT_FALSE(proxy_creds_check(&c, "sandbo", 6, "abcdef", 6));
    CU_ASSERT_FALSE(proxy_creds_check(&c, "", 0, "", 0));
    char hex[9];
    hex_encode((const unsigned char *)"\x00\xff\x10\xab", 4, hex);
    CU_ASSERT_STRING_EQUAL(hex, "00ff10ab");
}

/* A small deterministic PRNG (xorshift), so a failure reproduces. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* Flip, insert, delete and truncate bytes of valid messages; whatever the
 * parsers make of the result must stay within the buffer and the limits. */
static size_t mutate(const unsigned char *seed, size_t len, unsigned char *out, size_t cap)
{
    memcpy(out, seed, len);
    unsigned edits = 1 + rnd(4);
    static const unsigned char specials[] = {0, '\r', '\n', ' ', ':', '[', ']', '@', '.', 0xff, 5, 3};
    for (unsigned e = 0; e < edits && len > 0; e++) {
        size_t at = rnd((unsigned)len);
        unsigned char b = rnd(2) ? specials[rnd(sizeof specials)] : (unsigned char)rnd(256);
        switch (rnd(4)) {
        case 0: out[at] = b; break;
        case 1:
            if (len < cap) {
                memmove(out + at + 1, out + at, len - at);
                out[at] = b;
                len++;
            }
            break;
        case 2:
            memmove(out + at, out + at + 1, len - at - 1);
            len--;
            break;
        default: len = at; break;
        }
    }
    return len;
}

static unsigned char mutation_buf[HTTP_HEAD_MAX + 64];

/* A parse of `len` bytes of mutation_buf out of bounds, or with a result
 * not in the contract. */
static bool http_parse_bad(size_t len)
{
    const unsigned char *buf = mutation_buf;
    struct http_request r;
    rewritten_len = 0;
    enum http_parse_result res = http_parse_request((const char *)buf, len, &r, rewritten, &rewritten_len);
    if (res != HTTP_PARSED)
        return res != HTTP_NEED_MORE && res != HTTP_MALFORMED && res != HTTP_TOO_LARGE;
    return r.head_len > len || r.host < (const char *)buf || r.host + r.host_len > (const char *)buf + len ||
           rewritten_len > HTTP_REWRITE_MAX || r.user_len >= sizeof r.user || r.pass_len >= sizeof r.pass ||
           r.port == 0;
}

/* The HTTP parser's faults over mutations of two seeds. */
static unsigned http_mutation_faults(void)
{
    static const char *const http_seeds[] = {
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n" AUTH "\r\n",
        "GET http://[::1]:8080/a?b HTTP/1.1\r\nHost: x\r\nConnection: a, b\r\na: 1\r\n" AUTH "\r\nbody",
    };
    unsigned bad = 0;
    for (int i = 0; i < 200000; i++) {
        const char *seed = http_seeds[i % 2];
        bad += http_parse_bad(
            mutate((const unsigned char *)seed, strlen(seed), mutation_buf, sizeof mutation_buf));
    }
    return bad;
}

/* One mutation of each SOCKS5 message: the faults found. */
static unsigned socks_mutation_round(void)
{
    static const unsigned char socks_seed[] = {5,   1,   0,   3,   11,  'e', 'x', 'a', 'm',
                                               'p', 'l', 'e', '.', 'c', 'o', 'm', 1,   187};
    static const unsigned char auth_seed[] = {1, 3, 'a', 'b', 'c', 2, 'x', 'y'};
    unsigned char *buf = mutation_buf;
    unsigned bad = 0;
    size_t used = 0, len;
    struct socks5_request r;
    struct socks5_auth a;
    len = mutate(socks_seed, sizeof socks_seed, buf, 300);
    if (socks5_parse_request(buf, len, &used, &r) == SOCKS5_OK)
        bad += used > len || r.host_len > 255 || r.host[r.host_len] != '\0';
    len = mutate(auth_seed, sizeof auth_seed, buf, 600);
    if (socks5_parse_auth(buf, len, &used, &a) == SOCKS5_OK)
        bad += used > len || a.user_len > 255 || a.pass_len > 255;
    len = mutate(socks_seed, 6, buf, 300);
    used = 0;
    enum socks5_result g = socks5_parse_greeting(buf, len, &used);
    if (g == SOCKS5_OK || g == SOCKS5_NO_METHOD)
        bad += used > len || used < 3;
    return bad;
}

static void test_mutations(void)
{
    unsigned bad = http_mutation_faults();
    CU_ASSERT_EQUAL(bad, 0);
    for (int i = 0; i < 200000; i++)
        bad += socks_mutation_round();
    CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("egress proxy parsers", NULL, NULL);
    CU_add_test(s, "HTTP CONNECT", test_http_connect);
    CU_add_test(s, "HTTP port syntax", test_http_port);
    CU_add_test(s, "HTTP absolute-URI rewriting", test_http_absolute);
    CU_add_test(s, "HTTP body length", test_http_body_length);
    CU_add_test(s, "refusal report line", test_refusal_line);
    CU_add_test(s, "HTTP hostile heads", test_http_hostile);
    CU_add_test(s, "HTTP limits", test_http_limits);
    CU_add_test(s, "SOCKS5 greeting, auth, request", test_socks5);
    CU_add_test(s, "base64 and credentials", test_base64_and_creds);
    CU_add_test(s, "mutated messages stay in bounds", test_mutations);
    return cunit_run_registry();
}
