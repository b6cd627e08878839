#!/usr/bin/env bash
# The template backend (tests/core/backends/template, README.md "Adding a
# backend"): what the recipe builds is selectable, listed in --help, runs a
# workload under a policy that restricts nothing, and refuses with 125 every
# policy whose file system restriction it cannot enforce (it enforces
# nothing), in launches and in --explain alike.  Release builds link it
# statically into a second supervisor through the static table; developer
# builds load it as a module (--backend-module).
. "$HAS_SRCDIR/tests/lib.sh"

TPL="$HAS_BUILDDIR/tests/core/backends/template"
FULL=$(policy full_access true true)
RO=$(policy read_only true true)
MARK="$T_TMP/marker"
REFUSAL='^happy-agent-supervisor: template: the template backend enforces nothing; it runs only full_access policies$'

if [ "$HAS_BUILD_KIND" = developer ]; then
    MOD="$TPL/.libs/template.so"
    [ -f "$MOD" ] && ok "the template builds as a module" || fail "no module at $MOD"
    # Alone (an empty module directory), and beside the build's modules.
    EMPTY="$T_TMP/no-modules"
    mkdir -p "$EMPTY"
    SETS=("--backend-dir $EMPTY --backend-module $MOD" "--backend-module $MOD --sandbox template")
else
    SUPERVISOR="$TPL/supervisor"
    [ -x "$SUPERVISOR" ] && ok "the template links into a static supervisor" || fail "no binary at $SUPERVISOR"
    SETS=("--sandbox template")
    # In the static table, on request: listed, not the default.
    run_raw --sandbox nope --policy "$FULL" -- /bin/true
    expect_rc 125 "--sandbox naming no backend"
    expect_err '\(it has: [^)]*\btemplate\b' "the static table lists the template"
    run_raw --help
    expect_out_lacks 'template \(the default\)' "the template is on request"
fi

for set in "${SETS[@]}"; do
    # shellcheck disable=SC2206 # the words of the set, on purpose
    args=($set)
    run_raw "${args[@]}" --help
    expect_rc 0 "--help ($set)"
    expect_out '^ +template: builds no boundary; runs only full_access policies$' "--help lists the template ($set)"
    expect_out_lacks 'cannot list them' "--help lists the sandboxes ($set)"

    run_sup "$FULL" "${args[@]}" -- /bin/true
    expect_rc 0 "/bin/true under full_access ($set)"
    run_sup "$FULL" "${args[@]}" -- /bin/sh -c 'echo ran'
    expect_rc 0 "a workload under full_access ($set)"
    expect_out '^ran$' "the workload ran ($set)"
    run_sup "$FULL" "${args[@]}" --explain
    expect_rc 0 "--explain under full_access ($set)"

    rm -f "$MARK"
    run_sup "$RO" "${args[@]}" -- /bin/sh -c "touch '$MARK'"
    expect_rc 125 "read_only refused ($set)"
    expect_err "$REFUSAL" "the refusal says why ($set)"
    [ -e "$MARK" ] && fail "read_only: the target ran ($set)" || ok "read_only: the target did not run ($set)"
    run_sup "$RO" "${args[@]}" --explain
    expect_rc 125 "--explain refuses read_only as the launch does ($set)"
    expect_err "$REFUSAL" "with the launch's message ($set)"
done

# The shipped binary never holds it.
"$HAS_BUILDDIR/happy-agent-supervisor" --help >"$T_TMP/help" 2>&1
grep -q 'template' "$T_TMP/help" && fail "the build's own binary lists the template" ||
    ok "the build's own binary does not list the template"

finish
