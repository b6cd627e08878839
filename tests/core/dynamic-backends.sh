#!/usr/bin/env bash
# Developer builds: backends are modules the core dlopen()s and walks in
# `order`; a module built against another ABI, one with bits the core does
# not know, one missing any of the four hooks, a second module with a taken
# name or order, a second default sandbox backend are refused with 125
# naming the module, before any hook of any module runs.
. "$HAS_SRCDIR/tests/lib.sh"

MODS="$HAS_BUILDDIR/tests/core/backends/.libs"
EMPTY="$T_TMP/no-modules"
mkdir -p "$EMPTY"
REC="$T_TMP/record"
export HAS_RECORDER_FILE="$REC"
FULL=$(policy full_access true true)
MARK="$T_TMP/marker"

run_sup "$FULL" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_a.so" \
    --backend-module "$MODS/recorder_b.so" -- /usr/bin/env
expect_rc 0 "two example modules loaded"
want=$'b:prepare\na:prepare\nb:enter\na:enter\nb:harden\na:harden'
got=$(cat "$REC" 2>/dev/null)
[ "$got" = "$want" ] && ok "hooks ran phase by phase in ascending order" || fail "hook order: $got"
expect_out '^HAS_RECORDED_BY_a=yes$' "a module shapes the workload environment"

# refused DESCRIPTION PATTERN MODULE...
refused() {
    local what=$1 pattern=$2
    shift 2
    local args=()
    for m in "$@"; do args+=(--backend-module "$m"); done
    rm -f "$MARK" "$REC"
    run_sup "$FULL" --backend-dir "$EMPTY" "${args[@]}" -- /bin/sh -c "touch '$MARK'"
    expect_rc 125 "$what"
    expect_err "$pattern" "$what"
    [ -e "$MARK" ] && fail "$what: target ran" || ok "$what: target did not run"
    [ -e "$REC" ] && fail "$what: a hook ran before the refusal" || ok "$what: no hook ran"
}
# The ABI block: both sides' values, the module's path, nothing run.
core_sig=$(sed -n 's/^#define SANDBOX_ABI_SIGNATURE \([0-9]*\)ul$/\1/p' "$HAS_BUILDDIR/core/backend_abi.h")
[ -n "$core_sig" ] && ok "the build generated the ABI signature" || fail "no SANDBOX_ABI_SIGNATURE in core/backend_abi.h"
refused "module for another ABI signature" \
    "recorder_bad_abi.so: built for backend ABI signature 999 \(ctx [0-9]+, .*\), this supervisor has $core_sig \(" \
    "$MODS/recorder_bad_abi.so"
refused "module built with another struct sandbox_ctx" \
    "recorder_old_ctx.so: built for backend ABI signature $core_sig \(ctx ([0-9]+), .*\), this supervisor has $core_sig \(ctx [0-9]+," \
    "$MODS/recorder_old_ctx.so"
refused "module built before the ABI block (backend ABI 4)" \
    "recorder_old_descriptor.so: no backend ABI block \(magic 0x4, this supervisor's is 0x[0-9a-f]+\)" \
    "$MODS/recorder_old_descriptor.so"
# Bits this core does not know (SANDBOX_*_ALL).
for field in enforces offers needs needs_one_of; do
    refused "unknown $field bits" \
        "recorder_unknown_$field.so \(unknown-${field//_/-}\): unknown $field bits 0x[0-9a-f]+ \(this supervisor knows 0x[0-9a-f]+\)" \
        "$MODS/recorder_unknown_$field.so"
done
# One default sandbox backend per set (the others are on_request).
refused "two default sandbox backends" \
    "recorder_second_default.so \(second-default\): a second default sandbox backend \('needy' is one\)" \
    "$MODS/recorder_needy.so" "$MODS/recorder_second_default.so"
refused "module without a harden hook" "recorder_no_harden.so \(no-harden\): the harden hook is missing" \
    "$MODS/recorder_no_harden.so"
refused "module without a prepare hook" "recorder_no_prepare.so \(no-prepare\): the prepare hook is missing" \
    "$MODS/recorder_no_prepare.so"
# explain is required like the three others (README's recipe once left it
# out): refused when the module loads, naming the hook and the way out,
# also beside a well-formed module, and --help says so instead of a list.
refused "module without an explain hook" \
    "recorder_no_explain.so \(no-explain\): the explain hook is missing; use sandbox_explain_noop" \
    "$MODS/recorder_no_explain.so"
