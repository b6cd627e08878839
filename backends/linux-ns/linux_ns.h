/*
 * linux_ns.h — internal interface between the files of the Linux
 * enforcement backend (backends/linux-ns).  Nothing here is seen by the core:
 * the core only knows the descriptor in backend.c.
 *
 * One file, one responsibility:
 *   backend.c        the descriptor and the order of the steps
 *   userns.c         clone into the namespaces, uid/gid maps, lifeline
 *   mount_policy.c   the filesystem policy as mounts
 *   denial_anchor.c  the directories on the way to a denied path made mount
 *                    points (no rename can carry a denial away)
 *   mount_ops.c      mount primitives (mount_setattr API and legacy fallback)
 *   safe_path.c      symlink-free path resolution to O_PATH descriptors
 *   dev.c            a private, minimal /dev
 *   kernel_fs.c      procfs, sysfs, cgroupfs, ... read-only for any caller
 *   host_ipc.c       host socket masks, which sockets the connect() check
 *                    lets through
 *   scratch_tmp.c    the policy's scratch: private tmpfs on /tmp, /var/tmp
 *   netns.c          the network namespace: created by the workload while
 *                    the init mounts, joined by the init, `lo` up
 *   kernel_diag.c    why the kernel refused, and the fix
 * The process sequence (supervised_fork.c), PID 1's life, the connect()
 * broker, capabilities, descriptors and the seccomp programs are
 * linux-common's (backends/linux-common).
 */
#ifndef HAS_LINUX_NS_H
#define HAS_LINUX_NS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "backend.h"
#include "brokers/socket_grant.h"
#include "linux_common.h"

/* Environment variable (read from the supervisor's own environment) that
 * forces the legacy bind-remount path even where mount_setattr(2) exists. */
#define LINUX_NS_FORCE_LEGACY_ENV "HAS_FORCE_LEGACY_MOUNT"

struct linux_ns_state {
    bool sandbox;       /* false for full_access: no namespaces at all */
    bool netns;         /* a private network namespace (lo only) */
    bool legacy_mounts; /* bind-remount instead of mount_setattr */
    uid_t uid;          /* caller's ids, mapped to themselves inside */
    gid_t gid;
    int link;     /* workload side of the init/workload socket pair */
    bool in_view; /* the workload: the init said "go" (the sandbox is finished) */
    /* network.allowedUnixSockets, resolved in prepare(): the init's connect()
     * check lets them through, and their masks are left out. */
    struct socket_grants sockets;
};

/* Errors: every function below that can fail writes one line into
 * err[errlen] (cause, path, fix) and returns -1. */

/* userns.c */
/* Clone into the namespaces: supervised_fork's split (the child's pid in
 * the parent, 0 in the child, -1 on failure in the parent). */
pid_t userns_clone(char *err, size_t errlen);
/* In the child: die with the supervisor, write the id maps. */
int userns_child_setup(const struct linux_ns_state *st, char *err, size_t errlen);
/* In the child, before the workload is forked: a session of its own (no
 * controlling terminal, out of the caller's process group), a hostname. */
int userns_init_session(char *err, size_t errlen);
/* --explain: the launch's clone, its init's id maps, limits, session and hostname,
 * and its first mount, in a child that then exits; nothing else is built.
 * 0, or -1 with the message the launch would fail with. */
int userns_probe(const struct linux_ns_state *st, char *err, size_t errlen);

/* userns_limits.c */
/* Before the clone: read the caller's /proc/sys/user/max_* and work out the
 * sandbox's share of each. */
int userns_limits_read(char *err, size_t errlen);
/* In the child, with its capabilities: write them into its user namespace
 * (the init, once the workload is forked: before "go", while the workload
 * makes the network namespace). */
int userns_limits_write(char *err, size_t errlen);
/* --explain: one "shared" item per counter, as the launch would set it. */
enum sandbox_result userns_limits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out);

/* mount_policy.c */
/* A copy of `list` (plus `extra`, if not NULL) in path order, duplicates
 * and paths beneath another entry left out (policy_paths_prune): one mount
 * covers them all, so the number of mounts is bounded by the distinct paths
 * (40,000 copies of one path once held the kernel's mount lock for most of
 * a minute).  NULL-terminated; free() the array only.  NULL: out of memory. */
const char **mount_policy_merged(const struct string_list *list, const char *extra);
/* The writable roots, merged: the cwd (workspace_write, auto) and
 * allowedWritePaths.  NULL-terminated; free() the array only. */
