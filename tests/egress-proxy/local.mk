# tests/egress-proxy: rules for this backend's tests.
