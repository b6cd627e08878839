#!/usr/bin/env bash
# workspace-rename.sh — landlock: the workspace renamed while launches set
# up, by the caller's own process and, for a root caller, by another user
# who may write its parent (tests/lib-workspace-race.sh).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
. "$HAS_SRCDIR/tests/lib-workspace-race.sh"
ll_require

WSR_BASE="$T_TMP/wsr"
mkdir -p "$WSR_BASE"
chmod 755 "$WSR_BASE"
wsr_launch() { on_blocked_host "$SUPERVISOR" --sandbox landlock "$@"; }
export -f wsr_launch on_blocked_host
export SUPERVISOR NO_USERNS LL_HOST
n=$(launches 100 30)
wsr_phase same self "$n"
# The second user must be one this caller can become (not in a user
# namespace that maps root alone: the run without user namespaces).
if is_root && id has-tester >/dev/null 2>&1 && runuser -u has-tester -- true 2>/dev/null; then
    wsr_phase cross has-tester "$n"
else
    echo "# cross: needs a root caller and the user has-tester: left out"
fi
finish
