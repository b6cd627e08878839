/*
 * mountinfo.c — the mount table as the kernel lists it
 * (/proc/self/mountinfo), and which filesystems are the kernel's own
 * interfaces rather than storage.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux_common.h"

bool mount_is_kernel_interface(const char *fstype)
{
    static const char *const types[] = {
        "proc",       "sysfs",    "cgroup",    "cgroup2", "debugfs",     "tracefs", "securityfs",
        "bpf",        "configfs", "efivarfs",  "pstore",  "binfmt_misc", "fusectl", "mqueue",
        "rpc_pipefs", "nfsd",     "selinuxfs", "smackfs", "cpuset",
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(fstype, types[i]) == 0)
            return true;
    return false;
}

bool mount_is_host_object_fs(const char *fstype)
{
    return mount_is_kernel_interface(fstype) || strcmp(fstype, "devtmpfs") == 0 ||
           strcmp(fstype, "devpts") == 0;
}

/* Decode mountinfo's octal escapes (\040 for a space, ...) in place. */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r;) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] && r[3]) {
            *w++ = (char)strtol((char[]){r[1], r[2], r[3], 0}, NULL, 8);
            r += 4;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* One line: "ID PARENT MAJ:MIN ROOT POINT OPTS [OPTIONAL...] - FSTYPE
 * SOURCE SUPER".  False for a line that does not parse. */
static bool parse_mount_info(char *line, struct mount_info *m)
{
    line[strcspn(line, "\n")] = '\0';
    if (sscanf(line, "%llu %llu", &m->id, &m->parent) != 2)
        return false;
    char *save = NULL, *tok = strtok_r(line, " ", &save);
    for (int i = 0; tok && i < 4; i++)
        tok = strtok_r(NULL, " ", &save);
    char *point = tok, *opts = strtok_r(NULL, " ", &save);
    while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "-") != 0)
        ; /* optional fields */
    char *fstype = strtok_r(NULL, " ", &save);
    if (!point || !opts || !fstype)
        return false;
    unescape(point);
    m->point = point;
    m->fstype = fstype;
    m->writable = strncmp(opts, "ro", 2) != 0 || (opts[2] != ',' && opts[2] != '\0');
    return true;
}

int mountinfo_each(int (*fn)(const struct mount_info *m, void *arg), void *arg, char *err, size_t errlen)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) {
        snprintf(err, errlen, "cannot read /proc/self/mountinfo: %s", strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        struct mount_info m;
        if (parse_mount_info(line, &m))
            rc = fn(&m, arg);
    }
    free(line);
    fclose(f);
    return rc;
}
