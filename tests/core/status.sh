#!/usr/bin/env bash
# The workload's status is reproduced: exit N as N, death by signal S as
# death by S, for an unrestricted policy and, when this build has a platform
# backend, for a sandboxed one (where the supervisor stays outside and waits).
. "$HAS_SRCDIR/tests/lib.sh"

# status_of POLICY CMD...: prints "exit N" or "signal S" as seen by a parent.
status_of() {
    python3 - "$SUPERVISOR" "$@" <<'PY'
import os, signal, subprocess, sys
# A harness started as a background job inherits SIGINT and SIGQUIT ignored,
# and the supervisor hands the caller's dispositions on: the workload's
# `kill -INT $$` would do nothing.  Start from the defaults.
def defaults():
    for sig in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
p = subprocess.run([sys.argv[1], "--policy", sys.argv[2], "--"] + sys.argv[3:], preexec_fn=defaults,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
print(f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}")
PY
}

check_policy() {
    local label=$1 pol=$2
    for code in 0 1 3 124 126 127 255; do
        got=$(status_of "$pol" /bin/sh -c "exit $code")
        [ "$got" = "exit $code" ] && ok "$label: exit $code reproduced" || fail "$label: exit $code seen as '$got'"
    done
    for sig in TERM KILL INT HUP SEGV USR1; do
        num=$(kill -l "$sig")
        got=$(cd "$T_TMP" && status_of "$pol" /bin/sh -c "kill -$sig \$\$")
        [ "$got" = "signal $num" ] && ok "$label: SIG$sig reproduced" || fail "$label: SIG$sig seen as '$got'"
    done
    # A reproduced SIGSEGV must not leave a core file on the workload's behalf.
    if ls "$T_TMP"/core* >/dev/null 2>&1; then fail "$label: a core file was written"; else ok "$label: no core file"; fi
}

check_policy "full_access" "$(policy full_access true true)"

# A sandboxed policy only where this build can enforce one.
SANDBOXED=$(policy workspace_write false false)
cd "$T_TMP" || exit 1
run_sup "$SANDBOXED" -- /bin/true
if [ "$RC" = 125 ] && printf '%s' "$ERR" | grep -q "no enforcement backend"; then
    echo "# no platform backend in this build: sandboxed status reproduction not checked"
elif [ "$RC" != 0 ] && [ "${HAS_REQUIRE_SANDBOX:-0}" != 1 ]; then
    # A build root without user namespaces: the unsandboxed half above ran.
    echo "# not run: sandboxed status reproduction: the sandbox cannot be created here: $ERR"
else
    check_policy "workspace_write" "$SANDBOXED"
fi

finish
