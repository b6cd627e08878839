/*
 * sbpl_pathset.h — an ordered set of paths (insertion order kept, duplicates
 * dropped), so the generated profile is deterministic and each path appears
 * once per rule.
 */
#ifndef HAS_SBPL_PATHSET_H
#define HAS_SBPL_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

struct sbpl_pathset {
    char **items; /* a string_array (core/string_array.h) */
    size_t count;
};

/* Add a copy of `path` unless already present.  Returns 0, or -1 (ENOMEM). */
int sbpl_pathset_add(struct sbpl_pathset *set, const char *path);
bool sbpl_pathset_contains(const struct sbpl_pathset *set, const char *path);
void sbpl_pathset_free(struct sbpl_pathset *set);

#endif
