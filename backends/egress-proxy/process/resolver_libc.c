/*
 * resolver_libc.c — resolver_lookup() through the system's getaddrinfo(3):
 * macOS, whose resolver (mDNSResponder, with a VPN's scoped servers) is the
 * only one that answers as the rest of the system does.
 */
#include "config.h"

#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "process/resolver.h"

void resolver_lookup(struct resolve_job *job)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_ADDRCONFIG;
    job->count = 0;
    int e = getaddrinfo(job->host, NULL, &hints, &res);
    if (e) {
        job->error = 1;
        snprintf(job->why, sizeof job->why, "the system's resolver: %s", gai_strerror(e));
        return;
    }
    for (struct addrinfo *ai = res; ai && job->count < RESOLVER_MAX_ADDRS; ai = ai->ai_next) {
        struct ip_addr a;
        if (ip_from_sockaddr(ai->ai_addr, &a) == 0)
            job->addrs[job->count++] = a;
    }
    freeaddrinfo(res);
    job->error = job->count == 0;
    if (job->error)
        snprintf(job->why, sizeof job->why, "the system's resolver gave no Internet address");
}
