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
 *    directories (fs_dir_pool.c), which the workload must not list.
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

/* The inode `fd` names lies beneath a writable root and no denied path, by
 * the kernel's name of it (its other names, if any, are not looked at). */
static int beneath_writable_root(int fd, const struct socket_policy *sp)
{
    char link[40], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0 || (size_t)n >= sizeof path - 1)
        return -EACCES;
    path[n] = '\0';
    /* Not a path of this mount namespace ("(deleted)", "socket:[...]"). */
    if (path[0] != '/' || strstr(path, " (deleted)"))
        return -EACCES;
    if (!policy_path_covered(path, sp->fs->writable) || policy_path_covered(path, sp->fs->no_write))
        return -EACCES; /* a host file */
    for (size_t i = 0; sp->anchors && i < sp->anchors->pool_count; i++)
        if (sp->anchors->pools[i].path && policy_path_at_or_beneath(path, sp->anchors->pools[i].path))
            return -EACCES; /* a pool of directories (fs_dir_pool.c) */
    return 0;
}

static int unix_path_ok(int fd, const struct stat *st, const void *arg)
{
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
        .arg = sp,
        .unix_refused = "a host socket (not beneath a writable root, or with another hard link)",
        .inet_refused = "the host's network: only the proxy's loopback ports",
        .meta_refused = "not beneath a writable root, or beneath a denied path",
    };
}
