#!/bin/bash
# namespaces.sh — every namespace the host should not share is the
# sandbox's own: IPC (SysV shared memory and message queues, POSIX message
# queues), UTS (hostname), cgroup; and /sys shows the sandbox's own network
# devices.  The host is checked after each attack.
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require

ws=$(make_workspace)
cd "$ws" || exit 1
IPC="$NS_PY/sysv_ipc.py"

# --- IPC: the host's objects cannot be found, read, written or drained ----
key=$((0x4a5a0000 + $$))
trap '"$PY" "$IPC" remove $key; ns_cleanup' EXIT
ids=$("$PY" "$IPC" create $key)
for mode in read_only workspace_write; do
    for egress in false true; do
        run_sup "$(policy $mode $egress false)" -- "$PY" "$IPC" attack $key $ids
        expect_out_lacks ESCAPED "$mode, egress $egress: host SysV shm, SysV and POSIX queues unreachable"
        expect_out '^refused: mq_open' "$mode, egress $egress: the POSIX queue attempt really ran"
    done
done
run_raw --policy "$(policy read_only false false)" -- "$PY" -c 'import ctypes, os
libc = ctypes.CDLL(None)
shm = libc.shmget(0, 4096, 0o1600)
libc.shmat.restype = ctypes.c_void_p
a = libc.shmat(shm, None, 0)
ctypes.memmove(a, b"own\0", 4)
print("own-shm:", ctypes.string_at(a).decode())
fd = os.open("/dev/mqueue", os.O_RDONLY)
print("mqueue-fs-ok")'
expect_out '^own-shm: own$' "the sandbox's own SysV shared memory works"
expect_out '^mqueue-fs-ok$' "/dev/mqueue is there (the sandbox's own)"
"$PY" "$IPC" check $key >"$T_TMP/ipc"
OUT=$(cat "$T_TMP/ipc")
expect_out '^shm: host-secret$' "host: the shared memory segment is unchanged"
expect_out '^msg: host-secret$' "host: the SysV message is still queued"
expect_out '^mq: host-secret$' "host: the POSIX message is still queued"

# --- UTS: a hostname of its own; setting it renames nothing outside -------
host_name=$(cat /proc/sys/kernel/hostname)
run_sup "$(policy workspace_write false false)" -- sh -c 'hostname; cat /proc/sys/kernel/hostname'
expect_out '^localhost$' "the sandbox's hostname is localhost"
expect_out_lacks "^$host_name\$" "the host's hostname ($host_name) is not shown"
run_sup "$(policy workspace_write true false)" -- "$PY" -c 'import socket; socket.sethostname("has-owned")'
expect_err 'Operation not permitted|Read-only' "sethostname inside is refused"
expect_content /proc/sys/kernel/hostname "$host_name" "host: the hostname is unchanged"

# --- cgroup: the sandbox sees itself at its cgroup root -------------------
run_sup "$(policy workspace_write true false)" -- cat /proc/self/cgroup
if printf '%s\n' "$OUT" | grep -qv ':/$'; then
    fail "the caller's cgroup path shows inside: $OUT"
else
    ok "/proc/self/cgroup names only the sandbox's own cgroup root"
fi
for egress in false true; do
    run_sup "$(policy workspace_write $egress false)" -- sh -c 'ls -A /sys/fs/cgroup | wc -l'
    expect_out '^0$' "egress $egress: no cgroup tree (other services' and users' cgroups) under /sys/fs/cgroup"
done

# --- /sys: the sandbox's own network devices ------------------------------
host_ifs=$(ls /sys/class/net | tr '\n' ' ')
run_sup "$(policy workspace_write false false)" -- sh -c 'ls /sys/class/net | tr "\n" " "; echo; cat /sys/class/net/*/address'
expect_out '^lo $' "egress off: /sys/class/net lists only lo (host: $host_ifs)"
for i in /sys/class/net/*; do
    name=${i##*/}
    [ "$name" = lo ] && continue
    mac=$(cat "$i/address")
    expect_out_lacks "$mac" "egress off: the host's $name MAC address is not shown"
done
run_sup "$(policy workspace_write false false)" -- sh -c 'echo x > /sys/kernel/mm/transparent_hugepage/enabled'
expect_err 'Read-only file system' "/sys is read-only"
finish
