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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "backend.h"
#include "darwin_shim.h"
#include "fixtures.h"
#include "os/sandbox_spi.h"
#include "explain_collect.h"
#include "sbpl_eval.h"
#include "sbpl_reader.h"
#include "../cunit_run.h"

extern const struct sandbox_backend seatbelt_backend;

/* ---- fakes ------------------------------------------------------------ */

static int fake_sandboxed;          /* what sandbox_check reports */
static int fake_init_rc;            /* what sandbox_init returns */
static const char *fake_init_error; /* its error text, or NULL */
static int init_calls, free_error_calls, ptrace_calls, ptrace_request;
static int fake_ptrace_rc;
static char *installed; /* the last profile given to sandbox_init */

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

const int SANDBOX_CHECK_NO_REPORT = 0x4000; /* any bit the filter types leave free */
static int path_checks;                     /* sandbox_check calls with a path */

/* With a path: the verdict of the profile the (child) process installed,
 * read by sbpl_reader and decided by the model of Seatbelt (sbpl_eval.h)
 * under both readings of precedence, which must agree; -1 otherwise. */
static int check_path(pid_t pid, const char *operation, int type, const char *path)
{
    path_checks++;
    if (pid != getpid() || type != (SEATBELT_FILTER_PATH | SANDBOX_CHECK_NO_REPORT) || !installed)
        return -1;
    struct sbpl_read r;
    if (sbpl_read(installed, &r) != 0)
        return -1;
    struct sbpl_request q = {.operation = operation, .path = path};
    enum sbpl_verdict last = sbpl_eval(&r, &q, SBPL_LAST_MATCH_WINS),
                      deny = sbpl_eval(&r, &q, SBPL_DENY_OVERRIDES);
    sbpl_read_free(&r);
    return last != deny || last == SBPL_EVAL_UNKNOWN ? -1 : last == SBPL_EVAL_DENY;
}

int sandbox_check(pid_t pid, const char *operation, int type, ...)
{
    if (operation) {
        va_list ap;
        va_start(ap, type);
        const char *path = va_arg(ap, const char *);
        va_end(ap);
        return check_path(pid, operation, type, path);
    }
    return pid == getpid() && type == SEATBELT_FILTER_NONE && fake_sandboxed;
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
    init_calls = free_error_calls = ptrace_calls = ptrace_request = path_checks = 0;
    free(installed);
    installed = NULL;
    fixture_init(&fx, mode);
    memset(&ctx, 0, sizeof ctx);
    ctx.policy = &fx.policy;
    ctx.cwd = "/tmp";
    /* The core holds the working directory and checks its name against it
     * (core/backend.h): the fixture's is /tmp, as the core would record it. */
    struct stat tmp;
    CU_ASSERT_EQUAL_FATAL(stat(ctx.cwd, &tmp), 0);
    ctx.cwd_fd = -1;
    ctx.cwd_dev = tmp.st_dev;
    ctx.cwd_ino = tmp.st_ino;
    ctx.monitor.pid = -1;
    ctx.monitor.status_fd = -1;
}

/* Free what a test left in the backend's slot.  The layout mirrors
 * struct seatbelt_state, private to the glue: one char *profile. */
