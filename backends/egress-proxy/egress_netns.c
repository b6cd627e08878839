/*
 * egress_netns.c — the private-network variant (egress_platform.h).  prepare(): the
 * ports are fixed, so the workload's variables are set before the egress
 * process starts; enter() runs in PID 2 of the sandbox, inside its network
 * namespace, and hands the loopback listeners over with SCM_RIGHTS.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egress_env.h"
#include "egress_platform.h"
#include "egress_spawn.h"
#include "name_views.h"
#include "process/egress_process.h"

/* Front-end ports on the sandbox's own loopback.  The network namespace is
 * private, so fixed, familiar ports cannot collide with anything of the
 * host's; the workload starts only after they are bound. */
#define HTTP_PORT 3128
#define SOCKS5_PORT 1080
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct egress_state {
    int control; /* sandbox end of the socketpair */
    struct stat host_netns, host_mntns;
    unsigned front_ends;
    struct synth_table synth; /* the transparent front-end's slots and ports */
};

/* Wait for one message from the egress process. */
static enum sandbox_result await_ready(struct sandbox_ctx *ctx, int control, const char *stage)
{
    struct pollfd pfd = {.fd = control, .events = POLLIN};
    int r;
    do
        r = poll(&pfd, 1, EGRESS_START_TIMEOUT_MS);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return sandbox_fail(ctx, "the egress process did not answer within %d s (%s)",
                            EGRESS_START_TIMEOUT_MS / 1000, stage);
    char msg[EGRESS_LINE_MAX];
    ssize_t n = recv(control, msg, sizeof msg - 1, 0);
    if (n <= 0)
        return sandbox_fail(ctx, "the egress process ended during %s", stage);
    msg[n] = '\0';
    if (msg[0] == EGRESS_MSG_READY)
        return SANDBOX_OK;
    return sandbox_fail(ctx, "egress process (%s): %s", stage,
                        msg[0] == EGRESS_MSG_ERROR ? msg + 1 : "unexpected reply");
}

/* The slots and ports the relay listens on, from the policy as the egress
 * process compiles it (egress_spawn.c); a policy over the limits is
 * refused here, before anything starts. */
static enum sandbox_result transparent_table(struct sandbox_ctx *ctx, struct synth_table *t)
{
    struct host_policy rules, derived = {NULL, 0};
    char err[SANDBOX_ERROR_MAX];
    if (egress_compile_hosts(&ctx->policy->network, &rules) != 0)
        return sandbox_fail(ctx, "out of memory compiling network.allowedHosts");
    int rc = synth_setup(&rules, &derived, t, err, sizeof err);
    free(rules.rules);
    free(derived.rules);
    return rc == 0 ? SANDBOX_OK : sandbox_fail(ctx, "network.outgoingProxy: %s", err);
}

static enum sandbox_result netns_start(struct sandbox_ctx *ctx, const struct egress_secrets *secrets,
                                       unsigned fe)
{
    struct egress_state *st = calloc(1, sizeof *st);
    if (!st)
        return sandbox_fail(ctx, "out of memory");
    st->control = -1;
    *sandbox_state(ctx) = st;
    st->front_ends = fe;
    if (stat("/proc/self/ns/net", &st->host_netns) != 0)
        return sandbox_fail(ctx, "cannot identify the host network namespace (/proc/self/ns/net): %s",
                            strerror(errno));
    if (stat("/proc/self/ns/mnt", &st->host_mntns) != 0)
        return sandbox_fail(ctx, "cannot identify the host mount namespace (/proc/self/ns/mnt): %s",
                            strerror(errno));
    if ((fe & POLICY_FRONT_END_TRANSPARENT) && transparent_table(ctx, &st->synth) != SANDBOX_OK)
        return SANDBOX_FAIL;
    if (egress_env_set(ctx, &secrets->creds, fe, HTTP_PORT, SOCKS5_PORT) != SANDBOX_OK)
        return SANDBOX_FAIL;
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0)
        return sandbox_fail(ctx, "cannot create the egress socketpair: %s", strerror(errno));
    if (egress_spawn(ctx, secrets, fe, false, sp) != SANDBOX_OK)
        return SANDBOX_FAIL;
    st->control = sp[0];
    return await_ready(ctx, st->control, "start-up");
}

/* A socket of `type` bound to addr:port of the sandbox's loopback (host
 * order), listening if it is a stream. */
static int loopback_socket(int type, uint32_t addr, unsigned short port)
{
    int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port)};
    sin.sin_addr.s_addr = htonl(addr);
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
        (type == SOCK_STREAM && listen(fd, 4096) != 0)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* One batch of at most EGRESS_BATCH listeners: their kinds after the
 * message type, the descriptors in SCM_RIGHTS.  0, or -1 with errno. */
