/*
 * policy_paths.c — see policy_paths.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "policy_paths.h"

bool policy_path_at_or_beneath(const char *path, const char *root)
{
    if (strcmp(root, "/") == 0)
        return path[0] == '/';
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

bool policy_path_covered(const char *path, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (policy_path_at_or_beneath(path, list[i]))
            return true;
    return false;
}

/* A byte's rank in path order: the end first, then '/', then the rest. */
static int rank(unsigned char c)
{
    return c == '/' ? 1 : c ? c + 1 : 0;
}

static int compare(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (; *x && *x == *y; x++, y++)
        ;
    return rank(*x) - rank(*y);
}

int policy_path_compare(const void *a, const void *b)
{
    return compare(*(const char *const *)a, *(const char *const *)b);
}

size_t policy_paths_prune(const char **paths, size_t n)
{
    qsort(paths, n, sizeof *paths, policy_path_compare);
    size_t kept = 0;
    /* Sorted, an entry beneath another comes right after it or after
     * others beneath it, all dropped: the last kept entry is the one. */
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || !policy_path_at_or_beneath(paths[i], paths[kept - 1]))
            paths[kept++] = paths[i];
    return kept;
}

size_t policy_paths_beneath(const char *const *paths, size_t n, const char *root, size_t *count)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry not before `root` */
        size_t mid = lo + (hi - lo) / 2;
        if (compare(paths[mid], root) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && policy_path_at_or_beneath(paths[end], root))
        end++;
    *count = end - lo;
    return lo;
}
