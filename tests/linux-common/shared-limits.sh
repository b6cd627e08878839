#!/bin/bash
# shared-limits.sh — the caller keeps its half of the per-user counts the
# kernel charges for the sandbox too, on both Linux backends: queued
# signals (RLIMIT_SIGPENDING) and POSIX message-queue bytes
# (RLIMIT_MSGQUEUE).  The workload takes all it can (shared_hog sig-fill,
# mq-fill) and holds them; meanwhile the caller, on the host, queues a
# signal to itself, makes a signalling timer and a message queue with a
# message.  First, on the host alone, the same hog under a small limit
# shows that the probe does see exhaustion.
. "$HAS_SRCDIR/tests/lib.sh"
HOG="$HAS_BUILDDIR/tests/linux-common/helpers/shared_hog"
[ -x "$HOG" ] || fail "no $HOG (make check builds it)"
NO_USERNS="$HAS_BUILDDIR/tests/landlock/helpers/no_userns"
ws=$(mktemp -d /var/tmp/has-shared.XXXXXX)
chmod 777 "$ws"
trap 'rm -rf "$ws"; t_cleanup' EXIT
cd "$ws" || exit 1
POL=$(policy workspace_write false false)

# hold_and_probe WHAT PROBE CMD...: CMD (a hog, in $ws) takes WHAT and holds
# it; once it has written hog.count, run PROBE on the host.  Sets TAKEN,
# WHY (from hog.count), PROBED (the probe's output), RC, ERR (the hog's).
hold_and_probe() {
    local what=$1 probe=$2 pid
    shift 2
    rm -f hog.count hog.done
    timeout 40 "$@" >"$T_TMP/hog.out" 2>"$T_TMP/hog.err" </dev/null &
    pid=$!
    for _ in $(seq 300); do [ -s hog.count ] && break; sleep 0.05; done
    TAKEN='' WHY=''
    read -r TAKEN WHY <hog.count 2>/dev/null
    PROBED=$(eval "$probe" 2>&1)
    touch hog.done
    wait "$pid"
    # shellcheck disable=SC2034 # RC and ERR are read by expect_rc (tests/lib.sh)
    RC=$? ERR=$(cat "$T_TMP/hog.err")
    echo "# $what: took ${TAKEN:-?} (${WHY:-no report}); the caller's probe: $(echo "$PROBED" | tr '\n' ' ')"
}

# ---- the probe sees exhaustion: hog and probe on the host, under one
# small limit (the caller's real ones are left alone) ----
# The count is per user: a signal of the same user delivered elsewhere (a
# parallel test's) frees a slot for a moment, though the hog tops it up;
# the probe looks a few times.
hold_and_probe "host hog, ulimit -i 64" '(ulimit -i 64 && for _ in $(seq 20); do
        out=$("$HOG" sig-probe); case $out in *"sigqueue EAGAIN"*) break ;; esac; sleep 0.05; done; echo "$out")' \
    bash -c 'ulimit -i 64 && exec "$1" sig-fill .' sh "$HOG"
[ "${WHY:-}" = EAGAIN ] && [ "${TAKEN:-0}" -ge 1 ] && [ "$TAKEN" -le 64 ] &&
    ok "control: a hog under RLIMIT_SIGPENDING 64 queues $TAKEN signals until EAGAIN" ||
    fail "control: the host hog took ${TAKEN:-?} signals (${WHY:-}): $ERR"
printf '%s\n' "$PROBED" | grep -qx 'sigqueue EAGAIN' && printf '%s\n' "$PROBED" | grep -qx 'timer EAGAIN' &&
    ok "control: meanwhile a probe under the same limit gets EAGAIN (sigqueue, timer_create)" ||
    fail "control: the probe did not see the exhaustion: $PROBED"
hold_and_probe "host hog, ulimit -q 100000" '(ulimit -q 100000 && "$HOG" mq-probe)' \
    bash -c 'ulimit -q 100000 && exec "$1" mq-fill .' sh "$HOG"
