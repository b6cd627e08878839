/*
 * sbpl_canon.h — turning a policy path into the path Seatbelt will see.
 *
 * Seatbelt matches the path the kernel resolved, with every symlink
 * followed: on macOS /var, /tmp and /etc are symlinks into /private, so a
 * rule on "/var/x" would never match anything.  The profile generator takes
 * the canonicaliser as a callback so the unit tests can substitute a fake
 * one (e.g. "/var" -> "/private/var" on Linux).
 */
#ifndef HAS_SBPL_CANON_H
#define HAS_SBPL_CANON_H

#include <stddef.h>

/*
 * Write the canonical form of the absolute `path` to `out` (NUL-terminated).
 * Return 0, or -1 with errno set.
 */
typedef int (*sbpl_canon_fn)(const char *path, char *out, size_t outlen, void *arg);

/*
 * The real canonicaliser: realpath(3) of the longest prefix of `path` that
 * resolves, followed by the rest of `path` kept literal.  So an existing
 * path is fully resolved, and a path that does not exist yet (a denied file
 * the workload must not create) keeps its literal tail under its resolved
 * parent.  If the first missing component is a dangling symlink it is
 * followed (creating that name would create the link's target), up to 16
 * links.  A prefix stops resolving at ENOENT, ENOTDIR, EACCES or ELOOP —
 * the workload, running as the same user, could not go through it either.
 * Any other error fails.  `arg` is unused.
 */
int sbpl_canonicalize(const char *path, char *out, size_t outlen, void *arg);

#endif
