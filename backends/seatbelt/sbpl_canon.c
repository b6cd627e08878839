/*
 * sbpl_canon.c — the real path canonicaliser (see sbpl_canon.h).  Portable
 * POSIX, so it is tested on Linux with real symlinks.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbpl_canon.h"

/* Dangling symlinks followed before giving up (like the kernel's limit). */
#define MAX_DANGLING_HOPS 16

/* Errors after which the rest of the path is kept literal. */
static bool stops_resolution(int err)
{
    return err == ENOENT || err == ENOTDIR || err == EACCES || err == ELOOP;
}

/* `resolved` + `tail` (tail is "" or starts with '/'), without "//". */
static int join(const char *resolved, const char *tail, char *out, size_t outlen)
{
    if (strcmp(resolved, "/") == 0 && tail[0] == '/')
        resolved = "";
    int n = snprintf(out, outlen, "%s%s", resolved, tail);
    if (n < 0 || (size_t)n >= outlen) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

static int canonicalize(const char *path, char *out, size_t outlen, int hops);

/*
 * `resolved` is the canonical form of the prefix of `path` before `tail`,
 * and `tail` ("/name..." ) did not resolve.  If its first component is a
 * dangling symlink, creating that name would create the link's target, so
 * follow it; otherwise keep the tail literal.
 */
static int follow_dangling(const char *resolved, const char *tail, char *out, size_t outlen, int hops)
{
    size_t first = strcspn(tail + 1, "/") + 1;
    char link[PATH_MAX], target[PATH_MAX];
    if (join(resolved, "", link, sizeof link) != 0 || strlen(link) + first >= sizeof link)
        return join(resolved, tail, out, outlen);
    strncat(link, tail, first);
    struct stat st;
    if (lstat(link, &st) != 0 || !S_ISLNK(st.st_mode))
        return join(resolved, tail, out, outlen);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        return join(resolved, tail, out, outlen);
    target[n] = '\0';
    /* A loop: nothing can be created through it, the literal is exact. */
    if (hops >= MAX_DANGLING_HOPS)
        return join(resolved, tail, out, outlen);
    char next[PATH_MAX];
    int len = target[0] == '/' ? snprintf(next, sizeof next, "%s%s", target, tail + first)
                               : snprintf(next, sizeof next, "%s/%s%s",
                                          strcmp(resolved, "/") == 0 ? "" : resolved, target, tail + first);
    if (len < 0 || (size_t)len >= sizeof next) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return canonicalize(next, out, outlen, hops + 1);
}

static int canonicalize(const char *path, char *out, size_t outlen, int hops)
{
    if (path[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    size_t len = strlen(path);
    char *prefix = malloc(len + 1);
    if (!prefix)
        return -1;
    memcpy(prefix, path, len + 1);
    char resolved[PATH_MAX];
    size_t cut = len; /* path[cut..] is the part not resolved yet */
    int rc = -1;
    for (;;) {
        if (realpath(prefix, resolved)) {
            rc = cut == len ? join(resolved, "", out, outlen)
                            : follow_dangling(resolved, path + cut, out, outlen, hops);
            break;
        }
        if (!stops_resolution(errno) || cut == 0)
            break;
        /* Drop the last component of the prefix and try its parent. */
        char *slash = strrchr(prefix, '/');
        cut = (size_t)(slash - prefix);
        if (cut == 0)
            prefix[1] = '\0'; /* "/": always resolves */
        else
            *slash = '\0';
    }
    int saved = errno;
    free(prefix);
    errno = saved;
    return rc;
}

int sbpl_canonicalize(const char *path, char *out, size_t outlen, void *arg)
{
    (void)arg;
    return canonicalize(path, out, outlen, 0);
}
