#!/bin/bash
# Strict HTTP through the http front-end, checked at the origin: a
# recording origin (origin.py) keeps every byte each connection brought, so
# each attack is judged by what the origin actually received.  The origin
# never closes first and answers every request it can frame: whatever the
# proxy lets through, it would serve.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

start_origin
[ -n "$RECORD_PORT" ] || { echo "the recording origin did not start"; exit 1; }
R="127.0.0.1:$RECORD_PORT"
POL=$(proxy_policy '"http"' '"127.0.0.1"')
AUTHZ='Proxy-Authorization: Basic AUTH\r\n'

# recorded: every byte the recording origin received so far, all connections.
recorded() {
    local f
    for f in "$RECORD_DIR"/conn-*; do [ -f "$f" ] && { cat "$f"; echo; }; done
}
connections() { ls "$RECORD_DIR" 2>/dev/null | wc -l; }
# settle: the origin writes as it reads; give the last bytes time to land.
settle() { sleep 0.3; }
# expect_recorded_once LABEL PATTERN: the origin saw PATTERN exactly once.
expect_recorded_once() {
    local n
    n=$(recorded | grep -c -- "$2")
    if [ "$n" = 1 ]; then ok "$1"; else fail "$1: the origin saw '$2' $n times: $(recorded | head -c 600)"; fi
}
# expect_never_recorded LABEL PATTERN
expect_never_recorded() {
    if recorded | grep -qi -- "$2"; then fail "$1: the origin received '$2': $(recorded | head -c 600)"; else ok "$1"; fi
}

# --- keep-alive: a second request on the connection never reaches the origin --
sbx "$POL" "$PY" "$CLIENTS" keepalive \
    "GET http://$R/one HTTP/1.1\\r\\nHost: $R\\r\\n$AUTHZ\\r\\n" \
    "GET http://$R/two HTTP/1.1\\r\\nHost: evil.example\\r\\n$AUTHZ\\r\\n"
expect_out '^FIRST HTTP/1.1 200' "keep-alive: the first request is answered"
expect_out '^SECOND (CLOSED|ConnectionResetError|BrokenPipeError)$' "keep-alive: the second request on the connection is not answered, the connection ends"
settle
expect_recorded_once "keep-alive: the origin got the first request once, origin-form" "^GET /one HTTP/1.1"
expect_never_recorded "keep-alive: the second request never reached the origin" "/two"
expect_never_recorded "keep-alive: the client's own Host never reached the origin" "evil.example"
expect_never_recorded "keep-alive: Proxy-Authorization never reached the origin" "proxy-authorization"
expect_recorded_once "the origin was told Connection: close" "^Connection: close"

# --- pipelined in one write ---------------------------------------------------
sbx "$POL" "$PY" "$CLIENTS" raw-http \
    "GET http://$R/p1 HTTP/1.1\\r\\n$AUTHZ\\r\\nGET http://$R/p2 HTTP/1.1\\r\\nHost: evil.example\\r\\n$AUTHZ\\r\\n\\r\\n"
expect_out '^HTTP/1.1 200' "pipelined: the first request is answered"
settle
expect_recorded_once "pipelined: the first request reached the origin" "^GET /p1 "
expect_never_recorded "pipelined: the second request did not" "/p2"

# --- a body is exactly its Content-Length ------------------------------------
before=$(connections)
sbx "$POL" "$PY" "$CLIENTS" raw-http \
    "POST http://$R/post HTTP/1.1\\r\\nContent-Length: 5\\r\\n$AUTHZ\\r\\nhelloGET /smuggled HTTP/1.1\\r\\nHost: $R\\r\\n\\r\\n"
expect_out '^HTTP/1.1 200' "POST with Content-Length is forwarded"
settle
last=$(ls -t "$RECORD_DIR" | head -1)
if [ "$(connections)" = $((before + 1)) ] && tail -c 9 "$RECORD_DIR/$last" | grep -q $'\r\n\r\nhello$'; then
    ok "the origin got the head and exactly the 5 body bytes, nothing after"
else fail "what the origin got for the POST: $(tail -c 200 "$RECORD_DIR/$last" | od -c | tail -5)"; fi
expect_never_recorded "bytes after the body (a smuggled request) never reached the origin" "smuggled"

