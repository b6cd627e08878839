# tests/steps.sh — the one step runner of the project's test drivers
# shellcheck shell=bash
# (tests/run-all, release/check, tests/kernels/run-vm,
# tests/landlock/container-check), sourced, never run.
#
#   step NAME CMD...    run CMD as one named step: "=== NAME", its output,
#                       "=== NAME: ok (Ns)" or "=== NAME: FAILED (Ns)";
#                       returns CMD's status.  A failed step whose tests
#                       counted no failure counts as one failure.
#   steps_logged FILE CMD...
#                       run CMD with its output in FILE only; when it fails,
#                       show FILE's last 40 lines and its name.
#   steps_count P F     add P passed and F failed tests to the totals.
#   steps_check OK NAME count one check: OK 0 prints "ok - NAME", anything
#                       else "FAIL - NAME".
#   steps_count_line F  add the last "N passed, N failed" line of file F;
#                       returns 1 when F has none.
#   steps_finish        print the time of every step, the total, the failed
#                       steps and the closing "N passed, N failed" line;
#                       returns 0 only when nothing failed and something passed.
#
# The lines begin with "===", or, for a driver run by another driver (which
# exported STEPS_OUTER), with "--- STEPS_NAME:" (default: the script's
# name), so that the nested driver's steps can be told from the outer ones.
# STEPS_PREFIX, when set, overrides both.

steps_name=${STEPS_NAME:-$(basename "$0")}
if [ -n "${STEPS_PREFIX:-}" ]; then
    steps_prefix=$STEPS_PREFIX
elif [ -n "${STEPS_OUTER:-}" ]; then
    steps_prefix="--- $steps_name:"
else
    steps_prefix="==="
fi
# What this driver runs is nested in it.
export STEPS_OUTER=$steps_name
steps_passed=0
steps_failed=0
steps_names=()
steps_seconds=()
steps_status=()
steps_started=$(date +%s)

steps_count() {
    steps_passed=$((steps_passed + $1))
    steps_failed=$((steps_failed + $2))
}

steps_check() {
    if [ "$1" = 0 ]; then
        steps_count 1 0
        echo "ok - $2"
    else
        steps_count 0 1
        echo "FAIL - $2"
    fi
}

steps_count_line() {
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -1)
    [ -n "$line" ] || return 1
    steps_count "$(echo "$line" | awk '{print $1}')" "$(echo "$line" | awk '{print $3}')"
}

steps_logged() {
    local log=$1 rc
    shift
    "$@" >"$log" 2>&1
    rc=$?
    if [ $rc != 0 ]; then
        tail -40 "$log"
        echo "(exit $rc; whole output: $log)"
    fi
    return $rc
}

step() {
    local name=$1 t0 rc secs failed_before=$steps_failed
    shift
    t0=$(date +%s)
    echo
    echo "$steps_prefix $name"
    "$@"
    rc=$?
    secs=$(($(date +%s) - t0))
    steps_names+=("$name")
    steps_seconds+=("$secs")
    if [ $rc = 0 ]; then
        steps_status+=(ok)
        echo "$steps_prefix $name: ok (${secs}s)"
    else
        steps_status+=(FAILED)
        [ "$steps_failed" != "$failed_before" ] || steps_failed=$((steps_failed + 1))
        echo "$steps_prefix $name: FAILED (${secs}s)"
    fi
    return $rc
}

steps_finish() {
    local i total=$(($(date +%s) - steps_started)) bad=0 title="step times"
    [ "$steps_prefix" = "===" ] || title="step times of $steps_name"
    echo
    echo "$title:"
    for i in "${!steps_names[@]}"; do
        printf '  %6ss  %-6s  %s\n' "${steps_seconds[$i]}" "${steps_status[$i]}" "${steps_names[$i]}"
        [ "${steps_status[$i]}" = ok ] || bad=1
    done
    printf '  %6ss  total\n' "$total"
    for i in "${!steps_names[@]}"; do
        [ "${steps_status[$i]}" = ok ] || echo "failed step: ${steps_names[$i]}"
    done
    echo "$steps_passed passed, $steps_failed failed"
    [ "$bad" = 0 ] && [ "$steps_failed" = 0 ] && [ "$steps_passed" -gt 0 ]
}
