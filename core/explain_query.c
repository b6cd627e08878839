/*
 * explain_query.c — see explain_query.h.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "explain_query.h"
#include "policy.h"
#include "text_escape.h"

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

void explain_escape(FILE *f, const char *s, int json)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    char out[TEXT_ESCAPE_MAX];
    if (json)
        fputc('"', f);
    while (left > 0) {
        size_t used, n = text_escape_next(p, left, json, out, &used);
        fwrite(out, 1, n, f);
        p += used;
        left -= used;
    }
    if (json)
        fputc('"', f);
}
