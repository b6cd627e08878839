/*
 * sbpl_pathset.c — ordered path set (see sbpl_pathset.h).  Sets are small
 * (a policy's path lists), so a linear search is the simple right choice.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sbpl_pathset.h"

bool sbpl_pathset_contains(const struct sbpl_pathset *set, const char *path)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->items[i], path) == 0)
            return true;
    return false;
}

int sbpl_pathset_add(struct sbpl_pathset *set, const char *path)
{
    if (sbpl_pathset_contains(set, path))
        return 0;
    if (set->count == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 8;
        char **grown = realloc(set->items, cap * sizeof *grown);
        if (!grown)
            return -1;
        set->items = grown;
        set->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    set->items[set->count++] = copy;
    return 0;
}

void sbpl_pathset_free(struct sbpl_pathset *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->items[i]);
    free(set->items);
    memset(set, 0, sizeof *set);
}
