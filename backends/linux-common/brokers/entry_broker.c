/*
 * entry_broker.c — the broker makes, renames and removes directory entries
 * for the workload in the directories on the way to a denied path (the
 * "anchors"), and opens those on the way to a read-denied path for
 * listing.  Called by connect_broker.c for every notification that is not
 * a connect() or a metadata call.
 *
 * Why: a Landlock rule covers a directory and everything beneath it, so
 * the landlock backend cannot grant the right to make or remove entries in
 * the directory that holds a write-denied `.git` without granting it inside
 * `.git` (nor the listing of the one that holds a read-denied `.env`
 * without the listing of `.env`).  Those directories get no right, and the
 * broker, outside the workload's Landlock domain, acts there instead.
 *
 * What the filter sends here (seccomp_rules.c, shared_host shape): open
 * and openat with O_CREAT or O_DIRECTORY, creat, mkdir, mknod, symlink,
 * link, rename, unlink, rmdir, and their *at forms.  For each:
 *   - the path is copied once; its last component is the entry, the rest
 *     is resolved as the calling thread would (working directory,
 *     descriptors, ordinary symlinks, no magic link) to the parent;
 *   - a parent that is no anchor (nearly every call): the call goes on in
 *     the workload (SECCOMP_USER_NOTIF_FLAG_CONTINUE) and Landlock judges
 *     it there, with its own lookup.  A race that changes the path
 *     meanwhile gains nothing: the kernel then judges the new path;
 *   - an anchor (same device and inode as one pinned at launch): the
 *     broker acts from its own descriptor of the anchor with its copy of
 *     the name, a single component, never following a symlink at it, and
 *     refuses the names that are denied or lead to a denied path (they can
 *     be neither made, renamed, removed nor replaced).  What it does is
 *     thus decided by (anchor, name) alone, whatever the workload's path
 *     said or says now.  The other side of a rename or link, when it is no
 *     anchor, must lie beneath a writable root and neither be nor lead to
 *     a denied path (rules->entry_writable): the broker is not bound by
 *     Landlock.
 * The broker holds the workload's uid and groups and no capability, so the
 * kernel judges ownership and permissions as for the workload's own call;
 * the workload's umask (from /proc) is applied to new modes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "brokers/broker_peek.h"
#include "brokers/entry_broker.h"

#define MAX_PATH 4096
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif
#ifndef SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif
/* The answer "let the call go on in the workload". */
#define PASS 1

enum entry_op { OP_CREATE, OP_LIST, OP_MKDIR, OP_MKNOD, OP_SYMLINK, OP_LINK, OP_RENAME, OP_UNLINK };

/* A call, as (directory descriptor, path) pairs of the workload. */
struct entry_call {
    enum entry_op op;
    int dirfd; /* the entry made, removed, or renamed/linked to */
    __u64 path;
    int odirfd;          /* link, rename: the old entry */
    __u64 opath;         /* ... symlink: the link's text */
    unsigned long flags; /* open flags, AT_* (link, unlink), RENAME_* */
    mode_t mode;
};

