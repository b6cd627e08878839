/*
 * kernel_fs.c — the kernel's own interfaces (procfs, sysfs, cgroupfs, ...)
 * read-only, whoever the caller is.
 *
 * Why: the kernel grants many of these writes by uid alone.  Run by root,
 * the workload's uid 0 in its user namespace is the host's uid 0, and with
 * no capability at all it could write /proc/sys/kernel/core_pattern (a
 * `|/workspace/x` there is run by the kernel as full root on the host on the
 * next crash), /proc/sysrq-trigger, /proc/irq/N/smp_affinity, cgroup files,
 * sysfs attributes.  Mount flags are checked before any of that, so what is
 * made read-only here stays out of reach for every caller.
 *
 *  - The private procfs is mounted read-only as a whole (mount_policy.c):
 *    sysctls, sysrq-trigger, irq affinities, and a future kernel's entries
 *    too, with no list to keep; per-process files (oom_score_adj, comm,
 *    mem) are read-only as well.  Reopening a descriptor through
 *    /proc/self/fd/N still works: the open lands on the file's own mount.
 *    Files only their owner may read and none may write (timer_list shows
 *    host tasks and pids, slabinfo, kmsg, kpage*) are masked with /dev/null
 *    when the caller is root, so it reads no more than an ordinary one;
 *    found by listing the directory.  For any other caller nothing is
 *    listed or masked: the owner, the host's uid 0, is not mapped in the
 *    sandbox and the workload holds no capability, so the kernel's own
 *    permission check refuses the open (EACCES), as it does outside.
 *  - Every other mount of a kernel filesystem, or of the host's device
 *    nodes (devtmpfs, devpts: their modes and owners), that is writable in
 *    the sandbox's view is made read-only: the tree is read-only already,
 *    but a writable root can hold one (a chroot or build root with its own
 *    /proc, /sys or /dev mounted), and "/" as a writable root holds them all.
 *  - /sys: with a network namespace of its own the sandbox gets a fresh
 *    read-only sysfs, which lists its own network devices (lo) instead of
 *    the host's interfaces and MAC addresses and has no cgroupfs, debugfs,
 *    tracefs or securityfs under it.  Without one (egress on, no proxy) the
 *    host's sysfs stays, read-only, and its cgroup tree (every service's and
 *    user's cgroup path and process count) is covered by an empty tmpfs.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "linux_ns.h"
#include "mount/mount_id.h"
#include "mount_ops.h"

static bool all_digits(const char *s)
{
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* A global regular file only its owner may read, and nobody write.  One
 * with a write bit (sysrq-trigger, 0200) is left to the read-only mount:
 * masked by /dev/null, a write to it would succeed silently instead of
 * failing with EROFS (a read-only mount does not stop writes to a device). */
static bool owner_only(mode_t m)
{
    return S_ISREG(m) && !(m & 0044) && !(m & 0222);
}

int kernel_fs_each_proc_masked(int root_fd, kernel_fs_proc_fn fn, void *arg, char *err, size_t errlen)
{
    int proc_fd = openat(root_fd, "proc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = proc_fd >= 0 ? fdopendir(proc_fd) : NULL;
    if (!d) {
        snprintf(err, errlen, "/proc: cannot list the private procfs: %s", strerror(errno));
        if (proc_fd >= 0)
            close(proc_fd);
        return -1;
    }
    /* Entries are collected first: mounting while readdir() walks the same
     * directory is not something to rely on. */
    static char names[512][256]; /* ~60 on Linux 6.18 */
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || all_digits(e->d_name) || e->d_type == DT_LNK)
            continue;
        if (n == sizeof names / sizeof names[0]) {
            snprintf(err, errlen,
                     "/proc: more global entries than expected (%zu); refusing to leave "
                     "any of them unmasked",
                     n);
            closedir(d);
            return -1;
        }
        snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    int rc = 0;
    struct stat st;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (fstatat(dirfd(d), names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && owner_only(st.st_mode))
            rc = fn(dirfd(d), names[i], arg); /* (most entries: one fstatat, nothing opened) */
    closedir(d);
    return rc;
}

struct mask_arg {
    const struct sp_node *devnull;
    bool legacy;
    char *err;
    size_t errlen;
};

/* One owner-only top-level entry of the private procfs: /dev/null over it. */
static int mask_proc_entry(int proc_fd, const char *name, void *arg)
{
    const struct mask_arg *m = arg;
    struct sp_node node;
    if (safe_path_open(proc_fd, name, &node) != 0)
        return 0; /* gone meanwhile */
    char path[300];
    snprintf(path, sizeof path, "/proc/%s", name);
    int rc = owner_only(node.st.st_mode) /* of what is open now */
                 ? mnt_bind(m->legacy, m->devnull, &node, BIND_KEEP, path, m->err, m->errlen)
                 : 0;
    safe_path_close(&node);
    return rc;
}

bool kernel_fs_masks_proc(uid_t caller_uid)
{
    return caller_uid == 0;
}

int kernel_fs_mask_proc(int root_fd, const struct sp_node *devnull, bool legacy, char *err, size_t errlen)
{
    struct mask_arg m = {devnull, legacy, err, errlen};
    return kernel_fs_each_proc_masked(root_fd, mask_proc_entry, &m, err, errlen);
}

static bool ours(const char *mp)
{
    /* The private /proc and /dev (and whatever host mount they hide) are
     * this sandbox's own: /proc is read-only from its mount on. */
    return policy_path_at_or_beneath(mp, "/proc") || policy_path_at_or_beneath(mp, "/dev");
}

static bool writable_kernel_fs(const struct mount_info *m, const void *unused)
{
    (void)unused;
    return m->writable && mount_is_host_object_fs(m->fstype) && !ours(m->point);
}

/* The mount table as read once: what each mount is, to know the one a
 * path leads to. */
struct table_entry {
    unsigned long long id, parent;
    char *point;
    bool target; /* a writable kernel filesystem to make read-only */
};
struct table {
    struct table_entry *e;
    size_t n, cap;
};

static int collect(const struct mount_info *m, void *arg)
{
    struct table *t = arg;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct table_entry *e = realloc(t->e, cap * sizeof *e);
        if (!e)
            return 1;
        t->e = e;
        t->cap = cap;
    }
    char *point = strdup(m->point);
    if (!point)
        return 1;
    t->e[t->n++] = (struct table_entry){m->id, m->parent, point, writable_kernel_fs(m, NULL)};
    return 0;
}

