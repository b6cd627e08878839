/*
 * test_hostile.c — hostile paths cannot change a profile's structure.
 *
 * For every hostile path component and every place a path can appear
 * (each of the path lists, the working directory), the profile built with
 * the hostile component must read back (strictly: sbpl_reader.c) with
 * exactly the same skeleton — the same forms, in the same order, with the
 * same symbols — as the profile built with an ordinary component, and its
 * strings must be the ordinary profile's strings with that one component
 * replaced.  So the path is data in every case: it adds no form, ends no
 * string early, and lands in no regex.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fixtures.h"
#include "hostile.h"
#include "sbpl_reader.h"
#include "suites.h"

#define ORDINARY "ordinary"

static const char *const placement_names[] = {"deniedReadPaths", "deniedWritePaths", "allowedWritePaths",
                                              "cwd"};

/* Build with `component` at `where` and read the result back. */
static int build_and_read(const char *component, enum hostile_placement where, struct sbpl_read *r)
{
    memset(r, 0, sizeof *r);
    struct hostile_case hc;
    hostile_case_init(&hc, component, where);
    char *profile = NULL;
    char err[256];
    if (fixture_build(&hc.f, &profile, err, sizeof err) != SBPL_OK)
        return -1;
    int rc = sbpl_read(profile, r);
    if (rc != 0)
        fprintf(stderr, "\n  reader: %s\n--\n%s--\n", r->error, profile);
    free(profile);
    return rc;
}

/* `s` with its one occurrence of "/ORDINARY" replaced by "/component". */
static char *substitute(const char *s, const char *component)
{
    const char *at = strstr(s, "/" ORDINARY);
    if (!at)
        return strdup(s);
    size_t head = (size_t)(at - s) + 1, tail = strlen(at + 1 + strlen(ORDINARY));
    char *out = malloc(head + strlen(component) + tail + 1);
    if (out)
        sprintf(out, "%.*s%s%s", (int)head, s, component, at + 1 + strlen(ORDINARY));
    return out;
}

static void compare(const struct sbpl_read *ordinary, const struct sbpl_read *hostile, const char *component,
                    enum hostile_placement where)
{
    int same_skeleton = strcmp(ordinary->skeleton, hostile->skeleton) == 0;
    if (!same_skeleton)
        fprintf(stderr, "\n  %s in %s changed the structure\n", component, placement_names[where]);
    CU_ASSERT(same_skeleton);
    CU_ASSERT_EQUAL_FATAL(ordinary->string_count, hostile->string_count);
    size_t mentions = 0;
    for (size_t i = 0; i < ordinary->string_count; i++) {
        char *want = substitute(ordinary->strings[i], component);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        CU_ASSERT_STRING_EQUAL(hostile->strings[i], want);
        mentions += strstr(ordinary->strings[i], ORDINARY) != NULL;
        free(want);
    }
    CU_ASSERT(mentions > 0); /* the path did reach the profile */
}

static void test_structure_unchanged(void)
{
    for (enum hostile_placement where = 0; where < HOSTILE_PLACEMENTS; where++) {
        struct sbpl_read ordinary;
        CU_ASSERT_EQUAL_FATAL(build_and_read(ORDINARY, where, &ordinary), 0);
        for (size_t i = 0; i < HOSTILE_COUNT; i++) {
            struct sbpl_read hostile;
            int rc = build_and_read(hostile_components[i], where, &hostile);
            CU_ASSERT_EQUAL(rc, 0);
            if (rc == 0)
                compare(&ordinary, &hostile, hostile_components[i], where);
            sbpl_read_free(&hostile);
        }
        sbpl_read_free(&ordinary);
    }
}

/* A control byte anywhere is refused, never written. */
static void test_control_bytes_never_written(void)
{
    static const char *const bad[] = {"a\nb", "a\rb", "a\tb", "\x1b[0m", "del\x7f"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (enum hostile_placement where = 0; where < HOSTILE_PLACEMENTS; where++) {
            struct sbpl_read r;
            CU_ASSERT_EQUAL(build_and_read(bad[i], where, &r), -1);
            sbpl_read_free(&r);
        }
    }
}

int suite_hostile(void)
{
    CU_pSuite s = CU_add_suite("hostile paths keep the structure", NULL, NULL);
    if (!s)
        return -1;
    return (CU_add_test(s, "structure unchanged in every placement", test_structure_unchanged) &&
            CU_add_test(s, "control bytes never written", test_control_bytes_never_written))
               ? 0
               : -1;
}
