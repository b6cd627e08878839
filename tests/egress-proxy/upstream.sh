#!/bin/bash
# network.outgoingProxy.upstream: every allowed destination is reached
# through the caller's proxy (lab_upstream.py, in the lab of netlab.sh),
# which resolves the names itself, with credentials the workload never
# finds; the caller's NO_PROXY names go directly, with the address checks;
# the upstream's refusals are reported as its own, and a hostile upstream
# costs a bounded wait and a clear 502/504.  linux-ns (HTTP, SOCKS5,
# transparent) and landlock (HTTP, SOCKS5).
#
# web.test is 1.1.1.9 in the lab's DNS, where a canary origin logs every
# connection, and 1.1.1.1 in the upstream's own table: an answer from
# 1.1.1.1 came through the upstream, a line in the canary's log went
# around it.  far.test is known to the upstream only.
# shellcheck disable=SC2034 # read by netlab.sh, sourced next
LAB_ADDRS="1.1.1.1 1.1.1.9 10.7.7.7 10.9.9.9"
. "$(dirname "$0")/netlab.sh"
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"
[ "$RUNNER" = supervisor ] || skip "the lab is for the supervisor's egress process (runner: $RUNNER)"
echo "# the supervisor runs as uid $(id -u) in the lab"

PIDS=
up_cleanup() {
    # shellcheck disable=SC2086 # a list of pids
    [ -n "$PIDS" ] && kill $PIDS 2>/dev/null
    netlab_cleanup
    eg_cleanup
}
trap up_cleanup EXIT

lab_names "1.1.1.9 web.test banner.test blocked.test
1.1.1.1 direct.test
10.9.9.9 inner.test
10.7.7.7 proxy.corp"
# started SCRIPT READY ARGS...: a lab server, once it says it is ready.
started() {
    local ready=$2
    "$PY" "$1" "${@:3}" &
    PIDS="$PIDS $!"
    for _ in $(seq 50); do [ -s "$ready" ] && return 0; sleep 0.1; done
    echo "FAIL - $1 did not start"
    exit 1
}
OLOG=$T_TMP/origin.log
CANARY=$T_TMP/canary.log
ULOG=$T_TMP/upstream.log
HLOG=$T_TMP/hostile.log
: >"$ULOG"
PASSWORD='pa:ss@w/rd'
PASSWORD_URL='pa%3Ass%40w%2Frd'
started "$EG_DIR/lab_origin.py" "$T_TMP/o.ready" "$OLOG" "$T_TMP/o.ready" 1.1.1.1:80 1.1.1.1:8080 10.9.9.9:80
started "$EG_DIR/lab_origin.py" "$T_TMP/c.ready" "$CANARY" "$T_TMP/c.ready" 1.1.1.9:80 1.1.1.9:8080
LAB_UPSTREAM_AUTH="agent:$PASSWORD" started "$EG_DIR/lab_upstream.py" "$T_TMP/u.ready" "$ULOG" "$T_TMP/u.ready" \
    10.7.7.7:3128 proxy web.test=1.1.1.1 banner.test=1.1.1.1 far.test=1.1.1.1
for m in garbage huge silent close; do
    case $m in garbage) port=3201 ;; huge) port=3202 ;; silent) port=3203 ;; close) port=3204 ;; esac
    started "$EG_DIR/lab_upstream.py" "$T_TMP/$m.ready" "$HLOG" "$T_TMP/$m.ready" "127.0.0.1:$port" "$m"
done

