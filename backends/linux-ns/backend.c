/*
 * backend.c — the linux-ns backend: its descriptor and the order of its
 * steps (SPEC §4).  Each step lives in its own file; see linux_ns.h.
 *
 * prepare (supervisor, host side): decide the shape (namespaces or not, a
 *   network namespace or not, mount_setattr or the legacy path).
 * enter: clone into user + mount + PID namespaces.  The supervisor returns
 *   SANDBOX_SUPERVISE and waits.  The child is PID 1 (the namespace init):
 *   it dies with the supervisor, writes its id maps, joins a fresh session
 *   keyring and forks the workload (PID 2) early; then, in parallel, the
 *   init builds the mount policy while the workload creates the network
 *   namespace and brings lo up (netns.c: both are ~0.5 ms of kernel work).
 *   The workload hands the namespace to the init, which joins it and only
 *   then tells the workload to go on, and stays as init (ns_init.c).  Until
 *   then the workload runs nothing but this backend's code.  PID 2
 *   re-enters the working directory and returns SANDBOX_OK so the other
 *   backends' enter() run inside the namespaces (the egress backend opens
 *   its loopback front-ends in our network namespace).
 * harden (the workload, after every enter()): close descriptors above 2
 *   (except the filter pipe), securebits + zero capabilities + no_new_privs,
 *   Landlock scopes, and the seccomp filter last (compiled meanwhile by the
 *   init once it has said "go", see seccomp_filter.c).
 *
 * full_access: no namespace, no mount, no filter — the policy grants full
 *   access and there is nothing to enforce; the parser already refuses
 *   full_access combined with any restriction.  Only the descriptor hygiene
 *   applies (the supervisor's promise that the workload starts with 0-2).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "diag.h"
#include "linux_ns.h"
#include "supervise.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static struct linux_ns_state state;

/* mount_setattr(2) exists (Linux >= 5.12) unless it answers ENOSYS. */
static bool have_mount_setattr(void)
{
    return syscall(SYS_mount_setattr, -1, "", 0, NULL, 0) != 0 && errno != ENOSYS;
}

static enum sandbox_result ns_prepare(struct sandbox_ctx *ctx)
{
    const struct policy *p = ctx->policy;
    *sandbox_state(ctx) = &state;
    state.sandbox = p->mode != POLICY_MODE_FULL_ACCESS;
    state.netns = !p->network.egress || p->network.has_outgoing_proxy;
    state.uid = geteuid();
    state.gid = getegid();
    /* Read from the supervisor's own environment, not the workload's. */
    const char *force = getenv(LINUX_NS_FORCE_LEGACY_ENV);
    state.legacy_mounts = (force && strcmp(force, "1") == 0) || !have_mount_setattr();
    return SANDBOX_OK;
}

