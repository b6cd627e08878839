/*
 * test_glue.c — TEST ONLY: the Darwin glue (seatbelt_darwin.c) compiled on
 * Linux against tests/seatbelt/shim/darwin_shim.h and run against fakes of
 * sandbox_init, sandbox_check and ptrace.  This proves the glue compiles
 * with every warning as an error and that its hooks take the right path in
 * each case; it proves nothing about what macOS does with the profile.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "backend.h"
#include "darwin_shim.h"
#include "fixtures.h"
#include "sandbox_spi.h"
#include "sbpl_reader.h"
#include "../cunit_run.h"

extern const struct sandbox_backend seatbelt_backend;

/* ---- fakes ------------------------------------------------------------ */

static int fake_sandboxed;          /* what sandbox_check reports */
static int fake_init_rc;            /* what sandbox_init returns */
static const char *fake_init_error; /* its error text, or NULL */
static int init_calls, free_error_calls, ptrace_calls, ptrace_request;
static int fake_ptrace_rc;
static char *installed;             /* the last profile given to sandbox_init */

int sandbox_init(const char *profile, uint64_t flags, char **errorbuf)
{
    init_calls++;
    free(installed);
    installed = flags == SEATBELT_PROFILE_STRING ? strdup(profile) : NULL;
    if (fake_init_rc != 0 && errorbuf)
        *errorbuf = fake_init_error ? strdup(fake_init_error) : NULL;
    return fake_init_rc;
}

void sandbox_free_error(char *errorbuf)
{
    free_error_calls++;
    free(errorbuf);
}

int sandbox_check(pid_t pid, const char *operation, int type, ...)
{
    return pid == getpid() && operation == NULL && type == SEATBELT_FILTER_NONE && fake_sandboxed;
}

int seatbelt_shim_ptrace(int request, pid_t pid, caddr_t addr, int data)
{
    (void)pid, (void)addr, (void)data;
    ptrace_calls++;
    ptrace_request = request;
    return fake_ptrace_rc;
}

/* ---- helpers ---------------------------------------------------------- */

static struct fixture fx;
static struct sandbox_ctx ctx;

static void reset(enum policy_mode mode)
{
    fake_sandboxed = fake_init_rc = fake_ptrace_rc = 0;
    fake_init_error = NULL;
    init_calls = free_error_calls = ptrace_calls = ptrace_request = 0;
    free(installed);
    installed = NULL;
    fixture_init(&fx, mode);
    memset(&ctx, 0, sizeof ctx);
    ctx.policy = &fx.policy;
    ctx.cwd = "/tmp";
    ctx.monitor.pid = -1;
    ctx.monitor.status_fd = -1;
}

/* Free what a test left in the backend's slot.  The layout mirrors
 * struct seatbelt_state, private to the glue: one char *profile. */
static void teardown_state(void)
{
    struct { char *profile; } *st = ctx.backend_state[0];
    if (st)
        free(st->profile);
    free(st);
    ctx.backend_state[0] = NULL;
}

/* ---- tests ------------------------------------------------------------ */

static void test_descriptor(void)
{
    CU_ASSERT_EQUAL(seatbelt_backend.abi.signature, SANDBOX_ABI_SIGNATURE);
    CU_ASSERT_STRING_EQUAL(seatbelt_backend.name, "seatbelt");
    CU_ASSERT_EQUAL(seatbelt_backend.order, 100);
    /* The proxy itself is the egress backend's to enforce. */
    CU_ASSERT_EQUAL(seatbelt_backend.enforces, SANDBOX_ENFORCES_FILESYSTEM |
                    SANDBOX_ENFORCES_NO_EGRESS | SANDBOX_ENFORCES_NO_LOCAL_BIND);
}

static void test_refuses_inside_a_sandbox(void)
{
    reset(POLICY_MODE_READ_ONLY);
    fake_sandboxed = 1;
    CU_ASSERT_EQUAL(seatbelt_backend.prepare(&ctx), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "already running inside a Seatbelt sandbox"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "do not nest"));
    CU_ASSERT_EQUAL(init_calls, 0);
}