REPORT=$T_TMP/report
# upol UPSTREAM [FRONT-ENDS]: a policy whose upstream is UPSTREAM (JSON).
upol() {
    printf '{"mode":"read_only","network":{"egress":true,"localBinding":false,"allowedHosts":["*.test"],"outgoingProxy":{"frontEnds":[%s],"upstream":%s}}}' \
        "${2:-\"http\",\"socks5\",\"transparent\"}" "$1"
}
GOOD=$(upol "\"http://agent:$PASSWORD_URL@10.7.7.7:3128\"")
# usbx POLICY SCRIPT [ENV...]: sh -c SCRIPT in the sandbox (--sandbox
# $SANDBOX when set), the caller's environment plus ENV; RC, OUT, ERR.
usbx() {
    local pol=$1 script=$2
    shift 2
    env "$@" "$SUPERVISOR" ${SANDBOX:+--sandbox "$SANDBOX"} --refusal-report 3 --policy "$pol" -- /bin/sh -c "$script" \
        3>>"$REPORT" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
canary_silent() {
    if [ -s "$CANARY" ]; then fail "$1: the destination was reached directly: $(sort "$CANARY" | uniq -c | tr '\n' ' ')"
    else ok "$1: nothing went around the upstream"; fi
}

# --- through the upstream, every front-end --------------------------------
: >"$REPORT"
usbx "$GOOD" 'curl -sS -x "$HTTP_PROXY" http://web.test/; curl -sS -p -x "$HTTP_PROXY" http://web.test:8080/
    curl -sS -x "$ALL_PROXY" http://web.test:8080/; curl -sS --noproxy "*" http://web.test/
    curl -sS -x "$HTTP_PROXY" http://far.test/'
[ "$(printf '%s\n' "$OUT" | grep -c '^hello from 1\.1\.1\.1:')" = 5 ] &&
    ok "HTTP GET, HTTP CONNECT, SOCKS5, transparent and an upstream-only name: all answered through the upstream" ||
    fail "through the upstream: rc $RC, $OUT $ERR"
canary_silent "the five requests"
if grep -q '^CONNECT web.test:80 auth=ok' "$ULOG" && grep -q '^CONNECT web.test:8080 auth=ok' "$ULOG" &&
    grep -q '^CONNECT far.test:80 auth=ok' "$ULOG"; then
    ok "the upstream was asked CONNECT by name, with its credentials (plain HTTP too)"
else fail "the upstream's log: $(cat "$ULOG")"; fi
if grep -v '^CONNECT' "$ULOG" | grep -q .; then fail "the upstream was sent something else than CONNECT: $(cat "$ULOG")"
else ok "only CONNECTs reached the upstream"; fi
if grep -q '"event":"egress-' "$REPORT"; then fail "allowed requests through the upstream were reported: $(cat "$REPORT")"
else ok "nothing reported for them"; fi

# --- an upstream named by the lab's DNS, and one no DNS knows --------------
: >"$REPORT"
usbx "$(upol "\"http://agent:$PASSWORD_URL@proxy.corp:3128\"" '"http"')" 'curl -sS -x "$HTTP_PROXY" http://web.test/'
expect_out '^hello from 1\.1\.1\.1:80$' "an upstream by name (proxy.corp, the lab's DNS): reached, and through it the origin"
usbx "$(upol '"http://gone.corp:3128"' '"http"')" 'curl -sS -i -x "$HTTP_PROXY" http://web.test/'
expect_out "cannot resolve the upstream proxy's host 'gone\.corp'" "an upstream name that does not resolve: said so"
if grep -F '"cause":"upstream-failed"' "$REPORT" | grep -qF '"upstream":"http://gone.corp:3128"'; then
    ok "... and reported as upstream-failed, naming the upstream"
else fail "the unresolvable upstream in the report: $(cat "$REPORT")"; fi
canary_silent "the upstream by name"

# --- the workload never finds the upstream's credentials -----------------
# shellcheck disable=SC2016 # expanded in the sandbox
FIND='env; for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr "\0" "\n" <"$f"; done 2>/dev/null
    curl -sS -v -p -x "$HTTP_PROXY" http://web.test:8080/ 2>&1'
usbx "$GOOD" "$FIND"
expect_out '^hello from 1\.1\.1\.1:8080' "the credential search ran, and its request got through"
expect_out_lacks "pa:ss|$PASSWORD_URL|agent:|10\\.7\\.7\\.7|$(printf 'agent:%s' "$PASSWORD" | base64 -w0)" \
    "neither the upstream's credentials nor its address in the environment, /proc, or the answers"
