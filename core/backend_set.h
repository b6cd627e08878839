/*
 * backend_set.h — the ordered list of backends the core walks.
 *
 * Release builds fill it from the static table (backend_static.c);
 * developer builds from dlopen()ed modules (backend_dlopen.c).  Either way
 * backend_set_add() checks each descriptor the same way, and the set ends up
 * sorted by `order`.
 */
#ifndef HAS_BACKEND_SET_H
#define HAS_BACKEND_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "cli.h"

/* One state slot per backend in the ctx: the same bound. */
#define BACKEND_SET_MAX SANDBOX_MAX_BACKENDS

struct backend_set {
    const struct sandbox_backend *items[BACKEND_SET_MAX];
    /* Loaded because the caller named its module (--backend-module, in
     * developer builds): selected even when `on_request`. */
    bool requested[BACKEND_SET_MAX];
    size_t count;
    /* The boundary backends of the build that backend_set_select() left
     * out: named as the way out when the selected one cannot start here. */
    const struct sandbox_backend *unselected[BACKEND_SET_MAX];
    size_t unselected_count;
};

/*
 * Check `b` (its ABI block first, then a name, only known bits, all four
 * hooks (explain included), unique name and order, at most one default
 * sandbox backend, at most BACKEND_SET_MAX) and insert it in order.  `origin` names where it came from for messages
 * (a module path, or "built-in"); `requested`: the caller named it.
 * Returns 0, or -1 with the reason in err.
 */
int backend_set_add(struct backend_set *set, const struct sandbox_backend *b, const char *origin,
                    bool requested, char *err, size_t errlen);

/* Load the build's backends (and, in developer builds, what the options
 * name).  Returns 0, or -1 with the reason in err. */
int backends_load(struct backend_set *set, const struct cli_options *opts, char *err, size_t errlen);

/*
 * Keep the boundary backend the caller named (`name`; NULL: the default
 * one, and those whose module the caller named) and every companion
 * (backend.h, "Selection").  Returns 0, or -1 with the reason in err.
 */
int backend_set_select(struct backend_set *set, const char *name, char *err, size_t errlen);

/* An unselected boundary backend of the build that enforces `bit` (enum
 * sandbox_enforcement), or NULL: the way out a refusal can name. */
const struct sandbox_backend *backend_set_unselected_enforcing(const struct backend_set *set, unsigned bit);

/* For --help: one line per sandbox backend of the set, each starting with
 * `indent`: "NAME (the default): summary". */
void backend_set_describe(const struct backend_set *set, const char *indent, char *out, size_t size);

/* Every need of each backend with work under a policy requiring
 * `required` (enum sandbox_enforcement bits) is offered by another.
 * Returns 0, or -1 with the backend and the missing offer in err. */
int backend_set_check_needs(const struct backend_set *set, unsigned required, char *err, size_t errlen);

/* What the backends of the set other than items[i] offer. */
unsigned backend_set_others_offer(const struct backend_set *set, size_t i);
/* Whether a backend after item i has work under `required` (enum
 * sandbox_enforcement bits) and declares enter_needs_view. */
bool backend_set_later_enter_needs_view(const struct backend_set *set, size_t i, unsigned required);

/* Union of every backend's `enforces` bits. */
unsigned backend_set_enforces(const struct backend_set *set);

#endif
