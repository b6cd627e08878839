# shellcheck shell=bash
# tests/lib-workspace-race.sh — the workspace renamed while launches set up
# (sourced by tests/linux-ns/workspace-rename.sh and
# tests/landlock/workspace-rename.sh after tests/lib.sh).
#
# The supervisor is started in the workspace P/ws (a writable root inside
# it, a denial in a directory of it too); a process that may write
# P exchanges P/ws with P/priv (renameat2 RENAME_EXCHANGE, at random short
# intervals) from a random moment of each launch's set-up until it ends; P/priv is a directory outside the workspace that
# only the caller may write, laid out like it.  Every launch must build its sandbox on the directory it was
# started in, or refuse (125): the workload tries to read the secret and to
# write the hooks and priv under both names, and the host is checked after
# every phase (secret never printed, hooks unchanged, nothing in priv).
#
# The script sets WSR_BASE (a directory for the phases) and defines and
# exports (export -f, with what it reads) wsr_launch ARGS... (one launch of
# its backend with the supervisor's ARGS, in the current directory) before
# calling wsr_phase.

WSR_SECRET="wsr-secret-$$-$RANDOM"
WSR_PY="$HAS_SRCDIR/tests/workspace_race.py"

# wsr_layout P OWNER: P/ws (secret, conf/key, hooks/h, build/, a marker)
# and P/priv (conf/, build/, a marker), mode 0700, owned by the caller; P
# owned by OWNER.  Without hooks/ in priv, a launch that starts with the
# names exchanged (its getcwd() names priv) is refused for the missing
# write-denied path: the policy's names are taken as they are when the
# supervisor starts (README, "The workspace is the directory...").
wsr_layout() {
    local p=$1 owner=$2
    mkdir -p "$p/ws/hooks" "$p/ws/conf" "$p/ws/build" "$p/priv/conf" "$p/priv/build"
    printf '%s\n' "$WSR_SECRET" >"$p/ws/secret"
    printf '%s\n' "$WSR_SECRET" >"$p/ws/conf/key"
    echo orig >"$p/ws/hooks/h"
    : >"$p/ws/.is-ws"
    : >"$p/priv/.is-priv"
    chmod 700 "$p/ws" "$p/priv"
    # P is on the way to the denials: landlock's walk gives each of its
    # entries a rule, and with these it lasts long enough to be raced
    # after getcwd() (workspace_race.py waits 2 ms).
    (cd "$p" && seq -f 'pad%g' 3000 | xargs touch)
    chmod 755 "$p"
    chown "$owner" "$p"
}

# wsr_phase TAG ATTACKER N: N launches from P/ws while ATTACKER ("self", or
# a user name) exchanges P/ws and P/priv during each one's set-up
# (workspace_race.py); then the host is checked.
wsr_phase() {
    local tag=$1 attacker=$2 n=$3 p="$WSR_BASE/$1" ctl="$T_TMP/ctl-$1" owner counts flips
    owner=$(id -un)
    [ "$attacker" = self ] || owner=$attacker
    wsr_layout "$p" "$owner"
    mkdir -p "$ctl"
    chmod 777 "$ctl"
    # Read denials that exist nowhere, sorted before the secret: linux-ns
    # looks each one up before it masks the secret, so that the masks
    # can be raced after getcwd() too (workspace_race.py waits 2 ms).
    local pads
    pads=$(seq -f "\"$p/ws/pad%g\"," 2000 | tr -d '\n')
    policy workspace_write false false \
        "\"deniedReadPaths\":[$pads\"$p/ws/secret\",\"$p/ws/conf/key\"],\"deniedWritePaths\":[\"$p/ws/hooks\"],\"allowedWritePaths\":[\"$p/ws/build\"]" >"$T_TMP/policy-$tag"
    # The workload's attempts, under both names and by the name it stands in.
    local work="for d in '$p/ws' '$p/priv'; do cat \"\$d/secret\" \"\$d/conf/key\"; echo pwn >\"\$d/pwn.\$\$\";
        echo pwn >\"\$d/hooks/h\"; echo pwn >\"\$d/build/pwn.\$\$\"; done
        cat secret conf/key; echo pwn >hooks/h; echo pwn >pwn-here.\$\$; echo ran"
    if [ "$attacker" = self ]; then
        "$PY" "$WSR_PY" flip "$p/ws" "$p/priv" "$ctl" >"$T_TMP/flips-$tag" &
    else
        runuser -u "$attacker" -- "$PY" "$WSR_PY" flip "$p/ws" "$p/priv" "$ctl" >"$T_TMP/flips-$tag" &
    fi
    local fpid=$!
    # Launched from the real workspace, held by inode from here on.
    counts=$(cd "$p/ws" && "$PY" "$WSR_PY" drive "$ctl" "$n" "$T_TMP/all-$tag" "$T_TMP/policy-$tag" \
        bash -c 'wsr_launch "$@"' wsr --policy-fd 9 -- /bin/sh -c "$work")
    touch "$ctl/stop"
    wait "$fpid"
    flips=$(cat "$T_TMP/flips-$tag")
    local ran=${counts% *} refused=${counts#* } moved
    moved=$(grep -c 'working directory' "$T_TMP/all-$tag")
    echo "# $tag: $n launches, $flips exchanges during the launches: $ran ran, $refused refused ($moved naming the moved working directory)"
    if [ -e "$p/ws/.is-ws" ]; then ok "$tag: the names are back as they were"
    else fail "$tag: the workspace is not at its name after the phase"; fi
    if grep -q "$WSR_SECRET" "$T_TMP/all-$tag"; then fail "$tag: the workload read the secret"
    else ok "$tag: the secret never reached the workload"; fi
    expect_content "$p/ws/hooks/h" orig "$tag: the write-denied hooks file is unchanged"
    local in_priv
    in_priv=$(find "$p/priv" -mindepth 1 ! -name .is-priv ! -name conf ! -name build | head -3 | tr '\n' ' ')
    if [ -z "$in_priv" ]; then ok "$tag: nothing written in the directory outside the workspace"
    else fail "$tag: written in the directory outside the workspace: $in_priv"; fi
    if [ "${ran:-0}" -gt 0 ] && [ "${flips:-0}" -gt 0 ]; then ok "$tag: launches ran under the exchanges (the race was exercised)"
    else fail "$tag: ${ran:-0} launches ran, ${flips:-0} exchanges: the race was not exercised"; fi
}
