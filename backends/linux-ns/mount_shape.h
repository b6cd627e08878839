/*
 * mount_shape.h — what one mount is, asked of the kernel (mount_shape.c)
 * instead of read from the whole mount table.
 */
#ifndef HAS_LINUX_NS_MOUNT_SHAPE_H
#define HAS_LINUX_NS_MOUNT_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * For the mount whose root `fd` is: its filesystem type ("proc",
 * "tmpfs", ...) into `fstype` (`size` bytes), and whether any mount lies
 * beneath it in the caller's mount namespace.  0, or -1 when this kernel
 * cannot say (statx's STATX_MNT_ID_UNIQUE, statmount(2) and listmount(2)
 * are Linux 6.8's) or the type does not fit.
 */
int mount_shape(int fd, char *fstype, size_t size, bool *submounts);

#endif
