/*
 * fs_anchors.c — the directories on the way to a denied path ("anchors"),
 * noted during the ruleset's walk (fs_ruleset.c) and handed to the broker
 * (backends/linux-common/brokers/entry_broker.c), which makes, renames and
 * removes entries there for the workload, and opens them for listing.
 *
 * Each anchor is pinned (an O_PATH descriptor opened by the walk, before
 * anything of the workload runs) with the names in it that are denied or
 * lead to a denied path: the broker never touches those.  A write anchor
 * also gets a pool of unnamed files (O_TMPFILE) that the ruleset gives
 * every file right: a file the workload makes there becomes one of them,
 * and stays readable and writable by name (a rule follows its inode).  A
 * file made once the pool is empty has no right but the descriptor the
 * call returned.  A directory made there is one of a pool made at launch
 * (fs_dir_pool.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "landlock.h"
#include "landlock_sys.h"

/* Descriptors the broker may hold: each anchor one, each pool of
 * directories one, the pools of files the rest. */
#define POOL_PER_ANCHOR 48
#define POOL_TOTAL (ENTRY_BROKER_MAX_FDS - FS_MAX_ANCHORS - ENTRY_MAX_DIR_POOLS)
_Static_assert(FS_MAX_ANCHORS < ENTRY_BROKER_MAX_FDS, "the broker keeps them all");

/* The first component of `denied` beneath `dir` (into buf). */
static const char *first_component(const char *dir, const char *denied, char *buf, size_t size)
{
    const char *rest = denied + strlen(dir) + (strcmp(dir, "/") != 0);
    size_t len = strcspn(rest, "/");
    snprintf(buf, size, "%.*s", (int)len, rest);
    return buf;
}

/* The names of `dir` that lead to excl[0..n) (path order: the same name
 * comes in one run), NULL-terminated. */
static char **kept_names(const char *dir, const char *const *excl, size_t n)
{
    char **names = calloc(n + 1, sizeof *names), buf[256];
    size_t k = 0;
    for (size_t i = 0; names && i < n; i++) {
        const char *name = first_component(dir, excl[i], buf, sizeof buf);
        if (k > 0 && strcmp(names[k - 1], name) == 0)
            continue;
        if (!(names[k] = strdup(name))) {
            fs_anchors_free_names(names);
            return NULL;
        }
        k++;
    }
    return names;
}

/* File systems that may match a name in another case: FAT and exFAT
 * always; NTFS, HFS+ and SMB by default (magic numbers from the kernel's
 * headers, or the file systems' own where the headers have none). */
bool fs_type_folds_case(unsigned long type)
{
    static const unsigned long folding[] = {
        MSDOS_SUPER_MAGIC,    0x2011bab0 /* exfat */, 0x5346544e /* ntfs */, 0x7366746e /* ntfs3 */,
        0x482b /* hfsplus */, SMB_SUPER_MAGIC,        0xff534d42 /* cifs */, 0xfe534d42 /* smb2 */,
    };
    for (size_t i = 0; i < sizeof folding / sizeof folding[0]; i++)
        if (type == folding[i])
            return true;
    return false;
}

/* The broker keeps the denied names of a write anchor as bytes: where the
 * directory matches names without regard to case (a case-folding ext4,
 * f2fs or tmpfs directory, or a file system above), ".GIT" would reach
 * the denied ".git" unrecognised.  NULL, or what folds. */
static const char *folds_case(int fd, char *buf, size_t size)
{
    int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return NULL; /* a directory we cannot open: Landlock alone judges in it */
    struct statfs sf;
    int flags = 0;
    const char *why = NULL;
    if (fstatfs(dfd, &sf) == 0 && fs_type_folds_case((unsigned long)sf.f_type))
        why = (snprintf(buf, size, "its file system (type 0x%lx) matches names without regard to case",
                        (unsigned long)sf.f_type),
               buf);
    else if (ioctl(dfd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL))
        why = "it is a case-folding directory";
    close(dfd);
    return why;
}

static struct entry_anchor *find(struct fs_anchors *s, const struct stat *st)
{
    for (size_t i = 0; i < s->set.count; i++)
        if (s->set.items[i].dev == st->st_dev && s->set.items[i].ino == st->st_ino)
            return &s->set.items[i];
    return NULL;
}

