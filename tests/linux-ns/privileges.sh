#!/bin/bash
# privileges.sh — zero capabilities in every set, no_new_privs, seccomp on,
# a setuid binary gains nothing, the caller's keyring is out of reach.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
P=$(policy workspace_write false false)
run_sup "$P" -- cat /proc/self/status
for set in CapInh CapPrm CapEff CapBnd CapAmb; do
    expect_out "^$set:[[:space:]]+0000000000000000$" "$set is empty"
done
expect_out '^NoNewPrivs:[[:space:]]+1$' "no_new_privs set"
expect_out '^Seccomp:[[:space:]]+2$' "seccomp filter active"
expect_out '^Uid:[[:space:]]+0[[:space:]]+0[[:space:]]+0[[:space:]]+0$' "the caller is uid 0 inside"
run_sup "$P" -- cat /proc/self/uid_map
expect_out "^ +0 +$(id -u) +1$" "uid map: caller's uid -> 0, one id only"
run_sup "$P" -- cat /proc/self/setgroups
expect_out '^deny$' "setgroups denied"

# A setuid binary: a copy of cat, setuid to the caller (setuid-root when the
# tests run as root: the strongest case, uid 0 exec without SECBIT_NOROOT
# would get every capability of the namespace back).
cp /bin/cat "$ws/suidcat" && chmod 4755 "$ws/suidcat"
run_sup "$P" -- "$ws/suidcat" /proc/self/status
expect_out '^CapEff:[[:space:]]+0000000000000000$' "setuid binary: no effective capability"
expect_out '^CapPrm:[[:space:]]+0000000000000000$' "setuid binary: no permitted capability"
# The system's setuid-root mount(8) cannot remount anything.
run_sup "$P" -- /usr/bin/mount -o remount,rw /
if [ "$RC" != 0 ]; then ok "setuid-root mount(8) cannot remount / (exit $RC)"; else fail "mount -o remount,rw / succeeded"; fi
run_sup "$P" -- sh -c 'echo x > /has-escape'
expect_absent /has-escape "still read-only after the setuid attempt"

# Keyring: the keyctl family is refused.
run_sup "$P" -- "$ATTACK" keyctl
expect_rc 0 "keyctl/add_key refused"
run_sup "$P" -- cat /proc/keys
expect_out_lacks '.' "/proc/keys is empty (masked)"
finish
