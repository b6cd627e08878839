# shellcheck shell=bash
# tests/egress-proxy/egress-lib.sh — helpers for the egress-proxy behaviour
# tests (sourced after tests/lib.sh).
#
# The origin runs on 127.0.0.1 in the host's network namespace; the
# workload reaches it only through the proxy, allowed by naming 127.0.0.1.

PY=/usr/bin/python3
EG_DIR="$HAS_SRCDIR/tests/egress-proxy"
# shellcheck disable=SC2034 # read by the test scripts that source this file
CLIENTS="$EG_DIR/clients.py"
ORIGIN_PID=

[ -x "$PY" ] || require_tool "$PY" python3 # the origin server and clients
require_tool curl curl

eg_cleanup() {
    [ -n "$ORIGIN_PID" ] && kill "$ORIGIN_PID" 2>/dev/null
    t_cleanup
}
trap eg_cleanup EXIT

# proxy_policy FRONTENDS HOSTS: e.g. proxy_policy '"http","socks5"' '"127.0.0.1"'
proxy_policy() {
    printf '{"mode":"read_only","network":{"egress":true,"localBinding":true,"allowedHosts":[%s],"outgoingProxy":{"frontEnds":[%s]}}}' "$2" "$1"
}

# The runner: the real supervisor, which needs the linux-ns backend for the
# network namespace (without it the tests skip).  For development only,
# EGRESS_TEST_HARNESS=1 runs the backend under egress_harness instead (with
# a sanitizer build, that is how the egress process's loop gets checked).
RUNNER=supervisor
# Front-end ports as the workload sees them: fixed in the sandbox's own
# network namespace, kernel-chosen on the host-loopback path.
HTTP_PORT_RE=3128
SOCKS_PORT_RE=1080
if [ "${EGRESS_TEST_PORTABLE:-0}" = 1 ]; then
    # The host-loopback path macOS uses, built for Linux as a test program
    # (there is no way to select it in the supervisor itself).
    [ -x "$HAS_BUILDDIR/tests/egress-proxy/egress_harness_portable" ] ||
        { echo "egress_harness_portable is missing from the build"; exit 1; }
    RUNNER=portable
    HARNESS="$HAS_BUILDDIR/tests/egress-proxy/egress_harness_portable"
    # shellcheck disable=SC2034 # read by the test scripts that source this file
    HTTP_PORT_RE='[0-9]+'
    # shellcheck disable=SC2034 # read by the test scripts that source this file
    SOCKS_PORT_RE='[0-9]+'
    echo "# NOTE: the portable (macOS) egress path under egress_harness_portable: host loopback, poll, copy relay"
elif [ "${EGRESS_TEST_HARNESS:-0}" = 1 ] && [ -x "$HAS_BUILDDIR/tests/egress-proxy/egress_harness" ]; then
    RUNNER=harness
    HARNESS="$HAS_BUILDDIR/tests/egress-proxy/egress_harness"
    echo "# NOTE: EGRESS_TEST_HARNESS=1: running under egress_harness, not the supervisor"
else
    probe=$("$SUPERVISOR" --policy "$(proxy_policy '"http"' '"127.0.0.1"')" -- /bin/true 2>&1 </dev/null)
    if [ $? != 0 ]; then
        if printf '%s' "$probe" | grep -q 'no enforcement backend'; then
            sandbox_unavailable "the linux-ns backend is not in this build, and the proxy needs its network namespace ($probe)"
        fi
        sandbox_require   # no sandbox at all here is a skip; a proxy that fails in one is not
        echo "the supervisor cannot run a proxy policy: $probe"
        exit 1
    fi
fi

# sbx POLICY TARGET...: run TARGET in the sandbox; sets RC, OUT, ERR.
# shellcheck disable=SC2034 # sbx sets RC, OUT, ERR for the calling test script
sbx() {
    local pol=$1
    shift
    if [ "$RUNNER" != supervisor ]; then
        "$HARNESS" "$pol" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    else
        "$SUPERVISOR" --policy "$pol" -- "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    fi
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

# sbx_bg OUTFILE POLICY TARGET...: the same, in the background; sets SUP.
# shellcheck disable=SC2034 # sbx_bg sets SUP for the calling test script
sbx_bg() {
    local out=$1 pol=$2
    shift 2
    if [ "$RUNNER" != supervisor ]; then
        "$HARNESS" "$pol" "$@" >"$out" 2>&1 </dev/null &
    else
        "$SUPERVISOR" --policy "$pol" -- "$@" >"$out" 2>&1 </dev/null &
    fi
    SUP=$!
}

# egress_pid_of PID: the egress process among PID's children -- the one
# whose resolver pool makes it multi-threaded.  Waits up to 5 s.
egress_pid_of() {
    local p _
    for _ in $(seq 50); do
        for p in $(pgrep -P "$1"); do
            if [ "$(awk '/^Threads:/ {print $2}' "/proc/$p/status" 2>/dev/null)" -gt 1 ] 2>/dev/null; then
                echo "$p"
                return
            fi
        done
        sleep 0.1
    done
}

# shellcheck disable=SC2034 # start_origin sets the ports for the calling test script
start_origin() {
    "$PY" "$EG_DIR/origin.py" "$T_TMP/origin.port" &
    ORIGIN_PID=$!
    for _ in $(seq 100); do
        [ -s "$T_TMP/origin.port" ] && break
        sleep 0.1
    done
    ORIGIN_PORT=$(cat "$T_TMP/origin.port" 2>/dev/null)
    DIGEST_PORT=$(cat "$T_TMP/origin.port.digest" 2>/dev/null)
    RECORD_PORT=$(cat "$T_TMP/origin.port.record" 2>/dev/null)
    RECORD_DIR=$T_TMP/origin.port.rec
    [ -n "$ORIGIN_PORT" ] || { echo "the origin server did not start"; exit 1; }
}

# expected_hash N SEED: what /bytes?n=N&seed=SEED hashes to.
expected_hash() {
    "$PY" -c 'import hashlib,sys
n=int(sys.argv[1]); blk=hashlib.sha256(sys.argv[2].encode()).digest()*2048
h=hashlib.sha256()
while n>0:
    c=blk[:min(n,len(blk))]; h.update(c); n-=len(c)
print(h.hexdigest())' "$1" "$2"
}

# sshd_config_for DIR ADDRESS PORT USER: an sshd configuration in DIR
# (host_key, authorized_keys there) listening on ADDRESS:PORT for USER's
# key only, printed on stdout.
sshd_config_for() {
    cat <<EOF
ListenAddress $2
Port $3
HostKey $1/host_key
PidFile $1/sshd.pid
AuthorizedKeysFile $1/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $4
LogLevel VERBOSE
EOF
}
