/*
 * test_semantics.c — what generated profiles allow and deny, decided by the
 * test model of Seatbelt (sbpl_eval.c) under both plausible ways of
 * combining rules: the verdict must not depend on which one macOS uses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fixtures.h"
#include "hostile.h"
#include "sbpl_eval.h"
#include "suites.h"

#define ALLOW SBPL_EVAL_ALLOW
#define DENY SBPL_EVAL_DENY

static struct sbpl_read current; /* the profile under test */

static void load(const struct fixture *f)
{
    char *profile = NULL;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(fixture_build(f, &profile, err, sizeof err), SBPL_OK);
    int rc = sbpl_read(profile, &current);
    if (rc != 0)
        fprintf(stderr, "\nreader: %s\n", current.error);
    free(profile);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static void unload(void)
{
    sbpl_read_free(&current);
}

static const char *verdict_name(enum sbpl_verdict v)
{
    return v == ALLOW ? "allow" : v == DENY ? "deny" : "UNKNOWN";
}

/*
 * The verdict under both models of Seatbelt, and for a denial also that no
 * allow rule matches at all: then the explicit deny rules only restate it,
 * and the precedence between rules cannot matter.
 */
static void expect(enum sbpl_verdict want, struct sbpl_request q)
{
    enum sbpl_verdict last = sbpl_eval(&current, &q, SBPL_LAST_MATCH_WINS);
    enum sbpl_verdict deny = sbpl_eval(&current, &q, SBPL_DENY_OVERRIDES);
    enum sbpl_verdict allows = sbpl_eval(&current, &q, SBPL_ALLOWS_ONLY);
    if (last != want || deny != want || allows != want)
        fprintf(stderr, "\n  %s %s%s%s: want %s, last-match %s, deny-overrides %s, allows-only %s\n",
                q.operation, q.path ? q.path : "", q.global_name ? q.global_name : "",
                q.remote_host ? q.remote_host : "", verdict_name(want), verdict_name(last),
                verdict_name(deny), verdict_name(allows));
    CU_ASSERT_EQUAL(last, want);
    CU_ASSERT_EQUAL(deny, want);
    CU_ASSERT_EQUAL(allows, want);
}

static struct sbpl_request file(const char *op, const char *path)
{
    return (struct sbpl_request){.operation = op, .path = path};
}

static struct sbpl_request out_to(const char *host, unsigned port)
{
    return (struct sbpl_request){.operation = "network-outbound", .remote_host = host, .port = port};
}

static struct sbpl_request local(const char *op, const char *host, unsigned port)
{
    return (struct sbpl_request){.operation = op, .local_host = host, .port = port};
}

static struct sbpl_request mach(const char *global_name)
{
    return (struct sbpl_request){.operation = "mach-lookup", .global_name = global_name};
}

/* trustd, and only trustd of the Security services. */
static void expect_certificate_verification(enum sbpl_verdict want)
{
    expect(want, mach("com.apple.trustd.agent"));
    expect(want, mach("com.apple.trustd"));
    expect(DENY, mach("com.apple.SecurityServer"));
    expect(DENY, mach("com.apple.ocspd"));
}

static void test_workspace_write_filesystem(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.allowed_write_paths = FIXTURE_LIST("/tmp/build");
    f.policy.denied_write_paths = FIXTURE_LIST("/Users/me/project/.git", "/Users/me/project/gen/out");
    f.policy.denied_read_paths = FIXTURE_LIST("/Users/me/.ssh", "/Users/me/project/.env");
    load(&f);
    /* Writes under a root. */
    expect(ALLOW, file("file-write-create", "/Users/me/project/new.c"));
    expect(ALLOW, file("file-write-data", "/Users/me/project/src/a.c"));
    expect(ALLOW, file("file-write-unlink", "/Users/me/project/gen/other"));
    expect(ALLOW, file("file-write-create", "/private/tmp/build/x.o"));
    /* Roots are canonical: the /tmp spelling never reaches the kernel. */
    expect(DENY, file("file-write-create", "/tmp/build/x.o"));
    /* Outside every root. */
    expect(DENY, file("file-write-data", "/Users/me/.zshrc"));
    expect(DENY, file("file-write-create", "/Users/me/projectx"));
    expect(DENY, file("file-write-data", "/etc/hosts"));
    /* Write-denied, existing or not (first-time creation). */
    expect(DENY, file("file-write-data", "/Users/me/project/.git/config"));
    expect(DENY, file("file-write-create", "/Users/me/project/.git"));
    expect(DENY, file("file-write-create", "/Users/me/project/gen/out"));
    expect(DENY, file("file-write-create", "/Users/me/project/gen/out/deeper"));
    /* Read-denied inside a root: not writable either. */
    expect(DENY, file("file-write-create", "/Users/me/project/.env"));
    /* Ancestor guards: no rename / replacement of a denied path's parent. */
    expect(DENY, file("file-write-unlink", "/Users/me/project/gen"));
    expect(DENY, file("file-write-create", "/Users/me/project/gen"));
    expect(DENY, file("file-write-mode", "/Users/me/project"));
    expect(ALLOW, file("file-write-create", "/Users/me/project/.gitignore"));
    /* Reads. */
    expect(ALLOW, file("file-read-data", "/etc/passwd"));
    expect(ALLOW, file("file-read-metadata", "/Users/me"));
    expect(DENY, file("file-read-data", "/Users/me/.ssh/id_ed25519"));
    expect(DENY, file("file-read-metadata", "/Users/me/.ssh"));
    expect(ALLOW, file("file-read-data", "/Users/me/.sshx"));
    expect(DENY, file("file-read-data", "/Users/me/project/.env"));
    expect(DENY, file("process-exec", "/Users/me/.ssh/helper"));
    expect(ALLOW, file("process-exec", "/bin/sh"));
    expect(DENY, file("process-exec", "/usr/bin/sudo"));
    expect(DENY, file("process-exec", "/usr/bin/su"));
    expect(ALLOW, file("file-read-data", "/usr/bin/sudo"));
    /* Not started on a terminal: the controlling terminal stays closed. */
    expect(DENY, file("file-read-data", "/dev/tty"));
    expect(DENY, file("file-write-data", "/dev/tty"));
    /* A new pseudo-terminal may be made; another terminal of the user's
     * (a tty this sandbox did not create) is neither read nor written. */
    expect(ALLOW, file("file-write-data", "/dev/ptmx"));
    expect(ALLOW, file("file-ioctl", "/dev/ptmx"));
    expect(DENY, file("file-write-data", "/dev/ttys003"));
    expect(DENY, file("file-read-data", "/dev/ttys003"));
    expect(DENY, file("file-ioctl", "/dev/ttys003"));
    expect(DENY, file("file-ioctl", "/dev/ttys0031x"));
    unload();
}

static void test_read_only_and_devices(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_READ_ONLY);
    f.terminals[0] = "/dev/ttys003";
    f.terminal_count = 1;
    load(&f);
    expect(DENY, file("file-write-create", FIXTURE_CWD "/x"));
    expect(DENY, file("file-write-data", "/private/tmp/x"));
    struct sbpl_request dev = file("file-write-data", "/dev/null");
    dev.char_device = true;
    expect(ALLOW, dev);
    dev.path = "/dev/ttys003";
    expect(ALLOW, dev);
    dev.path = "/dev/tty";
    expect(ALLOW, dev);
    dev.path = "/dev/ttys004"; /* another terminal of the same user */
    expect(DENY, dev);
    dev.path = "/dev/null";
    dev.char_device = false; /* not the device: never writable */
    expect(DENY, dev);
    expect(DENY, file("file-write-create", "/dev/null2"));
    expect(ALLOW, file("file-write-data", "/dev/fd/1"));
    expect(DENY, file("file-ioctl", "/dev/ttys003"));
    expect(ALLOW, file("file-read-data", "/dev/tty"));
    /* Its own terminal is its input; another session's is someone's keystrokes. */
    expect(ALLOW, file("file-read-data", "/dev/ttys003"));
    expect(DENY, file("file-read-data", "/dev/ttys004"));
    unload();
}

