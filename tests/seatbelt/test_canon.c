/*
 * test_canon.c — the real canonicaliser against real symlinks (Linux
 * resolves them the same way macOS does).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "sbpl_canon.h"
#include "suites.h"

static char root[PATH_MAX]; /* canonical temporary directory */

static void at(char *out, const char *rel)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", root, rel);
    if (n < 0 || n >= PATH_MAX)
        abort(); /* the temporary directory's name is short */
}

static int setup(void)
{
    char tmpl[] = "/tmp/sbpl-canon.XXXXXX";
    if (!mkdtemp(tmpl) || !realpath(tmpl, root))
        return -1;
    char p[PATH_MAX], q[PATH_MAX];
    at(p, "real");
    if (mkdir(p, 0755) != 0)
        return -1;
    at(p, "real/file");
    int fd = open(p, O_CREAT | O_WRONLY, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    at(p, "link");
    if (symlink("real", p) != 0) /* relative link */
        return -1;
    at(p, "abslink");
    at(q, "real");
    if (symlink(q, p) != 0) /* absolute link */
        return -1;
    at(p, "dangling");
    if (symlink("real/created-later", p) != 0)
        return -1;
    at(p, "loop");
    return symlink("loop", p);
}

static int teardown(void)
{
    static const char *const names[] = {"loop", "dangling", "abslink", "link", "real/file"};
    char p[PATH_MAX];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        at(p, names[i]);
        unlink(p);
    }
    at(p, "real");
    rmdir(p);
    rmdir(root);
    return 0;
}

static void expect(const char *rel_in, const char *rel_want)
{
    char in[PATH_MAX], want[PATH_MAX], got[PATH_MAX];
    at(in, rel_in);
    at(want, rel_want);
    CU_ASSERT_EQUAL_FATAL(sbpl_canonicalize(in, got, sizeof got, NULL), 0);
    CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_existing_path_resolved(void)
{
    expect("link", "real");
    expect("abslink/file", "real/file");
    expect("real", "real");
}

static void test_missing_tail_kept_literal(void)
{
    expect("link/not-yet", "real/not-yet");
    expect("link/a/b/c", "real/a/b/c");
    expect("nothing/here", "nothing/here");
}

static void test_through_a_file(void)
{
    expect("link/file/x", "real/file/x"); /* ENOTDIR: literal below the file */
}

static void test_dangling_symlink_followed(void)
{
    /* Creating "dangling" would create real/created-later. */
    expect("dangling", "real/created-later");
    expect("dangling/sub", "real/created-later/sub");
}

static void test_symlink_loop_kept_literal(void)
{
    expect("loop", "loop");
    expect("loop/x", "loop/x");
}

static void test_root_and_top_level(void)
{
    char got[PATH_MAX];
    CU_ASSERT_EQUAL(sbpl_canonicalize("/", got, sizeof got, NULL), 0);
    CU_ASSERT_STRING_EQUAL(got, "/");
    CU_ASSERT_EQUAL(sbpl_canonicalize("/sbpl-no-such-top-level", got, sizeof got, NULL), 0);
    CU_ASSERT_STRING_EQUAL(got, "/sbpl-no-such-top-level");
}

static void test_errors(void)
{
    char got[PATH_MAX];
    errno = 0;
    CU_ASSERT_EQUAL(sbpl_canonicalize("relative/path", got, sizeof got, NULL), -1);
    CU_ASSERT_EQUAL(errno, EINVAL);
    char small[8];
    CU_ASSERT_EQUAL(sbpl_canonicalize("/sbpl-no-such-top-level", small, sizeof small, NULL), -1);
    CU_ASSERT_EQUAL(errno, ENAMETOOLONG);
}

int suite_canon(void)
{
    CU_pSuite s = CU_add_suite("sbpl_canon (real symlinks)", setup, teardown);
    if (!s)
        return -1;
    return (CU_add_test(s, "existing path resolved", test_existing_path_resolved) &&
            CU_add_test(s, "missing tail kept literal", test_missing_tail_kept_literal) &&
            CU_add_test(s, "path through a file", test_through_a_file) &&
            CU_add_test(s, "dangling symlink followed", test_dangling_symlink_followed) &&
            CU_add_test(s, "symlink loop kept literal", test_symlink_loop_kept_literal) &&
            CU_add_test(s, "root and top level", test_root_and_top_level) &&
            CU_add_test(s, "errors", test_errors))
               ? 0
               : -1;
}
