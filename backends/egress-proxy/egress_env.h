/*
 * egress_env.h — the workload's proxy variables (backends/egress-proxy/README.md,
 * "The secret and the environment"): the caller's removed, ours set.  The
 * same on every platform.
 */
#ifndef HAS_EGRESS_ENV_H
#define HAS_EGRESS_ENV_H

#include "backend.h"
#include "policy/destination.h"
#include "policy/host_match.h"
#include "policy/proxy_auth.h"
#include "policy/upstream_proxy.h"

/* The policy's upstream proxy (network.outgoingProxy.upstream): its URL,
 * or under "environment" the caller's variables (PROXY_ENV_UPSTREAM_VARS,
 * NO_PROXY), so call it before egress_env_remove_callers.  out->set is
 * false when there is none; a value that is not a usable proxy is 125. */
enum sandbox_result egress_env_upstream(struct sandbox_ctx *ctx, struct upstream_proxy *out);

/* Remove every proxy variable the caller set (PROXY_ENV_SUFFIX: the
 * front-ends' own are set again by egress_env_set), with or without a
 * proxy.  *front_ends: the front-ends to start (POLICY_FRONT_END_*), 0 for
 * none. */
enum sandbox_result egress_env_remove_callers(struct sandbox_ctx *ctx, unsigned *front_ends);

/* The workload's variables for front-ends `fe` on 127.0.0.1 at these ports,
 * carrying the secret. */
enum sandbox_result egress_env_set(struct sandbox_ctx *ctx, const struct proxy_creds *creds, unsigned fe,
                                   unsigned short http_port, unsigned short socks_port);

/* Compile an allowedHosts entry of a parsed policy, split into host and
 * port by the policy parser's own rule (policy_host_entry_split). */
void egress_compile_entry(const char *entry, struct host_rule *rule);

/* Both host lists of a parsed policy, allowedHosts first, as the egress
 * process judges them; out->rules (at least one slot) is the caller's to
 * free.  Returns 0, or -1 when out of memory. */
int egress_compile_hosts(const struct policy_network *net, struct host_policy *out);

#endif
