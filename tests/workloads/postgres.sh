#!/usr/bin/env bash
# Workload matrix: PostgreSQL (Debian's 15) under the recommended policy.
# linux-ns: initdb in the workspace, pg_ctl start with its Unix socket in
# the workspace and no TCP, a psql query, pg_ctl stop; serving a Unix
# socket needs localBinding: true (bind/listen are refused otherwise, Unix
# sockets included), which binds only in the sandbox's own network.
# On landlock PostgreSQL cannot run at all: every postgres process (initdb's
# too) makes a SysV shared memory segment, and landlock refuses SysV IPC (no
# IPC namespace of its own: it would reach the host's); it refuses
# localBinding: true too.  The landlock run checks that refusal: use linux-ns.
# The uid inside is the caller's, so for a root caller initdb refuses: that
# is PostgreSQL's own rule, not the sandbox's, and the root run checks
# exactly that refusal; run the entry as an unprivileged caller.
. "$HAS_SRCDIR/tests/lib.sh"
PGBIN=/usr/lib/postgresql/15/bin
[ -x "$PGBIN/initdb" ] || require_tool "$PGBIN/initdb" postgresql
require_tool psql postgresql-client
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"

entry() {
    wl_workspace "pg-$1"
    if is_root; then
        wl_run "$1" "$(wl_policy "$1")" "$PGBIN/initdb -D db"
        [ "$RC" != 0 ] && printf '%s' "$ERR" | grep -q 'cannot be run as root' &&
            ok "$1: as root, initdb refuses with PostgreSQL's own rule (the entry runs for an unprivileged caller)" ||
            fail "$1: initdb as root: exit $RC: $ERR"
        return
    fi
    if [ "$1" = landlock ]; then
        wl_run "$1" "$(wl_policy "$1")" "$PGBIN/initdb -A trust -U wl -D db"
        [ "$RC" != 0 ] && printf '%s' "$ERR" | grep -q 'shmget' &&
            ok "$1: initdb fails on the refused SysV shared memory (shmget): PostgreSQL needs linux-ns" ||
            fail "$1: initdb on landlock: exit $RC (README says shmget is refused; update it): $ERR"
        return
    else
        wl_run "$1" "$(wl_policy "$1" '' true)" "set -e
$PGBIN/initdb -A trust -U wl -D db >initdb.log
$PGBIN/pg_ctl -D db -l pg.log -w -o \"-k $WS -c listen_addresses=''\" start >/dev/null
psql -h $WS -U wl -d postgres -Atc 'select 6 * 7'
$PGBIN/pg_ctl -D db -w stop >/dev/null"
        wl_expect_ok "$1: initdb, pg_ctl start, psql over the Unix socket, pg_ctl stop" &&
            expect_out '^42$' "$1: the query answered"
        [ -e "$WS/db/postmaster.pid" ] && fail "$1: the server did not stop" || ok "$1: the server stopped"
    fi
    [ -f "$WS/db/PG_VERSION" ] && ok "$1: the cluster is in the workspace" || fail "$1: no cluster in the workspace"
}
wl_matrix postgres entry
finish
