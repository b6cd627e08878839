#!/bin/bash
# workspace-rename.sh — linux-ns: the workspace renamed while launches set
# up, by the caller's own process and, for a root caller, by another user
# who may write its parent (tests/lib-workspace-race.sh).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
. "$HAS_SRCDIR/tests/lib-workspace-race.sh"
sandbox_require

WSR_BASE=$(outside_dir)
wsr_launch() {
    local pol=$1
    shift 2 # POLICY --
    "$SUPERVISOR" --policy "$pol" -- "$@"
}
n=$(launches 100 30)
wsr_phase same self "$n"
if is_root && id has-tester >/dev/null 2>&1; then
    wsr_phase cross has-tester "$n"
else
    echo "# cross: needs a root caller and the user has-tester: left out"
fi
finish
