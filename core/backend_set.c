#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "backend_set.h"

/* The descriptor is read no further unless its ABI block is this core's. */
_Static_assert(offsetof(struct sandbox_backend, abi) == 0, "the ABI block comes first");

static int check_abi(const struct sandbox_abi *m, const char *origin, char *err, size_t errlen)
{
    const struct sandbox_abi core = SANDBOX_BACKEND_ABI;
    if (m->magic != core.magic) {
        snprintf(err, errlen,
                 "backend %s: no backend ABI block (magic %#lx, this supervisor's is %#lx): "
                 "built against an older backend.h; rebuild the module",
                 origin, m->magic, core.magic);
        return -1;
    }
    if (m->signature != core.signature || m->ctx_size != core.ctx_size ||
        m->policy_size != core.policy_size || m->backend_size != core.backend_size) {
        snprintf(
            err, errlen,
            "backend %s: built for backend ABI signature %lu (ctx %lu, policy %lu, "
            "descriptor %lu bytes), this supervisor has %lu (ctx %lu, policy %lu, descriptor %lu bytes); "
            "rebuild the module",
            origin, m->signature, m->ctx_size, m->policy_size, m->backend_size, core.signature, core.ctx_size,
            core.policy_size, core.backend_size);
        return -1;
    }
    return 0;
}

/* Every bit a descriptor sets is one this core knows. */
static int check_bits(const struct sandbox_backend *b, const char *origin, char *err, size_t errlen)
{
    const struct {
        const char *field;
        unsigned bits, known;
    } f[] = {
        {"enforces", b->enforces, SANDBOX_ENFORCES_ALL},
        {"offers", b->offers, SANDBOX_OFFERS_ALL},
        {"needs", b->needs, SANDBOX_OFFERS_ALL},
        {"needs_one_of", b->needs_one_of, SANDBOX_OFFERS_ALL},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].bits & ~f[i].known) {
            snprintf(err, errlen, "backend %s (%s): unknown %s bits %#x (this supervisor knows %#x)", origin,
                     b->name, f[i].field, f[i].bits & ~f[i].known, f[i].known);
            return -1;
        }
    return 0;
}

static bool is_boundary(const struct sandbox_backend *b)
{
    return b->enforces & SANDBOX_ENFORCES_FILESYSTEM;
}

static bool is_default_boundary(const struct sandbox_backend *b)
{
    return is_boundary(b) && !b->on_request;
}

int backend_set_add(struct backend_set *set, const struct sandbox_backend *b, const char *origin,
                    bool requested, char *err, size_t errlen)
{
    if (check_abi(&b->abi, origin, err, errlen) != 0)
        return -1;
    if (!b->name || !*b->name) {
        snprintf(err, errlen, "backend %s: descriptor has no name", origin);
        return -1;
    }
    if (check_bits(b, origin, err, errlen) != 0)
        return -1;
    if (!b->prepare || !b->enter || !b->harden) {
        snprintf(
            err, errlen,
            "backend %s (%s): the %s hook is missing; use sandbox_hook_noop for a phase with nothing to do",
            origin, b->name,
            !b->prepare ? "prepare"
            : !b->enter ? "enter"
                        : "harden");
        return -1;
    }
    if (!b->explain) {
        snprintf(err, errlen,
                 "backend %s (%s): the explain hook is missing; use sandbox_explain_noop if it has "
                 "nothing to say",
                 origin, b->name);
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
            snprintf(err, errlen, "backend %s (%s): order %d is already taken by '%s'", origin, b->name,
                     b->order, o->name);
            return -1;
        }
        if (is_default_boundary(o) && is_default_boundary(b)) {
            snprintf(err, errlen,
                     "backend %s (%s): a second default sandbox backend ('%s' is one); "
                     "mark all but one on_request",
                     origin, b->name, o->name);
            return -1;
        }
        if (o->order > b->order && at == set->count)
            at = i;
    }
    memmove(&set->items[at + 1], &set->items[at], (set->count - at) * sizeof set->items[0]);
    memmove(&set->requested[at + 1], &set->requested[at], (set->count - at) * sizeof set->requested[0]);
    set->items[at] = b;
    set->requested[at] = requested;
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

