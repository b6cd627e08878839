/*
 * fs_lists.c — the paths the filesystem ruleset is made of (fs_ruleset.c),
 * merged from the policy and the mount table, and checked before any rule
 * is made.
 *
 * Writes are excluded, beyond the policy's denials, from every mount of a
 * kernel interface (procfs, sysfs, cgroupfs, ...) and of the device
 * filesystems (devtmpfs, devpts) at or beneath a writable root: the kernel
 * grants their writes by uid alone, so with "/" granted (or a chroot with
 * its own /proc in the workspace) a root caller's workload could write
 * /proc/sys/kernel/core_pattern and run code as full root on the host, or
 * a raw disk.  linux-ns makes the same mounts read-only.  A writable root
 * that lies inside such a mount (allowedWritePaths: /proc/sys/kernel,
 * /sys/kernel/mm, /dev/sda) is excluded as a whole: no mount of it is at or
 * beneath the root, but every file beneath it is the kernel's.  A mount
 * made there after the launch is not excluded.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock.h"
#include "string_array.h"

/* Copy the items of `from` to list[*n...]. */
static void append_all(const char **list, size_t *n, const struct string_list *from)
{
    for (size_t i = 0; i < from->count; i++)
        list[(*n)++] = from->items[i];
}

struct mounts {
    const struct fs_lists *l;
    char **found; /* a string_array (core/string_array.h) */
    size_t count;
    /* Per writable root: the longest mount point at or above it so far,
     * and whether that mount is one to exclude (the innermost mount holding
     * the root: /dev/shm is a tmpfs, though /dev is a devtmpfs). */
    size_t *inner_len;
    bool *inner_excluded;
};

static int add_found(struct mounts *ms, const char *path)
{
    return string_array_push(&ms->found, &ms->count, path);
}

/* A kernel-interface or device mount at or beneath a writable root; and,
 * for each root, the mount it lies in (a later line of the table, mounted
 * over an earlier one at the same point, wins). */
static int collect_mount(const struct mount_info *m, void *arg)
{
    struct mounts *ms = arg;
    bool beneath = false;
    for (size_t i = 0; ms->l->writable[i]; i++) {
        const char *root = ms->l->writable[i];
        beneath = beneath || policy_path_at_or_beneath(m->point, root);
        size_t len = strlen(m->point);
        if (policy_path_at_or_beneath(root, m->point) && len >= ms->inner_len[i]) {
            ms->inner_len[i] = len;
            ms->inner_excluded[i] = mount_is_host_object_fs(m->fstype);
        }
    }
    return beneath && mount_is_host_object_fs(m->fstype) ? add_found(ms, m->point) : 0;
}

int fs_lists_build(const struct sandbox_ctx *ctx, struct fs_lists *out, char *err, size_t errlen)
{
    const struct policy *p = ctx->policy;
    const struct string_list *dw = &p->denied_write_paths, *dr = &p->denied_read_paths;
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    out->devices = &p->devices;
    out->writable = calloc(p->allowed_write_paths.count + 2, sizeof *out->writable);
    out->write_denied = calloc(dw->count + 1, sizeof *out->write_denied);
    out->no_read = calloc(dr->count + 1, sizeof *out->no_read);
    if (!out->writable || !out->write_denied || !out->no_read)
        goto oom;
    out->cwd = ctx->cwd;
    out->cwd_dev = ctx->cwd_dev;
    out->cwd_ino = ctx->cwd_ino;
    out->cwd_fd = ctx->cwd_fd;
    size_t w = 0, nd = 0, nr = 0; /* each list stays NULL-terminated (calloc) */
    append_all(out->writable, &w, &p->allowed_write_paths);
    if (policy_mode_writes_cwd(p->mode))
        out->writable[w++] = out->workspace = ctx->cwd;
    append_all(out->write_denied, &nd, dw);
    append_all(out->no_read, &nr, dr);
    struct mounts ms = {.l = out,
                        .inner_len = calloc(w + 1, sizeof *ms.inner_len),
                        .inner_excluded = calloc(w + 1, sizeof *ms.inner_excluded)};
    int rc = ms.inner_len && ms.inner_excluded ? mountinfo_each(collect_mount, &ms, err, errlen) : -1;
    for (size_t i = 0; rc == 0 && i < w; i++)
        if (ms.inner_excluded[i])
            rc = add_found(&ms, out->writable[i]); /* a root inside a kernel interface */
    free(ms.inner_len);
    free(ms.inner_excluded);
    if (rc != 0) {
        string_array_free(&ms.found, &ms.count);
        fs_lists_free(out);
        if (!err[0])
            snprintf(err, errlen, "out of memory reading the mount table");
        return -1;
    }
    out->mounts = ms.found;
    out->mount_count = ms.count;
    if (!(out->no_write = calloc(dw->count + dr->count + ms.count + 1, sizeof *out->no_write)))
        goto oom;
    size_t nw = 0;
    append_all(out->no_write, &nw, dw);
    append_all(out->no_write, &nw, dr);
    for (size_t i = 0; i < ms.count; i++)
        out->no_write[nw++] = ms.found[i];
    return 0;
oom:
    fs_lists_free(out);
    snprintf(err, errlen, "out of memory building the path lists");
    return -1;
}

