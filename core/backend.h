/*
 * backend.h — the one interface between the platform-neutral core and each
 * enforcement backend (in the spirit of OpenSSH's sandbox.h and nginx's
 * ngx_module_t).
 *
 * A backend is one const `struct sandbox_backend` descriptor, exported under
 * the symbol SANDBOX_BACKEND_SYMBOL.  Release builds list every descriptor in
 * one static table (core/backend_static.c); developer builds dlopen() each
 * module and look up that one symbol (core/backend_dlopen.c).
 *
 * The sequence, run by core/launch.c once the policy is valid:
 *
 *   0. The core captures the workload's environment and cwd (by descriptor
 *      first: ctx->cwd_fd), then protects
 *      itself (non-dumpable, no core dumps, LD_* and DYLD_* removed from its
 *      own environment).  It refuses to go on unless the loaded backends,
 *      together, enforce every restriction the policy asks for (`enforces`).
 *
 *   1. prepare(ctx) — every backend, in ascending `order`, in the supervisor,
 *      on the host side, before any namespace or sandbox exists.  Check that
 *      the kernel/OS can enforce the policy, fork helper processes that must
 *      stay outside (the egress process), add workload environment.
 *
 *   2. enter(ctx) — every backend, in ascending `order`.  This is where the
 *      boundary is built.  A backend that must split the process (clone into
 *      new namespaces, fork a child to sandbox on macOS) does so here and
 *      returns SANDBOX_SUPERVISE in the process that stays outside, after
 *      filling ctx->monitor; the core then stops walking in that process and
 *      waits for the child, forwarding signals and reproducing its status.
 *      In the process that goes on towards the workload the hook returns
 *      SANDBOX_OK and the walk continues with the next backend's enter().
 *      A boundary backend finishes its sandbox (the file system view) here,
 *      before the next enter(), while a later backend with work under the
 *      policy declares `enter_needs_view` (ctx->later_enter_needs_view);
 *      otherwise it may finish it at the end of its harden() instead, so
 *      that the workload hardens while the view is being built.
 *
 *   3. harden(ctx) — every backend, in ascending `order`, in the process that
 *      will become the workload, after every enter().  The last irreversible
 *      steps: close stray descriptors, drop capabilities, no_new_privs,
 *      seccomp.  After the last harden() the core looks the target up in the
 *      workload's PATH and execve()s it, in the finished sandbox.
 *
 * Any hook that fails returns SANDBOX_FAIL after setting ctx's error with
 * sandbox_fail(); the core prints it as one line and exits 125.  A backend
 * that has already split may also print and _exit(125) itself in a child.
 *
 * Every hook is required, explain() below included: the core refuses a
 * descriptor that lacks one when it adds it to the set (backend_set_add(),
 * at start-up or module load, naming the hook), before any hook of any
 * backend runs.  A backend with nothing to do in a phase uses
 * sandbox_hook_noop, one with nothing to explain sandbox_explain_noop.
 *
 * explain(ctx, out) — --explain, instead of the three above: every backend,
 *   in ascending `order`, in the supervisor, with ctx filled as for
 *   prepare() (and ctx->report_fd -1).  It builds nothing and changes
 *   nothing (no process, no descriptor kept, no environment change): it
 *   runs the checks its prepare() runs and returns SANDBOX_FAIL with the
 *   same message when a launch would fail; it describes what it would
 *   build with sandbox_explain_add(), and answers the caller's operations
 *   (out->queries) with sandbox_explain_verdict() by calling the very
 *   functions its boundary is built from, never a copy of their logic.  A
 *   backend with nothing to say uses sandbox_explain_noop.  The core
 *   combines the answers (a refusal by any backend wins) and prints them
 *   (core/explain.c, README "Explain mode").
 *
 * How backends compose.  No backend names another; what one gives the
 * others and what one cannot work without are declared in its descriptor:
 *
 *   offers        enum sandbox_offer bits it guarantees to every other
 *                 backend of the set;
 *   needs         bits other backends must offer, all of them;
 *   needs_one_of  bits of which others must offer at least one (0: none).
 *
 * The core checks the needs of every backend that has work under the
 * policy (the policy requires something it enforces) once the set is
 * selected, before any hook runs, and refuses with 125 naming the backend
 * and what no other offers.  During every hook, ctx->others_offer holds
 * what the other backends of the set offer, so a backend that can work
 * with either of two offers chooses at run time.
 *
 * Selection.  Backends that enforce the filesystem policy build the
 * boundary; the others (egress-proxy) are companions and always stay.  A
 * boundary backend marked `on_request` is in the set only when the caller
 * names it (--sandbox NAME), and naming one replaces the default ones.
 * --sandbox takes one name.  In developer builds a module loaded with
 * --backend-module is selected whatever its `on_request`: that is how a
 * second boundary is layered inside the first (a backend that sees
 * SANDBOX_OFFER_SYSCALL_FILTER from another then adds only its own layer).
 */
