/*
 * test_rules.c — what the generator decides before writing SBPL
 * (sbpl_rules.c): which forms of which paths, the ancestor guards, the
 * network mode, and every refusal.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fixtures.h"
#include "sbpl_rules.h"
#include "suites.h"

static int collect(const struct fixture *f, struct sbpl_rules *r, char *err, size_t errlen)
{
    struct sbpl_input in = {
        .policy = &f->policy,
        .cwd = f->cwd,
        .proxy_ports = f->ports,
        .proxy_port_count = f->port_count,
        .terminals = f->terminals,
        .terminal_count = f->terminal_count,
        .canon = fixture_canon,
    };
    return sbpl_rules_collect(&in, r, err, errlen);
}

static void test_denials_name_both_forms(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.denied_read_paths = FIXTURE_LIST("/var/db/secret", "/Users/me/project/link");
    struct sbpl_rules r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT(sbpl_pathset_contains(&r.read_denied, "/var/db/secret"));
    CU_ASSERT(sbpl_pathset_contains(&r.read_denied, "/private/var/db/secret"));
    CU_ASSERT(sbpl_pathset_contains(&r.read_denied, "/Users/me/project/link"));
    CU_ASSERT(sbpl_pathset_contains(&r.read_denied, "/Users/me/vault"));
    /* A path the workload may not read it may not replace either. */
    CU_ASSERT(sbpl_pathset_contains(&r.write_denied, "/private/var/db/secret"));
    CU_ASSERT(sbpl_pathset_contains(&r.write_denied, "/Users/me/vault"));
    /* Started without a terminal: the controlling terminal is unreadable. */
    CU_ASSERT(sbpl_pathset_contains(&r.read_denied, "/dev/tty"));
    sbpl_rules_free(&r);
}

static void test_roots_canonical_only(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_READ_ONLY);
    f.policy.allowed_write_paths = FIXTURE_LIST("/tmp/build", "/tmp/build");
    struct sbpl_rules r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.write_roots.count, 1);
    CU_ASSERT(sbpl_pathset_contains(&r.write_roots, "/private/tmp/build"));
    CU_ASSERT(!sbpl_pathset_contains(&r.write_roots, FIXTURE_CWD)); /* read_only */
    sbpl_rules_free(&r);
}

static void test_cwd_is_root_for_workspace_modes(void)
{
    enum policy_mode modes[] = {POLICY_MODE_WORKSPACE_WRITE, POLICY_MODE_AUTO};
    for (size_t i = 0; i < 2; i++) {
        struct fixture f;
        fixture_init(&f, modes[i]);
        struct sbpl_rules r;
        char err[256];
        CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
        CU_ASSERT_EQUAL(r.write_roots.count, 1);
        CU_ASSERT(sbpl_pathset_contains(&r.write_roots, FIXTURE_CWD));
        sbpl_rules_free(&r);
    }
}

static void test_ancestor_guards(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.denied_write_paths = FIXTURE_LIST("/Users/me/project/build/out", "/Users/me/other/x");
    struct sbpl_rules r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.write_guarded.count, 2);
    CU_ASSERT(sbpl_pathset_contains(&r.write_guarded, "/Users/me/project/build"));
    CU_ASSERT(sbpl_pathset_contains(&r.write_guarded, "/Users/me/project"));
    /* Above the root, or outside it: nothing writable to guard. */
    CU_ASSERT(!sbpl_pathset_contains(&r.write_guarded, "/Users/me"));
    CU_ASSERT(!sbpl_pathset_contains(&r.write_guarded, "/Users/me/other"));
    sbpl_rules_free(&r);
}

static void test_terminals(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_READ_ONLY);
    f.terminals[0] = f.terminals[1] = "/dev/ttys003";
    f.terminal_count = 2;
    struct sbpl_rules r;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.terminals.count, 1);
    CU_ASSERT(!sbpl_pathset_contains(&r.read_denied, "/dev/tty"));
    sbpl_rules_free(&r);
}

