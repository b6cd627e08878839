/*
 * evpoll.h — the egress loop's readiness notification, behind one small
 * interface so the same loop runs on Linux and on macOS.
 *
 * Why a seam here and not elsewhere: everything above it (accept, the
 * front-ends, the destination policy, the resolver, upstream connect) is
 * plain POSIX and is shared as is; only "tell me which descriptors are
 * ready" and "move the bytes" (relay.c / relay_copy.c) differ between
 * platforms.  Two implementations, chosen at build time:
 *   evpoll_epoll.c  Linux release builds: level-triggered epoll.
 *   evpoll_poll.c   macOS, and the Linux test build of the portable path:
 *                   poll(2), which every POSIX system has (no kqueue needed).
 * Both are level-triggered and always report errors and hang-ups, so the
 * callers' back-pressure rules (ask only for the events you can act on) hold
 * unchanged on either.
 */
#ifndef HAS_EGRESS_EVPOLL_H
#define HAS_EGRESS_EVPOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EV_IN 0x1u
#define EV_OUT 0x2u
#define EV_ERR 0x4u /* reported whether asked for or not */
#define EV_HUP 0x8u /* peer closed both ways; reported whether asked for or not */

struct evpoll;

/* Whether EV_HUP means the peer can take no more bytes (epoll: both ways
 * shut), or only that it has no more to send (macOS's poll(2) reports
 * POLLHUP at a half-close); relay.c reads it accordingly. */
extern const bool evpoll_hup_is_final;

struct ev_ready {
    void *ptr;
    uint32_t events;
};

/* max_fds: the highest descriptor number + 1 that may be watched. */
struct evpoll *evpoll_new(size_t max_fds);

/* Watch fd with interest `events` (EV_IN|EV_OUT, possibly 0), reporting ptr.
 * `added` says whether fd is already watched.  Returns 0, or -1 with errno. */
int evpoll_set(struct evpoll *ev, int fd, void *ptr, uint32_t events, int added);

/* Stop watching fd (it stays open). */
void evpoll_del(struct evpoll *ev, int fd);

/* fd is about to be closed: forget it.  (epoll forgets a closed descriptor
 * by itself, so this costs nothing there.) */
void evpoll_closing(struct evpoll *ev, int fd);

/* Wait up to timeout_ms (-1: forever).  Returns the number of entries
 * filled in out[], 0 on timeout or EINTR, -1 with errno on failure. */
int evpoll_wait(struct evpoll *ev, struct ev_ready *out, int max, int timeout_ms);

#endif
