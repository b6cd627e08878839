#!/bin/bash
# proxy-lifecycle.sh against the host-loopback path that macOS uses (poll(2), the
# copy relay, front-ends bound by the egress process on the host's
# 127.0.0.1 with kernel-chosen ports), built for Linux as
# egress_harness_portable.  See egress-lib.sh for what differs.
EGRESS_TEST_PORTABLE=1 exec bash "$HAS_SRCDIR/tests/egress-proxy/proxy-lifecycle.sh"
