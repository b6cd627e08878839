# tests/steps.sh — the one step runner of the project's test drivers
# (tests/run-all, release/check, tests/kernels/run-vm,
# tests/landlock/container-check), sourced, never run.
#
#   step NAME CMD...    run CMD as one named step: "=== NAME", its output,
#                       "=== NAME: ok (Ns)" or "=== NAME: FAILED (Ns)";
#                       returns CMD's status.  A failed step counts as one
#                       failure on top of whatever its tests counted.
#   steps_count P F     add P passed and F failed tests to the totals.
#   steps_count_line F  add the last "N passed, N failed" line of file F;
#                       returns 1 when F has none.
#   steps_finish        print the time of every step, the total, the failed
#                       steps and the closing "N passed, N failed" line;
#                       returns 0 only when nothing failed and something passed.
#
# STEPS_PREFIX (default "===") begins the step lines, so that a driver run
# inside another can be told apart.

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

steps_count_line() {
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -1)
    [ -n "$line" ] || return 1
    steps_count "$(echo "$line" | awk '{print $1}')" "$(echo "$line" | awk '{print $3}')"
}

step() {
    local name=$1 t0 rc secs prefix=${STEPS_PREFIX:-===}
    shift
    t0=$(date +%s)
    echo
    echo "$prefix $name"
    "$@"
    rc=$?
    secs=$(($(date +%s) - t0))
    steps_names+=("$name")
    steps_seconds+=("$secs")
    if [ $rc = 0 ]; then
        steps_status+=(ok)
        echo "$prefix $name: ok (${secs}s)"
    else
        steps_status+=(FAILED)
        steps_failed=$((steps_failed + 1))
        echo "$prefix $name: FAILED (${secs}s)"
    fi
    return $rc
}

steps_finish() {
    local i total=$(($(date +%s) - steps_started)) bad=0
    echo
    echo "step times:"
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
