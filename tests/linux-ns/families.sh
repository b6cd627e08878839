#!/bin/bash
# families.sh — the address families a workload may create sockets of:
# AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK, every other family refused
# with EAFNOSUPPORT by socket(2) and socketpair(2) alike (AF_VSOCK, which no
# network namespace isolates, AF_PACKET, Bluetooth, ...), with egress off,
# with a proxy and with egress open, on linux-ns and on landlock (where the
# host's network narrows the four further).  Sockets are only created,
# never connected.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
sandbox_require

PROBE="$NS_PY/families.py"
# NAME=FAMILY:TYPE, a type each family takes (so that only the filter refuses it).
ALLOWED="AF_UNIX=1:1 AF_INET=2:1 AF_INET6=10:1 AF_NETLINK=16:3"
REFUSED="AF_VSOCK=40:1 AF_PACKET=17:3 AF_BLUETOOTH=31:3 AF_ALG=38:5 AF_XDP=44:3 AF_TIPC=30:5 AF_KEY=15:3
AF_CAN=29:3 AF_RDS=21:5 AF_QIPCRTR=42:2 AF_45=45:1 AF_0=0:1 AF_63=63:1"
EAFNOSUPPORT=97 EOPNOTSUPP=95

# Controls: the host itself creates some of the refused families, so the
# refusals below are the sandbox's.
"$PY" "$PROBE" $REFUSED >"$T_TMP/host"
grep -q '^AF_VSOCK socket=0 ' "$T_TMP/host" && ok "control: the host creates an AF_VSOCK socket" ||
    echo "# this kernel has no AF_VSOCK; the refused families it creates: $(grep -c ' socket=0 ' "$T_TMP/host")"
[ "$(grep -c ' socket=0 ' "$T_TMP/host")" -ge 1 ] && ok "control: the host creates a socket of a refused family" ||
    fail "control: the host creates no socket of any refused family (nothing below could fail)"

# expect_families WHAT ALLOWED-NAMES...: in $OUT, the named families are
# created by socket(2) (socketpair: AF_UNIX paired, the others EOPNOTSUPP
# from the kernel), every other one probed is EAFNOSUPPORT from both calls.
expect_families() {
    local what=$1 line name sock pair want_sock want_pair
    shift
    for line in $ALLOWED $REFUSED; do
        name=${line%%=*}
        sock=$(printf '%s\n' "$OUT" | sed -n "s/^$name socket=\([0-9]*\) .*/\1/p")
        pair=$(printf '%s\n' "$OUT" | sed -n "s/^$name .*socketpair=\([0-9]*\)$/\1/p")
        want_sock=$EAFNOSUPPORT want_pair=$EAFNOSUPPORT
        case " $* " in *" $name "*) want_sock=0 want_pair=$EOPNOTSUPP ;; esac
        [ "$name" = AF_UNIX ] && [ "$want_sock" = 0 ] && want_pair=0
        if [ "$sock" = "$want_sock" ] && [ "$pair" = "$want_pair" ]; then
            ok "$what: $name socket=$sock socketpair=$pair"
        else
            fail "$what: $name socket=${sock:-?} socketpair=${pair:-?}, expected $want_sock/$want_pair (rc $RC, $ERR)"
        fi
    done
}

OFF=$(policy workspace_write false false)
ON=$(policy workspace_write true false)
PROXY='{"mode":"workspace_write","network":{"egress":true,"localBinding":false,"allowedHosts":["example.invalid"],"outgoingProxy":{"frontEnds":["http"]}}}'
for pol in OFF PROXY ON; do
    run_sup "${!pol}" -- "$PY" "$PROBE" $ALLOWED $REFUSED
    expect_families "linux-ns, $pol" AF_UNIX AF_INET AF_INET6 AF_NETLINK
done

abi=$("$PY" -c 'import ctypes; print(ctypes.CDLL(None).syscall(444, None, 0, 1))' 2>/dev/null)
if [ "${abi:-0}" -gt 0 ] 2>/dev/null; then
    ll_run "$OFF" -- "$PY" "$PROBE" $ALLOWED $REFUSED
    expect_families "landlock, OFF" AF_UNIX
    ll_run "$PROXY" -- "$PY" "$PROBE" $ALLOWED $REFUSED
    expect_families "landlock, PROXY" AF_UNIX AF_INET AF_INET6
    ll_run "$ON" -- "$PY" "$PROBE" $ALLOWED $REFUSED
    expect_families "landlock, ON" AF_UNIX AF_INET AF_INET6 AF_NETLINK
else
    echo "# this kernel has no Landlock: the landlock backend's families not checked"
fi
finish
