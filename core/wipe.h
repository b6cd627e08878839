/*
 * wipe.h — overwriting what held a secret before it is freed or reused, in
 * a way the compiler may not drop as a dead store.  The one copy: the
 * policy parser (an upstream proxy's password), the proxy client, and
 * sandbox_wipe() (backend.h) for the backends.
 */
#ifndef HAS_WIPE_H
#define HAS_WIPE_H

#include <stddef.h>

void wipe_secret(void *p, size_t n);

#endif