expect_out_lacks 'X-Lab-Upstream-Marker' "the upstream's own answer never reaches the workload"

# --- bytes right behind the upstream's 200 are the tunnel's ----------------
usbx "$GOOD" "echo hello-banner | $SUPERVISOR --connect banner.test 8080"
expect_out '^SSH-2\.0-lab-banner' "a banner in the same segment as the upstream's 200 reaches the client"
expect_out '^hello-banner$' "... and the tunnel then carries the client's bytes"

# --- the upstream's refusals are its own ----------------------------------
: >"$REPORT"
usbx "$GOOD" 'curl -sS -i -x "$HTTP_PROXY" http://blocked.test/'
expect_out '^HTTP/1\.[01] 502' "the upstream's 403: the client gets 502"
expect_out 'upstream proxy http://10\.7\.7\.7:3128 refused: "HTTP/1\.1 403 Forbidden"' "... saying the upstream refused"
if grep -F '"event":"egress-failed"' "$REPORT" | grep -F '"host":"blocked.test"' | grep -F '"cause":"upstream-refused"' |
    grep -qF '"upstreamStatus":403'; then ok "reported as upstream-refused, status 403"
else fail "the upstream's 403 in the report: $(cat "$REPORT")"; fi
if grep -q '"event":"egress-refused"' "$REPORT"; then fail "the upstream's refusal was reported as the sandbox's"
else ok "not reported as the sandbox's refusal"; fi
: >"$REPORT"
usbx "$(upol '"http://agent:wrong@10.7.7.7:3128"')" 'curl -sS -i -x "$HTTP_PROXY" http://web.test/'
expect_out '^HTTP/1\.[01] 502' "wrong upstream credentials: the client gets 502, not a 407 to answer"
expect_out 'refused: "HTTP/1\.1 407 Proxy Authentication Required"' "... naming the upstream's 407"
if grep -F '"cause":"upstream-refused"' "$REPORT" | grep -qF '"upstreamStatus":407'; then
    ok "reported as upstream-refused, status 407"
else fail "the upstream's 407 in the report: $(cat "$REPORT")"; fi
# The sandbox's own refusal is not the upstream's business.
: >"$ULOG"
usbx "$GOOD" 'curl -sS -i -x "$HTTP_PROXY" http://web.example/'
expect_out '^HTTP/1\.[01] 403' "a host outside allowedHosts: the sandbox's own 403"
if grep -q 'web.example' "$ULOG"; then fail "a refused host was asked of the upstream"
else ok "a refused host is never asked of the upstream"; fi

# --- a hostile or absent upstream -----------------------------------------
: >"$REPORT"
t0=$(date +%s)
for m in garbage huge silent close; do
    case $m in garbage) port=3201 ;; huge) port=3202 ;; silent) port=3203 ;; close) port=3204 ;; esac
    "$SUPERVISOR" --refusal-report 3 --policy "$(upol "\"http://127.0.0.1:$port\"" '"http"')" -- \
        /bin/sh -c 'curl -sS -i -x "$HTTP_PROXY" http://web.test/ & curl -sS -i -x "$HTTP_PROXY" http://web.test:8080/; wait' \
        3>>"$REPORT" >"$T_TMP/$m.out" 2>&1 </dev/null &
    SUPS="${SUPS:-} $!"
done
"$SUPERVISOR" --refusal-report 3 --policy "$(upol '"http://127.0.0.1:1"' '"http"')" -- \
    /bin/sh -c 'curl -sS -i -x "$HTTP_PROXY" http://web.test/' 3>>"$REPORT" >"$T_TMP/absent.out" 2>&1 </dev/null &
