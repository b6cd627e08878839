/*
 * seccomp_dump.c — developer tool: print the seccomp filter the workload
 * would get for a policy, as libseccomp's PFC (readable pseudo-code) or, with
 * --bpf, as the raw BPF program on stdout (the bytes the binary carries for
 * this architecture, see seccomp_gen.c).
 *
 *   happy-agent-supervisor-seccomp-dump [--bpf] [--net own|tcp-only|none]
 *                                       [--refuse-path-truncate] [--shared-host] POLICY-JSON
 *
 * The policy gives localBinding; the options the rest of the shape
 * (seccomp_programs.h), which the backend derives: linux-ns always has
 * "own"; landlock has tcp-only with a proxy, none with egress off, and
 * always brokers metadata.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "seccomp/seccomp_rules.h"

static const char usage[] = "usage: %s [--bpf] [--net own|tcp-only|none] [--refuse-path-truncate] "
                            "[--shared-host] POLICY-JSON\n";

int main(int argc, char **argv)
{
    static const char *const nets[SECCOMP_NET_COUNT] = {"own", "tcp-only", "none"};
    struct seccomp_shape shape = {.net = SECCOMP_NET_OWN};
    int bpf = 0, i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "--bpf") == 0)
            bpf = 1;
        else if (strcmp(argv[i], "--refuse-path-truncate") == 0)
            shape.refuse_path_truncate = true;
        else if (strcmp(argv[i], "--shared-host") == 0)
            shape.shared_host = true;
        else if (strcmp(argv[i], "--net") == 0 && i + 1 < argc - 1) {
            const char *name = argv[++i];
            int n = 0;
            while (n < SECCOMP_NET_COUNT && strcmp(nets[n], name) != 0)
                n++;
            if (n == SECCOMP_NET_COUNT) {
                fprintf(stderr, "--net: '%s' is not own, tcp-only or none\n", name);
                return 2;
            }
            shape.net = (enum seccomp_net)n;
        } else
            break;
    }
    if (i != argc - 1) {
        fprintf(stderr, usage, argv[0]);
        return 2;
    }
    const char *text = argv[i];
    struct policy_errors errors;
    struct policy *policy = policy_parse(text, strlen(text), &errors);
    if (!policy) {
        char *joined = policy_errors_join(&errors);
        fprintf(stderr, "invalid policy: %s\n", joined ? joined : "out of memory");
        return 2;
    }
    shape.local_binding = policy->network.local_binding;
    char err[512];
    scmp_filter_ctx f = seccomp_rules_build(&shape, SCMP_ARCH_NATIVE, err, sizeof err);
    if (!f) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int rc = bpf ? seccomp_export_bpf(f, STDOUT_FILENO) : seccomp_export_pfc(f, STDOUT_FILENO);
    seccomp_release(f);
    policy_free(policy);
    return rc == 0 ? 0 : 1;
}
