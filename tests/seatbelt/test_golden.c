/*
 * test_golden.c — the exact profile for every policy shape, compared with
 * reviewed files in tests/seatbelt/golden/.
 *
 * Shapes: writable roots (4) x denied paths (4) x network (7) = 112 files
 * named <roots>.<denials>.<network>.sb, plus a terminal and a hostile-path
 * profile.  full_access has no profile (asserted, no file).
 *
 * To regenerate after a deliberate change:
 *     UPDATE_GOLDEN=1 make check TESTS=tests/seatbelt/sbpl_unit
 * then review `git diff tests/seatbelt/golden` like code: these files ARE
 * the sandbox.  A golden file with no shape left is reported as stale.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fixtures.h"
#include "hostile.h"
#include "suites.h"

#ifndef SEATBELT_GOLDEN_DIR
#error "SEATBELT_GOLDEN_DIR must name tests/seatbelt/golden in the source tree"
#endif

#define MAX_SHAPES 256 /* check_golden() fails rather than drop one */

static const char *expected_names[MAX_SHAPES];
static size_t expected_count;

static int updating(void)
{
    const char *v = getenv("UPDATE_GOLDEN");
    return v && strcmp(v, "1") == 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 8192, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *grown = realloc(text, cap * 2);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

static void report_difference(const char *name, const char *want, const char *got)
{
    size_t line = 1, i = 0;
    for (; want[i] && want[i] == got[i]; i++)
        line += want[i] == '\n';
    fprintf(stderr,
            "\n  golden %s differs from line %zu; if the change is meant, run "
            "UPDATE_GOLDEN=1 make check and review git diff tests/seatbelt/golden\n",
            name, line);
}

/* Compare (or, with UPDATE_GOLDEN=1, rewrite) one golden file. */
static void check_golden(const char *name, const struct fixture *f)
{
    CU_ASSERT_FATAL(expected_count < MAX_SHAPES);
    expected_names[expected_count++] = name;
    char *profile = NULL;
    char err[256];
    enum sbpl_status st = fixture_build(f, &profile, err, sizeof err);
    if (st != SBPL_OK)
        fprintf(stderr, "\n  %s: %s\n", name, err);
    CU_ASSERT_EQUAL_FATAL(st, SBPL_OK);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SEATBELT_GOLDEN_DIR, name);
    if (updating()) {
        FILE *out = fopen(path, "wb");
        CU_ASSERT_PTR_NOT_NULL(out);
        if (out) {
            fputs(profile, out);
            CU_ASSERT_EQUAL(fclose(out), 0);
        }
    } else {
        char *want = slurp(path);
        if (!want)
            fprintf(stderr, "\n  golden %s: cannot read %s: %s\n", name, path, strerror(errno));
        CU_ASSERT_PTR_NOT_NULL(want);
        if (want && strcmp(want, profile) != 0) {
            report_difference(name, want, profile);
            CU_FAIL("profile differs from its golden file");
        }
        free(want);
    }
    free(profile);
}

/* The axes.  Every combination is one shape. */
static const struct roots_axis {
    const char *name;
    enum policy_mode mode;
    int with_paths;
} roots_axis[] = {
    {"ro", POLICY_MODE_READ_ONLY, 0},
    {"ro_paths", POLICY_MODE_READ_ONLY, 1},
    {"ws", POLICY_MODE_WORKSPACE_WRITE, 0},
    {"auto_paths", POLICY_MODE_AUTO, 1},
};
static const char *const denial_axis[] = {"none", "dr", "dw", "drw"};
static const struct network_axis {
    const char *name;
    int egress, bind, ports, certs;
} network_axis[] = {
    {"off", 0, 0, 0, 0},         {"off_bind", 0, 1, 0, 0},     {"egress", 1, 0, 0, 0},
    {"egress_bind", 1, 1, 0, 0}, {"proxy1", 1, 0, 1, 0},       {"proxy2", 1, 0, 2, 0},
    {"proxy2_bind", 1, 1, 2, 0}, {"proxy1_certs", 1, 0, 1, 1},
};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static void shape(struct fixture *f, const struct roots_axis *r, size_t denials, const struct network_axis *n)
{
    /* Static: a compound literal inside an if would die with its block. */
    static const char *const write_paths[] = {"/tmp/build", "/Users/me/.cache/tool"};
    static const char *const read_denied[] = {"/Users/me/.ssh", "/var/db/secret", FIXTURE_CWD "/.env"};
    static const char *const write_denied[] = {FIXTURE_CWD "/.git", FIXTURE_CWD "/gen/out",
                                               "/tmp/build/keep"};
    fixture_init(f, r->mode);
    if (r->with_paths)
        f->policy.allowed_write_paths = fixture_list(write_paths, COUNT(write_paths));
    if (denials & 1)
        f->policy.denied_read_paths = fixture_list(read_denied, COUNT(read_denied));
    if (denials & 2)
        f->policy.denied_write_paths = fixture_list(write_denied, COUNT(write_denied));
    f->policy.network.egress = n->egress;
    f->policy.network.local_binding = n->bind;
    f->policy.network.has_outgoing_proxy = n->ports > 0;
    f->policy.network.front_ends = n->ports == 2 ? 3u : n->ports == 1 ? 1u : 0u;
    f->policy.network.unproxied_certificate_fetches = n->certs;
    static const unsigned short ports[] = {41080, 41081};
    for (int i = 0; i < n->ports; i++)
        f->ports[f->port_count++] = ports[i];
}

