/*
 * mount_shape.c — mount_shape() (mount_shape.h): statx(2) gives the
 * mount's unique 64-bit id, statmount(2) its filesystem type, listmount(2)
 * what lies beneath it (recursively: one id is enough to answer).
 *
 * This file includes the kernel's <linux/stat.h> for struct statx, and so
 * not <sys/stat.h>: musl's defines the same S_* macros differently.  The
 * headers of older kernels lack the rest; it is declared here, as the
 * kernel's <linux/mount.h> has it.
 */
#include "config.h"

#include <linux/fcntl.h>
#include <linux/stat.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mount_shape.h"

/* The unified syscall table: the same numbers on every architecture. */
#ifndef SYS_statmount
#define SYS_statmount 457
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif
#define MNT_STATMOUNT_FS_TYPE 0x00000020U

/* The request of statmount(2) and listmount(2), first version. */
struct mnt_id_request {
    uint32_t size;
    uint32_t spare;
    uint64_t mnt_id;
    uint64_t param; /* statmount: what to return; listmount: the last id listed, or 0 */
};

/* statmount(2)'s answer: this fixed part, then the strings it points into. */
struct mnt_statmount {
    uint32_t size;
    uint32_t spare1;
    uint64_t mask;
    uint32_t sb_dev_major, sb_dev_minor;
    uint64_t sb_magic;
    uint32_t sb_flags;
    uint32_t fs_type; /* offset of the type's name in str[] */
    uint64_t mnt_id, mnt_parent_id;
    uint32_t mnt_id_old, mnt_parent_id_old;
    uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
    uint32_t mnt_root, mnt_point;
    uint64_t spare2[50];
};

int mount_shape(int fd, char *fstype, size_t size, bool *submounts)
{
    struct statx stx;
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID_UNIQUE, &stx) != 0 ||
        !(stx.stx_mask & STATX_MNT_ID_UNIQUE))
        return -1;
    union {
        struct mnt_statmount sm;
        char bytes[sizeof(struct mnt_statmount) + 256];
    } buf;
    struct mnt_id_request req = {
        .size = sizeof req, .mnt_id = stx.stx_mnt_id, .param = MNT_STATMOUNT_FS_TYPE};
    if (syscall(SYS_statmount, &req, &buf, sizeof buf, 0) != 0 || !(buf.sm.mask & MNT_STATMOUNT_FS_TYPE))
        return -1;
    size_t room = sizeof buf - sizeof buf.sm;
    if (buf.sm.fs_type >= room)
        return -1;
    const char *type = buf.bytes + sizeof buf.sm + buf.sm.fs_type;
    size_t len = strnlen(type, room - buf.sm.fs_type);
    if (len == room - buf.sm.fs_type || len >= size)
        return -1;
    memcpy(fstype, type, len + 1);
    uint64_t first;
    req.param = 0;
    long n = syscall(SYS_listmount, &req, &first, 1, 0);
    if (n < 0)
        return -1;
    *submounts = n > 0;
    return 0;
}
