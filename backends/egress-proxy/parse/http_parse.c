/*
 * http_parse.c — see http_parse.h.  Strict on purpose: CRLF line ends only,
 * no obs-fold, token field names, one Proxy-Authorization.  A lenient proxy
 * is how request smuggling and credential confusion start; real clients
 * (curl, Python, Go, Node) send exactly this grammar.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse/http_parse.h"
#include "policy/proxy_auth.h"

struct span {
    const char *p;
    size_t n;
};

static bool tchar(unsigned char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool span_is(struct span s, const char *lit)
{
    return s.n == strlen(lit) && strncasecmp(s.p, lit, s.n) == 0;
}

static enum http_parse_result fail(struct http_request *req, enum http_parse_result r, const char *why)
{
    req->why = why;
    return r;
}

/* Find the end of the head; check every byte is allowed in a head and
 * every LF is preceded by CR.  Returns the head length (including the blank
 * line), 0 when more bytes are needed, or -1 when malformed. */
static long head_end(const char *buf, size_t len, const char **why)
{
    size_t scan = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;
    for (size_t i = 0; i < scan; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n') {
            if (i == 0 || buf[i - 1] != '\r') {
                *why = "a line ends in a bare LF";
                return -1;
            }
            if (i >= 3 && buf[i - 2] == '\n' && buf[i - 3] == '\r')
                return (long)i + 1;
        } else if (c == '\r') {
            if (i + 1 < scan && buf[i + 1] != '\n') {
                *why = "a bare CR";
                return -1;
            }
        } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
            *why = "a control byte in the request head";
            return -1;
        }
    }
    return 0;
}

/* The wire's port (RFC 3986: *DIGIT), not the policy's (core/port_parse.h):
 * a client may send leading zeros ("0443" is 443); at most 5 digits. */
static bool parse_port(struct span s, unsigned short *port)
{
    if (s.n == 0 || s.n > 5)
        return false;
    unsigned long v = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return false;
        v = v * 10 + (unsigned long)(s.p[i] - '0');
    }
    if (v == 0 || v > 65535)
        return false;
    *port = (unsigned short)v;
    return true;
}

/* authority = host [":" port] | "[" v6 "]" [":" port]; userinfo refused. */
static bool parse_authority(struct span a, bool port_required, unsigned short default_port,
                            struct http_request *req)
{
    if (a.n == 0 || memchr(a.p, '@', a.n))
        return false;
    struct span host = a, port = {NULL, 0};
    if (a.p[0] == '[') {
        const char *close = memchr(a.p, ']', a.n);
        if (!close)
            return false;
        host.p = a.p + 1;
        host.n = (size_t)(close - a.p) - 1;
        size_t rest = a.n - (size_t)(close - a.p) - 1;
        if (rest) {
            if (close[1] != ':')
                return false;
            port.p = close + 2;
            port.n = rest - 1;
        }
    } else {
        const char *colon = memchr(a.p, ':', a.n);
        if (colon) {
            host.n = (size_t)(colon - a.p);
            port.p = colon + 1;
            port.n = a.n - host.n - 1;
        }
    }
    if (host.n == 0)
        return false;
    if (port.p) {
        if (!parse_port(port, &req->port))
            return false;
    } else if (port_required) {
        return false;
    } else {
        req->port = default_port;
    }
    req->host = host.p;
    req->host_len = host.n;
    return true;
}

/* Split the request line; fills method, target, version. */
static bool split_request_line(struct span line, struct span *method, struct span *target,
                               struct span *version)
{
    const char *sp1 = memchr(line.p, ' ', line.n);
    if (!sp1)
        return false;
    const char *after = sp1 + 1;
    size_t left = line.n - (size_t)(after - line.p);
    const char *sp2 = memchr(after, ' ', left);
    if (!sp2)
        return false;
    *method = (struct span){line.p, (size_t)(sp1 - line.p)};
    *target = (struct span){after, (size_t)(sp2 - after)};
    *version = (struct span){sp2 + 1, line.n - (size_t)(sp2 + 1 - line.p)};
    if (method->n == 0 || method->n > 32 || target->n == 0)
        return false;
    for (size_t i = 0; i < method->n; i++)
        if (!tchar((unsigned char)method->p[i]))
            return false;
    for (size_t i = 0; i < target->n; i++)
        if ((unsigned char)target->p[i] <= 0x20 || (unsigned char)target->p[i] >= 0x7f)
            return false;
    return version->n == 8 &&
           (memcmp(version->p, "HTTP/1.1", 8) == 0 || memcmp(version->p, "HTTP/1.0", 8) == 0);
}

