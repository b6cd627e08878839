/*
 * proxy_client.c — see proxy_client.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "port_parse.h"
#include "proxy_client.h"
#include "wipe.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* %-decode in[0..len) into out[PROXY_URL_PART_MAX]. */
static const char *decode_part(const char *in, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)in[i];
        if (c == '%') {
            if (i + 2 >= len || hex_value(in[i + 1]) < 0 || hex_value(in[i + 2]) < 0)
                return "has a '%' not followed by two hex digits in its credentials";
            c = hex_value(in[i + 1]) * 16 + hex_value(in[i + 2]);
            i += 2;
            /* A decoded CR or LF would end a header line of the CONNECT. */
            if (c < 0x20 || c == 0x7f)
                return "has a %-encoded control character in its credentials";
        }
        if (n + 1 >= PROXY_URL_PART_MAX)
            return "has a user name or password longer than 255 bytes";
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return NULL;
}

static const char *parse_port(const char *p, size_t len, unsigned short *port)
{
    unsigned v;
    if (!port_parse(p, len, &v))
        return "needs a port from 1 to 65535 (http://host:port)";
    *port = (unsigned short)v;
    return NULL;
}

/* host:port or [v6]:port. */
static const char *parse_host_port(const char *hp, size_t len, struct proxy_url *out)
{
    const char *colon;
    if (len && hp[0] == '[') {
        const char *close = memchr(hp, ']', len);
        size_t inner = close ? (size_t)(close - hp - 1) : 0;
        struct in6_addr a6;
        if (!close || inner == 0 || inner >= PROXY_URL_PART_MAX)
            return "has an IPv6 host without its closing ']'";
        memcpy(out->host, hp + 1, inner);
        out->host[inner] = '\0';
        if (inet_pton(AF_INET6, out->host, &a6) != 1)
            return "has a bracketed host that is not an IPv6 address";
        out->host_is_ipv6 = true;
        if ((size_t)(close - hp) + 1 == len || close[1] != ':')
            return "needs a port from 1 to 65535 (http://host:port)";
        colon = close + 1;
    } else {
        colon = NULL;
        for (size_t i = 0; i < len; i++)
            if (hp[i] == ':')
                colon = hp + i;
        size_t host_len = colon ? (size_t)(colon - hp) : len;
        if (host_len == 0)
            return "has no host";
        if (host_len > 253 ||
            strspn(hp, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") < host_len)
            return "has a host that is not a name of letters, digits, '.', '_' and '-', an IPv4 address or a "
                   "bracketed IPv6 address";
        if (!colon)
            return "needs a port from 1 to 65535 (http://host:port)";
        memcpy(out->host, hp, host_len);
        out->host[host_len] = '\0';
    }
    return parse_port(colon + 1, len - (size_t)(colon + 1 - hp), &out->port);
}

/* [user[:password]@]: the userinfo ends at the last '@'. */
static const char *parse_userinfo(const char *ui, size_t len, struct proxy_url *out)
{
    const char *colon = memchr(ui, ':', len);
    size_t user_len = colon ? (size_t)(colon - ui) : len;
    if (user_len == 0)
        return "has credentials with an empty user name";
    out->has_credentials = true;
    const char *why = decode_part(ui, user_len, out->user);
    if (!why && colon)
        why = decode_part(colon + 1, len - user_len - 1, out->password);
    return why;
}

static const char *parse_scheme(const char *text, bool scheme_optional, struct proxy_url *out, size_t *skip)
{
    static const struct {
        const char *name;
        enum proxy_scheme scheme;
    } schemes[] = {
        {"http", PROXY_SCHEME_HTTP},
        {"socks5", PROXY_SCHEME_SOCKS5},
        {"socks5h", PROXY_SCHEME_SOCKS5H},
    };
    const char *sep = strstr(text, "://");
    *skip = 0;
    out->scheme = PROXY_SCHEME_HTTP;
    if (!sep)
        return scheme_optional ? NULL : "must start with http:// (http://host:port)";
    size_t scheme_len = (size_t)(sep - text);
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (scheme_len == strlen(schemes[i].name) && strncasecmp(text, schemes[i].name, scheme_len) == 0) {
            out->scheme = schemes[i].scheme;
            *skip = scheme_len + 3;
            return NULL;
        }
    if (scheme_len == 5 && strncasecmp(text, "https", 5) == 0)
        return "is an https:// proxy, which is not supported: give the proxy's http:// address";
    return "must start with http:// (http://host:port)";
}

const char *proxy_url_parse(const char *text, bool scheme_optional, struct proxy_url *out)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(text);
    if (len > PROXY_URL_TEXT_MAX)
        return "is longer than 2048 bytes";
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] <= 0x20 || (unsigned char)text[i] >= 0x7f)
            return "must be printable ASCII without spaces (%-encode other bytes of the credentials)";
    size_t skip;
    const char *why = parse_scheme(text, scheme_optional, out, &skip);
    if (why)
        return why;
    const char *auth = text + skip;
    size_t auth_len = strcspn(auth, "/?#");
    if (auth[auth_len] && strcmp(auth + auth_len, "/") != 0)
        return "must have no path, query or fragment (http://host:port)";
    const char *at = NULL;
    for (size_t i = 0; i < auth_len; i++)
        if (auth[i] == '@')
            at = auth + i;
    if (at && (why = parse_userinfo(auth, (size_t)(at - auth), out)) != NULL)
        return why;
    const char *hp = at ? at + 1 : auth;
    return parse_host_port(hp, auth_len - (size_t)(hp - auth), out);
}

