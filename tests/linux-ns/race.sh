#!/bin/bash
# race.sh — a concurrent process (think: another sandbox's workload on the
# same workspace) keeps swapping a granted directory for a symlink to a
# directory outside the policy while sandboxes are being set up.  Every launch
# must either refuse (125) or grant the real directory: nothing may ever be
# written through the link.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
victim=$(outside_dir)
cd "$ws" || exit 1
mkdir grant
P=$(policy read_only false false "\"allowedWritePaths\":[\"$ws/grant\"],\"deniedReadPaths\":[\"$ws/grant/secret\"]")

# The swapper stops at the end of an iteration when asked.  Killing it
# instead could leave the mv or ln it was running alive after the cleanup in
# race(): that cleanup's "mv grant.real grant" then moved grant.real into the
# victim through a link swapped in after its rm (seen once under load, as
# "written outside the policy: grant.real" and a legacy phase that found
# only the link), a harness race that looked like an escape.
swapper() {
    while [ ! -e "$T_TMP/stop-swap" ]; do
        mv grant grant.real 2>/dev/null && ln -s "$victim" grant 2>/dev/null
        rm -f grant 2>/dev/null; mv grant.real grant 2>/dev/null
    done
}
# 150 launches a phase; under emulation fewer, at least 30 (launches in
# tests/lib.sh).
n=$(launches 150 30)
race() {
    local tag=$1 refused=0 ran=0 pid i
    rm -f "$T_TMP/stop-swap"
    swapper &
    pid=$!
    for i in $(seq "$n"); do
        "$SUPERVISOR" --policy "$P" -- sh -c "echo $i > grant/f-$tag-$i" >/dev/null 2>&1 </dev/null
        case $? in 125) refused=$((refused + 1)) ;; *) ran=$((ran + 1)) ;; esac
    done
    touch "$T_TMP/stop-swap"
    wait "$pid" 2>/dev/null
    [ -d grant.real ] && { rm -f grant; mv grant.real grant; }
    echo "# $tag: $n launches under the swap: $ran ran, $refused refused"
    if [ -z "$(ls -A "$victim")" ]; then ok "$tag: nothing written through the swapped-in symlink"
    else fail "$tag: written outside the policy: $(ls "$victim" | head -5)"; fi
    if [ "$ran" -gt 0 ]; then ok "$tag: some launches ran (the race was exercised)"; else fail "$tag: every launch refused"; fi
}
race modern
HAS_FORCE_LEGACY_MOUNT=1 race legacy
finish
