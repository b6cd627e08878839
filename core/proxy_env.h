/*
 * proxy_env.h — the one table of the proxy's environment: the variables
 * the egress backend sets for the workload (egress_env.c) and removes when
 * the caller set them, and the ones `--connect` (proxy_connect.c) reads,
 * with the URL schemes they carry.  Initialisers, not objects, so each user
 * compiles its own array and a module needs nothing from the core for them.
 */
#ifndef HAS_PROXY_ENV_H
#define HAS_PROXY_ENV_H

/* The HTTP front-end's URL, in the order --connect tries them. */
#define PROXY_ENV_HTTP_VARS                                      \
    {                                                            \
        "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy" \
    }
/* The SOCKS5 front-end's URL. */
#define PROXY_ENV_SOCKS_VARS     \
    {                            \
        "ALL_PROXY", "all_proxy" \
    }
/* Node's fetch and http read HTTP_PROXY only with this set (Node >= 22.19). */
#define PROXY_ENV_NODE_VARS  \
    {                        \
        "NODE_USE_ENV_PROXY" \
    }
/* Every caller's variable whose name ends in this, in any case, is
 * removed before the sandbox's own are set: the ones above, and those other
 * tools read (FTP_PROXY, npm_config_https_proxy, PIP_PROXY,
 * GLOBAL_AGENT_HTTPS_PROXY, HTTPS_proxy, ...), which would point the
 * workload at a proxy the policy never configured or carry an upstream
 * proxy's credentials into the sandbox. */
#define PROXY_ENV_SUFFIX "_proxy"
/* An upstream proxy of "environment" (network.outgoingProxy.upstream): the
 * caller's first of these that is set, read before any is removed. */
#define PROXY_ENV_UPSTREAM_VARS                                                            \
    {                                                                                      \
        "https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY" \
    }
/* The destinations reached without the proxy (the workload's loopback);
 * under "environment", the caller's are the ones that bypass the upstream. */
#define PROXY_ENV_NO_PROXY_VARS \
    {                           \
        "NO_PROXY", "no_proxy"  \
    }

/* The schemes of the URLs set: "http://user:secret@127.0.0.1:port". */
#define PROXY_ENV_HTTP_SCHEME "http://"
#define PROXY_ENV_SOCKS_SCHEME "socks5h://"

/* The header of the HTTP front-end's refusals naming the rule that refused,
 * which --connect reads back. */
#define PROXY_REFUSAL_RULE_HEADER "X-Happy-Agent-Supervisor-Refused-By"

#endif
