#!/bin/bash
# mount-attacks.sh — undoing the mount policy from inside, and reaching the
# init or the host through /proc, ptrace and kill.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
mkdir sdir && echo SECRET-DIR > sdir/key && echo SECRET-FILE > secret.txt && mkdir ro && echo orig > ro/f
P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/sdir\",\"$ws/secret.txt\"],\"deniedWritePaths\":[\"$ws/ro\"]")

for target in "$ws/sdir" "$ws/secret.txt" "$ws/ro" / "$ws"; do
    run_sup "$P" -- "$ATTACK" mount "$target"
    expect_rc 0 "remount,rw / umount of $target (directly and from a nested user namespace)"
done
run_sup "$P" -- sh -c "mount -o remount,rw /; mount -o remount,rw '$ws/ro'; umount '$ws/sdir'; umount -l '$ws/secret.txt'; cat sdir/key secret.txt; echo x > ro/f; cat ro/f"
expect_out_lacks SECRET "masks still hide after the setuid mount/umount binaries tried"
expect_out '^orig$' "write-denied file still unchanged"
expect_content "$ws/ro/f" orig "write-denied file unchanged on the host"
run_sup "$P" -- unshare -Urm sh -c "umount '$ws/sdir'; cat '$ws/sdir/key'"
expect_out_lacks SECRET "unshare -Urm then umount of a mask"
expect_err 'unshare' "unshare(1) itself refused"

# /proc/1: the init is non-dumpable and outside the workload's reach.
run_sup "$P" -- "$ATTACK" mem1
expect_rc 0 "/proc/1/mem refused"
run_sup "$P" -- "$ATTACK" ptrace1
expect_rc 0 "ptrace of PID 1 refused"
run_sup "$P" -- sh -c 'cat /proc/1/environ; readlink /proc/1/fd/0 /proc/1/exe; cat /proc/1/maps'
expect_out_lacks '.' "/proc/1/environ, fd links, exe, maps unreadable"

# A host process: invisible in the PID namespace, cannot be killed.
sleep 300 &
victim=$!
run_sup "$P" -- "$ATTACK" kill "$victim"
expect_rc 0 "kill of a host process refused"
if kill -0 "$victim" 2>/dev/null; then ok "the host process is still alive"; else fail "the host process died"; fi
kill "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
# Control: the same attack outside the sandbox does kill.
sleep 300 &
victim=$!
"$ATTACK" kill "$victim" >/dev/null
wait "$victim" 2>/dev/null
rc=$?
if [ "$rc" = 137 ]; then ok "control: the attack kills outside the sandbox"; else fail "control: outside kill gave $rc"; fi
finish
