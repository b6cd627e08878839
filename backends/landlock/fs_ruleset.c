/*
 * fs_ruleset.c — the filesystem policy as one Landlock ruleset.
 *
 * Landlock can only grant: a rule gives rights on a directory and
 * everything beneath it, and there is no rule that takes a right away.  So
 * "read everywhere except D" is built by granting read rights on every
 * sibling along the way to D: for /home/u/.ssh, every entry of / but home,
 * every entry of /home but u, every entry of /home/u but .ssh.  Writes
 * are the same beneath each writable root, except the write- and
 * read-denied paths.  Only the directories on the way to a denied path
 * are listed, once each, so the cost grows with their sizes, not with the
 * size of the tree.
 *
 * What follows from it (README.md, "What it does not give"):
 *  - the directories on the way to a denied path get no right themselves:
 *    they cannot be listed, and an entry created in one after the launch
 *    (by the host or by the workload) has no rights at all;
 *  - a denied path that does not exist is simply not granted: if it is
 *    created later, it is still denied (better than a mount can do);
 *  - a rule follows the inode, but the other paths to a denied object
 *    (another bind mount of it) are granted like any other path; a hard
 *    link is refused up front (its other names would stay readable);
 *  - a symbolic link on the way to or at a denied path would send the
 *    path walk past the exclusion: refused, with the path to give instead.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "landlock_sys.h"

/* Rights that mean reading (granted everywhere but the read-denied paths);
 * IOCTL_DEV goes with them: device ioctls are not writes of the tree. */
#define READ_CLASS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | \
                    LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* The rights a rule on a non-directory may carry. */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
                     LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

uint64_t fs_rights_handled(int abi)
{
    uint64_t r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
    if (abi >= 2)
        r |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        r |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5)
        r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return r;
}

/* ---- the lists ---------------------------------------------------------- */

/* Copy the items of `from` to list[*n...]. */
static void append_all(const char **list, size_t *n, const struct string_list *from)
{
    for (size_t i = 0; i < from->count; i++)
        list[(*n)++] = from->items[i];
}

int fs_lists_build(const struct sandbox_ctx *ctx, struct fs_lists *out, char *err, size_t errlen)
{
    const struct policy *p = ctx->policy;
    const struct string_list *dw = &p->denied_write_paths, *dr = &p->denied_read_paths;
    out->writable = calloc(p->allowed_write_paths.count + 2, sizeof *out->writable);
    out->no_write = calloc(dw->count + dr->count + 1, sizeof *out->no_write);
    out->no_read = calloc(dr->count + 1, sizeof *out->no_read);
    if (!out->writable || !out->no_write || !out->no_read) {
        fs_lists_free(out);
        snprintf(err, errlen, "out of memory building the path lists");
        return -1;
    }
    size_t w = 0, nw = 0, nr = 0; /* each list stays NULL-terminated (calloc) */
    append_all(out->writable, &w, &p->allowed_write_paths);
    if (policy_mode_writes_cwd(p->mode))
        out->writable[w++] = ctx->cwd;
    append_all(out->no_write, &nw, dw);
    append_all(out->no_write, &nw, dr);
    append_all(out->no_read, &nr, dr);
    return 0;
}

void fs_lists_free(struct fs_lists *l)
{
    free(l->writable);
    free(l->no_write);
    free(l->no_read);
    memset(l, 0, sizeof *l);
}

/* ---- the walk ------------------------------------------------------------ */

struct walk {
    int ruleset;
    uint64_t rights;
    const char *what;   /* "read" or "write", for messages */
    char *err;
    size_t errlen;
};

