# shellcheck shell=bash
# release/lib/common.sh — shared by the release scripts (sourced by bash).
#
# Everything is built under a work directory outside the checkout,
# $HAS_RELEASE_WORKDIR (default /tmp/has-release):
#   src/                  Debian source packages (apt-get source), unpacked once
#   source/               the project at HEAD (git archive) + autoreconf
#   <arch>/toolchain/     musl for aarch64 (x86_64 uses Debian's musl-gcc)
#   <arch>/kernel-headers/include/{linux,asm,asm-generic} -> Debian's headers
#   <arch>/deps/          static musl builds of cJSON, libcap-ng, libseccomp, CUnit
#   <arch>/build/         the project, configured with CC=musl-gcc, static
#   dist/vendor/<target>/bin/happy-agent-supervisor   the shipped (stripped) binary
#   npm/                  staged packages and the packed tarballs
set -euo pipefail
# Everything built here is read by the unprivileged test user and packed for
# others: never private to the builder, whatever the caller's umask.
umask 022

RELEASE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHECKOUT=$(cd "$RELEASE_DIR/.." && pwd)
WORK=${HAS_RELEASE_WORKDIR:-/tmp/has-release}
# shellcheck disable=SC2034 # read by the release scripts that source this file
JOBS=${HAS_RELEASE_JOBS:-$(nproc 2>/dev/null || echo 2)}
# Debian source packages of the static dependencies (and musl for aarch64).
DEB_SOURCES=(libseccomp libcap-ng c-ares cjson cunit musl)

log() { printf '[release] %s\n' "$*" >&2; }
die() { printf '[release] error: %s\n' "$*" >&2; exit 1; }

# set_arch ARCH: accepts x86_64|amd64|x64 and aarch64|arm64 and sets
#   ARCH (x86_64|aarch64), NPM_CPU (x64|arm64), TARGET (Rust-style triple,
#   the vendor/ directory), MUSL_HOST (autoconf --host), GNU_PREFIX (Debian
#   cross tools), KERNEL_ASM (Debian's asm headers for ARCH).
# shellcheck disable=SC2034 # set_arch sets these for the release scripts that source this file
set_arch() {
    case "$1" in
        x86_64 | amd64 | x64)
            ARCH=x86_64 NPM_CPU=x64 TARGET=x86_64-unknown-linux-musl
            MUSL_HOST=x86_64-linux-musl GNU_PREFIX=x86_64-linux-gnu-
            KERNEL_INCLUDE=/usr/include KERNEL_ASM=/usr/include/x86_64-linux-gnu/asm ;;
        aarch64 | arm64)
            ARCH=aarch64 NPM_CPU=arm64 TARGET=aarch64-unknown-linux-musl
            MUSL_HOST=aarch64-linux-musl GNU_PREFIX=aarch64-linux-gnu-
            # linux-libc-dev-arm64-cross, pulled in by gcc-aarch64-linux-gnu.
            KERNEL_INCLUDE=/usr/aarch64-linux-gnu/include KERNEL_ASM=/usr/aarch64-linux-gnu/include/asm ;;
        *) die "unknown architecture '$1' (use x86_64 or aarch64)" ;;
    esac
    ARCH_WORK=$WORK/$ARCH
    DEPS=$ARCH_WORK/deps
    BUILD=$ARCH_WORK/build
    SHIPPED=$WORK/dist/vendor/$TARGET/bin/happy-agent-supervisor
}

# The project version, from configure.ac's AC_INIT (the npm version follows it).
project_version() {
    sed -n 's/^AC_INIT(\[happy-agent-supervisor\], *\[\([^]]*\)\].*/\1/p' "$CHECKOUT/configure.ac"
}

# ensure_deb_src: apt-get source needs deb-src entries; add them (deb822,
# mirroring the deb entries) when the machine has none.
ensure_deb_src() {
    if apt-get indextargets 2>/dev/null | grep -q '^Identifier: Sources$'; then
        return 0
    fi
    [ "$(id -u)" = 0 ] || die "no deb-src entry in APT's sources; run as root once so it can be added"
    local list=/etc/apt/sources.list.d/has-release-deb-src
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        log "adding deb-src entries to $list.sources"
        sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$list.sources"
    elif grep -qs '^deb ' /etc/apt/sources.list; then
        log "adding deb-src entries to $list.list"
        sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$list.list"
    else
        die "cannot find Debian's APT sources to derive deb-src entries from"
    fi
    apt-get update -qq
}

# fetch_sources: unpack each Debian source package (with Debian's patches
# applied) under $WORK/src once; APT checks them against the signed index.
fetch_sources() {
    mkdir -p "$WORK/src"
    local pkg updated=0
    for pkg in "${DEB_SOURCES[@]}"; do
        [ -f "$WORK/src/.have-$pkg" ] && continue
        ensure_deb_src
        log "apt-get source $pkg"
        # Each package in its own scratch dir, so a failed try leaves nothing
        # half-unpacked behind.
        local tmp=$WORK/src/.fetch-$pkg
        rm -rf "$tmp" && mkdir -p "$tmp"
        if ! (cd "$tmp" && apt-get source -qq -o APT::Sandbox::User=root "$pkg" >/dev/null 2>&1); then
            # A deb-src entry whose index was never downloaded: update once, retry.
            [ "$updated" = 0 ] && [ "$(id -u)" = 0 ] || die "apt-get source $pkg failed"
            apt-get update -qq && updated=1
            rm -rf "$tmp" && mkdir -p "$tmp"
            (cd "$tmp" && apt-get source -qq -o APT::Sandbox::User=root "$pkg" >/dev/null) || die "apt-get source $pkg failed"
        fi
        find "$WORK/src" -maxdepth 1 -mindepth 1 -type d -name "$pkg-[0-9]*" -exec rm -rf {} +
        mv "$tmp"/* "$WORK/src/" && rmdir "$tmp"
        touch "$WORK/src/.have-$pkg"
    done
}

# source_dir PKG: the unpacked tree of a Debian source package.
source_dir() {
    local dir
    dir=$(find "$WORK/src" -maxdepth 1 -mindepth 1 -type d -name "$1-[0-9]*" | sort | tail -1)
    [ -n "$dir" ] || die "no unpacked source for $1 in $WORK/src"
    printf '%s' "$dir"
}

# prepare_project_source: the project as committed at HEAD, with its own
# autotools output, so a release never depends on what happens to be lying
# around in the working tree. HAS_RELEASE_SOURCE=worktree uses the working
# tree's tracked and untracked-but-not-ignored files instead.
prepare_project_source() {
    local src=$WORK/source mode=${HAS_RELEASE_SOURCE:-head}
    rm -rf "$src" && mkdir -p "$src"
    case "$mode" in
        head)
            log "project source: git HEAD $(git -C "$CHECKOUT" rev-parse --short HEAD)"
            git -C "$CHECKOUT" archive --format=tar HEAD | tar -xf - -C "$src" ;;
        worktree)
            log "project source: the working tree"
            (cd "$CHECKOUT" && git ls-files -z --cached --others --exclude-standard |
                tar --null -T - --ignore-failed-read -cf -) | tar -xf - -C "$src" ;;
        *) die "HAS_RELEASE_SOURCE must be head or worktree" ;;
    esac
    (cd "$src" && autoreconf -fi >"$WORK/autoreconf.log" 2>&1) || { tail -20 "$WORK/autoreconf.log"; die "autoreconf failed"; }
}
