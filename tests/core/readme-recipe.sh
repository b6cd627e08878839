#!/usr/bin/env bash
# README.md "Adding a backend" shows tests/core/backends/template/backend.c,
# which make check compiles and runs (template-backend.sh): the README's
# first ```c block in that section must be that file, character for
# character, so the recipe cannot drift from code that builds and runs.
. "$HAS_SRCDIR/tests/lib.sh"

FILE="$HAS_SRCDIR/tests/core/backends/template/backend.c"
awk '/^### Adding a backend$/ { section = 1; next }
     section && /^##/ { exit }
     section && !inside && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$HAS_SRCDIR/README.md" >"$T_TMP/block.c"
if [ ! -s "$T_TMP/block.c" ]; then
    fail "README.md: no \`\`\`c block in \"### Adding a backend\""
elif diff -u "$FILE" "$T_TMP/block.c" >"$T_TMP/diff"; then
    ok "README.md's recipe is tests/core/backends/template/backend.c"
else
    fail "README.md's recipe differs from tests/core/backends/template/backend.c (update the README's block):"$'\n'"$(cat "$T_TMP/diff")"
fi
grep -q '\.explain = ' "$T_TMP/block.c" && ok "the recipe has an explain hook" || fail "the recipe has no .explain"
finish