# --- ambiguous framing is refused before any connection ----------------------
# refused_raw LABEL STATUS REQUEST: refused with STATUS, the origin untouched.
refused_raw() {
    local before
    before=$(connections)
    sbx "$POL" "$PY" "$CLIENTS" raw-http "$3"
    expect_out "^HTTP/1.1 $2" "$1: $2"
    settle
    if [ "$(connections)" = "$before" ]; then ok "$1: no connection to the origin"
    else fail "$1: the origin got a connection: $(recorded | tail -c 300)"; fi
}
refused_raw "Content-Length with Transfer-Encoding" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nContent-Length: 4\\r\\nTransfer-Encoding: chunked\\r\\n$AUTHZ\\r\\n0\\r\\n\\r\\n"
refused_raw "Transfer-Encoding then Content-Length" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\nContent-Length: 4\\r\\n$AUTHZ\\r\\n0\\r\\n\\r\\n"
refused_raw "two equal Content-Length fields" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nContent-Length: 4\\r\\nContent-Length: 4\\r\\n$AUTHZ\\r\\nabcd"
refused_raw "a Content-Length list" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nContent-Length: 4, 4\\r\\n$AUTHZ\\r\\nabcd"
refused_raw "a signed Content-Length" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nContent-Length: +4\\r\\n$AUTHZ\\r\\nabcd"
refused_raw "obsolete line folding" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nContent-Length: 4\\r\\n x\\r\\n$AUTHZ\\r\\nabcd"
refused_raw "a bare LF line end" 400 \
    "POST http://$R/x HTTP/1.1\\nContent-Length: 4\\r\\n$AUTHZ\\r\\nabcd"
refused_raw "a chunked body" 411 \
    "POST http://$R/x HTTP/1.1\\r\\ntransfer-encoding: chunked\\r\\n$AUTHZ\\r\\n4\\r\\nabcd\\r\\n0\\r\\n\\r\\n"
# Connection names fields the rewrite removes: naming Content-Length would
# strip the framing the proxy counts by, and the origin would read the body
# as a second request (smuggled past the proxy, with a Host of its choosing).
refused_raw "a Connection field naming Content-Length" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nConnection: content-length\\r\\nContent-Length: 37\\r\\n$AUTHZ\\r\\nGET /smuggled-cl HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
refused_raw "a Connection list naming Content-Length" 400 \
    "POST http://$R/x HTTP/1.1\\r\\nConnection: keep-alive, Content-Length\\r\\nContent-Length: 4\\r\\n$AUTHZ\\r\\nabcd"
expect_never_recorded "a body never reached the origin as a request of its own" "smuggled-cl"
refused_raw "a CONNECT with a body" 400 \
    "CONNECT $R HTTP/1.1\\r\\nContent-Length: 4\\r\\n$AUTHZ\\r\\nabcd"
sbx "$POL" "$PY" "$CLIENTS" raw-http \
    "POST http://$R/x HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n$AUTHZ\\r\\n\\r\\n"
expect_out '^HTTP/1.1 411' "411 for a chunked body"
sbx "$POL" /usr/bin/curl -sS -i -H 'Transfer-Encoding: chunked' --data-binary hello "http://$R/curl-chunked"
expect_out 'send Content-Length, or use CONNECT' "the 411 body says what to do instead"

# --- real clients on a keep-alive origin ------------------------------------
# curl reuses the connection for the second URL, the proxy refuses to serve
# it there, and curl retries on a fresh connection: both answered, and each
# request reached the origin exactly once.
sbx "$POL" /usr/bin/curl -sS "http://$R/c1" "http://$R/c2"
if [ "$RC" = 0 ] && [ "$(printf '%s\n' "$OUT" | grep -c '^recorded$')" = 2 ]; then ok "curl: two URLs on one command, both answered"
else fail "curl with two URLs: rc $RC: $OUT $ERR"; fi
settle
expect_recorded_once "curl: the first URL reached the origin once" "^GET /c1 "
expect_recorded_once "curl: the second URL reached the origin once (on its own connection)" "^GET /c2 "
sbx "$POL" /usr/bin/curl -sS --data-binary @/etc/os-release "http://$R/upload"
expect_out '^recorded$' "curl POST with a file body"
settle
if recorded | grep -q 'PRETTY_NAME'; then ok "the POST body reached the origin"; else fail "the POST body is missing at the origin"; fi

finish
