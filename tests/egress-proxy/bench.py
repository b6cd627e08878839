#!/usr/bin/python3
"""bench.py -- the egress proxy benchmark's two halves.

  bench.py origin PORTFILE [ADDR]    host side: STREAM n / HOLD / PING server (on ADDR, default 127.0.0.1)
  bench.py stream PORT BYTES MODE    MODE direct|tunnel|transparent: seconds to read BYTES
  bench.py setup PORT COUNT MODE [ping]  median seconds until bytes can flow (with
                                     ping: until the origin's first byte came back),
                                     and the median of its TCP-connect part
  bench.py hold PORT COUNT READYFILE open COUNT tunnels, signal, hold until killed
  bench.py freeport                  a port on 127.0.0.1 free a moment ago

MODE tunnel: a CONNECT through the proxy in $HTTP_PROXY (ours, squid or
tinyproxy); credentials are sent only when the URL carries them.  MODE
transparent: a plain connect to $BENCH_NAME (resolved once, in the
sandbox: its synthetic address), relayed by the transparent front-end.
$BENCH_CONNECT_HOST: the host a CONNECT asks for (default 127.0.0.1).
"""
import base64
import os
import socket
import socketserver
import statistics
import sys
import threading
import time
import urllib.parse

CHUNK = b"\0" * (1 << 20)


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        s = self.request
        line = b""
        while not line.endswith(b"\n"):
            c = s.recv(64)
            if not c:
                return
            line += c
        cmd = line.split()
        if cmd[0] == b"STREAM":
            n = int(cmd[1])
            view = memoryview(CHUNK)
            while n > 0:
                k = min(n, len(CHUNK))
                s.sendall(view[:k])
                n -= k
            s.shutdown(socket.SHUT_WR)
        elif cmd[0] == b"PING":
            s.sendall(b"P")
        s.recv(1)  # HOLD (and the others): until the client closes


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 2048


def origin(portfile, addr="127.0.0.1"):
    threading.stack_size(256 * 1024)
    srv = Server((addr, 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


_addr = []


def transparent_addr():
    """$BENCH_NAME's address, looked up once: a client resolves, then connects."""
    if not _addr:
        _addr.append(socket.gethostbyname(os.environ["BENCH_NAME"]))
    return _addr[0]


def open_conn(port, mode, times=None):
    """A socket on which bytes reach the origin: direct, or a CONNECT tunnel.
    times, if given, receives the moment the TCP connect completed."""
    if mode in ("direct", "transparent"):
        s = socket.create_connection((transparent_addr() if mode == "transparent" else "127.0.0.1", port))
        if times is not None:
            times.append(time.perf_counter())
        return s, b""
    u = urllib.parse.urlsplit(os.environ["HTTP_PROXY"])
    s = socket.create_connection((u.hostname, u.port))
    if times is not None:
        times.append(time.perf_counter())
    auth = ""
    if u.username is not None:
        cred = base64.b64encode(f"{u.username}:{u.password}".encode()).decode()
        auth = f"Proxy-Authorization: Basic {cred}\r\n"
    # Host: as a client sends it; squid answers 400 to a CONNECT without it.
    host = os.environ.get("BENCH_CONNECT_HOST", "127.0.0.1")
    s.sendall(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n{auth}\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        c = s.recv(4096)
        if not c:
            raise SystemExit("tunnel closed during set-up")
        data += c
    if not (data.startswith(b"HTTP/1.1 200") or data.startswith(b"HTTP/1.0 200")):  # tinyproxy: 1.0
        raise SystemExit("tunnel refused: " + data.split(b"\r\n")[0].decode())
    return s, data.split(b"\r\n\r\n", 1)[1]


def stream(port, nbytes, mode):
    port, nbytes = int(port), int(nbytes)
    s, rest = open_conn(port, mode)
    buf = bytearray(4 << 20)
    view = memoryview(buf)
    start = time.perf_counter()
    s.sendall(b"STREAM %d\n" % nbytes)
    got = len(rest)
    while got < nbytes:
        n = s.recv_into(view)
        if n == 0:
            break
        got += n
    took = time.perf_counter() - start
    if got != nbytes:
        raise SystemExit(f"short stream: {got} of {nbytes}")
    print(f"{took:.6f}")


def setup(port, count, mode, ping=None):
    port, count = int(port), int(count)
    times, connects = [], []
    for _ in range(count):
        mark = []
        start = time.perf_counter()
        s, _ = open_conn(port, mode, mark)
        if ping:
            s.sendall(b"PING\n")
            if s.recv(1) != b"P":
                raise SystemExit("no answer from the origin")
        times.append(time.perf_counter() - start)
        connects.append(mark[0] - start)
        s.close()
    print(f"{statistics.median(times):.6f} {statistics.median(connects):.6f}")


def hold(port, count, readyfile):
    socks = [open_conn(int(port), "tunnel")[0] for _ in range(int(count))]
    for s in socks:
        s.sendall(b"HOLD\n")
    with open(readyfile, "w") as f:
        f.write(str(len(socks)))
    time.sleep(3600)


def freeport():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1])
    s.close()


if __name__ == "__main__":
    globals()[sys.argv[1]](*sys.argv[2:])
