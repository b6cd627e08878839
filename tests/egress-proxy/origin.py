#!/usr/bin/python3
"""origin.py PORTFILE -- a test origin on 127.0.0.1 (host side).

Routes: /hello; /bytes?n=N&seed=S (deterministic bytes); /trickle (1 KiB
every 50 ms, forever); /echo-headers (the request head it received).
Writes its port to PORTFILE once listening, and the port of a raw TCP
"digest" server (reads to end of stream, answers its SHA-256) to
PORTFILE.digest.
"""
import hashlib
import http.server
import socketserver
import sys
import time
import urllib.parse


def block(seed):
    return hashlib.sha256(seed.encode()).digest() * 2048  # 64 KiB


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_plain(self, body, length=None):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()

    def do_GET(self):
        try:
            self.route()
        except OSError:
            pass  # the client went away (some tests drop connections on purpose)

    def route(self):
        url = urllib.parse.urlsplit(self.path)
        q = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/hello":
            body = b"hello from origin\n"
            self.send_plain(body)
            self.wfile.write(body)
        elif url.path == "/echo-headers":
            body = (self.requestline + "\n" + str(self.headers)).encode()
            self.send_plain(body)
            self.wfile.write(body)
        elif url.path == "/bytes":
            n = int(q.get("n", "0"))
            blk = block(q.get("seed", ""))
            self.send_plain(None, n)
            while n > 0:
                chunk = blk[: min(n, len(blk))]
                self.wfile.write(chunk)
                n -= len(chunk)
        elif url.path == "/trickle":
            self.send_plain(None, 1 << 40)
            try:
                while True:
                    self.wfile.write(b"x" * 1024)
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
        else:
            self.send_error(404)

    do_POST = do_GET


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 1024


class DigestHandler(socketserver.BaseRequestHandler):
    """Raw TCP: read to end of stream, then answer with the SHA-256 of it."""

    def handle(self):
        h = hashlib.sha256()
        while True:
            data = self.request.recv(65536)
            if not data:
                break
            h.update(data)
        self.request.sendall(h.hexdigest().encode() + b"\n")


class RawServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True


def main():
    raw = RawServer(("127.0.0.1", 0), DigestHandler)
    import threading
    threading.Thread(target=raw.serve_forever, daemon=True).start()
    with open(sys.argv[1] + ".digest", "w") as f:
        f.write(str(raw.server_address[1]))
    srv = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
