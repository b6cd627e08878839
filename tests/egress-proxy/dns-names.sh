#!/bin/bash
# The HTTP and SOCKS5 front-ends reach names that only a DNS server knows
# (the lab's, netlab.sh: no hosts file has them), and a hostile or broken
# DNS server costs a bounded wait, a 502 that says why, and an
# "egress-failed" report line; the egress process serves on afterwards.
# allowedInternalHosts lets a listed name resolve to 10.x, never to the
# metadata address or loopback.  linux-ns and landlock (whose egress
# process is on the host's loopback).
# shellcheck disable=SC2034 # read by netlab.sh, sourced next
LAB_ADDRS="1.1.1.1 10.9.9.9 169.254.169.254"
. "$(dirname "$0")/netlab.sh"
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"
[ "$RUNNER" = supervisor ] || skip "the lab's names are for the supervisor's egress process (runner: $RUNNER)"
echo "# the supervisor runs as uid $(id -u) in the lab"

dns_cleanup() {
    [ -n "${LAB_ORIGIN_PID:-}" ] && kill "$LAB_ORIGIN_PID" 2>/dev/null
    [ -n "${HOSTILE_PID:-}" ] && kill "$HOSTILE_PID" 2>/dev/null
    netlab_cleanup
    eg_cleanup
}
trap dns_cleanup EXIT

lab_names "1.1.1.1 web.test
10.9.9.9 mirror.test
169.254.169.254 metadata.test
127.0.0.1 lo.test"
OLOG=$T_TMP/origin.log
"$PY" "$EG_DIR/lab_origin.py" "$OLOG" "$T_TMP/origin.ready" 1.1.1.1:80 1.1.1.1:8080 \
    10.9.9.9:8080 169.254.169.254:80 &
LAB_ORIGIN_PID=$!
for _ in $(seq 50); do [ -s "$T_TMP/origin.ready" ] && break; sleep 0.1; done
[ -s "$T_TMP/origin.ready" ] || { echo "FAIL - the lab's origins did not start"; exit 1; }

