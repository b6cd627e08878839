#!/bin/bash
# denial-rename.sh — a denial must not move with its parent: renaming,
# exchanging or linking inside a writable root cannot carry a denied path
# (or a directory on the way to it) elsewhere, in one run or across runs.
# Every attack is really attempted and the host checked afterwards; the
# suite runs once with mount_setattr(2) and once on the legacy path.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

# The host's view of a tree: every name with its inode and type.
snap() { (cd "$1" && find . -printf '%p %i %y\n' | LC_ALL=C sort); }

expect_same_tree() {
    if [ "$(snap "$1")" = "$2" ]; then ok "$3: host tree unchanged"
    else fail "$3: host tree changed: $(diff <(printf '%s\n' "$2") <(snap "$1") | head -5 | tr '\n' ' ')"; fi
}

# git as the caller runs it on the host, without their configuration.
host_git() { HOME=$T_TMP GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git "$@"; }

# The reported attack: move .git away, rebuild it with core.fsmonitor, and
# wait for the caller's next `git status` on the host.
git_chain() {
    local tag=$1 ws out before cfg
    ws=$(outside_dir); out=$(outside_dir)
    host_git -C "$ws" init -q && echo a >"$ws/a" && host_git -C "$ws" add a &&
        host_git -C "$ws" -c user.name=t -c user.email=t@e commit -qm first || { fail "$tag: git setup"; return; }
    before=$(stat -c %i "$ws/.git"); cfg=$(cat "$ws/.git/config")
    cd "$ws" || return
    run_sup "$(policy workspace_write false false "\"deniedWritePaths\":[\"$ws/.git/hooks\",\"$ws/.git/config\"]")" \
        -- sh -c "printf '#!/bin/sh\necho ran > $out/marker\n' > evil.sh && chmod +x evil.sh
            mv .git .git-old; mkdir .git && cp -a .git-old/. .git/
            git config core.fsmonitor '$ws/evil.sh'; git config core.hooksPath '$ws'; echo attempted"
    expect_out attempted "$tag: git: the workload tried mv .git and a core.fsmonitor rebuild"
    expect_err 'mv: .*busy' "$tag: git: mv .git refused"
    host_git -C "$ws" status >/dev/null 2>&1
    expect_absent "$out/marker" "$tag: git: the caller's git status ran no command of the workload's"
    if [ "$(stat -c %i "$ws/.git")" = "$before" ]; then ok "$tag: git: .git is the original directory"
    else fail "$tag: git: .git was replaced"; fi
    expect_content "$ws/.git/config" "$cfg" "$tag: git: .git/config unchanged"
    expect_absent "$ws/.git-old" "$tag: git: no .git-old"
    cd / || return
}

# A fresh tree with a write denial and a read denial 3 levels deep, and a
# decoy directory beside each level (the same mount: across mounts the
# kernel refuses a rename with EXDEV whatever the anchors do).  Sets DWS,
# DP and DTREE (the host's view before the run).
deep_tree() {
    local d
    DWS=$(outside_dir)
    mkdir -p "$DWS/w1/w2/w3/wd" "$DWS/r1/r2/r3"
    for d in . w1 w1/w2 w1/w2/w3 r1 r1/r2 r1/r2/r3; do mkdir "$DWS/$d/decoy"; done
    echo orig >"$DWS/w1/w2/w3/wd/f"; echo SECRET-DEEP >"$DWS/r1/r2/r3/secret"
    DP=$(policy workspace_write false false "\"deniedWritePaths\":[\"$DWS/w1/w2/w3/wd\"],\"deniedReadPaths\":[\"$DWS/r1/r2/r3/secret\"]")
    DTREE=$(snap "$DWS")
}

