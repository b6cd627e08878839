/*
 * proxy_client.h — what a client of a proxy writes and reads, without I/O:
 * the proxy's URL, the HTTP CONNECT request, the reply's head.  Two
 * clients use it: `--connect` (proxy_connect.c, towards the sandbox's own
 * front-ends) and the egress process towards the caller's upstream proxy
 * (network.outgoingProxy.upstream, README.md "Policy").
 *
 * The URL grammar, which release/npm/src/policy-rules.ts mirrors:
 *
 *     scheme://[user[:password]@]host:port[/]
 *
 * printable ASCII only (other bytes of the credentials %-encoded); host a
 * name of [A-Za-z0-9._-], a dotted IPv4 or a bracketed IPv6 literal; the
 * port required (proxies have no default port that every tool agrees on).
 */
#ifndef HAS_PROXY_CLIENT_H
#define HAS_PROXY_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#define PROXY_URL_TEXT_MAX 2048
#define PROXY_URL_PART_MAX 256 /* host, user, password: at most 255 bytes each, decoded */

enum proxy_scheme { PROXY_SCHEME_HTTP, PROXY_SCHEME_SOCKS5, PROXY_SCHEME_SOCKS5H };

struct proxy_url {
    enum proxy_scheme scheme;
    char host[PROXY_URL_PART_MAX]; /* a name or an IPv4 literal, or an IPv6 literal without brackets */
    bool host_is_ipv6;
    unsigned short port;
    bool has_credentials;              /* a userinfo was given (the password may be empty) */
    char user[PROXY_URL_PART_MAX];     /* %-decoded */
    char password[PROXY_URL_PART_MAX]; /* %-decoded */
};

/*
 * Parse `text`: http://, socks5:// or socks5h:// (the scheme
 * case-insensitive; https:// is refused by name).  scheme_optional: a
 * value without "scheme://" is taken as http:// (what curl and most tools
 * do with the proxy variables).  Returns NULL with *out filled, or a static
 * sentence that says what is wrong and never quotes the text (it may carry
 * a password).
 */
const char *proxy_url_parse(const char *text, bool scheme_optional, struct proxy_url *out);

/* An upstream proxy's URL: as proxy_url_parse, http:// only. */
const char *proxy_upstream_url_parse(const char *text, bool scheme_optional, struct proxy_url *out);

/* The bytes of "CONNECT authority" with a Host field and, when user is not
 * NULL, Basic credentials; authority is "host:port" ("[v6]:port").  Its
 * length, or 0 when it does not fit in cap.  The caller wipes out. */
size_t proxy_connect_request(const char *authority, const char *user, const char *password, char *out,
                             size_t cap);

/* Where a reply's head ends (just past its empty line, CRLF or bare LF)
 * in buf[0..len), or 0 while it has not ended. */
size_t proxy_reply_head_end(const char *buf, size_t len);

/* The status of a reply head that begins "HTTP/1.x NNN", or -1. */
int proxy_reply_status(const char *head, size_t len);

#endif
