#!/usr/bin/env bash
# Workload matrix: headless Chromium (Debian's) under the recommended policy.
# - Chromium's own sandbox cannot be offered inside: it needs a nested user
#   namespace (or a setuid helper), both refused here; --no-sandbox is
#   required and the outer sandbox is the boundary.  Checked: without it,
#   Chromium does not start.
# - It binds a Unix socket (its ProcessSingleton in the profile), so it needs
#   localBinding: true, which only linux-ns gives (its own network); landlock
#   refuses localBinding: true, and Chromium aborts there: checked too.
# - It takes no credentials in --proxy-server, and bypasses the proxy for
#   loopback unless told (--proxy-bypass-list='<-loopback>'), so the page
#   served on the host's 127.0.0.1 is fetched through proxy-auth-relay.py, a
#   local forwarder inside the sandbox that adds the proxy's credentials.
. "$HAS_SRCDIR/tests/lib.sh"
require_tool chromium chromium
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"
RELAY="$HAS_SRCDIR/tests/workloads/proxy-auth-relay.py"

SITE="$WL_ROOT/site"
mkdir -p "$SITE"
echo '<html><body><p id="m">served-locally</p><script>document.getElementById("m").textContent += "-and-scripted"</script></body></html>' >"$SITE/index.html"
wl_serve "$SITE"

flags() {
    echo "--headless --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking" \
        "--disable-component-update --disable-sync --user-data-dir=$WS/profile-$1"
}

entry() {
    wl_workspace "chromium-$1"
    local url="http://127.0.0.1:$ORIGIN_PORT/index.html"
    if [ "$1" = landlock ]; then
        wl_run "$1" "$(wl_policy "$1" "$ORIGIN_PORT" true)" true
        expect_rc 125 "$1: localBinding (Chromium's singleton socket) is refused on landlock"
        wl_run "$1" "$(wl_policy "$1" "$ORIGIN_PORT")" "chromium $(flags a) --no-sandbox --dump-dom file://$SITE/index.html"
        [ "$RC" != 0 ] && printf '%s' "$ERR" | grep -q ProcessSingleton &&
            ok "$1: without localBinding Chromium aborts (ProcessSingleton): use linux-ns" ||
            fail "$1: Chromium on landlock: exit $RC (README says it aborts; update it): $OUT"
        return
    fi
    wl_run "$1" "$(wl_policy "$1" "$ORIGIN_PORT" true)" "chromium $(flags a) --dump-dom file://$SITE/index.html"
    [ "$RC" != 0 ] && ! printf '%s' "$OUT" | grep -q served-locally &&
        ok "$1: without --no-sandbox Chromium does not start (its own sandbox cannot be nested)" ||
        fail "$1: Chromium started with its own sandbox (exit $RC): update the README"
    # The relay from the workspace: the source tree may lie under /tmp,
    # which the policy's scratch hides inside (CI's unprivileged build).
    cp "$RELAY" "$WS/proxy-auth-relay.py"
    wl_run "$1" "$(wl_policy "$1" "$ORIGIN_PORT" true)" "set -e
/usr/bin/python3 $WS/proxy-auth-relay.py $WS/relay.port & relay=\$!
for i in \$(seq 200); do [ -s $WS/relay.port ] && break; sleep 0.05; done
[ -s $WS/relay.port ] || { echo 'the proxy-auth relay did not start' >&2; exit 1; }
px=\"--proxy-server=127.0.0.1:\$(cat $WS/relay.port) --proxy-bypass-list=<-loopback>\"
chromium $(flags b) --no-sandbox \$px --dump-dom $url
chromium $(flags c) --no-sandbox \$px --screenshot=$WS/shot.png --window-size=800,600 $url
kill \$relay"
    wl_expect_ok "$1: --dump-dom and --screenshot of the local page through the proxy" &&
        expect_out 'served-locally-and-scripted' "$1: the DOM after the page's script"
    [ "$(head -c 8 "$WS/shot.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        ok "$1: the screenshot is a PNG" || fail "$1: no PNG at $WS/shot.png"
}
wl_matrix chromium entry
finish
