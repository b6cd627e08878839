#!/usr/bin/env python3
"""Run inside the sandbox: a local forward proxy for clients that cannot put
credentials in a proxy URL (Chromium).  It listens on 127.0.0.1 (needs
localBinding), writes its port to argv[1], and passes each connection to
the sandbox's HTTP_PROXY with that URL's credentials added to the request
head (a Proxy-Authorization header), then relays bytes both ways.  Only the
first request of a connection gets the header: enough for HTTPS (one CONNECT
per connection) and for the test's one page, not for a keep-alive stream of
plain-HTTP requests."""
import base64, os, socket, sys, threading, urllib.parse

up = urllib.parse.urlsplit(os.environ["HTTP_PROXY"])
auth = base64.b64encode(f"{urllib.parse.unquote(up.username)}:{urllib.parse.unquote(up.password)}".encode())


def pipe(a, b):
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(c):
    head = b""
    while b"\r\n\r\n" not in head:
        data = c.recv(65536)
        if not data:
            return c.close()
        head += data
    first, rest = head.split(b"\r\n", 1)
    u = socket.create_connection((up.hostname, up.port))
    u.sendall(first + b"\r\nProxy-Authorization: Basic " + auth + b"\r\n" + rest)
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
    pipe(c, u)


ls = socket.create_server(("127.0.0.1", 0))
with open(sys.argv[1] + ".new", "w") as f:
    f.write(str(ls.getsockname()[1]))
os.rename(sys.argv[1] + ".new", sys.argv[1])
while True:
    threading.Thread(target=serve, args=(ls.accept()[0],), daemon=True).start()
