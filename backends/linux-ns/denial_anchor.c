/*
 * denial_anchor.c — pin the directories on the way to every denied path.
 *
 * A denial is a mount on the denied path itself, and a mount stays with its
 * dentry: renaming a directory between a writable root and the denied path
 * (`mv .git .git-old`) carries the mount away, the old name can be rebuilt
 * without protection, and the next run — or the caller's own `git status`
 * on the host — meets the rebuilt one.  The kernel refuses to rename,
 * exchange or remove a mount point of the caller's mount namespace (EBUSY),
 * so every such directory is made one: a recursive self-bind, an "anchor".
 * A clone keeps every mount's flags, so a writable directory stays writable
 * and a read-only submount under it stays read-only.
 *
 * Which directories: those strictly between the outermost writable root
 * holding the denied path and the path itself (outside writable roots
 * everything is read-only; a writable root is a mount point already).  The
 * set is sorted and deduplicated — 1,000 denials in one directory share its
 * anchors — so parents are pinned first, and each one is resolved by
 * descriptor (safe_path_open, no symlink) through the anchors above it,
 * from the held working directory when it lies beneath it (sp_root).
 *
 * Missing paths: a missing directory ends its chain (nothing below it exists
 * to be carried away; if a run creates it, the next run pins it).  A missing
 * write-denied path is then refused by write_denials(), a missing
 * read-denied one skipped by read_denials() (mount_policy.c).
 *
 * A hard link is the other way a denied file's bytes get a second name: a
 * run made while `config/.env` did not hold the secret yet (or did not
 * exist) can leave `ln config/.env leak`, and a mask covers only the name.
 * A denied file with more than one link is therefore refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux_ns.h"
#include "mount_ops.h"

/* A directory to pin: the first `len` bytes of a denied path. */
struct anchor {
    const char *path;
    size_t len;
    const char *field;
};

static int compare_anchors(const void *a, const void *b)
{
    const struct anchor *x = a, *y = b;
    int c = memcmp(x->path, y->path, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len); /* a parent before its children */
}

static bool same_anchor(const struct anchor *x, const struct anchor *y)
{
    return x->len == y->len && memcmp(x->path, y->path, x->len) == 0;
}

/* Length of the outermost writable root at or above `path` ("/" counts 0),
 * or -1 when there is none. */
static long outer_root(const char *const *roots, const char *path)
{
    long best = -1;
    for (size_t i = 0; roots[i]; i++) {
        size_t n = strcmp(roots[i], "/") == 0 ? 0 : strlen(roots[i]);
        if (policy_path_at_or_beneath(path, roots[i]) && (best < 0 || (long)n < best))
            best = (long)n;
    }
    return best;
}

static bool is_root(const char *const *roots, const char *path, size_t len)
{
    for (size_t i = 0; roots[i]; i++)
        if (strlen(roots[i]) == len && strncmp(roots[i], path, len) == 0)
            return true;
    return false;
}

static size_t slashes(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '/';
    return n;
}

/* Append the directories between the outermost writable root and `path`. */
static size_t add_chain(struct anchor *out, size_t n, const char *const *roots, const char *path,
                        const char *field)
{
    long base = outer_root(roots, path);
    if (base < 0)
        return n; /* in no writable root: its parents cannot be renamed */
    for (size_t i = (size_t)base + 1; path[i]; i++)
        if (path[i] == '/' && !is_root(roots, path, i)) /* a writable root is a mount point already */
            out[n++] = (struct anchor){path, i, field};
    return n;
}

static const char *const FIELDS[2] = {"deniedWritePaths", "deniedReadPaths"};

static const struct string_list *denied(const struct policy *p, int which)
{
    return which == 0 ? &p->denied_write_paths : &p->denied_read_paths;
}

