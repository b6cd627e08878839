/*
 * mount_policy.c — the filesystem policy (README.md, "Policy") as mounts, built by the
 * namespace init in its own mount namespace before the workload exists.
 *
 * Order (later mounts sit on top of earlier ones, which is how "denials win
 * over grants" is realised):
 *   1. everything recursively private (nothing propagates to the host);
 *   2. the whole tree read-only (unless "/" itself is a writable root) and
 *      nodev (always: no host device node opens outside the private /dev);
 *   3. a private minimal /dev (dev.c) and a private, read-only procfs for
 *      the new PID namespace, owner-only files masked for a root caller
 *      (kernel_fs.c) — before
 *      the policy paths, so that a denial under /proc or /dev lands on what
 *      the workload sees;
 *   4. writable roots, parents before children, bound writable, and the
 *      private /dev's nodes read-only again under a root covering them;
 *      the policy's scratch tmpfs on /tmp and /var/tmp (scratch_tmp.c:
 *      after the roots, so a writable "/" cannot cover it); then every
 *      kernel filesystem the roots brought back writable made read-only again,
 *      and the directories between them and each denial pinned
 *      (denial_anchor.c);
 *   5. write-denied paths bound read-only (recursively) over them;
 *   6. read-denied paths masked: a directory by one shared empty, mode 000,
 *      read-only tmpfs bound over each (one tmpfs, n binds: the cheapest mask
 *      there is), anything else by /dev/null;
 *   7. host sockets named by the environment masked (host_ipc.c), and
 *      /proc/keys;
 *   8. once the init is in the sandbox's network namespace: a fresh sysfs
 *      (mount_policy_sysfs), and the read denials beneath /sys again.
 * Each path list is merged first: duplicates and paths beneath another
 * entry of the same list add no mount.  A path at or beneath the working
 * directory is resolved from the directory the core holds, found at its
 * name and checked to be it (sp_root, mount_ops.h): a rename of it during
 * set-up fails the launch instead of moving a grant or a denial.
 * The workload then chdir()s to its working directory again (backend.c), so
 * `./file` resolves through the new mounts.
 *
 * /tmp and /run are read-only like the rest (unless "scratch"); the host's sockets anywhere
 * are closed by the connect() check (connect_broker.c), not by the view.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host_ipc.h"
#include "linux_ns.h"
#include "mount_ops.h"
#include "mount_shape.h"

struct view {
    int root_fd;
    bool legacy;
    struct sp_root at; /* the working directory by identity (mount_ops.h) */
};

static int resolve_error(const char *field, const char *path, int error, char *err, size_t errlen)
{
    return path_resolve_error(field, path, error,
                              "a link planted in a writable root could redirect the mount", err, errlen);
}

/* Whether the bind just made on `node` can hold a writable kernel
 * filesystem: it is one, or it brought mounts with it.  True when the
 * kernel cannot say, and on the legacy path (kernel_fs_read_only() then
 * looks at every mount). */
static bool bind_may_hold_kernel_fs(const struct view *v, const struct sp_node *node)
{
    if (v->legacy)
        return true;
    int top = safe_path_reopen(node); /* the bind's root: its mount point is crossed */
    char fstype[64];
    bool submounts = true;
    bool known = top >= 0 && mount_shape(top, fstype, sizeof fstype, &submounts) == 0;
    if (top >= 0)
        close(top);
    return !known || submounts || mount_is_host_object_fs(fstype);
}

/* Bind `path` over itself, writable or read-only; *kernel_fs (if not
 * NULL) becomes true when the bind may hold a kernel filesystem. */
static int bind_in_place(struct view *v, const char *field, const char *path, enum bind_mode mode,
                         bool *kernel_fs, char *err, size_t errlen)
{
    struct sp_node node;
    int e = sp_root_open(&v->at, path, &node);
    if (e != 0)
        return resolve_error(field, path, -e, err, errlen);
    int rc = mnt_bind(v->legacy, &node, &node, mode, path, err, errlen);
    if (rc == 0 && kernel_fs && bind_may_hold_kernel_fs(v, &node))
        *kernel_fs = true;
    safe_path_close(&node);
    if (rc != 0) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, " (%s)", field);
    }
    return rc;
}

const char **mount_policy_merged(const struct string_list *list, const char *extra)
{
    const char **out = calloc(list->count + 2, sizeof *out);
    if (!out)
        return NULL;
    size_t n = 0;
    if (extra)
        out[n++] = extra;
    for (size_t i = 0; i < list->count; i++)
        out[n++] = list->items[i];
    out[policy_paths_prune(out, n)] = NULL;
    return out;
}

