#!/usr/bin/env bash
# The command-line contract of README.md, "Command line": every refusal exits 125 with one
# stderr line naming the problem, and the target never runs (it would create
# a marker file).
. "$HAS_SRCDIR/tests/lib.sh"

FULL=$(policy full_access true true)
MARK="$T_TMP/marker"
TARGET=(/bin/sh -c "touch '$MARK'")

# refused DESCRIPTION STDERR-PATTERN ARGS...: 125, message, no marker.
refused() {
    local what=$1 pattern=$2
    shift 2
    rm -f "$MARK"
    run_raw "$@"
    expect_rc 125 "$what"
    expect_err "$pattern" "$what"
    expect_one_line_error "$what"
    if [ -e "$MARK" ]; then fail "$what: the target ran"; else ok "$what: the target did not run"; fi
}

refused "no arguments" "no policy"
refused "no policy" "no policy" -- "${TARGET[@]}"
refused "unknown option" "unknown option '--bogus'" --bogus --policy "$FULL" -- "${TARGET[@]}"
refused "short unknown option" "unknown option '-x'" -x --policy "$FULL" -- "${TARGET[@]}"
refused "argument before --" "unexpected argument 'true'" --policy "$FULL" true
refused "no -- at all" "no command" --policy "$FULL"
refused "nothing after --" "no command" --policy "$FULL" --
refused "empty target" "no command" --policy "$FULL" -- ""
refused "--policy without value" "--policy needs a value" --policy -- "${TARGET[@]}"
refused "two transports" "exactly one of" --policy "$FULL" --policy-file /dev/null -- "${TARGET[@]}"
refused "same transport twice" "exactly one of" --policy "$FULL" --policy "$FULL" -- "${TARGET[@]}"
refused "--policy-fd 0" "descriptor 0 is stdin" --policy-fd 0 -- "${TARGET[@]}"
refused "--policy-fd 1" "descriptor 1 is stdin, stdout or stderr" --policy-fd 1 -- "${TARGET[@]}"
refused "--policy-fd 2" "descriptor 2 is stdin, stdout or stderr" --policy-fd 2 -- "${TARGET[@]}"
refused "--policy-fd -1" "not a descriptor number" --policy-fd -1 -- "${TARGET[@]}"
refused "--policy-fd 0x3" "not a descriptor number" --policy-fd 0x3 -- "${TARGET[@]}"
refused "--policy-fd closed" "descriptor is not open" --policy-fd 9 -- "${TARGET[@]}"
refused "--policy-file missing" "cannot open" --policy-file "$T_TMP/none.json" -- "${TARGET[@]}"
refused "--policy-file directory" "not a readable file" --policy-file / -- "${TARGET[@]}"
refused "--policy-file /dev/zero" "larger than the limit" --policy-file /dev/zero -- "${TARGET[@]}"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$T_TMP/big.json"
refused "--policy-file over 1 MiB" "larger than the limit" --policy-file "$T_TMP/big.json" -- "${TARGET[@]}"
# (--policy itself cannot carry 1 MiB: the kernel caps one argument at 128 KiB.)
refused "malformed JSON" 'invalid policy: \$: the policy is not valid JSON' --policy '{"mode":' -- "${TARGET[@]}"
refused "unknown field" 'invalid policy: .*\$\.colour: unknown field' \
    --policy '{"mode":"full_access","colour":1,"network":{"egress":true,"localBinding":true}}' -- "${TARGET[@]}"
refused "every offending field" '\$\.mode: .*\$\.network\.egress: .*\$\.network\.localBinding: required' \
    --policy '{"mode":"x","network":{"egress":1}}' -- "${TARGET[@]}"
