/*
 * upstream.c — from an allowed request to a connected upstream socket.
 * Every address comes from the one lookup the resolver did (or is the
 * literal the client asked for); each is checked by dest_address_allowed()
 * immediately before connect(), and no second lookup ever happens, so DNS
 * rebinding cannot slip an inward address past the check.  Through an
 * upstream proxy (c->via_upstream, upstream_tunnel.c) the addresses are the
 * proxy's, the caller's choice, and the proxy resolves the destination.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "parse/socks5_parse.h"
#include "process/conn.h"
#include "process/egress_compat.h"
#include "process/refusal_report.h"

static void refuse(struct egress_loop *loop, struct conn *c, int status, unsigned char socks_code,
                   const char *rule, const char *reason)
{
    struct refusal why = {status, socks_code, rule, reason};
    c->front->refuse(loop, c, &why);
}

/* The caller's refusal report: which destination, refused by what. */
static void report_refusal(struct egress_loop *loop, struct conn *c)
{
    if (loop->report_fd < 0)
        return;
    struct refusal_event e = {
        .front_end = c->front->name,
        .host = c->dest.host.name,
        .port = c->port,
        .address = c->dest.address[0] ? c->dest.address : NULL,
        .rule = c->dest.rule,
        .reason = c->dest.reason,
    };
    refusal_report_write(loop->report_fd, &e);
}

/* The caller's refusal report: an allowed destination not reached. */
static void report_failure(struct egress_loop *loop, struct conn *c, const char *cause, int status,
                           const char *reason)
{
    if (loop->report_fd < 0)
        return;
    struct failure_event e = {c->front->name, c->dest.host.name,
                              c->port,        cause,
                              reason,         c->via_upstream ? loop->upstream.shown : NULL,
                              status};
    failure_report_write(loop->report_fd, &e);
}

void upstream_fail_with(struct egress_loop *loop, struct conn *c, const char *cause, int status, bool timeout,
                        const char *reason)
{
    report_failure(loop, c, cause, status, reason);
    refuse(loop, c, timeout ? 504 : 502, timeout ? SOCKS5_TTL_EXPIRED : SOCKS5_GENERAL_FAILURE, NULL, reason);
}

/* What went wrong on the way to the upstream proxy (c->via_upstream). */
static void upstream_proxy_fail(struct egress_loop *loop, struct conn *c, bool timeout)
{
    char reason[1200];
    const char *shown = loop->upstream.shown;
    if (timeout && c->state == ST_TUNNEL)
        snprintf(reason, sizeof reason, "the upstream proxy %s did not answer CONNECT %s:%u within %d s",
                 shown, c->dest.host.name, (unsigned)c->port, CONNECT_TIMEOUT_MS / 1000);
    else if (timeout)
        snprintf(reason, sizeof reason, "no connection to the upstream proxy %s within %d s", shown,
                 CONNECT_TIMEOUT_MS / 1000);
    else if (c->job && c->job->error)
        snprintf(reason, sizeof reason, "cannot resolve the upstream proxy's host '%s': %s",
                 loop->upstream.url.host, c->job->why);
    else
        snprintf(reason, sizeof reason, "cannot connect to the upstream proxy %s: %s", shown,
                 strerror(c->last_errno ? c->last_errno : EHOSTUNREACH));
    upstream_fail_with(loop, c, FAILURE_UPSTREAM_FAILED, 0, timeout, reason);
}

static unsigned char socks_code_for(int err)
{
    switch (err) {
    case ECONNREFUSED: return SOCKS5_CONNECTION_REFUSED;
    case ENETUNREACH: return SOCKS5_NETWORK_UNREACHABLE;
    case ETIMEDOUT: return SOCKS5_TTL_EXPIRED;
    default: return SOCKS5_HOST_UNREACHABLE;
    }
}

