/* seccomp_programs.h — the workload's seccomp programs, compiled from
 * seccomp_rules.c at build time (seccomp_gen.c writes seccomp_programs.c). */
#ifndef HAS_LINUX_NS_SECCOMP_PROGRAMS_H
#define HAS_LINUX_NS_SECCOMP_PROGRAMS_H

#include <linux/filter.h>

struct seccomp_program {
    const struct sock_filter *insns;
    unsigned short len;
};

extern const struct seccomp_program seccomp_program_refuse_local_binding;
extern const struct seccomp_program seccomp_program_allow_local_binding;

#endif
