/*
 * fuzz_policy.c — libFuzzer target for the policy parser: any byte string
 * must give either a policy or a bounded error list, never a crash, a leak
 * or undefined behaviour (built with --enable-fuzzers: clang, ASan, UBSan).
 * Seeds: tests/core/policy-corpus.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct policy_errors errors;
    struct policy *p = policy_parse((const char *)data, size, &errors);
    if (p) {
        /* A policy that parsed must satisfy the invariants backends rely on. */
        if (errors.count != 0)
            abort();
        for (size_t i = 0; i < p->denied_read_paths.count; i++)
            if (p->denied_read_paths.items[i][0] != '/')
                abort();
        for (size_t i = 0; i < p->network.allowed_hosts.count; i++)
            if (policy_host_entry_problem(p->network.allowed_hosts.items[i]))
                abort();
        for (size_t i = 0; i < p->network.allowed_internal_hosts.count; i++)
            if (policy_internal_host_entry_problem(p->network.allowed_internal_hosts.items[i]))
                abort();
        if (p->network.has_outgoing_proxy != (p->network.front_ends != 0))
            abort();
        policy_free(p);
    } else {
        if (errors.count == 0 || errors.count > 33)
            abort();
        char *joined = policy_errors_join(&errors);
        if (joined && strchr(joined, '\n'))
            abort(); /* the message must stay one line */
        free(joined);
        policy_errors_free(&errors);
    }
    return 0;
}
