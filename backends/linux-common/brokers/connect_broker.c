/*
 * connect_broker.c — a process outside the workload's seccomp filter makes
 * the workload's connect() calls (seccomp user notification: the filter
 * sends every connect() here), after the backend's checks (struct
 * connect_rules, linux_common.h).
 *
 * Why: connect(2) on an AF_UNIX pathname socket needs no write permission
 * the sandbox can take away, and Landlock (ABI <= 7) does not mediate it,
 * so a read-only view of the host still reaches every host service
 * listening on a path: an ssh control master in ~/.ssh, gpg-agent, LXD, a
 * container engine, a root-group 0660 socket.  Each backend says which
 * pathname sockets are the sandbox's own (rules->unix_path_ok): linux-ns,
 * those on a writable mount of its view; landlock, those beneath a
 * writable root.  Without a network namespace of the sandbox's own,
 * abstract addresses are the host's and refused, and the backend judges
 * TCP destinations too (rules->inet_ok): the broker's connect() is not
 * bound by the workload's Landlock domain.
 *
 * How, without a check-then-use race: the broker fetches the workload's
 * socket (pidfd_getfd), copies the address once, and connects that socket
 * itself with that copy — for every family.  It never lets the call run
 * on in the workload (SECCOMP_USER_NOTIF_FLAG_CONTINUE): the kernel would
 * then look the descriptor and the address up again, and a thread with a
 * descriptor table of its own, or one that swaps the descriptor with
 * dup2() meanwhile, would connect an AF_UNIX socket that was never checked.
 * For AF_UNIX the path is resolved in the calling thread's working
 * directory (no magic links: /proc/self would be the broker's), the inode
 * is checked, and the socket is connected through /proc/self/fd/N — to
 * exactly that inode.
 *
 * Blocking: the broker never waits.  A blocking socket is made non-blocking
 * for the call (the workload's thread is parked in connect() meanwhile); a
 * connection still in progress (TCP) is finished from the broker's poll
 * loop (POLLOUT, then SO_ERROR), and an AF_UNIX listener with a full
 * backlog is tried again every 10 ms, while the broker goes on serving and
 * reaping.  A non-blocking socket gets the kernel's answer at once
 * (EINPROGRESS, EAGAIN), as without the sandbox.
 *
 * What differs from a direct connect(): the peer credentials a Unix server
 * sees (SO_PEERCRED) are the broker's, with the caller's uid; and a
 * Landlock domain the workload puts on itself does not restrict its
 * connect() calls.
 *
 * Input from the workload is only: the notification (from the kernel), a
 * descriptor number, an address length and the address bytes, each checked
 * before use; the broker may hold capabilities the workload has not (the
 * linux-ns init), so this code stays small.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "backend.h" /* report_write() */
#include "brokers/broker_peek.h"
#include "brokers/entry_broker.h"
#include "brokers/meta_broker.h"
#include "linux_common.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#define HAS_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1ULL

/* A connect() the broker finishes later (a blocking socket's). */
struct pending {
    __u64 id;                     /* the notification */
    int sock;                     /* our copy of the workload's socket */
    int target;                   /* AF_UNIX: the checked socket inode (O_PATH), else -1 */
    struct sockaddr_storage addr; /* what to connect to (again), AF_UNIX retry only */
    socklen_t len;
    bool in_progress; /* TCP-like: wait for POLLOUT; else retry (AF_UNIX) */
};

struct connect_broker {
    int listener;
    int report_fd; /* the caller's report, or -1 */
    const struct connect_rules *rules;
    size_t count;
    struct pending pending[CONNECT_BROKER_MAX_PENDING];
};

