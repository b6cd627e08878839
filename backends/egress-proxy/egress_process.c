/*
 * egress_process.c — the egress process's life: shed inherited descriptors,
 * get its front-end listeners, confine itself, serve until the supervisor
 * ends.  The listeners come one of two ways (cfg->bind_loopback):
 *   handed over (Linux, private network): confine, say "ready", receive the
 *     listeners created inside the sandbox's network namespace
 *     (SCM_RIGHTS), say "ready" again;
 *   bound here (macOS; Linux without a network namespace): bind them on
 *     127.0.0.1 with kernel-chosen ports, confine, report the ports.
 * Builds with the host-loopback design only (EGRESS_HOST_LOOPBACK: macOS,
 * the portable test build) have no hand-over.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "confine.h"
#include "egress_compat.h"
#include "egress_loop.h"
#include "egress_process.h"
#include "frontend_bind.h"

#define CONTROL_FD 3
#define REPORT_FD 4

/* The one-line protocol of the host-loopback start (egress_process.h). */
static bool line_protocol;

__attribute__((noreturn)) static void report_and_exit(int control, const char *msg)
{
    char line[600];
    int n = line_protocol ? snprintf(line, sizeof line, "%c%.500s\n", EGRESS_MSG_ERROR, msg) /* one line */
                          : snprintf(line, sizeof line, "%c%s", EGRESS_MSG_ERROR, msg);
    if (n > 0)
        send(control, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, MSG_NOSIGNAL);
    _exit(1);
}

/* Keep stderr (for libc's own fatal messages), the control socket as
 * descriptor 3 and the caller's refusal report as 4; everything else the
 * supervisor had open is none of the egress process's business. */
static int shed_descriptors(int control, int *report, char *err, size_t errlen)
{
    /* Out of the way first: either may already be 3 or 4. */
    int c = fcntl(control, F_DUPFD_CLOEXEC, REPORT_FD + 1);
    int r = *report >= 0 ? fcntl(*report, F_DUPFD_CLOEXEC, REPORT_FD + 1) : -1;
    if (c < 0 || (*report >= 0 && r < 0) || dup2(c, CONTROL_FD) < 0 || (r >= 0 && dup2(r, REPORT_FD) < 0)) {
        snprintf(err, errlen, "cannot move the control socket or the report descriptor: %s", strerror(errno));
        return -1;
    }
    int keep_below = r >= 0 ? REPORT_FD + 1 : CONTROL_FD + 1;
    *report = r >= 0 ? REPORT_FD : -1;
    /* *report shares the supervisor's description, which the core made
     * non-blocking (report_descriptor_nonblocking, event_report.h). */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0) {
        snprintf(err, errlen, "cannot open /dev/null: %s", strerror(errno));
        return -1;
    }
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)keep_below, ~0U, 0) == 0)
        return 0;
#endif
    {
        struct rlimit lim;
        long max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 1048576 ? (long)lim.rlim_cur : 1048576;
        for (long fd = keep_below; fd < max; fd++)
            close((int)fd);
    }
    return 0;
}

#ifndef EGRESS_HOST_LOOPBACK
static int is_listening_tcp(int fd)
{
    int type = 0, listening = 0;
    socklen_t len = sizeof type;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM)
        return 0;
    len = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening)
        return 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
        return 0;
    return ss.ss_family == AF_INET || ss.ss_family == AF_INET6;
}

/* The one message from inside the sandbox: kinds and the listening sockets. */
static size_t receive_listeners(int control, struct listener *out, char *err, size_t errlen)
{
    unsigned char payload[1 + EGRESS_MAX_LISTENERS];
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int) * EGRESS_MAX_LISTENERS)];
    } cmsg;
    struct iovec iov = {payload, sizeof payload};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cmsg.buf,
                         .msg_controllen = sizeof cmsg.buf};
    ssize_t n;
    do
        n = recvmsg(control, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        _exit(0);   /* the supervisor ended before building the sandbox */
    size_t count = 0;
    struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
    if (n > 1 && payload[0] == EGRESS_MSG_LISTENERS && h && h->cmsg_level == SOL_SOCKET &&
        h->cmsg_type == SCM_RIGHTS && !(msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC))) {
        count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        memcpy(&out[0].fd, CMSG_DATA(h), sizeof(int));
        if (count == 2)
            memcpy(&out[1].fd, CMSG_DATA(h) + sizeof(int), sizeof(int));
    }
    if (count == 0 || count != (size_t)n - 1) {
        snprintf(err, errlen, "malformed listener message on the control socket");
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        char kind = (char)payload[1 + i];
        out[i].front = kind == EGRESS_KIND_SOCKS5 ? &socks5_front_end
                     : kind == EGRESS_KIND_HTTP ? &http_front_end : NULL;
        if (!out[i].front || !is_listening_tcp(out[i].fd) || fcntl(out[i].fd, F_SETFL, O_NONBLOCK) != 0) {
            snprintf(err, errlen, "descriptor %zu from the sandbox is not a listening TCP socket "
                                  "of a known front-end", i);
            return 0;
        }
    }
    return count;
}

