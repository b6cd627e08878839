# shellcheck shell=bash
# tests/lib-workspace-race.sh — the workspace renamed while launches set up
# (sourced by tests/linux-ns/workspace-rename.sh and
# tests/landlock/workspace-rename.sh after tests/lib.sh).
#
# The supervisor is started in the workspace P/ws; a process that may write
# P keeps exchanging P/ws with P/priv (renameat2 RENAME_EXCHANGE, at random
# short intervals), a directory outside the workspace that only the caller
# may write.  Every launch must build its sandbox on the directory it was
# started in, or refuse (125): the workload tries to read the secret and to
# write the hooks and priv under both names, and the host is checked after
# every phase (secret never printed, hooks unchanged, nothing in priv).
#
# The script sets WSR_BASE (a directory for the phases) and defines
# wsr_launch POLICY -- TARGET... (one launch of its backend, in the current
# directory) before calling wsr_phase.

WSR_SECRET="wsr-secret-$$-$RANDOM"
WSR_FLIP='import ctypes, os, random, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, stop = (s.encode() for s in sys.argv[1:4])
n = 0
while not os.path.exists(stop):
    n += libc.renameat2(-100, a, -100, b, 2) == 0  # RENAME_EXCHANGE
    time.sleep(random.random() * 0.002)
print(n)'

# wsr_layout P OWNER: P/ws (secret, hooks/h, a marker) and P/priv (a
# marker), mode 0700, owned by the caller; P owned by OWNER.
wsr_layout() {
    local p=$1 owner=$2
    mkdir -p "$p/ws/hooks" "$p/priv"
    printf '%s\n' "$WSR_SECRET" >"$p/ws/secret"
    echo orig >"$p/ws/hooks/h"
    : >"$p/ws/.is-ws"
    : >"$p/priv/.is-priv"
    chmod 700 "$p/ws" "$p/priv"
    chmod 755 "$p"
    chown "$owner" "$p"
}

# wsr_restore P: the names back as they were (the flipper stops after an
# exchange, either way round).
wsr_restore() {
    [ -e "$1/ws/.is-ws" ] ||
        "$PY" -c 'import ctypes, sys; sys.exit(ctypes.CDLL(None).renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2))' "$1/ws" "$1/priv"
}

# wsr_phase TAG ATTACKER N: N launches from P/ws while ATTACKER ("self", or
# a user name) exchanges P/ws and P/priv; then the host is checked.
wsr_phase() {
    local tag=$1 attacker=$2 n=$3 p="$WSR_BASE/$1" ran=0 refused=0 moved=0 other=0 rc flips
    local owner stop="$T_TMP/stop-$1"
    owner=$(id -un)
    [ "$attacker" = self ] || owner=$attacker
    wsr_layout "$p" "$owner"
    local pol
    pol=$(policy workspace_write false false \
        "\"deniedReadPaths\":[\"$p/ws/secret\"],\"deniedWritePaths\":[\"$p/ws/hooks\"]")
    # The workload's attempts, under both names and by the name it stands in.
    local work="for d in '$p/ws' '$p/priv'; do cat \"\$d/secret\"; echo pwn >\"\$d/pwn.\$\$\";
        echo pwn >\"\$d/hooks/h\"; done; cat secret; echo pwn >hooks/h; echo pwn >pwn-here.\$\$; echo ran"
    cd "$p/ws" || exit 2 # held by inode from here: launches start in the real workspace
    rm -f "$stop"
    if [ "$attacker" = self ]; then
        "$PY" -c "$WSR_FLIP" "$p/ws" "$p/priv" "$stop" >"$T_TMP/flips-$tag" &
    else
        runuser -u "$attacker" -- "$PY" -c "$WSR_FLIP" "$p/ws" "$p/priv" "$stop" >"$T_TMP/flips-$tag" &
    fi
    local fpid=$!
    : >"$T_TMP/all-$tag"
    for _ in $(seq "$n"); do
        wsr_launch "$pol" -- /bin/sh -c "$work" >"$T_TMP/one" 2>&1 </dev/null
        rc=$?
        cat "$T_TMP/one" >>"$T_TMP/all-$tag"
        case $rc in
        125) refused=$((refused + 1))
            if grep -q 'working directory' "$T_TMP/one"; then moved=$((moved + 1))
            else other=$((other + 1)); cat "$T_TMP/one" >>"$T_TMP/other-$tag"; fi ;;
        *) ran=$((ran + 1)) ;;
        esac
    done
    touch "$stop"
    wait "$fpid"
    flips=$(cat "$T_TMP/flips-$tag")
    cd "$T_TMP" || exit 2
    wsr_restore "$p"
    echo "# $tag: $n launches, $flips exchanges: $ran ran, $refused refused ($moved naming the moved working directory, $other otherwise)"
    if grep -q "$WSR_SECRET" "$T_TMP/all-$tag"; then fail "$tag: the workload read the secret"
    else ok "$tag: the secret never reached the workload"; fi
    expect_content "$p/ws/hooks/h" orig "$tag: the write-denied hooks file is unchanged"
    local in_priv
    in_priv=$(find "$p/priv" -mindepth 1 ! -name .is-priv | head -3 | tr '\n' ' ')
    if [ -z "$in_priv" ]; then ok "$tag: nothing written in the directory outside the workspace"
    else fail "$tag: written in the directory outside the workspace: $in_priv"; fi
    # A refusal for another reason is fail-closed too: exchanged before
    # getcwd(), the workspace's name is priv's, and the write-denied hooks
    # under the old name are then missing (say which, for the log).
    [ "$other" = 0 ] || echo "# $tag: e.g. $(head -1 "$T_TMP/other-$tag")"
    if [ "$ran" -gt 0 ] && [ "${flips:-0}" -gt 0 ]; then ok "$tag: launches ran under the exchanges (the race was exercised)"
    else fail "$tag: $ran launches ran, ${flips:-0} exchanges: the race was not exercised"; fi
}
