/*
 * evpoll_epoll.c — evpoll.h on Linux: level-triggered epoll, the loop's
 * notification in release builds.  The flags are translated one to one.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "process/evpoll.h"

const bool evpoll_hup_is_final = true; /* EPOLLHUP: both ways shut */

struct evpoll {
    int ep;
};

struct evpoll *evpoll_new(size_t max_fds)
{
    (void)max_fds;
    struct evpoll *ev = malloc(sizeof *ev);
    if (!ev)
        return NULL;
    if ((ev->ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        int e = errno;
        free(ev);
        errno = e;
        return NULL;
    }
    return ev;
}

int evpoll_set(struct evpoll *ev, int fd, void *ptr, uint32_t events, int added)
{
    struct epoll_event e = {.events = (events & EV_IN ? EPOLLIN : 0) | (events & EV_OUT ? EPOLLOUT : 0),
                            .data.ptr = ptr};
    return epoll_ctl(ev->ep, added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &e);
}

void evpoll_del(struct evpoll *ev, int fd)
{
    epoll_ctl(ev->ep, EPOLL_CTL_DEL, fd, NULL);
}

void evpoll_closing(struct evpoll *ev, int fd)
{
    (void)ev;
    (void)fd; /* close() removes it from the epoll set */
}

int evpoll_wait(struct evpoll *ev, struct ev_ready *out, int max, int timeout_ms)
{
    struct epoll_event events[128];
    if (max > 128)
        max = 128;
    int n = epoll_wait(ev->ep, events, max, timeout_ms);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        uint32_t e = events[i].events;
        out[i].ptr = events[i].data.ptr;
        out[i].events = (e & EPOLLIN ? EV_IN : 0) | (e & EPOLLOUT ? EV_OUT : 0) |
                        (e & EPOLLERR ? EV_ERR : 0) | (e & EPOLLHUP ? EV_HUP : 0);
    }
    return n;
}
