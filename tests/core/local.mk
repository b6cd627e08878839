# tests/core
