#!/bin/bash
# filesystem.sh — the mount policy against real write/read attempts, once
# with mount_setattr(2) and once through the legacy bind-remount path
# (HAS_FORCE_LEGACY_MOUNT=1): both must enforce the same boundary.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

suite() {
    local tag=$1 ws out aw
    ws=$(outside_dir); out=$(outside_dir); aw=$(outside_dir)
    cd "$ws" || return
    local WW RO
    WW=$(policy workspace_write false false)
    RO=$(policy read_only false false)

    # --- workspace_write: the workspace is writable, nothing else ---------
    run_sup "$WW" -- sh -c 'echo in > ./inside'
    expect_rc 0 "$tag: ./file in the workspace"
    expect_content "$ws/inside" in "$tag: ./file landed in the workspace on the host"

    run_sup "$WW" -- sh -c "echo x > '$out/abs'"
    expect_err 'Read-only file system' "$tag: absolute write outside"
    expect_absent "$out/abs" "$tag: absolute write outside"

    run_sup "$WW" -- sh -c "echo x > '../$(basename "$out")/rel'"
    expect_err 'Read-only file system' "$tag: relative ../ write outside"
    expect_absent "$out/rel" "$tag: relative ../ write"

    ln -s "$out" "$ws/link"
    run_sup "$WW" -- sh -c 'echo x > link/planted'
    expect_absent "$out/planted" "$tag: write through a symlink planted in the workspace"
    run_sup "$WW" -- sh -c "ln -s '$out' own && echo x > own/own"
    expect_absent "$out/own" "$tag: write through a symlink the workload made"

    run_sup "$WW" -- sh -c "echo x > /proc/self/root$out/procroot"
    expect_absent "$out/procroot" "$tag: write via /proc/self/root"
    run_sup "$WW" -- sh -c "echo x > /proc/1/root$out/p1root; echo x > /proc/1/cwd/p1cwd; ls /proc/1/cwd/"
    expect_absent "$out/p1root" "$tag: write via /proc/1/root"
    expect_absent "/p1cwd" "$tag: write via /proc/1/cwd"
    expect_err 'Permission denied' "$tag: /proc/1/root and /proc/1/cwd refused"

    run_sup "$WW" -- sh -c 'echo x > /etc/has-escape; echo x > /usr/has-escape'
    expect_absent /etc/has-escape "$tag: write to /etc"
    expect_absent /usr/has-escape "$tag: write to /usr"

    # --- read_only ---------------------------------------------------------
    run_sup "$RO" -- sh -c 'echo x > ./ro-file'
    expect_err 'Read-only file system' "$tag: read_only: ./file refused"
    expect_absent "$ws/ro-file" "$tag: read_only"
    run_sup "$RO" -- cat "$ws/inside"
    expect_out '^in$' "$tag: read_only: reading works"

    # --- allowedWritePaths ---------------------------------------------------
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$aw\"]")" \
        -- sh -c "echo aw > '$aw/f'; echo x > ./not-here"
    expect_content "$aw/f" aw "$tag: allowedWritePaths is writable"
    expect_absent "$ws/not-here" "$tag: read_only + allowedWritePaths: cwd stays read-only"

    # --- deniedWritePaths inside the workspace ----------------------------------
    mkdir "$ws/ddir" && echo orig > "$ws/ddir/old" && echo orig > "$ws/dfile"
    run_sup "$(policy workspace_write false false "\"deniedWritePaths\":[\"$ws/dfile\",\"$ws/ddir\"]")" \
        -- sh -c 'echo bad > dfile; echo bad > ddir/old; echo bad > ddir/new; mkdir ddir/sub; rm -f dfile; echo ok > fine'
    expect_content "$ws/dfile" orig "$tag: deniedWritePaths file unchanged"
    expect_content "$ws/ddir/old" orig "$tag: file in a denied directory unchanged"
    expect_absent "$ws/ddir/new" "$tag: new file in a denied directory"
    expect_absent "$ws/ddir/sub" "$tag: new directory in a denied directory"
    expect_content "$ws/fine" ok "$tag: rest of the workspace still writable"

    # --- deniedReadPaths ------------------------------------------------------------
    echo SECRET-FILE > "$ws/secret.txt"; mkdir "$ws/sdir"; echo SECRET-DIR > "$ws/sdir/key"
    run_sup "$(policy workspace_write false false "\"deniedReadPaths\":[\"$ws/secret.txt\",\"$ws/sdir\",\"$ws/absent\"]")" \
        -- sh -c "cat secret.txt; cat sdir/key; ls sdir; cat /proc/self/root$ws/sdir/key; cat /proc/self/root$ws/secret.txt; echo x > secret.txt; echo done"
    expect_rc 0 "$tag: deniedReadPaths (a missing one is skipped)"
    expect_out_lacks SECRET "$tag: denied file and directory unreadable"
    expect_out 'done' "$tag: the workload ran"
    expect_content "$ws/secret.txt" SECRET-FILE "$tag: masked file not overwritten"

    run_sup "$(policy workspace_write false false '"deniedReadPaths":["/proc/cpuinfo","/etc/hostname"]')" \
        -- sh -c 'cat /proc/cpuinfo /etc/hostname | wc -c'
    expect_out '^0$' "$tag: deniedReadPaths under the private /proc and on /etc apply"

    # --- denials win over grants ---------------------------------------------------------
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$aw\"],\"deniedWritePaths\":[\"$aw\"]")" \
        -- sh -c "echo x > '$aw/both'"
    expect_absent "$aw/both" "$tag: deniedWritePaths wins over allowedWritePaths"
    mkdir "$aw/sub"
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$aw/sub\"],\"deniedWritePaths\":[\"$aw\"]")" \
        -- sh -c "echo x > '$aw/sub/nested'"
    expect_absent "$aw/sub/nested" "$tag: a denied parent wins over a granted child"
    echo SECRET-AW > "$aw/s"
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$aw\"],\"deniedReadPaths\":[\"$aw\"]")" \
        -- sh -c "cat '$aw/s'; echo x > '$aw/rw'"
    expect_out_lacks SECRET "$tag: deniedReadPaths wins over allowedWritePaths (read)"
    expect_absent "$aw/rw" "$tag: deniedReadPaths wins over allowedWritePaths (write)"

    # --- resolution -----------------------------------------------------------------------
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$ws/link\"]")" -- /bin/true
    expect_rc 125 "$tag: allowedWritePaths through a symlink refused"
    expect_err 'symbolic link' "$tag: the message names the symlink"
    expect_one_line_error "$tag: symlink"
    run_sup "$(policy read_only false false "\"deniedReadPaths\":[\"$ws/link\"]")" -- /bin/true
    expect_rc 125 "$tag: deniedReadPaths through a symlink refused"
    run_sup "$(policy read_only false false "\"allowedWritePaths\":[\"$ws/nope\"]")" -- /bin/true
    expect_rc 125 "$tag: a missing writable root"
    expect_err "allowedWritePaths: $ws/nope: does not exist" "$tag: missing writable root named"
    run_sup "$(policy read_only false false "\"deniedWritePaths\":[\"$ws/nope\"]")" -- /bin/true
    expect_rc 125 "$tag: a missing write-denied path"

    # --- a workspace under /tmp writes to the host; the rest of /tmp, a
    # sibling of the workspace included, is read-only like everything else
    # outside the writable roots (no private copy that silently vanishes) ----
    local tws
    tws=$(make_workspace)
    cd "$tws" || return
    echo host >"$T_TMP/existing-$tag"
    ln -s "$T_TMP/via-link-$tag" "$tws/out-link"
    run_sup "$WW" -- sh -c "echo t > ./t; cat '$T_TMP/existing-$tag'
        echo p > '$T_TMP/private-$tag' || echo tmp-refused
        echo l > ./out-link || echo link-refused
        mkdir /tmp/has-mkdir-$tag-\$\$ || echo mkdir-refused"
    expect_content "$tws/t" t "$tag: workspace under /tmp is the host directory"
    expect_out '^host$' "$tag: host /tmp content readable inside"
    expect_out '^tmp-refused$' "$tag: a write to /tmp beside the workspace fails"
    expect_out '^link-refused$' "$tag: a write through a symlink out of the workspace into /tmp fails"
    expect_out '^mkdir-refused$' "$tag: mkdir in /tmp fails"
    expect_err 'Read-only file system' "$tag: with EROFS"
    expect_absent "$T_TMP/private-$tag" "$tag: /tmp write"
    expect_absent "$T_TMP/via-link-$tag" "$tag: write through the link"
    for mode in read_only workspace_write auto; do
        run_sup "$(policy $mode false false)" -- "$PY" -c 'import os, sys
