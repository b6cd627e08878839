/*
 * name_views.h — the workload's /etc/resolv.conf and /etc/hosts under the
 * transparent front-end (backends/egress-proxy/README.md, "Transparent
 * front-end"): the sandbox's resolver, and no host entry that would hand
 * out a real address.  Linux, new mount API.
 */
#ifndef HAS_EGRESS_NAME_VIEWS_H
#define HAS_EGRESS_NAME_VIEWS_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Mount a read-only resolv.conf naming 127.0.0.53 and a hosts naming only
 * localhost over the sandbox's own (symlinks followed), from a small
 * detached tmpfs.  Refuses (-1 with a message) when the mount namespace is
 * `host_mntns`: the files would change for the whole host.
 */
int name_views_install(const struct stat *host_mntns, char *err, size_t errlen);

#endif
