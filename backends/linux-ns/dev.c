/*
 * dev.c — a private, minimal /dev.
 *
 * The host's /dev, even read-only, is a set of live device nodes: a pty of
 * the user's other terminal (/dev/pts/N is owned by the user: reading it
 * steals the keystrokes typed there, a sudo password included; writing it
 * spoofs output), block devices for members of the disk group, GPUs, sound.
 * A read-only mount does not stop opening a device.  So /dev is replaced, as
 * bubblewrap's --dev does, by a tmpfs holding only:
 *   null zero full random urandom tty   bound from the host nodes
 *   pts/ (a new devpts instance), ptmx -> pts/ptmx
 *   shm/ (a private tmpfs of 64 MiB, Docker's default: POSIX shared memory
 *        and semaphores; unbounded, it could take half the host's RAM)
 *   mqueue/ (the mqueue filesystem of the sandbox's own IPC namespace:
 *        POSIX message queues, bounded by RLIMIT_MSGQUEUE)
 *   fd stdin stdout stderr              symlinks into /proc/self/fd
 *   the policy's `devices`              bound from the host nodes, at their
 *                                       paths (device_grant.c judges them)
 * and is then made read-only.  The caller's own terminal stays reachable
 * through the inherited descriptors 0-2 and /dev/tty (its controlling
 * terminal), never by a /dev/pts name.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "devices/device_grant.h"
#include "host_ipc.h"
#include "linux_ns.h"
#include "mount_ops.h"

static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
#define DEV_NODES (sizeof dev_nodes / sizeof dev_nodes[0])

static const char *const dev_links[][2] = {
    {"fd", "/proc/self/fd"},       {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
    {"stderr", "/proc/self/fd/2"}, {"ptmx", "pts/ptmx"},
};

/*
 * Mount points in the new /dev are created here with O_EXCL (a name that
 * exists, a symlink included, fails) in a tmpfs that only this process has
 * written to, and the descriptor returned by that creation is the mount
 * target: nothing is looked up a second time.
 */

