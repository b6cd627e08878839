/*
 * test_event_report.c — the report's encoder (core/event_report.h): every
 * line valid UTF-8 and one JSON object, a byte that is not UTF-8 escaped
 * as --explain escapes it (core/text_escape.h), a shortened value ending
 * at a whole character, an abstract name's NULs kept, and no line longer
 * than its buffer.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "event_report.h"
#include "explain_query.h"
#include "text_escape.h"
#include "../cunit_run.h"

struct bytes {
    const char *s;
    size_t len;
};

static void path_fields(struct report_line *l, const void *arg)
{
    const struct bytes *b = arg;
    report_field_bytes(l, "path", b->s, b->len);
}

/* The line for `len` bytes of path, NUL-terminated in out (its length). */
static size_t line_for(char *out, size_t cap, const char *s, size_t len)
{
    struct bytes b = {s, len};
    size_t n = report_format(out, cap, "e", "t", 0, path_fields, &b);
    if (n)
        out[n] = '\0';
    return n;
}

static bool valid_utf8(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = utf8_sequence((const unsigned char *)s + i, n - i);
        if (k == 0)
            return false;
        i += k;
    }
    return true;
}

static void test_not_utf8_as_explain(void)
{
    char line[REPORT_LINE_MAX + 1];
    /* A lone continuation byte, a cut sequence, an overlong '/', a C1 control. */
    const char in[] = "a\x80"
                      "b\xe2\x82"
                      "c\xc0\xaf"
                      "d\xc2\x85"
                      "\"\\";
    size_t n = line_for(line, REPORT_LINE_MAX, in, sizeof in - 1);
    CU_ASSERT_TRUE_FATAL(n > 0);
    CU_ASSERT_STRING_EQUAL(
        line, "{\"event\":\"e\",\"time\":\"t\",\"path\":\"a\\\\x80b\\\\xe2\\\\x82c\\\\xc0\\\\xafd"
              "\\u0085\\\"\\\\\",\"dropped\":0}\n");
    /* The same bytes through --explain's JSON: the same string. */
    char via[256];
    FILE *f = fmemopen(via, sizeof via, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    explain_escape(f, in, 1);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, via));
}

static void test_nuls_kept(void)
{
    char line[REPORT_LINE_MAX + 1];
    size_t n = line_for(line, REPORT_LINE_MAX, "@a\0b\0", 5);
    CU_ASSERT_TRUE_FATAL(n > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "\"path\":\"@a\\u0000b\\u0000\""));
}

static void test_shortened_at_a_character(void)
{
    /* 3-byte characters from every offset: whatever the budget, the value
     * is whole characters, and the line valid UTF-8 and within its buffer. */
    char in[600], line[REPORT_LINE_MAX + 1];
    for (size_t lead = 0; lead < 3; lead++) {
        memset(in, 'x', lead);
        for (size_t i = lead; i + 3 <= sizeof in; i += 3)
            memcpy(in + i, "\xe2\x82\xac", 3);
        size_t len = lead + (sizeof in - lead) / 3 * 3;
        for (size_t cap = 60; cap <= REPORT_LINE_MAX; cap += 7) {
            size_t n = line_for(line, cap, in, len);
            CU_ASSERT_TRUE_FATAL(n > 0 && n < cap);
            CU_ASSERT_TRUE(valid_utf8(line, n));
            CU_ASSERT_EQUAL(line[n - 1], '\n');
            CU_ASSERT_PTR_NULL(memchr(line, '\n', n - 1));
            CU_ASSERT_PTR_NOT_NULL(strstr(line, "\",\"dropped\":0}\n"));
        }
    }
    /* Too small even for the fixed part: nothing, no fragment. */
    CU_ASSERT_EQUAL(line_for(line, 20, in, 3), 0);
}

static void test_all_bytes_escaped_fit(void)
{
    /* The longest escapes (5 bytes each) of every byte value. */
    char in[256], line[REPORT_LINE_MAX + 1];
    for (int i = 0; i < 256; i++)
        in[i] = (char)(255 - i);
    size_t n = line_for(line, REPORT_LINE_MAX, in, sizeof in);
    CU_ASSERT_TRUE_FATAL(n > 0 && n <= REPORT_LINE_MAX);
    CU_ASSERT_TRUE(valid_utf8(line, n));
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_TRUE((unsigned char)line[i] >= 0x20 || line[i] == '\n');
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("event_report", NULL, NULL);
    CU_add_test(s, "not UTF-8: escaped as --explain escapes it", test_not_utf8_as_explain);
    CU_add_test(s, "an abstract name's NULs kept", test_nuls_kept);
    CU_add_test(s, "shortened at a whole character", test_shortened_at_a_character);
    CU_add_test(s, "every byte value escaped, the line within its buffer", test_all_bytes_escaped_fit);
    return cunit_run_registry();
}