# Each level on the way to each denial, and the denied path itself, renamed
# and exchanged with its decoy: each on a fresh tree.
levels() {
    local tag=$1 lvl
    for lvl in w1 w1/w2 w1/w2/w3 w1/w2/w3/wd r1 r1/r2 r1/r2/r3 r1/r2/r3/secret; do
        deep_tree
        cd "$DWS" || return
        run_sup "$DP" -- "$ATTACK" rename "$lvl" "$lvl.moved"
        expect_rc 0 "$tag: rename of $lvl refused (EBUSY)"
        run_sup "$DP" -- "$ATTACK" exchange "$lvl" "$(dirname "$lvl")/decoy"
        expect_rc 0 "$tag: RENAME_EXCHANGE of $lvl with a decoy refused (EBUSY)"
        expect_same_tree "$DWS" "$DTREE" "$tag: rename and exchange of $lvl"
    done
    deep_tree
    cd "$DWS" || return
    run_sup "$DP" -- sh -c 'mv r1 r1.x; mv r1/r2 r1/r2.x; mv r1/r2/r3/decoy r1/r2/r3/secret; mv w1/w2/w3 w1/w2/w3.x
        mv -T w1/decoy w1/w2; rmdir w1/w2/w3/wd w1/w2/w3 r1/r2; echo done'
    expect_out 'done' "$tag: mv and rmdir of the levels attempted"
    expect_same_tree "$DWS" "$DTREE" "$tag: after mv and rmdir of the levels"
    run_sup "$DP" -- sh -c 'cat r1/r2/r3/secret; echo bad > w1/w2/w3/wd/f; echo new > r1/r2/new; echo new > w1/w2/w3/new'
    expect_out_lacks SECRET "$tag: the 3-deep read denial still hides the file"
    expect_content "$DWS/w1/w2/w3/wd/f" orig "$tag: the 3-deep write denial still holds"
    expect_content "$DWS/r1/r2/new" new "$tag: a pinned directory stays writable (read side)"
    expect_content "$DWS/w1/w2/w3/new" new "$tag: a pinned directory stays writable (write side)"
    cd / || return
}

# Run 1 moves the parent away, run 2 with the same policy reads it there.
two_runs() {
    local tag=$1 ws P tree
    ws=$(outside_dir)
    mkdir "$ws/config"; echo SECRET-ENV >"$ws/config/.env"
    P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/config/.env\"]")
    tree=$(snap "$ws")
    cd "$ws" || return
    run_sup "$P" -- sh -c 'mv config config-x; mkdir -p config; echo run1'
    expect_out run1 "$tag: two runs: run 1 tried mv config config-x"
    expect_same_tree "$ws" "$tree" "$tag: two runs: after run 1"
    run_sup "$P" -- sh -c 'cat config-x/.env config/.env; echo run2'
    expect_out run2 "$tag: two runs: run 2 ran"
    expect_out_lacks SECRET "$tag: two runs: run 2 cannot read the secret under any name"
    cd / || return
}

# A read-denied file's bytes have no other name: a link made inside fails,
# one found at launch is refused.
links() {
    local tag=$1 ws P
    ws=$(outside_dir)
    mkdir "$ws/config"; echo SECRET-LINK >"$ws/config/.env"
    P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/config/.env\"]")
    cd "$ws" || return
    run_sup "$P" -- sh -c "ln config/.env leak; ln /proc/self/root$ws/config/.env leak2; cat leak leak2; echo done"
    expect_out 'done' "$tag: links: ln of the denied file attempted"
    expect_out_lacks SECRET "$tag: links: no secret through a link made inside"
    expect_absent "$ws/leak" "$tag: links: no link made"
    expect_absent "$ws/leak2" "$tag: links: no link made through /proc/self/root"
    ln "$ws/config/.env" "$ws/copy"
    run_sup "$P" -- cat copy
    expect_rc 125 "$tag: links: a read-denied file with another hard link is refused"
    expect_err "deniedReadPaths: $ws/config/.env: has 2 hard links" "$tag: links: the message names the path"
    expect_one_line_error "$tag: links"
    expect_out_lacks SECRET "$tag: links: the other name was not read"
    mkdir "$ws/w"; echo orig >"$ws/w/f"; ln "$ws/w/f" "$ws/w-copy"
    run_sup "$(policy workspace_write false false "\"deniedWritePaths\":[\"$ws/w/f\"]")" -- sh -c 'echo bad > w-copy'
    expect_rc 125 "$tag: links: a write-denied file with another hard link is refused"
    expect_content "$ws/w/f" orig "$tag: links: write-denied file unchanged"
    cd / || return
}

