#!/bin/bash
# tests/core/explain.sh — what --explain says is what a real run does, on
# both Linux backends: over generated policies (explain_gen.py, a scratch
# tree, random grants and denials) and hand-written ones, each read it
# calls allowed reads the file's real content and each refused one does
# not, each write it calls allowed lands and each refused one does not,
# and a Unix socket it calls reachable is reached.  Then hostile policies
# and operations: exit 0 or 125, never a crash, never a raw control byte.
. "$HAS_SRCDIR/tests/lib.sh"
sandbox_require

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
COUNT=${HAS_EXPLAIN_POLICIES:-30}
SEED=${HAS_EXPLAIN_SEED:-$RANDOM}
echo "# seed $SEED (HAS_EXPLAIN_SEED=$SEED replays it)"

# verdicts JSON: "op<TAB>path<TAB>verdict" per line.
verdicts() {
    "$PY" -c 'import json,sys
d = json.load(sys.stdin)
for v in d["verdicts"]: print(v["operation"] + "\t" + (v["path"] or v["given"]) + "\t" + v["verdict"])'
}

# The same operations for real, inside the sandbox: "op<TAB>path<TAB>allowed|refused".
TRY='for op in "$@"; do k=${op%%:*}; p=${op#*:}
  if [ "$k" = read ]; then c=$(cat -- "$p" 2>/dev/null); [ "$c" = "$p" ] && r=allowed || r=refused
  else (printf x >"$p") 2>/dev/null && r=allowed || r=refused; fi
  printf "%s\t%s\t%s\n" "$k" "$p" "$r"; done'

# agree BACKEND POLICY OPS...: explain's verdicts are the run's outcomes.
agree() {
    local backend=$1 policy=$2; shift 2
    local args=() op
    for op in "$@"; do args+=("--${op%%:*}" "${op#*:}"); done
    local said did
    said=$(cd "$T_TMP" && "$SUPERVISOR" --explain=json --sandbox "$backend" --policy "$policy" "${args[@]}" | verdicts) ||
        { fail "$backend: --explain failed for $policy"; return; }
    did=$(cd "$T_TMP" && "$SUPERVISOR" --sandbox "$backend" --policy "$policy" -- bash -c "$TRY" try "$@" 2>/dev/null)
    if [ "$said" = "$did" ]; then ok "$backend: ${#@} operations as explained ($policy)"
    else fail "$backend: explain and the run differ for $policy:"$'\n'"$(diff <(echo "$said") <(echo "$did"))"; fi
}

for backend in linux-ns landlock; do
    if ! why=$("$SUPERVISOR" --explain --sandbox "$backend" \
            --policy '{"mode":"read_only","network":{"egress":false,"localBinding":false}}' 2>&1 >/dev/null); then
        echo "# $backend cannot start here: $why"
        continue
    fi
    tree="$T_TMP/tree-$backend"
    mkdir -p "$tree"
    while IFS= read -r line; do
        IFS=$'\t' read -r -a f <<<"$line"
        agree "$backend" "${f[@]}"
    done < <("$PY" "$HAS_SRCDIR/tests/core/explain_gen.py" "$SEED" "$COUNT" "$tree")

    # Hand-written: a socket in a writable root is reached, one outside is not.
    s="$T_TMP/sock-$backend"; mkdir -p "$s/w" "$s/r"; chmod 777 "$s" "$s/w" "$s/r"
    for d in w r; do
        "$PY" -c 'import socket,sys,time
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); time.sleep(30)' "$s/$d/sock" &
    done
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S "$s/w/sock" ] && [ -S "$s/r/sock" ] && break; sleep 0.2; done
    chmod 777 "$s/w/sock" "$s/r/sock"
    pol='{"mode":"read_only","allowedWritePaths":["'"$s/w"'"],"network":{"egress":false,"localBinding":false}}'
    said=$("$SUPERVISOR" --explain=json --sandbox "$backend" --policy "$pol" --unix-socket "$s/w/sock" \
           --unix-socket "$s/r/sock" | verdicts | cut -f3 | tr '\n' ' ')
    did=$("$SUPERVISOR" --sandbox "$backend" --policy "$pol" -- "$PY" -c 'import socket,sys
for p in sys.argv[1:]:
    c=socket.socket(socket.AF_UNIX)
    try: c.connect(p); print("allowed", end=" ")
    except OSError: print("refused", end=" ")' "$s/w/sock" "$s/r/sock" 2>/dev/null)
    if [ "$said" = "allowed refused " ] && [ "$said" = "$did" ]; then ok "$backend: unix sockets as explained"
    else fail "$backend: unix sockets: explain said '$said', the run did '$did'"; fi
    kill %1 %2 2>/dev/null; wait 2>/dev/null

    # egress false: a destination it calls refused cannot be reached (no network at all).
    pol='{"mode":"read_only","network":{"egress":false,"localBinding":false}}'
    v=$("$SUPERVISOR" --explain=json --sandbox "$backend" --policy "$pol" --connect-to 1.1.1.1:80 | verdicts | cut -f3)
    if [ "$v" = refused ] && ! "$SUPERVISOR" --sandbox "$backend" --policy "$pol" -- "$PY" -c 'import socket
socket.create_connection(("1.1.1.1", 80), timeout=3)' 2>/dev/null; then ok "$backend: a refused destination is not reached"
    else fail "$backend: connect-to 1.1.1.1:80: explain said '$v'"; fi
done

# Hostile input: control bytes, invalid UTF-8, huge and odd arguments.
raw_controls() { LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]' || true; }
bad=$'\x1b[31m\x07\xff\xfe/\x9b'
for args in "--read /$bad" "--write rel/$bad" "--unix-socket /$bad" "--connect-to $bad:80" "--connect-to *.x:1" \
            "--read /a/../b" "--read ''" "--connect-to [::1]:99999"; do
    for fmt in text json brief; do
        eval "set -- $args"
        out=$("$SUPERVISOR" --explain=$fmt --policy '{"mode":"workspace_write","deniedReadPaths":["/'"$bad"'"],"network":{"egress":false,"localBinding":false}}' "$@" 2>"$T_TMP/err")
        rc=$?
        if [ $rc -ne 0 ] && [ $rc -ne 125 ]; then fail "explain $fmt $args: exit $rc"; continue; fi
        n=$(printf '%s' "$out" | raw_controls)
        [ "$n" = 0 ] || fail "explain $fmt $args: $n raw control bytes on stdout"
        if [ "$fmt" = json ] && [ $rc = 0 ] && ! printf '%s' "$out" | "$PY" -c 'import json,sys; json.load(sys.stdin)'; then
            fail "explain json $args: not JSON"
        fi
    done
done
ok "hostile operations: no crash, no raw control byte, JSON parses"

# A launch refused is refused the same way by --explain (same message, 125).
pol='{"mode":"workspace_write","allowedWritePaths":["/nonexistent/has-explain"],"network":{"egress":false,"localBinding":false}}'
"$SUPERVISOR" --sandbox landlock --policy "$pol" -- /bin/true 2>"$T_TMP/run.err"; rc1=$?
"$SUPERVISOR" --explain --sandbox landlock --policy "$pol" >/dev/null 2>"$T_TMP/explain.err"; rc2=$?
if [ $rc1 = 125 ] && [ $rc2 = 125 ] && cmp -s "$T_TMP/run.err" "$T_TMP/explain.err"; then
    ok "a refused launch: --explain exits 125 with the launch's message"
else fail "refused launch: run $rc1 '$(cat "$T_TMP/run.err")', explain $rc2 '$(cat "$T_TMP/explain.err")'"; fi
finish
