#!/bin/bash
# leaks.sh — 1,000 sequential launches leave no process, no mount (hence no
# mount namespace held open) and no descriptor behind.  (Under emulation
# fewer, at least 100: see launches in tests/lib.sh.)
# As root, tests running beside this one (make -j) mount and unmount in
# the host's namespace, which a count of its mount table would take for a
# leak: the test runs in a mount namespace of its own, a private copy into
# which nothing propagates, so the supervisor it starts is the only one
# that could leave a mount there.  (Unprivileged, nobody mounts in the
# caller's namespace at all.)
if [ "$(id -u)" = 0 ] && [ -z "${LEAKS_OWN_MNTNS:-}" ] && command -v unshare >/dev/null; then
    exec env LEAKS_OWN_MNTNS=1 unshare --mount --propagation private -- "$BASH" "$0" "$@"
fi
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/x\"],\"deniedWritePaths\":[\"$ws\"]")
mkdir "$ws/x"
marker="has-leak-$$-$RANDOM"
# The shell's descriptors, listed by a child writing to a file: inside $(...)
# or a pipeline the listing races the shell closing its own pipe ends.
list_shell_fds() {
    find /proc/$$/fd -mindepth 1 -printf '%f -> %l\n' >"$1.raw"
    sort "$1.raw" >"$1"
}
list_shell_fds "$T_TMP/fds.before"
mounts_before=$(wc -l </proc/self/mountinfo)
mntns_before=$(readlink /proc/$$/ns/mnt)
failed=0
n=$(launches 1000 100)
start=$(date +%s%N)
for i in $(seq "$n"); do
    "$SUPERVISOR" --policy "$P" -- /bin/true "$marker" </dev/null || { failed=$i; break; }
done
end=$(date +%s%N)
echo "# $n launches: $(( (end - start) / 1000000 )) ms"
if [ "$failed" = 0 ]; then ok "$n sequential launches succeeded"; else fail "launch $failed of $n failed"; fi
sleep 0.2
# The marker is in the argv of the supervisor, of its init (a clone of it)
# and of the workload: none of the three may remain.  (Other tests may run
# supervisors concurrently, hence the marker rather than the executable.)
if pgrep -f "$marker" >/dev/null; then fail "processes left: $(pgrep -af "$marker" | head -3)"
else ok "no supervisor, init or workload process left behind"; fi
list_shell_fds "$T_TMP/fds.after"
if diff_out=$(diff "$T_TMP/fds.before" "$T_TMP/fds.after"); then ok "no descriptor leaked into the caller"
else fail "the caller's descriptors changed: $(echo "$diff_out" | tr '\n' ' ')"; fi
[ "$(wc -l </proc/self/mountinfo)" = "$mounts_before" ] && ok "no mount leaked into the host namespace" || fail "host mount table changed"
[ "$(readlink /proc/$$/ns/mnt)" = "$mntns_before" ] && ok "caller's mount namespace unchanged" || fail "mount namespace changed"
finish