/* Create `name` in the new /dev and bind the host node over it. */
static int bind_node(int newdev, const struct sp_node *host, const char *name, const char *path, bool legacy,
                     char *err, size_t errlen)
{
    /* newdev and name: where the legacy path finds the bind again */
    struct sp_node dst = {.parent = newdev, .borrowed_parent = true};
    snprintf(dst.name, sizeof dst.name, "%s", name);
    dst.fd = openat(newdev, name, O_CREAT | O_EXCL | O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (dst.fd < 0) {
        snprintf(err, errlen, "%s: cannot create the mount point: %s", path, strerror(errno));
        return -1;
    }
    /* The rest of the tree is nodev by now (mount_policy.c): these are the
     * only device nodes the workload may open. */
    int rc = mnt_bind(legacy, host, &dst, BIND_DEVICE, path, err, errlen);
    close(dst.fd);
    return rc;
}

/* mkdir `name` in the new /dev and mount a fresh `type` there. */
static int sub_mount(int newdev, const char *name, mode_t mode, const char *type, const char *data, char *err,
                     size_t errlen)
{
    char path[64];
    snprintf(path, sizeof path, "/dev/%s", name);
    struct sp_node dir = {.parent = -1, .fd = -1};
    if (mkdirat(newdev, name, 0700) != 0 || fchmodat(newdev, name, mode, 0) != 0 ||
        (dir.fd = openat(newdev, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    int rc = mnt_new(type, &dir, MS_NOSUID | MS_NOEXEC, data, path, err, errlen);
    close(dir.fd);
    return rc;
}

/* The private /dev's own names, which no granted device may take. */
static bool own_name(const char *first, size_t n)
{
    static const char *const subs[] = {"pts", "shm", "mqueue"};
    for (size_t i = 0; i < DEV_NODES; i++)
        if (strlen(dev_nodes[i]) == n && strncmp(first, dev_nodes[i], n) == 0)
            return true;
    for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++)
        if (strlen(dev_links[i][0]) == n && strncmp(first, dev_links[i][0], n) == 0)
            return true;
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strlen(subs[i]) == n && strncmp(first, subs[i], n) == 0)
            return true;
    return false;
}

/* The directories of `rel` ("dri/renderD128") made in the new /dev, where
 * only this process writes: the last one's descriptor, its leaf in *leaf. */
static int make_parents(int newdev, const char *rel, const char **leaf)
{
    int dir = dup(newdev);
    const char *at = rel, *slash;
    char name[NAME_MAX + 1];
    while (dir >= 0 && (slash = strchr(at, '/'))) {
        snprintf(name, sizeof name, "%.*s", (int)(slash - at), at);
        if (mkdirat(dir, name, 0755) != 0 && errno != EEXIST) {
            close(dir);
            return -1;
        }
        int next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(dir);
        dir = next;
        at = slash + 1;
    }
    *leaf = at;
    return dir;
}

/* A granted device's host node, opened with no symbolic link followed and
 * judged as opened: the node bound is the node judged. */
static int open_granted(int olddev, const char *path, struct sp_node *host, char *err, size_t errlen)
{
    const char *rel = path + strlen("/dev/");
    if (own_name(rel, strcspn(rel, "/"))) {
        snprintf(err, errlen, "devices: %s is a name of the sandbox's own /dev", path);
        return -1;
    }
    int rc = safe_path_open(olddev, rel, host);
    if (rc != 0) {
        snprintf(err, errlen, "devices: %s: cannot open it without following a symbolic link: %s", path,
                 strerror(rc < 0 ? -rc : errno));
        return -1;
    }
    return device_grant_judge(path, &host->st, err, errlen);
}

/* Bound at its path in the new /dev. */
static int bind_granted(int newdev, const struct sp_node *host, const char *path, bool legacy, char *err,
                        size_t errlen)
{
    const char *leaf;
    int parent = make_parents(newdev, path + strlen("/dev/"), &leaf);
    if (parent < 0) {
        snprintf(err, errlen, "devices: %s: cannot make its directory in the private /dev: %s", path,
                 strerror(errno));
        return -1;
    }
    int rc = bind_node(parent, host, leaf, path, legacy, err, errlen);
    close(parent);
    return rc;
}

static int populate(int newdev, struct sp_node host[DEV_NODES], const struct string_list *devices,
                    const struct sp_node *granted, bool legacy, char *err, size_t errlen)
{
    for (size_t i = 0; i < devices->count; i++)
        if (bind_granted(newdev, &granted[i], devices->items[i], legacy, err, errlen) != 0)
            return -1;
    for (size_t i = 0; i < DEV_NODES; i++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
        if (host[i].fd >= 0 && bind_node(newdev, &host[i], dev_nodes[i], path, legacy, err, errlen) != 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++)
        if (symlinkat(dev_links[i][1], newdev, dev_links[i][0]) != 0) {
            snprintf(err, errlen, "/dev/%s: cannot create the symlink: %s", dev_links[i][0], strerror(errno));
            return -1;
        }
    if (sub_mount(newdev, "pts", 0755, "devpts", "newinstance,ptmxmode=0666,mode=0620", err, errlen) != 0 ||
        sub_mount(newdev, "shm", 01777, "tmpfs", "mode=1777,size=64m", err, errlen) != 0 ||
        sub_mount(newdev, "mqueue", 01777, "mqueue", NULL, err, errlen) != 0)
        return -1;
    /* Nothing may be created in /dev itself from now on. */
    if (mount(NULL, fd_path(newdev).s, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC,
              NULL) != 0) {
        snprintf(err, errlen, "/dev: cannot make the private /dev read-only: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/*
 * The nodes are the host's own inodes: on a writable mount a root
 * workload could chmod, chown or touch the host's /dev/null.  They are
 * bound read-only (BIND_DEVICE), but a writable root at or above one
 * clones it writable.  A read-only mount still lets the device itself be
 * read and written.  Reached by name: the private /dev is this mount
 * namespace's own, nobody else renames in it.
 */
static int node_read_only(int root_fd, bool legacy, const char *path, const char *const *roots, char *err,
                          size_t errlen)
{
    bool covered = false;
    for (size_t r = 0; roots[r] && !covered; r++)
        covered = policy_path_at_or_beneath(path, roots[r]);
    struct sp_node node;
    if (!covered || safe_path_open(root_fd, path + 1, &node) != 0)
        return 0; /* not granted, or left out (no /dev/tty here) */
    int rc = mnt_make_read_only(legacy, node.fd, path, err, errlen);
    safe_path_close(&node);
    return rc;
}

int private_dev_nodes_read_only(int root_fd, bool legacy, const char *const *roots,
                                const struct string_list *devices, char *err, size_t errlen)
{
    for (size_t i = 0; i < DEV_NODES; i++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
        if (node_read_only(root_fd, legacy, path, roots, err, errlen) != 0)
            return -1;
    }
    for (size_t i = 0; i < devices->count; i++)
        if (node_read_only(root_fd, legacy, devices->items[i], roots, err, errlen) != 0)
            return -1;
    return 0;
}

int private_dev(int root_fd, bool legacy, const struct string_list *devices, char *err, size_t errlen)
{
    struct sp_node dev;
    if (safe_path_open(root_fd, "dev", &dev) != 0 || !S_ISDIR(dev.st.st_mode)) {
        snprintf(err, errlen, "/dev is missing or not a directory");
        return -1;
    }
    struct sp_node host[DEV_NODES];
    for (size_t i = 0; i < DEV_NODES; i++)
        if (safe_path_open(dev.fd, dev_nodes[i], &host[i]) != 0 || !S_ISCHR(host[i].st.st_mode))
            safe_path_close(&host[i]); /* absent (no /dev/tty in some containers): left out */
    int rc = -1, newdev = -1;
    struct sp_node *granted = calloc(devices->count + 1, sizeof *granted);
    if (!granted) {
        snprintf(err, errlen, "devices: out of memory");
        goto out;
    }
    for (size_t i = 0; i < devices->count; i++)
        granted[i] = (struct sp_node){.fd = -1, .parent = -1};
    /* Before the tmpfs covers the host's /dev. */
    for (size_t i = 0; i < devices->count; i++)
        if (open_granted(dev.fd, devices->items[i], &granted[i], err, errlen) != 0)
            goto out;
    if (mnt_new("tmpfs", &dev, MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k", "/dev", err, errlen) != 0)
        goto out;
    if ((newdev = safe_path_reopen(&dev)) < 0) {
        snprintf(err, errlen, "/dev: cannot open the private /dev: %s", strerror(-newdev));
        goto out;
    }
    rc = populate(newdev, host, devices, granted, legacy, err, errlen);
out:
    if (newdev >= 0)
        close(newdev);
    for (size_t i = 0; i < DEV_NODES; i++)
        safe_path_close(&host[i]);
    for (size_t i = 0; granted && i < devices->count; i++)
        safe_path_close(&granted[i]);
    free(granted);
    safe_path_close(&dev);
    return rc;
}