# shellcheck disable=SC2086 # a list of pids
wait $SUPS $!
echo "# four hostile upstreams and an absent one, in parallel: $(($(date +%s) - t0)) s"
expect_file() { # FILE ERE WHAT
    if grep -qE -- "$2" "$1"; then ok "$3"; else fail "$3: $(head -c 600 "$1")"; fi
}
expect_file "$T_TMP/garbage.out" '^HTTP/1\.[01] 502.*' "a garbage answer: 502"
expect_file "$T_TMP/garbage.out" 'did not answer as an HTTP proxy' "... saying it is no HTTP proxy"
expect_file "$T_TMP/huge.out" 'answered with a head over 16384 bytes' "endless header lines: refused at 16 KiB"
expect_file "$T_TMP/silent.out" '^HTTP/1\.[01] 504' "a silent upstream: 504"
expect_file "$T_TMP/silent.out" 'did not answer CONNECT web.test:80 within 15 s' "... after the 15 s bound"
expect_file "$T_TMP/close.out" 'closed the connection before answering' "an upstream that hangs up: said so"
expect_file "$T_TMP/absent.out" 'cannot connect to the upstream proxy http://127\.0\.0\.1:1: Connection refused' \
    "no upstream listening: said so"
for m in garbage huge silent close; do
    [ "$(grep -c '^HTTP/1\.[01] 50[24]' "$T_TMP/$m.out")" = 2 ] && ok "$m upstream: the second request is answered too" ||
        fail "$m upstream: $(head -c 600 "$T_TMP/$m.out")"
done
n=$(grep -F '"event":"egress-failed"' "$REPORT" | grep -cF '"cause":"upstream-failed"')
[ "$n" = 9 ] && ok "each of the nine reported as upstream-failed" || fail "upstream-failed lines: $n: $(cat "$REPORT")"
canary_silent "the hostile upstreams"

# --- "environment": the caller's HTTPS_PROXY and NO_PROXY ------------------
ENVPOL=$(upol '"environment"')
: >"$ULOG"
usbx "$ENVPOL" 'curl -sS -x "$HTTP_PROXY" http://web.test/; curl -sS -x "$HTTP_PROXY" http://direct.test/
    curl -sS -i -x "$HTTP_PROXY" http://inner.test/ | head -1; echo "HTTPS_PROXY=$HTTPS_PROXY NO_PROXY=$NO_PROXY"; env' \
    "HTTPS_PROXY=http://agent:$PASSWORD_URL@10.7.7.7:3128" "NO_PROXY=localhost, .direct.test,inner.test" \
    "npm_config_https_proxy=http://agent:$PASSWORD_URL@10.7.7.7:3128" "HTTPS_proxy=http://agent:$PASSWORD_URL@10.7.7.7:3128" \
    "GLOBAL_AGENT_HTTPS_PROXY=http://agent:$PASSWORD_URL@10.7.7.7:3128"
expect_out '^hello from 1\.1\.1\.1:80$' "environment: web.test through the caller's HTTPS_PROXY"
if grep -q '^CONNECT web.test:80 auth=ok' "$ULOG" && ! grep -q 'direct.test\|inner.test' "$ULOG"; then
    ok "environment: NO_PROXY's names never reach the upstream"
else fail "environment: the upstream's log: $(cat "$ULOG")"; fi
[ "$(printf '%s\n' "$OUT" | grep -c '^hello from 1\.1\.1\.1:80$')" = 2 ] &&
    ok "environment: direct.test (NO_PROXY .direct.test) reached directly" || fail "environment: $OUT"
expect_out '^HTTP/1\.[01] 403' "environment: inner.test (NO_PROXY, 10.9.9.9) directly keeps the address check"
expect_out 'HTTPS_PROXY=http://sandbox:[0-9a-f]+@127\.0\.0\.1:3128 NO_PROXY=localhost' \
    "environment: the workload's HTTPS_PROXY and NO_PROXY are the sandbox's own"