/* The calls this file answers, decoded; false for any other. */
static bool decode(const struct seccomp_notif *req, struct entry_call *c)
{
    const __u64 *a = req->data.args;
    *c = (struct entry_call){.dirfd = AT_FDCWD, .odirfd = AT_FDCWD};
    switch (req->data.nr) {
#ifdef SYS_open
    case SYS_open:
        *c = (struct entry_call){OP_CREATE, AT_FDCWD, a[0], AT_FDCWD, 0, a[1], (mode_t)a[2]};
        break;
    case SYS_creat:
        *c = (struct entry_call){OP_CREATE,   AT_FDCWD, a[0], AT_FDCWD, 0, O_CREAT | O_WRONLY | O_TRUNC,
                                 (mode_t)a[1]};
        break;
    case SYS_mkdir: *c = (struct entry_call){OP_MKDIR, AT_FDCWD, a[0], AT_FDCWD, 0, 0, (mode_t)a[1]}; break;
    case SYS_mknod: *c = (struct entry_call){OP_MKNOD, AT_FDCWD, a[0], AT_FDCWD, 0, 0, (mode_t)a[1]}; break;
    case SYS_symlink: *c = (struct entry_call){OP_SYMLINK, AT_FDCWD, a[1], AT_FDCWD, a[0], 0, 0}; break;
    case SYS_link: *c = (struct entry_call){OP_LINK, AT_FDCWD, a[1], AT_FDCWD, a[0], 0, 0}; break;
    case SYS_rename: *c = (struct entry_call){OP_RENAME, AT_FDCWD, a[1], AT_FDCWD, a[0], 0, 0}; break;
    case SYS_unlink: *c = (struct entry_call){OP_UNLINK, AT_FDCWD, a[0], AT_FDCWD, 0, 0, 0}; break;
    case SYS_rmdir: *c = (struct entry_call){OP_UNLINK, AT_FDCWD, a[0], AT_FDCWD, 0, AT_REMOVEDIR, 0}; break;
#endif
    case SYS_openat:
        *c = (struct entry_call){OP_CREATE, (int)a[0], a[1], AT_FDCWD, 0, a[2], (mode_t)a[3]};
        break;
    case SYS_mkdirat:
        *c = (struct entry_call){OP_MKDIR, (int)a[0], a[1], AT_FDCWD, 0, 0, (mode_t)a[2]};
        break;
    case SYS_mknodat:
        *c = (struct entry_call){OP_MKNOD, (int)a[0], a[1], AT_FDCWD, 0, 0, (mode_t)a[2]};
        break;
    case SYS_symlinkat: *c = (struct entry_call){OP_SYMLINK, (int)a[1], a[2], AT_FDCWD, a[0], 0, 0}; break;
    case SYS_linkat: *c = (struct entry_call){OP_LINK, (int)a[2], a[3], (int)a[0], a[1], a[4], 0}; break;
#ifdef SYS_renameat
    case SYS_renameat: *c = (struct entry_call){OP_RENAME, (int)a[2], a[3], (int)a[0], a[1], 0, 0}; break;
#endif
    case SYS_renameat2: *c = (struct entry_call){OP_RENAME, (int)a[2], a[3], (int)a[0], a[1], a[4], 0}; break;
    case SYS_unlinkat: *c = (struct entry_call){OP_UNLINK, (int)a[0], a[1], AT_FDCWD, 0, a[2], 0}; break;
    default: return false;
    }
    /* An open without O_CREAT reaches here only with O_DIRECTORY: a listing. */
    if (c->op == OP_CREATE && !(c->flags & O_CREAT))
        c->op = OP_LIST;
    return true;
}

/* ---- where the call lands ---------------------------------------------- */

/* One side of a call: the entry's parent as the workload resolves it, and
 * the entry's name there. */
struct side {
    char name[NAME_MAX + 1];
    int dir;                     /* O_PATH, or -1 */
    struct stat st;              /* of dir */
    struct entry_anchor *anchor; /* the write anchor dir is, or NULL */
    bool pool;                   /* dir is a pool of directories: never the workload's */
};

static struct entry_anchor *find_anchor(const struct entry_anchors *as, const struct stat *st, bool write)
{
    for (size_t i = 0; as && i < as->count; i++) {
        struct entry_anchor *a = &as->items[i];
        if (a->dev == st->st_dev && a->ino == st->st_ino && (write ? a->write : a->list))
            return a;
    }
    return NULL;
}

static bool is_pool(const struct entry_anchors *as, const struct stat *st)
{
    for (size_t i = 0; as && i < as->pool_count; i++)
        if (as->pools[i].dev == st->st_dev && as->pools[i].ino == st->st_ino)
            return true;
    return false;
}

/* Split `path` (our copy) into its parent and a simple last name: 0, PASS
 * when the last component is no plain name (".", "..", "/", too long: the
 * kernel answers), or -ENOENT for an empty path. */
static int split(char *path, char **parent, char *name)
{
    size_t len = strlen(path);
    if (len == 0)
        return -ENOENT;
    while (len > 1 && path[len - 1] == '/')
        path[--len] = '\0'; /* "newdir/" names newdir */
    char *slash = strrchr(path, '/');
    const char *last = slash ? slash + 1 : path;
    if (!*last || strcmp(last, ".") == 0 || strcmp(last, "..") == 0 || strlen(last) > NAME_MAX)
        return PASS;
    strcpy(name, last);
    if (!slash)
        *parent = ".";
    else if (slash == path)
        *parent = "/";
    else {
        *slash = '\0';
        *parent = path;
    }
    return 0;
}

