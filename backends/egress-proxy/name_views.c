/*
 * name_views.c — see name_views.h.  Runs in enter(), in the process that
 * becomes the workload, which still holds its user namespace's
 * CAP_SYS_ADMIN over the sandbox's mount namespace (linux-ns builds it
 * before; harden() drops the capability after).  The tmpfs is made with
 * fsopen/fsmount and never attached anywhere: only the two files are, each
 * by a clone of it (open_tree) moved onto the file it replaces.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "name_views.h"
#include "os/mount_api.h"

static const struct {
    const char *name, *target, *text;
} views[] = {
    /* No search list: a short name is asked as it is. */
    {"resolv.conf", "/etc/resolv.conf",
     "# happy-agent-supervisor: the sandbox's resolver (outgoingProxy \"transparent\")\n"
     "nameserver 127.0.0.53\n"},
    /* glibc reads files before dns: a real address here would bypass the
     * resolver and name a destination the sandbox cannot reach. */
    {"hosts", "/etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"},
};
#define VIEW_COUNT (sizeof views / sizeof views[0])

/* The detached tmpfs with the files written, then read-only: its mount
 * descriptor, or -1 with a message. */
static int make_tree(char *err, size_t errlen)
{
    int fs = (int)syscall(SYS_fsopen, "tmpfs", MNTAPI_FSOPEN_CLOEXEC);
    if (fs < 0) {
        snprintf(err, errlen, "cannot make the tmpfs of the sandbox's resolv.conf (fsopen): %s%s",
                 strerror(errno), errno == ENOSYS ? " (the transparent front-end needs Linux >= 5.12)" : "");
        return -1;
    }
    int mnt = -1;
    if (syscall(SYS_fsconfig, fs, MNTAPI_FSCONFIG_SET_STRING, "size", "16k", 0) == 0 &&
        syscall(SYS_fsconfig, fs, MNTAPI_FSCONFIG_SET_STRING, "nr_inodes", "8", 0) == 0 &&
        syscall(SYS_fsconfig, fs, MNTAPI_FSCONFIG_SET_STRING, "mode", "0755", 0) == 0 &&
        syscall(SYS_fsconfig, fs, MNTAPI_FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
        mnt = (int)syscall(SYS_fsmount, fs, MNTAPI_FSMOUNT_CLOEXEC,
                           MNTAPI_ATTR_NOSUID | MNTAPI_ATTR_NODEV | MNTAPI_ATTR_NOEXEC);
    int e = errno;
    close(fs);
    if (mnt < 0) {
        snprintf(err, errlen, "cannot make the tmpfs of the sandbox's resolv.conf: %s", strerror(e));
        return -1;
    }
    for (size_t i = 0; i < VIEW_COUNT; i++) {
        int fd = openat(mnt, views[i].name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        size_t len = strlen(views[i].text);
        if (fd < 0 || write(fd, views[i].text, len) != (ssize_t)len) {
            snprintf(err, errlen, "cannot write the sandbox's %s: %s", views[i].name, strerror(errno));
            if (fd >= 0)
                close(fd);
            close(mnt);
            return -1;
        }
        close(fd);
    }
    struct mntapi_attr ro = {.attr_set = MNTAPI_ATTR_RDONLY};
    if (syscall(SYS_mount_setattr, mnt, "", AT_EMPTY_PATH, &ro, sizeof ro) != 0) {
        snprintf(err, errlen, "cannot make the sandbox's resolv.conf read-only (mount_setattr): %s%s",
                 strerror(errno), errno == ENOSYS ? " (the transparent front-end needs Linux >= 5.12)" : "");
        close(mnt);
        return -1;
    }
    return mnt;
}

/* One file of the tree over `target`, resolved once (symlinks followed:
 * /etc/resolv.conf often points into /run). */
static int place(int mnt, const char *name, const char *target, char *err, size_t errlen)
{
    int dst = open(target, O_PATH | O_CLOEXEC);
    struct stat st;
    if (dst < 0 || fstat(dst, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen,
                 "%s: %s in the sandbox, so the transparent front-end's resolver cannot be named there",
                 target, dst < 0 ? strerror(errno) : "not a regular file");
        if (dst >= 0)
            close(dst);
        return -1;
    }
    int tree = (int)syscall(SYS_open_tree, mnt, name, MNTAPI_OPEN_TREE_CLONE | O_CLOEXEC);
    int rc = tree < 0 ? -1
                      : (int)syscall(SYS_move_mount, tree, "", dst, "",
                                     MNTAPI_MOVE_MOUNT_F_EMPTY_PATH | MNTAPI_MOVE_MOUNT_T_EMPTY_PATH);
    /* Cloning a file out of a detached mount (open_tree on the fsmount()
     * tree) is refused with EINVAL by older kernels (Debian 12's 6.1). */
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot mount the sandbox's own over it (%s): %s%s", target,
                 tree < 0 ? "open_tree" : "move_mount", strerror(errno),
                 tree < 0 && errno == EINVAL
                     ? " (this kernel cannot clone from a detached mount: the transparent "
                       "front-end needs a newer kernel, verified on 6.18; use http or socks5)"
                     : "");
    if (tree >= 0)
        close(tree);
    close(dst);
    return rc;
}

int name_views_install(const struct stat *host_mntns, char *err, size_t errlen)
{
    struct stat here;
    if (stat("/proc/self/ns/mnt", &here) != 0) {
        snprintf(err, errlen, "cannot identify the sandbox's mount namespace: %s", strerror(errno));
        return -1;
    }
    if (here.st_ino == host_mntns->st_ino && here.st_dev == host_mntns->st_dev) {
        snprintf(err, errlen,
                 "the sandbox's resolv.conf would be mounted in the host's mount namespace "
                 "(backend bug: a private network without a private mount namespace)");
        return -1;
    }
    int mnt = make_tree(err, errlen);
    if (mnt < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < VIEW_COUNT && rc == 0; i++)
        rc = place(mnt, views[i].name, views[i].target, err, errlen);
    close(mnt);
    return rc;
}
