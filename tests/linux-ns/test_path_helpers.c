/*
 * test_path_helpers.c — linux-ns's path logic without a namespace: how a
 * policy list is merged into mounts (mount_policy_merged), and how a policy
 * path is resolved to descriptors without following a symbolic link
 * (safe_path.c), in a scratch directory of the caller's.
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

#include "linux_ns.h"
#include "mount_ops.h"
#include "../cunit_run.h"

static size_t length(const char **list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

static void test_merged_drops_covered(void)
{
    char *items[] = {"/a/b", "/c", "/a", "/a", "/ab", "/c/d/e"};
    struct string_list l = {items, 6};
    const char **m = mount_policy_merged(&l, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(length(m), 3);
    CU_ASSERT_STRING_EQUAL(m[0], "/a");
    CU_ASSERT_STRING_EQUAL(m[1], "/ab"); /* a prefix, not a parent */
    CU_ASSERT_STRING_EQUAL(m[2], "/c");
    free(m);
}

/* The extra entry (the working directory) is kept as the same pointer,
 * which is how the mount's message names its field; or dropped when a
 * listed path covers it. */
static void test_merged_extra(void)
{
    char *items[] = {"/w/deep", "/x"};
    struct string_list l = {items, 2};
    const char *cwd = "/w";
    const char **m = mount_policy_merged(&l, cwd);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(length(m), 2);
    CU_ASSERT_PTR_EQUAL(m[0], cwd);
    CU_ASSERT_STRING_EQUAL(m[1], "/x");
    free(m);
    const char *inner = "/x/y";
    m = mount_policy_merged(&l, inner);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(length(m), 2);
    for (size_t i = 0; m[i]; i++)
        CU_ASSERT_PTR_NOT_EQUAL(m[i], inner);
    free(m);
}

