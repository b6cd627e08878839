/*
 * socks5_parse.h — the SOCKS5 front-end's message parsers (pure): RFC 1928
 * greeting and request, RFC 1929 username/password sub-negotiation.
 * Each parser looks at the start of a buffer and either needs more bytes,
 * or consumes one complete message.
 */
#ifndef HAS_EGRESS_SOCKS5_PARSE_H
#define HAS_EGRESS_SOCKS5_PARSE_H

#include <stddef.h>

/* RFC 1928 reply codes. */
enum socks5_reply_code {
    SOCKS5_SUCCEEDED = 0x00,
    SOCKS5_GENERAL_FAILURE = 0x01,
    SOCKS5_NOT_ALLOWED = 0x02,
    SOCKS5_NETWORK_UNREACHABLE = 0x03,
    SOCKS5_HOST_UNREACHABLE = 0x04,
    SOCKS5_CONNECTION_REFUSED = 0x05,
    SOCKS5_TTL_EXPIRED = 0x06,
    SOCKS5_COMMAND_NOT_SUPPORTED = 0x07,
    SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED = 0x08,
};

enum socks5_result {
    SOCKS5_NEED_MORE = 0,
    SOCKS5_OK,
    SOCKS5_BAD,         /* not SOCKS5 or malformed: close */
    SOCKS5_NO_METHOD,   /* greeting without username/password: reply 05 FF, close */
    SOCKS5_UNSUPPORTED, /* request: reply with `code`, close */
};

/* Greeting: VER=5 NMETHODS METHODS...; OK only if 0x02 is offered. */
enum socks5_result socks5_parse_greeting(const unsigned char *buf, size_t len, size_t *used);

struct socks5_auth {
    char user[256];
    size_t user_len;
    char pass[256];
    size_t pass_len;
};

/* RFC 1929: VER=1 ULEN UNAME PLEN PASSWD (lengths 1..255). */
enum socks5_result socks5_parse_auth(const unsigned char *buf, size_t len, size_t *used,
                                     struct socks5_auth *auth);

struct socks5_request {
    unsigned char atyp; /* 1, 3 or 4 */
    char host[256];     /* domain as sent, or the address in text form */
    size_t host_len;
    unsigned short port;
    enum socks5_reply_code code; /* for SOCKS5_UNSUPPORTED */
};

/* VER=5 CMD RSV=0 ATYP DST.ADDR DST.PORT; only CMD=1 (CONNECT). */
enum socks5_result socks5_parse_request(const unsigned char *buf, size_t len, size_t *used,
                                        struct socks5_request *req);

/* A 10-byte reply with the given code and bound address 0.0.0.0:0 (the
 * egress process's own address is nothing the workload needs to know). */
void socks5_reply(enum socks5_reply_code code, unsigned char out[10]);

#endif
