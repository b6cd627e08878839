#!/bin/bash
# The transparent front-end end to end: clients with no proxy settings
# resolve allowed names inside the sandbox and reach them through the
# relay; everything else is refused and reported, and never reaches an
# origin.
#
# The lab (netlab.sh): a network namespace of the test's own, "public"
# addresses on lo for the origins, and a DNS server of its own that names
# them, so the egress process resolves the real names exactly as on a host.
# shellcheck disable=SC2034 # read by netlab.sh, sourced next
LAB_ADDRS="1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 1.1.1.5 1.1.1.6 10.9.9.9"
. "$(dirname "$0")/netlab.sh"
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"
[ "$RUNNER" = supervisor ] || skip "the transparent front-end needs linux-ns (runner: $RUNNER)"
echo "# the supervisor runs as uid $(id -u) in the lab"

lab_cleanup() {
    [ -n "${LAB_ORIGIN_PID:-}" ] && kill "$LAB_ORIGIN_PID" 2>/dev/null
    [ -n "${SSHD_PID:-}" ] && kill "$SSHD_PID" 2>/dev/null
    # SIGINT: a fast shutdown (SIGTERM would wait for clients).
    [ -n "${PG_PID:-}" ] && kill -INT "$PG_PID" 2>/dev/null && wait "$PG_PID" 2>/dev/null
    netlab_cleanup
    eg_cleanup
}
trap lab_cleanup EXIT

LABC="$EG_DIR/lab_clients.py"
# lap WHAT: print how long WHAT took (since the previous lap).
LAP_T=$(date +%s%N)
lap() {
    local now
    now=$(date +%s%N)
    echo "# $1: $(( (now - LAP_T) / 1000000 )) ms"
    LAP_T=$now
}
write_hosts() {
    lab_names "127.0.0.1 localhost
1.1.1.1 origin.test denied.test
1.1.1.2 ssh.test
1.1.1.4 pg.test
$1 rebind.test
1.1.1.5 web.test
1.1.1.6 a.pool.test
10.9.9.9 private.test"
}
write_hosts 1.1.1.3

OLOG=$T_TMP/origin.log
: >"$OLOG"
"$PY" "$EG_DIR/lab_origin.py" "$OLOG" "$T_TMP/origin.ready" 1.1.1.1:8080 1.1.1.1:80 1.1.1.3:8080 \
    1.1.1.5:80 1.1.1.5:8080 1.1.1.6:80 10.9.9.9:8080 &
LAB_ORIGIN_PID=$!
for _ in $(seq 50); do [ -s "$T_TMP/origin.ready" ] && break; sleep 0.1; done
[ -s "$T_TMP/origin.ready" ] || { echo "FAIL - the lab's origins did not start"; exit 1; }
# The lab itself: the egress process will resolve and reach these.
if [ "$(lab_query origin.test)" = 1.1.1.1 ] && ! grep -q origin.test /etc/hosts &&
    "$PY" "$LABC" echo 1.1.1.1 8080 | grep -q '^echo:ping$'; then
    ok "lab: origin.test is 1.1.1.1 in the lab's DNS (not in /etc/hosts) and its origin echoes"
else fail "lab: origin.test does not resolve or answer: $(lab_query origin.test)"; fi
: >"$OLOG"

POL='{"mode":"read_only","network":{"egress":true,"localBinding":false,"allowedHosts":["origin.test:8080","ssh.test:22","private.test:8080","rebind.test:8080","web.test","*.pool.test"],"outgoingProxy":{"frontEnds":["transparent"]}}}'
# The client matrix below: PostgreSQL too, and a workspace for git to
# clone into (the working directory; a scratch /tmp would hide the test's
# key and repository).
POLC='{"mode":"workspace_write","network":{"egress":true,"localBinding":false,"allowedHosts":["origin.test:8080","ssh.test:22","pg.test:5432"],"outgoingProxy":{"frontEnds":["transparent"]}}}'
REPORT=$T_TMP/report
: >"$REPORT"
# tsbx TARGET...: run TARGET in the sandbox under POL with no proxy
# variable at all; sets RC, OUT, ERR; refusal lines go to $REPORT.
tsbx() {
    HTTP_PROXY=http://caller:1 https_proxy=http://caller:2 ALL_PROXY=socks5://caller:3 \
        "$SUPERVISOR" --refusal-report 3 --policy "$POL" -- \
        env -u HTTP_PROXY -u http_proxy -u HTTPS_PROXY -u https_proxy -u ALL_PROXY -u all_proxy "$@" \
        3>>"$REPORT" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}
