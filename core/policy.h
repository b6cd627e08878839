/*
 * policy.h — the parsed, validated policy document (README.md, "Policy").
 *
 * A `struct policy` only ever exists in a valid state: policy_parse() either
 * returns one that satisfies every rule of the contract (types, required
 * fields, absolute paths, host-entry syntax, mode/network combinations) or
 * returns NULL and a list of every offending field.  Backends may therefore
 * trust it without re-validating.
 */
#ifndef HAS_POLICY_H
#define HAS_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/* Largest accepted policy document, in bytes (README.md, "Command line"). */
#define POLICY_MAX_BYTES (1024u * 1024u)

enum policy_mode {
    POLICY_MODE_READ_ONLY,
    POLICY_MODE_WORKSPACE_WRITE,
    POLICY_MODE_AUTO,
    POLICY_MODE_FULL_ACCESS,
};

/* Front-ends of the outgoing proxy, as a bit set. */
enum policy_front_end {
    POLICY_FRONT_END_HTTP = 1u << 0,
    POLICY_FRONT_END_SOCKS5 = 1u << 1,
    /* Linux (linux-ns) only: a resolver and a relay inside the sandbox's
     * network namespace, for TCP clients without proxy settings. */
    POLICY_FRONT_END_TRANSPARENT = 1u << 2,
};

struct string_list {
    char **items; /* each NUL-terminated, valid UTF-8, no embedded NUL */
    size_t count;
};

struct policy_network {
    bool egress;
    bool local_binding;
    /* Entries are "host" or "*.suffix", already syntax-checked. */
    struct string_list allowed_hosts;
    /* Names also allowed to resolve to private, CGNAT, ULA, benchmark or
     * documentation addresses (a company's mirror, a VPN's hosts); never
     * to loopback, link-local, multicast or unspecified.  No literals. */
    struct string_list allowed_internal_hosts;
    /* Host Unix sockets the workload may connect() to (absolute paths),
     * granted by the inode found there at launch. */
    struct string_list allowed_unix_sockets;
    bool has_outgoing_proxy;
    unsigned front_ends; /* enum policy_front_end bits; non-zero iff has_outgoing_proxy */
    /* outgoingProxy.allowUnproxiedCertificateFetches: the platform's own
     * certificate verifier (macOS trustd) may be asked, and fetches the URLs
     * a certificate names outside the proxy.  No such service on Linux. */
    bool unproxied_certificate_fetches;
    /* outgoingProxy.upstream: the proxy the egress process reaches every
     * destination through (proxy_client.h), or none.  "environment": the
     * caller's HTTPS_PROXY and NO_PROXY (egress backend's README).  Else
     * upstream_url is the URL, already syntax-checked; it may carry a
     * password, so policy_free() wipes it. */
    bool upstream_from_environment;
    char *upstream_url;
};

/* limits (README.md, "Limits"): each 0 when the policy sets none. */
struct policy_limits {
    unsigned long long processes;    /* processes and threads of the workload's tree */
    unsigned long long memory_bytes; /* the tree's memory, page cache and tmpfs pages included */
    unsigned long long open_files;   /* descriptors per process (RLIMIT_NOFILE) */
};

/* Largest accepted value of each limit: what the kernel can represent
 * (PID_MAX_LIMIT, an exact JSON integer, the kernel's nr_open ceiling). */
#define POLICY_LIMIT_PROCESSES_MAX 4194304ull
#define POLICY_LIMIT_MEMORY_MAX 9007199254740991ull
#define POLICY_LIMIT_OPEN_FILES_MAX 1073741816ull
/* Below this, nothing of a program starts: a memoryBytes under 1 MiB is
 * refused as a mistake. */
#define POLICY_LIMIT_MEMORY_MIN 1048576ull

/* "scratch": a private, empty, size-bounded /tmp and /var/tmp, discarded
 * at the end (README.md, "Policy").  Bounds in bytes, per directory. */
#define POLICY_SCRATCH_DEFAULT_BYTES (256ull << 20)
#define POLICY_SCRATCH_MIN_BYTES (1ull << 20)
#define POLICY_SCRATCH_MAX_BYTES (64ull << 30)

struct policy_scratch {
    bool requested;
    unsigned long long size_bytes; /* MIN..MAX; DEFAULT when not given */
};

struct policy {
    enum policy_mode mode;
    /* Absolute paths with no "." or ".." component and no trailing slash
     * (except "/" itself). Existence is the backend's business. */
    struct string_list allowed_read_paths;
    struct string_list denied_read_paths;
    struct string_list allowed_write_paths;
    struct string_list denied_write_paths;
    struct policy_network network;
    struct policy_limits limits;
    struct policy_scratch scratch;
    /* Host character devices the workload may open, beneath /dev (the same
     * path form); which may be granted is judged at launch. */
    struct string_list devices;
};

/* True when the policy sets any limit. */
bool policy_has_limits(const struct policy *policy);

/* Collected validation failures, each "<json path>: <problem>". */
struct policy_errors {
    char **items;
    size_t count;
};

/*
 * Parse and validate `len` bytes of JSON.  On success returns a policy the
 * caller frees with policy_free(); on failure returns NULL and fills `errors`
 * (free with policy_errors_free()) with every offending field.
 */
struct policy *policy_parse(const char *text, size_t len, struct policy_errors *errors);
void policy_free(struct policy *policy);
void policy_errors_free(struct policy_errors *errors);

/* Join all errors into one line ("a; b; c"), malloc'd. */
char *policy_errors_join(const struct policy_errors *errors);

/*
 * True when `mode` makes the working directory a writable root
 * (workspace_write and auto).
 */
bool policy_mode_writes_cwd(enum policy_mode mode);

/*
 * Syntax of one allowedHosts entry (README.md, "Policy"): host [":" port],
 * "*.suffix" [":" port], "[v6]" [":" port] or a bare IPv6 literal.  Returns
 * NULL when valid, or a static string that says why not.
 */
const char *policy_host_entry_problem(const char *entry);

/* An allowedInternalHosts entry: an allowedHosts entry that names a host
 * rather than an IP literal.  NULL when valid, else why not. */
const char *policy_internal_host_entry_problem(const char *entry);

/*
 * The host and port of an entry: *host_len bytes of `entry` are the host
 * (brackets included), *port is 1..65535, or 0 when the entry names no port
 * (any port).  Returns what policy_host_entry_problem() would say of the
 * host/port split, NULL when it is valid.  The egress backend compiles its
 * rules with it, so parser and proxy split an entry the same way.
 */
const char *policy_host_entry_split(const char *entry, size_t *host_len, unsigned *port);

#endif