static int send_batch(int control, char type, const int *fds, const char *kinds, size_t n)
{
    char payload[1 + EGRESS_BATCH];
    payload[0] = type;
    memcpy(payload + 1, kinds, n);
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int) * EGRESS_BATCH)];
    } cmsg;
    memset(&cmsg, 0, sizeof cmsg);
    struct iovec iov = {payload, 1 + n};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = cmsg.buf,
                         .msg_controllen = CMSG_SPACE(sizeof(int) * n)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int) * n);
    memcpy(CMSG_DATA(h), fds, sizeof(int) * n);
    return sendmsg(control, &msg, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

/* All of them, in batches (the last one says so), then wait for "ready". */
static enum sandbox_result send_listeners(struct sandbox_ctx *ctx, struct egress_state *st, const int *fds,
                                          const char *kinds, size_t n)
{
    for (size_t at = 0; at < n; at += EGRESS_BATCH) {
        size_t k = n - at < EGRESS_BATCH ? n - at : EGRESS_BATCH;
        char type = at + k == n ? EGRESS_MSG_LISTENERS_END : EGRESS_MSG_LISTENERS;
        if (send_batch(st->control, type, fds + at, kinds + at, k) != 0)
            return sandbox_fail(ctx, "cannot hand the front-ends to the egress process: %s", strerror(errno));
    }
    return await_ready(ctx, st->control, "front-end hand-over");
}

/* The transparent front-end's sockets, appended to fds[]/kinds[] at *n:
 * the resolver, then one listener per slot and port (the egress process
 * may not bind; the ports below 1024 need the capability this process
 * still holds in the sandbox's user namespace). */
static enum sandbox_result transparent_sockets(struct sandbox_ctx *ctx, const struct synth_table *t, int *fds,
                                               char *kinds, size_t *n)
{
    int fd = loopback_socket(SOCK_DGRAM, EGRESS_DNS_ADDR, 53);
    if (fd < 0)
        return sandbox_fail(ctx, "cannot bind the resolver on 127.0.0.53:53 in the sandbox: %s",
                            strerror(errno));
    fds[*n] = fd;
    kinds[(*n)++] = EGRESS_KIND_DNS;
    for (size_t slot = 0; slot < t->slots; slot++) {
        unsigned char a[4];
        synth_slot_addr(slot, a);
        uint32_t addr = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
        for (size_t p = 0; p < t->nports; p++) {
            fd = loopback_socket(SOCK_STREAM, addr, t->ports[p]);
            if (fd < 0)
                return sandbox_fail(ctx, "cannot listen on %u.%u.%u.%u:%u in the sandbox: %s", a[0], a[1],
                                    a[2], a[3], (unsigned)t->ports[p], strerror(errno));
            fds[*n] = fd;
            kinds[(*n)++] = EGRESS_KIND_TRANSPARENT;
        }
    }
    return SANDBOX_OK;
}

static enum sandbox_result netns_enter(struct sandbox_ctx *ctx)
{
    struct egress_state *st = *sandbox_state(ctx);
    if (!st)
        return SANDBOX_OK;
    /* SANDBOX_OFFER_PRIVATE_NETWORK was checked when the set was
     * assembled; checked again, as what fails closed: in the host's
     * namespace the front-ends would be reachable from outside and the
     * workload would not need them. */
    struct stat here;
    if (stat("/proc/self/ns/net", &here) != 0)
        return sandbox_fail(ctx, "cannot identify the sandbox network namespace: %s", strerror(errno));
    if (here.st_ino == st->host_netns.st_ino && here.st_dev == st->host_netns.st_dev)
        return sandbox_fail(ctx,
                            "the outgoing proxy's front-ends would open in the host's network namespace: "
                            "a backend offering a private network did not provide one (backend bug)");
    int fds[EGRESS_MAX_LISTENERS];
    char kinds[EGRESS_MAX_LISTENERS];
    size_t n = 0;
    enum sandbox_result r = SANDBOX_OK;
    static const struct {
        unsigned bit;
        unsigned short port;
        char kind;
    } fronts[] = {
        {POLICY_FRONT_END_HTTP, HTTP_PORT, EGRESS_KIND_HTTP},
        {POLICY_FRONT_END_SOCKS5, SOCKS5_PORT, EGRESS_KIND_SOCKS5},
    };
    for (size_t i = 0; i < COUNT(fronts) && r == SANDBOX_OK; i++) {
        if (!(st->front_ends & fronts[i].bit))
            continue;
        int fd = loopback_socket(SOCK_STREAM, INADDR_LOOPBACK, fronts[i].port);
        if (fd < 0)
            r = sandbox_fail(ctx, "cannot listen on 127.0.0.1:%u in the sandbox: %s",
                             (unsigned)fronts[i].port, strerror(errno));
        else {
            fds[n] = fd;
            kinds[n++] = fronts[i].kind;
        }
    }
    if (r == SANDBOX_OK && (st->front_ends & POLICY_FRONT_END_TRANSPARENT))
        r = transparent_sockets(ctx, &st->synth, fds, kinds, &n);
    if (r == SANDBOX_OK)
        r = send_listeners(ctx, st, fds, kinds, n);
    char err[SANDBOX_ERROR_MAX];
    if (r == SANDBOX_OK && (st->front_ends & POLICY_FRONT_END_TRANSPARENT) &&
        name_views_install(&st->host_mntns, err, sizeof err) != 0)
        r = sandbox_fail(ctx, "%s", err);
    /* The egress process holds its own copies now; none stay here. */
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
    close(st->control);
    st->control = -1;
    return r;
}

/* Fixed ports inside the sandbox's own network namespace, which the
 * boundary must give. */
const struct egress_variant egress_via_netns = {
    .needs = SANDBOX_OFFER_PRIVATE_NETWORK,
    .front_ends = POLICY_FRONT_END_HTTP | POLICY_FRONT_END_SOCKS5 | POLICY_FRONT_END_TRANSPARENT,
    .start = netns_start,
    .enter = netns_enter,
};