bool path_at_or_beneath(const char *path, const char *root)
{
    if (strcmp(root, "/") == 0)
        return path[0] == '/';
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int add_rule(struct walk *w, int fd, const struct stat *st, const char *path)
{
    uint64_t rights = S_ISDIR(st->st_mode) ? w->rights : w->rights & FILE_RIGHTS;
    if (!rights)
        return 0;
    struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
    if (landlock_add_rule(w->ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule) == 0)
        return 0;
    snprintf(w->err, w->errlen, "cannot add the Landlock %s rule for %s: %s", w->what, path, strerror(errno));
    return -1;
}

static int grant(struct walk *w, int fd, const char *path, const char **excl, size_t n);

/* The first index of sorted excl[0..n) not below `key`. */
static size_t lower_bound(const char **excl, size_t n, const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(excl[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Copy to sub[] the entries of sorted excl[0..n) at or beneath `child`
 * (they stay sorted): `child` itself, then the run that starts with
 * "child/".  Returns their count. */
static size_t select_beneath(const char *child, const char **excl, size_t n, const char **sub)
{
    size_t m = 0, at = lower_bound(excl, n, child);
    if (at < n && strcmp(excl[at], child) == 0)
        sub[m++] = excl[at];
    size_t len = strlen(child);
    char prefix[4096 + 256 + 1];
    snprintf(prefix, sizeof prefix, "%s/", child);
    for (at = lower_bound(excl, n, prefix); at < n && strncmp(excl[at], prefix, len + 1) == 0; at++)
        sub[m++] = excl[at];
    return m;
}

/* Grant every entry of directory `fd` (at `path`) but the excluded ones. */
static int grant_entries(struct walk *w, int fd, const char *path, const char **excl, size_t n)
{
    int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        snprintf(w->err, w->errlen, "cannot list %s to grant its entries around a denied path: %s", path,
                 strerror(errno));
        if (dfd >= 0)
            close(dfd);
        return -1;
    }
    const char **sub = malloc(n * sizeof *sub);
    char child[4096 + 256];
    int rc = sub ? 0 : -1;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(child, sizeof child, "%s/%s", strcmp(path, "/") == 0 ? "" : path, e->d_name);
        size_t m = select_beneath(child, excl, n, sub);
        int cfd = openat(fd, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (cfd < 0)
            continue; /* gone meanwhile: nothing to grant */
        rc = grant(w, cfd, child, sub, m);
        close(cfd);
    }
    if (!sub)
        snprintf(w->err, w->errlen, "out of memory granting the entries of %s", path);
    free(sub);
    closedir(d);
    return rc;
}

/* Grant w->rights beneath `path` (O_PATH `fd`) except at or beneath each
 * of excl[0..n), which are all at or beneath `path`, sorted. */
static int grant(struct walk *w, int fd, const char *path, const char **excl, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(excl[i], path) == 0)
            return 0; /* denied itself */
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(w->err, w->errlen, "cannot stat %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        if (n == 0)
            return 0; /* what it points to is governed by its own path */
        snprintf(w->err, w->errlen, "%s is a symbolic link on the way to the %s-denied path %s, which the "
                 "exclusion cannot follow; name the path without the link", path, w->what, excl[0]);
        return -1;
    }
    if (n == 0 || !S_ISDIR(st.st_mode))
        return add_rule(w, fd, &st, path);
    return grant_entries(w, fd, path, excl, n);
}

/* ---- the policy --------------------------------------------------------- */

/* Open `path` (absolute) as O_PATH without following any symbolic link. */
static int open_no_symlinks(const char *path, const char *field, char *err, size_t errlen)
{
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char part[256];
    const char *at = path + 1;
    while (fd >= 0 && *at) {
        size_t len = strcspn(at, "/");
        if (len >= sizeof part) {
            close(fd);
            snprintf(err, errlen, "%s %s: a component is longer than 255 bytes", field, path);
            return -1;
        }
        memcpy(part, at, len);
        part[len] = '\0';
        int next = openat(fd, part, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        int e = errno;
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
    if (fd < 0)
        snprintf(err, errlen, "%s %s: %s", field, path,
                 errno == ELOOP ? "reached through a symbolic link; name the real path" : strerror(errno));
    return fd;
}

/* A denied file with other names: the others would stay reachable. */
static int refuse_hard_links(const char *const *paths, const char *field, char *err, size_t errlen)
{
    for (size_t i = 0; paths[i]; i++) {
        struct stat st;
        if (lstat(paths[i], &st) == 0 && !S_ISDIR(st.st_mode) && st.st_nlink > 1) {
            snprintf(err, errlen, "%s %s has %lu hard links: its other names would stay reachable; "
                     "deny the directory that holds them, or remove the extra links", field, paths[i],
                     (unsigned long)st.st_nlink);
            return -1;
        }
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The entries of `list` at or beneath `root`, sorted, into out[]. */
static size_t beneath_of(const char *root, const char *const *list, const char **out)
{
    size_t m = 0;
    for (size_t i = 0; list[i]; i++)
        if (path_at_or_beneath(list[i], root))
            out[m++] = list[i];
    qsort(out, m, sizeof *out, by_name);
    return m;
}

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

/* The devices every program writes to; nothing else of /dev. */
static int grant_devices(int ruleset, uint64_t handled, char *err, size_t errlen)
{
    static const char *const devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
    struct walk w = {ruleset, handled & (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE), "write",
                     err, errlen};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        int fd = open(devices[i], O_PATH | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        int rc = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) ? add_rule(&w, fd, &st, devices[i]) : 0;
        close(fd);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int fs_ruleset_add(int ruleset, int abi, const struct fs_lists *l, char *err, size_t errlen)
{
    uint64_t handled = fs_rights_handled(abi);
    if (refuse_hard_links(l->no_read, "deniedReadPaths:", err, errlen) != 0 ||
        refuse_hard_links(l->no_write, "deniedWritePaths:", err, errlen) != 0)
        return -1;
    size_t most = count(l->no_write) > count(l->no_read) ? count(l->no_write) : count(l->no_read);
    const char **excl = malloc((most + 1) * sizeof *excl);
    if (!excl) {
        snprintf(err, errlen, "out of memory building the Landlock ruleset");
        return -1;
    }
    struct walk reads = {ruleset, handled & READ_CLASS, "read", err, errlen};
    int root = open_no_symlinks("/", "/", err, errlen);
    int rc = root < 0 ? -1 : grant(&reads, root, "/", excl, beneath_of("/", l->no_read, excl));
    if (root >= 0)
        close(root);
    struct walk writes = {ruleset, handled & ~(uint64_t)READ_CLASS, "write", err, errlen};
    for (size_t i = 0; rc == 0 && l->writable[i]; i++) {
        int fd = open_no_symlinks(l->writable[i], "writable root", err, errlen);
        rc = fd < 0 ? -1 : grant(&writes, fd, l->writable[i], excl, beneath_of(l->writable[i], l->no_write, excl));
        if (fd >= 0)
            close(fd);
    }
    free(excl);
    return rc == 0 ? grant_devices(ruleset, handled, err, errlen) : -1;
}
