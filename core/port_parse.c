/*
 * port_parse.c — see port_parse.h.
 */
#include "config.h"

#include "port_parse.h"

bool port_parse(const char *p, size_t n, unsigned *port)
{
    if (n == 0 || n > 5 || p[0] == '0')
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (unsigned)(p[i] - '0');
    }
    if (v > 65535)
        return false;
    *port = v;
    return true;
}