void upstream_fail(struct egress_loop *loop, struct conn *c, bool timeout)
{
    char reason[500];
    if (c->dest.verdict == DEST_MALFORMED) {
        refuse(loop, c, 400, SOCKS5_GENERAL_FAILURE, NULL, c->dest.reason);
    } else if (c->dest.verdict == DEST_DENIED) {
        report_refusal(loop, c);
        refuse(loop, c, 403, SOCKS5_NOT_ALLOWED, c->dest.rule, c->dest.reason);
    } else if (c->via_upstream) {
        upstream_proxy_fail(loop, c, timeout);
    } else if (timeout) {
        snprintf(reason, sizeof reason, "no connection to '%s' port %u within %d s", c->dest.host.name,
                 (unsigned)c->port, CONNECT_TIMEOUT_MS / 1000);
        refuse(loop, c, 504, SOCKS5_HOST_UNREACHABLE, NULL, reason);
    } else if (c->job && c->job->error) {
        snprintf(reason, sizeof reason, "cannot resolve '%s': %s", c->dest.host.name, c->job->why);
        report_failure(loop, c, FAILURE_NAME_RESOLUTION, 0, reason);
        refuse(loop, c, 502, SOCKS5_HOST_UNREACHABLE, NULL, reason);
    } else {
        snprintf(reason, sizeof reason, "cannot connect to '%s' port %u: %s", c->dest.host.name,
                 (unsigned)c->port, strerror(c->last_errno ? c->last_errno : EHOSTUNREACH));
        refuse(loop, c, 502, socks_code_for(c->last_errno), NULL, reason);
    }
}

void upstream_resolved(struct egress_loop *loop, struct conn *c)
{
    if (c->job->error) {
        upstream_fail(loop, c, false);
        return;
    }
    memcpy(c->addrs, c->job->addrs, c->job->count * sizeof c->addrs[0]);
    c->naddrs = c->job->count;
    c->next_addr = 0;
    upstream_connect_next(loop, c);
}

static socklen_t make_sockaddr(const struct ip_addr *a, unsigned short port, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof *ss);
    if (a->family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)(void *)ss;
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        memcpy(&in->sin_addr, a->b, 4);
        return sizeof *in;
    }
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)(void *)ss;
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    memcpy(&in6->sin6_addr, a->b, 16);
    return sizeof *in6;
}

void upstream_connected(struct egress_loop *loop, struct conn *c)
{
    c->front->connected(c);
    relay_start(loop, c);
}

static void connected(struct egress_loop *loop, struct conn *c)
{
    int one = 1;
    setsockopt(c->up.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (c->via_upstream)
        tunnel_start(loop, c);
    else
        upstream_connected(loop, c);
}

void upstream_connect_next(struct egress_loop *loop, struct conn *c)
{
    c->state = ST_CONNECTING;
    while (c->next_addr < c->naddrs) {
        const struct ip_addr *a = &c->addrs[c->next_addr++];
        if (!c->via_upstream && !dest_address_allowed(&c->dest, a))
            continue;
        c->any_allowed = true;
        struct sockaddr_storage ss;
        socklen_t sl = make_sockaddr(a, c->via_upstream ? loop->upstream.url.port : c->port, &ss);
        int fd = egress_socket_nb(a->family);
        if (fd < 0) {
            c->last_errno = errno;
            continue;
        }
        c->up.fd = fd;
        c->up.registered = false;
        c->up.events = 0;
        if (connect(fd, (struct sockaddr *)&ss, sl) == 0) {
            connected(loop, c);
            return;
        }
        if (errno == EINPROGRESS) {
            /* To loopback (or a peer that answers within the call) the
             * handshake is over when connect() returns: asking again (0 on
             * Linux, EISCONN elsewhere) saves a wakeup per tunnel. */
            if (connect(fd, (struct sockaddr *)&ss, sl) == 0 || errno == EISCONN) {
                connected(loop, c);
                return;
            }
            if (errno == EALREADY) {
                conn_set_interest(loop, &c->cli, 0); /* nothing to do with it until then */
                conn_set_interest(loop, &c->up, EV_OUT);
                return;
            }
        }
        c->last_errno = errno;
        close(fd);
        c->up.fd = -1;
    }
    /* Nothing left: refused if no address passed the check, else failed. */
    if (c->any_allowed)
        c->dest.verdict = c->dest.host.is_literal ? DEST_CONNECT_LITERAL : DEST_RESOLVE;
    upstream_fail(loop, c, false);
}

void upstream_writable(struct egress_loop *loop, struct conn *c)
{
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(c->up.fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        err = errno;
    if (err == 0) {
        connected(loop, c);
        return;
    }
    c->last_errno = err;
    if (c->up.registered)
        evpoll_closing(loop->ev, c->up.fd);
    close(c->up.fd);
    c->up.fd = -1;
    c->up.registered = false;
    upstream_connect_next(loop, c);
}
