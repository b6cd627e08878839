#!/usr/bin/python3
"""sock_client.py tcp PORT | udp PORT | abstract NAME | unix PATH: try to
reach a host listener.  Prints "reached" and exits 0, or prints why not and
exits 1."""
import socket, sys

kind, arg = sys.argv[1], sys.argv[2]
try:
    if kind == "udp":
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(1.0)
        s.sendto(b"ping", ("127.0.0.1", int(arg))); s.recvfrom(100)
    else:
        if kind == "tcp":
            s = socket.socket(); addr = ("127.0.0.1", int(arg))
        else:
            s = socket.socket(socket.AF_UNIX); addr = ("\0" + arg) if kind == "abstract" else arg
        s.settimeout(2.0); s.connect(addr)
        if s.recv(10) != b"hello\n":
            raise OSError("unexpected greeting")
    print("reached"); sys.exit(0)
except (OSError, socket.timeout) as e:
    print("unreachable: %s" % e); sys.exit(1)
