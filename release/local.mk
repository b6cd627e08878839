# release/: nothing for automake to build. The npm packages and the static
# musl binaries are made from a git checkout by the scripts in release/
# (release/check runs them all; see release/README.md), never from a dist
# tarball, so none of release/ is distributed.

# Except the macOS self-test: a Mac user runs it from a checkout or from an
# unpacked release tarball (its Linux-testable parts: tests/release/).
EXTRA_DIST += release/macos-selftest
