#!/usr/bin/env bash
# Workload matrix: Python under the recommended policy: python3 -m venv,
# pip install of a tiny wheel from a simple index the test serves on the
# host's loopback (reached through the proxy: pip honours HTTP_PROXY), and
# pytest with tmp_path (the scratch /tmp on linux-ns; --basetemp in the
# workspace on landlock, which has no scratch).
. "$HAS_SRCDIR/tests/lib.sh"
# Debian's python3 by full path: a PATH may name another (pyenv) first.
PY3=/usr/bin/python3
[ -x "$PY3" ] || require_tool "$PY3" python3
"$PY3" -c 'import venv, ensurepip' 2>/dev/null || require_tool python3-venv-is-missing python3-venv
"$PY3" -c 'import pytest' 2>/dev/null || require_tool pytest python3-pytest
"$PY3" -c 'import wheel, setuptools' 2>/dev/null || require_tool python3-wheel-is-missing python3-wheel
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"

# The wheel, built once on the host, and its index: simple/<name>/index.html.
SRC="$WL_ROOT/wl-src"
IDX="$WL_ROOT/index"
mkdir -p "$SRC/wl_tiny" "$IDX/simple/wl-tiny"
printf '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "wl-tiny"\nversion = "1.0"\n[tool.setuptools]\npackages = ["wl_tiny"]\n' >"$SRC/pyproject.toml"
echo 'def answer(): return 42' >"$SRC/wl_tiny/__init__.py"
(cd "$SRC" && HOME=$T_TMP PIP_NO_CACHE_DIR=1 "$PY3" -m pip wheel -q --no-deps --no-build-isolation -w "$IDX/simple/wl-tiny" . \
    >"$T_TMP/wheel.log" 2>&1) || { echo "building the test wheel failed: $(tail -5 "$T_TMP/wheel.log")"; exit 1; }
WHEEL=$(cd "$IDX/simple/wl-tiny" && ls ./*.whl | sed 's|^\./||')
printf '<html><body><a href="%s">%s</a></body></html>\n' "$WHEEL" "$WHEEL" >"$IDX/simple/wl-tiny/index.html"
wl_serve "$IDX"

entry() {
    local basetemp=''
    wl_workspace "py-$1"
    [ "$1" = landlock ] && basetemp="--basetemp=$WS/.pytest-tmp"
    printf 'import wl_tiny\ndef test_answer(tmp_path):\n    (tmp_path / "f").write_text("x")\n    assert wl_tiny.answer() == 42\n' >test_wl.py
    wl_run "$1" "$(wl_policy "$1" "$ORIGIN_PORT")" "set -e
$PY3 -m venv --system-site-packages venv
venv/bin/pip install -q --disable-pip-version-check --no-cache-dir --index-url http://127.0.0.1:$ORIGIN_PORT/simple/ wl-tiny
venv/bin/python -m pytest -q -p no:cacheprovider $basetemp test_wl.py"
    wl_expect_ok "$1: venv, pip install from the local index, pytest" && expect_out '1 passed' "$1: pytest with tmp_path passed"
    [ -d "$WS/venv/lib" ] && ok "$1: the venv is in the workspace" || fail "$1: no venv in the workspace"
}
wl_matrix python entry
finish
