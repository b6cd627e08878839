#!/bin/bash
# Real clients through the egress proxy, each run inside the sandbox against
# origins this test starts on the host's 127.0.0.1 (local_servers.py, sshd):
# curl, wget, git (smart HTTP, and ssh through `--connect`), npm, pip,
# Python's urllib and Node's fetch.  Every client runs once allowed (the
# policy names 127.0.0.1) and once refused (it does not); a refusal must be
# the proxy's -- a 403 where the client shows one, nothing at the origin, and
# a line of the refusal report (--refusal-report FD) naming the destination.
# Then the host:port rule: a policy naming only 127.0.0.1:PORT_A.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/egress-proxy/egress-lib.sh"

[ "$RUNNER" = supervisor ] || skip "real-clients.sh drives the supervisor itself (EGRESS_TEST_HARNESS / EGRESS_TEST_PORTABLE are for the other scripts)"
require_tool openssl openssl # the TLS origin's certificate
require_tool git git         # the repository, and git http-backend on the origin

SRV=$T_TMP/srv   # the origins' state: document root, repositories, certificate, logs
W=$T_TMP/w       # the sandbox's one writable directory (clones, installs, caches)
mkdir -p "$SRV/www" "$SRV/git" "$W/home" "$W/tmp"
SRV_PID=
SSHD_PID=
mx_cleanup() {
    local p
    for p in $SRV_PID $SSHD_PID; do
        kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
    done
    eg_cleanup
}
trap mx_cleanup EXIT

# --- fixtures ----------------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$SRV/key.pem" -out "$SRV/cert.pem" 2>"$T_TMP/openssl.err" ||
    { echo "openssl req failed: $(cat "$T_TMP/openssl.err")"; exit 1; }
CA=$SRV/cert.pem
echo "hello from the local origin" >"$SRV/www/hello.txt"
BODY='^hello from the local origin$'

# A repository with one commit, served bare (smart HTTP and ssh).
export GIT_CONFIG_NOSYSTEM=1
HOME=$T_TMP git -c init.defaultBranch=main init -q "$T_TMP/repo-src"
echo "hello from git" >"$T_TMP/repo-src/README"
HOME=$T_TMP git -C "$T_TMP/repo-src" add README
HOME=$T_TMP git -C "$T_TMP/repo-src" -c user.name=t -c user.email=t@t commit -qm one
HOME=$T_TMP git clone -q --bare "$T_TMP/repo-src" "$SRV/git/repo.git"
REPO=$SRV/git/repo.git

"$PY" "$EG_DIR/local_servers.py" "$SRV" 2>"$T_TMP/servers.err" &
SRV_PID=$!
for _ in $(seq 100); do
    [ -s "$SRV/ports" ] && break
    sleep 0.1
done
[ -s "$SRV/ports" ] || { echo "local_servers.py did not start: $(cat "$T_TMP/servers.err")"; exit 1; }
HP=$(awk '$1 == "http" {print $2}' "$SRV/ports")   # plain HTTP
HP2=$(awk '$1 == "http2" {print $2}' "$SRV/ports") # another plain HTTP origin (port rule)
SP=$(awk '$1 == "https" {print $2}' "$SRV/ports")  # TLS
touch "$SRV/requests.log"

# --- helpers -----------------------------------------------------------------
# pol HOSTS [FRONTENDS]: read-only but for $W.
pol() {
    printf '{"mode":"read_only","allowedWritePaths":["%s"],"network":{"egress":true,"localBinding":false,"allowedHosts":[%s],"outgoingProxy":{"frontEnds":[%s]}}}' \
        "$W" "$1" "${2:-\"http\",\"socks5\"}"
}
ALLOW=$(pol '"127.0.0.1"')
# The refused policy does not name 127.0.0.1, so the supervisor puts it in
# NO_PROXY (clients would go to the sandbox's own loopback and get a
# connection refused, not a policy decision): `deny` drops NO_PROXY inside,
# so the very destination of the allowed case reaches the proxy and is
# judged there.
DENY=$(pol '"allowed.invalid"')

# allow TARGET...: run in the sandbox under ALLOW; sets RC, OUT, ERR.
allow() {
    HOME=$W/home TMPDIR=$W/tmp sbx "$ALLOW" "$@"
}

