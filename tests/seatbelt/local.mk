# tests/seatbelt: rules for this backend's tests.
