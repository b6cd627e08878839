/*
 * upstream_tunnel.c — an allowed destination reached through the caller's
 * upstream proxy (README.md, "An upstream proxy"): the egress process has
 * decided the request by name as always; here it connects to the proxy,
 * asks it for host:port with CONNECT (plain HTTP requests too) and its
 * credentials, and hands the tunnel to the front-end and the relay once the
 * proxy answers 2xx.  The workload never sees the credentials: the CONNECT
 * is written here and its answer read here (a refusal's body names the
 * proxy's address and quotes its status line, nothing more).  Bytes after
 * a 2xx are the tunnel's, unread: an "upstream" that echoes would show the
 * CONNECT, which only a caller pointing at something that is no proxy
 * risks.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "process/conn.h"
#include "process/refusal_report.h"
#include "wipe.h"

bool tunnel_route(struct egress_loop *loop, struct conn *c)
{
    if (!loop->upstream.set || upstream_bypass(&loop->upstream, &c->dest.host))
        return false;
    c->via_upstream = true;
    if (loop->upstream.host_is_literal) {
        c->addrs[0] = loop->upstream.literal;
        c->naddrs = 1;
        c->next_addr = 0;
        upstream_connect_next(loop, c);
    } else {
        conn_resolve(loop, c, loop->upstream.url.host);
    }
    return true;
}

/* The first line of the answer, printable, for a message. */
static void status_line(const char *head, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && head[i] != '\r' && head[i] != '\n' && n + 1 < cap && n < 100; i++)
        out[n++] = head[i] >= 0x20 && head[i] < 0x7f ? head[i] : '?';
    out[n] = '\0';
}

static void tunnel_fail(struct egress_loop *loop, struct conn *c, const char *cause, int status,
                        const char *what)
{
    char reason[1200];
    snprintf(reason, sizeof reason, "the upstream proxy %s %s (CONNECT %s:%u)", loop->upstream.shown, what,
             c->dest.host.name, (unsigned)c->port);
    upstream_fail_with(loop, c, cause, status, false, reason);
}

/* The answer's head is whole in c->tunnel. */
static void answered(struct egress_loop *loop, struct conn *c)
{
    char line[128], what[200];
    int status = proxy_reply_status(c->tunnel, c->tunnel_len);
    status_line(c->tunnel, c->tunnel_len, line, sizeof line);
    if (status < 0) {
        snprintf(what, sizeof what, "did not answer as an HTTP proxy (\"%s\")", line);
        tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, what);
        return;
    }
    if (status < 200 || status > 299) {
        snprintf(what, sizeof what, "refused: \"%s\"", line);
        tunnel_fail(loop, c, FAILURE_UPSTREAM_REFUSED, status, what);
        return;
    }
    free(c->tunnel);
    c->tunnel = NULL;
    c->tunnel_len = 0;
    upstream_connected(loop, c);
}

/*
 * Read the answer's head and not a byte more: what follows is the tunnel's
 * (a server that speaks first, as sshd does, may send it in the same
 * segment), and stays in the socket for the relay.  Peek, then take the
 * head's bytes; while the head has not ended, everything peeked is head
 * and is taken, so readiness never reports the same bytes twice.
 */
static void read_answer(struct egress_loop *loop, struct conn *c)
{
    size_t have = c->tunnel_len;
    ssize_t r = recv(c->up.fd, c->tunnel + have, TUNNEL_BUF_MAX - have, MSG_PEEK);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (r <= 0) {
        char what[160];
        snprintf(what, sizeof what, "closed the connection before answering%s%s", r < 0 ? ": " : "",
                 r < 0 ? strerror(errno) : "");
        tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, what);
        return;
    }
    size_t from = have >= 2 ? have - 2 : 0; /* the empty line may straddle two reads */
    size_t end = proxy_reply_head_end(c->tunnel + from, have + (size_t)r - from);
    size_t take = end ? end + from - have : (size_t)r;
    ssize_t got = recv(c->up.fd, c->tunnel + have, take, 0);
    if (got != (ssize_t)take) {
        tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, "lost bytes of its answer");
        return;
    }
    c->tunnel_len += take;
    /* What cannot become "HTTP/1." is no proxy's answer: said now, not
     * after the bound. */
    size_t prefix = c->tunnel_len < 7 ? c->tunnel_len : 7;
    if (end || memcmp(c->tunnel, "HTTP/1.", prefix) != 0)
        answered(loop, c);
    else if (c->tunnel_len == TUNNEL_BUF_MAX)
        tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, "answered with a head over 16384 bytes");
}

static void send_request(struct egress_loop *loop, struct conn *c)
{
    while (c->tunnel_off < c->tunnel_len) {
        ssize_t w = send(c->up.fd, c->tunnel + c->tunnel_off, c->tunnel_len - c->tunnel_off, MSG_NOSIGNAL);
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            conn_set_interest(loop, &c->up, EV_OUT);
            return;
        }
        if (w <= 0) {
            char what[160];
            snprintf(what, sizeof what, "could not be sent the CONNECT: %s", strerror(w < 0 ? errno : EPIPE));
            tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, what);
            return;
        }
        c->tunnel_off += (size_t)w;
    }
    wipe_secret(c->tunnel, c->tunnel_len); /* the credentials are no longer needed here */
    c->tunnel_len = 0;
    c->tunnel_sent = true;
    conn_set_interest(loop, &c->up, EV_IN);
}

void tunnel_start(struct egress_loop *loop, struct conn *c)
{
    c->state = ST_TUNNEL;
    conn_set_interest(loop, &c->cli, 0);
    if (!(c->tunnel = malloc(TUNNEL_BUF_MAX))) {
        conn_close(loop, c, true);
        return;
    }
    c->tunnel_off = 0;
    c->tunnel_len = upstream_connect_head(&loop->upstream, &c->dest.host, c->port, c->tunnel, TUNNEL_BUF_MAX);
    if (!c->tunnel_len) {
        tunnel_fail(loop, c, FAILURE_UPSTREAM_FAILED, 0, "cannot be sent a CONNECT that large");
        return;
    }
    send_request(loop, c);
}

void tunnel_event(struct egress_loop *loop, struct conn *c)
{
    if (!c->tunnel_sent)
        send_request(loop, c);
    else
        read_answer(loop, c);
}
