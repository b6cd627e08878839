/*
 * sbpl_profile.h — the policy as one Seatbelt (SBPL) profile (backends/seatbelt/README.md).
 *
 * Portable C: built and unit-tested on every platform; only the call that
 * installs the profile (seatbelt_darwin.c) is Darwin-only.  The rules and
 * the reason for each are in backends/seatbelt/README.md.
 */
#ifndef HAS_SBPL_PROFILE_H
#define HAS_SBPL_PROFILE_H

#include <stddef.h>

#include "sbpl_rules.h"

enum sbpl_status {
    SBPL_OK,    /* *profile is the profile to install (free() it) */
    SBPL_NONE,  /* full_access: nothing to install, *profile is NULL */
    SBPL_ERROR, /* err says why; *profile is NULL */
};

enum sbpl_status sbpl_profile_build(const struct sbpl_input *in, char **profile, char *err, size_t errlen);
/* The profile for rules already collected (sbpl_rules_collect): a string
 * to free(), or NULL with err says why. */
char *sbpl_profile_write(const struct sbpl_rules *rules, char *err, size_t errlen);

/* Path of the mDNSResponder socket, through which macOS resolves names. */
#define SBPL_DNS_SOCKET "/private/var/run/mDNSResponder"

#endif
