/*
 * explain_query.c — see explain_query.h.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "explain_query.h"
#include "policy.h"

const char *explain_query_option(enum sandbox_query_kind kind)
{
    switch (kind) {
    case SANDBOX_QUERY_READ: return "--read";
    case SANDBOX_QUERY_WRITE: return "--write";
    case SANDBOX_QUERY_CONNECT: return "--connect-to";
    default: return "--unix-socket";
    }
}

const char *explain_query_word(enum sandbox_query_kind kind)
{
    switch (kind) {
    case SANDBOX_QUERY_READ: return "read";
    case SANDBOX_QUERY_WRITE: return "write";
    case SANDBOX_QUERY_CONNECT: return "connect";
    default: return "unix-socket";
    }
}

/* Append the components of `p` to buf (holding `*n` bytes). */
static const char *append_components(const char *p, char *buf, size_t size, size_t *n)
{
    while (*p) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len == 0 || (len == 1 && p[0] == '.')) {
            p += len;
            continue;
        }
        if (len == 2 && p[0] == '.' && p[1] == '.')
            return "'..' is not accepted (what it names depends on symbolic links); give the path without it";
        if (*n + 1 + len + 1 > size)
            return "the path is too long";
        buf[(*n)++] = '/';
        memcpy(buf + *n, p, len);
        *n += len;
        p += len;
    }
    buf[*n] = '\0';
    return NULL;
}

static const char *parse_path(const char *arg, const char *cwd, char *buf, size_t size)
{
    size_t n = 0;
    const char *problem = NULL;
    if (!*arg)
        return "the path is empty";
    if (size < 2)
        return "the path is too long";
    if (arg[0] != '/')
        problem = append_components(cwd, buf, size, &n);
    if (!problem)
        problem = append_components(arg, buf, size, &n);
    if (!problem && n == 0)
        strcpy(buf, "/");
    return problem;
}

static const char *parse_destination(const char *arg, struct sandbox_query *out)
{
    size_t host_len;
    unsigned port;
    const char *problem = policy_host_entry_split(arg, &host_len, &port);
    if (!problem)
        problem = policy_host_entry_problem(arg);
    if (problem)
        return problem;
    if (port == 0)
        return "give HOST:PORT (a port is required)";
    if (strncmp(arg, "*.", 2) == 0)
        return "a destination is one host, not a '*.' pattern";
    out->host = arg;
    out->host_len = host_len;
    out->port = port;
    return NULL;
}

const char *explain_query_parse(enum sandbox_query_kind kind, const char *arg, const char *cwd,
                                struct sandbox_query *out, char *buf, size_t size)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->given = arg;
    if (kind == SANDBOX_QUERY_CONNECT)
        return parse_destination(arg, out);
    const char *problem = parse_path(arg, cwd, buf, size);
    if (!problem)
        out->path = buf;
    return problem;
}

/* The length of the UTF-8 sequence at s (1..4), or 0 when it is not one
 * (overlong, surrogate, beyond U+10FFFF, cut). */
static size_t utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c < 0x80                 ? 1
               : c >= 0xc2 && c <= 0xdf ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

void explain_escape(FILE *f, const char *s, int json)
{
    const unsigned char *p = (const unsigned char *)s;
    if (json)
        fputc('"', f);
    while (*p) {
        size_t n = utf8_length(p);
        bool c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
        if (n == 0) {
            fprintf(f, json ? "\\\\x%02x" : "\\x%02x", *p++);
        } else if (*p < 0x20 || *p == 0x7f || (c1 && !json)) {
            fprintf(f, json ? "\\u%04x" : "\\x%02x", *p);
            p++;
        } else if (c1) {
            fprintf(f, "\\u%04x", p[1]);
            p += 2;
        } else if (*p == '\\' || (json && *p == '"')) {
            fputc('\\', f);
            fputc(*p++, f);
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
    }
    if (json)
        fputc('"', f);
}