static void test_processes_and_services(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_READ_ONLY);
    load(&f);
    expect(ALLOW, (struct sbpl_request){.operation = "process-fork"});
    expect(ALLOW, (struct sbpl_request){.operation = "signal", .same_sandbox = true});
    expect(DENY, (struct sbpl_request){.operation = "signal"});
    expect(ALLOW, (struct sbpl_request){.operation = "process-info-pidinfo", .same_sandbox = true});
    expect(DENY, (struct sbpl_request){.operation = "process-info-pidinfo"});
    expect(ALLOW, (struct sbpl_request){.operation = "sysctl-read"});
    expect(DENY, (struct sbpl_request){.operation = "sysctl-write"});
    expect(ALLOW, mach("com.apple.system.opendirectoryd.libinfo"));
    expect(DENY, mach("com.apple.SecurityServer"));
    expect(DENY, mach("com.apple.SystemConfiguration.DNSConfiguration"));
    expect(DENY, (struct sbpl_request){.operation = "iokit-open"});
    expect(DENY, (struct sbpl_request){.operation = "file-link", .path = FIXTURE_CWD "/x"});
    unload();
}

static void test_network_off(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    load(&f);
    expect(DENY, out_to("93.184.216.34", 443));
    expect(DENY, out_to("localhost", 8080));
    expect(DENY, file("network-outbound", "/private/var/run/mDNSResponder"));
    expect(DENY, local("network-bind", "localhost", 3000));
    expect(DENY, local("network-inbound", "localhost", 3000));
    expect_certificate_verification(DENY);
    unload();
    f.policy.network.local_binding = true;
    load(&f);
    expect(ALLOW, local("network-bind", "localhost", 3000));
    expect(ALLOW, local("network-inbound", "localhost", 3000));
    expect(DENY, local("network-bind", "0.0.0.0", 3000));
    expect(DENY, out_to("localhost", 3000)); /* host loopback stays shut */
    unload();
}

