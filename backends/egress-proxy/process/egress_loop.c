/*
 * egress_loop.c — accept, dispatch, deadlines.  Level-triggered readiness
 * (evpoll.h: epoll on Linux, poll(2) on macOS); each
 * connection's interest is recomputed after every step, so a connection
 * whose peer is slow simply stops asking for the events that would move
 * more bytes towards it (back-pressure), and nothing ever blocks: one
 * stalled client costs its own buffers and nothing else.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "process/egress_compat.h"
#include "process/egress_loop.h"
#include "wipe.h"

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void conn_set_interest(struct egress_loop *loop, struct endpoint *ep, uint32_t events)
{
    if (ep->fd < 0 || ep->hup)
        return;
    if (!ep->registered) {
        if (evpoll_set(loop->ev, ep->fd, ep, events, 0) == 0)
            ep->registered = true;
    } else if (events != ep->events) {
        evpoll_set(loop->ev, ep->fd, ep, events, 1);
    }
    ep->events = events;
}

static void close_endpoint(struct egress_loop *loop, struct endpoint *ep, bool reset)
{
    if (ep->fd < 0)
        return;
    if (reset) {
        /* Turn the close into a RST so the peer sees an error, not a clean
         * end of stream that could pass for a complete transfer. */
        struct linger lg = {.l_onoff = 1, .l_linger = 0};
        setsockopt(ep->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
    if (ep->registered)
        evpoll_closing(loop->ev, ep->fd);
    close(ep->fd);
    ep->fd = -1;
    ep->registered = false;
}

void conn_close(struct egress_loop *loop, struct conn *c, bool reset)
{
    if (c->closed)
        return;
    c->closed = true;
    close_endpoint(loop, &c->cli, reset);
    close_endpoint(loop, &c->up, reset);
    relay_release(c);
    free(c->in);
    free(c->out);
    free(c->to_up);
    if (c->tunnel) {
        wipe_secret(c->tunnel, c->tunnel_len); /* a CONNECT not yet sent holds the upstream's credentials */
        free(c->tunnel);
        c->tunnel = NULL;
    }
    c->in = NULL;
    c->out = NULL;
    c->to_up = NULL;
    if (c->prev)
        c->prev->next = c->next;
    else
        loop->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    loop->nconns--;
    /* A job still with a resolver worker points at this struct: it is freed
     * when the job comes back (resolver_done), otherwise after this batch. */
    if (!c->job_out) {
        free(c->job);
        c->job = NULL;
        c->next = loop->graveyard;
        loop->graveyard = c;
    }
}

/* Take ownership of msg and send it, then half-close and drain (so the
 * refusal is not destroyed by a RST for unread request bytes). */
void conn_refuse(struct egress_loop *loop, struct conn *c, char *msg, size_t len)
{
    free(c->out);
    c->out = msg;
    c->out_len = msg ? len : 0;
    c->out_off = 0;
    c->state = ST_FLUSH;
    c->deadline_ms = loop->now_ms + LINGER_TIMEOUT_MS;
    close_endpoint(loop, &c->up, false);
    conn_set_interest(loop, &c->cli, EV_OUT);
}

static void flush_step(struct egress_loop *loop, struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->cli.fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EAGAIN)
            return;
        if (w <= 0) {
            conn_close(loop, c, false);
            return;
        }
        c->out_off += (size_t)w;
    }
    shutdown(c->cli.fd, SHUT_WR);
    c->state = ST_LINGER;
    conn_set_interest(loop, &c->cli, EV_IN);
}

/* Read and drop what fd has queued, a bounded amount; true at its end of
 * stream or on an error. */
static bool discard_input(int fd, bool *dropped)
{
    char sink[4096];
    for (int i = 0; i < 16; i++) {
        ssize_t r = recv(fd, sink, sizeof sink, 0);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return false;
        if (r <= 0)
            return true;
        *dropped = true;
    }
    return false;
}

bool direction_discard(struct direction *d, int src)
{
    if (d->src_eof)
        return true;
    if (discard_input(src, &d->excess))
        d->src_eof = true;
    return d->src_eof;
}

static void linger_step(struct egress_loop *loop, struct conn *c)
{
    /* Until the client's end of stream, or the linger deadline (expire). */
    bool dropped = false;
    if (discard_input(c->cli.fd, &dropped))
        conn_close(loop, c, false);
}

static void handshake_step(struct egress_loop *loop, struct conn *c)
{
    if (c->in_len == CONN_IN_CAP) {
        conn_close(loop, c, true); /* the front-end should have refused already */
        return;
    }
    ssize_t r = recv(c->cli.fd, c->in + c->in_len, CONN_IN_CAP - c->in_len, 0);
    if (r < 0 && errno == EAGAIN)
        return;
    if (r <= 0) {
        conn_close(loop, c, false);
        return;
    }
    c->in_len += (size_t)r;
    c->front->step(loop, c);
}

