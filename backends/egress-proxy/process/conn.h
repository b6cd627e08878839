/*
 * conn.h — one proxied connection inside the egress process, shared by the
 * event loop (egress_loop.c), the front-ends (http_frontend.c,
 * socks5_frontend.c), the outward connect (upstream.c), the CONNECT to an
 * upstream proxy (upstream_tunnel.c) and the relay
 * (relay.c on Linux, relay_copy.c on macOS and in the portable test build).
 */
#ifndef HAS_EGRESS_CONN_H
#define HAS_EGRESS_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "parse/http_parse.h"
#include "policy/destination.h"
#include "policy/proxy_auth.h"
#include "policy/synth_table.h"
#include "policy/upstream_proxy.h"
#include "process/evpoll.h"
#include "process/resolver.h"

#define CONN_IN_CAP HTTP_HEAD_MAX  /* the handshake buffer, freed once relaying */
#define HANDSHAKE_TIMEOUT_MS 10000 /* accept .. complete request (slowloris) */
#define CONNECT_TIMEOUT_MS \
    15000 /* request .. upstream connected, lookup and upstream proxy's answer included */
#define LINGER_TIMEOUT_MS 2000 /* draining a refused client before close */
#define REUSE_IDLE_MS 1000     /* a reused connection ends once the origin is this quiet */
#define TUNNEL_BUF_MAX 16384   /* the CONNECT to an upstream proxy, then the head of its answer */

enum watch_kind { W_LISTENER, W_DNS, W_RESOLVER, W_CONTROL, W_CLIENT, W_UPSTREAM };

enum conn_state {
    ST_HANDSHAKE,  /* reading the client's request */
    ST_RESOLVING,  /* a resolver worker holds the job */
    ST_CONNECTING, /* non-blocking connect in flight */
    ST_TUNNEL,     /* connected to the upstream proxy: CONNECT sent, its answer awaited */
    ST_RELAY,      /* splicing both ways */
    ST_FLUSH,      /* writing a refusal, then ST_LINGER */
    ST_LINGER,     /* half-closed, discarding what the client still sends */
};

enum socks_stage { S5_GREETING, S5_AUTH, S5_REQUEST };

struct conn;
struct egress_loop;

/* Why a request is not served, in the terms of both front-ends. */
struct refusal {
    int http_status;           /* 400, 403, 502, 504 */
    unsigned char socks_reply; /* enum socks5_reply_code */
    const char *rule;          /* the policy rule that refused (403 / 0x02), else NULL */
    const char *reason;        /* one sentence for the client */
};

/* A front-end: what differs between the HTTP, SOCKS5 and transparent ones. */
struct front_end {
    const char *name; /* "http", "socks5", "transparent": as in the policy and the refusal report */
    char wire_kind;   /* its letter in the listener hand-over (egress_process.h) */
    /* Right after accept: NULL to read a request (step); else the
     * destination comes from the connection itself (transparent). */
    void (*accepted)(struct egress_loop *loop, struct conn *c);
    /* Decides by the transparent rules (loop->transparent), not the policy's. */
    bool derived_rules;
    void (*step)(struct egress_loop *loop, struct conn *c); /* consume c->in */
    void (*refuse)(struct egress_loop *loop, struct conn *c, const struct refusal *why);
    void (*connected)(struct conn *c); /* owe the client the success reply (dir[1].prefix) */
};

extern const struct front_end http_front_end, socks5_front_end, transparent_front_end;

/* What an evpoll readiness report points at: always starts with the kind. */
struct watch {
    enum watch_kind kind;
};

struct endpoint {
    struct watch w;
    struct conn *conn;
    int fd;
    uint32_t events; /* interest currently registered (EV_IN | EV_OUT) */
    bool registered;
    bool hup; /* relay.c: peer fully closed (evpoll_hup_is_final), unwatched, read until EOF */
};

/* One direction of the relay: src -> pipe (relay_splice.c) or buffer (relay_copy.c) -> dst. */
struct direction {
    int pipe_rd, pipe_wr; /* relay_splice.c: -1 until the first byte arrives (idle tunnels cost no pipe) */
    char *buf;            /* relay_copy.c: NULL while empty (idle tunnels cost no buffer) */
    size_t head;          /* relay_copy.c: next byte of buf to send */
    size_t bytes;         /* in the pipe / end of the data in buf */
    size_t cap;
    char *prefix; /* bytes owed to dst before any pipe data */
    size_t prefix_len, prefix_off;
    bool src_eof, shut, maybe_full, dead;
    /* limited: src may send dst only `limit` more bytes (the rest of one
     * HTTP request's body); what it sends after them is read and dropped. */
    bool limited;
    unsigned long long limit;
    bool excess; /* bytes after the limit arrived: the client is reusing the connection */
};

struct conn {
    struct endpoint cli, up;
    const struct front_end *front;
    enum conn_state state;
    enum socks_stage s5;
    unsigned char *in; /* handshake bytes (CONN_IN_CAP), NULL once relaying */
    size_t in_len;
    char *out; /* refusal being flushed */
    size_t out_len, out_off;
    char *to_up; /* rewritten head + early client bytes, for upstream */
    size_t to_up_len;
    bool http_connect;
    struct dest_decision dest;
    bool via_upstream; /* reached through loop->upstream: c->addrs are the proxy's */
    char *tunnel;      /* ST_TUNNEL: the CONNECT being sent, then the answer's head (TUNNEL_BUF_MAX) */
    size_t tunnel_len, tunnel_off; /* its bytes; of the CONNECT, those sent */
    bool tunnel_sent;              /* the CONNECT is out: tunnel[] is the answer */
    unsigned short port;
    struct resolve_job *job;
    bool job_out; /* a resolver worker holds c->job */
    struct ip_addr addrs[RESOLVER_MAX_ADDRS];
    size_t naddrs, next_addr;
    int last_errno;
    bool any_allowed;
    int64_t deadline_ms;
    struct direction dir[2]; /* [0] client -> upstream, [1] upstream -> client */
    struct conn *prev, *next;
    bool closed; /* fds closed; struct waits for its resolver job */
};

