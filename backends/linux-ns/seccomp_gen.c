/*
 * seccomp_gen.c — build-time tool: compile the workload's syscall table
 * (seccomp_rules.c) with libseccomp and write the BPF programs as C source
 * for the binary to load (seccomp_filter.c).  Android's minijail does the
 * same for the same reason: the table is fixed when the binary is built, so
 * compiling it in every launch only costs time.
 *
 *   happy-agent-supervisor-seccomp-gen ARCH > seccomp_programs.c
 *
 * ARCH is a libseccomp architecture name ("x86_64", "aarch64", ...) or
 * "native".  In a cross build this tool runs on the build machine (built
 * with CC_FOR_BUILD) and compiles for the target's architecture.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seccomp_rules.h"

static int emit_program(const char *name, bool local_binding, uint32_t arch)
{
    char err[512];
    unsigned char *prog;
    size_t len;
    scmp_filter_ctx f = seccomp_rules_build(local_binding, arch, err, sizeof err);
    if (!f || seccomp_rules_export(f, &prog, &len, err, sizeof err) != 0) {
        fprintf(stderr, "seccomp-gen: %s\n", err);
        seccomp_release(f);
        return -1;
    }
    seccomp_release(f);
    if (len % 8 != 0) {
        fprintf(stderr, "seccomp-gen: the exported program is %zu bytes, not whole instructions\n", len);
        free(prog);
        return -1;
    }
    /* struct sock_filter is {u16 code; u8 jt; u8 jf; u32 k} in the
     * generator's byte order; written as numbers, so the target compiler
     * lays them out in its own. */
    printf("static const struct sock_filter %s[] = {\n", name);
    for (size_t i = 0; i < len; i += 8) {
        unsigned short code;
        unsigned int k;
        memcpy(&code, prog + i, sizeof code);
        memcpy(&k, prog + i + 4, sizeof k);
        printf("    {0x%04x, %u, %u, 0x%08x},\n", code, prog[i + 2], prog[i + 3], k);
    }
    printf("};\n\n");
    free(prog);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s ARCH (a libseccomp architecture name, or native)\n", argv[0]);
        return 2;
    }
    uint32_t arch = strcmp(argv[1], "native") == 0 ? SCMP_ARCH_NATIVE : seccomp_arch_resolve_name(argv[1]);
    if (arch == 0 && strcmp(argv[1], "native") != 0) {
        fprintf(stderr, "seccomp-gen: libseccomp knows no architecture '%s'\n", argv[1]);
        return 2;
    }
    const struct scmp_version *v = seccomp_version();
    printf("/* Generated at build time by happy-agent-supervisor-seccomp-gen (%s, libseccomp %u.%u.%u)\n"
           " * from backends/linux-ns/seccomp_rules.c.  Do not edit. */\n"
           "#include \"seccomp_programs.h\"\n\n",
           argv[1], v->major, v->minor, v->micro);
    if (emit_program("refuse_local_binding", false, arch) != 0 ||
        emit_program("allow_local_binding", true, arch) != 0)
        return 1;
    printf("const struct seccomp_program seccomp_program_refuse_local_binding = {\n"
           "    refuse_local_binding, sizeof refuse_local_binding / sizeof refuse_local_binding[0]};\n"
           "const struct seccomp_program seccomp_program_allow_local_binding = {\n"
           "    allow_local_binding, sizeof allow_local_binding / sizeof allow_local_binding[0]};\n");
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
