#!/usr/bin/env bash
# An attacker inside a sandbox with limits, on both backends: it tries to
# leave its cgroup v2 group or change it (cgroup.procs of the group, of its
# parent and of the root, pids.max, cgroup.kill, a sub-group), to raise
# RLIMIT_NPROC and RLIMIT_NOFILE past their hard limits, and to signal
# anything of the host (the keeper, the supervisor, the broker) -- with
# signal 0, which asks the same permission as SIGKILL without harm.
# Checked from inside (the group it ends in) and on the host (no group
# left, the supervisor's status its own).
. "$HAS_SRCDIR/tests/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$MNT" ] || skip "no cgroup2 mount on this host"
NO_USERNS="$HAS_BUILDDIR/tests/landlock/helpers/no_userns"
POL=$(policy workspace_write false false '"limits":{"openFiles":64}')
cat >"$T_TMP/probe.sh" <<'SH'
m=$1
cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
echo "group $cg"
up=$(dirname "$cg")
for f in "$m/cgroup.procs" "$m$cg/cgroup.procs" "$m$up/cgroup.procs" "$m$cg/pids.max" "$m$cg/cgroup.kill" \
    "$m$up/cgroup.kill" "$m$cg/cgroup.subtree_control" "$m$cg/cgroup.freeze"; do
    (echo $$ >"$f") 2>/dev/null && echo "WROTE $f"
done
mkdir "$m$cg/sub" 2>/dev/null && echo "MADE $m$cg/sub"
python3 - <<'PYEOF'
import os, resource
for name in ("RLIMIT_NPROC", "RLIMIT_NOFILE"):
    r = getattr(resource, name)
    s, h = resource.getrlimit(r)
    try:
        resource.setrlimit(r, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        if resource.getrlimit(r)[1] != h:
            print("RAISED", name)
    except (OSError, ValueError):
        pass
mine = {os.getpid()}
# Every process this one may signal that is not of its own session: the
# sandbox's processes share one (the broker or init made it).
sid = os.getsid(0)
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) == os.getpid():
        continue
    try:
        if os.getsid(int(p)) == sid:
            continue
        os.kill(int(p), 0)
        print("SIGNALS", p, open("/proc/%s/comm" % p).read().strip())
    except (OSError, ProcessLookupError):
        pass
PYEOF
echo "group after $(sed -n 's/^0:://p' /proc/self/cgroup)"
SH
for b in linux-ns landlock; do
    wrap=()
    [ "$b" = landlock ] && wrap=("$NO_USERNS")
    timeout 20 "${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --policy "$POL" -- sh "$T_TMP/probe.sh" "$MNT" \
        >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
    RC=$?
    OUT=$(cat "$T_TMP/out")
    ERR=$(cat "$T_TMP/err")
    if [ "$RC" = 125 ]; then
        echo "# not run: $b cannot start here: $ERR"
        continue
    fi
    expect_rc 0 "$b: the probe ran"
    expect_out_lacks '^(WROTE|MADE) ' "$b: no cgroup file written, no sub-group made"
    expect_out_lacks '^RAISED ' "$b: no hard limit raised"
    expect_out_lacks '^SIGNALS ' "$b: nothing outside the sandbox may be signalled"
    g=$(printf '%s\n' "$OUT" | sed -n '1s/^group //p')
    [ -n "$g" ] && printf '%s\n' "$OUT" | grep -qxF "group after $g" && ok "$b: still in its group ($g)" ||
        fail "$b: the group changed: $OUT"
    case $g in /has-*)
        [ ! -e "$MNT$g" ] && ok "$b: the group is removed afterwards" || fail "$b: $MNT$g left" ;;
    esac
done
finish