# refused POLICY TARGET...: run with the refusal report on descriptor 3 and
# NO_PROXY removed; sets RC, OUT, ERR.
refused() {
    local p=$1
    shift
    : >"$T_TMP/report"
    HOME=$W/home TMPDIR=$W/tmp "$SUPERVISOR" --refusal-report 3 --policy "$p" -- \
        /usr/bin/env -u NO_PROXY -u no_proxy "$@" 3>"$T_TMP/report" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
}

# expect_report FRONTEND HOST PORT RULE WHAT: the report has a JSON line
# {"event":"egress-refused","frontEnd":FRONTEND,"host":HOST,"port":PORT,
# "rule":RULE}; RULE "*" = any non-empty rule; every line must be JSON.
expect_report() {
    local fe=$1 host=$2 port=$3 rule=$4 why
    shift 4
    if why=$("$PY" -c 'import json, sys
path, fe, host, port, rule = sys.argv[1:]
lines = [l for l in open(path).read().splitlines() if l.strip()]
found = False
for l in lines:
    try:
        e = json.loads(l)
    except ValueError:
        sys.exit("not JSON: " + l)
    if not isinstance(e, dict):
        sys.exit("not an object: " + l)
    r = e.get("rule")
    if (e.get("event") == "egress-refused" and e.get("frontEnd") == fe and e.get("host") == host
            and e.get("port") == int(port) and isinstance(r, str) and r and (rule == "*" or r == rule)):
        found = True
if not found:
    sys.exit("no egress-refused line for %s %s:%s rule %s in %r" % (fe, host, port, rule, lines))' \
        "$T_TMP/report" "$fe" "$host" "$port" "$rule" 2>&1); then
        ok "$*: the refusal report names $host:$port ($fe, rule ${rule/\*/present})"
    else
        fail "$*: refusal report: $why"
    fi
}

# What reached the origins since the last mark.
mark() { MARK=$(wc -l <"$SRV/requests.log"); }
since() { tail -n +"$((MARK + 1))" "$SRV/requests.log"; }
# expect_origin REGEX WHAT / expect_no_origin WHAT
expect_origin() {
    local re=$1
    shift
    if since | grep -qE -- "$re"; then ok "$*: the origin logged /$re/"
    else fail "$*: the origin did not log /$re/: $(since | tr '\n' ';')"; fi
}
expect_no_origin() {
    if [ -z "$(since)" ]; then ok "$*: nothing reached the origins"
    else fail "$*: the origins saw: $(since | tr '\n' ';')"; fi
}
# expect_fail_with REGEX WHAT: the client failed, its output matching REGEX.
expect_fail_with() {
    local re=$1
    shift
    if [ "$RC" != 0 ] && printf '%s\n%s' "$OUT" "$ERR" | grep -qE -- "$re"; then ok "$*: fails (exit $RC) with /$re/"
    else fail "$*: exit $RC, wanted a failure showing /$re/; stdout: $OUT; stderr: $ERR"; fi
}
expect_file() {
    local file=$1 re=$2
    shift 2
    if grep -qE -- "$re" "$file" 2>/dev/null; then ok "$*: $(basename "$file") matches /$re/"
    else fail "$*: $file does not match /$re/ (exit $RC; stderr: $ERR)"; fi
}

# --- curl --------------------------------------------------------------------
mark
allow curl -sS -w '\nstatus %{http_code}\n' "http://127.0.0.1:$HP/hello.txt?c=curl-http"
expect_out "$BODY" "curl http (absolute URI via HTTP_PROXY)"
expect_origin "^http GET /hello.txt\\?c=curl-http 200$" "curl http"
mark
allow curl -sS --cacert "$CA" -w '\nconnect %{http_connect}\n' "https://127.0.0.1:$SP/hello.txt?c=curl-https"
expect_out "$BODY" "curl https (CONNECT via HTTPS_PROXY, the test's CA)"
expect_out '^connect 200$' "curl https went through a CONNECT tunnel"
expect_origin "^https GET /hello.txt\\?c=curl-https 200$" "curl https"

mark
refused "$DENY" curl -sS -f -w 'status %{http_code}\n' "http://127.0.0.1:$HP/hello.txt?c=curl-http-refused"
expect_fail_with '^status 403$' "curl http, 127.0.0.1 not allowed"
expect_no_origin "curl http refused"
expect_report http 127.0.0.1 "$HP" allowedHosts "curl http refused"
mark
refused "$DENY" curl -sS --cacert "$CA" -w 'connect %{http_connect}\n' "https://127.0.0.1:$SP/hello.txt?c=curl-https-refused"
expect_fail_with '^connect 403$' "curl https, 127.0.0.1 not allowed (CONNECT refused)"
expect_no_origin "curl https refused"
expect_report http 127.0.0.1 "$SP" allowedHosts "curl https refused"

# --- wget --------------------------------------------------------------------
if have_tool wget wget; then
    mark
    allow wget -q --no-hsts -O - "http://127.0.0.1:$HP/hello.txt?c=wget-http"
    expect_out "$BODY" "wget http"
    expect_origin "^http GET /hello.txt\\?c=wget-http 200$" "wget http"
    mark
    allow wget -q --no-hsts --ca-certificate="$CA" -O - "https://127.0.0.1:$SP/hello.txt?c=wget-https"
    expect_out "$BODY" "wget https (CONNECT)"
    expect_origin "^https GET /hello.txt\\?c=wget-https 200$" "wget https"

    mark
    refused "$DENY" wget -nv --no-hsts -O - "http://127.0.0.1:$HP/hello.txt?c=wget-http-refused"
    expect_fail_with '403' "wget http refused"
    expect_no_origin "wget http refused"
    expect_report http 127.0.0.1 "$HP" allowedHosts "wget http refused"
    mark
    refused "$DENY" wget -nv --no-hsts --ca-certificate="$CA" -O - "https://127.0.0.1:$SP/hello.txt?c=wget-https-refused"
    # wget names the CONNECT reply by its reason phrase only ("Proxy
    # tunneling failed: Forbidden").
    expect_fail_with 'Forbidden|403' "wget https refused"
    expect_no_origin "wget https refused"
    expect_report http 127.0.0.1 "$SP" allowedHosts "wget https refused"
fi

# --- git over HTTP(S) ----------------------------------------------------------
mark
allow git clone -q "http://127.0.0.1:$HP/git/repo.git" "$W/clone-http"
expect_rc 0 "git clone over smart HTTP"
expect_file "$W/clone-http/README" '^hello from git$' "git clone over smart HTTP"
expect_origin '^http GET /git/repo.git/info/refs\?service=git-upload-pack 200$' "git clone http: ref discovery"
expect_origin '^http POST /git/repo.git/git-upload-pack 200$' "git clone http: upload-pack POST"
mark
# GIT_SSL_CAINFO rather than http.sslCAInfo: a caller's GIT_SSL_CAINFO
# (some machines set one to the system bundle) wins over the configuration.
GIT_SSL_CAINFO=$CA allow git clone -q "https://127.0.0.1:$SP/git/repo.git" "$W/clone-https"
expect_rc 0 "git clone over smart HTTPS (CONNECT)"
expect_file "$W/clone-https/README" '^hello from git$' "git clone over smart HTTPS"
expect_origin '^https POST /git/repo.git/git-upload-pack 200$' "git clone https"

mark
refused "$DENY" git clone -q "http://127.0.0.1:$HP/git/repo.git" "$W/clone-http-refused"
expect_fail_with 'returned error: 403' "git clone http refused"
expect_no_origin "git clone http refused"
expect_report http 127.0.0.1 "$HP" allowedHosts "git clone http refused"
mark
GIT_SSL_CAINFO=$CA refused "$DENY" git clone -q "https://127.0.0.1:$SP/git/repo.git" "$W/clone-https-refused"
expect_fail_with '403' "git clone https refused"
expect_no_origin "git clone https refused"
expect_report http 127.0.0.1 "$SP" allowedHosts "git clone https refused"

# --- npm install from a local registry -------------------------------------------
if have_tool npm npm && have_tool node nodejs; then
    mkdir -p "$T_TMP/npm-src" "$SRV/www/mx-tiny/-"
    printf '{"name":"mx-tiny","version":"1.0.0","main":"index.js","license":"MIT"}\n' >"$T_TMP/npm-src/package.json"
    echo 'module.exports = "mx-tiny from the local registry";' >"$T_TMP/npm-src/index.js"
    if (cd "$T_TMP/npm-src" && HOME=$T_TMP npm_config_cache=$T_TMP/npm-host-cache \
            npm pack --silent --pack-destination "$SRV/www/mx-tiny/-" >/dev/null 2>"$T_TMP/npm-pack.err"); then
        # The packument: what the registry answers for GET /mx-tiny.
        "$PY" -c 'import base64, hashlib, json, sys
tgz, port = sys.argv[1:]
data = open(tgz, "rb").read()
url = "http://127.0.0.1:%s/mx-tiny/-/mx-tiny-1.0.0.tgz" % port
v = {"name": "mx-tiny", "version": "1.0.0", "main": "index.js",
     "dist": {"tarball": url, "shasum": hashlib.sha1(data).hexdigest(),
              "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()}}
print(json.dumps({"name": "mx-tiny", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": v}}))' \
            "$SRV/www/mx-tiny/-/mx-tiny-1.0.0.tgz" "$HP" >"$SRV/www/mx-tiny/index.json"
        NPM=(npm install --registry "http://127.0.0.1:$HP/" --cache "$W/npm-cache" --no-audit --no-fund
             --no-update-notifier --fetch-retries=0 --fetch-timeout=20000)
        mark
        allow "${NPM[@]}" --prefix "$W/npm" mx-tiny
        expect_rc 0 "npm install from the local registry"
        expect_file "$W/npm/node_modules/mx-tiny/index.js" 'mx-tiny from the local registry' "npm install"
        expect_origin '^http GET /mx-tiny 200$' "npm install: packument"
        expect_origin '^http GET /mx-tiny/-/mx-tiny-1.0.0.tgz 200$' "npm install: tarball"

        mark
        refused "$DENY" "${NPM[@]}" --prefix "$W/npm-refused" mx-tiny
        expect_fail_with '403|E403' "npm install refused (so npm did use the proxy)"
        expect_no_origin "npm install refused"
        expect_report http 127.0.0.1 "$HP" allowedHosts "npm install refused"
    else
        fail "npm pack of the test package: $(cat "$T_TMP/npm-pack.err")"
    fi
fi

# --- pip install from a local simple index ------------------------------------------
if have_tool /usr/bin/pip3 python3-pip; then
    mkdir -p "$SRV/www/packages" "$SRV/www/simple/mx-tiny"
    # A minimal wheel, by hand (PEP 427): the module, METADATA, WHEEL, RECORD.
    "$PY" -c 'import base64, hashlib, sys, zipfile
out = sys.argv[1]
files = {"mx_tiny/__init__.py": "VALUE = \"mx-tiny from the local index\"\n",
         "mx_tiny-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: mx-tiny\nVersion: 1.0\n",
         "mx_tiny-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
rec = ""
for n, t in files.items():
    d = base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b"=").decode()
    rec += "%s,sha256=%s,%d\n" % (n, d, len(t.encode()))
rec += "mx_tiny-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(out, "w") as z:
    for n, t in files.items():
        z.writestr(n, t)
    z.writestr("mx_tiny-1.0.dist-info/RECORD", rec)' "$SRV/www/packages/mx_tiny-1.0-py3-none-any.whl"
    WHL_SHA=$(sha256sum "$SRV/www/packages/mx_tiny-1.0-py3-none-any.whl" | cut -d' ' -f1)
    printf '<!DOCTYPE html><html><body><a href="/packages/mx_tiny-1.0-py3-none-any.whl#sha256=%s">mx_tiny-1.0-py3-none-any.whl</a></body></html>\n' \
        "$WHL_SHA" >"$SRV/www/simple/mx-tiny/index.html"
    # Debian's pip (not a pyenv one): /usr/bin/python3 -m pip.  --isolated:
    # no PIP_* variables or user configuration of the caller (e.g. a
    # PIP_FIND_LINKS); -vv: pip names the proxy it uses, and a refused
    # index page's status (quieter, it only says "No matching distribution").
    PIP=(/usr/bin/python3 -m pip install --isolated -vv --disable-pip-version-check --no-cache-dir
         --retries 0 --timeout 20 --index-url "http://127.0.0.1:$HP/simple")
    mark
    allow "${PIP[@]}" --target "$W/pip" mx-tiny
    expect_rc 0 "pip install from the local simple index"
    expect_out "^http://127\\.0\\.0\\.1:3128 \"GET http://127\\.0\\.0\\.1:$HP/simple/mx-tiny/ HTTP/1\\.1\" 200" \
        "pip fetched the index page through the http front-end"
    out=$(PYTHONPATH=$W/pip "$PY" -c 'import mx_tiny; print(mx_tiny.VALUE)' 2>&1)
    if [ "$out" = "mx-tiny from the local index" ]; then ok "pip install: the installed module imports"
    else fail "pip install: import mx_tiny: $out (pip: $ERR)"; fi
    expect_origin '^http GET /simple/mx-tiny/ 200$' "pip install: index page"
    expect_origin '^http GET /packages/mx_tiny-1.0-py3-none-any.whl 200$' "pip install: wheel"

    mark
    refused "$DENY" "${PIP[@]}" --target "$W/pip-refused" mx-tiny
    expect_fail_with "Could not fetch URL http://127\\.0\\.0\\.1:$HP/simple/mx-tiny/: 403" "pip install refused"
    expect_no_origin "pip install refused"
    expect_report http 127.0.0.1 "$HP" allowedHosts "pip install refused"
fi

# --- Python urllib -----------------------------------------------------------
URLLIB='import ssl, sys, urllib.error, urllib.request
ctx = ssl.create_default_context(cafile=sys.argv[2])
try:
    sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=20, context=ctx).read().decode())
except urllib.error.HTTPError as e:
    print("HTTPError", e.code, e.headers.get("X-Happy-Agent-Supervisor-Refused-By"))
    sys.exit(1)
except urllib.error.URLError as e:
    print("URLError", e.reason)
    sys.exit(1)'
mark
allow "$PY" -c "$URLLIB" "http://127.0.0.1:$HP/hello.txt?c=urllib-http" "$CA"
expect_out "$BODY" "python urllib http (env proxy)"
expect_origin "^http GET /hello.txt\\?c=urllib-http 200$" "python urllib http"
mark
allow "$PY" -c "$URLLIB" "https://127.0.0.1:$SP/hello.txt?c=urllib-https" "$CA"
expect_out "$BODY" "python urllib https (CONNECT)"
expect_origin "^https GET /hello.txt\\?c=urllib-https 200$" "python urllib https"
mark
refused "$DENY" "$PY" -c "$URLLIB" "http://127.0.0.1:$HP/hello.txt?c=urllib-refused" "$CA"
expect_fail_with '^HTTPError 403 allowedHosts$' "python urllib http refused"
expect_no_origin "python urllib refused"
expect_report http 127.0.0.1 "$HP" allowedHosts "python urllib refused"

# --- Node fetch --------------------------------------------------------------
# Node's fetch uses HTTP_PROXY only with NODE_USE_ENV_PROXY=1 (the
# supervisor sets it) and only from Node 22.19 / 24; release/ensure-node
# (run by tests/run-all) installs one in /opt/has-node where Debian's is older.
node_new_enough() {
    local nv nmaj nmin
    nv=$("$1" -p process.versions.node 2>/dev/null) || return 1
    IFS=. read -r nmaj nmin _ <<<"$nv"
    [ "${nmaj:-0}" -ge 24 ] || { [ "${nmaj:-0}" = 22 ] && [ "${nmin:-0}" -ge 19 ]; }
}
NODE_FETCH=
for candidate in "$(command -v node)" /opt/has-node/bin/node; do
    [ -x "$candidate" ] && node_new_enough "$candidate" && { NODE_FETCH=$candidate; break; }
done
if [ -z "$NODE_FETCH" ] && [ "${HAS_REQUIRE_TOOLS:-0}" = 1 ]; then
    fail "HAS_REQUIRE_TOOLS=1 and no Node >= 22.19 (release/ensure-node installs one in /opt/has-node)"
elif [ -z "$NODE_FETCH" ]; then
    echo "# not run: node fetch through the proxy: no Node >= 22.19 (NODE_USE_ENV_PROXY needs it)"
else
    FETCH='fetch(process.argv[1]).then(async r => { const t = await r.text();
  if (r.status !== 200) { console.log("status " + r.status); process.exit(1); } process.stdout.write(t); },
  e => { console.log("error " + (e.cause ? e.cause.message : e.message)); process.exit(1); })'
    # The supervisor's own NODE_USE_ENV_PROXY=1, not one given here.
    mark
    allow "$NODE_FETCH" -e "$FETCH" "http://127.0.0.1:$HP/hello.txt?c=node-fetch"
    expect_out "$BODY" "node fetch (NODE_USE_ENV_PROXY=1 from the supervisor)"
    expect_origin "^http GET /hello.txt\\?c=node-fetch 200$" "node fetch"
    mark
    refused "$DENY" "$NODE_FETCH" -e "$FETCH" "http://127.0.0.1:$HP/hello.txt?c=node-fetch-refused"
    # Node tunnels even http:// through CONNECT and turns the proxy's 403
    # into a generic error ("Request was cancelled"): the report says why.
    expect_fail_with '^(status 403|error .+)$' "node fetch refused"
    expect_no_origin "node fetch refused"
    expect_report http 127.0.0.1 "$HP" allowedHosts "node fetch refused"
fi

# --- the host:port rule ------------------------------------------------------
# A policy naming only 127.0.0.1:$HP: that port passes, another origin on
# the same host ($HP2) is refused, on both front-ends.  The proxy is named
# explicitly (-x, --noproxy ''), whatever NO_PROXY says about such entries.
PORTPOL=$(pol "\"127.0.0.1:$HP\"")
allow_port() { HOME=$W/home sbx "$PORTPOL" "$@"; }
mark
allow_port sh -c 'exec curl -sS --noproxy "" -x "$HTTP_PROXY" "$0"' "http://127.0.0.1:$HP/hello.txt?c=port-a-http"
expect_out "$BODY" "port rule: 127.0.0.1:$HP allowed, http front-end (absolute URI)"
expect_origin "^http GET /hello.txt\\?c=port-a-http 200$" "port rule, http front-end"
mark
allow_port sh -c 'exec curl -sS --noproxy "" -p -x "$HTTP_PROXY" "$0"' "http://127.0.0.1:$HP/hello.txt?c=port-a-connect"
expect_out "$BODY" "port rule: 127.0.0.1:$HP allowed, http front-end (CONNECT)"
expect_origin "^http GET /hello.txt\\?c=port-a-connect 200$" "port rule, CONNECT"
mark
allow_port sh -c 'exec curl -sS --noproxy "" -x "$ALL_PROXY" "$0"' "http://127.0.0.1:$HP/hello.txt?c=port-a-socks"
expect_out "$BODY" "port rule: 127.0.0.1:$HP allowed, socks5 front-end"
expect_origin "^http GET /hello.txt\\?c=port-a-socks 200$" "port rule, socks5"

mark
refused "$PORTPOL" sh -c 'exec curl -sS -f --noproxy "" -x "$HTTP_PROXY" -w "status %{http_code}\n" "$0"' "http://127.0.0.1:$HP2/hello.txt?c=port-b-http"
expect_fail_with '^status 403$' "port rule: 127.0.0.1:$HP2 refused, http front-end (absolute URI)"
expect_no_origin "port rule, other port, http front-end"
expect_report http 127.0.0.1 "$HP2" '*' "port rule, other port, http front-end"
mark
refused "$PORTPOL" sh -c 'exec curl -sS --noproxy "" -p -x "$HTTP_PROXY" -w "connect %{http_connect}\n" "$0"' "http://127.0.0.1:$HP2/hello.txt?c=port-b-connect"
expect_fail_with '^connect 403$' "port rule: 127.0.0.1:$HP2 refused, http front-end (CONNECT)"
expect_no_origin "port rule, other port, CONNECT"
expect_report http 127.0.0.1 "$HP2" '*' "port rule, other port, CONNECT"
mark
refused "$PORTPOL" sh -c 'exec curl -sS --noproxy "" -x "$ALL_PROXY" "$0"' "http://127.0.0.1:$HP2/hello.txt?c=port-b-socks"
# curl shows the SOCKS5 reply code: 2 = connection not allowed by ruleset.
expect_fail_with 'SOCKS5.*\(2\)' "port rule: 127.0.0.1:$HP2 refused, socks5 front-end"
expect_no_origin "port rule, other port, socks5"
expect_report socks5 127.0.0.1 "$HP2" '*' "port rule, other port, socks5"

# --- git over ssh, through `--connect` ---------------------------------------------
# A private sshd on host 127.0.0.1 (its own host key, config, authorized
# key; no PAM), reachable from the sandbox only through the proxy: the ssh
# client's ProxyCommand is the supervisor's `--connect HOST PORT`, which
# tunnels stdin/stdout through the front-end of HTTP_PROXY.  A python
# CONNECT tunnel (clients.py tunnel) runs the same clone as a control, so a
# failure of --connect is told apart from a failure of the fixture.
SSHD=/usr/sbin/sshd
if have_tool "$SSHD" openssh-server && have_tool ssh openssh-client && have_tool ssh-keygen openssh-client; then
    SD=$T_TMP/ssh
    mkdir -p "$SD"
    ssh-keygen -q -t ed25519 -N '' -f "$SD/host_key" -C host
    ssh-keygen -q -t ed25519 -N '' -f "$SD/client_key" -C client
    cp "$SD/client_key.pub" "$SD/authorized_keys"
    chmod 600 "$SD/host_key" "$SD/client_key"
    SSH_USER=$(id -un)
    # Root's sshd needs its privilege-separation directory (Debian's service
    # unit creates it at start; a container may not have it).
    # shellcheck disable=SC2174 # /run exists; the mode is meant for /run/sshd only
    is_root && [ ! -d /run/sshd ] && mkdir -p -m 755 /run/sshd
    for _try in 1 2 3; do
        SSH_PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        sshd_config_for "$SD" 127.0.0.1 "$SSH_PORT" "$SSH_USER" >"$SD/sshd_config"
        "$SSHD" -D -e -f "$SD/sshd_config" 2>"$SD/log" &
        SSHD_PID=$!
        for _ in $(seq 50); do
            grep -q 'Server listening' "$SD/log" && break
            kill -0 "$SSHD_PID" 2>/dev/null || break
            sleep 0.1
        done
        grep -q 'Server listening' "$SD/log" && break
        kill "$SSHD_PID" 2>/dev/null
        wait "$SSHD_PID" 2>/dev/null
        SSHD_PID=
    done
    if [ -z "$SSHD_PID" ]; then
        fail "sshd did not start: $(cat "$SD/log")"
    else
        SSH_URL="ssh://$SSH_USER@127.0.0.1:$SSH_PORT$REPO"
        SSH_OPTS="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -i $SD/client_key -p $SSH_PORT"
        accepted() { grep -c "Accepted publickey for $SSH_USER" "$SD/log"; }

        # The fixture, from the host directly (no sandbox, no proxy).
        HOME=$T_TMP git -c core.sshCommand="ssh $SSH_OPTS" clone -q "$SSH_URL" "$T_TMP/clone-ssh-host" 2>"$T_TMP/err"
        RC=$? ERR=$(cat "$T_TMP/err")
        expect_file "$T_TMP/clone-ssh-host/README" '^hello from git$' "fixture: the test's sshd serves the repository (host-side clone)"

        # Control: the ProxyCommand is a python CONNECT client.
        n=$(accepted)
        allow git -c core.sshCommand="ssh -o ProxyCommand='$PY $CLIENTS tunnel %h %p' $SSH_OPTS" clone -q "$SSH_URL" "$W/clone-ssh-py"
        expect_file "$W/clone-ssh-py/README" '^hello from git$' "git clone over ssh in the sandbox, ProxyCommand = python CONNECT tunnel (control)"
        if [ "$(accepted)" -gt "$n" ]; then ok "sshd logged the control's login"; else fail "sshd did not log the control's login: $(tail -5 "$SD/log")"; fi

        n=$(accepted)
        allow git -c core.sshCommand="ssh -o ProxyCommand='$SUPERVISOR --connect %h %p' $SSH_OPTS" clone -q "$SSH_URL" "$W/clone-ssh"
        expect_file "$W/clone-ssh/README" '^hello from git$' "git clone over ssh in the sandbox, ProxyCommand = $(basename "$SUPERVISOR") --connect"
        if [ "$(accepted)" -gt "$n" ]; then ok "sshd logged the --connect clone's login"; else fail "sshd did not log the --connect clone's login (stderr: $ERR)"; fi

        n=$(wc -l <"$SD/log")
        refused "$DENY" git -c core.sshCommand="ssh -o ProxyCommand='$SUPERVISOR --connect %h %p' $SSH_OPTS" clone -q "$SSH_URL" "$W/clone-ssh-refused"
        expect_fail_with '403|allowedHosts' "git clone over ssh via --connect, 127.0.0.1 not allowed"
        if [ "$(wc -l <"$SD/log")" = "$n" ]; then ok "git clone over ssh refused: sshd saw no connection"
        else fail "git clone over ssh refused: sshd saw: $(tail -n +"$((n + 1))" "$SD/log" | tr '\n' ';')"; fi
        expect_report http 127.0.0.1 "$SSH_PORT" allowedHosts "git clone over ssh via --connect refused"
        if [ -e "$W/clone-ssh-refused/README" ]; then fail "git clone over ssh refused: the clone exists"; fi
    fi
fi

finish
