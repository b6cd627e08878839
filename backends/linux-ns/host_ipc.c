/*
 * host_ipc.c — the host's IPC endpoints, closed by default.
 *
 * connect(2) on a pathname socket needs no writable mount, so a read-only
 * view of the host still reaches a container engine's socket (which owns the
 * host), the D-Bus system and session buses, an ssh-agent, X11.  Landlock
 * (ABI <= 7) does not mediate connect() on pathname sockets, so the sockets
 * have to disappear from the view.  What is done, for every mode except
 * full_access:
 *
 *  1. /tmp and /run become overlays: the host directory is the read-only
 *     lower layer (everything stays readable, the build tree of a project in
 *     /tmp included), the upper layer is a private tmpfs (the workload can
 *     write /tmp as compilers expect; nothing reaches the host), and a host
 *     socket seen through an overlay is a different inode, so connect() to it
 *     fails with ECONNREFUSED.  This covers /tmp/.X11-unix, /tmp/ssh-*
 *     (ssh-agent), tmux and editor sockets, /run/docker.sock,
 *     /run/containerd, /run/podman, /run/dbus/system_bus_socket.  Filesystems
 *     mounted below /run on the host (/run/user/UID: the session bus,
 *     gnome-keyring, podman, a systemd ssh-agent) are not part of the lower
 *     layer and appear as empty directories.
 *     Sockets the workload creates itself (in the private /tmp or in a
 *     writable root) work as usual.
 *  2. /dev is private and minimal (dev.c): no pty of another terminal, no
 *     host device; /dev/shm is a private tmpfs (POSIX semaphores and shared
 *     memory work; the host's segments are not visible).
 *  3. Sockets elsewhere that the environment names (SSH_AUTH_SOCK,
 *     DBUS_*_BUS_ADDRESS unix:path=, DOCKER_HOST / CONTAINER_HOST unix://)
 *     and the usual per-user engine sockets under $HOME (Docker Desktop,
 *     Colima, Rancher Desktop) are covered by a bind of /dev/null.
 *  4. Abstract unix sockets: with egress off the network namespace has its
 *     own abstract namespace.  With egress on, a Landlock domain scoped with
 *     LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (Linux >= 6.12) refuses connecting
 *     to abstract sockets created outside the sandbox; LANDLOCK_SCOPE_SIGNAL
 *     also keeps signals inside.  On older kernels abstract sockets stay
 *     reachable with egress on (documented in README.md).
 *  5. Keyring: the init joins a fresh anonymous session keyring, and the
 *     keyctl family is refused by the seccomp filter.
 *
 * A writable root at or above /tmp or /run (allowedWritePaths ["/tmp"], or
 * "/") means the policy grants writing the host directory: it is then not
 * replaced, and its sockets stay as reachable as they are writable.
 *
 * Not covered: a host pathname socket at a location not listed above (e.g.
 * inside a project directory or $HOME at an unusual path).
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
#include <sys/syscall.h>
#include <unistd.h>

#include "host_ipc.h"
#include "linux_ns.h"

/* ---- private /tmp, /run, /dev/shm -------------------------------------- */

/* Stack a staging tmpfs on `dir`, then an overlay whose lower layer is the
 * host directory (still held by dir->fd) and whose upper layer lives in the
 * staging tmpfs.  The staging tmpfs stays hidden underneath. */
