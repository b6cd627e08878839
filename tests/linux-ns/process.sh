#!/bin/bash
# process.sh — PID namespace layout, status reproduction through the init,
# signal forwarding, the sandbox dying with the supervisor, orphans, and
# descriptor hygiene; the full_access decision; a diagnostic.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(outside_dir)
cd "$ws" || exit 1
P=$(policy workspace_write false false)

run_sup "$P" -- sh -c 'echo "pid $$"; ls /proc | grep -E "^[0-9]+$" | sort -n | head -2 | tr "\n" " "'
expect_out '^pid 2$' "the workload is PID 2"
expect_out '^1 2 $' "PID 1 is the init, no host process is visible"

# The workload hardens while the init still mounts (backend.c); its target
# must still start in the finished sandbox, every time: the private /proc,
# no capability left, the working directory the writable bind.
n=$(launches 200 20) early=
for i in $(seq "$n"); do
    "$SUPERVISOR" --policy "$P" -- sh -c 'read c < /proc/1/comm; grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status ||
        c="$c caps"; echo > "v'$i'" || c="$c cwd"; echo "$c"' >"$T_TMP/view" 2>&1
    grep -qx 'happy-agent-sup' "$T_TMP/view" || { early="launch $i: $(cat "$T_TMP/view")"; break; }
done
[ -z "$early" ] && ok "$n launches: the target always starts in the finished sandbox" || fail "$early"
rm -f v[0-9]*

run_sup "$P" -- sh -c 'exit 7'
expect_rc 7 "exit status reproduced"
run_sup "$P" -- sh -c 'kill -TERM $$'
expect_rc 143 "death by SIGTERM reproduced"
run_sup "$P" -- sh -c 'kill -KILL $$'
expect_rc 137 "death by SIGKILL reproduced"
run_sup "$P" -- sh -c 'kill -SEGV $$'
expect_rc 139 "death by SIGSEGV reproduced"

# SIGTERM to the supervisor reaches the workload.
"$SUPERVISOR" --policy "$P" -- sh -c 'trap "exit 42" TERM; echo up; while :; do sleep 0.05; done' >"$T_TMP/fwd" 2>&1 &
sup=$!
for _ in $(seq 100); do grep -q up "$T_TMP/fwd" 2>/dev/null && break; sleep 0.05; done
kill -TERM "$sup"
wait "$sup"
RC=$?; ERR=$(cat "$T_TMP/fwd")
expect_rc 42 "SIGTERM forwarded to the workload"

# SIGTERM while the sandbox is still being built (1,000 masks keep the init
# mounting for several ms) is never lost: before the clone it kills the
# supervisor, during the build the init forwards it to the workload (which
# has not been released yet), after the exec it reaches the target; each way
# the supervisor dies of SIGTERM.  An init that dropped it would let the
# target run its 2 s and exit 0.
mkdir "$ws/masks"
masks=$(for i in $(seq 1000); do mkdir "$ws/masks/d$i"; printf '"%s",' "$ws/masks/d$i"; done)
PM=$(policy workspace_write false false "\"deniedReadPaths\":[${masks%,}]")
for try in 1 2 3; do
    "$SUPERVISOR" --policy "$PM" -- sh -c 'sleep 2' >/dev/null 2>&1 &
    sup=$!
    sleep 0.003
    kill -TERM "$sup"
    wait "$sup"
    RC=$?; ERR=
    expect_rc 143 "SIGTERM during the sandbox build is not lost (try $try)"
done

# The same at every moment of a plain launch, the start of the build
# included: between clone() and the init's handler a forwarded SIGTERM used
# to be dropped (a PID-namespace init ignores signals it has no handler for)
# and the target ran to completion (lost in ~3 % of these tries); later, one
# forwarded while the init checked that the supervisor was alive interrupted
# that check and the launch failed with 125 (seen once in CI; a debug build
# with a 2 ms check failed half of these tries).
# (Under emulation fewer tries here and in the storm below: launches in
# tests/lib.sh.)
tries=$(launches 300 30)
lost=$(python3 - "$SUPERVISOR" "$P" "$tries" <<'PY'
import os, random, signal, sys, time
sup, pol, tries = sys.argv[1], sys.argv[2], int(sys.argv[3])
lost = []
for _ in range(tries):
    delay = random.uniform(0, 0.0015)
    err_r, err_w = os.pipe()
    pid = os.posix_spawn(sup, [sup, "--policy", pol, "--", "sh", "-c", "sleep 5"], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, err_w, 2)])
    os.close(err_w)
    start = time.perf_counter()
    while time.perf_counter() - start < delay:
        pass
    os.kill(pid, signal.SIGTERM)
    err = os.read(err_r, 4096).decode(errors="replace").strip()
    os.close(err_r)
    _, status = os.waitpid(pid, 0)
    if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM):
        lost.append("%d us: status %d, stderr '%s'" % (delay * 1e6, status, err))
print("; ".join(lost))
PY
)
if [ -z "$lost" ]; then ok "SIGTERM at a random moment of $tries launches: never lost"
else fail "SIGTERM lost: $lost"; fi

