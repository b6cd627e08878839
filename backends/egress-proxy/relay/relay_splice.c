/*
 * relay_splice.c — the Linux mover (conn.h, struct relay_mover): each
 * direction holds its bytes in a pipe and moves them with splice(2), src
 * socket -> pipe -> dst socket, so the payload never enters this process's
 * memory.  The pipe is made when the first byte arrives.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "process/conn.h"

#define RELAY_PIPE_SIZE (1024 * 1024)

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

static void splice_release(struct direction *d)
{
    if (d->pipe_rd >= 0)
        close(d->pipe_rd);
    if (d->pipe_wr >= 0)
        close(d->pipe_wr);
    d->pipe_rd = d->pipe_wr = -1;
    d->bytes = 0;
}

static ssize_t splice_fill(struct direction *d, int src, size_t max)
{
    if (d->pipe_rd < 0) {
        /* A direction's first readiness is often its end (a tunnel set up
         * and closed, the quiet way of a one-way transfer): one peek
         * instead of making a pipe to splice nothing through it. */
        char b;
        ssize_t k = recv(src, &b, 1, MSG_PEEK | MSG_DONTWAIT);
        if (k <= 0)
            return k;
        if (open_pipe(d) != 0)
            return -1;
    }
    size_t room = d->cap - d->bytes;
    ssize_t n =
        splice(src, NULL, d->pipe_wr, NULL, max < room ? max : room, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0)
        d->bytes += (size_t)n;
    return n;
}

static ssize_t splice_drain(struct direction *d, int dst)
{
    ssize_t n = splice(d->pipe_rd, NULL, dst, NULL, d->bytes, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0)
        d->bytes -= (size_t)n;
    return n;
}

static size_t splice_held(const struct direction *d)
{
    return d->bytes;
}

static size_t splice_room(const struct direction *d)
{
    return d->pipe_rd < 0 ? RELAY_PIPE_SIZE : d->cap - d->bytes;
}

const struct relay_mover relay_mover = {
    .fds_per_conn = 6, /* two sockets, two pipes of two ends */
    .budget = 4 * 1024 * 1024,
    .fill = splice_fill,
    .drain = splice_drain,
    .held = splice_held,
    .room = splice_room,
    .release = splice_release,
};
