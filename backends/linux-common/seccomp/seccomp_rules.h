/* seccomp_rules.h — the workload's syscall table compiled by libseccomp.
 * Used at build time (seccomp_gen.c writes the programs the binary loads),
 * by the developer tool that prints the filter (seccomp_dump.c) and by the
 * test that checks the programs in the binary against libseccomp. */
#ifndef HAS_LINUX_COMMON_SECCOMP_RULES_H
#define HAS_LINUX_COMMON_SECCOMP_RULES_H

#include <seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "seccomp/seccomp_programs.h"

/* Build (not load) the filter of `shape` for architecture `arch` (an
 * SCMP_ARCH_* token; SCMP_ARCH_NATIVE for the caller's own).  NULL with err
 * set on failure. */
scmp_filter_ctx seccomp_rules_build(const struct seccomp_shape *shape, uint32_t arch, char *err,
                                    size_t errlen);

/* seccomp_export_bpf() into memory: *len bytes at *prog (malloc'd, the
 * caller frees).  0, or -1 with err set. */
int seccomp_rules_export(scmp_filter_ctx f, unsigned char **prog, size_t *len, char *err, size_t errlen);

#endif
