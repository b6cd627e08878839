/*
 * relay_copy.c — moving bytes once both sockets exist, with recv/send and a
 * bounded buffer per direction: the relay of macOS (no splice(2) there) and
 * of the Linux test build of that path.  Same contract as relay.c:
 *
 * - Memory: a direction gets its RELAY_COPY_BUF buffer when its first byte
 *   arrives and gives it back whenever it has drained, so an idle tunnel
 *   costs two sockets and no buffer; worst case (every connection
 *   mid-transfer towards a stalled reader) is 2 x RELAY_COPY_BUF per
 *   connection, times the connection cap.
 * - Back-pressure: a direction asks for EV_IN on its source only while its
 *   buffer has room and for EV_OUT on its destination only while bytes are
 *   pending, so a stalled reader stops exactly its own writer.
 * - Fairness: each wakeup moves at most RELAY_BUDGET bytes per direction.
 * - End of stream is passed on with shutdown(SHUT_WR), the other way stays
 *   open (half-close); an error on either side resets both (SO_LINGER 0 in
 *   conn_close), so the other side sees an error, not an end of stream that
 *   could pass for a complete transfer.
 *
 * One difference from relay.c, on purpose: EV_HUP is read as "the source
 * has reached its end" and never as "the peer can take no more".  macOS's
 * poll(2) reports POLLHUP as soon as the peer half-closes, Linux's only when
 * both ways are shut; a peer that is really gone shows itself by the next
 * send failing, which resets the connection.  (evpoll_poll.c stops polling a
 * descriptor nobody asks anything of, so a gone peer cannot make it spin.)
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conn.h"
#include "egress_compat.h"

#define RELAY_COPY_BUF (16 * 1024)
#define RELAY_BUDGET (1024 * 1024)

enum pump_result { PUMP_OK, PUMP_ERROR };

const unsigned relay_fds_per_conn = 2;   /* two sockets, nothing else */

static void drop_buffer(struct direction *d)
{
    free(d->buf);
    d->buf = NULL;
    d->head = d->bytes = 0;
}

void relay_release(struct conn *c)
{
    for (int i = 0; i < 2; i++)
        drop_buffer(&c->dir[i]);
    /* dir[0].prefix is the malloc'd upstream prefix; dir[1].prefix is a
     * static reply string. */
    free(c->dir[0].prefix);
    c->dir[0].prefix = NULL;
    c->dir[1].prefix = NULL;
}

/* One send of n > 0 bytes: how many dst took, 0 with *blocked set when it
 * takes none for now, -1 on an error. */
static ssize_t send_some(int dst, const char *p, size_t n, bool *blocked)
{
    ssize_t w = send(dst, p, n, MSG_NOSIGNAL);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        *blocked = true;
        return 0;
    }
    return w > 0 ? w : -1;
}

/* Send what is owed to dst: the prefix first, then the buffer.  Sets
 * *blocked when dst takes no more for now. */
static enum pump_result drain(struct direction *d, int dst, size_t *moved, bool *blocked)
{
    while (d->prefix_off < d->prefix_len && !*blocked) {
        ssize_t w = send_some(dst, d->prefix + d->prefix_off, d->prefix_len - d->prefix_off, blocked);
        if (w < 0)
            return PUMP_ERROR;
        d->prefix_off += (size_t)w;
    }
    if (*blocked || d->head == d->bytes)
        return PUMP_OK;
    ssize_t w = send_some(dst, d->buf + d->head, d->bytes - d->head, blocked);
    if (w < 0)
        return PUMP_ERROR;
    d->head += (size_t)w;
    *moved += (size_t)w;
    if (d->head == d->bytes)
        drop_buffer(d);   /* drained: an idle direction holds no memory */
    return PUMP_OK;
}

/* Read from src into the buffer's free tail.  *got: something happened
 * (bytes or the end of stream). */
static enum pump_result fill(struct direction *d, int src, bool *got)
{
    if (!d->buf) {
        if (!(d->buf = malloc(RELAY_COPY_BUF)))
            return PUMP_ERROR;
        d->cap = RELAY_COPY_BUF;
        d->head = d->bytes = 0;
    } else if (d->bytes == d->cap && d->head > 0) {
        memmove(d->buf, d->buf + d->head, d->bytes - d->head);
        d->bytes -= d->head;
        d->head = 0;
    }
    if (d->bytes == d->cap)
        return PUMP_OK;
    ssize_t r = recv(src, d->buf + d->bytes, direction_allowance(d, d->cap - d->bytes), 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        if (d->bytes == 0)
            drop_buffer(d);
        return PUMP_OK;
    }
    if (r < 0)
        return PUMP_ERROR;
    if (r == 0) {
        d->src_eof = true;
        if (d->head == d->bytes)
            drop_buffer(d);
    } else {
        d->bytes += (size_t)r;
        direction_took(d, (size_t)r);
    }
    *got = true;
    return PUMP_OK;
}

static bool has_room(const struct direction *d)
{
    return !d->buf || d->bytes < d->cap || d->head > 0;
}

/* Move what the direction can without blocking. */
static enum pump_result pump(struct direction *d, int src, int dst, bool src_ready)
{
    size_t moved = 0;
    bool progress = true;
    while (progress && moved < RELAY_BUDGET && !d->shut) {
        progress = false;
        bool blocked = false;
        size_t before = moved;
        if (drain(d, dst, &moved, &blocked) != PUMP_OK)
            return PUMP_ERROR;
        progress = moved > before;
        /* Read only when told the source is readable or when bytes are
         * already flowing (a drained buffer makes room to read more). */
        if (direction_complete(d)) {
            /* The request is whole: what the client sends now is dropped. */
            if (!d->src_eof && src_ready && direction_discard(d, src))
                progress = true;
        } else if (!d->src_eof && has_room(d) && (src_ready || progress)) {
            bool got = false;
            if (fill(d, src, &got) != PUMP_OK)
                return PUMP_ERROR;
            if (!got)
                src_ready = false;
            progress = progress || got;
        }
        if (blocked)
            break;
    }
    if (d->src_eof && d->head == d->bytes && d->prefix_off == d->prefix_len && !d->shut) {
        shutdown(dst, SHUT_WR);   /* pass the end of stream on, keep the other way open */
        d->shut = true;
        drop_buffer(d);
    }
    return PUMP_OK;
}

static uint32_t want_in(const struct direction *d)
{
    return (!d->src_eof && (direction_complete(d) || has_room(d))) ? EV_IN : 0;
}

static uint32_t want_out(const struct direction *d)
{
    return (!d->shut && (d->prefix_off < d->prefix_len || d->head < d->bytes)) ? EV_OUT : 0;
}

static void update_interest(struct egress_loop *loop, struct conn *c)
{
    conn_set_interest(loop, &c->cli, want_in(&c->dir[0]) | want_out(&c->dir[1]));
    conn_set_interest(loop, &c->up, want_in(&c->dir[1]) | want_out(&c->dir[0]));
}

static bool pump_all(struct conn *c, bool cli_ready, bool up_ready)
{
    return pump(&c->dir[0], c->cli.fd, c->up.fd, cli_ready) == PUMP_OK &&
           pump(&c->dir[1], c->up.fd, c->cli.fd, up_ready) == PUMP_OK;
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
    if (c->dir[0].shut && c->dir[1].shut) {
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
    if (!pump_all(c, false, false)) {
        conn_close(loop, c, true);
        return;
    }
    update_interest(loop, c);
}