/* Resolve the side (dirfd, addr) of `req`: 0, PASS, or -errno. */
static int resolve_side(int listener, const struct seccomp_notif *req, int dirfd, __u64 addr,
                        const struct entry_anchors *as, struct side *s)
{
    char path[MAX_PATH], *parent;
    s->dir = -1;
    s->anchor = NULL;
    s->pool = false;
    int rc = broker_read_string((pid_t)req->pid, addr, path, sizeof path);
    if (rc != 0)
        return PASS; /* the kernel says EFAULT or ENAMETOOLONG itself */
    if ((rc = split(path, &parent, s->name)) != 0)
        return rc;
    int base = -1;
    if (dirfd != AT_FDCWD && parent[0] != '/' && broker_fetch_fd(listener, req, dirfd, &base) != 0)
        return PASS; /* EBADF and the like: the kernel's answer */
    s->dir = broker_resolve((pid_t)req->pid, base, parent, false);
    if (base >= 0)
        close(base);
    if (s->dir < 0 || fstat(s->dir, &s->st) != 0)
        return PASS; /* a parent the broker cannot see (a magic link): Landlock judges */
    s->anchor = find_anchor(as, &s->st, true);
    s->pool = is_pool(as, &s->st);
    return 0;
}

static void close_side(struct side *s)
{
    if (s->dir >= 0)
        close(s->dir);
    s->dir = -1;
}

/* A name of the anchor that is denied or leads to a denied path. */
static bool kept(const struct entry_anchor *a, const char *name)
{
    for (size_t i = 0; a->kept && a->kept[i]; i++)
        if (strcmp(a->kept[i], name) == 0)
            return true;
    return false;
}

/* The side may take the change: an anchor's name that is not kept, or an
 * entry the backend calls writable -- judged by the entry, not only its
 * directory: a directory on the way to a denial that is no anchor (past
 * the ones pinned at launch) holds a denied name too.  0 or -EACCES. */
static int side_ok(const struct side *s, const struct connect_rules *rules)
{
    if (s->pool)
        return -EACCES;
    if (s->anchor)
        return kept(s->anchor, s->name) ? -EACCES : 0;
    return rules->entry_writable && rules->entry_writable(s->dir, s->name, rules->arg) == 0 ? 0 : -EACCES;
}

/* The calling thread's umask (its /proc status), or 077 when unreadable:
 * fail towards fewer permissions. */
static mode_t workload_umask(pid_t tid)
{
    char path[48], line[128];
    unsigned mask = 077;
    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    FILE *f = fopen(path, "re");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1)
            break;
    if (f)
        fclose(f);
    return (mode_t)(mask & 0777);
}

/* ---- acting in an anchor ------------------------------------------------ */

/* The open flags our own open keeps (access mode and status flags): the
 * entry is new, the name is ours, the descriptor's flag comes with ADDFD. */
static int reopen_flags(unsigned long flags)
{
    return (int)(flags & ~(unsigned long)(O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY | O_NOFOLLOW | O_DIRECTORY |
                                          O_CLOEXEC)) |
           O_CLOEXEC;
}

/* The file create_file made for the call being answered (the broker
 * answers one call at a time), so that a call whose descriptor the
 * workload never got (ADDFD failed: EMFILE at its openFiles limit, the
 * caller gone) leaves no entry behind.  dir -1: none. */
static struct made_file {
    int dir; /* the anchor's descriptor */
    char name[NAME_MAX + 1];
    dev_t dev;
    ino_t ino;
} made = {.dir = -1};

static void made_by_this_call(const struct entry_anchor *a, const char *name, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return;
    made = (struct made_file){.dir = a->fd, .dev = st.st_dev, .ino = st.st_ino};
    snprintf(made.name, sizeof made.name, "%s", name);
}

/* Remove the entry this call made, if its name is still that inode: only
 * the broker changes an anchor's entries, so nothing else can be hit. */