void fs_lists_free(struct fs_lists *l)
{
    for (size_t i = 0; i < l->mount_count; i++)
        free(l->mounts[i]);
    free(l->mounts);
    free(l->writable);
    free(l->write_denied);
    free(l->no_write);
    free(l->no_read);
    memset(l, 0, sizeof *l);
}

/* The same, one component at a time: where openat2(2) is refused (a
 * filter around the supervisor that predates it). */
/* `rel` beneath directory `base` (relative, no leading '/'), one component
 * at a time, no symbolic link followed. */
static int open_walking_at(int base, const char *rel)
{
    int fd = openat(base, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char part[256];
    for (const char *at = rel; fd >= 0 && *at;) {
        size_t len = strcspn(at, "/");
        if (len >= sizeof part) {
            close(fd);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(part, at, len);
        part[len] = '\0';
        int next = openat(fd, part, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        struct stat st;
        if (next >= 0 && fstat(next, &st) == 0 && S_ISLNK(st.st_mode)) {
            close(next);
            next = -1;
            e = ELOOP;
        }
        close(fd);
        fd = next;
        errno = e;
        at += len + (at[len] == '/');
    }
    return fd;
}

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define HAS_RESOLVE_NO_SYMLINKS 0x04
#define HAS_RESOLVE_BENEATH 0x08

static int open_walking(const char *path)
{
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0)
        return -1;
    int fd = open_walking_at(root, path + 1);
    int e = errno;
    close(root);
    errno = e;
    return fd;
}

int fs_open_policy_path(const struct fs_lists *l, const char *path)
{
    /* Beneath the working directory: from the directory held since the
     * start (backend.h, cwd_fd), so that a rename of the workspace, or of
     * a directory above it, cannot lead the name elsewhere meanwhile. */
    if (!l->cwd || l->cwd_fd < 0 || strcmp(l->cwd, "/") == 0 || !policy_path_at_or_beneath(path, l->cwd))
        return fs_open_no_symlinks(path);
    const char *rel = path[strlen(l->cwd)] == '/' ? path + strlen(l->cwd) + 1 : ".";
    struct {
        unsigned long long flags, mode, resolve;
    } how = {.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
             .resolve = HAS_RESOLVE_NO_SYMLINKS | HAS_RESOLVE_BENEATH};
    int fd = (int)syscall(SYS_openat2, l->cwd_fd, rel, &how, sizeof how);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM))
        return open_walking_at(l->cwd_fd, strcmp(rel, ".") == 0 ? "" : rel);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
        close(fd);
        errno = ELOOP;
        return -1;
    }
    return fd;
}

int fs_open_no_symlinks(const char *path)
{
    /* One call per path (a policy may name thousands), where the kernel
     * refuses every symbolic link on the way, the last component too. */
    struct {
        unsigned long long flags, mode, resolve;
    } how = {.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW, .resolve = HAS_RESOLVE_NO_SYMLINKS};
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM))
        return open_walking(path);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
        close(fd); /* O_NOFOLLOW opened the last component, a link, itself */
        errno = ELOOP;
        return -1;
    }
    return fd;
}

/* The message for `path` of `field` that cannot be used, as linux-ns
 * words it. */
static int refuse(const char *field, const char *path, int error, char *err, size_t errlen)
{
    return path_resolve_error(field, path, error, "the rule would follow it away from the path", err, errlen);
}

/* Each path of `list` resolves without a symbolic link, exists (unless
 * `may_be_missing`), and is no file with other hard links (its other names
 * would stay reachable). */
static int check_list(const char *const *list, const char *field, bool may_be_missing, char *err,
                      size_t errlen)
{
    for (size_t i = 0; list[i]; i++) {
        int fd = fs_open_no_symlinks(list[i]);
        if (fd < 0) {
            if (errno == ENOENT && may_be_missing)
                continue; /* not granted: stays denied if it is made later */
            return refuse(field, list[i], errno, err, errlen);
        }
        struct stat st;
        int rc = fstat(fd, &st) == 0 ? 0 : refuse(field, list[i], errno, err, errlen);
        close(fd);
        if (rc == 0 && !S_ISDIR(st.st_mode) && st.st_nlink > 1) {
            snprintf(err, errlen,
                     "%s: %s has %lu hard links: its other names would stay reachable; deny the "
                     "directory that holds them, or remove the extra links",
                     field, list[i], (unsigned long)st.st_nlink);
            return -1;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

int fs_lists_check(const struct fs_lists *l, char *err, size_t errlen)
{
    for (size_t i = 0; l->writable[i]; i++) {
        int fd = fs_open_policy_path(l, l->writable[i]);
        if (fd < 0)
            return refuse(l->writable[i] == l->workspace ? "working directory (the workspace write root)"
                                                         : "allowedWritePaths",
                          l->writable[i], errno, err, errlen);
        close(fd);
    }
    return check_list(l->no_read, "deniedReadPaths", true, err, errlen) != 0 ||
                   check_list(l->write_denied, "deniedWritePaths", false, err, errlen) != 0
               ? -1
               : 0;
}
