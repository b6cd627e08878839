/*
 * test_upstream_proxy.c — CUnit: the upstream proxy's pure parts: its URL
 * (core/proxy_client.c), the CONNECT written to it and the head of its
 * answer, and NO_PROXY (policy/upstream_proxy.c).
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "policy/proxy_auth.h"
#include "policy/upstream_proxy.h"
#include "proxy_client.h"
#include "../cunit_run.h"

static void test_url_accepted(void)
{
    struct proxy_url u;
    CU_ASSERT_PTR_NULL(
        proxy_upstream_url_parse("http://build:s%40c%3Aret@proxy.corp.example:3128", false, &u));
    CU_ASSERT_STRING_EQUAL(u.host, "proxy.corp.example");
    CU_ASSERT_EQUAL(u.port, 3128);
    CU_ASSERT_TRUE(u.has_credentials);
    CU_ASSERT_STRING_EQUAL(u.user, "build");
    CU_ASSERT_STRING_EQUAL(u.password, "s@c:ret");
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("HTTP://[2001:db8::8]:8080/", false, &u));
    CU_ASSERT_STRING_EQUAL(u.host, "2001:db8::8");
    CU_ASSERT_TRUE(u.host_is_ipv6);
    CU_ASSERT_FALSE(u.has_credentials);
    /* The last '@' ends the userinfo; a user without a password. */
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("http://a@b@10.0.0.1:1", false, &u));
    CU_ASSERT_STRING_EQUAL(u.user, "a@b");
    CU_ASSERT_STRING_EQUAL(u.password, "");
    /* The variables' form: no scheme means http://. */
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("proxy:3128", true, &u));
    CU_ASSERT_STRING_EQUAL(u.host, "proxy");
    CU_ASSERT_PTR_NOT_NULL(proxy_upstream_url_parse("proxy:3128", false, &u));
    CU_ASSERT_PTR_NULL(proxy_url_parse("socks5h://u:p@127.0.0.1:1080", false, &u));
    CU_ASSERT_EQUAL(u.scheme, PROXY_SCHEME_SOCKS5H);
}

static void test_url_refused(void)
{
    static const struct {
        const char *text;
        const char *why;
    } cases[] = {
        {"https://p:1", "https://"},
        {"socks5://p:1", "SOCKS"},
        {"ftp://p:1", "must start with http://"},
        {"http://p", "needs a port"},
        {"http://p:0", "needs a port"},
        {"http://p:65536", "needs a port"},
        {"http://p:080", "needs a port"},
        {"http://p:1/x", "no path"},
        {"http://p:1?q", "no path"},
        {"http://:1", "no host"},
        {"http://@p:1", "empty user name"},
        {"http://u:%4@p:1", "two hex digits"},
        {"http://u:%0d%0aX:%201@p:1", "control character"},
        {"http://u:%7F@p:1", "control character"},
        {"http://u:a b@p:1", "printable ASCII"},
        {"http://p\xc3\xa9:1", "printable ASCII"},
        {"http://[::1:1", "closing ']'"},
        {"http://[fe80::1%25eth0]:1", "not an IPv6 address"},
        {"http://[1.2.3.4]:1", "not an IPv6 address"},
        {"http://[::1]1", "needs a port"},
        {"http://p*:1", "not a name"},
    };
    struct proxy_url u;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *why = proxy_upstream_url_parse(cases[i].text, false, &u);
        CU_ASSERT_PTR_NOT_NULL(why);
        if (why && !strstr(why, cases[i].why))
            fprintf(stderr, "%s: '%s' lacks '%s'\n", cases[i].text, why, cases[i].why);
        CU_ASSERT_TRUE(why && strstr(why, cases[i].why));
    }
    char longer[PROXY_URL_TEXT_MAX + 32] = "http://";
    memset(longer + 7, 'u', 300);
    strcpy(longer + 307, "@p:1");
    CU_ASSERT_PTR_NOT_NULL(proxy_upstream_url_parse(longer, false, &u)); /* a 300-byte user */
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CU_ASSERT_PTR_NOT_NULL(proxy_upstream_url_parse(longer, true, &u));
}

static void test_connect_request(void)
{
    struct proxy_url u;
    struct upstream_proxy up;
    char out[2048];
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("http://build:s3cret@10.7.7.7:3128", false, &u));
    upstream_proxy_init(&up, &u, "network.outgoingProxy.upstream");
    CU_ASSERT_STRING_EQUAL(up.shown, "http://10.7.7.7:3128");
    CU_ASSERT_TRUE(up.host_is_literal); /* parsed once, not per request */
    struct dest_host h;
    CU_ASSERT_EQUAL(dest_host_parse("[2001:db8::1]", 13, &h), HOST_OK);
    size_t n = upstream_connect_head(&up, &h, 443, out, sizeof out);
    /* base64("build:s3cret") */
    CU_ASSERT_EQUAL(n, strlen(out));
    CU_ASSERT_STRING_EQUAL(out, "CONNECT [2001:db8::1]:443 HTTP/1.1\r\nHost: [2001:db8::1]:443\r\n"
                                "Proxy-Authorization: Basic YnVpbGQ6czNjcmV0\r\n\r\n");
    CU_ASSERT_EQUAL(dest_host_parse("Web.Test", 8, &h), HOST_OK);
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("http://p:1", false, &u));
    upstream_proxy_init(&up, &u, "x");
    CU_ASSERT_FALSE(up.host_is_literal);
    upstream_connect_head(&up, &h, 80, out, sizeof out);
    CU_ASSERT_STRING_EQUAL(out, "CONNECT web.test:80 HTTP/1.1\r\nHost: web.test:80\r\n\r\n");
    CU_ASSERT_EQUAL(upstream_connect_head(&up, &h, 80, out, 20), 0); /* does not fit: nothing */
}