static void unmake(void)
{
    struct stat st;
    if (made.dir >= 0 && fstatat(made.dir, made.name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        st.st_dev == made.dev && st.st_ino == made.ino)
        (void)unlinkat(made.dir, made.name, 0);
    made.dir = -1;
}

/* One of the anchor's pool files (entry_broker.h), or -1. */
static int pool_take(struct entry_anchor *a)
{
    while (a->pool_count > 0) {
        int fd = a->pool[--a->pool_count];
        if (fd >= 0)
            return fd;
    }
    return -1;
}

/* A new file `name` in anchor `a`, opened as the workload asked: the
 * descriptor in *give, or PASS when the name exists (the kernel and
 * Landlock judge an existing entry, a symlink followed as the workload
 * would), or -errno. */
static int create_file(struct entry_anchor *a, const char *name, const struct entry_call *c, mode_t mask,
                       int *give)
{
    struct stat st;
    if (fstatat(a->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        return c->flags & O_EXCL ? -EEXIST : PASS;
    if (errno != ENOENT)
        return -errno;
    mode_t mode = c->mode & 0777 & ~mask;
    int tmp = pool_take(a), fd;
    if (tmp >= 0) {
        /* Linked in by its inode, which carries the ruleset's file rights;
         * opened again by the new name (the unnamed one reads "(deleted)"
         * in /proc, which the metadata broker refuses), before the mode
         * may forbid it.  Only the broker changes an anchor's entries, and
         * it is busy here: the name is still the inode just linked. */
        if (linkat(AT_FDCWD, fd_path(tmp).s, a->fd, name, AT_SYMLINK_FOLLOW) != 0) {
            int e = errno;
            a->pool[a->pool_count++] = tmp; /* unused: back to the pool */
            return e == EEXIST && !(c->flags & O_EXCL) ? PASS : -e;
        }
        fd = openat(a->fd, name, reopen_flags(c->flags) | O_NOFOLLOW);
        int e = errno;
        if (fchmod(tmp, mode) != 0 && fd >= 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
        close(tmp);
        errno = e;
    } else {
        mode_t old = umask(0); /* the workload's mask is in `mode` already */
        fd = openat(a->fd, name, reopen_flags(c->flags) | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
        umask(old);
        if (fd < 0 && errno == EEXIST && !(c->flags & O_EXCL))
            return PASS; /* made meanwhile: an existing entry */
    }
    if (fd < 0)
        return -errno;
    made_by_this_call(a, name, fd);
    *give = fd;
    return 0;
}

/* The one-line note when a pool runs out, once per pool. */
static void tell_used_up(struct entry_dir_pool *p, const char *name)
{
    if (p->told)
        return;
    p->told = true;
    dprintf(
        2,
        "happy-agent-supervisor: landlock: the %u directories this launch can make beside a denied path "
        "on this filesystem are used up; mkdir %s and the next ones fail with EDQUOT (make them beneath one "
        "made before, or run again)\n",
        (unsigned)ENTRY_DIR_POOL_SIZE, name);
}

/* mkdir `name` in anchor `a`: a directory of the pool of its mount,
 * renamed into place (it keeps the rights its inode has in the ruleset),
 * then given the mode asked for.  0 or -errno; EDQUOT when the pool is
 * used up: a directory with no right, in which nothing could be made, would
 * fail later and further from the cause. */
static int mkdir_from_pool(struct entry_anchor *a, const char *name, mode_t mode)
{
    struct entry_dir_pool *p = a->dirs;
    while (p->next < p->count) {
        const char *dir = p->dirs[p->next];
        int fd = openat(p->fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            p->next++; /* gone (the host removed it): the next one */
            continue;
        }
        /* Renamed while still 0700: a directory moved to another parent
         * must be writable by its owner. */
        if (syscall(SYS_renameat2, p->fd, dir, a->fd, name, RENAME_NOREPLACE) != 0) {
            int e = errno;
            close(fd);
            return -e; /* EEXIST for a name in use, as mkdir says it */
        }
        p->next++;
        int rc = fchmod(fd, mode) == 0 ? 0 : -errno;
        close(fd);
        return rc;
    }
    tell_used_up(p, name);
    return -EDQUOT;
}

/* mkdir, mknod (a regular file or a FIFO), symlink, unlink in anchor `a`. */
static int make_or_remove(struct entry_anchor *a, const char *name, const struct entry_call *c, mode_t mask,
                          const char *text)
{
    mode_t old = umask(0);
    int rc;
    switch (c->op) {
    case OP_MKDIR:
        if (a->dirs) {
            umask(old);
            return mkdir_from_pool(a, name, c->mode & 01777 & ~mask);
        }
        rc = mkdirat(a->fd, name, c->mode & 01777 & ~mask); /* no pool: a directory with no right */
        break;
    case OP_MKNOD: {
        mode_t type = c->mode & S_IFMT;
        /* Devices need a capability the workload lacks; sockets are bind()'s. */
        if (type != 0 && type != S_IFREG && type != S_IFIFO) {
            umask(old);
            return -EPERM;
        }
        rc = mknodat(a->fd, name, (type ? type : S_IFREG) | (c->mode & 0777 & ~mask), 0);
        break;
    }
    case OP_SYMLINK: rc = symlinkat(text, a->fd, name); break;
    default: rc = unlinkat(a->fd, name, (int)(c->flags & AT_REMOVEDIR)); break;
    }
    int e = errno;
    umask(old);
    return rc == 0 ? 0 : -e;
}

/* ---- the calls ---------------------------------------------------------- */

/* The answer to a call the flags alone settle, or 0. */
static int answer_by_flags(const struct entry_call *c)
{
    if (c->op == OP_CREATE && (c->flags & (O_PATH | (O_TMPFILE & ~O_DIRECTORY))))
        return PASS; /* O_PATH ignores O_CREAT; O_TMPFILE makes no entry */
    if (c->op == OP_CREATE && (c->flags & O_DIRECTORY))
        return -EINVAL; /* the kernel's answer to O_CREAT | O_DIRECTORY */
    if (c->op == OP_UNLINK && (c->flags & ~(unsigned long)AT_REMOVEDIR))
        return -EINVAL;
    return 0;
}

/* The answer for an entry in a directory the broker does not serve, or
 * one it refuses; 0: the broker makes the call. */
static int answer_by_side(const struct side *s, const struct entry_call *c)
{
    if (s->pool)
        return -EACCES; /* the pool of directories: never the workload's */
    if (!s->anchor)
        return PASS;
    if (kept(s->anchor, s->name))
        return -EACCES; /* the denied path or one on the way to it */
    if ((c->op == OP_CREATE || c->op == OP_MKNOD) && (c->mode & (S_ISUID | S_ISGID)))
        return -EPERM; /* as the filter refuses set-id files (seccomp_rules.c) */
    return 0;
}

/* A call on one entry (create, mkdir, mknod, symlink, unlink). */
static int one_entry(int listener, const struct seccomp_notif *req, const struct entry_call *c,
                     const struct connect_rules *rules, int *give)
{
    struct side s;
    char text[MAX_PATH];
    int rc = answer_by_flags(c);
    if (rc != 0)
        return rc;
    rc = resolve_side(listener, req, c->dirfd, c->path, rules->anchors, &s);
    if (rc == 0)
        rc = answer_by_side(&s, c);
    if (rc == 0 && c->op == OP_SYMLINK)
        rc = broker_read_string((pid_t)req->pid, c->opath, text, sizeof text);
    mode_t mask = rc == 0 ? workload_umask((pid_t)req->pid) : 0;
    /* Everything is read: the thread must still be the caller. */
    if (rc == 0 && !broker_id_valid(listener, req->id))
        rc = -EINTR;
    if (rc == 0)
        rc = c->op == OP_CREATE ? create_file(s.anchor, s.name, c, mask, give)
                                : make_or_remove(s.anchor, s.name, c, mask, text);
    close_side(&s);
    return rc;
}

/* The old entry of a link: the inode itself, as an O_PATH descriptor. */
static int link_source(int listener, const struct seccomp_notif *req, const struct entry_call *c, int *out)
{
    char path[MAX_PATH];
    int rc = broker_read_string((pid_t)req->pid, c->opath, path, sizeof path);
    if (rc != 0)
        return rc;
    if (path[0] == '\0' && (c->flags & AT_EMPTY_PATH))
        return broker_fetch_fd(listener, req, c->odirfd, out);
    if (path[0] == '\0')
        return -ENOENT;
    int base = -1;
    if (c->odirfd != AT_FDCWD && path[0] != '/' &&
        (rc = broker_fetch_fd(listener, req, c->odirfd, &base)) != 0)
        return rc;
    int fd = broker_resolve((pid_t)req->pid, base, path, !(c->flags & AT_SYMLINK_FOLLOW));
    if (base >= 0)
        close(base);
    if (fd < 0)
        return fd;
    *out = fd;
    return 0;
}

/* link with its new name in an anchor (one linked out of an anchor is
 * Landlock's to judge, which refuses it: no REFER right there).  The
 * inode must be one the workload may write (beneath a writable root, no
 * denial, by its own name): else a hard link of `.git/config` at the top
 * would be written, chmod'ed and linked on through the new name. */
static int link_entry(int listener, const struct seccomp_notif *req, const struct entry_call *c,
                      const struct connect_rules *rules)
{
    if (c->flags & ~(unsigned long)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
        return -EINVAL;
    struct side to;
    int rc = resolve_side(listener, req, c->dirfd, c->path, rules->anchors, &to), src = -1;
    struct stat st;
    /* A new name elsewhere: the kernel and Landlock judge it. */
    if (rc == 0 && !to.anchor)
        rc = PASS;
    if (rc == 0)
        rc = side_ok(&to, rules);
    if (rc == 0)
        rc = link_source(listener, req, c, &src);
    if (rc == 0 && fstat(src, &st) != 0)
        rc = -errno;
    if (rc == 0 &&
        (S_ISDIR(st.st_mode) || !rules->path_writable || rules->path_writable(src, &st, rules->arg) != 0))
        rc = S_ISDIR(st.st_mode) ? -EPERM : -EACCES;
    if (rc == 0 && !broker_id_valid(listener, req->id))
        rc = -EINTR;
    if (rc == 0)
        rc = linkat(AT_FDCWD, fd_path(src).s, to.dir, to.name, AT_SYMLINK_FOLLOW) == 0 ? 0 : -errno;
    if (src >= 0)
        close(src);
    close_side(&to);
    return rc;
}

/* rename and renameat2: either side in an anchor. */
static int rename_entry(int listener, const struct seccomp_notif *req, const struct entry_call *c,
                        const struct connect_rules *rules)
{
    if (c->flags & RENAME_WHITEOUT)
        return -EPERM; /* a whiteout is a device node: CAP_MKNOD, which the workload lacks */
    if (c->flags & ~(unsigned long)(RENAME_NOREPLACE | RENAME_EXCHANGE))
        return -EINVAL;
    struct side from, to;
    int rc = resolve_side(listener, req, c->odirfd, c->opath, rules->anchors, &from);
    int rc2 = resolve_side(listener, req, c->dirfd, c->path, rules->anchors, &to);
    if (rc == 0 && rc2 == 0 && !from.anchor && !to.anchor)
        rc = PASS;
    else if (rc == 0)
        rc = rc2;
    if (rc == 0)
        rc = side_ok(&from, rules);
    if (rc == 0)
        rc = side_ok(&to, rules);
    if (rc == 0 && !broker_id_valid(listener, req->id))
        rc = -EINTR;
    if (rc == 0)
        rc = syscall(SYS_renameat2, from.dir, from.name, to.dir, to.name, (unsigned)c->flags) == 0 ? 0
                                                                                                   : -errno;
    close_side(&from);
    close_side(&to);
    return rc;
}

/* open(O_DIRECTORY) of a directory on the way to a read-denied path: our
 * descriptor of it, which lists its own entries only (the read-denied
 * one's name too, as linux-ns's mask shows it), or PASS. */
static int list_dir(int listener, const struct seccomp_notif *req, const struct entry_call *c,
                    const struct connect_rules *rules, int *give)
{
    if ((c->flags & (O_PATH | O_ACCMODE)) || !(c->flags & O_DIRECTORY))
        return PASS;
    char path[MAX_PATH];
    if (broker_read_string((pid_t)req->pid, c->path, path, sizeof path) != 0 || !path[0])
        return PASS;
    int base = -1;
    if (c->dirfd != AT_FDCWD && path[0] != '/' && broker_fetch_fd(listener, req, c->dirfd, &base) != 0)
        return PASS;
    int fd = broker_resolve((pid_t)req->pid, base, path, c->flags & O_NOFOLLOW);
    if (base >= 0)
        close(base);
    struct stat st;
    struct entry_anchor *a = fd >= 0 && fstat(fd, &st) == 0 ? find_anchor(rules->anchors, &st, false) : NULL;
    if (fd >= 0)
        close(fd);
    if (!a)
        return PASS;
    if (!broker_id_valid(listener, req->id))
        return -EINTR;
    fd = openat(a->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | (int)(c->flags & O_NONBLOCK));
    if (fd < 0)
        return -errno;
    *give = fd;
    return 0;
}

/* ---- answering ----------------------------------------------------------- */

static void respond(int listener, __u64 id, int error, __s64 val, __u32 flags)
{
    struct seccomp_notif_resp resp = {.id = id, .error = error, .val = val, .flags = flags};
    (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: the caller is gone */
}

/* Install our descriptor `fd` in the workload as the call's result:
 * whether it got it. */
static bool respond_fd(int listener, __u64 id, int fd, bool cloexec)
{
    struct seccomp_notif_addfd add = {.id = id,
                                      .flags = SECCOMP_ADDFD_FLAG_SEND,
                                      .srcfd = (__u32)fd,
                                      .newfd_flags = cloexec ? O_CLOEXEC : 0};
    int got = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
    if (got < 0 && errno == EINVAL) { /* before Linux 5.14: no SEND, answer apart */
        add.flags = 0;
        got = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
        if (got >= 0)
            respond(listener, id, 0, got, 0);
    }
    if (got < 0 && errno != ENOENT)
        respond(listener, id, -errno, 0, 0);
    close(fd);
    return got >= 0;
}

bool entry_broker_serve(int listener, const struct seccomp_notif *req, const struct connect_rules *rules)
{
    struct entry_call c;
    if (!decode(req, &c))
        return false;
    int give = -1, rc = PASS;
    made.dir = -1;
    if (rules->anchors && rules->anchors->count > 0) {
        switch (c.op) {
        case OP_LIST: rc = list_dir(listener, req, &c, rules, &give); break;
        case OP_LINK: rc = link_entry(listener, req, &c, rules); break;
        case OP_RENAME: rc = rename_entry(listener, req, &c, rules); break;
        default: rc = one_entry(listener, req, &c, rules, &give); break;
        }
    }
    if (rc == PASS)
        respond(listener, req->id, 0, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
    else if (rc == 0 && give >= 0 && !respond_fd(listener, req->id, give, c.flags & O_CLOEXEC))
        unmake(); /* the call failed: it made nothing */
    else
        respond(listener, req->id, rc, 0, 0);
    return true;
}

size_t entry_broker_fds(const struct connect_rules *rules, int *fds, size_t max)
{
    size_t n = 0;
    const struct entry_anchors *as = rules ? rules->anchors : NULL;
    for (size_t i = 0; as && i < as->count; i++) {
        if (n < max)
            fds[n++] = as->items[i].fd;
        for (size_t j = 0; j < as->items[i].pool_count && n < max; j++)
            if (as->items[i].pool[j] >= 0)
                fds[n++] = as->items[i].pool[j];
    }
    for (size_t i = 0; as && i < as->pool_count && n < max; i++)
        if (as->pools[i].fd >= 0)
            fds[n++] = as->pools[i].fd;
    return n;
}

void entry_broker_remove_pools(const struct entry_anchors *as)
{
    for (size_t i = 0; as && i < as->pool_count; i++) {
        const struct entry_dir_pool *p = &as->pools[i];
        /* AT_REMOVEDIR removes an empty directory only, and follows no
         * symbolic link; the taken ones are no longer here. */
        for (unsigned k = p->next; p->fd >= 0 && k < p->count; k++)
            (void)unlinkat(p->fd, p->dirs[k], AT_REMOVEDIR);
        if (p->parent >= 0)
            (void)unlinkat(p->parent, p->name, AT_REMOVEDIR);
    }
}
