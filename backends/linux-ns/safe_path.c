/*
 * safe_path.c — resolve a policy path to O_PATH descriptors without
 * following any symbolic link.
 *
 * Why refuse symlinks instead of resolving them: a writable root is a place
 * where the workload (of this or an earlier run, or of a concurrent sandbox
 * on the same workspace) may have planted a link.  Following it would let
 * `allowedWritePaths: ["/ws/cache"]` turn into a writable bind of whatever
 * /ws/cache points at (~/.ssh), or move a mask away from the secret it was
 * meant to hide.  Policy paths are absolute and normalised, and the working
 * directory comes from getcwd(), so a real path never needs a link; a path
 * that contains one is refused with a message naming it (fail closed).
 *
 * openat2(RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) checks every component
 * atomically in one call (Linux >= 5.6).  On older kernels the same is done
 * one component at a time with O_PATH | O_NOFOLLOW and fstat().  The result
 * is a descriptor: what is later mounted is exactly the object checked here,
 * whatever happens to the names in between.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mount_ops.h"
#include "policy_paths.h"

#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_NO_SYMLINKS
#define RESOLVE_NO_SYMLINKS 0x04
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct has_open_how {
    unsigned long long flags;
    unsigned long long mode;
    unsigned long long resolve;
};

/* Open one component beneath `dir` as O_PATH, refusing a symlink.  Its
 * stat is left in *st, so callers need no second fstat(). */
static int open_component(int dir, const char *name, bool want_dir, struct stat *st)
{
    int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    if (S_ISLNK(st->st_mode) || (want_dir && !S_ISDIR(st->st_mode))) {
        close(fd);
        return S_ISLNK(st->st_mode) ? -ELOOP : -ENOTDIR;
    }
    return fd;
}

/* The walk used where openat2 is missing. */
static int walk_directory(int base, const char *rel)
{
    char buf[PATH_MAX];
    if (strlen(rel) >= sizeof buf)
        return -ENAMETOOLONG;
    strcpy(buf, rel);
    int cur = openat(base, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cur < 0)
        return -errno;
    char *save = NULL;
    struct stat st;
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        int next = open_component(cur, c, true, &st);
        close(cur);
        if (next < 0)
            return next;
        cur = next;
    }
    return cur;
}

static int open_directory(int base, const char *rel)
{
    if (!*rel)
        rel = ".";
    struct has_open_how how = {
        .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
        .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, base, rel, &how, sizeof how);
    if (fd >= 0)
        return (int)fd;
    if (errno != ENOSYS)
        return -errno;
    return walk_directory(base, rel);
}

