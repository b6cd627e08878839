/*
 * mount_ops.h — the mount primitives of the linux-ns backend and the
 * symlink-free resolution they operate on.
 *
 * Every mount is made onto, and from, an O_PATH descriptor obtained by
 * safe_path_open(), never onto a path string that is resolved a second time:
 * between resolving and mounting, a concurrent process (another sandbox on
 * the same workspace) could swap a directory for a symlink, and a bind that
 * follows it would grant or mask the wrong place.
 */
#ifndef HAS_LINUX_NS_MOUNT_OPS_H
#define HAS_LINUX_NS_MOUNT_OPS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "backend.h"
#include "linux_common.h"

/* A resolved path: the O_PATH descriptor of the object, and of its parent
 * directory plus the last component, so that the legacy path can look the
 * object up again (crossing the mount just made) without re-walking the
 * whole path. */
struct sp_node {
    int parent;           /* -1 when the node is the base itself */
    bool borrowed_parent; /* parent belongs to a struct sp_dir_cache */
    int fd;
    char name[NAME_MAX + 1];
    struct stat st;
};

/*
 * Resolve `rel` (relative, no leading '/', "." for `base` itself) beneath
 * directory descriptor `base`, refusing every symbolic link on the way and
 * in the last component (openat2 RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
 * or a component-by-component O_PATH|O_NOFOLLOW walk where openat2 does not
 * exist).  Returns 0, or -errno (ELOOP for a symlink, ENOENT, ...).
 */
int safe_path_open(int base, const char *rel, struct sp_node *out);
void safe_path_close(struct sp_node *node);

/*
 * The same, for many paths in sorted order: the parent directory of the
 * previous path is kept, so siblings (1,000 masks under one directory) cost
 * one short lookup each instead of a walk of the whole path.  The node's
 * parent then belongs to the cache (safe_path_close leaves it open).
 */
struct sp_dir_cache {
    char dir[PATH_MAX];
    int fd; /* -1: empty */
};
int safe_path_open_cached(int base, const char *rel, struct sp_dir_cache *cache, struct sp_node *out);
void safe_path_cache_close(struct sp_dir_cache *cache);
/* The object now at parent/name (a mount made on it is crossed), O_PATH. */
int safe_path_reopen(const struct sp_node *node);

/*
 * Where policy paths are resolved: "/" of the view, and the working
 * directory by identity (backend.h, cwd_fd).  A path at or beneath `cwd` is
 * resolved from the working directory found at `cwd` now and checked to be
 * it (dev, ino), so that a rename of it or of a directory above it during
 * set-up cannot move a grant or a denial onto another directory: the
 * result is the object beneath the held directory, or PATH_ERR_CWD_MOVED.
 */
struct sp_root {
    int root_fd;
    const char *cwd; /* NULL: none (every path from root_fd) */
    dev_t cwd_dev;
    ino_t cwd_ino;
    int cwd_fd; /* the working directory as resolved last, or -1 */
};
void sp_root_init(struct sp_root *r, int root_fd, const struct sandbox_ctx *ctx);
/* `path`: absolute, normal form.  0, or -errno, or -PATH_ERR_CWD_MOVED.
 * Opening a path at or above `cwd` forgets the resolved working directory
 * (the caller is about to mount there: the next path beneath it must cross
 * that mount). */
int sp_root_open(struct sp_root *r, const char *path, struct sp_node *out);
/* The working directory, resolved now if it is not (for relative lookups
 * that stay beneath it: safe_path_open_cached); -errno on failure. */
int sp_root_cwd(struct sp_root *r);
/* Forget the resolved working directory (before a stage that mounts). */
void sp_root_forget(struct sp_root *r);

enum bind_mode {
    BIND_RW,   /* writable, submounts included (where the kernel allows) */
    BIND_RO,   /* read-only, submounts included */
    BIND_KEEP, /* exactly the source's flags, no submounts (masks) */
    BIND_DEVICE, /* read-only, device nodes usable again (the private /dev's nodes; masks are cloned from them) */
    BIND_ANCHOR, /* exactly each mount's flags, submounts included (denial_anchor.c) */
};

/*
 * Bind `src` over `dst`.  `path` is the policy path, for messages and, on
 * the legacy path only, for finding submounts to remount read-only.
 */
int mnt_bind(bool legacy, const struct sp_node *src, const struct sp_node *dst, enum bind_mode mode,
             const char *path, char *err, size_t errlen);

/* Make the one mount whose root `fd` is read-only (not its submounts). */
int mnt_make_read_only(bool legacy, int fd, const char *path, char *err, size_t errlen);

/* For every mount listed now that `want` accepts, resolve its mount point
 * without following symlinks (one that cannot be reached by name — hidden
 * under another mount, or in a directory that cannot be searched — cannot
 * be reached by the workload either, and is skipped) and call `act` on it.
 * 0, or -1 with err set (by act, or here). */
int mnt_each(bool (*want)(const struct mount_info *m, const void *arg),
             int (*act)(const struct sp_node *node, const struct mount_info *m, const void *arg, char *err,
                        size_t errlen),
             const void *arg, char *err, size_t errlen);

/* Every mount of the tree nodev, and read-only unless `writable`
 * (mount_setattr AT_RECURSIVE, or a bind-remount of every entry of
 * /proc/self/mountinfo). */
int mnt_tree_restrict(bool legacy, int root_fd, bool writable, char *err, size_t errlen);

/* Mount a fresh filesystem of `type` on `dst`. */
int mnt_new(const char *type, const struct sp_node *dst, unsigned long flags, const char *data,
            const char *path, char *err, size_t errlen);

#endif
