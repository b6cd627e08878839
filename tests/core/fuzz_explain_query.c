/*
 * fuzz_explain_query.c — libFuzzer target: --explain's operation arguments
 * (explain_query_parse) and the escaping of what it prints
 * (explain_escape).  The first byte picks the kind, the rest is the
 * argument.  Whatever the bytes: no crash, and the text form holds no
 * control byte, the JSON form none either and parses as one string.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "explain_query.h"

static void check_escaped(const char *s)
{
    for (int json = 0; json <= 1; json++) {
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        if (!f)
            return;
        explain_escape(f, s, json);
        fclose(f);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
                abort();
        if (json) {
            cJSON *v = cJSON_ParseWithLength(out, len);
            if (!v || !cJSON_IsString(v))
                abort();
            cJSON_Delete(v);
        }
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    char *arg = malloc(size);
    if (!arg)
        return 0;
    memcpy(arg, data + 1, size - 1);
    arg[size - 1] = '\0';
    struct sandbox_query q;
    char buf[4096];
    const char *problem =
        explain_query_parse((enum sandbox_query_kind)(data[0] % 4), arg, "/work/cwd", &q, buf, sizeof buf);
    if (!problem && q.path && (q.path[0] != '/' || strstr(q.path, "//") || strstr(q.path, "/./")))
        abort(); /* not in normal form */
    check_escaped(arg);
    if (!problem && q.path)
        check_escaped(q.path);
    free(arg);
    return 0;
}
