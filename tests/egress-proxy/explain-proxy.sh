#!/bin/bash
# tests/egress-proxy/explain-proxy.sh — --explain's verdicts on host:port
# destinations are what the proxy does, on both Linux backends and both
# front-ends: a destination it calls allowed is reached through the proxy
# (the origin answers), and one it calls refused is refused, with a
# refusal-report line naming the same rule (allowedHosts, address-class,
# numeric-host-spelling).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

[ "$RUNNER" = supervisor ] || skip "--explain is an option of the supervisor itself"
start_origin
# localBinding false: landlock cannot give the sandbox a loopback of its own.
POL=$(proxy_policy '"http","socks5"' "\"127.0.0.1:$ORIGIN_PORT\",\"localhost\",\"*.invalid\"" |
      sed 's/"localBinding":true/"localBinding":false/')
# Allowed literal; a listed host on another port; a host not listed; a name
# that resolves inward; a numeric spelling; a listed name that does not resolve.
DESTS=("127.0.0.1:$ORIGIN_PORT" "127.0.0.1:$DIGEST_PORT" "blocked.example:80" "localhost:$ORIGIN_PORT"
       "2130706433:$ORIGIN_PORT" "nothing.invalid:80")

# explained BACKEND: "verdict rule" per destination (rule: the token in
# "refuses it (RULE)", "-" when allowed).
explained() {
    local args=() d
    for d in "${DESTS[@]}"; do args+=(--connect-to "$d"); done
    "$SUPERVISOR" --explain=json --sandbox "$1" --policy "$POL" "${args[@]}" | "$PY" -c 'import json, re, sys
for v in json.load(sys.stdin)["verdicts"]:
    m = re.match(r"the proxy refuses it \(([A-Za-z-]+)\)", v["rule"])
    print(v["verdict"], m.group(1) if m else "-")'
}

# ran BACKEND FRONTEND: the same destinations for real, "allowed|refused|failed"
# each, and the report's rules in $T_TMP/report.
ran() {
    local script="" d
    for d in "${DESTS[@]}"; do
        if [ "$2" = http ]; then
            script+="$PY $CLIENTS raw-http 'GET http://$d/hello HTTP/1.1\\r\\nHost: $d\\r\\nProxy-Authorization: Basic AUTH\\r\\nConnection: close\\r\\n\\r\\n' | head -n 1;"
        else
            script+="$PY $CLIENTS socks '${d%:*}' domain '${d##*:}' | head -n 1;"
        fi
    done
    "$SUPERVISOR" --sandbox "$1" --refusal-report 3 --policy "$POL" -- /bin/sh -c "$script" 3>"$T_TMP/report" 2>"$T_TMP/err" |
        sed -e 's/^HTTP\/1.1 200.*/allowed/' -e 's/^REPLY 0$/allowed/' -e 's/^HTTP\/1.1 403.*/refused/' -e 's/^REPLY 2$/refused/' \
            -e 's/^HTTP\/1.1 502.*/failed/' -e 's/^REPLY [0-9]*$/failed/'
}

ran_any=0
for backend in linux-ns landlock; do
    if ! why=$("$SUPERVISOR" --sandbox "$backend" --policy "$POL" -- /bin/true 2>&1); then
        echo "# $backend cannot run the proxy here: $why"
        continue
    fi
    ran_any=1
    said=$(explained "$backend") || { fail "$backend: --explain failed"; continue; }
    want=$'allowed -\nrefused allowedHosts\nrefused allowedHosts\nrefused address-class\nrefused numeric-host-spelling\nallowed -'
    [ "$said" = "$want" ] && ok "$backend: explain's verdicts and rules for the six destinations" ||
        fail "$backend: explain said:"$'\n'"$said"
    for fe in http socks5; do
        did=$(ran "$backend" "$fe")
        # A name that does not resolve is allowed by the policy and fails
        # upstream (502 / SOCKS 4): reached the proxy, not a refusal.
        expect=$(printf '%s\n' "$said" | awk '{print $1}' | sed '$s/allowed/failed/')
        [ "$did" = "$expect" ] && ok "$backend $fe: each destination allowed or refused as explained" ||
            fail "$backend $fe: the run did:"$'\n'"$did"$'\n'"explain said:"$'\n'"$expect"
        rules=$("$PY" -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["event"] == "egress-refused": print(e["rule"])' "$T_TMP/report")
        explained_rules=$(printf '%s\n' "$said" | awk '$1 == "refused" {print $2}')
        [ "$rules" = "$explained_rules" ] && ok "$backend $fe: the report's rules are explain's, in order" ||
            fail "$backend $fe: report rules '$rules', explain's '$explained_rules'"
    done
done
[ $ran_any = 1 ] || sandbox_unavailable "no Linux backend runs the proxy here"
finish