/* Every directory to pin, sorted, each once.  NULL: out of memory. */
static struct anchor *collect(const struct policy *p, const char *const *roots, size_t *count)
{
    size_t cap = 1;
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < denied(p, w)->count; i++)
            cap += slashes(denied(p, w)->items[i]);
    struct anchor *a = malloc(cap * sizeof *a);
    if (!a)
        return NULL;
    size_t n = 0;
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < denied(p, w)->count; i++)
            n = add_chain(a, n, roots, denied(p, w)->items[i], FIELDS[w]);
    qsort(a, n, sizeof *a, compare_anchors);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || !same_anchor(&a[u - 1], &a[i]))
            a[u++] = a[i];
    *count = u;
    return a;
}

static const char *why(int error)
{
    return error == ELOOP
               ? "a component is a symbolic link (refused: a link planted in a writable root could "
                 "redirect the mount); name the real path"
               : strerror(error);
}

static int pin(struct sp_root *at, bool legacy, const struct anchor *a, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (a->len >= sizeof path) {
        snprintf(err, errlen, "%s: %.64s...: path too long", a->field, a->path);
        return -1;
    }
    memcpy(path, a->path, a->len);
    path[a->len] = '\0';
    struct sp_node dir;
    int e = sp_root_open(at, path, &dir);
    if (e == -ENOENT || e == -ENOTDIR)
        return 0; /* missing: nothing below it exists to be carried away */
    if (e == -PATH_ERR_CWD_MOVED)
        return path_resolve_error(a->field, path, -e, "", err, errlen);
    if (e != 0) {
        snprintf(err, errlen, "%s: %s (a directory on the way to a denied path): %s", a->field, path,
                 why(-e));
        return -1;
    }
    int rc = 0;
    if (S_ISDIR(dir.st.st_mode) && (rc = mnt_bind(legacy, &dir, &dir, BIND_ANCHOR, path, err, errlen)) != 0) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, " (pinning a directory on the way to a %s entry)", a->field);
    }
    safe_path_close(&dir);
    return rc;
}

/* The directory of the previous path, kept for its siblings. */
struct parent_cache {
    char dir[PATH_MAX];
    int fd;     /* -1: missing or not opened */
    bool valid; /* dir names the cached lookup */
};

static int parent_fd(struct sp_root *at, const char *path, size_t dlen, struct parent_cache *c)
{
    if (c->valid && strlen(c->dir) == dlen && strncmp(c->dir, path, dlen) == 0)
        return c->fd;
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->valid = dlen < sizeof c->dir;
    if (!c->valid)
        return -1;
    memcpy(c->dir, path, dlen);
    c->dir[dlen] = '\0';
    struct sp_node node;
    if (sp_root_open(at, dlen ? c->dir : "/", &node) == 0) {
        c->fd = node.fd; /* keep the directory, not its parent */
        node.fd = -1;
        safe_path_close(&node);
    }
    return c->fd; /* an error is reported by the mask or bind itself */
}

/* A denied file must have no other name (see the top of the file). */
static int check_links(struct sp_root *at, const struct string_list *list, const char *field, char *err,
                       size_t errlen)
{
    struct parent_cache c = {.fd = -1};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < list->count; i++) {
        const char *path = list->items[i];
        const char *slash = strrchr(path, '/');
        int dir = parent_fd(at, path, (size_t)(slash - path), &c);
        struct stat st;
        if (dir < 0 || !slash[1] || fstatat(dir, slash + 1, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; /* missing (or refused by the mask or bind itself) */
        if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
            snprintf(err, errlen,
                     "%s: %s: has %lu hard links, and the denial would not cover the other "
                     "names; remove the other links",
                     field, path, (unsigned long)st.st_nlink);
            rc = -1;
        }
    }
    if (c.fd >= 0)
        close(c.fd);
    return rc;
}

int denial_anchors(struct sp_root *at, bool legacy, const char *const *roots, const struct policy *p,
                   char *err, size_t errlen)
{
    sp_root_forget(at); /* resolved again, through the writable roots' binds */
    size_t n = 0;
    struct anchor *a = collect(p, roots, &n);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = pin(at, legacy, &a[i], err, errlen);
    free(a);
    for (int w = 0; rc == 0 && w < 2; w++)
        rc = check_links(at, denied(p, w), FIELDS[w], err, errlen);
    return rc;
}
