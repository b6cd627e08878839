/*
 * mount_api.h — the new mount API (Linux >= 5.2, mount_setattr >= 5.12)
 * by number and constant, for the libcs whose headers lack it (musl of the
 * static build, older glibc): one copy for every backend that mounts with
 * it (linux-ns's views, the egress backend's name views).  Values from the
 * kernel's <linux/mount.h> and syscall tables (the same on x86_64 and
 * aarch64: these calls came after the tables were unified).
 */
#ifndef HAS_OS_MOUNT_API_H
#define HAS_OS_MOUNT_API_H

#include <fcntl.h>
#include <sys/syscall.h>

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

#define MNTAPI_OPEN_TREE_CLONE 0x1
#define MNTAPI_OPEN_TREE_CLOEXEC O_CLOEXEC
#define MNTAPI_MOVE_MOUNT_F_EMPTY_PATH 0x4
#define MNTAPI_MOVE_MOUNT_T_EMPTY_PATH 0x40
#define MNTAPI_FSOPEN_CLOEXEC 0x1
#define MNTAPI_FSCONFIG_SET_STRING 1
#define MNTAPI_FSCONFIG_CMD_CREATE 6
#define MNTAPI_FSMOUNT_CLOEXEC 0x1
#define MNTAPI_ATTR_RDONLY 0x1
#define MNTAPI_ATTR_NOSUID 0x2
#define MNTAPI_ATTR_NODEV 0x4
#define MNTAPI_ATTR_NOEXEC 0x8

/* struct mount_attr of mount_setattr(2). */
struct mntapi_attr {
    unsigned long long attr_set;
    unsigned long long attr_clr;
    unsigned long long propagation;
    unsigned long long userns_fd;
};

#endif
