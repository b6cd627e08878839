/*
 * landlock.h — internal interface between the files of the landlock
 * backend (backends/landlock/README.md).  The core sees only the
 * descriptor in backend.c.
 *
 *   backend.c        the descriptor and the order of the steps
 *   fs_lists.c       the paths of the filesystem policy, merged and checked
 *   fs_ruleset.c     the filesystem policy as one Landlock ruleset
 *   fs_anchors.c     the directories on the way to a denial, for the broker
 *   fs_dir_pool.c    the directories a directory made in one of them becomes
 *   socket_rules.c   what the connect() broker lets through
 *   device_fence.c   device nodes outside /dev, refused by number
 * The broker, capabilities, descriptors and the seccomp programs are
 * linux-common's (backends/linux-common).
 *
 * Errors: every function that can fail writes one line into err[errlen]
 * (cause, path, fix) and returns -1.
 */
#ifndef HAS_LANDLOCK_H
#define HAS_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "backend.h"
#include "brokers/entry_broker.h"
#include "brokers/socket_grant.h"
#include "devices/device_filter.h"
#include "devices/device_grant.h"
#include "limits/sandbox_limits.h"
#include "linux_common.h"
#include "policy_paths.h"

/* The paths the policy's filesystem rules are made of (each list
 * NULL-terminated). */
struct fs_lists {
    const char **writable; /* writable roots, the workspace included */
    const char *workspace; /* the one that is the working directory, or NULL */
    /* The working directory by identity (backend.h, cwd_fd), whatever the
     * mode: the walks accept it at its name only, and nothing else there. */
    const char *cwd; /* NULL: none */
    dev_t cwd_dev;
    ino_t cwd_ino;
    int cwd_fd;                /* held by the core (O_PATH), or -1 */
    const char **write_denied; /* deniedWritePaths */
    const char **no_read;      /* deniedReadPaths */
    /* Where no write is granted: deniedWritePaths, deniedReadPaths, and the
     * kernel-interface and device mounts at or beneath a writable root. */
    const char **no_write;
    char **mounts; /* those mount points (owned) */
    size_t mount_count;
    const struct string_list *devices; /* the policy's devices (device_grant.h), or NULL: none */
};

/* fs_lists.c */
/* The lists for this policy, working directory and mount table
 * (malloc'd; free with fs_lists_free). */
int fs_lists_build(const struct sandbox_ctx *ctx, struct fs_lists *out, char *err, size_t errlen);
void fs_lists_free(struct fs_lists *l);
/* Refuse, as linux-ns does, a writable root or write-denied path that does
 * not exist, any policy path through a symbolic link, a denied file with
 * other hard links. */
int fs_lists_check(const struct fs_lists *l, char *err, size_t errlen);
/* `path` (absolute) as O_PATH, no symbolic link followed; -1 with errno
 * (ELOOP for a link). */
int fs_open_no_symlinks(const char *path);
/* The same for a policy path: one at or beneath the working directory is
 * opened from the held directory (l->cwd_fd), never through the names
 * above it. */
int fs_open_policy_path(const struct fs_lists *l, const char *path);

/* fs_anchors.c: the directories on the way to a denied path, pinned for
 * the broker (entry_broker.h). */
/* At most this many are pinned; beyond, a directory on the way stays as
 * Landlock alone leaves it (README). */
#define FS_MAX_ANCHORS 128
struct fs_anchors {
    struct entry_anchors set;
    char **paths; /* of each anchor, for messages and the pools' paths */
    bool plan;    /* noted only (fs_ruleset_plan): no descriptor kept */
};
int fs_anchors_init(struct fs_anchors *s);
/* Whether the directory `path` (normal form) is one of the anchors. */
bool fs_anchors_pinned(const struct fs_anchors *s, const char *path);
/* Directory `fd` (at `path`, stat `st`) is on the way to excl[0..n):
 * `write` in a writable root (the broker makes entries there; the names
 * leading to excl are kept), else on the way to a read denial (listed). */
int fs_anchors_note(struct fs_anchors *s, int fd, const struct stat *st, const char *path,
                    const char *const *excl, size_t n, bool write, char *err, size_t errlen);
/* Whether a file system of statfs type `type` may match names in another
 * case (a write anchor on one is refused). */