/* The listeners are created inside the sandbox's network namespace by the
 * egress backend's enter() and handed over; the process confines itself
 * before it touches anything from there. */
static size_t receive_handed_over(int control, pid_t parent, struct listener *out, char *err, size_t errlen)
{
    if (egress_confine(parent, err, errlen) != 0)
        report_and_exit(control, err);
    char ready = EGRESS_MSG_READY;
    if (send(control, &ready, 1, MSG_NOSIGNAL) != 1)
        _exit(0);
    size_t count = receive_listeners(control, out, err, errlen);
    if (count == 0)
        report_and_exit(control, err);
    if (send(control, &ready, 1, MSG_NOSIGNAL) != 1)
        _exit(0);
    return count;
}

#endif

/* Host loopback: bind first (a confined process may not bind), then
 * confine, then report the ports: the supervisor needs them before its
 * prepare() returns, for the proxy variables and the loopback grants. */
static size_t bind_on_loopback(const struct egress_config *cfg, int control, pid_t parent,
                               struct listener *out, char *err, size_t errlen)
{
    unsigned short ports[2];
    size_t count = frontend_bind(cfg->front_ends, out, ports, err, errlen);
    if (count == 0)
        report_and_exit(control, err);
    if (egress_confine(parent, err, errlen) != 0)
        report_and_exit(control, err);
    char line[32];
    int n = snprintf(line, sizeof line, "%c%u %u\n", EGRESS_MSG_PORTS, (unsigned)ports[0],
                     (unsigned)ports[1]);
    if (n <= 0 || send(control, line, (size_t)n, MSG_NOSIGNAL) != n)
        _exit(0);
    return count;
}

static size_t obtain_listeners(const struct egress_config *cfg, int control, pid_t parent,
                               struct listener *out, char *err, size_t errlen)
{
#ifndef EGRESS_HOST_LOOPBACK
    if (!cfg->bind_loopback)
        return receive_handed_over(control, parent, out, err, errlen);
#endif
    return bind_on_loopback(cfg, control, parent, out, err, errlen);
}

static size_t connection_cap(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur < 128)
        return 16;
    size_t cap = (size_t)(lim.rlim_cur - 64) / relay_mover.fds_per_conn;
    return cap > 4096 ? 4096 : cap;
}

void egress_process_main(const struct egress_config *cfg, int control, pid_t parent)
{
    char err[512];
    /* splice(2) into a socket whose peer has gone raises SIGPIPE like
     * write(2) does; the relay handles EPIPE itself. */
    signal(SIGPIPE, SIG_IGN);
    /* Its own session: a terminal's ^C or ^Z meant for the workload must
     * not take the workload's network away (it ends with the supervisor,
     * through PR_SET_PDEATHSIG, not with the terminal's process group). */
    setsid();
    line_protocol = cfg->bind_loopback;
    int report = cfg->report_fd;
    if (shed_descriptors(control, &report, err, sizeof err) != 0)
        report_and_exit(control, err);
    control = CONTROL_FD;
    struct listener listeners[EGRESS_MAX_LISTENERS];
    memset(listeners, 0, sizeof listeners);
    size_t count = obtain_listeners(cfg, control, parent, listeners, err, sizeof err);
    static struct egress_loop loop;
    loop.policy = cfg->policy;
    loop.creds = cfg->creds;
    loop.max_conns = connection_cap();
    loop.report_fd = report;
    if (egress_loop_run(&loop, listeners, count, control, err, sizeof err) != 0)
        report_and_exit(control, err);
    _exit(0);
}
