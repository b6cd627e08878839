/*
 * host_ipc.c — the host's IPC endpoints, closed by default, in every mode
 * except full_access.
 *
 *  1. Pathname sockets anywhere: the connect() check (linux-common's
 *     brokers/connect_broker.c, with host_ipc_socket_on_writable_mount()) lets
 *     the workload reach only sockets on a writable mount of its view (a
 *     writable root, or made inside); /tmp, /run, $HOME and the rest of the
 *     host are read-only, so their sockets (X11, ssh-agent, ssh control
 *     masters, gpg-agent, D-Bus, docker.sock, containerd, podman, LXD) are
 *     refused.  Datagram Unix sockets cannot be created (seccomp_rules.c).
 *  2. /dev is private and minimal (dev.c): no pty of another terminal, no
 *     host device; /dev/shm is a private 64 MiB tmpfs and /dev/mqueue the
 *     sandbox's own IPC namespace (POSIX semaphores, shared memory and
 *     message queues work; the host's are not visible).
 *  3. Second layer: sockets that the environment names (SSH_AUTH_SOCK,
 *     DBUS_*_BUS_ADDRESS unix:path=, DOCKER_HOST / CONTAINER_HOST unix://)
 *     and the usual system and per-user engine sockets get /dev/null bound
 *     over them.
 *  4. Abstract unix sockets: with a network namespace of its own (egress
 *     off, or a proxy) the sandbox has its own abstract namespace.  With the
 *     host's (egress on, no proxy) the connect() check refuses every
 *     abstract address, on every kernel; a Landlock domain scoped with
 *     LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL (Linux >=
 *     6.12) is a second layer, and keeps signals inside.
 *  5. Keyring: the init joins a fresh anonymous session keyring
 *     (linux-common/keyring.c), and the keyctl family is refused by the
 *     seccomp filter.
 *
 * A writable root is a grant: a socket inside one (also at or above /tmp)
 * is as reachable as the directory is writable.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host_ipc.h"
#include "linux_ns.h"

/* ---- sockets named by the environment ---------------------------------- */

/* `path`, if it is a socket now, to fn.  Symlinks are followed (these
 * paths come from the caller's environment, not from the workload; a
 * symlinked $HOME and an SSH_AUTH_SOCK that is a link to the agent's real
 * socket are common): the mask lands on the socket itself, which every
 * name of it then reaches. */
static int if_socket(const char *path, const char *named_by, host_ipc_socket_fn fn, void *arg)
{
    if (path[0] != '/')
        return 0;
    struct sp_node node = {.parent = -1};
    node.fd = open(path, O_PATH | O_CLOEXEC);
    if (node.fd < 0)
        return 0;
    int rc = 0;
    if (fstat(node.fd, &node.st) == 0 && S_ISSOCK(node.st.st_mode))
        rc = fn(&node, path, named_by, arg);
    close(node.fd);
    return rc;
}

/* D-Bus addresses: "unix:path=/run/user/1000/bus,guid=...;unix:abstract=..." */
static int dbus_address(const char *addr, const char *named_by, host_ipc_socket_fn fn, void *arg)
{
    for (const char *p = addr; (p = strstr(p, "path=")) != NULL;) {
        p += 5;
        size_t n = strcspn(p, ",;");
        char path[4096];
        if (n < sizeof path) {
            memcpy(path, p, n);
            path[n] = '\0';
            if (if_socket(path, named_by, fn, arg) != 0)
                return -1;
        }
        p += n;
    }
    return 0;
}