static void test_network_egress(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.network.egress = true;
    load(&f);
    expect(ALLOW, out_to("93.184.216.34", 443));
    expect(ALLOW, file("network-outbound", "/private/var/run/mDNSResponder"));
    expect(DENY, file("network-outbound", "/private/var/run/docker.sock"));
    expect(ALLOW, mach("com.apple.SystemConfiguration.DNSConfiguration"));
    expect(DENY, local("network-bind", "localhost", 3000));
    expect_certificate_verification(ALLOW);
    unload();
}

static void test_network_proxy(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.network.egress = true;
    f.policy.network.has_outgoing_proxy = true;
    f.ports[0] = 41000;
    f.ports[1] = 41001;
    f.port_count = 2;
    load(&f);
    expect(ALLOW, out_to("localhost", 41000));
    expect(ALLOW, out_to("localhost", 41001));
    expect(DENY, out_to("localhost", 41002));
    expect(DENY, out_to("93.184.216.34", 443));
    expect(DENY, file("network-outbound", "/private/var/run/mDNSResponder"));
    expect(DENY, mach("com.apple.SystemConfiguration.DNSConfiguration"));
    expect(DENY, local("network-bind", "localhost", 3000));
    expect_certificate_verification(DENY); /* trustd would fetch past the proxy */
    unload();
    /* Only when the policy accepts fetches outside the proxy; the rest of
     * the network rules stay the proxy's. */
    f.policy.network.unproxied_certificate_fetches = true;
    load(&f);
    expect_certificate_verification(ALLOW);
    expect(DENY, out_to("93.184.216.34", 443));
    expect(DENY, file("network-outbound", "/private/var/run/mDNSResponder"));
    unload();
}

/* A denied path built to look like rules stays denied and adds no rule. */
static void test_hostile_denials_hold(void)
{
    for (size_t i = 0; i < HOSTILE_COUNT; i++) {
        char denied[512], inside[600];
        snprintf(denied, sizeof denied, FIXTURE_CWD "/%s", hostile_components[i]);
        snprintf(inside, sizeof inside, "%s/file", denied);
        struct fixture f;
        fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
        f.policy.denied_read_paths = fixture_list((const char *const[]){denied}, 1);
        f.policy.denied_write_paths = fixture_list((const char *const[]){denied}, 1);
        load(&f);
        expect(DENY, file("file-read-data", denied));
        expect(DENY, file("file-read-data", inside));
        expect(DENY, file("file-write-create", denied));
        expect(DENY, file("file-write-data", inside));
        expect(ALLOW, file("file-write-create", FIXTURE_CWD "/ordinary"));
        expect(DENY, mach("x"));
        expect(DENY, out_to("93.184.216.34", 443));
        unload();
    }
}

int suite_semantics(void)
{
    CU_pSuite s = CU_add_suite("profile semantics (model, both precedences)", NULL, NULL);
    if (!s)
        return -1;
    return (CU_add_test(s, "workspace_write filesystem", test_workspace_write_filesystem) &&
            CU_add_test(s, "read_only and devices", test_read_only_and_devices) &&
            CU_add_test(s, "processes and services", test_processes_and_services) &&
            CU_add_test(s, "network off / localBinding", test_network_off) &&
            CU_add_test(s, "network egress", test_network_egress) &&
            CU_add_test(s, "network proxy", test_network_proxy) &&
            CU_add_test(s, "hostile denials hold", test_hostile_denials_hold))
               ? 0
               : -1;
}
