#!/bin/bash
# The C sources stay as clang-format formats them with the tree's
# .clang-format.  The check needs Debian 12's clang-format (14): another
# major version formats a few constructs differently, which would fail
# the check on code nobody changed.
. "$HAS_SRCDIR/tests/lib.sh"

command -v clang-format >/dev/null 2>&1 || skip "clang-format is not installed (Debian: apt-get install clang-format)"
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$version" = 14 ] || skip "clang-format $version is not Debian 12's 14, which the tree is formatted with"
command -v git >/dev/null 2>&1 && git -C "$HAS_SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    skip "not a git checkout: the files to check are the tracked ones"

cd "$HAS_SRCDIR" || exit 1
mapfile -t files < <(git ls-files '*.c' '*.h')
[ "${#files[@]}" -gt 0 ] || { fail "no C sources found to check"; finish; }

differ=()
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    clang-format --style=file "$f" | cmp -s - "$f" || differ+=("$f")
done
if [ "${#differ[@]}" -eq 0 ]; then
    ok "${#files[@]} C sources are as clang-format formats them"
else
    printf '  differs: %s\n' "${differ[@]}"
    fail "${#differ[@]} C sources differ from clang-format's output (fix: clang-format -i FILE)"
fi
finish
