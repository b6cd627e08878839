#!/bin/bash
# tests/core/explain.sh — what --explain says is what a real run does, on
# both Linux backends: over generated policies (explain_gen.py, a scratch
# tree, random grants and denials) and hand-written ones, each read it
# calls allowed reads the file's real content and each refused one does
# not, each write it calls allowed lands and each refused one does not,
# and a Unix socket it calls reachable is reached, with each case of
# landlock's reading back of its ruleset (fs_ruleset_decide) by hand;
# linux-ns's masks (a socket SSH_AUTH_SOCK names, /proc's owner-only
# files) and its user-namespace probe (a host with none: 125 and the
# launch's message); landlock's grant of the caller's terminal.  Then
# hostile policies and operations: exit 0 or 125, never a crash, never a
# raw control byte.
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

# The same operations for real, inside the sandbox: "op<TAB>path<TAB>allowed|refused"
# ("list:DIR" is explain's read of a directory: listing it).
TRY='for op in "$@"; do k=${op%%:*}; p=${op#*:}
  if [ "$k" = read ]; then c=$(cat -- "$p" 2>/dev/null); [ "$c" = "$p" ] && r=allowed || r=refused
  elif [ "$k" = list ]; then ls -- "$p" >/dev/null 2>&1 && r=allowed || r=refused; k=read
  else (printf x >"$p") 2>/dev/null && r=allowed || r=refused; fi
  printf "%s\t%s\t%s\n" "$k" "$p" "$r"; done'

