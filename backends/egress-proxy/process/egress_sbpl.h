/*
 * egress_sbpl.h — macOS: the Seatbelt profile the egress process puts itself
 * in, in place of Linux's seccomp filter.  The text is plain C and is
 * checked by a unit test on every platform; only applying it is Darwin-only.
 * NOT VERIFIED ON A MAC (see README.md, "What is unverified").
 */
#ifndef HAS_EGRESS_SBPL_H
#define HAS_EGRESS_SBPL_H

#include <stddef.h>

/* The profile: a constant, with nothing from the policy or the caller in it
 * (so there is nothing to escape). */
const char *egress_sbpl_profile(void);

/* Darwin: sandbox_init() the profile; 0, or -1 with a message.  Elsewhere:
 * nothing to do, 0. */
int egress_sbpl_apply(char *err, size_t errlen);

#endif
