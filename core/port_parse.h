/*
 * port_parse.h — a TCP port as the supervisor's own inputs spell one: the
 * policy (allowedHosts, upstream proxy URLs), --connect.  The one copy of
 * that syntax; pure, no cJSON.  The egress proxy's HTTP parser reads the
 * wire's syntax instead (parse/http_parse.c).
 */
#ifndef HAS_PORT_PARSE_H
#define HAS_PORT_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* n bytes at p: 1..65535 in decimal, no sign, no leading 0, at most 5
 * digits.  False (port untouched) for anything else, "" included. */
bool port_parse(const char *p, size_t n, unsigned *port);

#endif