enum connect_address connect_address_classify(const void *addr, size_t len, char path[CONNECT_PATH_SIZE])
{
    const struct sockaddr_un *un = addr;
    /* Length first: sun_family is read only when it is there. */
    if (len <= offsetof(struct sockaddr_un, sun_path) || un->sun_family != AF_UNIX)
        return CONNECT_ADDRESS_AS_GIVEN; /* unnamed, AF_UNSPEC, another family */
    if (len > sizeof *un)
        return CONNECT_ADDRESS_INVALID; /* the kernel's limit for AF_UNIX */
    if (un->sun_path[0] == '\0')
        return CONNECT_ADDRESS_ABSTRACT;
    size_t plen = len - offsetof(struct sockaddr_un, sun_path); /* <= sizeof sun_path < CONNECT_PATH_SIZE */
    memcpy(path, un->sun_path, plen);
    path[plen] = '\0'; /* the path ends at its first NUL, as in the kernel */
    return CONNECT_ADDRESS_PATH;
}

_Static_assert(CONNECT_PATH_SIZE == sizeof(((struct sockaddr_un *)0)->sun_path) + 1,
               "CONNECT_PATH_SIZE holds sun_path and a NUL");

/* A Unix socket the rules refused, in the caller's report. */
struct unix_refusal {
    const char *path; /* as the workload named it; "@name" for an abstract address */
    size_t len;       /* its bytes: an abstract name may hold NULs */
    const char *reason;
};

static void unix_refusal_fields(struct report_line *l, const void *arg)
{
    const struct unix_refusal *r = arg;
    report_field_bytes(l, "path", r->path,
                       r->len); /* the workload's bytes: shortened with the reason if need be */
    report_field_text(l, "reason", r->reason);
}

static void report_unix(const struct connect_broker *b, const char *path, size_t len, const char *reason)
{
    struct unix_refusal r = {path, len, reason};
    report_write(b->report_fd, "unix-connect-refused", unix_refusal_fields, &r);
}

/* An IP destination the rules refused. */
struct inet_refusal {
    char address[64];
    unsigned port;
    const char *reason;
};

static void inet_refusal_fields(struct report_line *l, const void *arg)
{
    const struct inet_refusal *r = arg;
    report_field_string(l, "address", r->address, sizeof r->address);
    report_field_uint(l, "port", r->port);
    report_field_text(l, "reason", r->reason);
}

static void report_inet(const struct connect_broker *b, const struct sockaddr_storage *sa, socklen_t len)
{
    if (b->report_fd < 0)
        return;
    struct inet_refusal r = {.address = "?",
                             .reason = b->rules->inet_refused ? b->rules->inet_refused
                                                              : "the sandbox's network rules"};
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
    if (sa->ss_family == AF_INET && len >= sizeof *in) {
        inet_ntop(AF_INET, &in->sin_addr, r.address, sizeof r.address);
        r.port = ntohs(in->sin_port);
    } else if (sa->ss_family == AF_INET6 && len >= sizeof *in6) {
        inet_ntop(AF_INET6, &in6->sin6_addr, r.address, sizeof r.address);
        r.port = ntohs(in6->sin6_port);
    }
    report_write(b->report_fd, "ip-connect-refused", inet_refusal_fields, &r);
}

/* A pathname socket: the checked inode, through /proc/self/fd/N in `sa`
 * (*target left open).  0 or -errno. */
static int unix_destination(const struct connect_broker *b, pid_t tid, const char *path,
                            struct sockaddr_storage *sa, socklen_t *len, int *target)
{
    const struct connect_rules *rules = b->rules;
    int fd = broker_resolve(tid, -1, path, false);
    if (fd < 0)
        return fd;
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = -errno;
    else if (!S_ISSOCK(st.st_mode))
        rc = -ECONNREFUSED; /* what the kernel says for a non-socket */
    else if ((rc = rules->unix_path_ok(fd, &st, rules->arg)) != 0)
        report_unix(b, path, strlen(path), rules->unix_refused ? rules->unix_refused : "a host socket");
    if (rc != 0) {
        close(fd);
        return rc;
    }
    struct sockaddr_un *un = (struct sockaddr_un *)sa;
    memset(un, 0, sizeof *un);
    un->sun_family = AF_UNIX;
    struct fd_path self = fd_path(fd); /* shorter than sun_path */
    memcpy(un->sun_path, self.s, strlen(self.s) + 1);
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(self.s) + 1);
    *target = fd;
    return 0;
}