canary_silent "environment"
expect_out_lacks "$PASSWORD_URL|agent:" "environment: no other *_proxy variable carries the credentials in (npm's, global-agent's, HTTPS_proxy)"
usbx "$ENVPOL" 'curl -sS -x "$HTTP_PROXY" http://web.test/' "HTTPS_PROXY=socks5://10.7.7.7:1080"
expect_rc 125 "environment: a SOCKS HTTPS_PROXY"
expect_err "caller's HTTPS_PROXY is a SOCKS proxy, which is not supported as an upstream" "... says why"
usbx "$ENVPOL" 'curl -sS -x "$HTTP_PROXY" http://web.test/' "https_proxy=agent:$PASSWORD@10.7.7.7:3128"
expect_rc 125 "environment: an https_proxy with a raw '/' in its password"
expect_err "caller's https_proxy must have no path" "... says what is wrong"
if printf '%s' "$ERR" | grep -q "ss@w"; then fail "the error quoted the password: $ERR"; else ok "... without quoting the password"; fi
usbx "$ENVPOL" 'curl -sS -x "$HTTP_PROXY" http://web.test/' -u HTTPS_PROXY -u https_proxy -u HTTP_PROXY -u http_proxy \
    -u ALL_PROXY -u all_proxy
expect_out '^hello from 1\.1\.1\.9:80$' "environment without a proxy variable: directly, as the caller's own tools"
: >"$CANARY"

# --- the policy's URL is checked ------------------------------------------
for bad in '"https://p:3128"' '"socks5://p:1080"' '"http://p"' '"http://p:0"' '"http://p:3128/path"' \
    '"http://u:%zz@p:1"' '"http://u:%0a@p:1"' '"http://[::1:1"' '"p:3128"' '1' '""'; do
    run_raw --policy "$(upol "$bad")" -- /bin/true
    if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q 'outgoingProxy.upstream'; then ok "upstream $bad: refused (125)"
    else fail "upstream $bad: rc $RC, $ERR"; fi
done

# --- --explain: direct or through the upstream, and with which rule --------
env "HTTPS_PROXY=http://agent:$PASSWORD_URL@10.7.7.7:3128" "NO_PROXY=.direct.test" "$SUPERVISOR" --explain --policy "$ENVPOL" \
    --connect-to web.test:443 --connect-to direct.test:80 --connect-to nope.example:80 >"$T_TMP/explain" 2>&1
OUT=$(cat "$T_TMP/explain")
expect_out 'web\.test:443.*through the upstream proxy http://10\.7\.7\.7:3128 \(from HTTPS_PROXY\)' \
    "--explain: web.test:443 goes through the upstream, named without credentials"
expect_out 'direct\.test:80.*directly: NO_PROXY entry "\.direct\.test"' "--explain: direct.test:80 goes directly, by its NO_PROXY entry"
expect_out 'nope\.example:80.*refuses' "--explain: a host outside the policy is refused before any route"
expect_out_lacks "pa%3A|pa:ss|agent:" "--explain never shows the credentials"

# --- landlock: its egress process on the host's loopback --------------------
SANDBOX=landlock
LLPOL=$(upol "\"http://agent:$PASSWORD_URL@10.7.7.7:3128\"" '"http","socks5"')
usbx "$LLPOL" 'curl -sS -x "$HTTP_PROXY" http://web.test/; curl -sS -x "$ALL_PROXY" http://web.test:8080/'
if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q 'kernel'; then
    echo "# landlock cannot run here ($ERR): its part is not checked"
else
    [ "$(printf '%s\n' "$OUT" | grep -c '^hello from 1\.1\.1\.1:')" = 2 ] &&
        ok "landlock: HTTP and SOCKS5 through the upstream" || fail "landlock: $OUT $ERR"
    canary_silent "landlock"
    # The supervisor is in the workload's /proc here: its environment holds
    # the caller's HTTPS_PROXY (Landlock's ptrace scope keeps it out).
    usbx "$(upol '"environment"' '"http"')" "$FIND" "HTTPS_PROXY=http://agent:$PASSWORD_URL@10.7.7.7:3128"
    expect_out '^hello from 1\.1\.1\.1:8080' "landlock, environment: the credential search ran"
    expect_out_lacks "pa:ss|$PASSWORD_URL|agent:" "landlock, environment: the credentials are in no /proc file the workload can read"
fi
SANDBOX=

finish
