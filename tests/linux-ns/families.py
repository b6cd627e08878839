#!/usr/bin/env python3
"""Create (never connect) one socket, then one socketpair, of each address
family named on the command line as NAME=NUMBER:TYPE; print per family
"NAME socket=ERRNO socketpair=ERRNO" (0: it was created)."""
import ctypes, os, sys

libc = ctypes.CDLL(None, use_errno=True)

def attempt(call, *args):
    ctypes.set_errno(0)
    fds = (ctypes.c_int * 2)(-1, -1)
    rc = call(*args, fds) if call is libc.socketpair else call(*args)
    err = ctypes.get_errno() if rc < 0 else 0
    for fd in ([rc] if call is libc.socket else list(fds)):
        if rc >= 0 and fd >= 0:
            os.close(fd)
    return err

for spec in sys.argv[1:]:
    name, rest = spec.split('=')
    family, sotype = (int(x) for x in rest.split(':'))
    print(name, 'socket=%d' % attempt(libc.socket, family, sotype, 0),
          'socketpair=%d' % attempt(libc.socketpair, family, sotype, 0))