# 40 bad entries: the whole capped list, with its "and N more" tail, fits
# on the one stderr line.
many=$(for i in $(seq 40); do printf '"rel%d",' "$i"; done)
refused "a long error list" 'deniedReadPaths\[31\]: must be an absolute path; \$: and 8 more problems$' \
    --policy "{\"mode\":\"read_only\",\"deniedReadPaths\":[${many%,}],\"network\":{\"egress\":false,\"localBinding\":false}}" \
    -- "${TARGET[@]}"
refused "full_access with a restriction" 'deniedReadPaths: is a restriction' \
    --policy '{"mode":"full_access","deniedReadPaths":["/etc"],"network":{"egress":true,"localBinding":true}}' -- "${TARGET[@]}"
refused "target not in PATH" "cannot execute 'has-no-such-command': not found in PATH" \
    --policy "$FULL" -- has-no-such-command
refused "target path missing" "cannot execute '/nonexistent/bin': No such file" \
    --policy "$FULL" -- /nonexistent/bin
printf 'echo hi\n' >"$T_TMP/noexec.sh"
chmod 644 "$T_TMP/noexec.sh"
refused "target not executable" "Permission denied" --policy "$FULL" -- "$T_TMP/noexec.sh"
refused "target is a directory" "cannot execute '/'" --policy "$FULL" -- /
printf 'echo no-shebang\n' >"$T_TMP/noshebang"
chmod 755 "$T_TMP/noshebang"
refused "no shell in between for a script without #!" "Exec format error" \
    --policy "$FULL" -- "$T_TMP/noshebang"

if [ "${HAS_BUILD_KIND:-release}" = release ]; then
    refused "developer option in a release build" "unknown option '--backend-dir'" \
        --backend-dir /tmp --policy "$FULL" -- "${TARGET[@]}"
    refused "developer module option in a release build" "unknown option '--backend-module'" \
        --backend-module /tmp/x.so --policy "$FULL" -- "${TARGET[@]}"
fi

# The three transports carry the same document.
run_raw --policy "$FULL" -- /bin/echo via-arg
expect_rc 0 "--policy runs the target"
expect_out '^via-arg$' "--policy"
printf '%s' "$FULL" >"$T_TMP/policy.json"
run_raw --policy-file "$T_TMP/policy.json" -- /bin/echo via-file
expect_out '^via-file$' "--policy-file"
run_raw --policy="$FULL" -- /bin/echo via-equals
expect_out '^via-equals$' "--policy=JSON"

# --policy-fd: read, closed, and never inherited by the workload.
"$SUPERVISOR" --policy-fd 3 -- /bin/sh -c 'if [ -e /proc/$$/fd/3 ]; then echo LEAKED; else echo CLOSED; fi' \
    3<"$T_TMP/policy.json" >"$T_TMP/out" 2>"$T_TMP/err"
RC=$?; OUT=$(cat "$T_TMP/out"); ERR=$(cat "$T_TMP/err")
expect_rc 0 "--policy-fd 3 runs the target"
expect_out '^CLOSED$' "--policy-fd descriptor does not reach the workload"
printf '%s' "$FULL" | "$SUPERVISOR" --policy-fd 7 -- /bin/echo via-pipe 7<&0 >"$T_TMP/out" 2>&1
OUT=$(cat "$T_TMP/out")
expect_out '^via-pipe$' "--policy-fd from a pipe"

# PATH lookup uses the workload's PATH.
mkdir -p "$T_TMP/bin"
printf '#!/bin/sh\necho from-workload-path\n' >"$T_TMP/bin/has-only-here"
chmod 755 "$T_TMP/bin/has-only-here"
PATH="$T_TMP/bin:$PATH" run_raw --policy "$FULL" -- has-only-here
expect_out '^from-workload-path$' "bare name found in the workload's PATH"

# The environment is passed on unchanged, loader variables included.
LD_LIBRARY_PATH=/has/lib HAS_ODD='a b=c' run_raw --policy "$FULL" -- /usr/bin/env
expect_out '^LD_LIBRARY_PATH=/has/lib$' "LD_LIBRARY_PATH reaches the workload"
expect_out '^HAS_ODD=a b=c$' "variables reach the workload unchanged"