const char **mount_policy_roots(const struct sandbox_ctx *ctx);
int mount_policy_apply(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, char *err,
                       size_t errlen);
/* After the init joined the sandbox's network namespace: its own sysfs. */
int mount_policy_sysfs(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, char *err,
                       size_t errlen);

/* kernel_fs.c (needs mount_ops.h for struct sp_node) */
struct sp_node;
/* Each top-level global entry of root_fd's /proc that is masked: a regular
 * file only its owner may read and nobody write, now; fn gets /proc's
 * descriptor and the name, nonzero stops.  0, fn's nonzero, or -1 with err. */
typedef int (*kernel_fs_proc_fn)(int proc_fd, const char *name, void *arg);
int kernel_fs_each_proc_masked(int root_fd, kernel_fs_proc_fn fn, void *arg, char *err, size_t errlen);
/* Whether a caller of `uid` gets those masks: only a root caller's uid 0
 * inside owns them; any other caller's workload is refused them by the
 * kernel (no capability, uid 0 unmapped). */
bool kernel_fs_masks_proc(uid_t caller_uid);
/* The private procfs's owner-only global files masked. */
int kernel_fs_mask_proc(int root_fd, const struct sp_node *devnull, bool legacy, char *err, size_t errlen);
/* Every writable kernel-filesystem mount of the view (outside the private
 * /proc and /dev) made read-only, each reached by its mount point from
 * root_fd; one that cannot be, or that its path no longer leads to (a
 * rename meanwhile), fails. */
int kernel_fs_read_only(int root_fd, bool legacy, char *err, size_t errlen);
/* A fresh read-only sysfs on /sys, once the init is in the sandbox's own
 * network namespace (it lists that namespace's devices). */
int kernel_fs_own_sysfs(int root_fd, char *err, size_t errlen);
/* With the host's sysfs: its cgroup tree covered by an empty tmpfs. */
int kernel_fs_hide_cgroups(int root_fd, char *err, size_t errlen);

/* scratch_tmp.c: with the policy's "scratch", a private tmpfs of its size,
 * mode 1777, owned by the caller, on /tmp and on /var/tmp (if it is a
 * directory); a working directory or writable root beneath them is refused. */
int scratch_tmp_mount(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, int root_fd, char *err,
                      size_t errlen);
/* What scratch_tmp_mount() will do (--explain uses it too): the directories
 * beneath `root_fd` that get the tmpfs (/var/tmp only if a directory; none
 * without "scratch"), or -1 and the launch's refusal in `err`. */
struct scratch_plan {
    const char *dirs[2];
    size_t count;
    unsigned long long size_bytes;
};
int scratch_tmp_decide(const struct sandbox_ctx *ctx, int root_fd, struct scratch_plan *out, char *err,
                       size_t errlen);
/* The planned scratch directory at or above `path`, or NULL. */
const char *scratch_tmp_covering(const struct scratch_plan *plan, const char *path);

/* denial_anchor.c: make every directory between a writable root (`roots`,
 * NULL-terminated) and a denied path a mount point, so that no rename or
 * exchange can move a denial; refuse a denied file with other hard links. */
struct sp_root;
int denial_anchors(struct sp_root *at, bool legacy, const char *const *roots, const struct policy *p,
                   char *err, size_t errlen);

/* backend.c: what prepare() refuses for this policy (NULL: nothing), and
 * whether the mounts take the legacy path (for --explain too). */
const char *linux_ns_unenforceable(const struct policy *p);
bool linux_ns_legacy_mounts(void);

/* explain.c: the hook for --explain (backend.h). */
enum sandbox_result ns_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out);

/* netns.c */
/* Workload side, before anything else: unshare(CLONE_NEWNET), bring lo up,
 * and return the namespace as a descriptor in *nsfd. */
int netns_create(int *nsfd, char *err, size_t errlen);
/* Workload side: send one message to the init, carrying `nsfd` (-1: none). */
int netns_send(int sock, int nsfd, char *err, size_t errlen);
/* Init side: receive that message and, if `join`, setns() into the
 * namespace it carries.  Returns 1 when the workload exited without sending
 * (it reported its own error). */
int netns_receive_join(int sock, bool join, char *err, size_t errlen);

/* kernel_diag.c: a one-line explanation of why creating or using the user
 * namespace failed with `error`, including the fix, and the build's other
 * sandbox backends as the other way out (ctx->alternatives, given once to
 * kernel_diag_set_alternatives() in prepare()). */
void kernel_diag_set_alternatives(const char *text);
void kernel_diag_userns(const char *step, int error, char *buf, size_t buflen);

#endif
