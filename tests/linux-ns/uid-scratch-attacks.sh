#!/usr/bin/env bash
# An attacker inside linux-ns as it is now: the workload runs as the
# caller's own uid and gid in its user namespace, with "scratch" a private
# tmpfs on /tmp and /var/tmp.  It tries to become uid 0 (setresuid, the
# id maps of itself and of its init, a nested user namespace), and to
# use the scratch tmpfs against the host (a device node, a hard link to a
# host file, a setuid copy of a program, inodes past the bound).  Checked
# from inside and on the host.
. "$HAS_SRCDIR/tests/lib.sh"
sandbox_require
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
me=$(id -u)
my_gid=$(id -g)
ws=$(mktemp -d "$HOME/.has-uid-scratch-attacks.XXXXXX") || skip "cannot make a directory in HOME ($HOME)"
trap 'rm -rf "$ws"; t_cleanup' EXIT
cd "$ws" || exit 2
POL=$(policy workspace_write false false '"scratch":{"sizeBytes":1048576}')
cat >"$ws/probe.py" <<'PYEOF'
import ctypes, errno, os, shutil, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
def call(what, r):
    e = ctypes.get_errno()
    print(what, "ok" if r >= 0 else errno.errorcode.get(e, e), flush=True)
def write(what, path, text):
    try:
        with open(path, "w") as f:
            f.write(text)
        print(what, "ok", flush=True)
    except OSError as e:
        print(what, errno.errorcode.get(e.errno), flush=True)
print("ids", os.getuid(), os.geteuid(), os.getgid(), flush=True)
call("setresuid 0", libc.setresuid(0, 0, 0))
call("setresgid 0", libc.setresgid(0, 0, 0))
write("uid_map self", "/proc/self/uid_map", "0 0 1\n")
write("gid_map self", "/proc/self/gid_map", "0 0 1\n")
write("uid_map init", "/proc/1/uid_map", "0 0 1\n")
call("unshare user", libc.unshare(0x10000000))
for line in open("/proc/self/status"):
    if line.startswith("CapEff"):
        print("capeff", line.split()[1], flush=True)
# The scratch tmpfs against the host.
for m in open("/proc/self/mounts"):
    f = m.split()
    if f[1] in ("/tmp", "/var/tmp"):
        print("mount", f[1], f[2], "nosuid" in f[3].split(","), "nodev" in f[3].split(","), flush=True)
call("mknod char in tmp", libc.mknod(b"/tmp/null2", 0o20666, os.makedev(1, 3)))
call("link host file into tmp", libc.link(b"/etc/hostname", b"/tmp/h"))
shutil.copy("/usr/bin/id", "/tmp/id")
try:
    os.chmod("/tmp/id", 0o4755)
    print("chmod setuid", "ok", flush=True)
except OSError as e:
    print("chmod setuid", errno.errorcode.get(e.errno), flush=True)
print("setuid copy runs as", subprocess.run(["/tmp/id", "-u"], capture_output=True, text=True).stdout.strip(),
      flush=True)
os.unlink("/tmp/id")
n = 0
try:
    while n < 100000:
        os.close(os.open("/tmp/i%d" % n, os.O_CREAT | os.O_WRONLY, 0o600))
        n += 1
except OSError as e:
    print("inodes stop", errno.errorcode.get(e.errno), flush=True)
print("inodes made", n, flush=True)
PYEOF
run_sup "$POL" -- timeout 20 "$PY" "$ws/probe.py"
if [ "$RC" = 125 ]; then
    skip "scratch cannot be mounted here: $ERR"
fi
expect_out "^ids $me $me $my_gid\$" "the workload is the caller's uid and gid"
if [ "$me" != 0 ]; then
    expect_out '^setresuid 0 E' "setresuid(0) refused"
    expect_out '^setresgid 0 E' "setresgid(0) refused"
fi
expect_out '^capeff 0000000000000000$' "no effective capability"
expect_out '^uid_map self E' "its own uid_map is not rewritten"
expect_out '^gid_map self E' "its own gid_map is not rewritten"
expect_out '^uid_map init E' "init's uid_map is not rewritten"
expect_out '^unshare user E' "no nested user namespace"
expect_out '^mount /tmp tmpfs True True$' "/tmp is a nosuid, nodev tmpfs"
expect_out '^mount /var/tmp tmpfs True True$' "/var/tmp is a nosuid, nodev tmpfs"
expect_out '^mknod char in tmp E' "no device node in the scratch"
expect_out '^link host file into tmp E' "no hard link of a host file in the scratch"
expect_out "^setuid copy runs as $me\$" "a setuid copy in the scratch runs as the caller"
expect_out '^inodes stop ENOSPC$' "the scratch's inodes run out"
made=$(printf '%s\n' "$OUT" | sed -n 's/^inodes made //p')
[ -n "$made" ] && [ "$made" -le 300 ] && ok "inodes bounded by the size ($made for 1 MiB)" ||
    fail "inodes made: ${made:-none}"
expect_absent /tmp/h "the scratch's files on the host's /tmp"
expect_absent /tmp/i0 "the scratch's files on the host's /tmp"
finish
