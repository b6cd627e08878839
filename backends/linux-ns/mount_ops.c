/*
 * mount_ops.c — bind, read-only and fresh mounts, in two implementations:
 *
 *  - the new mount API (Linux >= 5.12): open_tree(OPEN_TREE_CLONE) clones the
 *    source into a detached tree, mount_setattr(2) sets or clears
 *    MOUNT_ATTR_RDONLY on that whole detached tree (AT_RECURSIVE), and
 *    move_mount(2) attaches it onto the target descriptor.  The tree is never
 *    visible with the wrong flags, and nothing is resolved by name.
 *
 *  - the legacy path (older kernels, or forced with HAS_FORCE_LEGACY_MOUNT=1
 *    so the tests exercise it): mount(2) MS_BIND from /proc/self/fd/SRC onto
 *    /proc/self/fd/DST, then a bind-remount.  A remount needs the root of the
 *    new mount, which the target descriptor (taken before the bind) is not;
 *    it is looked up again as parent-descriptor + name and checked to be the
 *    same inode as the source before its flags are changed.  Submounts are
 *    remounted read-only one by one from /proc/self/mountinfo.
 *
 * Masks (BIND_KEEP) are plain clones of an already read-only mount: on the
 * new API one open_tree + move_mount each, which measured about twice as
 * fast as mount(2) through two /proc/self/fd lookups (1,000 masks: ~10 ms
 * against ~25 ms here).
 *
 * A legacy remount must repeat the mount's locked flags (nosuid, nodev,
 * noexec, atime) or the kernel refuses it in a user namespace: every remount
 * starts from the mount's current flags, read back with fstatvfs() (read-only
 * included, so adding nodev leaves a read-only mount read-only).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mount_ops.h"
#include "os/mount_api.h"

static int set_attr(int fd, unsigned long long set, unsigned long long clr, unsigned flags)
{
    struct mntapi_attr attr = {.attr_set = set, .attr_clr = clr};
    return (int)syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | flags, &attr, sizeof attr);
}

static int set_readonly(int fd, bool readonly, unsigned flags)
{
    return readonly ? set_attr(fd, MNTAPI_ATTR_RDONLY, 0, flags) : set_attr(fd, 0, MNTAPI_ATTR_RDONLY, flags);
}

/* ---- the new mount API ------------------------------------------------- */