struct field {
    struct span name, value;
};

/* Fields between the request line and the blank line. */
static enum http_parse_result split_fields(struct span block, struct field *fields, size_t *count,
                                           struct http_request *req)
{
    size_t n = 0;
    const char *p = block.p, *end = block.p + block.n;
    while (p < end) {
        const char *eol = memchr(p, '\r', (size_t)(end - p));
        if (!eol)
            return fail(req, HTTP_MALFORMED, "a field line without CRLF");
        if (n == HTTP_FIELDS_MAX)
            return fail(req, HTTP_TOO_LARGE, "more than 64 header fields");
        struct span line = {p, (size_t)(eol - p)};
        const char *colon = memchr(line.p, ':', line.n);
        if (line.n == 0 || line.p[0] == ' ' || line.p[0] == '\t')
            return fail(req, HTTP_MALFORMED, "obsolete line folding or an empty field line");
        if (!colon || colon == line.p)
            return fail(req, HTTP_MALFORMED, "a field line without a name and ':'");
        struct span name = {line.p, (size_t)(colon - line.p)};
        for (size_t i = 0; i < name.n; i++)
            if (!tchar((unsigned char)name.p[i]))
                return fail(req, HTTP_MALFORMED, "an invalid field name");
        struct span value = {colon + 1, line.n - name.n - 1};
        while (value.n && (value.p[0] == ' ' || value.p[0] == '\t'))
            value.p++, value.n--;
        while (value.n && (value.p[value.n - 1] == ' ' || value.p[value.n - 1] == '\t'))
            value.n--;
        fields[n++] = (struct field){name, value};
        p = eol + 2;
    }
    *count = n;
    return HTTP_PARSED;
}

/* Content-Length = 1*DIGIT, at most 15 digits (under 1 PB; no overflow). */
static bool parse_length(struct span value, unsigned long long *out)
{
    if (value.n == 0 || value.n > 15)
        return false;
    unsigned long long v = 0;
    for (size_t i = 0; i < value.n; i++) {
        if (value.p[i] < '0' || value.p[i] > '9')
            return false;
        v = v * 10 + (unsigned long long)(value.p[i] - '0');
    }
    *out = v;
    return true;
}

static bool list_has(struct span list, struct span name);

/* How long the body is, or why the framing is refused (RFC 9112 §6). */
static enum http_parse_result body_framing(const struct field *fields, size_t count, bool is_connect,
                                           struct http_request *req)
{
    bool length = false, chunked = false;
    for (size_t i = 0; i < count; i++) {
        if (span_is(fields[i].name, "Transfer-Encoding")) {
            chunked = true;
        } else if (span_is(fields[i].name, "Content-Length")) {
            if (length)
                return fail(req, HTTP_MALFORMED, "several Content-Length fields");
            if (!parse_length(fields[i].value, &req->body_len))
                return fail(req, HTTP_MALFORMED, "a Content-Length that is not a decimal number");
            length = true;
        }
    }
    if (length && chunked)
        return fail(req, HTTP_MALFORMED, "both Content-Length and Transfer-Encoding");
    /* "Connection: Content-Length" would have the rewrite drop the framing
     * the proxy counts by (hop_by_hop removes what Connection names): the
     * origin would then read the body as the next request.  Framing is
     * never hop-by-hop (RFC 9110 §7.6.1). */
    static const struct span framing[] = {{"Content-Length", 14}, {"Transfer-Encoding", 17}};
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < 2; k++)
            if (span_is(fields[i].name, "Connection") && list_has(fields[i].value, framing[k]))
                return fail(req, HTTP_MALFORMED,
                            "a Connection field naming a framing field "
                            "(Content-Length, Transfer-Encoding)");
    if (is_connect && (length || chunked))
        return fail(req, HTTP_MALFORMED, "a CONNECT request with a body");
    if (chunked)
        return fail(req, HTTP_NEEDS_LENGTH,
                    "a Transfer-Encoding body: send Content-Length, or use CONNECT (https)");
    return HTTP_PARSED;
}

