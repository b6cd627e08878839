/*
 * kernel_release.c — whether the running kernel is at least a given Linux
 * release (linux_common.h), for the behaviours no file or error reveals
 * before they matter.
 */
#include "config.h"

#include <stdio.h>
#include <sys/utsname.h>

#include "linux_common.h"

bool kernel_at_least(unsigned major, unsigned minor)
{
    struct utsname u;
    unsigned have_major, have_minor;
    /* A release this cannot read counts as older: the caller then refuses
     * what needs the newer kernel rather than trusting it. */
    if (uname(&u) != 0 || sscanf(u.release, "%u.%u", &have_major, &have_minor) != 2)
        return false;
    return have_major > major || (have_major == major && have_minor >= minor);
}
