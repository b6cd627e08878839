/*
 * egress_sbpl.c — see egress_sbpl.h.
 *
 * The egress process needs: outbound TCP anywhere (the destination policy is
 * its own code's job, as on Linux), name resolution, and accept() on the
 * front-ends it bound on 127.0.0.1 before this profile existed.  It needs no
 * exec, no fork, no file writes, no other IPC.  The name-resolution
 * endpoints are the ones the Seatbelt backend grants a workload with plain
 * egress (backends/seatbelt/README.md): the mDNSResponder socket through
 * which libinfo's getaddrinfo() resolves, configd's DNS configuration, and
 * opendirectoryd's libinfo service for /etc/hosts-style lookups; plus the
 * reads libSystem and those lookups make.  Applied after everything that
 * opens a file or binds (front-ends, /dev/null for stdin/stdout), before
 * the resolver threads start.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "process/egress_sbpl.h"

#ifdef __APPLE__
#include "os/sandbox_spi.h" /* the libsandbox prototypes */
#endif

static const char profile[] =
    "(version 1)\n"
    "(deny default)\n"
    /* its own signals only (abort, thread signals) */
    "(allow signal (target self))\n"
    "(allow sysctl-read)\n"
    /* libSystem, the resolver's configuration files, the loop's /dev/null */
    "(allow file-read-metadata)\n"
    "(allow file-read* (subpath \"/usr/lib\") (subpath \"/System\") (subpath \"/private/etc\")\n"
    "    (subpath \"/private/var/run\") (literal \"/dev/null\") (literal \"/dev/urandom\"))\n"
    /* name resolution */
    "(allow network-outbound (literal \"/private/var/run/mDNSResponder\"))\n"
    "(allow mach-lookup (global-name \"com.apple.SystemConfiguration.DNSConfiguration\")\n"
    "    (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n"
    /* upstream connections anywhere; clients on its own loopback front-ends */
    "(allow network-outbound (remote ip \"*:*\"))\n"
    "(allow network-inbound (local ip \"localhost:*\"))\n";

const char *egress_sbpl_profile(void)
{
    return profile;
}

int egress_sbpl_apply(char *err, size_t errlen)
{
#ifdef __APPLE__
    char *why = NULL;
    if (sandbox_init(profile, SEATBELT_PROFILE_STRING, &why) != 0) {
        snprintf(err, errlen, "cannot put the egress process in its Seatbelt profile: %s",
                 why ? why : "no reason given");
        for (char *p = err; *p; p++)
            if ((unsigned char)*p < 0x20)
                *p = ' ';
        if (why)
            sandbox_free_error(why);
        return -1;
    }
#else
    (void)err;
    (void)errlen;
#endif
    return 0;
}