struct listener {
    struct watch w;
    int fd;
    const struct front_end *front; /* NULL: the transparent front-end's resolver (UDP) */
};

struct egress_loop {
    struct evpoll *ev;
    struct host_policy policy;
    struct proxy_creds creds;
    struct upstream_proxy upstream; /* .set false: every destination directly */
    struct conn *conns;
    size_t nconns, max_conns;
    struct conn *graveyard; /* freed after the current batch of events */
    int64_t now_ms;
    int report_fd; /* refusal report (refusal_report.h), or -1 */
    /* The transparent front-end (synth == NULL without it): the synthetic
     * addresses, and the rules it decides by (synth_rules). */
    struct synth_table *synth;
    struct host_policy transparent;
};

/* egress_loop.c */
void conn_set_interest(struct egress_loop *loop, struct endpoint *ep, uint32_t events);
void conn_close(struct egress_loop *loop, struct conn *c, bool reset);
void conn_refuse(struct egress_loop *loop, struct conn *c, char *msg, size_t len);
void conn_request_ready(struct egress_loop *loop, struct conn *c, const char *host, size_t host_len,
                        unsigned short port);
/* Look `name` up for c (ST_RESOLVING); upstream_resolved() follows. */
void conn_resolve(struct egress_loop *loop, struct conn *c, const char *name);
/*
 * For a direction whose request is whole (direction_complete): read and drop
 * what src has queued, a bounded amount.  Bytes there mean the client is
 * reusing the connection for another request, which the origin (told
 * "Connection: close") will not answer: d->excess is set, and the loop ends
 * the connection once the origin has been quiet for REUSE_IDLE_MS.  Sets
 * d->src_eof at src's end of stream or on an error; true if either.
 */
bool direction_discard(struct direction *d, int src);

/* dns_frontend.c: answer what the resolver's socket `fd` has queued, a
 * bounded number of datagrams per call. */
void dns_frontend_serve(struct egress_loop *loop, int fd);

/* upstream.c */
void upstream_resolved(struct egress_loop *loop, struct conn *c);
void upstream_connect_next(struct egress_loop *loop, struct conn *c);
void upstream_writable(struct egress_loop *loop, struct conn *c);
void upstream_fail(struct egress_loop *loop, struct conn *c, bool timeout);
/* Refuse c for a cause that is not the sandbox's rule (FAILURE_*), with a
 * refusal-report line; `status` is the upstream proxy's answer, or 0;
 * timeout: the client is told 504 (else 502). */
void upstream_fail_with(struct egress_loop *loop, struct conn *c, const char *cause, int status, bool timeout,
                        const char *reason);
/* Connected to where c->addrs lead: c's front-end reply, then the relay. */
void upstream_connected(struct egress_loop *loop, struct conn *c);

/* upstream_tunnel.c: through the caller's upstream proxy (policy/upstream_proxy.h). */
/* Does the allowed request c go through the upstream?  Then it is under
 * way (the proxy's address looked up or connected to) and true. */
bool tunnel_route(struct egress_loop *loop, struct conn *c);
/* Connected to the upstream proxy: send the CONNECT (ST_TUNNEL). */
void tunnel_start(struct egress_loop *loop, struct conn *c);
/* The upstream socket is ready in ST_TUNNEL. */
void tunnel_event(struct egress_loop *loop, struct conn *c);

/* The body limit of a direction, for both relays. */
static inline bool direction_complete(const struct direction *d)
{
    return d->limited && d->limit == 0;
}

/* How much of `room` the source may fill. */
static inline size_t direction_allowance(const struct direction *d, size_t room)
{
    return d->limited && d->limit < room ? (size_t)d->limit : room;
}

static inline void direction_took(struct direction *d, size_t n)
{
    if (d->limited)
        d->limit -= n;
}

/*
 * How a direction holds bytes between its source and its destination: the
 * one part of the relay that differs by platform (relay.c has the rest).
 * relay_splice.c (a pipe, splice(2)) or relay_copy.c (a buffer,
 * recv/send); one of them is linked in.
 */
struct relay_mover {
    unsigned fds_per_conn; /* descriptors a busy tunnel holds, sockets included */
    size_t budget;         /* bytes a direction moves per wakeup at most (fairness) */
    /* Take at most max bytes from src: n > 0, 0 at its end of stream, -1
     * with errno (EAGAIN: nothing now). */
    ssize_t (*fill)(struct direction *d, int src, size_t max);
    /* Give held bytes to dst: how many it took, or -1 with errno. */
    ssize_t (*drain)(struct direction *d, int dst);
    size_t (*held)(const struct direction *d);
    size_t (*room)(const struct direction *d); /* > 0: fill may take bytes now */
    void (*release)(struct direction *d);      /* give the pipe or buffer back */
};

extern const struct relay_mover relay_mover;

/* relay.c */
void relay_start(struct egress_loop *loop, struct conn *c);
void relay_event(struct egress_loop *loop, struct conn *c, struct endpoint *ep, uint32_t events);
void relay_release(struct conn *c);

#endif
