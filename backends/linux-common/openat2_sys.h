/*
 * openat2_sys.h — openat2(2) with the UAPI spelt out (openat2_sys.c), for
 * every resolution of a policy or workload path that must not follow a
 * symbolic link (Linux >= 5.6; <linux/openat2.h> is not on every build
 * machine's musl tree, so the constants are the kernel's, written here).
 */
#ifndef HAS_OPENAT2_SYS_H
#define HAS_OPENAT2_SYS_H

#define HAS_RESOLVE_NO_MAGICLINKS 0x02ULL
#define HAS_RESOLVE_NO_SYMLINKS 0x04ULL
#define HAS_RESOLVE_BENEATH 0x08ULL

/* openat2(dir, path, {flags, 0, resolve}): a descriptor, or -1 with errno
 * (ENOSYS where the kernel or a seccomp profile lacks the call). */
int openat2_path(int dir, const char *path, unsigned long long flags, unsigned long long resolve);

#endif
