/*
 * relay.c — moving bytes once both sockets exist.
 *
 * Linux.  Each direction is src socket -> pipe -> dst socket with splice(2), so the
 * payload stays in kernel pages and never enters this process's memory.
 * A direction gets its pipe only when its first byte arrives, so an idle
 * tunnel costs two sockets and a few hundred bytes of state.
 *
 * Back-pressure: a direction asks for EV_IN on its source only while its
 * pipe has room, and for EV_OUT on its destination only while the pipe
 * (or a prefix) holds bytes.  A slow reader therefore stops its own writer
 * and nobody else.  Each wakeup moves at most RELAY_BUDGET bytes per
 * direction, so one fast connection cannot starve the rest of the loop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn.h"

#define RELAY_PIPE_SIZE (1024 * 1024)
#define RELAY_BUDGET (4 * 1024 * 1024)

enum pump_result { PUMP_OK, PUMP_ERROR };

const unsigned relay_fds_per_conn = 6;   /* two sockets, two pipes of two ends */

static int open_pipe(struct direction *d)
{
    int p[2];
    if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    d->pipe_rd = p[0];
    d->pipe_wr = p[1];
    /* Larger pipes mean fewer wakeups per megabyte; the kernel may refuse
     * (pipe-user-pages limits), and the default size then still works. */
    fcntl(p[1], F_SETPIPE_SZ, RELAY_PIPE_SIZE);
    int size = fcntl(p[1], F_GETPIPE_SZ);
    d->cap = size > 0 ? (size_t)size : 65536;
    return 0;
}

static void close_pipe(struct direction *d)
{
    if (d->pipe_rd >= 0)
        close(d->pipe_rd);
    if (d->pipe_wr >= 0)
        close(d->pipe_wr);
    d->pipe_rd = d->pipe_wr = -1;
    d->bytes = 0;
}

void relay_release(struct conn *c)
{
    for (int i = 0; i < 2; i++)
        close_pipe(&c->dir[i]);
    /* dir[0].prefix is the malloc'd upstream prefix; dir[1].prefix is a
     * static reply string. */
    free(c->dir[0].prefix);
    c->dir[0].prefix = NULL;
    c->dir[1].prefix = NULL;
}

/* Move what the direction can without blocking.  src_ready: the source was
 * reported readable (or has hung up and must be read to its end). */
