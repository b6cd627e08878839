#!/bin/bash
# network.sh — egress off: the host's loopback listeners (TCP, UDP) and
# abstract unix sockets are unreachable, lo works inside; egress on: the
# host listener is reachable.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

"$PY" "$NS_PY/sock_server.py" "$T_TMP/ready" &
server=$!
trap 'kill $server 2>/dev/null; ns_cleanup' EXIT
for _ in $(seq 100); do [ -s "$T_TMP/ready" ] && break; sleep 0.05; done
read -r tcp udp abstract <"$T_TMP/ready" || { fail "listener did not start"; finish; }
CLIENT="$NS_PY/sock_client.py"

# Controls: the listeners answer on the host.
for kind in "tcp $tcp" "udp $udp" "abstract $abstract"; do
    "$PY" "$CLIENT" $kind >/dev/null
    if [ $? = 0 ]; then ok "control: host $kind reachable from the host"; else fail "control: host $kind unreachable"; fi
done

ws=$(outside_dir)
cd "$ws" || exit 1
OFF=$(policy workspace_write false false)
OFF_BIND=$(policy workspace_write false true)
ON=$(policy workspace_write true false)

run_sup "$OFF" -- "$PY" "$CLIENT" tcp "$tcp"
expect_rc 1 "egress off: host TCP listener on 127.0.0.1 unreachable"
run_sup "$OFF" -- "$PY" "$CLIENT" udp "$udp"
expect_rc 1 "egress off: host UDP echo on 127.0.0.1 unreachable"
run_sup "$OFF" -- "$PY" "$CLIENT" abstract "$abstract"
expect_rc 1 "egress off: host abstract unix socket unreachable"
run_sup "$OFF" -- sh -c 'cat /proc/net/dev | grep -c :'
expect_out '^1$' "egress off: only lo in the network namespace"
# The workload creates the network namespace and the init joins it (netns.c):
# /proc/PID/net needs no ptrace right, so an init left in the host's
# namespace would show the host's interfaces and sockets here.
grep -q "@$abstract" /proc/net/unix && [ "$(grep -c : /proc/net/dev)" -gt 1 ] \
    && ok "control: the host shows its interfaces and the abstract socket" \
    || fail "control: host /proc/net lacks an interface besides lo or the abstract socket"
run_sup "$OFF" -- sh -c 'echo "$(grep -c : /proc/1/net/dev) $(grep -c "@$0" /proc/1/net/unix)"' "$abstract"
expect_out '^1 0$' "egress off: the init (PID 1) is in the sandbox's network namespace too"
run_sup "$OFF_BIND" -- "$ATTACK" bind-ok
expect_rc 0 "egress off, localBinding true: lo is up and usable"

run_sup "$ON" -- "$PY" "$CLIENT" tcp "$tcp"
expect_rc 0 "egress on: host TCP listener reachable"
run_sup "$ON" -- "$PY" "$CLIENT" udp "$udp"
expect_rc 0 "egress on: host UDP reachable"

# With egress on there is no network namespace: the connect() check refuses
# every abstract address, with or without Landlock's scope (Linux >= 6.12).
NO_LANDLOCK=("$HAS_BUILDDIR/tests/linux-ns/helpers/without_syscalls" landlock_create_ruleset)
run_sup "$ON" -- "$PY" "$CLIENT" abstract "$abstract"
expect_rc 1 "egress on: host abstract socket unreachable"
"${NO_LANDLOCK[@]}" "$SUPERVISOR" --policy "$ON" -- "$PY" "$CLIENT" abstract "$abstract" >/dev/null 2>&1
RC=$?
expect_rc 1 "egress on, Landlock unavailable: host abstract socket unreachable"
own_abstract='import os, socket
name = "\0has-own-%s" % os.urandom(8).hex()  # getpid() is 2 in every sandbox
s = socket.socket(socket.AF_UNIX); s.bind(name); s.listen(1)
c = socket.socket(socket.AF_UNIX)
try:
    c.connect(name); print("own-reached")
except OSError as e:
    print("own-refused:", e.strerror)'
run_sup "$OFF_BIND" -- "$PY" -c "$own_abstract"
expect_out '^own-reached$' "egress off: the sandbox's own abstract socket works (its own namespace)"
run_sup "$(policy workspace_write true true)" -- "$PY" -c "$own_abstract"
expect_out '^own-refused: Connection refused$' "egress on: abstract addresses are the host's, the sandbox's own refused too (documented)"
finish
