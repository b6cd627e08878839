/*
 * test_addr_host.c — CUnit: strict IP literals, unwrapping, address classes,
 * host-name parsing and allowedHosts matching, the destination decision.
 * Table-driven; hostile spellings included.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <string.h>

#include "policy.h"
#include "policy/addr_class.h"
#include "policy/destination.h"
#include "policy/host_match.h"
#include "../cunit_run.h"

static void test_literals(void)
{
    static const struct {
        const char *text;
        int ok;
        int family;
        const char *canon;
    } cases[] = {
        {"127.0.0.1", 1, AF_INET, "127.0.0.1"},
        {"8.8.8.8", 1, AF_INET, "8.8.8.8"},
        {"255.255.255.255", 1, AF_INET, "255.255.255.255"},
        {"::1", 1, AF_INET6, "::1"},
        {"[::1]", 1, AF_INET6, "::1"},
        {"0:0:0:0:0:0:0:1", 1, AF_INET6, "::1"},
        {"fe80::1%eth0", 1, AF_INET6, "fe80::1"},
        {"[fe80::1%25eth0]", 1, AF_INET6, "fe80::1"},
        {"::ffff:127.0.0.1", 1, AF_INET6, "::ffff:127.0.0.1"},
        {"2130706433", 0, 0, NULL},
        {"0177.0.0.1", 0, 0, NULL},
        {"0x7f.1", 0, 0, NULL},
        {"0x7f000001", 0, 0, NULL},
        {"127.1", 0, 0, NULL},
        {"127.0.1", 0, 0, NULL},
        {"127.0.0.01", 0, 0, NULL},
        {"127.0.0.1.", 0, 0, NULL},
        {"256.0.0.1", 0, 0, NULL},
        {"1.2.3.4.5", 0, 0, NULL},
        {" 1.2.3.4", 0, 0, NULL},
        {"[127.0.0.1]", 0, 0, NULL},
        {"[::1", 0, 0, NULL},
        {"::1]", 0, 0, NULL},
        {"fe80::1%", 0, 0, NULL},
        {":::", 0, 0, NULL},
        {"", 0, 0, NULL},
        {"example.com", 0, 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ip_addr a;
        int r = ip_literal_parse(cases[i].text, strlen(cases[i].text), &a);
        CU_ASSERT_EQUAL(r == 0, cases[i].ok);
        if (r == 0 && cases[i].ok) {
            char buf[64];
            CU_ASSERT_EQUAL(a.family, cases[i].family);
            CU_ASSERT_EQUAL(ip_format(&a, buf, sizeof buf), 0);
            CU_ASSERT_STRING_EQUAL(buf, cases[i].canon);
        }
    }
    struct ip_addr a;
    CU_ASSERT_EQUAL(ip_literal_parse("1.2.3.4\0.5", 10, &a), -1); /* embedded NUL */
}

