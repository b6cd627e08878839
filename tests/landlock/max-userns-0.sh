#!/usr/bin/env bash
# The landlock suites again on the other kind of blocked host: a user
# namespace whose user.max_user_namespaces is 0, so nothing inside can
# create another (lib-landlock.sh, LL_HOST=nouserns).
. "$HAS_SRCDIR/tests/lib.sh"
# That namespace must be makeable here (not in a build root that already
# has none: there the blocked-filter suites stand for it).
if ! unshare --user --map-root-user true 2>/dev/null; then
    sandbox_unavailable "no user namespace can be made here to set user.max_user_namespaces=0 in"
fi
rc=0
for suite in filesystem network attacks top-level real-work; do
    LL_HOST=nouserns bash "$HAS_SRCDIR/tests/landlock/$suite.sh" || rc=1
done
exit $rc