static int overlay_dir(struct sp_node *dir, const char *path, char *err, size_t errlen)
{
    if (mnt_new("tmpfs", dir, MS_NOSUID | MS_NODEV, "mode=0755", path, err, errlen) != 0)
        return -1;
    int stage = safe_path_reopen(dir);
    if (stage < 0) {
        snprintf(err, errlen, "%s: cannot open the private layer: %s", path, strerror(-stage));
        return -1;
    }
    int rc = -1;
    if (mkdirat(stage, "upper", 0700) != 0 || mkdirat(stage, "work", 0700) != 0 ||
        fchmodat(stage, "upper", dir->st.st_mode & 07777, 0) != 0) {
        snprintf(err, errlen, "%s: cannot prepare the private layer: %s", path, strerror(errno));
        goto out;
    }
    /* userxattr: overlayfs keeps its metadata in user.overlay.* instead of
     * trusted.overlay.*, which a mount in a user namespace cannot set.
     * Without it every mount first fails to set a trusted xattr on the upper
     * tmpfs, falls back to "no xattr" mode and logs four kernel messages:
     * eight lines in the kernel log per launch, thousands for an agent's
     * session.  What user.overlay.* xattrs can do here, set by a host user
     * on their own files in the lower layer (the workload cannot set
     * overlayfs's own: through the overlay they are refused before Linux
     * 6.7 and stored escaped, as user.overlay.overlay.*, since):
     * redirect_dir and metacopy are off with userxattr (their xattrs would
     * be the privilege escalation); origin file handles are never decoded
     * without CAP_DAC_READ_SEARCH in the initial namespace, which the init
     * lacks; opaque and whiteout marks act on layers below the lower one,
     * and there is none.  So at most a host user hides their own files from
     * the sandbox.  Same kernel floor as overlayfs in a user namespace
     * (5.11); on tmpfs without user xattrs (< 6.6) the mount falls back to
     * "no xattr" as before. */
    char opts[176];
    snprintf(opts, sizeof opts,
             "userxattr,lowerdir=%s,upperdir=/proc/self/fd/%d/upper,workdir=/proc/self/fd/%d/work",
             fd_path(dir->fd).s, stage, stage);
    if (mount("overlay", fd_path(stage).s, "overlay", MS_NOSUID | MS_NODEV, opts) != 0) {
        snprintf(err, errlen, "%s: cannot mount the private overlay (overlayfs in a user namespace needs "
                 "Linux >= 5.11 with CONFIG_OVERLAY_FS): %s", path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    close(stage);
    return rc;
}

/* `path` is `root` or lies beneath it. */
static bool inside(const char *path, const char *root)
{
    if (strcmp(root, "/") == 0)
        return true;
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool granted(const char *path, const char *const *writable)
{
    for (size_t i = 0; writable[i]; i++)
        if (inside(path, writable[i]))
            return true;
    return false;
}

int host_ipc_private_dirs(int root_fd, const char *const *writable, struct ipc_private_dir dirs[IPC_PRIVATE_DIRS],
                          char *err, size_t errlen)
{
    static const char *const paths[IPC_PRIVATE_DIRS] = {"/tmp", "/run"};
    for (int i = 0; i < IPC_PRIVATE_DIRS; i++) {
        dirs[i].path = paths[i];
        dirs[i].lower_fd = -1;
        if (granted(paths[i], writable))
            continue;
        struct sp_node node;
        /* Absent, or a symlink (a /run -> /var/run setup): nothing to hide
         * behind an overlay here; the socket masks below still apply. */
        if (safe_path_open(root_fd, paths[i] + 1, &node) != 0)
            continue;
        if (!S_ISDIR(node.st.st_mode) || overlay_dir(&node, paths[i], err, errlen) != 0) {
            bool failed = S_ISDIR(node.st.st_mode);
            safe_path_close(&node);
            if (failed)
                return -1;
            continue;
        }
        dirs[i].lower_fd = node.fd; /* kept: the host view for bind sources */
        node.fd = -1;
        safe_path_close(&node);
    }
    return 0;
}

/* ---- sockets named by the environment ---------------------------------- */

/* Mask `path` if it is a socket.  The last component is not followed; the
 * directories leading to it are (these paths come from the caller's
 * environment, not from the workload, and a symlinked $HOME is common). */
static int mask_if_socket(const char *path, const struct sp_node *devnull, bool legacy, char *err, size_t errlen)
{
    if (path[0] != '/')
        return 0;
    struct sp_node node = {.parent = -1};
    node.fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (node.fd < 0)
        return 0;
    int rc = 0;
    if (fstat(node.fd, &node.st) == 0 && S_ISSOCK(node.st.st_mode))
        rc = mnt_bind(legacy, devnull, &node, BIND_KEEP, path, err, errlen);
    close(node.fd);
    return rc;
}

/* D-Bus addresses: "unix:path=/run/user/1000/bus,guid=...;unix:abstract=..." */
static int mask_dbus_address(const char *addr, const struct sp_node *devnull, bool legacy, char *err,
                             size_t errlen)
{
    for (const char *p = addr; (p = strstr(p, "path=")) != NULL; ) {
        p += 5;
        size_t n = strcspn(p, ",;");
        char path[4096];
        if (n < sizeof path) {
            memcpy(path, p, n);
            path[n] = '\0';
            if (mask_if_socket(path, devnull, legacy, err, errlen) != 0)
                return -1;
        }
        p += n;
    }
    return 0;
}

int host_ipc_mask_sockets(const struct sandbox_ctx *ctx, const struct sp_node *devnull, bool legacy,
                          char *err, size_t errlen)
{
    static const char *const system_sockets[] = {
        "/run/docker.sock", "/var/run/docker.sock", "/run/containerd/containerd.sock",
        "/run/podman/podman.sock", "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
        "/run/snapd.socket", "/run/systemd/private", "/run/systemd/io.system.ManagedOOM",
    };
    static const char *const home_sockets[] = {
        ".docker/run/docker.sock", ".docker/desktop/docker.sock",
        ".colima/default/docker.sock", ".rd/docker.sock",
    };
    for (size_t i = 0; i < sizeof system_sockets / sizeof system_sockets[0]; i++)
        if (mask_if_socket(system_sockets[i], devnull, legacy, err, errlen) != 0)
            return -1;
    const char *v;
    if ((v = sandbox_env_get(ctx, "SSH_AUTH_SOCK")) && mask_if_socket(v, devnull, legacy, err, errlen) != 0)
        return -1;
    static const char *const url_vars[] = {"DOCKER_HOST", "CONTAINER_HOST"};
    for (size_t i = 0; i < 2; i++)
        if ((v = sandbox_env_get(ctx, url_vars[i])) && strncmp(v, "unix://", 7) == 0 &&
            mask_if_socket(v + 7, devnull, legacy, err, errlen) != 0)
            return -1;
    static const char *const bus_vars[] = {"DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"};
    for (size_t i = 0; i < 2; i++)
        if ((v = sandbox_env_get(ctx, bus_vars[i])) && mask_dbus_address(v, devnull, legacy, err, errlen) != 0)
            return -1;
    const char *home = sandbox_env_get(ctx, "HOME");
    if (home && home[0] == '/') {
        for (size_t i = 0; i < sizeof home_sockets / sizeof home_sockets[0]; i++) {
            char path[4096];
            if ((size_t)snprintf(path, sizeof path, "%s/%s", home, home_sockets[i]) < sizeof path &&
                mask_if_socket(path, devnull, legacy, err, errlen) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- keyring ------------------------------------------------------------ */

#define HAS_KEYCTL_JOIN_SESSION_KEYRING 1

int host_ipc_join_session_keyring(char *err, size_t errlen)
{
    /* An anonymous session keyring: the caller's session keys (Kerberos
     * tickets, ecryptfs, ...) are no longer possessed by the sandbox. */
    if (syscall(SYS_keyctl, HAS_KEYCTL_JOIN_SESSION_KEYRING, NULL) >= 0 || errno == ENOSYS)
        return 0;
    snprintf(err, errlen, "cannot join a fresh session keyring (keyctl JOIN_SESSION_KEYRING): %s%s",
             strerror(errno),
             errno == EDQUOT ? "; the key quota is exhausted (kernel.keys.maxkeys)" : "");
    return -1;
}

/* ---- Landlock scopes ----------------------------------------------------- */

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#define HAS_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define HAS_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define HAS_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

struct has_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int host_ipc_landlock_scope(char *err, size_t errlen)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, HAS_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 6) /* no Landlock, disabled, or no scopes (ABI 6 = Linux 6.12) */
        return 0;
    struct has_landlock_ruleset_attr attr = {
        .scoped = HAS_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | HAS_LANDLOCK_SCOPE_SIGNAL,
    };
    int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create the Landlock scope ruleset (ABI %ld): %s", abi, strerror(errno));
        return -1;
    }
    long rc = syscall(SYS_landlock_restrict_self, fd, 0);
    int e = errno;
    close(fd);
    if (rc != 0) {
        snprintf(err, errlen, "cannot enter the Landlock scope (landlock_restrict_self): %s", strerror(e));
        return -1;
    }
    return 0;
}