static bool parse_basic_credentials(struct span value, struct http_request *req)
{
    if (value.n < 6 || strncasecmp(value.p, "Basic ", 6) != 0)
        return false;
    struct span b64 = {value.p + 6, value.n - 6};
    while (b64.n && b64.p[0] == ' ')
        b64.p++, b64.n--;
    unsigned char decoded[512];
    long n = base64_decode(b64.p, b64.n, decoded, sizeof decoded);
    if (n < 0)
        return false;
    unsigned char *colon = memchr(decoded, ':', (size_t)n);
    if (!colon)
        return false;
    size_t ulen = (size_t)(colon - decoded), plen = (size_t)n - ulen - 1;
    if (ulen >= sizeof req->user || plen >= sizeof req->pass)
        return false;
    memcpy(req->user, decoded, ulen);
    req->user[ulen] = '\0';
    memcpy(req->pass, colon + 1, plen);
    req->pass[plen] = '\0';
    req->user_len = ulen;
    req->pass_len = plen;
    req->has_credentials = true;
    return true;
}

/* Does the comma-separated token list `list` name `name`? */
static bool list_has(struct span list, struct span name)
{
    const char *p = list.p, *end = list.p + list.n;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        const char *start = p;
        while (p < end && *p != ',' && *p != ' ' && *p != '\t')
            p++;
        if ((size_t)(p - start) == name.n && strncasecmp(start, name.p, name.n) == 0)
            return true;
    }
    return false;
}

/* Fields that concern this hop only (RFC 9110 §7.6.1), plus the proxy's
 * own credentials and any field the client's Connection header names. */
