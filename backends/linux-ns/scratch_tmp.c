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

/* The page the inode bound is counted in (derived, not the machine's). */
#define SCRATCH_BYTES_PER_INODE 4096ull

static int hidden_path(const char *field, const char *path, const char *dir, char *err, size_t errlen)
{
    snprintf(err, errlen, "scratch: %s %s is at or beneath %s, which the private scratch %s replaces; "
             "move it elsewhere or leave out \"scratch\"", field, path, dir, dir);
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

static int mount_one(int root_fd, const char *dir, const char *data, bool required, char *err, size_t errlen)
{
    struct sp_node node;
    int e = safe_path_open(root_fd, dir + 1, &node);
    if (e == 0 && !S_ISDIR(node.st.st_mode)) {
        safe_path_close(&node);
        e = -ENOTDIR;
    }
    if (e != 0 && !required)
        return 0; /* absent, or a symlink: nothing of the host to replace */
    if (e != 0) {
        snprintf(err, errlen, "scratch: %s cannot be the mount point of the private scratch: %s", dir,
                 strerror(-e));
        return -1;
    }
    int rc = mnt_new("tmpfs", &node, MS_NOSUID | MS_NODEV, data, dir, err, errlen);
    safe_path_close(&node);
    return rc;
}

int scratch_tmp_mount(const struct linux_ns_state *st, const struct sandbox_ctx *ctx, int root_fd,
                      char *err, size_t errlen)
{
    const struct policy_scratch *s = &ctx->policy->scratch;
    if (!s->requested)
        return 0;
    if (check_not_hidden(ctx, err, errlen) != 0)
        return -1;
    char data[160];
    snprintf(data, sizeof data, "mode=1777,size=%llu,nr_inodes=%llu,uid=%lu,gid=%lu", s->size_bytes,
             s->size_bytes / SCRATCH_BYTES_PER_INODE, (unsigned long)st->uid, (unsigned long)st->gid);
    for (size_t d = 0; d < SCRATCH_DIRS; d++)
        if (mount_one(root_fd, scratch_dirs[d], data, d == 0, err, errlen) != 0)
            return -1;
    return 0;
}