/* "a, b, c": the boundary backends of the set, for messages. */
static void boundary_names(const struct backend_set *set, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < set->count && at < size; i++)
        if (is_boundary(set->items[i])) {
            int n = snprintf(out + at, size - at, "%s%s", at ? ", " : "", set->items[i]->name);
            at += n > 0 ? (size_t)n : 0;
        }
}

void backend_set_describe(const struct backend_set *set, const char *indent, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < set->count && at < size; i++) {
        const struct sandbox_backend *b = set->items[i];
        if (!is_boundary(b))
            continue;
        int n = snprintf(out + at, size - at, "%s%s%s%s%s\n", indent, b->name,
                         b->on_request ? "" : " (the default)", b->summary ? ": " : "",
                         b->summary ? b->summary : "");
        at += n > 0 ? (size_t)n : 0;
    }
}

int backend_set_select(struct backend_set *set, const char *name, char *err, size_t errlen)
{
    bool found = false;
    for (size_t j = 0; name && j < set->count && !found; j++)
        found = is_boundary(set->items[j]) && strcmp(set->items[j]->name, name) == 0;
    if (name && !found) {
        char known[256];
        boundary_names(set, known, sizeof known);
        snprintf(err, errlen, "--sandbox %s: no such sandbox backend in this build (it has: %s)", name,
                 known[0] ? known : "none");
        return -1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < set->count; i++) {
        const struct sandbox_backend *b = set->items[i];
        bool keep =
            !is_boundary(b) || (name ? strcmp(b->name, name) == 0 : !b->on_request || set->requested[i]);
        if (keep) {
            set->requested[kept] = set->requested[i];
            set->items[kept++] = b;
        } else
            set->unselected[set->unselected_count++] = b;
    }
    set->count = kept;
    return 0;
}

unsigned backend_set_others_offer(const struct backend_set *set, size_t i)
{
    unsigned bits = 0;
    for (size_t j = 0; j < set->count; j++)
        if (j != i)
            bits |= set->items[j]->offers;
    return bits;
}

bool backend_set_later_enter_needs_view(const struct backend_set *set, size_t i, unsigned required)
{
    for (size_t j = i + 1; j < set->count; j++)
        if (set->items[j]->enter_needs_view && (set->items[j]->enforces & required))
            return true;
    return false;
}

static const char *offer_name(unsigned bit)
{
    switch (bit) {
    case SANDBOX_OFFER_PRIVATE_NETWORK: return "a private network namespace";
    case SANDBOX_OFFER_LOOPBACK_GRANTS: return "loopback port grants";
    case SANDBOX_OFFER_SUPERVISED: return "a supervisor that outlives the workload";
    case SANDBOX_OFFER_SYSCALL_FILTER: return "the workload's syscall filter";
    default: return "an unknown offer";
    }
}

/* "a private network namespace or loopback port grants" */
static void offers_text(unsigned bits, const char *sep, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (unsigned bit = 1; bit && at < size; bit <<= 1)
        if (bits & bit) {
            int n = snprintf(out + at, size - at, "%s%s", at ? sep : "", offer_name(bit));
            at += n > 0 ? (size_t)n : 0;
        }
}

int backend_set_check_needs(const struct backend_set *set, unsigned required, char *err, size_t errlen)
{
    for (size_t i = 0; i < set->count; i++) {
        const struct sandbox_backend *b = set->items[i];
        if (!(b->enforces & required))
            continue; /* no work under this policy */
        unsigned others = backend_set_others_offer(set, i);
        unsigned missing = b->needs & ~others;
        char what[160], have[160];
        if (missing)
            offers_text(missing & -missing, "", what, sizeof what);
        else if (b->needs_one_of && !(b->needs_one_of & others))
            offers_text(b->needs_one_of, " or ", what, sizeof what);
        else
            continue;
        boundary_names(set, have, sizeof have);
        snprintf(err, errlen,
                 "%s needs %s, which no other backend of this set (sandbox: %s) offers; "
                 "this policy cannot be enforced with this combination",
                 b->name, what, have[0] ? have : "none");
        return -1;
    }
    return 0;
}

const struct sandbox_backend *backend_set_unselected_enforcing(const struct backend_set *set, unsigned bit)
{
    for (size_t i = 0; i < set->unselected_count; i++)
        if (set->unselected[i]->enforces & bit)
            return set->unselected[i];
    return NULL;
}
