# tests/ mirrors the tree: one local.mk per part.
include tests/core/local.mk
include tests/core/backends/template/local.mk
include tests/linux-common/local.mk
include tests/linux-ns/local.mk
include tests/landlock/local.mk
include tests/egress-proxy/local.mk
include tests/workloads/local.mk
include tests/seatbelt/local.mk
include tests/release/local.mk
