/*
 * test_synth_table.c — CUnit: the transparent front-end's synthetic
 * addresses (synth_table.c): the derived rules (80 and 443 for an entry
 * without a port, no literals), fixed slots for exact names, the pool for
 * wildcard names, the address <-> name mapping and the limits.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "policy/synth_table.h"
#include "../cunit_run.h"

static struct host_rule in[80], out[160];

static void rule(size_t i, const char *host, unsigned port)
{
    host_rule_compile(host, strlen(host), port, &in[i]);
}

static struct host_policy derive(size_t n)
{
    return (struct host_policy){out, synth_rules(in, n, out)};
}

static void test_rules(void)
{
    rule(0, "example.com", 0);
    rule(1, "github.com", 22);
    rule(2, "10.0.0.5", 5432);
    rule(3, "*.example.org", 0);
    struct host_policy p = derive(4);
    CU_ASSERT_EQUAL(p.count, 2 + 1 + 2);
    struct dest_host h;
    CU_ASSERT_EQUAL(dest_host_parse("example.com", 11, &h), HOST_OK);
    CU_ASSERT_PTR_NOT_NULL(host_rules_match(p.rules, p.count, &h, 443));
    CU_ASSERT_PTR_NOT_NULL(host_rules_match(p.rules, p.count, &h, 80));
    CU_ASSERT_PTR_NULL(host_rules_match(p.rules, p.count, &h, 22));
    CU_ASSERT_PTR_NOT_NULL(host_rules_name(p.rules, p.count, &h));
    CU_ASSERT_EQUAL(dest_host_parse("a.b.example.org", 15, &h), HOST_OK);
    CU_ASSERT_PTR_NOT_NULL(host_rules_match(p.rules, p.count, &h, 443));
    CU_ASSERT_PTR_NULL(host_rules_match(p.rules, p.count, &h, 8443));
    CU_ASSERT_EQUAL(dest_host_parse("10.0.0.5", 8, &h), HOST_OK);
    CU_ASSERT_PTR_NULL(host_rules_name(p.rules, p.count, &h));
}

static void test_table(void)
{
    rule(0, "example.com", 0);
    rule(1, "github.com", 22);
    rule(2, "EXAMPLE.com.", 8080);
    struct host_policy p = derive(3);
    struct synth_table t;
    char err[200];
    CU_ASSERT_EQUAL(synth_table_build(&p, &t, err, sizeof err), 0);
    CU_ASSERT_EQUAL(t.fixed, 2);  /* example.com once */
    CU_ASSERT_EQUAL(t.slots, 2);  /* no wildcard: no pool */
    CU_ASSERT_EQUAL(t.nports, 4); /* 80 443 22 8080 */
    CU_ASSERT_EQUAL(synth_table_slot(&t, "github.com"), 1);
    CU_ASSERT_EQUAL(synth_table_slot(&t, "example.com"), 0);
    CU_ASSERT_EQUAL(synth_table_slot(&t, "other.net"), -1);
    unsigned char a[4];
    synth_slot_addr(1, a);
    CU_ASSERT_EQUAL(memcmp(a, "\x7f\x40\x00\x02", 4), 0);
    CU_ASSERT_STRING_EQUAL(synth_table_name(&t, a) ? synth_table_name(&t, a) : "", "github.com");
    /* Outside the range, the network address, unassigned slots: nothing. */
    CU_ASSERT_PTR_NULL(synth_table_name(&t, (const unsigned char *)"\x7f\x00\x00\x01"));
    CU_ASSERT_PTR_NULL(synth_table_name(&t, (const unsigned char *)"\x7f\x40\x00\x00"));
    CU_ASSERT_PTR_NULL(synth_table_name(&t, (const unsigned char *)"\x7f\x40\x00\x03"));
    CU_ASSERT_PTR_NULL(synth_table_name(&t, (const unsigned char *)"\x7f\x80\x00\x01"));
    CU_ASSERT_PTR_NOT_NULL(synth_table_name(&t, (const unsigned char *)"\x7f\x40\x00\x01"));
}

static void test_pool(void)
{
    rule(0, "*.example.org", 443);
    struct host_policy p = derive(1);
    struct synth_table t;
    char err[200];
    CU_ASSERT_EQUAL(synth_table_build(&p, &t, err, sizeof err), 0);
    CU_ASSERT_EQUAL(t.slots, SYNTH_POOL);
    char name[64];
    for (int i = 0; i < SYNTH_POOL; i++) {
        snprintf(name, sizeof name, "h%d.example.org", i);
        CU_ASSERT_EQUAL(synth_table_slot(&t, name), i);
    }
    /* Kept: the same name gets its slot again; a new one finds the pool full. */
    CU_ASSERT_EQUAL(synth_table_slot(&t, "h3.example.org"), 3);
    CU_ASSERT_EQUAL(synth_table_slot(&t, "new.example.org"), -1);
    unsigned char a[4];
    synth_slot_addr(3, a);
    CU_ASSERT_STRING_EQUAL(synth_table_name(&t, a), "h3.example.org");
}

static void test_limits(void)
{
    struct synth_table t;
    char err[200], names[80][32];
    for (int i = 0; i < 17; i++)
        rule((size_t)i, "example.com", (unsigned)(1000 + i));
    struct host_policy p = derive(17);
    CU_ASSERT_EQUAL(synth_table_build(&p, &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ports"));
    for (int i = 0; i < SYNTH_MAX_SLOTS - SYNTH_POOL + 1; i++) {
        snprintf(names[i], sizeof names[i], "n%d.example", i);
        rule((size_t)i, names[i], 22);
    }
    p = derive(SYNTH_MAX_SLOTS - SYNTH_POOL + 1);
    CU_ASSERT_EQUAL(synth_table_build(&p, &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "exact names"));
    /* 40 names x 8 ports = 320 listeners. */
    for (int i = 0; i < 40; i++)
        rule((size_t)i, names[i], (unsigned)(2000 + i % 8));
    p = derive(40);
    CU_ASSERT_EQUAL(synth_table_build(&p, &t, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "listening sockets"));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("transparent front-end: synthetic addresses", NULL, NULL);
    CU_add_test(s, "derived rules", test_rules);
    CU_add_test(s, "fixed slots and the mapping", test_table);
    CU_add_test(s, "the wildcard pool", test_pool);
    CU_add_test(s, "limits", test_limits);
    return cunit_run_registry();
}
