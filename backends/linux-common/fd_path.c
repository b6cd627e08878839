/*
 * fd_path.c — "/proc/self/fd/N": the name by which a call that takes a
 * path (mount, linkat, connect, readlink) reaches descriptor N itself.
 */
#include "config.h"

#include <stdio.h>

#include "linux_common.h"

struct fd_path fd_path(int fd)
{
    struct fd_path p;
    snprintf(p.s, sizeof p.s, "/proc/self/fd/%d", fd);
    return p;
}
