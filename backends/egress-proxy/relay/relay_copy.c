/*
 * relay_copy.c — the mover of macOS (no splice(2) there) and of the Linux
 * test build of that path (conn.h, struct relay_mover): each direction
 * holds its bytes in a RELAY_COPY_BUF buffer, taken when the first byte
 * arrives and given back whenever it drains, so an idle tunnel costs two
 * sockets and no buffer; worst case 2 x RELAY_COPY_BUF per connection.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "process/conn.h"
#include "process/egress_compat.h"

#define RELAY_COPY_BUF (16 * 1024)

static void copy_release(struct direction *d)
{
    free(d->buf);
    d->buf = NULL;
    d->head = d->bytes = 0;
}

static ssize_t copy_fill(struct direction *d, int src, size_t max)
{
    if (!d->buf) {
        if (!(d->buf = malloc(RELAY_COPY_BUF)))
            return -1;
        d->cap = RELAY_COPY_BUF;
        d->head = d->bytes = 0;
    } else if (d->bytes == d->cap && d->head > 0) {
        memmove(d->buf, d->buf + d->head, d->bytes - d->head);
        d->bytes -= d->head;
        d->head = 0;
    }
    size_t room = d->cap - d->bytes;
    ssize_t r = recv(src, d->buf + d->bytes, max < room ? max : room, 0);
    if (r > 0)
        d->bytes += (size_t)r;
    else if (d->head == d->bytes)
        copy_release(d); /* nothing came and nothing is held: hold no memory */
    return r;
}

static ssize_t copy_drain(struct direction *d, int dst)
{
    ssize_t w = send(dst, d->buf + d->head, d->bytes - d->head, MSG_NOSIGNAL);
    if (w > 0) {
        d->head += (size_t)w;
        if (d->head == d->bytes)
            copy_release(d); /* drained: an idle direction holds no memory */
    }
    return w;
}

static size_t copy_held(const struct direction *d)
{
    return d->bytes - d->head;
}

static size_t copy_room(const struct direction *d)
{
    return d->buf ? d->cap - d->bytes + d->head : RELAY_COPY_BUF;
}

const struct relay_mover relay_mover = {
    .fds_per_conn = 2, /* two sockets, nothing else */
    .budget = 1024 * 1024,
    .fill = copy_fill,
    .drain = copy_drain,
    .held = copy_held,
    .room = copy_room,
    .release = copy_release,
};
