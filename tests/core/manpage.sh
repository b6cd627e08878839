#!/bin/bash
# The manual page: lint-clean, and it describes every option the binary's
# --help lists (so the two cannot drift apart).
. "$HAS_SRCDIR/tests/lib.sh"

PAGE=$HAS_SRCDIR/docs/happy-agent-supervisor.1
[ -f "$PAGE" ] || { fail "docs/happy-agent-supervisor.1 is missing"; finish; }

if have_tool mandoc mandoc; then
    if out=$(mandoc -T lint -W style "$PAGE" 2>&1) && [ -z "$out" ]; then ok "mandoc -T lint: clean"
    else fail "mandoc -T lint: $out"; fi
fi
if out=$(groff -ww -z -man "$PAGE" 2>&1) && [ -z "$out" ]; then ok "groff -ww: no warnings"
else fail "groff -ww: $out"; fi

# Every --option of --help, as the page spells it in roff (\-\-name).
"$SUPERVISOR" --help >"$T_TMP/help" 2>&1
options=$(grep -oE -- '--[a-z][a-z-]*' "$T_TMP/help" | sort -u)
[ -n "$options" ] || fail "--help lists no option: $(cat "$T_TMP/help")"
for opt in $options; do
    roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
    if grep -qF -- "$roff" "$PAGE"; then ok "the page describes $opt"; else fail "the page does not describe $opt (--help lists it)"; fi
    # ... as an item of its own: a .TP tag line names it, so its text does
    # not run on inside the item before.
    if grep -A1 -x '\.TP' "$PAGE" | grep -v -x '\.TP' | grep -qF -- "$roff"; then ok "$opt has an item (.TP) of its own"
    else fail "$opt has no .TP item of its own: its text runs on inside the one before"; fi
done
for section in NAME SYNOPSIS DESCRIPTION OPTIONS POLICY "EXIT STATUS" ENVIRONMENT EXAMPLES SECURITY; do
    if grep -qE "^\.SH \"?$section\"?$" "$PAGE"; then ok "section $section"; else fail "no section $section"; fi
done
# The page must not point at documents outside the source tree.
if grep -n 'SPEC\|\.\./shared' "$PAGE"; then fail "the page cites a document outside the repository"; else ok "no outside documents cited"; fi

finish
