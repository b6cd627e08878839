#!/usr/bin/python3
"""lab_dns.py ADDR LOG READY -- a DNS server on ADDR:53 (UDP and TCP) that
answers each name the way its first label says, for dns-names.sh to point
the egress process's resolver at.  Every query is appended to LOG as
"udp|tcp NAME TYPE"; READY is written once both sockets are bound.

  ok.*        A 1.1.1.1 (AAAA: no data)
  many.*      40 A records, 1.1.1.1 first
  silent.*    no answer at all
  wrongid.*   an answer with another query id
  garbage.*   the right id, a header claiming an answer, then junk
  loop.*      an answer whose name is a compression pointer to itself
  truncated.* UDP: the TC bit and nothing else; TCP: accept, read, close
  nxdomain.*  NXDOMAIN
  servfail.*  SERVFAIL
"""
import socket
import struct
import sys
import threading

addr, log_path, ready = sys.argv[1], sys.argv[2], sys.argv[3]
log = open(log_path, "a", buffering=1)
lock = threading.Lock()


def parse(q):
    """(id, name, qtype, question bytes) of a query, or None."""
    if len(q) < 12:
        return None
    ident = struct.unpack(">H", q[:2])[0]
    i, labels = 12, []
    while i < len(q) and q[i]:
        n = q[i]
        labels.append(q[i + 1:i + 1 + n].decode(errors="replace"))
        i += 1 + n
    if i + 5 > len(q):
        return None
    qtype = struct.unpack(">H", q[i + 1:i + 3])[0]
    return ident, ".".join(labels).lower(), qtype, q[12:i + 5]


def header(ident, flags, an=0):
    return struct.pack(">HHHHHH", ident, flags, 1, an, 0, 0)


def a_record(ip):
    return b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + socket.inet_aton(ip)


def answer(q, transport):
    """The reply to query bytes q, or None for no reply."""
    p = parse(q)
    if p is None:
        return None
    ident, name, qtype, question = p
    with lock:
        log.write("%s %s %d\n" % (transport, name, qtype))
    kind = name.split(".")[0]
    ok = 0x8180
    if kind == "silent":
        return None
    if kind == "wrongid":
        return header(ident ^ 0x5555, ok, 1) + question + a_record("1.1.1.1")
    if kind == "garbage":
        return header(ident, ok, 3) + question + b"\xff\x13\x00\x01junk"
    if kind == "loop":
        rr = b"\xc0" + bytes([12 + len(question)]) + struct.pack(">HHIH", 1, 1, 60, 4) + b"\1\1\1\1"
        return header(ident, ok, 1) + question + rr
    if kind == "truncated":
        return None if transport == "tcp" else header(ident, ok | 0x0200) + question
    if kind == "nxdomain":
        return header(ident, ok | 3) + question
    if kind == "servfail":
        return header(ident, ok | 2) + question
    if qtype != 1:
        return header(ident, ok) + question            # no data
    if kind == "many":
        ips = ["1.1.1.1"] + ["1.1.2.%d" % i for i in range(1, 40)]
        return header(ident, ok, len(ips)) + question + b"".join(a_record(ip) for ip in ips)
    if kind == "ok":
        return header(ident, ok, 1) + question + a_record("1.1.1.1")
    return header(ident, ok | 3) + question


def serve_udp(s):
    while True:
        q, peer = s.recvfrom(4096)
        r = answer(q, "udp")
        if r is not None:
            s.sendto(r, peer)


def serve_tcp_client(c):
    with c:
        c.settimeout(10)
        try:
            n = struct.unpack(">H", c.recv(2))[0]
            q = c.recv(n)
        except (OSError, struct.error):
            return
        r = answer(q, "tcp")
        if r is not None:
            c.sendall(struct.pack(">H", len(r)) + r)


def serve_tcp(s):
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve_tcp_client, args=(c,), daemon=True).start()


u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind((addr, 53))
t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind((addr, 53))
t.listen(64)
threading.Thread(target=serve_udp, args=(u,), daemon=True).start()
with open(ready, "w") as f:
    f.write("ready\n")
serve_tcp(t)