static void test_every_shape(void)
{
    static char names[COUNT(roots_axis) * COUNT(denial_axis) * COUNT(network_axis)][64];
    size_t k = 0;
    for (size_t r = 0; r < COUNT(roots_axis); r++)
        for (size_t d = 0; d < COUNT(denial_axis); d++)
            for (size_t n = 0; n < COUNT(network_axis); n++, k++) {
                struct fixture f;
                shape(&f, &roots_axis[r], d, &network_axis[n]);
                snprintf(names[k], sizeof names[k], "%s.%s.%s.sb", roots_axis[r].name, denial_axis[d],
                         network_axis[n].name);
                check_golden(names[k], &f);
            }
}

static void test_terminal(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.terminals[0] = "/dev/ttys003";
    f.terminals[1] = "/dev/ttys003";
    f.terminal_count = 2;
    check_golden("terminal.sb", &f);
}

static void test_hostile(void)
{
    static char paths[4][HOSTILE_COUNT][512];
    static const char *lists[4][HOSTILE_COUNT];
    static const char *const dirs[4] = {"/Users/me/r", "/Users/me/w", "/Users/me/project", "/Users/me/a"};
    for (size_t l = 0; l < 4; l++)
        for (size_t i = 0; i < HOSTILE_COUNT; i++) {
            snprintf(paths[l][i], sizeof paths[l][i], "%s/%s", dirs[l], hostile_components[i]);
            lists[l][i] = paths[l][i];
        }
    struct fixture f;
    fixture_init(&f, POLICY_MODE_WORKSPACE_WRITE);
    f.policy.denied_read_paths = fixture_list(lists[0], HOSTILE_COUNT);
    f.policy.denied_write_paths = fixture_list(lists[2], HOSTILE_COUNT);
    f.policy.allowed_write_paths = fixture_list(lists[3], HOSTILE_COUNT);
    f.policy.allowed_read_paths = fixture_list(lists[1], HOSTILE_COUNT);
    check_golden("hostile.sb", &f);
}

static void test_full_access_has_no_file(void)
{
    struct fixture f;
    fixture_init(&f, POLICY_MODE_FULL_ACCESS);
    f.policy.network.egress = f.policy.network.local_binding = 1;
    char *profile = NULL;
    char err[256];
    CU_ASSERT_EQUAL(fixture_build(&f, &profile, err, sizeof err), SBPL_NONE);
}

/* Runs last: every golden file must belong to a shape above. */
static void test_no_stale_files(void)
{
    DIR *d = opendir(SEATBELT_GOLDEN_DIR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    size_t seen = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 3, ".sb") != 0)
            continue;
        int known = 0;
        for (size_t i = 0; i < expected_count; i++)
            known |= strcmp(expected_names[i], e->d_name) == 0;
        if (!known)
            fprintf(stderr, "\n  stale golden file %s: no shape produces it; delete it\n", e->d_name);
        CU_ASSERT(known);
        seen++;
    }
    closedir(d);
    CU_ASSERT_EQUAL(seen, expected_count);
}

int suite_golden(void)
{
    CU_pSuite s = CU_add_suite(updating() ? "golden profiles (UPDATING)" : "golden profiles", NULL, NULL);
    if (!s)
        return -1;
    return (CU_add_test(s, "every shape (112 files)", test_every_shape) &&
            CU_add_test(s, "terminal", test_terminal) && CU_add_test(s, "hostile paths", test_hostile) &&
            CU_add_test(s, "full_access has no profile", test_full_access_has_no_file) &&
            CU_add_test(s, "no stale golden file", test_no_stale_files))
               ? 0
               : -1;
}
