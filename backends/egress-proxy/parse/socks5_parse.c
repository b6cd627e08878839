/*
 * socks5_parse.c — see socks5_parse.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "parse/socks5_parse.h"

enum socks5_result socks5_parse_greeting(const unsigned char *buf, size_t len, size_t *used)
{
    if (len < 1)
        return SOCKS5_NEED_MORE;
    if (buf[0] != 0x05)
        return SOCKS5_BAD;
    if (len < 2)
        return SOCKS5_NEED_MORE;
    size_t n = buf[1];
    if (n == 0)
        return SOCKS5_BAD;
    if (len < 2 + n)
        return SOCKS5_NEED_MORE;
    *used = 2 + n;
    return memchr(buf + 2, 0x02, n) ? SOCKS5_OK : SOCKS5_NO_METHOD;
}

enum socks5_result socks5_parse_auth(const unsigned char *buf, size_t len, size_t *used,
                                     struct socks5_auth *auth)
{
    if (len < 1)
        return SOCKS5_NEED_MORE;
    if (buf[0] != 0x01)
        return SOCKS5_BAD;
    if (len < 2)
        return SOCKS5_NEED_MORE;
    size_t ulen = buf[1];
    if (ulen == 0)
        return SOCKS5_BAD;
    if (len < 3 + ulen)
        return SOCKS5_NEED_MORE;
    size_t plen = buf[2 + ulen];
    if (plen == 0)
        return SOCKS5_BAD;
    if (len < 3 + ulen + plen)
        return SOCKS5_NEED_MORE;
    memcpy(auth->user, buf + 2, ulen);
    auth->user[ulen] = '\0';
    auth->user_len = ulen;
    memcpy(auth->pass, buf + 3 + ulen, plen);
    auth->pass[plen] = '\0';
    auth->pass_len = plen;
    *used = 3 + ulen + plen;
    return SOCKS5_OK;
}

static enum socks5_result unsupported(struct socks5_request *req, enum socks5_reply_code code)
{
    req->code = code;
    return SOCKS5_UNSUPPORTED;
}

enum socks5_result socks5_parse_request(const unsigned char *buf, size_t len, size_t *used,
                                        struct socks5_request *req)
{
    memset(req, 0, sizeof *req);
    if (len < 1)
        return SOCKS5_NEED_MORE;
    if (buf[0] != 0x05)
        return SOCKS5_BAD;
    if (len < 4)
        return SOCKS5_NEED_MORE;
    if (buf[2] != 0x00)
        return unsupported(req, SOCKS5_GENERAL_FAILURE);
    /* The command is judged before the address so BIND and UDP ASSOCIATE
     * get 0x07 whatever follows, and the address length is known first. */
    size_t addr_len;
    switch (buf[3]) {
    case 0x01: addr_len = 4; break;
    case 0x04: addr_len = 16; break;
    case 0x03:
        if (len < 5)
            return SOCKS5_NEED_MORE;
        addr_len = 1 + (size_t)buf[4];
        if (buf[4] == 0)
            return unsupported(req, SOCKS5_GENERAL_FAILURE);
        break;
    default:
        return buf[1] != 0x01 ? unsupported(req, SOCKS5_COMMAND_NOT_SUPPORTED)
                              : unsupported(req, SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED);
    }
    if (buf[1] != 0x01)
        return unsupported(req, SOCKS5_COMMAND_NOT_SUPPORTED);
    if (len < 4 + addr_len + 2)
        return SOCKS5_NEED_MORE;
    const unsigned char *addr = buf + 4;
    req->atyp = buf[3];
    if (req->atyp == 0x03) {
        req->host_len = addr_len - 1;
        memcpy(req->host, addr + 1, req->host_len);
        req->host[req->host_len] = '\0';
    } else {
        int family = req->atyp == 0x01 ? AF_INET : AF_INET6;
        if (!inet_ntop(family, addr, req->host, sizeof req->host))
            return unsupported(req, SOCKS5_GENERAL_FAILURE);
        req->host_len = strlen(req->host);
    }
    req->port = (unsigned short)((addr[addr_len] << 8) | addr[addr_len + 1]);
    if (req->port == 0)
        return unsupported(req, SOCKS5_GENERAL_FAILURE);
    *used = 4 + addr_len + 2;
    return SOCKS5_OK;
}

void socks5_reply(enum socks5_reply_code code, unsigned char out[10])
{
    memset(out, 0, 10);
    out[0] = 0x05;
    out[1] = (unsigned char)code;
    out[3] = 0x01;
}