# A PATH directory this user cannot search is "not found", not EACCES.
mkdir -p "$T_TMP/locked"
chmod 000 "$T_TMP/locked"
if is_root; then
    echo "# root searches any directory: unsearchable-PATH case not applicable"
else
    PATH="$T_TMP/locked:$PATH" run_raw --policy "$FULL" -- has-no-such-command
    expect_err "not found in PATH" "unsearchable PATH directory"
fi
chmod 755 "$T_TMP/locked"

# Closed standard descriptors are filled with /dev/null before anything is
# opened, so nothing of the supervisor's lands on the workload's 0, 1 or 2.
printf '%s' "$FULL" >"$T_TMP/policy0.json"
"$SUPERVISOR" --policy-file "$T_TMP/policy0.json" -- python3 -c \
    'import os, sys; sys.stderr.write(os.readlink("/proc/self/fd/0") + "\n" + os.readlink("/proc/self/fd/1"))' \
    <&- >&- 2>"$T_TMP/err"
ERR=$(cat "$T_TMP/err")
[ "$ERR" = $'/dev/null\n/dev/null' ] && ok "closed stdin/stdout arrive as /dev/null" \
    || fail "closed stdin/stdout arrive as: $ERR"

run_raw --help
expect_rc 0 "--help"
expect_out '^Usage: happy-agent-supervisor' "--help prints usage"
run_raw --version
expect_rc 0 "--version"
expect_out '^happy-agent-supervisor [0-9]+\.[0-9]+\.[0-9]+$' "--version"

# A name given twice in the environment: the workload gets one entry, the
# last (what sh, Python and Node use; getenv() would take the first).
python3 -c 'import ctypes, sys
env = [b"HAS_DUP=first", b"HAS_OTHER=x", b"HAS_DUP=second", b"HAS_DUPX=y", b"HAS_DUP=last", None]
args = [a.encode() for a in sys.argv[1:]] + [None]
ctypes.CDLL(None).execve(args[0], (ctypes.c_char_p * len(args))(*args), (ctypes.c_char_p * len(env))(*env))
sys.exit("execve failed")' "$SUPERVISOR" --policy "$FULL" -- /usr/bin/env >"$T_TMP/env" 2>&1
if [ "$(grep -c '^HAS_DUP=' "$T_TMP/env")" = 1 ] && grep -q '^HAS_DUP=last$' "$T_TMP/env" &&
    grep -q '^HAS_OTHER=x$' "$T_TMP/env" && grep -q '^HAS_DUPX=y$' "$T_TMP/env"; then
    ok "a duplicated environment name arrives once, with its last value; other names untouched"
else
    fail "duplicated environment: $(tr '\n' ' ' <"$T_TMP/env")"
fi

# --sandbox: a name of the build's sandbox backends, one at a time.
if [ "$(uname -s)" = Linux ]; then
    run_raw --sandbox nope --policy "$FULL" -- /bin/true
    expect_rc 125 "--sandbox naming no backend"
    expect_err '--sandbox nope: no such sandbox backend in this build \(it has: linux-ns, landlock\)' \
        "the refusal lists the build's sandbox backends"
    run_raw --sandbox linux-ns --sandbox landlock --policy "$FULL" -- /bin/true
    expect_rc 125 "two sandbox backends at once"
    expect_err 'one sandbox backend at a time' "the refusal says why"
    run_raw --sandbox --policy "$FULL" -- /bin/true
    expect_rc 125 "--sandbox without a name"
    expect_err '^happy-agent-supervisor: --sandbox needs a backend name' "the refusal says what is missing"
    run_raw --sandbox landlock --policy "$FULL" -- /bin/sh -c 'echo ran'
    expect_rc 0 "--sandbox landlock with full_access"
    expect_out '^ran$' "the target ran"
fi

finish
