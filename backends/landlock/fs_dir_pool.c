/*
 * fs_dir_pool.c — the pools of empty directories that a directory made in
 * a write anchor becomes (entry_broker.h, struct entry_dir_pool).
 *
 * Why: a Landlock rule attaches to an inode, and a directory made after
 * the launch has none, so nothing could be made inside `node_modules`,
 * `.venv` or `build` at the top of a workspace whose `.git` is denied.  A
 * directory made here at launch and given every right keeps them when the
 * broker renames it into place (rename(2) keeps the inode); everything
 * beneath it is then allowed or refused by the kernel's own Landlock
 * check, not by the broker.
 *
 * One pool per mount that holds a write anchor (a rename cannot cross
 * mounts), made in the first such anchor of the walk (the outermost: the
 * writable root), named `.happy-agent-supervisor-dirs.<pid>`.  The
 * supervisor makes it before anything of the workload runs, beneath the
 * anchor's pinned descriptor, following no symbolic link, and checks that
 * it is where it was made.  It is then mode 0300 with random entry names,
 * its name is kept in its anchor (never made, renamed or removed for the
 * workload), and its path is refused to the broker's metadata and entry
 * calls (socket_rules.c): the workload can neither list it nor reach a
 * directory in it, nor change it.  It has no Landlock right of its own (it
 * lies in an anchor).  The broker removes what is left of it at the end
 * (entry_broker_remove_pools); a supervisor killed with SIGKILL leaves it
 * (README).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "landlock_sys.h"
#include "mount/mount_id.h"

_Static_assert(ENTRY_MAX_DIR_POOLS *(ENTRY_DIR_POOL_SIZE + 1) < 1024, "launch cost stays bounded");

/* ENTRY_DIR_POOL_NAME_LEN random hex digits into out. */
static int random_name(char *out)
{
    unsigned char raw[ENTRY_DIR_POOL_NAME_LEN / 2];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* Make the pool's own directory in anchor `a` (at `path`): 0, or -1 with
 * errno (EEXIST: the name is taken; nothing made). */
static int make_home(struct entry_dir_pool *p, const struct entry_anchor *a, const char *path,
                     unsigned attempt)
{
    snprintf(p->name, sizeof p->name,
             attempt ? ".happy-agent-supervisor-dirs.%d.%u" : ".happy-agent-supervisor-dirs.%d",
             (int)getpid(), attempt);
    if (mkdirat(a->fd, p->name, 0700) != 0)
        return -1;
    p->parent = a->fd;
    size_t len = strlen(path) + 1 + strlen(p->name) + 1;
    if (!(p->path = malloc(len)))
        return -1;
    snprintf(p->path, len, "%s/%s", strcmp(path, "/") == 0 ? "" : path, p->name);
    struct stat st, up;
    p->fd = openat(a->fd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (p->fd < 0 || fstat(p->fd, &st) != 0 || fstatat(p->fd, "..", &up, AT_SYMLINK_NOFOLLOW) != 0)
        return -1;
    p->dev = st.st_dev;
    p->ino = st.st_ino;
    if (up.st_dev != a->dev || up.st_ino != a->ino) {
        errno = EXDEV; /* moved since it was made: not where the anchor is */
        return -1;
    }
    return 0;
}

/* Fill pool `p` with directories, each given `rights` in `ruleset`. */
static int fill(struct entry_dir_pool *p, int ruleset, uint64_t rights, char *err, size_t errlen)
{
    while (p->count < ENTRY_DIR_POOL_SIZE) {
        char *name = p->dirs[p->count];
        int fd = -1;
        if (random_name(name) != 0 || mkdirat(p->fd, name, 0700) != 0 ||
            (fd = openat(p->fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
            snprintf(err, errlen, "cannot make the directories for new ones in %s: %s", p->path,
                     strerror(errno));
            return -1;
        }
        p->count++;
        struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
        int rc = landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule);
        int e = errno;
        close(fd);
        if (rc != 0) {
            snprintf(err, errlen, "cannot add the Landlock rule for a new directory's inode in %s: %s",
                     p->path, strerror(e));
            return -1;
        }
    }
    /* Writable and searchable by its owner (the broker), not listable. */
    if (fchmod(p->fd, 0300) != 0) {
        snprintf(err, errlen, "cannot make %s unlistable: %s", p->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Keep the pool's name in its anchor: appended to a->kept. */
static int keep_name(struct entry_anchor *a, const char *name)
{
    size_t n = 0;
    while (a->kept && a->kept[n])
        n++;
    const char **grown = realloc((void *)a->kept, (n + 2) * sizeof *grown);
    if (!grown)
        return -1;
    a->kept = grown;
    if (!(grown[n] = strdup(name)))
        return -1;
    grown[n + 1] = NULL;
    return 0;
}

/* A pool in anchor `a`, or none when its directory cannot be made there
 * (the uid may not write that directory: a plain mkdir fails the same). */
static int make_pool(struct fs_anchors *s, struct entry_anchor *a, int ruleset, uint64_t rights, char *err,
                     size_t errlen)
{
    struct entry_dir_pool *p = &s->set.pools[s->set.pool_count];
    *p = (struct entry_dir_pool){.parent = -1, .fd = -1};
    mode_t old = umask(077);
    int rc;
    unsigned attempt = 0;
    while ((rc = make_home(p, a, s->paths[a - s->set.items], attempt)) != 0 && errno == EEXIST && attempt < 8)
        attempt++; /* left by a run of the same pid killed with SIGKILL */
    umask(old);
    if (rc != 0 && p->parent < 0)
        return 0;        /* not made: no pool */
    s->set.pool_count++; /* removed with the rest on failure */
    if (rc != 0) {
        snprintf(err, errlen, "cannot open the directory %s/%s just made: %s", s->paths[a - s->set.items],
                 p->name, strerror(errno));
        return -1;
    }
    if (fill(p, ruleset, rights, err, errlen) != 0)
        return -1;
    if (keep_name(a, p->name) != 0) {
        snprintf(err, errlen, "out of memory keeping the name %s", p->path);
        return -1;
    }
    a->dirs = p;
    return 0;
}

int fs_dir_pools_make(struct fs_anchors *s, int ruleset, uint64_t rights, char *err, size_t errlen)
{
    uint64_t mounts[ENTRY_MAX_DIR_POOLS];
    if (!(s->set.pools = calloc(ENTRY_MAX_DIR_POOLS, sizeof *s->set.pools))) {
        snprintf(err, errlen, "out of memory making the pools of directories");
        return -1;
    }
    for (size_t i = 0; i < s->set.count; i++) {
        struct entry_anchor *a = &s->set.items[i];
        uint64_t id = a->write ? mount_id_of(a->fd) : 0;
        if (id == 0)
            continue; /* no pool: a directory made there has no right */
        size_t k = 0;
        while (k < s->set.pool_count && mounts[k] != id)
            k++;
        if (k < s->set.pool_count) {
            a->dirs = &s->set.pools[k];
            continue;
        }
        if (s->set.pool_count == ENTRY_MAX_DIR_POOLS)
            continue;
        mounts[s->set.pool_count] = id;
        if (make_pool(s, a, ruleset, rights, err, errlen) != 0)
            return -1;
    }
    return 0;
}
