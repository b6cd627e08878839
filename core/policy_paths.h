/*
 * policy_paths.h — paths in the normal form policy_parse() gives them
 * (policy.h: absolute, no "", "." or ".." component, no trailing slash but
 * "/" itself) compared as paths, not as strings.  Every backend orders,
 * prunes and contains its paths with these, so "/" is above every path and
 * "/ab" is not beneath "/a" in all of them alike.
 *
 * Pure functions of their arguments; none reads the filesystem.
 */
#ifndef HAS_POLICY_PATHS_H
#define HAS_POLICY_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* `path` is `root` or lies beneath it, component-wise: "/a/b" is beneath
 * "/a", "/ab" is not; every absolute path is beneath "/". */
bool policy_path_at_or_beneath(const char *path, const char *root);

/* Some entry of `list` (NULL-terminated) is `path` or above it. */
bool policy_path_covered(const char *path, const char *const *list);

/* Path order, a qsort(3) comparator of two `const char *`: bytes compared
 * with '/' before every other, so each path is followed directly by
 * everything beneath it ("/a", "/a/b", "/a-b"). */
int policy_path_compare(const void *a, const void *b);

/* Sort paths[0..n) in path order and keep only the outermost: duplicates
 * and entries beneath another entry are dropped.  Returns how many are
 * kept, at the front of `paths` (the strings are not copied). */
size_t policy_paths_prune(const char **paths, size_t n);

/* In paths[0..n), sorted in path order: the index of the first entry at or
 * beneath `root`; *count receives how many follow it (all of them, as one
 * run: the order puts them together). */
size_t policy_paths_beneath(const char *const *paths, size_t n, const char *root, size_t *count);

#endif
