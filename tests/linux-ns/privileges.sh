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
# The caller's own ids inside (a root caller stays 0): tools that refuse
# to run as root (initdb, Chromium) work, and 0 is not mapped for anyone else.
me=$(id -u) grp=$(id -g)
expect_out "^Uid:[[:space:]]+${me}[[:space:]]+${me}[[:space:]]+${me}[[:space:]]+$me\$" "the caller's uid inside (every uid field)"
expect_out "^Gid:[[:space:]]+${grp}[[:space:]]+${grp}[[:space:]]+${grp}[[:space:]]+$grp\$" "the caller's gid inside (every gid field)"
run_sup "$P" -- sh -c 'id -u; id -g'
if [ "$OUT" = "$me
$grp" ]; then ok "id -u / id -g inside equal the caller's ($me / $grp)"
else fail "id -u / id -g inside: $OUT, the caller is $me / $grp"; fi
run_sup "$P" -- cat /proc/self/uid_map
expect_out "^ +$me +$me +1\$" "uid map: the caller's uid to itself, one id only"
run_sup "$P" -- cat /proc/self/gid_map
expect_out "^ +$grp +$grp +1\$" "gid map: the caller's gid to itself, one id only"
run_sup "$P" -- "$ATTACK" rewrite-maps
expect_rc 0 "setgroups, rewriting uid_map, gid_map, setgroups: all refused"
if ! is_root; then # a root caller is 0 already (root-caller.sh)
    run_sup "$P" -- "$ATTACK" become-root
    expect_rc 0 "setuid(0), setresuid(0,0,0), setgid(0), setresgid(0,0,0): all refused"
fi
run_sup "$P" -- sh -c 'touch made-inside && stat -c %u:%g made-inside'
expect_out "^$me:$grp\$" "a file made inside a writable root belongs to the caller"
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
