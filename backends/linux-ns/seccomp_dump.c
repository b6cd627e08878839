/*
 * seccomp_dump.c — developer tool: print the seccomp filter the workload
 * would get for a policy, as libseccomp's PFC (readable pseudo-code) or, with
 * --bpf, as the raw BPF program on stdout (the bytes the binary carries for
 * this architecture, see seccomp_gen.c).
 *
 *   happy-agent-supervisor-seccomp-dump [--bpf] POLICY-JSON
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "seccomp_rules.h"

int main(int argc, char **argv)
{
    int bpf = argc == 3 && strcmp(argv[1], "--bpf") == 0;
    if (argc != 2 + bpf) {
        fprintf(stderr, "usage: %s [--bpf] POLICY-JSON\n", argv[0]);
        return 2;
    }
    const char *text = argv[1 + bpf];
    struct policy_errors errors;
    struct policy *policy = policy_parse(text, strlen(text), &errors);
    if (!policy) {
        char *joined = policy_errors_join(&errors);
        fprintf(stderr, "invalid policy: %s\n", joined ? joined : "out of memory");
        return 2;
    }
    char err[512];
    scmp_filter_ctx f = seccomp_rules_build(policy->network.local_binding, SCMP_ARCH_NATIVE, err, sizeof err);
    if (!f) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int rc = bpf ? seccomp_export_bpf(f, STDOUT_FILENO) : seccomp_export_pfc(f, STDOUT_FILENO);
    seccomp_release(f);
    policy_free(policy);
    return rc == 0 ? 0 : 1;
}
