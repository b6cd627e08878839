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

#include "seccomp/seccomp_rules.h"

/* The C name of shape s's program. */
static void program_name(const struct seccomp_shape *s, char *name, size_t size)
{
    static const char *const nets[SECCOMP_NET_COUNT] = {"own_net", "tcp_only", "no_net"};
    snprintf(name, size, "%s_%s%s%s", s->local_binding ? "bind" : "no_bind", nets[s->net],
             s->refuse_path_truncate ? "_no_truncate" : "", s->shared_host ? "_shared_host" : "");
}

static int emit_program(const struct seccomp_shape *shape, uint32_t arch)
{
    char err[512], name[64];
    unsigned char *prog;
    size_t len;
    program_name(shape, name, sizeof name);
    scmp_filter_ctx f = seccomp_rules_build(shape, arch, err, sizeof err);
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

#define SHAPE_COUNT (2 * SECCOMP_NET_COUNT * 2 * 2)

/* Every shape, in the order of seccomp_programs[][][]. */
static void all_shapes(struct seccomp_shape out[SHAPE_COUNT])
{
    size_t i = 0;
    for (int bind = 0; bind < 2; bind++)
        for (int net = 0; net < SECCOMP_NET_COUNT; net++)
            for (int truncate = 0; truncate < 2; truncate++)
                for (int meta = 0; meta < 2; meta++)
                    out[i++] = (struct seccomp_shape){bind, (enum seccomp_net)net, truncate, meta};
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
           " * from backends/linux-common/seccomp/seccomp_rules.c.  Do not edit. */\n"
           "#include \"seccomp/seccomp_programs.h\"\n\n",
           argv[1], v->major, v->minor, v->micro);
    struct seccomp_shape shapes[SHAPE_COUNT];
    all_shapes(shapes);
    for (size_t i = 0; i < SHAPE_COUNT; i++)
        if (emit_program(&shapes[i], arch) != 0)
            return 1;
    printf("const struct seccomp_program seccomp_programs[2][SECCOMP_NET_COUNT][2][2] = {\n");
    for (size_t i = 0; i < SHAPE_COUNT; i++) {
        char name[64];
        program_name(&shapes[i], name, sizeof name);
        printf("    [%d][%d][%d][%d] = {%s, sizeof %s / sizeof %s[0]},\n", shapes[i].local_binding,
               (int)shapes[i].net, shapes[i].refuse_path_truncate, shapes[i].shared_host, name, name, name);
    }
    printf("};\n");
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
