#!/bin/bash
# The project's contract is in the repository (README.md, each backend's
# README.md): no source, test, build file or generated profile may cite a
# document outside it (the original brief's "SPEC §N" or ../shared).
. "$HAS_SRCDIR/tests/lib.sh"

hits=$(cd "$HAS_SRCDIR" && grep -rnE 'SPEC ?(§|section)|\.\./shared/' \
    --include='*.c' --include='*.h' --include='*.ac' --include='*.am' --include='*.mk' \
    --include='*.sh' --include='*.py' --include='*.ts' --include='*.mjs' --include='*.1' \
    --include='*.sb' --include='*.md' --exclude=no-outside-refs.sh . 2>/dev/null | grep -v '/node_modules/')
if [ -z "$hits" ]; then ok "no file cites a document outside the repository"; else fail "outside references: $hits"; fi
# The Seatbelt profiles the generator produces (its golden files) neither.
if [ -d "$HAS_SRCDIR/tests/seatbelt/golden" ]; then
    if grep -rqE '\bSPEC\b|[Ss]ection [0-9]' "$HAS_SRCDIR/tests/seatbelt/golden"; then fail "a golden profile cites a document"
    else ok "the generated profiles cite no document"; fi
fi
finish