void conn_request_ready(struct egress_loop *loop, struct conn *c, const char *host, size_t host_len,
                        unsigned short port)
{
    c->port = port;
    c->deadline_ms = loop->now_ms + CONNECT_TIMEOUT_MS;
    /* The client's interest is dropped where we wait (the lookup, a connect
     * in flight); every other way on sets its own. */
    dest_decide(c->front->derived_rules ? &loop->transparent : &loop->policy, host, host_len, port, &c->dest);
    if (c->dest.verdict == DEST_MALFORMED || c->dest.verdict == DEST_DENIED) {
        upstream_fail(loop, c, false);
        return;
    }
    if (tunnel_route(loop, c))
        return;
    if (c->dest.verdict == DEST_CONNECT_LITERAL) {
        c->addrs[0] = c->dest.host.literal;
        c->naddrs = 1;
        c->next_addr = 0;
        upstream_connect_next(loop, c);
        return;
    }
    conn_resolve(loop, c, c->dest.host.name);
}

void conn_resolve(struct egress_loop *loop, struct conn *c, const char *name)
{
    c->job = calloc(1, sizeof *c->job);
    if (!c->job) {
        conn_close(loop, c, true);
        return;
    }
    snprintf(c->job->host, sizeof c->job->host, "%s", name);
    c->job->owner = c;
    c->state = ST_RESOLVING;
    c->job_out = true;
    conn_set_interest(loop, &c->cli, 0);
    resolver_submit(c->job);
}

static void resolver_done(struct egress_loop *loop, int fd)
{
    struct resolve_job *job;
    for (int i = 0; i < 64 && (job = resolver_take(fd)); i++) {
        struct conn *c = job->owner;
        c->job_out = false;
        if (c->closed) { /* the client went away during the lookup */
            free(job);
            c->job = NULL;
            c->next = loop->graveyard;
            loop->graveyard = c;
            continue;
        }
        if (c->state == ST_RESOLVING) /* not already refused for a timeout */
            upstream_resolved(loop, c);
    }
}

/*
 * Out of descriptors, a level-triggered listener would report the same
 * pending client forever and the loop would spin.  A descriptor held in
 * reserve is given up to accept that client and close it at once.
 */
static int reserve_fd = -1;

static void shed_pending_client(int listen_fd)
{
    if (reserve_fd >= 0)
        close(reserve_fd);
    int fd = egress_accept_nb(listen_fd);
    if (fd >= 0)
        close(fd);
    reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* The highest descriptor number the loop may have to watch, plus one. */
static size_t descriptor_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > 1048576)
        return 1048576;
    return (size_t)lim.rlim_cur;
}

static void accept_clients(struct egress_loop *loop, struct listener *l)
{
    for (int i = 0; i < 64; i++) {
        int fd = egress_accept_nb(l->fd);
        if (fd < 0 && (errno == EMFILE || errno == ENFILE))
            shed_pending_client(l->fd);
        if (fd < 0)
            return; /* EAGAIN, or ECONNABORTED: retried on the next event */
        struct conn *c = loop->nconns < loop->max_conns ? calloc(1, sizeof *c) : NULL;
        /* A front-end that reads no request needs no handshake buffer. */
        unsigned char *in = c && !l->front->accepted ? malloc(CONN_IN_CAP) : NULL;
        if (!c || (!in && !l->front->accepted)) {
            /* Over the connection cap (or out of memory): refuse this one
             * rather than stop accepting, which would stall every client. */
            free(c);
            close(fd);
            continue;
        }
        c->in = in;
        c->front = l->front;
        c->cli = (struct endpoint){.w = {W_CLIENT}, .conn = c, .fd = fd};
        c->up = (struct endpoint){.w = {W_UPSTREAM}, .conn = c, .fd = -1};
        for (int d = 0; d < 2; d++)
            c->dir[d] = (struct direction){.pipe_rd = -1, .pipe_wr = -1};
        c->deadline_ms = loop->now_ms + HANDSHAKE_TIMEOUT_MS;
        c->next = loop->conns;
        if (loop->conns)
            loop->conns->prev = c;
        loop->conns = c;
        loop->nconns++;
        if (l->front->accepted) {
            l->front->accepted(loop, c);
            continue;
        }
        /* A client writes its request right after connect(), usually before
         * we get here: read it now rather than after another wakeup (a miss
         * costs one recv). */
        handshake_step(loop, c);
        if (!c->closed && c->state == ST_HANDSHAKE)
            conn_set_interest(loop, &c->cli, EV_IN);
    }
}

