/*
 * http_frontend.c — the HTTP proxy front-end: credentials first (407), then
 * the request (400/431), then the destination (403/502/504 via upstream.c).
 * Refusals carry a body and a header naming the rule, because an agent that
 * sees a bare 403 tends to treat it as a network fault and retry around it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "process/conn.h"
#include "process/egress_process.h"
#include "proxy_env.h"

static const char *status_text(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 407: return "Proxy Authentication Required";
    case 411: return "Length Required";
    case 431: return "Request Header Fields Too Large";
    case 502: return "Bad Gateway";
    case 504: return "Gateway Timeout";
    default: return "Error";
    }
}

static void http_refuse(struct egress_loop *loop, struct conn *c, int status, const char *rule,
                        const char *reason)
{
    char body[800];
    int bn = snprintf(body, sizeof body, "happy-agent-supervisor egress proxy: %s\n%s", reason,
                      status == 403 ? "This is the sandbox's network policy, not a network fault: "
                                      "retrying or another route will not help.\n"
                                    : "");
    if (bn < 0)
        bn = 0;
    if ((size_t)bn >= sizeof body)
        bn = sizeof body - 1;
    char extra[200] = "";
    if (status == 407)
        snprintf(extra, sizeof extra, "Proxy-Authenticate: Basic realm=\"happy-agent-supervisor\"\r\n");
    else if (rule)
        snprintf(extra, sizeof extra, PROXY_REFUSAL_RULE_HEADER ": %s\r\n", rule);
    size_t cap = 512 + (size_t)bn;
    char *msg = malloc(cap);
    if (!msg) {
        conn_close(loop, c, true);
        return;
    }
    int n = snprintf(msg, cap,
                     "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     "Content-Length: %d\r\nConnection: close\r\n%s\r\n%.*s",
                     status, status_text(status), bn, extra, bn, body);
    conn_refuse(loop, c, msg, n > 0 && (size_t)n < cap ? (size_t)n : 0);
}

static void http_refuse_op(struct egress_loop *loop, struct conn *c, const struct refusal *why)
{
    http_refuse(loop, c, why->http_status, why->rule, why->reason);
}

static void http_connected(struct conn *c)
{
    static const char established[] = "HTTP/1.1 200 Connection established\r\n\r\n";
    if (!c->http_connect)
        return; /* an absolute-URI request: the origin's response is the reply */
    /* Owed to the client before any upstream byte; relay_start takes it.
     * A static string: relay.c never frees dir[1].prefix for a CONNECT. */
    c->dir[1].prefix = (char *)established;
    c->dir[1].prefix_len = sizeof established - 1;
}

/*
 * Bytes for the upstream: for a CONNECT, whatever the client sent after its
 * head (tunnel data); for an absolute-URI request, the rewritten head and
 * the part of the body already here, with the relay allowed exactly the
 * rest of the body (dir[0].limit).  Nothing after the body ever reaches
 * the origin: a second request on the connection is read and dropped.
 */
static int set_upstream_prefix(struct conn *c, const struct http_request *req, const char *head,
                               size_t head_len)
{
    size_t early = c->in_len - req->head_len;
    if (!req->is_connect) {
        if (early > req->body_len)
            early = (size_t)req->body_len;
        c->dir[0].limited = true;
        c->dir[0].limit = req->body_len - early;
    }
    if (head_len + early == 0)
        return 0;
    c->to_up = malloc(head_len + early);
    if (!c->to_up)
        return -1;
    memcpy(c->to_up, head, head_len);
    memcpy(c->to_up + head_len, c->in + req->head_len, early);
    c->to_up_len = head_len + early;
    return 0;
}

static void http_step(struct egress_loop *loop, struct conn *c)
{
    struct http_request req;
    static char rewritten[HTTP_REWRITE_MAX];
    size_t rewritten_len = 0;
    enum http_parse_result r =
        http_parse_request((const char *)c->in, c->in_len, &req, rewritten, &rewritten_len);
    if (r == HTTP_NEED_MORE)
        return;
    if (r != HTTP_PARSED) {
        char reason[160];
        snprintf(reason, sizeof reason, "%s: %s", r == HTTP_NEEDS_LENGTH ? "refused" : "malformed request",
                 req.why ? req.why : "unparseable");
        http_refuse(loop, c, r == HTTP_MALFORMED ? 400 : r == HTTP_TOO_LARGE ? 431 : 411, NULL, reason);
        return;
    }
    if (!req.has_credentials ||
        !proxy_creds_check(&loop->creds, req.user, req.user_len, req.pass, req.pass_len)) {
        http_refuse(loop, c, 407, NULL,
                    req.has_credentials ? "wrong proxy credentials"
                                        : "proxy credentials required (use the proxy URL "
                                          "from HTTP_PROXY, which carries them)");
        return;
    }
    c->http_connect = req.is_connect;
    if (set_upstream_prefix(c, &req, req.is_connect ? NULL : rewritten, req.is_connect ? 0 : rewritten_len) !=
        0) {
        conn_close(loop, c, true);
        return;
    }
    conn_request_ready(loop, c, req.host, req.host_len, req.port);
}

const struct front_end http_front_end = {
    .name = "http",
    .wire_kind = EGRESS_KIND_HTTP,
    .step = http_step,
    .refuse = http_refuse_op,
    .connected = http_connected,
};
