/*
 * http_parse.h — the HTTP front-end's request parser (pure).
 *
 * It reads one request head (request line and header fields, up to the
 * blank line), checks it strictly, and says where to go.  For an
 * absolute-URI request it also produces the head to send to the origin:
 * origin-form target, Host rebuilt from the parsed authority, proxy
 * credentials and hop-by-hop fields removed, "Connection: close" — and says
 * how long the body is, so that exactly one request reaches the origin.
 * Framing that two parsers could read two ways (request smuggling) is
 * refused: Content-Length with Transfer-Encoding, several Content-Length
 * fields, a body on CONNECT.  A chunked body is refused with 411: its
 * framing would have to be parsed on the fly, and a body that can only be
 * forwarded with a length is the smaller attack surface.
 */
#ifndef HAS_EGRESS_HTTP_PARSE_H
#define HAS_EGRESS_HTTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HEAD_MAX 8192 /* request line + fields + blank line */
#define HTTP_FIELDS_MAX 64
#define HTTP_REWRITE_MAX (HTTP_HEAD_MAX + 512)

enum http_parse_result {
    HTTP_NEED_MORE = 0,
    HTTP_PARSED,
    HTTP_MALFORMED,    /* 400 */
    HTTP_TOO_LARGE,    /* 431: head or field count over the limits */
    HTTP_NEEDS_LENGTH, /* 411: a Transfer-Encoding body */
};

struct http_request {
    bool is_connect;
    const char *host; /* into the caller's buffer: host text, brackets removed */
    size_t host_len;
    unsigned short port;
    bool has_credentials; /* Proxy-Authorization: Basic, decoded */
    char user[256];
    size_t user_len;
    char pass[256];
    size_t pass_len;
    size_t head_len;             /* bytes of the buffer the head used */
    unsigned long long body_len; /* Content-Length (0 without one): bytes after the head that belong to it */
    const char *why;             /* for a refusal: a short reason */
};

/*
 * Parse the head at the start of buf[0..len).  On HTTP_PARSED, for a
 * non-CONNECT request, `rewritten` (capacity HTTP_REWRITE_MAX) holds the
 * head for the origin and *rewritten_len its length.
 */
enum http_parse_result http_parse_request(const char *buf, size_t len, struct http_request *req,
                                          char *rewritten, size_t *rewritten_len);

#endif
