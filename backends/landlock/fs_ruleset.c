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
 *    the broker lists them and makes, renames and removes their entries
 *    (fs_anchors.c, entry_broker.c); a directory created in one is one of
 *    the pools made at launch with every right (fs_dir_pool.c);
 *  - a denied path that does not exist is simply not granted: if it is
 *    created later, it is still denied (better than a mount can do);
 *  - a rule follows the inode, but the other paths to a denied object
 *    (another bind mount of it) are granted like any other path; a hard
 *    link is refused up front (its other names would stay readable);
 *  - a symbolic link on the way to or at a denied path would send the
 *    path walk past the exclusion: refused, with the path to give instead;
 *  - /dev is left out of the read walk like a denied path (grant_devices):
 *    so / is always on the way to one, and cannot be listed.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "landlock_sys.h"

/* Rights that mean reading (granted everywhere but the read-denied paths);
 * IOCTL_DEV goes with them: device ioctls are not writes of the tree. */
#define READ_CLASS                                                                             \
    (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | \
     LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* The rights a rule on a non-directory may carry. */
#define FILE_RIGHTS                                                                              \
    (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
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

/* ---- the walk ------------------------------------------------------------ */

struct walk {
    const struct fs_lists *l;
    int ruleset;
    uint64_t rights;
    const char *what;           /* "read" or "write", for messages */
    struct fs_anchors *anchors; /* where the directories on the way go, or NULL */
    bool writes;                /* the walk of a writable root */
    char *err;
    size_t errlen;
};

static int add_rule(struct walk *w, int fd, const struct stat *st, const char *path)
{
    uint64_t rights = S_ISDIR(st->st_mode) ? w->rights : w->rights & FILE_RIGHTS;
    if (!rights || w->ruleset < 0)
        return 0; /* nothing granted, or a plan (fs_ruleset_plan): no rule made */
    struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
    if (landlock_add_rule(w->ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule) == 0)
        return 0;
    snprintf(w->err, w->errlen, "cannot add the Landlock %s rule for %s: %s", w->what, path, strerror(errno));
    return -1;
}

static int grant(struct walk *w, int fd, const char *path, const char *const *excl, size_t n);

/* The working directory is met at its name and nowhere else (backend.h,
 * cwd_fd): renamed during the walk, or a decoy renamed into its place, a
 * rule would grant it whole or exclude the denials from the wrong
 * directory.  Another name of it (a bind mount) would carry a rule on its
 * inode to everything beneath it, its denials too. */
static int cwd_met(const struct walk *w, const struct stat *st, const char *path)
{
    if (!w->l->cwd)
        return 0; /* lists made by hand (the unit tests) */
    bool is_cwd = S_ISDIR(st->st_mode) && st->st_dev == w->l->cwd_dev && st->st_ino == w->l->cwd_ino;
    bool at_cwd = strcmp(path, w->l->cwd) == 0;
    if (is_cwd == at_cwd || strcmp(w->l->cwd, "/") == 0)
        return 0;
    if (at_cwd)
        return path_resolve_error("working directory", path, PATH_ERR_CWD_MOVED, "", w->err, w->errlen);
    snprintf(w->err, w->errlen,
             "working directory %s: met again at %s (renamed while the sandbox was set up, or another "
             "mount of it), where a %s rule would reach its denied paths; stop whatever renames it, or "
             "deny that path too",
             w->l->cwd, path, w->what);
    return -1;
}

/* Grant every entry of directory `fd` (at `path`) but the excluded ones,
 * excl[0..n) in path order. */
static int grant_entries(struct walk *w, int fd, const char *path, const char *const *excl, size_t n)
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
    char child[4096 + 256];
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(child, sizeof child, "%s/%s", strcmp(path, "/") == 0 ? "" : path, e->d_name);
        size_t m, at = policy_paths_beneath(excl, n, child, &m);
        if (m > 0 && strcmp(excl[at], child) == 0)
            continue; /* denied itself (fs_lists_check refused a link there): nothing to open */
        int cfd = openat(fd, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (cfd < 0)
            continue; /* gone meanwhile: nothing to grant */
        rc = grant(w, cfd, child, excl + at, m);
        close(cfd);
    }
    closedir(d);
    return rc;
}

/* Grant w->rights beneath `path` (O_PATH `fd`) except at or beneath each
 * of excl[0..n), which are all at or beneath `path`, in path order. */
static int grant(struct walk *w, int fd, const char *path, const char *const *excl, size_t n)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(w->err, w->errlen, "cannot stat %s: %s", path, strerror(errno));
        return -1;
    }
    if (cwd_met(w, &st, path) != 0)
        return -1;
    bool denied_itself = n > 0 && strcmp(excl[0], path) == 0; /* path order: it comes first */
    if (denied_itself && !S_ISLNK(st.st_mode))
        return 0;
    if (S_ISLNK(st.st_mode)) {
        if (n == 0)
            return 0; /* what it points to is governed by its own path */
        /* fs_lists_check() refused this; the host changed it since. */
        snprintf(w->err, w->errlen,
                 "%s is a symbolic link on the way to the %s-denied path %s, which the "
                 "exclusion cannot follow; name the path without the link",
                 path, w->what, excl[0]);
        return -1;
    }
    if (n == 0 || !S_ISDIR(st.st_mode))
        return add_rule(w, fd, &st, path);
    /* On the way to a denial: no rule here; the broker acts in it. */
    if (w->anchors && fs_anchors_note(w->anchors, fd, &st, path, excl, n, w->writes, w->err, w->errlen) != 0)
        return -1;
    return grant_entries(w, fd, path, excl, n);
}

