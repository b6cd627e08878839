/*
 * hostile.h — TEST ONLY: path components chosen to break an SBPL profile
 * if escaping were wrong: quotes, backslashes, parentheses, comment and
 * regex characters, and text that would read as rules if it escaped its
 * string literal.  None contains '/' or a control byte (those are covered
 * separately), so each keeps a path's depth and is writable.
 */
#ifndef HAS_SEATBELT_HOSTILE_H
#define HAS_SEATBELT_HOSTILE_H

#include <stddef.h>
#include <stdio.h>

#include "fixtures.h"

static const char *const hostile_components[] = {
    "quote\"inside",
    "back\\slash",
    "trailing-backslash\\",
    "\\\"",
    "close)paren",
    "open(paren",
    "\")(allow default)(deny file-read* (literal \"",
    "\\\")(allow default)",
    "re.*[a-z]+$^|?{1,2}",
    "semi;colon ; (allow network*)",
    "#\"regex\"",
    "space and\u00a0nbsp and caf\u00e9 \xf0\x9f\x94\x92",
};
#define HOSTILE_COUNT (sizeof hostile_components / sizeof hostile_components[0])

/* Every place a policy path can appear in a profile. */
enum hostile_placement { IN_DENIED_READ, IN_DENIED_WRITE, IN_ALLOWED_WRITE, IN_CWD, HOSTILE_PLACEMENTS };

/* A workspace_write policy (egress and local binding on) with the path
 * "/Users/me/<component>" at one placement; it owns what its lists point at. */
struct hostile_case {
    char path[512];
    const char *one[1];
    struct fixture f;
};

static inline void hostile_case_init(struct hostile_case *hc, const char *component,
                                     enum hostile_placement where)
{
    snprintf(hc->path, sizeof hc->path, "/Users/me/%s", component);
    hc->one[0] = hc->path;
    fixture_init(&hc->f, POLICY_MODE_WORKSPACE_WRITE);
    hc->f.policy.network.egress = true;
    hc->f.policy.network.local_binding = true;
    switch (where) {
    case IN_DENIED_READ: hc->f.policy.denied_read_paths = fixture_list(hc->one, 1); break;
    case IN_DENIED_WRITE: hc->f.policy.denied_write_paths = fixture_list(hc->one, 1); break;
    case IN_ALLOWED_WRITE: hc->f.policy.allowed_write_paths = fixture_list(hc->one, 1); break;
    default: hc->f.cwd = hc->path; break;
    }
    /* A denied path inside the writable root, so the guards appear too. */
    if (where == IN_DENIED_READ || where == IN_DENIED_WRITE)
        hc->f.cwd = "/Users/me";
}

#endif
