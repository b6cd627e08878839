/*
 * proxy_auth.c — credential checks.  The secret only guards a front-end that
 * nothing outside the sandbox can reach on Linux, but it is compared in
 * constant time anyway: on platforms without a network namespace the
 * front-end is on host loopback.
 */
#include "config.h"

#include <string.h>

#include "policy/proxy_auth.h"

static bool ct_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    unsigned char diff = (unsigned char)(alen != blen);
    size_t n = alen < blen ? alen : blen;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

bool proxy_creds_check(const struct proxy_creds *creds, const char *user, size_t ulen, const char *pass,
                       size_t plen)
{
    bool u = ct_equal(creds->user, strlen(creds->user), user, ulen);
    bool p = ct_equal(creds->secret, strlen(creds->secret), pass, plen);
    return u & p;
}

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

long base64_decode(const char *in, size_t len, unsigned char *out, size_t cap)
{
    if (len == 0 || len % 4 != 0)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            char c = in[i + k];
            if (c == '=' && i + 4 == len && k >= 2) {
                pad++;
                v[k] = 0;
                continue;
            }
            if (pad) /* data after '=' */
                return -1;
            if ((v[k] = b64_value(c)) < 0)
                return -1;
        }
        unsigned long triple = ((unsigned long)v[0] << 18) | ((unsigned long)v[1] << 12) |
                               ((unsigned long)v[2] << 6) | (unsigned long)v[3];
        size_t nbytes = 3 - (size_t)pad;
        if (o + nbytes > cap)
            return -1;
        for (size_t k = 0; k < nbytes; k++)
            out[o++] = (unsigned char)(triple >> (16 - 8 * k));
    }
    return (long)o;
}

void hex_encode(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}
