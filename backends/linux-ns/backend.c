/*
 * backend.c — the linux-ns backend: its descriptor and the order of its
 * steps (README.md, "Linux enforcement").  Each step lives in its own
 * file; see linux_ns.h.
 *
 * prepare (supervisor, host side): decide the shape (namespaces or not, a
 *   network namespace or not, mount_setattr or the legacy path).
 * enter: clone into user + mount + PID namespaces, in linux-common's
 *   sequence (process/supervised_fork.c; ns_fork below holds this
 *   backend's own part).  The supervisor returns SANDBOX_SUPERVISE and waits.  The child
 *   is PID 1 (the namespace init): it dies with the supervisor, writes its
 *   id maps, joins a fresh session keyring and forks the workload (PID 2)
 *   early; then, in parallel, the init writes the per-user limits and
 *   builds the mount policy while the workload creates the network
 *   namespace and brings lo up (netns.c: both are ~0.5 ms of kernel work).
 *   The workload hands the namespace to the init, which joins it and only
 *   then tells the workload to go on ("go"), and stays as init
 *   (linux-common's process/broker_init.c).  Until then the workload runs nothing
 *   but the supervisor's own code.  PID 2 returns SANDBOX_OK so the other
 *   backends' enter() run inside the namespaces (the egress backend opens
 *   its loopback front-ends in our network namespace); when one of them
 *   needs the finished view (ctx->later_enter_needs_view) it waits for
 *   "go" first.
 * harden (the workload, after every enter()): close descriptors above 2,
 *   securebits + zero capabilities + no_new_privs, Landlock scopes, and the
 *   seccomp filter last (compiled with the binary, see seccomp_rules.c);
 *   then, if it has not yet, wait for "go" (the hardening overlaps the
 *   init's mounts), and re-enter the working directory.
 *
 * full_access: no namespace, no mount, no filter — the policy grants full
 *   access and there is nothing to enforce; the parser already refuses
 *   full_access combined with any restriction.  Only the descriptor hygiene
 *   applies (the supervisor's promise that the workload starts with 0-2).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "diag.h"
#include "devices/device_grant.h"
#include "host_ipc.h"
#include "limits/sandbox_limits.h"
#include "linux_ns.h"
#include "process/supervised_fork.h"
#include "seccomp/seccomp_programs.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static struct linux_ns_state state;
static struct sandbox_limits limits;

/* mount_setattr(2) exists (Linux >= 5.12) unless it answers ENOSYS. */
static bool have_mount_setattr(void)
{
    return syscall(SYS_mount_setattr, -1, "", 0, NULL, 0) != 0 && errno != ENOSYS;
}

bool linux_ns_legacy_mounts(void)
{
    /* Read from the supervisor's own environment, not the workload's. */
    const char *force = getenv(LINUX_NS_FORCE_LEGACY_ENV);
    return (force && strcmp(force, "1") == 0) || !have_mount_setattr();
}

const char *linux_ns_unenforceable(const struct policy *p)
{
    /* Without the connect() check no socket can be checked: refused, not
     * left open. */
    return p->mode != POLICY_MODE_FULL_ACCESS ? connect_broker_unsupported() : NULL;
}

