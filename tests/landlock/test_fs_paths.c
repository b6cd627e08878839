/*
 * test_fs_paths.c — landlock's path logic without a ruleset: which denials
 * a walk from a root leaves out (fs_paths_beneath), the rights each ABI
 * handles, opening without links (fs_open_no_symlinks) and the checks made
 * before any rule (fs_lists_check), and what the rules give each kind of
 * path (fs_ruleset_decide), in a scratch directory.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
    CU_ASSERT_STRING_EQUAL(out[0], "/home/u"); /* .ssh beneath it, the copy: gone */
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
    CU_ASSERT_EQUAL(fs_rights_handled(4), fs_rights_handled(3)); /* ABI 4 added network rights only */
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
static int check(const char *writable, const char *no_read, const char *write_denied, char *err,
                 size_t errlen)
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

/* A write anchor on a file system that may fold case is refused: FAT and
 * the rest of the list, not the case-sensitive ones a workspace is on. */
static void test_case_folding_types(void)
{
    CU_ASSERT_TRUE(fs_type_folds_case(0x4d44));      /* vfat, msdos */
    CU_ASSERT_TRUE(fs_type_folds_case(0x2011bab0));  /* exfat */
    CU_ASSERT_TRUE(fs_type_folds_case(0xfe534d42));  /* smb2 */
    CU_ASSERT_FALSE(fs_type_folds_case(0xef53));     /* ext4 */
    CU_ASSERT_FALSE(fs_type_folds_case(0x01021994)); /* tmpfs */
    CU_ASSERT_FALSE(fs_type_folds_case(0x9123683e)); /* btrfs */
    CU_ASSERT_FALSE(fs_type_folds_case(0x58465342)); /* xfs */
    CU_ASSERT_FALSE(fs_type_folds_case(0x794c7630)); /* overlayfs */
}

/* fs_ruleset_decide, case by case, on the scratch tree: dir writable (the
 * working directory), dir/file read-denied, dir/ghost/x read-denied and
 * missing; the directories the broker pins from fs_ruleset_plan(). */
static bool decide(const struct fs_lists *l, const struct fs_anchors *pinned, const char *path, bool write,
                   const char *says)
{
    char rule[1024];
    bool v = fs_ruleset_decide(l, pinned, path, write, rule, sizeof rule);
    if (!strstr(rule, says))
        fprintf(stderr, "\n%s %.100s: \"%s\" does not say \"%s\"\n", write ? "write" : "read", path, rule,
                says);
    CU_ASSERT_PTR_NOT_NULL(strstr(rule, says));
    return v;
}