# expect_report FRONTEND HOST PORT RULE WHAT: a report line with these fields.
expect_report() {
    if grep -F "\"frontEnd\":\"$1\",\"host\":\"$2\",\"port\":$3," "$REPORT" | grep -qF "\"rule\":\"$4\""; then
        ok "$5: reported ($1 $2:$3 $4)"
    else fail "$5: no report line for $1 $2:$3 $4: $(cat "$REPORT")"; fi
}
# expect_origin_lacks ADDR:PORT WHAT
expect_origin_lacks() {
    if grep -qx "$1" "$OLOG"; then fail "$2: the origin $1 was reached"; else ok "$2: the origin $1 saw nothing"; fi
}

tsbx true
if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q 'needs Linux >= 5.12'; then
    skip "this kernel lacks what the transparent front-end needs: $ERR"
fi

# --- allowed ----------------------------------------------------------------
tsbx sh -c 'env | grep -i "_proxy=" ; cat /etc/resolv.conf; getent hosts origin.test'
expect_rc 0 "getent hosts origin.test"
expect_out '^127\.64\.[0-9]+\.[0-9]+ +origin\.test$' "an allowed name resolves to a synthetic address"
expect_out_lacks '_proxy=' "no proxy variable in the workload's environment"
expect_out '^nameserver 127\.0\.0\.53$' "resolv.conf names the sandbox's resolver"
expect_out_lacks '1\.1\.1\.1' "the workload never learns the real address"

tsbx "$PY" "$LABC" echo origin.test 8080
expect_out '^echo:ping$' "python socket.create_connection to origin.test:8080 exchanges bytes"
if grep -qx 1.1.1.1:8080 "$OLOG"; then ok "the origin logged the relayed connection"; else fail "the origin saw no connection"; fi

tsbx curl -sS --noproxy '*' http://origin.test:8080/
expect_out '^hello from 1\.1\.1\.1:8080$' "curl --noproxy '*' http://origin.test:8080/"
tsbx curl -sS --noproxy '*' http://web.test/
expect_out '^hello from 1\.1\.1\.5:80$' "an entry without a port opens 80 (curl http://web.test/)"
tsbx curl -sS --noproxy '*' http://a.pool.test/
expect_out '^hello from 1\.1\.1\.6:80$' "a name a wildcard entry allows (curl http://a.pool.test/)"

# --- refused ----------------------------------------------------------------
tsbx getent hosts denied.test
if [ "$RC" != 0 ] && [ -z "$OUT" ]; then ok "a name not allowed gets no address (getent exit $RC)"
else fail "denied.test resolved: rc $RC, $OUT"; fi
expect_report dns denied.test 53 allowedHosts "a name not allowed"
tsbx curl -sS --noproxy '*' http://denied.test:8080/
expect_err 'resolve' "curl to a name not allowed cannot resolve it"
tsbx "$PY" "$LABC" query denied.test
expect_out '^rcode=3 addr=-$' "the resolver answers NXDOMAIN for it"

tsbx "$PY" "$LABC" echo web.test 8080
expect_out '^(error:ECONNRESET|closed)$' "another port of an allowed name is reset"
expect_report transparent web.test 8080 allowedHosts "another port of an allowed name"
expect_origin_lacks 1.1.1.5:8080 "another port of an allowed name"
tsbx "$PY" "$LABC" echo origin.test 9090
expect_out '^error:ECONNREFUSED$' "a port no entry names has no listener (connection refused)"

tsbx "$PY" "$LABC" echo private.test 8080
expect_out '^(error:ECONNRESET|closed)$' "an allowed name with a private address is reset"
expect_report transparent private.test 8080 address-class "an allowed name whose real address is private"
if grep -F '"host":"private.test"' "$REPORT" | grep -qF '"address":"10.9.9.9"'; then ok "the report names the refused address"
else fail "the report does not name 10.9.9.9: $(cat "$REPORT")"; fi
expect_origin_lacks 10.9.9.9:8080 "an allowed name with a private address"

# --- a hostile DNS stream ------------------------------------------------------
tsbx "$PY" "$LABC" hostile
expect_out '^answers-to-garbage=0$' "500 hostile datagrams: not one answered"
expect_out '^after:rcode=0 addr=127\.64\.' "the resolver still answers a proper query afterwards"

# --- attacks from inside ----------------------------------------------------
# The pool's slots are 127.64.0.6..21 here; a.pool.test took one above in
# its own run, so in this one every pool slot is unassigned.
tsbx "$PY" "$LABC" scan 6 24 21,22,79,80,81,443,8079,8080,8081
if printf '%s\n' "$OUT" | grep -q ' bytes$'; then fail "the scan of unassigned addresses got bytes: $(printf '%s' "$OUT" | grep ' bytes$' | head -3)"
else ok "a scan of unassigned synthetic addresses and ports: no bytes from anywhere"; fi
if [ "$(printf '%s\n' "$OUT" | grep -c ' reset$')" -gt 0 ] && [ "$(printf '%s\n' "$OUT" | grep -c ' refused$')" -gt 0 ]; then
    ok "unassigned slots are reset on relayed ports, refused by the kernel elsewhere"