const char **mount_policy_roots(const struct sandbox_ctx *ctx)
{
    const struct policy *p = ctx->policy;
    return mount_policy_merged(&p->allowed_write_paths, policy_mode_writes_cwd(p->mode) ? ctx->cwd : NULL);
}

/* The writable roots; *kernel_fs: whether one of them may hold a kernel
 * filesystem, now writable. */
static int writable_roots(struct view *v, const struct sandbox_ctx *ctx, const char **roots, bool *kernel_fs,
                          char *err, size_t errlen)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && roots[i]; i++) {
        if (strcmp(roots[i], "/") == 0)
            continue; /* the root was left writable */
        /* The private procfs is read-only as a whole, so no write there is
         * granted anyway; a bind would only make its /dev/null masks
         * writable (the host's /dev/null inode). */
        if (policy_path_at_or_beneath(roots[i], "/proc"))
            continue;
        const char *field =
            roots[i] == ctx->cwd ? "working directory (the workspace write root)" : "allowedWritePaths";
        rc = bind_in_place(v, field, roots[i], BIND_RW, kernel_fs, err, errlen);
    }
    return rc;
}

static int write_denials(struct view *v, const struct policy *p, char *err, size_t errlen)
{
    sp_root_forget(&v->at); /* resolved again, through the anchors */
    const char **paths = mount_policy_merged(&p->denied_write_paths, NULL);
    if (!paths) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && paths[i]; i++)
        rc = bind_in_place(v, "deniedWritePaths", paths[i], BIND_RO, NULL, err, errlen);
    free(paths);
    return rc;
}

/* The shared directory mask: mounted once on the first masked directory,
 * then bound from there onto every other one. */