static int modern_bind(const struct sp_node *src, const struct sp_node *dst, enum bind_mode mode,
                       const char *path, char *err, size_t errlen)
{
    unsigned rec = mode == BIND_KEEP || mode == BIND_DEVICE ? 0 : AT_RECURSIVE;
    int tree = (int)syscall(SYS_open_tree, src->fd, "",
                            MNTAPI_OPEN_TREE_CLONE | MNTAPI_OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | rec);
    if (tree < 0) {
        snprintf(err, errlen, "%s: cannot clone the mount (open_tree): %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (mode == BIND_RO)
        rc = set_readonly(tree, true, AT_RECURSIVE);
    else if (mode == BIND_DEVICE)
        rc = set_attr(tree, MNTAPI_ATTR_RDONLY, MNTAPI_ATTR_NODEV, 0);
    else if (mode == BIND_RW) {
        rc = set_readonly(tree, false, AT_RECURSIVE);
        /* A submount the host mounted read-only is locked read-only in our
         * user namespace; it stays read-only, the root of the bind does not. */
        if (rc != 0 && errno == EPERM)
            rc = set_readonly(tree, false, 0);
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot make the bind %s (mount_setattr): %s%s", path,
                 mode == BIND_RO       ? "read-only"
                 : mode == BIND_DEVICE ? "a usable device"
                                       : "writable",
                 strerror(errno),
                 mode == BIND_RW && errno == EPERM
                     ? "; the host mounted this filesystem read-only, so it cannot be a writable root"
                     : "");
        close(tree);
        return -1;
    }
    if (syscall(SYS_move_mount, tree, "", dst->fd, "",
                MNTAPI_MOVE_MOUNT_F_EMPTY_PATH | MNTAPI_MOVE_MOUNT_T_EMPTY_PATH) != 0) {
        snprintf(err, errlen, "%s: cannot attach the bind (move_mount): %s", path, strerror(errno));
        close(tree);
        return -1;
    }
    close(tree);
    return 0;
}

/* ---- the legacy path --------------------------------------------------- */

static unsigned long current_flags(int fd)
{
    struct statvfs sv;
    unsigned long f = 0;
    if (fstatvfs(fd, &sv) != 0)
        return 0;
    if (sv.f_flag & ST_RDONLY)
        f |= MS_RDONLY;
    if (sv.f_flag & ST_NOSUID)
        f |= MS_NOSUID;
    if (sv.f_flag & ST_NODEV)
        f |= MS_NODEV;
    if (sv.f_flag & ST_NOEXEC)
        f |= MS_NOEXEC;
    if (sv.f_flag & ST_NOATIME)
        f |= MS_NOATIME;
    if (sv.f_flag & ST_NODIRATIME)
        f |= MS_NODIRATIME;
    if (sv.f_flag & ST_RELATIME)
        f |= MS_RELATIME;
    return f;
}

/* Bind-remount the mount whose root `fd` is with its flags, plus `add`
 * (MS_RDONLY, MS_NODEV), less `drop` (MS_RDONLY: writable). */
static int remount_fd(int fd, unsigned long add, unsigned long drop)
{
    unsigned long flags = MS_REMOUNT | MS_BIND | ((current_flags(fd) | add) & ~drop);
    return mount(NULL, fd_path(fd).s, NULL, flags, NULL);
}

struct each_call {
    bool (*want)(const struct mount_info *m, const void *arg);
    int (*act)(const struct sp_node *node, const struct mount_info *m, const void *arg, char *err,
               size_t errlen);
    const void *arg;
    int root_fd;
    char *err;
    size_t errlen;
};

static int each_one(const struct mount_info *m, void *call_arg)
{
    struct each_call *c = call_arg;
    if (!c->want(m, c->arg))
        return 0;
    /* Resolved without following symlinks: mountinfo paths are canonical,
     * and a link swapped in meanwhile must not redirect the change (ELOOP
     * fails closed). */
    struct sp_node node;
    int e = safe_path_open(c->root_fd, m->point[1] ? m->point + 1 : ".", &node);
    if (e == -EACCES || e == -ENOENT || e == -ENOTDIR)
        return 0;
    if (e != 0) {
        snprintf(c->err, c->errlen, "%s (%s): cannot open the mount point: %s", m->point, m->fstype,
                 strerror(-e));
        return -1;
    }
    int rc = c->act(&node, m, c->arg, c->err, c->errlen);
    safe_path_close(&node);
    return rc;
}

int mnt_each(bool (*want)(const struct mount_info *m, const void *arg),
             int (*act)(const struct sp_node *node, const struct mount_info *m, const void *arg, char *err,
                        size_t errlen),
             const void *arg, char *err, size_t errlen)
{
    struct each_call c = {want, act, arg, open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), err, errlen};
    if (c.root_fd < 0) {
        snprintf(err, errlen, "cannot open /: %s", strerror(errno));
        return -1;
    }
    int rc = mountinfo_each(each_one, &c, err, errlen);
    close(c.root_fd);
    return rc;
}

/* What legacy_remount_tree() changes: the mounts at or under `prefix`. */
struct remount_arg {
    const char *prefix;
    unsigned long add; /* MS_RDONLY, MS_NODEV */
};

static bool at_or_under(const struct mount_info *m, const void *arg)
{
    return policy_path_at_or_beneath(m->point, ((const struct remount_arg *)arg)->prefix);
}

/* EINVAL: not the root of a mount (a mount point hidden by a mount above
 * it resolves to that one's directory). */
static int remount_adding(const struct sp_node *node, const struct mount_info *m, const void *arg, char *err,
                          size_t errlen)
{
    unsigned long add = ((const struct remount_arg *)arg)->add;
    if (remount_fd(node->fd, add, 0) == 0 || errno == EINVAL)
        return 0;
    snprintf(err, errlen, "%s: cannot remount %s (bind-remount): %s", m->point,
             add & MS_RDONLY ? "read-only" : "nodev", strerror(errno));
    return -1;
}