int host_ipc_each_socket(const struct sandbox_ctx *ctx, host_ipc_socket_fn fn, void *arg)
{
    static const char *const system_sockets[] = {
        "/run/docker.sock",        "/var/run/docker.sock",        "/run/containerd/containerd.sock",
        "/run/podman/podman.sock", "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
        "/run/snapd.socket",       "/run/systemd/private",        "/run/systemd/io.system.ManagedOOM",
    };
    static const char *const home_sockets[] = {
        ".docker/run/docker.sock",
        ".docker/desktop/docker.sock",
        ".colima/default/docker.sock",
        ".rd/docker.sock",
    };
    for (size_t i = 0; i < sizeof system_sockets / sizeof system_sockets[0]; i++)
        if (if_socket(system_sockets[i], "a well-known system socket", fn, arg) != 0)
            return -1;
    const char *v;
    if ((v = sandbox_env_get(ctx, "SSH_AUTH_SOCK")) && if_socket(v, "SSH_AUTH_SOCK", fn, arg) != 0)
        return -1;
    static const char *const url_vars[] = {"DOCKER_HOST", "CONTAINER_HOST"};
    for (size_t i = 0; i < 2; i++)
        if ((v = sandbox_env_get(ctx, url_vars[i])) && strncmp(v, "unix://", 7) == 0 &&
            if_socket(v + 7, url_vars[i], fn, arg) != 0)
            return -1;
    static const char *const bus_vars[] = {"DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"};
    for (size_t i = 0; i < 2; i++)
        if ((v = sandbox_env_get(ctx, bus_vars[i])) && dbus_address(v, bus_vars[i], fn, arg) != 0)
            return -1;
    const char *home = sandbox_env_get(ctx, "HOME");
    if (home && home[0] == '/') {
        for (size_t i = 0; i < sizeof home_sockets / sizeof home_sockets[0]; i++) {
            char path[4096];
            if ((size_t)snprintf(path, sizeof path, "%s/%s", home, home_sockets[i]) < sizeof path &&
                if_socket(path, "a container engine's socket in $HOME", fn, arg) != 0)
                return -1;
        }
    }
    return 0;
}

struct mask_arg {
    const struct socket_grants *granted;
    const struct sp_node *devnull;
    bool legacy;
    char *err;
    size_t errlen;
};

static int mask_one(const struct sp_node *sock, const char *path, const char *named_by, void *arg)
{
    (void)named_by;
    struct mask_arg *m = arg;
    if (socket_grants_find(m->granted, &sock->st))
        return 0; /* granted by the policy, by its inode: an explicit yes wins */
    return mnt_bind(m->legacy, m->devnull, sock, BIND_KEEP, path, m->err, m->errlen);
}

int host_ipc_mask_sockets(const struct sandbox_ctx *ctx, const struct socket_grants *granted,
                          const struct sp_node *devnull, bool legacy, char *err, size_t errlen)
{
    struct mask_arg m = {granted, devnull, legacy, err, errlen};
    return host_ipc_each_socket(ctx, mask_one, &m);
}

struct write_grant_arg {
    const struct sandbox_ctx *ctx;
    const struct socket_grants *granted;
    char *err;
    size_t errlen;
};

static int write_grant_one(const struct sp_node *sock, const char *path, const char *named_by, void *arg)
{
    (void)path; /* compared by inode below */
    struct write_grant_arg *w = arg;
    const struct string_list *roots = &w->ctx->policy->allowed_write_paths;
    if (socket_grants_find(w->granted, &sock->st))
        return 0;
    /* By inode: the variable naming the socket may spell it otherwise. */
    struct stat st;
    for (size_t i = 0; i < roots->count; i++)
        if (stat(roots->items[i], &st) == 0 && st.st_dev == sock->st.st_dev && st.st_ino == sock->st.st_ino) {
            snprintf(w->err, w->errlen,
                     "allowedWritePaths \"%s\" is %s, which the sandbox masks: writing a path grants no "
                     "connect() to a host socket; name it in network.allowedUnixSockets (a container "
                     "engine's socket is the host's root to whoever reaches it)",
                     roots->items[i], named_by);
            return -1;
        }
    return 0;
}

int host_ipc_check_write_grants(const struct sandbox_ctx *ctx, const struct socket_grants *granted, char *err,
                                size_t errlen)
{
    struct write_grant_arg w = {ctx, granted, err, errlen};
    return host_ipc_each_socket(ctx, write_grant_one, &w);
}

/* ---- host sockets the connect() check refuses ------------------------- */

int host_ipc_socket_on_writable_mount(int fd, const struct stat *st, const void *arg)
{
    if (socket_grants_find(arg, st))
        return 0; /* network.allowedUnixSockets: this inode */
    struct statvfs sv;
    if (fstatvfs(fd, &sv) != 0)
        return -errno;
    return sv.f_flag & ST_RDONLY ? -EACCES : 0; /* a host socket: not in a writable root, not made inside */
}
