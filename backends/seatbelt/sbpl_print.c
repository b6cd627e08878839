/*
 * sbpl_print.c — developer tool, not installed: print the Seatbelt profile
 * the backend would install for a policy, from the current directory, as if
 * started without a terminal.  On a Mac:
 *
 *     happy-agent-supervisor-sbpl-print "$POLICY" >p.sb
 *     sandbox-exec -f p.sb /bin/sh -c '...'
 *
 * lets a profile change be tried without rebuilding the supervisor.
 * Usage: happy-agent-supervisor-sbpl-print POLICY-JSON [PROXY-PORT...]
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "policy.h"
#include "sbpl_canon.h"
#include "sbpl_profile.h"

static void usage_fail(const char *why)
{
    fprintf(stderr,
            "happy-agent-supervisor-sbpl-print: %s\n"
            "usage: happy-agent-supervisor-sbpl-print POLICY-JSON [PROXY-PORT...]\n",
            why);
    exit(HAS_EXIT_FAILURE);
}

static size_t parse_ports(int argc, char **argv, unsigned short *ports, size_t max)
{
    size_t n = 0;
    for (int i = 2; i < argc; i++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(argv[i], &end, 10);
        if (errno || *end || v == 0 || v > 65535 || n == max)
            usage_fail("a proxy port is 1-65535, at most 4 of them");
        ports[n++] = (unsigned short)v;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage_fail("no policy");
    struct policy_errors errors;
    struct policy *policy = policy_parse(argv[1], strlen(argv[1]), &errors);
    if (!policy) {
        char *joined = policy_errors_join(&errors);
        fprintf(stderr, "happy-agent-supervisor-sbpl-print: invalid policy: %s\n",
                joined ? joined : "out of memory");
        return HAS_EXIT_FAILURE;
    }
    unsigned short ports[4];
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        usage_fail("cannot determine the working directory");
    struct sbpl_input in = {
        .policy = policy,
        .cwd = cwd,
        .proxy_ports = ports,
        .proxy_port_count = parse_ports(argc, argv, ports, 4),
        .canon = sbpl_canonicalize,
    };
    char *profile = NULL;
    char err[256];
    enum sbpl_status st = sbpl_profile_build(&in, &profile, err, sizeof err);
    policy_free(policy);
    if (st == SBPL_NONE) {
        fputs("; full_access: no profile is installed\n", stdout);
        return 0;
    }
    if (st != SBPL_OK) {
        fprintf(stderr, "happy-agent-supervisor-sbpl-print: %s\n", err);
        return HAS_EXIT_FAILURE;
    }
    fputs(profile, stdout);
    free(profile);
    return 0;
}
