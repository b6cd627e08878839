#!/usr/bin/env bash
# Real work under landlock, as an agent does it at the top of a repository
# whose .git is write-denied and whose .env is read-denied: npm install of
# a local package, python3 -m venv and pip install of a local wheel, git
# status and diff, sed -i, a build in a new directory, ls and find.  Each
# must succeed, and the host's .git and .env must be unchanged (hashed).
# Nothing goes to the network: the package and the wheel are made here.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/landlock/lib-landlock.sh"
ll_require

WS="$T_TMP/ws"
mkdir -p "$WS" "$T_TMP/pkgs"
cd "$WS" || exit 2
printf '#include <stdio.h>\nint main(void) { puts("built and ran"); return 0; }\n' >x.c
printf 'alpha\nbeta\n' >notes.txt
echo 'SECRET=topsecret' >.env
git init -q . && git add x.c notes.txt &&
    git -c user.name=t -c user.email=t@t commit -qm init || { echo "git init failed"; exit 2; }
chmod -R a+rwX "$T_TMP"
POL=$(policy workspace_write false false \
    "\"deniedWritePaths\":[\"$WS/.git\"],\"deniedReadPaths\":[\"$WS/.env\"]")
# Every name, type, mode, size and byte of .git and .env.
host_hash() {
    (cd "$WS" && find .git .env -printf '%p %y %m %s\n' | LC_ALL=C sort &&
        find .git .env -type f -print0 | LC_ALL=C sort -z | xargs -0 cat) | sha256sum
}
BEFORE=$(host_hash)
# Tools write their caches and temporary files into the workspace: /tmp
# and $HOME are the host's, read-only here.
ENVS="HOME=$WS/.home TMPDIR=$WS/.tmp npm_config_cache=$WS/.npm-cache PIP_NO_CACHE_DIR=1 \
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1 GIT_CONFIG_NOSYSTEM=1"
# inside NAME SCRIPT: SCRIPT in the sandbox at the top of the workspace.
inside() {
    ll_run "$POL" -- /usr/bin/env $ENVS PATH="$PATH" /bin/sh -c "mkdir -p .home .tmp && $2"
    expect_rc 0 "$1" && return 0
    echo "# stdout: $OUT"
    return 1
}

# npm install of a tarball made here: node_modules and package-lock.json
# at the top.
if have_tool npm npm && have_tool node nodejs; then
    mkdir -p "$T_TMP/npm-src"
    printf '{"name":"ll-tiny","version":"1.0.0","main":"index.js","license":"MIT"}\n' >"$T_TMP/npm-src/package.json"
    echo 'module.exports = "ll-tiny loaded";' >"$T_TMP/npm-src/index.js"
    if (cd "$T_TMP/npm-src" && HOME=$T_TMP npm_config_cache=$T_TMP/npm-host-cache \
            npm pack --silent --pack-destination "$T_TMP/pkgs" >/dev/null 2>"$T_TMP/npm-pack.err"); then
        inside "npm install of a local package" \
            "npm install --offline --no-audit --no-fund '$T_TMP/pkgs/ll-tiny-1.0.0.tgz' && node -e 'console.log(require(\"ll-tiny\"))'"
        expect_out 'll-tiny loaded' "the installed package loads"
        [ -f "$WS/node_modules/ll-tiny/index.js" ] && [ -f "$WS/package-lock.json" ] &&
            ok "node_modules and package-lock.json at the top" || fail "npm left: $(ls -a "$WS")"
    else
        fail "npm pack of the test package failed: $(cat "$T_TMP/npm-pack.err")"
    fi
fi

# python3 -m venv, and pip install of a wheel built here (offline).
venv_ok() {
    "$PY" -c 'import ensurepip, venv' 2>/dev/null || have_tool "python3's ensurepip" python3-venv
}
if venv_ok; then
    mkdir -p "$T_TMP/py-src/lltiny"
    printf '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "lltiny"\nversion = "1.0"\n' \
        >"$T_TMP/py-src/pyproject.toml"
    echo 'WHAT = "lltiny imported"' >"$T_TMP/py-src/lltiny/__init__.py"
    if HOME=$T_TMP "$PY" -m pip wheel -q --no-build-isolation --no-deps --no-index -w "$T_TMP/pkgs" \
            "$T_TMP/py-src" >"$T_TMP/wheel.err" 2>&1; then
        inside "python3 -m venv .venv and pip install of a local wheel" \
            "$PY -m venv .venv && .venv/bin/pip install -q '$T_TMP/pkgs/lltiny-1.0-py3-none-any.whl' &&
             .venv/bin/python -c 'import lltiny; print(lltiny.WHAT)'"
        expect_out 'lltiny imported' "the installed wheel imports"
        [ -x "$WS/.venv/bin/python" ] && ok ".venv at the top" || fail "no .venv: $(ls -a "$WS")"
    else
        fail "pip wheel of the test package failed (python3-setuptools, python3-wheel): $(tail -3 "$T_TMP/wheel.err")"
    fi
fi

# git status and diff of a change, sed -i (a temporary file renamed over
# the original), a build in a new directory, ls and find.
inside "git status, git diff, sed -i" \
    "sed -i s/beta/gamma/ notes.txt && git status --porcelain && git diff --stat && git diff notes.txt"
expect_out '^ M notes.txt' "git status sees the change"
expect_out '^\+gamma$' "git diff shows it"
expect_content "$WS/notes.txt" "alpha
gamma" "sed -i rewrote the file on the host"
inside "mkdir build, cc, run, rm -rf build" "mkdir build && cc -o build/x x.c && ./build/x && rm -rf build"
expect_out '^built and ran$' "the program built in build/ runs"
[ ! -e "$WS/build" ] && ok "build removed" || fail "build left"
inside "ls and find across the workspace" "ls -a && find . -name '*.c' -o -name index.js | sort && ls .git >/dev/null"
expect_out '^\.env$' "ls lists the top level, the read-denied name among it"
expect_out '^\./x\.c$' "find walks the workspace"

# The denials held throughout.
ll_run "$POL" -- /bin/sh -c 'echo hook >.git/hooks/pre-commit; cat .env; git commit -qam x; rm -rf .git'
expect_out_lacks topsecret "the read-denied .env is not read"
[ "$(host_hash)" = "$BEFORE" ] && [ ! -e "$WS/.git/hooks/pre-commit" ] && ok "the host's .git and .env are unchanged" ||
    fail "the host's .git or .env changed"
# shellcheck disable=SC2010 # ls -a lists the dot-named pool too; the names matched are fixed and plain
[ -z "$(ls -a "$WS" | grep '^\.happy-agent-supervisor-dirs')" ] && ok "no pool of directories left" ||
    fail "a pool left: $(ls -a "$WS")"
finish
