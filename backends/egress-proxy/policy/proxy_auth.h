/*
 * proxy_auth.h — the per-invocation credentials both front-ends require.
 */
#ifndef HAS_EGRESS_PROXY_AUTH_H
#define HAS_EGRESS_PROXY_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#define PROXY_USER "sandbox"
#define PROXY_SECRET_BYTES 32                     /* from getrandom(2) */
#define PROXY_SECRET_HEX (PROXY_SECRET_BYTES * 2) /* URL-safe as userinfo */

struct proxy_creds {
    char user[16];
    char secret[PROXY_SECRET_HEX + 1];
};

/* True iff (user, pass) are exactly the credentials.  The time taken does
 * not depend on where the first differing byte is. */
bool proxy_creds_check(const struct proxy_creds *creds, const char *user, size_t ulen, const char *pass,
                       size_t plen);

/* Strict RFC 4648 base64 (padding required, no whitespace).  Returns the
 * decoded length, or -1 if malformed or longer than cap. */
long base64_decode(const char *in, size_t len, unsigned char *out, size_t cap);

/* Lower-case hex of n bytes into out (2n + 1 bytes). */
void hex_encode(const unsigned char *in, size_t n, char *out);

#endif