# A signal the caller ignores stays ignored for the target (nohup): the
# supervisor forwards, the workload gets the caller's dispositions back.
out=$( (trap '' HUP; "$SUPERVISOR" --policy "$P" -- sh -c 'kill -HUP $$; echo survived') 2>&1)
if [ "$out" = survived ]; then ok "an ignored SIGHUP stays ignored inside (nohup)"
else fail "ignored SIGHUP not kept: '$out'"; fi

# A storm of forwarded signals breaks no step of a launch.  SIGHUP is ignored
# by the caller, so every one of them travels supervisor -> init -> workload
# and is dropped there; meanwhile no setup call in any of the three may fail
# with EINTR (one in the init's lifeline check once turned a SIGTERM into
# exit 125: a build that widened that check to 2 ms fails every launch here).
# Plain launches and 1,000-mask ones (the init mounting for ~10 ms).
plain_n=$(launches 60 6) masks_n=$(launches 15 3)
storm=$(python3 - "$SUPERVISOR" "$P" "$PM" "$plain_n" "$masks_n" <<'PY'
import os, signal, sys, time
sup, plain, masks = sys.argv[1:4]
plain_n, masks_n = int(sys.argv[4]), int(sys.argv[5])
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # inherited by the supervisor
# The sender spins and its supervisor wakes at every signal; the sandbox's
# init calls setsid(), so with the scheduler's autogroups the launch is a
# group of its own that this pair can starve for seconds (20 s seen under
# make -j2).  The sender's session is made a low-priority group instead:
# the storm stays as dense, the launch gets the CPU it needs.
os.setsid()
try:
    with open("/proc/self/autogroup", "w") as f:
        f.write("19")
except OSError:
    pass  # no autogroups here: no groups to starve
bad = []
for pol in [plain] * plain_n + [masks] * masks_n:
    r, w = os.pipe()
    pid = os.posix_spawn(sup, [sup, "--policy", pol, "--", "/bin/echo", "ran"], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_DUP2, w, 2)])
    os.close(w)
    sent, deadline = 0, time.monotonic() + 20
    while True:
        os.kill(pid, signal.SIGHUP)
        sent += 1
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:  # a hang is a failure, not a stuck test
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            break
    out = b""
    while chunk := os.read(r, 4096):
        out += chunk
    os.close(r)
    if status != 0 or out.strip() != b"ran":
        bad.append("status %d after %d SIGHUPs: %r" % (status, sent, out.strip()[:160]))
print("; ".join(bad))
PY
)
if [ -z "$storm" ]; then ok "$((plain_n + masks_n)) launches under a SIGHUP storm (ignored by the caller): all ran"
else fail "a forwarded-signal storm broke a launch: $storm"; fi

# SIGKILL of the supervisor: nothing of the sandbox survives.
marker="has-orphan-$$-$RANDOM"
"$SUPERVISOR" --policy "$P" -- sh -c "sleep 300 & echo up; exec sh -c 'sleep 301; : $marker'" >"$T_TMP/kill" 2>&1 &
sup=$!
for _ in $(seq 100); do grep -q up "$T_TMP/kill" 2>/dev/null && break; sleep 0.05; done
sleep 0.2
if pgrep -f "$marker" >/dev/null; then ok "the workload runs (control)"; else fail "the workload is not running"; fi
kill -KILL "$sup"
wait "$sup" 2>/dev/null
gone=no
for _ in $(seq 50); do pgrep -f "$marker" >/dev/null || { gone=yes; break; }; sleep 0.05; done
if [ $gone = yes ]; then ok "supervisor SIGKILLed: the workload died with it"; else fail "workload survived the supervisor"; fi

# Orphans left by the workload end with it.
marker2="has-bg-$$-$RANDOM"
run_sup "$P" -- sh -c "sh -c 'sleep 302; : $marker2' & echo started"
expect_rc 0 "workload with a background child"
sleep 0.1
if pgrep -f "$marker2" >/dev/null; then fail "a background process survived the workload"; else ok "no background process survives"; fi

# Descriptors: an inherited file and directory descriptor do not reach it.
exec 7</etc/hostname 8<"$NS_OUT_BASE"
run_sup "$P" -- "$ATTACK" fds
expect_rc 0 "only 0, 1, 2 inside (fd 7 and directory fd 8 were inherited)"
"$ATTACK" fds >/dev/null
rc=$?
if [ "$rc" = 1 ]; then ok "control: the helper sees the inherited descriptors outside"; else fail "control fds: $rc"; fi

# full_access: no namespaces (nothing to enforce), descriptor hygiene kept.
FULL=$(policy full_access true true)
run_sup "$FULL" -- sh -c 'echo "pid $$"'
expect_out_lacks '^pid 2$' "full_access: no PID namespace"
out=$(outside_dir)
run_sup "$FULL" -- sh -c "echo full > '$out/f'"
expect_content "$out/f" full "full_access: writes anywhere the caller may"
run_sup "$FULL" -- "$ATTACK" fds
expect_rc 0 "full_access: still only 0, 1, 2"
exec 7<&- 8<&-

# Diagnostics: a supervisor inside the sandbox is refused a user namespace by
# the seccomp filter, exactly like inside a container's default profile.
run_sup "$P" -- "$SUPERVISOR" --policy "$P" -- /bin/true
expect_rc 125 "nested supervisor: 125"
expect_err 'clone.*Operation not permitted.*seccomp=unconfined' "the message names the cause and the fix"
expect_one_line_error "nested supervisor"
finish