static void test_network_modes(void)
{
    struct fixture f;
    struct sbpl_rules r;
    char err[256];
    fixture_init(&f, POLICY_MODE_READ_ONLY);
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.net, SBPL_NET_NONE);
    sbpl_rules_free(&r);
    f.policy.network.egress = true;
    f.policy.network.local_binding = true;
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.net, SBPL_NET_EGRESS);
    CU_ASSERT(r.local_binding);
    sbpl_rules_free(&r);
    f.policy.network.has_outgoing_proxy = true;
    f.ports[0] = 41000;
    f.ports[1] = 41001;
    f.port_count = 2;
    CU_ASSERT_EQUAL_FATAL(collect(&f, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.net, SBPL_NET_PROXY);
    CU_ASSERT_EQUAL(r.port_count, 2);
    CU_ASSERT_EQUAL(r.ports[1], 41001);
    sbpl_rules_free(&r);
}

static void expect_refusal(const struct fixture *f, const char *reason)
{
    struct sbpl_rules r;
    char err[256] = "";
    CU_ASSERT_EQUAL(collect(f, &r, err, sizeof err), -1);
    if (!strstr(err, reason))
        fprintf(stderr, "\n  got \"%s\", wanted \"%s\"\n", err, reason);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, reason));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    char *profile = (char *)1;
    CU_ASSERT_EQUAL(fixture_build(f, &profile, err, sizeof err), SBPL_ERROR);
    CU_ASSERT_PTR_NULL(profile);
}

static void test_refusals(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.denied_read_paths = FIXTURE_LIST("/ok", "/a\nb");
    expect_refusal(&f, "deniedReadPaths[1]: contains a control character");

    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.denied_write_paths = FIXTURE_LIST("relative");
    expect_refusal(&f, "deniedWritePaths[0]: is not an absolute path");

    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.allowed_write_paths = FIXTURE_LIST("/x/UNRESOLVABLE");
    expect_refusal(&f, "allowedWritePaths[0]: cannot be resolved: Permission denied");

    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.cwd = "/Users/me/\x7f";
    expect_refusal(&f, "working directory[0]: contains a control character");

    fixture_init(&f, POLICY_MODE_READ_ONLY);
    f.terminals[0] = "/dev/tty\t1";
    f.terminal_count = 1;
    expect_refusal(&f, "terminal[0]: contains a control character");

    fixture_init(&f, POLICY_MODE_READ_ONLY);
    f.policy.network.egress = true;
    f.policy.network.has_outgoing_proxy = true;
    expect_refusal(&f, "reported 0 front-end ports");
    f.port_count = 1;
    expect_refusal(&f, "has port 0");
    f.port_count = 5;
    expect_refusal(&f, "reported 5 front-end ports");
}

static void test_full_access_has_no_profile(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_FULL_ACCESS);
    f.policy.network.egress = f.policy.network.local_binding = true;
    char *profile = (char *)1;
    char err[256];
    CU_ASSERT_EQUAL(fixture_build(&f, &profile, err, sizeof err), SBPL_NONE);
    CU_ASSERT_PTR_NULL(profile);
    struct sbpl_rules r;
    CU_ASSERT_EQUAL(collect(&f, &r, err, sizeof err), -1);
}

int suite_rules(void)
{
    CU_pSuite s = CU_add_suite("sbpl_rules", NULL, NULL);
    if (!s)
        return -1;
    return (CU_add_test(s, "denials name both forms", test_denials_name_both_forms) &&
            CU_add_test(s, "roots canonical only", test_roots_canonical_only) &&
            CU_add_test(s, "cwd is a root for workspace modes", test_cwd_is_root_for_workspace_modes) &&
            CU_add_test(s, "ancestor guards", test_ancestor_guards) &&
            CU_add_test(s, "terminals", test_terminals) &&
            CU_add_test(s, "network modes", test_network_modes) &&
            CU_add_test(s, "refusals name list and index", test_refusals) &&
            CU_add_test(s, "full_access has no profile", test_full_access_has_no_profile))
               ? 0
               : -1;
}