static void teardown_state(void)
{
    struct {
        char *profile;
    } *st = ctx.backend_state[0];
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
    CU_ASSERT_EQUAL(seatbelt_backend.enforces, SANDBOX_ENFORCES_FILESYSTEM | SANDBOX_ENFORCES_NO_EGRESS |
                                                   SANDBOX_ENFORCES_NO_LOCAL_BIND);
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

/* ---- --explain -------------------------------------------------------- */

#define QUERY(k, p)                            \
    {                                          \
        .kind = (k), .given = (p), .path = (p) \
    }

static const char *const explain_names[] = {"seatbelt"};
static struct explain_collect collected;
static size_t collected_queries;

static void free_collected(void)
{
    for (size_t i = 0; i < collected.count; i++)
        free(collected.items[i].kind), free(collected.items[i].subject), free(collected.items[i].how);
    for (size_t i = 0; collected.answers && i < collected_queries; i++)
        free(collected.answers[i].rule);
    free(collected.items);
    free(collected.answers);
    collected = (struct explain_collect){.names = explain_names};
}

/* seatbelt_backend.explain() on the fixture with `queries`. */
static enum sandbox_result run_explain(const struct sandbox_query *queries, size_t n)
{
    free_collected();
    collected.answers = calloc(n + 1, sizeof *collected.answers);
    collected_queries = n;
    struct sandbox_explain out = {.queries = queries, .query_count = n, .core = &collected};
    return seatbelt_backend.explain(&ctx, &out);
}

static bool said(const char *kind, const char *subject)
{
    for (size_t i = 0; i < collected.count; i++)
        if (strcmp(collected.items[i].kind, kind) == 0 && strcmp(collected.items[i].subject, subject) == 0)
            return true;
    return false;
}

static void expect_answer(size_t i, enum sandbox_verdict v, const char *rule_part)
{
    const struct explain_answer *a = &collected.answers[i];
    CU_ASSERT_EQUAL(a->verdict, v);
    if (a->verdict != v || (rule_part && (!a->rule || !strstr(a->rule, rule_part))))
        fprintf(stderr, "\n  answer %zu: verdict %d, rule '%s' (wanted %d, '%s')\n", i, a->verdict,
                a->rule ? a->rule : "", v, rule_part ? rule_part : "");
    if (rule_part)
        CU_ASSERT(a->rule && strstr(a->rule, rule_part));
}

/* The file verdicts are Seatbelt's, asked in a confined child: here the
 * fakes answer with the model of the profile that child installed, and
 * the supervisor itself installs nothing. */
static void test_explain_files_from_the_confined_child(void)
{
    reset(POLICY_MODE_WORKSPACE_WRITE);
    ctx.cwd = "/tmp/has-ws";
    fx.policy.denied_write_paths = FIXTURE_LIST("/tmp/has-ws/.git");
    fx.policy.denied_read_paths = FIXTURE_LIST("/tmp/has-ws/.env");
    const struct sandbox_query q[] = {
        QUERY(SANDBOX_QUERY_READ, "/usr/lib/libc.so"),
        QUERY(SANDBOX_QUERY_READ, "/tmp/has-ws/.env"),
        QUERY(SANDBOX_QUERY_WRITE, "/tmp/has-ws/new.c"),
        QUERY(SANDBOX_QUERY_WRITE, "/tmp/has-ws/.git/config"),
        QUERY(SANDBOX_QUERY_WRITE, "/usr/lib/evil"),
        QUERY(SANDBOX_QUERY_WRITE, "/tmp/has-ws/.env"),
    };
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 6), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_ALLOWED, "file-read-data allowed");
    expect_answer(1, SANDBOX_VERDICT_REFUSED, "read-denied \"/tmp/has-ws/.env\"");
    expect_answer(2, SANDBOX_VERDICT_ALLOWED, "file-write-create allowed; writable root \"/tmp/has-ws\"");
    expect_answer(3, SANDBOX_VERDICT_REFUSED, "write-denied \"/tmp/has-ws/.git\"");
    expect_answer(4, SANDBOX_VERDICT_REFUSED, "beneath no writable root");
    expect_answer(5, SANDBOX_VERDICT_REFUSED, "write-denied \"/tmp/has-ws/.env\"");
    CU_ASSERT_EQUAL(init_calls, 0);  /* the supervisor stays unconfined */
    CU_ASSERT_EQUAL(path_checks, 0); /* the questions were the child's */
    CU_ASSERT(said("writable", "/tmp/has-ws"));
    CU_ASSERT(said("write-denied", "/tmp/has-ws/.git"));
    CU_ASSERT(said("read-denied", "/tmp/has-ws/.env"));
    CU_ASSERT(said("network", ""));
}

/* A write-denied path's parent inside the writable root is guarded: its
 * own entry cannot be replaced, though a new name beside it can. */
static void test_explain_guarded_ancestor(void)
{
    reset(POLICY_MODE_WORKSPACE_WRITE);
    ctx.cwd = "/tmp/has-ws";
    fx.policy.denied_write_paths = FIXTURE_LIST("/tmp/has-ws/a/b/hook");
    const struct sandbox_query q[] = {QUERY(SANDBOX_QUERY_WRITE, "/tmp/has-ws/a"),
                                      QUERY(SANDBOX_QUERY_WRITE, "/tmp/has-ws/a/other")};
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 2), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_REFUSED, "a directory on the way to a write-denied path");
    expect_answer(1, SANDBOX_VERDICT_ALLOWED, "writable root");
    CU_ASSERT(said("write-denied", "/tmp/has-ws/a"));
}