else fail "scan results: $(printf '%s' "$OUT" | awk '{print $2}' | sort | uniq -c | tr '\n' ' ')"; fi
expect_report transparent 127.64.0.6 80 allowedHosts "an unassigned synthetic address"

tsbx "$PY" "$LABC" udp
expect_out '^udp 127\.64\.0\.1:8080 error-ECONNREFUSED$' "UDP to a relayed address is refused"
expect_out '^udp 127\.64\.0\.1:53 error-ECONNREFUSED$' "UDP to port 53 of a synthetic address is refused"
expect_out '^udp 1\.1\.1\.1:53 error-ENETUNREACH$' "UDP to an origin's real address has no route"
expect_out '^udp 8\.8\.8\.8:53 error-ENETUNREACH$' "UDP to a public resolver has no route"

# DNS rebinding: the real address of rebind.test turns private between two
# connections; the workload's answer never changes, the egress process
# resolves every connection itself and refuses the second.
rm -f "$T_TMP/rebound"
"$SUPERVISOR" --refusal-report 3 --policy "$POL" -- "$PY" "$LABC" rebind rebind.test 8080 "$T_TMP/rebound" \
    3>>"$REPORT" >"$T_TMP/rebind.out" 2>&1 </dev/null &
RB=$!
for _ in $(seq 100); do grep -q . "$T_TMP/rebind.out" && break; sleep 0.1; done
write_hosts 10.9.9.9
touch "$T_TMP/rebound"
wait "$RB"
OUT=$(cat "$T_TMP/rebind.out")
if [ "$(printf '%s\n' "$OUT" | head -1)" = echo:ping ] && printf '%s\n' "$OUT" | sed -n 2p | grep -qE '^(error:ECONNRESET|closed)$'; then
    ok "rebinding: the first connection is relayed, the second (name now private) refused"
else fail "rebinding: $OUT"; fi
expect_report transparent rebind.test 8080 address-class "rebinding"
write_hosts 1.1.1.3

# --- ssh, with no ProxyCommand ---------------------------------------------------
SSHD=/usr/sbin/sshd
if have_tool "$SSHD" openssh-server && have_tool ssh openssh-client && have_tool ssh-keygen openssh-client; then
    SD=$T_TMP/ssh
    mkdir -p "$SD"
    ssh-keygen -q -t ed25519 -N '' -f "$SD/host_key" -C host
    ssh-keygen -q -t ed25519 -N '' -f "$SD/client_key" -C client
    cp "$SD/client_key.pub" "$SD/authorized_keys"
    chmod 600 "$SD/host_key" "$SD/client_key"
    SSH_USER=$(id -un)
    # shellcheck disable=SC2174 # /run exists; the mode is meant for /run/sshd only
    is_root && [ ! -d /run/sshd ] && mkdir -p -m 755 /run/sshd
    sshd_config_for "$SD" 1.1.1.2 22 "$SSH_USER" >"$SD/sshd_config"
    "$SSHD" -D -e -f "$SD/sshd_config" 2>"$SD/log" &
    SSHD_PID=$!
    for _ in $(seq 50); do grep -q 'Server listening' "$SD/log" && break; sleep 0.1; done
    if ! grep -q 'Server listening' "$SD/log"; then
        fail "sshd did not start: $(cat "$SD/log")"
    else
        tsbx ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR \
            -i "$SD/client_key" -l "$SSH_USER" ssh.test echo hello-over-ssh
        expect_out '^hello-over-ssh$' "ssh to ssh.test:22 with no ProxyCommand"
        if grep -q "Accepted publickey for $SSH_USER" "$SD/log"; then ok "sshd logged the login"
        else fail "sshd logged no login: $(tail -3 "$SD/log") / $ERR"; fi
        lap "the lab, the checks above and ssh"
        # git clone over ssh of a bare repository the test makes, into the
        # sandbox's workspace; git runs ssh itself, with no ProxyCommand.
        if have_tool git git; then
            GIT_ID=(-c user.name=lab -c user.email=lab@lab.test -c init.defaultBranch=main)
            git "${GIT_ID[@]}" init -q "$SD/work" &&
                echo "$T_TMP" >"$SD/work/marker" &&
                git -C "$SD/work" add marker &&
                git "${GIT_ID[@]}" -C "$SD/work" commit -q -m "lab commit" &&
                git clone -q --bare "$SD/work" "$SD/repo.git" ||
                fail "git: cannot make the lab's repository"
            mkdir -p "$SD/ws"
            pushd "$SD/ws" >/dev/null || exit 1
            POL=$POLC tsbx timeout 20 env GIT_SSH_COMMAND="ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -i $SD/client_key" \
                sh -c "git clone -q ssh://$SSH_USER@ssh.test$SD/repo.git clone && git -C clone log -1 --format=%s && cat clone/marker"
            popd >/dev/null || exit 1
            [ "$RC" = 0 ] || echo "# git clone: exit $RC: $ERR"
            expect_out '^lab commit$' "git clone over ssh from ssh.test:22 with no ProxyCommand"
            expect_out "^$T_TMP\$" "the clone holds the test's file"
            lap "git clone over ssh"
        fi
    fi
