/*
 * socket_grant.c — see socket_grant.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "brokers/socket_grant.h"
#include "policy_paths.h"

static int open_no_symlinks(const char *path)
{
    struct open_how how = {.flags = O_PATH | O_CLOEXEC,
                           .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
    return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
}

static int grant_one(const char *path, const struct string_list *read_denied, struct socket_grant *out,
                     char *err, size_t errlen)
{
    for (size_t i = 0; i < read_denied->count; i++)
        if (policy_path_at_or_beneath(path, read_denied->items[i])) {
            snprintf(err, errlen,
                     "network.allowedUnixSockets \"%s\" is beneath deniedReadPaths \"%s\": drop one", path,
                     read_denied->items[i]);
            return -1;
        }
    int fd = open_no_symlinks(path);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "network.allowedUnixSockets \"%s\": %s%s", path, strerror(errno),
                 errno == ELOOP ? " (a symbolic link on the way: name the socket's own path)" : "");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISSOCK(st.st_mode) || st.st_nlink != 1) {
        snprintf(err, errlen, "network.allowedUnixSockets \"%s\" %s", path,
                 !S_ISSOCK(st.st_mode) ? "is not a socket"
                                       : "has other hard links: grant the socket by its own one name");
        close(fd);
        return -1;
    }
    *out = (struct socket_grant){.fd = fd, .dev = st.st_dev, .ino = st.st_ino, .path = path};
    return 0;
}

int socket_grants_open(const struct string_list *paths, const struct string_list *read_denied,
                       struct socket_grants *out, char *err, size_t errlen)
{
    *out = (struct socket_grants){0};
    if (paths->count == 0)
        return 0;
    if (!(out->items = calloc(paths->count, sizeof *out->items))) {
        snprintf(err, errlen, "network.allowedUnixSockets: out of memory");
        return -1;
    }
    for (; out->count < paths->count; out->count++)
        if (grant_one(paths->items[out->count], read_denied, &out->items[out->count], err, errlen) != 0) {
            socket_grants_free(out);
            return -1;
        }
    return 0;
}

void socket_grants_free(struct socket_grants *g)
{
    for (size_t i = 0; i < g->count; i++)
        close(g->items[i].fd);
    free(g->items);
    *g = (struct socket_grants){0};
}

const struct socket_grant *socket_grants_find(const struct socket_grants *g, const struct stat *st)
{
    for (size_t i = 0; g && i < g->count; i++)
        if (g->items[i].dev == st->st_dev && g->items[i].ino == st->st_ino)
            return &g->items[i];
    return NULL;
}