p = sys.argv[1]
for name, op in (("write", lambda: open("/tmp/has-" + str(os.getpid()), "w")),
                 ("chmod", lambda: os.chmod(p, 0o600)), ("utime", lambda: os.utime(p, (0, 0))),
                 ("xattr", lambda: os.setxattr(p, "user.has", b"x")),
                 ("run", lambda: open("/run/has-" + str(os.getpid()), "w")),
                 ("var-tmp", lambda: open("/var/tmp/has-" + str(os.getpid()), "w"))):
    try:
        op(); print(name, "SUCCEEDED")
    except OSError as e:
        print(name, e.strerror)' "$T_TMP/existing-$tag"
        expect_out_lacks SUCCEEDED "$tag: $mode: write, chmod, utime, xattr in /tmp, /run, /var/tmp all fail"
        expect_out '^chmod Read-only file system$' "$tag: $mode: chmod in /tmp: EROFS"
    done
    local st
    st=$(stat -c %a:%Y "$T_TMP/existing-$tag")
    if [ "${st%%:*}" != 600 ] && [ "${st#*:}" != 0 ] && [ "$("$PY" -c 'import os, sys; print(os.listxattr(sys.argv[1]))' "$T_TMP/existing-$tag")" = "[]" ]; then
        ok "$tag: the host file's mode, time and xattrs are unchanged ($st)"
    else
        fail "$tag: the host file changed: $st"
    fi

    # --- a writable root at or above /tmp: the host directory, not a copy ----
    if [ "${T_TMP#/tmp/}" != "$T_TMP" ]; then
        run_sup "$(policy read_only false false '"allowedWritePaths":["/tmp"]')" -- sh -c "echo g > '$T_TMP/granted-$tag'"
        expect_content "$T_TMP/granted-$tag" g "$tag: allowedWritePaths [/tmp] writes the host /tmp"
    fi
    cd / || return
    run_sup "$WW" -- sh -c "echo r > '$out/root-cwd'"
    expect_content "$out/root-cwd" r "$tag: workspace_write with cwd / makes / writable"
    cd /
}

