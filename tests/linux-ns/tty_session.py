#!/usr/bin/python3
"""tty_session.py [--after MARKER ACTION]... -- CMD...: run CMD as a session
leader with a fresh pseudo-terminal as its controlling terminal (as a shell
in a terminal window would run it), and act as the person at the keyboard:
once MARKER has appeared in the output, ACTION is done: "type:TEXT" writes
TEXT to the terminal (\\x03 is ^C), "resize" changes the window size (the
kernel sends SIGWINCH to the terminal's foreground process group).  Prints
everything CMD wrote; exits with its status (128+N for signal N).  Gives up
after 20 s (exit 124)."""
import fcntl, os, pty, select, struct, sys, termios, time

args = sys.argv[1:]
actions = []
while args and args[0] == "--after":
    actions.append((args[1].encode(), args[2]))
    args = args[3:]
if args[:1] == ["--"]:
    args = args[1:]

pid, fd = pty.fork()
if pid == 0:
    try:
        os.execvp(args[0], args)
    finally:
        os._exit(127)
out = b""
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    while actions and actions[0][0] in out:
        marker, action = actions.pop(0)
        if action.startswith("type:"):
            os.write(fd, action[5:].encode().decode("unicode_escape").encode())
        elif action == "resize":
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
else:
    os.kill(pid, 9)
    sys.stdout.write(out.decode(errors="replace"))
    sys.exit(124)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
