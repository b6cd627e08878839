#!/bin/bash
# devices.sh — the policy's `devices`, from outside, on both Linux backends:
# a granted character device opens in the sandbox and is listed by
# --explain; without the grant it does not; a block device, a memory
# device, the kernel log, a console, a symbolic link and a missing path are
# refused with 125 before anything runs.  Attacked: the grant used to open
# another minor (a node for it in the workspace, the device next to it in
# /dev), and, as root, the granted path swapped on the host to a refused
# device while launches set up (the node bound or let through is always
# the judged one).
. "$HAS_SRCDIR/tests/lib.sh"
. "$HAS_SRCDIR/tests/linux-ns/lib-ns.sh"
sandbox_require
require_tool python3
PY=python3
[ -c /dev/fuse ] || skip "this host has no /dev/fuse to grant"

ws=$(outside_dir)
chmod 777 "$ws"
cd "$ws" || exit 1
pol() { printf '{"mode":"workspace_write","network":{"egress":false,"localBinding":false},"devices":[%s]}' "$1"; }
opens='import os, sys
for p in sys.argv[1:]:
    try:
        os.close(os.open(p, os.O_RDWR | os.O_NONBLOCK)); print("OPENED", p)
    except OSError as e:
        print("refused", p, e.errno)'

# Host nodes a root test makes in /dev, removed at the end.
cleanup_nodes() { rm -f /dev/has-test-*-$$ /dev/has-test-*-$$.*; }
trap cleanup_nodes EXIT
host_node() { # NAME TYPE MAJOR MINOR: its path (made once)
    local n=/dev/has-test-$1-$$
    [ -e "$n" ] || mknod "$n" "$2" "$3" "$4" && chmod 666 "$n" && echo "$n"
}

backends="linux-ns"
"$SUPERVISOR" --sandbox landlock --policy "$(pol '')" -- true 2>/dev/null && backends="$backends landlock"

for b in $backends; do
    run_sup "$(pol '"/dev/fuse"')" --sandbox "$b" -- "$PY" -c "$opens" /dev/fuse
    expect_rc 0 "$b: a launch with /dev/fuse granted"
    expect_out '^OPENED /dev/fuse$' "$b: the granted /dev/fuse opens for reading and writing"
    run_sup "$(pol '')" --sandbox "$b" -- "$PY" -c "$opens" /dev/fuse
    expect_out '^refused /dev/fuse' "$b: without the grant /dev/fuse does not open"
    run_sup "$(pol '"/dev/fuse"')" --sandbox "$b" --explain --write /dev/fuse --write /dev/kvm
    expect_out '^device /dev/fuse: character device 10:229' "$b: explain lists the grant"
    expect_out '^write /dev/fuse: allowed' "$b: explain allows the granted device"
    expect_out '^write /dev/kvm: refused' "$b: explain refuses the device next to it"

    # Refused before anything runs: 125, one line naming the path and why.
    refused() { # PATH PATTERN WHAT
        rm -f "$ws/ran"
        run_sup "$(pol "\"$1\"")" --sandbox "$b" -- /bin/sh -c "echo ran >'$ws/ran'"
        expect_rc 125 "$b: $3 refused"
        expect_err "$2" "$b: $3: the message says why"
        expect_absent "$ws/ran" "$b: $3: nothing ran"
    }
    refused /dev/has-no-such-device 'devices: /dev/has-no-such-device.*No such file' "a missing device"
    refused /dev/stdin 'devices: /dev/stdin.*symbolic link' "a symbolic link"
    [ -c /dev/kmsg ] && refused /dev/kmsg 'devices: /dev/kmsg .1:11, kmsg. may not be granted: the kernel log' \
        "the kernel log"
    # The kernel's console, whatever its name (ttyS0 on a serial console).
    for c in $(cat /sys/class/tty/console/active 2>/dev/null); do
        [ -c "/dev/$c" ] && refused "/dev/$c" "devices: /dev/$c .* may not be granted: .*console" "the console /dev/$c"
    done
    blk=$(find /dev -maxdepth 1 -type b -print -quit)
    [ -n "$blk" ] && refused "$blk" "devices: $blk is a block device" "a block device ($blk)"
    if is_root; then
        mem=$(host_node mem c 1 1) && refused "$mem" "devices: $mem .1:1.* may not be granted: physical memory" \
            "a node for /dev/mem"
        vc=$(host_node vc c 4 1) && refused "$vc" "devices: $vc .4:1. may not be granted: a virtual console" \
            "a virtual console"
        # Refused by number where this kernel has no driver to list them.
        for spec in "fb 29 0 screen" "usbfs 189 0 raw USB" "i2c 89 0 I2C" "printk 5 3 kernel log" \
            "bsdpty 2 0 legacy pseudo-terminal" "nvram 10 144 firmware" "rawio 162 1 raw I/O" "hvc 229 0 hypervisor console"; do
            set -- $spec
            n=$(host_node "$1" c "$2" "$3") && refused "$n" "devices: $n .$2:$3.* may not be granted: .*${*:4}" \
                "a node for $2:$3 (${*:4})"
        done
        # Another minor of the granted device's major, in the workspace and
        # beside it in /dev: neither opens.
        mknod "$ws/other-minor" c 10 237 && chmod 666 "$ws/other-minor"
        other=$(host_node other c 10 237)
        run_sup "$(pol '"/dev/fuse"')" --sandbox "$b" -- "$PY" -c "$opens" "$ws/other-minor" "$other" /dev/fuse
        expect_out '^OPENED /dev/fuse$' "$b: the grant holds"
        printf '%s\n' "$OUT" | grep -q "^OPENED $ws/other-minor\|^OPENED $other" &&
            fail "$b: a grant of /dev/fuse opened another minor: $OUT" ||
            ok "$b: another minor of the granted major opens neither in the workspace nor in /dev"
        rm -f "$ws/other-minor"
    fi
done

# As root: the granted path swapped on the host between fuse (10:229) and
# the kernel log (1:11) while launches set up.  Each launch is refused, or
# the node the sandbox holds at that path is fuse's.
if is_root; then
    swap=/dev/has-test-swap-$$
    (
        while :; do
            mknod "$swap.fuse" c 10 229 2>/dev/null && mv -f "$swap.fuse" "$swap"
            mknod "$swap.kmsg" c 1 11 2>/dev/null && mv -f "$swap.kmsg" "$swap"
        done
    ) &
    swapper=$!
    for b in $backends; do
        wrong=0 ran=0
        for _ in $(seq 40); do
            run_sup "$(pol "\"$swap\"")" --sandbox "$b" -- "$PY" -c '
import os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
    st = os.fstat(fd)
    print("held %d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev)))
except OSError as e:
    print("refused", e.errno)' "$swap"
            [ "$RC" = 0 ] && ran=$((ran + 1))
            printf '%s\n' "$OUT" | grep -q '^held 1:11' && wrong=$((wrong + 1))
        done
        [ "$wrong" = 0 ] && ok "$b: a swapped grant never opened the kernel log ($ran of 40 launches ran)" ||
            fail "$b: a swapped grant opened the kernel log in $wrong of 40 launches"
    done
    kill "$swapper"
    wait "$swapper" 2>/dev/null
fi
finish
