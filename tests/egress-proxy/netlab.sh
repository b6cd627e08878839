# shellcheck shell=bash
# tests/egress-proxy/netlab.sh — the network lab of the proxy's suites,
# sourced first thing by a test script (before tests/lib.sh).
#
# The test re-runs itself in a network and mount namespace of its own (as
# root; unprivileged, in a user namespace too, then once more in a nested
# one mapping the caller's uid back, so the supervisor runs unprivileged).
# There, "public" addresses on lo stand for the origins, and a DNS server
# of the lab's own (Debian's dnsmasq on 127.0.0.1:53) names them: the lab's
# names are in no hosts file (/etc/hosts holds only localhost), so the
# egress process resolves them through DNS exactly as on a host, and all
# traffic stays in the namespace.
#
#   LAB_ADDRS       addresses put on lo (set before sourcing)
#   lab_names TEXT  the DNS server's names, hosts-file syntax; takes effect
#                   before it returns
#   lab_nameserver ADDR
#                   point the lab's resolv.conf at ADDR (127.0.0.1: the
#                   lab's dnsmasq again)
if [ -z "${NETLAB:-}" ]; then
    for tool in unshare ip dnsmasq; do
        command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin
        command -v "$tool" >/dev/null || { echo "SKIP - needs $tool (util-linux, iproute2, dnsmasq-base)"; exit 77; }
    done
    if [ "$(id -u)" = 0 ]; then
        exec env NETLAB=1 unshare --net --mount --propagation private -- "$0" "$@"
    fi
    exec env NETLAB=1 LAB_UID="$(id -u)" LAB_GID="$(id -g)" \
        unshare --user --map-root-user --net --mount --propagation private -- "$0" "$@"
fi
# lab_query NAME...: the lab's DNS server's first A answer for each NAME
# ("-" for none, "!" when the server did not answer), one per line.
lab_query() {
    python3 - "$(sed -n 's/^nameserver //p' /etc/resolv.conf)" "$@" <<'PY'
import socket, struct, sys
server = sys.argv[1]
for name in sys.argv[2:]:
    q = struct.pack(">HHHHHH", 0x4242, 0x0100, 1, 0, 0, 0)
    q += b"".join(bytes([len(l)]) + l.encode() for l in name.split(".")) + b"\0" + struct.pack(">HH", 1, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.3)
    try:
        s.sendto(q, (server, 53))
        r = s.recv(4096)
        ok = struct.unpack(">H", r[6:8])[0] and r[-6:-4] == b"\0\4"
        print(socket.inet_ntoa(r[-4:]) if ok else "-")
    except OSError:
        print("!")
PY
}

if [ "$NETLAB" = 1 ]; then
    PATH=$PATH:/usr/sbin
    LAB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/has-netlab.XXXXXX") || exit 1
    chmod 755 "$LAB_DIR"
    echo "127.0.0.1 localhost" >"$LAB_DIR/hosts"
    echo "nameserver 127.0.0.1" >"$LAB_DIR/resolv.conf"
    : >"$LAB_DIR/names"
    chmod 644 "$LAB_DIR/hosts" "$LAB_DIR/resolv.conf" "$LAB_DIR/names"
    ip link set lo up &&
        for a in ${LAB_ADDRS:-}; do ip addr add "$a/32" dev lo || exit 1; done &&
        mount --bind "$LAB_DIR/hosts" /etc/hosts &&
        mount --bind "$LAB_DIR/resolv.conf" /etc/resolv.conf &&
        echo 0 >/proc/sys/net/ipv4/ip_unprivileged_port_start ||
        { echo "FAIL - cannot set up the test's network lab"; rm -rf "$LAB_DIR"; exit 1; }
    # The lab's DNS server: only the names file, nothing forwarded anywhere
    # (--local=/#/: every other name is NXDOMAIN, as a real server answers).
    # It keeps the ids it starts with: an empty --group skips its
    # setgroups(), which a user namespace without a gid map of its own refuses.
    dnsmasq --keep-in-foreground --conf-file=/dev/null --user=root --group= --pid-file= \
        --listen-address=127.0.0.1 --bind-interfaces --port=53 --no-resolv --local=/#/ --no-hosts \
        --addn-hosts="$LAB_DIR/names" --no-negcache --log-facility="$LAB_DIR/dnsmasq.log" &
    LAB_DNS_PID=$!
    export LAB_DIR LAB_DNS_PID
    # Ready when it answers (a SIGHUP before its handler is set kills it).
    for _ in $(seq 100); do
        [ "$(lab_query ready.lab.invalid)" != "!" ] && break
        kill -0 "$LAB_DNS_PID" 2>/dev/null || break
        sleep 0.05
    done
    [ "$(lab_query ready.lab.invalid)" != "!" ] ||
        { echo "FAIL - the lab's DNS server did not start ($(tail -3 "$LAB_DIR/dnsmasq.log" 2>/dev/null))"; exit 1; }
    if [ -n "${LAB_UID:-}" ]; then
        exec env NETLAB=2 unshare --user --map-user="$LAB_UID" --map-group="$LAB_GID" -- "$0" "$@"
    fi
    NETLAB=2
fi

lab_names() {
    printf '%s\n' "$1" >"$LAB_DIR/names"
    kill -HUP "$LAB_DNS_PID" 2>/dev/null
    local want got _
    # dnsmasq re-reads the file on SIGHUP; wait until it answers from it.
    want=$(printf '%s\n' "$1" | awk 'NF >= 2 && $1 ~ /^[0-9.]+$/ {print $1}')
    for _ in $(seq 50); do
        # shellcheck disable=SC2046 # one argument per name
        got=$(lab_query $(printf '%s\n' "$1" | awk 'NF >= 2 && $1 ~ /^[0-9.]+$/ {print $2}'))
        [ "$got" = "$want" ] && return 0
        sleep 0.1
    done
    echo "FAIL - the lab's DNS server does not serve its names (log: $(tail -3 "$LAB_DIR/dnsmasq.log" 2>/dev/null))"
    exit 1
}

lab_nameserver() {
    echo "nameserver $1" >"$LAB_DIR/resolv.conf"
}

netlab_cleanup() {
    kill "$LAB_DNS_PID" 2>/dev/null
    rm -rf "$LAB_DIR"
}
