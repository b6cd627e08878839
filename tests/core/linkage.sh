#!/usr/bin/env bash
# Release builds contain no dlopen at all (every backend is in the static
# table); developer builds do load modules.  Checked on the binary itself.
. "$HAS_SRCDIR/tests/lib.sh"

require_tool nm binutils
# Both the dynamic symbol table and, for a static binary, the full one.
syms=$( { nm -D "$SUPERVISOR" 2>/dev/null; nm "$SUPERVISOR" 2>/dev/null; } | awk '{print $NF}' | sort -u)
if [ "${HAS_BUILD_KIND:-release}" = release ]; then
    if printf '%s\n' "$syms" | grep -qE '^_?dl(open|sym|mopen)(@.*)?$'; then
        fail "release binary references dlopen/dlsym: $(printf '%s\n' "$syms" | grep -E 'dl(open|sym)')"
    else
        ok "release binary has no dlopen/dlsym reference"
    fi
    if objdump -p "$SUPERVISOR" 2>/dev/null | grep -q 'NEEDED.*libdl'; then
        fail "release binary links libdl"
    else
        ok "release binary does not link libdl"
    fi
else
    if printf '%s\n' "$syms" | grep -qE '^dlopen(@.*)?$'; then ok "developer binary uses dlopen"
    else fail "developer binary does not reference dlopen"; fi
fi
finish
