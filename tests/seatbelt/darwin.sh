#!/bin/bash
# tests/seatbelt/darwin.sh — the Seatbelt backend against the real binary.
# Runs on macOS only (registered under HOST_DARWIN).  UNVERIFIED: written
# without a Mac; its first run is the check listed in
# backends/seatbelt/README.md, "What is unverified".  bash 3.2 compatible.
# The proxy checks need /usr/bin/python3 and the TLS checks cc (both from the
# Xcode command line tools) and a network; each section says when it skips.
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

in_ws() { cd "$WS" && run_sup "$@"; cd - >/dev/null || return; }

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

# --- the outgoing proxy (host loopback, kernel-chosen ports) ---------------
# proxy_pol HOSTS [EXTRA]: workspace_write behind the http front-end.
proxy_pol() {
    printf '{"mode":"workspace_write","network":{"egress":true,"localBinding":false,"allowedHosts":[%s],"outgoingProxy":{"frontEnds":["http"]%s}}}' \
        "$1" "${2:+,$2}"
}
if /usr/bin/python3 -c 'import http.server' 2>/dev/null; then
    /usr/bin/python3 "$HAS_SRCDIR/tests/egress-proxy/origin.py" "$T_TMP/origin.port" >/dev/null 2>&1 &
    ORIGIN_PID=$!
    i=0
    while [ ! -s "$T_TMP/origin.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    OP=$(cat "$T_TMP/origin.port" 2>/dev/null)
    DP=$(cat "$T_TMP/origin.port.digest" 2>/dev/null)
    PP=$(proxy_pol "\"127.0.0.1:$OP\"")
    in_ws "$PP" -- /usr/bin/curl -sS -m 10 "http://127.0.0.1:$OP/hello"
    expect_rc 0 "proxy: the allowed origin is fetched"
    expect_out '^hello from origin$' "proxy: the allowed origin's body"
    in_ws "$PP" -- /usr/bin/curl -sS -m 10 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$DP/"
    expect_out '^403$' "proxy: another port of the same host is refused by the proxy"
    in_ws "$PP" -- /usr/bin/curl -sS -m 5 --noproxy '*' "http://127.0.0.1:$OP/hello"
    [ "$RC" != 0 ] && ok "proxy: a direct connection around the proxy fails" || fail "proxy: direct connection: $OUT"
    in_ws "$PP" -- /usr/bin/dscacheutil -q host -a name apple.com
    expect_out_lacks 'ip_address' "proxy: no name resolution inside (the proxy resolves)"
    kill "$ORIGIN_PID" 2>/dev/null
else
    echo "# no /usr/bin/python3 (Xcode command line tools): proxy checks not run"
fi

# --- certificate verification through trustd -------------------------------
# What Go's crypto/x509 does on macOS, built here with the command line tools:
# allowed with open egress, denied under a proxy unless the policy opts in.
TLS_HOST=www.apple.com
chain_ders() {
    /usr/bin/openssl s_client -showcerts -connect "$TLS_HOST:443" -servername "$TLS_HOST" \
        </dev/null 2>/dev/null >"$T_TMP/chain.txt" || return 1
    awk -v d="$T_TMP" '/BEGIN CERTIFICATE/ {n++; f = d "/cert" n ".pem"} f {print > f} /END CERTIFICATE/ {close(f); f = ""}' \
        "$T_TMP/chain.txt"
    for pem in "$T_TMP"/cert*.pem; do
        [ -f "$pem" ] || return 1
        /usr/bin/openssl x509 -in "$pem" -outform DER -out "${pem%.pem}.der" || return 1
    done
}
probe=$T_TMP/trust_probe
# shellcheck disable=SC2046 # one argument per certificate file on purpose; the names have no spaces
if /usr/bin/nc -z -G 2 "$TLS_HOST" 443 2>/dev/null &&
    /usr/bin/cc -o "$probe" "$HAS_SRCDIR/tests/seatbelt/trust_probe.c" -framework Security \
        -framework CoreFoundation 2>"$T_TMP/cc.err" && chain_ders &&
    "$probe" "$TLS_HOST" $(ls "$T_TMP"/cert*.der) >/dev/null; then
    ders=$(ls "$T_TMP"/cert*.der)
    in_ws "$(policy workspace_write true false)" -- "$probe" "$TLS_HOST" $ders
    expect_out '^trusted$' "TLS: SecTrust verifies $TLS_HOST with open egress"
    TP=$(proxy_pol "\"$TLS_HOST:443\"")
    in_ws "$TP" -- "$probe" "$TLS_HOST" $ders
    expect_out '^not trusted' "TLS: under a proxy trustd is closed by default"
    in_ws "$(proxy_pol "\"$TLS_HOST:443\"" '"allowUnproxiedCertificateFetches":true')" -- "$probe" "$TLS_HOST" $ders
    expect_out '^trusted$' "TLS: under a proxy with allowUnproxiedCertificateFetches, SecTrust verifies"
    in_ws "$TP" -- /usr/bin/curl -sS -m 20 -o /dev/null -w '%{http_code}' "https://$TLS_HOST/"
    expect_out '^[23][0-9][0-9]$' "TLS: curl over HTTPS through the proxy (its own verification)"
    in_ws "$(proxy_pol '"github.com:443"')" -- /usr/bin/git ls-remote https://github.com/git/git HEAD
    expect_out 'HEAD$' "TLS: git over HTTPS through the proxy"
else
    echo "# TLS checks not run: no network to $TLS_HOST, or no cc/openssl ($(head -1 "$T_TMP/cc.err" 2>/dev/null))"
fi

# Profiles do not nest: refused with a clear message, unless full_access.
cd "$WS" || exit 1
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
cd - >/dev/null || exit 1

finish
