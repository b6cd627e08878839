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

/* A directory on the way to a denied path (an "anchor"), pinned at launch. */
struct entry_anchor {
    int fd;                     /* O_PATH | O_DIRECTORY, opened before the workload existed */
    dev_t dev;
    ino_t ino;
    bool write;                 /* in a writable root: the broker makes, renames and removes entries */
    bool list;                  /* on the way to a read-denied path: the broker opens it for listing */
    /* Its entries that are denied or lead to a denied path: never made,
     * renamed, removed or replaced here (NULL-terminated). */
    const char *const *kept;
    /* Empty files made in it (O_TMPFILE) that the Landlock ruleset gives
     * every file right: a file the workload creates here becomes one of
     * them, so it is readable and writable afterwards; -1 when used. */
    int *pool;
    size_t pool_count;
};

struct entry_anchors {
    struct entry_anchor *items;
    size_t count;
};

/* Answer `req` if it makes, renames, removes or lists an entry (open with
 * O_CREAT or O_DIRECTORY, mkdir, mknod, symlink, link, rename, unlink,
 * rmdir) and rules->anchors is set: in an anchor the broker acts itself,
 * elsewhere the call goes on in the workload (Landlock judges it).  False
 * if it is none of those calls. */
bool entry_broker_serve(int listener, const struct seccomp_notif *req, const struct connect_rules *rules);

#define ENTRY_BROKER_MAX_FDS 512 /* anchors and pool files, all anchors together */
/* The descriptors the broker must keep open for `rules` (anchors and
 * their pools) into fds[] (at most max); returns how many there are. */
size_t entry_broker_fds(const struct connect_rules *rules, int *fds, size_t max);

#endif
