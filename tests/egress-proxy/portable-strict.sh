#!/bin/bash
# proxy-strict.sh against the host-loopback path that macOS uses (the copy
# relay enforces the body limit there); see portable-basics.sh.
EGRESS_TEST_PORTABLE=1 exec bash "$HAS_SRCDIR/tests/egress-proxy/proxy-strict.sh"