POL='{"mode":"read_only","network":{"egress":true,"localBinding":false,"allowedHosts":["*.test"],"outgoingProxy":{"frontEnds":["http","socks5"]}}}'
REPORT=$T_TMP/report
: >"$REPORT"
# dsbx SCRIPT: sh -c SCRIPT in the sandbox under POL (--sandbox $SANDBOX
# when set); RC, OUT, ERR; the refusal report appended to $REPORT.
dsbx() {
    "$SUPERVISOR" ${SANDBOX:+--sandbox "$SANDBOX"} --refusal-report 3 --policy "$POL" -- /bin/sh -c "$1" \
        3>>"$REPORT" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
# expect_failed_report HOST CAUSE REASON-ERE WHAT
expect_failed_report() {
    if grep -F '"event":"egress-failed"' "$REPORT" | grep -F "\"host\":\"$1\"" |
        grep -F "\"cause\":\"$2\"" | grep -qE "\"reason\":\"[^\"]*$3"; then
        ok "$4: reported (egress-failed $1 $2)"
    else fail "$4: no egress-failed line for $1 ($2, /$3/): $(cat "$REPORT")"; fi
}

# --- names only the lab's DNS server knows -------------------------------
if [ "$(lab_query web.test)" = 1.1.1.1 ] && ! grep -q web.test /etc/hosts; then
    ok "lab: web.test is 1.1.1.1 in the lab's DNS, not in /etc/hosts"
else fail "lab: web.test: $(lab_query web.test)"; fi

dsbx 'curl -sS -x "$HTTP_PROXY" http://web.test/'
expect_out '^hello from 1\.1\.1\.1:80$' "HTTP proxy: GET http://web.test/"
dsbx 'curl -sS -p -x "$HTTP_PROXY" http://web.test:8080/'
expect_out '^hello from 1\.1\.1\.1:8080$' "HTTP proxy: CONNECT web.test:8080"
dsbx 'curl -sS -x "$ALL_PROXY" http://web.test:8080/'
expect_out '^hello from 1\.1\.1\.1:8080$' "SOCKS5 with the name (socks5h): web.test:8080"

: >"$REPORT"
dsbx 'curl -sS -i -x "$HTTP_PROXY" http://gone.test/'
expect_out '^HTTP/1\.[01] 502' "a name the DNS server does not have: 502"
expect_out "cannot resolve 'gone\\.test': no such name" "the 502 says the name does not exist"
expect_failed_report gone.test name-resolution 'no such name' "the unresolvable name"
if grep -q '"event":"egress-refused"' "$REPORT"; then
    fail "an unresolvable allowed name was reported as a policy refusal: $(cat "$REPORT")"
else ok "an unresolvable allowed name is not a policy refusal"; fi

# --- the same under landlock: its egress process on the host's loopback ---
SANDBOX=landlock
dsbx 'curl -sS -x "$HTTP_PROXY" http://web.test/'
if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q 'kernel'; then
    echo "# landlock cannot run here ($ERR): its part is not checked"
else
    expect_out '^hello from 1\.1\.1\.1:80$' "landlock, HTTP proxy: GET http://web.test/"
    dsbx 'curl -sS -x "$ALL_PROXY" http://web.test:8080/'
    expect_out '^hello from 1\.1\.1\.1:8080$' "landlock, SOCKS5 with the name: web.test:8080"
    : >"$REPORT"
    dsbx 'curl -sS -i -x "$ALL_PROXY" http://gone.test/; curl -sS -i -x "$HTTP_PROXY" http://gone.test/'
    expect_out '^HTTP/1\.[01] 502' "landlock: a name the DNS server does not have: 502"
    expect_failed_report gone.test name-resolution 'no such name' "landlock: the unresolvable name"
    before=$(wc -l <"$OLOG")
    dsbx 'curl -sS --max-time 5 --noproxy "*" http://1.1.1.1:8080/'
    if [ "$RC" != 0 ] && [ "$(wc -l <"$OLOG")" = "$before" ]; then
        ok "landlock: the origin's address past the proxy is refused, and never reached"
    else fail "landlock: a direct connection to 1.1.1.1:8080: rc $RC, $OUT"; fi
fi
SANDBOX=

# --- allowedInternalHosts: a name that resolves to 10.x ------------------
IPOL='{"mode":"read_only","network":{"egress":true,"localBinding":false,"allowedHosts":["mirror.test:8080"],"allowedInternalHosts":["internal.test:8080","*.test:80"],"outgoingProxy":{"frontEnds":["http","socks5","transparent"]}}}'
ipsbx() {
    "$SUPERVISOR" ${SANDBOX:+--sandbox "$SANDBOX"} --refusal-report 3 --policy "$1" -- /bin/sh -c "$2" 3>>"$REPORT" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
: >"$REPORT"
ipsbx "$POL" 'curl -sS -i -x "$HTTP_PROXY" http://mirror.test:8080/'
expect_out '^HTTP/1\.[01] 403' "allowedHosts only: a name resolving to 10.9.9.9 is refused"
expect_out "only public addresses are reachable by name, unless the name is in network.allowedInternalHosts" \
    "the refusal says where an internal name belongs"
if grep -qx 10.9.9.9:8080 "$OLOG"; then fail "the internal origin was reached under allowedHosts"
else ok "the internal origin saw nothing under allowedHosts"; fi
lab_names "1.1.1.1 web.test
10.9.9.9 mirror.test internal.test
169.254.169.254 metadata.test
127.0.0.1 lo.test"
ipsbx "$IPOL" 'curl -sS -x "$HTTP_PROXY" http://internal.test:8080/; curl -sS -x "$ALL_PROXY" http://internal.test:8080/;
    curl -sS --noproxy "*" http://internal.test:8080/'
if [ "$(printf '%s\n' "$OUT" | grep -c '^hello from 10\.9\.9\.9:8080$')" = 3 ]; then
    ok "allowedInternalHosts: internal.test (10.9.9.9) through HTTP, SOCKS5 and the transparent front-end"
else fail "allowedInternalHosts: internal.test: $OUT $ERR"; fi
SANDBOX=landlock
ipsbx "${IPOL/,\"transparent\"/}" 'curl -sS -x "$HTTP_PROXY" http://internal.test:8080/; curl -sS -i -x "$ALL_PROXY" http://metadata.test/'
if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q 'kernel'; then
    echo "# landlock cannot run here ($ERR): its part is not checked"
else
    expect_out '^hello from 10\.9\.9\.9:8080$' "landlock, allowedInternalHosts: internal.test through HTTP"
    expect_out_lacks 'hello from 169' "landlock, allowedInternalHosts: metadata.test stays refused"
fi
SANDBOX=
: >"$REPORT"
ipsbx "$IPOL" 'for h in metadata.test lo.test; do curl -sS -i -x "$HTTP_PROXY" http://$h/ | head -1; done
    curl -sS -i -x "$HTTP_PROXY" http://mirror.test:8080/ | head -1'
if [ "$(printf '%s\n' "$OUT" | grep -c '^HTTP/1\.[01] 403')" = 3 ]; then
    ok "allowedInternalHosts: names resolving to 169.254.169.254 or 127.0.0.1 stay refused; mirror.test:8080 (allowedHosts) too"
else fail "allowedInternalHosts refusals: $OUT"; fi
for h in metadata.test lo.test; do
    if grep -F '"event":"egress-refused"' "$REPORT" | grep -F "\"host\":\"$h\"" | grep -qF '"rule":"address-class"'; then
        ok "$h: reported as an address-class refusal"
    else fail "$h: no address-class line: $(cat "$REPORT")"; fi
done
if grep -qx 169.254.169.254:80 "$OLOG"; then fail "the metadata address's origin was reached"
else ok "the metadata address's origin saw nothing"; fi
"$SUPERVISOR" --explain --policy "$IPOL" --connect-to internal.test:8080 --connect-to metadata.test:80 >"$T_TMP/explain" 2>&1
if grep -q "allowedInternalHosts entry \"internal.test:8080\"; 'internal.test' resolves here now to 10.9.9.9, a private address" "$T_TMP/explain" &&
    grep -q "metadata.test.*169.254.169.254, a link-local address, which no name reaches" "$T_TMP/explain"; then
    ok "--explain: the internal name's rule and class, the metadata name refused"
else fail "--explain: $(cat "$T_TMP/explain")"; fi

# --- a hostile DNS server --------------------------------------------------
DNSLOG=$T_TMP/dns.log
: >"$DNSLOG"
"$PY" "$EG_DIR/lab_dns.py" 127.0.0.2 "$DNSLOG" "$T_TMP/dns.ready" &
HOSTILE_PID=$!
for _ in $(seq 50); do [ -s "$T_TMP/dns.ready" ] && break; sleep 0.1; done
[ -s "$T_TMP/dns.ready" ] || { echo "FAIL - the hostile DNS server did not start"; exit 1; }
lab_nameserver 127.0.0.2

: >"$REPORT"
# All at once, in one sandbox: each is bounded by the lookup's deadline,
# and the egress process answers the good name after the bad ones.
kinds="silent wrongid garbage loop truncated nxdomain servfail"
script=
for k in $kinds; do
    script="$script (curl -sS -i -x \"\$HTTP_PROXY\" http://$k.test/ | sed 's/^/$k: /'; echo \"$k: took \$((\$(date +%s) - t0)) s\") &"
done
t0=$(date +%s)
dsbx "t0=\$(date +%s); $script wait; curl -sS -x \"\$HTTP_PROXY\" http://ok.test/; curl -sS -x \"\$HTTP_PROXY\" http://many.test:8080/"
took=$(($(date +%s) - t0))
echo "# hostile lookups, all in parallel, then two good ones: $took s"
for k in $kinds; do
    expect_out "^$k: HTTP/1\\.[01] 502" "DNS server's $k answer: 502"
    expect_out "^$k: .*cannot resolve '$k\\.test'" "DNS server's $k answer: the 502 names the name"
    expect_failed_report "$k.test" name-resolution "cannot resolve '$k.test'" "DNS server's $k answer"
    n=$(printf '%s\n' "$OUT" | sed -n "s/^$k: took \\([0-9]*\\) s$/\\1/p")
    if [ -n "$n" ] && [ "$n" -le 12 ]; then ok "DNS server's $k answer: over within ${n} s (deadline 8 s)"
    else fail "DNS server's $k answer: took ${n:-?} s"; fi
done
expect_out "^silent: .*no DNS server answered|^silent: .*deadline" "silence reads as no answer"
expect_out "^garbage: .*could not be read" "garbage reads as an unreadable answer"
expect_out "^nxdomain: .*no such name" "NXDOMAIN reads as no such name"
expect_out "^servfail: .*refused or failed" "SERVFAIL reads as a failed query"
expect_out '^hello from 1\.1\.1\.1:80$' "after them, ok.test resolves through the same DNS server"
expect_out '^hello from 1\.1\.1\.1:8080$' "a 40-address answer is used (its first address)"
if grep -q '^udp silent.test 1$' "$DNSLOG" && grep -q '^tcp truncated.test' "$DNSLOG"; then
    ok "the egress process asked the DNS server itself (UDP, and TCP after truncation)"
else fail "the DNS server's log lacks the queries: $(sort "$DNSLOG" | uniq -c | tr '\n' ';')"; fi

# A name longer than DNS allows, a label over 63 bytes: refused before or
# by the resolver, never sent.
: >"$DNSLOG"
long=$(printf 'a%.0s' $(seq 70))
dsbx "curl -sS -i -x \"\$HTTP_PROXY\" http://$long.test/"
expect_out '^HTTP/1\.[01] (400|403|502)' "a 70-byte label: refused"
if grep -q "$long" "$DNSLOG"; then fail "a 70-byte label was sent to the DNS server"; else ok "a 70-byte label never reached the DNS server"; fi

finish
