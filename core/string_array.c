/*
 * string_array.c — see string_array.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "string_array.h"

/* Full at 0 and at every power of two from 4 on. */
static int grow_if_full(char ***items, size_t count)
{
    if (count != 0 && (count < 4 || (count & (count - 1)) != 0))
        return 0;
    size_t cap = count ? count * 2 : 4;
    if (cap < count || cap > (size_t)-1 / sizeof **items)
        return -1;
    char **grown = realloc(*items, cap * sizeof *grown);
    if (!grown)
        return -1;
    *items = grown;
    return 0;
}

int string_array_push(char ***items, size_t *count, const char *s)
{
    char *copy = strdup(s);
    if (!copy || grow_if_full(items, *count) != 0) {
        free(copy);
        return -1;
    }
    (*items)[(*count)++] = copy;
    return 0;
}

void string_array_free(char ***items, size_t *count)
{
    for (size_t i = 0; i < *count; i++)
        free((*items)[i]);
    free(*items);
    *items = NULL;
    *count = 0;
}
