#!/usr/bin/python3
"""lab_origin.py LOG READY ADDR:PORT... -- the origins of transparent.sh,
inside the test's own network namespace.

Every accepted connection appends "ADDR:PORT" to LOG (line-buffered), so
the test can tell that nothing refused reached an origin.  An HTTP GET is
answered 200 "hello from ADDR:PORT"; any other first bytes are echoed, and
everything after them.  READY is written once every listener is bound.
"""
import socket
import sys
import threading

log = open(sys.argv[1], "a", buffering=1)
lock = threading.Lock()


def serve(conn, where):
    with conn:
        data = conn.recv(4096)
        if data.startswith(b"GET "):
            body = ("hello from %s\n" % where).encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
            return
        while data:
            conn.sendall(data)
            data = conn.recv(65536)


def accept_loop(s, where):
    while True:
        c, _ = s.accept()
        with lock:
            log.write(where + "\n")
        threading.Thread(target=serve, args=(c, where), daemon=True).start()


socks = []
for spec in sys.argv[3:]:
    addr, port = spec.rsplit(":", 1)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, int(port)))
    s.listen(64)
    socks.append((s, spec))
for s, where in socks:
    threading.Thread(target=accept_loop, args=(s, where), daemon=True).start()
open(sys.argv[2], "w").write("ready\n")
threading.Event().wait()
