#!/bin/bash
# scratch.sh — the policy's "scratch": a private, empty, bounded /tmp and
# /var/tmp owned by the caller, discarded at the end; without it /tmp stays
# read-only.  Boundaries without a mount namespace refuse it (125).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

# The workspace must not be under /tmp or /var/tmp (the scratch replaces
# them, and such a workspace is refused; checked below): the caller's home.
case "$HOME" in /tmp | /tmp/* | /var/tmp | /var/tmp/* | "") skip "HOME ($HOME) is under /tmp or /var/tmp" ;; esac
ws=$(mktemp -d "$HOME/.has-scratch-test.XXXXXX") || skip "cannot make a directory in HOME ($HOME)"
trap 'rm -rf "$ws"; ns_cleanup' EXIT
cd "$ws" || exit 1
me=$(id -u) grp=$(id -g)
N='"network":{"egress":false,"localBinding":false}'
S='"scratch":{"sizeBytes":2097152}'

# Without the field: /tmp is the host's, read-only.
run_sup "$(policy workspace_write false false)" -- sh -c 'echo x > /tmp/has-scratch-probe'
expect_err 'Read-only file system' "no scratch: a write to /tmp fails with EROFS"

# With it: empty, the caller's, 1777, writable by name, for every tool.
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c 'ls -A /tmp /var/tmp; stat -c "%n %u:%g %a" /tmp /var/tmp'
expect_rc 0 "scratch: the run succeeds"
if [ "$(printf '%s\n' "$OUT" | grep -v -e '^/' -e '^$')" = "" ]; then ok "scratch: /tmp and /var/tmp start empty"
else fail "scratch: not empty at start: $OUT"; fi
expect_out "^/tmp $me:$grp 1777\$" "scratch: /tmp belongs to the caller, mode 1777 (sticky)"
expect_out "^/var/tmp $me:$grp 1777\$" "scratch: /var/tmp belongs to the caller, mode 1777 (sticky)"
marker="has-scratch-$$-$RANDOM"
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c "
    echo data > /tmp/$marker && mkdir /tmp/d && echo y > /tmp/d/f && t=\$(mktemp) && echo \$t &&
    echo z > /var/tmp/$marker && cp /bin/true /tmp/t && /tmp/t && echo all-written"
expect_out '^all-written$' "scratch: write, mkdir, mktemp, /var/tmp, and run a program from /tmp"
expect_out '^/tmp/tmp\.' "scratch: mktemp uses /tmp"
expect_absent "/tmp/$marker" "scratch: the file written to /tmp is not on the host's /tmp"
expect_absent "/var/tmp/$marker" "scratch: the file written to /var/tmp is not on the host's /var/tmp"
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c "ls -A /tmp /var/tmp | grep -v -e '^/' -e '^\$'; true"
expect_out_lacks . "scratch: the next run starts empty again (the last one's files are gone)"

# Bounded: bytes (ENOSPC past sizeBytes), and inodes (one per 4 KiB).
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c 'head -c 3145728 /dev/zero > /tmp/big'
expect_err 'No space left on device' "scratch: a 3 MiB write into 2 MiB fails with ENOSPC"
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c 'cd /var/tmp && head -c 3145728 /dev/zero > big'
expect_err 'No space left on device' "scratch: /var/tmp is bounded too"
run_sup "{\"mode\":\"read_only\",$N,\"scratch\":{\"sizeBytes\":1048576}}" -- sh -c \
    'i=0; while [ $i -lt 300 ]; do : > /tmp/f$i || exit 9; i=$((i+1)); done'
expect_err 'No space left on device' "scratch: 300 empty files in 1 MiB (256 inodes) fail with ENOSPC"
run_sup "{\"mode\":\"read_only\",$N,\"scratch\":{}}" -- sh -c 'df -k /tmp | tail -1'
expect_out ' 262144 ' "scratch: {} is 256 MiB"

# The caller's ids: a caller that is not root cannot take another's files
# (sticky) — there is no other uid inside; what can be checked is that the
# caller owns what it makes.
run_sup "{\"mode\":\"read_only\",$N,$S}" -- sh -c 'touch /tmp/o && stat -c %u:%g /tmp/o'
expect_out "^$me:$grp\$" "scratch: files made in /tmp belong to the caller"

# Denials still win: a write-denied /tmp makes the scratch read-only.
run_sup "{\"mode\":\"read_only\",$N,$S,\"deniedWritePaths\":[\"/tmp\"]}" -- sh -c 'echo x > /tmp/x'
expect_err 'Read-only file system' "scratch + deniedWritePaths /tmp: read-only"

# What the scratch would hide is refused, not hidden.
mkdir -p "$NS_OUT_BASE/under-var-tmp"
run_sup "{\"mode\":\"read_only\",$N,$S,\"allowedWritePaths\":[\"$NS_OUT_BASE/under-var-tmp\"]}" -- true
expect_rc 125 "scratch + a writable root beneath /var/tmp: refused"
expect_err "allowedWritePaths entry $NS_OUT_BASE/under-var-tmp is at or beneath /var/tmp" "the message names the path"
expect_one_line_error "scratch + hidden writable root"
(cd "$NS_OUT_BASE/under-var-tmp" && run_sup "{\"mode\":\"workspace_write\",$N,$S}" -- true
 expect_rc 125 "scratch + a working directory beneath /var/tmp: refused"
 expect_err 'the working directory .* is at or beneath /var/tmp' "the message names the working directory"
 [ "$T_FAILED" = 0 ]) || T_FAILED=$((T_FAILED + 1))

# full_access cannot carry it; a boundary without a mount namespace refuses it.
run_sup '{"mode":"full_access","network":{"egress":true,"localBinding":true},"scratch":{}}' -- true
expect_rc 125 "scratch + full_access: refused"
expect_err '\$\.scratch: needs a sandbox' "the parser names the field"
if "$SUPERVISOR" --sandbox landlock --policy "{\"mode\":\"read_only\",$N}" -- true 2>/dev/null; then
    run_sup "{\"mode\":\"read_only\",$N,$S}" --sandbox landlock -- sh -c 'echo ran'
    expect_rc 125 "scratch under landlock: refused"
    expect_err '"scratch"' "the refusal names the field"
    expect_out_lacks ran "scratch under landlock: the target did not run"
else
    echo "# not run: landlock is not available here"
fi
ns_finish_both_mount_paths
