/*
 * paths.c — the one message for a policy path that does not resolve.
 * (Policy paths are compared as paths by core/policy_paths.c.)
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linux_common.h"

int path_resolve_error(const char *field, const char *path, int error, const char *link_risk, char *err,
                       size_t errlen)
{
    if (error == ELOOP)
        snprintf(err, errlen, "%s: %s: a component is a symbolic link (refused: %s); name the real path",
                 field, path, link_risk);
    else if (error == PATH_ERR_CWD_MOVED)
        snprintf(err, errlen,
                 "%s: %s: the working directory was renamed or replaced while the sandbox was set up "
                 "(its name no longer leads to the directory the supervisor was started in); stop "
                 "whatever renames it and start again from the workspace",
                 field, path);
    else if (error == ENOENT)
        snprintf(err, errlen, "%s: %s: does not exist (writable roots and write-denied paths must exist)",
                 field, path);
    else
        snprintf(err, errlen, "%s: %s: %s", field, path, strerror(error));
    return -1;
}
