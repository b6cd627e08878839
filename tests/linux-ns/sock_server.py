#!/usr/bin/python3
"""sock_server.py READYFILE [UNIX-PATH...]: listeners on the host — TCP and
UDP (echo) on 127.0.0.1, an abstract unix socket, and a pathname unix socket
at each UNIX-PATH — then write "TCPPORT UDPPORT ABSTRACTNAME" to READYFILE
and serve until killed."""
import os, select, socket, sys

ready, paths = sys.argv[1], sys.argv[2:]
tcp = socket.socket(); tcp.bind(("127.0.0.1", 0)); tcp.listen(16)
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); udp.bind(("127.0.0.1", 0))
name = "has-test-%d" % os.getpid()
ab = socket.socket(socket.AF_UNIX); ab.bind("\0" + name); ab.listen(16)
listeners = [tcp, ab]
for p in paths:
    s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(16); os.chmod(p, 0o777)
    listeners.append(s)
with open(ready + ".tmp", "w") as f:
    f.write("%d %d %s\n" % (tcp.getsockname()[1], udp.getsockname()[1], name))
os.rename(ready + ".tmp", ready)
while True:
    r, _, _ = select.select(listeners + [udp], [], [])
    for s in r:
        if s is udp:
            data, addr = udp.recvfrom(100); udp.sendto(data, addr)
        else:
            try:  # a client that went away (an attack that got in) must not end the listener
                c, _ = s.accept(); c.sendall(b"hello\n"); c.close()
            except OSError:
                pass
