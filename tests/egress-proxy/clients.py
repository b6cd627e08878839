#!/usr/bin/python3
"""clients.py COMMAND ... -- proxy clients run inside the sandbox.

Proxy coordinates come from HTTP_PROXY / ALL_PROXY in the environment.
Each command prints one line per finding and exits 0 when everything it
checks held.
  raw-http REQUEST-ESCAPED              send raw bytes, print the status line
  keepalive REQ1 REQ2                   REQ1, its whole response, then REQ2 on the
                                        same connection: print what came back
  socks HOST ATYP PORT [USER PASS [CMD]] print the SOCKS5 reply code (or auth failure)
  concurrent N ORIGINPORT               N CONNECT tunnels open at once, then each fetches
  hostile ORIGINPORT                    hostile clients plus a good one, checks the good one
  tunnel HOST PORT                      CONNECT HOST:PORT, then relay stdin/stdout (an ssh
                                        ProxyCommand that does not depend on the supervisor)
"""
import base64
import hashlib
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse


def proxy(var):
    u = urllib.parse.urlsplit(os.environ[var])
    return u.hostname, u.port, u.username, u.password


def http_proxy_conn():
    host, port, user, pw = proxy("HTTP_PROXY")
    s = socket.create_connection((host, port), timeout=30)
    auth = base64.b64encode(f"{user}:{pw}".encode()).decode()
    return s, auth


def read_head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode(errors="replace"), rest


def connect_tunnel(target):
    s, auth = http_proxy_conn()
    s.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\nProxy-Authorization: Basic {auth}\r\n\r\n".encode())
    head, rest = read_head(s)
    return s, head, rest


def fetch_over(s, path, rest=b""):
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n".encode())
    data = rest
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.decode(errors="replace"), body


