/*
 * openat2_sys.c — see openat2_sys.h.
 */
#include "config.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "openat2_sys.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

int openat2_path(int dir, const char *path, unsigned long long flags, unsigned long long resolve)
{
    struct {
        unsigned long long flags, mode, resolve;
    } how = {.flags = flags, .resolve = resolve};
    return (int)syscall(SYS_openat2, dir, path, &how, sizeof how);
}