int fs_anchors_note(struct fs_anchors *s, int fd, const struct stat *st, const char *path,
                    const char *const *excl, size_t n, bool write, char *err, size_t errlen)
{
    struct entry_anchor *a = find(s, st);
    if (!a && s->set.count == FS_MAX_ANCHORS)
        return 0; /* beyond it, a directory stays as Landlock alone leaves it (README) */
    if (!a) {
        a = &s->set.items[s->set.count];
        *a = (struct entry_anchor){
            .fd = s->plan ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 3), .dev = st->st_dev, .ino = st->st_ino};
        if (a->fd < 0 && !s->plan) {
            snprintf(err, errlen, "cannot keep the directory %s for the broker: %s", path, strerror(errno));
            return -1;
        }
        if (!(s->paths[s->set.count] = strdup(path))) {
            if (a->fd >= 0)
                close(a->fd);
            snprintf(err, errlen, "out of memory noting the directory %s", path);
            return -1;
        }
        s->set.count++;
    }
    char fold[96];
    const char *folds = write ? folds_case(fd, fold, sizeof fold) : NULL;
    if (folds) {
        snprintf(err, errlen,
                 "%s is on the way to the denied path %s and %s: the broker, which acts there, "
                 "could not tell a denied name in another case; use linux-ns, or a case-sensitive workspace",
                 path, excl[0], folds);
        return -1;
    }
    if (write) {
        char **names = kept_names(path, excl, n);
        if (!names) {
            snprintf(err, errlen, "out of memory noting the denied names of %s", path);
            return -1;
        }
        fs_anchors_free_names((char **)a->kept);
        a->kept = (const char *const *)names;
        a->write = true;
    } else {
        a->list = true;
    }
    return 0;
}

/* Up to `want` pool files in anchor `a`, each with `rights` in the
 * ruleset.  A filesystem without O_TMPFILE gives none (the files made
 * there then have no right but their first descriptor). */
static int fill_pool(struct entry_anchor *a, int ruleset, uint64_t rights, size_t want, char *err,
                     size_t errlen)
{
    if (!(a->pool = calloc(want ? want : 1, sizeof *a->pool))) {
        snprintf(err, errlen, "out of memory making the broker's files");
        return -1;
    }
    while (a->pool_count < want) {
        int fd = openat(a->fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0)
            return 0;
        struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
        if (landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule) != 0) {
            snprintf(err, errlen, "cannot add the Landlock rule for a new file's inode: %s", strerror(errno));
            close(fd);
            return -1;
        }
        a->pool[a->pool_count++] = fd;
    }
    return 0;
}

int fs_anchors_pools(struct fs_anchors *s, int ruleset, uint64_t rights, char *err, size_t errlen)
{
    size_t left = POOL_TOTAL;
    for (size_t i = 0; i < s->set.count; i++) {
        struct entry_anchor *a = &s->set.items[i];
        size_t want = !a->write ? 0 : left < POOL_PER_ANCHOR ? left : POOL_PER_ANCHOR;
        if (want && fill_pool(a, ruleset, rights, want, err, errlen) != 0)
            return -1;
        left -= a->pool_count;
    }
    return 0;
}

int fs_anchors_init(struct fs_anchors *s)
{
    memset(s, 0, sizeof *s);
    s->set.items = calloc(FS_MAX_ANCHORS, sizeof *s->set.items);
    s->paths = calloc(FS_MAX_ANCHORS, sizeof *s->paths);
    return s->set.items && s->paths ? 0 : -1;
}

bool fs_anchors_pinned(const struct fs_anchors *s, const char *path)
{
    for (size_t i = 0; i < s->set.count; i++)
        if (strcmp(s->paths[i], path) == 0)
            return true;
    return false;
}

void fs_anchors_free_names(char **names)
{
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
}

void fs_anchors_close(struct fs_anchors *s)
{
    for (size_t i = 0; s->set.items && i < s->set.count; i++) {
        struct entry_anchor *a = &s->set.items[i];
        if (a->fd >= 0)
            close(a->fd);
        for (size_t j = 0; j < a->pool_count; j++)
            close(a->pool[j]);
        free(a->pool);
        fs_anchors_free_names((char **)a->kept);
        free(s->paths[i]);
    }
    for (size_t i = 0; i < s->set.pool_count; i++) {
        if (s->set.pools[i].fd >= 0)
            close(s->set.pools[i].fd);
        free(s->set.pools[i].path);
    }
    free(s->set.pools);
    free(s->paths);
    free(s->set.items);
    memset(s, 0, sizeof *s);
}
