/*
 * relay.c — moving bytes once both sockets exist: one pump for both
 * platforms, over a mover (conn.h, struct relay_mover) that holds a
 * direction's bytes between its source and its destination:
 *   relay_splice.c  Linux: a pipe and splice(2), so the payload stays in
 *                   kernel pages and never enters this process's memory;
 *   relay_copy.c    macOS (and the Linux test build of that path): a
 *                   bounded buffer and recv/send.
 *
 * The rules, the same on both:
 * - Memory: a direction gets its pipe or buffer only when its first byte
 *   arrives, so an idle tunnel costs two sockets and a few hundred bytes.
 * - Back-pressure: a direction asks for EV_IN on its source only while it
 *   has room, and for EV_OUT on its destination only while bytes (or a
 *   prefix) are pending, so a stalled reader stops exactly its own writer.
 * - Fairness: each wakeup moves at most the mover's budget per direction.
 * - End of stream is passed on with shutdown(SHUT_WR), the other way stays
 *   open (half-close); an error on either side resets both (SO_LINGER 0 in
 *   conn_close), so the other side sees an error, not an end of stream
 *   that could pass for a complete transfer.
 * - A direction with a body limit (one HTTP request) forwards exactly that
 *   many bytes and drops the rest (direction_discard).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "process/conn.h"

enum pump_result { PUMP_OK, PUMP_ERROR };

void relay_release(struct conn *c)
{
    for (int i = 0; i < 2; i++)
        relay_mover.release(&c->dir[i]);
    /* dir[0].prefix is the malloc'd upstream prefix; dir[1].prefix is a
     * static reply string. */
    free(c->dir[0].prefix);
    c->dir[0].prefix = NULL;
    c->dir[1].prefix = NULL;
}

/* Send what is left of the prefix; *blocked when dst takes no more now. */
static enum pump_result send_prefix(struct direction *d, int dst, bool *blocked)
{
    while (d->prefix_off < d->prefix_len) {
        ssize_t w = send(dst, d->prefix + d->prefix_off, d->prefix_len - d->prefix_off, MSG_NOSIGNAL);
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            *blocked = true;
            return PUMP_OK;
        }
        if (w <= 0)
            return PUMP_ERROR;
        d->prefix_off += (size_t)w;
    }
    return PUMP_OK;
}

/* Held bytes to dst.  Sets *progress when some went. */
static enum pump_result drain(struct direction *d, int dst, size_t *moved, bool *progress)
{
    ssize_t n = relay_mover.drain(d, dst);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? PUMP_OK : PUMP_ERROR;
    if (n > 0) {
        *moved += (size_t)n;
        *progress = true;
        d->maybe_full = false;
    }
    return PUMP_OK;
}

/* src to the holding, within the body limit.  Sets *progress on bytes or
 * the end of stream. */
static enum pump_result fill(struct direction *d, int src, bool *progress)
{
    if (direction_complete(d)) {
        /* The request is whole: what the client sends now is dropped. */
        if (direction_discard(d, src))
            *progress = true;
        return PUMP_OK;
    }
    ssize_t n = relay_mover.fill(d, src, direction_allowance(d, (size_t)-1));
    if (n == 0) {
        d->src_eof = true;
        *progress = true;
    } else if (n > 0) {
        direction_took(d, (size_t)n);
        *progress = true;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        /* Nothing now.  With bytes held, the destination (or a pipe whose
         * slots filled before its capacity) is what we wait for. */
        if (relay_mover.held(d) > 0)
            d->maybe_full = true;
    } else {
        return PUMP_ERROR;
    }
    return PUMP_OK;
}

/* One round: the prefix, then held bytes, then a read.  *progress: bytes
 * moved; *src_ready goes false once a read found nothing. */
static enum pump_result pump_round(struct direction *d, int src, int dst, bool *src_ready, size_t *moved,
                                   bool *progress)
{
    *progress = false;
    bool prefix_blocked = false;
    if (send_prefix(d, dst, &prefix_blocked) != PUMP_OK)
        return PUMP_ERROR;
    /* Held bytes go out only after the prefix; reading on below even
     * then keeps a readable source from being asked for EV_IN in vain. */
    if (!prefix_blocked && relay_mover.held(d) > 0 && drain(d, dst, moved, progress) != PUMP_OK)
        return PUMP_ERROR;
    bool try_fill = *src_ready || *progress || relay_mover.held(d) > 0;
    if (d->src_eof || d->maybe_full || !try_fill || relay_mover.room(d) == 0)
        return PUMP_OK;
    bool filled = false;
    if (fill(d, src, &filled) != PUMP_OK)
        return PUMP_ERROR;
    if (!filled)
        *src_ready = false;
    *progress = *progress || filled;
    return PUMP_OK;
}

/* Move what the direction can without blocking.  src_ready: the source was
 * reported readable (or has hung up, src_hup, and must be read to its end). */
static enum pump_result pump(struct direction *d, int src, int dst, bool src_ready, bool src_hup)
{
    size_t moved = 0;
    bool progress = true;
    while (progress && (moved < relay_mover.budget || src_hup) && !d->shut && !d->dead)
        if (pump_round(d, src, dst, &src_ready, &moved, &progress) != PUMP_OK)
            return PUMP_ERROR;
    if (d->src_eof && relay_mover.held(d) == 0 && d->prefix_off == d->prefix_len && !d->shut) {
        shutdown(dst, SHUT_WR); /* pass the end of stream on, keep the other way open */
        d->shut = true;
        relay_mover.release(d);
    }
    return PUMP_OK;
}

static uint32_t want_in(const struct direction *d)
{
    if (d->src_eof || d->dead)
        return 0;
    return (direction_complete(d) || (!d->maybe_full && relay_mover.room(d) > 0)) ? EV_IN : 0;
}

static uint32_t want_out(const struct direction *d)
{
    return (!d->dead && !d->shut && (d->prefix_off < d->prefix_len || relay_mover.held(d) > 0)) ? EV_OUT : 0;
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
 * A peer that hung up entirely (evpoll_hup_is_final) can still have unread
 * bytes for the other side, but can take none: stop watching it
 * (level-triggered EV_HUP would fire forever), drop what was owed to it,
 * and read it to its end whenever the other side has room.
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
    relay_mover.release(towards);
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
    /* Where EV_HUP comes at a half-close (macOS's poll), it only means
     * "read to the end"; a gone peer shows itself when a send fails. */
    if ((events & EV_HUP) && evpoll_hup_is_final) {
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
    /* Nothing may have been read yet: start with the prefixes and let the
     * event set report the sockets. */
    if (!pump_all(c, false, false)) {
        conn_close(loop, c, true);
        return;
    }
    update_interest(loop, c);
}
