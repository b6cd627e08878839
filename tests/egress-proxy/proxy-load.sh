#!/bin/bash
# Volume and concurrency through the egress proxy: a 64 MiB transfer on
# each front-end compared by hash, 200 tunnels open at once, and hostile
# clients (garbage, oversized head, slowloris, idle sockets) that must not
# slow down a concurrent good client.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

start_origin
O="127.0.0.1:$ORIGIN_PORT"
BOTH=$(proxy_policy '"http","socks5"' '"127.0.0.1"')
N=$((64 * 1024 * 1024))
WANT=$(expected_hash "$N" big)

sbx "$BOTH" /bin/sh -c "curl -sS -p 'http://$O/bytes?n=$N&seed=big' | sha256sum; curl -sS 'http://$O/bytes?n=$N&seed=big' | sha256sum; curl -sS -x \"\$ALL_PROXY\" 'http://$O/bytes?n=$N&seed=big' | sha256sum"
hashes=$(printf '%s\n' "$OUT" | awk '{print $1}' | sort | uniq -c)
if [ "$(printf '%s\n' "$OUT" | grep -c "^$WANT ")" = 3 ]; then ok "64 MiB identical by hash through CONNECT, absolute-URI and SOCKS5"
else fail "64 MiB transfers differ: want $WANT, got $hashes; $ERR"; fi

sbx "$BOTH" /bin/sh -c "$PY $CLIENTS halfclose $DIGEST_PORT http; $PY $CLIENTS halfclose $DIGEST_PORT socks"
expect_out '^HALFCLOSE http ok$' "half-close passes through a CONNECT tunnel, the way back stays open"
expect_out '^HALFCLOSE socks ok$' "half-close passes through a SOCKS5 tunnel"

sbx "$BOTH" "$PY" "$CLIENTS" concurrent 200 "$ORIGIN_PORT"
expect_rc 0 "200 concurrent tunnels"
expect_out '^OPEN 200$' "all 200 tunnels open at once"
expect_out '^GOOD 200$' "all 200 tunnels carried their bytes intact"

sbx "$BOTH" "$PY" "$CLIENTS" hostile "$ORIGIN_PORT"
expect_rc 0 "a good client is served promptly next to hostile ones ($(printf '%s' "$OUT" | grep '^GOOD'))"
expect_out '^GARBAGE HTTP/1.1 400' "garbage: 400"
expect_out '^OVERSIZED HTTP/1.1 431' "oversized head: 431"
expect_out '^SLOWLORIS closed after (9|10|11|12)s' "slowloris cut off by the handshake timeout"

# A stalled reader: back-pressure parks its transfer; the egress process
# must not spin on it (level-triggered epoll makes that an easy bug).
sbx_bg "$T_TMP/stall" "$BOTH" "$PY" "$CLIENTS" stall "$ORIGIN_PORT" 4
SPID=$SUP
for _ in $(seq 50); do grep -q STALLED "$T_TMP/stall" && break; sleep 0.1; done
EG=$(egress_pid_of "$SPID")
if [ -n "$EG" ] && grep -q STALLED "$T_TMP/stall"; then
    sleep 0.5
    a=$(awk '{print $14 + $15}' "/proc/$EG/stat")
    sleep 2
    b=$(awk '{print $14 + $15}' "/proc/$EG/stat")
    hz=$(getconf CLK_TCK)
    if [ $((b - a)) -le $((hz / 10)) ]; then ok "a stalled reader costs the egress process no CPU ($((b - a)) ticks in 2 s)"
    else fail "the egress process spins on a stalled reader: $((b - a)) ticks in 2 s"; fi
else
    fail "stalled-reader set-up failed: $(cat "$T_TMP/stall")"
fi
wait "$SPID"

finish
