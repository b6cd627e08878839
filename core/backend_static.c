/*
 * backend_static.c — release builds: every backend configure selected is
 * linked in and listed here.  No dlopen, no module search path: what runs is
 * exactly what was built.  HAVE_BACKEND_<NAME> comes from the backend's own
 * local.mk (STATIC_BACKEND_DEFS), so a backend is listed iff it is linked.
 */
#include "config.h"

#include "backend_set.h"

#ifdef HAVE_BACKEND_LINUX_NS
extern const struct sandbox_backend linux_ns_backend;
#endif
#ifdef HAVE_BACKEND_LANDLOCK
extern const struct sandbox_backend landlock_backend;
#endif
#ifdef HAVE_BACKEND_SEATBELT
extern const struct sandbox_backend seatbelt_backend;
#endif
#ifdef HAVE_BACKEND_EGRESS_PROXY
extern const struct sandbox_backend egress_proxy_backend;
#endif

static const struct sandbox_backend *const static_backends[] = {
#ifdef HAVE_BACKEND_LINUX_NS
    &linux_ns_backend,
#endif
#ifdef HAVE_BACKEND_LANDLOCK
    &landlock_backend,
#endif
#ifdef HAVE_BACKEND_SEATBELT
    &seatbelt_backend,
#endif
#ifdef HAVE_BACKEND_EGRESS_PROXY
    &egress_proxy_backend,
#endif
    NULL,
};

int backends_load(struct backend_set *set, const struct cli_options *opts,
                  char *err, size_t errlen)
{
    (void)opts;
    for (size_t i = 0; static_backends[i]; i++)
        if (backend_set_add(set, static_backends[i], "built-in", false, err, errlen) != 0)
            return -1;
    return 0;
}
