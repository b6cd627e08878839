"""tests/workspace_race.py — the two sides of tests/lib-workspace-race.sh.

flip A B CTL: exchange directories A and B (renameat2 RENAME_EXCHANGE) at
random short intervals while CTL/go exists (acknowledging its number in
CTL/seen); when it does not, put them back as they were and write that
number to CTL/calm.  Ends when CTL/stop exists and prints how many
exchanges it made.

drive CTL N OUT POLICY_FILE CMD...: N launches of CMD, which reads the
policy from descriptor 9 (--policy-fd 9).  Each reads it with the names as they were,
and goes on (to getcwd() and the set-up) only when the driver ends it;
CTL/go is made a random 2-12 ms later, so that the exchanges race the
set-up and not the start, and removed once the launch has ended and the
flipper has seen it.  Every launch's output is appended to OUT; prints
"RAN REFUSED" (exit 125).
"""
import ctypes
import fcntl
import os
import random
import subprocess
import struct
import sys
import termios
import time

libc = ctypes.CDLL(None, use_errno=True)


def exchange(a, b):
    return libc.renameat2(-100, a.encode(), -100, b.encode(), 2) == 0


def put(path, text):
    with open(path + ".new", "w") as f:
        f.write(text)
    os.replace(path + ".new", path)


def get(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def flip(a, b, ctl):
    go, seen, calm, stop = (os.path.join(ctl, f) for f in ("go", "seen", "calm", "stop"))
    swapped, n, cur, done = False, 0, None, None
    while not os.path.exists(stop):
        g = get(go)
        if g:
            if g != cur:
                cur = g
                put(seen, g)
            if exchange(a, b):
                swapped, n = not swapped, n + 1
            time.sleep(random.random() * 0.001)
            continue
        if swapped and exchange(a, b):
            swapped = False
        if not swapped and cur != done:
            put(calm, cur)
            done = cur
        time.sleep(0.0002)
    if swapped:
        exchange(a, b)
    print(n)


def wait_for(path, text, seconds=30):
    """Until path holds text; a flipper that never answers (it could not
    start) ends the drive with a message rather than a hang."""
    deadline = time.monotonic() + seconds
    while get(path) != text:
        if time.monotonic() > deadline:
            sys.exit("workspace_race: no answer in %s within %d s: the flipper is not running" % (path, seconds))
        time.sleep(0.0002)


def unread(fd):
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def released(policy, cmd, log):
    """The launch, once it has read the whole policy from descriptor 9 and
    waits for its end: from here on it takes the names as they are."""
    r, w = os.pipe()
    os.dup2(r, 9)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(9,))
    os.close(9)
    os.close(r)
    try:
        os.write(w, policy)  # more than a pipe holds: as the launch reads it
    except BrokenPipeError:
        pass  # it failed before reading (the log says why)
    while proc.poll() is None and unread(w):
        time.sleep(0.0001)
    os.close(w)
    return proc


def drive(ctl, n, out, policy_file, cmd):
    with open(policy_file, "rb") as f:
        policy = f.read()
    go, seen, calm = (os.path.join(ctl, f) for f in ("go", "seen", "calm"))
    ran = refused = 0
    with open(out, "ab") as log:
        for i in range(n):
            proc = released(policy, cmd, log)
            # getcwd() follows the policy's end at once; the set-up takes
            # 5-20 ms more.
            time.sleep(random.uniform(0.002, 0.012))
            put(go, str(i))
            rc = proc.wait()
            wait_for(seen, str(i))  # it raced this launch's set-up
            os.unlink(go)
            wait_for(calm, str(i))  # and put the names back
            if rc == 125:
                refused += 1
            else:
                ran += 1
    print(ran, refused)


if __name__ == "__main__":
    if sys.argv[1] == "flip":
        flip(*sys.argv[2:5])
    else:
        drive(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6:])
