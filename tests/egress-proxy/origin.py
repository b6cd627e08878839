#!/usr/bin/python3
"""origin.py PORTFILE -- a test origin on 127.0.0.1 (host side).

Routes: /hello; /bytes?n=N&seed=S (deterministic bytes); /trickle (1 KiB
every 50 ms, forever); /echo-headers (the request head it received).
Writes its port to PORTFILE once listening, the port of a raw TCP
"digest" server (reads to end of stream, answers its SHA-256) to
PORTFILE.digest, and the port of a "recording" origin to PORTFILE.record:
it writes every byte each connection brings to PORTFILE.rec/conn-N and
answers every request it can frame (head, then Content-Length bytes) with
200 "recorded", never closing first -- a keep-alive origin that would serve
whatever a proxy let through.
"""
import hashlib
import http.server
import os
import socketserver
import threading
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


class RecordHandler(socketserver.BaseRequestHandler):
    """Raw TCP: record everything received; answer each framed request."""

    count = 0
    lock = threading.Lock()

    def handle(self):
        with RecordHandler.lock:
            RecordHandler.count += 1
            n = RecordHandler.count
        path = os.path.join(self.server.rec_dir, "conn-%d" % n)
        buf = b""
        with open(path, "wb", buffering=0) as rec:
            while True:
                data = self.request.recv(65536)
                if not data:
                    break
                rec.write(data)
                buf += data
                buf = self.answer_framed(buf)

    def answer_framed(self, buf):
        while b"\r\n\r\n" in buf:
            head, rest = buf.split(b"\r\n\r\n", 1)
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip() or b"0")
            if len(rest) < length:
                return buf
            buf = rest[length:]
            self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nrecorded\n")
        return buf


class RawServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True


def main():
    raw = RawServer(("127.0.0.1", 0), DigestHandler)
    threading.Thread(target=raw.serve_forever, daemon=True).start()
    with open(sys.argv[1] + ".digest", "w") as f:
        f.write(str(raw.server_address[1]))
    rec = RawServer(("127.0.0.1", 0), RecordHandler)
    rec.rec_dir = sys.argv[1] + ".rec"
    os.makedirs(rec.rec_dir, exist_ok=True)
    threading.Thread(target=rec.serve_forever, daemon=True).start()
    with open(sys.argv[1] + ".record", "w") as f:
        f.write(str(rec.server_address[1]))
    srv = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
