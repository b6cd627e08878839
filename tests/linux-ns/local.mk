# tests/linux-ns: rules for this backend's tests.
