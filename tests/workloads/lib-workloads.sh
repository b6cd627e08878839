# shellcheck shell=bash
# tests/workloads/lib-workloads.sh — the workload matrix's shared part
# (sourced after tests/lib.sh): the policy the README recommends to agent
# authors, a local origin the workload reaches through the proxy, and the
# two Linux backends.  Each tool's script runs its entry on both.
#
# The workspace is made under $HOME, not /tmp: with `scratch` a working
# directory beneath /tmp is refused, since the private /tmp would hide it.

. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
sandbox_require
ll_require
[ -x "$NO_USERNS" ] || { echo "tests/landlock/helpers/no_userns is missing from the build"; exit 1; }

WL_PIDS=
WL_ROOT=$(mktemp -d "$HOME/.has-workloads.XXXXXX") || skip "cannot make a directory in HOME ($HOME)"
chmod 755 "$WL_ROOT"
wl_cleanup() {
    local p
    for p in $WL_PIDS; do kill "$p" 2>/dev/null; done
    chmod -R u+rwX "$WL_ROOT" 2>/dev/null
    rm -rf "$WL_ROOT"
    t_cleanup
}
trap wl_cleanup EXIT

# wl_serve DIR: serve DIR over HTTP on the host's 127.0.0.1, a kernel-chosen
# port; sets ORIGIN_PORT.
wl_serve() {
    local pf="$T_TMP/origin.$RANDOM"
    "$PY" -c 'import functools, http.server, os, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
h = functools.partial(Quiet, directory=sys.argv[1])
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
open(sys.argv[2] + ".new", "w").write(str(s.server_port)); os.rename(sys.argv[2] + ".new", sys.argv[2])
s.serve_forever()' "$1" "$pf" &
    WL_PIDS="$WL_PIDS $!"
    for _ in $(seq 100); do [ -s "$pf" ] && break; sleep 0.05; done
    ORIGIN_PORT=$(cat "$pf" 2>/dev/null)
    [ -n "$ORIGIN_PORT" ] || { echo "the local origin did not start"; exit 1; }
}

# wl_workspace NAME: a fresh workspace as an agent finds it: a git repository
# (made by the host) and a secrets file; sets WS.
wl_workspace() {
    WS="$WL_ROOT/$1"
    mkdir -p "$WS" && cd "$WS" || exit 2
    git init -q . || { echo "git init on the host failed"; exit 2; }
    echo 'API_KEY=workload-secret' >.env
}

# wl_policy BACKEND [ORIGIN_PORT [LOCALBIND]]: the recommended policy for
# WS: the workspace writable, .git/hooks and .git/config write-denied, .env
# read-denied, egress only through the proxy's http front-end to the local
# origin, no bind/listen (LOCALBIND true for a tool that serves a Unix
# socket: linux-ns only), and (linux-ns only: landlock refuses it) a
# private scratch /tmp.
wl_policy() {
    local hosts='' scratch='' bind=${3:-false}
    [ -n "${2:-}" ] && hosts="\"127.0.0.1:$2\""
    [ "$1" = linux-ns ] && scratch=',"scratch":{}'
    printf '{"mode":"workspace_write","network":{"egress":true,"localBinding":%s,"allowedHosts":[%s],"outgoingProxy":{"frontEnds":["http"]}},"deniedWritePaths":["%s/.git/hooks","%s/.git/config"],"deniedReadPaths":["%s/.env"]%s}' \
        "$bind" "$hosts" "$WS" "$WS" "$WS" "$scratch"
}

# wl_run BACKEND POLICY SCRIPT: SCRIPT under sh in the sandbox at the top of
# WS, HOME in the workspace; TMPDIR is the scratch /tmp on linux-ns and a
# workspace directory on landlock.  Sets RC, OUT, ERR.
# Seconds one entry's run may take (each passes in under 15 here).
WL_TIMEOUT=${WL_TIMEOUT:-180}

wl_run() {
    local be=$1 pol=$2 tmp=/tmp
    [ "$be" = landlock ] && tmp=$WS/.tmp
    local envs=(HOME="$WS/.home" TMPDIR="$tmp" PATH="$PATH" LANG=C.UTF-8)
    cd "$WS" || exit 2
    mkdir -p "$WS/.home" "$WS/.tmp"
    # Bounded: a tool that hangs fails its entry (timeout's 124), never the suite.
    case $be in
    linux-ns) timeout -k 5 "$WL_TIMEOUT" "$SUPERVISOR" --policy "$pol" -- /usr/bin/env "${envs[@]}" /bin/sh -c "$3" ;;
    landlock) on_blocked_host timeout -k 5 "$WL_TIMEOUT" "$SUPERVISOR" --sandbox landlock --policy "$pol" -- \
        /usr/bin/env "${envs[@]}" /bin/sh -c "$3" ;;
    esac >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

# wl_expect_ok WHAT: the last wl_run exited 0; its output is shown otherwise.
wl_expect_ok() {
    if [ "$RC" = 0 ]; then ok "$1"; return 0; fi
    fail "$1: exit $RC"
    printf '%s\n' "$OUT" | tail -15 | sed 's/^/# out: /'
    printf '%s\n' "$ERR" | tail -15 | sed 's/^/# err: /'
    return 1
}

# wl_matrix ENTRY FUNCTION: FUNCTION BACKEND on both backends, each timed.
wl_matrix() {
    local be t0 t1
    for be in linux-ns landlock; do
        t0=$(date +%s%N)
        "$2" "$be"
        t1=$(date +%s%N)
        echo "# time $1 on $be as uid $(id -u): $(( (t1 - t0) / 1000000 )) ms"
    done
}