int safe_path_open(int base, const char *rel, struct sp_node *out)
{
    out->parent = -1;
    out->borrowed_parent = false;
    out->fd = -1;
    out->name[0] = '\0';
    if (strcmp(rel, ".") == 0 || !*rel) {
        out->fd = openat(base, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (out->fd < 0 || fstat(out->fd, &out->st) != 0)
            return -errno;
        return 0;
    }
    const char *slash = strrchr(rel, '/');
    const char *name = slash ? slash + 1 : rel;
    if (strlen(name) >= sizeof out->name || !*name)
        return -ENAMETOOLONG;
    char dir[PATH_MAX];
    size_t dlen = slash ? (size_t)(slash - rel) : 0;
    if (dlen >= sizeof dir)
        return -ENAMETOOLONG;
    memcpy(dir, rel, dlen);
    dir[dlen] = '\0';
    int parent = open_directory(base, dir);
    if (parent < 0)
        return parent;
    int fd = open_component(parent, name, false, &out->st);
    if (fd < 0) {
        close(parent);
        return fd;
    }
    out->parent = parent;
    out->fd = fd;
    strcpy(out->name, name);
    return 0;
}

int safe_path_open_cached(int base, const char *rel, struct sp_dir_cache *cache, struct sp_node *out)
{
    const char *slash = strrchr(rel, '/');
    size_t dlen = slash ? (size_t)(slash - rel) : 0;
    if (!slash || dlen >= sizeof cache->dir || cache->fd < 0 || strncmp(cache->dir, rel, dlen) != 0 ||
        cache->dir[dlen] != '\0') {
        int e = safe_path_open(base, rel, out);
        if (e != 0 || out->parent < 0 || !slash || dlen >= sizeof cache->dir)
            return e;
        safe_path_cache_close(cache);
        memcpy(cache->dir, rel, dlen);
        cache->dir[dlen] = '\0';
        cache->fd = out->parent;
        out->borrowed_parent = true;
        return 0;
    }
    const char *name = slash + 1;
    if (strlen(name) >= sizeof out->name || !*name)
        return -ENAMETOOLONG;
    int fd = open_component(cache->fd, name, false, &out->st);
    if (fd < 0)
        return fd;
    out->parent = cache->fd;
    out->borrowed_parent = true;
    out->fd = fd;
    strcpy(out->name, name);
    return 0;
}

void safe_path_cache_close(struct sp_dir_cache *cache)
{
    if (cache->fd >= 0)
        close(cache->fd);
    cache->fd = -1;
    cache->dir[0] = '\0';
}

int safe_path_reopen(const struct sp_node *node)
{
    if (node->parent < 0)
        return -EINVAL;
    struct stat st;
    return open_component(node->parent, node->name, false, &st);
}

void safe_path_close(struct sp_node *node)
{
    if (node->fd >= 0)
        close(node->fd);
    if (node->parent >= 0 && !node->borrowed_parent)
        close(node->parent);
    node->fd = node->parent = -1;
}

void sp_root_init(struct sp_root *r, int root_fd, const struct sandbox_ctx *ctx)
{
    *r = (struct sp_root){.root_fd = root_fd, .cwd_fd = -1};
    if (ctx && strcmp(ctx->cwd, "/") != 0) /* "/" cannot be renamed */
        *r = (struct sp_root){root_fd, ctx->cwd, ctx->cwd_dev, ctx->cwd_ino, -1};
}

void sp_root_forget(struct sp_root *r)
{
    if (r->cwd_fd >= 0)
        close(r->cwd_fd);
    r->cwd_fd = -1;
}

/* The working directory at its name now, checked to be the held one. */
static int open_cwd(const struct sp_root *r, struct sp_node *out)
{
    int e = safe_path_open(r->root_fd, r->cwd + 1, out);
    if (e != 0)
        return e == -ENOENT || e == -ENOTDIR ? -PATH_ERR_CWD_MOVED : e;
    if (S_ISDIR(out->st.st_mode) && out->st.st_dev == r->cwd_dev && out->st.st_ino == r->cwd_ino)
        return 0;
    safe_path_close(out);
    return -PATH_ERR_CWD_MOVED;
}

int sp_root_cwd(struct sp_root *r)
{
    if (r->cwd_fd >= 0)
        return r->cwd_fd;
    struct sp_node node;
    int e = open_cwd(r, &node);
    if (e != 0)
        return e;
    r->cwd_fd = node.fd; /* keep the directory, not its parent */
    node.fd = -1;
    safe_path_close(&node);
    return r->cwd_fd;
}

int sp_root_open(struct sp_root *r, const char *path, struct sp_node *out)
{
    bool beneath = r->cwd && policy_path_at_or_beneath(path, r->cwd);
    if (r->cwd && policy_path_at_or_beneath(r->cwd, path))
        sp_root_forget(r); /* a mount on it or above is coming */
    if (!beneath)
        return safe_path_open(r->root_fd, path[1] ? path + 1 : ".", out);
    size_t n = strlen(r->cwd);
    if (!path[n])
        return open_cwd(r, out); /* with its parent: mounts are made on it */
    int base = sp_root_cwd(r);
    return base < 0 ? base : safe_path_open(base, path + n + 1, out);
}
