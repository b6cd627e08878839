#!/usr/bin/python3
"""local_servers.py STATEDIR -- the host-side origins of real-clients.sh.

All on 127.0.0.1 of the host's network namespace (the workload reaches
them only through the proxy).  Files under STATEDIR:
  www/        document root, served by every origin below (a directory
              answers with its index.json or index.html: that is how one
              tree is at once an npm registry -- /NAME is a packument,
              /NAME/-/NAME-1.0.0.tgz a tarball -- and a pip "simple" index)
  git/        GIT_PROJECT_ROOT: /git/... is git's smart HTTP protocol,
              answered by `git http-backend` run as a CGI
  cert.pem, key.pem   the TLS origin's self-signed certificate and key
Origins: "http" and "http2" (plain HTTP; two ports on the same host, for
the host:port rule) and "https" (TLS).  Their ports go to STATEDIR/ports
("NAME PORT" lines, written atomically once all listen); every request is
appended to STATEDIR/requests.log as "NAME METHOD PATH STATUS", so the test
can check what actually reached an origin (and what did not).
"""
import http.server
import os
import socketserver
import ssl
import subprocess
import sys
import threading
import urllib.parse

STATE = sys.argv[1]
WWW = os.path.join(STATE, "www")
LOG_LOCK = threading.Lock()


def log(name, method, path, status):
    with LOG_LOCK, open(os.path.join(STATE, "requests.log"), "a") as f:
        f.write(f"{name} {method} {path} {status}\n")


class Handler(http.server.BaseHTTPRequestHandler):
    # HTTP/1.0 and no keep-alive: the proxy closes after one response anyway
    # (it sends the origin "Connection: close").
    protocol_version = "HTTP/1.0"
    origin = "?"

    def log_message(self, *args):
        pass

    def reply(self, status, body, ctype="application/octet-stream", head=False):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
        log(self.origin, self.command, self.path, status)

    def do_GET(self, head=False):
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith("/git/"):
            return self.git_cgi(url)
        rel = urllib.parse.unquote(url.path).lstrip("/")
        path = os.path.realpath(os.path.join(WWW, rel))
        if path != WWW and not path.startswith(WWW + os.sep):
            return self.reply(404, b"outside the document root\n", "text/plain", head)
        if os.path.isdir(path):
            for index, ctype in (("index.json", "application/json"), ("index.html", "text/html")):
                if os.path.isfile(os.path.join(path, index)):
                    path = os.path.join(path, index)
                    break
            else:
                return self.reply(404, b"no index\n", "text/plain", head)
        else:
            ctype = "application/json" if path.endswith(".json") else "application/octet-stream"
            if path.endswith(".txt"):
                ctype = "text/plain"
        try:
            with open(path, "rb") as f:
                body = f.read()
        except OSError:
            return self.reply(404, b"not found\n", "text/plain", head)
        self.reply(200, body, ctype, head)

    def do_HEAD(self):
        self.do_GET(head=True)

    def git_cgi(self, url):
        # git's smart HTTP: http-backend is a CGI program (RFC 3875).
        length = int(self.headers.get("Content-Length") or 0)
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                n = int(self.rfile.readline().split(b";")[0], 16)
                if n == 0:
                    self.rfile.readline()
                    break
                body += self.rfile.read(n)
                self.rfile.readline()
        else:
            body = self.rfile.read(length) if length else b""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": os.path.join(STATE, "git"),
            "GIT_HTTP_EXPORT_ALL": "1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": urllib.parse.unquote(url.path[len("/git"):]),
            "QUERY_STRING": url.query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": self.client_address[0],
            "SERVER_PROTOCOL": "HTTP/1.0",
        }
        for name in ("Content-Encoding", "Git-Protocol"):
            if self.headers.get(name):
                env["HTTP_" + name.upper().replace("-", "_")] = self.headers[name]
        out = subprocess.run(["git", "http-backend"], input=body, env=env,
                             capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        if not _:
            head, _, payload = out.partition(b"\n\n")
        status, fields = 200, []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                fields.append((name, value.strip()))
        self.send_response(status)
        for name, value in fields:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
        log(self.origin, self.command, self.path, status)

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith("/git/"):
            return self.git_cgi(url)
        self.reply(405, b"GET only\n", "text/plain")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(name, tls=None):
    handler = type(name, (Handler,), {"origin": name})
    srv = Server(("127.0.0.1", 0), handler)
    if tls:
        # The handshake happens in the handler's thread (first read), not
        # in accept(): a stalled client cannot block the listener.
        srv.socket = tls.wrap_socket(srv.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv.server_address[1]


def main():
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(os.path.join(STATE, "cert.pem"), os.path.join(STATE, "key.pem"))
    ports = {"http": serve("http"), "http2": serve("http2"), "https": serve("https", tls)}
    tmp = os.path.join(STATE, "ports.tmp")
    with open(tmp, "w") as f:
        for name, port in ports.items():
            f.write(f"{name} {port}\n")
    os.rename(tmp, os.path.join(STATE, "ports"))
    threading.Event().wait()


if __name__ == "__main__":
    main()
