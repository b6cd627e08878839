#!/bin/bash
# The egress process ends with the workload, and when it is killed in the
# middle of a transfer the workload gets a connection error (never a hang)
# while the supervisor still reproduces the workload's own status.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

start_origin
O="127.0.0.1:$ORIGIN_PORT"
POL=$(proxy_policy '"http"' '"127.0.0.1"')

launch() { sbx_bg "$T_TMP/out" "$POL" "$@"; }

# 1. Killed mid-transfer.
launch /bin/sh -c "curl -sS -o /dev/null 'http://$O/trickle'; echo curl=\$?; exit 42"
EG=$(egress_pid_of "$SUP")
if [ -z "$EG" ]; then fail "egress process not found"; else
    sleep 1
    kill -KILL "$EG"
    waited=0
    while kill -0 "$SUP" 2>/dev/null && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$SUP" 2>/dev/null; then
        fail "the workload hung after the egress process was killed"
        kill -KILL "$SUP"
    else
        ok "the workload ended within $((waited / 10)) s of the egress process being killed"
    fi
    wait "$SUP"
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$OUT
    expect_rc 42 "the supervisor reproduces the workload's status"
    if printf '%s' "$OUT" | grep -Eq '^curl=(18|52|56|7)$'; then ok "curl saw a connection error ($(printf "%s" "$OUT" | grep "^curl="))"; else fail "curl did not see an error: $OUT $ERR"; fi
fi

# 2. The egress process ends with the workload (and with a killed supervisor).
launch /bin/sleep 30
EG=$(egress_pid_of "$SUP")
kill -KILL "$SUP"
wait "$SUP" 2>/dev/null
gone=no
for _ in $(seq 50); do
    if [ -n "$EG" ] && ! kill -0 "$EG" 2>/dev/null; then gone=yes; break; fi
    sleep 0.1
done
if [ "$gone" = yes ]; then ok "the egress process dies with a killed supervisor"; else fail "egress process $EG outlived the supervisor"; fi

# 3. ... and with a workload that simply ends.
launch /bin/sleep 1
EG=$(egress_pid_of "$SUP")
wait "$SUP"
RC=$?
expect_rc 0 "a short workload's status"
gone=no
for _ in $(seq 30); do
    if [ -n "$EG" ] && ! kill -0 "$EG" 2>/dev/null; then gone=yes; break; fi
    sleep 0.1
done
if [ "$gone" = yes ]; then ok "the egress process ends with the workload"; else fail "egress process '$EG' outlived the workload"; fi

finish