/* PID 1, before the workload is forked: what the workload inherits. */
static void init_identity(void)
{
    char err[1024];
    if (userns_child_setup(&state, err, sizeof err) != 0 ||
        host_ipc_join_session_keyring(err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
}

/* PID 1, while the workload creates the network namespace: the mounts, then
 * join that namespace, then let the workload go on.  The "go" byte is the
 * only thing that releases it, so it never runs past this point in a
 * half-built sandbox; if the init dies instead, the kernel kills it. */
static void init_build_sandbox(const struct sandbox_ctx *ctx, int link)
{
    char err[1024];
    if (mount_policy_apply(&state, ctx, err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
    if (chdir("/") != 0)
        diag_fatal("linux-ns: cannot leave the working directory in the init: %s", strerror(errno));
    int rc = netns_receive_join(link, state.netns, err, sizeof err);
    if (rc < 0)
        diag_fatal("linux-ns: %s", err);
    /* EPIPE, ECONNRESET: the workload already died (a forwarded signal, or
     * it failed and said why); ns_init_run() reports how. */
    if (rc == 0 && send(link, "g", 1, MSG_NOSIGNAL) != 1 && errno != EPIPE && errno != ECONNRESET)
        diag_fatal("linux-ns: cannot start the workload: %s", strerror(errno));
    close(link);
}

/* PID 2, right after the fork: the network namespace, then wait for the
 * init to finish the sandbox. */
static void workload_await_sandbox(int link)
{
    char err[1024], go;
    int nsfd = -1;
    if ((state.netns && netns_create(&nsfd, err, sizeof err) != 0) ||
        netns_send(link, nsfd, err, sizeof err) != 0)
        diag_fatal("linux-ns: %s", err);
    if (nsfd >= 0)
        close(nsfd);
    ssize_t n;
    do
        n = recv(link, &go, 1, 0);
    while (n < 0 && errno == EINTR);
    if (n != 1)
        _exit(HAS_EXIT_FAILURE); /* the init failed and said why */
    close(link);
}

/* PID 1, once the workload has been told to go on: compile the seccomp
 * filter and hand it over while the workload re-enters its directory, runs
 * the other backends' enter() and drops its capabilities; it loads the
 * program last, in harden, and refuses to start (125) if no valid program
 * arrives.  Here rather than in the supervisor because the supervisor
 * compiling right after clone() competed for the CPU with the init and the
 * workload (2 vCPUs), and the init is idle now anyway.  Written after "go",
 * so a pipe shrunk by pipe-user-pages-soft can never block the init before
 * the workload reads. */
static void init_send_filter(const struct sandbox_ctx *ctx, int fd)
{
    char err[512];
    /* A workload that already failed has closed the read end: EPIPE.  The
     * init never execs, and the workload was forked before this, so the
     * ignored SIGPIPE reaches no workload. */
    signal(SIGPIPE, SIG_IGN);
    if (seccomp_filter_send(ctx->policy, fd, err, sizeof err) != 0 && errno != EPIPE)
        diag("linux-ns: %s", err);
    close(fd);
}

/* PID 1 once the workload exists; never returns. */
__attribute__((noreturn))
static void init_main(const struct sandbox_ctx *ctx, pid_t workload, int link, int filter_fd, int status_fd)
{
    /* From the fork on: SIGTERM & co. sent to the supervisor during the
     * build (which the supervisor forwards to the init as soon as clone()
     * returns, and which an init without a handler would silently drop)
     * kill the workload before it runs anything; the init then reports
     * that death. */
    forward_signals_to(workload);
    init_build_sandbox(ctx, link);
    init_send_filter(ctx, filter_fd);
    ns_init_run(workload, status_fd);
}

static enum sandbox_result ns_enter(struct sandbox_ctx *ctx)
{
    if (!state.sandbox)
        return SANDBOX_OK;
    int status_fd, filter[2];
    char err[1024];
    if (pipe2(filter, O_CLOEXEC) != 0)
        return sandbox_fail(ctx, "cannot create the seccomp filter pipe: %s", strerror(errno));
    pid_t pid = userns_clone(&status_fd, err, sizeof err);
    if (pid < 0) {
        close(filter[0]);
        close(filter[1]);
        return sandbox_fail(ctx, "%s", err);
    }
    if (pid > 0) {
        close(filter[0]);
        close(filter[1]);
        ctx->monitor.pid = pid;
        ctx->monitor.status_fd = status_fd;
        return SANDBOX_SUPERVISE;
    }
    state.filter_fd = filter[0];
    init_identity();
    int link[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, link) != 0)
        diag_fatal("linux-ns: cannot create the init/workload socket pair: %s", strerror(errno));
    pid_t workload = fork();
    if (workload < 0)
        diag_fatal("linux-ns: cannot fork the workload: %s", strerror(errno));
    if (workload > 0) {
        close(link[1]);
        close(filter[0]);
        init_main(ctx, workload, link[0], filter[1], status_fd);
    }
    /* Only the init writes the filter: without this copy of the write end
     * closed, the workload would wait for an end of file forever. */
    close(filter[1]);
    close(link[0]);
    close(status_fd);
    workload_await_sandbox(link[1]);
    /* Re-enter the working directory by name: it now resolves through the
     * policy's mounts, so ./file lands in the writable bind, not in the
     * directory shadowed underneath. */
    if (chdir(ctx->cwd) != 0)
        diag_fatal("linux-ns: working directory %s is not reachable inside the sandbox: %s%s",
                   ctx->cwd, strerror(errno),
                   errno == ENOENT ? " (is it under a deniedReadPaths entry?)" : "");
    return SANDBOX_OK;
}

static enum sandbox_result ns_harden(struct sandbox_ctx *ctx)
{
    char err[512];
    if (state.sandbox) {
        /* The filter pipe is the one descriptor kept past the close: moved
         * to 3 first, closed by seccomp_filter_receive(). */
        if (state.filter_fd != 3 && dup3(state.filter_fd, 3, O_CLOEXEC) != 3)
            return sandbox_fail(ctx, "cannot keep the seccomp filter pipe: %s", strerror(errno));
        state.filter_fd = 3;
    }
    if (fd_close_above_stderr(state.sandbox ? 4 : 3, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    if (!state.sandbox)
        return SANDBOX_OK;
    if (caps_drop_all(err, sizeof err) != 0 ||
        host_ipc_landlock_scope(err, sizeof err) != 0 ||
        seccomp_filter_receive(state.filter_fd, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    return SANDBOX_OK;
}

SANDBOX_BACKEND_DEFINE(linux_ns_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "linux-ns",
    .order = 100,
    .enforces = SANDBOX_ENFORCES_FILESYSTEM | SANDBOX_ENFORCES_NO_EGRESS | SANDBOX_ENFORCES_NO_LOCAL_BIND,
    .prepare = ns_prepare,
    .enter = ns_enter,
    .harden = ns_harden,
};
