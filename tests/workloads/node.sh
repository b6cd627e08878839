#!/usr/bin/env bash
# Workload matrix: Node under the recommended policy: npm install of a
# local tarball (npm pack of a tiny package with a bin), offline with the
# npm cache in the workspace, npm test, and npx of the package's bin.
. "$HAS_SRCDIR/tests/lib.sh"
require_tool node nodejs
require_tool npm npm
require_tool npx npm
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"

PKG="$WL_ROOT/wl-tiny"
mkdir -p "$PKG/bin"
printf '{"name":"wl-tiny","version":"1.0.0","main":"index.js","bin":{"wl-tiny":"bin/wl-tiny.js"},"license":"MIT"}\n' >"$PKG/package.json"
echo 'module.exports = () => 42;' >"$PKG/index.js"
printf '#!/usr/bin/env node\nconsole.log("wl-tiny bin " + require("..")());\n' >"$PKG/bin/wl-tiny.js"
chmod +x "$PKG/bin/wl-tiny.js"
(cd "$PKG" && HOME=$T_TMP npm_config_cache=$T_TMP/npm-cache npm pack --silent --pack-destination "$WL_ROOT" \
    >/dev/null 2>"$T_TMP/pack.err") || { echo "npm pack failed: $(cat "$T_TMP/pack.err")"; exit 1; }

entry() {
    wl_workspace "node-$1"
    printf '{"name":"app","version":"1.0.0","private":true,"scripts":{"test":"node test.js"}}\n' >package.json
    printf 'const a = require("assert"); a.strictEqual(require("wl-tiny")(), 42); console.log("npm-test-passed");\n' >test.js
    wl_run "$1" "$(wl_policy "$1")" "set -e
export npm_config_cache=\$PWD/.npm-cache npm_config_update_notifier=false
npm install --offline --no-audit --no-fund --silent $WL_ROOT/wl-tiny-1.0.0.tgz
npm test --silent
npx --offline wl-tiny"
    wl_expect_ok "$1: npm install of a local tarball, npm test, npx" &&
        expect_out '^npm-test-passed$' "$1: npm test passed" &&
        expect_out '^wl-tiny bin 42$' "$1: npx ran the local bin"
    [ -f "$WS/node_modules/wl-tiny/index.js" ] && ok "$1: node_modules in the workspace" || fail "$1: no node_modules"
}
wl_matrix node entry
finish
