#!/bin/bash
# tests/seatbelt/darwin.sh — the Seatbelt backend against the real binary.
# Runs on macOS only (registered under HOST_DARWIN).  UNVERIFIED: written
# without a Mac; its first run is the check listed in
# backends/seatbelt/README.md, "What is unverified".  bash 3.2 compatible.
. "$HAS_SRCDIR/tests/lib.sh"

[ "$(uname -s)" = Darwin ] || skip "not macOS"

# A canonical workspace (TMPDIR is under /var -> /private/var).
WS=$(cd "$(make_workspace)" && pwd -P)
SECRET=$(cd "$T_TMP" && pwd -P)/secret
mkdir -p "$WS/.git" "$WS/gen" "$SECRET"
echo key >"$SECRET/id"
echo cfg >"$WS/.git/config"
HOSTILE='a")(allow default)(deny file-read* (literal "'
mkdir -p "$WS/$HOSTILE"

denials="\"deniedReadPaths\":[\"$SECRET\"],\"deniedWritePaths\":[\"$WS/.git\",\"$WS/gen/out\",\"$WS/a\\\")(allow default)(deny file-read* (literal \\\"\"]"
POL=$(policy workspace_write false false "$denials")

in_ws() { cd "$WS" && run_sup "$@"; cd - >/dev/null; }

in_ws "$POL" -- /bin/sh -c 'echo hi >new && cat new'
expect_rc 0 "write in the workspace"
expect_out '^hi$' "write in the workspace"

in_ws "$POL" -- /bin/sh -c "echo x >'$T_TMP/outside'"
expect_rc 1 "write outside every root"

in_ws "$POL" -- /bin/sh -c 'echo x >>.git/config'
expect_rc 1 "write under a write-denied path"

in_ws "$POL" -- /bin/sh -c 'echo x >gen/out'
expect_rc 1 "first-time creation of a write-denied path"
[ ! -e "$WS/gen/out" ] && ok "gen/out was not created" || fail "gen/out was created"

in_ws "$POL" -- /bin/mv gen gen2
expect_rc 1 "rename of a denied path's parent"

in_ws "$POL" -- /bin/sh -c "echo x >'$HOSTILE/f'"
expect_rc 1 "write under a hostile-named write-denied path"

in_ws "$POL" -- /bin/cat "$SECRET/id"
expect_rc 1 "read of a read-denied path"

in_ws "$POL" -- /bin/cat /etc/hosts
expect_rc 0 "read elsewhere"

in_ws "$POL" -- /usr/bin/sudo -n true
[ "$RC" != 0 ] && ok "sudo does not run (exit $RC)" || fail "sudo ran"

in_ws "$POL" -- /bin/sh -c 'exit 7'
expect_rc 7 "exit status reproduced"

in_ws "$POL" -- /bin/sh -c 'kill -TERM $$'
expect_rc 143 "death by signal reproduced"

in_ws "$POL" -- /usr/bin/nc -z -G 2 1.1.1.1 443
[ "$RC" != 0 ] && ok "egress false: no connection" || fail "egress false: connected"

if /usr/bin/nc -z -G 2 1.1.1.1 443 2>/dev/null; then
    in_ws "$(policy workspace_write true false)" -- /usr/bin/nc -z -G 2 1.1.1.1 443
    expect_rc 0 "egress true: connection"
    in_ws "$(policy workspace_write true false)" -- /usr/bin/dscacheutil -q host -a name apple.com
    expect_out 'ip_address' "egress true: name resolution"
else
    echo "# no network on this host: egress checks not run"
fi

# Profiles do not nest: refused with a clear message, unless full_access.
cd "$WS"
/usr/bin/sandbox-exec -p '(version 1)(allow default)' "$SUPERVISOR" --policy "$POL" -- /usr/bin/true \
    >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
RC=$? ERR=$(cat "$T_TMP/err")
expect_rc 125 "inside an existing sandbox"
expect_err 'already running inside a Seatbelt sandbox' "inside an existing sandbox"
expect_one_line_error "inside an existing sandbox"
/usr/bin/sandbox-exec -p '(version 1)(allow default)' "$SUPERVISOR" \
    --policy "$(policy full_access true true)" -- /usr/bin/true >/dev/null 2>&1 </dev/null
RC=$?
expect_rc 0 "full_access inside an existing sandbox"
cd - >/dev/null

finish