# agree BACKEND POLICY OPS...: explain's verdicts are the run's outcomes.
agree() {
    local backend=$1 policy=$2; shift 2
    local args=() op k
    for op in "$@"; do k=${op%%:*}; [ "$k" = list ] && k='read'; args+=("--$k" "${op#*:}"); done
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
    # The same socket named by SSH_AUTH_SOCK: linux-ns binds /dev/null over
    # it (host_ipc.c), landlock does not; explain says which.
    said=$(SSH_AUTH_SOCK="$s/w/sock" "$SUPERVISOR" --explain=json --sandbox "$backend" --policy "$pol" \
           --unix-socket "$s/w/sock" | verdicts | cut -f3)
    did=$(SSH_AUTH_SOCK="$s/w/sock" "$SUPERVISOR" --sandbox "$backend" --policy "$pol" -- "$PY" -c 'import socket,sys
c=socket.socket(socket.AF_UNIX)
try: c.connect(sys.argv[1]); print("allowed")
except OSError: print("refused")' "$s/w/sock" 2>/dev/null)
    want=allowed; [ "$backend" = linux-ns ] && want=refused
    if [ "$said" = "$want" ] && [ "$did" = "$want" ]; then ok "$backend: a socket named by SSH_AUTH_SOCK is $want, as explained"
    else fail "$backend: SSH_AUTH_SOCK socket: explain said '$said', the run did '$did'"; fi
    if [ "$backend" = linux-ns ]; then
        SSH_AUTH_SOCK="$s/w/sock" "$SUPERVISOR" --explain --sandbox linux-ns --policy "$pol" |
            grep -q "^masked-socket $s/w/sock: .*SSH_AUTH_SOCK" && ok "linux-ns: the masked socket is listed" ||
            fail "linux-ns: no masked-socket item for $s/w/sock"
    fi
    kill %1 %2 2>/dev/null; wait 2>/dev/null

    if [ "$backend" = landlock ]; then
        # More directories on the way to a denial than the broker pins
        # (FS_MAX_ANCHORS, 128): a new file in each is made or refused as
        # explained, pinned or not -- and both happen.
        cap="$T_TMP/cap"; den="" ops=()
        for i in $(seq -w 0 139); do
            mkdir -p "$cap/p$i" && echo s >"$cap/p$i/.env"
            den="$den\"$cap/p$i/.env\","; ops+=("write:$cap/p$i/new")
        done
        chmod -R a+rwX "$cap"
        pol='{"mode":"read_only","allowedWritePaths":["'"$cap"'"],"deniedReadPaths":['"${den%,}"'],"network":{"egress":false,"localBinding":false}}'
        said=""
        for at in 0 64 128; do # at most 64 operations a call
            agree landlock "$pol" "${ops[@]:$at:64}"
            # shellcheck disable=SC2046 # the --write options are split into words on purpose; the paths have no spaces
            said="$said$(cd "$T_TMP" && "$SUPERVISOR" --explain=json --sandbox landlock --policy "$pol" \
                $(printf -- '--write %s ' "${ops[@]:$at:64}" | sed 's/write://g') | verdicts | cut -f3)"$'\n'
        done
        said=$(grep . <<<"$said" | sort | uniq -c | tr -s ' \n' ' ')
        case $said in *allowed*refused*) ok "landlock: past the pinned directories, creation is refused there ($said)" ;;
        *) fail "landlock: no directory past the pinned ones among 140 ($said)" ;; esac
    fi

    if [ "$backend" = landlock ]; then
        # Each case of fs_ruleset_decide() against a run: beneath a denial;
        # on the way to one (listed, made by the broker, a name leading to
        # one, outside a writable root); beneath a writable root (in /dev
        # too); a harmless device; the rest of /dev; elsewhere.
        c="$T_TMP/cases" shm="" shmw=""
        mkdir -p "$c/w/sub" "$c/w/ro" "$c/w/secret" "$c/r"
        for f in w/.env w/sub/file w/ro/file w/secret/file r/file; do printf %s "$c/$f" >"$c/$f"; done
        chmod -R a+rwX "$c"
        ops=(read:"$c/w/.env" write:"$c/w/.env" list:"$c/w/secret" read:"$c/w/secret/file" list:"$c/w" list:"$c"
             write:"$c/w/new" write:"$c/new" write:"$c/w/ghost" write:"$c/w/sub/new" write:"$c/w/ro/new"
             read:"$c/w/ro/file" list:"$c/r" read:"$c/r/file" write:"$c/r/new" write:/dev/null)
        if shm=$(mktemp -d /dev/shm/has-explain.XXXXXX 2>/dev/null); then
            mkdir "$shm/in" "$shm/out"
            for d in in out; do printf %s "$shm/$d/file" >"$shm/$d/file"; done
            chmod -R a+rwX "$shm"
            ops+=(read:"$shm/in/file" read:"$shm/out/file" write:"$shm/in/new")
            shmw=',"'"$shm/in"'"'
        else echo "# no /dev/shm directory to make: a writable root in /dev is not tried"; fi
        cpol='{"mode":"read_only","allowedWritePaths":["'"$c/w"'"'"$shmw"'],"deniedReadPaths":["'"$c/w/.env"'","'"$c/w/secret"'","'"$c/w/ghost/x"'"],"deniedWritePaths":["'"$c/w/ro"'"],"network":{"egress":false,"localBinding":false}}'
        agree landlock "$cpol" "${ops[@]}"
        # A path of PATH_MAX bytes or more beneath the writable root: no
        # run can open it, and explain does not judge it as a shorter one
        # (the query is refused before fs_ruleset_decide, whose own refusal
        # of such a path is unit-tested in tests/landlock/test_fs_paths.c).
        seg=$(printf '%*s' 200 '' | tr ' ' y) long="$c/w"
        while [ ${#long} -le 4096 ]; do long="$long/$seg"; done
        out=$(cd "$T_TMP" && "$SUPERVISOR" --explain --sandbox landlock --policy "$cpol" --write "$long" 2>&1); rc=$?
        did=$(cd "$T_TMP" && "$SUPERVISOR" --sandbox landlock --policy "$cpol" -- bash -c "$TRY" try "write:$long" "read:$long" 2>/dev/null | cut -f3 | tr '\n' ' ')
        if [ $rc = 125 ] && grep -q "too long" <<<"$out" && [ "$did" = "refused refused " ]; then
            ok "landlock: a ${#long}-byte path is not judged, and a run cannot reach it"
        else fail "landlock: ${#long}-byte path: explain $rc '${out:0:300}', run '$did'"; fi
        [ -n "$shm" ] && rm -rf "$shm"
    fi

    if [ "$backend" = linux-ns ]; then
        # /proc's owner-only files: each one explain lists is /dev/null (1:3)
        # in the sandbox, and its read verdict is refused; one it does not
        # list (/proc/version) is the kernel's own.
        listed=$("$SUPERVISOR" --explain=json --sandbox linux-ns --policy "$pol" | "$PY" -c 'import json,sys
d = json.load(sys.stdin)
print(" ".join(i["subject"] for i in d["items"] if i["kind"] == "proc-masked"))')
        if [ -z "$listed" ] && [ "$(id -u)" != 0 ] && "$SUPERVISOR" --explain --sandbox linux-ns --policy "$pol" |
                grep -q '^proc /proc: owner-only global files: refused by the kernel to this caller'; then
            ok "linux-ns: not root: no /proc file to mask, as explained (the kernel refuses them to this uid)"
        elif [ -z "$listed" ]; then fail "linux-ns: no proc-masked item"
        else
            # shellcheck disable=SC2086
            devs=$("$SUPERVISOR" --sandbox linux-ns --policy "$pol" -- stat -L -c '%n %t:%T' $listed /proc/version 2>&1)
            bad=$(printf '%s\n' "$devs" | awk '$1 != "/proc/version" && $2 != "1:3"')
            if [ -z "$bad" ] && printf '%s\n' "$devs" | grep -q '^/proc/version 0:0$'; then
                ok "linux-ns: the $(echo "$listed" | wc -w) /proc files explain lists as masked are /dev/null, /proc/version is not"
            else fail "linux-ns: masked /proc files: $devs"; fi
            first=${listed%% *}
            v=$("$SUPERVISOR" --explain=json --sandbox linux-ns --policy "$pol" --read "$first" | verdicts | cut -f3)
            [ "$v" = refused ] && ok "linux-ns: reading $first is refused, as its mask does" ||
                fail "linux-ns: read $first: explain said '$v'"
        fi
        # A host without user namespaces: explain runs the launch's probe and
        # refuses with the launch's message.
        if unshare --user --map-root-user true 2>/dev/null; then
            nouserns() { unshare --user --map-root-user sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh "$@"; }
            nouserns "$SUPERVISOR" --sandbox linux-ns --policy "$pol" -- /bin/true 2>"$T_TMP/run.err"; rc1=$?
            nouserns "$SUPERVISOR" --explain --sandbox linux-ns --policy "$pol" >"$T_TMP/explain.out" 2>"$T_TMP/explain.err"; rc2=$?
            if [ $rc1 = 125 ] && [ $rc2 = 125 ] && cmp -s "$T_TMP/run.err" "$T_TMP/explain.err" &&
               grep -q '^launch: refused: linux-ns: cannot create the sandbox namespaces' "$T_TMP/explain.out"; then
                ok "linux-ns: without user namespaces --explain exits 125 with the launch's message"
            else fail "linux-ns without user namespaces: run $rc1 '$(cat "$T_TMP/run.err")', explain $rc2 '$(cat "$T_TMP/explain.err")'"; fi
        else echo "# no user namespace can be made here to set user.max_user_namespaces=0 in"; fi
    fi
    if [ "$backend" = landlock ] && have_tool script; then
        # The caller's terminal: granted when held as 0-2, not otherwise.
        # In a pty of its own (script): explain and a run with the terminal
        # as 0-2, then both with 0-2 elsewhere.
        T=$T_TMP/term
        cat >"$T.sh" <<'TERMEOF'
sup=$1 pol=$2 T=$3
t=$(tty)
"$sup" --explain=json --sandbox landlock --policy "$pol" --write "$t" >"$T.held.json" 2>/dev/null
"$sup" --sandbox landlock --policy "$pol" -- sh -c '( : >"$1" ) 2>/dev/null && echo allowed || echo refused' sh "$t" >"$T.held.did"
"$sup" --explain=json --sandbox landlock --policy "$pol" --write "$t" </dev/null >"$T.free.json" 2>/dev/null
"$sup" --sandbox landlock --policy "$pol" -- sh -c '( : >"$1" ) 2>/dev/null && echo allowed || echo refused' sh "$t" </dev/null >"$T.free.did" 2>/dev/null
TERMEOF
        script -qc "bash $T.sh '$SUPERVISOR' '$pol' '$T'" /dev/null </dev/null >/dev/null 2>&1
        got=$(verdicts <"$T.held.json" | cut -f3)/$(cat "$T.held.did")/$(verdicts <"$T.free.json" | cut -f3)/$(cat "$T.free.did")
        [ "$got" = allowed/allowed/refused/refused ] &&
            ok "landlock: the caller's terminal is writable when held as 0-2 and not otherwise, as explained" ||
            fail "landlock: terminal (explain/run held, explain/run not held): $got"
    fi

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

# scratch (linux-ns): a write to /tmp is allowed and lands, unless a write
# denial on /tmp wins; a working directory under /tmp is refused by both
# with the same message; landlock refuses the field, explain too.  The
# workspace is in HOME: the scratch hides /tmp, where T_TMP is.
N='"network":{"egress":false,"localBinding":false}'
S='"scratch":{"sizeBytes":2097152}'
case "$HOME" in /tmp | /tmp/* | /var/tmp | /var/tmp/* | "") ws= ;; *) ws=$(mktemp -d "$HOME/.has-explain-test.XXXXXX" 2>/dev/null) ;; esac
if [ -z "$ws" ]; then echo "# scratch: no workspace outside /tmp (HOME=$HOME)"
elif ! "$SUPERVISOR" --explain --sandbox linux-ns --policy "{\"mode\":\"read_only\",$N}" >/dev/null 2>&1; then
    echo "# scratch: linux-ns cannot start here"
else
    T_TMP_SAVED=$T_TMP T_TMP=$ws
    agree linux-ns "{\"mode\":\"workspace_write\",$N,$S}" write:/tmp/has-explain-x write:/var/tmp/has-explain-x
    agree linux-ns "{\"mode\":\"workspace_write\",$N,$S,\"deniedWritePaths\":[\"/tmp\"]}" write:/tmp/has-explain-x
    T_TMP=$T_TMP_SAVED
    [ -e /tmp/has-explain-x ] && fail "scratch: the write to /tmp reached the host's /tmp"
    v=$(cd "$ws" && "$SUPERVISOR" --explain=json --sandbox linux-ns --policy "{\"mode\":\"workspace_write\",$N,$S}" \
        --write /tmp/has-explain-x | verdicts | cut -f3)
    [ "$v" = allowed ] && ok "linux-ns: with scratch a write to /tmp is allowed" ||
        fail "linux-ns: with scratch, a write to /tmp: explain said '$v'"
    brief=$(cd "$ws" && "$SUPERVISOR" --explain=brief --sandbox linux-ns --policy "{\"mode\":\"workspace_write\",$N,$S}")
    printf '%s\n' "$brief" | grep -q '/tmp: private and writable (2 MiB)' &&
        ok "linux-ns: with scratch the brief says /tmp is private and writable" || fail "scratch brief: $brief"
    for backend in linux-ns landlock; do
        d=$(mktemp -d /tmp/has-explain-cwd.XXXXXX); chmod 755 "$d"
        (cd "$d" && "$SUPERVISOR" --sandbox "$backend" --policy "{\"mode\":\"workspace_write\",$N,$S}" -- /bin/true) \
            2>"$ws/run.err"; rc1=$?
        (cd "$d" && "$SUPERVISOR" --explain --sandbox "$backend" --policy "{\"mode\":\"workspace_write\",$N,$S}") \
            >/dev/null 2>"$ws/explain.err"; rc2=$?
        rmdir "$d"
        if [ $rc1 = 125 ] && [ $rc2 = 125 ] && { [ "$backend" = landlock ] || grep -q "working directory $d" "$ws/run.err"; } && cmp -s "$ws/run.err" "$ws/explain.err"; then
            ok "$backend: scratch with a working directory under /tmp: --explain exits 125 with the launch's message"
        else fail "$backend: scratch, cwd $d: run $rc1 '$(cat "$ws/run.err")', explain $rc2 '$(cat "$ws/explain.err")'"; fi
    done
    rm -rf "$ws"
fi

# limits: explain names each limit's mechanism, or refuses (125) with the
# very message of a launch (a host without a usable cgroup v2 group).
for backend in linux-ns landlock; do
    "$SUPERVISOR" --explain --sandbox "$backend" --policy "{\"mode\":\"read_only\",$N}" >/dev/null 2>&1 || continue
    for lim in openFiles:64 processes:512 memoryBytes:268435456; do
        pol="{\"mode\":\"read_only\",$N,\"limits\":{\"${lim%%:*}\":${lim#*:}}}"
        did=$(cd "$T_TMP" && "$SUPERVISOR" --sandbox "$backend" --policy "$pol" -- sh -c 'ulimit -n' 2>"$T_TMP/run.err"); rc1=$?
        said=$(cd "$T_TMP" && "$SUPERVISOR" --explain --sandbox "$backend" --policy "$pol" 2>"$T_TMP/explain.err"); rc2=$?
        item=$(printf '%s\n' "$said" | sed -n "s/^limit ${lim%%:*}: //p")
        case "$lim" in
            openFiles:*) want='^openFiles 64: RLIMIT_NOFILE' ;;
            processes:*) want='^processes 512: (pids.max of a cgroup v2 group|RLIMIT_NPROC in the sandbox.s user namespace)'
                         [ "$backend" = linux-ns ] && [ "$(id -u)" != 0 ] && ! grep -q pids.max <<<"$item" &&
                             want="^processes 512: RLIMIT_NPROC in the sandbox's user namespace" ;;
            memoryBytes:*) want='^memoryBytes 268435456: memory.max of a cgroup v2 group' ;;
        esac
        if [ $rc1 = 125 ] && [ $rc2 = 125 ] && [ -s "$T_TMP/run.err" ] && cmp -s "$T_TMP/run.err" "$T_TMP/explain.err"; then
            ok "$backend: limits.${lim%%:*} refused here: --explain exits 125 with the launch's message"
        elif [ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -Eq "$want" <<<"$item" &&
             { [ "${lim%%:*}" != openFiles ] || [ "$did" = 64 ]; }; then
            ok "$backend: limits.${lim%%:*} as explained: $item"
        else fail "$backend: limits.${lim%%:*}: run $rc1 '$did' '$(cat "$T_TMP/run.err")', explain $rc2 '$item' '$(cat "$T_TMP/explain.err")'"; fi
    done
done

# A launch refused is refused the same way by --explain (same message, 125).
pol='{"mode":"workspace_write","allowedWritePaths":["/nonexistent/has-explain"],"network":{"egress":false,"localBinding":false}}'
"$SUPERVISOR" --sandbox landlock --policy "$pol" -- /bin/true 2>"$T_TMP/run.err"; rc1=$?
"$SUPERVISOR" --explain --sandbox landlock --policy "$pol" >/dev/null 2>"$T_TMP/explain.err"; rc2=$?
if [ $rc1 = 125 ] && [ $rc2 = 125 ] && cmp -s "$T_TMP/run.err" "$T_TMP/explain.err"; then
    ok "a refused launch: --explain exits 125 with the launch's message"
else fail "refused launch: run $rc1 '$(cat "$T_TMP/run.err")', explain $rc2 '$(cat "$T_TMP/explain.err")'"; fi
finish
