# shellcheck shell=bash
# tests/linux-ns/lib-ns.sh — helpers shared by the linux-ns tests (sourced
# after tests/lib.sh).

# shellcheck disable=SC2034 # read by the test scripts that source this file
ATTACK="$HAS_BUILDDIR/tests/linux-ns/helpers/ns_attack"
NS_SELF=$(readlink -f "$0") # the test script, wherever it cd's later
# shellcheck disable=SC2034 # read by the test scripts that source this file
NS_PY="$HAS_SRCDIR/tests/linux-ns"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# A directory outside /tmp, /run and /dev/shm (which are private overlays
# inside the sandbox): writes there must fail with EROFS, not land in a
# private copy.
NS_OUT_BASE=$(mktemp -d /var/tmp/has-ns-test.XXXXXX)
chmod 755 "$NS_OUT_BASE"
ns_cleanup() {
    chmod -R u+rwX "$NS_OUT_BASE" 2>/dev/null
    rm -rf "$NS_OUT_BASE"
    t_cleanup
}
trap ns_cleanup EXIT

# outside_dir: a fresh directory under /var/tmp the test user owns.
outside_dir() {
    local d
    d=$(mktemp -d "$NS_OUT_BASE/d.XXXXXX")
    chmod 755 "$d"
    printf '%s' "$d"
}


# ns_has_mount_setattr: whether this kernel has mount_setattr(2) (Linux
# 5.12; 442 on x86_64 and aarch64).  Without it (Debian 11's 5.10) the
# supervisor takes the legacy mount path by itself (filesystem.sh checks
# that it does), so every run there is already the legacy path's.
ns_has_mount_setattr() {
    "$PY" -c 'import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(442, -1, b"", 0, None, 0)
sys.exit(1 if ctypes.get_errno() == errno.ENOSYS else 0)'
}

# ns_both_mount_paths SUITE: "SUITE modern", then "SUITE legacy" with the
# legacy mount path forced (HAS_FORCE_LEGACY_MOUNT=1, exported); on a
# kernel without mount_setattr only "SUITE legacy": the forced run would
# repeat the same path.
ns_both_mount_paths() {
    if ns_has_mount_setattr; then
        "$1" modern
    else
        echo "# no mount_setattr on this kernel: one run, on the legacy mount path it takes unforced"
    fi
    HAS_FORCE_LEGACY_MOUNT=1
    export HAS_FORCE_LEGACY_MOUNT
    "$1" legacy
}

# ns_finish_both_mount_paths: finish, after running this whole script once
# more with the legacy mount path forced (HAS_FORCE_LEGACY_MOUNT=1, the
# path of kernels before 5.12), as one more assertion -- where the kernel
# has the other path (ns_has_mount_setattr).
ns_finish_both_mount_paths() {
    if [ "${HAS_FORCE_LEGACY_MOUNT:-0}" != 1 ] && ns_has_mount_setattr; then
        echo "# --- again with the legacy mount path"
        if HAS_FORCE_LEGACY_MOUNT=1 bash "$NS_SELF"; then ok "the same checks on the legacy mount path"
        else fail "the legacy mount path (see above)"; fi
    fi
    finish
}