/* An abstract address refused: its name as "@name", all of its bytes (a
 * NUL is part of an abstract name). */
static void report_abstract(const struct connect_broker *b, const struct sockaddr_storage *sa, socklen_t len)
{
    const struct sockaddr_un *un = (const struct sockaddr_un *)sa;
    char name[CONNECT_PATH_SIZE + 1] = "@";
    size_t n = len - offsetof(struct sockaddr_un, sun_path) - 1; /* classify: len > that offset */
    memcpy(name + 1, un->sun_path + 1, n);                       /* n < sizeof sun_path */
    report_unix(b, name, n + 1, "an abstract address: the host's abstract socket namespace");
}

/* The address to connect `sock` to, from the workload's copy `sa`: for an
 * AF_UNIX pathname the checked inode, else the copy itself, once the rules
 * allow it.  0 or -errno. */
static int destination(struct connect_broker *b, int domain, pid_t tid, struct sockaddr_storage *sa,
                       socklen_t *len, int *target)
{
    const struct connect_rules *rules = b->rules;
    if (domain == AF_INET || domain == AF_INET6) {
        int rc = rules->inet_ok ? rules->inet_ok(sa, *len, rules->arg) : 0;
        if (rc != 0)
            report_inet(b, sa, *len);
        return rc;
    }
    if (domain != AF_UNIX)
        return 0; /* the kernel judges the copy (the filter decides which families exist) */
    char path[CONNECT_PATH_SIZE];
    switch (connect_address_classify(sa, *len, path)) {
    case CONNECT_ADDRESS_AS_GIVEN: return 0;
    case CONNECT_ADDRESS_INVALID: return -EINVAL;
    case CONNECT_ADDRESS_ABSTRACT:
        if (rules->abstract_ok)
            return 0;
        report_abstract(b, sa, *len); /* the host's abstract namespace */
        return -ECONNREFUSED;
    case CONNECT_ADDRESS_PATH: break;
    }
    return unix_destination(b, tid, path, sa, len, target);
}

/* connect() without blocking, whatever the socket's mode (`flags`, its
 * F_GETFL): 0 or -errno. */
