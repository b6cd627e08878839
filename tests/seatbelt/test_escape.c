/*
 * test_escape.c — SBPL string literals (sbpl_escape.c) and the test reader
 * that the structural proofs rely on.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "hostile.h"
#include "sbpl_escape.h"
#include "sbpl_reader.h"
#include "suites.h"

static char *literal_of(const char *s, int *rc)
{
    struct sbpl_buf b;
    sbpl_buf_init(&b);
    sbpl_buf_append(&b, "");
    *rc = sbpl_append_string(&b, s);
    return sbpl_buf_take(&b);
}

static void expect_literal(const char *in, const char *want)
{
    int rc;
    char *got = literal_of(in, &rc);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

static void test_plain_path(void)
{
    expect_literal("/Users/me/project", "\"/Users/me/project\"");
    expect_literal("", "\"\"");
}

static void test_quote_and_backslash_escaped(void)
{
    expect_literal("/a\"b", "\"/a\\\"b\"");
    expect_literal("/a\\b", "\"/a\\\\b\"");
    expect_literal("\\\"", "\"\\\\\\\"\"");
    expect_literal("/end\\", "\"/end\\\\\"");
}

static void test_other_bytes_verbatim(void)
{
    /* Inside a string these have no meaning: no escaping, no change. */
    expect_literal("/a)(;#|.*[]{}$^?+ b", "\"/a)(;#|.*[]{}$^?+ b\"");
    expect_literal("/caf\xc3\xa9", "\"/caf\xc3\xa9\"");
}

static void test_control_bytes_refused(void)
{
    static const char *const bad[] = {"/a\nb", "/a\rb", "/a\tb", "/a\x01", "/a\x1f", "/a\x7f", "\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_PTR_NOT_NULL(sbpl_string_problem(bad[i]));
        int rc;
        char *got = literal_of(bad[i], &rc);
        CU_ASSERT_EQUAL(rc, -1);
        CU_ASSERT_STRING_EQUAL(got, ""); /* nothing was appended */
        free(got);
    }
    CU_ASSERT_PTR_NULL(sbpl_string_problem("/fine \xc3\xa9"));
}

/* Every hostile component, quoted, reads back as one string equal to it. */
static void test_hostile_round_trip(void)
{
    for (size_t i = 0; i < HOSTILE_COUNT; i++) {
        struct sbpl_buf b;
        sbpl_buf_init(&b);
        sbpl_buf_append(&b, "(allow file-read* (literal ");
        CU_ASSERT_EQUAL_FATAL(sbpl_append_string(&b, hostile_components[i]), 0);
        sbpl_buf_append(&b, "))\n");
        char *text = sbpl_buf_take(&b);
        struct sbpl_read r;
        int rc = sbpl_read(text, &r);
        if (rc != 0)
            fprintf(stderr, "\nreader: %s in %s\n", r.error, text);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc != 0) {
            sbpl_read_free(&r);
            free(text);
            continue;
        }
        CU_ASSERT_STRING_EQUAL(r.skeleton, "(allow file-read* (literal S))\n");
        CU_ASSERT_EQUAL(r.string_count, 1);
        if (r.string_count == 1)
            CU_ASSERT_STRING_EQUAL(r.strings[0], hostile_components[i]);
        sbpl_read_free(&r);
        free(text);
    }
}

static void expect_reader_error(const char *text, const char *what)
{
    struct sbpl_read r;
    CU_ASSERT_EQUAL(sbpl_read(text, &r), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.error, what));
    sbpl_read_free(&r);
}

/* The reader must reject what escaping mistakes would produce, or its
 * "structure unchanged" verdicts would mean nothing. */
static void test_reader_is_strict(void)
{
    expect_reader_error("(allow (literal \"a\")", "unbalanced '('");
    expect_reader_error("(allow))", "unbalanced ')'");
    expect_reader_error("(allow (literal \"a))", "unterminated string");
    expect_reader_error("(allow (literal \"a\nb\"))", "control byte");
    expect_reader_error("(allow (literal \"a\\nb\"))", "unexpected escape");
    expect_reader_error("(allow (regex #\"^/a\"))", "regex");
    expect_reader_error("allow", "outside any form");
    struct sbpl_read r;
    CU_ASSERT_EQUAL(sbpl_read("; c (\n(version 1) ; x \"\n(allow  a\t(b \"q\\\"\"))", &r), 0);
    CU_ASSERT_STRING_EQUAL(r.skeleton, "(version 1)\n(allow a (b S))\n");
    CU_ASSERT_EQUAL(r.top->count, 2);
    sbpl_read_free(&r);
}

int suite_escape(void)
{
    CU_pSuite s = CU_add_suite("sbpl_escape", NULL, NULL);
    if (!s)
        return -1;
    return (CU_add_test(s, "plain path", test_plain_path) &&
            CU_add_test(s, "quote and backslash escaped", test_quote_and_backslash_escaped) &&
            CU_add_test(s, "other bytes verbatim", test_other_bytes_verbatim) &&
            CU_add_test(s, "control bytes refused", test_control_bytes_refused) &&
            CU_add_test(s, "hostile components round-trip", test_hostile_round_trip) &&
            CU_add_test(s, "test reader is strict", test_reader_is_strict))
               ? 0
               : -1;
}
