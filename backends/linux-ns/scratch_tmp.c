/*
 * scratch_tmp.c — the policy's "scratch": a private, empty, size-bounded
 * tmpfs on /tmp and one on /var/tmp, made by the init in the sandbox's mount
 * namespace and gone with it (README.md, "Policy").
 *
 * Each is a tmpfs like /dev/shm (dev.c): mnt_new() onto the O_PATH
 * descriptor of the directory, never a path resolved twice.  Mode 1777 like
 * any /tmp, owned by the caller (uid=, gid=: the init's own ids, which the
 * workload keeps), nosuid and nodev; programs may run from it (JNI libraries,
 * test binaries).  `size` is scratch.sizeBytes and `nr_inodes` one per 4 KiB
 * of it (no file is smaller than a page), so empty files cannot pin
 * unbounded kernel memory either.  The pages are charged to the writer's
 * memory cgroup, like any tmpfs.
 *
 * The host's /tmp is then out of sight: a working directory or a writable
 * root at or beneath /tmp or /var/tmp would name a directory the sandbox no
 * longer sees, and is refused (125) rather than silently replaced.  /var/tmp
 * that does not exist or is a symlink (to /tmp, on some systems) is left as
 * it is.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "linux_ns.h"
#include "mount_ops.h"

static const char *const scratch_dirs[] = {"/tmp", "/var/tmp"};
#define SCRATCH_DIRS (sizeof scratch_dirs / sizeof scratch_dirs[0])
_Static_assert(SCRATCH_DIRS == sizeof((struct scratch_plan *)0)->dirs / sizeof(const char *),
               "struct scratch_plan holds every scratch directory");

/* The page the inode bound is counted in (derived, not the machine's). */
#define SCRATCH_BYTES_PER_INODE 4096ull

static int hidden_path(const char *field, const char *path, const char *dir, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "scratch: %s %s is at or beneath %s, which the private scratch %s replaces; "
             "move it elsewhere or leave out \"scratch\"",
             field, path, dir, dir);
    return -1;
}

/* Refuse what the scratch directories would hide. */
static int check_not_hidden(const struct sandbox_ctx *ctx, char *err, size_t errlen)
{
    const struct string_list *w = &ctx->policy->allowed_write_paths;
    for (size_t d = 0; d < SCRATCH_DIRS; d++) {
        if (policy_path_at_or_beneath(ctx->cwd, scratch_dirs[d]))
            return hidden_path("the working directory", ctx->cwd, scratch_dirs[d], err, errlen);
        for (size_t i = 0; i < w->count; i++)
            if (policy_path_at_or_beneath(w->items[i], scratch_dirs[d]))
                return hidden_path("allowedWritePaths entry", w->items[i], scratch_dirs[d], err, errlen);
    }
    return 0;
}

/* The directory `dir` (absolute) beneath `root_fd`, if it is one: 0, or -errno. */
static int open_mount_point(int root_fd, const char *dir, struct sp_node *node)
{
    int e = safe_path_open(root_fd, dir + 1, node);
    if (e == 0 && !S_ISDIR(node->st.st_mode)) {
        safe_path_close(node);
        e = -ENOTDIR;
    }
    return e;
}

int scratch_tmp_decide(const struct sandbox_ctx *ctx, int root_fd, struct scratch_plan *out, char *err,
                       size_t errlen)
{
    *out = (struct scratch_plan){.size_bytes = ctx->policy->scratch.size_bytes};
    if (!ctx->policy->scratch.requested)
        return 0;
    if (check_not_hidden(ctx, err, errlen) != 0)
        return -1;
    for (size_t d = 0; d < SCRATCH_DIRS; d++) {
        struct sp_node node;
        int e = open_mount_point(root_fd, scratch_dirs[d], &node);
        if (e == 0) {
            safe_path_close(&node);
            out->dirs[out->count++] = scratch_dirs[d];
        } else if (d == 0) { /* /tmp is required */
            snprintf(err, errlen, "scratch: %s cannot be the mount point of the private scratch: %s",
                     scratch_dirs[d], strerror(-e));
            return -1;
        } /* else absent, or a symlink: nothing of the host to replace */
    }
    return 0;
}

const char *scratch_tmp_covering(const struct scratch_plan *plan, const char *path)
{
    for (size_t d = 0; d < plan->count; d++)
        if (policy_path_at_or_beneath(path, plan->dirs[d]))
            return plan->dirs[d];
    return NULL;
}

static int mount_one(int root_fd, const char *dir, const char *data, char *err, size_t errlen)
{
    struct sp_node node;
    int e = open_mount_point(root_fd, dir, &node);
    if (e != 0) {
        snprintf(err, errlen, "scratch: %s cannot be the mount point of the private scratch: %s", dir,
                 strerror(-e));
        return -1;
    }
    int rc = mnt_new("tmpfs", &node, MS_NOSUID | MS_NODEV, data, dir, err, errlen);
    safe_path_close(&node);
    return rc;
}

int scratch_tmp_mount(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, int root_fd, char *err,
                      size_t errlen)
{
    struct scratch_plan plan;
    if (scratch_tmp_decide(ctx, root_fd, &plan, err, errlen) != 0)
        return -1;
    char data[160];
    snprintf(data, sizeof data, "mode=1777,size=%llu,nr_inodes=%llu,uid=%lu,gid=%lu", plan.size_bytes,
             plan.size_bytes / SCRATCH_BYTES_PER_INODE, (unsigned long)st->uid, (unsigned long)st->gid);
    for (size_t d = 0; d < plan.count; d++) /* a planned one gone since is refused, not skipped */
        if (mount_one(root_fd, plan.dirs[d], data, err, errlen) != 0)
            return -1;
    return 0;
}
