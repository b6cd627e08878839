/*
 * frontend_bind.c — see frontend_bind.h.  Bound on 127.0.0.1 only: on the
 * host's loopback every local process can connect, so the per-invocation
 * secret is what keeps them out (checked in constant time by both
 * front-ends), and the boundary grants the workload exactly these ports
 * (the Seatbelt profile; the connect() broker under landlock).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "process/egress_compat.h"
#include "process/frontend_bind.h"

static int bind_one(unsigned short *port, char *err, size_t errlen)
{
    int fd = egress_set_flags(socket(AF_INET, SOCK_STREAM, 0), 1);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a front-end socket: %s", strerror(errno));
        return -1;
    }
    /* No SO_REUSEADDR: port 0 asks for a port nobody holds. */
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = 0};
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sin;
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(fd, 4096) != 0 ||
        getsockname(fd, (struct sockaddr *)&sin, &len) != 0 || sin.sin_port == 0) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1 (kernel-chosen port): %s", strerror(errno));
        close(fd);
        return -1;
    }
    *port = ntohs(sin.sin_port);
    return fd;
}

size_t frontend_bind(unsigned front_ends, struct listener *out, unsigned short ports[2], char *err,
                     size_t errlen)
{
    static const struct {
        unsigned bit;
        const struct front_end *front;
    } fronts[2] = {
        {POLICY_FRONT_END_HTTP, &http_front_end},
        {POLICY_FRONT_END_SOCKS5, &socks5_front_end},
    };
    size_t n = 0;
    ports[0] = ports[1] = 0;
    for (size_t i = 0; i < sizeof fronts / sizeof fronts[0]; i++) {
        if (!(front_ends & fronts[i].bit))
            continue;
        int fd = bind_one(&ports[i], err, errlen);
        if (fd < 0) {
            while (n > 0)
                close(out[--n].fd);
            return 0;
        }
        out[n].fd = fd;
        out[n].front = fronts[i].front;
        n++;
    }
    if (n == 0)
        snprintf(err, errlen, "no front-end configured");
    return n;
}
