/*
 * socket_rules.c — what the connect() broker lets the workload reach when
 * the sandbox has no network namespace of its own (struct connect_rules,
 * linux-common).  The broker runs outside the workload's Landlock domain,
 * so its connect() is bound by these rules alone:
 *
 *  - a pathname Unix socket only beneath a writable root and beneath no
 *    denied path: the host's sockets elsewhere ($HOME, /run, /tmp) stay
 *    out of reach, as with linux-ns.  The path is the kernel's name of the
 *    inode the broker opened (/proc/self/fd); a socket with another hard
 *    link is refused (Landlock's REFER rules already keep the workload
 *    from linking a host socket into a writable root);
 *  - no abstract address: they are the host's (X11, D-Bus, ...);
 *  - TCP only to 127.0.0.1 at a port granted by the proxy; anything when
 *    egress is open (the seccomp filter then allows the IP families and
 *    AF_NETLINK, seccomp_rules.c);
 *  - a file's mode, owner, times or attributes only beneath a writable root
 *    and no denied path: what Landlock would have let the workload write
 *    (it does not mediate those calls itself); never in a pool of
 *    directories (fs_dir_pool.c), which the workload must not list;
 *  - an entry the broker renames to or from a directory that is no anchor
 *    (entry_broker.c): the same, judged by the entry's own path, which
 *    must not lead to a denied path or a pool either.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"

/* The kernel's name of the inode `fd` (/proc/self/fd) into path[size]:
 * 0, or -EACCES for one that is no path of this mount namespace
 * ("(deleted)", "socket:[...]") or too long. */
static int fd_target(int fd, char *path, size_t size)
{
    ssize_t n = readlink(fd_path(fd).s, path, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return -EACCES;
    path[n] = '\0';
    return path[0] != '/' || strstr(path, " (deleted)") ? -EACCES : 0;
}

/* `path` lies beneath a writable root and no denied path, and is in no
 * pool of directories (fs_dir_pool.c); with `whole`, nothing denied or
 * pooled lies beneath it either (an entry to be moved or removed). */
static int path_ok(const char *path, const struct socket_policy *sp, bool whole)
{
    if (!policy_path_covered(path, sp->fs->writable) || policy_path_covered(path, sp->fs->no_write))
        return -EACCES; /* a host file, or a denied one */
    for (size_t i = 0; whole && sp->fs->no_write[i]; i++)
        if (policy_path_at_or_beneath(sp->fs->no_write[i], path))
            return -EACCES; /* on the way to a denied path */
    for (size_t i = 0; sp->anchors && i < sp->anchors->pool_count; i++) {
        const char *pool = sp->anchors->pools[i].path;
        if (pool &&
            (policy_path_at_or_beneath(path, pool) || (whole && policy_path_at_or_beneath(pool, path))))
            return -EACCES; /* a pool of directories */
    }
    return 0;
}

/* The inode `fd` names lies beneath a writable root and no denied path, by
 * the kernel's name of it (its other names, if any, are not looked at). */
static int beneath_writable_root(int fd, const struct socket_policy *sp)
{
    char path[4096];
    int rc = fd_target(fd, path, sizeof path);
    return rc != 0 ? rc : path_ok(path, sp, false);
}

static int unix_path_ok(int fd, const struct stat *st, const void *arg)
{
    const struct socket_policy *sp = arg;
    if (socket_grants_find(sp->granted, st))
        return 0; /* network.allowedUnixSockets: this inode, by whatever name */
    /* A socket with another name could be a host socket linked in. */
    return st->st_nlink != 1 ? -EACCES : beneath_writable_root(fd, arg);
}

/* chmod, chown, utimes, xattrs (meta_broker.c): what Landlock would let
 * the workload write. */
static int path_writable(int fd, const struct stat *st, const void *arg)
{
    (void)st;
    return beneath_writable_root(fd, arg);
}

/* The entry `name` of directory `dir` may be made, replaced, renamed or
 * removed by the broker (entry_broker.c): by its path, not its directory's,
 * so a denied name in a directory that is no anchor stays denied. */
static int entry_writable(int dir, const char *name, const void *arg)
{
    char path[4096 + 256 + 2];
    int rc = fd_target(dir, path, 4096);
    if (rc != 0)
        return rc;
    size_t len = strlen(path);
    snprintf(path + len, sizeof path - len, "%s%s", len > 1 ? "/" : "", name);
    return path_ok(path, arg, true);
}

static bool granted_port(const struct socket_policy *sp, unsigned short port)
{
    for (size_t i = 0; i < sp->port_count; i++)
        if (sp->ports[i] == port)
            return true;
    return false;
}

static int inet_ok(const struct sockaddr_storage *sa, socklen_t len, const void *arg)
{
    const struct socket_policy *sp = arg;
    if (sp->egress_open)
        return 0;
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    if (sa->ss_family == AF_INET && len >= sizeof *in && in->sin_addr.s_addr == htonl(INADDR_LOOPBACK) &&
        granted_port(sp, ntohs(in->sin_port)))
        return 0;
    return -EACCES; /* the host's network: only the proxy's front-ends */
}

void socket_rules_init(struct connect_rules *rules, const struct socket_policy *sp)
{
    *rules = (struct connect_rules){
        .abstract_ok = false,
        .unix_path_ok = unix_path_ok,
        .inet_ok = inet_ok,
        .path_writable = path_writable,
        .entry_writable = entry_writable,
        .arg = sp,
        .unix_refused = "a host socket (not beneath a writable root, or with another hard link)",
        .inet_refused = "the host's network: only the proxy's loopback ports",
        .meta_refused = "not beneath a writable root, or beneath a denied path",
    };
}