static int dir_mask(const struct view *v, struct sp_node *mask, const struct sp_node *dst, const char *path,
                    char *err, size_t errlen)
{
    if (mask->fd >= 0)
        return mnt_bind(v->legacy, mask, dst, BIND_KEEP, path, err, errlen);
    if (mnt_new("tmpfs", dst, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=000,size=4k,nr_inodes=2",
                path, err, errlen) != 0)
        return -1;
    int fd = safe_path_reopen(dst);
    if (fd < 0 || fstat(fd, &mask->st) != 0) {
        snprintf(err, errlen, "%s: cannot open the mask just mounted: %s", path,
                 strerror(fd < 0 ? -fd : errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    mask->fd = fd;
    return 0;
}

/* A read-denied path: beneath the working directory from it (one cache
 * for those, one for the rest of the tree: each keyed by its base). */
static int open_read_denied(struct view *v, const char *path, struct sp_dir_cache cache[2],
                            struct sp_node *dst)
{
    const char *cwd = v->at.cwd;
    if (!cwd || !policy_path_at_or_beneath(path, cwd))
        return safe_path_open_cached(v->root_fd, path + 1, &cache[0], dst);
    size_t n = strlen(cwd);
    int base = path[n] ? sp_root_cwd(&v->at) : -1;
    if (!path[n] || base < 0)
        return path[n] ? base : sp_root_open(&v->at, path, dst);
    return safe_path_open_cached(base, path + n + 1, &cache[1], dst);
}

/* Mask the read-denied paths (only those beneath `within`, if not NULL). */
static int read_denials(struct view *v, const struct policy *p, const struct sp_node *devnull,
                        const char *within, char *err, size_t errlen)
{
    sp_root_forget(&v->at);
    const char **paths = mount_policy_merged(&p->denied_read_paths, NULL);
    if (!paths) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct sp_node mask = {.parent = -1, .fd = -1};
    struct sp_dir_cache cache[2] = {{.fd = -1}, {.fd = -1}};
    int rc = 0;
    for (size_t i = 0; rc == 0 && paths[i]; i++) {
        if (within && !policy_path_at_or_beneath(paths[i], within))
            continue;
        if (strcmp(paths[i], "/") == 0) {
            snprintf(err, errlen,
                     "deniedReadPaths: \"/\" cannot be masked (nothing could run); "
                     "use a narrower path");
            rc = -1;
            break;
        }
        struct sp_node dst;
        int e = open_read_denied(v, paths[i], cache, &dst);
        if (e == -ENOENT || e == -ENOTDIR)
            continue; /* absent (or already under a mask): nothing to hide */
        if (e != 0) {
            rc = resolve_error("deniedReadPaths", paths[i], -e, err, errlen);
            break;
        }
        if (S_ISDIR(dst.st.st_mode))
            rc = dir_mask(v, &mask, &dst, paths[i], err, errlen);
        else
            rc = mnt_bind(v->legacy, devnull, &dst, BIND_KEEP, paths[i], err, errlen);
        safe_path_close(&dst);
    }
    if (mask.fd >= 0)
        close(mask.fd);
    safe_path_cache_close(&cache[0]);
    safe_path_cache_close(&cache[1]);
    sp_root_forget(&v->at);
    free(paths);
    return rc;
}

static int open_devnull(int root_fd, struct sp_node *out, char *err, size_t errlen)
{
    int e = safe_path_open(root_fd, "dev/null", out);
    if (e == 0 && S_ISCHR(out->st.st_mode) && out->st.st_rdev == makedev(1, 3))
        return 0;
    if (e == 0)
        safe_path_close(out);
    snprintf(err, errlen, "/dev/null is missing or is not the null device; it is needed to mask files");
    return -1;
}

static int private_proc(int root_fd, char *err, size_t errlen)
{
    struct sp_node proc;
    int e = safe_path_open(root_fd, "proc", &proc);
    if (e != 0) {
        snprintf(err, errlen, "/proc: %s", strerror(-e));
        return -1;
    }
    /* Read-only as a whole (superblock too, so no later bind makes it
     * writable): the uid-checked writes of a root caller's uid 0 to
     * core_pattern, sysrq-trigger & co. are refused before any (kernel_fs.c). */
    int rc = mnt_new("proc", &proc, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, "/proc", err, errlen);
    if (rc != 0 && errno == EPERM) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n,
                 "; the kernel refuses a new procfs while parts of /proc are masked "
                 "(a container's default /proc masks): run the container with "
                 "--security-opt systempaths=unconfined");
    }
    safe_path_close(&proc);
    return rc;
}

/* /proc/keys lists the descriptions of every key the caller's uid may view
 * (other sessions' keyrings, Kerberos cache names); the keyctl family is
 * refused anyway, the list goes too. */
static int mask_proc_keys(const struct view *v, const struct sp_node *devnull, char *err, size_t errlen)
{
    struct sp_node keys;
    if (safe_path_open(v->root_fd, "proc/keys", &keys) != 0)
        return 0; /* CONFIG_KEYS=n */
    int rc = mnt_bind(v->legacy, devnull, &keys, BIND_KEEP, "/proc/keys", err, errlen);
    safe_path_close(&keys);
    return rc;
}

static bool root_is_writable_root(const char **roots)
{
    for (size_t i = 0; roots[i]; i++)
        if (strcmp(roots[i], "/") == 0)
            return true;
    return false;
}

static void close_view(struct view *v)
{
    sp_root_forget(&v->at);
    if (v->root_fd >= 0)
        close(v->root_fd);
}

/* The /dev/null the masks are cloned from, again: the private /dev's own
 * (the host's is on a nodev mount now). */
static int reopen_devnull(const struct view *v, struct sp_node *devnull, char *err, size_t errlen)
{
    safe_path_close(devnull);
    return open_devnull(v->root_fd, devnull, err, errlen);
}

/* The view the mounts are made in: "/" and /dev/null, held open. */
static int open_view(struct view *v, const struct sandbox_ctx *ctx, bool legacy, struct sp_node *devnull,
                     char *err, size_t errlen)
{
    *v = (struct view){.legacy = legacy};
    *devnull = (struct sp_node){.parent = -1, .fd = -1};
    v->root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    sp_root_init(&v->at, v->root_fd, ctx);
    if (v->root_fd < 0) {
        snprintf(err, errlen, "cannot open /: %s", strerror(errno));
        return -1;
    }
    return open_devnull(v->root_fd, devnull, err, errlen);
}

/*
 * Developer builds only (a module, HAS_BACKEND_MODULE): HAS_TEST_SKIP_READ_DENIALS=1
 * in the supervisor's own environment leaves out the read-denied masks, so
 * tests/landlock/layered.sh can show that a second boundary layered inside
 * (landlock) still denies those reads.  Release binaries have no switch.
 */
static bool test_skips_read_denials(void)
{
#ifdef HAS_BACKEND_MODULE
    const char *skip = getenv("HAS_TEST_SKIP_READ_DENIALS");
    return skip && strcmp(skip, "1") == 0;
#else
    return false;
#endif
}

/* The private /dev and /proc in a read-only tree.  Device nodes anywhere
 * but the private /dev are unusable: a bind of the host's /dev or a
 * chroot's devtmpfs would otherwise give a root caller's workload the
 * host's devices (/dev/kvm, the consoles) by file mode alone. */
static int private_dev_and_proc(const struct linux_ns_state *st, const struct sandbox_ctx *ctx,
                                struct view *v, struct sp_node *devnull, bool root_writable, char *err,
                                size_t errlen)
{
    if (mnt_tree_restrict(v->legacy, v->root_fd, root_writable, err, errlen) != 0 ||
        private_dev(v->root_fd, v->legacy, &ctx->policy->devices, err, errlen) != 0 ||
        /* every mask from now on is a clone of the private /dev/null */
        reopen_devnull(v, devnull, err, errlen) != 0 || private_proc(v->root_fd, err, errlen) != 0 ||
        (kernel_fs_masks_proc(st->uid) &&
         kernel_fs_mask_proc(v->root_fd, devnull, v->legacy, err, errlen) != 0))
        return -1;
    return 0;
}

/* The policy's writable roots and the scratch tmpfs; then the kernel file
 * systems they may have made writable, read-only again. */
static int writable_parts(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, struct view *v,
                          const char **roots, bool kernel_fs, char *err, size_t errlen)
{
    if (writable_roots(v, ctx, roots, &kernel_fs, err, errlen) != 0 ||
        private_dev_nodes_read_only(v->root_fd, v->legacy, roots, &ctx->policy->devices, err, errlen) != 0 ||
        scratch_tmp_mount(st, ctx, v->root_fd, err, errlen) != 0 ||
        /* after the writable roots: one may be or hold a procfs or sysfs
         * mount.  Only they can have made one writable (the rest of the
         * tree is read-only, /dev and /proc are ours, the scratch tmpfs is
         * new): when none can, the whole table need not be read */
        (kernel_fs && kernel_fs_read_only(v->root_fd, v->legacy, err, errlen) != 0) ||
        (!st->netns && kernel_fs_hide_cgroups(v->root_fd, err, errlen) != 0))
        return -1;
    return 0;
}

/* The denied paths, the host's IPC sockets and /proc/keys, masked. */
static int masks(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, struct view *v,
                 struct sp_node *devnull, const char **roots, char *err, size_t errlen)
{
    const struct policy *p = ctx->policy;
    if (denial_anchors(&v->at, v->legacy, roots, p, err, errlen) != 0 ||
        write_denials(v, p, err, errlen) != 0 ||
        (!test_skips_read_denials() && read_denials(v, p, devnull, NULL, err, errlen) != 0) ||
        host_ipc_mask_sockets(ctx, &st->sockets, devnull, v->legacy, err, errlen) != 0 ||
        mask_proc_keys(v, devnull, err, errlen) != 0)
        return -1;
    return 0;
}

int mount_policy_apply(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, char *err,
                       size_t errlen)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        /* The first mount: where a restricted user namespace (AppArmor) shows. */
        kernel_diag_userns("cannot make the mount namespace private", errno, err, errlen);
        return -1;
    }
    struct view v;
    struct sp_node devnull;
    int rc = -1;
    const char **roots = NULL;
    if (open_view(&v, ctx, st->legacy_mounts, &devnull, err, errlen) != 0)
        goto out;
    if (!(roots = mount_policy_roots(ctx))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    /* With "/" writable every host mount stays writable. */
    bool root_writable = root_is_writable_root(roots);
    if (private_dev_and_proc(st, ctx, &v, &devnull, root_writable, err, errlen) != 0 ||
        writable_parts(st, ctx, &v, roots, root_writable, err, errlen) != 0 ||
        masks(st, ctx, &v, &devnull, roots, err, errlen) != 0)
        goto out;
    rc = 0;
out:
    free(roots);
    safe_path_close(&devnull);
    close_view(&v);
    return rc;
}

int mount_policy_sysfs(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, char *err,
                       size_t errlen)
{
    if (!st->netns)
        return 0; /* the host's sysfs stays (mount_policy_apply) */
    struct view v;
    struct sp_node devnull;
    int rc = -1;
    if (open_view(&v, ctx, st->legacy_mounts, &devnull, err, errlen) == 0 &&
        kernel_fs_own_sysfs(v.root_fd, err, errlen) == 0 &&
        /* the masks under /sys were made on the sysfs now covered */
        read_denials(&v, ctx->policy, &devnull, "/sys", err, errlen) == 0)
        rc = 0;
    safe_path_close(&devnull);
    close_view(&v);
    return rc;
}
