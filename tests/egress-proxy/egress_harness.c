/*
 * egress_harness.c — drives the egress-proxy backend without the linux-ns
 * backend, for development and as the behaviour tests' fallback when the
 * build has no linux-ns: prepare() on the host side, then a child in a new
 * user + network namespace with only `lo` up (what linux-ns does for a
 * policy with an outgoing proxy), enter() there, and execve of the target
 * with the workload environment.  Descriptors above 2 are closed first,
 * as linux-ns harden() does.  Not installed; not a sandbox.
 *
 * Built a second time as egress_harness_portable, with -DEGRESS_PORTABLE:
 * the backend's host-loopback path (the one macOS uses) -- front-ends on the
 * host's 127.0.0.1 with kernel-chosen ports, poll(2), the copy relay, the
 * portable confinement -- and no namespaces: the child is forked as the
 * Seatbelt backend forks the workload, enter() runs in it, and nothing
 * keeps it from the network (on macOS that is Seatbelt's job).
 *
 * usage: egress_harness[_portable] POLICY-JSON TARGET [ARG...]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "supervise.h"

extern const struct sandbox_backend egress_proxy_backend;
extern char **environ;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "egress_harness: %s: %s\n", what, detail);
    _exit(125);
}

#ifndef EGRESS_PORTABLE
static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        die(path, strerror(errno));
    close(fd);
}

static void bring_up_lo(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
        die("SIOCGIFFLAGS lo", strerror(errno));
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
        die("SIOCSIFFLAGS lo", strerror(errno));
    close(fd);
}

static void enter_namespaces(void)
{
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
        die("unshare", strerror(errno));
    char map[64];
    write_file("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
    write_file("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
    write_file("/proc/self/gid_map", map);
    bring_up_lo();
}
#endif

int main(int argc, char **argv)
{
    if (argc < 3)
        die("usage", "egress_harness POLICY-JSON TARGET [ARG...]");
#ifdef EGRESS_PORTABLE
    /* Nothing inherited above 2, and no sweep before execve below: on macOS
     * nothing closes stray descriptors for the workload, so what it holds
     * is what the backend left it ("no descriptor above 2" checks that). */
    syscall(SYS_close_range, 3, ~0U, 0);
#endif
    struct policy_errors errors;
    struct policy *policy = policy_parse(argv[1], strlen(argv[1]), &errors);
    if (!policy)
        die("invalid policy", errors.count ? errors.items[0] : "?");
    static struct sandbox_ctx ctx;
    size_t n = 0;
    while (environ[n])
        n++;
    ctx.env = calloc(n + 1, sizeof *ctx.env);
    for (size_t i = 0; i < n; i++)
        ctx.env[i] = strdup(environ[i]);
    ctx.env_count = n;
    ctx.policy = policy;
    ctx.argv = argv + 2;
    ctx.cwd = "/";
    /* The supervisor's --refusal-report, for the portable path's tests. */
    const char *report = getenv("EGRESS_HARNESS_REPORT_FD");
    ctx.report_fd = report ? atoi(report) : -1;
    /* What the boundary this harness stands in for would offer. */
#ifdef EGRESS_PORTABLE
    ctx.others_offer = SANDBOX_OFFER_LOOPBACK_GRANTS | SANDBOX_OFFER_SUPERVISED;
#else
    ctx.others_offer = SANDBOX_OFFER_PRIVATE_NETWORK | SANDBOX_OFFER_SUPERVISED;
#endif
    if (ctx.report_fd >= 0) {
        fcntl(ctx.report_fd, F_SETFD, FD_CLOEXEC);
        report_descriptor_nonblocking(ctx.report_fd); /* as core/main.c does */
    }
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    if (egress_proxy_backend.prepare(&ctx) != SANDBOX_OK)
        die("prepare", ctx.error);
    pid_t pid = fork();
    if (pid < 0)
        die("fork", strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#ifndef EGRESS_PORTABLE
        enter_namespaces();
#endif
        if (egress_proxy_backend.enter(&ctx) != SANDBOX_OK)
            die("enter", ctx.error);
#ifndef EGRESS_PORTABLE
        syscall(SYS_close_range, 3, ~0U, 0);
#endif
        execve(argv[2], argv + 2, ctx.env);
        die(argv[2], strerror(errno));
    }
    struct sandbox_monitor mon = {.pid = pid, .status_fd = -1};
    supervise(&mon, ctx.report_fd);
}