#ifndef HAS_BACKEND_H
#define HAS_BACKEND_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The rest of the contract: what the core gives a module besides this
 * file (the policy's layout; diag_fatal() and the exit status 125; the
 * report's writer, for report_fd). */
#include "diag.h"
#include "event_report.h"
#include "policy.h"

/*
 * The ABI.  Nothing here is a number kept by hand: the build preprocesses
 * this header (and so policy.h and diag.h) and writes a checksum of the
 * result to core/backend_abi.h as SANDBOX_ABI_SIGNATURE (core/local.mk).
 * Any change to a type, field, enum value or prototype a module sees
 * changes it.  Every descriptor starts with a struct sandbox_abi, which the
 * core compares with its own before it reads anything else of the
 * descriptor; a module built against another contract is refused with 125.
 */
#ifndef HAS_BACKEND_ABI_HASHING
#include "core/backend_abi.h"
#endif

/* The layout of struct sandbox_abi itself ("HAS" + 1): never changed, so
 * that any module's block can be read to refuse it. */
#define SANDBOX_ABI_MAGIC 0x48415301ul

struct sandbox_abi {
    unsigned long magic;     /* SANDBOX_ABI_MAGIC */
    unsigned long signature; /* SANDBOX_ABI_SIGNATURE at build time */
    /* Also compared, and printed when they differ: */
    unsigned long ctx_size;     /* sizeof(struct sandbox_ctx) */
    unsigned long policy_size;  /* sizeof(struct policy) */
    unsigned long backend_size; /* sizeof(struct sandbox_backend) */
};

#define SANDBOX_BACKEND_SYMBOL "sandbox_backend_descriptor"

/* The most backends one set holds (and so state slots in the ctx). */
#define SANDBOX_MAX_BACKENDS 8

/* The longest failure message, from the buffer a backend formats it in to
 * the line the core prints (ctx->error).  sandbox_fail() marks a longer
 * one as cut. */
#define SANDBOX_ERROR_MAX 1024

/* Restrictions a backend can enforce (bit set in `enforces`). */
enum sandbox_enforcement {
    SANDBOX_ENFORCES_FILESYSTEM = 1u << 0,    /* mode and the four path lists */
    SANDBOX_ENFORCES_NO_EGRESS = 1u << 1,     /* egress: false */
    SANDBOX_ENFORCES_NO_LOCAL_BIND = 1u << 2, /* localBinding: false */
    SANDBOX_ENFORCES_EGRESS_PROXY = 1u << 3,  /* network.outgoingProxy */
    SANDBOX_ENFORCES_LIMITS = 1u << 4,        /* limits (each one it cannot bound: 125 in prepare()) */
    SANDBOX_ENFORCES_SCRATCH = 1u << 5,       /* scratch: a private /tmp */
    SANDBOX_ENFORCES_DEVICES = 1u << 6,       /* devices: granted, and only those */
    SANDBOX_ENFORCES_UNIX_SOCKETS = 1u << 7,  /* network.allowedUnixSockets: those, by inode */
    /* Add a bit above the last one, before this line: */
    SANDBOX_ENFORCES_NEXT_,
    /* Every bit this core knows: a descriptor with another is refused. */
    SANDBOX_ENFORCES_ALL = ((SANDBOX_ENFORCES_NEXT_ - 1) << 1) - 1,
};

/* What a backend guarantees the others (`offers`, `needs`, see above). */
enum sandbox_offer {
    /* Whenever the policy's egress is not open (egress off, or a proxy),
     * enter() of every backend after it runs in the process that becomes
     * the workload, inside a network namespace of the sandbox's own with
     * nothing but loopback (linux-ns). */
    SANDBOX_OFFER_PRIVATE_NETWORK = 1u << 0,
    /* The workload reaches no TCP port of the host but the loopback ports
     * granted with sandbox_grant_loopback_port() during prepare(); they are
     * read once every prepare() has run (seatbelt, landlock). */
    SANDBOX_OFFER_LOOPBACK_GRANTS = 1u << 1,
    /* With an outgoing proxy in the policy, enter() leaves the supervisor
     * outside the boundary (SANDBOX_SUPERVISE) for as long as the workload
     * lives, so that helpers it started in prepare() live as long. */
    SANDBOX_OFFER_SUPERVISED = 1u << 2,
    /* harden() installs the workload's seccomp filter, with the one
     * user-notification listener a process can have, and a process
     * outside answers it (linux-ns): a backend layered inside must not
     * install a listener of its own. */
    SANDBOX_OFFER_SYSCALL_FILTER = 1u << 3,
    /* Add a bit above the last one, before this line: */
    SANDBOX_OFFER_NEXT_,
    /* Every bit this core knows (offers, needs, needs_one_of). */
    SANDBOX_OFFERS_ALL = ((SANDBOX_OFFER_NEXT_ - 1) << 1) - 1,
};

enum sandbox_result {
    SANDBOX_OK = 0,
    SANDBOX_FAIL = 1,
    SANDBOX_SUPERVISE = 2, /* enter() only: this process stays outside */
};

/* What the process that stays outside waits for (see enter()). */
struct sandbox_monitor {
    pid_t pid; /* the child to forward signals to and to reap */
    /*
     * -1, or a descriptor from which the child side writes, in one write
     * before it exits, two native `int`s: the workload's real wait status,
     * and 1 if the sandbox killed processes the workload left still running
     * (else 0; the report's workload-ended killedBySupervisor).  Needed when
     * the child cannot die of the workload's signal itself (a PID-namespace
     * init cannot be killed by a signal it sends itself).  If the child
     * exits without writing them, the child's own status is reproduced.
     */
    int status_fd;
    /*
     * The child runs in a session of its own (linux-ns: so that the workload
     * cannot signal the caller's process group or take its terminal).  The
     * terminal's ^C, ^\ and SIGWINCH then reach only the supervisor, which
     * forwards them too; otherwise (false) the kernel already delivers them
     * to the child's process group and only kill(2)-sent signals are
     * forwarded, so that none arrives twice.
     */
    bool own_session;
    /* With status_fd: what the child is ("linux-ns", "init"), named when it
     * dies of a signal before writing the status (supervise.c). */
    const char *backend, *role;
};

#define SANDBOX_MAX_LOOPBACK_GRANTS 4

struct sandbox_ctx {
    const struct policy *policy;
    char *const *argv; /* target argv, NULL-terminated, argv[0] as given */
    const char *cwd;   /* absolute working directory at launch: its name */
    /*
     * The working directory itself: the core opens "." (close-on-exec,
     * O_PATH where there is one) before anything reads a policy path or
     * asks getcwd() for `cwd`, keeps it open for the supervisor's life (its
     * inode cannot be reused) and records its identity.  `cwd` is only a
     * name another process may rename at any moment, so a backend places
     * the workspace and everything beneath it by descriptor: it resolves
     * `cwd` (without symbolic links), accepts the result only if
     * sandbox_is_cwd() says it is this directory, and resolves what lies
     * beneath relative to that descriptor, never by the string again; at
     * the last moment before its sandbox is sealed it checks once more
     * (sandbox_cwd_check()).  Any mismatch is refused (125) with
     * sandbox_cwd_moved()'s message.
     */
    int cwd_fd;
    dev_t cwd_dev;
    ino_t cwd_ino;

    /*
     * The workload's environment: captured before the supervisor scrubbed its
     * own, NULL-terminated, owned by the core.  Change it only through
     * sandbox_env_set() / sandbox_env_unset().
     */
    char **env;
    size_t env_count;

    struct sandbox_monitor monitor; /* filled by a backend returning SANDBOX_SUPERVISE */

    /*
     * SANDBOX_OFFER_LOOPBACK_GRANTS: the TCP ports on the host's loopback
     * the workload may connect to, added during prepare() with
     * sandbox_grant_loopback_port() (the proxy's front-ends).
     */
    unsigned short loopback_grants[SANDBOX_MAX_LOOPBACK_GRANTS];
    size_t loopback_grant_count;

    /* What the other backends of the set offer (enum sandbox_offer bits),
     * set by the core before each hook. */
    unsigned others_offer;
    /* Set by the core before each hook: a backend after this one in the
     * walk has work under the policy (it enforces something the policy
     * requires) and declares enter_needs_view. */
    bool later_enter_needs_view;

    /* The build's other sandbox backends as the option that selects them
     * ("--sandbox landlock"), or "": what a boundary backend names as the
     * way out when this host cannot build its boundary. */
    char alternatives[128];

    /*
     * -1, or the caller's descriptor for event reports (--refusal-report):
     * one JSON object per line, each written whole by one write(2) of at
     * most PIPE_BUF bytes, so lines from several processes never interleave.
     * A backend writes only with report_write() (event_report.h), which
     * never blocks (the caller may read slowly or not at all): it drops a
     * line it cannot write at once and says so in its next one.  The core
     * made it close-on-exec and non-blocking, so the workload never holds
     * it; a backend that forks a helper without exec keeps it there on
     * purpose and closes it everywhere else.  Line formats are the
     * README's ("Refusal report").
     */
    int report_fd;

    /* One private slot per backend, indexed by its position in the walk. */
    void *backend_state[SANDBOX_MAX_BACKENDS];
    size_t current; /* position of the backend whose hook runs */

    char error[SANDBOX_ERROR_MAX]; /* set by sandbox_fail() */
};

typedef enum sandbox_result (*sandbox_hook)(struct sandbox_ctx *ctx);

/* --explain: an operation the caller asks about (README "Explain mode"). */
enum sandbox_query_kind {
    SANDBOX_QUERY_READ,    /* open `path` for reading (a directory: list it) */
    SANDBOX_QUERY_WRITE,   /* create or write `path` */
    SANDBOX_QUERY_CONNECT, /* a TCP connection to host:port */
    SANDBOX_QUERY_UNIX,    /* connect() to the Unix socket at `path` */
};

struct sandbox_query {
    enum sandbox_query_kind kind;
    const char *given; /* as the caller wrote it */
    /* READ, WRITE, UNIX: absolute, in policy.h's normal form, the symbolic
     * links of its existing part resolved (what the kernel would reach). */
    const char *path;
    /* CONNECT: host_len bytes of `host` (brackets kept), port 1..65535. */
    const char *host;
    size_t host_len;
    unsigned port;
};

enum sandbox_verdict {
    SANDBOX_VERDICT_NONE, /* no backend of the set decides it */
    SANDBOX_VERDICT_ALLOWED,
    SANDBOX_VERDICT_REFUSED,
};

/* What explain() reads (the queries) and adds to (through the helpers
 * below; the collection itself is the core's). */
struct sandbox_explain {
    const struct sandbox_query *queries;
    size_t query_count;
    void *core; /* the core's collection */
};

typedef enum sandbox_result (*sandbox_explain_hook)(struct sandbox_ctx *ctx, struct sandbox_explain *out);

struct sandbox_backend {
    struct sandbox_abi abi; /* SANDBOX_BACKEND_ABI; first, always */
    const char *name;       /* unique, e.g. "linux-ns" */
    /* Boundary backends: one line for --help, or NULL. */
    const char *summary;
    int order;         /* ascending; ties refused */
    unsigned enforces; /* enum sandbox_enforcement bits */
    unsigned offers;   /* enum sandbox_offer bits (see "How backends compose") */
    unsigned needs;
    unsigned needs_one_of;
    bool on_request; /* a boundary backend used only when named (--sandbox) */
    /* Its enter(), when it has work, runs in the workload and needs the
     * sandbox that earlier backends build finished: their file system view,
     * and the capabilities their harden() drops (see enter() above). */
    bool enter_needs_view;
    sandbox_hook prepare;
    sandbox_hook enter;
    sandbox_hook harden;
    sandbox_explain_hook explain;
};

/* This build's ABI block, for `.abi` in a descriptor. */
#define SANDBOX_BACKEND_ABI                                                                          \
    {                                                                                                \
        SANDBOX_ABI_MAGIC, SANDBOX_ABI_SIGNATURE, sizeof(struct sandbox_ctx), sizeof(struct policy), \
            sizeof(struct sandbox_backend)                                                           \
    }

/* Record a one-line failure (printf-style) and return SANDBOX_FAIL.  A
 * message longer than SANDBOX_ERROR_MAX ends in "...(truncated)". */
enum sandbox_result sandbox_fail(struct sandbox_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Set or replace NAME=VALUE / remove NAME in the workload's environment.
 * Return 0, or -1 with errno on allocation failure. */
int sandbox_env_set(struct sandbox_ctx *ctx, const char *name, const char *value);
void sandbox_env_unset(struct sandbox_ctx *ctx, const char *name);

/* SANDBOX_OFFER_LOOPBACK_GRANTS: let the workload connect to `port` on
 * the host's loopback.  Return 0, or -1 when SANDBOX_MAX_LOOPBACK_GRANTS
 * are granted already. */
int sandbox_grant_loopback_port(struct sandbox_ctx *ctx, unsigned short port);

/* Whether `st` is the working directory (ctx->cwd_fd's identity). */
bool sandbox_is_cwd(const struct sandbox_ctx *ctx, const struct stat *st);
/* The one-line refusal for a working directory that `cwd` no longer leads
 * to, into err[errlen]. */
void sandbox_cwd_moved(const struct sandbox_ctx *ctx, char *err, size_t errlen);
/* 0 when ctx->cwd still leads to the working directory, else -1 and
 * sandbox_cwd_moved()'s message (or why it cannot be resolved). */
int sandbox_cwd_check(const struct sandbox_ctx *ctx, char *err, size_t errlen);

/* Overwrite a secret with zeros in a way the compiler may not drop (macOS's
 * libc has no explicit_bzero). */
void sandbox_wipe(void *p, size_t n);
/* The workload's value of NAME, or NULL. */
const char *sandbox_env_get(const struct sandbox_ctx *ctx, const char *name);

/* The backend's private slot. */
static inline void **sandbox_state(struct sandbox_ctx *ctx)
{
    return &ctx->backend_state[ctx->current];
}

enum sandbox_result sandbox_hook_noop(struct sandbox_ctx *ctx);
enum sandbox_result sandbox_explain_noop(struct sandbox_ctx *ctx, struct sandbox_explain *out);

/*
 * explain(): one thing the sandbox will be, as (kind, subject, how).
 * `kind` is a short lower-case word; those in use are listed in README
 * "Explain mode" ("writable", "read-denied", "write-denied", "tmp", "dev",
 * "proc", "network", "host", "kernel", "environment", and for features that
 * add their own lines, e.g. "limit", "scratch").  `subject`: a path, a host
 * entry or "" (printed escaped).  The core records which backend said it.
 */
void sandbox_explain_add(struct sandbox_ctx *ctx, struct sandbox_explain *out, const char *kind,
                         const char *subject, const char *how_fmt, ...) __attribute__((format(printf, 5, 6)));
/* explain(): this backend's answer to out->queries[i], and the rule that
 * decides it (one line).  A refusal by any backend wins over an allowance. */
void sandbox_explain_verdict(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i, bool allowed,
                             const char *rule_fmt, ...) __attribute__((format(printf, 5, 6)));

/* Install handlers that forward SIGHUP, SIGINT, SIGQUIT, SIGTERM and
 * SIGWINCH (sent with kill(2); in the core's supervisor, also the
 * terminal's when the child has its own session) to `pid` (> 0): for a
 * backend's process that stays outside its own child (a namespace init). */
void forward_signals_to(pid_t pid);

/* Block those signals (*old: the previous mask, to restore with
 * sigprocmask).  The kernel keeps a blocked signal pending even for a
 * process that would drop it (a PID-namespace init without a handler), so a
 * process that gets its handling only later blocks them until then: what
 * arrives meanwhile is delivered, not lost. */
void forwarded_signals_block(sigset_t *old);

/*
 * Each backend source defines its descriptor with this macro, e.g.
 *     SANDBOX_BACKEND_DEFINE(linux_ns_backend) = { .abi = SANDBOX_BACKEND_ABI, ... };
 * and names `ident` in its local.mk (HAS_BACKENDS, README.md "Adding a
 * backend").
 * Statically linked, it is a uniquely named global that the generated
 * static table refers to; built as a module (HAS_BACKEND_MODULE), it is the one symbol
 * the loader looks up, SANDBOX_BACKEND_SYMBOL.
 */
#ifdef HAS_BACKEND_MODULE
#define SANDBOX_BACKEND_DEFINE(ident) \
    __attribute__((visibility("default"))) const struct sandbox_backend sandbox_backend_descriptor
#else
#define SANDBOX_BACKEND_DEFINE(ident) const struct sandbox_backend ident
#endif

#endif
