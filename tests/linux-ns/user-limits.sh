#!/bin/bash
# user-limits.sh — the caller keeps its share of the per-user kernel
# counters: the sandbox's user namespace has half of each of the caller's
# /proc/sys/user/max_* limits (rounded up; 0 nested user namespaces), the
# workload cannot raise them, and while it holds every inotify instance it
# can get, the caller (same uid, outside) can still make its own.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
chmod 777 "$ws"
cd "$ws" || exit 1
POL=$(policy workspace_write false false)

# The values inside, each against the caller's.
run_sup "$POL" -- sh -c 'cd /proc/sys/user && for f in max_*; do echo "$f $(cat "$f")"; done'
[ -n "$OUT" ] && ok "the sandbox reads its /proc/sys/user limits" || fail "no /proc/sys/user inside (rc $RC, $ERR)"
while read -r name inside; do
    caller=$(cat "/proc/sys/user/$name")
    want=$(((caller + 1) / 2))
    [ "$name" = max_user_namespaces ] && want=0
    [ "$inside" = "$want" ] && ok "user.$name: $inside inside, the caller's $caller" ||
        fail "user.$name: $inside inside, expected $want (the caller's $caller)"
done <<<"$OUT"
[ "$(printf '%s\n' "$OUT" | grep -c '^max_inotify_instances ')" = 1 ] && ok "inotify instances are bounded inside" ||
    fail "no max_inotify_instances line inside"

run_sup "$POL" -- "$PY" -c '
import sys
try:
    open("/proc/sys/user/max_inotify_instances", "w").write("100000\n")
except OSError as e:
    print("refused:", e.strerror); sys.exit(0)
print("raised")'
expect_out '^refused: ' "the workload cannot raise its limit"
expect_out_lacks '^raised$' "the limit stays as set"

# Inside: take inotify instances until the kernel says no (at most 10000),
# tell the caller how many, hold them until the caller is done (at most 15 s).
hog='import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
held = []
while len(held) < 10000:
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    held.append(fd)
open("hog.count.tmp", "w").write("%d %s\n" % (len(held), os.strerror(ctypes.get_errno())))
os.rename("hog.count.tmp", "hog.count")
for _ in range(300):
    if os.path.exists("hog.done"):
        break
    time.sleep(0.05)'
timeout 30 "$SUPERVISOR" --policy "$POL" -- "$PY" -c "$hog" >"$T_TMP/hog.out" 2>"$T_TMP/hog.err" </dev/null &
hog_pid=$!
for _ in $(seq 200); do [ -s hog.count ] && break; sleep 0.05; done
read -r taken why <hog.count 2>/dev/null
caller=$("$PY" -c 'import ctypes, os
fd = ctypes.CDLL(None, use_errno=True).inotify_init1(0)
print("ok" if fd >= 0 else os.strerror(ctypes.get_errno()))')
touch hog.done
wait "$hog_pid"
RC=$? ERR=$(cat "$T_TMP/hog.err")
expect_rc 0 "the inotify hog ran and ended"
limit=$((($(cat /proc/sys/user/max_inotify_instances) + 1) / 2))
[ -n "${taken:-}" ] && [ "$taken" -le "$limit" ] && ok "the workload took $taken inotify instances ($why), at most $limit" ||
    fail "the workload took ${taken:-?} inotify instances, more than $limit"
[ "$caller" = ok ] && ok "meanwhile the caller could still create an inotify instance" ||
    fail "while the sandbox held $taken inotify instances the caller got: $caller"
finish
