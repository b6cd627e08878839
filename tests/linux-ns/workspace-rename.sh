#!/bin/bash
# workspace-rename.sh — linux-ns: the workspace renamed while launches set
# up, by the caller's own process and, for a root caller, by another user
# who may write its parent (tests/lib-workspace-race.sh).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
. "$HAS_SRCDIR/tests/lib-workspace-race.sh"
sandbox_require

WSR_BASE=$(outside_dir)
wsr_launch() { "$SUPERVISOR" "$@"; }
export -f wsr_launch
export SUPERVISOR
n=$(launches 100 30)
phases() {
    wsr_phase "same-$1" self "$n"
    # The second user must be one this caller can become (not in a user
# namespace that maps root alone: the run without user namespaces).
if is_root && id has-tester >/dev/null 2>&1 && runuser -u has-tester -- true 2>/dev/null; then
        wsr_phase "cross-$1" has-tester "$n"
    else
        echo "# cross: needs a root caller and the user has-tester: left out"
    fi
}
ns_both_mount_paths phases
finish
