#!/usr/bin/env bash
# Workload matrix: git under the recommended policy.  init, commit, status,
# diff and branch work; a hook the host planted runs inside the sandbox
# (never on the host); writing a hook or .git/config from inside is refused,
# so a hook-like script planted elsewhere in the workspace never runs when
# the host commits afterwards.
. "$HAS_SRCDIR/tests/lib.sh"
require_tool git git
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t GIT_CONFIG_NOSYSTEM=1

entry() {
    wl_workspace "git-$1"
    local hostmark="$T_TMP/hook-ran-on-host-$1"
    printf '#!/bin/sh\nid -u >"%s/hook-ran-inside"\necho host >"%s"\n' "$WS" "$hostmark" >.git/hooks/post-commit
    chmod +x .git/hooks/post-commit
    echo one >a.txt
    wl_run "$1" "$(wl_policy "$1")" 'set -e
git init -q inner && git -C inner status --short >/dev/null
git add a.txt && git commit -qm first
echo two >>a.txt && git diff --stat | grep -q "a.txt"
git status --short | grep -q "^ M a.txt"
git branch topic && git branch --list topic | grep -q topic
git commit -qam second && git log --oneline | wc -l'
    wl_expect_ok "$1: git init, commit, status, diff, branch" &&
        expect_out '^2$' "$1: two commits in the log"
    expect_content "$WS/hook-ran-inside" "$(id -u)" "$1: the planted post-commit hook ran inside, as the caller's uid"
    expect_absent "$hostmark" "$1: the hook could not write outside the workspace"
    wl_run "$1" "$(wl_policy "$1")" 'echo "#!/bin/sh" >.git/hooks/pre-commit'
    [ "$RC" != 0 ] && [ ! -e .git/hooks/pre-commit ] && ok "$1: writing a hook from inside is refused" ||
        fail "$1: a hook was written from inside (exit $RC)"
    mkdir -p evil
    printf '#!/bin/sh\necho ran >"%s/evil-ran"\n' "$WL_ROOT" >evil/post-commit
    chmod +x evil/post-commit
    wl_run "$1" "$(wl_policy "$1")" 'git config core.hooksPath evil'
    [ "$RC" != 0 ] && ok "$1: pointing core.hooksPath elsewhere is refused" ||
        fail "$1: git config core.hooksPath was written from inside"
    rm -f .git/hooks/post-commit
    git commit -q --allow-empty -m host
    expect_absent "$WL_ROOT/evil-ran" "$1: the script planted elsewhere did not run when the host committed"
}
wl_matrix git entry
finish