static void test_full_access_installs_nothing(void)
{
    reset(POLICY_MODE_FULL_ACCESS);
    fake_sandboxed = 1; /* nothing is installed, so nesting is no reason to refuse */
    CU_ASSERT_EQUAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(seatbelt_backend.enter(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(seatbelt_backend.harden(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(init_calls, 0);
}

static void test_installs_the_profile_in_process(void)
{
    reset(POLICY_MODE_WORKSPACE_WRITE);
    fx.policy.denied_read_paths = FIXTURE_LIST("/nonexistent/secret\")(allow default)");
    pid_t self = getpid();
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.enter(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(getpid(), self); /* no proxy: no fork */
    CU_ASSERT_EQUAL(init_calls, 0);  /* installed in harden, not before */
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.harden(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(init_calls, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(installed);
    struct sbpl_read r;
    CU_ASSERT_EQUAL(sbpl_read(installed, &r), 0);
    CU_ASSERT(strncmp(r.skeleton, "(version 1)\n(deny default)\n", 27) == 0);
    sbpl_read_free(&r);
    CU_ASSERT_PTR_NOT_NULL(strstr(installed, "(subpath \"/tmp\")"));
    teardown_state();
}

static void test_sandbox_init_failure_is_one_line(void)
{
    reset(POLICY_MODE_READ_ONLY);
    fake_init_rc = -1;
    fake_init_error = "unbound variable:\nfoo";
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.enter(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(seatbelt_backend.harden(&ctx), SANDBOX_FAIL);
    CU_ASSERT_STRING_EQUAL(ctx.error, "sandbox_init refused the generated profile: unbound variable: foo");
    CU_ASSERT_EQUAL(free_error_calls, 1);
    teardown_state();
}

static void test_unwritable_path_fails_before_anything(void)
{
    reset(POLICY_MODE_READ_ONLY);
    fx.policy.denied_write_paths = FIXTURE_LIST("/a\nb");
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(seatbelt_backend.enter(&ctx), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "cannot build the Seatbelt profile: deniedWritePaths[0]"));
    teardown_state();
}

static void test_proxy_without_ports_fails(void)
{
    reset(POLICY_MODE_READ_ONLY);
    fx.policy.network.egress = fx.policy.network.has_outgoing_proxy = true;
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    CU_ASSERT_EQUAL(seatbelt_backend.enter(&ctx), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "front-end ports"));
    teardown_state();
}

/* In the forked child: 0 if it went on hardened, else a code naming what not. */
static int child_verdict(enum sandbox_result r, int want_ok)
{
    if (!want_ok)
        return r == SANDBOX_FAIL && strstr(ctx.error, "PT_DENY_ATTACH") ? 0 : 10;
    if (r != SANDBOX_OK)
        return 11;
    if (ptrace_calls != 1 || ptrace_request != PT_DENY_ATTACH)
        return 12;
    struct rlimit core;
    if (getrlimit(RLIMIT_CORE, &core) != 0 || core.rlim_cur != 0)
        return 13;
    if (seatbelt_backend.harden(&ctx) != SANDBOX_OK || init_calls != 1 || !installed ||
        !strstr(installed, "(remote ip \"localhost:41080\")"))
        return 14;
    return 0;
}

static void run_proxy_split(int ptrace_rc, int want_ok)
{
    reset(POLICY_MODE_WORKSPACE_WRITE);
    fake_ptrace_rc = ptrace_rc;
    fx.policy.network.egress = fx.policy.network.has_outgoing_proxy = true;
    ctx.loopback_grants[0] = 41080;
    ctx.loopback_grant_count = 1;
    CU_ASSERT_EQUAL_FATAL(seatbelt_backend.prepare(&ctx), SANDBOX_OK);
    pid_t self = getpid();
    enum sandbox_result r = seatbelt_backend.enter(&ctx);
    if (getpid() != self)
        _exit(child_verdict(r, want_ok));
    CU_ASSERT_EQUAL_FATAL(r, SANDBOX_SUPERVISE);
    CU_ASSERT(ctx.monitor.pid > 0);
    CU_ASSERT_EQUAL(ctx.monitor.status_fd, -1);
    CU_ASSERT_EQUAL(init_calls, 0); /* the parent stays unsandboxed */
    CU_ASSERT_EQUAL(ptrace_calls, 0);
    int status;
    CU_ASSERT_EQUAL_FATAL(waitpid(ctx.monitor.pid, &status, 0), ctx.monitor.pid);
    CU_ASSERT(WIFEXITED(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        fprintf(stderr, "\n  child verdict %d\n", WEXITSTATUS(status));
    CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
    teardown_state();
}

static void test_proxy_runs_the_workload_as_a_child(void)
{
    run_proxy_split(0, 1);
}

static void test_proxy_child_fails_closed_without_deny_attach(void)
{
    run_proxy_split(-1, 0);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("seatbelt Darwin glue (Linux, fakes)", NULL, NULL);
    if (!s ||
        !CU_add_test(s, "descriptor", test_descriptor) ||
        !CU_add_test(s, "refuses inside a sandbox", test_refuses_inside_a_sandbox) ||
        !CU_add_test(s, "full_access installs nothing", test_full_access_installs_nothing) ||
        !CU_add_test(s, "installs the profile in-process", test_installs_the_profile_in_process) ||
        !CU_add_test(s, "sandbox_init failure is one line", test_sandbox_init_failure_is_one_line) ||
        !CU_add_test(s, "unwritable path fails in enter", test_unwritable_path_fails_before_anything) ||
        !CU_add_test(s, "proxy without ports fails", test_proxy_without_ports_fails) ||
        !CU_add_test(s, "proxy: workload is a hardened child", test_proxy_runs_the_workload_as_a_child) ||
        !CU_add_test(s, "proxy: child fails closed without PT_DENY_ATTACH",
                     test_proxy_child_fails_closed_without_deny_attach)) {
        fprintf(stderr, "seatbelt_glue_unit: cannot register the tests: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    int rc = cunit_run_registry();
    free(installed);
    return rc;
}
