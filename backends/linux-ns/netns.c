/*
 * netns.c — the new network namespace starts with `lo` down; bring it up so
 * the workload (and the egress backend's loopback front-ends) can use
 * 127.0.0.1 and ::1.  Nothing else exists in the namespace: no route out.
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linux_ns.h"

int netns_loopback_up(char *err, size_t errlen)
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        snprintf(err, errlen, "cannot open a socket to configure lo: %s", strerror(errno));
        return -1;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    int rc = ioctl(s, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        rc = ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    if (rc != 0)
        snprintf(err, errlen, "cannot bring up lo in the sandbox's network namespace: %s", strerror(errno));
    close(s);
    return rc;
}
