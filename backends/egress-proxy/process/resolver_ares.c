/*
 * resolver_ares.c — resolver_lookup() through c-ares, on Linux.
 *
 * Not getaddrinfo(3): musl's resolver bind()s its UDP socket to port 0
 * before it sends a query, and the egress process's filter refuses bind
 * (confine.c: a subverted process must not listen, claim an abstract Unix
 * name in the host's namespace, or make socket files), so the static
 * release binary resolved nothing but the hosts file.  c-ares connects its
 * sockets and never binds them unless told to (ARES_OPT_ local addresses,
 * which are not set here), reads the same /etc/hosts and /etc/resolv.conf
 * read-only, and answers the same under glibc and musl.  What it does not
 * do is load glibc's NSS modules (mdns, LDAP hosts, nss-resolve: where
 * systemd-resolved runs, its stub in resolv.conf answers instead).
 *
 * Each lookup has a channel of its own (c-ares channels are not shared
 * between threads), made anew so that a changed resolv.conf is seen, and a
 * hard deadline: a server that never answers, or answers with garbage that
 * c-ares ignores, ends the lookup after RESOLVER_DEADLINE_MS at the latest.
 */
#include "config.h"

#include <ares.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "process/resolver.h"

/* One try per server takes at most this; c-ares doubles it per round. */
#define TRY_MS 2000
#define TRIES 2

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static int library_status = ARES_ENOTINITIALIZED;

static void library_init(void)
{
    library_status = ares_library_init(ARES_LIB_INIT_ALL);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The sentence a refusal gives for a c-ares status. */
static void explain_status(struct resolve_job *job, int status)
{
    const char *what;
    switch (status) {
    case ARES_ENOTFOUND: what = "no such name"; break;
    case ARES_ENODATA: what = "the name has no IPv4 or IPv6 address"; break;
    case ARES_ETIMEOUT: what = "no DNS server answered"; break;
    case ARES_ECANCELLED: what = "no answer within the lookup's deadline"; break;
    case ARES_ECONNREFUSED: what = "each DNS server refused or failed the query, or was unreachable"; break;
    case ARES_EBADNAME: what = "not a name DNS can look up"; break;
    case ARES_EBADRESP:
    case ARES_EFORMERR: what = "the DNS server's answer could not be read"; break;
    case ARES_ESERVFAIL:
    case ARES_EREFUSED: what = "the DNS server refused or failed the query"; break;
    case ARES_EFILE: what = "the resolver's configuration could not be read"; break;
    case ARES_ENOMEM: what = "out of memory"; break;
    default: what = "the lookup failed"; break;
    }
    job->error = 1;
    snprintf(job->why, sizeof job->why, "%s (c-ares: %s; deadline %d s)", what, ares_strerror(status),
             RESOLVER_DEADLINE_MS / 1000);
}

struct answer_state {
    struct resolve_job *job;
    bool answered;
};

static void on_answer(void *arg, int status, int timeouts, struct ares_addrinfo *res)
{
    (void)timeouts;
    struct answer_state *st = arg;
    struct resolve_job *job = st->job;
    st->answered = true;
    if (status != ARES_SUCCESS) {
        explain_status(job, status);
        return;
    }
    for (struct ares_addrinfo_node *n = res->nodes; n && job->count < RESOLVER_MAX_ADDRS; n = n->ai_next) {
        struct ip_addr a;
        if (ip_from_sockaddr(n->ai_addr, &a) == 0)
            job->addrs[job->count++] = a;
    }
    ares_freeaddrinfo(res);
    if (job->count == 0)
        explain_status(job, ARES_ENODATA);
}

/* Drive the channel until the answer callback ran or the deadline passed.
 * ares_getsock/ares_process_fd rather than ares_fds: the egress process's
 * descriptors go far past FD_SETSIZE. */
static void wait_for_answer(ares_channel channel, const bool *answered)
{
    long long deadline = now_ms() + RESOLVER_DEADLINE_MS;
    while (!*answered) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            ares_cancel(channel); /* on_answer runs with ARES_ECANCELLED */
            return;
        }
        ares_socket_t socks[ARES_GETSOCK_MAXNUM];
        int bits = ares_getsock(channel, socks, ARES_GETSOCK_MAXNUM);
        struct pollfd p[ARES_GETSOCK_MAXNUM];
        nfds_t n = 0;
        for (int i = 0; i < ARES_GETSOCK_MAXNUM; i++) {
            short ev = (short)((ARES_GETSOCK_READABLE(bits, i) ? POLLIN : 0) |
                               (ARES_GETSOCK_WRITABLE(bits, i) ? POLLOUT : 0));
            if (ev)
                p[n++] = (struct pollfd){.fd = socks[i], .events = ev};
        }
        struct timeval max = {.tv_sec = left / 1000, .tv_usec = (left % 1000) * 1000}, tv;
        struct timeval *t = ares_timeout(channel, &max, &tv);
        int ms = (int)(t->tv_sec * 1000 + (t->tv_usec + 999) / 1000);
        int r = poll(p, n, ms);
        if (r < 0 && errno != EINTR)
            return; /* cannot happen with valid descriptors; the caller cancels */
        if (r <= 0) {
            ares_process_fd(channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD); /* timeouts */
            continue;
        }
        for (nfds_t i = 0; i < n; i++)
            if (p[i].revents)
                ares_process_fd(channel,
                                p[i].revents & (POLLIN | POLLERR | POLLHUP) ? p[i].fd : ARES_SOCKET_BAD,
                                p[i].revents & POLLOUT ? p[i].fd : ARES_SOCKET_BAD);
    }
}

void resolver_lookup(struct resolve_job *job)
{
    job->count = 0;
    job->error = 0;
    job->why[0] = '\0';
    pthread_once(&library_once, library_init);
    if (library_status != ARES_SUCCESS) {
        explain_status(job, library_status);
        return;
    }
    struct ares_options opt;
    memset(&opt, 0, sizeof opt);
    opt.timeout = TRY_MS;
    opt.tries = TRIES;
    ares_channel channel;
    int status = ares_init_options(&channel, &opt, ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES);
    if (status != ARES_SUCCESS) {
        explain_status(job, status);
        return;
    }
    struct ares_addrinfo_hints hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    struct answer_state st = {job, false};
    ares_getaddrinfo(channel, job->host, NULL, &hints, on_answer, &st);
    wait_for_answer(channel, &st.answered);
    if (!st.answered)
        ares_cancel(channel);
    ares_destroy(channel); /* runs a pending callback with ARES_EDESTRUCTION */
    if (!st.answered)
        explain_status(job, ARES_ECANCELLED);
}