static const struct table_entry *find(const struct table *t, unsigned long long id)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].id == id)
            return &t->e[i];
    return NULL;
}

/* Whether mount `at` was mounted over `m` at the same mount point: `m` is
 * then covered, and out of reach by any path, the workload's too. */
static bool covers(const struct table *t, unsigned long long at, const struct table_entry *m)
{
    for (size_t hops = 0; hops < t->n; hops++) {
        const struct table_entry *e = find(t, at);
        if (!e || strcmp(e->point, m->point) != 0)
            return false;
        if (e->parent == m->id)
            return true;
        at = e->parent;
    }
    return false;
}

/* `m` read-only, reached by its mount point without following symlinks.
 * The path must lead to that very mount (or to one covering it): a
 * directory renamed or made unsearchable meanwhile, by anyone who can
 * write in a writable root, would otherwise hide a writable procfs that
 * is renamed back once the workload runs.  So a mount point that cannot
 * be reached, or leads elsewhere, fails the launch. */
static int make_read_only(int root_fd, bool legacy, const struct table *t, const struct table_entry *m,
                          char *err, size_t errlen)
{
    struct sp_node node;
    int e = safe_path_open(root_fd, m->point[1] ? m->point + 1 : ".", &node);
    unsigned long long at = e == 0 ? mount_id_of(node.fd) : 0;
    int rc = 0;
    if (at == m->id)
        rc = mnt_make_read_only(legacy, node.fd, m->point, err, errlen);
    else if (!at || !covers(t, at, m)) {
        snprintf(
            err, errlen,
            "%s: a writable kernel filesystem mounted there cannot be reached by its path to "
            "make it read-only (%s): its directories changed while the sandbox was being built, or cannot be "
            "searched; refusing",
            m->point, e ? strerror(-e) : "the path leads to another mount");
        rc = -1;
    }
    if (e == 0)
        safe_path_close(&node);
    return rc;
}

int kernel_fs_read_only(int root_fd, bool legacy, char *err, size_t errlen)
{
    struct table t = {0};
    int rc = mountinfo_each(collect, &t, err, errlen);
    if (rc > 0)
        snprintf(err, errlen, "out of memory reading the mount table");
    for (size_t i = 0; rc == 0 && i < t.n; i++)
        if (t.e[i].target)
            rc = make_read_only(root_fd, legacy, &t, &t.e[i], err, errlen);
    for (size_t i = 0; i < t.n; i++)
        free(t.e[i].point);
    free(t.e);
    return rc == 0 ? 0 : -1;
}

/* Mount a fresh, read-only `type` on `path` (relative to root_fd), if it
 * is there (a minimal chroot may have no /sys). */
static int fresh_read_only(int root_fd, const char *path, const char *type, const char *data, char *err,
                           size_t errlen)
{
    struct sp_node dir;
    if (safe_path_open(root_fd, path + 1, &dir) != 0)
        return 0;
    int rc = mnt_new(type, &dir, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, data, path, err, errlen);
    safe_path_close(&dir);
    return rc;
}

int kernel_fs_own_sysfs(int root_fd, char *err, size_t errlen)
{
    int rc = fresh_read_only(root_fd, "/sys", "sysfs", NULL, err, errlen);
    if (rc != 0 && errno == EPERM) {
        size_t n = strlen(err);
        snprintf(
            err + n, errlen - n,
            "; the kernel refuses a new sysfs while parts of /sys are masked "
            "(a container's default masks): run the container with --security-opt systempaths=unconfined");
    }
    return rc;
}

int kernel_fs_hide_cgroups(int root_fd, char *err, size_t errlen)
{
    return fresh_read_only(root_fd, "/sys/fs/cgroup", "tmpfs", "mode=0555,size=4k,nr_inodes=1", err, errlen);
}
