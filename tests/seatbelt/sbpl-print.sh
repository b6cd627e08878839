#!/bin/bash
# tests/seatbelt/sbpl-print.sh — the developer tool that prints the profile
# for a policy (any platform): real canonicalisation of real paths.
. "$HAS_SRCDIR/tests/lib.sh"

PRINT="$HAS_BUILDDIR/backends/seatbelt/happy-agent-supervisor-sbpl-print"
[ -x "$PRINT" ] || { fail "$PRINT not built"; finish; }

WS=$(cd "$(make_workspace)" && pwd -P)
mkdir -p "$WS/real"
ln -s real "$WS/link"

run_print() {
    (cd "$WS" && "$PRINT" "$@") >"$T_TMP/out" 2>"$T_TMP/err"
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

run_print "$(policy workspace_write false false "\"deniedReadPaths\":[\"$WS/link\"]")"
expect_rc 0 "profile printed"
expect_out '^\(deny default\)$' "deny by default"
expect_out "\\(subpath \"$WS\"\\)" "the working directory is the writable root"
expect_out "\\(require-not \\(subpath \"$WS/real\"\\)\\)" "a denied symlink is denied at its target"
expect_out "\\(require-not \\(subpath \"$WS/link\"\\)\\)" "and under its own name"

run_print '{"mode":"workspace_write","network":{"egress":true,"localBinding":false,"outgoingProxy":{"frontEnds":["http","socks5"]}}}' 41080 41081
expect_rc 0 "proxy profile printed"
expect_out '\(remote ip "localhost:41081"\)' "both front-end ports"

run_print "$(policy full_access true true)"
expect_rc 0 "full_access"
expect_out 'no profile' "full_access installs nothing"

run_print '{"mode":"nope"}'
expect_rc 125 "invalid policy"
expect_one_line_error "invalid policy"

finish
