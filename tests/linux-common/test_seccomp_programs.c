/*
 * test_seccomp_programs.c — the seccomp programs the binary carries
 * (generated at build time, backends/linux-common/seccomp/seccomp_gen.c)
 * are exactly what libseccomp compiles from the table for this
 * architecture now.
 *
 * Natively the generator used this libseccomp, so a difference means a
 * stale or mis-generated seccomp_programs.c.  In a cross build the
 * generator ran on the build machine with its own libseccomp, so this also
 * checks that cross-compiling the table gives the target's own program.
 * That the programs actually refuse what they should is tested from outside,
 * against the real binary (tests/linux-ns/seccomp.sh, privileges.sh, process.sh;
 * tests/linux-ns/families.sh for the socket families).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cunit_run.h"
#include "seccomp/seccomp_programs.h"
#include "seccomp/seccomp_rules.h"

static void expect_libseccomp_program(const struct seccomp_shape *shape)
{
    char err[512] = "";
    unsigned char *prog = NULL;
    size_t len = 0;
    const struct seccomp_program *shipped = seccomp_program_for(shape);
    scmp_filter_ctx f = seccomp_rules_build(shape, SCMP_ARCH_NATIVE, err, sizeof err);
    if (!f || seccomp_rules_export(f, &prog, &len, err, sizeof err) != 0)
        fprintf(stderr, "\n  libseccomp: %s\n", err);
    seccomp_release(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
    CU_ASSERT_EQUAL(len, shipped->len * sizeof shipped->insns[0]);
    if (len == shipped->len * sizeof shipped->insns[0])
        CU_ASSERT_EQUAL(memcmp(prog, shipped->insns, len), 0);
    free(prog);
}

/* Every shape the binary carries is libseccomp's program for it. */
static void test_every_shape(void)
{
    for (int bind = 0; bind < 2; bind++)
        for (int net = 0; net < SECCOMP_NET_COUNT; net++)
            for (int truncate = 0; truncate < 2; truncate++)
                for (int meta = 0; meta < 2; meta++) {
                    struct seccomp_shape shape = {bind, (enum seccomp_net)net, truncate, meta};
                    expect_libseccomp_program(&shape);
                }
}

static unsigned short len_of(bool bind, enum seccomp_net net, bool truncate, bool meta)
{
    struct seccomp_shape s = {bind, net, truncate, meta};
    return seccomp_program_for(&s)->len;
}

/* Each dimension of the shape changes the program: each adds rules. */
static void test_shapes_differ(void)
{
    CU_ASSERT(len_of(false, SECCOMP_NET_OWN, false, false) > len_of(true, SECCOMP_NET_OWN, false, false));
    CU_ASSERT(len_of(true, SECCOMP_NET_TCP_ONLY, false, false) > len_of(true, SECCOMP_NET_OWN, false, false));
    CU_ASSERT(len_of(true, SECCOMP_NET_NONE, false, false) > len_of(true, SECCOMP_NET_OWN, false, false));
    CU_ASSERT(len_of(true, SECCOMP_NET_TCP_ONLY, false, false) !=
              len_of(true, SECCOMP_NET_NONE, false, false));
    CU_ASSERT(len_of(true, SECCOMP_NET_OWN, true, false) > len_of(true, SECCOMP_NET_OWN, false, false));
    CU_ASSERT(len_of(true, SECCOMP_NET_OWN, false, true) > len_of(true, SECCOMP_NET_OWN, false, false));
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("seccomp programs built with the binary", NULL, NULL);
    CU_add_test(s, "every shape: libseccomp's program", test_every_shape);
    CU_add_test(s, "each dimension of the shape adds its rules", test_shapes_differ);
    return cunit_run_registry();
}
