#!/bin/bash
# Every generated profile read by TinyScheme (Debian's tinyscheme; Apple's
# libsandbox embeds a TinyScheme to read SBPL): the golden profiles and
# every hostile path component in every place a path can go.  For each,
# (a) TinyScheme reads it without error, with only the SBPL vocabulary the
# generator uses defined (sbpl-recorder.scm); (b)+(c) what it recorded,
# written back, equals the project's own reader's view of the profile
# (sbpl_scheme_dump canon): the same forms with the same strings, byte for
# byte — and for a hostile path, that path appears written exactly as the
# policy gave it.  So TinyScheme and our reader agree that no path added a
# rule (test_hostile.c proves it for our reader).
. "$HAS_SRCDIR/tests/lib.sh"
require_tool tinyscheme tinyscheme

DUMP=$HAS_BUILDDIR/tests/seatbelt/sbpl_scheme_dump
PRELUDE=$HAS_SRCDIR/tests/seatbelt/sbpl-recorder.scm
[ -x "$DUMP" ] || { fail "$DUMP is not built"; finish; }
mkdir -p "$T_TMP/hostile"
"$DUMP" hostile "$T_TMP/hostile" || { fail "could not write the hostile profiles"; finish; }

# scheme_view PROFILE: what TinyScheme recorded, one form per line.
scheme_view() {
    printf '(load "%s")\n(load "%s")\n(print-recorded)\n' "$PRELUDE" "$1" >"$T_TMP/run.scm"
    (cd "$T_TMP" && tinyscheme run.scm </dev/null 2>&1)
}

checked=0 bad=0
for profile in "$HAS_SRCDIR"/tests/seatbelt/golden/*.sb "$T_TMP"/hostile/*.sb; do
    name=$(basename "$profile" .sb)
    scheme_view "$profile" >"$T_TMP/scheme" 
    "$DUMP" canon "$profile" >"$T_TMP/ours" 2>&1 || { fail "$name: our reader refuses it: $(cat "$T_TMP/ours")"; bad=$((bad + 1)); continue; }
    checked=$((checked + 1))
    if grep -q '^Error' "$T_TMP/scheme"; then
        fail "$name: TinyScheme: $(grep -m1 '^Error' "$T_TMP/scheme")"; bad=$((bad + 1)); continue
    fi
    if ! cmp -s "$T_TMP/scheme" "$T_TMP/ours"; then
        fail "$name: TinyScheme read other forms or strings: $(diff "$T_TMP/ours" "$T_TMP/scheme" | head -4)"
        bad=$((bad + 1)); continue
    fi
    if [ -f "${profile%.sb}.path" ] && ! grep -qF -- "$(cat "${profile%.sb}.path")" "$T_TMP/scheme"; then
        fail "$name: the hostile path did not come back byte for byte: $(cat "${profile%.sb}.path")"
        bad=$((bad + 1))
    fi
done
golden=$(ls "$HAS_SRCDIR"/tests/seatbelt/golden/*.sb | wc -l)
hostile=$(ls "$T_TMP"/hostile/*.sb | wc -l)
if [ "$bad" = 0 ] && [ "$checked" = $((golden + hostile)) ] && [ "$hostile" -gt 0 ]; then
    ok "$golden golden and $hostile hostile profiles: TinyScheme reads each as our reader does, strings byte for byte"
else fail "$bad of $checked profiles differ ($golden golden, $hostile hostile expected)"; fi

# The recorder is strict, not a sink: an unknown form or keyword is an error.
printf '(version 1)\n(allow file-read* (xattr "x"))\n' >"$T_TMP/unknown.sb"
if scheme_view "$T_TMP/unknown.sb" | grep -q '^Error'; then ok "a form the generator never writes is an error in TinyScheme"
else fail "the recorder accepted an unknown filter"; fi
# And a profile whose string escaped would be read differently (the check can fail).
printf '(version 1)\n(allow file-read* (literal "a\\")(allow default)"))\n' >"$T_TMP/escaped.sb"
if scheme_view "$T_TMP/escaped.sb" | grep -q '^(allow file-read\* (literal "a\\")(allow default)"))$'; then
    ok "an escaped quote stays inside its string in TinyScheme"
else fail "TinyScheme read the escaped quote differently: $(scheme_view "$T_TMP/escaped.sb")"; fi
finish
