#!/bin/bash
# release/macos-selftest's parts that do not need a Mac: its arguments, its
# refusal off macOS, and (HAS_SELFTEST_ANY_OS=1) the whole flow against this
# platform's binary: locating it, running the suites, counting, the report.
. "$HAS_SRCDIR/tests/lib.sh"
ST=$HAS_SRCDIR/release/macos-selftest

run_st() { "$@" >"$T_TMP/out" 2>"$T_TMP/err"; RC=$?; OUT=$(cat "$T_TMP/out"); ERR=$(cat "$T_TMP/err"); }

run_st "$ST" --help
expect_rc 0 "--help"
expect_out 'macos-selftest \[--binary PATH\] \[--report FILE\]' "--help shows the usage"
run_st "$ST" --frobnicate
expect_rc 2 "an unknown argument"
expect_err "unknown argument '--frobnicate'" "... is named"
if [ "$(uname -s)" != Darwin ]; then
    run_st env -u HAS_SELFTEST_ANY_OS "$ST" --binary "$SUPERVISOR"
    expect_rc 77 "off macOS it refuses to run the Darwin suites"
    expect_err 'not macOS' "... saying so"
fi
run_st env HAS_SELFTEST_ANY_OS=1 "$ST" --binary /nonexistent/supervisor
expect_rc 2 "--binary that is not an executable"

# The whole flow against the real binary of this build.
cd "$T_TMP" || exit 1
run_st env HAS_SELFTEST_ANY_OS=1 "$ST" --binary "$SUPERVISOR" --report "$T_TMP/report.md"
expect_rc 0 "the flow against this build's binary"
expect_out '^[1-9][0-9]* passed, 0 failed$' "it ends with N passed, 0 failed"
if [ "$(uname -s)" != Darwin ]; then
    expect_out '^tests/seatbelt/darwin.sh: 0 passed, 0 failed, skipped: not macOS$' "the Darwin suite says it was skipped and why"
fi
if grep -q '^- result: \*\*[1-9][0-9]* passed, 0 failed\*\*' "$T_TMP/report.md" &&
   grep -q '^| `tests/core/status.sh` | [1-9][0-9]* | 0 | passed |$' "$T_TMP/report.md" &&
   grep -q "^- binary: \`$SUPERVISOR\`" "$T_TMP/report.md"; then ok "the report file has the result, the binary and a row per suite"
else fail "report: $(cat "$T_TMP/report.md")"; fi

# A binary that is not the supervisor: failures are counted and listed.
printf '#!/bin/sh\nexit 3\n' >"$T_TMP/fake"
chmod +x "$T_TMP/fake"
run_st env HAS_SELFTEST_ANY_OS=1 "$ST" --binary "$T_TMP/fake" --report "$T_TMP/bad.md"
expect_rc 1 "a broken binary fails the self-test"
expect_out '^[0-9]+ passed, [1-9][0-9]* failed$' "... and the count says how many"
if grep -q '^Failures' "$T_TMP/bad.md" && grep -q '^FAIL - ' "$T_TMP/bad.md"; then ok "the report lists the failures"
else fail "no failures in the report: $(cat "$T_TMP/bad.md")"; fi
finish