static int connect_now(int sock, int flags, const struct sockaddr_storage *sa, socklen_t len)
{
    if (!(flags & O_NONBLOCK))
        fcntl(sock, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(sock, (const struct sockaddr *)sa, len) == 0 ? 0 : -errno;
    if (!(flags & O_NONBLOCK))
        fcntl(sock, F_SETFL, flags);
    return rc;
}

static void close_pending(struct pending *p)
{
    close(p->sock);
    if (p->target >= 0)
        close(p->target);
}

/* Make the connect() of notification `req`; answer it now, or keep it
 * pending (a blocking socket whose connection is not made yet). */
static void broker(struct connect_broker *b, const struct seccomp_notif *req)
{
    struct pending p = {.id = req->id, .sock = -1, .target = -1};
    int rc = broker_fetch_fd(b->listener, req, (int)req->data.args[0], &p.sock), domain = 0, flags = 0;
    socklen_t dlen = sizeof domain;
    int len = (int)req->data.args[2];
    if (rc == 0 && getsockopt(p.sock, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) != 0)
        rc = -errno; /* ENOTSOCK */
    /* The kernel's own limits (move_addr_to_kernel): 0 to sockaddr_storage. */
    else if (rc == 0 && (len < 0 || (size_t)len > sizeof p.addr))
        rc = -EINVAL;
    else if (rc == 0)
        rc = broker_read((pid_t)req->pid, req->data.args[1], &p.addr, (size_t)len);
    p.len = (socklen_t)(len > 0 ? len : 0);
    if (rc == 0)
        rc = destination(b, domain, (pid_t)req->pid, &p.addr, &p.len, &p.target);
    if (rc == 0 && (flags = fcntl(p.sock, F_GETFL)) < 0)
        rc = -errno;
    if (rc == 0)
        rc = connect_now(p.sock, flags, &p.addr, p.len);
    bool blocking = !(flags & O_NONBLOCK);
    if (blocking && (rc == -EINPROGRESS || (rc == -EAGAIN && domain == AF_UNIX)) &&
        b->count < CONNECT_BROKER_MAX_PENDING) {
        p.in_progress = rc == -EINPROGRESS;
        b->pending[b->count++] = p; /* answered from connect_broker_progress() */
        return;
    }
    broker_respond(b->listener, req->id, rc);
    if (p.sock >= 0)
        close_pending(&p);
}

const char *connect_broker_unsupported(void)
{
    return broker_peek_supported() ? NULL
                                   : "this kernel lacks pidfd_getfd (Linux >= 5.6), which the sandbox needs "
                                     "to keep host Unix sockets "
                                     "out of reach; run on a newer kernel";
}

struct connect_broker *connect_broker_new(int listener, const struct connect_rules *rules, int report_fd)
{
    struct connect_broker *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->listener = listener;
    b->report_fd = report_fd;
    b->rules = rules;
    /* Linux >= 6.7: the kernel switches straight to the broker and back on a
     * notification instead of waking it on another CPU (a TCP connect()
     * cost ~20 us more here instead of ~57).  Older kernels refuse the flag
     * and work as before. */
    __u64 sync = HAS_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
    (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);
    return b;
}

int connect_broker_serve(struct connect_broker *b)
{
    struct seccomp_notif req;
    memset(&req, 0, sizeof req); /* the kernel refuses a dirty buffer */
    if (ioctl(b->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0)
        return errno == EINTR || errno == ENOENT ? 0 : -1; /* ENOENT: the caller died */
    if (req.data.nr == SYS_connect)
        broker(b, &req);
    else if (!meta_broker_serve(b->listener, &req, b->rules, b->report_fd) &&
             !entry_broker_serve(b->listener, &req, b->rules))
        broker_respond(b->listener, req.id, -ENOSYS);
    return 0;
}

size_t connect_broker_pollfds(const struct connect_broker *b, struct pollfd *fds, int *timeout_ms)
{
    *timeout_ms = -1;
    for (size_t i = 0; i < b->count; i++) {
        fds[i] =
            (struct pollfd){.fd = b->pending[i].in_progress ? b->pending[i].sock : -1, .events = POLLOUT};
        if (!b->pending[i].in_progress)
            *timeout_ms = 10; /* an AF_UNIX backlog that was full: try again */
    }
    return b->count;
}

void connect_broker_progress(struct connect_broker *b, const struct pollfd *fds)
{
    size_t kept = 0;
    for (size_t i = 0; i < b->count; i++) {
        struct pending *p = &b->pending[i];
        int rc = 1; /* still pending */
        if (p->in_progress && fds[i].revents) {
            int soerr = 0;
            socklen_t n = sizeof soerr;
            rc = getsockopt(p->sock, SOL_SOCKET, SO_ERROR, &soerr, &n) != 0 ? -errno : -soerr;
        } else if (!p->in_progress) {
            int flags = fcntl(p->sock, F_GETFL);
            rc = flags < 0 ? -errno : connect_now(p->sock, flags, &p->addr, p->len);
            if (rc == -EAGAIN)
                rc = 1;
        }
        if (rc == 1 && !broker_id_valid(b->listener, p->id))
            rc = -EINTR; /* the caller was interrupted or died: drop it */
        if (rc == 1) {
            b->pending[kept++] = *p;
            continue;
        }
        broker_respond(b->listener, p->id, rc);
        close_pending(p);
    }
    b->count = kept;
}