def expected(n, seed):
    blk = hashlib.sha256(seed.encode()).digest() * 2048
    out = (blk * (n // len(blk) + 1))[:n]
    return hashlib.sha256(out).hexdigest()


def cmd_raw_http(req):
    s, auth = http_proxy_conn()
    s.sendall(unescape(req, auth))
    head, _ = read_head(s)
    print(head.split("\r\n")[0] if head else "NO-RESPONSE")
    for line in head.split("\r\n")[1:]:
        if line.lower().startswith(("x-happy", "proxy-authenticate")):
            print(line)


def unescape(req, auth):
    return req.replace("AUTH", auth).encode().decode("unicode_escape").encode("latin-1")


def cmd_keepalive(req1, req2):
    s, auth = http_proxy_conn()
    s.sendall(unescape(req1, auth))
    head, rest = read_head(s)
    print("FIRST", head.split("\r\n")[0] if head else "NO-RESPONSE")
    length = 0
    for line in head.split("\r\n")[1:]:
        if line.lower().startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    while len(rest) < length:
        more = s.recv(65536)
        if not more:
            break
        rest += more
    s.settimeout(3)
    try:
        s.sendall(unescape(req2, auth))
        more = s.recv(65536)
        print("SECOND", more.split(b"\r\n")[0].decode("latin-1") if more else "CLOSED")
    except OSError as e:
        print("SECOND", type(e).__name__)


def cmd_socks(host, atyp, port, user=None, pw=None, command="1"):
    phost, pport, puser, ppw = proxy("ALL_PROXY")
    user = puser if user is None else user
    pw = ppw if pw is None else pw
    s = socket.create_connection((phost, pport), timeout=30)
    s.sendall(b"\x05\x01\x02")
    if s.recv(2) != b"\x05\x02":
        print("NO-METHOD")
        return
    s.sendall(b"\x01" + bytes([len(user)]) + user.encode() + bytes([len(pw)]) + pw.encode())
    r = s.recv(2)
    if r != b"\x01\x00":
        print("AUTH-FAILED", r.hex())
        return
    if atyp == "domain":
        addr = b"\x03" + bytes([len(host)]) + host.encode()
    elif atyp == "ipv4":
        addr = b"\x01" + socket.inet_pton(socket.AF_INET, host)
    else:
        addr = b"\x04" + socket.inet_pton(socket.AF_INET6, host)
    s.sendall(b"\x05" + bytes([int(command)]) + b"\x00" + addr + struct.pack(">H", int(port)))
    rep = s.recv(10)
    print("REPLY", rep[1] if len(rep) > 1 else "none")
    if len(rep) > 1 and rep[1] == 0:
        head, body = fetch_over(s, "/hello")
        print("BODY", body.decode().strip())


def cmd_concurrent(n, origin_port):
    n = int(n)
    tunnels = []
    for i in range(n):
        s, head, rest = connect_tunnel(f"127.0.0.1:{origin_port}")
        if not head.startswith("HTTP/1.1 200"):
            print("tunnel", i, "refused:", head.split("\r\n")[0])
            sys.exit(1)
        tunnels.append((s, rest))
    print("OPEN", len(tunnels))
    bad = []

    def work(i):
        s, rest = tunnels[i]
        head, body = fetch_over(s, f"/bytes?n=65536&seed=t{i}", rest)
        if hashlib.sha256(body).hexdigest() != expected(65536, f"t{i}"):
            bad.append(i)
        s.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("GOOD", n - len(bad))
    sys.exit(1 if bad else 0)


def cmd_hostile(origin_port):
    host, port, _, _ = proxy("HTTP_PROXY")
    results = {}

    def garbage():
        s = socket.create_connection((host, port))
        s.sendall(os.urandom(3000).replace(b"\n", b"x"))
        results["garbage"] = read_head(s)[0].split("\r\n")[0]

    def oversized():
        s = socket.create_connection((host, port))
        try:
            s.sendall(b"GET http://127.0.0.1/ HTTP/1.1\r\nX-Big: " + b"a" * 20000)
        except OSError:
            pass
        results["oversized"] = read_head(s)[0].split("\r\n")[0]

    def slowloris():
        s = socket.create_connection((host, port))
        start = time.time()
        try:
            for ch in b"GET http://127.0.0.1/ HTTP/1.1\r\nX: " + b"a" * 1000:
                s.sendall(bytes([ch]))
                time.sleep(0.2)
        except OSError:
            pass
        results["slowloris"] = "closed after %.0fs" % (time.time() - start)

    def idle():
        socks = [socket.create_connection((host, port)) for _ in range(50)]
        time.sleep(4)
        for s in socks:
            s.close()

    # A client that drops its tunnel mid-download (RST): the relay must
    # take the EPIPE/ECONNRESET without dying, and serve the next client.
    s, head, rest = connect_tunnel(f"127.0.0.1:{origin_port}")
    s.sendall(b"GET /bytes?n=67108864&seed=x HTTP/1.1\r\nHost: o\r\n\r\n")
    s.recv(1 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    time.sleep(0.3)

    # A reader that stalls mid-download, holding its tunnel open throughout:
    # back-pressure must stop its upstream, not the loop.
    stalled, _, _ = connect_tunnel(f"127.0.0.1:{origin_port}")
    stalled.sendall(b"GET /bytes?n=67108864&seed=x HTTP/1.1\r\nHost: o\r\n\r\n")
    stalled.recv(1000)

    threads = [threading.Thread(target=f, daemon=True) for f in (garbage, oversized, slowloris, idle)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    start = time.time()
    s, head, rest = connect_tunnel(f"127.0.0.1:{origin_port}")
    h2, body = fetch_over(s, "/bytes?n=8388608&seed=good", rest)
    took = time.time() - start
    good = hashlib.sha256(body).hexdigest() == expected(8388608, "good")
    print("GOOD", "ok" if good else "CORRUPT", "%.1fs" % took)
    for t in threads:
        t.join(timeout=20)
    stalled.close()
    for k in ("garbage", "oversized", "slowloris"):
        print(k.upper(), results.get(k, "no result"))
    # HAS_TEST_TIME_SCALE: an emulated machine (tests/kernels/run-vm under
    # TCG) is several times slower; "promptly" scales with it.
    limit = 5 * float(os.environ.get("HAS_TEST_TIME_SCALE", "1"))
    sys.exit(0 if good and took < limit else 1)


def cmd_halfclose(digest_port, via):
    """Send 1 MiB, half-close, read the digest back: the end of stream must
    reach the origin while the way back stays open."""
    payload = os.urandom(1 << 20)
    if via == "http":
        s, head, rest = connect_tunnel(f"127.0.0.1:{digest_port}")
    else:
        phost, pport, user, pw = proxy("ALL_PROXY")
        s = socket.create_connection((phost, pport), timeout=30)
        s.sendall(b"\x05\x01\x02")
        s.recv(2)
        s.sendall(b"\x01" + bytes([len(user)]) + user.encode() + bytes([len(pw)]) + pw.encode())
        s.recv(2)
        s.sendall(b"\x05\x01\x00\x01" + socket.inet_aton("127.0.0.1") + struct.pack(">H", int(digest_port)))
        s.recv(10)
        rest = b""
    s.sendall(payload)
    s.shutdown(socket.SHUT_WR)
    data = rest
    while True:
        c = s.recv(4096)
        if not c:
            break
        data += c
    ok = data.decode().strip() == hashlib.sha256(payload).hexdigest()
    print("HALFCLOSE", via, "ok" if ok else "MISMATCH " + data.decode(errors="replace")[:80])


def cmd_stall(origin_port, seconds):
    """Request 64 MiB, read 100 bytes, then stall for SECONDS."""
    s, _, _ = connect_tunnel(f"127.0.0.1:{origin_port}")
    s.sendall(b"GET /bytes?n=67108864&seed=x HTTP/1.1\r\nHost: o\r\n\r\n")
    s.recv(100)
    print("STALLED", flush=True)
    time.sleep(float(seconds))


def cmd_tunnel(host, port):
    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    s, head, rest = connect_tunnel(target)
    if not head.startswith("HTTP/1.1 200"):
        sys.exit("tunnel: " + head.splitlines()[0] if head else "tunnel: no reply")
    s.settimeout(None)
    out = sys.stdout.buffer
    out.write(rest)
    out.flush()

    def upstream():
        while True:
            data = os.read(0, 65536)
            if not data:
                s.shutdown(socket.SHUT_WR)
                return
            s.sendall(data)

    threading.Thread(target=upstream, daemon=True).start()
    while True:
        data = s.recv(65536)
        if not data:
            return
        out.write(data)
        out.flush()


def main():
    cmd = sys.argv[1].replace("-", "_")
    globals()["cmd_" + cmd](*sys.argv[2:])


if __name__ == "__main__":
    main()