static enum sandbox_result ns_prepare(struct sandbox_ctx *ctx)
{
    const struct policy *p = ctx->policy;
    state.sandbox = p->mode != POLICY_MODE_FULL_ACCESS;
    state.netns = !p->network.egress || p->network.has_outgoing_proxy;
    state.uid = geteuid();
    state.gid = getegid();
    state.link = -1;
    kernel_diag_set_alternatives(ctx->alternatives);
    state.legacy_mounts = linux_ns_legacy_mounts();
    const char *no_broker = linux_ns_unenforceable(p);
    if (no_broker)
        return sandbox_fail(ctx, "%s", no_broker);
    char err[SANDBOX_ERROR_MAX];
    /* Judged here for a clear 125 before anything runs, and again in the
     * init on the node it binds (dev.c). */
    struct stat device;
    for (size_t i = 0; i < p->devices.count; i++)
        if (device_grant_check(p->devices.items[i], &device, err, sizeof err) != 0)
            return sandbox_fail(ctx, "%s", err);
    if (socket_grants_open(&p->network.allowed_unix_sockets, &p->denied_read_paths, &state.sockets, err,
                           sizeof err) != 0 ||
        host_ipc_check_write_grants(ctx, &state.sockets, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    /* The PID namespace ends the tree: a group only for what it bounds. */
    if (state.sandbox && sandbox_limits_prepare(&limits, ctx, true, false, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    return SANDBOX_OK;
}

/* PID 1, before the workload is forked: what the workload inherits.  Not
 * `supervisor`: across the PID namespace getppid() is 0, so
 * userns_child_setup() checks the lifeline instead. */
static void init_identity(pid_t supervisor)
{
    (void)supervisor;
    char err[SANDBOX_ERROR_MAX];
    if (userns_child_setup(&state, err, sizeof err) != 0 || userns_init_session(err, sizeof err) != 0 ||
        keyring_join_fresh_session(err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
}

/* PID 1, while the workload creates the network namespace: the mounts, then
 * join that namespace, then let the workload go on.  The "go" byte is the
 * only thing that releases it, so it never runs past this point in a
 * half-built sandbox; if the init dies instead, the kernel kills it.  The
 * forwarded signals are still blocked (supervised_fork.c): a forwarding
 * handler can never make a mount or namespace call fail with EINTR, and
 * what arrives meanwhile reaches the workload once it is released (before
 * it has run anything of its own, it dies of it; after, its target does). */
static void init_build_sandbox(const struct sandbox_ctx *ctx, int link)
{
    char err[SANDBOX_ERROR_MAX];
    /* The per-user limits bind the workload from its first instruction of
     * its own (after "go"); written here rather than before the fork, the
     * network namespace is made meanwhile. */
    if (userns_limits_write(err, sizeof err) != 0 || mount_policy_apply(&state, ctx, err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
    if (chdir("/") != 0)
        diag_fatal("linux-ns: cannot leave the working directory in the init: %s", strerror(errno));
    int rc = netns_receive_join(link, state.netns, err, sizeof err);
    if (rc < 0 || (rc == 0 && mount_policy_sysfs(&state, ctx, err, sizeof err) != 0))
        diag_fatal("linux-ns: %s", err);
    /* EPIPE, ECONNRESET: the workload already died (a forwarded signal, or
     * it failed and said why); broker_init_run() reports how. */
    if (rc == 0 && send(link, "g", 1, MSG_NOSIGNAL) != 1 && errno != EPIPE && errno != ECONNRESET)
        diag_fatal("linux-ns: cannot start the workload: %s", strerror(errno));
}

/* PID 2, right after the fork: the network namespace, for the init. */
static void workload_make_network(int link)
{
    char err[SANDBOX_ERROR_MAX];
    int nsfd = -1;
    if ((state.netns && netns_create(&nsfd, err, sizeof err) != 0) ||
        netns_send(link, nsfd, err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
    if (nsfd >= 0)
        close(nsfd);
    state.link = link; /* kept for "go" and for the seccomp listener */
}

/* PID 2: wait until the init has finished the sandbox. */
static void workload_await_view(void)
{
    char go;
    ssize_t n;
    do
        n = recv(state.link, &go, 1, 0);
    while (n < 0 && errno == EINTR);
    if (n != 1)
        _exit(HAS_EXIT_FAILURE); /* the init failed and said why */
    state.in_view = true;
}

/* What the init's connect() check lets through.  Abstract addresses are the
 * sandbox's own in its network namespace.  In the host's, the init's
 * connect() on the workload's behalf would not be bound by the workload's
 * Landlock scope: they are refused (abstract_ok, set in ns_enter()).  TCP
 * destinations are the network namespace's to judge. */
static struct connect_rules init_rules = {
    .unix_path_ok = host_ipc_socket_on_writable_mount,
    .unix_refused = "a host socket, on a read-only mount of the sandbox's view",
};

/* The supervisor splits by clone(2) into the namespaces; the child is PID 1
 * of the new PID namespace, whose exit kills everything left in it. */
static const struct supervised_fork ns_fork = {
    .backend = "linux-ns",
    .middle = "init",
    .pid_namespace = true,
    .split = userns_clone,
    .setup = init_identity,
    .build = init_build_sandbox,
    .rules = &init_rules,
    .limits = &limits,
};

static enum sandbox_result ns_enter(struct sandbox_ctx *ctx)
{
    if (!state.sandbox)
        return SANDBOX_OK;
    init_rules.abstract_ok = state.netns;
    init_rules.arg = &state.sockets; /* network.allowedUnixSockets (prepare()) */
    int link;
    enum sandbox_result r = supervised_fork(ctx, &ns_fork, &link);
    if (r != SANDBOX_OK)
        return r; /* the supervisor */
    workload_make_network(link);
    /* A later enter() that works in the finished view waits for it here;
     * otherwise the workload hardens while the init still mounts, and
     * waits at the end of harden() (backend.h, enter()). */
    if (ctx->later_enter_needs_view)
        workload_await_view();
    return SANDBOX_OK;
}

/* The last moment before the workload runs: the name just entered is the
 * directory the supervisor holds (backend.h, cwd_fd), not one renamed into
 * its place after the view was built. */
static enum sandbox_result cwd_is_held(struct sandbox_ctx *ctx)
{
    struct stat st;
    if (stat(".", &st) == 0 && sandbox_is_cwd(ctx, &st))
        return SANDBOX_OK;
    char err[SANDBOX_ERROR_MAX];
    sandbox_cwd_moved(ctx, err, sizeof err);
    return sandbox_fail(ctx, "%s", err);
}

static enum sandbox_result ns_harden(struct sandbox_ctx *ctx)
{
    char err[SANDBOX_ERROR_MAX];
    if (fd_close_except(&state.link, state.sandbox ? 1 : 0, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    if (!state.sandbox)
        return SANDBOX_OK;
    /* The network is the namespace's own, or the host's granted whole. */
    struct seccomp_shape shape = {.local_binding = ctx->policy->network.local_binding,
                                  .net = SECCOMP_NET_OWN};
    /* Its listener goes to the init, which answers connect() once it has
     * sent "go" (it may still be mounting now). */
    if (caps_drop_all(err, sizeof err) != 0 || landlock_scope_ipc(err, sizeof err) != 0 ||
        seccomp_filter_install_brokered(&shape, state.link, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    if (!state.in_view)
        workload_await_view();
    close(state.link);
    state.link = -1;
    /* Re-enter the working directory by name: it now resolves through the
     * policy's mounts, so ./file lands in the writable bind, not in the
     * directory shadowed underneath. */
    if (chdir(ctx->cwd) != 0)
        return sandbox_fail(ctx, "working directory %s is not reachable inside the sandbox: %s%s", ctx->cwd,
                            strerror(errno),
                            errno == ENOENT ? " (is it under a deniedReadPaths entry?)" : "");
    return cwd_is_held(ctx);
}

SANDBOX_BACKEND_DEFINE(linux_ns_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "linux-ns",
    .summary = "user, mount, PID and IPC namespaces; private /proc, /dev and network",
    .order = 100,
    .enforces = SANDBOX_ENFORCES_FILESYSTEM | SANDBOX_ENFORCES_NO_EGRESS | SANDBOX_ENFORCES_NO_LOCAL_BIND |
                SANDBOX_ENFORCES_LIMITS | SANDBOX_ENFORCES_SCRATCH | SANDBOX_ENFORCES_DEVICES |
                SANDBOX_ENFORCES_UNIX_SOCKETS,
    /* With a proxy (or egress off) later enter()s run in the workload
     * process inside the new network namespace (state.netns), and the
     * supervisor waits outside for every sandboxed run. */
    .offers = SANDBOX_OFFER_PRIVATE_NETWORK | SANDBOX_OFFER_SUPERVISED | SANDBOX_OFFER_SYSCALL_FILTER,
    .prepare = ns_prepare,
    .enter = ns_enter,
    .harden = ns_harden,
    .explain = ns_explain,
};
