/*
 * fuzz_proxy_input.c — libFuzzer target for everything the egress process
 * parses from a hostile client: the HTTP request head, the SOCKS5 greeting /
 * auth / request sequence, the requested host and IP literals -- and what
 * the caller's environment and a hostile upstream proxy hand it: a proxy
 * URL, a NO_PROXY list, the head of the upstream's answer.  Each result
 * must stay inside its buffers and limits (ASan and UBSan turn any slip into
 * a crash).  Built with --enable-fuzzers; seeds are made up by the fuzzer.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/http_parse.h"
#include "parse/socks5_parse.h"
#include "policy/addr_class.h"
#include "policy/host_match.h"
#include "policy/upstream_proxy.h"
#include "proxy_client.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_http(const uint8_t *data, size_t size)
{
    struct http_request req;
    static char rewritten[HTTP_REWRITE_MAX];
    size_t rewritten_len = sizeof rewritten;
    memset(&req, 0, sizeof req);
    enum http_parse_result r = http_parse_request((const char *)data, size, &req, rewritten, &rewritten_len);
    if (r != HTTP_PARSED)
        return;
    /* A parsed head lies within the input, and so does the host it names. */
    if (req.head_len > size || req.host_len > size || req.user_len > sizeof req.user ||
        req.pass_len > sizeof req.pass)
        abort();
    if (req.host &&
        ((const uint8_t *)req.host < data || (const uint8_t *)req.host + req.host_len > data + size))
        abort();
    if (!req.is_connect && rewritten_len > sizeof rewritten)
        abort();
}

static void fuzz_socks5(const uint8_t *data, size_t size)
{
    size_t used = 0, at = 0;
    if (socks5_parse_greeting(data, size, &used) != SOCKS5_OK)
        return;
    if (used > size)
        abort();
    at += used;
    struct socks5_auth auth;
    if (socks5_parse_auth(data + at, size - at, &used, &auth) != SOCKS5_OK)
        return;
    if (used > size - at || auth.user_len > sizeof auth.user || auth.pass_len > sizeof auth.pass)
        abort();
    at += used;
    struct socks5_request req;
    if (socks5_parse_request(data + at, size - at, &used, &req) == SOCKS5_OK &&
        (used > size - at || req.host_len >= sizeof req.host))
        abort();
}

static void fuzz_hosts(const uint8_t *data, size_t size)
{
    struct dest_host host;
    dest_host_parse((const char *)data, size, &host);
    struct ip_addr ip, unwrapped;
    if (ip_literal_parse((const char *)data, size, &ip) == 0) {
        ip_unwrap(&ip, &unwrapped);
        (void)addr_class_name(addr_classify(&unwrapped));
        char text[64];
        ip_format(&unwrapped, text, sizeof text);
    }
}

static void fuzz_upstream(const uint8_t *data, size_t size)
{
    static char text[4096];
    static struct upstream_proxy up;
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    struct proxy_url u;
    if (proxy_url_parse(text, true, &u) == NULL &&
        (strlen(u.host) >= sizeof u.host || u.port == 0 || strlen(u.user) >= sizeof u.user))
        abort();
    memset(&up, 0, sizeof up);
    upstream_no_proxy_parse(&up, text);
    if (up.no_proxy_count > UPSTREAM_NO_PROXY_MAX)
        abort();
    size_t end = proxy_reply_head_end((const char *)data, size);
    if (end > size)
        abort();
    int status = proxy_reply_status((const char *)data, size);
    if (status != -1 && (status < 100 || status > 999))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_upstream(data, size);
    fuzz_http(data, size);
    fuzz_socks5(data, size);
    fuzz_hosts(data, size);
    return 0;
}
