/*
 * paths.c — absolute, normalised paths (the policy's form: no "." or ".."
 * component, no trailing slash but "/") compared as paths, not strings; and
 * the one message for a policy path that does not resolve.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linux_common.h"

bool path_at_or_beneath(const char *path, const char *root)
{
    if (strcmp(root, "/") == 0)
        return path[0] == '/';
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int path_resolve_error(const char *field, const char *path, int error, const char *link_risk,
                       char *err, size_t errlen)
{
    if (error == ELOOP)
        snprintf(err, errlen, "%s: %s: a component is a symbolic link (refused: %s); name the real path",
                 field, path, link_risk);
    else if (error == ENOENT)
        snprintf(err, errlen, "%s: %s: does not exist (writable roots and write-denied paths must exist)",
                 field, path);
    else
        snprintf(err, errlen, "%s: %s: %s", field, path, strerror(error));
    return -1;
}