/* ---- the policy --------------------------------------------------------- */

size_t fs_paths_beneath(const char *root, const char *const *list, const char **out)
{
    size_t m = 0;
    for (size_t i = 0; list[i]; i++)
        if (policy_path_at_or_beneath(list[i], root))
            out[m++] = list[i];
    return policy_paths_prune(out, m);
}

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

/* /dev is not read like the rest of the host: a device opened for reading
 * gives more than a file does -- another terminal of the caller's
 * (/dev/pts/N: its keystrokes), the screen of a console (/dev/vcs), a disk
 * that holds every read-denied file (/dev/sda, to a root caller), swap, a
 * webcam, the host's POSIX shared memory (/dev/shm).  It is left out of the
 * read walk, and only these devices are granted, for reading and writing;
 * linux-ns gives a /dev of its own with no more than these. */
#define DEV_ROOT "/dev"
#define DEVICE_RIGHTS                                                                             \
    (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
     LANDLOCK_ACCESS_FS_IOCTL_DEV)

static const char *const devices[] = {"/dev/null",    "/dev/zero", "/dev/full", "/dev/random",
                                      "/dev/urandom", "/dev/tty",  NULL};

static int grant_devices(int ruleset, uint64_t handled, char *err, size_t errlen)
{
    struct walk w = {.ruleset = ruleset,
                     .rights = handled & DEVICE_RIGHTS,
                     .what = "device",
                     .err = err,
                     .errlen = errlen};
    for (size_t i = 0; devices[i]; i++) {
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

bool fs_own_terminal(int n, bool *read, bool *write)
{
    int mode = fcntl(n, F_GETFL);
    if (mode < 0 || !isatty(n))
        return false;
    *read = (mode & O_ACCMODE) != O_WRONLY;
    *write = (mode & O_ACCMODE) != O_RDONLY;
    return true;
}

/* The policy's devices, each judged as opened (device_grant.c), on its
 * own inode: no symbolic link is followed to it. */
static int grant_policy_devices(int ruleset, uint64_t handled, const struct fs_lists *l, char *err,
                                size_t errlen)
{
    struct walk w = {.ruleset = ruleset,
                     .rights = handled & DEVICE_RIGHTS,
                     .what = "device",
                     .err = err,
                     .errlen = errlen};
    for (size_t i = 0; l->devices && i < l->devices->count; i++) {
        const char *path = l->devices->items[i];
        int fd = fs_open_no_symlinks(path);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            snprintf(err, errlen, "devices: %s: cannot open it without following a symbolic link: %s", path,
                     strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        int rc = device_grant_judge(path, &st, err, errlen) == 0 ? add_rule(&w, fd, &st, path) : -1;
        close(fd);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The caller's own terminal, which the workload holds as 0-2 already:
 * reopened by name (/dev/stdin, /dev/stderr, a tty check) it must stay
 * usable, with the access that descriptor has -- no more. */
static int grant_own_terminal(int ruleset, uint64_t handled, char *err, size_t errlen)
{
    for (int n = 0; n <= 2; n++) {
        struct stat st;
        bool rd, wr;
        if (!fs_own_terminal(n, &rd, &wr))
            continue;
        struct fd_path link = fd_path(n);
        int fd = open(link.s, O_PATH | O_CLOEXEC);
        if (fd < 0)
            continue;
        uint64_t rights = LANDLOCK_ACCESS_FS_IOCTL_DEV | (rd ? LANDLOCK_ACCESS_FS_READ_FILE : 0) |
                          (wr ? LANDLOCK_ACCESS_FS_WRITE_FILE : 0);
        struct walk w = {
            .ruleset = ruleset, .rights = handled & rights, .what = "terminal", .err = err, .errlen = errlen};
        int rc = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) ? add_rule(&w, fd, &st, link.s) : 0;
        close(fd);
        if (rc != 0)
            return -1;
    }
    return 0;
}

size_t fs_granted_devices(const struct fs_lists *l, struct device_number *out, size_t max)
{
    size_t n = 0;
    struct stat st;
    for (size_t i = 0; devices[i] && n < max; i++)
        if (stat(devices[i], &st) == 0 && S_ISCHR(st.st_mode))
            out[n++] = (struct device_number){.rdev = st.st_rdev};
    /* Read again, so judged again: a node swapped since its rule was made
     * lets no number through that the judgement refuses. */
    char why[SANDBOX_ERROR_MAX];
    for (size_t i = 0; l->devices && i < l->devices->count && n < max; i++)
        if (lstat(l->devices->items[i], &st) == 0 &&
            device_grant_judge(l->devices->items[i], &st, why, sizeof why) == 0)
            out[n++] = (struct device_number){.rdev = st.st_rdev};
    for (int fd = 0; fd <= 2 && n < max; fd++) {
        bool rd, wr;
        if (fs_own_terminal(fd, &rd, &wr) && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode))
            out[n++] = (struct device_number){.rdev = st.st_rdev};
    }
    return n;
}

/* w->rights beneath each writable root (only those in /dev if `in_dev`)
 * but `denied`; nothing for a root a denial covers (denials win over
 * grants).  excl: room for every entry of `denied`. */
static int grant_roots(struct walk *w, const struct fs_lists *l, const char *const *denied, bool in_dev,
                       const char **excl)
{
    for (size_t i = 0; l->writable[i]; i++) {
        const char *root = l->writable[i];
        if ((in_dev && !policy_path_at_or_beneath(root, DEV_ROOT)) || policy_path_covered(root, denied))
            continue;
        int fd = fs_open_policy_path(l, root);
        if (fd < 0) {
            snprintf(w->err, w->errlen, "writable root %s: %s", root, strerror(errno));
            return -1;
        }
        int rc = grant(w, fd, root, excl, fs_paths_beneath(root, denied, excl));
        close(fd);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int fs_ruleset_add(int ruleset, int abi, const struct fs_lists *l, struct fs_anchors *anchors, char *err,
                   size_t errlen)
{
    uint64_t handled = fs_rights_handled(abi);
    if (fs_lists_check(l, err, errlen) != 0)
        return -1;
    size_t most = count(l->no_write) > count(l->no_read) ? count(l->no_write) : count(l->no_read);
    const char **excl = malloc((most + 1) * sizeof *excl);
    if (!excl) {
        snprintf(err, errlen, "out of memory building the Landlock ruleset");
        return -1;
    }
    struct walk reads = {.l = l,
                         .ruleset = ruleset,
                         .rights = handled & READ_CLASS,
                         .what = "read",
                         .anchors = anchors,
                         .err = err,
                         .errlen = errlen};
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    size_t n = fs_paths_beneath("/", l->no_read, excl);
    excl[n++] = DEV_ROOT; /* room: most + 1 */
    n = policy_paths_prune(excl, n);
    int rc = root < 0 ? -1 : grant(&reads, root, "/", excl, n);
    if (root >= 0)
        close(root);
    /* A writable root in /dev (/dev/shm) is readable too, but the rest of
     * /dev is not -- unless a read-denial above it wins. */
    if (rc == 0)
        rc = grant_roots(&reads, l, l->no_read, true, excl);
    struct walk writes = {.l = l,
                          .ruleset = ruleset,
                          .rights = handled & ~(uint64_t)READ_CLASS,
                          .what = "write",
                          .anchors = anchors,
                          .writes = true,
                          .err = err,
                          .errlen = errlen};
    if (rc == 0)
        rc = grant_roots(&writes, l, l->no_write, false, excl);
    if (rc == 0 && anchors && ruleset >= 0)
        rc = fs_anchors_pools(anchors, ruleset, handled & FILE_RIGHTS, err, errlen);
    free(excl);
    if (rc == 0)
        rc = grant_devices(ruleset, handled, err, errlen);
    if (rc == 0)
        rc = grant_policy_devices(ruleset, handled, l, err, errlen);
    return rc == 0 ? grant_own_terminal(ruleset, handled, err, errlen) : -1;
}

int fs_ruleset_plan(int abi, const struct fs_lists *l, struct fs_anchors *plan, char *err, size_t errlen)
{
    return fs_ruleset_add(-1, abi, l, plan, err, errlen);
}

/* ---- read back: what those rules give one path ------------------------- */

/* One question to fs_ruleset_decide() and where its answer goes; `denied`
 * is what the walk for that right left out (no_write or no_read). */
struct query {
    const struct fs_lists *l;
    const struct fs_anchors *pinned;
    const char *path;
    bool write;
    const char *const *denied;
    char *rule;
    size_t n;
};

/* A case below either decides (and says why in q->rule) or leaves the
 * path to the next one. */
enum verdict { UNDECIDED = -1, REFUSED = 0, ALLOWED = 1 };

static enum verdict say(const struct query *q, enum verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum verdict say(const struct query *q, enum verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q->rule, q->n, fmt, ap);
    va_end(ap);
    return v;
}

/* A name of PATH_MAX bytes or more: the kernel refuses it (ENAMETOOLONG)
 * before Landlock sees it, so it is refused here, unjudged -- not judged
 * as the shorter path a cut copy of it would be. */
static enum verdict too_long(const struct query *q)
{
    if (strnlen(q->path, PATH_MAX) < PATH_MAX)
        return UNDECIDED;
    return say(
        q, REFUSED,
        "the path is %d bytes or longer: the kernel refuses the name itself (ENAMETOOLONG), "
        "so no rule was read for it (reached by a shorter relative name, its directories' rules apply)",
        PATH_MAX);
}

/* `path` is the caller's terminal held as descriptor 0-2 with the access
 * asked for, granted on its own inode (grant_own_terminal). */
static enum verdict own_terminal(const struct query *q)
{
    struct stat at, held;
    if (stat(q->path, &at) != 0 || !S_ISCHR(at.st_mode))
        return UNDECIDED;
    for (int fd = 0; fd <= 2; fd++) {
        bool rd, wr;
        if (fs_own_terminal(fd, &rd, &wr) && (q->write ? wr : rd) && fstat(fd, &held) == 0 &&
            held.st_dev == at.st_dev && held.st_ino == at.st_ino)
            return say(q, ALLOWED,
                       "the caller's own terminal (descriptor %d, open for %s): granted on its own "
                       "inode with that access only",
                       fd,
                       rd && wr ? "reading and writing"
                       : rd     ? "reading"
                                : "writing");
    }
    return UNDECIDED;
}

/* The field the denial `d` comes from (fs_lists_build). */
static const char *denial_source(const struct fs_lists *l, const char *d)
{
    if (policy_path_covered(d, l->no_read))
        return "deniedReadPaths";
    return policy_path_covered(d, l->write_denied) ? "deniedWritePaths" : "a kernel or device mount";
}

/* At or beneath a path the walk left out: grant() gave nothing there. */
static enum verdict in_denial(const struct query *q)
{
    for (size_t i = 0; q->denied[i]; i++)
        if (policy_path_at_or_beneath(q->path, q->denied[i]))
            return say(q, REFUSED, "%s \"%s\": left out of the Landlock %s grant",
                       denial_source(q->l, q->denied[i]), q->denied[i], q->write ? "write" : "read");
    return UNDECIDED;
}

/* One of the devices with a rule of its own (grant_devices,
 * grant_policy_devices). */
static enum verdict harmless_device(const struct query *q)
{
    for (size_t i = 0; q->l->devices && i < q->l->devices->count; i++)
        if (strcmp(q->path, q->l->devices->items[i]) == 0)
            return say(q, ALLOWED, "granted by the policy's devices, for reading and writing");
    if (!policy_path_covered(q->path, devices))
        return UNDECIDED;
    return say(q, ALLOWED, "one of the harmless devices granted for reading and writing");
}

/* A denial lies strictly beneath `dir`: grant() gave `dir` no rule of its
 * own, only its entries one by one (and /dev is left out of the reads). */
static const char *on_the_way(const char *dir, const char *const *denied, bool write)
{
    for (size_t i = 0; denied[i]; i++)
        if (strcmp(denied[i], dir) != 0 && policy_path_at_or_beneath(denied[i], dir))
            return denied[i];
    return !write && strcmp(dir, DEV_ROOT) != 0 && policy_path_at_or_beneath(DEV_ROOT, dir) ? DEV_ROOT : NULL;
}

/* The directory whose own right the operation needs, into dir[PATH_MAX]:
 * creating needs the parent (a path not there yet), listing the directory
 * itself; false for a file read or written, which needs none.  The path
 * fits: too_long() came first. */
static bool needed_dir(const struct query *q, char *dir)
{
    struct stat st;
    bool exists = lstat(q->path, &st) == 0;
    if (q->write ? exists : (!exists || !S_ISDIR(st.st_mode)))
        return false;
    snprintf(dir, PATH_MAX, "%s", q->path);
    char *slash = q->write ? strrchr(dir, '/') : NULL;
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0'; /* "/a" -> "/", "/a/b" -> "/a" */
    return true;
}

/* The first writable root `p` is at or beneath that no denial covers
 * (denials win over grants), only those in /dev if `in_dev`: the roots
 * grant_roots() walks. */
static const char *writable_root(const struct query *q, const char *p, bool in_dev)
{
    for (size_t i = 0; q->l->writable[i]; i++) {
        const char *r = q->l->writable[i];
        if (policy_path_at_or_beneath(p, r) && !policy_path_covered(r, q->denied) &&
            (!in_dev || policy_path_at_or_beneath(r, DEV_ROOT)))
            return r;
    }
    return NULL;
}

static enum verdict no_write_right(const struct query *q)
{
    return say(q, REFUSED, "not beneath a writable root: no Landlock write right");
}

/* A new entry in `dir`, an anchor (fs_anchors_note() in a writable root):
 * the broker makes it, but not a kept name, one that leads to a denied
 * path (a denied one itself: in_denial()). */
static enum verdict made_by_broker(const struct query *q, const char *dir, const char *way)
{
    for (size_t i = 0; q->denied[i]; i++)
        if (policy_path_at_or_beneath(q->denied[i], q->path))
            return say(q, REFUSED, "leads to \"%s\": the broker never makes, renames or removes it",
                       q->denied[i]);
    const char *root = writable_root(q, dir, false);
    if (!root)
        return no_write_right(q);
    return say(q, ALLOWED, "\"%s\" is on the way to \"%s\" in writable root \"%s\": made by the broker", dir,
               way, root);
}

/* The directory the operation needs a right on is on the way to a denial:
 * no rule there, the broker acts in it if it pins it. */
static enum verdict via_anchor(const struct query *q)
{
    char dir[PATH_MAX];
    const char *way = needed_dir(q, dir) ? on_the_way(dir, q->denied, q->write) : NULL;
    if (!way)
        return UNDECIDED;
    if (!fs_anchors_pinned(q->pinned,
                           dir)) /* fs_anchors_note()'s cap, or no broker (layered under linux-ns) */
        return say(q, REFUSED,
                   "\"%s\" is on the way to \"%s\" and not among the %d directories the broker pins: "
                   "as Landlock alone leaves it, %s",
                   dir, way, FS_MAX_ANCHORS, q->write ? "no entry is made there" : "it is not listed");
    if (!q->write) /* fs_anchors_note(): the broker opens it for listing (entry_broker.c) */
        return say(q, ALLOWED,
                   "\"%s\" is on the way to \"%s\": listed through the broker (the denied entry's "
                   "name shows, its content does not)",
                   dir, way);
    return made_by_broker(q, dir, way);
}

/* Beneath a writable root: grant_roots()' rights.  For reading only the
 * roots in /dev add any (the rest of the host is read beneath / already). */
static enum verdict beneath_writable_root(const struct query *q)
{
    const char *root = writable_root(q, q->path, !q->write);
    if (!root)
        return UNDECIDED;
    return say(q, ALLOWED, "beneath writable root \"%s\"%s: Landlock %s rights granted", root,
               root == q->l->workspace ? " (the working directory)" : "", q->write ? "write" : "read");
}

/* The rest: the read walk from / (which left /dev out); no write right. */
static enum verdict elsewhere(const struct query *q)
{
    if (policy_path_at_or_beneath(q->path, DEV_ROOT))
        return say(q, REFUSED,
                   "/dev is left out of the read grant but for null, zero, full, random, urandom, tty");
    if (q->write)
        return no_write_right(q);
    return say(q, ALLOWED, "no read denial covers it: Landlock read rights beneath /");
}

/* The rules fs_ruleset_add() makes, read back for one path (write: create
 * it or write it; read: read it, list it if a directory): the first case
 * that applies decides. */
bool fs_ruleset_decide(const struct fs_lists *l, const struct fs_anchors *pinned, const char *path,
                       bool write, char *rule, size_t n)
{
    static enum verdict (*const cases[])(const struct query *) = {
        too_long,  own_terminal, /* a rule on the inode itself: Landlock adds it to whatever else applies */
        in_denial, harmless_device, via_anchor, beneath_writable_root, elsewhere, /* always decides */
    };
    struct query q = {.l = l,
                      .pinned = pinned,
                      .path = path,
                      .write = write,
                      .denied = write ? l->no_write : l->no_read,
                      .rule = rule,
                      .n = n};
    enum verdict v = UNDECIDED;
    for (size_t i = 0; v == UNDECIDED && i < sizeof cases / sizeof cases[0]; i++)
        v = cases[i](&q);
    return v == ALLOWED;
}
