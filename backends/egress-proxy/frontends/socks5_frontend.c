/*
 * socks5_frontend.c — the SOCKS5 front-end: greeting (username/password
 * required), RFC 1929 credentials, then one CONNECT request.  Pipelined
 * clients that send all three at once are served from the same buffer.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "parse/socks5_parse.h"
#include "process/conn.h"
#include "process/egress_compat.h"
#include "process/egress_process.h"

/* Send a short handshake reply now.  A fresh socket's send buffer always
 * takes a few bytes; if it does not, the client is not worth waiting for. */
static bool send_small(struct egress_loop *loop, struct conn *c, const void *buf, size_t len)
{
    if (send(c->cli.fd, buf, len, MSG_NOSIGNAL) == (ssize_t)len)
        return true;
    conn_close(loop, c, true);
    return false;
}

static void consume(struct conn *c, size_t used)
{
    memmove(c->in, c->in + used, c->in_len - used);
    c->in_len -= used;
}

static void refuse_bytes(struct egress_loop *loop, struct conn *c, const unsigned char *bytes, size_t n)
{
    char *msg = malloc(n);
    if (!msg) {
        conn_close(loop, c, true);
        return;
    }
    memcpy(msg, bytes, n);
    conn_refuse(loop, c, msg, n);
}

static void socks5_refuse_code(struct egress_loop *loop, struct conn *c, unsigned char code)
{
    unsigned char reply[10];
    socks5_reply((enum socks5_reply_code)code, reply);
    refuse_bytes(loop, c, reply, sizeof reply);
}

static void socks5_refuse(struct egress_loop *loop, struct conn *c, const struct refusal *why)
{
    socks5_refuse_code(loop, c, why->socks_reply);
}

static void socks5_connected(struct conn *c)
{
    static const unsigned char ok[10] = {0x05, 0x00, 0x00, 0x01};
    c->dir[1].prefix = (char *)ok;
    c->dir[1].prefix_len = sizeof ok;
}

static bool step_greeting(struct egress_loop *loop, struct conn *c)
{
    size_t used = 0;
    enum socks5_result r = socks5_parse_greeting(c->in, c->in_len, &used);
    if (r == SOCKS5_NEED_MORE)
        return false;
    if (r == SOCKS5_BAD) {
        conn_close(loop, c, true);
        return false;
    }
    if (r == SOCKS5_NO_METHOD) {
        static const unsigned char none[2] = {0x05, 0xff};
        refuse_bytes(loop, c, none, 2);
        return false;
    }
    consume(c, used);
    static const unsigned char userpass[2] = {0x05, 0x02};
    if (!send_small(loop, c, userpass, 2))
        return false;
    c->s5 = S5_AUTH;
    return true;
}

static bool step_auth(struct egress_loop *loop, struct conn *c)
{
    size_t used = 0;
    struct socks5_auth auth;
    enum socks5_result r = socks5_parse_auth(c->in, c->in_len, &used, &auth);
    if (r == SOCKS5_NEED_MORE)
        return false;
    if (r != SOCKS5_OK) {
        conn_close(loop, c, true);
        return false;
    }
    consume(c, used);
    bool good = proxy_creds_check(&loop->creds, auth.user, auth.user_len, auth.pass, auth.pass_len);
    static const unsigned char accepted[2] = {0x01, 0x00}, rejected[2] = {0x01, 0x01};
    if (!good) {
        refuse_bytes(loop, c, rejected, 2);
        return false;
    }
    if (!send_small(loop, c, accepted, 2))
        return false;
    c->s5 = S5_REQUEST;
    return true;
}

static void step_request(struct egress_loop *loop, struct conn *c)
{
    size_t used = 0;
    struct socks5_request req;
    enum socks5_result r = socks5_parse_request(c->in, c->in_len, &used, &req);
    if (r == SOCKS5_NEED_MORE)
        return;
    if (r == SOCKS5_BAD) {
        conn_close(loop, c, true);
        return;
    }
    if (r == SOCKS5_UNSUPPORTED) {
        socks5_refuse_code(loop, c, req.code);
        return;
    }
    size_t early = c->in_len - used;
    if (early) {
        if (!(c->to_up = malloc(early))) {
            conn_close(loop, c, true);
            return;
        }
        memcpy(c->to_up, c->in + used, early);
        c->to_up_len = early;
    }
    conn_request_ready(loop, c, req.host, req.host_len, req.port);
}

static void socks5_step(struct egress_loop *loop, struct conn *c)
{
    if (c->s5 == S5_GREETING && !step_greeting(loop, c))
        return;
    if (c->s5 == S5_AUTH && !step_auth(loop, c))
        return;
    if (c->s5 == S5_REQUEST)
        step_request(loop, c);
}

const struct front_end socks5_front_end = {
    .name = "socks5",
    .wire_kind = EGRESS_KIND_SOCKS5,
    .step = socks5_step,
    .refuse = socks5_refuse,
    .connected = socks5_connected,
};
