/*
 * test_backend_set.c — the descriptor checks of core/backend_set.c, the
 * one function both loaders call (backend_static.c at start-up in release
 * builds, backend_dlopen.c at module load in developer builds): a
 * descriptor without any of its four hooks is refused, with a message
 * naming the backend and the missing hook, and is not added to the set.
 * (tests/core/dynamic-backends.sh checks the same through real modules.)
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "backend_set.h"
#include "../cunit_run.h"

static enum sandbox_result nothing(struct sandbox_ctx *ctx)
{
    (void)ctx;
    return SANDBOX_OK;
}

static enum sandbox_result nothing_to_say(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    (void)ctx;
    (void)out;
    return SANDBOX_OK;
}

static struct sandbox_backend whole(void)
{
    return (struct sandbox_backend){
        .abi = SANDBOX_BACKEND_ABI,
        .name = "foo",
        .order = 150,
        .on_request = true,
        .enforces = SANDBOX_ENFORCES_FILESYSTEM,
        .prepare = nothing,
        .enter = nothing,
        .harden = nothing,
        .explain = nothing_to_say,
    };
}

/* Add `b` to an empty set; 0 or -1, the message in err. */
static int add(const struct sandbox_backend *b, char *err, size_t errlen, size_t *count)
{
    struct backend_set set = {0};
    err[0] = '\0';
    int rc = backend_set_add(&set, b, "built-in", false, err, errlen);
    *count = set.count;
    return rc;
}

static void test_whole_descriptor_added(void)
{
    struct sandbox_backend b = whole();
    char err[SANDBOX_ERROR_MAX];
    size_t count;
    CU_ASSERT_EQUAL(add(&b, err, sizeof err, &count), 0);
    CU_ASSERT_EQUAL(count, 1);
}

static void expect_refused(const struct sandbox_backend *b, const char *want)
{
    char err[SANDBOX_ERROR_MAX];
    size_t count;
    CU_ASSERT_EQUAL(add(b, err, sizeof err, &count), -1);
    CU_ASSERT_EQUAL(count, 0);
    if (!strstr(err, want)) {
        printf("\n  message: %s\n  wanted:  %s\n", err, want);
        CU_FAIL("the message does not name the missing hook");
    }
}

static void test_each_hook_required(void)
{
    struct sandbox_backend b = whole();
    b.prepare = NULL;
    expect_refused(&b, "backend built-in (foo): the prepare hook is missing; use sandbox_hook_noop");
    b = whole();
    b.enter = NULL;
    expect_refused(&b, "backend built-in (foo): the enter hook is missing; use sandbox_hook_noop");
    b = whole();
    b.harden = NULL;
    expect_refused(&b, "backend built-in (foo): the harden hook is missing; use sandbox_hook_noop");
}

/* README's recipe once had no .explain: such a backend is refused when it
 * is added, by name, not left to fail at every launch. */
static void test_explain_required(void)
{
    struct sandbox_backend b = whole();
    b.explain = NULL;
    expect_refused(&b, "backend built-in (foo): the explain hook is missing; use sandbox_explain_noop");
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("backend_set_add", NULL, NULL);
    if (!s || !CU_add_test(s, "a whole descriptor is added", test_whole_descriptor_added) ||
        !CU_add_test(s, "prepare, enter and harden are required", test_each_hook_required) ||
        !CU_add_test(s, "explain is required", test_explain_required)) {
        CU_cleanup_registry();
        return 1;
    }
    return cunit_run_registry();
}
