#!/usr/bin/env bash
# Developer builds: landlock layered inside linux-ns as a second,
# independent boundary (its module named with --backend-module, backend.h
# "Selection").  With linux-ns's read-denied masks switched off on purpose
# (HAS_TEST_SKIP_READ_DENIALS, a switch only module builds have), linux-ns
# alone lets the denied file be read -- and the landlock layer still
# refuses it.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require
sandbox_require

MODS="$HAS_BUILDDIR/backends/.libs"
NS_ONLY="$T_TMP/ns-only"
mkdir -p "$NS_ONLY" "$T_TMP/ws/deep/secret" "$T_TMP/ws/src"
ln -s "$MODS/linux-ns.so" "$MODS/egress-proxy.so" "$NS_ONLY/"
echo topsecret >"$T_TMP/ws/deep/secret/key"
chmod -R a+rwX "$T_TMP/ws"
cd "$T_TMP/ws" || exit 2
POL=$(policy workspace_write false false "\"deniedReadPaths\":[\"$T_TMP/ws/deep/secret\"]")

run_sup "$POL" --backend-dir "$NS_ONLY" -- /bin/cat deep/secret/key
expect_rc 1 "linux-ns with its masks: the denied file is refused"
HAS_TEST_SKIP_READ_DENIALS=1 run_sup "$POL" --backend-dir "$NS_ONLY" -- /bin/cat deep/secret/key
expect_out '^topsecret$' "the test switch really disables linux-ns's read-denied masks"

HAS_TEST_SKIP_READ_DENIALS=1 run_sup "$POL" --backend-dir "$NS_ONLY" --backend-module "$MODS/landlock.so" -- \
    /bin/sh -c 'cat deep/secret/key; echo layered >src/out && cat src/out; cat /proc/self/mountinfo | wc -l'
expect_out_lacks topsecret "layered: the landlock layer still refuses the read"
expect_err 'deep/secret/key: Permission denied' "layered: refused with EACCES, by Landlock"
expect_out '^layered$' "layered: the workspace stays writable"
expect_content "$T_TMP/ws/src/out" layered "the write reached the host's workspace"
run_sup "$POL" --backend-dir "$NS_ONLY" --backend-module "$MODS/landlock.so" -- /bin/sh -c 'echo x >/etc/nope'
expect_err 'Read-only file system' "layered: linux-ns's read-only view is still the first answer"
finish