/* Remount every mount at or under `prefix`, as listed now, adding `add`.
 * A mount point that cannot be reached by its name (EACCES, ENOENT: hidden
 * under another mount or in a directory we cannot search) cannot be
 * reached by the workload either and is skipped. */
static int legacy_remount_tree(const char *prefix, unsigned long add, char *err, size_t errlen)
{
    const struct remount_arg arg = {prefix, add};
    return mnt_each(at_or_under, remount_adding, &arg, err, errlen);
}

static int legacy_bind(const struct sp_node *src, const struct sp_node *dst, enum bind_mode mode,
                       const char *path, char *err, size_t errlen)
{
    unsigned long flags = MS_BIND | (mode == BIND_KEEP || mode == BIND_DEVICE ? 0 : MS_REC);
    if (mount(fd_path(src->fd).s, fd_path(dst->fd).s, NULL, flags, NULL) != 0) {
        snprintf(err, errlen, "%s: cannot bind-mount: %s", path, strerror(errno));
        return -1;
    }
    if (mode == BIND_KEEP || mode == BIND_ANCHOR)
        return 0; /* a bind copies the source's flags */
    int top = safe_path_reopen(dst);
    struct stat st;
    if (top < 0 || fstat(top, &st) != 0 || st.st_dev != src->st.st_dev || st.st_ino != src->st.st_ino) {
        snprintf(err, errlen, "%s: the path changed while it was being mounted; refusing", path);
        if (top >= 0)
            close(top);
        return -1;
    }
    /* BIND_DEVICE: the source's flags (read-only), device nodes usable */
    int rc = mode == BIND_RW ? remount_fd(top, 0, MS_RDONLY)
                             : remount_fd(top, MS_RDONLY, mode == BIND_DEVICE ? MS_NODEV : 0);
    int e = errno;
    close(top);
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot remount the bind %s: %s", path,
                 mode == BIND_RO       ? "read-only"
                 : mode == BIND_DEVICE ? "a usable device"
                                       : "writable",
                 strerror(e));
        return -1;
    }
    return mode == BIND_RO ? legacy_remount_tree(path, MS_RDONLY, err, errlen) : 0;
}

int mnt_bind(bool legacy, const struct sp_node *src, const struct sp_node *dst, enum bind_mode mode,
             const char *path, char *err, size_t errlen)
{
    return legacy ? legacy_bind(src, dst, mode, path, err, errlen)
                  : modern_bind(src, dst, mode, path, err, errlen);
}

int mnt_make_read_only(bool legacy, int fd, const char *path, char *err, size_t errlen)
{
    if ((legacy ? remount_fd(fd, MS_RDONLY, 0) : set_readonly(fd, true, 0)) == 0)
        return 0;
    snprintf(err, errlen, "%s: cannot make the mount read-only (%s): %s", path,
             legacy ? "bind-remount" : "mount_setattr", strerror(errno));
    return -1;
}

int mnt_tree_restrict(bool legacy, int root_fd, bool writable, char *err, size_t errlen)
{
    if (legacy)
        return legacy_remount_tree("/", writable ? MS_NODEV : MS_RDONLY | MS_NODEV, err, errlen);
    if (set_attr(root_fd, MNTAPI_ATTR_NODEV | (writable ? 0 : MNTAPI_ATTR_RDONLY), 0, AT_RECURSIVE) != 0) {
        snprintf(err, errlen, "cannot make the root filesystem %s (mount_setattr): %s",
                 writable ? "nodev" : "read-only and nodev", strerror(errno));
        return -1;
    }
    return 0;
}

int mnt_new(const char *type, const struct sp_node *dst, unsigned long flags, const char *data,
            const char *path, char *err, size_t errlen)
{
    if (mount(type, fd_path(dst->fd).s, type, flags, data) != 0) {
        snprintf(err, errlen, "%s: cannot mount %s: %s", path, type, strerror(errno));
        return -1;
    }
    return 0;
}
