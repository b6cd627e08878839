# tests/release: the parts of release/ a dist tarball carries.
BINARY_TESTS += tests/release/macos-selftest.sh
EXTRA_DIST += tests/release/macos-selftest.sh
