/*
 * sbpl_pathset.c — ordered path set (see sbpl_pathset.h).  Sets are small
 * (a policy's path lists), so a linear search is the simple right choice.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sbpl_pathset.h"
#include "string_array.h"

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
    return string_array_push(&set->items, &set->count, path);
}

void sbpl_pathset_free(struct sbpl_pathset *set)
{
    string_array_free(&set->items, &set->count);
}