refused "module without an explain hook, loaded after a good one" \
    "recorder_no_explain.so \(no-explain\): the explain hook is missing" \
    "$MODS/recorder_a.so" "$MODS/recorder_no_explain.so"
run_raw --backend-dir "$EMPTY" --backend-module "$MODS/recorder_no_explain.so" --help
expect_rc 0 "--help with a module without an explain hook"
expect_out "cannot list them: backend .*recorder_no_explain.so \(no-explain\): the explain hook is missing" \
    "--help names the module and the missing hook"
refused "duplicate name" "recorder_a.so: a backend named 'a' is already loaded" "$MODS/recorder_a.so" "$MODS/recorder_a.so"
refused "duplicate order" "recorder_same_order.so \(same-order\): order 20 is already taken by 'a'" \
    "$MODS/recorder_a.so" "$MODS/recorder_same_order.so"
refused "not a backend" "no 'sandbox_backend_descriptor' symbol" "$(ls /usr/lib/*/libcjson.so.1 | head -1)"
refused "missing module file" "cannot load" "$T_TMP/absent.so"

# Fail closed: a restriction nothing loaded can enforce is refused.
rm -f "$MARK"
run_sup "$(policy workspace_write false false)" --backend-dir "$EMPTY" -- /bin/sh -c "touch '$MARK'"
expect_rc 125 "restriction without an enforcing backend"
expect_err "no enforcement backend in this build enforces" "fail closed"
[ -e "$MARK" ] && fail "fail closed: target ran unsandboxed" || ok "fail closed: target did not run"

# The composition is checked before any hook runs (backend.h, "How
# backends compose"): a backend with work under the policy whose needs no
# other backend offers is refused by name; with them offered it runs and
# sees what the others offer.
RO=$(policy read_only true true)
rm -f "$REC" "$MARK"
run_sup "$RO" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" -- /bin/sh -c "touch '$MARK'"
expect_rc 125 "a backend whose needs nobody offers"
expect_err "needy needs a supervisor that outlives the workload, which no other backend of this set \(sandbox: needy\) offers" \
    "the refusal names the backend and the missing offer"
[ -e "$MARK" ] || [ -e "$REC" ] && fail "a hook or the target ran before the refusal" || ok "nothing ran"
run_sup "$RO" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" \
    --backend-module "$MODS/recorder_giver.so" -- /bin/true
expect_rc 0 "the same backend with its needs offered"
grep -qx 'needy:prepare others=loopback,supervised' "$REC" && ok "its hooks see what the others offer" ||
    fail "recorded: $(cat "$REC")"
# A later backend whose enter() needs the finished view is announced to the
# earlier ones only while it has work under the policy (ctx->later_enter_needs_view).
rm -f "$REC"
run_sup "$(policy read_only true false)" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" \
    --backend-module "$MODS/recorder_giver.so" --backend-module "$MODS/recorder_viewer.so" -- /bin/true
expect_rc 0 "a backend declaring enter_needs_view, with work (localBinding false)"
grep -qx 'needy:enter others=loopback,supervised later-needs-view' "$REC" &&
    grep -qx 'viewer:enter others=loopback,supervised' "$REC" &&
    ok "the backends before it are told, not itself" || fail "recorded: $(cat "$REC")"
rm -f "$REC"
run_sup "$RO" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" \
    --backend-module "$MODS/recorder_giver.so" --backend-module "$MODS/recorder_viewer.so" -- /bin/true
expect_rc 0 "the same set, the viewer without work (localBinding true)"
grep -q 'later-needs-view' "$REC" && fail "told without work: $(cat "$REC")" || ok "nobody is told"
rm -f "$REC"
run_sup "$FULL" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" -- /bin/true
expect_rc 0 "needs are not checked for a backend with no work under the policy (full_access)"
run_sup "$RO" --backend-dir "$EMPTY" --backend-module "$MODS/recorder_needy.so" \
    --backend-module "$MODS/recorder_giver.so" --sandbox nope -- /bin/true
expect_rc 125 "--sandbox naming no backend of the set"
expect_err "--sandbox nope: no such sandbox backend in this build \(it has: needy\)" "the refusal lists the sandbox backends"

# The build's own modules are found by default.
run_sup "$FULL" -- /bin/true
expect_rc 0 "default module directory (the build tree) loads"

finish
