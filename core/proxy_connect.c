/*
 * proxy_connect.c — see proxy_connect.h.  Blocking sockets and a poll(2)
 * loop, like nc: the peer on each side (ssh, the proxy) reads whatever it
 * is sent, so a blocking write cannot deadlock.
 *
 * Why it is in the core and not beside the proxy (backends/egress-proxy):
 *  - it shares no parser with the proxy's front-ends: they parse requests
 *    as a server (http_parse.c, socks5_parse.c); this writes requests and
 *    reads replies, as the egress process does towards an upstream proxy,
 *    and that client side has its own home in the core (proxy_client.h);
 *  - it runs with no policy and no backend: in a developer build the egress
 *    backend is a module, loaded only after a policy is read, so `--connect`
 *    would have to load modules (and find the build tree) to make one TCP
 *    connection; and for the core to link the backend's code instead would
 *    make it name a backend, which no part of the core does;
 *  - what it does share with the proxy is the contract, and that has one
 *    home the backend includes: the variables and URL schemes (proxy_env.h)
 *    and the port syntax (port_parse.h).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backend.h"
#include "diag.h"
#include "port_parse.h"
#include "proxy_client.h"
#include "proxy_connect.h"
#include "proxy_env.h"

#define HEAD_MAX 8192

/* The variables the egress backend sets, in the order they are tried. */
static const char *const http_vars[] = PROXY_ENV_HTTP_VARS;
static const char *const socks_vars[] = PROXY_ENV_SOCKS_VARS;

/* A front-end of the sandbox's proxy, from its variable. */
struct front_end_url {
    struct proxy_url url;
    bool socks;
    struct sockaddr_storage addr;
    socklen_t addr_len;
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line on stderr (ssh shows a ProxyCommand's stderr), exit status 125. */
static int fail(const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag("--connect: %s", msg);
    return HAS_EXIT_FAILURE;
}

/* A host to put on the CONNECT line: a name ([A-Za-z0-9._-]) or an IPv6
 * literal, nothing that could end the line or add a field. */
static bool target_host_ok(const char *h)
{
    size_t n = strlen(h);
    if (n == 0 || n > 253)
        return false;
    for (const char *p = h; *p; p++) {
        char c = *p;
        bool name = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_' || c == ':';
        if (!name)
            return false;
    }
    if (strchr(h, ':')) {
        struct in6_addr a;
        return inet_pton(AF_INET6, h, &a) == 1;
    }
    return true;
}

/* "http://user:pass@127.0.0.1:3128" or "socks5h://...": a loopback literal only. */
static const char *parse_proxy_url(const char *text, bool socks, struct front_end_url *u)
{
    memset(u, 0, sizeof *u);
    u->socks = socks;
    const char *why = proxy_url_parse(text, false, &u->url);
    if (why)
        return why;
    if ((u->url.scheme != PROXY_SCHEME_HTTP) != socks)
        return socks ? "is not a socks5h:// URL" : "is not an http:// URL";
    struct sockaddr_in *in = (struct sockaddr_in *)(void *)&u->addr;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)(void *)&u->addr;
    if (inet_pton(AF_INET, u->url.host, &in->sin_addr) == 1 && (ntohl(in->sin_addr.s_addr) >> 24) == 127) {
        in->sin_family = AF_INET;
        in->sin_port = htons(u->url.port);
        u->addr_len = sizeof *in;
    } else if (u->url.host_is_ipv6 && inet_pton(AF_INET6, u->url.host, &in6->sin6_addr) == 1 &&
               IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(u->url.port);
        u->addr_len = sizeof *in6;
    } else {
        return "does not name a loopback address (the sandbox's proxy front-ends are on 127.0.0.1)";
    }
    return NULL;
}

/* The first proxy variable that is set, parsed; its name in *var. */
static int find_proxy(struct front_end_url *u, const char **var)
{
    for (int socks = 0; socks < 2; socks++) {
        const char *const *names = socks ? socks_vars : http_vars;
        size_t count = socks ? sizeof socks_vars / sizeof *socks_vars : sizeof http_vars / sizeof *http_vars;
        for (size_t i = 0; i < count; i++) {
            const char *v = getenv(names[i]);
            if (!v || !*v)
                continue;
            *var = names[i];
            const char *why = parse_proxy_url(v, socks, u);
            return why ? fail("%s %s", names[i], why) : 0;
        }
    }
    return fail("no proxy: HTTP_PROXY and ALL_PROXY are unset (run it inside a sandbox whose "
                "policy has network.outgoingProxy)");
}

/* All of p to fd (a socket or stdout; SIGPIPE is ignored). */
static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

static bool recv_exact(int fd, unsigned char *buf, size_t len)
{
    while (len > 0) {
        ssize_t r = recv(fd, buf, len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        buf += r;
        len -= (size_t)r;
    }
    return true;
}

/* The value of field `name` in a response head, or "" (into out). */
static void head_field(const char *head, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    out[0] = '\0';
    for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, name, n) == 0 && line[2 + n] == ':') {
            const char *v = line + 3 + n;
            v += strspn(v, " \t");
            snprintf(out, cap, "%.*s", (int)strcspn(v, "\r"), v);
            return;
        }
    }
}