[ "${WHY:-}" = EMFILE ] && [ "${TAKEN:-0}" -ge 1 ] && ok "control: a hog under RLIMIT_MSGQUEUE 100000 takes $TAKEN queues" ||
    fail "control: the host mq hog took ${TAKEN:-?} (${WHY:-}): $ERR"
[ "$PROBED" = "mq EMFILE" ] && ok "control: meanwhile a probe under the same limit gets EMFILE" ||
    fail "control: the mq probe did not see the exhaustion: $PROBED"

sig_half=$(($(ulimit -i) / 2))
for b in linux-ns landlock; do
    wrap=()
    [ "$b" = landlock ] && wrap=("$NO_USERNS")
    if ! OUT=$("${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --policy "$POL" -- true 2>&1 </dev/null); then
        echo "# not run: $b cannot start here: $OUT"
        continue
    fi
    OUT=$("${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --policy "$POL" -- bash -c 'ulimit -Si; ulimit -Hi' 2>&1 </dev/null)
    [ "$OUT" = "$sig_half"$'\n'"$sig_half" ] && ok "$b: RLIMIT_SIGPENDING is half the caller's, soft = hard ($sig_half)" ||
        fail "$b: RLIMIT_SIGPENDING inside: $OUT (the caller's soft $(ulimit -i))"

    # --explain names them, with the values a launch sets.
    said=$("$SUPERVISOR" --sandbox "$b" --explain --policy "$POL" 2>&1 </dev/null)
    mq_half=$(($(ulimit -q) / 2))
    printf '%s\n' "$said" | grep -q "^shared RLIMIT_SIGPENDING: .*: $sig_half for the sandbox (soft = hard), half the caller's" &&
        printf '%s\n' "$said" | grep -q "^shared RLIMIT_MSGQUEUE: .*: $mq_half for the sandbox (soft = hard)" &&
        printf '%s\n' "$said" | grep -q "^shared fs.pipe-user-pages-soft: pipe buffers: not bounded" &&
        ok "$b: --explain lists the shared limits" || fail "$b: --explain: $said"

    hold_and_probe "$b: signals" '"$HOG" sig-probe' "${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --policy "$POL" -- "$HOG" sig-fill .
    expect_rc 0 "$b: the signal hog ran and ended"
    [ "${WHY:-}" = EAGAIN ] && [ "${TAKEN:-0}" -ge 1 ] && [ "$TAKEN" -le "$sig_half" ] &&
        ok "$b: the workload queued $TAKEN signals until EAGAIN, at most half the caller's ($sig_half)" ||
        fail "$b: the workload queued ${TAKEN:-?} signals (${WHY:-no report}), the bound is $sig_half"
    [ "$PROBED" = $'sigqueue ok\ntimer ok' ] && ok "$b: meanwhile the caller's sigqueue() and timer_create() work" ||
        fail "$b: while the sandbox held $TAKEN signals the caller got: $PROBED"

    hold_and_probe "$b: message queues" '"$HOG" mq-probe' "${wrap[@]}" "$SUPERVISOR" --sandbox "$b" --policy "$POL" -- "$HOG" mq-fill .
    expect_rc 0 "$b: the message-queue hog ran and ended"
    if [ "$b" = landlock ]; then
        # No IPC namespace: mq_open is the host's, refused (seccomp).
        [ "${TAKEN:-}" = 0 ] && [ "${WHY:-}" = EPERM ] && ok "$b: the workload's mq_open is refused (EPERM)" ||
            fail "$b: the workload made ${TAKEN:-?} message queues (${WHY:-no report})"
    else
        [ "${WHY:-}" = EMFILE ] && [ "${TAKEN:-0}" -ge 1 ] &&
            ok "$b: the workload made $TAKEN message queues in its IPC namespace until EMFILE" ||
            fail "$b: the workload made ${TAKEN:-?} message queues (${WHY:-no report}): $ERR"
    fi
    [ "$PROBED" = "mq ok" ] && ok "$b: meanwhile the caller's mq_open() and a message work" ||
        fail "$b: while the sandbox held its message queues the caller got: $PROBED"
done
finish
