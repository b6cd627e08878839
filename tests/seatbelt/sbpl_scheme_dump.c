/*
 * sbpl_scheme_dump.c — TEST ONLY, for tests/seatbelt/tinyscheme.sh:
 *
 *   sbpl_scheme_dump canon PROFILE      the profile as this project's own
 *                                       reader (sbpl_reader.c) sees it,
 *                                       written as TinyScheme's `write` would
 *                                       (symbols in lower case),
 *                                       one top-level form per line
 *   sbpl_scheme_dump hostile OUTDIR     every hostile path component
 *                                       (hostile.h) in every place a path
 *                                       can go: NAME.sb, the profile, and
 *                                       NAME.path, the path written as a
 *                                       Scheme string
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "hostile.h"
#include "sbpl_reader.h"

/* A string as Scheme's `write` prints it: \" and \\ escaped, other bytes
 * as they are (the generator never writes control bytes). */
static void write_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_node(FILE *out, const struct sbpl_node *n)
{
    if (n->kind == SBPL_NODE_STRING) {
        write_string(out, n->text);
    } else if (n->kind == SBPL_NODE_SYMBOL) {
        /* TinyScheme folds symbols to lower case (CHARACTER-DEVICE);
         * strings it keeps byte for byte, and so must we. */
        for (const char *c = n->text; *c; c++)
            fputc(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c, out);
    } else {
        fputc('(', out);
        for (size_t i = 0; i < n->count; i++) {
            if (i)
                fputc(' ', out);
            write_node(out, n->items[i]);
        }
        fputc(')', out);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static int canon(const char *path)
{
    char *text = slurp(path);
    if (!text) {
        fprintf(stderr, "sbpl_scheme_dump: cannot read %s\n", path);
        return 1;
    }
    struct sbpl_read r;
    int rc = sbpl_read(text, &r);
    if (rc != 0) {
        fprintf(stderr, "sbpl_scheme_dump: %s: %s\n", path, r.error);
    } else {
        for (size_t i = 0; i < r.top->count; i++) {
            write_node(stdout, r.top->items[i]);
            fputc('\n', stdout);
        }
    }
    sbpl_read_free(&r);
    free(text);
    return rc != 0;
}

static int write_file(const char *dir, const char *name, const char *ext, const char *text, const char *path)
{
    char file[4200];
    snprintf(file, sizeof file, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(file, "wb");
    if (!f)
        return -1;
    if (text)
        fputs(text, f);
    else
        write_string(f, path);
    return fclose(f);
}

static int hostile(const char *dir)
{
    for (size_t i = 0; i < HOSTILE_COUNT; i++) {
        for (enum hostile_placement where = 0; where < HOSTILE_PLACEMENTS; where++) {
            struct hostile_case hc;
            hostile_case_init(&hc, hostile_components[i], where);
            char *profile = NULL, err[256], name[64];
            if (fixture_build(&hc.f, &profile, err, sizeof err) != SBPL_OK) {
                fprintf(stderr, "sbpl_scheme_dump: hostile %zu: %s\n", i, err);
                return 1;
            }
            snprintf(name, sizeof name, "hostile-%02zu-%d", i, (int)where);
            int bad =
                write_file(dir, name, "sb", profile, NULL) || write_file(dir, name, "path", NULL, hc.path);
            free(profile);
            if (bad) {
                fprintf(stderr, "sbpl_scheme_dump: cannot write into %s\n", dir);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "canon") == 0)
        return canon(argv[2]);
    if (argc == 3 && strcmp(argv[1], "hostile") == 0)
        return hostile(argv[2]);
    fprintf(stderr, "usage: sbpl_scheme_dump canon PROFILE | hostile OUTDIR\n");
    return 2;
}