static void base64_encode(const unsigned char *in, size_t n, char *out)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v =
            (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
}

size_t proxy_connect_request(const char *authority, const char *user, const char *password, char *out,
                             size_t cap)
{
    char pair[2 * PROXY_URL_PART_MAX], b64[(sizeof pair / 3 + 1) * 4 + 1];
    char field[sizeof b64 + 40] = "";
    if (user) {
        snprintf(pair, sizeof pair, "%s:%s", user, password ? password : "");
        base64_encode((const unsigned char *)pair, strlen(pair), b64);
        snprintf(field, sizeof field, "Proxy-Authorization: Basic %s\r\n", b64);
    }
    int n = snprintf(out, cap, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n%s\r\n", authority, authority, field);
    wipe_secret(pair, sizeof pair);
    wipe_secret(b64, sizeof b64);
    wipe_secret(field, sizeof field);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t proxy_reply_head_end(const char *buf, size_t len)
{
    /* CRLF CRLF, or a bare LF for either (RFC 9112, 2.2: a recipient may
     * take LF alone as a line's end). */
    for (size_t i = 1; i < len; i++)
        if (buf[i] == '\n' && (buf[i - 1] == '\n' || (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n')))
            return i + 1;
    return 0;
}

int proxy_reply_status(const char *head, size_t len)
{
    if (len < 12 || memcmp(head, "HTTP/1.", 7) != 0 || (head[7] != '0' && head[7] != '1') || head[8] != ' ')
        return -1;
    int status = 0;
    for (int i = 9; i < 12; i++) {
        if (head[i] < '0' || head[i] > '9')
            return -1;
        status = status * 10 + head[i] - '0';
    }
    /* A bare LF may end the line too, as it may end the head. */
    if (status < 100 || (len > 12 && head[12] != ' ' && head[12] != '\r' && head[12] != '\n'))
        return -1;
    return status;
}

const char *proxy_upstream_url_parse(const char *text, bool scheme_optional, struct proxy_url *out)
{
    const char *why = proxy_url_parse(text, scheme_optional, out);
    if (!why && out->scheme != PROXY_SCHEME_HTTP)
        why = "is a SOCKS proxy, which is not supported as an upstream: give an HTTP proxy's http:// address";
    return why;
}