static bool hop_by_hop(struct field f, const struct field *fields, size_t count)
{
    static const char *const fixed[] = {
        "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authorization", "Proxy-Authenticate", "TE",
        "Trailer",    "Upgrade",          "Host",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (span_is(f.name, fixed[i]))
            return true;
    for (size_t i = 0; i < count; i++)
        if (span_is(fields[i].name, "Connection") && list_has(fields[i].value, f.name))
            return true;
    return false;
}

static bool append(char *out, size_t *at, const char *p, size_t n)
{
    if (*at + n > HTTP_REWRITE_MAX)
        return false;
    memcpy(out + *at, p, n);
    *at += n;
    return true;
}

/* "Host: name[:port]\r\n", an IPv6 literal in brackets, the port only
 * when not 80; its length, or -1 when it does not fit. */
static int host_line(const struct http_request *req, char *line, size_t size)
{
    bool v6 = memchr(req->host, ':', req->host_len) != NULL;
    int n = req->port == 80 ? snprintf(line, size, "Host: %s%.*s%s\r\n", v6 ? "[" : "", (int)req->host_len,
                                       req->host, v6 ? "]" : "")
                            : snprintf(line, size, "Host: %s%.*s%s:%u\r\n", v6 ? "[" : "", (int)req->host_len,
                                       req->host, v6 ? "]" : "", (unsigned)req->port);
    return n < 0 || (size_t)n >= size ? -1 : n;
}

/* One of the client's fields as it goes on: none for a hop-by-hop one. */
static bool append_field(char *out, size_t *at, size_t i, const struct field *fields, size_t count,
                         const struct http_request *req)
{
    if (hop_by_hop(fields[i], fields, count))
        return true;
    if (span_is(fields[i].name, "Content-Length")) {
        /* The number the relay counts, not the client's spelling of it
         * ("005"): the origin reads exactly what the proxy enforces. */
        char length[40];
        int n = snprintf(length, sizeof length, "Content-Length: %llu\r\n", req->body_len);
        return n > 0 && (size_t)n < sizeof length && append(out, at, length, (size_t)n);
    }
    return append(out, at, fields[i].name.p, fields[i].name.n) && append(out, at, ": ", 2) &&
           append(out, at, fields[i].value.p, fields[i].value.n) && append(out, at, "\r\n", 2);
}

static bool rewrite_head(struct span method, struct span path, struct span version,
                         const struct field *fields, size_t count, const struct http_request *req, char *out,
                         size_t *out_len)
{
    size_t at = 0;
    char host[300];
    int hn = host_line(req, host, sizeof host);
    if (hn < 0)
        return false;
    bool ok = append(out, &at, method.p, method.n) && append(out, &at, " ", 1) &&
              append(out, &at, path.p, path.n) && append(out, &at, " ", 1) &&
              append(out, &at, version.p, version.n) && append(out, &at, "\r\n", 2) &&
              append(out, &at, host, (size_t)hn);
    for (size_t i = 0; ok && i < count; i++)
        ok = append_field(out, &at, i, fields, count, req);
    ok = ok && append(out, &at, "Connection: close\r\n\r\n", 21);
    *out_len = at;
    return ok;
}

/* "http://authority[/path][?query]": authority and origin-form path. */
static bool split_absolute_uri(struct span target, struct span *authority, struct span *path)
{
    if (target.n < 8 || strncasecmp(target.p, "http://", 7) != 0)
        return false;
    const char *a = target.p + 7, *end = target.p + target.n;
    const char *p = a;
    while (p < end && *p != '/' && *p != '?' && *p != '#')
        p++;
    *authority = (struct span){a, (size_t)(p - a)};
    if (p < end && *p == '#')
        return false;
    /* A fragment is the client's business (RFC 9110 §4.2.4): never sent on. */
    const char *hash = memchr(p, '#', (size_t)(end - p));
    *path = (struct span){p, (size_t)((hash ? hash : end) - p)};
    return true;
}

enum http_parse_result http_parse_request(const char *buf, size_t len, struct http_request *req,
                                          char *rewritten, size_t *rewritten_len)
{
    memset(req, 0, sizeof *req);
    const char *why = NULL;
    long hl = head_end(buf, len, &why);
    if (hl < 0)
        return fail(req, HTTP_MALFORMED, why);
    if (hl == 0)
        return len >= HTTP_HEAD_MAX ? fail(req, HTTP_TOO_LARGE, "request head over 8192 bytes")
                                    : HTTP_NEED_MORE;
    req->head_len = (size_t)hl;
    const char *eol = memchr(buf, '\r', (size_t)hl);
    struct span line = {buf, (size_t)(eol - buf)}, method, target, version;
    if (!split_request_line(line, &method, &target, &version))
        return fail(req, HTTP_MALFORMED, "malformed request line");
    struct field fields[HTTP_FIELDS_MAX];
    size_t count = 0;
    struct span block = {eol + 2, (size_t)hl - line.n - 4};
    enum http_parse_result r = split_fields(block, fields, &count, req);
    if (r != HTTP_PARSED)
        return r;
    for (size_t i = 0; i < count; i++) {
        if (!span_is(fields[i].name, "Proxy-Authorization"))
            continue;
        if (req->has_credentials || !parse_basic_credentials(fields[i].value, req))
            return fail(req, HTTP_MALFORMED, "a repeated or malformed Proxy-Authorization");
    }
    bool is_connect = span_is(method, "CONNECT") && memcmp(method.p, "CONNECT", 7) == 0;
    r = body_framing(fields, count, is_connect, req);
    if (r != HTTP_PARSED)
        return r;
    if (is_connect) {
        req->is_connect = true;
        if (!parse_authority(target, true, 0, req))
            return fail(req, HTTP_MALFORMED, "CONNECT needs host:port");
        return HTTP_PARSED;
    }
    struct span authority, path;
    if (!split_absolute_uri(target, &authority, &path))
        return fail(req, HTTP_MALFORMED,
                    "a proxy request needs an absolute http:// URI (use CONNECT for https)");
    if (!parse_authority(authority, false, 80, req))
        return fail(req, HTTP_MALFORMED, "malformed host in the request URI");
    struct span root = {"/", 1};
    char joined[HTTP_HEAD_MAX + 2];
    if (path.n == 0) {
        path = root;
    } else if (path.p[0] == '?') { /* "http://h?q" means "/?q" */
        joined[0] = '/';
        memcpy(joined + 1, path.p, path.n);
        path = (struct span){joined, path.n + 1};
    }
    if (!rewrite_head(method, path, version, fields, count, req, rewritten, rewritten_len))
        return fail(req, HTTP_TOO_LARGE, "the rewritten request head is too large");
    return HTTP_PARSED;
}
