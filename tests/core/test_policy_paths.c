/*
 * test_policy_paths.c — the path algebra every backend uses
 * (core/policy_paths.h): containment at component boundaries, "/" above
 * everything, the path order, pruning, and the runs the order makes; and
 * that it holds for paths as the parser leaves them.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "policy_paths.h"
#include "../cunit_run.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_at_or_beneath(void)
{
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a", "/a")); /* equal */
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a/b", "/a"));
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a/b/c", "/a"));
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/a/bc", "/a/b")); /* a prefix, not a component */
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/ab", "/a"));
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/a-b", "/a"));
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/a", "/a/b")); /* above is not beneath */
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/b", "/a"));
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/", "/a"));
}

static void test_root_above_everything(void)
{
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/", "/"));
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a", "/"));
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a/b", "/"));
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/-", "/"));
}

/* A trailing slash is gone by the time a backend compares: the parser's
 * normal form is what the algebra is defined on. */
static void test_parser_form(void)
{
    const char *doc = "{\"mode\":\"read_only\",\"deniedReadPaths\":[\"/a/b/\",\"/\"],"
                      "\"network\":{\"egress\":false,\"localBinding\":false}}";
    struct policy_errors e;
    struct policy *p = policy_parse(doc, strlen(doc), &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->denied_read_paths.items[0], "/a/b");
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a/b/c", p->denied_read_paths.items[0]));
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a/b", p->denied_read_paths.items[0]));
    CU_ASSERT_FALSE(policy_path_at_or_beneath("/a/bc", p->denied_read_paths.items[0]));
    CU_ASSERT_STRING_EQUAL(p->denied_read_paths.items[1], "/");
    CU_ASSERT_TRUE(policy_path_at_or_beneath("/a", p->denied_read_paths.items[1]));
    policy_free(p);
    policy_errors_free(&e);
}

static void test_covered(void)
{
    const char *const list[] = {"/x/y", "/a", NULL};
    const char *const empty[] = {NULL};
    const char *const root[] = {"/", NULL};
    CU_ASSERT_TRUE(policy_path_covered("/a/b", list));
    CU_ASSERT_TRUE(policy_path_covered("/x/y", list));
    CU_ASSERT_FALSE(policy_path_covered("/x", list));
    CU_ASSERT_FALSE(policy_path_covered("/ab", list));
    CU_ASSERT_FALSE(policy_path_covered("/a", empty));
    CU_ASSERT_TRUE(policy_path_covered("/anything", root));
}

static void test_order(void)
{
    const char *paths[] = {"/ab", "/a-b", "/a/b/c", "/", "/a/b", "/a", "/a/b-c"};
    const char *const want[] = {"/", "/a", "/a/b", "/a/b/c", "/a/b-c", "/a-b", "/ab"};
    qsort(paths, COUNT(paths), sizeof *paths, policy_path_compare);
    for (size_t i = 0; i < COUNT(want); i++)
        CU_ASSERT_STRING_EQUAL(paths[i], want[i]);
    const char *a = "/a", *b = "/a";
    CU_ASSERT_EQUAL(policy_path_compare(&a, &b), 0);
}

static void test_prune(void)
{
    const char *paths[] = {"/a/b", "/c", "/a", "/a", "/c/d", "/a-b", "/ab", "/a/b/c"};
    const char *const want[] = {"/a", "/a-b", "/ab", "/c"};
    size_t n = policy_paths_prune(paths, COUNT(paths));
    CU_ASSERT_EQUAL_FATAL(n, COUNT(want));
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_STRING_EQUAL(paths[i], want[i]);
    const char *with_root[] = {"/x", "/", "/y/z"};
    CU_ASSERT_EQUAL(policy_paths_prune(with_root, 3), 1);
    CU_ASSERT_STRING_EQUAL(with_root[0], "/");
    const char *none[1] = {"/z"};
    CU_ASSERT_EQUAL(policy_paths_prune(none, 0), 0);
}