static void test_reply_head(void)
{
    static const char ok[] = "HTTP/1.1 200 Connection established\r\nX: y\r\n\r\nSSH-2.0";
    CU_ASSERT_EQUAL(proxy_reply_head_end(ok, strlen(ok)), strlen(ok) - 7);
    CU_ASSERT_EQUAL(proxy_reply_head_end(ok, 20), 0);
    CU_ASSERT_EQUAL(proxy_reply_head_end("\r\n\r\n", 4), 4);
    static const char lf[] = "HTTP/1.1 200 OK\nX: y\n\nabc", crcr[] = "HTTP/1.1 200 OK\r\nX: y\r\r\n";
    CU_ASSERT_EQUAL(proxy_reply_head_end("\n\n\r\n", 4), 2); /* a bare LF ends a line too */
    CU_ASSERT_EQUAL(proxy_reply_head_end(lf, strlen(lf)), strlen(lf) - 3);
    CU_ASSERT_EQUAL(proxy_reply_head_end(crcr, strlen(crcr)), 0);
    CU_ASSERT_EQUAL(proxy_reply_status(ok, strlen(ok)), 200);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.0 407\r\n", 14), 407);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.1 200\n\n", 14), 200);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.1 200x\n\n", 15), -1);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.1 2000 x\r\n", 17), -1);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.1 20", 11), -1);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/2.0 200 x\r\n", 16), -1);
    CU_ASSERT_EQUAL(proxy_reply_status("HTTP/1.1 099 x\r\n", 16), -1);
    CU_ASSERT_EQUAL(proxy_reply_status("SSH-2.0-OpenSSH\r\n", 17), -1);
}

/* Which NO_PROXY entry sends `host` directly ("" for none). */
static const char *bypass(const struct upstream_proxy *up, const char *host)
{
    struct dest_host h;
    if (dest_host_parse(host, strlen(host), &h) != HOST_OK)
        return "?";
    const char *e = upstream_bypass(up, &h);
    return e ? e : "";
}

static void test_no_proxy(void)
{
    struct proxy_url u;
    static struct upstream_proxy up;
    CU_ASSERT_PTR_NULL(proxy_upstream_url_parse("http://p:1", false, &u));
    upstream_proxy_init(&up, &u, "HTTPS_PROXY");
    CU_ASSERT_PTR_NULL(upstream_no_proxy_parse(&up,
                                               " localhost, .corp.example,*.svc.cluster , 10.0.0.0/8,"
                                               "[fd00::1]:443,192.0.2.7:80, bad_entry*, 2001:db8::/32,,"));
    CU_ASSERT_STRING_EQUAL(bypass(&up, "corp.example"), ".corp.example");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "git.corp.example"), ".corp.example");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "notcorp.example"), "");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "db.svc.cluster"), "*.svc.cluster");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "10.200.1.1"), "10.0.0.0/8");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "11.0.0.1"), "");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "[fd00::1]"), "[fd00::1]:443");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "192.0.2.7"), "192.0.2.7:80");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "[2001:db8:ffff::1]"), "2001:db8::/32");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "[2001:db9::1]"), "");
    CU_ASSERT_STRING_EQUAL(bypass(&up, "registry.example"), "");
    CU_ASSERT_FALSE(up.all_direct);
    CU_ASSERT_PTR_NULL(upstream_no_proxy_parse(&up, "*"));
    CU_ASSERT_STRING_EQUAL(bypass(&up, "registry.example"), "*");
    /* More entries than the table holds: refused, not cut short. */
    upstream_proxy_init(&up, &u, "NO_PROXY");
    char many[UPSTREAM_NO_PROXY_MAX * 8 + 64] = "";
    for (int i = 0; i <= UPSTREAM_NO_PROXY_MAX; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "h%d.x,", i);
    CU_ASSERT_PTR_NOT_NULL(upstream_no_proxy_parse(&up, many));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("upstream proxy", NULL, NULL);
    CU_add_test(s, "URLs accepted", test_url_accepted);
    CU_add_test(s, "URLs refused", test_url_refused);
    CU_add_test(s, "the CONNECT", test_connect_request);
    CU_add_test(s, "the answer's head", test_reply_head);
    CU_add_test(s, "NO_PROXY", test_no_proxy);
    return cunit_run_registry();
}
