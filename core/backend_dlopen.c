/*
 * backend_dlopen.c — developer builds: each backend is a module exporting one
 * descriptor, SANDBOX_BACKEND_SYMBOL.  The default directory is the build
 * tree's (HAS_BACKEND_MODULE_DIR); --backend-dir replaces it and
 * --backend-module adds single files, which are selected even when their
 * backend is on_request (backend.h, "Selection": how a developer layers a
 * second sandbox backend).  Modules are loaded after the
 * supervisor dropped LD_* from its environment and before it forks anything,
 * with RTLD_NOW so a missing symbol fails here, not halfway into the sandbox.
 */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_set.h"

static int load_module(struct backend_set *set, const char *path, bool requested, char *err, size_t errlen)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(err, errlen, "backend %s: cannot load: %s", path, dlerror());
        return -1;
    }
    const struct sandbox_backend *b = dlsym(handle, SANDBOX_BACKEND_SYMBOL);
    if (!b) {
        snprintf(err, errlen, "backend %s: no '%s' symbol: not a supervisor backend module", path,
                 SANDBOX_BACKEND_SYMBOL);
        dlclose(handle);
        return -1;
    }
    /* The handle is kept for the life of the process: hooks run until exec. */
    return backend_set_add(set, b, path, requested, err, errlen);
}

static int name_is_module(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".so") == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_directory(struct backend_set *set, const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "backend directory %s: %s; build the backends (make) or pass --backend-dir",
                 dir, strerror(errno));
        return -1;
    }
    char *names[BACKEND_SET_MAX + 1];
    size_t count = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!name_is_module(e->d_name))
            continue;
        if (count == BACKEND_SET_MAX + 1 || !(names[count] = strdup(e->d_name))) {
            snprintf(err, errlen, "backend directory %s: too many modules", dir);
            rc = -1;
            break;
        }
        count++;
    }
    closedir(d);
    /* A stable load order, so messages about clashes are reproducible; the
     * walk order itself comes from each descriptor's `order`. */
    qsort(names, count, sizeof names[0], compare_names);
    for (size_t i = 0; i < count; i++) {
        if (rc == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            rc = load_module(set, path, false, err, errlen);
        }
        free(names[i]);
    }
    return rc;
}

int backends_load(struct backend_set *set, const struct cli_options *opts, char *err, size_t errlen)
{
    const char *dir = opts->backend_dir ? opts->backend_dir : HAS_BACKEND_MODULE_DIR;
    if (load_directory(set, dir, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < opts->backend_module_count; i++)
        if (load_module(set, opts->backend_modules[i], true, err, errlen) != 0)
            return -1;
    return 0;
}
