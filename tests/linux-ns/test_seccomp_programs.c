/*
 * test_seccomp_programs.c — the seccomp programs the binary carries
 * (generated at build time, backends/linux-ns/seccomp_gen.c) are exactly
 * what libseccomp compiles from the table for this architecture now.
 *
 * Natively the generator used this libseccomp, so a difference means a
 * stale or mis-generated seccomp_programs.c.  In a cross build the
 * generator ran on the build machine with its own libseccomp, so this also
 * checks that cross-compiling the table gives the target's own program.
 * That the programs actually refuse what they should is tested from outside,
 * against the real binary (seccomp.sh, privileges.sh, process.sh).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cunit_run.h"
#include "seccomp_programs.h"
#include "seccomp_rules.h"

static void expect_libseccomp_program(const struct seccomp_program *shipped, bool local_binding)
{
    char err[512] = "";
    unsigned char *prog = NULL;
    size_t len = 0;
    scmp_filter_ctx f = seccomp_rules_build(local_binding, SCMP_ARCH_NATIVE, err, sizeof err);
    if (!f || seccomp_rules_export(f, &prog, &len, err, sizeof err) != 0)
        fprintf(stderr, "\n  libseccomp: %s\n", err);
    seccomp_release(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
    CU_ASSERT_EQUAL(len, shipped->len * sizeof shipped->insns[0]);
    if (len == shipped->len * sizeof shipped->insns[0])
        CU_ASSERT_EQUAL(memcmp(prog, shipped->insns, len), 0);
    free(prog);
}

static void test_refuse_local_binding(void)
{
    expect_libseccomp_program(&seccomp_program_refuse_local_binding, false);
}

static void test_allow_local_binding(void)
{
    expect_libseccomp_program(&seccomp_program_allow_local_binding, true);
}

/* The policy bit changes the program: bind and listen rules exist in one. */
static void test_programs_differ(void)
{
    const struct seccomp_program *a = &seccomp_program_refuse_local_binding;
    const struct seccomp_program *b = &seccomp_program_allow_local_binding;
    CU_ASSERT(a->len > b->len);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("seccomp programs built with the binary", NULL, NULL);
    CU_add_test(s, "localBinding false: libseccomp's program", test_refuse_local_binding);
    CU_add_test(s, "localBinding true: libseccomp's program", test_allow_local_binding);
    CU_add_test(s, "the two programs differ", test_programs_differ);
    return cunit_run_registry();
}
