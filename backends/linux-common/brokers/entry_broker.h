/*
 * entry_broker.h — the broker makes directory entries on the workload's
 * behalf in the directories on the way to a denied path (entry_broker.c).
 */
#ifndef HAS_LINUX_COMMON_ENTRY_BROKER_H
#define HAS_LINUX_COMMON_ENTRY_BROKER_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "linux_common.h"

/* Empty directories made at launch in a write anchor, each given every
 * right in the Landlock ruleset: a directory the workload makes in an
 * anchor of the same mount is one of them, renamed into place, and a rule
 * follows its inode, so what is made beneath it is the kernel's to allow.
 * The pool's own directory is mode 0300 and its entries have random names:
 * the workload can neither list it nor name what is in it. */
#define ENTRY_DIR_POOL_SIZE 32     /* directories per pool */
#define ENTRY_DIR_POOL_NAME_LEN 16 /* hex digits of each random name */
#define ENTRY_MAX_DIR_POOLS 8 /* mounts with write anchors that get one; the rest make plain directories */
struct entry_dir_pool {
    int parent;    /* the anchor it is in (its descriptor, not owned) */
    char name[64]; /* its name there, kept from the workload */
    char *path;    /* its absolute path: never the broker's to change for the workload */
    int fd;        /* O_RDONLY | O_DIRECTORY */
    dev_t dev;
    ino_t ino;
    char dirs[ENTRY_DIR_POOL_SIZE][ENTRY_DIR_POOL_NAME_LEN + 1];
    unsigned next, count; /* dirs[next .. count) are left */
    bool told;            /* the note that it is used up is printed */
};

/* A directory on the way to a denied path (an "anchor"), pinned at launch. */
struct entry_anchor {
    int fd; /* O_PATH | O_DIRECTORY, opened before the workload existed */
    dev_t dev;
    ino_t ino;
    bool write; /* in a writable root: the broker makes, renames and removes entries */
    bool list;  /* on the way to a read-denied path: the broker opens it for listing */
    /* Its entries that are denied or lead to a denied path: never made,
     * renamed, removed or replaced here (NULL-terminated). */
    const char *const *kept;
    /* Empty files made in it (O_TMPFILE) that the Landlock ruleset gives
     * every file right: a file the workload creates here becomes one of
     * them, so it is readable and writable afterwards; -1 when used. */
    int *pool;
    size_t pool_count;
    struct entry_dir_pool *dirs; /* the pool of directories of its mount, or NULL */
};

struct entry_anchors {
    struct entry_anchor *items;
    size_t count;
    struct entry_dir_pool *pools;
    size_t pool_count;
};

/* Answer `req` if it makes, renames, removes or lists an entry (open with
 * O_CREAT or O_DIRECTORY, mkdir, mknod, symlink, link, rename, unlink,
 * rmdir) and rules->anchors is set: in an anchor the broker acts itself,
 * elsewhere the call goes on in the workload (Landlock judges it).  False
 * if it is none of those calls. */
bool entry_broker_serve(int listener, const struct seccomp_notif *req, const struct connect_rules *rules);

/* Remove the directories left in each pool, and the pools: at the end
 * (the broker, once the workload and all it left are gone), or when the
 * launch fails after they were made (the supervisor).  Only empty
 * directories go, by name beneath the pool's descriptor. */
void entry_broker_remove_pools(const struct entry_anchors *as);

#define ENTRY_BROKER_MAX_FDS 512 /* anchors and pool files, all anchors together */
/* The descriptors the broker must keep open for `rules` (anchors and
 * their pools) into fds[] (at most max); returns how many there are. */
size_t entry_broker_fds(const struct connect_rules *rules, int *fds, size_t max);

#endif
