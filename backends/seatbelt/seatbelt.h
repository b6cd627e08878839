/*
 * seatbelt.h — what the seatbelt backend's Darwin files share: the launch
 * facts the profile is generated from (seatbelt_darwin.c) and the explain
 * hook (seatbelt_explain.c).  Darwin glue: on Linux only the tests compile
 * it, against tests/seatbelt/shim.
 */
#ifndef HAS_SEATBELT_H
#define HAS_SEATBELT_H

#include "backend.h"
#include "sbpl_rules.h"

/* prepare()'s refusal, and explain()'s: profiles do not nest. */
#define SEATBELT_NESTED_MESSAGE                                                                 \
    "the supervisor is already running inside a Seatbelt sandbox, and sandbox profiles do not " \
    "nest, so this policy cannot be enforced; start the supervisor from an unsandboxed process"

/* The terminals the workload holds on descriptors 0-2. */
struct seatbelt_terminals {
    char names[3][256];
    const char *ptrs[3];
};

/* The generator's input for this launch (seatbelt_darwin.c); `t` holds
 * the terminal names it points to. */
void seatbelt_input(struct sandbox_ctx *ctx, struct seatbelt_terminals *t, struct sbpl_input *in);

/* --explain (seatbelt_explain.c). */
enum sandbox_result seatbelt_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out);

#endif
