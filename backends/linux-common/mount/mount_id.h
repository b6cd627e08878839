/*
 * mount_id.h — the id /proc/self/mountinfo gives a mount (mount_id.c),
 * without <sys/stat.h>: its file needs the kernel's <linux/stat.h>.
 */
#ifndef HAS_LINUX_COMMON_MOUNT_ID_H
#define HAS_LINUX_COMMON_MOUNT_ID_H

/* The id of the mount `fd` is on, as /proc/self/mountinfo lists it, or 0
 * when it cannot be read. */
unsigned long long mount_id_of(int fd);

#endif