# A denial in a writable root nested in another: the directories of the
# outer root on the way are pinned too.  As root, also a read-only submount
# the host made under a pinned directory: it stays read-only.
nested() {
    local tag=$1 ws src tree
    ws=$(outside_dir); src=$(outside_dir)
    mkdir -p "$ws/sub/inner/b" "$ws/a/ro" "$ws/a/x"
    echo SECRET-NESTED >"$ws/sub/inner/b/.env"; echo orig >"$src/f"
    local P
    P=$(policy workspace_write false false "\"allowedWritePaths\":[\"$ws/sub/inner\"],\"deniedReadPaths\":[\"$ws/sub/inner/b/.env\",\"$ws/a/x/.env\"]")
    tree=$(snap "$ws")
    cd "$ws" || return
    run_sup "$P" -- sh -c 'mv sub sub2; mkdir -p sub/inner; mv sub/inner/b sub/inner/b2; echo w > sub/inner/w'
    run_sup "$P" -- sh -c 'cat sub2/inner/b/.env sub/inner/b2/.env sub/inner/b/.env; echo run2'
    expect_out run2 "$tag: nested: run 2 ran"
    expect_out_lacks SECRET "$tag: nested: the denial in the inner root did not move"
    expect_content "$ws/sub/inner/w" w "$tag: nested: the inner writable root is still writable"
    rm -f "$ws/sub/inner/w"
    expect_same_tree "$ws" "$tree" "$tag: nested: mv of the outer root's directory on the way"
    if is_root && mount --bind -o ro "$src" "$ws/a/ro"; then
        run_sup "$P" -- sh -c 'echo bad > a/ro/f; echo new > a/new'
        umount "$ws/a/ro"
        expect_absent "$ws/a/ro/f" "$tag: nested: the submount was not hidden by the anchor"
        expect_content "$src/f" orig "$tag: nested: a read-only submount under a pinned directory stays read-only"
        expect_content "$ws/a/new" new "$tag: nested: the pinned directory itself stays writable"
    fi
    cd / || return
}

# Denied paths whose parent does not exist yet.  Write-denied: refused (the
# run would otherwise create it).  Read-denied: skipped, nothing to hide; what
# run 1 creates there, run 2 protects.
missing() {
    local tag=$1 ws P
    ws=$(outside_dir)
    cd "$ws" || return
    run_sup "$(policy workspace_write false false "\"deniedWritePaths\":[\"$ws/nodir/hooks\"]")" -- sh -c 'mkdir nodir'
    expect_rc 125 "$tag: missing: a write-denied path under a missing directory is refused"
    expect_err "deniedWritePaths: $ws/nodir/hooks: does not exist" "$tag: missing: the message names it"
    expect_absent "$ws/nodir" "$tag: missing: the workload did not run"

    P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/newdir/.env\"]")
    run_sup "$P" -- sh -c 'mkdir newdir && echo planted > newdir/.env && ln newdir/.env leak && echo run1'
    expect_rc 0 "$tag: missing: run 1 with a missing read-denied parent runs"
    echo SECRET-LATE >"$ws/newdir/.env" # the user fills the file in place
    run_sup "$P" -- sh -c 'cat leak newdir/.env'
    expect_rc 125 "$tag: missing: run 2 refuses the link run 1 left"
    expect_out_lacks SECRET "$tag: missing: run 2 did not read the secret through run 1's link"

    P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/new2/.env\"]")
    run_sup "$P" -- sh -c 'mkdir new2 && echo planted > new2/.env && echo run1'
    expect_out run1 "$tag: missing: run 1 created the missing directory and file"
    echo SECRET-LATE >"$ws/new2/.env"
    local tree
    tree=$(snap "$ws")
    run_sup "$P" -- sh -c 'mv new2 nd2; cat new2/.env nd2/.env; echo run2'
    expect_out run2 "$tag: missing: run 2 ran"
    expect_out_lacks SECRET "$tag: missing: run 2 masks what run 1 created"
    expect_same_tree "$ws" "$tree" "$tag: missing: run 2 cannot move the directory run 1 created"

    P=$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/new3/.env\"]")
    run_sup "$P" -- sh -c 'mkdir elsewhere && ln -s elsewhere new3 && echo run1'
    expect_out run1 "$tag: missing: run 1 made the missing directory a symlink"
    echo SECRET-LATE >"$ws/new3/.env"
    run_sup "$P" -- cat elsewhere/.env
    expect_rc 125 "$tag: missing: run 2 refuses the symlink run 1 planted on the way"
    expect_err "deniedReadPaths: $ws/new3.*symbolic link" "$tag: missing: the message names the path"
    expect_out_lacks SECRET "$tag: missing: run 2 did not read the secret through run 1's symlink"
    cd / || return
}

has_git=0
have_tool git git && has_git=1
suite() {
    [ "$has_git" = 0 ] || git_chain "$1"
    levels "$1"
    two_runs "$1"
    links "$1"
    nested "$1"
    missing "$1"
}

ns_both_mount_paths suite
finish