# Which path really ran: the new API uses open_tree/mount_setattr, the
# forced legacy path only mount(2).
mount_calls() {
    strace -f -qq -e trace=open_tree,mount_setattr,move_mount -o "$T_TMP/strace" \
        "$SUPERVISOR" --policy "$(policy workspace_write false false)" -- /bin/true >/dev/null 2>&1
    grep -cE 'open_tree\(|mount_setattr\([0-9]' "$T_TMP/strace"
}
# With mount_setattr(2) the new API must be used, without it (Debian 11's
# 5.10) the supervisor must take the legacy path by itself.
if have_tool strace strace; then
    n=$(cd "$(outside_dir)" && mount_calls)
    if ns_has_mount_setattr; then
        if [ "$n" -gt 0 ]; then ok "modern: mount_setattr/open_tree used ($n calls)"; else fail "modern: no new-API mount call"; fi
    else
        if [ "$n" = 0 ]; then ok "kernel without mount_setattr: the legacy path is taken unforced (no new-API call)"
        else fail "kernel without mount_setattr: $n new-API calls unforced"; fi
    fi
    n=$(cd "$(outside_dir)" && HAS_FORCE_LEGACY_MOUNT=1 mount_calls)
    if [ "$n" = 0 ]; then ok "HAS_FORCE_LEGACY_MOUNT=1: no new-API mount call"; else fail "legacy: $n new-API calls"; fi
fi

ns_both_mount_paths suite
finish
