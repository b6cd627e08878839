#!/bin/bash
# resources.sh — what the sandbox itself creates is bounded: each tmpfs has
# a size, and repeated or nested policy paths add no mounts (the number of
# mounts is bounded by the distinct paths; 40,000 copies of one path once
# held the kernel's mount lock for most of a minute).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(make_workspace)
cd "$ws" || exit 1
P=$(policy read_only false false)

# Sizes, as the kernel reports them (df: 1K blocks).
run_sup "$P" -- sh -c 'for d in /dev /dev/shm; do df -k "$d" | awk -v d="$d" "NR==2 {print d, \$2}"; done'
expect_out '^/dev/shm 65536$' "/dev/shm is a 64 MiB tmpfs"
expect_out '^/dev 64$' "/dev is a 64 KiB tmpfs"
run_sup "$P" -- sh -c 'head -c 70M /dev/zero > /dev/shm/big; echo rc=$?; du -k /dev/shm/big | cut -f1'
expect_err 'No space left on device' "writing 70 MiB to /dev/shm stops at its size"
expect_out_lacks '^7[0-9]{4}$' "no more than the size was stored"
run_sup "$P" -- sh -c 'mkdir /tmp/x 2>&1; touch /run/x 2>&1; touch /dev/x 2>&1; true'
expect_out_lacks '^$' "nothing outside the writable roots can be filled (messages: $(printf '%s' "$OUT" | tr '\n' ' '))"
expect_out_lacks 'No space' "/tmp, /run and /dev refuse writes as read-only, not full"

# Duplicates and nested paths: one mount each.  A short path, so that
# 40,000 copies fit the 1 MiB policy limit.
short=$(mktemp -d /var/tmp/hXXXX)
trap 'rm -rf "$short"; ns_cleanup' EXIT
mkdir -p "$short/s/deep/deeper" "$ws/ro"
echo s >"$short/s/deep/deeper/s"
many=$("$PY" -c 'import json, sys
p = sys.argv[1] + "/s"
print(json.dumps([p] * 40000 + [p + "/deep", p + "/deep/deeper", p + "/deep/deeper/s"]))' "$short")
policy workspace_write false false "\"deniedReadPaths\":$many,\"deniedWritePaths\":[\"$ws/ro\",\"$ws/ro\",\"$ws/ro/\"]" >"$T_TMP/many.json"
run_raw --policy-file "$T_TMP/many.json" -- \
    sh -c "grep -c ' $short/s[ /]' /proc/self/mountinfo; grep -c ' $ws/ro ' /proc/self/mountinfo; cat $short/s/deep/deeper/s"
expect_rc 1 "the masked file cannot be read (cat fails)"
expect_out '^1$' "40,000 copies of a read denial and 3 paths beneath it: one mount; one write denial given 3 times: one mount"
if [ "$(printf '%s\n' "$OUT" | grep -c '^1$')" = 2 ]; then ok "both lists merged"; else fail "mount counts: $OUT"; fi
ns_finish_both_mount_paths
