#!/usr/bin/python3
"""lab_upstream.py LOG READY ADDR:PORT MODE [NAME=ADDR...]
-- an upstream HTTP proxy for upstream.sh, inside the test's network lab.

MODE "proxy": a CONNECT-only proxy.  It wants Basic credentials
$LAB_UPSTREAM_AUTH, "user:password" (407 without them, or with others;
not in argv, which a workload under landlock could read in /proc), refuses any host named
"blocked.*" with 403, and resolves names itself: NAME=ADDR first (names the
lab's DNS server does not know), else the system's resolver.  Its 200
carries a marker field the workload must never see; to "banner.*" it sends
a banner right behind the 200, in the same segment, as a server that speaks
first would (the egress process must not swallow it).
Hostile modes, whatever is asked: "garbage" (a binary answer), "huge"
(header lines without end), "silent" (reads, never answers), "close"
(closes at once).

Each request appends one line to LOG: "CONNECT host:port auth=ok|missing|wrong
fields=Name,Name,...".  READY is written once the listener is bound.
"""
import base64
import os
import socket
import sys
import threading

log = open(sys.argv[1], "a", buffering=1)
addr, port = sys.argv[3].rsplit(":", 1)
mode = sys.argv[4]
auth_env = os.environ.get("LAB_UPSTREAM_AUTH")
want = base64.b64encode(auth_env.encode()).decode() if auth_env else None
names = dict(a.split("=", 1) for a in sys.argv[5:])
lock = threading.Lock()
MARKER = b"X-Lab-Upstream-Marker: only-the-egress-process-sees-this\r\n"


def read_head(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return None, b""
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return head.decode("latin-1").split("\r\n"), rest


def pump(src, dst):
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            dst.sendall(b)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def hostile(conn):
    if mode == "garbage":
        conn.sendall(bytes(range(256)) * 4)
    elif mode == "huge":
        try:
            for i in range(20000):
                conn.sendall(b"HTTP/1.1 200 OK\r\n" if i == 0 else b"X-Filler-%d: %s\r\n" % (i, b"y" * 40))
        except OSError:
            pass
    elif mode == "silent":
        try:
            while conn.recv(4096):
                pass
        except OSError:
            pass


def serve(conn):
    with conn:
        if mode == "close":
            return
        lines, rest = read_head(conn)
        if lines is None:
            return
        fields = [l.split(":", 1)[0] for l in lines[1:] if ":" in l]
        auth = "missing"
        for l in lines[1:]:
            if l.lower().startswith("proxy-authorization:"):
                auth = "ok" if want and l.split(":", 1)[1].strip() == "Basic " + want else "wrong"
        with lock:
            log.write("%s auth=%s fields=%s\n" % (lines[0].rsplit(" ", 1)[0], auth, ",".join(fields)))
        if mode != "proxy":
            hostile(conn)
            return
        method, target = lines[0].split(" ")[:2]
        if auth != "ok":
            conn.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"lab\"\r\n"
                         b"Content-Length: 0\r\n\r\n")
            return
        host, _, p = target.rpartition(":")
        host = host.strip("[]")
        if method != "CONNECT" or host.startswith("blocked."):
            conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            return
        try:
            up = socket.create_connection((names.get(host, host), int(p)), timeout=5)
        except OSError:
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        up.settimeout(None)
        banner = b"SSH-2.0-lab-banner\r\n" if host.startswith("banner.") else b""
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n" + MARKER + b"\r\n" + banner)
        if rest:
            up.sendall(rest)
        t = threading.Thread(target=pump, args=(up, conn), daemon=True)
        t.start()
        pump(conn, up)
        t.join()
        up.close()


s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr.strip("[]"), int(port)))
s.listen(64)
open(sys.argv[2], "w").write("ready\n")
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
