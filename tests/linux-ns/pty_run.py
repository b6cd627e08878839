#!/usr/bin/python3
"""pty_run.py CMD...: run CMD with a fresh pseudo-terminal as its controlling
terminal (stdin/stdout/stderr on the pty), print what it wrote, exit with its
status (128+N for a signal)."""
import os, pty, sys

pid, fd = pty.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
