/*
 * mount_id.c — mount_id_of() (mount_id.h): statx's STATX_MNT_ID (Linux
 * 5.8), which needs no /proc access (the non-dumpable init of an
 * unprivileged caller cannot read its own /proc/self/fdinfo on Linux
 * 5.10), else the fdinfo's mnt_id (Linux 3.15).
 *
 * The kernel's <linux/stat.h> gives struct statx; <sys/stat.h> is left
 * out: musl's defines the same S_* macros differently.
 */
#include "config.h"

#include <linux/fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mount/mount_id.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

unsigned long long mount_id_of(int fd)
{
    struct statx stx;
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) == 0 &&
        (stx.stx_mask & STATX_MNT_ID))
        return stx.stx_mnt_id;
    char path[64], line[128];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    FILE *f = fopen(path, "re");
    unsigned long long id = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "mnt_id: %llu", &id) == 1)
            break;
    if (f)
        fclose(f);
    return id;
}