static void test_explain_network(void)
{
    const struct sandbox_query q[] = {{.kind = SANDBOX_QUERY_CONNECT,
                                       .given = "example.com:443",
                                       .host = "example.com",
                                       .host_len = 11,
                                       .port = 443},
                                      QUERY(SANDBOX_QUERY_UNIX, SBPL_DNS_SOCKET),
                                      QUERY(SANDBOX_QUERY_UNIX, "/tmp/has-ws/s.sock")};
    reset(POLICY_MODE_READ_ONLY);
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 3), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_REFUSED, "egress: false");
    expect_answer(1, SANDBOX_VERDICT_REFUSED, "no Unix socket");
    reset(POLICY_MODE_READ_ONLY);
    fx.policy.network.egress = true;
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 3), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_ALLOWED, "any IP destination");
    expect_answer(1, SANDBOX_VERDICT_ALLOWED, "name resolution");
    expect_answer(2, SANDBOX_VERDICT_REFUSED, "no Unix socket");
    /* Under a proxy no front-end is bound: the proxy decides connections. */
    reset(POLICY_MODE_READ_ONLY);
    fx.policy.network.egress = fx.policy.network.has_outgoing_proxy = true;
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 1), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_NONE, NULL);
    CU_ASSERT_EQUAL(path_checks, 0);
}

static void test_explain_refuses_as_prepare_does(void)
{
    const struct sandbox_query q[] = {QUERY(SANDBOX_QUERY_READ, "/etc/hosts")};
    reset(POLICY_MODE_READ_ONLY);
    fake_sandboxed = 1;
    CU_ASSERT_EQUAL(run_explain(q, 1), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "do not nest"));
    reset(POLICY_MODE_READ_ONLY);
    fx.policy.denied_write_paths = FIXTURE_LIST("/a\nb");
    CU_ASSERT_EQUAL(run_explain(q, 1), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "cannot build the Seatbelt profile: deniedWritePaths[0]"));
    /* A child that cannot confine itself answers nothing: explain fails. */
    reset(POLICY_MODE_READ_ONLY);
    fake_init_rc = -1;
    CU_ASSERT_EQUAL(run_explain(q, 1), SANDBOX_FAIL);
    CU_ASSERT_PTR_NOT_NULL(strstr(ctx.error, "gave 0 of 1 answers"));
    reset(POLICY_MODE_FULL_ACCESS);
    CU_ASSERT_EQUAL_FATAL(run_explain(q, 1), SANDBOX_OK);
    expect_answer(0, SANDBOX_VERDICT_ALLOWED, "full_access");
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("seatbelt Darwin glue (Linux, fakes)", NULL, NULL);
    if (!s || !CU_add_test(s, "descriptor", test_descriptor) ||
        !CU_add_test(s, "refuses inside a sandbox", test_refuses_inside_a_sandbox) ||
        !CU_add_test(s, "full_access installs nothing", test_full_access_installs_nothing) ||
        !CU_add_test(s, "installs the profile in-process", test_installs_the_profile_in_process) ||
        !CU_add_test(s, "sandbox_init failure is one line", test_sandbox_init_failure_is_one_line) ||
        !CU_add_test(s, "unwritable path fails in enter", test_unwritable_path_fails_before_anything) ||
        !CU_add_test(s, "proxy without ports fails", test_proxy_without_ports_fails) ||
        !CU_add_test(s, "proxy: workload is a hardened child", test_proxy_runs_the_workload_as_a_child) ||
        !CU_add_test(s, "proxy: child fails closed without PT_DENY_ATTACH",
                     test_proxy_child_fails_closed_without_deny_attach) ||
        !CU_add_test(s, "explain: file verdicts from a confined child",
                     test_explain_files_from_the_confined_child) ||
        !CU_add_test(s, "explain: a guarded ancestor", test_explain_guarded_ancestor) ||
        !CU_add_test(s, "explain: network", test_explain_network) ||
        !CU_add_test(s, "explain: refuses as prepare does", test_explain_refuses_as_prepare_does)) {
        fprintf(stderr, "seatbelt_glue_unit: cannot register the tests: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    int rc = cunit_run_registry();
    free_collected();
    free(installed);
    return rc;
}
