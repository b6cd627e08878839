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
#include <arpa/inet.h>
#include <netinet/in.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "policy.h"
#include "process/confine.h"
#include "process/egress_compat.h"
#include "process/egress_loop.h"
#include "process/egress_process.h"
#include "process/frontend_bind.h"

#define CONTROL_FD 3
#define REPORT_FD 4

/* The one-line protocol of the host-loopback start (egress_process.h). */
static bool line_protocol;

__attribute__((noreturn)) static void report_and_exit(int control, const char *msg)
{
    char line[EGRESS_LINE_MAX];
    int n = line_protocol ? snprintf(line, sizeof line, "%c%.*s\n", EGRESS_MSG_ERROR, SANDBOX_ERROR_MAX,
                                     msg) /* one line */
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
        long max =
            getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 1048576 ? (long)lim.rlim_cur : 1048576;
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

/* Where fd is bound, if it is a socket of `type` bound to an IPv4 address. */
static bool ipv4_bound(int fd, int type, struct sockaddr_in *sin)
{
    int t = 0;
    socklen_t len = sizeof t, sl = sizeof *sin;
    memset(sin, 0, sizeof *sin);
    return getsockopt(fd, SOL_SOCKET, SO_TYPE, &t, &len) == 0 && t == type &&
           getsockname(fd, (struct sockaddr *)sin, &sl) == 0 && sin->sin_family == AF_INET;
}

/* The resolver's socket: UDP on 127.0.0.53:53. */
static bool is_resolver_socket(int fd)
{
    struct sockaddr_in sin;
    return ipv4_bound(fd, SOCK_DGRAM, &sin) && ntohl(sin.sin_addr.s_addr) == EGRESS_DNS_ADDR &&
           ntohs(sin.sin_port) == 53;
}

/* A relay listener: on a slot of the table and one of its ports. */
static bool is_relay_listener(const struct synth_table *t, int fd)
{
    struct sockaddr_in sin;
    if (!t || !is_listening_tcp(fd) || !ipv4_bound(fd, SOCK_STREAM, &sin))
        return false;
    unsigned long a = ntohl(sin.sin_addr.s_addr);
    unsigned short port = ntohs(sin.sin_port);
    bool port_ok = false;
    for (size_t i = 0; i < t->nports; i++)
        port_ok = port_ok || t->ports[i] == port;
    return port_ok && a > SYNTH_NET && a - SYNTH_NET - 1 < t->slots;
}

/* What a descriptor of kind `kind` must be: the front-end it serves
 * (NULL: the resolver's socket), and whether it is one. */
static bool check_kind(const struct egress_config *cfg, const struct synth_table *t, char kind, int fd,
                       const struct front_end **front)
{
    unsigned fe = cfg->front_ends;
    switch (kind) {
    case EGRESS_KIND_DNS: *front = NULL; return (fe & POLICY_FRONT_END_TRANSPARENT) && is_resolver_socket(fd);
    case EGRESS_KIND_TRANSPARENT:
        *front = &transparent_front_end;
        return (fe & POLICY_FRONT_END_TRANSPARENT) && is_relay_listener(t, fd);
    case EGRESS_KIND_HTTP:
        *front = &http_front_end;
        return (fe & POLICY_FRONT_END_HTTP) && is_listening_tcp(fd);
    case EGRESS_KIND_SOCKS5:
        *front = &socks5_front_end;
        return (fe & POLICY_FRONT_END_SOCKS5) && is_listening_tcp(fd);
    default: return false;
    }
}

/*
 * One batch from inside the sandbox: kinds and listening sockets, appended
 * to out[*count..].  1 when more batches follow, 0 after the last, -1
 * with a message.
 */
static int receive_batch(const struct egress_config *cfg, const struct synth_table *t, int control,
                         struct listener *out, size_t *count, char *err, size_t errlen)
{
    unsigned char payload[1 + EGRESS_BATCH];
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int) * EGRESS_BATCH)];
    } cmsg;
    struct iovec iov = {payload, sizeof payload};
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cmsg.buf, .msg_controllen = sizeof cmsg.buf};
    ssize_t n;
    do
        n = recvmsg(control, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        _exit(0); /* the supervisor ended before building the sandbox */
    struct cmsghdr *h = n > 1 ? CMSG_FIRSTHDR(&msg) : NULL;
    size_t fds = h ? (h->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;
    if (!h || (payload[0] != EGRESS_MSG_LISTENERS && payload[0] != EGRESS_MSG_LISTENERS_END) ||
        h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS || CMSG_NXTHDR(&msg, h) ||
        (msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) || fds != (size_t)n - 1 ||
        fds > EGRESS_MAX_LISTENERS - *count) {
        snprintf(err, errlen, "malformed listener message on the control socket");
        return -1;
    }
    for (size_t i = 0; i < fds; i++) {
        struct listener *l = &out[(*count)++];
        memcpy(&l->fd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
        if (!check_kind(cfg, t, (char)payload[1 + i], l->fd, &l->front) ||
            fcntl(l->fd, F_SETFL, O_NONBLOCK) != 0) {
            snprintf(err, errlen,
                     "descriptor %zu from the sandbox is not a listening socket "
                     "of a configured front-end",
                     *count - 1);
            return -1;
        }
    }
    return payload[0] == EGRESS_MSG_LISTENERS;
}

/* Every batch, until the last. */
static size_t receive_listeners(const struct egress_config *cfg, const struct synth_table *t, int control,
                                struct listener *out, char *err, size_t errlen)
{
    size_t count = 0;
    int more;
    while ((more = receive_batch(cfg, t, control, out, &count, err, errlen)) > 0)
        ;
    return more < 0 ? 0 : count;
}

/* The listeners are created inside the sandbox's network namespace by the
 * egress backend's enter() and handed over; the process confines itself
 * before it touches anything from there. */
static size_t receive_handed_over(const struct egress_config *cfg, const struct synth_table *t, int control,
                                  pid_t parent, struct listener *out, char *err, size_t errlen)
{
    if (egress_confine(parent, err, errlen) != 0)
        report_and_exit(control, err);
    char ready = EGRESS_MSG_READY;
    if (send(control, &ready, 1, MSG_NOSIGNAL) != 1)
        _exit(0);
    size_t count = receive_listeners(cfg, t, control, out, err, errlen);
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
    int n =
        snprintf(line, sizeof line, "%c%u %u\n", EGRESS_MSG_PORTS, (unsigned)ports[0], (unsigned)ports[1]);
    if (n <= 0 || send(control, line, (size_t)n, MSG_NOSIGNAL) != n)
        _exit(0);
    return count;
}

static size_t obtain_listeners(const struct egress_config *cfg, const struct synth_table *t, int control,
                               pid_t parent, struct listener *out, char *err, size_t errlen)
{
#ifndef EGRESS_HOST_LOOPBACK
    if (!cfg->bind_loopback)
        return receive_handed_over(cfg, t, control, parent, out, err, errlen);
#else
    (void)t;
#endif
    return bind_on_loopback(cfg, control, parent, out, err, errlen);
}

/* What the descriptor limit leaves for connections, `listeners` held. */
static size_t connection_cap(size_t listeners)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur < 128 + listeners)
        return 16;
    size_t cap = (size_t)(lim.rlim_cur - 64 - listeners) / relay_mover.fds_per_conn;
    return cap > 4096 ? 4096 : cap;
}

void egress_process_main(const struct egress_config *cfg, int control, pid_t parent)
{
    char err[SANDBOX_ERROR_MAX]; /* ends in the supervisor's sandbox_fail() */
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
    static struct egress_loop loop;
    static struct synth_table synth;
    loop.policy = cfg->policy;
    loop.creds = cfg->creds;
    loop.upstream = cfg->upstream;
    /* The same table egress_netns.c bound the relay's listeners by, from
     * the same policy. */
    if ((cfg->front_ends & POLICY_FRONT_END_TRANSPARENT) &&
        synth_setup(&cfg->policy, &loop.transparent, &synth, err, sizeof err) != 0)
        report_and_exit(control, err);
    if (cfg->front_ends & POLICY_FRONT_END_TRANSPARENT)
        loop.synth = &synth;
    static struct listener listeners[EGRESS_MAX_LISTENERS];
    size_t count = obtain_listeners(cfg, loop.synth, control, parent, listeners, err, sizeof err);
    loop.max_conns = connection_cap(count);
    loop.report_fd = report;
    if (egress_loop_run(&loop, listeners, count, control, err, sizeof err) != 0)
        report_and_exit(control, err);
    _exit(0);
}
