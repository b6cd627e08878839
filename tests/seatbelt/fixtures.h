/*
 * fixtures.h — TEST ONLY: policies built directly as structs (so a test can
 * hand the generator what the policy parser would refuse, such as a control
 * byte in a path) and a fake canonicaliser that behaves like macOS on the
 * few paths the tests use.
 */
#ifndef HAS_SEATBELT_FIXTURES_H
#define HAS_SEATBELT_FIXTURES_H

#include <stddef.h>

#include "policy.h"
#include "sbpl_profile.h"

#define FIXTURE_CWD "/Users/me/project"

struct fixture {
    struct policy policy;
    const char *cwd;
    unsigned short ports[4];
    size_t port_count;
    const char *terminals[3];
    size_t terminal_count;
};

/* mode, egress false, localBinding false, empty lists, cwd FIXTURE_CWD. */
void fixture_init(struct fixture *f, enum policy_mode mode);

/* A string_list over a static or caller-owned array (never freed).
 * FIXTURE_LIST's array lives as long as the enclosing block: use it at
 * function level, never inside an if or a loop body. */
struct string_list fixture_list(const char *const *items, size_t count);
#define FIXTURE_LIST(...)                            \
    fixture_list((const char *const[]){__VA_ARGS__}, \
                 sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/*
 * macOS-like canonicaliser: /var, /tmp and /etc lead into /private, and
 * /Users/me/project/link is a symlink to /Users/me/vault.  Everything else
 * is its own canonical form.  A path containing "UNRESOLVABLE" fails (EACCES).
 */
int fixture_canon(const char *path, char *out, size_t outlen, void *arg);

/* sbpl_profile_build() on the fixture with fixture_canon. */
enum sbpl_status fixture_build(const struct fixture *f, char **profile, char *err, size_t errlen);

#endif