static void test_decide_cases(void)
{
    char w0[128], r0[128], r1[128], err[1024];
    snprintf(w0, sizeof w0, "%s", at("dir"));
    snprintf(r0, sizeof r0, "%s", at("dir/file"));
    snprintf(r1, sizeof r1, "%s", at("dir/ghost/x"));
    const char *w[] = {w0, NULL}, *r[] = {r0, r1, NULL}, *d[] = {NULL};
    struct fs_lists l = {.writable = w, .workspace = w0, .write_denied = d, .no_read = r, .no_write = r};
    struct fs_anchors pinned, none;
    CU_ASSERT_EQUAL_FATAL(fs_anchors_init(&pinned), 0);
    CU_ASSERT_EQUAL_FATAL(fs_anchors_init(&none), 0);
    pinned.plan = none.plan = true;
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(w0, &st), 0);
    l.cwd = w0; /* the working directory, and at its name the directory held */
    l.cwd_dev = st.st_dev;
    l.cwd_ino = st.st_ino;
    l.cwd_fd = open(w0, O_PATH | O_DIRECTORY | O_CLOEXEC);
    CU_ASSERT_FATAL(l.cwd_fd >= 0);
    CU_ASSERT_EQUAL_FATAL(fs_ruleset_plan(1, &l, &pinned, err, sizeof err), 0);
    /* Held, the working directory is another one, which the walk meets
     * under another name (renamed during set-up): refused. */
    struct fs_anchors moved;
    struct stat other;
    CU_ASSERT_EQUAL_FATAL(stat(scratch, &other), 0);
    CU_ASSERT_EQUAL_FATAL(fs_anchors_init(&moved), 0);
    moved.plan = true;
    l.cwd_ino = other.st_ino;
    CU_ASSERT_NOT_EQUAL(fs_ruleset_plan(1, &l, &moved, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "met again at"));
    fs_anchors_close(&moved);
    l.cwd_ino = st.st_ino;

    CU_ASSERT_FALSE(decide(&l, &pinned, at("dir/file"), false, "deniedReadPaths"));
    CU_ASSERT_FALSE(decide(&l, &pinned, at("dir/file"), true, "deniedReadPaths"));
    CU_ASSERT_TRUE(decide(&l, &pinned, "/dev/null", true, "harmless devices"));
    /* on the way to a denial: listed, made by the broker, or refused */
    CU_ASSERT_TRUE(decide(&l, &pinned, at("dir"), false, "listed through the broker"));
    CU_ASSERT_FALSE(decide(&l, &none, at("dir"), false, "not among the"));
    CU_ASSERT_TRUE(decide(&l, &pinned, at("dir/new"), true, "made by the broker"));
    CU_ASSERT_FALSE(decide(&l, &none, at("dir/new"), true, "no entry is made there"));
    CU_ASSERT_FALSE(decide(&l, &pinned, at("dir/ghost"), true, "leads to"));
    CU_ASSERT_FALSE(decide(&l, &pinned, at("new"), true, "not beneath a writable root"));
    /* beneath the writable root, off the way */
    CU_ASSERT_TRUE(decide(&l, &pinned, at("dir/twice"), true, "(the working directory): Landlock write"));
    CU_ASSERT_TRUE(decide(&l, &pinned, at("dir/twice"), false, "read rights beneath /"));
    CU_ASSERT_FALSE(decide(&l, &pinned, "/dev/has-none", false, "/dev is left out"));
    CU_ASSERT_FALSE(decide(&l, &pinned, "/has-none", true, "not beneath a writable root"));

    /* Reading in /dev: the first writable root in /dev, not the first one. */
    const char *w2[] = {"/", "/dev/shm", NULL}, *none2[] = {NULL};
    struct fs_lists dev = {.writable = w2, .write_denied = none2, .no_read = none2, .no_write = none2};
    CU_ASSERT_TRUE(decide(&dev, &none, "/dev/shm/has-none", false, "beneath writable root \"/dev/shm\""));
    CU_ASSERT_FALSE(decide(&dev, &none, "/dev/has-none", false, "/dev is left out"));

    /* The longest name the kernel takes (PATH_MAX - 1 bytes) is judged;
     * one byte more is refused unjudged, never judged as a cut copy. */
    char path[PATH_MAX + 64];
    size_t len = (size_t)snprintf(path, sizeof path, "%s/", w0);
    while (len < sizeof path - 1) {
        path[len] = (len + 1) % 200 == 0 ? '/' : 'y';
        path[++len] = '\0';
    }
    path[PATH_MAX - 1] = '\0';
    CU_ASSERT_TRUE(decide(&l, &pinned, path, true, "Landlock write rights granted"));
    CU_ASSERT_TRUE(decide(&l, &pinned, path, false, "read rights beneath /"));
    path[PATH_MAX - 1] = 'y';
    CU_ASSERT_FALSE(decide(&l, &pinned, path, true, "ENAMETOOLONG"));
    CU_ASSERT_FALSE(decide(&l, &pinned, path, false, "ENAMETOOLONG"));
    fs_anchors_close(&pinned);
    fs_anchors_close(&none);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite p = CU_add_suite("landlock paths", NULL, NULL);
    CU_add_test(p, "the denials a walk from a root leaves out", test_beneath_prunes);
    CU_add_test(p, "the rights each ABI handles", test_rights_per_abi);
    CU_add_test(p, "file systems that may fold case", test_case_folding_types);
    CU_pSuite s = CU_add_suite("landlock paths on disk", make_tree, remove_tree);
    CU_add_test(s, "opened without following a link", test_open_no_symlinks);
    CU_add_test(s, "the lists are checked before any rule", test_lists_check);
    CU_add_test(s, "the rules read back, case by case", test_decide_cases);
    return cunit_run_registry();
}
