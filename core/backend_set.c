#include "config.h"

#include <stdio.h>
#include <string.h>

#include "backend_set.h"

int backend_set_add(struct backend_set *set, const struct sandbox_backend *b,
                    const char *origin, char *err, size_t errlen)
{
    if (b->abi != SANDBOX_BACKEND_ABI) {
        snprintf(err, errlen, "backend %s: built for backend ABI %u, this supervisor has ABI %u; rebuild the module",
                 origin, b->abi, SANDBOX_BACKEND_ABI);
        return -1;
    }
    if (!b->name || !*b->name) {
        snprintf(err, errlen, "backend %s: descriptor has no name", origin);
        return -1;
    }
    if (!b->prepare || !b->enter || !b->harden) {
        snprintf(err, errlen, "backend %s (%s): the %s hook is missing; use sandbox_hook_noop for a phase with nothing to do",
                 origin, b->name, !b->prepare ? "prepare" : !b->enter ? "enter" : "harden");
        return -1;
    }
    if (set->count == BACKEND_SET_MAX) {
        snprintf(err, errlen, "backend %s (%s): more than %d backends", origin, b->name, BACKEND_SET_MAX);
        return -1;
    }
    size_t at = set->count;
    for (size_t i = 0; i < set->count; i++) {
        const struct sandbox_backend *o = set->items[i];
        if (strcmp(o->name, b->name) == 0) {
            snprintf(err, errlen, "backend %s: a backend named '%s' is already loaded", origin, b->name);
            return -1;
        }
        if (o->order == b->order) {
            snprintf(err, errlen, "backend %s (%s): order %d is already taken by '%s'",
                     origin, b->name, b->order, o->name);
            return -1;
        }
        if (o->order > b->order && at == set->count)
            at = i;
    }
    memmove(&set->items[at + 1], &set->items[at], (set->count - at) * sizeof set->items[0]);
    set->items[at] = b;
    set->count++;
    return 0;
}

unsigned backend_set_enforces(const struct backend_set *set)
{
    unsigned bits = 0;
    for (size_t i = 0; i < set->count; i++)
        bits |= set->items[i]->enforces;
    return bits;
}
