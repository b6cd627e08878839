"""tests/workspace_race.py — the two sides of tests/lib-workspace-race.sh.

flip A B CTL: exchange directories A and B (renameat2 RENAME_EXCHANGE) at
random short intervals while CTL/go exists (acknowledging its number in
CTL/seen); when it does not, put them back as they were and write that
number to CTL/calm.  Ends when CTL/stop exists and prints how many
exchanges it made.

drive CTL N OUT CMD...: N launches of CMD, each started with the names
as they were; CTL/go is made at a random moment of the launch, so that
the exchanges race its set-up, and removed once the launch has ended and
the flipper has seen it.  Every launch's output is appended to OUT; prints
"RAN REFUSED" (exit 125).
"""
import ctypes
import os
import random
import subprocess
import sys
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


def wait_for(path, text):
    while get(path) != text:
        time.sleep(0.0002)


def drive(ctl, n, out, cmd):
    go, seen, calm = (os.path.join(ctl, f) for f in ("go", "seen", "calm"))
    ran = refused = 0
    with open(out, "ab") as log:
        for i in range(n):
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            time.sleep(random.uniform(0, 0.012))  # a launch takes 10-20 ms
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
        drive(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:])
