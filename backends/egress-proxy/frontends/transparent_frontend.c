/*
 * transparent_frontend.c — the transparent front-end's relay
 * (backends/egress-proxy/README.md, "Transparent front-end"): a connection
 * accepted on a synthetic address names its destination by where it
 * arrived — the slot's name and the port — and goes down the same path as
 * a CONNECT request (conn_request_ready): resolved outside, every address
 * classified, no second lookup.  Nothing is read from the client before
 * the relay starts (an ssh server speaks first); a refusal is a reset.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "process/conn.h"
#include "process/egress_process.h"
#include "process/refusal_report.h"

/* An address of the range that no lookup handed out: nothing to relay to. */
static void refuse_unassigned(struct egress_loop *loop, struct conn *c, const struct sockaddr_in *sin)
{
    char addr[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof addr);
    if (loop->report_fd >= 0) {
        struct refusal_event e = {
            .front_end = transparent_front_end.name,
            .host = addr,
            .port = ntohs(sin->sin_port),
            .rule = "allowedHosts",
            .reason = "no name of network.allowedHosts was given this address by the sandbox's resolver",
        };
        refusal_report_write(loop->report_fd, &e);
    }
    conn_close(loop, c, true);
}

static void transparent_accepted(struct egress_loop *loop, struct conn *c)
{
    struct sockaddr_in sin;
    socklen_t len = sizeof sin;
    memset(&sin, 0, sizeof sin);
    if (getsockname(c->cli.fd, (struct sockaddr *)&sin, &len) != 0 || sin.sin_family != AF_INET) {
        conn_close(loop, c, true);
        return;
    }
    const char *name =
        loop->synth ? synth_table_name(loop->synth, (const unsigned char *)&sin.sin_addr) : NULL;
    if (!name) {
        refuse_unassigned(loop, c, &sin);
        return;
    }
    conn_request_ready(loop, c, name, strlen(name), ntohs(sin.sin_port));
}

/* The report line is written by upstream.c for a policy refusal; the
 * client learns of it as a reset, the nearest a plain TCP client has. */
static void transparent_refuse(struct egress_loop *loop, struct conn *c, const struct refusal *why)
{
    (void)why;
    conn_close(loop, c, true);
}

static void transparent_connected(struct conn *c)
{
    (void)c; /* no reply owed: the origin's bytes are the first the client sees */
}

const struct front_end transparent_front_end = {
    .name = "transparent",
    .wire_kind = EGRESS_KIND_TRANSPARENT,
    .accepted = transparent_accepted,
    .derived_rules = true,
    .refuse = transparent_refuse,
    .connected = transparent_connected,
};