bool fs_type_folds_case(unsigned long type);
/* The write anchors' pools of unnamed files, each given `rights` in
 * `ruleset`. */
int fs_anchors_pools(struct fs_anchors *s, int ruleset, uint64_t rights, char *err, size_t errlen);
void fs_anchors_free_names(char **names);
/* fs_dir_pool.c: a pool of empty directories, each with `rights` in
 * `ruleset`, for each mount that holds a write anchor (entry_broker.h);
 * what was made is in s->set.pools even on failure (remove it with
 * entry_broker_remove_pools). */
int fs_dir_pools_make(struct fs_anchors *s, int ruleset, uint64_t rights, char *err, size_t errlen);
/* Close and free all (the supervisor after the fork; the workload's
 * harden() closes its copies with every other descriptor). */
void fs_anchors_close(struct fs_anchors *s);

/* fs_ruleset.c */
/* The entries of `list` (NULL-terminated) at or beneath `root` into out[],
 * pruned and in path order (policy_paths_prune): what a walk from `root`
 * must leave out.  Returns their count. */
size_t fs_paths_beneath(const char *root, const char *const *list, const char **out);
/* The file-system rights this ABI can handle, all of them. */
uint64_t fs_rights_handled(int abi);
/* Add the policy's rules to `ruleset`: reads beneath / but no_read,
 * writes beneath each writable root but no_write, the harmless devices
 * writable; the directories on the way to a denial into `anchors` (NULL:
 * not noted), with their pools. */
int fs_ruleset_add(int ruleset, int abi, const struct fs_lists *l, struct fs_anchors *anchors, char *err,
                   size_t errlen);
/* The same walks without a ruleset, for --explain: which directories the
 * broker would pin (into `plan`, initialised with plan->plan set) and the
 * refusals a launch would meet on the way; no rule, pool or descriptor is
 * made or kept. */
int fs_ruleset_plan(int abi, const struct fs_lists *l, struct fs_anchors *plan, char *err, size_t errlen);
/* What those rules give `path` (absolute, normal form): true when it may
 * be written (`write`) or read, and the rule that decides in rule[n].
 * `pinned`: the directories the broker pins (fs_ruleset_plan; none for a
 * launch without the broker). */
bool fs_ruleset_decide(const struct fs_lists *l, const struct fs_anchors *pinned, const char *path,
                       bool write, char *rule, size_t n);
/* Descriptor n (0-2) is the caller's terminal, granted to the workload
 * with the access it is open for (*read, *write). */
bool fs_own_terminal(int n, bool *read, bool *write);
/* The numbers of the devices the ruleset grants in /dev (the harmless
 * six, the caller's terminals, the policy's devices) into out[max]: how
 * many. */
size_t fs_granted_devices(const struct fs_lists *l, struct device_number *out, size_t max);

/* device_fence.c: device nodes outside /dev (README.md, "Design").
 * Apply, for a launch, with the launch's limits (its group); or say, for
 * --explain, how a launch would refuse them into text[len].  0, or -1 with
 * err: the launch is refused. */
int device_fence_apply(const struct sandbox_limits *l, const struct fs_lists *fs, char *err, size_t errlen);
int device_fence_describe(const struct fs_lists *fs, char *text, size_t len, char *err, size_t errlen);

/* backend.c: what prepare() refuses on this kernel for this policy, or
 * NULL (`layered`: inside another boundary; `abi`: landlock_abi()). */
const char *landlock_unenforceable(const struct policy *p, int abi, bool layered, char *buf, size_t size);

/* explain.c: the hook for --explain (backend.h). */
enum sandbox_result ll_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out);

/* socket_rules.c */
struct socket_policy {
    const struct fs_lists *fs;
    bool egress_open;            /* egress: true without a proxy */
    const unsigned short *ports; /* granted loopback ports (the proxy) */
    size_t port_count;
    const struct entry_anchors *anchors; /* its pools of directories are never the workload's to change */
    const struct socket_grants *granted; /* network.allowedUnixSockets, or NULL */
};
/* The broker's rules: a pathname socket granted by inode, or beneath a
 * writable root (and no denied path), no abstract address, TCP only to 127.0.0.1 at a granted
 * port (any destination when egress is open). */
void socket_rules_init(struct connect_rules *rules, const struct socket_policy *sp);

#endif
