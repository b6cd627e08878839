#!/usr/bin/env bash
# The landlock suites again on the other kind of blocked host: a user
# namespace whose user.max_user_namespaces is 0, so nothing inside can
# create another (lib-landlock.sh, LL_HOST=nouserns).
rc=0
for suite in filesystem network attacks; do
    LL_HOST=nouserns bash "$HAS_SRCDIR/tests/landlock/$suite.sh" || rc=1
done
exit $rc
