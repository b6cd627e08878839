/*
 * test_fs_paths.c — landlock's path logic without a ruleset: which denials
 * a walk from a root leaves out (fs_paths_beneath), the rights each ABI
 * handles, opening without links (fs_open_no_symlinks) and the checks made
 * before any rule (fs_lists_check), in a scratch directory.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "landlock_sys.h"
#include "../cunit_run.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_beneath_prunes(void)
{
    const char *const list[] = {"/home/u/.ssh", "/home/u", "/etc/x", "/home/uv", "/home/u", NULL};
    const char *out[COUNT(list)];
    size_t n = fs_paths_beneath("/home", list, out);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(out[0], "/home/u");   /* .ssh beneath it, the copy: gone */
    CU_ASSERT_STRING_EQUAL(out[1], "/home/uv");
    n = fs_paths_beneath("/", list, out);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(out[0], "/etc/x");
    /* A root inside a denial has nothing beneath it to leave out: the
     * caller skips it (policy_path_covered), as grant_roots does. */
    CU_ASSERT_EQUAL(fs_paths_beneath("/home/u/.ssh/k", list, out), 0);
    CU_ASSERT_TRUE(policy_path_covered("/home/u/.ssh/k", list));
    CU_ASSERT_EQUAL(fs_paths_beneath("/hom", list, out), 0);
}

static void test_rights_per_abi(void)
{
    uint64_t v1 = fs_rights_handled(1);
    CU_ASSERT_EQUAL(v1, (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1);
    CU_ASSERT_TRUE(v1 & LANDLOCK_ACCESS_FS_EXECUTE);
    CU_ASSERT_FALSE(v1 & LANDLOCK_ACCESS_FS_REFER);
    CU_ASSERT_EQUAL(fs_rights_handled(2), v1 | LANDLOCK_ACCESS_FS_REFER);
    CU_ASSERT_EQUAL(fs_rights_handled(3), fs_rights_handled(2) | LANDLOCK_ACCESS_FS_TRUNCATE);
    CU_ASSERT_EQUAL(fs_rights_handled(4), fs_rights_handled(3));   /* ABI 4 added network rights only */
    CU_ASSERT_EQUAL(fs_rights_handled(5), fs_rights_handled(4) | LANDLOCK_ACCESS_FS_IOCTL_DEV);
    CU_ASSERT_EQUAL(fs_rights_handled(6), fs_rights_handled(5));
}

/* ---- in a scratch tree ----------------------------------------------------
 *   dir/   dir/file   dir/twice (two links: dir/file2)   link -> dir */
static char scratch[64];

static char *at(const char *rel)
{
    static char buf[4][128];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", scratch, rel);
    return p;
}

static int make_tree(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/has-fs-paths-XXXXXX");
    if (!mkdtemp(scratch) || mkdir(at("dir"), 0700) != 0)
        return -1;
    int fd = open(at("dir/file"), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    int fd2 = open(at("dir/twice"), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0 || fd2 < 0)
        return -1;
    close(fd);
    close(fd2);
    return link(at("dir/twice"), at("dir/file2")) == 0 && symlink("dir", at("link")) == 0 ? 0 : -1;
}

static int remove_tree(void)
{
    unlink(at("link"));
    unlink(at("dir/file2"));
    unlink(at("dir/twice"));
    unlink(at("dir/file"));
    rmdir(at("dir"));
    return rmdir(scratch) == 0 ? 0 : -1;
}

static void test_open_no_symlinks(void)
{
    int fd = fs_open_no_symlinks(at("dir/file"));
    CU_ASSERT_TRUE(fd >= 0);
    if (fd >= 0)
        close(fd);
    errno = 0;
    CU_ASSERT_EQUAL(fs_open_no_symlinks(at("link/file")), -1);
    CU_ASSERT_EQUAL(errno, ELOOP);
    errno = 0;
    CU_ASSERT_EQUAL(fs_open_no_symlinks(at("link")), -1);
    CU_ASSERT_EQUAL(errno, ELOOP);
    errno = 0;
    CU_ASSERT_EQUAL(fs_open_no_symlinks(at("dir/missing")), -1);
    CU_ASSERT_EQUAL(errno, ENOENT);
}

/* fs_lists_check on hand-made lists: which refusals, naming which field. */
static int check(const char *writable, const char *no_read, const char *write_denied, char *err, size_t errlen)
{
    const char *w[] = {writable, NULL}, *r[] = {no_read, NULL}, *d[] = {write_denied, NULL};
    struct fs_lists l = {.writable = w, .no_read = r, .write_denied = d};
    err[0] = '\0';
    return fs_lists_check(&l, err, errlen);
}

static void test_lists_check(void)
{
    char err[1024];
    CU_ASSERT_EQUAL(check(at("dir"), at("dir/file"), at("dir/file"), err, sizeof err), 0);
    /* a missing read denial stays denied if made later; a write denial must exist */
    CU_ASSERT_EQUAL(check(at("dir"), at("dir/nothing"), NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(check(at("dir"), NULL, at("dir/nothing"), err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "deniedWritePaths"));
    CU_ASSERT_EQUAL(check(at("link"), NULL, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "allowedWritePaths"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "symbolic link"));
    CU_ASSERT_EQUAL(check(at("dir"), at("link/file"), NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "deniedReadPaths"));
    CU_ASSERT_EQUAL(check(at("dir"), at("dir/twice"), NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "hard links"));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite p = CU_add_suite("landlock paths", NULL, NULL);
    CU_add_test(p, "the denials a walk from a root leaves out", test_beneath_prunes);
    CU_add_test(p, "the rights each ABI handles", test_rights_per_abi);
    CU_pSuite s = CU_add_suite("landlock paths on disk", make_tree, remove_tree);
    CU_add_test(s, "opened without following a link", test_open_no_symlinks);
    CU_add_test(s, "the lists are checked before any rule", test_lists_check);
    return cunit_run_registry();
}
