/*
 * test_egress_sbpl.c — the egress process's own Seatbelt profile (macOS),
 * checked as text on every platform: well formed, deny by default, and
 * nothing allowed beyond the short list the egress process needs (no exec,
 * no fork, no file writes, inbound only on loopback).  Whether macOS
 * accepts it and resolution works under it is not verifiable here.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <string.h>

#include "process/egress_sbpl.h"
#include "../cunit_run.h"

/* Parentheses balance outside string literals; literals are closed and
 * contain no backslash or newline (nothing needed escaping). */
static void test_well_formed(void)
{
    const char *p = egress_sbpl_profile();
    int depth = 0;
    int in_string = 0;
    for (; *p; p++) {
        if (in_string) {
            CU_ASSERT(*p != '\\' && *p != '\n');
            if (*p == '"')
                in_string = 0;
            continue;
        }
        if (*p == '"')
            in_string = 1;
        else if (*p == '(')
            depth++;
        else if (*p == ')')
            CU_ASSERT(--depth >= 0);
    }
    CU_ASSERT_EQUAL(depth, 0);
    CU_ASSERT_EQUAL(in_string, 0);
    CU_ASSERT(strncmp(egress_sbpl_profile(), "(version 1)\n(deny default)\n", 27) == 0);
}

/* Every top-level form is an (allow OP ...) with OP from the list. */
static void test_only_needed_operations(void)
{
    static const char *const allowed[] = {
        "signal",           "sysctl-read", "file-read-metadata", "file-read*",
        "network-outbound", "mach-lookup", "network-inbound",
    };
    const char *p = egress_sbpl_profile();
    int depth = 0, forms = 0;
    for (; *p; p++) {
        if (*p == '"') {
            p = strchr(p + 1, '"');
            CU_ASSERT_FATAL(p != NULL);
            continue;
        }
        if (*p == ')')
            depth--;
        if (*p != '(')
            continue;
        if (depth++ != 0)
            continue;
        forms++;
        if (strncmp(p, "(version 1)", 11) == 0 || strncmp(p, "(deny default)", 14) == 0)
            continue;
        CU_ASSERT_FATAL(strncmp(p, "(allow ", 7) == 0);
        const char *op = p + 7;
        size_t len = strcspn(op, " )\n");
        int known = 0;
        for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
            known |= strlen(allowed[i]) == len && strncmp(op, allowed[i], len) == 0;
        CU_ASSERT(known);
        if (!known)
            fprintf(stderr, "unexpected operation: %.*s\n", (int)len, op);
    }
    CU_ASSERT(forms >= 8);
}

static void test_nothing_dangerous(void)
{
    const char *p = egress_sbpl_profile();
    static const char *const never[] = {
        "process-exec", "process-fork", "file-write",   "allow default",
        "network-bind", "iokit",        "(remote unix", "ipc-posix",
    };
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        CU_ASSERT(strstr(p, never[i]) == NULL);
    /* inbound only on loopback; the only Unix socket is mDNSResponder's */
    CU_ASSERT(strstr(p, "(allow network-inbound (local ip \"localhost:*\"))") != NULL);
    CU_ASSERT(strstr(p, "(literal \"/private/var/run/mDNSResponder\")") != NULL);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("egress process Seatbelt profile (text)", NULL, NULL);
    CU_add_test(s, "well formed, deny by default", test_well_formed);
    CU_add_test(s, "only the operations the egress process needs", test_only_needed_operations);
    CU_add_test(s, "no exec, fork, writes, bind; inbound on loopback only", test_nothing_dangerous);
    return cunit_run_registry();
}