static void test_classes(void)
{
    static const struct {
        const char *text;
        enum addr_class cls;
    } cases[] = {
        {"8.8.8.8", ADDR_PUBLIC},
        {"1.1.1.1", ADDR_PUBLIC},
        {"2606:4700::1111", ADDR_PUBLIC},
        {"0.0.0.0", ADDR_UNSPECIFIED},
        {"0.1.2.3", ADDR_UNSPECIFIED},
        {"127.0.0.1", ADDR_LOOPBACK},
        {"127.255.255.254", ADDR_LOOPBACK},
        {"10.1.2.3", ADDR_PRIVATE},
        {"172.16.0.1", ADDR_PRIVATE},
        {"172.31.255.255", ADDR_PRIVATE},
        {"172.32.0.1", ADDR_PUBLIC},
        {"192.168.1.1", ADDR_PRIVATE},
        {"169.254.169.254", ADDR_LINK_LOCAL},
        {"100.64.0.1", ADDR_CGNAT},
        {"100.127.255.255", ADDR_CGNAT},
        {"100.128.0.1", ADDR_PUBLIC},
        {"224.0.0.1", ADDR_MULTICAST},
        {"239.255.255.250", ADDR_MULTICAST},
        {"240.0.0.1", ADDR_RESERVED},
        {"255.255.255.255", ADDR_RESERVED},
        {"192.0.2.1", ADDR_DOCUMENTATION},
        {"198.51.100.7", ADDR_DOCUMENTATION},
        {"203.0.113.9", ADDR_DOCUMENTATION},
        {"198.18.0.1", ADDR_BENCHMARK},
        {"198.19.255.255", ADDR_BENCHMARK},
        {"::", ADDR_UNSPECIFIED},
        {"::1", ADDR_LOOPBACK},
        {"fe80::1", ADDR_LINK_LOCAL},
        {"fe80::1%eth0", ADDR_LINK_LOCAL},
        {"fc00::1", ADDR_PRIVATE},
        {"fd12:3456::1", ADDR_PRIVATE},
        {"fec0::1", ADDR_PRIVATE},
        {"ff02::1", ADDR_MULTICAST},
        {"2001:db8::1", ADDR_DOCUMENTATION},
        {"3fff::1", ADDR_DOCUMENTATION},
        {"2001:2::1", ADDR_BENCHMARK},
        {"2001::1", ADDR_RESERVED}, /* Teredo */
        {"100::1", ADDR_RESERVED},
        /* IPv4 in IPv6 clothing is judged as the IPv4 it carries. */
        {"::ffff:127.0.0.1", ADDR_LOOPBACK},
        {"::ffff:7f00:1", ADDR_LOOPBACK},
        {"::ffff:10.0.0.1", ADDR_PRIVATE},
        {"::ffff:8.8.8.8", ADDR_PUBLIC},
        {"::127.0.0.1", ADDR_LOOPBACK},
        {"::169.254.169.254", ADDR_LINK_LOCAL},
        {"::ffff:0:127.0.0.1", ADDR_LOOPBACK},
        {"64:ff9b::127.0.0.1", ADDR_LOOPBACK},
        {"64:ff9b::a9fe:a9fe", ADDR_LINK_LOCAL},
        {"64:ff9b::8.8.8.8", ADDR_PUBLIC},
        {"64:ff9b:1::1", ADDR_PRIVATE},
        {"2002:7f00:1::", ADDR_LOOPBACK},
        {"2002:c0a8:101::1", ADDR_PRIVATE},
        {"2002:808:808::1", ADDR_PUBLIC},
        {"::2", ADDR_UNSPECIFIED}, /* ::0.0.0.2 */
        {"0:1::", ADDR_RESERVED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ip_addr a;
        CU_ASSERT_EQUAL_FATAL(ip_literal_parse(cases[i].text, strlen(cases[i].text), &a), 0);
        enum addr_class got = addr_classify(&a);
        if (got != cases[i].cls)
            fprintf(stderr, "\n  %s: got %s, want %s\n", cases[i].text, addr_class_name(got),
                    addr_class_name(cases[i].cls));
        CU_ASSERT_EQUAL(got, cases[i].cls);
    }
}

static void test_host_parse(void)
{
    static const struct {
        const char *text;
        enum host_parse_result r;
        const char *norm;
    } cases[] = {
        {"Example.COM", HOST_OK, "example.com"},
        {"example.com.", HOST_OK, "example.com"},
        {"a-b_c.example", HOST_OK, "a-b_c.example"},
        {"localhost", HOST_OK, "localhost"},
        {"[::1]", HOST_OK, "::1"},
        {"127.0.0.1", HOST_OK, "127.0.0.1"},
        {"2130706433", HOST_NUMERIC, NULL},
        {"0177.0.0.1", HOST_NUMERIC, NULL},
        {"0x7f.1", HOST_NUMERIC, NULL},
        {"127.1", HOST_NUMERIC, NULL},
        {"1.2.3.4.5", HOST_NUMERIC, NULL},
        {"0x7F000001", HOST_NUMERIC, NULL},
        {"example.com..", HOST_BAD_SYNTAX, NULL},
        {".example.com", HOST_BAD_SYNTAX, NULL},
        {"exa mple.com", HOST_BAD_SYNTAX, NULL},
        {"example.com:80", HOST_BAD_SYNTAX, NULL},
        {"user@example.com", HOST_BAD_SYNTAX, NULL},
        {"ex%61mple.com", HOST_BAD_SYNTAX, NULL},
        {"*.example.com", HOST_BAD_SYNTAX, NULL},
        {"[example.com]", HOST_BAD_SYNTAX, NULL},
        {"", HOST_BAD_SYNTAX, NULL},
        {".", HOST_BAD_SYNTAX, NULL},
        {"\xc3\xa9xample.com", HOST_BAD_SYNTAX, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dest_host h;
        enum host_parse_result r = dest_host_parse(cases[i].text, strlen(cases[i].text), &h);
        CU_ASSERT_EQUAL(r, cases[i].r);
        if (r == HOST_OK && cases[i].norm)
            CU_ASSERT_STRING_EQUAL(h.name, cases[i].norm);
    }
    char longname[300];
    memset(longname, 'a', sizeof longname);
    struct dest_host h;
    CU_ASSERT_EQUAL(dest_host_parse(longname, 64, &h), HOST_BAD_SYNTAX); /* label > 63 */
    for (int i = 63; i < 260; i += 64)
        longname[i] = '.';
    CU_ASSERT_EQUAL(dest_host_parse(longname, 253, &h), HOST_OK);
    CU_ASSERT_EQUAL(dest_host_parse(longname, 254, &h), HOST_BAD_SYNTAX);
    CU_ASSERT_EQUAL(dest_host_parse("a\0b.com", 7, &h), HOST_BAD_SYNTAX);
}

/* As the egress backend compiles an entry: split by the policy parser's rule. */
static void compile(const char *entry, struct host_rule *rule)
{
    size_t host_len;
    unsigned port;
    CU_ASSERT_PTR_NULL_FATAL(policy_host_entry_split(entry, &host_len, &port));
    host_rule_compile(entry, host_len, port, rule);
}

static void test_matching(void)
{
    static const char *const entries[] = {
        "Registry.NPMJS.org.", "*.pythonhosted.org", "127.0.0.1", "[::1]", "2130706433", "[host]:443",
    };
    enum { N = sizeof entries / sizeof entries[0] };
    struct host_rule rules[N];
    for (size_t i = 0; i < N; i++)
        compile(entries[i], &rules[i]);
    static const struct {
        const char *host;
        int allowed;
    } cases[] = {
        {"registry.npmjs.org", 1},
        {"REGISTRY.npmjs.org.", 1},
        {"evil.registry.npmjs.org", 0},
        {"npmjs.org", 0},
        {"files.pythonhosted.org", 1},
        {"a.b.pythonhosted.org", 1},
        {"pythonhosted.org", 0},
        {"evilpythonhosted.org", 0},
        {"pythonhosted.org.evil.com", 0},
        {"127.0.0.1", 1},
        {"::1", 1},
        {"[0:0::1]", 1},
        {"::ffff:127.0.0.1", 0}, /* another address, not the named literal */
        {"127.0.0.2", 0},
        {"localhost", 0},
        {"host", 0},
        {"example.com", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dest_host h;
        CU_ASSERT_EQUAL_FATAL(dest_host_parse(cases[i].host, strlen(cases[i].host), &h), HOST_OK);
        CU_ASSERT_EQUAL(host_rules_match(rules, N, &h, 443) != NULL, cases[i].allowed);
    }
    CU_ASSERT_EQUAL(rules[5].kind, RULE_NEVER);
}

static void test_port_rules(void)
{
    static const char *const entries[] = {
        "example.com:443", "*.example.org:8443", "[2001:db8::1]:22", "127.0.0.1:8080", "any.example", "::1",
    };
    enum { N = sizeof entries / sizeof entries[0] };
    struct host_rule rules[N];
    for (size_t i = 0; i < N; i++)
        compile(entries[i], &rules[i]);
    static const struct {
        const char *host;
        unsigned port;
        int allowed;
        int named;
    } cases[] = {
        {"example.com", 443, 1, 1},  {"EXAMPLE.com.", 443, 1, 1},   {"example.com", 80, 0, 1},
        {"example.com", 4430, 0, 1}, {"a.example.org", 8443, 1, 1}, {"a.example.org", 443, 0, 1},
        {"example.org", 8443, 0, 0}, {"2001:db8::1", 22, 1, 1},     {"[2001:db8:0::1]", 22, 1, 1},
        {"2001:db8::1", 2222, 0, 1}, {"127.0.0.1", 8080, 1, 1},     {"127.0.0.1", 8081, 0, 1},
        {"127.0.0.2", 8080, 0, 0},   {"any.example", 1, 1, 1},      {"any.example", 65535, 1, 1},
        {"::1", 80, 1, 1}, /* a bare IPv6 literal names no port: any */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dest_host h;
        CU_ASSERT_EQUAL_FATAL(dest_host_parse(cases[i].host, strlen(cases[i].host), &h), HOST_OK);
        CU_ASSERT_EQUAL(host_rules_match(rules, N, &h, cases[i].port) != NULL, cases[i].allowed);
        CU_ASSERT_EQUAL(host_rules_name(rules, N, &h) != NULL, cases[i].named);
    }
    CU_ASSERT_EQUAL(rules[0].port, 443);
    CU_ASSERT_EQUAL(rules[4].port, 0);
    CU_ASSERT_EQUAL(rules[5].port, 0);

    /* The decision names the port when only the port is wrong. */
    struct host_policy pol = {rules, N};
    struct dest_decision d;
    dest_decide(&pol, "example.com", 11, 22, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
    CU_ASSERT_STRING_EQUAL(d.rule, "allowedHosts");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.reason, "port 22"));
    dest_decide(&pol, "example.com", 11, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_RESOLVE);
}

static void test_decision(void)
{
    static const char *const entries[] = {"localhost", "127.0.0.1", "public.example", "*.corp.example"};
    struct host_rule rules[4];
    for (size_t i = 0; i < 4; i++)
        compile(entries[i], &rules[i]);
    struct host_policy pol = {rules, 4};
    struct dest_decision d;
    struct ip_addr a;

    dest_decide(&pol, "127.0.0.1", 9, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_CONNECT_LITERAL);
    CU_ASSERT_TRUE(dest_address_allowed(&d, &d.host.literal));

    /* A name that resolves inward is refused even though the policy also
     * names that very literal. */
    dest_decide(&pol, "localhost", 9, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_RESOLVE);
    ip_literal_parse("127.0.0.1", 9, &a);
    CU_ASSERT_FALSE(dest_address_allowed(&d, &a));
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
    CU_ASSERT_STRING_EQUAL(d.rule, "address-class");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.reason, "loopback"));

    dest_decide(&pol, "x.corp.example", 14, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_RESOLVE);
    static const char *const inward[] = {
        "10.0.0.1", "::ffff:192.168.0.1", "169.254.169.254", "64:ff9b::a00:1",
        "fd00::1",  "100.64.1.1",         "2002:a00:1::"};
    for (size_t i = 0; i < sizeof inward / sizeof inward[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(ip_literal_parse(inward[i], strlen(inward[i]), &a), 0);
        CU_ASSERT_FALSE(dest_address_allowed(&d, &a));
    }
    ip_literal_parse("93.184.216.34", 13, &a);
    CU_ASSERT_TRUE(dest_address_allowed(&d, &a));

    dest_decide(&pol, "other.example", 13, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
    CU_ASSERT_STRING_EQUAL(d.rule, "allowedHosts");

    dest_decide(&pol, "2130706433", 10, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
    CU_ASSERT_STRING_EQUAL(d.rule, "numeric-host-spelling");

    dest_decide(&pol, "a b", 3, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_MALFORMED);

    /* The empty list reaches nothing. */
    struct host_policy empty = {NULL, 0};
    dest_decide(&empty, "public.example", 14, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
}

/* allowedInternalHosts: the listed name (and port) may resolve to an
 * internal class, never to loopback, link-local, multicast, unspecified or
 * reserved; the same name under allowedHosts only stays public-only. */
static void test_internal_hosts(void)
{
    struct host_rule rules[3];
    compile("mirror.corp:443", &rules[0]);
    rules[0].internal = true;
    compile("*.vpn.example", &rules[1]);
    rules[1].internal = true;
    compile("public.example", &rules[2]);
    struct host_policy pol = {rules, 3};
    struct dest_decision d;
    struct ip_addr a;

    dest_decide(&pol, "mirror.corp", 11, 443, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_RESOLVE);
    CU_ASSERT_TRUE(d.internal);
    static const char *const internal[] = {"10.0.0.1",   "172.16.5.5",      "192.168.1.1",
                                           "100.64.1.1", "198.18.0.1",      "203.0.113.80",
                                           "fd00::1",    "::ffff:10.1.1.1", "93.184.216.34"};
    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; i++) {
        dest_decide(&pol, "mirror.corp", 11, 443, &d);
        CU_ASSERT_EQUAL_FATAL(ip_literal_parse(internal[i], strlen(internal[i]), &a), 0);
        CU_ASSERT_TRUE(dest_address_allowed(&d, &a));
    }
    static const char *const never[] = {
        "127.0.0.1", "::1", "169.254.169.254", "fe80::1",         "224.0.0.1",
        "0.0.0.0",   "::",  "240.0.0.1",       "64:ff9b::7f00:1", "::ffff:169.254.169.254",
        "ff02::1"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        dest_decide(&pol, "a.vpn.example", 13, 8080, &d);
        CU_ASSERT_TRUE(d.internal);
        CU_ASSERT_EQUAL_FATAL(ip_literal_parse(never[i], strlen(never[i]), &a), 0);
        CU_ASSERT_FALSE(dest_address_allowed(&d, &a));
        CU_ASSERT_STRING_EQUAL(d.rule, "address-class");
        CU_ASSERT_PTR_NOT_NULL(strstr(d.reason, "not even one in network.allowedInternalHosts"));
    }
    /* The internal entry names port 443 only: on another port the name is
     * not listed at all. */
    dest_decide(&pol, "mirror.corp", 11, 80, &d);
    CU_ASSERT_EQUAL(d.verdict, DEST_DENIED);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.reason, "network.allowedHosts or network.allowedInternalHosts"));
    /* A name of allowedHosts only: public addresses, and the refusal says
     * where an internal name belongs. */
    dest_decide(&pol, "public.example", 14, 443, &d);
    CU_ASSERT_FALSE(d.internal);
    ip_literal_parse("10.0.0.1", 8, &a);
    CU_ASSERT_FALSE(dest_address_allowed(&d, &a));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.reason, "unless the name is in network.allowedInternalHosts"));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("egress addresses and hosts", NULL, NULL);
    CU_add_test(s, "strict IP literals", test_literals);
    CU_add_test(s, "address classes and unwrapping", test_classes);
    CU_add_test(s, "requested host parsing", test_host_parse);
    CU_add_test(s, "allowedHosts matching", test_matching);
    CU_add_test(s, "host:port rules", test_port_rules);
    CU_add_test(s, "destination decision", test_decision);
    CU_add_test(s, "allowedInternalHosts", test_internal_hosts);
    return cunit_run_registry();
}
