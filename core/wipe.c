/*
 * wipe.c — see wipe.h.
 */
#include "config.h"

#include "wipe.h"

void wipe_secret(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}