static void test_merged_root_and_empty(void)
{
    char *items[] = {"/etc", "/", "/home/u"};
    struct string_list l = {items, 3};
    const char **m = mount_policy_merged(&l, "/work");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(length(m), 1);
    CU_ASSERT_STRING_EQUAL(m[0], "/");
    free(m);
    struct string_list none = {NULL, 0};
    m = mount_policy_merged(&none, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NULL(m[0]);
    free(m);
}

/* ---- safe_path, in a scratch tree ---------------------------------------
 *   base/dir/file   base/dir/sub/   base/link -> dir   base/dir/flink -> file */
static char scratch[64];
static int base = -1;

static int make_tree(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/has-safe-path-XXXXXX");
    if (!mkdtemp(scratch) || (base = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
        return -1;
    int fd;
    if (mkdirat(base, "dir", 0700) != 0 || mkdirat(base, "dir/sub", 0700) != 0 ||
        (fd = openat(base, "dir/file", O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) < 0)
        return -1;
    close(fd);
    return symlinkat("dir", base, "link") == 0 && symlinkat("file", base, "dir/flink") == 0 ? 0 : -1;
}

static int remove_tree(void)
{
    if (base >= 0) {
        unlinkat(base, "dir/flink", 0);
        unlinkat(base, "link", 0);
        unlinkat(base, "dir/file", 0);
        unlinkat(base, "dir/sub", AT_REMOVEDIR);
        unlinkat(base, "dir", AT_REMOVEDIR);
        close(base);
    }
    return rmdir(scratch) == 0 ? 0 : -1;
}

static void test_open_plain(void)
{
    struct sp_node n;
    CU_ASSERT_EQUAL_FATAL(safe_path_open(base, "dir/file", &n), 0);
    CU_ASSERT_TRUE(S_ISREG(n.st.st_mode));
    CU_ASSERT_STRING_EQUAL(n.name, "file");
    CU_ASSERT_TRUE(n.parent >= 0 && n.fd >= 0);
    safe_path_close(&n);
    CU_ASSERT_EQUAL(n.fd, -1);
    CU_ASSERT_EQUAL_FATAL(safe_path_open(base, ".", &n), 0); /* the base itself: no parent */
    CU_ASSERT_EQUAL(n.parent, -1);
    CU_ASSERT_TRUE(S_ISDIR(n.st.st_mode));
    safe_path_close(&n);
}

static void test_open_refuses_links(void)
{
    struct sp_node n;
    CU_ASSERT_EQUAL(safe_path_open(base, "link/file", &n), -ELOOP); /* on the way */
    CU_ASSERT_EQUAL(safe_path_open(base, "link", &n), -ELOOP);      /* the last component */
    CU_ASSERT_EQUAL(safe_path_open(base, "dir/flink", &n), -ELOOP);
    CU_ASSERT_EQUAL(safe_path_open(base, "dir/missing", &n), -ENOENT);
    CU_ASSERT_EQUAL(safe_path_open(base, "missing/file", &n), -ENOENT);
    CU_ASSERT_EQUAL(safe_path_open(base, "dir/file/x", &n), -ENOTDIR);
}

/* Siblings through the cache share one parent; a link is refused there too. */
static void test_open_cached(void)
{
    struct sp_dir_cache cache = {.fd = -1};
    struct sp_node a, b;
    CU_ASSERT_EQUAL_FATAL(safe_path_open_cached(base, "dir/file", &cache, &a), 0);
    CU_ASSERT_EQUAL_FATAL(safe_path_open_cached(base, "dir/sub", &cache, &b), 0);
    CU_ASSERT_EQUAL(a.parent, b.parent);
    CU_ASSERT_EQUAL(a.parent, cache.fd);
    CU_ASSERT_TRUE(S_ISDIR(b.st.st_mode));
    safe_path_close(&a);
    safe_path_close(&b);
    struct stat st;
    CU_ASSERT_EQUAL(fstat(cache.fd, &st), 0); /* the cache's parent stays open */
    struct sp_node l;
    CU_ASSERT_EQUAL(safe_path_open_cached(base, "dir/flink", &cache, &l), -ELOOP);
    CU_ASSERT_EQUAL(safe_path_open_cached(base, "link/file", &cache, &l), -ELOOP);
    safe_path_cache_close(&cache);
    CU_ASSERT_EQUAL(cache.fd, -1);
}

/* sp_root: beneath the working directory from the held one; its name
 * leading to another directory is PATH_ERR_CWD_MOVED. */
static void test_root_by_identity(void)
{
    char cwd[128], file[160];
    snprintf(cwd, sizeof cwd, "%s/dir", scratch);
    snprintf(file, sizeof file, "%s/file", cwd);
    struct stat held, real;
    CU_ASSERT_EQUAL_FATAL(stat(cwd, &held), 0);
    CU_ASSERT_EQUAL_FATAL(stat(file, &real), 0);
    struct sandbox_ctx ctx = {.cwd = cwd, .cwd_dev = held.st_dev, .cwd_ino = held.st_ino};
    struct sp_root r;
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    sp_root_init(&r, root, &ctx);
    struct sp_node n;
    CU_ASSERT_EQUAL_FATAL(sp_root_open(&r, cwd, &n), 0); /* itself, with its parent for a mount */
    CU_ASSERT_TRUE(n.parent >= 0 && n.st.st_ino == held.st_ino);
    safe_path_close(&n);
    CU_ASSERT_TRUE(sp_root_cwd(&r) >= 0);
    /* Renamed, another directory in its place: what lies beneath still
     * resolves from the one resolved before ... */
    CU_ASSERT_EQUAL_FATAL(renameat(base, "dir", base, "moved"), 0);
    CU_ASSERT_EQUAL_FATAL(mkdirat(base, "dir", 0700), 0);
    CU_ASSERT_EQUAL(sp_root_open(&r, file, &n), 0);
    CU_ASSERT_EQUAL(n.st.st_ino, real.st_ino);
    safe_path_close(&n);
    /* ... and, found again by name, is refused. */
    sp_root_forget(&r);
    CU_ASSERT_EQUAL(sp_root_open(&r, file, &n), -PATH_ERR_CWD_MOVED);
    CU_ASSERT_EQUAL(sp_root_open(&r, cwd, &n), -PATH_ERR_CWD_MOVED);
    unlinkat(base, "dir", AT_REMOVEDIR);
    CU_ASSERT_EQUAL(sp_root_open(&r, file, &n), -PATH_ERR_CWD_MOVED); /* gone from its name */
    CU_ASSERT_EQUAL_FATAL(renameat(base, "moved", base, "dir"), 0);
    CU_ASSERT_EQUAL(sp_root_open(&r, file, &n), 0);
    safe_path_close(&n);
    sp_root_forget(&r);
    close(root);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite m = CU_add_suite("mount_policy_merged", NULL, NULL);
    CU_add_test(m, "duplicates and covered paths add no mount", test_merged_drops_covered);
    CU_add_test(m, "the working directory, kept or covered", test_merged_extra);
    CU_add_test(m, "\"/\" covers all; an empty list", test_merged_root_and_empty);
    CU_pSuite s = CU_add_suite("safe_path", make_tree, remove_tree);
    CU_add_test(s, "a plain path resolves to descriptors", test_open_plain);
    CU_add_test(s, "a symbolic link anywhere is refused", test_open_refuses_links);
    CU_add_test(s, "siblings share the cached parent", test_open_cached);
    CU_add_test(s, "the working directory by identity", test_root_by_identity);
    return cunit_run_registry();
}