/* HTTP CONNECT.  Bytes read past the reply's head are tunnel data: they go
 * to *early (len *early_len) for stdout. */
static int http_handshake(int fd, const struct front_end_url *u, const char *authority, char *early,
                          size_t *early_len)
{
    char req[2048];
    size_t n = proxy_connect_request(authority, u->url.has_credentials ? u->url.user : NULL, u->url.password,
                                     req, sizeof req);
    bool sent = n > 0 && write_all(fd, req, n);
    sandbox_wipe(req, sizeof req);
    if (!sent)
        return fail("cannot send the CONNECT request to the proxy: %s", strerror(errno));
    char head[HEAD_MAX + 1];
    size_t len = 0, head_len = 0;
    while (!head_len) {
        if (len == HEAD_MAX)
            return fail("the proxy's reply head is over %s bytes", "8192");
        ssize_t r = recv(fd, head + len, HEAD_MAX - len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return fail("the proxy closed the connection before replying to CONNECT %s", authority);
        len += (size_t)r;
        head_len = proxy_reply_head_end(head, len);
    }
    *early_len = len - head_len;
    memcpy(early, head + head_len, *early_len);
    head[head_len] = '\0';
    if (proxy_reply_status(head, head_len) == 200)
        return 0;
    /* A refusal: its status line, the rule, and the first line of its body. */
    char rule[128], status[128];
    head_field(head, PROXY_REFUSAL_RULE_HEADER, rule, sizeof rule);
    snprintf(status, sizeof status, "%.*s", (int)strcspn(head, "\r"), head);
    char body[600];
    size_t got = *early_len < sizeof body - 1 ? *early_len : sizeof body - 1;
    memcpy(body, early, got);
    body[got] = '\0';
    body[strcspn(body, "\n")] = '\0';
    char what[900];
    snprintf(what, sizeof what, "%s%s%s: %s", status, rule[0] ? ", refused by " : "", rule, body);
    return fail("the proxy refused CONNECT %s: %s", authority, what);
}

static const char *socks_reply_text(unsigned char code)
{
    static const char *const text[] = {
        "succeeded",
        "general failure",
        "not allowed by the sandbox's network policy (allowedHosts)",
        "network unreachable",
        "host unreachable",
        "connection refused",
        "timed out",
        "command not supported",
        "address type not supported",
    };
    return code < sizeof text / sizeof *text ? text[code] : "an unknown reply";
}

/* SOCKS5 with RFC 1929 credentials, the host as a domain name (ATYP 3). */
static int socks_handshake(int fd, const struct front_end_url *u, const char *host, unsigned port)
{
    unsigned char msg[3 + 2 * PROXY_URL_PART_MAX + 300];
    size_t ul = strlen(u->url.user), pl = strlen(u->url.password), hl = strlen(host);
    if (ul > 255 || pl > 255)
        return fail("ALL_PROXY's credentials are too long for SOCKS5");
    unsigned char greeting[3] = {5, 1, 2}, reply[2];
    if (!write_all(fd, greeting, 3) || !recv_exact(fd, reply, 2) || reply[0] != 5 || reply[1] != 2)
        return fail("the SOCKS5 proxy does not accept username/password authentication");
    size_t n = 0;
    msg[n++] = 1;
    msg[n++] = (unsigned char)ul;
    memcpy(msg + n, u->url.user, ul);
    n += ul;
    msg[n++] = (unsigned char)pl;
    memcpy(msg + n, u->url.password, pl);
    n += pl;
    bool sent = write_all(fd, msg, n);
    sandbox_wipe(msg, sizeof msg);
    if (!sent || !recv_exact(fd, reply, 2) || reply[1] != 0)
        return fail("the SOCKS5 proxy refused the credentials from ALL_PROXY");
    n = 0;
    msg[n++] = 5, msg[n++] = 1, msg[n++] = 0, msg[n++] = 3, msg[n++] = (unsigned char)hl;
    memcpy(msg + n, host, hl);
    n += hl;
    msg[n++] = (unsigned char)(port >> 8);
    msg[n++] = (unsigned char)port;
    unsigned char head[5];
    if (!write_all(fd, msg, n) || !recv_exact(fd, head, 5) || head[0] != 5)
        return fail("the SOCKS5 proxy closed the connection during the request for %s", host);
    if (head[1] != 0)
        return fail("the SOCKS5 proxy refused %s port %u: %s", host, port, socks_reply_text(head[1]));
    /* The bound address: its length depends on its type (we already have
     * its first byte in head[4]). */
    size_t rest = head[3] == 1 ? 4 - 1 + 2 : head[3] == 4 ? 16 - 1 + 2 : head[3] == 3 ? head[4] + 2u : 0;
    unsigned char skip[300];
    if (rest == 0 || !recv_exact(fd, skip, rest))
        return fail("the SOCKS5 proxy sent a malformed reply for %s", host);
    return 0;
}

/* stdin -> tunnel, tunnel -> stdout, until the tunnel ends. */
static int relay(int fd)
{
    struct pollfd p[2] = {{.fd = 0, .events = POLLIN}, {.fd = fd, .events = POLLIN}};
    char buf[65536];
    for (;;) {
        int r = poll(p, 2, -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return fail("poll: %s", strerror(errno));
        if (p[0].revents) {
            ssize_t n = read(0, buf, sizeof buf);
            if (n > 0 && !write_all(fd, buf, (size_t)n))
                return fail("the tunnel failed while sending: %s", strerror(errno));
            if (n == 0 || (n < 0 && errno != EINTR)) {
                shutdown(fd, SHUT_WR); /* pass the end of stdin on, keep reading */
                p[0].fd = -1;
            }
        }
        if (p[1].revents) {
            ssize_t n = recv(fd, buf, sizeof buf, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return fail("the tunnel failed: %s", strerror(errno));
            if (n == 0)
                return 0;
            if (!write_all(1, buf, (size_t)n))
                return 0; /* the reader of stdout is gone: so is the point */
        }
    }
}

int proxy_connect_main(const char *host, const char *port_text)
{
    unsigned port;
    if (!target_host_ok(host)) {
        char shown[80]; /* the message stays one line whatever HOST holds */
        size_t n = 0;
        for (const char *p = host; *p && n + 1 < sizeof shown; p++)
            shown[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
        shown[n] = '\0';
        return fail("'%s' is not a host name or an IPv6 literal", shown);
    }
    if (!port_parse(port_text, strlen(port_text), &port))
        return fail("'%s' is not a port from 1 to 65535", port_text);
    signal(SIGPIPE, SIG_IGN);
    struct front_end_url u;
    const char *var = NULL;
    int rc = find_proxy(&u, &var);
    if (rc != 0)
        return rc;
    int fd = socket(u.addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&u.addr, u.addr_len) != 0)
        return fail("cannot reach the proxy named by %s: %s", var, strerror(errno));
    char authority[300];
    snprintf(authority, sizeof authority, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
    char early[HEAD_MAX];
    size_t early_len = 0;
    rc = u.socks ? socks_handshake(fd, &u, host, port) : http_handshake(fd, &u, authority, early, &early_len);
    sandbox_wipe(&u, sizeof u);
    if (rc != 0)
        return rc;
    if (early_len && !write_all(1, early, early_len))
        return 0;
    return relay(fd);
}
