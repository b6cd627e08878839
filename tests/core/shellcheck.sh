#!/bin/bash
# The shell scripts (the tests, release/, .ci/, setup-and-demo and every
# *.sh) stay shellcheck-clean at severity warning.  A finding that is a
# false positive is disabled at its line with
# `# shellcheck disable=SCxxxx # reason`; sourced libraries carry a
# `# shellcheck shell=bash` line.
. "$HAS_SRCDIR/tests/lib.sh"

command -v shellcheck >/dev/null 2>&1 || skip "shellcheck is not installed (Debian: apt-get install shellcheck)"
command -v git >/dev/null 2>&1 && git -C "$HAS_SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    skip "not a git checkout: the scripts to check are the tracked ones"

cd "$HAS_SRCDIR" || exit 1
files=()
while IFS= read -r f; do
    [ -f "$f" ] && files+=("$f")
done < <( (git ls-files tests release .ci setup-and-demo | while IFS= read -r f; do
            head -1 "$f" 2>/dev/null | grep -qE '^#!.*(bash|sh)' && echo "$f"
        done
        git ls-files '*.sh') | sort -u)
[ "${#files[@]}" -gt 0 ] || { fail "no shell scripts found to check"; finish; }

findings=$(shellcheck -S warning -f gcc "${files[@]}" 2>&1)
if [ -z "$findings" ]; then
    ok "${#files[@]} shell scripts are shellcheck-clean at severity warning"
else
    printf '%s\n' "$findings"
    fail "shellcheck -S warning: $(printf '%s\n' "$findings" | grep -c .) findings (file:line above)"
fi
finish