static void client_event(struct egress_loop *loop, struct conn *c, struct endpoint *ep, uint32_t ev)
{
    if (c->state == ST_RELAY) {
        bool reused = c->dir[0].excess;
        relay_event(loop, c, ep, ev);
        /* A reused connection lives while the origin still sends (expire). */
        if (!c->closed && c->dir[0].excess && (!reused || ep == &c->up))
            c->deadline_ms = loop->now_ms + REUSE_IDLE_MS;
        return;
    }
    if (ep == &c->up) {
        /* A failed connect reports EV_ERR too: SO_ERROR says which. */
        if (c->state == ST_CONNECTING)
            upstream_writable(loop, c);
        else if (c->state == ST_TUNNEL)
            tunnel_event(loop, c);
        return;
    }
    if (ev & EV_ERR) {
        conn_close(loop, c, true);
        return;
    }
    switch (c->state) {
    case ST_HANDSHAKE: handshake_step(loop, c); break;
    case ST_FLUSH: flush_step(loop, c); break;
    case ST_LINGER: linger_step(loop, c); break;
    default:
        /* Waiting for a lookup or a connect with no interest on the client:
         * only a hang-up can wake us, and then there is no one to serve. */
        if (ev & EV_HUP)
            conn_close(loop, c, false);
        break;
    }
}

static void expire(struct egress_loop *loop)
{
    for (struct conn *c = loop->conns, *next; c; c = next) {
        next = c->next;
        if ((c->state == ST_RELAY && !c->dir[0].excess) || loop->now_ms < c->deadline_ms)
            continue;
        if (c->state == ST_CONNECTING || c->state == ST_RESOLVING || c->state == ST_TUNNEL)
            upstream_fail(loop, c, true);
        else
            conn_close(loop, c, c->state == ST_HANDSHAKE);
    }
}

static void bury(struct egress_loop *loop)
{
    while (loop->graveyard) {
        struct conn *c = loop->graveyard;
        loop->graveyard = c->next;
        free(c);
    }
}

static int add_watch(struct egress_loop *loop, int fd, struct watch *w, char *err, size_t errlen)
{
    if (evpoll_set(loop->ev, fd, w, EV_IN, 0) != 0) {
        snprintf(err, errlen, "cannot watch descriptor %d: %s", fd, strerror(errno));
        return -1;
    }
    return 0;
}

int egress_loop_run(struct egress_loop *loop, struct listener *listeners, size_t count, int control_fd,
                    char *err, size_t errlen)
{
    static struct watch resolver_watch = {W_RESOLVER}, control_watch = {W_CONTROL};
    reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int resolver_fd = resolver_start();
    if (resolver_fd < 0) {
        snprintf(err, errlen, "cannot start the resolver threads: %s", strerror(errno));
        return -1;
    }
    if (!(loop->ev = evpoll_new(descriptor_limit()))) {
        snprintf(err, errlen, "cannot create the event set: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        listeners[i].w.kind = listeners[i].front ? W_LISTENER : W_DNS;
        if (add_watch(loop, listeners[i].fd, &listeners[i].w, err, errlen) != 0)
            return -1;
    }
    if (add_watch(loop, resolver_fd, &resolver_watch, err, errlen) != 0 ||
        add_watch(loop, control_fd, &control_watch, err, errlen) != 0)
        return -1;
    struct ev_ready events[128];
    for (;;) {
        int timeout = loop->nconns ? 250 : -1;
        int n = evpoll_wait(loop->ev, events, 128, timeout);
        if (n < 0) {
            snprintf(err, errlen, "waiting for events: %s", strerror(errno));
            return -1;
        }
        loop->now_ms = monotonic_ms();
        for (int i = 0; i < n; i++) {
            struct watch *w = events[i].ptr;
            uint32_t ev = events[i].events;
            if (w->kind == W_LISTENER) {
                accept_clients(loop, (struct listener *)(void *)w);
            } else if (w->kind == W_DNS) {
                dns_frontend_serve(loop, ((struct listener *)(void *)w)->fd);
            } else if (w->kind == W_RESOLVER) {
                resolver_done(loop, resolver_fd);
            } else if (w->kind == W_CONTROL) {
                return 0; /* the supervisor side wrote or went away: either way we end */
            } else {
                struct endpoint *ep = (struct endpoint *)(void *)w;
                if (ep->conn->closed || ep->fd < 0)
                    continue; /* closed earlier in this batch */
                client_event(loop, ep->conn, ep, ev);
            }
        }
        expire(loop);
        bury(loop);
    }
}
