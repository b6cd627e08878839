#!/bin/bash
# leaks.sh — 1,000 sequential launches leave no process, no mount (hence no
# mount namespace held open) and no descriptor behind.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/x\"],\"deniedWritePaths\":[\"$ws\"]")
mkdir "$ws/x"
marker="has-leak-$$-$RANDOM"
fds_before=$(ls /proc/$$/fd | wc -l)
mounts_before=$(wc -l </proc/self/mountinfo)
mntns_before=$(readlink /proc/$$/ns/mnt)
failed=0
start=$(date +%s%N)
for i in $(seq 1000); do
    "$SUPERVISOR" --policy "$P" -- /bin/true "$marker" </dev/null || { failed=$i; break; }
done
end=$(date +%s%N)
echo "# 1000 launches: $(( (end - start) / 1000000 )) ms"
if [ "$failed" = 0 ]; then ok "1000 sequential launches succeeded"; else fail "launch $failed failed"; fi
sleep 0.2
# The marker is in the argv of the supervisor, of its init (a clone of it)
# and of the workload: none of the three may remain.  (Other tests may run
# supervisors concurrently, hence the marker rather than the executable.)
if pgrep -f "$marker" >/dev/null; then fail "processes left: $(pgrep -af "$marker" | head -3)"
else ok "no supervisor, init or workload process left behind"; fi
[ "$(ls /proc/$$/fd | wc -l)" = "$fds_before" ] && ok "no descriptor leaked into the caller" || fail "descriptor count changed"
[ "$(wc -l </proc/self/mountinfo)" = "$mounts_before" ] && ok "no mount leaked into the host namespace" || fail "host mount table changed"
[ "$(readlink /proc/$$/ns/mnt)" = "$mntns_before" ] && ok "caller's mount namespace unchanged" || fail "mount namespace changed"
finish