static void test_beneath_run(void)
{
    const char *const sorted[] = {"/a", "/a/b", "/a/b/c", "/a/c", "/a-b", "/b"};
    size_t m, at = policy_paths_beneath(sorted, COUNT(sorted), "/a", &m);
    CU_ASSERT_EQUAL(at, 0);
    CU_ASSERT_EQUAL(m, 4);
    at = policy_paths_beneath(sorted, COUNT(sorted), "/a/b", &m);
    CU_ASSERT_EQUAL(at, 1);
    CU_ASSERT_EQUAL(m, 2);
    policy_paths_beneath(sorted, COUNT(sorted), "/a/bb", &m);
    CU_ASSERT_EQUAL(m, 0);
    policy_paths_beneath(sorted, COUNT(sorted), "/a-", &m);
    CU_ASSERT_EQUAL(m, 0);
    at = policy_paths_beneath(sorted, COUNT(sorted), "/", &m);
    CU_ASSERT_EQUAL(at, 0);
    CU_ASSERT_EQUAL(m, COUNT(sorted));
    at = policy_paths_beneath(sorted, COUNT(sorted), "/b", &m);
    CU_ASSERT_EQUAL(at, 5);
    CU_ASSERT_EQUAL(m, 1);
    policy_paths_beneath(sorted, 0, "/a", &m);
    CU_ASSERT_EQUAL(m, 0);
}

/* ---- against brute force, on many small random sets --------------------- */

#define SET_MAX 12

/* A random normalised path of 1..3 components over "a", "b", "a-", "ab". */
static void random_path(char *out, size_t cap, unsigned *seed)
{
    static const char *const parts[] = {"a", "b", "a-", "ab"};
    int depth = rand_r(seed) % 4;
    size_t at = 0;
    out[0] = '\0';
    if (depth == 0) {
        snprintf(out, cap, "/");
        return;
    }
    for (int i = 0; i < depth; i++)
        at += (size_t)snprintf(out + at, cap - at, "/%s", parts[rand_r(seed) % 4]);
}

/* Kept exactly once iff no other entry (another string) is above it. */
static bool brute_kept(const char *p, char set[][16], size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (strcmp(set[j], p) != 0 && policy_path_at_or_beneath(p, set[j]))
            return false;
    return true;
}

static void check_one_set(unsigned *seed)
{
    char set[SET_MAX][16];
    const char *paths[SET_MAX];
    size_t n = (size_t)(rand_r(seed) % SET_MAX) + 1;
    for (size_t i = 0; i < n; i++) {
        random_path(set[i], sizeof set[i], seed);
        paths[i] = set[i];
    }
    size_t kept = policy_paths_prune(paths, n);
    size_t want = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i; j++)
            first = first && strcmp(set[i], set[j]) != 0;
        want += first && brute_kept(set[i], set, n);
    }
    CU_ASSERT_EQUAL(kept, want);
    for (size_t i = 0; i < kept; i++) {
        CU_ASSERT_TRUE(brute_kept(paths[i], set, n));
        if (i > 0)
            CU_ASSERT_TRUE(policy_path_compare(&paths[i - 1], &paths[i]) < 0);
    }
    /* The run beneath each entry of the full sorted set is all of them. */
    for (size_t i = 0; i < n; i++)
        paths[i] = set[i];
    qsort(paths, n, sizeof *paths, policy_path_compare);
    for (size_t r = 0; r < n; r++) {
        size_t m, at = policy_paths_beneath(paths, n, set[r], &m), brute = 0;
        for (size_t j = 0; j < n; j++)
            brute += policy_path_at_or_beneath(set[j], set[r]);
        CU_ASSERT_EQUAL(m, brute);
        for (size_t j = at; j < at + m; j++)
            CU_ASSERT_TRUE(policy_path_at_or_beneath(paths[j], set[r]));
    }
}

static void test_against_brute_force(void)
{
    unsigned seed = 21;
    for (int i = 0; i < 2000; i++)
        check_one_set(&seed);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("policy paths", NULL, NULL);
    CU_add_test(s, "at or beneath, component-wise", test_at_or_beneath);
    CU_add_test(s, "\"/\" is above every path", test_root_above_everything);
    CU_add_test(s, "paths as the parser leaves them", test_parser_form);
    CU_add_test(s, "covered by a list", test_covered);
    CU_add_test(s, "path order", test_order);
    CU_add_test(s, "pruning keeps the outermost", test_prune);
    CU_add_test(s, "the run beneath a root", test_beneath_run);
    CU_add_test(s, "prune and runs against brute force", test_against_brute_force);
    return cunit_run_registry();
}