fi

# --- psql to a PostgreSQL at pg.test:5432 ---------------------------------------
# initdb refuses root: as root the server runs as nobody (in the
# unprivileged lab the test already runs as the caller's uid).
PGBIN=/usr/lib/postgresql/15/bin
if have_tool "$PGBIN/initdb" postgresql-15 && have_tool "$PGBIN/postgres" postgresql-15 && have_tool psql postgresql-client-15; then
    PGD=$T_TMP/pg
    mkdir -p "$PGD"
    PG_AS=()
    if is_root; then
        chown 65534:65534 "$PGD"
        chmod 755 "$T_TMP"
        PG_AS=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
    fi
    if ! timeout 30 "${PG_AS[@]}" "$PGBIN/initdb" -A trust -U lab -D "$PGD/data" >"$PGD/initdb.log" 2>&1; then
        fail "initdb failed: $(tail -3 "$PGD/initdb.log")"
    else
        # Relayed connections come from the lab's addresses, not 127.0.0.1.
        echo 'host all all 0.0.0.0/0 trust' >>"$PGD/data/pg_hba.conf"
        # timeout bounds it even if this script is killed; it passes the
        # cleanup's SIGINT on.
        timeout 300 "${PG_AS[@]}" "$PGBIN/postgres" -D "$PGD/data" -c listen_addresses=1.1.1.4 -p 5432 \
            -c unix_socket_directories="$PGD" -c logging_collector=off -c fsync=off >"$PGD/log" 2>&1 &
        PG_PID=$!
        for _ in $(seq 100); do grep -q 'ready to accept connections' "$PGD/log" && break; sleep 0.1; done
        if ! grep -q 'ready to accept connections' "$PGD/log"; then
            fail "postgres did not start: $(tail -3 "$PGD/log")"
        else
            POL=$POLC tsbx timeout 20 psql -X -tA "host=pg.test port=5432 user=lab dbname=postgres connect_timeout=10" \
                -c "select 'answer=' || 6 * 7, inet_server_addr()"
            [ "$RC" = 0 ] || echo "# psql: exit $RC: $ERR"
            expect_out '^answer=42\|1\.1\.1\.4$' "psql to pg.test:5432: a query returns its value"
        fi
    fi
    lap "postgresql"
fi

# --- a JVM HttpClient, which ignores http_proxy anyway -------------------------------
if have_tool javac openjdk-17-jdk-headless && have_tool java openjdk-17-jdk-headless; then
    JD=$T_TMP/java
    mkdir -p "$JD"
    cat >"$JD/Fetch.java" <<'JAVA'
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class Fetch {
    public static void main(String[] args) throws Exception {
        HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(args[0])).build(),
            HttpResponse.BodyHandlers.ofString());
        System.out.print(r.statusCode() + " " + r.body());
    }
}
JAVA
    if ! timeout 60 javac -d "$JD" "$JD/Fetch.java" 2>"$JD/javac.log"; then
        fail "javac failed: $(cat "$JD/javac.log")"
    else
        lap "javac"
        # -XX:-UsePerfData: no attempt at /tmp/hsperfdata_* (read-only here).
        tsbx timeout 30 java -XX:-UsePerfData -cp "$JD" Fetch http://origin.test:8080/
        [ "$RC" = 0 ] || echo "# java: exit $RC: $ERR"
        expect_out '^200 hello from 1\.1\.1\.1:8080$' "java.net.http.HttpClient to origin.test:8080"
        lap "java HttpClient"
    fi
fi

# --- nothing refused reached an origin ----------------------------------------
for o in 1.1.1.1:80 1.1.1.5:8080 10.9.9.9:8080; do
    expect_origin_lacks "$o" "over the whole test"
done

finish