static enum pump_result pump(struct direction *d, int src, int dst, bool src_ready, bool src_hup)
{
    size_t moved = 0;
    bool progress = true;
    /* A hung-up source has only what is already queued: read it all. */
    while (progress && (moved < RELAY_BUDGET || src_hup) && !d->shut && !d->dead) {
        progress = false;
        bool prefix_blocked = false;
        while (d->prefix_off < d->prefix_len) {
            ssize_t w = send(dst, d->prefix + d->prefix_off, d->prefix_len - d->prefix_off, MSG_NOSIGNAL);
            if (w < 0 && errno == EAGAIN) {
                /* Keep filling the pipe below (pipe data goes out only after
                 * the prefix); returning here would leave EV_IN asked for
                 * on a readable source and spin. */
                prefix_blocked = true;
                break;
            }
            if (w <= 0)
                return PUMP_ERROR;
            d->prefix_off += (size_t)w;
        }
        if (!prefix_blocked && d->bytes > 0) {
            ssize_t n = splice(d->pipe_rd, NULL, dst, NULL, d->bytes, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (n < 0 && errno != EAGAIN)
                return PUMP_ERROR;
            if (n > 0) {
                d->bytes -= (size_t)n;
                d->maybe_full = false;
                moved += (size_t)n;
                progress = true;
            }
        }
        if (direction_complete(d)) {
            /* The request is whole: what the client sends now is dropped. */
            if (!d->src_eof && src_ready && direction_discard(d, src))
                progress = true;
        } else if (!d->src_eof && !d->maybe_full && (d->pipe_rd >= 0 || src_ready) &&
            (d->pipe_rd < 0 || d->bytes < d->cap)) {
            if (d->pipe_rd < 0 && open_pipe(d) != 0)
                return PUMP_ERROR;
            ssize_t n = splice(src, NULL, d->pipe_wr, NULL, direction_allowance(d, d->cap - d->bytes),
                               SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (n == 0) {
                d->src_eof = true;
                progress = true;
            } else if (n > 0) {
                d->bytes += (size_t)n;
                direction_took(d, (size_t)n);
                progress = true;
            } else if (errno == EAGAIN) {
                /* Either the socket is empty or the pipe is full (its slots
                 * can fill before its byte capacity).  With bytes in the pipe
                 * the destination (or its prefix) is blocked: wait for it. */
                if (d->bytes > 0)
                    d->maybe_full = true;
            } else {
                return PUMP_ERROR;
            }
        }
    }
    if (d->src_eof && d->bytes == 0 && d->prefix_off == d->prefix_len && !d->shut) {
        shutdown(dst, SHUT_WR);   /* pass the end of stream on, keep the other way open */
        d->shut = true;
        close_pipe(d);
    }
    return PUMP_OK;
}

static uint32_t want_in(const struct direction *d)
{
    if (d->src_eof || d->dead)
        return 0;
    return (direction_complete(d) || (!d->maybe_full && (d->pipe_rd < 0 || d->bytes < d->cap))) ? EV_IN : 0;
}

static uint32_t want_out(const struct direction *d)
{
    return (!d->dead && !d->shut && (d->prefix_off < d->prefix_len || d->bytes > 0)) ? EV_OUT : 0;
}

static void update_interest(struct egress_loop *loop, struct conn *c)
{
    conn_set_interest(loop, &c->cli, want_in(&c->dir[0]) | want_out(&c->dir[1]));
    conn_set_interest(loop, &c->up, want_in(&c->dir[1]) | want_out(&c->dir[0]));
}

static bool finished(const struct direction *d)
{
    return d->shut || d->dead;
}

/*
 * A peer that hung up entirely can still have unread bytes for the other
 * side, but can take none: stop watching it (level-triggered EPOLLHUP would
 * fire forever), drop what was owed to it, and read it to its end whenever
 * the other side has room.
 */
static void hang_up(struct egress_loop *loop, struct endpoint *ep, struct direction *towards)
{
    if (ep->registered) {
        evpoll_del(loop->ev, ep->fd);
        ep->registered = false;
    }
    ep->hup = true;
    towards->dead = true;
    towards->src_eof = true;
    close_pipe(towards);
}

static bool pump_all(struct conn *c, bool cli_ready, bool up_ready)
{
    return pump(&c->dir[0], c->cli.fd, c->up.fd, cli_ready || c->cli.hup, c->cli.hup) == PUMP_OK &&
           pump(&c->dir[1], c->up.fd, c->cli.fd, up_ready || c->up.hup, c->up.hup) == PUMP_OK;
}

void relay_event(struct egress_loop *loop, struct conn *c, struct endpoint *ep, uint32_t events)
{
    if (events & EV_ERR) {
        conn_close(loop, c, true);
        return;
    }
    bool readable = (events & (EV_IN | EV_HUP)) != 0;
    if (!pump_all(c, ep == &c->cli && readable, ep == &c->up && readable)) {
        conn_close(loop, c, true);
        return;
    }
    if (events & EV_HUP) {
        hang_up(loop, ep, ep == &c->cli ? &c->dir[1] : &c->dir[0]);
        if (!pump_all(c, false, false)) {
            conn_close(loop, c, true);
            return;
        }
    }
    if (finished(&c->dir[0]) && finished(&c->dir[1])) {
        conn_close(loop, c, false);
        return;
    }
    update_interest(loop, c);
}

void relay_start(struct egress_loop *loop, struct conn *c)
{
    c->state = ST_RELAY;
    free(c->in);
    c->in = NULL;
    c->dir[0].prefix = c->to_up;
    c->dir[0].prefix_len = c->to_up_len;
    c->to_up = NULL;
    /* Nothing may have been read yet: start with the prefixes and let epoll
     * report the sockets. */
    if (!pump_all(c, false, false)) {
        conn_close(loop, c, true);
        return;
    }
    update_interest(loop, c);
}
