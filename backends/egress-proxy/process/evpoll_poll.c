/*
 * evpoll_poll.c — evpoll.h on poll(2): the egress loop's notification on
 * macOS, and in the Linux test build of the portable path (so this exact
 * code is exercised by `make check`).
 *
 * A dense pollfd array (swap-remove) plus an fd -> slot index.  A descriptor
 * with no interest is parked as fd -1, which poll() skips: otherwise Linux
 * would report POLLHUP for a closed peer on every call however little we
 * asked for, and the loop would spin.  macOS reports POLLHUP when the read
 * side reaches end of stream (a half-close), Linux only when both sides are
 * shut; the relay therefore treats EV_HUP as "read to the end" and
 * never as "the peer is gone" (evpoll_hup_is_final, relay.c).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "process/evpoll.h"

const bool evpoll_hup_is_final = false; /* macOS reports POLLHUP at a half-close */

struct evpoll {
    struct pollfd *pfd;
    void **ptr;
    int *fd_at; /* index -> fd (pfd[].fd is -1 while parked) */
    int *slot;  /* fd -> index in pfd[], -1 when not watched */
    size_t count, max_fds;
    size_t start; /* where the next scan begins: no slot is always last */
};

struct evpoll *evpoll_new(size_t max_fds)
{
    struct evpoll *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->max_fds = max_fds;
    ev->pfd = calloc(max_fds, sizeof *ev->pfd);
    ev->ptr = calloc(max_fds, sizeof *ev->ptr);
    ev->fd_at = calloc(max_fds, sizeof *ev->fd_at);
    ev->slot = malloc(max_fds * sizeof *ev->slot);
    if (!ev->pfd || !ev->ptr || !ev->fd_at || !ev->slot) {
        free(ev->pfd);
        free(ev->ptr);
        free(ev->fd_at);
        free(ev->slot);
        free(ev);
        errno = ENOMEM;
        return NULL;
    }
    for (size_t i = 0; i < max_fds; i++)
        ev->slot[i] = -1;
    return ev;
}

int evpoll_set(struct evpoll *ev, int fd, void *ptr, uint32_t events, int added)
{
    (void)added;
    if (fd < 0 || (size_t)fd >= ev->max_fds) {
        errno = EBADF;
        return -1;
    }
    int i = ev->slot[fd];
    if (i < 0) {
        i = (int)ev->count++;
        ev->slot[fd] = i;
        ev->fd_at[i] = fd;
    }
    short want = (short)((events & EV_IN ? POLLIN : 0) | (events & EV_OUT ? POLLOUT : 0));
    ev->pfd[i] = (struct pollfd){.fd = want ? fd : -1, .events = want};
    ev->ptr[i] = ptr;
    return 0;
}

void evpoll_del(struct evpoll *ev, int fd)
{
    if (fd < 0 || (size_t)fd >= ev->max_fds || ev->slot[fd] < 0)
        return;
    size_t i = (size_t)ev->slot[fd], last = --ev->count;
    ev->slot[fd] = -1;
    if (i != last) {
        ev->pfd[i] = ev->pfd[last];
        ev->ptr[i] = ev->ptr[last];
        ev->fd_at[i] = ev->fd_at[last];
        ev->slot[ev->fd_at[i]] = (int)i;
    }
}

void evpoll_closing(struct evpoll *ev, int fd)
{
    evpoll_del(ev, fd);
}

int evpoll_wait(struct evpoll *ev, struct ev_ready *out, int max, int timeout_ms)
{
    int n = poll(ev->pfd, (nfds_t)ev->count, timeout_ms);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    int got = 0;
    size_t count = ev->count;
    for (size_t k = 0; k < count && got < max && n > 0; k++) {
        size_t i = (ev->start + k) % count;
        short r = ev->pfd[i].revents;
        if (!r || ev->pfd[i].fd < 0)
            continue;
        n--;
        out[got].ptr = ev->ptr[i];
        out[got].events = (r & POLLIN ? EV_IN : 0) | (r & POLLOUT ? EV_OUT : 0) |
                          (r & (POLLERR | POLLNVAL) ? EV_ERR : 0) | (r & POLLHUP ? EV_HUP : 0);
        got++;
    }
    ev->start = count ? (ev->start + 1) % count : 0;
    return got;
}
